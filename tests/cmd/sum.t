# sum: BSD (default) and System V checksums.

test: bsd
cmd: sum input; sum < input
in: hello\n
out: 36979     1 input\n36979     1\n

test: sysv
cmd: sum -s input; sum -s < input
in: hello\n
out: 542 1 input\n542 1\n

test: several files
cmd: sum -r a b
file: a=abc
file: b=\x00\xff\n
out: 16556     1 a\n32905     1 b\n

test: dash
cmd: printf '' | sum -
out: 00000     0 -\n

test: big
cmd: seq 100000 | sum; seq 100000 | sum -s
out: 11497   576\n44216 1151\n

test: missing file
cmd: sum nope
out:
err: sum: nope: No such file or directory\n
status: 1

test: abbreviated --sysv; the last of -r and -s counts
cmd: sum --sys input; sum -s -r input
in: abc\n
out: 304 1 input\n08288     1 input\n
