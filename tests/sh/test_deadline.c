/*
 * test_deadline.c - a timeout and sbx_cancel() always end a call, even in the
 * middle of one expansion: pattern replacement and removal over long strings,
 * extglob patterns that make a backtracking matcher explode, globbing and tr's
 * repeat counts. The inputs that still take long run under a 2 s timeout and
 * must end with the timeout error within 3 s, and are cancelled from another
 * thread; the ones made linear must give bash's result under a 20 s timeout
 * (the quadratic code took hours on these sizes). The subject strings are
 * built by an earlier call with a generous timeout, so the timed call is only
 * the expansion. Times are bounds that a hang fails, not speed checks: the
 * speed is in bench/shell.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api/api_util.h"
#include "harness.h"
#include "sbx.h"

#define TIMEOUT_MS 2000   /* for the inputs that end at the timeout */
#define LINEAR_MS 20000   /* for the inputs that must finish */
#define GRACE_MS 1000

/* A sandbox whose only binding limit is the timeout (and 64 MiB strings). */
static sbx *open_sb(uint64_t timeout_ms) {
  sbx *h = NULL;
  if (sbx_open(NULL, SBX_OPEN_MEMORY, &h) != SBX_OK) return NULL;
  sbx_limits lim = {0};
  lim.loop_iterations = 1000000000;
  lim.command_count = 1000000000;
  lim.output_bytes = 256u << 20;
  lim.string_size = 64u << 20;
  lim.timeout_ms = timeout_ms;
  sbx_set_limits(h, &lim);
  return h;
}

/* Runs setup (must succeed), then script timed; returns its wall time in ms. */
static double run_timed(sbx *h, const char *setup, const char *script, sbx_bash_result *r) {
  if (setup) {
    sbx_bash_result s;
    sbx_bash(h, setup, strlen(setup), &s);
    CHECK_EQ(s.exit_code, 0);
    sbx_bash_result_free(&s);
  }
  double t0 = harness_now_ms();
  sbx_bash(h, script, strlen(script), r);
  return harness_now_ms() - t0;
}

/* The script must end within the timeout and grace: with want_out on stdout
 * (want_out NULL: with the timeout error of TIMEOUT_MS). */
static void check_ends(const char *setup, const char *script, const char *want_out) {
  uint64_t timeout_ms = want_out ? LINEAR_MS : TIMEOUT_MS;
  sbx *h = open_sb(60000);
  REQUIRE(h);
  sbx_bash_result r;
  if (setup) {
    sbx_bash(h, setup, strlen(setup), &r);
    CHECK_EQ(r.exit_code, 0);
    sbx_bash_result_free(&r);
  }
  sbx_limits lim;
  sbx_get_limits(h, &lim);
  lim.timeout_ms = timeout_ms;
  sbx_set_limits(h, &lim);
  double ms = run_timed(h, NULL, script, &r);
  if (ms > timeout_ms + GRACE_MS) fprintf(stderr, "  [%s] took %.0f ms\n", script, ms);
  CHECK(ms <= timeout_ms + GRACE_MS);
  if (want_out) {
    if (strcmp(r.out, want_out) != 0)
      fprintf(stderr, "  [%s]\n    got  \"%.200s\" (%s)\n    want \"%s\"\n", script, r.out, r.err, want_out);
    CHECK_STR(r.out, want_out);
    CHECK_EQ(r.exit_code, 0);
  } else {
    CHECK_EQ(r.limit, SBX_LIMIT_TIMEOUT);
    CHECK_EQ(r.exit_code, 126);
    CHECK(strstr(r.err, "execution limit exceeded: timeout (2000 ms)") != NULL);
  }
  sbx_bash_result_free(&r);
  /* the shell is usable after the limit */
  CHECK_EQ(run_timed(h, NULL, "echo ok", &r) >= 0, 1);
  CHECK_STR(r.out, "ok\n");
  sbx_bash_result_free(&r);
  sbx_close(h);
}

#define A5K "a=$(head -c 5000 /dev/zero | tr '\\0' a)"

/* ---- the linear paths: these finish, with bash's result ---------------------------- */

TEST(replace_any_char_on_120k_is_linear) {
  check_ends("x=$(head -c 120000 /dev/zero | tr '\\0' a)", "y=${x//?/ab}; echo ${#y} ${y:0:4}",
             "240000 abab\n");
}

TEST(replace_literal_on_4m_is_linear) {
  check_ends("x=$(head -c 4000000 /dev/zero | tr '\\0' ' ')", "y=${x// /ab}; echo ${#y} ${y: -3}",
             "8000000 bab\n");
  check_ends("x=$(head -c 4000000 /dev/zero | tr '\\0' a)",
             "y=${x//a/b}; z=${x#a}; w=${x%%aa}; u=${x^^}; v=${x:7:3}; t=${x/%a/b}; "
             "echo ${#y} ${y:0:2} ${#z} ${#w} ${u:0:2} $v ${t: -2}",
             "4000000 bb 3999999 3999998 AA aaa ab\n");
  /* the same over two-byte characters */
  check_ends("x=$(head -c 500000 /dev/zero | tr '\\0' a); x=${x//a/é}",
             "y=${x//é/e}; z=${x//?/ab}; u=${x^^}; echo ${#x} ${#y} ${#z} ${u:0:2}",
             "500000 500000 1000000 ÉÉ\n");
}

TEST(extglob_without_the_last_byte_is_instant) {
  check_ends("shopt -s extglob; " A5K, "s=$a; y=${s//*(a)*(a)*(a)b/x}; echo ${#y}", "5000\n");
  check_ends("shopt -s extglob; x=$(head -c 3000 /dev/zero | tr '\\0' a)",
             "y=${x//+(+(a))b/x}; echo ${#y}", "3000\n");
  check_ends("shopt -s extglob; x=$(head -c 20000 /dev/zero | tr '\\0' a)",
             "y=${x##*(a|aa)b}; echo ${#y}", "20000\n");
}

TEST(a_long_fixed_pattern_is_ruled_out_by_its_length) {
  /* found by fuzz_sh_deadline: 4,000 starts times a 4,000-element pattern */
  check_ends("x=$(head -c 4000 /dev/zero | tr '\\0' a); b=$x$x$x$x",
             "y=${x//?f${x}o}; z=${b//?${x%a}}; echo ${#y} ${#z}", "4000 0\n");
}

TEST(unbalanced_extglob_in_a_glob_is_instant) {
  check_ends("shopt -s extglob; mkdir d; cd d; for i in {1..20}; do : > f$i; done",
             "echo *(/a); x='*(f'; echo $x; [[ f1 == $x ]] || echo no", "*(/a)\n*(f\nno\n");
}

TEST(tr_repeat_counts_are_one_step) {
  check_ends(NULL, "echo abc | tr '[a*9999999999999]' x; echo abc | tr -d '[b*9999999999999]'",
             "xbc\nac\n");
}

/* ---- still too slow: the timeout ends them ----------------------------------------- */

#define SLOW_SETUP "shopt -s extglob; " A5K "; s=${a}c${a}b${a}"
#define SLOW_SCRIPT "y=${s//*(a)*(a)*(a)b/x}; echo done"

TEST(slow_extglob_replace_ends_at_the_timeout) {
  check_ends(SLOW_SETUP, SLOW_SCRIPT, NULL);
  check_ends("shopt -s extglob; x=$(head -c 20000 /dev/zero | tr '\\0' a)b",
             "y=${x##*(a|aa)b}; echo done", NULL);
  check_ends("shopt -s extglob; " A5K "; s=${a}b${a}",
             "[[ $s == *(a)*(a)*(a)*(a)c ]]; echo done", NULL);
  check_ends("shopt -s extglob; " A5K "; s=${a}b${a}",
             "case $s in +(+(a))*(a)c) echo y;; esac; echo done", NULL);
}

/* `timeout` inside the call ends a slow expansion on 1 MB at its own deadline:
 * the shell under it polls in the matcher and dies of the signal (124), and the
 * call goes on. The call's own timeout is 20 s: ending by it would fail. */
TEST(timeout_ends_a_slow_expansion_on_1m_with_124) {
  check_ends("shopt -s extglob; x=$(head -c 1000000 /dev/zero | tr '\\0' a); export s=${x}b${x}",
             "timeout 1 bash -O extglob -c 'y=${s//*(a)*(a)*(a)c/x}; echo done'; echo $?; "
             "f() { timeout 0.5 bash -O extglob -c '[[ $s == *(a)*(a)*(a)*(a)c ]]; echo done'; }; "
             "f; echo $?",
             "124\n124\n");
}

/* The slow script with a 60 s timeout, cancelled after 300 ms. */
static void check_cancel(const char *setup, const char *script) {
  sbx *h = open_sb(60000);
  REQUIRE(h);
  sbx_bash_result r;
  sbx_bash(h, setup, strlen(setup), &r);
  CHECK_EQ(r.exit_code, 0);
  sbx_bash_result_free(&r);
  cancel_timer c = {h, 300};
  pthread_t th;
  pthread_create(&th, NULL, cancel_later, &c);
  double ms = run_timed(h, NULL, script, &r);
  pthread_join(th, NULL);
  CHECK_EQ(r.limit, SBX_LIMIT_CANCELLED);
  CHECK_EQ(r.exit_code, 126);
  CHECK(ms < 300 + GRACE_MS);
  sbx_bash_result_free(&r);
  sbx_close(h);
}

TEST(cancel_ends_a_slow_expansion) {
  check_cancel(SLOW_SETUP, SLOW_SCRIPT);
  check_cancel("shopt -s extglob; x=$(head -c 20000 /dev/zero | tr '\\0' a)b",
               "y=${x##*(a|aa)b}; echo done");
  check_cancel("shopt -s extglob; " A5K "; s=${a}b${a}", "[[ $s == *(a)*(a)*(a)*(a)c ]]; echo done");
}

TEST(a_replacement_past_string_size_is_a_limit) {
  sbx *h = open_sb(60000);
  REQUIRE(h);
  sbx_limits lim;
  sbx_get_limits(h, &lim);
  lim.string_size = 1u << 20;
  sbx_set_limits(h, &lim);
  sbx_bash_result r;
  run_timed(h, "x=$(head -c 100000 /dev/zero | tr '\\0' a); r=$(head -c 1000 /dev/zero | tr '\\0' b)",
            "y=${x//a/$r}; echo done", &r);
  CHECK_EQ(r.limit, SBX_LIMIT_STRING_SIZE);
  CHECK_EQ(r.exit_code, 126);
  sbx_bash_result_free(&r);
  sbx_close(h);
}

int main(int argc, char **argv) {
  harness_init(argc, argv);
  RUN(replace_any_char_on_120k_is_linear);
  RUN(replace_literal_on_4m_is_linear);
  RUN(extglob_without_the_last_byte_is_instant);
  RUN(a_long_fixed_pattern_is_ruled_out_by_its_length);
  RUN(unbalanced_extglob_in_a_glob_is_instant);
  RUN(tr_repeat_counts_are_one_step);
  RUN(slow_extglob_replace_ends_at_the_timeout);
  RUN(timeout_ends_a_slow_expansion_on_1m_with_124);
  RUN(cancel_ends_a_slow_expansion);
  RUN(a_replacement_past_string_size_is_a_limit);
  return harness_done();
}
