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
