# sqlite3 (SQLite 3.40 shell). The database lives in the sandbox.

test: create, insert, select in list mode
cmd: sqlite3 t.db "create table t(a,b); insert into t values(1,'x'),(2,NULL);" "select * from t"
out: 1|x\n2|\n

test: the database persists between invocations
cmd: sqlite3 t.db "create table t(a)"; sqlite3 t.db "insert into t values(42)"; sqlite3 t.db "select a from t"
out: 42\n

test: csv with header
cmd: sqlite3 -csv -header t.db "create table t(a,b); insert into t values(1,'a,b'),(2,'q\"');" "select * from t"
out: a,b\n1,"a,b"\n2,"q"""\n

test: json
cmd: sqlite3 -json t.db "select 1 as a, 'x' as b, null as c, 2.5 as d"
out: [{"a":1,"b":"x","c":null,"d":2.5}]\n

test: line
cmd: sqlite3 -line t.db "select 1 as longname, 2 as b"
out: longname = 1\n       b = 2\n

test: column
cmd: sqlite3 -column -header t.db "select 1 as a, 'hello' as bb union all select 22, 'x'"
out: a   bb   \n--  -----\n1   hello\n22  x    \n

test: table
cmd: sqlite3 -table t.db "select 1 as a, 'hello' as bb"
out: +---+-------+\n| a |  bb   |\n+---+-------+\n| 1 | hello |\n+---+-------+\n

test: box
cmd: sqlite3 -box t.db "select 1 as a"
out: ┌───┐\n│ a │\n├───┤\n│ 1 │\n└───┘\n

test: markdown
cmd: sqlite3 -markdown t.db "select 1 as a, 'xy' as b"
out: | a | b  |\n|---|----|\n| 1 | xy |\n

test: quote mode
cmd: sqlite3 -quote t.db "select 1, 'it''s', null, x'00ff'"
out: 1,'it''s',NULL,X'00ff'\n

test: separator and nullvalue
cmd: sqlite3 -separator ';' -nullvalue NULL t.db "select 1, null, 'a'"
out: 1;NULL;a\n

test: sql from stdin with dot commands
cmd: sqlite3 t.db
stdin: create table t(a);\ninsert into t values (1);\ninsert into t\n  values (2);\n.headers on\n.mode csv\nselect * from t;\n
out: a\r\n1\r\n2\r\n

test: tables and schema
cmd: sqlite3 t.db 'create table zzz(a); create table abc(b); create table "q q"(c);' .tables .schema
out: abc  q q  zzz\nCREATE TABLE zzz(a);\nCREATE TABLE abc(b);\nCREATE TABLE IF NOT EXISTS "q q"(c);\n

test: import csv
cmd: sqlite3 t.db ".import --csv input imp" "select b from imp where a = '3'" ".schema imp"
in: a,b\n1,2\n3,4\n
out: 4\nCREATE TABLE IF NOT EXISTS "imp"(\n"a" TEXT, "b" TEXT);\n

test: import stops at a table it cannot create
cmd: sqlite3 t.db ".import --csv input imp"; echo $?
in: a,a\n1,2\n
out: 1\n
err: Error: duplicate column name: a\n
# sqlite3 3.40 renames duplicate header columns (a_1, a_2) instead
host: skip

test: read a script file
cmd: printf 'create table t(a);\ninsert into t values(7);\nselect a*6 from t;\n' > s.sql; sqlite3 t.db ".read s.sql"
out: 42\n

test: output to a file
cmd: sqlite3 t.db ".output o.txt" "select 'in file'" ".output stdout" "select 'on stdout'"; cat o.txt
out: on stdout\nin file\n

test: prepare error from an argument
cmd: sqlite3 t.db "select * from nope"
out:
err: Error: in prepare, no such table: nope\n
status: 1

test: parse error from input keeps going
cmd: sqlite3 t.db
stdin: select * from nope;\nselect 2;\n
out: 2\n
err: Parse error near line 1: no such table: nope\n
status: 1

test: error context
cmd: sqlite3 t.db "create table t(x)"; sqlite3 t.db "create table t(x)"
out:
err: Error: in prepare, table t already exists\n  create table t(x)\n               ^--- error here\n
status: 1

test: unknown dot command
cmd: sqlite3 t.db .foo
out:
err: Error: unknown command or invalid arguments:  "foo". Enter ".help" for help\n
status: 1

test: readonly refuses writes
cmd: sqlite3 t.db "create table t(a)"; sqlite3 -readonly t.db "insert into t values(1)"
out:
err: Error: stepping, attempt to write a readonly database (8)\n
status: 8

test: in-memory database without a file
cmd: sqlite3 :memory: "select 6*7"
out: 42\n

test: dump
cmd: sqlite3 t.db "create table t(a,b); insert into t values(1,'x');" .dump
out: PRAGMA foreign_keys=OFF;\nBEGIN TRANSACTION;\nCREATE TABLE t(a,b);\nINSERT INTO t VALUES(1,'x');\nCOMMIT;\n

# The authorizer: libsqlite3's process-wide settings are out of reach (the
# host's sqlite3 has no authorizer, hence host: skip on the refusals).
test: per-connection pragmas allowed
cmd: sqlite3 t.db "pragma user_version=7; pragma foreign_keys=on; create table t(a integer primary key, b)" "pragma user_version" "pragma foreign_keys" "select name, type from pragma_table_info('t')"
out: 7\n1\na|INTEGER\nb|\n

test: heap limit pragma refused
# sandbox-only: PRAGMA hard_heap_limit would limit every sandbox of the process
host: skip
cmd: sqlite3 :memory: "PRAGMA hard_heap_limit=200000"; echo $?; sqlite3 :memory: "pragma soft_heap_limit=1"; echo $?; sqlite3 :memory: "select 1"
out: 1\n1\n1\n
err: Error: in prepare, not authorized\nError: in prepare, not authorized\n

test: temp_store_directory refused
# sandbox-only: the pragma sets a global and can leave SQLite's VFS mutex held
host: skip
cmd: sqlite3 :memory: 'PRAGMA temp_store_directory="/data"'
out:
err: Error: in prepare, not authorized\n
status: 1

test: pragma table-valued function refused
# sandbox-only: the same pragma reached through its virtual table
host: skip
cmd: sqlite3 :memory: "select * from pragma_hard_heap_limit"
out:
err: Error: stepping, not authorized (23)\n
status: 23

test: unknown and thread pragmas refused
# sandbox-only: sqlite3 ignores unknown pragmas; the allow list refuses them
host: skip
cmd: sqlite3 :memory: "pragma threads=4"; sqlite3 :memory: "pragma no_such_pragma"
out:
err: Error: in prepare, not authorized\nError: in prepare, not authorized\n
status: 1

test: load_extension and fts3_tokenizer refused
# sandbox-only: host code and raw function pointers
host: skip
cmd: sqlite3 :memory: "select load_extension('/lib/x.so')"; sqlite3 :memory: "select fts3_tokenizer('simple')"
out:
err: Error: in prepare, not authorized to use function: load_extension\n
err:   select load_extension('/lib/x.so')\n         ^--- error here\n
err: Error: in prepare, not authorized to use function: fts3_tokenizer\n
err:   select fts3_tokenizer('simple')\n         ^--- error here\n
status: 1

test: vacuum and attach of files in the sandbox
cmd: sqlite3 a.db "create table t(x); insert into t values(7); pragma page_size=8192; vacuum" "pragma page_size" "vacuum into 'b.db'"; sqlite3 :memory: "attach 'b.db' as b; select x from b.t"
out: 8192\n7\n

test: attach of a URI refused
# sandbox-only: an attached URI could name the host's VFS
host: skip
cmd: sqlite3 :memory: "attach 'file:/x.db?vfs=unix' as x"; sqlite3 :memory: "attach 'fi' || 'le:/x.db?vfs=unix' as x"; sqlite3 :memory: "vacuum into 'fi' || 'le:/x.db?vfs=unix'"; echo $?
out: 23\n
err: Error: in prepare, not authorized\nError: in prepare, not authorized\nError: stepping, authorization denied (23)\n

test: a file: name is a path in the sandbox, never a URI
# sandbox-only: the host's sqlite3 opens URIs (vfs=unix reaches host files)
host: skip
cmd: sqlite3 'file:x.db' "create table t(a); insert into t values(5)"; ls; sqlite3 'file:/etc/hostname?vfs=unix' "select 1"
out: file:x.db\n
err: Error: unable to open database "file:/etc/hostname?vfs=unix": unable to open database file\n
status: 1
