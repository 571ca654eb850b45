# strings (binutils 2.40): printable runs.

test: default
cmd: strings input
in: hello\x00ab\x01world wide\tweb\nxyz\x7fabcdefg\xe9hijk  \n
out: hello\nworld wide\tweb\nabcdefg\nhijk  \n

test: minimum length
cmd: strings -n 3 input; strings -3 input
in: hello\x00ab\x01world\nxyz\x7f
out: hello\nworld\nxyz\nhello\nworld\nxyz\n

test: hex offsets
cmd: strings -t x input
in: hello\x00ab\x01world wide\tweb\nxyz\x7fabcdefg\xe9hijk  \n
out:       0 hello\n      9 world wide\tweb\n     1c abcdefg\n
out:      24 hijk  \n

test: decimal offsets
cmd: strings -t d -n 2 input
in: hello\x00ab\x01world wide\tweb\nxyz\x7f
out:       0 hello\n      6 ab\n      9 world wide\tweb\n     24 xyz\n

test: octal offsets
cmd: strings -o input
in: \x00\x00\x00\x00\x00\x00\x00\x00\x00hello
out:      11 hello\n

test: all whitespace
cmd: strings -w input | od -c
in: hello\nworld\r\nxy\n
out: 0000000   h   e   l   l   o  \\n   w   o   r   l   d  \\r  \\n   x   y  \\n\n
out: 0000020  \\n\n0000021\n

test: file names
cmd: strings -f input
in: hello\x00world
out: input: hello\ninput: world\n

test: eight bit
cmd: strings -e S input | od -c
in: abc\xe9def\x01gh
out: 0000000   a   b   c 351   d   e   f  \\n\n0000010\n

test: sixteen bit little endian
cmd: printf 'a\0b\0c\0d\0e\0\0' | strings -e l
out: abcde\n

test: sixteen bit big endian resyncs
cmd: printf '\0a\0b\0c\0d\0e\0\0\0\0w\0x\0y\0z' | strings -e b
out: abcde\nwxyz\n

test: separator
cmd: strings -s : input
in: hello\x00world\x01
out: hello:world:

test: long run
cmd: head -c 100000 /dev/zero | tr '\0' a | strings | wc -c
out: 100001\n

test: stdin
cmd: printf 'xyzw\1abcd' | strings
out: xyzw\nabcd\n

test: missing file
cmd: strings nope; echo "rc=$?"
out: rc=1\n
err: strings: 'nope': No such file\n

test: "-NUM" after "--" is a file name
cmd: printf 'hello world\nab\n' > ./-5; strings -- -5
out: hello world\n

test: an abbreviated --bytes with its value
cmd: strings --by 6 input
in: abc\0hello world\0ab\n
out: hello world\n

test: an empty --radix or --encoding is refused with the usage
cmd: strings --radix= input; echo $?; strings --enc= input; echo $?; strings -td input
in: hello world\n
out: 1\n1\n      0 hello world\n
