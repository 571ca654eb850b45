#!/bin/bash
# Syntax errors inside compound assignments and eval: reported, and the script continues.
echo start
eval 'a=(x & y)'
echo "after &: $?"
eval 'b=(x ; y)'
echo "after ;: $?"
eval 'c=(x | y)'
echo "after |: $?"
eval 'd=(one (two) three)'
echo "after (): $?"
eval 'e=(ok "fine" [3]=three)'
declare -p e
eval 'f=( $(echo a b) "${e[@]}" )'
declare -p f
eval 'g=( [0]=a [0]+=b )'
declare -p g
eval 'for x in 1 2; do'
echo "after unterminated for: $?"
eval 'echo "unterminated'
echo "after quote: $?"
eval 'case x in'
echo "after case: $?"
eval '((1 +'
echo "after arith: $?"
eval 'fi'
echo "after fi: $?"
eval '}'
echo "after brace: $?"
eval 'f() '
echo "after fn: $?"
bash -c 'x=(a & b); echo unreachable'
echo "child status: $?"
bash -c 'echo before; if; echo after' 2>&1
echo "child2: $?"
echo end
