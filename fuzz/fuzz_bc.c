/*
 * fuzz_bc.c - libFuzzer target for the bc command: parser plus a bounded run.
 *
 * The input is a bc program read from standard input; its first byte picks
 * the options (odd: -l, the math library; -q always).
 * A minimal cmd_io serves stdin from memory, discards output, refuses
 * files, and its poll() answers "stop" after a fixed number of calls, so
 * loops and huge computations end through the shell's timeout path;
 * ctx.max_string bounds the digits of any number. No store is needed.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"

typedef struct fz_io {
  const uint8_t *in;  /* stdin bytes */
  size_t inlen, pos;  /* length and read position */
  size_t out;         /* bytes written (discarded) */
  int polls;          /* poll() calls so far */
} fz_io;

static ssize_t fz_read(void *ud, int fd, void *buf, size_t n) {
  fz_io *f = ud;
  if (fd != 0) return -EBADF;
  size_t k = f->inlen - f->pos < n ? f->inlen - f->pos : n;
  if (k) memcpy(buf, f->in + f->pos, k);
  f->pos += k;
  return (ssize_t)k;
}

static ssize_t fz_write(void *ud, int fd, const void *buf, size_t n) {
  fz_io *f = ud;
  (void)buf;
  if (fd != 1 && fd != 2) return -EBADF;
  f->out += n;
  if (f->out > (64u << 20)) return -EPIPE; /* bound the output */
  return (ssize_t)n;
}

static int fz_open(void *ud, const char *path, int oflags, uint32_t mode) {
  (void)ud, (void)path, (void)oflags, (void)mode;
  return -EACCES;
}

static int fz_close(void *ud, int fd) {
  (void)ud, (void)fd;
  return 0;
}

static int64_t fz_lseek(void *ud, int fd, int64_t off, int whence) {
  (void)ud, (void)fd, (void)off, (void)whence;
  return -ESPIPE;
}

static int fz_poll(void *ud) {
  fz_io *f = ud;
  return ++f->polls > 200;
}

static const cmd_io fz_io_table = {
    .read = fz_read,
    .write = fz_write,
    .open = fz_open,
    .close = fz_close,
    .lseek = fz_lseek,
    .poll = fz_poll,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0) return 0;
  fz_io io = {0};
  io.in = data + 1;
  io.inlen = size - 1;
  static char *const env[] = {"HOME=/", NULL};
  cmd_ctx ctx = {0};
  ctx.cwd = "/";
  ctx.env = env;
  ctx.io = &fz_io_table;
  ctx.io_ud = &io;
  ctx.arena = cmd_arena_new();
  ctx.umask = 022;
  ctx.max_string = 1u << 16;
  char *argv[] = {"bc", "-q", (data[0] & 1) ? "-l" : NULL, NULL};
  cmd_invoke(&ctx, (data[0] & 1) ? 3 : 2, argv);
  cmd_arena_free(ctx.arena);
  return 0;
}
