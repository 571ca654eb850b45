/*
 * python.c - `sbx DB python [-c CODE | FILE | -] [ARG...]`: the shell's python3
 * command run from the host's command line, with the host's stdin, stdout and
 * stderr streaming, so `sbx agent.db python -c 'import sys; print(sys.argv)' a b`
 * and `cat data.csv | sbx agent.db python script.py` work like python3 would.
 * FILE is a path in the sandbox. The exit status is the script's.
 *
 * Design decision: it goes through the shell (sbx_bash_ex with "$@"), so the
 * CLI and the shell share one implementation of the interpreter: a fresh
 * python3 in the jail (src/py/py_spawn.c). The call is recorded here, once, as
 * "python": parameters {"argv": the arguments, "code": the -c code when
 * given}, result {"exitCode"}.
 * Limit options (--timeout, --preset, --limit) may come before the script.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

static void to_stdout(void *ud, const void *buf, size_t n) {
  (void)ud;
  cli_write_all(1, buf, n);
}

static void to_stderr(void *ud, const void *buf, size_t n) {
  (void)ud;
  cli_write_all(2, buf, n);
}

/* The history row of the call (as execute_python's: name "python"). */
static void record(cli_ctx *c, int argc, char **argv, int status, const struct timespec *t0,
                   const struct timespec *t1) {
  json_t *params = json_object(), *args = json_array();
  for (int i = 1; i < argc; i++) json_array_append_new(args, json_string(argv[i]));
  json_object_set_new(params, "argv", args);
  for (int i = 1; i + 1 < argc; i++)
    if (strcmp(argv[i], "-c") == 0) {
      json_object_set_new(params, "code", json_string(argv[i + 1]));
      break;
    }
  json_t *result = json_pack("{s:i}", "exitCode", status);
  char *p = params ? json_dumps(params, JSON_COMPACT) : NULL;
  char *r = result ? json_dumps(result, JSON_COMPACT) : NULL;
  double started = (double)t0->tv_sec + t0->tv_nsec / 1e9;
  double ms = ((double)(t1->tv_sec - t0->tv_sec) + (t1->tv_nsec - t0->tv_nsec) / 1e9) * 1e3;
  if (p && r) sbx_history_record(c->h, "python", p, r, NULL, started, ms, NULL);
  free(p);
  free(r);
  json_decref(params);
  json_decref(result);
}

int cli_python_main(cli_ctx *c, int argc, char **argv) {
  static const char script[] = "python3 \"$@\"";
  /* limit options first: `sbx DB python --timeout 5 -c CODE` (the shell's
   * timeout bounds the python3 command) */
  int i = 1, k;
  while ((k = cli_limit_option(argc, argv, &i)) > 0) {}
  if (k < 0 || (i > 1 && cli_apply_limits(c) != 0)) return 1;
  argv += i - 1;
  argc -= i - 1;
  sbx_bash_opts o;
  memset(&o, 0, sizeof o);
  o.stdin_fd = 0;
  o.on_stdout = to_stdout;
  o.on_stderr = to_stderr;
  o.name = "sbx";
  o.args = argv + 1;
  o.nargs = argc - 1;
  sbx_bash_result res;
  struct timespec t0, t1;
  clock_gettime(CLOCK_REALTIME, &t0);
  int rc = sbx_bash_ex(c->h, script, sizeof script - 1, &o, &res);
  clock_gettime(CLOCK_REALTIME, &t1);
  int status = res.exit_code;
  sbx_bash_result_free(&res);
  record(c, argc, argv, status, &t0, &t1);
  if (rc != SBX_OK && rc != SBX_LIMIT && rc != SBX_TIMEOUT && rc != SBX_CANCELED)
    return cli_fail(c, "python", NULL);
  return status;
}
