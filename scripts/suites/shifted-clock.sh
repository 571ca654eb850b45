#!/usr/bin/env bash
# shifted-clock.sh - the suites that print times, run again with the wall clock
# moved by libfaketime (Debian's faketime), so that a case whose expectation holds
# the day it was recorded (a file's mtime from the clock, "Nov 21" in `ls -l`)
# fails the day it is written, not the day the calendar moves on.
#
# Default: one date 400 days ahead of today, past the six months after which
# `ls -l` shows a file's year instead of its time. SBX_CLOCK_DATES (a list of
# "+Nd" or "YYYY-MM-DD HH:MM:SS" in UTC, one a line) runs others: `make
# test-dates` runs a leap day, the last minute of a year and a date past 2038.
#
# Under each date: the command test files against sbx and against the host's GNU
# tools (tests/cmd/run.py --faketime), the optimized C test programs, and the CLI
# suite. The monotonic clock is left alone (time limits and `sleep` as usual),
# and stat() is not faked (file times are what the cases set). Prints one
# closing line "N passed, N failed".
#
# Left out, because the method cannot reach them: programs that run in the
# jail (the fork server's python3, git, ... : tests/cmd/python3.t and
# tests/py/test_jailprog). libfaketime is a preload of the host's processes:
# in the jail the clock is the real one, so host and jail disagree by the
# offset, and the preload, inherited through `sbx sh`'s host environment,
# cannot attach its shared clock state there (no /dev/shm). They print no
# date from the clock; they run at the real date in the rest of `make test`.
set -uo pipefail
cd "$(dirname "$0")/../.."

if ! command -v faketime >/dev/null; then
  echo "shifted-clock: the faketime command is missing (scripts/deps.sh installs it)"
  echo "0 passed, 1 failed"
  exit 1
fi
dates=${SBX_CLOCK_DATES:-+400d}
pass=0 fail=0

# add LINE: adds a closing "N passed, N failed" line to the totals (none: a failure).
add() {
  local line; line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' <<<"$1" | tail -1)
  if [ -z "$line" ]; then fail=$((fail + 1)); return; fi
  pass=$((pass + $(sed -E 's/^([0-9]+) passed.*/\1/' <<<"$line")))
  fail=$((fail + $(sed -E 's/^[0-9]+ passed, ([0-9]+) failed.*/\1/' <<<"$line")))
}

# offset WHEN: seconds from now to WHEN, as faketime's "+N" / "-N".
offset() {
  local now target; now=$(date +%s)
  case $1 in
    +*d) target=$((now + 86400 * ${1:1:-1})) ;;
    *) target=$(date -u -d "$1" +%s) ;;
  esac
  printf '%+d' $((target - now))
}

# shifted WHEN CMD...: runs CMD with the clock at WHEN.
shifted() {
  local when=$1; shift
  NO_FAKE_STAT=1 faketime -m --exclude-monotonic -f "$(offset "$when")" "$@"
}

while IFS= read -r when; do
  [ -n "$when" ] || continue
  echo "== clock at $when"
  for mode in --host ""; do
    # Not timeout.t on the host: GNU timeout's timer runs on the real-time clock,
    # which libfaketime moves, and its xargs case then fails (two CI runs); it
    # prints no dates and runs on the host at the real date in cmd-tests.
    skip='/python3\.t$'
    [ -n "$mode" ] && skip='/(python3|timeout)\.t$'
    out=$(/usr/bin/python3 tests/cmd/run.py $mode -j 2 --faketime "$when" \
      $(ls tests/cmd/*.t | grep -Ev "$skip") 2>&1)
    echo "$out" | grep -v '^[0-9]* passed' | sed "s/^/  cmd${mode:+ $mode}: /"
    echo "  cmd${mode:+ $mode}: $(tail -1 <<<"$out")"
    add "$out"
  done
  for t in $(find build/tests -type f -perm -u+x -name 'test_*' ! -name test_jailprog | sort); do
    out=$(shifted "$when" "$t" 2>&1)
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' <<<"$out" | tail -1)
    if ! grep -q ' 0 failed' <<<"$line"; then echo "$out" | sed "s#^#  $t: #"; fi
    add "$out"
  done
  out=$(shifted "$when" bash scripts/suites/cli.sh 2>&1)
  grep -v '^[0-9]* passed' <<<"$out" | sed 's/^/  cli: /'
  add "$out"
done <<<"$dates"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
