#!/bin/bash
# getopts in functions, with local OPTIND and recursion.
parse() {
  local OPTIND opt
  local verbose=0 name=none
  while getopts "vn:" opt; do
    case $opt in
      v) verbose=1 ;;
      n) name=$OPTARG ;;
      *) echo "bad option"; return 2 ;;
    esac
  done
  shift $((OPTIND - 1))
  echo "verbose=$verbose name=$name rest=$*"
  if [[ $1 == recurse ]]; then
    parse -n inner leaf
  fi
}
parse -v -n outer recurse
parse -n second x y
parse -x 2>&1
echo "status: $?"
OPTIND=1
while getopts ":ab:" o -a -b val -c; do
  case $o in
    a) echo "got a" ;;
    b) echo "got b=$OPTARG" ;;
    :) echo "missing arg for $OPTARG" ;;
    \?) echo "unknown $OPTARG" ;;
  esac
done
echo "OPTIND=$OPTIND"
OPTIND=1
while getopts "b:" o -b; do echo "o=$o"; done 2>&1
OPTIND=1
set -- -ab -- file
while getopts ab o; do echo "opt $o"; done
shift $((OPTIND-1)); echo "left: $*"
count() {
  local OPTIND=1 o n=0
  while getopts x o; do n=$((n+1)); done
  echo "$n"
  (( $1 > 0 )) 2>/dev/null || return 0
}
count -x -x -x
for i in 1 2 3; do count -x; done
