"""The GIL is released during every call into C: threads over several
sandboxes run at the same time, and one sandbox used from several threads is
serialized safely.

The proofs do not depend on how many cores are free: while a worker thread is
inside one long C call (a 64 MiB write), the main thread keeps running Python
code (it could not if the call held the GIL), and calls on different
sandboxes overlap in time.
"""

from __future__ import annotations

import asyncio
import os
import threading
import time

from localsandbox import LocalSandbox

BIG = os.urandom(1 << 20) * 64  # 64 MiB: one write takes tens of milliseconds
MID = BIG[: 24 << 20]  # for the tests that write from several threads at once


def _timed_write(
    sandbox: LocalSandbox, path: str, out: list[tuple[float, float]], data: bytes = BIG
) -> None:
    start = time.perf_counter()
    sandbox.write_file_bytes(path, data)
    out.append((start, time.perf_counter()))


def test_python_keeps_running_during_a_c_call() -> None:
    with LocalSandbox() as sandbox:
        spans: list[tuple[float, float]] = []
        worker = threading.Thread(target=_timed_write, args=(sandbox, "/big", spans))
        ticks = []
        worker.start()
        while worker.is_alive():
            ticks.append(time.perf_counter())
        worker.join()
        (start, end), = spans
        inside = [t for t in ticks if start <= t <= end]
        # the main thread ran all through the call: many ticks, no long gap
        gaps = [b - a for a, b in zip([start] + inside, inside + [end])]
        assert len(inside) > 100, (len(inside), end - start)
        assert max(gaps) < 0.6 * (end - start), (max(gaps), end - start)
        assert sandbox.read_file_bytes("/big") == BIG


def test_threads_over_several_sandboxes_overlap() -> None:
    sandboxes = [LocalSandbox() for _ in range(3)]
    try:
        spans: list[tuple[float, float]] = []
        barrier = threading.Barrier(len(sandboxes))

        def work(s: LocalSandbox) -> None:
            barrier.wait()
            _timed_write(s, "/big", spans, MID)

        threads = [threading.Thread(target=work, args=(s,)) for s in sandboxes]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert len(spans) == 3
        # every call started before any call ended: they ran at the same time
        assert max(s for s, _ in spans) < min(e for _, e in spans), spans
        for s in sandboxes:
            assert s.read_file_bytes("/big") == MID
    finally:
        for s in sandboxes:
            s.destroy()


def test_asyncio_gather_over_several_sandboxes_overlaps() -> None:
    sandboxes = [LocalSandbox() for _ in range(3)]
    try:
        spans: list[tuple[float, float]] = []

        async def one(s: LocalSandbox) -> None:
            start = time.perf_counter()
            await s.awrite_file_bytes("/big", MID)
            spans.append((start, time.perf_counter()))

        async def main() -> None:
            await asyncio.gather(*(one(s) for s in sandboxes))

        asyncio.run(main())
        assert max(s for s, _ in spans) < min(e for _, e in spans), spans
    finally:
        for s in sandboxes:
            s.destroy()


def test_one_sandbox_from_many_threads_is_serialized() -> None:
    with LocalSandbox() as sandbox:
        errors: list[BaseException] = []

        def writer(n: int) -> None:
            try:
                for i in range(150):
                    data = f"{n}:{i}:".encode() * (i + 1)
                    sandbox.write_file_bytes(f"/t{n}/f{i}", data)
                    assert sandbox.read_file_bytes(f"/t{n}/f{i}") == data
                    sandbox.kv.set(f"t{n}", str(i))
                    assert sandbox.exists(f"/t{n}/f{i}")
            except BaseException as e:  # noqa: BLE001 - reported below
                errors.append(e)

        threads = [threading.Thread(target=writer, args=(n,)) for n in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert errors == []
        for n in range(4):
            assert len(sandbox.list_files(f"/t{n}")) == 150
            assert sandbox.kv.get(f"t{n}") == "149"


def test_destroy_while_another_thread_uses_the_sandbox() -> None:
    sandbox = LocalSandbox()
    outcomes: list[str] = []
    started = threading.Event()

    def user() -> None:
        started.set()
        try:
            for i in range(10_000):
                sandbox.write_file(f"/f{i % 10}", "x")
            outcomes.append("finished")
        except RuntimeError as e:
            outcomes.append(str(e))

    t = threading.Thread(target=user)
    t.start()
    started.wait()
    time.sleep(0.01)
    sandbox.destroy()
    t.join()
    assert outcomes in (["finished"], ["LocalSandbox instance has been destroyed"])
    assert sandbox.destroyed


def test_many_sandboxes_open_and_close_in_threads() -> None:
    def churn() -> None:
        for _ in range(20):
            with LocalSandbox(files={"/a": "a"}) as s:
                assert s.read_file("/a") == "a"

    threads = [threading.Thread(target=churn) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
