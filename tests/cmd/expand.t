# expand: tabs to spaces with GNU tab lists.

test: default eight
cmd: expand input | od -c
in: a\tb\n\tx\n
out: 0000000   a                               b  \\n                        \n
out: 0000020           x  \\n\n0000024\n

test: tab size
cmd: expand -t 4 input
in: a\tb\tc\n\tx\ty\n
out: a   b   c\n    x   y\n

test: tab list
cmd: expand -t 4,8 input
in: a\tb\tc\td\n
out: a   b   c d\n

test: list with blanks
cmd: expand -t '3 7' input
in: a\tb\tc\td\n
out: a  b   c d\n

test: initial only
cmd: expand -i input
in: \ta\tb\n  \tc\n
out:         a\tb\n        c\n

test: increment after last
cmd: expand -t 2,+4 input
in: a\tb\tc\td\n
out: a b   c   d\n

test: repeat after last
cmd: expand -t 2,/5 input
in: a\tb\tc\td\n
out: a b  c    d\n

test: repeat only
cmd: expand -t /3 input
in: a\tb\tc\n
out: a  b  c\n

test: obsolete option
cmd: expand -4 input
in: a\tb\n
out: a   b\n

test: backspace
cmd: expand input | od -c
in: ab\bc\td\n
out: 0000000   a   b  \\b   c                           d  \\n\n
out: 0000014\n

test: zero size
cmd: expand -t 0 input
in: a\n
out:
err: expand: tab size cannot be 0\n
status: 1

test: not ascending
cmd: expand -t 4,2 input
in: a\n
out:
err: expand: tab sizes must be ascending\n
status: 1

test: invalid character
cmd: expand -t x input
in: a\n
out:
err: expand: tab size contains invalid character(s): ‘x’\n
status: 1

test: slash not at start
cmd: expand -t 2/4 input
in: a\n
out:
err: expand: '/' specifier not at start of number: ‘/4’\n
status: 1

test: two slashes
cmd: expand -t 2,/3,/4 input
in: a\n
out:
err: expand: '/' specifier only allowed with the last value\n
status: 1

test: slash and plus
cmd: expand -t 2,/3,+4 input
in: a\n
out:
err: expand: '/' specifier is mutually exclusive with '+'\n
status: 1

test: missing file
cmd: expand nofile
out:
err: expand: nofile: No such file or directory\n
status: 1

# a tab wider than 64 columns is all spaces (every 64th byte used to be a NUL)
test: wide tab stop is all spaces
cmd: printf '\tx\n' | expand -t 200 | tr -d ' ' | od -An -c
out:    x  \\n\n

test: wide tab stop width
cmd: printf 'ab\tx\n' | expand -t 130 | wc -c
out: 132\n

test: abbreviated --tabs with its value and --initial
cmd: printf '\ta\tb\n' | expand --tab=4 --init
out:     a\tb\n
