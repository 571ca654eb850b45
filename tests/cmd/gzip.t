# gzip, gunzip, zcat (GNU gzip 1.12 behaviour)

test: round trip through a pipe
cmd: gzip -c input | gunzip
in: hello world\nsecond line\n
out: hello world\nsecond line\n

test: compress replaces the file with FILE.gz
cmd: gzip input && ls && zcat input.gz
in: abc\n
out: input.gz\nabc\n

test: keep the original with -k
cmd: gzip -k input && ls
in: abc\n
out: input\ninput.gz\n

test: gunzip restores the name
cmd: gzip input; gunzip input.gz; cat input; ls
in: data\n
out: data\ninput\n

test: existing output is not overwritten
cmd: gzip -k input; gzip input; echo "rc=$?"
in: x\n
out: rc=2\n
err: gzip: input.gz already exists;\tnot overwritten\n

test: force overwrites
cmd: gzip -k input; gzip -f input; echo "rc=$?"; ls
in: x\n
out: rc=0\ninput.gz\n

test: already has the suffix
cmd: gzip -k input; gzip input.gz; echo "rc=$?"
in: x\n
out: rc=0\n
err: gzip: input.gz already has .gz suffix -- unchanged\n

test: missing file
cmd: gzip nope
out:
err: gzip: nope: No such file or directory\n
status: 1

test: unknown suffix on gunzip
cmd: gunzip input
in: x\n
out:
err: gzip: input: unknown suffix -- ignored\n
status: 2

test: not in gzip format
cmd: cp input bad.gz; gunzip bad.gz
in: not compressed\n
out:
err: \ngzip: bad.gz: not in gzip format\n
status: 1

test: concatenated members decompress in order
cmd: printf 'one\n' | gzip > a.gz; printf 'two\n' | gzip > b.gz; cat a.gz b.gz | zcat
out: one\ntwo\n

test: trailing garbage is a warning
cmd: printf 'one\n' | gzip > a.gz; (cat a.gz; echo junk) > c.gz; zcat c.gz; echo "rc=$?"
out: one\nrc=2\n
err: \ngzip: c.gz: decompression OK, trailing garbage ignored\n

test: truncated stream
cmd: printf 'one\n' | gzip | head -c 12 | gunzip; echo "rc=$?"
out: orc=1\n
err: \ngzip: stdin: unexpected end of file\n

test: zcat -f passes plain data through
cmd: zcat -f input
in: plain\n
out: plain\n

test: test mode
cmd: gzip -k input && gzip -t input.gz && echo ok
in: 123\n
out: ok\n

test: directory is ignored without -r
cmd: mkdir d; gzip d; echo "rc=$?"
out: rc=2\n
err: gzip: d is a directory -- ignored\n

test: recursive compresses files in directories
cmd: mkdir -p d/e; echo 1 > d/a; echo 2 > d/e/b; gzip -r d; find d -type f | sort
out: d/a.gz\nd/e/b.gz\n

test: binary data with NUL bytes survives
cmd: printf 'a\0b\377c' | gzip -9 | gzip -d | od -An -c
out:    a  \\0   b 377   c\n

test: empty input
cmd: printf '' | gzip | gunzip | wc -c
out: 0\n

test: list
cmd: printf 'hello\n' > a; gzip a; gzip -l a.gz
out:          compressed        uncompressed  ratio uncompressed_name\n
out:                  28                   6 -33.3% a\n

test: custom suffix
cmd: gzip -S .zz input && ls && gunzip -S .zz input.zz && cat input
in: s\n
out: input.zz\ns\n

test: mode is kept
cmd: chmod 600 input; gzip input; stat -c %a input.gz
in: m\n
out: 600\n

test: --fast, --to-std and --decomp abbreviated; --rsyncable is accepted
cmd: printf 'abc\n' | gzip --fast --rsyncable --to-std | gzip --decomp --to-std
out: abc\n

test: -q hides the trailing garbage warning, not its status
cmd: printf 'xx' > bad.gz; gzip -dq bad.gz 2>/dev/null; echo $?; printf 'a\n' | gzip > c.gz; printf 'junk' >> c.gz; gzip -dcq c.gz; echo $?
out: 1\na\n2\n
err:

test: -q does not hide a truncated stream
cmd: printf 'abc\n' | gzip | head -c 10 | gzip -dcq; echo $?
out: 1\n
err: \ngzip: stdin: unexpected end of file\n
