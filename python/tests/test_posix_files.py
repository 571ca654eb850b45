"""POSIX file semantics over the jail's FUSE view of the store, as real
tools need them (issue 16, parts 3 and 4): unlinked-but-open files, rename
over an open file, O_TMPFILE, shared and private mmap, flock and
fcntl locks (and a SQLite WAL database shared by two processes), fsync,
hard links, utimensat, sparse files; the store stays
consistent (an orphan is freed at its last close, and when the worker goes
away with the file still open); git in /data; and the agent's development
loop end to end: write a package and its tests, pytest fails, fix with the
shell's sed -i, pytest passes, git commit, make.

Collected only when the extension was built with the Python worker and the
shell (conftest.py). CPython's own file tests run in scripts/suites/
cpython-files.sh."""

from __future__ import annotations

import sqlite3
import textwrap
import time
from pathlib import Path
from typing import Iterator

import pytest

from localsandbox import LocalSandbox



def py(sb: LocalSandbox, code: str, timeout: float = 60) -> str:
    """Runs code in the jail; returns stdout, failing the test on any error."""
    r = sb.execute_python(textwrap.dedent(code), timeout=timeout)
    assert r.error_kind is None, (r.error_kind, r.stderr)
    return r.stdout


def store_rows(path: Path, sql: str) -> int:
    db = sqlite3.connect(path)
    try:
        return db.execute(sql).fetchone()[0]
    finally:
        db.close()


def orphans_soon(path: Path, want: int) -> int:
    """The orphan count once it is `want`, or after 5 s: the kernel sends a
    file's release to the server after close() has returned."""
    deadline = time.monotonic() + 5
    while True:
        n = store_rows(path, "SELECT count(*) FROM sbx_orphan")
        if n == want or time.monotonic() > deadline:
            return n
        time.sleep(0.02)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """The store file of file_sandbox, for the tests that read its tables."""
    return tmp_path / "s.db"


@pytest.fixture
def file_sandbox(db: Path) -> Iterator[LocalSandbox]:
    """A sandbox over the file db, destroyed after the test (a test may
    destroy it first: destroy() is safe to call twice)."""
    sb = LocalSandbox(path=db)
    yield sb
    sb.destroy()


def has_orphan_table(path: Path) -> bool:
    return store_rows(path, "SELECT count(*) FROM sqlite_master WHERE name = 'sbx_orphan'") == 1


class TestUnlinkedOpenFiles:
    def test_temporary_file_truncate_read_write_fstat(self, sandbox: LocalSandbox) -> None:
        # what pytest's default capture does (it failed with ENOENT)
        out = py(sandbox, """
            import os, tempfile
            f = tempfile.TemporaryFile(dir="/data")
            f.write(b"captured output"); f.flush()
            f.truncate(8); f.seek(0)
            st = os.fstat(f.fileno())
            print(f.read(), st.st_size, st.st_nlink)
            f.seek(0); f.truncate(); f.write(b"again"); f.seek(0); print(f.read())
            f.close()
            print(sorted(os.listdir("/data")))
        """)
        assert out == "b'captured' 8 0\nb'again'\n[]\n"

    def test_unlink_then_use_then_close_frees_the_inode(self, file_sandbox: LocalSandbox, db: Path) -> None:
        sb = file_sandbox
        out = py(sb, """
            import os
            f = open("/data/victim", "w+b")
            f.write(b"x" * 100000); f.flush()
            os.unlink("/data/victim")
            print(os.path.exists("/data/victim"), os.fstat(f.fileno()).st_size)
        """)
        assert out == "False 100000\n"
        # the shell does not see it; the store keeps it while it is open
        assert sandbox_ls(sb) == ""
        assert store_rows(db, "SELECT count(*) FROM sbx_orphan") == 1
        out = py(sb, """
            f.seek(50000); print(len(f.read())); f.close()
        """)
        assert out == "50000\n"
        assert orphans_soon(db, 0) == 0
        assert store_rows(db, "SELECT count(*) FROM fs_inode WHERE nlink = 0") == 0

    def test_worker_gone_with_file_open_leaves_no_orphan(self, file_sandbox: LocalSandbox, db: Path) -> None:
        sb = file_sandbox
        py(sb, """
            import os
            keep = open("/data/gone", "wb"); keep.write(b"data" * 1000); keep.flush()
            os.unlink("/data/gone")
        """)
        assert store_rows(db, "SELECT count(*) FROM sbx_orphan") == 1
        sb.destroy()  # stops the worker: the kernel never releases the file
        assert has_orphan_table(db)
        assert store_rows(db, "SELECT count(*) FROM sbx_orphan") == 0
        assert store_rows(db, "SELECT count(*) FROM fs_inode WHERE nlink = 0") == 0
        assert store_rows(db, "SELECT count(*) FROM fs_data d LEFT JOIN fs_inode i USING (ino) WHERE i.ino IS NULL") == 0

    def test_ftruncate_through_a_descriptor_of_a_read_only_mode_file(self, sandbox: LocalSandbox) -> None:
        out = py(sandbox, """
            import os
            fd = os.open("/data/ro", os.O_CREAT | os.O_RDWR, 0o444)
            os.write(fd, b"abcdef"); os.ftruncate(fd, 2)
            print(os.fstat(fd).st_size, oct(os.fstat(fd).st_mode & 0o777)); os.close(fd)
            try:
                os.truncate("/data/ro", 0)
            except PermissionError:
                print("truncate by path refused")
        """)
        assert out == "2 0o444\ntruncate by path refused\n"

    def test_rename_over_an_open_file(self, sandbox: LocalSandbox) -> None:
        out = py(sandbox, """
            import os
            with open("/data/conf", "w") as f: f.write("old")
            reader = open("/data/conf")
            with open("/data/conf.tmp", "w") as f: f.write("new!")
            os.replace("/data/conf.tmp", "/data/conf")
            print(reader.read(), open("/data/conf").read(), os.fstat(reader.fileno()).st_nlink)
            reader.close()
        """)
        assert out == "old new! 0\n"

    def test_o_tmpfile(self, file_sandbox: LocalSandbox, db: Path) -> None:
        sb = file_sandbox
        out = py(sb, """
            import os, tempfile
            fd = os.open("/data", os.O_TMPFILE | os.O_RDWR, 0o600)
            os.write(fd, b"no name"); os.ftruncate(fd, 5); os.lseek(fd, 0, 0)
            st = os.fstat(fd)
            print(os.read(fd, 100), st.st_nlink, oct(st.st_mode), os.listdir("/data"))
        """)
        assert out == "b'no na' 0 0o100600 []\n"
        assert store_rows(db, "SELECT count(*) FROM sbx_orphan") == 1
        out = py(sb, """
            os.close(fd)
            with tempfile.TemporaryFile(dir="/data") as f:  # O_TMPFILE now
                f.write(b"ok"); f.seek(0); print(f.read(), f.name == f.fileno())
            print(os.listdir("/data"))
        """)
        assert out == "b'ok' True\n[]\n"
        assert orphans_soon(db, 0) == 0
        assert store_rows(db, "SELECT count(*) FROM fs_inode WHERE nlink = 0") == 0


def sandbox_ls(sb: LocalSandbox) -> str:
    r = sb.bash("ls -A /data")
    assert r.exit_code == 0
    return r.stdout


class TestFileSemantics:
    def test_shared_and_private_mmap(self, sandbox: LocalSandbox) -> None:
        out = py(sandbox, """
            import mmap
            with open("/data/m", "wb") as f: f.write(b"." * 10000)
            with open("/data/m", "r+b") as f:
                m = mmap.mmap(f.fileno(), 0)
                m[0:5] = b"HELLO"; m[9995:] = b"WORLD"; m.flush(); m.close()
            with open("/data/m", "r+b") as f:
                p = mmap.mmap(f.fileno(), 0, flags=mmap.MAP_PRIVATE)
                p[0:5] = b"xxxxx"; print(p[0:5]); p.close()
            data = open("/data/m", "rb").read()
            print(data[:5], data[-5:], len(data))
        """)
        assert out == "b'xxxxx'\nb'HELLO' b'WORLD' 10000\n"
        # the shell sees what the shared map wrote
        assert sandbox.bash("head -c 5 /data/m").stdout == "HELLO"

    def test_flock_and_fcntl_locks_exclude_another_process(self, sandbox: LocalSandbox) -> None:
        out = py(sandbox, """
            import fcntl, subprocess, sys
            f = open("/data/lock", "w")
            fcntl.flock(f, fcntl.LOCK_EX)
            fcntl.lockf(f, fcntl.LOCK_EX)
            probe = '''
            import fcntl, sys
            f = open("/data/lock", "r+")
            for name, take in (("flock", lambda: fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)),
                               ("lockf", lambda: fcntl.lockf(f, fcntl.LOCK_EX | fcntl.LOCK_NB))):
                try:
                    take(); print(name, "taken")
                except OSError:
                    print(name, "busy")
            '''
            run = lambda: subprocess.run(["/usr/bin/python3", "-c", probe],
                                         capture_output=True, text=True).stdout
            print(run(), end="")
            fcntl.lockf(f, fcntl.LOCK_UN); fcntl.flock(f, fcntl.LOCK_UN)
            print(run(), end="")
        """)
        assert out == "flock busy\nlockf busy\nflock taken\nlockf taken\n"

    def test_sqlite_wal_database_shared_by_two_processes(self, sandbox: LocalSandbox) -> None:
        # WAL maps its -shm file shared and locks with fcntl
        out = py(sandbox, """
            import sqlite3, subprocess
            db = sqlite3.connect("/data/app.db")
            print(db.execute("pragma journal_mode=wal").fetchone()[0])
            db.execute("create table t(x)"); db.execute("insert into t values (1)"); db.commit()
            child = '''
            import sqlite3
            c = sqlite3.connect('/data/app.db', timeout=0.2)
            print(c.execute('select count(*) from t').fetchone()[0])
            try:
                c.execute('begin immediate'); print('writer lock taken')
            except sqlite3.OperationalError as e:
                print('busy:', e)
            '''
            run = lambda: subprocess.run(["/usr/bin/python3", "-c", child], capture_output=True, text=True).stdout
            db.execute("begin immediate"); db.execute("insert into t values (2)")
            print(run(), end="")
            db.commit()
            print(run(), end="")
        """)
        assert out == "wal\n1\nbusy: database is locked\n2\nwriter lock taken\n"

    def test_hard_links_times_fsync_and_sparse_files(self, sandbox: LocalSandbox) -> None:
        out = py(sandbox, """
            import os
            with open("/data/a", "wb") as f:
                f.write(b"one"); f.flush(); os.fsync(f.fileno()); os.fdatasync(f.fileno())
            os.link("/data/a", "/data/b")
            with open("/data/b", "ab") as f: f.write(b"+two")
            print(open("/data/a", "rb").read(), os.stat("/data/a").st_nlink,
                  os.stat("/data/a").st_ino == os.stat("/data/b").st_ino)
            os.utime("/data/a", ns=(1_000_000_001, 1_234_567_891))
            st = os.stat("/data/b")
            print(st.st_atime_ns, st.st_mtime_ns)
            fd = os.open("/data/a", os.O_RDONLY)
            os.utime(fd, ns=(5, 7)); print(os.stat("/data/a").st_mtime_ns); os.close(fd)
            with open("/data/sparse", "wb") as f:
                f.seek(700 << 20); f.write(b"end")
            with open("/data/sparse", "rb") as f:
                f.seek(350 << 20); mid = f.read(4); f.seek(-3, 2); tail = f.read()
            print(os.stat("/data/sparse").st_size, mid, tail)
        """)
        assert out == ("b'one+two' 2 True\n1000000001 1234567891\n7\n"
                       "%d b'\\x00\\x00\\x00\\x00' b'end'\n" % ((700 << 20) + 3))


class TestGitAndTheDevelopmentLoop:
    GIT_ENV = {"GIT_AUTHOR_NAME": "Agent", "GIT_AUTHOR_EMAIL": "agent@example.com",
               "GIT_COMMITTER_NAME": "Agent", "GIT_COMMITTER_EMAIL": "agent@example.com",
               "GIT_AUTHOR_DATE": "2024-01-02T03:04:05Z", "GIT_COMMITTER_DATE": "2024-01-02T03:04:05Z",
               "HOME": "/data", "PATH": "/usr/bin:/bin", "LANG": "C"}

    def sh(self, sb: LocalSandbox, cmd: str, cwd: str = "/data/proj") -> tuple[int, str]:
        """Runs a host command in the jail through subprocess."""
        r = sb.execute_python(
            "import subprocess\n"
            f"_r = subprocess.run({cmd!r}, shell=True, cwd={cwd!r}, env={self.GIT_ENV!r},\n"
            "    stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)\n"
            "print(_r.returncode); print(_r.stdout, end='')\n",
            timeout=120,
        )
        assert r.error_kind is None, r.stderr
        code, _, out = r.stdout.partition("\n")
        return int(code), out

    def test_git_workflow(self, sandbox: LocalSandbox) -> None:
        sandbox.bash("mkdir -p /data/proj && cd /data/proj && printf 'a\\nb\\n' > f.txt && mkdir sub && echo x > sub/y")
        code, out = self.sh(sandbox, "git init -q -b main && git add -A && git commit -q -m first && git log --format='%s %an'")
        assert (code, out) == (0, "first Agent\n")
        sandbox.bash("cd /data/proj && sed -i 's/b/B/' f.txt && echo new > n.txt")
        code, out = self.sh(sandbox, "git status --short && git diff --stat")
        assert code == 0
        assert out == " M f.txt\n?? n.txt\n f.txt | 2 +-\n 1 file changed, 1 insertion(+), 1 deletion(-)\n"
        code, out = self.sh(sandbox, "git checkout -q -b feature && git add -A && git commit -q -m second "
                                     "&& git branch && git log --oneline | wc -l && git checkout -q main && cat f.txt")
        assert (code, out) == (0, "* feature\n  main\n2\na\nb\n")
        code, out = self.sh(sandbox, "git fsck --no-progress && git gc -q && git count-objects -v | grep -c pack")
        assert code == 0, out

    def test_development_loop(self, sandbox: LocalSandbox) -> None:
        # the agent writes a package and its tests with heredocs
        r = sandbox.bash(textwrap.dedent("""\
            mkdir -p /data/proj/calc /data/proj/tests && cd /data/proj
            cat > calc/__init__.py <<'EOF'
            def add(a, b):
                return a-b
            EOF
            cat > tests/test_calc.py <<'EOF'
            from calc import add

            def test_add():
                print("noise that capture swallows")
                assert add(2, 3) == 5
            EOF
            """))
        assert r.exit_code == 0, r.stderr
        # pytest with its default capture (temporary files unlinked while open)
        code, out = self.sh(sandbox, "python3 -m pytest -q -p no:cacheprovider")
        assert code == 1, out
        assert "1 failed" in out and "assert -1 == 5" in out
        # the fix, with the shell's sed -i, then the same run passes
        assert sandbox.bash("cd /data/proj && sed -i 's/return a-b/return a + b/' calc/__init__.py").exit_code == 0
        code, out = self.sh(sandbox, "python3 -m pytest -q -p no:cacheprovider")
        assert code == 0, out
        assert "1 passed" in out
        code, out = self.sh(sandbox, "printf '__pycache__/\\n' > .gitignore && git init -q -b main && git add -A "
                                     "&& git commit -q -m 'calc: add adds' && git log --format=%s && git status --short "
                                     "&& git ls-files")
        assert (code, out) == (0, "calc: add adds\n.gitignore\ncalc/__init__.py\ntests/test_calc.py\n")
        assert sandbox.bash("cd /data/proj && ls -A").stdout == ".git\n.gitignore\ncalc\ntests\n"
        # and the project's make target, in the jail too
        sandbox.bash("cd /data/proj && printf 'test:\\n\\tpython3 -m pytest -q -p no:cacheprovider\\n' > Makefile")
        code, out = self.sh(sandbox, "make -s test")
        assert code == 0 and "1 passed" in out, out
