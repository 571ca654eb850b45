#!/bin/bash
# set -x output: quoting, assignments, functions, PS4.
exec 2>&1
set -x
a=1
b="two words"
echo "$a" $b
arr=(x 'y z')
f() { local v=$1; echo "f: $v"; }
f 'arg with space'
[[ $a == 1 ]] && echo yes
(( a += 2 ))
for i in 1 2; do :; done
case $a in 3) echo three;; esac
x=$(echo sub)
echo "it's" '$dollar' $'tab\there'
cat <<EOF
heredoc
EOF
if true; then :; fi
set +x
PS4='+ ${FUNCNAME[0]:-top}:$LINENO: '
set -x
f traced
echo done
set +x
echo untraced
