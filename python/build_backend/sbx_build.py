"""sbx_build: the PEP 517 build backend of the localsandbox package.

`pip install .` at the repository root builds the package with this module
(pyproject.toml names it with backend-path), so nothing is downloaded: it
needs no setuptools or wheel, only make, a C compiler and the Debian
libraries of scripts/deps.sh.

A wheel is made by running the Makefile's python-package target into
build/pip (the library, the worker and the extension, compiled for the
interpreter that runs pip) and zipping build/pip/python/localsandbox with the
dist-info files PEP 427 asks for. The sdist is the tracked source tree.
"""

from __future__ import annotations

import base64
import hashlib
import io
import os
import re
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BUILD = "build/pip"

__all__ = [
    "build_sdist",
    "build_wheel",
    "get_requires_for_build_sdist",
    "get_requires_for_build_wheel",
    "prepare_metadata_for_build_wheel",
]


def _project() -> dict[str, str]:
    """name, version, description, requires-python from pyproject.toml (a
    tiny reader for our own flat [project] table: tomllib is 3.11+ only)."""
    text = (ROOT / "pyproject.toml").read_text()
    section = text.split("[project]", 1)[1].split("\n[", 1)[0]
    out = {}
    for key in ("name", "version", "description", "requires-python", "license"):
        m = re.search(rf'^{key}\s*=\s*"([^"]*)"', section, re.M)
        if m:
            out[key] = m.group(1)
    return out


def _metadata() -> str:
    p = _project()
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {p['name']}",
        f"Version: {p['version']}",
        f"Summary: {p.get('description', '')}",
        f"Requires-Python: {p.get('requires-python', '>=3.11')}",
    ]
    if "license" in p:
        lines.append(f"License: {p['license']}")
    readme = ROOT / "docs" / "localsandbox.md"
    body = readme.read_text() if readme.exists() else ""
    lines.append("Description-Content-Type: text/markdown")
    return "\n".join(lines) + "\n\n" + body


def _tag() -> str:
    impl = f"cp{sys.version_info.major}{sys.version_info.minor}"
    plat = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return f"{impl}-{impl}-{plat}"


def _dist_info_name() -> str:
    p = _project()
    return f"{p['name'].replace('-', '_')}-{p['version']}.dist-info"


def get_requires_for_build_wheel(config_settings: dict | None = None) -> list[str]:
    """Nothing to install: the build uses make and the system compiler."""
    return []


def get_requires_for_build_sdist(config_settings: dict | None = None) -> list[str]:
    """Nothing to install."""
    return []


def _write_dist_info(directory: Path) -> str:
    name = _dist_info_name()
    d = directory / name
    d.mkdir(parents=True, exist_ok=True)
    (d / "METADATA").write_text(_metadata())
    (d / "WHEEL").write_text(
        f"Wheel-Version: 1.0\nGenerator: sbx_build\nRoot-Is-Purelib: false\nTag: {_tag()}\n"
    )
    (d / "top_level.txt").write_text("localsandbox\n")
    return name


def prepare_metadata_for_build_wheel(metadata_directory: str, config_settings: dict | None = None) -> str:
    """Writes the .dist-info directory without building anything."""
    return _write_dist_info(Path(metadata_directory))


def _make() -> Path:
    """Builds the package for this interpreter into build/pip; returns the
    package directory."""
    include = sysconfig.get_paths()["include"]
    jobs = os.environ.get("SBX_BUILD_JOBS", "2")
    cmd = [
        "make", "-C", str(ROOT), f"-j{jobs}", "--no-print-directory", f"B={BUILD}",
        f"PY={sys.executable}", f"PY_INC=-I{include}", "python-package",
    ]
    subprocess.run(cmd, check=True, stdout=sys.stderr)
    pkg = ROOT / BUILD / "python" / "localsandbox"
    if not any(pkg.glob("_sbx*.so")):
        raise RuntimeError(f"the extension was not built in {pkg}")
    return pkg


def _record_line(arcname: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{arcname},sha256={digest},{len(data)}"


def build_wheel(
    wheel_directory: str, config_settings: dict | None = None, metadata_directory: str | None = None
) -> str:
    """Builds the extension and zips the package into a wheel."""
    pkg = _make()
    p = _project()
    wheel_name = f"{p['name'].replace('-', '_')}-{p['version']}-{_tag()}.whl"
    meta = Path(wheel_directory) / ".sbx-metadata"
    info = _write_dist_info(meta)
    records = []
    path = Path(wheel_directory) / wheel_name
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:

        def add(arcname: str, data: bytes, mode: int = 0o644) -> None:
            zi = zipfile.ZipInfo(arcname, date_time=(2020, 1, 1, 0, 0, 0))
            zi.external_attr = (0o100000 | mode) << 16
            zi.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(zi, data)
            records.append(_record_line(arcname, data))

        for f in sorted(pkg.iterdir()):
            if f.is_file() and f.suffix != ".pyc":
                mode = 0o755 if os.access(f, os.X_OK) else 0o644
                add(f"localsandbox/{f.name}", f.read_bytes(), mode)
        for f in sorted((meta / info).iterdir()):
            add(f"{info}/{f.name}", f.read_bytes())
        records.append(f"{info}/RECORD,,")
        zf.writestr(f"{info}/RECORD", "\n".join(records) + "\n")
    for f in (meta / info).iterdir():
        f.unlink()
    (meta / info).rmdir()
    meta.rmdir()
    return wheel_name


def build_sdist(sdist_directory: str, config_settings: dict | None = None) -> str:
    """The tracked source tree (git ls-files) as NAME-VERSION.tar.gz."""
    p = _project()
    base = f"{p['name']}-{p['version']}"
    files = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files", "-z"], check=True, capture_output=True
    ).stdout.split(b"\0")
    name = f"{base}.tar.gz"
    with tarfile.open(Path(sdist_directory) / name, "w:gz") as tar:
        for rel in filter(None, files):
            src = ROOT / rel.decode()
            if src.is_file():
                tar.add(src, arcname=f"{base}/{rel.decode()}", recursive=False)
        pkg_info = io.BytesIO(_metadata().encode())
        ti = tarfile.TarInfo(f"{base}/PKG-INFO")
        ti.size = len(pkg_info.getvalue())
        tar.addfile(ti, pkg_info)
    return name
