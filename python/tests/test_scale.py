"""Many sandboxes in one process (issue 19): 10,000 opened and closed leave
no fds, threads or memory behind; running out of fds says so."""

from __future__ import annotations

import asyncio
import errno
import gc
import os
import resource
import threading

import pytest

from localsandbox import CommandError, LocalSandbox


def _fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def _tasks() -> int:
    return len(os.listdir("/proc/self/task"))


def _rss_kib() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * (os.sysconf("SC_PAGESIZE") // 1024)


def _children() -> set[int]:
    """The pids of this process's descendants."""
    parent: dict[int, int] = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as f:
                    parent[int(d)] = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                pass
    mine, grew = {os.getpid()}, True
    while grew:
        grew = False
        for pid, pp in parent.items():
            if pp in mine and pid not in mine:
                mine.add(pid)
                grew = True
    return mine - {os.getpid()}


def _life(i: int) -> None:
    with LocalSandbox() as s:
        assert s.bash(f"echo {i}").stdout == f"{i}\n"


def test_ten_thousand_sandboxes_leave_nothing_behind() -> None:
    for i in range(200):  # the allocator and the caches settle
        _life(i)
    gc.collect()
    fds, tasks, threads, rss = _fds(), _tasks(), threading.active_count(), _rss_kib()
    for i in range(10_000):
        _life(i)
    gc.collect()
    assert _fds() == fds
    assert _tasks() == tasks
    assert threading.active_count() == threads
    grew = _rss_kib() - rss
    assert grew <= 48 * 1024, f"RSS grew {grew} KiB over 10,000 sandboxes"


def test_abash_sandboxes_leave_nothing_behind() -> None:
    """The async path starts a thread and an eventfd per sandbox: both go."""

    async def life(i: int) -> None:
        with LocalSandbox() as s:
            assert (await s.abash(f"echo {i}")).stdout == f"{i}\n"

    async def main(n: int) -> None:
        for i in range(n):
            await life(i)

    asyncio.run(main(50))
    gc.collect()
    fds, tasks = _fds(), _tasks()
    asyncio.run(main(2000))
    gc.collect()
    assert _fds() == fds
    assert _tasks() == tasks


def test_python_workers_end_with_their_sandboxes() -> None:
    gc.collect()
    fds, tasks, kids = _fds(), _tasks(), _children()
    for i in range(8):
        with LocalSandbox() as s:
            assert s.execute_python(f"print({i} * 2)").stdout == f"{i * 2}\n"
    gc.collect()
    assert _fds() == fds
    assert _tasks() == tasks
    for _ in range(100):  # a worker reaped after the close may take a moment
        if _children() <= kids:
            break
        threading.Event().wait(0.05)
    assert _children() <= kids


def test_out_of_fds_says_too_many_open_files(tmp_path) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    gc.collect()
    path = str(tmp_path / "emfile.db")
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (_fds(), hard))  # room for nothing
        with pytest.raises(CommandError, match="Too many open files") as e:
            LocalSandbox(path=path)
        assert e.value.errno == errno.EMFILE  # type: ignore[attr-defined]
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    # with the fds back it opens: the file is absent or a complete sandbox
    with LocalSandbox(path=path) as s:
        assert s.bash("echo ok > f; cat f").stdout == "ok\n"
