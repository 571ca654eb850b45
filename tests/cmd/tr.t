# tr: translation, classes, ranges, repeats, complement, delete, squeeze.

test: translate range
cmd: printf 'hello world\n' | tr a-z A-Z
out: HELLO WORLD\n

test: translate classes
cmd: printf 'Hello World\n' | tr '[:lower:]' '[:upper:]'
out: HELLO WORLD\n

test: upper to lower
cmd: printf 'Hello World\n' | tr '[:upper:]' '[:lower:]'
out: hello world\n

test: swap case pairs
cmd: printf 'AbC\n' | tr '[:upper:][:lower:]' '[:lower:][:upper:]'
out: aBc\n

test: lower class to range
cmd: printf 'hello\n' | tr '[:lower:]' A-Z
out: HELLO\n

test: range to class misaligned
cmd: printf 'hello\n' | tr a-z '[:upper:]'
out:
err: tr: misaligned [:upper:] and/or [:lower:] construct\n
status: 1

test: upper to upper
cmd: printf 'Hello\n' | tr '[:upper:]' '[:upper:]'
out: Hello\n

test: string2 extended with last char
cmd: printf 'abcdef\n' | tr abcdef xy
out: xyyyyy\n

test: truncate set1
cmd: printf 'abcdef\n' | tr -t abcdef xy
out: xycdef\n

test: later mapping wins
cmd: printf 'aaa\n' | tr aa xy
out: yyy\n

test: escapes
cmd: printf 'a\tb\nc\n' | tr '\t\n' '_|'
out: a_b|c|

test: octal escapes
cmd: printf 'abc\n' | tr '\141\142' '\060\061'
out: 01c\n

test: backslash escape
cmd: printf 'a\\b\n' | tr '\\' /
out: a/b\n

test: other escaped char is literal
cmd: printf 'a-b\n' | tr 'a\-b' xyz
out: xyz\n

test: dash at end is literal
cmd: printf 'a-b\n' | tr 'a-' xy
out: xyb\n

test: range to nul
cmd: printf 'abc' | tr a-c '\0' | od -c
out: 0000000  \\0  \\0  \\0\n0000003\n

test: delete
cmd: printf 'hello world\n' | tr -d lo
out: he wrd\n

test: delete class
cmd: printf 'a1b2c3\n' | tr -d '[:digit:]'
out: abc\n

test: delete complement
cmd: printf 'a1b2c3\n' | tr -cd '[:digit:]'
out: 123

test: delete complement capital C
cmd: printf 'a1b2c3\n' | tr -Cd 'a-b'
out: ab

test: squeeze
cmd: printf 'aabbccdd\n' | tr -s ab
out: abccdd\n

test: squeeze spaces
cmd: printf 'a   b     c\n' | tr -s ' '
out: a b c\n

test: squeeze after translate
cmd: printf 'aabbcc\n' | tr -s ab xx
out: xcc\n

test: squeeze complement to newlines
cmd: printf 'Hello, World! 42\n' | tr -cs '[:alpha:]' '\n'
out: Hello\nWorld\n

test: delete and squeeze
cmd: printf 'aabbccdd\n' | tr -ds a bc
out: bcdd\n

test: complement translate
cmd: printf 'hello\0' | tr -c a xy | od -c
out: 0000000   y   y   y   y   y   x\n0000006\n

test: complement class to one char
cmd: printf 'he llo\n' | tr -c '[:lower:]' _
out: he_llo_

test: repeat count
cmd: printf 'hello\n' | tr a-z 'A[X*3]Z'
out: ZZZZZ\n

test: repeat fill
cmd: printf 'hello\n' | tr a-z '[X*]Z'
out: XXXXX\n

test: repeat octal count
cmd: printf 'hello\n' | tr a-z 'A[X*010]Z'
out: XXZZZ\n

test: repeat fill in the middle
cmd: printf 'abcdef\n' | tr a-f 'x[y*]z'
out: xyyyyz\n

test: equivalence class
cmd: printf 'hello\n' | tr '[=l=]' L
out: heLLo\n

test: bracket without construct is literal
cmd: printf 'a[b]\n' | tr '[]' '()'
out: a(b)\n

test: incomplete class is literal
cmd: printf 'a[:b\n' | tr '[:' xy
out: axyb\n

test: all classes delete
cmd: printf 'aZ9 \t!\x01\x7f\xc3\xa9\n' | tr -d '[:alnum:]' | od -c
out: 0000000      \\t   ! 001 177 303 251  \\n\n0000010\n

test: punct class
cmd: printf 'a.b,c!d\n' | tr -d '[:punct:]'
out: abcd\n

test: space class
cmd: printf 'a b\tc\vd\n' | tr '[:space:]' _
out: a_b_c_d_

test: blank class
cmd: printf 'a b\tc\n' | tr '[:blank:]' _
out: a_b_c\n

test: xdigit class
cmd: printf 'abcdefgxyz019\n' | tr -d '[:xdigit:]'
out: gxyz\n

test: cntrl class
cmd: printf 'a\x01b\x1fc\x7f\n' | tr -d '[:cntrl:]' | od -c
out: 0000000   a   b   c\n0000003\n

test: graph and print
cmd: printf 'a b\n' | tr -d '[:graph:]' | od -c
out: 0000000      \\n\n0000002\n

test: high bytes untouched by classes
cmd: printf '\xc3\xa9\xff\n' | tr -d '[:print:]' | od -c
out: 0000000 303 251 377  \\n\n0000004\n

test: high byte ranges
cmd: printf '\x80\xff\n' | tr '\200-\377' 'x' | od -c
out: 0000000   x   x  \\n\n0000003\n

test: nul bytes
cmd: printf 'a\0b\0' | tr '\0' '\n'
out: a\nb\n

test: missing operand
cmd: tr
out:
err: tr: missing operand\nTry 'tr --help' for more information.\n
status: 1

test: missing second operand
cmd: tr abc
out:
err: tr: missing operand after ‘abc’\n
err: Two strings must be given when translating.\n
err: Try 'tr --help' for more information.\n
status: 1

test: missing with squeeze only is fine
cmd: printf 'aa\n' | tr -s a
out: a\n

test: missing after delete squeeze
cmd: tr -ds a
out:
err: tr: missing operand after ‘a’\n
err: Two strings must be given when both deleting and squeezing repeats.\n
err: Try 'tr --help' for more information.\n
status: 1

test: extra operand delete
cmd: tr -d a b
out:
err: tr: extra operand ‘b’\n
err: Only one string may be given when deleting without squeezing repeats.\n
err: Try 'tr --help' for more information.\n
status: 1

test: extra operand
cmd: tr a b c
out:
err: tr: extra operand ‘c’\n
err: Try 'tr --help' for more information.\n
status: 1

test: reverse range
cmd: tr z-a x
out:
err: tr: range-endpoints of 'z-a' are in reverse collating sequence order\n
status: 1

test: reverse range escaped
cmd: tr '\n-\001' y
out:
err: tr: range-endpoints of '\\012-\\001' are in reverse collating sequence order\n
status: 1

test: invalid class
cmd: tr '[:foo:]' x
out:
err: tr: invalid character class ‘foo’\n
status: 1

test: empty class
cmd: tr '[::]' x
out:
err: tr: missing character class name '[::]'\n
status: 1

test: empty equivalence
cmd: tr '[==]' x
out:
err: tr: missing equivalence class character '[==]'\n
status: 1

test: long equivalence
cmd: tr '[=ab=]' x
out:
err: tr: ab: equivalence class operand must be a single character\n
status: 1

test: invalid repeat count
cmd: tr a 'a[b*x]'
out:
err: tr: invalid repeat count ‘x’ in [c*n] construct\n
status: 1

test: invalid octal repeat
cmd: tr a-c '[x*09]'
out:
err: tr: invalid repeat count ‘09’ in [c*n] construct\n
status: 1

test: repeat in string1
cmd: tr '[a*]' x
out:
err: tr: the [c*] repeat construct may not appear in string1\n
status: 1

test: two fills
cmd: tr a 'x[y*][z*]'
out:
err: tr: only one [c*] repeat construct may appear in string2\n
status: 1

test: fill when not translating
cmd: tr -s a '[b*]'
out:

test: empty string2
cmd: tr x ''
out:
err: tr: when not truncating set1, string2 must be non-empty\n
status: 1

test: class at end of short string2
cmd: tr -c a '[:upper:]'
out:
err: tr: when translating with string1 longer than string2,\n
err: the latter string must not end with a character class\n
status: 1

test: complemented class needs one target
cmd: tr -c '[:lower:]' AB
out:
err: tr: when translating with complemented character classes,\n
err: string2 must map all characters in the domain to one\n
status: 1

test: equivalence in string2
cmd: tr a '[=b=]'
out:
err: tr: [=c=] expressions may not appear in string2 when translating\n
status: 1

test: restricted class in string2
cmd: tr a '[:digit:]'
out:
err: tr: when translating, the only character classes that may appear in\n
err: string2 are 'upper' and 'lower'\n
status: 1

test: misaligned case class
cmd: tr ab '[:lower:]b'
out:
err: tr: misaligned [:upper:] and/or [:lower:] construct\n
status: 1

test: ambiguous octal warning
cmd: printf 'a 0\n' | tr '\400' xy
out: axy\n
err: tr: warning: the ambiguous octal escape \\400 is being\n
err: \tinterpreted as the 2-byte sequence \\040, 0\n

test: trailing backslash warning
cmd: printf 'a\\\n' | tr 'a\' xy
out: xy\n
err: tr: warning: an unescaped backslash at end of string is not portable\n

test: options stop at first operand
cmd: printf 'a-d\n' | tr a -d
out: --d\n

test: invalid option
cmd: tr -x a b
out:
err: tr: invalid option -- 'x'\n
err: Try 'tr --help' for more information.\n
status: 1

test: big input
cmd: seq 100000 | tr 0-9 a-j | tail -n 1
out: baaaaa\n

test: long options abbreviated
cmd: echo hello | tr --del l; echo aabbcc | tr --sq ab; echo abc | tr --comp --del b
out: heo\nabcc\nb

test: the seven control escapes and \\ in sets
cmd: printf 'a\a\b\f\n\r\t\v\\z' | tr '\a\b\f\n\r\t\v\\' 'ABFNRTVS'; echo
cmd: printf 'q\033x' | tr '\q\e' 'Q?'; echo
out: aABFNRTVSz\nQ\033x\n
