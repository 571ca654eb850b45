"""Background commands: start() / bash(background=True) and their handles,
jobs that outlive their bash() call, the default quota (docs/limits.md)."""

from __future__ import annotations

import asyncio
import time

import pytest

from localsandbox import (
    CommandError,
    CommandHandle,
    ExecutionLimitError,
    LocalSandbox,
    TimeoutError,
)


def test_bash_background_job_outlives_the_call() -> None:
    with LocalSandbox() as sb:
        t0 = time.monotonic()
        r = sb.bash("{ sleep 0.3; echo built > /data/build.log; } & echo started")
        assert time.monotonic() - t0 < 0.25
        assert r.stdout == "started\n"
        assert not sb.exists("/data/build.log")
        time.sleep(0.6)  # no call runs: the job goes on by itself
        assert sb.read_file("/data/build.log") == "built\n"
        assert sb.bash("wait; echo $?").stdout == "0\n"


def test_start_handle_streams_waits_and_records() -> None:
    with LocalSandbox() as sb:
        h = sb.start("echo one; sleep 0.3; echo two; echo err >&2; exit 4")
        assert isinstance(h, CommandHandle)
        assert h.pid > 0 and h.running and h.exit_code is None
        time.sleep(0.1)
        assert h.stdout == "one\n"  # what it wrote so far
        assert [x.pid for x in sb.handles()] == [h.pid]
        with pytest.raises(TimeoutError):
            h.wait(timeout=0.05)
        assert h.wait(timeout=5) == 4
        assert (h.stdout, h.stderr, h.exit_code, h.running) == ("one\ntwo\n", "err\n", 4, False)
        assert sb.handles() == []
        entries = [e for e in sb.history(limit=20) if e.name == "bash_background"]
        assert len(entries) == 1
        assert "echo one" in str(entries[0].parameters)


def test_background_true_and_kill() -> None:
    with LocalSandbox() as sb:
        h = sb.bash("while :; do echo tick; sleep 0.02; done", background=True)
        assert isinstance(h, CommandHandle)
        time.sleep(0.15)
        h.kill()
        assert h.wait(timeout=5) == 143
        assert h.stdout.startswith("tick\ntick\n")
        # the shell saw it as a job, and sees it gone
        assert sb.bash("jobs -rp | wc -l").stdout.strip() == "0"


def test_start_errors() -> None:
    with LocalSandbox(limits={"bg_jobs": 1}) as sb:
        a = sb.start("sleep 100")
        with pytest.raises(ExecutionLimitError) as info:
            sb.start("sleep 100")
        assert info.value.limit_type == "bg_jobs"
        a.kill(9)
        assert a.wait(5) == 137
        with pytest.raises(CommandError):
            sb.start("if then")
    with pytest.raises(RuntimeError):
        a.kill()


def test_async_twin() -> None:
    async def main() -> tuple[int, str]:
        with LocalSandbox() as sb:
            h = await sb.astart("sleep 0.1; echo async")
            code = await h.await_exit(timeout=5)
            return code, h.stdout

    assert asyncio.run(main()) == (0, "async\n")


def test_destroy_ends_running_jobs_quickly() -> None:
    sb = LocalSandbox()
    sb.start("while :; do :; done")
    sb.bash("sleep 1000 &")
    t0 = time.monotonic()
    sb.destroy()
    assert time.monotonic() - t0 < 2


def test_default_quota_and_explicit_unlimited() -> None:
    with LocalSandbox() as sb:
        r = sb.bash("truncate -s 2G /data/big 2>&1; echo $?")
        assert "No space left on device" in r.stdout
    with LocalSandbox(limits={"max_bytes": 0}) as sb:  # no limit: asked for
        assert sb.bash("truncate -s 2G /data/big && stat -c %s /data/big").stdout == "2147483648\n"


def test_python3_in_a_background_job_runs_between_calls() -> None:
    with LocalSandbox() as sb:
        sb.bash("python3 -c 'import time; time.sleep(0.2); print(6 * 7)' > /data/p 2>&1 &")
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not (sb.exists("/data/p") and sb.read_file("/data/p")):
            time.sleep(0.05)  # no bash() call: the job runs on the driver
        assert sb.read_file("/data/p") == "42\n"
        assert sb.bash("wait; echo $?").stdout == "0\n"
