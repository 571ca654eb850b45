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
 * import call, search` works in both. On the reduced jail tier, which has no
 * fork server, the script runs in that persistent worker instead
 * (python3_in_worker below: fresh __main__, but modules stay imported).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/host.h"
#include "py/py_int.h"

CMD_DEFINE("python3", cmd_python3_main);
CMD_DEFINE("python", cmd_python3_main);

#define PY_CMD_INTERPRETER "/usr/bin/python3"

#define PY_CMD_MAX_SCRIPT (16u << 20)

static const char usage[] =
    "usage: python3 [option] ... [-c cmd | -m mod | file | -] [arg] ...\n"
    "Options: -c cmd, -m mod, -V (version); -B -E -I -O -q -s -S -u -W arg -X opt are ignored.\n"
    "Runs in the sandbox's Python worker (CPython 3.11, the reduced jail tier).\n";

static ssize_t stream_read(void *ud, void *buf, size_t n) {
  cmd_ctx *ctx = ud;
  return ctx->io->read(ctx->io_ud, 0, buf, n);
}

static int stream_write(void *ud, int fd, const void *buf, size_t n) {
  return cmd_write_fd(ud, fd, buf, n) < 0 ? -EPIPE : 0;
}

static int stream_cancelled(void *ud) { return cmd_poll(ud); }

/* Reads a whole fd of the caller (a file or stdin), bounded. */
static int slurp_fd(cmd_ctx *ctx, int fd, char **out, size_t *len) {
  size_t cap = 4096, n = 0;
  char *b = malloc(cap);
  if (!b) return -ENOMEM;
  for (;;) {
    if (n + 4096 + 1 > cap) {
      if (cap >= PY_CMD_MAX_SCRIPT) {
        free(b);
        return -EFBIG;
      }
      char *nb = realloc(b, cap * 2);
      if (!nb) {
        free(b);
        return -ENOMEM;
      }
      b = nb;
      cap *= 2;
    }
    ssize_t r = ctx->io->read(ctx->io_ud, fd, b + n, cap - n - 1);
    if (r < 0) {
      free(b);
      return (int)r;
    }
    if (r == 0) break;
    n += (size_t)r;
  }
  b[n] = 0;
  *out = b;
  *len = n;
  return 0;
}

/* The reduced jail tier has no fork server (docs/python.md): there a script
 * runs as __main__ in a fresh namespace of the persistent worker, as before
 * the fork server (modules the worker imported stay imported). */
static int python3_in_worker(cmd_ctx *ctx, int argc, char **argv) {
  const char *code = NULL, *module = NULL, *file = NULL;
  int i = 1, version = 0;
  /* CPython's own option syntax: options end at -c, -m, "-", "--" or the
   * first operand; clusters like -uc CODE work. */
  for (; i < argc && !code && !module; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--") == 0) {
      i++;
      break;
    }
    if (a[0] != '-' || a[1] == 0) break;
    if (strcmp(a, "--version") == 0) {
      version = 1;
      continue;
    }
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      cmd_outs(ctx, usage);
      return 0;
    }
    for (const char *p = a + 1; *p; p++) {
      if (*p == 'c' || *p == 'm' || *p == 'W' || *p == 'X') {
        const char *val = p[1] ? p + 1 : (i + 1 < argc ? argv[++i] : NULL);
        if (!val) {
          cmd_err_raw(ctx, "Argument expected for the -%c option\n%s", *p, usage);
          return 2;
        }
        if (*p == 'c') code = val;
        else if (*p == 'm') module = val;
        break;
      }
      if (*p == 'V') version = 1;
      else if (!strchr("BEIOqsSudbiv", *p)) {
        cmd_err_raw(ctx, "Unknown option: -%c\n%s", *p, usage);
        return 2;
      }
    }
  }
  sbx *h = ctx->sandbox;
  if (!h) {
    cmd_errorf(ctx, "Python needs the sandbox's worker, which this runner does not have");
    return 127;
  }
  if (version) {
    code = "import sys\nprint('Python ' + sys.version.split()[0])";
    module = NULL;
  }
  if (!code && !module && i < argc) file = argv[i++];

  /* sys.argv: as CPython builds it. */
  int nargs = argc - i;
  char **pargv = cmd_alloc(ctx, sizeof(char *) * (size_t)(nargs + 2));
  if (!pargv) return 1;
  /* sys.argv[0]: "-c", the module (runpy makes it the module's path), the
   * script, "-" when named, "" when the script comes from stdin unnamed. */
  pargv[0] = (char *)(code ? "-c" : module ? module : file ? file : "");
  for (int k = 0; k < nargs; k++) pargv[k + 1] = argv[i + k];
  pargv[nargs + 1] = NULL;

  char *script = NULL;
  size_t slen = 0;
  const char *filename = "<string>";
  uint64_t flags = PY_EXEC_SCRIPT | PY_EXEC_STDIN;
  if (module) {
    flags = PY_EXEC_MODULE | PY_EXEC_STDIN;
  } else if (!code) {
    int fd = 0;
    if (file && strcmp(file, "-") != 0) {
      fd = ctx->io->open(ctx->io_ud, file, O_RDONLY, 0);
      if (fd < 0) {
        cmd_err_raw(ctx, "%s: can't open file %s: [Errno %d] %s\n", ctx->name,
                    cmd_quote(ctx, cmd_abspath(ctx, file)), -fd, cmd_strerror(fd));
        return 2;
      }
      filename = cmd_abspath(ctx, file);
      flags |= PY_EXEC_FILE;
    } else {
      filename = "<stdin>";
      flags = PY_EXEC_SCRIPT | PY_EXEC_FILE; /* stdin was the script */
    }
    int r = slurp_fd(ctx, fd, &script, &slen);
    if (fd != 0) ctx->io->close(ctx->io_ud, fd);
    if (r < 0) {
      cmd_err_raw(ctx, "%s: can't read %s: %s\n", ctx->name, filename, cmd_strerror(r));
      return 2;
    }
    if (strlen(script) != slen) {
      free(script);
      cmd_err_raw(ctx, "%s: source code cannot contain null bytes\n", ctx->name);
      return 1;
    }
  }
  cmd_flush(ctx);

  sbx_py_options opt;
  memset(&opt, 0, sizeof opt);
  opt.cwd = ctx->cwd;
  opt.timeout = 1e7; /* the shell's own limits stop it, through the cancel hook */
  py_stream st = {.ud = ctx, .read = stream_read, .write = stream_write,
                  .cancelled = stream_cancelled, .store_held = 1, .env = ctx->env};
  sbx_py_result *r = NULL;
  const char *src = module ? module : code ? code : script;
  int rc = py_exec(h, src, &opt, flags, module ? NULL : filename, pargv, &st, &r);
  free(script);
  if (rc != SBX_OK) {
    cmd_errorf(ctx, "%s", sbx_errmsg(h));
    return 126;
  }
  int status = 0;
  switch (r->error) {
    case SBX_PY_OK: status = 0; break;
    case SBX_PY_EXIT: status = r->exit_code; break;
    case SBX_PY_TIMEOUT:
    case SBX_PY_KILLED:
      cmd_errorf(ctx, "%s", r->error_message ? r->error_message : "stopped");
      status = r->killed ? 137 : 130;
      break;
    default: status = r->exit_code ? r->exit_code : 1; break;
  }
  sbx_free(r);
  return status;
}

int cmd_python3_main(cmd_ctx *ctx, int argc, char **argv) {
  return cmd_jail_exec_or(ctx, PY_CMD_INTERPRETER, argc, argv, python3_in_worker);
}
