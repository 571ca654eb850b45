### bash -i reads commands line by line with PROMPT_COMMAND and history
printf '%s\n' 'PROMPT_COMMAND="echo P"' 'echo one' 'history' | PS1= bash --norc -i 2>/dev/null
--- stdout
P
one
P
    1  PROMPT_COMMAND="echo P"
    2  echo one
    3  history
P

### history -r, fc -l and history -d
printf 'echo a\necho b\necho c\n' > h.txt
HISTFILE=h.txt
history -r
history -d 2
fc -l 1 2
history 1
--- stdout
1	 echo a
2	 echo c
    2  echo c

### an interactive shell survives fatal errors, a script does not
bash -i -c 'echo $(( 1 / 0 ))
echo after' 2>/dev/null
echo "status=$?"
bash -c 'echo ${x?unset}; echo not-reached' 2>/dev/null
echo "status=$?"
--- stdout
after
status=0
status=127

### set -x quotes like bash and repeats PS4 for nesting
set -x
echo 'a b' "x~" '#c'
y=$(echo in)
set +x
--- stdout
a b x~ #c
--- stderr
+ echo 'a b' x~ '#c'
++ echo in
+ y=in
+ set +x

### set -v echoes the input as read
set -v
echo hi  # comment
--- stdout
hi
--- stderr
echo hi  # comment

### DEBUG and ERR traps
trap 'echo "dbg $LINENO"' DEBUG
false
trap - DEBUG
trap 'echo "err $LINENO"' ERR
f() { false; }
f
trap - ERR
--- stdout
dbg 2
dbg 3
err 6

### kill delivers to the shell with that pid
trap 'echo got-usr1' USR1
bash -c "kill -USR1 $$"
echo after=$?
--- stdout
got-usr1
after=0

### ulimit: soft and hard limits, file size enforced
ulimit -S -t 100
ulimit -H -t 200
echo "$(ulimit -S -t) $(ulimit -H -t)"
ulimit -H -t 300 2>/dev/null || echo raise-denied
bash -c 'ulimit -f 1; head -c 5000 /dev/zero > big; echo not-reached'
echo status=$?
--- stdout
100 200
raise-denied
status=153

### PATH search in the store and the hash table
mkdir -p bin1 bin2
printf 'echo one\n' > bin1/tool; printf 'echo two\n' > bin2/tool
chmod +x bin2/tool
PATH="$PWD/bin1:$PWD/bin2:$PATH"
tool
hash | grep -c bin2/tool
chmod +x bin1/tool
tool
hash -r
tool
type -t cat
--- stdout
two
1
two
one
file
