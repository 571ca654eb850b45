#!/usr/bin/env bash
# py-userns-fuse.sh - the Python tests again with the jail's other way of
# getting its FUSE root. As root on a host whose /dev/fuse is not world
# read-write (this machine kind: 0600), the jail gets a FUSE mount made by root
# (fsmount, "hostmount" mode) and the normal test runs cover that; Debian's
# default /dev/fuse is 0666, where the jail opens /dev/fuse in its own user
# namespace ("userns" mode). This suite runs the tests in a private mount
# namespace whose /dev/fuse is a 0666 node, so both modes are proven on one
# host without changing the host. Not root: the normal runs already use userns
# mode (a non-root host can use nothing else), so there is nothing to add.
set -uo pipefail
cd "$(dirname "$0")/../.."
if [ "$(id -u)" -ne 0 ]; then
  echo "py-userns-fuse: not root, the normal runs already cover userns mode"
  echo "0 passed, 0 failed"
  exit 0
fi
tests=(build/tests/py/test_python build/tests/py/test_escape build/tests/py/test_pycmd
       build/tests/py/test_tools build/tests/py/test_nested build/tests/py/test_fuse_files)
for t in "${tests[@]}"; do
  [ -x "$t" ] || { echo "py-userns-fuse: $t missing (run make)"; echo "0 passed, 1 failed"; exit 1; }
done
# shellcheck disable=SC2016
unshare -m bash -c '
  set -u
  d=/mnt  # covered by a tmpfs in this private namespace only
  mount --make-rprivate / && mount -t tmpfs -o size=64k none "$d" &&
    mknod -m 0666 "$d/fuse" c 10 229 && mount --bind "$d/fuse" /dev/fuse || {
      echo "py-userns-fuse: cannot prepare a private /dev/fuse"; echo "0 passed, 1 failed"; exit 1; }
  build/sbx doctor | grep "FUSE in the jail"
  p=0 f=0
  for t in "$@"; do
    line=$("$t" 2>&1 | tail -1)
    echo "$t: $line"
    p=$((p + $(sed -E "s/^([0-9]+) passed.*/\1/" <<<"$line")))
    f=$((f + $(sed -E "s/.* ([0-9]+) failed.*/\1/" <<<"$line")))
  done
  echo "$p passed, $f failed"
  [ "$f" -eq 0 ]
' _ "${tests[@]}"
