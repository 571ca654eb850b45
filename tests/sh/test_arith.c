/*
 * test_arith.c - shell arithmetic: the recorded-program cache of arith.c
 * against the text evaluator, and the results and messages it must keep.
 *
 * Differential: every case runs as the body of a function called three times
 * (the first call parses each literal text and records it, the next ones run
 * the recorded programs), once with the cache and once without
 * (sh_arith_cache_off), each in a fresh in-memory sandbox; stdout, stderr and
 * the exit status must be the same. The cases cover every operator, bases,
 * overflow, errors and their tokens, noeval arms, assignments to arrays,
 * associative arrays, namerefs, readonly and integer variables, variables
 * whose values are expressions, and the recursion limits at their exact
 * boundaries. Then pinned cases check results by value, and the cache's own
 * edges: more texts than it holds, texts too long to keep, and a text pushed
 * out while its program runs.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "sbx.h"
#include "sh/arith.h"

static const char *const diff_cases[] = {
    "echo $(( a @ 1 ))",
    "echo $(( 1 + a[1 ))",
    "x=1+2; echo $((x*3))",
    "echo $((2**-1))",
    "echo $(( 1/0 + 3))",
    "a=(1 2 3); echo $((a[1]++)) ${a[@]}",
    "echo $(( 0 && 1/0 )) $(( 1 || 1/0 ))",
    "echo $((1+2*3-4/2%3)) $((2**3**2)) $((-2**2)) $(( (1+2)*3 ))",
    "echo $((1<2)) $((2<=2)) $((3>2)) $((3>=4)) $((1==1)) $((1!=1)) $((5&3)) $((5|3)) $((5^3)) $((~5)) $((!5)) $((!0))",
    "echo $((1<<3)) $((256>>2)) $((-1>>1)) $((1<<64)) $((1<<65))",
    "x=5; echo $((x+=2)) $((x-=1)) $((x*=3)) $((x/=2)) $((x%=5)) $((x<<=2)) $((x>>=1)) $((x&=7)) $((x|=8)) $((x^=3)) $x",
    "x=5; echo $((x++)) $((x--)) $((++x)) $((--x)) $x",
    "echo $((++5)) $((--5)) $((+-5)) $((-+5)) $((- -5)) $((!!3))",
    "echo $(( 1 ? 2 : 3 )) $(( 0 ? 2 : 3 )) $(( 1 ? 0 ? 4 : 5 : 6 ))",
    "x=0; echo $(( 1 ? (x=4) : (x=5) )) $x",
    "x=0; echo $(( 0 ? x++ : x-- )) $x",
    "echo $(( 1, 2, 3 )) $(( x=1, y=2, x+y ))",
    "echo $(( 0x1F )) $(( 017 )) $(( 2#101 )) $(( 36#zz )) $(( 64#@_ )) $(( 16#ff ))",
    "echo $(( 08 ))",
    "echo $(( 0x ))",
    "echo $(( 2#12 ))",
    "echo $(( 65#1 ))",
    "echo $(( 1#1 ))",
    "echo $(( 9223372036854775807 + 1 )) $(( -9223372036854775808 / -1 )) $(( -9223372036854775808 % -1 ))",
    "echo $(( 99999999999999999999 ))",
    "echo $(( 1 + ))",
    "echo $(( + ))",
    "echo $(( ( 1 + 2 ))",
    "echo $(( 1 + 2 ) ))",
    "echo $(( 1 ? 2 ))",
    "echo $(( 1 2 ))",
    "echo $(( x = ))",
    "echo $(( 5 = 3 ))",
    "echo $(( 1 +* 2 ))",
    "echo $((  ))",
    "echo \"$(( ))\" x",
    "a=3 b=a c=b; echo $((c)) $((c+1))",
    "a='b+1' b=2; echo $((a*2))",
    "a='a+1'; echo $((a))",
    "a='b' b='a'; echo $((a))",
    "x='1 +'; echo $((x))",
    "x=' 7 '; echo $((x+1))",
    "x=' -7 '; echo $((x+1))",
    "x='3 ) + (4'; echo $((x))",
    "unset u; echo $((u+1)) $((u))",
    "set -u; echo $((nosuch+1)); echo after",
    "set -u; echo $(( 0 && nosuch )); echo after",
    "declare -i n=5; n+=3; echo $n; n='2*4'; echo $n",
    "declare -i n; n=abc; echo \"[$n]\"",
    "readonly r=1; echo $((r++)); echo \"rc=$?\"",
    "readonly r=1; (( r=2 )); echo \"rc=$? $r\"",
    "a=(1 2 3); echo $((a[0]+a[2])) $((a[-1])) $((a[5]+1)); a[1]+=5; echo ${a[@]}",
    "a=(1 2 3); echo $((a[-5]))",
    "a=(1 2 3); (( a[1] = 9, a[4] += 2 )); echo ${a[@]} ${!a[@]}",
    "declare -A m; m[k]=3; m[j]=4; echo $((m[k]+m[j])); (( m[k]++ )); echo ${m[k]}",
    "declare -A m; (( m[x y]=5 )); echo \"${m[x y]}\"",
    "declare -n ref=target; target=4; echo $((ref*2)); (( ref+=1 )); echo $target",
    "i=3; echo $(( a[i+1] = 7 )); echo ${a[4]}",
    "RANDOM=5; echo $((RANDOM>=0))",
    "SECONDS=10; echo $((SECONDS>=10))",
    "echo $((LINENO))",
    "x=5; (( x > 3 )) && echo yes; (( x < 3 )) || echo no; (( 0 )); echo $?",
    "for ((i=0;i<3;i++)); do echo $i; done",
    "for ((i=0,j=10;i<j;i+=3,j-=3)); do echo $i $j; done",
    "for ((;;)); do break; done; echo out",
    "i=0; for ((;i<2;)); do ((i++)); done; echo $i",
    "let x=3+4 y=x*2; echo $x $y",
    "let 'z = 1 ? 5 : 6'; echo $z",
    "echo $(( $(echo 3) + 4 ))",
    "x=3; echo $(( $x + ${x} + x ))",
    "x=3; echo $(( \"x\" + 1 ))",
    "echo $(( 'x' + 1 ))",
    "echo $(( 10 % 0 ))",
    "echo $(( 10 / (5-5) ))",
    "x=0; echo $(( x /= 0 )); echo $x",
    "echo $(( 2 ** 63 )) $(( 2 ** 64 )) $(( (-2) ** 63 )) $(( 0 ** 0 ))",
    "echo $(( -(-(-(-5))) )) $(( ~~~~~5 )) $(( !!!!!5 ))",
    "x=1; echo $(( x+++x )) $x",
    "x=1; echo $(( x---x )) $x",
    "x=1; echo $(( x+ ++x )) $x",
    "f() { local v=3; echo $((v*2)); }; f",
    "echo $(( 0x7fffffffffffffff )) $(( 0xffffffffffffffff ))",
    "echo $(( 10#0010 )) $(( 10#x ))",
    "echo $(( 0b101 ))",
    "echo $(( 3 +  ))",
    "x=4; echo $(( x ** 2 ))",
    "echo $(( (2) )) $(( ((((3)))) ))",
    "echo $(( 4 < 5 < 6 )) $(( 6 > 5 > 4 ))",
    "echo $(( 1 == 1 == 1 )) $(( 7 & 3 | 8 ^ 1 ))",
    "x=; echo $(( x + 1 ))",
    "x=abc abc=5; echo $(( x ))",
    "x=abc; echo $(( x[0] ))",
    "x[3]=7; echo $(( x[3] ))",
    "echo $(( a[ ))",
    "echo $(( a] ))",
    "echo $(( 1 ] ))",
    "echo $(( a[1]] ))",
    "echo $(( 1 ; 2 ))",
    "echo $(( 1 $ 2 ))",
    "echo $(( @ ))",
    "echo $(( 1.5 ))",
    "echo $(( 1e3 ))",
    "echo $(( 12abc ))",
    "echo $(( 0xg ))",
    "echo $(( _a = 3 )) $_a",
    "echo $(( a1b2 = 3 )) $a1b2",
    "x=1; echo $(( x = y = z = 4 )) $x $y $z",
    "x=2; echo $(( x *= x += 3 )) $x",
    "IFS=,; x=$((1+2)); echo \"$x\"; echo $((10,20))",
    "echo $[1+2] $[ 3 * 4 ]",
    "x=7; echo $(( x > 5 ? x - 5 : 5 - x ))",
    "x=7; (( y = x > 5 ? 1 : 2 )); echo $y",
    "echo $(( 5 > 3 && 2 > 1 || 0 ))",
    "x=0; echo $(( 1 || (x=5) )) $x; echo $(( 0 && (x=6) )) $x",
    "x=0; echo $(( 0 || (x=5) )) $x; echo $(( 1 && (x=6) )) $x",
    "x=0; (( x++ )); echo $? $x; (( x-- )); echo $? $x",
    "(( 1/0 )); echo rc=$?",
    "echo ${#x} $(( ${#x} + 1 ))",
    "s=hello; echo $(( ${#s} * 2 ))",
    "echo $(( $# + 1 ))",
    "set -- 4 5; echo $(( $1 * $2 )) $(( $# ))",
    "x=1; y=$(( x << 62 )); echo $(( y * 4 )) $(( y + y + y ))",
    "echo $(( -9223372036854775808 )) $(( - 9223372036854775808 ))",
    "echo $(( 9223372036854775808 ))",
    "echo $(( 1 - -1 )) $(( 1 + +1 )) $(( 1 - - 1 ))",
    "x=5; echo $(( x-- - --x ))",
    "printf '%d\\n' $(( 255 )) $(( 0xff ))",
    "x=12; x=$((x)); echo $x; x=$((x/5)); echo $x",
    "echo $((  x  =  3  ,  x  *  2  ))",
    "echo $(( \t5\t+\t1\t))",
    "declare -i q=0; q=q+1; q+=q; echo $q",
    "declare -u up; up=abc; (( up2 = 3 )); echo $up $up2",
    "x=1; export x; (( x += 1 )); env | grep '^x='",
    "HISTSIZE=5; (( HISTSIZE += 1 )); echo $HISTSIZE",
    "PATH=$PATH; (( x = 1 )); echo ok",
    "v=3; echo $(( v ** v ** 0 ))",
    "x=0; while (( x < 5 )); do (( x++ )); done; echo $x",
    "x=0; until (( x >= 3 )); do x=$((x+1)); done; echo $x",
    "i=10; echo $(( i-- )) $(( i-- )) $i",
    "echo $(( 1 ? : 2 ))",
    "echo $(( ? ))",
    "echo $(( 1 : 2 ))",
    "echo $(( () ))",
    "echo $(( (1 ))",
    "echo $(( 1 )) )",
    "a=(5 6); echo $(( a ))  $(( a[@] ))",
    "a=(5 6); echo $(( a[*] ))",
    "a=(5 6); echo $(( ${a[1]} + a ))",
    "k=1; declare -A h=([1]=x); echo $(( h[k] ))",
    "x=3; echo \"$(( x )) $((x)) $(( x ))\"",
    "(( x = 2 ** 62 * 2 )); echo $x",
    "echo $(( 3 / -2 )) $(( -3 / 2 )) $(( -3 % 2 )) $(( 3 % -2 ))",
    "x=5 y=x; echo $(( y++ )) $x $y",
    "x=5 y=x; echo $(( ++y )) $x $y",
    "n=$(printf '1+%.0s' {1..200})1; echo $((n))",
    "n=$(printf '(%.0s' {1..1100})1$(printf ')%.0s' {1..1100}); echo $((n)) | head -c 100",
    "n=$(printf '%.0s-' {1..1100})1; echo $((n)) | head -c 100",
    "n=$(printf '%.0s!' {1..2000})1; echo $((n)) | head -c 100",
    "a=b b=c c=d d=e e=f f=g g=h h=i i=j j=k k=1; echo $((a))",
    "v0=1; for i in $(seq 1 70); do eval \"v$i=v$((i-1))+1\"; done; echo $((v70))",
    "v0=1; for i in $(seq 1 70); do eval \"v$i=v$((i-1))\"; done; echo $((v70))",
    "v0=1; for i in $(seq 1 62); do eval \"v$i=v$((i-1))\"; done; echo $((v62)) $((v62+1)) $(( (v62) ))",
    "x='(((((((1)))))))'; echo $((x))",
    "x=$(printf '(%.0s' {1..1020})1$(printf ')%.0s' {1..1020}); y='x'; echo $((y)) | head -c 100",
    "x=1; echo $(( x[0] )) $(( x[1] )) $(( x[-1] ))",
    "x=$'1\\n+2'; echo $((x))",
    "x=$'1\\r'; echo $((x))",
    "echo $(( 1 +$'\\r' 2))",
    "echo $(( 0x10 + 010 + 10 ))",
    "echo $(( 64#Z )) $(( 37#Z )) $(( 36#Z ))",
    "x=3; echo $(( x,x++,x ))",
    "echo $((8#777)) $((8#8))",
    "a=(1 2 3); i=1; echo $(( a[i++] + a[i] )) $i",
    "declare -a arr; (( arr[2]=5 )); echo ${#arr[@]} ${arr[2]}",
    "unset x; (( x++ )); echo $x; unset y; (( --y )); echo $y",
    "x=1; (( x = x == 1 ? 10 : 20 )); echo $x",
    "echo $(( 2 > 1 ? 3 > 2 ? 4 : 5 : 6 ))",
    "echo $(( 5 - 3 - 1 )) $(( 64 / 4 / 2 )) $(( 2 ** 2 ** 3 ))",
    "echo $(( 1 << 2 + 1 )) $(( 1 + 2 << 1 )) $(( 6 & 3 == 3 )) $(( 1 | 2 ^ 3 & 4 ))",
    "x=5; echo $(( x <<= 1 , x >>= 2 , x ))",
    "echo $(( -5 >> 1 )) $(( -5 << 1 ))",
    "k=0; for i in 1 2 3 4; do echo $(( 10 / (3 - k++) )); done; echo k=$k",
    "k=0; for i in 1 2 3 4; do (( x = 10 % (2 - k++) )); echo \"rc=$? x=$x\"; done",
    "for i in 1 2 3; do echo $(( 2 ** (1 - i) )); done",
    "set -u; for i in 1 2 3; do echo $(( i == 3 ? nosuch : i )); done; echo end",
    "set -u; for i in 1 2 3; do echo $(( i == 3 || nosuch )); done; echo end",
    "readonly r=1; for i in 1 2; do (( r += i )); echo \"rc=$? r=$r\"; done",
    "a=(1 2 3); for i in 0 1 2 3 4; do echo $(( a[i] + a[-1] )); done",
    "a=(1 2 3); for i in 0 1 2; do echo $(( a[-4] + i )); done",
    "for i in 1 2 3; do echo $(( a[\\$(echo $i)] = i * 2 )); done; echo ${a[@]}",
    "n=0; for i in 1 2 3; do echo $(( 0 && a[\\$(echo side >&2; echo 1)] )); done",
    "declare -A h; for i in 1 2 3; do (( h[k$i] = i )); (( h[x]++ )); done; echo ${h[x]} ${h[k2]}",
    "x='1+'; for i in 1 2; do echo $(( x 2 )); done",
    "v='w+1' w=1; for i in 1 2 3; do echo $(( v * 2 )); w=$((w+1)); done",
    "for i in 1 2 3; do v=$(printf 'v%d' $i); echo $(( v )); done",
    "v0=1; for i in $(seq 1 70); do eval \"v$i=v$((i-1))\"; done; for j in 1 2; do echo $((v60)) $((v62)) $((v63)) $((v64)); done",
    "v0=1; for i in $(seq 1 70); do eval \"v$i=v$((i-1))\"; done; for j in 1 2; do echo $(( -(-(v62)) )) $(( ((v62)) )) $(( (((v63))) )); done",
    "v0=1; for i in $(seq 1 70); do eval \"v$i=v$((i-1))\"; done; for j in 1 2; do echo $(( !(v63) )) $(( ~v63 )) $(( ++v63 )); done",
    "v0=1; for i in $(seq 1 70); do eval \"v$i=v$((i-1))\"; done; for j in 1 2; do echo $(( a[v62] )) $(( v62 ? 1 : 2 )); done",
    "for i in 1 2 3; do (( i++ )); echo $i; done",
    "for ((i=0, j=0; i<5; i++, j+=i)); do :; done; echo $i $j",
    "for ((i=0; i<3; i++)); do for ((j=0; j<2; j++)); do echo -n \"$i$j \"; done; done; echo",
    "i=0; while (( i++ < 3 )); do echo $i; done",
    "x=5; for i in 1 2 3; do (( x ^= i, x <<= 1, x |= 1, x &= 255, x >>= 1, x %= 97, x /= 2, x *= 3, x -= 1, x += 2 )); echo $x; done",
    "for i in 1 2 3; do echo $(( i > 1 ? i < 3 ? 10 : 20 : 30 )) $(( i - - i )) $(( i---i )); done",
    "for i in 1 2 3; do echo $(( (i & 1) == 1 && (i | 2) != 3 || i ^ 3 )); done",
    "x=9223372036854775807; for i in 1 2; do echo $(( x + i )) $(( -x - i - 1 )) $(( (x+1) / -1 )) $(( (x+1) % -1 )); done",
    "f() { local i; for ((i=0;i<2;i++)); do echo $(( i * 10 )); done; }; f; f; echo ${i-unset}",
    "trap 'echo trapped $((t++))' DEBUG; t=0; for ((k=0;k<2;k++)); do :; done; trap - DEBUG; echo t=$t",
    "for i in 1 2; do echo \"$(( i + 1 ))\" \"$((i))\"; done",
    "for i in 1 2 3; do (( 1 / (i - 2) )) ; echo \"rc=$?\"; done",
    "for i in 1 2 3; do x=$(( 1 / (i - 2) )); echo \"rc=$? x=$x\"; done",
    "set -e; for i in 1 2 3; do (( i - 2 )); echo ok $i; done",
    "for i in 1 2; do echo $(( 0x1f + i )) $(( 2#101 + i )) $(( 010 + i )) $(( 64#_ + i )); done",
    "for i in 1 2; do echo $(( i += 1 )) $(( i )); done",
    "x=3; for i in 1 2; do echo $(( x = x * 2, x + i )); done",
    "for i in 1 2; do echo $(( __very_long_name_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx = i )); done; echo $__very_long_name_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    "for i in 1 2; do echo $(( 1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+i )); done",
    "for i in 1 2; do echo $(( ((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((i)))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))) )); done",
    "for i in 1 2; do echo $(( -------------------------------------------------------------------------------------------------------i )); done",
    "for i in 1 2; do echo $(( !!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!i )); done",
    "v0=1; for i in $(seq 1 70); do eval \"v$i=v$((i-1))\"; done; for j in 1 2; do echo $(( ((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((v3)))))))))))))))))))))))))))))))))))))))))))))))))))))))))))) )); done",
    "for i in 1 2; do echo $(( a[1 )); done",
    "for i in 1 2; do echo $(( i ))); done",
    "i=0; for x in a b; do echo $(( i++ )) $(( ++i )) $(( i-- )) $(( --i )); done",
    "declare -i n=0; for i in 1 2 3; do n+=i; (( n *= 2 )); echo $n; done",
    "declare -n r=tgt; tgt=1; for i in 1 2; do (( r += 10 )); echo $tgt $(( r )); done",
    "declare -n r='arr[1]'; arr=(5 6); for i in 1 2; do echo $(( r )); (( r = 9 )); echo ${arr[@]}; done",
    "IFS=; for i in 1 2; do x=$(( i * 11 )); echo \"$x\"; done",
    "for i in 1 2; do echo $(( RANDOM >= 0 )) $(( LINENO > 0 )) $(( SECONDS >= 0 )); done",
    "for i in 1 2; do RANDOM=$i; echo $(( RANDOM )) $(( RANDOM )); done",
    "for i in 1 2; do (( BASHPID > 0 )) && echo pid; done",
    "for i in 1 2; do (( SHELLOPTS = 1 )); echo \"rc=$?\"; done",
    "for i in 1 2; do (( x[1] = 3 , x[2] = x[1] * 2 )); echo ${x[@]}; done",
    "for i in 1 2; do unset x; (( x++ )); echo $x; done",
    "x=str; for i in 1 2; do echo $(( x )); done",
    "x=''; for i in 1 2; do echo $(( x + 5 )); done",
    "x='  '; for i in 1 2; do echo $(( x + 5 )); done",
    "for i in 1 2; do echo $((  )) $(( i )); done",
    "for i in 1 2; do (( )); echo \"rc=$?\"; done",
    "for i in 1 2 3; do echo $[ i * 3 ]; done",
    "for i in 1 2; do let 'y = i * 4' z=y+1; echo $y $z; done",
    "for i in 1 2; do arr=(1 2 3); echo $(( ${#arr[@]} + i )); done",
    "a=(3 4); for i in 0 1; do echo $(( a[i] ** 2 )) $(( a[i]++ )) ${a[i]}; done",
    "for i in 1 2; do echo $(( ~i )) $(( -i )) $(( +i )) $(( !i )); done",
    "for i in 1 2 3; do echo $(( i<2 )) $(( i<=2 )) $(( i>2 )) $(( i>=2 )) $(( i==2 )) $(( i!=2 )) $(( i<<2 )) $(( i>>1 )); done",
    "v0=1; for i in $(seq 1 30); do eval \"v$i=v$((i-1))\"; done; for j in 1 2 3 4 5; do echo $j: $((v30)); echo $(( (v30) )); echo $(( -v30 )); echo $(( ((v30)) )); echo $(( x = v30 )); echo $(( v30 ? 1 : 0 )); echo $(( 1 + v30 * 2 )); echo $(( a[v30] )); v0=w; w=1; done",
    "v0=1; for i in $(seq 1 30); do eval \"v$i=v$((i-1))\"; done; for j in 1 2 3; do echo $(( v30++ )) $(( ++v30 )) ; v30=v29; done",
    "v0=1; for i in $(seq 1 30); do eval \"v$i=v$((i-1))\"; done; for j in 1 2 3; do echo $(( !v30 )) $(( ~v30 )) $(( +v30 )) $(( ++(v30) )); v0=w; w=1; done",
    "v0=1; for i in $(seq 1 30); do eval \"v$i=v$((i-1))\"; done; for j in 1 2 3; do echo $(( 0 && v30 )) $(( 1 || (v30) )) $(( 0 ? (v30) : 2 )); v0=w; w=1; done",
    "v0=1; for i in $(seq 1 30); do eval \"v$i=v$((i-1))\"; done; for j in 1 2 3; do echo $(( v30 ** 2 )) $(( 2 ** v30 )) ; v0=w; w=1; done",
    "v0=1; for i in $(seq 1 30); do eval \"v$i=v$((i-1))\"; done; for j in 1 2 3; do (( v30 += 0 )); echo rc=$?; v0=w; w=1; done",
    "a=(1 2 3); v0=1; for i in $(seq 1 30); do eval \"v$i=v$((i-1))\"; done; for j in 1 2 3; do echo $(( a[v29] )) $(( a[(v29)] )); v0=w; w=1; done",
    "echo $(( 1 +\n2 ))",
    "echo $(( 1\n+\n2 ))",
    "x=0; for ((i=0;i<1000;i++)); do x=$((x+i)); done; echo $x",
};

typedef struct outcome {
  char *out, *err; /* copies of the streams */
  int status;      /* exit code */
} outcome;

static outcome run_fresh(const char *script, bool cache_off) {
  outcome o = {0};
  sbx *h = NULL;
  if (sbx_open(NULL, SBX_OPEN_MEMORY, &h) != SBX_OK) {
    o.status = -1;
    return o;
  }
  sh_arith_cache_off = cache_off;
  sbx_bash_result r;
  sbx_bash(h, script, strlen(script), &r);
  sh_arith_cache_off = false;
  o.out = strdup(r.out ? r.out : "");
  o.err = strdup(r.err ? r.err : "");
  o.status = r.exit_code;
  sbx_bash_result_free(&r);
  sbx_close(h);
  return o;
}

static void outcome_free(outcome *o) {
  free(o->out);
  free(o->err);
}

TEST(recorded_programs_match_the_text_evaluator) {
  for (size_t i = 0; i < sizeof diff_cases / sizeof diff_cases[0]; i++) {
    char script[8192];
    snprintf(script, sizeof script, "arith_case() {\n%s\n}\narith_case; echo '-- 2'; arith_case; echo '-- 3'; arith_case\n",
             diff_cases[i]);
    outcome text = run_fresh(script, true), cached = run_fresh(script, false);
    bool same = text.status == cached.status && !strcmp(text.out, cached.out) && !strcmp(text.err, cached.err);
    if (!same)
      fprintf(stderr, "  case: %s\n  text:   [%d] %s|%s\n  cached: [%d] %s|%s\n", diff_cases[i], text.status,
              text.out, text.err, cached.status, cached.out, cached.err);
    CHECK(same);
    outcome_free(&text);
    outcome_free(&cached);
  }
}

/* Runs script in sandbox h; checks stdout, stderr and status. */
static void expect(sbx *h, const char *script, const char *out, const char *err, int status) {
  sbx_bash_result r;
  sbx_bash(h, script, strlen(script), &r);
  CHECK_STR(r.out, out);
  CHECK_STR(r.err, err);
  CHECK_EQ(r.exit_code, status);
  sbx_bash_result_free(&r);
}

TEST(loops_give_the_same_values_every_time) {
  sbx *h = NULL;
  REQUIRE(sbx_open(NULL, SBX_OPEN_MEMORY, &h) == SBX_OK);
  /* the benchmark loop, in one session again and again */
  for (int k = 0; k < 3; k++)
    expect(h, "x=0; for ((i=0;i<1000;i++)); do x=$((x+i)); done; echo $x", "499500\n", "", 0);
  /* a value that is an expression is evaluated again each time */
  expect(h, "for k in 1 2 3; do x=\"$k+2\"; echo $((x*3)); done", "9\n12\n15\n", "", 0);
  /* the error comes on the fourth pass, with the text's own token */
  expect(h, "k=0; for i in 1 2 3 4; do echo $(( 10 / (3 - k++) )); done", "3\n5\n10\n",
         "sbx: line 1: 10 / (3 - k++) : division by 0 (error token is \"(3 - k++) \")\n", 1);
  expect(h, "for i in 2 1 0 -1; do echo $(( 2 ** i )); done", "4\n2\n1\n",
         "sbx: line 1: 2 ** i : exponent less than 0 (error token is \"i \")\n", 1);
  /* noeval arms skip side effects each time */
  expect(h, "n=0; for i in 0 1 0 1; do (( i && n++ )); done; echo $n", "2\n", "", 0);
  expect(h, "n=0; for i in 0 1; do echo $(( i ? n += 10 : n-- )); done; echo $n", "0\n9\n9\n", "", 0);
  sbx_close(h);
}

TEST(variable_value_recursion_limit_is_the_same_when_recorded) {
  sbx *h = NULL;
  REQUIRE(sbx_open(NULL, SBX_OPEN_MEMORY, &h) == SBX_OK);
  /* v509 -> v508 -> ... -> v0 = 1 is within the limit (bash's is 1024
   * levels, ours 1024 counting a value and its operator as two); one more
   * level is not. ble.sh's idioms recurse 100 levels through one variable. */
  expect(h, "v0=1; for i in $(seq 1 509); do eval \"v$i=v$((i-1))\"; done", "", "", 0);
  expect(h, "for k in 1 2; do echo $(( -v509 )) $(( ((v509)) )); done", "-1 1\n-1 1\n", "", 0);
  expect(h, "v0=w w=1; for k in 1 2; do echo $(( -v509 )) $(( ((v509)) )); done", "",
         "sbx: line 1: w: expression recursion level exceeded (error token is \"w\")\n", 1);
  expect(h, "loop='i<=100&&(s+=i,i++,loop)' s=0 i=0; echo $((a=loop,s))", "5050\n", "", 0);
  sbx_close(h);
}

TEST(more_texts_than_the_cache_holds_and_long_texts) {
  sbx *h = NULL;
  REQUIRE(sbx_open(NULL, SBX_OPEN_MEMORY, &h) == SBX_OK);
  /* 100 distinct texts, each three times: programs are replaced, results stay */
  char script[16384];
  size_t n = 0;
  n += (size_t)snprintf(script + n, sizeof script - n, "s=0; for k in 1 2 3; do\n");
  for (int i = 0; i < 100; i++) n += (size_t)snprintf(script + n, sizeof script - n, "(( s += %d ))\n", i);
  n += (size_t)snprintf(script + n, sizeof script - n, "done; echo $s\n");
  expect(h, script, "14850\n", "", 0);
  /* a text longer than the cache keeps (300 operands) */
  n = (size_t)snprintf(script, sizeof script, "for k in 1 2 3; do echo $(( 0");
  for (int i = 0; i < 300; i++) n += (size_t)snprintf(script + n, sizeof script - n, "+k");
  snprintf(script + n, sizeof script - n, " )); done");
  expect(h, script, "300\n600\n900\n", "", 0);
  sbx_close(h);
}

/* "0*K+J" for the first K whose cache set is `set`. */
static void inner_text(char *buf, size_t n, int j, int set) {
  for (int k = 0; k < 100000; k++) {
    snprintf(buf, n, "0*%d+%d", k, j);
    if (sh_arith_cache_slot(buf) == set) return;
  }
  buf[0] = 0;
}

TEST(a_text_pushed_out_while_its_program_runs) {
  /* The outer text's subscript holds five $((...)) (escaped, so the outer
   * text stays literal) whose texts fall in the outer text's set, one more
   * than the set holds: every run of the outer program pushes programs out
   * of that set while it runs. Under ASan a freed program would be caught. */
  const int set = 3;
  char inner[5][32], text[512], script[640];
  for (int j = 0; j < 5; j++) {
    inner_text(inner[j], sizeof inner[j], j + 1, set);
    REQUIRE(inner[j][0]);
  }
  int m = 0;
  for (; m < 100000; m++) {
    /* the text between (( and )) */
    snprintf(text, sizeof text, " a[$((%s))+$((%s))+$((%s))+$((%s))+$((%s))] = i+0*%d ", inner[0], inner[1],
             inner[2], inner[3], inner[4], m);
    if (sh_arith_cache_slot(text) == set) break;
  }
  REQUIRE(m < 100000);
  snprintf(script, sizeof script,
           "for i in 1 2 3 4; do (( a[\\$((%s))+\\$((%s))+\\$((%s))+\\$((%s))+\\$((%s))] = i+0*%d )); done; "
           "echo ${!a[@]} ${a[@]}",
           inner[0], inner[1], inner[2], inner[3], inner[4], m);
  sbx *h = NULL;
  REQUIRE(sbx_open(NULL, SBX_OPEN_MEMORY, &h) == SBX_OK);
  expect(h, script, "15 4\n", "", 0);
  expect(h, script, "15 4\n", "", 0);
  sbx_close(h);
}

int main(int argc, char **argv) {
  harness_init(argc, argv);
  RUN(recorded_programs_match_the_text_evaluator);
  RUN(loops_give_the_same_values_every_time);
  RUN(variable_value_recursion_limit_is_the_same_when_recorded);
  RUN(more_texts_than_the_cache_holds_and_long_texts);
  RUN(a_text_pushed_out_while_its_program_runs);
  return harness_done();
}
