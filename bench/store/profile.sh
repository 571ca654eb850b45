#!/usr/bin/env bash
# bench/store/profile.sh - instruction counts of the store benchmark's
# workloads under valgrind --tool=callgrind (stable on a loaded machine,
# unlike times). Counts only the measured part of each workload (the
# functions named below), over the sbx library built by `make`.
# Usage: bash bench/store/profile.sh [WORKLOAD...]   (default: all)
#   prints "WORKLOAD instructions" lines; with PROFILE_KEEP=DIR the
#   callgrind.out files are kept in DIR for callgrind_annotate.
set -euo pipefail
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/../lib.sh"
bench_setup store
# -fno-inline keeps the measured functions as symbols for --toggle-collect.
bench_cc bench_store_prof bench/store/bench_store.c -O1 -fno-inline -g
work=$(mktemp -d "${TMPDIR:-/tmp}/sbx-prof-XXXXXX")
trap 'rm -rf "$work"' EXIT
ulimit -f 1000000
[ $# -gt 0 ] || set -- write_each write_begin write_batch read big_write big_read history open_close
for w in "$@"; do
  case $w in
    write_each|write_begin|write_batch) fn=write_files ;;
    read) fn=read_files ;;
    big_write) fn=run_big_write ;;
    big_read) fn=read_big ;;
    history|history_2phase) fn=run_history ;;
    open_close) fn=run_open_close ;;
    sqlite_files) fn=floor_inserts ;;
    *) echo "profile: unknown workload $w" >&2; exit 1 ;;
  esac
  out="${PROFILE_KEEP:-$work}/callgrind.$w.out"
  valgrind --tool=callgrind --toggle-collect="$fn" --callgrind-out-file="$out" \
    build/bench/bench_store_prof "$work" "$w" >/dev/null 2>"$work/vg.log" ||
    { cat "$work/vg.log" >&2; exit 1; }
  ir=$(sed -n 's/^summary: *//p;s/^totals: *//p' "$out" | head -1)
  echo "$w $ir"
done
