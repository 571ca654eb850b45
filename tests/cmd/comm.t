# comm: three columns of sorted input, order checks, totals.

test: three columns
cmd: comm a b
file: a=a\nb\nd\ne\n
file: b=b\nc\ne\nf\n
out: a\n\t\tb\n\tc\nd\n\t\te\n\tf\n

test: common only
cmd: comm -12 a b
file: a=a\nb\nd\ne\n
file: b=b\nc\ne\nf\n
out: b\ne\n

test: unique only
cmd: comm -3 a b
file: a=a\nb\nd\ne\n
file: b=b\nc\ne\nf\n
out: a\n\tc\nd\n\tf\n

test: only file two
cmd: comm -13 a b
file: a=a\nb\nd\ne\n
file: b=b\nc\ne\nf\n
out: c\nf\n

test: output delimiter
cmd: comm --output-delimiter=: a b
file: a=a\nb\nd\ne\n
file: b=b\nc\ne\nf\n
out: a\n::b\n:c\nd\n::e\n:f\n

test: empty output delimiter is nul
cmd: comm --output-delimiter= a b | od -c
file: a=a\nb\n
file: b=b\nc\n
out: 0000000   a  \\n  \\0  \\0   b  \\n  \\0   c  \\n\n0000011\n

test: total
cmd: comm --total a b; comm -123 --total a b
file: a=a\nb\nd\ne\n
file: b=b\nc\ne\nf\n
out: a\n\t\tb\n\tc\nd\n\t\te\n\tf\n2\t2\t2\ttotal\n2\t2\t2\ttotal\n

test: total custom delimiter
cmd: comm -1 --total --output-delimiter=XY a b
file: a=a\nb\n
file: b=b\nc\n
out: XYb\nc\n1XY1XY1XYtotal\n

test: unsorted without unpairable before it
cmd: comm a b; echo "rc=$?"
file: a=b\na\nc\n
file: b=b\nc\ne\nf\n
out: \t\tb\na\n\t\tc\n\te\n\tf\nrc=0\n

test: unsorted reported once
cmd: comm a b; echo "rc=$?"
file: a=c\nb\na\n
file: b=b\nc\ne\nf\n
out: \tb\n\t\tc\nb\na\n\te\n\tf\nrc=1\n
err: comm: file 1 is not in sorted order\n
err: comm: input is not in sorted order\n

test: unsorted second file
cmd: comm b a; echo "rc=$?"
file: a=c\nb\na\n
file: b=b\nc\ne\nf\n
out: b\n\t\tc\n\tb\n\ta\ne\nf\nrc=1\n
err: comm: file 2 is not in sorted order\n
err: comm: input is not in sorted order\n

test: check order fatal
cmd: comm --check-order a b; echo "rc=$?"
file: a=b\na\nc\n
file: b=b\nc\ne\nf\n
out: \t\tb\nrc=1\n
err: comm: file 1 is not in sorted order\n

test: no check order
cmd: comm --nocheck-order a b; echo "rc=$?"
file: a=c\nb\na\n
file: b=b\nc\n
out: \tb\n\t\tc\nb\na\nrc=0\n

test: stdin
cmd: printf 'a\nb\n' | comm - b
file: b=b\nc\n
out: a\n\t\tb\n\tc\n

test: no trailing newline
cmd: comm a b | od -c
file: a=a\nb
file: b=b\nc\n
out: 0000000   a  \\n  \\t  \\t   b  \\n  \\t   c  \\n\n0000011\n

test: zero terminated
cmd: printf 'a\0b\0' > a; printf 'b\0c\0' > b; comm -z a b | od -c
out: 0000000   a  \\0  \\t  \\t   b  \\0  \\t   c  \\0\n0000011\n

test: duplicates
cmd: comm a b
file: a=a\na\nb\n
file: b=a\nb\nb\n
out: \t\ta\na\n\t\tb\n\tb\n

test: missing file
cmd: comm a nope
file: a=a\n
out:
err: comm: nope: No such file or directory\n
status: 1

test: missing operand
cmd: comm a
file: a=a\n
out:
err: comm: missing operand after ‘a’\n
err: Try 'comm --help' for more information.\n
status: 1

test: extra operand
cmd: comm a b c
out:
err: comm: extra operand ‘c’\n
err: Try 'comm --help' for more information.\n
status: 1

test: abbreviated long-only options, one with an argument
cmd: printf 'a\nb\n' > x; printf 'b\nc\n' > y; comm --output-d=: --tot --check x y
out: a\n::b\n:c\n1:1:1:total\n

test: the last of --nocheck-order and --check-order counts
cmd: printf 'b\na\n' > x; printf 'c\n' > y; comm --nocheck --check-o x y; echo $?; comm --check-o --nocheck x y
out: b\n1\nb\na\n\tc\n
err: comm: file 1 is not in sorted order\n
