# paste: parallel and serial merging, delimiter lists.

test: two files
cmd: paste a b
file: a=a\nb\nc\n
file: b=1\n2
out: a\t1\nb\t2\nc\t\n

test: delimiter list cycles
cmd: paste -d ',;' a b a
file: a=a\nb\nc\n
file: b=1\n2
out: a,1;a\nb,2;b\nc,;c\n

test: serial
cmd: paste -s a b
file: a=a\nb\nc\n
file: b=1\n2
out: a\tb\tc\n1\t2\n

test: serial newline delimiter
cmd: paste -s -d '\n' a
file: a=a\nb\nc\n
out: a\nb\nc\n

test: empty delimiter
cmd: paste -d '' a b
file: a=a\nb\nc\n
file: b=1\n2
out: a1\nb2\nc\n

test: nul escape means no delimiter
cmd: paste -d '\0' a b
file: a=a\nb\nc\n
file: b=1\n2
out: a1\nb2\nc\n

test: stdin twice takes alternate lines
cmd: printf 'x\ny\nz\n' | paste - -
out: x\ty\nz\t\n

test: join lines with commas
cmd: printf 'a\nb\nc\n' | paste -sd,
out: a,b,c\n

test: shorter first file
cmd: paste b a
file: a=a\nb\nc\n
file: b=1\n2
out: 1\ta\n2\tb\n\tc\n

test: three files uneven
cmd: paste -d, b c b
file: b=1\n2
file: c=x\ny\nz\nw\n
out: 1,x,1\n2,y,2\n,z,\n,w,\n

test: tab escape
cmd: paste -d '\t' a a
file: a=1\n2\n
out: 1\t1\n2\t2\n

test: backslash escape
cmd: paste -d '\\' a a
file: a=1\n2\n
out: 1\\1\n2\\2\n

test: trailing backslash
cmd: paste -d 'ab\' a a
file: a=1\n
out:
err: paste: delimiter list ends with an unescaped backslash: ab\\\n
status: 1

test: zero terminated
cmd: printf 'a\0b\0' | paste -z - - | od -c
out: 0000000   a  \\t   b  \\0\n0000004\n

test: missing file
cmd: paste nofile a
file: a=1\n
out:
err: paste: nofile: No such file or directory\n
status: 1

test: a read error (a directory) ends that file, serial and parallel
cmd: mkdir d; paste -s a d; echo $?; paste a d; echo $?
file: a=1\n2\n
out: 1\t2\n\n1\n1\t\n2\t\n1\n
err: paste: d: Is a directory\npaste: d: Is a directory\n

test: serial missing file keeps going
cmd: paste -s nofile a
file: a=1\n2\n
out: 1\t2\n
err: paste: nofile: No such file or directory\n
status: 1

test: empty input
cmd: paste input input
in:
out:

test: no trailing newline
cmd: printf 'a' | paste - | od -c
out: 0000000   a  \\n\n0000002\n

test: long options abbreviated
cmd: paste --ser --delim=, input; paste --z; echo $?
in: a\nb\nc\n
out: a,b,c\n0\n
