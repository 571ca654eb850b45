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

/* Runs argv (NULL-terminated) with env, the string `in` as stdin (NULL: none)
 * and a poll budget (0: never stop) in a cleared io; checks the exit status
 * (-1: any) and that stderr contains msg; a failure names the program (argv's
 * last word, its first 60 bytes). Returns the io for further checks. */
static lim_io *check_run(char *const *env, const char *in, int poll_budget, int status,
                         const char *msg, char **argv) {
  static lim_io io;
  memset(&io, 0, sizeof io);
  io.in = in;
  io.inlen = in ? strlen(in) : 0;
  io.poll_budget = poll_budget;
  int argc = 0;
  while (argv[argc]) argc++;
  int st = run(&io, env, argc, argv);
  if ((status >= 0 && st != status) || !strstr(io.err, msg))
    fprintf(stderr, "  %s %.60s: status %d, stderr \"%.200s\"; want %d and \"%s\"\n",
            argv[0], argv[argc - 1], st, io.err, status, msg);
  if (status >= 0) CHECK_EQ(st, status);
  CHECK(strstr(io.err, msg) != NULL);
  return &io;
}

/* ---- awk ----------------------------------------------------------------------------------- */

TEST(awk_infinite_loop_stops_on_poll) {
  lim_io *io = check_run(no_env, NULL, 3, 126, "awk: interrupted",
                         (char *[]){"awk", "BEGIN { while (1) ; }", NULL});
  CHECK(io->polls >= 3);
}

TEST(awk_iteration_budget) {
  static char *const env[] = {"SBX_AWK_MAX_ITER=50000", NULL};
  check_run(env, NULL, 0, 2, "fatal: iteration limit exceeded (50000 loop iterations)",
            (char *[]){"awk", "BEGIN { for (;;) x++ }", NULL});
}

TEST(awk_string_growth_bounded) {
  check_run(no_env, NULL, 0, 2, "fatal: string too long (limit 16777216 bytes)",
            (char *[]){"awk", "BEGIN { s = \"x\"; while (1) s = s s }", NULL});
}

TEST(awk_recursion_limit) {
  check_run(no_env, NULL, 0, 2, "call nesting too deep (limit 1000)",
            (char *[]){"awk", "function f(n) { return f(n + 1) } BEGIN { f(1) }", NULL});
}

TEST(awk_huge_record_bounded) {
  char *big = harness_nested("", "a", "", "", "", (16u << 20) + 100);
  REQUIRE(big != NULL);
  check_run(no_env, big, 0, 2, "record too long",
            (char *[]){"awk", "{ n++ } END { print n }", NULL});
  free(big);
}

TEST(awk_huge_printf_width) {
  check_run(no_env, NULL, 0, 2, "printf: width too large",
            (char *[]){"awk", "BEGIN { printf \"%*d\", 2^40, 1 }", NULL});
}

TEST(awk_deep_expression_source) {
  /* 100000 nested parentheses (one per line, so the message quotes a short
   * line): a clean syntax error, not a crash */
  char *prog = harness_nested("BEGIN { x = ", "(\n", "1", ")", " }", 100000);
  REQUIRE(prog != NULL);
  check_run(no_env, NULL, 0, 1, "program nested too deeply",
            (char *[]){"awk", prog, NULL});
  free(prog);
}

TEST(awk_memory_bounded) {
  /* an array that grows forever stops at the memory budget, long before
   * the host runs out (default: max(1 GiB, 16 * max_string)) */
  static char *const env[] = {"SBX_AWK_MAX_MEM=50000000", NULL};
  check_run(env, NULL, 0, 2, "fatal: memory limit exceeded (50000000 bytes)",
            (char *[]){"awk", "BEGIN { while (1) a[i++] = \"some text\" i }", NULL});
}

/* ---- bc ------------------------------------------------------------------------------------ */

TEST(bc_infinite_loop_stops_on_poll) {
  /* bc stops silently with 130 (the shell names the limit) */
  lim_io *io =
      check_run(no_env, "while (1) { }\n", 3, 130, "", (char *[]){"bc", "-q", NULL});
  CHECK_STR(io->err, "");
}

TEST(bc_huge_power_bounded) {
  check_run(no_env, "2^99999999\n1+1\n", 0, -1, "number too long",
            (char *[]){"bc", "-q", NULL});
}

TEST(bc_huge_scale_bounded) {
  lim_io *io = check_run(no_env, "scale = 2^31 - 1; 1 / 3\n", 0, -1, "number too long",
                         (char *[]){"bc", "-q", NULL});
  CHECK_EQ(io->outtotal, 0);
}

TEST(bc_long_multiplication_polls) {
  /* e(10^7) has millions of digits: the series stops on poll, not hours later */
  lim_io *io = check_run(no_env, "scale = 200; e(10000000)\n", 50, 130, "",
                         (char *[]){"bc", "-q", "-l", NULL});
  CHECK_EQ(io->outtotal, 0);
}

TEST(bc_recursion_limit) {
  check_run(no_env, "define f(n) { return f(n + 1); }\nf(1)\n", 0, -1,
            "function calls nested too deeply (more than 10000)",
            (char *[]){"bc", "-q", NULL});
}

TEST(bc_deep_expression_source) {
  char *prog = harness_nested("", "(", "1", ")", "\n", 100000);
  REQUIRE(prog != NULL);
  check_run(no_env, prog, 0, -1, "nested too deeply", (char *[]){"bc", "-q", NULL});
  free(prog);
}

int main(int argc, char **argv) {
  harness_init(argc, argv);
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
