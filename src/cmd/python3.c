/*
 * python3, python - a fresh CPython interpreter per invocation, in the
 * sandbox's jail, as on Linux.
 *
 *   python3 [option] ... [-c cmd | -m mod | file | -] [arg] ...
 *
 * Every invocation is a new process of Debian's /usr/bin/python3 in the jail
 * (src/py/py_spawn.c): modules are imported fresh from the store (a file the
 * shell just changed with `sed -i` is what the next `python3` runs), atexit
 * handlers and finally blocks run, and the exit status is the interpreter's
 * (128 + N after signal N). All of CPython's options and PYTHON* variables
 * work as they do there. stdin, stdout and stderr stream through the
 * pipeline, os.environ is the shell's exported variables, the directory the
 * shell's; the shell's time limits, `timeout` and cancel kill it.
 *
 * Design decision: speed comes from the jail's fork server
 * (worker/forkserver.py), a pre-initialised interpreter that forks a child
 * per call and runs the script in it, rebuilt to look like a fresh start;
 * options it cannot honour that way (-I, -X, -O, -W, PYTHONHASHSEED...) make
 * the child exec the real interpreter instead. `python` is python3 (Debian's
 * python-is-python3). The persistent interpreter with named contexts is
 * sbx_python_exec (execute_python), not this command; `from host_tools
 * import call, search` works in both.
 */
#include "cmd/cmd.h"
#include "cmd/host.h"

CMD_DEFINE("python3", cmd_python3_main);
CMD_DEFINE("python", cmd_python3_main);

#define PY_CMD_INTERPRETER "/usr/bin/python3"

int cmd_python3_main(cmd_ctx *ctx, int argc, char **argv) {
  return cmd_jail_exec(ctx, PY_CMD_INTERPRETER, argc, argv);
}
