/*
 * builtins_core.c - the builtin table and the builtins about control flow,
 * directories, evaluation and command lookup: : true false echo pwd cd exit
 * return break continue shift eval source . exec command builtin type hash
 * help times ulimit umask alias unalias dirs pushd popd caller let sh bash
 * enable.
 *
 * The table is sorted by name for binary search. Declaration builtins
 * (declare, typeset, local, export, readonly) are flagged so the executor
 * passes their assignment arguments unsplit.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/cmd.h"
#include "py/py_spawn.h"
#include "sh/arith.h"
#include "sh/builtins.h"
#include "sh/expand.h"
#include "sh/io.h"
#include "sh/parse.h"
#include "sh/vars.h"

/* defined in the other builtin files */
int sh_bi_declare(sh_shell *sh, int argc, char **argv);
int sh_bi_local(sh_shell *sh, int argc, char **argv);
int sh_bi_export(sh_shell *sh, int argc, char **argv);
int sh_bi_readonly(sh_shell *sh, int argc, char **argv);
int sh_bi_unset(sh_shell *sh, int argc, char **argv);
int sh_bi_set(sh_shell *sh, int argc, char **argv);
int sh_bi_shopt(sh_shell *sh, int argc, char **argv);
int sh_bi_read(sh_shell *sh, int argc, char **argv);
int sh_bi_mapfile(sh_shell *sh, int argc, char **argv);
int sh_bi_getopts(sh_shell *sh, int argc, char **argv);
int sh_bi_wait(sh_shell *sh, int argc, char **argv);
int sh_bi_jobs(sh_shell *sh, int argc, char **argv);
int sh_bi_kill(sh_shell *sh, int argc, char **argv);
int sh_bi_trap(sh_shell *sh, int argc, char **argv);
int sh_bi_fg(sh_shell *sh, int argc, char **argv);
int sh_bi_disown(sh_shell *sh, int argc, char **argv);
int sh_bi_test(sh_shell *sh, int argc, char **argv);
int sh_bi_bracket(sh_shell *sh, int argc, char **argv);
int sh_bi_argv_py(sh_shell *sh, int argc, char **argv);
int sh_bi_printenv_py(sh_shell *sh, int argc, char **argv);
int sh_bi_stdout_stderr_py(sh_shell *sh, int argc, char **argv);
int sh_bi_read_from_fd_py(sh_shell *sh, int argc, char **argv);

int sh_run_argv_flags(sh_shell *sh, int argc, char **argv, bool no_functions, bool only_builtin);
bool sh_stack_low(void);

/* ---- small builtins ----------------------------------------------------------------------- */

static int bi_true(sh_shell *sh, int argc, char **argv) {
  (void)sh, (void)argc, (void)argv;
  return 0;
}

static int bi_false(sh_shell *sh, int argc, char **argv) {
  (void)sh, (void)argc, (void)argv;
  return 1;
}

static void put_utf8(sh_buf *b, uint32_t cp) {
  char out[SH_UTF8_MAX];
  sh_buf_add(b, out, sh_utf8_encode(cp, out));
}

/* echo's escapes; returns false when \c ended the output. */
static bool echo_escapes(sh_buf *b, const char *s) {
  for (const char *p = s; *p; p++) {
    if (*p != '\\' || !p[1]) {
      sh_buf_addc(b, *p);
      continue;
    }
    p++;
    switch (*p) {
    case 'a': sh_buf_addc(b, '\a'); break;
    case 'b': sh_buf_addc(b, '\b'); break;
    case 'c': return false;
    case 'e': case 'E': sh_buf_addc(b, 27); break;
    case 'f': sh_buf_addc(b, '\f'); break;
    case 'n': sh_buf_addc(b, '\n'); break;
    case 'r': sh_buf_addc(b, '\r'); break;
    case 't': sh_buf_addc(b, '\t'); break;
    case 'v': sh_buf_addc(b, '\v'); break;
    case '\\': sh_buf_addc(b, '\\'); break;
    case '0': {
      int v = 0, k = 0;
      while (k < 3 && p[1] >= '0' && p[1] <= '7') {
        v = v * 8 + (*++p - '0');
        k++;
      }
      sh_buf_addc(b, (char)v);
      break;
    }
    case 'x': {
      int v = 0, k = 0, h;
      while (k < 2 && (h = sh_hex_digit((unsigned char)p[1])) >= 0) {
        v = v * 16 + h;
        p++;
        k++;
      }
      if (k) sh_buf_addc(b, (char)v);
      else sh_buf_adds(b, "\\x");
      break;
    }
    case 'u': case 'U': {
      int max = *p == 'u' ? 4 : 8, k = 0, h;
      uint32_t v = 0;
      char which = *p;
      while (k < max && (h = sh_hex_digit((unsigned char)p[1])) >= 0) {
        v = v * 16 + (uint32_t)h;
        p++;
        k++;
      }
      if (k) put_utf8(b, v);
      else {
        sh_buf_addc(b, '\\');
        sh_buf_addc(b, which);
      }
      break;
    }
    default:
      sh_buf_addc(b, '\\');
      sh_buf_addc(b, *p);
    }
  }
  return true;
}

bool sh_echo_format(sh_buf *b, int argc, char **argv, bool xpg) {
  bool newline = true, esc = xpg;
  int i = 1;
  for (; i < argc; i++) {
    const char *a = argv[i];
    if (a[0] != '-' || !a[1]) break;
    bool ok = true;
    for (const char *c = a + 1; *c; c++)
      if (*c != 'n' && *c != 'e' && *c != 'E') ok = false;
    if (!ok) break;
    for (const char *c = a + 1; *c; c++) {
      if (*c == 'n') newline = false;
      else if (*c == 'e') esc = true;
      else esc = false;
    }
  }
  for (int first = i; i < argc; i++) {
    if (i > first) sh_buf_addc(b, ' ');
    if (esc) {
      if (!echo_escapes(b, argv[i])) return false;
    } else {
      sh_buf_adds(b, argv[i]);
    }
  }
  if (newline) sh_buf_addc(b, '\n');
  return true;
}

static int bi_echo(sh_shell *sh, int argc, char **argv) {
  sh_buf b = {0};
  sh_echo_format(&b, argc, argv, sh->opt[SH_SHOPT_XPG_ECHO]);
  int r = sh_write_fd(sh, 1, b.data ? b.data : "", b.len);
  sh_buf_free(&b);
  if (r < 0) {
    if (r != -EPIPE) sh_error(sh, "echo: write error: %s", cmd_strerror(r));
    return 1;
  }
  return 0;
}

/* ---- directories --------------------------------------------------------------------------- */

/* Lexically normalizes an absolute path (., .., //). malloc'd. */
static char *normalize_path(const char *path) {
  sh_strv parts = {0};
  char *copy = sh_xstrdup(path);
  char *save;
  for (char *tok = strtok_r(copy, "/", &save); tok; tok = strtok_r(NULL, "/", &save)) {
    if (!strcmp(tok, ".")) continue;
    if (!strcmp(tok, "..")) {
      if (parts.n) {
        free(parts.v[--parts.n]);
        parts.v[parts.n] = NULL;
      }
      continue;
    }
    sh_strv_pushdup(&parts, tok);
  }
  sh_buf b = {0};
  for (size_t i = 0; i < parts.n; i++) {
    sh_buf_addc(&b, '/');
    sh_buf_adds(&b, parts.v[i]);
  }
  if (!b.len) sh_buf_addc(&b, '/');
  sh_strv_free(&parts);
  free(copy);
  return sh_buf_steal(&b);
}

/* "WHO: TARGET: strerror" for a directory change that failed with `r`, kept
 * as the call's errno and path (sbx_errno, sbx_errpath). Returns 1. */
static int change_dir_failed(sh_shell *sh, const char *who, const char *target, int r) {
  sh_error(sh, "%s: %s: %s", who, target, cmd_strerror(r));
  sh->sess->err_errno = -r;
  snprintf(sh->sess->err_path, sizeof sh->sess->err_path, "%s", target);
  return 1;
}

/* cd to target; `who` names the builtin in messages (cd, pushd, popd). */
static int change_dir(sh_shell *sh, const char *who, const char *target, bool physical, bool print) {
  char *abs;
  if (target[0] == '/') abs = sh_xstrdup(target);
  else {
    const char *pwd = sh->cwd;
    abs = sh_xasprintf("%s/%s", strcmp(pwd, "/") == 0 ? "" : pwd, target);
  }
  char *norm;
  if (physical) {
    char *real = NULL;
    int r = store_realpath(sh->sess->st, sh->cwd, target, &real);
    if (r < 0) {
      free(abs);
      return change_dir_failed(sh, who, target, r);
    }
    norm = real;
  } else {
    /* bash checks that the directory before each .. exists (nonexistent/..) */
    for (const char *dd = strstr(abs, "/.."); dd; dd = strstr(dd + 1, "/..")) {
      if (dd[3] && dd[3] != '/') continue;
      char *prefix = sh_xstrndup(abs, (size_t)(dd - abs));
      char *np = normalize_path(*prefix ? prefix : "/");
      store_stat pst;
      int pr = store_path_stat(sh->sess->st, "/", np, &pst);
      free(np);
      free(prefix);
      if (pr == 0 && !S_ISDIR(pst.mode)) pr = -ENOTDIR;
      if (pr < 0) {
        sh_error(sh, "%s: %s: %s", who, target, cmd_strerror(pr));
        free(abs);
        return 1;
      }
    }
    norm = normalize_path(abs);
  }
  free(abs);
  store_stat st;
  /* check the logical path and that the physical one is a searchable dir */
  int r = store_path_stat(sh->sess->st, "/", norm, &st);
  bool synthetic = r < 0 && (!strcmp(norm, "/dev") || !strcmp(norm, "/dev/fd")); /* the shell's /dev */
  if (synthetic) r = 0;
  else if (r == 0 && !S_ISDIR(st.mode)) r = -ENOTDIR;
  if (r == 0 && !synthetic) r = store_access(sh->sess->st, st.ino, 1 /* X_OK */);
  if (r < 0) {
    /* bash tries the physical path when the logical one fails */
    char *real = NULL;
    if (!physical && store_realpath(sh->sess->st, sh->cwd, target, &real) == 0) {
      free(norm);
      norm = real;
      r = store_path_stat(sh->sess->st, "/", norm, &st);
      if (r == 0 && !S_ISDIR(st.mode)) r = -ENOTDIR;
    }
    if (r < 0) {
      free(norm);
      return change_dir_failed(sh, who, target, r);
    }
  }
  const char *old = sh_var_get(sh, "PWD");
  sh_var_set(sh, "OLDPWD", old ? old : sh->cwd, 0);
  sh_var *ov = sh_var_find_noref(sh, "OLDPWD");
  if (ov) ov->flags |= SH_V_EXPORT; /* bash exports it */
  free(sh->cwd);
  sh->cwd = norm;
  sh_var_set(sh, "PWD", norm, 0);
  if (print) {
    sh_write_str(sh, 1, norm);
    sh_write_str(sh, 1, "\n");
  }
  return 0;
}

int sh_builtin_cd(sh_shell *sh, int argc, char **argv) {
  if (sh->opt[SH_SHOPT_RESTRICTED_SHELL]) {
    sh_error(sh, "cd: restricted");
    return 1;
  }
  bool physical = sh->opt[SH_OPT_PHYSICAL];
  sh_bi_getopt g = SH_BI_GETOPT("cd", "PLe@");
  int c;
  while ((c = sh_bi_getopt_next(sh, &g, argc, argv)) > 0)
    if (c == 'P' || c == 'L') physical = c == 'P';
  if (c < 0) return 2;
  int i = g.i;
  if (argc - i > 1) {
    sh_error(sh, "cd: too many arguments");
    return 1;
  }
  const char *target;
  bool print = false;
  if (i >= argc) {
    target = sh_var_get(sh, "HOME");
    if (!target) {
      sh_error(sh, "cd: HOME not set");
      return 1;
    }
  } else if (!strcmp(argv[i], "-")) {
    target = sh_var_get(sh, "OLDPWD");
    if (!target) {
      sh_error(sh, "cd: OLDPWD not set");
      return 1;
    }
    print = true;
  } else {
    target = argv[i];
  }
  if (!*target) return 0;
  char *t = sh_xstrdup(target);
  /* CDPATH */
  const char *cdpath = sh_var_get(sh, "CDPATH");
  if (cdpath && t[0] != '/' && strncmp(t, "./", 2) && strncmp(t, "../", 3) && strcmp(t, ".") &&
      strcmp(t, "..")) {
    char *cp = sh_xstrdup(cdpath);
    char *save = NULL;
    for (char *d = strtok_r(cp, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
      char *cand = sh_xasprintf("%s/%s", d, t);
      store_stat st;
      if (store_path_stat(sh->sess->st, sh->cwd, cand, &st) == 0 && S_ISDIR(st.mode)) {
        int r = change_dir(sh, "cd", cand, physical, true);
        free(cand);
        free(cp);
        free(t);
        return r;
      }
      free(cand);
    }
    free(cp);
  }
  int r = change_dir(sh, "cd", t, physical, print);
  free(t);
  return r;
}

static int bi_pwd(sh_shell *sh, int argc, char **argv) {
  bool physical = false;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-P")) physical = true;
    else if (!strcmp(argv[i], "-L")) physical = false;
    else if (argv[i][0] == '-') {
      sh_error(sh, "pwd: %s: invalid option", argv[i]);
      return 2;
    }
  }
  const char *p = sh->cwd;
  char *real = NULL;
  if (physical && store_realpath(sh->sess->st, "/", sh->cwd, &real) == 0) p = real;
  sh_write_str(sh, 1, p);
  sh_write_str(sh, 1, "\n");
  free(real);
  return 0;
}

/* A directory as dirs shows it: $HOME replaced by ~ unless `long`. */
static void dir_add(sh_shell *sh, sh_buf *b, const char *d, bool longf) {
  const char *home = sh_var_get(sh, "HOME");
  size_t hl = home ? strlen(home) : 0;
  if (!longf && hl > 0 && strcmp(home, "/") && !strncmp(d, home, hl) && (d[hl] == '/' || !d[hl])) {
    sh_buf_addc(b, '~');
    sh_buf_adds(b, d + hl);
  } else {
    sh_buf_adds(b, d);
  }
}

/* Entry k of the stack as dirs numbers it (0 = the cwd). */
static const char *dir_entry(sh_shell *sh, size_t k) {
  return k == 0 ? sh->cwd : sh->dirstack.v[sh->dirstack.n - k];
}

static void print_dirs_mode(sh_shell *sh, bool longf, bool lines, bool numbered) {
  sh_buf b = {0};
  size_t n = sh->dirstack.n + 1;
  for (size_t k = 0; k < n; k++) {
    if (numbered) sh_buf_addf(&b, "%2zu  ", k);
    else if (k && !lines) sh_buf_addc(&b, ' ');
    dir_add(sh, &b, dir_entry(sh, k), longf);
    if (lines || numbered) sh_buf_addc(&b, '\n');
  }
  if (!lines && !numbered) sh_buf_addc(&b, '\n');
  sh_write_fd(sh, 1, b.data, b.len);
  sh_buf_free(&b);
}

static void print_dirs(sh_shell *sh) { print_dirs_mode(sh, false, false, false); }

/* Is a +N or -N (digits only) word? */
static bool dir_number_word(const char *a) {
  return (a[0] == '+' || a[0] == '-') && a[1] && strspn(a + 1, "0123456789") == strlen(a + 1);
}

/* +N / -N: an index into the stack (0 = the cwd), or -1. */
static long dir_index(sh_shell *sh, const char *a) {
  if ((a[0] != '+' && a[0] != '-') || !a[1]) return -1;
  char *end;
  long v = strtol(a + 1, &end, 10);
  if (*end || v < 0) return -1;
  long n = (long)sh->dirstack.n + 1;
  if (v >= n) return -2;
  return a[0] == '+' ? v : n - 1 - v;
}

static int bi_dirs(sh_shell *sh, int argc, char **argv) {
  bool longf = false, lines = false, numbered = false, clear = false;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    /* bash takes the options one per word: -l -v, not -lv */
    if (a[0] == '-' && a[1] && !a[2] && strchr("clpv", a[1])) {
      clear |= a[1] == 'c';
      longf |= a[1] == 'l';
      lines |= a[1] == 'p';
      numbered |= a[1] == 'v';
      continue;
    }
    if (!strcmp(a, "--")) break;
    if ((a[0] == '+' || a[0] == '-') && !dir_number_word(a)) {
      sh_error(sh, "dirs: %s: invalid number", a);
      sh_bi_usage(sh, "dirs");
      return 2;
    }
    if (a[0] == '+' || a[0] == '-') {
      long k = dir_index(sh, a);
      if (k < 0) {
        sh_error(sh, "dirs: %s: directory stack index out of range", a + 1);
        return 1;
      }
      sh_buf b = {0};
      dir_add(sh, &b, dir_entry(sh, (size_t)k), longf);
      sh_buf_addc(&b, '\n');
      sh_write_fd(sh, 1, b.data, b.len);
      sh_buf_free(&b);
      return 0;
    }
    sh_error(sh, "dirs: %s: invalid option", a);
    sh_bi_usage(sh, "dirs");
    return 2;
  }
  if (clear) {
    sh_strv_free(&sh->dirstack);
    return 0;
  }
  print_dirs_mode(sh, longf, lines, numbered);
  return 0;
}

/* The options of pushd and popd (`name`): -n sets *nochdir; "--", a +N/-N
 * index or a non-option ends them. Returns the index of the first operand,
 * or -1 after a usage error. */
static int dir_stack_options(sh_shell *sh, int argc, char **argv, const char *name, bool *nochdir) {
  int i = 1;
  for (; i < argc && (argv[i][0] == '-' || argv[i][0] == '+') && argv[i][1]; i++) {
    if (!strcmp(argv[i], "--")) {
      i++;
      break;
    }
    if (!strcmp(argv[i], "-n")) {
      *nochdir = true;
      continue;
    }
    if (dir_number_word(argv[i])) break;
    sh_error(sh, "%s: %s: invalid number", name, argv[i]);
    sh_bi_usage(sh, name);
    return -1;
  }
  return i;
}


static int bi_pushd(sh_shell *sh, int argc, char **argv) {
  bool nochdir = false;
  int i = dir_stack_options(sh, argc, argv, "pushd", &nochdir);
  if (i < 0) return 2;
  if (argc - i > 1) {
    sh_error(sh, "pushd: too many arguments");
    return 1;
  }
  if (i >= argc) {
    if (!sh->dirstack.n) {
      sh_error(sh, "pushd: no other directory");
      return 1;
    }
    char *top = sh->dirstack.v[sh->dirstack.n - 1];
    char *old = sh_xstrdup(sh->cwd);
    if (change_dir(sh, "pushd", top, false, false)) {
      free(old);
      return 1;
    }
    free(sh->dirstack.v[sh->dirstack.n - 1]);
    sh->dirstack.v[sh->dirstack.n - 1] = old;
    print_dirs(sh);
    return 0;
  }
  const char *a = argv[i];
  if ((a[0] == '+' || a[0] == '-') && a[1] >= '0' && a[1] <= '9') {
    /* rotate so that entry N is on top */
    long k = dir_index(sh, a);
    if (k < 0) {
      if (!sh->dirstack.n) sh_error(sh, "pushd: directory stack empty");
      else sh_error(sh, "pushd: %s: directory stack index out of range", a + 1);
      return 1;
    }
    size_t n = sh->dirstack.n + 1;
    sh_strv all = {0};
    for (size_t m = 0; m < n; m++) sh_strv_pushdup(&all, dir_entry(sh, m));
    if (change_dir(sh, "pushd", all.v[k], false, false)) {
      sh_strv_free(&all);
      return 1;
    }
    sh_strv_free(&sh->dirstack);
    for (size_t m = n - 1; m >= 1; m--) sh_strv_pushdup(&sh->dirstack, all.v[((size_t)k + m) % n]);
    sh_strv_free(&all);
    print_dirs(sh);
    return 0;
  }
  char *old = sh_xstrdup(sh->cwd);
  if (nochdir) {
    /* -n: the directory goes under the top, no cd */
    char *abs = sh_abspath(sh, a);
    sh_strv_push(&sh->dirstack, abs);
    free(old);
    print_dirs(sh);
    return 0;
  }
  if (change_dir(sh, "pushd", a, false, false)) {
    free(old);
    return 1;
  }
  sh_strv_push(&sh->dirstack, old);
  print_dirs(sh);
  return 0;
}

static int bi_popd(sh_shell *sh, int argc, char **argv) {
  bool nochdir = false;
  int i = dir_stack_options(sh, argc, argv, "popd", &nochdir);
  if (i < 0) return 2;
  long k = 0;
  if (i < argc) {
    k = dir_index(sh, argv[i]);
    if (k == -1) {
      sh_error(sh, "popd: %s: invalid argument", argv[i]);
      sh_bi_usage(sh, "popd");
      return 2;
    }
    if (k < 0) {
      sh_error(sh, "popd: %s: directory stack index out of range", argv[i] + 1);
      return 1;
    }
  }
  if (!sh->dirstack.n) {
    sh_error(sh, "popd: directory stack empty");
    return 1;
  }
  if (k == 0 && !nochdir) {
    char *top = sh->dirstack.v[--sh->dirstack.n];
    sh->dirstack.v[sh->dirstack.n] = NULL;
    int r = change_dir(sh, "popd", top, false, false);
    free(top);
    if (!r) print_dirs(sh);
    return r;
  }
  if (k == 0) k = 1; /* -n: the entry under the cwd */
  size_t idx = sh->dirstack.n - (size_t)k;
  free(sh->dirstack.v[idx]);
  memmove(sh->dirstack.v + idx, sh->dirstack.v + idx + 1, (sh->dirstack.n - idx) * sizeof *sh->dirstack.v);
  sh->dirstack.n--;
  print_dirs(sh);
  return 0;
}

/* ---- flow ------------------------------------------------------------------------------------- */

/* The status argument of exit and return: sh->status without one, else its
 * low 8 bits, or 2 after "WHO: ARG: numeric argument required"; -1 after "WHO:
 * too many arguments" (bash abandons the command line: jump_to_top_level
 * DISCARD). */
static int status_arg(sh_shell *sh, const char *who, int argc, char **argv) {
  if (argc < 2) return sh->status;
  int64_t v;
  if (!sh_parse_number(argv[1], &v)) {
    sh_error(sh, "%s: %s: numeric argument required", who, argv[1]);
    return 2;
  }
  if (argc > 2) {
    sh_error(sh, "%s: too many arguments", who);
    sh_fatal_usage(sh);
    return -1;
  }
  return (int)(v & 0xff);
}

static int bi_exit(sh_shell *sh, int argc, char **argv) {
  int st = status_arg(sh, "exit", argc, argv);
  if (st < 0) return 1;
  sh->flow = SH_FLOW_EXIT;
  sh->fatal = 0;
  sh->exit_status = st;
  return st;
}

static int bi_return(sh_shell *sh, int argc, char **argv) {
  int st = status_arg(sh, "return", argc, argv);
  if (st < 0) return 1;
  if (sh->fn_depth == 0) {
    /* top level: bash allows return only in functions and sourced files */
    extern _Thread_local int sh_source_depth;
    if (sh_source_depth == 0) {
      sh_error(sh, "return: can only `return' from a function or sourced script");
      return 2; /* bash 5.2.15, with -c, a file or stdin */
    }
  }
  sh->flow = SH_FLOW_RETURN;
  sh->exit_status = st;
  sh->status_at_return = sh->status;
  return st;
}

static int loop_ctl(sh_shell *sh, int argc, char **argv, sh_flow kind) {
  int64_t n = 1;
  const char *name = kind == SH_FLOW_BREAK ? "break" : "continue";
  if (argc > 2) {
    /* bash abandons the command line */
    sh_error(sh, "%s: too many arguments", name);
    sh_fatal_usage(sh);
    return 1;
  }
  if (argc > 1) {
    if (!sh_parse_number(argv[1], &n)) {
      sh_error(sh, "%s: %s: numeric argument required", name, argv[1]);
      sh->flow = SH_FLOW_EXIT;
      sh->exit_status = 128;
      return 128;
    }
    if (n < 1) {
      /* bash: the error leaves every enclosing loop (break and continue alike) */
      sh_error(sh, "%s: %s: loop count out of range", name, argv[1]);
      if (sh->loop_depth > 0) {
        sh->flow = SH_FLOW_BREAK;
        sh->flow_n = sh->loop_depth;
      }
      return 1;
    }
  }
  if (sh->loop_depth == 0) {
    sh_error(sh, "%s: only meaningful in a `for', `while', or `until' loop", name);
    return 0;
  }
  if (n > sh->loop_depth) n = sh->loop_depth;
  sh->flow = kind;
  sh->flow_n = (int)n;
  return 0;
}

static int bi_break(sh_shell *sh, int argc, char **argv) { return loop_ctl(sh, argc, argv, SH_FLOW_BREAK); }
static int bi_continue(sh_shell *sh, int argc, char **argv) {
  return loop_ctl(sh, argc, argv, SH_FLOW_CONTINUE);
}

static int bi_shift(sh_shell *sh, int argc, char **argv) {
  int64_t n = 1;
  if (argc > 1 && !sh_parse_number(argv[1], &n)) {
    sh_error(sh, "shift: %s: numeric argument required", argv[1]);
    return 1;
  }
  if (argc > 2) {
    sh_error(sh, "shift: too many arguments"); /* abandons the command line */
    sh_fatal_usage(sh);
    return 1;
  }
  if (n < 0) {
    sh_error(sh, "shift: %s: shift count out of range", argv[1]);
    return 1;
  }
  if ((size_t)n > sh->params.n) return 1;
  if (n == 0 || !sh->params.v) return 0; /* no list to move (a call without arguments) */
  for (int64_t i = 0; i < n; i++) free(sh->params.v[i]);
  memmove(sh->params.v, sh->params.v + n, (sh->params.n - (size_t)n + 1) * sizeof *sh->params.v);
  sh->params.n -= (size_t)n;
  return 0;
}

static char *join_args(int argc, char **argv, int from) {
  sh_buf b = {0};
  for (int i = from; i < argc; i++) {
    if (i > from) sh_buf_addc(&b, ' ');
    sh_buf_adds(&b, argv[i]);
  }
  return sh_buf_steal(&b);
}

static int bi_eval(sh_shell *sh, int argc, char **argv) {
  int i = 1;
  if (i < argc && !strcmp(argv[i], "--")) i++;
  else if (i < argc && argv[i][0] == '-' && argv[i][1]) {
    sh_error(sh, "eval: %s: invalid option", argv[i]);
    sh_bi_usage(sh, "eval");
    return 2;
  }
  char *s = join_args(argc, argv, i);
  sh->status = 0;
  sh->xtrace_level++;
  int st = sh_eval_string(sh, s, strlen(s), "eval", sh->lineno);
  sh->xtrace_level--;
  free(s);
  return st;
}

/* Reads a whole script for `source`: a store file directly; /dev/stdin,
 * /dev/fd/N and the other special paths through the shell's descriptors, so
 * that `source <(cmd)` and `source /dev/stdin <<<...` work as in bash.
 * Bounded by the string-size limit. *data is malloc'd. */
static int source_read(sh_shell *sh, const char *path, void **data, size_t *len) {
  if (strncmp(path, "/dev/", 5) != 0 && strncmp(path, "/proc/self/fd/", 14) != 0)
    return store_path_read_file(sh->sess->st, sh->cwd, path, data, len);
  int fd = sh_fd_open(sh, path, O_RDONLY, 0);
  if (fd < 0) return fd;
  sh_buf b = {0};
  char chunk[4096];
  ssize_t n;
  int r = 0;
  while ((n = sh_fd_read(sh, fd, chunk, sizeof chunk)) > 0) {
    if (sh_check_size(sh, b.len + (size_t)n)) {
      r = -EFBIG;
      break;
    }
    sh_buf_add(&b, chunk, (size_t)n);
  }
  if (n < 0 && r == 0) r = (int)n;
  sh_fd_close(sh, fd);
  if (r < 0) {
    sh_buf_free(&b);
    return r;
  }
  *len = b.len;
  *data = sh_buf_steal(&b);
  return 0;
}

_Thread_local int sh_source_depth;

static int bi_source(sh_shell *sh, int argc, char **argv) {
  int i = 1;
  if (i < argc && !strcmp(argv[i], "--")) i++;
  if (i >= argc) {
    sh_error(sh, "%s: filename argument required", argv[0]);
    sh_bi_usage(sh, argv[0]);
    return 2;
  }
  const char *path = argv[i];
  if (strchr(path, '/') && sh->opt[SH_SHOPT_RESTRICTED_SHELL]) {
    sh_error(sh, "%s: %s: restricted", argv[0], path);
    return 1;
  }
  void *data = NULL;
  size_t len = 0;
  int r = -ENOENT;
  if (!strchr(path, '/') && sh->opt[SH_SHOPT_SOURCEPATH]) {
    /* bash's sourcepath: PATH first, then the current directory */
    const char *pathvar = sh_var_get(sh, "PATH");
    if (pathvar) {
      char *pv = sh_xstrdup(pathvar), *save = NULL;
      for (char *d = strtok_r(pv, ":", &save); d && r < 0; d = strtok_r(NULL, ":", &save)) {
        char *cand = sh_xasprintf("%s/%s", d, path);
        store_stat sst;
        if (store_path_stat(sh->sess->st, sh->cwd, cand, &sst) == 0 && S_ISREG(sst.mode))
          r = store_path_read_file(sh->sess->st, sh->cwd, cand, &data, &len);
        free(cand);
      }
      free(pv);
    }
  }
  if (r < 0) r = source_read(sh, path, &data, &len);
  if (r < 0 && sh->sess->limit_hit != SH_LIMIT_NONE) return 126; /* the limit said why */
  if (r < 0) {
    sh_error(sh, "%s: %s", path, cmd_strerror(r));
    sh->sess->err_errno = -r;
    snprintf(sh->sess->err_path, sizeof sh->sess->err_path, "%s", path);
    return 1;
  }
  sh_strv saved = {0};
  bool set_params = argc - i > 1;
  if (set_params) {
    saved = sh->params;
    memset(&sh->params, 0, sizeof sh->params);
    for (int k = i + 1; k < argc; k++) sh_strv_pushdup(&sh->params, argv[k]);
  }
  /* BASH_SOURCE: a frame for the sourced file */
  if (sh->nframes == sh->capframes) {
    sh->capframes *= 2;
    sh->frames = sh_xrealloc(sh->frames, (size_t)sh->capframes * sizeof *sh->frames);
  }
  char *pathcopy = sh_xstrdup(path);
  sh->frames[sh->nframes].funcname = "source";
  sh->frames[sh->nframes].source = pathcopy;
  sh->frames[sh->nframes].file = true;
  sh->frames[sh->nframes].saved_opts = NULL;
  sh->frames[sh->nframes].call_line = sh->lineno;
  sh->nframes++;
  sh_source_depth++;
  int saved_line = sh->lineno;
  sh->xtrace_level++;
  sh_trap_hide hidden;
  sh_traps_hide(sh, &hidden, false, false);
  int st = sh_eval_file(sh, data, len, path);
  sh_traps_unhide(sh, &hidden);
  sh->xtrace_level--;
  sh->lineno = saved_line;
  sh_source_depth--;
  sh->nframes--;
  free(pathcopy);
  if (sh->flow == SH_FLOW_RETURN) {
    sh->flow = SH_FLOW_NONE;
    st = sh->exit_status;
  }
  /* the RETURN trap runs when a sourced file finishes */
  if (sh->flow == SH_FLOW_NONE && sh->traps.action[SH_TRAP_RETURN] && *sh->traps.action[SH_TRAP_RETURN] &&
      !(sh->trap_active & 4)) {
    sh->status = st;
    sh_run_trap(sh, SH_TRAP_RETURN);
    sh->status = st;
  }
  if (set_params) {
    sh_strv_free(&sh->params);
    sh->params = saved;
  }
  free(data);
  return st;
}

static int bi_exec(sh_shell *sh, int argc, char **argv) {
  int i = 1;
  const char *arg0 = NULL;
  for (; i < argc && argv[i][0] == '-'; i++) {
    if (!strcmp(argv[i], "--")) {
      i++;
      break;
    }
    if (!strcmp(argv[i], "-a") && i + 1 < argc) {
      arg0 = argv[++i];
      continue;
    }
  }
  if (i >= argc) return 0; /* redirections only: kept by the executor */
  if (sh->opt[SH_SHOPT_RESTRICTED_SHELL]) {
    sh_error(sh, "exec: restricted");
    return 1;
  }
  /* exec -a NAME: the program's argv[0] ($0 of a nested shell) */
  const char *saved0 = sh->exec_argv0;
  sh->exec_argv0 = arg0;
  int st = sh_run_argv(sh, argc - i, argv + i, true);
  sh->exec_argv0 = saved0;
  if (sh->flow == SH_FLOW_NONE || sh->flow == SH_FLOW_RETURN) {
    sh->flow = SH_FLOW_EXIT;
    sh->exit_status = st;
  }
  return st;
}

/* ---- lookup: command, builtin, type, hash -------------------------------------------------------- */

static const char *const keywords[] = {"if", "then", "else", "elif", "fi", "case", "esac", "for",
                                       "select", "while", "until", "do", "done", "in", "function",
                                       "time", "{", "}", "!", "[[", "]]", "coproc", NULL};

static bool is_keyword(const char *s) {
  for (int i = 0; keywords[i]; i++)
    if (!strcmp(s, keywords[i])) return true;
  return false;
}

/* Describes how `name` resolves. kind: 0 none, 1 alias, 2 keyword, 3 function,
 * 4 builtin, 5 file. */
static int resolve_kind(sh_shell *sh, const char *name, bool funcs) {
  if (sh_map_get(&sh->aliases, name)) return 1;
  if (is_keyword(name)) return 2;
  if (funcs && sh_func_get(sh, name)) return 3;
  if (sh_builtin_find(sh, name)) return 4;
  if (!strchr(name, '/')) {
    int kind;
    free(sh_path_search(sh, name, &kind));
    if (kind == SH_PATH_TABLE || kind == SH_PATH_FILE || kind == SH_PATH_HOST) return 5;
  }
  if (strchr(name, '/')) {
    if (name[0] == '/' && py_program_visible(sh->sess->sandbox, name)) return 5;
    store_stat st;
    /* bash: a file that no one may execute is not a command */
    if (store_path_stat(sh->sess->st, sh->cwd, name, &st) == 0 && !S_ISDIR(st.mode) && (st.mode & 0111))
      return 5;
  }
  return 0;
}

/* Where a command would be run from (the hash table, else a PATH search). */
static char *command_path_sh(sh_shell *sh, const char *name) {
  if (strchr(name, '/')) return sh_xstrdup(name);
  sh_hashent *h = sh_map_get(&sh->hashed, name);
  if (h) return sh_xstrdup(h->path);
  int kind;
  char *p = sh_path_search(sh, name, &kind);
  if (p && (kind == SH_PATH_TABLE || kind == SH_PATH_FILE || kind == SH_PATH_HOST)) return p;
  free(p);
  return sh_xasprintf("/usr/bin/%s", name);
}
#define command_path(name) command_path_sh(sh, name)


/* The line of `type` and `command -V` for `name` found as `kind` (the
 * numbers of resolve_kind: 1 alias, 2 keyword, 3 function, 4 builtin, 5 the
 * file `path`, "hashed" when the hash table gave it). */
static void describe_kind(sh_shell *sh, const char *name, int kind, const char *path, bool hashed) {
  switch (kind) {
  case 1:
    sh_printf_fd(sh, 1, "%s is aliased to `%s'\n", name, (const char *)sh_map_get(&sh->aliases, name));
    break;
  case 2: sh_printf_fd(sh, 1, "%s is a shell keyword\n", name); break;
  case 3: {
    char *txt = sh_func_text(sh, sh_func_get(sh, name));
    sh_printf_fd(sh, 1, "%s is a function\n%s\n", name, txt);
    free(txt);
    break;
  }
  case 4: sh_printf_fd(sh, 1, "%s is a shell builtin\n", name); break;
  default:
    if (hashed) sh_printf_fd(sh, 1, "%s is hashed (%s)\n", name, path);
    else sh_printf_fd(sh, 1, "%s is %s\n", name, path);
  }
}

static int bi_command(sh_shell *sh, int argc, char **argv) {
  bool v = false, V = false, pflag = false;
  sh_bi_getopt g = SH_BI_GETOPT("command", "vVp");
  int c;
  while ((c = sh_bi_getopt_next(sh, &g, argc, argv)) > 0) {
    if (c == 'v') v = true;
    else if (c == 'V') V = true;
    else if (sh->opt[SH_SHOPT_RESTRICTED_SHELL]) {
      sh_error(sh, "command: -p: restricted");
      return 1;
    } else pflag = true;
  }
  if (c < 0) return 2;
  int i = g.i;
  if (i >= argc) return 0;
  if (v || V) {
    int st = 1; /* bash: 0 when any name was found */
    for (; i < argc; i++) {
      const char *name = argv[i];
      int k = resolve_kind(sh, name, true);
      if (!k) {
        if (V) sh_error(sh, "command: %s: not found", name);
        continue;
      }
      st = 0;
      if (v) {
        if (k == 1) {
          char *q = sh_quote_single(sh_map_get(&sh->aliases, name));
          sh_printf_fd(sh, 1, "alias %s=%s\n", name, q);
          free(q);
        } else if (k == 5) {
          char *p = command_path(name);
          sh_printf_fd(sh, 1, "%s\n", p);
          free(p);
        } else {
          sh_printf_fd(sh, 1, "%s\n", name);
        }
      } else {
        char *p = k == 5 ? command_path(name) : NULL;
        describe_kind(sh, name, k, p, false);
        free(p);
      }
    }
    return st;
  }
  if (!pflag) return sh_run_argv(sh, argc - i, argv + i, true);
  /* command -p: the standard PATH, for this lookup only */
  const char *cur = sh_var_get(sh, "PATH");
  char *saved = cur ? sh_xstrdup(cur) : NULL;
  sh_var_set(sh, "PATH", "/usr/bin:/bin", SH_SET_FORCE);
  int st = sh_run_argv(sh, argc - i, argv + i, true);
  if (saved) sh_var_set(sh, "PATH", saved, SH_SET_FORCE);
  else sh_var_unset(sh, "PATH", false);
  free(saved);
  return st;
}

int sh_bi_getopt_next(sh_shell *sh, sh_bi_getopt *g, int argc, char **argv) {
  const char *spec = g->spec + (g->spec[0] == '#');
  g->arg = NULL;
  if (!g->next) {
    const char *w = g->i < argc ? argv[g->i] : NULL;
    if (!w || w[0] != '-' || !w[1]) return 0;
    if (!strcmp(w, "--")) {
      g->i++;
      return 0;
    }
    if (g->spec[0] == '#' && w[1] >= '0' && w[1] <= '9') return 0;
    g->next = w + 1;
  }
  char letter = *g->next++;
  const char *k = letter != ':' ? strchr(spec, letter) : NULL;
  if (!k) {
    sh_error(sh, "%s: -%c: invalid option", g->name, letter);
    sh_bi_usage(sh, g->name);
    return -1;
  }
  if (k[1] == ':') {
    if (*g->next) g->arg = g->next;
    else if (g->i + 1 < argc) g->arg = argv[++g->i];
    else {
      sh_error(sh, "%s: -%c: option requires an argument", g->name, letter);
      sh_bi_usage(sh, g->name);
      return -1;
    }
    g->next = "";
  }
  if (!*g->next) {
    g->next = NULL;
    g->i++;
  }
  g->given |= (uint64_t)1 << (k - g->spec);
  return (unsigned char)letter;
}

bool sh_bi_getopt_given(const sh_bi_getopt *g, char letter) {
  const char *k = letter != ':' && letter != '#' ? strchr(g->spec, letter) : NULL;
  return k && (g->given >> (k - g->spec) & 1);
}

int sh_bi_options(sh_shell *sh, const char *name, int argc, char **argv, const char *letters, bool *on) {
  sh_bi_getopt g = SH_BI_GETOPT(name, letters);
  int c;
  while ((c = sh_bi_getopt_next(sh, &g, argc, argv)) > 0) on[strchr(letters, c) - letters] = true;
  return c < 0 ? -1 : g.i;
}

static int bi_builtin(sh_shell *sh, int argc, char **argv) {
  if (argc < 2) return 0;
  int i = 1;
  if (!strcmp(argv[1], "--")) i++;
  if (i >= argc) return 0;
  return sh_run_argv_flags(sh, argc - i, argv + i, true, true);
}

static int bi_type(sh_shell *sh, int argc, char **argv) {
  bool on[5] = {0};
  int i = sh_bi_options(sh, "type", argc, argv, "tpaPf", on);
  if (i < 0) return 2;
  bool t = on[0], p = on[1], a = on[2], P = on[3], f_no = on[4];
  int st = 0;
  for (; i < argc; i++) {
    const char *name = argv[i];
    bool found = false;
    int kinds[5] = {0};
    int nk = 0;
    if (!P) {
      if (sh_map_get(&sh->aliases, name)) kinds[nk++] = 1;
      if (is_keyword(name)) kinds[nk++] = 2;
      if (!f_no && sh_func_get(sh, name)) kinds[nk++] = 3;
      if (sh_builtin_find(sh, name)) kinds[nk++] = 4;
    }
    /* files: the hashed path or the PATH matches (all of them with -a) */
    sh_strv files = {0};
    if (strchr(name, '/')) {
      store_stat sst;
      if (store_path_stat(sh->sess->st, sh->cwd, name, &sst) == 0 && S_ISREG(sst.mode) && (sst.mode & 0111))
        sh_strv_pushdup(&files, name);
    } else {
      sh_hashent *h = a ? NULL : sh_map_get(&sh->hashed, name);
      if (h) sh_strv_pushdup(&files, h->path);
      else sh_path_search_all(sh, name, a, &files); /* bash's type reports files it cannot run too */
    }
    if (files.n) kinds[nk++] = 5;
    /* -p: a file only when nothing else comes first */
    bool file_first = nk && kinds[0] == 5;
    for (int k = 0; k < nk; k++) {
      int kind = kinds[k];
      if ((p && !a) && kind != 5) {
        found = true;
        break;
      }
      if ((p || P) && kind != 5) {
        if (p) found = true;
        continue;
      }
      found = true;
      size_t nf = kind == 5 ? files.n : 1;
      for (size_t fi = 0; fi < nf; fi++) {
        if (t && !p && !P) { /* -p and -P print the path even with -t (bash) */
          static const char *const words[] = {"", "alias", "keyword", "function", "builtin", "file"};
          sh_printf_fd(sh, 1, "%s\n", words[kind]);
        } else if (p || P) {
          sh_printf_fd(sh, 1, "%s\n", files.v[fi]);
        } else {
          bool hashed = kind == 5 && !a && sh_map_get(&sh->hashed, name) && !strchr(name, '/');
          describe_kind(sh, name, kind, kind == 5 ? files.v[fi] : NULL, hashed);
        }
      }
      if (!a) break;
    }
    (void)file_first;
    sh_strv_free(&files);
    if (!found) {
      if (!t && !p && !P) sh_error(sh, "type: %s: not found", name);
      st = 1;
    }
  }
  return st;
}

static int bi_hash(sh_shell *sh, int argc, char **argv) {
  const char *ppath = NULL;
  sh_bi_getopt g = SH_BI_GETOPT("hash", "rdtlp:");
  int c;
  while ((c = sh_bi_getopt_next(sh, &g, argc, argv)) > 0)
    if (c == 'p') ppath = g.arg;
  if (c < 0) return 2;
  bool reset = sh_bi_getopt_given(&g, 'r'), del = sh_bi_getopt_given(&g, 'd');
  bool tflag = sh_bi_getopt_given(&g, 't'), lflag = sh_bi_getopt_given(&g, 'l');
  int i = g.i;
  if (ppath && strchr(ppath, '/') && sh->opt[SH_SHOPT_RESTRICTED_SHELL]) {
    /* a restricted shell may not name a program by its path (bash) */
    sh_error(sh, "hash: %s: restricted", ppath);
    return 1;
  }
  if (reset) sh_map_free(&sh->hashed, sh_hash_free_entry);
  if (i >= argc) {
    if (reset) return 0;
    size_t n;
    const char **keys = sh_map_keys(&sh->hashed, &n);
    if (!n) {
      sh_write_str(sh, 1, "hash: hash table empty\n");
      free(keys);
      return 0;
    }
    sh_buf b = {0};
    if (!lflag) sh_buf_adds(&b, "hits\tcommand\n");
    for (size_t k = 0; k < n; k++) {
      sh_hashent *h = sh_map_get(&sh->hashed, keys[k]);
      if (lflag) sh_buf_addf(&b, "builtin hash -p %s %s\n", h->path, keys[k]);
      else sh_buf_addf(&b, "%4d\t%s\n", h->hits, h->path);
    }
    sh_write_fd(sh, 1, b.data, b.len);
    sh_buf_free(&b);
    free(keys);
    return 0;
  }
  int st = 0;
  for (; i < argc; i++) {
    const char *name = argv[i];
    if (del) {
      bool empty = sh->hashed.n == 0; /* bash: nothing to forget is no error */
      sh_hashent *h = sh_map_del(&sh->hashed, name);
      if (!h && !empty) {
        sh_error(sh, "hash: %s: not found", name);
        st = 1;
      }
      sh_hash_free_entry(h);
      continue;
    }
    if (ppath) {
      sh_hash_put(sh, name, ppath, false, 0);
      continue;
    }
    if (tflag) {
      sh_hashent *h = sh_map_get(&sh->hashed, name);
      if (!h) {
        sh_error(sh, "hash: %s: not found", name);
        st = 1;
      } else if (argc - i > 1 || i + 1 < argc) {
        sh_printf_fd(sh, 1, "%s\t%s\n", name, h->path);
      } else {
        sh_printf_fd(sh, 1, "%s\n", h->path);
      }
      continue;
    }
    if (strchr(name, '/') || sh_builtin_find(sh, name) || sh_func_get(sh, name)) continue;
    int kind;
    char *p = sh_path_search(sh, name, &kind);
    if (kind == SH_PATH_TABLE || kind == SH_PATH_FILE || kind == SH_PATH_HOST) {
      sh_hash_put_kind(sh, name, p, kind, 0);
    } else {
      sh_error(sh, "hash: %s: not found", name);
      st = 1;
    }
    free(p);
  }
  return st;
}

static int bi_times(sh_shell *sh, int argc, char **argv) {
  (void)argc, (void)argv;
  sh_write_str(sh, 1, "0m0.000s 0m0.000s\n0m0.000s 0m0.000s\n");
  return 0;
}


static int bi_umask(sh_shell *sh, int argc, char **argv) {
  bool on[2] = {false, false};
  int i = sh_bi_options(sh, "umask", argc, argv, "Sp", on);
  if (i < 0) return 2;
  bool sym = on[0], pflag = on[1];
  if (i >= argc) {
    if (sym) {
      uint32_t m = ~sh->umask & 0777;
      char buf[64];
      const char *who = "ugo";
      sh_buf b = {0};
      for (int k = 0; k < 3; k++) {
        uint32_t bits = (m >> (6 - 3 * k)) & 7;
        snprintf(buf, sizeof buf, "%s%c=%s%s%s", k ? "," : "", who[k], bits & 4 ? "r" : "",
                 bits & 2 ? "w" : "", bits & 1 ? "x" : "");
        sh_buf_adds(&b, buf);
      }
      sh_buf_addc(&b, '\n');
      if (pflag) sh_write_str(sh, 1, "umask -S ");
      sh_write_fd(sh, 1, b.data, b.len);
      sh_buf_free(&b);
    } else {
      sh_printf_fd(sh, 1, "%s%04o\n", pflag ? "umask " : "", sh->umask);
    }
    return 0;
  }
  const char *m = argv[i]; /* bash ignores further arguments */
  if (!*m || m[0] == ' ') {
    sh_error(sh, "umask: `%s': invalid symbolic mode operator", m);
    return 1;
  }
  if (m[0] >= '0' && m[0] <= '9') {
    char *end;
    long v = strtol(m, &end, 8);
    if (*end || v < 0 || v > 0777) {
      sh_error(sh, "umask: %s: octal number out of range", m);
      return 1;
    }
    sh->umask = (uint32_t)v;
    return 0;
  }
  /* symbolic: u=rwx,g=rx,o= and +/- forms */
  uint32_t perm = ~sh->umask & 0777;
  const char *p = m;
  while (*p) {
    uint32_t who = 0;
    while (*p && strchr("ugoa", *p)) {
      if (*p == 'u') who |= 0700;
      if (*p == 'g') who |= 0070;
      if (*p == 'o') who |= 0007;
      if (*p == 'a') who |= 0777;
      p++;
    }
    if (!who) who = 0777;
    char op = *p;
    if (op != '=' && op != '+' && op != '-') {
      sh_error(sh, "umask: `%c': invalid symbolic mode operator", op ? op : ' ');
      return 1;
    }
    p++;
    uint32_t bits = 0;
    while (*p && strchr("rwx", *p)) {
      if (*p == 'r') bits |= 0444;
      if (*p == 'w') bits |= 0222;
      if (*p == 'x') bits |= 0111;
      p++;
    }
    bits &= who;
    if (op == '=') perm = (perm & ~who) | bits;
    else if (op == '+') perm |= bits;
    else perm &= ~bits;
    if (*p == ',' && p[1]) p++;
    else if (*p == ',') {
      /* a clause must follow the comma */
      sh_error(sh, "umask: ` ': invalid symbolic mode operator");
      return 1;
    } else if (*p) {
      sh_error(sh, "umask: `%c': invalid symbolic mode character", *p);
      return 1;
    }
  }
  sh->umask = ~perm & 0777;
  return 0;
}

/* ---- aliases ------------------------------------------------------------------------------------ */

static int bi_alias(sh_shell *sh, int argc, char **argv) {
  int i = 1;
  if (i < argc && !strcmp(argv[i], "-p")) i++;
  if (i < argc && !strcmp(argv[i], "--")) i++;
  if (i >= argc) {
    size_t n;
    const char **keys = sh_map_keys(&sh->aliases, &n);
    for (size_t k = 0; k < n; k++) {
      char *q = sh_quote_single(sh_map_get(&sh->aliases, keys[k]));
      sh_printf_fd(sh, 1, "alias %s=%s\n", keys[k], q);
      free(q);
    }
    free(keys);
    return 0;
  }
  int st = 0;
  for (; i < argc; i++) {
    char *eq = strchr(argv[i], '=');
    if (eq) {
      char *name = sh_xstrndup(argv[i], (size_t)(eq - argv[i]));
      if (!*name || strchr(name, '/') || strchr(name, '$') || strchr(name, '`') || strchr(name, '=')) {
        sh_error(sh, "alias: `%s': invalid alias name", name);
        free(name);
        st = 1;
        continue;
      }
      free(sh_map_set(&sh->aliases, name, sh_xstrdup(eq + 1)));
      free(name);
    } else {
      const char *v = sh_map_get(&sh->aliases, argv[i]);
      if (!v) {
        sh_error(sh, "alias: %s: not found", argv[i]);
        st = 1;
        continue;
      }
      char *q = sh_quote_single(v);
      sh_printf_fd(sh, 1, "alias %s=%s\n", argv[i], q);
      free(q);
    }
  }
  return st;
}

static int bi_unalias(sh_shell *sh, int argc, char **argv) {
  if (argc < 2) {
    sh_bi_usage(sh, "unalias");
    return 2;
  }
  if (!strcmp(argv[1], "-a")) {
    sh_map_free(&sh->aliases, free);
    return 0;
  }
  int st = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--")) continue;
    char *v = sh_map_del(&sh->aliases, argv[i]);
    if (!v) {
      sh_error(sh, "unalias: %s: not found", argv[i]);
      st = 1;
    }
    free(v);
  }
  return st;
}

/* ---- misc ----------------------------------------------------------------------------------------- */

/* caller [N]: read off FUNCNAME, BASH_SOURCE and BASH_LINENO as bash does:
 * "LINE FILE" (FILE is BASH_SOURCE[1], or NULL), or for frame N "LINE
 * FUNCTION FILE", failing when one of them is missing. */
/* logout and suspend: no login shell and no job control in the sandbox (the
 * messages of a non-interactive bash) */
static int bi_logout(sh_shell *sh, int argc, char **argv) {
  (void)argc;
  (void)argv;
  sh_error(sh, "logout: not login shell: use `exit'");
  return 1;
}

static int bi_suspend(sh_shell *sh, int argc, char **argv) {
  (void)argc;
  (void)argv;
  sh_error(sh, "suspend: cannot suspend: no job control");
  return 1;
}

static int bi_caller(sh_shell *sh, int argc, char **argv) {
  int64_t n = 0;
  if (argc > 1 && argv[1][0] == '-' && argv[1][1]) {
    sh_error(sh, "caller: %s: invalid option", argv[1]);
    sh_bi_usage(sh, "caller");
    return 2;
  }
  if (argc > 1 && !sh_parse_number(argv[1], &n)) {
    sh_strv ln = {0};
    sh_var_dynamic_array(sh, "BASH_LINENO", &ln);
    size_t frames = ln.n;
    sh_strv_free(&ln);
    if (!frames) return 1; /* bash: outside any frame, before the number */
    sh_error(sh, "caller: %s: invalid number", argv[1]);
    sh_bi_usage(sh, "caller");
    return 2;
  }
  sh_strv fn = {0}, src = {0}, line = {0};
  sh_var_dynamic_array(sh, "FUNCNAME", &fn);
  sh_var_dynamic_array(sh, "BASH_SOURCE", &src);
  sh_var_dynamic_array(sh, "BASH_LINENO", &line);
  int st = 1;
  if (!line.n) {
    /* not in a function, a sourced file or a script file ("0 NULL" there) */
  } else if (argc < 2) {
    sh_printf_fd(sh, 1, "%s %s\n", line.n ? line.v[0] : "NULL", src.n > 1 ? src.v[1] : "NULL");
    st = 0;
  } else if ((uint64_t)n + 1 < fn.n && (uint64_t)n + 1 < src.n && (uint64_t)n < line.n) {
    sh_printf_fd(sh, 1, "%s %s %s\n", line.v[n], fn.v[n + 1], src.v[n + 1]);
    st = 0;
  }
  sh_strv_free(&fn);
  sh_strv_free(&src);
  sh_strv_free(&line);
  return st;
}

static int bi_let(sh_shell *sh, int argc, char **argv) {
  if (argc < 2) {
    sh_error(sh, "let: expression expected");
    return 1;
  }
  int64_t v = 0;
  const char *saved = sh->arith_context;
  sh->arith_context = "let";
  int st = 0;
  for (int i = 1; i < argc && !st; i++)
    if (sh_arith_eval(sh, argv[i], &v)) st = 1;
  sh->arith_context = saved;
  return st ? 1 : v ? 0 : 1;
}

/* enable [-a] [-dnps] [-f filename] [name ...]: builtins are switched off
 * per shell (a bit per table entry); a disabled one is skipped by lookups. */
static int bi_enable(sh_shell *sh, int argc, char **argv) {
  bool on[6] = {0};
  int i = sh_bi_options(sh, "enable", argc, argv, "nasp" "fd", on);
  if (i < 0) return 2;
  bool disable = on[0], all = on[1], special = on[2];
  if (on[4] || on[5]) {
    sh_error(sh, "enable: dynamic loading not available");
    return 1;
  }
  if (i >= argc) {
    sh_buf b = {0};
    for (size_t k = 0; k < sh_builtin_count; k++) {
      const sh_builtin *e = &sh_builtin_table[k];
      if (e->flags & SH_BI_TESTMODE) continue;
      if (special && !(e->flags & SH_BI_SPECIAL)) continue;
      bool off = (sh->builtins_off[k / 64] >> (k % 64)) & 1;
      if (!all && off != disable) continue;
      sh_buf_addf(&b, "enable %s%s\n", off ? "-n " : "", e->name);
    }
    sh_write_fd(sh, 1, b.data, b.len);
    sh_buf_free(&b);
    return 0;
  }
  int st = 0;
  for (; i < argc; i++) {
    const sh_builtin *e = sh_builtin_lookup(sh, argv[i]);
    if (!e) {
      sh_error(sh, "enable: %s: not a shell builtin", argv[i]);
      st = 1;
      continue;
    }
    size_t k = (size_t)(e - sh_builtin_table);
    if (disable) sh->builtins_off[k / 64] |= (uint64_t)1 << (k % 64);
    else sh->builtins_off[k / 64] &= ~((uint64_t)1 << (k % 64));
  }
  return st;
}

static int bi_printf(sh_shell *sh, int argc, char **argv) { return sh_run_printf(sh, argc, argv); }

int sh_run_printf(sh_shell *sh, int argc, char **argv) {
  /* printf -v NAME: bash checks the name first (status 2) */
  if (argc > 2 && !strcmp(argv[1], "-v")) {
    const char *n = argv[2], *br = strchr(n, '[');
    size_t l = strlen(n);
    bool ok = br ? (l > 2 && n[l - 1] == ']' && br > n && sh_is_name_n(n, (size_t)(br - n))) : sh_is_name(n);
    if (!ok) {
      sh_error(sh, "printf: `%s': not a valid identifier", n);
      return 2;
    }
  }
  const cmd_entry *e = cmd_find("printf");
  if (!e) {
    sh_error(sh, "printf: not available in this build");
    return 127;
  }
  sh_strv env = {0};
  sh_vars_environ(sh, &env);
  bool saved = sh->table_builtin;
  sh->table_builtin = true;
  int st = sh_run_table_command(sh, e, argc, argv, sh_strv_terminated(&env));
  sh->table_builtin = saved;
  sh_strv_free(&env);
  return st;
}


/* ---- the table -------------------------------------------------------------------------------------- */

const sh_builtin sh_builtin_table[] = {
    {".", bi_source, SH_BI_SPECIAL},
    {":", bi_true, SH_BI_SPECIAL},
    {"[", sh_bi_bracket, 0},
    {"alias", bi_alias, 0},
    {"argv.py", sh_bi_argv_py, SH_BI_TESTMODE},
    {"bash", sh_bi_sh, 0},
    {"bg", sh_bi_fg, 0},
    {"bind", sh_bi_bind, 0},
    {"break", bi_break, SH_BI_SPECIAL},
    {"builtin", bi_builtin, 0},
    {"caller", bi_caller, 0},
    {"cd", sh_builtin_cd, 0},
    {"command", bi_command, 0},
    {"compgen", sh_bi_compgen, 0},
    {"complete", sh_bi_complete, 0},
    {"compopt", sh_bi_compopt, 0},
    {"continue", bi_continue, SH_BI_SPECIAL},
    {"declare", sh_bi_declare, SH_BI_DECL},
    {"dirs", bi_dirs, 0},
    {"disown", sh_bi_disown, 0},
    {"echo", bi_echo, 0},
    {"enable", bi_enable, 0},
    {"eval", bi_eval, SH_BI_SPECIAL},
    {"exec", bi_exec, SH_BI_SPECIAL},
    {"exit", bi_exit, SH_BI_SPECIAL},
    {"export", sh_bi_export, SH_BI_SPECIAL | SH_BI_DECL},
    {"false", bi_false, 0},
    {"fc", sh_bi_fc, 0},
    {"fg", sh_bi_fg, 0},
    {"getopts", sh_bi_getopts, 0},
    {"hash", bi_hash, 0},
    {"help", sh_bi_help, 0},
    {"history", sh_bi_history, 0},
    {"jobs", sh_bi_jobs, 0},
    {"kill", sh_bi_kill, 0},
    {"let", bi_let, 0},
    {"local", sh_bi_local, SH_BI_DECL},
    {"logout", bi_logout, 0},
    {"mapfile", sh_bi_mapfile, 0},
    {"popd", bi_popd, 0},
    {"printenv.py", sh_bi_printenv_py, SH_BI_TESTMODE},
    {"printf", bi_printf, 0},
    {"pushd", bi_pushd, 0},
    {"pwd", bi_pwd, 0},
    {"read", sh_bi_read, 0},
    {"read_from_fd.py", sh_bi_read_from_fd_py, SH_BI_TESTMODE},
    {"readarray", sh_bi_mapfile, 0},
    {"readonly", sh_bi_readonly, SH_BI_SPECIAL | SH_BI_DECL},
    {"return", bi_return, SH_BI_SPECIAL},
    {"set", sh_bi_set, SH_BI_SPECIAL},
    {"sh", sh_bi_sh, 0},
    {"shift", bi_shift, SH_BI_SPECIAL},
    {"shopt", sh_bi_shopt, 0},
    {"source", bi_source, SH_BI_SPECIAL},
    {"stdout_stderr.py", sh_bi_stdout_stderr_py, SH_BI_TESTMODE},
    {"suspend", bi_suspend, 0},
    {"test", sh_bi_test, 0},
    {"times", bi_times, SH_BI_SPECIAL},
    {"trap", sh_bi_trap, SH_BI_SPECIAL},
    {"true", bi_true, 0},
    {"type", bi_type, 0},
    {"typeset", sh_bi_declare, SH_BI_DECL},
    {"ulimit", sh_bi_ulimit, 0},
    {"umask", bi_umask, 0},
    {"unalias", bi_unalias, 0},
    {"unset", sh_bi_unset, SH_BI_SPECIAL},
    {"wait", sh_bi_wait, 0},
};
const size_t sh_builtin_count = sizeof sh_builtin_table / sizeof sh_builtin_table[0];

static int bi_cmp(const void *key, const void *elem) {
  return strcmp((const char *)key, ((const sh_builtin *)elem)->name);
}

_Static_assert(sizeof sh_builtin_table / sizeof sh_builtin_table[0] <= 64 * 2,
               "sh_shell.builtins_off has a bit per builtin");

const sh_builtin *sh_builtin_lookup(sh_shell *sh, const char *name) {
  const sh_builtin *b = bsearch(name, sh_builtin_table, sh_builtin_count, sizeof *sh_builtin_table, bi_cmp);
  if (b && (b->flags & SH_BI_TESTMODE) && !sh->sess->test_mode) return NULL;
  return b;
}

const sh_builtin *sh_builtin_find(sh_shell *sh, const char *name) {
  const sh_builtin *b = sh_builtin_lookup(sh, name);
  if (b && (sh->builtins_off[0] | sh->builtins_off[1])) {
    size_t k = (size_t)(b - sh_builtin_table);
    if ((sh->builtins_off[k / 64] >> (k % 64)) & 1) return NULL;
  }
  return b;
}
