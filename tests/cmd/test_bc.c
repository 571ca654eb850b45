/*
 * test_bc.c - bc's limits: huge numbers are refused by digit count, long
 * computations and loops stop at the deadline, recursion and nesting are
 * bounded, memory held by numbers and arrays is accounted, a closed pipe
 * ends the run; and a long input stream runs line by line.
 */
#include "cmd_testutil.h"
#include "harness.h"

static store *st;

static cmd_test_timed bc_run(long max_ms, size_t max_out, uint64_t max_string,
                             const char *in, bool mathlib) {
  char *argv[] = {"bc", mathlib ? "-l" : NULL, NULL};
  cmd_limits lim = {max_ms, max_out, max_string, NULL};
  return cmd_test_run_limited(st, "/", in, argv, &lim);
}

/* Each program (NULL-terminated list) ends at a 300 ms deadline with status
 * 130, within slack_ms after it; a failure names the program. */
static void check_stopped_at_the_deadline(const char *const *progs, bool mathlib,
                                          long slack_ms) {
  for (int i = 0; progs[i]; i++) {
    cmd_test_timed rr = bc_run(300, 0, 0, progs[i], mathlib);
    if (rr.r.status != 130 || rr.ms >= 300 + slack_ms)
      fprintf(stderr, "  %s: status %d after %ld ms\n", progs[i], rr.r.status, rr.ms);
    CHECK_EQ(rr.r.status, 130);
    CHECK(rr.ms < 300 + slack_ms);
    cmd_test_done(&rr.r);
  }
}

TEST(loops_stop_at_the_deadline) {
  static const char *const progs[] = {"while (1) {}\n", "for (;;) x += 1\n",
                                      "define f() { while (1) {} }\nf()\n", NULL};
  check_stopped_at_the_deadline(progs, false, 1000);
}

TEST(long_computations_stop_at_the_deadline) {
  static const char *const progs[] = {"2^99999999\n", "scale = 200000; 4*a(1)\n",
                                      "scale=100000; e(100)\n", "x = 3^9999999; x * x\n",
                                      NULL};
  check_stopped_at_the_deadline(progs, true, 1500);
}

TEST(numbers_are_bounded_by_max_string_digits) {
  /* 1 MiB strings: numbers of at most 1048576 digits */
  const char *progs[] = {"10^(10^9)\n", "2^99999999\n", "scale = 2000000; 1/3\n",
                         "x = 10^600000; x * x\n", NULL};
  for (int i = 0; progs[i]; i++) {
    cmd_test_timed rr = bc_run(20000, 0, 1u << 20, progs[i], false);
    CHECK_EQ(rr.r.status, 0);
    CHECK(strstr(rr.r.err, "number too long (more than 1048576 digits, the sandbox's string limit)"));
    CHECK(rr.ms < 5000);
    cmd_test_done(&rr.r);
  }
  cmd_test_timed rr =
      bc_run(20000, 0, 1u << 20, "scale = 100000; x = 1/3; length(x)\n", false);
  CHECK_STR(rr.r.out, "100000\n");
  cmd_test_done(&rr.r);
}

TEST(exponents_beyond_gnus_range_are_refused) {
  cmd_test_timed rr = bc_run(0, 0, 0, "2^99999999999\n0^2147483649\n", false);
  CHECK_STR(rr.r.err, "Runtime error (func=(main), adr=17): exponent too large in raise\n");
  CHECK_STR(rr.r.out, "0\n");
  cmd_test_done(&rr.r);
}

TEST(recursion_is_bounded) {
  cmd_test_timed rr =
      bc_run(20000, 0, 0, "define f(n) { return f(n+1) }\nf(1)\n5\n", false);
  CHECK_EQ(rr.r.status, 0);
  CHECK_STR(rr.r.err, "Runtime error (func=f, adr=8): function calls nested too deeply (more than 10000)\n");
  CHECK_STR(rr.r.out, "5\n");
  CHECK(rr.ms < 10000);
  cmd_test_done(&rr.r);
  /* deep but legal recursion works */
  rr = bc_run(20000, 0, 0, "define f(n) { if (n == 0) return 0; return 1 + f(n-1) }\nf(9000)\n", false);
  CHECK_STR(rr.r.out, "9000\n");
  cmd_test_done(&rr.r);
}

TEST(parse_nesting_is_bounded) {
  char *prog = harness_nested("", "(", "1", ")", "\n2\n", 100000);
  REQUIRE(prog);
  cmd_test_timed rr = bc_run(20000, 0, 0, prog, false);
  CHECK_STR(rr.r.err, "(standard_in) 1: expression nested too deeply\n");
  CHECK_STR(rr.r.out, "2\n");
  cmd_test_done(&rr.r);
  free(prog);
}

TEST(memory_in_numbers_and_arrays_is_accounted) {
  /* 1 MiB strings: 64 MiB of numbers and array pages */
  cmd_test_timed rr = bc_run(
      60000, 0, 1u << 20, "for (i = 0; i < 16777215; i++) a[i] = i\ni > 100000\n", false);
  CHECK(strstr(rr.r.err, "out of memory (numbers in use exceed 64 MiB, the sandbox's limit)"));
  CHECK_STR(rr.r.out, "1\n");
  cmd_test_done(&rr.r);
  rr = bc_run(60000, 0, 1u << 20, "x = 10^900000\nfor (i = 0; i < 1000; i++) a[i] = x\ni < 100\n", false);
  CHECK(strstr(rr.r.err, "out of memory (numbers in use exceed 64 MiB, the sandbox's limit)"));
  CHECK_STR(rr.r.out, "1\n");
  cmd_test_done(&rr.r);
}

TEST(closed_pipe_ends_the_run) {
  cmd_test_timed rr = bc_run(0, 1000, 0, "while (1) 12345\n", false);
  CHECK_EQ(rr.r.status, 141);
  CHECK(rr.ms < 2000);
  cmd_test_done(&rr.r);
}

TEST(long_input_runs_line_by_line) {
  size_t lines = 200000;
  char *in = malloc(lines * 8 + 16);
  size_t n = 0;
  for (size_t i = 0; i < lines; i++) n += (size_t)sprintf(in + n, "x += %d\n", (int)(i % 10));
  strcpy(in + n, "x\n");
  cmd_test_timed rr = bc_run(60000, 0, 0, in, false);
  CHECK_EQ(rr.r.status, 0);
  CHECK_STR(rr.r.out, "900000\n");
  cmd_test_done(&rr.r);
  free(in);
}

TEST(line_length_comes_from_the_environment) {
  char *env[] = {"BC_LINE_LENGTH=20", NULL};
  cmd_limits lim = {0, 0, 0, env};
  char *argv[] = {"bc", NULL};
  cmd_test_timed t = cmd_test_run_limited(st, "/", "2^100\n", argv, &lim);
  CHECK_STR(t.r.out, "126765060022822940\\\n1496703205376\n");
  cmd_test_done(&t.r);
  char *env0[] = {"BC_LINE_LENGTH=0", NULL};
  lim.env = env0;
  t = cmd_test_run_limited(st, "/", "2^300\n", argv, &lim);
  CHECK_STR(
      t.r.out,
      "2037035976334486086268445688409378161051468393665936250636140449354381299763336"
      "706183397376\n");
  cmd_test_done(&t.r);
}

TEST(files_come_from_the_store) {
  store_path_write_file(st, "/", "/lib.bc", "define sq(x) { return x*x }\n", 28, 0644, 0);
  char *argv[] = {"bc", "lib.bc", NULL};
  cmd_standalone_result r = cmd_test_run(st, "/", "sq(12)\n", argv);
  CHECK_EQ(r.status, 0);
  CHECK_STR(r.out, "144\n");
  cmd_test_done(&r);
  char *argv_missing[] = {"bc", "lib.bc", "/nonexistent.bc", NULL};
  r = cmd_test_run(st, "/", "sq(12)\n", argv_missing);
  CHECK_EQ(r.status, 1);
  CHECK_STR(r.err, "File /nonexistent.bc is unavailable.\n");
  CHECK_STR(r.out, "");
  cmd_test_done(&r);
}

int main(int argc, char **argv) {
  harness_init(argc, argv);
  if (!(st = cmd_test_store())) return 1;
  RUN(loops_stop_at_the_deadline);
  RUN(long_computations_stop_at_the_deadline);
  RUN(numbers_are_bounded_by_max_string_digits);
  RUN(exponents_beyond_gnus_range_are_refused);
  RUN(recursion_is_bounded);
  RUN(parse_nesting_is_bounded);
  RUN(memory_in_numbers_and_arrays_is_accounted);
  RUN(closed_pipe_ends_the_run);
  RUN(long_input_runs_line_by_line);
  RUN(line_length_comes_from_the_environment);
  RUN(files_come_from_the_store);
  store_close(st);
  return harness_done();
}
