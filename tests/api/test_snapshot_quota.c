/*
 * test_snapshot_quota.c - snapshots (bytes out, bytes in, in memory and as a
 * temporary file), invalid snapshot bytes (empty, random, truncated, foreign
 * SQLite), forks (a new file, independent of the original, never over an
 * existing file), and quotas (ENOSPC for bytes and inodes, EFBIG for a file's
 * size, each leaving the sandbox exactly as it was; an in-memory sandbox
 * past 1 GiB).
 */
#include <dirent.h>
#include <sqlite3.h>

#include "api_util.h"

#define FS_ERR(e) (SBX_FS | ((e) << 8))

/* Files named sbx-* (temporary sandboxes) in the scratch directory. */
static int count_temp_files(void) {
  DIR *d = opendir(scratch_dir());
  if (!d) return -1;
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)))
    if (strncmp(e->d_name, "sbx-", 4) == 0) n++;
  closedir(d);
  return n;
}

/* A sandbox with a bit of everything. */
static sbx *populated(void) {
  sbx *h = open_mem();
  if (!h) return NULL;
  int64_t id;
  if (sbx_write_file(h, "/docs/readme.md", "# hi\n", 5, SBX_WRITE_MKDIRS) ||
      sbx_symlink(h, "/docs/readme.md", "/link") || sbx_kv_set(h, "cfg", "{\"a\":1}") ||
      sbx_history_start(h, "tool", "{}", &id) || sbx_history_finish(h, id, "2", NULL)) {
    sbx_close(h);
    return NULL;
  }
  return h;
}

/* Whether h holds what populated() wrote. */
static int looks_populated(sbx *h) {
  char *s = read_str(h, "/docs/readme.md");
  int ok = s && strcmp(s, "# hi\n") == 0;
  sbx_free(s);
  char *t = NULL;
  ok = ok && sbx_readlink(h, "/link", &t) == SBX_OK && strcmp(t, "/docs/readme.md") == 0;
  sbx_free(t);
  char *v = NULL;
  ok = ok && sbx_kv_get(h, "cfg", &v) == SBX_OK && strcmp(v, "{\"a\":1}") == 0;
  sbx_free(v);
  sbx_history_entry *e = NULL;
  size_t n = 0;
  /* the "tool" call, and the file helpers' own rows (write_file, symlink
   * and what this check reads) around it */
  int tools = 0;
  ok = ok && sbx_history_list(h, 0, &e, &n) == SBX_OK;
  for (size_t i = 0; ok && i < n; i++)
    if (strcmp(e[i].name, "tool") == 0)
      tools += strcmp(e[i].status, "success") == 0 && strcmp(e[i].result, "2") == 0;
    else
      ok = strcmp(e[i].name, "write_file") == 0 || strcmp(e[i].name, "symlink") == 0 ||
           strcmp(e[i].name, "read_file") == 0;
  ok = ok && tools == 1;
  sbx_free(e);
  return ok;
}

TEST(snapshot_round_trips_in_memory_and_as_temp_file) {
  sbx *h = populated();
  REQUIRE(h);
  void *bytes;
  size_t len;
  REQUIRE(sbx_snapshot(h, &bytes, &len) == SBX_OK);
  CHECK(len >= 4096);
  CHECK(memcmp(bytes, "SQLite format 3", 16) == 0);
  sbx *m;
  REQUIRE(sbx_open_snapshot(bytes, len, SBX_OPEN_MEMORY, &m) == SBX_OK);
  CHECK(looks_populated(m));
  CHECK_STR(sbx_path(m), "");
  /* the copy is independent of the original */
  CHECK_EQ(write_str(m, "/only-in-copy", "c"), SBX_OK);
  CHECK(!path_exists(h, "/only-in-copy"));
  sbx_close(m);

  setenv("TMPDIR", scratch_dir(), 1);
  sbx *t;
  REQUIRE(sbx_open_snapshot(bytes, len, SBX_OPEN_TEMP, &t) == SBX_OK);
  char path[1024];
  snprintf(path, sizeof path, "%s", sbx_path(t));
  CHECK(file_exists(path));
  CHECK(looks_populated(t));
  sbx_close(t);
  CHECK(!file_exists(path));
  unsetenv("TMPDIR");
  sbx_free(bytes);
  sbx_close(h);
}

TEST(snapshot_of_a_file_sandbox_includes_uncheckpointed_writes) {
  const char *p = scratch("snapfile.db");
  sbx *h;
  REQUIRE(sbx_open(p, 0, &h) == SBX_OK);
  REQUIRE(write_str(h, "/w", "written") == SBX_OK);
  sbx *m = snapshot_copy(h, 0);
  sbx_close(h);
  REQUIRE(m);
  CHECK_FILE(m, "/w", "written");
  sbx_close(m);
}

TEST(invalid_snapshot_bytes_are_rejected_cleanly) {
  setenv("TMPDIR", scratch_dir(), 1);
  sbx *h;
  /* empty, random, text */
  CHECK_EQ(sbx_open_snapshot("", 0, SBX_OPEN_MEMORY, &h), SBX_CORRUPT);
  CHECK(strstr(sbx_errmsg(h), "not an SQLite database") != NULL);
  sbx_close(h);
  unsigned char junk[8192];
  for (size_t i = 0; i < sizeof junk; i++) junk[i] = (unsigned char)(i * 131 + 7);
  CHECK_EQ(sbx_open_snapshot(junk, sizeof junk, SBX_OPEN_MEMORY, &h), SBX_CORRUPT);
  sbx_close(h);
  CHECK_EQ(sbx_open_snapshot(junk, sizeof junk, SBX_OPEN_TEMP, &h), SBX_CORRUPT);
  sbx_close(h);
  CHECK_EQ(sbx_open_snapshot(NULL, 10, SBX_OPEN_MEMORY, &h), SBX_MISUSE);
  sbx_close(h);
  CHECK_EQ(sbx_open_snapshot(junk, 10, SBX_OPEN_READONLY, &h), SBX_MISUSE);
  sbx_close(h);
  CHECK_EQ(sbx_open_snapshot(junk, 10, SBX_OPEN_MEMORY, NULL), SBX_MISUSE);

  /* a real snapshot, truncated and damaged */
  sbx *src = populated();
  REQUIRE(src);
  void *bytes;
  size_t len;
  REQUIRE(sbx_snapshot(src, &bytes, &len) == SBX_OK);
  sbx_close(src);
  CHECK_EQ(sbx_open_snapshot(bytes, 50, SBX_OPEN_MEMORY, &h), SBX_CORRUPT);
  sbx_close(h);
  int rc = sbx_open_snapshot(bytes, len / 2, SBX_OPEN_MEMORY, &h);
  CHECK(rc == SBX_CORRUPT || rc == SBX_SCHEMA);
  sbx_close(h);
  memset((char *)bytes + 100, 0x5a, 4000);
  CHECK_EQ(sbx_open_snapshot(bytes, len, SBX_OPEN_TEMP, &h), SBX_CORRUPT);
  sbx_close(h);
  sbx_free(bytes);

  /* no temporary file was left behind by any failure */
  CHECK_EQ(count_temp_files(), 0);
  unsetenv("TMPDIR");
}

TEST(foreign_sqlite_bytes_are_schema) {
  sqlite3 *db;
  REQUIRE(sqlite3_open(":memory:", &db) == SQLITE_OK);
  REQUIRE(sqlite3_exec(db, "CREATE TABLE t(x); INSERT INTO t VALUES (1);", 0, 0, 0) ==
          SQLITE_OK);
  sqlite3_int64 len;
  unsigned char *bytes = sqlite3_serialize(db, "main", &len, 0);
  REQUIRE(bytes);
  sbx *h;
  CHECK_EQ(sbx_open_snapshot(bytes, (size_t)len, SBX_OPEN_MEMORY, &h), SBX_SCHEMA);
  CHECK(strstr(sbx_errmsg(h), "AgentFS") != NULL);
  sbx_close(h);
  sqlite3_free(bytes);
  sqlite3_close(db);
}

TEST(snapshot_of_an_unknown_schema_version_is_schema) {
  sbx *h = populated();
  REQUIRE(h);
  void *bytes;
  size_t len;
  REQUIRE(sbx_snapshot(h, &bytes, &len) == SBX_OK);
  sbx_close(h);
  sqlite3 *db;
  REQUIRE(sqlite3_open(":memory:", &db) == SQLITE_OK);
  unsigned char *copy = sqlite3_malloc64(len);
  REQUIRE(copy);
  memcpy(copy, bytes, len);
  copy[18] = copy[19] = 1;
  REQUIRE(sqlite3_deserialize(db, "main", copy, (sqlite3_int64)len, (sqlite3_int64)len,
                              SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_RESIZEABLE) ==
          SQLITE_OK);
  REQUIRE(sqlite3_exec(db, "UPDATE fs_config SET value = '7.1' WHERE key = 'schema_version'",
                       0, 0, 0) == SQLITE_OK);
  sqlite3_int64 newlen;
  unsigned char *changed = sqlite3_serialize(db, "main", &newlen, 0);
  REQUIRE(changed);
  CHECK_EQ(sbx_open_snapshot(changed, (size_t)newlen, SBX_OPEN_MEMORY, &h), SBX_SCHEMA);
  sbx_close(h);
  setenv("TMPDIR", scratch_dir(), 1);
  CHECK_EQ(sbx_open_snapshot(changed, (size_t)newlen, SBX_OPEN_TEMP, &h), SBX_SCHEMA);
  sbx_close(h);
  CHECK_EQ(count_temp_files(), 0);
  unsetenv("TMPDIR");
  sqlite3_free(changed);
  sqlite3_close(db);
  sbx_free(bytes);
}

TEST(fork_copies_into_an_independent_file) {
  sbx *h = populated();
  REQUIRE(h);
  const char *p = scratch("fork1.db");
  sbx *f;
  REQUIRE(sbx_fork(h, p, &f) == SBX_OK);
  REQUIRE(f);
  CHECK_STR(sbx_path(f), p);
  CHECK(looks_populated(f));
  CHECK_EQ(write_str(f, "/docs/readme.md", "changed in fork"), SBX_OK);
  CHECK_EQ(sbx_kv_set(f, "cfg", "2"), SBX_OK);
  CHECK_EQ(write_str(h, "/orig-only", "o"), SBX_OK);
  CHECK(looks_populated(h)); /* the original did not change */
  CHECK(!path_exists(f, "/orig-only"));
  sbx_close(f);
  /* the fork persists as a normal file */
  REQUIRE(sbx_open(p, SBX_OPEN_NOCREATE, &f) == SBX_OK);
  CHECK_FILE(f, "/docs/readme.md", "changed in fork");
  sbx_close(f);
  /* fork without a handle, from a file sandbox */
  const char *p2 = scratch("fork2.db");
  REQUIRE(sbx_open(p, SBX_OPEN_NOCREATE, &f) == SBX_OK);
  CHECK_EQ(sbx_fork(f, p2, NULL), SBX_OK);
  sbx_close(f);
  CHECK(file_exists(p2));
  sbx_close(h);
}

TEST(fork_never_overwrites) {
  sbx *h = populated();
  REQUIRE(h);
  const char *p = scratch("exists.db");
  REQUIRE(write_host_file(p, "precious", 8) == 0);
  sbx *f = (sbx *)1;
  CHECK_EQ(sbx_fork(h, p, &f), FS_ERR(EEXIST));
  CHECK(f == NULL);
  CHECK(strstr(sbx_errmsg(h), "fork") != NULL);
  size_t len;
  char *after = read_host_file(p, &len);
  CHECK(after && len == 8 && memcmp(after, "precious", 8) == 0);
  free(after);
  CHECK_EQ(sbx_fork(h, scratch("no/such/dir/x.db"), NULL), FS_ERR(ENOENT));
  CHECK_EQ(sbx_fork(h, "", NULL), SBX_MISUSE);
  sbx_close(h);
}

/* A new file the quota refuses: the error code, its message, and no file left
 * behind; a failure names the path. */
static void check_write_refused(sbx *h, const char *path, const void *buf, size_t len,
                                int code, const char *msg) {
  int rc = sbx_write_file(h, path, buf, len, 0);
  if (rc != code) fprintf(stderr, "  write %s (%zu bytes): got %d\n", path, len, rc);
  CHECK_EQ(rc, code);
  CHECK_STR(sbx_errmsg(h), msg);
  if (path_exists(h, path)) fprintf(stderr, "  %s was left behind\n", path);
  CHECK(!path_exists(h, path));
}

TEST(quota_on_total_bytes_is_enospc_and_changes_nothing) {
  sbx_quota q = {.max_bytes = 10000};
  sbx *h = open_mem_with(NULL, &q);
  REQUIRE(h);
  char buf[6000];
  memset(buf, 'x', sizeof buf);
  CHECK_EQ(sbx_write_file(h, "/a", buf, 6000, 0), SBX_OK);
  check_write_refused(h, "/b", buf, 5000, FS_ERR(ENOSPC),
                      "write /b: No space left on device");
  CHECK_EQ(sbx_write_file(h, "/a", buf, 3000, SBX_WRITE_APPEND), SBX_OK);
  CHECK_EQ(sandbox_file_size(h, "/a"), 9000);
  CHECK_EQ(sbx_write_file(h, "/a", buf, 2000, SBX_WRITE_APPEND), FS_ERR(ENOSPC));
  CHECK_EQ(sandbox_file_size(h, "/a"), 9000); /* unchanged */
  CHECK_EQ(sbx_write_file(h, "/a", buf, 4000, 0), SBX_OK); /* replacing frees space */
  q.max_bytes = 0; /* lifted */
  REQUIRE(sbx_set_quota(h, &q) == SBX_OK);
  CHECK_EQ(sbx_write_file(h, "/b", buf, 6000, 0), SBX_OK);
  sbx_close(h);
}

TEST(quota_on_file_size_is_efbig) {
  sbx_quota q = {.max_file_size = 4096};
  sbx *h = open_mem_with(NULL, &q);
  REQUIRE(h);
  char buf[5000];
  memset(buf, 'y', sizeof buf);
  CHECK_EQ(sbx_write_file(h, "/ok", buf, 4096, 0), SBX_OK);
  check_write_refused(h, "/big", buf, 4097, FS_ERR(EFBIG), "write /big: File too large");
  CHECK_EQ(sbx_write_file(h, "/ok", buf, 1, SBX_WRITE_APPEND), FS_ERR(EFBIG));
  CHECK_EQ(sandbox_file_size(h, "/ok"), 4096);
  sbx_close(h);
}

TEST(quota_on_inodes_is_enospc) {
  sbx *h = open_mem();
  REQUIRE(h);
  REQUIRE(sbx_mkdir(h, "/d", 0) == SBX_OK);
  /* count what exists now (root, /d and anything the store creates) */
  sbx_quota q = {.max_inodes = 0};
  int created = 0;
  char path[32];
  for (int i = 0; i < 3; i++) {
    snprintf(path, sizeof path, "/d/f%d", i);
    if (write_str(h, path, "1") == SBX_OK) created++;
  }
  REQUIRE(created == 3);
  /* allow exactly one more inode than used now: find the count by probing */
  for (uint64_t limit = 1; limit < 64; limit++) {
    q.max_inodes = limit;
    REQUIRE(sbx_set_quota(h, &q) == SBX_OK);
    if (write_str(h, "/d/probe", "p") == SBX_OK) {
      /* probe fits at this limit: it was the last free inode */
      CHECK_EQ(write_str(h, "/d/over", "o"), FS_ERR(ENOSPC));
      CHECK(!path_exists(h, "/d/over"));
      CHECK_EQ(sbx_mkdir(h, "/d/overdir", 0), FS_ERR(ENOSPC));
      CHECK_EQ(sbx_symlink(h, "x", "/d/overlink"), FS_ERR(ENOSPC));
      CHECK_EQ(count_entries(h, "/d"), 4);
      CHECK_EQ(write_str(h, "/d/probe", "rewrite is fine"), SBX_OK);
      break;
    }
    CHECK_EQ(sbx_errno(h), ENOSPC);
  }
  CHECK(path_exists(h, "/d/probe"));
  sbx_close(h);
}

TEST(quota_failure_inside_a_batch_rolls_back_the_batch) {
  sbx_quota q = {.max_bytes = 100};
  sbx *h = open_mem_with(NULL, &q);
  REQUIRE(h);
  char buf[80];
  memset(buf, 'z', sizeof buf);
  sbx_file files[] = {{"/one", buf, 60}, {"/two", buf, 60}};
  CHECK_EQ(sbx_write_files(h, files, 2, 0), FS_ERR(ENOSPC));
  CHECK(!path_exists(h, "/one"));
  CHECK(!path_exists(h, "/two"));
  sbx_close(h);
}

/* A snapshot read straight from the file needs an empty WAL under a read
 * snapshot; with another reader pinning an older snapshot (the checkpoint
 * cannot empty the WAL) it serializes instead; fork copies either way. Both
 * hold the newest write. */
TEST(snapshot_and_fork_with_another_reader_pinning_the_wal) {
  const char *p = scratch("pinned.db");
  sbx *h;
  REQUIRE(sbx_open(p, 0, &h) == SBX_OK);
  REQUIRE(write_str(h, "/old", "old") == SBX_OK);
  sqlite3 *reader;
  REQUIRE(sqlite3_open_v2(p, &reader, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK);
  REQUIRE(sqlite3_exec(reader, "BEGIN; SELECT count(*) FROM fs_inode;", NULL, NULL, NULL) ==
          SQLITE_OK);
  REQUIRE(write_str(h, "/new", "new") == SBX_OK); /* in the WAL, past the reader */
  for (int round = 0; round < 2; round++) {
    sbx *m = snapshot_copy(h, 0);
    REQUIRE(m);
    CHECK_FILE(m, "/new", "new");
    CHECK_FILE(m, "/old", "old");
    sbx_close(m);
    char fp[64];
    snprintf(fp, sizeof fp, "pinned-fork%d.db", round);
    sbx *f;
    REQUIRE(sbx_fork(h, scratch(fp), &f) == SBX_OK);
    CHECK_FILE(f, "/new", "new");
    sbx_close(f);
    /* the second round: the reader is gone, the fast path is taken */
    sqlite3_exec(reader, "COMMIT", NULL, NULL, NULL);
  }
  sqlite3_close(reader);
  sbx_close(h);
}

/* An in-memory sandbox holds what its quota allows, past the 906 MiB where
 * SQLite's memdb cap stopped it with ENOSPC whatever the quota (issue 19). */
TEST(memory_sandbox_holds_its_quota_past_one_gib) {
  sbx *h = open_mem();
  REQUIRE(h);
  const size_t chunk = 8u << 20, files = 136; /* 1088 MiB */
  sbx_quota q = {.max_bytes = (uint64_t)(files + 4) * chunk};
  REQUIRE(sbx_set_quota(h, &q) == SBX_OK);
  char *buf = malloc(5 * chunk); /* the largest write below */
  REQUIRE(buf);
  memset(buf, 'x', 5 * chunk);
  char p[32];
  int rc = SBX_OK;
  for (size_t i = 0; i < files && rc == SBX_OK; i++) {
    snprintf(p, sizeof p, "/f%zu", i);
    rc = sbx_write_file(h, p, buf, chunk, 0);
  }
  CHECK_EQ(rc, SBX_OK);
  if (rc != SBX_OK) fprintf(stderr, "  %s\n", sbx_errmsg(h));
  /* the quota, not the memory database, is the bound */
  CHECK_EQ(sbx_write_file(h, "/over", buf, 5 * chunk, 0), FS_ERR(ENOSPC));
  CHECK_EQ(sbx_write_file(h, "/last", buf, 4 * chunk, 0), SBX_OK);
  free(buf);
  sbx_close(h);
}

int main(int argc, char **argv) {
  harness_init(argc, argv);
  RUN(snapshot_round_trips_in_memory_and_as_temp_file);
  RUN(snapshot_of_a_file_sandbox_includes_uncheckpointed_writes);
  RUN(invalid_snapshot_bytes_are_rejected_cleanly);
  RUN(foreign_sqlite_bytes_are_schema);
  RUN(snapshot_of_an_unknown_schema_version_is_schema);
  RUN(fork_copies_into_an_independent_file);
  RUN(fork_never_overwrites);
  RUN(quota_on_total_bytes_is_enospc_and_changes_nothing);
  RUN(quota_on_file_size_is_efbig);
  RUN(quota_on_inodes_is_enospc);
  RUN(quota_failure_inside_a_batch_rolls_back_the_batch);
  RUN(snapshot_and_fork_with_another_reader_pinning_the_wal);
  RUN(memory_sandbox_holds_its_quota_past_one_gib);
  return harness_done();
}
