"""The scripts of examples/python run to completion and print what they
promise. Each runs in a fresh interpreter against this same package; the
scripts that need the shell or the Python worker are listed only when the
extension was built with them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import localsandbox

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "python"

# script -> (needs bash, needs python, lines its output must contain)
CASES = {
    "quickstart.py": (True, False, ["lines in todo.txt: 2", "FileNotFoundError: path=/data/missing.txt"]),
    "snapshot_resume.py": (True, False, ["resumed kv: alpha", "in the fork, notes exist: False",
                                         "reopened from agent.db -> draft"]),
    "agent_loop.py": (True, False, ["Totals by region: north 160, south 80"]),
    "tools.py": (False, True, ["['list_orders', 'get_order'", "A-2 {'item': 'mouse', 'status': 'pending'}",
                               "refused: [validation_error]"]),
}
RUNNABLE = sorted(CASES)


def test_every_example_is_listed() -> None:
    assert sorted(p.name for p in EXAMPLES.glob("*.py")) == sorted(CASES)


@pytest.mark.parametrize("name", RUNNABLE)
def test_example_runs(name: str) -> None:
    env = dict(os.environ)
    env.pop("ANTHROPIC_API_KEY", None)
    env["PYTHONPATH"] = str(Path(localsandbox.__file__).resolve().parents[1])
    proc = subprocess.run(
        [sys.executable, str(EXAMPLES / name)], capture_output=True, text=True, timeout=120, env=env
    )
    assert proc.returncode == 0, proc.stderr
    for line in CASES[name][2]:
        assert line in proc.stdout, proc.stdout
