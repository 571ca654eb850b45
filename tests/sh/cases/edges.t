### array index after 9223372036854775807 wraps as in bash 5.2
a[9223372036854775807]=x
a+=(y)
declare -p a
a[-1]=z
declare -p a
echo "${a[-1]} ${!a[@]}"
b=([9223372036854775807]=p q)
declare -p b
c[9223372036854775807]=x
c[-9223372036854775808]=w
declare -p c
unset 'a[-1]'
declare -p a
--- stdout
declare -a a=([-9223372036854775808]="y" [9223372036854775807]="x")
declare -a a=([-9223372036854775808]="y" [9223372036854775807]="z")
z -9223372036854775808 9223372036854775807
declare -a b=([-9223372036854775808]="q" [9223372036854775807]="p")
declare -a c=([0]="w" [9223372036854775807]="x")
declare -a a=([-9223372036854775808]="y")
--- status 0

### mapfile numbers bounded as bash's (-O -n -s -c)
printf 'a\nb\nc\n' > /tmp/in
mapfile -O 4294967295 -s 1 -n 1 m < /tmp/in; declare -p m
mapfile -O 4294967296 m < /tmp/in; echo $?
mapfile -O -1 m < /tmp/in; echo $?
readarray -n x m < /tmp/in; echo $?
mapfile -s 99999999999999999999 m < /tmp/in; echo $?
mapfile -c 0 -C : m < /tmp/in; echo $?
--- stdout
declare -a m=([4294967295]=$'b\n')
1
1
1
1
1
--- stderr
sbx: line 3: mapfile: 4294967296: invalid array origin
sbx: line 4: mapfile: -1: invalid array origin
sbx: line 5: readarray: x: invalid line count
sbx: line 6: mapfile: 99999999999999999999: invalid line count
sbx: line 7: mapfile: 0: invalid callback quantum

### indirect expansion of an empty list (no leak, bash's messages)
set --
echo "[${!@}]" "[${!*}]"
set -- ""
(echo ${!*})
echo $?
unset x
(echo ${!x})
echo $?
(set -u; set --; echo ${!@})
echo $?
(echo "${!a[@]-default}")
echo $?
--- stdout
[] []
1
1
1
1
--- stderr
sbx: line 4: : invalid variable name
sbx: line 7: x: invalid indirect expansion
sbx: line 9: !@: unbound variable
sbx: line 11: a[@]: invalid indirect expansion

### slices whose end passes 9223372036854775807 (bash 5.2)
s=abcdef
echo "[${s:2:9223372036854775807}] [${s:1:9223372036854775806}] [${s: -2:9223372036854775807}]"
set -- a b c
echo "[${@:1:9223372036854775807}] [${@:2:9223372036854775806}] [${@:0:9223372036854775807}]"
a=(1 2 3)
echo "[${a[@]:1:9223372036854775807}] [${a[@]: -1:9223372036854775807}]"
x=([9223372036854775807]=1)
x+=(2)
echo "[${x[@]: -1}] [${x[@]: -2}] [${x[*]:9223372036854775807}]"
--- stdout
[cdef] [bcdef] [ef]
[a] [b] [sbx a b c]
[2 3] [3]
[1] [1] [1]

### slices of associative arrays count from 1, of a scalar's x[@] take characters
declare -A h=([a]=1 [b]=2 [c]=3)
echo "[${h[@]:0:1}] [${h[@]:1:2}] [${h[@]:2}] [${h[@]: -1}] [${h[@]: -4}] [${h[@]:1:9223372036854775807}]"
x=abc
echo "[${x[@]:1}] [${x[@]: -1}] [${x[*]:1:1}]"
--- stdout
[3] [3 2] [2 1] [1] [3 2 1] [3 2 1]
[bc] [c] [b]

### a dup of an fd number too large is a bad descriptor, never a file
echo x >&2147483648
echo $?
echo x 2>&99999999999999999999
echo $?
cat <&2147483648-
echo $?
ls
--- stdout
1
1
1
--- stderr
sbx: line 1: 2147483648: Bad file descriptor
sbx: line 3: 2: Bad file descriptor
sbx: line 5: 0: Bad file descriptor
