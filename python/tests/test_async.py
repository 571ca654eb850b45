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
