#!/bin/bash
# set -e as deploy scripts rely on it, and where it does not apply.
set -e
step() { echo "step $1"; }
maybe_fail() { return "${1:-1}"; }
step 1
maybe_fail || echo "handled with ||"
if maybe_fail; then echo no; else echo "if condition is exempt"; fi
maybe_fail && echo no || echo "&& list is exempt"
! maybe_fail && echo "negated is exempt"
while maybe_fail; do :; done; echo "while condition exempt"
x=$(maybe_fail 3; echo "cmdsub goes on without inherit_errexit")
echo "x=$x"
shopt -s inherit_errexit
y=$( (echo start; false; echo "not reached") ) || echo "cmdsub failed: $?"
echo "y=$y"
f() { false; echo "after false in f (exempt: f called in ||)"; }
f || true
g() { local v=$(false); echo "local masks the status: $?"; }
g
h() { false; echo "never"; }
( set -e; h ) || echo "subshell status $?"
set +e
( set -e; false; echo never ) ; echo "plain subshell status $?"
set -e
trap 'echo "EXIT with $?"' EXIT
cd /nonexistent-dir 2>/dev/null || echo "cd failure handled"
echo "last step"
maybe_fail 7
echo "not reached"
