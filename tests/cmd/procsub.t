# Every table command that takes a file operand reads a process substitution
# (/dev/fd/N) and /dev/stdin: they are the shell's descriptors, not store paths.

test: awk awk '{print}' <(printf 'a\n')
cmd: awk '{print}' <(printf 'a\n')
out: a\n

test: b2sum b2sum <(printf 'a\n')
cmd: b2sum <(printf 'a\n')
out: bedfbb90d858c2d67b7ee8f7523be3d3b54004ef9e4f02f2ad79a1d05bfdfe49b81e3c92ebf99b504102b6bf003fa342587f5b3124c205f55204e8c4b4ce7d7c  /dev/fd/63\n

test: base32 base32 <(printf 'a\n')
cmd: base32 <(printf 'a\n')
out: MEFA====\n

test: base64 base64 <(printf 'a\n')
cmd: base64 <(printf 'a\n')
out: YQo=\n

test: bzip2 bzip2 -c <(printf 'a\n') | bzcat
cmd: bzip2 -c <(printf 'a\n') | bzcat
out: a\n

test: bzcat bzcat <(printf 'a\n' | bzip2)
cmd: bzcat <(printf 'a\n' | bzip2)
out: a\n

test: bunzip2 bunzip2 -c <(printf 'a\n' | bzip2)
cmd: bunzip2 -c <(printf 'a\n' | bzip2)
out: a\n

test: cat cat <(printf 'a\n')
cmd: cat <(printf 'a\n')
out: a\n

test: cksum cksum <(printf 'a\n')
cmd: cksum <(printf 'a\n')
out: 2418082923 2 /dev/fd/63\n

test: column column -t <(printf 'a b\n')
cmd: column -t <(printf 'a b\n')
out: a  b\n

test: comm comm <(printf 'a\n') <(printf 'b\n')
cmd: comm <(printf 'a\n') <(printf 'b\n')
out: a\n\tb\n

test: cp cp <(printf 'a\n') copied; cat copied
cmd: cp <(printf 'a\n') copied; cat copied
out: a\n

test: csplit csplit -s <(printf 'a\nb\n') 2; cat xx00 xx01
cmd: csplit -s <(printf 'a\nb\n') 2; cat xx00 xx01
out: a\nb\n

test: cut cut -c1 <(printf 'ab\n')
cmd: cut -c1 <(printf 'ab\n')
out: a\n

test: date date -u -f <(printf '@0\n')
cmd: date -u -f <(printf '@0\n')
out: Thu Jan  1 00:00:00 UTC 1970\n

test: diff diff <(printf 'a\n') <(printf 'b\n')
cmd: diff <(printf 'a\n') <(printf 'b\n')
out: 1c1\n< a\n---\n> b\n
status: 1

test: expand expand <(printf 'a\tb\n')
cmd: expand <(printf 'a\tb\n')
out: a       b\n

test: fmt fmt <(printf 'a\nb\n')
cmd: fmt <(printf 'a\nb\n')
out: a b\n

test: fold fold -w1 <(printf 'ab\n')
cmd: fold -w1 <(printf 'ab\n')
out: a\nb\n

test: grep grep -c . <(printf 'a\nb\n')
cmd: grep -c . <(printf 'a\nb\n')
out: 2\n

test: egrep egrep a <(printf 'a\n')
cmd: egrep a <(printf 'a\n')
out: a\n

test: fgrep fgrep a <(printf 'a\n')
cmd: fgrep a <(printf 'a\n')
out: a\n

test: gunzip gunzip -c <(printf 'a\n' | gzip)
cmd: gunzip -c <(printf 'a\n' | gzip)
out: a\n

test: zcat zcat <(printf 'a\n' | gzip)
cmd: zcat <(printf 'a\n' | gzip)
out: a\n

test: gzip gzip -c <(printf 'a\n') | zcat
cmd: gzip -c <(printf 'a\n') | zcat
out: a\n

test: hd hd <(printf 'a\n')
cmd: hd <(printf 'a\n')
out: 00000000  61 0a                                             |a.|\n00000002\n

test: head head -1 <(printf 'a\nb\n')
cmd: head -1 <(printf 'a\nb\n')
out: a\n

test: hexdump hexdump -C <(printf 'a\n')
cmd: hexdump -C <(printf 'a\n')
out: 00000000  61 0a                                             |a.|\n00000002\n

test: join join <(printf '1 a\n') <(printf '1 b\n')
cmd: join <(printf '1 a\n') <(printf '1 b\n')
out: 1 a b\n

test: md5sum md5sum <(printf 'a\n')
cmd: md5sum <(printf 'a\n')
out: 60b725f10c9c85c70d97880dfe8191b3  /dev/fd/63\n

test: nl nl <(printf 'a\n')
cmd: nl <(printf 'a\n')
out:      1\ta\n

test: od od -c <(printf 'a\n')
cmd: od -c <(printf 'a\n')
out: 0000000   a  \\n\n0000002\n

test: paste paste <(printf 'a\n') <(printf 'b\n')
cmd: paste <(printf 'a\n') <(printf 'b\n')
out: a\tb\n

test: printf printf 'a\n' > f; patch f <(printf -- '--- f\n+++ f\n@@ -1 +
cmd: printf 'a\n' > f; patch f <(printf -- '--- f\n+++ f\n@@ -1 +1 @@\n-a\n+b\n'); cat f
out: patching file f\nb\n

test: rev rev <(printf 'ab\n')
cmd: rev <(printf 'ab\n')
out: ba\n

test: sed sed p <(printf 'a\n')
cmd: sed p <(printf 'a\n')
out: a\na\n

test: sha1sum sha1sum <(printf 'a\n')
cmd: sha1sum <(printf 'a\n')
out: 3f786850e387550fdab836ed7e6dc881de23001b  /dev/fd/63\n

test: sha224sum sha224sum <(printf 'a\n')
cmd: sha224sum <(printf 'a\n')
out: 7c297c1793fdad2ac52a68bdd6b8fde3eb59b99c3f8c44710fde5fd7  /dev/fd/63\n

test: sha256sum sha256sum <(printf 'a\n')
cmd: sha256sum <(printf 'a\n')
out: 87428fc522803d31065e7bce3cf03fe475096631e5e07bbd7a0fde60c4cf25c7  /dev/fd/63\n

test: sha384sum sha384sum <(printf 'a\n')
cmd: sha384sum <(printf 'a\n')
out: 927b2f0395e4ce326f4ab759c75aa5fc399f7d6c3037b2deb4095279ca7ced3ca70f68f3574148680fc52d6c15bc8914  /dev/fd/63\n

test: sha512sum sha512sum <(printf 'a\n')
cmd: sha512sum <(printf 'a\n')
out: 162b0b32f02482d5aca0a7c93dd03ceac3acd7e410a5f18f3fb990fc958ae0df6f32233b91831eaf99ca581a8c4ddf9c8ba315ac482db6d4ea01cc7884a635be  /dev/fd/63\n

test: shuf shuf <(printf 'a\n')
cmd: shuf <(printf 'a\n')
out: a\n

test: sort sort <(printf 'b\na\n')
cmd: sort <(printf 'b\na\n')
out: a\nb\n

test: split split -l1 <(printf 'a\nb\n') part; cat partaa partab
cmd: split -l1 <(printf 'a\nb\n') part; cat partaa partab
out: a\nb\n

test: strings strings <(printf 'abcdef\n')
cmd: strings <(printf 'abcdef\n')
out: abcdef\n

test: sum sum <(printf 'a\n')
cmd: sum <(printf 'a\n')
out: 32826     1 /dev/fd/63\n

test: tac tac <(printf 'a\nb\n')
cmd: tac <(printf 'a\nb\n')
out: b\na\n

test: tail tail -1 <(printf 'a\nb\n')
cmd: tail -1 <(printf 'a\nb\n')
out: b\n

test: printf printf 'a\n' > t1; tar cf - t1 > t.tar; tar tf <(cat t.tar)
cmd: printf 'a\n' > t1; tar cf - t1 > t.tar; tar tf <(cat t.tar)
out: t1\n

test: unexpand unexpand -a <(printf 'a       b\n')
cmd: unexpand -a <(printf 'a       b\n')
out: a\tb\n

test: uniq uniq <(printf 'a\na\n')
cmd: uniq <(printf 'a\na\n')
out: a\n

test: wc wc -l <(printf 'a\nb\n')
cmd: wc -l <(printf 'a\nb\n')
out: 2 /dev/fd/63\n

test: xargs xargs -a <(printf 'a b\n') echo
cmd: xargs -a <(printf 'a b\n') echo
out: a b\n

test: xxd xxd <(printf 'a\n')
cmd: xxd <(printf 'a\n')
out: 00000000: 610a                                     a.\n

test: xz xz -c <(printf 'a\n') | xzcat
cmd: xz -c <(printf 'a\n') | xzcat
out: a\n

test: xzcat xzcat <(printf 'a\n' | xz)
cmd: xzcat <(printf 'a\n' | xz)
out: a\n

test: unxz unxz -c <(printf 'a\n' | xz)
cmd: unxz -c <(printf 'a\n' | xz)
out: a\n

test: jq jq . <(printf '1\n')
cmd: jq . <(printf '1\n')
out: 1\n

test: tr tr a b < <(printf 'a\n')
cmd: tr a b < <(printf 'a\n')
out: b\n

test: sort sort -m <(printf 'a\n') <(printf 'b\n')
cmd: sort -m <(printf 'a\n') <(printf 'b\n')
out: a\nb\n

test: cat cat /dev/stdin <<< stdin
cmd: cat /dev/stdin <<< stdin
out: stdin\n

test: grep grep x /dev/stdin <<< x
cmd: grep x /dev/stdin <<< x
out: x\n

test: diff diff /dev/stdin <(printf 'a\n') <<< a
cmd: diff /dev/stdin <(printf 'a\n') <<< a
out: 

test: awk awk 'FNR==1' /dev/stdin <<< a
cmd: awk 'FNR==1' /dev/stdin <<< a
out: a\n

test: stat stat -L -c %F <(true)
cmd: stat -L -c %F <(true)
out: fifo\n

test: du du <(true) >/dev/null; echo du $?
cmd: du <(true) >/dev/null; echo du $?
out: du 0\n

test: ls ls <(true)
cmd: ls <(true)
out: /dev/fd/63\n

test: sqlite3 sqlite3 :memory: '.read /dev/stdin' <<< 'select 1;'
cmd: sqlite3 :memory: '.read /dev/stdin' <<< 'select 1;'
out: 1\n

test: sed sed -f <(printf 'p\n') <<< a
cmd: sed -f <(printf 'p\n') <<< a
out: a\na\n

test: awk awk -f <(printf '{print 2}') <<< a
cmd: awk -f <(printf '{print 2}') <<< a
out: 2\n

test: grep grep -f <(printf 'a\n') <<< a
cmd: grep -f <(printf 'a\n') <<< a
out: a\n

test: cmp with a process substitution and a file
cmd: printf 'a\n' > f; cmp f <(printf 'b\n')
out: f /dev/fd/63 differ: byte 1, line 1\n
status: 1

test: bc reads a script from a process substitution
cmd: bc <(printf '1+1\n') < /dev/null
out: 2\n

test: tee writes to an output process substitution
cmd: echo hi | tee >(cat > o1) > /dev/null; sleep 0.2; cat o1
out: hi\n

test: find without -L sees the descriptor path as a symlink
cmd: find <(true) -maxdepth 0 -type l; find -L <(true) -maxdepth 0 -type p
out: /dev/fd/63\n/dev/fd/63\n

test: a descriptor that is not open does not exist
cmd: cat /dev/fd/9; grep x /dev/fd/9
out:
err: cat: /dev/fd/9: No such file or directory\ngrep: /dev/fd/9: No such file or directory\n
status: 2

test: diff of a process substitution and /dev/null
cmd: diff <(printf 'a\n') /dev/null
out: 1d0\n< a\n
status: 1

test: numfmt has no file operand; tsort tsort <(printf 'a b\n')
cmd: tsort <(printf 'a b\n'); tsort /dev/stdin <<< 'c d'
out: a\nb\nc\nd\n

test: pr pr -t <(printf 'a\n')
cmd: pr -t <(printf 'a\n') /dev/stdin <<< b
out: a\nb\n

test: iconv iconv -f latin1 <(printf '\351\n')
cmd: iconv -f latin1 -t utf-8 <(printf '\351\n'); printf 'x\n' | iconv -f ascii /dev/stdin
out: é\nx\n

test: zstd zstd -dc <(printf 'a\n' | zstd -q)
cmd: zstd -q -dc <(printf 'a\n' | zstd -q); printf 'b\n' | zstd -q | zstdcat /dev/stdin
out: a\nb\n

test: rg rg a <(printf 'a\nb\n')
cmd: rg a <(printf 'a\nb\n'); printf 'c\n' | rg c /dev/stdin
out: a\nc\n

test: file file -b <(printf '%%PDF-1.4\n')
cmd: file -b - < <(printf '%%PDF-1.4\n')
out: PDF document, version 1.4\n
