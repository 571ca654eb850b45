# cut: bytes, fields, delimiters, complement, output delimiter, errors.

test: bytes single
cmd: cut -b2 input
in: abc\nxyz\n
out: b\ny\n

test: bytes range
cmd: cut -b2-4 input
in: abcdef\nxy\n
out: bcd\ny\n

test: bytes open ranges
cmd: cut -b-2,5- input
in: abcdefg\n
out: abefg\n

test: bytes unordered list prints in input order
cmd: cut -b3,1 input
in: abcdef\n
out: ac\n

test: characters are bytes
cmd: cut -c1-2 input
in: h\xc3\xa9llo\n
out: h\xc3\n

test: bytes output delimiter adjacent ranges
cmd: cut -b1,2 --output-delimiter=: input
in: abcdef\n
out: a:b\n

test: bytes output delimiter merged overlap
cmd: cut -b1-2,2-3,5- --output-delimiter=: input
in: abcdef\n
out: abc:ef\n

test: bytes complement
cmd: cut --complement -b2,4 input
in: abcdef\n
out: acef\n

test: bytes complement output delimiter
cmd: cut --complement -b2,4 --output-delimiter=: input
in: abcdef\n
out: a:c:ef\n

test: bytes beyond line
cmd: cut -b5-9 input
in: abc\nabcdefghij\n
out: \nefghi\n

test: fields default tab
cmd: cut -f2 input
in: a\tb\tc\n
out: b\n

test: fields delimiter
cmd: cut -d: -f1,3 input
in: a:b:c:d\n
out: a:c\n

test: fields open range
cmd: cut -d: -f2- input
in: a:b:c:d\n
out: b:c:d\n

test: fields range to
cmd: cut -d: -f-2 input
in: a:b:c:d\n
out: a:b\n

test: line without delimiter printed
cmd: cut -d: -f2 input
in: a:b\nnodelim\n
out: b\nnodelim\n

test: only delimited
cmd: cut -d: -f2 -s input
in: a:b\nnodelim\n
out: b\n

test: field past end is empty
cmd: cut -d: -f5 input
in: a:b:c\n
out: \n

test: empty fields
cmd: cut -d, -f2,4 input
in: a,,c,\n,,,\n
out: ,\n,\n

test: output delimiter for fields
cmd: cut -d: -f1,3- --output-delimiter=XY input
in: a:b:c:d\n
out: aXYcXYd\n

test: empty output delimiter
cmd: cut -d: -f1,3 --output-delimiter= input
in: a:b:c\n
out: a\x00c\n

test: fields complement
cmd: cut -d: --complement -f2 input
in: a:b:c\n
out: a:c\n

test: complement everything
cmd: cut -d: --complement -f1- input
in: a:b\n
out: \n

test: space delimiter
cmd: cut -d ' ' -f2 input
in: a b  c\n
out: b\n

test: list with blanks
cmd: cut -d: -f '1 3' input
in: a:b:c\n
out: a:c\n

test: missing final newline added
cmd: printf 'a:b' | cut -d: -f2 | od -c
out: 0000000   b  \\n\n0000002\n

test: bytes missing final newline
cmd: printf 'abc' | cut -b2 | od -c
out: 0000000   b  \\n\n0000002\n

test: zero terminated
cmd: printf 'a:b\0c:d\0' | cut -z -d: -f2 | od -c
out: 0000000   b  \\0   d  \\0\n0000004\n

test: zero terminated keeps newlines
cmd: printf 'a\n:b\0' | cut -z -d: -f1 | od -c
out: 0000000   a  \\n  \\0\n0000003\n

test: nul delimiter with empty -d
cmd: printf 'a\0b\n' | cut -d '' -f2
out: b\n

test: several files
cmd: cut -b1 a b
file: a=xa\n
file: b=yb\n
out: x\ny\n

test: missing file
cmd: cut -b1 nope a
file: a=x\n
out: x\n
err: cut: nope: No such file or directory\n
status: 1

test: n ignored
cmd: cut -n -b1 input
in: ab\n
out: a\n

test: no list
cmd: cut input
in: a\n
out:
err: cut: you must specify a list of bytes, characters, or fields\n
err: Try 'cut --help' for more information.\n
status: 1

test: two lists
cmd: cut -b1 -f1 input
in: a\n
out:
err: cut: only one list may be specified\n
err: Try 'cut --help' for more information.\n
status: 1

test: field zero
cmd: cut -f0 input
in: a\n
out:
err: cut: fields are numbered from 1\n
err: Try 'cut --help' for more information.\n
status: 1

test: byte zero range
cmd: cut -c 0-2 input
in: a\n
out:
err: cut: byte/character positions are numbered from 1\n
err: Try 'cut --help' for more information.\n
status: 1

test: invalid position
cmd: cut -b x input
in: a\n
out:
err: cut: invalid byte/character position ‘x’\n
err: Try 'cut --help' for more information.\n
status: 1

test: invalid field value
cmd: cut -f 1,x2 input
in: a\n
out:
err: cut: invalid field value ‘x2’\n
err: Try 'cut --help' for more information.\n
status: 1

test: decreasing range
cmd: cut -f 3-1 input
in: a\n
out:
err: cut: invalid decreasing range\n
err: Try 'cut --help' for more information.\n
status: 1

test: lone dash
cmd: cut -f - input
in: a\n
out:
err: cut: invalid range with no endpoint: -\n
err: Try 'cut --help' for more information.\n
status: 1

test: double comma
cmd: cut -f 1,,2 input
in: a\n
out:
err: cut: fields are numbered from 1\n
err: Try 'cut --help' for more information.\n
status: 1

test: empty list
cmd: cut -f '' input
in: a\n
out:
err: cut: fields are numbered from 1\n
err: Try 'cut --help' for more information.\n
status: 1

test: too large
cmd: cut -f 99999999999999999999 input
in: a\n
out:
err: cut: field number ‘99999999999999999999’ is too large\n
err: Try 'cut --help' for more information.\n
status: 1

test: too large byte offset
cmd: cut -b 1,99999999999999999999999 input
in: a\n
out:
err: cut: byte/character offset ‘99999999999999999999999’ is too large\n
err: Try 'cut --help' for more information.\n
status: 1

test: bad field range
cmd: cut -f 1-2-3 input
in: a\n
out:
err: cut: invalid field range\n
err: Try 'cut --help' for more information.\n
status: 1

test: bad byte range
cmd: cut -b 1-2-3 input
in: a\n
out:
err: cut: invalid byte or character range\n
err: Try 'cut --help' for more information.\n
status: 1

test: multi-char delimiter
cmd: cut -f1 -d ab input
in: a\n
out:
err: cut: the delimiter must be a single character\n
err: Try 'cut --help' for more information.\n
status: 1

test: delimiter with bytes
cmd: cut -b1 -d: input
in: a\n
out:
err: cut: an input delimiter may be specified only when operating on fields\n
err: Try 'cut --help' for more information.\n
status: 1

test: only delimited with bytes
cmd: cut -b1 -s input
in: a\n
out:
err: cut: suppressing non-delimited lines makes sense\n
err: \tonly when operating on fields\n
err: Try 'cut --help' for more information.\n
status: 1

test: huge open range
cmd: cut -b 3- input
in: abcdef\n
out: cdef\n

test: long line fields
cmd: head -c 500000 /dev/zero | tr '\0' a | sed 's/$/:x/' | cut -d: -f2
out: x\n

test: abbreviated long-only options, one with an argument
cmd: printf 'a\tb\tc\n' | cut --output-delim=: --compl -f2
out: a:c\n

test: a bad delimiter is reported before a later bad option
cmd: cut -d ab --bogus
out:
err: cut: the delimiter must be a single character\nTry 'cut --help' for more information.\n
status: 1
