#!/bin/bash
# {var}> redirections: named file descriptors.
exec {out}>log.txt
echo "fd allocated: $(( out >= 10 ))"
echo "first line" >&$out
echo "second line" >&"$out"
exec {out}>&-
cat log.txt
exec {in}<log.txt
read -r line <&$in
echo "read: $line"
exec {in}<&-
{ echo "to var fd"; } {fd}>block.txt
cat block.txt
echo "fd after block: ${fd-unset} $(( fd >= 10 ))"
unset fd
{v}>empty.txt
echo "no-command v=[${v-unset}]"
echo data {w}>w.txt
echo "w set: $(( w >= 10 ))"
exec {w}>&-
cat w.txt
exec 3>three.txt
echo three >&3
exec 3>&-
cat three.txt
exec {dup}>&1
echo "via dup" >&$dup
exec {dup}>&-
echo hi >&9 2>&1 || echo "bad fd status: $?"
f() { echo "in f" >&$1; }
exec {log}>flog.txt
f $log
exec {log}>&-
cat flog.txt
