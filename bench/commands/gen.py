#!/usr/bin/python3
"""Generates the benchmark inputs into DIR: text1m, text10m, text100m (lines of
random words, about 1 in 8 lines containing an 'x'), json10m (a JSON array of
objects with fields a and b), pats10k (10,000 random lowercase strings for
grep -F -f) and tree/ with 10,000 files in 100 directories.
Deterministic (seeded), so every run and every peer sees the same bytes."""
import json
import os
import random
import sys

d = sys.argv[1]
os.makedirs(d, exist_ok=True)
rng = random.Random(42)
words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota",
         "kappa", "lambda", "mu", "nu", "xi", "omicron", "pi", "rho", "sigma", "tau"]
# "xi" is the only word with an x: about one line in eight has one.
lines = []
for _ in range(20000):
    lines.append(" ".join(rng.choice(words) for _ in range(rng.randint(3, 12))))
block = ("\n".join(lines) + "\n").encode()


def write_text(name, size):
    p = os.path.join(d, name)
    if os.path.exists(p) and os.path.getsize(p) >= size:
        return
    with open(p, "wb") as f:
        n = 0
        while n < size:
            f.write(block)
            n += len(block)


write_text("text1m", 1 << 20)
write_text("text10m", 10 << 20)
write_text("text100m", 100 << 20)
p = os.path.join(d, "json10m")
if not os.path.exists(p):
    arr = [{"a": rng.randint(0, 10**6), "b": rng.choice(words)} for _ in range(330000)]
    with open(p, "w") as f:
        json.dump(arr, f)
p = os.path.join(d, "pats10k")
if not os.path.exists(p):
    prng = random.Random(7)
    pats = ["".join(prng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(prng.randint(4, 10)))
            for _ in range(10000)]
    with open(p, "w") as f:
        f.write("\n".join(pats + words[:3]) + "\n")
t = os.path.join(d, "tree")
if not os.path.isdir(t):
    for i in range(100):
        sub = os.path.join(t, "d%02d" % i)
        os.makedirs(sub)
        for j in range(100):
            with open(os.path.join(sub, "f%03d.txt" % j), "w") as f:
                f.write("x\n")
