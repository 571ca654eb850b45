/*
 * test_headtail.c - the window head and tail keep on a stream
 * (src/cmd/lib/headtail.h): "all but the last N lines" and "the last N
 * lines" of a pipe hold the lines still undecided, and that window is
 * bounded by the call's string limit (plus eight 64 KiB blocks of slack).
 * One line longer than that is refused with GNU's "memory exhausted" and
 * status 1; under the default limit the same input goes through.
 */
#include <stdlib.h>
#include <string.h>

#include "cmd_testutil.h"
#include "harness.h"

static store *st;

/* "first\n", then `n` bytes of 'x' without a newline, then "\n": a NUL-ended
 * string the caller frees. */
static char *long_line_input(size_t n) {
  char *in = malloc(n + 8);
  if (!in) return NULL;
  memcpy(in, "first\n", 6);
  memset(in + 6, 'x', n);
  memcpy(in + 6 + n, "\n", 2);
  return in;
}

/* Runs argv on `in` with the given string limit (0: the default). */
static cmd_standalone_result run_with_limit(char **argv, const char *in,
                                            uint64_t max_string) {
  cmd_limits lim = {0, 0, max_string, NULL};
  return cmd_test_run_limited(st, "/", in, argv, &lim).r;
}

TEST(head_elide_lines_window_is_bounded_by_max_string) {
  char *in = long_line_input(2 << 20); /* 2 MiB: past 1000 + 8 * 64 KiB */
  REQUIRE(in != NULL);
  char *argv[] = {"head", "-n", "-1", NULL};
  cmd_standalone_result r = run_with_limit(argv, in, 1000);
  CHECK_EQ(r.status, 1);
  CHECK_STR(r.err, "head: memory exhausted\n");
  CHECK_STR(r.out, "");
  cmd_test_done(&r);
  r = run_with_limit(argv, in, 0);
  CHECK_EQ(r.status, 0);
  CHECK_STR(r.out, "first\n");
  CHECK_STR(r.err, "");
  cmd_test_done(&r);
  free(in);
}

TEST(tail_lines_window_is_bounded_by_max_string) {
  char *in = long_line_input(2 << 20);
  REQUIRE(in != NULL);
  char *argv[] = {"tail", "-n", "2", NULL};
  cmd_standalone_result r = run_with_limit(argv, in, 1000);
  CHECK_EQ(r.status, 1);
  CHECK_STR(r.err, "tail: memory exhausted\n");
  CHECK_STR(r.out, "");
  cmd_test_done(&r);
  r = run_with_limit(argv, in, 0);
  CHECK_EQ(r.status, 0);
  CHECK(r.out != NULL && strcmp(r.out, in) == 0);
  CHECK_STR(r.err, "");
  cmd_test_done(&r);
  free(in);
}

TEST(a_window_within_the_limit_is_not_refused) {
  char *in = long_line_input(100000); /* past one 64 KiB block, within the slack */
  REQUIRE(in != NULL);
  char *head_argv[] = {"head", "-n", "-1", NULL};
  cmd_standalone_result r = run_with_limit(head_argv, in, 1000);
  CHECK_EQ(r.status, 0);
  CHECK_STR(r.out, "first\n");
  cmd_test_done(&r);
  char *tail_argv[] = {"tail", "-n", "1", NULL};
  r = run_with_limit(tail_argv, in, 1000);
  CHECK_EQ(r.status, 0);
  CHECK(r.out != NULL && strcmp(r.out, in + 6) == 0);
  cmd_test_done(&r);
  free(in);
}

int main(int argc, char **argv) {
  harness_init(argc, argv);
  if (!(st = cmd_test_store())) return 1;
  RUN(head_elide_lines_window_is_bounded_by_max_string);
  RUN(tail_lines_window_is_bounded_by_max_string);
  RUN(a_window_within_the_limit_is_not_refused);
  store_close(st);
  return harness_done();
}
