"""The key-value store, the history, snapshots, persistent path= sandboxes,
forks, transactions and the lifecycle (destroy, context manager)."""

from __future__ import annotations

import json
import os
import sqlite3

import pytest

from localsandbox import CommandError, ExecutionPreset, LocalSandbox, _sbx


class TestKV:
    def test_set_get(self, sandbox: LocalSandbox) -> None:
        sandbox.kv.set("mykey", "myvalue")
        assert sandbox.kv.get("mykey") == "myvalue"

    def test_get_missing_is_none(self, sandbox: LocalSandbox) -> None:
        assert sandbox.kv.get("nonexistent") is None

    def test_delete(self, sandbox: LocalSandbox) -> None:
        sandbox.kv.set("todelete", "value")
        sandbox.kv.delete("todelete")
        assert sandbox.kv.get("todelete") is None
        sandbox.kv.delete("todelete")  # missing key: no error

    def test_keys_and_prefix(self, sandbox: LocalSandbox) -> None:
        for k in ["prefix:b", "prefix:a", "other", "prefix%", "prefiy"]:
            sandbox.kv.set(k, "v")
        assert sandbox.kv.keys() == sorted(["prefix:b", "prefix:a", "other", "prefix%", "prefiy"])
        assert sandbox.kv.keys("prefix:") == ["prefix:a", "prefix:b"]
        # % and _ are literal, not LIKE wildcards
        assert sandbox.kv.keys("prefix%") == ["prefix%"]
        assert sandbox.kv.keys("nothing") == []

    def test_overwrite(self, sandbox: LocalSandbox) -> None:
        sandbox.kv.set("key", "original")
        sandbox.kv.set("key", "updated")
        assert sandbox.kv.get("key") == "updated"

    def test_stored_as_json_text_like_agentfs(self, sandbox: LocalSandbox) -> None:
        sandbox.kv.set("k", 'a "quoted" ✓ value')
        assert sandbox._h.kv_get("k") == '"a \\"quoted\\" ✓ value"'
        # a value written as raw JSON by another AgentFS tool reads back decoded
        sandbox._h.kv_set("n", "[1, 2]")
        assert sandbox.kv.get("n") == [1, 2]

    def test_json_values_accepted(self, sandbox: LocalSandbox) -> None:
        sandbox.kv.set("d", {"a": [1, None, True]})  # type: ignore[arg-type]
        assert sandbox.kv.get("d") == {"a": [1, None, True]}

    def test_empty_and_unicode(self, sandbox: LocalSandbox) -> None:
        sandbox.kv.set("", "")
        sandbox.kv.set("ключ", "значение")
        assert sandbox.kv.get("") == ""
        assert sandbox.kv.get("ключ") == "значение"

    def test_bad_types(self, sandbox: LocalSandbox) -> None:
        with pytest.raises(TypeError, match="key must be str"):
            sandbox.kv.set(1, "x")  # type: ignore[arg-type]
        with pytest.raises(TypeError, match="JSON"):
            sandbox.kv.set("k", object())  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            sandbox.kv.get(None)  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            sandbox.kv.keys(5)  # type: ignore[arg-type]

    def test_nul_in_key(self, sandbox: LocalSandbox) -> None:
        with pytest.raises(ValueError):
            sandbox.kv.set("a\x00b", "x")

    def test_destroyed(self) -> None:
        s = LocalSandbox()
        s.destroy()
        for call in (lambda: s.kv.get("a"), lambda: s.kv.set("a", "b"), lambda: s.kv.keys(),
                     lambda: s.kv.delete("a")):
            with pytest.raises(RuntimeError, match="destroyed"):
                call()


class TestHistory:
    def test_empty_on_new_sandbox(self, sandbox: LocalSandbox) -> None:
        assert sandbox.history() == []

    def test_limit_and_order(self, sandbox: LocalSandbox) -> None:
        for i in range(5):
            sandbox._record("tool", {"i": i}, {"ok": i})
        entries = sandbox.history()
        assert [e.parameters["i"] for e in entries] == [4, 3, 2, 1, 0]  # type: ignore[index]
        assert len(sandbox.history(limit=2)) == 2
        assert sandbox.history(limit=2)[0].parameters == {"i": 4}
        assert sandbox.history(limit=0) == []

    def test_history_limit_keeps_the_newest(self) -> None:
        with LocalSandbox(history_limit=10) as sb:
            for i in range(40):
                sb._record("tool", {"i": i}, {"ok": i})
            entries = sb.history(limit=1000)
            assert [e.parameters["i"] for e in entries] == list(range(39, 29, -1))  # type: ignore[index]
            sb.bash("true")  # a shell call is recorded under the same bound
            entries = sb.history(limit=1000)
            assert len(entries) == 10
            assert entries[1].parameters == {"i": 39}

    def test_history_limit_zero_is_unbounded_and_bad_values_raise(self) -> None:
        with LocalSandbox(history_limit=0) as sb:
            for i in range(150):
                sb._record("tool", {"i": i}, {})
            assert len(sb.history(limit=1000)) == 150
        with pytest.raises(ValueError):
            LocalSandbox(history_limit=-1)
        with pytest.raises(TypeError):
            LocalSandbox(history_limit="10")  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            LocalSandbox(history_limit=True)

    def test_timestamps(self, sandbox: LocalSandbox) -> None:
        sandbox._record("tool", {}, {})
        e = sandbox.history()[0]
        assert isinstance(e.started_at, int) and e.started_at > 1_600_000_000
        assert e.completed_at >= e.started_at
        assert e.status == "success"

    def test_pending_and_error_rows_from_other_tools(self, sandbox: LocalSandbox) -> None:
        pid = sandbox._h.history_start("pending_tool", '{"x": 1}')
        eid = sandbox._h.history_start("failing_tool", None)
        sandbox._h.history_finish(eid, None, "boom")
        entries = {e.name: e for e in sandbox.history()}
        assert entries["pending_tool"].id == pid
        assert entries["pending_tool"].status == "pending"
        assert entries["pending_tool"].completed_at == 0
        assert entries["failing_tool"].status == "error"
        assert entries["failing_tool"].error == "boom"
        assert entries["failing_tool"].result is None

    def test_bad_limit(self, sandbox: LocalSandbox) -> None:
        with pytest.raises(TypeError):
            sandbox.history("10")  # type: ignore[arg-type]
        with pytest.raises(ValueError):
            sandbox.history(-1)

    def test_huge_limit(self, sandbox: LocalSandbox) -> None:
        sandbox._record("tool", {}, {})
        assert len(sandbox.history(10**12)) == 1


class TestSnapshot:
    def test_snapshot_and_resume(self) -> None:
        with LocalSandbox(files={"/home/user/myfile.txt": "test content"}) as s1:
            s1.write_file("/project/src/main.py", "code")
            s1.kv.set("key1", "value1")
            snapshot = s1.export_snapshot()
        assert snapshot[:16] == b"SQLite format 3\x00"
        with LocalSandbox(snapshot=snapshot) as s2:
            assert s2.read_file("/home/user/myfile.txt") == "test content"
            assert s2.read_file("/project/src/main.py") == "code"
            assert s2.kv.get("key1") == "value1"
            # newest first: s2's two reads, s1's write_file, the seed
            assert [e.name for e in s2.history()] == ["read_file", "read_file", "write_file", "seed"]

    def test_snapshot_is_a_valid_agentfs_database(self, tmp_path: os.PathLike[str]) -> None:
        with LocalSandbox(files={"/a.txt": "A"}) as s:
            snapshot = s.export_snapshot()
        db = os.path.join(tmp_path, "snap.db")
        with open(db, "wb") as f:
            f.write(snapshot)
        con = sqlite3.connect(db)
        tables = {r[0] for r in con.execute("select name from sqlite_master where type='table'")}
        con.close()
        assert {"fs_inode", "fs_dentry", "fs_data", "kv_store", "tool_calls"} <= tables

    def test_snapshot_after_modifications(self) -> None:
        with LocalSandbox(files={"/initial.txt": "initial"}) as s1:
            s1.write_file("/initial.txt", "modified")
            s1.write_file("/new.txt", "new")
            snapshot = s1.export_snapshot()
        with LocalSandbox(snapshot=snapshot) as s2:
            assert s2.read_file("/initial.txt") == "modified"
            assert s2.read_file("/new.txt") == "new"

    def test_resumed_sandbox_is_independent(self) -> None:
        with LocalSandbox() as s1:
            snapshot = s1.export_snapshot()
            with LocalSandbox(snapshot=snapshot) as s2:
                s2.write_file("/only-in-2", "x")
                assert not s1.exists("/only-in-2")

    def test_cannot_provide_both(self) -> None:
        with pytest.raises(ValueError, match="Cannot provide both"):
            LocalSandbox(files={"/test.txt": "content"}, snapshot=b"dummy")

    @pytest.mark.parametrize("bad", [b"dummy", b"", b"SQLite format 3\x00" + b"\x00" * 100])
    def test_invalid_snapshot_bytes(self, bad: bytes) -> None:
        with pytest.raises(ValueError, match="invalid snapshot"):
            LocalSandbox(snapshot=bad)

    def test_snapshot_of_a_non_agentfs_database(self, tmp_path: os.PathLike[str]) -> None:
        db = os.path.join(tmp_path, "plain.db")
        con = sqlite3.connect(db)
        con.execute("create table t(x)")
        con.commit()
        con.close()
        with open(db, "rb") as f:
            data = f.read()
        with pytest.raises(ValueError, match="invalid snapshot"):
            LocalSandbox(snapshot=data)

    def test_snapshot_type(self) -> None:
        with pytest.raises(TypeError, match="snapshot must be bytes"):
            LocalSandbox(snapshot="text")  # type: ignore[arg-type]

    def test_export_after_destroy(self) -> None:
        s = LocalSandbox()
        s.destroy()
        with pytest.raises(RuntimeError, match="destroyed"):
            s.export_snapshot()


class TestPersistentPath:
    def test_reopen(self, tmp_path: os.PathLike[str]) -> None:
        db = os.path.join(tmp_path, "agent.db")
        with LocalSandbox(path=db) as s:
            s.write_file("/data/notes.txt", "remember me")
            s.kv.set("session", "alpha")
            assert s.path == db
        assert os.path.exists(db)  # destroy() closes a path= sandbox, keeps the file
        with LocalSandbox(path=db) as s:
            assert s.read_file("/data/notes.txt") == "remember me"
            assert s.kv.get("session") == "alpha"

    def test_pathlib_path(self, tmp_path: os.PathLike[str]) -> None:
        from pathlib import Path

        db = Path(tmp_path) / "p.db"
        with LocalSandbox(path=db) as s:
            s.write_file("/x", "y")
        with LocalSandbox(path=str(db)) as s:
            assert s.read_file("/x") == "y"

    def test_snapshot_into_a_new_path(self, tmp_path: os.PathLike[str]) -> None:
        with LocalSandbox(files={"/a": "A"}) as s:
            snap = s.export_snapshot()
        db = os.path.join(tmp_path, "restored.db")
        with LocalSandbox(snapshot=snap, path=db) as s:
            assert s.read_file("/a") == "A"
        with LocalSandbox(path=db) as s:
            assert s.read_file("/a") == "A"
        with pytest.raises(ValueError, match="exists"):
            LocalSandbox(snapshot=snap, path=db)

    def test_not_a_database(self, tmp_path: os.PathLike[str]) -> None:
        bad = os.path.join(tmp_path, "bad.db")
        with open(bad, "wb") as f:
            f.write(b"this is not sqlite" * 100)
        with pytest.raises(ValueError):
            LocalSandbox(path=bad)

    def test_directory_path(self, tmp_path: os.PathLike[str]) -> None:
        with pytest.raises(CommandError, match="Is a directory"):
            LocalSandbox(path=tmp_path)

    def test_default_sandbox_is_in_memory(self) -> None:
        with LocalSandbox() as s:
            assert s.path == ""
            with s.fork() as child:
                assert child.path == ""

    def test_bad_path_type(self) -> None:
        with pytest.raises(TypeError):
            LocalSandbox(path=12)  # type: ignore[arg-type]


class TestFork:
    def test_fork_is_independent(self, sandbox: LocalSandbox) -> None:
        sandbox.write_file("/shared.txt", "before")
        sandbox.kv.set("k", "v")
        with sandbox.fork() as child:
            assert child.read_file("/shared.txt") == "before"
            assert child.kv.get("k") == "v"
            child.write_file("/shared.txt", "child")
            sandbox.write_file("/parent.txt", "p")
            assert sandbox.read_file("/shared.txt") == "before"
            assert not child.exists("/parent.txt")
            assert child.cwd == sandbox.cwd and child.preset == sandbox.preset

    def test_fork_to_path(self, sandbox: LocalSandbox, tmp_path: os.PathLike[str]) -> None:
        sandbox.write_file("/f", "x")
        db = os.path.join(tmp_path, "fork.db")
        child = sandbox.fork(db)
        child.destroy()
        with LocalSandbox(path=db) as again:
            assert again.read_file("/f") == "x"
        with pytest.raises(CommandError, match="exists"):
            sandbox.fork(db)

    def test_fork_into_missing_directory(self, sandbox: LocalSandbox) -> None:
        with pytest.raises(CommandError):
            sandbox.fork("/nonexistent-dir-for-sbx/x.db")

    def test_fork_keeps_limits(self) -> None:
        with LocalSandbox(preset=ExecutionPreset.STRICT, limits={"max_file_size": 10}) as s:
            with s.fork() as child:
                assert child.limits == s.limits
                with pytest.raises(CommandError):
                    child.write_file("/big", "x" * 11)


class TestTransactions:
    def test_commit(self, sandbox: LocalSandbox) -> None:
        with sandbox.transaction():
            for i in range(50):
                sandbox.write_file(f"/t/{i}", str(i))
            sandbox.kv.set("done", "yes")
        assert len(sandbox.list_files("/t")) == 50
        assert sandbox.kv.get("done") == "yes"

    def test_rollback_on_exception(self, sandbox: LocalSandbox) -> None:
        with pytest.raises(KeyError):
            with sandbox.transaction():
                sandbox.write_file("/t/a", "a")
                sandbox.kv.set("k", "v")
                raise KeyError("boom")
        assert not sandbox.exists("/t/a")
        assert sandbox.kv.get("k") is None


class TestLifecycle:
    def test_destroy_is_idempotent(self) -> None:
        s = LocalSandbox()
        s.destroy()
        s.destroy()
        assert s.destroyed

    def test_every_call_after_destroy_raises(self) -> None:
        s = LocalSandbox(files={"/a": "a"})
        s.destroy()
        calls = [
            lambda: s.read_file("/a"),
            lambda: s.read_file_bytes("/a"),
            lambda: s.write_file("/a", "b"),
            lambda: s.write_file_bytes("/a", b"b"),
            lambda: s.list_files("/"),
            lambda: s.exists("/a"),
            lambda: s.delete_file("/a"),
            lambda: s.history(),
            lambda: s.export_snapshot(),
            lambda: s.fork(),
            lambda: s.bash("echo hi"),
            lambda: s.execute_python("print(1)"),
            lambda: s.reset_shell(),
            lambda: s.path,
        ]
        for call in calls:
            with pytest.raises(RuntimeError, match="destroyed"):
                call()

    def test_context_manager_destroys_on_exception(self) -> None:
        ref = None
        with pytest.raises(ValueError):
            with LocalSandbox() as s:
                ref = s
                raise ValueError("x")
        assert ref is not None and ref.destroyed

    def test_close_alias(self) -> None:
        s = LocalSandbox()
        s.close()
        assert s.destroyed

    def test_presets_and_limits(self) -> None:
        for preset in ExecutionPreset:
            with LocalSandbox(preset=preset) as s:
                assert s.preset is preset
        with LocalSandbox(preset=ExecutionPreset.STRICT) as s:
            assert s.limits["loop_iterations"] == 100 and s.limits["command_count"] == 500
        with LocalSandbox(limits={"loop_iterations": 7}) as s:
            assert s.limits["loop_iterations"] == 7 and s.limits["command_count"] == 10**9
        with LocalSandbox(preset="permissive") as s:  # type: ignore[arg-type]
            assert s.preset is ExecutionPreset.PERMISSIVE

    @pytest.mark.parametrize(
        "kwargs, exc",
        [
            ({"preset": 3}, TypeError),
            ({"preset": "extreme"}, ValueError),
            ({"limits": {"loops": 1}}, ValueError),
            ({"limits": {"loop_iterations": "1"}}, TypeError),
            ({"limits": {"loop_iterations": -1}}, ValueError),
            ({"limits": {"loop_iterations": 0}}, ValueError),
            ({"limits": {"max_bytes": -1}}, ValueError),
            ({"limits": {"loop_iterations": True}}, TypeError),
            ({"limits": [("loop_iterations", 1)]}, TypeError),
            ({"cwd": 5}, TypeError),
        ],
    )
    def test_bad_constructor_arguments(self, kwargs: dict, exc: type) -> None:
        with pytest.raises(exc):
            LocalSandbox(**kwargs)

    def test_unknown_limit_lists_the_known_ones(self) -> None:
        with pytest.raises(ValueError, match="loop_iterations"):
            LocalSandbox(limits={"nope": 1})

    def test_repr(self) -> None:
        s = LocalSandbox()
        assert "in memory" in repr(s) and "NORMAL" in repr(s)
        s.destroy()
        assert "destroyed" in repr(s)

    def test_history_json_parameters(self, sandbox: LocalSandbox) -> None:
        sandbox._h.history_record("raw", json.dumps({"a": [1, 2]}), json.dumps({"exitCode": 3}))
        e = sandbox.history()[0]
        assert e.parameters == {"a": [1, 2]} and e.result == {"exitCode": 3}
