/*
 * test_shell.c - the shell through the public API (sbx_bash): results,
 * session persistence, limits and their error kinds, cancel from another
 * thread, and hostile scripts that must end with an error or a limit message
 * instead of crashing, hanging or exhausting memory.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "api/api_util.h"
#include "harness.h"
#include "sbx.h"

static sbx *open_sb(void) {
  sbx *h = NULL;
  if (sbx_open(NULL, SBX_OPEN_MEMORY, &h) != SBX_OK) return NULL;
  return h;
}

/* Runs a script; returns the exit code and fills res (caller frees). */
static int run(sbx *h, const char *script, sbx_bash_result *res) {
  sbx_bash(h, script, strlen(script), res);
  return res->exit_code;
}

/* Runs a script and checks its exit status and stdout; a failure names the
 * script and shows its stderr. */
static void check_script(sbx *h, const char *script, int status, const char *out) {
  sbx_bash_result r;
  run(h, script, &r);
  if (r.exit_code != status || !r.out || strcmp(r.out, out) != 0)
    fprintf(stderr, "  script: %s\n  err: %s\n", script, r.err ? r.err : "");
  CHECK_EQ(r.exit_code, status);
  CHECK_STR(r.out, out);
  sbx_bash_result_free(&r);
}

TEST(echo_and_exit_code) {
  sbx *h = open_sb();
  REQUIRE(h);
  sbx_bash_result r;
  CHECK_EQ(run(h, "echo hi; echo err >&2; exit 3", &r), 3);
  CHECK_STR(r.out, "hi\n");
  CHECK_STR(r.err, "err\n");
  CHECK(r.duration_ms >= 0);
  CHECK_EQ(r.limit, SBX_LIMIT_NONE);
  sbx_bash_result_free(&r);
  sbx_close(h);
}

TEST(default_cwd_is_data_and_files_are_in_the_store) {
  sbx *h = open_sb();
  REQUIRE(h);
  check_script(h,
               "pwd; echo content > f.txt; echo more >> f.txt; read x < f.txt; echo $x",
               0, "/data\ncontent\n");
  CHECK_FILE(h, "/data/f.txt", "content\nmore\n");
  sbx_close(h);
}

TEST(session_state_persists_and_reset_clears_it) {
  sbx *h = open_sb();
  REQUIRE(h);
  sbx_bash_result r;
  run(h, "mkdir -p /tmp/w 2>/dev/null || true; cd /tmp; x=42; f() { echo f$1; }; alias ll='echo ll'; set -o pipefail; trap 'echo bye' USR1", &r);
  sbx_bash_result_free(&r);
  check_script(h,
               "pwd; echo $x; f 1; shopt -s expand_aliases\nll\n[[ -o pipefail ]] && "
               "echo pf; trap -p USR1",
               0, "/tmp\n42\nf1\nll\npf\ntrap -- 'echo bye' SIGUSR1\n");
  REQUIRE(sbx_shell_reset(h) == SBX_OK);
  check_script(h, "pwd; echo \"[$x]\"; type f >/dev/null 2>&1 || echo nof", 0,
               "/data\n[]\nnof\n");
  sbx_close(h);
}

TEST(nul_bytes_and_invalid_utf8_pass_through) {
  sbx *h = open_sb();
  REQUIRE(h);
  REQUIRE(sbx_write_file(h, "/data/bin", "a\0b\xff\xfe\n", 6, SBX_WRITE_MKDIRS) == SBX_OK);
  sbx_bash_result r;
  run(h, "cat bin; echo $'\\xff'", &r);
  CHECK_EQ(r.out_len, 8);
  CHECK(memcmp(r.out, "a\0b\xff\xfe\n\xff\n", 8) == 0);
  sbx_bash_result_free(&r);
  sbx_close(h);
}

TEST(file_errors_give_errno_and_path) {
  sbx *h = open_sb();
  REQUIRE(h);
  sbx_bash_result r;
  CHECK_EQ(run(h, "cat /data/missing.txt", &r), 1);
  CHECK_EQ(r.err_errno, ENOENT);
  CHECK_STR(r.err_path, "/data/missing.txt");
  CHECK(strstr(r.err, "No such file or directory") != NULL);
  sbx_bash_result_free(&r);
  CHECK_EQ(run(h, "echo x > /nope/dir/f", &r), 1);
  CHECK_EQ(r.err_errno, ENOENT);
  CHECK_STR(r.err_path, "/nope/dir/f");
  sbx_bash_result_free(&r);
  CHECK_EQ(run(h, "true", &r), 0);
  CHECK_EQ(r.err_errno, 0);
  CHECK(r.err_path == NULL);
  sbx_bash_result_free(&r);
  sbx_close(h);
}

TEST(pipelines_stream_and_stop_early) {
  sbx *h = open_sb();
  REQUIRE(h);
  sbx_bash_result r;
  /* an endless producer ends as soon as the consumer is done (SIGPIPE),
   * well within the loop limit of the NORMAL preset */
  check_script(h, "i=0; while :; do echo $i; i=$((i+1)); done | head -n 3", 0,
               "0\n1\n2\n");
  sbx_limits lim;
  sbx_limits_preset(SBX_PRESET_PERMISSIVE, &lim);
  lim.loop_iterations = 100000000;
  lim.command_count = 100000000;
  sbx_set_limits(h, &lim);
  check_script(h, "while :; do echo y; done | head -n 3; echo ${PIPESTATUS[@]}", 0,
               "y\ny\ny\n141 0\n");
  /* the same output on every run */
  const char *s = "for i in 1 2 3; do echo a$i; echo b$i >&2; done 2>&1 | { read x; echo got $x; cat; }";
  run(h, s, &r);
  char *first = strdup(r.out);
  sbx_bash_result_free(&r);
  for (int k = 0; k < 5; k++) {
    run(h, s, &r);
    CHECK_STR(r.out, first);
    sbx_bash_result_free(&r);
  }
  CHECK_STR(first, "got a1\nb1\na2\nb2\na3\nb3\n");
  free(first);
  sbx_close(h);
}

/* A limit of the call: the call waits for its background jobs (wait_jobs), so
 * that a fork bomb's limit is the call's; tests/api/test_jobs.c shows a
 * detached one, bounded by its own limits. */
static void check_limit(sbx *h, const char *script, int kind, const char *name) {
  sbx_bash_result r;
  sbx_bash_opts opts = {.stdin_fd = -1, .wait_jobs = 1};
  int rc = sbx_bash_ex(h, script, strlen(script), &opts, &r);
  CHECK_EQ(r.exit_code, 126);
  CHECK_EQ(r.limit, kind);
  CHECK_STR(r.limit_name, name);
  CHECK(r.err && strstr(r.err, name) != NULL);
  CHECK(rc == SBX_LIMIT || rc == SBX_TIMEOUT || rc == SBX_CANCELED);
  sbx_bash_result_free(&r);
}

TEST(limits_presets_and_kinds) {
  sbx *h = open_sb();
  REQUIRE(h);
  sbx_limits lim;
  REQUIRE(sbx_limits_preset(SBX_PRESET_STRICT, &lim) == SBX_OK);
  CHECK_EQ(lim.loop_iterations, 100);
  CHECK_EQ(lim.command_count, 500);
  REQUIRE(sbx_limits_preset(SBX_PRESET_NORMAL, &lim) == SBX_OK);
  CHECK_EQ(lim.loop_iterations, 1000000000);
  CHECK_EQ(lim.command_count, 1000000000);
  REQUIRE(sbx_limits_preset(SBX_PRESET_PERMISSIVE, &lim) == SBX_OK);
  CHECK_EQ(lim.loop_iterations, 10000000000u);
  CHECK_EQ(lim.command_count, 10000000000u);
  CHECK(sbx_limits_preset(99, &lim) == SBX_MISUSE);
  sbx_limits_preset(SBX_PRESET_STRICT, &lim);
  sbx_set_limits(h, &lim);
  check_limit(h, "while true; do :; done", SBX_LIMIT_LOOP_ITERATIONS, "loop_iterations");
  check_limit(h, "for i in {1..50}; do for j in {1..50}; do :; done; done", SBX_LIMIT_COMMAND_COUNT,
              "command_count");
  check_limit(h, "f() { f; }; f", SBX_LIMIT_FUNCTION_DEPTH, "function_depth");
  check_limit(h, "x=aaaaaaaaaaaaaaaa; while :; do x=$x$x; done", SBX_LIMIT_STRING_SIZE, "string_size");
  check_limit(h, "a=({1..100000})", SBX_LIMIT_ARRAY_SIZE, "array_size");
  /* a limit hit in a pipeline stage or a background job (their own tasks)
   * still reports its message on the call's stderr */
  check_limit(h, "echo {1..1000000} | wc -c", SBX_LIMIT_ARRAY_SIZE, "array_size");
  check_limit(h, "true | while :; do :; done", SBX_LIMIT_LOOP_ITERATIONS, "loop_iterations");
  check_limit(h, "f(){ f|f& };f", SBX_LIMIT_CONCURRENT_TASKS, "concurrent_tasks");
  check_limit(h, "source /dev/zero", SBX_LIMIT_STRING_SIZE, "string_size");
  sbx_limits big = {0};
  big.loop_iterations = 1000000;
  big.command_count = 1000000;
  big.output_bytes = 1000;
  sbx_set_limits(h, &big);
  check_limit(h, "while :; do echo xxxxxxxxxxxxxxxxxxxx; done", SBX_LIMIT_OUTPUT_BYTES, "output_bytes");
  sbx_limits t = {0};
  t.loop_iterations = 1000000000;
  t.command_count = 1000000000;
  t.output_bytes = 1000000;
  t.timeout_ms = 200;
  sbx_set_limits(h, &t);
  check_limit(h, "while :; do :; done", SBX_LIMIT_TIMEOUT, "timeout");
  /* the shell is usable after a limit */
  check_script(h, "echo still here", 0, "still here\n");
  sbx_close(h);
}

/* NORMAL stops runaway scripts by time and output, not by counts: a `while
 * read` over 200,000 lines (issue 13's figure) runs to its end; and a limit
 * that ends a call keeps the output written until then in the result. */
TEST(normal_preset_runs_long_loops_and_limits_keep_output) {
  sbx *h = open_sb();
  REQUIRE(h);
  sbx_bash_result r;
  check_script(h,
               "seq 200000 > /tmp/lines; n=0; while read -r l; do n=$((n+l)); done < "
               "/tmp/lines; echo $n",
               0, "20000100000\n");
  check_script(h, "for ((i=0; i<30000; i++)); do :; done; echo $i", 0, "30000\n");
  sbx_limits lim;
  sbx_limits_preset(SBX_PRESET_STRICT, &lim);
  sbx_set_limits(h, &lim);
  const char *s = "echo before; echo warn >&2; while :; do :; done; echo after";
  CHECK_EQ(sbx_bash(h, s, strlen(s), &r), SBX_LIMIT);
  CHECK_EQ(r.limit, SBX_LIMIT_LOOP_ITERATIONS);
  CHECK_STR(r.out, "before\n");
  CHECK(r.err && strncmp(r.err, "warn\n", 5) == 0 && strstr(r.err, "loop_iterations") != NULL);
  sbx_bash_result_free(&r);
  sbx_limits t = {0};
  t.timeout_ms = 300;
  t.loop_iterations = t.command_count = 1000000000000u;
  sbx_set_limits(h, &t);
  s = "echo start; for ((;;)); do :; done";
  CHECK_EQ(sbx_bash(h, s, strlen(s), &r), SBX_TIMEOUT);
  CHECK_STR(r.out, "start\n");
  sbx_bash_result_free(&r);
  sbx_close(h);
}

/* timeout bounds shell code: the code under it unwinds at its deadline and
 * the call goes on (no limit of the call is recorded) */
TEST(timeout_bounds_shell_code_and_the_call_goes_on) {
  sbx *h = open_sb();
  REQUIRE(h);
  sbx_bash_result r;
  const char *s = "timeout 0.2 bash -c 'while :; do :; done'; echo $?; "
                  "f() { sleep 5; }; export -f f; timeout 0.2 bash -c f; echo $?; "
                  "timeout 5 bash -c 'exit 3'; echo $?";
  CHECK_EQ(sbx_bash(h, s, strlen(s), &r), SBX_OK);
  CHECK_STR(r.out, "124\n124\n3\n");
  CHECK_EQ(r.limit, 0);
  CHECK(r.duration_ms < 4000); /* ended at the deadlines, not after the sleep */
  sbx_bash_result_free(&r);
  /* the signal reaches the code: its trap runs; -k kills it if it goes on, and
   * timeout dies of KILL with its group (reported on stderr as by bash) */
  s = "timeout 0.2 bash -c 'trap \"echo got TERM; exit 3\" TERM; while :; do :; done'; echo $?; "
      "timeout --preserve-status 0.2 bash -c 'trap \"exit 3\" TERM; while :; do :; done'; echo $?; "
      "timeout -k 0.2 0.2 bash -c 'trap \"echo again\" TERM; while :; do :; done'; echo $?";
  CHECK_EQ(sbx_bash(h, s, strlen(s), &r), SBX_OK);
  CHECK_STR(r.out, "got TERM\n124\n3\nagain\n137\n");
  CHECK(r.err && strstr(r.err, " Killed ") && strstr(r.err, "timeout -k 0.2 0.2 bash -c"));
  CHECK_EQ(r.limit, 0);
  sbx_bash_result_free(&r);
  /* the call's own timeout still wins over a longer timeout command */
  sbx_limits t = {0};
  t.timeout_ms = 300;
  sbx_set_limits(h, &t);
  s = "timeout 10 bash -c 'while :; do :; done'";
  CHECK_EQ(sbx_bash(h, s, strlen(s), &r), SBX_TIMEOUT);
  CHECK_EQ(r.limit, SBX_LIMIT_TIMEOUT);
  sbx_bash_result_free(&r);
  sbx_close(h);
}

TEST(cancel_from_another_thread) {
  sbx *h = open_sb();
  REQUIRE(h);
  sbx_limits lim = {0};
  lim.loop_iterations = 1000000000;
  lim.command_count = 1000000000;
  lim.timeout_ms = 20000;
  sbx_set_limits(h, &lim);
  cancel_timer c = {h, 100};
  pthread_t th;
  pthread_create(&th, NULL, cancel_later, &c);
  sbx_bash_result r;
  int rc = sbx_bash(h, "while :; do :; done", 19, &r);
  pthread_join(th, NULL);
  CHECK_EQ(rc, SBX_CANCELED);
  CHECK_EQ(r.limit, SBX_LIMIT_CANCELLED);
  CHECK_EQ(r.exit_code, 126);
  CHECK(r.duration_ms < 30000); /* stopped, not a speed check */
  sbx_bash_result_free(&r);
  sbx_close(h);
}

TEST(hostile_scripts_end_with_errors) {
  sbx *h = open_sb();
  REQUIRE(h);
  sbx_bash_result r;
  /* unterminated quote and here-document */
  CHECK_EQ(run(h, "echo 'abc", &r), 2);
  CHECK(strstr(r.err, "unexpected EOF") != NULL);
  sbx_bash_result_free(&r);
  CHECK_EQ(run(h, "cat <<EOF\nbody\n", &r), 0);
  CHECK(strstr(r.err, "here-document") != NULL);
  CHECK_STR(r.out, "body\n");
  sbx_bash_result_free(&r);
  /* a huge brace expansion */
  run(h, "echo {1..100000000}", &r);
  CHECK_EQ(r.limit, SBX_LIMIT_ARRAY_SIZE);
  sbx_bash_result_free(&r);
  /* runaway recursion */
  run(h, "f() { f; }; f", &r);
  CHECK_EQ(r.limit, SBX_LIMIT_FUNCTION_DEPTH);
  sbx_bash_result_free(&r);
  /* the fork bomb: bounded by tasks and commands (the call waits for its jobs) */
  sbx_bash_opts wait_opts = {.stdin_fd = -1, .wait_jobs = 1};
  const char *bomb = "f(){ f|f& };f";
  sbx_bash_ex(h, bomb, strlen(bomb), &wait_opts, &r);
  CHECK(r.limit != SBX_LIMIT_NONE);
  CHECK_EQ(r.exit_code, 126);
  sbx_bash_result_free(&r);
  /* a string doubled toward a gigabyte */
  run(h, "x=x; for i in {1..40}; do x=$x$x; done; echo ${#x}", &r);
  CHECK_EQ(r.limit, SBX_LIMIT_STRING_SIZE);
  sbx_bash_result_free(&r);
  /* 100,000 nested command substitutions */
  char *s = harness_nested("echo ", "$(", "", ")", "", 100000);
  REQUIRE(s);
  run(h, s, &r);
  CHECK(r.exit_code != 0);
  CHECK(r.err_len > 0);
  sbx_bash_result_free(&r);
  free(s);
  /* random bytes as a script */
  unsigned seed = 12345;
  char *junk = malloc(20000);
  for (int round = 0; round < 20; round++) {
    for (int i = 0; i < 19999; i++) {
      seed = seed * 1103515245u + 12345u;
      char c = (char)(seed >> 16);
      junk[i] = c ? c : 'x';
    }
    junk[19999] = 0;
    sbx_bash(h, junk, strlen(junk), &r);
    sbx_bash_result_free(&r);
  }
  free(junk);
  /* still alive */
  check_script(h, "echo alive", 0, "alive\n");
  sbx_close(h);
}

TEST(language_basics) {
  sbx *h = open_sb();
  REQUIRE(h);
  struct {
    const char *script, *out;
  } cases[] = {
      {"a=(x 'y z'); echo ${#a[@]} \"${a[1]}\"", "2 y z\n"},
      {"declare -A m=([k]=v); m[j]=w; echo ${m[k]}${m[j]}", "vw\n"},
      {"x=hello; echo ${x^^} ${x:1:3} ${x/l/L} ${x//l/L} ${#x}", "HELLO ell heLlo heLLo 5\n"},
      {"echo $((2**10 + 7 % 3)) $(( (1<<62) * 4 ))", "1025 0\n"},
      {"case foo in f*) echo yes;; esac", "yes\n"},
      {"[[ abc =~ ^a(b)c$ ]] && echo ${BASH_REMATCH[1]}", "b\n"},
      {"f() { local v=in; echo $v; }; v=out; f; echo $v", "in\nout\n"},
      {"set -- a b c; shift; echo $# $@", "2 b c\n"},
      {"x=$(echo sub; echo two); echo \"$x\"", "sub\ntwo\n"},
      {"echo {a,b}{1..2}", "a1 a2 b1 b2\n"},
      {"i=0; until [ $i -ge 3 ]; do i=$((i+1)); done; echo $i", "3\n"},
      {"set -e; false || echo ok; (exit 0); echo after; set +e", "ok\nafter\n"},
      {"while read a b; do echo \"$b-$a\"; done <<< 'one two'", "two-one\n"},
      {"printf() { echo mine; }; printf x", "mine\n"},
      {"echo a > /tmp/t1; exec 3< /tmp/t1; read -u 3 l; echo $l", "a\n"},
      {"false; echo $?; ! true; echo $?", "1\n1\n"},
      {"x=1; { x=2; }; (x=3); echo $x", "2\n"},
      {"trap 'echo trapped' EXIT; (exit 0); echo body", "body\n"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    check_script(h, cases[i].script, 0, cases[i].out);
  sbx_close(h);
}

int main(int argc, char **argv) {
  harness_init(argc, argv);
  RUN(echo_and_exit_code);
  RUN(default_cwd_is_data_and_files_are_in_the_store);
  RUN(session_state_persists_and_reset_clears_it);
  RUN(nul_bytes_and_invalid_utf8_pass_through);
  RUN(file_errors_give_errno_and_path);
  RUN(pipelines_stream_and_stop_early);
  RUN(limits_presets_and_kinds);
  RUN(normal_preset_runs_long_loops_and_limits_keep_output);
  RUN(timeout_bounds_shell_code_and_the_call_goes_on);
  RUN(cancel_from_another_thread);
  RUN(hostile_scripts_end_with_errors);
  RUN(language_basics);
  return harness_done();
}
