# bc: GNU bc 1.07 behaviour (Debian's bc is the reference: run.py --host).
# Arithmetic and scale rules, bases, functions, arrays, control flow, the -l
# library, output line splitting, and GNU's messages (with their byte-code
# addresses).

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

test: power with fractional exponent warns
cmd: bc
stdin: 2^0.5\n
out: 1\n
err: Runtime warning (func=(main), adr=8): non-zero scale in exponent\n

test: sqrt
cmd: bc
stdin: sqrt(16)\nsqrt(2)\nscale=20\nsqrt(2)\nsqrt(0.25)\nsqrt(1000000)\n
out: 4\n1\n1.41421356237309504880\n.50000000000000000000\n1000.00000000000000000000\n
err:

test: sqrt negative
cmd: bc
stdin: sqrt(-1)\n
out:
err: Runtime error (func=(main), adr=4): Square root of a negative number\n

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

test: BC_LINE_LENGTH
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

test: no trailing newline is a syntax error
cmd: bc
stdin: 1+1
out:
err: (standard_in) 1: syntax error\n

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

test: limits
cmd: bc
stdin: limits\n
out: BC_BASE_MAX     = 2147483647\nBC_DIM_MAX      = 16777215\nBC_SCALE_MAX    = 2147483647\n
out: BC_STRING_MAX   = 2147483647\nMAX Exponent    = 9223372036854775807\n
out: Number of vars  = 32767\n
err:

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

test: help
cmd: bc --help
out: usage: bc [options] [file ...]\n  -h  --help         print this usage and exit\n
out:   -i  --interactive  force interactive mode\n  -l  --mathlib      use the predefined math routines\n
out:   -q  --quiet        don't print initial banner\n  -s  --standard     non-standard bc constructs are errors\n
out:   -w  --warn         warn about non-standard bc constructs\n  -v  --version      print version information and exit\n
err:

test: invalid option
cmd: bc -x
out: usage: bc [options] [file ...]\n  -h  --help         print this usage and exit\n
out:   -i  --interactive  force interactive mode\n  -l  --mathlib      use the predefined math routines\n
out:   -q  --quiet        don't print initial banner\n  -s  --standard     non-standard bc constructs are errors\n
out:   -w  --warn         warn about non-standard bc constructs\n  -v  --version      print version information and exit\n
err: bc: invalid option -- 'x'\n
status: 1

test: version
cmd: bc --version
# sbx prints its own version line
host: skip
out: bc (sbx) 1.0\n

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
err: Runtime error (func=(main), adr=17): number too long\n
