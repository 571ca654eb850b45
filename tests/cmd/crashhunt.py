#!/usr/bin/python3
"""Crash hunt: hostile arguments, inputs and environments for every table command.

For each command of `sbx sh -c 'compgen -c'` (shell keywords left out), the driver
reads the command's --help, collects its short and long options, and generates
cases: each option with a missing, empty, huge, negative, non-numeric, NaN, 2^63 or
1e308 argument; hostile operands (empty file, binary file, NUL bytes, invalid UTF-8,
a 2 MB single line, a directory, a missing file, a symlink loop, a name with a
newline) both as operands and as standard input; and garbage values of the
environment variables commands read (VERSION_CONTROL, TZ, LC_ALL, COLUMNS, ...).

Cases run through the ASan+UBSan binary (build-asan/sbx sh -c) in batches: each
batch is one shell script whose prelude makes the fixture files inside the
in-memory sandbox, then runs each case as
    echo @@C N >&2; CMD ARGS <STDIN 2>/dev/null | head -c 65536 >/dev/null
The sanitizers write straight to the process's stderr, so the last @@C marker
before a report names the case. A batch that dies (signal: status >= 128 or
ASan's abort), prints 'runtime error:' / 'AddressSanitizer' / 'LeakSanitizer', or
runs past its timeout is a finding for the case it stopped in; the batch resumes
after that case (a batch timeout counts only when the case alone times out).
A LeakSanitizer report (printed at exit) is bisected by running
the batch's cases one by one. Outputs are bounded (head -c inside, -c 1 MB of
captured stderr outside, ulimit -f) and each batch runs under `timeout`.

    tests/cmd/crashhunt.py [--sbx build-asan/sbx] [--only CMD,...] [--batch N]
                           [--timeout S] [--list] [-v]
Exit status 1 when there is a finding (printed as: command, case, symptom).
"""
import argparse
import os
import re
import resource
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Commands left out: network clients, the Python interpreter, commands that wait
# on purpose (sleep with a huge count is not a hang), and shell keywords.
SKIP = {"curl", "wget", "python3", "python", "pip", "pip3", "exit", "exec", "logout",
        "suspend", "wait", "read", "fg", "bg", "coproc", "select", "until", "while",
        "for", "if", "then", "else", "elif", "fi", "do", "done", "case", "esac", "in",
        "function", "time", "{", "}", "!", "[[", "]]", "return", "break", "continue",
        "trap", "ulimit", "kill", "fc", "history", "disown", "jobs", "enable", "source", ".", "eval", "builtin", "command"}
# The numbers and words every option argument is tried with.
VALUES = ["", "0", "-1", "-9223372036854775808", "9223372036854775808",
          "18446744073709551617", "99999999999999999999999", "1e308", "nan", "inf",
          "-inf", "0x", "abc", "%", "%n%s%s%s", "\\", "1k", "99999999999Y", "-0",
          "1.5", "\xff\xfe", "'", "[", "a{1,}*", "--", "/", "9" * 400, ",", ":"]
ENVS = ["VERSION_CONTROL", "SIMPLE_BACKUP_SUFFIX", "TZ", "LC_ALL", "LANG", "LC_CTYPE",
        "LC_COLLATE", "POSIXLY_CORRECT", "COLUMNS", "TABSIZE", "LS_COLORS", "TIME_STYLE",
        "BLOCK_SIZE", "LS_BLOCK_SIZE", "DU_BLOCK_SIZE", "QUOTING_STYLE", "GREP_COLORS",
        "GREP_COLOR", "TMPDIR", "TERM", "BC_LINE_LENGTH", "OMP_NUM_THREADS",
        "OMP_THREAD_LIMIT", "SBX_AWK_MAX_MEM", "SBX_AWK_MAX_ITER", "IFS", "PATH", "HOME"]
ENV_VALUES = ["xyz", "", "-1", "0", "9999999999999999999", "+%", "posix-%Q",
              "/../../../x", ":::", "di=01;3\\", "a=b:*.x=\\x", "UTC+999999",
              "<+99>-99:99:99", "\xff", "ne=1:mt=:sl=\\"]
FIXTURES = ["empty", "bin", "nul", "badutf", "big", "dir", "missing", "loop",
            "'nl\nname'", "-", "/dev/null", "."]
PRELUDE = r"""
: > empty
printf '\x00\x01\x02\xff\xfe\x80abc\n\x00' > bin
printf 'a\0b\0\0c\n\0' > nul
printf '\xc3\x28 \xe2\x82 \xf0\x9f\x98\n\xff\n' > badutf
yes abcdefghijklmnopqrstuvwxyz0123456789 | head -c 2000000 | tr -d '\n' > big
mkdir -p dir/sub && printf 'x\n' > dir/f
ln -s loop loop 2>/dev/null
printf 'x\n' > 'nl
name'
printf '1\n2\n3\n' > small
"""


def q(s):
    """Single-quotes s for the shell."""
    return "'" + s.replace("'", "'\\''") + "'"


def sh(sbx, script, timeout):
    """Runs script in sbx; returns (status or None on timeout, stderr bytes)."""
    try:
        p = subprocess.run([sbx, "sh", "-c", script], capture_output=True, timeout=timeout,
                           env=ENV, cwd="/tmp", stdin=subprocess.DEVNULL)
        return p.returncode, p.stderr[:1 << 20]
    except subprocess.TimeoutExpired as e:
        return None, (e.stderr or b"")[:1 << 20]


def options(sbx, cmd):
    """The short option letters and long options (name, takes-arg) from CMD --help."""
    st, _ = 0, None
    try:
        p = subprocess.run([sbx, "sh", "-c", f"{q(cmd)} --help 2>&1 | head -c 100000"],
                           capture_output=True, timeout=20, env=ENV, cwd="/tmp",
                           stdin=subprocess.DEVNULL)
        text = p.stdout.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        text = ""
    shorts = sorted(set(re.findall(r"(?:^|[\s,\[])-([A-Za-z0-9])\b", text)))
    longs = sorted(set(re.findall(r"--([a-z][a-z0-9-]+)(\[?=)?", text)))
    return shorts, [(n, bool(a)) for n, a in longs if n not in ("help", "version")]


def cases_for(cmd, shorts, longs):
    """The case command lines for one command."""
    out = []
    c = q(cmd)
    for f in FIXTURES:
        out.append(f"{c} {f} < {f if f not in ('-', '.', 'dir', 'missing', 'loop') else 'bin'}")
        out.append(f"{c} < {f if f not in ('-', '.', 'missing') else 'big'}")
    out.append(f"{c} small small small small")
    for s in shorts:
        out.append(f"{c} -{s} < small")
        out.append(f"{c} -{s} small < small")
        out.append(f"{c} -{s}{s}{s} big < big")
        for v in VALUES:
            out.append(f"{c} -{s} {q(v)} small < small")
    for name, arg in longs:
        out.append(f"{c} --{name} < small")
        out.append(f"{c} --{name} small < bin")
        if arg or True:
            for v in VALUES[:20]:
                out.append(f"{c} --{name}={q(v)} small < small")
    for e in ENVS:
        for v in ENV_VALUES:
            out.append(f"{e}={q(v)} {c} -b small small2 < small")
        out.append(f"{e}={q(ENV_VALUES[0])} {c} < small")
    return out


def case_line(i, line):
    return f"echo @@C {i} >&2; {{ {line} ; }} 2>/dev/null | head -c 65536 >/dev/null\n"


def problem(status, err):
    """The symptom of one run, '' when it is clean."""
    text = err.decode("utf-8", "replace")
    if status is None:
        return "timeout"
    for pat in ("AddressSanitizer", "LeakSanitizer", "runtime error:"):
        if pat in text:
            return pat
    if status >= 128 or status < 0:
        return f"status {status}"
    return ""


def report_excerpt(err):
    text = err.decode("utf-8", "replace")
    lines = [l for l in text.splitlines() if not l.startswith("@@C ")]
    keep = [l for l in lines if "ERROR" in l or "runtime error" in l or re.search(r"#[0-9] ", l)]
    return "\n".join((keep or lines)[:12])


def last_marker(err):
    m = re.findall(rb"@@C (\d+)", err)
    return int(m[-1]) if m else None


def run_cases(sbx, cmd, cases, batch, timeout, findings, verbose):
    """Runs cases in batches, resuming after each failing case."""
    i = 0
    runs = 0
    while i < len(cases):
        chunk = list(range(i, min(i + batch, len(cases))))
        script = PRELUDE + "".join(case_line(k, cases[k]) for k in chunk)
        status, err = sh(sbx, script, timeout)
        runs += 1
        sym = problem(status, err)
        if not sym:
            i = chunk[-1] + 1
            continue
        at = last_marker(err)
        if sym == "LeakSanitizer" and (at == chunk[-1] or at is None):
            # printed at exit: find the leaking case(s) one by one
            for k in chunk:
                s2, e2 = sh(sbx, PRELUDE + case_line(k, cases[k]), timeout)
                runs += 1
                sy2 = problem(s2, e2)
                if sy2:
                    findings.append((cmd, cases[k], sy2, report_excerpt(e2)))
            i = chunk[-1] + 1
            continue
        if at is None:
            findings.append((cmd, "(prelude)", sym, report_excerpt(err)))
            i = chunk[-1] + 1
            continue
        if sym == "timeout":
            # the batch's time ran out: a hang only if the case alone times out
            s2, e2 = sh(sbx, PRELUDE + case_line(at, cases[at]), timeout)
            runs += 1
            sym = problem(s2, e2)
            if not sym:
                i = at + 1
                continue
            err = e2
        findings.append((cmd, cases[at], sym, report_excerpt(err)))
        if verbose:
            print(f"  {cmd}: {sym}: {cases[at]!r}", flush=True)
        i = at + 1
    return runs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sbx", default=os.path.join(ROOT, "build-asan", "sbx"))
    ap.add_argument("--only", default="")
    ap.add_argument("--skip", default="")
    ap.add_argument("--batch", type=int, default=400)
    ap.add_argument("--timeout", type=float, default=20)
    ap.add_argument("--list", action="store_true")
    ap.add_argument("-v", action="store_true")
    args = ap.parse_args()
    args.sbx = os.path.abspath(args.sbx)
    resource.setrlimit(resource.RLIMIT_FSIZE, (200000 * 1024, 200000 * 1024))
    p = subprocess.run([args.sbx, "sh", "-c", "compgen -c"], capture_output=True,
                       env=ENV, cwd="/tmp", timeout=60)
    cmds = sorted(set(c for c in p.stdout.decode().split() if not c.endswith(".py"))
                  - SKIP - set(args.skip.split(",")))
    if args.only:
        cmds = [c for c in args.only.split(",")]
    findings = []
    total = runs = 0
    for cmd in cmds:
        shorts, longs = options(args.sbx, cmd)
        cases = cases_for(cmd, shorts, longs)
        total += len(cases)
        if args.list:
            print(cmd, len(cases))
            continue
        n0 = len(findings)
        runs += run_cases(args.sbx, cmd, cases, args.batch, args.timeout, findings, args.v)
        print(f"{cmd}: {len(cases)} cases, {len(findings) - n0} findings", flush=True)
    print(f"\n{len(cmds)} commands, {total} cases, {runs} sbx runs, {len(findings)} findings")
    for cmd, case, sym, excerpt in findings:
        print(f"\n== {cmd}: {sym}\n   case: {case!r}\n" +
              "\n".join("   " + l for l in excerpt.splitlines()))
    return 1 if findings else 0


ENV = {"LC_ALL": "C.UTF-8", "TZ": "UTC", "PATH": "/usr/bin:/bin", "HOME": "/tmp",
       "ASAN_OPTIONS": "detect_leaks=1:allocator_may_return_null=1:hard_rss_limit_mb=3000:"
                       "abort_on_error=0:exitcode=86",
       "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1"}

if __name__ == "__main__":
    sys.exit(main())
