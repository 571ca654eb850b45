# shellcheck shell=bash
# bench/lib.sh - sourced by the benchmark scripts (bench/*/run.sh,
# bench/store/profile.sh): each starts the same way (the repository as the
# working directory, a built tree) and compiles its C program the same way
# (against build/libsbx.a and the libraries the Makefile links).
#   bench_setup NAME [pyworker]  cd to the repository ($root); exit with
#                                "bench/NAME: run make first" when the library
#                                (and, with pyworker, build/sbx-pyworker) is
#                                missing
#   bench_cc OUT SRC [FLAG...]   build/bench/OUT from SRC (-O2; FLAGs after it)

bench_setup() {
  root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  cd "$root" || exit 1
  if [ ! -f build/libsbx.a ] || { [ "${2:-}" = pyworker ] && [ ! -x build/sbx-pyworker ]; }; then
    echo "bench/$1: run make first" >&2
    exit 1
  fi
  mkdir -p build/bench
}

bench_cc() {
  local out=$1 src=$2 pkgs
  shift 2
  pkgs=$(sed -n 's/^PKGS *:= *//p' Makefile)
  # shellcheck disable=SC2046,SC2086 # $pkgs is a list of words
  cc -std=c11 -D_GNU_SOURCE -O2 "$@" -Iinclude -Ibench -o "build/bench/$out" "$src" \
    build/libsbx.a $(pkg-config --libs $pkgs) -lpthread -lm
}
