"""The localsandbox exception tree.

::

    LocalSandboxError
     +-- CommandError(message, exit_code, stdout, stderr)
     |    +-- FileNotFoundError(..., path)
     |    +-- PermissionError(..., path)
     +-- TimeoutError(message, timeout_ms)
     +-- SubprocessCrashed(message, signal)
     +-- ExecutionLimitError(message, limit_type, limit_value)
     +-- JailUnavailableError(message)

The names and constructor signatures are those of the published
``localsandbox`` package, so ``except`` clauses written for it keep working.
``FileNotFoundError``, ``PermissionError`` and ``TimeoutError`` shadow the
builtins of the same name inside this module on purpose (as published).
"""

from __future__ import annotations

__all__ = [
    "CommandError",
    "ExecutionLimitError",
    "FileNotFoundError",
    "JailUnavailableError",
    "LocalSandboxError",
    "PermissionError",
    "SubprocessCrashed",
    "TimeoutError",
]


class LocalSandboxError(Exception):
    """Base class of every error raised by localsandbox."""


class CommandError(LocalSandboxError):
    """A bash command exited with a non-zero status (or a file helper failed).

    Attributes:
        exit_code: The exit status (1 for file helpers).
        stdout: What the command wrote to stdout before it failed.
        stderr: What it wrote to stderr (for file helpers: the error text).
    """

    def __init__(self, message: str, exit_code: int, stdout: str, stderr: str) -> None:
        super().__init__(message)
        self.exit_code = exit_code
        self.stdout = stdout
        self.stderr = stderr


class FileNotFoundError(CommandError):  # noqa: A001 - the published name
    """A file or directory does not exist.

    Attributes:
        path: The sandbox path that was not found.
    """

    def __init__(
        self, message: str, exit_code: int, stdout: str, stderr: str, path: str
    ) -> None:
        super().__init__(message, exit_code, stdout, stderr)
        self.path = path


class PermissionError(CommandError):  # noqa: A001 - the published name
    """Permission denied on a file or directory.

    Attributes:
        path: The sandbox path the permission check failed on.
    """

    def __init__(
        self, message: str, exit_code: int, stdout: str, stderr: str, path: str
    ) -> None:
        super().__init__(message, exit_code, stdout, stderr)
        self.path = path


class TimeoutError(LocalSandboxError):  # noqa: A001 - the published name
    """A call ran past its time limit.

    Attributes:
        timeout_ms: The limit that was reached, in milliseconds.
        stdout: What the call wrote to stdout before it was stopped.
        stderr: What it wrote to stderr (ending with the limit's message).
    """

    def __init__(self, message: str, timeout_ms: int, stdout: str = "", stderr: str = "") -> None:
        super().__init__(message)
        self.timeout_ms = timeout_ms
        self.stdout = stdout
        self.stderr = stderr


class SubprocessCrashed(LocalSandboxError):
    """The Python worker process died (out of memory, killed, crashed).

    Attributes:
        signal: The signal that ended it, when known.
    """

    def __init__(self, message: str, signal: int | None = None) -> None:
        super().__init__(message)
        self.signal = signal


class ExecutionLimitError(LocalSandboxError):
    """A script hit an execution limit.

    Attributes:
        limit_type: Which limit: ``loop_iterations``, ``command_count``, or
            one of the other limit names (``function_depth``,
            ``output_bytes``, ``string_size``, ``array_size``, ...).
        limit_value: The value of that limit.
        stdout: What the script wrote to stdout before the limit stopped it.
        stderr: What it wrote to stderr (ending with the limit's message).
    """

    def __init__(
        self, message: str, limit_type: str, limit_value: int, stdout: str = "", stderr: str = ""
    ) -> None:
        super().__init__(message)
        self.limit_type = limit_type
        self.limit_value = limit_value
        self.stdout = stdout
        self.stderr = stderr


class JailUnavailableError(LocalSandboxError):
    """Python cannot run jailed on this host (no user namespaces, ...).

    The message says which jail feature is missing and what to change
    (the same report as ``sbx doctor``). Python never runs unjailed.
    """

