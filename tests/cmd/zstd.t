# zstd, unzstd, zstdcat (libzstd; the zstd 1.5 CLI's frames and file rules).
# stderr is only checked for errors: the CLI's summary lines are for terminals.

test: compress and decompress a file, the source kept
cmd: echo hello > a; zstd -q a; ls; rm a; zstd -q -d a.zst; cat a; ls
out: a\na.zst\nhello\na\na.zst\n

test: the CLI's bytes at several levels and from stdin
cmd: seq 1 20000 > n; for l in -1 -3 -9 -19; do zstd -q -c $l n | cksum; done; zstd -q < n | cksum; seq 5 | zstd -q | zstd -q -d
out: 4175463831 46243\n1321989840 26672\n2556510250 14172\n2056663161 24973\n115746749 26870\n1\n2\n3\n4\n5\n

test: zstdcat, unzstd, -o, --rm and concatenated frames
cmd: echo one > a; echo two > b; zstd -q a b; cat a.zst b.zst > ab.zst; zstdcat ab.zst; rm a; unzstd -q a.zst; cat a; zstd -q --rm b -o c.zst; ls; zstd -q -d -c c.zst
out: one\ntwo\none\na\na.zst\nab.zst\nb.zst\nc.zst\ntwo\n

test: an existing output is kept without -f
cmd: echo x > a; zstd -q a; echo y > a; zstd -q a; echo $?; zstd -q -f a; zstd -q -dc a.zst
out: 1\ny\n

test: -t tests integrity, bad input fails
cmd: echo x | zstd -q > good.zst; zstd -q -t good.zst; echo $?; echo bad > bad.zst; zstd -q -t bad.zst 2>/dev/null; echo $?; head -c 10 good.zst > cut.zst; zstd -q -dc cut.zst 2>/dev/null; echo $?
out: 0\n1\nx1\n

test: errors
cmd: zstd -q nosuch; echo $?; echo bad > bad.zst; zstd -q -d bad.zst; echo $?; echo x > f; zstd -q -d f; echo $?
out: 1\n1\n1\n
err: zstd: can't stat nosuch : No such file or directory -- ignored \nzstd: bad.zst: unsupported format \n
err: zstd: f: unknown suffix (.zst/.tzst/.gz/.tgz/.lzma/.xz/.txz/.lz4/.tlz4 expected). Can't derive the output file name. Specify it with -o dstFileName. Ignoring.\n

test: tar archives through zstd
cmd: mkdir d; echo hi > d/a; tar cf - d | zstd -q > d.tar.zst; rm -r d; zstd -q -dc d.tar.zst | tar xf -; cat d/a; tar --zstd -xOf d.tar.zst d/a
out: hi\nhi\n

# zstd itself takes whole long names only: sbx's getopt also takes unambiguous abbreviations
test: long options abbreviated; --u is ambiguous
cmd: echo hi > a; zstd -q --kee a; zstd -q --dec --stdo a.zst; zstd -q --fast=3 --stdout a | zstd -dc; zstd --u a; echo $?; ls
out: hi\nhi\n1\na\na.zst\n
err: zstd: option '--u' is ambiguous; possibilities: '--ultra' '--uncompress'\nTry 'zstd --help' for more information.\n
host: skip
