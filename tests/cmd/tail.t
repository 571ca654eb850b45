# tail: last lines or bytes, +N forms, headers, -z, obsolete forms, -f.

test: default ten lines
cmd: seq 20 | tail
out: 11\n12\n13\n14\n15\n16\n17\n18\n19\n20\n

test: default from file
cmd: seq 20 > f; tail f
out: 11\n12\n13\n14\n15\n16\n17\n18\n19\n20\n

test: n lines file
cmd: tail -n 3 input
in: 1\n2\n3\n4\n5\n
out: 3\n4\n5\n

test: n lines pipe
cmd: seq 5 | tail -n 3
out: 3\n4\n5\n

test: n zero
cmd: tail -n 0 input
in: 1\n2\n
out:

test: unterminated last line counts
cmd: tail -n 1 input
in: a\nb\nc
out: c

test: unterminated last line pipe
cmd: printf 'a\nb\nc' | tail -n 2
out: b\nc

test: empty lines at end
cmd: tail -n 2 input
in: a\nb\n\n
out: b\n\n

test: more lines than file
cmd: tail -n 10 input
in: a\nb\n
out: a\nb\n

test: from line
cmd: tail -n +3 input
in: 1\n2\n3\n4\n
out: 3\n4\n

test: from line pipe
cmd: seq 5 | tail -n +4
out: 4\n5\n

test: from line zero
cmd: tail -n +0 input
in: 1\n2\n
out: 1\n2\n

test: from line one
cmd: tail -n +1 input
in: 1\n2\n
out: 1\n2\n

test: from line past end
cmd: tail -n +10 input
in: 1\n2\n
out:

test: minus sign same as none
cmd: tail -n -2 input
in: 1\n2\n3\n
out: 2\n3\n

test: bytes
cmd: tail -c 3 input
in: abcdef
out: def

test: bytes pipe
cmd: printf abcdef | tail -c 2
out: ef

test: bytes from
cmd: tail -c +3 input
in: abcdef
out: cdef

test: bytes from pipe
cmd: printf abcdef | tail -c +5
out: ef

test: bytes more than file
cmd: tail -c 100 input
in: abc
out: abc

test: bytes zero
cmd: tail -c 0 input
in: abc
out:

test: bytes suffix
cmd: head -c 5000 /dev/zero | tail -c 1k | wc -c
out: 1024\n

test: lines suffix
cmd: seq 5000 | tail -n 1k | head -n 1
out: 3977\n

test: last option wins
cmd: tail -n +3 -c 2 input
in: \n\nb\n
out: \nb\n

test: obsolete lines
cmd: seq 20 | tail -3
out: 18\n19\n20\n

test: obsolete plus
cmd: seq 20 | tail +18
out: 18\n19\n20\n

test: obsolete bytes
cmd: printf abcdef | tail -3c
out: def

test: obsolete with file
cmd: tail -2 input
in: 1\n2\n3\n
out: 2\n3\n

test: obsolete b multiplier
cmd: head -c 2000 /dev/zero | tail -1b | wc -c
out: 512\n

test: digit in invalid context
cmd: seq 20 | tail -n 2 -3
out:
err: tail: option used in invalid context -- 3\n
status: 1

test: obsolete needs single file
cmd: tail -2 a b
file: a=1\n2\n3\n
file: b=x\n
out:
err: tail: option used in invalid context -- 2\n
status: 1

test: headers
cmd: tail -n 1 a b
file: a=a1\na2\n
file: b=b1\nb2\n
out: ==> a <==\na2\n\n==> b <==\nb2\n

test: quiet
cmd: tail -q -n 1 a b
file: a=a1\na2\n
file: b=b1\nb2\n
out: a2\nb2\n

test: verbose
cmd: tail -v -n 1 a
file: a=a1\na2\n
out: ==> a <==\na2\n

test: verbose stdin
cmd: echo x | tail -v
out: ==> standard input <==\nx\n

test: header after missing file
cmd: tail -n 1 nope a
file: a=a1\n
out: ==> a <==\na1\n
err: tail: cannot open 'nope' for reading: No such file or directory\n
status: 1

test: zero terminated
cmd: printf 'a\0b\0c\0' | tail -z -n 2 | od -c
out: 0000000   b  \\0   c  \\0\n0000004\n

test: zero terminated file
cmd: printf 'a\0b\0c' > z; tail -z -n 1 z | od -c
out: 0000000   c\n0000001\n

test: nul bytes
cmd: printf 'x\0y\nz\n' | tail -n 2 | od -c
out: 0000000   x  \\0   y  \\n   z  \\n\n0000006\n

test: big file lines from the end
cmd: seq 300000 > big; tail -n 3 big
out: 299998\n299999\n300000\n

test: big file from line
cmd: seq 300000 > big; tail -n +299998 big
out: 299998\n299999\n300000\n

test: big pipe lines
cmd: seq 300000 | tail -n 2
out: 299999\n300000\n

test: many lines kept
cmd: seq 300000 > big; tail -n 100000 big | head -n 1
out: 200001\n

test: many lines kept pipe
cmd: seq 300000 | tail -n 100000 | head -n 1
out: 200001\n

test: long final line
cmd: { seq 3; head -c 200000 /dev/zero | tr '\0' a; } > f; tail -n 1 f | wc -c
out: 200000\n

test: invalid count
cmd: tail -n abc input
in: x
out:
err: tail: invalid number of lines: ‘abc’\n
status: 1

test: invalid plus count
cmd: tail -n +abc input
in: x
out:
err: tail: invalid number of lines: ‘+abc’\n
status: 1

test: overflow count
cmd: tail -c 99999999999999999999999 input
in: x
out:
err: tail: invalid number of bytes: ‘99999999999999999999999’: Value too large for defined data type\n
status: 1

test: obsolete overflow
cmd: tail -99999999999999999999999 input
in: x
out:
err: tail: invalid number: ‘-99999999999999999999999’: Numerical result out of range\n
status: 1

test: huge count is fine
cmd: tail -n 99999999999 input
in: a\nb\n
out: a\nb\n

test: missing file
cmd: tail nope
out:
err: tail: cannot open 'nope' for reading: No such file or directory\n
status: 1

test: directory
cmd: mkdir d; tail d
out:
err: tail: error reading 'd': Is a directory\n
status: 1

test: follow on a pipe prints and exits
cmd: seq 3 | tail -f
out: 1\n2\n3\n

test: follow stdin
cmd: seq 3 | tail -f -n 1 -
out: 3\n

test: bad sleep interval
cmd: tail -s x input
in: x
out:
err: tail: invalid number of seconds: ‘x’\n
status: 1

test: bad follow mode
cmd: tail --follow=x input
in: x
out:
err: tail: invalid argument ‘x’ for ‘--follow’\n
err: Valid arguments are:\n  - ‘descriptor’\n  - ‘name’\n
err: Try 'tail --help' for more information.\n
status: 1

test: bad pid
cmd: tail --pid=x input
in: x
out:
err: tail: invalid PID: ‘x’\n
status: 1

test: invalid option
cmd: tail -r input
in: x

# In sbx -f cannot wait for writers (nothing else runs concurrently), so it
# prints the file and exits; GNU would wait forever.
out:
err: tail: invalid option -- 'r'\n
err: Try 'tail --help' for more information.\n
status: 1
test: follow a file prints it
cmd: tail -f -n 2 input
in: 1\n2\n3\n
out: 2\n3\n
host: skip

# GNU would wait for the file to appear forever with -F.
test: follow missing file
cmd: tail -f nope
out:
err: tail: cannot open 'nope' for reading: No such file or directory\ntail: no files remaining\n
status: 1
host: skip

test: -n 0 and -c 0 print nothing, not even headers, and open no file
cmd: printf 'a\n' > f; tail -n0 -v f; tail -c 0 f nosuch; tail -n 0 nosuch; echo $?; tail -n +0 -v f
out: 0\n==> f <==\na\n

test: long options abbreviated; --s is ambiguous, silent before sleep-interval as GNU lists them
cmd: seq 5 > f; tail --li=2 --q f; tail --by 3 --verb f; tail --s f
out: 4\n5\n==> f <==\n\n5\n
err: tail: option '--s' is ambiguous; possibilities: '--silent' '--sleep-interval'\nTry 'tail --help' for more information.\n
status: 1

test: --v is ambiguous: verbose before version
cmd: tail --v f
out:
err: tail: option '--v' is ambiguous; possibilities: '--verbose' '--version'\nTry 'tail --help' for more information.\n
status: 1
