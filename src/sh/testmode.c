/*
 * testmode.c - nested shells (`sh`, `bash` as commands: `$SH -c '...'`) and
 * the four helper programs of the conformance kit (argv.py, printenv.py,
 * stdout_stderr.py, read_from_fd.py), which exist only in `sbx sh` test mode
 * (the sandbox cannot run host programs, so the shell emulates exactly what
 * those Python scripts print).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "sh/builtins.h"
#include "sh/expand.h"
#include "sh/io.h"
#include "sh/parse.h"
#include "sh/vars.h"

/* ---- argv.py: Python 2 style list of byte-string reprs ---------------------------------- */

static void py_bytes_repr(sh_buf *b, const char *s) {
  bool has_sq = strchr(s, '\'') != NULL, has_dq = strchr(s, '"') != NULL;
  char q = (has_sq && !has_dq) ? '"' : '\'';
  sh_buf_addc(b, q);
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    unsigned char c = *p;
    if (c == (unsigned char)q || c == '\\') {
      sh_buf_addc(b, '\\');
      sh_buf_addc(b, (char)c);
    } else if (c == '\t') {
      sh_buf_adds(b, "\\t");
    } else if (c == '\n') {
      sh_buf_adds(b, "\\n");
    } else if (c == '\r') {
      sh_buf_adds(b, "\\r");
    } else if (c < 32 || c >= 127) {
      sh_buf_addf(b, "\\x%02x", c);
    } else {
      sh_buf_addc(b, (char)c);
    }
  }
  sh_buf_addc(b, q);
}

int sh_bi_argv_py(sh_shell *sh, int argc, char **argv) {
  sh_buf b = {0};
  sh_buf_addc(&b, '[');
  for (int i = 1; i < argc; i++) {
    if (i > 1) sh_buf_adds(&b, ", ");
    py_bytes_repr(&b, argv[i]);
  }
  sh_buf_adds(&b, "]\n");
  sh_write_fd(sh, 1, b.data, b.len);
  sh_buf_free(&b);
  return 0;
}

int sh_bi_printenv_py(sh_shell *sh, int argc, char **argv) {
  sh_buf b = {0};
  for (int i = 1; i < argc; i++) {
    sh_var *v = sh_var_find_noref(sh, argv[i]);
    if (v && (v->flags & SH_V_EXPORT) && !(v->flags & SH_V_UNSET) && v->str &&
        !(v->flags & (SH_V_ARRAY | SH_V_ASSOC)))
      sh_buf_adds(&b, v->str);
    else
      sh_buf_adds(&b, "None");
    sh_buf_addc(&b, '\n');
  }
  sh_write_fd(sh, 1, b.data ? b.data : "", b.len);
  sh_buf_free(&b);
  return 0;
}

int sh_bi_stdout_stderr_py(sh_shell *sh, int argc, char **argv) {
  const char *out = argc > 1 ? argv[1] : "STDOUT";
  const char *err = argc > 2 ? argv[2] : "STDERR";
  sh_printf_fd(sh, 2, "%s\n", err);
  sh_printf_fd(sh, 1, "%s\n", out);
  return argc > 3 ? atoi(argv[3]) & 0xff : 0;
}

int sh_bi_read_from_fd_py(sh_shell *sh, int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    int fd = atoi(argv[i]);
    char buf[1024];
    ssize_t n = sh_fd_read(sh, fd, buf, sizeof buf);
    if (n < 0) {
      sh_printf_fd(sh, 2, "FATAL: Error reading from fd %d: [Errno %d] %s\n", fd, (int)-n, cmd_strerror((int)n));
      return 1;
    }
    /* one write, as the Python original does with its buffered stdout */
    sh_buf b = {0};
    sh_buf_addf(&b, "%d: ", fd);
    sh_buf_add(&b, buf, (size_t)n);
    sh_write_fd(sh, 1, b.data, b.len);
    sh_buf_free(&b);
  }
  return 0;
}

/* ---- sh / bash ------------------------------------------------------------------------------ */

static const char usage_fmt[] =
    "Usage:\t%s [GNU long option] [option] ...\n\t%s [GNU long option] [option] script-file ...\n"
    "GNU long options:\n\t--help\n\t--init-file\n\t--login\n\t--noediting\n\t--noprofile\n"
    "\t--norc\n\t--posix\n\t--rcfile\n\t--restricted\n\t--verbose\n"
    "Shell options:\n\t-ilrsD or -c command or -O shopt_option\t\t(invocation only)\n"
    "\t-abefhkmnptuvxBCEHPT or -o option\n";

static void sh_usage(sh_shell *sh, const char *name) { sh_errorf_raw(sh, usage_fmt, name, name); }

/* Sources an rc file into a new interactive shell: a missing file is
 * skipped, errors are reported and the shell goes on (bash). */
static void source_rcfile(sh_shell *n, const char *path) {
  void *data;
  size_t len;
  if (store_path_read_file(n->sess->st, n->cwd, path, &data, &len) < 0) return;
  n->interactive = false; /* messages carry the rc file's line numbers */
  sh_eval_file(n, data, len, path);
  n->interactive = true;
  free(data);
  if (n->flow == SH_FLOW_EXIT && n->fatal) {
    n->flow = SH_FLOW_NONE;
    n->fatal = 0;
  }
}

/* An exported function in the environment (BASH_FUNC_NAME%%=() { ... }):
 * defined in the new shell n and exported again, as bash imports them. Only
 * a text that is exactly one function definition is taken (nothing runs
 * while importing). Returns whether `name` was such an entry. */
static bool import_function(sh_shell *n, const char *name, const char *value) {
  size_t nl = strlen(name);
  if (strncmp(name, "BASH_FUNC_", 10) || nl < 13 || strcmp(name + nl - 2, "%%") || strncmp(value, "() {", 4))
    return false;
  char *fname = sh_xstrndup(name + 10, nl - 12);
  if (!sh_is_name(fname)) {
    free(fname);
    return false;
  }
  char *text = sh_xasprintf("%s %s", fname, value);
  sh_parse_opts o = {.max_depth = (int)n->sess->limits.nesting}; /* the session's nesting limit */
  sh_parser *p = sh_parser_new(text, strlen(text), &o);
  sh_node *node = NULL, *rest = NULL;
  sh_arena *arena = NULL, *rest_arena = NULL;
  if (sh_parse_next(p, &node, &arena) == 1) {
    sh_node *c = sh_node_only_command(node);
    if (c && c->kind == SH_N_FUNCDEF && !strcmp(((sh_funcdef *)c)->name, fname) &&
        sh_parse_next(p, &rest, &rest_arena) == 0) {
      sh_func_define(n, (sh_funcdef *)c, arena);
      sh_func *f = sh_func_get(n, fname);
      if (f) f->attrs |= 1;
    }
  }
  if (rest_arena) sh_arena_unref(rest_arena);
  if (arena) sh_arena_unref(arena);
  sh_parser_free(p);
  free(text);
  free(fname);
  return true;
}

int sh_bi_sh(sh_shell *sh, int argc, char **argv) {
  const char *cmd = NULL;
  int i = 1;
  bool opts[SH_OPT_COUNT] = {0};
  bool optset[SH_OPT_COUNT] = {0};
  bool read_stdin = false, interactive = false, norc = false, restricted = false, want_cmd = false;
  const char *rcfile = NULL;
  for (; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--") || !strcmp(a, "-")) {
      i++;
      break;
    }
    if (a[0] == '-' && a[1] == '-') {
      if (!strcmp(a, "--help")) {
        sh_printf_fd(sh, 1, usage_fmt, argv[0], argv[0]);
        return 0;
      }
      if (!strcmp(a, "--restricted")) {
        restricted = true;
        continue;
      }
      if (!strcmp(a, "--norc") || !strcmp(a, "--noprofile") || !strcmp(a, "--login") ||
          !strcmp(a, "--noediting") || !strcmp(a, "--debugger") || !strcmp(a, "--protected"))
        norc = norc || !strcmp(a, "--norc");
      else if (!strcmp(a, "--posix"))
        opts[SH_OPT_POSIX] = optset[SH_OPT_POSIX] = true;
      else if (!strcmp(a, "--verbose"))
        opts[SH_OPT_VERBOSE] = optset[SH_OPT_VERBOSE] = true;
      else if (!strcmp(a, "--rcfile") || !strcmp(a, "--init-file")) {
        if (i + 1 >= argc) {
          sh_errorf_raw(sh, "%s: %s: option requires an argument\n", argv[0], a);
          return 2;
        }
        rcfile = argv[++i];
      } else {
        sh_errorf_raw(sh, "%s: %s: invalid option\n", argv[0], a);
        sh_usage(sh, argv[0]);
        return 2;
      }
      continue;
    }
    if ((a[0] != '-' && a[0] != '+') || !a[1]) break;
    bool on = a[0] == '-';
    for (const char *c = a + 1; *c; c++) {
      switch (*c) {
      case 'c': /* the command is the first argument after the options (bash) */
        want_cmd = true;
        break;
      case 'o':
      case 'O': {
        if (i + 1 >= argc) break;
        int k = sh_opt_find(argv[++i], *c == 'O');
        if (k >= 0) {
          opts[k] = on;
          optset[k] = true;
        }
        break;
      }
      case 's': read_stdin = true; break;
      case 'i': interactive = on; break;
      case 'r': restricted = on || restricted; break;
      case 'l': case 'p': case 'D': break;
      default: {
        bool known = false;
        for (int k = 0; k < SH_SET_COUNT; k++)
          if (sh_optinfo_table[k].letter == *c) {
            opts[k] = on;
            optset[k] = true;
            known = true;
          }
        if (!known) {
          sh_errorf_raw(sh, "%s: %c%c: invalid option\n", argv[0], a[0], *c);
          sh_usage(sh, argv[0]);
          return 2;
        }
      }
      }
    }
  }
  if (want_cmd) {
    if (i >= argc) {
      sh_errorf_raw(sh, "%s: -c: option requires an argument\n", argv[0]);
      return 2;
    }
    cmd = argv[i++];
  }
  /* a new shell: exported variables, the cwd and the fds are inherited */
  sh_shell *n = sh_shell_new(sh->sess);
  n->task = sh->task;
  n->pid = n->dollar_pid = ++sh->sess->next_pid;
  free(n->cwd);
  n->cwd = sh_xstrdup(sh->cwd);
  n->umask = sh->umask;
  n->sig_ignored = sh->sig_ignored;
  n->timeout = sh->timeout; /* a timeout around it bounds it */
  n->timeout.waiter = false;
  memcpy(n->rlim_soft, sh->rlim_soft, sizeof n->rlim_soft);
  memcpy(n->rlim_hard, sh->rlim_hard, sizeof n->rlim_hard);
  sh_fdtab_free(&n->fds);
  sh_fdtab_copy(&n->fds, &sh->fds);
  for (int fd = 3; fd < n->fds.n; fd++)
    if (n->fds.cloexec[fd]) sh_fd_close(n, fd);
  sh_strv env = {0};
  if (sh->child_env) /* run by env, env -i, ...: that environment */
    for (char *const *e = sh->child_env; *e; e++) {
      if (strchr(*e, '=')) sh_strv_pushdup(&env, *e);
    }
  else
    sh_vars_environ(sh, &env);
  sh->child_env = NULL; /* not for commands the new shell runs */
  for (size_t k = 0; k < env.n; k++) {
    char *eq = strchr(env.v[k], '=');
    *eq = 0;
    if (import_function(n, env.v[k], eq + 1)) {
      *eq = '=';
      continue;
    }
    if ((!strcmp(env.v[k], "SHELLOPTS") || !strcmp(env.v[k], "BASHOPTS")) &&
        sh_var_special_export(n, env.v[k], true)) {
      *eq = '='; /* computed here from the options (set below), exported still */
      continue;
    }
    sh_var_set(n, env.v[k], eq + 1, SH_SET_FORCE);
    sh_var *v = sh_var_find_noref(n, env.v[k]);
    if (v) v->flags |= SH_V_EXPORT;
    *eq = '=';
  }
  { /* its parent is the shell process that ran it (PPID stays readonly) */
    char ppid[24];
    snprintf(ppid, sizeof ppid, "%" PRId64, sh->pid);
    sh_var_set(n, "PPID", ppid, SH_SET_FORCE);
  }
  /* SHELLOPTS and BASHOPTS in the environment turn their options on (bash) */
  for (size_t k = 0; k < env.n; k++) {
    bool shopt = !strncmp(env.v[k], "BASHOPTS=", 9);
    if (!shopt && strncmp(env.v[k], "SHELLOPTS=", 10)) continue;
    char *list = sh_xstrdup(env.v[k] + (shopt ? 9 : 10)), *save = NULL;
    for (char *o = strtok_r(list, ":", &save); o; o = strtok_r(NULL, ":", &save)) {
      int opt = sh_opt_find(o, shopt);
      if (opt >= 0) n->opt[opt] = true;
    }
    free(list);
  }
  /* as bash starts: SHLVL one more than the environment's, PWD exported,
   * and bash's built-in search path when the environment has no PATH */
  const char *lvl = NULL;
  for (size_t k = 0; k < env.n; k++)
    if (!strncmp(env.v[k], "SHLVL=", 6)) lvl = env.v[k] + 6;
  char buf[16];
  snprintf(buf, sizeof buf, "%d", (lvl ? atoi(lvl) : 0) + 1);
  sh_strv_free(&env);
  sh_var_set(n, "SHLVL", buf, SH_SET_FORCE);
  sh_var *sv = sh_var_find_noref(n, "SHLVL");
  if (sv) sv->flags |= SH_V_EXPORT;
  sh_var_set(n, "PWD", n->cwd, SH_SET_FORCE);
  sh_var *pv = sh_var_find_noref(n, "PWD");
  if (pv) pv->flags |= SH_V_EXPORT;
  if (!sh_var_get(n, "PATH"))
    sh_var_set(n, "PATH", "/usr/local/bin:/usr/local/sbin:/usr/bin:/usr/sbin:/bin:/sbin:.",
               SH_SET_FORCE);
  if (interactive) {
    /* bash -i: job control and line editing off (no terminal), history on */
    n->interactive = true;
    n->opt[SH_OPT_EMACS] = true;
    n->opt[SH_OPT_HISTORY] = true;
    n->opt[SH_OPT_HISTEXPAND] = true;
    n->opt[SH_SHOPT_EXPAND_ALIASES] = true;
    if (!sh_var_get(n, "HISTFILE")) {
      const char *home = sh_var_get(n, "HOME");
      char *hf = sh_xasprintf("%s/.bash_history", home ? home : "");
      sh_var_set(n, "HISTFILE", hf, SH_SET_FORCE);
      free(hf);
    }
    if (!sh_var_get(n, "HISTSIZE")) sh_var_set(n, "HISTSIZE", "500", SH_SET_FORCE);
    if (!sh_var_get(n, "PS1")) sh_var_set(n, "PS1", "\\s-\\v\\$ ", SH_SET_FORCE);
    if (!sh_var_get(n, "PS2")) sh_var_set(n, "PS2", "> ", SH_SET_FORCE);
  }
  for (int k = 0; k < SH_OPT_COUNT; k++)
    if (optset[k]) n->opt[k] = opts[k];
  free(n->arg0);
  n->arg0 = sh_xstrdup(sh->exec_argv0 ? sh->exec_argv0 : argv[0]);
  int status = 0;
  if (interactive && !norc) {
    const char *rc = rcfile;
    char *def = NULL;
    if (!rc) {
      const char *home = sh_var_get(n, "HOME");
      rc = def = sh_xasprintf("%s/.bashrc", home ? home : "");
    }
    source_rcfile(n, rc);
    free(def);
    status = n->status;
  }
  if (restricted) sh_set_restricted(n); /* after the startup files, as bash */
  if (interactive && n->flow == SH_FLOW_NONE) sh_hist_load(n);
  if (n->flow != SH_FLOW_NONE) {
    /* exit in the rc file */
  } else if (cmd) {
    free(n->arg0);
    n->arg0 = sh_xstrdup(i < argc ? argv[i] : sh->exec_argv0 ? sh->exec_argv0 : argv[0]);
    if (i < argc) i++;
    for (; i < argc; i++) sh_strv_pushdup(&n->params, argv[i]);
    n->dash_c = true;
    status = sh_eval_string(n, cmd, strlen(cmd), "environment", 1); /* bash's name for -c text */
  } else if (interactive && (i >= argc || read_stdin)) {
    for (; i < argc; i++) sh_strv_pushdup(&n->params, argv[i]);
    n->read_stdin = true;
    status = sh_interactive_loop(n);
  } else {
    char *data = NULL;
    size_t len = 0;
    if (i < argc && !read_stdin) {
      void *d;
      int r = store_path_read_file(sh->sess->st, sh->cwd, argv[i], &d, &len);
      if (r < 0) {
        sh_errorf_raw(sh, "%s: %s: %s\n", argv[0], argv[i], cmd_strerror(r));
        sh_shell_free(n);
        return 127;
      }
      data = d;
      free(n->arg0);
      n->arg0 = sh_xstrdup(argv[i]);
      sh_frames_start_script(n, n->arg0);
      i++;
    } else {
      n->read_stdin = true;
      sh_buf b = {0};
      char chunk[4096];
      ssize_t r;
      while ((r = sh_fd_read(sh, 0, chunk, sizeof chunk)) > 0) {
        sh_buf_add(&b, chunk, (size_t)r);
        if (b.len > sh->sess->limits.string_size) break;
      }
      len = b.len;
      data = sh_buf_steal(&b);
    }
    for (; i < argc; i++) sh_strv_pushdup(&n->params, argv[i]);
    status = n->script_frame ? sh_eval_file(n, data, len, n->arg0) : sh_eval_string(n, data, len, "main", 1);
    free(data);
  }
  if (n->flow == SH_FLOW_EXIT || n->flow == SH_FLOW_ABORT) status = n->exit_status;
  sh_run_exit_trap(n);
  if (n->flow == SH_FLOW_EXIT) status = n->exit_status;
  sh_wait_all(n);
  if (interactive) sh_hist_save(n);
  if (n->flow == SH_FLOW_ABORT) {
    sh->flow = SH_FLOW_ABORT;
    sh->exit_status = 126;
  }
  /* the new shell died of a signal (`bash -c 'kill $$'`): its caller reports
   * it as bash reports a foreground process killed by one; not the signal of
   * a timeout around it (GNU timeout then exits 124 itself, unreported) */
  if (n->killed_by && !n->timeout.signalled && !sh->cmd_died_of && !sh->cmd_killed_by)
    sh->cmd_died_of = n->killed_by;
  sh_shell_free(n);
  return status;
}
