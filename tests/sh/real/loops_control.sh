#!/bin/bash
# Loops: break and continue with levels, C-style, until, select-free menus.
for i in 1 2 3; do
  for j in a b c; do
    [[ $j == b ]] && continue
    [[ $i == 2 ]] && continue 2
    [[ $i == 3 ]] && break 2
    echo "$i$j"
  done
done
n=0
while :; do
  n=$((n + 1))
  (( n % 2 )) && continue
  (( n > 6 )) && break
  echo "even $n"
done
until (( n <= 0 )); do n=$((n - 3)); done; echo "n=$n"
for ((i = 0; i < 3; i++)); do echo "c-style $i"; done
for ((;;)); do echo once; break; done
for x; do echo "never"; done
set -- p q
for x; do echo "positional $x"; done
for x in; do echo never; done
echo "empty for status: $?"
break 2>&1
echo "break outside: $?"
f() { break; }
for i in 1 2; do f 2>&1; echo "i=$i"; done
for i in 1; do break 0 2>&1; echo "break 0 status $?"; done
for i in 1 2; do continue 5; done; echo "continue 5 ok"
k=0
while (( k < 2500 )); do (( k++ )); done
echo "k=$k"
total=0
for i in {1..3000}; do total=$((total + i)); done
echo "total=$total"
i=0
while read -r w; do i=$((i+1)); done <<< "$(seq 3000)"
echo "read $i"
for i in {a..e..2} {5..1..2} {01..03}; do printf '%s ' "$i"; done; echo
select_like() { local PS3=; local i=1; for o in "$@"; do echo "$i) $o"; i=$((i+1)); done; }
select_like red green
