# nl: numbering styles, formats, sections.

test: default numbers nonempty lines
cmd: nl input
in: a\n\nb\n
out:      1\ta\n       \n     2\tb\n

test: all lines
cmd: nl -ba input
in: a\n\nb\n
out:      1\ta\n     2\t\n     3\tb\n

test: no lines
cmd: nl -bn input
in: a\nb\n
out:        a\n       b\n

test: regex style
cmd: nl -b 'p^[ab]' input
in: apple\ncherry\nbanana\n
out:      1\tapple\n       cherry\n     2\tbanana\n

test: left format and separator
cmd: nl -nln -w3 -s'|' input
in: a\n\nb\n
out: 1  |a\n    \n2  |b\n

test: zero padded
cmd: nl -nrz input
in: a\nb\n
out: 000001\ta\n000002\tb\n

test: start and increment
cmd: nl -v 10 -i 5 input
in: a\nb\nc\n
out:     10\ta\n    15\tb\n    20\tc\n

test: negative start
cmd: nl -v -2 input
in: a\nb\nc\nd\n
out:     -2\ta\n    -1\tb\n     0\tc\n     1\td\n

test: zero increment
cmd: nl -i 0 input
in: a\nb\n
out:      1\ta\n     1\tb\n

test: join blank lines
cmd: nl -ba -l2 input
in: a\n\n\n\nb\n
out:      1\ta\n       \n     2\t\n       \n     3\tb\n

test: sections
cmd: nl -ha -fa input
in: \\:\\:\\:\nh\n\\:\\:\nb\n\n\\:\nf\n
out: \n     1\th\n\n     1\tb\n       \n\n     1\tf\n

test: sections default styles
cmd: nl input
in: \\:\\:\\:\nh\n\\:\\:\nb\n\\:\nf\n
out: \n       h\n\n     1\tb\n\n       f\n

test: no renumber
cmd: nl -p -ha input
in: \\:\\:\\:\nh\n\\:\\:\nb\nc\n
out: \n     1\th\n\n     2\tb\n     3\tc\n

test: custom delimiter
cmd: nl -d '@' input
in: @:@:\nx\n@:\ny\n
out: \n     1\tx\n\n       y\n

test: two files one numbering
cmd: nl a b
file: a=1\n2
file: b=3\n
out:      1\t1\n     2\t2\n     3\t3\n

test: missing final newline added
cmd: printf 'a\nb' | nl | od -c | tail -n 2
out: 0000020   b  \\n\n0000022\n

test: empty separator
cmd: nl -ba -s '' input
in: a\n\nb\n
out:      1a\n     2\n     3b\n

test: wide numbers
cmd: nl -w 2 -v 98 input
in: a\nb\nc\n
out: 98\ta\n99\tb\n100\tc\n

test: invalid increment
cmd: nl -i x input
in: a\n
out:
err: nl: invalid line number increment: ‘x’\n
status: 1

test: invalid width zero
cmd: nl -w 0 input
in: a\n
out:
err: nl: invalid line number field width: ‘0’: Numerical result out of range\n
status: 1

test: invalid width
cmd: nl -w x input
in: a\n
out:
err: nl: invalid line number field width: ‘x’\n
status: 1

test: invalid format
cmd: nl -n xx input
in: a\n
out:
err: nl: invalid line numbering format: ‘xx’\n
err: Try 'nl --help' for more information.\n
status: 1

test: invalid start
cmd: nl -v x input
in: a\n
out:
err: nl: invalid starting line number: ‘x’\n
status: 1

test: invalid body style
cmd: nl -b x input
in: a\n
out:
err: nl: invalid body numbering style: ‘x’\n
err: Try 'nl --help' for more information.\n
status: 1

test: invalid header style
cmd: nl -h x input
in: a\n
out:
err: nl: invalid header numbering style: ‘x’\n
err: Try 'nl --help' for more information.\n
status: 1

test: invalid regex
cmd: nl -b 'pa[' input
in: a\n
out:
err: nl: Invalid regular expression\n
status: 1

test: invalid blank lines
cmd: nl -l 0 input
in: a\n
out:
err: nl: invalid line number of blank lines: ‘0’: Numerical result out of range\n
status: 1

test: missing file
cmd: nl nofile
out:
err: nl: nofile: No such file or directory\n
status: 1

test: long options abbreviated; -d -p -s read after the others
cmd: nl --body=a --number-f=rz --number-w=3 --starting=5 --line-inc=2 --number-s=: --no-ren --section=x input
in: a\n\nb\n
out: 005:a\n007:\n009:b\n

test: the first bad argument is reported
cmd: nl -w 0 -i x input; echo $?; nl --join=0 -b q input; echo $?
in: a\n
out: 1\n1\n
err: nl: invalid line number field width: ‘0’: Numerical result out of range\nnl: invalid line number of blank lines: ‘0’: Numerical result out of range\n
