#!/bin/bash
# A typical deploy helper: logging, config parsing, validation, summary.
set -u
LOG_LEVEL=${LOG_LEVEL:-info}
log() { local level=$1; shift; printf '[%-5s] %s\n' "${level^^}" "$*"; }
die() { log error "$*"; return 1; }
cat > app.conf <<'EOF'
# application settings
name = demo-app
replicas = 3
regions = us-east, eu-west ,ap-south
debug = false
EOF
declare -A cfg
while IFS='=' read -r key value; do
  key=${key//[[:space:]]/}
  [[ -z $key || $key == \#* ]] && continue
  value=${value#"${value%%[![:space:]]*}"}
  cfg[$key]=$value
done < app.conf
log info "loaded ${#cfg[@]} settings"
IFS=',' read -ra regions <<< "${cfg[regions]}"
for i in "${!regions[@]}"; do
  r=${regions[i]}
  r=${r// /}
  regions[i]=$r
done
log info "regions: ${regions[*]}"
validate() {
  local errors=0
  [[ ${cfg[replicas]} =~ ^[0-9]+$ ]] || { die "replicas not a number"; errors=$((errors+1)); }
  (( ${cfg[replicas]} <= 5 )) || { die "too many replicas"; errors=$((errors+1)); }
  [[ ${cfg[missing]:-} ]] || log warn "missing key has no value"
  return $errors
}
validate && log info "config valid"
deploy() {
  local region=$1 n
  for (( n = 1; n <= cfg[replicas]; n++ )); do
    printf '  %s/%s-%02d\n' "$region" "${cfg[name]}" "$n"
  done
}
for r in "${regions[@]}"; do deploy "$r"; done > plan.txt
log info "planned $(wc -l < plan.txt) instances"
head -n 2 plan.txt
summary=$(
  for r in "${regions[@]}"; do
    printf '%s:%d ' "$r" "$(grep -c "$r" plan.txt)"
  done
)
log info "summary: ${summary% }"
if [[ ${cfg[debug]} == true ]]; then log debug "debug on"; else log info "debug off"; fi
echo "${undefined_var}" 2>&1
log info "not reached"
