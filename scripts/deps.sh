#!/usr/bin/env bash
# Installs the Debian packages that sbx needs to build, test and demo.
# Skips apt entirely when every package is already present, so it is cheap to
# call from every make target. Usage: scripts/deps.sh [extra-package...]
set -euo pipefail

PKGS=(
  build-essential pkg-config clang libclang-rt-14-dev
  libsqlite3-dev sqlite3 libjansson-dev libedit-dev
  libpcre2-dev zlib1g-dev libarchive-dev libssl-dev jq libyaml-dev
  libzstd-dev zstd  # zstd/unzstd (src/cmd/zstd.c) and the host half of zstd.t
  libmagic-dev  # file (src/cmd/file.c) answers through libmagic
  libfuse3-dev fuse3 libseccomp-dev
  python3 python3-dev python3-pytest python3-numpy python3-pandas
  python3-matplotlib python3-scipy python3-sklearn  # what an agent's analysis code imports
  python3-pip python3-venv  # `pip install .` of the package, tested by scripts/suites/pip-install.sh
  nodejs npm
  curl  # scripts/suites/mcp.sh: raw HTTP requests to sbx mcp --http
  gawk bc diffutils patch tar gzip bzip2 xz-utils zip unzip file tree
  ncal uuid-runtime ripgrep  # host halves of cal.t, uuidgen.t and rg.t
  xxd bsdextrautils  # host halves of xxd.t, hexdump.t, column.t (not in every base image)
  yq  # kislyuk/yq: tests/cmd/yq.t proves its expectations against it
  faketime  # scripts/suites/shifted-clock.sh: the suites that print times, at other dates
  strace    # bench/store/run.sh: counts the fdatasync calls of creating a sandbox file
  libpython3.11-testsuite  # scripts/suites/cpython-files.sh: CPython's file tests in the jail
  git       # the git workflow in the jail (python/tests/test_posix_files.py)
  podman runc debootstrap  # make container-test: the jail in Debian 12 containers
  fuse-overlayfs uidmap slirp4netns catatonit  # podman's recommends, as on the machine it was tested on
)
PKGS+=("$@")

missing=()
for p in "${PKGS[@]}"; do
  # dpkg-query prints "install ok installed" only for fully installed packages.
  if [ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" != "install ok installed" ]; then
    missing+=("$p")
  fi
done
# node may come from elsewhere (e.g. a preinstalled toolchain): accept it.
if command -v node >/dev/null && command -v npm >/dev/null; then
  tmp=()
  for p in "${missing[@]}"; do [ "$p" = nodejs ] || [ "$p" = npm ] || tmp+=("$p"); done
  missing=("${tmp[@]+"${tmp[@]}"}")
fi
[ ${#missing[@]} -eq 0 ] && exit 0

echo "deps: installing ${missing[*]}" >&2
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
