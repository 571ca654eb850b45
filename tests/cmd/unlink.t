test: unlink removes one file
cmd: touch a; unlink a; ls
out:

test: unlink operand errors
cmd: unlink; unlink a b; unlink nosuch; mkdir d; unlink d
out:
err: unlink: missing operand\nTry 'unlink --help' for more information.\nunlink: extra operand ‘b’\nTry 'unlink --help' for more information.\nunlink: cannot unlink 'nosuch': No such file or directory\nunlink: cannot unlink 'd': Is a directory\n
status: 1

test: link makes a hard link
cmd: echo hi > a; link a b; echo more >> b; cat a; stat -c %h a; link nosuch x; link a
out: hi\nmore\n2\n
err: link: cannot create link 'x' to 'nosuch': No such file or directory\nlink: missing operand after ‘a’\nTry 'link --help' for more information.\n
status: 1

test: a bad option is one message and one hint, status 1
cmd: touch a; unlink -x a; echo $?; link --nope a b; echo $?; unlink --he=1; echo $?; ls
out: 1\n1\n1\na\n
err: unlink: invalid option -- 'x'\nTry 'unlink --help' for more information.\nlink: unrecognized option '--nope'\nTry 'link --help' for more information.\nunlink: option '--help' doesn't allow an argument\nTry 'unlink --help' for more information.\n
