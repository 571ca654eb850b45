# stat: formats (-c, --printf, -t) and the default layout. Device numbers,
# inode numbers and birth times differ between the sandbox and a host, so
# the default layout is checked line by line where it is stable.

test: size, blocks and type line
cmd: printf hello > f; stat f | head -2 | tail -1
out:   Size: 5         \tBlocks: 8          IO Block: 4096   regular file\n

test: directory line
cmd: mkdir d; stat d | head -2 | tail -1
out:   Size: 4096      \tBlocks: 8          IO Block: 4096   directory\n

test: empty file type
cmd: touch f; stat -c %F f
out: regular empty file\n

test: access line
cmd: touch f; chmod 640 f; stat f | head -4 | tail -1
out: Access: (0640/-rw-r-----)  Uid: (    0/    root)   Gid: (    0/    root)\n

test: times
cmd: touch -d '2024-01-02 03:04:05.5' f; stat f | head -7 | tail -3 | cut -c1-8; stat -c '%y|%Y|%.3Y' f
out: Access: \nModify: \nChange: \n2024-01-02 03:04:05.500000000 +0000|1704164645|1704164645.500\n

test: symlink name line
cmd: ln -s target l; stat l | head -1
out:   File: l -> target\n

test: -c sequences
cmd: printf abc > f; chmod 644 f; stat -c '%n|%a|%A|%s|%b|%B|%o|%F|%u|%U|%g|%G|%h|%f' f
out: f|644|-rw-r--r--|3|8|512|4096|regular file|0|root|0|root|1|81a4\n

test: %N quotes
cmd: touch 'a b'; ln -s 'a b' l; stat -c %N 'a b' l
out: 'a b'\n'l' -> 'a b'\n

test: widths and flags
cmd: printf abc > f; stat -c '[%-6s][%6s][%06s][%-4a]' f
out: [3     ][     3][000003][644 ]\n

test: --printf escapes and no newline
cmd: printf abc > f; stat --printf '%s\t%n\n' f
out: 3\tf\n

test: -L follows
cmd: printf abc > f; ln -s f l; stat -L -c '%s %F' l; stat -c '%s %F' l
out: 3 regular file\n1 symbolic link\n

test: several files
cmd: printf a > f; printf bb > g; stat -c '%s %n' f g
out: 1 f\n2 g\n

test: missing file
cmd: printf a > f; stat -c %s f nope f
out: 1\n1\n
err: stat: cannot statx 'nope': No such file or directory\n
status: 1

test: missing operand
cmd: stat
out:
err: stat: missing operand\nTry 'stat --help' for more information.\n
status: 1

test: unknown directive and lone percent
cmd: touch f; stat -c '%q %' f
out: ? %\n

test: directory link count
cmd: mkdir -p d/a d/b; stat -c %h d
out: 4\n

test: terse first fields
cmd: printf abc > f; stat -t f | cut -d' ' -f1-4
out: f 3 8 81a4\n

test: -f type
cmd: stat -f -c '%T %s %l' .
out: ext2/ext3 4096 255\n

test: the last of -c and --printf counts; --f is ambiguous
cmd: printf abc > f; stat -c '%s' --printf '%n\n' f; stat --printf '%n\n' --form '%s' f; stat --f f
out: f\n3\n
err: stat: option '--f' is ambiguous; possibilities: '--file-system' '--format'\nTry 'stat --help' for more information.\n
status: 1
