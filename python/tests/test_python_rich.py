"""execute_python() beyond plain text: workers that survive what user code
does to its process (fork, setsid, daemons, threads), cancelling aexecute_python,
streamed and capped output, matplotlib figures in the result, packages
installed with pip in the sandbox and host directories on sys.path.

Collected only when the extension was built with the Python worker."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from localsandbox import LocalSandbox, PythonResult


class TestRobustWorker:
    def test_fork_child_that_returns_does_not_break_the_next_call(self, sandbox: LocalSandbox) -> None:
        sandbox.execute_python("kept = 41")
        sandbox.execute_python("other = 'ctx'", context="other")
        r = sandbox.execute_python("import os\npid = os.fork()\nprint('parent' if pid else 'child')")
        assert r.error is None and "parent" in r.stdout
        after = sandbox.execute_python("kept + 1")
        assert after.error is None and after.return_value == "42"
        assert sandbox.execute_python("other", context="other").return_value == "'ctx'"

    def test_forked_child_exits_with_the_cells_status(self, sandbox: LocalSandbox) -> None:
        r = sandbox.execute_python(
            "import os\npid = os.fork()\n"
            "if pid == 0:\n    raise SystemExit(7)\n"
            "os.waitpid(pid, 0)[1] >> 8"
        )
        assert r.error is None and r.return_value == "7"
        r = sandbox.execute_python(
            "import os\npid = os.fork()\n"
            "if pid == 0:\n    1 / 0\n"
            "os.waitpid(pid, 0)[1] >> 8"
        )
        assert r.return_value == "1"
        assert "ZeroDivisionError" in r.stderr  # the child's traceback, on its stderr

    def test_forked_child_cannot_reach_the_host(self, sandbox: LocalSandbox) -> None:
        def echo(text: str) -> str:
            """Echo."""
            return text

        r = sandbox.execute_python(
            "import os\nfrom host_tools import call\npid = os.fork()\n"
            "if pid == 0:\n"
            "    try:\n        call('echo', {'text': 'x'})\n"
            "    except RuntimeError as e:\n        os._exit(3 if 'forked' in str(e) else 4)\n"
            "    os._exit(5)\n"
            "(os.waitpid(pid, 0)[1] >> 8, call('echo', {'text': 'parent'}))",
            toolset=[echo],
        )
        assert r.error is None and r.return_value == "(3, 'parent')"

    def test_setsid_daemons_and_threads_left_behind(self, sandbox: LocalSandbox) -> None:
        sandbox.execute_python("kept = 1")
        r = sandbox.execute_python(
            "import os, threading, time, subprocess\n"
            "try:\n    os.setsid()\nexcept OSError:\n    pass\n"
            "if os.fork() == 0:\n"
            "    os.setsid()\n"
            "    if os.fork() == 0:\n        time.sleep(30)\n        os._exit(0)\n"
            "    os._exit(0)\n"
            "os.system('sleep 30 &')\n"
            "subprocess.Popen(['sleep', '30'])\n"
            "threading.Thread(target=time.sleep, args=(30,), daemon=True).start()\n"
            "threading.Thread(target=time.sleep, args=(30,)).start()\n"
            "'started'"
        )
        assert r.error is None and r.return_value == "'started'"
        for i in range(3):
            r = sandbox.execute_python("kept += 1; kept")
            assert r.error is None and r.return_value == str(i + 2)

    def test_multiprocessing_with_functions_a_cell_defines(self, sandbox: LocalSandbox) -> None:
        sandbox.execute_python("def square(x):\n    return x * x")
        r = sandbox.execute_python(
            "import multiprocessing as mp\n"
            "with mp.Pool(2) as pool:\n    out = pool.map(square, range(6))\nout",
            timeout=60,
        )
        assert r.error is None, r.stderr
        assert r.return_value == "[0, 1, 4, 9, 16, 25]"
        r = sandbox.execute_python(
            "from concurrent.futures import ProcessPoolExecutor\n"
            "class Box:\n    def __init__(self, v):\n        self.v = v\n"
            "def unbox(b):\n    return b.v + 1\n"
            "with ProcessPoolExecutor(2) as ex:\n    got = list(ex.map(unbox, [Box(1), Box(2)]))\ngot",
            context="other",
            timeout=60,
        )
        assert r.return_value == "[2, 3]", r.stderr
        assert sandbox.execute_python("square(3)").return_value == "9"
        assert sandbox.execute_python("'square' in dir()", context="other").return_value == "False"

    def test_fork_in_many_calls(self, sandbox: LocalSandbox) -> None:
        for i in range(5):
            r = sandbox.execute_python(f"import os\nos.fork()\n{i}")
            assert r.error is None and r.return_value == str(i)


class TestCancel:
    def test_cancelling_the_task_interrupts_the_code_and_keeps_the_context(self) -> None:
        async def main() -> tuple[str, str, str]:
            with LocalSandbox() as s:
                s.execute_python("n = 0")
                task = asyncio.create_task(
                    s.aexecute_python(
                        "import time\nwhile True:\n    n += 1\n    time.sleep(0.01)", timeout=60
                    )
                )
                await asyncio.sleep(0.5)
                task.cancel()
                started = time.monotonic()
                with pytest.raises(asyncio.CancelledError):
                    await task
                # The next call waits for the channel: it runs once the
                # cancelled code has stopped, well within the 1 s grace.
                first = s.execute_python("n").return_value
                waited = time.monotonic() - started
                await asyncio.sleep(0.3)
                second = s.execute_python("n").return_value
                shell = s.bash("echo shell").stdout  # a Python cancel leaves the shell alone
                assert waited < 5
                return first, second, shell

        first, second, shell = asyncio.run(main())
        assert first == second and int(first) > 5  # it ran, then stopped
        assert shell == "shell\n"

    def test_cancel_before_the_worker_started(self) -> None:
        async def main() -> str:
            with LocalSandbox() as s:
                task = asyncio.create_task(s.aexecute_python("import time; time.sleep(30)", timeout=60))
                await asyncio.sleep(0)  # the thread may not have reached the library yet
                task.cancel()
                started = time.monotonic()
                with pytest.raises(asyncio.CancelledError):
                    await task
                r = s.execute_python("'alive'")
                assert time.monotonic() - started < 10
                return r.return_value or ""

        assert asyncio.run(main()) == "'alive'"


class TestOutput:
    def test_on_output_streams_while_the_code_runs(self, sandbox: LocalSandbox) -> None:
        seen: list[tuple[str, bytes, float]] = []
        sandbox.execute_python("1")  # the worker is up
        start = time.monotonic()
        r = sandbox.execute_python(
            "import sys, time\nprint('one', flush=True)\ntime.sleep(1)\n"
            "print('err', file=sys.stderr, flush=True)\nprint('two')",
            on_output=lambda stream, data: seen.append((stream, data, time.monotonic() - start)),
        )
        ended = time.monotonic() - start
        assert r.stdout == "one\ntwo\n" and r.stderr == "err\n"
        # The first piece came while the code still slept (a second before its end).
        assert seen[0][:2] == ("stdout", b"one\n") and seen[0][2] < ended - 0.5
        assert b"".join(d for s, d, _ in seen if s == "stdout") == b"one\ntwo\n"
        assert b"".join(d for s, d, _ in seen if s == "stderr") == b"err\n"

    def test_on_output_exception_stops_the_code(self, sandbox: LocalSandbox) -> None:
        class Stop(Exception):
            pass

        def on_output(stream: str, data: bytes) -> None:
            raise Stop("enough")

        sandbox.execute_python("n = 0")
        started = time.monotonic()
        with pytest.raises(Stop):
            sandbox.execute_python(
                "import time\nprint('go', flush=True)\nwhile True:\n    n += 1\n    time.sleep(0.01)",
                on_output=on_output,
                timeout=60,
            )
        assert time.monotonic() - started < 10
        n1 = sandbox.execute_python("n").return_value
        time.sleep(0.2)
        assert sandbox.execute_python("n").return_value == n1  # stopped, context kept

    def test_max_output_bytes_keeps_head_and_tail(self, sandbox: LocalSandbox) -> None:
        r = sandbox.execute_python(
            "import sys\nprint('HEAD' + 'x' * 10_000_000)\nprint('TAIL')\n"
            "sys.stderr.write('e' * 100)",
            max_output_bytes=1000,
        )
        assert r.error is None
        assert r.stdout.startswith("HEADxxx")
        assert r.stdout.endswith("xxx\nTAIL\n")
        left_out = 10_000_010 - 1000
        assert f"\n[... {left_out} bytes of output left out ...]\n" in r.stdout
        assert len(r.stdout) < 1100
        assert r.stderr == "e" * 100  # under the cap: whole

    def test_max_output_bytes_with_streaming_sees_everything(self, sandbox: LocalSandbox) -> None:
        total = 0

        def count(stream: str, data: bytes) -> None:
            nonlocal total
            total += len(data)

        r = sandbox.execute_python("print('y' * 3_000_000)", on_output=count, max_output_bytes=64)
        assert total == 3_000_001
        assert "bytes of output left out" in r.stdout and len(r.stdout) < 200

    def test_max_output_bytes_checks_its_argument(self, sandbox: LocalSandbox) -> None:
        with pytest.raises(ValueError):
            sandbox.execute_python("1", max_output_bytes=1)
        with pytest.raises(TypeError):
            sandbox.execute_python("1", max_output_bytes="10")  # type: ignore[arg-type]


PNG = b"\x89PNG\r\n\x1a\n"
# matplotlib says this on stderr when its first import in a sandbox takes
# over 5 s (a loaded machine): not a warning of ours.
FONT_CACHE = "Matplotlib is building the font cache; this may take a moment.\n"


def slow(sandbox: LocalSandbox, code: str) -> PythonResult:
    """A call that imports matplotlib first in its sandbox (it builds its
    font cache: seconds on a loaded machine)."""
    return sandbox.execute_python(code, timeout=600)


class TestCharts:
    def test_savefig_and_figures_come_back(self, sandbox: LocalSandbox) -> None:
        r = slow(
            sandbox,
            "import matplotlib.pyplot as plt\n"
            "plt.plot([1, 2, 3])\nplt.savefig('/data/c.png')\nplt.show()\n"
            "fig = plt.figure()\nplt.bar([1, 2], [3, 4])\n"
            "len(plt.get_fignums())",
        )
        assert r.error is None, r.stderr
        assert r.return_value == "1"  # the shown one was closed by show()
        assert r.stderr.replace(FONT_CACHE, "") == ""
        assert len(r.images) == 2 and all(i.startswith(PNG) for i in r.images)
        assert sandbox.read_file_bytes("/data/c.png").startswith(PNG)
        after = sandbox.execute_python("import matplotlib.pyplot as plt\nlen(plt.get_fignums())")
        assert after.return_value == "0" and after.images == []

    def test_figure_show_returns_that_figure(self, sandbox: LocalSandbox) -> None:
        r = slow(
            sandbox,
            "import matplotlib.pyplot as plt\n"
            "a = plt.figure(); plt.plot([1])\nb = plt.figure(); plt.plot([2])\n"
            "a.show()\n"
            "plt.get_fignums() == [b.number]",
        )
        assert r.error is None and r.stderr.replace(FONT_CACHE, "") == "", r.stderr
        assert r.return_value == "True"  # only the shown one was closed
        assert len(r.images) == 2  # a when shown, b at the end of the cell

    def test_figures_of_a_failing_cell_and_no_figures(self, sandbox: LocalSandbox) -> None:
        r = slow(sandbox, "import matplotlib.pyplot as plt\nplt.plot([1])\n1/0")
        assert r.error_kind == "exception" and len(r.images) == 1
        assert sandbox.execute_python("1 + 1").images == []

    def test_subprocess_python_uses_agg(self, sandbox: LocalSandbox) -> None:
        r = slow(
            sandbox,
            "import subprocess, sys\n"
            "subprocess.run([sys.executable, '-c', 'import matplotlib.pyplot as plt; "
            "plt.plot([1]); plt.savefig(\"/data/s.png\"); print(plt.get_backend())'],"
            " capture_output=True, text=True).stdout"
        )
        assert r.return_value == "'agg\\n'" or r.return_value == "'Agg\\n'"
        assert sandbox.read_file_bytes("/data/s.png").startswith(PNG)


def tiny_wheel(name: str = "tinypkg", value: int = 42) -> bytes:
    """A pure-Python wheel made by hand (no network, no build backend)."""
    import io
    import zipfile

    info = f"{name}-1.0.dist-info"
    files = {
        f"{name}/__init__.py": f"VALUE = {value}\n",
        f"{info}/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n",
        f"{info}/WHEEL": "Wheel-Version: 1.0\nGenerator: hand\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    }
    files[f"{info}/RECORD"] = "".join(f"{p},,\n" for p in [*files, f"{info}/RECORD"])
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for path, text in files.items():
            z.writestr(path, text)
    return buf.getvalue()


PIP_INSTALL = (
    "import subprocess, sys\n"
    "p = subprocess.run([sys.executable, '-m', 'pip', 'install', '--no-index',\n"
    "                    '--find-links', '/data/wheels', 'tinypkg'], capture_output=True, text=True)\n"
    "print(p.returncode, p.stdout, p.stderr)\n"
)


class TestPackages:
    def test_pip_install_into_the_user_site_is_seen_by_the_next_calls(self) -> None:
        with LocalSandbox(files={"/data/wheels/tinypkg-1.0-py3-none-any.whl": tiny_wheel()}) as s:
            before = s.execute_python("import tinypkg")
            assert before.error_kind == "exception" and "No module named 'tinypkg'" in before.error
            r = s.execute_python(PIP_INSTALL, timeout=600)
            assert r.stdout.startswith("0 ") and "Successfully installed tinypkg-1.0" in r.stdout, r.stdout
            # The same worker (its failed import above is not cached) ...
            r = s.execute_python("import tinypkg; (tinypkg.VALUE, tinypkg.__file__)")
            assert r.return_value == "(42, '/data/.local/lib/python3.11/site-packages/tinypkg/__init__.py')"
            # ... a fresh interpreter ...
            r = s.execute_python(
                "import subprocess, sys\n"
                "subprocess.run([sys.executable, '-c', 'import tinypkg; print(tinypkg.VALUE)'],"
                " capture_output=True, text=True).stdout"
            )
            assert r.return_value == "'42\\n'"
            # ... and a new worker see it; the files live in the sandbox.
            s.stop_python()
            assert s.execute_python("import tinypkg; tinypkg.VALUE").return_value == "42"
            assert s.exists("/data/.local/lib/python3.11/site-packages/tinypkg/__init__.py")

    def test_pip_install_into_a_venv_under_data(self) -> None:
        with LocalSandbox(files={"/data/wheels/tinypkg-1.0-py3-none-any.whl": tiny_wheel(value=7)}) as s:
            r = s.execute_python(
                "import subprocess, sys\n"
                "run = lambda *a: subprocess.run(a, capture_output=True, text=True)\n"
                # Debian's pip from the system site (copying pip into the venv
                # is slow); it installs into the venv it runs in.
                "v = run(sys.executable, '-m', 'venv', '--without-pip', '--system-site-packages', '/data/venv')\n"
                "p = run('/data/venv/bin/python', '-m', 'pip', 'install', '--no-index',\n"
                "        '--find-links', '/data/wheels', 'tinypkg')\n"
                "q = run('/data/venv/bin/python', '-c', 'import tinypkg, sys; print(tinypkg.VALUE, tinypkg.__file__)')\n"
                "(v.returncode, p.returncode, q.stdout)",
                timeout=600,
            )
            assert r.return_value == "(0, 0, '7 /data/venv/lib/python3.11/site-packages/tinypkg/__init__.py\\n')", r.stderr

    def test_python_paths_are_importable_and_read_only(self) -> None:
        import tempfile
        from pathlib import Path

        with tempfile.TemporaryDirectory() as top:
            self._python_paths(Path(top))

    def _python_paths(self, top: Path) -> None:
        root = top / "site"
        (root / "hostpkg").mkdir(parents=True)
        (root / "hostpkg" / "__init__.py").write_text("WHERE = 'host'\n")
        (root / "hostpkg" / "__init__.py").chmod(0o666)  # only the mount keeps it unchanged
        for p in (top, root, root / "hostpkg"):
            p.chmod(0o755)  # the sandbox's user must reach it
        with LocalSandbox(python_paths=[root]) as s:
            r = s.execute_python("import hostpkg; (hostpkg.WHERE, hostpkg.__file__)")
            assert r.return_value == "('host', '/run/sbx/pypath/0/hostpkg/__init__.py')", r.stderr
            r = s.execute_python("open(hostpkg.__file__, 'a').write('x')")
            assert r.error_kind == "exception" and "Read-only file system" in r.error
            r = s.execute_python(
                "import subprocess, sys\n"
                "subprocess.run([sys.executable, '-c', 'import hostpkg; print(hostpkg.WHERE)'],"
                " capture_output=True, text=True).stdout"
            )
            assert r.return_value == "'host\\n'"
            with s.fork() as copy:
                r = copy.execute_python("import hostpkg; hostpkg.WHERE")
                assert r.return_value == "'host'", r.stderr
        assert (root / "hostpkg" / "__init__.py").read_text() == "WHERE = 'host'\n"

    def test_python_paths_are_checked(self, tmp_path) -> None:  # type: ignore[no-untyped-def]
        with pytest.raises(ValueError):
            LocalSandbox(python_paths=[tmp_path / "missing"])
        with pytest.raises(TypeError):
            LocalSandbox(python_paths=str(tmp_path))  # type: ignore[arg-type]
        with pytest.raises(ValueError):
            LocalSandbox(python_paths=[tmp_path] * 17)
