/*
 * bench_util.h - what the C benchmarks share (bench/shell, bench/isolation,
 * bench/python/bench_tiers.c): a monotonic clock in microseconds, sorting samples, and
 * one shell call whose result is checked, so that a broken call cannot look
 * fast. Header-only: each benchmark is one C file built by its run.sh.
 */
#ifndef SBX_BENCH_UTIL_H
#define SBX_BENCH_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sbx.h"

static inline double bench_now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* qsort comparator for samples. */
static inline int bench_cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Runs `script`; 0 when it succeeded with exactly `want` on stdout, else 1
 * (with a message on stderr). */
static inline int bench_run(sbx *h, const char *script, const char *want) {
  sbx_bash_result r;
  int rc = sbx_bash(h, script, strlen(script), &r);
  int bad = rc != SBX_OK || r.exit_code != 0 || r.out_len != strlen(want) ||
            memcmp(r.out, want, r.out_len) != 0;
  if (bad) fprintf(stderr, "bench: %s: rc %d, exit %d: %s\n", script, rc, r.exit_code, sbx_errmsg(h));
  sbx_bash_result_free(&r);
  return bad;
}

#endif
