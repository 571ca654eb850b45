#!/bin/bash
# Namerefs: return values through names, chains, arrays.
set_result() {
  local -n out=$1
  out="computed $2"
}
set_result answer 42
echo "$answer"

append() {
  local -n arr=$1
  shift
  arr+=("$@")
}
list=(a)
append list b "c d"
declare -p list

sum_into() {
  local -n _nums=$1 _total=$2
  _total=0
  local n
  for n in "${_nums[@]}"; do (( _total += n )); done
}
values=(3 4 5)
sum_into values total
echo "total=$total"

declare -n r1=r2
declare -n r2=target
target=deep
echo "chain: $r1"
r1=changed
echo "target: $target"
declare -p r1 r2

declare -A table=([k]=v)
declare -n t=table
t[new]=n
echo "${table[new]} ${#t[@]}"
declare -n elem='values[1]'
echo "elem=$elem"
elem=40
echo "${values[*]}"

for name in alpha beta; do
  declare -n ref=$name
  ref="value of $name"
done
unset -n ref
echo "$alpha / $beta"

declare -n self=self 2>&1
echo "self status=$?"
declare -n loop1=loop2
declare -n loop2=loop1
echo "loop: ${loop1-unset}" 2>&1

get_keys() {
  local -n _m=$1
  printf '%s\n' "${!_m[@]}" | sort | tr '\n' ' '
  echo
}
declare -A colors=([red]=1 [green]=2 [blue]=3)
get_keys colors
x=1
declare -n nx=x
unset nx
echo "x after unset through ref: ${x-gone}"
