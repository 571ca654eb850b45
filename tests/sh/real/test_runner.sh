#!/bin/bash
# A tiny test framework: assertions, counters, summaries, traps.
PASS=0 FAIL=0
declare -a FAILED=()
assert_eq() {
  local expected=$1 actual=$2 msg=${3:-}
  if [[ "$expected" == "$actual" ]]; then
    (( PASS++ ))
    printf '  ok   %s\n' "$msg"
  else
    (( FAIL++ ))
    FAILED+=("$msg")
    printf '  FAIL %s: expected [%s] got [%s]\n' "$msg" "$expected" "$actual"
  fi
}
assert_status() {
  local want=$1; shift
  "$@" >/dev/null 2>&1
  assert_eq "$want" "$?" "status of $*"
}
run_suite() {
  local name=$1; shift
  echo "== $name"
  local t
  for t in "$@"; do "$t"; done
}
test_strings() {
  local s="Hello, World"
  assert_eq 12 "${#s}" "length"
  assert_eq "hello, world" "${s,,}" "lowercase"
  assert_eq "World" "${s#*, }" "strip prefix"
}
test_arith() {
  assert_eq 7 $(( 3 + 4 )) "add"
  assert_eq 1 $(( 7 % 3 )) "mod"
  assert_eq 8 $(( 2 ** 3 )) "pow"
  assert_eq 99 $(( 100 - 2 )) "deliberate failure"
}
test_status() {
  assert_status 0 true
  assert_status 1 false
  assert_status 127 nosuchcommand
  assert_status 2 ls /nonexistent
}
test_arrays() {
  local -a a=(3 1 2)
  local sorted
  sorted=$(printf '%s\n' "${a[@]}" | sort -n | tr '\n' ' ')
  assert_eq "1 2 3 " "$sorted" "sorted"
  assert_eq 3 "${#a[@]}" "count"
}
trap 'echo "summary: $PASS passed, $FAIL failed"; ((FAIL)) && printf "failed: %s\n" "${FAILED[@]}"' EXIT
run_suite basics test_strings test_arith
run_suite more test_status test_arrays
exit $(( FAIL > 0 ))
