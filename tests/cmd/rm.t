# rm: files, -r, -d, -f, -v, -i/-I answers from stdin, safety checks.

test: remove files
cmd: touch a b; rm a b; ls
out:

test: missing file
cmd: rm nope
out:
err: rm: cannot remove 'nope': No such file or directory\n
status: 1

test: -f ignores missing files
cmd: rm -f nope; echo $?
out: 0\n

test: -f without operands
cmd: rm -f; echo $?
out: 0\n

test: missing operand
cmd: rm
out:
err: rm: missing operand\nTry 'rm --help' for more information.\n
status: 1

test: directory without -r
cmd: mkdir d; rm d
out:
err: rm: cannot remove 'd': Is a directory\n
status: 1

test: -d removes an empty directory
cmd: mkdir d; rm -dv d
out: removed directory 'd'\n

test: -d on a non-empty directory
cmd: mkdir -p d/e; rm -d d
out:
err: rm: cannot remove 'd': Directory not empty\n
status: 1

test: -r removes a tree
cmd: mkdir -p d/e/f; touch d/x d/e/y; rm -r d; ls
out:

test: -rv reports in post-order
cmd: mkdir -p r/s; touch r/s/f; rm -rv r
out: removed 'r/s/f'\nremoved directory 'r/s'\nremoved directory 'r'\n

test: -v on a file
cmd: touch a; rm -v a
out: removed 'a'\n

test: refuses . and ..
cmd: rm -r . ..
out:
err: rm: refusing to remove '.' or '..' directory: skipping '.'\nrm: refusing to remove '.' or '..' directory: skipping '..'\n
status: 1

test: refuses a path ending in .
cmd: mkdir d; rm -rf d/.; ls
out: d\n
err: rm: refusing to remove '.' or '..' directory: skipping 'd/.'\n

test: preserve root
cmd: rm -r /
out:
err: rm: it is dangerous to operate recursively on '/'\nrm: use --no-preserve-root to override this failsafe\n
status: 1

test: symlink is removed, not its target
cmd: mkdir d; touch d/f; ln -s d l; rm -r l; ls d
out: f\n

test: -i answered no keeps the file
cmd: touch a; echo n | rm -i a; ls
out: a\n
err: rm: remove regular empty file 'a'? 

test: -i answered yes
cmd: echo x > a; echo y | rm -i a; ls
out:
err: rm: remove regular file 'a'? 

test: -I asks once for more than three files
cmd: touch a b c d; echo y | rm -I a b c d; ls
out:
err: rm: remove 4 arguments? 

test: -I with -r asks once
cmd: mkdir d; echo n | rm -rI d; ls
out: d\n
err: rm: remove 1 argument recursively? 


test: -ri on a single file in a directory
cmd: mkdir dd; touch dd/f; printf 'y\ny\ny\n' | rm -riv dd
out: removed 'dd/f'\nremoved directory 'dd'\n
err: rm: descend into directory 'dd'? rm: remove regular empty file 'dd/f'? rm: remove directory 'dd'? 

test: -r with many files
cmd: mkdir d; for i in $(seq 1 300); do touch d/f$i; done; rm -r d; ls
out:

test: long options abbreviated, the last of -f and --interactive counts
cmd: mkdir -p d/e; touch f g; rm --rec --verb d; rm --dir --inter=never f; rm -f --inter=never ---presume g; ls; rm --one 2>&1; echo $?
out: removed directory 'd/e'\nremoved directory 'd'\nrm: missing operand\nTry 'rm --help' for more information.\n1\n
