#!/bin/bash
# Process substitution joined to text, inside expansions and as loop inputs.
echo a<(true)c
echo pre-<(:)-post | sed 's/[0-9][0-9]*/N/'
cat ${x:-<(printf 'ok\n')}
cat "${x:-$(echo <(echo inner) >/dev/null; echo /dev/null)}"
diff <(printf '1\n2\n3\n') <(printf '1\n3\n') ; echo "diff status $?"
while read -r n; do sum=$((sum + n)); done < <(seq 1 10)
echo "sum=$sum"
paste -d, <(printf 'a\nb\n') <(printf '1\n2\n')
mapfile -t lines < <(printf 'x\ny\n')
echo "${#lines[@]}: ${lines[*]}"
tee >(tr a-z A-Z > upper.txt) <<<"hello" >/dev/null
wait
sleep 0.2
cat upper.txt
f() { cat "$1"; }
f <(echo "from function")
comm -12 <(printf 'a\nb\nc\n') <(printf 'b\nc\nd\n')
echo done
