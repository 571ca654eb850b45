"""bench/scale: the figures of issue 19 seen through the localsandbox package.

Prints "ROW NAME VALUE" lines for run.sh (microseconds, calls per second):
  pkg   warm bash('echo hi') in a file sandbox (its history row written) and
        in memory, abash beside bash, warm execute_python('x = 1')
  pthreads  T Python threads (1, 2, 4, 16, 64) each on a sandbox of its own
        doing bash('echo hi') for a fixed time (the GIL is released in the
        calls), in memory and in files: calls/s, p99, CPU per call
  asyncio   T tasks on T sandboxes in one loop: abash beside to_thread(bash)
  pyexec    T threads on T sandboxes doing execute_python('x = 1'), each
        sandbox with its worker process (their cold start timed too)

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

        async def timed(n: int) -> float:
            out = []
            for _ in range(n):
                t = time.perf_counter()
                await m.abash("echo hi")
                out.append((time.perf_counter() - t) * 1e6)
            return statistics.median(out)

        # abash beside bash in alternating rounds (the host's load changes
        # between rounds; each pair shares one), the best round of each
        asyncio.run(timed(100))
        sync, asyn = [], []
        for _ in range(3):
            sync.append(per_call_us(lambda: m.bash("echo hi"), 2000))
            asyn.append(asyncio.run(timed(2000)))
        print(f"pkg bash_mem_us {min(sync):.2f}")
        print(f"pkg abash_mem_us {min(asyn):.2f}")
        m.execute_python("x = 0")
        print(f"pkg python_mem_us {per_call_us(lambda: m.execute_python('x = 1'), 1000):.2f}")


COUNTS = (1, 2, 4, 16, 64)


def _timed_loop(call, stop_at: float) -> tuple[int, list[float], float]:
    """Calls call() until stop_at: (calls, latencies in us, thread CPU s)."""
    lat = []
    cpu0 = time.thread_time()
    now = time.perf_counter()
    while now < stop_at:
        call()
        t = time.perf_counter()
        lat.append((t - now) * 1e6)
        now = t
    return len(lat), lat, time.thread_time() - cpu0


def _p99(lat: list[float]) -> float:
    lat.sort()
    return lat[int(0.99 * (len(lat) - 1))] if lat else 0.0


def _threads(name: str, boxes: list, call, secs: float) -> None:
    """N Python threads, one per sandbox, each calling call(box) for secs."""
    n = len(boxes)
    out: list = [None] * n
    start = threading.Barrier(n + 1)
    stop_at = [0.0]

    def work(i: int) -> None:
        box = boxes[i]
        start.wait()
        out[i] = _timed_loop(lambda: call(box), stop_at[0])

    threads = [threading.Thread(target=work, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    stop_at[0] = time.perf_counter() + secs
    t0 = time.perf_counter()
    start.wait()
    for t in threads:
        t.join()
    el = time.perf_counter() - t0
    calls = sum(o[0] for o in out)
    lat = [x for o in out for x in o[1]]
    cpu = sum(o[2] for o in out)
    print(f"{name}_{n}_calls_per_s {calls / el:.0f}")
    print(f"{name}_{n}_p99_us {_p99(lat):.1f}")
    print(f"{name}_{n}_cpu_us_per_call {cpu / calls * 1e6:.2f}")


def row_pthreads(scratch: str) -> None:
    """bash('echo hi') from N threads on N sandboxes, in memory and in files
    (with the history row: most of the call is then in C, without the GIL)."""
    secs = float(os.environ.get("BENCH_SCALE_SECS", "1"))
    for kind in ("mem", "file"):
        for n in COUNTS:
            paths = [os.path.join(scratch, f"pt{i}.db") for i in range(n)] if kind == "file" else [None] * n
            boxes = [LocalSandbox(path=p) if p else LocalSandbox() for p in paths]
            for b in boxes:
                b.bash("echo hi")
            _threads(f"pthreads {kind}", boxes, lambda b: b.bash("echo hi"), secs)
            for b in boxes:
                b.destroy()
            for p in paths:
                if p:
                    os.unlink(p)


def row_asyncio() -> None:
    """N tasks on N sandboxes in one event loop, each awaiting abash('echo hi')
    back to back (and the same through asyncio.to_thread(bash), the old path)."""
    secs = float(os.environ.get("BENCH_SCALE_SECS", "1"))

    async def bench(n: int, boxes: list, how: str) -> None:
        stop_at = time.perf_counter() + secs
        lats: list[list[float]] = [[] for _ in range(n)]

        async def task(i: int) -> None:
            box = boxes[i]
            lat = lats[i]
            now = time.perf_counter()
            while now < stop_at:
                if how == "abash":
                    await box.abash("echo hi")
                else:
                    await asyncio.to_thread(box.bash, "echo hi")
                t = time.perf_counter()
                lat.append((t - now) * 1e6)
                now = t

        t0 = time.perf_counter()
        await asyncio.gather(*(task(i) for i in range(n)))
        el = time.perf_counter() - t0
        allv = [x for v in lats for x in v]
        print(f"asyncio {how}_{n}_calls_per_s {len(allv) / el:.0f}")
        print(f"asyncio {how}_{n}_p99_us {_p99(allv):.1f}")

    for n in COUNTS:
        boxes = [LocalSandbox() for _ in range(n)]
        for b in boxes:
            b.bash("echo hi")
        for how in ("abash", "to_thread"):
            asyncio.run(bench(n, boxes, how))
        for b in boxes:
            b.destroy()


def row_pyexec() -> None:
    """execute_python('x = 1') from N threads on N sandboxes, each with its
    Python worker (a process): the cold start of the N workers, then the
    warm calls. 64 workers is what this machine takes (about 12 MiB each)."""
    secs = float(os.environ.get("BENCH_SCALE_SECS", "1"))
    for n in COUNTS:
        t0 = time.perf_counter()
        boxes = [LocalSandbox() for _ in range(n)]
        threads = [threading.Thread(target=b.execute_python, args=("x = 0",)) for b in boxes]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        print(f"pyexec start_{n}_ms {(time.perf_counter() - t0) * 1e3:.0f}")
        _threads("pyexec py", boxes, lambda b: b.execute_python("x = 1"), secs)
        for b in boxes:
            b.destroy()


def main() -> None:
    scratch = sys.argv[1]
    rows = sys.argv[2:] or ["pkg", "pthreads", "asyncio", "pyexec"]
    if "pkg" in rows:
        row_pkg(scratch)
    if "pthreads" in rows:
        row_pthreads(scratch)
    if "asyncio" in rows:
        row_asyncio()
    if "pyexec" in rows:
        row_pyexec()


if __name__ == "__main__":
    main()
