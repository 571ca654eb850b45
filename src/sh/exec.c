/*
 * exec.c - the executor: walks the syntax tree, expands words, applies
 * redirections, and runs functions, builtins and the commands of src/cmd/.
 *
 * No fork: a subshell is a deep copy of the shell state run on the same
 * thread; a pipeline stage or background job is a copy run as a task
 * (sched.h). Redirections edit the fd table and are undone after the command,
 * except for `exec`. Unwinding (break, continue, return, exit, limits) is a flag
 * (sh->flow) checked after every command, so no longjmp crosses user code.
 *
 * Recursion (nested compound commands, function calls, eval, source) is
 * bounded by the function-depth limit and by a stack guard: each thread knows
 * where its stack ends, and a call that would come within 256 KiB of it fails
 * with "maximum nesting depth exceeded" instead of overflowing.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>

#include "cmd/cmd.h"
#include "py/py_spawn.h"
#include "sh/arith.h"
#include "sh/builtins.h"
#include "sh/expand.h"
#include "sh/glob.h"
#include "sh/io.h"
#include "sh/parse.h"
#include "sh/sched.h"
#include "sh/vars.h"

_Thread_local sh_decl_args *sh_current_decl;

/* ---- the stack guard ---------------------------------------------------------------------- */

static _Thread_local char *stack_limit; /* lowest usable address (+ margin) */

static void stack_init(void) {
  if (stack_limit) return;
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    void *addr;
    size_t size;
    if (pthread_attr_getstack(&attr, &addr, &size) == 0) {
      size_t margin = 256 * 1024;
      if (size > 4 * margin) stack_limit = (char *)addr + margin;
      else stack_limit = (char *)addr + size / 4;
    }
    pthread_attr_destroy(&attr);
  }
  if (!stack_limit) stack_limit = (char *)1;
}

static bool stack_low(void) {
  char here;
  stack_init();
  return &here < stack_limit;
}

bool sh_stack_low(void);
bool sh_stack_low(void) { return stack_low(); }

/* ---- functions -------------------------------------------------------------------------------- */

sh_func *sh_func_get(sh_shell *sh, const char *name) { return sh_map_get(&sh->funcs, name); }

void sh_func_define(sh_shell *sh, sh_funcdef *def, sh_arena *arena) {
  sh_func *f = sh_xcalloc(1, sizeof *f);
  f->name = sh_xstrdup(def->name);
  f->def = def;
  f->arena = sh_arena_ref(arena);
  f->refs = 1;
  sh_func *old = sh_map_set(&sh->funcs, def->name, f);
  if (old) {
    f->attrs = old->attrs;
    sh_func_unref(old);
  }
}

int sh_func_unset(sh_shell *sh, const char *name) {
  sh_func *f = sh_map_del(&sh->funcs, name);
  if (!f) return 1;
  sh_func_unref(f);
  return 0;
}

/* The arena of the node being executed (for function definitions). */
static _Thread_local sh_arena *current_arena;

/* ---- errexit and traps --------------------------------------------------------------------------- */

/* The DEBUG trap before a command (bash: simple commands, (( )), [[ ]],
 * case, each for/select iteration, each for (( )) expression); function
 * bodies do not see it unless functrace (sh_traps_hide). Returns false if the
 * trap changed the flow. */
static bool debug_trap(sh_shell *sh, int line) {
  const char *a = sh->traps.action[SH_TRAP_DEBUG];
  if (!a || !*a || (sh->trap_active & 1)) return true;
  sh->lineno = line;
  sh_run_trap(sh, SH_TRAP_DEBUG);
  return sh->flow == SH_FLOW_NONE;
}

/* Runs the condition of an if, while, until, && or || with errexit off (a
 * failing condition is no error). */
static int exec_condition(sh_shell *sh, sh_node *cond) {
  sh->errexit_off++;
  int st = sh_exec(sh, cond);
  sh->errexit_off--;
  return st;
}

static void check_errexit(sh_shell *sh, int status) {
  if (status == 0 || sh->errexit_off > 0 || sh->flow != SH_FLOW_NONE) return;
  bool skip = sh->err_skip_once;
  sh->err_skip_once = false;
  /* functions see the ERR trap only with errtrace (sh_traps_hide) */
  if (sh->traps.action[SH_TRAP_ERR] && *sh->traps.action[SH_TRAP_ERR] && !(sh->trap_active & 2) && !skip) {
    sh_run_trap(sh, SH_TRAP_ERR);
    sh->status = status;
  }
  if (sh->opt[SH_OPT_ERREXIT] && sh->flow == SH_FLOW_NONE) {
    sh->flow = SH_FLOW_EXIT;
    sh->fatal = 0;
    sh->exit_status = status;
  }
}

int sh_run_trap(sh_shell *sh, int sig) {
  const char *action = sh->traps.action[sig];
  if (!action || !*action) return 0;
  char *a = sh_xstrdup(action);
  int saved_status = sh->status;
  bool saved_in = sh->in_trap;
  sh_flow saved_flow = sh->flow;
  int saved_exit = sh->exit_status;
  int saved_line = sh->lineno;
  /* a DEBUG, ERR or RETURN trap does not trigger itself, but the others
   * (and the pseudo-signal traps inside signal traps) run as usual (bash) */
  int bit = sig == SH_TRAP_DEBUG ? 1 : sig == SH_TRAP_ERR ? 2 : sig == SH_TRAP_RETURN ? 4 : 0;
  int saved_active = sh->trap_active;
  sh->trap_active |= bit;
  sh->in_trap = true;
  sh->flow = SH_FLOW_NONE;
  /* LINENO counts from 1 in a signal trap's text, else it is the line running */
  sh_eval_string(sh, a, strlen(a), "trap", bit ? sh->lineno : 1);
  free(a);
  sh->in_trap = saved_in;
  sh->trap_active = saved_active;
  sh->lineno = saved_line;
  if (sh->flow == SH_FLOW_NONE || sh->flow == SH_FLOW_RETURN) {
    if (sh->flow == SH_FLOW_RETURN && sig != SH_TRAP_RETURN) {
      /* return inside a trap returns from the function running */
      return sh->status;
    }
    sh->flow = saved_flow;
    sh->exit_status = saved_exit;
    sh->status = saved_status;
  }
  return sh->status;
}

void sh_run_exit_trap(sh_shell *sh) {
  char *a = sh->traps.action[SH_TRAP_EXIT];
  if (!a || !*a) return;
  sh->traps.action[SH_TRAP_EXIT] = NULL;
  int st = sh->flow == SH_FLOW_EXIT ? sh->exit_status : sh->status;
  sh_flow f = sh->flow;
  sh->flow = SH_FLOW_NONE;
  sh->status = st;
  sh->in_trap = true;
  sh_eval_string(sh, a, strlen(a), "trap", sh->lineno);
  sh->in_trap = false;
  free(a);
  if (sh->flow == SH_FLOW_EXIT) return; /* exit in the trap sets the status */
  if (sh->flow == SH_FLOW_ABORT) return;
  sh->flow = f;
  sh->exit_status = st;
  sh->status = st;
}

/* ---- xtrace ----------------------------------------------------------------------------------------- */

/* bash's sh_contains_shell_metas: characters that make xtrace quote a word. */
static bool xtrace_has_metas(const char *s) {
  for (const char *p = s; *p; p++) {
    switch (*p) {
    case ' ': case '\t': case '\n': case '\'': case '"': case '\\': case '|': case '&':
    case ';': case '(': case ')': case '<': case '>': case '!': case '{': case '}':
    case '*': case '[': case '?': case ']': case '^': case '$': case '`':
      return true;
    case '~':
      if (p == s || p[-1] == '=' || p[-1] == ':') return true;
      break;
    case '#':
      if (p == s) return true;
      break;
    default:
      break;
    }
  }
  return false;
}

static bool xtrace_has_ctl(const char *s) {
  for (const unsigned char *p = (const unsigned char *)s; *p; p++)
    if (*p < 32 || *p == 127) return true;
  return false;
}

/* Quotes like bash's xtrace: '' for empty, 'single quotes' around shell
 * metacharacters (a lone ' is \'), $'...' for other unprintable bytes. */
char *sh_xtrace_quote(const char *s) {
  if (!*s) return sh_xstrdup("''");
  if (xtrace_has_metas(s)) {
    if (s[0] == '\'' && !s[1]) return sh_xstrdup("\\'");
    sh_buf b = {0};
    sh_buf_add_single_quoted(&b, s, strlen(s));
    return sh_buf_steal(&b);
  }
  if (xtrace_has_ctl(s)) return sh_quote(s, true);
  return sh_xstrdup(s);
}

/* An assignment's value as xtrace shows it (empty stays empty). */
static char *xtrace_value(const char *v) {
  if (!*v) return sh_xstrdup("");
  return sh_xtrace_quote(v);
}

/* PS4, expanded without disturbing $? or the flow (errors in it are
 * reported and ignored), its first character repeated per nesting level. */
static void xtrace_prefix(sh_shell *sh, sh_buf *b) {
  const char *ps4 = sh_var_get(sh, "PS4");
  if (!ps4 || !*ps4) return;
  int saved_status = sh->status;
  sh_flow saved_flow = sh->flow;
  int saved_exit = sh->exit_status, saved_fatal = sh->fatal;
  bool saved_x = sh->opt[SH_OPT_XTRACE];
  sh->opt[SH_OPT_XTRACE] = false;
  char *p = sh_expand_prompt(sh, ps4);
  sh->opt[SH_OPT_XTRACE] = saved_x;
  if (sh->flow != SH_FLOW_ABORT) {
    sh->flow = saved_flow;
    sh->exit_status = saved_exit;
    sh->fatal = saved_fatal;
  }
  sh->status = saved_status;
  if (*p)
    for (int i = 0; i < sh->xtrace_level && i < 64; i++) sh_buf_addc(b, p[0]);
  sh_buf_adds(b, p);
  free(p);
}

void sh_xtrace(sh_shell *sh, char **argv, int argc, sh_assign *assigns) {
  (void)assigns;
  sh_buf b = {0};
  xtrace_prefix(sh, &b);
  for (int i = 0; i < argc; i++) {
    if (i) sh_buf_addc(&b, ' ');
    char *q = sh_xtrace_quote(argv[i]);
    sh_buf_adds(&b, q);
    free(q);
  }
  sh_buf_addc(&b, '\n');
  sh_write_fd(sh, 2, b.data, b.len);
  sh_buf_free(&b);
}

void sh_xtrace_text(sh_shell *sh, const char *text) {
  sh_buf b = {0};
  xtrace_prefix(sh, &b);
  sh_buf_adds(&b, text);
  sh_buf_addc(&b, '\n');
  sh_write_fd(sh, 2, b.data, b.len);
  sh_buf_free(&b);
}

static void xtrace_text(sh_shell *sh, const char *text) { sh_xtrace_text(sh, text); }

/* ---- redirections ----------------------------------------------------------------------------------- */

typedef struct saved_fd {
  int fd;
  sh_file *old; /* reference to what was there (may be NULL) */
  uint8_t cloexec;
} saved_fd;

typedef struct redir_state {
  saved_fd *v;
  int n, cap;
} redir_state;

static void save_fd(sh_shell *sh, redir_state *rs, int fd) {
  if (!rs) return;
  for (int i = 0; i < rs->n; i++)
    if (rs->v[i].fd == fd) return;
  if (rs->n == rs->cap) {
    rs->cap = rs->cap ? rs->cap * 2 : 4;
    rs->v = sh_xrealloc(rs->v, (size_t)rs->cap * sizeof *rs->v);
  }
  saved_fd *s = &rs->v[rs->n++];
  s->fd = fd;
  s->old = sh_file_ref(sh_fd_get(sh, fd));
  s->cloexec = fd < sh->fds.n ? sh->fds.cloexec[fd] : 0;
}

static void restore_fds(sh_shell *sh, redir_state *rs) {
  for (int i = rs->n - 1; i >= 0; i--) {
    saved_fd *s = &rs->v[i];
    if (s->old) {
      sh_fd_set(sh, s->fd, s->old);
      if (s->fd < sh->fds.n) sh->fds.cloexec[s->fd] = s->cloexec;
      sh_file_unref(s->old);
    } else {
      sh_fd_close(sh, s->fd);
    }
  }
  free(rs->v);
  rs->v = NULL;
  rs->n = rs->cap = 0;
}

static void drop_saved(redir_state *rs) {
  for (int i = 0; i < rs->n; i++) sh_file_unref(rs->v[i].old);
  free(rs->v);
  rs->v = NULL;
  rs->n = rs->cap = 0;
}

static void record_file_error(sh_shell *sh, int err, const char *path) {
  sh->sess->err_errno = err;
  snprintf(sh->sess->err_path, sizeof sh->sess->err_path, "%s", path);
}

/* The word of >&WORD / <&WORD as an fd ("N" or "N-" to move): 1 with *fd
 * set, 0 when it is not a number (a file name for >&), -1 when it is one
 * too large for any fd (bash: "Bad file descriptor", never a file name). */
static int parse_fd_word(const char *s, int *fd, bool *move) {
  *move = false;
  if (!*s) return 0;
  int n = 0;
  bool too_large = false;
  const char *p = s;
  for (; *p >= '0' && *p <= '9'; p++) {
    if (!too_large) n = n * 10 + (*p - '0');
    if (n >= SH_FD_MAX) too_large = true;
  }
  if (p == s) return 0;
  if (*p == '-' && !p[1]) *move = true;
  else if (*p) return 0;
  *fd = n;
  return too_large ? -1 : 1;
}

/* {name}>... and friends: puts `f` (whose reference this consumes) on a new
 * fd of 10 or more and sets variable `fdvar` to its number. Returns 0, or 1
 * after the error when no fd is free. */
static int redir_fdvar(sh_shell *sh, const char *fdvar, sh_file *f) {
  int nfd = sh_fd_alloc(sh, 10);
  if (nfd < 0) {
    sh_file_unref(f);
    sh_error(sh, "cannot allocate a file descriptor");
    return 1;
  }
  char buf[16];
  snprintf(buf, sizeof buf, "%d", nfd);
  sh_var_set(sh, fdvar, buf, 0);
  sh_fd_set(sh, nfd, f);
  sh_file_unref(f);
  return 0;
}

/* Applies redirections; on failure prints the error and returns 1 (what was
 * applied stays recorded in rs for the caller to restore). */
/* Opens a redirection's file; path is freed here. A failure is reported as
 * bash reports it: 1, else 0 with *f set. */
/* &> and &>>: stdout and stderr both to `f` (the reference is dropped). */
static void redirect_out_err(sh_shell *sh, redir_state *rs, sh_file *f) {
  save_fd(sh, rs, 1);
  save_fd(sh, rs, 2);
  sh_fd_set(sh, 1, f);
  sh_fd_set(sh, 2, f);
  sh_file_unref(f);
}

static int redir_open(sh_shell *sh, char *path, int oflags, sh_file **f) {
  int rc = sh_open_file(sh, path, oflags, 0666, f);
  if (rc < 0) {
    sh_error(sh, "%s: %s", path, cmd_strerror(rc));
    record_file_error(sh, -rc, path);
  }
  free(path);
  return rc < 0 ? 1 : 0;
}

static int apply_redirs(sh_shell *sh, sh_redir *r, redir_state *rs) {
  for (; r; r = r->next) {
    sh->lineno = r->line;
    int fd = r->fd;
    bool input = r->op == SH_R_IN || r->op == SH_R_DUPIN || r->op == SH_R_HEREDOC ||
                 r->op == SH_R_HERESTR || r->op == SH_R_RDWR;
    if (fd < 0) fd = input ? 0 : 1;
    bool use_var = r->fdvar != NULL;
    sh_file *f = NULL;
    switch (r->op) {
    case SH_R_HEREDOC: {
      char *body;
      if (r->heredoc_quoted) {
        sh_part *p = r->heredoc->parts;
        body = sh_xstrndup(p->u.lit.s, p->u.lit.n);
      } else {
        body = sh_expand_string(sh, r->heredoc, SH_XF_HEREDOC | SH_XF_NOTILDE);
        if (!body) return 1;
      }
      f = sh_file_mem_take(body, strlen(body));
      break;
    }
    case SH_R_HERESTR: {
      char *s = sh_expand_string(sh, r->target, 0);
      if (!s) return 1;
      size_t n = strlen(s);
      s = sh_xrealloc(s, n + 2);
      s[n] = '\n';
      s[n + 1] = 0;
      f = sh_file_mem_take(s, n + 1);
      break;
    }
    case SH_R_DUPIN:
    case SH_R_DUPOUT: {
      char *t = sh_expand_redir_target(sh, r->target); /* bash globs it too */
      if (!t) return 1;
      if (strcmp(t, "-") == 0) {
        free(t);
        if (use_var) {
          const char *v = sh_var_get(sh, r->fdvar);
          int64_t n;
          if (!v || !sh_arith_parse_int(v, &n)) {
            sh_error(sh, "%s: ambiguous redirect", r->fdvar);
            return 1;
          }
          fd = (int)n;
        }
        save_fd(sh, rs, fd);
        sh_fd_close(sh, fd);
        continue;
      }
      int src;
      bool move;
      int parsed = parse_fd_word(t, &src, &move);
      if (parsed < 0) {
        /* bash names the word, or the fd being redirected when that is not
         * the operator's default or the source is moved */
        if (move || use_var || fd != (r->op == SH_R_DUPIN ? 0 : 1))
          sh_error(sh, "%d: Bad file descriptor", fd);
        else
          sh_error(sh, "%s: Bad file descriptor", t);
        free(t);
        return 1;
      }
      if (!parsed) {
        if (r->op == SH_R_DUPOUT && (r->fd < 0 || r->fd == 1) && !use_var) {
          /* >& file: both stdout and stderr; 1>&file: bash takes it as a file too */
          char *path = t;
          if (sh->opt[SH_SHOPT_RESTRICTED_SHELL]) {
            sh_error(sh, "%s: restricted: cannot redirect output", path);
            free(path);
            return 1;
          }
          if (redir_open(sh, path, O_WRONLY | O_CREAT | O_TRUNC, &f)) return 1;
          redirect_out_err(sh, rs, f);
          continue;
        }
        sh_error(sh, "%s: ambiguous redirect", t);
        free(t);
        return 1;
      }
      free(t);
      sh_file *sf = sh_fd_get(sh, src);
      if (!sf) {
        sh_error(sh, "%d: Bad file descriptor", src);
        return 1;
      }
      f = sh_file_ref(sf);
      if (use_var) {
        if (redir_fdvar(sh, r->fdvar, f)) return 1;
        if (move) sh_fd_close(sh, src);
        continue;
      }
      if (src != fd) {
        save_fd(sh, rs, fd);
        sh_fd_set(sh, fd, f);
        if (move) {
          save_fd(sh, rs, src);
          sh_fd_close(sh, src);
        }
      }
      sh_file_unref(f);
      continue;
    }
    default: {
      char *path = sh_expand_redir_target(sh, r->target);
      if (!path) return 1;
      int oflags;
      switch (r->op) {
      case SH_R_IN: oflags = O_RDONLY; break;
      case SH_R_RDWR: oflags = O_RDWR | O_CREAT; break;
      case SH_R_APPEND: case SH_R_APPENDERR: oflags = O_WRONLY | O_CREAT | O_APPEND; break;
      default: oflags = O_WRONLY | O_CREAT | O_TRUNC; break;
      }
      if (r->op != SH_R_IN && sh->opt[SH_SHOPT_RESTRICTED_SHELL]) {
        sh_error(sh, "%s: restricted: cannot redirect output", path);
        free(path);
        return 1;
      }
      if ((r->op == SH_R_OUT || r->op == SH_R_OUTERR) && sh->opt[SH_OPT_NOCLOBBER]) {
        store_stat st;
        if (store_path_stat(sh->sess->st, sh->cwd, path, &st) == 0 && S_ISREG(st.mode)) {
          sh_error(sh, "%s: cannot overwrite existing file", path);
          free(path);
          return 1;
        }
      }
      if (!*path) {
        sh_error(sh, ": No such file or directory");
        free(path);
        return 1;
      }
      if (redir_open(sh, path, oflags, &f)) return 1;
      if (r->op == SH_R_OUTERR || r->op == SH_R_APPENDERR) {
        redirect_out_err(sh, rs, f);
        continue;
      }
      break;
    }
    }
    if (use_var) {
      if (redir_fdvar(sh, r->fdvar, f)) return 1;
      continue;
    }
    save_fd(sh, rs, fd);
    sh_fd_set(sh, fd, f);
    sh_file_unref(f);
  }
  return 0;
}

/* ---- assignments ------------------------------------------------------------------------------------- */

/* One evaluated element of an array literal. */
typedef struct arr_item {
  bool keyed;       /* [k]=v */
  bool append;      /* [k]+=v */
  char *key;        /* assoc key (keyed) */
  const sh_word *keyword; /* indexed key: evaluated when its turn comes */
  int64_t idx;      /* indexed key once evaluated (keyed) */
  char *val;
} arr_item;

/* An indexed-array element [k]=v whose text brace-expands: bash expands the
 * whole word into plain elements ("[k]=-a-" "[k]=-b-"). */
static bool elem_brace_word(const sh_array_elem *e) {
  const char *r = e->whole ? e->whole->raw : NULL;
  if (!r || !strchr(r, '{') || (!strchr(r, ',') && !strstr(r, ".."))) return false;
  for (const char *p = r; *p; p++)
    if (*p == '\'' || *p == '"' || *p == '\\' || *p == '$' || *p == '`') return false;
  return true;
}

static void xtrace_assign(sh_shell *sh, sh_assign *as, const char *val, const arr_item *items,
                          size_t n);

static int assign_array(sh_shell *sh, sh_var *v, const sh_part *arr, bool append, sh_assign *trace) {
  bool assoc = (v->flags & SH_V_ASSOC) != 0;
  /* bash expands every element before assigning any (a=(0 "${a[@]}")) */
  arr_item *items = NULL;
  size_t n = 0, cap = 0;
  int rc = 0;
  for (size_t i = 0; i < arr->u.array.n && !rc; i++) {
    sh_array_elem *e = &arr->u.array.elems[i];
    if (e->key && !(!assoc && elem_brace_word(e))) {
      /* the values now; an indexed key when it is assigned (bash), so it
       * sees the elements assigned before it. No tilde in an assoc value
       * (bash 5.2). */
      char *val = sh_expand_string(sh, e->value, assoc ? SH_XF_NOTILDE : SH_XF_ASSIGN);
      if (!val) {
        rc = 1;
        break;
      }
      arr_item it = {.keyed = true, .append = e->append, .val = val};
      if (assoc) {
        it.key = sh_expand_string(sh, e->key, 0);
        if (!it.key) {
          free(val);
          rc = 1;
          break;
        }
      } else {
        it.keyword = e->key;
      }
      if (n == cap) {
        cap = cap ? cap * 2 : 8;
        items = sh_xrealloc(items, cap * sizeof *items);
      }
      items[n++] = it;
      continue;
    }
    sh_strv vals = {0};
    sh_word *ew = e->key ? e->whole : e->value;
    if (sh_expand_words(sh, &ew, 1, &vals)) {
      sh_strv_free(&vals);
      rc = 1;
      break;
    }
    for (size_t k = 0; k < vals.n; k++) {
      if (n == cap) {
        cap = cap ? cap * 2 : 8;
        items = sh_xrealloc(items, cap * sizeof *items);
      }
      items[n++] = (arr_item){.val = vals.v[k]};
      vals.v[k] = NULL;
    }
    sh_strv_free(&vals);
    if (n > sh->sess->limits.array_size) {
      sh_limit_hit(sh, SH_LIMIT_ARRAY, sh->sess->limits.array_size);
      rc = 1;
    }
  }
  if (!rc && sh->opt[SH_OPT_XTRACE] && trace) xtrace_assign(sh, trace, NULL, items, n);
  if (!rc) {
    if (!append) {
      if (assoc) {
        sh_var_clear_value(v);
      } else {
        sh_var_reset_indexed(v);
      }
    } else if (!(v->flags & (SH_V_ARRAY | SH_V_ASSOC))) {
      sh_var_make_array(v);
    }
    v->flags &= ~SH_V_UNSET;
    int64_t next = assoc ? 0 : sh_index_add(sh_array_max(v->arr), 1);
    /* bash 5.2: an assoc literal whose first element has no [key] is a list
     * of key value pairs; otherwise unkeyed elements are errors */
    bool kv_pairs = assoc && n > 0 && !items[0].keyed;
    const char *pending = NULL;
    for (size_t i = 0; i < n && !rc; i++) {
      arr_item *it = &items[i];
      if (assoc) {
        if (it->keyed) {
          /* bash 5.2: [k]+=v in a=(...) appends to the value before the assignment (none) */
          rc = sh_var_set_key(sh, v, it->key, it->val, it->append && append);
        } else if (kv_pairs) {
          if (!pending) {
            pending = it->val;
          } else {
            rc = sh_var_set_key(sh, v, pending, it->val, false);
            pending = NULL;
          }
        } else {
          sh_error(sh, "%s: %s: must use subscript when assigning associative array", v->name, it->val);
        }
      } else if (it->keyed) {
        if (sh_expand_arith(sh, it->keyword, &it->idx)) {
          rc = 1;
          break;
        }
        int64_t idx = it->idx;
        if (idx < 0) {
          int64_t from_end = sh_array_from_end(v->arr, idx);
          if (from_end < 0) {
            sh_error(sh, "%s[%" PRId64 "]: bad array subscript", v->name, idx);
            continue;
          }
          idx = from_end;
        }
        rc = sh_var_set_index(sh, v, idx, it->val, it->append);
        next = sh_index_add(idx, 1);
      } else {
        rc = sh_var_store_index(sh, v, next, it->val, false);
        next = sh_index_add(next, 1);
      }
    }
    if (pending && !rc) rc = sh_var_set_key(sh, v, pending, "", false);

  }
  for (size_t i = 0; i < n; i++) {
    free(items[i].key);
    free(items[i].val);
  }
  free(items);
  return rc;
}

/* set -x line of an assignment: name[index]+=value, the value as expanded
 * (quoted), or the literal text of an array literal - its elements quoted
 * one by one when a declaration builtin assigns it (bash). */
static void xtrace_assign(sh_shell *sh, sh_assign *as, const char *val, const arr_item *items,
                          size_t n) {
  sh_buf b = {0};
  sh_buf_adds(&b, as->name);
  if (as->index) {
    sh_buf_addc(&b, '[');
    sh_buf_adds(&b, as->index->raw ? as->index->raw : "");
    sh_buf_addc(&b, ']');
  }
  if (as->append) sh_buf_addc(&b, '+');
  sh_buf_addc(&b, '=');
  if (val) {
    char *q = xtrace_value(val);
    sh_buf_adds(&b, q);
    free(q);
  } else if (sh_current_decl) {
    sh_buf_addc(&b, '(');
    for (size_t i = 0; i < n; i++) {
      if (i) sh_buf_addc(&b, ' ');
      if (items[i].keyed) {
        /* the key as expanded, quoted: ['k']='v', ['1+2']='x' (bash) */
        char *k = items[i].key ? sh_xstrdup(items[i].key)
                  : items[i].keyword ? sh_expand_string(sh, items[i].keyword, 0) : NULL;
        char *qk = sh_quote_single(k ? k : "");
        sh_buf_addf(&b, "[%s]=", qk);
        free(qk);
        free(k);
      }
      char *q = sh_quote_single(items[i].val);
      sh_buf_adds(&b, q);
      free(q);
    }
    sh_buf_addc(&b, ')');
  } else {
    const char *raw = as->value && as->value->raw ? as->value->raw : "(...)";
    sh_buf_adds(&b, raw);
  }
  xtrace_text(sh, sh_buf_str(&b));
  sh_buf_free(&b);
}

/* $_ after a command: its last argument (kept when unchanged, as in a loop). */
static void set_last_arg(sh_shell *sh, const char *arg) {
  if (sh->last_arg && strcmp(sh->last_arg, arg) == 0) return;
  free(sh->last_arg);
  sh->last_arg = sh_xstrdup(arg);
}

/* The expanded value of a scalar or element assignment into its place. */
static int store_assign(sh_shell *sh, sh_assign *as, int flags, const char *val) {
  if (!as->index) return sh_var_set(sh, as->name, val, flags | (as->append ? SH_SET_APPEND : 0));
  int err;
  sh_var *v = sh_var_get_for_write(sh, as->name, flags, &err);
  if (!v) return err ? err : 1;
  if (v->flags & SH_V_ASSOC) {
    char *k = sh_expand_string(sh, as->index, 0);
    if (!k) return 1;
    int rc = sh_var_set_key(sh, v, k, val, as->append);
    free(k);
    return rc;
  }
  int64_t idx;
  if (sh_expand_arith(sh, as->index, &idx)) return 1;
  return sh_var_set_index(sh, v, idx, val, as->append);
}

int sh_apply_assign(sh_shell *sh, sh_assign *as, int flags) {
  bool is_array = as->value && as->value->parts && as->value->parts->kind == SH_PART_ARRAY &&
                  !as->value->parts->next;
  if (!sh_is_name(as->name)) {
    sh_error(sh, "`%s': not a valid identifier", as->name);
    return 1;
  }
  if (is_array && (flags & SH_SET_TEMP)) {
    /* B=(b b) cmd: bash puts the text in the command's environment */
    const char *raw = as->value->raw ? as->value->raw : "";
    if (sh->opt[SH_OPT_XTRACE] && !sh_current_decl) xtrace_assign(sh, as, raw, NULL, 0);
    return sh_var_set(sh, as->name, raw, flags & ~SH_SET_TEMP);
  }
  if (is_array) {
    if (as->index) {
      sh_error(sh, "%s[...]: cannot assign list to array member", as->name);
      return 1;
    }
    int err;
    sh_var *v = sh_var_get_for_write(sh, as->name, flags, &err);
    if (!v) return err ? err : 1;
    if (v->flags & SH_V_READONLY) {
      sh_error(sh, "%s: readonly variable", as->name);
      return 1;
    }
    return assign_array(sh, v, as->value->parts, as->append, as);
  }
  if (as->index && (!as->index->parts || (!as->index->parts->next &&
                                           (as->index->parts->kind == SH_PART_LIT ||
                                            as->index->parts->kind == SH_PART_QLIT) &&
                                           !as->index->parts->u.lit.n))) {
    sh_error(sh, "%s[]: bad array subscript", as->name);
    return 1;
  }
  /* x=$((...)): the number needs no allocation */
  char num[SH_I64_LEN];
  int lone = sh_expand_lone_arith(sh, as->value, num);
  if (lone < 0) return 1;
  char *val = lone ? num : as->value ? sh_expand_string(sh, as->value, SH_XF_ASSIGN) : sh_xstrdup("");
  if (!val) return 1;
  if (sh->opt[SH_OPT_XTRACE] && !sh_current_decl) xtrace_assign(sh, as, val, NULL, 0);
  int rc = store_assign(sh, as, flags, val);
  if (val != num) free(val);
  return rc;
}

/* ---- command lookup and running ------------------------------------------------------------------------ */

static int run_function(sh_shell *sh, sh_func *f, int argc, char **argv);

static int not_found(sh_shell *sh, const char *name) {
  sh_error(sh, "%s: command not found", name);
  return 127;
}

/* Environment for a table command: exported variables. */
static char **build_env(sh_shell *sh, sh_strv *env) {
  sh_vars_environ(sh, env);
  return sh_strv_terminated(env);
}

/* How a file of the store runs: in this shell (a shell script, or no #!
 * line: bash's ENOEXEC fallback) or in the jail (an ELF binary, or a #! line
 * naming another interpreter: python3, perl, node...). */
static bool runs_in_jail(sh_shell *sh, const char *path) {
  char head[256];
  store_stat st;
  if (store_path_stat(sh->sess->st, sh->cwd, path, &st) < 0) return false;
  ssize_t got = store_read(sh->sess->st, st.ino, head, sizeof head - 1, 0);
  if (got < 0) return false;
  size_t n = (size_t)got;
  head[n] = 0;
  if (n >= 4 && !memcmp(head, "\x7f" "ELF", 4)) return true;
  if (n < 2 || head[0] != '#' || head[1] != '!') return false;
  char *p = head + 2;
  p += strspn(p, " \t");
  size_t il = strcspn(p, " \t\n");
  char *arg = p + il;
  arg += strspn(arg, " \t");
  size_t al = strcspn(arg, " \t\n");
  static const char *const shells[] = {"/bin/sh", "/bin/bash", "/usr/bin/sh", "/usr/bin/bash", NULL};
  for (int i = 0; shells[i]; i++)
    if (il == strlen(shells[i]) && !strncmp(p, shells[i], il)) return false;
  if (((il == 12 && !strncmp(p, "/usr/bin/env", 12)) || (il == 8 && !strncmp(p, "/bin/env", 8))) &&
      ((al == 2 && !strncmp(arg, "sh", 2)) || (al == 4 && !strncmp(arg, "bash", 4))))
    return false;
  return il > 0;
}

/* Runs a script file from the store in a subshell (./script.sh). */
static int run_script_file(sh_shell *sh, const char *path, int argc, char **argv,
                           char *const *override) {
  store_stat st;
  int r = store_path_stat(sh->sess->st, sh->cwd, path, &st);
  if (r < 0) {
    sh_error(sh, "%s: %s", path, cmd_strerror(r));
    record_file_error(sh, -r, path);
    return r == -ENOENT ? 127 : 126; /* bash: 126 for any other error (ENAMETOOLONG...) */
  }
  if (S_ISDIR(st.mode)) {
    sh_error(sh, "%s: Is a directory", path);
    return 126;
  }
  if (!(st.mode & 0111)) {
    sh_error(sh, "%s: Permission denied", path);
    record_file_error(sh, EACCES, path);
    return 126;
  }
  if (runs_in_jail(sh, path)) {
    /* the jail sees the store at the same paths, from the same directory */
    sh_strv env = {0};
    int status = sh_run_host_program(sh, path, argc, argv,
                                     override ? (char **)override : build_env(sh, &env));
    sh_strv_free(&env);
    return status;
  }
  /* a new shell runs it, as `bash PATH ARG...` (with or without #!): it sees
   * the exported variables and functions, not the rest of this shell */
  char **av = sh_xcalloc((size_t)argc + 2, sizeof *av);
  av[0] = (char *)"bash";
  av[1] = (char *)path;
  for (int i = 1; i < argc; i++) av[i + 1] = argv[i];
  int status = sh_bi_sh(sh, argc + 1, av);
  free(av);
  return status;
}

static const char *const std_bin_dirs[] = {"/bin/", "/usr/bin/", "/usr/local/bin/", "/sbin/",
                                           "/usr/sbin/", NULL};


/* ---- $PATH search and the hash table -------------------------------------------------------------- */


void sh_hash_free_entry(void *v) {
  sh_hashent *e = v;
  if (!e) return;
  free(e->path);
  free(e);
}

void sh_hash_put(sh_shell *sh, const char *name, const char *path, bool table, int hits) {
  sh_hash_put_kind(sh, name, path, table ? SH_PATH_TABLE : SH_PATH_FILE, hits);
}

void sh_hash_put_kind(sh_shell *sh, const char *name, const char *path, int kind, int hits) {
  sh_hashent *e = sh_xcalloc(1, sizeof *e);
  e->path = sh_xstrdup(path);
  e->table = kind == SH_PATH_TABLE;
  e->host = kind == SH_PATH_HOST;
  e->hits = hits;
  sh_hash_free_entry(sh_map_set(&sh->hashed, name, e));
}

/* Table commands live in /usr/bin (and /bin, merged-usr Debian). */
static bool is_table_dir(const char *d, size_t n) {
  while (n > 1 && d[n - 1] == '/') n--;
  return (n == 4 && !strncmp(d, "/bin", 4)) || (n == 8 && !strncmp(d, "/usr/bin", 8));
}

/* bash's PATH search for a name without '/': each directory holding a
 * table command (/usr/bin and /bin hold them all) or an executable file in
 * the store, in PATH order; all of them (`type -a`) or the first. A table
 * command is still found when PATH misses those directories (the sandbox
 * has no other programs): as /usr/bin/NAME. Returns the kind of the first
 * match: SH_PATH_TABLE, SH_PATH_FILE, SH_PATH_HOST (a program of the jail's
 * runtime, never for a name of the table), SH_PATH_NOEXEC (only a file that is
 * not executable: out holds it) or SH_PATH_NONE. */
int sh_path_search_all(sh_shell *sh, const char *name, bool all, sh_strv *out) {
  int kind = SH_PATH_NONE;
  const cmd_entry *e = cmd_find(name);
  const char *path = sh_var_get(sh, "PATH");
  if (!path) path = "/usr/local/bin:/usr/bin:/bin";
  char *noexec = NULL;
  for (const char *p = path;;) {
    const char *colon = strchr(p, ':');
    size_t n = colon ? (size_t)(colon - p) : strlen(p);
    if (e && is_table_dir(p, n)) {
      sh_strv_push(out, sh_xasprintf("%.*s/%s", (int)(n && p[n - 1] == '/' ? n - 1 : n), p, name));
      if (kind == SH_PATH_NONE) kind = SH_PATH_TABLE;
      if (!all) break;
    } else if (n < 4000) {
      char *cand = n ? sh_xasprintf("%.*s/%s", (int)n, p, name) : sh_xasprintf("./%s", name);
      store_stat st;
      if (store_path_stat(sh->sess->st, sh->cwd, cand, &st) == 0 && S_ISREG(st.mode)) {
        if (st.mode & 0111) {
          sh_strv_push(out, cand);
          cand = NULL;
          if (kind == SH_PATH_NONE) kind = SH_PATH_FILE;
          if (!all) break;
        } else if (!noexec) {
          noexec = cand;
          cand = NULL;
        }
      } else if (!e && cand[0] == '/' && py_program_visible(sh->sess->sandbox, cand)) {
        /* a program of the host's runtime, run in the jail (a table command
         * wins over a host program of its name wherever PATH has them: the
         * table is the sandbox's /usr/bin) */
        sh_strv_push(out, cand);
        cand = NULL;
        if (kind == SH_PATH_NONE) kind = SH_PATH_HOST;
        if (!all) break;
      }
      free(cand);
    }
    if (!colon) break;
    p = colon + 1;
  }
  if (kind == SH_PATH_NONE && e) {
    sh_strv_push(out, sh_xasprintf("/usr/bin/%s", name));
    kind = SH_PATH_TABLE;
  }
  if (kind == SH_PATH_NONE && noexec) {
    sh_strv_push(out, noexec);
    noexec = NULL;
    kind = SH_PATH_NOEXEC;
  }
  free(noexec);
  return kind;
}

char *sh_path_search(sh_shell *sh, const char *name, int *kind) {
  sh_strv v = {0};
  *kind = sh_path_search_all(sh, name, false, &v);
  char *r = v.n ? v.v[0] : NULL;
  if (v.n) v.v[0] = NULL;
  sh_strv_free(&v);
  return r;
}

int sh_run_argv_flags(sh_shell *sh, int argc, char **argv, bool no_functions, bool only_builtin);

int sh_run_argv_flags(sh_shell *sh, int argc, char **argv, bool no_functions, bool only_builtin) {
  /* An environment given by run_env (env -i, ...) is for this command only. */
  char *const *override = sh->env_override;
  sh->env_override = NULL;
  if (argc == 0) return 0;
  const char *name = argv[0];
  if (strchr(name, '/') && sh->opt[SH_SHOPT_RESTRICTED_SHELL]) {
    sh_error(sh, "%s: restricted: cannot specify `/' in command names", name);
    return 1;
  }
  if (!strchr(name, '/')) {
    if (!no_functions && !only_builtin) {
      sh_func *f = sh_func_get(sh, name);
      if (f) return run_function(sh, f, argc, argv);
    }
    const sh_builtin *b = sh_builtin_find(sh, name);
    if (b) {
      /* `env VAR=x sh -c ...`: the new shell's environment is env's */
      char *const *saved = sh->child_env;
      sh->child_env = override;
      int st = b->fn(sh, argc, argv);
      sh->child_env = saved;
      return st & 0xff;
    }
    if (only_builtin) {
      sh_error(sh, "%s: %s: not a shell builtin", "builtin", name);
      return 1;
    }
    /* the hash table, else a PATH search that fills it */
    sh_hashent *h = sh_map_get(&sh->hashed, name);
    char *found = NULL;
    int kind;
    if (h && h->host && !py_program_visible(sh->sess->sandbox, h->path)) {
      /* hashed, but no longer allowed (sbx_set_programs): search again */
      sh_hash_free_entry(sh_map_del(&sh->hashed, name));
      h = NULL;
    }
    if (h) {
      kind = h->host ? SH_PATH_HOST : h->table ? SH_PATH_TABLE : SH_PATH_FILE;
      h->hits++;
    } else {
      found = sh_path_search(sh, name, &kind);
      if (kind == SH_PATH_TABLE || kind == SH_PATH_FILE || kind == SH_PATH_HOST) {
        sh_hash_put_kind(sh, name, found, kind, 1);
        h = sh_map_get(&sh->hashed, name);
      }
    }
    if (kind == SH_PATH_HOST) {
      char *p = sh_xstrdup(h ? h->path : found);
      free(found);
      sh_strv env = {0};
      int st = sh_run_host_program(sh, p, argc, argv, override ? (char **)override : build_env(sh, &env));
      sh_strv_free(&env);
      free(p);
      sh_jobs_notify(sh, 0);
      return st;
    }
    const cmd_entry *e = kind == SH_PATH_TABLE ? cmd_find(name) : NULL;
    if (e) {
      free(found);
      sh_strv env = {0};
      int st = sh_run_table_command(sh, e, argc, argv,
                                    override ? (char **)override : build_env(sh, &env));
      sh_strv_free(&env);
      sh_jobs_notify(sh, 0); /* bash ran it in a child: ended jobs are reported now */
      return st;
    }
    if (kind == SH_PATH_FILE) {
      char *p = sh_xstrdup(h ? h->path : found);
      free(found);
      int st = run_script_file(sh, p, argc, argv, override);
      free(p);
      return st;
    }
    if (kind == SH_PATH_NOEXEC) {
      sh_error(sh, "%s: Permission denied", found);
      record_file_error(sh, EACCES, found);
      free(found);
      return 126;
    }
    free(found);
    return not_found(sh, name);
  }
  /* a path: a script in the store, or a standard bin dir name */
  store_stat st;
  if (store_path_stat(sh->sess->st, sh->cwd, name, &st) == 0 && !S_ISDIR(st.mode))
    return run_script_file(sh, name, argc, argv, override);
  for (int i = 0; std_bin_dirs[i]; i++) {
    size_t n = strlen(std_bin_dirs[i]);
    if (strncmp(name, std_bin_dirs[i], n) == 0 && !strchr(name + n, '/')) {
      const char *base = name + n;
      const sh_builtin *b = sh_builtin_find(sh, base);
      const cmd_entry *e = cmd_find(base);
      if (e) {
        sh_strv env = {0};
        int s = sh_run_table_command(sh, e, argc, argv,
                                     override ? (char **)override : build_env(sh, &env));
        sh_strv_free(&env);
        sh_jobs_notify(sh, 0);
        return s;
      }
      if (b) return b->fn(sh, argc, argv) & 0xff;
    }
  }
  if (name[0] == '/' && py_program_visible(sh->sess->sandbox, name)) {
    sh_strv env = {0};
    int s = sh_run_host_program(sh, name, argc, argv, override ? (char **)override : build_env(sh, &env));
    sh_strv_free(&env);
    sh_jobs_notify(sh, 0);
    return s;
  }
  int r = store_path_stat(sh->sess->st, sh->cwd, name, &st);
  if (r == 0 && S_ISDIR(st.mode)) {
    sh_error(sh, "%s: Is a directory", name);
    return 126;
  }
  if (r < 0 && r != -ENOENT) {
    /* bash: 126 for any other error (ENAMETOOLONG, EACCES...) */
    sh_error(sh, "%s: %s", name, cmd_strerror(r));
    record_file_error(sh, -r, name);
    return 126;
  }
  sh_error(sh, "%s: No such file or directory", name);
  record_file_error(sh, ENOENT, name);
  return 127;
}

int sh_run_argv(sh_shell *sh, int argc, char **argv, bool no_functions) {
  return sh_run_argv_flags(sh, argc, argv, no_functions, false);
}

/* ---- functions ------------------------------------------------------------------------------------------- */

static int run_function(sh_shell *sh, sh_func *f, int argc, char **argv) {
  if ((uint64_t)sh->fn_depth >= sh->sess->limits.function_depth) {
    sh_limit_hit(sh, SH_LIMIT_DEPTH, sh->sess->limits.function_depth);
    return 126;
  }
  if (stack_low()) {
    sh_error(sh, "%s: maximum function nesting level exceeded", f->name);
    sh_fatal(sh, 1);
    return 1;
  }
  f->refs++;
  /* frames */
  if (sh->nframes == sh->capframes) {
    sh->capframes *= 2;
    sh->frames = sh_xrealloc(sh->frames, (size_t)sh->capframes * sizeof *sh->frames);
  }
  sh->frames[sh->nframes].funcname = f->name;
  sh->frames[sh->nframes].source = f->def->source ? f->def->source : "";
  sh->frames[sh->nframes].file = f->def->source_is_file;
  sh->frames[sh->nframes].saved_opts = NULL;
  sh->frames[sh->nframes].call_line = sh->lineno;
  sh->nframes++;
  sh->fn_depth++;
  sh_strv saved = sh->params;
  memset(&sh->params, 0, sizeof sh->params);
  for (int i = 1; i < argc; i++) sh_strv_pushdup(&sh->params, argv[i]);
  int saved_loop = sh->loop_depth;
  sh->loop_depth = 0;
  int saved_getopts = sh->getopts_pos;
  sh_vars_push_scope(sh);
  int saved_func_scope = sh->func_scope;
  sh->func_scope = sh->local_scope;
  int saved_line = sh->lineno;
  sh_trap_hide hidden;
  sh_traps_hide(sh, &hidden, true, f->attrs & 4);
  /* a DEBUG trap the function sees (functrace, declare -ft) also runs as it
   * starts, BASH_COMMAND still naming the call (bash) */
  int status = debug_trap(sh, sh->lineno) ? sh_exec(sh, f->def->body) : sh->status;
  /* the RETURN trap (the caller's when inherited, or one the body set) sees
   * as $? the status before `return` */
  sh->status = status;
  if (sh->flow == SH_FLOW_RETURN) {
    sh->flow = SH_FLOW_NONE;
    status = sh->exit_status;
    sh->status = sh->status_at_return;
  }
  if (sh->flow == SH_FLOW_NONE && sh->traps.action[SH_TRAP_RETURN] && *sh->traps.action[SH_TRAP_RETURN] &&
      !(sh->trap_active & 4))
    sh_run_trap(sh, SH_TRAP_RETURN);
  sh->status = status;
  sh_traps_unhide(sh, &hidden);
  bool *saved_opts = sh->frames[sh->nframes - 1].saved_opts;
  if (saved_opts) { /* local - */
    memcpy(sh->opt, saved_opts, SH_SET_COUNT * sizeof *saved_opts);
    free(saved_opts);
    sh->frames[sh->nframes - 1].saved_opts = NULL;
  }
  sh->func_scope = saved_func_scope;
  sh_vars_pop_scope(sh);
  sh->lineno = saved_line;
  sh->loop_depth = saved_loop;
  sh->getopts_pos = saved_getopts;
  sh_strv_free(&sh->params);
  sh->params = saved;
  sh->fn_depth--;
  sh->nframes--;
  sh_func_unref(f);
  return status;
}

int sh_call_function(sh_shell *sh, sh_func *f, int argc, char **argv) {
  return run_function(sh, f, argc, argv);
}

/* ---- simple commands ------------------------------------------------------------------------------------------ */

static bool count_command(sh_shell *sh) {
  sh_session *s = sh->sess;
  if (sh->task && sh->task->detached) return sh_poll(sh) == 0; /* not the call's commands */
  if (++s->ncommands > s->limits.commands) {
    sh_limit_hit(sh, SH_LIMIT_COMMANDS, s->limits.commands);
    return false;
  }
  return sh_poll(sh) == 0;
}

/* Closes the fds of process substitutions made for one command. */
typedef struct procsub_list {
  int fds[16];
  int n;
} procsub_list;
static _Thread_local procsub_list *current_procsubs;

static void close_procsubs(sh_shell *sh, procsub_list *pl) {
  for (int i = 0; i < pl->n; i++) sh_fd_close(sh, pl->fds[i]);
  pl->n = 0;
}

static bool is_decl_builtin(const sh_builtin *b) { return b && (b->flags & SH_BI_DECL); }

/* set -x of a command; readonly and export then also trace their scalar
 * assignments as name=value lines (bash). */
static void xtrace_decl(sh_shell *sh, char **av, int ac, const sh_builtin *decl, sh_decl_args *dargs) {
  sh_xtrace(sh, av, ac, NULL);
  if (!decl || (strcmp(av[0], "readonly") && strcmp(av[0], "export"))) return;
  for (int k = 1; k < ac; k++) {
    const char *eq = strchr(av[k], '=');
    if (!eq || (k < dargs->n && dargs->assign[k])) continue;
    char *name = sh_xstrndup(av[k], (size_t)(eq - av[k]));
    if (sh_is_name(name)) {
      char *q = xtrace_value(eq + 1);
      char *line = sh_xasprintf("%s=%s", name, q);
      xtrace_text(sh, line);
      free(line);
      free(q);
    }
    free(name);
  }
}

static int exec_simple(sh_shell *sh, sh_simple *c) {
  sh->lineno = c->base.line;
  if (!count_command(sh)) return 126;
  sh_note_command(sh, &c->base);
  /* DEBUG trap (pipeline stages ran it in the parent already) */
  if (!sh->debug_done && !debug_trap(sh, c->base.line)) return sh->status;
  sh->debug_done = false;
  procsub_list pl = {.n = 0};
  procsub_list *saved_pl = current_procsubs;
  current_procsubs = &pl;
  sh_strv argv = {0};
  int status = 0;
  uint64_t words_nsubst = sh->nsubst;
  /* Declaration builtins take assignment words unsplit. */
  const sh_builtin *decl = NULL;
  sh_decl_args dargs = {0};
  if (c->nwords > 0 && c->words[0]->lit) {
    const sh_builtin *b = sh_builtin_find(sh, c->words[0]->lit);
    if (is_decl_builtin(b) && !sh_func_get(sh, c->words[0]->lit)) decl = b;
  }
  int xerr = 0;
  if (decl) {
    size_t cap = c->nwords + 8;
    dargs.assign = sh_xcalloc(cap, sizeof *dargs.assign);
    for (size_t i = 0; i < c->nwords && !xerr; i++) {
      sh_word *w = c->words[i];
      sh_assign *as = (w->assign && sh_is_name(w->assign->name)) ? w->assign : NULL;
      size_t before = argv.n;
      if (as) {
        bool arr = as->value && as->value->parts && as->value->parts->kind == SH_PART_ARRAY;
        if (arr) {
          /* the array literal is applied from the parsed assignment */
          sh_strv_pushdup(&argv, as->name);
        } else {
          char *val = as->value ? sh_expand_string(sh, as->value, SH_XF_ASSIGN | SH_XF_DECL) : sh_xstrdup("");
          if (!val) {
            xerr = 1;
            break;
          }
          char *idx = NULL;
          if (as->index) {
            idx = sh_expand_string(sh, as->index, 0);
            if (!idx) {
              free(val);
              xerr = 1;
              break;
            }
          }
          if (idx)
            sh_strv_push(&argv, sh_xasprintf("%s[%s]%s=%s", as->name, idx, as->append ? "+" : "", val));
          else
            sh_strv_push(&argv, sh_xasprintf("%s%s=%s", as->name, as->append ? "+" : "", val));
          free(idx);
          free(val);
          if (!as->index) as = NULL;
        }
      } else {
        xerr = sh_expand_words(sh, &w, 1, &argv);
      }
      if (argv.n + 1 > cap) {
        size_t ncap = argv.n * 2 + 8;
        dargs.assign = sh_xrealloc(dargs.assign, ncap * sizeof *dargs.assign);
        memset(dargs.assign + cap, 0, (ncap - cap) * sizeof *dargs.assign);
        cap = ncap;
      }
      if (as && argv.n == before + 1) dargs.assign[before] = as;
    }
    dargs.n = (int)argv.n;
  } else {
    xerr = sh_expand_words(sh, c->words, c->nwords, &argv);
  }
  if (xerr) {
    status = 1;
    if (sh->flow == SH_FLOW_NONE && !sh->interactive) {
      /* expansion errors end the command; bash goes on with the next one */
    }
    goto out;
  }
  if (argv.n == 0) {
    /* assignments and redirections only: the status is that of the last
     * command substitution, else 0 ($? keeps the previous one meanwhile) */
    set_last_arg(sh, "");
    /* a command whose words expanded to nothing: the last substitution's status */
    int cs_status = sh->nsubst != words_nsubst ? sh->status : 0;
    for (sh_assign *as = c->assigns; as; as = as->next) {
      sh->lineno = as->line;
      uint64_t before = sh->nsubst;
      if (sh_apply_assign(sh, as, 0)) {
        status = 1;
        /* a readonly variable or a bad subscript: bash abandons the command
         * line (the -c string) */
        if (sh->flow == SH_FLOW_NONE && !sh->interactive) {
          /* in posix mode the shell itself exits (bash) */
          if (sh->opt[SH_OPT_POSIX]) sh_fatal_exit(sh, 1);
          else sh_fatal_usage(sh);
        }
        goto out;
      }
      if (sh->nsubst != before) cs_status = sh->status;
    }
    status = cs_status;
    if (c->base.redirs) {
      /* {v}>file with no command: the file is opened and closed again, and v
       * keeps its value (bash 5.2) */
      sh_strv saved = {0}; /* name, value ("" + unset flag below) pairs */
      bool was_set[16] = {0};
      int nvars = 0;
      for (sh_redir *r = c->base.redirs; r && nvars < 16; r = r->next) {
        if (!r->fdvar) continue;
        const char *cur = sh_var_get(sh, r->fdvar);
        was_set[nvars++] = cur != NULL;
        sh_strv_pushdup(&saved, r->fdvar);
        sh_strv_pushdup(&saved, cur ? cur : "");
      }
      redir_state rs = {0};
      int r = apply_redirs(sh, c->base.redirs, &rs);
      restore_fds(sh, &rs);
      for (int k = 0; k < nvars; k++) {
        const char *name = saved.v[2 * k], *old = saved.v[2 * k + 1];
        const char *now = sh_var_get(sh, name);
        if (now && (!was_set[k] || strcmp(now, old))) {
          char *end;
          long fd = strtol(now, &end, 10);
          if (!*end && fd >= 10) sh_fd_close(sh, (int)fd);
        }
        if (was_set[k]) sh_var_set(sh, name, old, 0);
        else sh_var_unset(sh, name, false);
      }
      sh_strv_free(&saved);
      if (r) status = 1;
    }
    goto out;
  }
  {
    char **av = sh_strv_terminated(&argv);
    int ac = (int)argv.n;
    const char *name = av[0];
    sh_func *fn = sh_func_get(sh, name); /* bash: a function name may hold a '/' */
    if (fn && sh->opt[SH_OPT_POSIX]) {
      /* posix mode finds a special builtin before a function of its name */
      const sh_builtin *sb = sh_builtin_find(sh, name);
      if (sb && (sb->flags & SH_BI_SPECIAL)) fn = NULL;
    }
    if (!fn) set_last_arg(sh, av[ac - 1]); /* a function's: when it returns (bash) */
    const sh_builtin *bi = fn ? NULL : sh_builtin_find(sh, name);
    bool special = bi && (bi->flags & SH_BI_SPECIAL);
    /* prefix assignments */
    bool temp_scope = false, posix_merge = false;
    if (c->assigns) {
      if (special && sh->opt[SH_OPT_POSIX]) {
        /* they persist, and (bash) keep the export of a temporary variable:
         * bash keeps them temporary while the builtin runs and then merges
         * what is left into the shell (so `x=1 unset x` leaves an outer x) */
        sh_vars_push_scope(sh);
        temp_scope = posix_merge = true;
        for (sh_assign *as = c->assigns; as; as = as->next) {
          if (sh_apply_assign(sh, as, SH_SET_LOCAL | SH_SET_TEMP)) {
            status = 1;
            sh_vars_pop_scope(sh);
            /* an assignment error before a special builtin exits (bash) */
            if (sh->flow == SH_FLOW_NONE && !sh->interactive) sh_fatal_exit(sh, 1);
            goto out;
          }
          sh_var *v = sh_var_find_noref(sh, as->name);
          if (v) v->flags |= SH_V_EXPORT | SH_V_TEMP;
        }
      } else {
        sh_vars_push_scope(sh);
        temp_scope = true;
        for (sh_assign *as = c->assigns; as; as = as->next) {
          if (as->append && !as->index) {
            /* A+=x cmd: the temporary value starts from the current one (bash) */
            const char *cur = sh_var_get(sh, as->name);
            if (cur) {
              char *copy = sh_xstrdup(cur);
              sh_var_set(sh, as->name, copy, SH_SET_LOCAL | SH_SET_TEMP);
              free(copy);
            }
          }
          int rc = sh_apply_assign(sh, as, SH_SET_LOCAL | SH_SET_TEMP);
          sh_var *ro = rc ? sh_var_find_noref(sh, as->name) : NULL;
          /* bash reports a readonly one and runs the command anyway, except
           * in posix mode, where the command is not run */
          if (ro && (ro->flags & SH_V_READONLY) && sh->flow == SH_FLOW_NONE && !sh->opt[SH_OPT_POSIX])
            continue;
          if (rc) {
            status = 1;
            sh_vars_pop_scope(sh);
            goto out;
          }
          sh_var *v = sh_var_find_noref(sh, as->name);
          if (v) v->flags |= SH_V_EXPORT | SH_V_TEMP | (fn ? SH_V_CALLTEMP : 0);
        }
      }
    }
    /* a declaration builtin with array literals traces them first, then itself */
    bool trace_after = false;
    if (sh->opt[SH_OPT_XTRACE]) {
      for (int k = 0; decl && k < dargs.n; k++)
        if (dargs.assign[k] && dargs.assign[k]->value && dargs.assign[k]->value->parts &&
            dargs.assign[k]->value->parts->kind == SH_PART_ARRAY)
          trace_after = true;
      if (!trace_after) xtrace_decl(sh, av, ac, decl, &dargs);
    }
    redir_state rs = {0};
    if (c->base.redirs && apply_redirs(sh, c->base.redirs, &rs)) {
      restore_fds(sh, &rs);
      if (temp_scope) sh_vars_pop_scope(sh);
      status = 1;
      goto out;
    }
    sh_decl_args *saved_decl = sh_current_decl;
    sh_current_decl = decl ? &dargs : NULL;
    if (fn) {
      status = run_function(sh, fn, ac, av);
      set_last_arg(sh, av[ac - 1]);
    } else if (bi) {
      /* `exec` keeps its redirections */
      bool is_exec = strcmp(name, "exec") == 0;
      status = bi->fn(sh, ac, av) & 0xff;
      if (is_exec && (ac == 1 || (ac == 2 && !strcmp(av[1], "--")))) drop_saved(&rs);
    } else {
      status = sh_run_argv(sh, ac, av, true);
    }
    sh_current_decl = saved_decl;
    if (sh->cmd_killed_by || sh->cmd_died_of) sh_timeout_after_command(sh, &c->base);
    if (trace_after) xtrace_decl(sh, av, ac, decl, &dargs);
    restore_fds(sh, &rs);
    if (temp_scope) {
      /* `x=1 local` etc. are rare; a temp scope simply ends here. But `w=5
       * export w` (and readonly) keeps w=5 in the scope below (bash). */
      sh_strv keep = {0};
      if (posix_merge) {
        for (sh_assign *as = c->assigns; as; as = as->next) {
          sh_var *v = sh_var_find_noref(sh, as->name);
          const char *cur = v && v->level == sh->local_scope ? sh_var_get(sh, as->name) : NULL;
          if (cur) {
            sh_strv_pushdup(&keep, as->name);
            sh_strv_pushdup(&keep, cur);
          }
        }
      } else if (bi && (!strcmp(name, "export") || !strcmp(name, "readonly")))
        for (sh_assign *as = c->assigns; as; as = as->next)
          for (int k = 1; k < ac; k++)
            if (!strcmp(av[k], as->name)) {
              const char *cur = sh_var_get(sh, as->name);
              if (cur) {
                sh_strv_pushdup(&keep, as->name);
                sh_strv_pushdup(&keep, cur);
              }
              break;
            }
      sh_vars_pop_scope(sh);
      for (size_t k = 0; k + 1 < keep.n; k += 2) {
        sh_var_set(sh, keep.v[k], keep.v[k + 1], 0);
        sh_var *v = sh_var_find_noref(sh, keep.v[k]);
        if (v) v->flags |= posix_merge || !strcmp(name, "export") ? SH_V_EXPORT : SH_V_READONLY;
      }
      sh_strv_free(&keep);
    }
  }
out:
  close_procsubs(sh, &pl);
  current_procsubs = saved_pl;
  free(dargs.assign);
  sh_strv_free(&argv);
  sh->status = status;
  return status;
}

/* ---- process substitution, command substitution, subshells ----------------------------------------------------- */

static void task_run_node(sh_task *t) {
  sh_shell *sh = t->sh;
  sh->task = t;
  int st = sh_exec(sh, t->node);
  sh_poll(sh); /* a signal from kill that came during the last command ends it now */
  if (sh->flow == SH_FLOW_EXIT || sh->flow == SH_FLOW_ABORT) st = sh->exit_status;
  sh_run_exit_trap(sh);
  if (sh->flow == SH_FLOW_EXIT) st = sh->exit_status;
  sh_wait_all(sh);
  t->status = st;
  t->term_sig = sh->killed_by;
  sh_shell_free(sh);
  t->sh = NULL;
  if (t->arena) sh_arena_unref(t->arena);
  t->arena = NULL;
}

static void task_run_script(sh_task *t) {
  sh_shell *sh = t->sh;
  sh->task = t;
  int st = sh_eval_string(sh, t->script, strlen(t->script), "sh", 1);
  if (sh->flow == SH_FLOW_EXIT || sh->flow == SH_FLOW_ABORT) st = sh->exit_status;
  sh_run_exit_trap(sh);
  sh_wait_all(sh);
  t->status = st;
  sh_shell_free(sh);
  t->sh = NULL;
  free(t->script);
  t->script = NULL;
}

/* The parent's side of a pipe to a new task (process substitution, popen):
 * its end (r when `reading`, else w) goes to descriptor `fd` of sh, and
 * `child`, which holds the other end, runs `fn` as a task. The references
 * to r and w are dropped. NULL when fd < 0 or the task cannot start (child
 * is freed, fd closed). */
static sh_task *pipe_task(sh_shell *sh, sh_shell *child, sh_file *r, sh_file *w, bool reading, int fd,
                          sh_task_fn fn) {
  if (fd >= 0) sh_fd_set(sh, fd, reading ? r : w);
  sh_file_unref(r);
  sh_file_unref(w);
  if (fd < 0) {
    sh_shell_free(child);
    return NULL;
  }
  sh_task *t = sh_task_spawn(sh, child, fn);
  if (!t) {
    sh_shell_free(child);
    sh_fd_close(sh, fd);
  }
  return t;
}

char *sh_procsub(sh_shell *sh, sh_node *body, char dir) {
  sh_file *r, *w;
  sh_pipe_new(&r, &w);
  sh_shell *child = sh_shell_copy(sh);
  child->xtrace_level++;
  if (dir == '<') sh_fd_set(child, 1, w);
  else sh_fd_set(child, 0, r);
  /* bash numbers them down from 63: <(a) <(b) are /dev/fd/63 and /dev/fd/62 */
  int fd = 63;
  while (fd >= 10 && sh_fd_get(sh, fd)) fd--;
  if (fd < 10) fd = sh_fd_alloc(sh, 64);
  if (fd < 0) sh_error(sh, "cannot allocate a file descriptor");
  sh_task *t = pipe_task(sh, child, r, w, dir == '<', fd, task_run_node);
  if (!t) return NULL;
  t->node = body;
  if (current_arena) t->arena = sh_arena_ref(current_arena);
  /* the task runs on; it is reaped when the call ends */
  sh_job_add(sh, &t, 1, NULL);
  sh_task_unref(t);
  if (current_procsubs && current_procsubs->n < 16) current_procsubs->fds[current_procsubs->n++] = fd;
  return sh_xasprintf("/dev/fd/%d", fd);
}

/* A capture buffer for command substitution (bounded by the string limit). */
typedef struct capture {
  sh_buf b;
  sh_session *sess;
  bool over;
} capture;

static ssize_t capture_write(void *ud, const void *buf, size_t n) {
  capture *c = ud;
  if (c->b.len + n > c->sess->limits.string_size) {
    c->over = true;
    return -EFBIG;
  }
  /* NUL bytes are dropped, as bash does */
  const char *p = buf;
  size_t start = 0;
  for (size_t i = 0; i < n; i++) {
    if (p[i] == 0) {
      sh_buf_add(&c->b, p + start, i - start);
      start = i + 1;
    }
  }
  sh_buf_add(&c->b, p + start, n - start);
  return (ssize_t)n;
}

/* $(< file): a command substitution that is one input redirection alone
 * reads the file (bash). Returns the redirection or NULL. */
static sh_redir *cat_redir(sh_node *n) {
  if (!n) return NULL;
  if (n->kind == SH_N_LIST) {
    sh_list *l = sh_node_list(n);
    if (l->n != 1 || l->items[0].background) return NULL;
    n = l->items[0].cmd;
  }
  if (n->kind == SH_N_PIPELINE) {
    sh_pipeline *pl = sh_node_pipeline(n);
    if (pl->n != 1 || pl->bang) return NULL;
    n = pl->cmds[0];
  }
  if (n->kind != SH_N_SIMPLE) return NULL;
  sh_simple *c = sh_node_simple(n);
  sh_redir *r = c->base.redirs;
  if (c->nwords || c->assigns || !r || r->next || r->op != SH_R_IN || (r->fd != -1 && r->fd != 0) ||
      r->fdvar)
    return NULL;
  return r;
}

static char *read_redir_file(sh_shell *sh, sh_redir *r, int *status) {
  char *path = sh_expand_string(sh, r->target, 0);
  if (!path) {
    *status = 1;
    return NULL;
  }
  sh_file *f;
  int e = sh_open_file(sh, path, O_RDONLY, 0, &f);
  if (e < 0) {
    sh_error(sh, "%s: %s", path, cmd_strerror(e));
    record_file_error(sh, -e, path);
    free(path);
    *status = sh->status = 1;
    sh->nsubst++;
    return sh_xstrdup("");
  }
  free(path);
  int fd = sh_fd_alloc(sh, 10);
  sh_buf b = {0};
  if (fd >= 0) {
    sh_fd_set(sh, fd, f);
    char chunk[8192];
    ssize_t n;
    while ((n = sh_fd_read(sh, fd, chunk, sizeof chunk)) > 0) {
      if (sh_check_size(sh, b.len + (size_t)n)) break;
      for (ssize_t i = 0; i < n; i++)
        if (chunk[i]) sh_buf_addc(&b, chunk[i]); /* NUL bytes are dropped */
    }
    sh_fd_close(sh, fd);
  }
  sh_file_unref(f);
  *status = sh->status = 0;
  sh->nsubst++;
  return sh_buf_steal(&b);
}

char *sh_command_subst(sh_shell *sh, sh_node *body, int *status) {
  if (stack_low()) {
    sh_error(sh, "maximum nesting depth exceeded");
    return NULL;
  }
  if (!count_command(sh)) return NULL;
  sh_redir *cr = cat_redir(body);
  if (cr) return read_redir_file(sh, cr, status);
  capture cap = {.sess = sh->sess};
  sh_file *f = sh_file_sink(capture_write, &cap);
  f->capture = true;
  sh_shell *child = sh_shell_copy(sh);
  child->xtrace_level++;
  /* bash's substitution shell does not report its commands killed by a signal */
  child->stage_command = true;
  /* command substitution does not inherit set -e (unless inherit_errexit) */
  if (!sh->opt[SH_SHOPT_INHERIT_ERREXIT]) {
    child->errexit_off = 0;
    if (!sh->opt[SH_OPT_POSIX]) child->opt[SH_OPT_ERREXIT] = false;
  }
  sh_fd_set(child, 1, f);
  sh_file_unref(f);
  int st = 0;
  if (body) {
    st = sh_exec(child, body);
    if (child->flow == SH_FLOW_EXIT || child->flow == SH_FLOW_ABORT) st = child->exit_status;
  }
  sh_run_exit_trap(child);
  sh_wait_all(child);
  bool abort = child->flow == SH_FLOW_ABORT;
  sh_shell_free(child);
  if (cap.over) {
    sh_limit_hit(sh, SH_LIMIT_STRING, sh->sess->limits.string_size);
    sh_buf_free(&cap.b);
    return NULL;
  }
  if (abort) {
    sh->flow = SH_FLOW_ABORT;
    sh->exit_status = 126;
  }
  *status = st;
  sh->status = st;
  sh->nsubst++;
  return sh_buf_steal(&cap.b);
}

int sh_subshell_run(sh_shell *sh, sh_node *body) {
  if (stack_low()) {
    sh_error(sh, "maximum nesting depth exceeded");
    return 1;
  }
  sh_shell *child = sh_shell_copy(sh);
  int st = sh_exec(child, body);
  if (child->flow == SH_FLOW_EXIT || child->flow == SH_FLOW_ABORT) st = child->exit_status;
  sh_run_exit_trap(child);
  if (child->flow == SH_FLOW_EXIT) st = child->exit_status;
  sh_wait_all(child);
  if (child->flow == SH_FLOW_ABORT) {
    sh->flow = SH_FLOW_ABORT;
    sh->exit_status = 126;
  }
  if (child->killed_by && !sh->pipeline_stage && !sh_timeout_ends(sh)) {
    /* killed by a signal: bash reports it as for a foreground job */
    char *t = sh_node_text(sh, body);
    char *text = sh_xasprintf("( %s )", t);
    sh_report_signal_death(sh, child->killed_by, child->pid, text);
    free(text);
    free(t);
  }
  sh_shell_free(child);
  return st;
}

/* ---- pipelines ------------------------------------------------------------------------------------------------ */

static bool stage_is_simple(sh_node *n) { return n->kind == SH_N_SIMPLE && !n->redirs; }

static int exec_pipeline(sh_shell *sh, sh_pipeline *pl) {
  size_t n = pl->n;
  /* bash ignores failures under `!` only when set -e is on as it starts
   * (CMD_IGNORE_RETURN): else a `set -e` or an ERR trap inside still acts */
  bool ignore = pl->bang && sh->opt[SH_OPT_ERREXIT];
  if (ignore) sh->errexit_off++;
  int status;
  int *statuses = sh_xcalloc(n, sizeof *statuses);
  if (n == 1) {
    const void *saved_inverted = sh->inverted_cmd;
    if (pl->bang) sh->inverted_cmd = pl->cmds[0];
    status = sh_exec(sh, pl->cmds[0]);
    sh->inverted_cmd = saved_inverted;
    statuses[0] = status;
  } else {
    sh_task **tasks = sh_xcalloc(n, sizeof *tasks);
    sh_file *prev_r = NULL;
    bool failed = false;
    bool lastpipe = sh->opt[SH_SHOPT_LASTPIPE] && !sh->opt[SH_OPT_MONITOR];
    for (size_t i = 0; i + 1 < n; i++) {
      sh_file *r, *w;
      sh_pipe_new(&r, &w);
      if (stage_is_simple(pl->cmds[i])) sh_note_command(sh, pl->cmds[i]);
      if (stage_is_simple(pl->cmds[i]) && !debug_trap(sh, pl->cmds[i]->line)) {
        sh_file_unref(r);
        sh_file_unref(w);
        failed = true;
        break;
      }
      sh_shell *child = sh_shell_copy(sh);
      child->pipeline_stage = pl->cmds[i]->kind == SH_N_SUBSHELL; /* the stage is the subshell */
      child->stage_command = pl->cmds[i]->kind == SH_N_SIMPLE;
      if (stage_is_simple(pl->cmds[i])) child->debug_done = true;
      if (prev_r) sh_fd_set(child, 0, prev_r);
      sh_fd_set(child, 1, w);
      if (pl->pipe_err[i]) sh_fd_set(child, 2, w);
      sh_file_unref(w);
      sh_file_unref(prev_r);
      prev_r = r;
      tasks[i] = sh_task_spawn(sh, child, task_run_node);
      if (!tasks[i]) {
        sh_shell_free(child);
        failed = true;
        break;
      }
      tasks[i]->node = pl->cmds[i];
      if (current_arena) tasks[i]->arena = sh_arena_ref(current_arena);
    }
    if (!failed && stage_is_simple(pl->cmds[n - 1])) sh_note_command(sh, pl->cmds[n - 1]);
    if (!failed && stage_is_simple(pl->cmds[n - 1]) && !debug_trap(sh, pl->cmds[n - 1]->line))
      failed = true;
    /* the earlier stages start first, as forked processes would: each runs
     * until it writes, blocks or ends, then the last stage runs here */
    if (!failed && sh->task) sh_task_yield(sh->task);
    if (!failed) {
      /* the last stage runs here */
      if (lastpipe) {
        sh_file *saved0 = sh_file_ref(sh_fd_get(sh, 0));
        sh_fd_set(sh, 0, prev_r);
        sh_file_unref(prev_r);
        prev_r = NULL;
        if (stage_is_simple(pl->cmds[n - 1])) sh->debug_done = true;
        statuses[n - 1] = sh_exec(sh, pl->cmds[n - 1]);
        if (saved0) {
          sh_fd_set(sh, 0, saved0);
          sh_file_unref(saved0);
        } else {
          sh_fd_close(sh, 0);
        }
      } else {
        sh_shell *child = sh_shell_copy(sh);
        child->stage_command = pl->cmds[n - 1]->kind == SH_N_SIMPLE;
        if (stage_is_simple(pl->cmds[n - 1])) child->debug_done = true;
        sh_fd_set(child, 0, prev_r);
        sh_file_unref(prev_r);
        prev_r = NULL;
        int st = sh_exec(child, pl->cmds[n - 1]);
        if (child->flow == SH_FLOW_EXIT || child->flow == SH_FLOW_ABORT) st = child->exit_status;
        sh_run_exit_trap(child);
        if (child->flow == SH_FLOW_ABORT) {
          sh->flow = SH_FLOW_ABORT;
          sh->exit_status = 126;
        }
        sh_wait_all(child);
        sh_shell_free(child);
        statuses[n - 1] = st;
      }
    }
    sh_file_unref(prev_r);
    for (size_t i = 0; i + 1 < n; i++) {
      if (!tasks[i]) {
        statuses[i] = 1;
        continue;
      }
      statuses[i] = sh_task_wait(sh->task, tasks[i]);
      sh_task_unref(tasks[i]);
    }
    free(tasks);
    status = statuses[n - 1];
    if (failed) status = 1;
    if (sh->opt[SH_OPT_PIPEFAIL])
      for (size_t i = 0; i < n; i++)
        if (statuses[i]) status = statuses[i];
    if (sh_poll(sh)) status = 126;
  }
  if (n > 1) sh_jobs_notify(sh, 0);
  free(sh->pipestatus);
  sh->pipestatus = statuses;
  sh->npipestatus = (int)n;
  if (ignore) sh->errexit_off--;
  if (pl->bang) status = !status;
  sh->status = status;
  return status;
}

/* ---- background jobs ------------------------------------------------------------------------------------------- */

static int exec_background(sh_shell *sh, sh_node *n) {
  sh_session *s = sh->sess;
  if (s->jobs_outlive && (uint64_t)sh_sched_count_jobs(s->sched) >= s->limits.bg_jobs) {
    /* jobs outlive their call: their number is bounded (docs/limits.md) */
    sh_error(sh, "background job not started: %" PRIu64 " jobs are running (limit bg_jobs)",
             s->limits.bg_jobs);
    sh->status = 1;
    return 1;
  }
  sh_shell *child = sh_shell_copy(sh);
  /* without job control, an asynchronous command ignores SIGINT and SIGQUIT */
  if (!sh->opt[SH_OPT_MONITOR]) child->sig_ignored |= (1u << 2) | (1u << 3);
  /* the status of an asynchronous simple command does not trigger ERR */
  sh_node *top = n;
  if (top->kind == SH_N_PIPELINE && sh_node_pipeline(top)->n == 1) top = sh_node_pipeline(top)->cmds[0];
  if (top->kind == SH_N_SIMPLE) child->err_skip_once = true;
  /* a background job's stdin is /dev/null unless redirected (non-interactive) */
  sh_task *t = sh_task_spawn(sh, child, task_run_node);
  if (!t) {
    sh_shell_free(child);
    return 1;
  }
  t->node = n;
  t->bg_job = true;
  if (current_arena) t->arena = sh_arena_ref(current_arena);
  sh->last_bg = sh_job_start(sh, t, n);
  sh_task_unref(t);
  return 0;
}

/* ---- compound commands ------------------------------------------------------------------------------------------- */

static bool loop_tick(sh_shell *sh, uint64_t *iters) {
  if (++*iters > sh->sess->limits.loop_iterations) {
    sh_limit_hit(sh, SH_LIMIT_LOOP, sh->sess->limits.loop_iterations);
    return false;
  }
  return sh_poll(sh) == 0;
}

/* After a loop body: handles break/continue. Returns true to leave the loop. */
static bool loop_flow(sh_shell *sh) {
  if (sh->flow == SH_FLOW_BREAK) {
    if (--sh->flow_n <= 0) sh->flow = SH_FLOW_NONE;
    return true;
  }
  if (sh->flow == SH_FLOW_CONTINUE) {
    if (--sh->flow_n <= 0) {
      sh->flow = SH_FLOW_NONE;
      return false;
    }
    return true;
  }
  return sh->flow != SH_FLOW_NONE;
}

static int exec_loop(sh_shell *sh, sh_loop *l) {
  int status = 0;
  uint64_t iters = 0;
  sh->loop_depth++;
  for (;;) {
    if (sh_poll(sh)) break;
    int c = exec_condition(sh, l->cond);
    if (sh->flow != SH_FLOW_NONE) {
      if (loop_flow(sh)) break;
      continue;
    }
    if (l->until ? c == 0 : c != 0) break;
    if (!loop_tick(sh, &iters)) break;
    status = sh_exec(sh, l->body);
    if (sh->flow != SH_FLOW_NONE && loop_flow(sh)) break;
  }
  sh->loop_depth--;
  sh->status = status;
  return status;
}

/* Digits of n (bash's NUMBER_LEN). */
static int number_len(size_t n) {
  int k = 1;
  while (n >= 10) {
    n /= 10;
    k++;
  }
  return k;
}

/* select's menu as bash lays it out (print_select_list): "N) word" items in
 * columns that fit $COLUMNS, down the rows first; a list that would fit on
 * one row is printed as one column. */
static void select_menu(sh_shell *sh, const sh_strv *items, sh_buf *out) {
  size_t n = items->n, maxw = 0;
  if (!n) {
    sh_buf_addc(out, '\n');
    return;
  }
  for (size_t i = 0; i < n; i++) {
    size_t w = sh_utf8_len(items->v[i], strlen(items->v[i]));
    if (w > maxw) maxw = w;
  }
  int idxlen = number_len(n);
  size_t maxelem = maxw + (size_t)idxlen + 4; /* ") " and two spaces */
  const char *cv = sh_var_get(sh, "COLUMNS");
  long width = cv ? strtol(cv, NULL, 10) : 0;
  if (width <= 0) width = 80;
  size_t cols = (size_t)width / maxelem;
  if (!cols) cols = 1;
  size_t rows = n / cols + (n % cols != 0);
  cols = n / rows + (n % rows != 0);
  if (rows == 1) {
    rows = cols;
    cols = 1;
  }
  int firstlen = number_len(rows);
  for (size_t row = 0; row < rows; row++) {
    size_t pos = 0;
    for (size_t ind = row;;) {
      int il = pos == 0 ? firstlen : idxlen;
      sh_buf_addf(out, "%*zu) %s", il, ind + 1, items->v[ind]);
      size_t elem = sh_utf8_len(items->v[ind], strlen(items->v[ind])) + (size_t)il + 2;
      ind += rows;
      if (ind >= n) break;
      for (size_t k = pos + elem; k < pos + maxelem; k++) sh_buf_addc(out, ' ');
      pos += maxelem;
    }
    sh_buf_addc(out, '\n');
  }
}

/* set -x of a for/select/case head: the words as written (bash). */
static void xtrace_for(sh_shell *sh, sh_for *f) {
  sh_buf b = {0};
  sh_buf_addf(&b, "%s %s in", f->select ? "select" : "for", f->name);
  if (!f->has_in) sh_buf_adds(&b, " \"$@\"");
  for (size_t i = 0; i < f->nwords; i++) {
    sh_buf_addc(&b, ' ');
    sh_buf_adds(&b, f->words[i]->raw ? f->words[i]->raw : "");
  }
  if (f->select && !f->nwords) sh_buf_addc(&b, ' ');
  xtrace_text(sh, sh_buf_str(&b));
  sh_buf_free(&b);
}

/* An arithmetic text that is empty or blank (for ((;;)) counts it as 1). */
static bool arith_blank(const sh_word *w) {
  if (!w || !w->raw) return !w || !w->parts || (w->parts->kind == SH_PART_QLIT && !w->parts->u.lit.n && !w->parts->next);
  return w->raw[strspn(w->raw, " \t\n")] == 0;
}

static void xtrace_arith(sh_shell *sh, const sh_word *w) {
  char *m = sh_xasprintf("(( %s ))", arith_blank(w) ? "1" : w->raw);
  xtrace_text(sh, m);
  free(m);
}

static int exec_for(sh_shell *sh, sh_for *f) {
  sh_strv items = {0};
  if (f->has_in) {
    if (sh_expand_words(sh, f->words, f->nwords, &items)) {
      sh_strv_free(&items);
      return 1;
    }
  } else {
    for (size_t i = 0; i < sh->params.n; i++) sh_strv_pushdup(&items, sh->params.v[i]);
  }
  if (!sh_is_name(f->name)) {
    sh_error(sh, "`%s': not a valid identifier", f->name);
    sh_strv_free(&items);
    return 1;
  }
  int status = 0;
  uint64_t iters = 0;
  sh->loop_depth++;
  if (f->select) {
    /* select: the menu (first, and again after an empty line) and PS3 on
     * stderr, then a line from stdin */
    bool show_menu = true;
    if (!items.n && sh->opt[SH_OPT_XTRACE]) xtrace_for(sh, f); /* bash traces the head still */
    for (; items.n;) { /* no words: nothing to choose, as bash */
      if (!loop_tick(sh, &iters)) break;
      if (!debug_trap(sh, f->base.line)) break;
      if (sh->opt[SH_OPT_XTRACE]) xtrace_for(sh, f);
      sh_buf menu = {0};
      if (show_menu) select_menu(sh, &items, &menu);
      const char *ps3 = sh_var_get(sh, "PS3");
      sh_buf_adds(&menu, ps3 ? ps3 : "#? ");
      sh_write_fd(sh, 2, menu.data, menu.len);
      sh_buf_free(&menu);
      sh_buf line = {0};
      char ch;
      ssize_t r;
      bool eof = true;
      while ((r = sh_fd_read(sh, 0, &ch, 1)) == 1) {
        eof = false;
        if (ch == '\n') break;
        sh_buf_addc(&line, ch);
      }
      if (eof && line.len == 0) {
        sh_write_fd(sh, 1, "\n", 1); /* bash ends the prompt's line on stdout */
        sh_buf_free(&line);
        status = 1;
        break;
      }
      sh_var_set(sh, "REPLY", sh_buf_str(&line), 0);
      show_menu = line.len == 0;
      if (show_menu) {
        sh_buf_free(&line);
        continue; /* an empty line shows the menu again */
      }
      char *end;
      long k = strtol(sh_buf_str(&line), &end, 10);
      if (line.len && *end == 0 && k >= 1 && (size_t)k <= items.n) sh_var_set(sh, f->name, items.v[k - 1], 0);
      else sh_var_set(sh, f->name, "", 0);
      sh_buf_free(&line);
      status = sh_exec(sh, f->body);
      if (sh->flow != SH_FLOW_NONE && loop_flow(sh)) break;
    }
  } else {
    for (size_t i = 0; i < items.n; i++) {
      if (!loop_tick(sh, &iters)) break;
      if (!debug_trap(sh, f->base.line)) break;
      if (sh_var_set(sh, f->name, items.v[i], 0)) {
        status = 1;
        break;
      }
      if (sh->opt[SH_OPT_XTRACE]) xtrace_for(sh, f);
      status = sh_exec(sh, f->body);
      if (sh->flow != SH_FLOW_NONE && loop_flow(sh)) break;
    }
  }
  sh->loop_depth--;
  sh_strv_free(&items);
  sh->status = status;
  return status;
}

/* An expression of (( )) or for (( )): errors name the command, as in bash. */
static int arith_cmd_eval(sh_shell *sh, sh_word *w, int64_t *v) {
  const char *saved = sh->arith_context;
  sh->arith_context = "((";
  int r = sh_expand_arith(sh, w, v);
  sh->arith_context = saved;
  return r;
}

static int exec_cfor(sh_shell *sh, sh_cfor *f) {
  int64_t v;
  int status = 0;
  if (!debug_trap(sh, f->base.line)) return sh->status;
  if (sh->opt[SH_OPT_XTRACE]) xtrace_arith(sh, f->init);
  if (f->init && arith_cmd_eval(sh, f->init, &v)) return 1;
  uint64_t iters = 0;
  sh->loop_depth++;
  for (;;) {
    if (!debug_trap(sh, f->base.line)) break;
    sh->lineno = f->base.line; /* $LINENO in the condition: the for's line */
    if (sh->opt[SH_OPT_XTRACE]) xtrace_arith(sh, f->cond);
    if (!arith_blank(f->cond)) {
      if (arith_cmd_eval(sh, f->cond, &v)) {
        status = 1;
        break;
      }
      if (!v) break;
    }
    if (!loop_tick(sh, &iters)) break;
    status = sh_exec(sh, f->body);
    if (sh->flow != SH_FLOW_NONE && loop_flow(sh)) break;
    if (!debug_trap(sh, f->base.line)) break;
    sh->lineno = f->base.line;
    if (sh->opt[SH_OPT_XTRACE] && f->step) xtrace_arith(sh, f->step);
    if (f->step && arith_cmd_eval(sh, f->step, &v)) {
      status = 1;
      break;
    }
  }
  sh->loop_depth--;
  sh->status = status;
  return status;
}

static int exec_case(sh_shell *sh, sh_case *c) {
  if (!debug_trap(sh, c->base.line)) return sh->status;
  if (sh->opt[SH_OPT_XTRACE]) {
    char *m = sh_xasprintf("case %s in", c->word->raw ? c->word->raw : "");
    xtrace_text(sh, m);
    free(m);
  }
  char *word = sh_expand_string(sh, c->word, 0);
  if (!word) return 1;
  int status = 0;
  int fl = sh_fnm_flags(sh, true);
  size_t wl = strlen(word);
  bool fall = false;
  for (size_t i = 0; i < c->n; i++) {
    sh_case_item *it = &c->items[i];
    bool matched = fall;
    for (size_t k = 0; k < it->npatterns && !matched; k++) {
      char *pat = sh_expand_string(sh, it->patterns[k], SH_XF_PATTERN);
      if (!pat) {
        free(word);
        return 1;
      }
      matched = sh_fnmatch_sh(sh, pat, strlen(pat), word, wl, fl);
      free(pat);
    }
    if (!matched) continue;
    status = it->body ? sh_exec(sh, it->body) : 0;
    if (sh->flow != SH_FLOW_NONE) break;
    if (it->term == SH_CASE_BREAK) break;
    fall = it->term == SH_CASE_FALL;
  }
  free(word);
  sh->status = status;
  return status;
}

static int exec_time(sh_shell *sh, sh_time *t) {
  struct timeval start, end;
  gettimeofday(&start, NULL);
  int status = t->pipeline ? sh_exec(sh, t->pipeline) : 0;
  gettimeofday(&end, NULL);
  double secs = (double)(end.tv_sec - start.tv_sec) + (double)(end.tv_usec - start.tv_usec) / 1e6;
  if (t->posix)
    sh_printf_fd(sh, 2, "real %.2f\nuser %.2f\nsys %.2f\n", secs, 0.0, 0.0);
  else
    sh_printf_fd(sh, 2, "\nreal\t%dm%.3fs\nuser\t0m0.000s\nsys\t0m0.000s\n", (int)(secs / 60),
                 secs - 60 * (int)(secs / 60));
  return status;
}

/* ---- the dispatcher -------------------------------------------------------------------------------------------- */

static int exec_list(sh_shell *sh, sh_list *l) {
  int status = sh->status;
  for (size_t i = 0; i < l->n; i++) {
    sh_list_item *it = &l->items[i];
    if (it->background) {
      status = exec_background(sh, it->cmd);
      sh->status = status;
    } else {
      status = sh_exec(sh, it->cmd);
    }
    if (sh->flow != SH_FLOW_NONE) break;
  }
  return status;
}

static int exec_node(sh_shell *sh, sh_node *n) {
  if (n->kind != SH_N_LIST && n->kind != SH_N_ANDOR && n->kind != SH_N_PIPELINE) sh->lineno = n->line;
  switch (n->kind) {
  case SH_N_SIMPLE: {
    int st = exec_simple(sh, sh_node_simple(n));
    /* a simple command is a pipeline of one: PIPESTATUS=(status) */
    if (sh->npipestatus != 1) {
      free(sh->pipestatus);
      sh->pipestatus = sh_xmalloc(sizeof *sh->pipestatus);
      sh->npipestatus = 1;
    }
    sh->pipestatus[0] = st;
    if (sh->inverted_cmd != n) check_errexit(sh, st);
    return st;
  }
  case SH_N_PIPELINE: {
    sh_pipeline *pl = sh_node_pipeline(n);
    int st = exec_pipeline(sh, pl);
    if (!pl->bang) {
      if (pl->n > 1) sh->lineno = n->line;
      /* bash runs ERR twice when the last stage is a failing ( subshell ) */
      if (pl->n > 1 && st && pl->cmds[pl->n - 1]->kind == SH_N_SUBSHELL && !sh->errexit_off &&
          sh->traps.action[SH_TRAP_ERR] && *sh->traps.action[SH_TRAP_ERR] && !(sh->trap_active & 2) &&
          sh->flow == SH_FLOW_NONE) {
        sh_run_trap(sh, SH_TRAP_ERR);
        sh->status = st;
      }
      check_errexit(sh, st);
    }
    return st;
  }
  case SH_N_ANDOR: {
    sh_andor *a = sh_node_andor(n);
    int st = exec_condition(sh, a->left);
    if (sh->flow != SH_FLOW_NONE) return st;
    if (a->is_or ? st != 0 : st == 0) st = sh_exec(sh, a->right);
    return st;
  }
  case SH_N_LIST:
    return exec_list(sh, sh_node_list(n));
  case SH_N_SUBSHELL: {
    int st = sh_subshell_run(sh, sh_node_block(n)->body);
    sh_jobs_notify(sh, 0);
    sh->status = st;
    check_errexit(sh, st);
    return st;
  }
  case SH_N_GROUP:
    return sh_exec(sh, sh_node_block(n)->body);
  case SH_N_IF: {
    sh_if *f = sh_node_if(n);
    int c = exec_condition(sh, f->cond);
    if (sh->flow != SH_FLOW_NONE) return c;
    int st = 0;
    if (c == 0) st = sh_exec(sh, f->then_part);
    else if (f->else_part) st = sh_exec(sh, f->else_part);
    sh->status = st;
    return st;
  }
  case SH_N_LOOP:
    return exec_loop(sh, sh_node_loop(n));
  case SH_N_FOR:
    return exec_for(sh, sh_node_for(n));
  case SH_N_CFOR:
    return exec_cfor(sh, sh_node_cfor(n));
  case SH_N_CASE:
    return exec_case(sh, sh_node_case(n));
  case SH_N_FUNCDEF: {
    sh_funcdef *f = sh_node_funcdef(n);
    if (strpbrk(f->name, "$`'\"\\") || !*f->name) {
      sh_error(sh, "`%s': not a valid identifier", f->name);
      return 1;
    }
    const sh_builtin *sb = sh->opt[SH_OPT_POSIX] ? sh_builtin_find(sh, f->name) : NULL;
    if (sb && (sb->flags & SH_BI_SPECIAL)) {
      /* POSIX: a special builtin cannot become a function; the shell exits */
      sh_error(sh, "`%s': is a special builtin", f->name);
      if (!sh->interactive) sh_fatal_exit(sh, 2);
      return 2;
    }
    sh_func *old = sh_func_get(sh, f->name);
    if (old && (old->attrs & 2)) {
      sh_error(sh, "%s: readonly function", f->name);
      return 1;
    }
    sh_arena *a = current_arena;
    if (!a) {
      sh_error(sh, "%s: cannot define function here", f->name);
      return 1;
    }
    sh_func_define(sh, f, a);
    sh->status = 0;
    return 0;
  }
  case SH_N_ARITH: {
    sh->lineno = n->line;
    if (!count_command(sh)) return 126;
    sh_note_command(sh, n);
    if (!debug_trap(sh, n->line)) return sh->status;
    int64_t v;
    if (sh->opt[SH_OPT_XTRACE]) {
      char *t = sh_expand_string(sh, sh_node_arith(n)->expr, SH_XF_NOTILDE);
      if (t) {
        char *m = sh_xasprintf("(( %s ))", t);
        xtrace_text(sh, m);
        free(m);
        free(t);
      }
    }
    int st = arith_cmd_eval(sh, sh_node_arith(n)->expr, &v) ? 1 : (v != 0 ? 0 : 1);
    sh->status = st;
    check_errexit(sh, st);
    return st;
  }
  case SH_N_COND: {
    sh->lineno = n->line;
    if (!count_command(sh)) return 126;
    sh_note_command(sh, n);
    if (!debug_trap(sh, n->line)) return sh->status;
    int st = sh_eval_cond(sh, sh_node_cond(n)->expr);
    sh->status = st;
    check_errexit(sh, st);
    return st;
  }
  case SH_N_TIME:
    return exec_time(sh, sh_node_time(n));
  }
  return 0;
}

int sh_exec(sh_shell *sh, sh_node *n) {
  if (!n) return 0;
  sh_locale_bytes = sh->bytes_locale;
  if (sh->flow != SH_FLOW_NONE) return sh->status;
  if (stack_low()) {
    sh_error(sh, "maximum nesting depth exceeded");
    sh->flow = SH_FLOW_EXIT;
    sh->exit_status = 2;
    return 2;
  }
  if (n->redirs && n->kind != SH_N_SIMPLE) {
    /* process substitutions in the redirections end with the command: the
     * shell closes its copy of their fds (so `{ ...; } > >(cat)` sees EOF) */
    procsub_list pl = {.n = 0};
    procsub_list *saved_pl = current_procsubs;
    current_procsubs = &pl;
    redir_state rs = {0};
    int rr = apply_redirs(sh, n->redirs, &rs);
    current_procsubs = saved_pl;
    if (rr) {
      close_procsubs(sh, &pl);
      restore_fds(sh, &rs);
      sh->status = 1;
      /* a failed redirection of a compound command counts as its failure
       * (LINENO stays where it was, as in bash) */
      check_errexit(sh, 1);
      return 1;
    }
    int st = exec_node(sh, n);
    restore_fds(sh, &rs);
    close_procsubs(sh, &pl);
    sh->status = st;
    return st;
  }
  int st = exec_node(sh, n);
  sh->status = st;
  return st;
}

/* ---- eval and scripts -------------------------------------------------------------------------------------------- */

static const char *alias_cb(void *ud, const char *name) {
  sh_shell *sh = ud;
  if (!sh->opt[SH_SHOPT_EXPAND_ALIASES]) return NULL;
  return sh_map_get(&sh->aliases, name);
}

static bool extglob_cb(void *ud) {
  sh_shell *sh = ud;
  return sh->opt[SH_SHOPT_EXTGLOB];
}

static bool posix_cb(void *ud) {
  sh_shell *sh = ud;
  return sh->opt[SH_OPT_POSIX];
}

static void warn_cb(void *ud, int line, const char *msg) {
  sh_shell *sh = ud;
  int saved = sh->lineno;
  sh->lineno = line;
  sh_error(sh, "%s", msg);
  sh->lineno = saved;
}

static int eval_text(sh_shell *sh, const char *s, size_t n, const char *name, bool file, int first_line);

int sh_eval_string(sh_shell *sh, const char *s, size_t n, const char *name, int first_line) {
  return eval_text(sh, s, n, name, false, first_line);
}

int sh_eval_file(sh_shell *sh, const char *s, size_t n, const char *path) {
  return eval_text(sh, s, n, path, true, 1);
}

static int eval_text(sh_shell *sh, const char *s, size_t n, const char *name, bool file, int first_line) {
  if ((uint64_t)sh->eval_depth >= sh->sess->limits.function_depth + 16 || stack_low()) {
    sh_error(sh, "maximum eval/source nesting exceeded");
    return 1;
  }
  sh->eval_depth++;
  if (!sh->sess->note_commands && memmem(s, n, "BASH_COMMAND", 12)) sh->sess->note_commands = true;
  sh_parse_opts o = {0};
  o.alias = alias_cb;
  o.extglob = extglob_cb;
  o.posix = posix_cb;
  o.warn = warn_cb;
  o.ud = sh;
  o.first_line = first_line;
  o.max_depth = (int)sh->sess->limits.nesting;
  o.name = name;
  o.name_is_file = file;
  sh_parser *p = sh_parser_new(s, n, &o);
  bool file_is_eval = !strcmp(name, "eval");
  int status = 0;
  sh->status = sh->status; /* eval of nothing keeps... bash: eval '' gives 0 */
  bool any = false;
  size_t echoed = 0; /* set -v: the source is echoed as it is read */
  for (;;) {
    sh_node *node;
    sh_arena *arena;
    sh_jobs_notify(sh, sh_parser_line(p)); /* bash reports ended jobs as it reads each command line */
    size_t cmd_from = sh_parser_offset(p);
    bool hist_added = false;
    int r = sh_parse_next(p, &node, &arena);
    if (r == 1 && sh->opt[SH_OPT_HISTORY] && !sh->interactive && sh->eval_depth == 1 && !file_is_eval) {
      /* set -o history in a script: bash records each command as it reads it */
      size_t to = sh_parser_offset(p);
      if (to > n) to = n;
      while (cmd_from < to && (s[cmd_from] == '\n' || s[cmd_from] == ' ' || s[cmd_from] == '\t')) cmd_from++;
      if (to > cmd_from) sh_hist_add(sh, s + cmd_from, to - cmd_from);
      hist_added = true;
    }
    if (sh->opt[SH_OPT_VERBOSE]) {
      size_t off = r == 0 ? n : sh_parser_offset(p);
      if (off > n) off = n;
      if (off > echoed) {
        sh_write_fd(sh, 2, s + echoed, off - echoed);
        if (s[off - 1] != '\n') sh_write_fd(sh, 2, "\n", 1);
      }
      echoed = off;
    } else {
      echoed = sh_parser_offset(p);
    }
    if (r == 0) break;
    if (r < 0) {
      int saved = sh->lineno;
      sh->lineno = sh_parser_error_line(p);
      const char *msg = sh_parser_error(p);
      if (strstr(msg, "nesting depth"))
        sh_limit_hit(sh, SH_LIMIT_NESTING, sh->sess->limits.nesting);
      else /* bash names eval and -c text in syntax errors */
        sh_syntax_error(sh, !strcmp(name, "eval") ? "eval" : !strcmp(name, "environment") ? "-c" : NULL, msg, s, n,
                        sh->lineno - first_line);
      sh->lineno = saved;
      if (sh_parser_error_in_array(p)) {
        /* a=(x & y): status 1, and the text goes on after the line */
        status = sh->status = 1;
        size_t off = sh_parser_offset(p);
        const char *nl = off < n ? memchr(s + off, '\n', n - off) : NULL;
        if (!nl) break;
        int line = first_line;
        for (const char *q = s; q <= nl; q++) line += *q == '\n';
        sh_parser_free(p);
        o.first_line = first_line = line;
        n -= (size_t)(nl + 1 - s);
        s = nl + 1;
        p = sh_parser_new(s, n, &o);
        echoed = 0;
        continue;
      }
      /* (bash 5.2.15 ends a malformed [[ ]] read by the shell itself with the
       * status it had; the spec tests and POSIX want 2, and so does sbx) */
      status = 2;
      sh->status = 2;
      break;
    }
    any = true;
    if (sh->eval_depth == 1) sh->cmdnum++;
    if (sh->opt[SH_OPT_NOEXEC]) {
      sh_arena_unref(arena);
      continue;
    }
    sh_arena *saved_arena = current_arena;
    current_arena = arena;
    status = sh_exec(sh, node);
    current_arena = saved_arena;
    sh_arena_unref(arena);
    if (hist_added) sh_hist_ran(sh);
    if (sh->flow == SH_FLOW_EXIT &&
        ((sh->fatal == SH_FATAL_DISCARD && !sh->is_subshell) ||
         (sh->fatal && sh->interactive && sh->eval_depth == 1))) {
      /* the command that failed is abandoned; the text goes on (bash's DISCARD),
       * unless set -e makes the failure end the shell */
      sh->flow = SH_FLOW_NONE;
      sh->fatal = 0;
      status = sh->status = sh->exit_status;
      if (sh->opt[SH_OPT_ERREXIT] && !sh->interactive && status) {
        sh->flow = SH_FLOW_EXIT;
        sh->exit_status = status;
      }
    }
    if (sh->flow != SH_FLOW_NONE) break;
  }
  if (!any && status == 0) status = 0;
  sh_parser_free(p);
  sh->eval_depth--;
  return status;
}

/* ---- cmd_io: run, popen, pclose -------------------------------------------------------------------------------------- */

int sh_io_run(void *ud, int argc, char **argv, int in_fd, int out_fd) {
  sh_shell *sh = ud;
  if (!count_command(sh)) return 126;
  sh_file *saved0 = sh_file_ref(sh_fd_get(sh, 0));
  sh_file *saved1 = sh_file_ref(sh_fd_get(sh, 1));
  if (in_fd < 0) {
    sh_file *nul = sh_file_new(SH_F_NULL);
    sh_fd_set(sh, 0, nul);
    sh_file_unref(nul);
  } else if (in_fd != 0) {
    sh_file *f = sh_fd_get(sh, in_fd);
    if (f) sh_fd_set(sh, 0, f);
  }
  if (out_fd >= 0 && out_fd != 1) {
    sh_file *f = sh_fd_get(sh, out_fd);
    if (f) sh_fd_set(sh, 1, f);
  }
  char **av = sh_xcalloc((size_t)argc + 1, sizeof *av);
  for (int i = 0; i < argc; i++) av[i] = argv[i];
  int st = sh_run_argv(sh, argc, av, false);
  free(av);
  if (saved0) sh_fd_set(sh, 0, saved0);
  else sh_fd_close(sh, 0);
  if (saved1) sh_fd_set(sh, 1, saved1);
  else sh_fd_close(sh, 1);
  sh_file_unref(saved0);
  sh_file_unref(saved1);
  if (sh->flow == SH_FLOW_EXIT || sh->flow == SH_FLOW_RETURN) {
    /* exit inside a command run by a command ends only that command */
    st = sh->exit_status;
    sh->flow = SH_FLOW_NONE;
  }
  return st;
}

/* cmd_io.run_env: as sh_io_run, with the environment `env` for a table
 * command (NULL: the shell's exports; builtins and functions always see the
 * shell's variables) and the working directory `cwd` (NULL: the shell's). */
int sh_io_run_env(void *ud, int argc, char **argv, char *const *env, const char *cwd,
                  int in_fd, int out_fd) {
  sh_shell *sh = ud;
  char *saved_cwd = NULL;
  if (cwd) {
    saved_cwd = sh->cwd; /* borrowed by the calling command's ctx: kept alive */
    sh->cwd = sh_xstrdup(cwd);
  }
  sh->env_override = env;
  int st = sh_io_run(ud, argc, argv, in_fd, out_fd);
  sh->env_override = NULL;
  if (cwd) {
    free(sh->cwd);
    sh->cwd = saved_cwd;
  }
  return st;
}

/* cmd_io.run_until: as sh_io_run_env, under a deadline (timeout(1)). The
 * shell's deadline becomes the earlier of the current one and deadline_ns for
 * the run: sh_poll, in this shell and in every copy made meanwhile (subshells,
 * pipeline stages, nested `bash`), unwinds with flow ABORT once it passes, and
 * here that unwinding ends (unless a limit of the call is what aborted). */
int sh_io_run_until(void *ud, cmd_deadline *d, int argc, char **argv, char *const *env,
                    const char *cwd, int in_fd, int out_fd) {
  sh_shell *sh = ud;
  sh_timeout saved = sh->timeout;
  /* an outer timeout that comes first stays in force (its signal ends this one too) */
  bool outer_first = saved.deadline_ns && saved.deadline_ns <= d->deadline_ns;
  if (!outer_first)
    sh->timeout = (sh_timeout){.deadline_ns = d->deadline_ns, .kill_ns = d->kill_ns,
                               .sig = d->sig, .waiter = true};
  int st = sh_io_run_env(ud, argc, argv, env, cwd, in_fd, out_fd);
  int64_t now = sh_now_ns();
  d->expired = now >= d->deadline_ns;
  d->killed = false;
  if (d->expired && sh->flow == SH_FLOW_ABORT && sh->sess->limit_hit == SH_LIMIT_NONE &&
      !atomic_load(&sh->sess->cancel) && !outer_first) {
    /* the code was killed, or the program this shell ran ended at the signal */
    d->killed = d->sig == 9 || (d->kill_ns && now >= d->kill_ns);
    st = d->killed ? 128 + 9 : 128 + d->sig;
    sh->flow = SH_FLOW_NONE;
    sh->exit_status = 0;
  }
  sh->timeout = saved;
  return st;
}

/* popen'd tasks of a shell: handle = index. */
typedef struct popen_slot {
  sh_task *task;
  int fd;         /* the caller's descriptor for its end of the pipe */
  sh_file *end;   /* that end (identity only: not a reference) */
} popen_slot;

static _Thread_local popen_slot popens[64];

int sh_io_popen(void *ud, const char *script, const char *mode, int *fd) {
  sh_shell *sh = ud;
  int slot = -1;
  for (int i = 0; i < 64; i++)
    if (!popens[i].task) {
      slot = i;
      break;
    }
  if (slot < 0) return -EMFILE;
  sh_file *r, *w;
  sh_pipe_new(&r, &w);
  sh_shell *child = sh_shell_copy(sh);
  /* as POSIX popen: the new child does not hold the parent's ends of the
   * earlier popen pipes, so closing one of those gives its reader EOF */
  for (int i = 0; i < 64; i++)
    if (popens[i].task && popens[i].fd < child->fds.n && child->fds.f[popens[i].fd] == popens[i].end)
      sh_fd_close(child, popens[i].fd);
  bool reading = mode[0] == 'r';
  if (reading) sh_fd_set(child, 1, w);
  else sh_fd_set(child, 0, r);
  int ours = sh_fd_alloc(sh, 3);
  sh_task *t = pipe_task(sh, child, r, w, reading, ours, task_run_script);
  if (!t) return ours < 0 ? ours : -EAGAIN;
  t->script = sh_xstrdup(script);
  popens[slot].task = t;
  popens[slot].fd = ours;
  popens[slot].end = sh->fds.f[ours];
  *fd = ours;
  return slot;
}

int sh_io_pclose(void *ud, int handle) {
  sh_shell *sh = ud;
  if (handle < 0 || handle >= 64 || !popens[handle].task) return -EBADF;
  sh_fd_close(sh, popens[handle].fd);
  int st = sh_task_wait(sh->task, popens[handle].task);
  sh_task_unref(popens[handle].task);
  popens[handle].task = NULL;
  return st;
}
