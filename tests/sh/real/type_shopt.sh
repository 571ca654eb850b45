#!/bin/bash
# type, command -v and shopt as a script probes its environment.
myfn() { :; }
alias ll='ls -l'
shopt -s expand_aliases
for n in echo cd myfn ll if ls nosuchthing '[[' ; do
  printf '%-10s ' "$n"; type -t "$n" || echo "(not found)"
done
type myfn
type -a echo | head -2
type -P ls >/dev/null && echo "ls has a path"
command -v cd; command -v myfn; command -v nosuch; echo "status $?"
command -V echo
type nosuch 2>&1; echo "status $?"
shopt extglob nullglob
shopt -s nullglob; shopt -p nullglob
shopt -u nullglob; shopt -q nullglob; echo "q status $?"
shopt -o errexit
shopt -po pipefail
shopt -s nosuchopt 2>&1; echo "status $?"
for o in extglob globstar dotglob nocasematch lastpipe; do
  shopt -q $o && s=on || s=off; echo "$o $s"
done
shopt -s nocasematch
[[ ABC == abc ]] && echo "nocasematch works"
case XyZ in xyz) echo "case too" ;; esac
shopt -u nocasematch
set -o | grep -E '^(errexit|nounset|pipefail|noclobber)' 
echo "$-" | tr -d 'ci'
set -o pipefail; echo "$SHELLOPTS" | tr : '\n' | grep -c pipefail
