# stdbuf: the sandbox's commands have no stdio buffers to change; stdbuf checks
# its modes as GNU does and runs the command.

test: runs the command with any valid mode
cmd: stdbuf -oL echo hi; stdbuf -o0 -e0 printf 'a\n' | stdbuf -i0 -o 4M cat; stdbuf --output=1K sh -c 'exit 3'; echo $?
out: hi\na\n3\n

test: mode errors
cmd: stdbuf echo hi; echo $?; stdbuf -oX echo; echo $?; stdbuf -i L true; echo $?; stdbuf -o 1Q echo; echo $?
out: 125\n125\n125\n125\n
err: stdbuf: you must specify a buffering mode option\nTry 'stdbuf --help' for more information.\n
err: stdbuf: invalid mode ‘X’\nstdbuf: line buffering stdin is meaningless\nTry 'stdbuf --help' for more information.\nstdbuf: invalid mode ‘1Q’\n

test: missing command
cmd: stdbuf -o0 nosuchcmd; echo $?
out: 127\n
err: stdbuf: failed to run command ‘nosuchcmd’: No such file or directory\n

test: stdbuf runs an absolute program path and passes its status on
cmd: stdbuf -oL /bin/echo a; echo $?
cmd: stdbuf -oL sh -c 'exit 200'; echo $?
out: a\n0\n200\n

test: long options abbreviated, a bad option reported once with status 125
cmd: stdbuf --out=L --err=0 echo hi; stdbuf --in=L echo; echo $?; stdbuf -y echo; echo $?
out: hi\n125\n125\n
err: stdbuf: line buffering stdin is meaningless\nTry 'stdbuf --help' for more information.\n
err: stdbuf: invalid option -- 'y'\nTry 'stdbuf --help' for more information.\n
