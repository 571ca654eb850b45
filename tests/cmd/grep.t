# grep, egrep, fgrep (GNU grep 3.8 behaviour)

test: basic match
cmd: grep foo input
in: foo\nbar\nfood\n
out: foo\nfood\n

test: no match status 1
cmd: grep zzz input
in: foo\n
out:
status: 1

test: stdin
cmd: grep b
stdin: a\nb\nab\n
out: b\nab\n

test: stdin dash with label
cmd: grep -H --label=IN b -
stdin: a\nb\n
out: IN:b\n

test: stdin default name with -H
cmd: grep -H b
stdin: b\n
out: (standard input):b\n

test: two files get names
cmd: grep x a b
file: a=x1\ny\n
file: b=x2\n
out: a:x1\nb:x2\n

test: -h suppresses names
cmd: grep -h x a b
file: a=x1\n
file: b=x2\n
out: x1\nx2\n

test: -n line numbers
cmd: grep -n o input
in: a\nfoo\nb\nboo\n
out: 2:foo\n4:boo\n

test: -b byte offsets
cmd: grep -b o input
in: a\nfoo\nb\nboo\n
out: 2:foo\n8:boo\n

test: -o -b offsets of matches
cmd: grep -o -b o input
in: a\nfoo\n
out: 3:o\n4:o\n

test: -c count
cmd: grep -c o input
in: a\nfoo\nboo\n
out: 2\n

test: -c with names
cmd: grep -c x a b
file: a=x\nx\n
file: b=y\n
out: a:2\nb:0\n
status: 0

test: -v invert
cmd: grep -v o input
in: a\nfoo\nb\nboo\n
out: a\nb\n

test: -v -c
cmd: grep -vc o input
in: a\nfoo\nb\nboo\nc\n
out: 3\n

test: -v no trailing newline
cmd: grep -v x input
in: a\nx\nb
out: a\nb\n

test: last line without newline gets one
cmd: grep b input
in: a\nb
out: b\n

test: empty input
cmd: grep x input
in:
out:
status: 1

test: empty pattern matches all
cmd: grep '' input
in: a\n\nb\n
out: a\n\nb\n

test: -i ignore case
cmd: grep -i FOO input
in: foo\nFoO\nbar\n
out: foo\nFoO\n

test: -y is -i
cmd: grep -y FOO input
in: foo\n
out: foo\n

test: --no-ignore-case
cmd: grep -i --no-ignore-case FOO input
in: foo\nFOO\n
out: FOO\n

test: -w whole words
cmd: grep -w foo input
in: foo\nfoobar\nbar foo baz\nfoo_x\n
out: foo\nbar foo baz\n

test: -w retries later occurrence
cmd: grep -w ab input
in: xab ab\nabc\n
out: xab ab\n

test: -w non-word pattern
cmd: grep -w @ input
in: a @ b\na@b\n
out: a @ b\n

test: -w empty pattern
cmd: grep -w '' input
in: foo\n\n x\n
out: \n x\n

test: -x whole lines
cmd: grep -x foo input
in: foo\nfoo bar\n foo\n
out: foo\n

test: -x alternation
cmd: grep -xE 'a|ab' input
in: ab\nabc\na\n
out: ab\na\n

test: -x empty pattern
cmd: grep -x '' input
in: a\n\nb\n
out: \n

test: -o only matching
cmd: grep -o '[0-9]\+' input
in: a12b345\nnone\n6\n
out: 12\n345\n6\n

test: -o skips empty matches
cmd: grep -o 'b*' input
in: abbcb\n
out: bb\nb\n

test: -o with -n
cmd: grep -on 'o' input
in: x\nfoo\n
out: 2:o\n2:o\n

test: -l files with matches
cmd: grep -l x a b c
file: a=x\n
file: b=y\n
file: c=xx\n
out: a\nc\n

test: -L files without match
cmd: grep -L x a b c
file: a=x\n
file: b=y\n
file: c=xx\n
out: b\n

test: -L status follows selected lines
cmd: grep -L x a
file: a=y\n
out: a\n
status: 1

test: -q quiet
cmd: grep -q b input
in: a\nb\n
out:

test: -q quiet no match
cmd: grep -q z input
in: a\n
out:
status: 1

test: -q wins over a missing file
cmd: grep -q a nope input
in: a\n
out:
err: grep: nope: No such file or directory\n
status: 0

test: -m max count
cmd: grep -m2 a input
in: a1\nb\na2\na3\n
out: a1\na2\n

test: -m with -c
cmd: grep -c -m2 a input
in: a\na\na\n
out: 2\n

test: -m 0
cmd: grep -m 0 a input
in: a\n
out:
status: 1

test: -m negative is unlimited
cmd: grep -m -1 a input
in: a\na\n
out: a\na\n

test: -m keeps trailing context
cmd: grep -m1 -A1 a input
in: a\nb\na\nc\n
out: a\nb\n

test: -A after context
cmd: grep -A1 x input
in: x\n1\n2\nx\n3\n
out: x\n1\n--\nx\n3\n

test: -B before context
cmd: grep -B1 x input
in: 1\nx\n2\n3\nx\n
out: 1\nx\n--\n3\nx\n

test: -C context merges groups
cmd: grep -C1 x input
in: 1\nx\n2\nx\n3\n4\n5\n
out: 1\nx\n2\nx\n3\n

test: -NUM context
cmd: grep -1 x input
in: a\nb\nx\nc\nd\n
out: b\nx\nc\n

test: -n with context separators
cmd: grep -n -C1 x input
in: a\nx\nb\nc\nd\nx\n
out: 1-a\n2:x\n3-b\n--\n5-d\n6:x\n

test: context across files
cmd: grep -A1 x a b
file: a=x\ny\n
file: b=z\nx\n
out: a:x\na-y\n--\nb:x\n

test: --group-separator
cmd: grep --group-separator=XX -A0 x input
in: x\ny\nx\n
out: x\nXX\nx\n

test: --no-group-separator
cmd: grep --no-group-separator -A0 x input
in: x\ny\nx\n
out: x\nx\n

test: -v with context
cmd: grep -v -A1 x input
in: a\nx\nx\nb\n
out: a\nx\n--\nb\n

test: -o with context prints separators only
cmd: grep -o -A1 foo input
in: a\nb\nc\nfoo\nd\ne\nf\ng\nfoo\n
out: foo\n--\nfoo\n

test: -E extended
cmd: grep -E 'ab+c|^z' input
in: abbc\nzz\nac\n
out: abbc\nzz\n

test: egrep
cmd: egrep 'a|b' input
in: a\nc\nb\n
out: a\nb\n

test: -F fixed strings
cmd: grep -F 'a.c' input
in: abc\na.c\n
out: a.c\n

test: fgrep
cmd: fgrep '[x]' input
in: x\n[x]\n
out: [x]\n

test: -F -i
cmd: grep -Fi 'A.C' input
in: abc\nA.c\n
out: A.c\n

test: -F -w -x
cmd: grep -Fx 'ab' input
in: ab\nabc\n
out: ab\n

test: multiple -e
cmd: grep -e a -e c input
in: a\nb\nc\n
out: a\nc\n

test: pattern with newlines
cmd: grep "$(printf 'a\nc')" input
in: a\nb\nc\n
out: a\nc\n

test: -f pattern file
cmd: grep -f pats input
file: pats=b\nd\n
in: a\nb\nc\nd\n
out: b\nd\n

test: -f empty file matches nothing
cmd: grep -f pats input
file: pats=
in: a\n
out:
status: 1

test: -v -f empty file matches everything
cmd: grep -v -f pats input
file: pats=
in: a\nb\n
out: a\nb\n

test: -f with -e
cmd: grep -e a -f pats input
file: pats=c\n
in: a\nb\nc\n
out: a\nc\n

test: -f missing file
cmd: grep -f nope input
in: a\n
out:
err: grep: nope: No such file or directory\n
status: 2

test: back-references per pattern
cmd: grep -e '\(a\)\1' -e '\(b\)\1' input
in: aa\nbb\nab\n
out: aa\nbb\n

test: ERE back-reference
cmd: grep -E '(.)\1' input
in: abc\nabbc\n
out: abbc\n

test: BRE interval and groups
cmd: grep 'x\{2,3\}' input
in: x\nxx\nxxxx\n
out: xx\nxxxx\n

test: character classes
cmd: grep '[[:digit:]][[:upper:]]' input
in: 1a\n2B\n
out: 2B\n

test: anchors
cmd: grep -c '^$' input
in: a\n\n\nb\n
out: 2\n

test: dollar anchor
cmd: grep 'b$' input
in: ab\nba\n
out: ab\n

test: word boundary escapes
cmd: grep '\<is\>' input
in: this\nit is\n
out: it is\n

test: \w and \s
cmd: grep -E '^\w+\s\w+$' input
in: ab cd\nab  cd\n
out: ab cd\n

test: dot matches a UTF-8 character
cmd: grep -x 'caf.' input
in: café\ncafe\ncaf\n
out: café\ncafe\n

test: -o dot on UTF-8
cmd: grep -o '.$' input
in: naïve é\n
out: é\n

test: -i on non-ASCII
cmd: grep -i 'ÉCOLE' input
in: une école\n
out: une école\n

test: -P perl regexp
cmd: grep -P '\d+(?=px)' input
in: 10px\n10em\n
out: 10px\n

test: -P -o
cmd: grep -oP '\d+(?=px)' input
in: a 10px 20px\n
out: 10\n20\n

test: -P -w
cmd: grep -Pw 'ab' input
in: ab c\nabc\n
out: ab c\n

test: -P -x
cmd: grep -Px 'a+' input
in: aaa\naab\n
out: aaa\n

test: -P -i
cmd: grep -Pi 'ABC' input
in: abc\n
out: abc\n

test: -P single pattern only
cmd: grep -P -e a -e b input
in: a\n
out:
err: grep: the -P option only supports a single pattern\n
status: 2

test: -P compile error
cmd: grep -P '(' input
in: a\n
out:
err: grep: missing closing parenthesis\n
status: 2

test: conflicting matchers
cmd: grep -E -F a input
in: a\n
out:
err: grep: conflicting matchers specified\n
status: 2

test: egrep -F conflicts
cmd: egrep -F a input
in: a\n
out:
err: grep: conflicting matchers specified\n
status: 2

test: -z null data
cmd: grep -z b input
in: a\nb\0c\0
out: a\nb\0

test: -z dot matches newline
cmd: grep -z 'a.b' input
in: a\nb\0ab\0
out: a\nb\0

test: -Z after names
cmd: grep -lZ x a b
file: a=x\n
file: b=x\n
out: a\0b\0

test: -Z with lines
cmd: grep -HZn x a
file: a=x\n
out: a\0001:x\n

test: -T initial tab pads to the file size
cmd: grep -T -n foo input
in: foo\nbar foo\nbaz\n
out:  1:\tfoo\n 2:\tbar foo\n

test: -T small file
cmd: grep -T -H foo input
in: foo\n
out: input:\tfoo\n

test: -T from stdin pads to 19
cmd: grep -Tn x
stdin: x\n
out:                   1:\tx\n

test: --color=always
cmd: grep --color=always -n foo input
in: a foo b\n
out: \e[32m\e[K1\e[m\e[K\e[36m\e[K:\e[m\e[Ka \e[01;31m\e[Kfoo\e[m\e[K b\n

test: --color=always with file names
cmd: grep --color=always x a b
file: a=x\n
file: b=yx\n
out: \e[35m\e[Ka\e[m\e[K\e[36m\e[K:\e[m\e[K\e[01;31m\e[Kx\e[m\e[K\n
out: \e[35m\e[Kb\e[m\e[K\e[36m\e[K:\e[m\e[Ky\e[01;31m\e[Kx\e[m\e[K\n

test: --color=always -o
cmd: grep --color=always -o o input
in: foo\n
out: \e[01;31m\e[Ko\e[m\e[K\n\e[01;31m\e[Ko\e[m\e[K\n

test: --color=always -l
cmd: grep --color=always -l x a
file: a=x\n
out: \e[35m\e[Ka\e[m\e[K\n

test: --color=always context separator
cmd: grep --color=always -A0 x input
in: x\ny\nx\n
out: \e[01;31m\e[Kx\e[m\e[K\n\e[36m\e[K--\e[m\e[K\n\e[01;31m\e[Kx\e[m\e[K\n

test: --color=always skips empty matches
cmd: grep --color=always 'o*' input
in: foo\n
out: f\e[01;31m\e[Koo\e[m\e[K\n

test: GREP_COLORS
cmd: GREP_COLORS='mt=4' grep --color=always x input
in: axb\n
out: a\e[4m\e[Kx\e[m\e[Kb\n

test: --color=never and auto print plain
cmd: grep --color=auto x input
in: x\n
out: x\n

test: binary file matches
cmd: grep a input
in: a\0b\nab\n
out:
err: grep: input: binary file matches\n
status: 0

test: binary file -c counts NUL-separated lines
cmd: grep -c a input
in: a\0a\nb\n
out: 2\n

test: binary file no match
cmd: grep z input
in: a\0b\n
out:
status: 1

test: binary file -a prints
cmd: grep -a b input
in: a\0b\nc\n
out: a\0b\n

test: binary file -I skipped
cmd: grep -I a input
in: a\0b\n
out:
status: 1

test: binary -c -I prints zero
cmd: grep -c -I a input
in: a\0b\n
out: 0\n
status: 1

test: --binary-files=without-match
cmd: grep --binary-files=without-match a input
in: a\0\n
out:
status: 1

test: --binary-files=text
cmd: grep --binary-files=text -c a input
in: a\0a\n
out: 1\n

test: binary -l lists
cmd: grep -l a input
in: \0a\n
out: input\n

test: binary -q
cmd: grep -q a input
in: \0a\n
out:

test: invalid UTF-8 line withheld
cmd: grep -n . input
in: x\xffy\nz\n
out: 2:z\n
err: grep: input: binary file matches\n

test: invalid UTF-8 only line
cmd: grep x input
in: x\xffy\n
out:
err: grep: input: binary file matches\n

test: invalid UTF-8 -o prints valid parts
cmd: grep -o . input
in: x\xffy\n
out: x\ny\n

test: invalid UTF-8 count
cmd: grep -c . input
in: x\xffy\nz\n
out: 2\n

test: dot does not match an invalid byte
cmd: grep -c '^.$' input
in: \xff\n
out: 0\n
status: 1

test: missing file
cmd: grep x nope
out:
err: grep: nope: No such file or directory\n
status: 2

test: missing file and a match
cmd: grep x nope input
in: x\n
out: input:x\n
err: grep: nope: No such file or directory\n
status: 2

test: -s suppresses messages
cmd: grep -s x nope
out:
err:
status: 2

test: directory without -r
cmd: grep x d
file: d/f=x\n
out:
err: grep: d: Is a directory\n
status: 2

test: -d skip
cmd: grep -d skip x d input
file: d/f=x\n
in: x\n
out: input:x\n

test: -r recursive
cmd: mkdir -p d/e && printf 'x y\n' > d/e/g && grep -r x d
file: d/f=x\n
out: d/e/g:x y\nd/f:x\n
host: skip
# the host's directory order is not sorted; the sandbox's is (see sorted case below)

test: -r sorted output
cmd: mkdir -p d/e && printf 'x y\n' > d/e/g && grep -r x d | sort
file: d/f=x\n
out: d/e/g:x y\nd/f:x\n

test: -r on one file has no name
cmd: grep -r x d/f
file: d/f=x\n
out: x\n

test: -r without operand searches dot
cmd: cd d && grep -r x
file: d/f=x\n
out: f:x\n

test: -r dot prefix
cmd: cd d && grep -r x .
file: d/f=x\n
out: ./f:x\n

test: -r -h
cmd: grep -rh x d
file: d/f=x\n
out: x\n

test: -r -l
cmd: mkdir -p d/a && echo x > d/a/f && grep -rl x d
out: d/a/f\n

test: -r -c
cmd: grep -rc x d
file: d/f=x\nx\n
out: d/f:2\n

test: --include
cmd: mkdir -p d/s && echo x > d/s/c.c && grep -r --include='*.c' x d | sort
file: d/a.c=x\n
file: d/b.h=x\n
out: d/a.c:x\nd/s/c.c:x\n

test: --exclude
cmd: grep -r --exclude='*.c' x d
file: d/a.c=x\n
file: d/b.h=x\n
out: d/b.h:x\n

test: --include and --exclude
cmd: mkdir -p d/s && echo x > d/s/c.c && grep -r --include='*.c' --exclude=a.c x d
file: d/a.c=x\n
file: d/b.h=x\n
out: d/s/c.c:x\n

test: --include applies to operands
cmd: grep --include='*.c' x a.c b.h
file: a.c=x\n
file: b.h=x\n
out: a.c:x\n

test: --exclude-dir
cmd: mkdir -p d/s d/t && echo x > d/s/b && echo x > d/t/c && grep -r --exclude-dir=s x d | sort
file: d/a=x\n
out: d/a:x\nd/t/c:x\n

test: --exclude-dir matches an operand
cmd: grep -r --exclude-dir=d x d
file: d/a=x\n
out:
status: 1

test: --exclude-from
cmd: grep -r --exclude-from=ex x d
file: ex=*.o\n
file: d/a.o=x\n
file: d/b=x\n
out: d/b:x\n

test: -r skips symlinks, -R follows
cmd: ln -s ../t d/link; grep -r x d; echo --; grep -R x d | sort
file: d/f=x\n
file: t=x2\n
out: d/f:x\n--\nd/f:x\nd/link:x2\n

test: -r follows a symlink operand
cmd: ln -s d l; grep -r x l
file: d/f=x\n
out: l/f:x\n

test: usage without pattern
cmd: grep
out:
err: Usage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n
status: 2

test: invalid option
cmd: grep -k x
out:
err: grep: invalid option -- 'k'\nUsage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n
status: 2

test: unrecognized long option
cmd: grep --frob x
out:
err: grep: unrecognized option '--frob'\nUsage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n
status: 2

test: bad context
cmd: grep -A x foo
out:
err: grep: x: invalid context length argument\n
status: 2

test: bad max count
cmd: grep -m x foo
out:
err: grep: invalid max count\n
status: 2

test: bad binary-files
cmd: grep --binary-files=foo x
out:
err: grep: unknown binary-files type\n
status: 2

test: bad directories action
cmd: grep -d foo x
out:
err: grep: invalid argument ‘foo’ for ‘--directories’\nValid arguments are:\n  - ‘read’\n  - ‘recurse’\n  - ‘skip’\nUsage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n
status: 1

test: regex errors
cmd: grep 'a\{1' input; grep '\(' input; grep '[a' input; grep 'a\' input; grep '\1' input; grep -E 'a{2,1}' input; grep '[[:foo:]]' input; grep '[z-a]' input
in: a\n
out:
err: grep: Unmatched \\{\ngrep: Unmatched ( or \\(\ngrep: Unmatched [, [^, [:, [., or [=\ngrep: Trailing backslash\n
err: grep: Invalid back reference\ngrep: Invalid content of \\{\\}\ngrep: Invalid character class name\ngrep: Invalid range end\n
status: 2

test: [:space:] mistake
cmd: grep '[:space:]' input
in: a\n
out:
err: grep: character class syntax is [[:space:]], not [:space:]\n
status: 2

test: pattern too big
cmd: grep -E 'a{32768}' input
in: a\n
out:
err: grep: Regular expression too big\n
status: 2

test: ERE warnings
cmd: grep -E '*a' input
in: *a\nb\n
out: *a\n
err: grep: warning: * at start of expression\n

test: ERE unmatched paren is literal
cmd: grep -E 'a)' input
in: a)\n
out: a)\n

test: --help
cmd: grep --help | head -2
out: Usage: grep [OPTION]... PATTERNS [FILE]...\nSearch for PATTERNS in each FILE.\n

test: long lines
cmd: head -c 2000000 /dev/zero | tr '\0' a > big; echo b >> big; grep -c b big; grep -o 'ab' big
out: 1\nab\n

test: many lines counted
cmd: seq 1 100000 > n; grep -c 9 n; grep -vc 9 n; grep -n '^99999$' n
out: 40951\n59049\n99999:99999\n

test: pathological pattern ends
cmd: printf 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n' > p; grep -cE '(a|aa)*c' p; grep -cE '(a*)*b' p
out: 0\n0\n
status: 1

test: pattern starting with a dash
cmd: grep -e -x input
in: a-x\nb\n
out: a-x\n

test: double dash ends options
cmd: grep -- -x input
in: a-x\n
out: a-x\n

test: -x with several patterns
cmd: grep -x -e ab -e c input
in: ab\nabc\nc\n
out: ab\nc\n

test: -w with several patterns
cmd: grep -w -e ab -e cd input
in: xab\ncd e\n
out: cd e\n

test: -o -i
cmd: grep -oi 'ab' input
in: xAbyaB\n
out: Ab\naB\n

test: -nbH together
cmd: grep -nbH b input
in: a\nb\n
out: input:2:2:b\n

test: -c -v -m
cmd: grep -cv -m2 x input
in: a\nb\nc\n
out: 2\n

test: -l -Z -v
cmd: grep -lZv x input
in: a\n
out: input\0

test: -z with -c
cmd: grep -zc a input
in: a\0b\0ab\0
out: 2\n

test: many fixed strings
cmd: seq 1 2000 > pats; seq 1990 2010 | grep -cxFf pats
out: 11\n

test: many regex patterns
cmd: seq 1 500 | sed 's/.*/^&$/' > pats; seq 495 505 | grep -cf pats
out: 6\n

test: text mode with invalid UTF-8
cmd: grep -a x input
in: x\xff\n
out: x\xff\n

test: -P with lookbehind and -o
cmd: grep -oP '(?<=\$)\d+' input
in: cost $12 and $7\n
out: 12\n7\n

test: -P invalid UTF-8 line
cmd: grep -cP 'a.c' input
in: a\xffc\nabc\n
out: 1\n

test: after context at end of file
cmd: grep -A5 x input
in: a\nx\nb\n
out: x\nb\n

test: before context at start of file
cmd: grep -B5 x input
in: a\nx\nb\n
out: a\nx\n

test: overlapping context
cmd: grep -C1 -n 'x' input
in: x\nx\na\nb\nx\n
out: 1:x\n2:x\n3-a\n4-b\n5:x\n

test: empty file with -L
cmd: grep -L x input
in:
out: input\n
status: 1

test: -h with -c on many files
cmd: grep -hc x a b
file: a=x\n
file: b=y\n
out: 1\n0\n

test: -w with UTF-8 words
cmd: grep -w 'über' input
in: über alles\nxüber\nfürüber\nein über\nüberall\n
out: über alles\nein über\n

test: word start before a UTF-8 letter
cmd: grep -o '\<ü\w*' input
in: xü üb éü\n
out: üb\n

test: -c -w on UTF-8 text
cmd: grep -cw 'a' input
in: é a\néa\naé\nà a\n
out: 2\n

test: -u is obsolete
cmd: grep -ub b input
in: ab\n
out: 0:ab\n
err: grep: warning: --unix-byte-offsets (-u) is obsolete\n

test: stops when the reader goes away
cmd: yes | grep y | head -1; echo ${PIPESTATUS[1]}
out: y\n141\n

# ---- fast paths: counting over many buffers (grep reads 96 KiB at a time) ----

test: fast -c across read buffers
cmd: seq 100000 > f; grep -c 7 f; seq 100000 | grep -c 7
out: 40951\n40951\n

test: fast -vc across read buffers
cmd: seq 100000 > f; grep -vc 7 f
out: 59049\n

test: fast -n counts lines across buffers
cmd: seq 100000 | grep -n '^99999$'; seq 100000 | grep -n -e '^50000$' -e '^3$'
out: 99999:99999\n3:3\n50000:50000\n

test: fast -l -q -L over a big file
cmd: seq 100000 > f; grep -l 99999 f; grep -q 12345 f; echo $?; grep -L 99999 f; echo $?
out: f\n0\n0\n

test: fast -c -m stops counting at the limit
cmd: seq 100000 | grep -c -m 5 7
out: 5\n

test: fast -c last line without newline
cmd: printf 'ax\nb\nx' | grep -c x; printf 'ax\nb\nc' | grep -vc x; printf 'x' | grep -c x
out: 2\n2\n1\n

test: fast -c with NUL bytes (binary: NULs end lines)
cmd: printf 'a\0x\nb\n\0\nx' | grep -c x; printf 'a\0x\nb\n\0\nx' | grep -vc x
out: 2\n4\n

test: fast -c -i -w -x
cmd: printf 'X\nx\ny\n' | grep -ic x; printf 'x\nxx\na x b\n' | grep -wc x; printf 'x\nxx\n x\n' | grep -xc x
out: 2\n2\n1\n

test: fast -c invalid UTF-8 lines still count
cmd: printf '\xffx\n\xfe\nx\xc3\n' | grep -c x
out: 2\n

test: fast -c empty pattern matches every line
cmd: printf 'a\n\nb' | grep -c ''; printf '' | grep -c ''; echo $?
out: 3\n0\n1\n

test: fast -c several -e
cmd: printf 'a\nb\nc\nac\n' | grep -c -e a -e c
out: 3\n

test: fast -zc counts NUL records
cmd: printf 'a\0xb\0x' | grep -zc x
out: 2\n

test: fast -c with a fixed string of several bytes
cmd: seq 100000 > f; grep -c 99 f; grep -vc 99 f; seq 100000 | grep -c 12345
out: 3691\n96309\n1\n

test: fast -c fixed string versus regex characters
cmd: printf 'a.c\nabc\na.c a.c\n' > f; grep -Fc 'a.c' f; grep -c 'a.c' f; grep -c 'a\.c' f; printf 'x y\nxy\n' | grep -c 'x y'
out: 2\n3\n2\n1\n

test: fast -c with several files
cmd: printf 'ab\nab ab\nb\n' > f; printf 'b\n' > g; grep -c ab f g; grep -vc ab f g
out: f:2\ng:0\nf:1\ng:1\n

# -F with several strings runs Aho-Corasick: the cases below pin what it
# must agree with GNU on (-i, -w, -x, -o, overlapping strings, --color).
test: -F -f several strings
cmd: printf 'he\nshe\nhis\nhers\n' > p; grep -F -f p input
in: ushers\nahishe\nnothing\nxhex\n
out: ushers\nahishe\nxhex\n

test: -F -o several strings leftmost longest
cmd: printf 'he\nshe\nhis\nhers\n' > p; grep -F -o -f p input
in: ushers\nahishe\n
out: she\nhis\nhe\n

test: -F -w several strings: a shorter or later occurrence still matches
cmd: grep -F -w -n -e ab -e abc -e b input
in: abc\nabcd\nxab b\nab_\nx.b.\n
out: 1:abc\n3:xab b\n5:x.b.\n

test: -F -x several strings
cmd: grep -F -x -c -e ab -e abc input
in: abc\nabcd\nab\n ab\n
out: 2\n

test: -F -i several strings
cmd: grep -F -i -o -e AB -e bc input
in: xAbC\nabc\nBC\n
out: Ab\nab\nBC\n

test: -F -i -w several strings on a line with non-ASCII letters
cmd: grep -F -i -w -e ab -e cd input
in: éab cd\nÉAB\nab\xc3\xa9\ncd\n
out: éab cd\ncd\n

test: -F --color several strings
cmd: grep -F --color=always -e ab -e b input
in: xaby b\n
out: x\033[01;31m\033[Kab\033[m\033[Ky \033[01;31m\033[Kb\033[m\033[K\n

test: -F -f with many strings
cmd: seq 1 5000 | sed 's/^/k/' > p; printf 'k4999x\nk\nzzk12\n' | grep -F -o -f p
out: k4999\nk12\n

test: -L -q prints nothing
cmd: printf 'a\n' > f; grep -L -q b f; echo $?; grep -l -q a f; echo $?
out: 1\n0\n

test: no patterns: -c prints nothing, -v selects every line, -L lists
cmd: printf 'a\n' > f; grep -c -f /dev/null f; echo $?; grep -v -c -f /dev/null f; grep -L -f /dev/null f; grep -L -m0 a f; echo $?
out: 1\n1\nf\nf\n1\n

test: -r reads the files of the walk
cmd: mkdir -p d/e; printf 'x1\n' > d/a; printf 'y\nx2' > d/e/b; printf 'z\n' > d/c; grep -rn x d | sort; grep -rc x d | sort
out: d/a:1:x1\nd/e/b:2:x2\nd/a:1\nd/c:0\nd/e/b:1\n

test: abbreviated long-only options: --lab with its value, --no-ig after -i, --colo
cmd: printf 'a\nA\n' | grep --lab=X -H --colo=never --no-ig -i a -; printf 'A\n' | grep -i --no-ig a; echo $?
out: X:a\nX:A\n1\n

test: --group-sep with its value in the next argument
cmd: printf 'a\nb\nc\na\n' | grep --group-sep XX -A0 a
out: a\nXX\na\n
