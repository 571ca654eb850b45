/*
 * sleep - delay for a specified amount of time (GNU coreutils compatible);
 * timeout - run a command with a time limit.
 *
 *   sleep NUMBER[SUFFIX]...      s (default), m, h, d; fractions; "inf"
 *   timeout [OPTION] DURATION COMMAND [ARG]...
 *     --preserve-status  -f, --foreground  -k, --kill-after=DURATION
 *     -s, --signal=SIGNAL  -v, --verbose
 *
 * Design decisions:
 *  - sleep never blocks for long: it naps at most 10 ms at a time and checks
 *    cmd_poll between naps, so cancellation and the sandbox's timeouts end it
 *    promptly (status 130 like an interrupted sleep).
 *  - timeout cannot signal an in-process command. A table command is run
 *    directly (cmd_invoke) under a wrapped cmd_io whose poll() also reports
 *    the deadline: every command that polls (they all must in long loops)
 *    stops when the time is up, as if it died of the signal. Shell code
 *    (`bash -c`, a script, and what a table command runs in turn, like xargs
 *    or find -exec) runs through the caller's cmd_io.run_until with the
 *    deadline, the signal and -k's second deadline (cmd_deadline): each shell
 *    of the code gets the signal as each process of GNU timeout's group does,
 *    runs its trap or dies of it, and is killed at -k's deadline. timeout
 *    then exits as GNU's: 124, the command's status with --preserve-status,
 *    137 when it killed (and, without --foreground, died of KILL with its
 *    group: the shell reports it, ctx->killed_by).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>

#include "cmd/cmd.h"
#include "cmd/lib/fs.h"
#include "cmd/lib/gnu.h"

CMD_DEFINE("sleep", cmd_sleep_main);
CMD_DEFINE("timeout", cmd_timeout_main);

/* Parses a duration with an optional s/m/h/d suffix; false if invalid. */
static bool parse_duration(const char *s, long double *out) {
  char *ep;
  errno = 0;
  if (!*s) return false;
  long double v = strtold(s, &ep);
  if (ep == s || errno == ERANGE) {
    if (errno == ERANGE && ep != s) v = HUGE_VALL;
    else return false;
  }
  /* hex floats and "nan" are refused like GNU's xstrtod with C locale checks */
  if (isnan(v) || v < 0) return false;
  long double mult = 1;
  if (*ep) {
    switch (*ep) {
    case 's': mult = 1; break;
    case 'm': mult = 60; break;
    case 'h': mult = 3600; break;
    case 'd': mult = 86400; break;
    default: return false;
    }
    if (ep[1]) return false;
  }
  *out = v * mult;
  return true;
}

static double now_mono(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Sleeps `secs` in short naps; returns 0, or 1 if cmd_poll stopped it. */
static int nap(cmd_ctx *ctx, long double secs) {
  double end = isinf(secs) ? INFINITY : now_mono() + (double)secs;
  for (;;) {
    if (cmd_poll(ctx)) return 1;
    double left = end - now_mono();
    if (left <= 0) return 0;
    double step = left < 0.01 ? left : 0.01;
    struct timespec ts = {(time_t)step, (long)((step - (double)(time_t)step) * 1e9)};
    nanosleep(&ts, NULL);
  }
}

int cmd_sleep_main(cmd_ctx *ctx, int argc, char **argv) {
  cmd_getopt_state st = CMD_GETOPT_INIT;
  int rc = cmd_getopt_all(
      ctx, &st, argc, argv, "(help)(version)",
      "Usage: sleep NUMBER[SUFFIX]...\n"
      "  or:  sleep OPTION\n"
      "Pause for NUMBER seconds.  SUFFIX may be 's' for seconds (the default),\n"
      "'m' for minutes, 'h' for hours or 'd' for days.  NUMBER need not be an\n"
      "integer.  Given two or more arguments, pause for the amount of time\n"
      "specified by the sum of their values.\n");
  if (rc >= 0) return rc;
  if (st.ind >= argc) {
    cmd_errorf(ctx, "missing operand");
    return cmd_usage_hint(ctx, 1);
  }
  long double total = 0;
  bool bad = false;
  for (int i = st.ind; i < argc; i++) {
    long double v;
    if (!parse_duration(argv[i], &v)) {
      cmd_errorf(ctx, "invalid time interval %s", cmd_gnu_quote(ctx, argv[i]));
      bad = true;
      continue;
    }
    total += v;
  }
  if (bad) return cmd_usage_hint(ctx, 1);
  return nap(ctx, total) ? 130 : 0;
}

/* ---- timeout ---------------------------------------------------------------- */

/* The wrapped I/O of a command run under timeout. */
typedef struct to_io {
  const cmd_io *parent;  /* the caller's table */
  void *parent_ud;       /* its user data */
  double deadline;       /* monotonic seconds */
  cmd_deadline dl;       /* the same in ns, the signal and -k, for run_until
                            (deadline_ns 0: none) */
  bool expired;          /* the deadline passed */
  bool killed;           /* what ran through run_until was killed */
} to_io;

/* Runs argv through the caller under t's deadline when it can bound it. */
static int to_run_bounded(to_io *t, int argc, char **argv, char *const *env, const char *cwd,
                          int in, int out) {
  if (t->dl.deadline_ns && t->parent->run_until) {
    cmd_deadline d = t->dl;
    int st = t->parent->run_until(t->parent_ud, &d, argc, argv, env, cwd, in, out);
    if (d.expired) t->expired = true;
    if (d.killed) t->killed = true;
    return st;
  }
  if (env || cwd) {
    if (t->parent->run_env) return t->parent->run_env(t->parent_ud, argc, argv, env, cwd, in, out);
  }
  return t->parent->run ? t->parent->run(t->parent_ud, argc, argv, in, out) : 127;
}

static ssize_t to_read(void *ud, int fd, void *b, size_t n) {
  to_io *t = ud;
  return t->parent->read(t->parent_ud, fd, b, n);
}
static ssize_t to_write(void *ud, int fd, const void *b, size_t n) {
  to_io *t = ud;
  return t->parent->write(t->parent_ud, fd, b, n);
}
static int to_open(void *ud, const char *p, int f, uint32_t m) {
  to_io *t = ud;
  return t->parent->open ? t->parent->open(t->parent_ud, p, f, m) : -ENOSYS;
}
static int to_close(void *ud, int fd) {
  to_io *t = ud;
  return t->parent->close ? t->parent->close(t->parent_ud, fd) : -ENOSYS;
}
static int64_t to_lseek(void *ud, int fd, int64_t off, int wh) {
  to_io *t = ud;
  return t->parent->lseek ? t->parent->lseek(t->parent_ud, fd, off, wh) : -ESPIPE;
}
static int to_run(void *ud, int argc, char **argv, int in, int out) {
  return to_run_bounded(ud, argc, argv, NULL, NULL, in, out);
}
static int to_run_env(void *ud, int argc, char **argv, char *const *env, const char *cwd,
                      int in, int out) {
  return to_run_bounded(ud, argc, argv, env, cwd, in, out);
}
static int to_run_until(void *ud, cmd_deadline *d, int argc, char **argv, char *const *env,
                        const char *cwd, int in, int out) {
  to_io *t = ud;
  if (!t->parent->run_until) return to_run_bounded(t, argc, argv, env, cwd, in, out);
  /* the earlier of the two timeouts is in force */
  bool ours = t->dl.deadline_ns && t->dl.deadline_ns < d->deadline_ns;
  cmd_deadline inner = ours ? t->dl : *d;
  int st = t->parent->run_until(t->parent_ud, &inner, argc, argv, env, cwd, in, out);
  if (ours) {
    t->expired |= inner.expired;
    t->killed |= inner.killed;
    d->expired = d->killed = false;
  } else {
    d->expired = inner.expired;
    d->killed = inner.killed;
  }
  return st;
}
static int to_popen(void *ud, const char *s, const char *m, int *fd) {
  to_io *t = ud;
  return t->parent->popen ? t->parent->popen(t->parent_ud, s, m, fd) : -ENOSYS;
}
static int to_pclose(void *ud, int h) {
  to_io *t = ud;
  return t->parent->pclose ? t->parent->pclose(t->parent_ud, h) : -ENOSYS;
}
static int to_fstat(void *ud, int fd, store_stat *st) {
  to_io *t = ud;
  return t->parent->fstat ? t->parent->fstat(t->parent_ud, fd, st) : -ENOSYS;
}
static int to_poll(void *ud) {
  to_io *t = ud;
  if (t->parent->poll) {
    int r = t->parent->poll(t->parent_ud);
    if (r) return r;
  }
  if (now_mono() >= t->deadline) {
    t->expired = true;
    if (t->dl.sig) return 1; /* -s 0 sends nothing: only -k ends it */
    if (t->dl.kill_ns && now_mono() * 1e9 >= (double)t->dl.kill_ns) {
      t->killed = true;
      return 1;
    }
  }
  return 0;
}
static const char *to_getvar(void *ud, const char *n) {
  to_io *t = ud;
  return t->parent->getvar ? t->parent->getvar(t->parent_ud, n) : NULL;
}
static int to_setvar(void *ud, const char *n, const char *v) {
  to_io *t = ud;
  return t->parent->setvar ? t->parent->setvar(t->parent_ud, n, v) : -ENOSYS;
}

static const cmd_io to_table = {
    .read = to_read, .write = to_write, .open = to_open, .close = to_close,
    .lseek = to_lseek, .run = to_run, .popen = to_popen, .pclose = to_pclose,
    .poll = to_poll, .getvar = to_getvar, .setvar = to_setvar, .run_env = to_run_env,
    .run_until = to_run_until,
    .fstat = to_fstat,
};

/* Signal names and numbers timeout accepts (Linux's numbering). */
static const struct { const char *name; int num; } to_signals[] = {
    {"HUP", 1},   {"INT", 2},   {"QUIT", 3},  {"ILL", 4},   {"TRAP", 5},   {"ABRT", 6},
    {"BUS", 7},   {"FPE", 8},   {"KILL", 9},  {"USR1", 10}, {"SEGV", 11},  {"USR2", 12},
    {"PIPE", 13}, {"ALRM", 14}, {"TERM", 15}, {"STKFLT", 16}, {"CHLD", 17}, {"CONT", 18},
    {"STOP", 19}, {"TSTP", 20}, {"TTIN", 21}, {"TTOU", 22}, {"URG", 23},   {"XCPU", 24},
    {"XFSZ", 25}, {"VTALRM", 26}, {"PROF", 27}, {"WINCH", 28}, {"POLL", 29}, {"PWR", 30},
    {"SYS", 31}, {"EXIT", 0}};

static int signal_number(const char *s) {
  if (*s >= '0' && *s <= '9') {
    char *ep;
    long v = strtol(s, &ep, 10);
    return *ep || v > 64 ? -1 : (int)v;
  }
  if (!strncasecmp(s, "SIG", 3)) s += 3;
  for (size_t i = 0; i < sizeof to_signals / sizeof to_signals[0]; i++)
    if (!strcmp(s, to_signals[i].name)) return to_signals[i].num;
  return -1;
}

/* The name -v prints ("TERM"), or the number for the real-time ones. */
static const char *signal_name(int n, char *buf, size_t size) {
  for (size_t i = 0; i < sizeof to_signals / sizeof to_signals[0]; i++)
    if (to_signals[i].num == n) return to_signals[i].name;
  if (n >= 34 && n <= 64) snprintf(buf, size, n < 50 ? "RTMIN+%d" : "RTMAX-%d", n < 50 ? n - 34 : 64 - n);
  else snprintf(buf, size, "%d", n);
  return buf;
}

/* Parses -k's or DURATION's operand into seconds; 125 after the message if bad. */
static int timeout_duration(cmd_ctx *ctx, const char *arg, long double *out) {
  if (parse_duration(arg, out)) return 0;
  cmd_errorf(ctx, "invalid time interval %s", cmd_gnu_quote(ctx, arg));
  return cmd_usage_hint(ctx, 125);
}

/* A duration that bounds the command: 0 and huge ones do not (GNU). */
static bool timeout_bounds(long double secs) { return !(secs == 0 || isinf(secs) || secs > 1e9); }

int cmd_timeout_main(cmd_ctx *ctx, int argc, char **argv) {
  enum { OPT_PRESERVE = CMD_OPT_LONG };
  /* --help and --version after these: "--v" names '--verbose' '--version' */
  static const char spec[] = "+(help)(version)(preserve-status)f(foreground)k:(kill-after)s:(signal)v(verbose)";
  cmd_getopt_state st = CMD_GETOPT_INIT;
  bool preserve = false, verbose = false, foreground = false;
  long double kill_after = 0;
  int sig = 15;
  for (int c; (c = cmd_getopt(ctx, &st, argc, argv, spec, NULL)) != -1;) {
    switch (c) {
    case OPT_PRESERVE: preserve = true; break;
    case 'f': foreground = true; break;
    case 'k':
      if (timeout_duration(ctx, st.arg, &kill_after)) return 125;
      break;
    case 's':
      sig = signal_number(st.arg);
      if (sig < 0) {
        cmd_errorf(ctx, "%s: invalid signal", cmd_gnu_quote(ctx, st.arg));
        return cmd_usage_hint(ctx, 125);
      }
      break;
    case 'v': verbose = true; break;
    case CMD_OPT_HELP:
      return cmd_print_help(ctx,
                            "Usage: timeout [OPTION] DURATION COMMAND [ARG]...\n"
                            "  or:  timeout [OPTION]\n"
                            "Start COMMAND, and kill it if still running after DURATION.\n");
    case CMD_OPT_VERSION: return cmd_print_version(ctx);
    default: return 125;
    }
  }
  if (argc - st.ind < 2) return cmd_usage_hint(ctx, 125);
  long double dur;
  if (timeout_duration(ctx, argv[st.ind], &dur)) return 125;
  int cargc = argc - st.ind - 1;
  char **cargv = argv + st.ind + 1;
  const char *path = cmd_getenv(ctx, "PATH");
  if (!cmd_fs_runnable(ctx, cargv[0], path)) {
    cmd_errorf(ctx, "failed to run command %s: %s", cmd_gnu_quote(ctx, cargv[0]),
               cmd_strerror(-ENOENT));
    return 127;
  }
  store_stat fst;
  if (strchr(cargv[0], '/') && cmd_fs_stat(ctx, cargv[0], &fst) == 0 &&
      (S_ISDIR(fst.mode) || !(fst.mode & 0111))) {
    cmd_errorf(ctx, "failed to run command %s: %s", cmd_gnu_quote(ctx, cargv[0]),
               cmd_strerror(-EACCES));
    return 126;
  }
  cmd_flush(ctx);
  bool bounded = timeout_bounds(dur);
  double deadline = bounded ? now_mono() + (double)dur : INFINITY;
  cmd_deadline dl = {.sig = sig};
  if (bounded) {
    dl.deadline_ns = (int64_t)(deadline * 1e9);
    if (timeout_bounds(kill_after)) dl.kill_ns = dl.deadline_ns + (int64_t)(kill_after * 1e9L);
  }
  to_io t = {ctx->io, ctx->io_ud, deadline, dl, false, false};
  int status;
  if (cmd_find(cargv[0]) && ctx->io) {
    /* a command of the table runs here, its polls seeing the deadline: it
     * ends at the signal, whatever the signal (it cannot trap it) */
    cmd_ctx child = *ctx;
    child.io = &to_table;
    child.io_ud = &t;
    child.outbuf = NULL;
    child.outlen = 0;
    child.out_err = 0;
    status = cmd_invoke(&child, cargc, cargv);
    ctx->err_errno = child.err_errno;
    memcpy(ctx->err_path, child.err_path, sizeof ctx->err_path);
    if (t.expired && !t.killed && sig) status = 128 + sig;
    if (t.expired && sig == 9) t.killed = true;
  } else if (ctx->io && ctx->io->run_until) {
    status = to_run_bounded(&t, cargc, cargv, NULL, NULL, 0, 1);
  } else {
    status = ctx->io && ctx->io->run ? ctx->io->run(ctx->io_ud, cargc, cargv, 0, 1) : 126;
  }
  if (!t.expired) return status;
  char b1[16], b2[16];
  if (verbose) {
    cmd_errorf(ctx, "sending signal %s to command %s", signal_name(sig, b1, sizeof b1),
               cmd_gnu_quote(ctx, cargv[0]));
    if (t.killed && sig != 9)
      cmd_errorf(ctx, "sending signal %s to command %s", signal_name(9, b2, sizeof b2),
                 cmd_gnu_quote(ctx, cargv[0]));
  }
  if (t.killed) {
    /* GNU's timeout sends KILL to its whole process group, itself in it,
     * unless --foreground: it dies of it too */
    if (!foreground) ctx->killed_by = 9;
    return 128 + 9;
  }
  return preserve ? status : 124;
}
