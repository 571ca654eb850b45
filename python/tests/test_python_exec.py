"""execute_python(): results, errors in PythonResult, the shared filesystem,
contexts, set_var/protect, return values, timeouts and limits, host tools
(sync, async, validation, timeouts, search, nested calls), history. The
jail must work on the host (see localsandbox.probe())."""

import asyncio
import json
import time
from typing import Annotated, Any

import pytest

from conftest import echo_toolset, run
from localsandbox import (
    Field,
    LocalSandbox,
    PythonResult,
    PythonToolset,
    ToolDefinition,
    probe,
)
from localsandbox.core import JsonValue



def search_toolset() -> PythonToolset:
    ok = {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}

    def obj(*names: str) -> dict[str, Any]:
        return {
            "type": "object",
            "properties": {n: {"type": "string"} for n in names},
            "required": list(names),
            "additionalProperties": False,
        }

    definitions = [
        ToolDefinition("slack_post_message", "Post a message to Slack channels and threads.", obj("channel", "text"), ok),
        ToolDefinition("github_search_issues", "Search GitHub issues in a repository.", obj("repo", "query"), ok),
        ToolDefinition("web_lookup", "Search the web for public information.", obj("query"), ok),
    ]
    return PythonToolset(definitions=definitions, handlers={d.name: (lambda p: {"ok": True}) for d in definitions})


def test_probe_says_python_works() -> None:
    ok, items = probe()
    assert ok is True
    assert items and all(i.name for i in items)


class TestExecution:
    def test_print(self, sandbox: LocalSandbox) -> None:
        result = sandbox.execute_python('print("hello from python")')
        assert isinstance(result, PythonResult)
        assert result.stdout == "hello from python\n"
        assert result.exit_code == 0 and result.error is None and result.error_kind is None

    def test_return_value(self, sandbox: LocalSandbox) -> None:
        assert sandbox.execute_python("x = 20\nx * 2 + 2").return_value == "42"
        assert sandbox.execute_python("'text'").return_value == "'text'"
        assert sandbox.execute_python("y = 1").return_value is None

    def test_stderr(self, sandbox: LocalSandbox) -> None:
        result = sandbox.execute_python("import sys\nprint('to stderr', file=sys.stderr)")
        assert result.stderr == "to stderr\n"

    def test_exception_comes_back_in_the_result(self, sandbox: LocalSandbox) -> None:
        result = sandbox.execute_python("raise ValueError('test error')")
        assert result.exit_code == 1
        assert result.error == "ValueError: test error"
        assert result.error_kind == "exception"
        assert "Traceback" in result.stderr and "ValueError: test error" in result.stderr

    def test_syntax_error(self, sandbox: LocalSandbox) -> None:
        result = sandbox.execute_python("def (:")
        assert result.error_kind == "syntax" and result.exit_code != 0
        assert result.error is not None and "SyntaxError" in result.error

    def test_system_exit(self, sandbox: LocalSandbox) -> None:
        result = sandbox.execute_python("import sys\nsys.exit(3)")
        assert result.exit_code == 3 and result.error_kind == "exit"

    def test_binary_stdout(self, sandbox: LocalSandbox) -> None:
        result = sandbox.execute_python("import sys\nsys.stdout.buffer.write(b'\\xff\\x00ok')")
        assert result.stdout_bytes == b"\xff\x00ok"

    def test_state_persists_between_calls(self, sandbox: LocalSandbox) -> None:
        sandbox.execute_python("MY_GLOBAL = 42")
        assert sandbox.execute_python("print(MY_GLOBAL)").stdout == "42\n"

    def test_output_does_not_leak_between_calls(self, sandbox: LocalSandbox) -> None:
        assert "first" in sandbox.execute_python('print("first")').stdout
        second = sandbox.execute_python('print("second")')
        assert second.stdout == "second\n"

    def test_on_output(self, sandbox: LocalSandbox) -> None:
        got: list[tuple[str, bytes]] = []
        sandbox.execute_python("import sys\nprint('a')\nprint('b', file=sys.stderr)", on_output=lambda s, d: got.append((s, d)))
        # streamed as the code prints: chunks may split, each stream's bytes are whole
        assert b"".join(d for s, d in got if s == "stdout") == b"a\n"
        assert b"".join(d for s, d in got if s == "stderr") == b"b\n"
        assert {s for s, _ in got} == {"stdout", "stderr"}

    def test_records_history(self, sandbox: LocalSandbox) -> None:
        sandbox.execute_python('print("recorded")')
        history = sandbox.history()
        assert [e.name for e in history] == ["python"]
        assert history[0].parameters["code"] == 'print("recorded")'  # type: ignore[index]

    def test_bad_arguments(self, sandbox: LocalSandbox) -> None:
        with pytest.raises(TypeError):
            sandbox.execute_python(b"print(1)")  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            sandbox.execute_python("1", preload_packages="numpy")  # type: ignore[arg-type]
        with pytest.raises(ValueError):
            sandbox.execute_python("1", preload_packages=["not a module"])
        with pytest.raises(ValueError):
            sandbox.execute_python("1", context="")
        with pytest.raises(ValueError):
            sandbox.execute_python("print(1)\x00")
        with pytest.raises(TypeError):
            sandbox.execute_python("1", on_output=3)  # type: ignore[arg-type]

    def test_async(self, sandbox: LocalSandbox) -> None:
        result = run(sandbox.aexecute_python('print("async python")'))
        assert result.stdout == "async python\n"

    def test_concurrent_requests_on_one_sandbox(self) -> None:
        with LocalSandbox(files={"/data/data.txt": "hello"}) as sandbox:

            async def main() -> tuple[str, PythonResult]:
                read = asyncio.create_task(sandbox.aread_file("/data/data.txt"))
                exe = asyncio.create_task(sandbox.aexecute_python("import time\ntime.sleep(0.1)\nprint('done')"))
                return await read, await exe

            content, result = run(main())
            assert content == "hello"
            assert result.stdout == "done\n", result.stderr

    def test_preload(self, sandbox: LocalSandbox) -> None:
        result = sandbox.execute_python(
            "import sys\nprint('numpy' in sys.modules)", preload_packages=["numpy"]
        )
        assert result.stdout == "True\n", result.stderr
        missing = sandbox.execute_python("1", preload_packages=["no_such_module_sbx"])
        assert missing.error_kind == "preload"


class TestFilesystem:
    def test_reads_sandbox_file(self) -> None:
        with LocalSandbox(files={"/data/data.txt": "sandbox content"}) as sandbox:
            result = sandbox.execute_python("with open('/data/data.txt') as f:\n    print(f.read().strip())")
            assert result.stdout == "sandbox content\n"

    def test_writes_sandbox_file(self, sandbox: LocalSandbox) -> None:
        result = sandbox.execute_python("with open('/data/output.txt', 'w') as f:\n    f.write('written by python')")
        assert result.exit_code == 0
        assert sandbox.read_file("/data/output.txt") == "written by python"

    @pytest.mark.parametrize("path", ["file.txt", "./file.txt", "/data/file.txt"])
    def test_modifies_existing_file(self, path: str) -> None:
        with LocalSandbox(files={path: "original"}) as sandbox:
            result = sandbox.execute_python(f"with open({path!r}, 'a') as f:\n    f.write(' + modified')")
            assert result.exit_code == 0, result.stderr
            assert sandbox.read_file("/data/file.txt") == "original + modified"

    def test_creates_directories(self, sandbox: LocalSandbox) -> None:
        sandbox.execute_python("import os\nos.makedirs('/data/newdir', exist_ok=True)\nopen('/data/newdir/file.txt','w').write('nested')")
        assert sandbox.read_file("/data/newdir/file.txt") == "nested"

    def test_delete_persists(self) -> None:
        with LocalSandbox(files={"/data/delete-me.txt": "bye"}) as sandbox:
            sandbox.execute_python("import os\nos.remove('/data/delete-me.txt')")
            assert not sandbox.exists("/data/delete-me.txt")

    def test_host_changes_are_visible_between_calls(self, sandbox: LocalSandbox) -> None:
        sandbox.write_file("/data/gone.txt", "bye")
        sandbox.execute_python('print("warmup")')
        sandbox.write_file("/data/between.txt", "injected")
        sandbox.delete_file("/data/gone.txt")
        result = sandbox.execute_python(
            "from pathlib import Path\nprint(Path('/data/between.txt').read_text(), Path('/data/gone.txt').exists())"
        )
        assert result.stdout == "injected False\n"

    def test_cwd(self) -> None:
        with LocalSandbox(files={"/data/sub/file.txt": "x"}) as sandbox:
            first = sandbox.execute_python("import os\nos.chdir('/data/sub')\nprint(os.getcwd())")
            assert first.stdout == "/data/sub\n"
            # each call starts in the requested cwd again
            assert sandbox.execute_python("import os\nprint(os.getcwd())").stdout == "/data\n"
            assert sandbox.execute_python("import os\nprint(os.getcwd())", cwd="/data/sub").stdout == "/data/sub\n"
            assert sandbox.execute_python("import os\nprint(os.getcwd())", cwd="sub").stdout == "/data/sub\n"

    def test_missing_cwd(self, sandbox: LocalSandbox) -> None:
        result = sandbox.execute_python("1", cwd="/nowhere")
        assert result.error_kind == "cwd" and result.exit_code != 0

    def test_host_files_are_not_visible(self, sandbox: LocalSandbox, tmp_path: Any) -> None:
        secret = tmp_path / "secret.txt"
        secret.write_text("host secret")
        result = sandbox.execute_python(f"import os\nprint(os.path.exists({str(secret)!r}))")
        assert result.stdout == "False\n"

    def test_no_network(self, sandbox: LocalSandbox) -> None:
        result = sandbox.execute_python(
            "import socket\ntry:\n    socket.create_connection(('1.1.1.1', 80), timeout=2)\n    print('ALLOWED')\n"
            "except OSError as e:\n    print('BLOCKED')"
        )
        assert result.stdout == "BLOCKED\n"


class TestLimits:
    def test_timeout_is_a_result(self, sandbox: LocalSandbox) -> None:
        started = time.monotonic()
        result = sandbox.execute_python("while True:\n    pass", timeout=0.5)
        assert result.error_kind == "timeout" and result.exit_code != 0
        assert time.monotonic() - started < 10
        assert sandbox.execute_python("print('alive')").stdout == "alive\n"

    def test_context_kept_after_an_interrupted_timeout(self, sandbox: LocalSandbox) -> None:
        sandbox.execute_python("kept = 7")
        sandbox.execute_python("import time\ntime.sleep(30)", timeout=0.3)
        assert sandbox.execute_python("print(kept)").stdout == "7\n"

    def test_output_limit(self, sandbox: LocalSandbox) -> None:
        result = sandbox.execute_python("print('x' * 100000)", limits={"output_bytes": 1000})
        assert result.error_kind == "output_limit"
        assert len(result.stdout_bytes) <= 1000

    def test_memory_limit(self, sandbox: LocalSandbox) -> None:
        result = sandbox.execute_python("b = bytearray(400 * 1024 * 1024)", limits={"memory_bytes": 256 * 1024 * 1024})
        assert result.error_kind in ("memory", "killed")
        assert sandbox.execute_python("print('after')").stdout == "after\n"


class TestContexts:
    def test_named_contexts_are_separate(self, sandbox: LocalSandbox) -> None:
        sandbox.execute_python("a = 1", context="one")
        sandbox.execute_python("a = 2", context="two")
        assert sandbox.execute_python("print(a)", context="one").stdout == "1\n"
        assert sandbox.execute_python("print(a)", context="two").stdout == "2\n"

    def test_create_fork_reset_delete(self, sandbox: LocalSandbox) -> None:
        sandbox.create_context("base")
        sandbox.execute_python("data = [1, 2]", context="base")
        sandbox.fork_context("base", "copy")
        sandbox.execute_python("data.append(3)", context="copy")
        assert sandbox.execute_python("print(data)", context="base").stdout == "[1, 2]\n"
        assert sandbox.execute_python("print(data)", context="copy").stdout == "[1, 2, 3]\n"
        sandbox.reset_context("copy")
        assert sandbox.execute_python("print('data' in globals())", context="copy").stdout == "False\n"
        sandbox.delete_context("copy")
        with pytest.raises(KeyError):
            sandbox.delete_context("copy")
        with pytest.raises(ValueError):
            sandbox.create_context("base")
        with pytest.raises(KeyError):
            sandbox.fork_context("missing", "x")

    def test_set_var_and_protect(self, sandbox: LocalSandbox) -> None:
        sandbox.set_var("config", {"retries": 3, "names": ["a", "b"]})
        assert sandbox.execute_python("config['retries'] + len(config['names'])").return_value == "5"
        sandbox.protect("config")
        result = sandbox.execute_python("config = None")
        assert result.error_kind == "protected"
        assert sandbox.execute_python("print(config['retries'])").stdout == "3\n"

    def test_set_var_bad_arguments(self, sandbox: LocalSandbox) -> None:
        with pytest.raises(ValueError):
            sandbox.set_var("not an identifier", 1)
        with pytest.raises(TypeError):
            sandbox.set_var("x", object())  # type: ignore[arg-type]

    def test_stop_python(self, sandbox: LocalSandbox) -> None:
        sandbox.execute_python("gone = 1")
        sandbox.stop_python()
        assert sandbox.execute_python("print('gone' in globals())").stdout == "False\n"


class TestTools:
    def test_calls_host_tool(self, sandbox: LocalSandbox) -> None:
        result = sandbox.execute_python(
            'from host_tools import call\nprint(call("echo", {"text": "hello bridge"})["echo"])',
            toolset=echo_toolset(),
        )
        assert result.exit_code == 0, result.stderr
        assert result.stdout == "hello bridge\n"

    def test_callable_toolset(self, sandbox: LocalSandbox) -> None:
        class Helpers:
            def repeat(self, text: str, count: int = 2) -> dict[str, str]:
                """Repeat text a configurable number of times."""
                return {"text": text * count}

        result = sandbox.execute_python(
            "import json\nfrom host_tools import call, search\n"
            "print(call('repeat', {'text': 'ha'})['text'])\n"
            "print(json.dumps(search('repeat', detail='full', limit=1)[0]))",
            toolset=[Helpers().repeat],
        )
        assert result.exit_code == 0, result.stderr
        first, second = result.stdout.splitlines()
        assert first == "haha"
        payload = json.loads(second)
        assert payload["name"] == "repeat"
        assert payload["description"] == "Repeat text a configurable number of times."
        assert payload["input_schema"]["required"] == ["text"]
        assert payload["input_schema"]["properties"]["count"]["default"] == 2

    def test_typed_stub_and_toolset_declared_once(self, sandbox: LocalSandbox) -> None:
        calls = []

        def repeat(text: str, count: int = 2) -> dict[str, str]:
            """Repeat text a configurable number of times."""
            calls.append((text, count))
            return {"text": text * count}

        sandbox.set_toolset([repeat])
        # a typed stub: the signature and the docstring come from the schema
        first = sandbox.execute_python(
            "import inspect\nfrom host_tools import repeat\n"
            "print(inspect.signature(repeat))\nprint(repeat.__doc__.splitlines()[0])\nrepeat('ab')['text']"
        )
        assert first.exit_code == 0, first.stderr
        assert first.stdout == "(text: str, count: int = 2) -> dict[str, str]\nRepeat text a configurable number of times.\n"
        assert first.return_value == "'abab'"
        # the next call and the shell's tool command reach it without passing it again
        assert sandbox.execute_python("from host_tools import repeat\nrepeat('x', count=3)['text']").return_value == "'xxx'"
        assert sandbox.bash('tool repeat \'{"text": "yo", "count": 1}\'').stdout == '{"text":"yo"}\n'
        assert calls == [("ab", 2), ("x", 3), ("yo", 1)]

        def other(n: int) -> int:
            """Other."""
            return n + 1

        # a per-call toolset adds to it for that call only
        both = sandbox.execute_python(
            "from host_tools import call\n(call('other', {'n': 1}), call('repeat', {'text': 'z'}))", toolset=[other]
        )
        assert both.return_value == "(2, {'text': 'zz'})", both.stderr
        after = sandbox.execute_python("from host_tools import call\ncall('other', {'n': 1})")
        assert "permission_error" in after.stderr
        assert sandbox.execute_python("from host_tools import call\ncall('repeat', {'text': 'q'})").return_value == "{'text': 'qq'}"
        sandbox.set_toolset(None)
        gone = sandbox.execute_python("from host_tools import call\ncall('repeat', {'text': 'q'})")
        assert "permission_error" in gone.stderr
        with pytest.raises(TypeError):
            sandbox.set_toolset([3])  # type: ignore[list-item]

    def test_annotated_field_is_enforced(self, sandbox: LocalSandbox) -> None:
        def shout(text: Annotated[str, Field(min_length=2)]) -> str:
            """Shout."""
            return text.upper()

        result = sandbox.execute_python(
            "from host_tools import call\nprint(call('shout', {'text': 'hey'}))\ncall('shout', {'text': 'x'})",
            toolset=[shout],
        )
        assert result.stdout == "HEY\n"
        assert result.exit_code != 0 and "validation_error" in result.stderr

    def test_input_validation_failure(self, sandbox: LocalSandbox) -> None:
        result = sandbox.execute_python('from host_tools import call\ncall("echo", {"text": 123})', toolset=echo_toolset())
        assert result.exit_code != 0
        assert "validation_error" in result.stderr

    def test_callable_validation_failure(self, sandbox: LocalSandbox) -> None:
        def maybe_repeat(count: int | None) -> dict[str, int]:
            """Return the requested count."""
            return {"count": count or 0}

        result = sandbox.execute_python(
            'from host_tools import call\ncall("maybe_repeat", {"count": "not-an-int"})', toolset=[maybe_repeat]
        )
        assert result.exit_code != 0 and "validation_error" in result.stderr

    def test_output_validation_failure(self, sandbox: LocalSandbox) -> None:
        bad = PythonToolset(definitions=echo_toolset().definitions, handlers={"echo": lambda p: {"wrong": 1}})
        result = sandbox.execute_python('from host_tools import call\ncall("echo", {"text": "a"})', toolset=bad)
        assert result.exit_code != 0 and "validation_error" in result.stderr

    def test_undeclared_tool(self, sandbox: LocalSandbox) -> None:
        result = sandbox.execute_python('from host_tools import call\ncall("nope", {})', toolset=echo_toolset())
        assert result.exit_code != 0 and "permission_error" in result.stderr

    def test_async_handler(self, sandbox: LocalSandbox) -> None:
        async def reverse(payload: dict[str, JsonValue]) -> JsonValue:
            await asyncio.sleep(0)
            return {"reversed": str(payload["text"])[::-1]}

        toolset = PythonToolset(
            definitions=[ToolDefinition("reverse", "Reverse a string.", {"type": "object"})],
            handlers={"reverse": reverse},
        )
        result = sandbox.execute_python(
            'from host_tools import call\nprint(call("reverse", {"text": "drawer"})["reversed"])', toolset=toolset
        )
        assert result.stdout == "reward\n", result.stderr

    def test_handler_exception(self, sandbox: LocalSandbox) -> None:
        def broken(payload: dict[str, JsonValue]) -> JsonValue:
            raise RuntimeError("kaput")

        toolset = PythonToolset(definitions=[ToolDefinition("broken", "", {"type": "object"})], handlers={"broken": broken})
        result = sandbox.execute_python(
            "from host_tools import call\ntry:\n    call('broken', {})\nexcept Exception as e:\n    print(e)", toolset=toolset
        )
        assert "internal_error" in result.stdout and "kaput" in result.stdout

    def test_tool_timeout_returns_promptly(self, sandbox: LocalSandbox) -> None:
        def slow(payload: dict[str, JsonValue]) -> JsonValue:
            time.sleep(10.0)
            return {"ok": True}

        toolset = PythonToolset(
            definitions=[ToolDefinition("slow", "Sleeps.", {"type": "object"}, timeout_ms=100)],
            handlers={"slow": slow},
        )
        sandbox.execute_python('print("warmup")', toolset=toolset)
        started = time.monotonic()
        result = sandbox.execute_python(
            "from host_tools import call\ntry:\n    call('slow', {})\nexcept Exception as exc:\n    print(exc)", toolset=toolset
        )
        assert "timeout" in result.stdout
        assert time.monotonic() - started < 8

    def test_search(self, sandbox: LocalSandbox) -> None:
        result = sandbox.execute_python(
            "import json\nfrom host_tools import search\n"
            "print(json.dumps({'brief': search('slack'), 'full': search('slack message', detail='full', limit=1)}))",
            toolset=search_toolset(),
        )
        assert result.exit_code == 0, result.stderr
        payload = json.loads(result.stdout)
        assert payload["brief"][0]["name"] == "slack_post_message"
        assert "input_schema" not in payload["brief"][0]
        assert payload["full"][0]["input_schema"]["properties"]["channel"] == {"type": "string"}

    def test_tools_are_per_call(self, sandbox: LocalSandbox) -> None:
        sandbox.execute_python("1", toolset=echo_toolset())
        result = sandbox.execute_python('from host_tools import call\ncall("echo", {"text": "a"})')
        assert result.exit_code != 0 and "permission_error" in result.stderr

    def test_handler_may_use_its_sandbox(self, sandbox: LocalSandbox) -> None:
        sandbox.write_file("/data/notes.txt", "from the host side")

        def read_notes() -> str:
            """Read the notes file through the host API."""
            return sandbox.read_file("/data/notes.txt")

        result = sandbox.execute_python("from host_tools import call\nprint(call('read_notes', {}))", toolset=[read_notes])
        assert result.stdout == "from the host side\n", result.stderr

    def test_tool_calls_are_recorded(self, sandbox: LocalSandbox) -> None:
        sandbox.execute_python('from host_tools import call\ncall("echo", {"text": "history"})', toolset=echo_toolset())
        names = [e.name for e in sandbox.history(limit=10)]
        assert "python" in names and "echo" in names
