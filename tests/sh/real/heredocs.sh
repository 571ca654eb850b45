#!/bin/bash
# Here-documents and here-strings.
name=World
cat <<EOF1
Hello, $name!
  Indented $((1 + 2))
\$escaped and \`backticks\`
EOF1
cat <<'QUOTED'
No $expansion here $(date)
QUOTED
cat <<-TABS
	leading tabs removed
		two tabs
	TABS
cat <<E\
ND
split delimiter
END
cat <<"A B"
spaces in delimiter
A B
read -r first <<< "here string $name"
echo "$first"
cat <<< "multi
line"
f() {
  cat <<EOF
in function: $1
EOF
}
f arg
while read -r line; do echo "got: $line"; done <<EOF
one
two
EOF
cat <<EOF | tr a-z A-Z
piped $name
EOF
x=$(cat <<EOF
captured
EOF
)
echo "$x"
cat <<EOF1; cat <<EOF2
first
EOF1
second
EOF2
cat <<EOF
line with trailing backslash \
continued
EOF
cat << 'EOF'
backslash \ stays
EOF
cat <<EOF
${name:-x} "quotes" 'single'
EOF
declare -f f
