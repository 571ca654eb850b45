# fold: wrapping by columns, bytes, at spaces.

test: default width
cmd: printf '%0100d\n' 0 | fold
out: 00000000000000000000000000000000000000000000000000000000000000000000000000000000\n
out: 00000000000000000000\n

test: width
cmd: fold -w 5 input
in: hello world foo bar\n
out: hello\n worl\nd foo\n bar\n

test: tabs count to next stop
cmd: fold -w 4 input
in: ab\tcd\n
out: ab\n\t\ncd\n

test: bytes not characters
cmd: fold -w 3 input
in: h\xc3\xa9llo w\xc3\xb6rld\n
out: hé\nllo\n w\xc3\n\xb6rl\nd\n

test: break at spaces
cmd: fold -s -w 8 input
in: hello world foo bar baz\n
out: hello \nworld \nfoo bar \nbaz\n

test: spaces with tabs
cmd: fold -sw6 input
in: ab\tcd ef gh\n
out: ab\n\t\ncd ef \ngh\n

test: spaces width one
cmd: fold -s -w 1 input
in: ab cd\n
out: a\nb\n \nc\nd\n

test: count bytes
cmd: fold -b -w 3 input
in: ab\tcd\n
out: ab\t\ncd\n

test: backspace and carriage return
cmd: fold -w 3 input
in: a\bb\rccc\n
out: a\x08b\x0dccc\n

test: obsolete width
cmd: fold -5 input
in: hello world foo bar\n
out: hello\n worl\nd foo\n bar\n

test: no trailing newline
cmd: printf 'abcdefg' | fold -w 3 | od -c
out: 0000000   a   b   c  \\n   d   e   f  \\n   g\n0000011\n

test: several files
cmd: fold -w 2 a b
file: a=abc
file: b=de\n
out: ab\ncde\n

test: invalid width
cmd: fold -w x input
in: a\n
out:
err: fold: invalid number of columns: ‘x’\n
status: 1

test: zero width
cmd: fold -w 0 input
in: a\n
out:
err: fold: invalid number of columns: ‘0’: Numerical result out of range\n
status: 1

test: missing file
cmd: fold nofile
out:
err: fold: nofile: No such file or directory\n
status: 1

test: an abbreviated --width with its value attached
cmd: fold --wid=3 input
in: abcdefg\n
out: abc\ndef\ng\n

test: abbreviated --bytes and --spaces; an unknown long option
cmd: fold --b --s -w 4 input; fold --bogus input
in: ab cdef\n
out: ab \ncdef\n
err: fold: unrecognized option '--bogus'\nTry 'fold --help' for more information.\n
status: 1
