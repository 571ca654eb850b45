#!/usr/bin/env bash
# bench/commands/run.sh - command pipelines in sbx (in process, bench_cmds.c),
# just-bash (npm, in process in node, jb.mjs) and bash with the host's GNU
# tools on tmpfs (the floor), in one run over the same generated inputs
# (gen.py). Prints best-of-N milliseconds and the ratios the issues ask for:
#   1 MB pipeline no slower than GNU, >= 10x faster than just-bash on every row,
#   within 2x of GNU on the 100 MB rows; awk within 1.5x of gawk and >= 50x
#   faster than just-bash; sed and jq within 1.5x of GNU sed and jq.
# Informational only: nothing here fails on a slow machine. JB_BIG=1 also
# feeds the 100 MB file to just-bash (slow). BENCH_ROWS=name,name,... runs
# only those rows (while iterating); BENCH_NO_JB=1 skips just-bash and
# BENCH_NO_GNU=1 the GNU floor. GNU's stdout is a pipe that is read, like
# sbx's captured output (on /dev/null GNU grep stops at the first match).
# The last column says whether each row meets its target.
set -euo pipefail
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/../lib.sh"
bench_setup commands
bench_cc bench_cmds bench/commands/bench_cmds.c

data=${SBX_BENCH_DATA:-/dev/shm/sbx-bench-data}
/usr/bin/python3 bench/commands/gen.py "$data"
modules=$(scripts/npm-peers.sh just-bash@3.4.2)

rows=(
  "pipe1m=cat text1m | grep x | sort | uniq -c | wc -l"
  "grepc1m=grep -c x text1m"
  "sort1m=sort text1m > /dev/null"
  "wcl1m=wc -l text1m"
  "find10k=find tree -type f | wc -l"
  "grepr10k=grep -r x tree | wc -l"
  "grepFf1m=grep -F -f pats10k text1m | wc -l"
  "awk1m=awk '/x/{n++} END{print n}' text1m"
  "sed10m=sed 's/a/b/g' text10m > /dev/null"
  "jq10m=jq '.[] | .a' json10m > /dev/null"
  "pipe100m=cat text100m | grep x | sort | uniq -c | wc -l"
  "grepc100m=grep -c x text100m"
  "sort100m=sort text100m > /dev/null"
  "wcl100m=wc -l text100m"
)
if [ -n "${BENCH_ROWS:-}" ]; then
  keep=()
  for row in "${rows[@]}"; do
    case ",${BENCH_ROWS// /,}," in *",${row%%=*},"*) keep+=("$row") ;; esac
  done
  rows=("${keep[@]}")
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# GNU: bash -c in the data directory, best of N (process start included).
for row in "${rows[@]}"; do
  [ -z "${BENCH_NO_GNU:-}" ] || break
  name=${row%%=*} script=${row#*=}
  /usr/bin/python3 - "$data" "$name" "$script" >>"$work/gnu.txt" <<'PY'
import subprocess, sys, time
d, name, script = sys.argv[1:4]
runs = 3 if "100m" in script else 10
t = []
for _ in range(runs):
    t0 = time.perf_counter()
    # stdout is a pipe that is read, as sbx's and just-bash's output is
    # captured: with stdout on /dev/null GNU grep stops at the first match
    # (it treats that as -q), which would time a different job.
    subprocess.run(["bash", "-c", script], cwd=d, stdout=subprocess.PIPE,
                   env={"LC_ALL": "C.UTF-8", "PATH": "/usr/bin:/bin"})
    t.append((time.perf_counter() - t0) * 1000)
t.sort()
print(f"{name} {t[0]:.3f} {t[len(t)//2]:.3f}")
PY
done
build/bench/bench_cmds "$data" "${rows[@]/=/=cd /data; }" >"$work/sbx.txt"
[ -n "${BENCH_NO_JB:-}" ] || node bench/commands/jb.mjs "$modules" "$data" "${rows[@]}" >"$work/jb.txt" 2>"$work/jb.err" || true

awk -v gf="$work/gnu.txt" -v sf="$work/sbx.txt" -v jf="$work/jb.txt" '
  function load(f, arr,   l, a) { while ((getline l < f) > 0) { split(l, a, " "); arr[a[1]] = a[2] } }
  BEGIN {
    load(gf, g); load(sf, s); load(jf, j)
    printf "command benchmark (ms, best of N; lower is better)\n\n"
    printf "%-10s %10s %10s %12s %10s %12s  %s\n", "row", "sbx", "GNU", "just-bash", "sbx/GNU", "jb/sbx", "target"
    # targets of the issues: most sbx/GNU, least jb/sbx
    split("pipe1m=1 awk1m=1.5 sed10m=1.5 jq10m=1.5 pipe100m=2 grepc100m=2 sort100m=2 wcl100m=2", tg, " ")
    for (t in tg) { split(tg[t], kv, "="); maxg[kv[1]] = kv[2] }
    minj["awk1m"] = 50
    # issue 5 sets only the GNU/jq ratio for these two (jq: the same libjq engine)
    minj["sed10m"] = 0; minj["jq10m"] = 0
    n = split("pipe1m grepc1m sort1m wcl1m find10k grepr10k grepFf1m awk1m sed10m jq10m pipe100m grepc100m sort100m wcl100m", names, " ")
    for (i = 1; i <= n; i++) {
      k = names[i]
      if (!(k in s)) continue
      jb = (k in j && j[k] != "skipped") ? j[k] : "-"
      if (jb == "failed") jb = "-"  # just-bash stopped with an error (see jb.err)
      want = ""; gok = 1; jok = 1
      if (k in maxg) {
        want = want sprintf("sbx/GNU<=%s ", maxg[k])
        gok = !(k in g) ? -1 : s[k] / g[k] <= maxg[k] + 0
      }
      mj = (k in minj) ? minj[k] : 10
      if (mj > 0) {
        want = want sprintf("jb/sbx>=%d", mj)
        jok = jb == "-" ? -1 : jb / s[k] >= mj
      }
      met = (gok == 0 || jok == 0) ? 0 : (gok == 1 && jok == 1) ? 1 : (gok == 1 && (k in maxg)) ? 2 : -1
      printf "%-10s %10.2f %10s %12s %10s %11s  %s %s\n", k, s[k], (k in g) ? sprintf("%.2f", g[k]) : "-", jb,
             (k in g) ? sprintf("%.2fx", s[k] / g[k]) : "-", jb == "-" ? "-" : sprintf("%.1fx", jb / s[k]),
             met == 1 ? "met" : met == 0 ? "MISSED" : met == 2 ? "met(GNU; no jb)" : "(no data)", want
    }
  }'
if [ -s "$work/jb.err" ]; then cat "$work/jb.err" >&2; fi
