/*
 * bench_isolation.c - what process isolation (SBX_OPEN_PROCESS) costs per
 * shell call, side by side with the in-process shell in one run:
 *   echo    a warm `echo hi` call (the session exists)
 *   loop    a 1,000-iteration arithmetic loop (the interpreter's own speed)
 *   start   a new sandbox plus its first `echo hi` (in process mode: spawning
 *           and sealing the helper)
 *
 *   bench_isolation [ITER_ECHO]
 *
 * Prints "ROW MODE best median" in microseconds, for run.sh. Every call's
 * output is checked, so a broken mode cannot look fast.
 */
#include "bench_util.h"

static void report(const char *row, const char *mode, double *t, int n) {
  qsort(t, (size_t)n, sizeof *t, bench_cmp_double);
  printf("%s %s %.3f %.3f\n", row, mode, t[0], t[n / 2]);
}

/* Times `n` calls of `script` on h (after a warm-up) into t. */
static int time_calls(sbx *h, const char *script, const char *want, int n, double *t) {
  for (int i = 0; i < 50; i++)
    if (bench_run(h, script, want)) return 1;
  for (int i = 0; i < n; i++) {
    double t0 = bench_now_us();
    if (bench_run(h, script, want)) return 1;
    t[i] = bench_now_us() - t0;
  }
  return 0;
}

int main(int argc, char **argv) {
  int iters = argc > 1 ? atoi(argv[1]) : 10000;
  if (iters < 10) iters = 10;
  static const int flags[2] = {0, SBX_OPEN_PROCESS};
  static const char *const names[2] = {"in-process", "process"};
  double *t = malloc((size_t)iters * sizeof *t);
  if (!t) return 1;
  const char *loop = "x=0; for ((i=0;i<1000;i++)); do x=$((x+i)); done; echo $x";
  for (int m = 0; m < 2; m++) {
    sbx *h;
    if (sbx_open(NULL, SBX_OPEN_MEMORY | flags[m], &h) != SBX_OK) return 1;
    sbx_limits lim;
    sbx_limits_preset(SBX_PRESET_PERMISSIVE, &lim);
    sbx_set_limits(h, &lim);
    if (time_calls(h, "echo hi", "hi\n", iters, t)) return 1;
    report("echo", names[m], t, iters);
    if (time_calls(h, loop, "499500\n", 30, t)) return 1;
    report("loop", names[m], t, 30);
    sbx_close(h);
    int starts = 40;
    for (int i = 0; i < starts; i++) {
      double t0 = bench_now_us();
      sbx *s;
      if (sbx_open(NULL, SBX_OPEN_MEMORY | flags[m], &s) != SBX_OK) return 1;
      int bad = bench_run(s, "echo hi", "hi\n");
      sbx_close(s);
      t[i] = bench_now_us() - t0;
      if (bad) return 1;
    }
    report("start", names[m], t, starts);
  }
  free(t);
  return 0;
}
