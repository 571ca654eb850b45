#!/bin/bash
# Text processing in pure shell and with pipelines.
cat > access.log <<'EOF'
10.0.0.1 GET /index.html 200 512
10.0.0.2 GET /about.html 404 0
10.0.0.1 POST /api/login 200 128
10.0.0.3 GET /index.html 200 512
10.0.0.2 GET /index.html 500 0
10.0.0.1 GET /missing 404 0
EOF
declare -A hits bytes status_count
total=0
while read -r ip method path status size; do
  (( total++ ))
  (( hits[$ip]++ ))
  (( bytes[$ip] += size ))
  (( status_count[$status]++ ))
done < access.log
echo "requests: $total"
for ip in $(printf '%s\n' "${!hits[@]}" | sort); do
  printf '%-10s hits=%d bytes=%d\n' "$ip" "${hits[$ip]}" "${bytes[$ip]}"
done
for s in $(printf '%s\n' "${!status_count[@]}" | sort -n); do
  bar=$(printf '%*s' "${status_count[$s]}" '' | tr ' ' '#')
  printf '%s %-5s %d\n' "$s" "$bar" "${status_count[$s]}"
done
echo "errors:"
grep -E ' (4|5)[0-9]{2} ' access.log | while read -r ip _ path status _; do
  echo "  $status $path from $ip"
done
top=$(cut -d' ' -f3 access.log | sort | uniq -c | sort -rn | head -1)
read -r n page <<< "$top"
echo "top page: $page ($n)"
words="the quick brown the lazy dog the end"
declare -A wc
for w in $words; do wc[$w]=$(( ${wc[$w]:-0} + 1 )); done
for w in "${!wc[@]}"; do echo "$w ${wc[$w]}"; done | sort -k2,2nr -k1,1 | head -3
line="key1=val1;key2=val2;key3=val3"
IFS=';' read -ra pairs <<< "$line"
for p in "${pairs[@]}"; do
  printf '%s -> %s\n' "${p%%=*}" "${p#*=}"
done
upper=$(tr '[:lower:]' '[:upper:]' <<< "shout")
echo "$upper"
printf '%s\n' c b a | sort | paste -sd, -
seq 1 5 | awk '{ s += $1 } END { print "sum", s }'
echo "a,b,c" | sed 's/,/ | /g'
