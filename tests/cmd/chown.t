# chown and chgrp over the store's uid/gid fields (GNU coreutils 9.1). Ids
# without names on the host (4242...) keep both sides' reports alike. The
# sandbox's user owns its files but is not root: a file given away cannot be
# taken back, so each case changes a file at most once away from uid 0.

test: owner and group by number, reports
cmd: touch f g h; chown -v 0 g; chown -c 0 g; chown :4343 h; stat -c '%u %g' h; chown -v root: g; chown -v 4242:4343 f; stat -c '%u %g' f
out: ownership of 'g' retained as root\n0 4343\nownership of 'g' retained as root:root\nchanged ownership of 'f' from root:root to 4242:4343\n4242 4343\n

test: chgrp
cmd: touch f g; chgrp -v root g; chgrp -c 0 g; chgrp -v 4343 f; stat -c '%g' f
out: group of 'g' retained as root\nchanged group of 'f' from root to 4343\n4343\n

test: symlinks: followed, or changed themselves with -h
cmd: touch f g; ln -s f l; ln -s g m; chown -h 4242 l; stat -c '%u' l f; chown 4343 m; stat -c '%u' m g
out: 4242\n0\n0\n4343\n

test: recursive
cmd: mkdir -p d/e; touch d/x d/e/y; chown -R 4242:4343 d; stat -c '%u %g %n' d d/x d/e d/e/y
out: 4242 4343 d\n4242 4343 d/x\n4242 4343 d/e\n4242 4343 d/e/y\n

test: --from and --reference
cmd: touch f g h; chown 4242:4343 g; chown -v --from=4242 4244 f; chown -v --from=0 4244 f; chown --reference=g h; stat -c '%u %g' f h
out: ownership of 'f' retained as root\nchanged ownership of 'f' from root to 4244\n4244 0\n4242 4343\n

test: the old dot spelling warns
cmd: touch f; chown 4242.4343 f; stat -c '%u %g' f
out: 4242 4343\n
err: chown: warning: '.' should be ':': ‘4242.4343’\n

test: errors
cmd: touch f; chown nosuchuser f; chown 1:nosuchg f; chgrp nosuchg f; chown; chown x; chown 5 nosuch; echo $?
out: 1\n
err: chown: invalid user: ‘nosuchuser’\nchown: invalid group: ‘1:nosuchg’\nchgrp: invalid group: ‘nosuchg’\n
err: chown: missing operand\nTry 'chown --help' for more information.\nchown: missing operand after ‘x’\nTry 'chown --help' for more information.\n
err: chown: cannot access 'nosuch': No such file or directory\n

# sbx: names come from the sandbox's own /etc/passwd and /etc/group
test: names from the sandbox's passwd and group files
cmd: mkdir -p /etc; printf 'root:x:0:0::/root:/bin/sh\nalice:x:1000:1000::/home/alice:/bin/sh\n' > /etc/passwd; printf 'root:x:0:\nalice:x:1000:\nstaff:x:50:alice\n' > /etc/group
cmd: touch f g; chown -v :staff g; chown -v alice: f; stat -c '%u %g' f g; stat -c '%U %G' g
out: changed group of 'g' from root to staff\nchanged ownership of 'f' from root:root to alice:alice\n1000 1000\n0 50\nroot staff\n
host: skip

# sbx: the store's owner rule (no root): a file given away stays away
test: a file given away cannot be taken back
cmd: touch f; chown 4242 f; chown 0 f; echo $?; stat -c %u f
out: 1\n4242\n
err: chown: changing ownership of 'f': Operation not permitted\n
host: skip

test: a bad option prints the usage hint once
cmd: chown --nosuch f; chgrp -Q f
out:
err: chown: unrecognized option '--nosuch'\nTry 'chown --help' for more information.\n
err: chgrp: invalid option -- 'Q'\nTry 'chgrp --help' for more information.\n
status: 1

test: abbreviated --from and --reference
cmd: touch f g h; chown 4242:4343 g; chown --fr=0 --verb 4244 f; chown --refer=g h; stat -c '%u %g' f h
out: changed ownership of 'f' from root to 4244\n4244 0\n4242 4343\n

test: a missing --reference file, and -h on a missing operand
cmd: chown --reference=nope a; echo $?; chown -h 0 nope; echo $?; chown -hf 0 nope; echo $?
out: 1\n1\n1\n
err: chown: failed to get attributes of 'nope': No such file or directory\nchown: cannot access 'nope': No such file or directory\n
