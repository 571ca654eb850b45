# iconv (glibc 2.36's iconv program over glibc's iconv(3)).

test: latin1 and utf-8 both ways
cmd: printf 'caf\303\251\n' | iconv -f UTF-8 -t LATIN1 | od -An -c; printf 'caf\351\n' | iconv -f ISO-8859-1 -t UTF-8; printf 'caf\351\n' | iconv -f latin1
out:    c   a   f 351  \\n\ncafé\ncafé\n

test: utf-16 with and without a byte order mark, and back
cmd: printf 'hi' | iconv -t UTF-16 | od -An -c; printf 'hi' | iconv -f UTF-8 -t UTF-16BE | od -An -c; printf 'h\0i\0' | iconv -f UTF-16LE -t UTF-8; echo
out:  377 376   h  \\0   i  \\0\n  \\0   h  \\0   i\nhi\n

test: transliteration and -c
cmd: printf 'a\303\251b\n' | iconv -f UTF-8 -t ASCII//TRANSLIT; printf 'a\303\251b\n' | iconv -c -f UTF-8 -t ASCII; echo $?; printf 'a\377b\n' | iconv -c -t ASCII
out: aeb\nab\n0\nab\n

test: an illegal sequence stops after the output so far
cmd: printf 'ab\377c\n' | iconv -f UTF-8 -t ASCII; echo " $?"; printf 'a\303\251b\n' | iconv -f UTF-8 -t ASCII; echo " $?"
out: ab 1\na 1\n
err: iconv: illegal input sequence at position 2\niconv: illegal input sequence at position 1\n

test: an incomplete character at the end
cmd: printf 'ab\303' | iconv -f UTF-8 -t UTF-16LE | od -An -c; printf 'ab\303' | iconv -s -t LATIN1; echo " $?"
out:    a  \\0   b  \\0\nab 1\n
err: iconv: incomplete character or shift sequence at end of buffer\n
err: iconv: incomplete character or shift sequence at end of buffer\n

test: several files and -o
cmd: printf 'x\n' > f1; printf '\303\251\n' > f2; iconv -f UTF-8 -t LATIN1 f1 f2 -o out; od -An -c out; iconv -f utf8 -t utf16 nosuch; echo $?
out:    x  \\n 351  \\n\n1\n
err: iconv: cannot open input file `nosuch': No such file or directory\n

test: the list names the common sets
cmd: iconv -l | grep -cE '^(UTF-8|ISO-8859-1|UTF-16LE|ASCII)//$'
out: 4\n

test: abbreviated --from-code and --to-code, with and without '='
cmd: printf 'caf\xe9\n' | iconv --from ISO-8859-1 --to-c=UTF-8
out: café\n
