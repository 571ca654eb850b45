#!/bin/bash
# $@ and $* under every IFS.
show() { printf '<%s>' "$@"; printf '\n'; }
set -- a b "c d"
for ifs in $' \t\n' ',' '' ':-'; do
  IFS=$ifs
  printf 'IFS=%q: ' "$ifs"
  show "$*" "$@"
  v=$*; show "v=$v"
  w="$*"; show "w=$w"
  show $*
  show ${*}
  show "${@:2}"
  show "${*:2}"
done
unset IFS
IFS= v=$*
echo "IFS-empty prefix v=$v"
set -- ab
IFS= ; v=$*; echo "v=$v"; unset IFS
set -- 'x  y' z
IFS=
show $@
show $*
unset IFS
show $@
set --
show "$@"
show "$*"
show ${@:-empty}
show "${@:-empty}"
set -- 1 2 3
IFS=-
echo "$*" "${*}" "$@"
arr=(p q r)
echo "${arr[*]}"
x="${arr[*]}"; echo "$x"
unset IFS
f() { echo "$#: $*"; }
f "$@"
f $@
f "${@}x"
