# The shell's parser on hostile input (found by tests/cmd/crashhunt.py).

# Lookahead over a long word used to be quadratic (a 2 MB word never finished).
test: long name word parses in linear time
cmd: x=$(yes a | head -n 1000000 | tr -d '\n'); eval "echo $x" | wc -c
out: 1000001\n

test: long digit word parses in linear time
cmd: x=$(yes 1 | head -n 1000000 | tr -d '\n'); eval "echo $x" | wc -c
out: 1000001\n

test: long subscript of an assignment
cmd: x=$(yes a | head -n 60000 | tr -d '\n'); eval "a[$x]=1"; echo ${#a[@]} ${a[0]}
out: 1 1\n

test: long word inside arithmetic lookahead
cmd: x=$(yes a | head -n 300000 | tr -d '\n'); eval "echo \$(( $x ))"
out: 0\n

test: continuations inside lookahead
cmd: eval "$(printf 'a\\\nb=1; c[1\\\n]=2; echo $ab ${c[1]} $(( 1 +\\\n 2 ))')"
out: 1 2 3\n

test: read and mapfile take only what they use from a file
cmd: printf 'one\ntwo\nthree\nfour\n' > f; { read -r a; mapfile -t -n 1 B; cat; } < f; echo "$a ${B[0]}"; exec 3< f; read -r -u 3 x; read -r -n 2 -u 3 y; cat <&3
out: three\nfour\none two\no\nthree\nfour\n

test: read and mapfile of a 1 MB line
cmd: head -c 1000000 /dev/zero | tr '\0' x > f; echo >> f; echo end >> f; read -r L < f; mapfile -t M < f; echo ${#L} ${#M[0]} ${M[1]}
out: 1000000 1000000 end\n

test: mapfile -C calls the callback every -c lines with the index and the line
cmd: printf 'a\nb\nc\n' > f; mapfile -t -C 'printf "<%s %s>\n"' -c 2 B < f; echo ${B[@]}; f() { echo "$1:$2"; }; seq 12 | { mapfile -t -C f -c 5 C; echo ${#C[@]}; }
out: <1 b>\na b c\n4:5\n9:10\n12\n

# ---- parameter transforms and declare -p quoting (bash 5.2) ----

test: @K on an associative array gives key "value" pairs with a trailing space
cmd: declare -A m=([k]=v [j]="w x" ["a b"]=$'c\nd'); echo "${m[@]@K}|"; printf '<%s>' "${m[@]@K}"; echo
out: k "v" j "w x" "a b" $'c\\nd' |\n<k "v" j "w x" "a b" $'c\\nd' >\n

test: @K on an indexed array gives index "value" pairs, @K on a scalar or element quotes like @Q
cmd: a=(x "y z" '' $'q\tr'); a[7]='$s'; echo "${a[@]@K}|"; s="hi there"; echo "${s@K}|${a[1]@K}|${a@K}"
out: 0 "x" 1 "y z" 2 "" 3 $'q\\tr' 7 "\\$s"|\n'hi there'|'y z'|'x'\n

test: @k on arrays expands keys and values to separate words
cmd: declare -A m=([k]=v [j]="w x"); printf '<%s>' "${m[@]@k}"; echo; a=(x "y z"); printf '<%s>' "${a[@]@k}"; echo; printf '<%s>' ${a[@]@k}; echo; printf '<%s>' "${a[*]@k}"; echo
out: <k><v><j><w x>\n<0><x><1><y z>\n<0><x><1><y><z>\n<0 x 1 y z>\n

test: @k on a scalar and on the positional parameters quotes like @Q
cmd: s="a b"; set -- p "q r"; printf '<%s>' "${s@k}" "${@@k}"; echo
out: <'a b'><'p'><'q r'>\n

test: declare -p quotes values with control characters as $'...' and keys only when needed
cmd: x=$'a\nb'; declare -p x; a=($'a\tb' '$x'); declare -p a
cmd: declare -A m=(["a b"]=1 [@]=2 [a=b]=3 ["#x"]=4 [x#]=5 [-z]=$'\e'); declare -p m
out: declare -- x=$'a\\nb'\ndeclare -a a=([0]=$'a\\tb' [1]="\\$x")\n
out: declare -A m=([x#]="5" ["#x"]="4" [a=b]="3" ["@"]="2" [-z]=$'\\E' ["a b"]="1" )\n
