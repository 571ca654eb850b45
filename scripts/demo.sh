#!/usr/bin/env bash
# demo.sh - `make demo`: a short tour of sbx through its CLI. One sandbox is
# one SQLite file: we create one, put files in it, list and read them, use
# the key-value store and the call history, then snapshot it and bring the
# snapshot back as a second sandbox. Everything happens in a temporary
# directory that is removed at the end.
#
# It also runs the shell and Python in the jail over the same files. To add a
# part: add a section with `section` and
# `show` lines below; `show` prints the command, then runs it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
SBX=${SBX:-$root/build/sbx}
[ -x "$SBX" ] || { echo "demo: build/sbx is missing: run make" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/sbx-demo-XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
sbx() { "$SBX" "$@"; } # so the printed commands read "sbx ..."

section() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
show() {
  printf '\033[2m$ %s\033[0m\n' "$*"
  eval "$@"
}

section "A sandbox is one SQLite file (AgentFS 0.4 format)"
show "echo 'hello from the host' | sbx agent.db write /data/hello.txt"
show "printf 'id,name\n1,ada\n2,linus\n' | sbx agent.db write /data/users.csv"
show "sbx agent.db mkdir -p /data/reports/2024"
show "sbx agent.db ln -s /data/users.csv /data/latest.csv"
show "ls -l agent.db | awk '{print \$5, \$NF}'"

section "Files: list, read, inspect"
show "sbx agent.db ls /data"
show "sbx agent.db ls -l /data"
show "sbx agent.db cat /data/hello.txt /data/latest.csv"
show "sbx agent.db stat /data/users.csv | head -4"
show "sbx agent.db cat /data/missing.txt || echo \"(exit status \$?)\""

section "The shell: bash with ~100 commands, in process, over the same files"
show "sbx agent.db -c 'cd /data && cat users.csv | tail -n +2 | cut -d, -f2 | sort -r | tr a-z A-Z'"
show "sbx agent.db -c 'for i in 1 2 3; do echo \"line \$i\"; done > /data/lines.txt; wc -l < /data/lines.txt'"
show "sbx agent.db -c 'x=\$(grep -c ada /data/users.csv); echo \"ada appears \$x time(s)\"; ls /etc 2>&1 | head -1'"
show "sbx agent.db -c 'while true; do :; done' || echo \"(a runaway loop stops at the limit: exit status \$?)\""

section "Python in a jail (real CPython), seeing the same files"
if "$SBX" doctor >/dev/null 2>&1; then
  show "sbx agent.db python -c 'import csv; rows = list(csv.DictReader(open(\"/data/users.csv\"))); print([r[\"name\"] for r in rows])'"
  show "sbx agent.db python -c 'open(\"/data/from_python.txt\", \"w\").write(\"written in the jail\\n\")'"
  show "sbx agent.db -c 'cat /data/from_python.txt; python3 -c \"print(6 * 7)\"'"
  show "sbx agent.db python -c 'import socket; socket.create_connection((\"127.0.0.1\", 22))' 2>&1 | tail -1 || true"
else
  show "sbx doctor || true"
fi

section "Key-value store (JSON values)"
show "sbx agent.db kv set user:name '\"ada\"'"
show "sbx agent.db kv set config '{\"theme\": \"dark\", \"retries\": 3}'"
show "sbx agent.db kv keys"
show "sbx agent.db kv get config"
show "sbx agent.db kv set broken '{not json' || echo \"(exit status \$?)\""

section "History of tool calls"
show "id=\$(sbx agent.db history start web_search '{\"query\": \"sqlite\"}')"
show "sbx agent.db history finish \$id '{\"hits\": 42}'"
show "id=\$(sbx agent.db history start fetch_url '{\"url\": \"https://example.com\"}')"
show "sbx agent.db history finish \$id --error 'network disabled'"
show "sbx agent.db history -t"
show "sbx agent.db history -n 1"

section "Snapshots and forks: copy the file, get the sandbox"
show "sbx agent.db export snapshot.db"
show "sbx import snapshot.db restored.db"
show "sbx restored.db cat /data/hello.txt"
show "sbx fork agent.db experiment.db"
show "echo 'changed in the fork only' | sbx experiment.db write /data/hello.txt"
show "sbx experiment.db cat /data/hello.txt"
show "sbx agent.db cat /data/hello.txt"

section "Done"
echo "The sandboxes lived in $work (removed now)."
