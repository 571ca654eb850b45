"""Shared fixtures of the localsandbox test suite.

The suite runs against the package built by `make` (PYTHONPATH=build/python,
see scripts/suites/python.sh) or an installed one.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Iterator
from typing import TypeVar

import pytest

from localsandbox import LocalSandbox, PythonToolset, ToolDefinition

T = TypeVar("T")


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
