#!/bin/bash
# mapfile/readarray the ways scripts load files.
printf 'line %d\n' 1 2 3 4 5 > data.txt
mapfile -t lines < data.txt; echo "${#lines[@]}: ${lines[0]} / ${lines[4]}"
mapfile lines2 < data.txt; printf '%q\n' "${lines2[0]}"
mapfile -t -n 2 head2 < data.txt; declare -p head2
mapfile -t -s 3 tail2 < data.txt; declare -p tail2
mapfile -t -O 10 off < data.txt; echo "${!off[*]}"
arr=(keep keep keep keep keep keep keep)
mapfile -t -O 2 arr < <(printf 'a\nb\n'); declare -p arr
printf 'a:b:c' | { mapfile -t -d : f; declare -p f; }
readarray -t r <<<"x"; declare -p r
mapfile -t empty < /dev/null; declare -p empty
cb() { echo "callback $1: $2"; }
mapfile -t -C cb -c 2 withcb < data.txt
echo "${#withcb[@]}"
mapfile -t < data.txt; echo "MAPFILE ${#MAPFILE[@]}"
printf 'a\0b\0' | { mapfile -t -d '' z; declare -p z; }
mapfile -u 3 -t fromfd 3< data.txt; echo "${fromfd[2]}"
mapfile -t bad -n x < data.txt 2>&1; echo "status $?"
declare -r ro=(1); mapfile ro < data.txt 2>&1; echo "status $?"
count=0; while IFS= read -r l; do ((count++)); done < data.txt; echo "loop $count"
