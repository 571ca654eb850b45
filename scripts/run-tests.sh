#!/usr/bin/env bash
# The whole suite behind `make test`. Each suite prints its own closing line
# ("N passed, N failed"); this script adds them up and prints the total last.
# Suites: the C test programs under ASan+UBSan and optimized, the command test
# files, the CLI tests, the Python package tests, and the gate versions of the
# conformance kit and the fuzzers. Exit status non-zero if anything failed.
set -uo pipefail
cd "$(dirname "$0")/.."

total_pass=0 total_fail=0 failed_suites=()
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

# run_suite NAME CMD...: runs CMD, echoes its output to a log, and adds its
# closing "N passed, N failed" line to the totals (a missing line is a failure).
run_suite() {
  local name=$1; shift
  local log; log=$(mktemp)
  echo "== $name"
  "$@" >"$log" 2>&1
  local rc=$?
  local line; line=$(grep -E '^([A-Za-z_-]+: )?[0-9]+ passed, [0-9]+ failed' "$log" | tail -1)
  if [ -z "$line" ]; then
    cat "$log"; echo "  $name: no closing line (exit $rc)"
    total_fail=$((total_fail + 1)); failed_suites+=("$name")
  else
    local p f; p=$(sed -E 's/^([A-Za-z_-]+: )?([0-9]+) passed.*/\2/' <<<"$line")
    f=$(sed -E 's/.* ([0-9]+) failed.*/\1/' <<<"$line")
    if [ "$rc" -ne 0 ] || [ "$f" -ne 0 ]; then
      cat "$log"; failed_suites+=("$name"); [ "$f" -eq 0 ] && f=1
    fi
    echo "  $line"
    total_pass=$((total_pass + p)); total_fail=$((total_fail + f))
  fi
  rm -f "$log"
}

for b in build-asan build; do
  for t in $(find "$b/tests" -type f -perm -u+x -name 'test_*' 2>/dev/null | sort); do
    run_suite "$t" "$t"
  done
done

# Further suites register themselves as scripts/suites/*.sh (each prints a closing line).
for s in scripts/suites/*.sh; do
  [ -e "$s" ] || continue
  run_suite "$s" bash "$s"
done

echo
if [ ${#failed_suites[@]} -gt 0 ]; then
  echo "failed suites: ${failed_suites[*]}"
fi
echo "total: $total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
