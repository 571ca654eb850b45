# nice (the jail's /usr/bin/nice): absolute program paths and statuses.

test: nice runs an absolute program path and passes its status on
cmd: nice /bin/echo a; echo $?
cmd: nice -n 5 /usr/bin/printenv X; echo $?
cmd: nice sh -c 'exit 200'; echo $?
out: a\n0\n1\n200\n
