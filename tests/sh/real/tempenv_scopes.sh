#!/bin/bash
# Prefix assignments, locals and unset through call chains, as config helpers use them.
show() { echo "$1: v=${v-(unset)} exported=$(printenv v || echo no)"; }
unlocal() { unset -v "$1"; }
v=global
v=temp show "prefix"
show "after"
f() { local v=local; show "in f"; unset v; show "f after unset"; }
v=temp f
g() { local v; show "g local v (inherits temp)"; v=changed; show "g changed"; unlocal v; show "g unlocal"; }
v=temp g
h() { local v=h; v=inner eval 'show "eval temp"; local v=evlocal; show "eval local"'; show "h after eval"; }
h
m() { local v=l1; v=t2 eval 'local v=l2; unset v; show "eval local unset"'; show "m after"; }
m
k() { v=k-temp show "nested prefix"; show "k"; }
v=outer-temp k
show "top"
export E=1
E=2 bash -c 'echo "child sees E=$E"'
echo "E=$E"
E= printenv E | wc -c
count() { echo "args=$# v=$v"; }
v=a count 1 2 3
declare -x X=exp
X=override printenv X
printenv X
readonly R=ro
R=try show "readonly prefix" 2>&1
echo "status $?"
w=5 export w
echo "w=$w"
z=3 readonly z
echo "z=$z"
IFS=, read -r a b <<<"1,2"; echo "a=$a b=$b IFS=[${IFS}]" | cat -A | sed 's/\$$//'
