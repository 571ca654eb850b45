# base32: like base64 with 8-character groups.

test: encode
cmd: base32 input
in: hello world\n
out: NBSWY3DPEB3W64TMMQFA====\n

test: encode lengths
cmd: for s in a ab abc abcd abcde abcdef; do printf $s | base32; done
out: ME======\nMFRA====\nMFRGG===\nMFRGGZA=\nMFRGGZDF\n
out: MFRGGZDFMY======\n

test: wrap
cmd: base32 -w 8 input
in: hello world\n
out: NBSWY3DP\nEB3W64TM\nMQFA====\n

test: decode
cmd: printf 'NBSWY3DP' | base32 -d
out: hello

test: decode padded
cmd: printf 'NBUQ====' | base32 -d
out: hi

test: decode incomplete group
cmd: printf 'NBUQ' | base32 -d; echo " rc=$?"
out:  rc=1\n
err: base32: invalid input\n

test: decode lower case invalid
cmd: printf 'nbuq====' | base32 -d; echo " rc=$?"
out:  rc=1\n
err: base32: invalid input\n

test: decode trailing junk
cmd: printf 'NBUQ====N' | base32 -d; echo " rc=$?"
out: hi rc=1\n
err: base32: invalid input\n

test: round trip
cmd: seq 1000 | base32 | base32 -d | md5sum; seq 1000 | md5sum
out: 53d025127ae99ab79e8502aae2d9bea6  -\n
out: 53d025127ae99ab79e8502aae2d9bea6  -\n

test: ignore garbage
cmd: printf 'NB*UQ==\n==' | base32 -di
out: hi
