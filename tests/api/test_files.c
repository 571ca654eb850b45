/*
 * test_files.c - the file helpers of the C API: read, write (replace, append,
 * create parents), mkdir, remove, stat, listdir, rename, symlinks, batches and
 * transactions, and every bad input (missing parent, a directory where a
 * file is expected and back, over-long names and paths), each with its errno,
 * its message and nothing changed.
 */
#include "api_util.h"

#define FS_ERR(e) (SBX_FS | ((e) << 8))

TEST(binary_file_round_trips_with_nul_bytes) {
  sbx *h = open_mem();
  REQUIRE(h);
  const char data[] = {'a', 0, 'b', (char)0xff, (char)0xfe, 0, '\n'};
  CHECK_EQ(sbx_write_file(h, "/bin.dat", data, sizeof data, 0), SBX_OK);
  void *got;
  size_t len;
  REQUIRE(sbx_read_file(h, "/bin.dat", &got, &len) == SBX_OK);
  CHECK_EQ(len, sizeof data);
  CHECK(memcmp(got, data, sizeof data) == 0);
  CHECK_EQ(((char *)got)[len], 0); /* NUL beyond the data for convenience */
  sbx_free(got);
  sbx_close(h);
}

TEST(empty_file_reads_as_zero_bytes) {
  sbx *h = open_mem();
  REQUIRE(h);
  CHECK_EQ(sbx_write_file(h, "/empty", NULL, 0, 0), SBX_OK);
  void *got;
  size_t len = 99;
  REQUIRE(sbx_read_file(h, "/empty", &got, &len) == SBX_OK);
  CHECK_EQ(len, 0);
  CHECK(got != NULL);
  sbx_free(got);
  CHECK_EQ(sandbox_file_size(h, "/empty"), 0);
  sbx_close(h);
}

TEST(multi_chunk_file_round_trips) {
  sbx *h = open_mem();
  REQUIRE(h);
  size_t n = 1000003; /* many 4096-byte chunks plus a partial one */
  unsigned char *buf = malloc(n);
  REQUIRE(buf);
  for (size_t i = 0; i < n; i++) buf[i] = (unsigned char)((i * 7 + 3) & 0xff);
  CHECK_EQ(sbx_write_file(h, "/big", buf, n, 0), SBX_OK);
  void *got;
  size_t len;
  REQUIRE(sbx_read_file(h, "/big", &got, &len) == SBX_OK);
  CHECK_EQ(len, n);
  CHECK(memcmp(got, buf, n) == 0);
  sbx_free(got);
  CHECK_EQ(sandbox_file_size(h, "/big"), n);
  free(buf);
  sbx_close(h);
}

TEST(write_replaces_and_append_appends) {
  sbx *h = open_mem();
  REQUIRE(h);
  CHECK_EQ(write_str(h, "/f", "a long first version"), SBX_OK);
  CHECK_EQ(write_str(h, "/f", "short"), SBX_OK);
  CHECK_FILE(h, "/f", "short");
  CHECK_EQ(sbx_write_file(h, "/f", "+more", 5, SBX_WRITE_APPEND), SBX_OK);
  CHECK_FILE(h, "/f", "short+more");
  CHECK_EQ(sbx_write_file(h, "/new", "x", 1, SBX_WRITE_APPEND), SBX_OK); /* creates */
  CHECK_FILE(h, "/new", "x");
  sbx_close(h);
}

TEST(missing_parent_is_enoent_unless_mkdirs) {
  sbx *h = open_mem();
  REQUIRE(h);
  int rc = write_str(h, "/a/b", "x");
  CHECK_EQ(rc, FS_ERR(ENOENT));
  CHECK_STR(sbx_errmsg(h), "write /a/b: No such file or directory");
  CHECK_STR(sbx_errpath(h), "/a/b");
  CHECK_EQ(sbx_errno(h), ENOENT);
  CHECK_EQ(count_entries(h, "/"), 0);
  CHECK_EQ(sbx_write_file(h, "/a/b/c/d.txt", "deep", 4, SBX_WRITE_MKDIRS), SBX_OK);
  CHECK_FILE(h, "/a/b/c/d.txt", "deep");
  sbx_stat st;
  REQUIRE(sbx_stat_path(h, "/a/b", 0, &st) == SBX_OK);
  CHECK_EQ(st.type, SBX_TYPE_DIR);
  CHECK_EQ(st.mode & 0777, 0755);
  sbx_close(h);
}

TEST(writing_to_a_directory_is_eisdir_and_changes_nothing) {
  sbx *h = open_mem();
  REQUIRE(h);
  REQUIRE(sbx_mkdir(h, "/d", 0) == SBX_OK);
  REQUIRE(write_str(h, "/d/inner", "keep") == SBX_OK);
  CHECK_EQ(write_str(h, "/d", "x"), FS_ERR(EISDIR));
  CHECK_STR(sbx_errmsg(h), "write /d: Is a directory");
  CHECK_EQ(sbx_write_file(h, "/d", "x", 1, SBX_WRITE_APPEND), FS_ERR(EISDIR));
  sbx_stat st;
  REQUIRE(sbx_stat_path(h, "/d", 0, &st) == SBX_OK);
  CHECK_EQ(st.type, SBX_TYPE_DIR);
  CHECK_FILE(h, "/d/inner", "keep");
  sbx_close(h);
}

TEST(reading_a_directory_is_eisdir) {
  sbx *h = open_mem();
  REQUIRE(h);
  REQUIRE(sbx_mkdir(h, "/d", 0) == SBX_OK);
  void *d = (void *)1;
  size_t n = 7;
  CHECK_EQ(sbx_read_file(h, "/d", &d, &n), FS_ERR(EISDIR));
  CHECK_STR(sbx_errmsg(h), "read /d: Is a directory");
  CHECK(d == NULL);
  CHECK_EQ(n, 0);
  CHECK_EQ(sbx_read_file(h, "/", &d, &n), FS_ERR(EISDIR));
  sbx_close(h);
}

TEST(a_file_used_as_a_directory_is_enotdir) {
  sbx *h = open_mem();
  REQUIRE(h);
  REQUIRE(write_str(h, "/f", "x") == SBX_OK);
  CHECK_EQ(write_str(h, "/f/g", "y"), FS_ERR(ENOTDIR));
  /* with parents too: a file in the way is ENOTDIR, as GNU tools say */
  CHECK_EQ(sbx_write_file(h, "/f/g", "y", 1, SBX_WRITE_MKDIRS), FS_ERR(ENOTDIR));
  CHECK_EQ(sbx_write_file(h, "/f/g/h", "y", 1, SBX_WRITE_MKDIRS), FS_ERR(ENOTDIR));
  sbx_file many[] = {{"/ok", "1", 1}, {"/f/g", "y", 1}};
  CHECK_EQ(sbx_write_files(h, many, 2, SBX_WRITE_MKDIRS), FS_ERR(ENOTDIR));
  CHECK_STR(sbx_errpath(h), "/f/g");
  CHECK_EQ(sbx_mkdir(h, "/f/sub", 1), FS_ERR(ENOTDIR));
  sbx_dirent *e;
  size_t n;
  CHECK_EQ(sbx_listdir(h, "/f", &e, &n), FS_ERR(ENOTDIR));
  CHECK_FILE(h, "/f", "x");
  sbx_close(h);
}

TEST(over_long_names_and_paths_are_enametoolong) {
  sbx *h = open_mem();
  REQUIRE(h);
  char path[9100];
  /* 255 bytes is the longest name */
  snprintf(path, sizeof path, "/%s", repeat('n', 255));
  CHECK_EQ(write_str(h, path, "ok"), SBX_OK);
  snprintf(path, sizeof path, "/%s", repeat('n', 256));
  CHECK_EQ(write_str(h, path, "x"), FS_ERR(ENAMETOOLONG));
  CHECK(strstr(sbx_errmsg(h), "File name too long") != NULL);
  CHECK_EQ(sbx_mkdir(h, path, 0), FS_ERR(ENAMETOOLONG));
  CHECK_EQ(sbx_write_file(h, path, "x", 1, SBX_WRITE_MKDIRS), FS_ERR(ENAMETOOLONG));
  /* a path of 4096 bytes or more, made of short names */
  size_t len = 0;
  while (len < 5000) len += (size_t)snprintf(path + len, sizeof path - len, "/abc");
  CHECK_EQ(sbx_write_file(h, path, "x", 1, SBX_WRITE_MKDIRS), FS_ERR(ENAMETOOLONG));
  CHECK_EQ(sbx_mkdir(h, path, 1), FS_ERR(ENAMETOOLONG));
  CHECK_EQ(strlen(sbx_errpath(h)) < 4096, 1); /* recorded path is bounded */
  void *d;
  size_t n;
  CHECK_EQ(sbx_read_file(h, path, &d, &n), FS_ERR(ENAMETOOLONG));
  CHECK_EQ(count_entries(h, "/"), 1); /* only the 255-byte file */
  sbx_close(h);
}

TEST(mkdir_plain_parents_and_existing) {
  sbx *h = open_mem();
  REQUIRE(h);
  CHECK_EQ(sbx_mkdir(h, "/a", 0), SBX_OK);
  CHECK_EQ(sbx_mkdir(h, "/a", 0), FS_ERR(EEXIST));
  CHECK_STR(sbx_errmsg(h), "mkdir /a: File exists");
  CHECK_EQ(sbx_mkdir(h, "/a", 1), SBX_OK); /* -p: existing is fine */
  CHECK_EQ(sbx_mkdir(h, "/x/y/z", 0), FS_ERR(ENOENT));
  CHECK(!path_exists(h, "/x"));
  CHECK_EQ(sbx_mkdir(h, "/x/y/z", 1), SBX_OK);
  sbx_stat st;
  CHECK_EQ(sbx_stat_path(h, "/x/y/z", 0, &st), SBX_OK);
  CHECK_EQ(st.type, SBX_TYPE_DIR);
  REQUIRE(write_str(h, "/file", "x") == SBX_OK);
  CHECK_EQ(sbx_mkdir(h, "/file", 0), FS_ERR(EEXIST));
  CHECK(sbx_mkdir(h, "/file", 1) != SBX_OK);
  sbx_close(h);
}

TEST(remove_files_dirs_and_trees) {
  sbx *h = open_mem();
  REQUIRE(h);
  REQUIRE(sbx_write_file(h, "/t/a/b/c.txt", "c", 1, SBX_WRITE_MKDIRS) == SBX_OK);
  REQUIRE(write_str(h, "/t/top.txt", "t") == SBX_OK);
  REQUIRE(sbx_mkdir(h, "/empty", 0) == SBX_OK);
  REQUIRE(write_str(h, "/f", "f") == SBX_OK);

  CHECK_EQ(sbx_remove(h, "/missing", 0), FS_ERR(ENOENT));
  CHECK_STR(sbx_errmsg(h), "remove /missing: No such file or directory");
  CHECK_EQ(sbx_remove(h, "/t", 0), FS_ERR(ENOTEMPTY));
  CHECK(path_exists(h, "/t/a/b/c.txt"));
  CHECK_EQ(sbx_remove(h, "/", 1), FS_ERR(EBUSY));
  CHECK_EQ(sbx_remove(h, "/", 0), FS_ERR(EBUSY));
  CHECK_EQ(count_entries(h, "/"), 3);

  CHECK_EQ(sbx_remove(h, "/f", 0), SBX_OK);
  CHECK(!path_exists(h, "/f"));
  CHECK_EQ(sbx_remove(h, "/empty", 0), SBX_OK);
  CHECK(!path_exists(h, "/empty"));
  CHECK_EQ(sbx_remove(h, "/t", 1), SBX_OK);
  CHECK(!path_exists(h, "/t"));
  CHECK_EQ(count_entries(h, "/"), 0);
  sbx_close(h);
}

TEST(stat_reports_type_size_mode_and_links) {
  sbx *h = open_mem();
  REQUIRE(h);
  REQUIRE(write_str(h, "/f", "hello") == SBX_OK);
  REQUIRE(sbx_mkdir(h, "/d", 0) == SBX_OK);
  REQUIRE(sbx_symlink(h, "/f", "/l") == SBX_OK);
  sbx_stat st;
  REQUIRE(sbx_stat_path(h, "/f", 0, &st) == SBX_OK);
  CHECK_EQ(st.type, SBX_TYPE_FILE);
  CHECK_EQ(st.mode, 0100644);
  CHECK_EQ(st.size, 5);
  CHECK_EQ(st.nlink, 1);
  CHECK(st.ino > 1);
  CHECK(st.mtime > 1600000000);
  int64_t file_ino = st.ino;
  REQUIRE(sbx_stat_path(h, "/d", 0, &st) == SBX_OK);
  CHECK_EQ(st.type, SBX_TYPE_DIR);
  CHECK_EQ(st.mode, 040755);
  REQUIRE(sbx_stat_path(h, "/", 0, &st) == SBX_OK);
  CHECK_EQ(st.ino, 1);
  CHECK_EQ(st.type, SBX_TYPE_DIR);
  REQUIRE(sbx_stat_path(h, "/l", 1, &st) == SBX_OK); /* lstat */
  CHECK_EQ(st.type, SBX_TYPE_SYMLINK);
  CHECK_EQ(st.size, 2);
  REQUIRE(sbx_stat_path(h, "/l", 0, &st) == SBX_OK); /* follows */
  CHECK_EQ(st.type, SBX_TYPE_FILE);
  CHECK_EQ(st.ino, file_ino);
  CHECK_EQ(sbx_stat_path(h, "/nope", 0, &st), FS_ERR(ENOENT));
  CHECK_STR(sbx_errmsg(h), "stat /nope: No such file or directory");
  sbx_close(h);
}

TEST(listdir_is_sorted_bytewise_with_types) {
  sbx *h = open_mem();
  REQUIRE(h);
  REQUIRE(write_str(h, "/b", "") == SBX_OK);
  REQUIRE(write_str(h, "/B", "") == SBX_OK);
  REQUIRE(write_str(h, "/a.txt", "") == SBX_OK);
  REQUIRE(sbx_mkdir(h, "/z", 0) == SBX_OK);
  REQUIRE(sbx_symlink(h, "b", "/c") == SBX_OK);
  sbx_dirent *e;
  size_t n;
  REQUIRE(sbx_listdir(h, "/", &e, &n) == SBX_OK);
  REQUIRE(n == 5);
  CHECK_STR(e[0].name, "B");
  CHECK_STR(e[1].name, "a.txt");
  CHECK_STR(e[2].name, "b");
  CHECK_STR(e[3].name, "c");
  CHECK_STR(e[4].name, "z");
  CHECK_EQ(e[0].type, SBX_TYPE_FILE);
  CHECK_EQ(e[3].type, SBX_TYPE_SYMLINK);
  CHECK_EQ(e[4].type, SBX_TYPE_DIR);
  CHECK(e[2].ino > 1);
  sbx_free(e);
  REQUIRE(sbx_listdir(h, "/z", &e, &n) == SBX_OK);
  CHECK_EQ(n, 0);
  CHECK(e != NULL);
  sbx_free(e);
  CHECK_EQ(sbx_listdir(h, "/missing", &e, &n), FS_ERR(ENOENT));
  CHECK_STR(sbx_errmsg(h), "list /missing: No such file or directory");
  sbx_close(h);
}

TEST(rename_moves_and_replaces) {
  sbx *h = open_mem();
  REQUIRE(h);
  REQUIRE(write_str(h, "/a", "A") == SBX_OK);
  REQUIRE(write_str(h, "/b", "B") == SBX_OK);
  REQUIRE(sbx_mkdir(h, "/d", 0) == SBX_OK);
  CHECK_EQ(sbx_rename(h, "/a", "/d/a2"), SBX_OK);
  CHECK(!path_exists(h, "/a"));
  CHECK_FILE(h, "/d/a2", "A");
  CHECK_EQ(sbx_rename(h, "/b", "/d/a2"), SBX_OK); /* replaces */
  CHECK_FILE(h, "/d/a2", "B");
  CHECK_EQ(sbx_rename(h, "/nope", "/x"), FS_ERR(ENOENT));
  CHECK_STR(sbx_errpath(h), "/nope");
  CHECK(strstr(sbx_errmsg(h), "rename /nope -> /x") != NULL);
  CHECK_EQ(sbx_rename(h, "/d", "/d/sub"), FS_ERR(EINVAL));
  CHECK(path_exists(h, "/d/a2"));
  sbx_close(h);
}

TEST(symlinks_are_created_read_and_followed) {
  sbx *h = open_mem();
  REQUIRE(h);
  REQUIRE(sbx_write_file(h, "/src/lib/util.h", "u", 1, SBX_WRITE_MKDIRS) == SBX_OK);
  CHECK_EQ(sbx_symlink(h, "lib/util.h", "/src/rel"), SBX_OK);
  CHECK_EQ(sbx_symlink(h, "/src/lib", "/abs"), SBX_OK);
  CHECK_EQ(sbx_symlink(h, "/nowhere", "/dangling"), SBX_OK);
  char *t;
  REQUIRE(sbx_readlink(h, "/src/rel", &t) == SBX_OK);
  CHECK_STR(t, "lib/util.h");
  sbx_free(t);
  CHECK_FILE(h, "/src/rel", "u");
  CHECK_FILE(h, "/abs/util.h", "u"); /* through a symlinked directory */
  void *d;
  size_t n;
  CHECK_EQ(sbx_read_file(h, "/dangling", &d, &n), FS_ERR(ENOENT));
  CHECK_EQ(sbx_readlink(h, "/src/lib/util.h", &t), FS_ERR(EINVAL));
  CHECK(t == NULL);
  CHECK_EQ(sbx_symlink(h, "x", "/abs"), FS_ERR(EEXIST));
  REQUIRE(sbx_readlink(h, "/abs", &t) == SBX_OK);
  CHECK_STR(t, "/src/lib");
  sbx_free(t);
  CHECK_EQ(sbx_remove(h, "/abs", 0), SBX_OK); /* removes the link, not the dir */
  CHECK(path_exists(h, "/src/lib/util.h"));
  sbx_close(h);
}

TEST(relative_paths_start_at_the_root) {
  sbx *h = open_mem();
  REQUIRE(h);
  CHECK_EQ(sbx_write_file(h, "rel/x.txt", "r", 1, SBX_WRITE_MKDIRS), SBX_OK);
  CHECK_FILE(h, "/rel/x.txt", "r");
  CHECK_FILE(h, "/rel/../rel/./x.txt", "r");
  sbx_close(h);
}

TEST(non_utf8_names_are_bytes) {
  sbx *h = open_mem();
  REQUIRE(h);
  const char *name = "/caf\xe9-\xff\xfe";
  CHECK_EQ(write_str(h, name, "latin1"), SBX_OK);
  sbx_dirent *e;
  size_t n;
  REQUIRE(sbx_listdir(h, "/", &e, &n) == SBX_OK);
  REQUIRE(n == 1);
  CHECK_STR(e[0].name, name + 1);
  sbx_free(e);
  CHECK_FILE(h, name, "latin1");
  sbx_close(h);
}

TEST(write_files_is_all_or_nothing) {
  sbx *h = open_mem();
  REQUIRE(h);
  sbx_file ok[] = {{"/s/a", "A", 1}, {"/s/b/c", "C", 1}, {"/s/empty", NULL, 0}};
  CHECK_EQ(sbx_write_files(h, ok, 3, SBX_WRITE_MKDIRS), SBX_OK);
  CHECK_FILE(h, "/s/b/c", "C");
  sbx_file bad[] = {{"/n1", "1", 1}, {"/n2", "2", 1}, {"/missing/n3", "3", 1}};
  CHECK_EQ(sbx_write_files(h, bad, 3, 0), FS_ERR(ENOENT));
  CHECK_STR(sbx_errpath(h), "/missing/n3");
  CHECK(!path_exists(h, "/n1"));
  CHECK(!path_exists(h, "/n2"));
  sbx_file nul[] = {{"/n1", "1", 1}, {NULL, "2", 1}};
  CHECK_EQ(sbx_write_files(h, nul, 2, 0), SBX_MISUSE);
  CHECK(!path_exists(h, "/n1"));
  CHECK_EQ(sbx_write_files(h, NULL, 0, 0), SBX_OK);
  sbx_close(h);
}

TEST(transactions_commit_and_roll_back) {
  sbx *h = open_mem();
  REQUIRE(h);
  CHECK_EQ(sbx_begin(h), SBX_OK);
  CHECK_EQ(write_str(h, "/kept", "1"), SBX_OK);
  CHECK_EQ(sbx_kv_set(h, "k", "1"), SBX_OK);
  CHECK_EQ(sbx_commit(h), SBX_OK);
  CHECK_EQ(sbx_begin(h), SBX_OK);
  CHECK_EQ(write_str(h, "/dropped", "2"), SBX_OK);
  CHECK_EQ(sbx_begin(h), SBX_OK); /* nested */
  CHECK_EQ(write_str(h, "/dropped2", "3"), SBX_OK);
  CHECK_EQ(sbx_commit(h), SBX_OK);
  CHECK(path_exists(h, "/dropped2"));
  CHECK_EQ(sbx_rollback(h), SBX_OK);
  CHECK(path_exists(h, "/kept"));
  CHECK(!path_exists(h, "/dropped"));
  CHECK(!path_exists(h, "/dropped2"));
  char *v;
  REQUIRE(sbx_kv_get(h, "k", &v) == SBX_OK);
  CHECK_STR(v, "1");
  sbx_free(v);
  /* misuse: unbalanced ends, quota changes and forks inside a group */
  CHECK_EQ(sbx_commit(h), SBX_MISUSE);
  CHECK(strstr(sbx_errmsg(h), "no transaction") != NULL);
  CHECK_EQ(sbx_rollback(h), SBX_MISUSE);
  REQUIRE(sbx_begin(h) == SBX_OK);
  sbx_quota q = {.max_bytes = 1};
  CHECK_EQ(sbx_set_quota(h, &q), SBX_MISUSE);
  CHECK_EQ(sbx_fork(h, scratch("in-txn.db"), NULL), SBX_MISUSE);
  CHECK(!file_exists(scratch("in-txn.db")));
  CHECK_EQ(write_str(h, "/still-writable", "1"), SBX_OK); /* the quota was not set */
  CHECK_EQ(sbx_commit(h), SBX_OK);
  CHECK(path_exists(h, "/still-writable"));
  sbx_close(h);
}

TEST(a_thousand_files_in_one_transaction) {
  sbx *h = open_mem();
  REQUIRE(h);
  char path[64], body[64];
  REQUIRE(sbx_begin(h) == SBX_OK);
  for (int i = 0; i < 1000; i++) {
    snprintf(path, sizeof path, "/many/f%04d", i);
    snprintf(body, sizeof body, "body %d", i);
    if (sbx_write_file(h, path, body, strlen(body), SBX_WRITE_MKDIRS) != SBX_OK) break;
  }
  REQUIRE(sbx_commit(h) == SBX_OK);
  CHECK_EQ(count_entries(h, "/many"), 1000);
  CHECK_FILE(h, "/many/f0999", "body 999");
  sbx_close(h);
}

int main(int argc, char **argv) {
  harness_init(argc, argv);
  RUN(binary_file_round_trips_with_nul_bytes);
  RUN(empty_file_reads_as_zero_bytes);
  RUN(multi_chunk_file_round_trips);
  RUN(write_replaces_and_append_appends);
  RUN(missing_parent_is_enoent_unless_mkdirs);
  RUN(writing_to_a_directory_is_eisdir_and_changes_nothing);
  RUN(reading_a_directory_is_eisdir);
  RUN(a_file_used_as_a_directory_is_enotdir);
  RUN(over_long_names_and_paths_are_enametoolong);
  RUN(mkdir_plain_parents_and_existing);
  RUN(remove_files_dirs_and_trees);
  RUN(stat_reports_type_size_mode_and_links);
  RUN(listdir_is_sorted_bytewise_with_types);
  RUN(rename_moves_and_replaces);
  RUN(symlinks_are_created_read_and_followed);
  RUN(relative_paths_start_at_the_root);
  RUN(non_utf8_names_are_bytes);
  RUN(write_files_is_all_or_nothing);
  RUN(transactions_commit_and_roll_back);
  RUN(a_thousand_files_in_one_transaction);
  return harness_done();
}
