#!/bin/bash
# The environment seen by children.
export A=1 B="two words"
C=3
bash -c 'echo "A=$A B=$B C=${C-unset}"'
env | grep -E '^(A|B|C)=' | sort
env -i X=only bash -c 'echo "X=$X A=${A-unset}"' 2>/dev/null || env -i X=only /bin/bash -c 'echo "X=$X A=${A-unset}"'
A=override bash -c 'echo "A=$A"'
echo "A still $A"
export -n B
bash -c 'echo "B=${B-unset}"'
unset A
bash -c 'echo "A=${A-unset}"'
f() { export FROM_F=1; }
f
bash -c 'echo "FROM_F=$FROM_F"'
declare -x D=4
bash -c 'echo "D=$D"'
export E
E=late
bash -c 'echo "E=$E"'
g() { local L=local; export L; bash -c 'echo "L=$L"'; }
g
bash -c 'echo "L after=${L-unset}"'
export -f f
bash -c 'declare -F f' 
env X=1 bash -c 'echo "env X=$X"'
env -u C bash -c 'echo ok'
export 'bad name=1' 2>&1
echo "bad export: $?"
export -p | grep -c 'declare -x D='
set -a
AUTO=1
set +a
bash -c 'echo "AUTO=$AUTO"'
