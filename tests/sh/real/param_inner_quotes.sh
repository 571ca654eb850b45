# Building compiler flags and messages with quoted words inside
# "${var:+...}" and "${var:-...}": in bash, a "..." nested in a
# double-quoted expansion drops the backslash before any character.
show() { for a in "$@"; do printf '[%s]\n' "$a"; done; }

defs='HAVE_X'
prefix='/opt/my app'
show "CFLAGS=${defs:+-D"$defs"}"
show "CFLAGS=${defs:+-D"\'$defs\'"}"
show "CFLAGS=${defs:+-D\'$defs\'}"
show "path=${prefix:+"\p$prefix"}"
show "path=${prefix:+"\\$prefix"}"
show "path=${prefix:+"\$prefix"}"
show "msg=${unset_var:-"no \"value\" \given"}"
show "msg=${unset_var-"tab\tnot expanded"}"
show "${defs:+"a\
b"}"
# outside double quotes the nested "..." keeps its usual rules
show ${defs:+-D"\'$defs\'"} ${defs:+"\p"} ${unset_var:-"x\y"}
# patterns are unchanged
v='\pq'
show "${v#"\p"}" "${v/"\p"/r}"
# a '...' in "${x-...}" hides a } from the expansion; under set -o posix
# the quote is an ordinary character and the first } ends it
show "${defs+'}'x}" "${unset_var-'a}'b}"
set -o posix
show "${defs+'}'x}" "${unset_var-'a}'b}" "${defs+'it}"
