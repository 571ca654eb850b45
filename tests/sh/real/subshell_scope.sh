#!/bin/bash
# Subshells, command substitution and the state they share or not.
x=outer
( x=inner; echo "in subshell: $x $BASH_SUBSHELL" )
echo "after: $x"
y=$(x=cmdsub; echo "$x $BASH_SUBSHELL")
echo "$y / $x"
( ( echo "nested $BASH_SUBSHELL" ) )
cd /tmp 2>/dev/null || true
( cd / && echo "sub pwd: $PWD" )
echo "pwd kept: $PWD"
f() { echo "f sees x=$x"; }
( x=changed; f )
set -- a b c
( shift; echo "sub args: $*" )
echo "args: $*"
( exit 3 ); echo "exit status: $?"
( set -e; false; echo no ) ; echo "sub -e: $?"
v=$( echo out; echo err >&2 ) 2>/dev/null
echo "v=$v"
count=0
while read -r l; do count=$((count+1)); done < <(printf '1\n2\n3\n')
echo "count=$count"
trap 'echo parent trap' EXIT
( echo "subshell traps: $(trap -p EXIT | wc -l)" )
trap - EXIT
umask 022; ( umask 077; umask ); umask
declare -A m=([a]=1)
( m[b]=2; echo "sub: ${#m[@]}" ); echo "parent: ${#m[@]}"
{ x=group; }; echo "group sets: $x"
echo "$(echo "$(echo "$(echo deep)")")"
a=$(printf '%s' "no trailing"); echo "[$a]"
b=$(printf 'x\n\n\n'); echo "[$b]"
n=$(echo $((1+1))); echo "n=$n"
echo "pid same in cmdsub: $([[ $$ == $(echo $$) ]] && echo yes)"
echo "BASHPID differs: $([[ $BASHPID != $(echo $BASHPID) ]] && echo yes)"
