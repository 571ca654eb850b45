#!/usr/bin/env bash
# bench/expansion/run.sh - parameter expansions on 1, 4 and 16 MB strings,
# sbx beside bash 5.2 in one run (issue 13, item 4: time proportional to the
# string for literal patterns). Each cell is timed inside one shell process
# with $EPOCHREALTIME around the expansion alone (the string is built before),
# through `build/sbx sh` (a fresh in-memory sandbox, limits lifted) and the
# host's `bash`. bash is given LIMIT seconds per cell (default 20): a cell it
# does not finish prints ">LIMIT" and the sizes after it are not tried. Prints
# ms per cell and the ratio bash/sbx (above 1: sbx is faster). Informational
# only: nothing here fails on a slow machine.
#
#   bench/expansion/run.sh [LIMIT]
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
SBX=${SBX:-$root/build/sbx}
limit=${1:-20}
[ -x "$SBX" ] || { echo "bench/expansion: run make first" >&2; exit 1; }
ops=('${x//a/b}' '${x/a/b}' '${x//b/c}' '${x#a}' '${x##a}' '${x%a}' '${x%%a}' '${x##*a}'
     '${x^^}' '${x,,}' '${x:5:10}' '${x:1000}' '${#x}')
# the script each shell runs: builds N MB of a's, then prints the ms of `y=OP`
script() {
  printf 'x=$(head -c %d /dev/zero | tr "\\0" a); t0=$EPOCHREALTIME; y=%s; t1=$EPOCHREALTIME; ' "$(($1 * 1000000))" "$2"
  printf 'echo $(( (${t1/./}-${t0/./}) / 1000 ))'
}
printf '%-12s' op
for n in 1 4 16; do printf '%10s %10s %8s' "sbx ${n}M" "bash ${n}M" ratio; done
echo
for op in "${ops[@]}"; do
  printf '%-12s' "$op"
  bash_gave_up=false
  for n in 1 4 16; do
    s=$("$SBX" sh -c "$(script $n "$op")" 2>/dev/null)
    if $bash_gave_up; then b=skipped
    else
      b=$(timeout "$limit" bash -c "$(script $n "$op")" 2>/dev/null) || { b=">${limit}000"; bash_gave_up=true; }
    fi
    r=-
    if [[ $s =~ ^[0-9]+$ && $b =~ ^[0-9]+$ ]]; then
      r=$(awk -v s="$s" -v b="$b" 'BEGIN { printf "%.1fx", (b + 0.5) / (s + 0.5) }')
    elif [[ $s =~ ^[0-9]+$ && $b == ">"* ]]; then r=">$(awk -v s="$s" -v l="$limit" 'BEGIN { printf "%.0fx", l * 1000 / (s + 0.5) }')"
    fi
    printf '%10s %10s %8s' "$s" "$b" "$r"
  done
  echo
done
