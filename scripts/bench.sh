#!/usr/bin/env bash
# `make bench`: runs every benchmark, bench/*/run.sh, one after the other
# (each prints its own figures and ratios against its peers). Benchmarks are
# informational: never timed assertions. Usage: scripts/bench.sh [NAME...]
# to run only bench/NAME/run.sh.
set -uo pipefail
cd "$(dirname "$0")/.."
status=0
if [ $# -gt 0 ]; then
  runs=()
  for n in "$@"; do runs+=("bench/$n/run.sh"); done
else
  runs=(bench/*/run.sh)
fi
for r in "${runs[@]}"; do
  [ -e "$r" ] || continue
  echo "=== ${r%/run.sh}"
  bash "$r" || { echo "$r failed"; status=1; }
  echo
done
exit $status
