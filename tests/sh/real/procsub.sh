#!/bin/bash
# Process substitution as files, joined to text, in expansions.
echo a<(true)c
echo <(true)
cat <(printf 'from procsub\n')
x=
cat ${x:-<(printf 'ok\n')}
diff <(printf '1\n2\n3\n') <(printf '1\n3\n')
echo "diff status: $?"
while read -r n; do sum=$(( ${sum:-0} + n )); done < <(seq 1 10)
echo "sum=$sum"
paste <(printf 'a\nb\n') <(printf '1\n2\n')
wc -l < <(printf 'x\ny\n')
sort <(printf 'b\na\n') <(printf 'd\nc\n')
f() { cat "$1"; }
f <(echo arg procsub)
files=(<(echo one) <(echo two))
cat "${files[@]}"
