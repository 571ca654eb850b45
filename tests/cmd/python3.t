# python3 and python: Python in the sandbox's worker, wired into the shell like
# the real interpreter (options, sys.argv, stdin/stdout/stderr, exit status,
# environment and working directory). Against the host these run the host's
# python3, which proves the expectations.

test: -c prints
cmd: python3 -c 'print("hi")'
out: hi\n

test: stdin and stdout in a pipeline
cmd: echo hi | python3 -c 'import sys; print(sys.stdin.read().upper())' | tr H J
out: JI\n\n

test: exit status of sys.exit
cmd: python3 -c 'import sys; sys.exit(3)'; echo $?
out: 3\n

test: sys.exit with a message prints it and exits 1
cmd: python3 -c 'import sys; sys.exit("bye")'; echo $?
out: 1\n
err: bye\n

test: sys.exit(None) and status modulo 256
cmd: python3 -c 'import sys; sys.exit(None)'; echo $?; python3 -c 'raise SystemExit(258)'; echo $?
out: 0\n2\n

test: exit and quit builtins
cmd: python3 -c 'exit(4)'; echo $?; python3 -c 'quit()'; echo $?
out: 4\n0\n

test: uncaught exception prints the traceback and exits 1
cmd: python3 -c 'raise ValueError("x")'; echo $?
out: 1\n
err: Traceback (most recent call last):\n  File "<string>", line 1, in <module>\nValueError: x\n

test: syntax error exits 1
cmd: python3 -c 'def' 2>/dev/null; echo $?
out: 1\n

test: status in a condition
cmd: if python3 -c 'import sys; sys.exit(1)'; then echo yes; else echo no; fi
out: no\n

test: -c arguments in sys.argv
cmd: python3 -c 'import sys; print(sys.argv)' a 'b c' -- -x
out: ['-c', 'a', 'b c', '--', '-x']\n

test: script path with arguments
file: script.py=import sys\nprint(sys.argv)\nprint(__name__)\n
cmd: python3 script.py a b
out: ['script.py', 'a', 'b']\n__main__\n

test: script __file__ and traceback with its lines
file: s.py=import os\nprint(os.path.basename(__file__))\nx = 1\nraise KeyError(x)\n
cmd: python3 s.py 2>err; echo $?; grep -v '^  File' err; grep -c '^  File ".*/s.py", line 4, in <module>$' err
out: s.py\n1\nTraceback (most recent call last):\n    raise KeyError(x)\nKeyError: 1\n1\n

test: the script's directory comes first in sys.path
file: lib/helper.py=VALUE = 42\n
file: lib/main.py=import helper\nprint(helper.VALUE)\n
cmd: python3 lib/main.py
out: 42\n

test: python is python3
# The host may have no `python` command (Debian has none without python-is-python3).
host: skip
cmd: python -c 'import sys; print(sys.version_info[0])'
out: 3\n

test: - reads the script from stdin
cmd: echo 'import sys; print(6 * 7, sys.argv)' | python3 - x y
out: 42 ['-', 'x', 'y']\n

test: without a script operand the script is stdin
cmd: printf 'import sys\nprint(sys.argv)\n' | python3
out: ['']\n

test: here-document script
cmd: python3 <<'EOF'
cmd: total = 0
cmd: for i in range(5):
cmd:     total += i
cmd: print(total)
cmd: EOF
out: 10\n

test: -m json.tool from stdin
in: {"b": 1, "a": [1, 2]}\n
cmd: python3 -m json.tool < input
out: {\n    "b": 1,\n    "a": [\n        1,\n        2\n    ]\n}\n

test: -m json.tool with a file argument and --sort-keys
in: {"b": 1, "a": 2}\n
cmd: python3 -m json.tool --sort-keys input
out: {\n    "a": 2,\n    "b": 1\n}\n

test: -m json.tool refuses invalid JSON
cmd: echo '{nope' | python3 -m json.tool; echo $?
out: 1\n
err: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)\n

test: -m with a module of the working directory and its arguments
file: mymod.py=import os, sys\nprint(os.path.basename(sys.argv[0]), sys.argv[1:], __name__)\n
cmd: python3 -m mymod a b
out: mymod.py ['a', 'b'] __main__\n

test: -m of a missing module
cmd: python3 -m no_such_module_here 2>/dev/null; echo $?
out: 1\n

test: stdout and stderr are separate streams
cmd: python3 -c 'import sys; print("out"); print("err", file=sys.stderr)' 2>/dev/null
cmd: python3 -c 'import sys; print("out"); print("err", file=sys.stderr)' 2>&1 >/dev/null
out: out\nerr\n

test: input() reads stdin
stdin: abc\ndef\n
cmd: python3 -c 'print(input().upper()); print(input())'
out: ABC\ndef\n

test: binary stdin and stdout
cmd: printf 'a\0b\377' | python3 -c 'import sys; d = sys.stdin.buffer.read(); sys.stdout.buffer.write(d[::-1])' | od -An -tx1
out:  ff 62 00 61\n

test: output streams into a pipeline that stops early
cmd: python3 -c 'for i in range(100000): print(i)' 2>/dev/null | head -n 2
out: 0\n1\n

test: long output through a pipeline
cmd: python3 -c 'for i in range(20000): print(i)' | tail -n 1
out: 19999\n

test: assignment before the command reaches os.environ
cmd: X=1 python3 -c 'import os; print(os.environ["X"])'
out: 1\n

test: exported variables reach os.environ, unexported ones do not
cmd: export Y=2; Z=3; python3 -c 'import os; print(os.environ.get("Y"), os.environ.get("Z"))'
out: 2 None\n

test: unset variables are gone from os.environ
cmd: export W=1; unset W; python3 -c 'import os; print("W" in os.environ)'
out: False\n

test: os.environ changes stay in the script
cmd: python3 -c 'import os; os.environ["Q"] = "1"'; echo "${Q-unset}"
cmd: export Q=shell; python3 -c 'import os; os.environ["Q"] = "py"'; python3 -c 'import os; print(os.environ["Q"])'
out: unset\nshell\n

test: working directory is the shell's
cmd: mkdir -p d/e; cd d/e; python3 -c 'import os; print(os.path.basename(os.getcwd()))'
cmd: [ "$(python3 -c 'import os; print(os.getcwd())')" = "$PWD" ] && echo same
out: e\nsame\n

test: relative paths are the shell's
cmd: echo data > f; python3 -c 'print(open("f").read(), end=""); open("g", "w").write("from python\n")'; cat g
out: data\nfrom python\n

test: subshell directory
cmd: mkdir sub; (cd sub && python3 -c 'import os; print(os.path.basename(os.getcwd()))'); python3 -c 'import os; print(os.path.basename(os.getcwd()) != "sub")'
out: sub\nTrue\n

test: ignored interpreter options and clusters
cmd: python3 -u -B -E -s -c 'print(1)'; python3 -uc 'print(2)'; python3 -W ignore -X dev -c 'print(3)'
out: 1\n2\n3\n

test: -V
cmd: python3 -V | cut -d. -f1,2; python3 --version | cut -d' ' -f1
out: Python 3.11\nPython\n

test: unknown option
cmd: python3 -Z 2>/dev/null; echo $?
out: 2\n

test: a missing script exits 2
cmd: python3 no_such_script.py 2>/dev/null; echo $?
out: 2\n

test: -c without an argument exits 2
cmd: python3 -c 2>/dev/null; echo $?
out: 2\n

test: coding declaration of a script file
file: lat.py=# -*- coding: latin-1 -*-\nprint(len("\xe9"))\n
cmd: python3 lat.py
out: 1\n

test: arguments that are not UTF-8
cmd: python3 -c 'import sys, os; print(ascii(sys.argv[1]), os.fsencode(sys.argv[1]))' "$(printf 'a\377')"
out: 'a\\udcff' b'a\\xff'\n

test: modules stay usable across commands, state does not
cmd: python3 -c 'import json; x = 1'; python3 -c 'print("x" in globals())'
out: False\n
