#!/usr/bin/env bash
# cpython-files.sh - the gate version of `make test-cpython-files`: CPython's
# own test modules for files and OS calls (Debian's libpython3.11-testsuite)
# run inside the jail over the FUSE view of the store, with cwd and TMPDIR
# under /data (scripts/suites/cpython_files.py --gate: test_tempfile,
# test_fileio, test_mmap, test_fcntl, test_shutil, test_pathlib, test_os,
# test_zipfile and a few smaller ones; about a minute). Prints per-module
# counts, every failing test, then "N passed, F failed" where F is 1 when
# fewer than the committed floor pass. The tests that fail, and why, are
# listed in docs/python.md.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
floor=1405 # 1415 pass here; the 7 errors of test_os are listed in docs/python.md
if ! ls build/python/localsandbox/_sbx*.so >/dev/null 2>&1; then
  echo "cpython-files: build/python/localsandbox/_sbx*.so is missing (run make)"
  echo "0 passed, 1 failed"
  exit 1
fi
PYTHONPATH=$root/build/python PYTHONDONTWRITEBYTECODE=1 \
  exec /usr/bin/python3 scripts/suites/cpython_files.py --gate --list --floor "$floor"
