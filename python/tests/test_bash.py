"""bash(): results, the error classes chosen from the library's structured
errors, limits and presets, timeouts, streaming output, the persistent shell
session, history records, and cross-visibility with the file helpers."""

from __future__ import annotations

import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from conftest import run
from localsandbox import (
    BashResult,
    CommandError,
    ExecutionLimitError,
    ExecutionPreset,
    FileNotFoundError,
    LocalSandbox,
    LocalSandboxError,
    PermissionError,
    TimeoutError,
)

@pytest.fixture(params=["in-process", "process"])
def sandbox(request: pytest.FixtureRequest) -> Iterator[LocalSandbox]:
    """A fresh in-memory sandbox in each isolation mode: every test that takes
    this fixture runs against the in-process shell and the jailed helper
    process, and must give the same results."""
    s = LocalSandbox(isolation=request.param)
    yield s
    s.destroy()


#: Limits high enough that only a timeout or a cancel stops `while :; do :; done`.
UNLIMITED = {"loop_iterations": 10**12, "command_count": 10**12}


class TestResults:
    def test_echo_hello(self, sandbox: LocalSandbox) -> None:
        result = sandbox.bash('echo "hello"')
        assert result.stdout == "hello\n"
        assert result.exit_code == 0

    def test_result_fields(self, sandbox: LocalSandbox) -> None:
        result = sandbox.bash('echo "test"; echo "warn" >&2')
        assert isinstance(result, BashResult)
        assert isinstance(result.stdout, str) and isinstance(result.stderr, str)
        assert isinstance(result.exit_code, int)
        assert isinstance(result.duration_ms, float) and result.duration_ms > 0
        assert result.stderr == "warn\n"
        assert result.stdout_bytes == b"test\n" and result.stderr_bytes == b"warn\n"

    def test_binary_output(self, sandbox: LocalSandbox) -> None:
        sandbox.write_file_bytes("/data/bin", b"\x00\xff\xfe\x01")
        result = sandbox.bash("cat /data/bin")
        assert result.stdout_bytes == b"\x00\xff\xfe\x01"
        assert result.stdout == "\x00\ufffd\ufffd\x01"

    def test_empty_script(self, sandbox: LocalSandbox) -> None:
        assert sandbox.bash("").exit_code == 0

    def test_command_type(self, sandbox: LocalSandbox) -> None:
        with pytest.raises(TypeError, match="command must be str"):
            sandbox.bash(b"echo")  # type: ignore[arg-type]

    def test_nul_in_script(self, sandbox: LocalSandbox) -> None:
        with pytest.raises(ValueError, match="NUL"):
            sandbox.bash("echo a\x00b")


class TestErrors:
    def test_nonzero_exit_raises_command_error(self, sandbox: LocalSandbox) -> None:
        with pytest.raises(CommandError) as info:
            sandbox.bash("exit 1")
        assert info.value.exit_code == 1
        assert type(info.value) is CommandError

    def test_command_error_has_context(self, sandbox: LocalSandbox) -> None:
        with pytest.raises(CommandError) as info:
            sandbox.bash('echo "out"; echo "err" >&2; exit 42')
        err = info.value
        assert err.exit_code == 42
        assert err.stdout == "out\n" and err.stderr == "err\n"
        assert str(err) == "Command failed with exit code 42: err"

    def test_command_not_found(self, sandbox: LocalSandbox) -> None:
        with pytest.raises(CommandError) as info:
            sandbox.bash("frobnicate --now")
        assert info.value.exit_code == 127
        assert "command not found" in info.value.stderr

    def test_cat_missing_file(self, sandbox: LocalSandbox) -> None:
        with pytest.raises(FileNotFoundError) as info:
            sandbox.bash("cat /some/missing/path.txt")
        err = info.value
        assert err.path == "/some/missing/path.txt"
        assert err.exit_code == 1
        assert "No such file or directory" in err.stderr
        assert isinstance(err, CommandError)

    def test_ls_missing_dir(self, sandbox: LocalSandbox) -> None:
        with pytest.raises(FileNotFoundError) as info:
            sandbox.bash("ls /does/not/exist")
        assert info.value.path == "/does/not/exist"

    def test_class_comes_from_the_structured_error_not_stderr(self, sandbox: LocalSandbox) -> None:
        # stderr that merely looks like a file error is a plain CommandError
        with pytest.raises(CommandError) as info:
            sandbox.bash('echo "cat: /x: No such file or directory" >&2; exit 1')
        assert type(info.value) is CommandError

    def test_failure_after_a_handled_file_error(self, sandbox: LocalSandbox) -> None:
        # the missing file was handled (|| true); the later failure is plain
        with pytest.raises(CommandError) as info:
            sandbox.bash("cat /nope || true; false")
        assert info.value.exit_code == 1

    def test_permission_denied(self, sandbox: LocalSandbox) -> None:
        sandbox.write_file("/data/secret", "s")
        sandbox.bash("chmod 000 /data/secret")
        with pytest.raises(PermissionError) as info:
            sandbox.bash("cat /data/secret")
        assert info.value.path == "/data/secret"
        assert "Permission denied" in info.value.stderr

    def test_permission_error_from_the_structured_errno(self, sandbox: LocalSandbox) -> None:
        import errno

        with pytest.raises(PermissionError) as info:
            sandbox._raise_bash("", "cat: /s: Permission denied\n", 1, None, None, 0, errno.EACCES, "/s")
        assert info.value.path == "/s" and info.value.exit_code == 1
        with pytest.raises(FileNotFoundError):
            sandbox._raise_bash("", "", 2, None, None, 0, errno.ENOTDIR, "/f/x")
        # an errno without a path is not enough to pick a file error class
        with pytest.raises(CommandError) as plain:
            sandbox._raise_bash("", "", 1, None, None, 0, errno.ENOENT, None)
        assert type(plain.value) is CommandError

    def test_failing_commands_are_recorded(self, sandbox: LocalSandbox) -> None:
        with pytest.raises(CommandError):
            sandbox.bash("exit 3")
        entry = sandbox.history()[0]
        assert entry.name == "bash" and entry.result == {"exitCode": 3}


class TestLimits:
    def test_strict_preset_limits_loops(self) -> None:
        with LocalSandbox(preset=ExecutionPreset.STRICT) as sandbox:
            with pytest.raises(ExecutionLimitError) as info:
                sandbox.bash("for i in {1..200}; do echo $i; done")
            assert info.value.limit_type == "loop_iterations"
            assert info.value.limit_value == 100
            assert isinstance(info.value, LocalSandboxError)

    def test_strict_preset_limits_command_count(self) -> None:
        with LocalSandbox(preset=ExecutionPreset.STRICT) as sandbox:
            with pytest.raises(ExecutionLimitError) as info:
                sandbox.bash("; ".join(f"echo {i}" for i in range(600)))
            assert info.value.limit_type == "command_count"
            assert info.value.limit_value == 500

    def test_normal_preset_allows_more_loops(self) -> None:
        with LocalSandbox(preset=ExecutionPreset.NORMAL) as sandbox:
            result = sandbox.bash("for i in {1..200}; do echo $i; done")
            assert result.stdout.splitlines()[-1] == "200"

    def test_normal_preset_reads_a_large_file(self) -> None:
        with LocalSandbox(preset=ExecutionPreset.NORMAL) as sandbox:
            sandbox.bash("seq 200000 > /tmp/l")
            result = sandbox.bash("n=0; while read -r x; do n=$((n + 1)); done < /tmp/l; echo $n")
            assert result.stdout == "200000\n"

    def test_limit_error_keeps_the_output(self) -> None:
        with LocalSandbox(preset=ExecutionPreset.STRICT) as sandbox:
            with pytest.raises(ExecutionLimitError) as info:
                sandbox.bash("echo first; echo oops >&2; for i in {1..200}; do echo $i; done")
            assert info.value.stdout.startswith("first\n1\n2\n")
            assert info.value.stdout.endswith("\n100\n")
            assert info.value.stderr.startswith("oops\n")
            assert "loop_iterations" in info.value.stderr

    def test_output_limit_error_keeps_the_output(self, sandbox: LocalSandbox) -> None:
        with pytest.raises(ExecutionLimitError) as info:
            sandbox.bash("echo first; echo note >&2; while :; do echo xxxxxxxxx; done",
                         limits={"output_bytes": 1000})
        assert info.value.limit_type == "output_bytes"
        assert info.value.stdout.startswith("first\nxxxxxxxxx\n")
        assert info.value.stderr.startswith("note\n")

    def test_timeout_error_keeps_the_output(self, sandbox: LocalSandbox) -> None:
        with pytest.raises(TimeoutError) as info:
            sandbox.bash("echo started; while :; do :; done", limits={"timeout_ms": 300})
        assert info.value.stdout == "started\n"
        assert "timeout" in info.value.stderr

    def test_every_preset_runs(self) -> None:
        for preset in ExecutionPreset:
            with LocalSandbox(preset=preset) as sandbox:
                assert sandbox.bash('echo "test"').stdout == "test\n"

    def test_limits_override_in_constructor(self) -> None:
        with LocalSandbox(limits={"loop_iterations": 5}) as sandbox:
            with pytest.raises(ExecutionLimitError) as info:
                sandbox.bash("for i in 1 2 3 4 5 6; do :; done")
            assert info.value.limit_value == 5
            assert sandbox.limits["command_count"] == 10**9

    def test_per_call_limits_do_not_stick(self, sandbox: LocalSandbox) -> None:
        with pytest.raises(ExecutionLimitError):
            sandbox.bash("for i in 1 2 3; do :; done", limits={"loop_iterations": 2})
        sandbox.bash("for i in 1 2 3; do :; done")

    def test_function_depth(self) -> None:
        with LocalSandbox(limits={"function_depth": 10}) as sandbox:
            with pytest.raises(ExecutionLimitError) as info:
                sandbox.bash("f() { f; }; f")
            assert info.value.limit_type == "function_depth"
            assert info.value.limit_value == 10

    def test_output_bytes(self, sandbox: LocalSandbox) -> None:
        with pytest.raises(ExecutionLimitError) as info:
            sandbox.bash("while :; do echo xxxxxxxxxxxxxxxx; done", limits={"output_bytes": 1000, "loop_iterations": 10**9})
        assert info.value.limit_type == "output_bytes"

    def test_limit_exit_code_in_history(self) -> None:
        with LocalSandbox(preset=ExecutionPreset.STRICT) as sandbox:
            with pytest.raises(ExecutionLimitError):
                sandbox.bash("for i in {1..200}; do :; done")
            assert sandbox.history()[0].result == {"exitCode": 126}

    def test_history_row_is_the_one_every_front_writes(self, tmp_path) -> None:  # type: ignore[no-untyped-def]
        # the library writes it (sbx_bash_opts.record): the cwd is the
        # shell's at the call's start, as `sbx DB -c` and `sbx mcp` record it
        db = str(tmp_path / "h.db")
        with LocalSandbox(path=db) as sandbox:
            sandbox.bash("cd /tmp")
            with pytest.raises(CommandError):
                sandbox.bash("pwd; exit 5")
            rows = sandbox.history()
        assert [r.name for r in rows[:2]] == ["bash", "bash"]
        assert rows[0].parameters == {"command": "pwd; exit 5", "cwd": "/tmp"}
        assert rows[0].result == {"exitCode": 5}
        assert rows[1].parameters == {"command": "cd /tmp", "cwd": "/data"}
        assert rows[1].result == {"exitCode": 0}
        # the CLI reads the same row from the same file
        sbx = Path(__file__).resolve().parents[2] / "build" / "sbx"
        out = subprocess.run([str(sbx), db, "history", "-n", "1"], capture_output=True, text=True, check=True).stdout
        assert '"parameters":{"command":"pwd; exit 5","cwd":"/tmp"}' in out

    def test_shell_limits_only_per_call(self, sandbox: LocalSandbox) -> None:
        with pytest.raises(ValueError, match="not a shell limit"):
            sandbox.bash("true", limits={"max_bytes": 10})
        with pytest.raises(ValueError, match="unknown limit"):
            sandbox.bash("true", limits={"loops": 10})


class TestTimeoutAndCancel:
    def test_timeout(self, sandbox: LocalSandbox) -> None:
        started = time.monotonic()
        with pytest.raises(TimeoutError) as info:
            sandbox.bash("while :; do :; done", timeout=0.2, limits=UNLIMITED)
        assert info.value.timeout_ms == 200
        assert time.monotonic() - started < 5
        assert sandbox.bash("echo alive").stdout == "alive\n"

    @pytest.mark.parametrize("bad", [0, -1, "1", True])
    def test_bad_timeout(self, sandbox: LocalSandbox, bad: object) -> None:
        with pytest.raises((TypeError, ValueError)):
            sandbox.bash("true", timeout=bad)  # type: ignore[arg-type]

    def test_destroy_from_another_thread_stops_a_running_script(self) -> None:
        sandbox = LocalSandbox(limits={**UNLIMITED, "timeout_ms": 60_000})
        outcome: list[BaseException] = []

        def runner() -> None:
            try:
                sandbox.bash("while :; do :; done")
            except BaseException as e:  # noqa: BLE001
                outcome.append(e)

        t = threading.Thread(target=runner)
        t.start()
        time.sleep(0.2)
        started = time.monotonic()
        sandbox.destroy()
        t.join(10)
        assert not t.is_alive()
        assert time.monotonic() - started < 5
        assert isinstance(outcome[0], RuntimeError) and "destroyed" in str(outcome[0])

    def test_cancelled_async_task_stops_the_script(self, sandbox: LocalSandbox) -> None:
        import asyncio

        async def main() -> None:
            task = asyncio.create_task(
                sandbox.abash("while :; do :; done", limits={**UNLIMITED, "timeout_ms": 60_000})
            )
            await asyncio.sleep(0.2)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task

        started = time.monotonic()
        run(main())
        # the worker thread was stopped, so the sandbox is usable at once
        assert sandbox.bash("echo next").stdout == "next\n"
        assert time.monotonic() - started < 10


class TestStreaming:
    def test_on_output_receives_chunks_and_result_keeps_all(self, sandbox: LocalSandbox) -> None:
        chunks: list[tuple[str, bytes]] = []
        result = sandbox.bash("echo one; echo two >&2; echo three", on_output=lambda s, d: chunks.append((s, d)))
        assert b"".join(d for s, d in chunks if s == "stdout") == b"one\nthree\n"
        assert b"".join(d for s, d in chunks if s == "stderr") == b"two\n"
        assert result.stdout == "one\nthree\n" and result.stderr == "two\n"

    def test_on_output_sees_output_before_the_call_ends(self, sandbox: LocalSandbox) -> None:
        seen_at: list[float] = []
        sandbox.bash(
            "echo first; for i in {1..3000}; do :; done; echo last",
            on_output=lambda s, d: seen_at.append(time.perf_counter()),
            limits={"loop_iterations": 10**6},
        )
        assert len(seen_at) >= 2 and seen_at[0] < seen_at[-1]

    def test_exception_in_callback_stops_the_script_and_propagates(self, sandbox: LocalSandbox) -> None:
        def boom(stream: str, data: bytes) -> None:
            raise KeyError("stop")

        with pytest.raises(KeyError, match="stop"):
            sandbox.bash("echo a; while :; do echo b; done", on_output=boom, limits=UNLIMITED)
        assert sandbox.bash("echo ok").stdout == "ok\n"

    def test_callback_cannot_reenter_its_sandbox(self, sandbox: LocalSandbox) -> None:
        def reenter(stream: str, data: bytes) -> None:
            sandbox.read_file("/x")

        with pytest.raises(RuntimeError, match="already in a call"):
            sandbox.bash("echo a", on_output=reenter)

    def test_destroy_from_a_callback_is_refused(self, sandbox: LocalSandbox) -> None:
        with pytest.raises(RuntimeError, match="cannot close"):
            sandbox.bash("echo a", on_output=lambda s, d: sandbox.destroy())
        assert not sandbox.destroyed
        assert sandbox.bash("echo still open").stdout == "still open\n"

    def test_callback_may_use_another_sandbox(self, sandbox: LocalSandbox) -> None:
        with LocalSandbox() as log:
            sandbox.bash("echo hello", on_output=lambda s, d: log.write_file_bytes("/log", d))
            assert log.read_file("/log") == "hello\n"

    def test_bad_callback(self, sandbox: LocalSandbox) -> None:
        with pytest.raises(TypeError, match="on_output must be callable"):
            sandbox.bash("true", on_output=5)  # type: ignore[arg-type]


class TestSession:
    def test_state_persists(self, sandbox: LocalSandbox) -> None:
        sandbox.bash("x=42; f() { echo \"f:$1\"; }; alias hi='echo hello'; cd /tmp")
        assert sandbox.bash("echo $x; f a; pwd").stdout == "42\nf:a\n/tmp\n"

    def test_reset_shell(self, sandbox: LocalSandbox) -> None:
        sandbox.bash("x=42; cd /tmp")
        sandbox.reset_shell()
        assert sandbox.bash('echo "[$x]"; pwd').stdout == "[]\n/data\n"

    def test_custom_cwd(self) -> None:
        with LocalSandbox(cwd="/work/project", files={"a.txt": "A"}) as sandbox:
            assert sandbox.bash("pwd; cat a.txt").stdout == "/work/project\nA"
            sandbox.bash("cd /")
            sandbox.reset_shell()
            assert sandbox.bash("pwd").stdout == "/work/project\n"
            # the hidden cd is not in the history
            assert [e.name for e in sandbox.history()] == ["bash", "bash", "bash", "seed"]

    def test_cwd_with_spaces_and_quotes(self) -> None:
        with LocalSandbox(cwd="/a b/it's") as sandbox:
            assert sandbox.bash("pwd").stdout == "/a b/it's\n"


class TestHistory:
    def test_records_bash_commands(self, sandbox: LocalSandbox) -> None:
        sandbox.bash('echo "hello"')
        sandbox.bash('echo "world"')
        history = sandbox.history()
        assert len(history) == 2
        assert all(e.name == "bash" for e in history)
        assert history[0].parameters == {"command": 'echo "world"', "cwd": "/data"}
        assert history[0].result == {"exitCode": 0}
        assert history[0].started_at > 0 and history[0].completed_at >= history[0].started_at

    def test_seed_then_bash(self) -> None:
        with LocalSandbox(files={"/home/user/data.txt": "seeded content"}) as sandbox:
            assert sandbox.bash("cat /home/user/data.txt").stdout == "seeded content"
            history = sandbox.history()
            assert [e.name for e in history] == ["bash", "seed"]
            assert history[0].parameters.get("command") == "cat /home/user/data.txt"  # type: ignore[union-attr]
            assert history[1].parameters == {"paths": ["/home/user/data.txt"], "count": 1}

    def test_limit(self, sandbox: LocalSandbox) -> None:
        for i in range(5):
            sandbox.bash(f'echo "{i}"')
        assert len(sandbox.history(limit=100)) == 5
        assert len(sandbox.history(limit=2)) == 2

    def test_persists_in_snapshot(self) -> None:
        with LocalSandbox() as s1:
            s1.bash('echo "before snapshot"')
            snapshot = s1.export_snapshot()
        with LocalSandbox(snapshot=snapshot) as s2:
            history = s2.history()
            assert len(history) == 1
            assert history[0].parameters == {"command": 'echo "before snapshot"', "cwd": "/data"}


class TestFilesystem:
    def test_file_persists_across_calls(self, sandbox: LocalSandbox) -> None:
        sandbox.bash('mkdir -p /home/user && echo "persistent content" > /home/user/test.txt')
        assert sandbox.bash("cat /home/user/test.txt").stdout == "persistent content\n"

    def test_directories_persist(self, sandbox: LocalSandbox) -> None:
        sandbox.bash("mkdir -p /home/user/project/src")
        sandbox.bash('echo "code" > /home/user/project/src/main.py')
        assert "main.py" in sandbox.bash("ls /home/user/project/src").stdout

    def test_appends(self, sandbox: LocalSandbox) -> None:
        for line in ["line1", "line2", "line3"]:
            sandbox.bash(f'echo "{line}" >> /data/log.txt')
        assert sandbox.bash("cat /data/log.txt").stdout.splitlines() == ["line1", "line2", "line3"]

    def test_helpers_and_bash_see_the_same_files(self, sandbox: LocalSandbox) -> None:
        sandbox.write_file("/home/user/cross.txt", "cross-method content")
        assert sandbox.bash("cat /home/user/cross.txt").stdout == "cross-method content"
        sandbox.bash('echo "bash written" > /home/user/bash.txt')
        assert sandbox.read_file("/home/user/bash.txt") == "bash written\n"

    def test_seeded_binary_sizes(self) -> None:
        files = {"/b/nine.bin": bytes(range(9)), "/b/empty.bin": b""}
        with LocalSandbox(files=files) as sandbox:
            assert sandbox.bash("wc -c < /b/nine.bin").stdout.strip() == "9"
            assert sandbox.bash("wc -c < /b/empty.bin").stdout.strip() == "0"

    def test_kv_survives_bash(self, sandbox: LocalSandbox) -> None:
        sandbox.kv.set("persistent", "data")
        sandbox.bash("echo test")
        assert sandbox.kv.get("persistent") == "data"

    def test_snapshot_after_bash(self) -> None:
        with LocalSandbox() as s1:
            s1.bash('mkdir -p /project/src && echo "code" > /project/src/main.py')
            snapshot = s1.export_snapshot()
        with LocalSandbox(snapshot=snapshot) as s2:
            assert s2.read_file("/project/src/main.py") == "code\n"

    def test_fork_gets_a_fresh_shell(self, sandbox: LocalSandbox) -> None:
        sandbox.bash("x=1; echo data > /data/f")
        with sandbox.fork() as child:
            assert child.bash('echo "[$x]"; cat /data/f').stdout == "[]\ndata\n"


class TestAsync:
    def test_abash(self, sandbox: LocalSandbox) -> None:
        result = run(sandbox.abash('echo "async hello"'))
        assert result.stdout == "async hello\n"

    def test_abash_error(self, sandbox: LocalSandbox) -> None:
        with pytest.raises(CommandError):
            run(sandbox.abash("exit 1"))

    def test_gather_on_different_sandboxes(self) -> None:
        import asyncio

        boxes = [LocalSandbox() for _ in range(3)]
        try:

            async def main() -> list[BashResult]:
                return await asyncio.gather(*(b.abash(f'echo "{n}"') for b, n in zip(boxes, ["one", "two", "three"])))

            assert [r.stdout for r in run(main())] == ["one\n", "two\n", "three\n"]
        finally:
            for b in boxes:
                b.destroy()

    def test_after_adestroy(self) -> None:
        s = LocalSandbox()
        run(s.adestroy())
        with pytest.raises(RuntimeError, match="destroyed"):
            run(s.abash("echo"))

    def test_ahistory_and_areset(self, sandbox: LocalSandbox) -> None:
        run(sandbox.abash("x=5"))
        run(sandbox.areset_shell())
        assert run(sandbox.abash('echo "[$x]"')).stdout == "[]\n"
        assert len(run(sandbox.ahistory())) == 2


class TestParallel:
    LOOP = "for ((i = 0; i < 60000; i++)); do :; done"

    def test_scripts_in_several_sandboxes_overlap_and_python_keeps_running(self) -> None:
        import threading

        boxes = [LocalSandbox(limits=UNLIMITED) for _ in range(3)]
        try:
            spans: list[tuple[float, float]] = []
            barrier = threading.Barrier(len(boxes))

            def work(box: LocalSandbox) -> None:
                barrier.wait()
                start = time.perf_counter()
                box.bash(self.LOOP)
                spans.append((start, time.perf_counter()))

            threads = [threading.Thread(target=work, args=(b,)) for b in boxes]
            for t in threads:
                t.start()
            ticks = 0
            while any(t.is_alive() for t in threads):
                ticks += 1
            for t in threads:
                t.join()
            assert max(s for s, _ in spans) < min(e for _, e in spans), spans
            assert ticks > 1000  # the main thread ran Python all along
        finally:
            for b in boxes:
                b.destroy()


class TestProcessIsolation:
    """isolation="process": the shell runs in a jailed helper process. The
    helper's test hooks (SBX_SHELL_TEST_HOOKS=1, test-only) give a loop that
    never polls ("#sbx-test:spin") and a crash ("#sbx-test:crash")."""

    @pytest.fixture
    def iso(self, monkeypatch: pytest.MonkeyPatch) -> Iterator[LocalSandbox]:
        monkeypatch.setenv("SBX_SHELL_TEST_HOOKS", "1")
        s = LocalSandbox(isolation="process", cwd="/work")
        yield s
        s.destroy()

    def test_unknown_isolation(self) -> None:
        with pytest.raises(ValueError, match="isolation must be"):
            LocalSandbox(isolation="thread")

    def test_isolation_property_and_fork(self, iso: LocalSandbox) -> None:
        assert iso.isolation == "process"
        assert LocalSandbox().isolation == "in-process"
        iso.bash("echo forked > f")
        other = iso.fork()
        try:
            assert other.isolation == "process"
            assert other.bash("cat f").stdout == "forked\n"
        finally:
            other.destroy()

    def test_spin_that_never_polls_is_killed(self, iso: LocalSandbox) -> None:
        iso.bash("x=1")
        started = time.monotonic()
        with pytest.raises(TimeoutError) as info:
            iso.bash("#sbx-test:spin", timeout=0.3)
        assert info.value.timeout_ms == 300
        assert time.monotonic() - started < 5
        # a fresh session, back in the sandbox's cwd; files are kept
        r = iso.bash('pwd; echo "x=${x-unset}"')
        assert r.stdout == "/work\nx=unset\n"

    def test_cancel_from_another_thread(self, iso: LocalSandbox) -> None:
        timer = threading.Timer(0.2, iso._h.cancel)
        timer.start()
        started = time.monotonic()
        with pytest.raises(LocalSandboxError, match="cancelled"):
            iso.bash("#sbx-test:spin", timeout=30)
        timer.join()
        assert time.monotonic() - started < 5
        assert iso.bash("echo next").stdout == "next\n"

    def test_crash_raises_and_next_call_works(self, iso: LocalSandbox) -> None:
        from localsandbox import SubprocessCrashed

        iso.write_file("/work/kept.txt", "kept")
        with pytest.raises(SubprocessCrashed) as info:
            iso.bash("#sbx-test:crash")
        assert info.value.signal == 11
        assert "crashed" in str(info.value)
        assert iso.bash("cat kept.txt; pwd").stdout == "kept/work\n"

    def test_files_cross_both_ways(self, iso: LocalSandbox) -> None:
        iso.bash("echo from-shell > a.txt")
        assert iso.read_file("/work/a.txt") == "from-shell\n"
        iso.write_file("/work/b.txt", "from-api")
        assert iso.bash("cat b.txt").stdout == "from-api"
        iso.bash("rm a.txt")
        assert not iso.exists("/work/a.txt")

    def test_same_results_as_in_process(self) -> None:
        scripts = [
            "echo hi; x=2; echo $((x * 21))",
            "cd /tmp; f() { echo \"f:$1\"; }",
            "pwd; f arg; echo $x",
            "printf 'b\\na\\n' | sort | tr a-z A-Z",
            "cat /nope",
            "echo err >&2; exit 4",
            "seq 3 | awk '{s+=$1} END {print s}'",
        ]
        outcomes = []
        for mode in ("in-process", "process"):
            s = LocalSandbox(isolation=mode)
            got = []
            try:
                for script in scripts:
                    try:
                        r = s.bash(script)
                        got.append((r.stdout, r.stderr, r.exit_code))
                    except CommandError as e:
                        got.append((type(e).__name__, e.stdout, e.stderr, e.exit_code))
            finally:
                s.destroy()
            outcomes.append(got)
        assert outcomes[0] == outcomes[1]
