/*
 * test_lang_limits.c - hostile programs for the language commands (awk,
 * bc) and tr's 2^63-byte sets: infinite loops stop through cmd_poll (the path the shell's timeout and
 * cancel use), runaway recursion and memory growth stop with clear messages,
 * huge strings are refused. A fake cmd_io counts poll() calls and answers
 * "stop" after a budget, so the tests need neither the store nor the shell.
 */
#include <errno.h>
#include <unistd.h>
#include <stdio.h>

#include "cmd/cmd.h"
#include "harness.h"

typedef struct lim_io {
  const char *in;      /* stdin */
  size_t inlen, pos;   /* length, read position */
  char out[1 << 16];   /* captured stdout (truncated) */
  size_t outlen;       /* bytes kept */
  size_t outtotal;     /* bytes written */
  char err[1 << 14];   /* captured stderr */
  size_t errlen;
  int polls;           /* poll() calls */
  int poll_budget;     /* answer stop after this many (0 = never) */
} lim_io;

static ssize_t lim_read(void *ud, int fd, void *buf, size_t n) {
  lim_io *f = ud;
  if (fd != 0) return -EBADF;
  size_t k = f->inlen - f->pos < n ? f->inlen - f->pos : n;
  if (k) memcpy(buf, f->in + f->pos, k);
  f->pos += k;
  return (ssize_t)k;
}

static ssize_t lim_write(void *ud, int fd, const void *buf, size_t n) {
  lim_io *f = ud;
  if (fd == 1) {
    size_t k = sizeof f->out - f->outlen < n ? sizeof f->out - f->outlen : n;
    memcpy(f->out + f->outlen, buf, k);
    f->outlen += k;
    f->outtotal += n;
    return (ssize_t)n;
  }
  if (fd == 2) {
    size_t k = sizeof f->err - 1 - f->errlen < n ? sizeof f->err - 1 - f->errlen : n;
    memcpy(f->err + f->errlen, buf, k);
    f->errlen += k;
    f->err[f->errlen] = 0;
    return (ssize_t)n;
  }
  return -EBADF;
}

static int lim_open(void *ud, const char *path, int oflags, uint32_t mode) {
  (void)ud, (void)path, (void)oflags, (void)mode;
  return -ENOENT;
}
static int lim_close(void *ud, int fd) {
  (void)ud, (void)fd;
  return 0;
}
static int64_t lim_lseek(void *ud, int fd, int64_t off, int whence) {
  (void)ud, (void)fd, (void)off, (void)whence;
  return -ESPIPE;
}
static int lim_poll(void *ud) {
  lim_io *f = ud;
  f->polls++;
  return f->poll_budget && f->polls >= f->poll_budget;
}

static const cmd_io lim_table = {
    .read = lim_read, .write = lim_write, .open = lim_open,
    .close = lim_close, .lseek = lim_lseek, .poll = lim_poll,
};

/* Runs argv with the given environment and poll budget. */
static int run(lim_io *io, char *const *env, int argc, char **argv) {
  cmd_ctx ctx = {0};
  ctx.cwd = "/";
  ctx.env = env;
  ctx.io = &lim_table;
  ctx.io_ud = io;
  ctx.arena = cmd_arena_new();
  ctx.umask = 022;
  ctx.max_string = 16u << 20;
  int st = cmd_invoke(&ctx, argc, argv);
  cmd_arena_free(ctx.arena);
  return st;
}

static char *const no_env[] = {"HOME=/nonexistent-home", NULL};

/* ---- tr ------------------------------------------------------------------------------------ */

/* [c*n] makes a set up to 2^64 bytes long; walking it must see the deadline.
 * Without the poll the walk takes centuries: the alarm turns that into a
 * failure instead of a hung test. */
/* A repeat count near INT64_MAX: GNU tr walks it a character at a time (for
 * centuries); ours steps over the whole run at once, so the set is built at once. */
TEST(tr_huge_repeat_is_one_step) {
  static lim_io io = {.in = "abc", .inlen = 3, .poll_budget = 1000};
  char *argv[] = {"tr", "[a*9223372036854775807]", "x", NULL};
  alarm(60);
  int st = run(&io, no_env, 3, argv);
  alarm(0);
  CHECK_EQ(st, 0);
  CHECK_EQ(io.outtotal, 3);
  CHECK(memcmp(io.out, "xbc", 3) == 0);
}

/* ---- awk ----------------------------------------------------------------------------------- */

TEST(awk_infinite_loop_stops_on_poll) {
  static lim_io io = {.poll_budget = 3};
  char *argv[] = {"awk", "BEGIN { while (1) ; }", NULL};
  int st = run(&io, no_env, 2, argv);
  CHECK_EQ(st, 126);
  CHECK(strstr(io.err, "awk: interrupted") != NULL);
  CHECK(io.polls >= 3);
}

TEST(awk_iteration_budget) {
  static lim_io io = {0};
  static char *const env[] = {"SBX_AWK_MAX_ITER=50000", NULL};
  char *argv[] = {"awk", "BEGIN { for (;;) x++ }", NULL};
  int st = run(&io, env, 2, argv);
  CHECK_EQ(st, 2);
  CHECK(strstr(io.err, "fatal: iteration limit exceeded (50000 loop iterations)") != NULL);
}

TEST(awk_string_growth_bounded) {
  static lim_io io = {0};
  char *argv[] = {"awk", "BEGIN { s = \"x\"; while (1) s = s s }", NULL};
  int st = run(&io, no_env, 2, argv);
  CHECK_EQ(st, 2);
  CHECK(strstr(io.err, "fatal: string too long (limit 16777216 bytes)") != NULL);
}

TEST(awk_recursion_limit) {
  static lim_io io = {0};
  char *argv[] = {"awk", "function f(n) { return f(n + 1) } BEGIN { f(1) }", NULL};
  int st = run(&io, no_env, 2, argv);
  CHECK_EQ(st, 2);
  CHECK(strstr(io.err, "call nesting too deep (limit 1000)") != NULL);
}

TEST(awk_huge_record_bounded) {
  static lim_io io = {0};
  size_t n = (16u << 20) + 100;
  char *big = malloc(n);
  REQUIRE(big != NULL);
  memset(big, 'a', n);
  io.in = big;
  io.inlen = n;
  char *argv[] = {"awk", "{ n++ } END { print n }", NULL};
  int st = run(&io, no_env, 2, argv);
  CHECK_EQ(st, 2);
  CHECK(strstr(io.err, "record too long") != NULL);
  free(big);
}

TEST(awk_huge_printf_width) {
  static lim_io io = {0};
  char *argv[] = {"awk", "BEGIN { printf \"%*d\", 2^40, 1 }", NULL};
  int st = run(&io, no_env, 2, argv);
  CHECK_EQ(st, 2);
  CHECK(strstr(io.err, "printf: width too large") != NULL);
}

TEST(awk_deep_expression_source) {
  /* 100000 nested parentheses (one per line, so the message quotes a short
   * line): a clean syntax error, not a crash */
  static lim_io io = {0};
  size_t depth = 100000;
  char *prog = malloc(3 * depth + 32);
  REQUIRE(prog != NULL);
  size_t o = 0;
  o += (size_t)sprintf(prog + o, "BEGIN { x = ");
  for (size_t i = 0; i < depth; i++) {
    prog[o++] = '(';
    prog[o++] = '\n';
  }
  prog[o++] = '1';
  for (size_t i = 0; i < depth; i++) prog[o++] = ')';
  strcpy(prog + o, " }");
  char *argv[] = {"awk", prog, NULL};
  int st = run(&io, no_env, 2, argv);
  CHECK_EQ(st, 1);
  CHECK(strstr(io.err, "program nested too deeply") != NULL);
  free(prog);
}

TEST(awk_memory_bounded) {
  /* an array that grows forever stops at the memory budget, long before
   * the host runs out (default: max(1 GiB, 16 * max_string)) */
  static lim_io io = {0};
  static char *const env[] = {"SBX_AWK_MAX_MEM=50000000", NULL};
  char *argv[] = {"awk", "BEGIN { while (1) a[i++] = \"some text\" i }", NULL};
  int st = run(&io, env, 2, argv);
  CHECK_EQ(st, 2);
  CHECK(strstr(io.err, "fatal: memory limit exceeded (50000000 bytes)") != NULL);
}

/* ---- bc ------------------------------------------------------------------------------------ */

TEST(bc_infinite_loop_stops_on_poll) {
  static lim_io io = {.poll_budget = 3};
  io.in = "while (1) { }\n";
  io.inlen = strlen(io.in);
  char *argv[] = {"bc", "-q", NULL};
  int st = run(&io, no_env, 2, argv);
  /* bc stops silently with 130 (the shell names the limit) */
  CHECK_EQ(st, 130);
  CHECK_STR(io.err, "");
}

TEST(bc_huge_power_bounded) {
  static lim_io io = {0};
  io.in = "2^99999999\n1+1\n";
  io.inlen = strlen(io.in);
  char *argv[] = {"bc", "-q", NULL};
  run(&io, no_env, 2, argv);
  CHECK(strstr(io.err, "number too long") != NULL);
}

TEST(bc_huge_scale_bounded) {
  static lim_io io = {0};
  io.in = "scale = 2^31 - 1; 1 / 3\n";
  io.inlen = strlen(io.in);
  char *argv[] = {"bc", "-q", NULL};
  run(&io, no_env, 2, argv);
  CHECK(strstr(io.err, "number too long") != NULL);
  CHECK_EQ(io.outtotal, 0);
}

TEST(bc_long_multiplication_polls) {
  /* e(10^7) has millions of digits: the series stops on poll, not hours later */
  static lim_io io = {.poll_budget = 50};
  io.in = "scale = 200; e(10000000)\n";
  io.inlen = strlen(io.in);
  char *argv[] = {"bc", "-q", "-l", NULL};
  int st = run(&io, no_env, 3, argv);
  CHECK_EQ(st, 130);
  CHECK_EQ(io.outtotal, 0);
}

TEST(bc_recursion_limit) {
  static lim_io io = {0};
  io.in = "define f(n) { return f(n + 1); }\nf(1)\n";
  io.inlen = strlen(io.in);
  char *argv[] = {"bc", "-q", NULL};
  run(&io, no_env, 2, argv);
  CHECK(strstr(io.err, "function calls nested too deeply (more than 10000)") != NULL);
}

TEST(bc_deep_expression_source) {
  static lim_io io = {0};
  size_t depth = 100000;
  char *prog = malloc(2 * depth + 8);
  REQUIRE(prog != NULL);
  size_t o = 0;
  for (size_t i = 0; i < depth; i++) prog[o++] = '(';
  prog[o++] = '1';
  for (size_t i = 0; i < depth; i++) prog[o++] = ')';
  prog[o++] = '\n';
  io.in = prog;
  io.inlen = o;
  char *argv[] = {"bc", "-q", NULL};
  run(&io, no_env, 2, argv);
  CHECK(strstr(io.err, "nested too deeply") != NULL);
  free(prog);
}

int main(int argc, char **argv) {
  if (argc > 1) harness_filter = argv[1];
  RUN(tr_huge_repeat_is_one_step);
  RUN(awk_infinite_loop_stops_on_poll);
  RUN(awk_iteration_budget);
  RUN(awk_string_growth_bounded);
  RUN(awk_recursion_limit);
  RUN(awk_huge_record_bounded);
  RUN(awk_huge_printf_width);
  RUN(awk_deep_expression_source);
  RUN(awk_memory_bounded);
  RUN(bc_infinite_loop_stops_on_poll);
  RUN(bc_huge_power_bounded);
  RUN(bc_huge_scale_bounded);
  RUN(bc_long_multiplication_polls);
  RUN(bc_recursion_limit);
  RUN(bc_deep_expression_source);
  return harness_done();
}
