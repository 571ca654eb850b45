#!/bin/bash
# Functions: declare -f text, FUNCNAME, recursion, return values.
fact() {
  local n=$1
  if (( n <= 1 )); then
    echo 1
  else
    echo $(( n * $(fact $((n - 1))) ))
  fi
}
echo "fact 10 = $(fact 10)"
fib() { local n=$1; (( n < 2 )) && { r=$n; return; }; fib $((n-1)); local a=$r; fib $((n-2)); r=$((a + r)); }
fib 15; echo "fib 15 = $r"
outer() { inner; }
inner() { echo "stack: ${FUNCNAME[*]}"; echo "lines: ${#BASH_LINENO[@]}"; echo "source: ${BASH_SOURCE[0]}"; }
outer
declare -f fact
declare -f outer inner
complex() {
  local -a arr=(1 2 3)
  for x in "${arr[@]}"; do
    case $x in
      1) echo one ;;
      *) echo "other $x" ;;
    esac
  done | while read -r l; do echo "[$l]"; done
  [[ -n $1 ]] && echo "arg: $1" || echo noarg
  { echo grouped; } >&2
  ( cd / && pwd )
  until false; do break; done
  x=$(( 1 + 2 )) y="q $x"
  cat <<EOF
doc $x
EOF
}
declare -f complex
complex 2>&1
type fact | head -3
declare -F | grep -c fact
declare -F fact
f1() { return 7; }
f1; echo "status=$?"
f2() ( echo "subshell body $BASH_SUBSHELL" )
f2
declare -f f2
function kw { echo "keyword style"; }
kw
declare -f kw
f3() { echo "args: $# ${1-} ${2-}"; shift; echo "after shift: $*"; }
f3 a b c
unset -f f3
f3 2>&1
echo "unset f3 status: $?"
