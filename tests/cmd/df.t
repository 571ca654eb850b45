# df: the sandbox is one file system sized by its quotas; the host's df shows
# the host's disks, so these cases are sbx-only (tests/cmd/test_archive.c
# checks the figures under a quota).

# sbx: no quota, so no size
test: without a quota the size is unknown
cmd: df | sed 's/  *[0-9][0-9]* / N /'; df -h | head -1; df -i | cut -c1-20 | head -1
out: Filesystem     1K-blocks  Used Available Use% Mounted on\nsbx                    - N         -    - /\nFilesystem      Size  Used Avail Use% Mounted on\nFilesystem     Inode\n
host: skip

# sbx: GNU's headers for -P, -T, -B and --output
test: headers
cmd: df -P | head -1; df -T | head -1; df -BM | head -1; df --output=source,fstype,target,file; df --total | tail -1 | cut -c1-5
out: Filesystem     1024-blocks  Used Available Capacity Mounted on\nFilesystem     Type 1K-blocks  Used Available Use% Mounted on\n
out: Filesystem     1M-blocks  Used Available Use% Mounted on\nFilesystem     Type Mounted on File\nsbx            sbx  /          -\ntotal\n
host: skip

# sbx: the sandbox's type is sbx
test: operands, types and errors
cmd: df nosuch; echo $?; df -x sbx; echo $?; df -t sbx . | tail -1 | cut -c1-3; df -i -T 2>&1 | head -1; df --output=size,nope
out: 1\n1\nsbx\nFilesystem     Type Inodes IUsed IFree IUse% Mounted on\n
err: df: nosuch: No such file or directory\ndf: no file systems processed\ndf: ‘nope’: unrecognized field\nTry 'df --help' for more information.\n
status: 1
host: skip

test: a bad option prints the usage hint once
cmd: df --nosuch
out:
err: df: unrecognized option '--nosuch'\nTry 'df --help' for more information.\n
status: 1

test: an ambiguous prefix lists the long options in order
cmd: df --t
out:
err: df: option '--t' is ambiguous; possibilities: '--total' '--type'\nTry 'df --help' for more information.\n
status: 1
