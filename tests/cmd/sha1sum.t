# sha1sum (shares md5sum's code; see md5sum.t for --check details).

test: digest
cmd: sha1sum input; printf '' | sha1sum
in: hello\n
out: f572d396fae9206628714fb2ce00f72e94f2258f  input\n
out: da39a3ee5e6b4b0d3255bfef95601890afd80709  -\n

test: tag and binary
cmd: sha1sum --tag input; sha1sum -b input
in: hello\n
out: SHA1 (input) = f572d396fae9206628714fb2ce00f72e94f2258f\n
out: f572d396fae9206628714fb2ce00f72e94f2258f *input\n

test: check
cmd: sha1sum input > s; echo 0000000000000000000000000000000000000000  input >> s; sha1sum -c s
in: hello\n
out: input: OK\n
err: sha1sum: WARNING: 1 line is improperly formatted\n

test: tagged check of another algorithm is improper
cmd: md5sum --tag input > s; sha1sum -c s
in: hello\n
out:
err: sha1sum: s: no properly formatted checksum lines found\n
status: 1
