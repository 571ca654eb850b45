/*
 * python3, python - run Python in the sandbox's jailed worker from the shell.
 *
 *   python3 [-BEIOqsSu] [-W ARG] [-X OPT] (-c CODE | -m MODULE | FILE | -) [ARG...]
 *   python3 -V | --version
 *
 * Like the real interpreter: sys.argv holds the arguments, the script runs as
 * __main__ in a fresh namespace (modules stay imported in the worker between
 * commands), stdin, stdout and stderr are the command's own (so `cat x |
 * python3 -c ... | sort` streams), the working directory is the shell's, and
 * the exit status is the script's (SystemExit), 1 after an uncaught exception
 * (its traceback on stderr), 2 when the script file cannot be read. Without a
 * script operand the script is read from stdin. Interpreter options that only
 * tune CPython are accepted and ignored. The shell's limits and cancel stop
 * the script (interrupt, then kill: status 137).
 *
 * os.environ is the shell's exported environment while the script runs
 * (the worker's own again afterwards).
 *
 * Design decision: the command needs the whole sandbox (ctx->sandbox), not
 * just the store; the shell holds the sandbox's lock while it runs, so the call
 * opens the loan (py_stream.store_held, src/py/py_loan.c): the FUSE server and
 * tool callbacks use the sandbox while the script waits.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "py/py_int.h"

CMD_DEFINE("python3", cmd_python3_main);
CMD_DEFINE("python", cmd_python3_main);

#define PY_CMD_MAX_SCRIPT (16u << 20)

static const char usage[] =
    "usage: python3 [option] ... [-c cmd | -m mod | file | -] [arg] ...\n"
    "Options: -c cmd, -m mod, -V (version); -B -E -I -O -q -s -S -u -W arg -X opt are ignored.\n"
    "Runs in the sandbox's Python worker (CPython 3.11 in a jail).\n";

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

int cmd_python3_main(cmd_ctx *ctx, int argc, char **argv) {
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
