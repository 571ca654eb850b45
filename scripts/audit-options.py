#!/usr/bin/python3
"""Lists, per command of the table, the long options that the host GNU tool
names in its --help and that the command's source does not mention.
Run from the repository root after a build: python3 scripts/audit-options.py
(docs/commands-audit.md is written from its output)."""
import glob
import os
import re
import shutil
import subprocess
ROOT=os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
table=open(ROOT+'/build/gen/cmd_table.c').read()
cmds=re.findall(r'\{"([^"]+)", (cmd_[a-z0-9_]+)\}', table)
# map function -> source file
src={}
for f in glob.glob(ROOT+'/src/cmd/*.c')+glob.glob(ROOT+'/src/cmd/*/*.c'):
    t=open(f).read()
    for m in re.finditer(r'CMD_DEFINE\("([^"]+)"', t):
        src[m.group(1)]=f
# gather all text of a command's file plus shared option helpers
def text_for(name):
    f=src.get(name)
    if not f: return ''
    t=open(f).read()
    base=os.path.basename(f)[:-2]
    for extra in glob.glob(ROOT+f'/src/cmd/{base}_*.c')+glob.glob(ROOT+f'/src/cmd/{base}/*.c'):
        t+=open(extra).read()
    return t
rows=[]
skipnames={'help','version'}
for name,fn in cmds:
    if name in ('[',): continue
    path=shutil.which(name)
    if not path: continue
    try:
        h=subprocess.run([name,'--help'],capture_output=True,timeout=5,stdin=subprocess.DEVNULL,env={'LC_ALL':'C.UTF-8','PATH':'/usr/bin:/bin','TERM':'xterm'})
    except Exception:
        continue
    out=(h.stdout+h.stderr).decode(errors='replace')
    longs=sorted(set(re.findall(r'(?<![\w-])--([a-z][a-z0-9-]+)', out))-skipnames)
    t=text_for(name)
    missing=[o for o in longs if f"\"{o}\"" not in t and f"--{o}" not in t and f"\"{o}=" not in t]
    rows.append((name,len(longs),missing))
for name,n,missing in rows:
    print(f"{name}\t{n}\t{' '.join(missing)}")
