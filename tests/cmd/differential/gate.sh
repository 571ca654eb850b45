#!/usr/bin/env bash
# A small fixed-seed run of the differential fuzzer (fuzz.py): 25 generated
# cases of each command, sbx against the host's GNU tools. Status 0 when every
# case matches. Larger runs (more --cases, other --seed values) are made by hand.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
exec /usr/bin/python3 "$here/fuzz.py" --seed "${SEED:-1}" --cases "${CASES:-25}" "$@"
