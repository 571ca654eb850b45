/*
 * fuzz_sh_deadline.c - libFuzzer target for the promise that a timeout ends
 * a call: the input is a shell script (NULs dropped, at most 4 KiB) run with
 * a 50 ms timeout in a shell that already holds long strings to chew on (a
 * and z: 4,000 bytes; s: a, "b", a; u: UTF-8 and an invalid byte) and
 * extglob on. Expansions, pattern matching, loops, builtins and commands all
 * run under that deadline; the target aborts (a finding) when a call uses
 * more than 500 ms of CPU past it, i.e. when some loop that depends on the
 * input does not poll, or returns more than 5 s after it on the wall clock
 * (a wait that does not poll). CPU time, not wall time, for the first: on a
 * loaded machine a trivial call once took 603 ms of wall time in CI. The setup runs before each input with its own generous
 * timeout and is not timed.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sbx.h"

#define DEADLINE_MS 50
#define GRACE_MS 500
#define WALL_GRACE_MS 5000

static sbx *h;

static const char setup[] =
    "shopt -s extglob; cd /data; printf -v a '%4000s'; a=${a// /a}; z=$a; s=${a}b$a;"
    " u=$'\\xc3\\xa9\\xe2\\x82\\xac\\xff'; u=$u$u$u$u$u$u$u$u$u$u$u$u$u$u$u$u; u=$u$u$u$u$u$u$u$u\n";

static double now_ms(clockid_t clock) {
  struct timespec ts;
  clock_gettime(clock, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void set_timeout(uint64_t ms) {
  sbx_limits lim;
  sbx_limits_preset(SBX_PRESET_NORMAL, &lim);
  lim.loop_iterations = 100000000;
  lim.command_count = 100000000;
  lim.output_bytes = 1 << 20;
  lim.string_size = 1 << 22;
  lim.array_size = 100000;
  lim.timeout_ms = ms;
  sbx_set_limits(h, &lim);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 4096) return 0;
  if (!h && sbx_open(NULL, SBX_OPEN_MEMORY, &h) != SBX_OK) abort();
  char *script = malloc(size + 1);
  size_t n = 0;
  for (size_t i = 0; i < size; i++)
    if (data[i]) script[n++] = (char)data[i];
  script[n] = 0;
  sbx_bash_result r;
  set_timeout(10000);
  sbx_bash(h, setup, sizeof setup - 1, &r);
  sbx_bash_result_free(&r);
  set_timeout(DEADLINE_MS);
  double t0 = now_ms(CLOCK_MONOTONIC), c0 = now_ms(CLOCK_PROCESS_CPUTIME_ID);
  sbx_bash(h, script, n, &r);
  double took = now_ms(CLOCK_MONOTONIC) - t0, cpu = now_ms(CLOCK_PROCESS_CPUTIME_ID) - c0;
  sbx_bash_result_free(&r);
  if (cpu > DEADLINE_MS + GRACE_MS || took > DEADLINE_MS + WALL_GRACE_MS) {
    fprintf(stderr, "fuzz_sh_deadline: the call took %.0f ms, %.0f ms of CPU (deadline %d ms):\n%s\n",
            took, cpu, DEADLINE_MS, script);
    abort();
  }
  sbx_shell_reset(h);
  free(script);
  return 0;
}
