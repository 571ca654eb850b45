"""The examples of the published localsandbox README that need neither the
shell nor Python (those are in test_readme_bash.py and
test_readme_python.py), run as written there, plus the build guards: bash
and Python either work or fail with a clear "not in this build" error."""

from __future__ import annotations

import pytest

from conftest import run
from localsandbox import ExecutionPreset, LocalSandbox, LocalSandboxError, _sbx


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


def test_bash_is_built_or_refused_clearly(sandbox: LocalSandbox) -> None:
    if _sbx.HAVE_BASH:
        assert sandbox.bash("echo built").stdout == "built\n"
        sandbox.reset_shell()
    else:
        for call in (lambda: sandbox.bash("echo hi"), sandbox.reset_shell):
            with pytest.raises(LocalSandboxError, match=r"without its shell \(sbx_bash\)"):
                call()
        assert sandbox.history() == []


def test_python_is_built_or_refused_clearly(sandbox: LocalSandbox) -> None:
    from localsandbox import probe

    if _sbx.HAVE_PYTHON:
        assert sandbox.execute_python("print('built')").stdout == "built\n"
        assert isinstance(probe()[0], bool)
    else:
        calls = [
            lambda: sandbox.execute_python("print(1)"),
            lambda: sandbox.create_context("c"),
            lambda: sandbox.set_var("x", 1),
            lambda: sandbox.protect("x"),
            probe,
        ]
        for call in calls:
            with pytest.raises(LocalSandboxError, match=r"without its Python worker"):
                call()
