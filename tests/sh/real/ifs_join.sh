#!/bin/bash
# How $* and $@ join and split under every IFS, as a table.
show() { printf '<%s>' "$@"; printf ' (%d)\n' $#; }
set -- a b "c d" ''
for ifs in unset default empty colon space-colon; do
  case $ifs in
    unset) unset IFS ;;
    default) IFS=$' \t\n' ;;
    empty) IFS= ;;
    colon) IFS=: ;;
    space-colon) IFS=' :' ;;
  esac
  printf '%-12s' "$ifs"
  v=$*; printf 'v=$*:[%s] ' "$v"
  w="$*"; printf '"$*":[%s] ' "$w"
  x=$@; printf 'v=$@:[%s]\n' "$x"
  printf '  unquoted $*: '; show $*
  printf '  unquoted $@: '; show $@
  printf '  quoted "$@": '; show "$@"
  arr=("$@")
  y=${arr[*]}; printf '  ${arr[*]}=[%s]\n' "$y"
done
unset IFS
set -- one two
IFS= v=$*
echo "prefix form: [$v]"
IFS=, read -r p q <<<"1,2,3"
echo "p=$p q=$q"
IFS=: eval 'echo "$*"'
f() { local IFS=-; echo "$*"; }
f x y z
echo "after: [$*]"
