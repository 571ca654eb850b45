# mkfifo: the store cannot hold FIFOs; the checks GNU makes first still come
# first (the mode, an existing name, a missing directory).

test: argument errors as GNU
cmd: touch ef; mkfifo -m zz x; mkfifo /nonexist/x; mkfifo ef; mkfifo; echo $?
out: 1\n
err: mkfifo: invalid mode\nmkfifo: cannot create fifo '/nonexist/x': No such file or directory\nmkfifo: cannot create fifo 'ef': File exists\nmkfifo: missing operand\nTry 'mkfifo --help' for more information.\n

# sbx only: the host makes the FIFO
test: a FIFO is refused with a clear error
cmd: mkfifo p; echo $?; ls
out: 1\n
err: mkfifo: cannot create fifo 'p': Operation not supported\n
host: skip

test: options are read before the mode is checked, a bad option reported once
cmd: mkfifo -m zz -y; echo $?; mkfifo --mo=zz x; echo $?; mkfifo --mode; echo $?
out: 1\n1\n1\n
err: mkfifo: invalid option -- 'y'\nTry 'mkfifo --help' for more information.\n
err: mkfifo: invalid mode\n
err: mkfifo: option '--mode' requires an argument\nTry 'mkfifo --help' for more information.\n
