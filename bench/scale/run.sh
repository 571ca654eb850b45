#!/usr/bin/env bash
# bench/scale/run.sh - the figures of issue 19, each beside its floor or peer
# in one run, as ratios: a warm bash call (recorded, in a file) beside a
# fork+exec of bash -c and beside the shell alone; short calls from 1, 2 and
# 4 threads on sandboxes of their own (C) and from 1 and 2 Python threads;
# abash beside bash; a warm execute_python round trip beside host python3 -c;
# Python reading 100 MB through FUSE (again: the page cache; first and after
# a change: from the store) beside cat and host python on tmpfs; an in-memory
# sandbox past 1 GiB; sbx_fork and a snapshot written out beside cp of a 1 GB
# sandbox (BENCH_SCALE_MB); 1-64 threads beside a pure-CPU spin peer, 1-64
# asyncio tasks and 1-64 Python workers, and memory per sandbox; the fsyncs of
# creating a sandbox file and the instructions per warm call. Usage:
# bench/scale/run.sh [ROW...] with ROW among bash threads python persandbox
# fuse memory fork pkg pthreads asyncio pyexec create instr. Informational only.
set -euo pipefail
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/../lib.sh"
bench_setup scale pyworker
bench_cc bench_scale bench/scale/bench_scale.c
scratch=$(mktemp -d "${BENCH_DIR:-$root/build/bench}/scale.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
c_rows=() py_rows=()
for r in "$@"; do
  case $r in pkg | pthreads | asyncio | pyexec) py_rows+=("$r") ;; create | instr) ;; *) c_rows+=("$r") ;; esac
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
    printf "%-52s %12s %12s %9s  %s\n", what, a, b, ratio, goal
  }
  # a row of a beside b, both printed with fmt, and a / b printed with rfmt
  function vs(what, fmt, a, b, rfmt, goal) {
    line(what, sprintf(fmt, a), sprintf(fmt, b), sprintf(rfmt, a / b), goal)
  }
  # whether a goal is met, and the goal
  function met(ok, goal) { return (ok ? "met" : "MISSED") " " goal }
  END {
    nn = split("1 2 4 16 64", ns, " ") # the N of the thread, task and worker tables
    printf "%-52s %12s %12s %9s  %s\n", "row", "sbx", "floor/peer", "ratio", "goal"
    if (has("bash mem_us")) {
      line("warm echo hi, recorded, file (us) vs bash -c", sprintf("%.2f", v["bash file_recorded_us"]),
           sprintf("%.1f", v["bash host_us"]), sprintf("%.3fx", v["bash file_recorded_us"] / v["bash host_us"]),
           met(v["bash file_recorded_us"] <= 3 * v["bash host_us"], "(<= 3x a fork+exec of bash -c)"))
      vs("  the same vs the shell alone (memory, unrecorded)", "%.2f", v["bash file_recorded_us"],
         v["bash mem_us"], "%.1fx", "(wall: the turns of other work count under load)")
      vs("  the same two in CPU time per call (us)", "%.2f", v["bash file_recorded_cpu_us"],
         v["bash mem_cpu_us"], "%.1fx",
         met(v["bash file_recorded_cpu_us"] / v["bash mem_cpu_us"] <= 3, "(<= 3x; history rows written lazily)"))
    }
    if (has("instr mem_per_call")) {
      r = v["instr file_per_call"] / v["instr mem_per_call"]
      line("  instructions per call, the same two (callgrind)", v["instr file_per_call"],
           v["instr mem_per_call"], sprintf("%.2fx", r), met(r <= 3, "(<= 3x)"))
    }
    if (has("create sbx_syncs")) {
      s = v["create sbx_syncs"]; f = v["create sqlite_syncs"]
      line("create a named sandbox file: fdatasync+fsync", s, f " sqlite", sprintf("%.2fx", s / (f ? f : 1)),
           met(s <= 2, "(at most 2)"))
    }
    if (has("threads mem_1_calls_per_s")) {
      printf "\nshort calls, N threads on N sandboxes (C API); peer: the same threads spinning on pure CPU\n"
      printf "%-10s %4s %10s %10s %8s %8s %8s %10s %9s\n", "calls", "N", "calls/s", "p99 us", "xN=1", "peer x", "CPUs", "cpu us/call", "waits/1k"
      split("spin mem memrec file", kinds, " ")
      for (k = 1; k <= 4; k++) {
        K = kinds[k]; one = v["threads " K "_1_calls_per_s"]
        for (j = 1; j <= nn; j++) {
          n = ns[j]; P = "threads " K "_" n "_"
          printf "%-10s %4d %10.0f %10.1f %7.2fx %7.2fx %8.2f %10.3f %9.3f\n", K, n, v[P "calls_per_s"], v[P "p99_us"],
                 v[P "calls_per_s"] / one, v["threads spin_" n "_calls_per_s"] / v["threads spin_1_calls_per_s"],
                 v[P "cpus"], v[P "cpu_us_per_call"], v[P "vcsw_per_kcall"]
        }
      }
      for (k = 2; k <= 4; k++) {
        K = kinds[k]
        eff = 2 * v["threads " K "_1_cpu_us_per_call"] / v["threads " K "_2_cpu_us_per_call"]
        wall = v["threads " K "_2_calls_per_s"] / v["threads " K "_1_calls_per_s"]
        peer = v["threads spin_2_calls_per_s"] / v["threads spin_1_calls_per_s"]
        printf "%s: 2 threads on 2 free cores (CPU per call, no waits) %.2fx one: %s (>= 1.7x); wall %.2fx beside %.2fx for the spin peer\n",
               K, eff, (eff >= 1.7 && v["threads " K "_2_vcsw_per_kcall"] < 100 ? "met" : "MISSED"), wall, peer
      }
      printf "\n"
    }
    if (has("persandbox mem_kib")) {
      line("memory per open sandbox, in memory (KiB RSS)", sprintf("%.1f", v["persandbox mem_kib"]), "", "", "")
      line("memory per open sandbox, file (KiB RSS)", sprintf("%.1f", v["persandbox file_kib"]), "", "", "")
      line("  with a Python worker: host RSS + worker PSS (KiB)", sprintf("%.1f", v["persandbox python_host_kib"]),
           sprintf("%.1f", v["persandbox python_worker_kib"]), "", "")
    }
    if (has("pthreads mem_1_calls_per_s")) {
      printf "\nPython threads, N threads on N sandboxes, bash(\"echo hi\") (file: with its history row)\n"
      printf "%-10s %4s %10s %10s %8s %11s\n", "sandboxes", "N", "calls/s", "p99 us", "xN=1", "cpu us/call"
      split("mem file", kinds, " ")
      for (k = 1; k <= 2; k++) {
        K = kinds[k]; one = v["pthreads " K "_1_calls_per_s"]
        for (j = 1; j <= nn; j++) {
          n = ns[j]; P = "pthreads " K "_" n "_"
          printf "%-10s %4d %10.0f %10.1f %7.2fx %11.2f\n", K, n, v[P "calls_per_s"], v[P "p99_us"], v[P "calls_per_s"] / one, v[P "cpu_us_per_call"]
        }
      }
      printf "\n"
    }
    if (has("asyncio abash_1_calls_per_s")) {
      printf "asyncio, N tasks on N sandboxes in one loop: abash beside asyncio.to_thread(bash)\n"
      printf "%4s %12s %10s %14s %10s\n", "N", "abash/s", "p99 us", "to_thread/s", "p99 us"
      for (j = 1; j <= nn; j++) {
        n = ns[j]
        printf "%4d %12.0f %10.1f %14.0f %10.1f\n", n, v["asyncio abash_" n "_calls_per_s"], v["asyncio abash_" n "_p99_us"],
               v["asyncio to_thread_" n "_calls_per_s"], v["asyncio to_thread_" n "_p99_us"]
      }
      printf "\n"
    }
    if (has("pyexec py_1_calls_per_s")) {
      printf "execute_python(\"x = 1\"), N threads on N sandboxes, a worker process each\n"
      printf "%4s %14s %10s %10s %11s\n", "N", "cold start ms", "calls/s", "p99 us", "cpu us/call"
      for (j = 1; j <= nn; j++) {
        n = ns[j]; P = "pyexec py_" n "_"
        printf "%4d %14.0f %10.0f %10.1f %11.2f\n", n, v["pyexec start_" n "_ms"], v[P "calls_per_s"], v[P "p99_us"], v[P "cpu_us_per_call"]
      }
      printf "\n"
    }
    if (has("pkg bash_mem_us")) {
      vs("package warm bash(): file (recorded) vs memory (us)", "%.2f", v["pkg bash_file_us"],
         v["pkg bash_mem_us"], "%.1fx", "")
      vs("package abash() vs bash() (us)", "%.2f", v["pkg abash_mem_us"], v["pkg bash_mem_us"], "%.2fx",
         met(v["pkg abash_mem_us"] <= 2 * v["pkg bash_mem_us"], "(<= 2x)"))
      line("package warm execute_python(x = 1) (us)", sprintf("%.1f", v["pkg python_mem_us"]), "100",
           sprintf("%.2fx", v["pkg python_mem_us"] / 100), met(v["pkg python_mem_us"] < 100, "(< 100 us)"))
    }
    if (has("python warm_us")) {
      line("C API warm sbx_python_exec(x = 1) (us)", sprintf("%.1f", v["python warm_us"]), "100",
           sprintf("%.2fx", v["python warm_us"] / 100), met(v["python warm_us"] < 100, "(< 100 us)"))
      line("  the same vs host python3 -c x=1 (us)", sprintf("%.1f", v["python warm_us"]),
           sprintf("%.0f", v["python host_spawn_us"]), sprintf("%.4fx", v["python warm_us"] / v["python host_spawn_us"]), "")
      if (has("pkg python_mem_us"))
        line("  the package call vs host python3 -c x=1 (us)", sprintf("%.1f", v["pkg python_mem_us"]),
             sprintf("%.0f", v["python host_spawn_us"]), sprintf("%.4fx", v["pkg python_mem_us"] / v["python host_spawn_us"]), "")
    }
    if (has("fuse python_read_ms")) {
      vs("Python re-reads 100 MB (FUSE) vs host python, tmpfs (ms)", "%.1f", v["fuse python_read_ms"],
         v["fuse host_python_read_ms"], "%.2fx",
         met(v["fuse python_read_ms"] <= 1.4 * v["fuse host_python_read_ms"], "(<= 1.4x)"))
      vs("  the same vs cat on tmpfs (ms)", "%.1f", v["fuse python_read_ms"], v["fuse host_cat_ms"], "%.2fx", "")
      vs("  first read (from the store) vs host python", "%.1f", v["fuse python_first_read_ms"],
         v["fuse host_python_read_ms"], "%.2fx", "")
      vs("  read after the shell changed it vs host python", "%.1f", v["fuse python_cold_read_ms"],
         v["fuse host_python_read_ms"], "%.2fx", "")
    }
    if (has("memory held_mib"))
      line("in-memory sandbox: MiB held under a quota", v["memory held_mib"], v["memory quota_mib"] " quota",
           sprintf("%.2fx", v["memory held_mib"] / v["memory quota_mib"]),
           met(v["memory held_mib"] > 1024, "(past 906 MiB, to the quota)"))
    if (has("fork fork_ms")) {
      vs(sprintf("sbx_fork of %.0f MB vs cp (ms)", v["fork size_mb"]), "%.1f", v["fork fork_ms"],
         v["fork cp_ms"], "%.2fx", met(v["fork fork_ms"] <= 1.2 * v["fork cp_ms"], "(<= 1.2x)"))
      vs("sbx_snapshot (export_snapshot: bytes) vs cp (ms)", "%.1f", v["fork snapshot_only_ms"],
         v["fork cp_ms"], "%.2fx", met(v["fork snapshot_only_ms"] <= 1.5 * v["fork cp_ms"], "(<= 1.5x)"))
      vs("  + write(2) and fdatasync of the bytes (ms)", "%.1f", v["fork snapshot_write_ms"], v["fork cp_ms"],
         "%.2fx", "")
    }
  }' "$out"
