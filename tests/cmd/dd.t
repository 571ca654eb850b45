# dd: GNU's record counts on stderr (the third line has a wall time: tests
# keep the first two, or status=none).

test: records in and out of a short file
cmd: printf 'hello' > f; dd if=f 2>&1 >/dev/null | head -2
out: 0+1 records in\n0+1 records out\n

test: full and partial records with bs
cmd: head -c 1024 /dev/zero > z; dd if=z bs=100 2>&1 >/dev/null | head -2; dd if=z bs=100 status=none | wc -c
out: 10+1 records in\n10+1 records out\n1024\n

test: ibs and obs cut records differently
cmd: printf 'hello' > f; dd if=f ibs=2 obs=3 2>&1 >/dev/null | head -2
out: 2+1 records in\n1+1 records out\n

test: skip count and conv=ucase
cmd: printf 'hello world' > f; dd if=f bs=3 count=2 skip=1 conv=ucase 2>/dev/null; echo; dd if=f bs=1 skip=6 count=3 of=g 2>/dev/null; cat g; echo
out: LO WOR\nwor\n

test: conv=sync pads the last record
cmd: printf 'ab' > f; dd if=f bs=4 conv=sync status=none | od -c
out: 0000000   a   b  \\0  \\0\n0000004\n

test: seek with notrunc overwrites in place
cmd: printf 'abcdef' > o; printf 'XY' | dd of=o bs=1 seek=2 conv=notrunc status=none; cat o; echo
out: abXYef\n

test: seek without notrunc truncates at the seek offset
cmd: printf 'abcdef' > o; printf 'XY' | dd of=o seek=2 bs=1 status=none; cat o; echo
out: abXY\n

test: count_bytes and fullblock
cmd: head -c 5000 /dev/zero > z; dd if=z of=g bs=1K count=2 iflag=count_bytes,fullblock status=none; wc -c < g; dd if=/dev/zero bs=2x3 count=1 status=none | wc -c
out: 2\n6\n

test: the bytes line
cmd: printf 'hello' > f; dd if=f 2>&1 >/dev/null | tail -1 | sed 's/ copied.*//'; head -c 2048 /dev/zero > z; dd if=z 2>&1 >/dev/null | tail -1 | sed 's/ copied.*//'; dd if=z status=noxfer 2>&1 >/dev/null | wc -l
out: 5 bytes\n2048 bytes (2.0 kB, 2.0 KiB)\n2\n

test: a missing input
cmd: dd if=nope
out:
err: dd: failed to open 'nope': No such file or directory\n
status: 1

test: bad operands
cmd: dd bs=0; dd foo=1; dd conv=lcase,ucase
out:
err: dd: invalid number: ‘0’\ndd: unrecognized operand ‘foo=1’\nTry 'dd --help' for more information.\ndd: cannot combine lcase and ucase\n
status: 1

# k is K (1024) as in GNU's xstrtoumax; kB is 1000, kiB 1024; m and g are not suffixes
test: lowercase k suffix
cmd: seq 2000 > f; dd if=f bs=1k count=2 2>/dev/null | wc -c; dd if=f of=g seek=2k count=0 2>/dev/null; stat -c %s g
out: 2048\n1048576\n

test: kB and kiB suffixes
cmd: seq 2000 > f; dd if=f bs=1kB count=2 2>/dev/null | wc -c; dd if=f bs=2kiB count=1 2>/dev/null | wc -c
out: 2000\n2048\n

test: lowercase m is not a suffix
cmd: dd if=/dev/null bs=1m
out:
err: dd: invalid number: ‘1m’\n
status: 1
