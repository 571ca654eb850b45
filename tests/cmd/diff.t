# diff (GNU diffutils 3.8). Hunk placement is also checked against the host's
# diff on random inputs by tests/cmd/diff_differential.py.

test: normal format
cmd: printf 'a\nb\nc\nd\ne\n' > x; printf 'a\nB\nc\ne\nf\n' > y; diff x y
out: 2c2\n< b\n---\n> B\n4d3\n< d\n5a5\n> f\n
status: 1

test: identical files
cmd: printf 'a\n' > x; cp x y; diff x y && echo same
out: same\n

test: unified with labels
cmd: printf 'a\nb\nc\n' > x; printf 'a\nc\n' > y; diff -u --label old --label new x y
out: --- old\n+++ new\n@@ -1,3 +1,2 @@\n a\n-b\n c\n
status: 1

test: unified header times
cmd: printf 'a\n' > x; printf 'b\n' > y; touch -d '2020-01-02 03:04:05' x y; diff -u x y | head -2
out: --- x\t2020-01-02 03:04:05.000000000 +0000\n+++ y\t2020-01-02 03:04:05.000000000 +0000\n

test: context format
cmd: printf 'a\nb\nc\n' > x; printf 'a\nB\nc\nd\n' > y; diff -c --label x --label y x y
out: *** x\n--- y\n***************\n*** 1,3 ****\n  a\n! b\n  c\n--- 1,4 ----\n  a\n! B\n  c\n+ d\n
status: 1

test: unified context size
cmd: seq 1 20 > x; seq 1 20 | sed 's/^10$/ten/' > y; diff -U1 --label x --label y x y
out: --- x\n+++ y\n@@ -9,3 +9,3 @@\n 9\n-10\n+ten\n 11\n
status: 1

test: missing newline at end of file
cmd: printf 'a' > x; printf 'b' > y; diff x y
out: 1c1\n< a\n\\ No newline at end of file\n---\n> b\n\\ No newline at end of file\n
status: 1

test: brief
cmd: printf 'a\n' > x; printf 'b\n' > y; diff -q x y
out: Files x and y differ\n
status: 1

test: ignore case and white space
cmd: printf 'Hello  World\n' > x; printf 'hello world\n' > y; diff -i -b x y && echo same; diff -w x y; echo "rc=$?"
out: same\n1c1\n< Hello  World\n---\n> hello world\nrc=1\n

test: ignore blank lines
cmd: printf 'a\n\nb\n' > x; printf 'a\nb\n\n' > y; diff -B x y && echo same
out: same\n

test: binary files
cmd: printf 'a\0b' > x; printf 'a\0c' > y; diff x y
out: Binary files x and y differ\n
status: 1

test: missing file
cmd: diff nope input
in: x\n
out:
err: diff: nope: No such file or directory\n
status: 2

test: directories without -r
cmd: mkdir d1 d2 d1/sub d2/sub; echo 1 > d1/f; echo 2 > d2/f; echo 3 > d1/only; diff d1 d2
out: diff d1/f d2/f\n1c1\n< 1\n---\n> 2\nOnly in d1: only\nCommon subdirectories: d1/sub and d2/sub\n
status: 1

test: recursive directories
cmd: mkdir -p d1/s d2/s; echo 1 > d1/s/f; echo 2 > d2/s/f; echo x > d2/new; diff -r d1 d2
out: Only in d2: new\ndiff -r d1/s/f d2/s/f\n1c1\n< 1\n---\n> 2\n
status: 1

test: new files with -N
cmd: mkdir d1 d2; echo x > d2/new; diff -rN --label a --label b d1 d2; echo "rc=$?"
out: diff -rN --label a --label b a b\n0a1\n> x\nrc=1\n

test: file against a directory
cmd: mkdir d; echo 1 > d/f; echo 2 > f; diff f d
out: 1c1\n< 2\n---\n> 1\n
status: 1

test: stdin
cmd: printf 'a\n' > x; printf 'b\n' | diff x -
out: 1c1\n< a\n---\n> b\n
status: 1

test: extra operand
cmd: diff a b c
out:
err: diff: extra operand 'c'\ndiff: Try 'diff --help' for more information.\n
status: 2

# -NUM with a huge number overflowed an int (UBSan; found by tests/cmd/crashhunt.py)
test: huge -NUM context saturates
cmd: diff -99999999999999999999 a b; echo $?; diff -9223372036854775808 -u a b | tail -n +3
file: a=1\n2\n
file: b=1\n3\n
out: 2c2\n< 2\n---\n> 3\n1\n@@ -1,2 +1,2 @@\n 1\n-2\n+3\n

test: -L names the files in the header
cmd: printf 'a\n' > d1; printf 'b\n' > d2; diff -u -L x -L y d1 d2; diff -c -Lold --label=new d1 d2 | head -2
out: --- x\n+++ y\n@@ -1 +1 @@\n-a\n+b\n*** old\n--- new\n
status: 0

# ---- -F / -p: the function line in hunk headers

test: -p shows the enclosing C function (and implies -c)
cmd: printf 'int main() {\n  a;\n  b;\n  c;\n  d;\n}\nstatic void foo(void)\n{\n  x;\n  y;\n  z;\n}\n' > c1; sed 's/y;/Y;/; s/b;/B;/' c1 > c2
cmd: diff -p -C1 -L a -L b c1 c2
out: *** a\n--- b\n*************** int main() {\n*** 2,4 ****\n    a;\n!   b;\n    c;\n--- 2,4 ----\n    a;\n!   B;\n    c;\n
out: *************** static void foo(void)\n*** 9,11 ****\n    x;\n!   y;\n    z;\n--- 9,11 ----\n    x;\n!   Y;\n    z;\n
status: 1

test: -F with unified output, several expressions, 40-byte names
cmd: printf 'fn  a_very_long_function_name_that_goes_on_and_on(int x)   \n1\n2\n3\n4\n5\nclass K\n6\n7\n8\n' > l1; sed 's/5/X/; s/8/Y/' l1 > l2
cmd: diff -U1 -F '^fn' --show-function-line='^class' l1 l2 | grep '^@@'; diff -F x l1 l2 | head -1
out: @@ -5,3 +5,3 @@ fn  a_very_long_function_name_that_goes_\n@@ -9,2 +9,2 @@ class K\n6c6\n

test: -F with a bad expression
cmd: diff -F 'a\(' /dev/null /dev/null
out:
status: 2

# ---- GNU's line and group formats

test: line formats with line numbers
cmd: printf 'a\nb\nc\n' > x; printf 'a\nB\nc\nd\n' > y
cmd: diff --old-line-format='-%dn %l
cmd: ' --new-line-format='+%3dn|%L' --unchanged-line-format='=%-3dn=%L' x y
out: =1  =a\n-2 b\n+  2|B\n=3  =c\n+  4|d\n
status: 1

test: group formats with line numbers, conditionals and characters
cmd: printf 'a\nb\nc\nd\n' > x; printf 'a\nB\nc\nd\ne\nf\n' > y
cmd: diff --changed-group-format='C %df-%dl %dF,%dN %(N=1?one:many) %c'"'"':'"'"'
cmd: %<%>' --unchanged-group-format='U %de..%dm
cmd: ' --new-group-format='N %dE %(N=2?two %dN:other) %xM %c'"'"'\101'"'"'
cmd: %>' x y
out: U 0..2\nC 2-2 2,1 one :\nb\nB\nU 2..5\nN 4 two 2 7 A\ne\nf\n
status: 1

test: identical files still print with formats
cmd: printf 'a\nb\n' > x; cp x y; diff --unchanged-group-format='[%=]' --line-format='<%l>' x y; echo " $?"
out: [<a><b>] 0\n

test: unknown directives and percent signs are printed as is
cmd: printf 'a\n' > x; printf 'b\n' > y; diff --line-format='%q %% %L' x y
out: %q % a\n%q % b\n
status: 1

test: a missing final newline under %L and %l
cmd: printf 'a\nb' > x; printf 'a\nc' > y; diff --old-line-format='<%L' --new-line-format='>%L' --unchanged-line-format='=%l\n' x y; echo; diff x y --line-format='%l|'
out: =a\\n<b>c\na|b|c|
status: 1

test: -D makes C preprocessor output
cmd: printf 'a\nb\nc\n' > x; printf 'a\nB\nc\nd\n' > y; diff -D FOO x y
out: a\n#ifndef FOO\nb\n#else /* FOO */\nB\n#endif /* FOO */\nc\n#ifdef FOO\nd\n#endif /* FOO */\n
status: 1

# sbx: at most 16 -F expressions (DIFF_MAX_FUNC_RE)
test: the -F limit
cmd: a=; for i in $(seq 17); do a="$a -F x$i"; done; diff $a /dev/null /dev/null; echo $?
out: 2\n
err: diff: too many -F expressions (limit 16)\n
host: skip

# ---- -y: side by side

test: side by side, with width, suppressed common lines and the left column
cmd: printf 'a\nb\nc\nd\n' > x; printf 'a\nB\nc\ne\nf\n' > y; diff -y x y; diff -y -W 40 --suppress-common-lines x y; diff -y -W 30 --left-column x y
out: a\t\t\t\t\t\t\t\ta\nb\t\t\t\t\t\t\t      |\tB\nc\t\t\t\t\t\t\t\tc\nd\t\t\t\t\t\t\t      |\te\n\t\t\t\t\t\t\t      >\tf\n
out: b\t\t   |\tB\nd\t\t   |\te\n\t\t   >\tf\n
out: a\t      (\nb\t      |\tB\nc\t      (\nd\t      |\te\n\t      >\tf\n
status: 1

test: side by side: tabs, -t, a missing final newline, identical files
cmd: printf 'x\ty\n' > t1; printf 'x\tz\n' > t2; diff -y -W 30 t1 t2; diff -y -t -W 30 t1 t2; printf 'a' > n1; printf 'b' > n2; diff -y -W 20 n1 n2; echo; diff -y -W 20 t1 t1; echo $?
out: x\ty     |\tx\tz\nx       y     |  x       z\na     |\tb\nx\tx\n0\n

test: -I ignores changes whose lines all match
cmd: printf 'a\n# v1\nb\nc\n' > x; printf 'a\n# v2\nb\nC\n' > y; diff -I '^#' x y; echo $?; printf 'a\n# v1\n' > x1; printf 'a\n# v2\n' > y1; diff -I '^#' x1 y1; echo $?; diff --ignore-matching-lines='v[0-9]' -I '^[cC]$' x y; echo $?
out: 4c4\n< c\n---\n> C\n1\n0\n0\n

test: -Z ignores white space at line ends, and a missing last newline
cmd: printf 'a \nb\n c\n' > o; printf 'a\nb  \nc\n' > n; diff -Z o n; echo $?; diff --ignore-trailing-space -u o n | tail -n +3
cmd: printf 'a' > x; printf 'a \n' > y; diff -Z x y; echo $?; diff -Zq o n; echo $?; diff -Z -c o n | tail -n +3
out: 3c3\n<  c\n---\n> c\n1\n@@ -1,3 +1,3 @@\n a \n b\n- c\n+c\n0\nFiles o and n differ\n1\n***************\n*** 1,3 ****\n  a \n  b\n!  c\n--- 1,3 ----\n  a\n  b  \n! c\n

test: -u/-c print a change -B or -I ignores when it sits in a real change's hunk (GNU's find_hunk)
cmd: printf '1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n' > o2; printf '1\n2x\n3\n\n4\n5\n6\n7\n8\n9\n10\n' > n2
cmd: printf 'x1\nfoo\nx3\nx4\n' > o3; printf 'x1\nbar\nx3\nX4\n' > n3
cmd: printf '1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n' > o4; printf '1\n\n2\n3\n4\n5x\n6\n7\n8\n\n9\n10\n11\n12\n\n' > n4
cmd: diff -B -u o2 n2 | tail -n +3; diff -I foo -I bar -u o3 n3 | tail -n +3; diff -I x -c o3 n3 | tail -n +3
cmd: diff -B -U2 o4 n4 | tail -n +3; diff -B -U1 o4 n4 | tail -n +3; echo $?
out: @@ -1,6 +1,7 @@\n 1\n-2\n+2x\n 3\n+\n 4\n 5\n 6\n
out: @@ -1,4 +1,4 @@\n x1\n-foo\n+bar\n x3\n-x4\n+X4\n
out: ***************\n*** 1,4 ****\n  x1\n! foo\n  x3\n! x4\n--- 1,4 ----\n  x1\n! bar\n  x3\n! X4\n
out: @@ -1,7 +1,8 @@\n 1\n+\n 2\n 3\n 4\n-5\n+5x\n 6\n 7\n
out: @@ -4,3 +5,3 @@\n 4\n-5\n+5x\n 6\n0\n

test: -T ends each line's prefix with a TAB (normal, unified, context)
cmd: printf 'a\nb\nc\n' > o; printf 'a\nB\nc\n' > n; diff -T o n; diff -T -u o n | tail -n +3; diff --initial-tab -c o n | tail -n +3
out: 2c2\n<\tb\n---\n>\tB\n@@ -1,3 +1,3 @@\n\ta\n-\tb\n+\tB\n\tc\n***************\n*** 1,3 ****\n \ta\n!\tb\n \tc\n--- 1,3 ----\n \ta\n!\tB\n \tc\n

test: abbreviated long options, long-only ones with arguments
cmd: printf 'a\nb\n' > x; printf 'a\nc\n' > y; diff --unif=0 --la=X --lab Y x y; diff --old-line='-%L' --new-line='+%L' --unchanged-l='' x y
out: --- X\n+++ Y\n@@ -2 +2 @@\n-b\n+c\n-b\n+c\n
status: 1

test: a bad width is reported before a later bad option
cmd: diff -W x --bogus a b
out:
err: diff: invalid width 'x'\ndiff: Try 'diff --help' for more information.\n
status: 2
