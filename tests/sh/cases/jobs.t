# Background jobs where sbx is deterministic and bash is not (the scheduler runs
# one task at a time, so when a job ends is known) and the bounds sbx sets on
# a job's text. The behaviour compared with bash is in tests/cmd/bash.t.

### jobs shows how a job ended until it is reported
sleep 5 & kill %1; (exit 3) & true &
read -t 1 x < <(sleep 0.5); jobs
echo -; jobs
echo end
--- stdout
[1]   Terminated              sleep 5
[2]-  Exit 3                  ( exit 3 )
[3]+  Done                    true
-
end

### jobs -l shows every stage of an ended pipeline with the job's state
false | (exit 2) & read -t 1 x < <(sleep 0.3); jobs -l | sed 's/[0-9][0-9][0-9][0-9]*/P/g'
--- stdout
[1]+  P Exit 2                  false
      P                       | ( exit 2 )

### a job's text is capped at 4 KiB, at a character boundary
x=$(printf "%01000000d" 0); eval "{ : $x; sleep 5; } &"; jobs %1 > out; kill %1; wc -c < out
x=$(printf "é%.0s" {1..3000}); eval "{ : a$x; sleep 5; } &"; jobs %2 > out; kill %2; wc -c < out
tail -c 5 out | od -An -c
--- stdout
4129
4128
 303 251       &  \n

### a job that is a long and-or chain
eval "$(yes "true &&" | head -n 50000 | tr "\n" " ") sleep 5 &" 2>/dev/null
jobs > out; kill %1; wc -c < out; head -c 42 out; echo
--- stdout
4129
[1]+  Running                 true && true

### a function that is a long and-or chain prints
eval "f() { $(yes "true &&" | head -n 50000 | tr "\n" " ") true; }"; declare -f f | wc -c
--- stdout
400020

### kill %N reaches every stage of a background pipeline
sleep 5 | sleep 5 | cat & sleep 0.2; kill %1; wait %1; echo $?; jobs
--- stdout
143
