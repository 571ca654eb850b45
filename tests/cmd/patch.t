# patch (GNU patch 2.7.6)

test: apply a unified diff
cmd: seq 1 10 > a; seq 1 10 | sed 's/5/five/' > b; diff -u a b > p.diff; cp b want; patch < p.diff && cmp a want && echo ok
out: patching file a\nok\n

test: offset
cmd: seq 1 10 > a; seq 1 10 | sed 's/5/five/' > b; diff -u a b > p.diff; (echo 0; echo 00; seq 1 10) > a; patch < p.diff; ls; sed -n 7p a
out: patching file a\nHunk #1 succeeded at 4 (offset 2 lines).\na\na.orig\nb\np.diff\nfive\n

test: fuzz
cmd: seq 1 10 > a; seq 1 10 | sed 's/5/five/' > b; diff -u a b > p.diff; sed -i 's/^2$/two/' a; patch --no-backup-if-mismatch < p.diff; sed -n 5p a
out: patching file a\nHunk #1 succeeded at 2 with fuzz 1.\nfive\n

test: a failing hunk saves rejects
cmd: seq 1 10 > a; seq 1 10 | sed 's/5/five/' > b; diff -u --label a --label b a b > p.diff; sed -i 's/^5$/FIVE/' a; patch < p.diff; echo "rc=$?"; cat a.rej
out: patching file a\nHunk #1 FAILED at 2.\n1 out of 1 hunk FAILED -- saving rejects to file a.rej\nrc=1\n
out: --- a\n+++ b\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n

test: a reversed patch is detected and skipped
cmd: seq 1 5 > a; seq 1 5 | sed 's/3/three/' > b; diff -u a b > p.diff; cp b a; patch -i p.diff < /dev/null; echo "rc=$?"
out: patching file a\nReversed (or previously applied) patch detected!  Assume -R? [n] \nApply anyway? [n] \nSkipping patch.\n1 out of 1 hunk ignored -- saving rejects to file a.rej\nrc=1\n
host: skip
# GNU asks on /dev/tty; sbx has no terminal and prints what GNU prints when the terminal gives no answer.

test: forward skips reversed patches
cmd: seq 1 5 > a; seq 1 5 | sed 's/3/three/' > b; diff -u a b > p.diff; cp b a; patch -N < p.diff; echo "rc=$?"
out: patching file a\nReversed (or previously applied) patch detected!  Skipping patch.\n1 out of 1 hunk ignored -- saving rejects to file a.rej\nrc=1\n

test: reverse with -R
cmd: seq 1 5 > a; seq 1 5 | sed 's/3/three/' > b; diff -u a b > p.diff; cp b c; patch -R c < p.diff; cmp a c && echo ok
out: patching file c\nok\n

test: strip components
cmd: mkdir -p x/src y/src; printf 'a\nb\n' > x/src/f; printf 'a\nB\n' > y/src/f; diff -u x/src/f y/src/f > p.diff; mkdir src; cp x/src/f src/f; patch -p1 < p.diff; cat src/f
out: patching file src/f\na\nB\n

test: create a file from /dev/null
cmd: printf 'new\nfile\n' > n; diff -u /dev/null n > p.diff; rm n; patch < p.diff; cat n
out: patching file n\nnew\nfile\n
status: 0

test: context diff
cmd: printf 'a\nb\nc\nd\n' > a; printf 'a\nB\nc\nd\ne\n' > b; diff -c a b > p.diff; cp b want; patch a < p.diff; cmp a want && echo ok
out: patching file a\nok\n

test: normal diff needs the file name
cmd: printf 'a\nb\nc\n' > a; printf 'a\nB\nc\n' > b; diff a b > p.diff; patch a < p.diff; cat a
out: patching file a\na\nB\nc\n

test: dry run changes nothing
cmd: printf 'a\nb\n' > a; printf 'a\nB\n' > b; diff -u a b > p.diff; patch --dry-run < p.diff; cat a
out: checking file a\na\nb\n

test: several files in one patch
cmd: mkdir o n; printf '1\n' > o/x; printf '2\n' > n/x; printf 'a\n' > o/y; printf 'b\n' > n/y; diff -ru o n > p.diff; mkdir w; cp o/x o/y w/; cd w && patch -p1 < ../p.diff && cat x y
out: patching file x\npatching file y\n2\nb\n

test: no newline at end of file
cmd: printf 'a\nb' > a; printf 'a\nc' > b; diff -u a b > p.diff; patch < p.diff; od -c a | head -1
out: patching file a\n0000000   a  \\n   c\n

test: output to another file
cmd: printf 'a\nb\n' > a; printf 'a\nB\n' > b; diff -u a b > p.diff; patch -o out a < p.diff; cat a out
out: patching file out (read from a)\na\nb\na\nB\n

test: missing patch file
cmd: patch -i nope
out:
err: patch: **** Can't open patch file nope : No such file or directory\n
status: 2

test: garbage only
cmd: echo hello | patch
out:
err: patch: **** Only garbage was found in the patch input.\n
status: 2

# Line numbers at the edge of a long: GNU patch's bounds, no signed overflow.
test: hunk start at the largest line number is malformed
cmd: printf 'a\nb\n' > f; printf -- '--- f\n+++ f\n@@ -9223372036854775807,1 +9223372036854775807,1 @@\n-a\n+c\n' | patch -p0
out: patching file f\n
err: patch: **** malformed patch at line 3: @@ -9223372036854775807,1 +9223372036854775807,1 @@\n\n
status: 2

test: line number too large for a long
cmd: printf 'a\nb\n' > f; printf -- '--- f\n+++ f\n@@ -99999999999999999999,1 +1,1 @@\n-a\n+c\n' | patch -p0; cat f
out: patching file f\na\nb\n
err: patch: **** line number 99999999999999999999 is too large at line 3: @@ -99999999999999999999,1 +1,1 @@\n\n
status: 0

test: line count too large
cmd: printf 'a\nb\n' > f; printf -- '--- f\n+++ f\n@@ -1,9223372036854775807 +1,1 @@\n-a\n+c\n' | patch -p0 --dry-run
out: checking file f\n
err: patch: **** malformed patch at line 3: @@ -1,9223372036854775807 +1,1 @@\n\n
status: 2

test: hunk far past the end applies where its text is
cmd: printf 'a\nb\n' > f; printf -- '--- f\n+++ f\n@@ -9223372036854775800,1 +1,1 @@\n-a\n+c\n' | patch -p0; cat f
out: patching file f\nHunk #1 succeeded at 1 (offset -9223372036854775799 lines).\nc\nb\n

test: files before a malformed hunk are patched
cmd: printf 'a\n' > f; printf 'x\n' > g; printf -- '--- f\n+++ f\n@@ -1 +1 @@\n-a\n+b\n--- g\n+++ g\n@@ -1,1 +1,1 @@\n-x\nbad\n' | patch -p0; cat f g
out: patching file f\npatching file g\nb\nx\n
err: patch: **** malformed patch at line 10: bad\n\n
status: 0

test: patch -R, --dry-run, -N, -r and -p
cmd: mkdir -p a b; printf 'one\ntwo\nthree\n' > a/f; printf 'one\n2\nthree\n' > b/f; diff -u a/f b/f > p.diff; cp a/f f
cmd: patch --dry-run -p1 < p.diff; cat f; patch -p1 < p.diff; cat f; patch -N -p1 < p.diff; echo $?; cat f
cmd: patch -R -p1 < p.diff; cat f; printf 'x\ny\n' > f; patch -p1 -r rej.txt < p.diff; echo $?; cat rej.txt | tail -n +3
out: checking file f\none\ntwo\nthree\npatching file f\none\n2\nthree\npatching file f\nReversed (or previously applied) patch detected!  Skipping patch.\n1 out of 1 hunk ignored -- saving rejects to file f.rej\n1\none\n2\nthree\npatching file f\none\ntwo\nthree\npatching file f\nHunk #1 FAILED at 1.\n1 out of 1 hunk FAILED -- saving rejects to file rej.txt\n1\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n

test: patch -r - discards the rejects
cmd: mkdir -p a b; printf 'one\ntwo\n' > a/f; printf 'one\n2\n' > b/f; diff -u a/f b/f > p.diff; printf 'x\n' > f
cmd: patch -p1 -r - < p.diff; echo $?; ls
out: patching file f\nHunk #1 FAILED at 1.\n1 out of 1 hunk FAILED\n1\na\nb\nf\nf.orig\np.diff\n

test: a file no hunk applies to keeps FILE.orig; a reversed patch skipped keeps none
cmd: printf 'x\n' > g; printf -- '--- g\n+++ g\n@@ -1 +1 @@\n-q\n+r\n' > g.diff; patch -s < g.diff; echo $?
cmd: mkdir -p a b; printf 'one\ntwo\n' > a/f; printf 'one\n2\n' > b/f; diff -u a/f b/f > p.diff; cp b/f f; patch -N -p1 < p.diff; ls
out: 1 out of 1 hunk FAILED -- saving rejects to file g.rej\n1\npatching file f\nReversed (or previously applied) patch detected!  Skipping patch.\n1 out of 1 hunk ignored -- saving rejects to file f.rej\na\nb\nf\nf.rej\ng\ng.diff\ng.orig\ng.rej\np.diff\n

test: long options abbreviated, -f implies --forward, a bad option is status 2
cmd: seq 1 3 > a; seq 1 3 | sed 's/2/two/' > b; diff -u a b > p.diff; mkdir d; cp a d/a
cmd: patch --dry --inp=p.diff; cat a | tr '\n' ' '; echo; patch --quie --dir=d --no-backup < p.diff; cat d/a | tr '\n' ' '; echo
cmd: patch -f --rev --sil d/a p.diff; cat d/a | tr '\n' ' '; echo; patch -y 2>/dev/null; echo $?
out: checking file a\n1 2 3 \n1 two 3 \n1 2 3 \n2\n
