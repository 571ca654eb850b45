# assert.sh - tiny assertion helpers for the shell-script suites
# (scripts/suites/*.sh). Source it, call `run` / `run_in` to execute a
# command capturing $out, $err and $rc, check with the expect_* functions,
# and end with `finish`, which prints the closing "N passed, N failed" line
# that scripts/run-tests.sh reads and returns non-zero on failure.

pass=0 fail=0
assert_tmp=$(mktemp -d)
trap 'rm -rf "$assert_tmp"' EXIT

# run CMD...: runs with stdin from /dev/null; sets out, err, rc.
run() {
  out=$("$@" </dev/null 2>"$assert_tmp/err")
  rc=$?
  err=$(cat "$assert_tmp/err")
}

# run_in INPUT CMD...: like run with INPUT on stdin.
run_in() {
  local input=$1
  shift
  out=$(printf '%s' "$input" | "$@" 2>"$assert_tmp/err")
  rc=$?
  err=$(cat "$assert_tmp/err")
}

ok() { pass=$((pass + 1)); }
bad() {
  fail=$((fail + 1))
  echo "FAIL: $1"
  shift
  for line in "$@"; do echo "    $line"; done
}

# expect NAME WANT_RC WANT_OUT [WANT_ERR]: checks the last run exactly.
expect() {
  local name=$1 want_rc=$2 want_out=$3
  if [ "$rc" != "$want_rc" ] || [ "$out" != "$want_out" ] ||
    { [ $# -ge 4 ] && [ "$err" != "$4" ]; }; then
    bad "$name" "rc: $rc (want $want_rc)" "out: $(printf %q "$out")" \
      "want: $(printf %q "$want_out")" "err: $(printf %q "$err")" \
      "${4+want err: $(printf %q "${4-}")}"
  else
    ok
  fi
}

# expect_true NAME CMD...: the command must succeed.
expect_true() {
  local name=$1
  shift
  if "$@"; then ok; else bad "$name" "command failed: $*"; fi
}

# expect_match NAME TEXT PATTERN: TEXT matches the grep -E PATTERN.
expect_match() {
  if grep -Eq -- "$3" <<<"$2"; then ok; else bad "$1" "text: $(printf %q "$2")" "pattern: $3"; fi
}

finish() {
  echo "$pass passed, $fail failed"
  [ "$fail" -eq 0 ]
}
