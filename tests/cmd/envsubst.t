test: envsubst replaces set and unset variables, leaves the rest
cmd: printf 'a $HOME ${USER} $NOPE ${X:-d} $$ $1 ${ bad} $_u9 \\$HOME\n' | HOME=/h USER=u _u9=z envsubst
out: a /h u  ${X:-d} $$ $1 ${ bad} z \\/h\n

test: only the variables of SHELL-FORMAT
cmd: printf '$A ${B}\nend' | A=1 B=2 envsubst '$B'; echo; envsubst -v 'x $A ${B} $A'
out: $A 2\nend\nA\nB\nA\n

test: too many arguments
cmd: envsubst a b
out:
err: envsubst: too many arguments\n
status: 1

test: --var is --variables
cmd: envsubst --var 'x $A ${B}'
out: A\nB\n

test: an ambiguous prefix lists both names, with one hint
cmd: envsubst --v '$A'
out:
err: envsubst: option '--v' is ambiguous; possibilities: '--variables' '--version'\n
err: Try 'envsubst --help' for more information.\n
status: 1
