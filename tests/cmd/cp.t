# cp: files, directories, options, and GNU's messages.

test: copy a file
cmd: echo hi > a; cp a b; cat b
out: hi\n

test: copy into a directory
cmd: echo hi > a; mkdir d; cp a d; cat d/a
out: hi\n

test: several files into a directory
cmd: echo 1 > a; echo 2 > b; mkdir d; cp a b d; cat d/a d/b
out: 1\n2\n

test: missing source
cmd: cp nope x
out:
err: cp: cannot stat 'nope': No such file or directory\n
status: 1

test: same file
cmd: touch a; cp a a
out:
err: cp: 'a' and 'a' are the same file\n
status: 1

test: missing destination
cmd: touch a; cp a
out:
err: cp: missing destination file operand after 'a'\nTry 'cp --help' for more information.\n
status: 1

test: no operands
cmd: cp
out:
err: cp: missing file operand\nTry 'cp --help' for more information.\n
status: 1

test: target of several sources must exist
cmd: touch a b; cp a b c
out:
err: cp: target 'c': No such file or directory\n
status: 1

test: target of several sources must be a directory
cmd: touch a b c; cp a b c
out:
err: cp: target 'c': Not a directory\n
status: 1

test: directory without -r
cmd: mkdir d; cp d e
out:
err: cp: -r not specified; omitting directory 'd'\n
status: 1

test: -r copies a tree
cmd: mkdir -p d/e; echo x > d/e/f; cp -r d c; cat c/e/f
out: x\n

test: -rv
cmd: mkdir d; touch d/f; cp -rv d e
out: 'd' -> 'e'\n'd/f' -> 'e/f'\n

test: -r into an existing directory
cmd: mkdir d e; touch d/f; cp -r d e; ls e/d
out: f\n

test: copy a directory into itself
cmd: mkdir d; cp -r d d/sub
out:
err: cp: cannot copy a directory, 'd', into itself, 'd/sub'\n
status: 1

test: directory onto a file
cmd: mkdir d; touch a; cp -r d a
out:
err: cp: cannot overwrite non-directory 'a' with directory 'd'\n
status: 1

test: -T file onto a directory
cmd: mkdir d; touch a; cp -T a d
out:
err: cp: cannot overwrite directory 'd' with non-directory\n
status: 1

test: trailing slash on a missing destination
cmd: touch a; cp a d2/
out:
err: cp: cannot create regular file 'd2/': Not a directory\n
status: 1

test: -v
cmd: touch a; cp -v a b
out: 'a' -> 'b'\n

test: -n does not overwrite
cmd: echo 1 > a; echo 2 > b; cp -n a b; cat b
out: 2\n

test: -u skips newer destinations
cmd: echo 1 > a; echo 2 > b; touch -d 2020-01-01 a; cp -u a b; cat b
out: 2\n

test: -u copies over older destinations
cmd: echo 1 > a; echo 2 > b; touch -d 2020-01-01 b; cp -u a b; cat b
out: 1\n

test: -i answered no
cmd: echo 1 > a; echo 2 > b; echo n | cp -i a b; cat b
out: 2\n
err: cp: overwrite 'b'? 

test: -p keeps times and mode
cmd: touch -d 2020-01-01 a; chmod 600 a; cp -p a b; ls -l --time-style=+%F b
out: -rw------- 1 root root 0 2020-01-01 b\n

test: without -p the time is new
cmd: touch -d 2020-01-01 a; cp a b; ls -l --time-style=+%Y b | grep -c 2020
out: 0\n
status: 1

test: mode is copied minus the umask
cmd: touch a; chmod 755 a; cp a b; ls -l b | cut -c1-10
out: -rwxr-xr-x\n

test: symlinks are followed without -r
cmd: echo hi > a; ln -s a l; cp l c; ls -l c | cut -c1
out: -\n

test: -r copies symlinks as symlinks
cmd: echo hi > a; ln -s a l; cp -r l c; ls -l c | cut -c1
out: l\n

test: -a keeps symlinks
cmd: mkdir d; ln -s x d/l; cp -a d e; ls -l e | tail -1 | cut -c1
out: l\n

test: -P onto an existing file replaces it
cmd: echo hi > a; echo yo > b; ln -s a lnk; cp -P lnk b; ls -l b | cut -c1
out: l\n

test: -l makes hard links
cmd: echo hi > a; cp -l a b; ls -l b | cut -c12
out: 2\n

test: -s makes symbolic links
cmd: echo hi > a; cp -s a b; ls -l b | cut -c1
out: l\n

test: -s with a relative name elsewhere
cmd: touch a; mkdir z; cp -s a z/s
out:
err: cp: z/s: can make relative symbolic links only in current directory\n
status: 1

test: --backup makes a ~ copy
cmd: echo 1 > a; echo 2 > c; cp --backup a c; cat c c~
out: 1\n2\n

test: --backup=numbered
cmd: echo 1 > a; echo 2 > c; cp --backup=numbered a c; cp --backup=numbered a c; ls
out: a\nc\nc.~1~\nc.~2~\n

test: --parents
cmd: mkdir -p x/y d; touch x/y/f; cp --parents x/y/f d; ls d/x/y
out: f\n

test: -t
cmd: touch a; mkdir d; cp -t d a; ls d
out: a\n

test: -T with an extra operand
cmd: touch a b c; cp -T a b c
out:
err: cp: extra operand 'c'\nTry 'cp --help' for more information.\n
status: 1

test: binary content with NULs
cmd: printf 'a\0b\0' > a; cp a b; od -c b | head -1
out: 0000000   a  \\0   b  \\0\n

test: large file
cmd: head -c 300000 /dev/zero | tr '\0' x > a; cp a b; wc -c < b
out: 300000\n

test: -t with a missing directory
cmd: touch a; cp -t nodir a
out:
err: cp: target directory 'nodir': No such file or directory\n
status: 1

test: abbreviated long options, long-only ones with arguments
cmd: echo a > f; echo b > g; cp --suf=.old --backup=simple f g; cat g g.old; echo c > h; cp --no-p=mode --pres=mode --no-clob f h; cat h
out: a\nb\nc\n

test: --parents wants a directory as the destination
cmd: touch a b; cp --parents a b; echo $?
out: 1\n
err: cp: with --parents, the destination must be a directory\nTry 'cp --help' for more information.\n

test: the operand checks before the target
cmd: touch a; cp; echo $?; cp a; echo $?; cp -t a a; echo $?
out: 1\n1\n1\n
err: cp: missing file operand\nTry 'cp --help' for more information.\ncp: missing destination file operand after 'a'\nTry 'cp --help' for more information.\ncp: target directory 'a': Not a directory\n
