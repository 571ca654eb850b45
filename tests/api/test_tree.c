/*
 * test_tree.c - sbx_import_dir and sbx_export_dir: the symlink rule (a
 * relative target of some "../" within the link's depth, then names only),
 * the depth limit, all-or-nothing imports under a quota, and the argument
 * checks. The CLI suite (scripts/suites/cli.sh) checks modes and times.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "api_util.h"

static int counter;

/* A fresh host tree: dir/a.txt, dir/sub/b.txt; returns its path. */
static const char *host_tree(void) {
  static char dir[512];
  snprintf(dir, sizeof dir, "%s/tree%d", scratch_dir(), counter++);
  char p[600];
  mkdir(dir, 0755);
  snprintf(p, sizeof p, "%s/sub", dir);
  mkdir(p, 0755);
  snprintf(p, sizeof p, "%s/a.txt", dir);
  write_host_file(p, "a", 1);
  snprintf(p, sizeof p, "%s/sub/b.txt", dir);
  write_host_file(p, "b", 1);
  return dir;
}

/* Imports a tree with one symlink at `where` (relative to the root) pointing
 * to `target`; returns the result code. */
static int import_with_link(const char *where, const char *target) {
  const char *dir = host_tree();
  char link[700];
  snprintf(link, sizeof link, "%s/%s", dir, where);
  if (symlink(target, link) != 0) return -1;
  sbx *h;
  if (sbx_open(NULL, SBX_OPEN_MEMORY, &h) != SBX_OK) return -1;
  int rc = sbx_import_dir(h, dir, "/t");
  if (rc == SBX_OK) { /* the link arrived as it was */
    char *got = NULL, sp[300];
    snprintf(sp, sizeof sp, "/t/%s", where);
    if (sbx_readlink(h, sp, &got) != SBX_OK || strcmp(got, target) != 0) rc = -2;
    sbx_free(got);
  }
  sbx_close(h);
  return rc;
}

TEST(symlinks_that_stay_inside_the_tree_are_copied) {
  CHECK_EQ(import_with_link("l", "a.txt"), SBX_OK);
  CHECK_EQ(import_with_link("l", "./sub/b.txt"), SBX_OK);
  CHECK_EQ(import_with_link("l", "sub"), SBX_OK);
  CHECK_EQ(import_with_link("l", "missing/but/inside"), SBX_OK);
  CHECK_EQ(import_with_link("sub/l", ".."), SBX_OK);
  CHECK_EQ(import_with_link("sub/l", "../a.txt"), SBX_OK);
  CHECK_EQ(import_with_link("sub/l", "../sub/b.txt"), SBX_OK);
  CHECK_EQ(import_with_link("sub/l", "."), SBX_OK);
}

TEST(symlinks_that_leave_the_tree_are_refused) {
  CHECK_EQ(import_with_link("l", "/etc/passwd"), SBX_ERROR);
  CHECK_EQ(import_with_link("l", ".."), SBX_ERROR);
  CHECK_EQ(import_with_link("l", "../x"), SBX_ERROR);
  CHECK_EQ(import_with_link("sub/l", "../.."), SBX_ERROR);
  /* lexically inside, but ".." after a name may cross a symlink: refused */
  CHECK_EQ(import_with_link("l", "sub/.."), SBX_ERROR);
  CHECK_EQ(import_with_link("sub/l", "../sub/../.."), SBX_ERROR);
}

TEST(a_refused_import_writes_nothing) {
  const char *dir = host_tree();
  char link[700];
  snprintf(link, sizeof link, "%s/sub/zz", dir); /* read after a.txt and sub/b.txt */
  REQUIRE(symlink("/", link) == 0);
  sbx *h;
  REQUIRE(sbx_open(NULL, SBX_OPEN_MEMORY, &h) == SBX_OK);
  CHECK_EQ(sbx_import_dir(h, dir, "/t"), SBX_ERROR);
  CHECK(strstr(sbx_errmsg(h), "leaves the copied tree") != NULL);
  sbx_stat st;
  CHECK_EQ(sbx_stat_path(h, "/t", 1, &st), SBX_FS | (ENOENT << 8));
  sbx_close(h);
}

TEST(quota_failure_rolls_back_the_whole_import) {
  const char *dir = host_tree();
  sbx *h;
  REQUIRE(sbx_open(NULL, SBX_OPEN_MEMORY, &h) == SBX_OK);
  sbx_quota q = {.max_bytes = 0, .max_inodes = 4, .max_file_size = 0};
  REQUIRE(sbx_set_quota(h, &q) == SBX_OK);
  int rc = sbx_import_dir(h, dir, "/t"); /* /t, a.txt, sub, b.txt: over 4 with / */
  CHECK_EQ(rc, SBX_FS | (ENOSPC << 8));
  sbx_stat st;
  CHECK_EQ(sbx_stat_path(h, "/t", 1, &st), SBX_FS | (ENOENT << 8));
  sbx_close(h);
}

TEST(depth_is_limited) {
  char path[4096];
  int n = snprintf(path, sizeof path, "%s/deep", scratch_dir());
  REQUIRE(mkdir(path, 0755) == 0);
  for (int i = 0; i < 300 && n + 3 < (int)sizeof path; i++) {
    n += snprintf(path + n, sizeof path - (size_t)n, "/d");
    REQUIRE(mkdir(path, 0755) == 0);
  }
  sbx *h;
  REQUIRE(sbx_open(NULL, SBX_OPEN_MEMORY, &h) == SBX_OK);
  snprintf(path, sizeof path, "%s/deep", scratch_dir());
  CHECK_EQ(sbx_import_dir(h, path, "/t"), SBX_FS | (ELOOP << 8));
  sbx_close(h);
}

TEST(export_round_trip_and_an_existing_target) {
  const char *dir = host_tree();
  char link[700], out[600];
  snprintf(link, sizeof link, "%s/sub/up", dir);
  REQUIRE(symlink("../a.txt", link) == 0);
  sbx *h;
  REQUIRE(sbx_open(NULL, SBX_OPEN_MEMORY, &h) == SBX_OK);
  REQUIRE(sbx_import_dir(h, dir, "/t") == SBX_OK);
  snprintf(out, sizeof out, "%s/out%d", scratch_dir(), counter++);
  CHECK_EQ(sbx_export_dir(h, "/t", out), SBX_OK);
  char p[700], target[64] = "";
  snprintf(p, sizeof p, "%s/sub/up", out);
  CHECK(readlink(p, target, sizeof target - 1) == 8 && strcmp(target, "../a.txt") == 0);
  size_t len = 0;
  snprintf(p, sizeof p, "%s/sub/b.txt", out);
  char *b = read_host_file(p, &len);
  CHECK(b && len == 1 && b[0] == 'b');
  free(b);
  CHECK_EQ(sbx_export_dir(h, "/t", out), SBX_FS | (EEXIST << 8));
  /* a sandbox link out of the tree is not written to the host */
  REQUIRE(sbx_symlink(h, "/etc", "/t/sub/etc") == SBX_OK);
  snprintf(out, sizeof out, "%s/out%d", scratch_dir(), counter++);
  CHECK_EQ(sbx_export_dir(h, "/t", out), SBX_ERROR);
  snprintf(p, sizeof p, "%s/sub/etc", out);
  struct stat st;
  CHECK(lstat(p, &st) != 0);
  sbx_close(h);
}

TEST(bad_arguments) {
  sbx *h;
  REQUIRE(sbx_open(NULL, SBX_OPEN_MEMORY, &h) == SBX_OK);
  CHECK_EQ(sbx_import_dir(NULL, "/", "/x"), SBX_MISUSE);
  CHECK_EQ(sbx_import_dir(h, NULL, "/x"), SBX_MISUSE);
  CHECK_EQ(sbx_export_dir(h, "/x", NULL), SBX_MISUSE);
  CHECK_EQ(sbx_import_dir(h, "/nonexistent/host/dir", "/x"), SBX_FS | (ENOENT << 8));
  CHECK_EQ(sbx_export_dir(h, "/missing", "/tmp/never-created-by-sbx"), SBX_FS | (ENOENT << 8));
  sbx_close(h);
}

int main(int argc, char **argv) {
  harness_init(argc, argv);
  RUN(symlinks_that_stay_inside_the_tree_are_copied);
  RUN(symlinks_that_leave_the_tree_are_refused);
  RUN(a_refused_import_writes_nothing);
  RUN(quota_failure_rolls_back_the_whole_import);
  RUN(depth_is_limited);
  RUN(export_round_trip_and_an_existing_target);
  RUN(bad_arguments);
  return harness_done();
}
