# column (util-linux 2.38): lists and tables.

test: table
cmd: column -t input
in: a b c\nlonger x y\nz\n
out: a       b  c\nlonger  x  y\nz          \n

test: table separator keeps empty cells
cmd: column -t -s : input
in: a:b:c\nxx:y:\n
out: a   b  c\nxx  y  \n

test: table empty middle cell
cmd: column -t -s , input
in: a,,b\n
out: a    b\n

test: table output separator
cmd: column -t -o ' | ' input
in: a b c\nlonger x y\nz\n
out: a      | b | c\nlonger | x | y\nz      |   | \n

test: table right alignment
cmd: column -t -R 2 input
in: 1 22 333\n4444 5 6\n
out: 1     22  333\n4444   5  6\n

test: table right alignment by name
cmd: column -t -N A,B,C -R B input
in: 1 22 333\n4444 5 6\n
out: A      B  C\n1     22  333\n4444   5  6\n

test: table header
cmd: column -t -N A,B,C input
in: a b c\nlonger x y\nz\n
out: A       B  C\na       b  c\nlonger  x  y\nz          \n

test: table header wider than data
cmd: column -t -N x,y,z input
in: a b\n
out: x  y  z\na  b  \n

test: table hide column
cmd: column -t -s: -H 2 input
in: a:b:c\nxx:y:\n
out: a   c\nxx  \n

test: table no headings
cmd: column -t -d -N a,b input
in: a b c\n
out: a  b  c\n

test: table empty lines skipped
cmd: column -t input
in: a  b\n\nc d\n
out: a  b\nc  d\n

test: table keep empty lines
cmd: column -t -s, -L input
in: a,b\n\nc,d\n
out: a  b\n   \nc  d\n

test: table leading blanks and tabs
cmd: column -t input | cat -A
in: a\tb  \n c d\n
out: a  b$\nc  d$\n

test: table wide characters
cmd: column -t input
in: \xc3\xa9 b\nxy c\n
out: é   b\nxy  c\n

test: list down columns
cmd: seq 30 | column -c 40
out: 1\t7\t13\t19\t25\n2\t8\t14\t20\t26\n3\t9\t15\t21\t27\n4\t10\t16\t22\t28\n
out: 5\t11\t17\t23\t29\n6\t12\t18\t24\t30\n

test: list across rows
cmd: seq 30 | column -x -c 40
out: 1\t2\t3\t4\t5\n6\t7\t8\t9\t10\n11\t12\t13\t14\t15\n16\t17\t18\t19\t20\n
out: 21\t22\t23\t24\t25\n26\t27\t28\t29\t30\n

test: list fits one row
cmd: seq 5 | column
out: 1\t2\t3\t4\t5\n

test: list default width
cmd: seq 30 | column
out: 1\t4\t7\t10\t13\t16\t19\t22\t25\t28\n2\t5\t8\t11\t14\t17\t20\t23\t26\t29\n
out: 3\t6\t9\t12\t15\t18\t21\t24\t27\t30\n

test: list from COLUMNS
cmd: seq 20 | COLUMNS=30 column
out: 1\t8\t15\n2\t9\t16\n3\t10\t17\n4\t11\t18\n5\t12\t19\n6\t13\t20\n7\t14\n

test: list entry wider than width
cmd: column -c 10 input
in: aaaaaaaaaaaa\nb\n
out: aaaaaaaaaaaa\nb\n

test: list keeps trailing blanks and skips empty lines
cmd: column input | cat -A
in: one\ntwo  \n\nthree\n
out: one^Itwo  ^Ithree$\n

test: empty input
cmd: column < /dev/null; echo "rc=$?"
out: rc=0\n

test: missing file
cmd: column nope; echo "rc=$?"
out: rc=1\n
err: column: nope: No such file or directory\n

# ---- audit4: GNU-identical error messages and quoting ----
test: audit: mkdir dd; column dd; echo $?
cmd: mkdir dd; column dd; echo $?
out: 1\n
err: column: read failed: Is a directory\n

test: audit: printf 'a b\n' > f; column -t f nope 'x y'; echo $?
cmd: printf 'a b\n' > f; column -t f nope 'x y'; echo $?
out: a  b\n0\n
err: column: nope: No such file or directory\ncolumn: x y: No such file or directory\n

test: audit: printf 'a b\n' > f; column f 'x y'; echo $?
cmd: printf 'a b\n' > f; column f 'x y'; echo $?
out: a b\n1\n
err: column: x y: No such file or directory\n

test: audit: column -t nope; echo $?
cmd: column -t nope; echo $?
out: 1\n
err: column: nope: No such file or directory\n


# -J / --json (with -N names; -n names the table)
test: json table
cmd: printf 'a 1 x\nbb "q" 22\n\\t\n' | column -t -J -N A,B,C
out: {\n   "table": [\n      {\n         "a": "a",\n         "b": "1",\n         "c": "x"\n      },{\n
out:          "a": "bb",\n         "b": "\\"q\\"",\n         "c": "22"\n      },{\n
out:          "a": "\\\\t",\n         "b": null,\n         "c": null\n      }\n   ]\n}\n

test: json table name
cmd: printf 'a 1\n' | column -J -n Tab -N name,val
out: {\n   "tab": [\n      {\n         "name": "a",\n         "val": "1"\n      }\n   ]\n}\n

test: json empty cells and escapes
cmd: printf 'a\tb\\\x7f"\x01\r:\n' | column -J -s : -N 'Q"x',B,É
out: {\n   "table": [\n      {\n         "q\\"x": "a\\tb\\\\\x7f\\"\\u0001\\r",\n         "b": null,\n         "É": null\n      }\n   ]\n}\n

test: json empty lines and hidden columns
cmd: printf 'a 1\n\nb 2\n' | column -J -N A,B -L -H A
out: {\n   "table": [\n      {\n         "b": "1"\n      },{\n         "b": null\n      },{\n         "b": "2"\n      }\n   ]\n}\n

test: json empty input
cmd: printf '' | column -J -N A
out:

test: json needs names
cmd: printf 'a 1\n' | column -J
out:
err: column: option --table-columns required for --json\n
status: 1

test: json needs a name for every column
cmd: printf 'a 1\nb 1 x\n' | column -J -N A,B
out:
err: column: line 3: for JSON the name of the column 3 is required\n
status: 1

# -O, -l, -e, -r/-i/-p
test: order numbers
cmd: column -t -O 3,1 input
file: input=a b c d\n1 2 3 4 5\nxx yy\n
out: c  a   b   d  \n3  1   2   4  5\n   xx  yy     \n
err:

test: order names
cmd: column -t -N A,B,C,D -O C,A input
file: input=a b c d\n1 2 3 4 5\nxx yy\n
out: C  A   B   D  \nc  a   b   d  \n3  1   2   4  5\n   xx  yy     \n
err:

test: order with hidden column
cmd: column -t -N A,B,C,D -O C,A -H A input
file: input=a b c d\n1 2 3 4 5\nxx yy\n
out: C  B   D  \nc  b   d  \n3  2   4  5\n   yy     \n
err:

test: order out of range ignored
cmd: column -t -O 9,2 input
file: input=a b c d\n1 2 3 4 5\nxx yy\n
out: b   a   c  d  \n2   1   3  4  5\nyy  xx        \n
err:

test: order with right alignment
cmd: column -t -O 2 -R 1 input
file: input=a b c d\n1 2 3 4 5\nxx yy\n
out: b    a  c  d  \n2    1  3  4  5\nyy  xx        \n
err:

test: columns limit 2
cmd: column -t -l 2 input
file: input=a b c d\n1 2 3 4 5\nxx yy\n
out: a   b c d\n1   2 3 4 5\nxx  yy\n
err:

test: columns limit with separator
cmd: column -t -l 3 -s ' ' input
file: input=a b c d\n1 2 3 4 5\nxx yy\n
out: a   b   c d\n1   2   3 4 5\nxx  yy  \n
err:

test: columns limit long option
cmd: column -t -s : --table-columns-limit=2 input
file: input=a:b:c:d\n1:2:3:4:5\n
out: a  b:c:d\n1  2:3:4:5\n
err:

test: columns limit zero
cmd: column -t -l 0 input
out:
err: column: columns limit must be greater than zero\n
status: 1

test: columns limit not a number
cmd: column -t -l x input
out:
err: column: invalid columns limit argument: 'x'\n
status: 1

test: header repeat off a terminal
cmd: column -t -e -N A,B,C,D input
file: input=a b c d\n1 2 3 4 5\nxx yy\n
out: A   B   C  D  \na   b   c  d  \n1   2   3  4  5\nxx  yy        \n
err:

test: tree
cmd: column -t -N ID,PARENT,NAME -r NAME -i ID -p PARENT input
file: input=1 0 root\n2 1 child\n3 1 child2\n4 2 grand\n5 9 other\n6 5 o1\n7 3 g2\n8 4 ggg\n
out: ID  PARENT  NAME\n1   0       root\n2   1       \xe2\x94\x9c\xe2\x94\x80child\n4   2       \xe2\x94\x82 \xe2\x94\x94\xe2\x94\x80grand\n8   4       \xe2\x94\x82   \xe2\x94\x94\xe2\x94\x80ggg\n3   1       \xe2\x94\x94\xe2\x94\x80child2\n7   3         \xe2\x94\x94\xe2\x94\x80g2\n5   9       other\n6   5       \xe2\x94\x94\xe2\x94\x80o1\n
err:

test: tree with order
cmd: column -t -N ID,PARENT,NAME -r NAME -i ID -p PARENT -O NAME,ID input
file: input=1 0 root\n2 1 child\n3 1 child2\n4 2 grand\n5 9 other\n6 5 o1\n7 3 g2\n8 4 ggg\n
out: NAME       ID  PARENT\nroot       1   0\n\xe2\x94\x9c\xe2\x94\x80child    2   1\n\xe2\x94\x82 \xe2\x94\x94\xe2\x94\x80grand  4   2\n\xe2\x94\x82   \xe2\x94\x94\xe2\x94\x80ggg  8   4\n\xe2\x94\x94\xe2\x94\x80child2   3   1\n  \xe2\x94\x94\xe2\x94\x80g2     7   3\nother      5   9\n\xe2\x94\x94\xe2\x94\x80o1       6   5\n
err:

test: tree long options and extra column
cmd: column -t -N ID,PARENT,NAME,X --tree NAME --tree-id ID --tree-parent PARENT input
file: input=1 0 root\n2 1 child\n3 1 child2\n4 2 grand\n
out: ID  PARENT  NAME       X\n1   0       root       \n2   1       \xe2\x94\x9c\xe2\x94\x80child    \n4   2       \xe2\x94\x82 \xe2\x94\x94\xe2\x94\x80grand  \n3   1       \xe2\x94\x94\xe2\x94\x80child2   \n
err:

test: tree needs id and parent
cmd: column -t -N ID,PARENT,NAME -r NAME input
file: input=1 0 root\n2 1 child\n
out:
err: column: options --tree-id and --tree-parent are required for tree formatting\n
status: 1

test: tree undefined column
cmd: column -t -r NAME -i ID -p PARENT input
file: input=1 0 root\n2 1 child\n
out:
err: column: undefined column name 'NAME'\n
status: 1

test: tree duplicate ids
cmd: column -t -N ID,PARENT,NAME -r NAME -i ID -p PARENT input
file: input=1 0 a\n1 0 b\n2 1 c\n
out: ID  PARENT  NAME\n1   0       a\n1   0       b\n2   1       \xe2\x94\x94\xe2\x94\x80c\n
err:


test: lines of white space are skipped, leading blanks of others kept
cmd: printf ' \n\t\na\n  \n b\n' | column; printf 'a b\n  \n,\nc d\n' | column -t -s' ,'; printf '10:B\n \nk:1\n' | column -c 30 -s,
out: a\t b\na  b\n   \nc  d\n10:B\tk:1\n

test: --table and --fillrows are exclusive
cmd: column -t -x /dev/null; echo $?; column -J -x /dev/null; echo $?
out: 1\n1\n
err: column: mutually exclusive arguments: --table --fillrows\ncolumn: mutually exclusive arguments: --json --fillrows\n

test: a table of no lines prints no header
cmd: printf '' | column -t -N a,b; printf '\n \n' | column -t -s: -N a,b; echo $?
out: 0\n

test: a missing last cell of a right-aligned column is not padded
cmd: printf 'a:1:2\nbb:3\nc\n' | column -t -s: -R 3 -o '|'; printf 'a:1:2\nbb\n' | column -t -s: -R 2 -o '|'
out: a |1|2\nbb|3|\nc | |\na |1|2\nbb| |\n

test: -x with an entry wider than the width once rounded to a tab stop keeps one line (util-linux)
cmd: printf 'aaaaaaaaaaaaaaaaaaaaaaaa\nb\nc\n' | column -c 30 -x; printf 'aaaaaaaaaaaaaaaaaaaaaaaa\nb\nc\n' | column -c 30
out: aaaaaaaaaaaaaaaaaaaaaaaa\tb\t\t\t\tc\naaaaaaaaaaaaaaaaaaaaaaaa\nb\nc\n

test: ambiguous prefixes list the long options in order
cmd: column --table-c; column --o
out:
err: column: option '--table-c' is ambiguous; possibilities: '--table-columns' '--table-columns-limit'\nTry 'column --help' for more information.\n
err: column: option '--o' is ambiguous; possibilities: '--output-separator' '--output-width'\nTry 'column --help' for more information.\n
status: 1

test: abbreviated long options with arguments
cmd: printf 'a b\nc d\n' | column --table --table-columns=X,Y --output-sep=:
out: X:Y\na:b\nc:d\n

test: a bad -c is reported before a later bad option
cmd: column -c x --bogus
out:
err: column: invalid columns argument: 'x'\n
status: 1
