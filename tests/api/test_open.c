/*
 * test_open.c - opening and closing sandboxes through the C API: in memory,
 * temporary files (removed on close), named files, read-only and no-create
 * modes, and every way an open can fail (bad arguments, a directory, a
 * non-SQLite file, a damaged one, a foreign SQLite schema, an unknown schema
 * version, a read-only database file), each with a clear error and nothing
 * changed. Also: NULL handles are SBX_MISUSE for every function, running
 * out of file descriptors says so (EMFILE) at every point of an open, and a
 * missing file is created complete (no stray temporary file left).
 */
#include <dirent.h>
#include <sqlite3.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>

#include "api_util.h"

static int sql_exec(const char *path, const char *sql) {
  sqlite3 *db;
  if (sqlite3_open(path, &db) != SQLITE_OK) return -1;
  int rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
  sqlite3_close(db);
  return rc == SQLITE_OK ? 0 : -1;
}

/* Makes a small named sandbox at path with one file /a = "hello". */
static int make_sandbox(const char *path) {
  sbx *h;
  if (sbx_open(path, 0, &h) != SBX_OK) {
    sbx_close(h);
    return -1;
  }
  int rc = write_str(h, "/a", "hello");
  sbx_close(h);
  return rc;
}

TEST(memory_sandbox_has_no_path_and_works) {
  sbx *h = open_mem();
  REQUIRE(h);
  CHECK_STR(sbx_path(h), "");
  CHECK_EQ(write_str(h, "/x", "1"), SBX_OK);
  CHECK_FILE(h, "/x", "1");
  CHECK_STR(sbx_errmsg(h), "");
  CHECK_EQ(sbx_close(h), SBX_OK);
}

TEST(temp_sandbox_file_is_removed_on_close) {
  setenv("TMPDIR", scratch_dir(), 1);
  sbx *h;
  REQUIRE(sbx_open(NULL, SBX_OPEN_TEMP, &h) == SBX_OK);
  char path[1024];
  snprintf(path, sizeof path, "%s", sbx_path(h));
  CHECK(strncmp(path, scratch_dir(), strlen(scratch_dir())) == 0);
  CHECK(file_exists(path));
  /* a new sandbox: empty, its root made now (not when a template was) */
  sbx_stat st;
  REQUIRE(sbx_stat_path(h, "/", 0, &st) == SBX_OK);
  CHECK(st.mtime >= (int64_t)time(NULL) - 2);
  CHECK_EQ(count_entries(h, "/"), 0);
  CHECK_EQ(sbx_write_file(h, "/tmpdir/f", "x", 1, SBX_WRITE_MKDIRS), SBX_OK);
  sbx_close(h);
  CHECK(!file_exists(path));
  /* a second one is a different, empty sandbox */
  REQUIRE(sbx_open(NULL, SBX_OPEN_TEMP, &h) == SBX_OK);
  CHECK(strcmp(sbx_path(h), path) != 0);
  CHECK(!path_exists(h, "/tmpdir"));
  sbx_close(h);
  char side[1100];
  snprintf(side, sizeof side, "%s-wal", path);
  CHECK(!file_exists(side));
  snprintf(side, sizeof side, "%s-shm", path);
  CHECK(!file_exists(side));
  unsetenv("TMPDIR");
}

TEST(temp_sandbox_in_a_missing_tmpdir_is_a_clear_error) {
  setenv("TMPDIR", scratch("no-such-tmpdir"), 1);
  sbx *h;
  int rc = sbx_open(NULL, SBX_OPEN_TEMP, &h);
  CHECK_EQ(rc, SBX_FS | (ENOENT << 8));
  CHECK(strstr(sbx_errmsg(h), "no-such-tmpdir: No such file or directory") != NULL);
  sbx_close(h);
  unsetenv("TMPDIR");
}

TEST(named_sandbox_uses_the_documented_three_fds) {
  const char *p = scratch("fds.db");
  int before = count_fds();
  REQUIRE(before > 0);
  sbx *h;
  REQUIRE(sbx_open(p, 0, &h) == SBX_OK);
  CHECK(count_fds() - before == SBX_FDS_PER_SANDBOX); /* db, -wal, -shm */
  CHECK(write_str(h, "/x", "1") == 0);
  CHECK(count_fds() - before == SBX_FDS_PER_SANDBOX);
  sbx_close(h);
  CHECK(count_fds() == before);
  sbx *m;
  REQUIRE(sbx_open(NULL, SBX_OPEN_MEMORY, &m) == SBX_OK);
  CHECK(count_fds() == before); /* memory: none */
  sbx_close(m);
}

/* In a child with RLIMIT_NOFILE at `limit`: opens new named sandboxes until
 * one fails; exit status 0 when the failure is SBX_FS|EMFILE saying "Too
 * many open files", nothing stray is left, and after closing one sandbox the
 * failed open works. */
/* The lowest RLIMIT_NOFILE that leaves exactly `free_slots` fd numbers
 * unused below it. The limit caps fd numbers, not their count, and a test
 * runner may leave fds open anywhere (3, 10, 251...), so counting open fds
 * is not enough to know what room a limit leaves. */
static rlim_t limit_leaving(int free_slots) {
  char open_below[1024] = {0};
  DIR *d = opendir("/proc/self/fd");
  if (!d) return 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    int fd = atoi(e->d_name);
    if (fd != dirfd(d) && fd >= 0 && fd < (int)sizeof open_below) open_below[fd] = 1;
  }
  closedir(d);
  int seen = 0;
  for (int fd = 0; fd < (int)sizeof open_below; fd++)
    if (!open_below[fd] && ++seen == free_slots) return (rlim_t)fd + 1;
  return 0;
}

static int fd_exhaustion_child(int free_slots, int round) {
  rlim_t limit = limit_leaving(free_slots);
  if (limit == 0) return 9;
  struct rlimit rl = {limit, limit};
  if (setrlimit(RLIMIT_NOFILE, &rl) != 0) return 10;
  sbx *open_h[64];
  int n = 0, rc = SBX_OK;
  sbx *h = NULL;
  char path[300];
  for (; n < 64; n++) {
    snprintf(path, sizeof path, "%s/emfile-%d-%d.db", scratch_dir(), round, n);
    rc = sbx_open(path, 0, &h);
    if (rc != SBX_OK) break;
    open_h[n] = h;
  }
  if (rc == SBX_OK) return 11;
  if (rc != (SBX_FS | (EMFILE << 8))) {
    fprintf(stderr, "limit %d: rc %d: %s\n", (int)limit, rc, sbx_errmsg(h));
    return 12;
  }
  if (!strstr(sbx_errmsg(h), "Too many open files")) {
    fprintf(stderr, "limit %d: %s\n", (int)limit, sbx_errmsg(h));
    return 13;
  }
  if (strstr(sbx_errmsg(h), "Input/output")) return 14;
  sbx_close(h);
  if (n == 0) return 15;
  sbx_close(open_h[--n]);
  rc = sbx_open(path, 0, &h); /* the one that failed */
  if (rc != SBX_OK) {
    fprintf(stderr, "limit %d, reopen: %s\n", (int)limit, sbx_errmsg(h));
    return 16;
  }
  int ok = write_str(h, "/f", "x") == 0;
  sbx_close(h);
  for (int i = 0; i < n; i++) sbx_close(open_h[i]);
  if (!ok) return 17;
  DIR *d = opendir(scratch_dir());
  if (!d) return 18;
  struct dirent *e;
  int stray = 0;
  while ((e = readdir(d)))
    if (strstr(e->d_name, ".sbx-new-")) stray++;
  closedir(d);
  return stray ? 19 : 0;
}

TEST(running_out_of_fds_is_emfile_at_every_step_of_an_open) {
  /* room for one sandbox and then 0..8 more fds: the failure lands on each
   * fd a second open takes (the database, the new file, its directory, the
   * WAL, the shared memory) and then on later sandboxes */
  for (int k = 0; k <= 8; k++) {
    fflush(NULL);
    pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) _exit(fd_exhaustion_child(SBX_FDS_PER_SANDBOX + k, k));
    int st = 0;
    REQUIRE(waitpid(pid, &st, 0) == pid);
    CHECK(WIFEXITED(st));
    if (WEXITSTATUS(st) != 0) fprintf(stderr, "  room %d+%d: exit %d\n", SBX_FDS_PER_SANDBOX, k, WEXITSTATUS(st));
    CHECK(WEXITSTATUS(st) == 0);
  }
}

TEST(named_sandbox_persists_across_opens) {
  const char *p = scratch("persist.db");
  REQUIRE(make_sandbox(p) == 0);
  CHECK(file_exists(p));
  sbx *h;
  REQUIRE(sbx_open(p, SBX_OPEN_NOCREATE, &h) == SBX_OK);
  CHECK_STR(sbx_path(h), p);
  CHECK_FILE(h, "/a", "hello");
  sbx_close(h);
  CHECK(file_exists(p)); /* a named file is never removed */
}

TEST(nocreate_on_missing_file_is_enoent_and_creates_nothing) {
  const char *p = scratch("missing.db");
  sbx *h;
  int rc = sbx_open(p, SBX_OPEN_NOCREATE, &h);
  CHECK_EQ(sbx_errcode(rc), SBX_FS);
  CHECK_EQ(sbx_rc_errno(rc), ENOENT);
  REQUIRE(h);
  CHECK_EQ(sbx_errno(h), ENOENT);
  CHECK(strstr(sbx_errmsg(h), "No such file or directory") != NULL);
  CHECK(strstr(sbx_errmsg(h), p) != NULL);
  /* a failed handle only carries the message */
  CHECK_EQ(write_str(h, "/a", "x"), SBX_MISUSE);
  sbx_close(h);
  CHECK(!file_exists(p));
  rc = sbx_open(p, SBX_OPEN_READONLY, &h);
  CHECK_EQ(rc, SBX_FS | (ENOENT << 8));
  sbx_close(h);
  CHECK(!file_exists(p));
}

TEST(readonly_open_reads_but_refuses_writes) {
  const char *p = scratch("ro.db");
  REQUIRE(make_sandbox(p) == 0);
  sbx *h;
  REQUIRE(sbx_open(p, SBX_OPEN_READONLY, &h) == SBX_OK);
  CHECK_FILE(h, "/a", "hello");
  CHECK_EQ(write_str(h, "/a", "changed"), SBX_READONLY);
  CHECK(strstr(sbx_errmsg(h), "read-only") != NULL);
  CHECK_EQ(write_str(h, "/b", "new"), SBX_READONLY);
  CHECK_EQ(sbx_mkdir(h, "/d", 0), SBX_READONLY);
  CHECK_EQ(sbx_kv_set(h, "k", "1"), SBX_READONLY);
  CHECK_EQ(sbx_remove(h, "/a", 0), SBX_READONLY);
  sbx_close(h);
  REQUIRE(sbx_open(p, SBX_OPEN_NOCREATE, &h) == SBX_OK);
  CHECK_FILE(h, "/a", "hello");
  CHECK(!path_exists(h, "/b"));
  CHECK(!path_exists(h, "/d"));
  sbx_close(h);
}

TEST(bad_open_arguments_are_misuse) {
  sbx *h = (sbx *)1;
  CHECK_EQ(sbx_open(NULL, SBX_OPEN_MEMORY, NULL), SBX_MISUSE);
  CHECK_EQ(sbx_open(NULL, 0, &h), SBX_MISUSE);
  REQUIRE(h);
  CHECK(strstr(sbx_errmsg(h), "NULL") != NULL);
  sbx_close(h);
  CHECK_EQ(sbx_open(NULL, SBX_OPEN_TEMP | SBX_OPEN_MEMORY, &h), SBX_MISUSE);
  sbx_close(h);
  CHECK_EQ(sbx_open(scratch("x.db"), SBX_OPEN_TEMP, &h), SBX_MISUSE);
  sbx_close(h);
  CHECK_EQ(sbx_open(NULL, SBX_OPEN_MEMORY | SBX_OPEN_READONLY, &h), SBX_MISUSE);
  sbx_close(h);
  CHECK_EQ(sbx_open(scratch("x.db"), 0x100, &h), SBX_MISUSE);
  CHECK(strstr(sbx_errmsg(h), "unknown flags") != NULL);
  sbx_close(h);
  CHECK_EQ(sbx_open("", 0, &h), SBX_MISUSE);
  sbx_close(h);
  CHECK(!file_exists(scratch("x.db")));
}

TEST(directory_as_database_is_eisdir) {
  sbx *h;
  int rc = sbx_open(scratch_dir(), 0, &h);
  CHECK_EQ(rc, SBX_FS | (EISDIR << 8));
  CHECK(strstr(sbx_errmsg(h), "Is a directory") != NULL);
  sbx_close(h);
}

TEST(missing_host_directory_is_enoent) {
  sbx *h;
  int rc = sbx_open(scratch("no/such/dir.db"), 0, &h);
  CHECK_EQ(sbx_errcode(rc), SBX_FS);
  CHECK_EQ(sbx_errno(h), ENOENT);
  sbx_close(h);
}

TEST(non_sqlite_file_is_corrupt_and_untouched) {
  const char *p = scratch("text.db");
  const char *text = "this is not a database, just some text that is long enough\n";
  REQUIRE(write_host_file(p, text, strlen(text)) == 0);
  sbx *h;
  int rc = sbx_open(p, 0, &h);
  CHECK_EQ(rc, SBX_CORRUPT);
  CHECK(strstr(sbx_errmsg(h), "not an SQLite database") != NULL);
  sbx_close(h);
  size_t len;
  char *after = read_host_file(p, &len);
  CHECK(after && len == strlen(text) && memcmp(after, text, len) == 0);
  free(after);
}

TEST(damaged_sqlite_file_is_corrupt) {
  const char *p = scratch("damaged.db");
  REQUIRE(make_sandbox(p) == 0);
  size_t len;
  unsigned char *bytes = read_host_file(p, &len);
  REQUIRE(bytes && len > 4096);
  /* Keep the 100-byte header, destroy the schema page. */
  memset(bytes + 100, 0xA5, 4096 - 100);
  REQUIRE(write_host_file(p, bytes, len) == 0);
  free(bytes);
  sbx *h;
  int rc = sbx_open(p, 0, &h);
  CHECK_EQ(rc, SBX_CORRUPT);
  sbx_close(h);
}

TEST(foreign_sqlite_database_is_schema_and_untouched) {
  const char *p = scratch("foreign.db");
  REQUIRE(sql_exec(p, "CREATE TABLE notes(id INTEGER PRIMARY KEY, body TEXT);"
                      "INSERT INTO notes(body) VALUES ('keep me');") == 0);
  sbx *h;
  int rc = sbx_open(p, 0, &h);
  CHECK_EQ(rc, SBX_SCHEMA);
  CHECK(strstr(sbx_errmsg(h), "AgentFS") != NULL);
  sbx_close(h);
  /* no AgentFS tables were added to someone else's database */
  sqlite3 *db;
  REQUIRE(sqlite3_open(p, &db) == SQLITE_OK);
  sqlite3_stmt *st;
  REQUIRE(sqlite3_prepare_v2(db, "SELECT count(*) FROM sqlite_master", -1, &st, NULL) ==
          SQLITE_OK);
  REQUIRE(sqlite3_step(st) == SQLITE_ROW);
  CHECK_EQ(sqlite3_column_int(st, 0), 1);
  sqlite3_finalize(st);
  sqlite3_close(db);
}

TEST(unknown_schema_version_is_schema) {
  const char *p = scratch("future.db");
  REQUIRE(make_sandbox(p) == 0);
  REQUIRE(sql_exec(p, "UPDATE fs_config SET value = '9.0' WHERE key = 'schema_version'") ==
          0);
  sbx *h;
  int rc = sbx_open(p, 0, &h);
  CHECK_EQ(rc, SBX_SCHEMA);
  CHECK(sbx_errmsg(h)[0] != '\0');
  sbx_close(h);
}

TEST(error_state_is_cleared_by_the_next_success) {
  sbx *h = open_mem();
  REQUIRE(h);
  void *d;
  size_t n;
  int rc = sbx_read_file(h, "/nope", &d, &n);
  CHECK_EQ(rc, SBX_FS | (ENOENT << 8));
  CHECK_EQ(sbx_errno(h), ENOENT);
  CHECK_STR(sbx_errpath(h), "/nope");
  CHECK_STR(sbx_errmsg(h), "read /nope: No such file or directory");
  CHECK(d == NULL);
  CHECK_EQ(write_str(h, "/yes", "1"), SBX_OK);
  CHECK_STR(sbx_errmsg(h), "");
  CHECK_EQ(sbx_errno(h), 0);
  CHECK_STR(sbx_errpath(h), "");
  sbx_close(h);
}

/* As root, file modes do not stop writes: a child drops to nobody first. */
TEST(readonly_database_file_gives_readonly) {
  const char *dir = scratch("rodir");
  REQUIRE(mkdir(dir, 0755) == 0);
  REQUIRE(chmod(scratch_dir(), 0755) == 0);
  char p[600];
  snprintf(p, sizeof p, "%s/ro.db", dir);
  REQUIRE(make_sandbox(p) == 0);
  REQUIRE(chmod(p, 0444) == 0);
  if (geteuid() != 0) {
    REQUIRE(chmod(dir, 0555) == 0);
  }
  fflush(NULL);
  pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0)) _exit(10);
    sbx *h;
    int rc = sbx_open(p, 0, &h);
    int code = 0;
    if (rc == SBX_OK) {
      char *s = read_str(h, "/a"); /* reading still works */
      if (!s || strcmp(s, "hello") != 0) code = 11;
      sbx_free(s);
      rc = write_str(h, "/a", "changed");
    }
    /* either the open or the write says read-only, clearly */
    if (!code && rc != SBX_READONLY) code = 12;
    if (!code && !strstr(sbx_errmsg(h), "read-only")) code = 13;
    sbx_close(h);
    _exit(code);
  }
  int status;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  CHECK(WIFEXITED(status));
  CHECK_EQ(WEXITSTATUS(status), 0);
  chmod(dir, 0755);
  sbx *h;
  REQUIRE(sbx_open(p, SBX_OPEN_READONLY, &h) == SBX_OK);
  CHECK_FILE(h, "/a", "hello");
  sbx_close(h);
}

TEST(null_handle_is_misuse_everywhere) {
  void *d;
  size_t n;
  sbx_stat st;
  sbx_dirent *de;
  char *s, **keys;
  int64_t id;
  sbx_history_entry *he;
  sbx *out;
  sbx_quota q = {0, 0, 0};
  CHECK_EQ(sbx_read_file(NULL, "/a", &d, &n), SBX_MISUSE);
  CHECK_EQ(sbx_write_file(NULL, "/a", "x", 1, 0), SBX_MISUSE);
  CHECK_EQ(sbx_write_files(NULL, NULL, 0, 0), SBX_MISUSE);
  CHECK_EQ(sbx_mkdir(NULL, "/a", 0), SBX_MISUSE);
  CHECK_EQ(sbx_remove(NULL, "/a", 0), SBX_MISUSE);
  CHECK_EQ(sbx_stat_path(NULL, "/a", 0, &st), SBX_MISUSE);
  CHECK_EQ(sbx_listdir(NULL, "/", &de, &n), SBX_MISUSE);
  CHECK_EQ(sbx_rename(NULL, "/a", "/b"), SBX_MISUSE);
  CHECK_EQ(sbx_symlink(NULL, "/a", "/b"), SBX_MISUSE);
  CHECK_EQ(sbx_readlink(NULL, "/a", &s), SBX_MISUSE);
  CHECK_EQ(sbx_kv_get(NULL, "k", &s), SBX_MISUSE);
  CHECK_EQ(sbx_kv_set(NULL, "k", "1"), SBX_MISUSE);
  CHECK_EQ(sbx_kv_delete(NULL, "k"), SBX_MISUSE);
  CHECK_EQ(sbx_kv_keys(NULL, "", &keys, &n), SBX_MISUSE);
  CHECK_EQ(sbx_history_start(NULL, "t", NULL, &id), SBX_MISUSE);
  CHECK_EQ(sbx_history_finish(NULL, 1, NULL, NULL), SBX_MISUSE);
  CHECK_EQ(sbx_history_list(NULL, 0, &he, &n), SBX_MISUSE);
  CHECK_EQ(sbx_snapshot(NULL, &d, &n), SBX_MISUSE);
  CHECK_EQ(sbx_fork(NULL, scratch("f.db"), &out), SBX_MISUSE);
  CHECK_EQ(sbx_set_quota(NULL, &q), SBX_MISUSE);
  CHECK_EQ(sbx_begin(NULL), SBX_MISUSE);
  CHECK_EQ(sbx_commit(NULL), SBX_MISUSE);
  CHECK_EQ(sbx_rollback(NULL), SBX_MISUSE);
  CHECK_EQ(sbx_close(NULL), SBX_OK);
  CHECK(sbx_errmsg(NULL) != NULL);
  CHECK_EQ(sbx_errno(NULL), 0);
  CHECK_STR(sbx_errpath(NULL), "");
  CHECK_STR(sbx_path(NULL), "");
  sbx_free(NULL);
  CHECK(!file_exists(scratch("f.db")));
}

TEST(null_arguments_are_misuse_with_a_message) {
  sbx *h = open_mem();
  REQUIRE(h);
  void *d;
  size_t n;
  char *s;
  CHECK_EQ(sbx_read_file(h, NULL, &d, &n), SBX_MISUSE);
  CHECK(strstr(sbx_errmsg(h), "NULL") != NULL);
  CHECK_EQ(sbx_read_file(h, "/a", NULL, &n), SBX_MISUSE);
  CHECK_EQ(sbx_write_file(h, NULL, "x", 1, 0), SBX_MISUSE);
  CHECK_EQ(sbx_write_file(h, "/a", NULL, 3, 0), SBX_MISUSE);
  CHECK_EQ(sbx_write_file(h, "/a", "x", 1, 0x80), SBX_MISUSE);
  CHECK_EQ(sbx_mkdir(h, NULL, 1), SBX_MISUSE);
  CHECK_EQ(sbx_remove(h, NULL, 1), SBX_MISUSE);
  CHECK_EQ(sbx_stat_path(h, "/", 0, NULL), SBX_MISUSE);
  CHECK_EQ(sbx_listdir(h, "/", NULL, &n), SBX_MISUSE);
  CHECK_EQ(sbx_rename(h, "/a", NULL), SBX_MISUSE);
  CHECK_EQ(sbx_symlink(h, NULL, "/l"), SBX_MISUSE);
  CHECK_EQ(sbx_readlink(h, "/l", NULL), SBX_MISUSE);
  CHECK_EQ(sbx_kv_get(h, NULL, &s), SBX_MISUSE);
  CHECK_EQ(sbx_kv_set(h, "k", NULL), SBX_MISUSE);
  CHECK_EQ(sbx_set_quota(h, NULL), SBX_MISUSE);
  CHECK_EQ(sbx_fork(h, NULL, NULL), SBX_MISUSE);
  CHECK_EQ(count_entries(h, "/"), 0); /* nothing was created */
  CHECK(!path_exists(h, "/a"));
  sbx_close(h);
}

int main(int argc, char **argv) {
  harness_init(argc, argv);
  RUN(memory_sandbox_has_no_path_and_works);
  RUN(temp_sandbox_file_is_removed_on_close);
  RUN(temp_sandbox_in_a_missing_tmpdir_is_a_clear_error);
  RUN(named_sandbox_persists_across_opens);
  RUN(named_sandbox_uses_the_documented_three_fds);
  RUN(running_out_of_fds_is_emfile_at_every_step_of_an_open);
  RUN(nocreate_on_missing_file_is_enoent_and_creates_nothing);
  RUN(readonly_open_reads_but_refuses_writes);
  RUN(bad_open_arguments_are_misuse);
  RUN(directory_as_database_is_eisdir);
  RUN(missing_host_directory_is_enoent);
  RUN(non_sqlite_file_is_corrupt_and_untouched);
  RUN(damaged_sqlite_file_is_corrupt);
  RUN(foreign_sqlite_database_is_schema_and_untouched);
  RUN(unknown_schema_version_is_schema);
  RUN(error_state_is_cleared_by_the_next_success);
  RUN(readonly_database_file_gives_readonly);
  RUN(null_handle_is_misuse_everywhere);
  RUN(null_arguments_are_misuse_with_a_message);
  return harness_done();
}
