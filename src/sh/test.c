/*
 * test.c - conditional expressions: the test / [ builtins (POSIX argument
 * count rules, then -a -o ! ( ) by precedence) and the [[ ]] evaluator, which
 * share the unary file tests and the binary comparisons.
 *
 * Differences kept from bash: in [[ ]] the right side of == and != is a
 * pattern, =~ is an ERE (the engine of src/re) filling BASH_REMATCH, and -eq & co.
 * evaluate arithmetic; in test they compare integers and report "integer
 * expression expected" with status 2.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "re/re.h"
#include "sh/arith.h"
#include "sh/builtins.h"
#include "sh/shared.h"
#include "sh/expand.h"
#include "sh/glob.h"
#include "sh/io.h"
#include "sh/vars.h"

/* ---- shared tests (also the table commands test and [, src/cmd/test.c) ---------------------- */

static bool stat_path(const sh_test_ctx *c, const char *p, bool follow, store_stat *st) {
  if (!*p) return false;
  if (!strcmp(p, "/dev/null") || !strcmp(p, "/dev/zero") || !strcmp(p, "/dev/stdin") ||
      !strcmp(p, "/dev/stdout") || !strcmp(p, "/dev/stderr") || !strcmp(p, "/dev/urandom") ||
      !strcmp(p, "/dev/random") || !strcmp(p, "/dev/tty")) {
    memset(st, 0, sizeof *st);
    st->mode = S_IFCHR | 0666;
    return true;
  }
  if (!strncmp(p, "/dev/fd/", 8) || !strncmp(p, "/proc/self/fd/", 14)) {
    int fd = atoi(strrchr(p, '/') + 1);
    if (!c->fd_open || !c->fd_open(c->ud, fd)) return false;
    memset(st, 0, sizeof *st);
    st->mode = S_IFIFO | 0600;
    return true;
  }
  if (!strcmp(p, "/dev") || !strcmp(p, "/dev/fd")) {
    memset(st, 0, sizeof *st);
    st->mode = S_IFDIR | 0755;
    return true;
  }
  int r = follow ? store_path_stat(c->st, c->cwd, p, st) : store_path_lstat(c->st, c->cwd, p, st);
  return r == 0;
}

bool sh_test_unary_ctx(const sh_test_ctx *c, const char *op, const char *arg, bool *valid) {
  *valid = true;
  store_stat st;
  switch (op[1]) {
  case 'z': return !*arg;
  case 'n': return *arg != 0;
  case 'e': case 'a': return stat_path(c, arg, true, &st);
  case 'f': return stat_path(c, arg, true, &st) && S_ISREG(st.mode);
  case 'd': return stat_path(c, arg, true, &st) && S_ISDIR(st.mode);
  case 'h': case 'L': return stat_path(c, arg, false, &st) && S_ISLNK(st.mode);
  case 'b': return stat_path(c, arg, true, &st) && S_ISBLK(st.mode);
  case 'c': return stat_path(c, arg, true, &st) && S_ISCHR(st.mode);
  case 'p': return stat_path(c, arg, true, &st) && S_ISFIFO(st.mode);
  case 'S': return stat_path(c, arg, true, &st) && S_ISSOCK(st.mode);
  case 's': return stat_path(c, arg, true, &st) && st.size > 0;
  case 'g': return stat_path(c, arg, true, &st) && (st.mode & S_ISGID);
  case 'u': return stat_path(c, arg, true, &st) && (st.mode & S_ISUID);
  case 'k': return stat_path(c, arg, true, &st) && (st.mode & S_ISVTX);
  case 'O': case 'G': return stat_path(c, arg, true, &st);
  case 'N': return stat_path(c, arg, true, &st) && st.mtime >= st.atime;
  case 'r': case 'w': case 'x': {
    if (!stat_path(c, arg, true, &st)) return false;
    if (S_ISCHR(st.mode) || S_ISFIFO(st.mode)) return op[1] != 'x';
    int mask = op[1] == 'r' ? 4 : op[1] == 'w' ? 2 : 1;
    return store_access(c->st, st.ino, mask) == 0;
  }
  case 't':
    return false; /* no terminals in the sandbox */
  case 'v':
    return c->var_test && c->var_test(c->ud, arg);
  case 'o':
    return c->opt_test && c->opt_test(c->ud, arg);
  case 'R':
    return c->ref_test && c->ref_test(c->ud, arg);
  default:
    *valid = false;
    return false;
  }
}

static int file_cmp_time(const sh_test_ctx *c, const char *a, const char *b, bool newer) {
  store_stat sa, sb;
  bool ea = stat_path(c, a, true, &sa), eb = stat_path(c, b, true, &sb);
  if (newer) {
    if (!ea) return 0;
    if (!eb) return 1;
    return sa.mtime > sb.mtime || (sa.mtime == sb.mtime && sa.mtime_nsec > sb.mtime_nsec);
  }
  if (!eb) return 0;
  if (!ea) return 1;
  return sa.mtime < sb.mtime || (sa.mtime == sb.mtime && sa.mtime_nsec < sb.mtime_nsec);
}

static void test_error(const sh_test_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void test_error(const sh_test_ctx *c, const char *fmt, ...) {
  sh_buf b = {0};
  va_list ap;
  va_start(ap, fmt);
  sh_buf_vaddf(&b, fmt, ap);
  va_end(ap);
  if (c->error) c->error(c, sh_buf_str(&b));
  sh_buf_free(&b);
}

/* err: 0 ok, 2 error (message printed). */
bool sh_test_binary_ctx(const sh_test_ctx *c, const char *op, const char *a, const char *b, bool *valid,
                        int *err) {
  *valid = true;
  *err = 0;
  if (!strcmp(op, "=") || !strcmp(op, "==")) return strcmp(a, b) == 0;
  if (!strcmp(op, "!=")) return strcmp(a, b) != 0;
  if (!strcmp(op, "<")) return strcmp(a, b) < 0;
  if (!strcmp(op, ">")) return strcmp(a, b) > 0;
  if (!strcmp(op, "-nt")) return file_cmp_time(c, a, b, true);
  if (!strcmp(op, "-ot")) return file_cmp_time(c, a, b, false);
  if (!strcmp(op, "-ef")) {
    store_stat sa, sb;
    return stat_path(c, a, true, &sa) && stat_path(c, b, true, &sb) && sa.ino == sb.ino;
  }
  static const char *const iops[] = {"-eq", "-ne", "-lt", "-le", "-gt", "-ge", NULL};
  for (int k = 0; iops[k]; k++) {
    if (strcmp(op, iops[k])) continue;
    int64_t x, y;
    if (!sh_parse_number(a, &x)) {
      test_error(c, "%s: integer expression expected", a);
      *err = 2;
      return false;
    }
    if (!sh_parse_number(b, &y)) {
      test_error(c, "%s: integer expression expected", b);
      *err = 2;
      return false;
    }
    switch (k) {
    case 0: return x == y;
    case 1: return x != y;
    case 2: return x < y;
    case 3: return x <= y;
    case 4: return x > y;
    default: return x >= y;
    }
  }
  *valid = false;
  return false;
}

static bool is_unary_op(const char *s) {
  return s[0] == '-' && s[1] && !s[2] && strchr("abcdefghknoprstuvwxzGLNORS", s[1]);
}

static bool is_binary_op(const char *s) {
  static const char *const ops[] = {"=", "==", "!=", "<", ">", "-eq", "-ne", "-lt", "-le", "-gt",
                                    "-ge", "-nt", "-ot", "-ef", NULL};
  for (int i = 0; ops[i]; i++)
    if (!strcmp(s, ops[i])) return true;
  return false;
}

/* ---- test / [ ----------------------------------------------------------------------------------- */

typedef struct tstate {
  const sh_test_ctx *c;
  char **a;
  int n, i;
  int err; /* 2 on a syntax error */
} tstate;

static bool t_or(tstate *t);

static bool t_primary(tstate *t) {
  if (t->err) return false;
  if (t->i >= t->n) {
    test_error(t->c, "argument expected");
    t->err = 2;
    return false;
  }
  const char *x = t->a[t->i];
  if (!strcmp(x, "!")) {
    t->i++;
    return !t_primary(t);
  }
  if (!strcmp(x, "(")) {
    t->i++;
    bool r = t_or(t);
    if (t->i >= t->n || strcmp(t->a[t->i], ")")) {
      if (!t->err) test_error(t->c, "`)' expected");
      t->err = 2;
      return false;
    }
    t->i++;
    return r;
  }
  if (t->i + 2 < t->n && is_binary_op(t->a[t->i + 1])) {
    bool valid;
    int e;
    bool r = sh_test_binary_ctx(t->c, t->a[t->i + 1], x, t->a[t->i + 2], &valid, &e);
    t->i += 3;
    if (e) t->err = e;
    return r;
  }
  if (is_unary_op(x) && t->i + 1 < t->n) {
    bool valid;
    bool r = sh_test_unary_ctx(t->c, x, t->a[t->i + 1], &valid);
    t->i += 2;
    return r;
  }
  t->i++;
  return *x != 0;
}

static bool t_and(tstate *t) {
  bool r = t_primary(t);
  while (!t->err && t->i < t->n && !strcmp(t->a[t->i], "-a")) {
    t->i++;
    bool r2 = t_primary(t);
    r = r && r2;
  }
  return r;
}

static bool t_or(tstate *t) {
  bool r = t_and(t);
  while (!t->err && t->i < t->n && !strcmp(t->a[t->i], "-o")) {
    t->i++;
    bool r2 = t_and(t);
    r = r || r2;
  }
  return r;
}

/* POSIX rules for 0-4 arguments, then the general parser. */
static int test_eval(const sh_test_ctx *c, char **a, int n) {
  tstate t = {c, a, n, 0, 0};
  switch (n) {
  case 0:
    return 1;
  case 1:
    return *a[0] ? 0 : 1;
  case 2:
    if (!strcmp(a[0], "!")) return *a[1] ? 1 : 0;
    if (is_unary_op(a[0])) {
      bool valid;
      return sh_test_unary_ctx(c, a[0], a[1], &valid) ? 0 : 1;
    }
    test_error(c, "%s: unary operator expected", a[0]);
    return 2;
  case 3:
    if (is_binary_op(a[1])) {
      bool valid;
      int e;
      bool r = sh_test_binary_ctx(c, a[1], a[0], a[2], &valid, &e);
      return e ? 2 : r ? 0 : 1;
    }
    if (!strcmp(a[1], "-a") || !strcmp(a[1], "-o")) {
      /* bash (POSIX): $1 -a $3 tests both as strings, even "-z -a ]" */
      bool l = *a[0] != 0, r = *a[2] != 0;
      return (a[1][1] == 'a' ? l && r : l || r) ? 0 : 1;
    }
    if (!strcmp(a[0], "!")) {
      int r = test_eval(c, a + 1, 2);
      return r == 2 ? 2 : !r;
    }
    if (!strcmp(a[0], "(") && !strcmp(a[2], ")")) return *a[1] ? 0 : 1;
    test_error(c, "%s: binary operator expected", a[1]);
    return 2;
  case 4:
    if (!strcmp(a[0], "!")) {
      int r = test_eval(c, a + 1, 3);
      return r == 2 ? 2 : !r;
    }
    if (!strcmp(a[0], "(") && !strcmp(a[3], ")")) return test_eval(c, a + 1, 2);
    break;
  default:
    break;
  }
  bool r = t_or(&t);
  if (t.err) return 2;
  if (t.i < t.n) {
    test_error(c, "too many arguments");
    return 2;
  }
  return r ? 0 : 1;
}

int sh_test_run(const sh_test_ctx *c, int argc, char **argv) {
  if (!strcmp(argv[0], "[")) {
    if (argc < 2 || strcmp(argv[argc - 1], "]")) {
      test_error(c, "missing `]'");
      return 2;
    }
    return test_eval(c, argv + 1, argc - 2);
  }
  return test_eval(c, argv + 1, argc - 1);
}

/* ---- the shell's side: variables, options and fds of the running shell ----------------------------- */

static bool shell_fd_open(void *ud, int fd) { return sh_fd_get(ud, fd) != NULL; }

static int shell_var_test(void *ud, const char *arg) {
  sh_shell *sh = ud;
  const char *br = strchr(arg, '[');
  if (br && arg[strlen(arg) - 1] == ']') {
    char *name = sh_xstrndup(arg, (size_t)(br - arg));
    char *sub = sh_xstrndup(br + 1, strlen(br + 1) - 1);
    sh_var *v = sh_var_find(sh, name);
    bool r = false;
    if (v && !(v->flags & SH_V_UNSET)) {
      if (!strcmp(sub, "@") || !strcmp(sub, "*")) r = sh_var_count(v) > 0;
      else if (v->flags & SH_V_ASSOC) {
        char *k = sh_expand_subscript(sh, sub); /* test -v 'a[$key]' expands the key */
        r = k && sh_assoc_get(v->assoc, k) != NULL;
        free(k);
      }
      else {
        int64_t idx;
        if (!sh_arith_eval(sh, sub, &idx)) {
          if (v->flags & SH_V_ARRAY) {
            if (idx < 0) {
              idx = sh_array_from_end(v->arr, idx);
              if (idx < 0) sh_error(sh, "%s: bad array subscript", name);
            }
            r = idx >= 0 && sh_array_get(v->arr, idx) != NULL;
          } else {
            r = idx == 0 && v->str;
          }
        }
      }
    }
    free(name);
    free(sub);
    return r;
  }
  if (!strcmp(arg, "#") || !strcmp(arg, "?") || !strcmp(arg, "$") || !strcmp(arg, "-")) return true;
  if (arg[0] >= '1' && arg[0] <= '9') return (size_t)atoi(arg) <= sh->params.n;
  sh_var *v = sh_var_find(sh, arg);
  if (!v || (v->flags & SH_V_UNSET)) return false;
  if (v->flags & SH_V_ARRAY) return sh_array_get(v->arr, 0) != NULL;
  if (v->flags & SH_V_ASSOC) return sh_assoc_get(v->assoc, "0") != NULL;
  return true;
}

static int shell_opt_test(void *ud, const char *name) {
  sh_shell *sh = ud;
  int k = sh_opt_find(name, false);
  return k >= 0 && sh->opt[k];
}

static int shell_ref_test(void *ud, const char *name) {
  sh_var *v = sh_var_find_noref(ud, name);
  return v && (v->flags & SH_V_NAMEREF);
}

static void shell_error(const sh_test_ctx *c, const char *msg) {
  if (c->name) sh_error(c->ud, "%s: %s", c->name, msg);
  else sh_error(c->ud, "%s", msg);
}

static sh_test_ctx shell_ctx(sh_shell *sh, const char *name) {
  sh_test_ctx c = {.st = sh->sess->st, .cwd = sh->cwd, .ud = sh, .name = name,
                   .fd_open = shell_fd_open, .var_test = shell_var_test, .opt_test = shell_opt_test,
                   .ref_test = shell_ref_test, .error = shell_error};
  return c;
}

bool sh_test_unary(sh_shell *sh, const char *op, const char *arg, bool *valid) {
  sh_test_ctx c = shell_ctx(sh, NULL);
  return sh_test_unary_ctx(&c, op, arg, valid);
}

bool sh_test_binary(sh_shell *sh, const char *op, const char *a, const char *b, bool *valid, int *err) {
  sh_test_ctx c = shell_ctx(sh, NULL);
  return sh_test_binary_ctx(&c, op, a, b, valid, err);
}

/* test and [ as builtins: messages are "bash: line N: test: ..." */
static int builtin_test(sh_shell *sh, int argc, char **argv) {
  sh_test_ctx c = shell_ctx(sh, argv[0]);
  return sh_test_run(&c, argc, argv);
}

int sh_bi_test(sh_shell *sh, int argc, char **argv) { return builtin_test(sh, argc, argv); }

int sh_bi_bracket(sh_shell *sh, int argc, char **argv) { return builtin_test(sh, argc, argv); }

int sh_test_main(sh_shell *sh, int argc, char **argv) { return builtin_test(sh, argc, argv); }

/* ---- [[ ]] ---------------------------------------------------------------------------------------- */

static int cond_eval(sh_shell *sh, sh_cond_expr *e, int *err);

/* The regex engine's poll: the call's limits, timeout and cancel. */
static int regex_poll(void *ud) { return sh_poll((sh_shell *)ud); }

/* bash compiles =~ patterns with glibc's regcomp, which (unlike GNU grep's
 * dialect of src/re) rejects a repetition operator with nothing before it:
 * at the start, or right after an unescaped '(' or '|' ("Invalid preceding
 * regular expression", [[ ]] status 2). Outside bracket expressions only. */
static bool dangling_repetition(const char *p) {
  bool at_start = true;
  for (; *p; p++) {
    if (*p == '\\' && p[1]) {
      p++;
      at_start = false;
      continue;
    }
    if (*p == '[') { /* skip a bracket expression: []...] and [^]...] */
      const char *q = p + 1;
      if (*q == '^') q++;
      if (*q == ']') q++;
      while (*q && *q != ']') q += (*q == '[' && (q[1] == ':' || q[1] == '.' || q[1] == '=')) ? 2 : 1;
      if (!*q) return false;
      p = q;
      at_start = false;
      continue;
    }
    if (at_start && strchr("*+?{", *p)) return true;
    at_start = *p == '(' || *p == '|';
  }
  return false;
}

/* [[ s =~ pat ]] with the one engine of src/re (POSIX ERE, leftmost-longest,
 * bounded: a hostile pattern ends at the step budget or at the call's limits,
 * never hangs the host). Fills BASH_REMATCH. *err = 2 on a bad pattern. */
static int regex_match(sh_shell *sh, const char *s, const char *pat, int *err) {
  re *rx = NULL;
  re_err rerr;
  memset(&rerr, 0, sizeof rerr);
  unsigned flags = RE_EXTENDED | RE_UTF8;
  if (sh->opt[SH_SHOPT_NOCASEMATCH]) flags |= RE_NOCASE;
  if (dangling_repetition(pat) || re_compile(&rx, pat, strlen(pat), flags, &rerr) != 0 || !rx) {
    *err = 2;
    return 0;
  }
  size_t nsub = re_nsub(rx) + 1;
  if (nsub > 64) nsub = 64;
  re_span m[64];
  re_ctl ctl = {.poll = regex_poll, .ud = sh};
  int rc = re_exec(rx, s, strlen(s), 0, 0, m, nsub, &ctl);
  re_free(rx);
  if (rc < 0) {
    if (rc != RE_ECANCEL) sh_error(sh, "[[: %s", re_strerror(rc));
    *err = 2;
    return 0;
  }
  int matched = rc == RE_MATCH;
  /* BASH_REMATCH */
  int e2;
  sh_var *v = sh_var_get_for_write(sh, "BASH_REMATCH", 0, &e2);
  if (v) {
    sh_var_reset_indexed(v);
    v->flags &= ~SH_V_UNSET;
    for (size_t i = 0; matched && i < nsub; i++) {
      if (m[i].so < 0) sh_array_set(v->arr, (int64_t)i, sh_xstrdup(""));
      else sh_array_set(v->arr, (int64_t)i, sh_xstrndup(s + m[i].so, (size_t)(m[i].eo - m[i].so)));
    }
  }
  return matched;
}

/* set -x of one [[ ]] primary as bash shows it: "[[ ! -d dir ]]". */
static void cond_trace(sh_shell *sh, bool neg, const char *a, const char *op, const char *b) {
  if (!sh->opt[SH_OPT_XTRACE]) return;
  char *t = sh_xasprintf("[[ %s%s%s%s%s%s ]]", neg ? "! " : "", a ? a : "", a && op ? " " : "",
                         op ? op : "", b ? " " : "", b ? b : "");
  sh_xtrace_text(sh, t);
  free(t);
}

/* A [[ ]] operand expanded with flags (SH_XF_*); NULL, with *err set so the
 * whole expression fails, when the expansion failed. */
static char *cond_operand(sh_shell *sh, const sh_word *w, int flags, int *err) {
  char *s = sh_expand_string(sh, w, flags);
  if (!s) *err = 1;
  return s;
}

static _Thread_local bool cond_neg; /* the primary being evaluated is under ! */

static int cond_eval(sh_shell *sh, sh_cond_expr *e, int *err) {
  if (*err) return 0;
  bool neg = cond_neg;
  cond_neg = false;
  switch (e->kind) {
  case SH_C_AND:
    return cond_eval(sh, e->left, err) && cond_eval(sh, e->right, err);
  case SH_C_OR:
    return cond_eval(sh, e->left, err) || cond_eval(sh, e->right, err);
  case SH_C_NOT:
    cond_neg = !neg;
    return !cond_eval(sh, e->left, err);
  case SH_C_WORD: {
    char *s = cond_operand(sh, e->w1, 0, err);
    if (!s) return 0;
    cond_trace(sh, neg, "-n", NULL, s);
    int r = *s != 0;
    free(s);
    return r;
  }
  case SH_C_UNARY: {
    char *s = cond_operand(sh, e->w1, 0, err);
    if (!s) return 0;
    cond_trace(sh, neg, e->op, NULL, s);
    bool valid;
    int r = sh_test_unary(sh, e->op, s, &valid);
    free(s);
    return r;
  }
  case SH_C_BINARY: {
    char *a = cond_operand(sh, e->w1, 0, err);
    if (!a) return 0;
    const char *op = e->op;
    if (!strcmp(op, "==") || !strcmp(op, "=") || !strcmp(op, "!=")) {
      char *pat = cond_operand(sh, e->w2, SH_XF_PATTERN, err);
      if (!pat) {
        free(a);
        return 0;
      }
      cond_trace(sh, neg, a, op, pat);
      int fl = SH_FNM_EXTGLOB;
      if (sh->opt[SH_SHOPT_NOCASEMATCH]) fl |= SH_FNM_CASEFOLD;
      bool m = sh_fnmatch_sh(sh, pat, strlen(pat), a, strlen(a), fl);
      free(pat);
      free(a);
      return op[0] == '!' ? !m : m;
    }
    if (!strcmp(op, "=~")) {
      char *pat = cond_operand(sh, e->w2, SH_XF_REGEX, err);
      if (!pat) {
        free(a);
        return 0;
      }
      cond_trace(sh, neg, a, op, pat);
      int r = regex_match(sh, a, pat, err);
      free(pat);
      free(a);
      return r;
    }
    char *b = cond_operand(sh, e->w2, 0, err);
    if (!b) {
      free(a);
      return 0;
    }
    int r;
    cond_trace(sh, neg, a, op, b);
    if (op[0] == '-' && strcmp(op, "-nt") && strcmp(op, "-ot") && strcmp(op, "-ef")) {
      int64_t x, y;
      const char *saved = sh->arith_context;
      sh->arith_context = "[[";
      bool bad = sh_arith_eval(sh, a, &x) || sh_arith_eval(sh, b, &y);
      sh->arith_context = saved;
      if (bad) {
        *err = 1;
        r = 0;
      } else if (!strcmp(op, "-eq")) r = x == y;
      else if (!strcmp(op, "-ne")) r = x != y;
      else if (!strcmp(op, "-lt")) r = x < y;
      else if (!strcmp(op, "-le")) r = x <= y;
      else if (!strcmp(op, "-gt")) r = x > y;
      else r = x >= y;
    } else {
      bool valid;
      int e2;
      r = sh_test_binary(sh, op, a, b, &valid, &e2);
      if (e2) *err = e2;
    }
    free(a);
    free(b);
    return r;
  }
  }
  return 0;
}

int sh_eval_cond(sh_shell *sh, sh_cond_expr *e) {
  int err = 0;
  int r = cond_eval(sh, e, &err);
  if (err) return err == 1 ? 1 : 2;
  return r ? 0 : 1;
}
