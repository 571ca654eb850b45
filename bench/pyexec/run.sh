#!/usr/bin/env bash
# bench/pyexec/run.sh - the shell's python3 (fork server in the jail) and a
# host program in the jail, next to the same on the host (bench_pyexec.c).
# Informational only: nothing here fails on a slow machine.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
[ -f build/libsbx.a ] && [ -x build/sbx-pyworker ] || { echo "bench/pyexec: run make first" >&2; exit 1; }
mkdir -p build/bench
pkgs=$(sed -n 's/^PKGS *:= *//p' Makefile)
# shellcheck disable=SC2046
cc -std=c11 -D_GNU_SOURCE -O2 -Iinclude -o build/bench/bench_pyexec bench/pyexec/bench_pyexec.c \
  build/libsbx.a $(pkg-config --libs $pkgs) -lpthread -lm
SBX_PYWORKER="$root/build/sbx-pyworker" build/bench/bench_pyexec "$@"
