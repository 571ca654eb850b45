#!/usr/bin/env bash
# bench/python_api/run.sh - the localsandbox package measured from Python
# (bench.py): create + first bash, warm bash, 1 MB write and read, a sandbox
# seeded with 100 files of 10 KB, its snapshot, warm execute_python; each
# figure with its ratio to the published localsandbox package. Uses the
# package `make` builds in build/python. Informational only.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
ls build/python/localsandbox/_sbx*.so >/dev/null 2>&1 || { echo "bench/python_api: run make first" >&2; exit 1; }
PYTHONPATH=$root/build/python PYTHONDONTWRITEBYTECODE=1 /usr/bin/python3 bench/python_api/bench.py
