#!/usr/bin/python3
"""Runs the command test files tests/cmd/*.t (format: tests/cmd/README.md).

    run.py [--host | --asan | --sbx PATH] [--faketime WHEN] [-j N] [-v] [-k SUBSTR] [FILE.t ...]

Each case runs in a fresh temporary directory holding its `input` and `file:`
files, under LC_ALL=C.UTF-8 and TZ=UTC. By default through `build/sbx sh -c CMD`
(a fresh in-memory sandbox whose working directory is a copy of that directory);
with --host through the host's `bash -c CMD`, which proves the expectations
against GNU's tools. --asan runs build-asan/sbx (ASan+UBSan; also SBX=PATH in
the environment picks the binary): a case whose stderr holds a sanitizer report
fails whatever its expectations say. Prints a closing line "N passed, N failed".

--faketime WHEN runs every case under libfaketime (Debian's faketime), its clock
starting at WHEN ("2027-06-15 12:00:00" in UTC, the cases' zone, or "+400d" from
now) and running on: a case whose expectation holds the day it was written fails there. The
monotonic clock is left alone, so time limits and `sleep` behave as usual.
"""
import argparse
import calendar
import concurrent.futures
import glob
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def unescape(s):
    """C escapes (\\n \\t \\r \\0 \\\\ \\xHH \\NNN octal) to bytes."""
    out = bytearray()
    i = 0
    b = s.encode("utf-8", "surrogateescape")
    while i < len(b):
        c = b[i]
        if c != 0x5C or i + 1 == len(b):
            out.append(c)
            i += 1
            continue
        n = chr(b[i + 1])
        i += 2
        simple = {"n": 10, "t": 9, "r": 13, "\\": 92, "a": 7, "b": 8, "f": 12, "v": 11,
                  "e": 27}
        if n in simple:
            out.append(simple[n])
        elif n == "x":
            m = re.match(rb"[0-9a-fA-F]{1,2}", b[i:])
            out.append(int(m.group(0), 16))
            i += len(m.group(0))
        elif n in "01234567":
            m = re.match(rb"[0-7]{0,2}", b[i:])
            out.append(int(n + m.group(0).decode(), 8) & 0xFF)
            i += len(m.group(0))
        else:
            out += b"\\" + n.encode()
    return bytes(out)


class Case:
    def __init__(self, name, path, line):
        self.name, self.path, self.line = name, path, line
        self.cmd = []
        self.input = None
        self.files = {}
        self.stdin = b""
        self.out = None
        self.err = None
        self.status = 0
        self.host_skip = False
        self.sbx_skip = False


def parse(path):
    cases, cur = [], None
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        for lineno, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            m = re.match(r"([a-z]+):(?: (.*))?$", line)
            if not m:
                raise SystemExit(f"{path}:{lineno}: not a 'key: value' line: {line!r}")
            key, val = m.group(1), m.group(2) or ""
            if key == "test":
                cur = Case(val, path, lineno)
                cases.append(cur)
                continue
            if cur is None:
                raise SystemExit(f"{path}:{lineno}: '{key}:' before any 'test:'")
            if key == "cmd":
                cur.cmd.append(val)
            elif key == "in":
                cur.input = (cur.input or b"") + unescape(val)
            elif key == "file":
                name, _, content = val.partition("=")
                cur.files[name] = cur.files.get(name, b"") + unescape(content)
            elif key == "stdin":
                cur.stdin += unescape(val)
            elif key == "out":
                cur.out = (cur.out or b"") + unescape(val)
            elif key == "err":
                cur.err = (cur.err or b"") + unescape(val)
            elif key == "status":
                cur.status = int(val)
            elif key == "host":
                cur.host_skip = val.strip() == "skip"
            elif key == "sbx":
                cur.sbx_skip = val.strip() == "skip"
            else:
                raise SystemExit(f"{path}:{lineno}: unknown key '{key}:'")
    for c in cases:
        if not c.cmd:
            raise SystemExit(f"{path}:{c.line}: case '{c.name}' has no cmd:")
        if c.out is None:
            raise SystemExit(f"{path}:{c.line}: case '{c.name}' has no out:")
    return cases


# What ASan, LeakSanitizer and UBSan print when they find something.
SANITIZER_REPORT = re.compile(rb"ERROR: (Address|Leak)Sanitizer|runtime error: |"
                              rb"SUMMARY: UndefinedBehaviorSanitizer")


def run_case(case, args):
    d = tempfile.mkdtemp(prefix="sbxt")
    try:
        if case.input is not None:
            with open(os.path.join(d, "input"), "wb") as f:
                f.write(case.input)
        for name, content in case.files.items():
            p = os.path.join(d, name)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            with open(p, "wb") as f:
                f.write(content)
        script = "\n".join(case.cmd)
        env = {"LC_ALL": "C.UTF-8", "TZ": "UTC", "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
               "HOME": d}
        if args.faketime:
            env["NO_FAKE_STAT"] = "1"  # file times stay what the case set
        if args.host:
            argv = ["bash", "-c", script]
        else:
            argv = [args.sbx, "sh", "-c", script]
            for k in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"):
                if k in os.environ:
                    env[k] = os.environ[k]
        if args.faketime:
            # The faketime wrapper, not LD_PRELOAD alone: it owns the shared clock
            # state that every process of the case's pipelines attaches to (a bare
            # preload leaves a semaphore per process in /dev/shm, and loses it when
            # a pipeline's first process exits). An offset keeps the clock running.
            offset = int(args.faketime_epoch - time.time())
            argv = ["faketime", "-m", "--exclude-monotonic", "-f", f"{offset:+d}"] + argv
        try:
            p = subprocess.run(argv, cwd=d, input=case.stdin, capture_output=True,
                               env=env, timeout=args.timeout)
        except subprocess.TimeoutExpired:
            return "timeout", b"", b"", -1
        problems = []
        if not args.host and SANITIZER_REPORT.search(p.stderr):
            problems.append("sanitizer report")
        if p.stdout != case.out:
            problems.append("stdout")
        if case.err is not None and p.stderr != case.err:
            problems.append("stderr")
        if p.returncode != case.status:
            problems.append(f"status {p.returncode} != {case.status}")
        return ", ".join(problems), p.stdout, p.stderr, p.returncode
    finally:
        shutil.rmtree(d, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--host", action="store_true", help="run against the host's GNU tools")
    ap.add_argument("--sbx", default=os.environ.get("SBX") or os.path.join(ROOT, "build", "sbx"))
    ap.add_argument("--asan", action="store_true", help="run build-asan/sbx (sanitizers)")
    ap.add_argument("-v", action="store_true", help="show details of failures")
    ap.add_argument("-k", default=None, help="only cases whose name contains this")
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--faketime", default=None, metavar="WHEN",
                    help="run every case under libfaketime, the clock starting at WHEN")
    ap.add_argument("-j", type=int, default=1, help="cases run at once")
    ap.add_argument("files", nargs="*")
    args = ap.parse_args()
    if args.asan:
        args.sbx = os.path.join(ROOT, "build-asan", "sbx")
    args.sbx = os.path.abspath(args.sbx)
    files = args.files or sorted(glob.glob(os.path.join(HERE, "*.t")))
    if args.faketime and not shutil.which("faketime"):
        raise SystemExit("--faketime needs the faketime command (Debian package faketime)")
    if args.faketime:
        when = args.faketime
        if when.startswith("+") and when.endswith("d"):  # "+400d": days from now
            args.faketime_epoch = time.time() + 86400 * int(when[1:-1])
        else:  # "YYYY-MM-DD HH:MM:SS" in UTC, the cases' time zone
            args.faketime_epoch = calendar.timegm(time.strptime(when, "%Y-%m-%d %H:%M:%S"))
    cases = []
    for path in files:
        for case in parse(path):
            if args.k and args.k not in case.name:
                continue
            cases.append(case)
    passed = failed = skipped = 0
    todo = [c for c in cases if not ((args.host and c.host_skip) or (not args.host and c.sbx_skip))]
    skipped = len(cases) - len(todo)
    # Cases run concurrently (-j) but are reported in file order.
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.j)) as pool:
        results = pool.map(lambda c: run_case(c, args), todo)
        for case, (problem, out, err, rc) in zip(todo, results):
            if not problem:
                passed += 1
                continue
            failed += 1
            print(f"FAIL {os.path.basename(case.path)}:{case.line}: {case.name}: {problem}")
            if args.v or problem.startswith("sanitizer"):
                print(f"  cmd:    {' / '.join(case.cmd)}")
                print(f"  want:   {case.out!r}")
                print(f"  got:    {out!r}")
                if case.err is not None:
                    print(f"  want err: {case.err!r}")
                print(f"  got err:  {err!r}  status {rc}")
    tail = f", {skipped} skipped" if skipped else ""
    print(f"{passed} passed, {failed} failed{tail}")
    return 1 if failed else 0


if __name__ == "__main__":
    # the cases send HUP, INT and QUIT to jobs and expect bash's defaults: a
    # runner started under nohup (HUP ignored) or in the background would
    # hand its children the ignored signals
    for _sig in (signal.SIGHUP, signal.SIGINT, signal.SIGQUIT):
        signal.signal(_sig, signal.SIG_DFL)
    sys.exit(main())
