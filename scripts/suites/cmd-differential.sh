#!/usr/bin/env bash
# cmd-differential.sh - the gate run of the commands' differential fuzzer
# (tests/cmd/differential/gate.sh: a fixed seed, 25 generated cases per
# command, sbx against the host's GNU tools, whole output and status).
# Prints "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/../.."
out=$(bash tests/cmd/differential/gate.sh 2>&1)
rc=$?
printf '%s\n' "$out" | grep -v ': [0-9]*/[0-9]* match$'
line=$(printf '%s\n' "$out" | sed -n 's/^total: \([0-9]*\)\/\([0-9]*\) cases match$/\1 \2/p' | tail -1)
if [ -z "$line" ]; then echo "0 passed, 1 failed"; exit 1; fi
set -- $line
echo "$1 passed, $(($2 - $1)) failed"
[ "$rc" -eq 0 ] && [ "$1" -eq "$2" ]
