/*
 * archive_io.c - shared by tar and unzip: libarchive callbacks over cmd_io
 * and the checks that keep extraction inside its target directory.
 */
#include "cmd/lib/archive_io.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

la_ssize_t arc_read_cb(struct archive *a, void *ud, const void **buf) {
  arc_io *t = ud;
  if (cmd_poll(t->ctx)) {
    archive_set_error(a, ECANCELED, "interrupted");
    return -1;
  }
  ssize_t r = t->ctx->io->read(t->ctx->io_ud, t->fd, t->buf, sizeof t->buf);
  if (r < 0) {
    archive_set_error(a, (int)-r, "%s", cmd_strerror((int)r));
    return -1;
  }
  *buf = t->buf;
  return r;
}

la_ssize_t arc_write_cb(struct archive *a, void *ud, const void *buf, size_t n) {
  arc_io *t = ud;
  if (cmd_poll(t->ctx)) {
    archive_set_error(a, ECANCELED, "interrupted");
    return -1;
  }
  int rc = t->fd == 1 ? cmd_out(t->ctx, buf, n) : cmd_write_fd(t->ctx, t->fd, buf, n);
  if (rc < 0) {
    archive_set_error(a, -rc, "%s", cmd_strerror(rc));
    return -1;
  }
  return (la_ssize_t)n;
}

bool arc_has_dotdot(const char *name) {
  for (const char *p = name; *p;) {
    size_t n = strcspn(p, "/");
    if (n == 2 && p[0] == '.' && p[1] == '.') return true;
    p += n;
    while (*p == '/') p++;
  }
  return false;
}

char *arc_join(const char *a, const char *b) {
  size_t la = strlen(a), lb = strlen(b);
  char *r = malloc(la + lb + 2);
  if (!r) return NULL;
  memcpy(r, a, la);
  size_t k = la;
  if (k && r[k - 1] != '/') r[k++] = '/';
  memcpy(r + k, b, lb + 1);
  return r;
}

int arc_make_parents(cmd_ctx *ctx, const char *full, size_t base_len) {
  char *p = strdup(full);
  if (!p) return -ENOMEM;
  int rc = 0;
  char *last = strrchr(p, '/');
  if (!last || (size_t)(last - p) < base_len) {
    free(p);
    return 0;
  }
  *last = '\0';
  for (char *s = p + base_len; rc == 0;) {
    while (*s == '/') s++;
    char *slash = strchr(s, '/');
    if (slash) *slash = '\0';
    store_stat st;
    int r = store_path_lstat(ctx->store, ctx->cwd, p, &st);
    if (r == -ENOENT)
      rc = store_path_mkdir(ctx->store, ctx->cwd, p, 0755 & ~ctx->umask);
    else if (r < 0)
      rc = r;
    else if (S_ISLNK(st.mode))
      rc = -ELOOP; /* a planted symlink could point anywhere */
    else if (!S_ISDIR(st.mode))
      rc = -ENOTDIR;
    if (!slash) break;
    *slash = '/';
    s = slash + 1;
  }
  free(p);
  return rc;
}
