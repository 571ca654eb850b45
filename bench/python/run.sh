#!/usr/bin/env bash
# bench/python/run.sh - Python in a sandbox (bench_python.c over the C API)
# next to plain /usr/bin/python3 -c subprocesses (the floor), in one run, with
# the published localsandbox figures for reference. Prints every figure, the
# targets (first call < 30 ms, warm call < 100 us, tool round trip < 200 us,
# sum(range(10**6)) within 1.2x of python3) and the ratios.
# Informational only: nothing here fails on a slow machine.
set -euo pipefail
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/../lib.sh"
bench_setup python pyworker
bench_cc bench_python bench/python/bench_python.c
# For comparison: Debian's own python.o linked with its libpython3.11.a (PGO,
# no LTO), what a worker embedding that archive would run at; the worker execs
# /usr/bin/python3.11 instead (docs/python.md).
cfg=$(/usr/bin/python3.11-config --configdir 2>/dev/null || true)
pystatic=
if [ -f "$cfg/python.o" ] && [ -f "$cfg/libpython3.11.a" ] &&
   cc -no-pie -o build/bench/python-static "$cfg/python.o" "$cfg/libpython3.11.a" \
     -Xlinker -export-dynamic -lexpat -lz -lm -ldl -lpthread 2>/dev/null; then
  pystatic=$root/build/bench/python-static
fi
SBX_PYWORKER="$root/build/sbx-pyworker" SBX_BENCH_PYSTATIC=$pystatic build/bench/bench_python "$@"
# The two jail tiers side by side (first and warm call, the reduced tier's sync).
bench_cc bench_tiers bench/python/bench_tiers.c
SBX_PYWORKER="$root/build/sbx-pyworker" build/bench/bench_tiers
# Where the host refuses the full jail (a default container, simulated by
# tools/sbx-nons): the first call, full jail tried first, then the reduced tier.
[ -x build/sbx-nons ] && SBX_PYWORKER="$root/build/sbx-pyworker" build/sbx-nons build/bench/bench_tiers --first-auto
