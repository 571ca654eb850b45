#!/bin/bash
# Brace expansion, command substitution and word splitting.
echo {a,b}{1,2}
echo x{,y}z pre-{one,two}-post
echo {1..10..3} {z..u} {-2..2}
echo {a..c}{1..2}
echo {1..3}{,}
echo {a,b,{c,d}}
echo {abc} {a} {,} {a,}
echo "{a,b}" '{a,b}' \{a,b\}
x=1; echo {$x,2}
echo {1..3..0} 2>&1
echo {0001..3}
echo {Z..a} | wc -w
mkdir -p t/{src,lib}/{a,b}
find t -type d | sort | tr '\n' ' '; echo
files=$(printf '%s\n' one "two three")
for f in $files; do echo "word: $f"; done
IFS=$'\n'
for f in $files; do echo "line: $f"; done
unset IFS
echo "$(echo "nested $(echo "deep $(echo deepest)")")"
echo `echo backtick \`echo inner\``
v=$(printf 'trailing\n\n\n')
echo "[$v]"
v=$(printf '\n\nleading')
echo "[$v]"
echo $(echo "  spaced   words  ")
echo "$(echo "  spaced   words  ")"
set -- $(echo "a b c")
echo $#
empty=""
set -- $empty "" $empty
echo $#
a="x y"
set -- $a"z w"
echo "$# $*"
echo $(( $(echo 3) + 4 ))
echo "${x}$(echo mid)${x}"
n=$(exit 4); echo "subst status $?"
echo $(cat <<EOF
from heredoc in subst
EOF
)
