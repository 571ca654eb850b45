#!/usr/bin/python3
"""Differential test of sbx's diff against the host's GNU diff.

Random pairs of files (a base file and an edited copy; small and large
alphabets so that repeated lines make ties; missing final newlines) are
compared in every output format, with and without -i/-w/-b/-B. Each pair and
format is one case: stdout and exit status must be equal byte for byte.

    diff_differential.py [--seed N] [--cases N] [--sbx-run PATH]
"""
import argparse
import os
import random
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def esc(data):
    return data.replace("\\", "\\\\").replace("\n", "\\n").replace("\t", "\\t")


def make_pair(rng):
    alphabet = rng.choice([["a", "b"], list("abcdef"), [c * 3 for c in "abcdefghijkl"],
                           ["int x;", "", "}", "{", "  return 0;", "if (a)", "\tb++;", "Foo", "foo"]])
    n = rng.randint(0, 60)
    a = [rng.choice(alphabet) for _ in range(n)]
    b = list(a)
    for _ in range(rng.randint(0, 10)):
        op = rng.random()
        if op < 0.3 and b:
            del b[rng.randrange(len(b))]
        elif op < 0.6:
            b.insert(rng.randint(0, len(b)), rng.choice(alphabet))
        elif b:
            b[rng.randrange(len(b))] = rng.choice(alphabet)
    sa = "".join(x + "\n" for x in a)
    sb = "".join(x + "\n" for x in b)
    if rng.random() < 0.1 and sa:
        sa = sa[:-1]
    if rng.random() < 0.1 and sb:
        sb = sb[:-1]
    return sa, sb


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=20261121)
    ap.add_argument("--cases", type=int, default=60)
    ap.add_argument("--sbx-run", default=os.path.join(ROOT, "build", "sbx-run"))
    args = ap.parse_args()
    rng = random.Random(args.seed)
    passed = failed = 0
    tmp = "/tmp/sbx-diff-diff-%d" % os.getpid()
    os.makedirs(tmp, exist_ok=True)
    formats = [[], ["-u"], ["-c"], ["-U1"], ["-q"], ["-i"], ["-w"], ["-b", "-u"], ["-B"],
               # -F / -p hunk headers, GNU's line and group formats, -D
               ["-U1", "-F", "^[a-z{]"], ["-C0", "-p"], ["-u", "-F", "}", "-F", "^if"],
               ["--line-format=%L"],
               ["--old-line-format=-%dn %l\n", "--new-line-format=+%3dn|%L",
                "--unchanged-line-format="],
               ["--changed-group-format=C %df,%dl %dF,%dL %(N=1?one:%dN) %c'|'\n%<%>",
                "--unchanged-group-format=U %de %dm %(n=0?empty:)\n",
                "--old-group-format=O %dn %c'\\101'\n%<", "--new-group-format=N %xE %XM\n%>"],
               ["-D", "SBX"], ["-B", "--line-format=%c'['%L"],
               # side by side
               ["-y"], ["-y", "-W", "40"], ["-y", "--suppress-common-lines", "-W", "60"],
               ["-y", "-t", "-W", "33"], ["-y", "--left-column"],
               # -I (with -B too)
               ["-I", "^[ab]"], ["-I", "int", "-I", "^$"], ["-B", "-I", "f"]]
    for case in range(args.cases):
        sa, sb = make_pair(rng)
        with open(os.path.join(tmp, "a"), "w") as f:
            f.write(sa)
        with open(os.path.join(tmp, "b"), "w") as f:
            f.write(sb)
        for opts in formats:
            labels = ["--label", "a", "--label", "b"]
            host = subprocess.run(["diff"] + opts + labels + ["a", "b"], cwd=tmp,
                                  capture_output=True, env={"LC_ALL": "C.UTF-8", "TZ": "UTC"})
            ours = subprocess.run([args.sbx_run, "--file", "a=" + esc(sa), "--file", "b=" + esc(sb),
                                   "--", "diff"] + opts + labels + ["a", "b"], capture_output=True)
            if host.stdout == ours.stdout and host.returncode == ours.returncode:
                passed += 1
            else:
                failed += 1
                if failed <= 3:
                    print(f"MISMATCH case {case} {opts}: a={sa!r} b={sb!r}")
                    print(host.stdout.decode(errors="replace"))
                    print("--- sbx:")
                    print(ours.stdout.decode(errors="replace"), ours.stderr.decode(errors="replace"))
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
