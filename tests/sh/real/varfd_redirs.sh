#!/bin/bash
# {var}> redirections: allocated descriptors, with and without a command.
exec {log}>log.txt
echo "fd is >= 10: $(( log >= 10 ))"
echo "to log" >&$log
printf 'more\n' >&"$log"
exec {log}>&-
cat log.txt
{out}>only.txt
echo "no-command var: [${out-unset}]"
ls only.txt
exec {in}<log.txt
read -r first <&$in
echo "first=$first"
exec {in}<&-
exec {a}>a.txt {b}>b.txt
echo A >&$a; echo B >&$b
exec {a}>&- {b}>&-
cat a.txt b.txt
f() { echo "inside f" >&$fd; }
exec {fd}>f.txt
f
exec {fd}>&-
cat f.txt
echo x {n}>n.txt
echo "n set: ${n:+yes}"
exec {dup}>&1
echo "through dup" >&$dup
exec {dup}>&-
echo "closed: $( { echo z >&$dup; } 2>&1 | sed 's/.*: //')"
