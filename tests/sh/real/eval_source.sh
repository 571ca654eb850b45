#!/bin/bash
# eval and source: building commands, libraries, return.
cmd='echo "evaluated $((2 + 3))"'
eval "$cmd"
for v in a b; do eval "var_$v=\$v-value"; done
echo "$var_a $var_b"
eval 'set -- x y z'
echo "$# $2"
cat > lib.sh <<'EOF'
lib_version=1.2
greet() { echo "hello from lib, $1"; }
echo "sourcing with args: $*"
return 5
echo "not reached"
EOF
source lib.sh one two
echo "source status: $?"
greet you
. ./lib.sh
echo "version=$lib_version"
source nosuch.sh 2>&1
echo "missing source: $?"
f() { eval 'local hidden=1'; echo "hidden in f: $hidden"; }
f; echo "hidden outside: ${hidden-unset}"
eval 'echo one; echo two'
eval "echo \"quoted \\\"inner\\\"\""
eval ''; echo "empty eval: $?"
eval false; echo "eval false: $?"
eval 'return 3' 2>&1; echo "eval return at top: $?"
printf -v code 'echo %q' "a b;c"
eval "$code"
cat > lib2.sh <<'EOF'
echo "BASH_SOURCE in lib2: ${BASH_SOURCE[0]} from ${BASH_SOURCE[1]}"
echo "line $LINENO"
EOF
source ./lib2.sh
g() { source ./lib2.sh; }
g
