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

int cli_python_main(cli_ctx *c, int argc, char **argv) {
  static const char script[] = "python3 \"$@\"";
  /* limit options first: `sbx DB python --timeout 5 -c CODE` (the shell's
   * timeout bounds the python3 command) */
  int i = 1, k;
  while ((k = cli_limit_option(argc, argv, &i)) > 0) {}
  if (k < 0 || (i > 1 && cli_apply_limits(c) != 0)) return 1;
  argv += i - 1;
  argc -= i - 1;
  sbx_bash_opts o = {0};
  o.stdin_fd = 0;
  o.name = "sbx";
  o.args = argv + 1;
  o.nargs = argc - 1;
  o.record = 1;
  o.record_name = "python";
  int status = cli_bash_streamed(c->h, script, sizeof script - 1, &o);
  return status < 0 ? cli_fail(c, "python", NULL) : status;
}
