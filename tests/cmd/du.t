# du: the sandbox counts whole 4 KiB blocks like ext4 (directories 4 KiB).

test: a directory tree
cmd: mkdir -p d/e; head -c 5000 /dev/zero > d/f; echo x > d/e/g; du d
out: 8\td/e\n20\td\n

test: -a lists files too
cmd: mkdir -p d/e; echo x > d/e/g; du -a d
out: 4\td/e/g\n8\td/e\n12\td\n

test: -s
cmd: mkdir -p d/e; echo x > d/e/g; du -s d
out: 12\td\n

test: -h
cmd: mkdir -p d/e; head -c 5000 /dev/zero > d/f; du -sh d
out: 16K\td\n

test: -b apparent bytes
cmd: mkdir -p d; head -c 5000 /dev/zero > d/f; du -b d
out: 9096\td\n

test: --apparent-size in KiB rounds up
cmd: mkdir -p d; head -c 5000 /dev/zero > d/f; du --apparent-size d
out: 9\td\n

test: -c total
cmd: mkdir a b; echo x > a/f; du -c a b
out: 8\ta\n4\tb\n12\ttotal\n

test: a directory inside another operand is counted once
cmd: mkdir -p d/e; du -c d d/e
out: 4\td/e\n8\td\n8\ttotal\n

test: --max-depth
cmd: mkdir -p d/e/f; du --max-depth=1 d; du -d 0 d
out: 8\td/e\n12\td\n12\td\n

test: -S separates directories
cmd: mkdir -p d/e; echo x > d/e/g; du -S d
out: 8\td/e\n4\td\n

test: hard links are counted once
cmd: mkdir d; head -c 5000 /dev/zero > d/f; ln d/f d/hl; du -s d; du -sl d
out: 12\td\n20\td\n

test: a file operand
cmd: echo x > f; du f; du -b f
out: 4\tf\n2\tf\n

test: empty file
cmd: touch f; du f
out: 0\tf\n

test: -k and -m
cmd: mkdir d; head -c 5000 /dev/zero > d/f; du -sk d; du -sm d
out: 12\td\n1\td\n

test: --inodes
cmd: mkdir -p d/e; touch d/f d/e/g; du --inodes d
out: 2\td/e\n4\td\n

test: --exclude
cmd: mkdir -p d/e; echo x > d/e/g; du --exclude=e d
out: 4\td\n

test: -0
cmd: mkdir d; du -0 d
out: 4\td\0

test: --time with a style
cmd: mkdir d; touch -d '2020-01-01 10:00' d/f; touch -d '2019-01-01' d; du --time --time-style=+%Y d
out: 4\t2020\td\n

test: missing file
cmd: du nope
out:
err: du: cannot access 'nope': No such file or directory\n
status: 1

test: default is the current directory
cmd: du
out: 4\t.\n

test: symlinks count nothing
cmd: mkdir d; ln -s somewhere d/l; du -a d
out: 0\td/l\n4\td\n

test: -s with -a is an error
cmd: du -sa .
out:
err: du: cannot both summarize and show all entries\nTry 'du --help' for more information.\n
status: 1

# ---- audit4 ----
test: audit: mkdir d; printf 'hello\n' > d/f1; ln -s f1 d/l; ln -s f1 d/l2; du -L d
cmd: mkdir d; printf 'hello\n' > d/f1; ln -s f1 d/l; ln -s f1 d/l2; du -L d; du -a d | sort -k2
out: 8\td\n8\td\n4\td/f1\n0\td/l\n0\td/l2\n
err: 

# --files0-from=F: NUL-separated operands from a file or stdin
test: files0-from file
cmd: mkdir -p d/e; echo x > d/e/g; echo y > f; printf 'd\0f\0' > list; du --files0-from=list
out: 8\td/e\n12\td\n4\tf\n

test: files0-from stdin with total and a last name without NUL
cmd: mkdir a b; echo x > a/f; printf 'a\0b' | du -c --files0-from=-
out: 8\ta\n4\tb\n12\ttotal\n

test: files0-from a repeated directory counts once
cmd: mkdir a; echo x > a/f; printf 'a\0a\0' | du -c --files0-from=-
out: 8\ta\n8\ttotal\n

test: files0-from empty list
cmd: printf '' | du --files0-from=-; echo $?
out: 0\n

test: files0-from bad names go on
cmd: mkdir a; printf 'a\0\0nope\0' | du --files0-from=-
out: 4\ta\n
err: du: -:2: invalid zero-length file name\ndu: cannot access 'nope': No such file or directory\n
status: 1

test: files0-from dash from stdin
cmd: printf -- '-\0' | du --files0-from=-
out:
err: du: when reading file names from stdin, no file name of '-' allowed\n
status: 1

test: files0-from missing list
cmd: du --files0-from=nolist
out:
err: du: cannot open 'nolist' for reading: No such file or directory\n
status: 1

test: files0-from with operands
cmd: du --files0-from=nolist x
out:
err: du: extra operand ‘x’\nfile operands cannot be combined with --files0-from\nTry 'du --help' for more information.\n
status: 1

# -t at the ends of intmax_t: -2^63 negated was UB (found by tests/cmd/crashhunt.py)
test: threshold extremes
cmd: du -t -9223372036854775808 f; echo $?; du -t 9223372036854775807 f; echo $?
cmd: du -t 9223372036854775808 f; echo $?; du -t -9223372036854775809 f; echo $?
cmd: du -t 99999999999999999999999 f; echo $?; du -t 8E f; echo $?; du -t -0 f; echo $?
file: f=x
out: 4\tf\n0\n0\n1\n1\n1\n1\n1\n
err: du: -t argument '9223372036854775808' too large\ndu: -t argument '-9223372036854775809' too large\n
err: du: -t argument '99999999999999999999999' too large\ndu: -t argument '8E' too large\n
err: du: invalid --threshold argument '-0'\n

test: DU_BLOCK_SIZE before BLOCK_SIZE; a bad one is ignored
cmd: mkdir d; DU_BLOCK_SIZE=1K BLOCK_SIZE=1M du -s d; BLOCK_SIZE=1M du -s d; DU_BLOCK_SIZE=x du -s d
out: 4\td\n1\td\n4\td\n

test: abbreviated long options with arguments: --max, --exclude-f, --time-st
cmd: mkdir -p d/e d/x; echo x > xs; du --max=0 --exclude-f=xs d; du --time --time-st=+T --max 0 d
out: 8\td\n12\tT\td\n

test: an ambiguous prefix of a long-only option and a letter's long name
cmd: du --excl x .
out:
err: du: option '--excl' is ambiguous; possibilities: '--exclude' '--exclude-from'\n
err: Try 'du --help' for more information.\n
status: 1
