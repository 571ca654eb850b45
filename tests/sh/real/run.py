#!/usr/bin/env python3
"""Whole-script differential tests of the shell against bash 5.2.

Each tests/sh/real/NAME.sh is a realistic script (functions, loops, arrays,
here-documents, error paths). It runs as `bash NAME.sh` would: in a
fresh temporary directory holding only a copy of the script (and, when
tests/sh/real/inputs/NAME/ exists, a copy of the input files in it; a script
writes its outputs only there, so nothing is left in this folder), under a
fixed environment
(LC_ALL=C.UTF-8, TZ=UTC, PATH=/usr/bin:/bin). Its whole stdout, stderr and
exit status are compared with tests/sh/real/expected/NAME.{out,err,status},
which are written by running the host's bash 5.2 (--update) and can be
re-proved against it at any time (--host).

    run.py [--host | --update] [-v] [NAME ...]

Default: `build/sbx sh NAME.sh` (or $SBX sh NAME.sh, e.g. SBX=build-asan/sbx)
against the expected files. Prints
"N passed, N failed" last; exits non-zero when anything failed.
"""
import difflib
import os
import shutil
import signal
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
EXPECTED = os.path.join(HERE, "expected")
INPUTS = os.path.join(HERE, "inputs")
TIMEOUT = 60


def run_one(name, host):
    script = os.path.join(HERE, name + ".sh")
    tmp = tempfile.mkdtemp(prefix="sbx-real-")
    try:
        work = os.path.join(tmp, "w")
        os.mkdir(work)
        shutil.copy(script, os.path.join(work, name + ".sh"))
        inputs = os.path.join(INPUTS, name)
        if os.path.isdir(inputs):
            shutil.copytree(inputs, work, dirs_exist_ok=True)
        env = {"PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8", "TZ": "UTC", "HOME": tmp, "TERM": "dumb"}
        for k in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"):
            if k in os.environ:
                env[k] = os.environ[k]
        sbx = os.path.abspath(os.environ.get("SBX", os.path.join(ROOT, "build", "sbx")))
        argv = ["bash", name + ".sh"] if host else [sbx, "sh", name + ".sh"]
        try:
            p = subprocess.run(argv, cwd=work, env=env, stdin=subprocess.DEVNULL,
                               capture_output=True, timeout=TIMEOUT)
            return p.stdout, p.stderr, p.returncode
        except subprocess.TimeoutExpired as e:
            return e.stdout or b"", (e.stderr or b"") + b"\n[timed out]\n", -1
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def show_diff(label, want, got):
    lines = difflib.unified_diff(want.decode("utf-8", "replace").splitlines(True),
                                 got.decode("utf-8", "replace").splitlines(True),
                                 "expected " + label, "got " + label)
    sys.stdout.write("".join(lines))
    if not want.endswith(b"\n") or not got.endswith(b"\n"):
        sys.stdout.write("\n")


def main():
    args = sys.argv[1:]
    host = "--host" in args
    update = "--update" in args
    verbose = "-v" in args
    names = [a for a in args if not a.startswith("-")]
    if not names:
        names = sorted(f[:-3] for f in os.listdir(HERE) if f.endswith(".sh"))
    passed = failed = 0
    for name in names:
        out, err, status = run_one(name, host or update)
        base = os.path.join(EXPECTED, name)
        if update:
            with open(base + ".out", "wb") as f:
                f.write(out)
            with open(base + ".err", "wb") as f:
                f.write(err)
            with open(base + ".status", "w") as f:
                f.write("%d\n" % status)
            passed += 1
            continue
        want_out, want_err = read(base + ".out"), read(base + ".err")
        want_status = int(read(base + ".status"))
        if (out, err, status) == (want_out, want_err, want_status):
            passed += 1
            if verbose:
                print("ok  ", name)
            continue
        failed += 1
        print("FAIL", name)
        if out != want_out:
            show_diff("stdout", want_out, out)
        if err != want_err:
            show_diff("stderr", want_err, err)
        if status != want_status:
            print("status: expected %d, got %d" % (want_status, status))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    # the cases send HUP, INT and QUIT to jobs and expect bash's defaults: a
    # runner started under nohup (HUP ignored) or in the background would
    # hand its children the ignored signals
    for _sig in (signal.SIGHUP, signal.SIGINT, signal.SIGQUIT):
        signal.signal(_sig, signal.SIG_DFL)
    sys.exit(main())
