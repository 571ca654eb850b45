/*
 * test_jobs.c - background jobs that outlive their call (docs/shell.md,
 * "Background jobs"): `cmd &` returns at once, the job runs between calls,
 * a later call sees it in `jobs`, waits for it, kills it, reads what it
 * wrote; its own limits (bg_jobs, bg_lifetime_ms, bg_cpu_ms) end it with a
 * clear message; the call's limits (timeout, cancel) apply to what the call
 * waits for; close and reset end every job at once.
 *
 * Times are bounds a loaded machine meets (a job's sleep of 0.3 s against a
 * call that must return in well under it), never speed measurements.
 */
#include <pthread.h>
#include <time.h>

#include "api_util.h"

static void sleep_s(double s) {
  struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
  nanosleep(&ts, NULL);
}

/* Closes h and returns how long the close took, in seconds. */
static double close_secs(sbx *h) {
  double t0 = harness_now_s();
  sbx_close(h);
  return harness_now_s() - t0;
}

/* sbx_start of a NUL-terminated script. */
static int start_job(sbx *h, const char *script, sbx_job **job) {
  return sbx_start(h, script, strlen(script), job);
}

typedef struct run_out {
  int rc;          /* sbx_bash's result code */
  int code;        /* the script's exit code */
  char out[4096];  /* its stdout */
  char err[4096];  /* its stderr */
  double secs;     /* how long the call took */
} run_out;

static run_out run(sbx *h, const char *script) {
  run_out o;
  memset(&o, 0, sizeof o);
  sbx_bash_result r;
  double t0 = harness_now_s();
  o.rc = sbx_bash(h, script, strlen(script), &r);
  o.secs = harness_now_s() - t0;
  o.code = r.exit_code;
  snprintf(o.out, sizeof o.out, "%.*s", (int)r.out_len, r.out ? r.out : "");
  snprintf(o.err, sizeof o.err, "%.*s", (int)r.err_len, r.err ? r.err : "");
  sbx_bash_result_free(&r);
  return o;
}

TEST(background_job_returns_at_once_and_runs_between_calls) {
  sbx *h = open_mem();
  REQUIRE(h);
  run_out o = run(h, "{ sleep 0.3; echo done > /data/f; } & echo \"pid $!\"");
  CHECK_EQ(o.rc, SBX_OK);
  CHECK(o.secs < 0.25);
  CHECK(strncmp(o.out, "pid ", 4) == 0 && atoi(o.out + 4) > 0);
  o = run(h, "test -e /data/f && echo early || echo notyet");
  CHECK_STR(o.out, "notyet\n");
  /* no call runs now: the job goes on by itself, and the file API sees it */
  sleep_s(0.6);
  void *data = NULL;
  size_t len = 0;
  CHECK_EQ(sbx_read_file(h, "/data/f", &data, &len), SBX_OK);
  CHECK(len == 5 && data && memcmp(data, "done\n", 5) == 0);
  sbx_free(data);
  o = run(h, "jobs; wait; echo \"wait $?\"");
  CHECK(strstr(o.out, "wait 0\n") != NULL);
  sbx_close(h);
}

TEST(later_call_lists_waits_and_sees_output) {
  sbx *h = open_mem();
  REQUIRE(h);
  run_out o = run(h, "(sleep 0.2; echo hello; echo oops >&2) &");
  CHECK_STR(o.out, "");
  o = run(h, "jobs");
  CHECK(strstr(o.out, "[1]+  Running") != NULL);
  CHECK(strstr(o.out, "sleep 0.2") != NULL);
  o = run(h, "wait %1; echo \"status $?\"");
  /* the job's output comes where the call waited for it */
  CHECK_STR(o.out, "hello\nstatus 0\n");
  CHECK_STR(o.err, "oops\n");
  /* output written after the call ended comes with the next call */
  o = run(h, "(sleep 0.1; echo later) &");
  sleep_s(0.4);
  o = run(h, "echo now");
  CHECK_STR(o.out, "later\nnow\n");
  sbx_close(h);
}

TEST(kill_stops_a_job_of_an_earlier_call) {
  sbx *h = open_mem();
  REQUIRE(h);
  run_out o = run(h, "sleep 100 & echo $! > /data/pid");
  CHECK_EQ(o.rc, SBX_OK);
  o = run(h, "kill %1; wait %1; echo \"status $?\"");
  CHECK_STR(o.out, "status 143\n");
  CHECK(o.secs < 1.0);
  o = run(h, "while :; do :; done & kill -KILL $!; wait $!; echo \"status $?\"");
  CHECK_STR(o.out, "status 137\n");
  o = run(h, "sleep 100 & p=$!; echo ok");
  o = run(h, "kill -INT $p 2>&1; kill $p; wait -n; echo \"status $?\"; jobs");
  CHECK(strstr(o.out, "status 143\n") != NULL);
  sbx_close(h);
}

TEST(call_timeout_applies_to_wait_not_to_the_job) {
  sbx_limits lim = {.timeout_ms = 400};
  sbx *h = open_mem_with(&lim, NULL);
  REQUIRE(h);
  run_out o = run(h, "sleep 1.2 && echo finished > /data/t &");
  CHECK_EQ(o.rc, SBX_OK);
  o = run(h, "wait");
  CHECK_EQ(o.rc, SBX_TIMEOUT);
  CHECK(o.secs < 1.0);
  CHECK(strstr(o.err, "timeout (400 ms)") != NULL);
  /* the job was not the call's: it still runs, and finishes */
  o = run(h, "jobs");
  CHECK(strstr(o.out, "Running") != NULL);
  sleep_s(1.2);
  o = run(h, "cat /data/t");
  CHECK_STR(o.out, "finished\n");
  sbx_close(h);
}

TEST(cancel_ends_the_wait_and_the_job_runs_on) {
  sbx *h = open_mem();
  REQUIRE(h);
  run_out o = run(h, "while :; do :; done &");
  CHECK_EQ(o.rc, SBX_OK);
  cancel_timer a = {h, 300};
  pthread_t th;
  REQUIRE(pthread_create(&th, NULL, cancel_later, &a) == 0);
  o = run(h, "wait");
  pthread_join(th, NULL);
  CHECK_EQ(o.rc, SBX_CANCELED);
  CHECK(o.secs < 2.0);
  o = run(h, "jobs -rp | wc -l");
  CHECK_STR(o.out, "1\n");
  CHECK(close_secs(h) < 1.0); /* a busy job does not hold up close */
}

TEST(close_and_reset_end_every_job) {
  sbx *h = open_mem();
  REQUIRE(h);
  run_out o = run(h, "sleep 1000 & while :; do :; done & (while :; do sleep 0.01; done | cat) &");
  CHECK_EQ(o.rc, SBX_OK);
  o = run(h, "jobs -p | wc -l");
  CHECK_STR(o.out, "3\n");
  double t0 = harness_now_s();
  CHECK_EQ(sbx_shell_reset(h), SBX_OK);
  CHECK(harness_now_s() - t0 < 1.0);
  o = run(h, "jobs -p | wc -l; echo x");
  CHECK_STR(o.out, "0\nx\n");
  o = run(h, "sleep 1000 & yes > /dev/null &");
  t0 = harness_now_s();
  sbx_close(h);
  CHECK(harness_now_s() - t0 < 1.0);
}

TEST(job_count_limit) {
  sbx_limits lim = {.bg_jobs = 3};
  sbx *h = open_mem_with(&lim, NULL);
  REQUIRE(h);
  run_out o = run(h, "sleep 100 & sleep 100 & sleep 100 & sleep 100 & echo \"status $?\"");
  CHECK_STR(o.out, "status 1\n");
  CHECK(strstr(o.err, "background job not started: 3 jobs are running (limit bg_jobs)") != NULL);
  o = run(h, "sleep 100 &");
  CHECK_EQ(o.code, 1);
  o = run(h, "kill %1; wait %1; sleep 100 & echo started");
  CHECK_STR(o.out, "started\n");
  sbx_close(h);
}

TEST(job_lifetime_and_cpu_limits) {
  sbx_limits lim = {.bg_lifetime_ms = 300, .bg_cpu_ms = 200};
  sbx *h = open_mem_with(&lim, NULL);
  REQUIRE(h);
  sbx_limits back;
  REQUIRE(sbx_get_limits(h, &back) == SBX_OK);
  CHECK_EQ(back.bg_lifetime_ms, 300);
  CHECK_EQ(back.bg_jobs, 16); /* NORMAL's */
  run_out o = run(h, "while :; do sleep 0.01; done & p=$!");
  sleep_s(0.8);
  o = run(h, "wait $p; echo \"status $?\"");
  CHECK_STR(o.out, "status 126\n");
  CHECK(strstr(o.err, "background job: execution limit exceeded: bg_lifetime (300 ms)") != NULL);
  /* CPU: a busy loop, seen between calls */
  lim = (sbx_limits){.bg_lifetime_ms = 60000, .bg_cpu_ms = 200};
  REQUIRE(sbx_set_limits(h, &lim) == SBX_OK);
  o = run(h, "while :; do :; done & p=$!");
  double t0 = harness_now_s();
  char errs[8192] = "";
  do {
    sleep_s(0.1);
    o = run(h, "jobs -rp | wc -l");
    strncat(errs, o.err, sizeof errs - strlen(errs) - 1);
  } while (strcmp(o.out, "0\n") != 0 && harness_now_s() - t0 < 20);
  CHECK_STR(o.out, "0\n");
  o = run(h, "wait $p; echo \"status $?\"");
  CHECK_STR(o.out, "status 126\n");
  strncat(errs, o.err, sizeof errs - strlen(errs) - 1);
  CHECK(strstr(errs, "background job: execution limit exceeded: bg_cpu (200 ms)") != NULL);
  sbx_close(h);
}

TEST(wait_jobs_option_keeps_bash_c_behaviour) {
  sbx *h = open_mem();
  REQUIRE(h);
  sbx_bash_opts opts = {.stdin_fd = -1, .wait_jobs = 1};
  sbx_bash_result r;
  const char *script = "(sleep 0.2; echo bg) & echo fg";
  double t0 = harness_now_s();
  CHECK_EQ(sbx_bash_ex(h, script, strlen(script), &opts, &r), SBX_OK);
  CHECK(harness_now_s() - t0 >= 0.19);
  CHECK(r.out_len == 6 && memcmp(r.out, "fg\nbg\n", 6) == 0);
  sbx_bash_result_free(&r);
  run_out o = run(h, "jobs | wc -l");
  CHECK_STR(o.out, "0\n");
  sbx_close(h);
}

TEST(job_output_is_capped) {
  sbx *h = open_mem();
  REQUIRE(h);
  run_out o = run(h, "head -c 3000000 /dev/zero | tr '\\0' x &");
  sleep_s(0.5);
  sbx_bash_result r;
  const char *script = "wait; echo end";
  CHECK_EQ(sbx_bash(h, script, strlen(script), &r), SBX_OK);
  /* 1 MiB kept, the rest dropped and said so */
  CHECK(r.out_len >= (1u << 20) && r.out_len <= (1u << 20) + 3000000);
  CHECK(r.err && strstr(r.err, "output of background jobs:") && strstr(r.err, "bytes dropped"));
  sbx_bash_result_free(&r);
  (void)o;
  sbx_close(h);
}

TEST(detached_fork_bomb_is_bounded) {
  sbx *h = open_mem();
  REQUIRE(h);
  run_out o = run(h, "f(){ f|f& };f; echo back");
  CHECK_STR(o.out, "back\n");
  sleep_s(0.3);
  /* the session still answers, and never holds more than bg_jobs jobs */
  o = run(h, "echo alive");
  CHECK(strstr(o.out, "alive\n") != NULL);
  o = run(h, "jobs -p | wc -l");
  CHECK(atoi(o.out) <= 16);
  CHECK(close_secs(h) < 2.0);
}

/* ---- the handle API ---- */

static char *output_of(sbx_job *j, int fd, uint64_t from, uint64_t *next) {
  void *data;
  size_t len;
  if (sbx_job_output(j, fd, from, &data, &len, next) != SBX_OK) return strdup("(error)");
  char *s = malloc(len + 1);
  if (len) memcpy(s, data, len);
  s[len] = 0;
  sbx_free(data);
  return s;
}

TEST(start_wait_output_and_history) {
  sbx *h = open_mem();
  REQUIRE(h);
  sbx_job *j = NULL;
  const char *script = "echo one; sleep 0.3; echo two; echo warn >&2; exit 3";
  double t0 = harness_now_s();
  REQUIRE(start_job(h, script, &j) == SBX_OK);
  CHECK(harness_now_s() - t0 < 0.2);
  CHECK(sbx_job_pid(j) > 0);
  CHECK_STR(sbx_job_command(j), script);
  CHECK_EQ(sbx_job_running(j), 1);
  int code = -1;
  CHECK_EQ(sbx_job_wait(j, 0, &code), SBX_TIMEOUT);
  sleep_s(0.1);
  uint64_t next = 0;
  char *o = output_of(j, 1, 0, &next);
  CHECK_STR(o, "one\n"); /* streamed: what it wrote so far */
  free(o);
  CHECK_EQ(next, 4);
  sbx_job **list;
  size_t n;
  REQUIRE(sbx_jobs(h, &list, &n) == SBX_OK);
  CHECK_EQ(n, 1);
  CHECK(n == 1 && list[0] == j);
  sbx_free(list);
  /* the shell sees it as a job too */
  run_out r = run(h, "jobs -p | wc -l");
  CHECK_STR(r.out, "1\n");
  CHECK_EQ(sbx_job_wait(j, 5000, &code), SBX_OK);
  CHECK_EQ(code, 3);
  o = output_of(j, 1, next, &next);
  CHECK_STR(o, "two\n");
  free(o);
  CHECK_EQ(next, 8);
  o = output_of(j, 2, 0, NULL);
  CHECK_STR(o, "warn\n");
  free(o);
  CHECK_EQ(sbx_job_running(j), 0);
  REQUIRE(sbx_jobs(h, &list, &n) == SBX_OK);
  CHECK_EQ(n, 0);
  sbx_free(list);
  /* the history has it, with its exit code */
  sbx_history_entry *e;
  size_t ne;
  REQUIRE(sbx_history_list(h, 10, &e, &ne) == SBX_OK);
  int found = 0;
  for (size_t i = 0; i < ne; i++)
    if (!strcmp(e[i].name, "bash_background")) {
      found = 1;
      CHECK(e[i].parameters && strstr(e[i].parameters, "\"command\":\"echo one; sleep 0.3"));
      CHECK(e[i].result && strstr(e[i].result, "\"exit_code\":3"));
    }
  CHECK(found);
  sbx_free(e);
  /* the job's output never went to a call */
  r = run(h, "echo clean");
  CHECK_STR(r.out, "clean\n");
  CHECK_STR(r.err, "");
  sbx_job_free(j);
  sbx_close(h);
}

TEST(start_kill_and_free_before_end) {
  sbx *h = open_mem();
  REQUIRE(h);
  sbx_job *j = NULL, *k = NULL;
  REQUIRE(start_job(h, "while :; do echo tick; sleep 0.05; done", &j) == SBX_OK);
  REQUIRE(start_job(h, "sleep 100", &k) == SBX_OK);
  int code;
  CHECK_EQ(sbx_job_wait(j, 200, &code), SBX_TIMEOUT);
  CHECK_EQ(sbx_job_kill(j, 0), SBX_OK);
  CHECK_EQ(sbx_job_wait(j, 2000, &code), SBX_OK);
  CHECK_EQ(code, 143);
  char *o = output_of(j, 1, 0, NULL);
  CHECK(strncmp(o, "tick\ntick\n", 10) == 0);
  free(o);
  CHECK_EQ(sbx_job_kill(k, 9), SBX_OK);
  CHECK_EQ(sbx_job_wait(k, 2000, &code), SBX_OK);
  CHECK_EQ(code, 137);
  /* a handle released while its job runs: the job goes on, close ends it */
  sbx_job *m = NULL;
  REQUIRE(start_job(h, "while :; do :; done", &m) == SBX_OK);
  sbx_job_free(m);
  /* a syntax error does not start a job */
  sbx_job *bad = NULL;
  CHECK_EQ(start_job(h, "if then", &bad), SBX_ERROR);
  CHECK(bad == NULL);
  CHECK(strstr(sbx_errmsg(h), "syntax error") != NULL);
  sbx_job_free(j);
  sbx_job_free(k);
  CHECK(close_secs(h) < 1.0);
}

TEST(start_respects_bg_jobs) {
  sbx_limits lim = {.bg_jobs = 2};
  sbx *h = open_mem_with(&lim, NULL);
  REQUIRE(h);
  sbx_job *a, *b, *c = NULL;
  REQUIRE(start_job(h, "sleep 100", &a) == SBX_OK);
  REQUIRE(start_job(h, "sleep 100", &b) == SBX_OK);
  CHECK_EQ(start_job(h, "sleep 100", &c), SBX_LIMIT);
  CHECK(strstr(sbx_errmsg(h), "limit bg_jobs") != NULL);
  sbx_job_free(a);
  sbx_job_free(b);
  sbx_close(h); /* handles released, jobs running: close ends them */
}

TEST(start_output_window_is_bounded) {
  sbx *h = open_mem();
  REQUIRE(h);
  sbx_job *j = NULL;
  const char *script = "head -c 3000000 /dev/zero | tr '\\0' y; echo end";
  REQUIRE(start_job(h, script, &j) == SBX_OK);
  int code = -1;
  CHECK_EQ(sbx_job_wait(j, 20000, &code), SBX_OK);
  CHECK_EQ(code, 0);
  void *data = NULL;
  size_t len = 0;
  uint64_t next = 0;
  REQUIRE(sbx_job_output(j, 1, 0, &data, &len, &next) == SBX_OK);
  /* every byte counted, the newest 1 to 2 MiB kept, the oldest skipped */
  CHECK_EQ(next, 3000004);
  CHECK(len >= SBX_JOB_OUTPUT_MAX && len <= 2 * SBX_JOB_OUTPUT_MAX);
  CHECK(data && len > 4 && memcmp((char *)data + len - 4, "end\n", 4) == 0);
  sbx_free(data);
  sbx_job_free(j);
  sbx_close(h);
}

/* Other threads use the sandbox (files, new calls) while jobs run between
 * calls: the driver gives them the lock between its slices. The threads take
 * turns on the handle (sbx.h: one thread at a time), the driver does not. */
typedef struct hammer_arg {
  sbx *h;
  int id;
  int ok;  /* iterations that did what they should */
} hammer_arg;

static pthread_mutex_t hammer_turn = PTHREAD_MUTEX_INITIALIZER;

static void *hammer(void *p) {
  hammer_arg *a = p;
  char path[64], want[64];
  snprintf(path, sizeof path, "/data/t%d", a->id);
  for (int i = 0; i < 40; i++) {
    snprintf(want, sizeof want, "%d-%d", a->id, i);
    void *data = NULL;
    size_t len = 0;
    pthread_mutex_lock(&hammer_turn);
    if (sbx_write_file(a->h, path, want, strlen(want), 0) == SBX_OK &&
        sbx_read_file(a->h, path, &data, &len) == SBX_OK && len == strlen(want) &&
        memcmp(data, want, len) == 0)
      a->ok++;
    sbx_free(data);
    if (i % 10 == 0) {
      sbx_bash_result r;
      if (sbx_bash(a->h, "echo $((6*7))", 13, &r) == SBX_OK && r.out_len == 3) a->ok++;
      else a->ok -= 1000;
      sbx_bash_result_free(&r);
    }
    pthread_mutex_unlock(&hammer_turn);
  }
  return NULL;
}

TEST(api_calls_from_threads_while_jobs_run) {
  sbx *h = open_mem();
  REQUIRE(h);
  run_out o = run(h, "i=0; while :; do echo $((i+=1)) > /data/count; done & "
                     "while :; do sleep 0.01; echo x >> /data/ticks; done &");
  CHECK_EQ(o.rc, SBX_OK);
  hammer_arg args[3];
  pthread_t th[3];
  for (int i = 0; i < 3; i++) {
    args[i] = (hammer_arg){h, i, 0};
    REQUIRE(pthread_create(&th[i], NULL, hammer, &args[i]) == 0);
  }
  for (int i = 0; i < 3; i++) pthread_join(th[i], NULL);
  for (int i = 0; i < 3; i++) CHECK_EQ(args[i].ok, 44);
  /* and the jobs go on: between these calls, the driver runs them */
  double until = harness_now_s() + 10;
  do {
    sleep_s(0.05);
    o = run(h, "c=$(cat /data/count); test \"$c\" -gt 1000 && test -s /data/ticks && echo both");
  } while (strcmp(o.out, "both\n") != 0 && harness_now_s() < until);
  CHECK_STR(o.out, "both\n");
  CHECK(close_secs(h) < 1.0);
}

int main(int argc, char **argv) {
  harness_init(argc, argv);
  RUN(background_job_returns_at_once_and_runs_between_calls);
  RUN(later_call_lists_waits_and_sees_output);
  RUN(kill_stops_a_job_of_an_earlier_call);
  RUN(call_timeout_applies_to_wait_not_to_the_job);
  RUN(cancel_ends_the_wait_and_the_job_runs_on);
  RUN(close_and_reset_end_every_job);
  RUN(job_count_limit);
  RUN(job_lifetime_and_cpu_limits);
  RUN(wait_jobs_option_keeps_bash_c_behaviour);
  RUN(job_output_is_capped);
  RUN(detached_fork_bomb_is_bounded);
  RUN(start_wait_output_and_history);
  RUN(start_kill_and_free_before_end);
  RUN(start_respects_bg_jobs);
  RUN(api_calls_from_threads_while_jobs_run);
  RUN(start_output_window_is_bounded);
  return harness_done();
}
