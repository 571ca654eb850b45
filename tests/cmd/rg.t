# rg (ripgrep 13) over the sandbox's regex engine and walker. Every case
# builds the same tree (a git repository with a .gitignore, hidden and binary
# files); the expectations come from ripgrep (run both ways with --host).

test: rg foo --sort path
cmd: mkdir -p src/sub .hidden .git; printf 'hello world\nfoo bar\nHello again\n' > a.txt; printf 'def foo():\n    return 1\n' > src/x.py; printf 'int foo;\n' > src/sub/y.c; echo 'foo hidden' > .hidden/h.txt; printf 'ignored.txt\n*.log\n' > .gitignore; echo 'foo ign' > ignored.txt; echo 'foo log' > src/z.log; printf 'a\0b foo\n' > bin.dat; printf 'x\nfoo1\ny\nz\nw\nfoo2\nq\n' > ctx.txt; rg foo --sort path < /dev/null
out: a.txt:foo bar\nctx.txt:foo1\nctx.txt:foo2\nsrc/sub/y.c:int foo;\nsrc/x.py:def foo():\n
err: 

test: rg -n foo --sort path
cmd: mkdir -p src/sub .hidden .git; printf 'hello world\nfoo bar\nHello again\n' > a.txt; printf 'def foo():\n    return 1\n' > src/x.py; printf 'int foo;\n' > src/sub/y.c; echo 'foo hidden' > .hidden/h.txt; printf 'ignored.txt\n*.log\n' > .gitignore; echo 'foo ign' > ignored.txt; echo 'foo log' > src/z.log; printf 'a\0b foo\n' > bin.dat; printf 'x\nfoo1\ny\nz\nw\nfoo2\nq\n' > ctx.txt; rg -n foo --sort path < /dev/null
out: a.txt:2:foo bar\nctx.txt:2:foo1\nctx.txt:6:foo2\nsrc/sub/y.c:1:int foo;\nsrc/x.py:1:def foo():\n
err: 

test: rg foo a.txt
cmd: mkdir -p src/sub .hidden .git; printf 'hello world\nfoo bar\nHello again\n' > a.txt; printf 'def foo():\n    return 1\n' > src/x.py; printf 'int foo;\n' > src/sub/y.c; echo 'foo hidden' > .hidden/h.txt; printf 'ignored.txt\n*.log\n' > .gitignore; echo 'foo ign' > ignored.txt; echo 'foo log' > src/z.log; printf 'a\0b foo\n' > bin.dat; printf 'x\nfoo1\ny\nz\nw\nfoo2\nq\n' > ctx.txt; rg foo a.txt < /dev/null
out: foo bar\n
err: 

test: rg -i hello
cmd: mkdir -p src/sub .hidden .git; printf 'hello world\nfoo bar\nHello again\n' > a.txt; printf 'def foo():\n    return 1\n' > src/x.py; printf 'int foo;\n' > src/sub/y.c; echo 'foo hidden' > .hidden/h.txt; printf 'ignored.txt\n*.log\n' > .gitignore; echo 'foo ign' > ignored.txt; echo 'foo log' > src/z.log; printf 'a\0b foo\n' > bin.dat; printf 'x\nfoo1\ny\nz\nw\nfoo2\nq\n' > ctx.txt; rg -i hello < /dev/null
out: a.txt:hello world\na.txt:Hello again\n
err: 

test: rg -S hello
cmd: mkdir -p src/sub .hidden .git; printf 'hello world\nfoo bar\nHello again\n' > a.txt; printf 'def foo():\n    return 1\n' > src/x.py; printf 'int foo;\n' > src/sub/y.c; echo 'foo hidden' > .hidden/h.txt; printf 'ignored.txt\n*.log\n' > .gitignore; echo 'foo ign' > ignored.txt; echo 'foo log' > src/z.log; printf 'a\0b foo\n' > bin.dat; printf 'x\nfoo1\ny\nz\nw\nfoo2\nq\n' > ctx.txt; rg -S hello < /dev/null
out: a.txt:hello world\na.txt:Hello again\n
err: 

test: rg -S Hello
cmd: mkdir -p src/sub .hidden .git; printf 'hello world\nfoo bar\nHello again\n' > a.txt; printf 'def foo():\n    return 1\n' > src/x.py; printf 'int foo;\n' > src/sub/y.c; echo 'foo hidden' > .hidden/h.txt; printf 'ignored.txt\n*.log\n' > .gitignore; echo 'foo ign' > ignored.txt; echo 'foo log' > src/z.log; printf 'a\0b foo\n' > bin.dat; printf 'x\nfoo1\ny\nz\nw\nfoo2\nq\n' > ctx.txt; rg -S Hello < /dev/null
out: a.txt:Hello again\n
err: 

test: rg -s hello
cmd: mkdir -p src/sub .hidden .git; printf 'hello world\nfoo bar\nHello again\n' > a.txt; printf 'def foo():\n    return 1\n' > src/x.py; printf 'int foo;\n' > src/sub/y.c; echo 'foo hidden' > .hidden/h.txt; printf 'ignored.txt\n*.log\n' > .gitignore; echo 'foo ign' > ignored.txt; echo 'foo log' > src/z.log; printf 'a\0b foo\n' > bin.dat; printf 'x\nfoo1\ny\nz\nw\nfoo2\nq\n' > ctx.txt; rg -s hello < /dev/null
out: a.txt:hello world\n
err: 

test: rg -c foo --sort path
cmd: mkdir -p src/sub .hidden .git; printf 'hello world\nfoo bar\nHello again\n' > a.txt; printf 'def foo():\n    return 1\n' > src/x.py; printf 'int foo;\n' > src/sub/y.c; echo 'foo hidden' > .hidden/h.txt; printf 'ignored.txt\n*.log\n' > .gitignore; echo 'foo ign' > ignored.txt; echo 'foo log' > src/z.log; printf 'a\0b foo\n' > bin.dat; printf 'x\nfoo1\ny\nz\nw\nfoo2\nq\n' > ctx.txt; rg -c foo --sort path < /dev/null
out: a.txt:1\nctx.txt:2\nsrc/sub/y.c:1\nsrc/x.py:1\n
err: 

test: rg -l foo --sort path
cmd: mkdir -p src/sub .hidden .git; printf 'hello world\nfoo bar\nHello again\n' > a.txt; printf 'def foo():\n    return 1\n' > src/x.py; printf 'int foo;\n' > src/sub/y.c; echo 'foo hidden' > .hidden/h.txt; printf 'ignored.txt\n*.log\n' > .gitignore; echo 'foo ign' > ignored.txt; echo 'foo log' > src/z.log; printf 'a\0b foo\n' > bin.dat; printf 'x\nfoo1\ny\nz\nw\nfoo2\nq\n' > ctx.txt; rg -l foo --sort path < /dev/null
out: a.txt\nctx.txt\nsrc/sub/y.c\nsrc/x.py\n
err: 

test: rg --files-without-match foo --sort path
cmd: mkdir -p src/sub .hidden .git; printf 'hello world\nfoo bar\nHello again\n' > a.txt; printf 'def foo():\n    return 1\n' > src/x.py; printf 'int foo;\n' > src/sub/y.c; echo 'foo hidden' > .hidden/h.txt; printf 'ignored.txt\n*.log\n' > .gitignore; echo 'foo ign' > ignored.txt; echo 'foo log' > src/z.log; printf 'a\0b foo\n' > bin.dat; printf 'x\nfoo1\ny\nz\nw\nfoo2\nq\n' > ctx.txt; rg --files-without-match foo --sort path < /dev/null
out: 
err: 

test: rg -w fo
cmd: mkdir -p src/sub .hidden .git; printf 'hello world\nfoo bar\nHello again\n' > a.txt; printf 'def foo():\n    return 1\n' > src/x.py; printf 'int foo;\n' > src/sub/y.c; echo 'foo hidden' > .hidden/h.txt; printf 'ignored.txt\n*.log\n' > .gitignore; echo 'foo ign' > ignored.txt; echo 'foo log' > src/z.log; printf 'a\0b foo\n' > bin.dat; printf 'x\nfoo1\ny\nz\nw\nfoo2\nq\n' > ctx.txt; rg -w fo < /dev/null
out: 
err: 
status: 1

test: rg -o 'o+' a.txt
cmd: mkdir -p src/sub .hidden .git; printf 'hello world\nfoo bar\nHello again\n' > a.txt; printf 'def foo():\n    return 1\n' > src/x.py; printf 'int foo;\n' > src/sub/y.c; echo 'foo hidden' > .hidden/h.txt; printf 'ignored.txt\n*.log\n' > .gitignore; echo 'foo ign' > ignored.txt; echo 'foo log' > src/z.log; printf 'a\0b foo\n' > bin.dat; printf 'x\nfoo1\ny\nz\nw\nfoo2\nq\n' > ctx.txt; rg -o 'o+' a.txt < /dev/null
out: o\no\noo\no\n
err: 

test: rg -o -n 'o+' a.txt
cmd: mkdir -p src/sub .hidden .git; printf 'hello world\nfoo bar\nHello again\n' > a.txt; printf 'def foo():\n    return 1\n' > src/x.py; printf 'int foo;\n' > src/sub/y.c; echo 'foo hidden' > .hidden/h.txt; printf 'ignored.txt\n*.log\n' > .gitignore; echo 'foo ign' > ignored.txt; echo 'foo log' > src/z.log; printf 'a\0b foo\n' > bin.dat; printf 'x\nfoo1\ny\nz\nw\nfoo2\nq\n' > ctx.txt; rg -o -n 'o+' a.txt < /dev/null
out: 1:o\n1:o\n2:oo\n3:o\n
err: 

test: rg --files --sort path
cmd: mkdir -p src/sub .hidden .git; printf 'hello world\nfoo bar\nHello again\n' > a.txt; printf 'def foo():\n    return 1\n' > src/x.py; printf 'int foo;\n' > src/sub/y.c; echo 'foo hidden' > .hidden/h.txt; printf 'ignored.txt\n*.log\n' > .gitignore; echo 'foo ign' > ignored.txt; echo 'foo log' > src/z.log; printf 'a\0b foo\n' > bin.dat; printf 'x\nfoo1\ny\nz\nw\nfoo2\nq\n' > ctx.txt; rg --files --sort path < /dev/null
out: a.txt\nbin.dat\nctx.txt\nsrc/sub/y.c\nsrc/x.py\n
err: 

test: rg --hidden --files --sort path
cmd: mkdir -p src/sub .hidden .git; printf 'hello world\nfoo bar\nHello again\n' > a.txt; printf 'def foo():\n    return 1\n' > src/x.py; printf 'int foo;\n' > src/sub/y.c; echo 'foo hidden' > .hidden/h.txt; printf 'ignored.txt\n*.log\n' > .gitignore; echo 'foo ign' > ignored.txt; echo 'foo log' > src/z.log; printf 'a\0b foo\n' > bin.dat; printf 'x\nfoo1\ny\nz\nw\nfoo2\nq\n' > ctx.txt; rg --hidden --files --sort path < /dev/null
out: .gitignore\n.hidden/h.txt\na.txt\nbin.dat\nctx.txt\nsrc/sub/y.c\nsrc/x.py\n
err: 

test: rg -u --files --sort path
cmd: mkdir -p src/sub .hidden .git; printf 'hello world\nfoo bar\nHello again\n' > a.txt; printf 'def foo():\n    return 1\n' > src/x.py; printf 'int foo;\n' > src/sub/y.c; echo 'foo hidden' > .hidden/h.txt; printf 'ignored.txt\n*.log\n' > .gitignore; echo 'foo ign' > ignored.txt; echo 'foo log' > src/z.log; printf 'a\0b foo\n' > bin.dat; printf 'x\nfoo1\ny\nz\nw\nfoo2\nq\n' > ctx.txt; rg -u --files --sort path < /dev/null
out: a.txt\nbin.dat\nctx.txt\nignored.txt\nsrc/sub/y.c\nsrc/x.py\nsrc/z.log\n
err: 

test: rg -t py foo
cmd: mkdir -p src/sub .hidden .git; printf 'hello world\nfoo bar\nHello again\n' > a.txt; printf 'def foo():\n    return 1\n' > src/x.py; printf 'int foo;\n' > src/sub/y.c; echo 'foo hidden' > .hidden/h.txt; printf 'ignored.txt\n*.log\n' > .gitignore; echo 'foo ign' > ignored.txt; echo 'foo log' > src/z.log; printf 'a\0b foo\n' > bin.dat; printf 'x\nfoo1\ny\nz\nw\nfoo2\nq\n' > ctx.txt; rg -t py foo < /dev/null
out: src/x.py:def foo():\n
err: 

test: rg -T py foo --sort path
cmd: mkdir -p src/sub .hidden .git; printf 'hello world\nfoo bar\nHello again\n' > a.txt; printf 'def foo():\n    return 1\n' > src/x.py; printf 'int foo;\n' > src/sub/y.c; echo 'foo hidden' > .hidden/h.txt; printf 'ignored.txt\n*.log\n' > .gitignore; echo 'foo ign' > ignored.txt; echo 'foo log' > src/z.log; printf 'a\0b foo\n' > bin.dat; printf 'x\nfoo1\ny\nz\nw\nfoo2\nq\n' > ctx.txt; rg -T py foo --sort path < /dev/null
out: a.txt:foo bar\nctx.txt:foo1\nctx.txt:foo2\nsrc/sub/y.c:int foo;\n
err: 

test: rg -g '*.c' foo
cmd: mkdir -p src/sub .hidden .git; printf 'hello world\nfoo bar\nHello again\n' > a.txt; printf 'def foo():\n    return 1\n' > src/x.py; printf 'int foo;\n' > src/sub/y.c; echo 'foo hidden' > .hidden/h.txt; printf 'ignored.txt\n*.log\n' > .gitignore; echo 'foo ign' > ignored.txt; echo 'foo log' > src/z.log; printf 'a\0b foo\n' > bin.dat; printf 'x\nfoo1\ny\nz\nw\nfoo2\nq\n' > ctx.txt; rg -g '*.c' foo < /dev/null
out: src/sub/y.c:int foo;\n
err: 

test: rg -g '!*.py' foo --sort path
cmd: mkdir -p src/sub .hidden .git; printf 'hello world\nfoo bar\nHello again\n' > a.txt; printf 'def foo():\n    return 1\n' > src/x.py; printf 'int foo;\n' > src/sub/y.c; echo 'foo hidden' > .hidden/h.txt; printf 'ignored.txt\n*.log\n' > .gitignore; echo 'foo ign' > ignored.txt; echo 'foo log' > src/z.log; printf 'a\0b foo\n' > bin.dat; printf 'x\nfoo1\ny\nz\nw\nfoo2\nq\n' > ctx.txt; rg -g '!*.py' foo --sort path < /dev/null
out: a.txt:foo bar\nctx.txt:foo1\nctx.txt:foo2\nsrc/sub/y.c:int foo;\n
err: 

test: rg -F 'o()'
cmd: mkdir -p src/sub .hidden .git; printf 'hello world\nfoo bar\nHello again\n' > a.txt; printf 'def foo():\n    return 1\n' > src/x.py; printf 'int foo;\n' > src/sub/y.c; echo 'foo hidden' > .hidden/h.txt; printf 'ignored.txt\n*.log\n' > .gitignore; echo 'foo ign' > ignored.txt; echo 'foo log' > src/z.log; printf 'a\0b foo\n' > bin.dat; printf 'x\nfoo1\ny\nz\nw\nfoo2\nq\n' > ctx.txt; rg -F 'o()' < /dev/null
out: src/x.py:def foo():\n
err: 

test: rg -v foo a.txt
cmd: mkdir -p src/sub .hidden .git; printf 'hello world\nfoo bar\nHello again\n' > a.txt; printf 'def foo():\n    return 1\n' > src/x.py; printf 'int foo;\n' > src/sub/y.c; echo 'foo hidden' > .hidden/h.txt; printf 'ignored.txt\n*.log\n' > .gitignore; echo 'foo ign' > ignored.txt; echo 'foo log' > src/z.log; printf 'a\0b foo\n' > bin.dat; printf 'x\nfoo1\ny\nz\nw\nfoo2\nq\n' > ctx.txt; rg -v foo a.txt < /dev/null
out: hello world\nHello again\n
err: 

test: rg -A1 foo a.txt
cmd: mkdir -p src/sub .hidden .git; printf 'hello world\nfoo bar\nHello again\n' > a.txt; printf 'def foo():\n    return 1\n' > src/x.py; printf 'int foo;\n' > src/sub/y.c; echo 'foo hidden' > .hidden/h.txt; printf 'ignored.txt\n*.log\n' > .gitignore; echo 'foo ign' > ignored.txt; echo 'foo log' > src/z.log; printf 'a\0b foo\n' > bin.dat; printf 'x\nfoo1\ny\nz\nw\nfoo2\nq\n' > ctx.txt; rg -A1 foo a.txt < /dev/null
out: foo bar\nHello again\n
err: 

test: rg -C1 bar a.txt
cmd: mkdir -p src/sub .hidden .git; printf 'hello world\nfoo bar\nHello again\n' > a.txt; printf 'def foo():\n    return 1\n' > src/x.py; printf 'int foo;\n' > src/sub/y.c; echo 'foo hidden' > .hidden/h.txt; printf 'ignored.txt\n*.log\n' > .gitignore; echo 'foo ign' > ignored.txt; echo 'foo log' > src/z.log; printf 'a\0b foo\n' > bin.dat; printf 'x\nfoo1\ny\nz\nw\nfoo2\nq\n' > ctx.txt; rg -C1 bar a.txt < /dev/null
out: hello world\nfoo bar\nHello again\n
err: 

test: rg -A1 -n foo --sort path a.txt src
cmd: mkdir -p src/sub .hidden .git; printf 'hello world\nfoo bar\nHello again\n' > a.txt; printf 'def foo():\n    return 1\n' > src/x.py; printf 'int foo;\n' > src/sub/y.c; echo 'foo hidden' > .hidden/h.txt; printf 'ignored.txt\n*.log\n' > .gitignore; echo 'foo ign' > ignored.txt; echo 'foo log' > src/z.log; printf 'a\0b foo\n' > bin.dat; printf 'x\nfoo1\ny\nz\nw\nfoo2\nq\n' > ctx.txt; rg -A1 -n foo --sort path a.txt src < /dev/null
out: a.txt:2:foo bar\na.txt-3-Hello again\n--\nsrc/sub/y.c:1:int foo;\n--\nsrc/x.py:1:def foo():\nsrc/x.py-2-    return 1\n
err: 

test: rg -B1 foo ctx.txt
cmd: mkdir -p src/sub .hidden .git; printf 'hello world\nfoo bar\nHello again\n' > a.txt; printf 'def foo():\n    return 1\n' > src/x.py; printf 'int foo;\n' > src/sub/y.c; echo 'foo hidden' > .hidden/h.txt; printf 'ignored.txt\n*.log\n' > .gitignore; echo 'foo ign' > ignored.txt; echo 'foo log' > src/z.log; printf 'a\0b foo\n' > bin.dat; printf 'x\nfoo1\ny\nz\nw\nfoo2\nq\n' > ctx.txt; rg -B1 foo ctx.txt < /dev/null
out: x\nfoo1\n--\nw\nfoo2\n
err: 

test: rg -C1 foo ctx.txt
cmd: mkdir -p src/sub .hidden .git; printf 'hello world\nfoo bar\nHello again\n' > a.txt; printf 'def foo():\n    return 1\n' > src/x.py; printf 'int foo;\n' > src/sub/y.c; echo 'foo hidden' > .hidden/h.txt; printf 'ignored.txt\n*.log\n' > .gitignore; echo 'foo ign' > ignored.txt; echo 'foo log' > src/z.log; printf 'a\0b foo\n' > bin.dat; printf 'x\nfoo1\ny\nz\nw\nfoo2\nq\n' > ctx.txt; rg -C1 foo ctx.txt < /dev/null
out: x\nfoo1\ny\n--\nw\nfoo2\nq\n
err: 

test: rg -A1 -B2 -n foo ctx.txt
cmd: mkdir -p src/sub .hidden .git; printf 'hello world\nfoo bar\nHello again\n' > a.txt; printf 'def foo():\n    return 1\n' > src/x.py; printf 'int foo;\n' > src/sub/y.c; echo 'foo hidden' > .hidden/h.txt; printf 'ignored.txt\n*.log\n' > .gitignore; echo 'foo ign' > ignored.txt; echo 'foo log' > src/z.log; printf 'a\0b foo\n' > bin.dat; printf 'x\nfoo1\ny\nz\nw\nfoo2\nq\n' > ctx.txt; rg -A1 -B2 -n foo ctx.txt < /dev/null
out: 1-x\n2:foo1\n3-y\n4-z\n5-w\n6:foo2\n7-q\n
err: 

test: rg nothing
cmd: mkdir -p src/sub .hidden .git; printf 'hello world\nfoo bar\nHello again\n' > a.txt; printf 'def foo():\n    return 1\n' > src/x.py; printf 'int foo;\n' > src/sub/y.c; echo 'foo hidden' > .hidden/h.txt; printf 'ignored.txt\n*.log\n' > .gitignore; echo 'foo ign' > ignored.txt; echo 'foo log' > src/z.log; printf 'a\0b foo\n' > bin.dat; printf 'x\nfoo1\ny\nz\nw\nfoo2\nq\n' > ctx.txt; rg nothing < /dev/null
out: 
err: 
status: 1

test: rg foo bin.dat
cmd: mkdir -p src/sub .hidden .git; printf 'hello world\nfoo bar\nHello again\n' > a.txt; printf 'def foo():\n    return 1\n' > src/x.py; printf 'int foo;\n' > src/sub/y.c; echo 'foo hidden' > .hidden/h.txt; printf 'ignored.txt\n*.log\n' > .gitignore; echo 'foo ign' > ignored.txt; echo 'foo log' > src/z.log; printf 'a\0b foo\n' > bin.dat; printf 'x\nfoo1\ny\nz\nw\nfoo2\nq\n' > ctx.txt; rg foo bin.dat < /dev/null
out: binary file matches (found "\\0" byte around offset 1)\n
err: 

test: rg -t nosuch foo
cmd: mkdir -p src/sub .hidden .git; printf 'hello world\nfoo bar\nHello again\n' > a.txt; printf 'def foo():\n    return 1\n' > src/x.py; printf 'int foo;\n' > src/sub/y.c; echo 'foo hidden' > .hidden/h.txt; printf 'ignored.txt\n*.log\n' > .gitignore; echo 'foo ign' > ignored.txt; echo 'foo log' > src/z.log; printf 'a\0b foo\n' > bin.dat; printf 'x\nfoo1\ny\nz\nw\nfoo2\nq\n' > ctx.txt; rg -t nosuch foo < /dev/null
out: 
err: unrecognized file type: nosuch\n
status: 2

test: rg -m1 o a.txt
cmd: mkdir -p src/sub .hidden .git; printf 'hello world\nfoo bar\nHello again\n' > a.txt; printf 'def foo():\n    return 1\n' > src/x.py; printf 'int foo;\n' > src/sub/y.c; echo 'foo hidden' > .hidden/h.txt; printf 'ignored.txt\n*.log\n' > .gitignore; echo 'foo ign' > ignored.txt; echo 'foo log' > src/z.log; printf 'a\0b foo\n' > bin.dat; printf 'x\nfoo1\ny\nz\nw\nfoo2\nq\n' > ctx.txt; rg -m1 o a.txt < /dev/null
out: hello world\n
err: 

test: rg -e foo -e hello --sort path
cmd: mkdir -p src/sub .hidden .git; printf 'hello world\nfoo bar\nHello again\n' > a.txt; printf 'def foo():\n    return 1\n' > src/x.py; printf 'int foo;\n' > src/sub/y.c; echo 'foo hidden' > .hidden/h.txt; printf 'ignored.txt\n*.log\n' > .gitignore; echo 'foo ign' > ignored.txt; echo 'foo log' > src/z.log; printf 'a\0b foo\n' > bin.dat; printf 'x\nfoo1\ny\nz\nw\nfoo2\nq\n' > ctx.txt; rg -e foo -e hello --sort path < /dev/null
out: a.txt:hello world\na.txt:foo bar\nctx.txt:foo1\nctx.txt:foo2\nsrc/sub/y.c:int foo;\nsrc/x.py:def foo():\n
err: 

test: rg -x 'foo bar'
cmd: mkdir -p src/sub .hidden .git; printf 'hello world\nfoo bar\nHello again\n' > a.txt; printf 'def foo():\n    return 1\n' > src/x.py; printf 'int foo;\n' > src/sub/y.c; echo 'foo hidden' > .hidden/h.txt; printf 'ignored.txt\n*.log\n' > .gitignore; echo 'foo ign' > ignored.txt; echo 'foo log' > src/z.log; printf 'a\0b foo\n' > bin.dat; printf 'x\nfoo1\ny\nz\nw\nfoo2\nq\n' > ctx.txt; rg -x 'foo bar' < /dev/null
out: a.txt:foo bar\n
err: 

test: rg --column foo a.txt
cmd: mkdir -p src/sub .hidden .git; printf 'hello world\nfoo bar\nHello again\n' > a.txt; printf 'def foo():\n    return 1\n' > src/x.py; printf 'int foo;\n' > src/sub/y.c; echo 'foo hidden' > .hidden/h.txt; printf 'ignored.txt\n*.log\n' > .gitignore; echo 'foo ign' > ignored.txt; echo 'foo log' > src/z.log; printf 'a\0b foo\n' > bin.dat; printf 'x\nfoo1\ny\nz\nw\nfoo2\nq\n' > ctx.txt; rg --column foo a.txt < /dev/null
out: 2:1:foo bar\n
err: 

test: rg -H foo a.txt
cmd: mkdir -p src/sub .hidden .git; printf 'hello world\nfoo bar\nHello again\n' > a.txt; printf 'def foo():\n    return 1\n' > src/x.py; printf 'int foo;\n' > src/sub/y.c; echo 'foo hidden' > .hidden/h.txt; printf 'ignored.txt\n*.log\n' > .gitignore; echo 'foo ign' > ignored.txt; echo 'foo log' > src/z.log; printf 'a\0b foo\n' > bin.dat; printf 'x\nfoo1\ny\nz\nw\nfoo2\nq\n' > ctx.txt; rg -H foo a.txt < /dev/null
out: a.txt:foo bar\n
err: 

test: rg -l foo nonexist a.txt
cmd: mkdir -p src/sub .hidden .git; printf 'hello world\nfoo bar\nHello again\n' > a.txt; printf 'def foo():\n    return 1\n' > src/x.py; printf 'int foo;\n' > src/sub/y.c; echo 'foo hidden' > .hidden/h.txt; printf 'ignored.txt\n*.log\n' > .gitignore; echo 'foo ign' > ignored.txt; echo 'foo log' > src/z.log; printf 'a\0b foo\n' > bin.dat; printf 'x\nfoo1\ny\nz\nw\nfoo2\nq\n' > ctx.txt; rg -l foo nonexist a.txt < /dev/null
out: a.txt\n
err: nonexist: No such file or directory (os error 2)\n
status: 2

test: rg --max-depth 1 foo --sort path
cmd: mkdir -p src/sub .hidden .git; printf 'hello world\nfoo bar\nHello again\n' > a.txt; printf 'def foo():\n    return 1\n' > src/x.py; printf 'int foo;\n' > src/sub/y.c; echo 'foo hidden' > .hidden/h.txt; printf 'ignored.txt\n*.log\n' > .gitignore; echo 'foo ign' > ignored.txt; echo 'foo log' > src/z.log; printf 'a\0b foo\n' > bin.dat; printf 'x\nfoo1\ny\nz\nw\nfoo2\nq\n' > ctx.txt; rg --max-depth 1 foo --sort path < /dev/null
out: a.txt:foo bar\nctx.txt:foo1\nctx.txt:foo2\n
err: 

test: rg -q foo
cmd: mkdir -p src/sub .hidden .git; printf 'hello world\nfoo bar\nHello again\n' > a.txt; printf 'def foo():\n    return 1\n' > src/x.py; printf 'int foo;\n' > src/sub/y.c; echo 'foo hidden' > .hidden/h.txt; printf 'ignored.txt\n*.log\n' > .gitignore; echo 'foo ign' > ignored.txt; echo 'foo log' > src/z.log; printf 'a\0b foo\n' > bin.dat; printf 'x\nfoo1\ny\nz\nw\nfoo2\nq\n' > ctx.txt; rg -q foo < /dev/null
out: 
err: 

test: rg --no-filename foo --sort path
cmd: mkdir -p src/sub .hidden .git; printf 'hello world\nfoo bar\nHello again\n' > a.txt; printf 'def foo():\n    return 1\n' > src/x.py; printf 'int foo;\n' > src/sub/y.c; echo 'foo hidden' > .hidden/h.txt; printf 'ignored.txt\n*.log\n' > .gitignore; echo 'foo ign' > ignored.txt; echo 'foo log' > src/z.log; printf 'a\0b foo\n' > bin.dat; printf 'x\nfoo1\ny\nz\nw\nfoo2\nq\n' > ctx.txt; rg --no-filename foo --sort path < /dev/null
out: foo bar\nfoo1\nfoo2\nint foo;\ndef foo():\n
err: 

test: rg -c foo a.txt
cmd: mkdir -p src/sub .hidden .git; printf 'hello world\nfoo bar\nHello again\n' > a.txt; printf 'def foo():\n    return 1\n' > src/x.py; printf 'int foo;\n' > src/sub/y.c; echo 'foo hidden' > .hidden/h.txt; printf 'ignored.txt\n*.log\n' > .gitignore; echo 'foo ign' > ignored.txt; echo 'foo log' > src/z.log; printf 'a\0b foo\n' > bin.dat; printf 'x\nfoo1\ny\nz\nw\nfoo2\nq\n' > ctx.txt; rg -c foo a.txt < /dev/null
out: 1\n
err: 

test: rg --count-matches o a.txt
cmd: mkdir -p src/sub .hidden .git; printf 'hello world\nfoo bar\nHello again\n' > a.txt; printf 'def foo():\n    return 1\n' > src/x.py; printf 'int foo;\n' > src/sub/y.c; echo 'foo hidden' > .hidden/h.txt; printf 'ignored.txt\n*.log\n' > .gitignore; echo 'foo ign' > ignored.txt; echo 'foo log' > src/z.log; printf 'a\0b foo\n' > bin.dat; printf 'x\nfoo1\ny\nz\nw\nfoo2\nq\n' > ctx.txt; rg --count-matches o a.txt < /dev/null
out: 5\n
err: 

test: rg '\bfo+\b' --sort path
cmd: mkdir -p src/sub .hidden .git; printf 'hello world\nfoo bar\nHello again\n' > a.txt; printf 'def foo():\n    return 1\n' > src/x.py; printf 'int foo;\n' > src/sub/y.c; echo 'foo hidden' > .hidden/h.txt; printf 'ignored.txt\n*.log\n' > .gitignore; echo 'foo ign' > ignored.txt; echo 'foo log' > src/z.log; printf 'a\0b foo\n' > bin.dat; printf 'x\nfoo1\ny\nz\nw\nfoo2\nq\n' > ctx.txt; rg '\bfo+\b' --sort path < /dev/null
out: a.txt:foo bar\nsrc/sub/y.c:int foo;\nsrc/x.py:def foo():\n
err: 

test: rg 'fo{2}\s' --sort path
cmd: mkdir -p src/sub .hidden .git; printf 'hello world\nfoo bar\nHello again\n' > a.txt; printf 'def foo():\n    return 1\n' > src/x.py; printf 'int foo;\n' > src/sub/y.c; echo 'foo hidden' > .hidden/h.txt; printf 'ignored.txt\n*.log\n' > .gitignore; echo 'foo ign' > ignored.txt; echo 'foo log' > src/z.log; printf 'a\0b foo\n' > bin.dat; printf 'x\nfoo1\ny\nz\nw\nfoo2\nq\n' > ctx.txt; rg 'fo{2}\s' --sort path < /dev/null
out: a.txt:foo bar\n
err: 

test: rg foo src
cmd: mkdir -p src/sub .hidden .git; printf 'hello world\nfoo bar\nHello again\n' > a.txt; printf 'def foo():\n    return 1\n' > src/x.py; printf 'int foo;\n' > src/sub/y.c; echo 'foo hidden' > .hidden/h.txt; printf 'ignored.txt\n*.log\n' > .gitignore; echo 'foo ign' > ignored.txt; echo 'foo log' > src/z.log; printf 'a\0b foo\n' > bin.dat; printf 'x\nfoo1\ny\nz\nw\nfoo2\nq\n' > ctx.txt; rg foo src < /dev/null
out: src/sub/y.c:int foo;\nsrc/x.py:def foo():\n
err: 

test: rg foo . --sort path
cmd: mkdir -p src/sub .hidden .git; printf 'hello world\nfoo bar\nHello again\n' > a.txt; printf 'def foo():\n    return 1\n' > src/x.py; printf 'int foo;\n' > src/sub/y.c; echo 'foo hidden' > .hidden/h.txt; printf 'ignored.txt\n*.log\n' > .gitignore; echo 'foo ign' > ignored.txt; echo 'foo log' > src/z.log; printf 'a\0b foo\n' > bin.dat; printf 'x\nfoo1\ny\nz\nw\nfoo2\nq\n' > ctx.txt; rg foo . --sort path < /dev/null
out: ./a.txt:foo bar\n./ctx.txt:foo1\n./ctx.txt:foo2\n./src/sub/y.c:int foo;\n./src/x.py:def foo():\n
err: 

test: rg -l foo ./src
cmd: mkdir -p src/sub .hidden .git; printf 'hello world\nfoo bar\nHello again\n' > a.txt; printf 'def foo():\n    return 1\n' > src/x.py; printf 'int foo;\n' > src/sub/y.c; echo 'foo hidden' > .hidden/h.txt; printf 'ignored.txt\n*.log\n' > .gitignore; echo 'foo ign' > ignored.txt; echo 'foo log' > src/z.log; printf 'a\0b foo\n' > bin.dat; printf 'x\nfoo1\ny\nz\nw\nfoo2\nq\n' > ctx.txt; rg -l foo ./src < /dev/null
out: ./src/sub/y.c\n./src/x.py\n
err: 

test: rg -w -F fo
cmd: mkdir -p src/sub .hidden .git; printf 'hello world\nfoo bar\nHello again\n' > a.txt; printf 'def foo():\n    return 1\n' > src/x.py; printf 'int foo;\n' > src/sub/y.c; echo 'foo hidden' > .hidden/h.txt; printf 'ignored.txt\n*.log\n' > .gitignore; echo 'foo ign' > ignored.txt; echo 'foo log' > src/z.log; printf 'a\0b foo\n' > bin.dat; printf 'x\nfoo1\ny\nz\nw\nfoo2\nq\n' > ctx.txt; rg -w -F fo < /dev/null
out: 
err: 
status: 1

test: rg -x -F 'foo bar'
cmd: mkdir -p src/sub .hidden .git; printf 'hello world\nfoo bar\nHello again\n' > a.txt; printf 'def foo():\n    return 1\n' > src/x.py; printf 'int foo;\n' > src/sub/y.c; echo 'foo hidden' > .hidden/h.txt; printf 'ignored.txt\n*.log\n' > .gitignore; echo 'foo ign' > ignored.txt; echo 'foo log' > src/z.log; printf 'a\0b foo\n' > bin.dat; printf 'x\nfoo1\ny\nz\nw\nfoo2\nq\n' > ctx.txt; rg -x -F 'foo bar' < /dev/null
out: a.txt:foo bar\n
err: 

test: rg -w 'foo|bar' a.txt
cmd: mkdir -p src/sub .hidden .git; printf 'hello world\nfoo bar\nHello again\n' > a.txt; printf 'def foo():\n    return 1\n' > src/x.py; printf 'int foo;\n' > src/sub/y.c; echo 'foo hidden' > .hidden/h.txt; printf 'ignored.txt\n*.log\n' > .gitignore; echo 'foo ign' > ignored.txt; echo 'foo log' > src/z.log; printf 'a\0b foo\n' > bin.dat; printf 'x\nfoo1\ny\nz\nw\nfoo2\nq\n' > ctx.txt; rg -w 'foo|bar' a.txt < /dev/null
out: foo bar\n
err: 

test: rg -i -w HELLO a.txt
cmd: mkdir -p src/sub .hidden .git; printf 'hello world\nfoo bar\nHello again\n' > a.txt; printf 'def foo():\n    return 1\n' > src/x.py; printf 'int foo;\n' > src/sub/y.c; echo 'foo hidden' > .hidden/h.txt; printf 'ignored.txt\n*.log\n' > .gitignore; echo 'foo ign' > ignored.txt; echo 'foo log' > src/z.log; printf 'a\0b foo\n' > bin.dat; printf 'x\nfoo1\ny\nz\nw\nfoo2\nq\n' > ctx.txt; rg -i -w HELLO a.txt < /dev/null
out: hello world\nHello again\n
err: 

test: rg -l foo src/sub
cmd: mkdir -p src/sub .hidden .git; printf 'hello world\nfoo bar\nHello again\n' > a.txt; printf 'def foo():\n    return 1\n' > src/x.py; printf 'int foo;\n' > src/sub/y.c; echo 'foo hidden' > .hidden/h.txt; printf 'ignored.txt\n*.log\n' > .gitignore; echo 'foo ign' > ignored.txt; echo 'foo log' > src/z.log; printf 'a\0b foo\n' > bin.dat; printf 'x\nfoo1\ny\nz\nw\nfoo2\nq\n' > ctx.txt; rg -l foo src/sub < /dev/null
out: src/sub/y.c\n
err: 

test: rg -c o --sort path src a.txt
cmd: mkdir -p src/sub .hidden .git; printf 'hello world\nfoo bar\nHello again\n' > a.txt; printf 'def foo():\n    return 1\n' > src/x.py; printf 'int foo;\n' > src/sub/y.c; echo 'foo hidden' > .hidden/h.txt; printf 'ignored.txt\n*.log\n' > .gitignore; echo 'foo ign' > ignored.txt; echo 'foo log' > src/z.log; printf 'a\0b foo\n' > bin.dat; printf 'x\nfoo1\ny\nz\nw\nfoo2\nq\n' > ctx.txt; rg -c o --sort path src a.txt < /dev/null
out: src/sub/y.c:1\nsrc/x.py:1\na.txt:3\n
err: 

test: stdin is searched when it is a pipe
cmd: printf 'a\nfoo\n' | rg foo; printf 'a\nfoo\n' | rg -n -H foo
out: foo\n<stdin>:2:foo\n
err: 

test: .gitignore only counts inside a repository
cmd: printf 'x.txt\n' > .gitignore; echo foo > x.txt; echo foo > y.txt; rg -l foo --sort path < /dev/null; mkdir .git; rg -l foo < /dev/null
out: x.txt\ny.txt\ny.txt\n
err: 

test: nested .gitignore, negation and directory rules
cmd: mkdir -p .git a/b build; printf 'build/\n*.tmp\n!keep.tmp\n' > .gitignore; printf 'secret\n' > a/.gitignore; for f in a/b/x a/secret a/k.tmp a/keep.tmp build/o c; do echo foo > $f; done; rg -l foo --sort path < /dev/null; rg -l foo a --sort path
out: a/b/x\na/keep.tmp\nc\na/b/x\na/keep.tmp\n
err: 

test: a bad pattern
cmd: rg '(' a; echo $?
out: 2\n

test: --json with context: begin, match, context, end and summary messages
cmd: printf 'hello world\nfoo\nhello again h\303\251llo\n' > a.txt; printf 'nothing\n' > b.txt
cmd: rg --json -C1 hello a.txt b.txt | sed -E 's/"(secs|nanos)":[0-9]+/"\1":N/g; s/"human":"[0-9.]+s"/"human":"H"/g'
out: {"type":"begin","data":{"path":{"text":"a.txt"}}}\n
out: {"type":"match","data":{"path":{"text":"a.txt"},"lines":{"text":"hello world\\n"},"line_number":1,"absolute_offset":0,"submatches":[{"match":{"text":"hello"},"start":0,"end":5}]}}\n
out: {"type":"context","data":{"path":{"text":"a.txt"},"lines":{"text":"foo\\n"},"line_number":2,"absolute_offset":12,"submatches":[]}}\n
out: {"type":"match","data":{"path":{"text":"a.txt"},"lines":{"text":"hello again h\303\251llo\\n"},"line_number":3,"absolute_offset":16,"submatches":[{"match":{"text":"hello"},"start":0,"end":5}]}}\n
out: {"type":"end","data":{"path":{"text":"a.txt"},"binary_offset":null,"stats":{"elapsed":{"secs":N,"nanos":N,"human":"H"},"searches":1,"searches_with_match":1,"bytes_searched":35,"bytes_printed":546,"matched_lines":2,"matches":2}}}\n
out: {"data":{"elapsed_total":{"human":"H","nanos":N,"secs":N},"stats":{"bytes_printed":546,"bytes_searched":35,"elapsed":{"human":"H","nanos":N,"secs":N},"matched_lines":2,"matches":2,"searches":1,"searches_with_match":1}},"type":"summary"}\n

test: --json escapes, stdin, no match, -v and several matches on a line
cmd: printf 'x\tq"\\\n' > c.txt; rg --json 'q"' c.txt | head -2; rg --json zzz c.txt | grep -c summary; echo ${PIPESTATUS[0]}
cmd: printf 'hello hello\n' | rg --json hello | sed -n 2p; printf 'a\nb\n' | rg --json -v a | sed -n 2p
out: {"type":"begin","data":{"path":{"text":"c.txt"}}}\n
out: {"type":"match","data":{"path":{"text":"c.txt"},"lines":{"text":"x\\tq\\"\\\\\\n"},"line_number":1,"absolute_offset":0,"submatches":[{"match":{"text":"q\\""},"start":2,"end":4}]}}\n
out: 1\n1\n
out: {"type":"match","data":{"path":{"text":"<stdin>"},"lines":{"text":"hello hello\\n"},"line_number":1,"absolute_offset":0,"submatches":[{"match":{"text":"hello"},"start":0,"end":5},{"match":{"text":"hello"},"start":6,"end":11}]}}\n
out: {"type":"match","data":{"path":{"text":"<stdin>"},"lines":{"text":"b\\n"},"line_number":2,"absolute_offset":2,"submatches":[]}}\n

test: -r replaces every match, with $0, $N, ${N}, $name, ${name} and $$
cmd: printf 'hello world\nfoo\nhello again\n' > a.txt
cmd: rg -r '[$0]' hello a.txt; rg -o -r '<$1>' 'h(e)llo' a.txt; rg -r '${w}:$$' '(?P<w>wor)ld' a.txt
cmd: rg -n -r 'X' -e ll -e fo a.txt; rg -r '$2$1' '(h)(e)' a.txt; rg -r '${1}x$1x' '(o)' a.txt; rg -r '$nope.' 'l+' a.txt
out: [hello] world\n[hello] again\n<e>\n<e>\nhello wor:$\n1:heXo world\n2:Xo\n3:heXo again\nehllo world\nehllo again\n
out: hellox woxrld\nfoxox\nhellox again\nhe.o wor.d\nhe.o again\n

test: -r with -o and --column
cmd: printf 'a1b22c333\n' | rg -o -r '<$0>' '\d+'; printf 'a1b22c333\n' | rg --column -r '#' '\d+'
out: <1>\n<22>\n<333>\n1:2:a#b#c#\n

test: -U lets a match span lines; each line it touches is printed once
cmd: printf 'foo\nbar\nbaz foo\nbar x\nq\n' > f
cmd: rg -U 'foo\nbar' f; echo st=$?; rg -Un 'foo\nbar' f; rg -Uc 'foo\nbar' f; rg -U --count-matches 'o\nb' f
cmd: rg -Uo 'foo\nbar' f; rg -U -n 'a.*\n.*o' f; rg -U 'x\nq\n' f; rg -U '^bar' f; rg -Ul 'r\nb' f; rg -U -n -H 'z foo$' f
cmd: rg -U 'nope\nx' f; echo st=$?; rg -U --multiline 'q\n' f; rg -U -m1 -n 'bar' f
out: foo\nbar\nbaz foo\nbar x\nst=0\n1:foo\n2:bar\n3:baz foo\n4:bar x\n2\n2\nfoo\nbar\nfoo\nbar\n2:bar\n3:baz foo\n
out: bar x\nq\nbar\nbar x\nf\nf:3:baz foo\nst=1\nq\n2:bar\n

test: --sort/--sortr modified order siblings by time, then each directory's contents
cmd: mkdir -p d1 d2; touch -d '2020-01-05' d1/a; touch -d '2020-01-01' d1/b; touch -d '2020-01-03' d2/c
cmd: touch -d '2020-01-02' e; touch -d '2020-01-04' f; touch -d '2020-01-06' d1; touch -d '2020-01-01' d2
cmd: rg --files --sort modified; echo --; rg --files --sortr modified; echo --; rg --files --sortr path; echo --
cmd: rg --files --sort=path; echo --; rg --files --sort modified d1 .; rg --files --sort bogus; echo $?
out: d2/c\ne\nf\nd1/b\nd1/a\n--\nd1/a\nd1/b\nf\ne\nd2/c\n--\nf\ne\nd2/c\nd1/b\nd1/a\n--\nd1/a\nd1/b\nd2/c\ne\nf\n--\n
out: d1/b\nd1/a\n./d2/c\n./e\n./f\n./d1/b\n./d1/a\n2\n

test: -r names at most 64 capture groups; later ones replace with nothing
cmd: p=$(for i in $(seq 70); do printf '(a)'; done); s=$(for i in $(seq 70); do printf 'a'; done)
cmd: echo "$s" | rg -o -r '[$1|$63|$64|$70]' "$p"
out: [a|a||]\n
# ripgrep has no such bound (src/cmd/rg.c RG_MAX_GROUPS)
host: skip

test: long names from the option string
cmd: printf 'a.b\naxb\n' > g; mkdir -p d/e; echo a > d/e/h; echo a > d/i
cmd: rg --fixed-strings --count a.b g; rg --color=never --maxdepth=2 --files-with-matches a d | sort
cmd: rg --invert-match --line-number x g; rg --max-depth=1 --files-without-match b d; rg --count-matches --color never a g
out: 1\nd/e/h\nd/i\n1:a.b\nd/i\n2\n

# sbx only: ripgrep 13 has no --colour; sbx takes it for --color, as grep does
test: --colour is --color, and its prefix is not ambiguous
cmd: echo a > g; rg --colour=never a g; rg --colo never a g; rg --col 2>&1 | head -1
out: a\na\nrg: option '--col' is ambiguous; possibilities: '--column' '--color' '--colour'\n
host: skip
