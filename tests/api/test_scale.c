/*
 * test_scale.c - many sandboxes in one process (issue 19): 10,000 in-memory
 * sandboxes opened, used (a shell call) and closed in a loop, then 200 file
 * sandboxes (each create syncs the disk twice) the same way, leave the
 * process's file descriptors and threads where they started and its RSS
 * within a generous bound (a leak of a few hundred bytes per sandbox would
 * pass it; a leaked page per sandbox or a leaked database would not). Also 16 sandboxes open at once on 16 threads:
 * every thread's calls see only its own sandbox, and the threads and fds
 * come back after the closes. Counts, not timings.
 */
#include <dirent.h>
#include <pthread.h>

#include "api_util.h"

/* Resident set size in KiB (/proc/self/statm). */
static long rss_kib(void) {
  FILE *f = fopen("/proc/self/statm", "r");
  long size = 0, res = 0;
  if (f) {
    if (fscanf(f, "%ld %ld", &size, &res) != 2) res = 0;
    fclose(f);
  }
  return res * (sysconf(_SC_PAGESIZE) / 1024);
}

/* The allowed RSS growth over the loop. Under ASan freed memory sits in the
 * quarantine (256 MiB by default) and LeakSanitizer checks the leaks. */
#if defined(__SANITIZE_ADDRESS__)
#define RSS_BOUND_KIB (320L * 1024)
#else
#define RSS_BOUND_KIB (32L * 1024)
#endif

/* One sandbox's life: open, a shell call writing and reading a file, close. */
static int one_life(const char *path, int i) {
  sbx *h;
  int rc = sbx_open(path, path ? 0 : SBX_OPEN_MEMORY, &h);
  if (rc != SBX_OK) {
    fprintf(stderr, "  open %d: %s\n", i, h ? sbx_errmsg(h) : "out of memory");
    sbx_close(h);
    return -1;
  }
  char script[64], want[32];
  snprintf(script, sizeof script, "echo %d > /tmp/n; cat /tmp/n", i);
  snprintf(want, sizeof want, "%d\n", i);
  sbx_bash_result r;
  rc = sbx_bash(h, script, strlen(script), &r);
  int ok = rc == SBX_OK && r.exit_code == 0 && r.out_len == strlen(want) &&
           memcmp(r.out, want, r.out_len) == 0;
  sbx_bash_result_free(&r);
  sbx_close(h);
  return ok ? 0 : -1;
}

TEST(ten_thousand_memory_sandboxes_leave_nothing_behind) {
  for (int i = 0; i < 200; i++) REQUIRE(one_life(NULL, i) == 0); /* the allocator settles */
  int fds = count_fds(), threads = count_threads();
  long rss = rss_kib();
  REQUIRE(fds > 0 && threads > 0 && rss > 0);
  for (int i = 0; i < 10000; i++) REQUIRE(one_life(NULL, i) == 0);
  CHECK_EQ(count_fds(), fds);
  CHECK_EQ(count_threads(), threads);
  long grew = rss_kib() - rss;
  if (grew > RSS_BOUND_KIB) fprintf(stderr, "  RSS grew %ld KiB over 10,000 sandboxes\n", grew);
  CHECK(grew <= RSS_BOUND_KIB);
}

TEST(file_sandboxes_leave_nothing_behind) {
  const char *path = scratch("loop.db");
  for (int i = 0; i < 20; i++) {
    REQUIRE(one_life(path, i) == 0);
    unlink(path);
  }
  int fds = count_fds(), threads = count_threads();
  long rss = rss_kib();
  for (int i = 0; i < 200; i++) {
    REQUIRE(one_life(path, i) == 0);
    REQUIRE(unlink(path) == 0);
  }
  CHECK_EQ(count_fds(), fds);
  CHECK_EQ(count_threads(), threads);
  CHECK(rss_kib() - rss <= RSS_BOUND_KIB);
  CHECK_EQ(count_dir(scratch_dir()), 0); /* no -wal, -shm or stray new file left */
}

enum { NT = 16 };

typedef struct {
  sbx *h;
  int id, bad;
} thread_arg;

static void *thread_main(void *p) {
  thread_arg *a = p;
  char script[96], want[32];
  snprintf(script, sizeof script, "echo %d >> /data/mine; wc -l < /data/mine", a->id);
  for (int k = 1; k <= 200 && !a->bad; k++) {
    sbx_bash_result r;
    snprintf(want, sizeof want, "%d\n", k);
    int rc = sbx_bash(a->h, script, strlen(script), &r);
    if (rc != SBX_OK || r.out_len != strlen(want) || memcmp(r.out, want, r.out_len)) a->bad = 1;
    sbx_bash_result_free(&r);
  }
  return NULL;
}

TEST(sixteen_threads_on_sixteen_sandboxes) {
  int fds = count_fds(), threads = count_threads();
  thread_arg a[NT];
  pthread_t th[NT];
  for (int i = 0; i < NT; i++) {
    char name[32];
    snprintf(name, sizeof name, "t%d.db", i);
    a[i] = (thread_arg){.id = i};
    REQUIRE(sbx_open(i % 2 ? scratch(name) : NULL, i % 2 ? 0 : SBX_OPEN_MEMORY, &a[i].h) == SBX_OK);
  }
  CHECK_EQ(count_fds(), fds + (NT / 2) * SBX_FDS_PER_SANDBOX);
  for (int i = 0; i < NT; i++) REQUIRE(pthread_create(&th[i], NULL, thread_main, &a[i]) == 0);
  for (int i = 0; i < NT; i++) pthread_join(th[i], NULL);
  for (int i = 0; i < NT; i++) {
    CHECK(!a[i].bad);
    char *s = read_str(a[i].h, "/data/mine");
    CHECK(s && strlen(s) == 200 * (strlen("\n") + (i < 10 ? 1 : 2)));
    free(s);
    sbx_close(a[i].h);
  }
  CHECK_EQ(count_fds(), fds);
  CHECK_EQ(count_threads(), threads);
}

int main(int argc, char **argv) {
  harness_init(argc, argv);
  RUN(ten_thousand_memory_sandboxes_leave_nothing_behind);
  RUN(file_sandboxes_leave_nothing_behind);
  RUN(sixteen_threads_on_sixteen_sandboxes);
  return harness_done();
}
