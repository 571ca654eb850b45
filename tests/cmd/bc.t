# bc (GNU bc 1.07.1): every case but the `host: skip` ones is proved against the
# host's GNU bc with `run.py --host tests/cmd/bc.t`. Runtime errors carry GNU's
# bytecode offsets (adr=N); sbx compiles to the same layout.

# ---- arithmetic, scale, bases, output wrapping, errors, statements, functions ------
test: 1+2
cmd: bc
stdin: 1+2\n
out: 3\n
err:

test: 2^300
cmd: bc
stdin: 2^300\n
out: 20370359763344860862684456884093781610514683936659362506361404493543\\\n
out: 81299763336706183397376\n
err:

test: scale=100; 1/3
cmd: bc
stdin: scale=100; 1/3\n
out: .3333333333333333333333333333333333333333333333333333333333333333333\\\n
out: 333333333333333333333333333333333\n
err:

test: obase=16; 255; -255; 255.5; 0.1; 1/3; scale=5; 1/3
cmd: bc
stdin: obase=16; 255; -255; 255.5; 0.1; 1/3; scale=5; 1/3\n
out: FF\n
out: -FF\n
out: FF.8\n
out: .1\n
out: 0\n
out: .55551\n
err:

test: obase=2; 5.75; scale=3; 1/3
cmd: bc
stdin: obase=2; 5.75; scale=3; 1/3\n
out: 101.1100000\n
out: .0101010100\n
err:

test: obase=100; 123456; 1234.5678; -99
cmd: bc
stdin: obase=100; 123456; 1234.5678; -99\n
out:  12 34 56\n
out:  12 34.56 78\n
out: - 99\n
err:

test: obase=1000; 10^10
cmd: bc
stdin: obase=1000; 10^10\n
out:  010 000 000 000\n
err:

test: obase=17; 16; 17; 300
cmd: bc
stdin: obase=17; 16; 17; 300\n
out:  16\n
out:  01 00\n
out:  01 00 11\n
err:

test: ibase=16; FF; ff
cmd: bc
stdin: ibase=16; FF; ff\n
out: 255\n
out: 0\n
err:

test: ibase=2; 12; 102; A; 1.1
cmd: bc
stdin: ibase=2; 12; 102; A; 1.1\n
out: 3\n
out: 5\n
out: 10\n
out: 1.5\n
err:

test: ibase=16; A.8; 1.F
cmd: bc
stdin: ibase=16; A.8; 1.F\n
out: 10.5\n
out: 1.9\n
err:

test: A; B; Z; AB
cmd: bc
stdin: A; B; Z; AB\n
out: 10\n
out: 11\n
out: 35\n
out: 99\n
err:

test: ibase=10; 1A
cmd: bc
stdin: ibase=10; 1A\n
out: 19\n
err:

test: .0; 0.0; -0; -.5; 000.000; 1.000
cmd: bc
stdin: .0; 0.0; -0; -.5; 000.000; 1.000\n
out: 0\n
out: 0\n
out: 0\n
out: -.5\n
out: 0\n
out: 1.000\n
err:

test: scale=2; 1/3; -1/3; 2/3*3
cmd: bc
stdin: scale=2; 1/3; -1/3; 2/3*3\n
out: .33\n
out: -.33\n
out: 1.98\n
err:

test: x=1.50; x; scale(x); length(x); length(0); length(0.001); scale(0.0010
cmd: bc
stdin: x=1.50; x; scale(x); length(x); length(0); length(0.001); scale(0.0010); length(100); length(-12.345)\n
out: 1.50\n
out: 2\n
out: 3\n
out: 1\n
out: 3\n
out: 4\n
out: 3\n
out: 5\n
err:

test: 10%3; -10%3; 10%-3; scale=2; 10%3; 5.5%2
cmd: bc
stdin: 10%3; -10%3; 10%-3; scale=2; 10%3; 5.5%2\n
out: 1\n
out: -1\n
out: 1\n
out: .01\n
out: 0\n
err:

test: 2^-1; scale=3; 2^-2; (-2)^3; 0^0; 2^1.5
cmd: bc
stdin: 2^-1; scale=3; 2^-2; (-2)^3; 0^0; 2^1.5\n
out: 0\n
out: .250\n
out: -8\n
out: 1\n
out: 2\n
err: Runtime warning (func=(main), adr=44): non-zero scale in exponent\n

test: sqrt(2); scale=10; sqrt(2); sqrt(0); sqrt(.0001); sqrt(100)
cmd: bc
stdin: sqrt(2); scale=10; sqrt(2); sqrt(0); sqrt(.0001); sqrt(100)\n
out: 1\n
out: 1.4142135623\n
out: 0\n
out: .0100000000\n
out: 10.0000000000\n
err:

test: obase=16; ibase=16; obase
cmd: bc
stdin: obase=16; ibase=16; obase\n
out: 10\n
err:

test: ibase=17
cmd: bc
stdin: ibase=17\n
out:
err:

test: obase=0
cmd: bc
stdin: obase=0\n
out:
err: Runtime warning (func=(main), adr=3): obase too small, set to 2\n

test: scale=3; 1.23456 * 1; 1.23456 + 0; 1.23456/1
cmd: bc
stdin: scale=3; 1.23456 * 1; 1.23456 + 0; 1.23456/1\n
out: 1.23456\n
out: 1.23456\n
out: 1.234\n
err:

test: last; 5; last; .; 7+.
cmd: bc
stdin: last; 5; last; .; 7+.\n
out: 0\n
out: 5\n
out: 5\n
out: 5\n
out: 12\n
err:

test: 1/0
cmd: bc
stdin: 1/0\n
out:
err: Runtime error (func=(main), adr=3): Divide by zero\n

test: 2+1/0
cmd: bc
stdin: 2+1/0\n
out:
err: Runtime error (func=(main), adr=6): Divide by zero\n

test: a=1/0
cmd: bc
stdin: a=1/0\n
out:
err: Runtime error (func=(main), adr=3): Divide by zero\n

test: x=5;x/0
cmd: bc
stdin: x=5;x/0\n
out:
err: Runtime error (func=(main), adr=10): Divide by zero\n

test: 1/0;1/0
cmd: bc
stdin: 1/0;1/0\n
out:
err: Runtime error (func=(main), adr=3): Divide by zero\n

test: define f(x){return x/0}; f(1)
cmd: bc
stdin: define f(x){return x/0}; f(1)\n
out:
err: Runtime error (func=f, adr=4): Divide by zero\n

test: print 1/0
cmd: bc
stdin: print 1/0\n
out:
err: Runtime error (func=(main), adr=3): Divide by zero\n

test: if(1)1/0
cmd: bc
stdin: if(1)1/0\n
out:
err: Runtime error (func=(main), adr=7): Divide by zero\n

test: sqrt(-1)
cmd: bc
stdin: sqrt(-1)\n
out:
err: Runtime error (func=(main), adr=4): Square root of a negative number\n

test: 1%0
cmd: bc
stdin: 1%0\n
out:
err: Runtime error (func=(main), adr=3): Modulo by zero\n

test: 2^0.5
cmd: bc
stdin: 2^0.5\n
out: 1\n
err: Runtime warning (func=(main), adr=8): non-zero scale in exponent\n

test: 0^-1
cmd: bc
stdin: 0^-1\n
out:
err: Runtime error (func=(main), adr=4): divide by zero\n

test: a[-1]
cmd: bc
stdin: a[-1]\n
out:
err: Runtime error (func=(main), adr=4): Array a subscript out of bounds.\n

test: scale=-1
cmd: bc
stdin: scale=-1\n
out:
err: Runtime warning (func=(main), adr=4): negative scale, set to 0\n

test: ibase=1
cmd: bc
stdin: ibase=1\n
out:
err: Runtime warning (func=(main), adr=3): ibase too small, set to 2\n

test: obase=1
cmd: bc
stdin: obase=1\n
out:
err: Runtime warning (func=(main), adr=3): obase too small, set to 2\n

test: x=3 | x/0
cmd: bc
stdin: x=3\n
stdin: x/0\n
out:
err: Runtime error (func=(main), adr=4): Divide by zero\n

test: {1/0}
cmd: bc
stdin: {1/0}\n
out:
err: Runtime error (func=(main), adr=3): Divide by zero\n

test: while(1){1/0}
cmd: bc
stdin: while(1){1/0}\n
out:
err: Runtime error (func=(main), adr=7): Divide by zero\n

test: a[1]=5;a[1]/0
cmd: bc
stdin: a[1]=5;a[1]/0\n
out:
err: Runtime error (func=(main), adr=12): Divide by zero\n

test: "abc";1/0
cmd: bc
stdin: "abc";1/0\n
out: abc
err: Runtime error (func=(main), adr=8): Divide by zero\n

test: 1+2+3+4+5+6+7+8+9+10+11/0
cmd: bc
stdin: 1+2+3+4+5+6+7+8+9+10+11/0\n
out:
err: Runtime error (func=(main), adr=44): Divide by zero\n

test: 2||0
cmd: bc
stdin: 2||0\n
out: 1\n
err:

test: 0||3
cmd: bc
stdin: 0||3\n
out: 1\n
err:

test: 2&&3
cmd: bc
stdin: 2&&3\n
out: 1\n
err:

test: !5
cmd: bc
stdin: !5\n
out: 0\n
err:

test: 1/0 | 2
cmd: bc
stdin: 1/0\n
stdin: 2\n
out: 2\n
err: Runtime error (func=(main), adr=3): Divide by zero\n

test: if(0){quit} | 5
cmd: bc
stdin: if(0){quit}\n
stdin: 5\n
out:
err:

test: 5;quit;6
cmd: bc
stdin: 5;quit;6\n
out:
err:

test: halt;6
cmd: bc
stdin: halt;6\n
out:
err:

test: 6 | halt | 7
cmd: bc
stdin: 6\n
stdin: halt\n
stdin: 7\n
out: 6\n
err:

test: x = 1 +
cmd: bc
stdin: x = 1 +\n
out:
err: (standard_in) 2: syntax error\n

test: x = 1 + | 2
cmd: bc
stdin: x = 1 +\n
stdin: 2\n
out: 2\n
err: (standard_in) 2: syntax error\n

test: 1+ | 2
cmd: bc
stdin: 1+\n
stdin: 2\n
out: 2\n
err: (standard_in) 2: syntax error\n

test: @
cmd: bc
stdin: @\n
out:
err: (standard_in) 1: illegal character: @\n

test: abs(-1)
cmd: bc
stdin: abs(-1)\n
out:
err: Runtime error (func=(main), adr=4): Function abs not defined.\n

test: f(1)
cmd: bc
stdin: f(1)\n
out:
err: Runtime error (func=(main), adr=3): Function f not defined.\n

test: define f(x){return(x)} | f(1,2)
cmd: bc
stdin: define f(x){return(x)}\n
stdin: f(1,2)\n
out:
err: Runtime error (func=(main), adr=8): Parameter number mismatch\n

test: define f(x[]){return(1)} | f(1)
cmd: bc
stdin: define f(x[]){return(1)}\n
stdin: f(1)\n
out:
err: Runtime error (func=(main), adr=4): Parameter type mismatch parameter x.\n
err: Runtime error (func=(main), adr=5): Parameter number mismatch\n

test: return 5
cmd: bc
stdin: return 5\n
out:
err: (standard_in) 2: Return outside of a function.\n

test: break
cmd: bc
stdin: break\n
out:
err: (standard_in) 1: Break outside a for/while\n

test: a[16777216]
cmd: bc
stdin: a[16777216]\n
out:
err: Runtime error (func=(main), adr=12): Array a subscript out of bounds.\n

test: a[16777215]=1
cmd: bc
stdin: a[16777215]=1\n
out:
err:

test: "abc | def"
cmd: bc
stdin: "abc\n
stdin: def"\n
out: abc\n
out: def
err:

test: print "a\\tb\\nc\\\\d\\q[", 1, "\\n"
cmd: bc
stdin: print "a\\tb\\nc\\\\d\\q[", 1, "\\n"\n
out: a\tb\n
out: c\\d"[1\n
err:

test: print "x\\\\"; 5
cmd: bc
stdin: print "x\\\\"; 5\n
out: x\\5\n
err:

test: print "1\\e2\\z3\\r4\\\\5\\q6\\a7\\b8\\f9\\n0\\t"
cmd: bc
stdin: print "1\\e2\\z3\\r4\\\\5\\q6\\a7\\b8\\f9\\n0\\t"\n
out: 123\x0d4\\5"6\x077\x088\x0c9\n
out: 0\t
err:

test: 1 2
cmd: bc
stdin: 1 2\n
out:
err: (standard_in) 1: syntax error\n

test: x=5 y=6
cmd: bc
stdin: x=5 y=6\n
out:
err: (standard_in) 1: syntax error\n

test: define f(){ | 1/0 | } | f()
cmd: bc
stdin: define f(){\n
stdin: 1/0\n
stdin: }\n
stdin: f()\n
out:
err: Runtime error (func=f, adr=3): Divide by zero\n

test: define f(){ return(g(1)) } | define g(x){ return(x/0) } | f()
cmd: bc
stdin: define f(){ return(g(1)) }\n
stdin: define g(x){ return(x/0) }\n
stdin: f()\n
out:
err: Runtime error (func=g, adr=4): Divide by zero\n

test: 1 && 1/0
cmd: bc
stdin: 1 && 1/0\n
out:
err: Runtime error (func=(main), adr=9): Divide by zero\n

test: 0 || 1/0
cmd: bc
stdin: 0 || 1/0\n
out:
err: Runtime error (func=(main), adr=7): Divide by zero\n

test: a = 2 < 3; a
cmd: bc
stdin: a = 2 < 3; a\n
out: 1\n
out: 2\n
err:

test: !1 < 2
cmd: bc
stdin: !1 < 2\n
out: 0\n
err:

test: -2^2; 2^3^2; -2^-2; 2*-3; 2- -3; 2^-3; scale=5; 2^-3; -(2)^2
cmd: bc
stdin: -2^2; 2^3^2; -2^-2; 2*-3; 2- -3; 2^-3; scale=5; 2^-3; -(2)^2\n
out: 4\n
out: 512\n
out: 0\n
out: -6\n
out: 5\n
out: 0\n
out: .12500\n
out: 4\n
err:

test: !0+1
cmd: bc
stdin: !0+1\n
out: 0\n
err:

test: 1 < 2 < 3; 3 > 2 > 1; 1 == 1 == 1
cmd: bc
stdin: 1 < 2 < 3; 3 > 2 > 1; 1 == 1 == 1\n
out: 1\n
out: 0\n
out: 1\n
err:

test: (x=1); x=2; (x)
cmd: bc
stdin: (x=1); x=2; (x)\n
out: 1\n
out: 2\n
err:

test: x = 1 + 1 == 2; x
cmd: bc
stdin: x = 1 + 1 == 2; x\n
out: 1\n
out: 2\n
err:

test: 5 > 3 && 2 < 1 || 1
cmd: bc
stdin: 5 > 3 && 2 < 1 || 1\n
out: 1\n
err:

test: "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
cmd: bc
stdin: "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"\n
out: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\\\n
out: aaaaaaaaaaaaaaaaaaaa
err:

test: print "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
cmd: bc
stdin: print "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 2^300, "\\n"\n
out: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\\\n
out: aaaaaaaaaaaaaaaaaaaa203703597633448608626844568840937816105146839366\\\n
out: 5936250636140449354381299763336706183397376\n
err:

test: print "ab"; 2^300
cmd: bc
stdin: print "ab"; 2^300\n
out: ab203703597633448608626844568840937816105146839366593625063614044935\\\n
out: 4381299763336706183397376\n
err:

test: x=-0; x; -0.0; 0*-1
cmd: bc
stdin: x=-0; x; -0.0; 0*-1\n
out: 0\n
out: 0\n
out: 0\n
err:

test: x=3; -x^2; --x
cmd: bc
stdin: x=3; -x^2; --x\n
out: 9\n
out: 2\n
err:

test: 5 |  |  | 6 | ;;; | 7;
cmd: bc
stdin: 5\n
stdin: \n
stdin: \n
stdin: 6\n
stdin: ;;;\n
stdin: 7;\n
out: 5\n
out: 6\n
out: 7\n
err:

test: if (1) 5 else 6; if (0) 5 else 6
cmd: bc
stdin: if (1) 5 else 6; if (0) 5 else 6\n
out: 5\n
out: 6\n
err:

test: if (1) | 5 | if(0) 1 else | 2
cmd: bc
stdin: if (1)\n
stdin: 5\n
stdin: if(0) 1 else\n
stdin: 2\n
out: 5\n
out: 2\n
err:

test: define f(x) { | return (x*2) | } | f(3) | define g(x) | { | return x |
cmd: bc
stdin: define f(x) {\n
stdin: return (x*2)\n
stdin: }\n
stdin: f(3)\n
stdin: define g(x)\n
stdin: {\n
stdin: return x\n
stdin: }\n
stdin: g(4)\n
out: 6\n
out: 4\n
err:

test: ibase=37
cmd: bc
stdin: ibase=37\n
out:
err: Runtime warning (func=(main), adr=6): ibase too large, set to 36\n

test: ibase=36; ZZ
cmd: bc
stdin: ibase=36; ZZ\n
out: 1295\n
err:

test: obase=1000000000000
cmd: bc
stdin: obase=1000000000000\n
out:
err: Runtime warning (func=(main), adr=17): obase too large, set to 2147483647\n

test: obase=99999999999999999999
cmd: bc
stdin: obase=99999999999999999999\n
out:
err: Runtime warning (func=(main), adr=24): obase too large, set to 2147483647\n

test: scale=99999999999999999999
cmd: bc
stdin: scale=99999999999999999999\n
out:
err: Runtime warning (func=(main), adr=24): scale too large, set to 2147483647\n

test: scale=2147483647; scale
cmd: bc
stdin: scale=2147483647; scale\n
out: 2147483647\n
err:

test: 2^99999999999
cmd: bc
stdin: 2^99999999999\n
out:
err: Runtime error (func=(main), adr=17): exponent too large in raise\n

test: 2^(2^40)
cmd: bc
stdin: 2^(2^40)\n
out:
err: Runtime error (func=(main), adr=12): exponent too large in raise\n

test: define f(x,x){return x}
cmd: bc
stdin: define f(x,x){return x}\n
out:
err: (standard_in) 1: duplicate parameter names\n

test: define f(x){auto x; return x}
cmd: bc
stdin: define f(x){auto x; return x}\n
out:
err: (standard_in) 1: variable in both parameter and auto lists\n

test: define f(){continue}
cmd: bc
stdin: define f(){continue}\n
out:
err: (standard_in) 1: Continue outside a for\n

test: define void f(){return 5}
cmd: bc
stdin: define void f(){return 5}\n
out:
err: (standard_in) 1: Return expression in a void function.\n

test: define void f(){print 1} | x=f()
cmd: bc
stdin: define void f(){print 1}\n
stdin: x=f()\n
out:
err: (standard_in) 3: Assignment of a void expression\n

test: define void f(){print 1} | f()
cmd: bc
stdin: define void f(){print 1}\n
stdin: f()\n
out: 1
err:

test: /* unterminated
cmd: bc
stdin: /* unterminated\n
out:
err: EOF encountered in a comment.\n

test: "unterminated
cmd: bc
stdin: "unterminated\n
out:
err: (standard_in) 1: illegal character: "\n

test: print 1,
cmd: bc
stdin: print 1,\n
out:
err: (standard_in) 2: syntax error\n

test: x[1]
cmd: bc
stdin: x[1]\n
out: 0\n
err:

test: define f(a[]){return a[0]} | x[0]=5; f(x[])
cmd: bc
stdin: define f(a[]){return a[0]}\n
stdin: x[0]=5; f(x[])\n
out: 5\n
err:

test: define f(*a[]){a[0]=7} | f(x[]); x[0]
cmd: bc
stdin: define f(*a[]){a[0]=7}\n
stdin: f(x[]); x[0]\n
out: 0\n
out: 7\n
err:

test: define f(a[]){a[0]=7} | f(x[]); x[0]
cmd: bc
stdin: define f(a[]){a[0]=7}\n
stdin: f(x[]); x[0]\n
out: 0\n
out: 0\n
err:

test: define f(x){x=9; return x} | y=1; f(y); y
cmd: bc
stdin: define f(x){x=9; return x}\n
stdin: y=1; f(y); y\n
out: 9\n
out: 1\n
err:

test: define f(n){if(n==0) return 1; return n*f(n-1)} | f(10)
cmd: bc
stdin: define f(n){if(n==0) return 1; return n*f(n-1)}\n
stdin: f(10)\n
out: 3628800\n
err:

test: limits
cmd: bc
stdin: limits\n
out: BC_BASE_MAX     = 2147483647\n
out: BC_DIM_MAX      = 16777215\n
out: BC_SCALE_MAX    = 2147483647\n
out: BC_STRING_MAX   = 2147483647\n
out: MAX Exponent    = 9223372036854775807\n
out: Number of vars  = 32767\n
err:

test: x=0; x++; x; x--; --x; ++x
cmd: bc
stdin: x=0; x++; x; x--; --x; ++x\n
out: 0\n
out: 1\n
out: 1\n
out: -1\n
out: 0\n
err:

test: a[0]=1; a[0]++; a[0]; ++a[0]; a[0]--
cmd: bc
stdin: a[0]=1; a[0]++; a[0]; ++a[0]; a[0]--\n
out: 1\n
out: 2\n
out: 3\n
out: 3\n
err:

test: { | 1 | 2 + | 3 | } | 4
cmd: bc
stdin: {\n
stdin: 1\n
stdin: 2 +\n
stdin: 3\n
stdin: }\n
stdin: 4\n
out: 4\n
err: (standard_in) 4: syntax error\n

test: 1+1
cmd: bc
stdin: 1+1
out:
err: (standard_in) 1: syntax error\n

test: define f(x) { return x }
cmd: bc
stdin: define f(x) { return x }
out:
err:

test: x=1; {x; x+1
cmd: bc
stdin: x=1; {x; x+1
out:
err: (standard_in) 1: syntax error\n

test: /*
cmd: bc
stdin: /*
out:
err: EOF encountered in a comment.\n

test: print 5; last
cmd: bc
stdin: print 5; last\n
out: 55\n
err:

test: define f(){ibase=16; return 1} | f(); 10
cmd: bc
stdin: define f(){ibase=16; return 1}\n
stdin: f(); 10\n
out: 1\n
out: 16\n
err:

test: ibase=16; 1. | ibase=2; 1.; 1.0
cmd: bc
stdin: ibase=16; 1.\n
stdin: ibase=2; 1.; 1.0\n
out: 1\n
out: 1\n
out: 1.0\n
err:

test: define f(x){ auto y[]; y[0]=x; return y[0] } | f(5)
cmd: bc
stdin: define f(x){ auto y[]; y[0]=x; return y[0] }\n
stdin: f(5)\n
out: 5\n
err:

test: define f(x) { x } | f(3)
cmd: bc
stdin: define f(x) { x }\n
stdin: f(3)\n
out: 3\n
out: 0\n
err:

test: 1; 2 | 3 4 | 5
cmd: bc
stdin: 1; 2\n
stdin: 3 4\n
stdin: 5\n
out: 1\n
out: 2\n
out: 5\n
err: (standard_in) 2: syntax error\n

test: if (1) { 5 } else { 6 }
cmd: bc
stdin: if (1) { 5 } else { 6 }\n
out: 5\n
err:

test: define f(){ |   auto a |   a = 3 |   return a | } | f()
cmd: bc
stdin: define f(){\n
stdin:   auto a\n
stdin:   a = 3\n
stdin:   return a\n
stdin: }\n
stdin: f()\n
out: 3\n
err:

test: define f(){return 1} | f()/0
cmd: bc
stdin: define f(){return 1}\n
stdin: f()/0\n
out:
err: Runtime error (func=(main), adr=5): Divide by zero\n

test: define f(x){return 1} | f(1)/0
cmd: bc
stdin: define f(x){return 1}\n
stdin: f(1)/0\n
out:
err: Runtime error (func=(main), adr=7): Divide by zero\n

test: ibase=16; 10
cmd: bc
stdin: ibase=16; 10\n
out: 16\n
err:

test: ibase=16 | 10
cmd: bc
stdin: ibase=16\n
stdin: 10\n
out: 16\n
err:

test: define f(){ return 10 } | ibase=16 | f()
cmd: bc
stdin: define f(){ return 10 }\n
stdin: ibase=16\n
stdin: f()\n
out: 16\n
err:

test: ibase=16 | define f(){ return 10 } | ibase=A | f()
cmd: bc
stdin: ibase=16\n
stdin: define f(){ return 10 }\n
stdin: ibase=A\n
stdin: f()\n
out: 10\n
err:

test: define f(){ ibase=16; return 10 } | f() | f()
cmd: bc
stdin: define f(){ ibase=16; return 10 }\n
stdin: f()\n
stdin: f()\n
out: 10\n
out: 16\n
err:

test: define f(){ return 10 } | ibase=16; f()
cmd: bc
stdin: define f(){ return 10 }\n
stdin: ibase=16; f()\n
out: 16\n
err:

test: 1; 2 +; 3
cmd: bc
stdin: 1; 2 +; 3\n
out:
err: (standard_in) 1: syntax error\n

test: ibase=16; x=10; ibase=A; x
cmd: bc
stdin: ibase=16; x=10; ibase=A; x\n
out: 16\n
err:

test: define f(){ ibase=16; x=10; ibase=A; return x } | f()
cmd: bc
stdin: define f(){ ibase=16; x=10; ibase=A; return x }\n
stdin: f()\n
out: 10\n
err:

test: define f(){ ibase=16; return g() } | define g(){ return 10 } | f()
cmd: bc
stdin: define f(){ ibase=16; return g() }\n
stdin: define g(){ return 10 }\n
stdin: f()\n
out: 16\n
err:

test: define f(){ ibase=16; return 10 } | x=f(); 10; ibase
cmd: bc
stdin: define f(){ ibase=16; return 10 }\n
stdin: x=f(); 10; ibase\n
out: 16\n
out: 16\n
err:

test: ibase=16 | define f(){ return 10 } | f(); ibase=A; f()
cmd: bc
stdin: ibase=16\n
stdin: define f(){ return 10 }\n
stdin: f(); ibase=A; f()\n
out: 16\n
out: 10\n
err:

test: if (1) 1 | else 2
cmd: bc
stdin: if (1) 1\n
stdin: else 2\n
out: 1\n
err: (standard_in) 2: syntax error\n

test: if (1) 1; else 2
cmd: bc
stdin: if (1) 1; else 2\n
out:
err: (standard_in) 1: syntax error\n

test: for(i=0;i<5;i++) i
cmd: bc
stdin: for(i=0;i<5;i++) i\n
out: 0\n
out: 1\n
out: 2\n
out: 3\n
out: 4\n
err:

test: for(i=0;i<10;i++){ if(i==3) continue; if(i==6) break; i }
cmd: bc
stdin: for(i=0;i<10;i++){ if(i==3) continue; if(i==6) break; i }\n
out: 0\n
out: 1\n
out: 2\n
out: 4\n
out: 5\n
err:

test: i=0; while(i<3) { i; i+=1 }
cmd: bc
stdin: i=0; while(i<3) { i; i+=1 }\n
out: 0\n
out: 1\n
out: 2\n
err:

test: for(;;) { x+=1; if (x > 4) break }; x
cmd: bc
stdin: for(;;) { x+=1; if (x > 4) break }; x\n
out: 5\n
err:

test: define f(n) { auto i, s; for (i=1; i<=n; i++) s += i; return s } | f(1
cmd: bc
stdin: define f(n) { auto i, s; for (i=1; i<=n; i++) s += i; return s }\n
stdin: f(100)\n
out: 5050\n
err:

test: define fib(n) { if (n < 2) return n; return fib(n-1) + fib(n-2) } | fi
cmd: bc
stdin: define fib(n) { if (n < 2) return n; return fib(n-1) + fib(n-2) }\n
stdin: fib(15)\n
out: 610\n
err:

test: scale=20; 355/113
cmd: bc
stdin: scale=20; 355/113\n
out: 3.14159292035398230088\n
err:

test: 3.14159 * 2 ^ 2
cmd: bc
stdin: 3.14159 * 2 ^ 2\n
out: 12.56636\n
err:

test: 12345678901234567890 * 98765432109876543210
cmd: bc
stdin: 12345678901234567890 * 98765432109876543210\n
out: 1219326311370217952237463801111263526900\n
err:

test: 99999999999999999999999 / 7
cmd: bc
stdin: 99999999999999999999999 / 7\n
out: 14285714285714285714285\n
err:

test: scale=50; 2/7; sqrt(3)
cmd: bc
stdin: scale=50; 2/7; sqrt(3)\n
out: .28571428571428571428571428571428571428571428571428\n
out: 1.73205080756887729352744634150587236694280525381038\n
err:

test: obase=8; 8; 64; -9; 0.5
cmd: bc
stdin: obase=8; 8; 64; -9; 0.5\n
out: 10\n
out: 100\n
out: -11\n
out: .40\n
err:

test: obase=36; 35; 36
cmd: bc
stdin: obase=36; 35; 36\n
out:  35\n
out:  01 00\n
err:

test: obase=2; 2^70
cmd: bc
stdin: obase=2; 2^70\n
out: 10000000000000000000000000000000000000000000000000000000000000000000\\\n
out: 000\n
err:

test: x = 10; x /= 3; x; x *= 3; x; x -= 1; x; x %= 4; x; x ^= 3; x
cmd: bc
stdin: x = 10; x /= 3; x; x *= 3; x; x -= 1; x; x %= 4; x; x ^= 3; x\n
out: 3\n
out: 9\n
out: 8\n
out: 0\n
out: 0\n
err:

test: scale=4; x = 10; x /= 3; x
cmd: bc
stdin: scale=4; x = 10; x /= 3; x\n
out: 3.3333\n
err:

test: a[0]=1; a[1]=2; a[0]+a[1]; b = a[0]
cmd: bc
stdin: a[0]=1; a[1]=2; a[0]+a[1]; b = a[0]\n
out: 3\n
err:

test: define f(){ print "in f\\n" } | f()
cmd: bc
stdin: define f(){ print "in f\\n" }\n
stdin: f()\n
out: in f\n
out: 0\n
err:

test: print "a", "b", 1, 2, "\\n"
cmd: bc
stdin: print "a", "b", 1, 2, "\\n"\n
out: ab12\n
err:

test: print 1/3, "\\n"; scale=3; print 1/3, "\\n"
cmd: bc
stdin: print 1/3, "\\n"; scale=3; print 1/3, "\\n"\n
out: 0\n
out: .333\n
err:

test: "a\\nb"
cmd: bc
stdin: "a\\nb"\n
out: a\\nb
err:

test: # comment | 1 # trailing | /* multi | line */ 2
cmd: bc
stdin: # comment\n
stdin: 1 # trailing\n
stdin: /* multi\n
stdin: line */ 2\n
out: 1\n
out: 2\n
err:

test: 1 /* c */ + /* d */ 2
cmd: bc
stdin: 1 /* c */ + /* d */ 2\n
out: 3\n
err:

test: x\\ | =\\ | 5; x
cmd: bc
stdin: x\\\n
stdin: =\\\n
stdin: 5; x\n
out: 5\n
err:

test: 12\\ | 34
cmd: bc
stdin: 12\\\n
stdin: 34\n
out: 1234\n
err:

test: length(123.456000); scale(123.456000); length(.000001); sqrt(.25)
cmd: bc
stdin: length(123.456000); scale(123.456000); length(.000001); sqrt(.25)\n
out: 9\n
out: 6\n
out: 6\n
out: .50\n
err:

test: scale=0; 7/2; -7/2; 7%2; -7%2
cmd: bc
stdin: scale=0; 7/2; -7/2; 7%2; -7%2\n
out: 3\n
out: -3\n
out: 1\n
out: -1\n
err:

test: a=5; b=a++ + ++a; a; b
cmd: bc
stdin: a=5; b=a++ + ++a; a; b\n
out: 7\n
out: 12\n
err:

test: x = (1 < 2) + (2 < 1) + (1 == 1); x
cmd: bc
stdin: x = (1 < 2) + (2 < 1) + (1 == 1); x\n
out: 2\n
err:

test: -.5 + .5; .5 - .5; 1 - 1.00
cmd: bc
stdin: -.5 + .5; .5 - .5; 1 - 1.00\n
out: 0\n
out: 0\n
out: 0\n
err:

test: scale = 5; 1/7; scale = 0; 1/7
cmd: bc
stdin: scale = 5; 1/7; scale = 0; 1/7\n
out: .14285\n
out: 0\n
err:

test: obase=16; scale=10; 3.14159265358979
cmd: bc
stdin: obase=16; scale=10; 3.14159265358979\n
out: 3.243F6A8885A2\n
err:

test: obase=3; 1/3; scale=6; 1/3; 2.5
cmd: bc
stdin: obase=3; 1/3; scale=6; 1/3; 2.5\n
out: 0\n
out: .0222222222222\n
out: 2.111\n
err:

test: 2^64; 2^63 - 1; -2^63
cmd: bc
stdin: 2^64; 2^63 - 1; -2^63\n
out: 18446744073709551616\n
out: 9223372036854775807\n
out: -9223372036854775808\n
err:

test: 10^-3; scale=5; 10^-3
cmd: bc
stdin: 10^-3; scale=5; 10^-3\n
out: 0\n
out: .00100\n
err:

test: scale=3; 1.999^2; (-1.5)^3; 1.5^-2
cmd: bc
stdin: scale=3; 1.999^2; (-1.5)^3; 1.5^-2\n
out: 3.996\n
out: -3.375\n
out: .444\n
err:

test: define f(x) { return (x > 0) } | f(5); f(-5)
cmd: bc
stdin: define f(x) { return (x > 0) }\n
stdin: f(5); f(-5)\n
out: 1\n
out: 0\n
err:

test: quit | 5
cmd: bc
stdin: quit\n
stdin: 5\n
out:
err:

test: 5 | quit
cmd: bc
stdin: 5\n
stdin: quit\n
out: 5\n
err:

test: x=1 | x
cmd: bc
stdin: x=1\n
stdin: x\n
out: 1\n
err:

test: { x = 1; y = 2 }; x + y
cmd: bc
stdin: { x = 1; y = 2 }; x + y\n
out: 3\n
err:

test: e(1)
cmd: bc
stdin: e(1)\n
out:
err: Runtime error (func=(main), adr=3): Function e not defined.\n

test: s(1)
cmd: bc
stdin: s(1)\n
out:
err: Runtime error (func=(main), adr=3): Function s not defined.\n

# ---- the -l math library: s c a l e j at many scales, digit for digit -----------
test: -l s(0) | s(1) | s(-1) | s(0.5) | s(-0.5) | s(2) | s(3.14159) | s(10) 
cmd: bc -l
stdin: s(0)\n
stdin: s(1)\n
stdin: s(-1)\n
stdin: s(0.5)\n
stdin: s(-0.5)\n
stdin: s(2)\n
stdin: s(3.14159)\n
stdin: s(10)\n
stdin: s(-7.25)\n
stdin: s(100)\n
stdin: s(0.001)\n
stdin: s(1)\n
stdin: s(.2)\n
stdin: s(1.5)\n
stdin: s(25)\n
stdin: s(-25)\n
stdin: s(0.9999)\n
stdin: s(123.456)\n
stdin: s(0.0000123)\n
stdin: s(50)\n
out: 0\n
out: .84147098480789650665\n
out: -.84147098480789650665\n
out: .47942553860420300027\n
out: -.47942553860420300027\n
out: .90929742682568169539\n
out: .00000265358979323534\n
out: -.54402111088936981340\n
out: -.82308087901150545842\n
out: -.50636564110975879365\n
out: .00099999983333334166\n
out: .84147098480789650665\n
out: .19866933079506121545\n
out: .99749498660405443094\n
out: -.13235175009777302890\n
out: .13235175009777302890\n
out: .84141695037004482253\n
out: -.80393736857282209213\n
out: .00001229999999968985\n
out: -.26237485370392878591\n
err:

test: -l scale=0 | s(0) | s(1) | s(-1) | s(0.5) | s(-0.5) | s(2) | s(3.14159
cmd: bc -l
stdin: scale=0\n
stdin: s(0)\n
stdin: s(1)\n
stdin: s(-1)\n
stdin: s(0.5)\n
stdin: s(-0.5)\n
stdin: s(2)\n
stdin: s(3.14159)\n
stdin: s(10)\n
stdin: s(-7.25)\n
stdin: s(100)\n
stdin: s(0.001)\n
stdin: s(1)\n
stdin: s(.2)\n
stdin: s(1.5)\n
stdin: s(25)\n
stdin: s(-25)\n
stdin: s(0.9999)\n
stdin: s(123.456)\n
stdin: s(0.0000123)\n
stdin: s(50)\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 1\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
err:

test: -l scale=5 | s(0) | s(1) | s(-1) | s(0.5) | s(-0.5) | s(2) | s(3.14159
cmd: bc -l
stdin: scale=5\n
stdin: s(0)\n
stdin: s(1)\n
stdin: s(-1)\n
stdin: s(0.5)\n
stdin: s(-0.5)\n
stdin: s(2)\n
stdin: s(3.14159)\n
stdin: s(10)\n
stdin: s(-7.25)\n
stdin: s(100)\n
stdin: s(0.001)\n
stdin: s(1)\n
stdin: s(.2)\n
stdin: s(1.5)\n
stdin: s(25)\n
stdin: s(-25)\n
stdin: s(0.9999)\n
stdin: s(123.456)\n
stdin: s(0.0000123)\n
stdin: s(50)\n
out: 0\n
out: .84147\n
out: -.84147\n
out: .47942\n
out: -.47942\n
out: .90929\n
out: 0\n
out: -.54402\n
out: -.82308\n
out: -.50635\n
out: .00100\n
out: .84147\n
out: .19866\n
out: .99749\n
out: -.13234\n
out: .13234\n
out: .84141\n
out: -.80394\n
out: .00001\n
out: -.26237\n
err:

test: -l scale=10 | s(0) | s(1) | s(-1) | s(0.5) | s(-0.5) | s(2) | s(3.1415
cmd: bc -l
stdin: scale=10\n
stdin: s(0)\n
stdin: s(1)\n
stdin: s(-1)\n
stdin: s(0.5)\n
stdin: s(-0.5)\n
stdin: s(2)\n
stdin: s(3.14159)\n
stdin: s(10)\n
stdin: s(-7.25)\n
stdin: s(100)\n
stdin: s(0.001)\n
stdin: s(1)\n
stdin: s(.2)\n
stdin: s(1.5)\n
stdin: s(25)\n
stdin: s(-25)\n
stdin: s(0.9999)\n
stdin: s(123.456)\n
stdin: s(0.0000123)\n
stdin: s(50)\n
out: 0\n
out: .8414709848\n
out: -.8414709848\n
out: .4794255386\n
out: -.4794255386\n
out: .9092974268\n
out: .0000026535\n
out: -.5440211108\n
out: -.8230808790\n
out: -.5063656411\n
out: .0009999998\n
out: .8414709848\n
out: .1986693307\n
out: .9974949866\n
out: -.1323517500\n
out: .1323517500\n
out: .8414169503\n
out: -.8039373685\n
out: .0000123000\n
out: -.2623748537\n
err:

test: -l scale=30 | s(0) | s(1) | s(-1) | s(0.5) | s(-0.5) | s(2) | s(3.1415
cmd: bc -l
stdin: scale=30\n
stdin: s(0)\n
stdin: s(1)\n
stdin: s(-1)\n
stdin: s(0.5)\n
stdin: s(-0.5)\n
stdin: s(2)\n
stdin: s(3.14159)\n
stdin: s(10)\n
stdin: s(-7.25)\n
stdin: s(100)\n
stdin: s(0.001)\n
stdin: s(1)\n
stdin: s(.2)\n
stdin: s(1.5)\n
stdin: s(25)\n
stdin: s(-25)\n
stdin: s(0.9999)\n
stdin: s(123.456)\n
stdin: s(0.0000123)\n
stdin: s(50)\n
out: 0\n
out: .841470984807896506652502321630\n
out: -.841470984807896506652502321630\n
out: .479425538604203000273287935215\n
out: -.479425538604203000273287935215\n
out: .909297426825681695396019865911\n
out: .000002653589793235348417472629\n
out: -.544021110889369813404747661851\n
out: -.823080879011505458421671183412\n
out: -.506365641109758793656557610459\n
out: .000999999833333341666666468253\n
out: .841470984807896506652502321630\n
out: .198669330795061215459412627118\n
out: .997494986604054430941723371141\n
out: -.132351750097773028902005093883\n
out: .132351750097773028902005093883\n
out: .841416950370044822531675128331\n
out: -.803937368572822092132948794596\n
out: .000012299999999689855500002346\n
out: -.262374853703928785914393646912\n
err:

test: -l scale=50 | s(0) | s(1) | s(-1) | s(0.5) | s(-0.5) | s(2) | s(3.1415
cmd: bc -l
stdin: scale=50\n
stdin: s(0)\n
stdin: s(1)\n
stdin: s(-1)\n
stdin: s(0.5)\n
stdin: s(-0.5)\n
stdin: s(2)\n
stdin: s(3.14159)\n
stdin: s(10)\n
stdin: s(-7.25)\n
stdin: s(100)\n
stdin: s(0.001)\n
stdin: s(1)\n
stdin: s(.2)\n
stdin: s(1.5)\n
stdin: s(25)\n
stdin: s(-25)\n
stdin: s(0.9999)\n
stdin: s(123.456)\n
stdin: s(0.0000123)\n
stdin: s(50)\n
out: 0\n
out: .84147098480789650665250232163029899962256306079837\n
out: -.84147098480789650665250232163029899962256306079837\n
out: .47942553860420300027328793521557138808180336794060\n
out: -.47942553860420300027328793521557138808180336794060\n
out: .90929742682568169539601986591174484270225497144789\n
out: .00000265358979323534841747262980242114522253869903\n
out: -.54402111088936981340474766185137728168364301291622\n
out: -.82308087901150545842167118341205651571500884994261\n
out: -.50636564110975879365655761045978543206503272129065\n
out: .00099999983333334166666646825397100970015131473480\n
out: .84147098480789650665250232163029899962256306079837\n
out: .19866933079506121545941262711838975037020672954020\n
out: .99749498660405443094172337114148732270665142592211\n
out: -.13235175009777302890200509388360630148573493590645\n
out: .13235175009777302890200509388360630148573493590645\n
out: .84141695037004482253167512833199070202470970372818\n
out: -.80393736857282209213294879459684152827413220753916\n
out: .00001229999999968985550000234608807024154905561553\n
out: -.26237485370392878591439364691262254588666596497123\n
err:

test: -l scale=70 | s(0) | s(1) | s(-1) | s(0.5) | s(-0.5) | s(2) | s(3.1415
cmd: bc -l
stdin: scale=70\n
stdin: s(0)\n
stdin: s(1)\n
stdin: s(-1)\n
stdin: s(0.5)\n
stdin: s(-0.5)\n
stdin: s(2)\n
stdin: s(3.14159)\n
stdin: s(10)\n
stdin: s(-7.25)\n
stdin: s(100)\n
stdin: s(0.001)\n
stdin: s(1)\n
stdin: s(.2)\n
stdin: s(1.5)\n
stdin: s(25)\n
stdin: s(-25)\n
stdin: s(0.9999)\n
stdin: s(123.456)\n
stdin: s(0.0000123)\n
stdin: s(50)\n
out: 0\n
out: .8414709848078965066525023216302989996225630607983710656727517099919\\\n
out: 104\n
out: -.841470984807896506652502321630298999622563060798371065672751709991\\\n
out: 9104\n
out: .4794255386042030002732879352155713880818033679406006751886166131255\\\n
out: 350\n
out: -.479425538604203000273287935215571388081803367940600675188616613125\\\n
out: 5350\n
out: .9092974268256816953960198659117448427022549714478902683789730115309\\\n
out: 673\n
out: .0000026535897932353484174726298024211452225386990342360194784694447\\\n
out: 974\n
out: -.544021110889369813404747661851377281683643012916223891574184012616\\\n
out: 7572\n
out: -.823080879011505458421671183412056515715008849942610406981585153613\\\n
out: 2753\n
out: -.506365641109758793656557610459785432065032721290657323443392473594\\\n
out: 3579\n
out: .0009999998333333416666664682539710097001513147348086584190048145102\\\n
out: 714\n
out: .8414709848078965066525023216302989996225630607983710656727517099919\\\n
out: 104\n
out: .1986693307950612154594126271183897503702067295402054039863959913979\\\n
out: 707\n
out: .9974949866040544309417233711414873227066514259221158219499748240593\\\n
out: 452\n
out: -.132351750097773028902005093883606301485734935906451168584202085069\\\n
out: 2220\n
out: .1323517500977730289020050938836063014857349359064511685842020850692\\\n
out: 220\n
out: .8414169503700448225316751283319907020247097037281804093912149891590\\\n
out: 530\n
out: -.803937368572822092132948794596841528274132207539167867214435902761\\\n
out: 6933\n
out: .0000122999999996898555000023460880702415490556155386504040307194436\\\n
out: 568\n
out: -.262374853703928785914393646912622545886665964971238522943935592414\\\n
out: 4589\n
err:

test: -l c(0) | c(1) | c(-1) | c(0.5) | c(-0.5) | c(2) | c(3.14159) | c(10) 
cmd: bc -l
stdin: c(0)\n
stdin: c(1)\n
stdin: c(-1)\n
stdin: c(0.5)\n
stdin: c(-0.5)\n
stdin: c(2)\n
stdin: c(3.14159)\n
stdin: c(10)\n
stdin: c(-7.25)\n
stdin: c(100)\n
stdin: c(0.001)\n
stdin: c(1)\n
stdin: c(.2)\n
stdin: c(1.5)\n
stdin: c(25)\n
stdin: c(-25)\n
stdin: c(0.9999)\n
stdin: c(123.456)\n
stdin: c(0.0000123)\n
stdin: c(50)\n
out: 1.00000000000000000000\n
out: .54030230586813971740\n
out: .54030230586813971740\n
out: .87758256189037271611\n
out: .87758256189037271611\n
out: -.41614683654714238699\n
out: -.99999999999647923060\n
out: -.83907152907645245225\n
out: .56792417328869486442\n
out: .86231887228768393410\n
out: .99999950000004166666\n
out: .54030230586813971740\n
out: .98006657784124163112\n
out: .07073720166770291008\n
out: .99120281186347359808\n
out: .99120281186347359808\n
out: .54038645026496873479\n
out: -.59471397109215990362\n
out: .99999999992435500000\n
out: .96496602849211327406\n
err:

test: -l scale=0 | c(0) | c(1) | c(-1) | c(0.5) | c(-0.5) | c(2) | c(3.14159
cmd: bc -l
stdin: scale=0\n
stdin: c(0)\n
stdin: c(1)\n
stdin: c(-1)\n
stdin: c(0.5)\n
stdin: c(-0.5)\n
stdin: c(2)\n
stdin: c(3.14159)\n
stdin: c(10)\n
stdin: c(-7.25)\n
stdin: c(100)\n
stdin: c(0.001)\n
stdin: c(1)\n
stdin: c(.2)\n
stdin: c(1.5)\n
stdin: c(25)\n
stdin: c(-25)\n
stdin: c(0.9999)\n
stdin: c(123.456)\n
stdin: c(0.0000123)\n
stdin: c(50)\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 1\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
err:

test: -l scale=5 | c(0) | c(1) | c(-1) | c(0.5) | c(-0.5) | c(2) | c(3.14159
cmd: bc -l
stdin: scale=5\n
stdin: c(0)\n
stdin: c(1)\n
stdin: c(-1)\n
stdin: c(0.5)\n
stdin: c(-0.5)\n
stdin: c(2)\n
stdin: c(3.14159)\n
stdin: c(10)\n
stdin: c(-7.25)\n
stdin: c(100)\n
stdin: c(0.001)\n
stdin: c(1)\n
stdin: c(.2)\n
stdin: c(1.5)\n
stdin: c(25)\n
stdin: c(-25)\n
stdin: c(0.9999)\n
stdin: c(123.456)\n
stdin: c(0.0000123)\n
stdin: c(50)\n
out: 1.00000\n
out: .54030\n
out: .54030\n
out: .87758\n
out: .87758\n
out: -.41614\n
out: -.99999\n
out: -.83907\n
out: .56792\n
out: .86231\n
out: .99999\n
out: .54030\n
out: .98006\n
out: .07073\n
out: .99120\n
out: .99120\n
out: .54038\n
out: -.59471\n
out: 1.00000\n
out: .96496\n
err:

test: -l scale=10 | c(0) | c(1) | c(-1) | c(0.5) | c(-0.5) | c(2) | c(3.1415
cmd: bc -l
stdin: scale=10\n
stdin: c(0)\n
stdin: c(1)\n
stdin: c(-1)\n
stdin: c(0.5)\n
stdin: c(-0.5)\n
stdin: c(2)\n
stdin: c(3.14159)\n
stdin: c(10)\n
stdin: c(-7.25)\n
stdin: c(100)\n
stdin: c(0.001)\n
stdin: c(1)\n
stdin: c(.2)\n
stdin: c(1.5)\n
stdin: c(25)\n
stdin: c(-25)\n
stdin: c(0.9999)\n
stdin: c(123.456)\n
stdin: c(0.0000123)\n
stdin: c(50)\n
out: 1.0000000000\n
out: .5403023058\n
out: .5403023058\n
out: .8775825618\n
out: .8775825618\n
out: -.4161468365\n
out: -.9999999999\n
out: -.8390715290\n
out: .5679241732\n
out: .8623188722\n
out: .9999995000\n
out: .5403023058\n
out: .9800665778\n
out: .0707372016\n
out: .9912028118\n
out: .9912028118\n
out: .5403864502\n
out: -.5947139710\n
out: .9999999999\n
out: .9649660284\n
err:

test: -l scale=30 | c(0) | c(1) | c(-1) | c(0.5) | c(-0.5) | c(2) | c(3.1415
cmd: bc -l
stdin: scale=30\n
stdin: c(0)\n
stdin: c(1)\n
stdin: c(-1)\n
stdin: c(0.5)\n
stdin: c(-0.5)\n
stdin: c(2)\n
stdin: c(3.14159)\n
stdin: c(10)\n
stdin: c(-7.25)\n
stdin: c(100)\n
stdin: c(0.001)\n
stdin: c(1)\n
stdin: c(.2)\n
stdin: c(1.5)\n
stdin: c(25)\n
stdin: c(-25)\n
stdin: c(0.9999)\n
stdin: c(123.456)\n
stdin: c(0.0000123)\n
stdin: c(50)\n
out: 1.000000000000000000000000000000\n
out: .540302305868139717400936607442\n
out: .540302305868139717400936607442\n
out: .877582561890372716116281582603\n
out: .877582561890372716116281582603\n
out: -.416146836547142386997568229500\n
out: -.999999999996479230604612392508\n
out: -.839071529076452452258863947824\n
out: .567924173288694864423836348218\n
out: .862318872287683934101938513950\n
out: .999999500000041666665277777802\n
out: .540302305868139717400936607442\n
out: .980066577841241631124196516748\n
out: .070737201667702910088189851434\n
out: .991202811863473598083294718815\n
out: .991202811863473598083294718815\n
out: .540386450264968734798098350868\n
out: -.594713971092159903622096581715\n
out: .999999999924355000000953694337\n
out: .964966028492113274068957058901\n
err:

test: -l scale=50 | c(0) | c(1) | c(-1) | c(0.5) | c(-0.5) | c(2) | c(3.1415
cmd: bc -l
stdin: scale=50\n
stdin: c(0)\n
stdin: c(1)\n
stdin: c(-1)\n
stdin: c(0.5)\n
stdin: c(-0.5)\n
stdin: c(2)\n
stdin: c(3.14159)\n
stdin: c(10)\n
stdin: c(-7.25)\n
stdin: c(100)\n
stdin: c(0.001)\n
stdin: c(1)\n
stdin: c(.2)\n
stdin: c(1.5)\n
stdin: c(25)\n
stdin: c(-25)\n
stdin: c(0.9999)\n
stdin: c(123.456)\n
stdin: c(0.0000123)\n
stdin: c(50)\n
out: 1.00000000000000000000000000000000000000000000000000\n
out: .54030230586813971740093660744297660373231042061792\n
out: .54030230586813971740093660744297660373231042061792\n
out: .87758256189037271611628158260382965199164519710974\n
out: .87758256189037271611628158260382965199164519710974\n
out: -.41614683654714238699756822950076218976600077107554\n
out: -.99999999999647923060461239250850048325101828738865\n
out: -.83907152907645245225886394782406483451993016513316\n
out: .56792417328869486442383634821816129434454422080902\n
out: .86231887228768393410193851395084253551008400853551\n
out: .99999950000004166666527777780257936480379188921289\n
out: .54030230586813971740093660744297660373231042061792\n
out: .98006657784124163112419651674816887739352436080656\n
out: .07073720166770291008818985143426870908509102756334\n
out: .99120281186347359808329471881592419679513090873513\n
out: .99120281186347359808329471881592419679513090873513\n
out: .54038645026496873479809835086822742826306904596440\n
out: -.59471397109215990362209658171531554059707920742512\n
out: .99999999992435500000095369433749519051945600049332\n
out: .96496602849211327406895705890101699192041727537806\n
err:

test: -l scale=70 | c(0) | c(1) | c(-1) | c(0.5) | c(-0.5) | c(2) | c(3.1415
cmd: bc -l
stdin: scale=70\n
stdin: c(0)\n
stdin: c(1)\n
stdin: c(-1)\n
stdin: c(0.5)\n
stdin: c(-0.5)\n
stdin: c(2)\n
stdin: c(3.14159)\n
stdin: c(10)\n
stdin: c(-7.25)\n
stdin: c(100)\n
stdin: c(0.001)\n
stdin: c(1)\n
stdin: c(.2)\n
stdin: c(1.5)\n
stdin: c(25)\n
stdin: c(-25)\n
stdin: c(0.9999)\n
stdin: c(123.456)\n
stdin: c(0.0000123)\n
stdin: c(50)\n
out: 1.000000000000000000000000000000000000000000000000000000000000000000\\\n
out: 0000\n
out: .5403023058681397174009366074429766037323104206179222276700972553811\\\n
out: 003\n
out: .5403023058681397174009366074429766037323104206179222276700972553811\\\n
out: 003\n
out: .8775825618903727161162815826038296519916451971097440529976108683159\\\n
out: 507\n
out: .8775825618903727161162815826038296519916451971097440529976108683159\\\n
out: 507\n
out: -.416146836547142386997568229500762189766000771075544890755149973781\\\n
out: 9649\n
out: -.999999999996479230604612392508500483251018287388651227949581287911\\\n
out: 5796\n
out: -.839071529076452452258863947824064834519930165133168546835953731048\\\n
out: 7925\n
out: .5679241732886948644238363482181612943445442208090238273462539066190\\\n
out: 569\n
out: .8623188722876839341019385139508425355100840085355108292801621126927\\\n
out: 210\n
out: .9999995000000416666652777778025793648037918892128961458698562351112\\\n
out: 779\n
out: .5403023058681397174009366074429766037323104206179222276700972553811\\\n
out: 003\n
out: .9800665778412416311241965167481688773935243608065679940525482901261\\\n
out: 874\n
out: .0707372016677029100881898514342687090850910275633468694226454171909\\\n
out: 229\n
out: .9912028118634735980832947188159241967951309087351364928293557194058\\\n
out: 388\n
out: .9912028118634735980832947188159241967951309087351364928293557194058\\\n
out: 388\n
out: .5403864502649687347980983508682274282630690459644007090692886488498\\\n
out: 916\n
out: -.594713971092159903622096581715315540597079207425127016237443487522\\\n
out: 4893\n
out: .9999999999243550000009536943374951905194560004933269911147854494707\\\n
out: 815\n
out: .9649660284921132740689570589010169919204172753780617560878789966101\\\n
out: 056\n
err:

test: -l a(0) | a(1) | a(-1) | a(0.5) | a(-0.5) | a(2) | a(3.14159) | a(10) 
cmd: bc -l
stdin: a(0)\n
stdin: a(1)\n
stdin: a(-1)\n
stdin: a(0.5)\n
stdin: a(-0.5)\n
stdin: a(2)\n
stdin: a(3.14159)\n
stdin: a(10)\n
stdin: a(-7.25)\n
stdin: a(100)\n
stdin: a(0.001)\n
stdin: a(1)\n
stdin: a(.2)\n
stdin: a(1.5)\n
stdin: a(25)\n
stdin: a(-25)\n
stdin: a(0.9999)\n
stdin: a(123.456)\n
stdin: a(0.0000123)\n
stdin: a(50)\n
out: 0\n
out: .78539816339744830961\n
out: -.78539816339744830961\n
out: .46364760900080611621\n
out: -.46364760900080611621\n
out: 1.10714871779409050301\n
out: 1.26262701154934353115\n
out: 1.47112767430373459185\n
out: -1.43373015248470898664\n
out: 1.56079666010823138102\n
out: .00099999966666686666\n
out: .78539816339744830961\n
out: .19739555984988075837\n
out: .98279372324732906798\n
out: 1.53081763967160657781\n
out: -1.53081763967160657781\n
out: .78534816089736497628\n
out: 1.56269645209799264189\n
out: .00001229999999937971\n
out: 1.55079899282174608617\n
err:

test: -l scale=0 | a(0) | a(1) | a(-1) | a(0.5) | a(-0.5) | a(2) | a(3.14159
cmd: bc -l
stdin: scale=0\n
stdin: a(0)\n
stdin: a(1)\n
stdin: a(-1)\n
stdin: a(0.5)\n
stdin: a(-0.5)\n
stdin: a(2)\n
stdin: a(3.14159)\n
stdin: a(10)\n
stdin: a(-7.25)\n
stdin: a(100)\n
stdin: a(0.001)\n
stdin: a(1)\n
stdin: a(.2)\n
stdin: a(1.5)\n
stdin: a(25)\n
stdin: a(-25)\n
stdin: a(0.9999)\n
stdin: a(123.456)\n
stdin: a(0.0000123)\n
stdin: a(50)\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 1\n
out: 1\n
out: 1\n
out: -1\n
out: 1\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 1\n
out: -1\n
out: 0\n
out: 1\n
out: 0\n
out: 1\n
err:

test: -l scale=5 | a(0) | a(1) | a(-1) | a(0.5) | a(-0.5) | a(2) | a(3.14159
cmd: bc -l
stdin: scale=5\n
stdin: a(0)\n
stdin: a(1)\n
stdin: a(-1)\n
stdin: a(0.5)\n
stdin: a(-0.5)\n
stdin: a(2)\n
stdin: a(3.14159)\n
stdin: a(10)\n
stdin: a(-7.25)\n
stdin: a(100)\n
stdin: a(0.001)\n
stdin: a(1)\n
stdin: a(.2)\n
stdin: a(1.5)\n
stdin: a(25)\n
stdin: a(-25)\n
stdin: a(0.9999)\n
stdin: a(123.456)\n
stdin: a(0.0000123)\n
stdin: a(50)\n
out: 0\n
out: .78539\n
out: -.78539\n
out: .46364\n
out: -.46364\n
out: 1.10714\n
out: 1.26262\n
out: 1.47112\n
out: -1.43373\n
out: 1.56079\n
out: .00100\n
out: .78539\n
out: .19739\n
out: .98279\n
out: 1.53081\n
out: -1.53081\n
out: .78534\n
out: 1.56269\n
out: .00001\n
out: 1.55079\n
err:

test: -l scale=10 | a(0) | a(1) | a(-1) | a(0.5) | a(-0.5) | a(2) | a(3.1415
cmd: bc -l
stdin: scale=10\n
stdin: a(0)\n
stdin: a(1)\n
stdin: a(-1)\n
stdin: a(0.5)\n
stdin: a(-0.5)\n
stdin: a(2)\n
stdin: a(3.14159)\n
stdin: a(10)\n
stdin: a(-7.25)\n
stdin: a(100)\n
stdin: a(0.001)\n
stdin: a(1)\n
stdin: a(.2)\n
stdin: a(1.5)\n
stdin: a(25)\n
stdin: a(-25)\n
stdin: a(0.9999)\n
stdin: a(123.456)\n
stdin: a(0.0000123)\n
stdin: a(50)\n
out: 0\n
out: .7853981633\n
out: -.7853981633\n
out: .4636476090\n
out: -.4636476090\n
out: 1.1071487177\n
out: 1.2626270115\n
out: 1.4711276743\n
out: -1.4337301524\n
out: 1.5607966601\n
out: .0009999996\n
out: .7853981633\n
out: .1973955598\n
out: .9827937232\n
out: 1.5308176396\n
out: -1.5308176396\n
out: .7853481608\n
out: 1.5626964520\n
out: .0000123000\n
out: 1.5507989928\n
err:

test: -l scale=30 | a(0) | a(1) | a(-1) | a(0.5) | a(-0.5) | a(2) | a(3.1415
cmd: bc -l
stdin: scale=30\n
stdin: a(0)\n
stdin: a(1)\n
stdin: a(-1)\n
stdin: a(0.5)\n
stdin: a(-0.5)\n
stdin: a(2)\n
stdin: a(3.14159)\n
stdin: a(10)\n
stdin: a(-7.25)\n
stdin: a(100)\n
stdin: a(0.001)\n
stdin: a(1)\n
stdin: a(.2)\n
stdin: a(1.5)\n
stdin: a(25)\n
stdin: a(-25)\n
stdin: a(0.9999)\n
stdin: a(123.456)\n
stdin: a(0.0000123)\n
stdin: a(50)\n
out: 0\n
out: .785398163397448309615660845819\n
out: -.785398163397448309615660845819\n
out: .463647609000806116214256231461\n
out: -.463647609000806116214256231461\n
out: 1.107148717794090503017065460178\n
out: 1.262627011549343531159887111504\n
out: 1.471127674303734591852875571761\n
out: -1.433730152484708986640471909669\n
out: 1.560796660108231381024981575430\n
out: .000999999666666866666523809634\n
out: .785398163397448309615660845819\n
out: .197395559849880758370049765194\n
out: .982793723247329067985710611014\n
out: 1.530817639671606577817743842010\n
out: -1.530817639671606577817743842010\n
out: .785348160897364976282577533320\n
out: 1.562696452097992641892851578114\n
out: .000012299999999379711000056306\n
out: 1.550798992821746086170568494738\n
err:

test: -l scale=50 | a(0) | a(1) | a(-1) | a(0.5) | a(-0.5) | a(2) | a(3.1415
cmd: bc -l
stdin: scale=50\n
stdin: a(0)\n
stdin: a(1)\n
stdin: a(-1)\n
stdin: a(0.5)\n
stdin: a(-0.5)\n
stdin: a(2)\n
stdin: a(3.14159)\n
stdin: a(10)\n
stdin: a(-7.25)\n
stdin: a(100)\n
stdin: a(0.001)\n
stdin: a(1)\n
stdin: a(.2)\n
stdin: a(1.5)\n
stdin: a(25)\n
stdin: a(-25)\n
stdin: a(0.9999)\n
stdin: a(123.456)\n
stdin: a(0.0000123)\n
stdin: a(50)\n
out: 0\n
out: .78539816339744830961566084581987572104929234984377\n
out: -.78539816339744830961566084581987572104929234984377\n
out: .46364760900080611621425623146121440202853705428612\n
out: -.46364760900080611621425623146121440202853705428612\n
out: 1.10714871779409050301706546017853704007004764540143\n
out: 1.26262701154934353115988711150485912622400988579679\n
out: 1.47112767430373459185287557176173085185530637718323\n
out: -1.43373015248470898664047190966988736486097388935182\n
out: 1.56079666010823138102498157543047189353721534714317\n
out: .00099999966666686666652380963492054401162093455426\n
out: .78539816339744830961566084581987572104929234984377\n
out: .19739555984988075837004976519479029344758510378785\n
out: .98279372324732906798571061101466601449687745363162\n
out: 1.53081763967160657781774384201037603850156565249582\n
out: -1.53081763967160657781774384201037603850156565249582\n
out: .78534816089736497628257753332076857818867695796449\n
out: 1.56269645209799264189285157811445744619642639682043\n
out: .00001229999999937971100005630611367991532004389102\n
out: 1.55079899282174608617056849473815495414935150100104\n
err:

test: -l scale=70 | a(0) | a(1) | a(-1) | a(0.5) | a(-0.5) | a(2) | a(3.1415
cmd: bc -l
stdin: scale=70\n
stdin: a(0)\n
stdin: a(1)\n
stdin: a(-1)\n
stdin: a(0.5)\n
stdin: a(-0.5)\n
stdin: a(2)\n
stdin: a(3.14159)\n
stdin: a(10)\n
stdin: a(-7.25)\n
stdin: a(100)\n
stdin: a(0.001)\n
stdin: a(1)\n
stdin: a(.2)\n
stdin: a(1.5)\n
stdin: a(25)\n
stdin: a(-25)\n
stdin: a(0.9999)\n
stdin: a(123.456)\n
stdin: a(0.0000123)\n
stdin: a(50)\n
out: 0\n
out: .7853981633974483096156608458198757210492923498437764552437361480769\\\n
out: 541\n
out: -.785398163397448309615660845819875721049292349843776455243736148076\\\n
out: 9541\n
out: .4636476090008061162142562314612144020285370542861202638109330887201\\\n
out: 978\n
out: -.463647609000806116214256231461214402028537054286120263810933088720\\\n
out: 1978\n
out: 1.107148717794090503017065460178537040070047645401432646676539207433\\\n
out: 7103\n
out: 1.262627011549343531159887111504859126224009885796795041749621926536\\\n
out: 9670\n
out: 1.471127674303734591852875571761730851855306377183238262471963519343\\\n
out: 8804\n
out: -1.43373015248470898664047190966988736486097388935182381207249092267\\\n
out: 34648\n
out: 1.560796660108231381024981575430471893537215347143176270859532877957\\\n
out: 4516\n
out: .0009999996666668666665238096349205440116209345542680130914310481876\\\n
out: 454\n
out: .7853981633974483096156608458198757210492923498437764552437361480769\\\n
out: 541\n
out: .1973955598498807583700497651947902934475851037878521015176889402410\\\n
out: 339\n
out: .9827937232473290679857106110146660144968774536316285567614250883179\\\n
out: 880\n
out: 1.530817639671606577817743842010376038501565652495829422483164548597\\\n
out: 0330\n
out: -1.53081763967160657781774384201037603850156565249582942248316454859\\\n
out: 70330\n
out: .7853481608973649762825775333207685781886769579644925447699273486301\\\n
out: 335\n
out: 1.562696452097992641892851578114457446196426396820430706100989752052\\\n
out: 4681\n
out: .0000122999999993797110000563061136799153200438910271475738233617035\\\n
out: 444\n
out: 1.550798992821746086170568494738154954149351501001044426581577853354\\\n
out: 2992\n
err:

test: -l l(0) | l(1) | l(-1) | l(0.5) | l(-0.5) | l(2) | l(3.14159) | l(10) 
cmd: bc -l
stdin: l(0)\n
stdin: l(1)\n
stdin: l(-1)\n
stdin: l(0.5)\n
stdin: l(-0.5)\n
stdin: l(2)\n
stdin: l(3.14159)\n
stdin: l(10)\n
stdin: l(-7.25)\n
stdin: l(100)\n
stdin: l(0.001)\n
stdin: l(1)\n
stdin: l(.2)\n
stdin: l(1.5)\n
stdin: l(25)\n
stdin: l(-25)\n
stdin: l(0.9999)\n
stdin: l(123.456)\n
stdin: l(0.0000123)\n
stdin: l(50)\n
out: -99999999999999999999.00000000000000000000\n
out: 0\n
out: -99999999999999999999.00000000000000000000\n
out: -.69314718055994530941\n
out: -99999999999999999999.00000000000000000000\n
out: .69314718055994530941\n
out: 1.14472904118517838121\n
out: 2.30258509299404568401\n
out: -99999999999999999999.00000000000000000000\n
out: 4.60517018598809136803\n
out: -6.90775527898213705205\n
out: 0\n
out: -1.60943791243410037460\n
out: .40546510810816438197\n
out: 3.21887582486820074920\n
out: -99999999999999999999.00000000000000000000\n
out: -.00010000500033335833\n
out: 4.81588481728326388310\n
out: -11.30591129558590229286\n
out: 3.91202300542814605861\n
err:

test: -l scale=0 | l(0) | l(1) | l(-1) | l(0.5) | l(-0.5) | l(2) | l(3.14159
cmd: bc -l
stdin: scale=0\n
stdin: l(0)\n
stdin: l(1)\n
stdin: l(-1)\n
stdin: l(0.5)\n
stdin: l(-0.5)\n
stdin: l(2)\n
stdin: l(3.14159)\n
stdin: l(10)\n
stdin: l(-7.25)\n
stdin: l(100)\n
stdin: l(0.001)\n
stdin: l(1)\n
stdin: l(.2)\n
stdin: l(1.5)\n
stdin: l(25)\n
stdin: l(-25)\n
stdin: l(0.9999)\n
stdin: l(123.456)\n
stdin: l(0.0000123)\n
stdin: l(50)\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 1\n
out: 2\n
out: 0\n
out: 4\n
out: -6\n
out: 0\n
out: -1\n
out: 0\n
out: 3\n
out: 0\n
out: 0\n
out: 4\n
out: -11\n
out: 3\n
err:

test: -l scale=5 | l(0) | l(1) | l(-1) | l(0.5) | l(-0.5) | l(2) | l(3.14159
cmd: bc -l
stdin: scale=5\n
stdin: l(0)\n
stdin: l(1)\n
stdin: l(-1)\n
stdin: l(0.5)\n
stdin: l(-0.5)\n
stdin: l(2)\n
stdin: l(3.14159)\n
stdin: l(10)\n
stdin: l(-7.25)\n
stdin: l(100)\n
stdin: l(0.001)\n
stdin: l(1)\n
stdin: l(.2)\n
stdin: l(1.5)\n
stdin: l(25)\n
stdin: l(-25)\n
stdin: l(0.9999)\n
stdin: l(123.456)\n
stdin: l(0.0000123)\n
stdin: l(50)\n
out: -99999.00000\n
out: 0\n
out: -99999.00000\n
out: -.69314\n
out: -99999.00000\n
out: .69314\n
out: 1.14472\n
out: 2.30258\n
out: -99999.00000\n
out: 4.60517\n
out: -6.90775\n
out: 0\n
out: -1.60943\n
out: .40546\n
out: 3.21887\n
out: -99999.00000\n
out: -.00010\n
out: 4.81588\n
out: -11.30591\n
out: 3.91202\n
err:

test: -l scale=10 | l(0) | l(1) | l(-1) | l(0.5) | l(-0.5) | l(2) | l(3.1415
cmd: bc -l
stdin: scale=10\n
stdin: l(0)\n
stdin: l(1)\n
stdin: l(-1)\n
stdin: l(0.5)\n
stdin: l(-0.5)\n
stdin: l(2)\n
stdin: l(3.14159)\n
stdin: l(10)\n
stdin: l(-7.25)\n
stdin: l(100)\n
stdin: l(0.001)\n
stdin: l(1)\n
stdin: l(.2)\n
stdin: l(1.5)\n
stdin: l(25)\n
stdin: l(-25)\n
stdin: l(0.9999)\n
stdin: l(123.456)\n
stdin: l(0.0000123)\n
stdin: l(50)\n
out: -9999999999.0000000000\n
out: 0\n
out: -9999999999.0000000000\n
out: -.6931471805\n
out: -9999999999.0000000000\n
out: .6931471805\n
out: 1.1447290411\n
out: 2.3025850929\n
out: -9999999999.0000000000\n
out: 4.6051701859\n
out: -6.9077552789\n
out: 0\n
out: -1.6094379124\n
out: .4054651081\n
out: 3.2188758248\n
out: -9999999999.0000000000\n
out: -.0001000050\n
out: 4.8158848172\n
out: -11.3059112955\n
out: 3.9120230054\n
err:

test: -l scale=30 | l(0) | l(1) | l(-1) | l(0.5) | l(-0.5) | l(2) | l(3.1415
cmd: bc -l
stdin: scale=30\n
stdin: l(0)\n
stdin: l(1)\n
stdin: l(-1)\n
stdin: l(0.5)\n
stdin: l(-0.5)\n
stdin: l(2)\n
stdin: l(3.14159)\n
stdin: l(10)\n
stdin: l(-7.25)\n
stdin: l(100)\n
stdin: l(0.001)\n
stdin: l(1)\n
stdin: l(.2)\n
stdin: l(1.5)\n
stdin: l(25)\n
stdin: l(-25)\n
stdin: l(0.9999)\n
stdin: l(123.456)\n
stdin: l(0.0000123)\n
stdin: l(50)\n
out: -999999999999999999999999999999.000000000000000000000000000000\n
out: 0\n
out: -999999999999999999999999999999.000000000000000000000000000000\n
out: -.693147180559945309417232121458\n
out: -999999999999999999999999999999.000000000000000000000000000000\n
out: .693147180559945309417232121458\n
out: 1.144729041185178381216412580436\n
out: 2.302585092994045684017991454684\n
out: -999999999999999999999999999999.000000000000000000000000000000\n
out: 4.605170185988091368035982909368\n
out: -6.907755278982137052053974364053\n
out: 0\n
out: -1.609437912434100374600759333226\n
out: .405465108108164381978013115464\n
out: 3.218875824868200749201518666452\n
out: -999999999999999999999999999999.000000000000000000000000000000\n
out: -.000100005000333358335333500014\n
out: 4.815884817283263883109232105166\n
out: -11.305911295585902292863931572830\n
out: 3.912023005428146058618750787910\n
err:

test: -l scale=50 | l(0) | l(1) | l(-1) | l(0.5) | l(-0.5) | l(2) | l(3.1415
cmd: bc -l
stdin: scale=50\n
stdin: l(0)\n
stdin: l(1)\n
stdin: l(-1)\n
stdin: l(0.5)\n
stdin: l(-0.5)\n
stdin: l(2)\n
stdin: l(3.14159)\n
stdin: l(10)\n
stdin: l(-7.25)\n
stdin: l(100)\n
stdin: l(0.001)\n
stdin: l(1)\n
stdin: l(.2)\n
stdin: l(1.5)\n
stdin: l(25)\n
stdin: l(-25)\n
stdin: l(0.9999)\n
stdin: l(123.456)\n
stdin: l(0.0000123)\n
stdin: l(50)\n
out: -99999999999999999999999999999999999999999999999999.0000000000000000\\\n
out: 0000000000000000000000000000000000\n
out: 0\n
out: -99999999999999999999999999999999999999999999999999.0000000000000000\\\n
out: 0000000000000000000000000000000000\n
out: -.69314718055994530941723212145817656807550013436025\n
out: -99999999999999999999999999999999999999999999999999.0000000000000000\\\n
out: 0000000000000000000000000000000000\n
out: .69314718055994530941723212145817656807550013436025\n
out: 1.14472904118517838121641258043615945879059280834469\n
out: 2.30258509299404568401799145468436420760110148862877\n
out: -99999999999999999999999999999999999999999999999999.0000000000000000\\\n
out: 0000000000000000000000000000000000\n
out: 4.60517018598809136803598290936872841520220297725754\n
out: -6.90775527898213705205397436405309262280330446588631\n
out: 0\n
out: -1.60943791243410037460075933322618763952560135426851\n
out: .40546510810816438197801311546434913657199042346249\n
out: 3.21887582486820074920151866645237527905120270853703\n
out: -99999999999999999999999999999999999999999999999999.0000000000000000\\\n
out: 0000000000000000000000000000000000\n
out: -.00010000500033335833533350001428696439683539773457\n
out: 4.81588481728326388310923210516652557717215813550545\n
out: -11.30591129558590229286393157283061616018380939317935\n
out: 3.91202300542814605861875078791055184712670284289729\n
err:

test: -l scale=70 | l(0) | l(1) | l(-1) | l(0.5) | l(-0.5) | l(2) | l(3.1415
cmd: bc -l
stdin: scale=70\n
stdin: l(0)\n
stdin: l(1)\n
stdin: l(-1)\n
stdin: l(0.5)\n
stdin: l(-0.5)\n
stdin: l(2)\n
stdin: l(3.14159)\n
stdin: l(10)\n
stdin: l(-7.25)\n
stdin: l(100)\n
stdin: l(0.001)\n
stdin: l(1)\n
stdin: l(.2)\n
stdin: l(1.5)\n
stdin: l(25)\n
stdin: l(-25)\n
stdin: l(0.9999)\n
stdin: l(123.456)\n
stdin: l(0.0000123)\n
stdin: l(50)\n
out: -9999999999999999999999999999999999999999999999999999999999999999999\\\n
out: 999.0000000000000000000000000000000000000000000000000000000000000000\\\n
out: 000000\n
out: 0\n
out: -9999999999999999999999999999999999999999999999999999999999999999999\\\n
out: 999.0000000000000000000000000000000000000000000000000000000000000000\\\n
out: 000000\n
out: -.693147180559945309417232121458176568075500134360255254120680009493\\\n
out: 3936\n
out: -9999999999999999999999999999999999999999999999999999999999999999999\\\n
out: 999.0000000000000000000000000000000000000000000000000000000000000000\\\n
out: 000000\n
out: .6931471805599453094172321214581765680755001343602552541206800094933\\\n
out: 936\n
out: 1.144729041185178381216412580436159458790592808344690470287344115490\\\n
out: 0307\n
out: 2.302585092994045684017991454684364207601101488628772976033327900967\\\n
out: 5726\n
out: -9999999999999999999999999999999999999999999999999999999999999999999\\\n
out: 999.0000000000000000000000000000000000000000000000000000000000000000\\\n
out: 000000\n
out: 4.605170185988091368035982909368728415202202977257545952066655801935\\\n
out: 1452\n
out: -6.90775527898213705205397436405309262280330446588631892809998370290\\\n
out: 27178\n
out: 0\n
out: -1.60943791243410037460075933322618763952560135426851772191264789147\\\n
out: 41789\n
out: .4054651081081643819780131154643491365719904234624941976140143241441\\\n
out: 006\n
out: 3.218875824868200749201518666452375279051202708537035443825295782948\\\n
out: 3579\n
out: -9999999999999999999999999999999999999999999999999999999999999999999\\\n
out: 999.0000000000000000000000000000000000000000000000000000000000000000\\\n
out: 000000\n
out: -.000100005000333358335333500014286964396835397734571075514089865762\\\n
out: 7163\n
out: 4.815884817283263883109232105166525577172158135505457311796579542392\\\n
out: 1263\n
out: -11.3059112955859022928639315728306161601838093931793597468793380628\\\n
out: 755353\n
out: 3.912023005428146058618750787910551847126702842897290697945975792441\\\n
out: 7515\n
err:

test: -l e(0) | e(1) | e(-1) | e(0.5) | e(-0.5) | e(2) | e(3.14159) | e(10) 
cmd: bc -l
stdin: e(0)\n
stdin: e(1)\n
stdin: e(-1)\n
stdin: e(0.5)\n
stdin: e(-0.5)\n
stdin: e(2)\n
stdin: e(3.14159)\n
stdin: e(10)\n
stdin: e(-7.25)\n
stdin: e(100)\n
stdin: e(0.001)\n
stdin: e(1)\n
stdin: e(.2)\n
stdin: e(1.5)\n
stdin: e(25)\n
stdin: e(-25)\n
stdin: e(0.9999)\n
stdin: e(123.456)\n
stdin: e(0.0000123)\n
stdin: e(50)\n
out: 1.00000000000000000000\n
out: 2.71828182845904523536\n
out: .36787944117144232159\n
out: 1.64872127070012814684\n
out: .60653065971263342360\n
out: 7.38905609893065022723\n
out: 23.14063122695496316451\n
out: 22026.46579480671651695790\n
out: .00071017438884254906\n
out: 26881171418161354484126255515800135873611118.77374192241519160861\n
out: 1.00100050016670834166\n
out: 2.71828182845904523536\n
out: 1.22140275816016983392\n
out: 4.48168907033806482260\n
out: 72004899337.38587252416135146612\n
out: .00000000001388794386\n
out: 2.71801001386715543748\n
out: 413294435277809344957685441227343146614594393746575438.7252936901899\\\n
out: 4592938\n
out: 1.00001230007564531014\n
out: 5184705528587072464087.45332293348538482746\n
err:

test: -l scale=0 | e(0) | e(1) | e(-1) | e(0.5) | e(-0.5) | e(2) | e(3.14159
cmd: bc -l
stdin: scale=0\n
stdin: e(0)\n
stdin: e(1)\n
stdin: e(-1)\n
stdin: e(0.5)\n
stdin: e(-0.5)\n
stdin: e(2)\n
stdin: e(3.14159)\n
stdin: e(10)\n
stdin: e(-7.25)\n
stdin: e(100)\n
stdin: e(0.001)\n
stdin: e(1)\n
stdin: e(.2)\n
stdin: e(1.5)\n
stdin: e(25)\n
stdin: e(-25)\n
stdin: e(0.9999)\n
stdin: e(123.456)\n
stdin: e(0.0000123)\n
stdin: e(50)\n
out: 1\n
out: 2\n
out: 0\n
out: 1\n
out: 0\n
out: 7\n
out: 23\n
out: 22026\n
out: 0\n
out: 26881171418161354484126255515800135873611118\n
out: 1\n
out: 2\n
out: 1\n
out: 4\n
out: 72004899337\n
out: 0\n
out: 2\n
out: 413294435277809344957685441227343146614594393746575438\n
out: 1\n
out: 5184705528587072464087\n
err:

test: -l scale=5 | e(0) | e(1) | e(-1) | e(0.5) | e(-0.5) | e(2) | e(3.14159
cmd: bc -l
stdin: scale=5\n
stdin: e(0)\n
stdin: e(1)\n
stdin: e(-1)\n
stdin: e(0.5)\n
stdin: e(-0.5)\n
stdin: e(2)\n
stdin: e(3.14159)\n
stdin: e(10)\n
stdin: e(-7.25)\n
stdin: e(100)\n
stdin: e(0.001)\n
stdin: e(1)\n
stdin: e(.2)\n
stdin: e(1.5)\n
stdin: e(25)\n
stdin: e(-25)\n
stdin: e(0.9999)\n
stdin: e(123.456)\n
stdin: e(0.0000123)\n
stdin: e(50)\n
out: 1.00000\n
out: 2.71828\n
out: .36787\n
out: 1.64872\n
out: .60653\n
out: 7.38905\n
out: 23.14063\n
out: 22026.46579\n
out: .00071\n
out: 26881171418161354484126255515800135873611118.77374\n
out: 1.00100\n
out: 2.71828\n
out: 1.22140\n
out: 4.48168\n
out: 72004899337.38587\n
out: 0\n
out: 2.71801\n
out: 413294435277809344957685441227343146614594393746575438.72529\n
out: 1.00001\n
out: 5184705528587072464087.45332\n
err:

test: -l scale=10 | e(0) | e(1) | e(-1) | e(0.5) | e(-0.5) | e(2) | e(3.1415
cmd: bc -l
stdin: scale=10\n
stdin: e(0)\n
stdin: e(1)\n
stdin: e(-1)\n
stdin: e(0.5)\n
stdin: e(-0.5)\n
stdin: e(2)\n
stdin: e(3.14159)\n
stdin: e(10)\n
stdin: e(-7.25)\n
stdin: e(100)\n
stdin: e(0.001)\n
stdin: e(1)\n
stdin: e(.2)\n
stdin: e(1.5)\n
stdin: e(25)\n
stdin: e(-25)\n
stdin: e(0.9999)\n
stdin: e(123.456)\n
stdin: e(0.0000123)\n
stdin: e(50)\n
out: 1.0000000000\n
out: 2.7182818284\n
out: .3678794411\n
out: 1.6487212707\n
out: .6065306597\n
out: 7.3890560989\n
out: 23.1406312269\n
out: 22026.4657948067\n
out: .0007101743\n
out: 26881171418161354484126255515800135873611118.7737419224\n
out: 1.0010005001\n
out: 2.7182818284\n
out: 1.2214027581\n
out: 4.4816890703\n
out: 72004899337.3858725241\n
out: 0\n
out: 2.7180100138\n
out: 413294435277809344957685441227343146614594393746575438.7252936901\n
out: 1.0000123000\n
out: 5184705528587072464087.4533229334\n
err:

test: -l scale=30 | e(0) | e(1) | e(-1) | e(0.5) | e(-0.5) | e(2) | e(3.1415
cmd: bc -l
stdin: scale=30\n
stdin: e(0)\n
stdin: e(1)\n
stdin: e(-1)\n
stdin: e(0.5)\n
stdin: e(-0.5)\n
stdin: e(2)\n
stdin: e(3.14159)\n
stdin: e(10)\n
stdin: e(-7.25)\n
stdin: e(100)\n
stdin: e(0.001)\n
stdin: e(1)\n
stdin: e(.2)\n
stdin: e(1.5)\n
stdin: e(25)\n
stdin: e(-25)\n
stdin: e(0.9999)\n
stdin: e(123.456)\n
stdin: e(0.0000123)\n
stdin: e(50)\n
out: 1.000000000000000000000000000000\n
out: 2.718281828459045235360287471352\n
out: .367879441171442321595523770161\n
out: 1.648721270700128146848650787814\n
out: .606530659712633423603799534991\n
out: 7.389056098930650227230427460575\n
out: 23.140631226954963164517207589887\n
out: 22026.465794806716516957900645284244\n
out: .000710174388842549063584600370\n
out: 26881171418161354484126255515800135873611118.77374192241519160861528\\\n
out: 0287034\n
out: 1.001000500166708341668055753993\n
out: 2.718281828459045235360287471352\n
out: 1.221402758160169833921071994639\n
out: 4.481689070338064822602055460119\n
out: 72004899337.385872524161351466126157915223\n
out: .000000000013887943864964020594\n
out: 2.718010013867155437486515544070\n
out: 413294435277809344957685441227343146614594393746575438.7252936901899\\\n
out: 45929385357380514\n
out: 1.000012300075645310145453696683\n
out: 5184705528587072464087.453322933485384827469100583846\n
err:

test: -l scale=50 | e(0) | e(1) | e(-1) | e(0.5) | e(-0.5) | e(2) | e(3.1415
cmd: bc -l
stdin: scale=50\n
stdin: e(0)\n
stdin: e(1)\n
stdin: e(-1)\n
stdin: e(0.5)\n
stdin: e(-0.5)\n
stdin: e(2)\n
stdin: e(3.14159)\n
stdin: e(10)\n
stdin: e(-7.25)\n
stdin: e(100)\n
stdin: e(0.001)\n
stdin: e(1)\n
stdin: e(.2)\n
stdin: e(1.5)\n
stdin: e(25)\n
stdin: e(-25)\n
stdin: e(0.9999)\n
stdin: e(123.456)\n
stdin: e(0.0000123)\n
stdin: e(50)\n
out: 1.00000000000000000000000000000000000000000000000000\n
out: 2.71828182845904523536028747135266249775724709369995\n
out: .36787944117144232159552377016146086744581113103176\n
out: 1.64872127070012814684865078781416357165377610071014\n
out: .60653065971263342360379953499118045344191813548718\n
out: 7.38905609893065022723042746057500781318031557055184\n
out: 23.14063122695496316451720758988798576101743325692171\n
out: 22026.46579480671651695790064528424436635351261855678107\n
out: .00071017438884254906358460037057754440867630238736\n
out: 26881171418161354484126255515800135873611118.77374192241519160861528\\\n
out: 028703490956491415887109721\n
out: 1.00100050016670834166805575399305831156307620058070\n
out: 2.71828182845904523536028747135266249775724709369995\n
out: 1.22140275816016983392107199463967417030758094152050\n
out: 4.48168907033806482260205546011927581900574986836966\n
out: 72004899337.38587252416135146612615791522353381339527873622138\n
out: .00000000001388794386496402059466176374608685691039\n
out: 2.71801001386715543748651554407005892885005659908741\n
out: 413294435277809344957685441227343146614594393746575438.7252936901899\\\n
out: 4592938535738051473640418167083102525\n
out: 1.00001230007564531014545369668359287973899496987782\n
out: 5184705528587072464087.453322933485384827469100583846401904056933806\\\n
out: 85688\n
err:

test: -l scale=70 | e(0) | e(1) | e(-1) | e(0.5) | e(-0.5) | e(2) | e(3.1415
cmd: bc -l
stdin: scale=70\n
stdin: e(0)\n
stdin: e(1)\n
stdin: e(-1)\n
stdin: e(0.5)\n
stdin: e(-0.5)\n
stdin: e(2)\n
stdin: e(3.14159)\n
stdin: e(10)\n
stdin: e(-7.25)\n
stdin: e(100)\n
stdin: e(0.001)\n
stdin: e(1)\n
stdin: e(.2)\n
stdin: e(1.5)\n
stdin: e(25)\n
stdin: e(-25)\n
stdin: e(0.9999)\n
stdin: e(123.456)\n
stdin: e(0.0000123)\n
stdin: e(50)\n
out: 1.000000000000000000000000000000000000000000000000000000000000000000\\\n
out: 0000\n
out: 2.718281828459045235360287471352662497757247093699959574966967627724\\\n
out: 0766\n
out: .3678794411714423215955237701614608674458111310317678345078368016974\\\n
out: 614\n
out: 1.648721270700128146848650787814163571653776100710148011575079311640\\\n
out: 6610\n
out: .6065306597126334236037995349911804534419181354871869556828921587350\\\n
out: 565\n
out: 7.389056098930650227230427460575007813180315570551847324087127822522\\\n
out: 5737\n
out: 23.14063122695496316451720758988798576101743325692171674651287614695\\\n
out: 46141\n
out: 22026.46579480671651695790064528424436635351261855678107423542635522\\\n
out: 52028185\n
out: .0007101743888425490635846003705775444086763023873618958855644522887\\\n
out: 464\n
out: 26881171418161354484126255515800135873611118.77374192241519160861528\\\n
out: 02870349095649141588710972198457108116708791905\n
out: 1.001000500166708341668055753993058311563076200580701460228514674460\\\n
out: 3597\n
out: 2.718281828459045235360287471352662497757247093699959574966967627724\\\n
out: 0766\n
out: 1.221402758160169833921071994639674170307580941520503641273425098599\\\n
out: 2062\n
out: 4.481689070338064822602055460119275819005749868369667056772650082785\\\n
out: 9366\n
out: 72004899337.38587252416135146612615791522353381339527873622138644723\\\n
out: 20593107782569\n
out: .0000000000138879438649640205946617637460868569103997603802050555835\\\n
out: 477\n
out: 2.718010013867155437486515544070058928850056599087412868800210730995\\\n
out: 3190\n
out: 413294435277809344957685441227343146614594393746575438.7252936901899\\\n
out: 459293853573805147364041816708310252563525653328959096493\n
out: 1.000012300075645310145453696683592879738994969877823855848214068819\\\n
out: 0938\n
out: 5184705528587072464087.453322933485384827469100583846401904056933806\\\n
out: 8568847937953984800903887\n
err:

test: -l j(0,0) | j(0,1) | j(0,2.5) | j(0,-3) | j(0,10) | j(0,0.1) | j(1,0) 
cmd: bc -l
stdin: j(0,0)\n
stdin: j(0,1)\n
stdin: j(0,2.5)\n
stdin: j(0,-3)\n
stdin: j(0,10)\n
stdin: j(0,0.1)\n
stdin: j(1,0)\n
stdin: j(1,1)\n
stdin: j(1,2.5)\n
stdin: j(1,-3)\n
stdin: j(1,10)\n
stdin: j(1,0.1)\n
stdin: j(2,0)\n
stdin: j(2,1)\n
stdin: j(2,2.5)\n
stdin: j(2,-3)\n
stdin: j(2,10)\n
stdin: j(2,0.1)\n
stdin: j(3,0)\n
stdin: j(3,1)\n
stdin: j(3,2.5)\n
stdin: j(3,-3)\n
stdin: j(3,10)\n
stdin: j(3,0.1)\n
stdin: j(-1,0)\n
stdin: j(-1,1)\n
stdin: j(-1,2.5)\n
stdin: j(-1,-3)\n
stdin: j(-1,10)\n
stdin: j(-1,0.1)\n
stdin: j(-2,0)\n
stdin: j(-2,1)\n
stdin: j(-2,2.5)\n
stdin: j(-2,-3)\n
stdin: j(-2,10)\n
stdin: j(-2,0.1)\n
stdin: j(5,0)\n
stdin: j(5,1)\n
stdin: j(5,2.5)\n
stdin: j(5,-3)\n
stdin: j(5,10)\n
stdin: j(5,0.1)\n
stdin: j(10,0)\n
stdin: j(10,1)\n
stdin: j(10,2.5)\n
stdin: j(10,-3)\n
stdin: j(10,10)\n
stdin: j(10,0.1)\n
out: 1.00000000000000000000\n
out: .76519768655796655144\n
out: -.04838377646819799632\n
out: -.26005195490193343762\n
out: -.24593576445134833519\n
out: .99750156206604003228\n
out: 0\n
out: .44005058574493351595\n
out: .49709410246427403801\n
out: -.33905895852593645892\n
out: .04347274616886143666\n
out: .04993752603624199755\n
out: 0\n
out: .11490348493190048046\n
out: .44605905843961722673\n
out: .48609126058589107690\n
out: .25463031368512062253\n
out: .00124895865879991884\n
out: 0\n
out: .01956335398266840591\n
out: .21660039103911352476\n
out: -.30906272225525164361\n
out: .05837937930518681234\n
out: .00002082031575475626\n
out: 0\n
out: -.44005058574493351595\n
out: -.49709410246427403801\n
out: .33905895852593645892\n
out: -.04347274616886143666\n
out: -.04993752603624199755\n
out: 0\n
out: .11490348493190048046\n
out: .44605905843961722673\n
out: .48609126058589107690\n
out: .25463031368512062253\n
out: .00124895865879991884\n
out: 0\n
out: .00024975773021123443\n
out: .01950162513450321988\n
out: -.04302843487704758392\n
out: -.23406152818679364044\n
out: .00000000260308179096\n
out: 0\n
out: .00000000026306151236\n
out: .00000222472841739838\n
out: .00001292835164571588\n
out: .20748610663335885769\n
out: .00000000000000000002\n
err:

test: -l scale=0 | j(0,0) | j(0,1) | j(0,2.5) | j(0,-3) | j(0,10) | j(0,0.1)
cmd: bc -l
stdin: scale=0\n
stdin: j(0,0)\n
stdin: j(0,1)\n
stdin: j(0,2.5)\n
stdin: j(0,-3)\n
stdin: j(0,10)\n
stdin: j(0,0.1)\n
stdin: j(1,0)\n
stdin: j(1,1)\n
stdin: j(1,2.5)\n
stdin: j(1,-3)\n
stdin: j(1,10)\n
stdin: j(1,0.1)\n
stdin: j(2,0)\n
stdin: j(2,1)\n
stdin: j(2,2.5)\n
stdin: j(2,-3)\n
stdin: j(2,10)\n
stdin: j(2,0.1)\n
stdin: j(3,0)\n
stdin: j(3,1)\n
stdin: j(3,2.5)\n
stdin: j(3,-3)\n
stdin: j(3,10)\n
stdin: j(3,0.1)\n
stdin: j(-1,0)\n
stdin: j(-1,1)\n
stdin: j(-1,2.5)\n
stdin: j(-1,-3)\n
stdin: j(-1,10)\n
stdin: j(-1,0.1)\n
stdin: j(-2,0)\n
stdin: j(-2,1)\n
stdin: j(-2,2.5)\n
stdin: j(-2,-3)\n
stdin: j(-2,10)\n
stdin: j(-2,0.1)\n
stdin: j(5,0)\n
stdin: j(5,1)\n
stdin: j(5,2.5)\n
stdin: j(5,-3)\n
stdin: j(5,10)\n
stdin: j(5,0.1)\n
stdin: j(10,0)\n
stdin: j(10,1)\n
stdin: j(10,2.5)\n
stdin: j(10,-3)\n
stdin: j(10,10)\n
stdin: j(10,0.1)\n
out: 1\n
out: 1\n
out: 0\n
out: 0\n
out: 0\n
out: 1\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
err:

test: -l scale=5 | j(0,0) | j(0,1) | j(0,2.5) | j(0,-3) | j(0,10) | j(0,0.1)
cmd: bc -l
stdin: scale=5\n
stdin: j(0,0)\n
stdin: j(0,1)\n
stdin: j(0,2.5)\n
stdin: j(0,-3)\n
stdin: j(0,10)\n
stdin: j(0,0.1)\n
stdin: j(1,0)\n
stdin: j(1,1)\n
stdin: j(1,2.5)\n
stdin: j(1,-3)\n
stdin: j(1,10)\n
stdin: j(1,0.1)\n
stdin: j(2,0)\n
stdin: j(2,1)\n
stdin: j(2,2.5)\n
stdin: j(2,-3)\n
stdin: j(2,10)\n
stdin: j(2,0.1)\n
stdin: j(3,0)\n
stdin: j(3,1)\n
stdin: j(3,2.5)\n
stdin: j(3,-3)\n
stdin: j(3,10)\n
stdin: j(3,0.1)\n
stdin: j(-1,0)\n
stdin: j(-1,1)\n
stdin: j(-1,2.5)\n
stdin: j(-1,-3)\n
stdin: j(-1,10)\n
stdin: j(-1,0.1)\n
stdin: j(-2,0)\n
stdin: j(-2,1)\n
stdin: j(-2,2.5)\n
stdin: j(-2,-3)\n
stdin: j(-2,10)\n
stdin: j(-2,0.1)\n
stdin: j(5,0)\n
stdin: j(5,1)\n
stdin: j(5,2.5)\n
stdin: j(5,-3)\n
stdin: j(5,10)\n
stdin: j(5,0.1)\n
stdin: j(10,0)\n
stdin: j(10,1)\n
stdin: j(10,2.5)\n
stdin: j(10,-3)\n
stdin: j(10,10)\n
stdin: j(10,0.1)\n
out: 1.00000\n
out: .76519\n
out: -.04838\n
out: -.26005\n
out: -.24593\n
out: .99750\n
out: 0\n
out: .44005\n
out: .49709\n
out: -.33905\n
out: .04347\n
out: .04993\n
out: 0\n
out: .11490\n
out: .44605\n
out: .48609\n
out: .25463\n
out: .00124\n
out: 0\n
out: .01956\n
out: .21660\n
out: -.30906\n
out: .05837\n
out: .00002\n
out: 0\n
out: -.44005\n
out: -.49709\n
out: .33905\n
out: -.04347\n
out: -.04993\n
out: 0\n
out: .11490\n
out: .44605\n
out: .48609\n
out: .25463\n
out: .00124\n
out: 0\n
out: .00024\n
out: .01950\n
out: -.04302\n
out: -.23406\n
out: 0\n
out: 0\n
out: 0\n
out: 0\n
out: .00001\n
out: .20748\n
out: 0\n
err:

test: -l scale=25 | j(0,0) | j(0,1) | j(0,2.5) | j(0,-3) | j(0,10) | j(0,0.1
cmd: bc -l
stdin: scale=25\n
stdin: j(0,0)\n
stdin: j(0,1)\n
stdin: j(0,2.5)\n
stdin: j(0,-3)\n
stdin: j(0,10)\n
stdin: j(0,0.1)\n
stdin: j(1,0)\n
stdin: j(1,1)\n
stdin: j(1,2.5)\n
stdin: j(1,-3)\n
stdin: j(1,10)\n
stdin: j(1,0.1)\n
stdin: j(2,0)\n
stdin: j(2,1)\n
stdin: j(2,2.5)\n
stdin: j(2,-3)\n
stdin: j(2,10)\n
stdin: j(2,0.1)\n
stdin: j(3,0)\n
stdin: j(3,1)\n
stdin: j(3,2.5)\n
stdin: j(3,-3)\n
stdin: j(3,10)\n
stdin: j(3,0.1)\n
stdin: j(-1,0)\n
stdin: j(-1,1)\n
stdin: j(-1,2.5)\n
stdin: j(-1,-3)\n
stdin: j(-1,10)\n
stdin: j(-1,0.1)\n
stdin: j(-2,0)\n
stdin: j(-2,1)\n
stdin: j(-2,2.5)\n
stdin: j(-2,-3)\n
stdin: j(-2,10)\n
stdin: j(-2,0.1)\n
stdin: j(5,0)\n
stdin: j(5,1)\n
stdin: j(5,2.5)\n
stdin: j(5,-3)\n
stdin: j(5,10)\n
stdin: j(5,0.1)\n
stdin: j(10,0)\n
stdin: j(10,1)\n
stdin: j(10,2.5)\n
stdin: j(10,-3)\n
stdin: j(10,10)\n
stdin: j(10,0.1)\n
out: 1.0000000000000000000000000\n
out: .7651976865579665514497175\n
out: -.0483837764681979963272877\n
out: -.2600519549019334376241546\n
out: -.2459357644513483351977608\n
out: .9975015620660400322812868\n
out: 0\n
out: .4400505857449335159596822\n
out: .4970941024642740380108162\n
out: -.3390589585259364589255145\n
out: .0434727461688614366697487\n
out: .0499375260362419975563365\n
out: 0\n
out: .1149034849319004804696468\n
out: .4460590584396172267359407\n
out: .4860912605858910769078310\n
out: .2546303136851206225317106\n
out: .0012489586587999188454441\n
out: 0\n
out: .0195633539826684059189053\n
out: .2166003910391135247666890\n
out: -.3090627222552516436182601\n
out: .0583793793051868123429354\n
out: .0000208203157547562614294\n
out: 0\n
out: -.4400505857449335159596822\n
out: -.4970941024642740380108162\n
out: .3390589585259364589255145\n
out: -.0434727461688614366697487\n
out: -.0499375260362419975563365\n
out: 0\n
out: .1149034849319004804696468\n
out: .4460590584396172267359407\n
out: .4860912605858910769078310\n
out: .2546303136851206225317106\n
out: .0012489586587999188454441\n
out: 0\n
out: .0002497577302112344313750\n
out: .0195016251345032198864719\n
out: -.0430284348770475839249112\n
out: -.2340615281867936404436949\n
out: .0000000026030817909644408\n
out: 0\n
out: .0000000002630615123687453\n
out: .0000022247284173983832947\n
out: .0000129283516457158837775\n
out: .2074861066333588576972787\n
out: .0000000000000000000269053\n
err:

test: -l scale=45 | j(0,0) | j(0,1) | j(0,2.5) | j(0,-3) | j(0,10) | j(0,0.1
cmd: bc -l
stdin: scale=45\n
stdin: j(0,0)\n
stdin: j(0,1)\n
stdin: j(0,2.5)\n
stdin: j(0,-3)\n
stdin: j(0,10)\n
stdin: j(0,0.1)\n
stdin: j(1,0)\n
stdin: j(1,1)\n
stdin: j(1,2.5)\n
stdin: j(1,-3)\n
stdin: j(1,10)\n
stdin: j(1,0.1)\n
stdin: j(2,0)\n
stdin: j(2,1)\n
stdin: j(2,2.5)\n
stdin: j(2,-3)\n
stdin: j(2,10)\n
stdin: j(2,0.1)\n
stdin: j(3,0)\n
stdin: j(3,1)\n
stdin: j(3,2.5)\n
stdin: j(3,-3)\n
stdin: j(3,10)\n
stdin: j(3,0.1)\n
stdin: j(-1,0)\n
stdin: j(-1,1)\n
stdin: j(-1,2.5)\n
stdin: j(-1,-3)\n
stdin: j(-1,10)\n
stdin: j(-1,0.1)\n
stdin: j(-2,0)\n
stdin: j(-2,1)\n
stdin: j(-2,2.5)\n
stdin: j(-2,-3)\n
stdin: j(-2,10)\n
stdin: j(-2,0.1)\n
stdin: j(5,0)\n
stdin: j(5,1)\n
stdin: j(5,2.5)\n
stdin: j(5,-3)\n
stdin: j(5,10)\n
stdin: j(5,0.1)\n
stdin: j(10,0)\n
stdin: j(10,1)\n
stdin: j(10,2.5)\n
stdin: j(10,-3)\n
stdin: j(10,10)\n
stdin: j(10,0.1)\n
out: 1.000000000000000000000000000000000000000000000\n
out: .765197686557966551449717526102663220909274289\n
out: -.048383776468197996327287778851203433631811020\n
out: -.260051954901933437624154695977331436819608653\n
out: -.245935764451348335197760862485328753829600072\n
out: .997501562066040032281286898474792084832008232\n
out: 0\n
out: .440050585744933515959682203718914913127372301\n
out: .497094102464274038010816276264422242521234969\n
out: -.339058958525936458925514597206478896973080418\n
out: .043472746168861436669748768025859288306272867\n
out: .049937526036241997556336552437806484058561354\n
out: 0\n
out: .114903484931900480469646881335166605345470314\n
out: .446059058439617226735940799862741227648798995\n
out: .486091260585891076907831094114984034801662265\n
out: .254630313685120622531710616090500611490854646\n
out: .001248958658799918845444150281337596339218850\n
out: 0\n
out: .019563353982668405918905321621751508254508954\n
out: .216600391039113524766689003515963721716843423\n
out: -.309062722255251643618260194946833149429135935\n
out: .058379379305186812342935478410340956290068991\n
out: .000020820315754756261429458815697369510192651\n
out: 0\n
out: -.440050585744933515959682203718914913127372301\n
out: -.497094102464274038010816276264422242521234969\n
out: .339058958525936458925514597206478896973080418\n
out: -.043472746168861436669748768025859288306272867\n
out: -.049937526036241997556336552437806484058561354\n
out: 0\n
out: .114903484931900480469646881335166605345470314\n
out: .446059058439617226735940799862741227648798995\n
out: .486091260585891076907831094114984034801662265\n
out: .254630313685120622531710616090500611490854646\n
out: .001248958658799918845444150281337596339218850\n
out: 0\n
out: .000249757730211234431375065540988045198158367\n
out: .019501625134503219886471983925865732592357283\n
out: -.043028434877047583924911260462986221388489680\n
out: -.234061528186793640443694941645777786463519592\n
out: .000000002603081790964440834024668572277027674\n
out: 0\n
out: .000000000263061512368745320699785368779050294\n
out: .000002224728417398383294768957067720842707270\n
out: .000012928351645715883777534530802580170743420\n
out: .207486106633358857697278723518753428032744611\n
out: .000000000000000000026905328954342155794926134\n
err:

test: -l scale=100; 4*a(1)
cmd: bc -l
stdin: scale=100; 4*a(1)\n
out: 3.141592653589793238462643383279502884197169399375105820974944592307\\\n
out: 8164062862089986280348253421170676\n
err:

test: -l scale=200; e(1)
cmd: bc -l
stdin: scale=200; e(1)\n
out: 2.718281828459045235360287471352662497757247093699959574966967627724\\\n
out: 07663035354759457138217852516642742746639193200305992181741359662904\\\n
out: 357290033429526059563073813232862794349076323382988075319525101901\n
err:

test: -l scale=60; l(10)
cmd: bc -l
stdin: scale=60; l(10)\n
out: 2.302585092994045684017991454684364207601101488628772976033327\n
err:

test: -l ibase=16; e(1); l(2); a(1); s(1); c(1); j(2,3)
cmd: bc -l
stdin: ibase=16; e(1); l(2); a(1); s(1); c(1); j(2,3)\n
out: 2.71828182845904523536\n
out: .69314718055994530941\n
out: .78539816339744830961\n
out: .84147098480789650665\n
out: .54030230586813971740\n
out: .48609126058589107690\n
err:

test: -l obase=16; e(1)
cmd: bc -l
stdin: obase=16; e(1)\n
out: 2.B7E151628AED2A6AB\n
err:

test: -l scale=5; e(-10); e(20); e(100)
cmd: bc -l
stdin: scale=5; e(-10); e(20); e(100)\n
out: .00004\n
out: 485165195.40979\n
out: 26881171418161354484126255515800135873611118.77374\n
err:

test: -l l(0); l(-1); l(1)
cmd: bc -l
stdin: l(0); l(-1); l(1)\n
out: -99999999999999999999.00000000000000000000\n
out: -99999999999999999999.00000000000000000000\n
out: 0\n
err:

test: -l scale=3; s(100); c(100); a(100); a(-100)
cmd: bc -l
stdin: scale=3; s(100); c(100); a(100); a(-100)\n
out: -.505\n
out: .862\n
out: 1.560\n
out: -1.560\n
err:

test: -l x = a(1); scale = 10; x
cmd: bc -l
stdin: x = a(1); scale = 10; x\n
out: .78539816339744830961\n
err:

test: -l scale=25; a(1); a(.2); scale=40; a(1); a(.2); scale=60; a(1); a(.2)
cmd: bc -l
stdin: scale=25; a(1); a(.2); scale=40; a(1); a(.2); scale=60; a(1); a(.2); scale=61; a(1); a(.2)\n
out: .7853981633974483096156608\n
out: .1973955598498807583700497\n
out: .7853981633974483096156608458198757210492\n
out: .1973955598498807583700497651947902934475\n
out: .785398163397448309615660845819875721049292349843776455243736\n
out: .197395559849880758370049765194790293447585103787852101517688\n
out: .7853981633974483096156608458198757210492923498437764552437361\n
out: .1973955598498807583700497651947902934475851037878521015176889\n
err:

test: -l s(10)
cmd: bc -l
stdin: s(10)\n
out: -.54402111088936981340\n
err:

test: -l scale=0; s(1); c(1); e(1); l(10)
cmd: bc -l
stdin: scale=0; s(1); c(1); e(1); l(10)\n
out: 0\n
out: 0\n
out: 2\n
out: 2\n
err:

test: -l sqrt(2)
cmd: bc -l
stdin: sqrt(2)\n
out: 1.41421356237309504880\n
err:

test: -l scale=50; sqrt(2); sqrt(1000000); sqrt(0.5)
cmd: bc -l
stdin: scale=50; sqrt(2); sqrt(1000000); sqrt(0.5)\n
out: 1.41421356237309504880168872420969807856967187537694\n
out: 1000.00000000000000000000000000000000000000000000000000\n
out: .70710678118654752440084436210484903928483593768847\n
err:

# ---- options and files --------------------------------------------------------
test: -i 1+1
cmd: bc -i
stdin: 1+1\n
out: bc 1.07.1\n
out: Copyright 1991-1994, 1997, 1998, 2000, 2004, 2006, 2008, 2012-2017 Free Software Foundation, Inc.\n
out: This is free software with ABSOLUTELY NO WARRANTY.\n
out: For details type `warranty'. \n
out: 1+1\n
out: 2\n
err:

test: -iq 1+1 | x=2 | x
cmd: bc -iq
stdin: 1+1\n
stdin: x=2\n
stdin: x\n
out: 1+1\n
out: 2\n
out: x=2\n
out: x\n
out: 2\n
err:

test: warranty
cmd: bc
stdin: warranty\n
out: \n
out: bc 1.07.1\n
out: Copyright 1991-1994, 1997, 1998, 2000, 2004, 2006, 2008, 2012-2017 Free Software Foundation, Inc.\n
out: \n
out:     This program is free software; you can redistribute it and/or modify\n
out:     it under the terms of the GNU General Public License as published by\n
out:     the Free Software Foundation; either version 3 of the License , or\n
out:     (at your option) any later version.\n
out: \n
out:     This program is distributed in the hope that it will be useful,\n
out:     but WITHOUT ANY WARRANTY; without even the implied warranty of\n
out:     MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the\n
out:     GNU General Public License for more details.\n
out: \n
out:     You should have received a copy of the GNU General Public License\n
out:     along with this program. If not, write to\n
out: \n
out:        The Free Software Foundation, Inc.\n
out:        51 Franklin Street, Fifth Floor\n
out:        Boston, MA 02110-1335  USA\n
out: \n
err:

test: -x x
cmd: bc -x
stdin: x\n
out: usage: bc [options] [file ...]\n
out:   -h  --help         print this usage and exit\n
out:   -i  --interactive  force interactive mode\n
out:   -l  --mathlib      use the predefined math routines\n
out:   -q  --quiet        don't print initial banner\n
out:   -s  --standard     non-standard bc constructs are errors\n
out:   -w  --warn         warn about non-standard bc constructs\n
out:   -v  --version      print version information and exit\n
err: bc: invalid option -- 'x'\n
status: 1

test: --foo x
cmd: bc --foo
stdin: x\n
out: usage: bc [options] [file ...]\n
out:   -h  --help         print this usage and exit\n
out:   -i  --interactive  force interactive mode\n
out:   -l  --mathlib      use the predefined math routines\n
out:   -q  --quiet        don't print initial banner\n
out:   -s  --standard     non-standard bc constructs are errors\n
out:   -w  --warn         warn about non-standard bc constructs\n
out:   -v  --version      print version information and exit\n
err: bc: unrecognized option '--foo'\n
status: 1

test: five.bc
cmd: bc five.bc
file: five.bc=5\n
out: 5\n
err:

test: - 5
cmd: bc -
stdin: 5\n
out:
err: File - is unavailable.\n
status: 1

test: a.bc b.bc 3
cmd: bc a.bc b.bc
file: a.bc=define f(x) { return x*2 }\n
file: b.bc=f(21)\n
stdin: 3\n
out: 42\n
out: 3\n
err:

test: nofile.bc 1
cmd: bc nofile.bc
stdin: 1\n
out:
err: File nofile.bc is unavailable.\n
status: 1

test: e.bc
cmd: bc e.bc
file: e.bc=x=(\n
out:
err: e.bc 2: syntax error\n

test: e.bc (2)
cmd: bc e.bc
file: e.bc=1/0\n
out:
err: Runtime error (func=(main), adr=3): Divide by zero\n

test: -l p.bc
cmd: bc -l p.bc
file: p.bc=scale=30\n
file: p.bc=4*a(1)\n
file: p.bc=quit\n
out: 3.141592653589793238462643383276\n
err:

test: -h
cmd: bc -h
out: usage: bc [options] [file ...]\n
out:   -h  --help         print this usage and exit\n
out:   -i  --interactive  force interactive mode\n
out:   -l  --mathlib      use the predefined math routines\n
out:   -q  --quiet        don't print initial banner\n
out:   -s  --standard     non-standard bc constructs are errors\n
out:   -w  --warn         warn about non-standard bc constructs\n
out:   -v  --version      print version information and exit\n
err:

test: --help
cmd: bc --help
out: usage: bc [options] [file ...]\n
out:   -h  --help         print this usage and exit\n
out:   -i  --interactive  force interactive mode\n
out:   -l  --mathlib      use the predefined math routines\n
out:   -q  --quiet        don't print initial banner\n
out:   -s  --standard     non-standard bc constructs are errors\n
out:   -w  --warn         warn about non-standard bc constructs\n
out:   -v  --version      print version information and exit\n
err:

test: -lq e(2)
cmd: bc -lq
stdin: e(2)\n
out: 7.38905609893065022723\n
err:

test: --mathlib s(.5)
cmd: bc --mathlib
stdin: s(.5)\n
out: .47942553860420300027\n
err:

test: -s 1+1
cmd: bc -s
stdin: 1+1\n
out: 2\n
err:

test: -w 1+1
cmd: bc -w
stdin: 1+1\n
out: 2\n
err:

test: --quiet 2*3
cmd: bc --quiet
stdin: 2*3\n
out: 6\n
err:

test: BC_LINE_LENGTH
cmd: echo '2^100' | BC_LINE_LENGTH=20 bc
out: 126765060022822940\\\n
out: 1496703205376\n

test: BC_LINE_LENGTH=0 does not wrap
cmd: echo '2^300' | BC_LINE_LENGTH=0 bc
out: 2037035976334486086268445688409378161051468393665936250636140449354381299763336706183397376\n

test: BC_LINE_LENGTH below 3 means 70
cmd: echo '2^300' | BC_LINE_LENGTH=2 bc
out: 20370359763344860862684456884093781610514683936659362506361404493543\\\n
out: 81299763336706183397376\n

test: a program in a pipeline
cmd: printf '%s\n' 'scale=3' '22/7' | bc
out: 3.142\n

# ---- the sandbox's limits (GNU bc would compute for hours or crash) -------------------
test: a number longer than the string limit
# GNU computes the 301-million-digit power for hours; sbx refuses numbers with
# more digits than the sandbox's string limit (64 MiB by default)
host: skip
cmd: echo '10^(10^9); 1+1' | bc
out:
err: Runtime error (func=(main), adr=13): number too long (more than 67108864 digits, the sandbox's string limit)\n

test: endless recursion
# GNU grows its stacks until memory runs out; sbx allows 10000 nested calls
host: skip
cmd: printf 'define f(n) { return f(n+1) }\nf(1)\n7\n' | bc
out: 7\n
err: Runtime error (func=f, adr=8): function calls nested too deeply (more than 10000)\n

test: version
# every sbx command prints the same version line
host: skip
cmd: bc --version
out: bc (sbx) 1.0\n

# ---- cases from the other bc implementation's tests (merged) ----------------

test: add subtract
cmd: bc
stdin: 1+2\n10-25\n1.5+2.25\n-3.5-1\n
out: 3\n-15\n3.75\n-4.5\n
err:

test: multiply scale rule
cmd: bc
stdin: 1.5*1.5\n1.123*2.2\nscale=2\n1.123*2.2\nscale=10\n1.123*2.2\n
out: 2.2\n2.470\n2.470\n2.4706\n
err:

test: division truncates
cmd: bc
stdin: 7/2\nscale=5\n1/3\n-1/3\n2/3\n10/4\n
out: 3\n.33333\n-.33333\n.66666\n2.50000\n
err:

test: modulo
cmd: bc
stdin: 7%3\n-7%3\n7%-3\nscale=2\n7%3\n5.5%2\n
out: 1\n-1\n1\n.01\n0\n
err:

test: power
cmd: bc
stdin: 2^10\n2^100\n-2^2\n2^-1\nscale=3\n2^-1\n1.1^10\n(-2)^3\n0^0\n
out: 1024\n1267650600228229401496703205376\n4\n0\n.500\n2.593\n-8\n
out: 1\n
err:

test: sqrt
cmd: bc
stdin: sqrt(16)\nsqrt(2)\nscale=20\nsqrt(2)\nsqrt(0.25)\nsqrt(1000000)\n
out: 4\n1\n1.41421356237309504880\n.50000000000000000000\n1000.00000000000000000000\n
err:

test: divide by zero
cmd: bc
stdin: 1/0\n2\n
out: 2\n
err: Runtime error (func=(main), adr=3): Divide by zero\n

test: modulo by zero
cmd: bc
stdin: 5%0\n
out:
err: Runtime error (func=(main), adr=5): Modulo by zero\n

test: big numbers line split
cmd: bc
stdin: 2^1000\n
out: 10715086071862673209484250490600018105614048117055336074437503883703\\\n51051124936122493198378815695858127594672917553146825187145285692314\\\n04359845775746985748039345677748242309854210746050623711418779541821\\\n53046474983581941267398767559165543946077062914571196477686542167660\\\n429831652624386837205668069376\n
err:

test: BC_LINE_LENGTH (2)
cmd: BC_LINE_LENGTH=30 bc
stdin: 2^300\n
out: 2037035976334486086268445688\\\n4093781610514683936659362506\\\n3614044935438129976333670618\\\n3397376\n
err:

test: BC_LINE_LENGTH zero
cmd: BC_LINE_LENGTH=0 bc
stdin: 2^300\n
out: 2037035976334486086268445688409378161051468393665936250636140449354381299763336706183397376\n
err:

test: factorial loop
cmd: bc
stdin: f=1\nfor (i=1; i<=30; i++) f *= i\nf\n
out: 265252859812191058636308480000000\n
err:

test: obase 16 and 2
cmd: bc
stdin: obase=16\n255\n-10.25\n0.5\nobase=2\n-5\n10\n
out: FF\n-A.40\n.8\n-101\n1010\n
err:

test: obase large
cmd: bc
stdin: obase=20\n123.456\nobase=1000\n123456789.5\n
out:  06 03.09 02 08\n 123 456 789.500\n
err:

test: ibase
cmd: bc
stdin: ibase=16\nFF\n1F\n10.8\nibase=2\n101\n1.1\n12\n
out: 255\n31\n16.5\n5\n1.5\n3\n
err:

test: digits above base
cmd: bc
stdin: A\n1A\nAA\nZ\n.A\nA.A\n
out: 10\n19\n99\n35\n.9\n9.9\n
err:

test: ibase obase warnings
cmd: bc
stdin: obase=1\nibase=1\nibase=40\nscale=-1\n
out:
err: Runtime warning (func=(main), adr=3): obase too small, set to 2\n
err: Runtime warning (func=(main), adr=3): ibase too small, set to 2\n
err: Runtime warning (func=(main), adr=4): negative scale, set to 0\n

test: scale length functions
cmd: bc
stdin: length(123.4500)\nscale(1.2300)\nlength(0.001)\nscale(5)\nlength(0)\n
out: 7\n4\n3\n0\n1\n
err:

test: variables and increments
cmd: bc
stdin: a=5\na++\na\n++a\na--\n--a\nb+=3\nb\nb*=4\nb\n
out: 5\n6\n7\n7\n5\n3\n12\n
err:

test: assignment printing rules
cmd: bc
stdin: a=1\n(a=2)\na=1 || b=2\n!0\n1<2\n3==3==1\n
out: 2\n1\n1\n1\n
err:

test: relational and boolean
cmd: bc
stdin: 1<2; 2<1; 1<=1; 2>=3; 1==1; 1!=1\n!5; 1&&0; 0||3; 2&&3\n
out: 1\n0\n1\n0\n1\n0\n0\n0\n1\n1\n
err:

test: if else
cmd: bc
stdin: x=3\nif (x>2) print "big\\n" else print "small\\n"\nif (x<2) { 1 } else { 2 }\n
out: big\n2\n
err:

test: while break continue
cmd: bc
stdin: x=0\nwhile (1) { x=x+1; if (x>5) break; if (x==3) continue; x }\n
out: 1\n2\n4\n5\n
err:

test: for without parts
cmd: bc
stdin: for (i=0; ; i++) { if (i>=3) break; i }\nfor (;i<5;) i++\n
out: 0\n1\n2\n3\n4\n
err:

test: recursive fibonacci
cmd: bc
stdin: define f(n) { if (n<2) return n; return f(n-1)+f(n-2); }\nf(20)\n
out: 6765\n
err:

test: auto variables
cmd: bc
stdin: define f(x) {\n auto y\n y = x * 2\n return (y)\n}\ny = 7\nf(3)\n
stdin: y\n
out: 6\n7\n
err:

test: function parameter mismatch
cmd: bc
stdin: define f(x) { return (x); }; f(3); f(3,4)\nf()\n
out: 3\n
err: Runtime error (func=(main), adr=18): Parameter number mismatch\n
err: Runtime error (func=(main), adr=3): Parameter number mismatch\n

test: undefined function
cmd: bc
stdin: g(1)\n
out:
err: Runtime error (func=(main), adr=3): Function g not defined.\n

test: void function
cmd: bc
stdin: define void p(x) { print x, "\\n" }\np(5)\n
out: 5\n
err:

test: arrays
cmd: bc
stdin: a[0]=1; a[1]=2; a[5]=3\na[0]+a[1]+a[5]+a[9]\nfor (i=0;i<5;i++) b[i]=i*i\n
stdin: b[4]\n
out: 6\n16\n
err:

test: array subscript out of bounds
cmd: bc
stdin: a[-1]=1\na[20000000]\n
out:
err: Runtime error (func=(main), adr=5): Array a subscript out of bounds.\n
err: Runtime error (func=(main), adr=12): Array a subscript out of bounds.\n

test: array parameters by value
cmd: bc
stdin: define f(a[]) { a[0]=99; return a[0]+1; }\nx[0]=4\nf(x[])\nx[0]\n
out: 100\n4\n
err:

test: array parameters by reference
cmd: bc
stdin: define f(*a[]) { a[0]=99; return a[0]+1; }\nx[0]=4\nf(x[])\nx[0]\n
out: 100\n99\n
err:

test: print strings and escapes
cmd: bc
stdin: print "a\\tb\\n", 1.50, "\\q\\n"\n"raw\\n"\nprint 1, 2, "\\n"\n
out: a\tb\n1.50"\nraw\\n12\n
err:

test: last variable
cmd: bc
stdin: 5*5\nlast+1\n.+1\n
out: 25\n26\n27\n
err:

test: comments
cmd: bc
stdin: /* block\ncomment */ 1+1\n2+2 # line comment\n
out: 2\n4\n
err:

test: line continuation
cmd: bc
stdin: a = 3 \\\n+ 4; a\n123\\\n456\n
out: 7\n123456\n
err:

test: quit stops before running the line
cmd: bc
stdin: 1\n2; quit\n3\n
out: 1\n
err:

test: halt
cmd: bc
stdin: 1\nhalt\n2\n
out: 1\n
err:

test: syntax error recovery
cmd: bc
stdin: x = 1 +; 5\n1 $ 2\n3\n
out: 3\n
err: (standard_in) 1: syntax error\n(standard_in) 2: illegal character: $\n
err: (standard_in) 2: syntax error\n

test: syntax error at end of line
cmd: bc
stdin: x = 1 +\n2\nx\n
out: 2\n0\n
err: (standard_in) 2: syntax error\n

test: unterminated string
cmd: bc
stdin: "abc
out:
err: (standard_in) 1: illegal character: "\n(standard_in) 1: syntax error\n

test: unterminated comment
cmd: bc
stdin: /* unterminated
out:
err: EOF encountered in a comment.\n

test: else on next line
cmd: bc
stdin: if (1) print "a"\nelse print "b"\n
out: a
err: (standard_in) 2: syntax error\n

test: auto after statements
cmd: bc
stdin: define f(x) { return x+y+z; auto z }\n
out:
err: (standard_in) 1: syntax error\n

test: history variable
cmd: bc
stdin: history=5; history\n
out: 5\n
err:

test: file argument
cmd: bc prog.bc
file: prog.bc=define sq(x) { return x*x; }\nsq(12)\n
out: 144\n
err:

test: file then quit
cmd: bc prog.bc
file: prog.bc=1+1\nquit\n
stdin: 5\n
out: 2\n
err:

test: missing file
cmd: bc nonexist
out:
err: File nonexist is unavailable.\n
status: 1

test: mathlib basics
cmd: bc -l
stdin: s(1); c(1); a(1); l(10); e(1); j(1,2)\n
out: .84147098480789650665\n.54030230586813971740\n.78539816339744830961\n
out: 2.30258509299404568401\n2.71828182845904523536\n.57672480775687338720\n
err:

test: mathlib zero results
cmd: bc -l
stdin: e(0); s(0); c(0); a(0); l(1); j(0,0); j(1,0)\n
out: 1.00000000000000000000\n0\n1.00000000000000000000\n0\n0\n1.00000000000000000000\n
out: 0\n
err:

test: mathlib negatives
cmd: bc -l
stdin: e(-1); l(0.5); s(-1); a(-1); e(1.5)\n
out: .36787944117144232159\n-.69314718055994530941\n-.84147098480789650665\n
out: -.78539816339744830961\n4.48168907033806482260\n
err:

test: mathlib scale 0
cmd: bc -l
stdin: scale=0; e(1); s(1); l(10); a(1); j(1,1)\n
out: 2\n0\n2\n0\n0\n
err:

test: mathlib scale 3
cmd: bc -l
stdin: scale=3; e(10); l(1000); a(0.5); c(10); j(2,5); sqrt(10); e(-10)\n
out: 22026.465\n6.907\n.463\n-.839\n.046\n3.162\n0\n
err:

test: mathlib log of zero
cmd: bc -l
stdin: l(0); l(-1)\n
out: -99999999999999999999.00000000000000000000\n-99999999999999999999.00000000000000000000\n
err:

test: mathlib big arguments
cmd: bc -l
stdin: e(100); s(100); c(3.14159); a(100); a(0.2); j(0,10); j(3,-2.5)\n
out: 26881171418161354484126255515800135873611118.77374192241519160861\n
out: -.50636564110975879365\n-.99999999999647923060\n1.56079666010823138102\n
out: .19739555984988075837\n-.24593576445134833519\n-.21660039103911352476\n
err:

test: mathlib 50 digits
cmd: bc -l
stdin: scale=50; e(1); a(1)*4; l(2); sqrt(2)\n
out: 2.71828182845904523536028747135266249775724709369995\n3.14159265358979323846264338327950288419716939937508\n
out: .69314718055994530941723212145817656807550013436025\n1.41421356237309504880168872420969807856967187537694\n
err:

test: mathlib default scale
cmd: bc -l
stdin: scale\n1/3\n
out: 20\n.33333333333333333333\n
err:

test: invalid option
cmd: bc -x
out: usage: bc [options] [file ...]\n  -h  --help         print this usage and exit\n
out:   -i  --interactive  force interactive mode\n  -l  --mathlib      use the predefined math routines\n
out:   -q  --quiet        don't print initial banner\n  -s  --standard     non-standard bc constructs are errors\n
out:   -w  --warn         warn about non-standard bc constructs\n  -v  --version      print version information and exit\n
err: bc: invalid option -- 'x'\n
status: 1

test: warn mode
cmd: bc -w
stdin: print 1\nabc=1\n
out: 1
err: (standard_in) 1: (Warning) print statement\n(standard_in) 2: (Warning) multiple letter name - abc\n

test: standard mode
cmd: bc -s
stdin: print 1\nabc=1\n1\n
out: 1\n
err: (standard_in) 1: Error: print statement\n(standard_in) 2: Error: multiple letter name - abc\n

test: huge power bounded
cmd: bc
stdin: 2^99999999999\n2+2\n
# GNU bc computes for hours; sbx refuses a result above its size limit
host: skip
out: 4\n
err: Runtime error (func=(main), adr=17): exponent too large in raise\n


test: an option given an argument it does not take: glibc's message, then the usage
cmd: bc --quiet=1 | head -1
out: usage: bc [options] [file ...]\n
err: bc: option '--quiet' doesn't allow an argument\n
