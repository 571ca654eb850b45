# sha256sum (shares md5sum's code).

test: digest
cmd: sha256sum input; printf '' | sha256sum
in: hello\n
out: 5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03  input\n
out: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  -\n

test: tag
cmd: sha256sum --tag input
in: hello\n
out: SHA256 (input) = 5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03\n

test: check
cmd: sha256sum input > s; sha256sum -c s; sha256sum -c --quiet s
in: hello\n
out: input: OK\n

test: binary data
cmd: printf '\0\xff\n' | sha256sum
out: 712450d3c4a79eea9509e75dc1dacdeff58034df538536cfae2da882bd8a0c50  -\n

test: zero
cmd: sha256sum -z input | od -c | tail -n 2
in: hello\n
out: 0000100           i   n   p   u   t  \\0\n0000110\n
