#!/usr/bin/env bash
# fuzz-gate.sh - the short fuzzing gate of `make test`: every libFuzzer target
# in fuzz/ for 20 seconds (scripts/fuzz.sh prints the closing line).
cd "$(dirname "$0")/../.."
exec scripts/fuzz.sh 20
