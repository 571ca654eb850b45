#!/usr/bin/env bash
# bench/shell/run.sh - the shell's own overhead, side by side in one run: sbx
# (in process through the C API, bench_shell.c), just-bash (npm, in process in
# node, jb.mjs) and bash itself. Rows:
#   echo    a warm `echo hi` call          (target: < 20 us, >= 30x faster than just-bash)
#   loop    for ((i=0;i<1000;i++)); do x=$((x+i)); done
#                                           (target: >= 20x faster than just-bash,
#                                            no slower than bash)
#   create  a new sandbox and its first command
#   repl20k ${x//a/b} on 20,000 a's (ms)
#   repl16m ${x//a/b} on 16,000,000 a's (ms; bash is quadratic here: it is
#           given 20 s and reported as not finishing)
# For bash, echo and loop are timed inside one bash process ($EPOCHREALTIME,
# the echo as one iteration of a loop), create is `bash -c 'echo hi'` as a
# process. Prints best and median and the ratios. Informational only: nothing
# here fails on a slow machine.
set -euo pipefail
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/../lib.sh"
bench_setup shell
bench_cc bench_shell bench/shell/bench_shell.c
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

build/bench/bench_shell 20000 >"$work/sbx.txt"
modules=$(scripts/npm-peers.sh just-bash@3.4.2)
node bench/shell/jb.mjs "$modules" 2000 >"$work/jb.txt" 2>"$work/jb.err" || echo "just-bash failed: $(head -c 300 "$work/jb.err")" >&2

/usr/bin/python3 - >"$work/bash.txt" <<'PY'
import subprocess, time
def inner(script):
    out = subprocess.run(["bash", "-c", script], capture_output=True, text=True).stdout.split()
    return sorted(float(x) for x in out)
# echo: 20 rounds of 5,000 echos to /dev/null, per call in us
e = inner('for r in {1..20}; do t0=$EPOCHREALTIME; for ((i=0;i<5000;i++)); do echo hi; done >/dev/null; '
          't1=$EPOCHREALTIME; echo $(( (${t1/./}-${t0/./}) )); done')
e = [x / 5000 for x in e]
print(f"echo {e[0]:.3f} {e[len(e)//2]:.3f}")
l = inner('for r in {1..30}; do t0=$EPOCHREALTIME; x=0; for ((i=0;i<1000;i++)); do x=$((x+i)); done; '
          't1=$EPOCHREALTIME; echo $(( ${t1/./}-${t0/./} )); done')
print(f"loop {l[0]/1000:.3f} {l[len(l)//2]/1000:.3f}")
c = []
for _ in range(50):
    t0 = time.perf_counter()
    subprocess.run(["bash", "-c", "echo hi"], stdout=subprocess.DEVNULL)
    c.append((time.perf_counter() - t0) * 1e6)
c.sort()
print(f"create {c[0]:.3f} {c[len(c)//2]:.3f}")
r = inner("x=$(head -c 20000 /dev/zero | tr '\\0' a); for r in 1 2 3; do t0=$EPOCHREALTIME; y=${x//a/b}; "
          "t1=$EPOCHREALTIME; echo $(( ${t1/./}-${t0/./} )); done")
print(f"repl20k {r[0]/1000:.3f} {r[len(r)//2]/1000:.3f}")
try:
    out = subprocess.run(["bash", "-c", "x=$(head -c 16000000 /dev/zero | tr '\\0' a); t0=$EPOCHREALTIME; "
                          "y=${x//a/b}; t1=$EPOCHREALTIME; echo $(( ${t1/./}-${t0/./} ))"],
                         capture_output=True, text=True, timeout=20).stdout.split()
    print(f"repl16m {float(out[0])/1000:.3f} {float(out[0])/1000:.3f}")
except subprocess.TimeoutExpired:
    pass
PY

awk -v sf="$work/sbx.txt" -v jf="$work/jb.txt" -v bf="$work/bash.txt" '
  function load(f, b, m,   l, a) { while ((getline l < f) > 0) { split(l, a, " "); b[a[1]] = a[2]; m[a[1]] = a[3] } }
  BEGIN {
    load(sf, s, sm); load(jf, j, jm); load(bf, b, bm)
    printf "shell benchmark (best / median; echo and create in us, loop and repl in ms; lower is better)\n\n"
    printf "%-7s %19s %19s %19s %9s %9s\n", "row", "sbx", "just-bash", "bash", "jb/sbx", "bash/sbx"
    n = split("echo loop create repl20k repl16m", names, " ")
    for (i = 1; i <= n; i++) {
      k = names[i]
      jr = (k in j) ? sprintf("%.1fx", j[k] / s[k]) : "-"
      br = (k in b) ? sprintf("%.2fx", b[k] / s[k]) : "-"
      printf "%-7s %9.2f /%8.2f %9s /%8s %9s /%8s %9s %9s\n", k, s[k], sm[k],
             (k in j) ? sprintf("%.2f", j[k]) : "-", (k in j) ? sprintf("%.2f", jm[k]) : "-",
             (k in b) ? sprintf("%.2f", b[k]) : "> 20 s", (k in b) ? sprintf("%.2f", bm[k]) : "-", jr,
             (k in b) ? br : sprintf("> %.0fx", 20000 / s[k])
    }
    printf "\ntargets: echo < 20 us (%s), echo >= 30x faster than just-bash (%s),\n",
           s["echo"] < 20 ? "met" : "NOT met", ("echo" in j && j["echo"] / s["echo"] >= 30) ? "met" : "NOT met"
    printf "         loop >= 20x faster than just-bash (%s) and no slower than bash (%s)\n",
           ("loop" in j && j["loop"] / s["loop"] >= 20) ? "met" : "NOT met", s["loop"] <= b["loop"] ? "met" : "NOT met"
  }'
