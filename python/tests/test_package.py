"""The package surface: exports, docstrings on every public name, type
hints, the py.typed marker, and the pip build backend's metadata."""

from __future__ import annotations

import inspect
import sys
import typing
from pathlib import Path

import localsandbox
from localsandbox import KVStore, LocalSandbox

ROOT = Path(__file__).resolve().parents[2]

PUBLISHED_NAMES = [
    "BashResult", "CommandError", "ExecutionLimitError", "ExecutionPreset", "FileNotFoundError",
    "HistoryEntry", "LocalSandbox", "LocalSandboxError", "PermissionError", "PythonToolset",
    "PythonResult", "SubprocessCrashed", "TimeoutError", "ToolDefinition",
    "function_to_tool_definition", "functions_to_toolset",
]


def _public_members(cls: type) -> list[tuple[str, object]]:
    return [(n, m) for n, m in vars(cls).items() if not n.startswith("_") or n in ("__init__", "__enter__", "__exit__")]


def test_published_names_are_exported() -> None:
    for name in PUBLISHED_NAMES:
        assert hasattr(localsandbox, name), name
        assert name in localsandbox.__all__


def test_published_module_paths() -> None:
    from localsandbox.core import JsonValue, PythonToolset, ToolDefinition  # noqa: F401
    from localsandbox.exceptions import TimeoutError  # noqa: F401


def test_every_public_name_has_a_docstring() -> None:
    missing = []
    for name in localsandbox.__all__:
        obj = getattr(localsandbox, name)
        if (inspect.isclass(obj) or inspect.isfunction(obj)) and not inspect.getdoc(obj):
            missing.append(name)
    for cls in (LocalSandbox, KVStore):
        for name, member in _public_members(cls):
            fn = member.fget if isinstance(member, property) else member
            if callable(fn) and not (fn.__doc__ or "").strip():
                missing.append(f"{cls.__name__}.{name}")
    assert missing == []


def test_every_public_method_is_annotated() -> None:
    for cls in (LocalSandbox, KVStore):
        for name, member in _public_members(cls):
            fn = member.fget if isinstance(member, property) else member
            if not inspect.isfunction(fn):
                continue
            hints = typing.get_type_hints(fn)
            assert "return" in hints, f"{cls.__name__}.{name}"
            params = [p for p in inspect.signature(fn).parameters if p not in ("self", "args", "kwargs")]
            assert all(p in hints for p in params), f"{cls.__name__}.{name}"


def test_async_twins() -> None:
    for name in ["bash", "execute_python", "read_file", "read_file_bytes", "write_file", "write_file_bytes",
                 "list_files", "exists", "delete_file", "history", "export_snapshot", "destroy", "fork",
                 "reset_shell"]:
        twin = getattr(LocalSandbox, "a" + name)
        assert inspect.iscoroutinefunction(twin), name
    for name in ["get", "set", "delete", "keys"]:
        assert inspect.iscoroutinefunction(getattr(KVStore, "a" + name))


def test_typed_package() -> None:
    pkg = Path(localsandbox.__file__).parent
    assert (pkg / "py.typed").exists()
    assert (pkg / "_sbx.pyi").exists()


def test_published_signature_defaults() -> None:
    sig = inspect.signature(LocalSandbox.__init__)
    assert [p for p in sig.parameters][1:5] == ["files", "snapshot", "cwd", "preset"]
    assert sig.parameters["cwd"].default == "/data"
    assert sig.parameters["preset"].default is localsandbox.ExecutionPreset.NORMAL
    ep = inspect.signature(LocalSandbox.execute_python)
    assert [p for p in ep.parameters][1:5] == ["code", "cwd", "preload_packages", "toolset"]
    assert inspect.signature(LocalSandbox.history).parameters["limit"].default == 100
    assert [f for f in localsandbox.BashResult.__dataclass_fields__][:4] == ["stdout", "stderr", "exit_code", "duration_ms"]
    assert [f for f in localsandbox.PythonResult.__dataclass_fields__][:4] == ["stdout", "stderr", "exit_code", "error"]
    assert [f for f in localsandbox.HistoryEntry.__dataclass_fields__][:6] == [
        "id", "name", "started_at", "completed_at", "parameters", "result"]
    assert localsandbox.ToolDefinition("n", "d", {}).timeout_ms == 30000


def test_build_backend_metadata(tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT / "python" / "build_backend"))
    try:
        import sbx_build
    finally:
        sys.path.pop(0)
    assert sbx_build.get_requires_for_build_wheel() == []
    name = sbx_build.prepare_metadata_for_build_wheel(str(tmp_path))
    meta = (tmp_path / name / "METADATA").read_text()
    assert "Name: localsandbox" in meta and "Requires-Python: >=3.11" in meta
    wheel = (tmp_path / name / "WHEEL").read_text()
    assert f"Tag: cp{sys.version_info.major}{sys.version_info.minor}-" in wheel
