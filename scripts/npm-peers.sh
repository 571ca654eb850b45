#!/usr/bin/env bash
# Installs the npm packages that tests and benchmarks compare sbx with (the
# "peers", e.g. agentfs-sdk) into build/npm/ — never into the library — and
# only when the pinned version is not there yet. Prints the node_modules
# directory on stdout. Usage: scripts/npm-peers.sh NAME@VERSION...
# SBX_NPM_DIR overrides the install directory.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${SBX_NPM_DIR:-$root/build/npm}
mkdir -p "$dir"
[ -f "$dir/package.json" ] || echo '{"name":"sbx-npm-peers","private":true}' >"$dir/package.json"
missing=()
for spec in "$@"; do
  name=${spec%@*} want=${spec##*@}
  have=$(cd "$dir" && node -e "try{console.log(require('./node_modules/$name/package.json').version)}catch(e){}" 2>/dev/null || true)
  [ "$have" = "$want" ] || missing+=("$spec")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "npm-peers: installing ${missing[*]} into $dir" >&2
  (cd "$dir" && npm install --no-audit --no-fund --loglevel=error "${missing[@]}" >&2)
fi
echo "$dir/node_modules"
