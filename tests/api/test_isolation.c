/*
 * test_isolation.c - process isolation of the shell (SBX_OPEN_PROCESS): the
 * same scripts give the same results in both modes; a loop that never polls
 * is killed at the deadline with the output so far; sbx_cancel from another
 * thread stops it; a crash of the helper is an error result and the next
 * call works; files cross between the helper and the host's file API; the
 * helper cannot open host files, make sockets, fork or exec.
 *
 * The spin, crash and probe scripts are the helper's test hooks, enabled by
 * SBX_SHELL_TEST_HOOKS=1 (set in main; test-only, docs/shell.md).
 */
#include <pthread.h>
#include <time.h>

#include "api/api_util.h"

static const int modes[2] = {0, SBX_OPEN_PROCESS};
static const char *const mode_names[2] = {"in-process", "process"};

static sbx *open_mode(int flags) {
  sbx *h = NULL;
  int rc = sbx_open(NULL, SBX_OPEN_MEMORY | flags, &h);
  if (rc != SBX_OK) {
    fprintf(stderr, "  open: %s\n", h ? sbx_errmsg(h) : "out of memory");
    sbx_close(h);
    return NULL;
  }
  return h;
}

/* One call's outcome, comparable between modes. */
typedef struct outcome {
  int rc, exit_code, err_errno, limit, killed;
  size_t out_len;   /* all of stdout (out keeps its start) */
  unsigned out_sum; /* a checksum of all of stdout */
  char out[512], err[512], path[128];
} outcome;

static void run(sbx *h, const char *script, const sbx_bash_opts *o, outcome *oc) {
  sbx_bash_result r;
  oc->rc = sbx_bash_ex(h, script, strlen(script), o, &r);
  oc->exit_code = r.exit_code;
  oc->err_errno = r.err_errno;
  oc->limit = r.limit;
  oc->killed = r.killed;
  oc->out_len = r.out_len;
  oc->out_sum = 0;
  for (size_t i = 0; i < r.out_len; i++)
    oc->out_sum = oc->out_sum * 31 + (unsigned char)r.out[i];
  snprintf(oc->out, sizeof oc->out, "%s", r.out ? r.out : "");
  snprintf(oc->err, sizeof oc->err, "%s", r.err ? r.err : "");
  snprintf(oc->path, sizeof oc->path, "%s", r.err_path ? r.err_path : "");
  sbx_bash_result_free(&r);
}

/* Runs a script without options and checks its stdout (a macro, so that a
 * failure names the caller's line). */
#define CHECK_OUT(h, script, want)     \
  do {                                 \
    outcome check_out_;                \
    run(h, script, NULL, &check_out_); \
    CHECK_STR(check_out_.out, want);   \
  } while (0)

/* A representative session: each step runs in both modes, in order, so
 * session state (cwd, variables, functions) is part of what is compared. */
static const char *const session[] = {
    "echo hi; x=41; echo $((x + 1))",
    "cd /tmp && pwd; greet() { echo \"hello $1\"; }",
    "pwd; greet world; echo \"x=$x\"",
    "printf 'b\\na\\nc\\n' | sort -r | head -n 2 | tr a-z A-Z",
    "cat /nonexistent/file",
    "echo to-err >&2; false",
    "for i in $(seq 1 3); do echo \"n$i\"; done | paste -sd, -",
    "echo '{\"a\":[1,2,3]}' | jq -c '.a | map(. * 2)'",
    "printf 'k v\\n' | awk '{print $2 $1}' | sed 's/v/V/'",
    "mkdir -p /data/d && echo x > /data/d/f && ls /data/d && wc -c < /data/d/f",
    "set -u; echo $undefined_var; echo not-reached",
    "i=0; while true; do i=$((i+1)); done",
    "f() { f; }; f",
    "(exit 7)",
    "exit 3",
    "echo after-exit; [[ abc == a* ]] && echo glob",
    "declare -A m=([k]=v); echo ${m[k]} ${#m[@]}",
    "echo $(( 2 ** 62 )) $((-7 / 2))",
    "seq 1 40000; seq 1 3 >&2", /* more output than one batch of frames */
    "yes | head -c 20000000",   /* past output_bytes (10 MiB) */
    /* big changes: SQLite's statement journal must not need a file */
    "head -c 3000000 /dev/zero > /data/big && cp /data/big /data/big2 && rm /data/big; "
    "echo $?; ls /data; wc -c < /data/big2",
    "sqlite3 /data/t.db 'create table t(x); insert into t values (2),(1); "
    "select * from t order by x'",
    /* what file and iconv load from the host is loaded before the seal */
    "printf '\\211PNG\\r\\n\\032\\n' > /data/p.png; file -b /data/p.png; "
    "printf 'caf\\351\\n' | iconv -f cp1252; printf 'a\\303\\251\\n' | iconv -t ascii//TRANSLIT",
};

TEST(same_results_in_both_modes) {
  sbx *h[2];
  for (int m = 0; m < 2; m++) {
    h[m] = open_mode(modes[m]);
    REQUIRE(h[m]);
  }
  for (size_t i = 0; i < sizeof session / sizeof session[0]; i++) {
    outcome oc[2];
    for (int m = 0; m < 2; m++) run(h[m], session[i], NULL, &oc[m]);
    if (oc[0].rc != oc[1].rc || oc[0].exit_code != oc[1].exit_code ||
        oc[0].err_errno != oc[1].err_errno || oc[0].limit != oc[1].limit ||
        oc[0].out_len != oc[1].out_len || oc[0].out_sum != oc[1].out_sum ||
        strcmp(oc[0].out, oc[1].out) || strcmp(oc[0].err, oc[1].err) ||
        strcmp(oc[0].path, oc[1].path)) {
      fprintf(stderr, "  step %zu: %s\n", i, session[i]);
      for (int m = 0; m < 2; m++)
        fprintf(stderr, "    %s: rc %d exit %d errno %d limit %d out [%s] err [%s]\n",
                mode_names[m], oc[m].rc, oc[m].exit_code, oc[m].err_errno, oc[m].limit,
                oc[m].out, oc[m].err);
      CHECK(0);
    }
    CHECK_EQ(oc[1].killed, 0);
  }
  for (int m = 0; m < 2; m++) sbx_close(h[m]);
}

static void collect(void *ud, const void *buf, size_t n) {
  char *dst = ud;
  size_t l = strlen(dst);
  if (l + n < 256) {
    memcpy(dst + l, buf, n);
    dst[l + n] = 0;
  }
}

TEST(options_same_in_both_modes) {
  char first_err[512] = "";
  for (int m = 0; m < 2; m++) {
    sbx *h = open_mode(modes[m]);
    REQUIRE(h);
    char *args[] = {"one", "two words"};
    sbx_bash_opts o = {.stdin_data = "b\na\n",
                       .stdin_len = 4,
                       .stdin_fd = -1,
                       .name = "myname",
                       .args = args,
                       .nargs = 2};
    outcome oc;
    run(h, "echo \"$1|$2|$#\"; sort; nosuchcmd", &o, &oc);
    CHECK_STR(oc.out, "one|two words|2\na\nb\n");
    CHECK(strstr(oc.err, "nosuchcmd: command not found\n") != NULL);
    if (m == 0)
      snprintf(first_err, sizeof first_err, "%s", oc.err);
    else
      CHECK_STR(oc.err, first_err);
    CHECK_OUT(h, "echo \"$1\"", "one\n"); /* positional parameters persist */
    /* streaming receivers */
    char got_out[256] = "", got_err[256] = "";
    sbx_bash_opts s = {.stdin_fd = -1, .on_stdout = collect, .on_stderr = collect};
    s.ud = got_out;
    sbx_bash_opts s2 = s;
    s2.on_stderr = NULL;
    run(h, "echo streamed; echo e >&2", &s2, &oc);
    CHECK_STR(got_out, "streamed\n");
    CHECK_STR(oc.out, "");
    CHECK_STR(oc.err, "e\n");
    (void)got_err;
    /* a host stdin fd */
    int p[2];
    REQUIRE(pipe(p) == 0);
    CHECK(write(p[1], "from-fd\n", 8) == 8);
    close(p[1]);
    sbx_bash_opts f = {.stdin_fd = p[0]};
    run(h, "cat; echo done", &f, &oc);
    close(p[0]);
    CHECK_STR(oc.out, "from-fd\ndone\n");
    sbx_close(h);
  }
}

TEST(spin_without_polling_is_killed_at_the_deadline) {
  sbx *h = open_mode(SBX_OPEN_PROCESS);
  REQUIRE(h);
  sbx_limits lim = {.timeout_ms = 300,
                    .loop_iterations = 1000000000000ull,
                    .command_count = 1000000000000ull};
  CHECK_EQ(sbx_set_limits(h, &lim), SBX_OK);
  outcome oc;
  run(h, "cd /tmp; kept=yes", NULL, &oc);
  CHECK_EQ(oc.rc, SBX_OK);
  double t0 = harness_now_ms();
  sbx_bash_result r;
  const char *spin = "#sbx-test:spin";
  int rc = sbx_bash(h, spin, strlen(spin), &r);
  double took = harness_now_ms() - t0;
  CHECK_EQ(rc, SBX_TIMEOUT);
  CHECK_EQ(r.exit_code, 126);
  CHECK_EQ(r.limit, SBX_LIMIT_TIMEOUT);
  CHECK_STR(r.limit_name, "timeout");
  CHECK_EQ(r.limit_value, 300);
  CHECK_EQ(r.killed, 1);
  CHECK_STR(r.out, "spinning\n"); /* the output produced before the kill */
  CHECK_STR(r.err, "sbx: execution limit exceeded: timeout (300 ms)\n");
  CHECK(took >= 300 && took < 3000);
  sbx_bash_result_free(&r);
  /* a fresh session: cwd /data, variables gone; the store is intact */
  run(h, "pwd; echo \"kept=${kept-unset}\"", NULL, &oc);
  CHECK_EQ(oc.rc, SBX_OK);
  CHECK_STR(oc.out, "/data\nkept=unset\n");
  /* a polling loop stops by itself: same message, session kept */
  run(h, "cd /tmp; kept=yes", NULL, &oc);
  run(h, "while :; do :; done", NULL, &oc);
  CHECK_EQ(oc.rc, SBX_TIMEOUT);
  CHECK_EQ(oc.killed, 0);
  CHECK_STR(oc.err, "sbx: execution limit exceeded: timeout (300 ms)\n");
  CHECK_OUT(h, "pwd; echo $kept", "/tmp\nyes\n");
  sbx_close(h);
}

TEST(cancel_from_another_thread) {
  sbx *h = open_mode(SBX_OPEN_PROCESS);
  REQUIRE(h);
  sbx_limits lim = {.timeout_ms = 20000,
                    .loop_iterations = 1000000000000ull,
                    .command_count = 1000000000000ull};
  sbx_set_limits(h, &lim);
  outcome oc;
  run(h, "v=1", NULL, &oc);
  /* a script that never polls: killed after the cancel grace */
  cancel_timer c = {h, 200};
  pthread_t t;
  REQUIRE(pthread_create(&t, NULL, cancel_later, &c) == 0);
  double t0 = harness_now_ms();
  run(h, "#sbx-test:spin", NULL, &oc);
  double took = harness_now_ms() - t0;
  pthread_join(t, NULL);
  CHECK_EQ(oc.rc, SBX_CANCELED);
  CHECK_EQ(oc.limit, SBX_LIMIT_CANCELLED);
  CHECK_EQ(oc.killed, 1);
  CHECK_STR(oc.out, "spinning\n");
  CHECK_STR(oc.err, "sbx: execution cancelled\n");
  CHECK(took >= 200 && took < 5000);
  /* a script that polls stops by itself and keeps its session */
  run(h, "v=2", NULL, &oc);
  REQUIRE(pthread_create(&t, NULL, cancel_later, &c) == 0);
  run(h, "while :; do :; done", NULL, &oc);
  pthread_join(t, NULL);
  CHECK_EQ(oc.rc, SBX_CANCELED);
  CHECK_EQ(oc.killed, 0);
  CHECK_OUT(h, "echo $v", "2\n");
  /* a cancel before a call does not stop the next one */
  sbx_cancel(h);
  run(h, "echo fine", NULL, &oc);
  CHECK_EQ(oc.rc, SBX_OK);
  CHECK_STR(oc.out, "fine\n");
  sbx_close(h);
}

TEST(crash_is_an_error_and_the_next_call_works) {
  sbx *h = open_mode(SBX_OPEN_PROCESS);
  REQUIRE(h);
  outcome oc;
  run(h, "echo keep > /data/k", NULL, &oc);
  sbx_bash_result r;
  const char *crash = "#sbx-test:crash";
  int rc = sbx_bash(h, crash, strlen(crash), &r);
  CHECK_EQ(rc, SBX_CRASHED);
  CHECK_EQ(r.limit, SBX_LIMIT_CRASHED);
  CHECK_STR(r.limit_name, "crashed");
  CHECK_EQ(r.limit_value, 11);
  CHECK_EQ(r.exit_code, 128 + 11);
  CHECK_EQ(r.killed, 1);
  CHECK(r.err && strstr(r.err, "the shell process crashed (signal 11"));
  CHECK(strstr(sbx_errmsg(h), "crashed") != NULL);
  sbx_bash_result_free(&r);
  run(h, "cat /data/k; echo ok", NULL, &oc);
  CHECK_EQ(oc.rc, SBX_OK);
  CHECK_STR(oc.out, "keep\nok\n");
  sbx_close(h);
}

/* The host does not trust the helper: a malformed frame, endless output and
 * an exit in the middle of a call all end as SBX_CRASHED, bounded. */
TEST(misbehaving_helper_is_killed) {
  sbx *h = open_mode(SBX_OPEN_PROCESS);
  REQUIRE(h);
  sbx_limits lim = {.output_bytes = 1000, .timeout_ms = 20000};
  sbx_set_limits(h, &lim);
  static const struct {
    const char *script, *msg;
  } cases[] = {
      {"#sbx-test:badframe", "the shell process was killed (a malformed answer"},
      {"#sbx-test:flood", "the shell process was killed (a malformed answer"},
      {"#sbx-test:exit", "the shell process ended unexpectedly (exit status 3)"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    double t0 = harness_now_ms();
    sbx_bash_result r;
    int rc = sbx_bash(h, cases[i].script, strlen(cases[i].script), &r);
    CHECK_EQ(rc, SBX_CRASHED);
    CHECK_EQ(r.limit, SBX_LIMIT_CRASHED);
    CHECK_EQ(r.killed, 1);
    CHECK(r.err && strstr(r.err, cases[i].msg));
    CHECK(r.out_len <= 1000 + (1u << 20)); /* the output limit plus the slack */
    CHECK(harness_now_ms() - t0 < 10000);
    sbx_bash_result_free(&r);
    CHECK_OUT(h, "echo still-fine", "still-fine\n");
  }
  sbx_close(h);
}

TEST(helper_is_sealed) {
  sbx *h = open_mode(SBX_OPEN_PROCESS);
  REQUIRE(h);
  outcome oc;
  run(h, "#sbx-test:probe", NULL, &oc);
  CHECK_EQ(oc.rc, SBX_OK);
  CHECK_STR(oc.out,
            "open EPERM\nstat EPERM\nsocket EPERM\nfork EPERM\nexec EPERM\nroot no\n");
  /* python3 needs the Python jail, which the helper cannot start */
  run(h, "python3 -c 'print(1)'; echo \"status $?\"", NULL, &oc);
  CHECK_STR(oc.out, "status 127\n");
  CHECK(strstr(oc.err, "python3: command not found (it would run in the sandbox's jail: programs of "
                       "the jail cannot run in a process-isolated shell)") != NULL);
  sbx_close(h);
}

/* Files written on one side are seen on the other, for a file sandbox and an
 * in-memory one (kept in a private file). */
TEST(files_cross_between_helper_and_host) {
  char db[512];
  snprintf(db, sizeof db, "%s/cross.db", scratch_dir());
  for (int kind = 0; kind < 2; kind++) {
    sbx *h = NULL;
    REQUIRE(sbx_open(kind ? NULL : db, (kind ? SBX_OPEN_MEMORY : 0) | SBX_OPEN_PROCESS,
                     &h) == SBX_OK);
    if (kind)
      CHECK_STR(sbx_path(h), "");
    else
      CHECK_STR(sbx_path(h), db);
    outcome oc;
    run(h, "echo from-shell > /data/a.txt", NULL, &oc);
    CHECK_EQ(oc.rc, SBX_OK);
    CHECK_FILE(h, "/data/a.txt", "from-shell\n");
    CHECK_EQ(sbx_write_file(h, "/data/b.txt", "from-api", 8, 0), SBX_OK);
    CHECK_OUT(h, "cat /data/b.txt; rm /data/a.txt", "from-api");
    sbx_stat st;
    CHECK_EQ(sbx_stat_path(h, "/data/a.txt", 0, &st), SBX_FS | (ENOENT << 8));
    /* a snapshot carries what the helper wrote */
    run(h, "echo snap > /data/s", NULL, &oc);
    sbx *copy = snapshot_copy(h, SBX_OPEN_MEMORY | SBX_OPEN_PROCESS);
    REQUIRE(copy);
    CHECK_OUT(copy, "cat /data/s /data/b.txt", "snap\nfrom-api");
    sbx_close(copy);
    sbx_close(h);
  }
  /* the file sandbox reopens in-process with the helper's writes */
  sbx *h = NULL;
  REQUIRE(sbx_open(db, SBX_OPEN_NOCREATE, &h) == SBX_OK);
  CHECK_OUT(h, "cat /data/s", "snap\n");
  sbx_close(h);
}

TEST(quota_and_reset_and_transactions) {
  sbx *h = open_mode(SBX_OPEN_PROCESS);
  REQUIRE(h);
  outcome oc;
  sbx_quota q = {.max_bytes = 4096};
  CHECK_EQ(sbx_set_quota(h, &q), SBX_OK);
  CHECK_OUT(h, "head -c 3000 /dev/zero > /data/a && echo a-ok", "a-ok\n");
  /* the host's own count sees the helper's 3000 bytes */
  CHECK_EQ(sbx_write_file(h, "/data/b", "0123456789", 2000 > 10 ? 10 : 0, 0), SBX_OK);
  char big[2000];
  memset(big, 'x', sizeof big);
  CHECK_EQ(sbx_write_file(h, "/data/c", big, sizeof big, 0), SBX_FS | (ENOSPC << 8));
  /* ... and its removal */
  run(h, "rm /data/a", NULL, &oc);
  CHECK_EQ(sbx_write_file(h, "/data/c", big, sizeof big, 0), SBX_OK);
  /* reset */
  run(h, "cd /tmp; v=1", NULL, &oc);
  CHECK_EQ(sbx_shell_reset(h), SBX_OK);
  CHECK_OUT(h, "pwd; echo ${v-unset}", "/data\nunset\n");
  /* inside a transaction the helper could not write: refused */
  CHECK_EQ(sbx_begin(h), SBX_OK);
  sbx_bash_result r;
  CHECK_EQ(sbx_bash(h, "true", 4, &r), SBX_MISUSE);
  sbx_bash_result_free(&r);
  CHECK_EQ(sbx_rollback(h), SBX_OK);
  CHECK_OUT(h, "echo after", "after\n");
  sbx_close(h);
}

/* A read-only sandbox reads and refuses writes the same way in both modes;
 * open flags are checked as before. */
TEST(readonly_and_open_flags) {
  char db[512];
  snprintf(db, sizeof db, "%s/ro.db", scratch_dir());
  sbx *w = NULL;
  REQUIRE(sbx_open(db, 0, &w) == SBX_OK);
  CHECK_EQ(sbx_write_file(w, "/data/x", "ro", 2, SBX_WRITE_MKDIRS), SBX_OK);
  sbx_close(w);
  outcome oc[2];
  for (int m = 0; m < 2; m++) {
    sbx *h = NULL;
    REQUIRE(sbx_open(db, SBX_OPEN_READONLY | modes[m], &h) == SBX_OK);
    run(h, "cat /data/x; echo y > /data/y; echo status $?", NULL, &oc[m]);
    sbx_close(h);
  }
  CHECK_STR(oc[0].out, "rostatus 1\n");
  CHECK_STR(oc[1].out, oc[0].out);
  CHECK_STR(oc[1].err, oc[0].err);
  sbx *h = NULL;
  CHECK_EQ(sbx_open(NULL, SBX_OPEN_PROCESS, &h), SBX_MISUSE);
  sbx_close(h);
  CHECK_EQ(sbx_open(NULL, SBX_OPEN_MEMORY | SBX_OPEN_PROCESS, NULL), SBX_MISUSE);
  h = NULL;
  CHECK_EQ(sbx_open_snapshot("x", 1, SBX_OPEN_READONLY | SBX_OPEN_PROCESS, &h),
           SBX_MISUSE);
  sbx_close(h);
}

int main(int argc, char **argv) {
  harness_init(argc, argv);
  setenv("SBX_SHELL_TEST_HOOKS", "1", 1);
  RUN(same_results_in_both_modes);
  RUN(options_same_in_both_modes);
  RUN(spin_without_polling_is_killed_at_the_deadline);
  RUN(cancel_from_another_thread);
  RUN(crash_is_an_error_and_the_next_call_works);
  RUN(misbehaving_helper_is_killed);
  RUN(helper_is_sealed);
  RUN(files_cross_between_helper_and_host);
  RUN(quota_and_reset_and_transactions);
  RUN(readonly_and_open_flags);
  return harness_done();
}
