#!/usr/bin/env bash
# sh-real.sh - whole realistic scripts (tests/sh/real/*.sh) through `build/sbx
# sh FILE`, their stdout, stderr and exit status compared with what bash 5.2
# printed (tests/sh/real/expected/, proved with `run.py --host`). Prints
# "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/../.."
exec /usr/bin/python3 tests/sh/real/run.py "$@"
