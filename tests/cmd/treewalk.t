# Tree walkers (find, du, ls -R, cp -r, rm -r, tree, chmod -R, grep -r) against
# symlink loops, deep trees, 100,000 entries and the sandbox's permissions.
# Directories hold one entry each where order matters: the host lists a
# directory in hash order, the sandbox sorted.

# ---- symlink loops: x/a -> y/b -> x/a (each directory sees one link) ----
test: loop: find -L
cmd: mkdir x y; ln -s ../y/b x/a; ln -s ../x/a y/b; find -L x; echo $?
out: x\n1\n
err: find: \xe2\x80\x98x/a\xe2\x80\x99: Too many levels of symbolic links\n

test: loop: find without -L lists the link
cmd: mkdir x y; ln -s ../y/b x/a; ln -s ../x/a y/b; find x; echo $?
out: x\nx/a\n0\n
err: 

test: loop: du -L
cmd: mkdir x y; ln -s ../y/b x/a; ln -s ../x/a y/b; du -L x; echo $?
out: 4\tx\n1\n
err: du: cannot access 'x/a': Too many levels of symbolic links\n

test: loop: ls -RL
cmd: mkdir x y; ln -s ../y/b x/a; ln -s ../x/a y/b; ls -RL x; echo $?
out: x:\na\n1\n
err: ls: cannot access 'x/a': Too many levels of symbolic links\n

test: loop: ls -lL
cmd: mkdir x y; ln -s ../y/b x/a; ln -s ../x/a y/b; ls -lL x 2>&1 | cut -c1-10,40-; echo $?
out: ls: cannots of symbolic links\ntotal 0\nl?????????\n0\n
err: 

test: loop: tree -l
cmd: mkdir x y; ln -s ../y/b x/a; ln -s ../x/a y/b; tree -l x; echo $?
out: x\n\xe2\x94\x94\xe2\x94\x80\xe2\x94\x80 a -> ../y/b\n\n1 directory, 1 file\n0\n
err: 

test: loop: cp -rL
cmd: mkdir x y; ln -s ../y/b x/a; ln -s ../x/a y/b; cp -rL x c; echo $?; find c
out: 1\nc\n
err: cp: cannot stat 'x/a': Too many levels of symbolic links\n

test: loop: cp -r copies the link
cmd: mkdir x y; ln -s ../y/b x/a; ln -s ../x/a y/b; cp -r x c; readlink c/a
out: ../y/b\n
err: 

test: loop: grep -R
cmd: mkdir x y; ln -s ../y/b x/a; ln -s ../x/a y/b; grep -R q x; echo $?
out: 2\n
err: grep: x/a: Too many levels of symbolic links\n

test: loop: chmod -R skips links
cmd: mkdir x y; ln -s ../y/b x/a; ln -s ../x/a y/b; chmod -R 700 x; echo $?; chmod 700 x/a; echo $?
out: 0\n1\n
err: chmod: cannot access 'x/a': Too many levels of symbolic links\n

test: loop: rm -r removes the links
cmd: mkdir x y; ln -s ../y/b x/a; ln -s ../x/a y/b; rm -r x y; echo $?; ls
out: 0\n
err: 


# ---- a directory symlink to its own ancestor, followed with -L ----
test: ancestor: find -L
cmd: mkdir -p d/e; ln -s .. d/e/up; find -L d; echo $?; rm -rf d e e2 a c
out: d\nd/e\n1\n
err: find: File system loop detected; \xe2\x80\x98d/e/up\xe2\x80\x99 is part of the same file system loop as \xe2\x80\x98d\xe2\x80\x99.\n

test: ancestor: find -L deeper loop
cmd: mkdir -p d/e/f; ln -s ../.. d/e/f/up; find -L d; echo $?; rm -rf d e e2 a c
out: d\nd/e\nd/e/f\n1\n
err: find: File system loop detected; \xe2\x80\x98d/e/f/up\xe2\x80\x99 is part of the same file system loop as \xe2\x80\x98d\xe2\x80\x99.\n

test: ancestor: du -L
cmd: mkdir -p d/e; ln -s .. d/e/up; du -L d; echo $?; rm -rf d e e2 a c
out: 4\td/e\n8\td\n0\n
err: 

test: ancestor: ls -RL
cmd: mkdir -p d/e; ln -s .. d/e/up; ls -RL d; echo $?; rm -rf d e e2 a c
out: d:\ne\n\nd/e:\nup\n2\n
err: ls: d/e/up: not listing already-listed directory\n

test: ancestor: tree -l
cmd: mkdir -p d/e; ln -s .. d/e/up; tree -l d; echo $?; rm -rf d e e2 a c
out: d\n\xe2\x94\x94\xe2\x94\x80\xe2\x94\x80 e\n    \xe2\x94\x94\xe2\x94\x80\xe2\x94\x80 up -> ..  [recursive, not followed]\n\n3 directories, 0 files\n0\n
err: 

test: ancestor: cp -rL
cmd: mkdir -p d/e; ln -s .. d/e/up; cp -rL d c; echo $?; find c; rm -rf d e e2 a c
out: 1\nc\nc/e\n
err: cp: cannot copy cyclic symbolic link 'd/e/up'\n

# (stderr not compared: GNU grep 3.8 says "grep: d/e/up: warning: recursive
# directory loop", the sandbox's grep puts "warning:" first; reported to grep's owner)
test: ancestor: grep -R
cmd: mkdir -p d/e; ln -s .. d/e/up; echo q > d/e/f; grep -R q d; echo $?; rm -rf d e e2 a c
out: d/e/f:q\n0\n

test: ancestor: without -L nothing loops
cmd: mkdir -p d/e; ln -s .. d/e/up; find d; du d | wc -l; ls -R d | wc -l; chmod -R 700 d; echo $?; rm -r d; echo $?; rm -rf d e e2 a c
out: d\nd/e\nd/e/up\n2\n5\n0\n0\n
err: 


# ---- deep trees: 1000 levels (paths of 2000 bytes) ----
test: deep 1000: find, du, ls -R, tree, grep -r, chmod -R, find -delete
cmd: P=$(printf 'd/%.0s' $(seq 1000)); mkdir -p $P; echo hit > ${P}f; find d | wc -l; du d | wc -l; ls -R d | wc -l; tree d | tail -1; grep -r hit d | wc -c; chmod -R 700 d; find d -perm 700 | wc -l; find d -delete; echo $?; ls | wc -l
out: 1001\n1000\n2999\n1000 directories, 1 file\n2006\n1001\n0\n0\n
err: 

test: deep 1000: cp -r, rm -r
cmd: P=$(printf 'd/%.0s' $(seq 1000)); mkdir -p $P; echo hit > ${P}f; cp -r d e; find e | wc -l; grep -rl hit e | wc -c; rm -r d e; echo $?; ls | wc -l
out: 1001\n2002\n0\n0\n
err: 

test: deep 1000: mkdir -pv, rmdir -pv
cmd: P=$(printf 'd/%.0s' $(seq 1000)); mkdir -pv $P | wc -l; rmdir -pv $P | wc -l; ls | wc -l
out: 1000\n1000\n0\n
err: 


# ---- past PATH_MAX: 17 levels of 250-byte names make a 4267-byte path.
# GNU's ls, cp and tree work by path and stop there with "File name too
# long"; find, du, chmod -R, grep -r and rm -r walk by directory and go on ----
test: PATH_MAX: ls -R
cmd: N=$(printf 'x%.0s' $(seq 250)); P=$(printf "$N/%.0s" $(seq 17)); mkdir -p $P; ls -R $N >o 2>e; echo $?; wc -l <o; cut -c1-30 e; grep -c 'File name too long$' e; rm -r $N
out: 1\n47\nls: cannot open directory 'xxx\n1\n
err: 

test: PATH_MAX: ls -lR
cmd: N=$(printf 'x%.0s' $(seq 250)); P=$(printf "$N/%.0s" $(seq 17)); mkdir -p $P; ls -lR $N >o 2>e; echo $?; wc -l <o; tail -2 o | cut -c1-20; cut -c1-30 e; rm -r $N
out: 1\n63\ntotal 0\nd????????? ? ? ? ?  \nls: cannot access 'xxxxxxxxxxx\nls: cannot open directory 'xxx\n
err: 

test: PATH_MAX: tree leaves out what it cannot stat
cmd: N=$(printf 'x%.0s' $(seq 250)); P=$(printf "$N/%.0s" $(seq 17)); mkdir -p $P; tree $N | tail -1; tree $N | wc -l; rm -r $N
out: 16 directories, 0 files\n18\n
err: 

test: PATH_MAX: cp -r
cmd: N=$(printf 'x%.0s' $(seq 250)); P=$(printf "$N/%.0s" $(seq 17)); mkdir -p $P; cp -r $N e 2>err; echo $?; cut -c1-30 err; grep -c 'File name too long$' err; find e | wc -l; cp -r $N ee 2>err; echo $?; cut -c1-30 err; find ee | wc -l; rm -r $N e ee
out: 1\ncp: cannot stat 'xxxxxxxxxxxxx\n1\n16\n1\ncp: cannot stat 'xxxxxxxxxxxxx\n16\n
err: 

test: PATH_MAX: find, du, chmod -R, grep -r, rm -r go on
cmd: N=$(printf 'x%.0s' $(seq 250)); P=$(printf "$N/%.0s" $(seq 17)); mkdir -p $P; find $N | wc -l; du $N | wc -l; chmod -R 700 $N; echo $?; grep -r q $N; echo $?; rm -r $N; echo $?; ls | wc -l
out: 17\n17\n0\n1\n0\n0\n
err: 

test: PATH_MAX: find -delete
cmd: N=$(printf 'x%.0s' $(seq 250)); P=$(printf "$N/%.0s" $(seq 17)); mkdir -p $P; find $N -delete; echo $?; ls | wc -l
out: 0\n0\n
err: 


# ---- deeper than any bound: the tree walker of find, du, chmod -R, grep -r,
# rm -r (when it must walk) and find -delete enters at most 4096 levels (a
# path of 8191 bytes or more below) and reports "File name too long" there:
# a clear error, status 1 (grep: 2), the rest of the tree done, no crash.
# host: skip for all: GNU's fts-based tools have no depth bound. mkdir -p
# makes the tree component by component like GNU (paths over PATH_MAX work).

test: beyond the bound: find
cmd: P=$(printf 'd/%.0s' $(seq 4100)); mkdir -p $P; find d 2>e | wc -l; echo "${PIPESTATUS[0]}"; grep -c 'File name too long$' e; cut -c1-15 e
out: 4096\n1\n1\nfind: \xe2\x80\x98d/d/d/\n
err:
host: skip

test: beyond the bound: du and chmod -R
cmd: P=$(printf 'd/%.0s' $(seq 4100)); mkdir -p $P; du d 2>e | wc -l; grep -c 'File name too long$' e; cut -c1-30 e; chmod -R 700 d 2>e; echo $?; cut -c1-30 e
out: 4096\n1\ndu: cannot read directory 'd/d\n1\nchmod: cannot read directory '\n
err:
host: skip

test: beyond the bound: grep -r
cmd: P=$(printf 'd/%.0s' $(seq 4100)); mkdir -p $P; grep -r x d 2>e; echo $?; grep -c 'File name too long$' e
out: 2\n1\n
err:
host: skip

test: beyond the bound: rm -r removes it all, rm -rv reports the level it cannot enter
cmd: P=$(printf 'd/%.0s' $(seq 4100)); mkdir -p $P a/$P; rm -rv a >O 2>E; echo $?; wc -l <O; grep -c 'File name too long$' E; cut -c1-20 E; rm -r d a; echo $?; ls -d d a 2>/dev/null | wc -l
out: 1\n0\n1\nrm: cannot remove 'a\n0\n0\n
err:
host: skip

test: beyond the bound: find -delete
cmd: P=$(printf 'd/%.0s' $(seq 4100)); mkdir -p $P; find d -delete 2>e; echo $?; grep -c 'File name too long$' e; grep -c 'Directory not empty$' e
out: 1\n1\n4096\n
err:
host: skip

test: beyond the bound: ls -R, tree and cp -r stop at PATH_MAX as GNU's do
cmd: P=$(printf 'd/%.0s' $(seq 4100)); mkdir -p $P; ls -R d 2>E | wc -l; grep -c 'File name too long$' E; tree d | tail -1; cp -r d e 2>E; echo $?; find e | wc -l
out: 6143\n1\n2048 directories, 0 files\n1\n2048\n
err:
host: skip

# ---- 100,000 entries (the NORMAL preset's limits) ----
test: 100000 entries: find, ls, du
cmd: mkdir t; cd t; seq 1 100000 | xargs touch; cd ..; find t | wc -l; ls t | wc -l; ls -R t | wc -l; du -a t | wc -l; find t -name 99999
out: 100001\n100000\n100001\n100001\nt/99999\n
err: 

# host: skip below: 100,000 creations and removals take 20 s or more on the
# host's disk (over the runner's timeout); the expectations were produced by
# the GNU tools on the host with a longer timeout.
test: 100000 entries: tree, chmod -R
cmd: mkdir t; cd t; seq 1 100000 | xargs touch; cd ..; tree t | tail -1; chmod -R 700 t; find t -type f -perm 700 | wc -l
out: 1 directory, 100000 files\n100000\n
err: 
host: skip

test: 100000 entries: cp -r, rm -r
cmd: mkdir t; cd t; seq 1 100000 | xargs touch; cd ..; cp -r t u; ls u | wc -l; rm -r t u; echo $?; ls | wc -l
out: 100000\n0\n0\n
err: 
host: skip

test: 100000 entries: grep -r, find -delete
cmd: mkdir t; cd t; seq 1 100000 | xargs touch; echo hit > 5000; cd ..; grep -r hit t; find t -type f -delete; ls t | wc -l
out: t/5000:hit\n0\n
err: 
host: skip

# ---- the sandbox's permissions. host: skip for all: the host runs these
# tests as root, which ignores permissions; the expectations were produced
# by the GNU tools (and tree 2.1) on the host running as an unprivileged user
# (setpriv --reuid=65534). s is mode 000 (no r, no x), n is 600 (r, no x:
# names can be read, not stat'ed or entered), x is 100 (x, no r) ----
test: perm 000: find
cmd: mkdir -p d/s; touch d/s/f; chmod 000 d/s; find d; echo $?
out: d\nd/s\n1\n
err: find: \xe2\x80\x98d/s\xe2\x80\x99: Permission denied\n
host: skip

test: perm 000: du
cmd: mkdir -p d/s; touch d/s/f; chmod 000 d/s; du d; echo $?
out: 4\td/s\n8\td\n1\n
err: du: cannot read directory 'd/s': Permission denied\n
host: skip

test: perm 000: ls -R
cmd: mkdir -p d/s; touch d/s/f; chmod 000 d/s; ls -R d; echo $?
out: d:\ns\n1\n
err: ls: cannot open directory 'd/s': Permission denied\n
host: skip

test: perm 000: tree
cmd: mkdir -p d/s; touch d/s/f; chmod 000 d/s; tree d; echo $?; tree d/s; echo $?
out: d\n\xe2\x94\x94\xe2\x94\x80\xe2\x94\x80 s  [error opening dir]\n\n2 directories, 0 files\n2\nd/s  [error opening dir]\n\n0 directories, 1 file\n0\n
err: 
host: skip

test: perm 000: cp -r
cmd: mkdir -p d/s; touch d/s/f; chmod 000 d/s; cp -r d e; echo $?; find e
out: 1\ne\ne/s\n
err: cp: cannot access 'd/s': Permission denied\nfind: \xe2\x80\x98e/s\xe2\x80\x99: Permission denied\n
status: 1
host: skip

test: perm 000: rm -r keeps what it cannot empty
cmd: mkdir -p d/s; touch d/s/f; chmod 000 d/s; rm -r d; echo $?; find d 2>/dev/null
out: 1\nd\nd/s\n
err: rm: cannot remove 'd/s': Permission denied\n
status: 1
host: skip

test: perm 000: rm -r removes an empty unreadable directory
cmd: mkdir -p d/s; chmod 000 d/s; rm -r d; echo $?; ls
out: 0\n
err: 
host: skip

test: perm 000: chmod -R
cmd: mkdir -p d/s; touch d/s/f; chmod 000 d/s; chmod -R go-w d; echo $?; chmod -R u+rwx d; echo $?; find d
out: 1\n0\nd\nd/s\nd/s/f\n
err: chmod: cannot read directory 'd/s': Permission denied\n
host: skip

test: perm 000: grep -r
cmd: mkdir -p d/s; echo q > d/s/f; chmod 000 d/s; grep -r q d; echo $?
out: 2\n
err: grep: d/s: Permission denied\n
host: skip

test: perm 000: find -delete
cmd: mkdir -p d/s; touch d/s/f; chmod 000 d/s; find d -delete; echo $?
out: 1\n
err: find: \xe2\x80\x98d/s\xe2\x80\x99: Permission denied\nfind: cannot delete \xe2\x80\x98d/s\xe2\x80\x99: Directory not empty\nfind: cannot delete \xe2\x80\x98d\xe2\x80\x99: Directory not empty\n
host: skip

test: perm 000: ls a path through it
cmd: mkdir -p d/s; touch d/s/f; chmod 000 d/s; ls d/s/f; cat d/s/f; echo $?
out: 1\n
err: ls: cannot access 'd/s/f': Permission denied\ncat: d/s/f: Permission denied\n
host: skip


test: perm 600: find lists names, cannot test them
cmd: mkdir -p d/n; touch d/n/f; chmod 600 d/n; find d -name f; find d -type f; find d -size 0; echo $?
out: d/n/f\nd/n/f\n1\n
err: find: \xe2\x80\x98d/n/f\xe2\x80\x99: Permission denied\n
host: skip

test: perm 600: find
cmd: mkdir -p d/n; touch d/n/f; chmod 600 d/n; find d; echo $?
out: d\nd/n\nd/n/f\n0\n
err: 
host: skip

test: perm 600: find a subdirectory
cmd: mkdir -p d/n/t; chmod 600 d/n; find d; echo $?; find d -type d; echo $?
out: d\nd/n\nd/n/t\n1\nd\nd/n\n1\n
err: find: \xe2\x80\x98d/n/t\xe2\x80\x99: Permission denied\nfind: \xe2\x80\x98d/n/t\xe2\x80\x99: Permission denied\n
host: skip

test: perm 600: du
cmd: mkdir -p d/n; touch d/n/f; chmod 600 d/n; du -a d; echo $?
out: 4\td/n\n8\td\n1\n
err: du: cannot access 'd/n/f': Permission denied\n
host: skip

test: perm 600: ls -R
cmd: mkdir -p d/n/t; chmod 600 d/n; ls -R d; echo $?
out: d:\nn\n\nd/n:\nt\n1\n
err: ls: cannot open directory 'd/n/t': Permission denied\n
host: skip

test: perm 600: ls -lR
cmd: mkdir -p d/n; touch d/n/f; chmod 600 d/n; ls -lR d/n; echo $?
out: d/n:\ntotal 0\n-????????? ? ? ? ?            ? f\n1\n
err: ls: cannot access 'd/n/f': Permission denied\n
host: skip

test: perm 600: ls -F and -i
cmd: mkdir -p d/n; touch d/n/f; chmod 600 d/n; ls -F d/n; ls -i d/n; echo $?
out: f\n? f\n1\n
err: ls: cannot access 'd/n/f': Permission denied\nls: cannot access 'd/n/f': Permission denied\n
host: skip

test: perm 600: tree
cmd: mkdir -p d/n; touch d/n/f; chmod 600 d/n; tree d; echo $?
out: d\n\xe2\x94\x94\xe2\x94\x80\xe2\x94\x80 n\n\n2 directories, 0 files\n0\n
err: 
host: skip

test: perm 600: cp -r
cmd: mkdir -p d/n; touch d/n/f; chmod 600 d/n; cp -r d e; echo $?; find e
out: 1\ne\ne/n\n
err: cp: cannot stat 'd/n/f': Permission denied\n
host: skip

test: perm 600: rm -r
cmd: mkdir -p d/n; touch d/n/f; chmod 600 d/n; rm -r d; echo $?
out: 1\n
err: rm: cannot remove 'd/n/f': Permission denied\n
host: skip

test: perm 600: chmod -R
cmd: mkdir -p d/n; touch d/n/f; chmod 600 d/n; chmod -R o-r d; echo $?
out: 1\n
err: chmod: cannot access 'd/n/f': Permission denied\n
host: skip

test: perm 600: grep -r
cmd: mkdir -p d/n; echo q > d/n/f; chmod 600 d/n; grep -r q d; echo $?
out: 2\n
err: grep: d/n/f: Permission denied\n
host: skip

test: perm 600: find -delete
cmd: mkdir -p d/n; touch d/n/f; chmod 600 d/n; find d -delete; echo $?
out: 1\n
err: find: cannot delete \xe2\x80\x98d/n/f\xe2\x80\x99: Permission denied\nfind: cannot delete \xe2\x80\x98d/n\xe2\x80\x99: Directory not empty\nfind: cannot delete \xe2\x80\x98d\xe2\x80\x99: Directory not empty\n
host: skip


test: perm 100: find
cmd: mkdir -p d/x; touch d/x/f; chmod 100 d/x; find d; echo $?; find d/x/f; echo $?
out: d\nd/x\n1\nd/x/f\n0\n
err: find: \xe2\x80\x98d/x\xe2\x80\x99: Permission denied\n
host: skip

test: perm 100: ls and du
cmd: mkdir -p d/x; touch d/x/f; chmod 100 d/x; ls -R d; echo $?; du d; echo $?; ls d/x/f
out: d:\nx\n1\n4\td/x\n8\td\n1\nd/x/f\n
err: ls: cannot open directory 'd/x': Permission denied\ndu: cannot read directory 'd/x': Permission denied\n
host: skip

test: perm 100: cp -r and rm -r
cmd: mkdir -p d/x; touch d/x/f; chmod 100 d/x; cp -r d e; echo $?; rm -r d; echo $?; rm d/x/f; rm -r d; echo $?
out: 1\n1\n1\n
err: cp: cannot access 'd/x': Permission denied\nrm: cannot remove 'd/x': Permission denied\nrm: cannot remove 'd/x/f': Permission denied\nrm: cannot remove 'd/x': Permission denied\n
host: skip

test: perm 100: grep -r and tree
cmd: mkdir -p d/x; echo q > d/x/f; chmod 100 d/x; grep -r q d; echo $?; grep q d/x/f; tree d; echo $?
out: 2\nq\nd\n\xe2\x94\x94\xe2\x94\x80\xe2\x94\x80 x  [error opening dir]\n\n2 directories, 0 files\n2\n
err: grep: d/x: Permission denied\n
host: skip


test: perm: a read-only directory
cmd: mkdir -p d/r; touch d/r/f; chmod 500 d/r; rm -r d; echo $?; find d; mkdir d/r/s; touch d/r/g; cp d/r/f d/r/h; echo $?; chmod -R u+w d; rm -r d; echo $?
out: 1\nd\nd/r\nd/r/f\n1\n0\n
err: rm: cannot remove 'd/r/f': Permission denied\nmkdir: cannot create directory \xe2\x80\x98d/r/s\xe2\x80\x99: Permission denied\ntouch: cannot touch 'd/r/g': Permission denied\ncp: cannot create regular file 'd/r/h': Permission denied\n
host: skip

test: perm: mkdir -p through a read-only directory
cmd: mkdir -p d/e; chmod 500 d; mkdir -p d/e; echo $?; mkdir -p d/e/f; echo $?; mkdir -p d/x/y; echo $?
out: 0\n0\n1\n
err: mkdir: cannot create directory \xe2\x80\x98d/x\xe2\x80\x99: Permission denied\n
host: skip

test: perm: touch in a read-only directory
cmd: mkdir d; touch d/f; chmod 500 d; touch d/f; echo $?; touch d/g; echo $?
out: 0\n1\n
err: touch: cannot touch 'd/g': Permission denied\n
host: skip

test: perm: rmdir -p stops at a read-only parent
cmd: mkdir -p a/b/c; chmod 500 a; rmdir -p a/b/c; echo $?; find a
out: 1\na\na/b\n
err: rmdir: failed to remove directory 'a/b': Permission denied\n
host: skip
