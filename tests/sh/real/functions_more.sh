#!/bin/bash
# More functions: caller, redirections on definitions, recursion, traps in functions.
where() { caller 0 | sed 's/ [^ ]*$//'; }
outer() { where; }
outer
logto() { echo "log line"; } > fn.log
logto; logto
cat fn.log
depth() { (( $1 > 0 )) && depth $(( $1 - 1 )) || echo "reached $1 at FUNCNAME depth ${#FUNCNAME[@]}"; }
depth 50
counter() { local -i c=${1:-0}; c+=1; echo $c; }
counter; counter 41
f() {
  local tmp
  trap 'echo "RETURN trap in $FUNCNAME"' RETURN
  tmp=value
  echo "f body $tmp"
}
f
trap - RETURN
g() { echo "g stdin: $(cat)"; }
echo piped | g
g <<< "here"
h() { return 300; }
h; echo "return 300 -> $?"
i() { local x=1; unset x; echo "x=${x-unset}"; }
i
j() { echo "$@" "$#"; set -- new; echo "$@"; }
j a b c
echo "after j: $*"
k() { printf '%s\n' "$FUNCNAME" "${FUNCNAME[1]:-none}"; }
k
declare -f logto
m() { echo "${1:?need an argument}"; }
m 2>&1
echo "m status: $?"
n() { echo one; echo two >&2; } 2>&1
n | cat
alias_fn() { echo "alias inside"; }
shopt -s expand_aliases
alias af=alias_fn
af
unalias af
o() { local IFS=-; echo "$*"; }
o a b c
p() ( cd / && echo "subshell fn pwd: $PWD" )
p
echo "pwd unchanged: ${PWD##*/}"
