/*
 * shell.c - one shell's state: creation, the deep copy that stands in for
 * fork() (subshells, pipeline stages, jobs), errors, limits and polling, the
 * option table and a small string map (functions, aliases).
 *
 * Limits are checked where work happens (loops, commands, expansions, writes)
 * and all end the same way: sh_limit_hit records the first limit in the
 * session, writes "sbx: ... limit exceeded" to the call's own stderr (so a
 * script's 2>/dev/null cannot hide it) and sets flow ABORT, which every loop of
 * the executor honours until the call returns 126.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sh/arith.h"
#include "sh/builtins.h"
#include "sh/io.h"
#include "sh/sched.h"
#include "sh/sh.h"
#include "sh/vars.h"

/* STRICT keeps the published figures. NORMAL and PERMISSIVE stop runaway
 * scripts by time, output and size: their loop and command counts (10^9 and
 * 10^10) are beyond what a script can reach within their time limits (30 s and
 * 120 s at a few million iterations a second), so a `while read` over a large
 * file is never cut short by a count (docs/shell.md, "Limits"). */
const sh_limits sh_limits_strict = {
    .loop_iterations = 100, .commands = 500, .function_depth = 50, .output_bytes = 1u << 20,
    .string_size = 1u << 20, .array_size = 10000, .timeout_ms = 5000, .tasks = 16, .nesting = 200,
    .bg_jobs = 4, .bg_lifetime_ms = 60000, .bg_cpu_ms = 10000};
const sh_limits sh_limits_normal = {
    .loop_iterations = 1000000000, .commands = 1000000000, .function_depth = 100, .output_bytes = 10u << 20,
    .string_size = 16u << 20, .array_size = 100000, .timeout_ms = 30000, .tasks = 64, .nesting = 500,
    .bg_jobs = 16, .bg_lifetime_ms = 3600000, .bg_cpu_ms = 600000};
const sh_limits sh_limits_permissive = {
    .loop_iterations = 10000000000, .commands = 10000000000, .function_depth = 1000,
    .output_bytes = 100u << 20, .string_size = 64u << 20, .array_size = 1000000,
    .timeout_ms = 120000, .tasks = 256, .nesting = 1000,
    .bg_jobs = 64, .bg_lifetime_ms = 86400000, .bg_cpu_ms = 3600000};

const char *sh_limit_name(sh_limit_kind k) {
  switch (k) {
  case SH_LIMIT_LOOP: return "loop_iterations";
  case SH_LIMIT_COMMANDS: return "command_count";
  case SH_LIMIT_DEPTH: return "function_depth";
  case SH_LIMIT_OUTPUT: return "output_bytes";
  case SH_LIMIT_STRING: return "string_size";
  case SH_LIMIT_ARRAY: return "array_size";
  case SH_LIMIT_TIMEOUT: return "timeout";
  case SH_LIMIT_CANCEL: return "cancelled";
  case SH_LIMIT_JOBS: return "concurrent_tasks";
  case SH_LIMIT_NESTING: return "nesting_depth";
  case SH_LIMIT_BG_JOBS: return "bg_jobs";
  case SH_LIMIT_BG_LIFETIME: return "bg_lifetime";
  case SH_LIMIT_BG_CPU: return "bg_cpu";
  default: return "none";
  }
}

/* ---- options ------------------------------------------------------------------------- */

const sh_optinfo sh_optinfo_table[SH_OPT_COUNT] = {
    [SH_OPT_ALLEXPORT] = {"allexport", 'a'},
    [SH_OPT_BRACEEXPAND] = {"braceexpand", 'B'},
    [SH_OPT_ERREXIT] = {"errexit", 'e'},
    [SH_OPT_ERRTRACE] = {"errtrace", 'E'},
    [SH_OPT_FUNCTRACE] = {"functrace", 'T'},
    [SH_OPT_HASHALL] = {"hashall", 'h'},
    [SH_OPT_HISTEXPAND] = {"histexpand", 'H'},
    [SH_OPT_IGNOREEOF] = {"ignoreeof", 0},
    [SH_OPT_KEYWORD] = {"keyword", 'k'},
    [SH_OPT_MONITOR] = {"monitor", 'm'},
    [SH_OPT_NOCLOBBER] = {"noclobber", 'C'},
    [SH_OPT_NOEXEC] = {"noexec", 'n'},
    [SH_OPT_NOGLOB] = {"noglob", 'f'},
    [SH_OPT_NOLOG] = {"nolog", 0},
    [SH_OPT_NOTIFY] = {"notify", 'b'},
    [SH_OPT_NOUNSET] = {"nounset", 'u'},
    [SH_OPT_ONECMD] = {"onecmd", 't'},
    [SH_OPT_PHYSICAL] = {"physical", 'P'},
    [SH_OPT_PIPEFAIL] = {"pipefail", 0},
    [SH_OPT_POSIX] = {"posix", 0},
    [SH_OPT_PRIVILEGED] = {"privileged", 'p'},
    [SH_OPT_VERBOSE] = {"verbose", 'v'},
    [SH_OPT_XTRACE] = {"xtrace", 'x'},
    [SH_OPT_EMACS] = {"emacs", 0},
    [SH_OPT_VI] = {"vi", 0},
    [SH_OPT_HISTORY] = {"history", 0},
    [SH_OPT_INTERACTIVE_COMMENTS] = {"interactive-comments", 0},
    [SH_SHOPT_AUTOCD] = {"autocd", 0},
    [SH_SHOPT_ASSOC_EXPAND_ONCE] = {"assoc_expand_once", 0},
    [SH_SHOPT_CDABLE_VARS] = {"cdable_vars", 0},
    [SH_SHOPT_CDSPELL] = {"cdspell", 0},
    [SH_SHOPT_CHECKHASH] = {"checkhash", 0},
    [SH_SHOPT_CHECKJOBS] = {"checkjobs", 0},
    [SH_SHOPT_CHECKWINSIZE] = {"checkwinsize", 0},
    [SH_SHOPT_CMDHIST] = {"cmdhist", 0},
    [SH_SHOPT_COMPAT] = {"compat31", 0},
    [SH_SHOPT_COMPAT32] = {"compat32", 0},
    [SH_SHOPT_COMPAT40] = {"compat40", 0},
    [SH_SHOPT_COMPAT41] = {"compat41", 0},
    [SH_SHOPT_COMPAT42] = {"compat42", 0},
    [SH_SHOPT_COMPAT43] = {"compat43", 0},
    [SH_SHOPT_COMPAT44] = {"compat44", 0},
    [SH_SHOPT_COMPLETE_FULLQUOTE] = {"complete_fullquote", 0},
    [SH_SHOPT_DIREXPAND] = {"direxpand", 0},
    [SH_SHOPT_DIRSPELL] = {"dirspell", 0},
    [SH_SHOPT_DOTGLOB] = {"dotglob", 0},
    [SH_SHOPT_EXECFAIL] = {"execfail", 0},
    [SH_SHOPT_EXPAND_ALIASES] = {"expand_aliases", 0},
    [SH_SHOPT_EXTDEBUG] = {"extdebug", 0},
    [SH_SHOPT_EXTGLOB] = {"extglob", 0},
    [SH_SHOPT_EXTQUOTE] = {"extquote", 0},
    [SH_SHOPT_FAILGLOB] = {"failglob", 0},
    [SH_SHOPT_FORCE_FIGNORE] = {"force_fignore", 0},
    [SH_SHOPT_GLOBASCII] = {"globasciiranges", 0},
    [SH_SHOPT_GLOBSKIPDOTS] = {"globskipdots", 0},
    [SH_SHOPT_GLOBSTAR] = {"globstar", 0},
    [SH_SHOPT_GNU_ERRFMT] = {"gnu_errfmt", 0},
    [SH_SHOPT_HISTAPPEND] = {"histappend", 0},
    [SH_SHOPT_HISTREEDIT] = {"histreedit", 0},
    [SH_SHOPT_HISTVERIFY] = {"histverify", 0},
    [SH_SHOPT_HOSTCOMPLETE] = {"hostcomplete", 0},
    [SH_SHOPT_HUPONEXIT] = {"huponexit", 0},
    [SH_SHOPT_INHERIT_ERREXIT] = {"inherit_errexit", 0},
    [SH_SHOPT_INTERACTIVE_COMMENTS] = {"interactive_comments", 0},
    [SH_SHOPT_LASTPIPE] = {"lastpipe", 0},
    [SH_SHOPT_LITHIST] = {"lithist", 0},
    [SH_SHOPT_LOCALVAR_INHERIT] = {"localvar_inherit", 0},
    [SH_SHOPT_LOCALVAR_UNSET] = {"localvar_unset", 0},
    [SH_SHOPT_LOGIN_SHELL] = {"login_shell", 0},
    [SH_SHOPT_MAILWARN] = {"mailwarn", 0},
    [SH_SHOPT_NO_EMPTY_CMD_COMPLETION] = {"no_empty_cmd_completion", 0},
    [SH_SHOPT_NOCASEGLOB] = {"nocaseglob", 0},
    [SH_SHOPT_NOCASEMATCH] = {"nocasematch", 0},
    [SH_SHOPT_NOEXPAND_TRANSLATION] = {"noexpand_translation", 0},
    [SH_SHOPT_NULLGLOB] = {"nullglob", 0},
    [SH_SHOPT_PATSUB_REPLACEMENT] = {"patsub_replacement", 0},
    [SH_SHOPT_PROGCOMP] = {"progcomp", 0},
    [SH_SHOPT_PROGCOMP_ALIAS] = {"progcomp_alias", 0},
    [SH_SHOPT_PROMPTVARS] = {"promptvars", 0},
    [SH_SHOPT_RESTRICTED_SHELL] = {"restricted_shell", 0},
    [SH_SHOPT_SHIFT_VERBOSE] = {"shift_verbose", 0},
    [SH_SHOPT_SOURCEPATH] = {"sourcepath", 0},
    [SH_SHOPT_VARREDIR_CLOSE] = {"varredir_close", 0},
    [SH_SHOPT_XPG_ECHO] = {"xpg_echo", 0},
};

int sh_opt_find(const char *name, bool shopt) {
  int lo = shopt ? SH_SHOPT_FIRST : 0, hi = shopt ? SH_OPT_COUNT : SH_SET_COUNT;
  for (int i = lo; i < hi; i++)
    if (sh_optinfo_table[i].name && strcmp(sh_optinfo_table[i].name, name) == 0) return i;
  return -1;
}

void sh_set_restricted(sh_shell *sh) {
  sh->opt[SH_SHOPT_RESTRICTED_SHELL] = true;
  static const char *const fixed[] = {"PATH", "SHELL", "ENV", "BASH_ENV", "HISTFILE"};
  for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) {
    sh_var *v = sh_var_find_noref(sh, fixed[i]);
    if (!v) {
      sh_var_set(sh, fixed[i], "", SH_SET_FORCE);
      v = sh_var_find_noref(sh, fixed[i]);
      if (v) {
        v->flags |= SH_V_UNSET;
        free(v->str);
        v->str = NULL;
      }
    }
    if (v) v->flags |= SH_V_READONLY;
  }
}

char *sh_opt_flags(sh_shell *sh) {
  char buf[64];
  int n = 0;
  static const char order[] = "abefhikmnprtuvxBCEHPT";
  for (const char *c = order; *c; c++) {
    if (*c == 'i' && sh->interactive) buf[n++] = 'i';
    if (*c == 'r' && sh->opt[SH_SHOPT_RESTRICTED_SHELL]) buf[n++] = 'r';
    for (int i = 0; i < SH_SET_COUNT; i++)
      if (sh_optinfo_table[i].letter == *c && sh->opt[i]) buf[n++] = *c;
  }
  if (sh->dash_c) buf[n++] = 'c';
  else if (!sh->script_frame) buf[n++] = 's';
  buf[n] = 0;
  /* bash -c shows "c" instead of "s"; scripts from stdin show "s", a script
   * file neither */
  return sh_xstrdup(buf);
}

/* ---- maps ------------------------------------------------------------------------------ */

static uint32_t map_hash(const char *s) {
  uint32_t h = 2166136261u;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
  return h;
}

static sh_kv *map_slot(const sh_map *m, const char *key) {
  if (!m->cap) return NULL;
  size_t i = map_hash(key) & (m->cap - 1);
  for (;;) {
    sh_kv *e = &m->e[i];
    if (!e->key) return e;
    if (strcmp(e->key, key) == 0) return e;
    i = (i + 1) & (m->cap - 1);
  }
}

void *sh_map_get(const sh_map *m, const char *key) {
  sh_kv *e = map_slot(m, key);
  return e && e->key ? e->val : NULL;
}

static void map_grow(sh_map *m) {
  size_t cap = m->cap ? m->cap * 2 : 16;
  sh_kv *old = m->e;
  size_t oc = m->cap;
  m->e = sh_xcalloc(cap, sizeof *m->e);
  m->cap = cap;
  for (size_t i = 0; i < oc; i++)
    if (old[i].key) *map_slot(m, old[i].key) = old[i];
  free(old);
}

void *sh_map_set(sh_map *m, const char *key, void *val) {
  if ((m->n + 1) * 2 > m->cap) map_grow(m);
  sh_kv *e = map_slot(m, key);
  if (e->key) {
    void *old = e->val;
    e->val = val;
    return old;
  }
  e->key = sh_xstrdup(key);
  e->val = val;
  m->n++;
  return NULL;
}

void *sh_map_del(sh_map *m, const char *key) {
  sh_kv *e = map_slot(m, key);
  if (!e || !e->key) return NULL;
  void *old = e->val;
  free(e->key);
  e->key = NULL;
  e->val = NULL;
  m->n--;
  /* re-insert the cluster after the hole */
  size_t i = (size_t)(e - m->e);
  for (size_t j = (i + 1) & (m->cap - 1); m->e[j].key; j = (j + 1) & (m->cap - 1)) {
    sh_kv kv = m->e[j];
    m->e[j].key = NULL;
    *map_slot(m, kv.key) = kv;
  }
  return old;
}

void sh_map_free(sh_map *m, void (*free_val)(void *)) {
  for (size_t i = 0; i < m->cap; i++)
    if (m->e[i].key) {
      free(m->e[i].key);
      if (free_val) free_val(m->e[i].val);
    }
  free(m->e);
  memset(m, 0, sizeof *m);
}

static int cmp_strp(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

const char **sh_map_keys(const sh_map *m, size_t *n) {
  const char **out = sh_xmalloc((m->n + 1) * sizeof *out);
  size_t k = 0;
  for (size_t i = 0; i < m->cap; i++)
    if (m->e[i].key) out[k++] = m->e[i].key;
  qsort(out, k, sizeof *out, cmp_strp);
  *n = k;
  return out;
}

/* ---- state ------------------------------------------------------------------------------- */

/* The session keeps a list of live shells so that `kill PID` reaches the
 * shell with that pid wherever it runs (bash's processes). */
static void live_add(sh_shell *sh) {
  sh_session *s = sh->sess;
  sh->live_prev = NULL;
  sh->live_next = s->live;
  if (s->live) s->live->live_prev = sh;
  s->live = sh;
}

static void live_remove(sh_shell *sh) {
  if (sh->live_prev) sh->live_prev->live_next = sh->live_next;
  else if (sh->sess->live == sh) sh->sess->live = sh->live_next;
  if (sh->live_next) sh->live_next->live_prev = sh->live_prev;
  sh->live_prev = sh->live_next = NULL;
}

sh_shell *sh_shell_by_pid(sh_session *s, int64_t pid);
sh_shell *sh_shell_by_pid(sh_session *s, int64_t pid) {
  for (sh_shell *sh = s->live; sh; sh = sh->live_next)
    if (sh->pid == pid) return sh;
  return NULL;
}

sh_shell *sh_shell_new(sh_session *sess) {
  sh_shell *sh = sh_xcalloc(1, sizeof *sh);
  sh->sess = sess;
  live_add(sh);
  sh->vars = sh_vars_new();
  sh->cwd = sh_xstrdup("/");
  sh->arg0 = sh_xstrdup(sess->sh_name ? sess->sh_name : "sbx");
  sh_fdtab_init(&sh->fds);
  sh->umask = 022;
  sh->pid = sess->shell_pid;
  sh->dollar_pid = sess->shell_pid;
  sh->random_state = (sess->start_epoch ^ 0x5DEECE66DLL) & 0x7fffffff;
  sh->seconds_base = sh_now_ns();
  sh->opt[SH_OPT_BRACEEXPAND] = true;
  sh->opt[SH_OPT_HASHALL] = true;
  sh->opt[SH_OPT_INTERACTIVE_COMMENTS] = true;
  sh->opt[SH_SHOPT_EXTQUOTE] = true;
  sh->opt[SH_SHOPT_GLOBSKIPDOTS] = true;
  sh->opt[SH_SHOPT_PATSUB_REPLACEMENT] = true;
  sh->opt[SH_SHOPT_PROGCOMP] = true;
  sh->opt[SH_SHOPT_PROMPTVARS] = true;
  sh->opt[SH_SHOPT_SOURCEPATH] = true;
  sh->opt[SH_SHOPT_CHECKWINSIZE] = true;
  sh->opt[SH_SHOPT_CMDHIST] = true;
  sh->opt[SH_SHOPT_COMPLETE_FULLQUOTE] = true;
  sh->opt[SH_SHOPT_FORCE_FIGNORE] = true;
  sh->opt[SH_SHOPT_GLOBASCII] = true;
  sh->opt[SH_SHOPT_HOSTCOMPLETE] = true;
  sh->opt[SH_SHOPT_INTERACTIVE_COMMENTS] = true;
  sh->capframes = 16;
  sh->frames = sh_xcalloc((size_t)sh->capframes, sizeof *sh->frames);
  sh->nframes = 1;
  sh->frames[0].funcname = "main";
  sh->frames[0].source = "";
  sh_vars_init_defaults(sh);
  sh_ulimit_init(sh);
  return sh;
}

static void *func_ref(void *v) {
  sh_func *f = v;
  f->refs++;
  return f;
}

sh_shell *sh_shell_copy(sh_shell *p) {
  sh_shell *sh = sh_xcalloc(1, sizeof *sh);
  sh->sess = p->sess;
  live_add(sh);
  sh->task = p->task;
  sh->vars = sh_vars_copy(p->vars);
  if (p->command_text.len) sh_buf_add(&sh->command_text, p->command_text.data, p->command_text.len);
  memcpy(sh->builtins_off, p->builtins_off, sizeof sh->builtins_off);
  for (size_t i = 0; i < p->funcs.cap; i++)
    if (p->funcs.e[i].key) sh_map_set(&sh->funcs, p->funcs.e[i].key, func_ref(p->funcs.e[i].val));
  for (size_t i = 0; i < p->aliases.cap; i++)
    if (p->aliases.e[i].key) sh_map_set(&sh->aliases, p->aliases.e[i].key, sh_xstrdup(p->aliases.e[i].val));
  for (size_t i = 0; i < p->compspecs.cap; i++)
    if (p->compspecs.e[i].key) sh_map_set(&sh->compspecs, p->compspecs.e[i].key, sh_compspec_copy(p->compspecs.e[i].val));
  for (size_t i = 0; i < p->compnames.n; i++) sh_strv_pushdup(&sh->compnames, p->compnames.v[i]);
  for (size_t i = 0; i < p->hashed.cap; i++)
    if (p->hashed.e[i].key) {
      const sh_hashent *h = p->hashed.e[i].val;
      sh_hash_put_kind(sh, p->hashed.e[i].key, h->path,
                       h->host ? SH_PATH_HOST : h->table ? SH_PATH_TABLE : SH_PATH_FILE, h->hits);
    }
  memcpy(sh->opt, p->opt, sizeof sh->opt);
  sh->timeout = p->timeout; /* a process of the timeout's group, as its parent */
  sh->timeout.waiter = false;
  /* traps: signal and EXIT traps are not inherited by subshells; ERR with
   * errtrace and DEBUG/RETURN with functrace are (bash); ignored signals stay
   * ignored. */
  for (int i = 0; i < SH_NSIG + 4; i++) {
    const char *a = p->traps.action[i];
    if (!a) {
      /* a subshell of a subshell lists what its parent listed */
      if (p->shown_traps.action[i]) sh->shown_traps.action[i] = sh_xstrdup(p->shown_traps.action[i]);
      continue;
    }
    bool keep = !*a || (i == SH_TRAP_ERR && p->opt[SH_OPT_ERRTRACE]) ||
                ((i == SH_TRAP_DEBUG || i == SH_TRAP_RETURN) && p->opt[SH_OPT_FUNCTRACE]);
    if (keep) sh->traps.action[i] = sh_xstrdup(a);
    /* bash still lists the parent's traps until the subshell changes one */
    if (i < SH_TRAP_DEBUG || i == SH_TRAP_ERR || i == SH_TRAP_RETURN || i == SH_TRAP_DEBUG)
      sh->shown_traps.action[i] = sh_xstrdup(a);
  }
  sh->cwd = sh_xstrdup(p->cwd);
  for (size_t i = 0; i < p->params.n; i++) sh_strv_pushdup(&sh->params, p->params.v[i]);
  sh->arg0 = sh_xstrdup(p->arg0);
  sh_fdtab_copy(&sh->fds, &p->fds);
  sh->status = p->status;
  sh->last_bg = p->last_bg;
  sh->pid = ++p->sess->next_pid;
  sh->dollar_pid = p->dollar_pid;
  sh->parent_pid = p->pid;
  /* a job killed before it got to run: the shells it starts die of it too */
  if (p->task && p->task->pending_sig) sh->pending_sig = p->task->pending_sig;
  sh->fn_depth = p->fn_depth;
  sh->loop_depth = 0; /* a subshell is outside the parent's loops: break/continue do nothing */
  sh->subshell = p->subshell + 1;
  sh->eval_depth = p->eval_depth;
  sh->lineno = p->lineno;
  sh->interactive = false;
  if (p->npipestatus) {
    sh->pipestatus = sh_xmalloc((size_t)p->npipestatus * sizeof *sh->pipestatus);
    memcpy(sh->pipestatus, p->pipestatus, (size_t)p->npipestatus * sizeof *sh->pipestatus);
    sh->npipestatus = p->npipestatus;
  }
  sh->umask = p->umask;
  for (size_t i = 0; i < p->dirstack.n; i++) sh_strv_pushdup(&sh->dirstack, p->dirstack.v[i]);
  sh->capframes = p->capframes;
  sh->frames = sh_xcalloc((size_t)sh->capframes, sizeof *sh->frames);
  memcpy(sh->frames, p->frames, (size_t)p->nframes * sizeof *sh->frames);
  for (int k = 0; k < p->nframes; k++) sh->frames[k].saved_opts = NULL; /* the parent's */
  sh->nframes = p->nframes;
  sh->script_frame = p->script_frame;
  sh->source_name = p->source_name;
  sh->random_state = p->random_state ^ (sh->pid * 2654435761u);
  sh->seconds_base = p->seconds_base;
  sh->seconds_value = p->seconds_value;
  sh->last_arg = p->last_arg ? sh_xstrdup(p->last_arg) : NULL;
  sh->local_scope = p->local_scope;
  sh->func_scope = p->func_scope;
  sh->errexit_off = p->errexit_off; /* a subshell of a condition ignores set -e too */
  sh->is_subshell = true;
  sh->dash_c = p->dash_c;
  sh->getopts_pos = p->getopts_pos;
  sh->cmdnum = p->cmdnum;
  sh->xtrace_level = p->xtrace_level;
  sh->sig_ignored = p->sig_ignored;
  sh->bytes_locale = p->bytes_locale;
  memcpy(sh->rlim_soft, p->rlim_soft, sizeof sh->rlim_soft);
  memcpy(sh->rlim_hard, p->rlim_hard, sizeof sh->rlim_hard);
  sh->read_stdin = p->read_stdin;
  sh->hist = p->hist ? sh_hist_copy(p->hist) : NULL;
  if (p->njobs) sh_jobs_inherit(sh, p);
  return sh;
}

void sh_func_unref(void *v) {
  sh_func *f = v;
  if (!f || --f->refs > 0) return;
  sh_arena_unref(f->arena);
  free(f->name);
  free(f);
}

void sh_jobs_release(sh_shell *sh);

void sh_shell_free(sh_shell *sh) {
  if (!sh) return;
  live_remove(sh);
  for (int i = 0; i < SH_NSIG + 4; i++) free(sh->shown_traps.action[i]);
  sh_jobs_release(sh);
  sh_vars_free(sh->vars);
  sh_map_free(&sh->funcs, sh_func_unref);
  sh_map_free(&sh->aliases, free);
  sh_map_free(&sh->hashed, sh_hash_free_entry);
  sh_map_free(&sh->compspecs, sh_compspec_free);
  sh_strv_free(&sh->compnames);
  for (int i = 0; i < SH_NSIG + 4; i++) free(sh->traps.action[i]);
  free(sh->cwd);
  sh_strv_free(&sh->params);
  free(sh->arg0);
  sh_fdtab_free(&sh->fds);
  free(sh->pipestatus);
  sh_strv_free(&sh->dirstack);
  for (int k = 0; k < sh->nframes; k++) free(sh->frames[k].saved_opts);
  free(sh->frames);
  free(sh->last_arg);
  sh_buf_free(&sh->command_text);
  sh_strv_free(&sh->tmpfiles);
  sh_hist_free(sh->hist);
  sh_arith_cache_free(sh->arith_cache);
  free(sh);
}

/* ---- errors, limits, polling ------------------------------------------------------------- */

static void err_write(sh_shell *sh, const char *msg, size_t n) {
  if (sh_write_fd(sh, 2, msg, n) == -EBADF) {
    /* fd 2 closed: bash prints nothing */
  }
}

/* The name in front of messages: like bash, the file the running code comes
 * from (a script run by name or by `bash FILE', a sourced file, or the file
 * that defined the running function), else $0 for a nested shell, else the
 * session's name. Text given with -c or on stdin has no file. */
static const char *error_name(sh_shell *sh) {
  int first = sh->script_frame ? 0 : 1;
  const char *dflt = sh->arg0 && *sh->arg0 ? sh->arg0 : sh->sess->sh_name ? sh->sess->sh_name : "sbx";
  if (!sh->interactive && sh->nframes > first) {
    const char *src = sh->frames[sh->nframes - 1].source;
    /* in a function, bash names the text that defined it: its file, or
     * "environment" (-c text) and "main" (stdin); a call of the API keeps
     * "sbx" for its own text */
    if (src && *src && (sh->frames[sh->nframes - 1].file || strcmp(dflt, "sbx") != 0)) return src;
  }
  return dflt;
}

void sh_error_prefix(sh_shell *sh, sh_buf *b) {
  if (sh->interactive && sh->nframes <= 1)
    sh_buf_addf(b, "%s: ", error_name(sh));
  else
    sh_buf_addf(b, "%s: line %d: ", error_name(sh), sh->lineno);
}

void sh_syntax_error(sh_shell *sh, const char *ctx, const char *msg, const char *src, size_t n, int index) {
  sh_buf head = {0};
  sh_buf_addf(&head, "%s: ", error_name(sh));
  if (ctx) sh_buf_addf(&head, "%s: ", ctx);
  if (!sh->interactive || sh->nframes > 1) sh_buf_addf(&head, "line %d: ", sh->lineno);
  sh_buf b = {0};
  sh_buf_addf(&b, "%s%s\n", sh_buf_str(&head), msg);
  /* the line holding the unexpected token */
  const char *p = src, *end = src + n;
  for (int k = 0; k < index && p < end; k++) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    p = nl ? nl + 1 : end;
  }
  if (strstr(msg, "near unexpected token") && index >= 0 && p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    size_t len = (size_t)((nl ? nl : end) - p);
    if (len > 4096) len = 4096; /* hostile input: a bounded message */
    sh_buf_addf(&b, "%s`%.*s'\n", sh_buf_str(&head), (int)len, p);
  }
  err_write(sh, b.data, b.len);
  sh_buf_free(&b);
  sh_buf_free(&head);
}

void sh_frames_start_script(sh_shell *sh, const char *path) {
  sh->nframes = 1;
  sh->frames[0].funcname = "main";
  sh->frames[0].source = path;
  sh->frames[0].file = true;
  sh->frames[0].saved_opts = NULL;
  sh->frames[0].call_line = 0;
  sh->script_frame = true;
}

void sh_error(sh_shell *sh, const char *fmt, ...) {
  sh_buf b = {0};
  sh_error_prefix(sh, &b);
  va_list ap;
  va_start(ap, fmt);
  sh_buf_vaddf(&b, fmt, ap);
  va_end(ap);
  sh_buf_addc(&b, '\n');
  err_write(sh, b.data, b.len);
  sh_buf_free(&b);
}

void sh_errorf_raw(sh_shell *sh, const char *fmt, ...) {
  sh_buf b = {0};
  va_list ap;
  va_start(ap, fmt);
  sh_buf_vaddf(&b, fmt, ap);
  va_end(ap);
  err_write(sh, b.data ? b.data : "", b.len);
  sh_buf_free(&b);
}

void sh_session_report_limit(sh_session *s, const char *msg, size_t n);

/* A detached job's limit (sh_limit_hit): only the job ends, with the message
 * on its own stderr - the call running now, if any, is not concerned. */
static void job_limit_hit(sh_shell *sh, sh_limit_kind k, uint64_t value) {
  sh->flow = SH_FLOW_ABORT;
  sh->exit_status = 126;
  if (sh->job_limit_reported) return;
  sh->job_limit_reported = true;
  const char *unit = k == SH_LIMIT_BG_LIFETIME || k == SH_LIMIT_BG_CPU || k == SH_LIMIT_TIMEOUT
                         ? " ms" : "";
  char msg[256];
  int n = snprintf(msg, sizeof msg, "%s: background job: execution limit exceeded: %s (%" PRIu64
                   "%s)\n", sh->sess->sh_name ? sh->sess->sh_name : "sbx", sh_limit_name(k),
                   value, unit);
  sh_write_fd(sh, 2, msg, (size_t)n);
}

void sh_limit_hit(sh_shell *sh, sh_limit_kind k, uint64_t value) {
  sh_session *s = sh->sess;
  if (sh->task && sh->task->detached) {
    job_limit_hit(sh, k, value);
    return;
  }
  if (s->limit_hit == SH_LIMIT_NONE) {
    s->limit_hit = k;
    s->limit_value = value;
    char msg[256];
    int n;
    if (k == SH_LIMIT_CANCEL)
      n = snprintf(msg, sizeof msg, "%s: execution cancelled\n", s->sh_name ? s->sh_name : "sbx");
    else if (k == SH_LIMIT_TIMEOUT)
      n = snprintf(msg, sizeof msg, "%s: execution limit exceeded: timeout (%" PRIu64 " ms)\n",
                   s->sh_name ? s->sh_name : "sbx", value);
    else
      n = snprintf(msg, sizeof msg, "%s: execution limit exceeded: %s (%" PRIu64 ")\n",
                   s->sh_name ? s->sh_name : "sbx", sh_limit_name(k), value);
    sh_session_report_limit(s, msg, (size_t)n);
  }
  sh->flow = SH_FLOW_ABORT;
  sh->exit_status = 126;
}

bool sh_call_expired(sh_shell *sh) {
  sh_session *s = sh->sess;
  if (s->limit_hit != SH_LIMIT_NONE) return true;
  if (atomic_load_explicit(&s->cancel, memory_order_relaxed)) {
    sh_limit_hit(sh, SH_LIMIT_CANCEL, 0);
    return true;
  }
  if (s->deadline_ns && sh_now_ns() > s->deadline_ns) {
    sh_limit_hit(sh, SH_LIMIT_TIMEOUT, s->limits.timeout_ms);
    return true;
  }
  return false;
}

void sh_fatal(sh_shell *sh, int status) {
  sh->flow = SH_FLOW_EXIT;
  sh->exit_status = status;
  sh->fatal = SH_FATAL_DISCARD;
}

void sh_fatal_exit(sh_shell *sh, int status) {
  sh->flow = SH_FLOW_EXIT;
  sh->exit_status = status;
  sh->fatal = SH_FATAL_EXIT;
}

int sh_expansion_error_status(const sh_shell *sh) {
  /* with set -e, bash's -c shell exits 1 like any other */
  return sh->dash_c && !sh->is_subshell && !sh->opt[SH_OPT_ERREXIT] ? 127 : 1;
}

void sh_fatal_usage(sh_shell *sh) {
  if (sh->dash_c && !sh->is_subshell) sh_fatal_exit(sh, 1);
  else sh_fatal(sh, 1);
}

void sh_handle_pending_signal(sh_shell *sh);

/* The deadline of the `timeout` around this shell's code (sh_timeout): 1 when
 * what polls must stop. Past deadline_ns the shell gets the signal once, as
 * at a kill: a command running in it (a process of the group too) dies of it
 * first, unless the shell ignores it, and the shell gets it when the command
 * has ended (sh_timeout_after_command). KILL, kill_ns, or the shell that ran
 * the timeout (its program ends) unwind back to that timeout (flow ABORT). */
static int poll_timeout(sh_shell *sh) {
  sh_timeout *t = &sh->timeout;
  if (sh->in_command && sh->cmd_killed_by) return 1;
  if (!t->deadline_ns) return 0;
  int64_t now = sh_now_ns();
  if (now < t->deadline_ns) return 0;
  bool kill = t->sig == 9 || (t->kill_ns && now >= t->kill_ns);
  if (kill || (t->waiter && t->sig)) {
    sh->flow = SH_FLOW_ABORT;
    sh->exit_status = 128 + (kill ? 9 : t->sig);
    return 1;
  }
  if (t->signalled || t->waiter || !t->sig) return 0; /* -s 0 sends nothing */
  t->signalled = true;
  const char *trap = t->sig < SH_NSIG ? sh->traps.action[t->sig] : NULL;
  bool ignored = (t->sig < 64 && ((sh->sig_ignored >> t->sig) & 1)) || (trap && !*trap);
  if (sh->in_command && !ignored) {
    sh->cmd_killed_by = t->sig;
    return 1;
  }
  sh->pending_sig = t->sig; /* acted on below, as a kill's */
  return 0;
}

bool sh_timeout_ends(const sh_shell *sh) {
  const sh_timeout *t = &sh->timeout;
  if (!t->deadline_ns || t->waiter || t->signalled || sh_now_ns() < t->deadline_ns) return false;
  if (t->sig == 9) return true;
  if (t->sig < 64 && ((sh->sig_ignored >> t->sig) & 1)) return false;
  return t->sig >= SH_NSIG || !sh->traps.action[t->sig];
}

void sh_timeout_after_command(sh_shell *sh, sh_node *cmd) {
  if (sh->cmd_died_of) {
    if (!sh->pipeline_stage && !sh->stage_command) {
      char *text = sh_node_text(sh, cmd);
      sh_report_signal_death(sh, sh->cmd_died_of, ++sh->sess->next_pid, text);
      free(text);
    }
    sh->cmd_died_of = 0;
  }
  int sig = sh->cmd_killed_by;
  if (!sig) return;
  sh->cmd_killed_by = 0;
  /* bash reports the death of its command when it lives on (it traps the
   * signal), then runs the trap; untrapped, it dies of the signal itself */
  if (sig < SH_NSIG && sh->traps.action[sig] && !sh->pipeline_stage) {
    char *text = sh_node_text(sh, cmd);
    sh_report_signal_death(sh, sig, ++sh->sess->next_pid, text);
    free(text);
  }
  sh->pending_sig = sig;
  sh_handle_pending_signal(sh);
}

/* The slice a detached task runs before it lets the others (and the driver,
 * which then lets API calls in) have the baton. */
#define JOB_SLICE_NS 10000000

/* sh_poll for a detached job's task: the job's own limits (lifetime, CPU),
 * the session's stop, its slice; a sleeping job naps off the baton. The
 * running call's limits do not apply to it (docs/shell.md, "Background jobs"). */
static int poll_detached(sh_shell *sh, sh_task *t) {
  sh_session *s = sh->sess;
  if (sh_stopping(sh)) return 1;
  if (atomic_load_explicit(&s->jobs_stop, memory_order_relaxed)) {
    sh->flow = SH_FLOW_ABORT;
    sh->exit_status = 128 + 9;
    return 1;
  }
  int64_t now = sh_now_ns();
  if (t->job_deadline_ns && now > t->job_deadline_ns) {
    sh_limit_hit(sh, SH_LIMIT_BG_LIFETIME, s->limits.bg_lifetime_ms);
    return 1;
  }
  struct timespec ts; /* the thread's CPU clock is a system call: every 64 polls */
  if ((++t->polls & 63) == 0 && clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0) {
    int64_t cpu = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
    if (t->cpu_seen_ns) t->cpu_used_ns += cpu - t->cpu_seen_ns;
    t->cpu_seen_ns = cpu;
    if (s->limits.bg_cpu_ms && t->cpu_used_ns > (int64_t)s->limits.bg_cpu_ms * 1000000) {
      sh_limit_hit(sh, SH_LIMIT_BG_CPU, s->limits.bg_cpu_ms);
      return 1;
    }
  }
  /* a call waiting for this job (wait) must see its own deadline and cancel */
  sh_task *main = s->sched->main;
  if (s->in_call && main &&
      (atomic_load_explicit(&s->cancel, memory_order_relaxed) ||
       (s->deadline_ns && now > s->deadline_ns)))
    sh_task_wake(main);
  /* the slice ends - but not inside python3 or tool: their loan needs the
   * sandbox's lock held until they return (L1 of src/py/py_loan.c) */
  if (now - t->turn_start_ns > JOB_SLICE_NS && !sh->loan_command) sh_task_yield(t);
  if (poll_timeout(sh)) return 1; /* a `timeout` inside the job */
  if (t->pending_sig || sh->pending_sig) {
    sh_handle_pending_signal(sh);
    if (sh->flow == SH_FLOW_EXIT) return 1;
  }
  if (sh->sleeping) {
    /* the sleep command naps between polls: do it here, without the baton,
     * so that the sandbox is free meanwhile (a kill wakes it early) */
    int64_t until = sh->sleep_until_ns ? sh->sleep_until_ns : sh_now_ns() + 10000000;
    if (t->job_deadline_ns && until > t->job_deadline_ns) until = t->job_deadline_ns + 1;
    if (until > sh_now_ns()) sh_task_nap(t, until);
  }
  return 0;
}

int sh_poll(sh_shell *sh) {
  sh_session *s = sh->sess;
  if (sh->task && sh->task->detached) return poll_detached(sh, sh->task);
  if (s->limit_hit != SH_LIMIT_NONE) {
    sh->flow = SH_FLOW_ABORT;
    sh->exit_status = 126;
    return 1;
  }
  if (atomic_load_explicit(&s->cancel, memory_order_relaxed)) {
    sh_limit_hit(sh, SH_LIMIT_CANCEL, 0);
    return 1;
  }
  if (s->deadline_ns && sh_now_ns() > s->deadline_ns) {
    sh_limit_hit(sh, SH_LIMIT_TIMEOUT, s->limits.timeout_ms);
    return 1;
  }
  if (sh_stopping(sh)) return 1;
  if (poll_timeout(sh)) return 1;
  if ((sh->task && sh->task->pending_sig) || sh->pending_sig) {
    sh_handle_pending_signal(sh);
    if (sh->flow == SH_FLOW_EXIT) return 1;
  }
  /* a sleeping task (the sleep command naps between polls) lets the other
   * ready tasks run; everything else keeps the baton until it blocks, so
   * the interleaving stays deterministic */
  if (sh->sleeping && sh->task) sh_task_yield(sh->task);
  return 0;
}

int sh_check_size(sh_shell *sh, size_t n) {
  if (n > sh->sess->limits.string_size) {
    sh_limit_hit(sh, SH_LIMIT_STRING, sh->sess->limits.string_size);
    return 1;
  }
  return 0;
}

char *sh_abspath(sh_shell *sh, const char *path) {
  if (path[0] == '/') return sh_xstrdup(path);
  const char *cwd = sh->cwd ? sh->cwd : "/";
  size_t cl = strlen(cwd);
  if (cl > 0 && cwd[cl - 1] == '/') return sh_xasprintf("%s%s", cwd, path);
  return sh_xasprintf("%s/%s", cwd, path);
}
