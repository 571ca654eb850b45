# Assigning in arithmetic to something that is not a variable: bash names
# the error "attempted assignment to non-variable" wherever it happens.
check() { (eval "$1"); echo "status $?"; }
check '(( 7=4 ))'
check '(( 2+=1 ))'
check 'n=5; (( n+1=3 ))'
check '(( (1=2) ))'
check '(( 1 ? 3=4 : 0 ))'
check '(( n = 2 = 3 ))'
check 'echo $(( 3 <<= 1 ))'
check 'let "5 -= 1"'
# a real variable still works, also in every one of those places
n=1; (( n += 2, m = (k = 3) )); echo "$n $m $k"
(( 1 ? (j = 4) : 0 )); echo "$j"
echo $(( a[1] = 7 )) ${a[1]}
