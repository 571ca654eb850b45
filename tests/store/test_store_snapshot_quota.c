/*
 * test_store_snapshot_quota.c - opening (new, existing, garbage, foreign
 * SQLite, wrong schema_version), snapshots (store_image of file and memory
 * stores, store_open_image with good and bad bytes, store_copy_to), and the
 * quotas (bytes, inodes, file size) with their running totals, which must
 * match the tables after successes, failures and rollbacks.
 */
#include <sys/wait.h>

#include "store_testutil.h"

static void write_bytes(const char *path, const void *b, size_t n) {
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(b, 1, n, f) != n) {
    perror(path);
    exit(2);
  }
  fclose(f);
}

static void *read_bytes(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long len = ftell(f);
  fseek(f, 0, SEEK_SET);
  void *b = malloc((size_t)len + 1);
  *n = fread(b, 1, (size_t)len, f);
  fclose(f);
  return b;
}

/* Fills a store with a few files, a symlink and a kv entry. */
static void populate(store *s) {
  static unsigned char big[9000];
  for (size_t i = 0; i < sizeof big; i++) big[i] = (unsigned char)(i * 3);
  int rc =
      store_path_write_file(s, NULL, "/d/big", big, sizeof big, 0644, STORE_WRITE_MKDIRS);
  rc |= store_path_write_file(s, NULL, "/d/small", "small", 5, 0644, 0);
  rc |= store_path_symlink(s, NULL, "d/small", "/link");
  rc |= store_kv_set(s, "key", "{\"v\":1}");
  if (rc) {
    fprintf(stderr, "populate failed\n");
    exit(2);
  }
}

static int populated(store *s) {
  static unsigned char big[9000];
  for (size_t i = 0; i < sizeof big; i++) big[i] = (unsigned char)(i * 3);
  char *v = NULL;
  int ok = tu_file_is(s, "/d/big", (const char *)big, sizeof big) &&
           tu_file_is(s, "/link", "small", 5) && store_kv_get(s, "key", &v) == 0 &&
           strcmp(v, "{\"v\":1}") == 0;
  free(v);
  return ok;
}

TEST(open_creates_schema_then_reopens_existing) {
  char *path = tu_tmp_path("a.db");
  store *s = NULL;
  CHECK_EQ(store_open(path, STORE_OPEN_NOCREATE, &s, NULL), -ENOENT);
  CHECK_EQ(store_open(path, 0, &s, NULL), 0);
  populate(s);
  char buf[32];
  CHECK_STR(tu_text(s, "PRAGMA journal_mode", buf, sizeof buf), "wal");
  store_close(s);
  CHECK_EQ(store_open(path, STORE_OPEN_NOCREATE, &s, NULL), 0);
  CHECK(populated(s));
  store_close(s);
  tu_rm_db(path);
}

TEST(open_of_an_empty_file_creates_the_schema) {
  char *path = tu_tmp_path("empty.db");
  write_bytes(path, "", 0);
  store *s = NULL;
  CHECK_EQ(store_open(path, 0, &s, NULL), 0);
  CHECK_EQ(tu_int(s, "SELECT count(*) FROM fs_inode"), 1);
  store_close(s);
  tu_rm_db(path);
}

TEST(open_of_non_sqlite_bytes_is_ecorrupt) {
  char *path = tu_tmp_path("junk.db");
  char junk[8192];
  for (size_t i = 0; i < sizeof junk; i++) junk[i] = (char)(i * 31 + 7);
  write_bytes(path, junk, sizeof junk);
  store *s = NULL;
  char *msg = NULL;
  CHECK_EQ(store_open(path, 0, &s, &msg), STORE_ECORRUPT);
  CHECK(s == NULL);
  CHECK(msg != NULL && *msg);
  free(msg);
  size_t n;
  char *after = read_bytes(path, &n);
  CHECK(n == sizeof junk && memcmp(after, junk, n) == 0);
  free(after);
  CHECK_EQ(store_open(path, STORE_OPEN_READONLY, &s, NULL), STORE_ECORRUPT);
  tu_rm_db(path);
}

TEST(open_of_foreign_sqlite_is_eschema_and_unchanged) {
  char *path = tu_tmp_path("foreign.db");
  sqlite3 *db;
  sqlite3_open(path, &db);
  sqlite3_exec(db, "CREATE TABLE notes (t TEXT); INSERT INTO notes VALUES ('x')", 0, 0,
               0);
  sqlite3_close(db);
  size_t n1, n2;
  char *before = read_bytes(path, &n1);
  store *s = NULL;
  char *msg = NULL;
  CHECK_EQ(store_open(path, 0, &s, &msg), STORE_ESCHEMA);
  CHECK(msg && strstr(msg, "AgentFS"));
  free(msg);
  char *after = read_bytes(path, &n2);
  CHECK(n1 == n2 && memcmp(before, after, n1) == 0); /* not even WAL switched on */
  free(before);
  free(after);
  tu_rm_db(path);
}

/* A new store changed by one SQL statement, then opened again: refused with
 * STORE_ESCHEMA and a message that contains `why`; a failure names the file. */
static void check_changed_store_is_eschema(const char *name, const char *sql,
                                           const char *why) {
  char *path;
  store *s = tu_file(name, &path);
  CHECK_EQ(tu_exec(s, sql), SQLITE_OK);
  store_close(s);
  s = NULL;
  char *msg = NULL;
  int rc = store_open(path, 0, &s, &msg);
  if (rc != STORE_ESCHEMA || !msg || !strstr(msg, why))
    fprintf(stderr, "  %s: got %d \"%s\", want ESCHEMA saying %s\n", name, rc,
            msg ? msg : "", why);
  CHECK_EQ(rc, STORE_ESCHEMA);
  CHECK(msg && strstr(msg, why));
  free(msg);
  store_close(s);
  tu_rm_db(path);
}

TEST(open_of_unknown_schema_version_is_eschema) {
  check_changed_store_is_eschema(
      "v99.db", "UPDATE fs_config SET value='9.9' WHERE key='schema_version'", "9.9");
}

/* A trigger runs inside the store's own statements, past every deadline:
 * this one would make each new file spin forever. */
TEST(open_of_a_database_with_a_trigger_is_eschema) {
  check_changed_store_is_eschema(
      "trigger.db",
      "CREATE TRIGGER spin AFTER INSERT ON fs_dentry BEGIN SELECT count(*) FROM "
      "(WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM "
      "c); "
      "END",
      "triggers");
}

TEST(open_of_a_directory_is_eisdir) {
  store *s = NULL;
  CHECK_EQ(store_open("/tmp", 0, &s, NULL), -EISDIR);
  CHECK_EQ(store_open("", 0, &s, NULL), -EINVAL);
}

/* In a child that is not root (root ignores file modes): a read-only WAL
 * database in a read-only directory (no -shm can be made) opens, reads, and
 * refuses writes with EROFS, whether opened read-only or for writing. */
static int child_readonly_checks(const char *path) {
  if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0)) return 10;
  store *s = NULL;
  char *msg = NULL;
  int rc = store_open(path, STORE_OPEN_READONLY, &s, &msg);
  if (rc != 0) fprintf(stderr, "  read-only open: %d %s\n", rc, msg ? msg : "");
  free(msg);
  if (rc != 0) return 11;
  if (!tu_file_is(s, "/d/small", "small", 5)) return 12;
  store_close(s);
  rc = store_open(path, 0, &s, NULL); /* asked for writing: read-only store */
  if (rc != 0) return 13;
  if (!store_readonly(s)) return 14;
  if (store_path_write_file(s, NULL, "/x", "x", 1, 0644, 0) != -EROFS) return 15;
  if (store_kv_set(s, "k", "1") != -EROFS) return 16;
  if (!tu_file_is(s, "/link", "small", 5)) return 17;
  store_close(s);
  return 0;
}

TEST(readonly_file_in_readonly_dir_opens_readonly_and_changes_nothing) {
  char *path;
  store *s = tu_file("ro.db", &path);
  populate(s);
  store_close(s);
  size_t n1, n2;
  char *before = read_bytes(path, &n1);
  char *dir = strdup(path);
  *strrchr(dir, '/') = 0;
  chmod(path, 0444);
  chmod(dir, 0555);
  pid_t pid = fork();
  if (pid == 0) _exit(child_readonly_checks(path));
  int status = 0;
  waitpid(pid, &status, 0);
  CHECK(WIFEXITED(status));
  CHECK_EQ(WEXITSTATUS(status), 0);
  chmod(dir, 0755);
  chmod(path, 0644);
  char *after = read_bytes(path, &n2);
  CHECK(n1 == n2 && memcmp(before, after, n1) == 0);
  char side[4200];
  snprintf(side, sizeof side, "%s-shm", path);
  CHECK(access(side, F_OK) != 0); /* nothing was created beside it */
  free(before);
  free(after);
  free(dir);
  tu_rm_db(path);
}

TEST(image_of_file_store_opens_with_the_same_content) {
  char *path;
  store *s = tu_file("img.db", &path);
  populate(s); /* still in the WAL: the image must include it */
  void *img = NULL;
  size_t len = 0;
  CHECK_EQ(store_image(s, &img, &len), 0);
  CHECK(len >= 4096 && len % 4096 == 0);
  CHECK(memcmp(img, "SQLite format 3", 16) == 0);
  store *m = NULL;
  char *msg = NULL;
  CHECK_EQ(store_open_image(img, len, &m, &msg), 0);
  free(msg);
  if (m) {
    CHECK(populated(m));
    /* the imported copy is writable and independent */
    CHECK_EQ(store_path_write_file(m, NULL, "/only-in-copy", "c", 1, 0644, 0), 0);
    store_stat st;
    CHECK_EQ(store_path_stat(s, NULL, "/only-in-copy", &st), -ENOENT);
    store_close(m);
  }
  free(img);
  store_close(s);
  tu_rm_db(path);
}

/* The image of a new memory store filled by populate(), or NULL (said) if
 * store_image fails. Caller frees. */
static void *populated_image(size_t *len) {
  store *s = tu_mem();
  populate(s);
  void *img = NULL;
  *len = 0;
  int rc = store_image(s, &img, len);
  if (rc) fprintf(stderr, "  store_image: %d\n", rc);
  store_close(s);
  return rc ? NULL : img;
}

TEST(image_of_memory_store_round_trips_and_leaves_input_alone) {
  size_t len;
  void *img = populated_image(&len);
  REQUIRE(img);
  void *copy = malloc(len);
  memcpy(copy, img, len);
  store *m = NULL;
  CHECK_EQ(store_open_image(img, len, &m, NULL), 0);
  CHECK(m && populated(m));
  CHECK(memcmp(copy, img, len) == 0);
  /* an image of the image is still good */
  void *img2 = NULL;
  size_t len2 = 0;
  CHECK_EQ(store_image(m, &img2, &len2), 0);
  store *m2 = NULL;
  CHECK_EQ(store_open_image(img2, len2, &m2, NULL), 0);
  CHECK(m2 && populated(m2));
  store_close(m2);
  store_close(m);
  free(img);
  free(img2);
  free(copy);
}

TEST(open_image_rejects_bad_bytes_without_leaking) {
  size_t len;
  void *img = populated_image(&len);
  REQUIRE(img);
  store *m = NULL;
  char *msg = NULL;
  CHECK_EQ(store_open_image("hello", 5, &m, &msg), STORE_ECORRUPT);
  free(msg);
  CHECK_EQ(store_open_image(img, 0, &m, NULL), STORE_ECORRUPT);
  CHECK_EQ(store_open_image(img, len - 100, &m, NULL), STORE_ECORRUPT);
  unsigned char *bad = malloc(len);
  memcpy(bad, img, len);
  bad[16] = 0x03; /* page size 0x0310: not a power of two */
  CHECK_EQ(store_open_image(bad, len, &m, NULL), STORE_ECORRUPT);
  memcpy(bad, img, len);
  for (size_t i = 4096; i < len; i++) bad[i] ^= 0x5a; /* every page after the first */
  msg = NULL;
  CHECK_EQ(store_open_image(bad, len, &m, &msg), STORE_ECORRUPT);
  free(msg);
  CHECK(m == NULL);
  free(bad);
  free(img);
}

TEST(open_image_of_foreign_sqlite_is_eschema) {
  sqlite3 *db;
  sqlite3_open(":memory:", &db);
  sqlite3_exec(db, "CREATE TABLE t (x); INSERT INTO t VALUES (1)", 0, 0, 0);
  sqlite3_int64 n = 0;
  unsigned char *p = sqlite3_serialize(db, "main", &n, 0);
  store *m = NULL;
  CHECK_EQ(store_open_image(p, (size_t)n, &m, NULL), STORE_ESCHEMA);
  sqlite3_free(p);
  sqlite3_close(db);
}

TEST(copy_to_writes_a_new_file_and_refuses_existing) {
  store *s = tu_mem();
  populate(s);
  char *path = tu_tmp_path("copy.db");
  CHECK_EQ(store_copy_to(s, path), 0);
  CHECK_EQ(store_copy_to(s, path), -EEXIST);
  store *c = NULL;
  CHECK_EQ(store_open(path, 0, &c, NULL), 0);
  CHECK(c && populated(c));
  store_close(c);
  CHECK_EQ(store_begin(s), 0);
  char *p2 = tu_tmp_path("copy2.db");
  CHECK_EQ(store_copy_to(s, p2), -EBUSY);
  CHECK_EQ(store_commit(s), 0);
  CHECK_EQ(access(p2, F_OK), -1);
  tu_rm_db(p2);
  tu_rm_db(path);
  store_close(s);
}

/* The totals the quotas count, straight from the tables. */
static void table_usage(store *s, long long *bytes, long long *inodes) {
  *bytes = tu_int(s, "SELECT total(size) FROM fs_inode WHERE (mode & 61440) = 32768");
  *inodes = tu_int(s, "SELECT count(*) FROM fs_inode");
}

static int usage_matches(store *s) {
  uint64_t b, i;
  long long tb, ti;
  if (store_get_usage(s, &b, &i)) return 0;
  table_usage(s, &tb, &ti);
  if ((long long)b != tb || (long long)i != ti)
    fprintf(stderr, "  usage %llu/%llu, tables %lld/%lld\n", (unsigned long long)b,
            (unsigned long long)i, tb, ti);
  return (long long)b == tb && (long long)i == ti;
}

TEST(byte_quota_gives_enospc_and_changes_nothing) {
  store *s = tu_mem();
  store_quota q = {.max_bytes = 10000};
  store_set_quota(s, &q);
  static char buf[12000];
  memset(buf, 'q', sizeof buf);
  CHECK_EQ(store_path_write_file(s, NULL, "/a", buf, 6000, 0644, 0), 0);
  CHECK_EQ(store_path_write_file(s, NULL, "/b", buf, 5000, 0644, 0), -ENOSPC);
  store_stat st;
  CHECK_EQ(store_path_stat(s, NULL, "/b", &st), -ENOENT); /* not even created */
  CHECK_EQ(store_path_write_file(s, NULL, "/b", buf, 4000, 0644, 0), 0);
  CHECK_EQ(store_path_write_file(s, NULL, "/a", buf, 1, 0644, STORE_WRITE_APPEND),
           -ENOSPC);
  CHECK_EQ(store_path_stat(s, NULL, "/a", &st), 0);
  CHECK_EQ(st.size, 6000);
  /* overwriting in place needs no new bytes */
  CHECK_EQ(store_write(s, st.ino, "zz", 2, 100), 2);
  CHECK_EQ(store_truncate(s, st.ino, 6001), -ENOSPC);
  /* replacing a file counts its old bytes as freed */
  CHECK_EQ(store_path_write_file(s, NULL, "/a", buf, 6000, 0644, 0), 0);
  CHECK_EQ(store_path_unlink(s, NULL, "/a"), 0);
  CHECK_EQ(store_path_write_file(s, NULL, "/c", buf, 6000, 0644, 0), 0);
  CHECK(usage_matches(s));
  store_close(s);
}

TEST(inode_quota_gives_enospc) {
  store *s = tu_mem();
  store_quota q = {.max_inodes = 4}; /* root + 3 */
  store_set_quota(s, &q);
  CHECK_EQ(store_path_mkdir(s, NULL, "/d", 0755), 0);
  CHECK_EQ(store_path_write_file(s, NULL, "/d/f", "", 0, 0644, 0), 0);
  CHECK_EQ(store_path_symlink(s, NULL, "f", "/d/l"), 0);
  CHECK_EQ(store_path_write_file(s, NULL, "/d/g", "", 0, 0644, 0), -ENOSPC);
  CHECK_EQ(store_path_mkdir(s, NULL, "/e", 0755), -ENOSPC);
  CHECK_EQ(store_path_link(s, NULL, "/d/f", "/hard"), 0); /* no new inode */
  CHECK_EQ(store_path_remove_tree(s, NULL, "/d"), 0);
  CHECK_EQ(store_path_mkdir(s, NULL, "/e", 0755), 0);
  CHECK(usage_matches(s));
  store_close(s);
}

TEST(file_size_quota_gives_efbig) {
  store *s = tu_mem();
  store_quota q = {.max_file_size = 5000};
  store_set_quota(s, &q);
  static char buf[6000];
  CHECK_EQ(store_path_write_file(s, NULL, "/a", buf, 5000, 0644, 0), 0);
  CHECK_EQ(store_path_write_file(s, NULL, "/b", buf, 5001, 0644, 0), -EFBIG);
  store_stat st;
  CHECK_EQ(store_path_stat(s, NULL, "/a", &st), 0);
  CHECK_EQ(store_write(s, st.ino, "x", 1, 5000), -EFBIG);
  CHECK_EQ(store_truncate(s, st.ino, 1 << 20), -EFBIG);
  CHECK_EQ(store_truncate(s, st.ino, 10), 0);
  CHECK_EQ(store_write(s, st.ino, "x", 1, (uint64_t)INT64_MAX), -EFBIG);
  store_close(s);
}

TEST(totals_follow_rollbacks_and_are_computed_for_existing_data) {
  store *s = tu_mem();
  populate(s); /* before any quota: totals not yet kept */
  store_quota q = {.max_bytes = 1 << 20, .max_inodes = 1000};
  store_set_quota(s, &q);
  CHECK(usage_matches(s));
  CHECK_EQ(store_begin(s), 0);
  CHECK_EQ(store_path_write_file(s, NULL, "/t1", "12345", 5, 0644, 0), 0);
  CHECK_EQ(store_path_unlink(s, NULL, "/d/big"), 0);
  CHECK_EQ(store_rollback(s), 0);
  CHECK(usage_matches(s));
  CHECK_EQ(store_begin(s), 0);
  CHECK_EQ(store_path_write_file(s, NULL, "/t2", "12345", 5, 0644, 0), 0);
  CHECK_EQ(store_begin(s), 0);
  CHECK_EQ(store_path_write_file(s, NULL, "/t3", "1", 1, 0644, 0), 0);
  CHECK_EQ(store_rollback(s), 0);
  CHECK_EQ(store_commit(s), 0);
  CHECK(usage_matches(s));
  /* a sequence of mixed operations keeps them exact */
  char p[32];
  for (int i = 0; i < 40; i++) {
    snprintf(p, sizeof p, "/m%d", i % 7);
    switch (i % 4) {
      case 0:
        store_path_write_file(s, NULL, p, "abcdefgh", (size_t)(i % 8), 0644, 0);
        break;
      case 1:
        store_path_write_file(s, NULL, p, "xy", 2, 0644, STORE_WRITE_APPEND);
        break;
      case 2:
        store_path_unlink(s, NULL, p);
        break;
      case 3:
        store_path_rename(s, NULL, p, "/m0");
        break;
    }
  }
  CHECK(usage_matches(s));
  store_close(s);
}

int main(int argc, char **argv) {
  harness_init(argc, argv);
  RUN(open_creates_schema_then_reopens_existing);
  RUN(open_of_an_empty_file_creates_the_schema);
  RUN(open_of_non_sqlite_bytes_is_ecorrupt);
  RUN(open_of_foreign_sqlite_is_eschema_and_unchanged);
  RUN(open_of_unknown_schema_version_is_eschema);
  RUN(open_of_a_database_with_a_trigger_is_eschema);
  RUN(open_of_a_directory_is_eisdir);
  RUN(readonly_file_in_readonly_dir_opens_readonly_and_changes_nothing);
  RUN(image_of_file_store_opens_with_the_same_content);
  RUN(image_of_memory_store_round_trips_and_leaves_input_alone);
  RUN(open_image_rejects_bad_bytes_without_leaking);
  RUN(open_image_of_foreign_sqlite_is_eschema);
  RUN(copy_to_writes_a_new_file_and_refuses_existing);
  RUN(byte_quota_gives_enospc_and_changes_nothing);
  RUN(inode_quota_gives_enospc);
  RUN(file_size_quota_gives_efbig);
  RUN(totals_follow_rollbacks_and_are_computed_for_existing_data);
  return harness_done();
}
