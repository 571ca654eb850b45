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

# Shell code under timeout ends at the deadline as GNU's timeout kills bash.
test: timeout ends a nested shell
cmd: timeout 0.3 bash -c 'sleep 3; echo no'; echo $?
out: 124\n

test: timeout ends an endless loop in a nested shell
cmd: timeout 0.3 bash -c 'while :; do :; done'; echo $?
out: 124\n

test: timeout ends a pipeline in a nested shell
cmd: timeout 0.3 bash -c 'while :; do echo x; done | cat >/dev/null; echo no'; echo $?
out: 124\n

test: timeout ends an exported function and its subshell
cmd: f() { (while :; do :; done); echo after; }; export -f f
cmd: timeout 0.3 bash -c f; echo $?
out: 124\n

test: timeout around shell code with -s KILL and --preserve-status
cmd: timeout -s KILL 0.2 bash -c 'sleep 2'; echo $?
cmd: timeout --preserve-status 0.2 bash -c 'sleep 2'; echo $?
cmd: timeout -s INT -k 1 0.2 bash -c 'sleep 2'; echo $?
out: 137\n143\n124\n

test: an inner timeout ends first and the outer shell goes on
cmd: timeout 5 bash -c 'timeout 0.2 bash -c "sleep 3"; echo inner $?; echo done'; echo $?
out: inner 124\ndone\n0\n

test: an outer timeout ends an inner one that has more time
cmd: timeout 0.3 bash -c 'timeout 5 bash -c "sleep 3"; echo no'; echo $?
out: 124\n

test: shell code that ends in time keeps its status
cmd: timeout 5 bash -c 'echo quick; exit 3'; echo $?
out: quick\n3\n

test: commands run by xargs under timeout
cmd: seq 3 | timeout 0.3 xargs -n1 bash -c 'sleep 2; echo $0'; echo $?
out: 124\n

test: --help takes no argument, abbreviated or not
cmd: sleep --he=1; echo $?; sleep --nope; echo $?
out: 1\n1\n
err: sleep: option '--help' doesn't allow an argument\nTry 'sleep --help' for more information.\nsleep: unrecognized option '--nope'\nTry 'sleep --help' for more information.\n
