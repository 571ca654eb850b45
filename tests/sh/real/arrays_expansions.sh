#!/bin/bash
# Arrays in every expansion form.
p() { printf '<%s>' "$@"; echo; }
a=(alpha "" 'gamma delta' epsilon)
p "${a[@]:-x}"
p "${a[*]:-x}"
p "${a[@]/a/A}"
p "${a[@]//a/}"
p "${a[@]^}"
p "${a[@]^^}"
p "${a[@]#*a}"
p "${a[@]%a}"
p "${#a[@]}" "${#a[1]}" "${#a[2]}"
p "${!a[@]}"
p "${!a[*]}"
p "${a[@]:1}"
p "${a[@]:1:2}"
p "${a[@]: -1}"
p "${a[@]@Q}"
p "${a[*]@Q}"
p "$a" "${a}" "${a:1}" "${a[0]:0:2}"
p "${a[-1]:0:3}"
p ${a[@]}
p ${a[*]}
IFS=:
p "${a[*]}" ${a[*]}
unset IFS
e=()
p "${e[@]}" "${e[*]}"
p "${e[@]:-empty}"
p "${e[@]+set}" "${a[@]+set}"
s=("one two" three)
for x in "${s[@]}"; do p "$x"; done
for x in ${s[@]}; do p "$x"; done
n=(1 2 3)
echo $(( ${n[0]} + ${n[2]} ))
declare -a big=([1000000]=x)
p "${!big[@]}" "${#big[@]}"
unset 'a[0]'
p "${a[@]}" "${!a[@]}"
a[0]=new
p "${a[@]}"
m=("${a[@]}" "${n[@]}")
p "${#m[@]}"
declare -A h=([k1]=v1)
p "${h[@]}" "${!h[@]}" "${h[k1]:1}" "${#h[k1]}"
p "${h[nokey]-default}"
str="x"
p "${str[0]}" "${str[@]}" "${#str[@]}"
v=(a b c)
v=("${v[@]:1}")
declare -p v
x=("${v[@]/%/.txt}")
p "${x[@]}"
