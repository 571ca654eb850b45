#!/bin/bash
# Syntax errors inside eval and arrays are reported and the script goes on.
echo begin
eval 'a=(x & y)'
echo "after array syntax: $?"
eval 'if true; then echo no; fi fi'
echo "after fi fi: $?"
eval 'echo "unterminated'
echo "after unterminated: $?"
eval 'case x in'
echo "after case: $?"
eval '(( 1 + ))'
echo "after (( )): $?"
eval 'f() { echo body }'
echo "after bad function: $?"
eval 'for in; do :; done'
echo "after bad for: $?"
eval 'echo $((1 +'
echo "after open arith: $?"
eval '[[ a == ]]'
echo "after [[ ]]: $?"
bash -c 'echo inner; if; then'
echo "bash -c status: $?"
bash -c 'echo ${x'
echo "bash -c bad subst: $?"
eval 'x=(a b' 
echo "open array: $?"
eval 'echo )'
echo "stray paren: $?"
eval 'done'
echo "stray done: $?"
eval '{ echo a; '
echo "open brace: $?"
echo end
