#!/bin/bash
# Summarize a CSV file given beside the script: per-region totals, bad rows, a printf table.
declare -A units_by_region revenue_cents
declare -a bad=()
lineno=0
while IFS=, read -r region product units price; do
  (( lineno++ )) || continue   # header
  region=${region//\"/}
  if [[ ! $units =~ ^[0-9]+$ ]]; then
    bad+=("line $lineno: units '${units}' for $region/$product")
    continue
  fi
  cents=$(( 10#${price%.*} * 100 + 10#${price#*.} ))
  (( units_by_region[$region] += units ))
  (( revenue_cents[$region] += units * cents ))
done < sales.csv
printf '%-8s %6s %10s\n' REGION UNITS REVENUE
for r in $(printf '%s\n' "${!units_by_region[@]}" | sort); do
  c=${revenue_cents[$r]}
  printf '%-8s %6d %7d.%02d\n' "$r" "${units_by_region[$r]}" $(( c / 100 )) $(( c % 100 ))
done
echo "${#bad[@]} bad row(s):"
printf '  %s\n' "${bad[@]}"
total=0; for u in "${units_by_region[@]}"; do (( total += u )); done
echo "total units: $total"
declare -p units_by_region | tr ' ' '\n' | grep -c '\]='
[[ -f sales.csv && ! -e summary.txt ]] && echo "input present, no output yet"
