"""The examples of the published localsandbox README that use bash, run as
written there (collected when the shell is built)."""

from __future__ import annotations

from conftest import run
from localsandbox import LocalSandbox


def test_quick_start() -> None:
    # Basic usage with context manager (recommended)
    with LocalSandbox() as sandbox:
        result = sandbox.bash('echo "Hello, World!"')
        assert result.stdout == "Hello, World!\n"

    # Without context manager
    sandbox = LocalSandbox()
    try:
        result = sandbox.bash('echo "Hello!"')
        assert result.stdout == "Hello!\n"
    finally:
        sandbox.destroy()


def test_history_example() -> None:
    with LocalSandbox() as sandbox:
        sandbox.bash('echo "hello"')
        sandbox.bash("ls -la")

        history = sandbox.history()
        lines = [f"Command: {e.parameters['command']}, Exit: {e.result['exitCode']}" for e in history]  # type: ignore[index]
    assert lines == ["Command: ls -la, Exit: 0", 'Command: echo "hello", Exit: 0']


def test_async_example() -> None:
    async def main() -> str:
        sandbox = LocalSandbox()
        try:
            result = await sandbox.abash('echo "async!"')
            await sandbox.awrite_file("/data/tmp/test.txt", "content")
            content = await sandbox.aread_file("/data/tmp/test.txt")
            await sandbox.kv.aset("key", "value")
            assert await sandbox.kv.aget("key") == "value"
            assert content == "content"
        finally:
            await sandbox.adestroy()
        return result.stdout

    assert run(main()) == "async!\n"


def test_snapshot_resume_example_with_bash() -> None:
    with LocalSandbox() as sandbox:
        sandbox.bash('echo "session one" > /data/notes.txt')
        sandbox.kv.set("session_id", "alpha")
        snapshot = sandbox.export_snapshot()
    resumed = LocalSandbox(snapshot=snapshot)
    try:
        assert resumed.read_file("/data/notes.txt").strip() == "session one"
        assert resumed.kv.get("session_id") == "alpha"
    finally:
        resumed.destroy()
