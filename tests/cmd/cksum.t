# cksum: POSIX CRC by default, -a for the other algorithms (coreutils 9.1).

test: crc file and stdin
cmd: cksum input; cksum < input
in: hello\n
out: 3015617425 6 input\n3015617425 6\n

test: crc several
cmd: cksum a b /dev/null
file: a=abc
file: b=\x00\xff
out: 1219131554 3 a\n3099779160 2 b\n4294967295 0 /dev/null\n

test: crc big
cmd: seq 100000 | cksum
out: 2052179976 588895\n

test: md5 tagged by default
cmd: cksum -a md5 input
in: hello\n
out: MD5 (input) = b1946ac92492d2347c6235b4d2611184\n

test: untagged
cmd: cksum -a md5 --untagged input
in: hello\n
out: b1946ac92492d2347c6235b4d2611184  input\n

test: sha256
cmd: cksum -a sha256 input
in: hello\n
out: SHA256 (input) = 5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03\n

test: blake2b length
cmd: cksum -a blake2b -l 128 input
in: hello\n
out: BLAKE2b-128 (input) = ea41b4de6c03f13a95758b28dd75693e\n

test: sysv and bsd
cmd: cksum -a sysv input; cksum -a bsd input; cksum -a crc input
in: hello\n
out: 542 1 input\n36979     1 input\n3015617425 6 input\n

test: check tagged lines
cmd: cksum -a md5 input > s; cksum -a sha1 input >> s; cksum -c s
in: hello\n
out: input: OK\ninput: OK\n

test: check with algorithm
cmd: cksum -a md5 input > s; cksum -a md5 -c s
in: hello\n
out: input: OK\n

test: check other algorithm
cmd: cksum -a md5 input > s; cksum -a sha1 -c s
in: hello\n
out:
err: cksum: s: no properly formatted checksum lines found\n
status: 1

test: check crc unsupported
cmd: cksum -c s
file: s=x
out:
err: cksum: s: no properly formatted checksum lines found\n
status: 1

test: invalid algorithm
cmd: cksum -a x input
in: hello\n
out:
err: cksum: invalid argument ‘x’ for ‘--algorithm’\n
err: Valid arguments are:\n  - ‘bsd’\n  - ‘sysv’\n
err:   - ‘crc’\n  - ‘md5’\n  - ‘sha1’\n  - ‘sha224’\n
err:   - ‘sha256’\n  - ‘sha384’\n  - ‘sha512’\n
err:   - ‘blake2b’\n  - ‘sm3’\n
err: Try 'cksum --help' for more information.\n
status: 1

test: missing file
cmd: cksum nope
out:
err: cksum: nope: No such file or directory\n
status: 1

test: abbreviated long options; the last of --tag and --untagged counts
cmd: cksum --algo=md5 --tag --untag input; cksum --a=sha1 --untag --tag input
in: abc\n
out: 0bee89b07a248e27c83fc3d5951213c1  input\nSHA1 (input) = 03cfd743661f07975fa2f1220c5194cbaff48451\n

test: an ambiguous prefix lists the long options in order
cmd: cksum --s
out:
err: cksum: option '--s' is ambiguous; possibilities: '--status' '--strict'\nTry 'cksum --help' for more information.\n
status: 1
