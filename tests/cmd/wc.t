# wc: counts, GNU column widths, totals, multibyte words and widths.

test: default counts file
cmd: wc input
in: hello world\nfoo\n
out:  2  3 16 input\n

test: default counts pipe uses width 7
cmd: printf 'hello world\nfoo\n' | wc
out:       2       3      16\n

test: stdin redirected from a file
cmd: wc < input
in: hello world\nfoo\n
out:  2  3 16\n

test: lines only file width 1
cmd: wc -l input
in: a\nb\nc\n
out: 3 input\n

test: lines only pipe
cmd: seq 1000 | wc -l
out: 1000\n

test: bytes only
cmd: wc -c input
in: abcdef
out: 6 input\n

test: bytes only pipe
cmd: printf abc | wc -c
out: 3\n

test: words only
cmd: wc -w input
in:  a  b\tc\nd  \n
out: 4 input\n

test: chars
cmd: wc -m input
in: h\xc3\xa9llo \xe4\xb8\xad\n
out: 8 input\n

test: chars and bytes
cmd: wc -mc input
in: h\xc3\xa9llo\n
out: 6 7 input\n

test: max line length
cmd: wc -L input
in: ab\nabcdef\nabc\n
out: 6 input\n

test: max line length tabs
cmd: wc -L input
in: a\tb\n\t\tx\n
out: 17 input\n

test: max line length wide chars
cmd: wc -L input
in: \xe4\xb8\xad\xe6\x96\x87\nab\n
out: 4 input\n

test: max line length combining and zero width
cmd: wc -L input
in: e\xcc\x81\xe2\x80\x8bx\n
out: 2 input\n

test: max line length final line without newline
cmd: wc -L input
in: ab\nabcdefgh
out: 8 input\n

test: carriage return resets column
cmd: wc -L input
in: abcdef\rab\n
out: 6 input\n

test: all counts order
cmd: wc -Lcmwl input
in: one two\nthree\n
out:  2  3 14 14  7 input\n

test: two files total and width
cmd: wc a b
file: a=one two\n
file: b=x\ny\nz\n
out:  1  2  8 a\n 3  3  6 b\n 4  5 14 total\n

test: width from total size
cmd: seq 10000 > big; wc big input
in: a\n
out: 10000 10000 48894 big\n    1     1     2 input\n
out: 10001 10001 48896 total\n

test: single file many counts width from size
cmd: seq 10000 > big; wc big
out: 10000 10000 48894 big\n

test: lines of two files
cmd: wc -l a b
file: a=1\n2\n
file: b=1\n
out: 2 a\n1 b\n3 total\n

test: stdin dash in list gets width 7
cmd: echo hi | wc - a
file: a=a b c\n
out:       1       1       3 -\n      1       3       6 a\n
out:       2       4       9 total\n

test: dash name printed
cmd: echo hi | wc -l -
out: 1 -\n

test: missing file
cmd: wc nope
out:
err: wc: nope: No such file or directory\n
status: 1

test: missing file among others
cmd: wc -l a nope
file: a=1\n
out: 1 a\n1 total\n
err: wc: nope: No such file or directory\n
status: 1

test: directory
cmd: mkdir d; wc d
out:       0       0       0 d\n
err: wc: d: Is a directory\n
status: 1

test: directory bytes only
cmd: mkdir d; wc -c d
out: 0 d\n
err: wc: d: Is a directory\n
status: 1

test: directory with file
cmd: mkdir d; wc d a
file: a=hello world\n
out:       0       0       0 d\n      1       2      12 a\n
out:       1       2      12 total\n
err: wc: d: Is a directory\n
status: 1

test: empty input
cmd: wc input
in:
out: 0 0 0 input\n

test: empty pipe
cmd: printf '' | wc
out:       0       0       0\n

test: no trailing newline
cmd: wc input
in: a b c
out: 0 3 5 input\n

test: control chars do not split words
cmd: wc -w input
in: a\x01b c\x7fd\n
out: 2 input\n

test: control chars alone are not words
cmd: wc -w input
in: \x01 \x02\n
out: 0 input\n

test: invalid utf8 is not a char or word
cmd: wc -mw input
in: \xff\xfe a\xffb\n
out: 1 4 input\n

test: no-break space separates words
cmd: wc -w input
in: a\xc2\xa0b\xe2\x80\x87c\xe2\x80\xafd\n
out: 4 input\n

test: unicode spaces separate words
cmd: wc -w input
in: a\xe2\x80\x80b\xe3\x80\x80c\n
out: 3 input\n

test: nul bytes
cmd: wc input
in: a\0b\0\nc\n
out: 2 2 7 input\n

test: vertical tab and form feed separate
cmd: wc -wL input
in: a\vb\fc\n
out: 3 2 input\n

test: long line
cmd: head -c 3000000 /dev/zero | tr '\0' x | wc -lwcL
out:       0       1 3000000 3000000\n

test: utf8 split across blocks
cmd: for i in $(seq 30000); do printf '\xc3\xa9'; done | wc -m
out: 30000\n

test: files0-from regular file
cmd: printf 'a\0b\0' > list; wc --files0-from=list
file: a=one two\n
file: b=x\n
out:  1  2  8 a\n 1  1  2 b\n 2  3 10 total\n

test: files0-from stdin streams with width 1
cmd: printf 'a\0b\0' | wc --files0-from=-
file: a=one two\n
file: b=x\n
out: 1 2 8 a\n1 1 2 b\n2 3 10 total\n

test: files0-from single name lines
cmd: printf 'a\0' > list; wc -l --files0-from=list
file: a=1\n2\n
out: 2 a\n

test: files0-from with operand
cmd: printf 'a\0' > list; wc --files0-from=list a
file: a=x\n
out:
err: wc: extra operand 'a'\n
err: file operands cannot be combined with --files0-from\n
err: Try 'wc --help' for more information.\n
status: 1

test: files0-from empty name
cmd: printf 'a\0\0a' | wc -l --files0-from=-
file: a=x\n
out: 1 a\n1 a\n2 total\n
err: wc: -:2: invalid zero-length file name\n
status: 1

test: files0-from dash from stdin
cmd: printf 'a\0-\0' | wc -c --files0-from=-
file: a=x\n
out: 2 a\n2 total\n
err: wc: when reading file names from stdin, no file name of '-' allowed\n
status: 1

test: files0-from missing list
cmd: wc --files0-from=nolist
out:
err: wc: cannot open 'nolist' for reading: No such file or directory\n
status: 1

test: files0-from empty list
cmd: printf '' | wc --files0-from=-
out:

test: files0-from missing file in list
cmd: printf 'a\0nope\0' > list; wc -l --files0-from=list
file: a=x\n
out: 1 a\n1 total\n
err: wc: nope: No such file or directory\n
status: 1

test: newline in file name is quoted
cmd: printf 'x\n' > 'a
cmd: b'; wc -l 'a
cmd: b'
out: 1 'a'$'\\n''b'\n

test: invalid option
cmd: wc -x
out:
err: wc: invalid option -- 'x'\n
err: Try 'wc --help' for more information.\n
status: 1

test: big counts
cmd: seq 200000 | wc
out:  200000  200000 1288895\n

# ---- the vector line count ----

test: -l over many blocks from a pipe and a file
cmd: seq 300000 | wc -l; seq 300000 > f; wc -l f
out: 300000\n300000 f\n

test: -l only newlines (every byte counts)
cmd: yes '' | head -n 70000 | wc -l
out: 70000\n

test: -l with NUL bytes and no final newline
cmd: printf '\0\n\0\n\nx' | wc -l; printf 'abc' | wc -l
out: 3\n0\n

test: long options abbreviated, --files0-from among them
cmd: printf 'ab\ncd\n' > a; printf 'a\0' > list; wc --li --cha a; wc --files0=list --w; wc --max a
out: 2 6 a\n2 a\n2 a\n
