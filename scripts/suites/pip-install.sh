#!/usr/bin/env bash
# pip-install.sh - `pip install .` of the localsandbox package, as a user would
# on a machine with the build dependencies and no network: pip builds the
# wheel with the in-tree backend (python/build_backend/sbx_build.py, into
# build/pip; nothing downloaded, --no-index), installs it into a fresh venv of
# Debian's /usr/bin/python3, and the installed package runs bash, Python in
# the jail, files and a snapshot round trip from outside the source tree.
# Prints "N passed, N failed".
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
. scripts/lib/assert.sh
t=$assert_tmp

run /usr/bin/python3 -m venv "$t/venv"
[ "$rc" = 0 ] && ok || bad "a venv of /usr/bin/python3" "$err"
run timeout 900 "$t/venv/bin/pip" install --no-index --no-cache-dir "$root"
expect_match "pip install . builds and installs offline" "$out" 'Successfully installed localsandbox-'
run "$t/venv/bin/pip" show -f localsandbox
expect_match "the wheel carries the typed marker" "$out" 'localsandbox/py\.typed'
expect_match "the wheel carries the worker" "$out" 'localsandbox/sbx-pyworker'

cat >"$t/use.py" <<'PY'
import localsandbox, os, sys
assert not localsandbox.__file__.startswith(sys.argv[1]), localsandbox.__file__
with localsandbox.LocalSandbox(files={"a.txt": "from the host"}) as sb:
    print(sb.bash("cat a.txt | tr a-z A-Z").stdout, end="")
    r = sb.execute_python("print(open('/data/a.txt').read()); 6 * 7")
    print(r.stdout, end="")
    print(r.return_value)
    snap = sb.export_snapshot()
with localsandbox.LocalSandbox(snapshot=snap) as sb2:
    print(sb2.read_file("/data/a.txt"))
PY
cd "$t" && run "$t/venv/bin/python" "$t/use.py" "$root"; cd "$root"
expect "the installed package works outside the tree" 0 "$(printf 'FROM THE HOSTfrom the host\n42\nfrom the host')"
finish
