/*
 * fuzz_awk.c - libFuzzer target for the awk command: parser plus a bounded run.
 *
 * The input is "program NUL record-data": the program is parsed and run over
 * the data as standard input. A minimal cmd_io serves stdin from memory,
 * discards output, refuses files, pipes and commands, and its poll() answers
 * "stop" after a fixed number of calls, so programs that loop forever end
 * through the same path the shell's timeout uses. No store is needed.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"

int cmd_awk_main(cmd_ctx *ctx, int argc, char **argv);

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
  const uint8_t *nul = memchr(data, 0, size);
  size_t plen = nul ? (size_t)(nul - data) : size;
  char *prog = malloc(plen + 1);
  if (!prog) return 0;
  memcpy(prog, data, plen);
  prog[plen] = 0;
  fz_io io = {0};
  if (nul) {
    io.in = nul + 1;
    io.inlen = size - plen - 1;
  }
  static char *const env[] = {"HOME=/", NULL};
  cmd_ctx ctx = {0};
  ctx.cwd = "/";
  ctx.env = env;
  ctx.io = &fz_io_table;
  ctx.io_ud = &io;
  ctx.arena = cmd_arena_new();
  ctx.umask = 022;
  ctx.max_string = 1u << 20;
  char *argv[] = {"awk", "--", prog, NULL};
  cmd_invoke(&ctx, 3, argv);
  cmd_arena_free(ctx.arena);
  free(prog);
  return 0;
}
