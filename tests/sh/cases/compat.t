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

### FUNCNAME has no "main" frame outside a script file; a sourced file alone is no function
f() { echo "${#FUNCNAME[@]} ${FUNCNAME[*]} ${#BASH_LINENO[@]}"; }
f
echo 'echo "[${FUNCNAME[*]}]"; f' > lib.sh
. ./lib.sh
echo "top ${#FUNCNAME[@]} ${#BASH_SOURCE[@]}"
--- stdout
1 f 1
[]
2 f source 2
top 0 0

### a function keeps the name of the file it came from after source returns
echo 'g() { echo "${BASH_SOURCE[0]}"; }' > lib2.sh
. ./lib2.sh
x=$(printf '%0200d' 0)
g
--- stdout
./lib2.sh

### a script file gets a main frame
printf 'f() { echo "${FUNCNAME[*]}|${BASH_SOURCE[*]}|${BASH_LINENO[*]}"; }\nf\n' > s.sh
bash s.sh
--- stdout
f main|s.sh s.sh|2 0

### set -u: ${u[@]} and ${u[*]} of an unset array are empty, ${#u[@]} is not
set -u
echo "/${u[@]}/${u[*]}/"
(echo "${#u[@]}")
echo "status $?"
--- stdout
///
status 1
--- stderr
sbx: line 3: u: unbound variable

### quoted keys of an associative array in arithmetic
declare -A A=([spam]=42)
(( x = A['spam'] + A["spam"] )); (( A['n'] = 5 ))
echo $x $(( A['spam'] )) ${A[n]}
--- stdout
84 42 5

### '!' ignores set -e only when set -e is on as it starts
f() { set -e; false; echo not reached; }
! f
echo "not reached either"
--- stdout
--- status 1

### set -e on before '!': a failure inside does not exit
set -e
g() { false; echo after; }
! g
echo end
--- stdout
after
end

### LINENO in a for ((;;)) condition is the line of the for
echo one
for (( i = 0; i < $LINENO; i++ )); do
  echo $i
done
--- stdout
one
0
1

### too many arguments to shift/exit/return abandon the command line, the script goes on
set -- a b c; shift 1 extra; echo not reached
echo "next $? $#"
f() { return 1 2; echo not reached; }; f; echo not reached
echo "after return $?"
exit 3 4
echo "after exit $?"
--- stdout
next 1 3
after return 1
after exit 1
--- stderr
sbx: line 1: shift: too many arguments
sbx: line 3: return: too many arguments
sbx: line 5: exit: too many arguments

### in bash -c they end the whole string; an unbound variable ends it with 127
bash -c 'shift 1 2
echo not reached' 2>/dev/null
echo "status $?"
bash -c 'set -u; (echo $u); echo "sub $?"; echo $u; echo not reached' 2>/dev/null
echo "status $?"
--- stdout
status 1
sub 1
status 127

### ERR under '!': not for the negated command itself, but for failures inside it
trap 'echo "ERR $LINENO"' ERR
! false
! { false; }
f() { return 1; }
! f
--- stdout
ERR 3

### SHELLOPTS and BASHOPTS list the options that are on, and are readonly
set -u -o pipefail
echo "$SHELLOPTS"
shopt -s nullglob
[[ :$BASHOPTS: == *:nullglob:* ]] && echo nullglob on
SHELLOPTS=x
echo "status $?"
unset SHELLOPTS
echo "status $?"
--- stdout
braceexpand:hashall:interactive-comments:nounset:pipefail
nullglob on
status 1
status 1
--- stderr
sbx: line 5: SHELLOPTS: readonly variable
sbx: line 7: unset: SHELLOPTS: cannot unset: readonly variable

### command -v succeeds when any name is found; command -V shows a function's text
f() { echo x; }
command -v nosuch f; echo "status $?"
command -v nosuch; echo "status $?"
command -V f
--- stdout
f
status 0
status 1
f is a function
f () 
{ 
    echo x
}

### A+=x before a command appends to the current value for that command only
A=a
A+=b eval 'echo $A'
echo $A
--- stdout
ab
a

### assigning a readonly variable abandons the command line; as a prefix the command still runs
readonly r=1
r=3 echo prefix; echo "status $?"
r=2; echo not reached
echo "next $?"
(r=4; echo not reached)
echo "subshell $?"
--- stdout
prefix
status 0
next 1
subshell 1

### a quoted directory part before an unquoted glob stays literal
mkdir -p t; touch 't/[bc]ar.mm' t/bar.mm t/car.mm
echo 't/[bc]'*.mm - t/?ar.mm
d='t/[bc]'; echo "$d"*
--- stdout
t/[bc]ar.mm - t/bar.mm t/car.mm
t/[bc]ar.mm

### test with three arguments and -a/-o in the middle compares two strings
[ -z -a ] ]; echo $?
[ -z -a -a ]; echo $?
[ "" -a x ]; echo $?
[ "" -o x ]; echo $?
--- stdout
0
0
1
0

### local under a prefix assignment or inside IFS= eval belongs to the function
f() {
  E=env local v=var
  IFS= eval 'local w=1'
  echo "[$E] $v $w"
}
f
echo "after [$v] [$w]"
--- stdout
[] var 1
after [] []

### a function name may hold a slash
function lib/greet { echo "hi $1"; }
lib/greet there
--- stdout
hi there

### a unary operator of [[ ]] takes the next word whatever it is
[[ -f == ]]; echo $?
[[ -n == ]]; echo $?
[[ -z != ]]; echo $?
[[ -n ! ]]; echo $?
eval '[[ -n == x ]]'; echo $?
eval '[[ -n < ]]'; echo $?
eval '[[ -n ]]'; echo $?
--- stdout
1
0
1
0
2
2
2
--- stderr
sbx: eval: line 5: syntax error in conditional expression
sbx: eval: line 6: unexpected argument `<' to conditional unary operator
sbx: eval: line 7: unexpected argument `]]' to conditional unary operator

### posix mode: a readonly assignment skips the command, and exits alone or before a special builtin
readonly x=1
x=2 echo no
echo "status $?"
set -o posix
x=2 echo no
echo "status $?"
(x=2 :; echo no)
echo "status $?"
x=2
echo no
--- stdout
no
status 0
status 1
status 1
--- stderr
sbx: line 2: x: readonly variable
sbx: line 5: x: readonly variable
sbx: line 7: x: readonly variable
sbx: line 9: x: readonly variable
--- status 1

### a subscript spans blanks only in assignment position
printf '<%s>' a[1 + 2]= b[ 3 ]+=
echo
a[1 + 2]=5
declare -p a
echo $(c[0 + 1]=4; echo ${c[1]}) x[1 + 1]=
declare d[ 1 ]=Y
--- stdout
<a[1><+><2]=><b[><3><]+=>
declare -a a=([3]="5")
4 x[1 + 1]=
--- stderr
sbx: line 6: declare: `d[': not a valid identifier
sbx: line 6: declare: `1': not a valid identifier
sbx: line 6: declare: `]=Y': not a valid identifier
--- status 1

### an array literal belongs to assignments, declarations, eval and let
let x=( 1 + 2 ) y=(x*2)
eval 'z=( a b )'
declare b[a[0]=1]=X
echo $x $y ${z[1]}
declare -p a b
eval 'for w in a=(); do :; done'
eval 'case a=() in *) ;; esac'
--- stdout
3 6 b
declare -a a=([0]="1")
declare -a b=([1]="X")
--- stderr
sbx: eval: line 6: syntax error near unexpected token `('
sbx: eval: line 6: `for w in a=(); do :; done'
sbx: eval: line 7: syntax error near unexpected token `('
sbx: eval: line 7: `case a=() in *) ;; esac'
--- status 2

### an indirect reference's subscript is not tilde-expanded
a=(x y z)
ref='a[1+1]'
echo ${!ref}
PWD=1
ref='a[~]'
echo ${!ref}
echo next
--- stdout
z
next
--- stderr
sbx: line 6: ~: syntax error: operand expected (error token is "~")

### command -v names a file by its path only when it may be executed
touch ne ex
chmod +x ex
command -v ./ne; echo $?
command -V ./ne; echo $?
command -v ./ex; echo $?
--- stdout
1
1
./ex
0
--- stderr
sbx: line 4: command: ./ne: not found

### builtin options as bash's getopt reads them: letters grouped, an argument in the next word, one letter named in errors
mapfile -tn 1 a <<< x; echo "${a[*]}"
read -rd: w <<< 'x y:z'; echo "$w"
umask 022; umask -Sp
trap -lp | head -n 1
hash -p; echo "status $?"
mapfile -d; echo "status $?"
wait -p; echo "status $?"
cd -Pz; echo "status $?"
umask -Sz; echo "status $?"
--- stdout
x
x y
umask -S u=rwx,g=rx,o=rx
 1) SIGHUP	 2) SIGINT	 3) SIGQUIT	 4) SIGILL	 5) SIGTRAP
status 2
status 2
status 2
status 2
status 2
--- stderr
sbx: line 5: hash: -p: option requires an argument
hash: usage: hash [-lr] [-p pathname] [-dt] [name ...]
sbx: line 6: mapfile: -d: option requires an argument
mapfile: usage: mapfile [-d delim] [-n count] [-O origin] [-s count] [-t] [-u fd] [-C callback] [-c quantum] [array]
sbx: line 7: wait: -p: option requires an argument
wait: usage: wait [-fn] [-p var] [id ...]
sbx: line 8: cd: -z: invalid option
cd: usage: cd [-L|[-P [-e]] [-@]] [dir]
sbx: line 9: umask: -z: invalid option
umask: usage: umask [-p] [-S] [mode]

### integer arguments as bash's legal_number reads them (return, shift, test): any white space before, blanks after, digits required; trap -p lists only the signals named
[ $'\n3' -eq 3 ] && echo "leading newline: a number"
f() { return " "; }
f; echo "status $?"
set -- a b c; shift $' \t2 '; echo "$#"
trap 'echo usr1' USR1; trap -p USR1 HUP; trap -p
--- stdout
leading newline: a number
status 2
1
trap -- 'echo usr1' SIGUSR1
trap -- 'echo usr1' SIGUSR1
--- stderr
sbx: line 2: return:  : numeric argument required

### ${x@E} decodes as $'...' does: \u, \c, \x, octal
x='a\u00e9b\cAc\x41\101\q'
printf %s "${x@E}" | od -An -c
--- stdout
   a 303 251   b 001   c   A   A   \   q
