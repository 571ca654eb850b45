#!/usr/bin/env bash
# fuzz-gate.sh - the short fuzzing gate of `make test`: every libFuzzer target
# in fuzz/ for 3,000 inputs from a fixed seed and a fresh corpus (at most 120 s
# each), so the gate tries the same inputs on every machine; `make fuzz` is the
# long, time-based run. scripts/fuzz.sh prints the closing line.
cd "$(dirname "$0")/../.."
FUZZ_RUNS=3000 FUZZ_SEED=1 exec scripts/fuzz.sh 120
