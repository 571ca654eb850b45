/*
 * fuzz_common.h - the setup the libFuzzer targets in fuzz/ share: a
 * NUL-terminated copy of the input, its NUL-separated fields, one in-memory
 * store per process, running a command with its output thrown away, and an
 * in-memory cmd_io for the targets that run a command with no store at all.
 *
 * Header-only (static inline) because scripts/fuzz.sh compiles each
 * fuzz/fuzz_NAME.c on its own and links it against the library objects; a
 * target includes this and uses what it needs. Every function treats the
 * input as hostile: lengths come from `size`, never from a NUL the input
 * may not have.
 */
#ifndef SBX_FUZZ_COMMON_H
#define SBX_FUZZ_COMMON_H

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/lib/run_limited.h"

/* A malloc'd copy of data[0..size) with a NUL after it (the caller frees),
 * or NULL when out of memory. */
static inline char *fuzz_strdup(const uint8_t *data, size_t size) {
  char *copy = malloc(size + 1);
  if (!copy) return NULL;
  if (size) memcpy(copy, data, size);
  copy[size] = 0;
  return copy;
}

/* Splits `copy` (from fuzz_strdup: `size` bytes and a NUL) at its NULs into
 * at most `max` fields, pointers into copy stored in fields[0..]; fields past
 * the last one present are left as they were. Returns the count; *used gets
 * the offset just past the last field's NUL (may be size + 1). */
static inline int fuzz_split_fields(char *copy, size_t size, char **fields, int max,
                                    size_t *used) {
  int n = 0;
  size_t i = 0;
  for (; n < max && i <= size; n++) {
    fields[n] = copy + i;
    i += strlen(copy + i) + 1;
  }
  if (used) *used = i;
  return n;
}

/* The process's in-memory store in *s, opened on the first call (aborts if
 * it cannot be: the target cannot run without it). */
static inline store *fuzz_memory_store(store **s) {
  if (!*s) {
    char *err = NULL;
    if (store_open(NULL, STORE_OPEN_MEMORY, s, &err) < 0) abort();
  }
  return *s;
}

/* Runs argv through cmd_run_standalone and throws the output away. */
static inline void fuzz_run_standalone(store *s, const char *cwd, int argc, char **argv,
                                       const void *in, size_t inlen) {
  cmd_standalone_result res;
  cmd_run_standalone(s, cwd, argc, argv, in, inlen, &res);
  free(res.out);
  free(res.err);
}

/* Runs argv through cmd_run_limited (a deadline and bounded sizes, as the
 * shell stops a command) and throws the output away. */
static inline void fuzz_run_limited(store *s, const char *cwd, int argc, char **argv,
                                    const void *in, size_t inlen, const cmd_limits *lim) {
  cmd_standalone_result res;
  cmd_run_limited(s, cwd, argc, argv, in, inlen, lim, &res, NULL);
  free(res.out);
  free(res.err);
}

/* ---- a command with no store ------------------------------------------------
 * A minimal cmd_io: stdin from memory, output counted and discarded (EPIPE
 * past 64 MiB), files, pipes and commands refused, and poll() answering
 * "stop" after FUZZ_MEM_POLLS calls, so programs that loop forever end
 * through the same path the shell's timeout uses. */

#define FUZZ_MEM_POLLS 200

typedef struct fuzz_mem_io {
  const uint8_t *in; /* stdin bytes */
  size_t inlen, pos; /* length and read position */
  size_t out;        /* bytes written (discarded) */
  int polls;         /* poll() calls so far */
} fuzz_mem_io;

static inline ssize_t fuzz_mem_read(void *ud, int fd, void *buf, size_t n) {
  fuzz_mem_io *f = ud;
  if (fd != 0) return -EBADF;
  size_t k = f->inlen - f->pos < n ? f->inlen - f->pos : n;
  if (k) memcpy(buf, f->in + f->pos, k);
  f->pos += k;
  return (ssize_t)k;
}

static inline ssize_t fuzz_mem_write(void *ud, int fd, const void *buf, size_t n) {
  fuzz_mem_io *f = ud;
  (void)buf;
  if (fd != 1 && fd != 2) return -EBADF;
  f->out += n;
  if (f->out > (64u << 20)) return -EPIPE; /* bound the output */
  return (ssize_t)n;
}

static inline int fuzz_mem_open(void *ud, const char *path, int oflags, uint32_t mode) {
  (void)ud, (void)path, (void)oflags, (void)mode;
  return -EACCES;
}

static inline int fuzz_mem_close(void *ud, int fd) {
  (void)ud, (void)fd;
  return 0;
}

static inline int64_t fuzz_mem_lseek(void *ud, int fd, int64_t off, int whence) {
  (void)ud, (void)fd, (void)off, (void)whence;
  return -ESPIPE;
}

static inline int fuzz_mem_poll(void *ud) {
  fuzz_mem_io *f = ud;
  return ++f->polls > FUZZ_MEM_POLLS;
}

/* Runs argv (argv[0] names the command) over fuzz_mem_io with stdin
 * in[0..inlen), cwd "/", HOME=/, umask 022 and strings bounded by
 * `max_string`; the output is discarded. */
static inline void fuzz_run_in_memory(int argc, char **argv, const uint8_t *in, size_t inlen,
                                      size_t max_string) {
  static const cmd_io table = {
      .read = fuzz_mem_read,
      .write = fuzz_mem_write,
      .open = fuzz_mem_open,
      .close = fuzz_mem_close,
      .lseek = fuzz_mem_lseek,
      .poll = fuzz_mem_poll,
  };
  static char *const env[] = {"HOME=/", NULL};
  fuzz_mem_io io = {.in = in, .inlen = inlen};
  cmd_ctx ctx = {0};
  ctx.cwd = "/";
  ctx.env = env;
  ctx.io = &table;
  ctx.io_ud = &io;
  ctx.arena = cmd_arena_new();
  ctx.umask = 022;
  ctx.max_string = max_string;
  cmd_invoke(&ctx, argc, argv);
  cmd_arena_free(ctx.arena);
}

#endif
