# split: pieces by lines, bytes, line-bytes and chunks, with GNU names.

test: lines
cmd: seq 10 > f; split -l 3 f; for x in x*; do echo "$x: $(cat $x | tr '\n' ' ')"; done
out: xaa: 1 2 3 \nxab: 4 5 6 \nxac: 7 8 9 \nxad: 10 \n

test: default 1000 lines
cmd: seq 2500 | split; wc -l x*
out:  1000 xaa\n 1000 xab\n  500 xac\n 2500 total\n

test: bytes numeric prefix
cmd: seq 10 > f; split -b 5 -d f pre; ls pre*; cat pre01
out: pre00\npre01\npre02\npre03\npre04\n\n4\n5\n

test: bytes suffix
cmd: seq 1000 | split -b 1k; wc -c x*
out: 1024 xaa\n1024 xab\n1024 xac\n 821 xad\n3893 total\n

test: chunks
cmd: seq 10 > f; split -n 3 f; wc -c x*
out:  7 xaa\n 7 xab\n 7 xac\n21 total\n

test: line chunks
cmd: seq 10 > f; split -n l/3 f; wc -l x*
out:  4 xaa\n 3 xab\n 3 xac\n10 total\n

test: line chunks long line
cmd: printf 'aaaaaaaaaa\nb\nc\n' > f; split -n l/3 f; wc -c x*
out: 11 xaa\n 0 xab\n 4 xac\n15 total\n

test: line chunks elide empty
cmd: printf 'aaaaaaaaaa\nb\nc\n' > f; split -n l/3 -e f; ls x*
out: xaa\nxab\n

test: round robin
cmd: seq 10 > f; split -n r/3 f; head x*
out: ==> xaa <==\n1\n4\n7\n10\n\n==> xab <==\n2\n5\n8\n\n==> xac <==\n3\n6\n9\n

test: round robin stdin
cmd: seq 7 | split -n r/2; head x*
out: ==> xaa <==\n1\n3\n5\n7\n\n==> xab <==\n2\n4\n6\n

test: extract chunk
cmd: seq 10 > f; split -n 2/3 f; echo '|'; split -n l/2/3 f; echo '|'; split -n r/2/3 f
out: \n5\n6\n7\n|\n5\n6\n7\n|\n2\n5\n8\n

test: line bytes
cmd: seq 10 > f; split -C 6 f; wc -c x*
out:  6 xaa\n 6 xab\n 6 xac\n 3 xad\n21 total\n

test: line bytes long line
cmd: printf 'aaaaaaaaaa\nb\nc\n' > f; split -C 4 f; for x in x*; do printf '%s=' $x; od -An -c $x | tr -s ' '; done
out: xaa= a a a a\nxab= a a a a\nxac= a a \\n\nxad= b \\n c \\n\n

test: suffix length
cmd: seq 10 > f; split -a 1 -l 1 f; ls
out: f\nxa\nxb\nxc\nxd\nxe\nxf\nxg\nxh\nxi\nxj\n

test: suffixes exhausted
cmd: seq 30 > f; split -a 1 -l 1 f; echo "rc=$?"; ls x* | wc -l
out: rc=1\n26\n
err: split: output file suffixes exhausted\n

test: suffix widening
cmd: seq 700 | split -l 1; ls | head -n 652 | tail -n 4; ls | tail -n 2
out: xyy\nxyz\nxzaaa\nxzaab\nxzabw\nxzabx\n

test: numeric suffix widening
cmd: seq 120 | split -d -l 1; ls | head -n 91 | tail -n 2
out: x89\nx9000\n

test: additional suffix
cmd: seq 10 > f; split --additional-suffix=.txt -l 5 f; ls x*
out: xaa.txt\nxab.txt\n

test: numeric from
cmd: seq 10 > f; split --numeric-suffixes=5 -l 5 f; ls x*
out: x05\nx06\n

test: numeric from exhausted
cmd: seq 10 > f; split --numeric-suffixes=99 -l 5 f; echo "rc=$?"; ls x*
out: rc=1\nx99\n
err: split: output file suffixes exhausted\n

test: hex suffixes
cmd: seq 40 | split -x -l 2; ls | tail -n 3
out: x11\nx12\nx13\n

test: elide empty chunks
cmd: seq 10 > f; split -e -n 30 f; ls x* | wc -l
out: 21\n

test: chunks on empty file
cmd: : > f; split -n 3 f; ls x*
out: xaa\nxab\nxac\n

test: lines on empty input
cmd: : | split -l 2; ls | wc -l
out: 0\n

test: separator
cmd: printf 'a,b,c' > f; split -t , -l 1 f; for x in x*; do echo "$x=$(cat $x)"; done
out: xaa=a,\nxab=b,\nxac=c\n

test: verbose
cmd: seq 10 > f; split --verbose -l 5 f
out: creating file 'xaa'\ncreating file 'xab'\n

test: obsolete lines
cmd: seq 10 > f; split -5 f; ls x*
out: xaa\nxab\n

test: prefix from stdin
cmd: seq 4 | split -l 2 - part; ls part*
out: partaa\npartab\n

test: zero lines
cmd: split -l 0 f
out:
err: split: invalid number of lines: ‘0’: Numerical result out of range\n
status: 1

test: zero chunks
cmd: split -n 0 f
out:
err: split: invalid number of chunks: ‘0’: Numerical result out of range\n
status: 1

test: invalid lines
cmd: split -l x f
out:
err: split: invalid number of lines: ‘x’\n
status: 1

test: invalid bytes
cmd: split -b 2x f
out:
err: split: invalid number of bytes: ‘2x’\n
status: 1

test: chunk out of range
cmd: seq 10 > f; split -n 5/3 f
out:
err: split: invalid chunk number: ‘5’: Numerical result out of range\n
status: 1

test: two ways
cmd: split -l 2 -b 3 f
out:
err: split: cannot split in more than one way\n
err: Try 'split --help' for more information.\n
status: 1

test: chunks need a size
cmd: seq 10 | split -n 3
out:
err: split: -: cannot determine file size\n
status: 1

test: missing input
cmd: split nope
out:
err: split: cannot open 'nope' for reading: No such file or directory\n
status: 1

test: short suffix for chunks
cmd: seq 10 > f; split -a 1 -n 30 f
out:
err: split: the suffix length needs to be at least 2\n
status: 1

test: more chunks than bytes
cmd: seq 10 > f; split -n 30 f; wc -c x* | head -n 23 | tail -n 3; split -n 2/30 f | od -c
out:  1 xau\n 0 xav\n 0 xaw\n0000000  \\n\n0000001\n

test: more line chunks than bytes
cmd: seq 10 > f; split -n l/30 f; wc -c x* | head -n 4
out:  2 xaa\n 0 xab\n 2 xac\n 0 xad\n

# --filter=COMMAND: each piece goes to COMMAND's stdin with $FILE set
test: filter with FILE
cmd: seq 5 | split -l2 --filter='cat; echo "[$FILE]"'; ls
out: 1\n2\n[xaa]\n3\n4\n[xab]\n5\n[xac]\n

test: filter writes files itself
cmd: seq 5 | split -d -l2 --filter='cat > $FILE.part'; ls; cat x01.part
out: x00.part\nx01.part\nx02.part\n3\n4\n

test: filter verbose
cmd: seq 4 | split -l1 -a1 --verbose --additional-suffix=.txt --filter='cat >/dev/null'
out: executing with FILE=xa.txt\nexecuting with FILE=xb.txt\nexecuting with FILE=xc.txt\nexecuting with FILE=xd.txt\n

test: filter that reads part of its piece
cmd: seq 1000 | split -l 100 --filter='head -n 1'
out: 1\n101\n201\n301\n401\n501\n601\n701\n801\n901\n

test: filter that reads nothing
cmd: seq 100000 | split -l 50000 --filter='echo $FILE'; echo $?
out: xaa\nxab\n0\n

test: filter with byte chunks
cmd: seq 5 > f; split -n2 --filter='wc -c' f; split -n l/2 -e --filter='tr "\n" ,; echo' f
out: 5\n5\n1,2,3,\n4,5,\n

test: filter round robin
cmd: seq 10 | split -n r/3 --filter='tr "\n" " " > $FILE.o'; cat xaa.o; echo; cat xab.o; echo; cat xac.o; echo
out: 1 4 7 10 \n2 5 8 \n3 6 9 \n

test: filter exit status
cmd: seq 3 | split -l1 -a1 --filter='exit 3'
out:
err: split: with FILE=xa, exit 3 from command: exit 3\n
status: 3

test: filter failing later piece
cmd: seq 3 | split -l1 -a1 --filter='read x; echo $x; test "$x" != 2'
out: 1\n2\n
err: split: with FILE=xb, exit 1 from command: read x; echo $x; test "$x" != 2\n
status: 1

test: filter with chunk to stdout
cmd: seq 5 > f; split -n 2/3 --filter=cat f
out:
err: split: --filter does not process a chunk extracted to stdout\nTry 'split --help' for more information.\n
status: 1

# -n 2^63 made 2^63 empty chunks (a hang); GNU caps N at OFF_T_MAX (found by tests/cmd/crashhunt.py)
test: number of chunks too large
cmd: split -n 9223372036854775808 input
in: 1\n
out:
err: split: invalid number of chunks: ‘9223372036854775808’: Value too large for defined data type\n
status: 1

test: --l and --n are ambiguous, named in GNU's order
cmd: split --l 1 f; split --n 2 f
out:
err: split: option '--l' is ambiguous; possibilities: '--lines' '--line-bytes'\nTry 'split --help' for more information.\nsplit: option '--n' is ambiguous; possibilities: '--number' '--numeric-suffixes'\nTry 'split --help' for more information.\n
status: 1

test: long options abbreviated, long-only ones among them
cmd: seq 4 > f; split --lines=2 --numeric=3 --add=.t --suffix-l=1 f; ls x*; split --numeric-s=4 --byt=2 --verb f y
out: x3.t\nx4.t\ncreating file 'y04'\ncreating file 'y05'\ncreating file 'y06'\ncreating file 'y07'\n
