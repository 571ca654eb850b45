"""localsandbox: a sandbox for AI agents (files, bash, Python, kv, history).

A drop-in for the published ``localsandbox`` API, built on sbx, a C library:
one sandbox is one SQLite file in the AgentFS format; bash runs in sbx's
in-process shell and Python in its jailed CPython worker, over the same
filesystem. ``from localsandbox import LocalSandbox`` and go::

    with LocalSandbox() as sandbox:
        sandbox.write_file("/data/notes.txt", "hello\\n")
        print(sandbox.read_file("/data/notes.txt"))
"""

from localsandbox.agent_tools import AgentTools, ToolCallError, ToolOutput
from localsandbox.core import (
    LIMIT_NAMES,
    BashResult,
    CommandHandle,
    ExecutionPreset,
    HistoryEntry,
    KVStore,
    LocalSandbox,
    OutputCallback,
    ProbeItem,
    PythonResult,
    probe,
)
from localsandbox.exceptions import (
    CommandError,
    ExecutionLimitError,
    FileNotFoundError,
    JailUnavailableError,
    LocalSandboxError,
    PermissionError,
    SubprocessCrashed,
    TimeoutError,
)
from localsandbox.tools import (
    Field,
    JsonValue,
    PythonToolset,
    ToolDefinition,
    function_to_tool_definition,
    functions_to_toolset,
)

__version__ = "0.1.0"

__all__ = [
    "LIMIT_NAMES",
    "AgentTools",
    "BashResult",
    "CommandError",
    "CommandHandle",
    "ExecutionLimitError",
    "ExecutionPreset",
    "Field",
    "FileNotFoundError",
    "HistoryEntry",
    "JailUnavailableError",
    "JsonValue",
    "KVStore",
    "LocalSandbox",
    "LocalSandboxError",
    "OutputCallback",
    "PermissionError",
    "ProbeItem",
    "PythonResult",
    "PythonToolset",
    "SubprocessCrashed",
    "TimeoutError",
    "ToolCallError",
    "ToolDefinition",
    "ToolOutput",
    "function_to_tool_definition",
    "functions_to_toolset",
    "probe",
]
