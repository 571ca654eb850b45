#!/usr/bin/python3
"""Differential test of sbx's tsort against GNU tsort: random graphs with
repeated names, self pairs and loops; stdout, stderr and status must match.

    tsort_differential.py [SEED]
"""
import os
import random
import subprocess
import sys

SBX = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "build", "sbx")
rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
bad = 0
for case in range(300):
    n = rng.randint(1, 12)
    names = [rng.choice(["a","b","c","d","e","f","g","h","x1","y2","zz","Q"]) for _ in range(n)]
    pairs = []
    for _ in range(rng.randint(1, 20)):
        pairs.append((rng.choice(names), rng.choice(names)))
    data = "\n".join(f"{a} {b}" if rng.random() < .7 else f"{a}\t{b}  " for a, b in pairs) + "\n"
    h = subprocess.run(["tsort"], input=data.encode(), capture_output=True)
    s = subprocess.run([SBX, "sh", "-c", "tsort"], input=data.encode(), capture_output=True)
    if (h.stdout, h.stderr, h.returncode) != (s.stdout, s.stderr, s.returncode):
        bad += 1
        if bad < 3: print(repr(data), h, s)
print(f"{300 - bad} passed, {bad} failed")
sys.exit(1 if bad else 0)
