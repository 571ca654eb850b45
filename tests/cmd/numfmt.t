# numfmt (GNU coreutils 9.1). Generated from the host's answers; each case
# is one command line (run both ways with --host).

test: case 1: numfmt --to=si 1000 1500000 999999 9999 0.5 1023 1024 0 1 9 
cmd: numfmt --to=si 1000 1500000 999999 9999 0.5 1023 1024 0 1 9 10 99.99 999.95
out: 1.0K\n1.5M\n1.0M\n10K\n0\n1.1K\n1.1K\n0\n1\n9\n10\n100\n1.0K\n
err: 

test: case 2: numfmt --to=iec 1048576 2000 999 1023 1024 1025 1536 10240 1
cmd: numfmt --to=iec 1048576 2000 999 1023 1024 1025 1536 10240 1099511627776
out: 1.0M\n2.0K\n999\n1023\n1.0K\n1.1K\n1.5K\n10K\n1.0T\n
err: 

test: case 3: numfmt --to=iec-i 1536 1 1024 5000000
cmd: numfmt --to=iec-i 1536 1 1024 5000000
out: 1.5Ki\n1\n1.0Ki\n4.8Mi\n
err: 

test: case 4: numfmt --from=si 1K 1.5M 2G 0.5K
cmd: numfmt --from=si 1K 1.5M 2G 0.5K
out: 1000\n1500000\n2000000000\n500\n
err: 

test: case 5: numfmt --from=iec 1K 1.5M
cmd: numfmt --from=iec 1K 1.5M
out: 1024\n1572864\n
err: 

test: case 6: numfmt --from=auto 1Ki 1K 2Mi 3G
cmd: numfmt --from=auto 1Ki 1K 2Mi 3G
out: 1024\n1000\n2097152\n3000000000\n
err: 

test: case 7: numfmt --from=si 1k
cmd: numfmt --from=si 1k
out: 
err: numfmt: invalid suffix in input: ‘1k’\n
status: 2

test: case 8: numfmt --from=iec-i 1Ki 1K
cmd: numfmt --from=iec-i 1Ki 1K
out: 1024\n
err: numfmt: missing 'i' suffix in input: ‘1K’ (e.g Ki/Mi/Gi)\n
status: 2

test: case 9: numfmt --from=si 1Q
cmd: numfmt --from=si 1Q
out: 
err: numfmt: invalid suffix in input: ‘1Q’\n
status: 2

test: case 10: numfmt --from=si 1Kx
cmd: numfmt --from=si 1Kx
out: 
err: numfmt: invalid suffix in input ‘1Kx’: ‘x’\n
status: 2

test: case 11: numfmt -- -1500 -1
cmd: numfmt -- -1500 -1
out: -1500\n-1\n
err: 

test: case 12: numfmt --to=si -- -1500 -999999 -1
cmd: numfmt --to=si -- -1500 -999999 -1
out: -1.5K\n-1.0M\n-1\n
err: 

test: case 13: numfmt --format='%10.2f' 3.14159
cmd: numfmt --format='%10.2f' 3.14159
out:       3.15\n
err: 

test: case 14: numfmt --format="%'f" 1234567
cmd: numfmt --format="%'f" 1234567
out: 1234567\n
err: 

test: case 15: numfmt --padding=8 --to=si 1000
cmd: numfmt --padding=8 --to=si 1000
out:     1.0K\n
err: 

test: case 16: numfmt --padding=-8 1000
cmd: numfmt --padding=-8 1000
out: 1000    \n
err: 

test: case 17: numfmt abc
cmd: numfmt abc
out: 
err: numfmt: invalid number: ‘abc’\n
status: 2

test: case 18: numfmt --invalid=warn abc 5
cmd: numfmt --invalid=warn abc 5
out: abc\n5\n
err: numfmt: invalid number: ‘abc’\n

test: case 19: numfmt --invalid=ignore abc 5
cmd: numfmt --invalid=ignore abc 5
out: abc\n5\n
err: 

test: case 20: numfmt --invalid=fail abc 5
cmd: numfmt --invalid=fail abc 5
out: abc\n5\n
err: numfmt: invalid number: ‘abc’\n
status: 2

test: case 21: numfmt 1K
cmd: numfmt 1K
out: 
err: numfmt: rejecting suffix in input: ‘1K’ (consider using --from)\n
status: 2

test: case 22: numfmt --suffix=B --to=si 2000 3000B
cmd: numfmt --suffix=B --to=si 2000 3000B
out: 2.0KB\n3.0KB\n
err: 

test: case 23: numfmt --round=down --to=si 1999
cmd: numfmt --round=down --to=si 1999
out: 1.9K\n
err: 

test: case 24: numfmt --round=up --to=si 1001 1000
cmd: numfmt --round=up --to=si 1001 1000
out: 1.1K\n1.0K\n
err: 

test: case 25: numfmt --round=towards-zero --to=si 1999
cmd: numfmt --round=towards-zero --to=si 1999
out: 1.9K\n
err: 

test: case 26: numfmt --round=nearest --to=si 1949 1950
cmd: numfmt --round=nearest --to=si 1949 1950
out: 1.9K\n2.0K\n
err: 

test: case 27: numfmt --to-unit=1K 5000000
cmd: numfmt --to-unit=1K 5000000
out: 5000\n
err: 

test: case 28: numfmt --to-unit=1Ki 5000000
cmd: numfmt --to-unit=1Ki 5000000
out: 4883\n
err: 

test: case 29: numfmt --from-unit=512 4
cmd: numfmt --from-unit=512 4
out: 2048\n
err: 

test: case 30: numfmt --from-unit=1K --to=iec 4
cmd: numfmt --from-unit=1K --to=iec 4
out: 4.0K\n
err: 

test: case 31: numfmt -d: --field=2 --to=si 'a:2000:b'
cmd: numfmt -d: --field=2 --to=si 'a:2000:b'
out: a:2.0K:b\n
err: 

test: case 32: numfmt --format='%08.1f' 12.34
cmd: numfmt --format='%08.1f' 12.34
out: 000012.4\n
err: 

test: case 33: numfmt --format='x%fy' 5
cmd: numfmt --format='x%fy' 5
out: x5y\n
err: 

test: case 34: numfmt --format='%%%f%%' 5
cmd: numfmt --format='%%%f%%' 5
out: %5%%\n
err: 

test: case 35: numfmt --format='%-10f|' 5
cmd: numfmt --format='%-10f|' 5
out: 5         |\n
err: 

test: case 36: numfmt --format='%.3f' --to=si 123456
cmd: numfmt --format='%.3f' --to=si 123456
out: 123.456K\n
err: 

test: case 37: numfmt --format='%.1f' --to=iec 1536
cmd: numfmt --format='%.1f' --to=iec 1536
out: 1.5K\n
err: 

test: case 38: numfmt --format='%f' 1.5
cmd: numfmt --format='%f' 1.5
out: 1.5\n
err: 

test: case 39: numfmt --format='%d' 5
cmd: numfmt --format='%d' 5
out: 
err: numfmt: invalid format ‘%d’, directive must be %[0]['][-][N][.][N]f\n
status: 1

test: case 40: numfmt --format='%f%f' 5
cmd: numfmt --format='%f%f' 5
out: 
err: numfmt: format ‘%f%f’ has too many % directives\n
status: 1

test: case 41: numfmt --format='abc' 5
cmd: numfmt --format='abc' 5
out: 
err: numfmt: format ‘abc’ has no % directive\n
status: 1

test: case 42: numfmt 12345678901234567890
cmd: numfmt 12345678901234567890
out: 
err: numfmt: value too large to be printed: '1.23457e+19' (consider using --to)\n
status: 2

test: case 43: numfmt 123456789012345678901234567890
cmd: numfmt 123456789012345678901234567890
out: 
err: numfmt: value too large to be converted: ‘123456789012345678901234567890’\n
status: 2

test: case 44: numfmt --to=si 1e3
cmd: numfmt --to=si 1e3
out: 
err: numfmt: invalid suffix in input: ‘1e3’\n
status: 2

test: case 45: numfmt 1.50
cmd: numfmt 1.50
out: 1.50\n
err: 

test: case 46: numfmt --grouping 1234567
cmd: numfmt --grouping 1234567
out: 1234567\n
err: 

test: case 47: numfmt --to=si 99999999999999999999999999
cmd: numfmt --to=si 99999999999999999999999999
out: 100Y\n
err: 

test: case 48: numfmt --to=si 9.99999
cmd: numfmt --to=si 9.99999
out: 10\n
err: 

test: case 49: numfmt --to=si 999.5
cmd: numfmt --to=si 999.5
out: 1.0K\n
err: 

test: case 50: numfmt --to=iec 1047552
cmd: numfmt --to=iec 1047552
out: 1023K\n
err: 

test: case 51: numfmt --from=si --to=iec 1M
cmd: numfmt --from=si --to=iec 1M
out: 977K\n
err: 

test: case 52: numfmt --from=iec --to=si 1G
cmd: numfmt --from=iec --to=si 1G
out: 1.1G\n
err: 

test: case 53: numfmt --to=foo 1
cmd: numfmt --to=foo 1
out: 
err: numfmt: invalid argument ‘foo’ for ‘--to’\nValid arguments are:\n  - ‘none’\n  - ‘si’\n  - ‘iec’\n  - ‘iec-i’\nTry 'numfmt --help' for more information.\n
status: 1

test: case 54: numfmt --round=foo 1
cmd: numfmt --round=foo 1
out: 
err: numfmt: invalid argument ‘foo’ for ‘--round’\nValid arguments are:\n  - ‘up’\n  - ‘down’\n  - ‘from-zero’\n  - ‘towards-zero’\n  - ‘nearest’\nTry 'numfmt --help' for more information.\n
status: 1

test: case 55: numfmt --invalid=foo 1
cmd: numfmt --invalid=foo 1
out: 
err: numfmt: invalid argument ‘foo’ for ‘--invalid’\nValid arguments are:\n  - ‘abort’\n  - ‘fail’\n  - ‘warn’\n  - ‘ignore’\nTry 'numfmt --help' for more information.\n
status: 1

test: case 56: numfmt --padding=0 1
cmd: numfmt --padding=0 1
out: 
err: numfmt: invalid padding value ‘0’\n
status: 1

test: case 57: numfmt --padding=x 1
cmd: numfmt --padding=x 1
out: 
err: numfmt: invalid padding value ‘x’\n
status: 1

test: case 58: numfmt --header 1
cmd: numfmt --header 1
out: 1\n
err: 

test: case 59: numfmt --to=si '  1000'
cmd: numfmt --to=si '  1000'
out:   1.0K\n
err: 

test: case 60: numfmt --to=si ' 1000 x'
cmd: numfmt --to=si ' 1000 x'
out:  1.0K x\n
err: 

test: case 61: numfmt --field=1,3 --to=si '1000 2000 3000'
cmd: numfmt --field=1,3 --to=si '1000 2000 3000'
out: 1.0K 2000 3.0K\n
err: 

test: case 62: numfmt --field=- --to=si '1000 2000 3000'
cmd: numfmt --field=- --to=si '1000 2000 3000'
out: 1.0K 2.0K 3.0K\n
err: 

test: case 63: numfmt --field=2- --to=si '1000   2000  3000'
cmd: numfmt --field=2- --to=si '1000   2000  3000'
out: 1000   2.0K  3.0K\n
err: 

test: case 64: numfmt --to=si 1000.5
cmd: numfmt --to=si 1000.5
out: 1.1K\n
err: 

test: case 65: numfmt --to=si .5
cmd: numfmt --to=si .5
out: 0\n
err: 

test: case 66: numfmt --to=si 5.
cmd: numfmt --to=si 5.
out: 
err: numfmt: invalid number: ‘5.’\n
status: 2

test: case 67: numfmt --to=si .
cmd: numfmt --to=si .
out: 
err: numfmt: invalid number: ‘.’\n
status: 2

test: case 68: numfmt --to=si -
cmd: numfmt --to=si -
out: 
err: numfmt: invalid number: ‘-’\n
status: 2

test: case 69: numfmt --to=si ''
cmd: numfmt --to=si ''
out: 
err: numfmt: invalid number: ‘’\n
status: 2

test: case 70: numfmt --from=auto 1.5Ki
cmd: numfmt --from=auto 1.5Ki
out: 1536\n
err: 

test: case 71: numfmt --to=si 1000 --suffix=' B'
cmd: numfmt --to=si 1000 --suffix=' B'
out: 1.0K B\n
err: 

test: case 72: printf '1000\n2000\nabc\n' | numfmt --to=si
cmd: printf '1000\n2000\nabc\n' | numfmt --to=si
out: 1.0K\n2.0K\n
err: numfmt: invalid number: ‘abc’\n
status: 2

test: case 73: printf '1000\n\n  2000  \n' | numfmt --to=si
cmd: printf '1000\n\n  2000  \n' | numfmt --to=si
out: 1.0K\n
err: numfmt: invalid number: ‘’\n
status: 2

test: case 74: printf '1000\0002000' | numfmt -z --to=si | od -An -c
cmd: printf '1000\0002000' | numfmt -z --to=si | od -An -c
out:    1   .   0   K  \\0   2   .   0   K\n
err: 

test: case 75: printf '1000' | numfmt --to=si
cmd: printf '1000' | numfmt --to=si
out: 1.0K
err: 

test: case 76: printf 'h\nh2\n1000\n' | numfmt --header=2 --to=si
cmd: printf 'h\nh2\n1000\n' | numfmt --header=2 --to=si
out: h\nh2\n1.0K\n
err: 

test: case 77: printf '1000 a\n2000 b\n' | numfmt --invalid=fail --field=2 
cmd: printf '1000 a\n2000 b\n' | numfmt --invalid=fail --field=2 --to=si
out: 1000 a\n2000 b\n
err: numfmt: invalid number: ‘a’\nnumfmt: invalid number: ‘b’\n
status: 2

# sbx: a field longer than 255 bytes is refused like an overlong number
test: the field length limit
cmd: numfmt $(printf '%0300d' 1); echo $?
out: 2\n
host: skip

test: long options abbreviated; --suffix and --grouping read after the others
cmd: numfmt --gro --suff=X 1234567; printf 'h 1\n1 2000\n' | numfmt --head --fie=2 --to=si --inv=warn; numfmt --rou=up --from=auto 1.5K
out: 1234567X\nh 1\n1 2.0K\n1500\n
