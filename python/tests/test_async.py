"""The async twins (a*-prefixed methods and kv.a*)."""

from __future__ import annotations

import asyncio

import pytest

from conftest import run
from localsandbox import FileNotFoundError, LocalSandbox


def test_async_file_helpers(sandbox: LocalSandbox) -> None:
    async def main() -> None:
        await sandbox.awrite_file("/home/user/async.txt", "async content")
        assert await sandbox.aread_file("/home/user/async.txt") == "async content"
        assert await sandbox.aexists("/home/user/async.txt") is True
        assert "async.txt" in await sandbox.alist_files("/home/user")
        await sandbox.adelete_file("/home/user/async.txt")
        assert await sandbox.aexists("/home/user/async.txt") is False

    run(main())


def test_async_bytes(sandbox: LocalSandbox) -> None:
    async def main() -> bytes:
        await sandbox.awrite_file_bytes("/home/user/async.bin", bytes(range(256)))
        return await sandbox.aread_file_bytes("/home/user/async.bin")

    assert run(main()) == bytes(range(256))


def test_async_kv(sandbox: LocalSandbox) -> None:
    async def main() -> None:
        await sandbox.kv.aset("asynckey", "asyncvalue")
        assert await sandbox.kv.aget("asynckey") == "asyncvalue"
        assert "asynckey" in await sandbox.kv.akeys()
        assert await sandbox.kv.akeys("zzz") == []
        await sandbox.kv.adelete("asynckey")
        assert await sandbox.kv.aget("asynckey") is None

    run(main())


def test_async_snapshot_history_fork_destroy() -> None:
    async def main() -> None:
        s = LocalSandbox(files={"/a": "A"})
        snap = await s.aexport_snapshot()
        assert len(snap) > 0
        history = await s.ahistory()
        assert [e.name for e in history] == ["seed"]
        child = await s.afork()
        assert await child.aread_file("/a") == "A"
        await child.adestroy()
        await s.adestroy()
        with pytest.raises(RuntimeError, match="destroyed"):
            await s.aread_file("/a")
        await s.adestroy()  # idempotent

    run(main())


def test_async_errors_propagate(sandbox: LocalSandbox) -> None:
    async def main() -> None:
        with pytest.raises(FileNotFoundError) as info:
            await sandbox.aread_file("/missing")
        assert info.value.path == "/missing"

    run(main())


def test_concurrent_requests_on_one_sandbox(sandbox: LocalSandbox) -> None:
    sandbox.write_file("/data/data.txt", "hello")

    async def main() -> list[str]:
        return await asyncio.gather(*(sandbox.aread_file("/data/data.txt") for _ in range(20)))

    assert run(main()) == ["hello"] * 20


# ---- abash on the sandbox's own thread (bash_submit / the eventfd) ---------------


def test_abash_long_call_leaves_the_loop_free() -> None:
    """A call longer than the inline wait is awaited through the eventfd: the
    loop runs other tasks meanwhile."""

    async def main() -> tuple[str, int]:
        ticks = 0

        async def ticker() -> None:
            nonlocal ticks
            while True:
                await asyncio.sleep(0.01)
                ticks += 1

        with LocalSandbox() as s:
            t = asyncio.create_task(ticker())
            r = await s.abash("sleep 0.3; echo done")
            t.cancel()
            return r.stdout, ticks

    out, ticks = run(main())
    assert out == "done\n"
    assert ticks >= 5, ticks


def test_abash_concurrent_calls_on_one_sandbox_keep_their_order() -> None:
    async def main() -> list[str]:
        with LocalSandbox() as s:
            await s.abash("n=0")
            calls = [s.abash(f"n=$((n+1)); sleep 0.0{i % 3}; echo {i}:$n") for i in range(12)]
            return [r.stdout for r in await asyncio.gather(*calls)]

    assert run(main()) == [f"{i}:{i + 1}\n" for i in range(12)]


def test_abash_errors_and_history_as_bash() -> None:
    from localsandbox import CommandError, TimeoutError

    async def main() -> None:
        with LocalSandbox() as s:
            with pytest.raises(CommandError) as e:
                await s.abash("echo out; echo err >&2; exit 3")
            assert (e.value.exit_code, e.value.stdout, e.value.stderr) == (3, "out\n", "err\n")
            with pytest.raises(TimeoutError):
                await s.abash("sleep 5", timeout=0.1)
            with pytest.raises(FileNotFoundError):
                await s.abash("cat /nope")
            r = await s.abash("cd /tmp; pwd")
            assert r.stdout == "/tmp\n" and r.exit_code == 0
            assert (await s.abash("pwd")).stdout == "/tmp\n"  # the session persists
            names = [h.name for h in s.history()]
            assert names.count("bash") == 5

    run(main())


def test_abash_cancel_drops_a_queued_call() -> None:
    async def main() -> None:
        with LocalSandbox() as s:
            first = asyncio.create_task(s.abash("sleep 0.3"))
            await asyncio.sleep(0.05)
            queued = asyncio.create_task(s.abash("echo ran > /data/queued"))
            await asyncio.sleep(0.05)
            queued.cancel()
            with pytest.raises(asyncio.CancelledError):
                await queued
            await first
            assert not s.exists("/data/queued")
            assert (await s.abash("echo after")).stdout == "after\n"

    run(main())


def test_abash_destroy_ends_waiting_calls() -> None:
    async def main() -> None:
        s = LocalSandbox()
        running = asyncio.create_task(s.abash("sleep 30"))
        await asyncio.sleep(0.05)
        queued = asyncio.create_task(s.abash("echo never"))
        await asyncio.sleep(0.05)
        await asyncio.to_thread(s.destroy)  # cancels the running call, as for bash()
        for task in (running, queued):
            with pytest.raises(RuntimeError, match="destroyed"):
                await task
        with pytest.raises(RuntimeError, match="destroyed"):
            await s.abash("echo x")

    run(main())


def test_abash_from_loops_on_many_threads() -> None:
    import threading

    boxes = [LocalSandbox() for _ in range(4)]
    results: list[list[str]] = [[] for _ in boxes]

    def work(i: int) -> None:
        async def main() -> None:
            for k in range(50):
                results[i].append((await boxes[i].abash(f"echo {i}.{k}")).stdout)

        asyncio.run(main())

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(boxes))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    for i, b in enumerate(boxes):
        assert results[i] == [f"{i}.{k}\n" for k in range(50)]
        b.destroy()


def test_abash_runner_thread_and_fd_end_with_the_sandbox() -> None:
    import gc
    import os
    import threading

    def fds() -> int:
        return len(os.listdir("/proc/self/fd"))

    gc.collect()
    before_threads, before_fds = threading.active_count(), fds()
    native_before = len(os.listdir("/proc/self/task"))
    for _ in range(20):
        s = LocalSandbox()
        assert run(s.abash("sleep 0.1; echo x")).stdout == "x\n"
        s.destroy()
        del s
    gc.collect()
    assert threading.active_count() == before_threads
    assert len(os.listdir("/proc/self/task")) == native_before
    assert fds() == before_fds


def test_abash_one_sandbox_from_two_loops() -> None:
    """Two threads with a loop each share one sandbox: each call's outcome
    reaches its own awaiting task (short ones inline, long ones by the
    eventfd, which both loops watch)."""
    import threading

    s = LocalSandbox()
    got: list[list[str]] = [[], []]

    def work(i: int) -> None:
        async def main() -> None:
            for k in range(60):
                cmd = f"sleep 0.002; echo {i}.{k}" if k % 3 == 0 else f"echo {i}.{k}"
                got[i].append((await s.abash(cmd)).stdout)

        asyncio.run(main())

    threads = [threading.Thread(target=work, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    for i in range(2):
        assert got[i] == [f"{i}.{k}\n" for k in range(60)]
    s.destroy()


def test_abash_in_a_forked_child() -> None:
    """The runner thread does not survive fork(): the child starts its own
    (and its own eventfd) on its first abash, and closes cleanly."""
    import os

    s = LocalSandbox()
    assert run(s.abash("echo parent")).stdout == "parent\n"
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            out = asyncio.run(s.abash("sleep 0.1; echo child")).stdout
            s.destroy()
            code = 0 if out == "child\n" else 2
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
    assert run(s.abash("sleep 0.1; echo parent again")).stdout == "parent again\n"
    s.destroy()
