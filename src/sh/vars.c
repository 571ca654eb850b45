/*
 * vars.c - variable storage, scopes, arrays and special variables (vars.h).
 *
 * The table maps a name to the innermost variable of that name (chained hash
 * buckets); locals link to what they shadow. Special variables that change on
 * their own (RANDOM, SECONDS, LINENO, FUNCNAME, PIPESTATUS...) are computed on
 * access into a scratch variable, so nothing is updated per command; assigning
 * to one of them either seeds it (RANDOM, SECONDS) or is ignored, as in bash.
 */
#include "sh/vars.h"

#include <inttypes.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sh/arith.h"

struct sh_vars {
  sh_var **b;        /* buckets */
  size_t nb;         /* bucket count (power of two) */
  size_t n;          /* top-level entries */
  sh_var scratch;    /* dynamic specials are materialized here */
  char numbuf[64];   /* text of dynamic scalars */
  char optsbuf[2048]; /* SHELLOPTS / BASHOPTS text (every option name fits) */
  char resolved[STORE_PATH_MAX]; /* sh_var_resolve result */
  uint32_t disabled; /* bit per special that the user unset */
  uint32_t exported; /* bit per special that the user exported (export SHELLOPTS) */
};

/* ---- arrays ------------------------------------------------------------------------ */

static size_t array_find(const sh_array *a, int64_t idx, bool *found) {
  size_t lo = 0, hi = a->n;
  /* fast path: appending */
  if (a->n && a->idx[a->n - 1] < idx) {
    *found = false;
    return a->n;
  }
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (a->idx[mid] < idx)
      lo = mid + 1;
    else
      hi = mid;
  }
  *found = lo < a->n && a->idx[lo] == idx;
  return lo;
}

const char *sh_array_get(const sh_array *a, int64_t idx) {
  if (!a) return NULL;
  bool found;
  size_t i = array_find(a, idx, &found);
  return found ? a->val[i] : NULL;
}

void sh_array_set(sh_array *a, int64_t idx, char *val) {
  bool found;
  size_t i = array_find(a, idx, &found);
  if (found) {
    free(a->val[i]);
    a->val[i] = val;
    return;
  }
  if (a->n == a->cap) {
    a->cap = a->cap ? a->cap * 2 : 8;
    a->idx = sh_xrealloc(a->idx, a->cap * sizeof *a->idx);
    a->val = sh_xrealloc(a->val, a->cap * sizeof *a->val);
  }
  memmove(a->idx + i + 1, a->idx + i, (a->n - i) * sizeof *a->idx);
  memmove(a->val + i + 1, a->val + i, (a->n - i) * sizeof *a->val);
  a->idx[i] = idx;
  a->val[i] = val;
  a->n++;
}

bool sh_array_unset(sh_array *a, int64_t idx) {
  bool found;
  size_t i = array_find(a, idx, &found);
  if (!found) return false;
  free(a->val[i]);
  memmove(a->idx + i, a->idx + i + 1, (a->n - i - 1) * sizeof *a->idx);
  memmove(a->val + i, a->val + i + 1, (a->n - i - 1) * sizeof *a->val);
  a->n--;
  return true;
}

int64_t sh_array_max(const sh_array *a) { return a && a->n ? a->idx[a->n - 1] : -1; }

int64_t sh_index_add(int64_t a, int64_t b) { return (int64_t)((uint64_t)a + (uint64_t)b); }

int64_t sh_array_from_end(const sh_array *a, int64_t idx) {
  return sh_index_add(sh_index_add(sh_array_max(a), 1), idx);
}

void sh_array_free(sh_array *a) {
  if (!a) return;
  for (size_t i = 0; i < a->n; i++) free(a->val[i]);
  free(a->idx);
  free(a->val);
  free(a);
}

sh_array *sh_array_copy(const sh_array *a) {
  sh_array *c = sh_xcalloc(1, sizeof *c);
  if (!a || !a->n) return c;
  c->cap = c->n = a->n;
  c->idx = sh_xmalloc(a->n * sizeof *c->idx);
  c->val = sh_xmalloc(a->n * sizeof *c->val);
  memcpy(c->idx, a->idx, a->n * sizeof *c->idx);
  for (size_t i = 0; i < a->n; i++) c->val[i] = sh_xstrdup(a->val[i]);
  return c;
}

/* ---- associative arrays ---------------------------------------------------------------- */

static uint32_t hash_str(const char *s) {
  uint32_t h = 2166136261u;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
  return h;
}

static uint32_t fnv1(const char *s) {
  uint32_t h = 2166136261u;
  for (; *s; s++) {
    h *= 16777619u;
    h ^= (unsigned char)*s;
  }
  return h;
}

static sh_assoc_ent *assoc_lookup(const sh_assoc *a, const char *key, uint32_t h) {
  if (!a->nb) return NULL;
  for (sh_assoc_ent *e = a->b[h & (a->nb - 1)]; e; e = e->next)
    if (e->hash == h && strcmp(e->key, key) == 0) return e;
  return NULL;
}

const char *sh_assoc_get(const sh_assoc *a, const char *key) {
  if (!a) return NULL;
  sh_assoc_ent *e = assoc_lookup(a, key, fnv1(key));
  return e ? e->val : NULL;
}

static void assoc_grow(sh_assoc *a) {
  size_t nb = a->nb * 4;
  sh_assoc_ent **b = sh_xcalloc(nb, sizeof *b);
  for (size_t i = 0; i < a->nb; i++) {
    sh_assoc_ent *e = a->b[i];
    while (e) {
      sh_assoc_ent *n = e->next;
      size_t k = e->hash & (nb - 1);
      e->next = b[k];
      b[k] = e;
      e = n;
    }
  }
  free(a->b);
  a->b = b;
  a->nb = nb;
}

void sh_assoc_set(sh_assoc *a, const char *key, char *val) {
  uint32_t h = fnv1(key);
  sh_assoc_ent *e = assoc_lookup(a, key, h);
  if (e) {
    free(e->val);
    e->val = val;
    return;
  }
  if (!a->nb) {
    a->nb = 1024;
    a->b = sh_xcalloc(a->nb, sizeof *a->b);
  }
  if (a->live >= a->nb * 2) assoc_grow(a);
  e = sh_xmalloc(sizeof *e);
  e->key = sh_xstrdup(key);
  e->val = val;
  e->hash = h;
  size_t k = h & (a->nb - 1);
  e->next = a->b[k];
  a->b[k] = e;
  a->live++;
}

bool sh_assoc_unset(sh_assoc *a, const char *key) {
  if (!a || !a->nb) return false;
  uint32_t h = fnv1(key);
  for (sh_assoc_ent **pp = &a->b[h & (a->nb - 1)]; *pp; pp = &(*pp)->next) {
    sh_assoc_ent *e = *pp;
    if (e->hash == h && strcmp(e->key, key) == 0) {
      *pp = e->next;
      free(e->key);
      free(e->val);
      free(e);
      a->live--;
      return true;
    }
  }
  return false;
}

void sh_assoc_free(sh_assoc *a) {
  if (!a) return;
  for (size_t i = 0; i < a->nb; i++) {
    sh_assoc_ent *e = a->b[i];
    while (e) {
      sh_assoc_ent *n = e->next;
      free(e->key);
      free(e->val);
      free(e);
      e = n;
    }
  }
  free(a->b);
  free(a);
}

sh_assoc_ent *sh_assoc_first(const sh_assoc *a) {
  if (!a) return NULL;
  for (size_t i = 0; i < a->nb; i++)
    if (a->b[i]) return a->b[i];
  return NULL;
}

sh_assoc_ent *sh_assoc_next(const sh_assoc *a, const sh_assoc_ent *e) {
  if (e->next) return e->next;
  for (size_t i = (e->hash & (a->nb - 1)) + 1; i < a->nb; i++)
    if (a->b[i]) return a->b[i];
  return NULL;
}

sh_assoc *sh_assoc_copy(const sh_assoc *a) {
  sh_assoc *c = sh_xcalloc(1, sizeof *c);
  if (!a || !a->nb) return c;
  c->nb = a->nb;
  c->live = a->live;
  c->b = sh_xcalloc(c->nb, sizeof *c->b);
  for (size_t i = 0; i < a->nb; i++) {
    sh_assoc_ent **tail = &c->b[i];
    for (sh_assoc_ent *e = a->b[i]; e; e = e->next) {
      sh_assoc_ent *n = sh_xmalloc(sizeof *n);
      n->key = sh_xstrdup(e->key);
      n->val = sh_xstrdup(e->val);
      n->hash = e->hash;
      n->next = NULL;
      *tail = n;
      tail = &n->next;
    }
  }
  return c;
}

/* ---- the table -------------------------------------------------------------------------- */

sh_vars *sh_vars_new(void) {
  sh_vars *v = sh_xcalloc(1, sizeof *v);
  v->nb = 64;
  v->b = sh_xcalloc(v->nb, sizeof *v->b);
  return v;
}

static void var_free_value(sh_var *v) {
  free(v->str);
  v->str = NULL;
  sh_array_free(v->arr);
  v->arr = NULL;
  sh_assoc_free(v->assoc);
  v->assoc = NULL;
}

static void var_free(sh_var *v) {
  while (v) {
    sh_var *s = v->shadow;
    var_free_value(v);
    free(v->name);
    free(v);
    v = s;
  }
}

static sh_var *var_copy1(const sh_var *v) {
  sh_var *c = sh_xcalloc(1, sizeof *c);
  c->name = sh_xstrdup(v->name);
  c->flags = v->flags;
  c->level = v->level;
  if (v->str) c->str = sh_xstrdup(v->str);
  if (v->arr) c->arr = sh_array_copy(v->arr);
  if (v->assoc) c->assoc = sh_assoc_copy(v->assoc);
  return c;
}

sh_vars *sh_vars_copy(const sh_vars *v) {
  sh_vars *c = sh_xcalloc(1, sizeof *c);
  c->nb = v->nb;
  c->n = v->n;
  c->disabled = v->disabled;
  c->exported = v->exported;
  c->b = sh_xcalloc(c->nb, sizeof *c->b);
  for (size_t i = 0; i < v->nb; i++) {
    sh_var **tail = &c->b[i];
    for (sh_var *e = v->b[i]; e; e = e->hnext) {
      sh_var *top = var_copy1(e);
      sh_var *cur = top;
      for (sh_var *s = e->shadow; s; s = s->shadow) {
        cur->shadow = var_copy1(s);
        cur = cur->shadow;
      }
      *tail = top;
      tail = &top->hnext;
    }
  }
  return c;
}

void sh_vars_free(sh_vars *v) {
  if (!v) return;
  for (size_t i = 0; i < v->nb; i++) {
    sh_var *e = v->b[i];
    while (e) {
      sh_var *n = e->hnext;
      var_free(e);
      e = n;
    }
  }
  var_free_value(&v->scratch);
  free(v->scratch.name);
  free(v->b);
  free(v);
}

/* strcmp(a, b) == 0, inline: names are short, and a call costs more. */
static inline bool name_eq(const char *a, const char *b) {
  while (*a && *a == *b) a++, b++;
  return *a == *b;
}

static sh_var **slot_of(sh_vars *v, const char *name) {
  sh_var **pp = &v->b[hash_str(name) & (v->nb - 1)];
  while (*pp && !name_eq((*pp)->name, name)) pp = &(*pp)->hnext;
  return pp;
}

static void vars_grow(sh_vars *v) {
  size_t nb = v->nb * 2;
  sh_var **b = sh_xcalloc(nb, sizeof *b);
  for (size_t i = 0; i < v->nb; i++) {
    sh_var *e = v->b[i];
    while (e) {
      sh_var *n = e->hnext;
      size_t h = hash_str(e->name) & (nb - 1);
      e->hnext = b[h];
      b[h] = e;
      e = n;
    }
  }
  free(v->b);
  v->b = b;
  v->nb = nb;
}

/* Inserts a new top entry for name (shadowing any existing one). */
static sh_var *vars_push(sh_vars *v, const char *name, int level) {
  sh_var **pp = slot_of(v, name);
  sh_var *nv = sh_xcalloc(1, sizeof *nv);
  nv->name = sh_xstrdup(name);
  nv->level = level;
  nv->flags = SH_V_UNSET;
  if (*pp) {
    sh_var *old = *pp;
    nv->hnext = old->hnext;
    old->hnext = NULL;
    nv->shadow = old;
    *pp = nv;
  } else {
    *pp = nv;
    v->n++;
    if (v->n > v->nb * 2) vars_grow(v);
  }
  return nv;
}

/* Removes the top entry for name, revealing its shadow. */
static void vars_pop(sh_vars *v, const char *name) {
  sh_var **pp = slot_of(v, name);
  sh_var *e = *pp;
  if (!e) return;
  if (e->shadow) {
    sh_var *s = e->shadow;
    s->hnext = e->hnext;
    *pp = s;
  } else {
    *pp = e->hnext;
    v->n--;
  }
  e->shadow = NULL;
  var_free(e);
}

/* ---- special variables ---------------------------------------------------------------------- */

enum {
  SP_RANDOM, SP_SECONDS, SP_LINENO, SP_BASHPID, SP_BASH_SUBSHELL, SP_EPOCHSECONDS,
  SP_EPOCHREALTIME, SP_SRANDOM, SP_SHELLOPTS, SP_BASHOPTS, SP_BASH_COMMAND,
  /* the arrays come last */
  SP_FUNCNAME, SP_BASH_SOURCE, SP_BASH_LINENO, SP_PIPESTATUS, SP_DIRSTACK, SP_COUNT
};
static const char *const special_names[SP_COUNT] = {
    "RANDOM", "SECONDS", "LINENO", "BASHPID", "BASH_SUBSHELL", "EPOCHSECONDS",
    "EPOCHREALTIME", "SRANDOM", "SHELLOPTS", "BASHOPTS", "BASH_COMMAND",
    "FUNCNAME", "BASH_SOURCE", "BASH_LINENO", "PIPESTATUS", "DIRSTACK"};

static int special_index(const char *name) {
  switch (name[0]) {
  case 'R': case 'S': case 'L': case 'B': case 'E': case 'F': case 'P': case 'D':
    break;
  default:
    return -1;
  }
  for (int i = 0; i < SP_COUNT; i++)
    if (strcmp(name, special_names[i]) == 0) return i;
  return -1;
}

static int rand15(sh_shell *sh) {
  /* bash's RANDOM: a 31-bit LCG, 15 bits out */
  /* unsigned: a seed from RANDOM=N or a subshell's mix may be any 64-bit value */
  sh->random_state = (int64_t)(((uint64_t)sh->random_state * 1103515245u + 12345u) & 0x7fffffff);
  return (int)((sh->random_state >> 16) & 0x7fff);
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* SHELLOPTS (set -o options that are on) or BASHOPTS (shopt options that are
 * on): their names, sorted, joined by ':' into buf. */
static const char *opts_text(sh_shell *sh, bool shopt, char *buf, size_t bs) {
  const char *names[SH_OPT_COUNT];
  size_t n = 0;
  for (int o = shopt ? SH_SHOPT_FIRST : 0; o < (shopt ? SH_OPT_COUNT : SH_SET_COUNT); o++)
    if (sh->opt[o] && sh_optinfo_table[o].name) names[n++] = sh_optinfo_table[o].name;
  qsort(names, n, sizeof *names, cmp_str);
  size_t len = 0;
  buf[0] = 0;
  for (size_t k = 0; k < n; k++) {
    int w = snprintf(buf + len, bs - len, "%s%s", k ? ":" : "", names[k]);
    if (w < 0 || (size_t)w >= bs - len) break; /* cannot happen: buf holds every name */
    len += (size_t)w;
  }
  return buf;
}

const char *sh_var_dynamic(sh_shell *sh, const char *name) {
  int i = special_index(name);
  if (i < 0 || (sh->vars->disabled & (1u << i))) return NULL;
  char *buf = sh->vars->numbuf;
  size_t bs = sizeof sh->vars->numbuf;
  switch (i) {
  case SP_RANDOM:
    snprintf(buf, bs, "%d", rand15(sh));
    return buf;
  case SP_SRANDOM: {
    uint32_t r = (uint32_t)rand15(sh) << 17 ^ (uint32_t)rand15(sh) << 2 ^ (uint32_t)rand15(sh);
    snprintf(buf, bs, "%u", r);
    return buf;
  }
  case SP_SHELLOPTS: case SP_BASHOPTS:
    return opts_text(sh, i == SP_BASHOPTS, sh->vars->optsbuf, sizeof sh->vars->optsbuf);
  case SP_SECONDS: {
    int64_t now = sh_now_ns();
    snprintf(buf, bs, "%" PRId64, sh->seconds_value + (now - sh->seconds_base) / 1000000000);
    return buf;
  }
  case SP_LINENO:
    snprintf(buf, bs, "%d", sh->lineno);
    return buf;
  case SP_BASH_COMMAND:
    return sh_buf_str(&sh->command_text);
  case SP_BASHPID:
    snprintf(buf, bs, "%" PRId64, sh->pid);
    return buf;
  case SP_BASH_SUBSHELL:
    snprintf(buf, bs, "%d", sh->subshell);
    return buf;
  case SP_EPOCHSECONDS:
    snprintf(buf, bs, "%lld", (long long)time(NULL));
    return buf;
  case SP_EPOCHREALTIME: {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    snprintf(buf, bs, "%lld.%06ld", (long long)ts.tv_sec, ts.tv_nsec / 1000);
    return buf;
  }
  default:
    return NULL;
  }
}

/* A function frame is on the call stack (a sourced file alone is not one:
 * FUNCNAME stays unset there, as in bash). */
static bool in_function(const sh_shell *sh) {
  for (int k = sh->nframes - 1; k >= 1; k--)
    if (strcmp(sh->frames[k].funcname, "source")) return true;
  return false;
}

bool sh_var_dynamic_array(sh_shell *sh, const char *name, sh_strv *out) {
  int i = special_index(name);
  if (i < 0 || (sh->vars->disabled & (1u << i))) return false;
  int first = sh->script_frame ? 0 : 1; /* the "main" frame shows for a script file only */
  switch (i) {
  case SP_FUNCNAME:
    if (!in_function(sh)) return true; /* unset outside functions */
    for (int k = sh->nframes - 1; k >= first; k--) sh_strv_pushdup(out, sh->frames[k].funcname);
    return true;
  case SP_BASH_SOURCE:
    for (int k = sh->nframes - 1; k >= first; k--)
      sh_strv_pushdup(out, sh->frames[k].source ? sh->frames[k].source : "");
    return true;
  case SP_BASH_LINENO:
    for (int k = sh->nframes - 1; k >= first; k--) {
      char b[32];
      snprintf(b, sizeof b, "%d", sh->frames[k].call_line);
      sh_strv_pushdup(out, b);
    }
    return true;
  case SP_DIRSTACK: /* the cwd, then pushd's stack from its top (dirs) */
    sh_strv_pushdup(out, sh->cwd);
    for (size_t k = sh->dirstack.n; k > 0; k--) sh_strv_pushdup(out, sh->dirstack.v[k - 1]);
    return true;
  case SP_PIPESTATUS:
    for (int k = 0; k < sh->npipestatus; k++) {
      char b[32];
      snprintf(b, sizeof b, "%d", sh->pipestatus[k]);
      sh_strv_pushdup(out, b);
    }
    return true;
  default:
    return false;
  }
}

bool sh_var_special_set(sh_shell *sh, const char *name, const char *value) {
  int i = special_index(name);
  if (i < 0 || (sh->vars->disabled & (1u << i))) return false;
  int64_t n = 0;
  switch (i) {
  case SP_RANDOM:
    sh_arith_parse_int(value, &n);
    sh->random_state = n;
    return true;
  case SP_SECONDS:
    sh_arith_parse_int(value, &n);
    sh->seconds_value = n;
    sh->seconds_base = sh_now_ns();
    return true;
  case SP_LINENO: case SP_BASHPID: case SP_BASH_SUBSHELL: case SP_EPOCHSECONDS:
  case SP_EPOCHREALTIME: case SP_SRANDOM: case SP_FUNCNAME: case SP_BASH_SOURCE:
  case SP_BASH_LINENO: case SP_SHELLOPTS: case SP_BASHOPTS: case SP_BASH_COMMAND:
  case SP_DIRSTACK:
    return true; /* assignments are ignored (SHELLOPTS/BASHOPTS: refused before) */
  default:
    return false; /* PIPESTATUS: a normal assignment */
  }
}

/* Materializes a special into the scratch variable. */
static sh_var *special_var(sh_shell *sh, const char *name) {
  int i = special_index(name);
  if (i < 0 || (sh->vars->disabled & (1u << i))) return NULL;
  sh_var *s = &sh->vars->scratch;
  var_free_value(s);
  free(s->name);
  s->name = sh_xstrdup(name);
  s->flags = 0;
  s->level = 0;
  if (i >= SP_FUNCNAME) {
    sh_strv sv = {0};
    sh_var_dynamic_array(sh, name, &sv);
    if (i == SP_FUNCNAME && !in_function(sh)) {
      sh_strv_free(&sv);
      return NULL;
    }
    s->flags = SH_V_ARRAY;
    s->arr = sh_xcalloc(1, sizeof *s->arr);
    for (size_t k = 0; k < sv.n; k++) {
      sh_array_set(s->arr, (int64_t)k, sv.v[k]);
      sv.v[k] = NULL;
    }
    free(sv.v);
    return s;
  }
  const char *val = sh_var_dynamic(sh, name);
  if (i == SP_RANDOM || i == SP_SECONDS || i == SP_LINENO) s->flags |= SH_V_INTEGER;
  if (sh->vars->exported & (1u << i)) s->flags |= SH_V_EXPORT;
  if (i == SP_SHELLOPTS || i == SP_BASHOPTS) s->flags |= SH_V_READONLY;
  s->str = sh_xstrdup(val ? val : "");
  return s;
}

/* ---- lookups ----------------------------------------------------------------------------------- */

sh_var *sh_var_find_noref(sh_shell *sh, const char *name) {
  sh_var *v = *slot_of(sh->vars, name);
  if (v) return v;
  return special_var(sh, name);
}

const char *sh_var_resolve(sh_shell *sh, const char *name) {
  const char *cur = name;
  for (int i = 0; i < 16; i++) {
    sh_var *v = *slot_of(sh->vars, cur);
    if (!v || !(v->flags & SH_V_NAMEREF) || !v->str || !v->str[0]) return cur;
    snprintf(sh->vars->resolved, sizeof sh->vars->resolved, "%s", v->str);
    cur = sh->vars->resolved;
    if (!sh_is_name(cur)) return cur;
  }
  return ""; /* a cycle of namerefs */
}

/* A nameref target of the form name[subscript]. */
static bool is_elem_ref(const char *r) {
  const char *br = strchr(r, '[');
  size_t n = strlen(r);
  return br && br > r && n > 0 && r[n - 1] == ']' && sh_is_name_n(r, (size_t)(br - r));
}

sh_var *sh_var_find(sh_shell *sh, const char *name) {
  sh_var *v = *slot_of(sh->vars, name);
  if (!v) return special_var(sh, name);
  if (!(v->flags & SH_V_NAMEREF)) return v;
  const char *r = sh_var_resolve(sh, name);
  if (!*r) {
    if (sh->script_frame) /* a script file: "FILE: line N: warning: ..." (bash) */
      sh_error(sh, "warning: %s: circular name reference", name);
    else
      sh_errorf_raw(sh, "%s: warning: %s: circular name reference\n", sh->sess->sh_name ? sh->sess->sh_name : "sbx", name);
    return NULL;
  }
  if (!sh_is_name(r)) {
    if (is_elem_ref(r)) return NULL; /* a reference to an array element: caller handles */
    return v; /* not a variable name: the nameref reads as a plain variable (bash) */
  }
  v = *slot_of(sh->vars, r);
  if (!v) return special_var(sh, r);
  return v;
}

bool sh_var_isset(sh_var *v) {
  if (!v || (v->flags & SH_V_UNSET)) return false;
  return true;
}

const char *sh_var_get(sh_shell *sh, const char *name) {
  sh_var *v = sh_var_find(sh, name);
  if (!v || (v->flags & SH_V_UNSET)) return NULL;
  if (v->flags & SH_V_ARRAY) return sh_array_get(v->arr, 0);
  if (v->flags & SH_V_ASSOC) return sh_assoc_get(v->assoc, "0");
  return v->str;
}

/* ---- assignment ---------------------------------------------------------------------------------- */

static int readonly_error(sh_shell *sh, const char *name) {
  sh_error(sh, "%s: readonly variable", name);
  return 1;
}

sh_var *sh_var_get_for_write(sh_shell *sh, const char *name, int flags, int *err) {
  *err = 0;
  sh_vars *vs = sh->vars;
  if (!(flags & SH_SET_LOCAL)) {
    sh_var *top = *slot_of(vs, name);
    if (top && (top->flags & SH_V_NAMEREF)) {
      const char *r = sh_var_resolve(sh, name);
      if (!*r) {
        sh_error(sh, "%s: circular name reference", name);
        *err = 1;
        return NULL;
      }
      if (sh_is_name(r) && strcmp(r, name) != 0) {
        char *rn = sh_xstrdup(r);
        sh_var *v = sh_var_get_for_write(sh, rn, flags, err);
        free(rn);
        return v;
      }
      if (is_elem_ref(r)) {
        /* a whole-array or subscripted assignment through a ref to an element */
        sh_error(sh, "`%s': not a valid identifier", r);
        *err = 1;
        return NULL;
      }
      if (!sh_is_name(r) && top->str && !strcmp(r, top->str))
        top->flags &= ~SH_V_NAMEREF; /* a ref to no variable becomes a plain one (bash) */
    }
    if (top) {
      if ((top->flags & SH_V_READONLY) && !(flags & SH_SET_FORCE)) {
        *err = readonly_error(sh, name);
        return NULL;
      }
      return top;
    }
    return vars_push(vs, name, 0);
  }
  sh_var *top = *slot_of(vs, name);
  if (top && top->level == sh->local_scope) return top;
  if (top && (top->flags & SH_V_READONLY) && !(flags & SH_SET_FORCE)) {
    *err = readonly_error(sh, name);
    return NULL;
  }
  return vars_push(vs, name, sh->local_scope);
}

static char *apply_case(uint32_t flags, char *s) {
  if (flags & SH_V_UPPER) {
    for (char *p = s; *p; p++)
      if (*p >= 'a' && *p <= 'z') *p = (char)(*p - 32);
  } else if (flags & SH_V_LOWER) {
    for (char *p = s; *p; p++)
      if (*p >= 'A' && *p <= 'Z') *p = (char)(*p + 32);
  } else if (flags & SH_V_CAPITAL) {
    for (char *p = s; *p; p++)
      if (*p >= 'A' && *p <= 'Z') *p = (char)(*p + 32);
    if (*s >= 'a' && *s <= 'z') *s = (char)(*s - 32);
  }
  return s;
}

/* Copies value (n bytes and its NUL) into block, a malloc'd string the
 * caller may overwrite, when it fits and the block is not more than twice
 * what the value needs: a loop assigning numbers reuses one block instead of
 * a malloc and a free per assignment. Returns block, or NULL when it does
 * not qualify. */
static char *reuse_block(char *block, const char *value, size_t n) {
  if (!block) return NULL;
  size_t room = malloc_usable_size(block);
  if (n >= room || room > 2 * n + 64) return NULL;
  memmove(block, value, n + 1);
  return block;
}

/* The value to store for `value` given the variable's attributes and the
 * old value (for +=). NULL on an arithmetic error. `block`: the current
 * value's string when the result may be written over it (see reuse_block),
 * else NULL; the result is then that string. */
static char *attr_value(sh_shell *sh, uint32_t flags, const char *old, const char *value,
                        bool append, char *block) {
  if (flags & SH_V_INTEGER) {
    int64_t n;
    if (sh_arith_eval(sh, value, &n)) return NULL;
    if (append && old) {
      int64_t o = 0;
      if (sh_arith_eval(sh, old, &o)) o = 0;
      n = (int64_t)((uint64_t)o + (uint64_t)n);
    }
    return sh_xasprintf("%" PRId64, n);
  }
  char *r;
  if (append && old) {
    size_t a = strlen(old), b = strlen(value);
    if (sh_check_size(sh, a + b)) return NULL;
    r = sh_xmalloc(a + b + 1);
    memcpy(r, old, a);
    memcpy(r + a, value, b + 1);
  } else {
    size_t n = strlen(value);
    if (sh_check_size(sh, n)) return NULL;
    r = reuse_block(block, value, n);
    if (!r) r = sh_xstrndup(value, n);
  }
  return apply_case(flags, r);
}

/* LC_ALL, LC_CTYPE or LANG changed: C and POSIX make strings bytes. */
static void locale_update(sh_shell *sh) {
  const char *v = NULL;
  static const char *const names[] = {"LC_ALL", "LC_CTYPE", "LANG"};
  for (int i = 0; i < 3 && !v; i++) {
    sh_var *x = *slot_of(sh->vars, names[i]);
    if (x && x->str && *x->str && !(x->flags & SH_V_UNSET)) v = x->str;
  }
  sh->bytes_locale = v && (!strcmp(v, "C") || !strcmp(v, "POSIX"));
  sh_locale_bytes = sh->bytes_locale;
}

static bool is_locale_var(const char *n) {
  return (n[0] == 'L') && (!strcmp(n, "LC_ALL") || !strcmp(n, "LC_CTYPE") || !strcmp(n, "LANG"));
}

int sh_var_assign(sh_shell *sh, sh_var *v, const char *value, bool append) {
  if (v->flags & SH_V_ARRAY) return sh_var_set_index(sh, v, 0, value, append);
  if (v->flags & SH_V_ASSOC) return sh_var_set_key(sh, v, "0", value, append);
  char *old = (v->flags & SH_V_UNSET) ? NULL : v->str;
  char *nv = attr_value(sh, v->flags, old, value, append, old);
  if (!nv) return 1;
  if (nv != v->str) free(v->str);
  v->str = nv;
  v->flags &= ~SH_V_UNSET;
  if (sh->opt[SH_OPT_ALLEXPORT]) v->flags |= SH_V_EXPORT;
  if (v->name[0] == 'H' && (!strcmp(v->name, "HISTSIZE") || !strcmp(v->name, "HISTFILESIZE")))
    sh_hist_var_changed(sh, v->name);
  else if (v->name[0] == 'P' && !strcmp(v->name, "PATH"))
    sh_map_free(&sh->hashed, sh_hash_free_entry); /* bash forgets the hashed paths */
  else if (is_locale_var(v->name))
    locale_update(sh);
  return 0;
}

int sh_assign_ref_elem(sh_shell *sh, const char *ref, const char *value, bool append);

int sh_var_set(sh_shell *sh, const char *name, const char *value, int flags) {
  sh_var *top = *slot_of(sh->vars, name);
  if (!top) {
    int sp = special_index(name);
    if ((sp == SP_SHELLOPTS || sp == SP_BASHOPTS) && !(sh->vars->disabled & (1u << sp)))
      return readonly_error(sh, name); /* bash keeps them readonly */
    if (!(flags & SH_SET_LOCAL) && sh_var_special_set(sh, name, value)) return 0;
  }
  if (!(flags & SH_SET_LOCAL) && top && (top->flags & SH_V_NAMEREF)) {
    const char *r = sh_var_resolve(sh, name);
    if (is_elem_ref(r)) {
      char *rc = sh_xstrdup(r);
      int e = sh_assign_ref_elem(sh, rc, value, (flags & SH_SET_APPEND) != 0);
      free(rc);
      return e;
    }
  }
  int err;
  /* a plain global that exists is its own target (what sh_var_get_for_write
   * returns for it, without a second lookup) */
  sh_var *v = !(flags & SH_SET_LOCAL) && top && !(top->flags & (SH_V_NAMEREF | SH_V_READONLY))
                  ? top
                  : sh_var_get_for_write(sh, name, flags, &err);
  if (!v) return err;
  if (flags & SH_SET_NOATTR) {
    free(v->str);
    v->str = sh_xstrdup(value);
    v->flags &= ~SH_V_UNSET;
    return 0;
  }
  return sh_var_assign(sh, v, value, (flags & SH_SET_APPEND) != 0);
}

int sh_var_set_index(sh_shell *sh, sh_var *v, int64_t idx, const char *value, bool append) {
  if (idx < 0 && !(v->flags & (SH_V_READONLY | SH_V_ASSOC))) {
    if (!(v->flags & SH_V_ARRAY)) sh_var_make_array(v);
    int64_t from_end = sh_array_from_end(v->arr, idx);
    if (from_end < 0) {
      sh_error(sh, "%s[%" PRId64 "]: bad array subscript", v->name, idx);
      return 1;
    }
    idx = from_end;
  }
  return sh_var_store_index(sh, v, idx, value, append);
}

/* The new value of an element of array or assoc v (`old`: its value, NULL
 * for a new element, of which v has `count`), as attributes make it; NULL
 * after an error or at the array-size limit. */
static char *element_value(sh_shell *sh, sh_var *v, const char *old, const char *value, bool append,
                           size_t count) {
  char *nv = attr_value(sh, v->flags, old, value, append, NULL);
  if (nv && !old && count >= sh->sess->limits.array_size) {
    free(nv);
    sh_limit_hit(sh, SH_LIMIT_ARRAY, sh->sess->limits.array_size);
    return NULL;
  }
  return nv;
}

int sh_var_store_index(sh_shell *sh, sh_var *v, int64_t idx, const char *value, bool append) {
  if (v->flags & SH_V_READONLY) return readonly_error(sh, v->name);
  if (v->flags & SH_V_ASSOC) {
    char k[32];
    snprintf(k, sizeof k, "%" PRId64, idx);
    return sh_var_set_key(sh, v, k, value, append);
  }
  if (!(v->flags & SH_V_ARRAY)) sh_var_make_array(v);
  const char *old = sh_array_get(v->arr, idx);
  char *nv = element_value(sh, v, old, value, append, v->arr->n);
  if (!nv) return 1;
  sh_array_set(v->arr, idx, nv);
  v->flags &= ~SH_V_UNSET;
  return 0;
}

int sh_var_set_key(sh_shell *sh, sh_var *v, const char *key, const char *value, bool append) {
  if (v->flags & SH_V_READONLY) return readonly_error(sh, v->name);
  if (!(v->flags & SH_V_ASSOC)) sh_var_make_assoc(v);
  const char *old = sh_assoc_get(v->assoc, key);
  char *nv = element_value(sh, v, old, value, append, v->assoc->live);
  if (!nv) return 1;
  sh_assoc_set(v->assoc, key, nv);
  v->flags &= ~SH_V_UNSET;
  return 0;
}

void sh_var_make_array(sh_var *v) {
  if (v->flags & SH_V_ARRAY) return;
  sh_array *a = sh_xcalloc(1, sizeof *a);
  if (v->str && !(v->flags & SH_V_UNSET)) {
    sh_array_set(a, 0, v->str);
    v->str = NULL;
  }
  free(v->str);
  v->str = NULL;
  sh_assoc_free(v->assoc);
  v->assoc = NULL;
  v->arr = a;
  v->flags = (v->flags & ~SH_V_ASSOC) | SH_V_ARRAY;
}

void sh_var_reset_indexed(sh_var *v) {
  sh_array_free(v->arr);
  v->arr = NULL;
  free(v->str);
  v->str = NULL;
  v->flags &= ~SH_V_ARRAY;
  sh_var_make_array(v);
}

void sh_var_make_assoc(sh_var *v) {
  if (v->flags & SH_V_ASSOC) return;
  sh_assoc *a = sh_xcalloc(1, sizeof *a);
  if (v->str && !(v->flags & SH_V_UNSET)) {
    sh_assoc_set(a, "0", v->str);
    v->str = NULL;
  }
  free(v->str);
  v->str = NULL;
  sh_array_free(v->arr);
  v->arr = NULL;
  v->assoc = a;
  v->flags = (v->flags & ~SH_V_ARRAY) | SH_V_ASSOC;
}

void sh_var_attr_letters(const sh_var *v, char *out) {
  static const struct {
    uint32_t flag; /* SH_V_* */
    char letter;   /* declare's option for it */
  } attrs[] = {{SH_V_ARRAY, 'a'}, {SH_V_ASSOC, 'A'},   {SH_V_INTEGER, 'i'},
               {SH_V_LOWER, 'l'}, {SH_V_NAMEREF, 'n'}, {SH_V_READONLY, 'r'},
               {SH_V_TRACE, 't'}, {SH_V_UPPER, 'u'},   {SH_V_EXPORT, 'x'}};
  int n = 0;
  for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++)
    if (v->flags & attrs[i].flag) out[n++] = attrs[i].letter;
  out[n] = 0;
}

void sh_var_clear_value(sh_var *v) {
  var_free_value(v);
  if (v->flags & SH_V_ARRAY) v->arr = sh_xcalloc(1, sizeof *v->arr);
  if (v->flags & SH_V_ASSOC) v->assoc = sh_xcalloc(1, sizeof *v->assoc);
}

int sh_var_unset(sh_shell *sh, const char *name, bool noref) {
  sh_vars *vs = sh->vars;
  const char *target = name;
  if (!noref) target = sh_var_resolve(sh, name);
  if (!sh_is_name(target)) return 0;
  char tname[256];
  snprintf(tname, sizeof tname, "%s", target);
  sh_var *v = *slot_of(vs, tname);
  int sp = special_index(tname);
  if (!v) {
    if ((sp == SP_SHELLOPTS || sp == SP_BASHOPTS) && !(vs->disabled & (1u << sp))) {
      sh_error(sh, "unset: %s: cannot unset: readonly variable", tname);
      return 1;
    }
    if (sp >= 0) vs->disabled |= 1u << sp;
    return 0;
  }
  if (v->flags & SH_V_READONLY) {
    sh_error(sh, "unset: %s: cannot unset: readonly variable", tname);
    return 1;
  }
  if (sp >= 0) vs->disabled |= 1u << sp;
  if (v->level > 0 && v->level == sh->local_scope && !(v->flags & SH_V_TEMP)) {
    /* a local of the current function stays local, but unset */
    var_free_value(v);
    v->flags = (v->flags & ~(SH_V_ARRAY | SH_V_ASSOC | SH_V_NAMEREF | SH_V_EXPORT)) | SH_V_UNSET;
    return 0;
  }
  vars_pop(vs, tname);
  if (is_locale_var(tname)) locale_update(sh);
  return 0;
}

int sh_var_unset_index(sh_shell *sh, sh_var *v, int64_t idx) {
  if (v->flags & SH_V_READONLY) {
    sh_error(sh, "unset: %s: cannot unset: readonly variable", v->name);
    return 1;
  }
  if (!(v->flags & SH_V_ARRAY)) {
    if (idx == 0 || idx == -1) {
      free(v->str);
      v->str = NULL;
      v->flags |= SH_V_UNSET;
    }
    return 0;
  }
  if (idx < 0) {
    int64_t from_end = sh_array_from_end(v->arr, idx);
    if (from_end < 0) {
      sh_error(sh, "unset: [%" PRId64 "]: bad array subscript", idx);
      return 1;
    }
    idx = from_end;
  }
  sh_array_unset(v->arr, idx);
  return 0;
}

int sh_var_unset_key(sh_shell *sh, sh_var *v, const char *key) {
  if (v->flags & SH_V_READONLY) {
    sh_error(sh, "unset: %s: cannot unset: readonly variable", v->name);
    return 1;
  }
  if (v->flags & SH_V_ASSOC) sh_assoc_unset(v->assoc, key);
  return 0;
}

/* ---- scopes --------------------------------------------------------------------------------------- */

void sh_vars_push_scope(sh_shell *sh) { sh->local_scope++; }

void sh_vars_pop_scope(sh_shell *sh) {
  sh_vars *vs = sh->vars;
  int level = sh->local_scope;
  for (size_t i = 0; i < vs->nb; i++) {
    sh_var **pp = &vs->b[i];
    while (*pp) {
      sh_var *e = *pp;
      if (e->level >= level && e->level > 0) {
        /* pop (possibly several levels) */
        sh_var *s = e->shadow;
        e->shadow = NULL;
        sh_var *nx = e->hnext;
        var_free(e);
        while (s && s->level >= level && s->level > 0) {
          sh_var *s2 = s->shadow;
          s->shadow = NULL;
          var_free(s);
          s = s2;
        }
        if (s) {
          s->hnext = nx;
          *pp = s;
          pp = &s->hnext;
        } else {
          *pp = nx;
          vs->n--;
        }
        continue;
      }
      pp = &e->hnext;
    }
  }
  sh->local_scope--;
  locale_update(sh);
}

sh_var *sh_var_make_local(sh_shell *sh, const char *name) {
  sh_var *top = *slot_of(sh->vars, name);
  if (top && top->level == sh->local_scope) return top;
  sh_var *v = vars_push(sh->vars, name, sh->local_scope);
  /* bash: a new local inherits nothing but is unset */
  return v;
}

/* ---- listing ----------------------------------------------------------------------------------------- */

static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return x < y ? -1 : x > y;
}

void sh_var_values(sh_shell *sh, sh_var *v, sh_strv *out) {
  (void)sh;
  (void)cmp_i64;
  if (!v || (v->flags & SH_V_UNSET)) return;
  if (v->flags & SH_V_ARRAY) {
    for (size_t i = 0; i < v->arr->n; i++) sh_strv_pushdup(out, v->arr->val[i]);
  } else if (v->flags & SH_V_ASSOC) {
    for (sh_assoc_ent *e = sh_assoc_first(v->assoc); e; e = sh_assoc_next(v->assoc, e))
      sh_strv_pushdup(out, e->val);
  } else if (v->str) {
    sh_strv_pushdup(out, v->str);
  }
}

void sh_var_keys(sh_shell *sh, sh_var *v, sh_strv *out) {
  (void)sh;
  if (!v || (v->flags & SH_V_UNSET)) return;
  if (v->flags & SH_V_ARRAY) {
    for (size_t i = 0; i < v->arr->n; i++)
      sh_strv_push(out, sh_xasprintf("%" PRId64, v->arr->idx[i]));
  } else if (v->flags & SH_V_ASSOC) {
    for (sh_assoc_ent *e = sh_assoc_first(v->assoc); e; e = sh_assoc_next(v->assoc, e))
      sh_strv_pushdup(out, e->key);
  } else if (v->str) {
    sh_strv_pushdup(out, "0");
  }
}

size_t sh_var_count(sh_var *v) {
  if (!v || (v->flags & SH_V_UNSET)) return 0;
  if (v->flags & SH_V_ARRAY) return v->arr->n;
  if (v->flags & SH_V_ASSOC) return v->assoc->live;
  return v->str ? 1 : 0;
}

const char **sh_vars_names(sh_shell *sh, size_t *n) {
  sh_vars *vs = sh->vars;
  const char **out = sh_xmalloc((vs->n + 1) * sizeof *out);
  size_t k = 0;
  for (size_t i = 0; i < vs->nb; i++)
    for (sh_var *e = vs->b[i]; e; e = e->hnext) out[k++] = e->name;
  qsort(out, k, sizeof *out, cmp_str);
  *n = k;
  return out;
}

void sh_vars_environ(sh_shell *sh, sh_strv *out) {
  size_t n;
  const char **names = sh_vars_names(sh, &n);
  for (size_t i = 0; i < n; i++) {
    sh_var *v = *slot_of(sh->vars, names[i]);
    if (!(v->flags & SH_V_EXPORT) || (v->flags & SH_V_UNSET)) continue;
    if (v->flags & (SH_V_ARRAY | SH_V_ASSOC)) continue; /* bash does not export arrays */
    if (!v->str) continue; /* an exported nameref exports its own value (bash) */
    sh_strv_push(out, sh_xasprintf("%s=%s", v->name, v->str));
  }
  free(names);
  /* exported computed variables (SHELLOPTS...) with their current values */
  for (int i = 0; i < SP_FUNCNAME; i++)
    if ((sh->vars->exported & (1u << i)) && !(sh->vars->disabled & (1u << i))) {
      const char *val = sh_var_dynamic(sh, special_names[i]);
      if (val) sh_strv_push(out, sh_xasprintf("%s=%s", special_names[i], val));
    }
  sh_funcs_environ(sh, out);
}

bool sh_var_special_export(sh_shell *sh, const char *name, bool on) {
  int i = special_index(name);
  if (i < 0 || i >= SP_FUNCNAME) return false;
  if (on) sh->vars->exported |= 1u << i;
  else sh->vars->exported &= ~(1u << i);
  return true;
}

/* ---- defaults ---------------------------------------------------------------------------------------- */

void sh_vars_init_defaults(sh_shell *sh) {
  struct { const char *n, *v; uint32_t f; } d[] = {
      {"IFS", " \t\n", 0},
      {"PS4", "+ ", 0},
      {"OPTIND", "1", 0},
      {"OPTERR", "1", 0},
      {"BASH", "/bin/bash", 0},
      {"BASH_VERSION", "5.2.15(1)-release", 0},
      {"HOSTNAME", "sandbox", 0},
      {"HOSTTYPE", "x86_64", 0},
      {"OSTYPE", "linux-gnu", 0},
      {"MACHTYPE", "x86_64-pc-linux-gnu", 0},
      {"SHELL", "/bin/bash", 0},
      {"SHLVL", "1", SH_V_EXPORT},
      {"PPID", "1", SH_V_READONLY | SH_V_INTEGER},
      {"UID", "0", SH_V_READONLY | SH_V_INTEGER},
      {"EUID", "0", SH_V_READONLY | SH_V_INTEGER},
      {"HISTFILESIZE", "500", 0},
      {"TERM", "dumb", 0},
  };
  for (size_t i = 0; i < sizeof d / sizeof d[0]; i++) {
    sh_var_set(sh, d[i].n, d[i].v, SH_SET_FORCE);
    sh_var *v = *slot_of(sh->vars, d[i].n);
    if (v) v->flags |= d[i].f;
  }
  sh_var *vi = vars_push(sh->vars, "BASH_VERSINFO", 0);
  sh_var_make_array(vi);
  const char *parts[] = {"5", "2", "15", "1", "release", "x86_64-pc-linux-gnu"};
  for (int i = 0; i < 6; i++) sh_array_set(vi->arr, i, sh_xstrdup(parts[i]));
  vi->flags = SH_V_ARRAY | SH_V_READONLY;
}
