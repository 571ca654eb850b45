/*
 * test_stream_memory.c - pipelines stream: `cat` of a 100 MB file into
 * `wc -l` runs in constant memory.
 *
 * The sandbox is file-backed (SBX_OPEN_TEMP, removed on close), so the file
 * lives on disk and SQLite's page cache is bounded; the 100 MB are written
 * with 100 appends of 1 MB. The process's peak RSS (getrusage ru_maxrss) is
 * taken after the file exists and again after the pipeline: the pipeline may
 * add a few MB (pipe buffers, command buffers), never the file's size.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

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

static long peak_rss_kb(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_maxrss; /* kilobytes on Linux */
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
  long before = peak_rss_kb();
  const char *script = "cat /data/big | wc -l";
  REQUIRE(sbx_bash(h, script, strlen(script), &r) == SBX_OK);
  long after = peak_rss_kb();
  CHECK_EQ(r.exit_code, 0);
  CHECK(r.out_len == 8 && !memcmp(r.out, "1638400\n", 8)); /* 100 MB / 64 */
  sbx_bash_result_free(&r);
  long growth_kb = after - before;
  fprintf(stderr, "  peak RSS %ld KB before, %ld KB after (+%ld KB) for a 100 MB stream\n", before, after,
          growth_kb);
  CHECK(growth_kb < GROWTH_MAX_KB); /* a few MB at most, never the 100 MB file */
  sbx_close(h);
}

int main(int argc, char **argv) {
  if (argc > 1) harness_filter = argv[1];
  RUN(cat_100mb_into_wc_in_constant_memory);
  return harness_done();
}
