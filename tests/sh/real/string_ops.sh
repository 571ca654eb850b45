#!/bin/bash
# Strings: substrings, case, length, transformations.
s="The quick brown fox"
echo "${#s} ${s:4:5} ${s: -3} ${s:(-9):5} ${s:100}"
echo "${s^^} | ${s,,} | ${s^} "
words=($s)
echo "${#words[@]} ${words[-1]}"
for w in "${words[@]}"; do printf '%s ' "${w:0:1}"; done; echo
rev=""
for (( i=${#s}-1; i>=0; i-- )); do rev+=${s:i:1}; done
echo "$rev"
pad=$(printf '%-10s|' short)
echo "$pad"
trim="   padded   "
t=${trim#"${trim%%[![:space:]]*}"}
t=${t%"${t##*[![:space:]]}"}
echo "[$t]"
csv="a,b,c"
IFS=, read -ra parts <<< "$csv"
echo "${parts[1]}"
joined=$(IFS=-; echo "${parts[*]}")
echo "$joined"
str=abcabc
echo "${str/b/X} ${str//b/X} ${str/#a/S} ${str/%c/E}"
echo "${str@U} ${str@u}"
n=42
echo "${n@Q} ${s@Q}"
declare -l lower=MiXeD
declare -u upper=MiXeD
echo "$lower $upper"
lower+=ABC
echo "$lower"
echo "${s:2:-2}"
echo "${s: -100}"
sub=${s:4}
echo "${sub%% *}"
x=$'multi\nline'
echo "${#x}"
echo "${x@Q}"
unicode="héllo"
echo "${#unicode} ${unicode:1:2} ${unicode^^}"
[[ $s == *quick* ]] && echo contains
[[ $s =~ ([a-z]+)\ ([a-z]+) ]] && echo "${BASH_REMATCH[0]}|${BASH_REMATCH[2]}"
echo "${s//[aeiou]/}"
