/*
 * test_fuse_files.c - open files over the jail's FUSE view of the store, as
 * the C API sees them (so the server's handle bookkeeping runs under ASan):
 * an unlinked-but-open file works by inode and is freed at its last close (and
 * an O_TMPFILE one, which never had a name); a
 * file the shell removes while Python has it open stays readable; a worker
 * killed with such a file open leaves no orphan once the store writes again;
 * closing the sandbox frees what is left. The store's tables are read with a
 * separate SQLite connection.
 */
#include <sqlite3.h>
#include <time.h>

#include "py_util.h"

static char db_path[256];

/* count(*) of `sql` read through a connection of our own (-1 on error). */
static long long db_count(const char *sql) {
  sqlite3 *db = NULL;
  long long n = -1;
  if (sqlite3_open_v2(db_path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK) {
    sqlite3_stmt *q = NULL;
    if (sqlite3_prepare_v2(db, sql, -1, &q, NULL) == SQLITE_OK &&
        sqlite3_step(q) == SQLITE_ROW)
      n = sqlite3_column_int64(q, 0);
    sqlite3_finalize(q);
  }
  sqlite3_close(db);
  return n;
}

static long long orphans(void) {
  return db_count("SELECT count(*) FROM sbx_orphan");
}

/* The orphan count once it is `want`, or after 5 s (the kernel sends a
 * release after close() has returned). */
static long long orphans_soon(long long want) {
  long long n = orphans();
  for (int i = 0; i < 250 && n != want; i++) {
    struct timespec ts = {0, 20 * 1000000L};
    nanosleep(&ts, NULL);
    n = orphans();
  }
  return n;
}

static int bash_ok(sbx *h, const char *script) {
  sbx_bash_result r;
  memset(&r, 0, sizeof r);
  int rc = sbx_bash(h, script, strlen(script), &r);
  int ok = rc == SBX_OK && r.exit_code == 0;
  sbx_bash_result_free(&r);
  return ok;
}

TEST(unlinked_open_file_truncates_and_is_freed_at_close) {
  sbx *h = NULL;
  REQUIRE(sbx_open(db_path, 0, &h) == SBX_OK);
  CHECK_STR(
      py_eval(h,
              "import os, tempfile\n"
              "f = tempfile.TemporaryFile(dir='/data')\n"
              "f.write(b'captured'); f.flush(); f.truncate(3); f.seek(0)\n"
              "(f.read(), os.fstat(f.fileno()).st_size, os.fstat(f.fileno()).st_nlink)"),
      "(b'cap', 3, 0)");
  CHECK_EQ(orphans(), 1);
  CHECK_STR(py_eval(h, "f.close(); os.listdir('/data')"), "[]");
  CHECK_EQ(orphans_soon(0), 0);
  CHECK_EQ(db_count("SELECT count(*) FROM fs_inode WHERE nlink = 0"), 0);
  sbx_close(h);
}

TEST(o_tmpfile_is_an_orphan_from_the_start) {
  sbx *h = NULL;
  REQUIRE(sbx_open(db_path, 0, &h) == SBX_OK);
  CHECK_STR(py_eval(h,
                    "import os\n"
                    "t = os.open('/data', os.O_TMPFILE | os.O_RDWR, 0o600)\n"
                    "os.write(t, b'abc'); (os.pread(t, 9, 0), os.fstat(t).st_nlink, "
                    "os.listdir('/data'))"),
            "(b'abc', 0, [])");
  CHECK_EQ(orphans(), 1);
  CHECK_STR(py_eval(h, "os.close(t)"), "");
  CHECK_EQ(orphans_soon(0), 0);
  CHECK_EQ(db_count("SELECT count(*) FROM fs_inode WHERE nlink = 0"), 0);
  sbx_close(h);
}

TEST(shell_rm_while_python_reads) {
  sbx *h = NULL;
  REQUIRE(sbx_open(db_path, 0, &h) == SBX_OK);
  REQUIRE(bash_ok(h, "printf 'kept by the reader' > /data/f"));
  CHECK_STR(py_eval(h, "r = open('/data/f'); r.read(4)"), "'kept'");
  CHECK(bash_ok(h, "rm /data/f && ! test -e /data/f"));
  CHECK_STR(py_eval(h, "r.read()"), "' by the reader'");
  CHECK_EQ(orphans(), 1);
  CHECK_STR(py_eval(h, "r.close()"), "");
  CHECK_EQ(orphans_soon(0), 0);
  sbx_close(h);
}

TEST(killed_worker_leaves_no_orphan) {
  sbx *h = NULL;
  REQUIRE(sbx_open(db_path, 0, &h) == SBX_OK);
  sbx_py_options o = {.timeout = 1, .grace = 0.2};
  sbx_py_result *r =
      py_run_opt(h,
                 "import os, signal\n"
                 "signal.signal(signal.SIGINT, signal.SIG_IGN)\n"
                 "g = open('/data/big', 'wb'); g.write(b'x' * 300000); g.flush()\n"
                 "os.unlink('/data/big')\n"
                 "while True: pass\n",
                 &o);
  REQUIRE(r);
  CHECK(r->killed);
  sbx_free(r);
  /* the next write of the store frees what the dead jail held */
  CHECK(bash_ok(h, "touch /data/after"));
  CHECK_EQ(orphans(), 0);
  CHECK_EQ(db_count("SELECT count(*) FROM fs_data d LEFT JOIN fs_inode i USING (ino) "
                    "WHERE i.ino IS NULL"),
           0);
  CHECK_STR(py_eval(h, "__import__('os').listdir('/data')"), "['after']");
  CHECK(bash_ok(h, "rm /data/after"));
  sbx_close(h);
}

TEST(closing_the_sandbox_frees_open_orphans) {
  sbx *h = NULL;
  REQUIRE(sbx_open(db_path, 0, &h) == SBX_OK);
  CHECK_STR(
      py_eval(h,
              "import os\nk = open('/data/k', 'wb'); k.write(b'y' * 5000); k.flush()\n"
              "os.unlink('/data/k'); os.fstat(k.fileno()).st_size"),
      "5000");
  CHECK_EQ(orphans(), 1);
  sbx_close(h); /* the worker stops with the file open */
  CHECK_EQ(orphans(), 0);
  CHECK_EQ(db_count("SELECT count(*) FROM fs_inode WHERE nlink = 0"), 0);
}

int main(int argc, char **argv) {
  harness_init(argc, argv);
  become_subreaper();
  const char *tmp = getenv("TMPDIR");
  snprintf(db_path, sizeof db_path, "%s/sbx-fuse-files-%d.db", tmp && *tmp ? tmp : "/tmp",
           (int)getpid());
  RUN(unlinked_open_file_truncates_and_is_freed_at_close);
  RUN(o_tmpfile_is_an_orphan_from_the_start);
  RUN(shell_rm_while_python_reads);
  RUN(killed_worker_leaves_no_orphan);
  RUN(closing_the_sandbox_frees_open_orphans);
  char side[300];
  unlink(db_path);
  snprintf(side, sizeof side, "%s-wal", db_path);
  unlink(side);
  snprintf(side, sizeof side, "%s-shm", db_path);
  unlink(side);
  return harness_done();
}
