"""bench/python_api: the localsandbox package measured from Python.

Each figure is the median of several runs (warm calls: the mean over a
batch, median of batches) and is printed with its ratio to the published
localsandbox package on the same machine kind (just-bash + agentfs-sdk +
Pyodide behind a Deno server). A ratio above 1 means faster than published.
Informational only: nothing fails on a slow machine.

Usage: PYTHONPATH=build/python /usr/bin/python3 bench/python_api/bench.py
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable

from localsandbox import LocalSandbox

# The published package on this machine kind (ms), as ranges (low, high).
PUBLISHED = {
    "create + first bash('echo hi')": (79.0, 92.0),
    "warm bash('echo hi')": (1.1, 1.2),
    "write_file 1 MB": (171.0, 224.0),
    "read_file 1 MB": (15.0, 22.0),
    "create seeded with 100 x 10 KB files": (450.0, 710.0),
}
TARGETS = {"warm bash('echo hi')": 0.050}  # ms: under 50 us


def median_ms(fn: Callable[[], object], runs: int = 7) -> float:
    samples = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - t) * 1000)
    return statistics.median(samples)


def warm_ms(fn: Callable[[], object], batch: int, batches: int = 7) -> float:
    for _ in range(min(batch, 100)):
        fn()
    samples = []
    for _ in range(batches):
        t = time.perf_counter()
        for _ in range(batch):
            fn()
        samples.append((time.perf_counter() - t) * 1000 / batch)
    return statistics.median(samples)


def report(name: str, ms: float) -> None:
    line = f"{name:<40} {ms:10.4f} ms"
    if name in PUBLISHED:
        low, high = PUBLISHED[name]
        line += f"   published {low:g}-{high:g} ms: {low / ms:,.0f}x-{high / ms:,.0f}x faster"
    if name in TARGETS:
        line += f"   (target < {TARGETS[name] * 1000:g} us: {'met' if ms < TARGETS[name] else 'NOT met'})"
    print(line, flush=True)


def main() -> None:
    print("localsandbox over sbx")
    mb = os.urandom(512 * 1024).hex().encode()[: 1 << 20]  # 1 MB of text
    files = {f"/data/seed/f{i:03}.txt": os.urandom(5 * 1024).hex() for i in range(100)}

    def create_first() -> None:
        with LocalSandbox() as s:
            s.bash("echo hi")

    report("create + first bash('echo hi')", median_ms(create_first, 15))
    with LocalSandbox() as s:
        report("warm bash('echo hi')", warm_ms(lambda: s.bash("echo hi"), 2000))

    with LocalSandbox() as s:
        report("write_file 1 MB", median_ms(lambda: s.write_file_bytes("/data/mb.txt", mb), 15))
        report("read_file 1 MB", median_ms(lambda: s.read_file("/data/mb.txt"), 15))
        s.write_file("/data/small", "x" * 100)
        report("warm read_file 100 B", warm_ms(lambda: s.read_file("/data/small"), 2000))
        report("warm kv.set + kv.get", warm_ms(lambda: (s.kv.set("k", "v"), s.kv.get("k")), 2000))

    report("create seeded with 100 x 10 KB files", median_ms(lambda: LocalSandbox(files=files).destroy(), 7))
    with LocalSandbox(files=files) as s:
        report("export_snapshot of it", median_ms(s.export_snapshot, 15))
        snap = s.export_snapshot()
        report("LocalSandbox(snapshot=it)", median_ms(lambda: LocalSandbox(snapshot=snap).destroy(), 15))
        report("fork() of it", median_ms(lambda: s.fork().destroy(), 15))

    with LocalSandbox() as s:
        t = time.perf_counter()
        s.execute_python("x = 1")
        report("first execute_python (jail start)", (time.perf_counter() - t) * 1000)
        report("warm execute_python('x = 1')", warm_ms(lambda: s.execute_python("x = 1"), 200))


if __name__ == "__main__":
    main()
