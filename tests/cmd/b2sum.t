# b2sum: BLAKE2b with selectable length.

test: default 512
cmd: b2sum input; printf '' | b2sum
in: hello\n
out: f60ce482e5cc1229f39d71313171a8d9f4ca3a87d066bf4b205effb528192a75f14f3271e2c1a90e1de53f275b4d4793eef2f5e31ea90d2ce29d2e481c36435f  input\n
out: 786a02f742015903c6c6fd852552d272912f4740e15847618a86e217f71f5419d25e1031afee585313896444934eb04b903a685b1448b755d56f701afe9be2ce  -\n

test: length
cmd: b2sum -l 256 input; b2sum -l 8 input; b2sum -l 0 input
in: hello\n
out: 93becc6e9882211c3ec3708c95bcd69baab7bb59c7f4bc84ce637b88a534b783  input\n
out: 27  input\n
out: f60ce482e5cc1229f39d71313171a8d9f4ca3a87d066bf4b205effb528192a75f14f3271e2c1a90e1de53f275b4d4793eef2f5e31ea90d2ce29d2e481c36435f  input\n

test: tag with length
cmd: b2sum --tag input; b2sum --tag -l 128 input
in: hello\n
out: BLAKE2b (input) = f60ce482e5cc1229f39d71313171a8d9f4ca3a87d066bf4b205effb528192a75f14f3271e2c1a90e1de53f275b4d4793eef2f5e31ea90d2ce29d2e481c36435f\n
out: BLAKE2b-128 (input) = ea41b4de6c03f13a95758b28dd75693e\n

test: check any length
cmd: b2sum input > s; b2sum -l 128 input >> s; b2sum --tag -l 256 input >> s; b2sum -c s; b2sum -l 128 -c s
in: hello\n
out: input: OK\ninput: OK\ninput: OK\ninput: OK\ninput: OK\ninput: OK\n

test: length not multiple of 8
cmd: b2sum -l 7 input
in: hello\n
out:
err: b2sum: invalid length: ‘7’\n
err: b2sum: length is not a multiple of 8\n
status: 1

test: length too big
cmd: b2sum -l 1024 input
in: hello\n
out:
err: b2sum: invalid length: ‘1024’\n
err: b2sum: maximum digest length for ‘BLAKE2b’ is 512 bits\n
status: 1

test: length invalid
cmd: b2sum -l x input
in: hello\n
out:
err: b2sum: invalid length: ‘x’\n
status: 1

test: big input crosses blocks
cmd: seq 10000 | b2sum; head -c 128 /dev/zero | b2sum; head -c 129 /dev/zero | b2sum
out: cdde680e6c5d6b40f13702c2a04602309eaae2a66e974b385dfabde865aa926918ce97b000c366dae53356de5152bc8391699d259acef783d67b651721d9db6e  -\n
out: 865939e120e6805438478841afb739ae4250cf372653078a065cdcfffca4caf798e6d462b65d658fc165782640eded70963449ae1500fb0f24981d7727e22c41  -\n
out: a60edba343e7a6933c14d203d2e535f35e6deb6c8a4f8e624c1a6f6e2612860447cb4c37e5aa11bcf03b7c3eea7228eb8b998f922794f2d1b8f2dc63f03bd3fa  -\n
