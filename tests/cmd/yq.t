# yq (kislyuk/yq 3 over jq 1.6, PyYAML's emitter). The cases are proved against the
# host's Debian yq 3.1.0 with `run.py --host tests/cmd/yq.t`; they use -y/-Y for YAML
# output and -c/-r/--tab/--indent for JSON, where sbx and kislyuk agree. Behaviour
# that is sbx's own (YAML as the default output, -j/-o json, sandbox limits) is at the
# end, marked `host: skip` with the reason.

test: yaml to yaml
cmd: yq -y . input
in: a: 1\nb: [x, y]\nc: {d: e}\n
out: a: 1\nb:\n  - x\n  - y\nc:\n  d: e\n
err:

test: compact json
cmd: yq -c . input
in: a: 1\nb: [x, y]\nc: {d: e}\n
out: {"a":1,"b":["x","y"],"c":{"d":"e"}}\n
err:

test: pretty json with -S
cmd: yq --indent 2 -S . input
in: b: 1\na: [1, 2]\n
out: {\n  "a": [\n    1,\n    2\n  ],\n  "b": 1\n}\n
err:

test: raw string
cmd: yq -r .name input
in: name: demo\n
out: demo\n
err:

test: select from list
cmd: yq -c '.items[] | select(.n > 1) | .id' input
in: items:\n  - {id: a, n: 1}\n  - {id: b, n: 2}\n  - {id: c, n: 3}\n
out: "b"\n"c"\n
err:

test: stdin
cmd: yq -y .a
stdin: a:\n  b: 1\n
out: b: 1\n
err:

test: several documents
cmd: yq -c . input
in: a: 1\n---\nb: 2\n---\n- 3\n
out: {"a":1}\n{"b":2}\n[3]\n
err:

test: several documents yaml out
cmd: yq -y . input
in: a: 1\n---\nb: 2\n
out: a: 1\n---\nb: 2\n
err:

test: slurp documents
cmd: yq -c -s . input
in: a: 1\n---\nb: 2\n
out: [{"a":1},{"b":2}]\n
err:

test: two files
cmd: yq -c .x a.yaml b.yaml
file: a.yaml=x: 1\n
file: b.yaml=x: 2\n
out: 1\n2\n
err:

test: null input
cmd: yq -c -n '[1,2]'
out: [1,2]\n
err:

test: arg
cmd: yq -c -n --arg v hi '{v: $v}'
out: {"v":"hi"}\n
err:

test: argjson
cmd: yq -y -n --argjson v '{"a":[1,2]}' '$v'
out: a:\n  - 1\n  - 2\n
err:

test: exit status false
cmd: yq -c -e .a input; echo $?
in: a: false\n
out: false\n1\n
err:

test: exit status null
cmd: yq -c -e .b input; echo $?
in: a: 1\n
out: null\n1\n
err:

test: sort keys yaml
cmd: yq -y -S . input
in: b: 1\na: 2\nc: {z: 1, y: 2}\n
out: a: 2\nb: 1\nc:\n  y: 2\n  z: 1\n
err:

test: yaml keeps key order
cmd: yq -y . input
in: zeta: 1\nalpha: 2\nmid: 3\n
out: zeta: 1\nalpha: 2\nmid: 3\n
err:

test: booleans and null
cmd: yq -c . input
in: t: true\nf: false\nn: null\ntilde: ~\nempty:\n
out: {"t":true,"f":false,"n":null,"tilde":null,"empty":null}\n
err:

test: yaml 1.1 words stay strings
cmd: yq -c . input
in: a: yes\nb: no\nc: on\nd: off\ne: y\nf: True\ng: NULL\n
out: {"a":"yes","b":"no","c":"on","d":"off","e":"y","f":true,"g":null}\n
err:

test: yaml 1.1 words are quoted on output
cmd: yq -y . input
in: a: 'yes'\nb: 'no'\nc: 'on'\nd: 'off'\ne: 'y'\nf: 'true'\ng: 'null'\nh: '~'\n
out: a: 'yes'\nb: 'no'\nc: 'on'\nd: 'off'\ne: y\nf: 'true'\ng: 'null'\nh: '~'\n
err:

test: grammar 1.2 leaves yes unquoted
cmd: yq -y --yaml-output-grammar-version 1.2 . input
in: a: 'yes'\nb: 'on'\nc: 'true'\n
out: a: yes\nb: on\nc: 'true'\n
err:

test: numbers
cmd: yq -c . input
in: i: 42\nneg: -7\nf: 1.5\ne: 1e3\nz: 0\nbig: 12345678901234567890\n
out: {"i":42,"neg":-7,"f":1.5,"e":1000,"z":0,"big":12345678901234567000}\n
err:

test: octal and hex
cmd: yq -c . input
in: o: 0o17\nh: 0x1F\n
out: {"o":15,"h":31}\n
err:

test: special floats
cmd: yq -c . input
in: a: .inf\nb: -.Inf\n
out: {"a":1.7976931348623157e+308,"b":-1.7976931348623157e+308}\n
err:

test: number-like strings are quoted
cmd: yq -y . input
in: a: '123'\nb: '1.5'\nc: '0x10'\nd: ''\ne: '1e3'\n
out: a: '123'\nb: '1.5'\nc: '0x10'\nd: ''\ne: 1e3\n
err:

test: timestamps stay strings
cmd: yq -c . input
in: d: 2024-01-02\nt: 2001-12-14t21:59:43.10-05:00\n
out: {"d":"2024-01-02","t":"2001-12-14t21:59:43.10-05:00"}\n
err:

test: underscore numbers stay strings
cmd: yq -c . input
in: a: 1_000\n
out: {"a":"1_000"}\n
err:

test: quoted strings
cmd: yq -c . input
in: a: "x\\ty"\nb: 'it''s'\nc: "\\u00e9"\n
out: {"a":"x\\ty","b":"it's","c":"é"}\n
err:

test: literal block scalar
cmd: yq -c . input
in: s: |\n  line one\n  line two\n
out: {"s":"line one\\nline two\\n"}\n
err:

test: folded block scalar
cmd: yq -c . input
in: s: >\n  folded\n  text\n\n  para\n
out: {"s":"folded text\\npara\\n"}\n
err:

test: multi-line string output
cmd: yq -y . input
in: s: "line one\\nline two\\n"\n
out: s: 'line one\n\n  line two\n\n  '\n
err:

test: strings needing quotes
cmd: yq -y . input
in: a: 'a: b'\nb: ' lead'\nc: 'trail '\nd: '- x'\ne: '#x'\nf: 'x # y'\ng: '@at'\nh: '!bang'\n
in: i: '*star'\nj: '&amp'\nk: '%pc'\nl: '[x]'\nm: '{x}'\n
out: a: 'a: b'\nb: ' lead'\nc: 'trail '\nd: '- x'\ne: '#x'\nf: 'x # y'\ng: '@at'\nh: '!bang'\n
out: i: '*star'\nj: '&amp'\nk: '%pc'\nl: '[x]'\nm: '{x}'\n
err:

test: single quotes inside
cmd: yq -y . input
in: a: "it's"\nb: "'q'"\n
out: a: it's\nb: '''q'''\n
err:

test: anchors and aliases
cmd: yq -c . input
in: base: &b {x: 1, y: 2}\nuse: *b\nlist: [&v 5, *v]\n
out: {"base":{"x":1,"y":2},"use":{"x":1,"y":2},"list":[5,5]}\n
err:

test: merge keys
cmd: yq -c .derived input
in: base: &b {x: 1, y: 2}\nderived:\n  <<: *b\n  y: 3\n
out: {"x":1,"y":3}\n
err:

test: merge key list
cmd: yq -c .c input
in: a: &a {x: 1}\nb: &b {y: 2}\nc:\n  <<: [*a, *b]\n  z: 3\n
out: {"y":2,"x":1,"z":3}\n
err:

test: explicit tags
cmd: yq -c . input
in: a: !!str 123\nb: !!int "42"\nc: !!float "1"\nd: !custom x\n
out: {"a":"123","b":42,"c":1,"d":"x"}\n
err:

test: empty collections
cmd: yq -y . input
in: a: []\nb: {}\nc: [[]]\n
out: a: []\nb: {}\nc:\n  - []\n
err:

test: nested lists yaml
cmd: yq -y . input
in: - [1, 2]\n- - a\n  - b\n- {k: v}\n
out: - - 1\n  - 2\n- - a\n  - b\n- k: v\n
err:

test: indentless lists
cmd: yq -y --indentless-lists . input
in: a:\n  - 1\n  - b: 2\n    c: 3\n
out: a:\n- 1\n- b: 2\n  c: 3\n
err:

test: list of maps yaml
cmd: yq -y . input
in: - name: a\n  v: 1\n- name: b\n  v: [1, 2]\n
out: - name: a\n  v: 1\n- name: b\n  v:\n    - 1\n    - 2\n
err:

test: bare scalar document
cmd: yq -y .a input
in: a: hello\n
out: hello\n...\n
err:

test: bare number document
cmd: yq -y .a input
in: a: 5\n
out: 5\n...\n
err:

test: null result yaml
cmd: yq -y .missing input
in: a: 5\n
out: null\n...\n
err:

test: several outputs yaml
cmd: yq -y '.[]' input
in: - a: 1\n- b: 2\n
out: a: 1\n---\nb: 2\n
err:

test: several scalar outputs yaml
cmd: yq -y '.[]' input
in: [1, two, 3.5]\n
out: 1\n--- two\n--- 3.5\n...\n
err:

test: long string folds at width
cmd: yq -y . input
in: s: "word0 word1 word2 word3 word4 word5 word6 word7 word8 word9 word10 word11 word12 word13 word14 word15 word16 word17 word18 word19 word20 word21 word22 word23 word24 word25 word26 word27 word28 word29"\n
out: s: word0 word1 word2 word3 word4 word5 word6 word7 word8 word9 word10 word11 word12\n
out:   word13 word14 word15 word16 word17 word18 word19 word20 word21 word22 word23 word24\n
out:   word25 word26 word27 word28 word29\n
err:

test: width option
cmd: yq -y -w 20 . input
in: s: "aaa bbb ccc ddd eee fff ggg hhh iii"\n
out: s: aaa bbb ccc ddd eee\n  fff ggg hhh iii\n
err:

test: unicode output
cmd: yq -y . input
in: s: "h\\u00e9llo \\u4e16\\u754c"\n
out: s: héllo 世界\n
err:

test: ascii output json
cmd: yq -c -a . input
in: s: "h\\u00e9llo"\n
out: {"s":"h\\u00e9llo"}\n
err:

test: float output
cmd: yq -y . input
in: a: 1.0\nb: 0.1\nc: 1e20\nd: 2.5e-7\n
out: a: 1\nb: 0.1\nc: 1.0e+20\nd: 2.5e-07\n
err:

test: arithmetic
cmd: yq -c '.a + .b, .a * 2, (.s | length)' input
in: a: 3\nb: 4\ns: hello\n
out: 7\n6\n5\n
err:

test: update and yaml output
cmd: yq -y '.a.b = 5 | .c += [3]' input
in: a: {b: 1}\nc: [1, 2]\n
out: a:\n  b: 5\nc:\n  - 1\n  - 2\n  - 3\n
err:

test: keys and to_entries
cmd: yq -c 'keys, to_entries' input
in: b: 1\na: 2\n
out: ["a","b"]\n[{"key":"b","value":1},{"key":"a","value":2}]\n
err:

test: in place
cmd: yq -y -i '.v = 2' input && cat input
in: v: 1\nw: [a]\n
out: v: 2\nw:\n  - a\n
err:

test: in place two files
cmd: yq -y -i '.n += 1' a.yaml b.yaml && cat a.yaml b.yaml
file: a.yaml=n: 1\n
file: b.yaml=n: 10\n
out: n: 2\nn: 11\n
err:

test: tab indent json
cmd: yq --tab . input
in: a: [1]\n
out: {\n\t"a": [\n\t\t1\n\t]\n}\n
err:

test: indent 1 json
cmd: yq --indent 1 . input
in: a: [1]\n
out: {\n "a": [\n  1\n ]\n}\n
err:

test: args
cmd: yq -c -n '$ARGS.positional' --args a b
out: ["a","b"]\n
err:

test: comments are dropped
cmd: yq -y . input
in: # top\na: 1 # trailing\n# end\n
out: a: 1\n
err:

test: empty input
cmd: yq -c . input; echo $?
in:
out: 0\n
err:

test: document with only comments
cmd: yq -c . input
in: # nothing\n
out:
err:

test: explicit document end
cmd: yq -c . input
in: a: 1\n...\n---\nb: 2\n...\n
out: {"a":1}\n{"b":2}\n
err:

test: flow style input
cmd: yq -y . input
in: {a: [1, {b: c}], d: "e"}\n
out: a:\n  - 1\n  - b: c\nd: e\n
err:

test: complex keys to strings
cmd: yq -c . input
in: 1: one\ntrue: t\nnull: n\n
out: {"1":"t","null":"n"}\n
err:

test: json input is yaml
cmd: yq -y . input
in: {"a": [1, 2, {"b": null}]}\n
out: a:\n  - 1\n  - 2\n  - b: null\n
err:

test: tojson and fromjson
cmd: yq -c '.a | tojson' input
in: a: {x: [1]}\n
out: "{\\"x\\":[1]}"\n
err:

test: join output
cmd: yq -r '.[]' input
in: [a, b, c]\n
out: a\nb\nc\n
err:

test: string escapes in yaml output
cmd: yq -y . input
in: a: "tab\\there"\nb: "bell\\a"\n
out: a: "tab\\there"\nb: "bell\\a"\n
err:

test: key needing quotes
cmd: yq -y . input
in: 'a b': 1\n'x:y': 2\n'123': 3\n'true': 4\n
out: a b: 1\nx:y: 2\n'123': 3\n'true': 4\n
err:

test: yaml roundtrip flag
cmd: yq -Y . input
in: a: 1\nb:\n  - x\n
out: a: 1\nb:\n  - x\n
err:

test: jq error
cmd: yq -c '.a | keys' input; echo $?
in: a: 1\n
out: 5\n

test: filter from file
cmd: yq -c -f prog input
in: a: 1\n
file: prog=.a + 1\n
out: 2\n
err:

test: slurpfile
cmd: yq -c -n --slurpfile s input '$s'
in: {"a": 1}\n
out: [{"a":1}]\n
err:

test: rawfile
cmd: yq -c -n --rawfile s input '$s'
in: a: 1\n
out: "a: 1\\n"\n
err:

test: merge keys in order
cmd: yq -c .c input
in: a: &a {x: 1}\nb: &b {y: 2, x: 5}\nc:\n  z: 3\n  <<: *a\n  <<: *b\n
out: {"x":5,"y":2,"z":3}\n
err:

test: merge list earlier wins
cmd: yq -c .c input
in: a: &a {x: 1, q: 0}\nb: &b {y: 2, x: 5}\nc:\n  <<: [*a, *b]\n  z: 3\n
out: {"y":2,"x":1,"q":0,"z":3}\n
err:

test: missing file
cmd: yq . nope
out:
err: usage: yq [-h] [--yaml-output] [--yaml-roundtrip]\n
err:           [--yaml-output-grammar-version {1.1,1.2}] [--width WIDTH]\n
err:           [--indentless-lists] [--in-place] [--version]\n
err:           [jq_filter] [files ...]\n
err: yq: error: argument files: can't open 'nope': [Errno 2] No such file or directory: 'nope'\n
status: 2

test: parse error
cmd: yq -c . input
in: a: [1\nb
out:
err: yq: Error running jq: ParserError: while parsing a flow sequence\n
err:   in "input", line 1, column 4\ndid not find expected ',' or ']'\n
err:   in "input", line 3, column 1.\n
status: 1

test: parse error on stdin
cmd: yq -c .
stdin: a: b: c\n
out:
err: yq: Error running jq: ScannerError: mapping values are not allowed in this context\n
err:   in "<stdin>", line 1, column 5.\n
status: 1

test: undefined alias
cmd: yq -c . input
in: a: *x\n
out:
err: yq: Error running jq: ComposerError: found undefined alias\n  in "input", line 1, column 4.\n
status: 1

test: tab in indentation
cmd: yq -c . input
in: a:\n\tb: 1\n
out:
err: yq: Error running jq: ScannerError: while scanning for the next token\n
err: found character that cannot start any token\n  in "input", line 2, column 1.\n
status: 1

test: duplicate keys last wins
cmd: yq -c . input
in: a: 1\nb: 2\na: 3\n
out: {"a":3,"b":2}\n
err:

test: jq compile error
cmd: yq -c '.a |' input; echo $?
in: a: 1\n
host: skip
out: 3\n
err: jq: error: syntax error, unexpected end of file at <top-level>, line 1, column 4:\n
err:     .a |\n
err:        ^\n
err: jq: 1 compile error\n

test: in place keeps other documents
cmd: yq -y -i '.n = 0' input && cat input
in: n: 1\n---\nn: 2\n
out: n: 0\n---\nn: 0\n
err:

# ---- sbx's own behaviour (not kislyuk's) ----------------------------------------------

test: default output is yaml
cmd: yq . input
in: a: 1\nb: [x, {c: d}]\n
# kislyuk/yq prints JSON unless -y; sbx's yq prints YAML by default
host: skip
out: a: 1\nb:\n  - x\n  - c: d\n
err:

test: -j selects json
cmd: yq -j . input
in: a: [1]\n
# kislyuk passes -j to jq as --join-output
host: skip
out: {\n  "a": [\n    1\n  ]\n}\n
err:

test: -o json selects json
cmd: yq -o json -c . input; yq --output-format yaml .a input
in: a: [1]\n
# kislyuk/yq has no -o
host: skip
out: {"a":[1]}\n- 1\n
err:

test: raw strings in yaml mode
cmd: yq -r '.a, .b' input
in: a: hello world\nb: [1]\n
# kislyuk refuses -r with -y; sbx prints strings raw and the rest as YAML
host: skip
out: hello world\n- 1\n
err:

test: version
cmd: yq --version
# sbx's version line
host: skip
out: yq (sbx) 1.0\n
err:

test: unknown option
cmd: yq --bogus .
# the option reaches jq's parser, as kislyuk's does, but kislyuk then runs jq
host: skip
out:
err: jq: Unknown option: --bogus\n
status: 2

test: deep nesting is refused
cmd: printf '%100000s' '' | tr ' ' '[' | yq -c .
# Python's recursion limit words it differently on the host
host: skip
out:
err: yq: Error running jq: RecursionError: maximum nesting depth exceeded.\n
status: 1

test: alias bomb stays shared
cmd: yq -c '.l | length' input
in: a: &a [x,x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\n
in: c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\n
in: e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e,*e]\n
in: g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f,*f]\nh: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g,*g]\n
in: i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h,*h]\nj: &j [*i,*i,*i,*i,*i,*i,*i,*i,*i,*i]\n
in: k: &k [*j,*j,*j,*j,*j,*j,*j,*j,*j,*j]\nl: &l [*k,*k,*k,*k,*k,*k,*k,*k,*k,*k]\n
# anchors are shared values (10^12 leaves): kislyuk converts the whole document to JSON
host: skip
out: 10\n
err:

test: alias bomb output stops at the pipe
cmd: yq -c . input | head -c 30; echo
in: a: &a [x,x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\n
in: c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\n
in: e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e,*e]\n
in: g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f,*f]\nh: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g,*g]\n
in: i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h,*h]\nj: &j [*i,*i,*i,*i,*i,*i,*i,*i,*i,*i]\n
# kislyuk converts the whole document to JSON first
host: skip
out: {"a":["x","x","x","x","x","x",\n
err:

test: modules are refused
cmd: yq -c 'import "x" as x; .' input
in: a: 1\n
# the sandbox has no module search path (jq's words, as kislyuk's jq errors are)
host: skip
out:
err: jq: error: modules (import, include, module) are not available in the sandbox\njq: 1 compile error\n
status: 3

# -i without a file used files[0] (a NULL pointer: segfault; found by tests/cmd/crashhunt.py)
test: in-place needs a file
cmd: echo 1 | yq -y -i .
out:
err: yq: -i/--in-place can only be used with filename arguments, not on standard input\n
status: 1
