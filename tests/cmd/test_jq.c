/*
 * test_jq.c - jq's limits and confinement: hostile programs stop (cancel,
 * memory budget, closed pipe), libjq 1.6's crashing builtins are guarded,
 * deep values do not overflow the stack, modules and the host environment
 * stay out of reach, files come from the store.
 */
#include <pthread.h>

#include "cmd/cmd.h"
#include "cmd/jq/jq_value.h"
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#define LSAN_OFF() __lsan_disable()
#define LSAN_ON() __lsan_enable()
#else
#define LSAN_OFF() ((void)0)
#define LSAN_ON() ((void)0)
#endif
#include "cmd/jq/jq_cli.h"
#include "cmd_testutil.h"
#include "harness.h"

/* Time bounds here catch a run that does not stop; they are not speed checks
 * (CI machines are shared and the ASan build is slow). */
#define HANG_MS 30000

static store *st;

/* Runs jq with a deadline (ms, 0 = none), an output cap and a string limit. */
static cmd_test_timed jq_run(long max_ms, size_t max_out, uint64_t max_string,
                             const char *in, char **argv) {
  cmd_limits lim = {max_ms, max_out, max_string, NULL};
  return cmd_test_run_limited(st, "/w", in, argv, &lim);
}

/* ---- stopping ---------------------------------------------------------------------- */

TEST(loops_without_output_stop_at_the_deadline) {
  const char *progs[] = {"last(range(1e18))", "reduce range(1e18) as $x (0; .+1)", "until(false; .)",
                         "[limit(1e9; repeat(1))] | length", NULL};
  for (int i = 0; progs[i]; i++) {
    char *argv[] = {"jq", "-n", (char *)progs[i], NULL};
    cmd_test_timed rr = jq_run(300, 0, 0, NULL, argv);
    /* the last one may reach the memory budget first */
    CHECK(rr.r.status == 130 || (i == 3 && rr.r.status == 5));
    CHECK(rr.ms < HANG_MS);
    CHECK_STR(rr.r.out, "");
    cmd_test_done(&rr.r);
  }
}

TEST(endless_output_stops_at_the_deadline) {
  const char *progs[] = {"repeat(.)", "range(1e18)", "limit(1e18; repeat(1, 2))", NULL};
  for (int i = 0; progs[i]; i++) {
    char *argv[] = {"jq", "-n", (char *)progs[i], NULL};
    cmd_test_timed rr = jq_run(300, 0, 0, NULL, argv);
    CHECK_EQ(rr.r.status, 130);
    if (rr.r.status != 130) fprintf(stderr, "%s: %s\n", progs[i], rr.r.err);
    if (getenv("JQ_TEST_VERBOSE")) fprintf(stderr, "%s: %ld ms, %zu bytes\n", progs[i], rr.ms, rr.r.outlen);
    CHECK(rr.ms < HANG_MS);
    CHECK(rr.r.outlen > 0);
    cmd_test_done(&rr.r);
  }
}

TEST(closed_pipe_stops_with_141) {
  char *argv[] = {"jq", "-n", "repeat(1)", NULL};
  cmd_test_timed rr = jq_run(0, 1000, 0, NULL, argv);
  CHECK_EQ(rr.r.status, 141);
  CHECK(rr.r.outlen <= 1000);
  CHECK(rr.ms < HANG_MS);
  cmd_test_done(&rr.r);
}

TEST(memory_budget_stops_growing_programs) {
  /* 4 MiB strings give jq a 32 MiB budget */
  const char *progs[] = {"[range(1e9)] | length",
                         "reduce range(1e9) as $i ([0]; . + .) | length",
                         "[limit(1e9; repeat({a: 1}))] | length", NULL};
  for (int i = 0; progs[i]; i++) {
    char *argv[] = {"jq", "-n", (char *)progs[i], NULL};
    cmd_test_timed rr = jq_run(20000, 0, 4u << 20, NULL, argv);
    if (rr.r.status != 5) fprintf(stderr, "%s: status %d: %s\n", progs[i], rr.r.status, rr.r.err);
    CHECK_EQ(rr.r.status, 5);
    CHECK(strstr(rr.r.err, "jq: error: out of memory: the program needed more than 32 MiB") != NULL);
    CHECK(rr.ms < HANG_MS);
    cmd_test_done(&rr.r);
  }
}

TEST(malloc_failure_is_a_jq_error_and_the_process_goes_on) {
  /* the Nth value allocation fails, at several points of a run: each run
   * ends with jq's error and status 5, and the next run works (an abandoned
   * run leaks what it held, on purpose: LeakSanitizer is told) */
  int fails = 0;
  LSAN_OFF();
  for (int n = 1; n <= 400; n += 37) {
    char *argv[] = {"jq", "-c", "[.[] | {a: ., b: [range(10)], c: tostring}] | length", NULL};
    jqv_test_fail_after = n;
    cmd_test_timed rr =
        jq_run(20000, 0, 0, "[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20]", argv);
    bool failed = jqv_test_fail_after == 0;
    jqv_test_fail_after = 0;
    if (failed) {
      fails++;
      CHECK_EQ(rr.r.status, 5);
      CHECK(strstr(rr.r.err, "jq: error: out of memory (malloc failed)") != NULL);
    }
    cmd_test_done(&rr.r);
  }
  LSAN_ON();
  CHECK(fails > 5);
  char *argv[] = {"jq", "-c", "[.[] | . * 2]", NULL};
  cmd_test_timed rr = jq_run(20000, 0, 0, "[1,2,3]", argv);
  CHECK_EQ(rr.r.status, 0);
  CHECK(strcmp(rr.r.out, "[2,4,6]\n") == 0);
  cmd_test_done(&rr.r);
}

/* jq with no input (opt: -n or -nc) runs prog to status 0 and prints out. */
static void expect_output(const char *opt, const char *prog, const char *out) {
  char *argv[] = {"jq", (char *)opt, (char *)prog, NULL};
  cmd_test_timed rr = jq_run(20000, 0, 0, NULL, argv);
  if (rr.r.status != 0)
    fprintf(stderr, "  %s: status %d: %s\n", prog, rr.r.status, rr.r.err);
  CHECK_EQ(rr.r.status, 0);
  CHECK_STR(rr.r.out, out);
  cmd_test_done(&rr.r);
}

TEST(deep_recursion_is_a_jq_error_not_a_crash) {
  /* the engine checks its C stack on every step */
  char *argv[] = {"jq", "-n", "def f: 1 + f; f", NULL};
  cmd_test_timed rr = jq_run(20000, 0, 0, NULL, argv);
  CHECK_EQ(rr.r.status, 5);
  CHECK_STR(rr.r.err, "jq: error (at <unknown>): program too deeply nested (stack limit)\n");
  cmd_test_done(&rr.r);
  expect_output("-n", "def f: 1 + f; try f catch \"caught\"", "\"caught\"\n");
}

TEST(the_budget_grows_with_the_input) {
  /* 4 MiB strings give a 32 MiB base budget; 1.5 MB of small objects take
   * about 25 MB more in libjq's values than a 32 MiB budget holds with the
   * input text, so it parses only because the budget grows by 64 bytes per
   * input byte */
  size_t n = 75000, cap = n * 24 + 8, len = 0;
  char *in = malloc(cap);
  CHECK(in != NULL);
  if (!in) return;
  in[len++] = '[';
  for (size_t i = 0; i < n; i++)
    len += (size_t)snprintf(in + len, cap - len, "%s{\"a\":%zu,\"b\":\"x\"}", i ? "," : "", i);
  in[len++] = ']';
  in[len] = '\0';
  char *argv[] = {"jq", "[.[] | .a] | length", NULL};
  cmd_test_timed rr = jq_run(60000, 0, 4u << 20, in, argv);
  CHECK_EQ(rr.r.status, 0);
  CHECK_STR(rr.r.out, "75000\n");
  cmd_test_done(&rr.r);
  /* with the same input, a program that grows on its own still stops: at
   * the base budget plus 64 bytes per input byte */
  char *grow[] = {"jq", "[range(1e9)] | length", NULL};
  rr = jq_run(60000, 0, 4u << 20, in, grow);
  CHECK_EQ(rr.r.status, 5);
  CHECK(strstr(rr.r.err, "jq: error: out of memory: the program needed more than") != NULL);
  CHECK(rr.ms < HANG_MS);
  cmd_test_done(&rr.r);
  free(in);
}

/* ---- guarded builtins ------------------------------------------------------------------ */

static void expect_error(const char *prog, const char *msg) {
  char *argv[] = {"jq", "-n", (char *)prog, NULL};
  cmd_test_timed rr = jq_run(10000, 0, 0, NULL, argv);
  CHECK_EQ(rr.r.status, 5);
  CHECK_STR(rr.r.err, msg);
  CHECK(rr.ms < HANG_MS);
  cmd_test_done(&rr.r);
}

TEST(huge_array_indexes_are_refused_not_allocated) {
  expect_error("[] | .[2147483647] = 1", "jq: error (at <unknown>): Array index too large\n");
  expect_error("[] | .[1e9] |= 1", "jq: error (at <unknown>): Array index too large\n");
  expect_error("null | setpath([\"a\", 1e9]; 1)", "jq: error (at <unknown>): Array index too large\n");
  expect_output("-nc", "[] | .[3] = 1", "[null,null,null,1]\n");
}

TEST(string_repetition_is_bounded_by_max_string) {
  expect_error("\"abc\" * 1e9", "jq: error (at <unknown>): Repeat string result too long\n");
  expect_error("1e9 * \"abc\"", "jq: error (at <unknown>): Repeat string result too long\n");
  expect_output("-n", "\"ab\" * 3", "\"ababab\"\n");
}

TEST(indices_of_the_empty_string_terminate) {
  expect_output("-nc", "\"abc\" | indices(\"\"), index(\"\"), rindex(\"\")",
                "[]\nnull\nnull\n");
}

TEST(tojson_of_an_exponential_value_is_refused) {
  expect_error("reduce range(60) as $i (0; [., .]) | tojson",
               "jq: error (at <unknown>): Cannot convert to text a value longer than 67108864 "
               "bytes (the sandbox's string limit)\n");
  expect_error("reduce range(60) as $i (0; [., .]) | \"\\(.)\"",
               "jq: error (at <unknown>): Cannot convert to text a value longer than 67108864 "
               "bytes (the sandbox's string limit)\n");
}

TEST(printing_an_exponential_value_streams_and_stops) {
  char *argv[] = {"jq", "-nc", "reduce range(60) as $i (0; [., .])", NULL};
  cmd_test_timed rr = jq_run(300, 0, 0, NULL, argv);
  CHECK_EQ(rr.r.status, 130);
  CHECK(rr.r.outlen > 1000);
  CHECK(strncmp(rr.r.out, "[[[[", 4) == 0);
  CHECK(rr.ms < HANG_MS);
  cmd_test_done(&rr.r);
}

TEST(deep_values_do_not_overflow_the_stack) {
  /* libjq frees, compares and tests containment recursively in C */
  char *argv[] = {"jq", "-nc",
                  "(reduce range(200000) as $i (0; [.])) as $a | (reduce range(200000) as $i ({}; {a: .})) as $o "
                  "| [(try ($a | contains($a)) catch .), ($a == $a), ($a | tojson | length), "
                  "(try ([$a, $a] | sort) catch .), (try ($o * $o) catch .), (try ($a < [$a]) catch .)]",
                  NULL};
  cmd_test_timed rr = jq_run(60000, 0, 0, NULL, argv);
  CHECK_EQ(rr.r.status, 0);
  /* jq 1.8 prints 10000 levels, then "<skipped: too deep>"; past 10000 levels
   * comparisons, containment and merges raise (jq.test) */
  CHECK_STR(rr.r.out, "[\"Containment check too deep\",true,20021,\"Comparison too deep\","
                      "\"Object merge too deep\",\"Comparison too deep\"]\n");
  cmd_test_done(&rr.r);
}

/* ---- confinement --------------------------------------------------------------------- */

TEST(modules_are_refused_before_compiling) {
  const char *progs[] = {"import \"etc/passwd\" as p; .", "include \"/etc/x\"; .",
                         "# c\n  import \"x\" as $x; .", "module {a: 1}; import \"x\" as x; .", NULL};
  for (int i = 0; progs[i]; i++) {
    char *argv[] = {"jq", "-n", (char *)progs[i], NULL};
    cmd_test_timed rr = jq_run(0, 0, 0, NULL, argv);
    CHECK_EQ(rr.r.status, 3);
    CHECK_STR(rr.r.err,
              "jq: error: modules (import, include, module) are not available in the sandbox\n"
              "jq: 1 compile error\n");
    cmd_test_done(&rr.r);
  }
  char *argv[] = {"jq", "-nc", "module {a: \"x;y\"};\n[$__loc__.line, {import: 1}, get_search_list]",
                  NULL};
  cmd_test_timed rr = jq_run(0, 0, 0, NULL, argv);
  CHECK_STR(rr.r.out, "[2,{\"import\":1},[\"~/.jq\",\"$ORIGIN/../lib/jq\",\"$ORIGIN/lib\"]]\n");
  cmd_test_done(&rr.r);
}

TEST(env_and_ENV_come_from_the_sandbox) {
  char *env[] = {"HOME=/home/agent", "SECRET_FREE=1", NULL};
  cmd_limits lim = {0, 0, 0, env};
  char *argv[] = {"jq", "-nc", "[env.HOME, $ENV.HOME, ($ENV | keys), (env | length)]", NULL};
  cmd_test_timed t = cmd_test_run_limited(st, "/w", NULL, argv, &lim);
  CHECK_EQ(t.r.status, 0);
  CHECK_STR(t.r.out, "[\"/home/agent\",\"/home/agent\",[\"HOME\",\"SECRET_FREE\"],2]\n");
  cmd_test_done(&t.r);
}

TEST(localtime_uses_the_sandbox_zone) {
  char *env[] = {"TZ=America/New_York", NULL};
  cmd_limits lim = {0, 0, 0, env};
  char *argv[] = {"jq", "-nc", "0 | localtime, strflocaltime(\"%H:%M %Z\"), (1.5 | localtime)",
                  NULL};
  cmd_test_timed t = cmd_test_run_limited(st, "/w", NULL, argv, &lim);
  CHECK_EQ(t.r.status, 0);
  CHECK_STR(t.r.out,
            "[1969,11,31,19,0,0,3,364]\n\"19:00 EST\"\n[1969,11,31,19,0,1.5,3,364]\n");
  cmd_test_done(&t.r);
}

TEST(stderr_and_debug_go_to_the_command_stderr) {
  char *argv[] = {"jq", "-nc", "[1, \"a\"] | stderr | debug | length", NULL};
  cmd_test_timed rr = jq_run(0, 0, 0, NULL, argv);
  CHECK_STR(rr.r.out, "2\n");
  CHECK_STR(rr.r.err, "[1,\"a\"][\"DEBUG:\",[1,\"a\"]]\n");
  cmd_test_done(&rr.r);
}

TEST(files_come_from_the_store) {
  store_path_write_file(st, "/", "/w/in.json", "{\"a\":[1,2]}\n", 12, 0644, STORE_WRITE_MKDIRS);
  store_path_write_file(st, "/", "/w/p.jq", ".a | add\n", 9, 0644, STORE_WRITE_MKDIRS);
  store_path_write_file(st, "/", "/w/vals", "1 2", 3, 0644, STORE_WRITE_MKDIRS);
  char *argv[] = {"jq", "-c", "--slurpfile", "v", "vals", "--rawfile", "r", "vals", "-f", "p.jq",
                  "in.json", NULL};
  cmd_test_timed rr = jq_run(0, 0, 0, NULL, argv);
  CHECK_EQ(rr.r.status, 0);
  CHECK_STR(rr.r.out, "3\n");
  cmd_test_done(&rr.r);
  char *argv2[] = {"jq", "-c", "[$v, $r, input_filename]", "--slurpfile", "v", "vals", "--rawfile",
                   "r", "vals", "in.json", NULL};
  rr = jq_run(0, 0, 0, NULL, argv2);
  CHECK_STR(rr.r.out, "[[1,2],\"1 2\",\"in.json\"]\n");
  cmd_test_done(&rr.r);
  char *argv3[] = {"jq", ".", "/etc/passwd", NULL};
  rr = jq_run(0, 0, 0, NULL, argv3);
  CHECK_EQ(rr.r.status, 2);
  CHECK_STR(rr.r.err, "jq: error: Could not open /etc/passwd: No such file or directory\n");
  cmd_test_done(&rr.r);
}

TEST(program_size_is_bounded) {
  size_t n = (1 << 20) + 10;
  char *prog = malloc(n + 1);
  memset(prog, ' ', n);
  prog[0] = '.';
  prog[n] = '\0';
  char *argv[] = {"jq", "-n", prog, NULL};
  cmd_test_timed rr = jq_run(0, 0, 0, NULL, argv);
  CHECK_EQ(rr.r.status, 3);
  CHECK_STR(rr.r.err, "jq: error: the program is longer than 1048576 bytes\n");
  cmd_test_done(&rr.r);
  free(prog);
}

/* ---- threads ----------------------------------------------------------------------------- */

static void *parallel_run(void *arg) {
  (void)arg;
  store *s = cmd_test_store();
  if (!s) return (void *)1;
  long bad = 0;
  for (int i = 0; i < 20; i++) {
    char *argv[] = {"jq", "-c", "[.[] * 2, (env | length)]", NULL};
    cmd_standalone_result r = cmd_test_run(s, "/", "[1,2,3]", argv);
    if (r.status != 0 || strcmp(r.out, "[2,4,6,2]\n") != 0) bad++;
    cmd_test_done(&r);
  }
  store_close(s);
  return (void *)bad;
}

TEST(concurrent_runs_share_nothing) {
  pthread_t t[4];
  for (int i = 0; i < 4; i++) pthread_create(&t[i], NULL, parallel_run, NULL);
  for (int i = 0; i < 4; i++) {
    void *bad;
    pthread_join(t[i], &bad);
    CHECK(bad == NULL);
  }
}

int main(int argc, char **argv) {
  harness_init(argc, argv);
  if (!(st = cmd_test_store())) return 1;
  store_path_mkdir_p(st, "/", "/w", 0755);
  RUN(loops_without_output_stop_at_the_deadline);
  RUN(endless_output_stops_at_the_deadline);
  RUN(closed_pipe_stops_with_141);
  RUN(memory_budget_stops_growing_programs);
  RUN(malloc_failure_is_a_jq_error_and_the_process_goes_on);
  RUN(deep_recursion_is_a_jq_error_not_a_crash);
  RUN(the_budget_grows_with_the_input);
  RUN(huge_array_indexes_are_refused_not_allocated);
  RUN(string_repetition_is_bounded_by_max_string);
  RUN(indices_of_the_empty_string_terminate);
  RUN(tojson_of_an_exponential_value_is_refused);
  RUN(printing_an_exponential_value_streams_and_stops);
  RUN(deep_values_do_not_overflow_the_stack);
  RUN(modules_are_refused_before_compiling);
  RUN(env_and_ENV_come_from_the_sandbox);
  RUN(localtime_uses_the_sandbox_zone);
  RUN(stderr_and_debug_go_to_the_command_stderr);
  RUN(files_come_from_the_store);
  RUN(program_size_is_bounded);
  RUN(concurrent_runs_share_nothing);
  store_close(st);
  return harness_done();
}
