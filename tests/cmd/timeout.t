# timeout around shell code: each shell of the code gets the signal as each
# process of GNU timeout's group does (its trap runs, or it dies of it), -k
# kills what is still running. The cases that kill print bash's report of
# timeout's own death, "bash: line 1: PID Killed  COMMAND": the pid is replaced.
# Code that sets a trap gets 1 s before the signal: a host bash under load (and
# libfaketime) can take longer than 0.3 s to start and set it.

test: a TERM trap in the timed code runs
cmd: timeout 1 bash -c 'trap "echo got TERM; exit 3" TERM; while :; do :; done; echo after'; echo $?
out: got TERM\n124\n
err:

test: --preserve-status gives the trap's exit status
cmd: timeout --preserve-status 1 bash -c 'trap "echo got TERM; exit 3" TERM; while :; do :; done'; echo $?
out: got TERM\n3\n

test: -s INT reaches an INT trap
cmd: timeout -s INT 1 bash -c 'trap "echo got INT; exit 5" INT; while :; do :; done'; echo $?
cmd: timeout --preserve-status -s INT 1 bash -c 'trap "echo got INT; exit 5" INT; while :; do :; done'; echo $?
out: got INT\n124\ngot INT\n5\n

test: a trap for another signal does not catch it
cmd: timeout -s TERM 1 bash -c 'trap "echo got USR1" USR1; while :; do :; done'; echo $?
out: 124\n
err:

test: -k kills code that traps the signal and goes on
cmd: exec 2>err; timeout -k 0.3 1 bash -c 'trap "echo got TERM" TERM; while :; do :; done'; echo $?
cmd: exec 2>&1; sed -E 's/ +[0-9]+ Killed +/ PID Killed /' err
out: got TERM\n137\nbash: line 1: PID Killed timeout -k 0.3 1 bash -c 'trap "echo got TERM" TERM; while :; do :; done'\n

test: -k kills code that ignores the signal
cmd: timeout -k 0.2 1 bash -c 'trap "" TERM; while :; do :; done' 2>/dev/null; echo $?
out: 137\n

test: -k with --preserve-status still gives 137
cmd: timeout --preserve-status -k 0.2 1 bash -c 'trap "" TERM; while :; do :; done' 2>/dev/null; echo $?
out: 137\n

test: --foreground -k kills the command, not timeout itself
cmd: timeout --foreground -k 0.2 1 bash -c 'trap "" TERM; while :; do :; done'; echo $?
out: 137\n
err:

test: -s KILL kills at once, trap or not
cmd: exec 2>err; timeout -s KILL 1 bash -c 'trap "echo got" TERM; while :; do :; done'; echo $?
cmd: exec 2>&1; sed -E 's/ +[0-9]+ Killed +/ PID Killed /' err
out: 137\nbash: line 1: PID Killed timeout -s KILL 1 bash -c 'trap "echo got" TERM; while :; do :; done'\n

test: -v names each signal it sends
cmd: timeout -v -k 0.2 1 bash -c 'trap "" TERM; while :; do :; done' 2>&1 | sed -E 's/ +[0-9]+ Killed +/ PID Killed /'
cmd: timeout -v -s USR1 0.2 bash -c 'while :; do :; done'; echo $?
out: timeout: sending signal TERM to command \xe2\x80\x98bash\xe2\x80\x99\ntimeout: sending signal KILL to command \xe2\x80\x98bash\xe2\x80\x99\n124\n
err: timeout: sending signal USR1 to command \xe2\x80\x98bash\xe2\x80\x99\n

test: a command the trapping shell runs dies of the signal and is reported
cmd: timeout 1 bash -c 'trap "echo got TERM" TERM; sleep 2; echo after $?'; echo $?
out: got TERM\nafter 143\n124\n
err: Terminated\n

test: untrapped, the shell dies with its command and says nothing
cmd: timeout 0.3 bash -c 'echo start; sleep 2; echo end'; echo $?
out: start\n124\n
err:

test: a subshell dies of the signal and the trapping parent reports it
cmd: timeout 1 bash -c 'trap "echo parent TERM" TERM; (while :; do :; done); echo after $?'; echo $?
out: parent TERM\nafter 143\n124\n
err: Terminated\n

test: an untrapped parent dies before it would report its subshell
cmd: timeout 0.3 bash -c '(while :; do :; done); echo after $?'; echo $?
out: 124\n
err:

test: code run by xargs under timeout gets the signal
cmd: echo a | timeout 1 xargs bash -c 'trap "echo got TERM; exit 1" TERM; while :; do :; done'; echo $?
out: got TERM\n124\n

test: a status above 128 is passed on
cmd: timeout 5 bash -c 'exit 200'; echo $?
cmd: timeout 5 sh -c 'exit 255'; echo $?
out: 200\n255\n

test: an absolute program path
cmd: X=1 timeout 5 /usr/bin/printenv X; echo $?
cmd: X=1 timeout 5 /usr/bin/env X=2 /usr/bin/printenv X; echo $?
cmd: timeout 5 /bin/echo hi; echo $?
out: 1\n0\n2\n0\nhi\n0\n

test: a file that is not executable is 126
cmd: printf 'echo hi\n' > s; timeout 1 ./s; echo $?
out: 126\n
err: timeout: failed to run command \xe2\x80\x98./s\xe2\x80\x99: Permission denied\n

test: an invalid signal is 125
cmd: timeout -s NOPE 1 true; echo $?
out: 125\n
err: timeout: \xe2\x80\x98NOPE\xe2\x80\x99: invalid signal\nTry 'timeout --help' for more information.\n

test: an invalid -k duration is 125
cmd: timeout -k x 1 true; echo $?
out: 125\n
err: timeout: invalid time interval \xe2\x80\x98x\xe2\x80\x99\nTry 'timeout --help' for more information.\n

test: -s 0 sends nothing, yet the time is out
cmd: timeout -s 0 0.2 bash -c 'sleep 0.5; echo done'; echo $?
cmd: timeout -s 0 0.2 sleep 0.5; echo $?
cmd: timeout -s 0 -k 0.2 0.2 bash -c 'while :; do :; done' 2>/dev/null; echo $?
out: done\n124\n124\n137\n

test: --v is ambiguous: verbose before version, as GNU lists them
cmd: timeout --v 1 true
out:
err: timeout: option '--v' is ambiguous; possibilities: '--verbose' '--version'\nTry 'timeout --help' for more information.\n
status: 125

test: long options abbreviated, --preserve-status among them
cmd: timeout --pres --sig=KILL 5 sh -c 'exit 3'; echo $?; timeout --kill=x 1 true; echo $?
out: 3\n125\n
err: timeout: invalid time interval ‘x’\nTry 'timeout --help' for more information.\n
