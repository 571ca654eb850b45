"""LocalSandbox(files={PATH: Path(host_dir)}) copies a whole host tree
(sbx_import_dir): files, directories, modes, times and the symlinks that stay
inside the tree; a symlink pointing out of it is refused and nothing is
written. The sandbox's export_dir copies a tree back to a new host directory."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from localsandbox import LocalSandbox


def make_tree(root: Path) -> Path:
    src = root / "repo"
    (src / "pkg" / "sub").mkdir(parents=True)
    (src / "README.md").write_text("# repo\n")
    (src / "pkg" / "mod.py").write_text("X = 1\n")
    (src / "pkg" / "sub" / "data.bin").write_bytes(bytes(range(256)))
    (src / "run.sh").write_text("echo run\n")
    (src / "run.sh").chmod(0o755)
    (src / "pkg" / "link.md").symlink_to("../README.md")
    os.utime(src / "README.md", ns=(1_600_000_000_250_000_000, 1_600_000_000_250_000_000))
    return src


def test_files_accepts_a_host_directory(tmp_path: Path) -> None:
    src = make_tree(tmp_path)
    with LocalSandbox(files={"/data/repo": src, "notes.txt": "n"}) as s:
        assert s.read_file("/data/repo/README.md") == "# repo\n"
        assert s.read_file_bytes("/data/repo/pkg/sub/data.bin") == bytes(range(256))
        assert s.read_file("/data/repo/pkg/link.md") == "# repo\n"  # the symlink, followed
        assert s.read_file("/data/notes.txt") == "n"
        h = s._handle()
        assert h.readlink("/data/repo/pkg/link.md") == "../README.md"
        assert h.stat("/data/repo/run.sh").mode & 0o777 == 0o755
        assert h.stat("/data/repo/README.md").mtime == pytest.approx(1_600_000_000.25)
        assert sorted(s.list_files("/data/repo")) == ["README.md", "pkg", "run.sh"]
        assert s.history()[-1].name == "seed"


def test_files_refuses_a_symlink_out_of_the_tree(tmp_path: Path) -> None:
    src = make_tree(tmp_path)
    (src / "pkg" / "escape").symlink_to("/etc/passwd")
    with pytest.raises(ValueError, match="leaves the copied tree"):
        LocalSandbox(files={"/data/repo": src})


def test_relative_key_and_export_round_trip(tmp_path: Path) -> None:
    src = make_tree(tmp_path)
    with LocalSandbox(files={"repo": src}) as s:
        s._handle().export_dir("/data/repo", str(tmp_path / "back"))
    back = tmp_path / "back"
    assert (back / "pkg" / "sub" / "data.bin").read_bytes() == bytes(range(256))
    assert os.readlink(back / "pkg" / "link.md") == "../README.md"
    assert (back / "run.sh").stat().st_mode & 0o777 == 0o755
    assert (back / "README.md").stat().st_mtime_ns == 1_600_000_000_250_000_000


def test_a_missing_host_path_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(OSError):
        LocalSandbox(files={"/data/x": tmp_path / "missing"})
