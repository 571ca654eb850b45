# sleep and timeout.

test: sleep a fraction
cmd: sleep 0.05; echo done
out: done\n

test: sums and suffixes
cmd: sleep 0.01s 0.0001m; echo $?
out: 0\n

test: missing operand
cmd: sleep
out:
err: sleep: missing operand\nTry 'sleep --help' for more information.\n
status: 1

test: invalid interval
cmd: sleep 1x
out:
err: sleep: invalid time interval \xe2\x80\x981x\xe2\x80\x99\nTry 'sleep --help' for more information.\n
status: 1

test: timeout ends a long sleep
cmd: timeout 0.2 sleep 5; echo $?
out: 124\n

test: timeout passes the status through
cmd: timeout 5 ls nope; echo $?
out: 2\n

test: timeout with a fast command
cmd: timeout 5 echo hi
out: hi\n

test: --preserve-status
cmd: timeout --preserve-status 0.2 sleep 5; echo $?
out: 143\n

test: -s KILL
cmd: timeout -s KILL 0.2 sleep 5 2>/dev/null; echo $?
out: 137\n

test: -v
cmd: timeout -v 0.1 sleep 5; echo $?
out: 124\n
err: timeout: sending signal TERM to command \xe2\x80\x98sleep\xe2\x80\x99\n

test: command not found
cmd: timeout 1 nosuchcommand-x; echo $?
out: 127\n
err: timeout: failed to run command \xe2\x80\x98nosuchcommand-x\xe2\x80\x99: No such file or directory\n

test: invalid duration
cmd: timeout x ls
out:
err: timeout: invalid time interval \xe2\x80\x98x\xe2\x80\x99\nTry 'timeout --help' for more information.\n
status: 125

test: missing command
cmd: timeout 1
out:
err: Try 'timeout --help' for more information.\n
status: 125

test: zero duration means no limit
cmd: timeout 0 echo ok
out: ok\n
