# xargs: input parsing (quotes, -0, -d, -E), batching (-n, -L, -s, -I),
# options and GNU's exit statuses. Commands run one after another.

test: default command is echo
stdin: a b\nc\n
cmd: xargs
out: a b c\n

test: -n
stdin: 1 2 3 4 5\n
cmd: xargs -n 2 echo
out: 1 2\n3 4\n5\n

test: quotes and backslashes
stdin: a 'b c' "d e" f\\ g\n
cmd: xargs -n1 echo
out: a\nb c\nd e\nf g\n

test: unmatched quote
stdin: a 'b\n
cmd: xargs echo
out: a\n
err: xargs: unmatched single quote; by default quotes are special to xargs unless you use the -0 option\n
status: 1

test: unmatched double quote
stdin: "x\n
cmd: xargs echo
out:
err: xargs: unmatched double quote; by default quotes are special to xargs unless you use the -0 option\n
status: 1

test: empty input runs once
cmd: xargs echo x < /dev/null
out: x\n

test: -r does not run on empty input
cmd: xargs -r echo x < /dev/null
out:

test: -0
cmd: printf 'a\0b c\0' | xargs -0 -n1 echo
out: a\nb c\n

test: -d
cmd: printf 'a,b,c' | xargs -d, -n1 echo
out: a\nb\nc\n

test: -d with an escape
cmd: printf 'a\tb' | xargs -d '\t' echo
out: a b\n

test: -E end of input
stdin: x\ny\nEND\nz\n
cmd: xargs -E END echo
out: x y\n

test: -I replaces and strips leading blanks
stdin:   a b  \nc\n
cmd: xargs -I X echo [X]
out: [a b  ]\n[c]\n

test: -i defaults to {}
stdin: a\n
cmd: xargs -i echo {} {}
out: a a\n

test: -L lines
stdin: a b\nc\nd \ne\n
cmd: xargs -L 1 echo
out: a b\nc\nd e\n

test: -L 2
stdin: 1\n2\n3\n
cmd: xargs -L 2 echo
out: 1 2\n3\n

test: -s limits the line
stdin: a b c d\n
cmd: xargs -s 10 echo
out: a b\nc d\n

test: -s too small for one argument
stdin: aaaaaaaaaaaaaaa\n
cmd: xargs -s 10 echo
out:
err: xargs: argument line too long\n
status: 1

test: -x with -n
stdin: 1 2 3\n
cmd: xargs -n 2 -x -s 8 echo
out:
err: xargs: argument list too long\n
status: 1

test: -t prints commands
stdin: a b c\n
cmd: xargs -t -n2 echo
out: a b\nc\n
err: echo a b\necho c\n

test: command not found
stdin: a\n
cmd: xargs nosuchcommand-x
out:
err: xargs: nosuchcommand-x: No such file or directory\n
status: 127

test: status 123 when a command fails
stdin: 1\n2\n
cmd: xargs -n1 ls
out:
status: 123

test: status 124 and stop on 255
stdin: a\nb\n
cmd: xargs -n1 sh -c 'echo $0; exit 255'
out: a\n
err: xargs: sh: exited with status 255; aborting\n
status: 124

test: -a reads a file
cmd: printf '1\n2\n' > f; xargs -a f echo
out: 1 2\n

test: -a missing file
cmd: xargs -a nope echo
out:
err: xargs: Cannot open input file \xe2\x80\x98nope\xe2\x80\x99: No such file or directory\n
status: 1

test: the command gets an empty stdin
stdin: x\n
cmd: xargs sh -c 'cat; echo "[$1]"' sh
out: [x]\n

test: with find -print0
cmd: mkdir d; touch 'd/a b'; find d -type f -print0 | xargs -0 ls
out: d/a b\n

test: many items are batched
cmd: seq 1 20000 | xargs echo | wc -l
out: 1\n

test: invalid -n
cmd: xargs -n 0 echo < /dev/null
out:
err: xargs: value 0 for -n option should be >= 1\nTry 'xargs --help' for more information.\n
status: 1

# ---- audit4 ----
test: audit: echo | xargs --process-slot-var=S printenv S; echo x | xargs -I{} --pr
cmd: echo | xargs --process-slot-var=S printenv S; echo x | xargs -I{} --process-slot-var=SLOT printenv SLOT
out: 0\n0\n
err:

test: a command exiting above 128 is a failed command, not a signal
cmd: echo a | xargs sh -c 'exit 200'; echo $?; echo a | xargs sh -c 'exit 130'; echo $?
out: 123\n123\n

test: absolute paths of the standard directories run the table command
cmd: echo a b | xargs /bin/echo; echo c | xargs -I{} /usr/bin/env echo {}; echo a | xargs /usr/bin/nosuchcmd; echo $?
out: a b\nc\n127\n
err: xargs: /usr/bin/nosuchcmd: No such file or directory\n

test: xargs runs an absolute program path
cmd: printf 'a b\n' | xargs /bin/echo x; echo $?
cmd: printf 'HOME\n' | HOME=/h xargs /usr/bin/printenv; echo $?
out: x a b\n0\n/h\n0\n

test: a child status above 128 is a status (123), 255 stops (124)
cmd: echo a | xargs sh -c 'exit 200'; echo $?
cmd: echo a | xargs /bin/sh -c 'exit 129'; echo $?
cmd: printf 'a\nb\n' | xargs -n1 sh -c 'echo $0; exit 255'; echo $?
out: 123\n123\na\n124\n
err: xargs: sh: exited with status 255; aborting\n

# an item too long for -s alone: the items gathered before it still run, then xargs stops
test: s item too long runs the pending batch first
cmd: echo 'ab cd efghij kl' | xargs -s 8 echo; echo "status $?"
out: ab\ncd\nstatus 1\n
err: xargs: argument line too long\n

test: --max is ambiguous, named in GNU's order; --v names verbose before version
cmd: xargs --max 1 echo; xargs --v echo
stdin: a\n
out:
err: xargs: option '--max' is ambiguous; possibilities: '--max-lines' '--max-args' '--max-chars' '--max-procs'\nTry 'xargs --help' for more information.\nxargs: option '--v' is ambiguous; possibilities: '--verbose' '--version'\nTry 'xargs --help' for more information.\n
status: 1

test: long options abbreviated, -L and -l and their long name
cmd: printf 'a b\nc\nd\n' > f; xargs --max-l=2 --arg=f echo; xargs -L 1 --no-run echo x < f; xargs -l < f; xargs --max-l < f
out: a b c\nd\nx a b\nx c\nx d\na b\nc\nd\na b\nc\nd\n

test: -L 0 and --max-lines=0 are refused
cmd: xargs -L 0 echo < /dev/null; xargs --max-lines=0 echo < /dev/null
out:
err: xargs: value 0 for -L option should be >= 1\nTry 'xargs --help' for more information.\nxargs: value 0 for -l option should be >= 1\nTry 'xargs --help' for more information.\n
status: 1
