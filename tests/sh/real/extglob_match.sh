#!/bin/bash
# extglob patterns in globs, case and [[ ]], on a directory of twenty files.
shopt -s extglob
for i in $(seq 1 20); do touch "file$i.txt"; done
touch a.log b.log notes.md
echo *(/a)
echo +(file1)*.txt
echo !(*.txt)
echo @(a|b).log
echo file?([0-9])[0-9].txt | wc -w
echo *(f|i|l|e)1.txt
for w in abc aaa abab "" xyz; do
  case $w in
    +(a)) echo "$w: only a" ;;
    *(ab)) echo "$w: ab repeated" ;;
    ?(x)y*) echo "$w: xy" ;;
    !(*b*)) echo "$w: no b" ;;
    *) echo "$w: other" ;;
  esac
done
long=$(printf 'a%.0s' {1..40})
[[ $long == *(a)b ]] && echo match || echo "no match (fast)"
[[ $long == +(a|aa) ]] && echo "long matches +(a|aa)"
s="foo.tar.gz"
echo "${s%%@(.tar|.gz)*}" "${s##*@(.)}" "${s//+(o)/0}"
x=$'\tpad  '
echo "[${x##+([[:space:]])}]" "[${x%%+([[:space:]])}]"
