/*
 * xargs - build and execute command lines from standard input (GNU findutils
 * 4.9 compatible).
 *
 *   xargs [OPTION]... COMMAND [INITIAL-ARGS]...
 *   -0, --null  -a, --arg-file=FILE  -d, --delimiter=CHARACTER
 *   -E END  -e[END], --eof[=END]  -I R  -i[R], --replace[=R]
 *   -L MAX-LINES  -l[MAX-LINES], --max-lines[=MAX-LINES]  -n, --max-args=MAX-ARGS
 *   -o, --open-tty  -p, --interactive  -P, --max-procs=MAX-PROCS
 *   --process-slot-var=VAR  -r, --no-run-if-empty  -s, --max-chars=MAX-CHARS
 *   --show-limits  -t, --verbose  -x, --exit
 *
 * Design decisions:
 *  - Commands run one after another through ctx->io->run (-P is accepted and
 *    ignored: sequential runs keep output deterministic), with stdin from
 *    /dev/null as GNU does.
 *  - Input items are parsed line by line (quotes cannot span lines in GNU
 *    either), so memory is bounded by the batch (-s, default 128 KiB) plus
 *    one line (ctx->max_string).
 *  - Exit statuses follow GNU: 123 when some command exited 1-125, 124 when
 *    one exited 255 (stops at once), 126/127 when it cannot be run or found.
 *  - -p needs /dev/tty, which the sandbox does not have: it fails like GNU
 *    without a terminal.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/lib/buf.h"
#include "cmd/lib/fs.h"
#include "cmd/lib/gnu.h"

CMD_DEFINE("xargs", cmd_xargs_main);

static const char xargs_usage[] =
    "Usage: xargs [OPTION]... COMMAND [INITIAL-ARGS]...\n"
    "Run COMMAND with arguments INITIAL-ARGS and more arguments read from input.\n"
    "\n"
    "Mandatory and optional arguments to long options are also\n"
    "mandatory or optional for the corresponding short option.\n"
    "  -0, --null                   items are separated by a null, not whitespace;\n"
    "                                 disables quote and backslash processing and\n"
    "                                 logical EOF processing\n"
    "  -a, --arg-file=FILE          read arguments from FILE, not standard input\n"
    "  -d, --delimiter=CHARACTER    items in input stream are separated by CHARACTER,\n"
    "                                 not by whitespace; disables quote and backslash\n"
    "                                 processing and logical EOF processing\n"
    "  -E END                       set logical EOF string; if END occurs as a line\n"
    "                                 of input, the rest of the input is ignored\n"
    "                                 (ignored if -0 or -d was specified)\n"
    "  -e, --eof[=END]              equivalent to -E END if END is specified;\n"
    "                                 otherwise, there is no end-of-file string\n"
    "  -I R                         same as --replace=R\n"
    "  -i, --replace[=R]            replace R in INITIAL-ARGS with names read\n"
    "                                 from standard input, split at newlines;\n"
    "                                 if R is unspecified, assume {}\n"
    "  -L, --max-lines=MAX-LINES    use at most MAX-LINES non-blank input lines per\n"
    "                                 command line\n"
    "  -l[MAX-LINES]                similar to -L but defaults to at most one non-\n"
    "                                 blank input line if MAX-LINES is not specified\n"
    "  -n, --max-args=MAX-ARGS      use at most MAX-ARGS arguments per command line\n"
    "  -o, --open-tty               Reopen stdin as /dev/tty in the child process\n"
    "                                 before executing the command; useful to run an\n"
    "                                 interactive application.\n"
    "  -P, --max-procs=MAX-PROCS    run at most MAX-PROCS processes at a time\n"
    "  -p, --interactive            prompt before running commands\n"
    "      --process-slot-var=VAR   set environment variable VAR in child processes\n"
    "  -r, --no-run-if-empty        if there are no arguments, then do not run COMMAND;\n"
    "                                 if this option is not given, COMMAND will be\n"
    "                                 run at least once\n"
    "  -s, --max-chars=MAX-CHARS    limit length of command line to MAX-CHARS\n"
    "      --show-limits            show limits on command-line length\n"
    "  -t, --verbose                print commands before executing them\n"
    "  -x, --exit                   exit if the size (see -s) is exceeded\n"
    "      --help                   display this help and exit\n"
    "      --version                output version information and exit\n";

#define XARGS_DEFAULT_SIZE (128 * 1024)
#define XARGS_MAX_SIZE 2093736

/* Options and state of one xargs call. */
typedef struct xargs_st {
  cmd_ctx *ctx;              /* the command */
  char **init;               /* initial arguments (command first) */
  int ninit;                 /* count */
  size_t init_len;           /* their size (strlen + 1 each) */
  char **batch;              /* malloc'd item copies */
  size_t nbatch, capbatch;   /* used / allocated */
  size_t batch_len;          /* size of the batch */
  long max_args;             /* -n (0 = none) */
  long max_lines;            /* -L (0 = none) */
  size_t max_chars;          /* -s */
  const char *replace;       /* -I string or NULL */
  const char *eof;           /* -E string or NULL */
  int delim;                 /* -1 whitespace parsing, else the byte */
  bool no_empty, verbose, exit_on_size, prompt; /* -r -t -x -p */
  long lines_in_batch;       /* -L bookkeeping */
  bool ran;                  /* a command ran */
  const char *slot_var;      /* --process-slot-var NAME, or NULL */
  int status;                /* 0, 123, ... */
  bool stop;                 /* 124/126/127 or EOF string */
} xargs_st;

static int run_argv(xargs_st *x, int argc, char **argv) {
  cmd_ctx *ctx = x->ctx;
  x->ran = true;
  if (x->verbose || x->prompt) {
    for (int i = 0; i < argc; i++) cmd_err_raw(ctx, "%s%s", i ? " " : "", argv[i]);
    if (x->prompt) {
      cmd_err_raw(ctx, " ?...");
      cmd_errorf(ctx, "failed to open /dev/tty for reading: %s", cmd_strerror(-ENXIO));
      x->status = 1;
      x->stop = true;
      return 1;
    }
    cmd_err_raw(ctx, "\n");
  }
  const char *path = cmd_getenv(ctx, "PATH");
  if (!cmd_fs_runnable(ctx, argv[0], path)) {
    cmd_errorf(ctx, "%s: %s", argv[0], cmd_strerror(-ENOENT));
    x->status = 127;
    x->stop = true;
    return 127;
  }
  cmd_flush(ctx);
  int st = 126;
  if (x->slot_var && ctx->io && ctx->io->run_env) {
    /* commands run one at a time, so every one runs in slot 0 */
    size_t n = 0, vl = strlen(x->slot_var);
    while (ctx->env && ctx->env[n]) n++;
    char **env = cmd_alloc(ctx, (n + 2) * sizeof *env);
    char *def = cmd_alloc(ctx, vl + 3);
    if (env && def) {
      size_t k = 0;
      for (size_t i = 0; i < n; i++)
        if (!(strncmp(ctx->env[i], x->slot_var, vl) == 0 && ctx->env[i][vl] == '='))
          env[k++] = ctx->env[i];
      memcpy(def, x->slot_var, vl);
      memcpy(def + vl, "=0", 3);
      env[k++] = def;
      env[k] = NULL;
      st = ctx->io->run_env(ctx->io_ud, argc, argv, env, NULL, -1, 1);
    }
  } else if (ctx->io && ctx->io->run) {
    st = ctx->io->run(ctx->io_ud, argc, argv, -1, 1);
  }
  if (st == 255) {
    cmd_errorf(ctx, "%s: exited with status 255; aborting", argv[0]);
    x->status = 124;
    x->stop = true;
  } else if (st == 126 || st == 127) {
    x->status = st;
    x->stop = true;
  } else if (st != 0) {
    /* run() returns an exit status: 130 from `sh -c 'exit 130'` is a status
     * (GNU: 123), not the signal GNU would see in a wait status */
    x->status = 123;
  }
  return st;
}

/* Runs the command with the current batch. */
static void flush(xargs_st *x) {
  int argc = x->ninit + (int)x->nbatch;
  char **argv = malloc(((size_t)argc + 1) * sizeof *argv);
  if (!argv) {
    x->stop = true;
    x->status = 1;
    return;
  }
  for (int i = 0; i < x->ninit; i++) argv[i] = x->init[i];
  for (size_t i = 0; i < x->nbatch; i++) argv[x->ninit + (int)i] = x->batch[i];
  argv[argc] = NULL;
  run_argv(x, argc, argv);
  free(argv);
  for (size_t i = 0; i < x->nbatch; i++) free(x->batch[i]);
  x->nbatch = 0;
  x->batch_len = 0;
  x->lines_in_batch = 0;
}

/* Adds one item; flushes first when a limit would be passed. */
static void add_item(xargs_st *x, const char *s, size_t len) {
  if (x->stop) return;
  size_t need = len + 1;
  if (x->init_len + need > x->max_chars) {
    /* GNU runs the items gathered so far, then stops at the one too long */
    if (x->nbatch) flush(x);
    cmd_errorf(x->ctx, "argument line too long");
    x->status = 1;
    x->stop = true;
    return;
  }
  if (x->nbatch && x->init_len + x->batch_len + need > x->max_chars) {
    if (x->exit_on_size && (x->max_args || x->max_lines)) {
      cmd_errorf(x->ctx, "argument list too long");
      x->status = 1;
      x->stop = true;
      return;
    }
    flush(x);
    if (x->stop) return;
  }
  if (cmd_grow(&x->batch, &x->capbatch, x->nbatch + 1, sizeof *x->batch)) {
    x->stop = true;
    return;
  }
  char *copy = malloc(len + 1);
  if (!copy) {
    x->stop = true;
    return;
  }
  memcpy(copy, s, len);
  copy[len] = 0;
  x->batch[x->nbatch++] = copy;
  x->batch_len += need;
  if (x->max_args && (long)x->nbatch >= x->max_args) flush(x);
}

/* -I: one command per input line with replacements. */
static void run_replace(xargs_st *x, const char *item, size_t len) {
  cmd_ctx *ctx = x->ctx;
  char *it = malloc(len + 1);
  if (!it) return;
  memcpy(it, item, len);
  it[len] = 0;
  char **argv = calloc((size_t)x->ninit + 1, sizeof *argv);
  if (!argv) {
    free(it);
    return;
  }
  size_t rl = strlen(x->replace), total = 0;
  for (int i = 0; i < x->ninit; i++) {
    const char *a = x->init[i];
    size_t count = 0;
    if (rl)
      for (const char *q = a; (q = strstr(q, x->replace)); q += rl) count++;
    size_t nl = strlen(a) + count * len + 1;
    total += nl;
    char *o = malloc(nl);
    if (!o) break;
    char *w = o;
    for (const char *q = a; *q;) {
      if (rl && strncmp(q, x->replace, rl) == 0) {
        memcpy(w, it, len);
        w += len;
        q += rl;
      } else {
        *w++ = *q++;
      }
    }
    *w = 0;
    argv[i] = o;
  }
  if (total > x->max_chars) {
    cmd_errorf(ctx, "argument line too long");
    x->status = 1;
    x->stop = true;
  } else {
    run_argv(x, x->ninit, argv);
  }
  for (int i = 0; i < x->ninit; i++) free(argv[i]);
  free(argv);
  free(it);
}

/* Handles one item from the delimiter modes (-0, -d). */
static void take_item(xargs_st *x, const char *s, size_t len) {
  if (x->replace) {
    run_replace(x, s, len);
    return;
  }
  add_item(x, s, len);
  if (!x->stop && x->max_lines) {
    x->lines_in_batch++;
    if (x->lines_in_batch >= x->max_lines && x->nbatch) flush(x);
  }
}

/* Default parsing of one input line (quotes, backslashes, blanks). */
static void parse_line(xargs_st *x, char *line, size_t n) {
  cmd_ctx *ctx = x->ctx;
  bool had_nl = n > 0 && line[n - 1] == '\n';
  if (had_nl) n--;
  if (x->replace) {
    /* -I: the whole line (leading blanks dropped) is one item, still unquoted */
    size_t i = 0;
    while (i < n && (line[i] == ' ' || line[i] == '\t')) i++;
    char *out = malloc(n - i + 1);
    if (!out) return;
    size_t o = 0;
    char q = 0;
    for (; i < n; i++) {
      char c = line[i];
      if (q) {
        if (c == q) q = 0;
        else out[o++] = c;
      } else if (c == '\'' || c == '"') {
        q = c;
      } else if (c == '\\' && i + 1 < n) {
        out[o++] = line[++i];
      } else {
        out[o++] = c;
      }
    }
    if (q) {
      cmd_errorf(ctx, "unmatched %s quote; by default quotes are special to xargs unless you use the -0 option",
                 q == '\'' ? "single" : "double");
      free(out);
      x->status = 1;
      x->stop = true;
      return;
    }
    if (x->eof && o == strlen(x->eof) && memcmp(out, x->eof, o) == 0) {
      x->stop = true;
      free(out);
      return;
    }
    if (o > 0 || n > 0) run_replace(x, out, o);
    free(out);
    return;
  }
  char *item = malloc(n + 1);
  if (!item) return;
  size_t i = 0;
  bool line_had_item = false;
  bool trailing_blank = n > 0 && (line[n - 1] == ' ' || line[n - 1] == '\t');
  while (i < n && !x->stop) {
    while (i < n && (line[i] == ' ' || line[i] == '\t')) i++;
    if (i >= n) break;
    size_t o = 0;
    char q = 0;
    bool any = false;
    for (; i < n; i++) {
      char c = line[i];
      if (q) {
        if (c == q) q = 0;
        else item[o++] = c;
        continue;
      }
      if (c == ' ' || c == '\t') break;
      if (c == '\'' || c == '"') {
        q = c;
        any = true;
      } else if (c == '\\') {
        if (i + 1 < n) item[o++] = line[++i];
        any = true;
      } else {
        item[o++] = c;
        any = true;
      }
    }
    if (q) {
      cmd_errorf(ctx, "unmatched %s quote; by default quotes are special to xargs unless you use the -0 option",
                 q == '\'' ? "single" : "double");
      /* GNU still runs the items read before the bad one */
      if (x->nbatch) flush(x);
      x->status = 1;
      x->stop = true;
      break;
    }
    if (!any) continue;
    if (x->eof && o == strlen(x->eof) && memcmp(item, x->eof, o) == 0) {
      free(item);
      x->stop = true; /* logical end of input: the batch still runs */
      return;
    }
    add_item(x, item, o);
    line_had_item = true;
  }
  free(item);
  if (x->max_lines && line_had_item && !trailing_blank && !x->stop) {
    x->lines_in_batch++;
    if (x->lines_in_batch >= x->max_lines && x->nbatch) flush(x);
  }
}

static long parse_pos(cmd_ctx *ctx, const char *arg, const char *opt, long min) {
  char *ep;
  errno = 0;
  long v = strtol(arg, &ep, 10);
  if (!*arg || *ep || errno) {
    cmd_errorf(ctx, "invalid number %s for %s option", cmd_gnu_quote(ctx, arg), opt);
    cmd_usage_hint(ctx, 1);
    return -1;
  }
  if (v < min) {
    cmd_errorf(ctx, "value %s for %s option should be >= %ld", arg, opt, min);
    cmd_usage_hint(ctx, 1);
    return -1;
  }
  return v;
}

static int decode_delim(cmd_ctx *ctx, const char *s) {
  if (!s[0]) {
    cmd_errorf(ctx, "Invalid input delimiter specification %s: the delimiter must be either a single character or an escape sequence starting with \\.", cmd_gnu_quote(ctx, s));
    return -1;
  }
  if (!s[1]) return (unsigned char)s[0];
  if (s[0] != '\\') goto bad;
  switch (s[1]) {
  case 'a': if (!s[2]) return '\a'; break;
  case 'b': if (!s[2]) return '\b'; break;
  case 'f': if (!s[2]) return '\f'; break;
  case 'n': if (!s[2]) return '\n'; break;
  case 'r': if (!s[2]) return '\r'; break;
  case 't': if (!s[2]) return '\t'; break;
  case 'v': if (!s[2]) return '\v'; break;
  case '\\': if (!s[2]) return '\\'; break;
  case 'x': {
    char *ep;
    long v = strtol(s + 2, &ep, 16);
    if (!*ep && s[2] && v <= 255) return (int)v;
    break;
  }
  default:
    if (s[1] >= '0' && s[1] <= '7') {
      char *ep;
      long v = strtol(s + 1, &ep, 8);
      if (!*ep && v <= 255) return (int)v;
    }
  }
bad:
  cmd_errorf(ctx, "Invalid input delimiter specification %s: the delimiter must be either a single character or an escape sequence starting with \\.", cmd_gnu_quote(ctx, s));
  return -1;
}

int cmd_xargs_main(cmd_ctx *ctx, int argc, char **argv) {
  enum { OPT_SLOTVAR = CMD_OPT_LONG, OPT_SHOWLIMITS };
  /* The long names in GNU's order ("--max": '--max-lines' '--max-args'
   * '--max-chars' '--max-procs'), --help and --version after them. */
  static const char spec[] = "+(help)(version)(process-slot-var):(show-limits)0(null)a:(arg-file)d:(delimiter)"
                             "e::(eof)i::(replace)l::(max-lines)n:(max-args)o(open-tty)"
                             "p(interactive)r(no-run-if-empty)s:(max-chars)t(verbose)x(exit)"
                             "P:(max-procs)E:I:L:";
  xargs_st x = {.ctx = ctx, .max_chars = XARGS_DEFAULT_SIZE, .delim = -1};
  const char *argfile = NULL;
  bool show_limits = false;
  cmd_getopt_state st = CMD_GETOPT_INIT;
  int c;
  while ((c = cmd_getopt(ctx, &st, argc, argv, spec, NULL)) != -1) {
    switch (c) {
    case '0': x.delim = 0; break;
    case 'a': argfile = st.arg; break;
    case 'd': {
      int d = decode_delim(ctx, st.arg);
      if (d < 0) return 1;
      x.delim = d;
      break;
    }
    case 'E': x.eof = st.arg; break;
    case 'e': x.eof = st.arg && *st.arg ? st.arg : NULL; break;
    case 'I': x.replace = st.arg; x.max_lines = 0; x.max_args = 0; break;
    case 'i': x.replace = st.arg && *st.arg ? st.arg : "{}"; x.max_args = 0; break;
    case 'L':
    case 'l': { /* -l's argument is optional, 1 when absent */
      long v = c == 'l' && !st.arg ? 1 : parse_pos(ctx, st.arg, c == 'L' ? "-L" : "-l", 1);
      if (v < 0) return 1;
      x.max_lines = v;
      x.max_args = 0;
      x.replace = NULL;
      break;
    }
    case 'n': {
      long v = parse_pos(ctx, st.arg, "-n", 1);
      if (v < 0) return 1;
      x.max_args = v;
      x.max_lines = 0;
      break;
    }
    case 'o': break;
    case 'p': x.prompt = true; x.verbose = true; break;
    case 'P': if (parse_pos(ctx, st.arg, "-P", 0) < 0) return 1; break;
    case OPT_SLOTVAR: x.slot_var = st.arg; break;
    case 'r': x.no_empty = true; break;
    case 's': {
      long v = parse_pos(ctx, st.arg, "-s", 1);
      if (v < 0) return 1;
      if (v > XARGS_MAX_SIZE) {
        cmd_errorf(ctx, "value %s for -s option should be <= %d", st.arg, XARGS_MAX_SIZE);
        return 1;
      }
      x.max_chars = (size_t)v;
      break;
    }
    case OPT_SHOWLIMITS: show_limits = true; break;
    case 't': x.verbose = true; break;
    case 'x': x.exit_on_size = true; break;
    case CMD_OPT_HELP: return cmd_print_help(ctx, xargs_usage);
    case CMD_OPT_VERSION: return cmd_print_version(ctx);
    default: return 1;
    }
  }
  if (x.delim >= 0) x.eof = NULL;
  if (x.replace && x.max_lines == 0) x.exit_on_size = true;
  static char *echo_argv[] = {(char *)"echo", NULL};
  if (st.ind < argc) {
    x.init = argv + st.ind;
    x.ninit = argc - st.ind;
  } else {
    x.init = echo_argv;
    x.ninit = 1;
  }
  for (int i = 0; i < x.ninit; i++) x.init_len += strlen(x.init[i]) + 1;
  if (show_limits) {
    size_t envl = 0;
    for (char *const *e = ctx->env; e && *e; e++) envl += strlen(*e) + 1;
    cmd_err_raw(ctx,
                "Your environment variables take up %zu bytes\n"
                "POSIX upper limit on argument length (this system): %d\n"
                "POSIX smallest allowable upper limit on argument length (all systems): 4096\n"
                "Maximum length of command we could actually use: %zu\n"
                "Size of command buffer we are actually using: %zu\n"
                "Maximum parallelism (--max-procs must be no greater): 2147483647\n",
                envl, XARGS_MAX_SIZE, (size_t)XARGS_MAX_SIZE - envl, x.max_chars);
  }
  if (x.init_len > x.max_chars) {
    cmd_errorf(ctx, "argument line too long");
    return 1;
  }
  cmd_in *in = NULL;
  if (argfile) {
    int rc = cmd_in_open(ctx, argfile, &in);
    if (rc < 0) {
      cmd_errorf(ctx, "Cannot open input file %s: %s", cmd_gnu_quote(ctx, argfile),
                 cmd_strerror(rc));
      return 1;
    }
  } else {
    in = cmd_in_fd(ctx, 0);
    if (!in) return 1;
  }
  char *line;
  ssize_t n = 0;
  int delim = x.delim >= 0 ? x.delim : '\n';
  while (!x.stop && (n = cmd_in_getdelim(in, &line, delim)) > 0) {
    if (cmd_poll(ctx)) {
      x.status = 1;
      break;
    }
    if (x.delim >= 0) {
      size_t len = (size_t)n;
      if (line[len - 1] == (char)x.delim) len--;
      take_item(&x, line, len);
    } else {
      parse_line(&x, line, (size_t)n);
    }
  }
  if (n < 0 && !x.stop) {
    if (n == -EFBIG) cmd_errorf(ctx, "argument line too long");
    else cmd_errorf(ctx, "read error: %s", cmd_strerror((int)n));
    x.status = 1;
    x.stop = true;
  }
  cmd_in_close(in);
  /* the last batch, or one run without input items (unless -r or -I); not
   * after an error that stops xargs */
  bool failed = x.status == 1 || x.status >= 124;
  if (!failed && !x.replace && (x.nbatch || (!x.ran && !x.no_empty))) {
    x.stop = false;
    flush(&x);
  }
  for (size_t i = 0; i < x.nbatch; i++) free(x.batch[i]);
  free(x.batch);
  return x.status;
}
