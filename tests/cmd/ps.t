# ps lists the sandbox's own processes (the shell, its background jobs, ps
# itself), with procps-ng 4's columns, headers and messages. The host runs the
# same lines with procps over its own processes: the cases select by pid.

test: ps -p on a background job's pid names its program
cmd: sleep 5 & ps -p $! -o comm=; ps -p $! -o args=; kill $!
out: sleep\nsleep 5\n

test: ps -o pid= gives the job's pid
cmd: sleep 5 & p=$(ps -o pid= -p $!); [ $((p)) = $! ] && echo same; kill $!
out: same\n

test: ps -p as a liveness test
cmd: sleep 5 & pid=$!; ps -p $pid >/dev/null && echo alive
cmd: kill $pid; wait $pid; echo $?; ps -p $pid >/dev/null || echo gone; ps -p $pid; echo $?
out: alive\n143\ngone\n  PID TTY          TIME CMD\n1\n

test: ps -p on the shell itself
cmd: ps -p $$ -o comm=,user=; true
out: bash            root\n

test: headers as the sandbox prints them
cmd: ps -ef | head -1; ps aux | head -1; ps -o pid,ppid,comm,args -p $$ | head -1
cmd: ps -p $$ -o pid,user,uid,tty,time,etime,%cpu,%mem,rss,vsz | head -1; ps -o pid=X,comm=Name -p $$ | head -1
out: UID        PID  PPID  C STIME TTY          TIME CMD\n
out: USER       PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND\n
out:   PID  PPID COMMAND         COMMAND\n
out:   PID USER       UID TT           TIME     ELAPSED %CPU %MEM   RSS    VSZ\n
out:     X Name\n
# the PID column is 5 wide where pid_max is 32768 (the kernel's default, the
# host's here), as in the sandbox; 7 wide from 4,194,304

test: the sandbox's process list
cmd: sleep 5 & sleep 6 | cat & { sleep 7; echo; } &
cmd: ps; ps -ef | sed 's/ [0-9][0-9]:[0-9][0-9] / HH:MM /'; ps -o pid,ppid,stat,comm,args
cmd: (ps -o pid,ppid,comm); ps -C sleep -o pid,args; kill %1 %2 %3; wait; ps --no-headers
out:   PID TTY          TIME CMD\n 1000 ?        00:00:00 bash\n 1001 ?        00:00:00 sleep\n
out:  1002 ?        00:00:00 sleep\n 1003 ?        00:00:00 cat\n 1004 ?        00:00:00 bash\n
out:  1005 ?        00:00:00 ps\n
out: UID        PID  PPID  C STIME TTY          TIME CMD\n
out: root      1000     1  0 HH:MM ?        00:00:00 bash\n
out: root      1001  1000  0 HH:MM ?        00:00:00 sleep 5\n
out: root      1002  1000  0 HH:MM ?        00:00:00 sleep 6\n
out: root      1003  1000  0 HH:MM ?        00:00:00 cat\n
out: root      1004  1000  0 HH:MM ?        00:00:00 bash\n
out: root      1006  1000  0 HH:MM ?        00:00:00 ps\n
out:   PID  PPID STAT COMMAND         COMMAND\n
out:  1000     1 Ss   bash            bash\n
out:  1001  1000 S    sleep           sleep 5\n
out:  1002  1000 S    sleep           sleep 6\n
out:  1003  1000 S    cat             cat\n
out:  1004  1000 S    bash            bash\n
out:  1009  1000 R    ps              ps\n
out:   PID  PPID COMMAND\n 1000     1 bash\n 1001  1000 sleep\n 1002  1000 sleep\n
out:  1003  1000 cat\n 1004  1000 bash\n 1010  1000 ps\n
out:   PID COMMAND\n 1001 sleep 5\n 1002 sleep 6\n
out:  1000 ?        00:00:00 bash\n 1013 ?        00:00:00 ps\n
# the host lists its own processes
host: skip

test: BSD style without x selects processes with a terminal: none here
cmd: ps u; echo $?
out: USER       PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND\n1\n
# the host may have processes on a terminal
host: skip

test: ps sorts by pid, or by --sort
cmd: sleep 5 & sleep 6 & ps -o comm= --sort=-pid | head -3; kill %1 %2
out: ps\nsleep\nsleep\n
host: skip

test: ps errors as procps prints them
cmd: ps -Y; echo $?; ps -o foo; echo $?; ps -p abc; echo $?; ps --bogus; echo $?
out: 1\n1\n1\n1\n
err: error: unsupported SysV option\n\nUsage:\n ps [options]\n\n Try 'ps --help <simple|list|output|threads|misc|all>'\n  or 'ps --help <s|l|o|t|m|a>'\n for additional help text.\n\nFor more details see ps(1).\n
err: error: unknown user-defined format specifier "foo"\n\nUsage:\n ps [options]\n\n Try 'ps --help <simple|list|output|threads|misc|all>'\n  or 'ps --help <s|l|o|t|m|a>'\n for additional help text.\n\nFor more details see ps(1).\n
err: error: process ID list syntax error\n\nUsage:\n ps [options]\n\n Try 'ps --help <simple|list|output|threads|misc|all>'\n  or 'ps --help <s|l|o|t|m|a>'\n for additional help text.\n\nFor more details see ps(1).\n
err: error: unknown gnu long option\n\nUsage:\n ps [options]\n\n Try 'ps --help <simple|list|output|threads|misc|all>'\n  or 'ps --help <s|l|o|t|m|a>'\n for additional help text.\n\nFor more details see ps(1).\n

test: ps list options with nothing after them (the BSD forms name the letter bare)
cmd: ps -o; echo $?; ps -p; echo $?; ps -C; echo $?; ps o; echo $?; ps p; echo $?; ps U; echo $?
out: 1\n1\n1\n1\n1\n1\n
err: error: format specification must follow -o\n\nUsage:\n ps [options]\n\n Try 'ps --help <simple|list|output|threads|misc|all>'\n  or 'ps --help <s|l|o|t|m|a>'\n for additional help text.\n\nFor more details see ps(1).\n
err: error: list of process IDs must follow -p\n\nUsage:\n ps [options]\n\n Try 'ps --help <simple|list|output|threads|misc|all>'\n  or 'ps --help <s|l|o|t|m|a>'\n for additional help text.\n\nFor more details see ps(1).\n
err: error: list of command names must follow -C\n\nUsage:\n ps [options]\n\n Try 'ps --help <simple|list|output|threads|misc|all>'\n  or 'ps --help <s|l|o|t|m|a>'\n for additional help text.\n\nFor more details see ps(1).\n
err: error: format specification must follow o\n\nUsage:\n ps [options]\n\n Try 'ps --help <simple|list|output|threads|misc|all>'\n  or 'ps --help <s|l|o|t|m|a>'\n for additional help text.\n\nFor more details see ps(1).\n
err: error: list of process IDs must follow p\n\nUsage:\n ps [options]\n\n Try 'ps --help <simple|list|output|threads|misc|all>'\n  or 'ps --help <s|l|o|t|m|a>'\n for additional help text.\n\nFor more details see ps(1).\n
err: error: list of users must follow U\n\nUsage:\n ps [options]\n\n Try 'ps --help <simple|list|output|threads|misc|all>'\n  or 'ps --help <s|l|o|t|m|a>'\n for additional help text.\n\nFor more details see ps(1).\n

test: kill by name and number, kill -l, /bin/kill
cmd: sleep 5 & kill -s TERM $!; wait $!; echo $?; sleep 5 & kill -9 $!; wait $!; echo $?
cmd: sleep 5 & /bin/kill -INT $!; wait $!; echo $?; sleep 5 & env kill -SIGUSR1 $!; wait $!; echo $?
cmd: kill -l 15; kill -l TERM; /bin/kill -l 9; kill -0 $$ && echo self
# a non-interactive shell's background jobs ignore SIGINT
out: 143\n137\n0\n138\nTERM\n15\nKILL\nself\n
