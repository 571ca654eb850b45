# sha384sum (shares md5sum's code).

test: digest
cmd: sha384sum input; sha384sum --tag input
in: hello\n
out: 1d0f284efe3edea4b9ca3bd514fa134b17eae361ccc7a1eefeff801b9bd6604e01f21f6bf249ef030599f0c218f2ba8c  input\n
out: SHA384 (input) = 1d0f284efe3edea4b9ca3bd514fa134b17eae361ccc7a1eefeff801b9bd6604e01f21f6bf249ef030599f0c218f2ba8c\n

test: check
cmd: sha384sum input | sha384sum -c
in: hello\n
out: input: OK\n
