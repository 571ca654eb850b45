/*
 * test_threads.c - the threading rule of sbx.h: one handle per thread at a
 * time, different handles in parallel. Several threads each drive their own
 * sandbox (temporary file or memory) through files, kv, history and
 * snapshots at the same time; then several threads each hold their own
 * handle on ONE shared database file and write concurrently (SQLite's
 * locking, waited out by the store), and every write is there at the end.
 */
#include <pthread.h>

#include "api_util.h"

#define NTHREADS 4
#define NFILES 100

typedef struct worker {
  int index;         /* thread number */
  int flags;         /* SBX_OPEN_TEMP or SBX_OPEN_MEMORY, or 0: shared file */
  const char *path;  /* the shared database (flags 0) */
  int failures;      /* checks that failed in the thread */
  char msg[256];     /* the first failure */
} worker;

static void note(worker *w, const char *what, sbx *h) {
  if (!w->failures++)
    snprintf(w->msg, sizeof w->msg, "thread %d: %s: %s", w->index, what, sbx_errmsg(h));
}

static void *own_sandbox(void *arg) {
  worker *w = arg;
  sbx *h = NULL;
  if (sbx_open(NULL, w->flags, &h) != SBX_OK) {
    note(w, "open", h);
    sbx_close(h);
    return NULL;
  }
  char path[64], body[64];
  for (int i = 0; i < NFILES; i++) {
    snprintf(path, sizeof path, "/t%d/dir%d/f%d", w->index, i % 5, i);
    snprintf(body, sizeof body, "thread %d file %d", w->index, i);
    if (sbx_write_file(h, path, body, strlen(body), SBX_WRITE_MKDIRS) != SBX_OK)
      note(w, "write", h);
    if (sbx_kv_set(h, path, "[1,2,3]") != SBX_OK) note(w, "kv set", h);
  }
  for (int i = 0; i < NFILES; i++) {
    snprintf(path, sizeof path, "/t%d/dir%d/f%d", w->index, i % 5, i);
    snprintf(body, sizeof body, "thread %d file %d", w->index, i);
    char *s = read_str(h, path);
    if (!s || strcmp(s, body) != 0) note(w, "read back", h);
    sbx_free(s);
  }
  int64_t id;
  if (sbx_history_start(h, "work", "{}", &id) != SBX_OK ||
      sbx_history_finish(h, id, "true", NULL) != SBX_OK)
    note(w, "history", h);
  void *bytes;
  size_t len;
  if (sbx_snapshot(h, &bytes, &len) == SBX_OK) {
    sbx *copy;
    if (sbx_open_snapshot(bytes, len, SBX_OPEN_MEMORY, &copy) != SBX_OK)
      note(w, "open snapshot", copy);
    else if (count_entries(copy, "/") < 1)
      note(w, "snapshot content", copy);
    sbx_close(copy);
    sbx_free(bytes);
  } else {
    note(w, "snapshot", h);
  }
  sbx_close(h);
  return NULL;
}

static void *shared_file(void *arg) {
  worker *w = arg;
  sbx *h = NULL;
  if (sbx_open(w->path, SBX_OPEN_NOCREATE, &h) != SBX_OK) {
    note(w, "open shared", h);
    sbx_close(h);
    return NULL;
  }
  char path[64];
  for (int i = 0; i < 50; i++) {
    snprintf(path, sizeof path, "/shared/t%d-%02d", w->index, i);
    if (write_str(h, path, path) != SBX_OK) note(w, "shared write", h);
    if (sbx_kv_set(h, path, "1") != SBX_OK) note(w, "shared kv", h);
  }
  sbx_close(h);
  return NULL;
}

static int run_workers(worker *ws, int n, void *(*fn)(void *)) {
  pthread_t th[NTHREADS];
  int failures = 0;
  for (int i = 0; i < n; i++)
    if (pthread_create(&th[i], NULL, fn, &ws[i]) != 0) return -1;
  for (int i = 0; i < n; i++) pthread_join(th[i], NULL);
  for (int i = 0; i < n; i++) {
    if (ws[i].failures) fprintf(stderr, "  %s (%d failures)\n", ws[i].msg, ws[i].failures);
    failures += ws[i].failures;
  }
  return failures;
}

TEST(handles_on_temp_files_run_in_parallel) {
  setenv("TMPDIR", scratch_dir(), 1);
  worker ws[NTHREADS];
  for (int i = 0; i < NTHREADS; i++) ws[i] = (worker){.index = i, .flags = SBX_OPEN_TEMP};
  CHECK_EQ(run_workers(ws, NTHREADS, own_sandbox), 0);
  unsetenv("TMPDIR");
}

TEST(handles_in_memory_run_in_parallel) {
  worker ws[NTHREADS];
  for (int i = 0; i < NTHREADS; i++) ws[i] = (worker){.index = i, .flags = SBX_OPEN_MEMORY};
  CHECK_EQ(run_workers(ws, NTHREADS, own_sandbox), 0);
}

TEST(handles_on_one_file_write_concurrently) {
  const char *p = scratch("shared.db");
  sbx *h;
  REQUIRE(sbx_open(p, 0, &h) == SBX_OK);
  REQUIRE(sbx_mkdir(h, "/shared", 0) == SBX_OK);
  sbx_close(h);
  worker ws[3];
  for (int i = 0; i < 3; i++) ws[i] = (worker){.index = i, .path = p};
  CHECK_EQ(run_workers(ws, 3, shared_file), 0);
  REQUIRE(sbx_open(p, SBX_OPEN_NOCREATE, &h) == SBX_OK);
  CHECK_EQ(count_entries(h, "/shared"), 150);
  char **keys;
  size_t n;
  REQUIRE(sbx_kv_keys(h, "/shared/", &keys, &n) == SBX_OK);
  CHECK_EQ(n, 150);
  sbx_free(keys);
  sbx_close(h);
}

int main(int argc, char **argv) {
  harness_init(argc, argv);
  RUN(handles_on_temp_files_run_in_parallel);
  RUN(handles_in_memory_run_in_parallel);
  RUN(handles_on_one_file_write_concurrently);
  return harness_done();
}
