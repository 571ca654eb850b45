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
