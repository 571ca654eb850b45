# names.t: binary safety of the file commands (basename, dirname, ls, stat, find,
# xargs, readlink, realpath, du, mkdir, cp, mv, rm, rmdir, tree, file, chmod).
# Binary safety of the file commands' names: newlines, tabs, invalid UTF-8
# (\xff, a lone \xc3), control bytes and quotes pass through or are quoted
# exactly as GNU quotes them (C.UTF-8).

# ---- basename / dirname ----
test: basename: newline and invalid UTF-8 pass through
cmd: basename "$(printf 'dir/a\nb\377')"; basename -a "$(printf 'x/\303')" "$(printf '\tt/')"
out: a\nb\xff\n\xc3\n\tt\n
err: 

test: basename: -z ends names with NUL
cmd: basename -z "$(printf 'a/b\nc')" | od -An -c
out:    b  \\n   c  \\0\n
err: 

test: basename: suffix with odd bytes
cmd: basename "$(printf 'p/n\377.txt')" .txt; basename -s "$(printf '\377')" "$(printf 'q\377')"
out: n\xff\nq\n
err: 

test: basename: slashes only and empty
cmd: basename //; basename ''; basename /; basename 'a//'
out: /\n\n/\na\n
err: 

test: dirname: newline and invalid UTF-8
cmd: dirname "$(printf 'a\nb/c\377/d')"; dirname -z "$(printf 'x\n/y')" "$(printf '\377')" | od -An -c
out: a\nb/c\xff\n   x  \\n  \\0   .  \\0\n
err: 

test: dirname: odd slashes
cmd: dirname //a//b//; dirname a; dirname /a; dirname //; dirname ''
out: //a\n.\n/\n/\n.\n
err: 


# ---- ls quoting ----
test: ls: names are printed raw to a pipe
cmd: touch "$(printf 'a\nb')" "$(printf 'c\377')" "$(printf 'd\te')"; ls | od -An -c
out:    a  \\n   b  \\n   c 377  \\n   d  \\t   e  \\n\n
err: 

test: ls -b escapes
cmd: touch "$(printf 'a\nb')" "$(printf 'c\377')" "$(printf 'd\te')" "$(printf 'q\001')"; ls -b
out: a\\nb\nc\\377\nd\\te\nq\\001\n
err: 

test: ls -Q
cmd: touch "$(printf 'a\nb')" "$(printf 'c\377')" 'say"hi'; ls -Q
out: "a\\nb"\n"c\\377"\n"say\\"hi"\n
err: 

test: ls --quoting-style=shell-escape
cmd: touch "$(printf 'a\nb')" "$(printf 'c\377')" "it's" 'sp ace' plain; ls --quoting-style=shell-escape
out: 'a'$'\\n''b'\n'c'$'\\377'\n"it's"\nplain\n'sp ace'\n
err: 

test: ls --quoting-style=shell and shell-always
cmd: touch "$(printf 'a\nb')" "it's" plain; ls --quoting-style=shell; ls --quoting-style=shell-always
out: 'a\nb'\n"it's"\nplain\n'a\nb'\n"it's"\n'plain'\n
err: 

test: ls --quoting-style=c and escape
cmd: touch "$(printf 'a\nb')" "$(printf 'c\377')" 'b\s'; ls --quoting-style=c; ls --quoting-style=escape
out: "a\\nb"\n"b\\\\s"\n"c\\377"\na\\nb\nb\\\\s\nc\\377\n
err: 

test: ls -q hides control characters
cmd: touch "$(printf 'a\nb')" "$(printf 'c\377')" "$(printf 'e\303\251')"; ls -q
out: a?b\nc?\ne\xc3\xa9\n
err: 

test: ls -l with odd names
cmd: touch "$(printf 'a\nb')"; ln -s "$(printf 't\377')" "$(printf 'l\n')"; ls -l | cut -c1-10,40-
out: total 0\n-rw-r--r--\nb\nlrwxrwxrwx -> t\xff\n
err: 

test: ls -R header of an odd directory
cmd: mkdir "$(printf 'd\nx')"; touch "$(printf 'd\nx/f\377')"; ls -R
out: .:\nd\nx\n\n./d\nx:\nf\xff\n
err: 

test: ls error messages quote
cmd: ls "$(printf 'no\nsuch')" "$(printf 'bad\377')"; echo $?
out: 2\n
err: ls: cannot access 'no'$'\\n''such': No such file or directory\nls: cannot access 'bad'$'\\377': No such file or directory\n

test: ls --zero
cmd: touch "$(printf 'a\nb')" c; ls --zero | od -An -c
out:    a  \\n   b  \\0   c  \\0\n
err: 


# ---- stat ----
test: stat -c %n and %N
cmd: touch "$(printf 'a\nb')" "$(printf 'c\377')"; ln -s "$(printf 'a\nb')" "$(printf 'l\t')"; stat -c '%n|%N' * | od -An -c
out:    a  \\n   b   |   '   a   '   $   '   \\   n   '   '   b   '  \\n\n   c 377   |   '   c   '   $   '   \\   3   7   7   '  \\n   l  \\t\n   |   '   l   '   $   '   \\   t   '       -   >       '   a   '\n   $   '   \\   n   '   '   b   '  \\n\n
err: 

test: stat default format quotes the name
cmd: touch "$(printf 'a\nb')"; stat "$(printf 'a\nb')" | head -1
out:   File: a\n
err: 

test: stat --printf with escapes
cmd: touch "$(printf 'x\377')"; stat --printf '%n\0' "$(printf 'x\377')" | od -An -c
out:    x 377  \\0\n
err: 

test: stat error messages
cmd: stat "$(printf 'no\nfile')" "$(printf 'b\377')"; echo $?
out: 1\n
err: stat: cannot statx 'no'$'\\n''file': No such file or directory\nstat: cannot statx 'b'$'\\377': No such file or directory\n


# ---- find ----
test: find -print is raw, errors are quoted
cmd: mkdir d; touch "$(printf 'd/a\nb')" "$(printf 'd/c\377')"; find d -name 'a*' | od -An -c; find "$(printf 'no\nx')"; echo $?
out:    d   /   a  \\n   b  \\n\n1\n
err: find: \xe2\x80\x98no\\nx\xe2\x80\x99: No such file or directory\n

test: find -print0
cmd: mkdir d; touch "$(printf 'd/a\nb')"; find d -print0 | od -An -c
out:    d  \\0   d   /   a  \\n   b  \\0\n
err: 

test: find -printf %p %f and escapes
cmd: mkdir d; touch "$(printf 'd/a\tb\377')"; find d -type f -printf '%p|%f|%h\n' | od -An -c; find d -type f -printf '\0%f\\\n' | od -An -c
out:    d   /   a  \\t   b 377   |   a  \\t   b 377   |   d  \\n\n  \\0   a  \\t   b 377   \\  \\n\n
err: 

test: find -ls escapes odd names
cmd: mkdir d; touch "$(printf 'd/a\nb')" 'd/s p' "$(printf 'd/c\377')" "$(printf 'd/\303\251')" 'd/q"' 'd/b\s'; ln -s "$(printf 't\tu')" d/l; find d -ls | awk '{print $NF}' | sort
out: d\nd/\\303\\251\nd/a\\nb\nd/b\\\\s\nd/c\\377\nd/q\\"\np\nt\\tu\n
err: 

test: find -name matches invalid UTF-8
cmd: touch "$(printf 'x\377y')" "$(printf 'x\303y')"; find . -name 'x?y' | sort | od -An -c
out:    .   /   x 303   y  \\n   .   /   x 377   y  \\n\n
err: 


# ---- xargs -0 and friends ----
test: xargs -0 with NUL-separated names
cmd: printf 'a\nb\0c d\0\377\0' | xargs -0 printf '[%s]\n'
out: [a\nb]\n[c d]\n[\xff]\n
err: 

test: xargs -0 -n1
cmd: printf 'one\0two words\0' | xargs -0 -n1 echo
out: one\ntwo words\n
err: 

test: xargs -0 keeps empty arguments
cmd: printf 'a\0\0b\0' | xargs -0 printf '<%s>'; echo
out: <a><><b>\n
err: 

test: find -print0
cmd: root | mkdir d; touch "$(printf 'd/a\nb')" "$(printf 'd/c d')"; find d -type f -print0 | xargs -0 ls | od -An -c
out:    d   /   a  \\n   b  \\n   d   /   c       d  \\n\n
err: bash: line 1: root: command not found\n

test: xargs -0 rm
cmd: touch "$(printf 'a\nb')" "$(printf 'c\377')" keep; printf 'a\nb\0c\377\0' | xargs -0 rm; ls
out: keep\n
err: 

test: xargs -d with a newline delimiter
cmd: printf 'a b\nc\377\n' | xargs -d '\n' printf '[%s]'; echo
out: [a b][c\xff]\n
err: 

test: xargs without -0 splits on blanks, quotes
cmd: printf '"a b" c\\ d\n\377e\n' | xargs printf '[%s]'; echo
out: [a b][c d][\xffe]\n
err: 

test: xargs -0 -I
cmd: printf 'x y\0z\0' | xargs -0 -I{} echo '<{}>'
out: <x y>\n<z>\n
err: 


# ---- other commands ----
test: readlink and realpath keep bytes
cmd: ln -s "$(printf 't\n\377')" l; readlink l | od -An -c; mkdir "$(printf 'd\nx')"; realpath -s "$(printf 'd\nx')" | tail -c 4 | od -An -c
out:    t  \\n 377  \\n\n   d  \\n   x  \\n\n
err: 

test: du and mkdir -v quote
cmd: mkdir -v "$(printf 'a\nb')"; du "$(printf 'a\nb')" | od -An -c
out: mkdir: created directory 'a'$'\\n''b'\n   4  \\t   a  \\n   b  \\n\n
err: 

test: cp -v, mv -v, rm -v quote
cmd: touch "$(printf 'a\nb')"; cp -v "$(printf 'a\nb')" "$(printf 'c\377')"; mv -v "$(printf 'c\377')" e; rm -v e
out: 'a'$'\\n''b' -> 'c'$'\\377'\nrenamed 'c'$'\\377' -> 'e'\nremoved 'e'\n
err: 

test: rmdir and rm errors
cmd: rmdir "$(printf 'x\ny')"; rm "$(printf 'z\377')"; echo $?
out: 1\n
err: rmdir: failed to remove 'x'$'\\n''y': No such file or directory\nrm: cannot remove 'z'$'\\377': No such file or directory\n

test: tree prints names
cmd: mkdir d; touch "$(printf 'd/a\nb')" "$(printf 'd/c\377')"; tree d | od -An -c
out:    d  \\n 342 224 234 342 224 200 342 224 200       a   \\   0   1\n   2   b  \\n 342 224 224 342 224 200 342 224 200       c   \\   3\n   7   7  \\n  \\n   1       d   i   r   e   c   t   o   r   y   ,\n       2       f   i   l   e   s  \\n\n
err: 

test: file with odd names
cmd: printf 'hi\n' > "$(printf 'a\nb')"; file "$(printf 'a\nb')"
out: a\\012b: ASCII text\n
err: 

test: chmod -v
cmd: touch "$(printf 'a\nb')"; chmod -v 600 "$(printf 'a\nb')"
out: mode of 'a'$'\\n''b' changed from 0644 (rw-r--r--) to 0600 (rw-------)\n
err: 


# ---- ls layouts with odd names ----
test: ls -C aligns quoted and unquoted names
cmd: touch 'a b' c "$(printf 'd\ne')" f; ls -C --quoting-style=shell-escape; ls -x --quoting-style=shell
out: 'a b'   c  'd'$'\\n''e'\t f\n'a b'   c  'd\ne'   f\n
err: 

test: ls -l aligns quoted names
cmd: touch 'a b' c; ls -og --time-style=+T --quoting-style=shell-escape
out: total 0\n-rw-r--r-- 1 0 T 'a b'\n-rw-r--r-- 1 0 T  c\n
err: 

test: ls -C widths: wide, control and invalid bytes
cmd: touch "$(printf '\344\270\255\344\270\255')" "$(printf 'a\302\205b')" "$(printf 'c\377d')" "$(printf 'e\001f')" ggggggggggg hh; ls -C -w 32; ls -x -w 32 -q
out: a\xc2\x85b   e\x01f\t\t  hh\nc\xffd  ggggggggggg  \xe4\xb8\xad\xe4\xb8\xad\na?b  c?d   e?f\tggggggggggg\nhh   \xe4\xb8\xad\xe4\xb8\xad\n
err: 

test: ls shell style leaves other controls as they are
cmd: touch "$(printf 'a\001b')" "$(printf 'c\377d')" "$(printf 'g\nh')"; ls --quoting-style=shell | od -An -c; ls -q --quoting-style=shell
out:    a 001   b  \\n   c 377   d  \\n   '   g  \\n   h   '  \\n\na?b\nc?d\n'g?h'\n
err: 

test: ls -b on a C1 control and a wide character
cmd: touch "$(printf 'e\302\205f')" "$(printf '\344\270\255')"; ls -b
out: e\\302\\205f\n\xe4\xb8\xad\n
err: 

test: tree escapes like tree 2.1
cmd: mkdir d; touch "$(printf 'd/a\001b')" "$(printf 'd/e\302\205f')" "$(printf 'd/g\303\251')"; tree d; tree -N d | od -An -c | head -2; tree -q d; tree -J d
out: d\n\xe2\x94\x9c\xe2\x94\x80\xe2\x94\x80 a\\001b\n\xe2\x94\x9c\xe2\x94\x80\xe2\x94\x80 e\\205f\n\xe2\x94\x94\xe2\x94\x80\xe2\x94\x80 g\xc3\xa9\n\n1 directory, 3 files\n   d  \\n 342 224 234 342 224 200 342 224 200       a 001   b  \\n\n 342 224 234 342 224 200 342 224 200       e 302 205   f  \\n 342\nd\n\xe2\x94\x9c\xe2\x94\x80\xe2\x94\x80 a?b\n\xe2\x94\x9c\xe2\x94\x80\xe2\x94\x80 e?f\n\xe2\x94\x94\xe2\x94\x80\xe2\x94\x80 g\xc3\xa9\n\n1 directory, 3 files\n[\n  {"type":"directory","name":"d","contents":[\n    {"type":"file","name":"a\\u0001b"},\n    {"type":"file","name":"e\xc2\x85f"},\n    {"type":"file","name":"g\xc3\xa9"}\n  ]}\n,\n  {"type":"report","directories":1,"files":3}\n]\n
err: 

test: file -0 and -r
cmd: printf 'x\n' > "$(printf 'a\nb')"; file -0 -- "$(printf 'a\nb')" | od -An -c; file -r -- "$(printf 'a\nb')"
out:    a   \\   0   1   2   b  \\0   :       A   S   C   I   I       t\n   e   x   t  \\n\na\nb: ASCII text\n
err: 

test: find -regex: '.' does not match a newline in the default syntax
cmd: touch ab "$(printf 'a\nb')" x; find . -regex '.*b' | od -An -c; find . -regex '\./a[^x]b' | od -An -c; find . -regextype posix-extended -regex '\./a.b' | od -An -c
out:    .   /   a   b  \\n\n   .   /   a  \\n   b  \\n\n   .   /   a  \\n   b  \\n\n
err: 

test: find -regex matches the whole path
cmd: touch ab abc x; find . -regex '\./a' ; find . -regex 'a.*'; find . -regextype egrep -regex '\./(a|ab|abc)' | sort; find . -iregex '.*AB'
out: ./ab\n./abc\n./ab\n
err: 
