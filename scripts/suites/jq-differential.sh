#!/usr/bin/env bash
# jq-differential.sh - generated jq filters and inputs through sbx's jq and the
# host's jq 1.6, where jq 1.8 agrees with 1.6 (tests/cmd/jq_differential.py,
# a fixed seed). Prints "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/../.."
exec /usr/bin/python3 tests/cmd/jq_differential.py --seed 1 --cases 300
