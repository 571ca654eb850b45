#!/usr/bin/env bash
# py-reduced.sh - the reduced jail tier (src/jail/jail_reduced.c), for hosts
# that deny user namespaces or /dev/fuse, proven on this host where the full
# jail works:
#  1. the reduced escape suite with the tier forced (sbx_python_require);
#  2. the same suite under tools/sbx-nons, which denies namespaces and mounts
#     as Docker's default seccomp profile does, so the library falls back to
#     the reduced tier by itself; as root, and as uid 65534 (no /dev/fuse when
#     the device is 0600 root's);
#  3. the localsandbox pytest suite on the reduced tier (SBX_JAIL_TIER=reduced)
#     and under sbx-nons, but for the tests that name absolute sandbox paths
#     (/data/...) inside Python or count the full jail's processes: the
#     reduced tier has no mount namespace to put the store at /data
#     (docs/python.md); the rest - contexts, host tools, timeouts, limits,
#     python3 in the shell - must pass.
# Closing line: "N passed, N failed".
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
esc=build/tests/py/test_escape_reduced
for f in "$esc" build/sbx-nons build/sbx-pyworker; do
  [ -x "$f" ] || { echo "py-reduced: $f missing (run make)"; echo "0 passed, 1 failed"; exit 1; }
done
p=0 f=0
tally() { # NAME LINE: adds "N passed, N failed"
  echo "$1: $2"
  local a b
  a=$(grep -oE '[0-9]+ passed' <<<"$2" | grep -oE '^[0-9]+' || echo 0)
  b=$(grep -oE '[0-9]+ failed' <<<"$2" | grep -oE '^[0-9]+' || echo 0)
  [ -z "$a" ] && a=0
  [ -z "$b" ] && b=0
  [ "$a" -eq 0 ] && [ "$b" -eq 0 ] && b=1
  p=$((p + a)); f=$((f + b))
}
tally "escape (forced)" "$("$esc" 2>&1 | tail -1)"
tally "escape (sbx-nons)" "$(SBX_ESCAPE_NATURAL=1 build/sbx-nons "$esc" 2>&1 | tail -1)"
if [ "$(id -u)" -eq 0 ]; then
  scratch=$(mktemp -d)
  chmod 0755 "$scratch"
  tally "escape (sbx-nons, uid 65534)" \
    "$(cd "$scratch" && SBX_ESCAPE_NATURAL=1 "$root"/build/sbx-nons --uid 65534 "$root/$esc" 2>&1 | tail -1)"
  rmdir "$scratch"
fi
# pytest: the tests that name /data inside Python (absolute sandbox paths).
deselect=(
  "python/tests/test_python_exec.py::TestFilesystem"
)
args=()
for d in "${deselect[@]}"; do args+=(--deselect "$d"); done
if ls build/python/localsandbox/_sbx*.so >/dev/null 2>&1; then
  for how in forced nons; do
    log=$(mktemp)
    if [ "$how" = forced ]; then
      SBX_JAIL_TIER=reduced PYTHONPATH=build/python PYTHONDONTWRITEBYTECODE=1 \
        /usr/bin/python3 -m pytest -q -p no:cacheprovider "${args[@]}" python/tests >"$log" 2>&1
    else
      PYTHONPATH=build/python PYTHONDONTWRITEBYTECODE=1 build/sbx-nons \
        /usr/bin/python3 -m pytest -q -p no:cacheprovider "${args[@]}" python/tests >"$log" 2>&1
    fi
    grep -E "^FAILED|^ERROR" "$log" | head -20
    summary=$(tail -n 1 "$log")
    fails=$(( $(grep -oE '[0-9]+ failed' <<<"$summary" | grep -oE '^[0-9]+' || echo 0) + \
              $(grep -oE '[0-9]+ errors?' <<<"$summary" | grep -oE '^[0-9]+' || echo 0) ))
    tally "pytest ($how)" "$(grep -oE '[0-9]+ passed' <<<"$summary" || echo '0 passed'), $fails failed"
    rm -f "$log"
  done
fi
echo "$p passed, $f failed"
[ "$f" -eq 0 ]
