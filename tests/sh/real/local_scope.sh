#!/bin/bash
# Dynamic scope of local variables.
v=global
show() { echo "show: v=$v"; }
a() { local v=in_a; show; b; echo "a after b: v=$v"; }
b() { v=set_by_b; local w=only_b; show; }
a
echo "top: v=$v w=${w-unset}"
c() { local v; echo "c local unset: [${v-unset}]"; unset v; echo "c after unset: [${v-unset}]"; }
c
d() { local v=d; unset v; v=again; echo "d: $v"; }
d; echo "top after d: $v"
e() { local -i n=5; n+=1; echo "e: $n"; local -a arr=(1 2); echo "${#arr[@]}"; }
e
f() { local -; set -u; echo "f: $-" | grep -c u; }
f
echo "$-" | grep -c u
g() { local x=1; h; echo "g sees x=$x"; }
h() { x=2; }
g
echo "x global: ${x-unset}"
i() { declare y=declared; declare -g z=global_from_i; }
i; echo "y=${y-unset} z=$z"
j() { local v; v=j; k; }
k() { echo "k sees v=$v"; local v=k; echo "k own v=$v"; }
j
recursive() {
  local depth=$1
  (( depth == 0 )) && { echo "bottom"; return; }
  recursive $((depth - 1))
  echo "unwinding depth=$depth"
}
recursive 3
local x=1 2>&1
echo "local outside function: $?"
readonly_test() { local -r c=const; c=2; echo "after: $c"; }
readonly_test 2>&1
l() { local arr=(one two); declare -p arr; }
l
m() { local IFS=,; set -- a b; echo "$*"; }
m; set -- a b; echo "$*"
