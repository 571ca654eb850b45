#!/usr/bin/env python3
"""cpython_files.py - CPython's own test modules for files and OS calls
(Debian's libpython3.11-testsuite, /usr/lib/python3.11/test) run INSIDE the
jail, over the FUSE view of the store, with cwd and TMPDIR under /data.

Usage: cpython_files.py [--gate] [--list] [--floor N] [--logs DIR] [MODULE...]

Each module runs in its own `python3 -m test -v` (regrtest, so the tests'
resource switches are honoured: -u all,-network,-largefile,-cpu,-gui,
-audio,-urlfetch) started with subprocess from execute_python in a fresh
LocalSandbox; the output is written to /data/out/MODULE.log and read back
from the host. The closing line is "N passed, F failed": N counts tests that
passed, F is 1 when N is under --floor (the gate), else 0; every failing
test is listed with --list, and the totals (ran, failed, errored, skipped)
per module are always printed. Known failures and their reasons are in
docs/python.md.
"""
import os
import re
import shutil
import sys
import tempfile
import time

GATE = ["test_tempfile", "test_fileio", "test_mmap", "test_fcntl", "test_shutil",
        "test_pathlib", "test_os", "test_zipfile", "test_glob", "test_stat",
        "test_posixpath", "test_genericpath", "test_filecmp", "test_fileinput"]
FULL = GATE + ["test_io", "test_posix", "test_tarfile", "test_file", "test_dbm",
               "test_dbm_dumb", "test_shelve", "test_gzip", "test_bz2", "test_lzma",
               "test_compileall", "test_py_compile", "test_zipapp", "test_mailbox",
               "test_import", "test_largefile", "test_file_eintr"]

RUNNER = r'''
import os, subprocess, sys, time
os.makedirs("/data/tmp", exist_ok=True)
os.makedirs("/data/out", exist_ok=True)
os.makedirs("/data/work", exist_ok=True)
env = {"PATH": "/usr/bin:/bin", "HOME": "/data", "TMPDIR": "/data/tmp",
       "LANG": "C.UTF-8"}
for mod in MODULES:
    with open("/data/out/%s.log" % mod, "wb") as log:
        t0 = time.time()
        try:
            r = subprocess.run(["/usr/bin/python3", "-m", "test", "-v",
                                "-u", "all,-network,-largefile,-cpu,-gui,-audio,-urlfetch",
                                mod], cwd="/data/work", env=env, stdout=log,
                               stderr=subprocess.STDOUT, timeout=PER_MODULE)
            log.write(b"\nexit status %d\n" % r.returncode)
        except subprocess.TimeoutExpired:
            log.write(b"\nTIMEOUT\n")
        log.write(b"\nelapsed %.1f\n" % (time.time() - t0))
'''

RAN = re.compile(r"^Ran (\d+) tests? in", re.M)
RESULT = re.compile(r"^(OK|FAILED)(?: \((.*)\))?$", re.M)
BAD = re.compile(r"^(FAIL|ERROR): (\w+) \(([\w.]+)\)", re.M)


def parse(text):
    """(ran, failures, errors, skipped, [names of failing tests])."""
    ran = sum(int(n) for n in RAN.findall(text))
    fails = errors = skipped = 0
    for _, detail in RESULT.findall(text):
        for part in (detail or "").split(","):
            k, _, v = part.strip().partition("=")
            if not v.isdigit():
                continue
            if k == "failures":
                fails += int(v)
            elif k == "errors":
                errors += int(v)
            elif k == "skipped":
                skipped += int(v)
    names = sorted({"%s (%s)" % (m.group(2), m.group(3)) for m in BAD.finditer(text)})
    return ran, fails, errors, skipped, names


def main(argv):
    args = list(argv)
    gate = "--gate" in args
    listing = "--list" in args
    floor = 0
    logs = None
    if "--logs" in args:
        logs = args[args.index("--logs") + 1]
        os.makedirs(logs, exist_ok=True)
    if "--floor" in args:
        floor = int(args[args.index("--floor") + 1])
    mods = [a for a in args if a.startswith("test_")]
    if not mods:
        mods = GATE if gate else FULL
    mods = list(dict.fromkeys(mods))
    if not os.path.isfile("/usr/lib/python3.11/test/test_os.py"):
        print("cpython-files: /usr/lib/python3.11/test missing "
              "(apt-get install libpython3.11-testsuite, see scripts/deps.sh)")
        print("0 passed, 1 failed")
        return 1
    from localsandbox import LocalSandbox

    per_module = 1200 if not gate else 150
    code = RUNNER.replace("MODULES", repr(mods)).replace("PER_MODULE", str(per_module))
    t0 = time.time()
    # The gate keeps the sandbox's default limits (a 1 GiB file size, which
    # is also the jail's RLIMIT_FSIZE, and its address space limit): the
    # tests of files past 2 GiB then skip or fail the same way every time.
    # The full run raises them so those tests run.
    limits = {"cpu_seconds": 3600}
    if not gate:
        limits.update({"memory_bytes": 8 << 30, "max_file_size": 8 << 30})
    # A database file, as a long-lived agent sandbox is (an in-memory one
    # holds about 950 MB of file data, less than test_largefile copies).
    tmpdir = tempfile.mkdtemp(prefix="sbx-cpython-files-")
    sb = LocalSandbox(path=os.path.join(tmpdir, "sandbox.db"), limits=limits)
    try:
        r = sb.execute_python(code, timeout=per_module * len(mods) + 60)
        if r.error_kind:
            print("cpython-files: the runner failed: %s %s" % (r.error_kind, r.stderr[-2000:]))
        total_pass = 0
        for mod in mods:
            try:
                text = sb.read_file_bytes("/data/out/%s.log" % mod).decode("utf-8", "replace")
            except Exception as e:  # noqa: BLE001 - a missing log is a failure to report
                print("%s: no log (%s)" % (mod, e))
                continue
            if logs:
                with open(os.path.join(logs, mod + ".log"), "w") as f:
                    f.write(text)
            ran, fails, errors, skipped, names = parse(text)
            passed = max(ran - fails - errors - skipped, 0)
            total_pass += passed
            note = " TIMEOUT" if "\nTIMEOUT\n" in text else ""
            m = re.search(r"^elapsed ([\d.]+)$", text, re.M)
            print("%-18s ran %4d  passed %4d  failed %3d  errors %3d  skipped %3d  %5s s%s"
                  % (mod, ran, passed, fails, errors, skipped, m.group(1) if m else "?", note))
            if listing:
                for n in names:
                    print("    " + n)
    finally:
        sb.destroy()
        shutil.rmtree(tmpdir, ignore_errors=True)
    print("cpython-files: %d tests passed in %d modules, %.0f s (floor %d)"
          % (total_pass, len(mods), time.time() - t0, floor))
    bad = 1 if total_pass < floor else 0
    print("%d passed, %d failed" % (total_pass, bad))
    return bad


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
