# join: pairing sorted files on a field.

test: default
cmd: join a b
file: a=a 1\nb 2\nb 3\nd 4\n
file: b=a x\nb y\nb z\nc w\n
out: a 1 x\nb 2 y\nb 2 z\nb 3 y\nb 3 z\n

test: unpairable from file one
cmd: join -a1 a b
file: a=a 1\nb 2\nb 3\nd 4\n
file: b=a x\nb y\nb z\nc w\n
out: a 1 x\nb 2 y\nb 2 z\nb 3 y\nb 3 z\nd 4\n

test: only unpairable
cmd: join -a2 -v1 a b
file: a=a 1\nb 2\nb 3\nd 4\n
file: b=a x\nb y\nb z\nc w\n
out: c w\nd 4\n

test: both unpairable only
cmd: join -v1 -v2 a b
file: a=a 1\nb 2\nd 4\n
file: b=a x\nc w\n
out: b 2\nc w\nd 4\n

test: output format
cmd: join -o 1.2,2.2,0 a b
file: a=a 1\nb 2\nb 3\nd 4\n
file: b=a x\nb y\nb z\nc w\n
out: 1 x a\n2 y b\n2 z b\n3 y b\n3 z b\n

test: output format with empty filler
cmd: join -a1 -a2 -e E -o 0,1.2,2.2 a b
file: a=a 1\nb 2\nd 4\n
file: b=a x\nb y\nc w\n
out: a 1 x\nb 2 y\nc E w\nd 4 E\n

test: output format blank separated
cmd: join -a1 -o '1.1 2.2' a b
file: a=a 1\nd 4\n
file: b=a x\n
out: a x\nd \n

test: auto format
cmd: join -o auto -a1 -e X a b
file: a=a 1\nb 2\nd 4\n
file: b=a x\nb y\n
out: a 1 x\nb 2 y\nd 4 X\n

test: missing field is empty
cmd: join -o 1.5 a b
file: a=a 1\n
file: b=a x\n
out: \n

test: separator
cmd: join -t: a b
file: a=k:1:2\nm:3\n
file: b=k:a\nm:b:c\n
out: k:1:2:a\nm:3:b:c\n

test: separator auto
cmd: join -t: -o auto a b; join -t: -o auto -e '?' a b
file: a=k:1:2\nm:3\n
file: b=k:a\nm:b:c\n
out: k:1:2:a\nm:3::b\nk:1:2:a\nm:3:?:b\n

test: separator with unpairables
cmd: join -t: -a1 -a2 a b
file: a=k:1\nz:9\n
file: b=a:0\nk:2\n
out: a:0\nk:1:2\nz:9\n

test: whole line key
cmd: join -t '' a a
file: a=a 1\nb 2\n
out: a 1\nb 2\n

test: leading blanks ignored
cmd: join a b
file: a=  a   1\nb 2\n
file: b=a x\nb y\n
out: a 1 x\nb 2 y\n

test: other join fields
cmd: join -1 2 -2 1 a b
file: a=1 a\n2 b\n
file: b=a X\nb Y\n
out: a 1 X\nb 2 Y\n

test: join field j
cmd: join -j 2 a b
file: a=1 a\n2 b\n
file: b=3 a\n4 c\n
out: a 1 3\n

test: header
cmd: join --header a b
file: a=h1 h2\na 1\n
file: b=h1 h3\na 2\n
out: h1 h2 h3\na 1 2\n

test: ignore case
cmd: join -i a b
file: a=a 1\nb 2\n
file: b=A q\n
out: a 1 q\n

test: unsorted warning
cmd: join a b; echo "rc=$?"
file: a=b 1\na 2\n
file: b=a x\nb y\nb z\nc w\n
out: b 1 y\nb 1 z\nrc=1\n
err: join: a:2: is not sorted: a 2\n
err: join: input is not in sorted order\n

test: unsorted fatal with check order
cmd: join --check-order a b; echo "rc=$?"
file: a=b 1\na 2\n
file: b=a x\nb y\n
out: rc=1\n
err: join: a:2: is not sorted: a 2\n

test: no check order
cmd: join --nocheck-order a b; echo "rc=$?"
file: a=b 1\na 2\n
file: b=a x\nb y\n
out: b 1 y\nrc=0\n

test: zero terminated
cmd: printf 'a 1\0b 2\0' > a; printf 'a x\0' > b; join -z a b | od -c
out: 0000000   a       1       x  \\0\n0000006\n

test: stdin
cmd: printf 'a 1\n' | join - b
file: b=a x\n
out: a 1 x\n

test: both stdin
cmd: join - -
out:
err: join: both files cannot be standard input: No such file or directory\n
status: 1

test: invalid file number
cmd: join -o 3.1 a b
file: a=a\n
file: b=a\n
out:
err: join: invalid file number in field spec: ‘3.1’\n
status: 1

test: invalid spec
cmd: join -o x a b
file: a=a\n
file: b=a\n
out:
err: join: invalid file number in field spec: ‘x’\n
status: 1

test: invalid unpaired file
cmd: join -v 3 a b
file: a=a\n
file: b=a\n
out:
err: join: invalid field number: ‘3’\n
status: 1

test: invalid field
cmd: join -1 0 a b
file: a=a\n
file: b=a\n
out:
err: join: invalid field number: ‘0’\n
status: 1

test: multi-character tab
cmd: join -t ab a b
file: a=a\n
file: b=a\n
out:
err: join: multi-character tab ‘ab’\n
status: 1

test: missing operand
cmd: join a
file: a=a\n
out:
err: join: missing operand after ‘a’\n
err: Try 'join --help' for more information.\n
status: 1

test: missing file
cmd: join nope a
file: a=a\n
out:
err: join: nope: No such file or directory\n
status: 1

test: big many to many
cmd: for i in 1 2 3; do echo "k $i"; done > a; for i in x y; do echo "k $i"; done > b; join a b
out: k 1 x\nk 1 y\nk 2 x\nk 2 y\nk 3 x\nk 3 y\n

test: abbreviated --header and --ignore-case
cmd: printf 'k v\nA 1\n' > x; printf 'k w\na 2\n' > y; join --head --ign x y
out: k v w\nA 1 2\n
