#!/bin/bash
# Parameter expansion corners: braces, nested quotes, defaults.
unset x
echo ${x:-{}
echo "${x:-{}}"
echo ${x:-\}}
echo "${x:-a}b}"
echo ${x-'single quoted'}
echo "${x-"nested "double""}"
echo "${x:-$(echo cmd sub)}"
y=set
echo "${y:+"alt $y"}"
echo ${y:+'q'}
echo "${y:+a b}"
echo "${#y}"
e=
echo "[${e:-empty}] [${e-notunset}] [${e:+alt}] [${e+plus}]"
echo "${x:=assigned}" "$x"
unset x
: ${x:=default}
echo "x=$x"
z=hello-world.tar.gz
echo "${z%.*} ${z%%.*} ${z#*.} ${z##*.} ${z:6} ${z:0:5} ${z: -6:3}"
echo "${z^} ${z^^} ${z,,}" 
u=HeLLo
echo "${u,} ${u,,} ${u~} ${u~~}"
path=/usr/local/bin/tool
echo "dir=${path%/*} base=${path##*/}"
q="it's"
echo "${q@Q}"
arr=(one 'two three')
echo "${arr[@]@Q}"
n=5
echo "${n@A}"
echo "$((n + ${#path}))"
echo "${!n-indirect unset}"
ref=path
echo "${!ref}"
prefix_a=1 prefix_b=2
echo "${!prefix_@}"
echo "${!prefix_*}"
printf '%s\n' "${x:-"a
b"}"
echo "${undefined:-'quoted'}"
echo '${not expanded}'
echo "\${escaped}"
echo $'ansi\tc'
echo "$(( 1 ? 2 : 3 ))"
echo ${y/s/S}
