# shuf: random permutations (the tests check properties, not an order).

test: permutation of lines
cmd: seq 100 | shuf | sort -n | md5sum; seq 100 | md5sum
out: d632eba71107bf7bc3ec423eab256d78  -\n
out: d632eba71107bf7bc3ec423eab256d78  -\n

test: permutation of a file
cmd: shuf input | sort
in: c\na\nb\n
out: a\nb\nc\n

test: echo arguments
cmd: shuf -e a b c | sort
out: a\nb\nc\n

test: input range
cmd: shuf -i 1-50 | sort -n | tr '\n' ' '
out: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50\x20

test: head count
cmd: shuf -n 3 -i 1-100 | wc -l; shuf -n 3 -i 1-100 | sort -un | wc -l
out: 3\n3\n

test: head count larger than input
cmd: shuf -n 10 -e a b | sort
out: a\nb\n

test: huge range with count
cmd: shuf -i 1-1000000000000 -n 5 | sort -un | wc -l
out: 5\n

test: repeat
cmd: shuf -r -n 20 -i 1-2 | sort -u
out: 1\n2\n

test: repeat lines
cmd: shuf -r -n 5 -e x | uniq -c
out:       5 x\n

test: repeat without lines
cmd: shuf -r < /dev/null; echo "rc=$?"
out: rc=1\n
err: shuf: no lines to repeat\n

test: zero count
cmd: shuf -n 0 -i 1-5; echo "rc=$?"
out: rc=0\n

test: empty range
cmd: shuf -i 1-0; echo "rc=$?"
out: rc=0\n

test: zero terminated
cmd: shuf -z -e a b | tr '\0' '\n' | sort
out: a\nb\n

test: output file may be the input
cmd: shuf -o input input; sort input
in: 1\n2\n3\n
out: 1\n2\n3\n

test: random source is reproducible
cmd: seq 1000 > src; a=$(shuf --random-source=src -i 1-20); b=$(shuf --random-source=src -i 1-20); [ "$a" = "$b" ] && echo same
out: same\n

test: no trailing newline
cmd: printf 'a\nb' | shuf | sort
out: a\nb\n

test: invalid range
cmd: shuf -i 5-1
out:
err: shuf: invalid input range: ‘5-1’\n
status: 1

test: bad range
cmd: shuf -i x
out:
err: shuf: invalid input range: ‘x’\n
status: 1

test: invalid count
cmd: shuf -n x input
in: a\n
out:
err: shuf: invalid line count: ‘x’\n
status: 1

test: echo and range
cmd: shuf -e -i 1-2
out:
err: shuf: cannot combine -e and -i options\n
err: Try 'shuf --help' for more information.\n
status: 1

test: extra operand
cmd: shuf a b
out:
err: shuf: extra operand ‘b’\n
err: Try 'shuf --help' for more information.\n
status: 1

test: empty echo
cmd: shuf -e; echo "rc=$?"
out: rc=0\n

test: --h is ambiguous: head-count before help, as GNU lists them
cmd: shuf --h 1 -e a
out:
err: shuf: option '--h' is ambiguous; possibilities: '--head-count' '--help'\nTry 'shuf --help' for more information.\n
status: 1

test: long options abbreviated, --random-source among them
cmd: seq 50 > src; shuf --random-s src --head=3 --in 1-9 > a; shuf --rand=src -n 3 -i 1-9 > b; cmp a b && wc -l < a
out: 3\n

test: a line count too large to hold is every line
cmd: printf '1\n2\n3\n' | shuf -n 99999999999999999999999 | sort
out: 1\n2\n3\n
