# basename and dirname: pure string manipulation.

test: basename
cmd: basename /usr/lib/x.so
out: x.so\n

test: basename with a suffix
cmd: basename /a/b.txt .txt
out: b\n

test: suffix equal to the name is kept
cmd: basename .txt .txt
out: .txt\n

test: trailing slashes
cmd: basename a/b// ; basename / ; basename //
out: b\n/\n/\n

test: -a
cmd: basename -a /x/y /z w/
out: y\nz\nw\n

test: -s implies -a
cmd: basename -s .c a.c b/c.c d.h
out: a\nc\nd.h\n

test: -z
cmd: basename -z a/b
out: b\0

test: extra operand
cmd: basename a b c
out:
err: basename: extra operand \xe2\x80\x98c\xe2\x80\x99\nTry 'basename --help' for more information.\n
status: 1

test: missing operand
cmd: basename
out:
err: basename: missing operand\nTry 'basename --help' for more information.\n
status: 1

test: empty name
cmd: basename ''
out: \n

test: dirname
cmd: dirname /usr/lib/x.so a/b/ a ./x //a /
out: /usr/lib\na\n.\n.\n/\n/\n

test: dirname with repeated slashes
cmd: dirname 'a//b//' '///x'
out: a\n/\n

test: dirname -z
cmd: dirname -z a/b c
out: a\0.\0

test: dirname missing operand
cmd: dirname
out:
err: dirname: missing operand\nTry 'dirname --help' for more information.\n
status: 1

test: dirname's options: -z, its long name abbreviated, help, a bad option
cmd: dirname -z a/b | od -c | head -1
cmd: dirname --ze a/b c/d | tr '\0' ' '; echo
cmd: dirname --help | head -1
cmd: dirname -q a; echo $?
out: 0000000   a  \\0\na c \nUsage: dirname [OPTION] NAME...\n1\n
err: dirname: invalid option -- 'q'\nTry 'dirname --help' for more information.\n
