#!/bin/bash
# set -e semantics in conditions, functions and subshells.
set -e
f() { false; echo "f continues (in condition)"; }
if f; then echo "if f true"; fi
f || echo "or branch"
! f
echo "negation ok"
false && echo no
echo "after && chain"
x=$(false; echo "subst goes on")
echo "x=$x"
( false; echo "not printed" ) || echo "subshell failed: $?"
g() { local v=$(false); echo "local masks: $?"; }
g
h() { false; echo "not printed"; }
h || echo "h failed"
set +e
( set -e; false; echo no ); echo "sub -e: $?"
( set -e; false | true; echo "pipe last true" )
( set -e; set -o pipefail; false | true; echo no ); echo "pipefail -e: $?"
( set -e; x=1; (( x - 1 )); echo no ); echo "arith: $?"
( set -e; [[ a == b ]]; echo no ); echo "cond: $?"
( set -e; trap 'echo "EXIT $?"' EXIT; false )
echo "trap status: $?"
( set -e; for i in 1 2; do false; done; echo no ); echo "loop: $?"
( set -e; while false; do :; done; echo "while cond ok" )
( set -e; until true; do :; done; echo "until ok" )
( set -e; case x in x) false;; esac; echo no ); echo "case: $?"
( set -e; { false; }; echo no ); echo "group: $?"
( set -e; eval false; echo no ); echo "eval: $?"
( set -e; shopt -s inherit_errexit; y=$(false; echo "still"); echo "y=$y" ); echo "inherit: $?"
echo end
