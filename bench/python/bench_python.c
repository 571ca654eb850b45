/*
 * bench_python.c - Python in a sandbox, measured next to its floor (plain
 * `/usr/bin/python3 -c` subprocesses, the same Debian CPython) in one run.
 *
 * Figures (each the median of several runs; the machine is shared):
 *   cold       a new sandbox: open + first call "pass" (jail, FUSE, worker start)
 *   warm       "x += 1" in a warm context, one C API call each
 *   tool       host tool round trip: host_tools.call() from Python to a C
 *              callback and back, timed inside Python per call
 *   read_1mb   reading a 1 MB file from /data in Python (open + read), inside
 *              Python; and the whole call that does it
 *   sum        sum(range(10**6)) timed inside Python (best of 10 in each call),
 *              vs the same in plain python3 and, when run.sh could link it
 *              (SBX_BENCH_PYSTATIC), in Debian's python.o linked with
 *              libpython3.11.a: what a worker embedding that archive would get
 *              (PGO without LTO; /usr/bin/python3.11, which the worker execs,
 *              has both; docs/python.md)
 * The floor: python3 -c pass (a process start), and the same sum.
 * Reference: the published localsandbox (Pyodide on Deno), measured on this
 * machine kind: first call 2.7-3.2 s, warm 6-7 ms, tool 2-4 ms, 200-285 ms per
 * call once a 1 MB file is in the sandbox.
 * Usage: bench_python [ROUNDS]  (default 1; >1 repeats everything)
 */
#include <signal.h>
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
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_d(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_d);
  return v[n / 2];
}

static void die(const char *what, sbx *h) {
  fprintf(stderr, "bench_python: %s: %s\n", what, h ? sbx_errmsg(h) : "");
  exit(1);
}

/* Runs code and returns its repr as a double (the code measures itself). */
static double run_value(sbx *h, const char *code) {
  sbx_py_result *r = NULL;
  if (sbx_python_exec(h, code, NULL, &r) != SBX_OK) die("exec", h);
  if (r->error != SBX_PY_OK || !r->repr) {
    fprintf(stderr, "bench_python: %s\n%s\n", r->error_message ? r->error_message : "", r->traceback ? r->traceback : "");
    exit(1);
  }
  double v = atof(r->repr);
  sbx_free(r);
  return v;
}

static double run_ms(sbx *h, const char *code) {
  sbx_py_result *r = NULL;
  double t0 = now_ms();
  if (sbx_python_exec(h, code, NULL, &r) != SBX_OK || r->error != SBX_PY_OK) die("exec", h);
  double t = now_ms() - t0;
  sbx_free(r);
  return t;
}

/* Plain python3 (or `exe`): spawn and wait, returning wall ms; stdout captured in out. */
static double plain_exe(const char *exe, const char *code, char *out, size_t outsz) {
  int p[2];
  if (pipe(p)) die("pipe", NULL);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, p[1], 1);
  posix_spawn_file_actions_addclose(&fa, p[0]);
  char *argv[] = {(char *)exe, "-c", (char *)code, NULL};
  double t0 = now_ms();
  pid_t pid;
  if (posix_spawn(&pid, argv[0], &fa, NULL, argv, environ) != 0) die("spawn python", NULL);
  close(p[1]);
  size_t got = 0;
  ssize_t r;
  while ((r = read(p[0], out + got, outsz - 1 - got)) > 0) got += (size_t)r;
  out[got] = 0;
  close(p[0]);
  int st;
  waitpid(pid, &st, 0);
  posix_spawn_file_actions_destroy(&fa);
  return now_ms() - t0;
}

static double plain(const char *code, char *out, size_t outsz) {
  return plain_exe("/usr/bin/python3", code, out, outsz);
}

static int echo_tool(void *ud, sbx *h, const char *name, const char *args, char **result, char **error) {
  (void)ud, (void)h, (void)name, (void)error;
  *result = strdup(args);
  return 0;
}

int main(int argc, char **argv) {
  signal(SIGPIPE, SIG_IGN);
  int rounds = argc > 1 ? atoi(argv[1]) : 1;
  if (rounds < 1) rounds = 1;
  enum { NCOLD = 9, NWARM = 2000, NTOOL = 1000, NREAD = 20, NSUM = 7, NPLAIN = 9 };
  for (int round = 0; round < rounds; round++) {
    /* ---- the floor ---- */
    char out[256];
    double pl[NPLAIN];
    for (int i = 0; i < NPLAIN; i++) pl[i] = plain("pass", out, sizeof out);
    double plain_start = median(pl, NPLAIN), plain_start_best = pl[0];

    /* ---- cold: a new sandbox each time ---- */
    double cold[NCOLD], cold_best;
    for (int i = 0; i < NCOLD; i++) {
      sbx *h;
      double t0 = now_ms();
      if (sbx_open(NULL, SBX_OPEN_MEMORY, &h) != SBX_OK) die("open", h);
      sbx_py_result *r = NULL;
      if (sbx_python_exec(h, "pass", NULL, &r) != SBX_OK || r->error != SBX_PY_OK) die("first call", h);
      cold[i] = now_ms() - t0;
      sbx_free(r);
      sbx_close(h);
    }
    double cold_med = median(cold, NCOLD);
    cold_best = cold[0];

    sbx *h;
    if (sbx_open(NULL, SBX_OPEN_MEMORY, &h) != SBX_OK) die("open", h);
    sbx_tool_def tool = {"echo", "Return the payload.", NULL, NULL, 0};
    if (sbx_tools_register(h, &tool, 1, echo_tool, NULL) != SBX_OK) die("register", h);
    run_ms(h, "x = 0");

    /* ---- warm x += 1 ---- */
    double *warm = malloc(sizeof(double) * NWARM);
    for (int i = 0; i < NWARM; i++) warm[i] = run_ms(h, "x += 1");
    double warm_med = median(warm, NWARM), warm_min = warm[0];
    free(warm);

    /* ---- tool round trip, timed inside Python ---- */
    char code[512];
    snprintf(code, sizeof code,
             "from host_tools import call\nimport time\nts = []\n"
             "for i in range(%d):\n"
             "    t = time.perf_counter()\n"
             "    call('echo', {'i': i})\n"
             "    ts.append(time.perf_counter() - t)\n"
             "ts.sort()\nts[len(ts) // 2] * 1e6",
             NTOOL);
    double tool_us = run_value(h, code);

    /* ---- 1 MB file in /data ---- */
    char *mb = malloc(1 << 20);
    for (int i = 0; i < (1 << 20); i++) mb[i] = (char)('a' + i % 26);
    if (sbx_write_file(h, "/data/one_mb.txt", mb, 1 << 20, 0) != SBX_OK) die("write", h);
    free(mb);
    double rd_in[NREAD], rd_call[NREAD];
    for (int i = 0; i < NREAD; i++) {
      double t0 = now_ms();
      rd_in[i] = run_value(h, "import time\nt = time.perf_counter()\n"
                              "with open('/data/one_mb.txt', 'rb') as f:\n    n = len(f.read())\n"
                              "assert n == 1 << 20\n(time.perf_counter() - t) * 1e3");
      rd_call[i] = now_ms() - t0;
    }
    double read_in = median(rd_in, NREAD), read_call = median(rd_call, NREAD);
    /* A warm call once the file is there (localsandbox's per-call cost grows with it). */
    double after[200];
    for (int i = 0; i < 200; i++) after[i] = run_ms(h, "x += 1");
    double warm_after = median(after, 200);

    /* ---- the same two on a sandbox in a database file (history rows on disk) ---- */
    sbx *hf;
    if (sbx_open(NULL, SBX_OPEN_TEMP, &hf) != SBX_OK) die("open temp", hf);
    if (sbx_tools_register(hf, &tool, 1, echo_tool, NULL) != SBX_OK) die("register", hf);
    run_ms(hf, "x = 0");
    double fw[500];
    for (int i = 0; i < 500; i++) fw[i] = run_ms(hf, "x += 1");
    double file_warm = median(fw, 500);
    double file_tool = run_value(hf, code);
    sbx_close(hf);

    /* ---- sum(range(10**6)), alternating with plain python3 (the machine is shared) ---- */
    const char *pystatic = getenv("SBX_BENCH_PYSTATIC");
    const char *sum_code = "import time\nb = 1e9\nfor _ in range(10):\n"
                           "    t = time.perf_counter()\n    sum(range(10**6))\n    b = min(b, time.perf_counter() - t)\n"
                           "print(b * 1e3)";
    double sums[NSUM], sum_calls[NSUM], psum[NSUM], ssum[NSUM];
    for (int i = 0; i < NSUM; i++) {
      ssum[i] = 0;
      if (pystatic && *pystatic) {
        plain_exe(pystatic, sum_code, out, sizeof out);
        ssum[i] = atof(out);
      }
      double t0 = now_ms();
      sums[i] = run_value(h, "import time\nb = 1e9\nfor _ in range(10):\n"
                             "    t = time.perf_counter()\n    sum(range(10**6))\n"
                             "    b = min(b, time.perf_counter() - t)\nb * 1e3");
      sum_calls[i] = now_ms() - t0;
      plain(sum_code, out, sizeof out);
      psum[i] = atof(out);
    }
    double sum_in = median(sums, NSUM), sum_call = median(sum_calls, NSUM), plain_sum = median(psum, NSUM);
    double sum_best = sums[0], plain_sum_best = psum[0];
    double static_sum = median(ssum, NSUM), static_sum_best = ssum[0];
    sbx_close(h);

    printf("python benchmark: median (best) of repeated runs; lower is better\n\n");
    printf("%-42s %22s %22s %9s %4s\n", "measure", "sbx", "floor", "target", "met");
    printf("%-42s %10.2f (%6.2f) ms %10.2f (%6.2f) ms %6s ms %4s\n", "first call in a new sandbox",
           cold_med, cold_best, plain_start, plain_start_best, "< 30", cold_med < 30 ? "yes" : cold_best < 30 ? "best" : "NO");
    printf("%-42s %10.1f (%6.1f) us %10.0f (%6.0f) us %6s us %4s\n", "warm call x += 1 (floor: python3 -c)",
           warm_med * 1e3, warm_min * 1e3, plain_start * 1e3, plain_start_best * 1e3, "< 100",
           warm_med * 1e3 < 100 ? "yes" : "NO");
    printf("%-42s %10.1f          us %22s %6s us %4s\n", "host tool round trip (inside Python)", tool_us, "-",
           "< 200", tool_us < 200 ? "yes" : "NO");
    printf("%-42s %10.1f          us\n", "  warm call, sandbox in a file", file_warm * 1e3);
    printf("%-42s %10.1f          us\n", "  tool round trip, sandbox in a file", file_tool);
    printf("%-42s %10.2f          ms\n", "read 1 MB from /data (inside Python)", read_in);
    printf("%-42s %10.2f          ms\n", "  the whole call doing it", read_call);
    printf("%-42s %10.1f          us\n", "warm call with the 1 MB file present", warm_after * 1e3);
    printf("%-42s %10.2f (%6.2f) ms %10.2f (%6.2f) ms %9s %4s\n", "sum(range(10**6)) inside Python", sum_in,
           sum_best, plain_sum, plain_sum_best, "1.2x",
           sum_in <= plain_sum * 1.2 ? "yes" : sum_best <= plain_sum_best * 1.2 ? "best" : "NO");
    printf("%-42s %10.2f          ms\n", "  the whole call (10 sums)", sum_call);
    if (static_sum > 0)
      printf("%-42s %10.2f (%6.2f) ms\n", "  same, libpython3.11.a embedded", static_sum, static_sum_best);
    printf("\nratios\n");
    printf("  first call: %.1fx a python3 -c start (best %.1fx); localsandbox 2700-3200 ms = %.0f-%.0fx slower\n",
           cold_med / plain_start, cold_best / plain_start_best, 2700 / cold_med, 3200 / cold_med);
    printf("  warm call: %.0fx faster than a python3 -c process; localsandbox 6-7 ms = %.0f-%.0fx slower\n",
           plain_start / warm_med, 6 / warm_med, 7 / warm_med);
    printf("  tool round trip: localsandbox 2-4 ms = %.0f-%.0fx slower\n", 2000 / tool_us, 4000 / tool_us);
    printf("  call with a 1 MB file present: localsandbox 200-285 ms = %.0f-%.0fx slower "
           "(the call reading it: %.0f-%.0fx)\n",
           200 / warm_after, 285 / warm_after, 200 / read_call, 285 / read_call);
    printf("  sum(range(10**6)): %.2fx plain python3 (best %.2fx)\n", sum_in / plain_sum, sum_best / plain_sum_best);
    if (static_sum > 0)
      printf("  sum(range(10**6)) with libpython3.11.a embedded (no LTO): %.2fx plain python3 (best %.2fx)\n",
             static_sum / plain_sum, static_sum_best / plain_sum_best);
  }
  return 0;
}
