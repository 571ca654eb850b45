#!/usr/bin/env bash
# bench/jq_memory/run.sh - peak memory (max RSS) and time of sbx's jq over
# 100 MB inputs, side by side with the host's jq binary (Debian's jq 1.6;
# `apt-get install jq`), as ratios sbx/jq. Rows:
#   array100m   jq -c '.[] | select(.x > 5)'  over one 100 MB JSON array
#               (sbx runs `.[] | f` element by element: constant memory)
#   lines100m   jq -c 'select(.x > 1) | .name' over 100 MB of JSON lines
#   stream100m  jq -cn --stream 'reduce inputs as $e (0; .+1)' over the array
#               (events are produced while reading: constant memory)
# sbx is the whole `sbx sh -c 'jq ...'` process (shell, sandbox, SQLite) with
# the input on its stdin; jq is the bare binary. Informational only: nothing
# fails on a slow or loaded machine. JQMEM_ROWS=a,b runs only those rows.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
[ -x build/sbx ] || { echo "bench/jq_memory: run make first" >&2; exit 1; }
data=${SBX_BENCH_DATA:-/dev/shm/sbx-bench-data}/jqmem
mkdir -p "$data"
if [ ! -f "$data/arr100m.json" ]; then
  /usr/bin/python3 - "$data" <<'PY'
import random, sys
random.seed(1)
d = sys.argv[1]
with open(d + '/arr100m.json', 'w') as f, open(d + '/lines100m.json', 'w') as g:
    f.write('[')
    n = size = 0
    while size < 100 * 1024 * 1024:
        s = '{"x":%d,"name":"item%d","tags":["a","b"],"v":%.3f}' % (random.randint(0, 10), n, random.random())
        f.write((',' if n else '') + s)
        g.write(s + '\n')
        size += len(s) + 1
        n += 1
    f.write(']\n')
PY
fi
rows=(
  "array100m|arr100m.json|-c|.[] | select(.x > 5)"
  "lines100m|lines100m.json|-c|select(.x > 1) | .name"
  "stream100m|arr100m.json|-cn --stream|reduce inputs as \$e (0; .+1)"
)
peer=$(command -v jq || true)
printf 'jq over 100 MB (max RSS in MB, seconds; one run each)\n\n'
printf '%-12s %10s %10s %10s %10s %10s %10s\n' row "sbx MB" "jq MB" "MB ratio" "sbx s" "jq s" "s ratio"
for r in "${rows[@]}"; do
  IFS='|' read -r name file flags prog <<<"$r"
  if [ -n "${JQMEM_ROWS:-}" ] && [[ ",$JQMEM_ROWS," != *",$name,"* ]]; then continue; fi
  # shellcheck disable=SC2086
  /usr/bin/time -o /tmp/jqmem.sbx -f '%M %e' build/sbx sh -c "jq $flags '$prog' | wc -l" <"$data/$file" >/tmp/jqmem.sbx.out
  read -r s_kb s_s </tmp/jqmem.sbx
  if [ -n "$peer" ]; then
    # shellcheck disable=SC2086
    /usr/bin/time -o /tmp/jqmem.jq -f '%M %e' sh -c "\"$peer\" $flags '$prog' | wc -l" <"$data/$file" >/tmp/jqmem.jq.out
    read -r j_kb j_s </tmp/jqmem.jq
    cmp -s /tmp/jqmem.sbx.out /tmp/jqmem.jq.out || echo "  ($name: output line counts differ)"
  else
    j_kb=0 j_s=0
  fi
  awk -v n="$name" -v sk="$s_kb" -v jk="$j_kb" -v ss="$s_s" -v js="$j_s" 'BEGIN {
    printf "%-12s %10.1f %10.1f %9.3fx %10.2f %10.2f %9.2fx\n", n, sk/1024, jk/1024,
      (jk > 0 ? sk/jk : 0), ss, js, (js > 0 ? ss/js : 0) }'
done
