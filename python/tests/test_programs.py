"""Programs the shell runs in the sandbox's jail: `python3` as a fresh
interpreter per invocation (the edit, run and test loop of a coding agent),
host programs of the jail's runtime (perl, git...) in pipelines, timeouts
that kill their process tree, #! scripts, and ``LocalSandbox(programs=...)``.

Collected only when the extension has both the shell and Python."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from localsandbox import LocalSandbox


@pytest.fixture
def sandbox() -> Iterator[LocalSandbox]:
    s = LocalSandbox()
    yield s
    s.destroy()


def jail_processes(sandbox: LocalSandbox) -> int:
    # J1, the worker, the fork server and this python3 when nothing else runs.
    r = sandbox.bash("python3 -c 'import os; print(sum(p.isdigit() for p in os.listdir(\"/proc\")))'")
    return int(r.stdout)


def test_python3_sees_the_fix_made_with_sed(sandbox: LocalSandbox) -> None:
    sandbox.write_file("/data/calc.py", "def add(a, b):\n    return a - b\n")
    sandbox.write_file(
        "/data/test_calc.py",
        "import unittest\nfrom calc import add\n\n"
        "class T(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n",
    )
    first = sandbox.bash("python3 -m unittest -q test_calc; echo status $?")
    assert first.stdout == "status 1\n"
    assert "AssertionError: -1 != 5" in first.stderr
    sandbox.bash("sed -i 's/a - b/a + b/' calc.py")
    second = sandbox.bash("python3 -m unittest -q test_calc; echo status $?")
    assert second.stdout == "status 0\n", second.stderr
    assert "OK" in second.stderr


def test_each_python3_is_a_new_interpreter(sandbox: LocalSandbox) -> None:
    r = sandbox.bash(
        "python3 -c 'import os; print(os.getpid())'; python3 -c 'import os; print(os.getpid())'\n"
        "python3 -c 'import atexit; atexit.register(print, \"atexit\"); raise SystemExit(3)'; echo $?"
    )
    a, b, last, status = r.stdout.split("\n")[:4]
    assert a != b
    assert (last, status) == ("atexit", "3")


def test_streams_end_at_once(sandbox: LocalSandbox) -> None:
    t0 = time.monotonic()
    r = sandbox.bash("yes | python3 -c 'import sys; print(sys.stdin.readline().strip())'")
    assert r.stdout == "y\n"
    r = sandbox.bash("perl -e 'print \"$_\\n\" for 1..100000000' | head -n 3")
    assert r.stdout == "1\n2\n3\n"
    assert time.monotonic() - t0 < 30
    r = sandbox.bash("seq 100000 | perl -ne '$s += $_; END { print \"$s\\n\" }'")
    assert r.stdout == "5000050000\n"


def test_host_programs_status_env_and_lookup(sandbox: LocalSandbox) -> None:
    r = sandbox.bash("export V=1; false | perl -e 'print $ENV{V}; exit 5'; echo \" ${PIPESTATUS[*]}\"; which git")
    assert r.stdout == "1 1 5\n/usr/bin/git\n"
    assert sandbox.bash("git --version").stdout.startswith("git version ")


def test_timeout_kills_the_process_tree(sandbox: LocalSandbox) -> None:
    t0 = time.monotonic()
    r = sandbox.bash("timeout 1 perl -e 'fork; fork; sleep 100'; echo $?")
    assert r.stdout == "124\n"
    assert time.monotonic() - t0 < 30
    assert jail_processes(sandbox) == 4


def test_shebang_scripts(sandbox: LocalSandbox) -> None:
    sandbox.write_file("/data/x.py", "#!/usr/bin/env python3\nimport sys\nprint('py', sys.argv[1:])\n")
    sandbox.write_file("/data/x.sh", "#!/bin/sh\necho \"sh ${BASH_VERSION:+in-process} $1\"\n")
    r = sandbox.bash("chmod +x x.py x.sh; ./x.py a; ./x.sh b")
    assert r.stdout == "py ['a']\nsh in-process b\n"


def test_programs_allow_list() -> None:
    s = LocalSandbox(programs=["git"])
    try:
        r = s.bash("git --version >/dev/null && echo git ok; perl -e 1; echo $?; python3 -c 'print(1)'")
        assert r.stdout == "git ok\n127\n1\n"
        assert "perl: command not found" in r.stderr
        assert s.fork().bash("perl -e 1; echo $?").stdout == "127\n"
    finally:
        s.destroy()
    with pytest.raises(ValueError):
        LocalSandbox(programs=["bin/perl"])
    with pytest.raises(TypeError):
        LocalSandbox(programs="git")  # type: ignore[arg-type]
