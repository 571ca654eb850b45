#!/bin/bash
# A tracing helper: DEBUG and ERR traps with BASH_COMMAND, caller and functrace.
declare -a trail=()
on_debug() { trail+=("$BASH_COMMAND"); }
on_err() { local st=$?; echo "ERR($st) at ${BASH_LINENO[0]}: $BASH_COMMAND"; }
trap on_debug DEBUG
x=1
y=$((x + 1))
echo "y=$y"
trap - DEBUG
printf '  %s\n' "${trail[@]}"
trap on_err ERR
check() { [[ $1 -gt 0 ]]; }
check 5 && echo "positive"
check -1 || echo "not positive (no ERR in ||)"
check -2
ls /no/such 2>/dev/null
set -o functrace
inner() { : "inner body"; }
count=0
trap '((count++))' DEBUG
inner; inner
trap - DEBUG
echo "debug count with functrace: $count"
set +o functrace
count=0
trap '((count++))' DEBUG
inner; inner
trap - DEBUG
echo "debug count without functrace: $count"
where() { caller 0 | awk '{print $2}'; }
outer() { where; }
outer
trap 'echo "returning from ${FUNCNAME[0]}"' RETURN
ret() { return 4; }
ret; echo "ret gave $?"
trap - RETURN
shopt -s extdebug 2>/dev/null
skip() { echo "should not print"; }
trap '[[ $BASH_COMMAND == "skip" ]] && false || true' DEBUG
echo before-skip
trap - DEBUG
shopt -u extdebug
trap - ERR
false
echo "done ($?)"
