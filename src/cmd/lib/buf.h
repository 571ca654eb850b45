/*
 * buf.h - growable arrays and byte buffers for the commands: the doubling
 * realloc loop that command files used to write out again and again, with
 * its size arithmetic checked once here.
 *
 * Ownership: the arrays and buffers are malloc'd and belong to the caller,
 * who frees them (free(items), cmd_buf_free), except cmd_grow_arena's,
 * which live in the call's arena. On failure nothing is freed and nothing
 * moves: the caller's pointer and capacity stay as they were.
 */
#ifndef SBX_CMD_LIB_BUF_H
#define SBX_CMD_LIB_BUF_H

#include <stddef.h>

#include "cmd/cmd.h"

/* Makes room for `need` items of `elem` (> 0) bytes each in the array that
 * *items_ptr points to, which has room for *cap items. items_ptr is the
 * address of the caller's pointer (a `T **`; the pointer is NULL before the
 * first call). When need > *cap the array is reallocated to the first of
 * 16, 32, 64, ... items (or *cap * 2, *cap * 4, ... when *cap > 0) that
 * holds `need`, and *cap is set to that. Returns 0, or -ENOMEM when that
 * many bytes would pass PTRDIFF_MAX or realloc fails; *items_ptr and *cap
 * are untouched then. */
int cmd_grow(void *items_ptr, size_t *cap, size_t need, size_t elem);

/* cmd_grow for an array in ctx's arena (ctx not NULL; the pointer NULL or
 * from cmd_alloc): the same capacities, but the new array comes from
 * cmd_alloc (zeroed) and the old one's *cap items are copied into it; the
 * old one stays in the arena until the call ends. 0 or -ENOMEM, nothing
 * changed then. */
int cmd_grow_arena(cmd_ctx *ctx, void *items_ptr, size_t *cap, size_t need, size_t elem);

/* A growing byte string. Once anything was appended (even ""), the bytes
 * are followed by a NUL, so p is a C string when the data holds no NUL.
 * Zero-initialize (setting max if wanted); free with cmd_buf_free or free(p).
 *
 * The bound: with max > 0, an append that would make len exceed max is
 * refused with -E2BIG (a command sets it from ctx->max_string). The first
 * failure (-E2BIG, or -ENOMEM when memory runs out) stays in err, and every
 * later append is dropped and returns it, so a run of appends can be checked
 * once at its end. */
typedef struct cmd_buf {
  char *p;         /* malloc'd data, NUL after len; NULL before the first append */
  size_t len;      /* bytes used, not counting the NUL */
  size_t cap;      /* bytes allocated */
  size_t max;      /* bound on len, 0 for none */
  int err;         /* 0, or the first failure (-ENOMEM, -E2BIG) */
} cmd_buf;

/* Appends s[0..n) (s may be NULL when n is 0). Returns 0 or b->err. */
int cmd_buf_put(cmd_buf *b, const void *s, size_t n);
/* Appends the C string s. */
int cmd_buf_puts(cmd_buf *b, const char *s);
/* Appends one byte (c converted to unsigned char). */
int cmd_buf_putc(cmd_buf *b, int c);
/* Appends printf's output for fmt, however long. -EINVAL on an encoding
 * error of the format (b unchanged, err not set). */
int cmd_buf_printf(cmd_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Frees p and zeroes b, keeping max. */
void cmd_buf_free(cmd_buf *b);

#endif
