/*
 * test_fuse_files.c - open files over the jail's FUSE view of the store, as
 * the C API sees them (so the server's handle bookkeeping runs under ASan):
 * an unlinked-but-open file works by inode and is freed at its last close (and
 * an O_TMPFILE one, which never had a name); a
 * file the shell removes while Python has it open stays readable; a worker
 * killed with such a file open leaves no orphan once the store writes again;
 * closing the sandbox frees what is left. The store's tables are read with a
 * separate SQLite connection. The jail kernel's page cache: a second read of
 * an unchanged file is served from it (no READ request), and a change the
 * shell makes between (or during) Python calls is seen by the next read, even
 * when the size and mtime stay the same (only the store's generation tells).
 * The working directory: a warm call skips the chdir (no request) only while
 * nothing moved the view or the code's own directory.
 */
#include <sqlite3.h>
#include <time.h>

#include "api/sandbox_int.h"
#include "py/py_int.h"
#include "py_util.h"
#include "store/store_testutil.h"

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

/* Python code that keeps a file open without a name gives want and leaves
 * one orphan; close_code (giving close_want) closes it: the orphan row goes,
 * and no inode is left without links. */
static void check_orphan_freed_at_close(const char *code, const char *want,
                                        const char *close_code, const char *close_want) {
  sbx *h = NULL;
  REQUIRE(sbx_open(db_path, 0, &h) == SBX_OK);
  CHECK_STR(py_eval(h, code), want);
  CHECK_EQ(orphans(), 1);
  CHECK_STR(py_eval(h, close_code), close_want);
  CHECK_EQ(orphans_soon(0), 0);
  CHECK_EQ(db_count("SELECT count(*) FROM fs_inode WHERE nlink = 0"), 0);
  sbx_close(h);
}

TEST(unlinked_open_file_truncates_and_is_freed_at_close) {
  check_orphan_freed_at_close(
      "import os, tempfile\n"
      "f = tempfile.TemporaryFile(dir='/data')\n"
      "f.write(b'captured'); f.flush(); f.truncate(3); f.seek(0)\n"
      "(f.read(), os.fstat(f.fileno()).st_size, os.fstat(f.fileno()).st_nlink)",
      "(b'cap', 3, 0)", "f.close(); os.listdir('/data')", "[]");
}

TEST(o_tmpfile_is_an_orphan_from_the_start) {
  check_orphan_freed_at_close(
      "import os\n"
      "t = os.open('/data', os.O_TMPFILE | os.O_RDWR, 0o600)\n"
      "os.write(t, b'abc'); (os.pread(t, 9, 0), os.fstat(t).st_nlink, "
      "os.listdir('/data'))",
      "(b'abc', 0, [])", "os.close(t)", "");
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

/* Requests the sandbox's FUSE server has served so far. */
static uint64_t fuse_requests(sbx *h) {
  return h->py && h->py->fuse ? fuse_server_requests(h->py->fuse) : 0;
}

/* 4 MiB of 'a' with a fixed mtime; each change below keeps the size and the
 * mtime, so the kernel's own checks (FUSE_AUTO_INVAL_DATA) cannot see it. */
#define SAME_MTIME "touch -d '2020-01-02 03:04:05' /data/c"
#define READ_C "d = open('/data/c', 'rb').read(); (len(d), d.count(b'a'), d[4000000:4000003])"

TEST(page_cache_kept_while_unchanged_dropped_when_the_shell_writes) {
  sbx *h = NULL;
  REQUIRE(sbx_open(db_path, 0, &h) == SBX_OK);
  REQUIRE(bash_ok(h, "head -c 4194304 /dev/zero | tr '\\0' a > /data/c && " SAME_MTIME));
  CHECK_STR(py_eval(h, READ_C), "(4194304, 4194304, b'aaa')");
  uint64_t before = fuse_requests(h);
  CHECK_STR(py_eval(h, READ_C), "(4194304, 4194304, b'aaa')");
  /* from the page cache: open, flush, release, no READ (4 MiB takes 32+) */
  CHECK(fuse_requests(h) - before < 24);
  /* the shell changes 3 bytes: the next call reads them */
  REQUIRE(bash_ok(h, "printf xyz | dd of=/data/c bs=1 seek=4000000 conv=notrunc status=none && " SAME_MTIME));
  before = fuse_requests(h);
  CHECK_STR(py_eval(h, READ_C), "(4194304, 4194301, b'xyz')");
  CHECK(fuse_requests(h) - before >= 32); /* read again from the store */
  /* and again, after the cached read of the changed file */
  CHECK_STR(py_eval(h, READ_C), "(4194304, 4194301, b'xyz')");
  REQUIRE(bash_ok(h, "printf pqr | dd of=/data/c bs=1 seek=4000000 conv=notrunc status=none && " SAME_MTIME));
  CHECK_STR(py_eval(h, READ_C), "(4194304, 4194301, b'pqr')");
  /* a file Python holds open across the change reads the new bytes */
  CHECK_STR(py_eval(h, "k = open('/data/c', 'rb', buffering=0); k.seek(4000000); k.read(3)"), "b'pqr'");
  REQUIRE(bash_ok(h, "printf QQQ | dd of=/data/c bs=1 seek=4000000 conv=notrunc status=none && " SAME_MTIME));
  CHECK_STR(py_eval(h, "k.seek(4000000); k.read(3)"), "b'QQQ'");
  CHECK_STR(py_eval(h, "k.close()"), "");
  /* the C API's write: a new file of the same size */
  char *buf = malloc(4194304);
  REQUIRE(buf);
  memset(buf, 'b', 4194304);
  REQUIRE(sbx_write_file(h, "/data/c", buf, 4194304, 0) == SBX_OK);
  free(buf);
  CHECK_STR(py_eval(h, READ_C), "(4194304, 0, b'bbb')");
  /* what Python writes it reads back at once (the kernel's pages follow) */
  CHECK_STR(py_eval(h, "with open('/data/c', 'r+b') as w: w.seek(4000000); w.write(b'123')\n" READ_C),
            "(4194304, 0, b'123')");
  CHECK(bash_ok(h, "test \"$(dd if=/data/c bs=1 skip=4000000 count=3 status=none)\" = 123"));
  CHECK(bash_ok(h, "rm /data/c"));
  sbx_close(h);
}

/* py_eval with the call's working directory set. */
static const char *py_eval_in(sbx *h, const char *cwd, const char *code) {
  static char buf[256];
  sbx_py_options o = {.cwd = cwd};
  sbx_py_result *r = py_run_opt(h, code, &o);
  if (!r) return "<call failed>";
  if (r->error != SBX_PY_OK)
    snprintf(buf, sizeof buf, "<error %d: %s>", r->error, r->error_message ? r->error_message : "");
  else snprintf(buf, sizeof buf, "%s", r->repr ? r->repr : "");
  sbx_free(r);
  return buf;
}

static int py_cwd_error(sbx *h) {
  sbx_py_result *r = py_run(h, "1");
  int e = r ? r->error : -1;
  sbx_free(r);
  return e;
}

TEST(working_directory_kept_only_while_the_view_is) {
  sbx *h = NULL;
  REQUIRE(sbx_open(db_path, 0, &h) == SBX_OK);
  CHECK_STR(py_eval(h, "import os; os.getcwd()"), "'/data'");
  /* warm calls in an unchanged view cost the server no request (a chdir
   * costs one, FUSE_ACCESS; stray ones: forgets, an attribute expiring) */
  uint64_t before = fuse_requests(h);
  for (int i = 0; i < 40; i++) CHECK_STR(py_eval(h, "x = 1"), "");
  CHECK(fuse_requests(h) - before < 20);
  /* the code moved: the next call starts in /data again */
  CHECK_STR(py_eval(h, "os.chdir('/tmp'); os.getcwd()"), "'/tmp'");
  CHECK_STR(py_eval(h, "os.getcwd()"), "'/data'");
  /* the shell replaces /data: the next call is in the new one */
  REQUIRE(bash_ok(h, "mv /data /old && mkdir /data && echo new > /data/n"));
  CHECK_STR(py_eval(h, "open('n').read()"), "'new\\n'");
  /* the shell takes the search right away: the call cannot start there */
  REQUIRE(bash_ok(h, "chmod 000 /data"));
  CHECK_EQ(py_cwd_error(h), SBX_PY_CWD);
  REQUIRE(bash_ok(h, "chmod 755 /data"));
  CHECK_STR(py_eval(h, "open('n').read()"), "'new\\n'");
  /* the code moves its own working directory away and makes a new one in
   * its place (the kernel's own change: no sync) */
  REQUIRE(bash_ok(h, "mkdir /data/w"));
  CHECK_STR(py_eval_in(h, "/data/w", "import os; os.getcwd()"), "'/data/w'");
  CHECK_STR(py_eval_in(h, "/data/w", "os.rename('/data/w', '/data/v'); os.mkdir('/data/w'); "
                                     "open('/data/w/m', 'w').write('m')"),
            "1");
  CHECK_STR(py_eval_in(h, "/data/w", "open('m').read()"), "'m'");
  CHECK(bash_ok(h, "rm -r /old /data/v /data/w"));
  sbx_close(h);
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
  RUN(page_cache_kept_while_unchanged_dropped_when_the_shell_writes);
  RUN(working_directory_kept_only_while_the_view_is);
  tu_unlink_db(db_path);
  return harness_done();
}
