#!/bin/bash
# Arithmetic corners.
echo $(( 7 / 2 )) $(( -7 / 2 )) $(( -7 % 3 )) $(( 7 % -3 ))
echo $(( 2 ** 10 )) $(( 2 ** 63 )) $(( 2 ** 64 ))
echo $(( 9223372036854775807 + 1 ))
echo $(( -9223372036854775808 / -1 )) 2>&1
echo $(( 16#ff )) $(( 2#1010 )) $(( 0x1F )) $(( 010 )) $(( 36#zz )) $(( 64#@ ))
echo $(( 1 << 63 )) $(( 1 << 64 )) $(( -1 >> 1 ))
echo $(( 5 > 3 && 2 > 1 )) $(( 0 || 0 )) $(( !5 )) $(( ~5 ))
x=5
echo $(( x++ + ++x )) $x
echo $(( x *= 2 )) $(( x /= 3 )) $(( x %= 4 )) $(( x <<= 2 )) $(( x ^= 1 ))
echo $(( x > 2 ? x : -x ))
echo $(( (1, 2, 3) ))
y=x
echo $(( y + 1 ))
z='x + 1'
echo $(( z * 2 ))
let "a = 3 * 4" b=a+1
echo "$a $b"
let c=0
echo "let status: $?"
(( 0 )); echo "(( 0 )): $?"
(( 2 )); echo "(( 2 )): $?"
echo $(( 1 / 0 )) 2>&1
echo "div0: $?"
echo $(( 2 ** -1 )) 2>&1
echo "neg exp: $?"
echo $(( 3 +* 4 )) 2>&1
echo $(( 08 )) 2>&1
echo $(( 1 + (2 ) )) 2>&1
echo $(( 10#08 + 1 ))
echo $(( - - 3 )) $(( +-3 ))
declare -i i=10
i+=5
echo $i
i='i * 2'
echo $i
arr=(10 20 30)
echo $(( arr[1] + arr[2] )) $(( ${#arr[@]} * 2 ))
idx=2
echo $(( arr[idx] ))
(( arr[0] += 5 )); echo ${arr[0]}
echo $(( RANDOM >= 0 ))
for (( i = 0, j = 10; i < j; i += 3, j -= 3 )); do echo "$i $j"; done
echo $(( 0x7fffffffffffffff )) $(( -0x8000000000000000 ))
echo $[ 3 + 4 ]
