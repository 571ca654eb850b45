#!/bin/bash
# Nested shells: bash -c with $0 and arguments, messages, statuses.
bash -c 'echo "0=$0 1=$1 #=$#"' myname a b
bash -c 'echo "$0"'
bash -c 'nosuchcmd' 2>&1
echo "status $?"
bash -c 'nosuchcmd' named 2>&1
bash -c 'exit 7'; echo "exit status $?"
bash -c 'echo ${x:?unset here}' 2>&1
echo "status $?"
bash -c 'f() { nosuch; }; f' 2>&1
bash -c 'echo line1
nosuch2' 2>&1
cat > sub.sh <<'EOF'
echo "in sub.sh: $0 $1"
nosuch_in_file
echo "${BASH_SOURCE[0]} $LINENO"
f() { echo "FUNCNAME=${FUNCNAME[*]} src=${BASH_SOURCE[*]}"; }
f
exit 3
EOF
bash sub.sh arg 2>&1
echo "file status $?"
bash ./sub.sh 2>&1 | head -1
source sub.sh srcarg 2>&1 &&  echo no
echo "not reached after exit in source"
