#!/bin/bash
# printf formats in a small report.
items=("widget:3:2.50" "gadget:12:10" "thing:1:0.333")
printf '%-10s|%5s|%8s\n' ITEM QTY PRICE
printf '%.0s-' {1..25}; echo
for it in "${items[@]}"; do
  IFS=: read -r name qty price <<< "$it"
  printf '%-10s|%5d|%8.2f\n' "$name" "$qty" "$price"
done
printf '%05d|%-5d|%+d|% d\n' 42 42 42 42
printf '%x %X %o %#x %#o\n' 255 255 8 255 8
printf '%e %g %G\n' 12345.678 0.0001 1e20
printf '%s\n' a b c
printf '%s-%s\n' 1 2 3
printf '%b\n' 'tab\there' 'new\nline' '\0101'
printf '%q\n' "a b" "it's" '' $'\n' 'x*'
printf '%c%c\n' hello world
printf "%d\n" "'A" '"B'
printf '%10.3s|\n' abcdef
printf '%*d|%-*d|\n' 5 1 4 2
printf -v out '%s=%d' key 7
echo "$out"
printf '%d\n' 0x10 010 -5
printf '%i\n' 3
printf '%%\n'
printf '%s\n'
printf '%d\n' abc 2>&1
echo "status: $?"
printf '%z\n' 2>&1
echo "status: $?"
printf 'no newline'
echo
printf '%u\n' -1
printf '%.3d\n' 7
printf '%s %s\n' "only one"
printf -- '-dash\n'
printf '\x41\u00e9\n'
