#!/bin/bash
# EXIT, ERR, RETURN and DEBUG traps in a script with cleanup.
tmp=work.tmp
trap 'echo "cleanup: removing $tmp"; rm -f "$tmp"; echo "exit status was $?"' EXIT
trap 'echo "ERR at line $LINENO: status $?"' ERR
touch "$tmp"
false
echo "after false"
f() { echo in f; return 3; }
trap 'echo "RETURN from ${FUNCNAME[0]:-?}"' RETURN
f
echo "f gave $?"
trap - RETURN
g() { false; echo "g continues"; }
g
set -o errtrace
h() { false; }
h
set +o errtrace
trap -p ERR
trap - ERR
count=0
trap '((count++))' DEBUG
echo a; echo b; echo c
trap - DEBUG
echo "debug ran $count times"
trap 'echo got USR1' USR1
kill -USR1 $$
trap -p USR1
trap - USR1
trap -p USR1; echo "cleared"
( trap 'echo sub exit' EXIT; echo in subshell )
x=$(trap 'echo cs exit' EXIT; echo in cmdsub)
echo "$x"
trap -l | head -1
trap 'echo INT handler' INT
trap
exit 4
