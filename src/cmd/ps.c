/*
 * ps - report the sandbox's processes (procps-ng 4's output formats).
 *
 *   Usage: ps [-e|-A] [-f] [-l] [-o FORMAT] [-p PIDS] [-C NAMES] [--ppid PIDS]
 *             [-u|-U USERS] [--no-headers] [--sort KEYS], or BSD style: ps aux, ps x,
 *             ps -o pid=,comm= -p PID
 *
 * Design: the processes are the caller's (cmd_io.procs): the shell, the stages of
 * its running background jobs and ps itself, never the host's. They run as root
 * with no terminal (TTY "?"), so the default selection (same user, same terminal)
 * is every one of them, and BSD style without `x` selects none (no terminal).
 * CPU time is 0 and memory 0: the sandbox does not account them per process. The
 * columns, widths, headers and messages are procps-ng 4.0's; the status is 1 when
 * nothing is selected (ps -p PID as a liveness test).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd/cmd.h"
#include "cmd/lib/gnu.h"

CMD_DEFINE("ps", cmd_ps_main);

#define PS_MAX_PROCS 4096
#define PS_MAX_COLS 64
#define PS_MAX_SEL 256

typedef enum {
  F_PID, F_PPID, F_PGID, F_USER, F_UID, F_TTY, F_TIME, F_BSDTIME, F_ETIME, F_ETIMES, F_STAT,
  F_S, F_PCPU, F_PMEM, F_RSS, F_VSZ, F_SZ, F_STIME, F_START, F_LSTART, F_COMM, F_ARGS, F_C,
  F_NI, F_PRI, F_NLWP, F_F, F_ADDR, F_WCHAN
} ps_field;

typedef struct {
  const char *name;
  ps_field f;
  const char *header;
  int width;
  bool left;
} ps_spec;

static const ps_spec specs[] = {
    {"pid", F_PID, "PID", 5, false},       {"tgid", F_PID, "TGID", 5, false},
    {"tid", F_PID, "TID", 5, false},       {"spid", F_PID, "SPID", 5, false},
    {"lwp", F_PID, "LWP", 5, false},       {"ppid", F_PPID, "PPID", 5, false},
    {"pgid", F_PGID, "PGID", 5, false},    {"pgrp", F_PGID, "PGRP", 5, false},
    {"sid", F_PGID, "SID", 5, false},      {"sess", F_PGID, "SESS", 5, false},
    {"user", F_USER, "USER", 8, true},     {"euser", F_USER, "EUSER", 8, true},
    {"uname", F_USER, "USER", 8, true},    {"ruser", F_USER, "RUSER", 8, true},
    {"uid", F_UID, "UID", 5, false},       {"euid", F_UID, "EUID", 5, false},
    {"ruid", F_UID, "RUID", 5, false},     {"gid", F_UID, "GID", 5, false},
    {"tty", F_TTY, "TT", 8, true},         {"tname", F_TTY, "TTY", 8, true},
    {"tt", F_TTY, "TT", 8, true},          {"time", F_TIME, "TIME", 8, false},
    {"cputime", F_TIME, "TIME", 8, false}, {"bsdtime", F_BSDTIME, "TIME", 6, false},
    {"etime", F_ETIME, "ELAPSED", 11, false}, {"etimes", F_ETIMES, "ELAPSED", 7, false},
    {"stat", F_STAT, "STAT", 4, true},     {"s", F_S, "S", 1, true},
    {"state", F_S, "S", 1, true},          {"%cpu", F_PCPU, "%CPU", 4, false},
    {"pcpu", F_PCPU, "%CPU", 4, false},    {"%mem", F_PMEM, "%MEM", 4, false},
    {"pmem", F_PMEM, "%MEM", 4, false},    {"rss", F_RSS, "RSS", 5, false},
    {"rssize", F_RSS, "RSS", 5, false},    {"rsz", F_RSS, "RSZ", 5, false},
    {"vsz", F_VSZ, "VSZ", 6, false},       {"vsize", F_VSZ, "VSZ", 6, false},
    {"sz", F_SZ, "SZ", 5, false},          {"stime", F_STIME, "STIME", 5, true},
    {"start_time", F_STIME, "START", 5, true}, {"bsdstart", F_STIME, "START", 6, false},
    {"start", F_START, "STARTED", 8, false}, {"lstart", F_LSTART, "STARTED", 24, true},
    {"comm", F_COMM, "COMMAND", 15, true}, {"ucmd", F_COMM, "CMD", 15, true},
    {"ucomm", F_COMM, "COMMAND", 15, true}, {"fname", F_COMM, "COMMAND", 8, true},
    {"args", F_ARGS, "COMMAND", 27, true}, {"command", F_ARGS, "COMMAND", 27, true},
    {"cmd", F_ARGS, "CMD", 27, true},      {"c", F_C, "C", 2, false},
    {"ni", F_NI, "NI", 3, false},          {"nice", F_NI, "NI", 3, false},
    {"pri", F_PRI, "PRI", 3, false},       {"nlwp", F_NLWP, "NLWP", 4, false},
    {"thcount", F_NLWP, "THCNT", 5, false}, {"f", F_F, "F", 1, false},
    {"flags", F_F, "F", 1, false},         {"addr", F_ADDR, "ADDR", 4, false},
    {"wchan", F_WCHAN, "WCHAN", 6, true},  {"psr", F_C, "PSR", 3, false},
};

typedef struct {
  const ps_spec *spec;
  const char *header; /* the spec's, or the user's from name=HEADER */
} ps_col;

typedef struct {
  ps_col cols[PS_MAX_COLS];
  int ncols;
  int64_t pids[PS_MAX_SEL], ppids[PS_MAX_SEL];
  int npids, nppids;
  const char *names[PS_MAX_SEL];
  int nnames;
  bool users_none; /* -u/-U named only users other than root: nothing matches */
  bool users;      /* -u/-U given */
  bool all;        /* -e, -A, ax, x */
  bool bsd;        /* BSD options seen */
  bool bsd_x, bsd_a;
  bool no_headers;
  const char *sort;
  int64_t now;
} ps_opts;

static int ps_usage_error(cmd_ctx *ctx, const char *what) {
  cmd_err_raw(ctx, "error: %s\n\nUsage:\n ps [options]\n\n"
                   " Try 'ps --help <simple|list|output|threads|misc|all>'\n"
                   "  or 'ps --help <s|l|o|t|m|a>'\n for additional help text.\n\n"
                   "For more details see ps(1).\n", what);
  return 1;
}

static const ps_spec *spec_find(const char *name, size_t n) {
  for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++)
    if (strlen(specs[i].name) == n && !strncmp(specs[i].name, name, n)) return &specs[i];
  return NULL;
}

/* -o LIST: names separated by commas or blanks, each with an optional
 * =HEADER (up to the next comma). */
static int add_format(cmd_ctx *ctx, ps_opts *o, const char *list) {
  const char *p = list;
  while (*p) {
    while (*p == ',' || *p == ' ' || *p == '\t') p++;
    if (!*p) break;
    size_t n = strcspn(p, ",= \t");
    const ps_spec *sp = spec_find(p, n);
    if (!sp) {
      char msg[128];
      snprintf(msg, sizeof msg, "unknown user-defined format specifier \"%.*s\"",
               (int)(n > 64 ? 64 : n), p);
      return ps_usage_error(ctx, msg);
    }
    if (o->ncols >= PS_MAX_COLS) return ps_usage_error(ctx, "too many output columns");
    ps_col *c = &o->cols[o->ncols++];
    c->spec = sp;
    c->header = sp->header;
    p += n;
    if (*p == '=') {
      p++;
      size_t h = strcspn(p, ",");
      char *hd = cmd_alloc(ctx, h + 1);
      if (!hd) return 1;
      memcpy(hd, p, h);
      hd[h] = 0;
      c->header = hd;
      p += h;
    }
  }
  return 0;
}

static int add_std(cmd_ctx *ctx, ps_opts *o, const char *list) {
  if (o->ncols) return 0; /* an explicit -o wins */
  return add_format(ctx, o, list);
}

/* A list of pids ("1,2 3"); returns 0 or prints procps's error. */
static int add_pids(cmd_ctx *ctx, int64_t *v, int *n, const char *list) {
  const char *p = list;
  bool any = false;
  while (*p) {
    while (*p == ',' || *p == ' ' || *p == '\t') p++;
    if (!*p) break;
    char *end;
    errno = 0;
    long long x = strtoll(p, &end, 10);
    if (end == p || errno || x <= 0 || (*end && !strchr(", \t", *end)))
      return ps_usage_error(ctx, "process ID list syntax error");
    if (*n < PS_MAX_SEL) v[(*n)++] = x;
    any = true;
    p = end;
  }
  return any ? 0 : ps_usage_error(ctx, "process ID list syntax error");
}

static int add_names(cmd_ctx *ctx, ps_opts *o, const char *list) {
  char *copy = cmd_strdup(ctx, list);
  if (!copy) return 1;
  for (char *t = strtok(copy, ", \t"); t; t = strtok(NULL, ", \t"))
    if (o->nnames < PS_MAX_SEL) o->names[o->nnames++] = t;
  return 0;
}

static int add_users(ps_opts *o, const char *list) {
  o->users = true;
  char buf[256];
  snprintf(buf, sizeof buf, "%s", list);
  bool root = false;
  for (char *save = NULL, *t = strtok_r(buf, ", \t", &save); t; t = strtok_r(NULL, ", \t", &save))
    if (!strcmp(t, "root") || !strcmp(t, "0")) root = true;
  if (!root) o->users_none = true;
  else o->users_none = false;
  return 0;
}

static bool selected(const ps_opts *o, const cmd_proc *p) {
  bool explicit_sel = o->npids || o->nppids || o->nnames || o->users;
  if (!explicit_sel) {
    if (o->all) return true;
    /* BSD style lists processes with a terminal unless x is given: none have one */
    return !o->bsd;
  }
  for (int i = 0; i < o->npids; i++)
    if (o->pids[i] == p->pid) return true;
  for (int i = 0; i < o->nppids; i++)
    if (o->ppids[i] == p->ppid) return true;
  for (int i = 0; i < o->nnames; i++)
    if (!strcmp(o->names[i], p->comm)) return true;
  if (o->users && !o->users_none) return true;
  return false;
}

/* ---- values ------------------------------------------------------------------------------ */

static void fmt_elapsed(char *b, size_t n, int64_t secs) {
  if (secs < 0) secs = 0;
  int64_t d = secs / 86400, h = secs / 3600 % 24, m = secs / 60 % 60, s = secs % 60;
  if (d) snprintf(b, n, "%lld-%02lld:%02lld:%02lld", (long long)d, (long long)h, (long long)m,
                  (long long)s);
  else if (h) snprintf(b, n, "%02lld:%02lld:%02lld", (long long)h, (long long)m, (long long)s);
  else snprintf(b, n, "%02lld:%02lld", (long long)m, (long long)s);
}

/* STIME/START: HH:MM today, MonDD this year, else the year (local time). */
static void fmt_stime(char *b, size_t n, int64_t start, int64_t now) {
  time_t st = (time_t)start, nw = (time_t)now;
  struct tm ts, tn;
  localtime_r(&st, &ts);
  localtime_r(&nw, &tn);
  if (now - start < 86400 && ts.tm_yday == tn.tm_yday && ts.tm_year == tn.tm_year)
    strftime(b, n, "%H:%M", &ts);
  else if (ts.tm_year == tn.tm_year) strftime(b, n, "%b%d", &ts);
  else strftime(b, n, "%Y", &ts);
}

static const char *value(const ps_opts *o, const cmd_proc *p, ps_field f, char *b, size_t n) {
  switch (f) {
  case F_PID: snprintf(b, n, "%lld", (long long)p->pid); break;
  case F_PPID: snprintf(b, n, "%lld", (long long)p->ppid); break;
  case F_PGID: snprintf(b, n, "%lld", (long long)p->pid); break;
  case F_USER: return "root";
  case F_UID: case F_C: case F_NI: case F_RSS: case F_VSZ: case F_SZ: case F_ADDR: return "0";
  case F_TTY: return "?";
  case F_TIME: return "00:00:00";
  case F_BSDTIME: return "0:00";
  case F_ETIME: fmt_elapsed(b, n, o->now - p->start); break;
  case F_ETIMES: snprintf(b, n, "%lld", (long long)(o->now - p->start > 0 ? o->now - p->start : 0)); break;
  case F_STAT: return p->stat;
  case F_S: snprintf(b, n, "%c", p->stat[0]); break;
  case F_PCPU: case F_PMEM: return "0.0";
  case F_STIME: fmt_stime(b, n, p->start, o->now); break;
  case F_START: {
    time_t st = (time_t)p->start;
    struct tm ts;
    localtime_r(&st, &ts);
    if (o->now - p->start < 86400) strftime(b, n, "%H:%M:%S", &ts);
    else strftime(b, n, "%b %d", &ts);
    break;
  }
  case F_LSTART: {
    time_t st = (time_t)p->start;
    struct tm ts;
    localtime_r(&st, &ts);
    strftime(b, n, "%a %b %e %H:%M:%S %Y", &ts);
    break;
  }
  case F_COMM: return p->comm;
  case F_ARGS: return p->args;
  case F_PRI: return "19";
  case F_NLWP: return "1";
  case F_F: return p->stat[0] == 'R' ? "0" : "4";
  case F_WCHAN: return p->stat[0] == 'R' ? "-" : "do_wai";
  }
  return b;
}

/* One row (or the header): columns separated by a space; the last left-aligned
 * column is not padded. */
static int print_row(cmd_ctx *ctx, const ps_opts *o, const cmd_proc *p) {
  for (int i = 0; i < o->ncols; i++) {
    const ps_col *c = &o->cols[i];
    char buf[64];
    const char *v = p ? value(o, p, c->spec->f, buf, sizeof buf) : c->header;
    if (i) cmd_outc(ctx, ' ');
    bool last = i == o->ncols - 1;
    int rc;
    if (c->spec->left) rc = last ? cmd_outs(ctx, v) : cmd_outf(ctx, "%-*s", c->spec->width, v);
    else rc = cmd_outf(ctx, "%*s", c->spec->width, v);
    if (rc < 0) return rc;
  }
  return cmd_outc(ctx, '\n');
}

static int sort_cmp(const void *a, const void *b, void *ud) {
  const cmd_proc *x = a, *y = b;
  const char *k = ((const ps_opts *)ud)->sort;
  while (k && *k) {
    bool desc = *k == '-';
    if (*k == '-' || *k == '+') k++;
    size_t n = strcspn(k, ",");
    const ps_spec *sp = spec_find(k, n);
    int r = 0;
    if (sp) switch (sp->f) {
      case F_PPID: r = (x->ppid > y->ppid) - (x->ppid < y->ppid); break;
      case F_COMM: r = strcmp(x->comm, y->comm); break;
      case F_ARGS: r = strcmp(x->args, y->args); break;
      case F_STIME: case F_START: case F_LSTART: case F_ETIME: case F_ETIMES:
        r = (x->start > y->start) - (x->start < y->start);
        if (sp->f == F_ETIME || sp->f == F_ETIMES) r = -r;
        break;
      case F_PID: r = (x->pid > y->pid) - (x->pid < y->pid); break;
      default: break;
      }
    if (r) return desc ? -r : r;
    k += n;
    if (*k == ',') k++;
  }
  return (x->pid > y->pid) - (x->pid < y->pid);
}

static void print_help(cmd_ctx *ctx) {
  cmd_outs(ctx, "\nUsage:\n ps [options]\n\n"
                "Basic options:\n"
                " -A, -e               all processes\n"
                " -a                   all with tty, except session leaders\n"
                "  a                   all with tty, including other users\n"
                "  x                   processes without controlling ttys\n\n"
                "Selection by list:\n"
                " -C <command>         command name\n"
                " -p, p, --pid <PID>   process id\n"
                "     --ppid <PID>     parent process id\n"
                " -u, U, --user <UID>  effective user id or name\n\n"
                "Output formats:\n"
                " -F                   extra full\n"
                " -f                   full-format, including command lines\n"
                " -l, l                long format\n"
                " -o, o, --format <format>\n"
                "                      user-defined format\n"
                "  u                   user-oriented format\n"
                "     --no-headers     do not print header at all\n"
                "     --sort <spec>    specify sort order\n\n"
                "For more details see ps(1).\n");
}

/* The argument of an option letter at argv[*i][*pos]: the rest of the word or
 * the next word. */
static const char *opt_arg(int argc, char **argv, int *i, size_t *pos) {
  const char *w = argv[*i];
  size_t at = *pos + 1;
  *pos = strlen(w) - 1; /* the option takes the rest of its word */
  if (w[at]) return w + at;
  if (*i + 1 >= argc) return NULL;
  return argv[++*i];
}

/* The lists a short option can add to. */
typedef enum { PS_LIST_FORMAT, PS_LIST_PIDS, PS_LIST_NAMES, PS_LIST_USERS } ps_list;

/* The letters that take a list, in each syntax, and how procps's "... must
 * follow FLAG" error names them (-U, -g and -G are named "-u", -q "-p"). */
typedef struct ps_list_letter {
  char letter;      /* the option letter */
  ps_list list;     /* the list its argument goes into */
  const char *flag; /* the FLAG of its error */
} ps_list_letter;

static const ps_list_letter ps_sysv_lists[] = {
    {'o', PS_LIST_FORMAT, "-o"}, {'p', PS_LIST_PIDS, "-p"},  {'q', PS_LIST_PIDS, "-p"},
    {'C', PS_LIST_NAMES, "-C"},  {'u', PS_LIST_USERS, "-u"}, {'U', PS_LIST_USERS, "-u"},
    {'g', PS_LIST_USERS, "-u"},  {'G', PS_LIST_USERS, "-u"},
};
static const ps_list_letter ps_bsd_lists[] = {
    {'o', PS_LIST_FORMAT, "o"},
    {'p', PS_LIST_PIDS, "p"},
    {'q', PS_LIST_PIDS, "p"},
    {'U', PS_LIST_USERS, "U"},
};

/* The list-taking letter c of the SysV (-o) or BSD (o) syntax, or NULL. */
static const ps_list_letter *ps_list_letter_find(bool sysv, char c) {
  const ps_list_letter *t = sysv ? ps_sysv_lists : ps_bsd_lists;
  size_t n = sysv ? sizeof ps_sysv_lists / sizeof *t : sizeof ps_bsd_lists / sizeof *t;
  for (size_t k = 0; k < n; k++)
    if (t[k].letter == c) return &t[k];
  return NULL;
}

/* A list-taking option letter at argv[*i][*pos]: its argument goes into
 * `list`; without one, procps's "... must follow FLAG" usage error.
 * Returns 0 or the exit status. */
static int ps_list_option(cmd_ctx *ctx, ps_opts *o, ps_list list, const char *flag,
                          int argc, char **argv, int *i, size_t *pos) {
  static const char *const what[] = {
      [PS_LIST_FORMAT] = "format specification",
      [PS_LIST_PIDS] = "list of process IDs",
      [PS_LIST_NAMES] = "list of command names",
      [PS_LIST_USERS] = "list of users",
  };
  const char *arg = opt_arg(argc, argv, i, pos);
  if (!arg) {
    char msg[64];
    snprintf(msg, sizeof msg, "%s must follow %s", what[list], flag);
    return ps_usage_error(ctx, msg);
  }
  switch (list) {
  case PS_LIST_FORMAT: return add_format(ctx, o, arg);
  case PS_LIST_PIDS: return add_pids(ctx, o->pids, &o->npids, arg);
  case PS_LIST_NAMES: return add_names(ctx, o, arg);
  case PS_LIST_USERS: return add_users(o, arg);
  }
  return 0;
}

int cmd_ps_main(cmd_ctx *ctx, int argc, char **argv) {
  ps_opts *o = cmd_alloc(ctx, sizeof *o);
  if (!o) return 1;
  memset(o, 0, sizeof *o);
  o->now = time(NULL);
  enum { FMT_DEFAULT, FMT_FULL, FMT_LONG, FMT_FULL_LONG, FMT_EXTRA } fmt = FMT_DEFAULT;
  bool bsd_u = false, bsd_l = false;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    int rc = 0;
    if (!strncmp(a, "--", 2)) {
      const char *name = a + 2, *eq = strchr(name, '=');
      size_t n = eq ? (size_t)(eq - name) : strlen(name);
      const char *arg = eq ? eq + 1 : NULL;
#define LONG_IS(s) (n == strlen(s) && !strncmp(name, s, n))
#define NEED_ARG()                                                                             \
  do {                                                                                         \
    if (!arg) {                                                                                \
      if (i + 1 >= argc) return ps_usage_error(ctx, "list of process IDs must follow --pid"); \
      arg = argv[++i];                                                                         \
    }                                                                                          \
  } while (0)
      if (LONG_IS("help")) {
        print_help(ctx);
        return 0;
      } else if (LONG_IS("version")) {
        cmd_outs(ctx, "ps from procps-ng 4.0.2\n");
        return 0;
      } else if (LONG_IS("no-headers") || LONG_IS("no-heading")) {
        o->no_headers = true;
      } else if (LONG_IS("pid") || LONG_IS("quick-pid")) {
        NEED_ARG();
        rc = add_pids(ctx, o->pids, &o->npids, arg);
      } else if (LONG_IS("ppid")) {
        NEED_ARG();
        rc = add_pids(ctx, o->ppids, &o->nppids, arg);
      } else if (LONG_IS("format")) {
        NEED_ARG();
        rc = add_format(ctx, o, arg);
      } else if (LONG_IS("sort")) {
        NEED_ARG();
        o->sort = arg;
      } else if (LONG_IS("user") || LONG_IS("User")) {
        NEED_ARG();
        rc = add_users(o, arg);
      } else if (LONG_IS("cols") || LONG_IS("columns") || LONG_IS("width") ||
                 LONG_IS("lines") || LONG_IS("rows")) {
        if (!arg && i + 1 < argc) i++;
      } else if (LONG_IS("forest") || LONG_IS("headers") || LONG_IS("cumulative")) {
        if (LONG_IS("headers")) o->no_headers = false;
      } else {
        return ps_usage_error(ctx, "unknown gnu long option");
      }
#undef LONG_IS
#undef NEED_ARG
      if (rc) return rc;
      continue;
    }
    bool sysv = a[0] == '-';
    const char *w = sysv ? a + 1 : a;
    if (!sysv && *w >= '0' && *w <= '9') { /* ps PID... */
      if ((rc = add_pids(ctx, o->pids, &o->npids, w))) return rc;
      continue;
    }
    if (!sysv) o->bsd = true;
    for (size_t pos = (size_t)(w - a); a[pos]; pos++) {
      char c = a[pos];
      const ps_list_letter *list = ps_list_letter_find(sysv, c);
      if (list) {
        rc = ps_list_option(ctx, o, list->list, list->flag, argc, argv, &i, &pos);
        if (rc) return rc;
        continue;
      }
      if (sysv) switch (c) {
        case 'e': case 'A': o->all = true; break;
        case 'a': case 'd': break; /* with a terminal / not session leaders: none */
        case 'f': fmt = fmt == FMT_LONG ? FMT_FULL_LONG : FMT_FULL; break;
        case 'F': fmt = FMT_EXTRA; break;
        case 'l': fmt = fmt == FMT_FULL ? FMT_FULL_LONG : FMT_LONG; break;
        case 'H': case 'w': case 'y': case 'c': case 'j': case 'L': case 'T': case 'M': case 'Z':
          break;
        default: return ps_usage_error(ctx, "unsupported SysV option");
        }
      else switch (c) {
        case 'a': o->bsd_a = true; break;
        case 'x': o->bsd_x = true; o->all = true; break;
        case 'u': bsd_u = true; break;
        case 'l': bsd_l = true; break;
        case 'w': case 'h': case 'f': case 'e': case 'c': case 'S': case 'r': case 'n': case 'H':
          if (c == 'h') o->no_headers = true;
          break;
        default: return ps_usage_error(ctx, "unsupported option (BSD syntax)");
        }
    }
  }
  int rc = 0;
  if (o->bsd) {
    if (bsd_u) rc = add_std(ctx, o, "user,pid,%cpu,%mem,vsz,rss,tname,stat,start_time,bsdtime,args");
    else if (bsd_l)
      rc = add_std(ctx, o, "f,uid,pid,ppid,pri,ni,vsz,rss,wchan,stat,tname,bsdtime,args");
    else rc = add_std(ctx, o, "pid,tname,stat,bsdtime,args");
  } else if (fmt == FMT_FULL) {
    rc = add_std(ctx, o, "user=UID,pid,ppid,c,stime,tname,time,args=CMD");
  } else if (fmt == FMT_EXTRA) {
    rc = add_std(ctx, o, "user=UID,pid,ppid,c,sz,rss,psr,stime,tname,time,args=CMD");
  } else if (fmt == FMT_LONG) {
    rc = add_std(ctx, o, "f,s,uid,pid,ppid,c,pri,ni,addr,sz,wchan,tname,time,ucmd");
  } else if (fmt == FMT_FULL_LONG) {
    rc = add_std(ctx, o, "f,s,user=UID,pid,ppid,c,pri,ni,addr,sz,wchan,stime,tname,time,args=CMD");
  } else {
    rc = add_std(ctx, o, "pid,tname,time,ucmd");
  }
  if (rc) return rc;

  if (!ctx->io->procs) {
    cmd_errorf(ctx, "no processes to show outside a shell");
    return 1;
  }
  cmd_proc *procs = cmd_alloc(ctx, PS_MAX_PROCS * sizeof *procs);
  if (!procs) return 1;
  int n = ctx->io->procs(ctx->io_ud, procs, PS_MAX_PROCS);
  if (n > PS_MAX_PROCS) n = PS_MAX_PROCS;
  qsort_r(procs, (size_t)n, sizeof *procs, sort_cmp, o);

  bool header = !o->no_headers;
  if (header) {
    header = false;
    for (int i = 0; i < o->ncols; i++)
      if (*o->cols[i].header) header = true;
  }
  if (header && print_row(ctx, o, NULL) < 0) return 1;
  int shown = 0;
  for (int i = 0; i < n; i++) {
    if (cmd_poll(ctx)) return 1;
    if (!selected(o, &procs[i])) continue;
    shown++;
    int w = print_row(ctx, o, &procs[i]);
    if (w == -EPIPE) return 141;
    if (w < 0) return 1;
  }
  return shown ? 0 : 1;
}
