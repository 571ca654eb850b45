# hexdump (util-linux 2.38) and hd.

test: default
cmd: hexdump input
in: Hello, World!\n\x00\x01\xff\x80abcdefgh
out: 0000000 6548 6c6c 2c6f 5720 726f 646c 0a21 0100\n
out: 0000010 80ff 6261 6463 6665 6867               \n000001a\n

test: canonical
cmd: hexdump -C input
in: Hello, World!\n\x00\x01\xff\x80abcdefgh
out: 00000000  48 65 6c 6c 6f 2c 20 57  6f 72 6c 64 21 0a 00 01  |Hello, World!...|\n
out: 00000010  ff 80 61 62 63 64 65 66  67 68                    |..abcdefgh|\n
out: 0000001a\n

test: hd alias
cmd: hd input
in: Hello, World!\n\x00\x01\xff\x80abcdefgh
out: 00000000  48 65 6c 6c 6f 2c 20 57  6f 72 6c 64 21 0a 00 01  |Hello, World!...|\n
out: 00000010  ff 80 61 62 63 64 65 66  67 68                    |..abcdefgh|\n
out: 0000001a\n

test: characters
cmd: hexdump -c input
in: Hello, World!\n\x00\x01\xff\x80\t\x7f
out: 0000000   H   e   l   l   o   ,       W   o   r   l   d   !  \\n  \\0 001\n
out: 0000010 377 200  \\t 177                                                \n
out: 0000014\n

test: octal bytes
cmd: hexdump -b input
in: Hello, World!\n\x00\x01\xff\x80abcdefgh
out: 0000000 110 145 154 154 157 054 040 127 157 162 154 144 041 012 000 001\n
out: 0000010 377 200 141 142 143 144 145 146 147 150                        \n
out: 000001a\n

test: decimal and octal shorts
cmd: hexdump -d input; hexdump -o input
in: Hello, World!\n\x00\x01\xff\x80abcdefgh
out: 0000000   25928   27756   11375   22304   29295   25708   02593   00256\n
out: 0000010   33023   25185   25699   26213   26727                        \n
out: 000001a\n
out: 0000000  062510  066154  026157  053440  071157  062154  005041  000400\n
out: 0000010  100377  061141  062143  063145  064147                        \n
out: 000001a\n

test: hex shorts
cmd: hexdump -x input
in: Hello, World!\n\x00\x01\xff\x80abcdefgh
out: 0000000    6548    6c6c    2c6f    5720    726f    646c    0a21    0100\n
out: 0000010    80ff    6261    6463    6665    6867                        \n
out: 000001a\n

test: several formats
cmd: hexdump -C -c input
in: Hello, World!\n\x00\x01\xff\x80abcdefgh
out: 00000000  48 65 6c 6c 6f 2c 20 57  6f 72 6c 64 21 0a 00 01  |Hello, World!...|\n
out: 0000000   H   e   l   l   o   ,       W   o   r   l   d   !  \\n  \\0 001\n
out: 00000010  ff 80 61 62 63 64 65 66  67 68                    |..abcdefgh|\n
out: 0000010 377 200   a   b   c   d   e   f   g   h                        \n
out: 000001a\n

test: length and skip
cmd: hexdump -n 5 -C input; hexdump -s 3 -n 5 -C input
in: Hello, World!\n\x00\x01\xff\x80abcdefgh
out: 00000000  48 65 6c 6c 6f                                    |Hello|\n
out: 00000005\n
out: 00000003  6c 6f 2c 20 57                                    |lo, W|\n
out: 00000008\n

test: skip past end
cmd: hexdump -s 100 input
in: Hello
out: 0000005\n

test: odd length zero pads the last unit
cmd: printf abc | hexdump; printf abc | hexdump -x
out: 0000000 6261 0063                              \n0000003\n
out: 0000000    6261    0063                                                \n
out: 0000003\n

test: squeeze and no squeeze
cmd: head -c 64 /dev/zero | hexdump -C; head -c 48 /dev/zero | hexdump -v -C
out: 00000000  00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00  |................|\n
out: *\n00000040\n
out: 00000000  00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00  |................|\n
out: 00000010  00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00  |................|\n
out: 00000020  00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00  |................|\n
out: 00000030\n

test: empty input
cmd: hexdump -C < /dev/null; echo "rc=$?"
out: rc=0\n

test: missing file
cmd: hexdump nope; echo "rc=$?"
out: rc=1\n
err: hexdump: nope: No such file or directory\n
err: hexdump: all input file arguments failed\n

test: missing file among others
cmd: hexdump nope input; echo "rc=$?"
in: Hi
out: 0000000 6948                                   \n0000002\n
out: rc=1\n
err: hexdump: nope: No such file or directory\n

# ---- audit4: GNU-identical error messages and quoting ----
test: audit: mkdir dd; hexdump dd; echo $?
cmd: mkdir dd; hexdump dd; echo $?
out: 0\n
err: hexdump: dd: Is a directory\n

test: audit: mkdir dd; printf 'ab' > f; hexdump -C dd f; echo $?
cmd: mkdir dd; printf 'ab' > f; hexdump -C dd f; echo $?
out: 00000000  61 62                                             |ab|\n00000002\n0\n
err: hexdump: dd: Is a directory\n

test: audit: hexdump 'a b' "it's"; echo $?
cmd: hexdump 'a b' "it's"; echo $?
out: 1\n
err: hexdump: a b: No such file or directory\nhexdump: it's: No such file or directory\nhexdump: all input file arguments failed\n


test: abbreviated --canonical and --length with its value
cmd: printf 'abcdef' | hexdump --canon --len 4
out: 00000000  61 62 63 64                                       |abcd|\n00000004\n
