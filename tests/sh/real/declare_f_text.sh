#!/bin/bash
# declare -f and type print functions as bash reformats them.
simple() { echo hi; }
multi() {
  local x=1   # comment dropped
  if [ "$x" = 1 ]; then echo one; elif [ "$x" = 2 ]; then echo two; else echo other; fi
  for i in 1 2; do echo $i; done
  while false; do :; done
  case $x in a|b) echo ab;; *) echo def;; esac
  { echo group; } >/dev/null 2>&1
  ( echo sub )
  echo a && echo b || echo c
  echo pipe | cat
  x=$(( x + 1 )); y=$(echo cmd); z=`echo bq`
  [[ -n $x && $x != 3 ]] && echo ok
  cat <<EOF
heredoc $x
EOF
  arr=(1 2 "three")
  for ((i=0; i<2; i++)); do echo $i; done
  echo "quoted $x" 'single' $'ansi\n'
  echo bg &
  wait
}
function kw { echo keyword; }
redir() { echo r; } > /dev/null
sub() ( echo subshell-body )
declare -f simple
declare -f multi
declare -f kw redir sub
declare -F | sort
type simple
declare -f nosuch; echo "status $?"
typeset -f simple | wc -l
