# tty: stdin is never a terminal here (a pipe or a file on the host too)

test: not a tty, status 1
cmd: tty; echo $?
out: not a tty\n1\n

test: -s and its long names, abbreviated, print nothing
cmd: tty -s; echo $?; tty --silent; echo $?; tty --qui; echo $?; tty --si; echo $?
out: 1\n1\n1\n1\n

test: a bad option or an operand is status 2
cmd: tty -x; echo $?; tty --s=1; echo $?; tty a; echo $?
out: 2\n2\n2\n
err: tty: invalid option -- 'x'\nTry 'tty --help' for more information.\ntty: option '--silent' doesn't allow an argument\nTry 'tty --help' for more information.\ntty: extra operand ‘a’\nTry 'tty --help' for more information.\n
