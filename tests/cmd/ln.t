# ln: hard and symbolic links, -f, -n, -r, -t, -T, -v and the messages.

test: hard link shares the inode
cmd: echo hi > a; ln a b; cat b; ls -l b | cut -c12
out: hi\n2\n

test: symbolic link
cmd: ln -s a b; ls -l b | cut -c1; readlink b
out: l\na\n

test: existing link name
cmd: touch a b; ln -s a b
out:
err: ln: failed to create symbolic link 'b': File exists\n
status: 1

test: existing hard link name
cmd: touch a b; ln a b
out:
err: ln: failed to create hard link 'b': File exists\n
status: 1

test: missing target for a hard link
cmd: ln nope x
out:
err: ln: failed to access 'nope': No such file or directory\n
status: 1

test: hard link to a directory
cmd: mkdir d; ln d e
out:
err: ln: d: hard link not allowed for directory\n
status: 1

test: -sv
cmd: ln -sv a e
out: 'e' -> 'a'\n

test: -v hard
cmd: touch a; ln -v a f
out: 'f' => 'a'\n

test: -f replaces
cmd: touch a b; ln -sf a b; readlink b
out: a\n

test: into a directory
cmd: mkdir d; ln -s /x d; readlink d/x
out: /x\n

test: -n treats a symlink to a directory as a file
cmd: mkdir d; ln -s d l; touch a; ln -sfn a l; readlink l
out: a\n

test: without -n the link goes inside the directory
cmd: mkdir d; ln -s d l; ln -sf a l; readlink d/a
out: a\n

test: -r relative
cmd: mkdir d; touch a; ln -sr a d/rel; readlink d/rel
out: ../a\n

test: -r deeper
cmd: mkdir -p x/y z; touch z/f; ln -sr z/f x/y/l; readlink x/y/l
out: ../../z/f\n

test: one operand links into the current directory
cmd: mkdir d; touch d/f; ln -s d/f; readlink f
out: d/f\n

test: one operand that already exists
cmd: touch a; ln -s a
out:
err: ln: failed to create symbolic link './a': File exists\n
status: 1

test: -t
cmd: mkdir d; ln -s -t d a b; ls d
out: a\nb\n

test: -T onto a directory
cmd: mkdir d; ln -sT a d
out:
err: ln: failed to create symbolic link 'd': File exists\n
status: 1

test: several targets need a directory
cmd: ln -s x y z
out:
err: ln: target 'z': No such file or directory\n
status: 1

test: dangling symbolic links are fine
cmd: ln -s nowhere l; readlink l
out: nowhere\n

test: -r needs -s
cmd: touch a; ln -r a b
out:
err: ln: cannot do --relative without --symbolic\n
status: 1

test: abbreviated --symbolic, --suffix with its value and --backup
cmd: echo a > a; echo b > b; ln --sym --suf=.old --back a b; cat b.old; readlink b
out: b\na\n

test: -i answered no keeps the link name, yes replaces it
cmd: echo 1 > a; echo 2 > b; echo n | ln -i a b; cat b; printf 'y\n' | ln -si a b; readlink b
out: 2\na\n
err: ln: replace 'b'? ln: replace 'b'? 
