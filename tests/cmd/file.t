# file: the descriptions of file 5.44 for common types.

test: text kinds
cmd: touch empty; echo hi > ascii; printf 'h\xc3\xa9llo\n' > utf8; printf 'a\r\nb\r\n' > crlf; printf 'xy' > nonl; file empty ascii utf8 crlf nonl
out: empty: empty\nascii: ASCII text\nutf8:  Unicode text, UTF-8 text\ncrlf:  ASCII text, with CRLF line terminators\nnonl:  ASCII text, with no line terminators\n

test: long lines, escapes, overstriking
cmd: printf '%0400d\n' 0 > long; printf 'a\033[0m\n' > esc; printf 'a\bb\n' > ov; file long esc ov
out: long: ASCII text, with very long lines (400)\nesc:  ASCII text, with escape sequences\nov:   ASCII text, with overstriking\n

test: other encodings
cmd: printf '\xef\xbb\xbfbom\n' > bom; printf '\xff\xfeh\x00i\x00\n\x00' > u16; printf '\xe9\n' > latin1; printf '\x80\x81\n' > ext; file bom u16 latin1 ext
out: bom:    Unicode text, UTF-8 (with BOM) text\nu16:    Unicode text, UTF-16, little-endian text\nlatin1: ISO-8859 text\next:    Non-ISO extended-ASCII text\n

test: a one-byte file
cmd: printf x > one; file one
out: one: very short file (no magic)\n

test: binary data
cmd: printf 'line\n\0bin' > nul; file nul
out: nul: data\n

test: scripts
cmd: printf '#!/bin/sh\necho\n' > s1; printf '#!/bin/bash\n' > s2; printf '#!/usr/bin/env python3\n' > s3; printf '#!/usr/bin/perl\n' > s4; printf '#!/usr/bin/env node\n' > s5; file s1 s2 s3 s4 s5
out: s1: POSIX shell script, ASCII text executable\ns2: Bourne-Again shell script, ASCII text executable\ns3: Python script, ASCII text executable\ns4: Perl script text executable\ns5: Node.js script executable, ASCII text\n

test: JSON, HTML, XML
cmd: printf '{"a": [1, true]}\n' > j; printf '<!DOCTYPE html>\n<html></html>\n' > h; printf '<?xml version="1.0"?>\n<a/>\n' > x; printf '{"a":\n' > bad; file j h x bad
out: j:   JSON text data\nh:   HTML document, ASCII text\nx:   XML 1.0 document, ASCII text\nbad: ASCII text\n

test: images and documents
cmd: printf '\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x10\0\0\0\x20\x08\x06\0\0\0' > p; printf 'GIF89a\x10\0\x20\0' > g; printf '%%PDF-1.4\n' > d; file p g d
out: p: PNG image data, 16 x 32, 8-bit/color RGBA, non-interlaced\ng: GIF image data, version 89a, 16 x 32\nd: PDF document, version 1.4\n

test: compressed and archives
cmd: echo hi | gzip -n > z.gz; echo hi | bzip2 > b.bz2; echo hi | xz > x.xz; file z.gz b.bz2 x.xz
out: z.gz:  gzip compressed data, from Unix, original size modulo 2^32 3\nb.bz2: bzip2 compressed data, block size = 900k\nx.xz:  XZ compressed data, checksum CRC64\n

test: tar
cmd: echo hi > a; tar cf t.tar a; file t.tar
out: t.tar: POSIX tar archive (GNU)\n

test: directories and links
cmd: mkdir d; echo hi > a; ln -s a l; ln -s nowhere bl; file d l bl; file -L l
out: d:  directory\nl:  symbolic link to a\nbl: broken symbolic link to nowhere\nl: ASCII text\n

test: -b
cmd: echo hi > a; file -b a
out: ASCII text\n

test: -i and --mime-type
cmd: echo hi > a; mkdir d; touch e; file -i a d e; file --mime-type a
out: a: text/plain; charset=us-ascii\nd: inode/directory; charset=binary\ne: inode/x-empty; charset=binary\na: text/plain\n

test: missing file is reported on stdout
cmd: file nope; echo $?
out: nope: cannot open `nope' (No such file or directory)\n0\n

test: -F separator
cmd: echo hi > a; file -F '|' a
out: a| ASCII text\n

test: usage without operands
cmd: file 2>/dev/null; echo $?
out: 1\n

# libmagic: the answers of file(1) itself
test: a truncated PNG is data, a whole one is an image
cmd: printf '\211PNG\r\n\032\n' > t.png; printf '\211PNG\r\n\032\n\0\0\0\rIHDR\0\0\0\20\0\0\0\20\10\6\0\0\0' > ok.png; file t.png ok.png
out: t.png:  data\nok.png: PNG image data, 16 x 16, 8-bit/color RGBA, non-interlaced\n

test: archives, documents and code as file(1) names them
cmd: mkdir d; echo hi > d/a; tar cf a.tar d; zip -qr a.zip d; printf '%%PDF-1.4\n%%\342\343\n1 0 obj\n' > p.pdf; printf 'SQLite format 3\0' > s.db; printf '#include <stdio.h>\nint main(void) { return 0; }\n' > c.c; printf 'import os\n\ndef f():\n    pass\n' > p.py
cmd: file a.tar a.zip p.pdf c.c p.py; file -b --mime-type a.tar a.zip p.pdf c.c
out: a.tar: POSIX tar archive (GNU)\na.zip: Zip archive data, at least v1.0 to extract, compression method=store\np.pdf: PDF document, version 1.4\nc.c:   C source, ASCII text\np.py:  Python script, ASCII text executable\n
out: application/x-tar\napplication/zip\napplication/pdf\ntext/x-c\n

test: -z looks inside compressed files
cmd: printf 'hello\n' | gzip -n > h.gz; file -z h.gz
out: h.gz: ASCII text (gzip compressed data, from Unix)\n

test: standard input as -
cmd: echo x | file -; printf '' | file -; printf '\211PNG\r\n\032\n\0\0\0\rIHDR\0\0\0\1\0\0\0\1\10\2\0\0\0' | file -b --mime-type -
out: /dev/stdin: ASCII text\n/dev/stdin: empty\nimage/png\n

test: --mime-type and --mime-encoding abbreviated, -L then -h
cmd: printf 'hello\n' > t.txt; file --mime-t t.txt; file --mime-e -L -h t.txt
out: t.txt: text/plain\nt.txt: us-ascii\n
