# whoami, id, uname, hostname, nproc and which. The sandbox's user is uid 0
# "root"; host name, kernel and CPU count are fixed values in the sandbox, so
# those cases cannot be checked against a host.

test: whoami
cmd: whoami
out: root\n

test: whoami extra operand
cmd: whoami x
out:
err: whoami: extra operand \xe2\x80\x98x\xe2\x80\x99\nTry 'whoami --help' for more information.\n
status: 1

test: id default
cmd: id
out: uid=0(root) gid=0(root) groups=0(root)\n

test: id -u -g -G and names
cmd: id -u; id -g; id -G; id -un; id -gn; id -Gn
out: 0\n0\n0\nroot\nroot\nroot\n

test: id root
cmd: id root
out: uid=0(root) gid=0(root) groups=0(root)\n

test: id -n alone
cmd: id -n
out:
err: id: cannot print only names or real IDs in default format\n
status: 1

test: id of an unknown user
cmd: id nosuchuser-x
out:
err: id: \xe2\x80\x98nosuchuser-x\xe2\x80\x99: no such user\n
status: 1

test: uname
cmd: uname; uname -s; uname -o
out: Linux\nLinux\nGNU/Linux\n

test: uname -p and -i
cmd: uname -p; uname -i
out: unknown\nunknown\n

test: uname invalid option
cmd: uname -x
out:
err: uname: invalid option -- 'x'\nTry 'uname --help' for more information.\n
status: 1

test: uname -a in the sandbox
# host: the host's kernel and name differ from the sandbox's fixed ones
host: skip
cmd: uname -a; uname -n; uname -r
out: Linux sandbox 6.1.0-sbx #1 SMP PREEMPT_DYNAMIC sbx x86_64 GNU/Linux\nsandbox\n6.1.0-sbx\n

test: hostname in the sandbox
# host: the host has its own name
host: skip
cmd: hostname; hostname -s
out: sandbox\nsandbox\n

test: nproc in the sandbox
# host: the host has more processors; commands run one at a time in sbx
host: skip
cmd: nproc; OMP_NUM_THREADS=4 nproc; nproc --ignore=3
out: 1\n4\n1\n

test: which finds commands
cmd: which ls; which -a ls
out: /usr/bin/ls\n/usr/bin/ls\n/bin/ls\n

test: which of a missing command
cmd: which nosuchcommand-x; echo $?
out: 1\n

test: which of a script in the PATH
cmd: mkdir bin; printf '#!/bin/sh\necho hi\n' > bin/tool; chmod +x bin/tool; r=$(PATH=$PWD/bin:$PATH which tool); echo "${r#$PWD/}"
out: bin/tool\n

test: uname: long options abbreviated; --h and --k are ambiguous, in GNU's order
cmd: uname --kernel-n --op; uname --h; uname --k
out: Linux GNU/Linux\n
err: uname: option '--h' is ambiguous; possibilities: '--hardware-platform' '--help'\nTry 'uname --help' for more information.\nuname: option '--k' is ambiguous; possibilities: '--kernel-name' '--kernel-release' '--kernel-version'\nTry 'uname --help' for more information.\n
status: 1

test: id: long options abbreviated; --gr is ambiguous
cmd: id --us --na root; id --gr
out: root\n
err: id: option '--gr' is ambiguous; possibilities: '--group' '--groups'\nTry 'id --help' for more information.\n
status: 1

test: id -Z is refused at once, before a later bad option
cmd: id -Z --nope; echo $?
out: 1\n
err: id: --context (-Z) works only on an SELinux-enabled kernel\n

test: nproc: --ignore's bad number is reported before a later bad option; an operand is refused
cmd: nproc --ignore=x --nope; nproc --a --ig=0 x
out:
err: nproc: invalid number: ‘x’\nnproc: extra operand ‘x’\nTry 'nproc --help' for more information.\n
status: 1

# Debian's hostname prints its usage after the message, and exits 255
test: hostname: ambiguous prefixes name their possibilities in Debian's order
cmd: hostname --a; hostname --f; hostname --sh --fq --l
out: sandbox\n
err: hostname: option '--a' is ambiguous; possibilities: '--all-fqdns' '--alias' '--all-ip-addresses'\nTry 'hostname --help' for more information.\nhostname: option '--f' is ambiguous; possibilities: '--file' '--fqdn'\nTry 'hostname --help' for more information.\n
host: skip
