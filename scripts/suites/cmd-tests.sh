#!/usr/bin/env bash
# The command test files tests/cmd/*.t, run twice: against the host's GNU tools
# (proving the expectations) and against sbx (build/sbx sh -c). Prints one closing line.
set -uo pipefail
cd "$(dirname "$0")/../.."
shopt -s nullglob
files=(tests/cmd/*.t)
if [ ${#files[@]} -eq 0 ]; then echo "0 passed, 0 failed"; exit 0; fi
host=$(/usr/bin/python3 tests/cmd/run.py --host "${files[@]}"); hrc=$?
sbx=$(/usr/bin/python3 tests/cmd/run.py "${files[@]}"); src=$?
echo "$host" | sed 's/^/host: /'
echo "$sbx" | sed 's/^/sbx: /'
hp=$(tail -1 <<<"$host" | sed -E 's/^([0-9]+) passed, ([0-9]+) failed.*/\1 \2/')
sp=$(tail -1 <<<"$sbx" | sed -E 's/^([0-9]+) passed, ([0-9]+) failed.*/\1 \2/')
read -r hpass hfail <<<"$hp"; read -r spass sfail <<<"$sp"
echo "$((hpass + spass)) passed, $((hfail + sfail)) failed"
[ $hrc -eq 0 ] && [ $src -eq 0 ]
