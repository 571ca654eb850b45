#!/usr/bin/env bash
# bench/isolation/run.sh - the cost of process isolation (SBX_OPEN_PROCESS)
# beside the in-process shell, in one run (bench_isolation.c): a warm
# `echo hi` call, a 1,000-iteration loop, and a new sandbox with its first
# call. Prints best and median in microseconds and the ratio process /
# in-process of each. Informational only: nothing here fails on a slow machine.
set -euo pipefail
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/../lib.sh"
bench_setup isolation pyworker
bench_cc bench_isolation bench/isolation/bench_isolation.c
SBX_PYWORKER="$root/build/sbx-pyworker" build/bench/bench_isolation "${1:-10000}" | awk '
  { best[$1 " " $2] = $3; med[$1 " " $2] = $4 }
  END {
    printf "process isolation (best / median in us; lower is better)\n\n"
    printf "%-6s %21s %21s %15s\n", "row", "in-process", "process", "process/in-proc"
    n = split("echo loop start", rows, " ")
    for (i = 1; i <= n; i++) {
      r = rows[i]; a = r " in-process"; b = r " process"
      printf "%-6s %10.2f /%9.2f %10.2f /%9.2f %7.1fx /%5.1fx\n", r, best[a], med[a], best[b], med[b],
             best[b] / best[a], med[b] / med[a]
    }
  }'
