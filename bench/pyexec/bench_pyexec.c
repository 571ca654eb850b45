/*
 * bench_pyexec.c - the shell's `python3` (a fresh interpreter per invocation,
 * forked by the jail's fork server) and a host program run in the jail, next
 * to their floors on the host, measured interleaved in one run:
 *
 *   sbx_bash("python3 -c pass")   vs  posix_spawn(/usr/bin/python3 -I -S -c pass)
 *   sbx_bash("python3 -c 'import json'")  vs  posix_spawn(/usr/bin/python3 -c 'import json')
 *   sbx_bash("perl -e 1")        vs  posix_spawn(/usr/bin/perl -e 1)   (a host program)
 *
 * Each round runs one of each, in turn, so both sides see the same load.
 * Prints min and median per side and the ratio of the medians; the target
 * is a warm `python3 -c pass` under 15 ms. Informational, never a test.
 */
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sbx.h"

extern char **environ;

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double in_sandbox(sbx *h, const char *script) {
  sbx_bash_result r;
  double t = now_ms();
  if (sbx_bash(h, script, strlen(script), &r) != SBX_OK || r.exit_code != 0) {
    fprintf(stderr, "bench: '%s' failed: %s %s\n", script, sbx_errmsg(h), r.err ? r.err : "");
    exit(1);
  }
  t = now_ms() - t;
  sbx_bash_result_free(&r);
  return t;
}

static double on_host(char *const argv[]) {
  double t = now_ms();
  pid_t pid;
  if (posix_spawn(&pid, argv[0], NULL, NULL, argv, environ) != 0) exit(1);
  int st;
  waitpid(pid, &st, 0);
  return now_ms() - t;
}

static void report(const char *what, double *a, double *b, int n) {
  qsort(a, (size_t)n, sizeof *a, cmp);
  qsort(b, (size_t)n, sizeof *b, cmp);
  printf("%-44s sbx min %7.2f ms  median %7.2f ms | host min %7.2f ms  median %7.2f ms | ratio %.2fx\n",
         what, a[0], a[n / 2], b[0], b[n / 2], a[n / 2] / b[n / 2]);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 30;
  if (n < 3 || n > 1000) n = 30;
  sbx *h;
  if (sbx_open(NULL, SBX_OPEN_MEMORY, &h) != SBX_OK) return 1;
  double t0 = now_ms();
  in_sandbox(h, "python3 -c pass");
  printf("first python3 -c pass (starts the jail)        %.1f ms\n", now_ms() - t0);
  for (int i = 0; i < 3; i++) in_sandbox(h, "python3 -c pass");
  double *a = calloc((size_t)n * 6, sizeof *a);
  char *py_pass[] = {"/usr/bin/python3", "-I", "-S", "-c", "pass", NULL};
  char *py_json[] = {"/usr/bin/python3", "-c", "import json", NULL};
  char *tru[] = {"/usr/bin/perl", "-e", "1", NULL};
  for (int i = 0; i < n; i++) {
    a[i] = in_sandbox(h, "python3 -c pass");
    a[n + i] = on_host(py_pass);
    a[2 * n + i] = in_sandbox(h, "python3 -c 'import json'");
    a[3 * n + i] = on_host(py_json);
    a[4 * n + i] = in_sandbox(h, "perl -e 1");
    a[5 * n + i] = on_host(tru);
  }
  printf("%d rounds, interleaved (load: ", n);
  FILE *f = fopen("/proc/loadavg", "r");
  char load[64] = "?";
  if (f && fgets(load, sizeof load, f)) load[strcspn(load, " ")] = 0;
  if (f) fclose(f);
  printf("%s)\n", load);
  report("python3 -c pass  vs  python3 -I -S -c pass", a, a + n, n);
  report("python3 -c 'import json'  vs  the same", a + 2 * n, a + 3 * n, n);
  report("perl -e 1 (host program)  vs  perl -e 1", a + 4 * n, a + 5 * n, n);
  printf("target: warm python3 -c pass under 15 ms\n");
  free(a);
  sbx_close(h);
  return 0;
}
