#!/bin/bash
# bash -r: the restricted shell.
bash -r -c 'cd /tmp' 2>&1
echo "cd: $?"
bash -r -c 'echo hi > file.txt' 2>&1
echo "redirect: $?"
bash -r -c 'PATH=/tmp' 2>&1
echo "PATH: $?"
bash -r -c 'SHELL=x; echo $SHELL' 2>&1
echo "SHELL: $?"
bash -r -c '/bin/echo abs' 2>&1
echo "slash command: $?"
bash -r -c 'echo fine; export X=1; echo $X'
echo "ok: $?"
bash -r -c 'set +r' 2>&1
echo "set +r: $?"
bash -r -c 'shopt restricted_shell'
bash -r -c 'echo $-' | grep -c r
bash -r -c 'exec echo hi' 2>&1
echo "exec: $?"
bash -r -c 'enable -n echo' 2>&1
echo "enable: $?"
bash -r -c 'command -p echo x' 2>&1
echo "command -p: $?"
bash -r -c 'echo ok >> /dev/null' 2>&1
echo "append: $?"
bash -r -c 'cat < restricted.sh | head -1'
bash -c 'set -r; cd /' 2>&1
echo "set -r: $?"
