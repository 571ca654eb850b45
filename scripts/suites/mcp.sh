#!/usr/bin/env bash
# mcp.sh - tests of `sbx mcp`, the Model Context Protocol server (cli/mcp*.c).
#
# 1. The official MCP TypeScript SDK client (@modelcontextprotocol/sdk from
#    npm, pinned by tests/mcp/package-lock.json) drives the server over stdio
#    and over Streamable HTTP: tests/mcp/client.mjs, one "ok"/"not ok" line
#    per check. node_modules is installed with `npm ci` when missing; without
#    network that fails and so does this suite, saying why.
# 2. The HTTP parser's limits with raw requests over bash's /dev/tcp: an
#    oversized header block, too many headers, no Content-Length, a chunked
#    body, a body over the limit, a bad or missing token, a foreign Origin, a
#    stalled client, other paths and methods.
# 3. stdio framing errors and option errors.
# Prints "N passed, N failed". SBX=path/to/sbx overrides build/sbx.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
. scripts/lib/assert.sh
SBX=$(realpath -- "${SBX:-$root/build/sbx}")
t=$assert_tmp
if [ ! -x "$SBX" ]; then bad "build/sbx exists (run make)"; finish; exit 1; fi

# ---- 1. the SDK client ------------------------------------------------------------------
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  bad "node and npm are installed (scripts/deps.sh installs them)"
elif [ ! -d tests/mcp/node_modules/@modelcontextprotocol/sdk ] &&
  ! (cd tests/mcp && npm ci --no-audit --no-fund >"$t/npm.log" 2>&1); then
  bad "npm ci in tests/mcp installs @modelcontextprotocol/sdk (offline? see the log)" "$(tail -5 "$t/npm.log")"
else
  (cd tests/mcp && timeout 600 node client.mjs "$SBX" "$t") >"$t/client.log" 2>&1
  client_rc=$?
  while IFS= read -r line; do
    case $line in
      "ok "*) ok ;;
      "not ok "*) bad "${line#not ok }" ;;
    esac
  done <"$t/client.log"
  n=$(grep -c '^ok ' "$t/client.log")
  [ "$client_rc" = 0 ] && [ "$n" -ge 100 ] && ok ||
    bad "the SDK client ran to the end ($n checks passed, exit $client_rc)" "$(tail -5 "$t/client.log")"
fi

# ---- 2. the HTTP parser's limits -----------------------------------------------------------
port=$((20000 + RANDOM % 20000))
"$SBX" mcp --http "127.0.0.1:$port" --token s3cret 2>"$t/server.err" &
server=$!
for _ in $(seq 50); do grep -qs listening "$t/server.err" && break; sleep 0.1; done

# raw REQUEST: sends the bytes (printf format), prints the status line's code
raw() {
  local code
  code=$(
    exec 3<>"/dev/tcp/127.0.0.1/$port" || exit
    printf "$1" >&3
    head -c 12 <&3 | cut -c10-12
  )
  printf '%s' "$code"
}
init='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}'
auth='Authorization: Bearer s3cret\r\n'
expect_code() { # NAME WANT GOT
  [ "$3" = "$2" ] && ok || bad "$1" "status $3 (want $2)"
}
expect_code "a POST with the token: 200" 200 "$(raw "POST /mcp HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Length: ${#init}\r\n\r\n$init")"
expect_code "no token: 401" 401 "$(raw "POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Length: ${#init}\r\n\r\n$init")"
expect_code "a wrong token: 401" 401 "$(raw "POST /mcp HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer s3cres\r\nContent-Length: ${#init}\r\n\r\n$init")"
expect_code "a token that is a prefix: 401" 401 "$(raw "POST /mcp HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer s3c\r\nContent-Length: ${#init}\r\n\r\n$init")"
expect_code "no Content-Length: 411" 411 "$(raw "POST /mcp HTTP/1.1\r\nHost: x\r\n${auth}\r\n$init")"
expect_code "a chunked body: 411" 411 "$(raw "POST /mcp HTTP/1.1\r\nHost: x\r\n${auth}Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n")"
expect_code "two different Content-Lengths: 400" 400 "$(raw "POST /mcp HTTP/1.1\r\nHost: x\r\n${auth}Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}")"
expect_code "a negative Content-Length: 400" 400 "$(raw "POST /mcp HTTP/1.1\r\nHost: x\r\n${auth}Content-Length: -1\r\n\r\n")"
expect_code "a body over the limit (8 MiB): 413" 413 "$(raw "POST /mcp HTTP/1.1\r\nHost: x\r\n${auth}Content-Length: 8388609\r\n\r\n")"
big=$(head -c 17000 /dev/zero | tr '\0' a)
expect_code "headers over 16 KiB: 431" 431 "$(raw "POST /mcp HTTP/1.1\r\nHost: x\r\nX-Big: $big\r\n\r\n")"
many=$(for i in $(seq 70); do printf 'X-H%d: v\\r\\n' "$i"; done)
expect_code "more than 64 headers: 431" 431 "$(raw "POST /mcp HTTP/1.1\r\nHost: x\r\n${many}\r\n")"
expect_code "a malformed request line: 400" 400 "$(raw "HELLO\r\n\r\n")"
expect_code "a header line without a colon: 400" 400 "$(raw "GET /mcp HTTP/1.1\r\nnocolon\r\n\r\n")"
expect_code "another path: 404" 404 "$(raw "GET /other HTTP/1.1\r\nHost: x\r\n${auth}\r\n")"
expect_code "GET /mcp: 405" 405 "$(raw "GET /mcp HTTP/1.1\r\nHost: x\r\n${auth}\r\n")"
expect_code "PUT /mcp: 405" 405 "$(raw "PUT /mcp HTTP/1.1\r\nHost: x\r\n${auth}Content-Length: 0\r\n\r\n")"
expect_code "a foreign Origin: 403" 403 "$(raw "POST /mcp HTTP/1.1\r\nHost: x\r\n${auth}Origin: http://evil.example\r\nContent-Length: ${#init}\r\n\r\n$init")"
expect_code "Origin http://localhost:3000 is fine" 200 "$(raw "POST /mcp HTTP/1.1\r\nHost: x\r\n${auth}Origin: http://localhost:3000\r\nContent-Length: ${#init}\r\n\r\n$init")"
ping='{"jsonrpc":"2.0","id":2,"method":"ping"}'
expect_code "no Mcp-Session-Id after initialize: 400" 400 "$(raw "POST /mcp HTTP/1.1\r\nHost: x\r\n${auth}Content-Length: ${#ping}\r\n\r\n$ping")"
expect_code "an unknown Mcp-Session-Id: 404" 404 "$(raw "POST /mcp HTTP/1.1\r\nHost: x\r\n${auth}Mcp-Session-Id: abc123\r\nContent-Length: ${#ping}\r\n\r\n$ping")"
expect_code "a malformed Mcp-Session-Id: 400" 400 "$(raw "POST /mcp HTTP/1.1\r\nHost: x\r\n${auth}Mcp-Session-Id: ../x\r\nContent-Length: ${#ping}\r\n\r\n$ping")"
expect_code "a body that is not JSON: 400" 400 "$(raw "POST /mcp HTTP/1.1\r\nHost: x\r\n${auth}Content-Length: 5\r\n\r\nhello")"
# a client that stops in the middle of its headers gets 408 after the read timeout
start=$SECONDS
expect_code "a stalled client: 408" 408 "$(raw "POST /mcp HTTP/1.1\r\nHost: x\r\n")"
[ $((SECONDS - start)) -ge 10 ] && ok || bad "the read timeout is about 15 s" "$((SECONDS - start)) s"
# it listens on the address given only: 127.0.0.2 is loopback too, but not bound
if (exec 3<>"/dev/tcp/127.0.0.2/$port") 2>/dev/null; then bad "listens on 127.0.0.1 only"; else ok; fi
# the server is still there and answers after all that
expect_code "the server survives the bad requests" 200 "$(raw "POST /mcp HTTP/1.1\r\nHost: x\r\n${auth}Content-Length: ${#init}\r\n\r\n$init")"
kill -TERM "$server"
wait "$server"
rc=$?
[ "$rc" = 0 ] && ok || bad "SIGTERM ends the HTTP server cleanly" "exit $rc" "$(cat "$t/server.err")"
grep -Eq 'ERROR: (Address|Leak)Sanitizer|runtime error' "$t/server.err" && bad "sanitizers are quiet" "$(cat "$t/server.err")" || ok

# at most 256 live sessions: the next initialize is 503 until one ends
port=$((port + 1))
"$SBX" mcp --http "127.0.0.1:$port" 2>"$t/server2.err" &
server=$!
for _ in $(seq 50); do grep -qs listening "$t/server2.err" && break; sleep 0.1; done
url=http://127.0.0.1:$port/mcp
codes=$(for i in $(seq 257); do
  curl -s -o /dev/null -D "$t/h$((i % 2))" -w '%{http_code}\n' -H 'Content-Type: application/json' --data "$init" "$url"
done | sort | uniq -c | awk '{print $2 "x" $1}' | tr '\n' ' ')
[ "$codes" = "200x256 503x1 " ] && ok || bad "256 sessions, then 503" "$codes"
sid=$(grep -i '^mcp-session-id:' "$t/h0" | tr -d '\r' | cut -d' ' -f2)
[ -z "$sid" ] && sid=$(grep -i '^mcp-session-id:' "$t/h1" | tr -d '\r' | cut -d' ' -f2)
code=$(curl -s -o /dev/null -w '%{http_code}' -X DELETE -H "Mcp-Session-Id: $sid" "$url")
expect_code "DELETE ends a session: 204" 204 "$code"
code=$(curl -s -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' --data "$init" "$url")
expect_code "after a DELETE a new session fits" 200 "$code"
kill -TERM "$server"
wait "$server"
grep -Eq 'ERROR: (Address|Leak)Sanitizer|runtime error' "$t/server2.err" && bad "sanitizers are quiet (sessions)" "$(cat "$t/server2.err")" || ok

run "$SBX" mcp --http 127.0.0.1
expect "--http without a port" 1 "" "sbx: mcp: --http 127.0.0.1: expected ADDR:PORT (127.0.0.1:8080)"

# ---- 3. stdio framing and options ----------------------------------------------------------
out=$(printf '%s\n' 'not json' '[1,2]' '{"jsonrpc":"1.0","id":1,"method":"ping"}' \
  '{"jsonrpc":"2.0","id":2,"method":"nope"}' '{"jsonrpc":"2.0","id":3,"method":"ping"}' |
  "$SBX" mcp 2>"$t/err")
want='{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}
{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"not a JSON-RPC message"}}
{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"jsonrpc must be \"2.0\""}}
{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"method not found"}}
{"jsonrpc":"2.0","id":3,"result":{}}'
[ "$out" = "$want" ] && ok || bad "stdio: errors for bad messages, in order" "$out"
out=$({ head -c 17000000 /dev/zero | tr '\0' a; echo; echo '{"jsonrpc":"2.0","id":2,"method":"ping"}'; } | "$SBX" mcp 2>&1)
[ "$out" = '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"message too large"}}
{"jsonrpc":"2.0","id":2,"result":{}}' ] && ok || bad "stdio: a message over 16 MiB is refused, the next one served" "$out"
out=$(printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"bash","arguments":{"command":"printf \"a\\377b\\0c\""}}}' | "$SBX" mcp)
expect_match "stdio: invalid UTF-8 output becomes U+FFFD, NUL stays" "$out" '"text":"a�b\\u0000c\\n\[exit status 0\]"'
# sbx DB mcp: the tools work on the database itself
out=$(printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"upload","arguments":{"path":"/data/from-mcp.txt","content":"kept\n"}}}' |
  "$SBX" "$t/stdio.db" mcp)
expect_match "sbx DB mcp: upload" "$out" 'Wrote 5 bytes to /data/from-mcp.txt'
run "$SBX" "$t/stdio.db" cat /data/from-mcp.txt
expect "sbx DB mcp writes into DB" 0 "kept"
run "$SBX" mcp --preset huge
expect "--preset checks its value" 1 "" "sbx: --preset: 'huge' is not strict, normal or permissive"
run "$SBX" mcp --timeout -3
expect "--timeout checks its value" 1 "" "sbx: --timeout: '-3' is not a number of seconds (0 < T <= 86400)"
run "$SBX" mcp --limit loop_iterations=x
expect "--limit checks its value" 1 "" "sbx: --limit: 'loop_iterations=x': the value is not a positive integer"
run "$SBX" mcp --session abc
expect "--session needs --dir" 1 "" "sbx: mcp: --session needs --dir"
run "$SBX" mcp --dir "$t/none"
expect "--dir must exist" 1 "" "sbx: mcp: --dir $t/none: No such file or directory"
mkdir "$t/d"
run "$SBX" mcp --dir "$t/d" --session 0123abcd
expect "--session of a session that does not exist" 1 "" "sbx: mcp: no session '0123abcd' in $t/d"
# the --timeout option reaches the tools
out=$(printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"bash","arguments":{"command":"sleep 3"}}}' |
  "$SBX" mcp --timeout 0.5 2>/dev/null)
expect_match "--timeout limits a tool call" "$out" 'stopped: the timeout limit \(500\)'
out=$(printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"bash","arguments":{"command":"for i in $(seq 1000); do :; done; echo done"}}}' |
  "$SBX" mcp --preset strict 2>/dev/null)
expect_match "--preset strict limits loops" "$out" 'loop_iterations limit \(100\)'
out=$(printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"bash","arguments":{"command":"for i in 1 2 3 4; do :; done; echo done"}}}' |
  "$SBX" mcp --limit loop_iterations=3 2>/dev/null)
expect_match "--limit reaches the tools" "$out" 'loop_iterations limit \(3\)'
out=$(printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"bash","arguments":{"command":"for i in $(seq 200); do :; done"}}}' |
  "$SBX" --preset strict mcp 2>/dev/null)
expect_match "--preset before mcp (a global option)" "$out" 'loop_iterations limit \(100\)'
# every front writes the same history row: a bash call through MCP
printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"bash","arguments":{"command":"cd /tmp"}}}' \
  '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"bash","arguments":{"command":"pwd; exit 4"}}}' |
  "$SBX" "$t/hist.db" mcp >/dev/null 2>&1
run "$SBX" "$t/hist.db" history
expect_match "an MCP bash call is recorded (command, cwd at its start, exitCode)" "$(sed -n 1p <<<"$out")" \
  '"name":"bash","status":"success".*"parameters":\{"command":"pwd; exit 4","cwd":"/tmp"\},"result":\{"exitCode":4\}'
expect_match "both MCP bash calls are recorded" "$(wc -l <<<"$out")" '^2$'
# and its file tools leave the library's file-helper rows (the C API's, the CLI's shape)
printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"upload","arguments":{"path":"/data/u.txt","content":"aGk=","encoding":"base64"}}}' \
  '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"download","arguments":{"path":"/data/u.txt"}}}' \
  '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"str_replace_based_edit_tool","arguments":{"command":"create","path":"/data/e.txt","file_text":"abc"}}}' \
  '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"download","arguments":{"path":"/data/none"}}}' |
  "$SBX" "$t/fhist.db" mcp >/dev/null 2>&1
run "$SBX" "$t/fhist.db" history
rows=$(jq -r '"\(.name) \(.parameters | tojson) \(.error // (.result | tojson))"' <<<"$out")
want=$(printf '%s\n' \
  'write_file {"path":"/data/e.txt","size":3,"mode":420,"mkdirs":1} {"bytes":3}' \
  'read_file {"path":"/data/u.txt"} {"bytes":2}' \
  'write_file {"path":"/data/u.txt","size":2,"mode":420,"mkdirs":1} {"bytes":2}')
[ "$rows" = "$want" ] && ok || bad "MCP upload, download and the editor's create leave the file-helper rows" "$rows"
run "$SBX" help mcp
expect_match "help mcp" "$out" '^usage: sbx mcp \[--dir DIR\]'
finish
