#!/usr/bin/env bash
# py-cli.sh - Python from the command line and the shell: `sbx DB python`,
# `python3` and `tool` inside `sbx DB -c`, and `sbx doctor`. Each case compares
# the exact output and exit status.
set -uo pipefail
cd "$(dirname "$0")/../.."
sbx=build/sbx
work=$(mktemp -d "${TMPDIR:-/tmp}/sbx-py-cli-XXXXXX")
trap 'rm -rf "$work"' EXIT
db=$work/a.db
pass=0 fail=0
# check NAME EXPECTED_STATUS EXPECTED_STDOUT -- COMMAND...
check() {
  local name=$1 want_st=$2 want_out=$3
  shift 4
  local out st
  out=$("$@" 2>"$work/err")
  st=$?
  if [ "$st" = "$want_st" ] && [ "$out" = "$want_out" ]; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL $name: status $st (want $want_st)"
    echo "  got:  $(printf %q "$out")"
    echo "  want: $(printf %q "$want_out")"
    sed 's/^/  stderr: /' "$work/err" | head -5
  fi
}
check "python -c with argv" 0 "['-c', 'a', 'b c']" -- $sbx "$db" python -c 'import sys; print(sys.argv)' a 'b c'
check "python exit status" 3 "" -- $sbx "$db" python -c 'raise SystemExit(3)'
check "python stdin" 0 "6" -- sh -c "printf '1\n2\n3\n' | $sbx '$db' python -c 'import sys; print(sum(map(int, sys.stdin)))'"
check "python script from stdin" 0 "42" -- sh -c "echo 'print(6 * 7)' | $sbx '$db' python"
check "shell writes, python reads" 0 "HELLO" -- \
  $sbx "$db" -c 'echo hello > /data/h.txt; python3 -c "print(open(\"/data/h.txt\").read().strip().upper())"'
check "python writes, shell reads" 0 "from py" -- \
  $sbx "$db" -c 'python3 -c "open(\"/tmp/p.txt\", \"w\").write(\"from py\")"; cat /tmp/p.txt'
check "python in a pipeline" 0 "3" -- \
  $sbx "$db" -c 'printf "a\nb\nc\n" | python3 -c "import sys; print(len(sys.stdin.readlines()))" | cat'
check "script file with argv" 0 "/data/s.py ['x']" -- \
  $sbx "$db" -c 'echo "import sys; print(__file__, sys.argv[1:])" > /data/s.py; cd /data; python3 s.py x'
check "uncaught exception" 1 "" -- $sbx "$db" -c 'python3 -c "1/0"'
check "undeclared tool" 1 "" -- $sbx "$db" -c 'tool nope "{}"'
# python3 in the shell is a fresh process (recorded with its bash call); a
# tool call is its own row, written before the bash row that made it ends
check "history records the tool call and the shell call" 0 "bash nope" -- \
  sh -c "$sbx '$db' history -n 2 | sed 's/.*\"name\":\"\\([a-z]*\\)\".*/\\1/' | tr '\\n' ' ' | sed 's/ \$//'"
check "doctor" 0 "Python calls run jailed on this host (full jail)." -- sh -c "$sbx doctor | tail -1"
# --python-path: a host directory importable in the jail, read-only.
mkdir -p "$work/site/hostpkg" && echo "X = 'from the host'" >"$work/site/hostpkg/__init__.py"
chmod 755 "$work" "$work/site" "$work/site/hostpkg" && chmod 666 "$work/site/hostpkg/__init__.py"
check "--python-path imports" 0 "from the host /run/sbx/pypath/0/hostpkg/__init__.py" -- \
  $sbx --python-path "$work/site" "$db" -c 'python3 -c "import hostpkg; print(hostpkg.X, hostpkg.__file__)"'
check "--python-path is read-only" 0 "EROFS" -- $sbx --isolation in-process --python-path="$work/site" "$db" \
  -c 'python3 -c "
import errno, hostpkg
try:
    open(hostpkg.__file__, \"a\")
except OSError as e:
    print(errno.errorcode[e.errno])"'
check "--python-path must exist" 1 "" -- $sbx --python-path "$work/missing" "$db" -c 'echo no'
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
