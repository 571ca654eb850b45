/*
 * test_store_fastpath.c - the store's fast paths give the same answers as
 * the general ones: the directory cache never answers from the past (own
 * renames, removals, chmods, rollbacks, and other connections' commits),
 * whole-file reads in one query (symlinks, gaps, short chunks, chunk
 * boundaries, permissions), whole-file replaces (old chunks, quotas,
 * times), STORE_WRITE_MKDIRS through a file (ENOTDIR), and
 * store_path_write_files' multi-row groups (existing and repeated names,
 * symlinks, quotas, the failing index, rollback).
 */
#include "store_testutil.h"

/* Two connections to one new database file. */
typedef struct two {
  char *path; /* the file (tu_rm_db frees it) */
  store *a;   /* first connection */
  store *b;   /* second connection */
} two;

static int two_open(two *t) {
  char *msg = NULL;
  t->path = tu_tmp_path("two.db");
  int rc = store_open(t->path, 0, &t->a, &msg);
  free(msg);
  if (rc == 0) rc = store_open(t->path, 0, &t->b, &msg);
  free(msg);
  return rc;
}

static void two_close(two *t) {
  store_close(t->a);
  store_close(t->b);
  tu_rm_db(t->path);
}

static long long chunk_rows(store *s, const char *path) {
  store_stat st;
  if (store_path_stat(s, NULL, path, &st)) return -1;
  return tu_chunk_rows(s, st.ino);
}

/* ---- the directory cache ---- */

TEST(cache_follows_own_renames_removals_and_chmods) {
  store *s = tu_mem();
  store_stat st;
  REQUIRE(store_path_mkdir_p(s, NULL, "/a/b", 0755) == 0);
  REQUIRE(store_path_write_file(s, NULL, "/a/b/f", "x", 1, 0644, 0) == 0);
  CHECK(tu_file_is(s, "/a/b/f", "x", 1)); /* /a and /a/b are cached now */
  CHECK_EQ(store_path_rename(s, NULL, "/a/b", "/a/c"), 0);
  CHECK_EQ(store_path_stat(s, NULL, "/a/b/f", &st), -ENOENT);
  CHECK(tu_file_is(s, "/a/c/f", "x", 1));
  /* a directory replaced by a file: the old path now walks into a file */
  CHECK_EQ(store_path_remove_tree(s, NULL, "/a/c"), 0);
  CHECK_EQ(store_path_write_file(s, NULL, "/a/c", "file", 4, 0644, 0), 0);
  CHECK_EQ(store_path_stat(s, NULL, "/a/c/f", &st), -ENOTDIR);
  CHECK_EQ(store_path_write_file(s, NULL, "/a/c/f", "y", 1, 0644, 0), -ENOTDIR);
  /* a directory that loses x for the caller */
  REQUIRE(store_path_mkdir(s, NULL, "/p", 0755) == 0);
  REQUIRE(store_path_write_file(s, NULL, "/p/f", "z", 1, 0644, 0) == 0);
  store_set_cred(s, 1000, 1000);
  CHECK(tu_file_is(s, "/p/f", "z", 1));
  store_set_cred(s, 0, 0);
  CHECK_EQ(store_path_chmod(s, NULL, "/p", 0700), 0);
  store_set_cred(s, 1000, 1000);
  void *d = NULL;
  size_t n;
  CHECK_EQ(store_path_read_file(s, NULL, "/p/f", &d, &n), -EACCES);
  CHECK_EQ(store_path_stat(s, NULL, "/p/f", &st), -EACCES);
  store_set_cred(s, 0, 0);
  /* the root itself */
  CHECK_EQ(store_path_chmod(s, NULL, "/", 0700), 0);
  store_set_cred(s, 1000, 1000);
  CHECK_EQ(store_path_stat(s, NULL, "/a", &st), -EACCES);
  store_set_cred(s, 0, 0);
  store_close(s);
}

TEST(cache_forgets_what_a_rollback_undoes) {
  store *s = tu_mem();
  store_stat st;
  REQUIRE(store_begin(s) == 0);
  REQUIRE(store_path_mkdir_p(s, NULL, "/gone/deeper", 0755) == 0);
  REQUIRE(store_path_write_file(s, NULL, "/gone/deeper/f", "1", 1, 0644, 0) == 0);
  CHECK(tu_file_is(s, "/gone/deeper/f", "1", 1));
  REQUIRE(store_rollback(s) == 0);
  CHECK_EQ(store_path_stat(s, NULL, "/gone/deeper", &st), -ENOENT);
  CHECK_EQ(store_path_write_file(s, NULL, "/gone/deeper/f", "1", 1, 0644, 0), -ENOENT);
  /* a rename seen through the cache, then undone */
  REQUIRE(store_path_mkdir_p(s, NULL, "/x/y", 0755) == 0);
  REQUIRE(store_begin(s) == 0);
  CHECK_EQ(store_path_rename(s, NULL, "/x", "/z"), 0);
  CHECK(store_path_stat(s, NULL, "/z/y", &st) == 0);
  REQUIRE(store_rollback(s) == 0);
  CHECK_EQ(store_path_stat(s, NULL, "/z/y", &st), -ENOENT);
  CHECK(store_path_stat(s, NULL, "/x/y", &st) == 0);
  CHECK_EQ(tu_int(s, "SELECT count(*) FROM fs_dentry"), 2);
  store_close(s);
}

TEST(cache_sees_other_connections) {
  two t;
  REQUIRE(two_open(&t) == 0);
  store_stat st;
  REQUIRE(store_path_mkdir_p(t.a, NULL, "/d/e", 0755) == 0);
  REQUIRE(store_path_write_file(t.a, NULL, "/d/e/f", "a", 1, 0644, 0) == 0);
  CHECK(tu_file_is(t.a, "/d/e/f", "a", 1)); /* a has /d and /d/e cached */
  /* b renames the directory and puts a file where it was */
  CHECK_EQ(store_path_rename(t.b, NULL, "/d/e", "/d/moved"), 0);
  CHECK_EQ(store_path_write_file(t.b, NULL, "/d/e", "not a dir", 9, 0644, 0), 0);
  /* reads outside a transaction, writes, and reads inside one */
  CHECK_EQ(store_path_stat(t.a, NULL, "/d/e/f", &st), -ENOTDIR);
  void *d = NULL;
  size_t n;
  CHECK_EQ(store_path_read_file(t.a, NULL, "/d/e/f", &d, &n), -ENOTDIR);
  CHECK(tu_file_is(t.a, "/d/moved/f", "a", 1));
  CHECK_EQ(store_path_write_file(t.a, NULL, "/d/e/g", "x", 1, 0644, 0), -ENOTDIR);
  /* b takes x away from others on /d: a (as another user) is refused */
  CHECK(tu_file_is(t.a, "/d/moved/f", "a", 1));
  CHECK_EQ(store_path_chmod(t.b, NULL, "/d", 0700), 0);
  store_set_cred(t.a, 1000, 1000);
  CHECK_EQ(store_path_read_file(t.a, NULL, "/d/moved/f", &d, &n), -EACCES);
  CHECK_EQ(store_path_write_file(t.a, NULL, "/d/moved/g", "x", 1, 0644, 0), -EACCES);
  CHECK_EQ(store_begin(t.a), 0);
  CHECK_EQ(store_path_stat(t.a, NULL, "/d/moved", &st), -EACCES);
  CHECK_EQ(store_rollback(t.a), 0);
  store_set_cred(t.a, 0, 0);
  /* a batch on a after b removed the directory */
  CHECK_EQ(store_path_remove_tree(t.b, NULL, "/d/moved"), 0);
  store_file fs[3] = {
      {"/d/moved/1", "1", 1}, {"/d/moved/2", "2", 1}, {"/d/moved/3", "3", 1}};
  size_t failed = 9;
  CHECK_EQ(store_path_write_files(t.a, NULL, fs, 3, 0644, 0, &failed), -ENOENT);
  CHECK_EQ(failed, 0);
  two_close(&t);
}

TEST(cache_sees_raw_sql_on_the_same_connection) {
  store *s = tu_mem();
  store_stat st;
  REQUIRE(store_path_mkdir_p(s, NULL, "/r/s", 0755) == 0);
  CHECK(store_path_stat(s, NULL, "/r/s", &st) == 0);
  /* what tests (and the fixture tools) do: change the tables directly */
  CHECK_EQ(tu_exec(s, "UPDATE fs_dentry SET name = 'q' WHERE name = 'r'"), SQLITE_OK);
  CHECK_EQ(store_path_stat(s, NULL, "/r/s", &st), -ENOENT);
  CHECK(store_path_stat(s, NULL, "/q/s", &st) == 0);
  store_close(s);
}

/* ---- whole-file reads ---- */

TEST(read_file_fast_path_matches_the_general_one) {
  store *s = tu_mem();
  uint32_t cs = store_chunk_size(s);
  char *big = malloc(cs + 1);
  REQUIRE(big);
  for (uint32_t i = 0; i <= cs; i++) big[i] = (char)('a' + i % 26);
  REQUIRE(store_path_write_file(s, NULL, "/exact", big, cs, 0644, 0) == 0);
  REQUIRE(store_path_write_file(s, NULL, "/over", big, cs + 1, 0644, 0) == 0);
  REQUIRE(store_path_write_file(s, NULL, "/empty", "", 0, 0644, 0) == 0);
  CHECK(tu_file_is(s, "/exact", big, cs));
  CHECK(tu_file_is(s, "/over", big, cs + 1));
  CHECK(tu_file_is(s, "/empty", "", 0));
  void *d = NULL;
  size_t n = 7;
  REQUIRE(store_path_read_file(s, NULL, "/empty", &d, &n) == 0);
  CHECK(n == 0 && d && ((char *)d)[0] == 0);
  free(d);
  /* a short chunk 0 and a missing one read as zeros up to the size */
  REQUIRE(store_path_write_file(s, NULL, "/short", "abcdef", 6, 0644, 0) == 0);
  store_stat st;
  REQUIRE(store_path_stat(s, NULL, "/short", &st) == 0);
  char sql[200];
  snprintf(sql, sizeof sql, "UPDATE fs_data SET data = x'6162' WHERE ino = %lld",
           (long long)st.ino);
  CHECK_EQ(tu_exec(s, sql), SQLITE_OK);
  CHECK(tu_file_is(s, "/short", "ab\0\0\0\0", 6));
  snprintf(sql, sizeof sql, "DELETE FROM fs_data WHERE ino = %lld", (long long)st.ino);
  CHECK_EQ(tu_exec(s, sql), SQLITE_OK);
  CHECK(tu_file_is(s, "/short", "\0\0\0\0\0\0", 6));
  /* through symlinks (last component and middle) */
  REQUIRE(store_path_mkdir(s, NULL, "/dir", 0755) == 0);
  REQUIRE(store_path_write_file(s, NULL, "/dir/t", "target", 6, 0644, 0) == 0);
  REQUIRE(store_path_symlink(s, NULL, "t", "/dir/l1") == 0);
  REQUIRE(store_path_symlink(s, NULL, "/dir/l1", "/l2") == 0);
  REQUIRE(store_path_symlink(s, NULL, "dir", "/dl") == 0);
  CHECK(tu_file_is(s, "/l2", "target", 6));
  CHECK(tu_file_is(s, "/dl/l1", "target", 6));
  CHECK(tu_file_is(s, "/dir/../dir/./t", "target", 6));
  /* errors */
  CHECK_EQ(store_path_read_file(s, NULL, "/dir", &d, &n), -EISDIR);
  CHECK_EQ(store_path_read_file(s, NULL, "/dir/.", &d, &n), -EISDIR);
  CHECK_EQ(store_path_read_file(s, NULL, "/", &d, &n), -EISDIR);
  CHECK_EQ(store_path_read_file(s, NULL, "/dir/t/", &d, &n), -ENOTDIR);
  CHECK_EQ(store_path_read_file(s, NULL, "/dir/none", &d, &n), -ENOENT);
  CHECK_EQ(store_path_read_file(s, NULL, "/dir/t/x", &d, &n), -ENOTDIR);
  REQUIRE(store_path_symlink(s, NULL, "/nowhere", "/dangling") == 0);
  CHECK_EQ(store_path_read_file(s, NULL, "/dangling", &d, &n), -ENOENT);
  CHECK(d == NULL);
  REQUIRE(store_path_chmod(s, NULL, "/dir/t", 0600) == 0);
  store_set_cred(s, 1000, 1000);
  CHECK_EQ(store_path_read_file(s, NULL, "/dir/t", &d, &n), -EACCES);
  CHECK_EQ(store_path_read_file(s, NULL, "/l2", &d, &n), -EACCES);
  store_set_cred(s, 0, 0);
  free(big);
  store_close(s);
}

/* ---- whole-file writes ---- */

TEST(replace_drops_old_chunks_and_keeps_quotas) {
  store *s = tu_mem();
  uint32_t cs = store_chunk_size(s);
  size_t bign = 3 * (size_t)cs + 10;
  char *big = calloc(1, bign);
  REQUIRE(big);
  memset(big, 'B', bign);
  REQUIRE(store_path_write_file(s, NULL, "/f", big, bign, 0644, 0) == 0);
  CHECK_EQ(chunk_rows(s, "/f"), 4);
  store_stat before, after;
  REQUIRE(store_path_stat(s, NULL, "/f", &before) == 0);
  CHECK_EQ(tu_exec(s, "UPDATE fs_inode SET mtime = 5, ctime = 5 WHERE ino > 1"),
           SQLITE_OK);
  CHECK_EQ(store_path_write_file(s, NULL, "/f", "small", 5, 0644, 0), 0);
  CHECK(tu_file_is(s, "/f", "small", 5));
  CHECK_EQ(chunk_rows(s, "/f"), 1);
  REQUIRE(store_path_stat(s, NULL, "/f", &after) == 0);
  CHECK_EQ(after.ino, before.ino);
  CHECK(after.mtime > 5 && after.ctime > 5);
  CHECK_EQ(store_path_write_file(s, NULL, "/f", "", 0, 0644, 0), 0);
  CHECK_EQ(chunk_rows(s, "/f"), 0);
  CHECK(tu_file_is(s, "/f", "", 0));
  /* quotas: the net change counts; EFBIG for any size over the limit */
  REQUIRE(store_path_write_file(s, NULL, "/f", big, bign, 0644, 0) == 0);
  uint64_t bytes;
  REQUIRE(store_get_usage(s, &bytes, NULL) == 0);
  store_quota q = {bytes, 0, 0};
  store_set_quota(s, &q);
  CHECK_EQ(store_path_write_file(s, NULL, "/f", big, bign, 0644, 0), 0); /* same size */
  CHECK_EQ(store_path_write_file(s, NULL, "/f", big, bign - 1, 0644, 0), 0);
  CHECK_EQ(store_path_write_file(s, NULL, "/f", big, bign + 1, 0644, 0), -ENOSPC);
  CHECK(tu_file_is(s, "/f", big, bign - 1));
  store_quota q2 = {0, 0, 100};
  store_set_quota(s, &q2);
  CHECK_EQ(store_path_write_file(s, NULL, "/f", big, 101, 0644, 0), -EFBIG);
  CHECK_EQ(store_path_write_file(s, NULL, "/f", big, 100, 0644, 0), 0);
  /* no w: refused, content kept */
  REQUIRE(store_path_chmod(s, NULL, "/f", 0444) == 0);
  store_set_cred(s, 1000, 1000);
  CHECK_EQ(store_path_write_file(s, NULL, "/f", "x", 1, 0644, 0), -EACCES);
  store_set_cred(s, 0, 0);
  CHECK(tu_file_is(s, "/f", big, 100));
  free(big);
  store_close(s);
}

TEST(write_mkdirs_through_a_file_is_enotdir) {
  store *s = tu_mem();
  REQUIRE(store_path_write_file(s, NULL, "/f", "x", 1, 0644, 0) == 0);
  CHECK_EQ(store_path_write_file(s, NULL, "/f/g", "y", 1, 0644, STORE_WRITE_MKDIRS),
           -ENOTDIR);
  CHECK_EQ(store_path_write_file(s, NULL, "/f/g/h", "y", 1, 0644, STORE_WRITE_MKDIRS),
           -ENOTDIR);
  REQUIRE(store_path_mkdir(s, NULL, "/d", 0755) == 0);
  CHECK_EQ(store_path_write_file(s, NULL, "/d/f/x", "y", 1, 0644, STORE_WRITE_MKDIRS), 0);
  CHECK_EQ(store_path_write_file(s, NULL, "/d/f/x/y", "y", 1, 0644, STORE_WRITE_MKDIRS),
           -ENOTDIR);
  /* a dangling symlink where a directory should be: as open(2), ENOENT */
  REQUIRE(store_path_symlink(s, NULL, "/nowhere", "/dl") == 0);
  CHECK_EQ(store_path_write_file(s, NULL, "/dl/x", "y", 1, 0644, STORE_WRITE_MKDIRS),
           -ENOENT);
  /* mkdir -p itself keeps EEXIST for a file as its last component */
  CHECK_EQ(store_path_mkdir_p(s, NULL, "/f", 0755), -EEXIST);
  CHECK_EQ(tu_int(s, "SELECT count(*) FROM fs_inode"), 6); /* nothing half-made */
  store_close(s);
}

/* ---- many files ---- */

static int all_files_are(store *s, int n, const char *fmt) {
  for (int i = 0; i < n; i++) {
    char path[64], want[64];
    snprintf(path, sizeof path, fmt, i);
    snprintf(want, sizeof want, "content of %d", i);
    if (!tu_file_is(s, path, want, strlen(want))) return 0;
  }
  return 1;
}

TEST(write_files_groups_match_one_by_one) {
  store *s = tu_mem();
  enum { N = 100 };
  static char paths[N][64], bodies[N][64];
  store_file fs[N];
  for (int i = 0; i < N; i++) {
    snprintf(paths[i], sizeof paths[i], i < 70 ? "/g/f%03d" : "/h/sub/f%03d", i);
    snprintf(bodies[i], sizeof bodies[i], "content of %d", i);
    fs[i] = (store_file){paths[i], bodies[i], strlen(bodies[i])};
  }
  size_t failed = 0;
  CHECK_EQ(store_path_write_files(s, NULL, fs, N, 0640, STORE_WRITE_MKDIRS, &failed), 0);
  CHECK_EQ(failed, N);
  CHECK(all_files_are(s, 70, "/g/f%03d"));
  char path[64], want[64];
  for (int i = 70; i < N; i++) {
    snprintf(path, sizeof path, "/h/sub/f%03d", i);
    snprintf(want, sizeof want, "content of %d", i);
    CHECK(tu_file_is(s, path, want, strlen(want)));
  }
  CHECK_EQ(tu_int(s, "SELECT count(*) FROM fs_inode"), 1 + 3 + N);
  CHECK_EQ(tu_int(s,
                  "SELECT count(*) FROM fs_inode WHERE (mode & 4095) = 416 AND "
                  "(mode & 61440) = 32768 AND nlink = 1"),
           N);
  /* every dentry names the inode of its own size (rowids handed in order) */
  CHECK_EQ(tu_int(s,
                  "SELECT count(*) FROM fs_dentry d JOIN fs_inode i ON i.ino = d.ino "
                  "JOIN fs_data c ON c.ino = i.ino AND c.chunk_index = 0 WHERE "
                  "length(c.data) = i.size AND CAST(c.data AS TEXT) = 'content of ' || "
                  "CAST(substr(d.name, 2) AS INTEGER)"),
           N);
  store_stat st;
  REQUIRE(store_path_stat(s, NULL, "/g", &st) == 0);
  CHECK(st.mtime > 0);
  uint64_t bytes, inodes;
  REQUIRE(store_get_usage(s, &bytes, &inodes) == 0);
  CHECK_EQ(inodes, 1 + 3 + N);
  store_close(s);
}

TEST(write_files_existing_and_repeated_names_and_symlinks) {
  store *s = tu_mem();
  REQUIRE(store_path_mkdir(s, NULL, "/d", 0755) == 0);
  REQUIRE(store_path_write_file(s, NULL, "/d/b", "old b, longer", 13, 0644, 0) == 0);
  REQUIRE(store_path_write_file(s, NULL, "/target", "t", 1, 0644, 0) == 0);
  REQUIRE(store_path_symlink(s, NULL, "/target", "/d/link") == 0);
  store_file fs[] = {{"/d/a", "A", 1},      {"/d/b", "B", 1},  {"/d/c", "C1", 2},
                     {"/d/link", "via", 3}, {"/d/c", "C2", 2}, {"/d/e", NULL, 0}};
  size_t n = sizeof fs / sizeof fs[0], failed = 0;
  CHECK_EQ(store_path_write_files(s, NULL, fs, n, 0644, 0, &failed), 0);
  CHECK(tu_file_is(s, "/d/a", "A", 1));
  CHECK(tu_file_is(s, "/d/b", "B", 1));
  CHECK(tu_file_is(s, "/d/c", "C2", 2));
  CHECK(tu_file_is(s, "/target", "via", 3));
  CHECK(tu_file_is(s, "/d/e", "", 0));
  store_stat st;
  CHECK(store_path_lstat(s, NULL, "/d/link", &st) == 0 && S_ISLNK(st.mode));
  CHECK_EQ(tu_int(s,
                  "SELECT count(*) FROM fs_dentry WHERE parent_ino = "
                  "(SELECT ino FROM fs_dentry WHERE name = 'd')"),
           5);
  /* append adds to each file in order */
  store_file ap[] = {{"/d/a", "1", 1}, {"/d/a", "2", 1}, {"/d/new", "n", 1}};
  CHECK_EQ(store_path_write_files(s, NULL, ap, 3, 0644, STORE_WRITE_APPEND, NULL), 0);
  CHECK(tu_file_is(s, "/d/a", "A12", 3));
  CHECK(tu_file_is(s, "/d/new", "n", 1));
  store_close(s);
}

TEST(write_files_is_all_or_nothing_and_names_the_failure) {
  store *s = tu_mem();
  REQUIRE(store_path_mkdir(s, NULL, "/d", 0755) == 0);
  REQUIRE(store_path_mkdir(s, NULL, "/d/sub", 0755) == 0);
  long long inodes0 = tu_int(s, "SELECT count(*) FROM fs_inode");
  store_file fs[] = {
      {"/d/1", "1", 1}, {"/d/2", "2", 1}, {"/d/sub", "x", 1}, {"/d/4", "4", 1}};
  size_t failed = 0;
  CHECK_EQ(store_path_write_files(s, NULL, fs, 4, 0644, 0, &failed), -EISDIR);
  CHECK_EQ(failed, 2);
  CHECK_EQ(tu_int(s, "SELECT count(*) FROM fs_inode"), inodes0);
  /* quota: the third new file is one inode too many */
  store_quota q = {0, (uint64_t)inodes0 + 2, 0};
  store_set_quota(s, &q);
  store_file ok3[] = {{"/d/a", "1", 1}, {"/d/b", "2", 1}, {"/d/c", "3", 1}};
  CHECK_EQ(store_path_write_files(s, NULL, ok3, 3, 0644, 0, &failed), -ENOSPC);
  CHECK_EQ(failed, 2);
  CHECK_EQ(tu_int(s, "SELECT count(*) FROM fs_inode"), inodes0);
  uint64_t inodes;
  REQUIRE(store_get_usage(s, NULL, &inodes) == 0);
  CHECK_EQ(inodes, inodes0);
  store_set_quota(s, NULL);
  /* no w on the directory */
  REQUIRE(store_path_chmod(s, NULL, "/d", 0555) == 0);
  store_set_cred(s, 1000, 1000);
  CHECK_EQ(store_path_write_files(s, NULL, ok3, 3, 0644, 0, &failed), -EACCES);
  CHECK_EQ(failed, 0);
  store_set_cred(s, 0, 0);
  /* inside a group: the whole call goes with a rollback */
  REQUIRE(store_path_chmod(s, NULL, "/d", 0755) == 0);
  REQUIRE(store_begin(s) == 0);
  CHECK_EQ(store_path_write_files(s, NULL, ok3, 3, 0644, 0, NULL), 0);
  CHECK(tu_file_is(s, "/d/c", "3", 1));
  REQUIRE(store_rollback(s) == 0);
  CHECK_EQ(tu_int(s, "SELECT count(*) FROM fs_inode"), inodes0);
  store_close(s);
}

int main(int argc, char **argv) {
  harness_init(argc, argv);
  RUN(cache_follows_own_renames_removals_and_chmods);
  RUN(cache_forgets_what_a_rollback_undoes);
  RUN(cache_sees_other_connections);
  RUN(cache_sees_raw_sql_on_the_same_connection);
  RUN(read_file_fast_path_matches_the_general_one);
  RUN(replace_drops_old_chunks_and_keeps_quotas);
  RUN(write_mkdirs_through_a_file_is_enotdir);
  RUN(write_files_groups_match_one_by_one);
  RUN(write_files_existing_and_repeated_names_and_symlinks);
  RUN(write_files_is_all_or_nothing_and_names_the_failure);
  return harness_done();
}
