#!/usr/bin/env bash
# bench/pyexec/run.sh - the shell's python3 (fork server in the jail) and a
# host program in the jail, next to the same on the host (bench_pyexec.c).
# Informational only: nothing here fails on a slow machine.
set -euo pipefail
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/../lib.sh"
bench_setup pyexec pyworker
bench_cc bench_pyexec bench/pyexec/bench_pyexec.c
SBX_PYWORKER="$root/build/sbx-pyworker" build/bench/bench_pyexec "$@"
