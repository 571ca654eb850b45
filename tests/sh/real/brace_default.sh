#!/bin/bash
# Defaults and alternatives holding braces, quotes and nested expansions.
unset u; e=; s=set
echo ${u:-{}
echo ${u:-}}
echo "${u:-{}"
echo ${u:-a{b,c}d}
echo ${s:+{x}}
echo "${u:-"quoted default"}"
echo "${u:-'single'}"
echo ${u:-'single'}
echo "${u:-"in \"nested\" quotes"}"
echo "${u:-$(echo "cmd sub")}"
echo "${u:-${e:-${s}}}"
echo "${u-unset}" "${e-empty}" "${e:-empty2}"
echo "${s/e/"E"}"
echo "${s//[et]/'_'}"
x="a'b"
echo "${x//\'/\\\'}"
echo "${x/"'"/Q}"
y='path/to/file.txt'
echo "${y##*/}" "${y%.*}" "${y%%/*}" "${y#"path/"}"
pat='*.txt'
echo "${y%$pat}" "${y%"$pat"}"
arr=(one two)
echo "${arr[@]:-none}" "${missing[@]:-none}"
echo "${u:=assigned}" "$u"
: "${v:=x y}"; echo "[$v]"
echo "${#s}" "${#arr[@]}" "${#arr}"
echo "${u:+"alt $s"}"
echo "${s:+"}"}"
echo "${s:+'}'}"
echo ${s:+\}}
echo "end"
