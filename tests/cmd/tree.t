# tree: the tree-like listing, filters, metadata and the closing report.
# (The test runner uses LC_ALL=C.UTF-8, so lines are drawn with box characters.)

test: a small tree
cmd: mkdir -p p/d/e p/z; touch p/a p/d/f; tree p
out: p\n\xe2\x94\x9c\xe2\x94\x80\xe2\x94\x80 a\n\xe2\x94\x9c\xe2\x94\x80\xe2\x94\x80 d\n
out: \xe2\x94\x82\xc2\xa0\xc2\xa0 \xe2\x94\x9c\xe2\x94\x80\xe2\x94\x80 e\n
out: \xe2\x94\x82\xc2\xa0\xc2\xa0 \xe2\x94\x94\xe2\x94\x80\xe2\x94\x80 f\n
out: \xe2\x94\x94\xe2\x94\x80\xe2\x94\x80 z\n\n4 directories, 2 files\n

test: ASCII lines outside UTF-8
cmd: mkdir -p p/d; touch p/a p/d/f; LC_ALL=C tree p
out: p\n|-- a\n`-- d\n    `-- f\n\n2 directories, 2 files\n

test: singular report
cmd: mkdir d; touch d/f; LC_ALL=C tree d
out: d\n`-- f\n\n1 directory, 1 file\n

test: hidden files with -a
cmd: mkdir d; touch d/.h d/v; LC_ALL=C tree d; LC_ALL=C tree -a d
out: d\n`-- v\n\n1 directory, 1 file\nd\n|-- .h\n`-- v\n\n1 directory, 2 files\n

test: -d directories only
cmd: mkdir -p d/e; touch d/f; LC_ALL=C tree -d d
out: d\n`-- e\n\n2 directories\n

test: -L limits depth
cmd: mkdir -p d/e/f; LC_ALL=C tree -L 1 d
out: d\n`-- e\n\n2 directories, 0 files\n

test: -f full paths
cmd: mkdir -p d/e; LC_ALL=C tree -f d
out: d\n`-- d/e\n\n2 directories, 0 files\n

test: -i no indentation
cmd: mkdir -p d/e; touch d/e/f; LC_ALL=C tree -i d
out: d\ne\nf\n\n2 directories, 1 file\n

test: -I ignores
cmd: mkdir -p d/skip; touch d/a d/b.o; LC_ALL=C tree -I 'skip|*.o' d
out: d\n`-- a\n\n1 directory, 1 file\n

test: -P keeps directories
cmd: mkdir -p d/e; touch d/a.c d/b.h d/e/c.c; LC_ALL=C tree -P '*.c' d
out: d\n|-- a.c\n`-- e\n    `-- c.c\n\n2 directories, 2 files\n

test: --prune drops empty directories
cmd: mkdir -p d/e d/x; touch d/e/c.c; LC_ALL=C tree --prune -P '*.c' d
out: d\n`-- e\n    `-- c.c\n\n2 directories, 1 file\n

test: --noreport
cmd: mkdir d; touch d/f; LC_ALL=C tree --noreport d
out: d\n`-- f\n

test: --dirsfirst
cmd: mkdir -p d/z; touch d/a; LC_ALL=C tree --dirsfirst d
out: d\n|-- z\n`-- a\n\n2 directories, 1 file\n

test: symlinks
cmd: mkdir d; touch d/a; ln -s a d/l; ln -s nowhere d/bad; LC_ALL=C tree d
out: d\n|-- a\n|-- bad -> nowhere\n`-- l -> a\n\n1 directory, 3 files\n

test: -F
cmd: mkdir -p d/e; touch d/x; chmod +x d/x; LC_ALL=C tree -F d
out: d/\n|-- e/\n`-- x*\n\n2 directories, 1 file\n

test: -s sizes
cmd: mkdir d; printf abc > d/f; LC_ALL=C tree -s d
out: [       4096]  d\n`-- [          3]  f\n\n1 directory, 1 file\n

test: -h sizes
cmd: mkdir d; head -c 2000 /dev/zero > d/f; LC_ALL=C tree -h d
out: [4.0K]  d\n`-- [2.0K]  f\n\n1 directory, 1 file\n

test: -p and -u -g
cmd: mkdir d; touch d/f; chmod 640 d/f; LC_ALL=C tree -pug d
out: [drwxr-xr-x root     root    ]  d\n`-- [-rw-r----- root     root    ]  f\n\n1 directory, 1 file\n

test: -D with --timefmt
cmd: mkdir d; touch -d 2020-05-06 d/f; LC_ALL=C tree --timefmt %Y-%m-%d d | tail -n +2
out: `-- [2020-05-06]  f\n\n1 directory, 1 file\n

test: -r reverses
cmd: mkdir d; touch d/a d/b; LC_ALL=C tree -r d
out: d\n|-- b\n`-- a\n\n1 directory, 2 files\n

test: -t sorts by time, oldest first
cmd: mkdir d; touch -d 2020-01-01 d/b; touch -d 2019-01-01 d/a2; LC_ALL=C tree -t d
out: d\n|-- a2\n`-- b\n\n1 directory, 2 files\n

test: -v version sort
cmd: mkdir d; touch d/f10 d/f9; LC_ALL=C tree -v d
out: d\n|-- f9\n`-- f10\n\n1 directory, 2 files\n

test: missing directory
cmd: tree nope
out: nope  [error opening dir]\n\n0 directories, 0 files\n
status: 2

test: a file operand
cmd: touch f; tree f
out: f  [error opening dir]\n\n0 directories, 1 file\n

test: an empty top directory is not counted
cmd: mkdir e; tree e
out: e\n\n0 directories, 0 files\n

test: several roots
cmd: mkdir a b; touch a/x; LC_ALL=C tree a b
out: a\n`-- x\nb\n\n1 directory, 1 file\n

test: -l loop
cmd: mkdir -p q/r; ln -s .. q/r/up; LC_ALL=C tree -l q
out: q\n`-- r\n    `-- up -> ..  [recursive, not followed]\n\n3 directories, 0 files\n

test: -J
cmd: mkdir -p d/e; touch d/f; ln -s f d/l; tree -J d
out: [\n  {"type":"directory","name":"d","contents":[\n    {"type":"directory","name":"e"},\n
out:     {"type":"file","name":"f"},\n    {"type":"link","name":"l","target":"f"}\n  ]}\n,\n
out:   {"type":"report","directories":2,"files":2}\n]\n

test: --du
cmd: mkdir -p d/e; head -c 100 /dev/zero > d/e/f; LC_ALL=C tree --du -s d
out: [       8292]  d\n`-- [       4196]  e\n    `-- [        100]  f\n\n        4296 bytes used in 2 directories, 1 file\n

test: invalid level
cmd: tree -L 0
out:
err: tree: Invalid level, must be greater than 0.\n
status: 1

# ---- audit4: GNU-identical error messages and quoting ----
test: audit: mkdir "$(printf 'a\tb\x01c\x7fd\ne\\f\377')"; tree
cmd: mkdir "$(printf 'a\tb\x01c\x7fd\ne\\f\377')"; tree
out: .\n\xe2\x94\x94\xe2\x94\x80\xe2\x94\x80 a\\tb\\001c\\177d\\ne\\\\f\\377\n\n2 directories, 0 files\n
err: 

test: audit: mkdir "$(printf 'a\tb\x01c\x7fd\ne\\f')"; tree
cmd: mkdir "$(printf 'a\tb\x01c\x7fd\ne\\f')"; tree
out: .\n\xe2\x94\x94\xe2\x94\x80\xe2\x94\x80 a\\011b\\001c\\177d\\012e\\f\n\n2 directories, 0 files\n
err: 

test: audit: mkdir "$(printf 'a b\377')" "$(printf 'c d"\a')"; tree; tree -Q; tree 
cmd: mkdir "$(printf 'a b\377')" "$(printf 'c d"\a')"; tree; tree -Q; tree -q | od -c
out: .\n\xe2\x94\x9c\xe2\x94\x80\xe2\x94\x80 a\\ b\\377\n\xe2\x94\x94\xe2\x94\x80\xe2\x94\x80 c d"\\007\n\n3 directories, 0 files\n"."\n\xe2\x94\x9c\xe2\x94\x80\xe2\x94\x80 "a b\\377"\n\xe2\x94\x94\xe2\x94\x80\xe2\x94\x80 "c d"\\007"\n\n3 directories, 0 files\n0000000   .  \\n 342 224 234 342 224 200 342 224 200       a   \\       b\n0000020 377  \\n 342 224 224 342 224 200 342 224 200       c       d   "\n0000040   ?  \\n  \\n   3       d   i   r   e   c   t   o   r   i   e   s\n0000060   ,       0       f   i   l   e   s  \\n\n0000072\n
err: 

test: audit: tree "$(printf 'x\ny\377\tz')"
cmd: tree "$(printf 'x\ny\377\tz')"
out: x\\ny\\377\\tz  [error opening dir]\n\n0 directories, 0 files\n
err: 
status: 2

test: audit: mkdir "$(printf 'x\ny\377\tz')"; tree "$(printf 'x\ny\377\tz')"
cmd: mkdir "$(printf 'x\ny\377\tz')"; tree "$(printf 'x\ny\377\tz')"
out: x\\ny\\377\\tz\n\n0 directories, 0 files\n
err: 

test: audit: touch "$(printf 'q"x y\377')"; tree -Q
cmd: touch "$(printf 'q"x y\377')"; tree -Q
out: "."\n\xe2\x94\x94\xe2\x94\x80\xe2\x94\x80 "q\\"x y\\377"\n\n1 directory, 1 file\n
err: 


# -X: XML output
test: xml
cmd: mkdir -p d/e emp && echo hi > a.txt && echo x > d/b && ln -s a.txt lnk && touch 'd/e/q&<>"x.c' && tree -X
out: <?xml version="1.0" encoding="UTF-8"?>\n<tree>\n  <directory name=".">\n    <file name="a.txt"></file>\n    <directory name="d">\n      <file name="b"></file>\n      <directory name="e">\n        <file name="q&amp;&lt;&gt;&quot;x.c"></file>\n      </directory>\n    </directory>\n    <directory name="emp"></directory>\n    <link name="lnk" target="a.txt"></link>\n  </directory>\n  <report>\n    <directories>4</directories>\n    <files>4</files>\n  </report>\n</tree>\n
err:

test: xml level and noreport
cmd: mkdir -p d/e && echo x > d/b && tree -X -L 1 --noreport d
out: <?xml version="1.0" encoding="UTF-8"?>\n<tree>\n  <directory name="d">\n    <file name="b"></file>\n    <directory name="e"></directory>\n  </directory>\n</tree>\n
err:

test: xml empty directory
cmd: mkdir emp && tree -X emp
out: <?xml version="1.0" encoding="UTF-8"?>\n<tree>\n  <directory name="emp">\n  </directory>\n  <report>\n    <directories>0</directories>\n    <files>0</files>\n  </report>\n</tree>\n
err:

test: xml file root
cmd: echo hi > a.txt && tree -X a.txt
out: <?xml version="1.0" encoding="UTF-8"?>\n<tree>\n  <file name="a.txt"><error>error opening dir</error>\n  </file>\n  <report>\n    <directories>0</directories>\n    <files>1</files>\n  </report>\n</tree>\n
err:

test: xml missing root
cmd: tree -X nonexist
out: <?xml version="1.0" encoding="UTF-8"?>\n<tree>\n name="nonexist"><error>error opening dir</error>\n  </unknown>\n  <report>\n    <directories>0</directories>\n    <files>0</files>\n  </report>\n</tree>\n
err:
status: 2

test: xml size and permissions
cmd: mkdir -p d/e && echo x > d/b && chmod 644 d/b && chmod 755 d d/e && tree -X -s -p d
out: <?xml version="1.0" encoding="UTF-8"?>\n<tree>\n  <directory name="d" mode="0755" prot="drwxr-xr-x" size="4096">\n    <file name="b" mode="0644" prot="-rw-r--r--" size="2"></file>\n    <directory name="e" mode="0755" prot="drwxr-xr-x" size="4096"></directory>\n  </directory>\n  <report>\n    <directories>2</directories>\n    <files>1</files>\n  </report>\n</tree>\n
err:

test: xml directories only
cmd: mkdir -p d/e emp && echo x > d/b && tree -X -d .
out: <?xml version="1.0" encoding="UTF-8"?>\n<tree>\n  <directory name=".">\n    <directory name="d">\n      <directory name="e"></directory>\n    </directory>\n    <directory name="emp"></directory>\n  </directory>\n  <report>\n    <directories>4</directories>\n  </report>\n</tree>\n
err:

test: xml full path
cmd: mkdir -p d/e && echo x > d/b && tree -X -f d
out: <?xml version="1.0" encoding="UTF-8"?>\n<tree>\n  <directory name="d">\n    <file name="d/b"></file>\n    <directory name="d/e"></directory>\n  </directory>\n  <report>\n    <directories>2</directories>\n    <files>1</files>\n  </report>\n</tree>\n
err:

test: xml two roots
cmd: mkdir -p d emp && echo x > d/b && tree -X d emp
out: <?xml version="1.0" encoding="UTF-8"?>\n<tree>\n  <directory name="d">\n    <file name="b"></file>\n  </directory>\n  <directory name="emp">\n  </directory>\n  <report>\n    <directories>1</directories>\n    <files>1</files>\n  </report>\n</tree>\n
err:

test: xml time
cmd: mkdir -p d && touch -d @86400 d/b && touch -d @1000000000 d && tree -X -D --timefmt=%Y-%m-%d d
out: <?xml version="1.0" encoding="UTF-8"?>\n<tree>\n  <directory name="d" time="2001-09-09">\n    <file name="b" time="1970-01-02"></file>\n  </directory>\n  <report>\n    <directories>1</directories>\n    <files>1</files>\n  </report>\n</tree>\n
err:

test: xml du
cmd: mkdir -p d && printf 12345 > d/b && tree -X --du --noreport d | grep -v directory
out: <?xml version="1.0" encoding="UTF-8"?>\n<tree>\n    <file name="b" size="5"></file>\n</tree>\n
err:


# --fromfile: the listed paths as a tree
test: fromfile
cmd: tree --fromfile input
file: input=a/b/c\na/d\ne\na/b/f\n
out: input\n\xe2\x94\x9c\xe2\x94\x80\xe2\x94\x80 a\n\xe2\x94\x82\xc2\xa0\xc2\xa0 \xe2\x94\x9c\xe2\x94\x80\xe2\x94\x80 b\n\xe2\x94\x82\xc2\xa0\xc2\xa0 \xe2\x94\x82\xc2\xa0\xc2\xa0 \xe2\x94\x9c\xe2\x94\x80\xe2\x94\x80 c\n\xe2\x94\x82\xc2\xa0\xc2\xa0 \xe2\x94\x82\xc2\xa0\xc2\xa0 \xe2\x94\x94\xe2\x94\x80\xe2\x94\x80 f\n\xe2\x94\x82\xc2\xa0\xc2\xa0 \xe2\x94\x94\xe2\x94\x80\xe2\x94\x80 d\n\xe2\x94\x94\xe2\x94\x80\xe2\x94\x80 e\n\n3 directories, 4 files\n
err:

test: fromfile stdin trailing slash
cmd: printf 'x/y\nx/z/\n' | tree --fromfile
out: .\n\xe2\x94\x94\xe2\x94\x80\xe2\x94\x80 x\n    \xe2\x94\x9c\xe2\x94\x80\xe2\x94\x80 y\n    \xe2\x94\x94\xe2\x94\x80\xe2\x94\x80 z\n\n3 directories, 1 file\n
err:

test: fromfile absolute and dot
cmd: printf '/abs/p\n./rel\n' | tree --fromfile .
out: .\n\xe2\x94\x9c\xe2\x94\x80\xe2\x94\x80 .\n\xe2\x94\x82\xc2\xa0\xc2\xa0 \xe2\x94\x94\xe2\x94\x80\xe2\x94\x80 rel\n\xe2\x94\x94\xe2\x94\x80\xe2\x94\x80 abs\n    \xe2\x94\x94\xe2\x94\x80\xe2\x94\x80 p\n\n3 directories, 2 files\n
err:

test: fromfile missing
cmd: tree --fromfile nonexist
out: nonexist  [error opening dir]\n\n0 directories, 0 files\n
err:
status: 2

test: fromfile ascii no report
cmd: tree --fromfile --charset=ascii --noreport input
file: input=b\na\na/c\n
out: input\n|-- a\n|   `-- c\n`-- b\n
err:

test: fromfile level
cmd: tree --fromfile -L 1 input
file: input=a/b/c\nd\n
out: input\n\xe2\x94\x9c\xe2\x94\x80\xe2\x94\x80 a\n\xe2\x94\x94\xe2\x94\x80\xe2\x94\x80 d\n\n2 directories, 1 file\n
err:


test: --gitignore leaves out what the .gitignore files of the tree say
cmd: mkdir -p p/src/gen p/build p/docs; touch p/a.c p/a.o p/src/m.c p/src/m.o p/src/gen/x.c p/build/out p/docs/keep.log p/docs/r.md
cmd: printf '*.o\n/build/\n# comment\n*.log\n!keep.log\n' > p/.gitignore; printf 'gen/\n' > p/src/.gitignore
cmd: tree --gitignore p; tree --gitignore -a p | tail -1; cd p && tree --gitignore --noreport
out: p\n├── a.c\n├── docs\n│\xc2\xa0\xc2\xa0 ├── keep.log\n│\xc2\xa0\xc2\xa0 └── r.md\n└── src\n    └── m.c\n\n3 directories, 4 files\n
out: 3 directories, 6 files\n
out: .\n├── a.c\n├── docs\n│\xc2\xa0\xc2\xa0 ├── keep.log\n│\xc2\xa0\xc2\xa0 └── r.md\n└── src\n    └── m.c\n

test: -u and -g print the number of an owner without a name, in text and XML
cmd: mkdir d; touch d/a; chown 4321:4322 d/a; tree -ug --noreport d; tree -X -ug --noreport d | grep user
out: [root     root    ]  d\n└── [4321     4322    ]  a\n  <directory name="d" user="root" group="root">\n    <file name="a" user="4321" group="4322"></file>\n

# tree itself takes whole long names only: sbx's getopt also takes unambiguous abbreviations
test: long options abbreviated; --fil is ambiguous
cmd: mkdir -p d/z; touch d/a; tree --dirs --nor d; tree --fil d; echo $?
out: d\n├── z\n└── a\n1\n
err: tree: option '--fil' is ambiguous; possibilities: '--filelimit' '--filesfirst'\nTry 'tree --help' for more information.\n
host: skip
