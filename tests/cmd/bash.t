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

# ---- RETURN, DEBUG and ERR traps around functions and sourced files ----

test: a RETURN trap set inside a function runs when it returns, with $? before return
cmd: f() { trap 'echo RET $?' RETURN; false; return 3; }; f; echo "st=$?"; trap -p RETURN
out: RET 1\nst=3\ntrap -- 'echo RET $?' RETURN\n

test: the RETURN trap stays set and runs for the caller too, not after exit
cmd: f() { trap 'echo RET ${FUNCNAME[0]}' RETURN; }; h() { f; echo back-in-h; }; h; trap - RETURN
cmd: t() { trap 'echo T-RET' RETURN; exit 4; }; (t); echo "st=$?"
out: RET f\nback-in-h\nRET h\nst=4\n

test: functions do not see the caller's RETURN and DEBUG traps unless functrace or declare -t
cmd: trap 'echo TOP' RETURN; g() { trap -p RETURN; echo g; }; g; set -T; g; set +T
cmd: k() { echo k; }; declare -ft k; k; trap - RETURN
out: g\ntrap -- 'echo TOP' RETURN\ng\nTOP\nk\nTOP\n

test: a sourced file runs the RETURN trap when it ends; a trap set there stays
cmd: echo 'trap "echo SRC-RET" RETURN; echo sourcing' > s.sh; . ./s.sh; echo after; m() { echo in-m; }; m
out: sourcing\nSRC-RET\nafter\nin-m\n

test: functions do not see the ERR trap without errtrace, but one they set fires
cmd: trap 'echo ERR-top' ERR; f() { trap -p ERR; false; echo in-f; }; f; set -E; f; set +E; trap - ERR
cmd: g() { trap 'echo ERR-in-g' ERR; false; echo after; }; g
out: in-f\ntrap -- 'echo ERR-top' ERR\nERR-top\nin-f\nERR-in-g\nafter\n

test: a DEBUG trap set in a function stays after it; a sourced file does not see it
cmd: f() { trap 'echo "D: $BASH_COMMAND"' DEBUG; echo x; }; f; echo 'echo in-file' > s.sh; . ./s.sh; trap - DEBUG
out: D: echo x\nx\nD: echo 'echo in-file' > s.sh\nD: . ./s.sh\nin-file\nD: trap - DEBUG\n

test: BASH_COMMAND names the command running, in DEBUG, ERR and EXIT traps
cmd: trap 'echo "exit after: $BASH_COMMAND ($?)"' EXIT; trap 'echo "ERR: $BASH_COMMAND"' ERR
cmd: x=1; echo "now: $BASH_COMMAND"; (( x += 1 )); [[ $x == 2 ]]; echo hi | cat >/dev/null
cmd: false; set -e; f() { local y=2; false "$y" 2>/dev/null >&2; }; f
out: now: echo "now: $BASH_COMMAND"\nERR: false\nexit after: false "$y" 2> /dev/null 1>&2 (1)\n
status: 1

# ---- declare -f: the printed text reads back as the same commands ----

test: declare -f writes here-document bodies after the line and reads back
cmd: usage() {
cmd:   cat <<EOF
cmd: Usage: x
cmd: EOF
cmd:   echo done
cmd: }
cmd: g() { cat <<EOF | tr a-z A-Z
cmd: abc
cmd: EOF
cmd: }
cmd: declare -f usage g; eval "$(declare -f usage g)"; usage; g
out: usage () \n{ \n    cat <<EOF\nUsage: x\nEOF\n\n    echo done\n}\ng () \n{ \n    cat <<EOF |\nabc\nEOF\n  tr a-z A-Z\n}\nUsage: x\ndone\nABC\n

test: declare -f prints redirections, assignments and background lists as bash does
cmd: f() { echo a >&2; cat <&3; cat 0< f 4<&-; echo d &> f; cat <<< str; x=$(echo cs) y="q r" cmd; sleep 1 & wait; if x; then y & fi; }; declare -f f
out: f () \n{ \n    echo a 1>&2;\n    cat 0<&3;\n    cat < f 4>&-;\n    echo d &> f;\n    cat <<< str;\n    x=$(echo cs) y="q r" cmd;\n    sleep 1 & wait;\n    if x; then\n        y &\n    fi\n}\n

# ---- declared-but-unset arrays, UTF-8 pattern removal ----

test: declare -a without a value declares an unset array; declare -p shows no =()
cmd: declare -a a1; readonly -a a2; declare -A d1; f() { local -a la; declare -p la; }; declare -p a1 a2 d1; f
cmd: echo "${a1[@]-unset}" ${#a1[@]}; a1+=(x); declare -a e=(); declare -p a1 e
cmd: set -u; echo ${#e[@]}; echo ${#d1[@]}
out: declare -a a1\ndeclare -r a2\ndeclare -A d1\ndeclare -a la\nunset 0\ndeclare -a a1=([0]="x")\ndeclare -a e=()\n0\n
err: bash: line 3: d1: unbound variable\n
status: 1

test: # % ## %% and / cut between UTF-8 characters
cmd: v='-μ'; echo "${v%?}" "${v%%?}" "${v#?}"; x=μabcμ; echo "[${x%?abc?}][${x##?abc?}]"
cmd: y=aμbμc; echo "${y/%?/X}" "${y//?/-}" "${y/#*μ/X}" "${y/%μ*/X}"
out: - - μ\n[][]\naμbμX ----- Xc aX\n

test: declare -a with a computed NAME=(...) argument assigns an array literal
cmd: y="p q"; n=arr; declare -a "$n=(\$y z)"; declare -p arr; declare -A "h=([k]=v)"; declare -p h
cmd: declare "w=(b c)"; declare -p w; declare -a "t=(1); echo x"; declare -p t; arr=(a); declare -a "arr+=(b)"; echo "${arr[@]}"
cmd: f() { local -a "l=(1 2)"; declare -p l; }; f
out: declare -a arr=([0]="p" [1]="q" [2]="z")\ndeclare -A h=([k]="v" )\ndeclare -- w="(b c)"\ndeclare -a t=([0]="(1); echo x")\na b\ndeclare -a l=([0]="1" [1]="2")\n

test: globstar lists a path once when several ** reach it
cmd: shopt -s globstar; mkdir -p c/subdir; touch leaf.md c/leaf.md c/subdir/leaf.md; echo **/**/*.md; echo c/**/
out: c/leaf.md c/subdir/leaf.md leaf.md\nc/ c/subdir/\n

# ---- help, enable, usage messages ----

test: help -s prints usage lines; a glob pattern gets a header; a prefix matches
cmd: help -s echo cd; help -s 'e*'; help -s ec 'for*'
out: echo: echo [-neE] [arg ...]\ncd: cd [-L|[-P [-e]] [-@]] [dir]\n
out: Shell commands matching keyword `e*'\n\necho: echo [-neE] [arg ...]\nenable: enable [-a] [-dnps] [-f filename] [name ...]\neval: eval [arg ...]\nexec: exec [-cl] [-a name] [command [argument ...]] [redirection ...]\nexit: exit [n]\nexport: export [-fn] [name[=value] ...] or export -p\n
out: echo: echo [-neE] [arg ...]\nfor: for NAME [in WORDS ... ] ; do COMMANDS; done\nfor ((: for (( exp1; exp2; exp3 )); do COMMANDS; done\n

test: help NAME, -d and -m layouts
cmd: help cd | head -1; help cd | sed -n 2p | cut -c1-5 | tr ' ' .; help -d read '[[' | cut -d' ' -f1-2; help -m true | grep '^[A-Z]'
out: cd: cd [-L|[-P [-e]] [-@]] [dir]\n....C\n
out: read -\n[[ ...\nNAME\nSYNOPSIS\nDESCRIPTION\nSEE ALSO\nIMPLEMENTATION\n

test: help without a match or with a bad option fails like bash
cmd: help xyz; echo "st=$?"; help -z; echo "st=$?"; help echo xyz >/dev/null; echo "st=$?"
out: st=1\nst=2\nst=0\n
err: bash: line 1: help: no help topics match `xyz'.  Try `help help' or `man -k xyz' or `info xyz'.\nbash: line 1: help: -z: invalid option\nhelp: usage: help [-dms] [pattern ...]\n

test: messages from a script or sourced file start with its name and line
cmd: printf 'echo a\nfoo\nf() {\n  bar\n}\nf\n' > e.sh; bash e.sh; chmod +x e.sh; ./e.sh; . ./e.sh
out: a\na\na\n
err: e.sh: line 2: foo: command not found\ne.sh: line 4: bar: command not found\n
err: ./e.sh: line 2: foo: command not found\n./e.sh: line 4: bar: command not found\n
err: ./e.sh: line 2: foo: command not found\n./e.sh: line 4: bar: command not found\n
status: 127

test: enable -n disables a builtin so the command of that name runs
cmd: enable -n echo test; type -t echo; enable -n; enable echo; type -t echo; enable nosuch; echo "st=$?"
out: file\nenable -n echo\nenable -n test\nbuiltin\nst=1\n
err: bash: line 1: enable: nosuch: not a shell builtin\n

test: invalid options print bash's usage line
cmd: declare -z; typeset -z; export -z; dirs -lv; pushd +1z; mapfile -z; local -z
out:
err: bash: line 1: declare: -z: invalid option\ndeclare: usage: declare [-aAfFgiIlnrtux] [name[=value] ...] or declare -p [-aAfFilnrtux] [name ...]\n
err: bash: line 1: typeset: -z: invalid option\ntypeset: usage: typeset [-aAfFgiIlnrtux] name[=value] ... or typeset -p [-aAfFilnrtux] [name ...]\n
err: bash: line 1: export: -z: invalid option\nexport: usage: export [-fn] [name[=value] ...] or export -p\n
err: bash: line 1: dirs: -lv: invalid number\ndirs: usage: dirs [-clpv] [+N] [-N]\n
err: bash: line 1: pushd: +1z: invalid number\npushd: usage: pushd [-n] [+N | -N | dir]\n
err: bash: line 1: mapfile: -z: invalid option\nmapfile: usage: mapfile [-d delim] [-n count] [-O origin] [-s count] [-t] [-u fd] [-C callback] [-c quantum] [array]\n
err: bash: line 1: local: can only be used in a function\n
status: 1

# ---- differential pass fixes ----

test: ${x/p/r} in double quotes: & and backslashes in the replacement work as unquoted
cmd: s=a.b.c; echo "${s//./\/}" "${s/./&&}" "${s/./\&}" "${s/./'&'}" "${s/b/\n}"; r='[&]'; echo "${s/b/$r}" "${s/b/"$r"}"
out: a/b/c a..b.c a&b.c a&b.c a.n.c\na.[b].c a.[&].c\n

test: ${x@A} single-quotes scalars whatever their attributes
cmd: declare -i n=5; declare -r r="it's"; x=$'a\tb'; echo "${n@A} ${r@A} ${x@A}"
out: declare -i n='5' declare -r r='it'\\''s' x=$'a\\tb'\n

test: let, [[ ]] and (( )) name themselves in arithmetic errors
cmd: let "1/0"; [[ 1/0 -eq 1 ]]; (( 2/0 )); for ((i=0; i<1/0; i++)); do :; done; echo $(( 3/0 ))
out:
err: bash: line 1: let: 1/0: division by 0 (error token is "0")\nbash: line 1: [[: 1/0: division by 0 (error token is "0")\nbash: line 1: ((: 2/0 : division by 0 (error token is "0 ")\n
err: bash: line 1: ((: i<1/0: division by 0 (error token is "0")\nbash: line 1: 3/0 : division by 0 (error token is "0 ")\n
status: 1

test: printf names the base of an invalid integer; getopts errors carry $0 and no line
cmd: printf '%d\n' 08 0xg 1e; f() { getopts a o -x; }; f
out: 0\n0\n1\n
err: bash: line 1: printf: 08: invalid octal number\nbash: line 1: printf: 0xg: invalid hex number\nbash: line 1: printf: 1e: invalid number\nbash: illegal option -- x\n

test: finished jobs leave the table (numbers restart at 1) but wait PID keeps their status
cmd: (exit 3) & p=$!; sleep 0.2; wait $p; echo "wp=$?"; wait $p; echo "again=$?"
cmd: (exit 0) & sleep 0.2; sleep 5 & kill %1; wait %1; echo "killed=$?"; jobs; echo listed
out: wp=3\nagain=3\nkilled=143\nlisted\n

test: jobs shows each job's command text
cmd: sleep 1 | cat & { sleep 1; echo; } & x=1 sleep 1 > /dev/null & sleep 0.1; jobs; kill %1 %2 %3; wait
out: [1]   Running                 sleep 1 | cat &\n[2]-  Running                 { sleep 1; echo; } &\n[3]+  Running                 x=1 sleep 1 > /dev/null &\n

test: caller reads FUNCNAME, BASH_SOURCE and BASH_LINENO as bash does
cmd: f() { caller; caller 0; echo "st=$?"; }; f; g() { f; }; g; printf 'h() { caller 0; }\nh\n' > s.sh; bash s.sh; . ./s.sh
out: 1 NULL\nst=1\n1 environment\n1 g environment\nst=0\n2 main s.sh\n2 source ./s.sh\n

test: kill -l and trap know the real-time signals
cmd: kill -l | sed -n 7p; kill -l 34 50 64 RTMIN+1 RTMAX-1; trap 'echo x' RTMIN+2; trap -p RTMIN+2
out: 31) SIGSYS\t34) SIGRTMIN\t35) SIGRTMIN+1\t36) SIGRTMIN+2\t37) SIGRTMIN+3\nRTMIN\nRTMAX-14\nRTMAX\n35\n63\ntrap -- 'echo x' SIGRTMIN+2\n

test: local - restores the set options when the function returns
cmd: f() { local -; set -e -o pipefail; shopt -s extglob; echo "in: $-"; }; f; echo "out: $-"; shopt -q extglob && echo extglob-stays; set -o | grep pipefail
out: in: ehBc\nout: hBc\nextglob-stays\npipefail       \toff\n

test: export -f passes functions to nested shells through BASH_FUNC_ variables
cmd: f() { echo "in f $1"; }; export -f f; bash -c 'f x'; echo a | xargs -I{} bash -c 'f {}'; env | grep -c '^BASH_FUNC_f%%='
cmd: env -i 'BASH_FUNC_g%%=() { echo gg; }' bash -c g; env 'BASH_FUNC_h%%=() { echo hh; }; echo no' bash -c h 2>/dev/null; export -nf f; bash -c f 2>/dev/null; echo st=$?
out: in f x\nin f a\n1\ngg\nst=127\n

test: declare -I and localvar_inherit copy the outer variable; declare +a fails
cmd: declare -i n=3; a=(1 2); g() { local -I n a; declare -p n a; }; g; shopt -s localvar_inherit; x=5; h() { local x; echo "$x"; }; h
cmd: declare +a a; echo st=$?
out: declare -i n="3"\ndeclare -a a=([0]="1" [1]="2")\n5\nst=1\n
err: bash: line 2: declare: a: cannot destroy array variables in this way\n

test: syntax errors show the line of the unexpected token, with -c and eval named
cmd: printf 'echo 1\nfor i in 1; do :; done; done\necho 3\n' > s.sh; bash s.sh; echo "st=$?"; eval 'if then'; eval 'echo $(( 1 +'; echo "st=$?"
out: 1\nst=2\nst=2\n
err: s.sh: line 2: syntax error near unexpected token `done'\ns.sh: line 2: `for i in 1; do :; done; done'\n
err: bash: eval: line 1: syntax error near unexpected token `then'\nbash: eval: line 1: `if then'\n
err: bash: eval: line 1: unexpected EOF while looking for matching `)'\n

test: set -u names an unbraced positional parameter with its $
cmd: set -u; (echo "${1}") 2>&1 | sed 's/line [0-9]*/L/'; echo "$1"
out: bash: L: 1: unbound variable\n
err: bash: line 1: $1: unbound variable\n
status: 127

test: a subshell killed by a signal is reported as bash does
cmd: (kill -TERM $BASHPID); echo "st=$?"; (kill -PIPE $BASHPID); echo "st=$?"; (kill -TERM $BASHPID) | cat; echo "p=$?"
cmd: exec 3>&2 2>e; (kill -KILL $BASHPID); { (kill -USR1 $BASHPID); } | cat; sleep 5 & kill -HUP $!; wait $!; exec 2>&3; sed 's/:  *[0-9][0-9]* /: PID /' e
out: st=143\nst=141\np=0\nbash: line 2: PID Killed                  ( kill -KILL $BASHPID )\nbash: line 2: PID User defined signal 1   ( kill -USR1 $BASHPID )\nbash: line 2: PID Hangup                  sleep 5\n
err: Terminated\n

# Background jobs (`jobs`, `wait`, `kill %N`, job specs): each job's text as bash prints
# it, and finished jobs reported or dropped where a non-interactive bash does it.
# A running job sleeps 5 s and is killed at the end; a finished one ends 0.1 s
# after it starts and is looked at after a `sleep 1`. Compound jobs send their
# output to /dev/null so that bash's orphaned sleeps do not hold the pipes.

test: jobs shows a simple command as it was written
cmd: sleep 5 & x=1 sleep 5 2>/dev/null & sleep 5 >>f <<<"in" & jobs; kill %1 %2 %3
out: [1]   Running                 sleep 5 &\n[2]-  Running                 x=1 sleep 5 2> /dev/null &\n[3]+  Running                 sleep 5 >> f <<< "in" &\n

test: jobs shows a group and a subshell on one line
cmd: { echo a; sleep 5; } >/dev/null 2>&1 & ( sleep 5; sleep 6 ) >/dev/null 2>&1 & { sleep 5 & wait; } >/dev/null 2>&1 & jobs; kill %1 %2 %3
out: [1]   Running                 { echo a; sleep 5; } > /dev/null 2>&1 &\n[2]-  Running                 ( sleep 5; sleep 6 ) > /dev/null 2>&1 &\n[3]+  Running                 { sleep 5 & wait; } > /dev/null 2>&1 &\n

test: jobs shows loops, if, for and case on several lines
cmd: while true; do sleep 5; done >/dev/null 2>&1 & if true; then sleep 5; echo; fi >/dev/null 2>&1 & for i in 1 2; do sleep 5; done >/dev/null 2>&1 & case x in x) sleep 5;; y) ;; esac >/dev/null 2>&1 & jobs; kill %1 %2 %3 %4
out: [1]   Running                 while true; do\n    sleep 5;\ndone > /dev/null 2>&1 &\n[2]   Running                 if true; then\n    sleep 5; echo;\nfi > /dev/null 2>&1 &\n[3]-  Running                 for i in 1 2;\ndo\n    sleep 5;\ndone > /dev/null 2>&1 &\n[4]+  Running                 case x in \n    x)\n        sleep 5\n    ;;\n    y)\n\n    ;;\nesac > /dev/null 2>&1 &\n

test: jobs shows a nested loop inside a group
cmd: { until false; do sleep 5; done; echo; } >/dev/null 2>&1 & jobs; kill %1
out: [1]+  Running                 { until false; do\n    sleep 5;\ndone; echo; } > /dev/null 2>&1 &\n

test: jobs shows a pipeline, |& as 2>&1 and drops a leading !
cmd: sleep 5 | cat & sleep 5 |& cat & ! sleep 5 & jobs; kill %1 %2 %3
out: [1]   Running                 sleep 5 | cat &\n[2]-  Running                 sleep 5 2>&1 | cat &\n[3]+  Running                 sleep 5 &\n

test: jobs shows and-or lists, [[ ]] and (( ))
cmd: [[ -n x ]] && sleep 5 || echo no & ((1)) && sleep 5 & jobs; kill %1 %2
out: [1]-  Running                 [[ -n x ]] && sleep 5 || echo no &\n[2]+  Running                 ((1)) && sleep 5 &\n

test: a job that ended is dropped silently and the others keep their numbers
cmd: sleep 0.1 & sleep 5 & sleep 0.1 & sleep 5 & sleep 1; jobs; kill %2 %4
out: [2]-  Running                 sleep 5 &\n[4]+  Running                 sleep 5 &\n

test: a job killed by TERM is dropped silently
cmd: sleep 5 & kill %1; sleep 1; jobs; echo end
out: end\n

test: wait reports the status of a killed or finished job
cmd: sleep 5 & kill %1; wait %1; echo $?; sleep 5 & kill -9 %1; wait %1 2>/dev/null; echo $?; (exit 3) & wait %1; echo $?
out: 143\n137\n3\n

test: wait PID still knows the status of a job that was dropped
cmd: (exit 3) & p=$!; sleep 1; jobs; wait $p; echo $?; wait $p; echo $?; wait %1; echo $?
out: 3\n3\n127\n
err: bash: line 1: wait: %1: no such job\n

test: a job killed by KILL or HUP is reported on stderr at the next command
cmd: exec 2>err; sleep 5 & p=$!; kill -9 %1; sleep 1; echo next; sleep 5 & q=$!; sleep 0.2; kill -HUP %1; sleep 1; sed "s/ *$p / P /; s/ *$q / Q /" err
out: next\nbash: line 1: P Killed                  sleep 5\nbash: line 1: Q Hangup                  sleep 5\n

test: a trapped signal that ends a job is not reported
cmd: trap : HUP; sleep 5 & sleep 0.2; kill -HUP %1; sleep 1; jobs; echo end
out: end\n

test: jobs -l shows pids, a line per pipeline stage
cmd: sleep 5 & p=$!; sleep 5 | cat & q=$(jobs -p %2); r=$!; jobs -l | sed -E "s/ +$p / P /; s/ +$q / Q /; s/ +$r / R /"; kill %1 %2
out: [1]- P Running                 sleep 5 &\n[2]+ Q Running                 sleep 5\n R                       | cat &\n

test: jobs -p shows the first pid of each job and $! is the last one
cmd: sleep 5 & p=$!; sleep 5 | cat & q=$!; [ "$(jobs -p %1)" = $p ] && echo first; [ "$(jobs -p %2)" != $q ] && echo pipeline; jobs -p | wc -l; kill %1 %2
out: first\npipeline\n2\n

test: jobs -r lists running jobs, -s stopped ones, %N one job
cmd: sleep 5 & sleep 5 & jobs -r; jobs -s; jobs %2; jobs 1; kill %1 %2
out: [1]-  Running                 sleep 5 &\n[2]+  Running                 sleep 5 &\n[2]+  Running                 sleep 5 &\n[1]-  Running                 sleep 5 &\n

test: jobs -n lists a job once
cmd: sleep 5 & jobs -n; jobs -n; echo -; jobs; kill %1
out: [1]+  Running                 sleep 5 &\n-\n[1]+  Running                 sleep 5 &\n

test: jobs -x runs a command, job specs that name no job stay as they are
cmd: sleep 5 & jobs -x echo a %7 b; kill %1
out: a %7 b\n

test: job specs %+ %- %% % %string and %?string
cmd: sleep 5 & sleep 6 & jobs %+; jobs %-; jobs %%; jobs %; jobs %sleep\ 5; jobs %?6; jobs %?LEEP\ 5; kill %1 %2
out: [2]+  Running                 sleep 6 &\n[1]-  Running                 sleep 5 &\n[2]+  Running                 sleep 6 &\n[2]+  Running                 sleep 6 &\n[1]-  Running                 sleep 5 &\n[2]+  Running                 sleep 6 &\n[1]-  Running                 sleep 5 &\n

test: an ambiguous job spec
cmd: sleep 5 & sleep 6 & jobs %sl; echo $?; kill %sl; echo $?; wait %?EEP; echo $?; kill %1 %2
out: 1\n1\n127\n
err: bash: line 1: jobs: sl: ambiguous job spec\nbash: line 1: jobs: %sl: no such job\nbash: line 1: kill: sl: ambiguous job spec\nbash: line 1: wait: EEP: ambiguous job spec\n

test: job specs that name no job
cmd: jobs %1; echo $?; jobs %%; echo $?; kill %2; echo $?; wait %1; echo $?; disown %1; echo $?
out: 1\n1\n1\n127\n1\n
err: bash: line 1: jobs: %1: no such job\nbash: line 1: jobs: %%: no such job\nbash: line 1: kill: %2: no such job\nbash: line 1: wait: %1: no such job\nbash: line 1: disown: %1: no such job\n

test: jobs with a bad option
cmd: jobs -z; echo $?
out: 2\n
err: bash: line 1: jobs: -z: invalid option\njobs: usage: jobs [-lnprs] [jobspec ...] or jobs -x command [args]\n

test: %+ and %- after jobs end
cmd: sleep 5 & sleep 5 & sleep 0.1 & sleep 1; jobs; kill %2; sleep 1; jobs; kill %1
out: [1]-  Running                 sleep 5 &\n[2]+  Running                 sleep 5 &\n[1]+  Running                 sleep 5 &\n

test: the next job takes the number after the highest one left
cmd: sleep 5 & sleep 0.1 & sleep 1; sleep 5 & jobs; kill %1 %2; sleep 1; sleep 5 & jobs; kill %1
out: [1]-  Running                 sleep 5 &\n[2]+  Running                 sleep 5 &\n[1]+  Running                 sleep 5 &\n

test: jobs shows the directory a job started in when it differs
cmd: HOME=$PWD; mkdir d; cd d; sleep 5 & cd ..; jobs; cd d; jobs; kill %1
out: [1]+  Running                 sleep 5 &  (wd: ~/d)\n[1]+  Running                 sleep 5 &\n

test: jobs lists the shell's jobs in a pipeline and a command substitution
cmd: sleep 5 & jobs | cat; echo "[$(jobs %1)]"; kill %1
out: [1]+  Running                 sleep 5 &\n[[1]+  Running                 sleep 5 &]\n

test: a disowned job is no longer a job
cmd: sleep 5 & p=$!; disown; jobs; echo $?; kill $p; echo $?; disown; echo $?
out: 0\n0\n1\n
err: bash: line 1: disown: current: no such job\n

test: wait -n waits for the first job to end
cmd: sleep 5 & (exit 4) & wait -n; echo $?; kill %1
out: 4\n

test: declare -f prints & and here-documents inside a function as bash does
cmd: f() { sleep 1 & echo; cat <<<"x" >&2; while :; do sleep 1 & done; }; declare -f f
out: f () \n{ \n    sleep 1 & echo;\n    cat <<< "x" 1>&2;\n    while :; do\n        sleep 1 &\n    done\n}\n

test: declare -f prints here-documents after the operator that follows them
cmd: f() { cat <<A && cat <<B
cmd: a
cmd: A
cmd: b
cmd: B
cmd: echo; }; declare -f f
out: f () \n{ \n    cat <<A && \na\nA\n cat <<B\nb\nB\n\n    echo\n}\n

test: a job's here-document is part of its text
cmd: { cat <<EOF >/dev/null; sleep 5; } 2>/dev/null &
cmd: hi $x
cmd: EOF
cmd: jobs; kill %1
out: [1]+  Running                 { cat <<EOF > /dev/null\nhi $x\nEOF\n sleep 5; } 2> /dev/null &\n


# globstar: `**` at the end of a pattern also matches the named directory itself (as "dir/").
test: globstar ** at the end includes the directory itself
cmd: mkdir -p gg/a/b; touch gg/a/b/f gg/.h; shopt -s globstar dotglob; cd gg; echo **; echo a/**; echo ./**; echo a/**/; echo a/**/f; echo x/**
out: .h a a/b a/b/f\na/ a/b a/b/f\n./ ./.h ./a ./a/b ./a/b/f\na/ a/b/\na/b/f\nx/**\n

# A small output into `| head` finishes before head exits (no SIGPIPE), as a
# process pipeline does; a large or endless one is stopped early with 141.
test: small pipeline output into head gets no SIGPIPE
cmd: set -o pipefail; { echo a; echo b; echo c; } | head -n 1; echo "${PIPESTATUS[*]}"; for i in 1 2 3 4 5; do echo $i; done | head -n 1; echo "${PIPESTATUS[*]}"; type -a echo | head -n 1 >/dev/null; echo "${PIPESTATUS[*]}"
out: a\n0 0\n1\n0 0\n0 0\n

test: large or endless producers into head stop with SIGPIPE
cmd: seq 1 100000 | head -n 1; echo "${PIPESTATUS[*]}"; while :; do echo x; done | head -n 2; echo "${PIPESTATUS[*]}"; yes | head -n 2; echo "${PIPESTATUS[*]}"
out: 1\n141 0\nx\nx\n141 0\ny\ny\n141 0\n

test: set -euo pipefail script survives a short listing piped into head
cmd: set -euo pipefail; mkdir d; touch d/a d/b d/c; for f in d/*; do echo "$f"; done | head -n 1; echo survived
out: d/a\nsurvived\n

# source reads /dev/stdin, /dev/fd/N and process substitutions through the shell's fds.
test: source of a process substitution, /dev/stdin and /dev/fd/N
cmd: source <(echo 'f() { echo "f: $1"; }; echo "procsub: $1"') arg; f x; source /dev/stdin <<< 'echo from-stdin'; echo 'echo from-fd' > s.sh; exec 4< s.sh; . /dev/fd/4; exec 4<&-; . /dev/null; echo "null: $?"
out: procsub: arg\nf: x\nfrom-stdin\nfrom-fd\nnull: 0\n

test: declare -f of a here-document in a background item reads back
cmd: g() {
cmd:   cat <<B &
cmd: bg
cmd: B
cmd:   wait
cmd: }
cmd: eval "$(declare -f g)"; g
out: bg\n

test: set -x shows array literal keys quoted
cmd: set -x; i=4; declare -a a=([1+2]=x [$i]=y); declare -A m=([k]=v ["a b"]=c); b=([3]=x)
out:
err: + i=4\n+ a=(['1+2']='x' ['4']='y')\n+ declare -a a\n+ m=(['k']='v' ['a b']='c')\n+ declare -A m\n+ b=([3]=x)\n

test: ulimit -a lays out its labels as bash; umask rejects digits 8 and 9 as octal
cmd: ulimit -a | sed -n '2p;5p' | sed 's/) .*/)/'; umask 999; umask 8
out: core file size              (blocks, -c)\nfile size                   (blocks, -f)\n
err: bash: line 1: umask: 999: octal number out of range\nbash: line 1: umask: 8: octal number out of range\n
status: 1

test: select lays its menu out in columns, shows it again only after an empty line
cmd: COLUMNS=40; select x in apple banana cherry date elder fig grape; do echo "$x"; done <<< $'\n2' 2>&1; echo "st=$?"
cmd: select x in a b c d e f g h i j k l; do break; done <<< 1 2>&1; select y in; do :; done; echo "st=$?"
out: 1) apple   4) date    7) grape\n2) banana  5) elder\n3) cherry  6) fig\n#? 1) apple   4) date    7) grape\n2) banana  5) elder\n3) cherry  6) fig\n#? banana\n#? \nst=1\n
out: 1) a    4) d   7) g  10) j\n2) b    5) e   8) h  11) k\n3) c    6) f   9) i  12) l\n#? st=0\n

test: wait -n -p VAR names the job that ended
cmd: sleep 0.2 & p1=$!; (exit 3) & p2=$!; wait -n -p who; echo "st=$? $([ "$who" = "$p2" ] && echo p2)"; wait -p v $p1; [ "$v" = "$p1" ] && echo p1
cmd: v=old; wait -p v; echo "${v-unset}"; wait -p 1x; echo "st=$?"
out: st=3 p2\np1\nunset\nst=1\n
err: bash: line 2: wait: `1x': not a valid identifier\n

test: $_ of a function call is set when the function returns
cmd: x=5; echo "[$_]"; f() { echo "in f: $_"; }; f arg1 arg2; echo "after f: $_"
out: []\nin f: []\nafter f: arg2\n

test: type -t with -p/-P prints paths and with -a every match; unset -f -v together fails
cmd: type -t -P ls; type -tp ls; type -tp cd; type -t -a echo; unset -fv x; echo "st=$?"
out: /usr/bin/ls\n/usr/bin/ls\nbuiltin\nfile\nfile\nst=1\n
err: bash: line 1: unset: cannot simultaneously unset a function and a variable\n

test: set -eu ends the -c shell with status 1 on an unbound variable (127 without -e)
cmd: bash -c 'set -eu; echo "$undefined"; echo no' 2>/dev/null; echo "e=$?"; bash -c 'set -u; echo $u' 2>/dev/null; echo "u=$?"; bash -c 'set -e; echo ${x?gone}' 2>/dev/null; echo "q=$?"
out: e=1\nu=127\nq=1\n

test: declare -F NAME with extdebug tells where the function was defined
cmd: f() { :; }; printf 'x=1\ng() { :; }\n' > lib.sh; . ./lib.sh; shopt -s extdebug; declare -F f g
out: f 1 environment\ng 2 ./lib.sh\n

test: running a path that cannot be reached reports why, with status 126 (127 when missing)
cmd: n=$(printf 'a%.0s' {1..300}); ./$n 2>&1 | sed 's/a\{20,\}/A/'; touch f; ./f/g; echo "st=$?"; ./x/y; echo "st=$?"
out: bash: line 1: ./A: File name too long\nst=126\nst=127\n
err: bash: line 1: ./f/g: Not a directory\nbash: line 1: ./x/y: No such file or directory\n

test: shift 0 in a function called without arguments (getopts loops) does not crash
cmd: parse() { local OPTIND opt; while getopts ":a" opt "$@"; do echo "$opt"; done; shift $((OPTIND-1)); echo "rest: $# $*"; }; parse; parse -a x; set --; shift 0; echo "st=$?"
out: rest: 0 \na\nrest: 1 x\nst=0\n
