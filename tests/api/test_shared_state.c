/*
 * test_shared_state.c - no sandbox reaches state shared with the other
 * sandboxes of the process. Sandbox A runs hostile statements through the
 * `sqlite3` command (process-wide heap limits, the global temp directory and
 * the mutex SQLite 3.40 leaves held on its error path, worker threads, host
 * VFS URIs, extensions) while sandbox B, on a database file of its own,
 * writes and reads files and runs a query in another thread; B must behave
 * normally during and after each one, and libsqlite3's globals must be as
 * they were. Every call runs under a timeout: a deadlock fails the test
 * instead of hanging it. Last, both sandboxes run at once the commands that
 * used process-wide scratch state (strtok, a lazily filled CRC table).
 */
#include <pthread.h>
#include <sqlite3.h>
#include <time.h>

#include "api_util.h"

#define JOB_TIMEOUT_S 60 /* generous: ASan and a shared machine */

/* One sbx_bash call run on a thread of its own. */
typedef struct job {
  sbx *h;            /* the sandbox (borrowed) */
  const char *script;
  int rc;            /* sbx_bash's return */
  int exit_code;
  char out[512];     /* stdout, truncated */
  char err[512];     /* stderr, truncated */
} job;

static void *job_run(void *arg) {
  job *j = arg;
  sbx_bash_result res;
  memset(&res, 0, sizeof res);
  j->rc = sbx_bash(j->h, j->script, strlen(j->script), &res);
  j->exit_code = res.exit_code;
  snprintf(j->out, sizeof j->out, "%s", res.out ? res.out : "");
  snprintf(j->err, sizeof j->err, "%s", res.err ? res.err : "");
  sbx_bash_result_free(&res);
  return NULL;
}

static void job_start(pthread_t *t, job *j) {
  if (pthread_create(t, NULL, job_run, j) != 0) {
    perror("pthread_create");
    exit(2);
  }
}

/* Joins within JOB_TIMEOUT_S; a thread stuck past it is a deadlock, and the
 * process cannot be trusted to go on: report and leave at once. */
static void job_wait(pthread_t t, const job *j) {
  struct timespec until;
  clock_gettime(CLOCK_REALTIME, &until);
  until.tv_sec += JOB_TIMEOUT_S;
  if (pthread_timedjoin_np(t, NULL, &until) != 0) {
    fprintf(stderr, "  deadlock: no answer in %d s from: %s\nFAIL\n0 passed, 1 failed\n",
            JOB_TIMEOUT_S, j->script);
    _exit(1);
  }
}

/* Runs two scripts at the same time, each on its sandbox's own thread, and
 * waits for both under the timeout. */
static void run_pair(job *ja, job *jb) {
  pthread_t ta, tb;
  job_start(&ta, ja);
  job_start(&tb, jb);
  job_wait(ta, ja);
  job_wait(tb, jb);
}

/* Runs a script on h in a thread, waits for it under the timeout. */
static void run_job(job *j, sbx *h, const char *script) {
  memset(j, 0, sizeof *j);
  j->h = h;
  j->script = script;
  pthread_t t;
  job_start(&t, j);
  job_wait(t, j);
}

/* What sandbox B does, during and after A's statement: files through the API
 * and the shell, and a query of its own through the sqlite3 command. */
static const char b_script[] =
    "for i in 1 2 3 4 5 6 7 8; do echo line$i > /data/f$i || exit 3; done; cat /data/f8; "
    "sqlite3 /data/b.db 'create table if not exists t(a); insert into t values(1); "
    "select count(*) > 0 from t'";

static void check_b(sbx *b, const job *jb, const char *stmt) {
  if (jb->rc != SBX_OK || jb->exit_code != 0 || strcmp(jb->out, "line8\n1\n") != 0)
    fprintf(stderr, "  B after \"%s\": rc %d, exit %d, out \"%s\", err \"%s\"\n", stmt,
            jb->rc, jb->exit_code, jb->out, jb->err);
  CHECK_EQ(jb->rc, SBX_OK);
  CHECK_EQ(jb->exit_code, 0);
  CHECK_STR(jb->out, "line8\n1\n");
  CHECK_EQ(write_str(b, "/data/api.txt", "api"), SBX_OK);
  CHECK_FILE(b, "/data/api.txt", "api");
}

static sqlite3_int64 soft_limit0, hard_limit0; /* libsqlite3's limits at start */

/* libsqlite3's process-wide settings are untouched. */
static void check_globals(const char *stmt) {
  sqlite3_int64 soft = sqlite3_soft_heap_limit64(-1), hard = sqlite3_hard_heap_limit64(-1);
  if (soft != soft_limit0 || hard != hard_limit0 || sqlite3_temp_directory)
    fprintf(stderr, "  globals after \"%s\": soft %lld hard %lld temp_directory %s\n", stmt,
            (long long)soft, (long long)hard,
            sqlite3_temp_directory ? sqlite3_temp_directory : "(null)");
  CHECK_EQ(soft, soft_limit0);
  CHECK_EQ(hard, hard_limit0);
  CHECK(sqlite3_temp_directory == NULL);
  /* SQLITE_MUTEX_STATIC_TEMPDIR (= VFS1) is free: nobody left it held. */
  sqlite3_mutex *m = sqlite3_mutex_alloc(SQLITE_MUTEX_STATIC_VFS1);
  int free_now = sqlite3_mutex_try(m) == SQLITE_OK;
  if (free_now) sqlite3_mutex_leave(m);
  CHECK(free_now);
}

/* A runs `sqlite3 DB 'STMT'`, B works at the same time and afterwards. */
static void hostile(sbx *a, sbx *b, const char *db, const char *stmt, const char *want_err) {
  char script[1024];
  snprintf(script, sizeof script, "sqlite3 %s '%s'", db, stmt);
  job ja = {.h = a, .script = script}, jb = {.h = b, .script = b_script};
  run_pair(&ja, &jb);
  if (ja.exit_code == 0 || !strstr(ja.err, want_err))
    fprintf(stderr, "  A ran \"%s\": exit %d, err \"%s\"\n", stmt, ja.exit_code, ja.err);
  CHECK(ja.exit_code != 0);
  CHECK(strstr(ja.err, want_err) != NULL);
  check_b(b, &jb, stmt);
  check_globals(stmt);
  job after;
  run_job(&after, b, b_script);
  check_b(b, &after, stmt);
}

static sbx *a_box, *b_box; /* the two sandboxes of this process */

TEST(heap_limits_stay_process_wide_defaults) {
  hostile(a_box, b_box, ":memory:", "PRAGMA hard_heap_limit=200000", "not authorized");
  hostile(a_box, b_box, ":memory:", "PRAGMA soft_heap_limit=1", "not authorized");
  hostile(a_box, b_box, ":memory:", "select * from pragma_soft_heap_limit", "not authorized");
}

TEST(temp_store_directory_neither_set_nor_deadlocks) {
  hostile(a_box, b_box, ":memory:", "PRAGMA temp_store_directory=\"/data\"", "not authorized");
  hostile(a_box, b_box, ":memory:", "PRAGMA temp_store_directory=\"/nonexistent\"",
          "not authorized");
  hostile(a_box, b_box, ":memory:", "PRAGMA data_store_directory=\"/data\"", "not authorized");
}

TEST(threads_and_extensions_refused) {
  hostile(a_box, b_box, ":memory:", "PRAGMA threads=8", "not authorized");
  hostile(a_box, b_box, ":memory:", "select load_extension(\"libm.so.6\")", "not authorized");
  hostile(a_box, b_box, ":memory:",
          "select fts3_tokenizer(\"simple\", zeroblob(8))", "not authorized");
}

TEST(host_files_out_of_reach) {
  char stmt[768], db[600];
  const char *host = scratch("host.db");
  snprintf(db, sizeof db, "'file:%s?vfs=unix'", host);
  hostile(a_box, b_box, db, "create table t(a)", "unable to open database");
  CHECK(!file_exists(host));
  snprintf(stmt, sizeof stmt, "attach \"file:%s?vfs=unix\" as h", host);
  hostile(a_box, b_box, ":memory:", stmt, "not authorized");
  CHECK(!file_exists(host));
  snprintf(stmt, sizeof stmt, "vacuum into \"file:%s?vfs=unix\"", host);
  hostile(a_box, b_box, ":memory:", stmt, "authorization denied");
  CHECK(!file_exists(host));
  /* the name as an expression: unknown when the statement is prepared */
  snprintf(stmt, sizeof stmt, "attach \"fi\" || \"le:%s?vfs=unix\" as h", host);
  hostile(a_box, b_box, ":memory:", stmt, "not authorized");
  CHECK(!file_exists(host));
}

TEST(per_connection_pragmas_still_work) {
  job j;
  run_job(&j, a_box,
          "sqlite3 /data/a.db 'pragma user_version=9; pragma cache_size=100; "
          "create table t(x)' 'pragma user_version' 'select count(*) from pragma_table_info(\"t\")'");
  CHECK_EQ(j.exit_code, 0);
  CHECK_STR(j.out, "9\n1\n");
  check_globals("per-connection pragmas");
}

/* Commands that once kept per-call state in process-wide places (strtok's
 * static position, a CRC table filled on first use) give the same answers
 * when two sandboxes run them at the same time. */
static const char parallel_script[] =
    "cd /data; echo hi > a; i=0; bad=0; while [ $i -lt 200 ]; do i=$((i+1)); "
    "[ \"$(printf 'hello\\n' | cksum)\" = '3015617425 6' ] || bad=$((bad+1)); "
    "cp --preserve=mode,timestamps,ownership a b || bad=$((bad+1)); "
    "[ \"$(echo abc | GREP_COLORS='mt=01;32:fn=35:ln=32:se=36' grep --color=always b)\" = "
    "$'a\\e[01;32m\\e[Kb\\e[m\\e[Kc' ] || bad=$((bad+1)); "
    "printf '%s\\n' x y > ex; du --exclude-from=ex -s . > /dev/null || bad=$((bad+1)); "
    "done; echo bad=$bad";

TEST(commands_agree_when_run_in_parallel) {
  job ja = {.h = a_box, .script = parallel_script}, jb = {.h = b_box, .script = parallel_script};
  run_pair(&ja, &jb);
  CHECK_STR(ja.out, "bad=0\n");
  CHECK_STR(jb.out, "bad=0\n");
  CHECK_STR(ja.err, "");
  CHECK_STR(jb.err, "");
}

int main(int argc, char **argv) {
  harness_init(argc, argv);
  soft_limit0 = sqlite3_soft_heap_limit64(-1);
  hard_limit0 = sqlite3_hard_heap_limit64(-1);
  if (sbx_open(NULL, SBX_OPEN_MEMORY, &a_box) != SBX_OK ||
      sbx_open(scratch("b.db"), 0, &b_box) != SBX_OK) {
    fprintf(stderr, "open: %s\n", sbx_errmsg(a_box ? b_box : a_box));
    return 2;
  }
  RUN(heap_limits_stay_process_wide_defaults);
  RUN(temp_store_directory_neither_set_nor_deadlocks);
  RUN(threads_and_extensions_refused);
  RUN(host_files_out_of_reach);
  RUN(per_connection_pragmas_still_work);
  RUN(commands_agree_when_run_in_parallel);
  sbx_close(a_box);
  sbx_close(b_box);
  return harness_done();
}
