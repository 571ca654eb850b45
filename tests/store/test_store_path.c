/*
 * test_store_path.c - the store's path API: resolution (".", "..", symlinks,
 * loops, trailing slashes, cwd, limits), realpath, mkdir -p, open(2) flags,
 * whole-file helpers, rename/link/symlink/unlink/rmdir by path, remove_tree,
 * chmod/utimes, permission checks as a non-root user sees them, and a
 * read-only store.
 */
#include "store_testutil.h"

/* A small tree used by many tests:
 *   /a/b/file ("hello"), /a/link-abs -> /a/b, /a/link-rel -> b,
 *   /loop1 -> loop2, /loop2 -> loop1, /dangling -> /nowhere, /f ("x") */
static store *tree(void) {
  store *s = tu_mem();
  int rc = store_path_mkdir_p(s, NULL, "/a/b", 0755);
  rc |= store_path_write_file(s, NULL, "/a/b/file", "hello", 5, 0644, 0);
  rc |= store_path_symlink(s, NULL, "/a/b", "/a/link-abs");
  rc |= store_path_symlink(s, NULL, "b", "/a/link-rel");
  rc |= store_path_symlink(s, NULL, "loop2", "/loop1");
  rc |= store_path_symlink(s, NULL, "loop1", "/loop2");
  rc |= store_path_symlink(s, NULL, "/nowhere", "/dangling");
  rc |= store_path_write_file(s, NULL, "/f", "x", 1, 0644, 0);
  if (rc) {
    fprintf(stderr, "tree setup failed\n");
    exit(2);
  }
  return s;
}

static store_ino ino_of(store *s, const char *path) {
  store_stat st;
  int rc = store_path_stat(s, NULL, path, &st);
  return rc ? rc : st.ino;
}

TEST(dot_and_dotdot_resolve_and_dotdot_stays_at_root) {
  store *s = tree();
  store_ino b = ino_of(s, "/a/b");
  CHECK(b > 1);
  CHECK_EQ(ino_of(s, "/a/./b/."), b);
  CHECK_EQ(ino_of(s, "/a/b/../b"), b);
  CHECK_EQ(ino_of(s, "/../../.."), 1);
  CHECK_EQ(ino_of(s, "/../a/../../a/b"), b);
  CHECK_EQ(ino_of(s, "//a///b//"), b);
  CHECK_EQ(ino_of(s, "/"), 1);
  store_close(s);
}

TEST(symlinks_resolve_relative_to_their_directory) {
  store *s = tree();
  store_ino file = ino_of(s, "/a/b/file");
  CHECK(file > 1);
  CHECK_EQ(ino_of(s, "/a/link-abs/file"), file);
  CHECK_EQ(ino_of(s, "/a/link-rel/file"), file);
  /* ".." after a symlink is the physical parent of its target */
  CHECK_EQ(ino_of(s, "/a/link-abs/.."), ino_of(s, "/a"));
  store_stat st;
  CHECK_EQ(store_path_lstat(s, NULL, "/a/link-rel", &st), 0);
  CHECK(S_ISLNK(st.mode));
  CHECK_EQ(store_path_stat(s, NULL, "/a/link-rel", &st), 0);
  CHECK(S_ISDIR(st.mode));
  store_close(s);
}

TEST(symlink_loops_give_eloop_and_40_links_are_allowed) {
  store *s = tree();
  store_stat st;
  CHECK_EQ(store_path_stat(s, NULL, "/loop1", &st), -ELOOP);
  CHECK_EQ(store_path_stat(s, NULL, "/loop1/x", &st), -ELOOP);
  CHECK_EQ(store_path_lstat(s, NULL, "/loop1", &st), 0);
  /* a chain l0 -> l1 -> ... -> l39 -> /f is 40 links: allowed */
  char name[32], target[32];
  for (int i = 0; i < 40; i++) {
    snprintf(name, sizeof name, "/l%d", i);
    if (i == 39)
      snprintf(target, sizeof target, "/f");
    else
      snprintf(target, sizeof target, "l%d", i + 1);
    CHECK_EQ(store_path_symlink(s, NULL, target, name), 0);
  }
  CHECK_EQ(store_path_stat(s, NULL, "/l0", &st), 0);
  CHECK(S_ISREG(st.mode));
  CHECK_EQ(store_path_symlink(s, NULL, "l0", "/lx"), 0);
  CHECK_EQ(store_path_stat(s, NULL, "/lx", &st), -ELOOP); /* 41 */
  store_close(s);
}

TEST(dangling_symlink_stat_enoent_lstat_ok) {
  store *s = tree();
  store_stat st;
  CHECK_EQ(store_path_stat(s, NULL, "/dangling", &st), -ENOENT);
  CHECK_EQ(store_path_lstat(s, NULL, "/dangling", &st), 0);
  CHECK_EQ(st.size, 8);
  store_close(s);
}

TEST(trailing_slash_demands_a_directory) {
  store *s = tree();
  store_stat st;
  CHECK_EQ(store_path_stat(s, NULL, "/f/", &st), -ENOTDIR);
  CHECK_EQ(store_path_lstat(s, NULL, "/f/", &st), -ENOTDIR);
  CHECK_EQ(store_path_stat(s, NULL, "/a/", &st), 0);
  /* lstat of "symlink-to-dir/" follows the link */
  CHECK_EQ(store_path_lstat(s, NULL, "/a/link-rel/", &st), 0);
  CHECK(S_ISDIR(st.mode));
  CHECK_EQ(store_path_stat(s, NULL, "/f/.", &st), -ENOTDIR);
  CHECK_EQ(store_path_stat(s, NULL, "/f/x", &st), -ENOTDIR);
  store_close(s);
}

TEST(bad_paths_give_clear_errors) {
  store *s = tree();
  store_stat st;
  CHECK_EQ(store_path_stat(s, NULL, "", &st), -ENOENT);
  CHECK_EQ(store_path_mkdir(s, NULL, "", 0755), -ENOENT);
  char *p = malloc(5000);
  memset(p, 'a', 4999);
  p[4999] = 0;
  p[0] = '/';
  for (int i = 100; i < 4999; i += 100) p[i] = '/';
  CHECK_EQ(store_path_stat(s, NULL, p, &st), -ENAMETOOLONG);
  p[4095] = 0; /* 4095 bytes: allowed length, missing */
  CHECK_EQ(store_path_stat(s, NULL, p, &st), -ENOENT);
  p[4096] = 0;
  p[4095] = 'a';
  CHECK_EQ(store_path_stat(s, NULL, p, &st), -ENAMETOOLONG);
  memset(p, 'n', 256);
  p[0] = '/';
  p[257] = 0;
  CHECK_EQ(store_path_write_file(s, NULL, p, "x", 1, 0644, 0), -ENAMETOOLONG);
  p[256] = 0; /* "/" + 255 bytes: fine */
  CHECK_EQ(store_path_write_file(s, NULL, p, "x", 1, 0644, 0), 0);
  free(p);
  CHECK_EQ(store_path_write_file(s, NULL, "/missing/x", "x", 1, 0644, 0), -ENOENT);
  CHECK_EQ(store_path_write_file(s, NULL, "/f/x", "x", 1, 0644, 0), -ENOTDIR);
  CHECK_EQ(store_path_write_file(s, NULL, "/a", "x", 1, 0644, 0), -EISDIR);
  void *d;
  size_t n;
  CHECK_EQ(store_path_read_file(s, NULL, "/a", &d, &n), -EISDIR);
  CHECK_EQ(store_path_read_file(s, NULL, "/nope", &d, &n), -ENOENT);
  CHECK(d == NULL);
  store_close(s);
}

TEST(relative_paths_resolve_from_cwd) {
  store *s = tree();
  store_stat st;
  CHECK_EQ(store_path_stat(s, "/a", "b/file", &st), 0);
  CHECK_EQ(st.size, 5);
  CHECK_EQ(store_path_stat(s, "/a/b", "../b/./file", &st), 0);
  CHECK_EQ(store_path_stat(s, "/a/link-rel", "file", &st), 0);
  CHECK_EQ(store_path_stat(s, "/a/b", "/f", &st), 0); /* absolute ignores cwd */
  CHECK_EQ(store_path_stat(s, "/nowhere", "x", &st), -ENOENT);
  CHECK_EQ(store_path_stat(s, "/f", "x", &st), -ENOTDIR);
  CHECK_EQ(store_path_write_file(s, "/a", "new", "n", 1, 0644, 0), 0);
  CHECK(tu_file_is(s, "/a/new", "n", 1));
  store_close(s);
}

TEST(realpath_is_canonical) {
  store *s = tree();
  check_realpath(s, NULL, "/a/link-rel/../link-abs/./file", "/a/b/file");
  check_realpath(s, NULL, "/..", "/");
  check_realpath(s, "/a", "link-rel", "/a/b");
  char *r = NULL;
  CHECK_EQ(store_realpath(s, NULL, "/dangling", &r), -ENOENT);
  CHECK(r == NULL);
  store_close(s);
}

TEST(resolve_parent_gives_directory_and_last_name) {
  store *s = tree();
  store_ino dir;
  char name[STORE_NAME_MAX + 1];
  CHECK_EQ(store_resolve_parent(s, NULL, "/a/link-rel/newfile", &dir, name), 0);
  CHECK_EQ(dir, ino_of(s, "/a/b"));
  CHECK_STR(name, "newfile");
  CHECK_EQ(store_resolve_parent(s, NULL, "/", &dir, name), 0);
  CHECK_EQ(dir, 1);
  CHECK_STR(name, "");
  CHECK_EQ(store_resolve_parent(s, NULL, "/a/..", &dir, name), 0);
  CHECK_STR(name, "..");
  CHECK_EQ(store_resolve_parent(s, NULL, "/a/dir/", &dir, name), 0);
  CHECK_STR(name, "dir");
  CHECK_EQ(store_resolve_parent(s, NULL, "/missing/x", &dir, name), -ENOENT);
  store_close(s);
}

TEST(mkdir_and_mkdir_p) {
  store *s = tree();
  CHECK_EQ(store_path_mkdir(s, NULL, "/a", 0755), -EEXIST);
  CHECK_EQ(store_path_mkdir(s, NULL, "/new/", 0755), 0);
  CHECK_EQ(store_path_mkdir(s, NULL, "/x/y", 0755), -ENOENT);
  CHECK_EQ(store_path_mkdir(s, NULL, "/", 0755), -EEXIST);
  CHECK_EQ(store_path_mkdir_p(s, NULL, "/x/y/z", 0755), 0);
  CHECK_EQ(store_path_mkdir_p(s, NULL, "/x/y/z", 0755), 0);
  CHECK_EQ(store_path_mkdir_p(s, NULL, "/a/link-rel/q", 0755), 0);
  CHECK(ino_of(s, "/a/b/q") > 0);
  CHECK_EQ(store_path_mkdir_p(s, NULL, "/f/sub", 0755), -ENOTDIR);
  CHECK_EQ(store_path_mkdir_p(s, NULL, "/f", 0755), -EEXIST);
  store_stat st;
  CHECK_EQ(store_path_stat(s, NULL, "/x/y", &st), 0);
  CHECK_EQ(st.mode, S_IFDIR | 0755);
  store_set_umask(s, 077);
  CHECK_EQ(store_path_mkdir(s, NULL, "/private", 0777), 0);
  CHECK_EQ(store_path_stat(s, NULL, "/private", &st), 0);
  CHECK_EQ(st.mode, S_IFDIR | 0700);
  store_close(s);
}

TEST(open_flags_follow_open2) {
  store *s = tree();
  store_stat st;
  CHECK_EQ(store_path_open(s, NULL, "/new", O_RDWR | O_CREAT, 0666, &st), 0);
  CHECK_EQ(st.mode, S_IFREG | 0644); /* umask 022 */
  CHECK_EQ(store_path_open(s, NULL, "/new", O_RDWR | O_CREAT | O_EXCL, 0666, &st),
           -EEXIST);
  CHECK_EQ(store_path_open(s, NULL, "/dangling", O_WRONLY | O_CREAT | O_EXCL, 0666, &st),
           -EEXIST);
  CHECK_EQ(store_path_open(s, NULL, "/a/b/file", O_WRONLY | O_TRUNC, 0, &st), 0);
  CHECK_EQ(st.size, 0);
  CHECK_EQ(store_path_stat(s, NULL, "/a/b/file", &st), 0);
  CHECK_EQ(st.size, 0);
  CHECK_EQ(store_path_open(s, NULL, "/f", O_RDONLY | O_DIRECTORY, 0, &st), -ENOTDIR);
  CHECK_EQ(store_path_open(s, NULL, "/a", O_RDONLY | O_DIRECTORY, 0, &st), 0);
  CHECK_EQ(store_path_open(s, NULL, "/a", O_WRONLY, 0, &st), -EISDIR);
  CHECK_EQ(store_path_open(s, NULL, "/a", O_RDONLY | O_CREAT, 0644, &st), -EISDIR);
  CHECK_EQ(store_path_open(s, NULL, "/a/link-rel", O_RDONLY | O_NOFOLLOW, 0, &st),
           -ELOOP);
  CHECK_EQ(store_path_open(s, NULL, "/nofile/", O_WRONLY | O_CREAT, 0644, &st), -EISDIR);
  CHECK_EQ(store_path_open(s, NULL, "/missing", O_RDONLY, 0, &st), -ENOENT);
  CHECK_EQ(store_path_open(s, NULL, "/f", 3, 0, &st), -EINVAL);
  /* O_CREAT through a dangling symlink creates its target */
  CHECK_EQ(store_path_open(s, NULL, "/dangling", O_WRONLY | O_CREAT, 0644, &st), 0);
  CHECK(ino_of(s, "/nowhere") > 0);
  CHECK_EQ(store_path_open(s, NULL, "/loop1", O_WRONLY | O_CREAT, 0644, &st), -ELOOP);
  store_close(s);
}

TEST(open_checks_mode_bits_as_non_root) {
  store *s = tree();
  store_stat st;
  CHECK_EQ(store_path_chmod(s, NULL, "/f", 0), 0);
  CHECK_EQ(store_path_open(s, NULL, "/f", O_RDONLY, 0, &st), -EACCES);
  void *d = NULL;
  size_t n;
  CHECK_EQ(store_path_read_file(s, NULL, "/f", &d, &n), -EACCES);
  CHECK_EQ(store_path_chmod(s, NULL, "/f", 0444), 0);
  CHECK_EQ(store_path_open(s, NULL, "/f", O_RDONLY, 0, &st), 0);
  CHECK_EQ(store_path_open(s, NULL, "/f", O_RDWR, 0, &st), -EACCES);
  CHECK_EQ(store_path_write_file(s, NULL, "/f", "y", 1, 0644, 0), -EACCES);
  CHECK(tu_file_is(s, "/f", "x", 1));
  /* a new file may be opened for writing whatever its mode */
  CHECK_EQ(store_path_open(s, NULL, "/ro", O_RDWR | O_CREAT, 0444, &st), 0);
  store_close(s);
}

TEST(directory_permissions_gate_lookup_and_changes) {
  store *s = tree();
  store_stat st;
  CHECK_EQ(store_path_chmod(s, NULL, "/a", 0644), 0); /* no x */
  CHECK_EQ(store_path_stat(s, NULL, "/a/b/file", &st), -EACCES);
  CHECK_EQ(store_path_stat(s, NULL, "/a", &st), 0);
  CHECK_EQ(store_path_chmod(s, NULL, "/a", 0555), 0); /* no w */
  CHECK_EQ(store_path_stat(s, NULL, "/a/b/file", &st), 0);
  CHECK_EQ(store_path_mkdir(s, NULL, "/a/new", 0755), -EACCES);
  CHECK_EQ(store_path_rename(s, NULL, "/a/b", "/b"), -EACCES);
  CHECK_EQ(store_path_remove_tree(s, NULL, "/a/b"), -EACCES);
  CHECK(ino_of(s, "/a/b/file") > 0);
  /* another user: other bits */
  CHECK_EQ(store_path_chmod(s, NULL, "/a", 0750), 0);
  store_set_cred(s, 1000, 1000);
  CHECK_EQ(store_path_stat(s, NULL, "/a/b", &st), -EACCES);
  CHECK_EQ(store_path_chmod(s, NULL, "/f", 0777), -EPERM);
  store_close(s);
}

TEST(write_file_creates_replaces_appends_and_makes_parents) {
  store *s = tree();
  CHECK_EQ(store_path_write_file(s, NULL, "/n", "abc", 3, 0600, 0), 0);
  CHECK(tu_file_is(s, "/n", "abc", 3));
  store_stat st;
  store_path_stat(s, NULL, "/n", &st);
  CHECK_EQ(st.mode, S_IFREG | 0600);
  CHECK_EQ(store_path_write_file(s, NULL, "/n", "de", 2, 0644, 0), 0);
  CHECK(tu_file_is(s, "/n", "de", 2));
  CHECK_EQ(store_path_write_file(s, NULL, "/n", "fg", 2, 0644, STORE_WRITE_APPEND), 0);
  CHECK(tu_file_is(s, "/n", "defg", 4));
  CHECK_EQ(store_path_write_file(s, NULL, "/p/q/r", "z", 1, 0644, 0), -ENOENT);
  CHECK_EQ(store_path_write_file(s, NULL, "/p/q/r", "z", 1, 0644, STORE_WRITE_MKDIRS), 0);
  CHECK(tu_file_is(s, "/p/q/r", "z", 1));
  CHECK_EQ(store_path_write_file(s, NULL, "/empty", "", 0, 0644, 0), 0);
  CHECK(tu_file_is(s, "/empty", "", 0));
  /* through a symlink: writes the target */
  CHECK_EQ(store_path_write_file(s, NULL, "/a/link-rel/file", "via", 3, 0644, 0), 0);
  CHECK(tu_file_is(s, "/a/b/file", "via", 3));
  store_close(s);
}

TEST(read_file_is_nul_terminated_and_exact) {
  store *s = tree();
  static unsigned char big[20000];
  for (size_t i = 0; i < sizeof big; i++) big[i] = (unsigned char)(i * 13);
  CHECK_EQ(store_path_write_file(s, NULL, "/big", big, sizeof big, 0644, 0), 0);
  void *d;
  size_t n;
  CHECK_EQ(store_path_read_file(s, NULL, "/big", &d, &n), 0);
  CHECK_EQ(n, sizeof big);
  CHECK(memcmp(d, big, n) == 0);
  CHECK(((char *)d)[n] == 0);
  free(d);
  store_close(s);
}

TEST(rename_by_path_rules) {
  store *s = tree();
  CHECK_EQ(store_path_rename(s, NULL, "/f", "/a/b/moved"), 0);
  CHECK(tu_file_is(s, "/a/b/moved", "x", 1));
  CHECK_EQ(store_path_rename(s, NULL, "/a/b/moved", "/a/b/file"), 0);
  CHECK(tu_file_is(s, "/a/b/file", "x", 1));
  CHECK_EQ(store_path_rename(s, NULL, "/a", "/a/b/inside"), -EINVAL);
  CHECK_EQ(store_path_rename(s, NULL, "/a/b/file/", "/g"), -ENOTDIR);
  CHECK_EQ(store_path_rename(s, NULL, "/a/b/file", "/g/"), -ENOTDIR);
  CHECK_EQ(store_path_rename(s, NULL, "/a/.", "/z"), -EBUSY);
  CHECK_EQ(store_path_rename(s, NULL, "/", "/z"), -EBUSY);
  CHECK_EQ(store_path_rename(s, NULL, "/a/b/", "/c/"), 0);
  CHECK(tu_file_is(s, "/c/file", "x", 1));
  /* renaming a symlink moves the link, not its target */
  CHECK_EQ(store_path_rename(s, NULL, "/dangling", "/d2"), 0);
  check_readlink(s, NULL, "/d2", "/nowhere");
  store_close(s);
}

TEST(link_symlink_readlink_by_path) {
  store *s = tree();
  CHECK_EQ(store_path_link(s, NULL, "/f", "/hard"), 0);
  store_stat st;
  store_path_stat(s, NULL, "/f", &st);
  CHECK_EQ(st.nlink, 2);
  CHECK_EQ(ino_of(s, "/hard"), st.ino);
  CHECK_EQ(store_path_link(s, NULL, "/a", "/adir"), -EPERM);
  CHECK_EQ(store_path_link(s, NULL, "/f", "/a"), -EEXIST);
  CHECK_EQ(store_path_link(s, NULL, "/missing", "/m"), -ENOENT);
  /* link(2) does not follow a symlink: the new name is the link itself */
  CHECK_EQ(store_path_link(s, NULL, "/dangling", "/dl"), 0);
  CHECK_EQ(store_path_lstat(s, NULL, "/dl", &st), 0);
  CHECK(S_ISLNK(st.mode));
  CHECK_EQ(store_path_symlink(s, NULL, "x", "/f"), -EEXIST);
  CHECK_EQ(store_path_symlink(s, NULL, "", "/e"), -ENOENT);
  char *t = NULL;
  CHECK_EQ(store_path_readlink(s, NULL, "/f", &t), -EINVAL);
  check_readlink(s, NULL, "/a/link-rel", "b");
  store_close(s);
}

TEST(unlink_and_rmdir_by_path) {
  store *s = tree();
  CHECK_EQ(store_path_unlink(s, NULL, "/a"), -EISDIR);
  CHECK_EQ(store_path_unlink(s, NULL, "/f/"), -ENOTDIR);
  CHECK_EQ(store_path_unlink(s, NULL, "/"), -EISDIR);
  CHECK_EQ(store_path_unlink(s, NULL, "/a/link-rel"), 0); /* the link only */
  CHECK(ino_of(s, "/a/b") > 0);
  CHECK_EQ(store_path_rmdir(s, NULL, "/a"), -ENOTEMPTY);
  CHECK_EQ(store_path_rmdir(s, NULL, "/f"), -ENOTDIR);
  CHECK_EQ(store_path_rmdir(s, NULL, "/a/b/."), -EINVAL);
  CHECK_EQ(store_path_rmdir(s, NULL, "/"), -EBUSY);
  CHECK_EQ(store_path_unlink(s, NULL, "/a/b/file"), 0);
  CHECK_EQ(store_path_rmdir(s, NULL, "/a/b/"), 0);
  CHECK_EQ(store_path_unlink(s, NULL, "/f"), 0);
  CHECK_EQ(store_path_unlink(s, NULL, "/f"), -ENOENT);
  store_close(s);
}

TEST(remove_tree_removes_everything_below_but_not_symlink_targets) {
  store *s = tree();
  CHECK_EQ(store_path_mkdir_p(s, NULL, "/t/d1/d2/d3", 0755), 0);
  char p[64];
  for (int i = 0; i < 50; i++) { /* more than one batch per directory */
    snprintf(p, sizeof p, "/t/d1/f%d", i);
    CHECK_EQ(store_path_write_file(s, NULL, p, "data", 4, 0644, 0), 0);
  }
  CHECK_EQ(store_path_write_file(s, NULL, "/t/d1/d2/d3/deep", "x", 1, 0644, 0), 0);
  CHECK_EQ(store_path_symlink(s, NULL, "/a", "/t/to-a"), 0);
  long long before = tu_int(s, "SELECT count(*) FROM fs_inode");
  CHECK_EQ(store_path_remove_tree(s, NULL, "/t"), 0);
  CHECK_EQ(tu_int(s, "SELECT count(*) FROM fs_inode"), before - 56);
  CHECK(ino_of(s, "/a/b/file") > 0);
  store_stat st;
  CHECK_EQ(store_path_lstat(s, NULL, "/t", &st), -ENOENT);
  CHECK_EQ(store_path_remove_tree(s, NULL, "/f"), 0);
  CHECK_EQ(store_path_remove_tree(s, NULL, "/a/link-abs"), 0); /* the link */
  CHECK(ino_of(s, "/a/b") > 0);
  CHECK_EQ(store_path_remove_tree(s, NULL, "/"), -EBUSY);
  CHECK_EQ(store_path_remove_tree(s, NULL, "/nothing"), -ENOENT);
  CHECK_EQ(
      tu_int(s,
             "SELECT count(*) FROM fs_data WHERE ino NOT IN (SELECT ino FROM fs_inode)"),
      0);
  store_close(s);
}

TEST(remove_tree_is_all_or_nothing) {
  store *s = tree();
  CHECK_EQ(store_path_mkdir_p(s, NULL, "/t/open", 0755), 0);
  CHECK_EQ(store_path_mkdir_p(s, NULL, "/t/locked/sub", 0755), 0);
  CHECK_EQ(store_path_write_file(s, NULL, "/t/open/x", "1", 1, 0644, 0), 0);
  CHECK_EQ(store_path_chmod(s, NULL, "/t/locked", 0555), 0);
  long long before = tu_int(s, "SELECT count(*) FROM fs_inode");
  CHECK_EQ(store_path_remove_tree(s, NULL, "/t"), -EACCES);
  CHECK_EQ(tu_int(s, "SELECT count(*) FROM fs_inode"), before);
  CHECK(tu_file_is(s, "/t/open/x", "1", 1));
  store_close(s);
}

TEST(utimes_sets_explicit_now_and_omit) {
  store *s = tree();
  struct timespec ts[2] = {{100, 5}, {200, 6}};
  CHECK_EQ(store_path_utimes(s, NULL, "/f", ts, 0), 0);
  store_stat st;
  store_path_stat(s, NULL, "/f", &st);
  CHECK_EQ(st.atime, 100);
  CHECK_EQ(st.atime_nsec, 5);
  CHECK_EQ(st.mtime, 200);
  struct timespec ts2[2] = {{0, UTIME_OMIT}, {0, UTIME_NOW}};
  CHECK_EQ(store_path_utimes(s, NULL, "/f", ts2, 0), 0);
  store_path_stat(s, NULL, "/f", &st);
  CHECK_EQ(st.atime, 100);
  CHECK(st.mtime > 1000000000);
  struct timespec bad[2] = {{0, 2000000000L}, {0, 0}};
  CHECK_EQ(store_path_utimes(s, NULL, "/f", bad, 0), -EINVAL);
  /* NOFOLLOW sets the symlink's own times */
  CHECK_EQ(store_path_utimes(s, NULL, "/dangling", ts, STORE_NOFOLLOW), 0);
  CHECK_EQ(store_path_utimes(s, NULL, "/dangling", ts, 0), -ENOENT);
  CHECK_EQ(store_path_utimes(s, NULL, "/f", NULL, 0), 0);
  store_close(s);
}

TEST(non_utf8_paths_round_trip) {
  store *s = tree();
  const char *p = "/a/\xc3\x28\xff/\x80name";
  CHECK_EQ(store_path_write_file(s, NULL, p, "v", 1, 0644, STORE_WRITE_MKDIRS), 0);
  CHECK(tu_file_is(s, p, "v", 1));
  check_realpath(s, NULL, p, p);
  store_close(s);
}

TEST(readonly_store_gives_erofs_and_leaves_file_unchanged) {
  char *path;
  store *s = tu_file("ro.db", &path);
  CHECK_EQ(store_path_write_file(s, NULL, "/keep", "k", 1, 0644, 0), 0);
  store_close(s);
  struct stat before, after;
  stat(path, &before);
  char *msg = NULL;
  REQUIRE(store_open(path, STORE_OPEN_READONLY, &s, &msg) == 0);
  free(msg);
  CHECK_EQ(store_readonly(s), 1);
  CHECK(tu_file_is(s, "/keep", "k", 1));
  CHECK_EQ(store_path_write_file(s, NULL, "/new", "n", 1, 0644, 0), -EROFS);
  CHECK_EQ(store_path_mkdir(s, NULL, "/d", 0755), -EROFS);
  CHECK_EQ(store_path_unlink(s, NULL, "/keep"), -EROFS);
  CHECK_EQ(store_kv_set(s, "k", "1"), -EROFS);
  store_stat st;
  CHECK_EQ(store_path_open(s, NULL, "/keep", O_WRONLY, 0, &st), -EROFS);
  CHECK_EQ(store_path_open(s, NULL, "/keep", O_RDONLY, 0, &st), 0);
  CHECK_EQ(store_path_open(s, NULL, "/zz", O_RDWR | O_CREAT, 0644, &st), -EROFS);
  CHECK_EQ(store_begin(s), -EROFS);
  store_close(s);
  stat(path, &after);
  CHECK_EQ(before.st_size, after.st_size);
  CHECK_EQ(before.st_mtime, after.st_mtime);
  CHECK_EQ(store_open(path, 0, &s, NULL), 0);
  CHECK_EQ(store_path_stat(s, NULL, "/new", &st), -ENOENT);
  store_close(s);
  tu_rm_db(path);
}

int main(int argc, char **argv) {
  harness_init(argc, argv);
  RUN(dot_and_dotdot_resolve_and_dotdot_stays_at_root);
  RUN(symlinks_resolve_relative_to_their_directory);
  RUN(symlink_loops_give_eloop_and_40_links_are_allowed);
  RUN(dangling_symlink_stat_enoent_lstat_ok);
  RUN(trailing_slash_demands_a_directory);
  RUN(bad_paths_give_clear_errors);
  RUN(relative_paths_resolve_from_cwd);
  RUN(realpath_is_canonical);
  RUN(resolve_parent_gives_directory_and_last_name);
  RUN(mkdir_and_mkdir_p);
  RUN(open_flags_follow_open2);
  RUN(open_checks_mode_bits_as_non_root);
  RUN(directory_permissions_gate_lookup_and_changes);
  RUN(write_file_creates_replaces_appends_and_makes_parents);
  RUN(read_file_is_nul_terminated_and_exact);
  RUN(rename_by_path_rules);
  RUN(link_symlink_readlink_by_path);
  RUN(unlink_and_rmdir_by_path);
  RUN(remove_tree_removes_everything_below_but_not_symlink_targets);
  RUN(remove_tree_is_all_or_nothing);
  RUN(utimes_sets_explicit_now_and_omit);
  RUN(non_utf8_paths_round_trip);
  RUN(readonly_store_gives_erofs_and_leaves_file_unchanged);
  return harness_done();
}
