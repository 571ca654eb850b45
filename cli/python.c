/*
 * python.c - `sbx DB python [-c CODE | FILE | -] [ARG...]`: the shell's python3
 * command run from the host's command line, with the host's stdin, stdout and
 * stderr streaming, so `sbx agent.db python -c 'import sys; print(sys.argv)' a b`
 * and `cat data.csv | sbx agent.db python script.py` work like python3 would.
 * FILE is a path in the sandbox. The exit status is the script's.
 *
 * Design decision: it goes through the shell (sbx_bash_ex with "$@"), so the
 * CLI and the shell share one implementation of the interpreter: a fresh
 * python3 in the jail (src/py/py_spawn.c). The call is recorded by the
 * library's bash row under the name "python" (sbx_bash_opts.record_name):
 * parameters {"command": "python3 \"$@\"", "args": the arguments, "cwd"},
 * result {"exitCode"}.
 * Limit options (--timeout, --preset, --limit) may come before the script.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static void to_stdout(void *ud, const void *buf, size_t n) {
  (void)ud;
  cli_write_all(1, buf, n);
}

static void to_stderr(void *ud, const void *buf, size_t n) {
  (void)ud;
  cli_write_all(2, buf, n);
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
  o.record = 1;
  o.record_name = "python";
  sbx_bash_result res;
  int rc = sbx_bash_ex(c->h, script, sizeof script - 1, &o, &res);
  int status = res.exit_code;
  sbx_bash_result_free(&res);
  if (rc != SBX_OK && rc != SBX_LIMIT && rc != SBX_TIMEOUT && rc != SBX_CANCELED)
    return cli_fail(c, "python", NULL);
  return status;
}
