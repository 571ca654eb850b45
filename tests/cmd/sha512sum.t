# sha512sum (shares md5sum's code).

test: digest
cmd: sha512sum input; sha512sum --tag input
in: hello\n
out: e7c22b994c59d9cf2b48e549b1e24666636045930d3da7c1acb299d1c3b7f931f94aae41edda2c2b207a36e10f8bcb8d45223e54878f5b316e7ce3b6bc019629  input\n
out: SHA512 (input) = e7c22b994c59d9cf2b48e549b1e24666636045930d3da7c1acb299d1c3b7f931f94aae41edda2c2b207a36e10f8bcb8d45223e54878f5b316e7ce3b6bc019629\n

test: check
cmd: sha512sum input | sha512sum -c
in: hello\n
out: input: OK\n

test: big
cmd: seq 100000 | sha512sum
out: da6347991e8683a5f043d408b0a494dd189750a501f0cf293ae82cea13a1244ce49a232e1686fdb9fd40c001c5214fca656e776c8041153e787927addd47035a  -\n
