#!/bin/bash
# printf -v building a report: padding, %q, %b, arrays, reuse of the format.
printf -v header '%-10s|%6s|%s' name size note
echo "$header"
declare -a rows
rows+=("alpha 12 first") rows+=("beta 3456 'quoted'") rows+=("gamma 7 tab	here")
for r in "${rows[@]}"; do
  read -r n s note <<<"$r"
  printf -v line '%-10s|%6d|%s' "$n" "$s" "$note"
  echo "$line"
done
printf -v q '%q ' 'a b' "it's" '$x' $'nl\n' '' '~'; echo "$q"
printf -v b '%b' 'one\ttwo\\n\x41\0101'; echo "[$b]"
printf -v arr[2] '%s-%s' x y; declare -p arr
declare -A m; printf -v 'm[key]' '%05.1f' 3.14159; declare -p m
printf -v many '%s,' 1 2 3 4; echo "${many%,}"
printf -v pct '%d%%' 50; echo "$pct"
printf -v c '%c' hello; echo "$c"
printf -v e '%e' 12345.678; echo "$e"
printf -v g '%g %g' 0.0001 100000000; echo "$g"
printf -v x '%x %X %#x %#o' 255 255 255 8; echo "$x"
printf -v s '%.3s|%5.2s|%-5s|' abcdef abc ab; echo "$s"
printf -v star '%*d|%-*d|' 5 42 4 7; echo "$star"
printf -v neg '%+d % d %05d' 5 5 -5; echo "$neg"
printf -v ch "%d %d" "'A" '"b'; echo "$ch"
printf -v 1bad x 2>&1; echo "status $?"
printf -v 2>&1; echo "status $?"
printf -v out '%s\n' "line"; printf '[%s]\n' "$out"
printf -v t '%(%Y)T' 0; echo "$t"
printf -v u '%u' -1; echo "$u"
printf '%s\n' "${rows[@]}" | sort -r | head -1
printf '%-5s=%s\n' k1 v1 k2 v2 k3
printf 'no newline'; echo
