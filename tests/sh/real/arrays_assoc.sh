#!/bin/bash
# Associative arrays as a config store and counters.
declare -A conf=([host]=localhost [port]=8080)
conf[user]="admin user"
conf+=([mode]=fast)
for k in $(printf '%s\n' "${!conf[@]}" | sort); do
  printf '%-5s = %s\n' "$k" "${conf[$k]}"
done
echo "n=${#conf[@]}"
unset 'conf[port]'
echo "port=${conf[port]-unset} n=${#conf[@]}"

declare -A one=([only]='a "quoted" value')
declare -p one
declare -A spacey
spacey["key with space"]=1
spacey[$'tab\tkey']=2
declare -p spacey | sed 's/\t/<TAB>/'

declare -A count
for w in the cat and the dog and the bird; do
  (( count[$w]++ ))
done
for w in $(printf '%s\n' "${!count[@]}" | sort); do echo "$w ${count[$w]}"; done

declare -A empty
declare -p empty
echo "empty: ${#empty[@]} [${empty[*]}]"

f() {
  local -A m=([a]=1)
  m[b]=2
  echo "in f: ${m[a]}${m[b]} ${#m[@]}"
}
f
echo "m outside: ${m[a]-none}"

declare -A k
k[x]=1
k[x]+=2
echo "${k[x]}"
declare -A num
num[1+1]=two
echo "${!num[@]}"
key='a]b'
num[$key]=odd
echo "${num[$key]}"
declare -A from_list=([x]=1 [y]=2)
declare -p from_list | grep -o '\[x\]="1"'
unset from_list
declare -p from_list 2>&1
