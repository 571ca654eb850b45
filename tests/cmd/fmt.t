# fmt: GNU's optimal paragraph filling.

test: fill paragraph
cmd: fmt input
in: The quick brown fox jumps over the lazy dog. Lorem ipsum dolor sit amet, consectetur adipiscing elit! Sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation.\n
out: The quick brown fox jumps over the lazy dog. Lorem ipsum dolor sit amet,\n
out: consectetur adipiscing elit! Sed do eiusmod tempor incididunt ut labore et\n
out: dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation.\n

test: width
cmd: fmt -w 40 input
in: The quick brown fox jumps over the lazy dog. Lorem ipsum dolor sit amet, consectetur adipiscing elit! Sed do eiusmod tempor incididunt ut labore et dolore magna aliqua.\n
out: The quick brown fox jumps over the\n
out: lazy dog. Lorem ipsum dolor sit amet,\n
out: consectetur adipiscing elit! Sed do\n
out: eiusmod tempor incididunt ut labore et\ndolore magna aliqua.\n

test: obsolete width
cmd: fmt -30 input
in: The quick brown fox jumps over the lazy dog. Lorem ipsum dolor sit amet.\n
out: The quick brown fox jumps\nover the lazy dog. Lorem\n
out: ipsum dolor sit amet.\n

test: goal
cmd: fmt -g 50 input
in: The quick brown fox jumps over the lazy dog. Lorem ipsum dolor sit amet, consectetur adipiscing elit! Sed do eiusmod tempor incididunt ut labore et dolore magna aliqua.\n
out: The quick brown fox jumps over the lazy dog. Lorem ipsum\n
out: dolor sit amet, consectetur adipiscing elit! Sed do\n
out: eiusmod tempor incididunt ut labore et dolore magna aliqua.\n

test: joins short lines and keeps paragraphs
cmd: fmt input
in: one\ntwo\nthree.\n\nfour\nfive\n
out: one two three.\n\nfour five\n

test: indentation kept
cmd: fmt -w 30 input
in:    indented paragraph with several words that need wrapping\n   and more words here.\n
out:    indented paragraph with\n   several words that need\n
out:    wrapping and more words\n   here.\n

test: tab indentation
cmd: fmt -w 30 input | od -c | head -n 3
in: \tindented paragraph with several words that need wrapping\n\tand more.\n
out: 0000000  \\t   i   n   d   e   n   t   e   d       p   a   r   a   g   r\n
out: 0000020   a   p   h  \\n  \\t   w   i   t   h       s   e   v   e   r   a\n
out: 0000040   l       w   o   r   d   s  \\n  \\t   t   h   a   t       n   e\n

test: uniform spacing
cmd: fmt -u input
in: one   two  three.    Four five.\n
out: one two three.  Four five.\n

test: two spaces after sentences kept
cmd: fmt input
in: end.  Two spaces after sentence.  Another one!  And?  Yes.\nshort\n
out: end.  Two spaces after sentence.  Another one!  And?  Yes.  short\n

test: split only
cmd: fmt -s -w 20 input
in: a short line\nthis line is quite a bit longer than twenty\nx\n
out: a short line\nthis line is quite\na bit longer than\ntwenty\nx\n

test: crown margin
cmd: fmt -c -w 40 input
in: Title line\n  indented second line of a paragraph that goes on and on for a while\n  and continues here.\n
out: Title line indented second line of a\n
out:   paragraph that goes on and on for a\n
out:   while and continues here.\n

test: tagged paragraph
cmd: fmt -t -w 40 input
in:   first line tagged\nsecond line less indented and long enough to wrap around the limit.\n
out:   first line tagged second line less\n
out: indented and long enough to wrap around\nthe limit.\n

test: prefix
cmd: fmt -w 30 -p '# ' input
in: # comment line one that is long enough to be wrapped\n# second comment line.\nnot a comment\n
out: # comment line one that is\n# long enough to be wrapped\n
out: # second comment line.\nnot a comment\n

test: long paragraph
cmd: for i in $(seq 2000); do printf 'word%d ' $i; done > f; fmt f | md5sum; fmt f | wc -l
out: 44554b93e3e360b14f91e68722635862  -\n235\n

test: invalid width
cmd: fmt -w x input
in: a\n
out:
err: fmt: invalid width: ‘x’\n
status: 1

test: width too large
cmd: fmt -w 3000 input
in: a\n
out:
err: fmt: invalid width: ‘3000’: Numerical result out of range\n
status: 1

test: goal larger than width
cmd: fmt -g 80 input
in: a\n
out:
err: fmt: invalid width: ‘80’: Numerical result out of range\n
status: 1

test: missing file
cmd: fmt nope
out:
err: fmt: cannot open 'nope' for reading: No such file or directory\n
status: 1

test: abbreviated --width and --prefix with their values
cmd: fmt --wid=10 --pre '# ' input
in: # aaa bbb ccc ddd\nxx yy\n
out: # aaa bbb\n# ccc ddd\nxx yy\n
