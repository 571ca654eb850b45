# ls: listing formats, sorting, long format columns, errors.
# Times are pinned with touch -d so that the long format is reproducible
# (files older than six months use the "%b %e  %Y" form).

test: plain listing one per line
cmd: touch b a c; ls
out: a\nb\nc\n

test: hidden files need -a or -A
cmd: touch .h v; ls; echo --; ls -A; echo --; ls -a
out: v\n--\n.h\nv\n--\n.\n..\n.h\nv\n

test: empty directory
cmd: mkdir e; ls e
out:

test: missing operand is an error with status 2
cmd: ls nope
out:
err: ls: cannot access 'nope': No such file or directory\n
status: 2

test: missing operand among others
cmd: touch a; ls nope a
out: a\n
err: ls: cannot access 'nope': No such file or directory\n
status: 2

test: files before directories with headers
cmd: mkdir d1 d2; touch d1/x f; ls d1 f d2
out: f\n\nd1:\nx\n\nd2:\n

test: -d lists directories themselves
cmd: mkdir d; touch d/x; ls -d d .
out: .\nd\n

test: -1 and -C with COLUMNS
cmd: touch aa bb cc dd; COLUMNS=10 ls -C
out: aa  cc\nbb  dd\n

test: -x across
cmd: touch aa bb cc dd; COLUMNS=10 ls -x
out: aa  bb\ncc  dd\n

test: -C pads with tabs across tab stops
cmd: touch aaaaa bbbbbbbbbbbbbbb c; COLUMNS=30 ls -C
out: aaaaa  bbbbbbbbbbbbbbb\tc\n

test: -m commas
cmd: touch a b c; ls -m
out: a, b, c\n

test: -m wraps at the width
cmd: touch aaaa bbbb cccc dddd; COLUMNS=12 ls -m
out: aaaa, bbbb,\ncccc, dddd\n

test: -r reverses
cmd: touch a b c; ls -r
out: c\nb\na\n

test: -t sorts newest first
cmd: touch -d '2020-01-01' a; touch -d '2021-01-01' b; touch -d '2019-01-01' c; ls -t
out: b\na\nc\n

test: -tr
cmd: touch -d '2020-01-01' a; touch -d '2021-01-01' b; touch -d '2019-01-01' c; ls -tr
out: c\na\nb\n

test: -S sorts by size, ties by name
cmd: printf 12345 > big; printf 1 > b; printf 1 > a; ls -S
out: big\na\nb\n

test: -X sorts by extension
cmd: touch a.c b.a c.b d; ls -X
out: d\nb.a\nc.b\na.c\n

test: -v natural sort
cmd: touch f10 f9 f1 f100; ls -v
out: f1\nf9\nf10\nf100\n

test: -U still lists everything
cmd: touch a; ls -U | wc -l
out: 1\n

test: -F classifies
cmd: mkdir d; touch f x; chmod +x x; ln -s f l; ls -F
out: d/\nf\nl@\nx*\n

test: -p only marks directories
cmd: mkdir d; touch f; ln -s f l; ls -p
out: d/\nf\nl\n

test: --file-type
cmd: mkdir d; touch x; chmod +x x; ln -s x l; ls --file-type
out: d/\nl@\nx\n

test: long format
cmd: printf hello > f; mkdir d; touch -d '2020-01-02 03:04' f d; ls -l
out: total 8\ndrwxr-xr-x 2 root root 4096 Jan  2  2020 d\n-rw-r--r-- 1 root root    5 Jan  2  2020 f\n

test: long format of a symlink
cmd: touch -d 2020-01-01 f; ln -s f l; touch -h -d 2020-01-01 l; ls -l l
out: lrwxrwxrwx 1 root root 1 Jan  1  2020 l -> f\n

test: long format -F on a symlink to a directory
cmd: mkdir d; ln -s d l; touch -h -d 2020-01-01 l; ls -lF l
out: lrwxrwxrwx 1 root root 1 Jan  1  2020 l -> d/\n

test: -n numeric ids
cmd: touch -d 2020-01-01 f; ls -n f
out: -rw-r--r-- 1 0 0 0 Jan  1  2020 f\n

test: -g and -o drop owner or group
cmd: touch -d 2020-01-01 f; ls -g f; ls -o f
out: -rw-r--r-- 1 root 0 Jan  1  2020 f\n-rw-r--r-- 1 root 0 Jan  1  2020 f\n

test: -G drops the group
cmd: touch -d 2020-01-01 f; ls -lG f
out: -rw-r--r-- 1 root 0 Jan  1  2020 f\n

test: --full-time
cmd: touch -d '2020-01-02 03:04:05.123456789' f; ls --full-time f
out: -rw-r--r-- 1 root root 0 2020-01-02 03:04:05.123456789 +0000 f\n

test: --time-style=long-iso
cmd: touch -d '2020-01-02 03:04:05' f; ls -l --time-style=long-iso f
out: -rw-r--r-- 1 root root 0 2020-01-02 03:04 f\n

test: --time-style=iso for an old file
cmd: touch -d '2020-01-02 03:04:05' f; ls -l --time-style=iso f
out: -rw-r--r-- 1 root root 0 2020-01-02  f\n

test: --time-style=+FORMAT
cmd: touch -d '2020-01-02 03:04:05' f; ls -l --time-style=+%s f
out: -rw-r--r-- 1 root root 0 1577934245 f\n

test: invalid time style
cmd: ls -l --time-style=bogus
out:
status: 2

test: recent files show the time of day
cmd: touch -d '-1 day' f; ls -l f | grep -c ':'
out: 1\n

test: -h human sizes
cmd: head -c 1500 /dev/zero > k; head -c 2000000 /dev/zero > m; touch -d 2020-01-01 k m; ls -lh k m
out: -rw-r--r-- 1 root root 1.5K Jan  1  2020 k\n-rw-r--r-- 1 root root 2.0M Jan  1  2020 m\n

test: --si
cmd: head -c 1500 /dev/zero > k; touch -d 2020-01-01 k; ls -l --si k
out: -rw-r--r-- 1 root root 1.5k Jan  1  2020 k\n

test: -s blocks and total
cmd: printf 1 > a; head -c 5000 /dev/zero > b; touch c; ls -s
out: total 12\n4 a\n8 b\n0 c\n

test: -sh
cmd: head -c 5000 /dev/zero > b; ls -sh b
out: 8.0K b\n

test: --block-size
cmd: head -c 1500 /dev/zero > k; touch -d 2020-01-01 k; ls -l --block-size=K k; ls -l --block-size=1K k
out: -rw-r--r-- 1 root root 2K Jan  1  2020 k\n-rw-r--r-- 1 root root 2 Jan  1  2020 k\n

test: -i prints inode numbers
cmd: touch a; ls -i a | grep -c '^[0-9][0-9]* a$'
out: 1\n

test: -R recursive
cmd: mkdir -p d/e; touch d/f d/e/g; ls -R d
out: d:\ne\nf\n\nd/e:\ng\n

test: -R of the current directory
cmd: mkdir e; touch e/x; ls -R
out: .:\ne\n\n./e:\nx\n

test: -Q quotes
cmd: touch 'a b'; ls -Q
out: "a b"\n

test: -b escapes
cmd: touch 'a b'; ls -b
out: a\\ b\n

test: --quoting-style=shell
cmd: touch 'a b' c; ls --quoting-style=shell
out: 'a b'\nc\n

test: --quoting-style=shell-escape with a newline
cmd: touch "$(printf 'x\ny')"; ls --quoting-style=shell-escape
out: 'x'$'\\n''y'\n

test: -q hides control characters
cmd: touch "$(printf 'x\ty')"; ls -q
out: x?y\n

test: names are literal by default
cmd: touch "$(printf 'x\ty')"; ls
out: x\ty\n

test: -I ignores patterns
cmd: touch a.c b.o c.c; ls -I '*.o'
out: a.c\nc.c\n

test: --hide is overridden by -A
cmd: touch a.c b.o; ls --hide='*.o'; ls -A --hide='*.o'
out: a.c\na.c\nb.o\n

test: -B ignores backups
cmd: touch a a~; ls -B
out: a\n

test: --group-directories-first
cmd: mkdir b; touch a c; ls --group-directories-first
out: b\na\nc\n

test: symlink to a directory on the command line is followed
cmd: mkdir d; touch d/x; ln -s d l; ls l
out: x\n

test: -l does not follow a command-line symlink
cmd: mkdir d; ln -s d l; touch -h -d 2020-01-01 l; ls -l l
out: lrwxrwxrwx 1 root root 1 Jan  1  2020 l -> d\n

test: -L follows symlinks
cmd: printf abc > f; ln -s f l; touch -d 2020-01-01 f; ls -lL l
out: -rw-r--r-- 1 root root 3 Jan  1  2020 l\n

test: -H follows command-line symlinks
cmd: mkdir d; touch d/x; ln -s d l; ls -H l
out: x\n

test: dangling symlink with -L
cmd: ln -s nowhere l; ls -L l
out:
err: ls: cannot access 'l': No such file or directory\n
status: 2

test: directory counts in -l
cmd: mkdir -p d/a d/b; touch -d 2020-01-01 d; ls -ld d
out: drwxr-xr-x 4 root root 4096 Jan  1  2020 d\n

test: -la shows . and ..
cmd: mkdir d; touch -d 2020-01-01 d/f d; cd d; ls -la | grep -v ' \.\.$'
out: total 8\ndrwxr-xr-x 2 root root 4096 Jan  1  2020 .\n-rw-r--r-- 1 root root    0 Jan  1  2020 f\n

test: --zero
cmd: touch a b; ls --zero
out: a\0b\0

test: invalid option
cmd: ls -j
out:
err: ls: invalid option -- 'j'\nTry 'ls --help' for more information.\n
status: 2

test: --sort=size
cmd: printf 12 > a; printf 1 > b; ls --sort=size
out: a\nb\n

test: invalid --sort argument
cmd: ls --sort=bogus
out:
err: ls: invalid argument \xe2\x80\x98bogus\xe2\x80\x99 for \xe2\x80\x98--sort\xe2\x80\x99\nValid arguments are:\n
err:   - \xe2\x80\x98none\xe2\x80\x99\n  - \xe2\x80\x98time\xe2\x80\x99\n  - \xe2\x80\x98size\xe2\x80\x99\n
err:   - \xe2\x80\x98extension\xe2\x80\x99\n  - \xe2\x80\x98version\xe2\x80\x99\n  - \xe2\x80\x98width\xe2\x80\x99\n
err: Try 'ls --help' for more information.\n
status: 1

test: -c with -t sorts by change time
cmd: touch a; touch b; ls -ct | wc -l
out: 2\n

test: unreadable directory
# host: root reads everything
host: skip
cmd: mkdir d; chmod 0 d; ls d
out:
err: ls: cannot open directory 'd': Permission denied\n
status: 2
