test: nohup runs the command with its streams
cmd: echo in | nohup sh -c 'cat; echo out; exit 3'; echo $?; ls
out: in\nout\n3\n

test: nohup errors
cmd: nohup nosuch; echo $?; nohup; echo $?
out: 127\n125\n
err: nohup: failed to run command 'nosuch': No such file or directory\nnohup: missing operand\nTry 'nohup --help' for more information.\n

test: nohup runs an absolute program path and passes its status on
cmd: nohup /bin/echo a; echo $?
cmd: nohup sh -c 'exit 200'; echo $?
out: a\n0\n200\n

test: --help abbreviated, a bad option reported once with status 125
cmd: nohup --he | head -1; nohup -y echo; echo $?; nohup --nope; echo $?
out: Usage: nohup COMMAND [ARG]...\n125\n125\n
err: nohup: invalid option -- 'y'\nTry 'nohup --help' for more information.\n
err: nohup: unrecognized option '--nope'\nTry 'nohup --help' for more information.\n
