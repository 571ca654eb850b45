# xz, unxz, xzcat (xz 5.4) and bzip2, bunzip2, bzcat (bzip2 1.0.8)

test: xz round trip through a pipe
cmd: xz -c input | xz -d
in: hello\n
out: hello\n

test: xz replaces the file
cmd: xz input && ls && xzcat input.xz
in: abc\n
out: input.xz\nabc\n

test: unxz restores it
cmd: xz input; unxz input.xz; cat input; ls
in: abc\n
out: abc\ninput\n

test: xz keep and existing output
cmd: xz -k input; xz -k input; echo "rc=$?"
in: a\n
out: rc=1\n
err: xz: input.xz: File exists\n

test: xz missing file
cmd: xz nope
out:
err: xz: nope: No such file or directory\n
status: 1

test: xz not in xz format
cmd: cp input bad.xz; xz -d bad.xz
in: plain text\n
out:
err: xz: bad.xz: File format not recognized\n
status: 1

test: xz test mode
cmd: xz -k input && xz -t input.xz && echo ok
in: t\n
out: ok\n

test: bzip2 round trip
cmd: bzip2 -c input | bunzip2
in: hello\n
out: hello\n

test: bzip2 replaces the file
cmd: bzip2 input && ls && bzcat input.bz2
in: abc\n
out: input.bz2\nabc\n

test: bzip2 missing file
cmd: bzip2 nope
out:
err: bzip2: Can't open input file nope: No such file or directory.\n
status: 1

test: bzip2 not a bzip2 file
cmd: cp input bad.bz2; bzip2 -d bad.bz2
in: plain text\n
out:
err: bzip2: bad.bz2 is not a bzip2 file.\n
status: 2

test: bzip2 existing output
cmd: bzip2 -k input; bzip2 -k input; echo "rc=$?"
in: a\n
out: rc=1\n
err: bzip2: Output file input.bz2 already exists.\n

test: binary data survives both
cmd: printf 'a\0b\377' | xz | xz -d | bzip2 | bzip2 -d | od -An -c
out:    a  \\0   b 377\n

# (xz's own hint line, "xz: Try `xz --help'...", is not checked)
test: long options abbreviated, --best and --fast among them; --t is ambiguous
cmd: echo hi > a; xz --bes --kee a; xz --dec --stdo a.xz; xz --fa -c a | xz -d; xz --t a.xz 2>&1 | head -n 1; ls
out: hi\nhi\nxz: option '--t' is ambiguous; possibilities: '--test' '--to-stdout' '--threads'\na\na.xz\n
