#!/bin/bash
# Report every kind of variable the way `declare -p` prints it.
report() {
  local name
  for name in "$@"; do
    printf '%-8s ' "$name"
    declare -p "$name" 2>&1 || printf '(status %d)\n' $?
  done
}
plain=hello
spaced='a b  c'
quoted="it's \"q\" \$x \\ end"
newline=$'line1\nline2'
tab=$'a\tb'
empty=
declare -i num=42
declare -r ro=fixed
declare -x ex=exported
declare -l low=MiXeD
declare -u up=MiXeD
declare -a idx=(one "two words" '' "four*")
declare -a sparse
sparse[3]=three; sparse[10]=ten
declare -A assoc=([k1]=v1 ["key two"]="v 2" [star]='*')
declare -A emptyassoc=()
declare -a emptyidx=()
declare -ai intarr=(1+1 2*3)
declare -n ref=plain
declare unset_decl
declare -rx rox=both
report plain spaced quoted newline tab empty num ro ex low up
report idx sparse emptyidx intarr emptyassoc ref unset_decl rox
report missing_var
f() {
  local lv=inner
  local -a la=(x y)
  local -A lA=([a]=1)
  declare -p lv la lA
  declare -p | grep -c '^declare -- lv='
}
f
declare -p assoc | sed 's/^declare -A assoc=//' | tr ' ' '\n' | grep -c '='
declare +x ex
declare -p ex
num+=8
declare -p num
idx+=(five)
declare -p idx
echo "status: $?"
