#!/bin/bash
# Arrays passed by name to helper functions, the usual nameref idioms.
push() { local -n _arr=$1; shift; _arr+=("$@"); }
count() { local -n _c=$1; echo "${#_c[@]}"; }
join_by() { local -n _j=$1; local IFS=$2; echo "${_j[*]}"; }
set_key() { local -n _m=$1; _m[$2]=$3; }
dump() {
  local -n _d=$1
  local k
  for k in "${!_d[@]}"; do printf '  [%s]=%s\n' "$k" "${_d[$k]}"; done
}
list=()
push list alpha "beta gamma"
push list delta
echo "count: $(count list)"
join_by list ,
dump list
declare -A conf
set_key conf host example.org
set_key conf port 8080
for k in $(printf '%s\n' "${!conf[@]}" | sort); do echo "$k=${conf[$k]}"; done
# chains
declare -n r1=r2 r2=target
target=(a b c)
echo "${r1[1]} ${#r1[@]}"
r1[5]=z
declare -p target
# loop over names
a1=(1 2) a2=(3 4 5)
for n in a1 a2; do
  declare -n cur=$n
  echo "$n has ${#cur[@]}: ${cur[*]}"
done
unset -n cur
# nameref to an element
declare -n el='target[2]'
echo "el=$el"
el=CHANGED
echo "${target[@]}"
# the name itself
declare -n nr=target
echo "${!nr}"
declare -p nr
# returning an array from a function
split() { local -n _out=$2; IFS=: read -ra _out <<<"$1"; }
split "x:y::z" parts
declare -p parts
# circular
declare -n c1=c2
declare -n c2=c1
echo "circ: ${c1:-unset}" 2>&1
echo done
