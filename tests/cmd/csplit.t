# csplit: sections by line numbers and regular expressions.

test: line numbers
cmd: seq 20 > f; csplit f 5 12; head -n 1 xx*
out: 8\n16\n27\n==> xx00 <==\n1\n\n==> xx01 <==\n5\n\n==> xx02 <==\n12\n

test: regexp repeated forever
cmd: seq 20 > f; csplit f '/3/' '{*}'; ls xx*
out: 4\n23\n24\nxx00\nxx01\nxx02\n

test: regexp search starts after the section's first line
cmd: seq 20 > f; csplit f '/1/' '/1/'
out: 0\n18\n33\n

test: offsets and skip
cmd: seq 20 > f; csplit -s f '/5/+2' '%1[0-9]%' '/19/-1'; wc -l xx*
out:  6 xx00\n 8 xx01\n 3 xx02\n17 total\n

test: repeat count
cmd: seq 20 > f; csplit f 5 '{2}'
out: 8\n10\n15\n18\n

test: repeat out of range removes files
cmd: seq 20 > f; csplit f 5 '{9}'; echo "rc=$?"; ls
out: 8\n10\n15\n15\n3\nrc=1\nf\n
err: csplit: ‘5’: line number out of range on repetition 4\n

test: keep files on error
cmd: seq 20 > f; csplit -k f 5 '{9}'; echo "rc=$?"; ls
out: 8\n10\n15\n15\n3\nrc=1\nf\nxx00\nxx01\nxx02\nxx03\nxx04\n
err: csplit: ‘5’: line number out of range on repetition 4\n

test: no match
cmd: seq 20 > f; csplit f '/x/'; echo "rc=$?"; ls
out: 51\nrc=1\nf\n
err: csplit: ‘/x/’: match not found\n

test: line beyond end
cmd: seq 20 > f; csplit f 30; echo "rc=$?"
out: 51\nrc=1\n
err: csplit: ‘30’: line number out of range\n

test: line just after the end
cmd: seq 20 > f; csplit f 21; echo "rc=$?"
out: 51\nrc=1\n
err: csplit: ‘21’: line number out of range\n

test: last line
cmd: seq 20 > f; csplit f 20
out: 48\n3\n

test: regexp match not found on repetition
cmd: seq 20 > f; csplit f '/5/' '{3}'; echo "rc=$?"
out: 8\n25\n18\nrc=1\n
err: csplit: ‘/5/’: match not found on repetition 2\n

test: skip forever creates nothing
cmd: seq 20 > f; csplit f '%1%' '{*}'; echo "rc=$?"; ls
out: rc=0\nf\n

test: negative offset out of range
cmd: seq 20 > f; csplit f '/2/-3'; echo "rc=$?"
out: 0\nrc=1\n
err: csplit: ‘/2/-3’: line number out of range\n

test: offset to the end
cmd: seq 20 > f; csplit f '/5/+16'; echo "rc=$?"
out: 51\n0\nrc=0\n

test: line number then regexp
cmd: seq 20 > f; csplit f 3 '/2/'
out: 4\n20\n27\n

test: elide empty files
cmd: seq 20 > f; csplit -z f 1 5; ls xx*
out: 8\n43\nxx00\nxx01\n

test: suppress matched
cmd: seq 20 > f; csplit --suppress-matched f '/5/' 10; head -n 1 xx*
out: 8\n8\n30\n==> xx00 <==\n1\n\n==> xx01 <==\n6\n\n==> xx02 <==\n11\n

test: suppress matched repeated
cmd: seq 20 > f; csplit --suppress-matched f '/1/' '{*}' | tr '\n' ' '
out: 0 16 0 0 0 0 0 0 0 0 0 3\x20

test: prefix and suffix format
cmd: seq 20 > f; csplit -f pre -b '%03d.txt' f 10; ls pre*
out: 18\n33\npre000.txt\npre001.txt\n

test: digits
cmd: seq 20 > f; csplit -n 3 f 10; ls xx*
out: 18\n33\nxx000\nxx001\n

test: stdin
cmd: seq 5 | csplit - 3; cat xx01
out: 4\n6\n3\n4\n5\n

test: no trailing newline
cmd: printf 'a\nb' > g; csplit g 2; od -c xx01
out: 2\n1\n0000000   b\n0000001\n

test: two conversions in suffix
cmd: seq 3 > f; csplit -b '%d%d' f 2
out:
err: csplit: too many % conversion specifications in suffix\n
status: 1

test: no conversion in suffix
cmd: seq 3 > f; csplit -b 'x' f 2
out:
err: csplit: missing % conversion specification in suffix\n
status: 1

test: bad conversion in suffix
cmd: seq 3 > f; csplit -b '%s' f 2
out:
err: csplit: invalid conversion specifier in suffix: s\n
status: 1

test: smaller line number
cmd: seq 20 > f; csplit f 5 3
out:
err: csplit: line number ‘3’ is smaller than preceding line number, 5\n
status: 1

test: zero line number
cmd: seq 20 > f; csplit f 0
out:
err: csplit: 0: line number must be greater than zero\n
status: 1

test: missing delimiter
cmd: seq 20 > f; csplit f '/5'
out:
err: csplit: /5: closing delimiter '/' missing\n
status: 1

test: repeat without pattern
cmd: seq 20 > f; csplit f '{3}'
out:
err: csplit: ‘{3}’: invalid pattern\n
status: 1

test: bad repeat count
cmd: seq 20 > f; csplit f 5 '{x}'
out:
err: csplit: ‘{x’}: integer required between '{' and '}'\n
status: 1

test: bad offset
cmd: seq 20 > f; csplit f /5/x
out:
err: csplit: ‘/5/x’: integer expected after delimiter\n
status: 1

test: invalid pattern
cmd: seq 20 > f; csplit f abc
out:
err: csplit: ‘abc’: invalid pattern\n
status: 1

test: missing input
cmd: csplit nope 3
out:
err: csplit: cannot open 'nope' for reading: No such file or directory\n
status: 1

test: missing pattern
cmd: seq 3 > f; csplit f
out:
err: csplit: missing operand after ‘f’\n
err: Try 'csplit --help' for more information.\n
status: 1

test: offsets and repetitions past the largest number
cmd: seq 3 > f; csplit f '/2/+9223372036854775807'; echo $?; csplit f 2 '{4611686018427387904}'; echo $?
out: 2\n1\n2\n4\n1\n
err: csplit: ‘/2/+9223372036854775807’: line number out of range\ncsplit: ‘2’: line number out of range on repetition 1\n

test: abbreviated long options, a long-only one among them
cmd: printf '1\n2\n3\n' | csplit --suppress --dig=3 --pref=p - 2; cat p000 p001
out: 2\n2\n1\n3\n

test: a bad -n is reported before a later bad option
cmd: csplit -n x --bogus input 1
in: a\n
out:
err: csplit: invalid number: ‘x’\n
status: 1
