"""LocalSandbox: the published localsandbox API over the sbx C library.

Each ``LocalSandbox`` owns one sbx handle (``localsandbox._sbx.Sandbox``): a
SQLite database in the AgentFS format (in memory, or a file with ``path=``)
holding the filesystem, the key-value store and the call history. bash runs in-process in sbx's C shell and Python
runs in sbx's jailed CPython worker, both over that one filesystem. There is
no server process and no per-call serialization: every method is one or two
calls into C, made with the GIL released.

Design decisions:

- Names, signatures, defaults, dataclass fields and error messages follow
  the published package, so agent code written for it runs unchanged. The
  additions (``path=``, ``fork()``, ``reset_shell()``, Python contexts,
  ``timeout=``, ``on_output=``, ``limits=``, ``stdout_bytes``) are keyword
  arguments or new fields with defaults, never changes to existing ones.
- ``bash()`` raises on a non-zero exit, choosing the exception class from
  the structured error the C library reports (the limit that was hit, the
  errno and path of the failing command), never by parsing stderr.
  ``execute_python()`` never raises for errors of the Python code: they come
  back in ``PythonResult``.
- kv values are stored as JSON text, as AgentFS stores them: ``kv.set(k,
  "abc")`` stores ``"abc"`` (a JSON string) and ``kv.get`` decodes it again.
- History: ``bash`` calls (``{"command", "cwd"}`` / ``{"exitCode"}``, written
  by the library in the call's locked section: the row the CLI and ``sbx mcp``
  write too) and ``seed`` are recorded as published; the library records ``python`` calls and each host
  tool call (under the tool's name). The file helpers are not recorded (cheap
  reads and writes, not agent actions).
- Thread safety comes from the extension: calls on one sandbox from several
  threads are serialized by its lock; calls on different sandboxes run in
  parallel. The async twins run the sync methods with ``asyncio.to_thread``.
"""

from __future__ import annotations

import asyncio
import atexit
import errno as _errno
import json
import os
import posixpath
import shlex
import threading
import time
import weakref
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any, NoReturn, TypeVar

from localsandbox import _sbx
from localsandbox.agent_tools import AgentTools
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
    JsonScalar,
    JsonValue,
    PythonToolset,
    ToolCallable,
    ToolDefinition,
    ToolHandler,
    ToolsetInput,
    call_handler,
    function_to_tool_definition,
    functions_to_toolset,
    resolve_toolset,
)

__all__ = [
    "BashResult",
    "ExecutionPreset",
    "Field",
    "HistoryEntry",
    "JsonScalar",
    "JsonValue",
    "KVStore",
    "LIMIT_NAMES",
    "PYTHON_LIMIT_NAMES",
    "QUOTA_NAMES",
    "SHELL_LIMIT_NAMES",
    "LocalSandbox",
    "OutputCallback",
    "ProbeItem",
    "PythonResult",
    "PythonToolset",
    "ToolCallable",
    "ToolDefinition",
    "ToolHandler",
    "ToolsetInput",
    "function_to_tool_definition",
    "functions_to_toolset",
    "probe",
]

_T = TypeVar("_T")

#: on_output callbacks receive ("stdout" or "stderr", bytes) as output arrives.
OutputCallback = Callable[[str, bytes], None]

_DESTROYED = "LocalSandbox instance has been destroyed"

# The Python worker binary: the library finds it through $SBX_PYWORKER; the
# package ships it next to the extension.
_WORKER = Path(__file__).with_name("sbx-pyworker")
if _WORKER.is_file() and "SBX_PYWORKER" not in os.environ:
    os.environ["SBX_PYWORKER"] = str(_WORKER)

#: New sandboxes without path= live in memory (freed on destroy()): every
#: write, the history records of bash calls included, skips the file system.
#: path= keeps a sandbox on disk.
_DEFAULT_OPEN_FLAGS = _sbx.OPEN_MEMORY


class ExecutionPreset(Enum):
    """Execution limit presets (protection against runaway scripts).

    ========== =============== ============ =======
    Preset     Loop iterations Commands     Timeout
    ========== =============== ============ =======
    STRICT     100             500          5 s
    NORMAL     10**9           10**9        30 s
    PERMISSIVE 10**10          10**10       120 s
    ========== =============== ============ =======

    STRICT keeps the published figures. NORMAL and PERMISSIVE stop runaway
    scripts by time, output and size: their counts are beyond what a script
    can run within their time limits, so a ``while read`` over a large file
    runs to its end. The other limits (function depth, output size, string
    and array size, ...) scale with the preset too; ``limits=`` overrides
    any of them.
    """

    STRICT = "strict"
    NORMAL = "normal"
    PERMISSIVE = "permissive"


#: The shell's limits (each bash() call; positive ints).
SHELL_LIMIT_NAMES = (
    "loop_iterations",
    "command_count",
    "function_depth",
    "output_bytes",
    "string_size",
    "array_size",
    "timeout_ms",
    # background jobs that outlive their call (docs/limits.md)
    "bg_jobs",
    "bg_lifetime_ms",
    "bg_cpu_ms",
)
#: The sandbox's quotas: a new sandbox has 1 GiB and 100,000 inodes (docs/limits.md);
#: a value replaces that default, 0 means no limit (asked for explicitly).
QUOTA_NAMES = ("max_bytes", "max_inodes", "max_file_size")
#: The Python worker's limits (each execute_python() call).
PYTHON_LIMIT_NAMES = ("memory_bytes", "cpu_seconds")

#: Every name accepted by ``limits=``.
LIMIT_NAMES: frozenset[str] = frozenset(SHELL_LIMIT_NAMES + QUOTA_NAMES + PYTHON_LIMIT_NAMES)


def _preset_limits(preset: ExecutionPreset) -> dict[str, int]:
    return _sbx.limits_preset(preset.value)  # type: ignore[no-any-return]


def _check_limits(limits: Mapping[str, int] | None) -> dict[str, int]:
    if limits is None:
        return {}
    if not isinstance(limits, Mapping):
        raise TypeError(f"limits must be a dict of name -> int, not {type(limits).__name__}")
    out: dict[str, int] = {}
    for name, value in limits.items():
        if name not in LIMIT_NAMES:
            raise ValueError(
                f"unknown limit {name!r}; known limits: {', '.join(sorted(LIMIT_NAMES))}"
            )
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"limit {name!r} must be an int, not {type(value).__name__}")
        low = 0 if name in QUOTA_NAMES else 1
        if value < low or value > 2**63 - 1:
            raise ValueError(f"limit {name!r} must be between {low} and 2**63-1, got {value}")
        out[name] = value
    return out


def _settle(fut: asyncio.Future[Any], outcome: Any) -> None:
    """Completes an abash future on its own loop (unless cancelled meanwhile)."""
    if not fut.done():
        fut.set_result(outcome)


def _timeout_ms(timeout: float | None) -> int:
    """A per-call timeout in seconds (None: the sandbox's) to milliseconds."""
    if timeout is None:
        return 0
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)):
        raise TypeError(f"timeout must be a number of seconds, not {type(timeout).__name__}")
    if not timeout > 0 or timeout > 10**9:
        raise ValueError(f"timeout must be a positive number of seconds, got {timeout!r}")
    return max(1, int(round(timeout * 1000)))


@dataclass
class BashResult:
    """Result of a bash command.

    Attributes:
        stdout: Standard output, decoded as UTF-8 (invalid bytes replaced).
        stderr: Standard error, decoded the same way.
        exit_code: The exit status.
        duration_ms: Wall-clock time of the call in milliseconds.
        stdout_bytes: Standard output exactly as written (binary output).
        stderr_bytes: Standard error exactly as written.
    """

    stdout: str
    stderr: str
    exit_code: int
    duration_ms: float
    stdout_bytes: bytes = field(default=b"", repr=False)
    stderr_bytes: bytes = field(default=b"", repr=False)


@dataclass
class PythonResult:
    """Result of a Python execution. Errors of the code come back here.

    Attributes:
        stdout: What the code printed.
        stderr: What it wrote to stderr, then the traceback of an error.
        exit_code: 0 on success, 1 after an exception (or the SystemExit code).
        error: ``"Type: message"`` of the error, or None.
        return_value: repr() of the value of a trailing expression, or None.
        error_kind: None, or ``exception``, ``syntax``, ``timeout``,
            ``memory``, ``killed``, ``exit``, ``cancelled``.
        stdout_bytes: Standard output exactly as written.
        duration_ms: Wall-clock time of the call in milliseconds.
        images: PNG bytes of each matplotlib figure the code showed
            (``plt.show()``) or left open, in order; they are closed once
            returned, as in a Jupyter cell.
    """

    stdout: str
    stderr: str
    exit_code: int
    error: str | None = None
    return_value: str | None = None
    error_kind: str | None = None
    stdout_bytes: bytes = field(default=b"", repr=False)
    duration_ms: float = 0.0
    images: list[bytes] = field(default_factory=list, repr=False)


@dataclass
class HistoryEntry:
    """One recorded call (the AgentFS ``tool_calls`` table).

    Attributes:
        id: Row id.
        name: ``bash``, ``python``, ``python_tool_call``, ``seed``, or the name
            another tool recorded.
        started_at: Unix time (seconds) the call started.
        completed_at: Unix time it finished (0 while pending).
        parameters: The call's parameters (for bash: ``command``, ``cwd``).
        result: The call's result (for bash and python: ``exitCode``).
        error: The error text of a failed call, else None.
        status: ``success``, ``error`` or ``pending``.
        duration_ms: How long it took, in milliseconds (0 while pending).
    """

    id: int
    name: str
    started_at: int
    completed_at: int
    parameters: dict[str, Any] | None
    result: dict[str, Any] | None
    error: str | None = None
    status: str = "success"
    duration_ms: float = 0.0


def _decode(data: bytes) -> str:
    return data.decode("utf-8", "replace")


def _json_or_text(text: str | None) -> Any:
    if text is None:
        return None
    try:
        return json.loads(text)
    except ValueError:
        return text


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _raise_sbx(err: _sbx.Error, path: str | None = None) -> NoReturn:
    """Raises the published exception for a failed sbx call."""
    code = err.code
    message = err.message
    where = path if path is not None else (err.path or "")
    if code == _sbx.FS:
        e = err.errno
        exc: Exception
        if e in (_errno.ENOENT, _errno.ENOTDIR):
            exc = FileNotFoundError(f"File not found: {where}", 1, "", message, where)
        elif e in (_errno.EACCES, _errno.EPERM, _errno.EROFS):
            exc = PermissionError(f"Permission denied: {where}", 1, "", message, where)
        else:
            exc = CommandError(message, 1, "", message)
        exc.errno = e  # type: ignore[attr-defined]
        raise exc from None
    if code == _sbx.READONLY:
        raise PermissionError(f"Permission denied: {where}", 1, "", message, where) from None
    if code == _sbx.MISUSE:
        raise ValueError(message) from None
    if code in (_sbx.CORRUPT, _sbx.SCHEMA):
        raise ValueError(message) from None
    if code == _sbx.NOMEM:
        raise MemoryError(message) from None
    if code == _sbx.JAIL:
        raise JailUnavailableError(message) from None
    if code == _sbx.TIMEOUT:
        raise TimeoutError(message, 0) from None
    if code == _sbx.CRASHED:
        raise SubprocessCrashed(message) from None
    raise LocalSandboxError(message) from None


def _check_context_name(name: Any) -> str:
    if not isinstance(name, str):
        raise TypeError(f"context must be str, not {type(name).__name__}")
    if not name or len(name.encode("utf-8", "surrogatepass")) > 128:
        raise ValueError(f"context names are 1 to 128 bytes, got {name[:40]!r}")
    return name


def _check_text(name: str, value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{name} must be str, not {type(value).__name__}")
    return value


# Instances still open at interpreter exit are destroyed (workers stopped,
# removed), as the published package does.
_active: weakref.WeakSet[LocalSandbox] = weakref.WeakSet()


@atexit.register
def _destroy_all() -> None:
    for sandbox in list(_active):
        try:
            sandbox.destroy()
        except Exception:  # noqa: BLE001 - best effort at exit
            pass


@dataclass
class ProbeItem:
    """One jail feature checked by probe().

    Attributes:
        name: The feature ("user namespaces", "FUSE in the jail", ...).
        ok: True works, False missing (Python cannot run), None partly or
            optional.
        detail: What was found.
        fix: For a missing feature, what to change on the host.
    """

    name: str
    ok: bool | None
    detail: str
    fix: str


def probe() -> tuple[bool, list[ProbeItem]]:
    """Checks which jail features work on this host (like ``sbx doctor``).

    Returns:
        (python_ok, items): whether execute_python() can work here, and one
        item per feature with what was found and how to fix what is missing.
    """
    rows, ok = _sbx.probe()
    items = [
        ProbeItem(name or "", True if good == 1 else False if good == 0 else None, detail or "", fix or "")
        for name, good, detail, fix in rows
    ]
    return bool(ok), items


class KVStore:
    """Key-value store for agent state, persisted in the sandbox's database.

    Values are strings (any JSON value is accepted too). They are stored as
    JSON text in the AgentFS ``kv_store`` table, so other AgentFS tools read
    them as they wrote them.
    """

    def __init__(self, sandbox: LocalSandbox) -> None:
        """The store of ``sandbox`` (made by LocalSandbox; use ``sandbox.kv``)."""
        self._sandbox = sandbox

    def get(self, key: str) -> str | None:
        """Get a value by key.

        Args:
            key: The key to look up.

        Returns:
            The value (a str for anything set through this API), or None if
            the key does not exist.

        Raises:
            RuntimeError: If the sandbox has been destroyed.
        """
        h = self._sandbox._handle()
        _check_text("key", key)
        try:
            text = h.kv_get(key)
        except _sbx.Error as e:
            _raise_sbx(e)
        if text is None:
            return None
        return json.loads(text)  # type: ignore[no-any-return]

    def set(self, key: str, value: str) -> None:
        """Set a value by key (replacing an existing one).

        Args:
            key: The key to set.
            value: The string to store (or any JSON-serializable value).

        Raises:
            TypeError: If the value cannot be stored as JSON.
            RuntimeError: If the sandbox has been destroyed.
        """
        h = self._sandbox._handle()
        _check_text("key", key)
        try:
            text = _dumps(value)
        except (TypeError, ValueError) as exc:
            raise TypeError(f"kv value must be a str or a JSON value: {exc}") from None
        try:
            h.kv_set(key, text)
        except _sbx.Error as e:
            _raise_sbx(e)

    def delete(self, key: str) -> None:
        """Delete a key (a missing key is not an error).

        Raises:
            RuntimeError: If the sandbox has been destroyed.
        """
        h = self._sandbox._handle()
        _check_text("key", key)
        try:
            h.kv_delete(key)
        except _sbx.Error as e:
            _raise_sbx(e)

    def keys(self, prefix: str = "") -> list[str]:
        """List keys, optionally only those starting with ``prefix``.

        Returns:
            The matching keys, sorted.

        Raises:
            RuntimeError: If the sandbox has been destroyed.
        """
        h = self._sandbox._handle()
        _check_text("prefix", prefix)
        try:
            return h.kv_keys(prefix or None)  # type: ignore[no-any-return]
        except _sbx.Error as e:
            _raise_sbx(e)

    async def aget(self, key: str) -> str | None:
        """Async version of get()."""
        return await self._sandbox._to_thread(self.get, key)

    async def aset(self, key: str, value: str) -> None:
        """Async version of set()."""
        await self._sandbox._to_thread(self.set, key, value)

    async def adelete(self, key: str) -> None:
        """Async version of delete()."""
        await self._sandbox._to_thread(self.delete, key)

    async def akeys(self, prefix: str = "") -> list[str]:
        """Async version of keys()."""
        return await self._sandbox._to_thread(self.keys, prefix)


#: Output a CommandHandle keeps of each stream (the newest bytes); the
#: library keeps at least as much (SBX_JOB_OUTPUT_MAX).
JOB_OUTPUT_MAX = 1 << 20


class CommandHandle:
    """A command running in the background of a sandbox's shell: what
    ``LocalSandbox.start()`` (or ``bash(..., background=True)``) returns.

    The command is a job of the shell session (``jobs``, ``wait`` and ``kill``
    in later ``bash()`` calls see it) and runs between calls under its own
    limits (``bg_lifetime_ms``, ``bg_cpu_ms``; docs/limits.md). Its output is
    read as it comes: ``stdout`` and ``stderr`` hold what it wrote so far (the
    newest ``JOB_OUTPUT_MAX`` bytes of each). When it ends, the history has a
    ``bash_background`` entry with its exit code.
    """

    def __init__(self, sandbox: LocalSandbox, pid: int, command: str) -> None:
        self._sandbox = sandbox
        self.pid = pid
        self.command = command
        self._out = bytearray()
        self._err = bytearray()
        self._next = [0, 0]
        self._exit_code: int | None = None

    def __repr__(self) -> str:
        state = "running" if self._exit_code is None else f"exit_code={self._exit_code}"
        return f"CommandHandle(pid={self.pid}, {state}, command={self.command!r})"

    def _pull(self) -> None:
        sb = self._sandbox
        if sb._destroyed:
            return
        for fd, buf in ((1, self._out), (2, self._err)):
            try:
                data, nxt = sb._h.job_output(self.pid, fd, self._next[fd - 1])
            except _sbx.Error as e:
                _raise_sbx(e)
            self._next[fd - 1] = nxt
            buf += data
            if len(buf) > 2 * JOB_OUTPUT_MAX:
                del buf[: len(buf) - JOB_OUTPUT_MAX]

    def poll(self) -> int | None:
        """The exit code if the command has ended, else None (no waiting)."""
        if self._exit_code is None:
            if self._sandbox._destroyed:
                raise RuntimeError(_DESTROYED)
            try:
                self._exit_code = self._sandbox._h.job_poll(self.pid)
            except _sbx.Error as e:
                _raise_sbx(e)
            if self._exit_code is not None:
                self._sandbox._jobs.pop(self.pid, None)
        return self._exit_code

    @property
    def exit_code(self) -> int | None:
        """The exit code (128+N when signal N ended it), None while it runs."""
        return self.poll()

    @property
    def running(self) -> bool:
        return self.poll() is None

    @property
    def stdout_bytes(self) -> bytes:
        """What it wrote to stdout so far (the newest JOB_OUTPUT_MAX bytes)."""
        self._pull()
        return bytes(self._out)

    @property
    def stderr_bytes(self) -> bytes:
        self._pull()
        return bytes(self._err)

    @property
    def stdout(self) -> str:
        return self.stdout_bytes.decode("utf-8", "replace")

    @property
    def stderr(self) -> str:
        return self.stderr_bytes.decode("utf-8", "replace")

    def wait(self, timeout: float | None = None) -> int:
        """Waits for the command to end; returns its exit code.

        Raises:
            TimeoutError: It still runs after ``timeout`` seconds (it goes on).
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        delay = 0.001
        while (code := self.poll()) is None:
            self._check_deadline(deadline, timeout)
            time.sleep(delay)
            delay = min(delay * 2, 0.05)
        return code

    def _check_deadline(self, deadline: float | None, timeout: float | None) -> None:
        if deadline is not None and time.monotonic() >= deadline:
            raise TimeoutError(
                f"background command {self.pid} still running after {timeout} s",
                _timeout_ms(timeout or 0),
                self.stdout,
                self.stderr,
            )

    async def await_exit(self, timeout: float | None = None) -> int:
        """The async twin of wait(): awaits the end without blocking the loop."""
        deadline = None if timeout is None else time.monotonic() + timeout
        delay = 0.001
        while (code := self.poll()) is None:
            self._check_deadline(deadline, timeout)
            await asyncio.sleep(delay)
            delay = min(delay * 2, 0.05)
        return code

    def kill(self, signal: int = 15) -> None:
        """Sends a signal (SIGTERM by default) as the shell's ``kill`` does."""
        if self._sandbox._destroyed:
            raise RuntimeError(_DESTROYED)
        try:
            self._sandbox._h.job_kill(self.pid, signal)
        except _sbx.Error as e:
            _raise_sbx(e)


class LocalSandbox:
    """A sandbox for an AI agent: a filesystem, bash, Python, a key-value
    store and a history, all in one SQLite file.

    Use it as a context manager (``with LocalSandbox() as sandbox:``) or call
    ``destroy()`` when done. Every method has an async twin prefixed with
    ``a`` (``abash``, ``aread_file``, ...).
    """

    def __init__(
        self,
        files: Mapping[str, str | Path | bytes] | None = None,
        snapshot: bytes | None = None,
        cwd: str = "/data",
        preset: ExecutionPreset = ExecutionPreset.NORMAL,
        *,
        path: str | os.PathLike[str] | None = None,
        limits: Mapping[str, int] | None = None,
        isolation: str = "in-process",
        history_limit: int | None = None,
        history_max_age: int | None = None,
        python_paths: Sequence[str | os.PathLike[str]] | None = None,
        require: str | None = None,
        programs: Sequence[str] | None = None,
    ) -> None:
        """Create a sandbox.

        Args:
            files: Initial files: sandbox path -> content. str is written as
                UTF-8, bytes as is, and a ``pathlib.Path`` is read from the
                host now: a file's bytes, or a directory's whole tree (modes,
                times and the symlinks that stay inside it; one pointing out
                of it is a ValueError). Relative paths are relative to ``cwd``.
            snapshot: Restore from ``export_snapshot()`` bytes (mutually
                exclusive with ``files``).
            cwd: Working directory of bash and Python (created if missing).
            preset: Execution limits preset (STRICT, NORMAL or PERMISSIVE).
            path: Keep the sandbox in this database file, created if missing
                and reopened by a later ``LocalSandbox(path=...)``;
                ``destroy()`` closes it without deleting it. Without ``path``
                the sandbox lives in memory and is freed on destroy().
            limits: Overrides of any limit by name (see ``LIMIT_NAMES``):
                shell limits, quotas (``max_bytes``, ``max_inodes``,
                ``max_file_size``) and Python limits.
            isolation: Where bash() runs. ``"in-process"`` (the default, in
                microseconds) or ``"process"``: a jailed helper process of
                its own per sandbox (seccomp, no host paths, no network,
                rlimits), killed at the deadline, so even a loop that never
                checks its limits ends; a crash of it raises
                ``SubprocessCrashed`` and never affects the host. A kill
                loses the shell session (the next call starts afresh);
                files are kept.
            history_limit: The most calls the history keeps (the oldest are
                deleted as new ones are recorded); 0: no bound. None: the
                library's default (100,000 calls).
            history_max_age: Calls started more than this many seconds ago
                are deleted as new ones are recorded; None or 0: no age
                bound. Calls are written lazily: a crash of the process
                loses at most the last 128 recorded calls (docs/limits.md).
            python_paths: Host directories whose packages Python in the
                sandbox can import, e.g. a venv's site-packages (at most 16).
                Each is bound read-only into the jail (at
                ``/run/sbx/pypath/N``) and put on ``sys.path`` of
                execute_python and of every python3 it starts (PYTHONPATH).
                The sandbox's user must be able to read them.
            require: The jail tier Python may run in. None (the default):
                the full jail (namespaces, the store as the root file
                system), else the reduced tier where the host denies user
                namespaces or /dev/fuse (see ``jail_info()``). ``"full"``:
                refuse the reduced tier (calls raise
                ``JailUnavailableError``). ``"reduced"``: always the reduced
                tier (tests, benchmarks).
            programs: The host programs ``bash()`` may run in the jail
                (``["git", "make"]``: names, or absolute paths such as
                ``"/usr/bin/git"``); ``[]`` allows none. None (the default):
                every executable of the jail's read-only runtime (/usr).
                Others are "command not found". ``python3`` is always there.

        Raises:
            ValueError: Both ``files`` and ``snapshot``; invalid snapshot
                bytes; an unknown limit; a relative ``cwd``.
            TypeError: An argument of the wrong type.
        """
        self._destroyed = True  # until the handle is open
        if files is not None and snapshot is not None:
            raise ValueError("Cannot provide both 'files' and 'snapshot'")
        if isinstance(preset, str) and not isinstance(preset, Enum):
            try:
                preset = ExecutionPreset(preset.lower())
            except ValueError:
                raise ValueError(f"unknown preset {preset!r}") from None
        if not isinstance(preset, ExecutionPreset):
            raise TypeError(f"preset must be an ExecutionPreset, not {type(preset).__name__}")
        _check_text("cwd", cwd)
        if not cwd.startswith("/") or "\x00" in cwd:
            raise ValueError(f"cwd must be an absolute sandbox path, got {cwd!r}")
        overrides = _check_limits(limits)
        if isolation not in ("in-process", "process"):
            raise ValueError(f"isolation must be 'in-process' or 'process', got {isolation!r}")
        iso = _sbx.OPEN_PROCESS if isolation == "process" else 0
        tiers = {None: 0, "full": 1, "reduced": 2}
        if require not in tiers:
            raise ValueError(f"require must be None, 'full' or 'reduced', got {require!r}")
        if history_limit is not None and (
            isinstance(history_limit, bool) or not isinstance(history_limit, int)
        ):
            raise TypeError(f"history_limit must be an int, not {type(history_limit).__name__}")
        if history_limit is not None and history_limit < 0:
            raise ValueError(f"history_limit must be >= 0, got {history_limit}")
        if history_max_age is not None and (
            isinstance(history_max_age, bool) or not isinstance(history_max_age, int)
        ):
            raise TypeError(f"history_max_age must be an int, not {type(history_max_age).__name__}")
        if history_max_age is not None and history_max_age < 0:
            raise ValueError(f"history_max_age must be >= 0, got {history_max_age}")
        py_paths = self._check_python_paths(python_paths)
        seed = self._read_seed_files(files, cwd) if files is not None else None
        if snapshot is not None and not isinstance(snapshot, (bytes, bytearray, memoryview)):
            raise TypeError(f"snapshot must be bytes, not {type(snapshot).__name__}")
        db_path = os.fspath(path) if path is not None else None
        if db_path is not None and not isinstance(db_path, str):
            raise TypeError("path must be a str or os.PathLike")

        try:
            if snapshot is not None and db_path is not None:
                if os.path.exists(db_path):
                    raise ValueError(f"path {db_path!r} exists: a snapshot restores into a new file")
                mem = _sbx.Sandbox.from_snapshot(snapshot, _sbx.OPEN_MEMORY | iso)
                try:
                    h = mem.fork(db_path)
                finally:
                    mem.close()
            elif snapshot is not None:
                h = _sbx.Sandbox.from_snapshot(snapshot, _DEFAULT_OPEN_FLAGS | iso)
            elif db_path is not None:
                h = _sbx.Sandbox(db_path, iso)
            else:
                h = _sbx.Sandbox(None, _DEFAULT_OPEN_FLAGS | iso)
        except _sbx.Error as e:
            if e.code in (_sbx.CORRUPT, _sbx.SCHEMA):
                raise ValueError(f"invalid snapshot or database: {e.message}") from None
            _raise_sbx(e)
        self._setup(h, cwd, preset, overrides, db_path, isolation)
        try:
            self._set_programs(programs)
            if history_limit is not None or history_max_age is not None:
                h.history_retention(
                    _sbx.HISTORY_DEFAULT_ROWS if history_limit is None else history_limit,
                    history_max_age or 0,
                )
            if py_paths:
                try:
                    h.python_set_paths(py_paths)
                except _sbx.Error as e:
                    raise ValueError(e.message) from None
                self._python_paths = py_paths
            if require is not None:
                h.python_require(tiers[require])
            # the sandbox's own setup: the cwd and the files= seed (one
            # "seed" row) leave no file-helper rows in the history
            h.history_files(False)
            if not h.exists(cwd):
                h.mkdir(cwd, True)
            if seed:
                self._seed(seed)
            h.history_files(True)
        except BaseException:
            self.destroy()
            raise

    # ---- internals ---------------------------------------------------------------

    @staticmethod
    def _check_python_paths(paths: Any) -> list[str]:
        if paths is None:
            return []
        if isinstance(paths, (str, bytes, os.PathLike)) or not isinstance(paths, (list, tuple)):
            raise TypeError("python_paths must be a list of host directories")
        out = []
        for p in paths:
            if not isinstance(p, (str, os.PathLike)):
                raise TypeError(f"python_paths entries must be str or os.PathLike, not {type(p).__name__}")
            p = os.fspath(p)
            if not isinstance(p, str):
                raise TypeError("python_paths entries must be str paths")
            p = os.path.abspath(p)
            if not os.path.isdir(p):
                raise ValueError(f"python_paths: {p} is not a directory")
            out.append(p)
        return out

    def _set_programs(self, programs: Sequence[str] | None) -> None:
        if isinstance(programs, str):
            raise TypeError("programs must be a list of names, not a str")
        self._programs = None if programs is None else list(programs)
        if self._programs is not None:
            try:
                self._h.set_programs(self._programs)
            except _sbx.Error as e:
                raise ValueError(e.message) from None

    def _setup(
        self,
        h: _sbx.Sandbox,
        cwd: str,
        preset: ExecutionPreset,
        overrides: dict[str, int],
        db_path: str | None,
        isolation: str = "in-process",
    ) -> None:
        self._h = h
        self._isolation = isolation
        self._cwd = cwd
        self._preset = preset
        self._overrides = overrides
        self._limits = {**_preset_limits(preset), **overrides}
        self._shell_limits = {k: v for k, v in self._limits.items() if k in SHELL_LIMIT_NAMES}
        self._shell_at_cwd = cwd == "/data"  # a fresh shell session starts in /data
        self._python_paths: list[str] = []  # python_paths= (kept by fork())
        self._db_path = db_path
        self._destroyed = False
        self._closing = False  # destroy() is under way
        self._lock = threading.Lock()  # serializes destroy()
        self.kv = KVStore(self)
        self._jobs: dict[int, CommandHandle] = {}  # start()'s running handles, by pid
        self._runner_waiters: dict[int, asyncio.Future[Any]] = {}  # abash calls still running
        self._runner_loops: dict[asyncio.AbstractEventLoop, int] = {}  # loops watching runner_fd
        try:
            quota = {k: overrides[k] for k in QUOTA_NAMES if k in overrides}
            if quota:
                h.set_quota(**quota)
            if (
                preset is not ExecutionPreset.NORMAL or set(overrides) & set(SHELL_LIMIT_NAMES)
            ):
                h.set_limits(self._shell_limits)
        except _sbx.Error as e:
            h.close()
            self._destroyed = True
            _raise_sbx(e)
        _active.add(self)

    def _handle(self) -> _sbx.Sandbox:
        if self._destroyed:
            raise RuntimeError(_DESTROYED)
        return self._h

    def _path(self, path: Any) -> str:
        if isinstance(path, os.PathLike):
            path = os.fspath(path)
        if not isinstance(path, str):
            raise TypeError(f"path must be str, not {type(path).__name__}")
        if not path.startswith("/"):
            path = posixpath.join(self._cwd, path)
        return path

    def _read_seed_files(
        self, files: Mapping[str, str | Path | bytes], cwd: str
    ) -> list[tuple[str, str, bytes | Path]]:
        if not isinstance(files, Mapping):
            raise TypeError(f"files must be a dict of path -> content, not {type(files).__name__}")
        out = []
        for key, content in files.items():
            if not isinstance(key, str):
                raise TypeError(f"files keys must be str paths, not {type(key).__name__}")
            if isinstance(content, str):
                data = content.encode("utf-8")
            elif isinstance(content, (bytes, bytearray, memoryview)):
                data = bytes(content)
            elif isinstance(content, os.PathLike) and Path(content).is_dir():
                data = Path(content)  # a host tree, copied by _seed (sbx_import_dir)
            elif isinstance(content, os.PathLike):
                data = Path(content).read_bytes()  # host file; OSError propagates
            else:
                raise TypeError(
                    f"files[{key!r}] must be str, bytes or pathlib.Path, not {type(content).__name__}"
                )
            full = key if key.startswith("/") else posixpath.join(cwd, key)
            out.append((key, full, data))
        return out

    def _seed(self, seed: list[tuple[str, str, bytes | Path]]) -> None:
        """Writes the files= of the constructor and their "seed" history
        entry in one transaction."""
        with self.transaction():
            try:
                self._h.write_files(
                    [(full, data) for _, full, data in seed if not isinstance(data, Path)], _sbx.WRITE_MKDIRS
                )
                for _, full, data in seed:
                    if isinstance(data, Path):  # modes, times, inner symlinks kept
                        self._h.import_dir(os.fspath(data), full)
            except _sbx.Error as e:
                if e.code == _sbx.ERROR:  # a symlink out of the tree, a fifo...
                    raise ValueError(e.message) from None
                _raise_sbx(e)
            self._record(
                "seed",
                {"paths": [key for key, _, _ in seed], "count": len(seed)},
                {"success": True},
            )

    def _record(self, name: str, params: Any, result: Any) -> None:
        """Appends one finished call to the history."""
        try:
            self._h.history_record(name, _dumps(params), _dumps(result))
        except _sbx.Error as e:
            _raise_sbx(e)

    async def _to_thread(self, fn: Callable[..., _T], *args: Any, **kwargs: Any) -> _T:
        """Runs a sync method in a worker thread; if the awaiting task is
        cancelled, the running C call is cancelled too (when it can be)."""
        try:
            return await asyncio.to_thread(fn, *args, **kwargs)
        except asyncio.CancelledError:
            self._cancel_running()
            raise

    def _cancel_until(self, done: threading.Event) -> None:
        """Cancels the running call, again every 50 ms until `done` is set
        (from a thread of its own): a cancel that comes before the call has
        reached the library would otherwise be missed."""

        def repeat() -> None:
            while not done.is_set() and not self._destroyed:
                cancel = getattr(self._h, "python_cancel", None)
                if cancel is not None:
                    cancel()
                done.wait(0.05)

        threading.Thread(target=repeat, name="localsandbox-cancel", daemon=True).start()

    def _cancel_running(self) -> None:
        cancel = getattr(self._h, "cancel", None)
        if cancel is not None and not self._destroyed:
            cancel()

    def _file_error(self, e: _sbx.Error, path: str) -> NoReturn:
        _raise_sbx(e, path)

    def _on_path(self, path: Any, call: Callable[[_sbx.Sandbox, str], _T]) -> _T:
        """Runs ``call(handle, absolute path)`` for the file methods: a
        destroyed sandbox raises RuntimeError, a bad path TypeError (both
        before ``call``), a failed sbx call the published error for the path."""
        h = self._handle()
        p = self._path(path)
        try:
            return call(h, p)
        except _sbx.Error as e:
            _raise_sbx(e, p)

    # ---- properties ---------------------------------------------------------------

    @property
    def cwd(self) -> str:
        """The working directory bash and Python start in."""
        return self._cwd

    @property
    def isolation(self) -> str:
        """Where bash() runs: "in-process" or "process" (a jailed helper)."""
        return self._isolation

    @property
    def preset(self) -> ExecutionPreset:
        """The execution limits preset."""
        return self._preset

    @property
    def limits(self) -> dict[str, int]:
        """The limits in force: the preset's plus the ``limits=`` overrides."""
        return dict(self._limits)

    @property
    def path(self) -> str:
        """The database file of this sandbox ("" for one in memory).

        Raises:
            RuntimeError: If the sandbox has been destroyed.
        """
        return self._handle().path  # type: ignore[no-any-return]

    @property
    def destroyed(self) -> bool:
        """True once destroy() was called."""
        return self._destroyed

    # ---- bash ----------------------------------------------------------------------

    def bash(
        self,
        command: str,
        *,
        timeout: float | None = None,
        on_output: OutputCallback | None = None,
        limits: Mapping[str, int] | None = None,
        background: bool = False,
    ) -> BashResult:
        """Execute a bash command in the sandbox.

        The shell session persists across calls like a terminal: the working
        directory, variables, functions, aliases and options set by one call
        are there in the next (``reset_shell()`` starts afresh).

        Args:
            command: The bash script to run.
            timeout: Wall-clock limit for this call, in seconds.
            on_output: Called with ("stdout" | "stderr", bytes) as output is
                produced, before the call returns (the result still holds
                all of it). An exception in it stops the script and is
                raised from bash().
            limits: Shell limit overrides for this call only (see
                ``SHELL_LIMIT_NAMES``).
            background: Start the command in the background and return a
                ``CommandHandle`` at once (as ``start()``); ``timeout``,
                ``on_output`` and ``limits`` do not apply then.

        Returns:
            BashResult with stdout, stderr, exit_code and duration_ms (a
            CommandHandle with ``background=True``).

        Raises:
            CommandError: The command exited with a non-zero status.
            FileNotFoundError: It failed on a missing file (``.path``).
            PermissionError: It failed on a permission check (``.path``).
            ExecutionLimitError: It hit an execution limit.
            TimeoutError: It ran past its time limit.
            RuntimeError: The sandbox has been destroyed.
        """
        if background:
            return self.start(command)  # type: ignore[return-value]
        if self._destroyed:
            raise RuntimeError(_DESTROYED)
        h = self._h
        if type(command) is not str:
            raise TypeError(f"command must be str, not {type(command).__name__}")
        if on_output is not None and not callable(on_output):
            raise TypeError("on_output must be callable")
        call_limits = None
        if limits is not None or timeout is not None:
            call_limits = {**self._shell_limits, **self._check_shell_limits(limits)}
            if timeout is not None:
                call_limits["timeout_ms"] = _timeout_ms(timeout)
        run = h.bash
        if not self._shell_at_cwd:
            self._enter_cwd()
        started = time.perf_counter()
        try:
            outcome = run(command, call_limits, on_output, True)
        except _sbx.Error as e:
            _raise_sbx(e)
        return self._bash_finish(outcome, started)

    def _bash_finish(self, outcome: tuple[Any, ...], started: float) -> BashResult:
        """The BashResult of a finished bash call (or its published error)."""
        out, err, status, _, kind, limit_name, limit_value, err_no, err_path, killed = outcome
        if killed:
            # process isolation: the shell process was killed or died; the
            # next call starts a fresh session in /data
            self._shell_at_cwd = self._cwd == "/data"
        duration_ms = (time.perf_counter() - started) * 1000
        if status == 0 and kind is None:
            return BashResult(
                out.decode("utf-8", "replace"), err.decode("utf-8", "replace"), 0, duration_ms, out, err
            )
        self._raise_bash(
            _decode(out), _decode(err), status, kind, limit_name, limit_value, err_no, err_path
        )

    def start(self, command: str) -> CommandHandle:
        """Starts a command in the background of the shell session and
        returns at once with a ``CommandHandle`` (wait, kill, stdout/stderr so
        far, exit_code). The command is a job of the session: it runs between
        calls, and ``jobs``/``wait``/``kill`` in later ``bash()`` calls see it.

        Raises:
            ExecutionLimitError: ``bg_jobs`` jobs run already.
            CommandError: The command does not parse.
            RuntimeError: The sandbox has been destroyed.
        """
        if self._destroyed:
            raise RuntimeError(_DESTROYED)
        if type(command) is not str:
            raise TypeError(f"command must be str, not {type(command).__name__}")
        start = getattr(self._h, "job_start", None)
        if start is None:
            raise LocalSandboxError(_NO_SHELL)
        if not self._shell_at_cwd:
            self._enter_cwd()
        try:
            pid = start(command)
        except _sbx.Error as e:
            if e.code == _sbx.LIMIT:
                raise ExecutionLimitError(e.message, "bg_jobs", self._limits.get("bg_jobs", 0)) from None
            if e.code == _sbx.ERROR:
                raise CommandError(e.message, 2, "", e.message) from None
            _raise_sbx(e)
        handle = CommandHandle(self, pid, command)
        self._jobs[pid] = handle
        return handle

    def handles(self) -> list[CommandHandle]:
        """The handles of start()'s commands that still run."""
        if self._destroyed:
            raise RuntimeError(_DESTROYED)
        try:
            running = set(self._h.jobs())
        except _sbx.Error as e:
            _raise_sbx(e)
        for pid in list(self._jobs):
            if pid not in running:
                self._jobs[pid].poll()
        return [h for pid, h in self._jobs.items() if pid in running]

    async def astart(self, command: str) -> CommandHandle:
        """The async twin of start()."""
        return await self._to_thread(self.start, command)

    @staticmethod
    def _check_shell_limits(limits: Mapping[str, int] | None) -> dict[str, int]:
        checked = _check_limits(limits)
        other = [k for k in checked if k not in SHELL_LIMIT_NAMES]
        if other:
            raise ValueError(
                f"not a shell limit: {', '.join(other)}; per-call bash limits: "
                f"{', '.join(SHELL_LIMIT_NAMES)}"
            )
        return checked

    def _enter_cwd(self) -> None:
        """Moves a fresh shell session (which starts in /data) to the
        sandbox's cwd; not recorded in the history."""
        try:
            r = self._h.bash("cd -- " + shlex.quote(self._cwd), None, None, None)
        except _sbx.Error as e:
            _raise_sbx(e)
        if r[2] != 0:
            raise CommandError(
                f"cannot enter the working directory {self._cwd}: {_decode(r[1]).strip()}",
                r[2],
                "",
                _decode(r[1]),
            )
        self._shell_at_cwd = True

    def _raise_bash(
        self,
        stdout: str,
        stderr: str,
        status: int,
        kind: str | None,
        limit_name: str | None,
        limit_value: int,
        err_no: int,
        err_path: str | None,
    ) -> NoReturn:
        text = stderr.strip()
        if kind == "crashed":
            raise SubprocessCrashed(text or "the shell process crashed", limit_value or None)
        if kind == "timeout":
            raise TimeoutError(
                text or f"Bash execution timed out after {limit_value} ms", limit_value, stdout, stderr
            )
        if kind == "canceled":
            if self._closing or self._destroyed:
                raise RuntimeError(_DESTROYED)
            raise LocalSandboxError(text or "Bash execution was cancelled")
        if kind == "limit":
            raise ExecutionLimitError(
                text or f"execution limit reached: {limit_name}",
                limit_name or "unknown",
                limit_value,
                stdout,
                stderr,
            )
        if err_path and err_no in (_errno.ENOENT, _errno.ENOTDIR):
            raise FileNotFoundError(f"File not found: {err_path}", status, stdout, stderr, err_path)
        if err_path and err_no in (_errno.EACCES, _errno.EPERM):
            raise PermissionError(f"Permission denied: {err_path}", status, stdout, stderr, err_path)
        message = f"Command failed with exit code {status}"
        if text:
            message += f": {text}"
        raise CommandError(message, status, stdout, stderr)

    def reset_shell(self) -> None:
        """Start a fresh shell session: cwd back to the sandbox's cwd, no
        variables, functions, aliases or options from earlier calls. Files
        are not touched.

        Raises:
            RuntimeError: The sandbox has been destroyed.
        """
        h = self._handle()
        reset = h.reset_shell
        try:
            reset()
        except _sbx.Error as e:
            _raise_sbx(e)
        self._shell_at_cwd = self._cwd == "/data"

    # ---- python --------------------------------------------------------------------

    def execute_python(
        self,
        code: str,
        cwd: str | None = None,
        preload_packages: list[str] | None = None,
        toolset: ToolsetInput | None = None,
        *,
        context: str = "default",
        timeout: float | None = None,
        on_output: OutputCallback | None = None,
        limits: Mapping[str, int] | None = None,
        max_output_bytes: int | None = None,
    ) -> PythonResult:
        """Execute Python code in the sandbox's jailed CPython worker.

        The worker is the host's CPython (with the packages installed on the
        host, such as numpy and pandas) in a Linux jail whose root filesystem
        is this sandbox: it sees the files bash sees, nothing of the host but
        the read-only runtime, and no network. It stays up between calls:
        variables and imports persist in the named ``context``.

        Args:
            code: The Python source to run. The repr of a trailing expression
                comes back as ``return_value``.
            cwd: Working directory for this call (default: the sandbox's).
            preload_packages: Modules to import before the code runs.
            toolset: Host tools the code can call with ``from host_tools
                import call, search, NAME`` (NAME: a stub typed from the
                tool's schema): a PythonToolset or a list of typed
                callables (sync or async), for this call, over those of
                set_toolset().
            context: The name of the globals to run in (created if missing).
            timeout: Wall-clock limit for this call, in seconds (default: the
                ``timeout_ms`` limit). The code is interrupted first (the
                context is kept), then the worker is killed.
            on_output: Called with ("stdout" | "stderr", bytes) as the code
                writes, while it runs. An exception in it stops the code
                (interrupted, the context is kept) and is raised from
                execute_python().
            limits: Overrides for this call: ``timeout_ms``,
                ``output_bytes``, ``memory_bytes``, ``cpu_seconds``.
            max_output_bytes: Return at most this many bytes of each of
                stdout and stderr: longer output keeps its first and last
                halves around a line ``[... N bytes of output left out ...]``
                (the code runs on; on_output still sees everything). The
                ``output_bytes`` limit still counts every byte written.

        Returns:
            PythonResult. Errors of the code (exceptions, syntax errors,
            timeouts, memory and CPU limits, a killed worker) do not raise:
            they are in ``error`` / ``error_kind`` with a non-zero
            ``exit_code`` and the traceback in ``stderr``.

        Raises:
            TypeError, ValueError: Bad arguments or a misdeclared toolset
                (checked before anything runs).
            JailUnavailableError: Python cannot be jailed on this host (the
                message says what is missing; see ``localsandbox.probe()``).
            SubprocessCrashed: The worker could not be started.
            RuntimeError: The sandbox has been destroyed.
        """
        h = self._handle()
        if not isinstance(code, str):
            raise TypeError(f"code must be str, not {type(code).__name__}")
        run_cwd = self._cwd if cwd is None else self._path(cwd)
        packages = self._check_packages(preload_packages)
        tools = resolve_toolset(toolset)
        _check_context_name(context)
        if on_output is not None and not callable(on_output):
            raise TypeError("on_output must be callable")
        if max_output_bytes is not None and (
            isinstance(max_output_bytes, bool) or not isinstance(max_output_bytes, int)
        ):
            raise TypeError(f"max_output_bytes must be an int, not {type(max_output_bytes).__name__}")
        if max_output_bytes is not None and max_output_bytes < 2:
            raise ValueError(f"max_output_bytes must be >= 2, got {max_output_bytes}")
        lim = {**self._limits, **_check_limits(limits)}
        seconds = _timeout_ms(timeout) / 1000 if timeout is not None else lim.get("timeout_ms", 30_000) / 1000
        run = h.python_exec
        bridge = _ToolBridge(tools) if tools else None
        try:
            r = run(
                code,
                context,
                run_cwd,
                packages or None,
                seconds,
                lim.get("memory_bytes", 0),
                lim.get("output_bytes", 0),
                lim.get("cpu_seconds", 0),
                False,
                bridge.manifest if bridge else None,
                bridge.dispatch if bridge else None,
                on_output,
                max_output_bytes or 0,
            )
        except _sbx.Error as e:
            if e.code == _sbx.ERROR:
                raise SubprocessCrashed(e.message) from None
            _raise_sbx(e)
        out, err, kind, etype, emsg, tb, value_repr, exit_code, killed, duration_ms, images = r
        stderr = _decode(err)
        error = None
        if kind is not None:
            if kind == "exit":
                error = f"SystemExit: {exit_code}"
            else:
                error = f"{etype}: {emsg}" if etype and emsg else (etype or emsg or kind)
                exit_code = exit_code or 1
                if tb and tb not in stderr:
                    stderr += tb if not stderr or stderr.endswith("\n") else "\n" + tb
                elif not tb and error not in stderr:
                    stderr += ("" if not stderr or stderr.endswith("\n") else "\n") + error + "\n"
        return PythonResult(
            stdout=_decode(out),
            stderr=stderr,
            exit_code=exit_code,
            error=error,
            return_value=value_repr,
            error_kind=kind,
            stdout_bytes=out,
            duration_ms=duration_ms,
            images=images,
        )

    @staticmethod
    def _check_packages(preload_packages: list[str] | None) -> list[str]:
        if preload_packages is None:
            return []
        if isinstance(preload_packages, (str, bytes)) or not isinstance(
            preload_packages, (list, tuple)
        ):
            raise TypeError("preload_packages must be a list of module names")
        for name in preload_packages:
            if not isinstance(name, str):
                raise TypeError("preload_packages must be a list of module names")
            if not name or not all(part.isidentifier() for part in name.split(".")):
                raise ValueError(f"invalid module name in preload_packages: {name!r}")
        return list(preload_packages)

    def _python_op(self, op: str, *args: Any) -> Any:
        h = self._handle()
        fn = getattr(h, op)
        try:
            return fn(*args)
        except _sbx.Error as e:
            if e.code == _sbx.NOTFOUND:
                raise KeyError(e.message) from None
            if e.code == _sbx.ERROR:
                raise ValueError(e.message) from None
            _raise_sbx(e)

    def create_context(self, name: str) -> None:
        """Create an empty Python context (a fresh globals dict) called ``name``.

        Raises:
            ValueError: The context exists or the name is invalid.
        """
        self._python_op("python_context", "create", _check_context_name(name))

    def fork_context(self, source: str, name: str) -> None:
        """Create context ``name`` holding a copy of context ``source``'s
        globals (a deep copy where objects allow it; modules are shared).

        Raises:
            KeyError: ``source`` does not exist.
            ValueError: ``name`` exists or is invalid.
        """
        self._python_op(
            "python_context", "fork", _check_context_name(name), _check_context_name(source)
        )

    def reset_context(self, name: str = "default") -> None:
        """Empty context ``name`` (variables, imports, protections); it is
        created if missing."""
        self._python_op("python_context", "reset", _check_context_name(name))

    def delete_context(self, name: str) -> None:
        """Delete context ``name``.

        Raises:
            KeyError: The context does not exist.
        """
        self._python_op("python_context", "delete", _check_context_name(name))

    def set_var(self, name: str, value: JsonValue, *, context: str = "default") -> None:
        """Set variable ``name`` of a Python context to a JSON value (dicts,
        lists, str, numbers, bools, None).

        Raises:
            TypeError: The value is not JSON-serializable.
            ValueError: The name is not an identifier or is protected.
        """
        _check_text("name", name)
        if not name.isidentifier():
            raise ValueError(f"not a Python identifier: {name!r}")
        try:
            text = _dumps(value)
        except (TypeError, ValueError) as exc:
            raise TypeError(f"set_var value must be JSON-serializable: {exc}") from None
        self._python_op("python_set_var", _check_context_name(context), name, text)

    def protect(self, name: str, *, context: str = "default") -> None:
        """Protect variable ``name`` of a context: later code that assigns or
        deletes it fails (``error_kind == "protected"``)."""
        _check_text("name", name)
        if not name.isidentifier():
            raise ValueError(f"not a Python identifier: {name!r}")
        self._python_op("python_protect", _check_context_name(context), name)

    def jail_info(self) -> dict[str, Any]:
        """The jail Python runs in here, starting the worker if needed:
        ``{"tier": "full" | "reduced", "why": ..., "root": ..., "memory":
        ..., "kept": [...], "lost": [...]}``. ``root`` is the sandbox's ``/``
        as the code sees it: ``"/"`` in the full jail, the private host
        directory in the reduced tier (also ``$SBX_ROOT`` there).

        Raises:
            JailUnavailableError: No jail tier can start on this host (or
                ``require="full"`` and the full jail cannot).
        """
        return json.loads(self._python_op("jail_info"))

    def stop_python(self) -> None:
        """Stop the Python worker now (all contexts are lost; the next call
        starts a fresh one)."""
        self._python_op("python_stop")

    # ---- files ---------------------------------------------------------------------

    def read_file(self, path: str) -> str:
        """Read a file as text (UTF-8; invalid bytes are replaced).

        Raises:
            FileNotFoundError: The file does not exist.
            RuntimeError: The sandbox has been destroyed.
        """
        return self._on_path(path, lambda h, p: h.read_file(p).decode("utf-8", "replace"))

    def read_file_bytes(self, path: str) -> bytes:
        """Read a file as bytes.

        Raises:
            FileNotFoundError: The file does not exist.
            RuntimeError: The sandbox has been destroyed.
        """
        return self._on_path(path, lambda h, p: h.read_file(p))

    def write_file(self, path: str, content: str) -> None:
        """Write a text file (UTF-8), creating missing parent directories.

        Raises:
            TypeError: ``content`` is not str.
            CommandError: The path is a directory, or a quota is exceeded.
            RuntimeError: The sandbox has been destroyed.
        """
        def write(h: _sbx.Sandbox, p: str) -> None:
            if not isinstance(content, str):
                raise TypeError(f"content must be str, not {type(content).__name__} (use write_file_bytes)")
            h.write_file(p, content.encode("utf-8"), _sbx.WRITE_MKDIRS)

        self._on_path(path, write)

    def write_file_bytes(self, path: str, data: bytes) -> None:
        """Write a binary file, creating missing parent directories.

        Raises:
            TypeError: ``data`` is not bytes-like.
            CommandError: The path is a directory, or a quota is exceeded.
            RuntimeError: The sandbox has been destroyed.
        """
        def write(h: _sbx.Sandbox, p: str) -> None:
            if not isinstance(data, (bytes, bytearray, memoryview)):
                raise TypeError(f"data must be bytes, not {type(data).__name__}")
            h.write_file(p, data, _sbx.WRITE_MKDIRS)

        self._on_path(path, write)

    def list_files(self, path: str) -> list[str]:
        """List the entry names of a directory (sorted, without . and ..).

        Raises:
            FileNotFoundError: The directory does not exist.
            RuntimeError: The sandbox has been destroyed.
        """
        return self._on_path(path, lambda h, p: h.listnames(p))

    def exists(self, path: str) -> bool:
        """Whether a file or directory exists at ``path``.

        Raises:
            RuntimeError: The sandbox has been destroyed.
        """
        return self._on_path(path, lambda h, p: h.exists(p))

    def delete_file(self, path: str) -> None:
        """Delete a file, symlink or empty directory.

        Raises:
            FileNotFoundError: Nothing exists at ``path``.
            CommandError: A non-empty directory.
            RuntimeError: The sandbox has been destroyed.
        """
        self._on_path(path, lambda h, p: h.remove(p, False))

    # ---- tools for a model ------------------------------------------------------------

    def set_toolset(self, toolset: ToolsetInput | None) -> None:
        """Declares host tools once for this sandbox: every later
        ``execute_python`` (``from host_tools import call, search, NAME``)
        and the shell's ``tool`` command in ``bash`` reach them, without
        passing them again. A ``toolset=`` given to one ``execute_python``
        call adds to these for that call (its names win). ``None`` forgets
        them. The definitions are checked here (TypeError, ValueError)."""
        h = self._handle()
        tools = resolve_toolset(toolset) if toolset is not None else None
        if tools is not None and not tools[0]:
            tools = None
        bridge = _ToolBridge(tools) if tools else None
        try:
            if bridge is None:
                h.set_tools(None)
            else:
                h.set_tools(bridge.manifest, bridge.dispatch)
        except _sbx.Error as e:
            _raise_sbx(e)

    async def aset_toolset(self, toolset: ToolsetInput | None) -> None:
        """Async version of set_toolset()."""
        await self._to_thread(self.set_toolset, toolset)

    def agent_tools(self, format: str = "anthropic", **options: Any) -> AgentTools:  # noqa: A002
        """The sandbox as ready-made tools for a model API.

        Args:
            format: ``"anthropic"``, ``"openai"`` or ``"mcp"``: the shape of
                the definitions and of the results.
            options: ``max_output`` (bytes shown per stream, default 30000)
                and ``timeout`` (seconds of a call).

        Returns:
            AgentTools: ``definitions`` for the request, ``dispatch(call)``
            for each tool call of the response (see localsandbox.agent_tools).
        """
        return AgentTools(self, format, **options)

    # ---- history, snapshots, forks ------------------------------------------------

    def history(self, limit: int = 100) -> list[HistoryEntry]:
        """The most recent calls recorded in this sandbox, newest first.

        Args:
            limit: The maximum number of entries (0 gives none).

        Raises:
            RuntimeError: The sandbox has been destroyed.
        """
        h = self._handle()
        if isinstance(limit, bool) or not isinstance(limit, int):
            raise TypeError(f"limit must be an int, not {type(limit).__name__}")
        if limit < 0:
            raise ValueError(f"limit must be >= 0, got {limit}")
        if limit == 0:
            return []
        try:
            rows = h.history_list(min(limit, 2**31 - 1))
        except _sbx.Error as e:
            _raise_sbx(e)
        out = []
        for rid, name, params, result, error, status, started, completed, duration in rows:
            out.append(
                HistoryEntry(
                    id=rid,
                    name=name,
                    started_at=int(started),
                    completed_at=int(completed) if completed >= 0 else 0,
                    parameters=_json_or_text(params),
                    result=_json_or_text(result),
                    error=error,
                    status=status,
                    duration_ms=duration if duration >= 0 else 0.0,
                )
            )
        return out

    def export_snapshot(self) -> bytes:
        """The whole sandbox (files, kv, history) as bytes: a self-contained
        SQLite database. ``LocalSandbox(snapshot=...)`` restores it.

        Raises:
            RuntimeError: The sandbox has been destroyed.
        """
        h = self._handle()
        try:
            return h.snapshot()  # type: ignore[no-any-return]
        except _sbx.Error as e:
            _raise_sbx(e)

    def fork(self, path: str | os.PathLike[str] | None = None) -> LocalSandbox:
        """An independent copy of this sandbox (files, kv, history), with the
        same cwd, preset, limits and python_paths. The shell session and
        Python contexts are not copied: the fork starts them fresh.

        Args:
            path: Database file for the copy (must not exist). Without it the
                copy lives in memory.

        Raises:
            CommandError: ``path`` exists or its directory does not.
            RuntimeError: The sandbox has been destroyed.
        """
        h = self._handle()
        try:
            if path is not None:
                copy = h.fork(os.fspath(path))
                db_path: str | None = os.fspath(path)
            else:
                iso = _sbx.OPEN_PROCESS if self._isolation == "process" else 0
                copy = _sbx.Sandbox.from_snapshot(h.snapshot(), _DEFAULT_OPEN_FLAGS | iso)
                db_path = None
        except _sbx.Error as e:
            _raise_sbx(e, os.fspath(path) if path is not None else None)
        other = LocalSandbox.__new__(LocalSandbox)
        other._setup(copy, self._cwd, self._preset, dict(self._overrides), db_path, self._isolation)
        if self._python_paths:
            try:
                copy.python_set_paths(self._python_paths)
            except _sbx.Error as e:
                other.destroy()
                raise ValueError(e.message) from None
            other._python_paths = self._python_paths
        other._set_programs(getattr(self, "_programs", None))
        return other

    @contextmanager
    def transaction(self) -> Iterator[LocalSandbox]:
        """Group file, kv and history writes into one transaction: all of
        them happen or (on an exception) none. Much faster for many writes.

        Raises:
            RuntimeError: The sandbox has been destroyed.
        """
        h = self._handle()
        try:
            h.begin()
        except _sbx.Error as e:
            _raise_sbx(e)
        try:
            yield self
        except BaseException:
            if not self._destroyed:
                h.rollback()
            raise
        try:
            h.commit()
        except _sbx.Error as e:
            _raise_sbx(e)

    # ---- lifecycle --------------------------------------------------------------------

    def destroy(self) -> None:
        """Release the sandbox. An in-memory sandbox is freed; a ``path=``
        sandbox is closed and stays on disk. Safe to call twice;
        every other call afterwards raises RuntimeError.
        """
        lock = getattr(self, "_lock", None)
        if lock is None:  # a constructor that failed before the handle opened
            return
        with lock:
            if self._destroyed:
                return
            h = self._h
            self._closing = True  # a script stopped by the cancel reports "destroyed"
            h.cancel()
            try:
                h.close()  # waits for a call running in another thread
            except BaseException:
                self._closing = False  # refused: destroy() from one of its own callbacks
                raise
            self._destroyed = True
        _active.discard(self)

    def close(self) -> None:
        """Same as destroy()."""
        self.destroy()

    def __enter__(self) -> LocalSandbox:
        """Context manager entry: returns the sandbox."""
        return self

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        """Context manager exit: destroys the sandbox."""
        self.destroy()

    def __repr__(self) -> str:
        state = "destroyed" if self._destroyed else (self._db_path or "in memory")
        return f"<LocalSandbox {state} cwd={self._cwd!r} preset={self._preset.name}>"

    # ---- async twins ------------------------------------------------------------------

    async def abash(self, command: str, **kwargs: Any) -> BashResult:
        """Async version of bash().

        Runs on the sandbox's own C thread (no thread pool hop): a short call
        comes back without yielding to the event loop (the loop waits up to
        50 us for it, without the GIL); a longer one is awaited through an
        eventfd the loop watches. ``on_output`` and ``background`` go through
        ``asyncio.to_thread`` as before.
        """
        submit = getattr(self._h, "bash_submit", None)
        if (
            submit is None
            or self._destroyed
            or type(command) is not str
            or not self._shell_at_cwd
            or (kwargs and not kwargs.keys() <= {"timeout", "limits"})
        ):
            return await self._to_thread(self.bash, command, **kwargs)
        call_limits = None
        if kwargs:
            timeout = kwargs.get("timeout")
            limits = kwargs.get("limits")
            if limits is not None or timeout is not None:
                call_limits = {**self._shell_limits, **self._check_shell_limits(limits)}
                if timeout is not None:
                    call_limits["timeout_ms"] = _timeout_ms(timeout)
        started = time.perf_counter()
        ticket, outcome = submit(command, call_limits, True)
        if outcome is None:
            outcome = await self._runner_wait(ticket)
        if isinstance(outcome, BaseException):
            if isinstance(outcome, _sbx.Error):
                _raise_sbx(outcome)
            raise outcome
        return self._bash_finish(outcome, started)

    async def _runner_wait(self, ticket: int) -> Any:
        """The outcome of a bash_submit call still running: a future the
        eventfd's reader completes (one reader per loop while calls wait)."""
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[Any] = loop.create_future()
        h = self._h
        waiters = self._runner_waiters
        waiters[ticket] = fut
        loops = self._runner_loops
        fd = h.runner_fd()  # open until the handle object is freed
        if loops.get(loop, 0) == 0:
            loop.add_reader(fd, self._runner_ready, h)
        loops[loop] = loops.get(loop, 0) + 1
        try:
            return await fut
        except asyncio.CancelledError:
            if waiters.pop(ticket, None) is not None:
                h.bash_abandon(ticket)
            raise
        finally:
            loops[loop] -= 1
            if loops[loop] == 0:
                del loops[loop]
                loop.remove_reader(fd)

    def _runner_ready(self, h: Any) -> None:
        """The eventfd's reader: hands each finished call to its future."""
        for ticket, outcome in h.bash_collect():
            fut = self._runner_waiters.pop(ticket, None)
            if fut is None or fut.done():
                continue
            if fut.get_loop() is asyncio.get_running_loop():
                fut.set_result(outcome)
            else:
                fut.get_loop().call_soon_threadsafe(_settle, fut, outcome)

    async def aexecute_python(
        self,
        code: str,
        cwd: str | None = None,
        preload_packages: list[str] | None = None,
        toolset: ToolsetInput | None = None,
        **kwargs: Any,
    ) -> PythonResult:
        """Async version of execute_python(). Cancelling the task stops the
        code: it is interrupted (the context is kept) and, if that does not
        end it within the grace period, the worker is killed."""
        done = threading.Event()

        def call() -> PythonResult:
            try:
                return self.execute_python(code, cwd, preload_packages, toolset, **kwargs)
            finally:
                done.set()

        try:
            return await asyncio.to_thread(call)
        except asyncio.CancelledError:
            self._cancel_until(done)
            raise

    async def aread_file(self, path: str) -> str:
        """Async version of read_file()."""
        return await self._to_thread(self.read_file, path)

    async def aread_file_bytes(self, path: str) -> bytes:
        """Async version of read_file_bytes()."""
        return await self._to_thread(self.read_file_bytes, path)

    async def awrite_file(self, path: str, content: str) -> None:
        """Async version of write_file()."""
        await self._to_thread(self.write_file, path, content)

    async def awrite_file_bytes(self, path: str, data: bytes) -> None:
        """Async version of write_file_bytes()."""
        await self._to_thread(self.write_file_bytes, path, data)

    async def alist_files(self, path: str) -> list[str]:
        """Async version of list_files()."""
        return await self._to_thread(self.list_files, path)

    async def aexists(self, path: str) -> bool:
        """Async version of exists()."""
        return await self._to_thread(self.exists, path)

    async def adelete_file(self, path: str) -> None:
        """Async version of delete_file()."""
        await self._to_thread(self.delete_file, path)

    async def ahistory(self, limit: int = 100) -> list[HistoryEntry]:
        """Async version of history()."""
        return await self._to_thread(self.history, limit)

    async def aexport_snapshot(self) -> bytes:
        """Async version of export_snapshot()."""
        return await self._to_thread(self.export_snapshot)

    async def afork(self, path: str | os.PathLike[str] | None = None) -> LocalSandbox:
        """Async version of fork()."""
        return await self._to_thread(self.fork, path)

    async def areset_shell(self) -> None:
        """Async version of reset_shell()."""
        await self._to_thread(self.reset_shell)

    async def adestroy(self) -> None:
        """Async version of destroy()."""
        await asyncio.to_thread(self.destroy)


class _ToolBridge:
    """The host side of one execute_python() call's tools: the manifest the
    library registers (it validates payloads and results against the
    schemas, applies the timeouts, records each call in the history and ranks
    the tools for host_tools.search) and the dispatcher it calls for each
    host_tools.call from sandboxed code."""

    def __init__(self, tools: tuple[dict[str, ToolDefinition], dict[str, ToolHandler]]) -> None:
        self.definitions, self.handlers = tools
        self.manifest = [
            (
                d.name,
                d.description,
                _dumps(d.input_schema),
                _dumps(d.output_schema) if d.output_schema is not None else None,
                d.timeout_ms / 1000,
            )
            for d in self.definitions.values()
        ]

    def dispatch(self, name: str, payload_json: str) -> tuple[bool, str]:
        """One call from sandboxed code: (True, JSON result) or (False,
        error message). Runs on a library thread; never raises."""
        handler = self.handlers.get(name)
        if handler is None:
            return False, f"Tool {name!r} is not declared"
        try:
            value = call_handler(handler, json.loads(payload_json))
            return True, _dumps(value)
        except ValueError as exc:
            return False, f"validation_error: {exc}"
        except Exception as exc:  # noqa: BLE001 - reported to the sandboxed caller
            return False, f"{type(exc).__name__}: {exc}"
