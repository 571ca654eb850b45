# od: GNU layout for every type, addresses, dedup, skip/limit, errors.

test: default octal shorts
cmd: od input
in: Hello, World!\n\x00\x01\xff\x80abcdefgh
out: 0000000 062510 066154 026157 053440 071157 062154 005041 000400\n
out: 0000020 100377 061141 062143 063145 064147\n0000032\n

test: characters
cmd: od -c input
in: Hello, World!\n\x00\x01\xff\x80abcdefgh\a\b\f\r\t\v
out: 0000000   H   e   l   l   o   ,       W   o   r   l   d   !  \\n  \\0 001\n
out: 0000020 377 200   a   b   c   d   e   f   g   h  \\a  \\b  \\f  \\r  \\t  \\v\n
out: 0000040\n

test: named characters
cmd: od -t a input
in: Hello, World!\n\x00\x01\xff\x80 \x7f
out: 0000000   H   e   l   l   o   ,  sp   W   o   r   l   d   !  nl nul soh\n
out: 0000020 del nul  sp del\n0000024\n

test: hex bytes with trailer
cmd: od -t x1z input
in: Hello, World!\n\x00\x01\xff\x80abcdefgh
out: 0000000 48 65 6c 6c 6f 2c 20 57 6f 72 6c 64 21 0a 00 01  >Hello, World!...<\n
out: 0000020 ff 80 61 62 63 64 65 66 67 68                    >..abcdefgh<\n
out: 0000032\n

test: several types align
cmd: od -t d2 -t u2 -t o2 -t x2 input
in: Hello, World!\n\x00\x01\xff\x80abcdefgh
out: 0000000  25928  27756  11375  22304  29295  25708   2593    256\n
out:          25928  27756  11375  22304  29295  25708   2593    256\n
out:         062510 066154 026157 053440 071157 062154 005041 000400\n
out:           6548   6c6c   2c6f   5720   726f   646c   0a21   0100\n
out: 0000020 -32513  25185  25699  26213  26727\n
out:          33023  25185  25699  26213  26727\n
out:         100377 061141 062143 063145 064147\n
out:           80ff   6261   6463   6665   6867\n0000032\n

test: floats and long ints hex addresses
cmd: od -A x -t f4 -t d8 input
in: Hello, World!\n\x00\x01\xff\x80abcdefgh
out: 000000   1.1431391e+27    1.761127e+14    1.744671e+22   2.3517154e-38\n
out:                    6278066737626506568               72068732572955247\n
out: 000010  1.03995314e+21   2.7081843e+23      3.7453e-41\n
out:                    7378413942531522815                           26727\n
out: 00001a\n

test: doubles decimal addresses
cmd: od -A d -t f8 -N 16 input
in: Hello, World!\n\x00\x01\xff\x80abcdefgh
out: 0000000   4.861994245760871e+111    7.30915479882693e-304\n
out: 0000016\n

test: simple floats
cmd: printf '\x00\x00\x80\x3f\x00\x00\x00\x00\x00\x00\xf0\x3f' | od -t f4 -t f8
out: 0000000               1               0           1.875\n
out:                        5.263544247e-315                5.299808824e-315\n
out: 0000014\n

test: float specials
cmd: printf '\x00\x00\xc0\x7f\x00\x00\x80\xff\x00\x00\x00\x80' | od -t f4
out: 0000000             nan            -inf              -0\n
out: 0000014\n

test: width option
cmd: od -w4 -t x1 -N 6 input
in: Hello, World!
out: 0000000 48 65 6c 6c\n0000004 6f 2c\n0000006\n

test: width default 32
cmd: od -w -t x1 input
in: Hello, World!\n\x00\x01\xff\x80abcdefgh
out: 0000000 48 65 6c 6c 6f 2c 20 57 6f 72 6c 64 21 0a 00 01 ff 80 61 62 63 64 65 66 67 68\n
out: 0000032\n

test: invalid width
cmd: od -w5 -t x2 -N 6 input
in: Hello, World!
out: 0000000 6548\n0000002 6c6c\n0000004 2c6f\n0000006\n
err: od: warning: invalid width 5; using 2 instead\n

test: default int size
cmd: od -t x input
in: Hello, World!\n\x00\x01\xff\x80abcdefgh
out: 0000000 6c6c6548 57202c6f 646c726f 01000a21\n
out: 0000020 626180ff 66656463 00006867\n0000032\n

test: shorthand b
cmd: od -b -N 4 input
in: Hello
out: 0000000 110 145 154 154\n0000004\n

test: shorthand i
cmd: od -i -N 8 input
in: Hello, World!
out: 0000000  1819043144  1461726319\n0000010\n

test: shorthand d s x o l
cmd: od -d -s -x -o -l -N 8 input
in: Hello, World!
out: 0000000  25928  27756  11375  22304\n
out:          25928  27756  11375  22304\n
out:           6548   6c6c   2c6f   5720\n
out:         062510 066154 026157 053440\n
out:                 6278066737626506568\n0000010\n

test: shorthand a and c
cmd: od -a -c -N 4 input
in: \x01A\x80\n
out: 0000000 soh   A nul  nl\n        001   A 200  \\n\n0000004\n

test: skip and limit
cmd: od -j 3 -N 5 -c input
in: Hello, World!
out: 0000003   l   o   ,       W\n0000010\n

test: skip hex
cmd: od -j 0x2 -N 2 -c input
in: Hello
out: 0000002   l   l\n0000004\n

test: skip with suffix
cmd: head -c 1030 /dev/zero | od -j 1k -t x1
out: 0002000 00 00 00 00 00 00\n0002006\n

test: skip past end
cmd: od -j 100 input
in: Hello
out:
err: od: cannot skip past end of combined input\n
status: 1

test: partial element zero padded
cmd: od -t x2 -N 3 input
in: Hello
out: 0000000 6548 006c\n0000003\n

test: partial with trailer
cmd: od -t x2z -N 3 input
in: Hello
out: 0000000 6548 006c                                >Hel<\n
out: 0000003\n

test: signed bytes
cmd: od -t d1 input
in: \x00\x7f\x80\xff
out: 0000000    0  127 -128   -1\n0000004\n

test: no addresses
cmd: od -t c -A n -N 4 input
in: Hello
out:    H   e   l   l\n

test: decimal addresses
cmd: od -A d -t x1 input
in: 0123456789abcdefghij
out: 0000000 30 31 32 33 34 35 36 37 38 39 61 62 63 64 65 66\n
out: 0000016 67 68 69 6a\n0000020\n

test: big endian
cmd: od --endian=big -t x2 -t x4 -N 8 input
in: Hello, World!
out: 0000000 4865 6c6c 6f2c 2057\n         48656c6c  6f2c2057\n
out: 0000010\n

test: size letters
cmd: od -t xC -t xS -t dI -N 8 input
in: Hello, World!
out: 0000000 48 65 6c 6c 6f 2c 20 57\n
out:          6548  6c6c  2c6f  5720\n
out:          1819043144  1461726319\n0000010\n

test: octal longs and ints
cmd: od -t o8 -t d4 input
in: Hello, World!\n\x00\x01\xff\x80abcdefgh
out: 0000000  0534401306755433062510  0004000242054433071157\n
out:          1819043144  1461726319  1684828783    16779809\n
out: 0000020  0631453106154230300377  0000000000000000064147\n
out:          1650557183  1717920867       26727\n0000032\n

test: duplicates collapsed
cmd: head -c 64 /dev/zero | od
out: 0000000 000000 000000 000000 000000 000000 000000 000000 000000\n
out: *\n0000100\n

test: duplicates kept with v
cmd: head -c 48 /dev/zero | od -v -t x1
out: 0000000 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00\n
out: 0000020 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00\n
out: 0000040 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00\n
out: 0000060\n

test: duplicate run then different
cmd: { head -c 48 /dev/zero; printf abc; } | od -t x1
out: 0000000 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00\n*\n
out: 0000060 61 62 63\n0000063\n

test: two files one stream
cmd: od -c a b
file: a=abc
file: b=def\n
out: 0000000   a   b   c   d   e   f  \\n\n0000007\n

test: missing file continues
cmd: od -c nope a
file: a=abc
out: 0000000   a   b   c\n0000003\n
err: od: nope: No such file or directory\n
status: 1

test: empty input
cmd: od input
in:
out: 0000000\n

test: stdin
cmd: printf 'AB' | od -t x1
out: 0000000 41 42\n0000002\n

test: invalid type size
cmd: od -t d3 input
in: x
out:
err: od: invalid type string ‘d3’;\n
err: this system doesn't provide a 3-byte integral type\n
status: 1

test: invalid float size
cmd: od -t f3 input
in: x
out:
err: od: invalid type string ‘f3’;\n
err: this system doesn't provide a 3-byte floating point type\n
status: 1

test: invalid type character
cmd: od -t q input
in: x
out:
err: od: invalid character 'q' in type string ‘q’\n
status: 1

test: invalid character after z
cmd: od -t x1z2 input
in: x
out:
err: od: invalid character '2' in type string ‘x1z2’\n
status: 1

test: invalid radix
cmd: od -A z input
in: x
out:
err: od: invalid output address radix 'z'; it must be one character from [doxn]\n
status: 1

test: invalid endian
cmd: od --endian=middle input
in: x
out:
err: od: invalid argument ‘middle’ for ‘--endian’\n
err: Valid arguments are:\n  - ‘little’\n  - ‘big’\n
err: Try 'od --help' for more information.\n
status: 1

test: all bytes
cmd: printf "$(printf '\\%03o' $(seq 0 255))" | od -c | tail -n 4
out: 0000320 320 321 322 323 324 325 326 327 330 331 332 333 334 335 336 337\n
out: 0000340 340 341 342 343 344 345 346 347 350 351 352 353 354 355 356 357\n
out: 0000360 360 361 362 363 364 365 366 367 370 371 372 373 374 375 376 377\n
out: 0000400\n

# ---- audit4: GNU-identical error messages and quoting ----
test: audit: od nope; echo $?
cmd: od nope; echo $?
out: 1\n
err: od: nope: No such file or directory\n

test: audit: od nope 'a b'; echo $?
cmd: od nope 'a b'; echo $?
out: 1\n
err: od: nope: No such file or directory\nod: 'a b': No such file or directory\n

test: audit: mkdir dd; od dd; echo $?
cmd: mkdir dd; od dd; echo $?
out: 0000000\n1\n
err: od: dd: Is a directory\n

test: audit: printf 'ab' > 'a b'; od -c nope 'a b'; echo $?
cmd: printf 'ab' > 'a b'; od -c nope 'a b'; echo $?
out: 0000000   a   b\n0000002\n1\n
err: od: nope: No such file or directory\n

test: audit: mkdir dd; printf 'ab' > f; od -c dd f; echo $?
cmd: mkdir dd; printf 'ab' > f; od -c dd f; echo $?
out: 0000000   a   b\n0000002\n1\n
err: od: dd: Is a directory\n

test: audit: od -j 5 nope; echo $?
cmd: od -j 5 nope; echo $?
out: 1\n
err: od: nope: No such file or directory\n


# ---- audit4: -S / --strings (GNU dump_strings) ----
test: audit: printf 'hello\0ab\0abcd\001xyzw\0tail' | od -S 3
cmd: printf 'hello\0ab\0abcd\001xyzw\0tail' | od -S 3
out: 0000000 hello\n0000016 xyzw\n
err: 

test: audit: printf 'hello\0' | od -An -S3 | od -c
cmd: printf 'hello\0' | od -An -S3 | od -c
out: 0000000   h   e   l   l   o  \\n\n0000006\n
err: 

test: audit: printf '\0\0hello\0' | od -Ax -S 4 -j 1
cmd: printf '\0\0hello\0' | od -Ax -S 4 -j 1
out: 000002 hello\n
err: 

test: audit: printf 'hello\0' | od -S 3 -N 3; echo $?
cmd: printf 'hello\0' | od -S 3 -N 3; echo $?
out: 0\n
err: 

test: audit: printf 'hello\0' | od -S 3 -N 6
cmd: printf 'hello\0' | od -S 3 -N 6
out: 0000000 hello\n
err: 

test: audit: od -S 0 /dev/null; echo $?
cmd: od -S 0 /dev/null; echo $?
out: 0\n
err: 

test: audit: printf 'a\0\0\001\0' | od -S 0
cmd: printf 'a\0\0\001\0' | od -S 0
out: 0000000 a\n0000002 \n0000004 \n
err: 

test: audit: printf 'hello\0' | od -S3 -w4 -v; printf 'hello\0' | od --strings; pri
cmd: printf 'hello\0' | od -S3 -w4 -v; printf 'hello\0' | od --strings; printf 'a\tb\0' | od -S1; printf 'x\300yz\0' | od -S2 -Ad
out: 0000000 hello\n0000000 hello\n0000002 b\n0000002 yz\n
err: 

test: audit: od -S x /dev/null; echo $?
cmd: od -S x /dev/null; echo $?
out: 1\n
err: od: invalid -S argument 'x'\n

test: audit: od -S 99999999999999999999999 /dev/null; echo $?
cmd: od -S 99999999999999999999999 /dev/null; echo $?
out: 1\n
err: od: -S argument '99999999999999999999999' too large\n

test: audit: od -S 1k /dev/null; echo $?
cmd: od -S 1k /dev/null; echo $?
out: 0\n
err: 

test: audit: od -t x1 -S 2 /dev/null; echo $?
cmd: od -t x1 -S 2 /dev/null; echo $?
out: 1\n
err: od: no type may be specified when dumping strings\n

test: audit: od -c -S2 /dev/null; echo $?
cmd: od -c -S2 /dev/null; echo $?
out: 1\n
err: od: no type may be specified when dumping strings\n

test: audit: printf 'abc\0' > f; od -S 2 f nope f; echo $?
cmd: printf 'abc\0' > f; od -S 2 f nope f; echo $?
out: 0000000 abc\n0000004 abc\n1\n
err: od: nope: No such file or directory\n

test: audit: printf 'ab' > a; printf 'c\0' > b; od -S 3 a b
cmd: printf 'ab' > a; printf 'c\0' > b; od -S 3 a b
out: 0000000 abc\n
err: 


test: long options abbreviated; --strings takes an optional argument, -S a required one
cmd: printf 'hello\0ab\0' | od --str=4; printf 'hello\0ab\0' | od -S 2; printf 'abcdefgh' | od --outp --wid=4 --read=6 --for=x1 --add=d --skip=1 --trad
out: 0000000 hello\n0000000 hello\n0000006 ab\n0000001 62 63 64 65\n0000005 66 67\n0000007\n
