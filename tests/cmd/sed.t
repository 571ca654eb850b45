# sed (GNU sed 4.9 behaviour)

test: substitute
cmd: sed 's/o/0/' input
in: foo\nbar\n
out: f0o\nbar\n

test: substitute global
cmd: sed 's/o/0/g' input
in: foo boo\n
out: f00 b00\n

test: substitute nth
cmd: sed 's/a/b/2' input
in: aaa\n
out: aba\n

test: substitute nth and after
cmd: sed 's/a/b/2g' input
in: aaaa\n
out: abbb\n

test: substitute p flag with -n
cmd: sed -n 's/x/y/p' input
in: ax\nb\n
out: ay\n

test: substitute case-insensitive
cmd: sed 's/X/y/Ig' input
in: xXx\n
out: yyy\n

test: ampersand and escaped ampersand
cmd: sed 's/x/&&\&/' input
in: x\n
out: xx&\n

test: back-references
cmd: sed 's/\(a*\)b\(c*\)/[\2|\1]/' input
in: aabcc\n
out: [cc|aa]\n

test: ERE groups
cmd: sed -E 's/(a|b)+/<&>/' input
in: xabbay\n
out: x<abba>y\n

test: -r is -E
cmd: sed -r 's/a{2}/X/' input
in: aaa\n
out: Xa\n

test: case conversion
cmd: sed 's/\w\+/\u&/g; s/o/\U&x\E!/' input
in: hello world\n
out: HellOX! World\n

test: lowercase first then upper rest
cmd: sed -E 's/(.)(.*)/\l\1\U\2/' input
in: Hello\n
out: hELLO\n

test: \L cancels a pending \u
cmd: sed 's/.*/\u\L&/' input
in: hELLO wORLD\n
out: hello world\n

test: \L\u combination
cmd: sed 's/.*/\L\u&/' input
in: hELLO wORLD\n
out: Hello world\n

test: one-shot then mode
cmd: sed 's/\(a\)\(b\)/\u\1\U\2x\Ey/' input
in: ab\n
out: ABXy\n

test: case conversion of UTF-8
cmd: sed 's/.*/\U&/' input
in: éa ß\n
out: ÉA ß\n

test: newline in replacement
cmd: sed 's/b/\n/' input
in: abc\n
out: a\nc\n

test: tab escape
cmd: sed 's/x/a\tb/' input
in: x\n
out: a\tb\n

test: hex escape in regex keeps its meaning
cmd: sed 's/\x2e/X/g' input
in: a.b\n
out: XXX\n

test: hex escape in replacement is literal
cmd: sed 's/&/\x26\x26/' input
in: a&b\n
out: a&&b\n

test: other delimiter
cmd: sed 's|/usr|/opt|' input
in: /usr/bin\n
out: /opt/bin\n

test: escaped delimiter
cmd: sed 's/\//|/' input
in: a/b\n
out: a|b\n

test: delimiter that is a regex char
cmd: sed 's.a\.b.X.' input
in: axb\n
out: X\n

test: empty matches
cmd: sed 's/x*/-/g' input
in: abc\n
out: -a-b-c-\n

test: empty match after a match is skipped
cmd: sed 's/a*/x/g' input
in: baaac\n
out: xbxcx\n

test: anchored global
cmd: sed 's/^a/x/g' input
in: aaa\n
out: xaa\n

test: dot does not match an invalid byte
cmd: sed 's/a.b/X/' input
in: a\xffb\naéb\n
out: a\xffb\nX\n

test: empty regex reuses the last one
cmd: sed -n '/x/{s//y/;p}' input
in: axa\nb\n
out: aya\n

test: no previous regex
cmd: sed '//p' input
in: x\n
out:
err: sed: -e expression #1, char 0: no previous regular expression\n
status: 1

test: d delete
cmd: sed '2d' input
in: a\nb\nc\n
out: a\nc\n

test: -n and p
cmd: sed -n '2p' input
in: a\nb\nc\n
out: b\n

test: #n first line
cmd: sed '#n
cmd: 2p' input
in: a\nb\n
out: b\n

test: last line address
cmd: sed -n '$p' input
in: a\nb\nc\n
out: c\n

test: regex address
cmd: sed -n '/b/p' input
in: a\nb\nab\n
out: b\nab\n

test: custom delimiter address
cmd: sed -n '\%/x%p' input
in: a/x\nb\n
out: a/x\n

test: address with I flag
cmd: sed -n '/B/Ip' input
in: abc\nx\n
out: abc\n

test: range numbers
cmd: sed -n '2,3p' input
in: a\nb\nc\nd\n
out: b\nc\n

test: range regex
cmd: sed -n '/b/,/c/p' input
in: a\nb\nx\nc\nd\nb\n
out: b\nx\nc\nb\n

test: range end before start
cmd: sed -n '3,1p' input
in: a\nb\nc\nd\n
out: c\n

test: range plus
cmd: sed -n '/b/,+1p' input
in: a\nb\nc\nd\n
out: b\nc\n

test: range multiple
cmd: sed -n '2,~4p' input
in: 1\n2\n3\n4\n5\n
out: 2\n3\n4\n

test: first~step
cmd: sed -n '1~2p' input
in: 1\n2\n3\n4\n5\n
out: 1\n3\n5\n

test: 0~3
cmd: sed -n '0~3p' input
in: 1\n2\n3\n4\n5\n6\n
out: 3\n6\n

test: 0,/re/
cmd: sed '0,/a/s//X/' input
in: a\na\n
out: X\na\n

test: 1,/re/ differs from 0,/re/
cmd: sed '1,/a/s/a/X/' input
in: a\na\nb\n
out: X\nX\nb\n

test: negation
cmd: sed '2!d' input
in: a\nb\nc\n
out: b\n

test: range negation
cmd: sed '2,3!s/^/#/' input
in: a\nb\nc\nd\n
out: #a\nb\nc\n#d\n

test: blocks
cmd: sed -n '/a/{s/a/b/;p}' input
in: xa\ny\n
out: xb\n

test: nested blocks
cmd: sed -n '1,3{/b/{p;p}}' input
in: a\nb\nb\nb\n
out: b\nb\nb\nb\n

test: a append one-liner
cmd: sed '1a hello' input
in: x\ny\n
out: x\nhello\ny\n

test: a keeps trailing spaces and semicolons
cmd: sed 'a  foo;p  ' input
in: x\n
out: x\nfoo;p  \n

test: a classic multiline
cmd: sed '1a\
cmd: l1\
cmd: l2' input
in: a\nb\n
out: a\nl1\nl2\nb\n

test: a with leading whitespace preserved
cmd: sed 'a\  hello' input
in: x\n
out: x\n  hello\n

test: a with escapes
cmd: sed 'a foo\tbar\nbaz' input
in: x\n
out: x\nfoo\tbar\nbaz\n

test: a across -e
cmd: sed -e 'a\' -e 'text' input
in: x\n
out: x\ntext\n

test: i insert
cmd: sed '2i\inserted' input
in: a\nb\n
out: a\ninserted\nb\n

test: c change
cmd: sed '2c\
cmd: new' input
in: a\nb\nc\n
out: a\nnew\nc\n

test: c on a range prints once
cmd: sed '1,2c changed' input
in: a\nb\nc\n
out: changed\nc\n

test: c negated range
cmd: sed '1,2!c new' input
in: a\nb\nc\n
out: a\nb\nnew\n

test: append at end of input
cmd: sed '$a end' input
in: x\n
out: x\nend\n

test: = line numbers
cmd: sed -n '$=' input
in: a\nb\nc\n
out: 3\n

test: = before lines
cmd: sed = input
in: a\nb\n
out: 1\na\n2\nb\n

test: l list
cmd: sed -n l input
in: a\tb\\c\x01é\n
out: a\\tb\\\\c\\001\\303\\251$\n

test: l wraps at 70
cmd: sed -n l input
in: aaaaaaaaaabbbbbbbbbbccccccccccddddddddddeeeeeeeeeeffffffffffgggggggggghhhhhhhhhh\n
out: aaaaaaaaaabbbbbbbbbbccccccccccddddddddddeeeeeeeeeeffffffffffggggggggg\\\nghhhhhhhhhh$\n

test: l with length
cmd: sed -n 'l 4' input
in: abcdef\n
out: abc\\\ndef$\n

test: l 1
cmd: sed -n 'l 1' input
in: ab\n
out: \\\na\\\nb$\n

test: l 0 never wraps
cmd: sed -n 'l 0' input
in: abcdef\n
out: abcdef$\n

test: -l option
cmd: sed -l 5 -n l input
in: abcdef\n
out: abcd\\\nef$\n

test: hold space reverse
cmd: sed -n '1!G;h;$p' input
in: a\nb\nc\n
out: c\nb\na\n

test: H and x
cmd: sed -n 'H;${x;s/\n/,/g;p}' input
in: a\nb\nc\n
out: ,a,b,c\n

test: g copies hold
cmd: sed '1h;2g' input
in: a\nb\n
out: a\na\n

test: n next
cmd: sed 'n;d' input
in: 1\n2\n3\n4\n5\n
out: 1\n3\n5\n

test: n at end prints and quits
cmd: sed 'n;s/^/x/' input
in: a\n
out: a\n

test: N join lines
cmd: sed 'N;s/\n/,/' input
in: a\nb\nc\nd\n
out: a,b\nc,d\n

test: N at end prints
cmd: sed 'N;s/\n/,/' input
in: a\nb\nc\n
out: a,b\nc\n

test: $!N P D idiom
cmd: sed '$!N;P;D' input
in: a\nb\nc\n
out: a\nb\nc\n

test: remove duplicate lines
cmd: sed '$!N; /^\(.*\)\n\1$/!P; D' input
in: a\na\nb\nb\nb\nc\n
out: a\nb\nc\n

test: D restarts without appending
cmd: sed -e 'N;a X' -e 'P;D' input
in: a\nb\n
out: a\nb\nX\n

test: P prints first line
cmd: sed -n 'N;P' input
in: a\nb\n
out: a\n

test: dot matches newline
cmd: sed 'N;s/a.b/X/' input
in: a\nb\n
out: X\n

test: M flag
cmd: sed 'N;s/^b/B/M;s/a$/A/M' input
in: a\nb\n
out: A\nB\n

test: branch loop
cmd: sed ':a;s/^\(.\{1,4\}\)$/ \1/;ta' input
in: ab\n
out:    ab\n

test: branch to end
cmd: sed -n '/x/b;p' input
in: a\nx\nb\n
out: a\nb\n

test: label ends at a brace
cmd: sed -n '/x/{p;b};p' input
in: x\ny\n
out: x\ny\n

test: t branch
cmd: sed 's/a/b/;t;s/$/!/' input
in: a\nc\n
out: b\nc!\n

test: T branch
cmd: sed 's/a/b/;T;s/$/!/' input
in: a\nc\n
out: b!\nc\n

test: join continued lines
cmd: sed -e ':a' -e '/\\$/N; s/\\\n//; ta' input
in: a\\\nb\\\nc\nd\n
out: abc\nd\n

test: y transliterate
cmd: sed 'y/abc/xyz/' input
in: aabbcc\n
out: xxyyzz\n

test: y with escapes
cmd: sed 'y/abc/\n\t\\/' input
in: abc\n
out: \n\t\\\n

test: y multibyte
cmd: sed 'y/éa/Eà/' input
in: éta\n
out: Età\n

test: q with exit code
cmd: sed '2q5' input
in: a\nb\nc\n
out: a\nb\n
status: 5

test: Q quits silently
cmd: sed '2Q' input
in: a\nb\nc\n
out: a\n

test: q flushes append
cmd: sed '1{a x
cmd: q}' input
in: a\nb\n
out: a\nx\n

test: z zaps
cmd: sed 'z;s/^$/empty/' input
in: a\n
out: empty\n

test: F file name
cmd: sed -n '1F' input
in: a\n
out: input\n

test: F stdin
cmd: sed F
stdin: a\n
out: -\na\n

test: w file
cmd: sed -n '/a/w out' input; cat out
in: a\nb\nab\n
out: a\nab\n

test: w /dev/stdout
cmd: sed 'w /dev/stdout' input
in: a\n
out: a\na\n

test: s with w flag
cmd: sed -n 's/a/X/w out' input; cat out
in: a\nb\n
out: X\n

test: W writes the first line
cmd: sed -n 'N;W out' input; cat out
in: a\nb\n
out: a\n

test: r file
cmd: sed '1r other' input
file: other=O1\nO2\n
in: a\nb\n
out: a\nO1\nO2\nb\n

test: r missing file is ignored
cmd: sed 'r nope' input
in: a\n
out: a\n

test: R reads line by line
cmd: sed 'R other' input
file: other=L1\nL2\n
in: a\nb\nc\n
out: a\nL1\nb\nL2\nc\n

test: missing final newline kept
cmd: sed 's/b/B/' input
in: a\nb
out: a\nB

test: missing newline added before later output
cmd: sed p input
in: a
out: a\na

test: $!d without final newline
cmd: sed '$!d' input
in: a\nb
out: b

test: NUL bytes pass through
cmd: sed 's/b/X/' input
in: a\0b\n
out: a\0X\n

test: -z null data
cmd: sed -z 's/^/X/' input
in: a\0b\0
out: Xa\0Xb\0

test: multiple files are one stream
cmd: sed -n '$=' a b
file: a=1\n2\n
file: b=3\n
out: 3\n

test: -s separate files
cmd: sed -s '1d' a b
file: a=a1\na2\n
file: b=b1\nb2\n
out: a2\nb2\n

test: -s last line per file
cmd: sed -s -n '$p' a b
file: a=a1\na2\n
file: b=b1\nb2\n
out: a2\nb2\n

test: -i in place
cmd: sed -i 's/a/b/' f; cat f
file: f=a\na\n
out: b\nb\n

test: -i with suffix
cmd: sed -i.bak 's/a/b/' f; cat f f.bak
file: f=a\n
out: b\na\n

test: -i with star in suffix
cmd: sed -i'old_*' 's/a/b/' f; cat f old_f
file: f=a\n
out: b\na\n

test: -i several files separately
cmd: sed -i '1d' f g; cat f g
file: f=f1\nf2\n
file: g=g1\ng2\n
out: f2\ng2\n

test: -i and q keep only printed lines
cmd: sed -i 2q f; cat f
file: f=1\n2\n3\n
out: 1\n2\n

test: -i missing file
cmd: sed -i 's/a/b/' nope f; echo $?; cat f
file: f=a\n
out: 2\nb\n
err: sed: can't read nope: No such file or directory\n

test: -i on a directory
cmd: sed -i p d
file: d/x=1\n
out:
err: sed: couldn't edit d: not a regular file\n
status: 4

test: -n -e -f combined
cmd: sed -n -e 1p -f script input
file: script=3p\n
in: a\nb\nc\n
out: a\nc\n

test: -f script with comments
cmd: sed -f script input
file: script=# comment\ns/a/b/ # trailing\n/c/d\n
in: a\nc\n
out: b\n

test: semicolons and spaces
cmd: sed -n ' 1 p ; ; 2 { p } ' input
in: a\nb\n
out: a\nb\n

test: s flags with spaces
cmd: sed 's/x/y/ p' input
in: x\n
out: y\ny\n

test: missing input file continues
cmd: sed p nope input
in: a\n
out: a\na\n
err: sed: can't read nope: No such file or directory\n
status: 2

test: directory input
cmd: sed p d
file: d/x=1\n
out:
err: sed: read error on d: Is a directory\n
status: 4

test: stdin dash
cmd: sed -n p -
stdin: x\n
out: x\n

test: no script
cmd: sed
out:
status: 1

test: help
cmd: sed --help | head -1
out: Usage: sed [OPTION]... {script-only-if-no-other-script} [input-file]...\n

test: invalid option
cmd: sed -k p 2>&1 | head -3
out: sed: invalid option -- 'k'\nUsage: sed [OPTION]... {script-only-if-no-other-script} [input-file]...\n\n

test: error unterminated s
cmd: sed 's/a/b'
out:
err: sed: -e expression #1, char 5: unterminated `s' command\n
status: 1

test: error unknown option to s
cmd: sed 's/a/b/q'
out:
err: sed: -e expression #1, char 7: unknown option to `s'\n
status: 1

test: error multiple g
cmd: sed 's/a/b/gg'
out:
err: sed: -e expression #1, char 8: multiple `g' options to `s' command\n
status: 1

test: error zero count
cmd: sed 's/a/b/0'
out:
err: sed: -e expression #1, char 7: number option to `s' command may not be zero\n
status: 1

test: error regex
cmd: sed 's/\(/x/'
out:
err: sed: -e expression #1, char 7: Unmatched ( or \\(\n
status: 1

test: error ERE unmatched paren
cmd: sed -E 's/a)/x/'
out:
err: sed: -e expression #1, char 7: Unmatched ) or \\)\n
status: 1

test: error invalid reference
cmd: sed 's/\(x\)/\2/'
out:
err: sed: -e expression #1, char 11: invalid reference \\2 on `s' command's RHS\n
status: 1

test: error y lengths
cmd: sed 'y/ab/c/'
out:
err: sed: -e expression #1, char 7: strings for `y' command are different lengths\n
status: 1

test: error unknown command
cmd: sed 'k'
out:
err: sed: -e expression #1, char 1: unknown command: `k'\n
status: 1

test: error multiple bangs
cmd: sed '3!!d'
out:
err: sed: -e expression #1, char 3: multiple `!'s\n
status: 1

test: error unmatched brace
cmd: sed -n '{p'
out:
err: sed: -e expression #1, char 0: unmatched `{'\n
status: 1

test: error unexpected brace
cmd: sed 'p}'
out:
err: sed: -e expression #1, char 2: unexpected `}'\n
status: 1

test: error extra characters
cmd: sed 'p x'
out:
err: sed: -e expression #1, char 3: extra characters after command\n
status: 1

test: error colon lacks label
cmd: sed ':'
out:
err: sed: -e expression #1, char 1: ":" lacks a label\n
status: 1

test: error missing label
cmd: sed 'b foo'
out:
err: sed: can't find label for jump to `foo'\n
status: 4

test: error unterminated address
cmd: sed '/x'
out:
err: sed: -e expression #1, char 2: unterminated address regex\n
status: 1

test: error expected backslash
cmd: sed 'a'
out:
err: sed: -e expression #1, char 1: expected \\ after `a', `c' or `i'\n
status: 1

test: error line zero
cmd: sed '0p'
out:
err: sed: -e expression #1, char 2: invalid usage of line address 0\n
status: 1

test: error plus as first address
cmd: sed '+1p'
out:
err: sed: -e expression #1, char 2: invalid usage of +N or ~N as first address\n
status: 1

test: error comment with address
cmd: sed '1#x'
out:
err: sed: -e expression #1, char 2: comments don't accept any addresses\n
status: 1

test: error one address
cmd: sed '1,2q'
out:
err: sed: -e expression #1, char 4: command only uses one address\n
status: 1

test: error missing filename
cmd: sed 'r'
out:
err: sed: -e expression #1, char 1: missing filename in r/R/w/W commands\n
status: 1

test: error in second expression
cmd: sed -e p -e 'k'
out:
err: sed: -e expression #2, char 1: unknown command: `k'\n
status: 1

test: error in script file
cmd: sed -f script
file: script=p\ns/a\n
out:
err: sed: file script line 2: unterminated `s' command\n
status: 1

test: --posix disables GNU escapes
cmd: sed --posix 's/x\+/y/' input
in: xx\n
out: xx\n

test: --sandbox refuses w
cmd: sed --sandbox 'w out'
out:
err: sed: -e expression #1, char 1: e/r/w commands disabled in sandbox mode\n
status: 1

test: --sandbox refuses r
cmd: sed --sandbox 'r x'
out:
err: sed: -e expression #1, char 1: e/r/w commands disabled in sandbox mode\n
status: 1

test: e command refused
cmd: sed 'e ls' input
in: x\n
out:
status: 1
host: skip
# the host runs the command; the sandbox refuses with a clear error

test: infinite loop is stopped
cmd: sed ':a;ba' input
in: x\n
out:
status: 4
host: skip
# GNU sed would loop forever

test: long line
cmd: head -c 1000000 /dev/zero | tr '\0' a | sed 's/a/b/g' | tr -d b | wc -c
out: 0\n

test: tac
cmd: sed '1!G;h;$!d' input
in: 1\n2\n3\n
out: 3\n2\n1\n

test: range with empty regex inside
cmd: sed -n '/a/,/b/{//!p}' input
in: x\na\n1\n2\nb\ny\n
out: 1\n2\n

test: range start and end on one line
cmd: sed -n '/s/,/e/p' input
in: se\nx\ne\ny\n
out: se\nx\ne\n

test: line numbers through a pipe
cmd: sed = input | sed 'N;s/\n/ /'
in: a\nb\n
out: 1 a\n2 b\n

test: quit after substitution
cmd: sed 's/x/y/;q' input
in: x\nx\n
out: y\n

test: substitute second occurrence with newline
cmd: sed 's/,/\n/2' input
in: a,b,c\n
out: a,b\nc\n

test: y with escaped delimiter
cmd: sed 'y/\//|/' input
in: a/b\n
out: a|b\n

test: empty regex with global
cmd: sed '/o/s//0/g' input
in: foo\n
out: f00\n

test: 0,/re/ matching on line one
cmd: sed -n '0,/a/p' input
in: a\nb\na\n
out: a\n

test: 1,/re/ matching on line one
cmd: sed -n '1,/a/p' input
in: a\nb\na\nc\n
out: a\nb\na\n

test: insert before a last line without newline
cmd: sed '$i\x' input
in: a\nb
out: a\nx\nb

test: append after a last line without newline
cmd: sed '$a\x' input
in: a\nb
out: a\nb\nx\n

test: w /dev/stderr
cmd: sed 'w /dev/stderr' input 2>&1 >/dev/null
in: a\n
out: a\n

test: G on empty hold
cmd: sed G input
in: a\nb\n
out: a\n\nb\n\n

test: number then g with I
cmd: sed 's/a/x/2Ig' input
in: AaAa\n
out: Axxx\n

test: braces with addresses and negation
cmd: sed -n '2,3!{p}' input
in: 1\n2\n3\n4\n
out: 1\n4\n

test: c in a block on the last line
cmd: sed '${c\
cmd: end
cmd: }' input
in: a\nb\n
out: a\nend\n

test: s with M and ^ across lines
cmd: sed 'N;N;s/^/> /Mg' input
in: a\nb\nc\n
out: > a\n> b\n> c\n

test: backreference in regex
cmd: sed -n '/\(.\)\1/p' input
in: abc\nabbc\n
out: abbc\n

test: interval in ERE
cmd: sed -E 's/[0-9]{3}/N/g' input
in: 12 1234 123\n
out: 12 N4 N\n

test: POSIX classes in sed
cmd: sed 's/[[:space:]]\+/_/g' input
in: a  b\tc\n
out: a_b_c\n

test: Q with exit code and no output
cmd: sed -n '/x/Q3;p' input
in: a\nx\nb\n
out: a\n
status: 3

test: n with -n prints nothing extra
cmd: sed -n 'n;p' input
in: 1\n2\n3\n4\n
out: 2\n4\n

test: l of long escapes wraps whole
cmd: sed -n 'l 6' input
in: \x01\x02\x03\n
out: \\001\\\n\\002\\\n\\003$\n

test: stops when the reader goes away
cmd: yes | sed p | head -2; echo ${PIPESTATUS[1]}
out: y\ny\n141\n

test: a delimiter inside a bracket expression is an ordinary character
cmd: echo 'a/b@c' | sed 's/[/]/_/g; s@[@]@@'; echo 'a[b/c]|\n' | sed 's/[\/]/x/g; s/[[:alpha:]/]/y/g'
out: a_bc\ny[yyy]|yy\n

test: an unterminated bracket is an unterminated s
cmd: echo a | sed 's/[/x/'
out:
err: sed: -e expression #1, char 6: unterminated `s' command\n
status: 1

test: a range from line N starts at the first line the command sees after N
cmd: printf '1\n2\n3\n4\n5\n' | sed -n '1d;1,3p'; printf '1\n2\n3\n4\n5\n' | sed -n '$!d;2,3p;1d;1,1p'; printf '1\n2\n3\n' | sed -n '1,3{2d;2,3p}'
out: 2\n3\n3\n

test: p on a last line without a newline prints none
cmd: printf 'a\nb' | sed -n 2p | od -c; printf 'a\nb' | sed -n 'p;P' | od -c
out: 0000000   b\n0000001\n0000000   a  \\n   a  \\n   b  \\n   b\n0000007\n

test: addr1,~N when addr1 is a multiple of N runs to the next multiple
cmd: seq 10 | sed -n '4,~4p'; seq 20 | sed -n '/4/,~4p' | tr '\n' ' '
out: 4\n5\n6\n7\n8\n4 5 6 7 8 14 15 16 

test: the hold space carries the last line's missing newline (h H g G x)
cmd: for s in G 'x;G' 'H;$!d;x' x g 'h;G' '$!d;x;G'; do printf 'a\nb' | sed "$s" | tr '\n' '|'; echo; done
out: a||b||\n|a|a|b\n|a|b\n|a|\n||\na|a|b|b\n|b\n

test: a relative range end that N skipped past still takes the next line
cmd: seq 6 | sed -e '2N' -e '1,+1s/^/X/' | tr '\n' ' '; echo
cmd: seq 8 | sed -e '2{N;N}' -e '1,~2s/^/X/' | tr '\n' ' '; echo
cmd: seq 8 | sed -e '2{N;N}' -e '1,3s/^/X/' | tr '\n' ' '; echo
cmd: printf 'a\nb\nc\nd\ne\n' | sed '$D;2,+1N'
out: X1 X2 3 4 5 6 \nX1 X2 3 4 5 6 7 8 \nX1 2 3 4 5 6 7 8 \na\nb\nc\nd\ne\n

test: a range to $ that starts on the last line ends there (c prints its text)
cmd: printf 'a\nb\nc\n' | sed '3,$c\
cmd: X'; printf 'a\nb\nc\n' | sed '/c/,$c\
cmd: X'; printf 'a\nb\nc\n' | sed -n '3,$p;$,/x/p'
out: a\nb\nX\na\nb\nX\nc\nc\n

# -z: N, G, H, D and P join and split the pattern space at NULs, l ends with a NUL
test: z N joins with a NUL
cmd: printf 'x\0y\0' | sed -z N | tr '\0' '|'
out: x|y|

test: z G and H join with a NUL
cmd: printf 'p\0q\0' | sed -zn 'H;${x;G;p}' | tr '\0' '|'
out: |p|q|q|

test: z P and D split at NULs
cmd: printf 'a\0b\0c\0' | sed -z '$!N;P;D' | tr '\0' '|'
out: a|b|c|

test: z l ends with a NUL
cmd: printf 'a\nb\0' | sed -zn l | tr '\0' '|'
out: a\\nb$|

# s///p, s///w and w keep a last line without its newline as it is
test: s p last line without newline
cmd: printf 'one\ntwo' | sed -n 's/two/2/p'; echo .
out: 2.\n

test: s w and w last line without newline
cmd: printf 'a\nb' | sed -n -e 's/b/c/w s.out' -e 'w w.out'; cat s.out; echo .; cat w.out; echo .
out: c.\na\nc.\n

# a text ending in a backslash goes on in the next -e, even an empty one
test: a text continues in next e
cmd: echo h | sed -e 'a x\' -e 'ab' -e p
out: h\nh\nx\nab\n

test: c text continues into an empty e
cmd: echo h | sed -e 'c\' -e 'two\' -e ''; echo .
out: two\n\n.\n

test: long options abbreviated; the last of -i and --in-place gives the suffix
cmd: echo a > f; sed -i.x --in-place s/a/b/ f; ls; cat f; sed --in-pl=.bak --sep 's/b/c/' f; ls; cat f
cmd: printf 'ab\nb\n' | sed --quie --expr=2p --expr 1p; printf 'ab\0' | sed --regexp --null 's/(a)/\1\1/' | tr '\0' '\n'
out: f\nb\nf\nf.bak\nc\nab\nb\naab\n
