# unexpand: leading (or all) blanks to tabs.

test: leading blanks
cmd: unexpand input | od -c
in:         a       b\n
out: 0000000  \\t   a                               b  \\n\n0000013\n

test: all blanks
cmd: unexpand -a input | od -c
in:         a       b\n
out: 0000000  \\t   a  \\t   b  \\n\n0000005\n

test: tab size implies all
cmd: unexpand -t 4 input | od -c
in:         a       b\n  x     y  z\n
out: 0000000  \\t  \\t   a  \\t  \\t   b  \\n           x  \\t  \\t   y           z\n
out: 0000020  \\n\n0000021\n

test: tab list
cmd: unexpand -t 4,10 input | od -c
in:         a       b\n
out: 0000000  \\t                   a                               b  \\n\n
out: 0000017\n

test: first only
cmd: unexpand --first-only -a input | od -c
in:         a       b\n
out: 0000000  \\t   a                               b  \\n\n0000013\n

test: single blank before stop stays
cmd: unexpand -a input | od -c
in: abcdefg h\n
out: 0000000   a   b   c   d   e   f   g       h  \\n\n0000012\n

test: mixed tabs and spaces
cmd: unexpand input | od -c
in:    \tq  \n
out: 0000000  \\t   q          \\n\n0000005\n

test: obsolete option does not imply all
cmd: unexpand -3 input | od -c
in:         a       b\n
out: 0000000  \\t  \\t           a                               b  \\n\n
out: 0000016\n

test: trailing blanks without newline
cmd: printf '   ' | unexpand -a | od -c
out: 0000000            \n0000003\n

test: backspace
cmd: unexpand -a input | od -c
in: ab\bc    d\n
out: 0000000   a   b  \\b   c                   d  \\n\n0000012\n

test: invalid list
cmd: unexpand -t 0 input
in: a\n
out:
err: unexpand: tab size cannot be 0\n
status: 1

test: missing file
cmd: unexpand nofile
out:
err: unexpand: nofile: No such file or directory\n
status: 1

test: --first abbreviated overrides -a; --tabs implies -a
cmd: printf '        a       b\n' > in; unexpand -a --first in | tr '\t ' 'T.'; unexpand --tab=8 in | tr '\t ' 'T.'
out: Ta.......b\nTaTb\n

test: a second '+' before the last value is refused
cmd: unexpand -t +2,+4,8 input
in: a\n
out:
err: unexpand: '+' specifier only allowed with the last value\n
status: 1
