# env and printenv: printing and modifying the environment for a command.

test: -i with assignments prints only those
cmd: env -i A=1 B=2
out: A=1\nB=2\n

test: - is -i
cmd: env - A=1
out: A=1\n

test: assignments reach the command
cmd: env -i X=hello printenv X
out: hello\n

test: -u removes a variable
cmd: env -i A=1 B=2 env -u A
out: B=2\n

test: -0
cmd: env -i A=1 B=2 env -0
out: A=1\0B=2\0

test: later assignment wins
cmd: env -i A=1 A=2
out: A=2\n

test: unknown command
cmd: env nonexistent-cmd
out:
err: env: \xe2\x80\x98nonexistent-cmd\xe2\x80\x99: No such file or directory\n
status: 127

test: -u with an equals sign
cmd: env -u A=B true
out:
err: env: cannot unset \xe2\x80\x98A=B\xe2\x80\x99: Invalid argument\n
status: 125

test: -0 with a command
cmd: env -0 true
out:
err: env: cannot specify --null (-0) with command\nTry 'env --help' for more information.\n
status: 125

test: -- after an assignment is a command name
cmd: env -i A=1 -- env
out:
err: env: \xe2\x80\x98--\xe2\x80\x99: No such file or directory\n
status: 127

test: -C changes directory
cmd: mkdir d; touch d/f; env -C d ls
out: f\n

test: -C to a missing directory
cmd: env -C /nonexistent true
out:
err: env: cannot change directory to '/nonexistent': No such file or directory\n
status: 125

test: -C without a command
cmd: env -C /
out:
err: env: must specify command with --chdir (-C)\nTry 'env --help' for more information.\n
status: 125

test: -S splits a string
cmd: env -i -S 'A=1 B=2 printenv A'
out: 1\n

test: command status is passed through
cmd: env false; echo $?
out: 1\n

test: empty name assignment
cmd: env -i =x
out: =x\n

test: printenv of a missing variable
cmd: env -i A=1 printenv A B; echo $?
out: 1\n1\n

test: printenv of all
cmd: env -i A=1 B=2 printenv
out: A=1\nB=2\n

test: printenv -0
cmd: env -i A=1 printenv -0 A
out: 1\0

# ---- audit4: GNU-identical error messages and quoting ----
test: audit: env 'a b'; echo $?
cmd: env 'a b'; echo $?
out: 127\n
err: env: \xe2\x80\x98a b\xe2\x80\x99: No such file or directory\nenv: use -[v]S to pass options in shebang lines\n

test: audit: env "$(printf 'x\ty')"; echo $?
cmd: env "$(printf 'x\ty')"; echo $?
out: 127\n
err: env: \xe2\x80\x98x\\ty\xe2\x80\x99: No such file or directory\nenv: use -[v]S to pass options in shebang lines\n

test: audit: env -v -i A=1 true
cmd: env -v -i A=1 true
out: 
err: cleaning environ\nsetenv:   A=1\nexecuting: true\n   arg[0]= \xe2\x80\x98true\xe2\x80\x99\n

test: audit: env -v -i -u X B=2 true
cmd: env -v -i -u X B=2 true
out: 
err: cleaning environ\nsetenv:   B=2\nexecuting: true\n   arg[0]= \xe2\x80\x98true\xe2\x80\x99\n

test: audit: env -v -S 'true  a' 2>&1
cmd: env -v -S 'true  a' 2>&1
out: split -S:  \xe2\x80\x98true  a\xe2\x80\x99\n into:    \xe2\x80\x98true\xe2\x80\x99\n     &    \xe2\x80\x98a\xe2\x80\x99\nexecuting: true\n   arg[0]= \xe2\x80\x98true\xe2\x80\x99\n   arg[1]= \xe2\x80\x98a\xe2\x80\x99\n
err: 

test: audit: env -v -u X true
cmd: env -v -u X true
out: 
err: unset:    X\nexecuting: true\n   arg[0]= \xe2\x80\x98true\xe2\x80\x99\n


test: a new shell run by env gets env's environment
cmd: export Q=1; env S=2 sh -c 'echo "[$S][$Q]"'; env -u Q bash -c 'echo "[$Q]"'; env -i sh -c 'echo "[$Q][$S]"'
out: [2][1]\n[]\n[][]\n

test: env -i bash: bash's default PATH, SHLVL 1, PWD exported
cmd: env -i bash -c 'echo "$SHLVL"; case $PATH in */usr/bin*) echo path;; esac; printenv PWD >/dev/null && echo pwd'
out: 1\npath\npwd\n

test: a shell run by env does not pass env's variables to the caller
cmd: env S=3 sh -c 'true'; echo "[$S]"
out: []\n

test: env runs an absolute path of a standard directory
cmd: FOO=1 env /usr/bin/printenv FOO; env -i /bin/sh -c 'echo in'; timeout 5 /bin/echo hi; mkdir q; touch q/f; find q -exec /bin/echo {} \;
out: 1\nin\nhi\nq\nq/f\n

test: env runs an absolute program path and passes its status on
cmd: X=1 env /usr/bin/printenv X; echo $?
cmd: env X=2 /usr/bin/env /usr/bin/printenv X; echo $?
cmd: env sh -c 'exit 200'; echo $?
cmd: /usr/bin/env /bin/sh -c 'exit 201'; echo $?
out: 1\n0\n2\n0\n200\n201\n

test: abbreviated --unset with its value attached, and --ignore-env
cmd: A=1 B=2 env --uns=A | grep -c '^A='; env --ignore-env C=3
out: 0\nC=3\n

test: an ambiguous prefix of a long-only and a letter's long name
cmd: env --de true
out:
err: env: option '--de' is ambiguous; possibilities: '--default-signal' '--debug'\n
err: Try 'env --help' for more information.\n
status: 125

test: a long-only option with its optional argument attached
cmd: env --default-sig=INT echo ok; env --block-signal echo ok2
out: ok\nok2\n
