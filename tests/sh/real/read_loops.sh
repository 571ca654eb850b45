#!/bin/bash
# Reading files line by line: a CSV report.
cat > data.csv <<'EOF'
name,dept,salary
alice,eng,120
bob,ops,90
carol,eng,130
dave,sales,70
erin,ops,95
EOF
seq 1 2500 > big.txt
n=0 total=0
while IFS= read -r line; do
  n=$((n + 1))
  total=$((total + line))
done < big.txt
echo "lines=$n total=$total"
declare -A sum count
{
  read -r header
  while IFS=, read -r name dept salary; do
    sum[$dept]=$(( ${sum[$dept]:-0} + salary ))
    count[$dept]=$(( ${count[$dept]:-0} + 1 ))
  done
} < data.csv
echo "header: $header"
for d in $(printf '%s\n' "${!sum[@]}" | sort); do
  printf '%-6s %3d %5.1f\n' "$d" "${count[$d]}" "$(( sum[$d] * 10 / count[$d] ))e-1"
done
IFS=, read -r -a fields <<< "x,y,,z"
echo "${#fields[@]} fields: ${fields[*]}"
read -r -d ';' part <<< "first;second"
echo "part=$part"
printf 'a b  c\n' | { read -r x y; echo "x=$x y=[$y]"; }
printf '  lead\n' | { read -r v; echo "[$v]"; }
printf '  lead\n' | { IFS= read -r v; echo "[$v]"; }
printf 'back\\slash\n' | { read v; echo "$v"; }
printf 'back\\slash\n' | { read -r v; echo "$v"; }
printf 'no newline' | { read -r v; echo "status=$? v=$v"; }
printf 'abcdef' | { read -n 3 v; echo "$v"; }
printf 'l1\nl2\nl3\n' > three.txt
mapfile -t lines < three.txt
echo "${#lines[@]}: ${lines[*]}"
mapfile -t -s 1 -n 1 mid < three.txt
echo "mid=${mid[*]}"
readarray -O 5 -t shifted < three.txt
echo "${!shifted[@]}"
cnt=0
while read -r l; do ((cnt++)); done < <(cat three.txt three.txt)
echo "cnt=$cnt"
exec 4< three.txt
read -r -u 4 a; read -r -u 4 b
echo "$a $b"
exec 4<&-
while read -r w1 rest; do echo "$w1|$rest"; done <<< $'k1 v1 v2\nk2'
