#!/usr/bin/env bash
# cli.sh - tests of the `sbx` command-line tool (build/sbx): every subcommand
# of cli/, their output formats, their error messages ("sbx: CONTEXT:
# reason" on stderr) and exit codes (0 / 1), and the dispatch rules (global
# commands, `sbx DB`, --help everywhere without touching any database).
# Prints "N passed, N failed". SBX=path/to/sbx overrides build/sbx.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
. scripts/lib/assert.sh
SBX=${SBX:-$root/build/sbx}
t=$assert_tmp
db=$t/a.db
if [ ! -x "$SBX" ]; then bad "build/sbx exists (run make)"; finish; exit 1; fi

# ---- dispatch and help -------------------------------------------------------------
run "$SBX"
expect_match "no arguments: usage on stderr" "$err" '^usage: sbx DB'
[ "$rc" = 1 ] && ok || bad "no arguments exits 1"
run "$SBX" --help
expect_match "--help lists the file commands" "$out" 'sbx DB cat PATH\.\.\.'
expect_match "--help lists global commands" "$out" 'sbx import FILE DB'
[ "$rc" = 0 ] && ok || bad "--help exits 0"
run "$SBX" help kv
expect_match "help kv" "$out" '^usage: sbx DB kv get KEY'
run "$SBX" "$db" ls --help
expect_match "DB ls --help" "$out" '^usage: sbx DB ls \[-l\] \[PATH\]'
[ ! -e "$db" ] && ok || bad "--help does not create the database"
run "$SBX" --version
expect_match "--version" "$out" '^sbx [0-9]+\.[0-9]+'
run "$SBX" "$db" frobnicate
expect "unknown command" 1 "" "sbx: unknown command 'frobnicate'; see 'sbx --help'"
run "$SBX" --frob
expect "unknown option" 1 "" "sbx: unknown option '--frob'; see 'sbx --help'"
run "$SBX" "$db" fork x y
expect "global command after a DB" 1 "" "sbx: 'fork' takes no database first: sbx fork DB NEWDB"
# The shell entry runs scripts in the sandbox (its own database here: the
# shell creates /data, its default working directory, and /tmp).
run "$SBX" "$t/shell.db" -c 'echo hi; pwd; ls /'
if [ "$rc" = 0 ] && [ "$out" = "$(printf 'hi\n/data\ndata\ntmp')" ]; then
  ok
else
  bad "sbx DB -c runs the shell in /data" "rc $rc" "out $out" "err $err"
fi

# --isolation process: the same shell in a jailed helper process, same files.
run "$SBX" --isolation process "$t/shell.db" -c 'echo iso > /data/iso.txt; pwd; cat /data/iso.txt'
if [ "$rc" = 0 ] && [ "$out" = "$(printf '/data\niso')" ]; then
  ok
else
  bad "sbx --isolation process DB -c" "rc $rc" "out $out" "err $err"
fi
run "$SBX" "$t/shell.db" cat /data/iso.txt
expect "the helper's file seen in-process" 0 "iso"
run_in "piped" "$SBX" --isolation=process "$t/shell.db" -c 'tr a-z A-Z; exit 3'
expect "stdin and exit status through the helper" 3 "PIPED"
run "$SBX" --isolation thread "$t/shell.db" -c true
expect "unknown isolation mode" 1 "" "sbx: --isolation: unknown mode 'thread' (in-process or process)"
# --programs: the host programs the shell may run in the jail.
run "$SBX" --programs perl "$t/shell.db" -c 'perl -e "print 6*7"; echo; git --version; echo $?'
expect "--programs perl allows perl only" 0 "$(printf '42\n127')" "sbx: line 1: git: command not found"
run "$SBX" --programs= "$t/shell.db" -c 'perl -e 1; echo $?; python3 -c "print(1)"'
expect "--programs= allows none (python3 is the sandbox's own)" 0 "$(printf '127\n1')" "sbx: line 1: perl: command not found"
run "$SBX" --programs bin/perl "$t/shell.db" -c true
expect "--programs with a relative path" 1 "" "sbx: programs: 'bin/perl' is neither a program name nor an absolute path"
# A limit that ends a call: what the script printed until then is on the
# terminal, then the limit's message, and the status is 126.
run "$SBX" "$t/shell.db" -c 'echo before; echo warn >&2; a=({1..200000}); echo after'
expect "a limit keeps the output before it" 126 "before" \
  "$(printf 'warn\nsbx: execution limit exceeded: array_size (100000)')"
# The NORMAL preset lets a loop over a large file run to its end.
run "$SBX" "$t/shell.db" -c 'seq 200000 > /tmp/l; n=0; while read -r x; do n=$((n+1)); done < /tmp/l; echo $n'
expect "a while-read loop over 200,000 lines" 0 "200000"
# A timeout inside the script is not a limit of the call: the script goes on.
run "$SBX" "$t/shell.db" -c 'echo a; timeout 0.2 bash -c "trap \"echo got TERM; exit 3\" TERM; while :; do :; done"; echo $?'
expect "timeout runs the TERM trap of the timed code" 0 "$(printf 'a\ngot TERM\n124')"

# ---- reading commands never create a database ----------------------------------------
run "$SBX" "$t/missing.db" ls /
expect "ls on a missing database" 1 "" "sbx: open $t/missing.db: No such file or directory"
run "$SBX" "$t/missing.db" kv get k
expect "kv get on a missing database" 1 "" "sbx: open $t/missing.db: No such file or directory"
[ ! -e "$t/missing.db" ] && ok || bad "reading commands created the database"
printf 'not a database at all, just text\n' >"$t/text.db"
run "$SBX" "$t/text.db" ls
expect_match "a non-SQLite file" "$err" "^sbx: open $t/text.db: not an SQLite database"
[ "$rc" = 1 ] && ok || bad "non-SQLite exits 1"

# ---- write, cat, ls, stat ------------------------------------------------------------
run_in "hello" "$SBX" "$db" write /docs/a.txt
expect "write creates parents" 0 ""
run "$SBX" "$db" cat /docs/a.txt
expect "cat" 0 "hello"
run_in " world" "$SBX" "$db" write -a /docs/a.txt
run "$SBX" "$db" cat /docs/a.txt
expect "write -a appends" 0 "hello world"
printf 'x\0y\377' >"$t/bin.in"
"$SBX" "$db" write /bin <"$t/bin.in"
"$SBX" "$db" cat /bin >"$t/bin.out"
expect_true "binary bytes round trip" cmp -s "$t/bin.in" "$t/bin.out"
run "$SBX" "$db" cat /nope
expect "cat missing" 1 "" "sbx: cat /nope: No such file or directory"
run "$SBX" "$db" cat /docs/a.txt /nope /docs/a.txt
expect "cat goes on after an error, exit 1" 1 "hello worldhello world" \
  "sbx: cat /nope: No such file or directory"
run "$SBX" "$db" cat /docs
expect "cat a directory" 1 "" "sbx: cat /docs: Is a directory"
run_in "x" "$SBX" "$db" write /docs
expect "write to a directory" 1 "" "sbx: write /docs: Is a directory"
run_in "x" "$SBX" "$db" write "/$(printf 'n%.0s' {1..256})"
expect_match "over-long name" "$err" ': File name too long$'
run "$SBX" "$db" cat
expect_match "cat without operands: usage" "$err" '^usage: sbx DB cat PATH'
run "$SBX" "$db" ls
expect "ls /" 0 "$(printf '%s\n' bin docs)"
run "$SBX" "$db" ls /docs/a.txt
expect "ls of a file" 0 "/docs/a.txt"
run "$SBX" "$db" ls -l /docs
expect_match "ls -l" "$out" '^-rw-r--r--   1     0     0         11 [0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2} a\.txt$'
run "$SBX" "$db" ls /none
expect "ls missing" 1 "" "sbx: ls /none: No such file or directory"
run "$SBX" "$db" stat /docs/a.txt
expect_match "stat type" "$out" '^type: file$'
expect_match "stat size" "$out" '^size: 11$'
expect_match "stat mode" "$out" '^mode: 0644$'
expect_match "stat mtime" "$out" '^mtime: [0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}\.[0-9]{9}Z$'
run "$SBX" "$db" stat /docs
expect_match "stat dir" "$out" '^type: directory$'

# ---- mkdir, rm, mv, ln, readlink ------------------------------------------------------
run "$SBX" "$db" mkdir /d1 /d2
expect "mkdir two" 0 ""
run "$SBX" "$db" mkdir /d1
expect "mkdir existing" 1 "" "sbx: mkdir /d1: File exists"
run "$SBX" "$db" mkdir /p/q/r
expect "mkdir without -p" 1 "" "sbx: mkdir /p/q/r: No such file or directory"
run "$SBX" "$db" mkdir -p /p/q/r /d1
expect "mkdir -p" 0 ""
run "$SBX" "$db" rm /p
expect "rm a non-empty dir" 1 "" "sbx: rm /p: Directory not empty"
run "$SBX" "$db" rm -r /p /d2
expect "rm -r" 0 ""
run "$SBX" "$db" rm /gone
expect "rm missing" 1 "" "sbx: rm /gone: No such file or directory"
run "$SBX" "$db" rm -f /gone
expect "rm -f missing" 0 ""
run "$SBX" "$db" ls /
expect "after rm" 0 "$(printf '%s\n' bin d1 docs)"
run "$SBX" "$db" mv /bin /d1/bin2
expect "mv" 0 ""
run "$SBX" "$db" mv /bin /x
expect "mv missing" 1 "" "sbx: mv /bin /x: No such file or directory"
run "$SBX" "$db" ln -s /docs/a.txt /link
expect "ln -s" 0 ""
run "$SBX" "$db" readlink /link
expect "readlink" 0 "/docs/a.txt"
run "$SBX" "$db" cat /link
expect "cat through a symlink" 0 "hello world"
run "$SBX" "$db" readlink /docs/a.txt
expect "readlink on a file" 1 "" "sbx: readlink /docs/a.txt: Invalid argument"
run "$SBX" "$db" ln /docs/a.txt /hard
expect "ln without -s" 1 "" "sbx: ln: only symbolic links (-s) are supported"
run "$SBX" "$db" ls -l /
expect_match "ls -l shows the symlink target" "$out" ' link -> /docs/a\.txt$'
run "$SBX" "$db" stat /link
expect_match "stat shows a symlink (no follow)" "$out" '^target: /docs/a\.txt$'
run "$SBX" "$db" stat -L /link
expect_match "stat -L follows" "$out" '^type: file$'

# ---- kv -------------------------------------------------------------------------------
run "$SBX" "$db" kv set user:name '"alice"'
expect "kv set" 0 ""
run "$SBX" "$db" kv set n -1
expect "kv set a negative number" 0 ""
run "$SBX" "$db" kv get n
expect "kv get -1" 0 "-1"
run_in '{"a": [1, 2]}' "$SBX" "$db" kv set cfg -
expect "kv set from stdin" 0 ""
run "$SBX" "$db" kv get cfg
expect "kv get object" 0 '{"a": [1, 2]}'
run "$SBX" "$db" kv set bad '{oops'
expect_match "kv set invalid JSON" "$err" "^sbx: kv set bad: invalid JSON: "
[ "$rc" = 1 ] && ok || bad "invalid JSON exits 1"
run "$SBX" "$db" kv get bad
expect "invalid JSON stored nothing" 1 "" "sbx: kv get bad: no such key"
run "$SBX" "$db" kv keys
expect "kv keys sorted" 0 "$(printf '%s\n' cfg n user:name)"
run "$SBX" "$db" kv keys user
expect "kv keys with a prefix" 0 "user:name"
run "$SBX" "$db" kv del n
expect "kv del" 0 ""
run "$SBX" "$db" kv keys
expect "after kv del" 0 "$(printf '%s\n' cfg user:name)"
run "$SBX" "$db" kv frob x
expect_match "kv with a bad operation" "$err" '^usage: sbx DB kv get KEY'
run "$SBX" "$t/new-kv.db" kv set k 1
expect "kv set creates the database" 0 ""

# ---- history ------------------------------------------------------------------------------
# (a database of its own: the file commands above left their rows in $db)
cdb=$t/calls.db
"$SBX" "$cdb" kv set made 1 # creates it; kv calls are not history
run "$SBX" "$cdb" history
expect "empty history" 0 ""
id1=$("$SBX" "$cdb" history start web_search '{"query":"AI"}')
"$SBX" "$cdb" history finish "$id1" '{"hits":2}'
id2=$("$SBX" "$cdb" history start api_call)
"$SBX" "$cdb" history finish "$id2" --error "timeout"
run "$SBX" "$cdb" history
expect_match "history has two lines" "$(wc -l <<<"$out")" '^2$'
expect_match "history JSON line (newest first)" "$(head -1 <<<"$out")" \
  "^\{\"id\":$id2,\"name\":\"api_call\",\"status\":\"error\",\"started_at\":[0-9.]+,\"completed_at\":[0-9.]+,\"duration_ms\":[0-9.]+,\"parameters\":null,\"result\":null,\"error\":\"timeout\"\}$"
expect_match "history embeds JSON values" "$(tail -1 <<<"$out")" \
  '"parameters":\{"query":"AI"\},"result":\{"hits":2\},"error":null\}$'
run "$SBX" "$cdb" history -n 1
expect_match "history -n 1" "$(wc -l <<<"$out")" '^1$'
run "$SBX" "$cdb" history -t
expect_match "history -t header" "$(head -1 <<<"$out")" '^ +ID +STATUS +NAME +MS +ERROR$'
expect_match "history -t row" "$out" "^ +$id2 +error +api_call +[0-9.]+ +timeout$"
run "$SBX" "$cdb" history -n zero
expect "history -n invalid" 1 "" "sbx: history: invalid count 'zero' (a positive number)"
run "$SBX" "$cdb" history finish 999 '1'
expect "history finish unknown id" 1 "" "sbx: history finish 999: no such call"
run "$SBX" "$cdb" history start t '{bad'
expect_match "history start invalid JSON" "$err" '^sbx: history start t: invalid JSON'

# ---- export, import, fork ------------------------------------------------------------------
run "$SBX" "$db" export "$t/snap.db"
expect "export" 0 ""
head -c 16 "$t/snap.db" | grep -q '^SQLite format 3' && ok || bad "export writes an SQLite file"
run "$SBX" import "$t/snap.db" "$t/imported.db"
expect "import" 0 ""
run "$SBX" "$t/imported.db" cat /docs/a.txt
expect "imported file" 0 "hello world"
run "$SBX" "$t/imported.db" kv get user:name
expect "imported kv" 0 '"alice"'
run "$SBX" import "$t/snap.db" "$t/imported.db"
expect "import never overwrites" 1 "" "sbx: import $t/imported.db: File exists"
run "$SBX" import "$t/text.db" "$t/bad-import.db"
expect_match "import garbage" "$err" "^sbx: import $t/text.db: not an SQLite database"
[ ! -e "$t/bad-import.db" ] && ok || bad "a failed import leaves no database"
run "$SBX" import "$t/none" "$t/bad-import.db"
expect "import a missing file" 1 "" "sbx: import $t/none: No such file or directory"
"$SBX" "$db" export - >"$t/stdout.db"
cmp -s <(head -c 16 "$t/stdout.db") <(printf 'SQLite format 3\0') && ok || bad "export -"
out=$("$SBX" import - "$t/from-stdin.db" <"$t/stdout.db" 2>&1; echo "rc=$?")
expect_match "import -" "$out" '^rc=0$'
run "$SBX" fork "$db" "$t/forked.db"
expect "fork" 0 ""
run_in "fork only" "$SBX" "$t/forked.db" write /docs/a.txt
run "$SBX" "$db" cat /docs/a.txt
expect "fork is independent" 0 "hello world"
run "$SBX" "$t/forked.db" cat /docs/a.txt
expect "fork has its own change" 0 "fork only"
run "$SBX" fork "$db" "$t/forked.db"
expect "fork never overwrites" 1 "" "sbx: fork $t/forked.db: File exists"
run "$SBX" fork "$t/missing.db" "$t/f2.db"
expect "fork of a missing database" 1 "" "sbx: open $t/missing.db: No such file or directory"


# ---- import HOSTDIR PATH, export-dir PATH HOSTDIR ------------------------------------------
tdb=$t/tree.db
mkdir -p "$t/src/sub/deep"
printf 'hello\n' >"$t/src/a.txt"
printf '#!/bin/sh\n' >"$t/src/run.sh"
printf 'x' >"$t/src/sub/deep/z"
chmod 755 "$t/src/run.sh"
chmod 640 "$t/src/a.txt"
chmod 1750 "$t/src/sub"
chmod 4755 "$t/src/run.sh" # set-uid: dropped by the copy
ln -s ../a.txt "$t/src/sub/link"
ln -s sub/deep "$t/src/dl"
touch -h -d '2020-01-02 03:04:05.5 UTC' "$t/src/a.txt" "$t/src/sub/link"
touch -d '2021-05-06 07:08:09 UTC' "$t/src/sub"
run "$SBX" "$tdb" import "$t/src" /data/repo
expect "import a host tree" 0 ""
run "$SBX" "$tdb" -c 'cd /data/repo; cat sub/link dl/z; echo; find . | sort'
expect "import: files, inner symlinks" 0 "hello
x
.
./a.txt
./dl
./run.sh
./sub
./sub/deep
./sub/deep/z
./sub/link"
run "$SBX" "$tdb" stat /data/repo/a.txt
expect_match "import keeps the mode" "$out" '^mode: 0640$'
expect_match "import keeps the mtime (nanoseconds too)" "$out" '^mtime: 2020-01-02T03:04:05.500000000Z$'
run "$SBX" "$tdb" stat /data/repo/run.sh
expect_match "import drops the set-uid bit" "$out" '^mode: 0755$'
run "$SBX" "$tdb" stat /data/repo/sub
expect_match "import keeps a directory's mode (sticky too)" "$out" '^mode: 1750$'
expect_match "import keeps a directory's mtime" "$out" '^mtime: 2021-05-06T07:08:09'
run "$SBX" "$tdb" stat /data/repo/sub/link
expect_match "import keeps a symlink's mtime" "$out" '^mtime: 2020-01-02T03:04:05.5'
run "$SBX" "$tdb" export-dir /data/repo "$t/out"
expect "export-dir" 0 ""
expect_true "export-dir: the same files" diff -r "$t/src" "$t/out"
[ "$(readlink "$t/out/sub/link")" = ../a.txt ] && ok || bad "export-dir keeps symlinks"
[ "$(stat -c %a "$t/out/a.txt") $(stat -c %a "$t/out/sub") $(stat -c %a "$t/out/run.sh")" = "640 1750 755" ] &&
  ok || bad "export-dir keeps modes, drops set-uid" "$(stat -c %a "$t/out/a.txt" "$t/out/sub" "$t/out/run.sh")"
[ "$(TZ=UTC stat -c %y "$t/out/a.txt")" = "2020-01-02 03:04:05.500000000 +0000" ] && ok ||
  bad "export-dir keeps mtimes" "$(stat -c %y "$t/out/a.txt")"
run "$SBX" "$tdb" export-dir /data/repo "$t/out"
expect "export-dir into an existing directory" 1 "" "sbx: export $t/out: File exists"
ln -s /etc/passwd "$t/src/sub/bad"
run "$SBX" "$tdb" import "$t/src" /data/r2
expect "import refuses an absolute symlink" 1 "" \
  "sbx: import $t/src/sub/bad: the symlink's target '/etc/passwd' leaves the copied tree (only relative targets that stay inside it are copied)"
run "$SBX" "$tdb" ls /data/r2
expect "a refused import changes nothing" 1 "" "sbx: ls /data/r2: No such file or directory"
rm "$t/src/sub/bad"
for target in ../.. ../../x deep/../.. deep/../../..; do
  ln -s "$target" "$t/src/sub/bad"
  run "$SBX" "$tdb" import "$t/src" /data/r2
  expect_match "import refuses the symlink $target" "$err" "target '$target' leaves the copied tree"
  rm "$t/src/sub/bad"
done
ln -s .. "$t/src/sub/up" # stays inside: fine
run "$SBX" "$tdb" import "$t/src" /data/r3
expect "import keeps a symlink that goes up inside the tree" 0 ""
rm "$t/src/sub/up"
mkfifo "$t/src/fifo"
run "$SBX" "$tdb" import "$t/src" /data/r2
expect "import refuses a fifo" 1 "" "sbx: import $t/src/fifo: not a regular file, directory or symlink (not copied)"
rm "$t/src/fifo"
run "$SBX" "$tdb" -c 'ln -s /data /data/repo/sub/out'
run "$SBX" "$tdb" export-dir /data/repo "$t/out2"
expect_match "export-dir refuses a symlink out of the tree" "$err" "^sbx: export $t/out2/sub/out: the symlink's target '/data' leaves"
run "$SBX" "$tdb" import "$t/none" /data/x
expect "import of a missing host directory" 1 "" "sbx: import $t/none: No such file or directory"
run "$SBX" "$tdb" export-dir /data/repo/a.txt "$t/out3"
expect "export-dir of a file" 1 "" "sbx: export /data/repo/a.txt: Not a directory"
run "$SBX" "$tdb" import onlyone
expect_match "import needs two arguments" "$err" '^usage: sbx DB import HOSTDIR PATH'
# ---- the history row of a bash call, and limit options (issue 18) ------------------------
hdb=$t/hist.db
"$SBX" "$hdb" -c 'cd /tmp; echo one' >/dev/null
"$SBX" "$hdb" -c "printf 'x'; exit 3 # $(printf '\xff')" >/dev/null
run "$SBX" "$hdb" history
expect_match "sbx DB -c is recorded: command, cwd, exitCode" "$(sed -n 2p <<<"$out")" \
  '"name":"bash","status":"success".*"parameters":\{"command":"cd /tmp; echo one","cwd":"/data"\},"result":\{"exitCode":0\}'
expect_match "invalid UTF-8 in a recorded script becomes U+FFFD" "$(sed -n 1p <<<"$out")" \
  '"command":"printf .x.; exit 3 # \\uFFFD","cwd":"/data"\},"result":\{"exitCode":3\}'
run_in 'echo piped' "$SBX" "$hdb"
"$SBX" --isolation process "$t/hiso.db" -c 'cd /tmp; exit 2'
run "$SBX" "$t/hiso.db" history
expect_match "--isolation process records the same row" "$out" \
  '"name":"bash".*"parameters":\{"command":"cd /tmp; exit 2","cwd":"/data"\},"result":\{"exitCode":2\}'
run "$SBX" "$hdb" history -n 1
expect_match "a script on stdin is recorded" "$out" '"parameters":\{"command":"echo piped","cwd":"/data"\}'
"$SBX" "$hdb" python -c 'print(1)' >/dev/null
run "$SBX" "$hdb" history -n 1
expect_match "sbx DB python is recorded once, as python (the library's row, by name)" "$out" \
  '^\{"id":[0-9]+,"name":"python".*"parameters":\{"command":"python3 \\"\$@\\"","args":\["-c","print\(1\)"\],"cwd":"/data"\},"result":\{"exitCode":0\}'
run "$SBX" "$hdb" history
expect_match "sbx DB python leaves one row" "$(wc -l <<<"$out")" '^4$'
# the file commands leave the library's file-helper rows (the C API's shape)
fdb=$t/fhist.db
printf 'hello' | "$SBX" "$fdb" write /d/a.txt
"$SBX" "$fdb" cat /d/a.txt >/dev/null
"$SBX" "$fdb" cat /nope 2>/dev/null
"$SBX" "$fdb" ls /d >/dev/null
"$SBX" "$fdb" mkdir -p /e/f
"$SBX" "$fdb" mv /d/a.txt /e/b.txt
"$SBX" "$fdb" rm /e/b.txt
"$SBX" "$fdb" stat /e >/dev/null
run "$SBX" "$fdb" history
want=$(printf '%s\n' \
  'remove {"path":"/e/b.txt"} {}' \
  'rename {"from":"/d/a.txt","to":"/e/b.txt"} {}' \
  'mkdir {"path":"/e/f","mode":493,"parents":1} {}' \
  'list_dir {"path":"/d"} {"entries":1}' \
  'read_file {"path":"/nope"} read /nope: No such file or directory' \
  'read_file {"path":"/d/a.txt"} {"bytes":5}' \
  'write_file {"path":"/d/a.txt","size":5,"mode":420,"mkdirs":1} {"bytes":5}')
rows=$(jq -r '"\(.name) \(.parameters | tojson) \(.error // (.result | tojson))"' <<<"$out")
[ "$rows" = "$want" ] && ok || bad "file commands are recorded, one row each (stat is not)" "$rows"
run "$SBX" "$fdb" history prune --rows 2
run "$SBX" "$fdb" history
expect_match "history prune --rows keeps the newest" "$(wc -l <<<"$out")" '^2$'
run "$SBX" "$fdb" history prune --age -1
expect "history prune checks its values" 1 "" "sbx: history prune: invalid --age '-1' (seconds, 0: no bound)"
run "$SBX" "$hdb" --timeout 0.2 -c 'echo before; while :; do :; done'
expect "--timeout after DB" 126 "before" "sbx: execution limit exceeded: timeout (200 ms)"
run "$SBX" --timeout=0.2 "$hdb" -c 'while :; do :; done'
expect "--timeout= before DB" 126 "" "sbx: execution limit exceeded: timeout (200 ms)"
run "$SBX" "$hdb" sh --preset strict -c 'for i in $(seq 200); do :; done'
expect "sh --preset strict" 126 "" "sbx: execution limit exceeded: loop_iterations (100)"
run "$SBX" --preset strict "$hdb" --limit loop_iterations=3 -c 'for i in 1 2 3 4; do echo $i; done'
expect "--limit over a preset" 126 "$(printf '1\n2\n3')" "sbx: execution limit exceeded: loop_iterations (3)"
run "$SBX" "$hdb" --limit output_bytes=4 -c 'echo 123456789'
expect_match "--limit output_bytes" "$err" 'output_bytes \(4\)'
run "$SBX" "$hdb" python --timeout 0.5 -c 'import time; time.sleep(20)'
expect_match "python --timeout interrupts the script" "$err" 'execution limit exceeded: timeout \(500 ms\)'
[ "$rc" != 0 ] && ok || bad "python --timeout: a non-zero status"
run "$SBX" "$hdb" --limit bogus=1 -c true
expect "--limit with an unknown name" 1 "" "sbx: --limit: 'bogus=1' is not NAME=N with NAME one of loop_iterations, command_count, function_depth, output_bytes, string_size, array_size, timeout_ms"
run "$SBX" "$hdb" --limit loop_iterations=-1 -c true
expect "--limit with a negative value" 1 "" "sbx: --limit: 'loop_iterations=-1': the value is not a positive integer"
run "$SBX" "$hdb" --timeout 0 -c true
expect "--timeout 0" 1 "" "sbx: --timeout: '0' is not a number of seconds (0 < T <= 86400)"
run "$SBX" "$hdb" --preset lax -c true
expect "--preset unknown" 1 "" "sbx: --preset: 'lax' is not strict, normal or permissive"
run "$SBX" "$hdb" --timeout
expect "--timeout without a value" 1 "" "sbx: --timeout: a value is needed"
run "$SBX" "$hdb" -c 'echo --timeout 1' --timeout 1
expect "a limit option after the script is an argument" 0 "--timeout 1"
# Out of file descriptors (room for 1 and for 2 more): the open says so; the
# database opens once the descriptors are back.
for n in 4 5; do
  run bash -c 'ulimit -n "$1"; exec "$2" "$3" -c "echo hi"' - "$n" "$SBX" "$t/emfile$n.db"
  expect_match "ulimit -n $n: Too many open files" "$err" "^sbx: open .*/emfile$n\.db: Too many open files"
  [ "$rc" = 1 ] && ok || bad "ulimit -n $n: exit 1" "rc $rc"
  run "$SBX" "$t/emfile$n.db" -c 'echo hi'
  expect "ulimit -n $n: opens with the fds back" 0 "hi"
done
finish
