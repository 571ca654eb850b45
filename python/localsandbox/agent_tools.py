"""Ready-made tools for a model: the sandbox as bash, python, a file editor,
upload and download, in the shape a model API wants.

``sandbox.agent_tools(format)`` gives an ``AgentTools`` whose
``definitions`` go into the API request as they are and whose ``dispatch``
takes the model's tool call and returns the message that answers it::

    tools = sandbox.agent_tools("anthropic")
    response = client.messages.create(..., tools=tools.definitions)
    results = [tools.dispatch(block) for block in response.content if block.type == "tool_use"]

Formats:

``"anthropic"``
    Definitions ``{"name", "description", "input_schema"}``; dispatch takes a
    ``tool_use`` block (dict or SDK object) and returns a ``tool_result``
    block. Anthropic's own bash tool (``{"command": ..., "restart": true}``)
    and text-editor tool (``str_replace_based_edit_tool`` with view, create,
    str_replace, insert, undo_edit) are served by the same names, so
    ``tools.anthropic_builtin_definitions()`` may be sent instead.
``"openai"``
    Chat Completions function tools; dispatch takes a ``tool_calls`` entry
    (``{"id", "function": {"name", "arguments"}}``) and returns a
    ``{"role": "tool", ...}`` message; a Responses API ``function_call`` item
    gets a ``function_call_output`` item.
``"mcp"``
    MCP tool definitions (``inputSchema``); dispatch takes tools/call params
    (``{"name", "arguments"}``) and returns a CallToolResult dict.

The tools answer the way ``sbx mcp`` does (the same texts): output over
``max_output`` bytes is cut in the middle, keeping head and tail, with a line
``[... N bytes (L lines) cut; the full output is in /tmp/.mcp-output/K.txt ...]``
and the whole output saved at that sandbox path. A tool's failure (a
non-zero exit, a missing file, a non-unique match, a path outside /) is a
result marked as an error for the model to read; arguments of the wrong shape
raise ``ToolCallError`` from ``run`` and become error results in ``dispatch``.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from localsandbox import _sbx
from localsandbox.exceptions import (
    CommandError,
    ExecutionLimitError,
    JailUnavailableError,
    LocalSandboxError,
    TimeoutError,
)

if TYPE_CHECKING:
    from localsandbox.core import LocalSandbox

__all__ = ["AgentTools", "ToolCallError", "ToolOutput", "truncate_output", "FORMATS"]

FORMATS = ("anthropic", "openai", "mcp")
OUTPUT_DIR = "/tmp/.mcp-output"
MAX_FILE = 8 << 20  # bytes of a file viewed or downloaded
UNDO_MAX = 64  # edits kept for undo_edit
LIST_MAX = 1000  # entries of a directory view

EDITOR = "str_replace_based_edit_tool"

# The definitions, in MCP's shape; the texts are those of `sbx mcp` (cli/mcp_tools.c).
_DEFINITIONS: list[dict[str, Any]] = [
    {
        "name": "bash",
        "description": "Run a bash script in the sandbox's persistent shell. The working directory, variables, "
        "functions and aliases persist between calls, like a terminal (default working directory /data). About "
        "140 Unix commands are built in (grep, sed, awk, jq, find, sort, tar, diff, sqlite3, python3, ...); there "
        "is no network and nothing of the host is visible. Returns stdout, stderr and the exit status. Long output "
        "is cut in the middle; the whole output is saved in a file whose path the result gives. Set restart to "
        "true to get a fresh shell.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "command": {"type": "string", "description": "The bash script to run."},
                "timeout": {
                    "type": "number",
                    "description": "Seconds before the command is stopped (default: the server's limit).",
                },
                "restart": {
                    "type": "boolean",
                    "description": "Restart the shell (cwd /data, fresh variables) instead of running a command.",
                },
            },
            "additionalProperties": False,
        },
    },
    {
        "name": "python",
        "description": "Run Python 3 code in the sandbox (CPython in a jail that sees the same files as bash; no "
        "network). Variables, imports and functions persist between calls in the same context. Returns stdout, "
        "stderr and the repr of a trailing expression; an exception comes back with its traceback.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "code": {"type": "string", "description": "Python source to run."},
                "context": {"type": "string", "description": 'Name of the persistent context (default "default").'},
                "timeout": {"type": "number", "description": "Seconds before the code is interrupted."},
            },
            "required": ["code"],
            "additionalProperties": False,
        },
    },
    {
        "name": EDITOR,
        "description": "View and edit files of the sandbox. Paths are absolute (/data/x.py). view: a file with line "
        "numbers (view_range [start, end], end -1 for the last line) or a directory listed two levels deep. "
        "create: write file_text to a new or existing file. str_replace: replace old_str, which must match exactly "
        "once, with new_str. insert: put insert_text after line insert_line (0 for the top). undo_edit: take back "
        "the last edit of path.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "command": {"type": "string", "enum": ["view", "create", "str_replace", "insert", "undo_edit"]},
                "path": {"type": "string", "description": "Absolute path of the file or directory."},
                "file_text": {"type": "string", "description": "create: the file's contents."},
                "old_str": {"type": "string", "description": "str_replace: the exact text to replace."},
                "new_str": {"type": "string", "description": "str_replace: the replacement (default empty)."},
                "insert_line": {
                    "type": "integer",
                    "minimum": 0,
                    "description": "insert: the line after which the text goes.",
                },
                "insert_text": {"type": "string", "description": "insert: the text to insert."},
                "view_range": {
                    "type": "array",
                    "items": {"type": "integer"},
                    "minItems": 2,
                    "maxItems": 2,
                    "description": "view: [first, last] line numbers, last -1 for the end.",
                },
            },
            "required": ["command", "path"],
        },
    },
    {
        "name": "upload",
        "description": "Write a whole file into the sandbox (parent directories are created; an existing file is "
        "replaced). Use encoding base64 for binary data.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "path": {"type": "string", "description": "Absolute sandbox path."},
                "content": {"type": "string", "description": "The file's contents."},
                "encoding": {
                    "type": "string",
                    "enum": ["text", "base64"],
                    "description": "How content is encoded (default text).",
                },
            },
            "required": ["path", "content"],
            "additionalProperties": False,
        },
    },
    {
        "name": "download",
        "description": "Read a whole file of the sandbox (at most 8 MiB). With encoding auto (the default), text "
        "comes back as it is and binary data as base64.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "path": {"type": "string", "description": "Absolute sandbox path."},
                "encoding": {"type": "string", "enum": ["auto", "text", "base64"]},
            },
            "required": ["path"],
            "additionalProperties": False,
        },
    },
]


class ToolCallError(ValueError):
    """A tool call the tools cannot run: an unknown tool or arguments of the
    wrong shape (MCP's -32602). ``dispatch`` turns it into an error result."""


@dataclass
class ToolOutput:
    """What a tool returns: the text for the model and whether it is an error.

    Attributes:
        text: The model-ready text (bounded as described in the module).
        is_error: The tool's work failed (the model should read and react).
        structured: Machine-readable extras (exit_code, encoding, ...).
        images: PNG bytes of the figures the python tool's code showed or
            left open (matplotlib), in order.
    """

    text: str
    is_error: bool = False
    structured: dict[str, Any] = field(default_factory=dict)
    images: list[bytes] = field(default_factory=list)


# ---- truncation (the algorithm of cli/mcp_tools.c, byte for byte) -----------------------


def truncate_output(data: bytes, max_bytes: int, where: str) -> bytes:
    """Cuts ``data`` to about ``max_bytes``: head and tail kept (at line ends
    when one falls in the second half of each budget, never inside a UTF-8
    sequence), with ``[... N bytes (L lines) cut; WHERE ...]`` between."""
    n = len(data)
    if n <= max_bytes:
        return data
    head_budget = max_bytes // 2
    tail_budget = max_bytes - head_budget
    head = head_budget
    i = head
    while i > head_budget // 2:
        if data[i - 1] == 0x0A:
            head = i
            break
        i -= 1
    while head > 0 and (data[head] & 0xC0) == 0x80:
        head -= 1
    tail = n - tail_budget
    i = tail
    while i < n - tail_budget // 2:
        if i > 0 and data[i - 1] == 0x0A:
            tail = i
            break
        i += 1
    while tail < n and (data[tail] & 0xC0) == 0x80:
        tail += 1
    lines = data.count(b"\n", head, tail)
    out = bytearray(data[:head])
    if head > 0 and data[head - 1] != 0x0A:
        out += b"\n"
    out += f"[... {tail - head} bytes ({lines} lines) cut; {where} ...]\n".encode()
    out += data[tail:]
    return bytes(out)


def _normalize(path: Any) -> str | None:
    """The absolute path with . and .. resolved, or None when it is relative
    or climbs above / (the rule of mcp_path_normalize)."""
    if not isinstance(path, str) or not path.startswith("/") or "\x00" in path:
        return None
    parts: list[str] = []
    for name in path.split("/"):
        if name in ("", "."):
            continue
        if name == "..":
            if not parts:
                return None
            parts.pop()
        else:
            parts.append(name)
    return "/" + "/".join(parts)


def _refused(path: Any) -> ToolOutput:
    return ToolOutput(
        f"refused path '{path}': paths must be absolute and stay inside / (no .. above it)", True
    )


def _get(obj: Any, key: str, default: Any = None) -> Any:
    """A field of a dict or an SDK object."""
    if isinstance(obj, Mapping):
        return obj.get(key, default)
    return getattr(obj, key, default)


def _is_text(data: bytes) -> bool:
    if b"\x00" in data:
        return False
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _count_lines(text: str) -> int:
    if not text:
        return 0
    n = text.count("\n")
    return n if text.endswith("\n") else n + 1


def _numbered(text: str, first: int, last: int) -> str:
    lines = text.split("\n")
    if text.endswith("\n"):
        lines.pop()
    return "".join(f"{k:6d}\t{lines[k - 1]}\n" for k in range(first, min(last, len(lines)) + 1))


class AgentTools:
    """The sandbox's tools for one model API format (see the module doc)."""

    def __init__(
        self,
        sandbox: LocalSandbox,
        format: str = "anthropic",  # noqa: A002 - the word callers use
        *,
        max_output: int = 30000,
        timeout: float | None = None,
    ) -> None:
        """
        Args:
            sandbox: The sandbox the tools run in.
            format: ``"anthropic"``, ``"openai"`` or ``"mcp"``.
            max_output: Bytes of one output stream shown to the model.
            timeout: Default seconds of a bash or python call (the model may
                ask for its own); None: the sandbox's limit.
        """
        if format not in FORMATS:
            raise ValueError(f"format must be one of {', '.join(FORMATS)}, got {format!r}")
        if isinstance(max_output, bool) or not isinstance(max_output, int) or max_output < 1000:
            raise ValueError("max_output must be an int of at least 1000")
        self.sandbox = sandbox
        self.format = format
        self.max_output = max_output
        self.timeout = timeout
        self._undo: list[tuple[str, bytes | None]] = []
        self._output_seq = 0

    # ---- definitions ------------------------------------------------------------

    @property
    def names(self) -> list[str]:
        """The tool names offered (python only when the jail is built in)."""
        return [d["name"] for d in _DEFINITIONS]

    @property
    def definitions(self) -> list[dict[str, Any]]:
        """The tool definitions in this format, ready for the API request."""
        out = []
        for d in _DEFINITIONS:
            if d["name"] not in self.names:
                continue
            schema = json.loads(json.dumps(d["inputSchema"]))
            if self.format == "anthropic":
                out.append({"name": d["name"], "description": d["description"], "input_schema": schema})
            elif self.format == "openai":
                out.append(
                    {
                        "type": "function",
                        "function": {"name": d["name"], "description": d["description"], "parameters": schema},
                    }
                )
            else:
                out.append({"name": d["name"], "description": d["description"], "inputSchema": schema})
        return out

    @staticmethod
    def anthropic_builtin_definitions() -> list[dict[str, Any]]:
        """Anthropic's own bash and text-editor tools, which ``dispatch`` serves."""
        return [
            {"type": "bash_20250124", "name": "bash"},
            {"type": "text_editor_20250728", "name": EDITOR},
        ]

    # ---- dispatch ----------------------------------------------------------------

    def dispatch(self, call: Any) -> dict[str, Any]:
        """Runs the model's tool call and returns the answer in this format."""
        if self.format == "anthropic":
            name, args, call_id = _get(call, "name"), _get(call, "input", {}), _get(call, "id")
        elif self.format == "openai":
            fn = _get(call, "function")
            if fn is not None:  # Chat Completions
                name, raw, call_id = _get(fn, "name"), _get(fn, "arguments", "{}"), _get(call, "id")
            else:  # the Responses API
                name, raw, call_id = _get(call, "name"), _get(call, "arguments", "{}"), _get(call, "call_id")
            try:
                args = json.loads(raw) if isinstance(raw, str) else raw
            except json.JSONDecodeError as e:
                args = None
                out = ToolOutput(f"invalid arguments: not JSON ({e})", True)
        else:
            name, args, call_id = _get(call, "name"), _get(call, "arguments", {}), None
        if args is not None or self.format != "openai":
            try:
                out = self.run(name, args if args is not None else {})
            except ToolCallError as e:
                out = ToolOutput(str(e), True)
        pngs = [base64.b64encode(i).decode("ascii") for i in out.images]
        if self.format == "anthropic":
            content: Any = out.text
            if pngs:  # figures as image blocks after the text
                content = [{"type": "text", "text": out.text}] + [
                    {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": d}}
                    for d in pngs
                ]
            return {"type": "tool_result", "tool_use_id": call_id, "content": content, "is_error": out.is_error}
        if self.format == "openai":
            text = out.text
            if pngs:  # tool results carry text only in this format
                text += f"\n[{len(pngs)} figure(s) made; images cannot be shown in this tool result]"
            if _get(call, "function") is None and _get(call, "call_id") is not None:
                return {"type": "function_call_output", "call_id": call_id, "output": text}
            return {"role": "tool", "tool_call_id": call_id, "content": text}
        result: dict[str, Any] = {
            "content": [{"type": "text", "text": out.text}]
            + [{"type": "image", "data": d, "mimeType": "image/png"} for d in pngs],
            "isError": out.is_error,
        }
        if out.structured:
            result["structuredContent"] = out.structured
        return result

    def run(self, name: Any, args: Any) -> ToolOutput:
        """Runs one tool by name with its arguments (a dict).

        Raises:
            ToolCallError: An unknown tool or arguments of the wrong shape.
        """
        if not isinstance(name, str) or name not in self.names:
            raise ToolCallError(f"Unknown tool: {name}")
        if not isinstance(args, Mapping):
            raise ToolCallError("invalid arguments: arguments must be an object")
        return getattr(self, "_tool_" + name)(dict(args))

    # ---- argument checks (the rules of cli/mcp_tools.c) ---------------------------

    @staticmethod
    def _arg(args: dict[str, Any], key: str, kind: type | tuple[type, ...], required: bool = False) -> Any:
        v = args.get(key)
        if v is None:
            if required:
                raise ToolCallError(f"invalid arguments: '{key}' is required")
            return None
        names = {str: "a string", bool: "a boolean", int: "an integer", list: "an array"}
        bad_bool = kind is not bool and isinstance(v, bool)
        if bad_bool or not isinstance(v, kind):
            what = "a number" if isinstance(kind, tuple) else names.get(kind, "valid")
            raise ToolCallError(f"invalid arguments: '{key}' must be {what}")
        return v

    @staticmethod
    def _only(args: dict[str, Any], keys: tuple[str, ...]) -> None:
        for k in args:
            if k not in keys:
                raise ToolCallError(f"invalid arguments: unknown argument '{k}'")

    def _bounded(self, data: bytes) -> bytes:
        if len(data) <= self.max_output:
            return data
        self._output_seq += 1
        while self.sandbox.exists(f"{OUTPUT_DIR}/{self._output_seq}.txt"):
            self._output_seq += 1
        path = f"{OUTPUT_DIR}/{self._output_seq}.txt"
        try:
            self.sandbox.write_file_bytes(path, data)
            where = f"the full output is in {path}"
        except LocalSandboxError as e:
            where = f"the full output could not be saved: {e}"
        return truncate_output(data, self.max_output, where)

    def _streams(self, out: bytes, err: bytes) -> bytearray:
        b = bytearray(self._bounded(out))
        if b and not b.endswith(b"\n"):
            b += b"\n"
        if err:
            b += b"[stderr]\n" + self._bounded(err)
            if not b.endswith(b"\n"):
                b += b"\n"
        return b

    # ---- bash ------------------------------------------------------------------

    def _tool_bash(self, args: dict[str, Any]) -> ToolOutput:
        self._only(args, ("command", "timeout", "restart"))
        command = self._arg(args, "command", str)
        timeout = self._arg(args, "timeout", (int, float))
        restart = self._arg(args, "restart", bool)
        if restart:
            self.sandbox.reset_shell()
            if command is None:
                return ToolOutput("The shell was restarted (cwd /data).")
        if command is None:
            raise ToolCallError("invalid arguments: 'command' is required")
        seconds = timeout if timeout and timeout > 0 else self.timeout
        limit = ""
        # The output as it streams: the errors of a limit do not carry it.
        streamed = {"stdout": bytearray(), "stderr": bytearray()}

        def collect(stream: str, data: bytes) -> None:
            streamed[stream] += data

        try:
            r = self.sandbox.bash(command, timeout=min(seconds, 3600) if seconds else None, on_output=collect)
            out, err, status = r.stdout_bytes, r.stderr_bytes, r.exit_code
        except CommandError as e:
            out, err, status = bytes(streamed["stdout"]), bytes(streamed["stderr"]), e.exit_code
        except (TimeoutError, ExecutionLimitError) as e:
            out, err, status = bytes(streamed["stdout"]), bytes(streamed["stderr"]), 126
            kind = "timeout" if isinstance(e, TimeoutError) else e.limit_type
            value = e.timeout_ms if isinstance(e, TimeoutError) else e.limit_value
            limit = f" [stopped: the {kind} limit ({value}) was reached]"
        b = self._streams(out, err)
        b += f"[exit status {status}]{limit}".encode()
        return ToolOutput(b.decode("utf-8", "replace"), status != 0, {"exit_code": status})

    # ---- python ----------------------------------------------------------------

    def _tool_python(self, args: dict[str, Any]) -> ToolOutput:
        self._only(args, ("code", "context", "timeout"))
        code = self._arg(args, "code", str, required=True)
        context = self._arg(args, "context", str) or "default"
        timeout = self._arg(args, "timeout", (int, float))
        seconds = timeout if timeout and timeout > 0 else self.timeout
        try:
            r = self.sandbox.execute_python(code, context=context, timeout=min(seconds, 3600) if seconds else None)
        except JailUnavailableError as e:
            return ToolOutput(f"Python is not available on this host: {e} (run 'sbx doctor' for details)", True)
        except (LocalSandboxError, ValueError) as e:
            return ToolOutput(f"python: {e}", True)
        # the traceback is at the end of stderr (PythonResult's convention)
        b = self._streams(r.stdout_bytes, r.stderr.encode())
        if r.error is not None and r.error not in r.stderr:
            b += (r.error + "\n").encode()
        elif r.error is None and r.return_value is not None:
            b += b"[value]\n" + self._bounded(r.return_value.encode())
        if not b:
            b += b"(no output)"
        return ToolOutput(b.decode("utf-8", "replace"), r.error is not None, {"value": r.return_value}, r.images)

    # ---- the editor --------------------------------------------------------------

    def _stat(self, path: str) -> Any:
        try:
            return self.sandbox._handle().stat(path)
        except _sbx.Error:
            return None

    def _read_text(self, path: str) -> str | ToolOutput:
        st = self._stat(path)
        if st is None:
            return ToolOutput(f"{path}: No such file or directory", True)
        if st.type == _sbx.TYPE_DIR:
            return ToolOutput(f"{path} is a directory", True)
        if st.size > MAX_FILE:
            return ToolOutput(f"{path} is too large for the editor ({st.size} bytes; the limit is {MAX_FILE})", True)
        data = self.sandbox.read_file_bytes(path)
        if b"\x00" in data:
            return ToolOutput(f"{path} is a binary file ({len(data)} bytes); use download to read it", True)
        return data.decode("utf-8", "replace")

    def _write_edit(self, path: str, text: str) -> ToolOutput | None:
        before = self.sandbox.read_file_bytes(path) if self._stat(path) is not None else None
        try:
            self.sandbox.write_file(path, text)
        except LocalSandboxError as e:
            return ToolOutput(f"{path}: {e}", True)
        self._undo.append((path, before))
        del self._undo[:-UNDO_MAX]
        return None

    def _snippet(self, path: str, text: str, first_changed: int, last_changed: int, what: str) -> ToolOutput:
        total = _count_lines(text)
        first = first_changed - 4 if first_changed > 4 else 1
        last = min(last_changed + 4, total)
        body = truncate_output(
            _numbered(text, first, last).encode(), self.max_output, "view the file with a view_range"
        ).decode("utf-8", "replace")
        return ToolOutput(
            f"The file {path} has been edited ({what}). Lines {first}-{last} now read:\n{body}"
            "Review the change; undo_edit takes it back."
        )

    def _tree(self, path: str, depth: int, budget: list[int]) -> str:
        out = []
        for name, _ino, kind in self.sandbox._handle().listdir(path):
            if budget[0] <= 0:
                break
            if name.startswith("."):
                continue
            child = f"{path.rstrip('/')}/{name}"
            is_dir = kind == _sbx.TYPE_DIR
            out.append(child + ("/" if is_dir else "") + "\n")
            budget[0] -= 1
            if is_dir and depth > 1:
                out.append(self._tree(child, depth - 1, budget))
        if budget[0] <= 0:
            out.append("[... more entries not shown ...]\n")
        return "".join(out)

    def _tool_str_replace_based_edit_tool(self, args: dict[str, Any]) -> ToolOutput:
        command = self._arg(args, "command", str, required=True)
        raw_path = self._arg(args, "path", str, required=True)
        file_text = self._arg(args, "file_text", str)
        old = self._arg(args, "old_str", str)
        new = self._arg(args, "new_str", str)
        line = self._arg(args, "insert_line", int)
        ins = self._arg(args, "insert_text", str)
        view_range = self._arg(args, "view_range", list)
        path = _normalize(raw_path)
        if path is None:
            return _refused(raw_path)
        if command == "view":
            st = self._stat(path)
            if st is None:
                return ToolOutput(f"{path}: No such file or directory", True)
            if st.type == _sbx.TYPE_DIR:
                if view_range is not None:
                    return ToolOutput(f"view_range is for files; {path} is a directory", True)
                return ToolOutput(
                    f"Files and directories up to 2 levels deep in {path}, hidden items excluded:\n"
                    + self._tree(path, 2, [LIST_MAX])
                )
            text = self._read_text(path)
            if isinstance(text, ToolOutput):
                return text
            total = _count_lines(text)
            first, last = 1, total
            if view_range is not None:
                if len(view_range) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) for v in view_range):
                    raise ToolCallError("invalid arguments: view_range must be two integers [first, last]")
                first, last = view_range
                last = total if last == -1 else last
                if first < 1 or first > max(total, 1) or last < first or last > total:
                    return ToolOutput(
                        f"invalid view_range [{view_range[0]}, {view_range[1]}]: {path} has {total} lines (first "
                        f"from 1 to {total}, last from first to {total}, or -1)",
                        True,
                    )
            body = truncate_output(
                _numbered(text, first, last).encode(), self.max_output, "view a smaller part with view_range"
            ).decode("utf-8", "replace")
            return ToolOutput(body + (f"({path} is empty)\n" if total == 0 else ""))
        if command == "create":
            if file_text is None:
                raise ToolCallError("invalid arguments: 'file_text' is required")
            st = self._stat(path)
            if st is not None and st.type == _sbx.TYPE_DIR:
                return ToolOutput(f"{path} is a directory", True)
            err = self._write_edit(path, file_text)
            return err or ToolOutput(f"File {'overwritten' if st is not None else 'created'} at {path}.")
        if command == "str_replace":
            if old is None:
                raise ToolCallError("invalid arguments: 'old_str' is required")
            text = self._read_text(path)
            if isinstance(text, ToolOutput):
                return text
            if old == "":
                return ToolOutput("old_str is empty; give the exact text to replace", True)
            count = text.count(old)
            if count != 1:
                if count == 0:
                    return ToolOutput(f"No replacement was performed: old_str does not appear verbatim in {path}.", True)
                starts, at = [], text.find(old)
                while at >= 0 and len(starts) < 20:
                    starts.append(str(text.count("\n", 0, at) + 1))
                    at = text.find(old, at + len(old))
                return ToolOutput(
                    f"No replacement was performed: old_str occurs {count} times in {path} (lines "
                    f"{', '.join(starts)}{', ...' if count > 20 else ''}). Include more context so that it matches "
                    "exactly once.",
                    True,
                )
            at = text.find(old)
            result = text[:at] + (new or "") + text[at + len(old):]
            err = self._write_edit(path, result)
            if err:
                return err
            first = text.count("\n", 0, at) + 1
            return self._snippet(path, result, first, first + _count_lines(new or ""), "str_replace")
        if command == "insert":
            ins = ins if ins is not None else new  # the older shape called it new_str
            if line is None or ins is None:
                raise ToolCallError(f"invalid arguments: '{'insert_text' if line is not None else 'insert_line'}' is required")
            text = self._read_text(path)
            if isinstance(text, ToolOutput):
                return text
            total = _count_lines(text)
            if line < 0 or line > total:
                return ToolOutput(f"invalid insert_line {line}: {path} has {total} lines (0 to {total})", True)
            off = 0
            for _ in range(line):
                nl = text.find("\n", off)
                off = nl + 1 if nl >= 0 else len(text)
            head = text[:off]
            if head and not head.endswith("\n"):
                head += "\n"
            middle = ins + ("\n" if ins and not ins.endswith("\n") and off < len(text) else "")
            result = head + middle + text[off:]
            err = self._write_edit(path, result)
            return err or self._snippet(path, result, line + 1, line + _count_lines(ins), "insert")
        if command == "undo_edit":
            for k in range(len(self._undo) - 1, -1, -1):
                if self._undo[k][0] == path:
                    _, before = self._undo.pop(k)
                    if before is None:
                        self.sandbox.delete_file(path)
                        return ToolOutput(f"Last edit of {path} undone: the file it created was removed.")
                    self.sandbox.write_file_bytes(path, before)
                    return ToolOutput(f"Last edit of {path} undone.")
            return ToolOutput(f"No edit of {path} to undo.", True)
        raise ToolCallError(
            f"invalid arguments: unknown command '{command}' (view, create, str_replace, insert, undo_edit)"
        )

    # ---- upload, download ----------------------------------------------------------

    def _tool_upload(self, args: dict[str, Any]) -> ToolOutput:
        self._only(args, ("path", "content", "encoding"))
        raw_path = self._arg(args, "path", str, required=True)
        content = self._arg(args, "content", str, required=True)
        encoding = self._arg(args, "encoding", str) or "text"
        if encoding not in ("text", "base64"):
            raise ToolCallError("invalid arguments: encoding must be text or base64")
        path = _normalize(raw_path)
        if path is None:
            return _refused(raw_path)
        if encoding == "base64":
            try:
                data = base64.b64decode("".join(content.split()), validate=True)
            except ValueError:
                return ToolOutput(f"upload {path}: content is not valid base64", True)
        else:
            data = content.encode("utf-8")
        try:
            self.sandbox.write_file_bytes(path, data)
        except LocalSandboxError as e:
            return ToolOutput(f"upload {path}: {e}", True)
        return ToolOutput(f"Wrote {len(data)} bytes to {path}.")

    def _tool_download(self, args: dict[str, Any]) -> ToolOutput:
        self._only(args, ("path", "encoding"))
        raw_path = self._arg(args, "path", str, required=True)
        encoding = self._arg(args, "encoding", str) or "auto"
        if encoding not in ("auto", "text", "base64"):
            raise ToolCallError("invalid arguments: encoding must be auto, text or base64")
        path = _normalize(raw_path)
        if path is None:
            return _refused(raw_path)
        st = self._stat(path)
        if st is None:
            return ToolOutput(f"download {path}: No such file or directory", True)
        if st.type == _sbx.TYPE_DIR:
            return ToolOutput(f"download {path}: Is a directory", True)
        if st.size > MAX_FILE:
            return ToolOutput(
                f"download {path}: {st.size} bytes is more than the {MAX_FILE} a download returns; read parts of "
                "it with bash (head, tail, split)",
                True,
            )
        data = self.sandbox.read_file_bytes(path)
        text = _is_text(data)
        if encoding == "text" and not text:
            return ToolOutput(f"download {path}: not UTF-8 text ({len(data)} bytes); use encoding base64", True)
        as_b64 = encoding == "base64" or not text
        body = base64.b64encode(data).decode() if as_b64 else data.decode("utf-8")
        return ToolOutput(body, False, {"path": path, "size": len(data), "encoding": "base64" if as_b64 else "text"})
