#!/bin/bash
# pushd, popd and dirs over a scratch tree.
mkdir -p s/one s/two s/three
base=$PWD
cd s
short() { dirs -p | sed "s|$base|BASE|"; echo --; }
pushd one >/dev/null
pushd ../two >/dev/null
pushd ../three >/dev/null
short
dirs -v | sed "s|$base|BASE|"
pushd +1 >/dev/null
short
popd >/dev/null
short
popd +1 >/dev/null
short
popd -0 >/dev/null
short
popd 2>&1 | sed "s|$base|BASE|"
echo "popd empty status: ${PIPESTATUS[0]}"
pushd 2>&1
echo "pushd no other: $?"
cd "$base/s"
pushd /nonexistent 2>&1
echo "status: $?"
dirs -c
dirs | sed "s|$base|BASE|"
echo "${#DIRSTACK[@]}"
pushd one >/dev/null
echo "${DIRSTACK[0]##*/} ${DIRSTACK[1]##*/}"
dirs +5 2>&1
echo "dirs +5: $?"
