/*
 * standalone.c - runs one command outside the shell: stdin from a buffer,
 * stdout and stderr captured in memory, files in the store.
 *
 * Used by command unit tests, the `sbx-run` tool and fuzz targets. It is the
 * smallest complete cmd_io: an fd table of memory streams, /dev/null, /dev/zero
 * and store files (inode + offset). `run` maps the child's fds 0 and 1 onto
 * the parent's through a view, so xargs and find -exec work here too; `popen`
 * is not available (the shell provides it). The context setup, the output
 * capture and the hand-over of the result are shared with cmd_run_limited
 * (lib/run_limited.c) through standalone.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd/standalone.h"
#include "cmd/lib/buf.h"

#define SA_MAXFD 64

enum sa_kind { SA_NONE, SA_STDIN, SA_OUT, SA_ERR, SA_NULL, SA_ZERO, SA_FILE };

typedef struct sa_fd {
  enum sa_kind kind; /* what this descriptor is */
  store_ino ino;     /* SA_FILE: the inode */
  uint64_t off;      /* SA_FILE: the offset */
  int oflags;        /* SA_FILE: open flags (O_APPEND, access mode) */
} sa_fd;

typedef struct sa_state {
  store *store;        /* the sandbox (borrowed) */
  const char *cwd;     /* working directory (borrowed) */
  const char *in;      /* stdin bytes (borrowed) */
  size_t inlen, inpos; /* stdin length and read position */
  cmd_capture out, err; /* captured stdout / stderr */
  sa_fd fds[SA_MAXFD]; /* the fd table */
  int depth;           /* nesting of run() calls */
} sa_state;

/* A command's view of the table: its fds 0..2 map to the state's fds. */
typedef struct sa_view {
  sa_state *st;  /* shared state */
  int map[3];    /* the child's 0, 1, 2 as state fds (-1: /dev/null) */
} sa_view;

static sa_fd *view_fd(sa_view *v, int fd) {
  if (fd >= 0 && fd < 3) {
    fd = v->map[fd];
    if (fd < 0) {
      static sa_fd null_fd = {SA_NULL, 0, 0, 0};
      return &null_fd;
    }
  }
  if (fd < 0 || fd >= SA_MAXFD || v->st->fds[fd].kind == SA_NONE) return NULL;
  return &v->st->fds[fd];
}

int cmd_capture_add(cmd_capture *b, const void *p, size_t n) {
  if (cmd_grow(&b->data, &b->cap, b->len + n + 1, 1)) return -ENOMEM;
  memcpy(b->data + b->len, p, n);
  b->len += n;
  b->data[b->len] = '\0';
  return 0;
}

size_t cmd_buffer_read(const char *in, size_t inlen, size_t *pos, void *buf, size_t n) {
  size_t k = inlen - *pos;
  if (k > n) k = n;
  memcpy(buf, in + *pos, k);
  *pos += k;
  return k;
}

void cmd_standalone_ctx(cmd_ctx *ctx, store *s, const char *cwd, char *const *env,
                        const cmd_io *io, void *ud, uint64_t max_string) {
  memset(ctx, 0, sizeof *ctx);
  ctx->store = s;
  ctx->cwd = cwd;
  ctx->env = env;
  ctx->io = io;
  ctx->io_ud = ud;
  ctx->arena = cmd_arena_new();
  ctx->umask = 022;
  ctx->max_string = max_string;
  ctx->now = time(NULL);
}

int cmd_standalone_invoke(store *s, const char *cwd, char *const *env, const cmd_io *io,
                          void *ud, uint64_t max_string, int argc, char **argv,
                          cmd_capture *out, cmd_capture *err, cmd_standalone_result *res) {
  cmd_ctx ctx;
  cmd_standalone_ctx(&ctx, s, cwd, env, io, ud, max_string);
  if (!ctx.arena) return -ENOMEM;
  res->status = cmd_invoke(&ctx, argc, argv);
  res->err_errno = ctx.err_errno;
  memcpy(res->err_path, ctx.err_path, sizeof res->err_path);
  cmd_arena_free(ctx.arena);
  /* Hand the buffers over (empty ones as "" so callers need no NULL checks). */
  res->out = out->data ? out->data : calloc(1, 1);
  res->outlen = out->len;
  res->err = err->data ? err->data : calloc(1, 1);
  res->errlen = err->len;
  return 0;
}

static ssize_t sa_read(void *ud, int fd, void *buf, size_t n) {
  sa_view *v = ud;
  sa_state *st = v->st;
  sa_fd *f = view_fd(v, fd);
  if (!f) return -EBADF;
  switch (f->kind) {
    case SA_STDIN: return (ssize_t)cmd_buffer_read(st->in, st->inlen, &st->inpos, buf, n);
    case SA_NULL: return 0;
    case SA_ZERO: memset(buf, 0, n); return (ssize_t)n;
    case SA_FILE: {
      if ((f->oflags & O_ACCMODE) == O_WRONLY) return -EBADF;
      ssize_t r = store_read(st->store, f->ino, buf, n, f->off);
      if (r > 0) f->off += (uint64_t)r;
      return r;
    }
    default: return -EBADF;
  }
}

static ssize_t sa_write(void *ud, int fd, const void *buf, size_t n) {
  sa_view *v = ud;
  sa_state *st = v->st;
  sa_fd *f = view_fd(v, fd);
  if (!f) return -EBADF;
  switch (f->kind) {
    case SA_OUT: return cmd_capture_add(&st->out, buf, n) < 0 ? -ENOMEM : (ssize_t)n;
    case SA_ERR: return cmd_capture_add(&st->err, buf, n) < 0 ? -ENOMEM : (ssize_t)n;
    case SA_NULL:
    case SA_ZERO: return (ssize_t)n;
    case SA_FILE: {
      if ((f->oflags & O_ACCMODE) == O_RDONLY) return -EBADF;
      if (f->oflags & O_APPEND) {
        store_stat s;
        int rc = store_getattr(st->store, f->ino, &s);
        if (rc < 0) return rc;
        f->off = s.size;
      }
      ssize_t w = store_write(st->store, f->ino, buf, n, f->off);
      if (w > 0) f->off += (uint64_t)w;
      return w;
    }
    default: return -EBADF;
  }
}

static int sa_alloc_fd(sa_state *st) {
  for (int i = 3; i < SA_MAXFD; i++)
    if (st->fds[i].kind == SA_NONE) return i;
  return -EMFILE;
}

static int sa_open(void *ud, const char *path, int oflags, uint32_t mode) {
  sa_view *v = ud;
  sa_state *st = v->st;
  int fd = sa_alloc_fd(st);
  if (fd < 0) return fd;
  sa_fd nf = {SA_NONE, 0, 0, oflags};
  if (strcmp(path, "/dev/null") == 0) {
    nf.kind = SA_NULL;
  } else if (strcmp(path, "/dev/zero") == 0) {
    nf.kind = SA_ZERO;
  } else if (strcmp(path, "/dev/stdin") == 0 || strcmp(path, "/dev/stdout") == 0 ||
             strcmp(path, "/dev/stderr") == 0 || strncmp(path, "/dev/fd/", 8) == 0) {
    int which = path[5] == 'f' ? atoi(path + 8)
                : strcmp(path, "/dev/stdin") == 0 ? 0
                : strcmp(path, "/dev/stdout") == 0 ? 1 : 2;
    sa_fd *src = view_fd(v, which);
    if (!src) return -ENOENT;
    nf = *src;
  } else {
    store_stat s;
    int rc = store_path_open(st->store, st->cwd, path, oflags, mode, &s);
    if (rc < 0) return rc;
    nf.kind = SA_FILE;
    nf.ino = s.ino;
  }
  st->fds[fd] = nf;
  return fd;
}

static int sa_close(void *ud, int fd) {
  sa_view *v = ud;
  if (fd < 3 || fd >= SA_MAXFD || v->st->fds[fd].kind == SA_NONE) return -EBADF;
  v->st->fds[fd].kind = SA_NONE;
  return 0;
}

static int64_t sa_lseek(void *ud, int fd, int64_t off, int whence) {
  sa_view *v = ud;
  sa_fd *f = view_fd(v, fd);
  if (!f) return -EBADF;
  if (f->kind != SA_FILE) return -ESPIPE;
  int64_t base = 0;
  if (whence == SEEK_CUR) base = (int64_t)f->off;
  if (whence == SEEK_END) {
    store_stat s;
    int rc = store_getattr(v->st->store, f->ino, &s);
    if (rc < 0) return rc;
    base = (int64_t)s.size;
  }
  if (base + off < 0) return -EINVAL;
  f->off = (uint64_t)(base + off);
  return (int64_t)f->off;
}

static int sa_fstat(void *ud, int fd, store_stat *st) {
  sa_view *v = ud;
  sa_fd *f = view_fd(v, fd);
  if (!f) return -EBADF;
  if (f->kind == SA_FILE) return store_getattr(v->st->store, f->ino, st);
  memset(st, 0, sizeof *st);
  st->mode = f->kind == SA_NULL || f->kind == SA_ZERO ? S_IFCHR | 0666 : S_IFIFO | 0600;
  st->nlink = 1;
  return 0;
}

static int sa_poll(void *ud) { return 0; }

static int sa_run(void *ud, int argc, char **argv, int in_fd, int out_fd);
static int sa_run_env(void *ud, int argc, char **argv, char *const *env, const char *cwd,
                      int in_fd, int out_fd);

static const cmd_io sa_io = {
    .read = sa_read,
    .write = sa_write,
    .open = sa_open,
    .close = sa_close,
    .lseek = sa_lseek,
    .run = sa_run,
    .poll = sa_poll,
    .run_env = sa_run_env,
    .fstat = sa_fstat,
};

/* Runs a table command with the parent's fds in_fd / out_fd as 0 / 1, with
 * the given environment and directory (NULL: none / the sandbox's cwd). */
static int sa_run_env(void *ud, int argc, char **argv, char *const *env, const char *cwd,
                      int in_fd, int out_fd) {
  sa_view *v = ud;
  if (v->st->depth >= 16) return 126;
  sa_view child = {v->st, {-1, -1, -1}};
  child.map[0] = in_fd < 0 ? -1 : in_fd < 3 ? v->map[in_fd] : in_fd;
  child.map[1] = out_fd < 0 ? v->map[1] : out_fd < 3 ? v->map[out_fd] : out_fd;
  child.map[2] = v->map[2];
  cmd_ctx ctx;
  cmd_standalone_ctx(&ctx, v->st->store, cwd ? cwd : v->st->cwd, env, &sa_io, &child,
                     64u << 20);
  v->st->depth++;
  int status = cmd_invoke(&ctx, argc, argv);
  v->st->depth--;
  cmd_arena_free(ctx.arena);
  return status;
}

static int sa_run(void *ud, int argc, char **argv, int in_fd, int out_fd) {
  return sa_run_env(ud, argc, argv, NULL, NULL, in_fd, out_fd);
}

int cmd_run_standalone(store *s, const char *cwd, int argc, char **argv,
                       const void *in, size_t inlen, cmd_standalone_result *res) {
  memset(res, 0, sizeof *res);
  sa_state *st = calloc(1, sizeof *st);
  if (!st) return -ENOMEM;
  st->store = s;
  st->cwd = cwd ? cwd : "/";
  st->in = in ? in : "";
  st->inlen = in ? inlen : 0;
  st->fds[0].kind = SA_STDIN;
  st->fds[1].kind = SA_OUT;
  st->fds[2].kind = SA_ERR;
  sa_view view = {st, {0, 1, 2}};

  static char *const empty_env[] = {"PATH=/usr/bin:/bin", "HOME=/root", NULL};
  int rc = cmd_standalone_invoke(s, st->cwd, empty_env, &sa_io, &view, 64u << 20, argc, argv,
                                 &st->out, &st->err, res);
  free(st);
  return rc;
}
