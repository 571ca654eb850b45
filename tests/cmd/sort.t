# sort: orderings, keys, last-resort comparison, -u/-s/-c/-m/-o, errors.

test: default byte order
cmd: sort input
in: banana\napple\nCherry\n_x\n10\n9\n\xc3\xa9\nZ\n
out: 10\n9\nCherry\nZ\n_x\napple\nbanana\né\n

test: stdin
cmd: printf 'b\na\nc\n' | sort
out: a\nb\nc\n

test: missing final newline added
cmd: sort input
in: b\na
out: a\nb\n

test: empty input
cmd: sort input
in:
out:

test: empty lines sort first
cmd: sort input
in: b\n\na\n\n
out: \n\na\nb\n

test: reverse
cmd: sort -r input
in: a\nc\nb\n
out: c\nb\na\n

test: several files joined
cmd: sort a b
file: a=z\nb
file: b=y\na\n
out: a\nb\ny\nz\n

test: nul bytes in lines
cmd: printf 'a\0c\na\0b\na\n' | sort | od -c
out: 0000000   a  \\n   a  \\0   b  \\n   a  \\0   c  \\n\n0000012\n

test: high bytes after ascii
cmd: sort input
in: \xff\n\x80\na\n\x7f\n
out: a\n\x7f\n\x80\n\xff\n

test: numeric
cmd: sort -n input
in: 10\n9\n-1\n1.5\n0\n-0\n+1\n 2\n1e3\nabc\n\n
out: -1\n\n+1\n-0\n0\nabc\n1e3\n1.5\n 2\n9\n10\n

test: numeric ties use whole line
cmd: sort -n input
in: 1b\n01\n1a\n1\n
out: 01\n1\n1a\n1b\n

test: numeric stable keeps input order
cmd: sort -ns input
in: 1b\n01\n1a\n1\n
out: 1b\n01\n1a\n1\n

test: numeric reverse reverses ties too
cmd: sort -nr input
in: 1b\n2\n1a\n
out: 2\n1b\n1a\n

test: numeric long numbers exact
cmd: sort -n input
in: 123456789012345678901234567890\n123456789012345678901234567891\n99999999999999999999\n-123456789012345678901234567890\n
out: -123456789012345678901234567890\n99999999999999999999\n
out: 123456789012345678901234567890\n
out: 123456789012345678901234567891\n

test: numeric fractions
cmd: sort -n input
in: 1.10\n1.9\n1.09\n.5\n-.5\n0.50\n-0.0\n
out: -.5\n-0.0\n.5\n0.50\n1.09\n1.10\n1.9\n

test: numeric negative zero forms
cmd: sort -n input
in: -0\n0\n-.0\n.0\n-\n-a\n0.0\n
out: -\n-.0\n-0\n-a\n.0\n0\n0.0\n

test: numeric with thousands separator is not grouped
cmd: sort -n input
in: 1,000\n999\n2\n
out: 1,000\n2\n999\n

test: general numeric
cmd: sort -g input
in: 1e3\n100\n0x10\n-inf\ninf\nnan\n1.5\nabc\n\n-2\n+3\n
out: \nabc\nnan\n-inf\n-2\n1.5\n+3\n0x10\n100\n1e3\ninf\n

test: general numeric nan sign
cmd: sort -g input
in: 1\n-nan\nnan\n-1\n
out: nan\n-nan\n-1\n1\n

test: human numeric
cmd: sort -h input
in: 1K\n2k\n1M\n1G\n-1K\n-2M\n0K\n1.5K\n1\n1000\n2T\n1E\n3Y\n1Q\n
out: -2M\n-1K\n0K\n1\n1Q\n1000\n1K\n1.5K\n2k\n1M\n1G\n2T\n1E\n3Y\n

test: month
cmd: sort -M input
in: mar\njan\nFEB\n dec\nxyz\nDecember\nJu\n
out: Ju\nxyz\njan\nFEB\nmar\n dec\nDecember\n

test: month reverse
cmd: sort -Mr input
in: jan\nfeb\nmar\n
out: mar\nfeb\njan\n

test: version
cmd: sort -V input
in: a-1.10\na-1.2\na-1.2~rc1\nfoo.tar.gz\nfoo-1.0.tar.gz\nfoo-1.10.tar.gz\n.a\n..\n.\nfile10\nfile9\nfile010\nv1.0\nv1.0.0\n~\n\n
out: \n.\n..\n.a\n~\na-1.2~rc1\na-1.2\na-1.10\nfile9\nfile010\nfile10\n
out: foo.tar.gz\nfoo-1.0.tar.gz\nfoo-1.10.tar.gz\nv1.0\nv1.0.0\n

test: version suffixes
cmd: sort -V input
in: x.1.tar.gz\nx.10.tar.gz\nx.2.tar.gz\nx.2a\nx.2.a\n
out: x.1.tar.gz\nx.2.a\nx.2.tar.gz\nx.2a\nx.10.tar.gz\n

test: fold case
cmd: sort -f input
in: b\nB\na\nA\nc\n
out: A\na\nB\nb\nc\n

test: fold case stable
cmd: sort -fs input
in: b\nB\na\nA\nc\n
out: a\nA\nb\nB\nc\n

test: dictionary order
cmd: sort -d input
in: a-c\nab\na c\n_b\n.a\n
out: .a\na c\nab\na-c\n_b\n

test: ignore nonprinting
cmd: sort -i input
in: \x01b\na\n\x02a\n\xc3\xa9c\n
out: \x02a\na\n\x01b\néc\n

test: ignore leading blanks
cmd: sort -b input
in:   b\na\n c\n\tb\n
out: a\n\tb\n  b\n c\n

test: leading blanks significant by default
cmd: sort input
in:   b\na\n c\n
out:   b\n c\na\n

test: unique
cmd: sort -u input
in: b\na\nb\na\nc\n
out: a\nb\nc\n

test: unique numeric keeps first of run
cmd: sort -nu input
in: 1b\n2\n01\n1a\n2x\n
out: 1b\n2\n

test: unique fold case
cmd: sort -fu input
in: b\nB\na\nA\n
out: a\nb\n

test: unique reverse
cmd: sort -ur input
in: a\nb\na\n
out: b\na\n

test: key field
cmd: sort -k2 input
in: x b\ny a\nz c\n
out: y a\nx b\nz c\n

test: key field only
cmd: sort -k2,2 input
in: x b 2\ny b 1\nz a 3\n
out: z a 3\nx b 2\ny b 1\n

test: key numeric
cmd: sort -k2n input
in: a 10\nb 9\nc 100\n
out: b 9\na 10\nc 100\n

test: key numeric reverse
cmd: sort -k2,2nr input
in: a 10\nb 9\nc 100\n
out: c 100\na 10\nb 9\n

test: two keys
cmd: sort -k2,2 -k1,1r input
in: a x\nb y\nc x\nd y\n
out: c x\na x\nd y\nb y\n

test: separator
cmd: sort -t: -k2 input
in: a:3\nb:1\nc:2\n
out: b:1\nc:2\na:3\n

test: separator numeric third field
cmd: sort -t, -k3,3n input
in: a,b,10\nc,d,2\ne,f,-1\n
out: e,f,-1\nc,d,2\na,b,10\n

test: separator empty fields
cmd: sort -t: -k2,2 input
in: a::z\nb:x:y\nc::a\n
out: a::z\nc::a\nb:x:y\n

test: key char positions
cmd: sort -k1.2,1.3 input
in: axyb\nbabc\ncaaa\n
out: caaa\nbabc\naxyb\n

test: key char without -b counts blanks
cmd: sort -k2.1,2.1 input
in: a  y\nb z\nc x\n
out: a  y\nb z\nc x\n

test: key char with b
cmd: sort -k2.1b,2.1 input
in: a  y\nb z\nc x\n
out: a  y\nb z\nc x\n

test: key global b applies to key
cmd: sort -b -k2,2 input
in: a  y\nb z\nc x\n
out: c x\na  y\nb z\n

test: key own options block inheritance
cmd: sort -r -k2,2n input
in: a 2\nb 1\nc 3\n
out: b 1\na 2\nc 3\n

test: key inherits reverse
cmd: sort -r -k2,2 input
in: a 2\nb 1\nc 3\n
out: c 3\na 2\nb 1\n

test: key past end of line
cmd: sort -k3 input
in: b\na\nc x y\n
out: a\nb\nc x y\n

test: key end before start
cmd: sort -k2.5,2.1 input
in: b x\na y\n
out: a y\nb x\n

test: key end char beyond field
cmd: sort -t: -k1,1.10 input
in: b:1\na:2\n
out: a:2\nb:1\n

test: key with end at field char
cmd: sort -k1.1,1.1 -k2n input
in: ab 2\naa 1\nb 0\n
out: aa 1\nab 2\nb 0\n

test: stable with key
cmd: sort -s -k1,1 input
in: b 2\na 2\nb 1\na 1\n
out: a 2\na 1\nb 2\nb 1\n

test: last resort whole line
cmd: sort -k1,1 input
in: b 2\na 2\nb 1\na 1\n
out: a 1\na 2\nb 1\nb 2\n

test: tab separator
cmd: printf 'a\tz\nb\ty\n' | sort -t "$(printf '\t')" -k2
out: b\ty\na\tz\n

test: nul separator
cmd: printf 'b\0002\na\0001\n' | sort -t '\0' -k2 | od -c
out: 0000000   a  \\0   1  \\n   b  \\0   2  \\n\n0000010\n

test: zero terminated
cmd: printf 'b\0a\0c' | sort -z | od -c
out: 0000000   a  \\0   b  \\0   c  \\0\n0000006\n

test: zero terminated keys see newlines as blanks
cmd: printf 'x\nb\0y\na\0' | sort -z -k2 | od -c
out: 0000000   y  \\n   a  \\0   x  \\n   b  \\0\n0000010\n

test: random groups identical keys
cmd: sort -R input | uniq -c | sort -n | awk '{print $1}'
in: a\nb\na\nb\na\nc\n
out: 1\n2\n3\n

test: random keeps all lines
cmd: seq 100 | sort -R | sort -n | md5sum
out: d632eba71107bf7bc3ec423eab256d78  -\n

test: sort word numeric
cmd: sort --sort=numeric input
in: 10\n9\n
out: 9\n10\n

test: sort word abbreviated
cmd: sort --sort=gen input
in: 10\n9\n1e0\n
out: 1e0\n9\n10\n

test: sort word invalid
cmd: sort --sort=x input
in: x
out:
err: sort: invalid argument ‘x’ for ‘--sort’\n
err: Valid arguments are:\n  - ‘general-numeric’\n
err:   - ‘human-numeric’\n  - ‘month’\n  - ‘numeric’\n
err:   - ‘random’\n  - ‘version’\n
err: Try 'sort --help' for more information.\n
status: 1

test: check sorted
cmd: sort -c input
in: a\nb\nb\n
out:

test: check disorder
cmd: sort -c input
in: a\nc\nb\n
out:
err: sort: input:3: disorder: b\n
status: 1

test: check disorder stdin
cmd: printf 'b\na\n' | sort -c
out:
err: sort: -:2: disorder: a\n
status: 1

test: check quiet
cmd: sort -C input
in: b\na\n
out:
err:
status: 1

test: check long option quiet
cmd: sort --check=quiet input
in: b\na\n
out:
err:
status: 1

test: check unique strict
cmd: sort -cu input
in: a\nb\nb\n
out:
err: sort: input:3: disorder: b\n
status: 1

test: check numeric
cmd: sort -cn input
in: 9\n10\n
out:

test: check with two files
cmd: sort -c a b
file: a=a\n
file: b=b\n
out:
err: sort: extra operand 'b' not allowed with -c\n
status: 2

test: merge
cmd: sort -m a b
file: a=a\nc\ne\n
file: b=b\nd\nf\n
out: a\nb\nc\nd\ne\nf\n

test: merge ties prefer first file
cmd: sort -m -k1,1 a b
file: a=x 1\n
file: b=x 2\n
out: x 1\nx 2\n

test: merge unsorted input is not sorted
cmd: sort -m a b
file: a=c\na\n
file: b=b\n
out: b\nc\na\n

test: merge unique
cmd: sort -mu a b
file: a=a\nb\n
file: b=a\nc\n
out: a\nb\nc\n

test: output file
cmd: sort -o out input; cat out
in: b\na\n
out: a\nb\n

test: output to input file
cmd: sort -o input input; cat input
in: b\na\nc\n
out: a\nb\nc\n

test: output to missing directory
cmd: sort -o nodir/x input
in: a\n
out:
err: sort: open failed: nodir/x: No such file or directory\n
status: 2

test: missing input
cmd: sort nope
out:
err: sort: cannot read: nope: No such file or directory\n
status: 2

test: missing input among others outputs nothing
cmd: sort input nope
in: a\n
out:
err: sort: cannot read: nope: No such file or directory\n
status: 2

test: directory input
cmd: mkdir d; sort d
out:
err: sort: read failed: d: Is a directory\n
status: 2

test: key field zero
cmd: sort -k0 input
in: a\n
out:
err: sort: field number is zero: invalid field specification ‘0’\n
status: 2

test: key char zero
cmd: sort -k1.0 input
in: a\n
out:
err: sort: character offset is zero: invalid field specification ‘1.0’\n
status: 2

test: key end field zero
cmd: sort -k1,0 input
in: a\n
out:
err: sort: field number is zero: invalid field specification ‘1,0’\n
status: 2

test: key stray character
cmd: sort -k1x input
in: a\n
out:
err: sort: stray character in field spec: invalid field specification ‘1x’\n
status: 2

test: key not a number
cmd: sort -k a input
in: a\n
out:
err: sort: invalid number at field start: invalid count at start of ‘a’\n
status: 2

test: key bad end
cmd: sort -k1,a input
in: a\n
out:
err: sort: invalid number after ',': invalid count at start of ‘a’\n
status: 2

test: key bad char
cmd: sort -k1.a input
in: a\n
out:
err: sort: invalid number after '.': invalid count at start of ‘a’\n
status: 2

test: multi-character tab
cmd: sort -t ab input
in: a\n
out:
err: sort: multi-character tab ‘ab’\n
status: 2

test: empty tab
cmd: sort -t '' input
in: a\n
out:
err: sort: empty tab\n
status: 2

test: incompatible tabs
cmd: sort -t a -t b input
in: a\n
out:
err: sort: incompatible tabs\n
status: 2

test: incompatible orderings
cmd: sort -gn input
in: a\n
out:
err: sort: options '-gn' are incompatible\n
status: 2

test: incompatible key orderings
cmd: sort -k1dn input
in: a\n
out:
err: sort: options '-dn' are incompatible\n
status: 2

test: compatible month blank
cmd: sort -k1Mb input
in: feb\njan\n
out: jan\nfeb\n

test: buffer size accepted
cmd: sort -S 10M input
in: b\na\n
out: a\nb\n

test: buffer size invalid
cmd: sort -S x input
in: a\n
out:
err: sort: invalid -S argument 'x'\n
status: 2

test: parallel accepted
cmd: sort --parallel=4 input
in: b\na\n
out: a\nb\n

test: parallel zero
cmd: sort --parallel=0 input
in: a\n
out:
err: sort: number in parallel must be nonzero\n
status: 2

test: temporary directory accepted
cmd: sort -T /nonexistent input
in: b\na\n
out: a\nb\n

test: invalid option
cmd: sort -x
out:
err: sort: invalid option -- 'x'\n
err: Try 'sort --help' for more information.\n
status: 2

test: obsolete key syntax
cmd: sort +1 -2 input
in: a 2\nb 1\n
out: b 1\na 2\n

test: files0-from
cmd: printf 'a\0b\0' > list; sort --files0-from=list
file: a=z\nx\n
file: b=y\n
out: x\ny\nz\n

test: big input
cmd: seq 100000 | sort | tail -n 3
out: 99997\n99998\n99999\n

test: big input numeric reverse
cmd: seq 100000 | sort -nr | head -n 3
out: 100000\n99999\n99998\n

test: many equal keys stable
cmd: seq 50000 | sort -s -k1.1,1.1 | head -n 4
out: 1\n10\n11\n12\n

test: long line
cmd: { head -c 200000 /dev/zero | tr '\0' b; echo; echo a; } | sort | cut -c1-3
out: a\nbbb\n

test: check invalid argument
cmd: sort --check=x input
in: a\n
out:
err: sort: invalid argument ‘x’ for ‘--check’\n
err: Valid arguments are:\n  - ‘quiet’, ‘silent’\n
err:   - ‘diagnose-first’\n
err: Try 'sort --help' for more information.\n
status: 1

# ---- the radix path of the plain sort ----

test: radix lines sharing prefixes past 128 bytes
cmd: p=$(printf '%0200d' 0); printf "${p}b\n${p}a\n${p}\n${p}ab\n" | sort | cut -c 200-
out: 0\n0a\n0ab\n0b\n

test: radix -u and -r with long shared prefixes
cmd: p=$(printf '%0150d' 0); printf "${p}x\n${p}x\n${p}\n${p}y\n" | sort -u | cut -c 150-; printf "${p}x\n${p}\n${p}y\n" | sort -r | cut -c 150-
out: 0\n0x\n0y\n0y\n0x\n0\n

test: radix lengths around the 8-byte window and NULs
cmd: printf 'abcdefgh\nabcdefg\nabcdefghi\nabcdefgh\n\nabcdefg\0\nabcdefg\0a\n' | sort
out: \nabcdefg\nabcdefg\0\nabcdefg\0a\nabcdefgh\nabcdefgh\nabcdefghi\n

test: radix many lines
cmd: seq 100000 | sort | head -3; seq 100000 | sort | tail -1; seq 100000 | sort -r | head -2
out: 1\n10\n100\n99999\n99999\n99998\n

test: radix -u over many duplicates
cmd: seq 50000 | sed 's/.*0$/same/' | sort -u | wc -l; seq 3000 | sort -ru | head -1
out: 45001\n999\n

test: radix no final newline
cmd: printf 'b\na' | sort; printf 'b\na' | sort -r
out: a\nb\nb\na\n

test: radix high bytes and invalid UTF-8 sort bytewise
cmd: printf '\xff\na\n\x80\n\xc3\xa9\nz\n' | sort | od -An -c
out:    a  \\n   z  \\n 200  \\n 303 251  \\n 377  \\n\n

# --files0-from errors
test: files0-from missing list
cmd: sort --files0-from=nolist
out:
err: sort: open failed: nolist: No such file or directory\n
status: 2

test: files0-from missing list quoted
cmd: sort --files0-from='no list'
out:
err: sort: open failed: 'no list': No such file or directory\n
status: 2

test: files0-from missing member
cmd: printf 'nope\0' | sort --files0-from=-
out:
err: sort: cannot read: nope: No such file or directory\n
status: 2

# --debug: notes on stderr, underlined keys on stdout
test: debug whole line
cmd: sort --debug input
in: b 2\na\t10\n\n
out: \n^ no match for key\na>10\n____\nb 2\n___\n
err: sort: text ordering performed using ‘C.UTF-8’ sorting rules\n

test: debug numeric key spanning fields
cmd: sort --debug -k2n input
in: b 2\na 10\nc x\n
out: c x\n  ^ no match for key\n___\nb 2\n  _\n___\na 10\n  __\n____\n
err: sort: text ordering performed using ‘C.UTF-8’ sorting rules\n
err: sort: key 1 is numeric and spans multiple fields\n
err: sort: note numbers use ‘.’ as a decimal point in this locale\n

test: debug separator and two keys
cmd: sort --debug -t' ' -k2,2n -k1 input
in: b 2\na 10\n
out: b 2\n  _\n___\n___\na 10\n  __\n____\n____\n
err: sort: text ordering performed using ‘C.UTF-8’ sorting rules\n
err: sort: note numbers use ‘.’ as a decimal point in this locale\n

test: debug global numeric reverse
cmd: sort --debug -n -r input
in: x 1\n-2.5e3 y\n 7K\n
out:  7K\n _\n___\nx 1\n^ no match for key\n___\n-2.5e3 y\n____\n________\n
err: sort: text ordering performed using ‘C.UTF-8’ sorting rules\n
err: sort: note numbers use ‘.’ as a decimal point in this locale\n

test: debug stable unique no last resort
cmd: sort --debug -u -s -k1,1 input
in: b 2\na 1\nb 3\n
out: a 1\n_\nb 2\n_\n
err: sort: text ordering performed using ‘C.UTF-8’ sorting rules\n
err: sort: leading blanks are significant in key 1; consider also specifying 'b'\n

test: debug obsolescent keys
cmd: sort --debug +0.1 -1.2 input; sort --debug +1.1b -2n input
in: b 2\na\t10\n
out: a>10\n __\n____\nb 2\n __\n___\na>10\n   _\n____\nb 2\n   ^ no match for key\n___\n
err: sort: text ordering performed using ‘C.UTF-8’ sorting rules\n
err: sort: obsolescent key ‘+0 -2’ used; consider ‘-k 1,2’ instead\n
err: sort: leading blanks are significant in key 1; consider also specifying 'b'\n
err: sort: text ordering performed using ‘C.UTF-8’ sorting rules\n
err: sort: obsolescent key ‘+1 -2’ used; consider ‘-k 2,2’ instead\n
err: sort: note numbers use ‘.’ as a decimal point in this locale\n

test: debug key warnings
cmd: sort --debug -k2,1 -k1.2,1.3 -k1.2b,2.3 -k2.1,2.2b input >/dev/null
in: a\n
out:
err: sort: text ordering performed using ‘C.UTF-8’ sorting rules\n
err: sort: key 1 has zero width and will be ignored\n
err: sort: leading blanks are significant in key 3; consider also specifying 'b'\n
err: sort: leading blanks are significant in key 4; consider also specifying 'b'\n

test: debug ignored options
cmd: sort --debug -fd -k1,1n input >/dev/null; sort --debug -s -r -k1,1n input >/dev/null; sort --debug -r -k1,1n input > /dev/null
in: a\n
out:
err: sort: text ordering performed using ‘C.UTF-8’ sorting rules\n
err: sort: note numbers use ‘.’ as a decimal point in this locale\n
err: sort: options '-df' are ignored\n
err: sort: text ordering performed using ‘C.UTF-8’ sorting rules\n
err: sort: note numbers use ‘.’ as a decimal point in this locale\n
err: sort: option '-r' is ignored\n
err: sort: text ordering performed using ‘C.UTF-8’ sorting rules\n
err: sort: note numbers use ‘.’ as a decimal point in this locale\n
err: sort: option '-r' only applies to last-resort comparison\n

test: debug separators inside numbers
cmd: sort --debug -t. -k1n input >/dev/null; sort --debug -t. -k1,1n input >/dev/null
cmd: sort --debug -t- -k1g input >/dev/null; sort --debug -t+ -k1g input >/dev/null
in: a\n
out:
err: sort: text ordering performed using ‘C.UTF-8’ sorting rules\n
err: sort: key 1 is numeric and spans multiple fields\n
err: sort: field separator ‘.’ is treated as a decimal point in numbers\n
err: sort: text ordering performed using ‘C.UTF-8’ sorting rules\n
err: sort: numbers use ‘.’ as a decimal point in this locale\n
err: sort: text ordering performed using ‘C.UTF-8’ sorting rules\n
err: sort: key 1 is numeric and spans multiple fields\n
err: sort: field separator ‘-’ is treated as a minus sign in numbers\n
err: sort: note numbers use ‘.’ as a decimal point in this locale\n
err: sort: text ordering performed using ‘C.UTF-8’ sorting rules\n
err: sort: key 1 is numeric and spans multiple fields\n
err: sort: field separator ‘+’ is treated as a plus sign in numbers\n
err: sort: note numbers use ‘.’ as a decimal point in this locale\n

test: debug month human general and wide characters
cmd: sort --debug -M input; sort --debug -k2h input 2>/dev/null; sort --debug -k2,2g input 2>/dev/null
in:  jan 5K\tx\nFEB\t1Q 日本\n-3e2M 0x1p3\n
out: -3e2M 0x1p3\n^ no match for key\n___________\n jan 5K>x\n ___\n_________\nFEB>1Q 日本\n___\n___________\n
out: -3e2M 0x1p3\n      _\n___________\nFEB>1Q 日本\n    _\n___________\n jan 5K>x\n     __\n_________\n
out: FEB>1Q 日本\n    _\n___________\n jan 5K>x\n     _\n_________\n-3e2M 0x1p3\n      _____\n___________\n
err: sort: text ordering performed using ‘C.UTF-8’ sorting rules\n

test: debug zero terminated and merge
cmd: printf 'b\0a\tc\0' | sort --debug -z 2>/dev/null; printf 'a\nc\n' > f; printf 'b\n' | sort --debug -m f - 2>/dev/null
out: a>c\n___\nb\n_\na\n_\nb\n_\nc\n_\n

test: debug with check or output
cmd: sort --debug -c input; echo $?; sort --debug -C input; echo $?; sort --debug -o out input; echo $?
in: a\n
out: 2\n2\n2\n
err: sort: options '-c --debug' are incompatible\nsort: options '-C --debug' are incompatible\nsort: options '-o --debug' are incompatible\n

test: ambiguous prefixes name their possibilities in GNU's order
cmd: sort --d f; sort --m f; sort --r f; sort --h f
out:
err: sort: option '--d' is ambiguous; possibilities: '--debug' '--dictionary-order'\nTry 'sort --help' for more information.\nsort: option '--m' is ambiguous; possibilities: '--merge' '--month-sort'\nTry 'sort --help' for more information.\nsort: option '--r' is ambiguous; possibilities: '--random-sort' '--random-source' '--reverse'\nTry 'sort --help' for more information.\nsort: option '--h' is ambiguous; possibilities: '--human-numeric-sort' '--help'\nTry 'sort --help' for more information.\n
status: 2

test: long options abbreviated, long-only ones among them
cmd: printf 'b 2\na 10\nc 1\n' > f; sort --rev --ke=2,2 --numeric f; sort --field-s=' ' --ke 2 --st --so=num f -o g; cat g; sort --che=quiet g; echo $?; seq 3 > src; sort --random-so src -R f > x; sort --random-so=src --random-sor f | cmp - x && echo same
out: a 10\nb 2\nc 1\nc 1\nb 2\na 10\n1\nsame\n
