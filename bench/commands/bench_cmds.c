/*
 * bench_cmds.c - times command pipelines in sbx, in process, through the C API.
 *
 *   bench_cmds DATADIR ROWS...
 *
 * Loads DATADIR's inputs (written by gen.py) into a fresh in-memory sandbox
 * under /data (and the 10,000-file tree under /data/tree), then runs each
 * row's script with sbx_bash several times and prints "ROW best_ms median_ms".
 * A row is NAME=SCRIPT. The output of every run is checked to be the same.
 * SBX_BENCH_RUNS=N overrides the number of runs (for profiling one row).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "sbx.h"

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int load_file(sbx *h, const char *host, const char *path) {
  FILE *f = fopen(host, "rb");
  if (!f) return -1;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = malloc((size_t)n + 1);
  if (fread(buf, 1, (size_t)n, f) != (size_t)n) n = 0;
  fclose(f);
  int rc = sbx_write_file(h, path, buf, (size_t)n, SBX_WRITE_MKDIRS);
  free(buf);
  return rc;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: bench_cmds DATADIR NAME=SCRIPT...\n");
    return 2;
  }
  sbx *h;
  if (sbx_open(NULL, SBX_OPEN_MEMORY, &h) != SBX_OK) return 1;
  sbx_limits lim;
  sbx_limits_preset(2 /* PERMISSIVE */, &lim);
  lim.timeout_ms = 600000;
  sbx_set_limits(h, &lim);
  const char *files[] = {"text1m", "text10m", "text100m", "json10m", "pats10k"};
  char host[4096], path[256];
  for (int i = 0; i < 5; i++) {
    snprintf(host, sizeof host, "%s/%s", argv[1], files[i]);
    snprintf(path, sizeof path, "/data/%s", files[i]);
    if (load_file(h, host, path) != SBX_OK) fprintf(stderr, "bench: cannot load %s\n", host);
  }
  sbx_begin(h);
  for (int i = 0; i < 100; i++)
    for (int j = 0; j < 100; j++) {
      snprintf(path, sizeof path, "/data/tree/d%02d/f%03d.txt", i, j);
      sbx_write_file(h, path, "x\n", 2, SBX_WRITE_MKDIRS);
    }
  sbx_commit(h);
  for (int a = 2; a < argc; a++) {
    char *eq = strchr(argv[a], '=');
    if (!eq) continue;
    *eq = '\0';
    const char *script = eq + 1;
    int runs = strstr(script, "100m") ? 3 : 10;
    const char *env_runs = getenv("SBX_BENCH_RUNS");
    if (env_runs && atoi(env_runs) > 0) runs = atoi(env_runs) > 32 ? 32 : atoi(env_runs);
    double t[32];
    char *first = NULL;
    size_t first_len = 0;
    int bad = 0;
    for (int r = 0; r < runs; r++) {
      sbx_bash_result res;
      double t0 = now_ms();
      sbx_bash(h, script, strlen(script), &res);
      t[r] = now_ms() - t0;
      if (r == 0) {
        first = malloc(res.out_len + 1);
        memcpy(first, res.out, res.out_len);
        first_len = res.out_len;
        if (res.exit_code != 0) fprintf(stderr, "bench %s: exit %d: %s\n", argv[a], res.exit_code, res.err);
      } else if (res.out_len != first_len || memcmp(res.out, first, first_len) != 0) {
        bad = 1;
      }
      sbx_bash_result_free(&res);
    }
    qsort(t, (size_t)runs, sizeof t[0], cmp_double);
    printf("%s %.3f %.3f%s\n", argv[a], t[0], t[runs / 2], bad ? " output-differs" : "");
    fflush(stdout);
    free(first);
  }
  sbx_close(h);
  return 0;
}
