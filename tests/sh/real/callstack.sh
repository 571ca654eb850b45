#!/bin/bash
# FUNCNAME, BASH_SOURCE, BASH_LINENO and LINENO through calls and sourced files.
cat > lib.sh <<'EOF'
libfn() {
  echo "libfn at line $LINENO"
  echo "stack: ${FUNCNAME[*]}"
  echo "sources: ${BASH_SOURCE[*]}"
  echo "lines: ${BASH_LINENO[*]}"
}
echo "sourcing: ${BASH_SOURCE[0]} from ${BASH_SOURCE[1]}"
EOF
where() { echo "where: ${FUNCNAME[1]:-top} line ${BASH_LINENO[0]}"; }
outer() { where; inner; }
inner() {
  where
  echo "depth ${#FUNCNAME[@]}: ${FUNCNAME[*]}"
  local i
  for ((i = 0; i < ${#FUNCNAME[@]}; i++)); do
    echo "  $i ${FUNCNAME[i]} ${BASH_SOURCE[i]} ${BASH_LINENO[i]}"
  done
}
echo "top line $LINENO, FUNCNAME set: ${FUNCNAME+yes}"
outer
source ./lib.sh
libfn
fact() { if (( $1 <= 1 )); then echo "base depth ${#FUNCNAME[@]}"; else fact $(( $1 - 1 )); fi; }
fact 5
trace() { caller 0; caller 1; }
wrap() { trace; }
wrap
echo "line $LINENO"
x=$(echo "in cmdsub $LINENO")
echo "$x"
f() {
  echo "f LINENO $LINENO"
}
f
echo "${BASH_SOURCE[0]}"
