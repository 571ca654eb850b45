"""localsandbox._sbx, the C extension: each binding of sbx.h, its argument
checks and its error objects."""

from __future__ import annotations

import errno
import gc
import os
import weakref

import pytest

from localsandbox import _sbx


@pytest.fixture
def h():  # type: ignore[no-untyped-def]
    s = _sbx.Sandbox(None, _sbx.OPEN_MEMORY)
    yield s
    s.close()


def test_error_attributes(h: _sbx.Sandbox) -> None:
    with pytest.raises(_sbx.Error) as info:
        h.read_file("/missing/x")
    e = info.value
    assert e.code == _sbx.FS
    assert e.errno == errno.ENOENT
    assert e.rc == _sbx.FS | (errno.ENOENT << 8)
    assert e.path == "/missing/x"
    assert e.message == str(e) == "read /missing/x: No such file or directory"


def test_open_flags_misuse() -> None:
    with pytest.raises(_sbx.Error) as info:
        _sbx.Sandbox(None, _sbx.OPEN_TEMP | _sbx.OPEN_MEMORY)
    assert info.value.code == _sbx.MISUSE
    with pytest.raises(_sbx.Error) as info:
        _sbx.Sandbox(None, 0)
    assert "path is NULL" in info.value.message
    with pytest.raises(_sbx.Error) as info:
        _sbx.Sandbox("/nonexistent-dir-sbx/x.db", _sbx.OPEN_NOCREATE)
    assert info.value.errno == errno.ENOENT


def test_readonly_file(tmp_path: os.PathLike[str]) -> None:
    db = os.path.join(tmp_path, "r.db")
    w = _sbx.Sandbox(db)
    w.write_file("/a", b"A", 0)
    w.close()
    r = _sbx.Sandbox(db, _sbx.OPEN_READONLY)
    assert r.read_file("/a") == b"A"
    with pytest.raises(_sbx.Error) as info:
        r.write_file("/b", b"B")
    assert info.value.code == _sbx.READONLY
    r.close()


def test_stat_and_listdir(h: _sbx.Sandbox) -> None:
    h.write_file("/d/f", b"12345", _sbx.WRITE_MKDIRS)
    h.symlink("/d/f", "/d/link")
    st = h.stat("/d/f")
    assert st.type == _sbx.TYPE_FILE and st.size == 5 and st.mode & 0o777 == 0o644
    assert isinstance(st.mtime, float) and st.mtime > 1_600_000_000
    assert h.stat("/d/link").type == _sbx.TYPE_FILE
    assert h.stat("/d/link", nofollow=True).type == _sbx.TYPE_SYMLINK
    assert h.stat("/d").type == _sbx.TYPE_DIR
    names = h.listdir("/d")
    assert [n for n, _, _ in names] == ["f", "link"]
    assert [t for _, _, t in names] == [_sbx.TYPE_FILE, _sbx.TYPE_SYMLINK]
    assert h.listnames("/d") == ["f", "link"]
    assert h.readlink("/d/link") == "/d/f"
    with pytest.raises(_sbx.Error) as info:
        h.readlink("/d/f")
    assert info.value.errno == errno.EINVAL


def test_mkdir_rename_remove(h: _sbx.Sandbox) -> None:
    h.mkdir("/a/b/c", parents=True)
    with pytest.raises(_sbx.Error) as info:
        h.mkdir("/a")
    assert info.value.errno == errno.EEXIST
    h.rename("/a/b", "/a/z")
    assert h.listnames("/a") == ["z"]
    with pytest.raises(_sbx.Error) as info:
        h.remove("/a")
    assert info.value.errno == errno.ENOTEMPTY
    h.remove("/a", recursive=True)
    assert not h.exists("/a")


def test_append(h: _sbx.Sandbox) -> None:
    h.write_file("/log", b"a\n")
    h.write_file("/log", b"b\n", _sbx.WRITE_APPEND)
    assert h.read_file("/log") == b"a\nb\n"


def test_non_utf8_names_round_trip(h: _sbx.Sandbox) -> None:
    name = os.fsdecode(b"/caf\xe9")  # not UTF-8: a surrogate escape
    h.write_file(name, b"x")
    assert h.listnames("/") == [name[1:]]
    assert h.read_file(b"/caf\xe9") == b"x"


def test_write_files_all_or_nothing(h: _sbx.Sandbox) -> None:
    h.write_files([("/s/a", b"A"), ("/s/b", memoryview(b"B"))], _sbx.WRITE_MKDIRS)
    assert h.listnames("/s") == ["a", "b"]
    with pytest.raises(_sbx.Error) as info:
        h.write_files([("/t/ok", b"1"), ("/s/a/under-a-file", b"2")], _sbx.WRITE_MKDIRS)
    assert info.value.path == "/s/a/under-a-file"
    assert not h.exists("/t/ok")


@pytest.mark.parametrize(
    "files, exc",
    [
        (5, TypeError),
        ([("/a",)], TypeError),
        ([["/a", b"x"]], TypeError),
        ([("/a", 5)], TypeError),
        ([(5, b"x")], TypeError),
        ([("/a\x00", b"x")], ValueError),
    ],
)
def test_write_files_bad_arguments(h: _sbx.Sandbox, files: object, exc: type) -> None:
    with pytest.raises(exc):
        h.write_files(files)
    assert h.listnames("/") == []


def test_write_files_empty(h: _sbx.Sandbox) -> None:
    h.write_files([])


def test_transactions_and_misuse(h: _sbx.Sandbox) -> None:
    h.begin()
    h.write_file("/x", b"1")
    h.begin()
    h.write_file("/y", b"2")
    h.rollback()
    h.commit()
    assert h.exists("/x") and not h.exists("/y")
    with pytest.raises(_sbx.Error) as info:
        h.commit()
    assert info.value.code == _sbx.MISUSE
    h.begin()
    with pytest.raises(_sbx.Error) as info:
        h.set_quota(max_bytes=10)
    assert info.value.code == _sbx.MISUSE
    h.rollback()


def test_quota(h: _sbx.Sandbox) -> None:
    # a new sandbox is bounded: 1 GiB, 100,000 inodes (docs/limits.md)
    assert h.get_quota() == {"max_bytes": 1 << 30, "max_inodes": 100000, "max_file_size": 0}
    h.set_quota(max_inodes=3)
    # the fields not given keep theirs
    assert h.get_quota() == {"max_bytes": 1 << 30, "max_inodes": 3, "max_file_size": 0}
    h.write_file("/a", b"")
    h.write_file("/b", b"")
    with pytest.raises(_sbx.Error) as info:
        h.write_file("/c", b"")
    assert info.value.errno == errno.ENOSPC
    with pytest.raises(OverflowError):
        h.set_quota(max_bytes=-1)


def test_kv_and_history(h: _sbx.Sandbox) -> None:
    h.kv_set("k", '{"a": 1}')
    assert h.kv_get("k") == '{"a": 1}'
    assert h.kv_get("missing") is None
    with pytest.raises(_sbx.Error) as info:
        h.kv_set("k", "{not json")
    assert info.value.code == _sbx.MISUSE
    assert h.kv_keys() == ["k"] and h.kv_keys(None) == ["k"] and h.kv_keys("x") == []
    i = h.history_start("tool", '{"p": 1}')
    h.history_finish(i, '{"r": 2}')
    with pytest.raises(_sbx.Error) as info:
        h.history_finish(i, None)
    assert info.value.code == _sbx.MISUSE
    with pytest.raises(_sbx.Error) as info:
        h.history_finish(999)
    assert info.value.code == _sbx.NOTFOUND
    with pytest.raises(_sbx.Error):
        h.history_start("")
    with pytest.raises(_sbx.Error):
        h.history_record("t", "{bad", "{}")
    assert h.history_list() == [
        (i, "tool", '{"p": 1}', '{"r": 2}', None, "success", *h.history_list()[0][6:])
    ]
    assert h.history_list(1)[0][0] == i


def test_snapshot_and_fork(h: _sbx.Sandbox, tmp_path: os.PathLike[str]) -> None:
    h.write_file("/f", b"data")
    snap = h.snapshot()
    other = _sbx.Sandbox.from_snapshot(snap)
    assert other.read_file("/f") == b"data"
    assert other.path == ""
    other.close()
    db = os.path.join(tmp_path, "fork.db")
    f = h.fork(db)
    assert f.path == db and f.read_file("/f") == b"data"
    f.close()
    with pytest.raises(_sbx.Error) as info:
        h.fork(db)
    assert info.value.errno == errno.EEXIST
    with pytest.raises(_sbx.Error) as info:
        _sbx.Sandbox.from_snapshot(b"garbage")
    assert info.value.code == _sbx.CORRUPT
    with pytest.raises(TypeError):
        _sbx.Sandbox.from_snapshot("text")  # type: ignore[arg-type]


def test_closed_handle() -> None:
    s = _sbx.Sandbox(None, _sbx.OPEN_TEMP)
    path = s.path
    assert os.path.exists(path) and not s.closed
    s.close()
    s.close()
    assert s.closed and not os.path.exists(path)
    for call in (lambda: s.read_file("/a"), lambda: s.kv_keys(), lambda: s.snapshot(),
                 lambda: s.path, lambda: s.begin(), lambda: s.history_list()):
        with pytest.raises(RuntimeError, match="destroyed"):
            call()


def test_garbage_collection_closes_the_handle() -> None:
    s = _sbx.Sandbox(None, _sbx.OPEN_TEMP)
    path = s.path
    ref = weakref.ref(s)
    del s
    gc.collect()
    assert ref() is None
    assert not os.path.exists(path)


@pytest.mark.parametrize(
    "call",
    [
        lambda h: h.read_file(5),
        lambda h: h.read_file(None),
        lambda h: h.write_file("/a", "text"),
        lambda h: h.write_file("/a", b"x", "flags"),
        lambda h: h.kv_get(b"key"),
        lambda h: h.kv_set("k", None),
        lambda h: h.history_start(None),
        lambda h: h.history_list("5"),
        lambda h: h.stat(),
        lambda h: h.rename("/a"),
        lambda h: h.fork(None),
    ],
)
def test_argument_types(h: _sbx.Sandbox, call) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(TypeError):
        call(h)


def test_init_twice_refused(h: _sbx.Sandbox) -> None:
    with pytest.raises(RuntimeError, match="twice"):
        h.__init__(None, _sbx.OPEN_MEMORY)  # type: ignore[misc]


def test_constants() -> None:
    assert _sbx.OK == 0 and _sbx.FS == 2 and _sbx.LIMIT == 9 and _sbx.JAIL == 12
