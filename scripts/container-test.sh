#!/usr/bin/env bash
# container-test.sh - `make container-test` (not part of `make test`): sbx's
# Python jail in real containers. Builds a Debian 12 root file system with
# debootstrap from Debian's packages (once, in $SBX_DEPLOY_DIR, default
# /var/tmp/sbx-deploy), then runs it with podman, the build tree mounted
# read-only at /src, under:
#   default   podman's default seccomp profile, no /dev/fuse, as uid 1000
#   nons      the same under tools/sbx-nons (Docker's answer to namespaces:
#             unshare/clone(CLONE_NEW*) EPERM), as root
#   shipped   deploy/seccomp-sbx.json, --device /dev/fuse (a 0666 node, as
#             Debian's udev makes it; this machine's is 0600), /proc unmasked,
#             as uid 1000: the full jail with the least privilege that works,
#             which must be the tier in use
# and in each: sbx doctor, the escape suite of the tier in use and the
# localsandbox pytest suite. Closing line: "N passed, N failed".
# Needs root, podman and debootstrap (scripts/deps.sh installs them).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
dir=${SBX_DEPLOY_DIR:-/var/tmp/sbx-deploy}
rootfs=$dir/rootfs
pkgs=python3.11,python3-pytest,python3-numpy,libsqlite3-0,libjansson4,libedit2,libpcre2-8-0
pkgs=$pkgs,libarchive13,libssl3,libfuse3-3,fuse3,libseccomp2,libyaml-0-2,zlib1g
for t in podman debootstrap runc; do
  command -v "$t" >/dev/null || { echo "container-test: $t missing (scripts/deps.sh)"; echo "0 passed, 1 failed"; exit 1; }
done
if [ ! -x "$rootfs/usr/bin/python3.11" ]; then
  mkdir -p "$dir"
  echo "container-test: debootstrap bookworm into $rootfs (once)"
  debootstrap --variant=minbase --include="$pkgs" bookworm "$rootfs" http://deb.debian.org/debian \
    >"$dir/debootstrap.log" 2>&1 || { tail -5 "$dir/debootstrap.log"; echo "0 passed, 1 failed"; exit 1; }
fi
# The worker must find itself next to the test binaries (build/), and the
# tests must be able to write their temporary files.
inner='
set -u
cd /src
export SBX_PYWORKER=/src/build/sbx-pyworker PYTHONPATH=/src/build/python PYTHONDONTWRITEBYTECODE=1
export TMPDIR=/tmp HOME=/tmp
wrap=""
[ "$MODE" = nons ] && wrap=/src/build/sbx-nons
$wrap build/sbx doctor | tail -4
tier=$($wrap /usr/bin/python3.11 -c "import json, localsandbox as l; print(l.LocalSandbox().jail_info()[\"tier\"])")
echo "tier in use: $tier"
if [ "$tier" = full ]; then
  line=$($wrap build/tests/py/test_escape 2>&1 | tail -1)
else
  line=$(SBX_ESCAPE_NATURAL=1 $wrap build/tests/py/test_escape_reduced 2>&1 | tail -1)
fi
echo "escape ($tier): $line"
sel=""
[ "$tier" = reduced ] && sel="--deselect python/tests/test_python_exec.py::TestFilesystem"
$wrap /usr/bin/python3.11 -m pytest -q -p no:cacheprovider $sel python/tests 2>&1 | tail -1 | sed "s/^/pytest ($tier): /"
'
p=0 f=0
run_mode() { # MODE ARGS...
  local mode=$1
  shift
  echo "== $mode: podman run $*"
  local out
  # This machine: root without CAP_SYS_RESOURCE (podman's default limits,
  # nofile 1048576, cannot be set: explicit lower ones) and hybrid cgroups
  # (crun refuses them: runc). docs/deploy.md says why.
  out=$(podman --runtime runc run --rm --network none --ulimit nofile=4096:4096 \
          --ulimit nproc=4096:4096 -v "$root:/src:ro" -e MODE="$mode" \
          "$@" --rootfs "$rootfs" /bin/bash -c "$inner" 2>&1)
  echo "$out"
  if [ "$mode" = shipped ] && ! grep -q "^tier in use: full" <<<"$out"; then
    echo "container-test: the shipped profile did not give the full jail"
    f=$((f + 1))
  fi
  local e t
  e=$(grep -E '^escape' <<<"$out" | grep -oE '[0-9]+ passed, [0-9]+ failed' || true)
  t=$(grep -E '^pytest' <<<"$out" | tail -1)
  if [ -z "$e" ] || [ -z "$t" ]; then f=$((f + 1)); return; fi
  p=$((p + $(grep -oE '^[0-9]+' <<<"$e"))); f=$((f + $(grep -oE '[0-9]+ failed' <<<"$e" | grep -oE '^[0-9]+')))
  p=$((p + $(grep -oE '[0-9]+ passed' <<<"$t" | grep -oE '^[0-9]+' || echo 0)))
  f=$((f + $(grep -oE '[0-9]+ (failed|errors?)' <<<"$t" | grep -oE '^[0-9]+' | paste -sd+ | bc 2>/dev/null || echo 0)))
}
run_mode default --user 1000:1000
run_mode nons
[ -c "$dir/fuse" ] || mknod -m 0666 "$dir/fuse" c 10 229
run_mode shipped --user 1000:1000 --device "$dir/fuse:/dev/fuse" \
  --security-opt seccomp="$root/deploy/seccomp-sbx.json" --security-opt unmask=ALL
echo "$p passed, $f failed"
[ "$f" -eq 0 ]
