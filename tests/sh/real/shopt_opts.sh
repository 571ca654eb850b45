#!/bin/bash
# shopt and set -o: listing, toggling, errors.
shopt extglob nullglob
shopt -s extglob
shopt -p extglob
shopt -q extglob && echo "extglob on"
shopt -u extglob
shopt -q extglob || echo "extglob off"
shopt nosuchopt 2>&1
echo "bad shopt: $?"
shopt -s nosuchopt 2>&1
echo "bad -s: $?"
shopt -o errexit
shopt -po noglob
set -o | grep -E '^(errexit|noglob|nounset|pipefail)\s'
set -o pipefail
set -o | grep pipefail
set +o | grep -E 'pipefail|errexit'
echo "$-" | tr -d hB
set -u
echo "$-" | tr -d hB
set +u
set -o nosuch 2>&1
echo "bad set -o: $?"
shopt -s globstar dotglob
shopt globstar dotglob
shopt -p | grep -c .
shopt -u globstar dotglob
[[ -o pipefail ]] && echo "pipefail is on"
[[ -o nosuch ]]; echo "unknown -o: $?"
shopt -s lastpipe
echo x | read -r v
echo "lastpipe v=${v-unset}"
