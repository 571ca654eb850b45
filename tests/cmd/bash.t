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
