# mv: renames, moves into directories, and the refusals GNU explains.

test: rename a file
cmd: echo hi > a; mv a b; ls; cat b
out: b\nhi\n

test: into a directory
cmd: touch a b; mkdir d; mv a b d; ls d
out: a\nb\n

test: rename a directory
cmd: mkdir -p d/e; mv d x; ls -R x
out: x:\ne\n\nx/e:\n

test: -v
cmd: touch a; mv -v a b
out: renamed 'a' -> 'b'\n

test: missing source
cmd: mv nope x
out:
err: mv: cannot stat 'nope': No such file or directory\n
status: 1

test: same file
cmd: touch a; mv a a
out:
err: mv: 'a' and 'a' are the same file\n
status: 1

test: into its own subdirectory
cmd: mkdir d; mv d d/x
out:
err: mv: cannot move 'd' to a subdirectory of itself, 'd/x'\n
status: 1

test: directory onto a file
cmd: mkdir -p q/d r; touch r/d; mv q/d r/
out:
err: mv: cannot overwrite non-directory 'r/d' with directory 'q/d'\n
status: 1

test: file onto a directory
cmd: mkdir -p q/d r; touch r/d; mv r/d q/
out:
err: mv: cannot overwrite directory 'q/d' with non-directory\n
status: 1

test: onto a non-empty directory
cmd: mkdir -p s/e t/e; touch t/e/f; mv s/e t/
out:
err: mv: cannot move 's/e' to 't/e': Directory not empty\n
status: 1

test: onto an empty directory replaces it
cmd: mkdir -p s/e t/e; touch s/e/f; mv s/e t/; ls t/e
out: f\n

test: overwrite a file
cmd: echo 1 > a; echo 2 > b; mv a b; cat b; ls
out: 1\nb\n

test: -n keeps the destination
cmd: echo 1 > a; echo 2 > b; mv -n a b; cat a b
out: 1\n2\n

test: -u skips when the destination is newer
cmd: echo 1 > a; echo 2 > b; touch -d 2020-01-01 a; mv -u a b; cat b
out: 2\n

test: -i answered no
cmd: echo 1 > a; echo 2 > b; echo n | mv -i a b; cat b
out: 2\n
err: mv: overwrite 'b'? 

test: -b backup
cmd: echo 1 > a; echo 2 > b; mv -b a b; cat b b~
out: 1\n2\n

test: -t
cmd: touch a; mkdir d; mv -t d a; ls d
out: a\n

test: -T refuses to move into the directory
cmd: mkdir a b; touch b/x; mv -T a b
out:
err: mv: cannot move 'a' to 'b': Directory not empty\n
status: 1

test: several sources need a directory
cmd: touch a b c; mv a b c
out:
err: mv: target 'c': Not a directory\n
status: 1

test: missing destination
cmd: touch a; mv a
out:
err: mv: missing destination file operand after 'a'\nTry 'mv --help' for more information.\n
status: 1

test: moving a symlink keeps it a symlink
cmd: touch t; ln -s t l; mv l m; ls -l m | cut -c1
out: l\n

test: long options abbreviated; --update takes an argument, -u does not
cmd: echo a > a; touch -d 2000-01-01 b; mv --upd --verb a b; cat b; echo c > c; mv -uv c b; cat b
cmd: mkdir d; echo e > e; mv --strip --target=d e/ 2>&1; mv --suf=.old --back=simple b d/e; ls d; mv --s 2>&1; echo $?
out: renamed 'a' -> 'b'\na\nrenamed 'c' -> 'b'\nc\ne\ne.old\n
out: mv: option '--s' is ambiguous; possibilities: '--strip-trailing-slashes' '--suffix'\nTry 'mv --help' for more information.\n1\n

# coreutils 9.1 on the host predates --update=WHEN (9.3)
test: --update=all takes its argument attached
cmd: echo a > a; echo b > b; touch -d 2000-01-01 a; mv --upd=all --verb a b; cat b; mv --update x 2>&1; echo $?
out: renamed 'a' -> 'b'\na\nmv: missing destination file operand after 'x'\nTry 'mv --help' for more information.\n1\n
host: skip

test: -i answered yes moves, one answer each
cmd: echo 1 > a; echo 2 > b; echo 3 > c; mkdir d; echo x > d/a; echo x > d/c; printf 'y\nn\n' | mv -i a c d; cat d/a d/c; ls
out: 1\nx\nb\nc\nd\n
err: mv: overwrite 'd/a'? mv: overwrite 'd/c'? 

test: -t names a file, and -T with one source onto a new name
cmd: touch a b; mv -t a b; echo $?; mv -T b c; ls
out: 1\na\nc\n
err: mv: target directory 'a': Not a directory\n
