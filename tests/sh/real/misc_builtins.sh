#!/bin/bash
# Assorted builtins used in scripts.
printf -v padded '%05.1f' 3.14159
echo "$padded"
umask 022; umask; umask -S
umask 077; umask -S; umask 022
let x=5 y=x*2; echo $x $y
echo $(( $(printf '%d' 0x1f) ))
read -r -t 0 && echo "input ready" || echo "no input"
mapfile -t arr < <(printf 'a\nb\n')
echo "${arr[@]}"
echo "${#arr[@]}"
hash -r; hash 2>&1
command -v printf echo cd
builtin echo "builtin echo"
enable -a | grep -c 'enable echo'
compgen -W 'alpha beta gamma' -- b
compgen -A function | head -3
declare -F | wc -l
type -a true | head -1
getopts 'a' opt -a; echo "opt=$opt"
shift 0; echo "shift 0: $?"
set -- 1 2 3; shift 2; echo "$*"
test 3 -gt 2 && echo "test ok"
[ -n "x" ]; echo $?
ulimit -f
caller; echo "caller at top: $?"
suspend 2>&1; echo "suspend: $?"
logout 2>&1; echo "logout: $?"
echo -e 'a\tb' -n
echo -n "no newline"; echo
echo -E 'a\tb'
echo -- "-- dashes"
printf '%s\n' "$(( 7 % 3 ))"
: "colon ignores ${unset_var:-args}"
true; false; echo "after false: $?"
wait; echo "wait: $?"
