#!/usr/bin/env bash
# fuzz.sh - builds and runs the libFuzzer targets fuzz/fuzz_*.c.
#
# Usage: scripts/fuzz.sh SECONDS [target...]
#   SECONDS  how long each target runs (-max_total_time)
#   target   names like fuzz_store_ops (default: every fuzz/fuzz_*.c)
#
# Every library source (src/*.c, src/*/*.c and the generated command table)
# is compiled once with clang -fsanitize=fuzzer-no-link,address,undefined
# into build-fuzz/obj/ (recompiled when the source or any header is newer),
# and each target is linked against all of it, so a new target needs no
# edit here. Targets run one after another (the machine is shared), each
# with a persistent corpus in build-fuzz/corpus/NAME, seeded from
# fuzz/corpus/NAME when that exists. A target passes when libFuzzer ends
# without a finding (crash, sanitizer report, leak, timeout, OOM); a build
# failure counts as a failure. The last line is "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."

if [ $# -lt 1 ] || ! [[ $1 =~ ^[0-9]+$ ]]; then
  echo "usage: scripts/fuzz.sh SECONDS [target...]" >&2
  exit 2
fi
secs=$1
shift

out=build-fuzz
mkdir -p "$out/obj" "$out/gen" "$out/corpus" "$out/logs"

CC=${FUZZ_CC:-clang}
PKGS=$(sed -n 's/^PKGS *:= *//p' Makefile)
PKG_CFLAGS=$(pkg-config --cflags $PKGS 2>/dev/null)
PKG_LIBS=$(pkg-config --libs $PKGS 2>/dev/null)
SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined"
CFLAGS="-std=c11 -D_GNU_SOURCE -g -O1 -fno-omit-frame-pointer -w -Iinclude -Isrc -I$out/gen -Ibuild/gen $PKG_CFLAGS"
LIBS="$PKG_LIBS -lpthread -lm"

# ---- the targets --------------------------------------------------------------
if [ $# -gt 0 ]; then
  targets=("$@")
else
  targets=()
  for f in fuzz/fuzz_*.c; do
    [ -e "$f" ] && targets+=("$(basename "$f" .c)")
  done
fi
if [ ${#targets[@]} -eq 0 ]; then
  echo "no fuzz targets in fuzz/"
  echo "0 passed, 0 failed"
  exit 0
fi

# ---- the library, once -----------------------------------------------------------
scripts/gen-cmd-table.sh src/cmd/*.c src/cmd/*/*.c >"$out/gen/cmd_table.c.tmp" 2>/dev/null &&
  { cmp -s "$out/gen/cmd_table.c.tmp" "$out/gen/cmd_table.c" ||
    mv "$out/gen/cmd_table.c.tmp" "$out/gen/cmd_table.c"; }
rm -f "$out/gen/cmd_table.c.tmp"
newest_header=$(find include src -name '*.h' -printf '%T@\n' 2>/dev/null | sort -n | tail -1)
srcs=()
for f in src/*.c src/*/*.c src/cmd/*/*.c "$out/gen/cmd_table.c"; do
  [ -e "$f" ] && srcs+=("$f")
done
build_failed=0
objs=()
stale=()
for f in "${srcs[@]}"; do
  o="$out/obj/$(echo "${f%.c}" | tr '/' '_').o"
  objs+=("$o")
  if [ ! -e "$o" ] || [ "$f" -nt "$o" ] ||
     [ "$(stat -c %Y "$o")" -lt "${newest_header%.*}" ]; then
    stale+=("$f:$o")
  fi
done
if [ ${#stale[@]} -gt 0 ]; then
  echo "fuzz: compiling ${#stale[@]} library sources"
  export CC CFLAGS SAN
  printf '%s\n' "${stale[@]}" |
    xargs -P 2 -I{} sh -c 'src=${1%%:*}; obj=${1#*:}; $CC $CFLAGS $SAN -fsanitize=fuzzer-no-link -c "$src" -o "$obj" || { rm -f "$obj"; exit 1; }' _ {} ||
    build_failed=1
fi

# ---- each target ------------------------------------------------------------------
pass=0 fail=0
for t in "${targets[@]}"; do
  src=fuzz/$t.c
  bin=$out/$t
  log=$out/logs/$t.log
  if [ ! -e "$src" ]; then
    echo "FAIL $t: no $src"
    fail=$((fail + 1))
    continue
  fi
  if [ $build_failed -ne 0 ] ||
     ! $CC $CFLAGS $SAN -fsanitize=fuzzer "$src" "${objs[@]}" $LIBS -o "$bin" >"$log" 2>&1; then
    echo "FAIL $t: build (see $log)"
    tail -20 "$log"
    fail=$((fail + 1))
    continue
  fi
  corpus=$out/corpus/$t
  # FUZZ_RUNS (the gate): a fixed number of inputs from a fixed seed and a fresh
  # corpus, so a run here and a run in CI try the same inputs.
  det=()
  if [ -n "${FUZZ_RUNS:-}" ]; then
    corpus=$out/gate-corpus/$t
    rm -rf "$corpus"
    det=(-runs="$FUZZ_RUNS" -seed="${FUZZ_SEED:-1}")
  fi
  mkdir -p "$corpus"
  seeds=()
  [ -d "fuzz/corpus/$t" ] && seeds+=("fuzz/corpus/$t")
  ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} \
    "$bin" -max_total_time="$secs" "${det[@]}" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$out/logs/$t-" "$corpus" "${seeds[@]}" >"$log" 2>&1
  rc=$?
  runs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' | tail -1)
  if [ $rc -eq 0 ]; then
    echo "PASS $t (${runs:-?} runs in ${secs}s)"
    pass=$((pass + 1))
  else
    echo "FAIL $t: finding, exit $rc (log $log)"
    grep -E 'ERROR|SUMMARY|fuzz_|==[0-9]+==' "$log" | head -20
    fail=$((fail + 1))
  fi
done
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
