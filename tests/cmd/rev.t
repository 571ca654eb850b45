# rev (util-linux): reverse each line characterwise.

test: basic
cmd: printf 'abc\nhello world\n' | rev
out: cba\ndlrow olleh\n

test: multibyte characters
cmd: printf 'h\xc3\xa9llo\n' | rev
out: olléh\n

test: no trailing newline
cmd: printf 'ab\ncd' | rev | od -c
out: 0000000   b   a  \\n   d   c\n0000005\n

test: files
cmd: rev a b
file: a=ab\ncd
file: b=xy\n
out: ba\ndcyx\n

test: empty lines
cmd: printf '\n\nab\n' | rev
out: \n\nba\n

test: invalid sequence stops with an error
cmd: printf 'abc\nd\xc3\xa9f\n\xffx\nyz\n' | rev; echo "rc=$?"
out: cba\nféd\nrc=1\n
err: rev: stdin: 2: Invalid or incomplete multibyte or wide character\n

test: invalid sequence in a file
cmd: rev a; echo "rc=$?"
file: a=ok\n\xff\n
out: ko\nrc=1\n
err: rev: a: 1: Invalid or incomplete multibyte or wide character\n

test: missing file
cmd: rev nope; echo "rc=$?"
out: rc=1\n
err: rev: cannot open nope: No such file or directory\n

test: long line
cmd: head -c 100000 /dev/zero | tr '\0' a | rev | wc -c
out: 100000\n

test: -V and --version abbreviated, a bad option
cmd: rev -V | cut -c1-25; rev --vers | cut -c1-25; rev --he | grep -c Usage; rev -y; echo $?
out: rev from util-linux 2.38.\nrev from util-linux 2.38.\n1\n1\n
err: rev: invalid option -- 'y'\nTry 'rev --help' for more information.\n
