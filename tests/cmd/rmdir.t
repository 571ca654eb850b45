# rmdir: empty directories only, -p, -v, --ignore-fail-on-non-empty.

test: remove an empty directory
cmd: mkdir d; rmdir d; ls
out:

test: non-empty fails
cmd: mkdir d; touch d/f; rmdir d
out:
err: rmdir: failed to remove 'd': Directory not empty\n
status: 1

test: missing
cmd: rmdir nope
out:
err: rmdir: failed to remove 'nope': No such file or directory\n
status: 1

test: a file
cmd: touch f; rmdir f
out:
err: rmdir: failed to remove 'f': Not a directory\n
status: 1

test: -p removes the parents
cmd: mkdir -p a/b/c; rmdir -p a/b/c; ls
out:

test: -p stops at a non-empty parent
cmd: mkdir -p p/q/r p/z; rmdir -p p/q/r; echo $?; ls p
out: 1\nz\n
err: rmdir: failed to remove directory 'p': Directory not empty\n

test: --ignore-fail-on-non-empty
cmd: mkdir -p p/q p/z; rmdir --ignore-fail-on-non-empty p; echo $?
out: 0\n

test: -pv
cmd: mkdir -p g/h; rmdir -pv g/h/
out: rmdir: removing directory, 'g/h/'\nrmdir: removing directory, 'g'\n

test: dot
cmd: rmdir .
out:
err: rmdir: failed to remove '.': Invalid argument\n
status: 1

test: missing operand
cmd: rmdir
out:
err: rmdir: missing operand\nTry 'rmdir --help' for more information.\n
status: 1

test: long options abbreviated
cmd: mkdir -p a/b x; touch x/f; rmdir --par --verb a/b; rmdir --ign x; echo $?; ls
out: rmdir: removing directory, 'a/b'\nrmdir: removing directory, 'a'\n0\nx\n
