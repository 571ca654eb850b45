/*
 * test_buf.c - the commands' growable arrays and byte buffers (src/cmd/lib/buf.h):
 * cmd_grow's capacities, kept contents and refusals (a size that overflows
 * size_t, a realloc that fails), cmd_grow_arena's copies into the arena, and
 * cmd_buf's NUL, bound, sticky error and printf of any length. The allocation failures are real: sizes no machine
 * can give, which realloc refuses (under ASan too, with
 * allocator_may_return_null set below instead of its abort).
 */
#include <errno.h>
#include <stdint.h>

#include "cmd/lib/buf.h"
#include "harness.h"

const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "allocator_may_return_null=1"; }

TEST(grow_starts_at_16_and_doubles) {
  int *v = NULL;
  size_t cap = 0;
  CHECK_EQ(cmd_grow(&v, &cap, 1, sizeof *v), 0);
  REQUIRE(v != NULL);
  CHECK_EQ(cap, 16);
  for (int i = 0; i < 16; i++) v[i] = i;
  CHECK_EQ(cmd_grow(&v, &cap, 17, sizeof *v), 0);
  CHECK_EQ(cap, 32);
  CHECK_EQ(cmd_grow(&v, &cap, 200, sizeof *v), 0);
  CHECK_EQ(cap, 256);
  int same = 1;
  for (int i = 0; i < 16; i++) same &= v[i] == i;
  CHECK(same);
  v[255] = 7; /* the whole capacity is usable (ASan checks the write) */
  free(v);
}

TEST(grow_within_capacity_changes_nothing) {
  char *p = malloc(10);
  REQUIRE(p != NULL);
  char *before = p;
  size_t cap = 10;
  CHECK_EQ(cmd_grow(&p, &cap, 10, 1), 0);
  CHECK_EQ(cmd_grow(&p, &cap, 0, 1), 0);
  CHECK(p == before);
  CHECK_EQ(cap, 10);
  CHECK_EQ(cmd_grow(&p, &cap, 11, 1), 0);
  CHECK_EQ(cap, 20);
  free(p);
}

TEST(grow_refuses_a_size_that_overflows) {
  struct big {
    char b[64];
  } *v = NULL;
  size_t cap = 0;
  /* items * 64 does not fit in a size_t: refused before realloc */
  CHECK_EQ(cmd_grow(&v, &cap, SIZE_MAX / 32, sizeof *v), -ENOMEM);
  CHECK(v == NULL);
  CHECK_EQ(cap, 0);
  CHECK_EQ(cmd_grow(&v, &cap, 1, 0), -ENOMEM); /* elem 0 is refused, not divided by */
  /* doubling past SIZE_MAX / 2 stops at `need` instead of wrapping to 0 */
  char *p = NULL;
  size_t pcap = SIZE_MAX / 2 + 2;
  CHECK_EQ(cmd_grow(&p, &pcap, SIZE_MAX, 1), -ENOMEM);
  CHECK(p == NULL);
  CHECK_EQ(pcap, SIZE_MAX / 2 + 2);
}

TEST(grow_keeps_the_array_when_realloc_fails) {
  long *v = NULL;
  size_t cap = 0;
  REQUIRE(cmd_grow(&v, &cap, 3, sizeof *v) == 0);
  v[0] = 11, v[1] = 22, v[2] = 33;
  long *before = v;
  /* 2^58 longs (2^61 bytes): a size realloc is asked for and cannot give */
  CHECK_EQ(cmd_grow(&v, &cap, (size_t)1 << 58, sizeof *v), -ENOMEM);
  CHECK(v == before);
  CHECK_EQ(cap, 16);
  CHECK_EQ(v[0] + v[1] + v[2], 66);
  free(v);
}

TEST(grow_arena_copies_into_the_arena) {
  cmd_ctx ctx = {.arena = cmd_arena_new()};
  REQUIRE(ctx.arena != NULL);
  short *v = NULL;
  size_t cap = 0;
  CHECK_EQ(cmd_grow_arena(&ctx, &v, &cap, 5, sizeof *v), 0);
  REQUIRE(v != NULL);
  CHECK_EQ(cap, 16);
  CHECK_EQ(v[15], 0); /* cmd_alloc zeroes */
  for (short i = 0; i < 16; i++) v[i] = (short)(i * 3);
  short *first = v;
  CHECK_EQ(cmd_grow_arena(&ctx, &v, &cap, 16, sizeof *v), 0);
  CHECK(v == first); /* within capacity: nothing moves */
  CHECK_EQ(cmd_grow_arena(&ctx, &v, &cap, 40, sizeof *v), 0);
  CHECK_EQ(cap, 64);
  CHECK(v != first);
  CHECK_EQ(v[15], 45);
  CHECK_EQ(v[16], 0);
  CHECK_EQ(v[63], 0);
  short *before = v;
  CHECK_EQ(cmd_grow_arena(&ctx, &v, &cap, SIZE_MAX / 2, sizeof *v), -ENOMEM);
  CHECK(v == before);
  CHECK_EQ(cap, 64);
  cmd_ctx no_arena = {0}; /* cmd_alloc fails without an arena */
  short *w = NULL;
  size_t wcap = 0;
  CHECK_EQ(cmd_grow_arena(&no_arena, &w, &wcap, 1, sizeof *w), -ENOMEM);
  CHECK(w == NULL);
  CHECK_EQ(wcap, 0);
  cmd_arena_free(ctx.arena); /* LeakSanitizer: the arena owned every copy */
}

TEST(buf_keeps_a_nul_after_the_data) {
  cmd_buf b = {0};
  CHECK(b.p == NULL);
  CHECK_EQ(cmd_buf_put(&b, NULL, 0), 0);
  REQUIRE(b.p != NULL);
  CHECK_STR(b.p, "");
  CHECK_EQ(cmd_buf_puts(&b, "ab"), 0);
  CHECK_EQ(cmd_buf_putc(&b, 0xe2), 0);
  CHECK_EQ(cmd_buf_put(&b, "x\0y", 3), 0);
  CHECK_EQ(b.len, 6);
  CHECK(memcmp(b.p, "ab\xe2x\0y", 7) == 0); /* the 7th byte is the NUL */
  CHECK(b.cap >= b.len + 1);
  cmd_buf_free(&b);
  CHECK(b.p == NULL);
  CHECK_EQ(b.len, 0);
}

TEST(buf_printf_of_any_length) {
  cmd_buf b = {0};
  CHECK_EQ(cmd_buf_printf(&b, "%d-%s", 42, "x"), 0);
  CHECK_STR(b.p, "42-x");
  /* longer than the 256-byte first try: formatted again into the buffer */
  char big[1000];
  memset(big, 'q', sizeof big - 1);
  big[sizeof big - 1] = 0;
  CHECK_EQ(cmd_buf_printf(&b, "[%s]%d", big, 7), 0);
  CHECK_EQ(b.len, 4 + 1 + 999 + 1 + 1);
  CHECK(b.p[4] == '[' && b.p[5] == 'q' && b.p[1003] == 'q');
  CHECK_STR(b.p + 1004, "]7");
  cmd_buf_free(&b);
}

TEST(buf_bound_refuses_and_sticks) {
  cmd_buf b = {.max = 5};
  CHECK_EQ(cmd_buf_puts(&b, "abcde"), 0); /* exactly max is allowed */
  CHECK_EQ(cmd_buf_putc(&b, 'f'), -E2BIG);
  CHECK_EQ(b.err, -E2BIG);
  CHECK_EQ(b.len, 5);
  CHECK_STR(b.p, "abcde");
  /* every later append is dropped with the first error, even one that fits */
  b.len = 1;
  CHECK_EQ(cmd_buf_putc(&b, 'z'), -E2BIG);
  CHECK_EQ(cmd_buf_printf(&b, "%d", 1), -E2BIG);
  CHECK_EQ(b.len, 1);
  cmd_buf_free(&b);
  CHECK_EQ(b.max, 5); /* free keeps the bound and clears the error */
  CHECK_EQ(b.err, 0);
  CHECK_EQ(cmd_buf_printf(&b, "%s", "123456"), -E2BIG);
  CHECK(b.p == NULL);
  cmd_buf_free(&b);
}

TEST(buf_out_of_memory_sticks) {
  cmd_buf b = {0};
  CHECK_EQ(cmd_buf_puts(&b, "keep"), 0);
  /* a length that would wrap len + n + 1 */
  CHECK_EQ(cmd_buf_put(&b, "", SIZE_MAX - 4), -ENOMEM);
  CHECK_EQ(b.err, -ENOMEM);
  CHECK_STR(b.p, "keep");
  CHECK_EQ(cmd_buf_puts(&b, "more"), -ENOMEM);
  CHECK_EQ(b.len, 4);
  cmd_buf_free(&b);
  /* a length realloc cannot give (nothing is read from s: it fails first) */
  CHECK_EQ(cmd_buf_put(&b, "", (size_t)1 << 60), -ENOMEM);
  CHECK(b.p == NULL);
  CHECK_EQ(b.cap, 0);
  cmd_buf_free(&b);
}

int main(int argc, char **argv) {
  harness_init(argc, argv);
  RUN(grow_starts_at_16_and_doubles);
  RUN(grow_within_capacity_changes_nothing);
  RUN(grow_refuses_a_size_that_overflows);
  RUN(grow_keeps_the_array_when_realloc_fails);
  RUN(grow_arena_copies_into_the_arena);
  RUN(buf_keeps_a_nul_after_the_data);
  RUN(buf_printf_of_any_length);
  RUN(buf_bound_refuses_and_sticks);
  RUN(buf_out_of_memory_sticks);
  return harness_done();
}
