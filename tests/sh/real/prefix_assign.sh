#!/bin/bash
# Prefix assignments, temporary environment, local and export.
show_x() { echo "show_x sees x=${x-unset}"; }
x=global
x=temp show_x
echo "after: x=$x"

f() { local x; echo "local x in f: [${x-unset}]"; x=inner; echo "f set x=$x"; }
x=prefix f
echo "after f: $x"

g() { local x=$x; echo "g copies x=$x"; }
x=fromprefix g

h() { bash -c 'echo "child sees Y=${Y-unset}"'; }
Y=exported h
echo "Y now: ${Y-unset}"

unset z
z=1 true
echo "z after true: ${z-unset}"
z=2 :
echo "z after colon (special builtin): ${z-unset}"
z=3 eval 'echo "in eval z=$z"'
echo "z after eval: ${z-unset}"
unset z
w=5 export w
echo "w=$w"
bash -c 'echo "child w=$w"'

IFS=: read -r a b <<< "1:2"
echo "a=$a b=$b IFS=[${IFS}]" | od -c | head -1 >/dev/null
echo "read: $a $b"

counter=0
inc() { counter=$((counter + 1)); }
counter=100 inc
echo "counter=$counter"

export EV=outer
change_ev() { EV=changed; bash -c 'echo "child EV=$EV"'; }
change_ev
echo "EV=$EV"
declare -x LATE
LATE=now
bash -c 'echo "LATE=$LATE"'
export -n LATE
bash -c 'echo "LATE after -n=${LATE-unset}"'
readonly RO=1
RO=2 true 2>&1
echo "after readonly prefix: $?"
