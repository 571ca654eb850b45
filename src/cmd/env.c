/*
 * env - run a program in a modified environment; printenv - print it
 * (GNU coreutils compatible).
 *
 *   env [OPTION]... [-] [NAME=VALUE]... [COMMAND [ARG]...]
 *   -i, --ignore-environment  start with an empty environment
 *   -0, --null                end each output line with NUL, not newline
 *   -u, --unset=NAME          remove variable from the environment
 *   -C, --chdir=DIR           change working directory to DIR
 *   -S, --split-string=S      process and split S into separate arguments
 *   -v, --debug               print verbose information for each step
 *   printenv [OPTION]... [VARIABLE]...   (-0, --null)
 *
 * Design decisions: the command runs through ctx->io->run_env (the whole
 * environment and the directory are handed over) or, when the caller lacks
 * it and nothing changed, ctx->io->run. A name that is neither a table
 * command nor an executable file on PATH in the store fails like a missing
 * program: "env: 'x': No such file or directory", status 127.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/lib/buf.h"
#include "cmd/lib/fs.h"
#include "cmd/lib/gnu.h"

CMD_DEFINE("env", cmd_env_main);
CMD_DEFINE("printenv", cmd_printenv_main);

static const char env_usage[] =
    "Usage: env [OPTION]... [-] [NAME=VALUE]... [COMMAND [ARG]...]\n"
    "Set each NAME to VALUE in the environment and run COMMAND.\n"
    "\n"
    "  -i, --ignore-environment  start with an empty environment\n"
    "  -0, --null           end each output line with NUL, not newline\n"
    "  -u, --unset=NAME     remove variable from the environment\n"
    "  -C, --chdir=DIR      change working directory to DIR\n"
    "  -S, --split-string=S  process and split S into separate arguments;\n"
    "                        used to pass multiple arguments on shebang lines\n"
    "  -v, --debug          print verbose information for each processing step\n"
    CMD_HELP_VERSION_LINES
    "\n"
    "A mere - implies -i.  If no COMMAND, print the resulting environment.\n";

static const char printenv_usage[] =
    "Usage: printenv [OPTION]... [VARIABLE]...\n"
    "Print the values of the specified environment VARIABLE(s).\n"
    "If no VARIABLE is specified, print name and value pairs for them all.\n"
    "\n"
    "  -0, --null     end each output line with NUL, not newline\n"
    "      --help     display this help and exit\n"
    "      --version  output version information and exit\n";

/* A growable environment (arena strings in a malloc'd array). */
typedef struct envv {
  char **v;       /* malloc'd, NULL-terminated */
  size_t n, cap;  /* entries / allocated */
} envv;

static int env_find(envv *e, const char *name, size_t nl) {
  for (size_t i = 0; i < e->n; i++)
    if (strncmp(e->v[i], name, nl) == 0 && e->v[i][nl] == '=') return (int)i;
  return -1;
}

static void env_unset(envv *e, const char *name) {
  size_t nl = strlen(name);
  int i;
  while ((i = env_find(e, name, nl)) >= 0) {
    memmove(&e->v[i], &e->v[i + 1], (e->n - (size_t)i) * sizeof *e->v);
    e->n--;
  }
}

static int env_set(envv *e, char *kv) {
  const char *eq = strchr(kv, '=');
  size_t nl = (size_t)(eq - kv);
  int i = nl ? env_find(e, kv, nl) : -1;
  if (i >= 0) {
    e->v[i] = kv;
    return 0;
  }
  if (cmd_grow(&e->v, &e->cap, e->n + 2, sizeof *e->v)) return -ENOMEM;
  e->v[e->n++] = kv;
  e->v[e->n] = NULL;
  return 0;
}

/* Splits -S's string like GNU env: whitespace separated, '...' and "..."
 * quoting, backslash escapes (\n \t \_ for space, \c ends), # comments. */
static int split_string(cmd_ctx *ctx, const char *s, char ***out, int *n) {
  size_t cap = 8, cnt = 0;
  char **v = cmd_alloc(ctx, cap * sizeof *v);
  char *buf = cmd_alloc(ctx, strlen(s) + 1);
  if (!v || !buf) return -ENOMEM;
  const char *p = s;
  for (;;) {
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\v' || *p == '\f' || *p == '\r')
      p++;
    if (!*p) break;
    if (*p == '#') break;
    char *o = buf;
    bool stop = false;
    while (*p && !strchr(" \t\n\v\f\r", *p)) {
      if (*p == '\'') {
        p++;
        while (*p && *p != '\'') {
          if (*p == '\\' && (p[1] == '\\' || p[1] == '\'')) p++;
          *o++ = *p++;
        }
        if (*p != '\'') {
          cmd_errorf(ctx, "no terminating quote in -S string");
          return -EINVAL;
        }
        p++;
      } else if (*p == '"') {
        p++;
        while (*p && *p != '"') {
          if (*p == '\\' && p[1]) {
            p++;
            switch (*p) {
            case 'n': *o++ = '\n'; break;
            case 't': *o++ = '\t'; break;
            case 'r': *o++ = '\r'; break;
            case 'f': *o++ = '\f'; break;
            case 'v': *o++ = '\v'; break;
            case '_': *o++ = ' '; break;
            default: *o++ = *p;
            }
            p++;
          } else {
            *o++ = *p++;
          }
        }
        if (*p != '"') {
          cmd_errorf(ctx, "no terminating quote in -S string");
          return -EINVAL;
        }
        p++;
      } else if (*p == '\\' && p[1]) {
        p++;
        switch (*p) {
        case 'n': *o++ = '\n'; break;
        case 't': *o++ = '\t'; break;
        case '_': *o++ = ' '; break;
        case 'c': stop = true; break;
        default: *o++ = *p;
        }
        p++;
        if (stop) break;
      } else {
        *o++ = *p++;
      }
    }
    *o = 0;
    if (cnt + 1 >= cap) {
      char **nv = cmd_alloc(ctx, cap * 2 * sizeof *nv);
      if (!nv) return -ENOMEM;
      memcpy(nv, v, cnt * sizeof *nv);
      v = nv;
      cap *= 2;
    }
    v[cnt++] = cmd_strdup(ctx, buf);
    if (stop) break;
  }
  *out = v;
  *n = (int)cnt;
  return 0;
}

int cmd_env_main(cmd_ctx *ctx, int argc, char **argv) {
  enum { OPT_DEFSIG = CMD_OPT_LONG, OPT_IGNSIG, OPT_BLOCKSIG, OPT_LISTSIG };
  static const char spec[] =
      "+(default-signal)::(ignore-signal)::(block-signal)::(list-signal-handling)(help)"
      "(version)i(ignore-environment)0(null)u:(unset)C:(chdir)S:(split-string)v(debug)";
  /* options stop at the first operand (POSIX mode), like GNU env */
  cmd_getopt_state st = CMD_GETOPT_INIT;
  bool ignore = false, nul = false, debug = false;
  const char *chdir_to = NULL;
  const char **unsets = cmd_alloc(ctx, (size_t)(argc + 1) * sizeof *unsets);
  int nunset = 0;
  char **split = NULL;
  int nsplit = 0;
  if (!unsets) return 125;
  int c;
  /* A loop: -S splits at once (shown when -v came first), a bad option is 125. */
  while ((c = cmd_getopt(ctx, &st, argc, argv, spec, NULL)) != -1) {
    switch (c) {
    case 'i': ignore = true; break;
    case '0': nul = true; break;
    case 'u': unsets[nunset++] = st.arg; break;
    case 'C': chdir_to = st.arg; break;
    case 'S':
      if (split_string(ctx, st.arg, &split, &nsplit) < 0) return 125;
      if (debug) { /* GNU shows the split when -v came first */
        cmd_err_raw(ctx, "split -S:  %s\n", cmd_gnu_quote(ctx, st.arg));
        for (int k = 0; k < nsplit; k++)
          cmd_err_raw(ctx, "%s%s\n", k ? "     &    " : " into:    ", cmd_gnu_quote(ctx, split[k]));
      }
      break;
    case 'v': debug = true; break;
    case OPT_DEFSIG: case OPT_IGNSIG: case OPT_BLOCKSIG: case OPT_LISTSIG: break;
    CMD_CASES_HELP_VERSION(ctx, env_usage);
    default: return 125;
    }
  }
  int i = st.ind;
  if (i < argc && strcmp(argv[i], "-") == 0) {
    ignore = true;
    i++;
  }
  /* -S's words go in front of the remaining operands */
  char **args = argv + i;
  int nargs = argc - i;
  if (split) {
    char **na = cmd_alloc(ctx, (size_t)(nsplit + nargs + 1) * sizeof *na);
    if (!na) return 125;
    memcpy(na, split, (size_t)nsplit * sizeof *na);
    memcpy(na + nsplit, args, (size_t)nargs * sizeof *na);
    args = na;
    nargs += nsplit;
  }
  envv e = {0};
  if (!ignore && ctx->env)
    for (char *const *p = ctx->env; *p; p++)
      if (env_set(&e, *p) < 0) goto oom;
  if (ignore && debug) cmd_err_raw(ctx, "cleaning environ\n");
  for (int k = 0; k < nunset; k++) {
    if (!*unsets[k] || strchr(unsets[k], '=')) {
      cmd_errorf(ctx, "cannot unset %s: %s", cmd_gnu_quote(ctx, unsets[k]),
                 cmd_strerror(-EINVAL));
      free(e.v);
      return 125;
    }
    if (debug && !ignore) cmd_err_raw(ctx, "unset:    %s\n", unsets[k]); /* -i: GNU skips */
    env_unset(&e, unsets[k]);
  }
  int a = 0;
  for (; a < nargs && strchr(args[a], '='); a++) {
    if (debug) cmd_err_raw(ctx, "setenv:   %s\n", args[a]);
    if (env_set(&e, args[a]) < 0) goto oom;
  }
  if (!e.v) {
    e.v = calloc(1, sizeof *e.v);
    if (!e.v) goto oom;
  }
  if (a >= nargs) {
    if (chdir_to) {
      cmd_errorf(ctx, "must specify command with --chdir (-C)");
      free(e.v);
      return cmd_usage_hint(ctx, 125);
    }
    char end = nul ? '\0' : '\n';
    for (size_t k = 0; k < e.n; k++) {
      cmd_outs(ctx, e.v[k]);
      cmd_outc(ctx, end);
    }
    free(e.v);
    return 0;
  }
  if (nul) {
    cmd_errorf(ctx, "cannot specify --null (-0) with command");
    free(e.v);
    return cmd_usage_hint(ctx, 125);
  }
  const char *cwd = NULL;
  if (chdir_to) {
    store_stat dst;
    int rc = cmd_fs_stat(ctx, chdir_to, &dst);
    if (rc == 0 && !S_ISDIR(dst.mode)) rc = -ENOTDIR;
    if (rc < 0) {
      cmd_errorf(ctx, "cannot change directory to %s: %s", cmd_gnu_quoteaf(ctx, chdir_to),
                 cmd_strerror(rc));
      free(e.v);
      return 125;
    }
    char *real = NULL;
    if (store_realpath(ctx->store, ctx->cwd, chdir_to, &real) == 0) {
      cwd = cmd_strdup(ctx, real);
      free(real);
    }
  }
  const char *path_env = NULL;
  int pi = env_find(&e, "PATH", 4);
  if (pi >= 0) path_env = e.v[pi] + 5;
  if (debug) {
    cmd_err_raw(ctx, "executing: %s\n", args[a]);
    for (int k = a; k < nargs; k++)
      cmd_err_raw(ctx, "   arg[%d]= %s\n", k - a, cmd_gnu_quote(ctx, args[k]));
  }
  if (!cmd_fs_runnable(ctx, args[a], path_env)) {
    cmd_errorf(ctx, "%s: %s", cmd_gnu_quote(ctx, args[a]), cmd_strerror(-ENOENT));
    if (strpbrk(args[a], " \t\n\v\f\r"))
      cmd_errorf(ctx, "use -[v]S to pass options in shebang lines");
    free(e.v);
    return 127;
  }
  int status;
  cmd_flush(ctx);
  if (ctx->io && ctx->io->run_env)
    status = ctx->io->run_env(ctx->io_ud, nargs - a, args + a, e.v, cwd, 0, 1);
  else if (ctx->io && ctx->io->run)
    status = ctx->io->run(ctx->io_ud, nargs - a, args + a, 0, 1);
  else
    status = 126;
  free(e.v);
  return status;
oom:
  free(e.v);
  cmd_errorf(ctx, "memory exhausted");
  return 125;
}

int cmd_printenv_main(cmd_ctx *ctx, int argc, char **argv) {
  cmd_getopt_state st = CMD_GETOPT_INIT;
  bool nul = false;
  int c;
  /* A loop: a bad option is status 2. */
  while ((c = cmd_getopt(ctx, &st, argc, argv, "(help)(version)0(null)", NULL)) != -1) {
    switch (c) {
    case '0': nul = true; break;
    CMD_CASES_HELP_VERSION(ctx, printenv_usage);
    default: return 2;
    }
  }
  char end = nul ? '\0' : '\n';
  if (st.ind >= argc) {
    for (char *const *p = ctx->env; p && *p; p++) {
      cmd_outs(ctx, *p);
      cmd_outc(ctx, end);
    }
    return 0;
  }
  int missing = 0;
  for (int i = st.ind; i < argc; i++) {
    bool found = false;
    if (!strchr(argv[i], '=')) {
      const char *v = cmd_getenv(ctx, argv[i]);
      if (v) {
        cmd_outs(ctx, v);
        cmd_outc(ctx, end);
        found = true;
      }
    }
    if (!found) missing++;
  }
  return missing ? 1 : 0;
}
