# tar (GNU tar 1.34 behaviour). Member order on create is the store's sorted
# order in sbx and readdir order on the host, so listings of created archives
# are sorted before comparing.

test: create and list
cmd: mkdir -p d/e; echo hi > d/a; echo yo > d/e/b; tar cf x.tar d && tar tf x.tar | sort
out: d/\nd/a\nd/e/\nd/e/b\n

test: round trip with gzip, old-style options
cmd: mkdir -p d/e; echo hi > d/a; echo yo > d/e/b; tar czf x.tgz d && rm -r d && tar xzf x.tgz && cat d/a d/e/b
out: hi\nyo\n

test: bzip2 and xz
cmd: mkdir d; echo hi > d/a; tar cjf x.tbz d; tar cJf x.txz d; rm -r d; tar xjf x.tbz; cat d/a; rm -r d; tar xJf x.txz; cat d/a
out: hi\nhi\n

test: auto compression from the suffix
cmd: mkdir d; echo hi > d/a; tar caf x.tar.gz d; gzip -t x.tar.gz && echo gz; tar xOf x.tar.gz d/a
out: gz\nhi\n

test: extract into a directory with -C
cmd: mkdir d out; echo hi > d/a; tar cf x.tar d; tar xf x.tar -C out; cat out/d/a
out: hi\n

test: strip components
cmd: mkdir -p d/e; echo yo > d/e/b; tar cf x.tar d; mkdir out; tar xf x.tar -C out --strip-components=2; ls out
out: b\n

test: exclude
cmd: mkdir d; echo 1 > d/keep; echo 2 > d/skip.log; tar cf x.tar --exclude='*.log' d; tar tf x.tar | sort
out: d/\nd/keep\n

test: extract to stdout
cmd: mkdir d; printf 'abc' > d/a; tar cf - d | tar xOf - d/a
out: abc

test: stdin and stdout archives
cmd: mkdir d; echo z > d/a; tar cf - d | (mkdir o && cd o && tar xf - && cat d/a)
out: z\n

test: verbose create lists members
cmd: mkdir d; echo z > d/a; tar cvf x.tar d | sort
out: d/\nd/a\n

test: symlinks are archived as links
cmd: mkdir d; echo z > d/a; ln -s a d/l; tar cf x.tar d; rm -r d; tar xf x.tar; readlink d/l; cat d/l
out: a\nz\n

test: modes and times are restored
cmd: mkdir d; echo z > d/a; chmod 640 d/a; touch -d '2020-01-02 03:04:05' d/a; tar cf x.tar d; rm -r d; tar xf x.tar; stat -c '%a %Y' d/a
out: 640 1577934245\n

test: listing in long form
cmd: mkdir d; printf 'hello' > d/a; touch -d '2020-01-02 03:04' d/a d; chmod 644 d/a; chmod 755 d; tar cf x.tar d/a; tar tvf x.tar
out: -rw-r--r-- root/root         5 2020-01-02 03:04 d/a\n

test: missing archive
cmd: tar xf nope.tar
out:
err: tar: nope.tar: Cannot open: No such file or directory\ntar: Error is not recoverable: exiting now\n
status: 2

test: missing member on create
cmd: tar cf x.tar nope; echo "rc=$?"
out: rc=2\n
err: tar: nope: Cannot stat: No such file or directory\ntar: Exiting with failure status due to previous errors\n

test: no mode given
cmd: tar f x.tar
out:
err: tar: You must specify one of the '-Acdtrux', '--delete' or '--test-label' options\nTry 'tar --help' or 'tar --usage' for more information.\n
status: 2

test: empty archive refused
cmd: tar cf x.tar
out:
status: 2

test: not an archive
cmd: tar tf input
in: this is not a tar file at all, just some text that is long enough\n
out:
status: 2

test: absolute member names lose the leading slash
cmd: mkdir d; echo z > d/a; tar cf x.tar "$PWD/d/a" 2>err; mkdir out; tar xf x.tar -C out 2>/dev/null; find out -type f | sed 's,.*/d/,d/,'; cat err
out: d/a\ntar: Removing leading `/' from member names\n
