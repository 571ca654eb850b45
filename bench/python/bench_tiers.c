/*
 * bench_tiers.c - the two jail tiers side by side (sbx_python_require): the
 * full jail (namespaces, the store over FUSE) and the reduced tier (seccomp
 * and Landlock over a private directory synchronised with the store around
 * each call, docs/python.md). Medians of several runs, in one process.
 *
 *   first     a new sandbox: open + first call "pass" (jail and worker start)
 *   warm      "x += 1" in a warm context
 *   warm+1k   the same with 1,000 small files in /data (the reduced tier walks
 *             both sides of its copy at each call)
 *   host 1MB  the host writes a 1 MB file, then a call reads it (relative path)
 *   code 1MB  a call writes a 1 MB file, then the host reads it
 *
 * Usage: bench_tiers [ROUNDS]  (ROUNDS of each figure, default 15)
 *        bench_tiers --first-auto [ROUNDS]: only the first call with no tier
 *        required (under tools/sbx-nons: the full jail refused, then the
 *        reduced tier; the cost of trying the full one first)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "sbx.h"

static double now_ms(void) { return bench_now_us() / 1e3; }

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, bench_cmp_double);
  return v[n / 2];
}

static void run(sbx *h, const char *code) {
  sbx_py_result *r = NULL;
  if (sbx_python_exec(h, code, NULL, &r) != SBX_OK || r->error != SBX_PY_OK) {
    fprintf(stderr, "bench_tiers: %s: %s\n", code,
            r && r->error_message ? r->error_message : sbx_errmsg(h));
    exit(1);
  }
  sbx_free(r);
}

static sbx *open_tier(int tier) {
  sbx *h = NULL;
  if (sbx_open(NULL, SBX_OPEN_MEMORY, &h) != SBX_OK || sbx_python_require(h, tier) != SBX_OK) {
    fprintf(stderr, "bench_tiers: open: %s\n", h ? sbx_errmsg(h) : "?");
    exit(1);
  }
  return h;
}

/* The median time of n calls of "x += 1" in h's warm context (v: n scratch
 * slots); the warm and warm+1k figures. */
static double median_increment(sbx *h, double *v, int n) {
  for (int i = 0; i < n; i++) {
    double t0 = now_ms();
    run(h, "x += 1");
    v[i] = now_ms() - t0;
  }
  return median(v, n);
}

typedef struct figures {
  double first, warm, warm1k, host1m, code1m; /* ms */
} figures;

static figures measure(int tier, int rounds) {
  figures f;
  double *v = malloc(sizeof(double) * (size_t)(rounds * 20));
  for (int i = 0; i < rounds; i++) {
    double t0 = now_ms();
    sbx *h = open_tier(tier);
    run(h, "pass");
    v[i] = now_ms() - t0;
    sbx_close(h);
  }
  f.first = median(v, rounds);
  sbx *h = open_tier(tier);
  run(h, "x = 0");
  f.warm = median_increment(h, v, rounds * 20);
  static sbx_file files[1000];
  static char names[1000][32];
  for (int i = 0; i < 1000; i++) {
    snprintf(names[i], sizeof names[i], "/data/many/f%04d.txt", i);
    files[i] = (sbx_file){names[i], "small file\n", 11};
  }
  if (sbx_write_files(h, files, 1000, SBX_WRITE_MKDIRS) != SBX_OK) exit(1);
  run(h, "x += 1");
  f.warm1k = median_increment(h, v, rounds * 20);
  char *mb = malloc(1 << 20);
  memset(mb, 'a', 1 << 20);
  for (int i = 0; i < rounds; i++) {
    mb[0] = (char)('a' + i % 26);
    double t0 = now_ms();
    if (sbx_write_file(h, "/data/big.txt", mb, 1 << 20, 0) != SBX_OK) exit(1);
    run(h, "len(open('big.txt', 'rb').read())");
    v[i] = now_ms() - t0;
  }
  f.host1m = median(v, rounds);
  for (int i = 0; i < rounds; i++) {
    double t0 = now_ms();
    run(h, "open('out.bin', 'wb').write(bytes([x % 256]) * (1 << 20)); x += 1");
    void *data;
    size_t len;
    if (sbx_read_file(h, "/data/out.bin", &data, &len) != SBX_OK || len != 1 << 20) exit(1);
    sbx_free(data);
    v[i] = now_ms() - t0;
  }
  f.code1m = median(v, rounds);
  free(mb);
  free(v);
  sbx_close(h);
  return f;
}

int main(int argc, char **argv) {
  int automatic = argc > 1 && strcmp(argv[1], "--first-auto") == 0;
  int rounds = argc > 1 + automatic ? atoi(argv[1 + automatic]) : 15;
  if (rounds < 1 || rounds > 1000) rounds = 15;
  if (automatic) {
    double v[1000];
    char *info = NULL;
    for (int i = 0; i < rounds; i++) {
      double t0 = now_ms();
      sbx *h = open_tier(SBX_TIER_ANY);
      run(h, "pass");
      v[i] = now_ms() - t0;
      if (i == 0 && sbx_jail_info(h, &info) != SBX_OK) exit(1);
      sbx_close(h);
    }
    printf("first call, no tier required: %.3f ms (median of %d; %s)\n", median(v, rounds),
           rounds, info && strstr(info, "\"reduced\"") ? "ran on the reduced tier" : "full jail");
    sbx_free(info);
    return 0;
  }
  figures full = measure(SBX_TIER_FULL, rounds);
  figures red = measure(SBX_TIER_REDUCED, rounds);
  printf("jail tiers: median of %d runs (warm: %d); lower is better\n", rounds, rounds * 20);
  printf("%-34s %12s %12s %9s\n", "", "full", "reduced", "ratio");
  const char *names[] = {"first call (open + pass)", "warm call x += 1",
                         "warm call, 1,000 files in /data", "host writes 1 MB, code reads it",
                         "code writes 1 MB, host reads it"};
  double a[] = {full.first, full.warm, full.warm1k, full.host1m, full.code1m};
  double b[] = {red.first, red.warm, red.warm1k, red.host1m, red.code1m};
  for (int i = 0; i < 5; i++)
    printf("%-34s %9.3f ms %9.3f ms %8.2fx\n", names[i], a[i], b[i], b[i] / a[i]);
  return 0;
}
