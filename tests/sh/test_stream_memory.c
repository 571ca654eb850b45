/*
 * test_stream_memory.c - pipelines stream: `cat` of a 100 MB file into
 * `wc -l` runs in constant memory.
 *
 * The sandbox is file-backed (SBX_OPEN_TEMP, removed on close), so the file
 * lives on disk and SQLite's page cache is bounded; the 100 MB are written
 * with 100 appends of 1 MB. A sampler thread reads the process's anonymous
 * resident memory (RssAnon in /proc/self/status) every millisecond while the
 * pipeline runs: its peak may exceed the level before by a few MB (pipe
 * buffers, command buffers), never by the file's size. Anonymous memory, not
 * the whole RSS: the store maps the database file (PRAGMA mmap_size), and
 * those clean file pages belong to the page cache, which the kernel drops
 * under pressure.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "harness.h"
#include "sbx.h"

#define MB (1024L * 1024L)

#if defined(__SANITIZE_ADDRESS__)
/* ASan keeps freed blocks in a quarantine (256 MB by default), which would
 * count as growth here: a small one keeps the measure about the pipeline. */
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "quarantine_size_mb=2"; }
#endif
/* A few MB for buffers; ASan's quarantine and shadow memory get more room.
 * Either way far below the 100 MB that went through. */
#if defined(__SANITIZE_ADDRESS__)
#define GROWTH_MAX_KB (32 * 1024)
#else
#define GROWTH_MAX_KB (8 * 1024)
#endif

/* RssAnon of this process in KB, or -1. */
static long rss_anon_kb(void) {
  FILE *f = fopen("/proc/self/status", "r");
  if (!f) return -1;
  char line[256];
  long kb = -1;
  while (fgets(line, sizeof line, f))
    if (sscanf(line, "RssAnon: %ld kB", &kb) == 1) break;
  fclose(f);
  return kb;
}

static atomic_bool sampling;  /* the sampler runs while true */
static atomic_long peak_anon; /* the highest RssAnon seen, KB */

static void *sampler(void *arg) {
  (void)arg;
  while (atomic_load(&sampling)) {
    long kb = rss_anon_kb();
    if (kb > atomic_load(&peak_anon)) atomic_store(&peak_anon, kb);
    struct timespec ts = {0, 1000000L};
    nanosleep(&ts, NULL);
  }
  return NULL;
}

TEST(cat_100mb_into_wc_in_constant_memory) {
  sbx *h = NULL;
  REQUIRE(sbx_open(NULL, SBX_OPEN_TEMP, &h) == SBX_OK);
  sbx_limits lim;
  sbx_limits_preset(SBX_PRESET_PERMISSIVE, &lim);
  lim.timeout_ms = 120000;
  sbx_set_limits(h, &lim);
  /* 1 MB of 64-byte lines, appended 100 times */
  char *chunk = malloc(MB);
  REQUIRE(chunk != NULL);
  for (long i = 0; i < MB; i += 64) {
    memset(chunk + i, 'a' + (int)(i / 64 % 26), 63);
    chunk[i + 63] = '\n';
  }
  int rc = SBX_OK;
  for (int i = 0; i < 100 && rc == SBX_OK; i++)
    rc = sbx_write_file(h, "/data/big", chunk, MB, SBX_WRITE_MKDIRS | SBX_WRITE_APPEND);
  free(chunk);
  REQUIRE(rc == SBX_OK);
  sbx_bash_result r;
  /* a first pipeline warms the session and the command buffers */
  const char *warm = "cat /data/big | head -c 1000000 | wc -l";
  REQUIRE(sbx_bash(h, warm, strlen(warm), &r) == SBX_OK);
  CHECK(r.out_len == 6 && !memcmp(r.out, "15625\n", 6));
  sbx_bash_result_free(&r);
  long before = rss_anon_kb();
  REQUIRE(before > 0);
  atomic_store(&peak_anon, before);
  atomic_store(&sampling, true);
  pthread_t th;
  REQUIRE(pthread_create(&th, NULL, sampler, NULL) == 0);
  const char *script = "cat /data/big | wc -l";
  int brc = sbx_bash(h, script, strlen(script), &r);
  atomic_store(&sampling, false);
  pthread_join(th, NULL);
  REQUIRE(brc == SBX_OK);
  long after = atomic_load(&peak_anon);
  CHECK_EQ(r.exit_code, 0);
  CHECK(r.out_len == 8 && !memcmp(r.out, "1638400\n", 8)); /* 100 MB / 64 */
  sbx_bash_result_free(&r);
  long growth_kb = after - before;
  fprintf(stderr, "  anonymous RSS %ld KB before, peak %ld KB during (+%ld KB) for a 100 MB stream\n", before, after,
          growth_kb);
  CHECK(growth_kb < GROWTH_MAX_KB); /* a few MB at most, never the 100 MB file */
  sbx_close(h);
}

int main(int argc, char **argv) {
  harness_init(argc, argv);
  RUN(cat_100mb_into_wc_in_constant_memory);
  return harness_done();
}
