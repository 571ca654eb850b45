#!/bin/bash
# A small unit-test harness of the kind projects keep in test/: assert helpers,
# counters, subshell isolation, captured output and a summary with a status.
PASS=0 FAIL=0
declare -a FAILED=()
assert_eq() {
  local expected=$1 actual=$2 msg=${3:-}
  if [[ "$expected" == "$actual" ]]; then
    (( PASS++ ))
  else
    (( FAIL++ ))
    FAILED+=("${FUNCNAME[1]}: ${msg:-values differ}")
    printf '  expected: %q\n  actual:   %q\n' "$expected" "$actual"
  fi
}
assert_status() { local want=$1; shift; "$@" >/dev/null 2>&1; assert_eq "$want" "$?" "status of $*"; }
assert_match() { [[ $2 =~ $1 ]] && (( ++PASS )) || { (( ++FAIL )); FAILED+=("${FUNCNAME[1]}: /$1/ !~ $2"); }; }
run_test() {
  local t=$1
  printf '%-28s' "$t"
  local before=$FAIL
  "$t"
  (( FAIL == before )) && echo ok || echo FAILED
}
# the code under test
slugify() { local s=${1,,}; s=${s//[^a-z0-9]/-}; s=${s##+(-)}; s=${s%%+(-)}; while [[ $s == *--* ]]; do s=${s//--/-}; done; printf '%s' "$s"; }
sum() { local t=0 n; for n; do (( t += n )); done; echo $t; }
parse_kv() { local -n _out=$2; local line k v; while IFS='=' read -r k v; do [[ -z $k || $k == \#* ]] && continue; _out[$k]=$v; done <<<"$1"; }
die() { echo "error: $*" >&2; return 3; }
shopt -s extglob
test_slugify() {
  assert_eq "hello-world" "$(slugify 'Hello, World!')"
  assert_eq "a-b" "$(slugify '--A  B--')"
  assert_eq "" "$(slugify '!!!')" "only punctuation"
}
test_sum() {
  assert_eq 6 "$(sum 1 2 3)"
  assert_eq 0 "$(sum)"
  assert_eq -5 "$(sum 5 -10)"
}
test_parse_kv() {
  declare -A cfg=()
  parse_kv $'# comment\nhost=example.org\nport=8080\n\nempty=\nurl=http://x/?a=b' cfg
  assert_eq 4 "${#cfg[@]}"
  assert_eq "http://x/?a=b" "${cfg[url]}"
  assert_eq "" "${cfg[empty]-missing}"
}
test_die() {
  local err
  err=$(die "bad input" 2>&1); local st=$?
  assert_eq "error: bad input" "$err"
  assert_eq 3 "$st" "an assignment's status is its substitution's"
  assert_status 3 die x
}
test_subshell_isolation() {
  local x=1
  ( x=2; cd /; exit 0 )
  assert_eq 1 "$x"
  assert_match '^/' "$PWD"
}
test_expected_failure() {
  assert_eq "left" "right" "deliberate"
}
for t in $(declare -F | awk '{print $3}' | grep '^test_' | sort); do run_test "$t"; done
echo "passed: $PASS, failed: $FAIL"
printf 'failure: %s\n' "${FAILED[@]}"
(( FAIL == 0 ))
