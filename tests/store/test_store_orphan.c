/*
 * test_store_orphan.c - files that outlive their last name while held open
 * (store_hold / store_unhold, src/store/store_orphan.c): read, write,
 * truncate and getattr by inode after unlink and after a rename over them;
 * freed with their data at the last unhold; hard links; holds dropped from
 * another thread (store_unhold_later) freed at the next write or at close;
 * a crashed owner's orphans reclaimed when the file is opened again, a live
 * owner's kept; a copy (image, or a file made by store_copy_to as sbx_fork
 * does) starts without any; quotas count an orphan
 * until it is freed.
 */
#include <pthread.h>
#include <sys/wait.h>

#include "store_testutil.h"

static store_ino make_file(store *s, const char *path, const char *data) {
  CHECK_EQ(store_path_write_file(s, NULL, path, data, strlen(data), 0644, 0), 0);
  store_stat st;
  CHECK_EQ(store_path_stat(s, NULL, path, &st), 0);
  return st.ino;
}

/* A file written at path, then held open and unlinked: an orphan. */
static store_ino make_orphan(store *s, const char *path, const char *data) {
  store_ino ino = make_file(s, path, data);
  CHECK_EQ(store_hold(s, ino), 0);
  CHECK_EQ(store_path_unlink(s, NULL, path), 0);
  return ino;
}

static long long rows(store *s, const char *table_where) {
  char sql[256];
  snprintf(sql, sizeof sql, "SELECT count(*) FROM %s", table_where);
  return tu_int(s, sql);
}

TEST(unlinked_open_file_keeps_working_until_unhold) {
  store *s = tu_mem();
  store_ino ino = make_orphan(s, "/t", "hello");
  store_stat st;
  CHECK_EQ(store_path_stat(s, NULL, "/t", &st), -ENOENT);
  CHECK_EQ(store_getattr(s, ino, &st), 0);
  CHECK_EQ(st.nlink, 0);
  CHECK_EQ(store_orphan_count(s), 1);
  /* what pytest's capture does with its TemporaryFile */
  CHECK_EQ(store_truncate(s, ino, 0), 0);
  CHECK_EQ(store_write(s, ino, "again", 5, 0), 5);
  CHECK_EQ(store_truncate(s, ino, 3), 0);
  char buf[16] = {0};
  CHECK_EQ(store_read(s, ino, buf, sizeof buf, 0), 3);
  CHECK_STR(buf, "aga");
  CHECK_EQ(store_unhold(s, ino), 0);
  CHECK_EQ(store_getattr(s, ino, &st), -ENOENT);
  CHECK_EQ(store_orphan_count(s), 0);
  char sql[96];
  snprintf(sql, sizeof sql, "fs_data WHERE ino = %lld", (long long)ino);
  CHECK_EQ(rows(s, sql), 0);
  CHECK_EQ(rows(s, "fs_inode WHERE nlink = 0"), 0);
  store_close(s);
}

TEST(unheld_file_is_deleted_at_once) {
  store *s = tu_mem();
  store_ino ino = make_file(s, "/t", "x");
  CHECK_EQ(store_hold(s, ino), 0);
  CHECK_EQ(store_unhold(s, ino), 0);
  CHECK_EQ(store_path_unlink(s, NULL, "/t"), 0);
  store_stat st;
  CHECK_EQ(store_getattr(s, ino, &st), -ENOENT);
  CHECK_EQ(store_orphan_count(s), 0);
  /* a store that never had an orphan keeps the AgentFS schema exactly */
  CHECK_EQ(rows(s, "sqlite_master WHERE name = 'sbx_orphan'"), 0);
  store_close(s);
}

TEST(rename_over_an_open_file) {
  store *s = tu_mem();
  store_ino old = make_file(s, "/f", "old contents");
  make_file(s, "/f.new", "new");
  CHECK_EQ(store_hold(s, old), 0);
  CHECK_EQ(store_hold(s, old), 0); /* two handles */
  CHECK_EQ(store_path_rename(s, NULL, "/f.new", "/f"), 0);
  CHECK(tu_file_is(s, "/f", "new", 3));
  char buf[32] = {0};
  CHECK_EQ(store_read(s, old, buf, sizeof buf, 0), 12);
  CHECK_STR(buf, "old contents");
  CHECK_EQ(store_unhold(s, old), 0);
  store_stat st;
  CHECK_EQ(store_getattr(s, old, &st), 0); /* one handle left */
  CHECK_EQ(store_unhold(s, old), 0);
  CHECK_EQ(store_getattr(s, old, &st), -ENOENT);
  store_close(s);
}

TEST(hard_links_orphan_only_at_the_last) {
  store *s = tu_mem();
  store_ino ino = make_file(s, "/a", "data");
  CHECK_EQ(store_path_link(s, NULL, "/a", "/b"), 0);
  CHECK_EQ(store_hold(s, ino), 0);
  CHECK_EQ(store_path_unlink(s, NULL, "/a"), 0);
  CHECK_EQ(store_orphan_count(s), 0);
  CHECK_EQ(store_path_unlink(s, NULL, "/b"), 0);
  CHECK_EQ(store_orphan_count(s), 1);
  CHECK_EQ(store_unhold(s, ino), 0);
  CHECK_EQ(store_orphan_count(s), 0);
  CHECK_EQ(rows(s, "fs_inode"), 1); /* the root */
  store_close(s);
}

TEST(rolled_back_unlink_leaves_the_file_alone) {
  store *s = tu_mem();
  store_ino ino = make_file(s, "/t", "keep");
  CHECK_EQ(store_hold(s, ino), 0);
  CHECK_EQ(store_begin(s), 0);
  CHECK_EQ(store_path_unlink(s, NULL, "/t"), 0);
  CHECK_EQ(store_rollback(s), 0);
  CHECK_EQ(store_unhold(s, ino), 0); /* its stale "orphaned" mark is checked */
  CHECK(tu_file_is(s, "/t", "keep", 4));
  store_close(s);
}

static void *unhold_later(void *arg) {
  void **a = arg;
  store_unhold_later(a[0], *(store_ino *)a[1]);
  return NULL;
}

TEST(unhold_later_frees_at_the_next_write) {
  store *s = tu_mem();
  store_ino ino = make_orphan(s, "/t", "bytes");
  pthread_t th;
  void *arg[2] = {s, &ino};
  pthread_create(&th, NULL, unhold_later, arg);
  pthread_join(th, NULL);
  store_stat st;
  CHECK_EQ(store_getattr(s, ino, &st), 0); /* not yet: no write since */
  CHECK_EQ(store_path_mkdir(s, NULL, "/d", 0755), 0);
  CHECK_EQ(store_getattr(s, ino, &st), -ENOENT);
  CHECK_EQ(store_orphan_count(s), 0);
  store_close(s);
}

TEST(quota_counts_an_orphan_until_freed) {
  store *s = tu_mem();
  store_quota q = {.max_bytes = 100};
  store_set_quota(s, &q);
  char big[81];
  memset(big, 'x', 80);
  big[80] = 0;
  store_ino ino = make_orphan(s, "/big", big);
  CHECK_EQ(store_path_write_file(s, NULL, "/more", big, 80, 0644, 0), -ENOSPC);
  CHECK_EQ(store_unhold(s, ino), 0);
  CHECK_EQ(store_path_write_file(s, NULL, "/more", big, 80, 0644, 0), 0);
  store_close(s);
}

TEST(unheld_orphans_freed_at_close) {
  char *path;
  store *s = tu_file("o.db", &path);
  store_ino ino = make_orphan(s, "/t", "bytes");
  store_unhold_later(s, ino);
  store_close(s);
  REQUIRE(store_open(path, 0, &s, NULL) == 0);
  CHECK_EQ(store_orphan_count(s), 0);
  CHECK_EQ(rows(s, "fs_inode"), 1);
  store_close(s);
  tu_rm_db(path);
}

TEST(crashed_owner_orphans_reclaimed_on_open) {
  char *path;
  store *s = tu_file("c.db", &path);
  store_close(s);
  pid_t pid = fork();
  if (pid == 0) {
    /* a process that dies (like kill -9) with an unlinked file open */
    store *c = NULL;
    if (store_open(path, 0, &c, NULL)) _exit(2);
    store_ino ino = make_file(c, "/tmpfile", "lost");
    if (store_hold(c, ino) || store_path_unlink(c, NULL, "/tmpfile")) _exit(3);
    _exit(store_orphan_count(c) == 1 ? 0 : 4);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  REQUIRE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  REQUIRE(store_open(path, 0, &s, NULL) == 0);
  CHECK_EQ(store_orphan_count(s), 0);
  CHECK_EQ(rows(s, "fs_inode"), 1);
  CHECK_EQ(rows(s, "fs_data"), 0);
  store_close(s);
  tu_rm_db(path);
}

TEST(live_owner_orphans_kept_by_a_second_open) {
  char *path = tu_tmp_path("l.db");
  store *a = NULL, *b = NULL;
  REQUIRE(store_open(path, 0, &a, NULL) == 0);
  store_ino ino = make_orphan(a, "/t", "live");
  REQUIRE(store_open(path, 0, &b, NULL) == 0); /* this process is alive */
  CHECK_EQ(store_orphan_count(b), 1);
  store_close(b);
  char buf[8] = {0};
  CHECK_EQ(store_read(a, ino, buf, sizeof buf, 0), 4);
  CHECK_EQ(store_unhold(a, ino), 0);
  CHECK_EQ(store_orphan_count(a), 0);
  store_close(a);
  tu_rm_db(path);
}

TEST(a_copy_starts_without_orphans) {
  store *s = tu_mem();
  store_ino ino = make_orphan(s, "/t", "copied?");
  void *img = NULL;
  size_t len = 0;
  REQUIRE(store_image(s, &img, &len) == 0);
  store *c = NULL;
  REQUIRE(store_open_image(img, len, &c, NULL) == 0);
  CHECK_EQ(store_orphan_count(c), 0);
  CHECK_EQ(rows(c, "fs_inode"), 1);
  store_close(c);
  free(img);
  CHECK_EQ(store_unhold(s, ino), 0);
  store_close(s);
}

TEST(a_file_copy_starts_without_orphans) {
  char *path = tu_tmp_path("src.db");
  char copy[4200];
  snprintf(copy, sizeof copy, "%s.copy", path);
  store *s = NULL;
  REQUIRE(store_open(path, 0, &s, NULL) == 0);
  store_ino ino = make_file(s, "/t", "open in the source");
  make_file(s, "/kept", "kept");
  CHECK_EQ(store_hold(s, ino), 0);
  CHECK_EQ(store_path_unlink(s, NULL, "/t"), 0);
  CHECK_EQ(store_copy_to(s, copy), 0); /* what sbx_fork does */
  store *c = NULL;
  REQUIRE(store_open(copy, 0, &c, NULL) == 0);
  CHECK_EQ(store_orphan_count(c), 0);
  CHECK_EQ(rows(c, "fs_inode"), 2); /* the root and /kept */
  CHECK_EQ(rows(c, "fs_data WHERE ino NOT IN (SELECT ino FROM fs_inode)"), 0);
  CHECK(tu_file_is(c, "/kept", "kept", 4));
  store_close(c);
  CHECK_EQ(store_orphan_count(s), 1); /* the source still has it open */
  CHECK_EQ(store_unhold(s, ino), 0);
  store_close(s);
  unlink(copy);
  tu_rm_db(path);
}

TEST(tmpfile_is_a_held_orphan_freed_at_unhold) {
  store *s = tu_mem();
  store_stat st, d;
  CHECK_EQ(store_path_mkdir(s, NULL, "/d", 0755), 0);
  CHECK_EQ(store_path_stat(s, NULL, "/d", &d), 0);
  REQUIRE(store_tmpfile(s, d.ino, 0600, &st) == 0);
  CHECK_EQ(st.nlink, 0);
  CHECK_EQ(store_orphan_count(s), 1);
  CHECK_EQ(store_write(s, st.ino, "tmp", 3, 0), 3);
  CHECK_EQ(rows(s, "fs_dentry"), 1); /* /d only: it has no name */
  CHECK_EQ(store_unhold(s, st.ino), 0);
  CHECK_EQ(store_getattr(s, st.ino, &st), -ENOENT);
  CHECK_EQ(store_orphan_count(s), 0);
  /* a directory the caller may not write, and a file that is no directory */
  CHECK_EQ(store_path_chmod(s, NULL, "/d", 0555), 0);
  CHECK_EQ(store_tmpfile(s, d.ino, 0600, &st), -EACCES);
  store_ino f = make_file(s, "/f", "x");
  CHECK_EQ(store_tmpfile(s, f, 0600, &st), -ENOTDIR);
  CHECK_EQ(rows(s, "fs_inode"), 3); /* the root, /d, /f */
  store_close(s);
}

TEST(tmpfile_that_is_linked_keeps_its_data) {
  store *s = tu_mem();
  store_stat st;
  REQUIRE(store_tmpfile(s, STORE_ROOT_INO, 0644, &st) == 0);
  CHECK_EQ(store_write(s, st.ino, "named later", 11, 0), 11);
  CHECK_EQ(store_link(s, st.ino, STORE_ROOT_INO, "named", NULL), 0);
  CHECK_EQ(store_unhold(s, st.ino), 0);
  CHECK(tu_file_is(s, "/named", "named later", 11));
  CHECK_EQ(store_orphan_count(s), 0);
  store_close(s);
}

int main(int argc, char **argv) {
  harness_init(argc, argv);
  RUN(unlinked_open_file_keeps_working_until_unhold);
  RUN(unheld_file_is_deleted_at_once);
  RUN(rename_over_an_open_file);
  RUN(hard_links_orphan_only_at_the_last);
  RUN(rolled_back_unlink_leaves_the_file_alone);
  RUN(unhold_later_frees_at_the_next_write);
  RUN(quota_counts_an_orphan_until_freed);
  RUN(unheld_orphans_freed_at_close);
  RUN(crashed_owner_orphans_reclaimed_on_open);
  RUN(live_owner_orphans_kept_by_a_second_open);
  RUN(a_copy_starts_without_orphans);
  RUN(a_file_copy_starts_without_orphans);
  RUN(tmpfile_is_a_held_orphan_freed_at_unhold);
  RUN(tmpfile_that_is_linked_keeps_its_data);
  return harness_done();
}
