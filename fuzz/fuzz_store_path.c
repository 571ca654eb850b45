/*
 * fuzz_store_path.c - libFuzzer target for the store's path resolution.
 *
 * One read-only tree is built once (directories, files, relative and
 * absolute symlinks, a symlink loop, a self-loop, links through "..", a
 * directory without search permission, a non-UTF-8 name). Each input is a
 * path (bytes up to the first NUL; the first byte also picks a cwd) given to
 * store_resolve (following and not), store_resolve_parent and store_realpath.
 * Besides "no crash, no leak, no hang", the results must be sane:
 *  - every error is one path resolution can give (ENOENT, ENOTDIR, ELOOP,
 *    ENAMETOOLONG, EACCES);
 *  - a resolved inode exists and has the attributes getattr reports;
 *  - a path ending in '/' resolves only to a directory;
 *  - resolve_parent gives an existing directory and a name of at most 255
 *    bytes without '/';
 *  - realpath is absolute and canonical (no "//", ".", "..", no trailing '/')
 *    and resolves, without following anything, to the same inode.
 * A violation aborts, which libFuzzer reports as a finding.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "store/store.h"

static store *tree; /* built on the first input, never changed */

static void die(const char *what, const char *path) {
  fprintf(stderr, "fuzz_store_path: %s (path \"%s\")\n", what, path);
  abort();
}

static void build(void) {
  if (store_open(NULL, STORE_OPEN_MEMORY, &tree, NULL) != 0) abort();
  int rc = 0;
  rc |= store_path_mkdir_p(tree, NULL, "/a/b/c", 0755);
  rc |= store_path_mkdir_p(tree, NULL, "/locked/inner", 0755);
  rc |= store_path_write_file(tree, NULL, "/a/f", "file", 4, 0644, 0);
  rc |= store_path_write_file(tree, NULL, "/a/b/c/deep", "d", 1, 0644, 0);
  rc |= store_path_write_file(tree, NULL, "/\xff\xfe", "x", 1, 0644, 0);
  rc |= store_path_symlink(tree, NULL, "b", "/a/rel");
  rc |= store_path_symlink(tree, NULL, "/a/b/c", "/a/abs");
  rc |= store_path_symlink(tree, NULL, "loop", "/loop");
  rc |= store_path_symlink(tree, NULL, "/p2", "/p1");
  rc |= store_path_symlink(tree, NULL, "/p1/x", "/p2");
  rc |= store_path_symlink(tree, NULL, "..", "/a/b/up");
  rc |= store_path_symlink(tree, NULL, ".", "/a/self");
  rc |= store_path_symlink(tree, NULL, "../f", "/a/b/tofile");
  rc |= store_path_symlink(tree, NULL, "/missing/x", "/dangling");
  rc |= store_path_symlink(tree, NULL, "a/rel/../../a/abs/", "/chain");
  rc |= store_path_chmod(tree, NULL, "/locked", 0600);
  if (rc) abort();
}

static int allowed(int rc) {
  return rc == 0 || rc == -ENOENT || rc == -ENOTDIR || rc == -ELOOP ||
         rc == -ENAMETOOLONG || rc == -EACCES;
}

static void check_inode(const store_stat *st, const char *path) {
  store_stat g;
  if (store_getattr(tree, st->ino, &g) != 0) die("resolved inode does not exist", path);
  if (g.mode != st->mode || g.size != st->size) die("stat differs from getattr", path);
}

static void check_canonical(const char *r, const char *path) {
  if (r[0] != '/') die("realpath not absolute", path);
  size_t n = strlen(r);
  if (n > 1 && r[n - 1] == '/') die("realpath ends in /", path);
  if (strstr(r, "//") || strstr(r, "/./") || strstr(r, "/../"))
    die("realpath not canonical", path);
  if ((n >= 2 && !strcmp(r + n - 2, "/.")) || (n >= 3 && !strcmp(r + n - 3, "/..")))
    die("realpath not canonical", path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!tree) build();
  static const char *const cwds[] = {NULL, "/", "/a", "/a/b", "/a/rel", "/chain"};
  const char *cwd = size ? cwds[data[0] % 6] : NULL;
  size_t n = size ? size - 1 : 0;
  if (n > 9000) n = 9000;
  char *path = malloc(n + 1);
  if (!path) return 0;
  if (n) memcpy(path, data + 1, n);
  path[n] = 0; /* a NUL inside ends the path, as for a C string */

  store_stat st, lst;
  int rc = store_resolve(tree, cwd, path, 0, &st);
  if (!allowed(rc)) die("unexpected error from resolve", path);
  size_t len = strlen(path);
  if (rc == 0) {
    check_inode(&st, path);
    if (S_ISLNK(st.mode)) die("followed resolution ended on a symlink", path);
    if (len && path[len - 1] == '/' && !S_ISDIR(st.mode))
      die("x/ resolved to a non-directory", path);
  }
  int lrc = store_resolve(tree, cwd, path, STORE_NOFOLLOW, &lst);
  if (!allowed(lrc)) die("unexpected error from lstat", path);
  if (lrc == 0) check_inode(&lst, path);
  /* lstat only differs from stat in the last symlink */
  if (lrc == 0 && !S_ISLNK(lst.mode) && (rc != 0 || st.ino != lst.ino))
    die("stat and lstat disagree on a non-symlink", path);

  store_ino dir;
  char name[STORE_NAME_MAX + 1];
  memset(name, 'Z', sizeof name);
  int prc = store_resolve_parent(tree, cwd, path, &dir, name);
  if (!allowed(prc)) die("unexpected error from resolve_parent", path);
  if (prc == 0) {
    store_stat d;
    if (store_getattr(tree, dir, &d) != 0 || !S_ISDIR(d.mode))
      die("parent is not a directory", path);
    if (memchr(name, 0, sizeof name) == NULL) die("name not terminated", path);
    if (strlen(name) > STORE_NAME_MAX || strchr(name, '/')) die("bad last name", path);
  }

  char *real = NULL;
  int rrc = store_realpath(tree, cwd, path, &real);
  if (!allowed(rrc)) die("unexpected error from realpath", path);
  if ((rrc == 0) != (rc == 0)) die("realpath and resolve disagree", path);
  if (rrc == 0) {
    check_canonical(real, path);
    store_stat rs;
    if (store_resolve(tree, NULL, real, STORE_NOFOLLOW, &rs) != 0 || rs.ino != st.ino)
      die("realpath does not lead back to the inode", path);
  } else if (real) {
    die("realpath failed but returned a string", path);
  }
  free(real);
  free(path);
  return 0;
}
