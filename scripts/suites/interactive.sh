#!/usr/bin/env bash
# interactive.sh - the interactive `sbx DB` prompt through a pseudo-terminal
# (tests/cli/interactive.py): line editing, history, continuation lines,
# state across lines, `exit N`, ^D and the EXIT trap. Prints "N passed, N failed".
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
SBX=${SBX:-$root/build/sbx}
if [ ! -x "$SBX" ]; then echo "interactive: $SBX is missing (run make)"; echo "0 passed, 1 failed"; exit 1; fi
timeout 300 /usr/bin/python3 "$root/tests/cli/interactive.py" "$SBX"
