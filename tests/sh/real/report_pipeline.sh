#!/bin/bash
# A data pipeline script: generated input, while-read loops, associative counters,
# sort/uniq/awk in pipes, PIPESTATUS, set -o pipefail and a formatted report.
set -o pipefail
gen() {
  local i users=(alice bob carol dave) actions=(login logout upload delete)
  for (( i = 0; i < 40; i++ )); do
    printf '%02d:%02d %s %s %d\n' $(( i / 6 + 8 )) $(( (i * 7) % 60 )) \
      "${users[i % 4]}" "${actions[(i * 3) % 4]}" $(( (i * 37) % 500 ))
  done
}
gen > events.log
declare -A per_user per_action bytes
while read -r time user action size; do
  (( per_user[$user]++ ))
  (( per_action[$action]++ ))
  (( bytes[$user] += size ))
done < events.log
printf '%-8s %6s %8s\n' user events bytes
for u in $(printf '%s\n' "${!per_user[@]}" | sort); do
  printf '%-8s %6d %8d\n' "$u" "${per_user[$u]}" "${bytes[$u]}"
done
echo "actions:"
for a in "${!per_action[@]}"; do echo "$a ${per_action[$a]}"; done | sort -k2,2nr -k1,1 | sed 's/^/  /'
busiest=$(cut -d' ' -f1 events.log | cut -d: -f1 | sort | uniq -c | sort -rn | head -1 | awk '{print $2 ":00 (" $1 ")"}')
echo "busiest hour: $busiest"
grep -c delete events.log
grep nothing events.log | wc -l; echo "PIPESTATUS: ${PIPESTATUS[*]}"
false | true; echo "pipefail status: $?"
true | false | true; echo "statuses: ${PIPESTATUS[*]}"
awk '$4 > 400 { n++; s += $4 } END { printf "big: %d, total %d\n", n, s }' events.log
total=0
while IFS=' ' read -r -a f; do total=$(( total + f[3] )); done < <(grep upload events.log)
echo "upload bytes: $total"
mapfile -t hours < <(cut -c1-2 events.log | sort -u)
echo "hours: ${hours[*]} (${#hours[@]})"
{ echo header; sort -k3,3 -k1,1 events.log | head -3; } | nl -ba
rm events.log
[[ -e events.log ]] || echo "cleaned up"
