/*
 * run_limited.c - cmd_run_limited (see lib/run_limited.h): a minimal cmd_io
 * with a wall-clock poll and a stdout cap, for tests and fuzz targets.
 *
 * Descriptors: 0 stdin (the buffer), 1 and 2 captured, 3.. read-only store
 * files (inode + offset). No run/popen: the commands it is meant for do not
 * start others. The context, the capture buffers and the result hand-over
 * are cmd_run_standalone's (standalone.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd/standalone.h"
#include "cmd/lib/run_limited.h"

#define LIM_MAXFD 32

typedef struct lim_state {
  store *store;          /* the sandbox (borrowed) */
  const char *cwd;       /* working directory (borrowed) */
  const char *in;        /* stdin bytes (borrowed) */
  size_t inlen, inpos;   /* their length and read position */
  cmd_capture out, err;  /* captured stdout / stderr */
  size_t max_out;        /* stdout cap (0: none) */
  struct timespec start; /* when the call began */
  long max_ms;           /* poll deadline (0: none) */
  bool open[LIM_MAXFD];  /* fds 3.. in use */
  store_ino ino[LIM_MAXFD];   /* their inodes */
  uint64_t off[LIM_MAXFD];    /* and offsets */
} lim_state;

static long lim_elapsed(const lim_state *st) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (now.tv_sec - st->start.tv_sec) * 1000 + (now.tv_nsec - st->start.tv_nsec) / 1000000;
}

static ssize_t lim_read(void *ud, int fd, void *buf, size_t n) {
  lim_state *st = ud;
  if (fd == 0) return (ssize_t)cmd_buffer_read(st->in, st->inlen, &st->inpos, buf, n);
  if (fd < 3 || fd >= LIM_MAXFD || !st->open[fd]) return -EBADF;
  ssize_t r = store_read(st->store, st->ino[fd], buf, n, st->off[fd]);
  if (r > 0) st->off[fd] += (uint64_t)r;
  return r;
}

static ssize_t lim_write(void *ud, int fd, const void *buf, size_t n) {
  lim_state *st = ud;
  if (fd == 1) {
    if (st->max_out && st->out.len + n > st->max_out) return -EPIPE;
    return cmd_capture_add(&st->out, buf, n) < 0 ? -ENOMEM : (ssize_t)n;
  }
  if (fd == 2) return cmd_capture_add(&st->err, buf, n) < 0 ? -ENOMEM : (ssize_t)n;
  return -EBADF;
}

static int lim_open(void *ud, const char *path, int oflags, uint32_t mode) {
  lim_state *st = ud;
  if ((oflags & O_ACCMODE) != O_RDONLY) return -EROFS;
  if (strcmp(path, "/dev/stdin") == 0) return 0;
  int fd = 3;
  while (fd < LIM_MAXFD && st->open[fd]) fd++;
  if (fd == LIM_MAXFD) return -EMFILE;
  store_stat s;
  int rc = store_path_open(st->store, st->cwd, path, oflags, mode, &s);
  if (rc < 0) return rc;
  st->open[fd] = true;
  st->ino[fd] = s.ino;
  st->off[fd] = 0;
  return fd;
}

static int lim_close(void *ud, int fd) {
  lim_state *st = ud;
  if (fd < 3 || fd >= LIM_MAXFD || !st->open[fd]) return -EBADF;
  st->open[fd] = false;
  return 0;
}

static int64_t lim_lseek(void *ud, int fd, int64_t off, int whence) { return -ESPIPE; }

static int lim_poll(void *ud) {
  lim_state *st = ud;
  return st->max_ms > 0 && lim_elapsed(st) >= st->max_ms;
}

static const cmd_io lim_io = {
    .read = lim_read,
    .write = lim_write,
    .open = lim_open,
    .close = lim_close,
    .lseek = lim_lseek,
    .poll = lim_poll,
};

int cmd_run_limited(store *s, const char *cwd, int argc, char **argv, const void *in,
                    size_t inlen, const cmd_limits *lim, cmd_standalone_result *res,
                    long *elapsed_ms) {
  memset(res, 0, sizeof *res);
  lim_state *st = calloc(1, sizeof *st);
  if (!st) return -ENOMEM;
  static char *const default_env[] = {"PATH=/usr/bin:/bin", "HOME=/root", "TZ=UTC", NULL};
  st->store = s;
  st->cwd = cwd ? cwd : "/";
  st->in = in ? in : "";
  st->inlen = in ? inlen : 0;
  st->max_out = lim ? lim->max_out : 0;
  st->max_ms = lim ? lim->max_ms : 0;
  clock_gettime(CLOCK_MONOTONIC, &st->start);
  int rc = cmd_standalone_invoke(s, st->cwd, lim && lim->env ? lim->env : default_env, &lim_io,
                                 st, lim && lim->max_string ? lim->max_string : (64u << 20),
                                 argc, argv, &st->out, &st->err, res);
  if (rc == 0 && elapsed_ms) *elapsed_ms = lim_elapsed(st);
  free(st);
  return rc;
}
