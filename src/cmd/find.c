/*
 * find - search for files in a directory hierarchy (GNU findutils 4.9).
 *
 *   find [-H] [-L] [-P] [-D OPTS] [-O LEVEL] [STARTING-POINT...] [EXPRESSION]
 *
 *   options:   -depth -d -maxdepth N -mindepth N -daystart -follow -regextype T
 *              -xdev -mount -noleaf -ignore_readdir_race -warn -nowarn
 *   tests:     -name -iname -path -ipath -wholename -iwholename -regex -iregex
 *              -lname -ilname -type -xtype -size -empty -perm -links -inum
 *              -samefile -user -group -uid -gid -nouser -nogroup -readable
 *              -writable -executable -mtime -mmin -atime -amin -ctime -cmin
 *              -used -newer -anewer -cnewer -newerXY -true -false
 *   actions:   -print -print0 -printf -fprint -fprint0 -fprintf -ls -fls
 *              -delete -exec -execdir (both ';' and '+') -ok -okdir -prune -quit
 *   operators: ( ) ! -not -a -and -o -or ,
 *
 * Design decisions:
 *  - The expression is parsed once into a tree (find_parse_expr; the parser is
 *    also the fuzz target fuzz/fuzz_find_expr.c) with GNU's error messages,
 *    then evaluated for every entry of an iterative walk (lib/fs walker:
 *    bounded memory, symlink loops reported like GNU). Recursion in the
 *    parser and evaluator is bounded by FIND_MAX_NESTING.
 *  - Directory entries come in name order (the store's order), where GNU
 *    uses readdir order; scripts that care sort anyway.
 *  - Like GNU's (d_type), the walk stats nothing its expression does not
 *    need; a name in a directory without x is still evaluated (tests that
 *    need its stat fail with "Permission denied"), and -delete unlinks by
 *    name in the parent's inode. -ls escapes names as findutils does.
 *  - -exec/-execdir/-ok run through ctx->io->run (run_env for -execdir's
 *    directory); '+' batches are flushed at FIND_BATCH_BYTES and at the end.
 *  - -regex: all types compile with the project's engine (re.h: bounded
 *    time, no glibc regex) with RE_WHOLE_LINE (the whole path must match; no
 *    RE_NEWLINE, so '\n' in a name is an ordinary character). -regextype:
 *    posix-basic, ed, sed, grep, posix-minimal-basic are BREs; posix-extended,
 *    egrep, posix-egrep, awk, posix-awk, gnu-awk are EREs; emacs and
 *    findutils-default (the default) are translated to an ERE (\( \) \| \{ \}
 *    groups, bare ( ) | { } literal, '.' never '\n'). Emacs-only operators
 *    (\` \' \s- \sC) are not offered.
 *  - Warnings about option order are off, as GNU's are when stdin is not a
 *    terminal.
 */
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/find.h"
#include "cmd/lib/buf.h"
#include "cmd/lib/fs.h"
#include "cmd/lib/gnu.h"
#include "cmd/lib/datetime.h"
#include "re/re.h"

CMD_DEFINE("find", cmd_find_main);

#define FIND_MAX_NESTING 200
#define FIND_BATCH_BYTES (128 * 1024)

static const char find_usage[] =
    "Usage: find [-H] [-L] [-P] [-Olevel] [-D debugopts] [path...] [expression]\n"
    "\n"
    "default path is the current directory; default expression is -print\n"
    "expression may consist of: operators, options, tests, and actions:\n"
    "operators (decreasing precedence; -and is implicit where no others are given):\n"
    "      ( EXPR )   ! EXPR   -not EXPR   EXPR1 -a EXPR2   EXPR1 -and EXPR2\n"
    "      EXPR1 -o EXPR2   EXPR1 -or EXPR2   EXPR1 , EXPR2\n"
    "positional options (always true): -daystart -follow -regextype\n"
    "normal options (always true, specified before other expressions):\n"
    "      -depth --help -maxdepth LEVELS -mindepth LEVELS -mount -noleaf\n"
    "      --version -xdev -ignore_readdir_race -noignore_readdir_race\n"
    "tests (N can be +N or -N or N): -amin N -anewer FILE -atime N -cmin N\n"
    "      -cnewer FILE -ctime N -empty -false -fstype TYPE -gid N -group NAME\n"
    "      -ilname PATTERN -iname PATTERN -inum N -iwholename PATTERN -iregex PATTERN\n"
    "      -links N -lname PATTERN -mmin N -mtime N -name PATTERN -newer FILE\n"
    "      -nouser -nogroup -path PATTERN -perm [-/]MODE -regex PATTERN\n"
    "      -readable -writable -executable\n"
    "      -wholename PATTERN -size N[bcwkMG] -true -type [bcdpflsD] -uid N\n"
    "      -used N -user NAME -xtype [bcdpfls]\n"
    "actions: -delete -print0 -printf FORMAT -fprintf FILE FORMAT -print \n"
    "      -fprint0 FILE -fprint FILE -ls -fls FILE -prune -quit\n"
    "      -exec COMMAND ; -exec COMMAND {} + -ok COMMAND ;\n"
    "      -execdir COMMAND ; -execdir COMMAND {} + -okdir COMMAND ;\n";

/* ---- the expression tree ----------------------------------------------------------- */

enum { N_AND = 1, N_OR, N_NOT, N_COMMA, N_PRED };

enum {
  P_TRUE = 1, P_FALSE, P_NAME, P_INAME, P_PATH, P_IPATH, P_REGEX, P_LNAME, P_ILNAME,
  P_TYPE, P_XTYPE, P_SIZE, P_EMPTY, P_PERM, P_LINKS, P_INUM, P_SAMEFILE, P_UID, P_GID,
  P_NOUSER, P_NOGROUP, P_READABLE, P_WRITABLE, P_EXECUTABLE, P_TIME, P_USED, P_NEWER,
  P_PRINT, P_PRINT0, P_PRINTF, P_LS, P_DELETE, P_EXEC, P_PRUNE, P_QUIT
};

/* How a numeric argument compares. */
enum { CMP_EQ, CMP_LT, CMP_GT };

/* One output file of -fprint & co. */
typedef struct find_out {
  int fd;                /* caller fd, or 1 for stdout */
  struct find_out *next; /* list of opened files */
  const char *name;      /* for messages */
} find_out;

/* One piece of a -printf format. */
typedef struct pf_item {
  const char *lit;    /* literal text (escapes decoded), or NULL */
  size_t litlen;      /* its length */
  char conv;          /* directive letter ('%' handled as literal) */
  char sub;           /* for %A %C %T: the strftime-like letter */
  char flags[8];      /* printf flags */
  int width, prec;    /* -1 when absent */
  bool stop;          /* \c: stop output here */
} pf_item;

/* -exec / -execdir / -ok. */
typedef struct exec_spec {
  char **argv;       /* template (arena), {} kept */
  int argc;          /* template length */
  bool plus;         /* '+' batching */
  bool dir;          /* -execdir / -okdir */
  bool ok;           /* -ok / -okdir: ask first */
  char **batch;      /* malloc'd paths collected for '+' */
  size_t nbatch, capbatch, batch_bytes; /* batch bookkeeping */
  char *batch_dir;   /* -execdir '+': directory of the batch (malloc'd) */
  struct exec_spec *next; /* all specs, to flush at the end */
} exec_spec;

typedef struct fnode {
  int type;                /* N_* */
  struct fnode *l, *r;     /* children */
  int pred;                /* P_* for N_PRED */
  const char *s;           /* pattern or string argument */
  int cmp;                 /* CMP_* */
  int64_t num;             /* numeric argument */
  uint64_t unit;           /* -size unit in bytes */
  char tfield;             /* time field: 'a', 'c', 'm' */
  int64_t tsec;            /* -newer reference time */
  long tnsec;              /* its nanoseconds */
  int64_t tscale;          /* -mtime: 86400, -mmin: 60 */
  uint32_t types;          /* -type: bit per type letter */
  uint32_t mode;           /* -perm */
  char perm_kind;          /* '=', '-', '/' */
  re *rx;                  /* -regex (freed at the end) */
  exec_spec *ex;           /* -exec & co */
  pf_item *pf;             /* -printf items */
  int npf;                 /* count */
  find_out *out;           /* output of -print & co */
  bool zero;               /* -print0 / -fprint0 */
  store_ino ino;           /* -samefile */
} fnode;

/* ---- state ------------------------------------------------------------------------ */

struct find_state {
  cmd_ctx *ctx;          /* the command */
  char **args;           /* expression tokens */
  int nargs, pos;        /* tokens and parse position */
  int depth;             /* parser nesting */
  fnode *root;           /* parsed expression */
  bool has_action;       /* an action other than -prune/-quit was seen */
  int follow;            /* 'P', 'L', 'H' */
  int maxdepth;          /* -1 = none */
  int mindepth;          /* 0 = none */
  bool depth_first;      /* -depth */
  bool delete_seen;      /* -delete (turns on -depth) */
  bool prune_seen;       /* -prune */
  bool daystart;         /* -daystart */
  int regextype;         /* 0 emacs, 1 basic, 2 extended */
  int64_t now;           /* start time */
  long now_ns;           /* its nanoseconds */
  int status;            /* exit status */
  bool quit;             /* -quit seen */
  bool pruned;           /* -prune was true for the current entry */
  cmd_walk_ent *e;       /* current entry */
  int nostat;            /* the current entry could not be stat'ed (a name
                            in a directory without x): 1 its type is known
                            from readdir, 2 a directory (GNU: even -type
                            fails); 0 stat'ed */
  bool nostat_reported;  /* its "Permission denied" was printed */
  const char *start;     /* current starting point */
  cmd_fs_ids *ids;       /* user/group names */
  cmd_tz tz;             /* time zone for -printf / -ls */
  find_out stdout_out;   /* fd 1 */
  find_out *outs;        /* opened -fprint files */
  exec_spec *execs;      /* all -exec specs */
  re **regexes;          /* compiled regexes to free */
  int nregex;            /* count */
  size_t capregex;       /* capacity */
  bool parse_only;       /* fuzzing: build the tree, open nothing, run nothing */
  char errbuf[512];      /* parse error message (for the fuzzer) */
};

/* ---- parse errors ------------------------------------------------------------------ */

static int perr(find_state *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int perr(find_state *f, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(f->errbuf, sizeof f->errbuf, fmt, ap);
  va_end(ap);
  if (!f->parse_only) cmd_errorf(f->ctx, "%s", f->errbuf);
  return -1;
}

static fnode *newnode(find_state *f, int type) {
  fnode *n = cmd_alloc(f->ctx, sizeof *n);
  if (n) n->type = type;
  return n;
}

static const char *lq(find_state *f, const char *s) { return cmd_gnu_quote(f->ctx, s); }

static const char *next_arg(find_state *f, const char *pred) {
  if (f->pos >= f->nargs) {
    perr(f, "missing argument to `%s'", pred);
    return NULL;
  }
  return f->args[f->pos++];
}

/* "+N", "-N", "N" with N a decimal integer. */
static bool parse_num(const char *s, int *cmp, int64_t *v) {
  *cmp = CMP_EQ;
  if (*s == '+') *cmp = CMP_GT, s++;
  else if (*s == '-') *cmp = CMP_LT, s++;
  if (*s < '0' || *s > '9') return false;
  errno = 0;
  char *ep;
  long long x = strtoll(s, &ep, 10);
  if (*ep || errno) return false;
  *v = x;
  return true;
}

/* Translates GNU emacs regex syntax to POSIX ERE (the inner part). */
static char *emacs_to_ere(cmd_ctx *ctx, const char *pat) {
  size_t n = strlen(pat);
  char *out = cmd_alloc(ctx, n * 4 + 8);
  if (!out) return NULL;
  char *o = out;
  bool in_bracket = false;
  for (size_t i = 0; i < n; i++) {
    char c = pat[i];
    if (in_bracket) {
      *o++ = c;
      if (c == ']' && !(o - out >= 2 && (o[-2] == '[' || (o[-2] == '^' && o - out >= 3 && o[-3] == '['))))
        in_bracket = false;
      continue;
    }
    if (c == '[') {
      in_bracket = true;
      *o++ = c;
      if (pat[i + 1] == '^') *o++ = pat[++i];
      if (pat[i + 1] == ']') *o++ = pat[++i];
      continue;
    }
    if (c == '\\' && i + 1 < n) {
      char d = pat[++i];
      switch (d) {
      case '(': *o++ = '('; break;
      case ')': *o++ = ')'; break;
      case '|': *o++ = '|'; break;
      case '{': *o++ = '{'; break;
      case '}': *o++ = '}'; break;
      default:
        if (d >= '1' && d <= '9') {
          *o++ = '\\';
          *o++ = d;
        } else {
          *o++ = '\\';
          *o++ = d;
        }
      }
      continue;
    }
    if (c == '(' || c == ')' || c == '|' || c == '{' || c == '}') {
      *o++ = '\\';
      *o++ = c;
      continue;
    }
    if (c == '.') { /* emacs syntax (no RE_DOT_NEWLINE): '.' is not '\n' */
      memcpy(o, "[^\n]", 4);
      o += 4;
      continue;
    }
    *o++ = c;
  }
  *o = 0;
  return out;
}

static re *compile_re(find_state *f, const char *pat, bool icase) {
  cmd_ctx *ctx = f->ctx;
  const char *src = pat;
  /* the whole path must match: RE_WHOLE_LINE (no RE_NEWLINE, so a '\n' in
   * a name is an ordinary character and '.' matches it, as in GNU's) */
  unsigned flags = RE_UTF8 | RE_NOSUB | RE_WHOLE_LINE;
  if (f->regextype != 1) {
    if (f->regextype == 0) src = emacs_to_ere(ctx, pat);
    if (!src) return NULL;
    flags |= RE_EXTENDED;
  }
  if (icase) flags |= RE_NOCASE;
  re *rx = NULL;
  re_err err;
  memset(&err, 0, sizeof err);
  if (re_compile(&rx, src, strlen(src), flags, &err) != 0) {
    perr(f, "failed to compile regular expression '%s': %s", pat, err.msg);
    return NULL;
  }
  if (cmd_grow(&f->regexes, &f->capregex, (size_t)f->nregex + 1, sizeof *f->regexes)) {
    re_free(rx);
    return NULL;
  }
  f->regexes[f->nregex++] = rx;
  return rx;
}

static int find_poll(void *ud) { return cmd_poll(ud); }

/* Does the regex match the whole path (compiled with RE_WHOLE_LINE)? The
 * engine's step budget and cmd_poll bound the time of any pattern. */
static bool regex_whole(find_state *f, re *rx, const char *s, size_t len) {
  re_span m[1];
  re_ctl ctl = {0, find_poll, f->ctx};
  return re_exec(rx, s, len, 0, 0, m, 1, &ctl) == RE_MATCH;
}

static find_out *open_out(find_state *f, const char *path) {
  find_out *o = cmd_alloc(f->ctx, sizeof *o);
  if (!o) return NULL;
  o->name = path;
  if (f->parse_only) {
    o->fd = -1;
    return o;
  }
  int fd = -ENOSYS;
  if (f->ctx->io && f->ctx->io->open)
    fd = f->ctx->io->open(f->ctx->io_ud, path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
  if (fd < 0) {
    cmd_errorf(f->ctx, "%s: %s", path, cmd_strerror(fd));
    return NULL;
  }
  o->fd = fd;
  o->next = f->outs;
  f->outs = o;
  return o;
}

/* Decodes a -printf format into items. */
static int parse_printf(find_state *f, fnode *n, const char *fmt) {
  cmd_ctx *ctx = f->ctx;
  size_t len = strlen(fmt);
  pf_item *items = cmd_alloc(ctx, (len + 2) * sizeof *items);
  char *lit = cmd_alloc(ctx, len + 1);
  if (!items || !lit) return -1;
  int ni = 0;
  size_t ll = 0;
  char *litstart = lit;
#define FLUSH_LIT()                                                   \
  do {                                                                \
    if (ll) {                                                         \
      items[ni].lit = litstart;                                       \
      items[ni].litlen = ll;                                          \
      ni++;                                                           \
      litstart += ll;                                                 \
      ll = 0;                                                         \
    }                                                                 \
  } while (0)
  for (size_t i = 0; i < len; i++) {
    char c = fmt[i];
    if (c == '\\') {
      char d = fmt[i + 1];
      if (!d) {
        litstart[ll++] = '\\';
        continue;
      }
      i++;
      switch (d) {
      case 'a': litstart[ll++] = '\a'; break;
      case 'b': litstart[ll++] = '\b'; break;
      case 'f': litstart[ll++] = '\f'; break;
      case 'n': litstart[ll++] = '\n'; break;
      case 'r': litstart[ll++] = '\r'; break;
      case 't': litstart[ll++] = '\t'; break;
      case 'v': litstart[ll++] = '\v'; break;
      case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': {
        int v = 0, k = 0;
        while (k < 3 && fmt[i] >= '0' && fmt[i] <= '7') {
          v = v * 8 + (fmt[i] - '0');
          i++;
          k++;
        }
        i--;
        litstart[ll++] = (char)v;
        break;
      }
      case '\\': litstart[ll++] = '\\'; break;
      case 'c':
        FLUSH_LIT();
        items[ni++].stop = true;
        break;
      default:
        if (!f->parse_only)
          cmd_errorf(ctx, "warning: unrecognized escape `\\%c'", d);
        litstart[ll++] = '\\';
        litstart[ll++] = d;
      }
      continue;
    }
    if (c != '%') {
      litstart[ll++] = c;
      continue;
    }
    if (fmt[i + 1] == '%') {
      litstart[ll++] = '%';
      i++;
      continue;
    }
    if (!fmt[i + 1]) {
      if (!f->parse_only) cmd_errorf(ctx, "warning: format directive `%%' should be followed by another character");
      litstart[ll++] = '%';
      continue;
    }
    FLUSH_LIT();
    pf_item *it = &items[ni];
    memset(it, 0, sizeof *it);
    it->width = it->prec = -1;
    size_t j = i + 1, nf = 0;
    while (fmt[j] && strchr("-+ #0", fmt[j])) {
      if (nf < sizeof it->flags - 1) it->flags[nf++] = fmt[j];
      j++;
    }
    if (fmt[j] >= '0' && fmt[j] <= '9') {
      it->width = 0;
      while (fmt[j] >= '0' && fmt[j] <= '9') {
        if (it->width < 100000) it->width = it->width * 10 + (fmt[j] - '0');
        j++;
      }
    }
    if (fmt[j] == '.') {
      j++;
      it->prec = 0;
      while (fmt[j] >= '0' && fmt[j] <= '9') {
        if (it->prec < 100000) it->prec = it->prec * 10 + (fmt[j] - '0');
        j++;
      }
    }
    char d = fmt[j];
    if (!d) {
      /* incomplete directive: print it as text */
      memcpy(litstart + ll, fmt + i, j - i);
      ll += j - i;
      i = j - 1;
      continue;
    }
    if (strchr("aAbcCdDfFgGhHiklmMnpPsStTuUyYZ", d)) {
      it->conv = d;
      if (d == 'A' || d == 'C' || d == 'T') {
        char k = fmt[j + 1];
        if (!k) {
          if (!f->parse_only)
            cmd_errorf(ctx, "warning: missing time format character after %%%c", d);
          it->conv = 0;
          it->lit = "";
          ni++;
          i = j;
          continue;
        }
        it->sub = k;
        j++;
      }
      ni++;
    } else {
      if (!f->parse_only) cmd_errorf(ctx, "warning: unrecognized format directive `%%%c'", d);
      memcpy(litstart + ll, fmt + i, j - i + 1);
      ll += j - i + 1;
    }
    i = j;
  }
  FLUSH_LIT();
#undef FLUSH_LIT
  n->pf = items;
  n->npf = ni;
  return 0;
}

static fnode *parse_or(find_state *f);

/* Is this token the start of an expression (not an operator or ')')? */
static bool is_operand_start(const char *t) {
  return strcmp(t, "-o") && strcmp(t, "-or") && strcmp(t, "-a") && strcmp(t, "-and") &&
         strcmp(t, ")") && strcmp(t, ",");
}

static fnode *parse_exec(find_state *f, fnode *n, const char *name) {
  cmd_ctx *ctx = f->ctx;
  int start = f->pos, end = -1;
  bool plus = false;
  for (int i = start; i < f->nargs; i++) {
    if (strcmp(f->args[i], ";") == 0) {
      end = i;
      break;
    }
    if (strcmp(f->args[i], "+") == 0 && i > start && strcmp(f->args[i - 1], "{}") == 0 &&
        name[1] != 'o') {
      end = i;
      plus = true;
      break;
    }
  }
  if (!plus && name[1] != 'o') {
    /* a '+' after an argument containing {} but not equal to it */
    for (int i = start; i < (end < 0 ? f->nargs : end); i++)
      if (strcmp(f->args[i], "+") == 0 && i > start && strstr(f->args[i - 1], "{}") &&
          strcmp(f->args[i - 1], "{}") != 0) {
        perr(f, "In %s the %s must appear by itself, but you specified %s",
             lq(f, "-exec ... {} +"), lq(f, "{}"), lq(f, f->args[i - 1]));
        return NULL;
      }
  }
  if (end < 0 || end == start) {
    perr(f, "missing argument to `%s'", name);
    return NULL;
  }
  exec_spec *ex = cmd_alloc(ctx, sizeof *ex);
  if (!ex) return NULL;
  ex->argc = end - start;
  ex->argv = cmd_alloc(ctx, (size_t)(ex->argc + 1) * sizeof *ex->argv);
  if (!ex->argv) return NULL;
  for (int i = 0; i < ex->argc; i++) ex->argv[i] = f->args[start + i];
  ex->plus = plus;
  ex->dir = strstr(name, "dir") != NULL;
  ex->ok = name[1] == 'o';
  if (plus) {
    int count = 0;
    for (int i = 0; i < ex->argc; i++)
      if (strstr(ex->argv[i], "{}")) count++;
    if (count > 1) {
      perr(f, "Only one instance of {} is supported with -exec%s ... +", ex->dir ? "dir" : "");
      return NULL;
    }
  }
  ex->next = f->execs;
  f->execs = ex;
  n->ex = ex;
  f->pos = end + 1;
  f->has_action = true;
  return n;
}

static uint32_t type_bit(char c) {
  const char *all = "bcdpflsD";
  const char *p = strchr(all, c);
  return p ? 1u << (p - all) : 0;
}

static fnode *parse_primary(find_state *f) {
  cmd_ctx *ctx = f->ctx;
  if (f->pos >= f->nargs) return NULL;
  const char *t = f->args[f->pos++];
  fnode *n = newnode(f, N_PRED);
  if (!n) return NULL;
  const char *a;
  /* options: always true */
  if (!strcmp(t, "-depth") || !strcmp(t, "-d")) {
    f->depth_first = true;
    n->pred = P_TRUE;
    return n;
  }
  if (!strcmp(t, "-maxdepth") || !strcmp(t, "-mindepth")) {
    if (!(a = next_arg(f, t))) return NULL;
    char *ep;
    errno = 0;
    long v = strtol(a, &ep, 10);
    if (!*a || *ep || v < 0 || errno || v > INT_MAX || *a == '-' || *a == '+') {
      perr(f, "Expected a positive decimal integer argument to %s, but got %s", t, lq(f, a));
      return NULL;
    }
    if (t[2] == 'a') f->maxdepth = (int)v;
    else f->mindepth = (int)v;
    n->pred = P_TRUE;
    return n;
  }
  if (!strcmp(t, "-daystart")) { f->daystart = true; n->pred = P_TRUE; return n; }
  if (!strcmp(t, "-follow")) { f->follow = 'L'; n->pred = P_TRUE; return n; }
  if (!strcmp(t, "-xdev") || !strcmp(t, "-mount") || !strcmp(t, "-noleaf") ||
      !strcmp(t, "-ignore_readdir_race") || !strcmp(t, "-noignore_readdir_race") ||
      !strcmp(t, "-warn") || !strcmp(t, "-nowarn")) {
    n->pred = P_TRUE;
    return n;
  }
  if (!strcmp(t, "-regextype")) {
    if (!(a = next_arg(f, t))) return NULL;
    static const struct { const char *name; int type; } rt[] = {
        {"findutils-default", 0}, {"ed", 1}, {"emacs", 0}, {"gnu-awk", 2}, {"grep", 1},
        {"posix-awk", 2}, {"awk", 2}, {"posix-basic", 1}, {"posix-egrep", 2},
        {"egrep", 2}, {"posix-extended", 2}, {"posix-minimal-basic", 1}, {"sed", 1}};
    int k = -1;
    for (size_t i = 0; i < sizeof rt / sizeof rt[0]; i++)
      if (!strcmp(rt[i].name, a)) k = (int)i;
    if (k < 0) {
      perr(f, "Unknown regular expression type %s; valid types are %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s.",
           lq(f, a), lq(f, "findutils-default"), lq(f, "ed"), lq(f, "emacs"), lq(f, "gnu-awk"),
           lq(f, "grep"), lq(f, "posix-awk"), lq(f, "awk"), lq(f, "posix-basic"),
           lq(f, "posix-egrep"), lq(f, "egrep"), lq(f, "posix-extended"),
           lq(f, "posix-minimal-basic"), lq(f, "sed"));
      return NULL;
    }
    f->regextype = rt[k].type;
    n->pred = P_TRUE;
    return n;
  }
  /* tests */
  if (!strcmp(t, "-true")) { n->pred = P_TRUE; return n; }
  if (!strcmp(t, "-false")) { n->pred = P_FALSE; return n; }
  if (!strcmp(t, "-name") || !strcmp(t, "-iname") || !strcmp(t, "-path") ||
      !strcmp(t, "-ipath") || !strcmp(t, "-wholename") || !strcmp(t, "-iwholename") ||
      !strcmp(t, "-lname") || !strcmp(t, "-ilname")) {
    if (!(a = next_arg(f, t))) return NULL;
    n->s = a;
    if (!strcmp(t, "-name")) n->pred = P_NAME;
    else if (!strcmp(t, "-iname")) n->pred = P_INAME;
    else if (!strcmp(t, "-lname")) n->pred = P_LNAME;
    else if (!strcmp(t, "-ilname")) n->pred = P_ILNAME;
    else if (t[1] == 'i') n->pred = P_IPATH;
    else n->pred = P_PATH;
    return n;
  }
  if (!strcmp(t, "-regex") || !strcmp(t, "-iregex")) {
    if (!(a = next_arg(f, t))) return NULL;
    n->pred = P_REGEX;
    n->rx = compile_re(f, a, t[1] == 'i');
    return n->rx ? n : NULL;
  }
  if (!strcmp(t, "-type") || !strcmp(t, "-xtype")) {
    if (!(a = next_arg(f, t))) return NULL;
    n->pred = t[1] == 'x' ? P_XTYPE : P_TYPE;
    for (const char *p = a; *p; p++) {
      uint32_t b = type_bit(*p);
      if (!b) {
        perr(f, "Unknown argument to %s: %c", t, *p);
        return NULL;
      }
      if (n->types & b) {
        perr(f, "Duplicate file type '%c' in the argument list to %s.", *p, t);
        return NULL;
      }
      n->types |= b;
      if (p[1] == ',') {
        p++;
        if (!p[1]) {
          perr(f, "Last file type in list argument to %s is missing, i.e., list is ending on: ','", t);
          return NULL;
        }
      } else if (p[1]) {
        perr(f, "Must separate multiple arguments to %s using: ','", t);
        return NULL;
      }
    }
    if (!*a) {
      perr(f, "Arguments to %s should contain at least one letter", t);
      return NULL;
    }
    return n;
  }
  if (!strcmp(t, "-size")) {
    if (!(a = next_arg(f, t))) return NULL;
    n->pred = P_SIZE;
    const char *p = a;
    n->cmp = CMP_EQ;
    if (*p == '+') n->cmp = CMP_GT, p++;
    else if (*p == '-') n->cmp = CMP_LT, p++;
    char *ep;
    if (*p < '0' || *p > '9') {
      perr(f, "invalid argument `%s' to `-size'", a);
      return NULL;
    }
    errno = 0;
    unsigned long long v = strtoull(p, &ep, 10);
    if (errno) {
      perr(f, "invalid argument `%s' to `-size'", a);
      return NULL;
    }
    n->num = (int64_t)(v > INT64_MAX ? INT64_MAX : v);
    n->unit = 512;
    if (*ep) {
      switch (*ep) {
      case 'b': n->unit = 512; break;
      case 'c': n->unit = 1; break;
      case 'w': n->unit = 2; break;
      case 'k': n->unit = 1024; break;
      case 'M': n->unit = 1024 * 1024; break;
      case 'G': n->unit = 1024 * 1024 * 1024; break;
      default:
        perr(f, "invalid -size type `%c'", *ep);
        return NULL;
      }
      if (ep[1]) {
        perr(f, "invalid -size type `%c'", ep[1]);
        return NULL;
      }
    }
    return n;
  }
  if (!strcmp(t, "-empty")) { n->pred = P_EMPTY; return n; }
  if (!strcmp(t, "-readable")) { n->pred = P_READABLE; return n; }
  if (!strcmp(t, "-writable")) { n->pred = P_WRITABLE; return n; }
  if (!strcmp(t, "-executable")) { n->pred = P_EXECUTABLE; return n; }
  if (!strcmp(t, "-nouser")) { n->pred = P_NOUSER; return n; }
  if (!strcmp(t, "-nogroup")) { n->pred = P_NOGROUP; return n; }
  if (!strcmp(t, "-perm")) {
    if (!(a = next_arg(f, t))) return NULL;
    n->pred = P_PERM;
    const char *m = a;
    n->perm_kind = '=';
    if (*m == '-' || *m == '/') n->perm_kind = *m++;
    else if (*m == '+' && m[1] >= '0' && m[1] <= '7') {
      perr(f, "invalid mode %s", lq(f, a));
      return NULL;
    }
    cmd_mode_change *ch = cmd_mode_compile(ctx, m);
    if (!ch) {
      perr(f, "invalid mode %s", lq(f, m));
      return NULL;
    }
    n->mode = cmd_mode_adjust(0, false, 0, ch, NULL);
    return n;
  }
  if (!strcmp(t, "-links") || !strcmp(t, "-inum") || !strcmp(t, "-uid") ||
      !strcmp(t, "-gid") || !strcmp(t, "-mtime") || !strcmp(t, "-atime") ||
      !strcmp(t, "-ctime") || !strcmp(t, "-mmin") || !strcmp(t, "-amin") ||
      !strcmp(t, "-cmin") || !strcmp(t, "-used")) {
    if (!(a = next_arg(f, t))) return NULL;
    if (!parse_num(a, &n->cmp, &n->num)) {
      perr(f, "invalid argument `%s' to `%s'", a, t);
      return NULL;
    }
    if (!strcmp(t, "-links")) n->pred = P_LINKS;
    else if (!strcmp(t, "-inum")) n->pred = P_INUM;
    else if (!strcmp(t, "-uid")) n->pred = P_UID;
    else if (!strcmp(t, "-gid")) n->pred = P_GID;
    else if (!strcmp(t, "-used")) n->pred = P_USED;
    else {
      n->pred = P_TIME;
      n->tfield = t[1];
      n->tscale = strstr(t, "min") ? 60 : 86400;
    }
    return n;
  }
  if (!strcmp(t, "-user") || !strcmp(t, "-group")) {
    if (!(a = next_arg(f, t))) return NULL;
    uint32_t id;
    bool user = t[1] == 'u';
    if (!f->ids) f->ids = cmd_fs_ids_load(ctx);
    int rc = user ? cmd_fs_userid(f->ids, a, &id) : cmd_fs_groupid(f->ids, a, &id);
    if (rc < 0 || !*a) {
      if (user) perr(f, "%s is not the name of a known user", lq(f, a));
      else perr(f, "%s is not the name of an existing group", lq(f, a));
      return NULL;
    }
    n->pred = user ? P_UID : P_GID;
    n->cmp = CMP_EQ;
    n->num = id;
    return n;
  }
  if (!strcmp(t, "-samefile")) {
    if (!(a = next_arg(f, t))) return NULL;
    store_stat st;
    int rc = f->follow == 'L' ? cmd_fs_stat(ctx, a, &st) : cmd_fs_lstat(ctx, a, &st);
    if (rc < 0) {
      perr(f, "%s: %s", lq(f, a), cmd_strerror(rc));
      return NULL;
    }
    n->pred = P_SAMEFILE;
    n->ino = st.ino;
    return n;
  }
  if (!strcmp(t, "-newer") || !strcmp(t, "-anewer") || !strcmp(t, "-cnewer") ||
      (!strncmp(t, "-newer", 6) && strlen(t) == 8)) {
    if (!(a = next_arg(f, t))) return NULL;
    char x = 'm', y = 'm';
    if (t[1] == 'a') x = 'a';
    else if (t[1] == 'c') x = 'c';
    else if (strlen(t) == 8) {
      x = t[6];
      y = t[7];
      if (!strchr("acmB", x) || !strchr("acmBt", y)) {
        perr(f, "invalid predicate `%s'", t);
        return NULL;
      }
      if (x == 'B') x = 'c';
    }
    n->pred = P_NEWER;
    n->tfield = x;
    if (y == 't') {
      long ns;
      if (cmd_parse_date(a, f->now, f->now_ns, &f->tz, &n->tsec, &ns) < 0) {
        perr(f, "I cannot figure out how to interpret %s as a date or time", lq(f, a));
        return NULL;
      }
      n->tnsec = ns;
      return n;
    }
    store_stat st;
    int rc = f->follow == 'L' || f->follow == 'H' ? cmd_fs_stat(ctx, a, &st)
                                                  : cmd_fs_lstat(ctx, a, &st);
    if (rc < 0) {
      perr(f, "%s: %s", lq(f, a), cmd_strerror(rc));
      return NULL;
    }
    switch (y) {
    case 'a': n->tsec = st.atime; n->tnsec = st.atime_nsec; break;
    case 'c': case 'B': n->tsec = st.ctime; n->tnsec = st.ctime_nsec; break;
    default: n->tsec = st.mtime; n->tnsec = st.mtime_nsec;
    }
    return n;
  }
  if (!strcmp(t, "-fstype")) {
    if (!(a = next_arg(f, t))) return NULL;
    n->pred = strcmp(a, "sbx") == 0 ? P_TRUE : P_FALSE;
    return n;
  }
  /* actions */
  if (!strcmp(t, "-print") || !strcmp(t, "-print0")) {
    n->pred = P_PRINT;
    n->zero = t[6] == '0';
    n->out = &f->stdout_out;
    f->has_action = true;
    return n;
  }
  if (!strcmp(t, "-fprint") || !strcmp(t, "-fprint0") || !strcmp(t, "-fls")) {
    if (!(a = next_arg(f, t))) return NULL;
    n->pred = t[2] == 'l' ? P_LS : P_PRINT;
    n->zero = !strcmp(t, "-fprint0");
    n->out = open_out(f, a);
    f->has_action = true;
    return n->out ? n : NULL;
  }
  if (!strcmp(t, "-printf") || !strcmp(t, "-fprintf")) {
    const char *file = NULL;
    if (t[1] == 'f' && !(file = next_arg(f, t))) return NULL;
    if (!(a = next_arg(f, t))) return NULL;
    n->pred = P_PRINTF;
    n->out = file ? open_out(f, file) : &f->stdout_out;
    if (!n->out) return NULL;
    if (parse_printf(f, n, a) < 0) return NULL;
    f->has_action = true;
    return n;
  }
  if (!strcmp(t, "-ls")) {
    n->pred = P_LS;
    n->out = &f->stdout_out;
    f->has_action = true;
    return n;
  }
  if (!strcmp(t, "-delete")) {
    n->pred = P_DELETE;
    f->delete_seen = true;
    f->has_action = true;
    return n;
  }
  if (!strcmp(t, "-prune")) { n->pred = P_PRUNE; f->prune_seen = true; return n; }
  if (!strcmp(t, "-quit")) { n->pred = P_QUIT; return n; }
  if (!strcmp(t, "-exec") || !strcmp(t, "-execdir") || !strcmp(t, "-ok") ||
      !strcmp(t, "-okdir")) {
    n->pred = P_EXEC;
    return parse_exec(f, n, t);
  }
  if (t[0] == '-' && t[1]) perr(f, "unknown predicate `%s'", t);
  else perr(f, "paths must precede expression: `%s'", t);
  return NULL;
}

static fnode *parse_unary(find_state *f) {
  if (f->pos >= f->nargs) return NULL;
  const char *t = f->args[f->pos];
  if (!strcmp(t, "!") || !strcmp(t, "-not")) {
    f->pos++;
    if (f->pos < f->nargs && !is_operand_start(f->args[f->pos]) &&
        strcmp(f->args[f->pos], ")") != 0) {
      perr(f, "invalid expression; you have used a binary operator '%s' with nothing before it.",
           f->args[f->pos]);
      return NULL;
    }
    if (f->pos >= f->nargs || !is_operand_start(f->args[f->pos])) {
      perr(f, "expected an expression after '%s'", t);
      return NULL;
    }
    if (++f->depth > FIND_MAX_NESTING) {
      perr(f, "expression nested too deeply");
      return NULL;
    }
    fnode *c = parse_unary(f);
    f->depth--;
    if (!c) return NULL;
    fnode *n = newnode(f, N_NOT);
    if (!n) return NULL;
    n->l = c;
    return n;
  }
  if (!strcmp(t, "(")) {
    f->pos++;
    if (f->pos < f->nargs && !strcmp(f->args[f->pos], ")")) {
      perr(f, "invalid expression; empty parentheses are not allowed.");
      return NULL;
    }
    if (f->pos >= f->nargs) {
      perr(f, "invalid expression; expected to find a ')' but didn't see one. Perhaps you need an extra predicate after '('");
      return NULL;
    }
    if (++f->depth > FIND_MAX_NESTING) {
      perr(f, "expression nested too deeply");
      return NULL;
    }
    fnode *e = parse_or(f);
    f->depth--;
    if (!e) return NULL;
    if (f->pos >= f->nargs || strcmp(f->args[f->pos], ")") != 0) {
      perr(f, "invalid expression; expected to find a ')' but didn't see one. Perhaps you need an extra predicate after '('");
      return NULL;
    }
    f->pos++;
    return e;
  }
  return parse_primary(f);
}

static fnode *parse_and(find_state *f) {
  fnode *l = parse_unary(f);
  if (!l) return NULL;
  while (f->pos < f->nargs) {
    const char *t = f->args[f->pos];
    if (!strcmp(t, "-a") || !strcmp(t, "-and")) {
      f->pos++;
      if (f->pos >= f->nargs || !is_operand_start(f->args[f->pos])) {
        perr(f, "invalid expression; you have used a binary operator '%s' with nothing after it.", t);
        return NULL;
      }
    } else if (!is_operand_start(t)) {
      break;
    }
    fnode *r = parse_unary(f);
    if (!r) return NULL;
    fnode *n = newnode(f, N_AND);
    if (!n) return NULL;
    n->l = l;
    n->r = r;
    l = n;
  }
  return l;
}

static fnode *parse_or_only(find_state *f) {
  fnode *l = parse_and(f);
  if (!l) return NULL;
  while (f->pos < f->nargs &&
         (!strcmp(f->args[f->pos], "-o") || !strcmp(f->args[f->pos], "-or"))) {
    const char *t = f->args[f->pos++];
    if (f->pos >= f->nargs || !is_operand_start(f->args[f->pos])) {
      perr(f, "invalid expression; you have used a binary operator '%s' with nothing after it.", t);
      return NULL;
    }
    fnode *r = parse_and(f);
    if (!r) return NULL;
    fnode *n = newnode(f, N_OR);
    if (!n) return NULL;
    n->l = l;
    n->r = r;
    l = n;
  }
  return l;
}

static fnode *parse_or(find_state *f) {
  if (f->pos < f->nargs) {
    const char *t = f->args[f->pos];
    if (!strcmp(t, "-o") || !strcmp(t, "-or") || !strcmp(t, "-a") || !strcmp(t, "-and") ||
        !strcmp(t, ",")) {
      perr(f, "invalid expression; you have used a binary operator '%s' with nothing before it.", t);
      return NULL;
    }
  }
  fnode *l = parse_or_only(f);
  if (!l) return NULL;
  while (f->pos < f->nargs && !strcmp(f->args[f->pos], ",")) {
    f->pos++;
    if (f->pos >= f->nargs || !is_operand_start(f->args[f->pos])) {
      perr(f, "invalid expression; you have used a binary operator ',' with nothing after it.");
      return NULL;
    }
    fnode *r = parse_or_only(f);
    if (!r) return NULL;
    fnode *n = newnode(f, N_COMMA);
    if (!n) return NULL;
    n->l = l;
    n->r = r;
    l = n;
  }
  return l;
}

int find_parse_expr(find_state *f) {
  if (f->pos >= f->nargs) {
    f->root = newnode(f, N_PRED);
    if (!f->root) return -1;
    f->root->pred = P_TRUE;
  } else {
    f->root = parse_or(f);
    if (!f->root) {
      if (!f->errbuf[0]) perr(f, "invalid expression");
      return -1;
    }
    if (f->pos < f->nargs) {
      const char *t = f->args[f->pos];
      if (!strcmp(t, ")")) perr(f, "invalid expression; you have too many ')'");
      else perr(f, "paths must precede expression: `%s'", t);
      return -1;
    }
  }
  if (!f->has_action) {
    fnode *p = newnode(f, N_PRED), *a = newnode(f, N_AND);
    if (!p || !a) return -1;
    p->pred = P_PRINT;
    p->out = &f->stdout_out;
    a->l = f->root;
    a->r = p;
    f->root = a;
  }
  if (f->delete_seen) {
    if (f->prune_seen && !f->depth_first && !f->parse_only)
      cmd_errorf(f->ctx, "The -delete action automatically turns on -depth, but -prune does nothing when -depth is in effect.  If you want to carry on anyway, just explicitly use the -depth option.");
    f->depth_first = true;
  }
  return 0;
}

/* ---- output helpers ---------------------------------------------------------------- */

static void out_write(find_state *f, find_out *o, const char *s, size_t n) {
  if (o->fd < 0) return;
  if (o == &f->stdout_out) cmd_out(f->ctx, s, n);
  else cmd_write_fd(f->ctx, o->fd, s, n);
}

/* ---- exec ---------------------------------------------------------------------------- */

/* Replaces every "{}" in s by path (arena). */
static char *subst(cmd_ctx *ctx, const char *s, const char *path) {
  const char *p = strstr(s, "{}");
  if (!p) return (char *)s;
  size_t pl = strlen(path), count = 0;
  for (const char *q = s; (q = strstr(q, "{}")); q += 2) count++;
  char *out = cmd_alloc(ctx, strlen(s) + count * pl + 1);
  if (!out) return (char *)s;
  char *o = out;
  for (const char *q = s; *q;) {
    if (q[0] == '{' && q[1] == '}') {
      memcpy(o, path, pl);
      o += pl;
      q += 2;
    } else {
      *o++ = *q++;
    }
  }
  *o = 0;
  return out;
}

static int run_cmd(find_state *f, int argc, char **argv, const char *dir) {
  cmd_ctx *ctx = f->ctx;
  cmd_flush(ctx);
  if (!ctx->io) return 127;
  if (dir && ctx->io->run_env)
    return ctx->io->run_env(ctx->io_ud, argc, argv, ctx->env, dir, 0, 1);
  if (ctx->io->run) return ctx->io->run(ctx->io_ud, argc, argv, 0, 1);
  return 127;
}

/* -ok's question: GNU's "< PROGRAM ... FILE > ? " (not the whole command). */
static bool ask(find_state *f, const char *program, const char *file) {
  cmd_ctx *ctx = f->ctx;
  cmd_err_raw(ctx, "< %s ... %s > ? ", program, file);
  cmd_in *in = NULL; /* a reader for this question only, closed after it */
  bool yes = cmd_fs_answer_yes(ctx, &in);
  if (in) cmd_in_close(in);
  return yes;
}

/* The directory (absolute) and "./name" for -execdir. */
static void execdir_parts(find_state *f, const char *path, char **dir, char **name) {
  cmd_ctx *ctx = f->ctx;
  char *d = cmd_fs_dirname(ctx, path);
  char *b = cmd_fs_basename(ctx, path);
  char *real = NULL;
  if (store_realpath(ctx->store, ctx->cwd, d, &real) == 0) {
    *dir = cmd_strdup(ctx, real);
    free(real);
  } else {
    *dir = (char *)cmd_abspath(ctx, d);
  }
  if (strcmp(b, "/") == 0) *name = b;
  else *name = cmd_join_path(ctx, ".", b);
}

static void flush_batch(find_state *f, exec_spec *ex) {
  if (ex->nbatch == 0) return;
  cmd_ctx *ctx = f->ctx;
  int argc = ex->argc - 1 + (int)ex->nbatch;
  char **argv = malloc(((size_t)argc + 1) * sizeof *argv);
  if (!argv) return;
  int k = 0;
  for (int i = 0; i < ex->argc; i++) {
    if (strcmp(ex->argv[i], "{}") == 0 && i == ex->argc - 1) {
      for (size_t j = 0; j < ex->nbatch; j++) argv[k++] = ex->batch[j];
    } else {
      argv[k++] = ex->argv[i];
    }
  }
  argv[k] = NULL;
  int st = run_cmd(f, k, argv, ex->dir ? ex->batch_dir : NULL);
  if (st != 0) f->status = 1;
  free(argv);
  for (size_t j = 0; j < ex->nbatch; j++) free(ex->batch[j]);
  ex->nbatch = 0;
  ex->batch_bytes = 0;
  free(ex->batch_dir);
  ex->batch_dir = NULL;
  (void)ctx;
}

static bool do_exec(find_state *f, exec_spec *ex, const char *path) {
  cmd_ctx *ctx = f->ctx;
  char *dir = NULL, *name = (char *)path;
  if (ex->dir) execdir_parts(f, path, &dir, &name);
  if (ex->plus) {
    if (ex->dir && ex->batch_dir && strcmp(ex->batch_dir, dir) != 0) flush_batch(f, ex);
    if (ex->batch_bytes + strlen(name) + 1 > FIND_BATCH_BYTES) flush_batch(f, ex);
    if (cmd_grow(&ex->batch, &ex->capbatch, ex->nbatch + 1, sizeof *ex->batch)) return true;
    char *copy = strdup(name);
    if (!copy) return true;
    ex->batch[ex->nbatch++] = copy;
    ex->batch_bytes += strlen(name) + 1;
    if (ex->dir && !ex->batch_dir) ex->batch_dir = strdup(dir);
    return true;
  }
  char **argv = cmd_alloc(ctx, ((size_t)ex->argc + 1) * sizeof *argv);
  if (!argv) return false;
  for (int i = 0; i < ex->argc; i++) argv[i] = subst(ctx, ex->argv[i], name);
  if (ex->ok && !ask(f, argv[0], name)) return false;
  return run_cmd(f, ex->argc, argv, dir) == 0;
}

/* ---- evaluation ----------------------------------------------------------------------- */

/* The name -name matches: the last component, trailing slashes ignored. */
static const char *entry_name(find_state *f, char *buf, size_t bufsz) {
  const cmd_walk_ent *e = f->e;
  if (e->depth > 0) return e->name;
  size_t l = e->pathlen;
  const char *p = e->path;
  while (l > 1 && p[l - 1] == '/') l--;
  if (l == 1 && p[0] == '/') return "/";
  size_t s = l;
  while (s > 0 && p[s - 1] != '/') s--;
  size_t n = l - s;
  if (n >= bufsz) n = bufsz - 1;
  memcpy(buf, p + s, n);
  buf[n] = 0;
  return buf;
}

static bool cmp_num(int cmp, int64_t have, int64_t want) {
  switch (cmp) {
  case CMP_LT: return have < want;
  case CMP_GT: return have > want;
  default: return have == want;
  }
}

static char type_char(uint32_t mode) {
  switch (mode & S_IFMT) {
  case S_IFDIR: return 'd';
  case S_IFLNK: return 'l';
  case S_IFCHR: return 'c';
  case S_IFBLK: return 'b';
  case S_IFIFO: return 'p';
  case S_IFSOCK: return 's';
  default: return 'f';
  }
}

static int64_t field_time(const store_stat *st, char field, long *ns) {
  switch (field) {
  case 'a': *ns = st->atime_nsec; return st->atime;
  case 'c': *ns = st->ctime_nsec; return st->ctime;
  default: *ns = st->mtime_nsec; return st->mtime;
  }
}

static bool is_empty_dir(find_state *f, store_ino ino);
static void print_ls(find_state *f, find_out *o);
static void do_printf(find_state *f, fnode *n);

/* Tests and actions that look at the entry's stat (not only its name, path
 * and the type readdir gave). */
static bool pred_needs_stat(int pred) {
  switch (pred) {
  case P_TRUE: case P_FALSE: case P_NAME: case P_INAME: case P_PATH: case P_IPATH:
  case P_REGEX: case P_TYPE: case P_PRINT: case P_PRINTF: case P_DELETE: case P_EXEC:
  case P_PRUNE: case P_QUIT: case P_LNAME: case P_ILNAME:
    return false;
  default:
    return true;
  }
}

/* Does any test or action of the expression need more than names and the
 * types readdir gives? If not, the walk skips the stat of every file (as
 * GNU's find does with d_type): `find . -name '*.c'` costs one query per
 * directory. */
static bool expr_needs_stat(const fnode *n) {
  if (!n) return false;
  if (n->type != N_PRED) return expr_needs_stat(n->l) || expr_needs_stat(n->r);
  return pred_needs_stat(n->pred) || n->pred == P_PRINTF || n->pred == P_LNAME ||
         n->pred == P_ILNAME;
}

static bool eval(find_state *f, fnode *n) {
  cmd_ctx *ctx = f->ctx;
  cmd_walk_ent *e = f->e;
  switch (n->type) {
  /* -quit ends find at once (GNU exits there): nothing after it runs, not
   * even the implicit -print */
  case N_AND: return eval(f, n->l) && !f->quit && eval(f, n->r);
  case N_OR: return (eval(f, n->l) || (!f->quit && eval(f, n->r)));
  case N_NOT: return !eval(f, n->l);
  case N_COMMA: eval(f, n->l); return !f->quit && eval(f, n->r);
  default: break;
  }
  const store_stat *st = &e->st;
  char nbuf[STORE_NAME_MAX + 2];
  if (f->nostat && (pred_needs_stat(n->pred) || (f->nostat == 2 && n->pred == P_PRINTF))) {
    /* GNU: a test that needs the stat fails, with the stat's error once */
    if (f->nostat == 1 && !f->nostat_reported && n->pred != P_READABLE &&
        n->pred != P_WRITABLE && n->pred != P_EXECUTABLE) {
      cmd_errorf(ctx, "%s: %s", lq(f, e->path), cmd_strerror(e->err));
      cmd_record_error(ctx, e->err, e->path);
      f->status = 1;
      f->nostat_reported = true;
    }
    return false;
  }
  switch (n->pred) {
  case P_TRUE: return true;
  case P_FALSE: return false;
  case P_NAME: return fnmatch(n->s, entry_name(f, nbuf, sizeof nbuf), 0) == 0;
  case P_INAME: return fnmatch(n->s, entry_name(f, nbuf, sizeof nbuf), FNM_CASEFOLD) == 0;
  case P_PATH: return fnmatch(n->s, e->path, 0) == 0;
  case P_IPATH: return fnmatch(n->s, e->path, FNM_CASEFOLD) == 0;
  case P_REGEX: return regex_whole(f, n->rx, e->path, e->pathlen);
  case P_LNAME:
  case P_ILNAME: {
    if (!S_ISLNK(st->mode) && !(e->followed || e->info == CMD_WALK_SLNONE)) return false;
    char *t = NULL;
    if (store_path_readlink(ctx->store, ctx->cwd, e->path, &t) < 0) return false;
    bool m = fnmatch(n->s, t, n->pred == P_ILNAME ? FNM_CASEFOLD : 0) == 0;
    free(t);
    return m;
  }
  case P_TYPE: {
    if (f->nostat == 2) return false;
    char c = type_char(st->mode);
    return (n->types & type_bit(c)) != 0;
  }
  case P_XTYPE: {
    store_stat other;
    int rc;
    if (f->follow == 'L') rc = cmd_fs_lstat(ctx, e->path, &other);
    else if (S_ISLNK(st->mode)) rc = cmd_fs_stat(ctx, e->path, &other);
    else { other = *st; rc = 0; }
    if (rc < 0) other = *st;
    return (n->types & type_bit(type_char(other.mode))) != 0;
  }
  case P_SIZE: {
    uint64_t sz = st->size;
    if (S_ISDIR(st->mode) && sz == 0) sz = CMD_FS_BLKSIZE;
    uint64_t units = n->unit == 512 ? cmd_fs_blocks(st) : sz / n->unit + (sz % n->unit != 0);
    if (n->unit == 512 && !S_ISREG(st->mode) && !S_ISDIR(st->mode))
      units = sz / 512 + (sz % 512 != 0);
    if (n->unit == 512) units = sz / 512 + (sz % 512 != 0);
    return cmp_num(n->cmp, (int64_t)units, n->num);
  }
  case P_EMPTY:
    if (S_ISDIR(st->mode)) return is_empty_dir(f, st->ino);
    if (S_ISREG(st->mode)) return st->size == 0;
    return false;
  case P_PERM: {
    uint32_t m = st->mode & 07777;
    switch (n->perm_kind) {
    case '-': return (m & n->mode) == n->mode;
    case '/': return n->mode == 0 || (m & n->mode) != 0;
    default: return m == n->mode;
    }
  }
  case P_LINKS: return cmp_num(n->cmp, cmd_fs_nlink(ctx, st), n->num);
  case P_INUM: return cmp_num(n->cmp, st->ino, n->num);
  case P_SAMEFILE: return st->ino == n->ino;
  case P_UID: return cmp_num(n->cmp, st->uid, n->num);
  case P_GID: return cmp_num(n->cmp, st->gid, n->num);
  case P_NOUSER:
    if (!f->ids) f->ids = cmd_fs_ids_load(ctx);
    return cmd_fs_username(f->ids, st->uid) == NULL;
  case P_NOGROUP:
    if (!f->ids) f->ids = cmd_fs_ids_load(ctx);
    return cmd_fs_groupname(f->ids, st->gid) == NULL;
  case P_READABLE: return store_access(ctx->store, st->ino, R_OK) == 0;
  case P_WRITABLE: return store_access(ctx->store, st->ino, W_OK) == 0;
  case P_EXECUTABLE: return store_access(ctx->store, st->ino, X_OK) == 0;
  case P_TIME: {
    long ns;
    int64_t t = field_time(st, n->tfield, &ns);
    int64_t origin = f->now;
    long origin_ns = f->now_ns;
    if (f->daystart) {
      struct tm tm;
      cmd_time_local(&f->tz, f->now, &tm);
      tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
      tm.tm_mday += 1;
      tm.tm_isdst = -1;
      cmd_time_mk(&f->tz, &tm, &origin);
      origin_ns = 0;
    }
    /* age in whole units, fractions dropped (GNU: "+1" means at least 2) */
    long double diff = (long double)(origin - t) + (long double)(origin_ns - ns) / 1e9L;
    long double units = diff / (long double)n->tscale;
    int64_t whole = (int64_t)units;
    if (units < 0 && (long double)whole != units) whole--;
    return cmp_num(n->cmp, whole, n->num);
  }
  case P_USED: {
    int64_t days = (st->atime - st->ctime) / 86400;
    return cmp_num(n->cmp, days, n->num);
  }
  case P_NEWER: {
    long ns;
    int64_t t = field_time(st, n->tfield, &ns);
    return t > n->tsec || (t == n->tsec && ns > n->tnsec);
  }
  case P_PRINT: {
    out_write(f, n->out, e->path, e->pathlen);
    out_write(f, n->out, n->zero ? "" : "\n", 1);
    return true;
  }
  case P_PRINTF:
    do_printf(f, n);
    return true;
  case P_LS:
    print_ls(f, n->out);
    return true;
  case P_DELETE: {
    if (e->depth == 0 && (strcmp(e->path, ".") == 0)) return true;
    /* by name in the parent's inode (GNU's unlinkat on fts's directory
     * fd): deleting a deep tree costs nothing per level */
    bool dir = S_ISDIR(st->mode) && !S_ISLNK(st->mode);
    int rc = e->depth == 0 ? (dir ? store_path_rmdir(ctx->store, ctx->cwd, e->path)
                                  : store_path_unlink(ctx->store, ctx->cwd, e->path))
                           : (dir ? store_rmdir(ctx->store, e->parent_ino, e->name)
                                  : store_unlink(ctx->store, e->parent_ino, e->name));
    if (rc < 0) {
      cmd_errorf(ctx, "cannot delete %s: %s", lq(f, e->path), cmd_strerror(rc));
      cmd_record_error(ctx, rc, e->path);
      f->status = 1;
      return false;
    }
    return true;
  }
  case P_EXEC: return do_exec(f, n->ex, e->path);
  case P_PRUNE:
    f->pruned = true;
    return true;
  case P_QUIT:
    f->quit = true;
    return true;
  }
  return false;
}

static int first_cb(void *ud, const store_dirent *d) {
  (void)d;
  *(bool *)ud = true;
  return 1;
}

static bool is_empty_dir(find_state *f, store_ino ino) {
  bool any = false;
  if (store_readdir(f->ctx->store, ino, 0, first_cb, &any) < 0) return false;
  return !any;
}

/* ---- -ls and -printf ------------------------------------------------------------------- */

static const char *user_or_id(find_state *f, uint32_t id, bool group, char *buf, size_t n) {
  if (!f->ids) f->ids = cmd_fs_ids_load(f->ctx);
  const char *name = group ? cmd_fs_groupname(f->ids, id) : cmd_fs_username(f->ids, id);
  if (name) return name;
  snprintf(buf, n, "%" PRIu32, id);
  return buf;
}

/* A name as -ls writes it (findutils' quoting for it, whatever the output):
 * backslash, double quote and space escaped with a backslash, C's named
 * escapes for controls, \ooo for every other byte outside printable ASCII
 * (UTF-8 included, byte by byte). */
static void ls_escaped(find_state *f, find_out *o, const char *s, size_t n) {
  char buf[256];
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (k > sizeof buf - 8) {
      out_write(f, o, buf, k);
      k = 0;
    }
    const char *e = NULL;
    switch (c) {
    case '\\': e = "\\\\"; break;
    case '"': e = "\\\""; break;
    case ' ': e = "\\ "; break;
    default: e = cmd_c_escape(c);
    }
    if (e) {
      memcpy(buf + k, e, 2);
      k += 2;
    } else if (c < 0x20 || c >= 0x7f) {
      k += (size_t)snprintf(buf + k, 8, "\\%03o", c);
    } else {
      buf[k++] = (char)c;
    }
  }
  out_write(f, o, buf, k);
}

static void print_ls(find_state *f, find_out *o) {
  cmd_ctx *ctx = f->ctx;
  cmd_walk_ent *e = f->e;
  const store_stat *st = &e->st;
  char line[8192], mode[11], ub[32], gb[32], tbuf[64];
  cmd_fs_modestr(st->mode, mode);
  uint64_t kb = (cmd_fs_blocks(st) + 1) / 2;
  struct tm tm;
  tbuf[0] = 0;
  if (cmd_time_local(&f->tz, st->mtime, &tm)) {
    bool recent = st->mtime > f->now - 31556952 / 2 && st->mtime <= f->now;
    char *out = NULL;
    long n = cmd_strftime(&out, sizeof tbuf - 1, recent ? "%b %e %H:%M" : "%b %e  %Y", &tm,
                          st->mtime, 0);
    if (n > 0) snprintf(tbuf, sizeof tbuf, "%s", out);
    free(out);
  }
  int len = snprintf(line, sizeof line, "%9" PRId64 " %6" PRIu64 " %s %3" PRIu32 " %-8s %-8s %8" PRIu64 " %s ",
                     st->ino, kb, mode, cmd_fs_nlink(ctx, st),
                     user_or_id(f, st->uid, false, ub, sizeof ub),
                     user_or_id(f, st->gid, true, gb, sizeof gb), st->size, tbuf);
  if (len < 0) return;
  if ((size_t)len >= sizeof line) len = sizeof line - 1;
  out_write(f, o, line, (size_t)len);
  ls_escaped(f, o, e->path, e->pathlen);
  if (S_ISLNK(st->mode)) {
    char *t = NULL;
    if (store_path_readlink(ctx->store, ctx->cwd, e->path, &t) == 0) {
      out_write(f, o, " -> ", 4);
      ls_escaped(f, o, t, strlen(t));
      free(t);
    }
  }
  out_write(f, o, "\n", 1);
}

/* Formats a time for %a %c %t (ctime with .NNNNNNNNN0) and %Ak & co. */
static void fmt_time(find_state *f, char sub, int64_t t, long ns, char *out, size_t outsz) {
  struct tm tm;
  out[0] = 0;
  if (!cmd_time_local(&f->tz, t, &tm)) {
    snprintf(out, outsz, "%" PRId64, t);
    return;
  }
  char frac[16];
  snprintf(frac, sizeof frac, "%09ld0", ns);
  const char *fmt = NULL;
  char buf[256];
  switch (sub) {
  case 0: /* %a %c %t */
    fmt = "%a %b %e %H:%M:%S";
    break;
  case '@':
    snprintf(out, outsz, "%" PRId64 ".%s", t, frac);
    return;
  case '+': fmt = "%Y-%m-%d+%H:%M:%S"; break;
  case 'S': fmt = "%S"; break;
  case 'T': fmt = "%H:%M:%S"; break;
  case 'X': fmt = "%H:%M:%S"; break;
  default: {
    char f2[3] = {'%', sub, 0};
    fmt = f2;
    char *o = NULL;
    long n = cmd_strftime(&o, outsz - 1, fmt, &tm, t, ns);
    if (n >= 0) snprintf(out, outsz, "%s", o);
    free(o);
    return;
  }
  }
  char *o = NULL;
  long n = cmd_strftime(&o, sizeof buf - 1, fmt, &tm, t, ns);
  if (n < 0) return;
  if (sub == 0) {
    char *y = NULL;
    cmd_strftime(&y, 64, "%Y", &tm, t, ns);
    snprintf(out, outsz, "%s.%s %s", o, frac, y ? y : "");
    free(y);
  } else {
    snprintf(out, outsz, "%s.%s", o, frac);
  }
  free(o);
}

static void emit_field(find_state *f, find_out *o, const pf_item *it, const char *s,
                       bool numeric) {
  char fmtbuf[32], out[8192];
  const char *flags = it->flags;
  char fl[8];
  size_t k = 0;
  for (const char *p = flags; *p && k < sizeof fl - 1; p++)
    if (*p == '-' || (*p == '0' && numeric) || *p == ' ' || *p == '+' || *p == '#')
      fl[k++] = *p;
  fl[k] = 0;
  if (it->width < 0 && it->prec < 0 && !k) {
    out_write(f, o, s, strlen(s));
    return;
  }
  bool zero = strchr(fl, '0') != NULL && !strchr(fl, '-');
  if (zero) {
    /* zero padding for numbers */
    size_t l = strlen(s);
    if (it->width > 0 && (size_t)it->width > l && (size_t)it->width < sizeof out) {
      size_t pad = (size_t)it->width - l;
      bool neg = s[0] == '-';
      size_t o2 = 0;
      if (neg) out[o2++] = '-';
      memset(out + o2, '0', pad);
      memcpy(out + o2 + pad, s + neg, l - neg + 1);
      out_write(f, o, out, strlen(out));
      return;
    }
  }
  bool left = strchr(fl, '-') != NULL;
  if (it->prec >= 0)
    snprintf(fmtbuf, sizeof fmtbuf, "%%%s%d.%ds", left ? "-" : "", it->width < 0 ? 0 : it->width,
             it->prec);
  else
    snprintf(fmtbuf, sizeof fmtbuf, "%%%s%ds", left ? "-" : "", it->width < 0 ? 0 : it->width);
  int n = snprintf(out, sizeof out, fmtbuf, s);
  if (n < 0) return;
  if ((size_t)n >= sizeof out) n = sizeof out - 1;
  out_write(f, o, out, (size_t)n);
}

static void do_printf(find_state *f, fnode *n) {
  cmd_ctx *ctx = f->ctx;
  cmd_walk_ent *e = f->e;
  const store_stat *st = &e->st;
  find_out *o = n->out;
  for (int i = 0; i < n->npf; i++) {
    const pf_item *it = &n->pf[i];
    if (it->stop) return;
    if (it->lit) {
      out_write(f, o, it->lit, it->litlen);
      continue;
    }
    if (!it->conv) continue;
    char buf[4096];
    const char *s = buf;
    bool numeric = false;
    char *tofree = NULL;
    buf[0] = 0;
    switch (it->conv) {
    case 'a': case 'c': case 't': {
      long ns;
      int64_t t = field_time(st, it->conv == 'a' ? 'a' : it->conv == 'c' ? 'c' : 'm', &ns);
      fmt_time(f, 0, t, ns, buf, sizeof buf);
      break;
    }
    case 'A': case 'C': case 'T': {
      long ns;
      int64_t t = field_time(st, it->conv == 'A' ? 'a' : it->conv == 'C' ? 'c' : 'm', &ns);
      fmt_time(f, it->sub, t, ns, buf, sizeof buf);
      break;
    }
    case 'b':
      snprintf(buf, sizeof buf, "%" PRIu64, cmd_fs_blocks(st));
      numeric = true;
      break;
    case 'k':
      snprintf(buf, sizeof buf, "%" PRIu64, (cmd_fs_blocks(st) + 1) / 2);
      numeric = true;
      break;
    case 'd':
      snprintf(buf, sizeof buf, "%d", e->depth);
      numeric = true;
      break;
    case 'D':
      snprintf(buf, sizeof buf, "1");
      numeric = true;
      break;
    case 'f': {
      char nb[STORE_NAME_MAX + 2];
      s = entry_name(f, nb, sizeof nb);
      snprintf(buf, sizeof buf, "%s", s);
      s = buf;
      break;
    }
    case 'F':
      s = "sbx";
      break;
    case 'g': {
      char gb[32];
      s = user_or_id(f, st->gid, true, gb, sizeof gb);
      snprintf(buf, sizeof buf, "%s", s);
      s = buf;
      break;
    }
    case 'G':
      snprintf(buf, sizeof buf, "%" PRIu32, st->gid);
      numeric = true;
      break;
    case 'u': {
      char ub[32];
      s = user_or_id(f, st->uid, false, ub, sizeof ub);
      snprintf(buf, sizeof buf, "%s", s);
      s = buf;
      break;
    }
    case 'U':
      snprintf(buf, sizeof buf, "%" PRIu32, st->uid);
      numeric = true;
      break;
    case 'h': {
      /* leading directories; "." when none */
      size_t l = e->pathlen;
      const char *p = e->path;
      while (l > 1 && p[l - 1] == '/') l--;
      size_t sl = l;
      while (sl > 0 && p[sl - 1] != '/') sl--;
      if (sl == 0) snprintf(buf, sizeof buf, ".");
      else {
        size_t dl = sl > 1 ? sl - 1 : 1;
        if (dl >= sizeof buf) dl = sizeof buf - 1;
        memcpy(buf, p, dl);
        buf[dl] = 0;
      }
      break;
    }
    case 'H':
      s = f->start;
      break;
    case 'i':
      snprintf(buf, sizeof buf, "%" PRId64, st->ino);
      numeric = true;
      break;
    case 'l':
      if (S_ISLNK(st->mode) || e->info == CMD_WALK_SLNONE) {
        char *t = NULL;
        if (store_path_readlink(ctx->store, ctx->cwd, e->path, &t) == 0) {
          tofree = t;
          s = t;
        }
      }
      break;
    case 'm':
      snprintf(buf, sizeof buf, it->flags[0] == '#' ? "%#o" : "%o", st->mode & 07777);
      break;
    case 'M':
      cmd_fs_modestr(st->mode, buf);
      break;
    case 'n':
      snprintf(buf, sizeof buf, "%" PRIu32, cmd_fs_nlink(ctx, st));
      numeric = true;
      break;
    case 'p':
      s = e->path;
      break;
    case 'P': {
      size_t sl = strlen(f->start);
      const char *p = e->path;
      if (e->depth == 0) s = "";
      else {
        p += sl;
        if (sl > 0 && f->start[sl - 1] == '/') p--;
        while (*p == '/') p++;
        s = p;
      }
      break;
    }
    case 's':
      snprintf(buf, sizeof buf, "%" PRIu64, st->size);
      numeric = true;
      break;
    case 'S': {
      uint64_t b = cmd_fs_blocks(st);
      if (st->size == 0) snprintf(buf, sizeof buf, "1");
      else snprintf(buf, sizeof buf, "%g", (double)b * 512.0 / (double)st->size);
      break;
    }
    case 'y':
      buf[0] = type_char(st->mode);
      buf[1] = 0;
      break;
    case 'Y': {
      if (S_ISLNK(st->mode)) {
        store_stat t;
        int rc = cmd_fs_stat(ctx, e->path, &t);
        buf[0] = rc == 0 ? type_char(t.mode) : rc == -ELOOP ? 'L' : 'N';
      } else {
        buf[0] = type_char(st->mode);
      }
      buf[1] = 0;
      break;
    }
    case 'Z':
      s = "";
      break;
    }
    emit_field(f, o, it, s, numeric);
    free(tofree);
  }
}

/* ---- main ------------------------------------------------------------------------------- */

static void walk_start(find_state *f, const char *start) {
  cmd_ctx *ctx = f->ctx;
  int flags = 0;
  if (f->follow == 'L') flags |= CMD_WALK_LOGICAL;
  if (f->follow == 'H') flags |= CMD_WALK_COMFOLLOW;
  if (f->depth_first) flags |= CMD_WALK_POST;
  if (!expr_needs_stat(f->root)) flags |= CMD_WALK_NOSTAT;
  f->start = start;
  if (!*start) {
    cmd_errorf(ctx, "%s: %s", lq(f, start), cmd_strerror(-ENOENT));
    f->status = 1;
    return;
  }
  cmd_walk *w = cmd_walk_open(ctx, start, flags);
  if (!w) {
    cmd_errorf(ctx, "memory exhausted");
    f->status = 1;
    return;
  }
  cmd_walk_ent *e;
  while (!f->quit && (e = cmd_walk_next(w))) {
    f->e = e;
    f->pruned = false;
    switch (e->info) {
    case CMD_WALK_D:
      if (f->maxdepth >= 0 && e->depth >= f->maxdepth) cmd_walk_skip(w);
      if (!f->depth_first && e->depth >= f->mindepth &&
          (f->maxdepth < 0 || e->depth <= f->maxdepth)) {
        eval(f, f->root);
        if (f->pruned) cmd_walk_skip(w);
      }
      break;
    case CMD_WALK_DP:
      if (e->depth >= f->mindepth && (f->maxdepth < 0 || e->depth <= f->maxdepth))
        eval(f, f->root);
      break;
    case CMD_WALK_DNR:
      cmd_errorf(ctx, "%s: %s", lq(f, e->path), cmd_strerror(e->err));
      cmd_record_error(ctx, e->err, e->path);
      f->status = 1;
      break;
    case CMD_WALK_DC: {
      char *anc = cmd_alloc(ctx, e->cycle_pathlen + 1);
      if (anc) memcpy(anc, e->path, e->cycle_pathlen);
      cmd_errorf(ctx, "File system loop detected; %s is part of the same file system loop as %s.",
                 lq(f, e->path), lq(f, anc ? anc : ""));
      f->status = 1;
      break;
    }
    case CMD_WALK_NS:
      if (e->depth > 0 && e->err == -EACCES && (e->st.mode & S_IFMT)) {
        /* a name read from a directory without x: like GNU's fts entries
         * without stat, it is still evaluated; a directory (which fts must
         * stat to enter) reports the error first */
        f->nostat = S_ISDIR(e->st.mode) ? 2 : 1;
        f->nostat_reported = f->nostat == 2;
        if (f->nostat == 2) {
          cmd_errorf(ctx, "%s: %s", lq(f, e->path), cmd_strerror(e->err));
          cmd_record_error(ctx, e->err, e->path);
          f->status = 1;
        }
        if (e->depth >= f->mindepth && (f->maxdepth < 0 || e->depth <= f->maxdepth))
          eval(f, f->root);
        f->nostat = 0;
      } else if (e->depth == 0 || e->err != -ENOENT) {
        cmd_errorf(ctx, "%s: %s", lq(f, e->path), cmd_strerror(e->err));
        cmd_record_error(ctx, e->err, e->path);
        f->status = 1;
      }
      break;
    case CMD_WALK_SLNONE:
      if (e->err == -ELOOP && e->depth >= 0 && f->follow == 'L') {
        cmd_errorf(ctx, "%s: %s", lq(f, e->path), cmd_strerror(e->err));
        f->status = 1;
      }
      /* a dangling link is still a file (type l) */
      __attribute__((fallthrough));
    default:
      if (e->depth >= f->mindepth && (f->maxdepth < 0 || e->depth <= f->maxdepth))
        eval(f, f->root);
      break;
    }
    if (ctx->out_err == -EPIPE) f->quit = true;
  }
  if (cmd_walk_stopped(w)) f->status = 1;
  cmd_walk_close(w);
}

void find_state_free(find_state *f) {
  for (exec_spec *ex = f->execs; ex; ex = ex->next) {
    for (size_t j = 0; j < ex->nbatch; j++) free(ex->batch[j]);
    free(ex->batch);
    free(ex->batch_dir);
  }
  for (int i = 0; i < f->nregex; i++) re_free(f->regexes[i]);
  free(f->regexes);
  for (find_out *o = f->outs; o; o = o->next)
    if (o->fd >= 0 && f->ctx->io && f->ctx->io->close) f->ctx->io->close(f->ctx->io_ud, o->fd);
  free(f);
}

find_state *find_state_new(cmd_ctx *ctx, int argc, char **argv, bool parse_only) {
  find_state *f = calloc(1, sizeof *f);
  if (!f) return NULL;
  f->ctx = ctx;
  f->args = argv;
  f->nargs = argc;
  f->follow = 'P';
  f->maxdepth = -1;
  f->parse_only = parse_only;
  f->stdout_out.fd = 1;
  f->now = ctx->now;
  cmd_tz_from_env(ctx, &f->tz);
  return f;
}

const char *find_state_error(const find_state *f) { return f->errbuf; }

int cmd_find_main(cmd_ctx *ctx, int argc, char **argv) {
  int i = 1;
  int follow = 'P';
  /* leading options */
  for (; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "-H")) follow = 'H';
    else if (!strcmp(a, "-L")) follow = 'L';
    else if (!strcmp(a, "-P")) follow = 'P';
    else if (!strcmp(a, "--help")) return cmd_print_help(ctx, find_usage);
    else if (!strcmp(a, "--version")) return cmd_print_version(ctx);
    else if (!strcmp(a, "-D")) {
      if (++i >= argc) {
        cmd_errorf(ctx, "Missing argument after the -D option.");
        return 1;
      }
    } else if (!strncmp(a, "-O", 2)) {
      continue;
    } else if (!strcmp(a, "--")) {
      i++;
      break;
    } else if (a[0] == '-' && a[1] && strchr("HLP", a[1]) && a[2]) {
      /* clusters like -HL */
      bool ok = true;
      for (const char *p = a + 1; *p; p++)
        if (!strchr("HLP", *p)) ok = false;
      if (!ok) break;
      for (const char *p = a + 1; *p; p++) follow = *p;
    } else {
      break;
    }
  }
  int pstart = i;
  while (i < argc) {
    const char *a = argv[i];
    if ((a[0] == '-' && a[1]) || !strcmp(a, "(") || !strcmp(a, "!")) break;
    i++;
  }
  int pend = i;
  find_state *f = find_state_new(ctx, argc - pend, argv + pend, false);
  if (!f) return 1;
  f->follow = follow;
  struct timespec rt;
  /* -mtime and friends measure from find's own start, to the nanosecond (as
   * GNU): the call's clock (ctx->now, whole seconds) may lag a second behind,
   * and a file touched in that second would seem younger than it is */
  if (clock_gettime(CLOCK_REALTIME, &rt) == 0 && rt.tv_sec >= f->now && rt.tv_sec - f->now <= 1) {
    f->now = rt.tv_sec;
    f->now_ns = rt.tv_nsec;
  }
  if (find_parse_expr(f) < 0) {
    find_state_free(f);
    return 1;
  }
  /* -delete: the deletions of one call are one store transaction */
  bool batch = f->delete_seen && store_begin(ctx->store) == 0;
  if (pstart == pend) {
    walk_start(f, ".");
  } else {
    for (int k = pstart; k < pend && !f->quit; k++) walk_start(f, argv[k]);
  }
  for (exec_spec *ex = f->execs; ex; ex = ex->next) flush_batch(f, ex);
  if (batch) store_commit(ctx->store);
  int status = f->status;
  find_state_free(f);
  if (ctx->out_err == -EPIPE) return 141;
  return status;
}
