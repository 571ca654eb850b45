#!/usr/bin/env bash
# bench/scale/run.sh - the figures of issue 19, each beside its floor or peer
# in one run, as ratios: a warm bash call (recorded, in a file) beside a
# fork+exec of bash -c and beside the shell alone; short calls from 1, 2 and
# 4 threads on sandboxes of their own (C) and from 1 and 2 Python threads;
# abash beside bash; a warm execute_python round trip; Python reading 100 MB
# through FUSE beside cat and host python on the same bytes; an in-memory
# sandbox past 1 GiB; sbx_fork and a snapshot written out beside cp of a 1 GB
# sandbox (BENCH_SCALE_MB). Usage: bench/scale/run.sh [ROW...] with ROW among
# bash threads python fuse memory fork pkg pthreads create instr. Informational only.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
[ -f build/libsbx.a ] && [ -x build/sbx-pyworker ] || { echo "bench/scale: run make first" >&2; exit 1; }
mkdir -p build/bench
pkgs=$(sed -n 's/^PKGS *:= *//p' Makefile)
# shellcheck disable=SC2046
cc -std=c11 -D_GNU_SOURCE -O2 -Iinclude -Ibench -o build/bench/bench_scale bench/scale/bench_scale.c \
  build/libsbx.a $(pkg-config --libs $pkgs) -lpthread -lm
scratch=$(mktemp -d "${BENCH_DIR:-$root/build/bench}/scale.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
c_rows=() py_rows=()
for r in "$@"; do
  case $r in pkg | pthreads) py_rows+=("$r") ;; create | instr) ;; *) c_rows+=("$r") ;; esac
done
out=$scratch/figures
# create: the fdatasync/fsync calls of a new named sandbox file (open + close)
# beside SQLite's own create of a one-table WAL database, counted by strace
if { [ $# -eq 0 ] || printf '%s\n' "$@" | grep -qx create; } && command -v strace >/dev/null; then
  for w in sbx sqlite; do
    strace -f -c -e trace=fdatasync,fsync -o "$scratch/strace.txt" \
      build/bench/bench_scale "$scratch" "create_$w" >/dev/null
    echo "create ${w}_syncs $(awk '$NF == "total" { n = $4 } END { print n + 0 }' "$scratch/strace.txt")" >>"$out"
  done
fi
# instr: instructions per warm echo (callgrind, only inside instr_calls), the
# shell alone in memory beside a file sandbox writing the history rows
if { [ $# -eq 0 ] || printf '%s\n' "$@" | grep -qx instr; } && command -v valgrind >/dev/null; then
  for w in mem file; do
    valgrind --tool=callgrind --toggle-collect=instr_calls --callgrind-out-file="$scratch/cg.$w" \
      build/bench/bench_scale "$scratch" "instr_$w" >/dev/null 2>&1
    echo "instr ${w}_per_call $(awk '/^(summary|totals):/ { n = $2 } END { printf "%d", n / 2560 }' "$scratch/cg.$w")" >>"$out"
  done
fi
if [ $# -eq 0 ] || [ ${#c_rows[@]} -gt 0 ]; then
  SBX_PYWORKER="$root/build/sbx-pyworker" build/bench/bench_scale "$scratch" "${c_rows[@]}" >>"$out"
fi
if [ $# -eq 0 ] || [ ${#py_rows[@]} -gt 0 ]; then
  PYTHONPATH=$root/build/python PYTHONDONTWRITEBYTECODE=1 /usr/bin/python3 bench/scale/bench_scale.py \
    "$scratch" "${py_rows[@]}" >>"$out"
fi
echo "scale benchmark (issue 19), load average $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
awk '
  { v[$1 " " $2] = $3 }
  function has(k) { return (k in v) }
  function line(what, a, b, ratio, goal) {
    printf "%-44s %12s %12s %9s  %s\n", what, a, b, ratio, goal
  }
  END {
    printf "%-44s %12s %12s %9s  %s\n", "row", "sbx", "floor/peer", "ratio", "goal"
    if (has("bash mem_us")) {
      line("warm echo hi, recorded, file (us) vs bash -c", sprintf("%.2f", v["bash file_recorded_us"]),
           sprintf("%.1f", v["bash host_us"]), sprintf("%.3fx", v["bash file_recorded_us"] / v["bash host_us"]),
           (v["bash file_recorded_us"] <= 3 * v["bash host_us"] ? "met" : "MISSED") " (<= 3x a fork+exec of bash -c)")
      line("  the same vs the shell alone (memory, unrecorded)", sprintf("%.2f", v["bash file_recorded_us"]),
           sprintf("%.2f", v["bash mem_us"]), sprintf("%.1fx", v["bash file_recorded_us"] / v["bash mem_us"]),
           "(wall: the turns of other work count under load)")
      r = v["bash file_recorded_cpu_us"] / v["bash mem_cpu_us"]
      line("  the same two in CPU time per call (us)", sprintf("%.2f", v["bash file_recorded_cpu_us"]),
           sprintf("%.2f", v["bash mem_cpu_us"]), sprintf("%.1fx", r),
           (r <= 3 ? "met" : "MISSED") " (<= 3x; history rows written lazily)")
    }
    if (has("instr mem_per_call")) {
      r = v["instr file_per_call"] / v["instr mem_per_call"]
      line("  instructions per call, the same two (callgrind)", v["instr file_per_call"],
           v["instr mem_per_call"], sprintf("%.2fx", r), (r <= 3 ? "met" : "MISSED") " (<= 3x)")
    }
    if (has("create sbx_syncs")) {
      s = v["create sbx_syncs"]; f = v["create sqlite_syncs"]
      line("create a named sandbox file: fdatasync+fsync", s, f " sqlite", sprintf("%.2fx", s / (f ? f : 1)),
           (s <= 2 ? "met" : "MISSED") " (at most 2)")
    }
    if (has("threads mem_1_calls_per_s")) {
      split("mem file", kinds, " ")
      for (k = 1; k <= 2; k++) {
        K = kinds[k]
        one = v["threads " K "_1_calls_per_s"]
        for (n = 1; n <= 4; n *= 2) {
          c = v["threads " K "_" n "_calls_per_s"]
          goal = n == 2 ? ((c >= 1.7 * one ? "met" : "MISSED") " (2 threads >= 1.7x one)") : ""
          line(sprintf("%s sandboxes, %d thread(s): calls/s (p99 us)", K, n), sprintf("%.0f", c),
               sprintf("p99 %.1f", v["threads " K "_" n "_p99_us"]), sprintf("%.2fx", c / one), goal)
        }
      }
    }
    if (has("pthreads bash_1_calls_per_s")) {
      one = v["pthreads bash_1_calls_per_s"]; two = v["pthreads bash_2_calls_per_s"]
      line("python threads bash(): 2 vs 1 (calls/s)", sprintf("%.0f", two), sprintf("%.0f", one),
           sprintf("%.2fx", two / one), (two >= 1.7 * one ? "met" : "MISSED") " (>= 1.7x)")
    }
    if (has("pkg bash_mem_us")) {
      line("package warm bash(): file (recorded) vs memory (us)", sprintf("%.2f", v["pkg bash_file_us"]),
           sprintf("%.2f", v["pkg bash_mem_us"]), sprintf("%.1fx", v["pkg bash_file_us"] / v["pkg bash_mem_us"]), "")
      line("package abash() vs bash() (us)", sprintf("%.2f", v["pkg abash_mem_us"]),
           sprintf("%.2f", v["pkg bash_mem_us"]), sprintf("%.2fx", v["pkg abash_mem_us"] / v["pkg bash_mem_us"]),
           (v["pkg abash_mem_us"] <= 2 * v["pkg bash_mem_us"] ? "met" : "MISSED") " (<= 2x)")
      line("package warm execute_python(x = 1) (us)", sprintf("%.1f", v["pkg python_mem_us"]), "100",
           sprintf("%.2fx", v["pkg python_mem_us"] / 100), (v["pkg python_mem_us"] < 100 ? "met" : "MISSED") " (< 100 us)")
    }
    if (has("python warm_us"))
      line("C API warm sbx_python_exec(x = 1) (us)", sprintf("%.1f", v["python warm_us"]), "100",
           sprintf("%.2fx", v["python warm_us"] / 100), (v["python warm_us"] < 100 ? "met" : "MISSED") " (< 100 us)")
    if (has("fuse python_read_ms")) {
      line("Python reads 100 MB via FUSE vs host python (ms)", sprintf("%.1f", v["fuse python_read_ms"]),
           sprintf("%.1f", v["fuse host_python_read_ms"]), sprintf("%.2fx", v["fuse python_read_ms"] / v["fuse host_python_read_ms"]),
           (v["fuse python_read_ms"] <= 1.4 * v["fuse host_python_read_ms"] ? "met" : "MISSED") " (<= 1.4x)")
      line("  the same vs cat on the host fs (ms)", sprintf("%.1f", v["fuse python_read_ms"]),
           sprintf("%.1f", v["fuse host_cat_ms"]), sprintf("%.2fx", v["fuse python_read_ms"] / v["fuse host_cat_ms"]), "")
    }
    if (has("memory held_mib"))
      line("in-memory sandbox: MiB held under a quota", v["memory held_mib"], v["memory quota_mib"] " quota",
           sprintf("%.2fx", v["memory held_mib"] / v["memory quota_mib"]),
           (v["memory held_mib"] > 1024 ? "met" : "MISSED") " (past 906 MiB, to the quota)")
    if (has("fork fork_ms")) {
      line(sprintf("sbx_fork of %.0f MB vs cp (ms)", v["fork size_mb"]), sprintf("%.1f", v["fork fork_ms"]),
           sprintf("%.1f", v["fork cp_ms"]), sprintf("%.2fx", v["fork fork_ms"] / v["fork cp_ms"]),
           (v["fork fork_ms"] <= 1.2 * v["fork cp_ms"] ? "met" : "MISSED") " (<= 1.2x)")
      line("sbx_snapshot (export_snapshot: bytes) vs cp (ms)", sprintf("%.1f", v["fork snapshot_only_ms"]),
           sprintf("%.1f", v["fork cp_ms"]), sprintf("%.2fx", v["fork snapshot_only_ms"] / v["fork cp_ms"]),
           (v["fork snapshot_only_ms"] <= 1.5 * v["fork cp_ms"] ? "met" : "MISSED") " (<= 1.5x)")
      line("  + write(2) and fdatasync of the bytes (ms)", sprintf("%.1f", v["fork snapshot_write_ms"]),
           sprintf("%.1f", v["fork cp_ms"]), sprintf("%.2fx", v["fork snapshot_write_ms"] / v["fork cp_ms"]), "")
    }
  }' "$out"
