#!/bin/bash
# A command-line tool with subcommands parsing their own options, recursively.
usage() { echo "usage: $1" >&2; return 2; }
sub() {
  local OPTIND opt verbose=0 out=-
  while getopts ":vo:" opt; do
    case $opt in
      v) verbose=1 ;;
      o) out=$OPTARG ;;
      :) echo "sub: -$OPTARG needs an argument"; return 2 ;;
      \?) echo "sub: bad option -$OPTARG"; return 2 ;;
    esac
  done
  shift $((OPTIND - 1))
  echo "sub verbose=$verbose out=$out args=$*"
  if [[ $1 == again ]]; then shift; sub -v "$@"; fi
}
main() {
  local OPTIND opt dry=0
  while getopts "nd:" opt; do
    case $opt in
      n) dry=1 ;;
      d) echo "main dir=$OPTARG" ;;
      *) usage main; return ;;
    esac
  done
  shift $((OPTIND - 1))
  echo "main dry=$dry rest=$*"
  sub "$@"
  echo "back in main, OPTIND=$OPTIND"
}
main -n -d /tmp -- -o file x again -o inner y
main -x 2>&1; echo "status $?"
sub -o; echo "status $?"
sub -q; echo "status $?"
sub -vofile -- -v z
set -- -a -b val c
while getopts ab: o; do echo "top $o ${OPTARG-}"; done
echo "OPTIND=$OPTIND"
OPTIND=1
getopts ab: o -b; echo "missing arg: $? o=$o" 2>&1
recurse() {
  local OPTIND o n=$1; shift
  while getopts "x" o "$@"; do echo "level $n got -$o"; done
  (( n < 3 )) && recurse $((n + 1)) "$@"
}
recurse 1 -x -x
echo done
