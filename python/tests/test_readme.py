"""The examples of the published localsandbox README that need neither the
shell nor Python (those are in test_readme_bash.py and
test_readme_python.py), run as written there."""

from __future__ import annotations

from conftest import run
from localsandbox import ExecutionPreset, LocalSandbox


def test_file_helpers_example() -> None:
    with LocalSandbox() as sandbox:
        sandbox.write_file("/data/config.json", '{"key": "value"}')
        content = sandbox.read_file("/data/config.json")
        exists = sandbox.exists("/data/config.json")
        files = sandbox.list_files("/data")
    assert content == '{"key": "value"}'
    assert exists is True
    assert files == ["config.json"]


def test_kv_example() -> None:
    with LocalSandbox() as sandbox:
        sandbox.kv.set("user_id", "12345")
        user_id = sandbox.kv.get("user_id")
        all_keys = sandbox.kv.keys()
    assert user_id == "12345"
    assert all_keys == ["user_id"]


def test_kv_prefix_example() -> None:
    with LocalSandbox() as sandbox:
        sandbox.kv.set("user:42:name", "Ada")
        sandbox.kv.set("user:42:role", "engineer")
        assert sandbox.kv.keys("user:42:") == ["user:42:name", "user:42:role"]


def test_snapshot_and_resume_example() -> None:
    sandbox = LocalSandbox()
    sandbox.write_file("/data/notes.txt", "session one\n")
    sandbox.kv.set("session_id", "alpha")
    # Export current state
    snapshot = sandbox.export_snapshot()
    sandbox.destroy()
    # Resume from snapshot
    new_sandbox = LocalSandbox(snapshot=snapshot)
    try:
        assert new_sandbox.read_file("/data/notes.txt").strip() == "session one"
        assert new_sandbox.kv.get("session_id") == "alpha"
    finally:
        new_sandbox.destroy()


def test_notes_example() -> None:
    with LocalSandbox() as sandbox:
        sandbox.write_file("/notes/todo.txt", "buy milk\nship release\n")
        assert sandbox.read_file("/notes/todo.txt").strip() == "buy milk\nship release"
        assert sandbox.list_files("/notes") == ["todo.txt"]
        sandbox.delete_file("/notes/todo.txt")
        assert sandbox.list_files("/notes") == []


def test_presets_example() -> None:
    # For untrusted input
    sandbox = LocalSandbox(preset=ExecutionPreset.STRICT)
    sandbox.destroy()
    # For complex operations
    sandbox = LocalSandbox(preset=ExecutionPreset.PERMISSIVE)
    sandbox.destroy()


def test_async_example_file_and_kv_parts() -> None:
    async def main() -> tuple[str, str | None]:
        sandbox = LocalSandbox()
        try:
            await sandbox.awrite_file("/data/tmp/test.txt", "content")
            content = await sandbox.aread_file("/data/tmp/test.txt")
            await sandbox.kv.aset("key", "value")
            value = await sandbox.kv.aget("key")
        finally:
            await sandbox.adestroy()
        return content, value

    assert run(main()) == ("content", "value")

