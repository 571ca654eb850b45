# install: copies with modes, -d, -D, -t, -v, -C.

test: default mode 0755
cmd: echo hi > a; install a b; ls -l b | cut -c1-10; cat b
out: -rwxr-xr-x\nhi\n

test: -m
cmd: echo hi > a; install -m 644 a c; ls -l c | cut -c1-10
out: -rw-r--r--\n

test: -m symbolic
cmd: echo hi > a; install -m u=rw,go=r a c; ls -l c | cut -c1-10
out: -rw-r--r--\n

test: -d makes directories
cmd: install -d x/y/z; ls -ld x/y/z | cut -c1-10
out: drwxr-xr-x\n

test: -dv
cmd: install -dv p/q
out: install: creating directory 'p'\ninstall: creating directory 'p/q'\n

test: -D makes leading directories
cmd: echo hi > a; install -Dv a n1/n2/f
out: install: creating directory 'n1'\ninstall: creating directory 'n1/n2'\n'a' -> 'n1/n2/f'\n

test: -v replaces an existing file
cmd: echo hi > a; echo old > b; install -v a b; cat b
out: removed 'b'\n'a' -> 'b'\nhi\n

test: into a directory and -t
cmd: echo hi > a; mkdir x y; install a x; install -t y a; ls x y
out: x:\na\n\ny:\na\n

test: missing source
cmd: install nope z
out:
err: install: cannot stat 'nope': No such file or directory\n
status: 1

test: a directory source
cmd: mkdir dd; install dd e
out:
err: install: omitting directory 'dd'\n
status: 1

test: missing destination
cmd: touch a; install a
out:
err: install: missing destination file operand after 'a'\nTry 'install --help' for more information.\n
status: 1

test: invalid mode
cmd: touch a; install -m bad a q
out:
err: install: invalid mode \xe2\x80\x98bad\xe2\x80\x99\n
status: 1

test: -T onto a directory
cmd: touch a; mkdir x; install -T a x
out:
err: install: cannot overwrite directory 'x' with non-directory\n
status: 1

test: -C leaves an identical file alone
cmd: echo hi > a; install -m 755 a b; touch -d 2020-01-01 b; install -C -m 755 a b; ls -l --time-style=+%Y b | cut -d' ' -f6
out: 2020\n

test: --context (an optional argument only in its long form) and abbreviated --mode
cmd: printf x > a; install --context --mod=600 a b; install -Z a c; stat -c %a b c
out: 600\n755\n
