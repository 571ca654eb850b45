#!/usr/bin/env bash
# conformance-gate.sh - `make test` gate: the shell's conformance on the core
# list must not fall below tests/sh/conformance-floor.txt (raise the floor as
# the shell improves). Takes about 30 s on 2 cores.
cd "$(dirname "$0")/../.."
exec scripts/conformance.sh gate
