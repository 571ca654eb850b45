#!/bin/bash
# Pipelines: PIPESTATUS, pipefail, subshell scope, negation.
true | false | true
echo "${PIPESTATUS[*]}"
false | true
echo "status=$? ps=${PIPESTATUS[*]}"
set -o pipefail
false | true
echo "pipefail status=$?"
true | (exit 3) | true
echo "status=$? ${PIPESTATUS[@]}"
set +o pipefail
! true
echo "negated: $?"
! false | false
echo "negated pipe: $?"
count=0
printf 'a\nb\n' | while read -r l; do count=$((count + 1)); done
echo "count in parent: $count"
count=$(printf 'a\nb\n' | wc -l)
echo "count via subst: $count"
( x=inner; echo "sub: $x" ); echo "outer: ${x-unset}"
{ y=group; }; echo "group: $y"
seq 1 100000 | head -n 2
echo "head: ${PIPESTATUS[*]}"
yes | head -c 10; echo
echo "yes: ${PIPESTATUS[0]}"
echo hi | cat | cat | cat
echo "${#PIPESTATUS[@]}"
out=$(echo one; echo two >&2) 2>&1
echo "out=$out"
{ echo to-stderr >&2; } 2>&1 | tr a-z A-Z
echo abc |& tr a-c x-z
ls /nonexistent |& sed 's/^ls: //' | head -1
time_out=$( { time true; } 2>&1 | grep -c real)
echo "time lines: $time_out"
