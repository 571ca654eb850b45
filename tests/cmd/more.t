# more and less without a terminal copy their input.

test: more with several files prints banners
cmd: printf 'a\n' > m1; printf 'b\n' > m2; more m1 m2 < /dev/null
out: ::::::::::::::\nm1\n::::::::::::::\na\n::::::::::::::\nm2\n::::::::::::::\nb\n

test: more and less copy standard input
cmd: echo x | more; echo y | less -R; printf 'a\n' > m1; printf 'b\n' > m2; less m1 m2 < /dev/null
out: x\ny\na\nb\n

test: a missing file is reported and the others copied
cmd: printf 'a\n' > m1; more nosuch m1 < /dev/null; echo $?; less nosuch m1 < /dev/null; echo $?
out: ::::::::::::::\nm1\n::::::::::::::\na\n0\nnosuch: No such file or directory\na\n0\n
err: more: cannot open nosuch: No such file or directory\n
