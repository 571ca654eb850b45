/*
 * bench_shell.c - the shell's call overhead in sbx, in process, through the
 * C API: a warm `echo hi` call, a 1,000-iteration arithmetic loop, a fresh
 * in-memory sandbox plus its first command, and ${x//a/b} on a string of
 * 20,000 and of 16,000,000 a's (the pattern replacement is linear: a literal
 * is found with memmem and the result grows in one buffer).
 *
 *   bench_shell [ITER_ECHO]
 *
 * Prints one line per row, "NAME best median" in microseconds (echo, create)
 * or milliseconds (loop, repl20k, repl16m), for run.sh to put beside just-bash and bash. The
 * output of every call is checked, so a broken shell cannot look fast.
 */
#include "bench_util.h"

static void report(const char *name, double *t, int n, double scale) {
  qsort(t, (size_t)n, sizeof *t, bench_cmp_double);
  printf("%s %.3f %.3f\n", name, t[0] / scale, t[n / 2] / scale);
}

int main(int argc, char **argv) {
  int iters = argc > 1 ? atoi(argv[1]) : 20000;
  if (iters < 10) iters = 10;
  sbx *h;
  if (sbx_open(NULL, SBX_OPEN_MEMORY, &h) != SBX_OK) return 1;
  sbx_limits lim;
  sbx_limits_preset(SBX_PRESET_PERMISSIVE, &lim);
  sbx_set_limits(h, &lim);
  /* warm: the session exists, the first calls are done */
  for (int i = 0; i < 100; i++)
    if (bench_run(h, "echo hi", "hi\n")) {
      fprintf(stderr, "bench_shell: echo failed\n");
      return 1;
    }
  double *t = malloc((size_t)iters * sizeof *t);
  for (int i = 0; i < iters; i++) {
    double t0 = bench_now_us();
    int bad = bench_run(h, "echo hi", "hi\n");
    t[i] = bench_now_us() - t0;
    if (bad) return 1;
  }
  report("echo", t, iters, 1);
  const char *loop = "x=0; for ((i=0;i<1000;i++)); do x=$((x+i)); done; echo $x";
  double lt[30];
  for (int i = 0; i < 30; i++) {
    double t0 = bench_now_us();
    int bad = bench_run(h, loop, "499500\n");
    lt[i] = bench_now_us() - t0;
    if (bad) {
      fprintf(stderr, "bench_shell: loop failed\n");
      return 1;
    }
  }
  report("loop", lt, 30, 1000);
  /* ${x//a/b}: x is built by an untimed call, the timed one replaces and
   * checks the length */
  static const struct {
    const char *name, *make, *want;
    int runs;
  } repl[] = {
      {"repl20k", "x=$(head -c 20000 /dev/zero | tr '\\0' a)", "20000 bbb\n", 30},
      {"repl16m", "x=$(head -c 16000000 /dev/zero | tr '\\0' a)", "16000000 bbb\n", 5},
  };
  for (size_t k = 0; k < sizeof repl / sizeof *repl; k++) {
    double rt[30];
    if (run(h, repl[k].make, "")) return 1;
    for (int i = 0; i < repl[k].runs; i++) {
      double t0 = now_us();
      int bad = run(h, "y=${x//a/b}; echo ${#y} ${y:0:3}", repl[k].want);
      rt[i] = now_us() - t0;
      if (bad) {
        fprintf(stderr, "bench_shell: %s failed\n", repl[k].name);
        return 1;
      }
    }
    report(repl[k].name, rt, repl[k].runs, 1000);
  }
  sbx_close(h);
  double ct[200];
  for (int i = 0; i < 200; i++) {
    double t0 = bench_now_us();
    sbx *s;
    if (sbx_open(NULL, SBX_OPEN_MEMORY, &s) != SBX_OK) return 1;
    int bad = bench_run(s, "echo hi", "hi\n");
    sbx_close(s);
    ct[i] = bench_now_us() - t0;
    if (bad) return 1;
  }
  report("create", ct, 200, 1);
  free(t);
  return 0;
}
