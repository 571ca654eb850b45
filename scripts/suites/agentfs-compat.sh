#!/usr/bin/env bash
# agentfs-compat.sh - AgentFS compatibility through the sbx CLI, both ways.
#  (a) The SDK's fixture (tests/fixtures/agentfs-0.4-sample.db or $SBX_SHARED/fixtures/, copied
#      first, never modified) read with `sbx`: files, bytes, symlinks, kv,
#      tool calls as its README lists them.
#  (b) A sandbox written with `sbx` (files incl. a multi-chunk one, symlinks,
#      directories, kv values, tool calls) opened with the AgentFS tools (npm
#      agentfs-sdk 0.6.4, installed into build/npm by scripts/npm-peers.sh
#      when missing), checked by tests/compat/agentfs_check.mjs; then what the
#      SDK wrote is read back with `sbx`.
# Prints "N passed, N failed". SBX=path/to/sbx overrides build/sbx.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
. scripts/lib/assert.sh
SBX=${SBX:-$root/build/sbx}
shared=${SBX_SHARED:-$root/tests}
fixture=$shared/fixtures/agentfs-0.4-sample.db
PY=/usr/bin/python3
t=$assert_tmp

if [ ! -x "$SBX" ]; then bad "build/sbx exists (run make)"; finish; exit 1; fi
if [ ! -f "$fixture" ]; then bad "fixture $fixture exists (set SBX_SHARED)"; finish; exit 1; fi

# ---- (a) the SDK's database read by sbx ------------------------------------------
sum_before=$(sha256sum <"$fixture")
cp "$fixture" "$t/fx.db"
fx=$t/fx.db

run "$SBX" "$fx" ls /
expect "ls / of the fixture" 0 "$(printf '%s\n' README.md copy-of-readme.md data empty.txt \
  emptydir readme-link renamed.txt src)"
run "$SBX" "$fx" ls /src
expect "ls /src" 0 "$(printf '%s\n' lib main.c rel-link)"
run "$SBX" "$fx" ls /emptydir
expect "ls /emptydir" 0 ""
run "$SBX" "$fx" cat /README.md
expect "cat /README.md" 0 "hello from agentfs fixture v1"
run "$SBX" "$fx" cat /readme-link /src/rel-link
expect "cat through both symlinks" 0 "hello from agentfs fixture v1

static inline int util(void){return 0;}"
run "$SBX" "$fx" readlink /readme-link
expect "readlink absolute" 0 "/README.md"
run "$SBX" "$fx" readlink /src/rel-link
expect "readlink relative" 0 "lib/util.h"
"$PY" -c 'import sys; sys.stdout.buffer.write(bytes((i*7+3) & 0xff for i in range(102400)))' \
  >"$t/blob.want"
"$SBX" "$fx" cat /data/blob.bin >"$t/blob.got"
expect_true "blob.bin bytes (25 chunks)" cmp -s "$t/blob.want" "$t/blob.got"
run "$SBX" "$fx" stat /data/small.bin
expect_match "small.bin size" "$out" '^size: 5000$'
run "$SBX" "$fx" stat /readme-link
expect_match "symlink mode" "$out" '^mode: 0777$'
expect_match "symlink type" "$out" '^type: symlink$'
run "$SBX" "$fx" stat /empty.txt
expect_match "empty file" "$out" '^size: 0$'
run "$SBX" "$fx" kv keys
expect "kv keys" 0 "$(printf '%s\n' config counter list user:name)"
run "$SBX" "$fx" kv get user:name
expect "kv user:name" 0 '"alice"'
run "$SBX" "$fx" kv get config
expect "kv config" 0 '{"theme":"dark","n":3}'
run "$SBX" "$fx" kv get list
expect "kv list" 0 '[1,"two",null]'
run "$SBX" "$fx" history
# sbx records its own file helpers too (the reads above: read_file, list_dir
# rows after the fixture's four, whose third is the SDK's own read_file call)
sbx_rows='"name":"(read_file|list_dir|write_file|write_files|mkdir|remove|rename|symlink|import_dir|export_dir)"'
newer=$(grep -Ev '^\{"id":[1-4],' <<<"$out")
expect_match "after the SDK's calls, only sbx's own file rows" "$(grep -E '^\{' <<<"$newer" | grep -Evc "$sbx_rows")" '^0$'
out=$(grep -E '^\{"id":[1-4],' <<<"$out")
expect_match "4 tool calls" "$(wc -l <<<"$out")" '^4$'
expect_match "call 4 pending" "$(sed -n 1p <<<"$out")" \
  '^\{"id":4,"name":"execute_code","status":"pending",.*"completed_at":null,"duration_ms":null,'
expect_match "call 2 error with REAL times" "$(sed -n 3p <<<"$out")" \
  '"id":2,"name":"api_call","status":"error",.*"completed_at":1700000010.3.*"error":"timeout"'
expect_match "call 1 success" "$(sed -n 4p <<<"$out")" \
  '"id":1,"name":"web_search","status":"success","started_at":1700000000,"completed_at":1700000001.5,"duration_ms":1500,"parameters":\{"query":"AI"\},"result":\{"results":\["a","b"\]\}'
if [ "$(sha256sum <"$fixture")" = "$sum_before" ]; then ok; else bad "the fixture file changed"; fi

# ---- (b) a database written by sbx read by the AgentFS SDK ---------------------------
db=$t/written.db
printf 'hello from sbx\n' >"$t/hello.txt"
"$PY" -c 'import sys; sys.stdout.buffer.write(bytes((i*13+5) & 0xff for i in range(100000)))' \
  >"$t/multi.bin" # 24 full 4096-byte chunks and a partial one
printf 'a\0b\377\376\0' >"$t/nul.bin"
printf '# Intro\n' >"$t/intro.md"
: >"$t/empty.txt"
ids=()
{
  "$SBX" "$db" write /hello.txt <"$t/hello.txt" &&
    "$SBX" "$db" write /data/multi.bin <"$t/multi.bin" &&
    "$SBX" "$db" write /data/nul.bin <"$t/nul.bin" &&
    "$SBX" "$db" write /docs/guide/intro.md <"$t/intro.md" &&
    "$SBX" "$db" write /empty.txt <"$t/empty.txt" &&
    "$SBX" "$db" mkdir -p /emptydir &&
    "$SBX" "$db" ln -s /hello.txt /link &&
    "$SBX" "$db" ln -s guide/intro.md /docs/rel &&
    "$SBX" "$db" kv set user:name '"alice"' &&
    "$SBX" "$db" kv set config '{"theme":"dark","n":3}' &&
    "$SBX" "$db" kv set counter 42 &&
    "$SBX" "$db" kv set list '[1,"two",null]' &&
    "$SBX" "$db" kv set unicode '"caf\u00e9 ✓"' &&
    ids+=("$("$SBX" "$db" history start web_search '{"query":"AI"}')") &&
    "$SBX" "$db" history finish "${ids[0]}" '{"results":["a"]}' &&
    ids+=("$("$SBX" "$db" history start api_call '{"url":"http://x"}')") &&
    "$SBX" "$db" history finish "${ids[1]}" --error timeout &&
    ids+=("$("$SBX" "$db" history start execute_code '{"code":"print(1)"}')")
} 2>"$t/write.err"
if [ "${#ids[@]}" -eq 3 ] && [ ! -s "$t/write.err" ]; then ok; else
  bad "sbx wrote the sandbox" "$(cat "$t/write.err")"
fi

cat >"$t/expect.json" <<EOF
{
  "dirs": {"/": ["data", "docs", "empty.txt", "emptydir", "hello.txt", "link"],
           "/data": ["multi.bin", "nul.bin"], "/docs": ["guide", "rel"],
           "/docs/guide": ["intro.md"], "/emptydir": []},
  "files": {"/hello.txt": "$t/hello.txt", "/data/multi.bin": "$t/multi.bin",
            "/data/nul.bin": "$t/nul.bin", "/docs/guide/intro.md": "$t/intro.md",
            "/empty.txt": "$t/empty.txt"},
  "symlinks": {"/link": "/hello.txt", "/docs/rel": "guide/intro.md"},
  "modes": {"/hello.txt": 33188, "/docs": 16877, "/emptydir": 16877, "/link": 41471},
  "kv": {"user:name": "\"alice\"", "config": "{\"theme\":\"dark\",\"n\":3}",
         "counter": "42", "list": "[1,\"two\",null]", "unicode": "\"caf\u00e9 ✓\""},
  "calls": [
    {"id": ${ids[0]:-1}, "name": "web_search", "status": "success",
     "parameters": {"query": "AI"}, "result": {"results": ["a"]}, "error": null},
    {"id": ${ids[1]:-2}, "name": "api_call", "status": "error",
     "parameters": {"url": "http://x"}, "result": null, "error": "timeout"},
    {"id": ${ids[2]:-3}, "name": "execute_code", "status": "pending",
     "parameters": {"code": "print(1)"}, "result": null, "error": null}],
  "write": {"path": "/from-node.txt", "content": "written by agentfs-sdk\n",
            "kvKey": "node", "kvValue": {"ok": true}, "tool": "node_tool"}
}
EOF

if modules=$(scripts/npm-peers.sh agentfs-sdk@0.6.4 2>"$t/npm.err"); then
  node tests/compat/agentfs_check.mjs "$modules" "$db" "$t/expect.json" >"$t/node.out" 2>&1
  node_rc=$?
  n_ok=$(grep -c '^ok - ' "$t/node.out")
  n_bad=$(grep -c '^not ok - ' "$t/node.out")
  pass=$((pass + n_ok))
  if [ "$n_bad" -gt 0 ] || [ "$node_rc" -ne 0 ] || [ "$n_ok" -lt 40 ]; then
    bad "agentfs-sdk read the sbx database ($n_ok ok, $n_bad not ok, exit $node_rc)" \
      "$(grep -v '^ok - ' "$t/node.out")"
  fi
else
  bad "npm install agentfs-sdk" "$(cat "$t/npm.err")"
fi

# What the SDK wrote, read back by sbx.
run "$SBX" "$db" cat /from-node.txt
expect "sbx reads the SDK's file" 0 "written by agentfs-sdk"
run "$SBX" "$db" kv get node
expect "sbx reads the SDK's kv value" 0 '{"ok":true}'
run "$SBX" "$db" history
out=$(grep -F '"name":"node_tool"' <<<"$out") # besides sbx's own rows of this test's reads
expect_match "sbx reads the SDK's tool call" "$out" \
  '"name":"node_tool","status":"success",.*"parameters":\{"from":"node"\},"result":\{"done":true\}'
"$SBX" "$db" cat /data/multi.bin >"$t/multi.got"
expect_true "multi-chunk file still intact" cmp -s "$t/multi.bin" "$t/multi.got"

finish
