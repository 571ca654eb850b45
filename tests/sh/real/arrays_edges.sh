#!/bin/bash
# Array corners: negative and huge subscripts, += forms, sparse arrays and quoting.
a=(zero one two three)
echo "${a[-1]} ${a[-4]} ${a[@]: -2} ${a[@]:1:2}"
a[-1]=THREE; echo "${a[*]}"
a+=(four "five six"); echo "${#a[@]}"
a[10]=ten; echo "${!a[*]}"
a+=([20]=twenty [2]+=-more); declare -p a
unset 'a[-1]'; echo "${!a[@]}"
unset 'a[1]'; echo "${a[@]}"
big=(); big[9223372036854775807]=max; echo "${!big[@]} ${#big[@]}"
big[2**40]=pow; echo "${!big[@]}"
declare -A h=([one]=1 [two]=2)
h+=([three]=3); h[one]+=1
for k in $(printf '%s\n' "${!h[@]}" | sort); do echo "$k=${h[$k]}"; done
s=str; s+=(x); declare -p s
n=(1 2 3); n+=4; declare -p n
declare -i ia=(1 2); ia+=(3+4); ia[0]+=10; declare -p ia
q=("a b" "" "*" '$x' "c'd")
printf '<%s>' "${q[@]}"; echo
printf '<%s>' ${q[@]}; echo
printf '<%s>' "${q[*]}"; echo
printf '<%s>' "${q[@]/#/-}"; echo
printf '<%s>' "${q[@]:1:2}"; echo
echo "${#q[@]} ${#q[0]} ${#q[3]}"
e=(); echo "empty: ${#e[@]} [${e[*]}] [${e[@]:-dflt}]"
set -u
echo "${e[@]+set}" "${#e[@]}"
f=(x); echo "${f[5]-none}"
copy=("${q[@]}"); [[ ${copy[3]} == '$x' ]] && echo "copy ok"
i=0; while (( i < ${#q[@]} )); do printf '%d:%s|' "$i" "${q[i]}"; ((i++)); done; echo
echo "${a[-99]}" 2>&1
echo end
