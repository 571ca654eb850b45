# readlink and realpath: symlink targets and canonical names.
# Canonical names are shown relative to the test directory with
# --relative-to=. (the directory's absolute name differs between runs).

test: readlink prints the target
cmd: ln -s some/where l; readlink l
out: some/where\n

test: readlink on a regular file fails quietly
cmd: touch f; readlink f; echo $?
out: 1\n
err:

test: readlink -v explains
cmd: touch f; readlink -v f
out:
err: readlink: f: Invalid argument\n
status: 1

test: readlink -f resolves every link
cmd: mkdir -p d/e; ln -s d/e le; ln -s le l2; r=$(readlink -f l2); echo "${r#$PWD/}"
out: d/e\n

test: readlink -f allows a missing last component
cmd: mkdir -p d/e; ln -s d/e le; r=$(readlink -f le/../x); echo "${r#$PWD/}"
out: d/x\n

test: readlink -e needs every component
cmd: mkdir -p d/e; ln -s d/e le; readlink -e le/x; echo $?
out: 1\n

test: readlink -m needs nothing
cmd: r=$(readlink -m a/b/../c); echo "${r#$PWD/}"
out: a/c\n

test: readlink -f on a loop
cmd: ln -s loop loop; readlink -f loop; echo $?
out: 1\n

test: readlink -n
cmd: ln -s t l; readlink -n l
out: t

test: readlink -n with several names
cmd: ln -s t l; readlink -n l l
out: t\nt\n
err: readlink: ignoring --no-newline with multiple arguments\n

test: readlink -z
cmd: ln -s t l; readlink -z l
out: t\0

test: readlink missing operand
cmd: readlink
out:
err: readlink: missing operand\nTry 'readlink --help' for more information.\n
status: 1

test: realpath of a symlink
cmd: mkdir -p d/e; ln -s d/e le; realpath --relative-to=. le
out: d/e\n

test: realpath of a missing file is fine
cmd: realpath --relative-to=. nope
out: nope\n

test: realpath of a missing directory component
cmd: realpath nope/x
out:
err: realpath: nope/x: No such file or directory\n
status: 1

test: realpath -e
cmd: realpath -e nope
out:
err: realpath: nope: No such file or directory\n
status: 1

test: realpath -m
cmd: realpath -m --relative-to=. nope/../x
out: x\n

test: realpath -s does not follow links
cmd: mkdir -p d/e; ln -s d/e le; realpath -s --relative-to=. le
out: le\n

test: realpath -L applies .. first
cmd: mkdir -p d/e; ln -s d/e le; realpath -L --relative-to=. le/..
out: .\n

test: realpath -P applies .. after the link
cmd: mkdir -p d/e; ln -s d/e le; realpath --relative-to=. le/..
out: d\n

test: --relative-to
cmd: mkdir -p d/e; touch f; realpath --relative-to=d f; realpath --relative-to=d/e d
out: ../f\n..\n

test: --relative-base
cmd: mkdir -p d/e; touch f; realpath --relative-base=d d/e f | while read -r r; do echo "${r#$PWD/}"; done
out: e\nf\n

test: loop
cmd: ln -s loop loop; realpath loop
out:
err: realpath: loop: Too many levels of symbolic links\n
status: 1

test: trailing slash on a file
cmd: touch f; realpath f/
out:
err: realpath: f/: Not a directory\n
status: 1

test: -q
cmd: realpath -q nope/x; echo $?
out: 1\n
err:

test: root
cmd: realpath / //
out: /\n/\n

test: long options abbreviated and ambiguous
cmd: ln -s t l; readlink --no-new --verb l; echo; readlink --canon 2>&1; echo $?
cmd: realpath -m --relative-t=/x --no-s /x/y/z; realpath --rel 2>&1; echo $?
out: t\nreadlink: option '--canon' is ambiguous; possibilities: '--canonicalize' '--canonicalize-existing' '--canonicalize-missing'\n
out: Try 'readlink --help' for more information.\n1\n
out: y/z\nrealpath: option '--rel' is ambiguous; possibilities: '--relative-to' '--relative-base'\n
out: Try 'realpath --help' for more information.\n1\n
