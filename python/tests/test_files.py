"""File helpers and seeding: read_file(_bytes), write_file(_bytes), list_files,
exists, delete_file, and LocalSandbox(files=...)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

from localsandbox import CommandError, FileNotFoundError, LocalSandbox, LocalSandboxError


class TestSeeding:
    def test_seed_single_file(self) -> None:
        with LocalSandbox(files={"/home/user/data.txt": "seeded content"}) as sandbox:
            assert sandbox.read_file("/home/user/data.txt") == "seeded content"

    def test_seed_records_one_history_entry(self) -> None:
        with LocalSandbox(files={"/home/user/data.txt": "x", "/b.txt": "y"}) as sandbox:
            history = sandbox.history()
            assert len(history) == 1
            assert history[0].name == "seed"
            assert history[0].parameters == {"paths": ["/home/user/data.txt", "/b.txt"], "count": 2}
            assert history[0].result == {"success": True}

    def test_empty_files_dict_records_nothing(self) -> None:
        with LocalSandbox(files={}) as sandbox:
            assert sandbox.history() == []

    def test_seed_nested_directories(self) -> None:
        files = {"/project/src/main.py": 'print("hello")', "/project/tests/test_main.py": "def test(): pass"}
        with LocalSandbox(files=files) as sandbox:
            assert sandbox.read_file("/project/src/main.py") == 'print("hello")'
            assert sandbox.list_files("/project") == ["src", "tests"]

    @pytest.mark.parametrize("key", ["file.txt", "./file.txt", "/data/file.txt"])
    def test_relative_seed_paths_are_relative_to_cwd(self, key: str) -> None:
        with LocalSandbox(files={key: "original"}) as sandbox:
            assert sandbox.read_file("/data/file.txt") == "original"

    def test_relative_seed_paths_follow_a_custom_cwd(self) -> None:
        with LocalSandbox(files={"a.txt": "A"}, cwd="/work/here") as sandbox:
            assert sandbox.read_file("/work/here/a.txt") == "A"
            assert sandbox.cwd == "/work/here"

    def test_seed_from_path_text_and_binary(self) -> None:
        png = bytes([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        with tempfile.TemporaryDirectory() as d:
            text = Path(d) / "t.txt"
            text.write_text("content from local file")
            binary = Path(d) / "i.png"
            binary.write_bytes(png)
            with LocalSandbox(files={"/home/user/imported.txt": text, "/img.png": binary}) as sandbox:
                # the host file is read at construction: later changes do not show
                text.write_text("changed")
                assert sandbox.read_file("/home/user/imported.txt") == "content from local file"
                assert sandbox.read_file_bytes("/img.png") == png

    def test_seed_binary_and_empty_bytes(self) -> None:
        data = bytes([0x00, 0x01, 0x02, 0xFF, 0xFE, 0x89, 0x50, 0x4E, 0x47])
        with LocalSandbox(files={"/bin.bin": data, "/empty.bin": b""}) as sandbox:
            assert sandbox.read_file_bytes("/bin.bin") == data
            assert sandbox.read_file_bytes("/empty.bin") == b""

    def test_seed_missing_host_path_raises_before_creating(self) -> None:
        with pytest.raises(OSError):
            LocalSandbox(files={"/x": Path("/nonexistent/host/file")})

    def test_seed_bad_content_type(self) -> None:
        with pytest.raises(TypeError, match="must be str, bytes or pathlib.Path"):
            LocalSandbox(files={"/x": 123})  # type: ignore[dict-item]

    def test_seed_bad_key_type(self) -> None:
        with pytest.raises(TypeError, match="keys must be str"):
            LocalSandbox(files={1: "x"})  # type: ignore[dict-item]

    def test_files_must_be_a_mapping(self) -> None:
        with pytest.raises(TypeError, match="files must be a dict"):
            LocalSandbox(files=["/a"])  # type: ignore[arg-type]

    def test_seed_into_a_file_path_fails_cleanly(self) -> None:
        # /a is a file, so /a/b cannot be created: nothing is written at all
        with pytest.raises(CommandError):
            LocalSandbox(files={"/a": "file", "/a/b": "under a file"})

    def test_cwd_is_created(self) -> None:
        with LocalSandbox() as sandbox:
            assert sandbox.exists("/data")
            assert sandbox.cwd == "/data"

    @pytest.mark.parametrize("cwd", ["data", "", "relative/dir"])
    def test_relative_cwd_is_refused(self, cwd: str) -> None:
        with pytest.raises(ValueError, match="absolute"):
            LocalSandbox(cwd=cwd)


class TestFileHelpers:
    def test_write_then_read(self, sandbox: LocalSandbox) -> None:
        sandbox.write_file("/home/user/new.txt", "new content")
        assert sandbox.read_file("/home/user/new.txt") == "new content"

    def test_write_creates_parent_directories(self, sandbox: LocalSandbox) -> None:
        sandbox.write_file("/deep/nested/path/file.txt", "content")
        assert sandbox.exists("/deep/nested/path/file.txt") is True
        assert sandbox.list_files("/deep/nested") == ["path"]

    def test_write_replaces(self, sandbox: LocalSandbox) -> None:
        sandbox.write_file("/a.txt", "one two three")
        sandbox.write_file("/a.txt", "four")
        assert sandbox.read_file("/a.txt") == "four"

    def test_unicode_round_trip(self, sandbox: LocalSandbox) -> None:
        text = "héllo wörld ✓ 日本語 \U0001f600\n"
        sandbox.write_file("/u.txt", text)
        assert sandbox.read_file("/u.txt") == text
        assert sandbox.read_file_bytes("/u.txt") == text.encode()

    def test_bytes_round_trip(self, sandbox: LocalSandbox) -> None:
        data = bytes(range(256)) * 3
        sandbox.write_file_bytes("/home/user/b.bin", data)
        assert sandbox.read_file_bytes("/home/user/b.bin") == data

    def test_bytearray_and_memoryview(self, sandbox: LocalSandbox) -> None:
        sandbox.write_file_bytes("/a", bytearray(b"abc"))
        sandbox.write_file_bytes("/b", memoryview(b"xyz"))
        assert sandbox.read_file_bytes("/a") == b"abc"
        assert sandbox.read_file_bytes("/b") == b"xyz"

    def test_invalid_utf8_is_replaced_in_read_file(self, sandbox: LocalSandbox) -> None:
        sandbox.write_file_bytes("/bad", b"ok\xff\xfe")
        assert sandbox.read_file("/bad") == "ok\ufffd\ufffd"

    def test_nul_bytes_kept(self, sandbox: LocalSandbox) -> None:
        sandbox.write_file("/n", "a\x00b")
        assert sandbox.read_file_bytes("/n") == b"a\x00b"

    def test_large_file(self, sandbox: LocalSandbox) -> None:
        data = os.urandom(3 << 20)
        sandbox.write_file_bytes("/big", data)
        assert sandbox.read_file_bytes("/big") == data

    def test_relative_paths_use_cwd(self, sandbox: LocalSandbox) -> None:
        sandbox.write_file("rel.txt", "r")
        assert sandbox.read_file("/data/rel.txt") == "r"
        assert sandbox.exists("rel.txt")
        assert "rel.txt" in sandbox.list_files(".")
        sandbox.delete_file("rel.txt")
        assert not sandbox.exists("/data/rel.txt")

    def test_pathlike_paths(self, sandbox: LocalSandbox) -> None:
        from pathlib import PurePosixPath

        sandbox.write_file(PurePosixPath("/p/q.txt"), "pp")  # type: ignore[arg-type]
        assert sandbox.read_file(PurePosixPath("/p/q.txt")) == "pp"  # type: ignore[arg-type]

    def test_list_files(self) -> None:
        files = {"/home/user/dir/file1.txt": "a", "/home/user/dir/file2.txt": "b"}
        with LocalSandbox(files=files) as sandbox:
            assert sandbox.list_files("/home/user/dir") == ["file1.txt", "file2.txt"]

    def test_list_files_sorted_and_includes_dirs(self, sandbox: LocalSandbox) -> None:
        for name in ["b", "a", "c/d"]:
            sandbox.write_file(f"/l/{name}", name)
        assert sandbox.list_files("/l") == ["a", "b", "c"]

    def test_list_empty_dir(self, sandbox: LocalSandbox) -> None:
        assert sandbox.list_files("/data") == []

    def test_exists(self, sandbox: LocalSandbox) -> None:
        sandbox.write_file("/home/user/exists.txt", "content")
        assert sandbox.exists("/home/user/exists.txt") is True
        assert sandbox.exists("/home/user") is True
        assert sandbox.exists("/nonexistent/file.txt") is False
        # a path through a file is "does not exist", not an error
        assert sandbox.exists("/home/user/exists.txt/below") is False

    def test_delete_file(self, sandbox: LocalSandbox) -> None:
        sandbox.write_file("/home/user/todelete.txt", "content")
        sandbox.delete_file("/home/user/todelete.txt")
        assert sandbox.exists("/home/user/todelete.txt") is False

    def test_delete_empty_directory(self, sandbox: LocalSandbox) -> None:
        sandbox.write_file("/d/x", "x")
        sandbox.delete_file("/d/x")
        sandbox.delete_file("/d")
        assert not sandbox.exists("/d")


class TestFileErrors:
    def test_read_missing_raises_file_not_found(self, sandbox: LocalSandbox) -> None:
        with pytest.raises(FileNotFoundError) as info:
            sandbox.read_file("/nonexistent/file.txt")
        err = info.value
        assert err.path == "/nonexistent/file.txt"
        assert str(err) == "File not found: /nonexistent/file.txt"
        assert "No such file or directory" in err.stderr
        assert err.exit_code == 1
        assert isinstance(err, CommandError)
        assert isinstance(err, LocalSandboxError)

    def test_read_bytes_missing(self, sandbox: LocalSandbox) -> None:
        with pytest.raises(FileNotFoundError):
            sandbox.read_file_bytes("/nope")

    def test_relative_missing_path_is_reported_absolute(self, sandbox: LocalSandbox) -> None:
        with pytest.raises(FileNotFoundError) as info:
            sandbox.read_file("missing.txt")
        assert info.value.path == "/data/missing.txt"

    def test_list_missing_dir(self, sandbox: LocalSandbox) -> None:
        with pytest.raises(FileNotFoundError) as info:
            sandbox.list_files("/does/not/exist")
        assert info.value.path == "/does/not/exist"

    def test_list_a_file_is_not_found_as_a_directory(self, sandbox: LocalSandbox) -> None:
        sandbox.write_file("/f", "x")
        with pytest.raises(FileNotFoundError):
            sandbox.list_files("/f")

    def test_delete_missing(self, sandbox: LocalSandbox) -> None:
        with pytest.raises(FileNotFoundError):
            sandbox.delete_file("/nope")

    def test_delete_non_empty_directory(self, sandbox: LocalSandbox) -> None:
        sandbox.write_file("/d/x", "x")
        with pytest.raises(CommandError) as info:
            sandbox.delete_file("/d")
        assert "not empty" in str(info.value)
        assert sandbox.exists("/d/x")

    def test_read_a_directory(self, sandbox: LocalSandbox) -> None:
        with pytest.raises(CommandError) as info:
            sandbox.read_file("/data")
        assert "Is a directory" in str(info.value)
        assert not isinstance(info.value, FileNotFoundError)

    def test_write_over_a_directory(self, sandbox: LocalSandbox) -> None:
        with pytest.raises(CommandError, match="Is a directory"):
            sandbox.write_file("/data", "x")

    def test_write_under_a_file(self, sandbox: LocalSandbox) -> None:
        sandbox.write_file("/f", "x")
        with pytest.raises(CommandError):
            sandbox.write_file("/f/g", "y")
        assert sandbox.read_file("/f") == "x"

    @pytest.mark.parametrize("bad", [None, 1, b"/bytes", ["/a"]])
    def test_bad_path_types(self, sandbox: LocalSandbox, bad: object) -> None:
        with pytest.raises(TypeError, match="path must be str"):
            sandbox.read_file(bad)  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            sandbox.exists(bad)  # type: ignore[arg-type]

    def test_write_file_needs_str(self, sandbox: LocalSandbox) -> None:
        with pytest.raises(TypeError, match="use write_file_bytes"):
            sandbox.write_file("/a", b"bytes")  # type: ignore[arg-type]

    def test_write_file_bytes_needs_bytes(self, sandbox: LocalSandbox) -> None:
        with pytest.raises(TypeError, match="data must be bytes"):
            sandbox.write_file_bytes("/a", "text")  # type: ignore[arg-type]

    def test_nul_in_path(self, sandbox: LocalSandbox) -> None:
        with pytest.raises(ValueError):
            sandbox.write_file("/a\x00b", "x")

    def test_overlong_name(self, sandbox: LocalSandbox) -> None:
        with pytest.raises(CommandError, match="File name too long"):
            sandbox.write_file("/" + "n" * 300, "x")
        assert sandbox.exists("/" + "n" * 300) is False

    def test_quota_max_file_size(self) -> None:
        with LocalSandbox(limits={"max_file_size": 1000}) as sandbox:
            sandbox.write_file_bytes("/ok", b"x" * 1000)
            with pytest.raises(CommandError) as info:
                sandbox.write_file_bytes("/big", b"x" * 1001)
            assert info.value.errno == 27  # EFBIG  # type: ignore[attr-defined]
            assert not sandbox.exists("/big")

    def test_quota_max_bytes(self) -> None:
        with LocalSandbox(limits={"max_bytes": 5000}) as sandbox:
            sandbox.write_file_bytes("/a", b"x" * 4000)
            with pytest.raises(CommandError, match="No space left"):
                sandbox.write_file_bytes("/b", b"x" * 2000)


class TestFileHistory:
    """Each file helper leaves the library's row (the shape the C API, the
    CLI and sbx mcp leave too): the paths and sizes, never the contents."""

    def test_file_helpers_record_one_row_each(self) -> None:
        with LocalSandbox() as sandbox:
            sandbox.write_file("/d/a.txt", "hello")
            assert sandbox.read_file("/d/a.txt") == "hello"
            assert sandbox.list_files("/d") == ["a.txt"]
            assert sandbox.exists("/d/a.txt")  # a query: no row
            sandbox.delete_file("/d/a.txt")
            with pytest.raises(FileNotFoundError):
                sandbox.read_file("/d/a.txt")
            rows = [(e.name, e.parameters, e.result, e.error) for e in sandbox.history()]
            assert rows == [
                ("read_file", {"path": "/d/a.txt"}, None, "read /d/a.txt: No such file or directory"),
                ("remove", {"path": "/d/a.txt"}, {}, None),
                ("list_dir", {"path": "/d"}, {"entries": 1}, None),
                ("read_file", {"path": "/d/a.txt"}, {"bytes": 5}, None),
                ("write_file", {"path": "/d/a.txt", "size": 5, "mode": 0o644, "mkdirs": 1}, {"bytes": 5}, None),
            ]

    def test_history_max_age_is_checked_and_applied(self) -> None:
        with pytest.raises(ValueError):
            LocalSandbox(history_max_age=-1)
        with pytest.raises(TypeError):
            LocalSandbox(history_max_age="1")  # type: ignore[arg-type]
        with LocalSandbox(history_max_age=3600, history_limit=3) as sandbox:
            for i in range(5):
                sandbox.bash(f"echo {i}")
            assert [e.parameters["command"] for e in sandbox.history()] == ["echo 4", "echo 3", "echo 2"]
