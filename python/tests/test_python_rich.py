"""execute_python() beyond plain text: workers that survive what user code
does to its process (fork, setsid, daemons, threads), cancelling aexecute_python,
streamed and capped output, matplotlib figures in the result, packages
installed with pip in the sandbox and host directories on sys.path.

Collected only when the extension was built with the Python worker."""

from __future__ import annotations

import asyncio
import time

import pytest

from localsandbox import LocalSandbox


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

    def test_fork_in_many_calls(self, sandbox: LocalSandbox) -> None:
        for i in range(5):
            r = sandbox.execute_python(f"import os\nos.fork()\n{i}")
            assert r.error is None and r.return_value == str(i)
