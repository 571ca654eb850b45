test: factors of arguments
cmd: factor 12 1 0 97 18446744073709551615 600851475143 4294967291 18446744073709551557
out: 12: 2 2 3\n1:\n0:\n97: 97\n18446744073709551615: 3 5 17 257 641 65537 6700417\n600851475143: 71 839 1471 6857\n4294967291: 4294967291\n18446744073709551557: 18446744073709551557\n

test: numbers from standard input and a bad word
cmd: printf '6 abc\n +8\n1000000016000000063\n' | factor; echo $?
out: 6: 2 3\n8: 2 2 2\n1000000016000000063: 1000000007 1000000009\n1\n
err: factor: ‘abc’ is not a valid positive integer\n

test: factor agrees with itself on a range
cmd: seq 2 2000 | factor | awk '{p=1; for(i=2;i<=NF;i++) p*=$i; if (p != $1+0) print "bad", $0}' | head -3; factor 2000 | cut -d: -f2
out:  2 2 2 2 5 5 5\n

test: a bad option is reported once, with one hint
cmd: factor -Q 6
out:
err: factor: invalid option -- 'Q'\nTry 'factor --help' for more information.\n
status: 1

test: an abbreviated --version
cmd: factor --vers | head -c 7
out: factor 
