#!/usr/bin/env bash
# jq-conformance.sh - jq 1.8's own test files (jq.test, man.test, manonig.test,
# onig.test, base64.test, uri.test, optional.test from ../shared/conformance/jq,
# beside the clone as scripts/conformance.sh expects) run through sbx's jq,
# one case per `build/sbx-run` (scripts/suites/jq_conformance.py). Prints
# "N passed, N failed" and fails when fewer than the committed floor pass.
# The cases that fail, and why, are listed in docs/commands-languages.md.
# JQ_CONFORMANCE_LIST=1 prints each failure.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
floor=857 # of 879
dir=${SBX_SHARED:+$SBX_SHARED/conformance/jq}
if [ -z "$dir" ]; then
  # a fresh clone keeps shared/ beside the repository
  for d in ../shared/conformance/jq shared/conformance/jq /work/shared/conformance/jq; do
    [ -f "$d/jq.test" ] && { dir=$d; break; }
  done
fi
dir=${dir:-../shared/conformance/jq}
if [ ! -f "$dir/jq.test" ]; then
  echo "jq-conformance: $dir/jq.test not found (set SBX_SHARED)" >&2
  echo "0 passed, 1 failed"
  exit 1
fi
[ -x build/sbx-run ] || { echo "jq-conformance: build/sbx-run missing (run make)" >&2; exit 1; }
exec /usr/bin/python3 scripts/suites/jq_conformance.py ${JQ_CONFORMANCE_LIST:+--list} \
  --sbx-run build/sbx-run --floor "$floor" "$dir"
