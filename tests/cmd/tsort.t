# tsort (GNU coreutils 9.1): Knuth's algorithm T in GNU's order; loops are
# reported and broken. tests/cmd/tsort_differential.py compares random graphs.

test: a chain and independent items
stdin: a b\nb c\nd d\nx y\n
cmd: tsort
out: a\nd\nx\nb\ny\nc\n

test: tabs, several pairs on a line, a file operand
cmd: printf 'main parse\tmain eval  parse lex\neval lex\n' > deps; tsort deps
out: main\neval\nparse\nlex\n

test: a loop is reported and broken
stdin: a b\nb c\nc a\nc d\n
cmd: tsort
out: a\nb\nc\nd\n
err: tsort: -: input contains a loop:\ntsort: a\ntsort: b\ntsort: c\n
status: 1

test: odd number of tokens
stdin: a b c\n
cmd: tsort
out:
err: tsort: -: input contains an odd number of tokens\n
status: 1

test: operand errors
cmd: tsort nope; tsort a b
out:
err: tsort: nope: No such file or directory\ntsort: extra operand ‘b’\nTry 'tsort --help' for more information.\n
status: 1

test: empty input
cmd: tsort < /dev/null; echo $?
out: 0\n

test: a bad option is one message and one hint, status 1
cmd: tsort -x; echo $?; tsort --help=1; echo $?
out: 1\n1\n
err: tsort: invalid option -- 'x'\nTry 'tsort --help' for more information.\ntsort: option '--help' doesn't allow an argument\nTry 'tsort --help' for more information.\n
