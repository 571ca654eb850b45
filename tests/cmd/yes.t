# yes: repeated lines until the reader stops.

test: default y
cmd: yes | head -n 3
out: y\ny\ny\n

test: strings joined
cmd: yes a b | head -n 2
out: a b\na b\n

test: long string
cmd: yes "$(printf '%0100d' 0)" | head -n 2 | wc -c
out: 202\n

test: many lines
cmd: yes | head -n 100000 | wc -l
out: 100000\n

test: double dash
cmd: yes -- -x | head -n 1
out: -x\n

test: invalid option
cmd: yes -x | head -n 1
out:
err: yes: invalid option -- 'x'\n
err: Try 'yes --help' for more information.\n

test: unknown long option
cmd: yes --x | head -n 1
out:
err: yes: unrecognized option '--x'\n
err: Try 'yes --help' for more information.\n

test: pipefail status
cmd: set -o pipefail; yes | head -n 1; echo "rc=$?"
out: y\nrc=141\n
