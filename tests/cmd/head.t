# head: first lines or bytes, negative counts, suffixes, headers, -z.

test: default ten lines
cmd: seq 20 | head
out: 1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n

test: fewer lines than asked
cmd: head input
in: a\nb\n
out: a\nb\n

test: n lines
cmd: head -n 3 input
in: 1\n2\n3\n4\n5\n
out: 1\n2\n3\n

test: n zero
cmd: head -n 0 input
in: 1\n2\n
out:

test: lines long option
cmd: head --lines=2 input
in: 1\n2\n3\n
out: 1\n2\n

test: lines attached
cmd: head -n2 input
in: 1\n2\n3\n
out: 1\n2\n

test: all but last lines
cmd: head -n -2 input
in: 1\n2\n3\n4\n5\n
out: 1\n2\n3\n

test: all but last lines unterminated
cmd: head -n -1 input
in: a\nb\nc
out: a\nb\n

test: all but last zero
cmd: head -n -0 input
in: a\nb\nc
out: a\nb\nc

test: all but more lines than exist
cmd: head -n -10 input
in: a\nb\n
out:

test: all but last lines from pipe
cmd: seq 100000 | head -n -99998
out: 1\n2\n

test: bytes
cmd: head -c 5 input
in: hello world\n
out: hello

test: bytes long
cmd: head --bytes=3 input
in: abcdef
out: abc

test: all but last bytes
cmd: head -c -3 input
in: abcdef
out: abc

test: all but last bytes from pipe
cmd: printf abcdef | head -c -2
out: abcd

test: all but too many bytes
cmd: head -c -100 input
in: abc
out:

test: bytes suffix k
cmd: head -c 1k /dev/zero | wc -c
out: 1024\n

test: bytes suffix kB
cmd: head -c 1kB /dev/zero | wc -c
out: 1000\n

test: bytes suffix KiB
cmd: head -c 2KiB /dev/zero | wc -c
out: 2048\n

test: bytes suffix b
cmd: head -c 1b /dev/zero | wc -c
out: 512\n

test: bytes suffix M
cmd: head -c 1M /dev/zero | wc -c
out: 1048576\n

test: lines suffix
cmd: seq 3000 | head -n 2k | tail -n 1
out: 2048\n

test: last option wins
cmd: head -c 2 -n 1 input
in: abc\ndef\n
out: abc\n

test: obsolete form lines
cmd: seq 10 | head -3
out: 1\n2\n3\n

test: obsolete form bytes
cmd: printf 'abcdef' | head -2c
out: ab

test: obsolete form k multiplier
cmd: head -1k /dev/zero | wc -c
out: 1024\n

test: obsolete form with verbose
cmd: seq 10 | head -2v
out: ==> standard input <==\n1\n2\n

test: obsolete invalid trailing option
cmd: seq 10 | head -3x
out:
err: head: invalid trailing option -- x\n
err: Try 'head --help' for more information.\n
status: 1

test: digit option later is invalid
cmd: seq 10 | head -n 3 -5
out:
err: head: invalid trailing option -- 5\n
err: Try 'head --help' for more information.\n
status: 1

test: two files get headers
cmd: head -n 1 a b
file: a=a1\na2\n
file: b=b1\nb2\n
out: ==> a <==\na1\n\n==> b <==\nb1\n

test: quiet
cmd: head -q -n 1 a b
file: a=a1\na2\n
file: b=b1\nb2\n
out: a1\nb1\n

test: silent
cmd: head --silent -n 1 a b
file: a=a1\n
file: b=b1\n
out: a1\nb1\n

test: verbose one file
cmd: head -v -n 1 a
file: a=a1\na2\n
out: ==> a <==\na1\n

test: verbose stdin
cmd: echo x | head -v
out: ==> standard input <==\nx\n

test: header after missing file
cmd: head -n 1 nope a b
file: a=a1\n
file: b=b1\n
out: ==> a <==\na1\n\n==> b <==\nb1\n
err: head: cannot open 'nope' for reading: No such file or directory\n
status: 1

test: dash in file list
cmd: echo s | head -n 1 a - b
file: a=a1\n
file: b=b1\n
out: ==> a <==\na1\n\n==> standard input <==\ns\n\n==> b <==\nb1\n

test: zero terminated
cmd: printf 'a\0b\0c\0' | head -z -n 2 | od -c
out: 0000000   a  \\0   b  \\0\n0000004\n

test: zero terminated all but last
cmd: printf 'a\0b\0c' | head -z -n -1 | od -c
out: 0000000   a  \\0   b  \\0\n0000004\n

test: nul bytes in lines
cmd: printf 'a\0b\nc\n' | head -n 1 | od -c
out: 0000000   a  \\0   b  \\n\n0000004\n

test: no trailing newline
cmd: head -n 5 input
in: a\nb
out: a\nb

test: huge count
cmd: head -c 99999999999999 input
in: abc\n
out: abc\n

test: huge line count
cmd: head -n 99999999999999999 input
in: abc\n
out: abc\n

test: count overflow
cmd: head -c 99999999999999999999999 input
in: x
out:
err: head: invalid number of bytes: ‘99999999999999999999999’: Value too large for defined data type\n
status: 1

test: invalid count
cmd: head -n abc input
in: x
out:
err: head: invalid number of lines: ‘abc’\n
status: 1

test: invalid suffix
cmd: head -c 1x input
in: x
out:
err: head: invalid number of bytes: ‘1x’\n
status: 1

test: empty count
cmd: head -c '' input
in: x
out:
err: head: invalid number of bytes: ‘’\n
status: 1

test: double negative
cmd: head -n --5 input
in: x
out:
err: head: invalid number of lines: ‘-5’\n
status: 1

test: missing file
cmd: head nope
out:
err: head: cannot open 'nope' for reading: No such file or directory\n
status: 1

test: directory
cmd: mkdir d; head d
out:
err: head: error reading 'd': Is a directory\n
status: 1

test: missing argument
cmd: head -n
out:
err: head: option requires an argument -- 'n'\n
err: Try 'head --help' for more information.\n
status: 1

test: invalid option
cmd: head -y
out:
err: head: invalid option -- 'y'\n
err: Try 'head --help' for more information.\n
status: 1

test: seekable stdin is left after the lines
cmd: { head -n 2; cat; } < input
in: 1\n2\n3\n4\n
out: 1\n2\n3\n4\n

test: seekable stdin after bytes
cmd: { head -c 3; echo; cat; } < input
in: abcdef\n
out: abc\ndef\n

test: yes pipe ends
cmd: yes | head -n 3
out: y\ny\ny\n

test: long lines
cmd: head -c 300000 /dev/zero | tr '\0' a > l; { cat l; echo; echo b; } | head -n 1 | wc -c
out: 300001\n
