#!/bin/bash
# Arithmetic a script leans on: bases, overflow, assignment ops, conditionals.
p() { printf '%-28s %s\n' "$1" "$(( $1 ))"; }
for e in '0x1F' '017' '2#1011' '36#zz' '64#_' '10#0099' '-7 / 2' '-7 % 2' '7 % -2' \
         '2 ** 62' '2 ** 63' '2 ** 64' '9223372036854775807 + 1' '-9223372036854775808 / -1' \
         '1 << 63' '1 << 64' '-1 >> 1' '~0' '!5' '!0' '5 > 3 ? 10 : 20' '(1, 2, 3)' \
         '1 && 0 || 2' '3 & 5 | 8 ^ 1' '0x7fffffffffffffff * 2'; do
  p "$e"
done
x=5
(( x += 3, x *= 2, x -= 1 )); echo "x=$x"
(( x <<= 2 )); echo "x=$x"
(( x %= 7 )); echo "x=$x"
y=x; echo "indirect $(( y + 1 ))"
z='1 + 2'; echo "expr var $(( z * 2 ))"
unset u; echo "unset is $(( u + 0 ))"
echo "pre/post: $(( x++ )) $(( ++x )) $(( x-- )) $x"
a=(10 20 30); i=1
echo "array: $(( a[i] + a[2] )) $(( a[-1] ))"
(( a[1] += 5 )); echo "${a[@]}"
declare -A h=([k]=4); echo "assoc $(( h[k] * 2 ))"
(( 0 )); echo "(( 0 )) status $?"
(( 2 - 2 )) || echo "zero is false"
let 'r = 6 * 7' 'q = r / 4'; echo "let: $r $q status $?"
let 0; echo "let 0 status $?"
echo $(( 10 / 3 )) $(( -10 / 3 )) $(( 10 % -3 ))
echo $(( 08 )) 2>&1 || true
echo "$(( 1 +
2 ))"
for ((i = 0, j = 10; i < j; i += 3, j -= 3)); do echo "i=$i j=$j"; done
n=0; while (( n++ < 3 )); do :; done; echo "n=$n"
echo $(( "5" + 1 ))
printf '%d %x %o\n' $(( 255 )) 255 8
echo $(( 3 > 2 > 1 )) $(( 1 == 1.0 )) 2>&1
echo end
