# uniq: adjacent duplicates, counts, fields/chars, groups.

test: basic
cmd: uniq input
in: a\na\nb\na\na\n
out: a\nb\na\n

test: stdin
cmd: printf 'x\nx\ny\n' | uniq
out: x\ny\n

test: no trailing newline gets one
cmd: printf 'a\na' | uniq | od -c
out: 0000000   a  \\n\n0000002\n

test: last line differs without newline
cmd: printf 'a\nb' | uniq | od -c
out: 0000000   a  \\n   b  \\n\n0000004\n

test: empty input
cmd: uniq input
in:
out:

test: empty lines
cmd: uniq input
in: \n\n\na\n\n
out: \na\n\n

test: count
cmd: uniq -c input
in: a\na\nb\nc\nc\nc\n
out:       2 a\n      1 b\n      3 c\n

test: count big
cmd: yes x | head -n 12345678 | uniq -c
out: 12345678 x\n

test: repeated
cmd: uniq -d input
in: a\na\nb\nc\nc\nc\n
out: a\nc\n

test: repeated count
cmd: uniq -dc input
in: a\na\nb\nc\nc\nc\n
out:       2 a\n      3 c\n

test: all repeated
cmd: uniq -D input
in: a\na\nb\nc\nc\nc\n
out: a\na\nc\nc\nc\n

test: all repeated none
cmd: uniq --all-repeated=none input
in: a\na\nb\nc\nc\n
out: a\na\nc\nc\n

test: all repeated separate
cmd: uniq --all-repeated=separate input
in: a\na\nb\nc\nc\nd\ne\ne\n
out: a\na\n\nc\nc\n\ne\ne\n

test: all repeated prepend
cmd: uniq --all-repeated=prepend input
in: a\na\nb\nc\nc\n
out: \na\na\n\nc\nc\n

test: all repeated abbreviated
cmd: uniq --all-repeated=sep input
in: a\na\nb\nc\nc\n
out: a\na\n\nc\nc\n

test: all repeated invalid
cmd: uniq --all-repeated=x input
in: a\n
out:
err: uniq: invalid argument ‘x’ for ‘--all-repeated’\n
err: Valid arguments are:\n  - ‘none’\n  - ‘prepend’\n
err:   - ‘separate’\nTry 'uniq --help' for more information.\n
status: 1

test: unique only
cmd: uniq -u input
in: a\na\nb\nc\nc\nd\n
out: b\nd\n

test: unique count
cmd: uniq -uc input
in: a\na\nb\n
out:       1 b\n

test: u and d print nothing
cmd: uniq -u -d input
in: a\na\nb\n
out:

test: skip fields
cmd: uniq -f1 input
in: 1 a\n2 a\n3 b\n
out: 1 a\n3 b\n

test: skip fields tabs and blanks
cmd: uniq -f1 input
in: a\tb\nc b\nd  b\n
out: a\tb\nc b\nd  b\n

test: skip two fields
cmd: uniq -c -f2 input
in: a b c\nx y c\nz z d\n
out:       2 a b c\n      1 z z d\n

test: skip fields beyond end
cmd: uniq -f5 input
in: a\nb\n
out: a\n

test: skip chars
cmd: uniq -s1 input
in: xab\nyab\nzac\n
out: xab\nzac\n

test: skip fields then chars
cmd: uniq -f1 -s1 input
in: 1 xa\n2 ya\n3 yb\n
out: 1 xa\n2 ya\n3 yb\n

test: check chars
cmd: uniq -w2 input
in: abc\nabd\nacd\n
out: abc\nacd\n

test: check chars zero
cmd: uniq -w0 -c input
in: a\nb\nc\n
out:       3 a\n

test: ignore case
cmd: uniq -i input
in: A\na\nB\nb\nb\n
out: A\nB\n

test: ignore case ascii only
cmd: uniq -i input
in: \xc3\xa9\n\xc3\x89\n
out: é\nÉ\n

test: ignore case count
cmd: uniq -ci input
in: A\na\n
out:       2 A\n

test: zero terminated
cmd: printf 'a\0a\0b\0' | uniq -z | od -c
out: 0000000   a  \\0   b  \\0\n0000004\n

test: zero terminated fields with newline
cmd: printf 'a\nx b\0c\ny b\0' | uniq -z -f1 | od -c
out: 0000000   a  \\n   x       b  \\0   c  \\n   y       b  \\0\n
out: 0000014\n

test: group
cmd: uniq --group input
in: a\na\nb\nc\nc\n
out: a\na\n\nb\n\nc\nc\n

test: group prepend
cmd: uniq --group=prepend input
in: a\na\nb\n
out: \na\na\n\nb\n

test: group append
cmd: uniq --group=append input
in: a\na\nb\n
out: a\na\n\nb\n\n

test: group both
cmd: uniq --group=both input
in: a\na\nb\n
out: \na\na\n\nb\n\n

test: group empty input
cmd: uniq --group=both input
in:
out:

test: group with count
cmd: uniq --group -c input
in: a\n
out:
err: uniq: --group is mutually exclusive with -c/-d/-D/-u\n
err: Try 'uniq --help' for more information.\n
status: 1

test: count with all repeated
cmd: uniq -cD input
in: a\n
out:
err: uniq: printing all duplicated lines and repeat counts is meaningless\n
err: Try 'uniq --help' for more information.\n
status: 1

test: output file
cmd: uniq input out; cat out
in: a\na\nb\n
out: a\nb\n

test: dash input and output file
cmd: printf 'a\na\n' | uniq - out; cat out
out: a\n

test: extra operand
cmd: uniq a b c
out:
err: uniq: extra operand ‘c’\n
err: Try 'uniq --help' for more information.\n
status: 1

test: missing input
cmd: uniq nope
out:
err: uniq: nope: No such file or directory\n
status: 1

test: invalid fields
cmd: uniq -f x input
in: a\n
out:
err: uniq: x: invalid number of fields to skip\n
status: 1

test: negative chars
cmd: uniq -s -1 input
in: a\n
out:
err: uniq: -1: invalid number of bytes to skip\n
status: 1

test: invalid check chars
cmd: uniq -w y input
in: a\n
out:
err: uniq: y: invalid number of bytes to compare\n
status: 1

test: huge check chars
cmd: uniq -w 99999999999999999999 input
in: a\na\n
out: a\n

test: obsolete field count
cmd: uniq -1 input
in: 1 a\n2 a\n3 b\n
out: 1 a\n3 b\n

test: nul bytes compared
cmd: printf 'a\0b\na\0c\na\0c\n' | uniq | od -c
out: 0000000   a  \\0   b  \\n   a  \\0   c  \\n\n0000010\n

test: long lines
cmd: { head -c 100000 /dev/zero | tr '\0' a; echo; head -c 100000 /dev/zero | tr '\0' a; echo; } | uniq -c | cut -c1-10
out:       2 aa\n

test: invalid option
cmd: uniq -x
out:
err: uniq: invalid option -- 'x'\n
err: Try 'uniq --help' for more information.\n
status: 1

test: -u with -D prints each repeated group but its last line (GNU's writeline)
cmd: printf 'a\na\na\nb\n\n\n' | uniq -u -D; echo --; printf 'a\na\na\nb\nb\nc\n' | uniq -d -D -u
out: a\na\n\n--\na\na\nb\n

test: long options abbreviated; --s and --c are ambiguous
cmd: printf 'a x\nb x\nc y\n' | uniq --skip-f=1 --cou; uniq --s 1 input; uniq --c input
out:       2 a x\n      1 c y\n
err: uniq: option '--s' is ambiguous; possibilities: '--skip-fields' '--skip-chars'\nTry 'uniq --help' for more information.\nuniq: option '--c' is ambiguous; possibilities: '--count' '--check-chars'\nTry 'uniq --help' for more information.\n
status: 1

test: --all-repeated and --group abbreviated, their arguments attached only
cmd: printf 'a\na\nb\n' > f; uniq --all=sep f; echo -; uniq --gr f; echo -; uniq --all f f2; cat f2
out: a\na\n-\na\na\n\nb\n-\na\na\n
