#!/bin/bash
# trap: EXIT, ERR, RETURN, DEBUG and listing.
trap 'echo "exit trap ran, status $?"' EXIT
trap 'echo "err trap: $BASH_COMMAND returned $?"' ERR
false
echo after false
f() { return 3; }
f
trap -p EXIT ERR
trap - ERR
false
trap 'echo returning from $FUNCNAME' RETURN
g() { echo in g; }
g
trap - RETURN
trap 'echo usr1 caught' USR1
kill -USR1 $$
trap -p USR1
trap '' INT
trap -p INT
trap - INT
trap -l | head -2
trap 'echo bad' NOSIG 2>&1
echo "bad signal: $?"
( trap 'echo sub exit' EXIT; echo in subshell )
h() { trap 'echo h exit trap' EXIT; }
h
trap -p EXIT
cleanup() { echo "cleanup $1"; }
trap 'cleanup final' EXIT
set -o errtrace
trap 'echo "ERR in ${FUNCNAME[0]:-main}"' ERR
k() { false; }
k
exit 4
