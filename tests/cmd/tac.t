# tac: records in reverse order, -b, -s, -r.

test: lines
cmd: tac input
in: a\nb\nc\n
out: c\nb\na\n

test: last line without newline
cmd: tac input | od -c
in: a\nb\nc
out: 0000000   c   b  \\n   a  \\n\n0000005\n

test: before
cmd: tac -b input | od -c
in: a\nb\nc\n
out: 0000000  \\n  \\n   c  \\n   b   a\n0000006\n

test: separator
cmd: tac -s, input
in: a,b,c,
out: c,b,a,

test: separator before
cmd: tac -b -s, input
in: a,b,c,
out: ,,c,ba

test: multi-byte separator
cmd: tac -s AB input
in: xxABxxABxABAB
out: ABxABxxABxxAB

test: multi-byte separator before
cmd: tac -b -s AB input
in: xxABxxABxABAB
out: ABABABxABxxxx

test: regex separator
cmd: tac -r -s '[0-9]+' input
in: a1b22c
out: c2b2a1

test: regex star
cmd: tac -r -s 'A*B' input
in: xxABxxABxABAB
out: ABxABxxABxxAB

test: regex alternation
cmd: tac -r -s 'x\|B' input
in: xxABxxABxABAB
out: ABABxABxxABxx

test: empty separator is nul
cmd: printf 'a\0b\0' | tac -s '' | od -c
out: 0000000   b  \\0   a  \\0\n0000004\n

test: several files separately
cmd: tac a b
file: a=1\n2\n
file: b=3\n4
out: 2\n1\n43\n

test: stdin
cmd: printf 'x\ny\n' | tac
out: y\nx\n

test: empty input
cmd: tac input
in:
out:

test: missing file
cmd: tac nope a
file: a=x\n
out: x\n
err: tac: failed to open 'nope' for reading: No such file or directory\n
status: 1

test: big
cmd: seq 100000 | tac | head -n 2
out: 100000\n99999\n

test: long options abbreviated
cmd: printf 'a,b,c,' | tac --sep=, --bef; echo; printf 'a1b2c' | tac --reg -s '[0-9]'; echo
out: ,,c,ba\ncb2a1\n
