#!/usr/bin/env bash
# bench/python/run.sh - Python in a sandbox (bench_python.c over the C API)
# next to plain /usr/bin/python3 -c subprocesses (the floor), in one run, with
# the published localsandbox figures for reference. Prints every figure, the
# targets (first call < 30 ms, warm call < 100 us, tool round trip < 200 us,
# sum(range(10**6)) within 1.2x of python3) and the ratios.
# Informational only: nothing here fails on a slow machine.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
[ -f build/libsbx.a ] && [ -x build/sbx-pyworker ] || { echo "bench/python: run make first" >&2; exit 1; }
mkdir -p build/bench
pkgs=$(sed -n 's/^PKGS *:= *//p' Makefile)
# shellcheck disable=SC2046
cc -std=c11 -D_GNU_SOURCE -O2 -Iinclude -o build/bench/bench_python bench/python/bench_python.c \
  build/libsbx.a $(pkg-config --libs $pkgs) -lpthread -lm
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
# shellcheck disable=SC2046
cc -std=c11 -D_GNU_SOURCE -O2 -Iinclude -Ibench -o build/bench/bench_tiers bench/python/bench_tiers.c \
  build/libsbx.a $(pkg-config --libs $pkgs) -lpthread -lm
SBX_PYWORKER="$root/build/sbx-pyworker" build/bench/bench_tiers
# Where the host refuses the full jail (a default container, simulated by
# tools/sbx-nons): the first call, full jail tried first, then the reduced tier.
[ -x build/sbx-nons ] && SBX_PYWORKER="$root/build/sbx-pyworker" build/sbx-nons build/bench/bench_tiers --first-auto
