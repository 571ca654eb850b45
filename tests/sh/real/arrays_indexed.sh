#!/bin/bash
# Indexed arrays: assignment forms, +=, subscripts, declare -p, quoting.
show() { printf '<%s>' "$@"; echo; }

fruits=(apple "banana split" cherry)
fruits+=(date)
fruits[10]=fig
fruits[-1]+=s
declare -p fruits
echo "count=${#fruits[@]} last=${fruits[-1]} len0=${#fruits[0]}"
echo "indices: ${!fruits[@]}"
show "${fruits[@]}"
show ${fruits[@]}
show "${fruits[*]}"
show "${fruits[@]:1:2}"
show "${fruits[@]: -2}"
IFS=, ; show "${fruits[*]}"; unset IFS

nums=([3]=c [1]=a b)
declare -p nums
nums[-1]=z
declare -p nums
unset 'nums[1]'
declare -p nums
echo "${nums[-2]-none}"
nums[-10]=x 2>&1
echo "status after bad negative: $?"

big=()
big[4294967296]=huge
big[9223372036854775807]=max
declare -p big
echo "${!big[@]}"

a=(one two three)
a+=four
declare -p a
a=( "${a[@]/#/pre-}" )
show "${a[@]}"
b=("${a[@]}")
unset 'b[0]'
show "${b[@]}"
echo "${#b[*]}"

declare -a empty=()
declare -p empty
show "${empty[@]}"
echo "[${empty[*]}]"
copy=("${empty[@]}" x)
declare -p copy

matrix=()
for ((i = 0; i < 3; i++)); do
  for ((j = 0; j < 3; j++)); do
    matrix[i*3+j]=$((i * j))
  done
done
echo "${matrix[*]}"
declare -p matrix

# words with special characters
special=('a b' '' '*' '$x' "it's" 'tab	here')
declare -p special
for w in "${special[@]}"; do printf '[%s]' "$w"; done; echo
printf '%q\n' "${special[@]}"

declare -a -i ints=(1+1 2*3)
ints+=(4)
declare -p ints
