#!/bin/bash
# Quotes nested inside ${...}, $(...) and arithmetic, as templating scripts write them.
name="World"; unset miss
echo "${miss:-"Hello, ${name}!"}"
echo "${miss:-'single $name'}"
echo ${miss:-"a  b"}
echo "${name/World/"Big World"}"
echo "${name//o/"0"}" "${name//"o"/0}"
pat="o*"; echo "${name/$pat/X}" "${name/"$pat"/X}"
echo "$(echo "inner \"quoted\" $(echo "deeper $name")")"
echo "${miss:-$(printf '%s' "cmd 'sub' default")}"
echo "${miss-"\$literal"}" "${miss-\$also}"
echo "${name:+"[$name]"}" "${name:+'[$name]'}"
x="a\"b"; echo "${x//\"/\\\"}"
y="it's"; echo "${y//\'/\'\\\'\'}"
echo "$(( ${#name} + $(echo 2) ))"
arr=("one two" three)
echo "${arr[0]//"two"/2}" "${arr[@]/#/"> "}"
echo "${miss:-${arr[1]:-"no"}}"
z='$(echo injected)'; echo "${z}" "${miss:-$z}"
echo "${name:0:"2"}" "${name: -"3"}"
case "$name" in "Wor"*) echo "quoted prefix pattern" ;; esac
[[ "$name" == "W"* ]] && echo "dbracket quoted prefix"
printf '%s\n' "${miss:-"multi
line"}"
echo "${miss:-}}" "${miss:-\}}" "${miss:-"}"}"
echo end
