/*
 * test_history_rows.c - the history rows the library writes for the fronts
 * (sandbox_history.c) and when they reach the file (store_call_log): the one
 * shape of each file helper's row, bash's record_name and args, rows that
 * wait in memory (seen by this handle at once, by another connection after
 * the next commit or 128 rows, kept by a clean close; a rolled-back group keeps
 * them up to 2,048), a write helper whose
 * row is committed with its change, and a SIGKILL loop: the database stays
 * consistent, every write that returned is there with its row, and no more
 * than the documented tail (STORE_HISTORY_BUFFER_ROWS) of bash rows is lost.
 */
#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "api_util.h"
#include "store/store.h"

/* The rows of h, newest first (sbx_free). */
static sbx_history_entry *rows(sbx *h, size_t *n) {
  sbx_history_entry *e = NULL;
  *n = 0;
  if (sbx_history_list(h, 0, &e, n) != SBX_OK) return NULL;
  return e;
}

/* How many rows another connection (plain SQLite) sees in the file. */
static int rows_on_disk(const char *path, const char *name) {
  sqlite3 *db;
  if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) return -1;
  sqlite3_stmt *q;
  int n = -1;
  if (sqlite3_prepare_v2(db,
                         "SELECT count(*) FROM tool_calls WHERE ?1 IS NULL OR name = ?1",
                         -1, &q, NULL) == SQLITE_OK) {
    if (name) sqlite3_bind_text(q, 1, name, -1, SQLITE_STATIC);
    if (sqlite3_step(q) == SQLITE_ROW) n = sqlite3_column_int(q, 0);
    sqlite3_finalize(q);
  }
  sqlite3_close(db);
  return n;
}

static int bash_recorded(sbx *h, const char *script) {
  sbx_bash_opts o = {.stdin_fd = -1, .record = 1};
  sbx_bash_result r;
  int rc = sbx_bash_ex(h, script, strlen(script), &o, &r);
  sbx_bash_result_free(&r);
  return rc;
}

TEST(file_helpers_leave_one_row_shape_each) {
  sbx *h = open_mem();
  REQUIRE(h);
  REQUIRE(sbx_write_file(h, "/d/a.txt", "hello", 5, SBX_WRITE_MKDIRS) == SBX_OK);
  void *data;
  size_t len;
  REQUIRE(sbx_read_file(h, "/d/a.txt", &data, &len) == SBX_OK);
  sbx_free(data);
  CHECK(sbx_read_file(h, "/nope", &data, &len) != SBX_OK);
  sbx_dirent *ents;
  size_t n;
  REQUIRE(sbx_listdir(h, "/d", &ents, &n) == SBX_OK);
  sbx_free(ents);
  REQUIRE(sbx_mkdir(h, "/e/f", 1) == SBX_OK);
  REQUIRE(sbx_rename(h, "/d/a.txt", "/e/b.txt") == SBX_OK);
  REQUIRE(sbx_symlink(h, "/e/b.txt", "/l") == SBX_OK);
  sbx_file fs[2] = {{"/g/1", "x", 1}, {"/g/2", "yz", 2}};
  REQUIRE(sbx_write_files(h, fs, 2, SBX_WRITE_MKDIRS) == SBX_OK);
  REQUIRE(sbx_remove(h, "/g", 1) == SBX_OK);
  /* queries leave no row */
  sbx_stat st;
  char *t;
  REQUIRE(sbx_stat_path(h, "/l", 0, &st) == SBX_OK);
  REQUIRE(sbx_readlink(h, "/l", &t) == SBX_OK);
  sbx_free(t);
  /* a front's own setup can leave none either */
  CHECK_EQ(sbx_history_files(h, 0), 1);
  REQUIRE(sbx_write_file(h, "/quiet", "q", 1, 0) == SBX_OK);
  CHECK_EQ(sbx_history_files(h, 1), 0);
  sbx_history_entry *e = rows(h, &n);
  REQUIRE(e && n == 9);
  static const char *const want[9][4] = {
      /* name, parameters, result, error (newest first) */
      {"remove", "{\"path\":\"/g\",\"recursive\":1}", "{}", NULL},
      {"write_files",
       "{\"paths\":[\"/g/1\",\"/g/2\"],\"files\":2,\"size\":3,\"mode\":420,\"mkdirs\":1}",
       "{\"bytes\":3}", NULL},
      {"symlink", "{\"target\":\"/e/b.txt\",\"path\":\"/l\"}", "{}", NULL},
      {"rename", "{\"from\":\"/d/a.txt\",\"to\":\"/e/b.txt\"}", "{}", NULL},
      {"mkdir", "{\"path\":\"/e/f\",\"mode\":493,\"parents\":1}", "{}", NULL},
      {"list_dir", "{\"path\":\"/d\"}", "{\"entries\":1}", NULL},
      {"read_file", "{\"path\":\"/nope\"}", NULL,
       "read /nope: No such file or directory"},
      {"read_file", "{\"path\":\"/d/a.txt\"}", "{\"bytes\":5}", NULL},
      {"write_file", "{\"path\":\"/d/a.txt\",\"size\":5,\"mode\":420,\"mkdirs\":1}",
       "{\"bytes\":5}", NULL},
  };
  for (size_t i = 0; i < 9; i++) {
    CHECK_STR(e[i].name, want[i][0]);
    CHECK_STR(e[i].parameters, want[i][1]);
    if (want[i][2]) {
      CHECK_STR(e[i].status, "success");
      CHECK_STR(e[i].result, want[i][2]);
    } else {
      CHECK_STR(e[i].status, "error");
      CHECK(e[i].result == NULL);
      CHECK_STR(e[i].error, want[i][3]);
    }
    CHECK(e[i].duration_ms >= 0);
  }
  sbx_free(e);
  sbx_close(h);
}

TEST(import_and_export_dir_are_recorded) {
  const char *host = scratch("tree");
  char p[600];
  REQUIRE(mkdir(host, 0755) == 0);
  snprintf(p, sizeof p, "%s/f", host);
  REQUIRE(write_host_file(p, "abc", 3) == 0);
  sbx *h = open_mem();
  REQUIRE(h);
  REQUIRE(sbx_import_dir(h, host, "/in") == SBX_OK);
  REQUIRE(sbx_export_dir(h, "/in", scratch("out")) == SBX_OK);
  CHECK(sbx_export_dir(h, "/in", scratch("out")) != SBX_OK); /* exists: an error row */
  size_t n;
  sbx_history_entry *e = rows(h, &n);
  REQUIRE(e && n == 3);
  CHECK_STR(e[2].name, "import_dir");
  char want[1400];
  snprintf(want, sizeof want, "{\"hostdir\":\"%s\",\"path\":\"/in\"}", host);
  CHECK_STR(e[2].parameters, want);
  check_history_row(&e[1], (history_want){.name = "export_dir", .status = "success"});
  check_history_row(&e[0], (history_want){.name = "export_dir", .status = "error",
                                           .error_has = "File exists"});
  sbx_free(e);
  sbx_close(h);
}

/* The CLI's `sbx DB python` row: the library's bash row under its name. */
TEST(bash_record_name_and_args) {
  sbx *h = open_mem();
  REQUIRE(h);
  char *args[] = {"-c", "print(1)", NULL};
  sbx_bash_opts o = {
      .stdin_fd = -1, .record = 1, .record_name = "python", .args = args, .nargs = 2};
  sbx_bash_result r;
  REQUIRE(sbx_bash_ex(h, "echo \"$@\"", 9, &o, &r) == SBX_OK);
  CHECK_EQ(r.out_len, 12); /* "-c print(1)\n" */
  sbx_bash_result_free(&r);
  size_t n;
  sbx_history_entry *e = rows(h, &n);
  REQUIRE(e && n == 1);
  CHECK_STR(e[0].name, "python");
  CHECK_STR(e[0].parameters,
            "{\"command\":\"echo "
            "\\\"$@\\\"\",\"args\":[\"-c\",\"print(1)\"],\"cwd\":\"/data\"}");
  CHECK_STR(e[0].result, "{\"exitCode\":0}");
  sbx_free(e);
  sbx_close(h);
}

/* Rows wait in memory: this handle lists them at once; another connection
 * sees them after the next commit (a write helper commits its own row and the
 * waiting ones, in call order), after 128 waiting rows, or after the close. */
TEST(waiting_rows_reach_the_file_with_the_next_commit) {
  const char *p = scratch("lazy.db");
  sbx *h;
  REQUIRE(sbx_open(p, 0, &h) == SBX_OK);
  REQUIRE(bash_recorded(h, "echo a") == SBX_OK);
  REQUIRE(bash_recorded(h, "echo b") == SBX_OK);
  CHECK_EQ(rows_on_disk(p, NULL), 0);
  size_t n;
  sbx_history_entry *e = rows(h, &n); /* listing writes them */
  CHECK_EQ(n, 2);
  sbx_free(e);
  CHECK_EQ(rows_on_disk(p, NULL), 2);
  REQUIRE(bash_recorded(h, "echo c") == SBX_OK);
  REQUIRE(sbx_write_file(h, "/w", "1", 1, 0) == SBX_OK);
  CHECK_EQ(rows_on_disk(p, NULL), 4); /* the write, its row and the waiting one */
  e = rows(h, &n);
  REQUIRE(e && n == 4);
  CHECK_STR(e[0].name, "write_file");
  CHECK_STR(e[1].parameters, "{\"command\":\"echo c\",\"cwd\":\"/data\"}");
  CHECK(e[0].id > e[1].id);
  sbx_free(e);
  for (int i = 0; i < STORE_HISTORY_BUFFER_ROWS - 1; i++)
    REQUIRE(bash_recorded(h, "true") == SBX_OK);
  CHECK_EQ(rows_on_disk(p, NULL), 4);
  REQUIRE(bash_recorded(h, "true") == SBX_OK); /* the 64th */
  CHECK_EQ(rows_on_disk(p, NULL), 4 + STORE_HISTORY_BUFFER_ROWS);
  REQUIRE(bash_recorded(h, "echo last") == SBX_OK);
  CHECK_EQ(rows_on_disk(p, NULL), 4 + STORE_HISTORY_BUFFER_ROWS);
  /* a snapshot holds the waiting row */
  sbx *m = snapshot_copy(h, 0);
  REQUIRE(m);
  e = rows(m, &n);
  CHECK_EQ(n, 5 + STORE_HISTORY_BUFFER_ROWS);
  sbx_free(e);
  sbx_close(m);
  REQUIRE(bash_recorded(h, "echo after") == SBX_OK);
  sbx_close(h); /* a clean close writes what waits */
  CHECK_EQ(rows_on_disk(p, NULL), 6 + STORE_HISTORY_BUFFER_ROWS);
}

/* A rolled-back group undoes its writes but not the rows of the calls made
 * in it (they happened); the rows wait for the next commit. */
TEST(rolled_back_group_keeps_the_rows) {
  sbx *h = open_mem();
  REQUIRE(h);
  REQUIRE(sbx_begin(h) == SBX_OK);
  REQUIRE(bash_recorded(h, "echo in-group") == SBX_OK);
  REQUIRE(sbx_write_file(h, "/g", "1", 1, 0) == SBX_OK);
  REQUIRE(sbx_rollback(h) == SBX_OK);
  CHECK(!path_exists(h, "/g"));
  size_t n;
  sbx_history_entry *e = rows(h, &n);
  REQUIRE(e && n == 2);
  CHECK_STR(e[0].name, "write_file");
  CHECK_STR(e[1].name, "bash");
  sbx_free(e);
  sbx_close(h);
}

/* Memory stays bounded in a long group: past 16 x 128 waiting rows they are
 * written into the group, and go with it when it rolls back (docs/limits.md). */
TEST(long_group_writes_its_rows_into_itself) {
  sbx *h = open_mem();
  REQUIRE(h);
  REQUIRE(sbx_begin(h) == SBX_OK);
  int n_calls = 16 * STORE_HISTORY_BUFFER_ROWS + 10;
  for (int i = 0; i < n_calls; i++) REQUIRE(bash_recorded(h, "true") == SBX_OK);
  REQUIRE(sbx_rollback(h) == SBX_OK);
  size_t n;
  sbx_history_entry *e = rows(h, &n);
  CHECK_EQ(n, 10); /* the 2,048 written into the group went with it */
  sbx_free(e);
  REQUIRE(sbx_begin(h) == SBX_OK);
  for (int i = 0; i < n_calls; i++) REQUIRE(bash_recorded(h, "true") == SBX_OK);
  REQUIRE(sbx_commit(h) == SBX_OK);
  e = rows(h, &n);
  CHECK_EQ(n, 10 + (size_t)n_calls);
  sbx_free(e);
  sbx_close(h);
}

/* A child writes files and records bash calls, telling the parent (a pipe)
 * after each call returns; the parent kills it at a random moment. */
static void crash_child(const char *path, int fd) {
  sbx *h;
  if (sbx_open(path, 0, &h) != SBX_OK) _exit(2);
  for (unsigned i = 0;; i++) {
    char name[64], body[64];
    snprintf(name, sizeof name, "/w/%u", i);
    snprintf(body, sizeof body, "body %u", i);
    if (sbx_write_file(h, name, body, strlen(body), SBX_WRITE_MKDIRS) != SBX_OK) _exit(3);
    char msg = 'w';
    if (write(fd, &msg, 1) != 1) _exit(4);
    for (int k = 0; k < 3; k++) {
      if (bash_recorded(h, "echo hi") != SBX_OK) _exit(5);
      msg = 'b';
      if (write(fd, &msg, 1) != 1) _exit(4);
    }
  }
}

TEST(sigkill_loses_at_most_the_waiting_rows) {
  const char *p = scratch("crash.db");
  sbx *h;
  REQUIRE(sbx_open(p, 0, &h) == SBX_OK); /* the file exists before any kill */
  sbx_close(h);
  unsigned seed = (unsigned)getpid();
  long writes = 0, bashes = 0; /* what returned, over all rounds */
  for (int round = 0; round < 12; round++) {
    int fds[2];
    REQUIRE(pipe(fds) == 0);
    pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      close(fds[0]);
      crash_child(p, fds[1]);
    }
    close(fds[1]);
    struct timespec ts = {0, (long)(rand_r(&seed) % 40 + 5) * 1000000L};
    nanosleep(&ts, NULL);
    kill(pid, SIGKILL);
    int status;
    waitpid(pid, &status, 0);
    CHECK(WIFSIGNALED(status));
    long rw = 0, rb = 0; /* this round's */
    char buf[4096];
    ssize_t got;
    while ((got = read(fds[0], buf, sizeof buf)) > 0)
      for (ssize_t i = 0; i < got; i++) {
        rw += buf[i] == 'w';
        rb += buf[i] == 'b';
      }
    close(fds[0]);
    writes += rw;
    bashes += rb;
    /* consistent, and every write that returned is there */
    CHECK(integrity_ok(p, SQLITE_OPEN_READWRITE));
    REQUIRE(sbx_open(p, SBX_OPEN_READONLY, &h) == SBX_OK);
    for (long i = 0; i < rw; i++) {
      char name[64], body[64];
      snprintf(name, sizeof name, "/w/%ld", i);
      snprintf(body, sizeof body, "body %ld", i);
      char *got_body = read_str(h, name);
      CHECK_STR(got_body, body);
      sbx_free(got_body);
    }
    sbx_close(h);
    /* each write that returned has its row (one more may have committed
     * just before the kill, unreported) */
    long write_rows = rows_on_disk(p, "write_file");
    CHECK(write_rows >= writes && write_rows <= writes + round + 1);
    /* bash rows: none that did not return; lost at most the waiting ones,
     * which since the last write's commit are at most 3 per child (and
     * never more than STORE_HISTORY_BUFFER_ROWS) */
    long bash_rows = rows_on_disk(p, "bash");
    CHECK(bash_rows <= bashes);
    CHECK(bashes - bash_rows <= (long)(round + 1) * 3);
    CHECK(3 <= STORE_HISTORY_BUFFER_ROWS);
    if (write_rows < writes || bashes - bash_rows > (long)(round + 1) * 3)
      fprintf(stderr, "  round %d: writes %ld rows %ld, bash %ld rows %ld\n", round,
              writes, write_rows, bashes, bash_rows);
  }
  CHECK(writes > 12);
}

int main(int argc, char **argv) {
  harness_init(argc, argv);
  RUN(file_helpers_leave_one_row_shape_each);
  RUN(import_and_export_dir_are_recorded);
  RUN(bash_record_name_and_args);
  RUN(waiting_rows_reach_the_file_with_the_next_commit);
  RUN(rolled_back_group_keeps_the_rows);
  RUN(long_group_writes_its_rows_into_itself);
  RUN(sigkill_loses_at_most_the_waiting_rows);
  return harness_done();
}
