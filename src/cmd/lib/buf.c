/*
 * buf.c - growable arrays and byte buffers (see lib/buf.h).
 *
 * Design: one growth rule for every command, doubling from 16 items, so
 * appends cost amortized O(1), and one place where the size arithmetic is
 * checked: every doubling and every items * size product is compared with
 * SIZE_MAX and PTRDIFF_MAX before an allocator sees it. The caller's
 * pointer is read and written with memcpy, so `cmd_grow(&v, &cap, ...)`
 * takes any `T *v` without a cast and never accesses a `T *` object
 * through a `void *` lvalue.
 */
#include "cmd/lib/buf.h"

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The capacity of a new array, in items. */
#define GROW_FIRST 16

/* cmd_grow (ctx NULL: realloc) and cmd_grow_arena (ctx's arena: a new
 * zeroed array and a copy). Sizes past PTRDIFF_MAX are refused: no object
 * can be that large, and cmd_alloc's rounding up of a size near SIZE_MAX
 * would wrap. */
static int grow(cmd_ctx *ctx, void *items_ptr, size_t *cap, size_t need, size_t elem) {
  if (need <= *cap) return 0;
  size_t nc = *cap ? *cap : GROW_FIRST;
  while (nc < need) nc = nc > SIZE_MAX / 2 ? need : nc * 2;
  if (elem == 0 || nc > PTRDIFF_MAX / elem) return -ENOMEM;
  void *items;
  memcpy(&items, items_ptr, sizeof items);
  void *grown;
  if (!ctx) {
    grown = realloc(items, nc * elem);
  } else {
    grown = cmd_alloc(ctx, nc * elem);
    if (grown && items && *cap) memcpy(grown, items, *cap * elem);
  }
  if (!grown) return -ENOMEM;
  memcpy(items_ptr, &grown, sizeof grown);
  *cap = nc;
  return 0;
}

int cmd_grow(void *items_ptr, size_t *cap, size_t need, size_t elem) {
  return grow(NULL, items_ptr, cap, need, elem);
}

int cmd_grow_arena(cmd_ctx *ctx, void *items_ptr, size_t *cap, size_t need, size_t elem) {
  return grow(ctx, items_ptr, cap, need, elem);
}

/* Room for n more bytes and the NUL after them, within max; sets err. */
static int buf_reserve(cmd_buf *b, size_t n) {
  if (b->err) return b->err;
  if (n >= SIZE_MAX - b->len) return b->err = -ENOMEM;
  if (b->max && b->len + n > b->max) return b->err = -E2BIG;
  int rc = cmd_grow(&b->p, &b->cap, b->len + n + 1, 1);
  if (rc) b->err = rc;
  return rc;
}

int cmd_buf_put(cmd_buf *b, const void *s, size_t n) {
  int rc = buf_reserve(b, n);
  if (rc) return rc;
  if (n) memcpy(b->p + b->len, s, n);
  b->len += n;
  b->p[b->len] = '\0';
  return 0;
}

int cmd_buf_puts(cmd_buf *b, const char *s) { return cmd_buf_put(b, s, strlen(s)); }

int cmd_buf_putc(cmd_buf *b, int c) {
  unsigned char byte = (unsigned char)c;
  return cmd_buf_put(b, &byte, 1);
}

int cmd_buf_printf(cmd_buf *b, const char *fmt, ...) {
  if (b->err) return b->err;
  char small[256];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  if (n < 0) return -EINVAL;
  if ((size_t)n < sizeof small) return cmd_buf_put(b, small, (size_t)n);
  int rc = buf_reserve(b, (size_t)n);
  if (rc) return rc;
  va_start(ap, fmt);
  vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
  va_end(ap);
  b->len += (size_t)n;
  return 0;
}

void cmd_buf_free(cmd_buf *b) {
  free(b->p);
  *b = (cmd_buf){.max = b->max};
}
