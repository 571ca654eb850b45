#!/bin/bash
# declare -p of every kind of attribute.
declare -i int=42
declare -r ro=fixed
declare -x exported=yes
declare -l low=ABC
declare -u up=abc
declare -a arr=(1 "two words" '$x')
declare -A assoc=([k]='v "q"')
declare -t traced=1
declare -ir both=7
declare plain="with 'quote' and \"double\" and \$dollar and \\back"
declare newline=$'line1\nline2'
declare empty=
declare unset_decl
declare -p int ro exported low up arr assoc traced both plain newline empty unset_decl
declare -p nosuch 2>&1
echo "status: $?"
f() { local l=1; declare -p l; }
f
declare -n nr=int
declare -p nr
declare +x exported
declare -p exported
declare -i -a ia=(1+1 3)
declare -p ia
x=1
declare -p x
declare -- dd=dash
declare -p dd
export ex2=2
declare -p ex2
declare -r -x rx=both
declare -p rx
declare -a sparse=([5]=five [1]=one)
declare -p sparse
declare -A single=([only]=1)
declare -p single
declare -p -- x
typeset -p int
y=$'\e[1m'
declare -p y
z=$'a\tb'
declare -p z
declare -f nofunc
echo "declare -f missing: $?"
