# find: tests, actions, operators, options and GNU's messages.
# Directory order differs between file systems: outputs with several
# entries in one directory are piped through sort.

test: default prints everything
cmd: mkdir -p a/b; touch a/b/f; find a
out: a\na/b\na/b/f\n

test: current directory by default
cmd: mkdir d; find
out: .\n./d\n

test: -name
cmd: mkdir -p a/b; touch a/x.c a/b/y.c a/z.h; find a -name '*.c' | sort
out: a/b/y.c\na/x.c\n

test: -name matches the basename of the start point
cmd: mkdir -p a/b; find a/b/ -name b
out: a/b/\n

test: -iname
cmd: touch ABC abd; find . -iname 'ab?' | sort
out: ./ABC\n./abd\n

test: -path
cmd: mkdir -p a/b; touch a/b/f a/g; find a -path 'a/b/*'
out: a/b/f\n

test: -path star crosses slashes
cmd: mkdir -p a/b; touch a/b/f; find a -path 'a*f'
out: a/b/f\n

test: -type
cmd: mkdir -p a/d; touch a/f; ln -s f a/l; find a -type f; find a -type d | sort; find a -type l
out: a/f\na\na/d\na/l\n

test: -type list
cmd: mkdir -p a/d; touch a/f; ln -s f a/l; find a -type f,l | sort
out: a/f\na/l\n

test: -xtype
cmd: mkdir a; touch a/f; ln -s f a/l; ln -s nowhere a/dl; find a -xtype f | sort; find a -xtype l
out: a/f\na/l\na/dl\n

test: -L follows links
cmd: mkdir -p a t; touch t/x; ln -s ../t a/l; find -L a | sort
out: a\na/l\na/l/x\n

test: -maxdepth and -mindepth
cmd: mkdir -p a/b/c; find a -maxdepth 1; find a -mindepth 2
out: a\na/b\na/b/c\n

test: -maxdepth 0
cmd: mkdir -p a/b; find a -maxdepth 0
out: a\n

test: -depth
cmd: mkdir -p a/b; touch a/b/f; find a -depth
out: a/b/f\na/b\na\n

test: -prune
cmd: mkdir -p a/skip a/keep; touch a/skip/x a/keep/y; find a -name skip -prune -o -type f -print
out: a/keep/y\n

test: -o and -a precedence
cmd: touch a.c b.h c.txt; find . -name '*.c' -o -name '*.h' | sort
out: ./a.c\n./b.h\n

test: parentheses and !
cmd: touch a.c b.h c.txt; find . -type f ! \( -name '*.c' -o -name '*.h' \)
out: ./c.txt\n

test: -not
cmd: touch a b; find . -type f -not -name a
out: ./b\n

test: comma operator
cmd: touch a; find . -name a -printf 'x\n' , -name a -printf 'y\n'
out: x\ny\n

test: -true and -false
cmd: touch a; find a -true; find a -false
out: a\n

test: -empty
cmd: mkdir -p a/e a/f; touch a/f/z; printf x > a/g; touch a/h; find a -empty | sort
out: a/e\na/f/z\na/h\n

test: -size in bytes
cmd: printf 12345 > a; printf 1 > b; touch c; find . -type f -size +2c; find . -type f -size 1c; find . -type f -size -1c
out: ./a\n./b\n./c\n

test: -size rounds up to the unit
cmd: printf 1 > a; touch b; find . -type f -size 1k; find . -type f -size -1k
out: ./a\n./b\n

test: -size in 512-byte blocks
cmd: head -c 600 /dev/zero > a; find a -size 2
out: a\n

test: -perm exact, all and any
cmd: touch a b c; chmod 644 a; chmod 755 b; chmod 600 c; find . -type f -perm 644; find . -type f -perm -u+x; find . -type f -perm /o+r | sort
out: ./a\n./b\n./a\n./b\n

test: -perm symbolic
cmd: touch a; chmod 640 a; find a -perm g=r,u=rw
out: a\n

test: -newer
cmd: touch -d 2020-01-01 old; touch -d 2021-01-01 ref; touch new; find . -type f -newer ref
out: ./new\n

test: -mtime
cmd: touch -d '3 days ago' a; touch b; find . -type f -mtime +1; find . -type f -mtime -1; find . -type f -mtime 3
out: ./a\n./b\n./a\n

test: -mmin
cmd: touch -d '10 minutes ago' a; touch b; find . -type f -mmin -5; find . -type f -mmin +5
out: ./b\n./a\n

test: -newermt
cmd: touch -d 2020-06-01 a; touch -d 2019-01-01 b; find . -type f -newermt 2020-01-01
out: ./a\n

test: -links
cmd: touch a; ln a b; touch c; find . -type f -links 2 | sort
out: ./a\n./b\n

test: -samefile
cmd: touch a; ln a b; touch c; find . -samefile a | sort
out: ./a\n./b\n

test: -user root
cmd: touch a; find a -user root; find a -uid 0; find a -group 0
out: a\na\na\n

test: -readable
cmd: touch a; find a -readable
out: a\n

test: -regex default (emacs) syntax
cmd: mkdir d; touch d/abc d/x.c; find d -regex '.*/a.*' ; find d -regex '.*\.\(c\|h\)'
out: d/abc\nd/x.c\n

test: -regex must match the whole path
cmd: touch abc; find . -regex 'abc'; find . -regex '\./abc'
out: ./abc\n

test: -regextype posix-extended
cmd: touch ab abb; find . -regextype posix-extended -regex '\./ab+' | sort
out: ./ab\n./abb\n

test: -iregex
cmd: touch ABC; find . -iregex '.*abc'
out: ./ABC\n

test: -lname
cmd: ln -s target l; ln -s other m; find . -lname 'tar*'
out: ./l\n

test: -print0
cmd: mkdir d; touch d/a; find d -print0
out: d\0d/a\0

test: -printf directives
cmd: mkdir -p d/e; printf abc > d/e/f; find d/e/f -printf '%p|%P|%f|%h|%H|%d|%y|%m|%M|%n|%s|%u|%g|%U|%G\n'
out: d/e/f||f|d/e|d/e/f|0|f|644|-rw-r--r--|1|3|root|root|0|0\n

test: -printf relative to the start
cmd: mkdir -p d/e; touch d/e/f; find d -name f -printf '%P %H %d\n'
out: e/f d 2\n

test: -printf widths and escapes
cmd: touch ab; find ab -printf '[%5f][%-5f][%.1f]\t%%\101\n'
out: [   ab][ab   ][a]\t%A\n

test: -printf times
cmd: touch -d '2024-01-02 03:04:05' f; find f -printf '%t|%TY-%Tm-%Td|%TT|%T@|%A+\n'
out: Tue Jan  2 03:04:05.0000000000 2024|2024-01-02|03:04:05.0000000000|1704164645.0000000000|2024-01-02+03:04:05.0000000000\n

test: -printf %l and %Y
cmd: ln -s nowhere l; touch f; ln -s f g; find l g -printf '%y %Y %l\n'
out: l N nowhere\nl f f\n

test: -printf \c stops
cmd: touch a; find a -printf 'x\cy\n'
out: x

test: -printf unknown directive
cmd: touch a; find a -printf '%z\n'
out: %z\n
err: find: warning: unrecognized format directive `%z'\n

test: -ls
cmd: touch -d 2020-01-01 f; find f -ls | cut -c11-
out:      0 -rw-r--r--   1 root     root            0 Jan  1  2020 f\n

test: -ls on a symlink
cmd: ln -s tgt l; touch -h -d 2020-01-01 l; find l -ls | cut -c11-
out:      0 lrwxrwxrwx   1 root     root            3 Jan  1  2020 l -> tgt\n

test: -exec with ;
cmd: mkdir d; touch d/a; find d -type f -exec basename {} \;
out: a\n

test: -exec with +
cmd: mkdir d; touch d/a; find d -type f -exec ls -d {} +
out: d/a\n

test: -exec replaces {} inside arguments
cmd: touch a; find a -exec basename x{}y \;
out: xay\n

test: -exec as a test
cmd: touch a b; find . -type f -exec test {} = ./a \; -print
out: ./a\n

test: -execdir
cmd: mkdir d; touch d/a; find d -type f -execdir ls {} \;
out: ./a\n

test: -exec failure with + sets the status
cmd: touch a; find a -exec false {} +; echo $?
out: 1\n

test: -delete
cmd: mkdir -p d/e; touch d/e/f d/g; find d -name e -delete; find d/e/f -delete; find d | sort
out: d\nd/e\nd/g\n
err: find: cannot delete \xe2\x80\x98d/e\xe2\x80\x99: Directory not empty\n

test: -delete a tree
cmd: mkdir -p d/e; touch d/e/f; find d -delete; ls
out:

test: -quit
cmd: mkdir d; touch d/a; find d -print -quit
out: d\n

test: -fprint
cmd: mkdir d; find d -fprint out; cat out
out: d\n

test: missing start point
cmd: find nope
out:
err: find: \xe2\x80\x98nope\xe2\x80\x99: No such file or directory\n
status: 1

test: some start points missing
cmd: touch a; find nope a
out: a\n
err: find: \xe2\x80\x98nope\xe2\x80\x99: No such file or directory\n
status: 1

test: unknown predicate
cmd: find . -foo
out:
err: find: unknown predicate `-foo'\n
status: 1

test: missing argument
cmd: find . -name
out:
err: find: missing argument to `-name'\n
status: 1

test: paths after the expression
cmd: find . -name a b
out:
err: find: paths must precede expression: `b'\n
status: 1

test: bad -type
cmd: find . -type z
out:
err: find: Unknown argument to -type: z\n
status: 1

test: binary operator with nothing before
cmd: find . -o
out:
err: find: invalid expression; you have used a binary operator '-o' with nothing before it.\n
status: 1

test: unbalanced parenthesis
cmd: find . \(
out:
err: find: invalid expression; expected to find a ')' but didn't see one. Perhaps you need an extra predicate after '('\n
status: 1

test: bad maxdepth
cmd: find . -maxdepth x
out:
err: find: Expected a positive decimal integer argument to -maxdepth, but got \xe2\x80\x98x\xe2\x80\x99\n
status: 1

test: bad size unit
cmd: find . -size 3q
out:
err: find: invalid -size type `q'\n
status: 1

test: bad mode
cmd: find . -perm 999
out:
err: find: invalid mode \xe2\x80\x98999\xe2\x80\x99\n
status: 1

test: unknown user
cmd: find . -user nobodyzz
out:
err: find: \xe2\x80\x98nobodyzz\xe2\x80\x99 is not the name of a known user\n
status: 1

test: missing -exec terminator
cmd: find . -exec ls
out:
err: find: missing argument to `-exec'\n
status: 1

test: bad regex
cmd: find . -regex '['
out:
err: find: failed to compile regular expression '[': Invalid regular expression\n
status: 1

test: symlink loop with -L
cmd: mkdir -p a/b; ln -s .. a/b/up; find -L a 2>&1 | sort
out: a\na/b\nfind: File system loop detected; \xe2\x80\x98a/b/up\xe2\x80\x99 is part of the same file system loop as \xe2\x80\x98a\xe2\x80\x99.\n

test: -H follows only the start point
cmd: mkdir t; touch t/x; ln -s t l; find -H l | sort; find l
out: l\nl/x\nl\n

test: a broken start symlink with -L
cmd: ln -s nowhere l; find -L l
out: l\n

test: many files
cmd: mkdir d; for i in $(seq 1 500); do touch d/f$i; done; find d -type f | wc -l
out: 500\n

# ---- audit4 ----
test: audit: mkdir d; printf 'x\n' > d/f1; find d -quit; echo $?; find d -name f1 -
cmd: mkdir d; printf 'x\n' > d/f1; find d -quit; echo $?; find d -name f1 -print -quit; find d -quit -print; find d -print -quit; find d \( -quit -o -print \); find d -name f1 -quit , -print
out: 0\nd/f1\nd\nd\n
err: 

test: -exec, -execdir and -ok run an absolute program path
cmd: mkdir d; touch d/a
cmd: find d -name a -exec /bin/echo x {} \;
cmd: find d -name a -execdir /bin/echo y {} \;
cmd: find d -name a -exec /bin/echo z {} +
cmd: echo y | find d -name a -ok /bin/echo w {} \;
out: x d/a\ny ./a\nz d/a\nw d/a\n
err: < /bin/echo ... d/a > ? 

test: -ok asks with the program and the file only, and a no skips it
cmd: mkdir d; touch d/a
cmd: echo n | find d -name a -ok echo v {} w \; ; echo $?
out: 0\n
err: < echo ... d/a > ? 

test: a status above 128 from -exec is false, not a signal
cmd: mkdir d; touch d/a
cmd: find d -name a -exec sh -c 'exit 200' \; -print; echo $?
cmd: find d -name a -exec sh -c 'exit 200' {} +; echo $?
out: 0\n1\n
