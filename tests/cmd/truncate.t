# truncate: absolute and relative sizes, --reference, -c.

test: set a size
cmd: truncate -s 10 f; wc -c < f
out: 10\n

test: extends with zeros
cmd: printf ab > f; truncate -s 4 f; od -An -c f
out:    a   b  \\0  \\0\n

test: shrink
cmd: printf abcdef > f; truncate -s 2 f; cat f
out: ab

test: relative sizes
cmd: truncate -s 10 f; truncate -s +5 f; wc -c < f; truncate -s -3 f; wc -c < f; truncate -s '<5' f; wc -c < f; truncate -s '>20' f; wc -c < f
out: 15\n12\n5\n20\n

test: rounding
cmd: truncate -s 20 f; truncate -s %7 f; wc -c < f; truncate -s /4 f; wc -c < f
out: 21\n20\n

test: units
cmd: truncate -s 1K f; wc -c < f; truncate -s 1KB f; wc -c < f; truncate -s 1KiB f; wc -c < f
out: 1024\n1000\n1024\n

test: shrinking below zero stops at zero
cmd: truncate -s 5 f; truncate -s -100 f; wc -c < f
out: 0\n

test: --reference
cmd: truncate -s 7 r; truncate -r r f; wc -c < f; truncate -r r -s +1 f; wc -c < f
out: 7\n8\n

test: -c does not create
cmd: truncate -c -s 5 nope; ls
out:

test: missing size
cmd: truncate f
out:
err: truncate: you must specify either \xe2\x80\x98--size\xe2\x80\x99 or \xe2\x80\x98--reference\xe2\x80\x99\nTry 'truncate --help' for more information.\n
status: 1

test: invalid number
cmd: truncate -s x f
out:
err: truncate: Invalid number: \xe2\x80\x98x\xe2\x80\x99\n
status: 1

test: missing directory
cmd: truncate -s 5 d/nope
out:
err: truncate: cannot open 'd/nope' for writing: No such file or directory\n
status: 1

test: a directory
cmd: mkdir d; truncate -s 1 d
out:
err: truncate: cannot open 'd' for writing: Is a directory\n
status: 1

test: rounding up past the largest size is an overflow
cmd: printf abc > f; truncate -s 4611686018427387906 f && truncate -s %4611686018427387905 f; echo $?; stat -c %s f
out: 1\n4611686018427387906\n
err: truncate: overflow extending size of file 'f'\n
host: skip
# sandbox-only: a 4 EiB sparse file is beyond the host's file systems

test: long options abbreviated, and one without its argument
cmd: printf abcdef > f; truncate --si=2 f; truncate --ref f --no g; cat f; echo; ls; truncate f --size
out: ab\nf\n
err: truncate: option '--size' requires an argument\nTry 'truncate --help' for more information.\n
status: 1
