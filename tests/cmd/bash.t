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
