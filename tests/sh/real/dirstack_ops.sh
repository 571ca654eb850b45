#!/bin/bash
# pushd/popd/dirs as a build script walks directories.
mkdir -p proj/{src,docs,build/out}
base=$PWD
show() { dirs -p | sed "s|$base|BASE|"; echo "--"; }
cd proj
pushd src >/dev/null
pushd ../docs >/dev/null
pushd ../build/out >/dev/null
show
dirs -v | sed "s|$base|BASE|"
pushd +2 >/dev/null; show
pushd >/dev/null; show
popd +1 >/dev/null; show
popd -0 >/dev/null; show
echo "DIRSTACK=${#DIRSTACK[@]} ${DIRSTACK[0]##*/}"
dirs -c; dirs | sed "s|$base|BASE|"
popd 2>&1; echo "status $?"
pushd /nonexistent 2>&1; echo "status $?"
pushd -n "$base" >/dev/null; show
cd "$base"
for d in proj/src proj/docs; do
  pushd "$d" >/dev/null || exit 1
  echo "in ${PWD#$base/}"
  popd >/dev/null
done
echo "final ${PWD#$base}"
dirs +5 2>&1; echo "status $?"
