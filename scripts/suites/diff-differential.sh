#!/usr/bin/env bash
# sbx's diff against the host's GNU diff on random file pairs in every output
# format (tests/cmd/diff_differential.py). Prints "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/../.."
exec /usr/bin/python3 tests/cmd/diff_differential.py --cases 60
