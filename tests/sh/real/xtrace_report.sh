#!/bin/bash
# set -x traces of a small deploy, with PS4 and quoting of odd words.
exec 2>&1
set -x
name="my app"
files=(a.txt "b c.txt" '')
echo "$name" ${#files[@]}
x=$'tab\there' y="it's" z='$HOME' w=""
: "$x" "$y" "$z" "$w" '*' '~' 'a"b'
if [[ $name == my* ]]; then echo yes; fi
(( n = 2 + 3 ))
for f in "${files[@]}"; do :; done
f() { echo "in f: $1"; }
f "arg one"
v=$(echo sub)
case $v in sub) echo matched ;; esac
set +x
PS4='+[$LINENO] '
set -x
echo with ps4
arr=(1 2)
arr+=(3)
declare -A m=([k]=v)
export E=1
set +x
PS4='${FUNCNAME[0]:-main}> '
set -x
g() { echo g; }
g
set +x
echo done
