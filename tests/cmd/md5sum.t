# md5sum: digests, output styles, and the --check machinery shared by the *sum commands.

test: file and stdin
cmd: printf 'hello\n' | md5sum input -
in: abc
out: 900150983cd24fb0d6963f7d28e17f72  input\n
out: b1946ac92492d2347c6235b4d2611184  -\n

test: empty input
cmd: md5sum < /dev/null
out: d41d8cd98f00b204e9800998ecf8427e  -\n

test: binary marker
cmd: md5sum -b input
in: abc
out: 900150983cd24fb0d6963f7d28e17f72 *input\n

test: text marker
cmd: md5sum -t input
in: abc
out: 900150983cd24fb0d6963f7d28e17f72  input\n

test: tag
cmd: md5sum --tag input
in: abc
out: MD5 (input) = 900150983cd24fb0d6963f7d28e17f72\n

test: zero terminated
cmd: md5sum -z input | od -c
in: abc
out: 0000000   9   0   0   1   5   0   9   8   3   c   d   2   4   f   b   0\n
out: 0000020   d   6   9   6   3   f   7   d   2   8   e   1   7   f   7   2\n
out: 0000040           i   n   p   u   t  \\0\n0000050\n

test: newline in name is escaped
cmd: printf x > 'a
cmd: b'; md5sum 'a
cmd: b'
out: \\9dd4e461268c8034f5c8564e155c67a6  a\\nb\n

test: backslash in name is escaped
cmd: printf y > 'c\d'; md5sum 'c\d'
out: \\415290769594460e2e485922904f345d  c\\\\d\n

test: carriage return in name is escaped
cmd: printf z > "$(printf 'r\rx')"; md5sum * | od -c | head -n 3
out: 0000000   \\   f   b   a   d   e   9   e   3   6   a   3   f   3   6   d\n
out: 0000020   3   d   6   7   6   c   1   b   8   0   8   4   5   1   d   d\n
out: 0000040   7           r   \\   r   x  \\n\n

test: tag with escaped name
cmd: printf x > 'a
cmd: b'; md5sum --tag 'a
cmd: b'
out: \\MD5 (a\\nb) = 9dd4e461268c8034f5c8564e155c67a6\n

test: missing file
cmd: md5sum input nope
in: abc
out: 900150983cd24fb0d6963f7d28e17f72  input\n
err: md5sum: nope: No such file or directory\n
status: 1

test: directory
cmd: mkdir d; md5sum d
out:
err: md5sum: d: Is a directory\n
status: 1

test: check ok
cmd: md5sum input > sums; md5sum -c sums
in: abc
out: input: OK\n

test: check failed and missing
cmd: md5sum input > sums; echo 00000000000000000000000000000000  input >> sums; echo d41d8cd98f00b204e9800998ecf8427e  nope >> sums; echo junk >> sums; md5sum -c sums
in: abc
out: input: OK\n
err: md5sum: WARNING: 3 lines are improperly formatted\n

test: check quiet
cmd: md5sum input > sums; echo 00000000000000000000000000000000  input >> sums; md5sum -c --quiet sums
in: abc
out:
err: md5sum: WARNING: 1 line is improperly formatted\n

test: check status
cmd: md5sum input > sums; echo 00000000000000000000000000000000  input >> sums; md5sum -c --status sums; echo "rc=$?"
in: abc
out: rc=0\n

test: check status ok
cmd: md5sum input > sums; md5sum -c --status sums; echo "rc=$?"
in: abc
out: rc=0\n

test: check warn
cmd: md5sum input > sums; echo junk >> sums; md5sum -c -w sums
in: abc
out: input: OK\n
err: md5sum: sums: 2: improperly formatted MD5 checksum line\n
err: md5sum: WARNING: 1 line is improperly formatted\n

test: check strict
cmd: md5sum input > sums; echo junk >> sums; md5sum -c sums; echo "rc=$?"; md5sum -c --strict sums; echo "rc=$?"
in: abc
out: input: OK\nrc=0\ninput: OK\nrc=1\n
err: md5sum: WARNING: 1 line is improperly formatted\n
err: md5sum: WARNING: 1 line is improperly formatted\n

test: check ignore missing
cmd: md5sum input > sums; echo d41d8cd98f00b204e9800998ecf8427e  nope >> sums; md5sum -c --ignore-missing sums
in: abc
out: input: OK\n
err: md5sum: WARNING: 1 line is improperly formatted\n

test: check ignore missing nothing verified
cmd: echo d41d8cd98f00b204e9800998ecf8427e  nope > sums; md5sum -c --ignore-missing sums
in: abc
out:
err: md5sum: sums: no file was verified\n
status: 1

test: check formats
cmd: md5sum --tag input > sums; md5sum -b input >> sums; printf '# comment\n\n' >> sums; md5sum input | tr a-f A-F >> sums; md5sum -c sums
in: abc
out: input: OK\ninput: OK\ninput: OK\n

test: check single space is accepted
cmd: md5sum input | tr -s ' ' > sums; md5sum -c sums; printf '%s\n' "$(md5sum input)" >> sums; md5sum -c sums
in: abc
out: input: OK\ninput: OK\n input: FAILED open or read\n
err: md5sum: ' input': No such file or directory\n
err: md5sum: WARNING: 1 listed file could not be read\n
status: 1

test: check escaped names
cmd: printf x > 'a
cmd: b'; printf y > 'c\d'; md5sum 'a
cmd: b' 'c\d' > sums; md5sum -c sums
out: \\a\\nb: OK\nc\\d: OK\n

test: check stdin
cmd: md5sum input | md5sum -c
in: abc
out: input: OK\n

test: check garbage
cmd: echo junk | md5sum -c
out:
err: md5sum: 'standard input': no properly formatted checksum lines found\n
status: 1

test: check missing list
cmd: md5sum -c nope
out:
err: md5sum: nope: No such file or directory\n
status: 1

test: tag with check
cmd: md5sum --tag -c sums
in: abc
out:
err: md5sum: the --tag option is meaningless when verifying checksums\n
err: Try 'md5sum --help' for more information.\n
status: 1

test: check-only option without check
cmd: md5sum --quiet input
in: abc
out:
err: md5sum: the --quiet option is meaningful only when verifying checksums\n
err: Try 'md5sum --help' for more information.\n
status: 1

test: large input
cmd: seq 100000 | md5sum
out: dea9193b768319cbb4ff1a137ac03113  -\n
