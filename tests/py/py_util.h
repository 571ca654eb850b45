/*
 * py_util.h - helpers for the Python tests: run code and keep the result,
 * count the jail's processes on the host. Header-only, one per test program.
 */
#ifndef SBX_TESTS_PY_UTIL_H
#define SBX_TESTS_PY_UTIL_H

#include <ctype.h>
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "api/api_util.h"
#include "harness.h"
#include "sbx.h"

#define UNUSED __attribute__((unused))

/* Runs code with options (NULL: defaults); returns the result (or NULL when
 * the call itself failed, after printing why). Free with sbx_free. */
static UNUSED sbx_py_result *py_run_opt(sbx *h, const char *code, const sbx_py_options *o) {
  sbx_py_result *r = NULL;
  int rc = sbx_python_exec(h, code, o, &r);
  if (rc != SBX_OK) {
    fprintf(stderr, "  python call failed: rc %d: %s\n", rc, sbx_errmsg(h));
    return NULL;
  }
  if (r->error != SBX_PY_OK && getenv("PY_TEST_VERBOSE"))
    fprintf(stderr, "  [%d] %s: %s\n%s", r->error, r->error_type ? r->error_type : "",
            r->error_message ? r->error_message : "", r->traceback ? r->traceback : "");
  return r;
}

static UNUSED sbx_py_result *py_run(sbx *h, const char *code) { return py_run_opt(h, code, NULL); }

/* The error kind (SBX_PY_*) of running code with options (NULL: defaults),
 * or -1 when the call itself failed. */
static UNUSED int py_error(sbx *h, const char *code, const sbx_py_options *o) {
  sbx_py_result *r = py_run_opt(h, code, o);
  if (!r) return -1;
  int error = r->error;
  sbx_free(r);
  return error;
}

/* The repr of a trailing expression, copied into a static buffer ("" if none,
 * "<error N>" when the call failed). */
static UNUSED const char *py_eval(sbx *h, const char *code) {
  static char buf[4096];
  sbx_py_result *r = py_run(h, code);
  if (!r) return "<call failed>";
  if (r->error != SBX_PY_OK) snprintf(buf, sizeof buf, "<error %d: %s>", r->error,
                                      r->error_message ? r->error_message : "");
  else snprintf(buf, sizeof buf, "%s", r->repr ? r->repr : "");
  sbx_free(r);
  return buf;
}

/* Runs code that outlives its time limit under timeout and grace (seconds)
 * and checks the call ended SBX_PY_TIMEOUT with `killed` as want_killed: 0
 * when the interrupt stopped the code, 1 when the worker had to be killed.
 * For the timeout tests of the Python and escape suites. */
static UNUSED void check_py_timeout(sbx *h, const char *code, double timeout, double grace,
                                    int want_killed) {
  sbx_py_options o = {.timeout = timeout, .grace = grace};
  sbx_py_result *r = py_run_opt(h, code, &o);
  REQUIRE(r);
  CHECK_EQ(r->error, SBX_PY_TIMEOUT);
  CHECK_EQ(r->killed, want_killed);
  sbx_free(r);
}

/* Runs a script that would not end by itself (it prints "after" when it
 * does), cancels it from another thread after_ms later, and checks that the
 * call ends SBX_CANCELED, soon, without reaching "after". */
static UNUSED void check_bash_cancel(sbx *h, const char *script, int after_ms) {
  cancel_timer c = {h, after_ms};
  pthread_t t;
  pthread_create(&t, NULL, cancel_later, &c);
  sbx_bash_result r;
  double t0 = harness_now_s();
  int rc = sbx_bash(h, script, strlen(script), &r);
  double secs = harness_now_s() - t0;
  pthread_join(t, NULL);
  CHECK_EQ(rc, SBX_CANCELED);
  CHECK(secs < 30);
  CHECK(!r.out || !strstr(r.out, "after"));
  sbx_bash_result_free(&r);
}

/* Processes that descend from this test process: the jails it started (their
 * helper, init, worker and anything those started). Counting descendants
 * keeps the count ours on a shared machine. Orphans come back to us because
 * main() makes the test a child subreaper (PR_SET_CHILD_SUBREAPER), so a
 * leaked jail process is still counted, zombie or not. */
static UNUSED int count_jail_processes(void) {
  enum { MAXP = 1 << 22 };
  static int ppid_of[MAXP + 1];
  memset(ppid_of, -1, sizeof ppid_of);
  DIR *d = opendir("/proc");
  if (!d) return -1;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (!isdigit((unsigned char)e->d_name[0])) continue;
    int pid = atoi(e->d_name);
    if (pid <= 0 || pid > MAXP) continue;
    char path[300], line[256];
    snprintf(path, sizeof path, "/proc/%s/status", e->d_name);
    FILE *f = fopen(path, "r");
    if (!f) continue;
    while (fgets(line, sizeof line, f))
      if (sscanf(line, "PPid: %d", &ppid_of[pid]) == 1) break;
    fclose(f);
  }
  closedir(d);
  int me = (int)getpid(), n = 0;
  for (int pid = 1; pid <= MAXP; pid++) {
    if (ppid_of[pid] < 0 || pid == me) continue;
    int p = ppid_of[pid], hops = 0;
    while (p > 0 && p != me && p <= MAXP && hops++ < 64) p = ppid_of[p];
    n += p == me;
  }
  return n;
}

/* Makes orphaned descendants our children (see count_jail_processes). */
static UNUSED void become_subreaper(void) { prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); }

/* The start of main() in a program that uses the jail: the harness, this
 * process the subreaper of the jail's orphans, and *h a new in-memory
 * sandbox. 0, or -1 after saying why the sandbox did not open. */
static UNUSED int py_test_begin(int argc, char **argv, sbx **h) {
  harness_init(argc, argv);
  become_subreaper();
  if (sbx_open(NULL, SBX_OPEN_MEMORY, h) != SBX_OK) {
    fprintf(stderr, "sbx_open of the test sandbox failed\n");
    return -1;
  }
  return 0;
}

/* Closes *h (NULL after) and returns the jail processes left on the host. */
static UNUSED int close_and_count_jail_processes(sbx **h) {
  sbx_close(*h);
  *h = NULL;
  return count_jail_processes();
}

/* A program's closing check: as many jail processes on the host as `before`
 * (counted before its first test); more is a failure of the program. */
static UNUSED void check_no_jail_processes_left(int before) {
  int after = count_jail_processes();
  if (after != before) {
    fprintf(stderr, "  %d jail processes left on the host\n", after - before);
    harness_failed++;
  }
}

#endif
