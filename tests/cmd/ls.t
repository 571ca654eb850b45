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

# ---- audit4: --color (GNU defaults, LS_COLORS, TERM), --author, block-size units, widths ----
test: audit: TERM=xterm ls --color=always | od -c
cmd: mkdir d; touch f; chmod +x f; ln -s d ld; ln -s f lf; ln -s nope bl; touch a.tar b.TAR c.jpg; mkdir -m 1777 t; mkdir -m 777 ow; touch su; chmod 4755 su; touch -d 2020-01-01 *
cmd: TERM=xterm ls --color=always | od -c
out: 0000000   a   .   t   a   r  \\n   b   .   T   A   R  \\n 033   [   0   m\n0000020 033   [   0   1   ;   3   6   m   b   l 033   [   0   m  \\n   c\n0000040   .   j   p   g  \\n 033   [   0   1   ;   3   4   m   d 033   [\n0000060   0   m  \\n 033   [   0   1   ;   3   2   m   f 033   [   0   m\n0000100  \\n 033   [   0   1   ;   3   6   m   l   d 033   [   0   m  \\n\n0000120 033   [   0   1   ;   3   6   m   l   f 033   [   0   m  \\n   n\n0000140   o   p   e  \\n 033   [   3   4   ;   4   2   m   o   w 033   [\n0000160   0   m  \\n 033   [   3   7   ;   4   1   m   s   u 033   [   0\n0000200   m  \\n 033   [   3   0   ;   4   2   m   t 033   [   0   m  \\n\n0000220\n
err: 

test: audit: ls --color=always | od -c
cmd: mkdir d; touch f; chmod +x f; ln -s d ld; ln -s f lf; ln -s nope bl; touch a.tar b.TAR c.jpg; mkdir -m 1777 t; mkdir -m 777 ow; touch su; chmod 4755 su; touch -d 2020-01-01 *
cmd: ls --color=always | od -c
out: 0000000   a   .   t   a   r  \\n   b   .   T   A   R  \\n   b   l  \\n   c\n0000020   .   j   p   g  \\n   d  \\n   f  \\n   l   d  \\n   l   f  \\n   n\n0000040   o   p   e  \\n   o   w  \\n   s   u  \\n   t  \\n\n0000054\n
err: 

test: audit: TERM=xterm ls --color=auto | od -c; TERM=xterm ls --color=never | od -
cmd: mkdir d; touch f; chmod +x f; ln -s d ld; ln -s f lf; ln -s nope bl; touch a.tar b.TAR c.jpg; mkdir -m 1777 t; mkdir -m 777 ow; touch su; chmod 4755 su; touch -d 2020-01-01 *
cmd: TERM=xterm ls --color=auto | od -c; TERM=xterm ls --color=never | od -c
out: 0000000   a   .   t   a   r  \\n   b   .   T   A   R  \\n   b   l  \\n   c\n0000020   .   j   p   g  \\n   d  \\n   f  \\n   l   d  \\n   l   f  \\n   n\n0000040   o   p   e  \\n   o   w  \\n   s   u  \\n   t  \\n\n0000054\n0000000   a   .   t   a   r  \\n   b   .   T   A   R  \\n   b   l  \\n   c\n0000020   .   j   p   g  \\n   d  \\n   f  \\n   l   d  \\n   l   f  \\n   n\n0000040   o   p   e  \\n   o   w  \\n   s   u  \\n   t  \\n\n0000054\n
err: 

test: audit: TERM=xterm ls --color | od -c
cmd: mkdir d; touch f; chmod +x f; ln -s d ld; ln -s f lf; ln -s nope bl; touch a.tar b.TAR c.jpg; mkdir -m 1777 t; mkdir -m 777 ow; touch su; chmod 4755 su; touch -d 2020-01-01 *
cmd: TERM=xterm ls --color | od -c
out: 0000000   a   .   t   a   r  \\n   b   .   T   A   R  \\n 033   [   0   m\n0000020 033   [   0   1   ;   3   6   m   b   l 033   [   0   m  \\n   c\n0000040   .   j   p   g  \\n 033   [   0   1   ;   3   4   m   d 033   [\n0000060   0   m  \\n 033   [   0   1   ;   3   2   m   f 033   [   0   m\n0000100  \\n 033   [   0   1   ;   3   6   m   l   d 033   [   0   m  \\n\n0000120 033   [   0   1   ;   3   6   m   l   f 033   [   0   m  \\n   n\n0000140   o   p   e  \\n 033   [   3   4   ;   4   2   m   o   w 033   [\n0000160   0   m  \\n 033   [   3   7   ;   4   1   m   s   u 033   [   0\n0000200   m  \\n 033   [   3   0   ;   4   2   m   t 033   [   0   m  \\n\n0000220\n
err: 

test: audit: COLORTERM=1 ls --color=always -C | od -c
cmd: mkdir d; touch f; chmod +x f; ln -s d ld; ln -s f lf; ln -s nope bl; touch a.tar b.TAR c.jpg; mkdir -m 1777 t; mkdir -m 777 ow; touch su; chmod 4755 su; touch -d 2020-01-01 *
cmd: COLORTERM=1 ls --color=always -C | od -c
out: 0000000   a   .   t   a   r           b   .   T   A   R         033   [\n0000020   0   m 033   [   0   1   ;   3   6   m   b   l 033   [   0   m\n0000040           c   .   j   p   g         033   [   0   1   ;   3   4\n0000060   m   d 033   [   0   m         033   [   0   1   ;   3   2   m\n0000100   f 033   [   0   m         033   [   0   1   ;   3   6   m   l\n0000120   d 033   [   0   m         033   [   0   1   ;   3   6   m   l\n0000140   f 033   [   0   m           n   o   p   e         033   [   3\n0000160   4   ;   4   2   m   o   w 033   [   0   m         033   [   3\n0000200   7   ;   4   1   m   s   u 033   [   0   m         033   [   3\n0000220   0   ;   4   2   m   t 033   [   0   m  \\n\n0000233\n
err: 

test: audit: TERM=xterm ls --color=always -l --time-style=+T | cut -c 30- | od -c
cmd: mkdir d; touch f; chmod +x f; ln -s d ld; ln -s f lf; ln -s nope bl; touch a.tar b.TAR c.jpg; mkdir -m 1777 t; mkdir -m 777 ow; touch su; chmod 4755 su; touch -d 2020-01-01 *
cmd: TERM=xterm ls --color=always -l --time-style=+T | cut -c 30- | od -c
out: 0000000  \\n       a   .   t   a   r  \\n       b   .   T   A   R  \\n    \n0000020 033   [   0   m 033   [   0   1   ;   3   6   m   b   l 033   [\n0000040   0   m       -   >       n   o   p   e  \\n       c   .   j   p\n0000060   g  \\n     033   [   0   1   ;   3   4   m   d 033   [   0   m\n0000100  \\n     033   [   0   1   ;   3   2   m   f 033   [   0   m  \\n\n0000120     033   [   0   1   ;   3   6   m   l   d 033   [   0   m    \n0000140   -   >       d  \\n     033   [   0   1   ;   3   6   m   l   f\n0000160 033   [   0   m       -   >       f  \\n       n   o   p   e  \\n\n0000200     033   [   3   4   ;   4   2   m   o   w 033   [   0   m  \\n\n0000220     033   [   3   7   ;   4   1   m   s   u 033   [   0   m  \\n\n0000240     033   [   3   0   ;   4   2   m   t 033   [   0   m  \\n\n0000257\n
err: 

test: audit: TERM=xterm ls --color=always -lF --time-style=+T | cut -c 30- | od -c
cmd: mkdir d; touch f; chmod +x f; ln -s d ld; ln -s f lf; ln -s nope bl; touch a.tar b.TAR c.jpg; mkdir -m 1777 t; mkdir -m 777 ow; touch su; chmod 4755 su; touch -d 2020-01-01 *
cmd: TERM=xterm ls --color=always -lF --time-style=+T | cut -c 30- | od -c
out: 0000000  \\n       a   .   t   a   r  \\n       b   .   T   A   R  \\n    \n0000020 033   [   0   m 033   [   0   1   ;   3   6   m   b   l 033   [\n0000040   0   m       -   >       n   o   p   e  \\n       c   .   j   p\n0000060   g  \\n     033   [   0   1   ;   3   4   m   d 033   [   0   m\n0000100   /  \\n     033   [   0   1   ;   3   2   m   f 033   [   0   m\n0000120   *  \\n     033   [   0   1   ;   3   6   m   l   d 033   [   0\n0000140   m       -   >     033   [   0   1   ;   3   4   m   d 033   [\n0000160   0   m   /  \\n     033   [   0   1   ;   3   6   m   l   f 033\n0000200   [   0   m       -   >     033   [   0   1   ;   3   2   m   f\n0000220 033   [   0   m   *  \\n       n   o   p   e  \\n     033   [   3\n0000240   4   ;   4   2   m   o   w 033   [   0   m   /  \\n     033   [\n0000260   3   7   ;   4   1   m   s   u 033   [   0   m   *  \\n     033\n0000300   [   3   0   ;   4   2   m   t 033   [   0   m   /  \\n\n0000316\n
err: 

test: audit: TERM=xterm ls --color=always -F | od -c
cmd: mkdir d; touch f; chmod +x f; ln -s d ld; ln -s f lf; ln -s nope bl; touch a.tar b.TAR c.jpg; mkdir -m 1777 t; mkdir -m 777 ow; touch su; chmod 4755 su; touch -d 2020-01-01 *
cmd: TERM=xterm ls --color=always -F | od -c
out: 0000000   a   .   t   a   r  \\n   b   .   T   A   R  \\n 033   [   0   m\n0000020 033   [   0   1   ;   3   6   m   b   l 033   [   0   m   @  \\n\n0000040   c   .   j   p   g  \\n 033   [   0   1   ;   3   4   m   d 033\n0000060   [   0   m   /  \\n 033   [   0   1   ;   3   2   m   f 033   [\n0000100   0   m   *  \\n 033   [   0   1   ;   3   6   m   l   d 033   [\n0000120   0   m   @  \\n 033   [   0   1   ;   3   6   m   l   f 033   [\n0000140   0   m   @  \\n   n   o   p   e  \\n 033   [   3   4   ;   4   2\n0000160   m   o   w 033   [   0   m   /  \\n 033   [   3   7   ;   4   1\n0000200   m   s   u 033   [   0   m   *  \\n 033   [   3   0   ;   4   2\n0000220   m   t 033   [   0   m   /  \\n\n0000230\n
err: 

test: audit: TERM=xterm ls --color=always -x -w 30 | od -c
cmd: mkdir d; touch f; chmod +x f; ln -s d ld; ln -s f lf; ln -s nope bl; touch a.tar b.TAR c.jpg; mkdir -m 1777 t; mkdir -m 777 ow; touch su; chmod 4755 su; touch -d 2020-01-01 *
cmd: TERM=xterm ls --color=always -x -w 30 | od -c
out: 0000000   a   .   t   a   r           b   .   T   A   R         033   [\n0000020   0   m 033   [   0   1   ;   3   6   m   b   l 033   [   0   m\n0000040           c   .   j   p   g         033   [   0   1   ;   3   4\n0000060   m   d 033   [   0   m  \\n 033   [   0   1   ;   3   2   m   f\n0000100 033   [   0   m                         033   [   0   1   ;   3\n0000120   6   m   l   d 033   [   0   m                     033   [   0\n0000140   1   ;   3   6   m   l   f 033   [   0   m           n   o   p\n0000160   e             033   [   3   4   ;   4   2   m   o   w 033   [\n0000200   0   m  \\n 033   [   3   7   ;   4   1   m   s   u 033   [   0\n0000220   m                     033   [   3   0   ;   4   2   m   t 033\n0000240   [   0   m  \\n\n0000244\n
err: 

test: audit: TERM=xterm ls --color=always -C -w 30 | od -c
cmd: mkdir d; touch f; chmod +x f; ln -s d ld; ln -s f lf; ln -s nope bl; touch a.tar b.TAR c.jpg; mkdir -m 1777 t; mkdir -m 777 ow; touch su; chmod 4755 su; touch -d 2020-01-01 *
cmd: TERM=xterm ls --color=always -C -w 30 | od -c
out: 0000000   a   .   t   a   r           c   .   j   p   g         033   [\n0000020   0   m 033   [   0   1   ;   3   6   m   l   d 033   [   0   m\n0000040                 033   [   3   4   ;   4   2   m   o   w 033   [\n0000060   0   m  \\n   b   .   T   A   R         033   [   0   1   ;   3\n0000100   4   m   d 033   [   0   m                         033   [   0\n0000120   1   ;   3   6   m   l   f 033   [   0   m                 033\n0000140   [   3   7   ;   4   1   m   s   u 033   [   0   m  \\n 033   [\n0000160   0   1   ;   3   6   m   b   l 033   [   0   m                \n0000200     033   [   0   1   ;   3   2   m   f 033   [   0   m        \n0000220                   n   o   p   e         033   [   3   0   ;   4\n0000240   2   m   t 033   [   0   m  \\n\n0000250\n
err: 

test: audit: TERM=xterm ls --color=always -m | od -c
cmd: mkdir d; touch f; chmod +x f; ln -s d ld; ln -s f lf; ln -s nope bl; touch a.tar b.TAR c.jpg; mkdir -m 1777 t; mkdir -m 777 ow; touch su; chmod 4755 su; touch -d 2020-01-01 *
cmd: TERM=xterm ls --color=always -m | od -c
out: 0000000   a   .   t   a   r   ,       b   .   T   A   R   ,     033   [\n0000020   0   m 033   [   0   1   ;   3   6   m   b   l 033   [   0   m\n0000040   ,       c   .   j   p   g   ,     033   [   0   1   ;   3   4\n0000060   m   d 033   [   0   m   ,     033   [   0   1   ;   3   2   m\n0000100   f 033   [   0   m   ,     033   [   0   1   ;   3   6   m   l\n0000120   d 033   [   0   m   ,     033   [   0   1   ;   3   6   m   l\n0000140   f 033   [   0   m   ,       n   o   p   e   ,     033   [   3\n0000160   4   ;   4   2   m   o   w 033   [   0   m   ,     033   [   3\n0000200   7   ;   4   1   m   s   u 033   [   0   m   ,     033   [   3\n0000220   0   ;   4   2   m   t 033   [   0   m  \\n\n0000233\n
err: 

test: audit: TERM=xterm ls --color=always -s -i f >/dev/null; echo $?
cmd: mkdir d; touch f; chmod +x f; ln -s d ld; ln -s f lf; ln -s nope bl; touch a.tar b.TAR c.jpg; mkdir -m 1777 t; mkdir -m 777 ow; touch su; chmod 4755 su; touch -d 2020-01-01 *
cmd: TERM=xterm ls --color=always -s -i f >/dev/null; echo $?
out: 0\n
err: 

test: audit: LS_COLORS='di=01;31:*.tar=04:*.TAR=05:ex=00' ls --color=always | od -c
cmd: mkdir d; touch f; chmod +x f; ln -s d ld; ln -s f lf; ln -s nope bl; touch a.tar b.TAR c.jpg; mkdir -m 1777 t; mkdir -m 777 ow; touch su; chmod 4755 su; touch -d 2020-01-01 *
cmd: LS_COLORS='di=01;31:*.tar=04:*.TAR=05:ex=00' ls --color=always | od -c
out: 0000000 033   [   0   m 033   [   0   5   m   a   .   t   a   r 033   [\n0000020   0   m  \\n 033   [   0   5   m   b   .   T   A   R 033   [   0\n0000040   m  \\n 033   [   0   1   ;   3   6   m   b   l 033   [   0   m\n0000060  \\n   c   .   j   p   g  \\n 033   [   0   1   ;   3   1   m   d\n0000100 033   [   0   m  \\n   f  \\n 033   [   0   1   ;   3   6   m   l\n0000120   d 033   [   0   m  \\n 033   [   0   1   ;   3   6   m   l   f\n0000140 033   [   0   m  \\n   n   o   p   e  \\n 033   [   3   4   ;   4\n0000160   2   m   o   w 033   [   0   m  \\n 033   [   3   7   ;   4   1\n0000200   m   s   u 033   [   0   m  \\n 033   [   3   0   ;   4   2   m\n0000220   t 033   [   0   m  \\n\n0000226\n
err: 

test: audit: LS_COLORS='or=40;31;01:mi=01;05:ln=target' ls --color=always -l --time
cmd: mkdir d; touch f; chmod +x f; ln -s d ld; ln -s f lf; ln -s nope bl; touch a.tar b.TAR c.jpg; mkdir -m 1777 t; mkdir -m 777 ow; touch su; chmod 4755 su; touch -d 2020-01-01 *
cmd: LS_COLORS='or=40;31;01:mi=01;05:ln=target' ls --color=always -l --time-style=+T | cut -c 30- | od -c
out: 0000000  \\n       a   .   t   a   r  \\n       b   .   T   A   R  \\n    \n0000020   b   l       -   >       n   o   p   e  \\n       c   .   j   p\n0000040   g  \\n     033   [   0   m 033   [   0   1   ;   3   4   m   d\n0000060 033   [   0   m  \\n     033   [   0   1   ;   3   2   m   f 033\n0000100   [   0   m  \\n     033   [   0   1   ;   3   4   m   l   d 033\n0000120   [   0   m       -   >     033   [   0   1   ;   3   4   m   d\n0000140 033   [   0   m  \\n     033   [   0   1   ;   3   2   m   l   f\n0000160 033   [   0   m       -   >     033   [   0   1   ;   3   2   m\n0000200   f 033   [   0   m  \\n       n   o   p   e  \\n     033   [   3\n0000220   4   ;   4   2   m   o   w 033   [   0   m  \\n     033   [   3\n0000240   7   ;   4   1   m   s   u 033   [   0   m  \\n     033   [   3\n0000260   0   ;   4   2   m   t 033   [   0   m  \\n\n0000273\n
err: 

test: audit: LS_COLORS='or=40;31;01' ls --color=always | od -c
cmd: mkdir d; touch f; chmod +x f; ln -s d ld; ln -s f lf; ln -s nope bl; touch a.tar b.TAR c.jpg; mkdir -m 1777 t; mkdir -m 777 ow; touch su; chmod 4755 su; touch -d 2020-01-01 *
cmd: LS_COLORS='or=40;31;01' ls --color=always | od -c
out: 0000000   a   .   t   a   r  \\n   b   .   T   A   R  \\n 033   [   0   m\n0000020 033   [   0   1   ;   3   6   m   b   l 033   [   0   m  \\n   c\n0000040   .   j   p   g  \\n 033   [   0   1   ;   3   4   m   d 033   [\n0000060   0   m  \\n 033   [   0   1   ;   3   2   m   f 033   [   0   m\n0000100  \\n 033   [   0   1   ;   3   6   m   l   d 033   [   0   m  \\n\n0000120 033   [   0   1   ;   3   6   m   l   f 033   [   0   m  \\n   n\n0000140   o   p   e  \\n 033   [   3   4   ;   4   2   m   o   w 033   [\n0000160   0   m  \\n 033   [   3   7   ;   4   1   m   s   u 033   [   0\n0000200   m  \\n 033   [   3   0   ;   4   2   m   t 033   [   0   m  \\n\n0000220\n
err: 

test: audit: LS_COLORS='ec=\e[E:lc=\e[:rc=m:no=00;37' ls --color=always d f | od -c
cmd: mkdir d; touch f; chmod +x f; ln -s d ld; ln -s f lf; ln -s nope bl; touch a.tar b.TAR c.jpg; mkdir -m 1777 t; mkdir -m 777 ow; touch su; chmod 4755 su; touch -d 2020-01-01 *
cmd: LS_COLORS='ec=\e[E:lc=\e[:rc=m:no=00;37' ls --color=always d f | od -c
out: 0000000 033   [   E 033   [   0   0   ;   3   7   m 033   [   m 033   [\n0000020   0   1   ;   3   2   m   f 033   [   E  \\n  \\n   d   :  \\n\n0000037\n
err: 

test: audit: LS_COLORS='zz=1' ls --color=always f; echo $?
cmd: mkdir d; touch f; chmod +x f; ln -s d ld; ln -s f lf; ln -s nope bl; touch a.tar b.TAR c.jpg; mkdir -m 1777 t; mkdir -m 777 ow; touch su; chmod 4755 su; touch -d 2020-01-01 *
cmd: LS_COLORS='zz=1' ls --color=always f; echo $?
out: f\n0\n
err: ls: unrecognized prefix: \xe2\x80\x98zz\xe2\x80\x99\nls: unparsable value for LS_COLORS environment variable\n

test: audit: LS_COLORS='di' ls --color=always f; echo $?
cmd: mkdir d; touch f; chmod +x f; ln -s d ld; ln -s f lf; ln -s nope bl; touch a.tar b.TAR c.jpg; mkdir -m 1777 t; mkdir -m 777 ow; touch su; chmod 4755 su; touch -d 2020-01-01 *
cmd: LS_COLORS='di' ls --color=always f; echo $?
out: f\n0\n
err: ls: unparsable value for LS_COLORS environment variable\n

test: audit: LS_COLORS='*.c=^[x:di=\x41\101\_' ls --color=always -d d c.jpg | od -c
cmd: mkdir d; touch f; chmod +x f; ln -s d ld; ln -s f lf; ln -s nope bl; touch a.tar b.TAR c.jpg; mkdir -m 1777 t; mkdir -m 777 ow; touch su; chmod 4755 su; touch -d 2020-01-01 *
cmd: LS_COLORS='*.c=^[x:di=\x41\101\_' ls --color=always -d d c.jpg | od -c
out: 0000000   c   .   j   p   g  \\n 033   [   0   m 033   [   A   A       m\n0000020   d 033   [   0   m  \\n\n0000026\n
err: 

test: audit: LS_COLORS='*.JPG=01:*.jpg=01' ls --color=always c.jpg | od -c
cmd: mkdir d; touch f; chmod +x f; ln -s d ld; ln -s f lf; ln -s nope bl; touch a.tar b.TAR c.jpg; mkdir -m 1777 t; mkdir -m 777 ow; touch su; chmod 4755 su; touch -d 2020-01-01 *
cmd: LS_COLORS='*.JPG=01:*.jpg=01' ls --color=always c.jpg | od -c
out: 0000000 033   [   0   m 033   [   0   1   m   c   .   j   p   g 033   [\n0000020   0   m  \\n\n0000023\n
err: 

test: audit: TERM=xterm ls --color=always -R d | od -c
cmd: mkdir d; touch f; chmod +x f; ln -s d ld; ln -s f lf; ln -s nope bl; touch a.tar b.TAR c.jpg; mkdir -m 1777 t; mkdir -m 777 ow; touch su; chmod 4755 su; touch -d 2020-01-01 *
cmd: TERM=xterm ls --color=always -R d | od -c
out: 0000000   d   :  \\n\n0000003\n
err: 

test: audit: touch "$(printf 'long%060d' 0)"; TERM=xterm ls --color=always -l --tim
cmd: mkdir d; touch f; chmod +x f; ln -s d ld; ln -s f lf; ln -s nope bl; touch a.tar b.TAR c.jpg; mkdir -m 1777 t; mkdir -m 777 ow; touch su; chmod 4755 su; touch -d 2020-01-01 *
cmd: touch "$(printf 'long%060d' 0)"; TERM=xterm ls --color=always -l --time-style=+x | cut -c 20- | od -c | tail -5
out: 0000500   o   o   t                   0       x     033   [   3   7   ;\n0000520   4   1   m   s   u 033   [   0   m  \\n   o   o   t       4   0\n0000540   9   6       x     033   [   3   0   ;   4   2   m   t 033   [\n0000560   0   m  \\n\n0000563\n
err: 

test: audit: mkdir "$(printf 'long%080d' 0)"; TERM=xterm ls --color=always | od -c 
cmd: mkdir d; touch f; chmod +x f; ln -s d ld; ln -s f lf; ln -s nope bl; touch a.tar b.TAR c.jpg; mkdir -m 1777 t; mkdir -m 777 ow; touch su; chmod 4755 su; touch -d 2020-01-01 *
cmd: mkdir "$(printf 'long%080d' 0)"; TERM=xterm ls --color=always | od -c | tail -4
out: 0000320   o   w 033   [   0   m  \\n 033   [   3   7   ;   4   1   m   s\n0000340   u 033   [   0   m  \\n 033   [   3   0   ;   4   2   m   t 033\n0000360   [   0   m  \\n\n0000364\n
err: 

test: audit: TERM=xterm ls --color=always -w 0 | od -c | tail -3
cmd: mkdir d; touch f; chmod +x f; ln -s d ld; ln -s f lf; ln -s nope bl; touch a.tar b.TAR c.jpg; mkdir -m 1777 t; mkdir -m 777 ow; touch su; chmod 4755 su; touch -d 2020-01-01 *
cmd: TERM=xterm ls --color=always -w 0 | od -c | tail -3
out: 0000160   0   m  \\n 033   [   3   7   ;   4   1   m   s   u 033   [   0\n0000200   m  \\n 033   [   3   0   ;   4   2   m   t 033   [   0   m  \\n\n0000220\n
err: 

test: audit: touch "a b"; TERM=xterm ls --color=always -C --quoting-style=shell | o
cmd: mkdir d; touch f; chmod +x f; ln -s d ld; ln -s f lf; ln -s nope bl; touch a.tar b.TAR c.jpg; mkdir -m 1777 t; mkdir -m 777 ow; touch su; chmod 4755 su; touch -d 2020-01-01 *
cmd: touch "a b"; TERM=xterm ls --color=always -C --quoting-style=shell | od -c
out: 0000000   '   a       b   '               a   .   t   a   r            \n0000020   b   .   T   A   R             033   [   0   m 033   [   0   1\n0000040   ;   3   6   m   b   l 033   [   0   m               c   .   j\n0000060   p   g             033   [   0   1   ;   3   4   m   d 033   [\n0000100   0   m             033   [   0   1   ;   3   2   m   f 033   [\n0000120   0   m             033   [   0   1   ;   3   6   m   l   d 033\n0000140   [   0   m             033   [   0   1   ;   3   6   m   l   f\n0000160 033   [   0   m               n   o   p   e             033   [\n0000200   3   4   ;   4   2   m   o   w 033   [   0   m             033\n0000220   [   3   7   ;   4   1   m   s   u 033   [   0   m            \n0000240 033   [   3   0   ;   4   2   m   t 033   [   0   m  \\n\n0000256\n
err: 

test: audit: TERM=xterm ls --color=always nope f; echo $?
cmd: mkdir d; touch f; chmod +x f; ln -s d ld; ln -s f lf; ln -s nope bl; touch a.tar b.TAR c.jpg; mkdir -m 1777 t; mkdir -m 777 ow; touch su; chmod 4755 su; touch -d 2020-01-01 *
cmd: TERM=xterm ls --color=always nope f; echo $?
out: \x1b[0m\x1b[01;32mf\x1b[0m\nnope\n0\n
err: 

test: audit: TERM=xterm ls --color=always -1 --zero d f | od -c
cmd: mkdir d; touch f; chmod +x f; ln -s d ld; ln -s f lf; ln -s nope bl; touch a.tar b.TAR c.jpg; mkdir -m 1777 t; mkdir -m 777 ow; touch su; chmod 4755 su; touch -d 2020-01-01 *
cmd: TERM=xterm ls --color=always -1 --zero d f | od -c
out: 0000000   f  \\0  \\n   d   :  \\n\n0000006\n
err: 

test: audit: TERM=xterm ls --color=always -l -L --time-style=+T | cut -c 30- | od -
cmd: mkdir d; touch f; chmod +x f; ln -s d ld; ln -s f lf; ln -s nope bl; touch a.tar b.TAR c.jpg; mkdir -m 1777 t; mkdir -m 777 ow; touch su; chmod 4755 su; touch -d 2020-01-01 *
cmd: TERM=xterm ls --color=always -l -L --time-style=+T | cut -c 30- | od -c
out: 0000000  \\n       a   .   t   a   r  \\n       b   .   T   A   R  \\n    \n0000020   b   l  \\n       c   .   j   p   g  \\n     033   [   0   m 033\n0000040   [   0   1   ;   3   4   m   d 033   [   0   m  \\n     033   [\n0000060   0   1   ;   3   2   m   f 033   [   0   m  \\n     033   [   0\n0000100   1   ;   3   4   m   l   d 033   [   0   m  \\n     033   [   0\n0000120   1   ;   3   2   m   l   f 033   [   0   m  \\n       n   o   p\n0000140   e  \\n     033   [   3   4   ;   4   2   m   o   w 033   [   0\n0000160   m  \\n     033   [   3   7   ;   4   1   m   s   u 033   [   0\n0000200   m  \\n     033   [   3   0   ;   4   2   m   t 033   [   0   m\n0000220  \\n\n0000221\n
err: 

test: audit: TERM=xterm ls --zero --color=always f | od -c
cmd: mkdir d; touch f; chmod +x f; ln -s d ld; ln -s f lf; ln -s nope bl; touch a.tar b.TAR c.jpg; mkdir -m 1777 t; mkdir -m 777 ow; touch su; chmod 4755 su; touch -d 2020-01-01 *
cmd: TERM=xterm ls --zero --color=always f | od -c
out: 0000000 033   [   0   m 033   [   0   1   ;   3   2   m   f 033   [   0\n0000020   m  \\0\n0000022\n
err: 

test: audit: TERM=xterm ls --color=always -R sub | od -c
cmd: mkdir d; touch f; chmod +x f; ln -s d ld; ln -s f lf; ln -s nope bl; touch a.tar b.TAR c.jpg; mkdir -m 1777 t; mkdir -m 777 ow; touch su; chmod 4755 su; touch -d 2020-01-01 *
cmd: mkdir -p sub/deep; touch sub/x.tar
cmd: TERM=xterm ls --color=always -R sub | od -c
out: 0000000   s   u   b   :  \\n 033   [   0   m 033   [   0   1   ;   3   4\n0000020   m   d   e   e   p 033   [   0   m  \\n   x   .   t   a   r  \\n\n0000040  \\n   s   u   b   /   d   e   e   p   :  \\n\n0000053\n
err: 

test: audit: TERM=xterm ls --color=always -d sub sub/x.tar f | od -c
cmd: mkdir d; touch f; chmod +x f; ln -s d ld; ln -s f lf; ln -s nope bl; touch a.tar b.TAR c.jpg; mkdir -m 1777 t; mkdir -m 777 ow; touch su; chmod 4755 su; touch -d 2020-01-01 *
cmd: mkdir -p sub/deep; touch sub/x.tar
cmd: TERM=xterm ls --color=always -d sub sub/x.tar f | od -c
out: 0000000 033   [   0   m 033   [   0   1   ;   3   2   m   f 033   [   0\n0000020   m  \\n 033   [   0   1   ;   3   4   m   s   u   b 033   [   0\n0000040   m  \\n   s   u   b   /   x   .   t   a   r  \\n\n0000054\n
err: 

test: audit: TERM=xterm ls -l --author d f | cut -c 1-10,12-30
cmd: mkdir d; touch f; chmod +x f; ln -s d ld; ln -s f lf; ln -s nope bl; touch a.tar b.TAR c.jpg; mkdir -m 1777 t; mkdir -m 777 ow; touch su; chmod 4755 su; touch -d 2020-01-01 *
cmd: mkdir -p sub/deep; touch sub/x.tar
cmd: TERM=xterm ls -l --author d f | cut -c 1-10,12-30
out: -rwxr-xr-x1 root root root   \n\nd:\ntotal 0\n
err: 

test: audit: ls -l --author -g f | cut -c 1-10,12-30
cmd: mkdir d; touch f; chmod +x f; ln -s d ld; ln -s f lf; ln -s nope bl; touch a.tar b.TAR c.jpg; mkdir -m 1777 t; mkdir -m 777 ow; touch su; chmod 4755 su; touch -d 2020-01-01 *
cmd: mkdir -p sub/deep; touch sub/x.tar
cmd: ls -l --author -g f | cut -c 1-10,12-30
out: -rwxr-xr-x1 root root 0 Jan  \n
err: 

test: audit: ls -s --block-size=K f d; ls -ls --block-size=K f | cut -c1-14
cmd: mkdir d; touch f; chmod +x f; ln -s d ld; ln -s f lf; ln -s nope bl; touch a.tar b.TAR c.jpg; mkdir -m 1777 t; mkdir -m 777 ow; touch su; chmod 4755 su; touch -d 2020-01-01 *
cmd: mkdir -p sub/deep; touch sub/x.tar
cmd: ls -s --block-size=K f d; ls -ls --block-size=K f | cut -c1-14
out: 0K f\n\nd:\ntotal 0K\n0K -rwxr-xr-x \n
err: 

test: audit: ls -sk --block-size=K f d; ls -s --block-size=KB d; ls -lhk d | cut -c
cmd: mkdir d; touch f; chmod +x f; ln -s d ld; ln -s f lf; ln -s nope bl; touch a.tar b.TAR c.jpg; mkdir -m 1777 t; mkdir -m 777 ow; touch su; chmod 4755 su; touch -d 2020-01-01 *
cmd: mkdir -p sub/deep; touch sub/x.tar
cmd: ls -sk --block-size=K f d; ls -s --block-size=KB d; ls -lhk d | cut -c1-30; ls -k --block-size=M -s d
out: 0K f\n\nd:\ntotal 0K\ntotal 0kB\ntotal 0\ntotal 0M\n
err: 

test: audit: TERM=xterm ls --color=always -T 4 -C -w 40 | od -c | head -3
cmd: mkdir d; touch f; chmod +x f; ln -s d ld; ln -s f lf; ln -s nope bl; touch a.tar b.TAR c.jpg; mkdir -m 1777 t; mkdir -m 777 ow; touch su; chmod 4755 su; touch -d 2020-01-01 *
cmd: mkdir -p sub/deep; touch sub/x.tar
cmd: TERM=xterm ls --color=always -T 4 -C -w 40 | od -c | head -3
out: 0000000   a   .   t   a   r         033   [   0   m 033   [   0   1   ;\n0000020   3   6   m   b   l 033   [   0   m                     033   [\n0000040   0   1   ;   3   4   m   d 033   [   0   m         033   [   0\n
err: 

test: audit: ls -l f d big | cut -c 1-10,12-30; ls -s f d; ls -i f d big >/dev/null
cmd: touch f; mkdir d; printf 12345 > big; touch -d '2020-11-21 10:00' f d big
cmd: ls -l f d big | cut -c 1-10,12-30; ls -s f d; ls -i f d big >/dev/null; ls -lh f big d | cut -c 12-30; ls -lhk big | cut -c 12-30; ls -l --si -k big | cut -c 12-30
out: -rw-r--r--1 root root    5 No\n-rw-r--r--1 root root    0 No\n\nd:\ntotal 0\n0 f\n\nd:\ntotal 0\n1 root root    5 No\n1 root root    0 No\n\n\n\n1 root root 5 Nov 2\n1 root root 5 Nov 2\n
err: 

test: audit: ls -sh --block-size=K f; ls -s -k big; ls -s --block-size=1K big
cmd: touch f; mkdir d; printf 12345 > big
cmd: ls -sh --block-size=K f; ls -s -k big; ls -s --block-size=1K big
out: 0K f\n4 big\n4 big\n
err: 


test: LS_BLOCK_SIZE before BLOCK_SIZE
cmd: printf x > f; LS_BLOCK_SIZE=512 BLOCK_SIZE=1M ls -s f; BLOCK_SIZE=1M ls -s f
out: 8 f\n1 f\n

test: --colo is not ambiguous (--colour is --color's alias); abbreviated --quoting, --ind
cmd: printf x > f; ls --colo=never f; ls --quoting=c --ind=slash f
out: f\n"f"\n

test: --classify and --color take WHEN words and their prefixes
cmd: mkdir d; ls --classify=al -d d; ls --classify=nev -d d; ls -d --color=no d; ls --color=bogus d 2>&1 | head -1
out: d/\nd\nd\nls: invalid argument ‘bogus’ for ‘--color’\n
