# zip and unzip (Info-ZIP zip 3.0 / unzip 6.0 behaviour). Creation order is the
# store's sorted order in sbx, readdir order on the host: listings of a
# recursive zip are sorted before comparing.

test: zip a file and list it
cmd: printf 'hello' > a; zip -q x.zip a && unzip -Z1 x.zip
out: a\n

test: adding messages
cmd: printf 'hi\n' > a; zip x.zip a
out:   adding: a (stored 0%)\n

test: deflated when it helps
cmd: seq 1 1000 > big; zip x.zip big | sed 's/[0-9]*%/N%/'
out:   adding: big (deflated N%)\n

test: recursive round trip
cmd: mkdir -p d/e; echo hi > d/a; seq 1 500 > d/e/b; zip -qr x.zip d && rm -r d && unzip -q x.zip && cat d/a && tail -1 d/e/b
out: hi\n500\n

test: recursive listing
cmd: mkdir -p d/e; echo hi > d/a; echo yo > d/e/b; zip -qr x.zip d; unzip -Z1 x.zip | sort
out: d/\nd/a\nd/e/\nd/e/b\n

test: unzip messages
cmd: mkdir d; printf 'hi\n' > d/a; zip -qr x.zip d; rm -r d; unzip x.zip
out: Archive:  x.zip\n   creating: d/\n extracting: d/a                     \n

test: unzip into a directory
cmd: printf 'hi\n' > a; zip -q x.zip a; unzip -q x.zip -d out; cat out/a
out: hi\n

test: unzip -p pipes the data
cmd: printf 'hi\n' > a; zip -q x.zip a; unzip -p x.zip a
out: hi\n

test: existing files are not replaced without -o
cmd: printf 'old\n' > a; zip -q x.zip a; printf 'new\n' > a; unzip x.zip < /dev/null; cat a
out: Archive:  x.zip\nnew\n
err: replace a? [y]es, [n]o, [A]ll, [N]one, [r]ename:  NULL\n(EOF or read error, treating as "[N]one" ...)\n

test: -o replaces
cmd: printf 'old\n' > a; zip -q x.zip a; printf 'new\n' > a; unzip -oq x.zip; cat a
out: old\n

test: list table
cmd: printf 'hello\n' > a; touch -d '2020-01-02 03:04' a; zip -q x.zip a; unzip -l x.zip
out: Archive:  x.zip\n  Length      Date    Time    Name\n---------  ---------- -----   ----\n
out:         6  2020-01-02 03:04   a\n---------                     -------\n        6                     1 file\n

test: missing archive
cmd: unzip nope.zip
out:
err: unzip:  cannot find or open nope.zip, nope.zip.zip or nope.zip.ZIP.\n
status: 9

test: not a zip
cmd: unzip -l input > /dev/null
in: this is not a zip file, only some text\n
status: 9
out:

test: nothing to do
cmd: zip x.zip nope
out: \tzip warning: name not matched: nope\n\nzip error: Nothing to do! (x.zip)\n
err:
status: 12

test: update adds to an existing archive
cmd: echo 1 > a; echo 2 > b; zip -q x.zip a; zip x.zip b; unzip -Z1 x.zip
out:   adding: b (stored 0%)\na\nb\n

test: update replaces a member
cmd: echo 1 > a; zip -q x.zip a; echo 22 > a; zip x.zip a; unzip -p x.zip a
out: updating: a (stored 0%)\n22\n

test: delete a member
cmd: echo 1 > a; echo 2 > b; zip -q x.zip a b; zip -d x.zip a; unzip -Z1 x.zip
out: deleting: a\nb\n

test: junk paths
cmd: mkdir d; echo 1 > d/a; zip -qj x.zip d/a; unzip -Z1 x.zip
out: a\n

test: test mode
cmd: echo 1 > a; zip -q x.zip a; unzip -t x.zip
out: Archive:  x.zip\n    testing: a                        OK\nNo errors detected in compressed data of x.zip.\n

test: binary content survives
cmd: printf 'a\0b\377' > bin; zip -q x.zip bin; unzip -p x.zip bin | od -An -c
out:    a  \\0   b 377\n

test: name not in archive
cmd: echo 1 > a; zip -q x.zip a; unzip x.zip nope
out: Archive:  x.zip\n
err: caution: filename not matched:  nope\n
status: 11

test: unzip -p of an empty member writes nothing
cmd: : > e; echo hi > a; zip -q x.zip e a; unzip -p x.zip e; unzip -p x.zip a e; echo $?
out: hi\n0\n
