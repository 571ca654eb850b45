# cat: concatenation, numbering, squeezing, visible control characters.

test: plain file
cmd: cat input
in: hello\nworld\n
out: hello\nworld\n

test: stdin when no operand
cmd: cat
stdin: from stdin\n
out: from stdin\n

test: dash is stdin between files
cmd: cat a - b
file: a=A\n
file: b=B\n
stdin: S\n
out: A\nS\nB\n

test: no trailing newline kept
cmd: cat input input
in: x
out: xx

test: empty input
cmd: cat input
in:
out:

test: nul bytes pass through
cmd: cat input | od -c
in: a\0b\0\n\xff
out: 0000000   a  \\0   b  \\0  \\n 377\n0000006\n

test: number lines
cmd: cat -n input
in: a\n\nb\n
out:      1\ta\n     2\t\n     3\tb\n

test: number continues across files
cmd: cat -n a b
file: a=1\n2\n
file: b=3\n
out:      1\t1\n     2\t2\n     3\t3\n

test: number unterminated line continues in next file
cmd: cat -n a b
file: a=a
file: b=\n\nb\n
out:      1\ta\n     2\t\n     3\tb\n

test: number nonblank
cmd: cat -b input
in: a\n\n\nb\n
out:      1\ta\n\n\n     2\tb\n

test: b overrides n
cmd: cat -nb input
in: a\n\nb\n
out:      1\ta\n\n     2\tb\n

test: squeeze blank
cmd: cat -s input
in: a\n\n\n\nb\n\n\n
out: a\n\nb\n\n

test: squeeze leading blanks
cmd: cat -s input
in: \n\n\na\n
out: \na\n

test: squeeze across files
cmd: cat -s a b
file: a=a\n\n
file: b=\n\nb\n
out: a\n\nb\n

test: squeeze and number
cmd: cat -sn input
in: a\n\n\n\nb\n
out:      1\ta\n     2\t\n     3\tb\n

test: bs across files
cmd: cat -bs a a
file: a=\n\nb\n
out: \n     1\tb\n\n     2\tb\n

test: show ends
cmd: cat -E input
in: a\nb\n\nc
out: a$\nb$\n$\nc

test: show tabs
cmd: cat -T input
in: a\tb\t\n
out: a^Ib^I\n

test: show nonprinting
cmd: cat -v input
in: \x01\x1f\x7f\x80\x9f\xa0\xff\t\n
out: ^A^_^?M-^@M-^_M- M-^?\t\n

test: show all
cmd: cat -A input
in: a\tb\x01\x7f\xc3\xa9\xff\n\nc
out: a^Ib^A^?M-CM-)M-^?$\n$\nc

test: e is vE
cmd: cat -e input
in: a\tb\x01\n
out: a\tb^A$\n

test: t is vT
cmd: cat -t input
in: a\tb\x01\n
out: a^Ib^A\n

test: u ignored
cmd: cat -u input
in: x\n
out: x\n

test: long options
cmd: cat --number --show-ends --squeeze-blank input
in: a\n\n\nb\n
out:      1\ta$\n     2\t$\n     3\tb$\n

test: show-all long
cmd: cat --show-all --number-nonblank input
in: \ta\n\n
out:      1\t^Ia$\n$\n

test: all bytes with -v
cmd: cat -v input
in: \x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f\x20\x21\x22\x23\x24\x25\x26\x27\x28\x29\x2a\x2b\x2c\x2d\x2e\x2f\x30\x31\x32\x33\x34\x35\x36\x37\x38\x39\x3a\x3b\x3c\x3d\x3e\x3f\x40\x41\x42\x43\x44\x45\x46\x47\x48\x49\x4a\x4b\x4c\x4d\x4e\x4f\x50\x51\x52\x53\x54\x55\x56\x57\x58\x59\x5a\x5b\x5c\x5d\x5e\x5f\x60\x61\x62\x63\x64\x65\x66\x67\x68\x69\x6a\x6b\x6c\x6d\x6e\x6f\x70\x71\x72\x73\x74\x75\x76\x77\x78\x79\x7a\x7b\x7c\x7d\x7e\x7f\x80\x81\x82\x83\x84\x85\x86\x87\x88\x89\x8a\x8b\x8c\x8d\x8e\x8f\x90\x91\x92\x93\x94\x95\x96\x97\x98\x99\x9a\x9b\x9c\x9d\x9e\x9f\xa0\xa1\xa2\xa3\xa4\xa5\xa6\xa7\xa8\xa9\xaa\xab\xac\xad\xae\xaf\xb0\xb1\xb2\xb3\xb4\xb5\xb6\xb7\xb8\xb9\xba\xbb\xbc\xbd\xbe\xbf\xc0\xc1\xc2\xc3\xc4\xc5\xc6\xc7\xc8\xc9\xca\xcb\xcc\xcd\xce\xcf\xd0\xd1\xd2\xd3\xd4\xd5\xd6\xd7\xd8\xd9\xda\xdb\xdc\xdd\xde\xdf\xe0\xe1\xe2\xe3\xe4\xe5\xe6\xe7\xe8\xe9\xea\xeb\xec\xed\xee\xef\xf0\xf1\xf2\xf3\xf4\xf5\xf6\xf7\xf8\xf9\xfa\xfb\xfc\xfd\xfe\xff
out: ^@^A^B^C^D^E^F^G^H\t\n
out: ^K^L^M^N^O^P^Q^R^S^T^U^V^W^X^Y^Z^[^\\^]^^^_ !"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~^?M-^@M-^AM-^BM-^CM-^DM-^EM-^FM-^GM-^HM-^IM-^JM-^KM-^LM-^MM-^NM-^OM-^PM-^QM-^RM-^SM-^TM-^UM-^VM-^WM-^XM-^YM-^ZM-^[M-^\\M-^]M-^^M-^_M- M-!M-"M-#M-$M-%M-&M-'M-(M-)M-*M-+M-,M--M-.M-/M-0M-1M-2M-3M-4M-5M-6M-7M-8M-9M-:M-;M-<M-=M->M-?M-@M-AM-BM-CM-DM-EM-FM-GM-HM-IM-JM-KM-LM-MM-NM-OM-PM-QM-RM-SM-TM-UM-VM-WM-XM-YM-ZM-[M-\\M-]M-^M-_M-`M-aM-bM-cM-dM-eM-fM-gM-hM-iM-jM-kM-lM-mM-nM-oM-pM-qM-rM-sM-tM-uM-vM-wM-xM-yM-zM-{M-|M-}M-~M-^?

test: number beyond six digits
cmd: seq 1000000 | cat -n | tail -n 2
out: 999999\t999999\n1000000\t1000000\n

test: missing file
cmd: cat nope
out:
err: cat: nope: No such file or directory\n
status: 1

test: missing file among others keeps going
cmd: cat a nope b
file: a=A\n
file: b=B\n
out: A\nB\n
err: cat: nope: No such file or directory\n
status: 1

test: missing file with space is quoted
cmd: cat 'no such'
out:
err: cat: 'no such': No such file or directory\n
status: 1

test: missing file with quote char
cmd: cat "it's"
out:
err: cat: "it's": No such file or directory\n
status: 1

test: directory
cmd: mkdir d; cat d
out:
err: cat: d: Is a directory\n
status: 1

test: invalid option
cmd: cat -x
out:
err: cat: invalid option -- 'x'\n
err: Try 'cat --help' for more information.\n
status: 1

test: unrecognized long option
cmd: cat --frobnicate
out:
err: cat: unrecognized option '--frobnicate'\n
err: Try 'cat --help' for more information.\n
status: 1

test: double dash
cmd: cat -- -n
file: -n=dash n\n
out: dash n\n

test: large file copies
cmd: seq 200000 > big; cat big big | wc -lc
out:  400000 2577790\n

test: long line
cmd: head -c 2000000 /dev/zero | tr '\0' x | cat -n | wc -c
out: 2000007\n

test: abbreviated long options
cmd: printf 'a\tb\n\n\n\nc\n' | cat --show-e --squ --show-t
out: a^Ib$\n$\nc$\n
