# touch: creating files and setting times (-d, -t, -r, -a, -m, -c, -h).

test: creates an empty file
cmd: touch f; ls -s f
out: 0 f\n

test: -c does not create
cmd: touch -c nope; ls
out:

test: missing directory
cmd: touch x/y
out:
err: touch: cannot touch 'x/y': No such file or directory\n
status: 1

test: -d with an ISO date
cmd: touch -d '2024-01-02 03:04:05' f; ls -l --time-style=full-iso f
out: -rw-r--r-- 1 root root 0 2024-01-02 03:04:05.000000000 +0000 f\n

test: -d with fractional seconds
cmd: touch -d '2024-01-02T03:04:05.25Z' f; ls -l --time-style=full-iso f
out: -rw-r--r-- 1 root root 0 2024-01-02 03:04:05.250000000 +0000 f\n

test: -d @epoch
cmd: touch -d @86400 f; ls -l --time-style=+%s f
out: -rw-r--r-- 1 root root 0 86400 f\n

test: -t with century and seconds
cmd: touch -t 202401020304.05 f; ls -l --time-style=full-iso f
out: -rw-r--r-- 1 root root 0 2024-01-02 03:04:05.000000000 +0000 f\n

test: -t with a two-digit year
cmd: touch -t 2401020304 f; ls -l --time-style=+%F_%T f
out: -rw-r--r-- 1 root root 0 2024-01-02_03:04:00 f\n

test: -t without a year uses this year
cmd: touch -t 01020304 f; ls -l --time-style=+%m%d%H%M f
out: -rw-r--r-- 1 root root 0 01020304 f\n

test: invalid -t
cmd: touch -t 99 f
out:
err: touch: invalid date format \xe2\x80\x9899\xe2\x80\x99\n
status: 1

test: invalid -d
cmd: touch -d junk f
out:
err: touch: invalid date format \xe2\x80\x98junk\xe2\x80\x99\n
status: 1

test: -a only changes the access time
cmd: touch -d @5 f; touch -a -d @7 f; ls -l --time-style=+%s f; ls -lu --time-style=+%s f
out: -rw-r--r-- 1 root root 0 5 f\n-rw-r--r-- 1 root root 0 7 f\n

test: -m only changes the modification time
cmd: touch -d @5 f; touch -m -d @7 f; ls -l --time-style=+%s f; ls -lu --time-style=+%s f
out: -rw-r--r-- 1 root root 0 7 f\n-rw-r--r-- 1 root root 0 5 f\n

test: -r copies times
cmd: touch -d @1000 a; touch -r a b; ls -l --time-style=+%s b
out: -rw-r--r-- 1 root root 0 1000 b\n

test: -r with -d adjusts relative to the reference
cmd: touch -d @1000 a; touch -r a -d '+1 hour' b; ls -l --time-style=+%s b
out: -rw-r--r-- 1 root root 0 4600 b\n

test: -r missing reference
cmd: touch -r nope f
out:
err: touch: failed to get attributes of 'nope': No such file or directory\n
status: 1

test: -h changes the link itself
cmd: touch -d @100 t; ln -s t l; touch -h -d @200 l; ls -l --time-style=+%s t; ls -l --time-style=+%s l
out: -rw-r--r-- 1 root root 0 100 t\nlrwxrwxrwx 1 root root 1 200 l -> t\n

test: existing file keeps its content
cmd: echo hi > f; touch f; cat f
out: hi\n

test: missing operand
cmd: touch
out:
err: touch: missing file operand\nTry 'touch --help' for more information.\n
status: 1

test: --time=mtime
cmd: touch -d @5 f; touch --time=mtime -d @9 f; ls -lu --time-style=+%s f; ls -l --time-style=+%s f
out: -rw-r--r-- 1 root root 0 5 f\n-rw-r--r-- 1 root root 0 9 f\n

test: a dangling symlink creates its target
cmd: ln -s tgt l; touch l; ls
out: l\ntgt\n

test: many files in one call
cmd: touch a b c d e f g h; ls | wc -l
out: 8\n

test: long options abbreviated; --no is ambiguous
cmd: touch --no-c a; touch --da=@100 --ti=mtime b; touch --ref b c; ls; ls -l --time-style=+%s c | cut -d' ' -f6-; touch --no f
out: b\nc\n100 c\n
err: touch: option '--no' is ambiguous; possibilities: '--no-create' '--no-dereference'\nTry 'touch --help' for more information.\n
status: 1

test: a bad --time argument is reported before a later bad option
cmd: touch --time=x --nope f; echo $?; ls
out: 1\n
err: touch: invalid argument ‘x’ for ‘--time’\nValid arguments are:\n  - ‘atime’, ‘access’, ‘use’\n  - ‘mtime’, ‘modify’\nTry 'touch --help' for more information.\n
