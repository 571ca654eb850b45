# Plain-text shell cases: "### name", the script, then "--- stdout", and
# optionally "--- stderr" and "--- status N". Each case runs in a fresh
# in-memory sandbox (cwd /data) through sbx_bash. Lines starting with "#"
# before the first case are comments.

### echo and quoting
echo "a  b" 'c  d' e\ f
--- stdout
a  b c  d e f

### variables and defaults
x=1; unset y
echo ${x:-d} ${y:-d} ${y-u} ${x:+set}
--- stdout
1 d u set

### arithmetic
echo $(( 7 / 2 )) $(( -7 % 3 )) $(( 1 ? 2 : 3 )) $(( 0x10 + 010 + 2#101 ))
--- stdout
3 -1 2 29

### word splitting and IFS
x='a b  c'; set -- $x; echo $#
IFS=:; y='p:q::r'; set -- $y; echo $# "[$3]"
--- stdout
3
4 []

### command not found
nosuchcmd
echo $?
--- stdout
127
--- stderr
sbx: line 1: nosuchcmd: command not found

### syntax error reports the line and its text
echo before
if then
--- stdout
before
--- stderr
sbx: line 2: syntax error near unexpected token `then'
sbx: line 2: `if then'
--- status 2

### functions, locals and return
f() { local a=$1; echo "in $a"; return 3; }
f arg; echo "status $?"
--- stdout
in arg
status 3

### here-documents
x=val
cat <<END
unquoted $x
END
cat <<'END'
quoted $x
END
--- stdout
unquoted val
quoted $x

### pipelines and PIPESTATUS
true | false | true; echo ${PIPESTATUS[*]}
set -o pipefail; true | false | true; echo $?
--- stdout
0 1 0
1

### redirections interleave 2>&1 in order
{ echo out1; echo err1 >&2; echo out2; } 2>&1
--- stdout
out1
err1
out2

### files in the store
echo one > f; echo two >> f; cat f; wc -l < f
--- stdout
one
two
2

### case with fallthrough
case b in a) echo a;; b) echo b;& c) echo c;; d) echo d;; esac
--- stdout
b
c

### brace expansion and globbing
touch a1 a2 b1
echo a* {x,y}{1..2}
--- stdout
a1 a2 x1 x2 y1 y2

### set -e stops at the failing command
set -e
echo one
false
echo two
--- stdout
one
--- status 1

### a limit ends the call with 126 and names the limit
echo before; a=({1..200000}); echo after
--- stdout
before
--- stderr
sbx: execution limit exceeded: array_size (100000)
--- status 126

### the default limits let a loop over a large file run to its end
seq 3000 > /tmp/f; n=0; while read -r l; do n=$((n + 1)); done < /tmp/f; echo $n
--- stdout
3000

### an endless producer into head ends at once
while :; do echo y; done | head -n 2
--- stdout
y
y

### process substitution
cat <(echo from procsub)
--- stdout
from procsub

### background job and wait
{ echo bg; } & wait $!; echo "done $?"
--- stdout
bg
done 0

### traps run on exit
trap 'echo cleanup' EXIT
echo main
exit 4
--- stdout
main
cleanup
--- status 4
