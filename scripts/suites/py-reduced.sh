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
# pytest: what the reduced tier does not offer (docs/python.md, "The reduced
# tier"), each proven on the full tier by scripts/suites/python.sh: absolute
# /data paths inside Python (no mount namespace), programs of the jail from the
# shell (git, a fresh python3 per run: no fork server; checked below), host
# directories bound read-only (python_paths), and the FUSE file semantics.
deselect=(
  "python/tests/test_python_exec.py::TestFilesystem"
  "python/tests/test_programs.py"
  "python/tests/test_posix_files.py"
  "python/tests/test_background.py::test_python3_in_a_background_job_runs_between_calls"
  "python/tests/test_python_rich.py::TestRobustWorker::test_multiprocessing_with_functions_a_cell_defines"
  "python/tests/test_python_rich.py::TestCharts::test_savefig_and_figures_come_back"
  "python/tests/test_python_rich.py::TestCharts::test_subprocess_python_uses_agg"
  "python/tests/test_python_rich.py::TestPackages"
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
# The shell's programs on the reduced tier: python3 runs its script in the
# persistent worker (no fork server there); other programs of the jail are
# refused at once with the reason (127), not left waiting.
db=$(mktemp -u /tmp/py-reduced-XXXXXX.db)
out=$(SBX_JAIL_TIER=reduced timeout 60 build/sbx "$db" -c \
  'python3 -c "print(1)"; echo "status $?"; git --version; echo "status $?"' 2>&1)
rm -f "$db" "$db"-wal "$db"-shm
want="1
status 0
git: command not found (it would run in the sandbox's jail: programs of the jail do not run on the reduced jail tier (execute_python does))
status 127"
if [ "$out" = "$want" ]; then tally "programs refused" "1 passed, 0 failed"
else echo "$out"; tally "programs refused" "0 passed, 1 failed"; fi
echo "$p passed, $f failed"
[ "$f" -eq 0 ]
