#!/bin/bash
# $$ and PPID across nested shells and subshells, and what a caller sees when
# a nested shell dies of a signal: scripts name temporary files after $$.
outer=$$
inner=$(bash -c 'echo $$')
[ "$inner" != "$outer" ] && echo "a nested bash has a \$\$ of its own"
sub=$( (echo $$) )
[ "$sub" = "$outer" ] && echo "a subshell keeps \$\$"
[ "$BASHPID" = "$$" ] && echo "BASHPID is \$\$ at the top"
bash -c 'echo $PPID' > ppid.txt
[ "$(cat ppid.txt)" = "$outer" ] && echo "a nested bash's PPID is its caller's \$\$"
t1=$(bash -c 'echo work.$$') t2=$(bash -c 'echo work.$$')
[ "$t1" != "$t2" ] && echo "two nested shells name different temporary files"

report() { echo "$1: status $2"; }
bash -c 'kill -TERM $$; echo not reached'
report "TERM to itself" $?
x=$(bash -c 'kill -KILL $$; echo not reached')  # unreported (a report names a pid)
report "KILL to itself" $?
x=$(bash -c 'kill $$')
report "in a command substitution" $?
bash -c 'trap "echo trapped; exit 3" TERM; kill $$; echo not reached'
report "trapped" $?
bash -c 'kill -INT $$'
report "INT" $?
bash -c 'bash -c "kill \$PPID"; echo not reached'
report "killed by its child" $?
bash -c 'kill -USR1 $$' | cat
report "in a pipeline" $?
