# mktemp: names with random X's, files 0600, directories 0700.

test: a file from a template
cmd: f=$(mktemp -p . aXXXXX); ls -l "$f" | cut -c1-10; echo "${f%?????}NNNNN"
out: -rw-------\n./aNNNNN\n

test: a directory
cmd: d=$(mktemp -d -p . dXXX); ls -ld "$d" | cut -c1-10
out: drwx------\n

test: default in TMPDIR
cmd: mkdir t; f=$(TMPDIR=$PWD/t mktemp); b=$(basename "$f"); echo "${b%??????????}N"
out: tmp.N\n

test: --suffix
cmd: f=$(mktemp -p . --suffix=.txt xXXX); echo "${f%???.txt}NNN.txt"
out: ./xNNN.txt\n

test: suffix after the X's
cmd: f=$(mktemp -p . xXXXy); echo "${f%???y}NNNy"
out: ./xNNNy\n

test: -u does not create
cmd: f=$(mktemp -u -p . zXXX); ls "$f" 2>/dev/null; echo $?
out: 2\n

test: too few X's
cmd: mktemp abc
out:
err: mktemp: too few X's in template \xe2\x80\x98abc\xe2\x80\x99\n
status: 1

test: missing directory
cmd: mktemp -p /nonexistent-dir
out:
err: mktemp: failed to create file via template \xe2\x80\x98/nonexistent-dir/tmp.XXXXXXXXXX\xe2\x80\x99: No such file or directory\n
status: 1

test: -q
cmd: mktemp -q -p /nonexistent-dir; echo $?
out: 1\n
err:

test: -t with a slash
cmd: mktemp -t a/bXXX
out:
err: mktemp: invalid template, \xe2\x80\x98a/bXXX\xe2\x80\x99, contains directory separator\n
status: 1

test: names differ
cmd: a=$(mktemp -p . fXXXXXX); b=$(mktemp -p . fXXXXXX); [ "$a" != "$b" ] && echo different
out: different\n

test: long options abbreviated; the last of -p and --tmpdir counts
cmd: mkdir d e; mktemp --tmp=d --suf=.txt --dry XXXXXX | grep -c '^d/[^/]*\.txt$'
cmd: mktemp -p d --tmpdir=e -u XXX | cut -c1-2; mktemp --tmpdir=e -p d -u XXX | cut -c1-2
cmd: mktemp --d; echo $?
out: 1\ne/\nd/\n1\n
err: mktemp: option '--d' is ambiguous; possibilities: '--directory' '--dry-run'\n
err: Try 'mktemp --help' for more information.\n
