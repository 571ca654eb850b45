#!/usr/bin/env bash
# conformance.sh - runs the shell conformance kit (Oils spec tests, see
# ../shared/conformance/README.md) against `build/sbx sh`, exactly as the kit's
# README says, and prints the kit's TOTAL lines.
#
# Usage: scripts/conformance.sh full   all 139 files (the baseline's list), then
#                                      the core list; per-case results in
#                                      build/conformance/{all,core}.tsv
#        scripts/conformance.sh gate   the core list only; prints
#                                      "N passed, N failed" where failed is 1
#                                      when the pass count is below the floor
#                                      recorded in tests/sh/conformance-floor.txt
#        scripts/conformance.sh FILE.. the given spec files, verbose
set -uo pipefail
cd "$(dirname "$0")/.."

KIT=${CONFORMANCE_DIR:-../shared/conformance}
if [ ! -f "$KIT/spec_runner.py" ]; then
  # a fresh clone keeps shared/ beside the repository
  for d in ../shared/conformance shared/conformance /work/shared/conformance; do
    [ -f "$d/spec_runner.py" ] && KIT=$d && break
  done
fi
PY=/usr/bin/python3
SBX="$PWD/build/sbx"
[ -x "$SBX" ] || { echo "conformance: build/sbx is missing (run make)"; echo "0 passed, 1 failed"; exit 1; }
[ -f "$KIT/spec_runner.py" ] || { echo "conformance: kit not found"; echo "0 passed, 1 failed"; exit 1; }
mkdir -p build/conformance
# Each run its own scratch directory (the runner's default is one fixed path in
# /tmp, which two checkouts running at once would share).
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
run() { "$PY" "$KIT/spec_runner.py" --shell "$SBX sh" --label bash --sh-path bash -j 2 --tmp "$scratch" "$@"; }

mode=${1:-full}
case $mode in
full)
  all=$(awk 'NR > 2 && $1 != "" { print $1 }' "$KIT/baseline.tsv")
  echo "== all files"
  run --tsv build/conformance/all.tsv $all | tee build/conformance/all.txt | tail -1
  echo "== core list"
  run --tsv build/conformance/core.tsv $(cat "$KIT/files-core.txt") | tee build/conformance/core.txt | tail -1
  ;;
gate)
  floor=$(cat tests/sh/conformance-floor.txt 2>/dev/null || echo 0)
  out=$(run $(cat "$KIT/files-core.txt") 2>&1)
  echo "$out" | tail -1
  passed=$(echo "$out" | awk '/^TOTAL/ { print $4 }')
  passed=${passed:-0}
  if [ "$passed" -lt "$floor" ]; then
    echo "conformance: core list passes $passed, below the floor $floor"
    echo "$passed passed, 1 failed"
    exit 1
  fi
  echo "conformance: core list passes $passed (floor $floor)"
  echo "$passed passed, 0 failed"
  ;;
*)
  run -v "$@"
  ;;
esac
