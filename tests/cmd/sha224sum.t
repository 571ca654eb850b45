# sha224sum (shares md5sum's code).

test: digest
cmd: sha224sum input; sha224sum --tag input
in: hello\n
out: 2d6d67d91d0badcdd06cbbba1fe11538a68a37ec9c2e26457ceff12b  input\n
out: SHA224 (input) = 2d6d67d91d0badcdd06cbbba1fe11538a68a37ec9c2e26457ceff12b\n

test: check
cmd: sha224sum input | sha224sum -c
in: hello\n
out: input: OK\n
