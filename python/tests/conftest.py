"""Shared fixtures of the localsandbox test suite.

The suite runs against the package built by `make` (PYTHONPATH=build/python,
see scripts/suites/python.sh) or an installed one. Tests that need the shell
or the Python worker live in test_bash.py, test_readme_bash.py,
test_python_exec.py and test_readme_python.py, which are collected only when
the extension was built with them (localsandbox._sbx HAVE_BASH / HAVE_PYTHON);
test_readme.py checks the clear error given when they are absent.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Iterator
from typing import TypeVar

import pytest

from localsandbox import LocalSandbox, PythonToolset, ToolDefinition, _sbx

T = TypeVar("T")

collect_ignore = []
if not _sbx.HAVE_BASH:
    collect_ignore += ["test_bash.py", "test_readme_bash.py"]
if not _sbx.HAVE_PYTHON:
    collect_ignore += ["test_python_exec.py", "test_readme_python.py"]
elif not _sbx.HAVE_BASH:
    collect_ignore += ["test_readme_python.py"]  # it runs bash too
if not (_sbx.HAVE_BASH and _sbx.HAVE_PYTHON):
    collect_ignore += ["test_programs.py"]  # the shell's python3 and host programs


@pytest.fixture
def sandbox() -> Iterator[LocalSandbox]:
    """A fresh in-memory sandbox, destroyed after the test."""
    s = LocalSandbox()
    yield s
    s.destroy()


def run(awaitable: Awaitable[T]) -> T:
    """Runs a coroutine to completion (the suite does not need pytest-asyncio)."""

    async def main() -> T:
        return await awaitable

    return asyncio.run(main())


def echo_toolset(**definition_fields: object) -> PythonToolset:
    """The published tests' one-tool toolset: echo(text) -> {"echo": text},
    with strict input and output schemas."""
    return PythonToolset(
        definitions=[
            ToolDefinition(
                name="echo",
                description="Echo back a string value.",
                input_schema={
                    "type": "object",
                    "properties": {"text": {"type": "string"}},
                    "required": ["text"],
                    "additionalProperties": False,
                },
                output_schema={
                    "type": "object",
                    "properties": {"echo": {"type": "string"}},
                    "required": ["echo"],
                    "additionalProperties": False,
                },
                **definition_fields,  # type: ignore[arg-type]
            )
        ],
        handlers={"echo": lambda payload: {"echo": str(payload["text"])}},
    )
