#!/bin/bash
# Errors of expansions and assignments: messages, statuses, what goes on.
echo "start"
x=abc
echo "${x:?}"
echo ${x/[/y} 2>&1
bad() { echo "${x!}"; }
bad
echo "after bad substitution in function: $?"
( echo "${unset_var?custom message}" )
echo "subshell status: $?"
( set -u; echo "$nope"; echo "not reached" )
echo "nounset status: $?"
( set -u; arr=(); echo "${#arr[@]}"; echo "${arr[0]}"; echo not reached )
echo "nounset array: $?"
readonly LOCKED=1
LOCKED=2
echo "readonly assignment status: $?"
f() { local LOCKED=3; echo "local of readonly: $LOCKED"; }
f
echo "f status: $?"
unset LOCKED
echo "unset readonly: $?"
declare -r R2=x
R2+=y
echo "R2=$R2"
echo $(( 1 / 0 ))
echo "after division: $?"
echo $(( 2 + ))
echo "after arith syntax: $?"
n=08
echo $(( n + 1 ))
echo "octal error: $?"
a=(1 2)
a[x/0]=1
echo "subscript error: $?"
echo "${a[@]:-1:1}"
cd /nonexistent/dir
echo "cd status: $?"
nosuchcommand arg
echo "not found status: $?"
./nosuchfile
echo "path not found: $?"
echo hi > /nonexistent/file
echo "redirect status: $?"
unset -f nosuchfunc
echo "unset -f: $?"
shift 5
echo "shift: $?"
declare -i num
num=abc
echo "num=$num"
num='3 + 4'
echo "num=$num"
printf '%d\n' 12abc
echo "printf status: $?"
echo "end"
