# Plain-text shell cases (format: see basics.t) for bash compatibility
# corners: each expectation is what bash 5.2 prints.

### \U past U+10FFFF: the old 5- and 6-byte UTF-8 forms, nothing past 0x7FFFFFFF
printf '%s' $'a\U00110000b\U04000000c\U80000000d' | od -An -tx1
echo -e 'a\U00110000b\U80000000c' | od -An -tx1
--- stdout
 61 f4 90 80 80 62 fc 84 80 80 80 80 63 64
 61 f4 90 80 80 62 63 0a

### printf builtin errors carry the shell's prefix, the usage line does not
printf '%d\n' abc
printf -x
echo "status $?"
--- stdout
0
status 2
--- stderr
sbx: line 1: printf: abc: invalid number
sbx: line 2: printf: -x: invalid option
printf: usage: printf [-v var] format [arguments]
