#!/usr/bin/env bash
# python.sh - the pytest suite of the localsandbox Python package
# (python/tests) against the package `make` builds in build/python, with
# Debian's /usr/bin/python3 and python3-pytest. Prints pytest's output, then
# the closing line "python: N passed, N failed" (errors count as failures).
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
PY=/usr/bin/python3
if ! ls build/python/localsandbox/_sbx*.so >/dev/null 2>&1; then
  echo "build/python/localsandbox/_sbx*.so is missing (run make)"
  echo "python: 0 passed, 1 failed"
  exit 1
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
PYTHONPATH=$root/build/python PYTHONDONTWRITEBYTECODE=1 \
  "$PY" -m pytest -q -p no:cacheprovider python/tests >"$log" 2>&1
rc=$?
cat "$log"
# pytest -q ends with e.g. "3 failed, 240 passed, 1 error in 7.1s".
summary=$(tail -n 1 "$log")
count() { grep -oE "[0-9]+ $1" <<<"$summary" | grep -oE '^[0-9]+' || echo 0; }
passed=$(count passed)
failed=$(( $(count failed) + $(count "errors?") ))
if [ "$rc" -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; fi
echo "python: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
