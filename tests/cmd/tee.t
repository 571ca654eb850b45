# tee: copies stdin to stdout and files in the sandbox.

test: stdout and file
cmd: echo hello | tee out; cat out
out: hello\nhello\n

test: several files
cmd: printf 'a\nb\n' | tee f1 f2 >/dev/null; cat f1 f2
out: a\nb\na\nb\n

test: no files
cmd: echo x | tee
out: x\n

test: append
cmd: echo one > f; echo two | tee -a f >/dev/null; cat f
out: one\ntwo\n

test: truncate existing
cmd: echo longer-line > f; echo x | tee f >/dev/null; cat f
out: x\n

test: dash is a file name
cmd: echo x | tee - | od -c; cat ./-
out: 0000000   x  \\n\n0000002\nx\n

test: missing directory keeps going
cmd: echo x | tee nodir/f ok; echo "rc=$?"; cat ok
out: x\nrc=1\nx\n
err: tee: nodir/f: No such file or directory\n

test: ignore interrupts
cmd: echo x | tee -i f; cat f
out: x\nx\n

test: p option
cmd: echo x | tee -p f; cat f
out: x\nx\n

test: output error mode
cmd: echo x | tee --output-error=warn f; cat f
out: x\nx\n

test: output error invalid mode
cmd: echo x | tee --output-error=bogus f
out:
err: tee: invalid argument ‘bogus’ for ‘--output-error’\n
err: Valid arguments are:\n  - ‘warn’\n  - ‘warn-nopipe’\n
err:   - ‘exit’\n  - ‘exit-nopipe’\n
err: Try 'tee --help' for more information.\n
status: 1

test: binary data
cmd: printf 'a\0b\xff' | tee f | od -c; od -c f
out: 0000000   a  \\0   b 377\n0000004\n0000000   a  \\0   b 377\n
out: 0000004\n

test: large input
cmd: seq 100000 | tee f | tail -n 1; wc -l < f
out: 100000\n100000\n

test: invalid option
cmd: tee -z
out:
err: tee: invalid option -- 'z'\n
err: Try 'tee --help' for more information.\n
status: 1

test: --output-error abbreviated, its argument attached only
cmd: echo x | tee --output-e f; echo x | tee --output=exit g; cat f g; echo y | tee --out warn; cat warn
out: x\nx\nx\nx\ny\ny\n
