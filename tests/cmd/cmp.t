# cmp (diffutils 3.8): first difference, -l listing, EOF messages, skips.

test: identical
cmd: cmp a a; echo "rc=$?"
file: a=abc\n
out: rc=0\n

test: differ
cmd: cmp a b; echo "rc=$?"
file: a=abc\ndef\n
file: b=abc\ndxf\n
out: a b differ: byte 6, line 2\nrc=1\n

test: print bytes
cmd: cmp -b a b
file: a=abc\ndef\n
file: b=abc\ndxf\n
out: a b differ: byte 6, line 2 is 145 e 170 x\n
err:
status: 1

test: verbose
cmd: cmp -l a b
file: a=abc\ndef\n
file: b=abc\ndxf\n
out: 6 145 170\n
err:
status: 1

test: verbose bytes
cmd: cmp -lb a b
file: a=\xff\x80x
file: b=ab\x7f
out: 1 377 M-^? 141 a\n2 200 M-^@ 142 b\n3 170 x    177 ^?\n
err:
status: 1

test: verbose width from size
cmd: seq 1000 > s1; seq 1000 | tr 0 x > s2; cmp -l s1 s2 | head -n 3
out:   20  60 170\n  50  60 170\n  80  60 170\n

test: high bytes
cmd: cmp -b a b
file: a=\xa0
file: b=a
out: a b differ: byte 1, line 1 is 240 M-  141 a\n
err:
status: 1

test: silent
cmd: cmp -s a b; echo "rc=$?"
file: a=abc
file: b=abd
out: rc=1\n

test: shorter file
cmd: cmp a b; echo "rc=$?"
file: a=abc\ndef\n
file: b=abc\n
out: rc=1\n
err: cmp: EOF on b after byte 4, line 1\n

test: shorter file verbose
cmd: cmp -l a b; echo "rc=$?"
file: a=abc\ndef\n
file: b=abc\n
out: rc=1\n
err: cmp: EOF on b after byte 4\n

test: empty file
cmd: cmp e a; echo "rc=$?"
file: e=
file: a=abc
out: rc=1\n
err: cmp: EOF on e which is empty\n

test: limit
cmd: cmp -n 4 a b; echo "rc=$?"
file: a=abc\ndef\n
file: b=abc\ndxf\n
out: rc=0\n

test: ignore initial
cmd: cmp -i 5 a b; cmp -i 1:2 a b
file: a=abc\ndef\n
file: b=abc\ndxf\n
out: a b differ: byte 1, line 1\na b differ: byte 1, line 1\n
err:
status: 1

test: skip operands
cmd: cmp a b 2 3; echo "rc=$?"
file: a=xxabc
file: b=yyyabc
out: rc=0\n

test: skip suffix
cmd: seq 1000 > s1; seq 1000 | tr 5 x > s2; cmp -i 1K s1 s2
out: s1 s2 differ: byte 7, line 2\n
err:
status: 1

test: stdin
cmd: cmp - a < b
file: a=abc\ndef\n
file: b=abc\ndxf\n
out: - a differ: byte 6, line 2\n
err:
status: 1

test: stdin twice
cmd: cmp - - < a; echo "rc=$?"
file: a=abc
out: rc=0\n

test: missing file
cmd: cmp a nope; echo "rc=$?"
file: a=abc
out: rc=2\n
err: cmp: nope: No such file or directory\n

test: directory
cmd: mkdir d; cmp d a; echo "rc=$?"
file: a=abc
out: rc=2\n
err: cmp: d: Is a directory\n

test: missing operand
cmd: cmp; echo "rc=$?"
out: rc=2\n
err: cmp: missing operand after 'cmp'\n
err: cmp: Try 'cmp --help' for more information.\n

test: extra operand
cmd: cmp a b 1 2 3; echo "rc=$?"
out: rc=2\n
err: cmp: extra operand '3'\n
err: cmp: Try 'cmp --help' for more information.\n

test: invalid bytes
cmd: cmp -n x a b; echo "rc=$?"
out: rc=2\n
err: cmp: invalid --bytes value 'x'\n
err: cmp: Try 'cmp --help' for more information.\n

test: invalid skip
cmd: cmp -i x a b; echo "rc=$?"
out: rc=2\n
err: cmp: invalid --ignore-initial value 'x'\n
err: cmp: Try 'cmp --help' for more information.\n

test: invalid option
cmd: cmp -x a b; echo "rc=$?"
out: rc=2\n
err: cmp: invalid option -- 'x'\n
err: cmp: Try 'cmp --help' for more information.\n

test: l and s incompatible
cmd: cmp -ls a b; echo "rc=$?"
out: rc=2\n
err: cmp: options -l and -s are incompatible\n
err: cmp: Try 'cmp --help' for more information.\n

# ---- audit4: GNU-identical error messages and quoting ----
test: audit: printf 'a\nb' > z; printf 'a\nb\nc' > y; cmp z y; echo $?
cmd: printf 'a\nb' > z; printf 'a\nb\nc' > y; cmp z y; echo $?
out: 1\n
err: cmp: EOF on z after byte 3, in line 2\n

test: audit: printf 'a\nb\n' > x; printf 'a\nb\nc' > y; cmp x y; echo $?
cmd: printf 'a\nb\n' > x; printf 'a\nb\nc' > y; cmp x y; echo $?
out: 1\n
err: cmp: EOF on x after byte 4, line 2\n

test: audit: printf 'ab' > 'a b'; printf 'abc' > y; cmp 'a b' y; cmp -l 'a b' y
cmd: printf 'ab' > 'a b'; printf 'abc' > y; cmp 'a b' y; cmp -l 'a b' y
out: 
err: cmp: EOF on a b after byte 2, in line 1\ncmp: EOF on a b after byte 2\n
status: 1

test: audit: cmp 'a b' y; echo $?
cmd: cmp 'a b' y; echo $?
out: 2\n
err: cmp: a b: No such file or directory\n

test: audit: printf 'x' > 'a b'; cmp "$(printf 'n\tx')" 'a b'; echo $?
cmd: printf 'x' > 'a b'; cmp "$(printf 'n\tx')" 'a b'; echo $?
out: 2\n
err: cmp: n\tx: No such file or directory\n

test: audit: printf 'ab' > a; cmp -i 1:x a a; echo $?
cmd: printf 'ab' > a; cmp -i 1:x a a; echo $?
out: 2\n
err: cmp: invalid --ignore-initial value 'x'\ncmp: Try 'cmp --help' for more information.\n

test: audit: printf 'ab' > a; cmp -i x:1 a a; echo $?
cmd: printf 'ab' > a; cmp -i x:1 a a; echo $?
out: 2\n
err: cmp: invalid --ignore-initial value 'x:1'\ncmp: Try 'cmp --help' for more information.\n

test: audit: mkdir dd; printf 'a' > f; cmp dd f; echo $?
cmd: mkdir dd; printf 'a' > f; cmp dd f; echo $?
out: 2\n
err: cmp: dd: Is a directory\n


test: option errors are worded as glibc's, then diffutils' hint
cmd: cmp --print; cmp --by; cmp --print-b=1 x y; cmp -n x --bogus x y
out:
err: cmp: option '--print' is ambiguous; possibilities: '--print-bytes' '--print-chars'\n
err: cmp: Try 'cmp --help' for more information.\n
err: cmp: option '--bytes' requires an argument\ncmp: Try 'cmp --help' for more information.\n
err: cmp: option '--print-bytes' doesn't allow an argument\ncmp: Try 'cmp --help' for more information.\n
err: cmp: invalid --bytes value 'x'\ncmp: Try 'cmp --help' for more information.\n
status: 2

test: abbreviated long options with arguments
cmd: printf 'xabc' > x; printf 'yabd' > y; cmp --ign=1 --byt=2 x y; echo $?; cmp --ign=1 --verb x y
out: 0\n3 143 144\n
status: 1
