# Listing functions by attribute: declare -xF / -xf, export -f and
# readonly -f with no names list only the exported or readonly functions,
# each followed by its "declare -fx name" line; declare -F shows the
# attributes too.
log() { printf '[log] %s\n' "$*"; }
helper() { log "helper $1"; }
internal() { :; }
export -f log helper
echo "== exported names"
declare -xF
echo "== exported bodies"
declare -xf
echo "== export -f"
export -f
echo "== all names"
declare -F
readonly -f helper
echo "== readonly"
readonly -f
declare -rF
echo "== one by name keeps the plain form"
declare -f helper
declare -F helper
bash -c 'helper child'
export -nf log
echo "== after export -nf log"
declare -xF
