#!/bin/bash
# Here-documents with every delimiter form.
name=world
cat <<EOF2
plain $name $(echo sub) \$escaped
EOF2
cat <<'EOF2'
quoted $name $(echo sub)
EOF2
cat <<"E"OF2
partly quoted $name
EOF2
cat <<\EOF2
backslash $name
EOF2
cat <<E\
OF
split delimiter $name
EOF
cat <<-	TABS
	tab stripped $name
		two tabs
	TABS
cat <<EOF2 | tr a-z A-Z
piped $name
EOF2
while read -r line; do echo "read: $line"; done <<EOF2
l1
l2 $name
EOF2
cat <<A; cat <<B
first
A
second
B
f() { cat <<END
in function $1
END
}
f arg
cat <<EOF2
line with \
continuation
backslash at end \\
EOF2
x=$(cat <<EOF2
in cmdsub
EOF2
)
echo "$x"
cat <<''
empty delim

echo done
