#!/bin/bash
# read with -a, -d, -n, -N, -r, -s, IFS and here-strings, as parsers use it.
read -ra words <<<"  one two   three  "
declare -p words
IFS=, read -ra csv <<<"a,b,,d,"
declare -p csv
IFS=: read -r user pass uid rest <<<"root:x:0:0:root:/root:/bin/bash"
echo "user=$user uid=$uid rest=$rest"
read -d ';' first <<<"part1;part2"; echo "first=$first status=$?"
read -d '' all <<<"no delimiter here"; echo "all=[$all] status=$?"
read -n 3 three <<<"abcdef"; echo "three=$three"
read -N 4 four <<<"ab
cd"; printf 'four=[%q]\n' "$four"
read -r raw <<<'back\slash \n'; echo "raw=$raw"
read cooked <<<'back\slash \n'; echo "cooked=$cooked"
read -r a b <<<"only"; echo "a=$a b=[${b}]"
read -r line <<<"  padded  "; echo "[$line]"
IFS= read -r line <<<"  padded  "; echo "[$line]"
read <<<"into reply"; echo "REPLY=$REPLY"
printf 'x\ny\nz' | { n=0; while read -r l || [[ -n $l ]]; do ((n++)); done; echo "lines=$n"; }
printf 'a\0b\0c\0' | while IFS= read -r -d '' item; do echo "item=$item"; done
read -r -a parts -d '' <<<"m n
o p"; echo "${#parts[@]} parts"
read -t 0 <&-; echo "t0 closed: $?"
echo "in" | { read -t 1 v; echo "v=$v status $?"; }
read x </dev/null; echo "eof status $?"
read -p "prompt: " answer <<<"yes" 2>&1; echo "answer=$answer"
read -n 0 z <<<"abc"; echo "n0=[$z] $?"
read -a 2>&1; echo "status $?"
IFS=$'\n' read -r -d '' -a lines <<<"l1
l2 with space
l3"; declare -p lines
