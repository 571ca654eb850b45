"""bench/scale: the figures of issue 19 seen through the localsandbox package.

Prints "ROW NAME VALUE" lines for run.sh (microseconds, calls per second):
  pkg   warm bash('echo hi') in a file sandbox (its history row written) and
        in memory, abash beside bash, warm execute_python('x = 1')
  pthreads  T Python threads (1, 2) each on a sandbox of its own doing
        bash('echo hi') for a fixed time (the GIL is released in the calls)

Usage: PYTHONPATH=build/python /usr/bin/python3 bench/scale/bench_scale.py DIR
"""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import threading
import time

from localsandbox import LocalSandbox


def per_call_us(fn, calls: int) -> float:
    """The median of single calls (as the C rows: a busy host's stalls land
    in the tail, not in the figure)."""
    for _ in range(min(calls, 100)):
        fn()
    samples = []
    for _ in range(calls):
        t = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - t) * 1e6)
    return statistics.median(samples)


def row_pkg(scratch: str) -> None:
    path = os.path.join(scratch, "pkg.db")
    if os.path.exists(path):
        os.unlink(path)
    with LocalSandbox(path=path) as f, LocalSandbox() as m:
        print(f"pkg bash_file_us {per_call_us(lambda: f.bash('echo hi'), 2000):.2f}")
        print(f"pkg bash_mem_us {per_call_us(lambda: m.bash('echo hi'), 2000):.2f}")

        async def many(n: int) -> None:
            for _ in range(n):
                await m.abash("echo hi")

        async def timed(n: int) -> list[float]:
            out = []
            for _ in range(n):
                t = time.perf_counter()
                await m.abash("echo hi")
                out.append((time.perf_counter() - t) * 1e6)
            return out

        asyncio.run(many(100))
        print(f"pkg abash_mem_us {statistics.median(asyncio.run(timed(2000))):.2f}")
        m.execute_python("x = 0")
        print(f"pkg python_mem_us {per_call_us(lambda: m.execute_python('x = 1'), 1000):.2f}")


def row_pthreads() -> None:
    secs = 1.5
    for n in (1, 2):
        boxes = [LocalSandbox() for _ in range(n)]
        counts = [0] * n
        start = threading.Barrier(n + 1)
        stop_at = [0.0]

        def work(i: int) -> None:
            box = boxes[i]
            start.wait()
            k = 0
            while time.perf_counter() < stop_at[0]:
                box.bash("echo hi")
                k += 1
            counts[i] = k

        threads = [threading.Thread(target=work, args=(i,)) for i in range(n)]
        stop_at[0] = time.perf_counter() + secs + 0.01
        for t in threads:
            t.start()
        start.wait()
        t0 = time.perf_counter()
        for t in threads:
            t.join()
        el = time.perf_counter() - t0
        print(f"pthreads bash_{n}_calls_per_s {sum(counts) / el:.0f}")
        for b in boxes:
            b.destroy()


def main() -> None:
    scratch = sys.argv[1]
    rows = sys.argv[2:] or ["pkg", "pthreads"]
    if "pkg" in rows:
        row_pkg(scratch)
    if "pthreads" in rows:
        row_pthreads()


if __name__ == "__main__":
    main()
