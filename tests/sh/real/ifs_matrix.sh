#!/bin/bash
# $@, $* and ${a[*]} in every context under every IFS, through eval.
p() { printf '<%s>' "$@"; echo; }
exprs=(
  'p $*' 'p "$*"' 'p $@' 'p "$@"' 'x=$*; p "$x"' 'x=$@; p "$x"' 'x="$@"; p "$x"'
  'a=($*); p "${a[@]}"' 'cat <<< $*' 'cat <<< $@' 'cat <<< "$@"'
  'case $* in "a b c ") echo m;; *) echo n;; esac' '[[ $* == "a b c " ]] && echo y || echo n'
  '[[ $@ == "a b c " ]] && echo y || echo n' 'p ${*:-x}' 'p "${*:-x}"' 'p ${@:2}' 'p "${@:2:1}"'
  'p ${#*}' 'for x in $*; do p "$x"; done' 'p $*x' 'p "$*"x' 'p x$@y' 'p "x$@y"' 'p ${@:+alt}'
  'f() { local v=$*; p "$v"; }; f "$@"' 'f() { local v=$@; p "$v"; }; f "$@"'
  'declare d=$*; p "$d"' 'declare d=$@; p "$d"' 'p $(echo $*)' 'p "$(echo "$*")"'
  'a=(x y); v=${a[*]}; p "$v"' 'a=(x y); declare v=${a[*]}; p "$v"' 'a=(x y); cat <<< ${a[*]}'
  'a=(x y); v=${a[@]}; p "$v"' 'v=${*:-d}; p "$v"' 'v=${*:2}; p "$v"'
)
for ifs in unset '' ',' ' ' ': ' $'\t'; do
  for e in "${exprs[@]}"; do
    set -- "a b" c ""
    if [[ $ifs == unset ]]; then unset IFS; else IFS=$ifs; fi
    # (not out=$(eval ...): bash 5.2 lets the assignment leak into the
    # substitution, where IFS= then joins an unquoted $*)
    eval "$e" > out.txt 2>&1
    unset IFS
    out=$(< out.txt)
    printf '%-7q %-45s %s\n' "$ifs" "$e" "$out"
  done
done
