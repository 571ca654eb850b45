# printf: bash 5.2's builtin (the same file serves as the printf command).
# Error messages are checked without bash's "bash: line N: " prefix:
# e=$(... 2>&1 >/dev/null); echo "${e#*printf: }"

test: integers
cmd: printf '%d|%i|%o|%u|%x|%X\n' 42 -42 8 -1 255 255
out: 42|-42|10|18446744073709551615|ff|FF\n

test: floats
cmd: printf '%5.2f|%-8s|%08.3e|%g|%G|%a\n' 3.14159 ab 1234.5 0.0001 1e20 1
out:  3.14|ab      |1.234e+03|0.0001|1E+20|0x8p-3\n

test: long double precision
cmd: printf '%.30f|%e\n' 0.1 1e400
out: 0.100000000000000000001355252716|1.000000e+400\n

test: inf and nan
cmd: printf '%f %f %e\n' inf nan -inf
out: inf nan -inf\n

test: flags
cmd: printf '%+d|% d|%05d|%-5d|%#o|%#x|%.3d|%+.2f\n' 5 5 5 5 8 255 5 2
out: +5| 5|00005|5    |010|0xff|005|+2.00\n

test: thousands flag in C locale
cmd: printf "%'d\n" 1234567
out: 1234567\n

test: length modifiers ignored
cmd: printf '%hd %lld %jd %zd %Lf\n' 70000 1 2 3 1.5
out: 70000 1 2 3 1.500000\n

test: star width and precision
cmd: printf '[%*d][%-*d][%.*f][%*s]\n' 5 1 4 2 2 3.14159 -4 x
out: [    1][2   ][3.14][x   ]\n

test: negative star width left justifies
cmd: printf '%*d|\n' -5 1
out: 1    |\n

test: strings width precision
cmd: printf '[%5s][%-5s][%.2s][%5.1s][%05s]\n' ab ab abc abc ab
out: [   ab][ab   ][ab][    a][   ab]\n

test: precision counts bytes
cmd: printf '[%.2s][%.1s]\n' é é | od -c
out: 0000000   [ 303 251   ]   [ 303   ]  \\n\n0000010\n

test: char conversion
cmd: printf '%c|%c|%5c|%-3c|\n' abc '' x y | od -c
out: 0000000   a   |  \\0   |                   x   |   y           |  \\n\n
out: 0000017\n

test: char without argument prints nul
cmd: printf '%c' | od -c
out: 0000000  \\0\n0000001\n

test: format reused for extra arguments
cmd: printf '%s %s\n' a b c
out: a b\nc \n

test: format without conversions prints once
cmd: printf 'x\n' a b
out: x\n

test: missing arguments
cmd: printf '%s|%d|%f|%c|\n' | od -c
out: 0000000   |   0   |   0   .   0   0   0   0   0   0   |  \\0   |  \\n\n
out: 0000017\n

test: numeric argument forms
cmd: printf '%d\n' 0x1f 010 "'A" '"B' "'é" +5 -0x10 ' 7' ''
out: 31\n8\n65\n66\n233\n5\n-16\n7\n0\n

test: quote alone is zero
cmd: printf '%d\n' "'"
out: 0\n

test: invalid number prints prefix and fails
cmd: printf '%d\n' 12abc; echo "rc=$?"
out: 12\nrc=1\n

test: invalid number message
cmd: e=$(printf '%d\n' abc 2>&1 >/dev/null); echo "${e#*printf: }"
out: abc: invalid number\n

test: trailing space is invalid
cmd: printf '%d\n' '5 '; echo "rc=$?"
out: 5\nrc=1\n

test: invalid float
cmd: printf '%f\n' 1.5x; echo "rc=$?"
out: 1.500000\nrc=1\n

test: out of range clamps with warning and status 0
cmd: printf '%d\n' 99999999999999999999; echo "rc=$?"
out: 9223372036854775807\nrc=0\n

test: out of range message
cmd: e=$(printf '%d' 99999999999999999999 2>&1 >/dev/null); echo "${e#*printf: }"
out: warning: 99999999999999999999: Numerical result out of range\n

test: unsigned of negative
cmd: printf '%u %x\n' -1 -1
out: 18446744073709551615 ffffffffffffffff\n

test: invalid format character
cmd: printf 'a%yb\n'; echo "rc=$?"
out: arc=1\n

test: invalid format character message
cmd: e=$(printf '%y' 2>&1 >/dev/null); echo "${e#*printf: }"
out: `y': invalid format character\n

test: modifier then backslash
cmd: e=$(printf '%z\n' 2>&1 >/dev/null); echo "${e#*printf: }"; printf '%z\n'; echo "rc=$?"
out: `\\': invalid format character\nrc=1\n

test: missing format character
cmd: printf 'ab%'; echo "rc=$?"
out: abrc=1\n

test: missing format character message
cmd: e=$(printf '%5' 2>&1 >/dev/null); echo "${e#*printf: }"
out: `%5': missing format character\n

test: percent with width is invalid
cmd: printf '%5%|\n'; echo "rc=$?"
out: rc=1\n

test: percent percent
cmd: printf '100%%\n'
out: 100%\n

test: format escapes
cmd: printf 'a\tb\\c\a\b\f\r\v\e\E\n' | od -c
out: 0000000   a  \\t   b   \\   c  \\a  \\b  \\f  \\r  \\v 033 033  \\n\n
out: 0000015\n

test: format octal three digits
cmd: printf '\101\0101\1234|\n' | od -c
out: 0000000   A  \\b   1   S   4   |  \\n\n0000007\n

test: format hex and unicode
cmd: printf '\x41\x4a\xe9|\u00e9|\U0001F600|\u110000|\n' | od -c
out: 0000000   A   J 351   | 303 251   | 360 237 230 200   | 341 204 200   0\n
out: 0000020   0   |  \\n\n0000023\n

test: format unicode out of range
cmd: printf '\ud800|\U00110000|\U7fffffff|\n' | od -c
out: 0000000 355 240 200   | 364 220 200 200   | 375 277 277 277 277 277   |\n
out: 0000020  \\n\n0000021\n

test: format backslash c is literal
cmd: printf 'a\cb\n'
out: a\\cb\n

test: format quotes escapes
cmd: printf 'a\"b\?c\'"'"'d\n'
out: a"b?c'd\n

test: format unknown escape kept
cmd: printf 'a\qb\n'
out: a\\qb\n

test: format trailing backslash
cmd: printf 'ab\\' | od -c; printf 'ab\'
out: 0000000   a   b   \\\n0000003\nab\\

test: missing hex digit
cmd: printf '\xg\n' 2>/dev/null; e=$(printf '\x' 2>&1 >/dev/null); echo "${e#*printf: }"
out: \\xg\nmissing hex digit for \\x\n

test: missing unicode digit
cmd: e=$(printf '\u' 2>&1 >/dev/null); echo "${e#*printf: }"
out: missing unicode digit for \\u\n

test: b conversion
cmd: printf '%b|' 'a\tb' '\0101' '\101' '\x41' '\u00e9' '\1234' '\01234' 'a\' '\q' "\\'" '\?' '\"' | od -c
out: 0000000   a  \\t   b   |   A   |   A   |   A   | 303 251   |   S   4   |\n
out: 0000020   S   4   |   a   \\   |   \\   q   |   \\   '   |   \\   ?   |   \\\n
out: 0000040   "   |\n0000042\n

test: b stops at backslash c
cmd: printf '%b\n' 'a\tb\cc' x; echo '<'
out: a\tb<\n

test: b with width
cmd: printf '[%5b][%-4b]\n' 'a\n' x | od -c
out: 0000000   [               a  \\n   ]   [   x               ]  \\n\n
out: 0000016\n

test: b nul
cmd: printf '%b' 'a\0b' | od -c
out: 0000000   a  \\0   b\n0000003\n

test: q quoting
cmd: printf '%q\n' 'a b' "it's" $'a\nb' '' '~x' 'a~b' 'x=~' 'x:~' 'a*' '#x' 'x#' é $'\x01' $'a\xffb'
out: a\\ b\nit\\'s\n$'a\\nb'\n''\n\\~x\na~b\nx=\\~\nx:\\~\na\\*\n\\#x\nx#\né\n
out: $'\\001'\n$'a\\377b'\n

test: q every punctuation
cmd: for c in ' ' '!' '"' '#' '$' '%' '&' "'" '(' ')' '*' '+' ',' '-' '.' '/' ':' ';' '<' '=' '>' '?' '@' '[' '\' ']' '^' '_' '`' '{' '|' '}' '~'; do printf '%q %q\n' "a${c}b" "${c}b"; done
out: a\\ b \\ b\na\\!b \\!b\na\\"b \\"b\na#b \\#b\na\\$b \\$b\na%b %b\na\\&b \\&b\n
out: a\\'b \\'b\na\\(b \\(b\na\\)b \\)b\na\\*b \\*b\na+b +b\na\\,b \\,b\na-b -b\n
out: a.b .b\na/b /b\na:b :b\na\\;b \\;b\na\\<b \\<b\na=b =b\na\\>b \\>b\n
out: a\\?b \\?b\na@b @b\na\\[b \\[b\na\\\\b \\\\b\na\\]b \\]b\na\\^b \\^b\na_b _b\n
out: a\\`b \\`b\na\\{b \\{b\na\\|b \\|b\na\\}b \\}b\na~b \\~b\n

test: q ansi escapes
cmd: printf '%q\n' $'\e\x7f\t\a\b\f\r\v\\\'x' $'\xc2\x85'
out: $'\\E\\177\\t\\a\\b\\f\\r\\v\\\\\\'x'\n$'\\302\\205'\n

test: q width and precision
cmd: printf '[%5q][%-6q][%.2q][%.2Q][%5.3q]\n' 'a b' x 'a b' 'a b' abcdef
out: [ a\\ b][x     ][a\\][a\\ ][  abc]\n

test: Q conversion
cmd: printf '%Q\n' 'a b'
out: a\\ b\n

test: time format
cmd: printf '%(%Y-%m-%d %H:%M:%S)T\n' 86400
out: 1970-01-02 00:00:00\n

test: time format width and epoch
cmd: printf '%(%s)T|%10(%H)T|%-6(%M)T|\n' 0 3600 60
out: 0|        01|01    |\n

test: time empty format is locale time
cmd: printf '%()T\n' 0
out: 00:00:00\n

test: time zone name and offset
cmd: printf '%(%Z %z)T\n' 0
out: UTC +0000\n

test: time now
cmd: [ "$(printf '%(%s)T' -1)" -gt 1600000000 ] && echo ok
out: ok\n

test: time invalid specification
cmd: printf '%(%Y)X\n' 0; echo "rc=$?"
out: %(rc=1\n

test: time invalid specification message
cmd: e=$(printf '%(%Y)X' 0 2>&1 >/dev/null | head -n 1); echo "${e#*printf: }"
out: warning: `X': invalid time format specification\n

test: n conversion
cmd: printf 'ab%ncd\n' v; echo "v=$v"
out: abcd\nv=2\n

test: v option assigns
cmd: printf -v x '%s-%d' a 5; echo "[$x]"
out: [a-5]\n

test: v option attached
cmd: printf -vx '%03d' 7; echo "[$x]"
out: [007]\n

test: v option reuses format
cmd: printf -v x '%s,' a b c; echo "[$x]"
out: [a,b,c,]\n

test: v option invalid name
cmd: printf -v 1x foo; echo "rc=$?"
out: rc=2\n

test: dash dash
cmd: printf -- '%s\n' -v
out: -v\n

test: dash operand is a format
cmd: printf '%s\n' -v; printf -; echo
out: -v\n-\n

test: invalid option
cmd: printf -x; echo "rc=$?"
out: rc=2\n

test: no format
cmd: printf; echo "rc=$?"
out: rc=2\n
err: printf: usage: printf [-v var] format [arguments]\n

test: empty format
cmd: printf '' a b; echo "rc=$?"
out: rc=0\n

test: nul in arguments impossible but octal nul works
cmd: printf 'a\0b\000c' | od -c
out: 0000000   a  \\0   b  \\0   c\n0000005\n

test: many arguments
cmd: printf '%s\n' $(seq 1000) | tail -n 2
out: 999\n1000\n

test: huge width is bounded
cmd: printf '%.3s\n' abcdef
out: abc\n
