# seq: integer and floating sequences, widths, formats.

test: last only
cmd: seq 5
out: 1\n2\n3\n4\n5\n

test: first last
cmd: seq 3 6
out: 3\n4\n5\n6\n

test: increment
cmd: seq 1 3 10
out: 1\n4\n7\n10\n

test: descending
cmd: seq 5 -2 -3
out: 5\n3\n1\n-1\n-3\n

test: empty range
cmd: seq 5 1; echo "[$?]"
out: [0]\n

test: zero
cmd: seq 0
out:

test: negative first
cmd: seq -3 -1
out: -3\n-2\n-1\n

test: negative zero
cmd: seq -0 2
out: -0\n1\n2\n

test: decimals
cmd: seq 0.1 0.1 0.5
out: 0.1\n0.2\n0.3\n0.4\n0.5\n

test: step precision
cmd: seq 1 0.5 3
out: 1.0\n1.5\n2.0\n2.5\n3.0\n

test: first precision
cmd: seq 1.0 3
out: 1.0\n2.0\n3.0\n

test: exponent
cmd: seq 1e1 1e1 3e1
out: 10\n20\n30\n

test: rounding extra value
cmd: seq 0 0.000001 0.000003
out: 0.000000\n0.000001\n0.000002\n0.000003\n

test: equal width
cmd: seq -w 8 10
out: 08\n09\n10\n

test: equal width decimals
cmd: seq -w 0.5 0.25 1.5
out: 0.50\n0.75\n1.00\n1.25\n1.50\n

test: equal width negative
cmd: seq -w -1 1
out: -1\n00\n01\n

test: equal width descending
cmd: seq -w 1 -1 -10
out: 001\n000\n-01\n-02\n-03\n-04\n-05\n-06\n-07\n-08\n-09\n-10\n

test: equal width leading point
cmd: seq -w .5 2
out: 0.5\n1.5\n

test: equal width exponent
cmd: seq -w 1e3 1e3
out: 1000\n

test: separator
cmd: seq -s , 3
out: 1,2,3\n

test: empty separator
cmd: seq -s '' 3
out: 123\n

test: long separator
cmd: seq -s ab 3
out: 1ab2ab3\n

test: format
cmd: seq -f '%5.2f' 3
out:  1.00\n 2.00\n 3.00\n

test: format g
cmd: seq -f %g 0.1 0.1 0.3
out: 0.1\n0.2\n0.3\n

test: format with percent
cmd: seq -f '%%%g%%' 2
out: %1%\n%2%\n

test: format e
cmd: seq -f %e 1 3
out: 1.000000e+00\n2.000000e+00\n3.000000e+00\n

test: format left justify
cmd: seq -f '%-5g|' 1 3
out: 1    |\n2    |\n3    |\n

test: huge integers exact
cmd: seq 99999999999999999999 100000000000000000001
out: 99999999999999999999\n100000000000000000000\n
out: 100000000000000000001\n

test: big run
cmd: seq 1000000 | tail -n 1
out: 1000000\n

test: big run sum of digits
cmd: seq 100000 | wc -c
out: 588895\n

test: leading zeros
cmd: seq 007 9
out: 7\n8\n9\n

test: equal width leading zeros
cmd: seq -w 09 11
out: 09\n10\n11\n

test: plus sign
cmd: seq +5 7
out: 5\n6\n7\n

test: zero increment
cmd: seq 1 0 5
out:
err: seq: invalid Zero increment value: ‘0’\n
err: Try 'seq --help' for more information.\n
status: 1

test: invalid argument
cmd: seq x
out:
err: seq: invalid floating point argument: ‘x’\n
err: Try 'seq --help' for more information.\n
status: 1

test: invalid second argument
cmd: seq 1 x
out:
err: seq: invalid floating point argument: ‘x’\n
err: Try 'seq --help' for more information.\n
status: 1

test: not a number
cmd: seq nan
out:
err: seq: invalid ‘not-a-number’ argument: ‘nan’\n
err: Try 'seq --help' for more information.\n
status: 1

test: bad format conversion
cmd: seq -f %d 5
out:
err: seq: format ‘%d’ has unknown %d directive\n
status: 1

test: two directives
cmd: seq -f %f%f 3
out:
err: seq: format ‘%f%f’ has too many % directives\n
status: 1

test: no directive
cmd: seq -f abc 3
out:
err: seq: format ‘abc’ has no % directive\n
status: 1

test: hex directive
cmd: seq -f %x 3
out:
err: seq: format ‘%x’ has unknown %x directive\n
status: 1

test: format and width
cmd: seq -w -f %f 3
out:
err: seq: format string may not be specified when printing equal width strings\n
err: Try 'seq --help' for more information.\n
status: 1

test: missing operand
cmd: seq
out:
err: seq: missing operand\nTry 'seq --help' for more information.\n
status: 1

test: extra operand
cmd: seq 1 2 3 4
out:
err: seq: extra operand ‘4’\n
err: Try 'seq --help' for more information.\n
status: 1

test: hex operand
cmd: seq 1 0x10 | tail -n 1
out: 16\n

test: infinite limit stops at head
cmd: seq inf | head -n 3
out: 1\n2\n3\n

test: long options abbreviated
cmd: seq --sep=, --equal 8 10; seq --form '%.1f' 2
out: 08,09,10\n1.0\n2.0\n
