#!/usr/bin/env bash
# bench/store/run.sh - the store benchmark: sbx (bench_store.c over the C
# API) side by side with agentfs-sdk (agentfs.mjs, npm, installed into
# build/npm by scripts/npm-peers.sh when missing) and plain SQLite inserts
# (the floor), in one run, on database files in one scratch directory.
# Prints every figure (ms; sbx and plain SQLite: best of 7, agentfs-sdk:
# best of 3 for writes and of 5 for reads and opens) and the ratios against
# the targets:
#   1 KB files >= 50x faster than agentfs-sdk, 10 MB >= 10x,
#   within 3x of plain SQLite, open+close of a new sandbox under 1 ms.
# Then the fdatasync calls of creating a named sandbox file (strace -c)
# against one SQLite create of an empty WAL database: at most 2.
# The 1,000 small files are written three ways: one sbx_write_files call
# (the API for many files; the row the targets use), sbx_begin + 1,000
# sbx_write_file + sbx_commit, and 1,000 sbx_write_file each committing.
# Informational only: nothing here fails on a slow machine.
set -euo pipefail
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/../lib.sh"
bench_setup store
bench_cc bench_store bench/store/bench_store.c

work=$(mktemp -d "${TMPDIR:-/tmp}/sbx-bench-XXXXXX")
trap 'rm -rf "$work"' EXIT

build/bench/bench_store "$work" >"$work/sbx.txt"
modules=$(scripts/npm-peers.sh agentfs-sdk@0.6.4)
node bench/store/agentfs.mjs "$modules" "$work" >"$work/agentfs.txt"

awk -v sbxf="$work/sbx.txt" -v agf="$work/agentfs.txt" '
  BEGIN {
    while ((getline l < sbxf) > 0) { split(l, a, " "); s[a[1]] = a[2] }
    while ((getline l < agf) > 0) { split(l, a, " "); g[a[1]] = a[2] }
    printf "store benchmark (ms; sbx and SQLite best of 7, agentfs-sdk best of 3 writes\n"
    printf "and 5 reads/opens; lower is better)\n\n"
    printf "%-44s %10s %12s %10s\n", "workload", "sbx", "agentfs-sdk", "speedup"
    row("write 1,000 x 1 KB: sbx_write_files", s["files_write_batch"], g["files_write_each"])
    row("write 1,000 x 1 KB: sbx_begin + 1,000 writes", s["files_write_begin"], g["files_write_each"])
    row("write 1,000 x 1 KB: one tx per file", s["files_write_each"], g["files_write_each"])
    row("read 1,000 x 1 KB", s["files_read"], g["files_read"])
    row("write one 10 MB file", s["big_write"], g["big_write"])
    row("read one 10 MB file", s["big_read"], g["big_read"])
    row("open + close a new sandbox", s["open_close"], g["open_close"])
    printf "%-44s %10.3f\n", "open + close, in memory", s["open_close_memory"]
    printf "\n(agentfs-sdk has no batch call: its writeFile commits each statement;\n"
    printf " every sbx write row is compared with that same agentfs-sdk figure)\n"
    printf "\nplain SQLite floor (same bytes, one transaction, WAL, synchronous=NORMAL)\n"
    floor("1,000 x 1 KB inserts", s["sqlite_files"], s["files_write_batch"], "sbx_write_files")
    floor("", s["sqlite_files"], s["files_write_begin"], "sbx_begin + writes")
    floor("10 MB as 4 KB chunks", s["sqlite_big"], s["big_write"], "10 MB write")
    w = g["files_write_each"] / s["files_write_batch"]; r = g["files_read"] / s["files_read"]
    printf "\ntargets: 1 KB files >= 50x agentfs-sdk: %s (write with sbx_write_files %.0fx, read %.0fx;\n", \
      ok(w >= 50 && r >= 50), w, r
    printf "           sbx_begin + writes %.0fx, one tx per file %.0fx)\n", \
      g["files_write_each"] / s["files_write_begin"], g["files_write_each"] / s["files_write_each"]
    printf "         10 MB >= 10x agentfs-sdk: %s (write %.0fx, read %.0fx)\n", \
      ok(g["big_write"] / s["big_write"] >= 10 && g["big_read"] / s["big_read"] >= 10), \
      g["big_write"] / s["big_write"], g["big_read"] / s["big_read"]
    printf "         within 3x of plain SQLite: %s (sbx_write_files %.1fx, 10 MB %.1fx)\n", \
      ok(s["files_write_batch"] / s["sqlite_files"] <= 3 && s["big_write"] / s["sqlite_big"] <= 3), \
      s["files_write_batch"] / s["sqlite_files"], s["big_write"] / s["sqlite_big"]
    printf "         open+close under 1 ms: %s (%.3f ms)\n", ok(s["open_close"] < 1), s["open_close"]
  }
  function row(name, a, b) {
    printf "%-44s %10.3f %12.3f %9.1fx\n", name, a, b, b / a
  }
  function floor(name, f, x, what) {
    if (name == "") printf "%-44s %10s   %s: %.3f = %.2fx the floor\n", "", "", what, x, x / f
    else printf "%-44s %10.3f   %s: %.3f = %.2fx the floor\n", name, f, what, x, x / f
  }
  function ok(c) { return c ? "met" : "NOT met" }
'

# Creating a named sandbox file: fdatasync(2)/fsync(2) calls counted by
# strace -c -w (and the wall time spent in them), the whole open + close
# best of 7 without strace (in a new process each: includes building the
# schema template once),
# against the floor: one SQLite create of an empty WAL database with one
# table (journal_mode=WAL, synchronous=NORMAL, CREATE TABLE, close).
if command -v strace >/dev/null; then
  syncs() { # WORKLOAD -> "calls seconds"
    strace -f -c -w -e trace=fdatasync,fsync -o "$work/strace.txt" \
      build/bench/bench_store "$work" "$1" >/dev/null
    awk '$NF == "total" { print $4, $2 }' "$work/strace.txt"
  }
  best() { # WORKLOAD -> best wall ms of 7
    for _ in 1 2 3 4 5 6 7; do build/bench/bench_store "$work" "$1"; done |
      awk 'NR == 1 || $2 < m { m = $2 } END { printf "%.3f", m }'
  }
  read -r sc st < <(syncs create)
  read -r fc ft < <(syncs sqlite_create)
  sw=$(best create)
  fw=$(best sqlite_create)
  echo
  echo "create a named sandbox file (open + close; fsync ms: wall time inside fdatasync, strace -w -c)"
  printf '%-30s %8s %12s %10s\n' "" "fsyncs" "fsync ms" "wall ms"
  awk -v c="$sc" -v t="$st" -v w="$sw" 'BEGIN { printf "%-30s %8d %12.3f %10.3f\n", "sbx_open + sbx_close", c, t * 1000, w }'
  awk -v c="$fc" -v t="$ft" -v w="$fw" 'BEGIN { printf "%-30s %8d %12.3f %10.3f\n", "floor: SQLite WAL + 1 table", c, t * 1000, w }'
  awk -v c="$sc" -v w="$sw" -v fw="$fw" -v fc="$fc" 'BEGIN {
    printf "target: at most 2 fdatasync: %s (%d; floor %d); wall %.2fx the floor\n",
      c <= 2 ? "met" : "NOT met", c, fc, w / fw }'
fi

# The history at its bound: 100,100 calls recorded, then 1,000 more, each
# committing (ms, best of 5), with the default retention (100,000 calls,
# every 64th insert prunes) and with none; and the rows left.
hist() { # WORKLOAD -> "ms rows"
  for _ in 1 2 3 4 5; do build/bench/bench_store "$work" "$1"; done |
    awk '$1 == "history_rows" { r = $2 } $1 != "history_rows" && (m == "" || $2 < m) { m = $2 }
         END { print m, r }'
}
read -r hb rb < <(hist history_bounded)
read -r hu ru < <(hist history_unbounded)
echo
echo "history at the bound: 1,000 sbx_history_record, each committing, after 100,100 calls"
awk -v hb="$hb" -v rb="$rb" -v hu="$hu" -v ru="$ru" 'BEGIN {
  printf "%-30s %10s %12s\n", "", "ms", "rows after"
  printf "%-30s %10.3f %12d\n", "retention 100,000 (default)", hb, rb
  printf "%-30s %10.3f %12d\n", "no retention", hu, ru
  printf "pruning costs %.2fx the unbounded insert; rows bounded: %s\n", hb / hu,
    rb <= 100000 ? "met" : "NOT met" }'
