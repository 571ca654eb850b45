# uuidgen (util-linux 2.38). Random and time UUIDs are checked by shape and
# version; name-based ones (v3/v5, RFC 4122) by value.

test: random uuids are version 4 and differ
cmd: a=$(uuidgen); b=$(uuidgen -r); [ "$a" != "$b" ] && echo differ; echo "$a" | grep -Ec '^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$'
out: differ\n1\n

test: time uuids are version 1
cmd: uuidgen -t | grep -Ec '^[0-9a-f]{8}-[0-9a-f]{4}-1[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$'; uuidgen -r -t | cut -c15
out: 1\n1\n

test: name-based uuids (sha1, md5, hex names, namespace as a uuid)
cmd: uuidgen -s -n @dns -N example.com; uuidgen -m -n @url -N http://x; uuidgen -s -x -n @dns -N 6162; uuidgen --sha1 --namespace 6ba7b810-9dad-11d1-80b4-00c04fd430c8 --name example.com; uuidgen -m -n @oid -N ''; uuidgen -s -n @x500 -N 'cn=a'
out: cfbff0d1-9375-5685-968c-48ce8b15ae17\n53b14841-9895-312b-bb91-82c1f08c9edd\n
out: 710a586f-e1aa-54ec-93a9-85a85aa0b725\ncfbff0d1-9375-5685-968c-48ce8b15ae17\n
out: 596b79dc-00dd-3991-a72f-d3696c38c64f\n5c1fcbd6-0ab9-5b0d-9d61-5bcbb36ee6d0\n

test: argument errors
cmd: uuidgen -s -n @dns; uuidgen -n @foo -N x -s; uuidgen -x -s -n @dns -N zz; uuidgen -N x; uuidgen -n @dns -N x; uuidgen -m; uuidgen -s -n bad -N x; echo $?
out: 1\n
err: uuidgen: --namespace requires --name argument\nTry 'uuidgen --help' for more information.\n
err: uuidgen: unknown namespace alias: '@foo'\nTry 'uuidgen --help' for more information.\n
err: uuidgen: not a valid hex string\nTry 'uuidgen --help' for more information.\n
err: uuidgen: --name requires --namespace argument\nTry 'uuidgen --help' for more information.\n
err: uuidgen: --namespace requires --md5 or --sha1\nTry 'uuidgen --help' for more information.\n
err: uuidgen: --md5 or --sha1 requires --namespace argument\nTry 'uuidgen --help' for more information.\n
err: uuidgen: invalid uuid for namespace: 'bad'\nTry 'uuidgen --help' for more information.\n

test: a bad option is one message and one hint; --h is ambiguous, help before hex
cmd: uuidgen -y; echo $?; uuidgen --h; echo $?
out: 1\n1\n
err: uuidgen: invalid option -- 'y'\nTry 'uuidgen --help' for more information.\nuuidgen: option '--h' is ambiguous; possibilities: '--help' '--hex'\nTry 'uuidgen --help' for more information.\n

test: long options abbreviated
cmd: uuidgen --sha --names @dns --name example.com
out: cfbff0d1-9375-5685-968c-48ce8b15ae17\n
