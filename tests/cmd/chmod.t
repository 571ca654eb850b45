# chmod: octal and symbolic modes (gnulib rules), -R, -v/-c, --reference.

test: octal
cmd: touch f; chmod 751 f; ls -l f | cut -c1-10
out: -rwxr-x--x\n

test: symbolic add and remove
cmd: touch f; chmod 600 f; chmod g+r,o+r f; ls -l f | cut -c1-10; chmod a-r f; ls -l f | cut -c1-10
out: -rw-r--r--\n--w-------\n

test: = sets exactly
cmd: touch f; chmod u=rx,go= f; ls -l f | cut -c1-10
out: -r-x------\n

test: +x without who follows the umask
cmd: touch f; chmod 600 f; umask 022; chmod +x f; ls -l f | cut -c1-10
out: -rwx--x--x\n

test: X only for directories or executables
cmd: touch f; mkdir d; chmod 600 f; chmod 700 d; chmod a+X f d; ls -ld f d | cut -c1-10
out: drwx--x--x\n-rw-------\n

test: copying bits with g=u
cmd: touch f; chmod 640 f; chmod o=g f; ls -l f | cut -c1-10
out: -rw-r--r--\n

test: setuid, setgid and sticky
cmd: touch f; mkdir d; chmod 644 f; chmod u+s,g+s f; chmod +t d; ls -ld f d | cut -c1-10
out: drwxr-xr-t\n-rwSr-Sr--\n

test: short octal keeps a directory's setgid
cmd: mkdir d; chmod 2755 d; chmod 755 d; ls -ld d | cut -c1-10; chmod 00755 d; ls -ld d | cut -c1-10
out: drwxr-sr-x\ndrwxr-xr-x\n

test: -v
cmd: touch f; chmod 644 f; chmod -v 755 f; chmod -v 755 f
out: mode of 'f' changed from 0644 (rw-r--r--) to 0755 (rwxr-xr-x)\nmode of 'f' retained as 0755 (rwxr-xr-x)\n

test: -c reports only changes
cmd: touch f; chmod 755 f; chmod -c 644 f; chmod -c 644 f
out: mode of 'f' changed from 0755 (rwxr-xr-x) to 0644 (rw-r--r--)\n

test: a mode that looks like an option
cmd: touch f; chmod 644 f; chmod -w f; ls -l f | cut -c1-10
out: -r--r--r--\n

test: umask surprise warning
cmd: touch f; chmod 666 f; umask 022; chmod -w f; echo $?; ls -l f | cut -c1-10
out: 1\n-r--rw-rw-\n
err: chmod: f: new permissions are r--rw-rw-, not r--r--r--\n

test: -R
cmd: mkdir -p d/e; touch d/e/f; chmod -R go-rx d; ls -ld d d/e | cut -c1-10; ls -l d/e/f | cut -c1-10
out: drwx------\ndrwx------\n-rw-------\n

test: -R does not follow symlinks in the tree
cmd: mkdir d; touch t; chmod 600 t; ln -s ../t d/l; chmod -Rv 700 d
out: mode of 'd' changed from 0755 (rwxr-xr-x) to 0700 (rwx------)\nneither symbolic link 'd/l' nor referent has been changed\n

test: a symlink operand changes its target
cmd: touch t; chmod 600 t; ln -s t l; chmod 644 l; ls -l t | cut -c1-10
out: -rw-r--r--\n

test: --reference
cmd: touch a b; chmod 700 a; chmod --reference=a b; ls -l b | cut -c1-10
out: -rwx------\n

test: missing file
cmd: chmod 644 nope
out:
err: chmod: cannot access 'nope': No such file or directory\n
status: 1

test: -f silences
cmd: chmod -f 644 nope; echo $?
out: 1\n
err:

test: invalid mode
cmd: touch f; chmod abc f
out:
err: chmod: invalid mode: \xe2\x80\x98abc\xe2\x80\x99\nTry 'chmod --help' for more information.\n
status: 1

test: octal out of range
cmd: touch f; chmod 17777 f
out:
err: chmod: invalid mode: \xe2\x80\x9817777\xe2\x80\x99\nTry 'chmod --help' for more information.\n
status: 1

test: missing operand
cmd: chmod 755
out:
err: chmod: missing operand after \xe2\x80\x98755\xe2\x80\x99\nTry 'chmod --help' for more information.\n
status: 1

test: --preserve-root
cmd: chmod -R --preserve-root 755 /
out:
err: chmod: it is dangerous to operate recursively on '/'\nchmod: use --no-preserve-root to override this failsafe\n
status: 1

test: several clauses
cmd: touch f; chmod 000 f; chmod u+rw,g+r,o+r,u-w f; ls -l f | cut -c1-10
out: -r--r--r--\n

test: the last of --no-preserve-root and --preserve-root counts, abbreviated
cmd: chmod -R --no-pres --preserve-r 755 /
out:
err: chmod: it is dangerous to operate recursively on '/'\nchmod: use --no-preserve-root to override this failsafe\n
status: 1

test: abbreviated --reference and --verbose
cmd: touch a b; chmod 700 a; chmod --verb --ref=a b; ls -l b | cut -c1-10
out: mode of 'b' changed from 0644 (rw-r--r--) to 0700 (rwx------)\n-rwx------\n

test: a missing --reference file, and -f -v on a missing operand
cmd: chmod --reference=nope a; echo $?; chmod -fv 644 nope; echo $?
out: 1\n'nope' could not be accessed\n1\n
err: chmod: failed to get attributes of 'nope': No such file or directory\n
