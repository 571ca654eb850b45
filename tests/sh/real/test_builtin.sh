#!/bin/bash
# [ ], test and [[ ]] in real checks.
touch file.txt; mkdir dir; ln -s file.txt link
for p in file.txt dir link nosuch; do
  printf '%-8s' "$p"
  [ -e "$p" ] && printf ' e'
  [ -f "$p" ] && printf ' f'
  [ -d "$p" ] && printf ' d'
  [ -L "$p" ] && printf ' L'
  [ -f "$p" ] && [ -s "$p" ] && printf ' s' # a directory's size depends on the file system
  [ -r "$p" ] && printf ' r'
  echo
done
[ 1 -lt 2 ] && echo "1 < 2"
[ abc \< abd ] && echo "string <"
[ "" ] || echo "empty false"
[ -n "" ] || echo "-n empty false"
[ -z "" ] && echo "-z empty"
[ x = x -a y = y ] && echo "-a works"
[ x = y -o y = y ] && echo "-o works"
[ ! -e nosuch ] && echo "negation"
[ 1 -eq 01 ] && echo "numeric equal"
[ a -eq 1 ] 2>&1; echo "bad int: $?"
[ 1 2 ] 2>&1; echo "too many: $?"
[ ] ; echo "empty test: $?"
test -t 0; echo "tty: $?"
[[ abc == a* ]] && echo "glob match"
[[ abc == "a*" ]] || echo "quoted no glob"
[[ foo123 =~ ^[a-z]+([0-9]+)$ ]] && echo "re: ${BASH_REMATCH[1]}"
re='^(x|y)+$'
[[ xyx =~ $re ]] && echo "re from var"
[[ 'a.b' =~ a\.b ]] && echo "escaped dot"
[[ -n $unset ]] || echo "unquoted empty ok"
[[ 10 -gt 9 ]] && echo "numeric [[ ]]"
[[ 10 > 9 ]] || echo "string compare 10 > 9 false"
[[ a < b && ! b < a ]] && echo "and/not"
[[ ( 1 -eq 1 ) || 1 -eq 2 ]] && echo "parens"
[[ file.txt -nt nosuch ]] && echo "newer than missing"
x=5
[[ x -eq 5 ]] && echo "arith in -eq"
[[ -v x ]] && echo "x is set"
[[ -v nosuch ]] || echo "nosuch unset"
arr=(1)
[[ -v arr[0] ]] && echo "arr[0] set"
[[ -o errexit ]] || echo "errexit off"
eval '[[ 1 -eq ]]' 2>&1
echo "status: $?"
[ -f file.txt ] && [ -w file.txt ] && echo writable
test 2 -ge 2 && echo ge
[ "(" = "(" ] && echo paren-literal
