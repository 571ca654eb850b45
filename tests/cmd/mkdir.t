# mkdir: -p, -m, -v and GNU's messages (which use ‘’ quotes).

test: make one directory
cmd: mkdir d && ls -d d
out: d\n

test: several at once
cmd: mkdir a b c; ls
out: a\nb\nc\n

test: existing directory fails
cmd: mkdir d; mkdir d
out:
err: mkdir: cannot create directory \xe2\x80\x98d\xe2\x80\x99: File exists\n
status: 1

test: missing parent fails
cmd: mkdir x/y
out:
err: mkdir: cannot create directory \xe2\x80\x98x/y\xe2\x80\x99: No such file or directory\n
status: 1

test: -p makes parents and tolerates existing
cmd: mkdir -p a/b/c; mkdir -p a/b/c; ls -R a
out: a:\nb\n\na/b:\nc\n\na/b/c:\n

test: -pv reports every directory made
cmd: mkdir -pv n/a/b
out: mkdir: created directory 'n'\nmkdir: created directory 'n/a'\nmkdir: created directory 'n/a/b'\n

test: -v
cmd: mkdir -v x
out: mkdir: created directory 'x'\n

test: -p through a file fails on that component
cmd: touch a; mkdir -p a/b
out:
err: mkdir: cannot create directory \xe2\x80\x98a\xe2\x80\x99: Not a directory\n
status: 1

test: -p with an existing file as the target
cmd: touch f; mkdir -p f
out:
err: mkdir: cannot create directory \xe2\x80\x98f\xe2\x80\x99: File exists\n
status: 1

test: empty name
cmd: mkdir ''
out:
err: mkdir: cannot create directory \xe2\x80\x98\xe2\x80\x99: No such file or directory\n
status: 1

test: -m octal
cmd: mkdir -m 700 d; ls -ld d | cut -c1-10
out: drwx------\n

test: -m symbolic is applied to a=rwx
cmd: mkdir -m u=rwx,go=rx d; ls -ld d | cut -c1-10
out: drwxr-xr-x\n

test: -m 777 ignores the umask
cmd: umask 077; mkdir -m 777 d; ls -ld d | cut -c1-10
out: drwxrwxrwx\n

test: invalid mode
cmd: mkdir -m bad d
out:
err: mkdir: invalid mode \xe2\x80\x98bad\xe2\x80\x99\n
status: 1

test: missing operand
cmd: mkdir
out:
err: mkdir: missing operand\nTry 'mkdir --help' for more information.\n
status: 1

test: partial failure keeps going
cmd: mkdir a/b c; echo $?; ls
out: 1\nc\n

test: trailing slashes and dots in -p
cmd: mkdir -p ./x//y/ && ls x
out: y\n

test: long options abbreviated, a bad option reported once
cmd: mkdir --par --verb a/b; mkdir --mo=700 c; ls -ld c | cut -c1-10; mkdir -y; echo $?
out: mkdir: created directory 'a'\nmkdir: created directory 'a/b'\ndrwx------\n1\n
err: mkdir: invalid option -- 'y'\nTry 'mkdir --help' for more information.\n
