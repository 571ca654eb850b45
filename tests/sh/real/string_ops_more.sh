#!/bin/bash
# String operations of a text-munging script.
s="Hello, World"
echo "${s^^}" "${s,,}" "${s~~}" "${s^}" "${s,}"
echo "${s^^[lo]}" "${s,,[HW]}"
echo "${s:7}" "${s: -5}" "${s:0:5}" "${s:(-5):3}" "${s:3:-3}"
echo "${s/o/0}" "${s//o/0}" "${s/#H/J}" "${s/%d/D}" "${s//[aeiou]/}"
echo "${s#*o}" "${s##*o}" "${s%o*}" "${s%%o*}"
echo "${#s}"
u="héllo wörld"
echo "${#u}" "${u^^}" "${u:1:3}"
path=/usr/local/lib/libfoo.so.1.2
echo "${path##*/}" "${path%/*}" "${path##*.}" "${path%%.*}"
arr=(apple banana cherry)
echo "${arr[@]^}" "${arr[@]#?}" "${arr[@]/a/A}" "${arr[@]:1:1}"
echo "${arr[*]%%a*}"
v=abcabc
echo "${v/b*/X}" "${v//b?/X}" "${v/#a/}" "${v/%c/}"
e=""
echo "[${e/x/y}]" "[${e:0}]" "[${e^^}]"
rep='&'
echo "${v//b/$rep}" "${v//b/\&}"
echo "${v@Q}" "${s@U}" "${s@L}" "${arr[@]@Q}"
x='a b'; echo "${x@A}"
declare -a q=(1 2); echo "${q[@]@A}"
printf '%s\n' "${s:0:1}${s: -1}"
trim() { local t=$1; t=${t#"${t%%[![:space:]]*}"}; t=${t%"${t##*[![:space:]]}"}; echo "[$t]"; }
trim "   spaced out   "
repeat() { local out; printf -v out '%*s' "$2" ''; echo "${out// /$1}"; }
repeat '=-' 5
echo "${s:100}" "[${s:5:0}]"
echo ${s:1:2:3} 2>&1 || echo "bad substring status $?"
