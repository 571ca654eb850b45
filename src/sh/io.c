/*
 * io.c - file descriptions, pipes, the fd table and the cmd_io table (io.h).
 *
 * A pipe is a 64 KiB ring. A reader of an empty pipe with live writers and a
 * writer of a full pipe with live readers block through the scheduler (the
 * baton passes to another stage); end-of-file is "no writer description left",
 * EPIPE is "no reader description left", exactly as with kernel pipes, so
 * `yes | head -n 3` ends as soon as head exits. Descriptions are shared by
 * dup'd and inherited fds and counted, so a subshell holding a copy of a pipe
 * end keeps it open until it ends - the same rule a forked bash follows.
 *
 * Output of a call (the sinks) counts against the output-bytes limit.
 * Synthetic paths: /dev/null, /dev/zero, /dev/urandom, /dev/random,
 * /dev/stdin, /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N, /dev/tty.
 */
#include "sh/builtins.h"
#include "sh/io.h"
#include "sh/expand.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cmd/host.h"
#include "sh/sched.h"
#include "sh/vars.h"

/* ---- descriptions ------------------------------------------------------------------------ */

sh_file *sh_file_new(sh_file_kind kind) {
  sh_file *f = sh_xcalloc(1, sizeof *f);
  f->kind = kind;
  f->refs = 1;
  f->hostfd = -1;
  return f;
}

sh_file *sh_file_ref(sh_file *f) {
  if (f) f->refs++;
  return f;
}

static void wake_list(sh_task **list, int *n) {
  for (int i = 0; i < *n; i++) sh_task_wake(list[i]);
  *n = 0;
}

void sh_file_unref(sh_file *f) {
  if (!f || --f->refs > 0) return;
  switch (f->kind) {
  case SH_F_PIPE_R:
    f->pipe->readers--;
    wake_list(f->pipe->wwait, &f->pipe->nwwait);
    break;
  case SH_F_PIPE_W:
    f->pipe->writers--;
    wake_list(f->pipe->rwait, &f->pipe->nrwait);
    break;
  default:
    break;
  }
  if (f->pipe && f->pipe->readers == 0 && f->pipe->writers == 0) free(f->pipe);
  free(f->mem);
  free(f->path);
  free(f);
}

sh_file *sh_file_mem(const void *data, size_t n) {
  char *m = sh_xmalloc(n + 1);
  if (n) memcpy(m, data, n);
  m[n] = 0;
  return sh_file_mem_take(m, n);
}

sh_file *sh_file_mem_take(char *data, size_t n) {
  sh_file *f = sh_file_new(SH_F_MEM);
  f->mem = data;
  f->memlen = n;
  f->oflags = O_RDONLY;
  return f;
}

sh_file *sh_file_sink(sh_sink_fn fn, void *ud) {
  sh_file *f = sh_file_new(SH_F_SINK);
  f->sink = fn;
  f->sink_ud = ud;
  f->oflags = O_WRONLY;
  return f;
}

void sh_pipe_new(sh_file **r, sh_file **w) {
  sh_pipe *p = sh_xcalloc(1, sizeof *p);
  p->readers = p->writers = 1;
  *r = sh_file_new(SH_F_PIPE_R);
  (*r)->pipe = p;
  (*r)->oflags = O_RDONLY;
  *w = sh_file_new(SH_F_PIPE_W);
  (*w)->pipe = p;
  (*w)->oflags = O_WRONLY;
}

/* ---- the fd table -------------------------------------------------------------------------- */

void sh_fdtab_init(sh_fdtab *t) {
  t->n = 16;
  t->f = sh_xcalloc((size_t)t->n, sizeof *t->f);
  t->cloexec = sh_xcalloc((size_t)t->n, 1);
}

void sh_fdtab_copy(sh_fdtab *dst, const sh_fdtab *src) {
  dst->n = src->n;
  dst->f = sh_xcalloc((size_t)dst->n, sizeof *dst->f);
  dst->cloexec = sh_xcalloc((size_t)dst->n, 1);
  for (int i = 0; i < src->n; i++) {
    dst->f[i] = sh_file_ref(src->f[i]);
    dst->cloexec[i] = src->cloexec[i];
  }
}

void sh_fdtab_free(sh_fdtab *t) {
  for (int i = 0; i < t->n; i++) sh_file_unref(t->f[i]);
  free(t->f);
  free(t->cloexec);
  t->f = NULL;
  t->cloexec = NULL;
  t->n = 0;
}

sh_file *sh_fd_get(sh_shell *sh, int fd) {
  if (fd < 0 || fd >= sh->fds.n) return NULL;
  return sh->fds.f[fd];
}

static void fdtab_grow(sh_fdtab *t, int fd) {
  if (fd < t->n) return;
  int n = t->n;
  while (n <= fd) n *= 2;
  if (n > SH_FD_MAX) n = SH_FD_MAX;
  t->f = sh_xrealloc(t->f, (size_t)n * sizeof *t->f);
  t->cloexec = sh_xrealloc(t->cloexec, (size_t)n);
  memset(t->f + t->n, 0, (size_t)(n - t->n) * sizeof *t->f);
  memset(t->cloexec + t->n, 0, (size_t)(n - t->n));
  t->n = n;
}

int sh_fd_set(sh_shell *sh, int fd, sh_file *f) {
  if (fd < 0 || fd >= SH_FD_MAX) return -EBADF;
  fdtab_grow(&sh->fds, fd);
  sh_file *old = sh->fds.f[fd];
  sh->fds.f[fd] = sh_file_ref(f);
  sh->fds.cloexec[fd] = 0;
  sh_file_unref(old);
  return fd;
}

int sh_fd_close(sh_shell *sh, int fd) {
  if (fd < 0 || fd >= sh->fds.n || !sh->fds.f[fd]) return -EBADF;
  sh_file *old = sh->fds.f[fd];
  sh->fds.f[fd] = NULL;
  sh->fds.cloexec[fd] = 0;
  sh_file_unref(old);
  return 0;
}

int sh_fd_alloc(sh_shell *sh, int min) {
  for (int i = min; i < SH_FD_MAX; i++) {
    if (i >= sh->fds.n) fdtab_grow(&sh->fds, i);
    if (!sh->fds.f[i]) return i;
  }
  return -EMFILE;
}

/* ---- pipes ------------------------------------------------------------------------------------ */

static bool must_stop(sh_shell *sh) {
  return sh->sess->limit_hit != SH_LIMIT_NONE || sh->flow == SH_FLOW_ABORT;
}

static void add_waiter(sh_task **list, int *n, sh_task *t) {
  for (int i = 0; i < *n; i++)
    if (list[i] == t) return;
  if (*n < 8) list[(*n)++] = t;
}

static ssize_t pipe_read(sh_shell *sh, sh_pipe *p, void *buf, size_t n) {
  for (;;) {
    if (p->len > 0) {
      size_t k = n < p->len ? n : p->len;
      size_t first = SH_PIPE_BUF - p->head;
      if (first > k) first = k;
      memcpy(buf, p->buf + p->head, first);
      if (k > first) memcpy((char *)buf + first, p->buf, k - first);
      p->head = (p->head + k) % SH_PIPE_BUF;
      p->len -= k;
      wake_list(p->wwait, &p->nwwait);
      return (ssize_t)k;
    }
    if (p->writers == 0 || n == 0) return 0;
    if (must_stop(sh) || !sh->task) return 0;
    add_waiter(p->rwait, &p->nrwait, sh->task);
    if (!sh_task_block(sh->task)) {
      for (int i = 0; i < p->nrwait; i++)
        if (p->rwait[i] == sh->task) p->rwait[i] = p->rwait[--p->nrwait];
      return 0; /* deadlock: nobody will ever write */
    }
  }
}

/* Writing to a pipe without readers: the writer gets SIGPIPE, which ends a
 * subshell or pipeline stage with status 141 unless SIGPIPE is ignored. */
static ssize_t sigpipe(sh_shell *sh) {
  const char *a = sh->traps.action[13];
  if (!(a && !*a) && sh->flow == SH_FLOW_NONE && sh->is_subshell) {
    sh->flow = SH_FLOW_EXIT;
    sh->fatal = 0;
    sh->exit_status = 141;
  }
  return -EPIPE;
}

/* A writer keeps the baton for a burst, the way a process on its own CPU
 * finishes a small output before the reader is even scheduled: it lets the
 * reader (and stages not yet started) run once it has written
 * SH_PIPE_BURST_BYTES or run SH_PIPE_BURST_CMDS commands since it got the
 * baton. So `{ echo a; echo b; } | head -n 1` ends with status 0 as in bash
 * (no SIGPIPE for a small output), while `seq 1 100000 | head -n 1` and
 * `while :; do echo x; done | head -n 1` still stop the producer early. The
 * burst is counted in bytes and commands, never in time: runs stay
 * deterministic. */
#define SH_PIPE_BURST_BYTES 4096
#define SH_PIPE_BURST_CMDS 64

static bool burst_over(sh_shell *sh, size_t wrote) {
  sh_task *t = sh->task;
  if (!t) return false;
  if (t->burst_turn != t->turns) {
    t->burst_turn = t->turns;
    t->burst_bytes = 0;
    t->burst_mark = sh->sess->ncommands;
  }
  t->burst_bytes += wrote;
  return t->burst_bytes >= SH_PIPE_BURST_BYTES || sh->sess->ncommands - t->burst_mark >= SH_PIPE_BURST_CMDS;
}

static ssize_t pipe_write(sh_shell *sh, sh_pipe *p, const void *buf, size_t n) {
  size_t done = 0;
  while (done < n) {
    if (p->readers == 0) return done ? (ssize_t)done : sigpipe(sh);
    if (p->len < SH_PIPE_BUF) {
      size_t space = SH_PIPE_BUF - p->len;
      size_t k = n - done < space ? n - done : space;
      size_t tail = (p->head + p->len) % SH_PIPE_BUF;
      size_t first = SH_PIPE_BUF - tail;
      if (first > k) first = k;
      memcpy(p->buf + tail, (const char *)buf + done, first);
      if (k > first) memcpy(p->buf, (const char *)buf + done + first, k - first);
      p->len += k;
      done += k;
      if (p->nrwait > 0) wake_list(p->rwait, &p->nrwait);
      if (burst_over(sh, k)) sh_task_yield(sh->task);
      continue;
    }
    if (must_stop(sh) || !sh->task) return done ? (ssize_t)done : -EPIPE;
    add_waiter(p->wwait, &p->nwwait, sh->task);
    if (!sh_task_block(sh->task)) {
      for (int i = 0; i < p->nwwait; i++)
        if (p->wwait[i] == sh->task) p->wwait[i] = p->wwait[--p->nwwait];
      return done ? (ssize_t)done : -EPIPE;
    }
  }
  return (ssize_t)done;
}

/* ---- reading and writing ------------------------------------------------------------------------ */

static uint64_t xorshift(uint64_t *s) {
  uint64_t x = *s;
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  return *s = x;
}

sh_byte_in *sh_byte_in_new(sh_shell *sh, int fd) {
  sh_byte_in *b = sh_xcalloc(1, sizeof *b);
  b->sh = sh;
  b->fd = fd;
  return b;
}

ssize_t sh_byte_in_next(sh_byte_in *b, char *c) {
  sh_file *f = sh_fd_get(b->sh, b->fd);
  if (!f || f->kind != SH_F_STORE || (f->oflags & O_ACCMODE) == O_WRONLY)
    return sh_fd_read(b->sh, b->fd, c, 1);
  /* the block is valid while it came from this file and nothing else moved
   * the offset (another stage of a pipeline may share the descriptor) */
  if (b->file != f || f->off != b->base + b->pos || b->pos == b->len) {
    ssize_t r = store_read(b->sh->sess->st, f->ino, b->buf, sizeof b->buf, f->off);
    if (r <= 0) return r;
    b->file = f;
    b->base = f->off;
    b->pos = 0;
    b->len = (size_t)r;
  }
  *c = (char)b->buf[b->pos++];
  f->off++;
  return 1;
}

ssize_t sh_fd_read(sh_shell *sh, int fd, void *buf, size_t n) {
  sh_file *f = sh_fd_get(sh, fd);
  if (!f) return -EBADF;
  if ((f->oflags & O_ACCMODE) == O_WRONLY) return -EBADF;
  switch (f->kind) {
  case SH_F_NULL:
    return 0;
  case SH_F_ZERO:
    if (f->off == 1) {
      /* /dev/urandom */
      static __thread uint64_t seed;
      if (!seed) seed = (uint64_t)time(NULL) ^ (uint64_t)(uintptr_t)buf ^ 0x9E3779B97F4A7C15ull;
      for (size_t i = 0; i < n; i++) ((unsigned char *)buf)[i] = (unsigned char)xorshift(&seed);
    } else {
      memset(buf, 0, n);
    }
    return (ssize_t)n;
  case SH_F_STORE: {
    ssize_t r = store_read(sh->sess->st, f->ino, buf, n, f->off);
    if (r > 0) f->off += (uint64_t)r;
    return r;
  }
  case SH_F_DIR:
    return -EISDIR;
  case SH_F_PIPE_R:
    return pipe_read(sh, f->pipe, buf, n);
  case SH_F_MEM: {
    if (f->off >= f->memlen) return 0;
    size_t k = f->memlen - f->off;
    if (k > n) k = n;
    memcpy(buf, f->mem + f->off, k);
    f->off += k;
    return (ssize_t)k;
  }
  case SH_F_HOSTIN: {
    ssize_t r;
    do r = read(f->hostfd, buf, n);
    while (r < 0 && errno == EINTR);
    return r < 0 ? -errno : r;
  }
  default:
    return -EBADF;
  }
}

ssize_t sh_fd_write(sh_shell *sh, int fd, const void *buf, size_t n) {
  sh_file *f = sh_fd_get(sh, fd);
  if (!f) return -EBADF;
  if ((f->oflags & O_ACCMODE) == O_RDONLY && f->kind != SH_F_NULL) return -EBADF;
  switch (f->kind) {
  case SH_F_NULL:
  case SH_F_ZERO:
    return (ssize_t)n;
  case SH_F_STORE: {
    if (f->oflags & O_APPEND) {
      store_stat st;
      if (store_getattr(sh->sess->st, f->ino, &st) == 0) f->off = st.size;
    }
    uint64_t fsize = sh_ulimit_fsize(sh);
    if (fsize != UINT64_MAX && f->off + n > fsize) {
      /* ulimit -f: write what fits; past it the writer gets SIGXFSZ (25) */
      if (f->off >= fsize) {
        sh->pending_sig = 25;
        return -EFBIG;
      }
      n = (size_t)(fsize - f->off);
    }
    ssize_t r = store_write(sh->sess->st, f->ino, buf, n, f->off);
    if (r > 0) f->off += (uint64_t)r;
    return r;
  }
  case SH_F_PIPE_W:
    return pipe_write(sh, f->pipe, buf, n);
  case SH_F_SINK: {
    sh_session *s = sh->sess;
    if (f->capture) return f->sink(f->sink_ud, buf, n);
    /* a detached job writes to the session's pending output (capped there),
     * not to the running call's */
    if (sh->task && sh->task->detached) return f->sink(f->sink_ud, buf, n);
    if (s->limit_hit == SH_LIMIT_OUTPUT) return -EPIPE;
    if (s->out_bytes + n > s->limits.output_bytes) {
      size_t room = (size_t)(s->limits.output_bytes - s->out_bytes);
      if (room) f->sink(f->sink_ud, buf, room);
      s->out_bytes += room;
      sh_limit_hit(sh, SH_LIMIT_OUTPUT, s->limits.output_bytes);
      return -EPIPE;
    }
    s->out_bytes += n;
    ssize_t r = f->sink(f->sink_ud, buf, n);
    return r < 0 ? r : (ssize_t)n;
  }
  case SH_F_DIR:
    return -EISDIR;
  default:
    return -EBADF;
  }
}

int64_t sh_fd_lseek(sh_shell *sh, int fd, int64_t off, int whence) {
  sh_file *f = sh_fd_get(sh, fd);
  if (!f) return -EBADF;
  if (f->kind == SH_F_NULL || f->kind == SH_F_ZERO) return 0;
  if (f->kind != SH_F_STORE && f->kind != SH_F_MEM) return -ESPIPE;
  int64_t base = 0;
  if (whence == SEEK_CUR) base = (int64_t)f->off;
  else if (whence == SEEK_END) {
    if (f->kind == SH_F_MEM) base = (int64_t)f->memlen;
    else {
      store_stat st;
      int r = store_getattr(sh->sess->st, f->ino, &st);
      if (r < 0) return r;
      base = (int64_t)st.size;
    }
  } else if (whence != SEEK_SET) {
    return -EINVAL;
  }
  if (base + off < 0) return -EINVAL;
  f->off = (uint64_t)(base + off);
  return (int64_t)f->off;
}

int sh_write_fd(sh_shell *sh, int fd, const void *buf, size_t n) {
  const char *p = buf;
  while (n > 0) {
    ssize_t w = sh_fd_write(sh, fd, p, n);
    if (w < 0) return (int)w;
    if (w == 0) return -EIO;
    p += w;
    n -= (size_t)w;
  }
  return 0;
}

int sh_write_str(sh_shell *sh, int fd, const char *s) { return sh_write_fd(sh, fd, s, strlen(s)); }

int sh_printf_fd(sh_shell *sh, int fd, const char *fmt, ...) {
  sh_buf b = {0};
  va_list ap;
  va_start(ap, fmt);
  sh_buf_vaddf(&b, fmt, ap);
  va_end(ap);
  int r = sh_write_fd(sh, fd, b.data ? b.data : "", b.len);
  sh_buf_free(&b);
  return r;
}

/* ---- opening --------------------------------------------------------------------------------------- */

/* Parses "/dev/fd/N" style suffixes: returns N or -1. */
static int fd_suffix(const char *s) {
  if (!*s) return -1;
  int n = 0;
  for (; *s; s++) {
    if (*s < '0' || *s > '9' || n > SH_FD_MAX) return -1;
    n = n * 10 + (*s - '0');
  }
  return n;
}

int sh_open_file(sh_shell *sh, const char *path, int oflags, uint32_t mode, sh_file **out) {
  *out = NULL;
  char *abs = NULL;
  const char *p = path;
  if (!*path) return -ENOENT;
  /* ulimit -n: the new descriptor would be at or above the limit */
  int lowest = sh_fd_alloc(sh, 0);
  if (lowest < 0 || (uint64_t)lowest >= sh_ulimit_nofile(sh)) return -EMFILE;
  if (path[0] != '/' && (strncmp(sh->cwd, "/dev", 4) == 0 || strncmp(sh->cwd, "/proc", 5) == 0)) {
    abs = sh_abspath(sh, path);
    p = abs;
  }
  int dupfd = -1;
  bool fd_path = false; /* /dev/fd/N or /proc/self/fd/N */
  int rc = 0;
  if (strcmp(p, "/dev/null") == 0) {
    *out = sh_file_new(SH_F_NULL);
    (*out)->oflags = oflags;
  } else if (strcmp(p, "/dev/zero") == 0 || strcmp(p, "/dev/urandom") == 0 ||
             strcmp(p, "/dev/random") == 0) {
    *out = sh_file_new(SH_F_ZERO);
    (*out)->oflags = oflags;
    (*out)->off = p[5] == 'z' ? 0 : 1;
  } else if (strcmp(p, "/dev/stdin") == 0) {
    dupfd = 0;
  } else if (strcmp(p, "/dev/stdout") == 0) {
    dupfd = 1;
  } else if (strcmp(p, "/dev/stderr") == 0) {
    dupfd = 2;
  } else if (strncmp(p, "/dev/fd/", 8) == 0) {
    fd_path = true;
    dupfd = fd_suffix(p + 8);
    if (dupfd < 0) rc = -ENOENT;
  } else if (strncmp(p, "/proc/self/fd/", 14) == 0) {
    fd_path = true;
    dupfd = fd_suffix(p + 14);
    if (dupfd < 0) rc = -ENOENT;
  } else if (strcmp(p, "/dev/tty") == 0) {
    rc = -ENXIO;
  } else {
    store_stat st;
    store_set_umask(sh->sess->st, sh->umask); /* the store masks new files itself */
    int r = store_path_open(sh->sess->st, sh->cwd, p, oflags, mode & ~sh->umask & 07777, &st);
    if (r < 0) {
      rc = r;
    } else if (S_ISDIR(st.mode)) {
      if ((oflags & O_ACCMODE) != O_RDONLY) {
        rc = -EISDIR;
      } else {
        *out = sh_file_new(SH_F_DIR);
        (*out)->ino = st.ino;
        (*out)->oflags = oflags;
      }
    } else {
      *out = sh_file_new(SH_F_STORE);
      (*out)->ino = st.ino;
      (*out)->oflags = oflags;
      (*out)->path = sh_abspath(sh, p);
    }
  }
  if (dupfd >= 0) {
    sh_file *f = sh_fd_get(sh, dupfd);
    if (!f) rc = fd_path ? -ENOENT : -EBADF; /* Linux: a closed /dev/fd/N does not exist */
    else *out = sh_file_ref(f);
  }
  free(abs);
  return rc;
}

int sh_fd_open(sh_shell *sh, const char *path, int oflags, uint32_t mode) {
  sh_file *f;
  int r = sh_open_file(sh, path, oflags, mode, &f);
  if (r < 0) return r;
  int fd = sh_fd_alloc(sh, 0);
  if (fd < 0) {
    sh_file_unref(f);
    return fd;
  }
  sh_fd_set(sh, fd, f);
  sh_file_unref(f);
  return fd;
}

/* ---- the cmd_io table ----------------------------------------------------------------------------- */

static ssize_t io_read(void *ud, int fd, void *buf, size_t n) { return sh_fd_read(ud, fd, buf, n); }
static ssize_t io_write(void *ud, int fd, const void *buf, size_t n) { return sh_fd_write(ud, fd, buf, n); }
static int io_open(void *ud, const char *path, int oflags, uint32_t mode) {
  return sh_fd_open(ud, path, oflags, mode);
}
static int io_close(void *ud, int fd) { return sh_fd_close(ud, fd); }
static int64_t io_lseek(void *ud, int fd, int64_t off, int whence) {
  return sh_fd_lseek(ud, fd, off, whence);
}
static int io_read_ready(void *ud, int fd) {
  sh_file *f = sh_fd_get(ud, fd);
  if (!f || f->kind != SH_F_HOSTIN) return 1;
  struct pollfd p = {f->hostfd, POLLIN, 0};
  return poll(&p, 1, 0) != 0; /* data, EOF, an error: the read returns */
}

static int io_fstat(void *ud, int fd, store_stat *st) {
  sh_shell *sh = ud;
  sh_file *f = sh_fd_get(sh, fd);
  if (!f) return -EBADF;
  memset(st, 0, sizeof *st);
  switch (f->kind) {
  case SH_F_STORE:
  case SH_F_DIR:
    return store_getattr(sh->sess->st, f->ino, st);
  case SH_F_NULL:
  case SH_F_ZERO:
    st->mode = S_IFCHR | 0666;
    break;
  default: /* pipes, here-documents, the call's own streams */
    st->mode = S_IFIFO | 0600;
    break;
  }
  st->nlink = 1;
  return 0;
}
static int io_poll(void *ud) { return sh_poll(ud); }
static int io_procs(void *ud, cmd_proc *out, int max) { return sh_jobs_procs(ud, out, max); }
static const char *io_getvar(void *ud, const char *name) { return sh_var_get(ud, name); }
static int io_setvar(void *ud, const char *name, const char *value) {
  /* printf -v 'a[1]': an array element */
  const char *br = strchr(name, '[');
  size_t n = strlen(name);
  if (br && n > 2 && name[n - 1] == ']' && sh_is_name_n(name, (size_t)(br - name)))
    return sh_assign_ref_elem(ud, name, value, false) ? -EINVAL : 0;
  if (!sh_is_name(name)) return -EINVAL;
  return sh_var_set(ud, name, value, 0) ? -EINVAL : 0;
}

int sh_io_run(void *ud, int argc, char **argv, int in_fd, int out_fd);
int sh_io_run_env(void *ud, int argc, char **argv, char *const *env, const char *cwd,
                  int in_fd, int out_fd);
int sh_io_run_until(void *ud, cmd_deadline *d, int argc, char **argv, char *const *env,
                    const char *cwd, int in_fd, int out_fd);
int sh_io_popen(void *ud, const char *script, const char *mode, int *fd);
int sh_io_pclose(void *ud, int handle);

const cmd_io sh_cmd_io = {
    .read = io_read,
    .write = io_write,
    .open = io_open,
    .close = io_close,
    .lseek = io_lseek,
    .run = sh_io_run,
    .run_env = sh_io_run_env,
    .run_until = sh_io_run_until,
    .popen = sh_io_popen,
    .pclose = sh_io_pclose,
    .poll = io_poll,
    .getvar = io_getvar,
    .setvar = io_setvar,
    .fstat = io_fstat,
    .read_ready = io_read_ready,
    .procs = io_procs,
};

/* When `sleep ARGS` will end (monotonic), if its operands are plain
 * NUMBER[smhd] (sleep itself parses them; this is only a hint so a detached
 * job can nap off the baton until then), else 0. */
static int64_t sleep_end(int argc, char **argv) {
  long double total = 0;
  for (int i = 1; i < argc; i++) {
    char *end;
    errno = 0;
    long double v = strtold(argv[i], &end);
    if (end == argv[i] || errno || !(v >= 0)) return 0;
    long double mult = 1;
    if (*end == 'm') mult = 60;
    else if (*end == 'h') mult = 3600;
    else if (*end == 'd') mult = 86400;
    else if (*end && *end != 's') return 0;
    if (*end && end[1]) return 0;
    total += v * mult;
  }
  if (argc < 2 || total > 1e9) return 0;
  return sh_now_ns() + (int64_t)(total * 1e9L);
}

/* A command of the table (e) or a host program (jail_path) with a ctx of its own. */
static int run_command(sh_shell *sh, const cmd_entry *e, const char *jail_path, int argc, char **argv,
                       char **env) {
  cmd_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  ctx.store = sh->sess->st;
  ctx.sandbox = sh->sess->sandbox;
  ctx.cwd = sh->cwd;
  ctx.env = env;
  ctx.io = &sh_cmd_io;
  ctx.io_ud = sh;
  ctx.arena = cmd_arena_new();
  ctx.umask = sh->umask;
  store_set_umask(sh->sess->st, sh->umask);
  ctx.max_string = sh->sess->limits.string_size;
  ctx.now = (int64_t)time(NULL);
  /* run as a builtin: messages start like the shell's own (the usage line,
   * written raw, stays bare as in bash) */
  sh_buf prefix = {0};
  if (sh->table_builtin) {
    sh_error_prefix(sh, &prefix);
    ctx.err_prefix = sh_buf_str(&prefix);
  }
  /* sleep waits for time, not for data, and a host program or python3 for its
   * process: their polls let the other tasks run */
  bool saved_sleep = sh->sleeping, saved_loan = sh->loan_command;
  int64_t saved_until = sh->sleep_until_ns;
  bool is_sleep = e && !strcmp(e->name, "sleep");
  sh->sleeping = !e || is_sleep || !strcmp(e->name, "python3") || !strcmp(e->name, "python");
  sh->sleep_until_ns = is_sleep ? sleep_end(argc, argv) : 0;
  /* the commands that take the whole sandbox (ctx.sandbox) and lend it */
  sh->loan_command = !e || !strcmp(e->name, "python3") || !strcmp(e->name, "python") ||
                     !strcmp(e->name, "tool");
  ctx.jail_path = jail_path;
  bool saved_in_command = sh->in_command;
  sh->in_command = true;
  int status = e ? cmd_invoke(&ctx, argc, argv) : cmd_invoke_main(&ctx, cmd_host_main, argc, argv);
  sh->in_command = saved_in_command;
  if (sh->cmd_killed_by) status = 128 + sh->cmd_killed_by; /* a timeout's signal ended it */
  else if (ctx.killed_by) { /* timeout killed its own group */
    sh->cmd_died_of = ctx.killed_by;
    status = 128 + ctx.killed_by;
  }
  sh->sleeping = saved_sleep;
  sh->loan_command = saved_loan;
  sh->sleep_until_ns = saved_until;
  if (ctx.err_errno) {
    sh->sess->err_errno = ctx.err_errno;
    snprintf(sh->sess->err_path, sizeof sh->sess->err_path, "%s", ctx.err_path);
  } else if (status == 0) {
    sh->sess->err_errno = 0;
    sh->sess->err_path[0] = 0;
  }
  cmd_arena_free(ctx.arena);
  sh_buf_free(&prefix);
  return status;
}

int sh_run_table_command(sh_shell *sh, const cmd_entry *e, int argc, char **argv, char **env) {
  return run_command(sh, e, NULL, argc, argv, env);
}

int sh_run_host_program(sh_shell *sh, const char *path, int argc, char **argv, char **env) {
  return run_command(sh, NULL, path, argc, argv, env);
}
