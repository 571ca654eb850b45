#!/bin/bash
# Background jobs and wait, with deterministic output.
work() { sleep 0.$1; echo "job $1 done"; return $1; }
work 3 > out3.txt &
p3=$!
work 1 > out1.txt &
p1=$!
wait $p1; echo "wait p1: $?"
wait $p3; echo "wait p3: $?"
cat out1.txt out3.txt
( exit 7 ) &
wait $!; echo "subshell job: $?"
for i in 1 2 3; do (echo "bg $i" > bg$i.txt) & done
wait
cat bg1.txt bg2.txt bg3.txt
wait; echo "wait with none: $?"
wait 99999 2>&1 | sed 's/[0-9][0-9]*/N/'
{ sleep 0.1; echo grouped; } &
wait
f() { echo "in f $1"; }
f bg &
wait
sleep 5 &
kill %1
wait %1; echo "killed: $?"
true & true &
wait; echo "all: $?"
