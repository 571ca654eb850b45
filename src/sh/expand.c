/*
 * expand.c - word expansion (expand.h).
 *
 * A word expands into fields built character by character with a parallel
 * flag byte per character: XQ for quoted characters (never split, never glob
 * special) and XS for characters produced by an unquoted expansion (subject to
 * IFS splitting). Unquoted literal text has neither. "$@" and "${a[@]}" break
 * fields. After all parts are expanded, fields are split on XS characters in
 * IFS, then each piece with an unquoted glob character is matched against the
 * store; quote removal is implicit (quotes never enter the buffers).
 *
 * Brace expansion runs first, on the parsed word: literal characters become
 * atoms and every other part one opaque atom, so {a,$x} works and quoted
 * braces stay literal. The number of words it may produce is bounded by the
 * array-size limit ({1..100000000} ends with a limit error, not 100 M words).
 */
#include "sh/expand.h"

#include <locale.h>
#include <pthread.h>
#include <wchar.h>
#include <wctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "re/re.h"
#include "sh/arith.h"
#include "sh/builtins.h"
#include "sh/glob.h"
#include "sh/parse.h"
#include "sh/vars.h"

#define XQ 1 /* quoted */
#define XS 2 /* from an unquoted expansion: split on IFS */
#define XE 4 /* a NUL standing for an empty quoted string ("" or '') */


typedef struct xfield {
  sh_buf s;     /* characters */
  sh_buf q;     /* one flag byte per character */
  bool quoted;  /* contains quoted text (an empty field survives) */
} xfield;

typedef struct xs {
  sh_shell *sh;
  xfield *f;    /* fields; the last one is being built (&f0 until a second) */
  size_t nf, cap;
  xfield f0;    /* the first field: most words make one, with no allocation */
  int flags;    /* SH_XF_* */
  bool err;
  int depth;    /* nesting of expansions inside expansions */
  bool assign_word; /* an argument shaped like NAME=value: tildes after = and : */
  bool string_ctx;  /* expanding to one string (assignment, <<<, case word, [[ ]]) */
  size_t list_elems; /* elements emitted by list expansions ($@, a[@]) */
} xs;

static void xs_init(xs *x, sh_shell *sh, int flags) {
  memset(x, 0, sizeof *x);
  x->sh = sh;
  x->flags = flags;
  x->cap = 1;
  x->f = &x->f0;
  x->nf = 1;
}

static void xs_free(xs *x) {
  for (size_t i = 0; i < x->nf; i++) {
    sh_buf_free(&x->f[i].s);
    sh_buf_free(&x->f[i].q);
  }
  if (x->f != &x->f0) free(x->f);
  x->f = NULL;
}

static xfield *cur(xs *x) { return &x->f[x->nf - 1]; }

static void xadd(xs *x, const char *s, size_t n, char flag);

static void add_empty_mark(xs *x) {
  xadd(x, "", 1, XQ | XE);
  cur(x)->quoted = true;
}

/* A string of n bytes would pass the string-size limit: reports it. */
static bool over_string_limit(sh_shell *sh, size_t n) {
  if (n <= sh->sess->limits.string_size) return false;
  sh_limit_hit(sh, SH_LIMIT_STRING, sh->sess->limits.string_size);
  return true;
}

static void xadd(xs *x, const char *s, size_t n, char flag) {
  xfield *f = cur(x);
  if (x->err) return;
  if (over_string_limit(x->sh, f->s.len + n)) {
    x->err = true;
    return;
  }
  sh_buf_add(&f->s, s, n);
  sh_buf_reserve(&f->q, n);
  memset(f->q.data + f->q.len, flag, n);
  f->q.len += n;
  f->q.data[f->q.len] = 0;
}

static void xbreak(xs *x) {
  if (x->nf == x->cap) {
    x->cap *= 4;
    if (x->f == &x->f0) {
      x->f = sh_xmalloc(x->cap * sizeof *x->f);
      x->f[0] = x->f0;
    } else {
      x->f = sh_xrealloc(x->f, x->cap * sizeof *x->f);
    }
  }
  memset(&x->f[x->nf], 0, sizeof x->f[x->nf]);
  x->nf++;
}

/* ---- helpers ---------------------------------------------------------------------------- */

/* The length of the run of ASCII bytes at s (n bytes left), at most max,
 * eight at a time: ${#x} and ${x:off} on megabytes of text. */
static size_t ascii_run(const char *s, size_t n, size_t max) {
  size_t i = 0;
  if (max < n) n = max;
  for (uint64_t w; i + 8 <= n; i += 8) {
    memcpy(&w, s + i, 8);
    if (w & 0x8080808080808080u) break;
  }
  while (i < n && !((unsigned char)s[i] & 0x80)) i++;
  return i;
}

size_t sh_utf8_len(const char *s, size_t n) {
  if (sh_locale_bytes) return n;
  size_t count = 0;
  for (size_t i = 0; i < n; count++) {
    size_t a = ascii_run(s + i, n - i, SIZE_MAX);
    if (a) {
      i += a;
      count += a - 1;
      continue;
    }
    i += sh_utf8_seq_len(s + i, n - i);
  }
  return count;
}

/* Byte offset of character index ci (clamped to n). */
static size_t utf8_offset(const char *s, size_t n, size_t ci) {
  if (sh_locale_bytes) return ci < n ? ci : n;
  size_t i = 0;
  while (ci > 0 && i < n) {
    size_t a = ascii_run(s + i, n - i, ci);
    if (a) {
      i += a;
      ci -= a;
      continue;
    }
    i += sh_utf8_seq_len(s + i, n - i);
    ci--;
  }
  return i;
}

static const char *ifs_value(sh_shell *sh) {
  const char *ifs = sh_var_get(sh, "IFS");
  sh_var *v = sh_var_find(sh, "IFS");
  if (!v || !sh_var_isset(v)) return " \t\n";
  return ifs ? ifs : "";
}

static bool is_ifs_ws(char c) { return c == ' ' || c == '\t' || c == '\n'; }

/* ---- tilde -------------------------------------------------------------------------------- */

static char *tilde_value(sh_shell *sh, const char *user, size_t n) {
  if (n == 0) {
    const char *h = sh_var_get(sh, "HOME");
    return sh_xstrdup(h ? h : "/root");
  }
  if (n == 1 && user[0] == '+') {
    const char *p = sh_var_get(sh, "PWD");
    return p ? sh_xstrdup(p) : NULL;
  }
  if (n == 1 && user[0] == '-') {
    const char *p = sh_var_get(sh, "OLDPWD");
    return p ? sh_xstrdup(p) : NULL;
  }
  if (n == 4 && memcmp(user, "root", 4) == 0) return sh_xstrdup("/root");
  return NULL;
}

/* Expands a tilde prefix at s[0] == '~' of an unquoted literal of length n.
 * `whole` says the literal is the rest of the word (or of the assignment
 * element). Returns the number of bytes consumed (0: no expansion). */
static size_t do_tilde(xs *x, const char *s, size_t n, bool whole, const char *stops) {
  size_t i = 1;
  while (i < n && !strchr(stops, s[i])) i++;
  if (i == n && !whole) return 0;
  char *v = tilde_value(x->sh, s + 1, i - 1);
  if (!v) return 0;
  xadd(x, v, strlen(v), XQ);
  cur(x)->quoted = true;
  free(v);
  return i;
}

/* ---- forward declarations ------------------------------------------------------------------- */

static void x_parts(xs *x, const sh_part *p, bool in_dq, char litflag);
static char *expand_to_string(sh_shell *sh, const sh_word *w, int flags, bool *err);

/* ---- parameter expansion --------------------------------------------------------------------- */

typedef struct pval {
  bool list;       /* a list ($@, $*, a[@], a[*]) */
  char lchar;      /* '@' or '*' */
  sh_strv v;       /* list values */
  int64_t *idx;    /* list indices (arrays) or NULL */
  char *s;         /* scalar value or NULL when unset */
  bool from_params;/* the list is the positional parameters (slicing includes $0) */
  bool from_assoc; /* an associative array's values (slicing counts them from 1) */
  bool from_scalar;/* x[@] of a scalar x (slicing takes characters, as of $x) */
} pval;

static void pval_free(pval *pv) {
  sh_strv_free(&pv->v);
  free(pv->idx);
  free(pv->s);
  memset(pv, 0, sizeof *pv);
}

static bool pval_set(const pval *pv) { return pv->list ? pv->v.n > 0 : pv->s != NULL; }

/* The values of pv to rewrite in place (*n of them): the list's, or the
 * scalar's (none when unset). */
static char **pval_values(pval *pv, size_t *n) {
  *n = pv->list ? pv->v.n : (pv->s ? 1 : 0);
  return pv->list ? pv->v.v : &pv->s;
}

static char *join_list(sh_shell *sh, const sh_strv *v, char lchar) {
  const char *ifs = ifs_value(sh);
  sh_buf b = {0};
  for (size_t i = 0; i < v->n; i++) {
    if (i) {
      if (lchar == '*') {
        if (*ifs) sh_buf_addc(&b, ifs[0]);
      } else {
        sh_buf_addc(&b, ' ');
      }
    }
    sh_buf_adds(&b, v->v[i]);
  }
  return sh_buf_steal(&b);
}

/* set -u: "NAME: unbound variable" and the end of the shell; `status` is the
 * exit status, or -1 for sh_expansion_error_status's. */
static bool unbound_check_status(xs *x, const char *name, int status) {
  if (!x->sh->opt[SH_OPT_NOUNSET]) return false;
  sh_error(x->sh, "%s: unbound variable", name);
  x->err = true;
  sh_fatal_exit(x->sh, status >= 0 ? status : sh_expansion_error_status(x->sh));
  return true;
}

static bool unbound_check(xs *x, const char *name) { return unbound_check_status(x, name, -1); }

/* Evaluates a subscript word as arithmetic. */
static bool subscript_index(xs *x, const sh_word *w, int64_t *out) {
  bool err = false;
  char *t = expand_to_string(x->sh, w, 0, &err);
  if (err || !t) {
    free(t);
    x->err = true;
    return false;
  }
  if (!*t) {
    /* ${a[]} */
    sh_error(x->sh, "%s: bad array subscript", "");
    free(t);
    x->err = true;
    return false;
  }
  int r = sh_arith_eval(x->sh, t, out);
  free(t);
  if (r) {
    x->err = true;
    return false;
  }
  return true;
}

static void get_var_value(xs *x, const char *name, const sh_word *index, char index_all, pval *pv);

/* Parses "name", "name[sub]" or a special from text (for ${!ref}). */
static void get_ref_value(xs *x, const char *ref, pval *pv) {
  const char *br = strchr(ref, '[');
  if (br && ref[strlen(ref) - 1] == ']' && sh_is_name_n(ref, (size_t)(br - ref))) {
    char *name = sh_xstrndup(ref, (size_t)(br - ref));
    size_t sl = strlen(br + 1) - 1;
    if (sl == 1 && (br[1] == '@' || br[1] == '*')) {
      get_var_value(x, name, NULL, br[1], pv);
    } else {
      sh_arena *a = sh_arena_new();
      char *err = NULL;
      sh_word *w = sh_parse_word_string(a, br + 1, sl, x->sh->lineno, &err);
      /* no tilde expansion in a subscript, as in ${a[~]} (bash 5: a[~+]
       * is an arithmetic error, not $PWD) */
      if (w && w->parts && w->parts->kind == SH_PART_LIT) w->parts->kind = SH_PART_QLIT;
      if (w) get_var_value(x, name, w, 0, pv);
      else x->err = true;
      free(err);
      sh_arena_unref(a);
    }
    free(name);
    return;
  }
  get_var_value(x, ref, NULL, 0, pv);
}

static void get_var_value(xs *x, const char *name, const sh_word *index, char index_all, pval *pv) {
  sh_shell *sh = x->sh;
  memset(pv, 0, sizeof *pv);
  char c = name[0];
  if (!name[1] || (c >= '0' && c <= '9')) {
    if (c == '@' || c == '*') {
      pv->list = true;
      pv->lchar = c;
      pv->from_params = true;
      for (size_t i = 0; i < sh->params.n; i++) sh_strv_pushdup(&pv->v, sh->params.v[i]);
      return;
    }
    char buf[SH_I64_LEN];
    switch (c) {
    case '#':
      sh_fmt_i64(buf, (int64_t)sh->params.n);
      pv->s = sh_xstrdup(buf);
      return;
    case '?':
      sh_fmt_i64(buf, sh->status);
      pv->s = sh_xstrdup(buf);
      return;
    case '-':
      pv->s = sh_opt_flags(sh);
      return;
    case '$':
      snprintf(buf, sizeof buf, "%" PRId64, sh->dollar_pid);
      pv->s = sh_xstrdup(buf);
      return;
    case '!':
      if (sh->last_bg) {
        snprintf(buf, sizeof buf, "%" PRId64, sh->last_bg);
        pv->s = sh_xstrdup(buf);
      }
      return;
    case '_':
      if (!name[1]) {
        pv->s = sh_xstrdup(sh->last_arg ? sh->last_arg : "");
        return;
      }
      break;
    default:
      if (c >= '0' && c <= '9') {
        long n = strtol(name, NULL, 10);
        if (n == 0) pv->s = sh_xstrdup(sh->arg0 ? sh->arg0 : "sbx");
        else if ((size_t)n <= sh->params.n) pv->s = sh_xstrdup(sh->params.v[n - 1]);
        return;
      }
    }
  }
  sh_var *v = sh_var_find(sh, name);
  if (!v) {
    /* a nameref to an array element: name -> "a[1]" ($ref reads through it;
     * ${ref[@]} and ${ref[0]} are nothing, as bash) */
    sh_var *r = sh_var_find_noref(sh, name);
    if (r && (r->flags & SH_V_NAMEREF) && r->str && strchr(r->str, '[') && !index && !index_all) {
      const char *target = sh_var_resolve(sh, name);
      char *t = sh_xstrdup(target);
      get_ref_value(x, t, pv);
      free(t);
    }
    if (index_all) {
      pv->list = true;
      pv->lchar = index_all;
    }
    return;
  }
  if (index_all) {
    pv->list = true;
    pv->lchar = index_all;
    if (v->flags & SH_V_UNSET) return;
    if (v->flags & SH_V_ARRAY) {
      pv->idx = sh_xmalloc((v->arr->n + 1) * sizeof *pv->idx);
      for (size_t i = 0; i < v->arr->n; i++) {
        pv->idx[i] = v->arr->idx[i];
        sh_strv_pushdup(&pv->v, v->arr->val[i]);
      }
    } else if (v->flags & SH_V_ASSOC) {
      pv->from_assoc = true;
      for (sh_assoc_ent *e = sh_assoc_first(v->assoc); e; e = sh_assoc_next(v->assoc, e))
        sh_strv_pushdup(&pv->v, e->val);
    } else if (v->str) {
      pv->from_scalar = true;
      sh_strv_pushdup(&pv->v, v->str);
    }
    return;
  }
  if (index) {
    if (v->flags & SH_V_ASSOC) {
      bool err = false;
      char *key = expand_to_string(sh, index, 0, &err);
      if (err) {
        x->err = true;
        free(key);
        return;
      }
      const char *val = sh_assoc_get(v->assoc, key);
      free(key);
      if (val) pv->s = sh_xstrdup(val);
      return;
    }
    int64_t idx;
    if (!subscript_index(x, index, &idx)) return;
    if (v->flags & SH_V_ARRAY) {
      if (idx < 0) {
        int64_t from_end = sh_array_from_end(v->arr, idx);
        if (from_end < 0) {
          sh_error(sh, "%s: bad array subscript", name);
          return;
        }
        idx = from_end;
      }
      const char *val = sh_array_get(v->arr, idx);
      if (val) pv->s = sh_xstrdup(val);
    } else if ((idx == 0 || idx == -1) && !(v->flags & SH_V_UNSET) && v->str) {
      pv->s = sh_xstrdup(v->str);
    }
    return;
  }
  if (v->flags & SH_V_UNSET) return;
  const char *val = v->flags & SH_V_ARRAY   ? sh_array_get(v->arr, 0)
                    : v->flags & SH_V_ASSOC ? sh_assoc_get(v->assoc, "0")
                                            : v->str;
  if (val) pv->s = sh_xstrdup(val);
}

/* The text shown in messages for a parameter: "x", "a[1]", "@". */
static char *param_label(const sh_param *pa) {
  if (pa->index_all) return sh_xasprintf("%s[%c]", pa->name, pa->index_all);
  if (pa->index) {
    sh_buf b = {0};
    sh_buf_adds(&b, pa->name);
    sh_buf_addc(&b, '[');
    for (sh_part *p = pa->index->parts; p; p = p->next)
      if (p->kind == SH_PART_QLIT || p->kind == SH_PART_LIT) sh_buf_add(&b, p->u.lit.s, p->u.lit.n);
    sh_buf_addc(&b, ']');
    return sh_buf_steal(&b);
  }
  return sh_xstrdup(pa->name);
}

/* Is byte offset i of s (n bytes) between two characters, not inside a
 * UTF-8 sequence? */
static inline bool char_boundary(const char *s, size_t n, size_t i) {
  if (i == 0 || i >= n || ((unsigned char)s[i] & 0xC0) != 0x80 || sh_locale_bytes) return true;
  for (size_t j = i; j-- > 0 && i - j < 4;)
    if (((unsigned char)s[j] & 0xC0) != 0x80) return j + sh_char_len(s + j, n - j) <= i;
  return true;
}

/* Counts units of work of a loop over a string (a round, or a pattern
 * element walked) and polls the call every 4096: true when the loop must
 * stop (a limit, the timeout or a cancel ended the call). */
static bool loop_stop_n(sh_shell *sh, size_t *ticks, size_t units) {
  size_t before = *ticks;
  *ticks += units;
  if ((before >> 12) != (*ticks >> 12)) return sh_poll(sh) != 0;
  return sh_stopping(sh);
}

static bool loop_stop(sh_shell *sh, size_t *ticks) { return loop_stop_n(sh, ticks, 1); }

/* A pattern against one string, for ${x#p} ${x%p} ${x/p/r}: the pattern's
 * shape rules most offsets out before the matcher runs, so a literal or fixed
 * pattern costs time in proportion to the string. */
typedef struct pat_subject {
  sh_shell *sh;           /* polled by the matcher */
  const char *pat;        /* the pattern (borrowed) */
  size_t pn;
  int fl;                 /* SH_FNM_* */
  sh_pattern_shape shape; /* of pat (shape.lit owned) */
  const char *s;          /* the subject (borrowed) */
  size_t n;
  size_t ticks;           /* loop_stop's counter */
  sh_matcher *matcher;    /* made at the first test the shape cannot answer (owned) */
} pat_subject;

static void pat_subject_init(pat_subject *ps, sh_shell *sh, const char *pat, const char *s, int fl) {
  *ps = (pat_subject){.sh = sh, .pat = pat, .pn = strlen(pat), .fl = fl, .s = s, .n = strlen(s)};
  sh_pattern_shape_of(pat, ps->pn, fl, &ps->shape);
}

static void pat_subject_free(pat_subject *ps) {
  free(ps->shape.lit);
  sh_matcher_free(ps->matcher);
}

/* Does the pattern match s[i,j) (both ends character boundaries)? */
static bool pat_test(pat_subject *ps, size_t i, size_t j) {
  const sh_pattern_shape *sp = &ps->shape;
  const char *s = ps->s;
  if (sp->first >= 0 && (i >= j || (unsigned char)s[i] != sp->first)) return false;
  if (sp->last >= 0 && (i >= j || (unsigned char)s[j - 1] != sp->last)) return false;
  if (sp->literal) return j - i == sp->lit_n && memcmp(s + i, sp->lit, sp->lit_n) == 0;
  if (sp->fixed) {
    if (j - i < sp->nelems || j - i > 4 * sp->nelems) return false;
    if (loop_stop_n(ps->sh, &ps->ticks, sp->nelems)) return false;
    if (sh_pattern_fixed_end(ps->pat, ps->pn, s + i, j - i, ps->fl) != j - i) return false;
    if (sp->any_only) return true; /* ?? takes any two characters: nothing more to test */
  }
  if (!ps->matcher) ps->matcher = sh_matcher_new(ps->sh, ps->pat, ps->pn, s, ps->fl);
  return sh_matcher_test(ps->matcher, i, j);
}

/* The character boundary at or after i (n at most). */
static size_t boundary_up(const char *s, size_t n, size_t i) {
  while (i < n && !char_boundary(s, n, i)) i++;
  return i < n ? i : n;
}

/* The next boundary after the boundary i (n + 1 after n). */
static size_t next_boundary(const char *s, size_t n, size_t i) {
  return i < n ? i + sh_char_len(s + i, n - i) : n + 1;
}

/* The offsets a match can end at (prefix) or start at (suffix): all of
 * [0,n], or for a fixed pattern the nelems to 4 * nelems bytes from the end
 * that is tied. */
static void cut_range(const pat_subject *ps, bool suffix, size_t *lo, size_t *hi) {
  size_t n = ps->n;
  *lo = 0;
  *hi = n;
  if (!ps->shape.fixed) return;
  size_t e = ps->shape.nelems;
  size_t far = e > SIZE_MAX / 4 ? SIZE_MAX : 4 * e;
  if (!suffix) {
    *lo = e;
    *hi = far < n ? far : n;
  } else {
    *lo = far < n ? n - far : 0;
    *hi = e <= n ? n - e : 0;
    if (e > n) *lo = 1, *hi = 0; /* empty */
  }
}

/* Where the pattern matches a prefix (s[0,*cut)) or a suffix (s[*cut,n)),
 * the shortest or the longest; false if nowhere. */
static bool find_cut(pat_subject *ps, bool suffix, bool longest, size_t *cut) {
  size_t lo, hi, n = ps->n;
  cut_range(ps, suffix, &lo, &hi);
  if (lo > hi || lo > n) return false;
  /* the shortest prefix and the longest suffix walk up, the others down */
  if (suffix == longest) {
    for (size_t i = boundary_up(ps->s, n, lo); i <= hi; i = next_boundary(ps->s, n, i)) {
      if (loop_stop(ps->sh, &ps->ticks)) return false;
      if (suffix ? pat_test(ps, i, n) : pat_test(ps, 0, i)) {
        *cut = i;
        return true;
      }
    }
  } else {
    for (size_t i = hi + 1; i-- > lo;) {
      if (loop_stop(ps->sh, &ps->ticks)) return false;
      if (!char_boundary(ps->s, n, i)) continue;
      if (suffix ? pat_test(ps, i, n) : pat_test(ps, 0, i)) {
        *cut = i;
        return true;
      }
    }
  }
  return false;
}

/* Pattern removal on one string; the cut falls between characters. */
static char *remove_pattern(sh_shell *sh, const char *s, const char *pat, sh_param_op op, int fl) {
  pat_subject ps;
  pat_subject_init(&ps, sh, pat, s, fl);
  bool suffix = op == SH_POP_RM_SUFFIX || op == SH_POP_RM_SUFFIX_L;
  bool longest = op == SH_POP_RM_PREFIX_L || op == SH_POP_RM_SUFFIX_L;
  size_t cut;
  char *r;
  if (!find_cut(&ps, suffix, longest, &cut)) r = sh_xstrdup(s);
  else r = suffix ? sh_xstrndup(s, cut) : sh_xstrdup(s + cut);
  pat_subject_free(&ps);
  return r;
}

/* A replacement string: & stands for the match under patsub_replacement, a
 * backslash quotes the next character. Without an & it is unquoted once. */
typedef struct replacement {
  const char *text; /* as written (borrowed) */
  bool amp;         /* & stands for the match */
  sh_buf plain;     /* !amp: the unquoted text */
} replacement;

static void replacement_init(replacement *r, const char *rep, bool amp) {
  *r = (replacement){.text = rep, .amp = amp && strchr(rep, '&')};
  if (r->amp) return;
  sh_buf_reserve(&r->plain, strlen(rep));
  for (const char *c = rep; *c; c++) {
    if (*c == '\\' && c[1]) c++;
    sh_buf_addc(&r->plain, *c);
  }
}

/* Appends the replacement of the match m (mn bytes). */
static void add_replacement(sh_buf *b, const replacement *r, const char *m, size_t mn) {
  if (!r->amp) {
    sh_buf_add(b, r->plain.data, r->plain.len);
    return;
  }
  for (const char *c = r->text; *c; c++) {
    if (*c == '\\' && c[1]) {
      c++;
      sh_buf_addc(b, *c);
    } else if (*c == '&') {
      sh_buf_add(b, m, mn);
    } else {
      sh_buf_addc(b, *c);
    }
  }
}

/* The longest match starting at the boundary i: true and its end in *j. */
static bool longest_match_at(pat_subject *ps, size_t i, size_t *j) {
  const sh_pattern_shape *sp = &ps->shape;
  const char *s = ps->s;
  size_t n = ps->n;
  if (sp->first >= 0 && (i >= n || (unsigned char)s[i] != sp->first)) return false;
  if (sp->fixed) {
    /* every element takes a byte at least */
    if (n - i < sp->nelems || loop_stop_n(ps->sh, &ps->ticks, sp->nelems)) return false;
    size_t e = sh_pattern_fixed_end(ps->pat, ps->pn, s + i, n - i, ps->fl);
    if (e == SIZE_MAX || !char_boundary(s, n, i + e) || !pat_test(ps, i, i + e)) return false;
    *j = i + e;
    return true;
  }
  for (size_t k = n + 1; k-- > i;) {
    if (loop_stop(ps->sh, &ps->ticks)) return false;
    if (sp->last >= 0) {
      /* only ends after the pattern's last byte */
      const char *q = k > i ? memrchr(s + i, sp->last, k - i) : NULL;
      if (!q) return false;
      k = (size_t)(q - s) + 1;
    }
    if (char_boundary(s, n, k) && pat_test(ps, i, k)) {
      *j = k;
      return true;
    }
  }
  return false;
}

/* ${x//lit/r} with a plain replacement: the runs between occurrences and the
 * replacements are copied straight into the result, one memchr or memmem per
 * occurrence. A literal that starts and ends with ASCII bytes always falls
 * between characters. */
static void replace_literal_all(pat_subject *ps, const replacement *r, sh_buf *b) {
  const char *s = ps->s, *lit = ps->shape.lit;
  size_t n = ps->n, ln = ps->shape.lit_n, rl = r->plain.len, from = 0;
  uint64_t max = ps->sh->sess->limits.string_size;
  bool ascii_ends = (unsigned char)lit[0] < 0x80 && (unsigned char)lit[ln - 1] < 0x80;
  sh_buf_reserve(b, n);
  for (size_t i = 0; i < n;) {
    if (loop_stop(ps->sh, &ps->ticks)) break;
    const char *q = ln == 1 ? memchr(s + i, lit[0], n - i) : memmem(s + i, n - i, lit, ln);
    if (!q) break;
    i = (size_t)(q - s);
    if (!ascii_ends && (!char_boundary(s, n, i) || !char_boundary(s, n, i + ln))) {
      i++;
      continue;
    }
    size_t run = i - from;
    if (b->len + run + rl + 1 > b->cap) sh_buf_reserve(b, run + rl);
    memcpy(b->data + b->len, s + from, run);
    memcpy(b->data + b->len + run, r->plain.data, rl);
    b->len += run + rl;
    b->data[b->len] = 0;
    if (b->len > max && sh_check_size(ps->sh, b->len)) return;
    from = i = i + ln;
  }
  sh_buf_add(b, s + from, n - from);
}

/* ${x/p/r} ${x//p/r} ${x/#p/r} ${x/%p/r} on one string: the leftmost longest
 * match, then after it (//) the next; the result grows in one buffer, the
 * unmatched text copied in runs. */
static char *replace_pattern(sh_shell *sh, const char *s, const char *pat, const char *rep,
                             sh_param_op op, int fl, bool amp) {
  pat_subject ps;
  pat_subject_init(&ps, sh, pat, s, fl);
  replacement r;
  replacement_init(&r, rep, amp);
  size_t n = ps.n;
  sh_buf b = {0};
  if (op == SH_POP_REPL_PREFIX || op == SH_POP_REPL_SUFFIX) {
    bool suffix = op == SH_POP_REPL_SUFFIX;
    size_t cut;
    if (find_cut(&ps, suffix, true, &cut)) {
      if (suffix) {
        sh_buf_add(&b, s, cut);
        add_replacement(&b, &r, s + cut, n - cut);
      } else {
        add_replacement(&b, &r, s, cut);
        sh_buf_add(&b, s + cut, n - cut);
      }
    } else {
      sh_buf_add(&b, s, n);
    }
    pat_subject_free(&ps);
    sh_buf_free(&r.plain);
    return sh_buf_steal(&b);
  }
  const sh_pattern_shape *sp = &ps.shape;
  if (sp->literal && sp->lit_n && !r.amp && op == SH_POP_REPL_ALL) {
    replace_literal_all(&ps, &r, &b);
    pat_subject_free(&ps);
    sh_buf_free(&r.plain);
    return sh_buf_steal(&b);
  }
  size_t i = 0, from = 0; /* s[from,i) is copied at the next flush */
  /* bash tries the end of the string only with a pattern that starts with a
   * star (match_pattern_char): an empty x takes the pattern *(a), not ?(a) */
  if (n == 0 && pat[0] == '*' && pat_test(&ps, 0, 0)) add_replacement(&b, &r, s, 0);
  /* a null pattern changes nothing; a match may be empty: then the
   * replacement goes before the next character (bash's pat_subst) */
  while (ps.pn && i < n) {
    if (loop_stop(sh, &ps.ticks)) break;
    size_t j;
    if (sp->literal) {
      /* the next occurrence that starts and ends between characters */
      const char *q = memmem(s + i, n - i, sp->lit, sp->lit_n);
      if (!q) break;
      i = (size_t)(q - s);
      j = i + sp->lit_n;
      if (!char_boundary(s, n, i) || !char_boundary(s, n, j)) {
        i++;
        continue;
      }
    } else {
      if (sp->first >= 0) {
        /* jump to the next offset that can start a match */
        const char *q = memchr(s + i, sp->first, n - i);
        if (!q) break;
        i = (size_t)(q - s);
        if (!char_boundary(s, n, i)) {
          i++;
          continue;
        }
      }
      bool found = longest_match_at(&ps, i, &j);
      if (sh_stopping(sh)) break;
      if (!found) {
        i = next_boundary(s, n, i);
        continue;
      }
    }
    sh_buf_add(&b, s + from, i - from);
    add_replacement(&b, &r, s + i, j - i);
    if (sh_check_size(sh, b.len)) break; /* ${x//?/$long}: string_size, not all memory */
    from = j;
    i = j > i ? j : next_boundary(s, n, i);
    if (op != SH_POP_REPL_ALL) break;
  }
  sh_buf_add(&b, s + from, n - from);
  pat_subject_free(&ps);
  sh_buf_free(&r.plain);
  return sh_buf_steal(&b);
}

/* Case mapping of one character (UTF-8 aware, C.UTF-8's Unicode tables). */
/* One UTF-8 character of exactly l bytes to a code point. */
static bool utf8_decode1(const char *p, size_t l, uint32_t *cp) {
  const unsigned char *u = (const unsigned char *)p;
  if (l == 1) {
    *cp = u[0];
    return u[0] < 0x80;
  }
  if (l == 2 && (u[0] & 0xe0) == 0xc0) *cp = (uint32_t)(u[0] & 0x1f) << 6 | (u[1] & 0x3f);
  else if (l == 3 && (u[0] & 0xf0) == 0xe0)
    *cp = (uint32_t)(u[0] & 0x0f) << 12 | (uint32_t)(u[1] & 0x3f) << 6 | (u[2] & 0x3f);
  else if (l == 4 && (u[0] & 0xf8) == 0xf0)
    *cp = (uint32_t)(u[0] & 0x07) << 18 | (uint32_t)(u[1] & 0x3f) << 12 | (uint32_t)(u[2] & 0x3f) << 6 |
          (u[3] & 0x3f);
  else return false;
  for (size_t k = 1; k < l; k++)
    if ((u[k] & 0xc0) != 0x80) return false;
  return true;
}

static void utf8_encode1(sh_buf *b, uint32_t c) {
  char o[4];
  size_t n;
  if (c < 0x80) { o[0] = (char)c; n = 1; }
  else if (c < 0x800) { o[0] = (char)(0xc0 | c >> 6); o[1] = (char)(0x80 | (c & 0x3f)); n = 2; }
  else if (c < 0x10000) {
    o[0] = (char)(0xe0 | c >> 12); o[1] = (char)(0x80 | ((c >> 6) & 0x3f)); o[2] = (char)(0x80 | (c & 0x3f));
    n = 3;
  } else {
    o[0] = (char)(0xf0 | c >> 18); o[1] = (char)(0x80 | ((c >> 12) & 0x3f));
    o[2] = (char)(0x80 | ((c >> 6) & 0x3f)); o[3] = (char)(0x80 | (c & 0x3f));
    n = 4;
  }
  sh_buf_add(b, o, n);
}


/* ${x^p} ${x^^p} ${x,p} ${x,,p} ${x~p} ${x~~p} on one string (pat NULL: every
 * character); sh NULL for the transforms, which need no polling. */
static char *case_convert(sh_shell *sh, const char *s, const char *pat, sh_param_op op, int fl) {
  size_t n = strlen(s), ticks = 0;
  sh_buf r = {0};
  size_t pn = pat ? strlen(pat) : 0;
  locale_t loc = re_utf8_locale();
  bool first_only = op == SH_POP_UPPER1 || op == SH_POP_LOWER1 || op == SH_POP_TOGGLE1;
  sh_matcher *mt = NULL; /* the pattern against each character of s */
  for (size_t i = 0; i < n;) {
    if (first_only && i > 0) {
      sh_buf_add(&r, s + i, n - i);
      break;
    }
    if (sh && loop_stop(sh, &ticks)) break;
    size_t l = sh_char_len(s + i, n - i);
    if (l == 1 && (unsigned char)s[i] < 0x80 && (!pat || !*pat)) {
      /* ASCII without a pattern: the C locale's mapping */
      char c = s[i];
      bool up = op == SH_POP_UPPER || op == SH_POP_UPPER1;
      bool toggle = op == SH_POP_TOGGLE || op == SH_POP_TOGGLE1;
      if (toggle) c = c >= 'a' && c <= 'z' ? (char)(c - 32) : c >= 'A' && c <= 'Z' ? (char)(c + 32) : c;
      else if (up && c >= 'a' && c <= 'z') c = (char)(c - 32);
      else if (!up && c >= 'A' && c <= 'Z') c = (char)(c + 32);
      sh_buf_addc(&r, c);
      i++;
      continue;
    }
    if (pat && *pat && sh && !mt) mt = sh_matcher_new(sh, pat, pn, s, fl);
    bool m = !pat || !*pat || (mt ? sh_matcher_test(mt, i, i + l) : sh_fnmatch(pat, pn, s + i, l, fl));
    if (!m) {
      sh_buf_add(&r, s + i, l);
      i += l;
      continue;
    }
    uint32_t cp;
    if (!loc || !utf8_decode1(s + i, l, &cp)) {
      sh_buf_add(&r, s + i, l);
      i += l;
      continue;
    }
    bool up = op == SH_POP_UPPER || op == SH_POP_UPPER1;
    bool toggle = op == SH_POP_TOGGLE || op == SH_POP_TOGGLE1;
    wint_t w = (wint_t)cp;
    if (toggle) w = iswupper_l(w, loc) ? towlower_l(w, loc) : iswlower_l(w, loc) ? towupper_l(w, loc) : w;
    else w = up ? towupper_l(w, loc) : towlower_l(w, loc);
    utf8_encode1(&r, (uint32_t)w);
    i += l;
  }
  sh_matcher_free(mt);
  return sh_buf_steal(&r);
}

/* ${v@a}: v's attribute letters in a new string ("" for an unset variable). */
static char *attr_letters(sh_var *v) {
  char buf[SH_VAR_ATTR_LETTERS_MAX] = "";
  if (v) sh_var_attr_letters(v, buf);
  return sh_xstrdup(buf);
}

/* Applies a transform to one value. */
static char *transform1(xs *x, const sh_param *pa, const char *s, sh_var *v) {
  switch (pa->transform) {
  case 'Q': case 'k': case 'K': return sh_quote_single(s);
  case 'E': { /* the escapes of $'...' */
    sh_buf b = {0};
    sh_ansi_c_decode(s, strlen(s), &b);
    return sh_buf_steal(&b);
  }
  case 'P': return sh_expand_prompt(x->sh, s);
  case 'u': return case_convert(x->sh, s, NULL, SH_POP_UPPER1, 0);
  case 'U': return case_convert(x->sh, s, NULL, SH_POP_UPPER, 0);
  case 'L': return case_convert(x->sh, s, NULL, SH_POP_LOWER, 0);
  case 'a': return attr_letters(v);
  default: return sh_xstrdup(s);
  }
}

/* Replaces each value of pv (its scalar or each element) with its
 * transform (transform1). */
static void pval_transform(xs *x, const sh_param *pa, pval *pv, sh_var *var) {
  size_t nv;
  char **vals = pval_values(pv, &nv);
  for (size_t i = 0; i < nv; i++) {
    char *r = transform1(x, pa, vals[i], var);
    free(vals[i]);
    vals[i] = r;
  }
}

/* Emits a value into the fields. */
static void emit_value(xs *x, const pval *pv, bool in_dq) {
  if (pv->list) {
    if (in_dq && pv->lchar == '*') {
      char *j = join_list(x->sh, &pv->v, '*');
      xadd(x, j, strlen(j), XQ);
      cur(x)->quoted = true;
      free(j);
      return;
    }
    x->list_elems += pv->v.n;
    /* one string (x=, <<<, case, [[ ]]): $@ joins with spaces as "$@", $* as
     * "$*" (IFS='' puts nothing between), except that a declaration
     * builtin's d=$* joins the positional parameters with spaces (bash) */
    bool decl_params_null_ifs = (x->flags & SH_XF_DECL) && pv->from_params && !*ifs_value(x->sh);
    if (!in_dq && x->string_ctx && !(pv->lchar == '*' && decl_params_null_ifs)) {
      char *j = join_list(x->sh, &pv->v, pv->lchar);
      xadd(x, j, strlen(j), XQ);
      free(j);
      return;
    }
    if (!in_dq) {
      /* unquoted $@ / $*: bash joins with the first IFS character and splits
       * again, so IFS=x keeps empty elements and IFS=' ' drops them */
      const char *ifs = ifs_value(x->sh);
      if (*ifs) {
        for (size_t i = 0; i < pv->v.n; i++) {
          if (i) xadd(x, ifs, 1, XS);
          xadd(x, pv->v.v[i], strlen(pv->v.v[i]), XS);
        }
        return;
      }
    }
    for (size_t i = 0; i < pv->v.n; i++) {
      if (i) xbreak(x);
      size_t l = strlen(pv->v.v[i]);
      xadd(x, pv->v.v[i], l, in_dq ? XQ : XS);
      if (in_dq && !l) add_empty_mark(x);
      if (in_dq) cur(x)->quoted = true;
    }
    return;
  }
  if (pv->s) {
    xadd(x, pv->s, strlen(pv->s), in_dq ? XQ : XS);
    if (in_dq) cur(x)->quoted = true;
  }
}

/* Expands the argument word of ${x-w} etc. into the current fields. */
static void emit_word(xs *x, const sh_word *w, bool in_dq) {
  if (!w) return;
  if (++x->depth > 200) {
    sh_error(x->sh, "expansion nesting too deep");
    x->err = true;
    return;
  }
  x_parts(x, w->parts, in_dq, in_dq ? XQ : XS);
  x->depth--;
}

/* ${!prefix*} and ${!a[*]} unquoted with IFS='' make one joined field (bash). */
static void emit_names(xs *x, pval *pv, bool in_dq, const char *sep) {
  if (!in_dq && pv->lchar == '*' && !*ifs_value(x->sh) && pv->v.n) {
    sh_buf b = {0};
    for (size_t i = 0; i < pv->v.n; i++) {
      if (i) sh_buf_adds(&b, sep);
      sh_buf_adds(&b, pv->v.v[i]);
    }
    xadd(x, b.data, b.len, XS);
    sh_buf_free(&b);
    return;
  }
  emit_value(x, pv, in_dq);
}

static void assoc_keys_or_values(sh_var *v, sh_strv *out, bool keys) {
  for (sh_assoc_ent *e = sh_assoc_first(v->assoc); e; e = sh_assoc_next(v->assoc, e))
    sh_strv_pushdup(out, keys ? e->key : e->val);
}

static _Thread_local char ind_target[256]; /* ${!ref...}: the name ref holds */

static void expand_param(xs *x, const sh_param *pa, bool in_dq) {
  sh_shell *sh = x->sh;
  if (!pa->name) {
    sh_error(sh, "${%s}: bad substitution", pa->text ? pa->text : "");
    x->err = true;
    sh_fatal(sh, 1);
    return;
  }
  pval pv = {0};
  /* ${!prefix*} */
  if (pa->op == SH_POP_NAMES) {
    size_t n;
    const char **names = sh_vars_names(sh, &n);
    pv.list = true;
    pv.lchar = pa->names_all;
    size_t pl = strlen(pa->name);
    for (size_t i = 0; i < n; i++) {
      if (strncmp(names[i], pa->name, pl) != 0) continue;
      sh_var *v = sh_var_find_noref(sh, names[i]);
      if (!v || (v->flags & SH_V_UNSET)) continue;
      sh_strv_pushdup(&pv.v, names[i]);
    }
    free(names);
    emit_names(x, &pv, in_dq, "");
    pval_free(&pv);
    return;
  }
  if (pa->op == SH_POP_KEYS) {
    sh_var *v = sh_var_find(sh, pa->name);
    pv.list = true;
    pv.lchar = pa->index_all;
    if (v && (v->flags & SH_V_ASSOC)) assoc_keys_or_values(v, &pv.v, true);
    else if (v) sh_var_keys(sh, v, &pv.v);
    emit_names(x, &pv, in_dq, " ");
    pval_free(&pv);
    return;
  }
  /* the value */
  sh_var *var = NULL;
  if (pa->indirect) {
    sh_var *nr = sh_var_find_noref(sh, pa->name);
    if (nr && (nr->flags & SH_V_NAMEREF) && !pa->index && !pa->index_all) {
      /* ${!ref} of a nameref: the name it refers to */
      pv.s = nr->str ? sh_xstrdup(nr->str) : NULL;
    } else {
      pval ref;
      get_var_value(x, pa->name, pa->index, pa->index_all, &ref);
      if (x->err) {
        pval_free(&ref);
        return;
      }
      char *r = ref.list ? join_list(sh, &ref.v, ref.lchar) : ref.s ? sh_xstrdup(ref.s) : NULL;
      bool no_elements = ref.list && ref.v.n == 0;
      pval_free(&ref);
      sh_var *refvar = sh_var_find(sh, pa->name);
      ind_target[0] = 0;
      bool special_list = (pa->name[0] == '@' || pa->name[0] == '*') && !pa->name[1];
      if (no_elements && special_list) {
        /* bash 5.2: ${!@} without positional parameters is empty, and under
         * set -u "!@: unbound variable" */
        free(r);
        r = NULL;
        const char label[] = {'!', pa->name[0], '\0'};
        if (unbound_check_status(x, label, -1)) return;
      } else if (!refvar && (!r || (!*r && !special_list))) {
        free(r);
        /* bash 5.2: the reference itself is unset (also under set -u) */
        char *lab = param_label(pa); /* a[@], as bash names it */
        sh_error(sh, "%s: invalid indirect expansion", lab);
        free(lab);
        x->err = true;
        sh_fatal(sh, 1);
        return;
      } else if (!r) {
        /* an array whose element is unset: the target is unset */
      } else {
        bool valid = sh_is_name(r) || (r[0] && !r[1] && strchr("@*#?-$!0123456789", r[0])) ||
                     (strchr(r, '[') && r[strlen(r) - 1] == ']');
        if (!valid) {
          bool digits = *r != 0;
          for (char *q = r; *q; q++) digits &= (*q >= '0' && *q <= '9');
          valid = digits;
        }
        if (!valid) {
          sh_error(sh, "%s: invalid variable name", r);
          free(r);
          x->err = true;
          sh_fatal(sh, 1);
          return;
        }
        get_ref_value(x, r, &pv);
        char *rb = strchr(r, '[');
        if (rb) *rb = 0; /* ${!r@a} with r='a[0]': the array's attributes */
        var = sh_var_find(sh, r);
        if (rb) *rb = '[';
        snprintf(ind_target, sizeof ind_target, "%s", r);
        free(r);
      }
    }
  } else {
    get_var_value(x, pa->name, pa->index, pa->index_all, &pv);
    if (pa->transform == 'a' || pa->transform == 'A' || pa->transform == 'K' || pa->transform == 'k')
      var = sh_var_find(sh, pa->name);
  }
  if (x->err) {
    pval_free(&pv);
    return;
  }
  bool is_special_list = pa->name[0] == '@' || pa->name[0] == '*';
  /* ${#x} */
  if (pa->length) {
    char buf[32];
    if (pv.list) {
      sh_var *lv = is_special_list || pv.v.n ? NULL : sh_var_find(sh, pa->name);
      if (!is_special_list && pv.v.n == 0 && (!lv || (lv->flags & SH_V_UNSET)) &&
          unbound_check_status(x, pa->name, 1)) {
        pval_free(&pv);
        return;
      }
      snprintf(buf, sizeof buf, "%zu", pv.v.n);
    } else {
      if (!pv.s) {
        char *lab = param_label(pa);
        bool u = unbound_check_status(x, lab, pa->index ? 1 : -1); /* ${#a[i]}: 1 (bash) */
        free(lab);
        if (u) {
          pval_free(&pv);
          return;
        }
      }
      snprintf(buf, sizeof buf, "%zu", pv.s ? sh_utf8_len(pv.s, strlen(pv.s)) : (size_t)0);
    }
    xadd(x, buf, strlen(buf), in_dq ? XQ : XS);
    if (in_dq) cur(x)->quoted = true;
    pval_free(&pv);
    return;
  }
  switch (pa->op) {
  case SH_POP_DEFAULT:
  case SH_POP_ASSIGN:
  case SH_POP_ERROR:
  case SH_POP_ALT: {
    bool set = pval_set(&pv);
    /* bash: ${!ref:-w} with ref='a[@]' or 'a[*]' tests only that the array
     * has elements, not that they are null */
    size_t tl = strlen(ind_target);
    bool ind_all = pa->indirect && tl > 3 && ind_target[tl - 1] == ']' &&
                   (ind_target[tl - 2] == '@' || ind_target[tl - 2] == '*') && ind_target[tl - 3] == '[';
    if (set && pa->colon && !(ind_all && pv.list)) {
      if (pv.list) {
        char *j = join_list(sh, &pv.v, pv.lchar);
        /* "$@" with several (empty) elements is not null; neither is an
         * unquoted $* (its elements are separate words) */
        if (!*j && !((pv.lchar == '@' || !in_dq) && pv.v.n > 1)) set = false;
        free(j);
      } else if (!*pv.s) {
        set = false;
      }
    }
    if (pa->op == SH_POP_ALT) {
      if (set) emit_word(x, pa->arg, in_dq);
      pval_free(&pv);
      return;
    }
    if (set) {
      emit_value(x, &pv, in_dq);
      pval_free(&pv);
      return;
    }
    if (pa->op == SH_POP_DEFAULT) {
      emit_word(x, pa->arg, in_dq);
      pval_free(&pv);
      return;
    }
    if (pa->op == SH_POP_ERROR) {
      bool err = false;
      char *msg = pa->arg ? expand_to_string(sh, pa->arg, 0, &err) : NULL;
      char *lab = param_label(pa);
      if (msg && *msg)
        sh_error(sh, "%s: %s", lab, msg);
      else
        sh_error(sh, "%s: parameter null or not set", lab);
      free(lab);
      free(msg);
      x->err = true;
      sh_fatal_exit(sh, sh_expansion_error_status(sh));
      pval_free(&pv);
      return;
    }
    /* ASSIGN */
    if (pa->indirect && ind_target[0]) {
      /* ${!ref:=w} assigns to the variable ref names */
      char target[256];
      snprintf(target, sizeof target, "%s", ind_target);
      bool err = false;
      char *val = pa->arg ? expand_to_string(sh, pa->arg, 0, &err) : sh_xstrdup("");
      int rc = err ? 1 : strchr(target, '[') ? sh_assign_ref_elem(sh, target, val, false)
               : sh_is_name(target) ? sh_var_set(sh, target, val, 0) : 1;
      if (rc && !err) sh_error(sh, "%s: cannot assign in this way", target);
      if (rc) x->err = true;
      else {
        xadd(x, val, strlen(val), in_dq ? XQ : XS);
        if (in_dq) cur(x)->quoted = true;
      }
      free(val);
      pval_free(&pv);
      return;
    }
    if (is_special_list || (pa->name[0] >= '0' && pa->name[0] <= '9') || !sh_is_name(pa->name)) {
      sh_error(sh, "$%s: cannot assign in this way", pa->name);
      x->err = true;
      pval_free(&pv);
      return;
    }
    bool err = false;
    char *val = pa->arg ? expand_to_string(sh, pa->arg, 0, &err) : sh_xstrdup("");
    if (err) {
      free(val);
      x->err = true;
      pval_free(&pv);
      return;
    }
    int rc;
    if (pa->index) {
      int e2;
      sh_var *v = sh_var_get_for_write(sh, pa->name, 0, &e2);
      if (!v) rc = 1;
      else if (v->flags & SH_V_ASSOC) {
        char *key = expand_to_string(sh, pa->index, 0, &err);
        rc = sh_var_set_key(sh, v, key ? key : "", val, false);
        free(key);
      } else {
        int64_t idx;
        rc = subscript_index(x, pa->index, &idx) ? sh_var_set_index(sh, v, idx, val, false) : 1;
      }
    } else {
      rc = sh_var_set(sh, pa->name, val, 0);
    }
    if (rc) {
      free(val);
      x->err = true;
      pval_free(&pv);
      return;
    }
    /* the result is the new value (after attributes) */
    pval nv;
    get_var_value(x, pa->name, pa->index, 0, &nv);
    xadd(x, nv.s ? nv.s : val, strlen(nv.s ? nv.s : val), in_dq ? XQ : XS);
    if (in_dq) cur(x)->quoted = true;
    pval_free(&nv);
    free(val);
    pval_free(&pv);
    return;
  }
  default:
    break;
  }
  /* nounset for everything else */
  if (!pval_set(&pv) && !pv.list) {
    /* bash names an unbraced positional parameter with its $: "$1" */
    char *lab = !pa->brace && *pa->name >= '0' && *pa->name <= '9' ? sh_xasprintf("$%s", pa->name)
                                                                    : param_label(pa);
    bool u = unbound_check(x, lab);
    free(lab);
    if (u) {
      pval_free(&pv);
      return;
    }
  }
  /* bash 5.2: ${u[@]} and ${u[*]} of an unset u are empty, not unbound */
  switch (pa->op) {
  case SH_POP_NONE:
    break;
  case SH_POP_RM_PREFIX:
  case SH_POP_RM_PREFIX_L:
  case SH_POP_RM_SUFFIX:
  case SH_POP_RM_SUFFIX_L:
  case SH_POP_REPL:
  case SH_POP_REPL_ALL:
  case SH_POP_REPL_PREFIX:
  case SH_POP_REPL_SUFFIX:
  case SH_POP_UPPER1:
  case SH_POP_UPPER:
  case SH_POP_LOWER1:
  case SH_POP_LOWER:
  case SH_POP_TOGGLE1:
  case SH_POP_TOGGLE: {
    bool err = false;
    char *pat = pa->arg ? expand_to_string(sh, pa->arg, SH_XF_PATTERN, &err) : sh_xstrdup("");
    char *rep = NULL;
    bool is_repl = pa->op >= SH_POP_REPL && pa->op <= SH_POP_REPL_SUFFIX;
    if (!err && is_repl)
      rep = pa->arg2 ? expand_to_string(sh, pa->arg2, SH_XF_PATTERN, &err) : sh_xstrdup("");
    if (err) {
      free(pat);
      free(rep);
      x->err = true;
      pval_free(&pv);
      return;
    }
    int fl = sh_fnm_flags(sh, false) & ~SH_FNM_CASEFOLD;
    /* nocasematch reaches ${x/p/r} only, not ${x#p} nor ${x^^p} (bash 5.2) */
    if (sh->opt[SH_SHOPT_NOCASEMATCH] && is_repl) fl |= SH_FNM_CASEFOLD;
    bool amp = sh->opt[SH_SHOPT_PATSUB_REPLACEMENT];
    size_t nv;
    char **vals = pval_values(&pv, &nv);
    for (size_t i = 0; i < nv; i++) {
      char *r;
      if (pa->op <= SH_POP_RM_SUFFIX_L)
        r = remove_pattern(sh, vals[i], pat, pa->op, fl);
      else if (is_repl)
        r = replace_pattern(sh, vals[i], pat, rep, pa->op, fl, amp);
      else
        r = case_convert(sh, vals[i], pa->arg ? pat : NULL, pa->op, fl);
      free(vals[i]);
      vals[i] = r;
    }
    free(pat);
    free(rep);
    break;
  }
  case SH_POP_SLICE: {
    int64_t off = 0, len = 0;
    bool has_len = pa->arg2 != NULL;
    if (!pa->arg || !pa->arg->raw || !*pa->arg->raw) {
      /* ${x:} has no offset (bash: bad substitution) */
      bool empty = true;
      for (const sh_part *p = pa->arg ? pa->arg->parts : NULL; p; p = p->next)
        if (!((p->kind == SH_PART_LIT || p->kind == SH_PART_QLIT) && p->u.lit.n == 0)) empty = false;
      if (empty && !has_len) {
        sh_error(sh, "${%s}: bad substitution", pa->text ? pa->text : pa->name);
        x->err = true;
        sh_fatal(sh, 1);
        pval_free(&pv);
        return;
      }
    }
    /* an error in the offset or length names the parameter and ends a
     * script, as any expansion error does (bash: "s: 2:3: syntax error") */
    char *ctx = param_label(pa);
    const char *saved_ctx = sh->arith_context;
    sh->arith_context = ctx;
    bool bad = sh_expand_arith(sh, pa->arg, &off) || (has_len && sh_expand_arith(sh, pa->arg2, &len));
    sh->arith_context = saved_ctx;
    free(ctx);
    if (bad) {
      x->err = true;
      sh_fatal(sh, 1);
      pval_free(&pv);
      return;
    }
    if (pv.from_scalar && pv.v.n == 1) {
      /* bash 5.2: ${x[@]:1} of a scalar is ${x:1} */
      pv.s = pv.v.v[0];
      pv.v.v[0] = NULL;
      sh_strv_free(&pv.v);
      pv.list = false;
    }
    if (pv.list) {
      /* positional parameters include $0 at offset 0; arrays slice by index */
      sh_strv out = {0};
      if (pv.from_params) {
        int64_t n = (int64_t)pv.v.n + 1;
        int64_t start = off < 0 ? n + off : off;
        if (start < 0) start = n; /* empty */
        if (has_len && len < 0) {
          sh_error(sh, "%s: substring expression < 0", "-1");
          x->err = true;
          sh_strv_free(&out);
          pval_free(&pv);
          return;
        }
        /* bash 5.2 walks to the end index start + len; when that sum wraps
         * it still takes the element at start, and only that one */
        int64_t end = n;
        if (has_len && __builtin_add_overflow(start, len, &end)) end = start + 1;
        for (int64_t i = start; i < n && i < end; i++)
          sh_strv_pushdup(&out, i == 0 ? (sh->arg0 ? sh->arg0 : "sbx") : pv.v.v[i - 1]);
      } else if (pv.idx) {
        int64_t maxi = pv.v.n ? pv.idx[pv.v.n - 1] : -1;
        int64_t start = off < 0 ? sh_index_add(sh_index_add(maxi, 1), off) : off;
        if (has_len && len < 0) {
          sh_error(sh, "%s: substring expression < 0", "-1");
          x->err = true;
          sh_strv_free(&out);
          pval_free(&pv);
          return;
        }
        if (start >= 0) {
          int64_t taken = 0;
          for (size_t i = 0; i < pv.v.n; i++) {
            if (pv.idx[i] < start) continue;
            if (has_len && taken >= len) break;
            sh_strv_pushdup(&out, pv.v.v[i]);
            taken++;
          }
        }
      } else if (pv.from_assoc) {
        /* bash 5.2 numbers an associative array's values from 1 (0 is the
         * first one too) and counts a negative offset from n + 1 */
        int64_t n = (int64_t)pv.v.n;
        int64_t start = off < 0 ? n + 1 + off : off;
        int64_t first = start > 0 ? start - 1 : 0;
        if (start >= 0)
          for (int64_t i = first; i < n && (!has_len || i - first < len); i++)
            sh_strv_pushdup(&out, pv.v.v[i]);
      } else {
        int64_t n = (int64_t)pv.v.n;
        int64_t start = off < 0 ? n + off : off;
        if (start >= 0)
          for (int64_t i = start; i < n && (!has_len || i - start < len); i++)
            sh_strv_pushdup(&out, pv.v.v[i]);
      }
      sh_strv_free(&pv.v);
      pv.v = out;
      free(pv.idx);
      pv.idx = NULL;
    } else if (pv.s) {
      size_t bl = strlen(pv.s);
      int64_t n = (int64_t)sh_utf8_len(pv.s, bl);
      int64_t start = off < 0 ? n + off : off;
      int64_t end = n;
      if (has_len) end = len < 0 ? n + len : start < 0 || len > n - start ? n : start + len;
      if (has_len && len < 0 && end < start && start >= 0 && start <= n) {
        sh_error(sh, "%" PRId64 ": substring expression < 0", len);
        x->err = true;
        pval_free(&pv);
        return;
      }
      if (start < 0 || start > n) {
        free(pv.s);
        pv.s = sh_xstrdup("");
      } else {
        if (end > n) end = n;
        if (end < start) end = start;
        size_t bs = utf8_offset(pv.s, bl, (size_t)start);
        size_t be = utf8_offset(pv.s, bl, (size_t)end);
        char *r = sh_xstrndup(pv.s + bs, be - bs);
        free(pv.s);
        pv.s = r;
      }
    }
    break;
  }
  case SH_POP_TRANSFORM: {
    if (pa->transform == 'A' || pa->transform == 'K') {
      if (pa->transform == 'K' && var && (var->flags & (SH_V_ARRAY | SH_V_ASSOC)) && pv.list) {
        /* key/value pairs in one word, quoted as declare -p quotes them; an
         * associative array's list ends with a space (bash 5.2) */
        sh_buf b = {0};
        sh_strv keys = {0}, vals = {0};
        sh_var_keys(sh, var, &keys);
        sh_var_values(sh, var, &vals);
        bool assoc = var->flags & SH_V_ASSOC;
        for (size_t i = 0; i < keys.n; i++) {
          if (i && !assoc) sh_buf_addc(&b, ' ');
          if (assoc) sh_quote_key(&b, keys.v[i]);
          else sh_buf_adds(&b, keys.v[i]);
          sh_buf_addc(&b, ' ');
          sh_quote_value(&b, vals.v[i]);
          if (assoc) sh_buf_addc(&b, ' ');
        }
        sh_strv_free(&keys);
        sh_strv_free(&vals);
        sh_strv_free(&pv.v);
        pv.list = false;
        pv.s = sh_buf_steal(&b);
        break;
      }
      if (pa->transform == 'A') {
        if (!var || !pval_set(&pv)) {
          pval_free(&pv);
          return;
        }
        char *d = sh_declare_print(sh, var, true);
        pval_free(&pv);
        pv.s = d;
        break;
      }
      /* K on a scalar: like Q */
      pval_transform(x, pa, &pv, var);
      break;
    }
    if (pa->transform == 'k' && var && (var->flags & (SH_V_ARRAY | SH_V_ASSOC)) && pv.list) {
      /* ${a[@]@k}: the keys and values as separate words, unquoted (bash 5.2) */
      sh_strv keys = {0}, vals = {0};
      sh_var_keys(sh, var, &keys);
      sh_var_values(sh, var, &vals);
      sh_strv_free(&pv.v);
      for (size_t i = 0; i < keys.n && i < vals.n; i++) {
        sh_strv_pushdup(&pv.v, keys.v[i]);
        sh_strv_pushdup(&pv.v, vals.v[i]);
      }
      sh_strv_free(&keys);
      sh_strv_free(&vals);
      break;
    }
    if (pa->transform == 'a') {
      if (!var && !pa->indirect) var = sh_var_find(sh, pa->name);
      char *r = attr_letters(var);
      if (pv.list) {
        /* one per element: ${a[@]@a} */
        for (size_t i = 0; i < pv.v.n; i++) {
          free(pv.v.v[i]);
          pv.v.v[i] = sh_xstrdup(r);
        }
        free(r);
        break;
      }
      pval_free(&pv);
      pv.s = r;
      break;
    }
    pval_transform(x, pa, &pv, var);
    break;
  }
  default:
    break;
  }
  emit_value(x, &pv, in_dq);
  pval_free(&pv);
}

/* ---- parts ---------------------------------------------------------------------------------------- */

/* Adds command substitution output: trailing newlines removed, NULs dropped. */
static void add_cmd_output(xs *x, char *out, bool in_dq) {
  size_t n = strlen(out);
  while (n > 0 && out[n - 1] == '\n') n--;
  xadd(x, out, n, in_dq ? XQ : XS);
  if (in_dq) cur(x)->quoted = true;
}

char *sh_procsub(sh_shell *sh, sh_node *body, char dir);

/* The field built so far is NAME= (a word that looks like an assignment:
 * bash expands a tilde after its '=' outside posix mode). */
static bool field_is_assign_prefix(xs *x) {
  const xfield *f = cur(x);
  size_t n = f->s.len;
  if (!x->assign_word || n < 2 || f->s.data[n - 1] != '=') return false;
  size_t k = n - 1;
  if (k > 0 && f->s.data[k - 1] == '+') k--;
  return sh_is_name_n(f->s.data, k);
}

static void x_lit(xs *x, const char *s, size_t n, char litflag, bool first_part, bool last_part) {
  size_t i = 0;
  bool assignish = (x->flags & SH_XF_ASSIGN) || x->assign_word;
  /* tilde at the start of the word (or of a default word, or after NAME=) */
  if (n > 0 && s[0] == '~' && !(x->flags & SH_XF_NOTILDE) && litflag != XQ &&
      ((first_part && cur(x)->s.len == 0) || field_is_assign_prefix(x) ||
       (assignish && cur(x)->s.len && cur(x)->s.data[cur(x)->s.len - 1] == ':'))) {
    size_t used = do_tilde(x, s, n, last_part, assignish ? "/:" : "/");
    i = used;
  }
  if (!assignish || litflag == XQ) {
    xadd(x, s + i, n - i, litflag);
    return;
  }
  /* assignments: tilde after each unquoted ':' */
  size_t start = i;
  for (; i < n; i++) {
    if (s[i] == ':' && i + 1 < n && s[i + 1] == '~') {
      xadd(x, s + start, i + 1 - start, litflag);
      size_t rem = n - (i + 1);
      size_t used = do_tilde(x, s + i + 1, rem, last_part, "/:");
      i += used;
      start = i + 1;
    }
  }
  if (start < n) xadd(x, s + start, n - start, litflag);
}

/* $((...)): the text of its value into buf (SH_I64_LEN bytes) and its
 * length, or -1 after an error (which ends the command, as in bash). */
static long arith_part_text(sh_shell *sh, const sh_part *p, char *buf) {
  int64_t v;
  if (sh_expand_arith(sh, p->u.arith, &v)) {
    if (sh->flow == SH_FLOW_NONE) sh_fatal(sh, 1);
    return -1;
  }
  return (long)sh_fmt_i64(buf, v);
}

static void x_parts(xs *x, const sh_part *p, bool in_dq, char litflag) {
  sh_shell *sh = x->sh;
  bool first = true;
  for (; p && !x->err; p = p->next) {
    switch (p->kind) {
    case SH_PART_LIT:
      x_lit(x, p->u.lit.s, p->u.lit.n, in_dq ? XQ : litflag, first, p->next == NULL);
      break;
    case SH_PART_QLIT:
      if (p->u.lit.n == 0) {
        if (!in_dq) add_empty_mark(x);
      } else {
        xadd(x, p->u.lit.s, p->u.lit.n, XQ);
      }
      cur(x)->quoted = true;
      break;
    case SH_PART_DQUOTE: {
      bool only_at = true, has_at = false;
      for (const sh_part *c = p->u.children; c; c = c->next) {
        if (c->kind == SH_PART_PARAM && c->u.param->name &&
            ((c->u.param->name[0] == '@' && !c->u.param->name[1]) ||
             (c->u.param->index_all == '@' && !c->u.param->indirect) ||
             (c->u.param->op == SH_POP_NAMES && c->u.param->names_all == '@') ||
             (c->u.param->op == SH_POP_KEYS && c->u.param->index_all == '@')) &&
            !c->u.param->length) {
          has_at = true;
          continue;
        }
        if (c->kind == SH_PART_QLIT && c->u.lit.n == 0) continue;
        only_at = false;
      }
      only_at = only_at && has_at;
      /* "" and "$empty" leave a mark so the (empty) field survives;
       * "$@" with no parameters leaves nothing */
      if (!only_at) add_empty_mark(x);
      x_parts(x, p->u.children, true, XQ);
      break;
    }
    case SH_PART_PARAM:
      if (++x->depth > 500) {
        sh_error(sh, "expansion nesting too deep");
        x->err = true;
        break;
      }
      expand_param(x, p->u.param, in_dq);
      x->depth--;
      break;
    case SH_PART_CMDSUB: {
      int st = 0;
      char *out = sh_command_subst(sh, p->u.cmd.body, &st);
      if (!out) {
        x->err = true;
        break;
      }
      add_cmd_output(x, out, in_dq);
      free(out);
      if (sh->flow == SH_FLOW_ABORT) x->err = true;
      break;
    }
    case SH_PART_ARITH: {
      char buf[SH_I64_LEN];
      long n = arith_part_text(sh, p, buf);
      if (n < 0) {
        x->err = true;
        break;
      }
      xadd(x, buf, (size_t)n, in_dq ? XQ : XS);
      if (in_dq) cur(x)->quoted = true;
      break;
    }
    case SH_PART_PROCSUB: {
      char *path = sh_procsub(sh, p->u.cmd.body, p->u.cmd.dir);
      if (!path) {
        x->err = true;
        break;
      }
      xadd(x, path, strlen(path), XQ);
      free(path);
      break;
    }
    case SH_PART_ARRAY:
      /* an array literal outside an assignment context: its source text */
      xadd(x, "(", 1, XQ);
      for (size_t i = 0; i < p->u.array.n; i++) {
        if (i) xadd(x, " ", 1, XQ);
        bool err = false;
        char *s = expand_to_string(sh, p->u.array.elems[i].value, 0, &err);
        if (s) xadd(x, s, strlen(s), XQ);
        free(s);
      }
      xadd(x, ")", 1, XQ);
      break;
    }
    first = false;
  }
}

/* ---- splitting and globbing ------------------------------------------------------------------------ */

typedef struct piece {
  char *s;
  char *q;
  size_t n;
} piece;

typedef struct pieces {
  piece *p;
  size_t n, cap;
} pieces;

static void pieces_add(pieces *ps, const char *s, const char *q, size_t n) {
  if (ps->n == ps->cap) {
    ps->cap = ps->cap ? ps->cap * 2 : 8;
    ps->p = sh_xrealloc(ps->p, ps->cap * sizeof *ps->p);
  }
  piece *p = &ps->p[ps->n++];
  p->s = sh_xstrndup(s, n);
  p->q = sh_xmalloc(n + 1);
  memcpy(p->q, q, n);
  p->q[n] = 0;
  p->n = n;
}

static void pieces_free(pieces *ps) {
  for (size_t i = 0; i < ps->n; i++) {
    free(ps->p[i].s);
    free(ps->p[i].q);
  }
  free(ps->p);
}

/* The length of the IFS character at s[i] (0 if none). IFS characters are
 * UTF-8 characters unless the locale is C: IFS=ç splits on the two bytes
 * together. Only unquoted bytes split. */
static size_t ifs_at(const char *ifs, const char *s, const char *q, size_t i, size_t n) {
  if (!(q[i] & XS) || !s[i]) return 0;
  size_t l = sh_char_len(s + i, n - i);
  for (size_t k = 1; k < l; k++)
    if (!(q[i + k] & XS)) return 0;
  for (const char *p = ifs; *p;) {
    size_t pl = sh_char_len(p, strlen(p));
    if (pl == l && !memcmp(p, s + i, l)) return l;
    p += pl;
  }
  return 0;
}

static void split_field(xfield *f, const char *ifs, pieces *out) {
  const char *s = f->s.data ? f->s.data : "";
  const char *q = f->q.data ? f->q.data : "";
  size_t n = f->s.len;
  bool any_split = false;
  for (size_t i = 0; i < n; i++)
    if (ifs_at(ifs, s, q, i, n)) {
      any_split = true;
      break;
    }
  if (!any_split || !*ifs) {
    if (n > 0) pieces_add(out, s, q, n);
    return;
  }
  sh_buf cs = {0}, cq = {0};
  bool have = false; /* current piece has content (or quoted empty) */
  size_t i = 0;
#define ISWS(k) (ifs_at(ifs, s, q, k, n) && is_ifs_ws(s[k]))
  while (i < n && ISWS(i)) i++;
  while (i < n) {
    size_t il = ifs_at(ifs, s, q, i, n);
    if (il) {
      bool ws = is_ifs_ws(s[i]);
      if (ws) {
        size_t j = i;
        while (j < n && ISWS(j)) j++;
        if (j < n && ifs_at(ifs, s, q, j, n) && !is_ifs_ws(s[j])) {
          i = j;
          continue; /* whitespace then a non-whitespace delimiter: one delimiter */
        }
        pieces_add(out, sh_buf_str(&cs), sh_buf_str(&cq), cs.len);
        sh_buf_clear(&cs);
        sh_buf_clear(&cq);
        have = false;
        i = j;
        continue;
      }
      /* non-whitespace delimiter: ends the current piece (even empty) */
      pieces_add(out, sh_buf_str(&cs), sh_buf_str(&cq), cs.len);
      sh_buf_clear(&cs);
      sh_buf_clear(&cq);
      have = false;
      i += il;
      while (i < n && ISWS(i)) i++;
      continue;
    }
    sh_buf_addc(&cs, s[i]);
    sh_buf_addc(&cq, q[i]);
    have = true;
    i++;
  }
  if (have || cs.len > 0) pieces_add(out, sh_buf_str(&cs), sh_buf_str(&cq), cs.len);
  sh_buf_free(&cs);
  sh_buf_free(&cq);
#undef ISWS
}

static bool piece_has_glob(const piece *p, int fl) {
  for (size_t i = 0; i < p->n; i++) {
    if (p->q[i] & XQ) continue;
    char c = p->s[i];
    if (c == '*' || c == '?' || c == '[') return true;
    if ((fl & SH_FNM_EXTGLOB) && (c == '+' || c == '@' || c == '!') && i + 1 < p->n && p->s[i + 1] == '(')
      return true;
  }
  return false;
}

static char *piece_pattern(const piece *p) {
  sh_buf b = {0};
  for (size_t i = 0; i < p->n; i++) {
    if (p->q[i] & XE) continue;
    /* a quoted char is literal; '/' stays bare: it separates the components */
    if ((p->q[i] & XQ) && p->s[i] != '/') sh_buf_addc(&b, '\\');
    sh_buf_addc(&b, p->s[i]);
  }
  return sh_buf_steal(&b);
}

/* The text of a piece without empty-quote marks. */
static char *piece_text(const piece *p) {
  char *r = sh_xmalloc(p->n + 1);
  size_t k = 0;
  for (size_t i = 0; i < p->n; i++)
    if (!(p->q[i] & XE)) r[k++] = p->s[i];
  r[k] = 0;
  return r;
}

/* Glob or quote-remove the pieces into out. Returns 1 on failglob. */
static int finish_pieces(sh_shell *sh, pieces *ps, sh_strv *out) {
  int fl = sh_fnm_flags(sh, false);
  for (size_t i = 0; i < ps->n; i++) {
    piece *p = &ps->p[i];
    if (!sh->opt[SH_OPT_NOGLOB] && piece_has_glob(p, fl)) {
      char *pat = piece_pattern(p);
      if (sh_has_glob(pat, fl)) {
        size_t before = out->n;
        size_t got = sh_glob(sh, pat, out);
        (void)before;
        if (got > 0) {
          free(pat);
          continue;
        }
        if (sh->opt[SH_SHOPT_FAILGLOB]) {
          /* bash abandons the rest of the command line */
          sh_error(sh, "no match: %s", p->s);
          free(pat);
          sh_fatal(sh, 1);
          return 1;
        }
        if (sh->opt[SH_SHOPT_NULLGLOB]) {
          free(pat);
          continue;
        }
      }
      free(pat);
    }
    sh_strv_push(out, piece_text(p));
    if (out->n > sh->sess->limits.array_size) {
      sh_limit_hit(sh, SH_LIMIT_ARRAY, sh->sess->limits.array_size);
      return 1;
    }
  }
  return 0;
}

/* ---- brace expansion ----------------------------------------------------------------------------------- */

/* An atom: a literal char (part == NULL) or an opaque part. */
typedef struct batom {
  char c;
  const sh_part *part;
} batom;

typedef struct bseq {
  batom *a;
  size_t n;
} bseq;

typedef struct bctx {
  sh_arena *arena;
  bseq *out;
  size_t nout, capout;
  uint64_t limit;
  bool over;
  int depth;
  bool mixed;      /* a {z..A} range: bash fails on it */
} bctx;

static void bout(bctx *b, batom *a, size_t n) {
  if (b->over) return;
  if (b->nout >= b->limit) {
    b->over = true;
    return;
  }
  if (b->nout == b->capout) {
    b->capout = b->capout ? b->capout * 2 : 8;
    b->out = sh_xrealloc(b->out, b->capout * sizeof *b->out);
  }
  b->out[b->nout].a = sh_xmalloc((n + 1) * sizeof *a);
  memcpy(b->out[b->nout].a, a, n * sizeof *a);
  b->out[b->nout].n = n;
  b->nout++;
}

static bool is_lit(const batom *a, char c) { return !a->part && a->c == c; }

/* Parses an integer from atoms [i, j). */
static bool atoms_int(const batom *a, size_t i, size_t j, int64_t *v, int *width) {
  if (i >= j) return false;
  size_t k = i;
  bool neg = false;
  if (is_lit(&a[k], '-') || is_lit(&a[k], '+')) {
    neg = a[k].c == '-';
    k++;
  }
  if (k >= j) return false;
  int64_t r = 0;
  int w = (int)(j - i);
  for (; k < j; k++) {
    if (a[k].part || a[k].c < '0' || a[k].c > '9') return false;
    if (r > INT64_MAX / 10 - 10) return false;
    r = r * 10 + (a[k].c - '0');
  }
  *v = neg ? -r : r;
  *width = w;
  return true;
}

static void brace_rec(bctx *b, batom *a, size_t n);

/* Tries a sequence expression {x..y[..z]} at [open+1, close). */
static bool brace_seq(bctx *b, batom *a, size_t n, size_t open, size_t close) {
  /* find the ".." separators */
  size_t d1 = 0, d2 = 0;
  int dots = 0;
  for (size_t k = open + 1; k + 1 < close; k++) {
    if (is_lit(&a[k], '.') && is_lit(&a[k + 1], '.')) {
      if (dots == 0) d1 = k;
      else if (dots == 1) d2 = k;
      dots++;
      k++;
    }
  }
  if (dots < 1 || dots > 2) return false;
  size_t e1 = d1, s2 = d1 + 2, e2 = dots == 2 ? d2 : close;
  int64_t step = 1;
  int wz;
  if (dots == 2) {
    if (!atoms_int(a, d2 + 2, close, &step, &wz)) return false;
  }
  int64_t x, y;
  int wx, wy;
  bool num = atoms_int(a, open + 1, e1, &x, &wx) && atoms_int(a, s2, e2, &y, &wy);
  bool chr = false;
  if (!num) {
    if (e1 == open + 2 && e2 == s2 + 1 && !a[open + 1].part && !a[s2].part) {
      x = (unsigned char)a[open + 1].c;
      y = (unsigned char)a[s2].c;
      chr = true;
      if (!((x >= 'a' && x <= 'z') || (x >= 'A' && x <= 'Z')) ||
          !((y >= 'a' && y <= 'z') || (y >= 'A' && y <= 'Z')))
        return false;
      if ((x >= 'a') != (y >= 'a') && n - close - 1 > 0) {
        /* {z..A}x spans ` and [ \ ]: bash fails on the backquote it makes
         * when text follows it; alone, ` stays and \ is removed */
        b->mixed = true;
        return true;
      }
    } else {
      return false;
    }
  }
  if (step == 0) step = 1;
  if (step < 0) step = -step;
  /* zero padding when either end has a leading zero */
  int width = 0;
  if (num) {
    bool pad = false;
    size_t k1 = open + 1, k2 = s2;
    if (is_lit(&a[k1], '-')) k1++;
    if (is_lit(&a[k2], '-')) k2++;
    if ((e1 - k1 > 1 && a[k1].c == '0') || (e2 - k2 > 1 && a[k2].c == '0')) pad = true;
    if (pad) width = wx > wy ? wx : wy;
  }
  uint64_t count = (uint64_t)((x <= y ? (uint64_t)y - (uint64_t)x : (uint64_t)x - (uint64_t)y) / (uint64_t)step) + 1;
  if (count > b->limit || b->nout + count > b->limit) {
    b->over = true;
    return true;
  }
  size_t tail = n - close - 1;
  batom *buf = sh_xmalloc((open + 32 + tail + 1) * sizeof *buf);
  memcpy(buf, a, open * sizeof *buf);
  for (uint64_t i = 0; i < count && !b->over; i++) {
    int64_t v = x <= y ? x + (int64_t)i * step : x - (int64_t)i * step;
    char t[40];
    int tl;
    if (chr) {
      t[0] = (char)v;
      tl = 1;
    } else if (width) {
      if (v < 0) tl = snprintf(t, sizeof t, "-%0*" PRId64, width - 1, -v);
      else tl = snprintf(t, sizeof t, "%0*" PRId64, width, v);
    } else {
      tl = snprintf(t, sizeof t, "%" PRId64, v);
    }
    size_t k = open;
    for (int m = 0; m < tl; m++) {
      buf[k].c = t[m];
      buf[k].part = NULL;
      if (chr && (t[m] == '`' || t[m] == '\\')) {
        /* quoted: the backquote as itself, the backslash removed (bash) */
        sh_part *q = sh_arena_alloc(b->arena, sizeof *q);
        memset(q, 0, sizeof *q);
        q->kind = SH_PART_QLIT;
        q->u.lit.s = t[m] == '`' ? "`" : "";
        q->u.lit.n = t[m] == '`' ? 1 : 0;
        buf[k].part = q;
      }
      k++;
    }
    memcpy(buf + k, a + close + 1, tail * sizeof *buf);
    brace_rec(b, buf, k + tail);
  }
  free(buf);
  return true;
}

static void brace_rec(bctx *b, batom *a, size_t n) {
  if (b->over) return;
  if (++b->depth > 100) {
    b->depth--;
    bout(b, a, n);
    return;
  }
  for (size_t i = 0; i < n; i++) {
    if (!is_lit(&a[i], '{')) continue;
    /* find the matching close and top-level commas */
    int depth = 0;
    size_t close = 0;
    bool found = false;
    size_t ncomma = 0;
    for (size_t k = i + 1; k < n; k++) {
      if (is_lit(&a[k], '{')) depth++;
      else if (is_lit(&a[k], '}')) {
        if (depth == 0) {
          close = k;
          found = true;
          break;
        }
        depth--;
      } else if (is_lit(&a[k], ',') && depth == 0) {
        ncomma++;
      }
    }
    if (!found) continue; /* this { is literal: {{a,b} gives {a {b */
    if (ncomma == 0) {
      /* ${ is not a brace expansion start; try a sequence */
      if (brace_seq(b, a, n, i, close)) {
        b->depth--;
        return;
      }
      continue;
    }
    /* alternatives */
    size_t start = i + 1;
    depth = 0;
    size_t tail = n - close - 1;
    batom *buf = sh_xmalloc((n + 1) * sizeof *buf);
    memcpy(buf, a, i * sizeof *buf);
    for (size_t k = i + 1; k <= close; k++) {
      bool at_end = k == close;
      if (!at_end) {
        if (is_lit(&a[k], '{')) depth++;
        else if (is_lit(&a[k], '}')) depth--;
      }
      if (at_end || (is_lit(&a[k], ',') && depth == 0)) {
        size_t alen = k - start;
        memcpy(buf + i, a + start, alen * sizeof *buf);
        memcpy(buf + i + alen, a + close + 1, tail * sizeof *buf);
        brace_rec(b, buf, i + alen + tail);
        start = k + 1;
        if (b->over) break;
      }
    }
    free(buf);
    b->depth--;
    return;
  }
  bout(b, a, n);
  b->depth--;
}

static bool word_has_brace(const sh_word *w) {
  for (const sh_part *p = w->parts; p; p = p->next)
    if (p->kind == SH_PART_LIT && memchr(p->u.lit.s, '{', p->u.lit.n)) return true;
  return false;
}

long sh_brace_expand(sh_arena *ar, sh_word *w, sh_word ***out, uint64_t limit) {
  if (!word_has_brace(w)) {
    *out = sh_arena_alloc(ar, sizeof **out);
    (*out)[0] = w;
    return 1;
  }
  /* flatten */
  size_t n = 0;
  for (const sh_part *p = w->parts; p; p = p->next) n += p->kind == SH_PART_LIT ? p->u.lit.n : 1;
  batom *a = sh_xmalloc((n + 1) * sizeof *a);
  size_t k = 0;
  for (const sh_part *p = w->parts; p; p = p->next) {
    if (p->kind == SH_PART_LIT) {
      for (size_t i = 0; i < p->u.lit.n; i++) {
        a[k].c = p->u.lit.s[i];
        a[k].part = NULL;
        k++;
      }
    } else {
      a[k].c = 0;
      a[k].part = p;
      k++;
    }
  }
  bctx b = {0};
  b.arena = ar;
  b.limit = limit ? limit : 1;
  brace_rec(&b, a, n);
  free(a);
  if (b.mixed) {
    for (size_t i = 0; i < b.nout; i++) free(b.out[i].a);
    free(b.out);
    return -2;
  }
  if (b.over) {
    for (size_t i = 0; i < b.nout; i++) free(b.out[i].a);
    free(b.out);
    return -1;
  }
  sh_word **words = sh_arena_alloc(ar, (b.nout + 1) * sizeof *words);
  for (size_t i = 0; i < b.nout; i++) {
    sh_word *nw = sh_arena_alloc(ar, sizeof *nw);
    nw->line = w->line;
    nw->col = w->col;
    sh_part *head = NULL, **tail = &head;
    bseq *s = &b.out[i];
    for (size_t j = 0; j < s->n;) {
      if (s->a[j].part) {
        sh_part *cp = sh_arena_alloc(ar, sizeof *cp);
        *cp = *s->a[j].part;
        cp->next = NULL;
        *tail = cp;
        tail = &cp->next;
        j++;
        /* brace expansion is textual in bash: $a followed by name characters
         * names a longer variable ({$a,b}_c gives $a_c) */
        const sh_param *pa = cp->kind == SH_PART_PARAM ? cp->u.param : NULL;
        if (pa && !pa->brace && pa->op == SH_POP_NONE && !pa->index && !pa->index_all && !pa->length &&
            !pa->indirect && sh_is_name(pa->name)) {
          size_t e = j;
          while (e < s->n && !s->a[e].part && sh_is_name_char((unsigned char)s->a[e].c)) e++;
          if (e > j) {
            size_t nl = strlen(pa->name);
            char *nm = sh_arena_alloc(ar, nl + (e - j) + 1);
            memcpy(nm, pa->name, nl);
            for (size_t m = j; m < e; m++) nm[nl + m - j] = s->a[m].c;
            sh_param *np = sh_arena_alloc(ar, sizeof *np);
            *np = *pa;
            np->name = nm;
            cp->u.param = np;
            j = e;
          }
        }
        continue;
      }
      size_t e = j;
      while (e < s->n && !s->a[e].part) e++;
      char *txt = sh_arena_alloc(ar, e - j + 1);
      for (size_t m = j; m < e; m++) txt[m - j] = s->a[m].c;
      sh_part *lp = sh_arena_alloc(ar, sizeof *lp);
      lp->kind = SH_PART_LIT;
      lp->u.lit.s = txt;
      lp->u.lit.n = e - j;
      *tail = lp;
      tail = &lp->next;
      j = e;
    }
    nw->parts = head;
    words[i] = nw;
    free(s->a);
  }
  free(b.out);
  *out = words;
  return (long)b.nout;
}

/* ---- entry points ------------------------------------------------------------------------------------- */

static int expand_one(sh_shell *sh, const sh_word *w, sh_strv *out) {
  /* fast path: a plain literal without special characters */
  if (w->lit) {
    const char *s = w->lit;
    bool plain = s[0] != '~';
    for (const char *c = s; *c && plain; c++)
      if (*c == '*' || *c == '?' || *c == '[' || *c == '(' ) plain = false;
    if (plain) {
      sh_strv_pushdup(out, s);
      return 0;
    }
  }
  xs x;
  xs_init(&x, sh, 0);
  x.assign_word = w->assign && !sh->opt[SH_OPT_POSIX];
  x_parts(&x, w->parts, false, 0);
  if (x.err) {
    xs_free(&x);
    return 1;
  }
  const char *ifs = ifs_value(sh);
  pieces ps = {0};
  for (size_t i = 0; i < x.nf; i++) split_field(&x.f[i], ifs, &ps);
  int r = finish_pieces(sh, &ps, out);
  pieces_free(&ps);
  xs_free(&x);
  return r;
}

int sh_expand_words(sh_shell *sh, sh_word *const *words, size_t n, sh_strv *out) {
  for (size_t i = 0; i < n; i++) {
    sh_word *w = words[i];
    if (sh->opt[SH_OPT_BRACEEXPAND] && word_has_brace(w)) {
      sh_arena *ar = sh_arena_new();
      sh_word **ws;
      long cnt = sh_brace_expand(ar, w, &ws, sh->sess->limits.array_size);
      if (cnt == -2) {
        sh_arena_unref(ar);
        sh_error(sh, "bad substitution: no closing \"`\" in `");
        sh_fatal(sh, 1);
        return 1;
      }
      if (cnt < 0) {
        sh_arena_unref(ar);
        sh_limit_hit(sh, SH_LIMIT_ARRAY, sh->sess->limits.array_size);
        return 1;
      }
      for (long k = 0; k < cnt; k++) {
        if (expand_one(sh, ws[k], out)) {
          sh_arena_unref(ar);
          return 1;
        }
      }
      sh_arena_unref(ar);
      continue;
    }
    if (expand_one(sh, w, out)) return 1;
    if (sh->flow == SH_FLOW_ABORT) return 1;
  }
  return 0;
}

int sh_expand_word_fields(sh_shell *sh, sh_word *w, sh_strv *out) {
  return sh_expand_words(sh, &w, 1, out);
}

int sh_expand_lone_arith(sh_shell *sh, const sh_word *w, char *buf) {
  const sh_part *p = w ? w->parts : NULL;
  if (!p || p->kind != SH_PART_ARITH || p->next) return 0;
  long n = arith_part_text(sh, p, buf);
  return n < 0 || over_string_limit(sh, (size_t)n) ? -1 : 1;
}

static char *expand_to_string(sh_shell *sh, const sh_word *w, int flags, bool *err) {
  if (!w) return sh_xstrdup("");
  if (w->lit && !(flags & (SH_XF_PATTERN | SH_XF_REGEX)) && w->lit[0] != '~') return sh_xstrdup(w->lit);
  if (!(flags & (SH_XF_PATTERN | SH_XF_REGEX))) {
    /* x=$((...)): the number is the string */
    char buf[SH_I64_LEN];
    int lone = sh_expand_lone_arith(sh, w, buf);
    if (lone < 0) {
      *err = true;
      return NULL;
    }
    if (lone) return sh_xstrdup(buf);
  }
  xs x;
  xs_init(&x, sh, flags);
  x.string_ctx = true;
  x_parts(&x, w->parts, (flags & SH_XF_HEREDOC) != 0, 0);
  if (x.err) {
    xs_free(&x);
    *err = true;
    return NULL;
  }
  sh_buf b = {0};
  for (size_t i = 0; i < x.nf; i++) {
    if (i) sh_buf_addc(&b, ' ');
    xfield *f = &x.f[i];
    const char *s = f->s.data ? f->s.data : "";
    const char *q = f->q.data ? f->q.data : "";
    if (flags & SH_XF_PATTERN) {
      for (size_t k = 0; k < f->s.len; k++) {
        if (q[k] & XE) continue;
        if ((q[k] & XQ) && strchr("\\*?[]!@+()|^-&", s[k])) sh_buf_addc(&b, '\\');
        sh_buf_addc(&b, s[k]);
      }
    } else if (flags & SH_XF_REGEX) {
      for (size_t k = 0; k < f->s.len; k++) {
        if (q[k] & XE) continue;
        if ((q[k] & XQ) && strchr("\\.[](){}*+?^$|", s[k])) sh_buf_addc(&b, '\\');
        sh_buf_addc(&b, s[k]);
      }
    } else {
      /* the plain string: the marks go; a lone field's bytes are the result */
      size_t n = 0;
      for (size_t k = 0; k < f->s.len; k++)
        if (!(q[k] & XE)) f->s.data[n++] = s[k];
      if (f->s.data) f->s.data[n] = 0;
      f->s.len = n;
      if (x.nf == 1) {
        char *r = sh_buf_steal(&f->s);
        xs_free(&x);
        return r;
      }
      sh_buf_add(&b, f->s.data, n);
    }
  }
  xs_free(&x);
  return sh_buf_steal(&b);
}

char *sh_expand_string(sh_shell *sh, const sh_word *w, int flags) {
  bool err = false;
  char *r = expand_to_string(sh, w, flags, &err);
  if (err) {
    free(r);
    return NULL;
  }
  return r;
}

/* `text` parsed as a word (or as the inside of "..." when `dq`) and expanded
 * with `flags`: the result, or NULL after an error (reported). */
static char *expand_text(sh_shell *sh, const char *text, bool dq, int flags) {
  sh_arena *a = sh_arena_new();
  char *err = NULL;
  size_t n = strlen(text);
  sh_word *w = dq ? sh_parse_dq_string(a, text, n, sh->lineno, &err)
                  : sh_parse_word_string(a, text, n, sh->lineno, &err);
  char *r = NULL;
  if (!w) {
    sh_error(sh, "%s", err ? err : "syntax error");
    free(err);
  } else {
    r = sh_expand_string(sh, w, flags);
  }
  sh_arena_unref(a);
  return r;
}

char *sh_expand_arith_text(sh_shell *sh, const char *text) {
  if (!strchr(text, '$') && !strchr(text, '`') && !strchr(text, '"') && !strchr(text, '\''))
    return sh_xstrdup(text);
  return expand_text(sh, text, true, SH_XF_HEREDOC);
}

/* The text of a word made of literal parts only (what expand_to_string
 * gives it without tildes: the parts' bytes in a row) into buf of bs bytes:
 * true, or false when a part is an expansion or the text does not fit. */
static bool literal_text(const sh_word *w, char *buf, size_t bs) {
  size_t n = 0;
  for (const sh_part *p = w->parts; p; p = p->next) {
    if (p->kind != SH_PART_LIT && p->kind != SH_PART_QLIT) return false;
    if (p->u.lit.n >= bs - n) return false;
    memcpy(buf + n, p->u.lit.s, p->u.lit.n);
    n += p->u.lit.n;
  }
  buf[n] = 0;
  return true;
}

int sh_expand_arith(sh_shell *sh, const sh_word *w, int64_t *out) {
  *out = 0;
  if (!w) return 0;
  /* `i<1000` in a loop: no expansion to run, the text is the parts' */
  char lit[256];
  if (literal_text(w, lit, sizeof lit) && strlen(lit) <= sh->sess->limits.string_size)
    return sh_arith_eval_cached(sh, lit, out);
  char *t = sh_expand_string(sh, w, SH_XF_NOTILDE);
  if (!t) return 1;
  int r = sh_arith_eval(sh, t, out);
  free(t);
  return r;
}

char *sh_expand_redir_target(sh_shell *sh, const sh_word *w) {
  /* brace expansion applies too: more than one word is ambiguous */
  if (sh->opt[SH_OPT_BRACEEXPAND] && word_has_brace(w)) {
    sh_arena *ar = sh_arena_new();
    sh_word **ws;
    long cnt = sh_brace_expand(ar, (sh_word *)w, &ws, 2);
    sh_arena_unref(ar);
    if (cnt != 1) {
      sh_error(sh, "%s: ambiguous redirect", w->raw ? w->raw : "");
      return NULL;
    }
  }
  xs x;
  xs_init(&x, sh, 0);
  x_parts(&x, w->parts, false, 0);
  if (x.err) {
    xs_free(&x);
    return NULL;
  }
  const char *ifs = ifs_value(sh);
  pieces ps = {0};
  for (size_t i = 0; i < x.nf; i++) split_field(&x.f[i], ifs, &ps);
  xs_free(&x);
  sh_strv out = {0};
  if (ps.n == 1) {
    int fl = sh_fnm_flags(sh, false);
    if (!sh->opt[SH_OPT_NOGLOB] && piece_has_glob(&ps.p[0], fl)) {
      char *pat = piece_pattern(&ps.p[0]);
      sh_glob(sh, pat, &out);
      free(pat);
      if (out.n > 1) {
        sh_strv_free(&out);
        goto ambiguous;
      }
      if (out.n == 0 && sh->opt[SH_SHOPT_FAILGLOB]) {
        char *t = piece_text(&ps.p[0]);
        sh_error(sh, "no match: %s", t);
        free(t);
        pieces_free(&ps);
        return NULL;
      }
    }
    char *r = out.n == 1 ? sh_xstrdup(out.v[0]) : piece_text(&ps.p[0]);
    sh_strv_free(&out);
    pieces_free(&ps);
    return r;
  }
ambiguous:
  pieces_free(&ps);
  {
    /* the original text for the message */
    sh_buf b = {0};
    for (const sh_part *p = w->parts; p; p = p->next) {
      if (p->kind == SH_PART_LIT || p->kind == SH_PART_QLIT) sh_buf_add(&b, p->u.lit.s, p->u.lit.n);
      else if (p->kind == SH_PART_PARAM && p->u.param->name) {
        sh_buf_addc(&b, '$');
        sh_buf_adds(&b, p->u.param->name);
      }
    }
    sh_error(sh, "%s: ambiguous redirect", sh_buf_str(&b));
    sh_buf_free(&b);
  }
  return NULL;
}

void sh_ifs_split(sh_shell *sh, const char *s, sh_strv *out, size_t max_fields) {
  (void)max_fields;
  xfield f = {0};
  sh_buf_adds(&f.s, s);
  size_t n = strlen(s);
  sh_buf_reserve(&f.q, n);
  memset(f.q.data, XS, n);
  f.q.len = n;
  f.q.data[n] = 0;
  pieces ps = {0};
  split_field(&f, ifs_value(sh), &ps);
  for (size_t i = 0; i < ps.n; i++) {
    sh_strv_push(out, ps.p[i].s);
    ps.p[i].s = NULL;
  }
  for (size_t i = 0; i < ps.n; i++) free(ps.p[i].q);
  free(ps.p);
  sh_buf_free(&f.s);
  sh_buf_free(&f.q);
}

/* ---- quoting -------------------------------------------------------------------------------------------- */

char *sh_quote_single(const char *s) {
  bool ctl = false;
  for (const char *p = s; *p; p++)
    if ((unsigned char)*p < 32 || *p == 127) ctl = true;
  if (ctl) return sh_quote(s, true);
  sh_buf b = {0};
  sh_buf_add_single_quoted(&b, s, strlen(s));
  return sh_buf_steal(&b);
}

char *sh_quote(const char *s, bool dollar_style) {
  sh_buf b = {0};
  if (!*s) return sh_xstrdup("''");
  bool ctl = false;
  for (const char *p = s; *p; p++)
    if ((unsigned char)*p < 32 || *p == 127) ctl = true;
  if (ctl || dollar_style) {
    if (!ctl) goto plain;
    sh_buf_adds(&b, "$'");
    for (const char *p = s; *p; p++) {
      unsigned char c = (unsigned char)*p;
      switch (c) {
      case '\n': sh_buf_adds(&b, "\\n"); break;
      case '\t': sh_buf_adds(&b, "\\t"); break;
      case '\r': sh_buf_adds(&b, "\\r"); break;
      case 27: sh_buf_adds(&b, "\\E"); break;
      case '\a': sh_buf_adds(&b, "\\a"); break;
      case '\b': sh_buf_adds(&b, "\\b"); break;
      case '\f': sh_buf_adds(&b, "\\f"); break;
      case '\v': sh_buf_adds(&b, "\\v"); break;
      case '\'': sh_buf_adds(&b, "\\'"); break;
      case '\\': sh_buf_adds(&b, "\\\\"); break;
      default:
        if (c < 32 || c == 127) sh_buf_addf(&b, "\\%03o", c);
        else sh_buf_addc(&b, (char)c);
      }
    }
    sh_buf_addc(&b, '\'');
    return sh_buf_steal(&b);
  }
plain:
  for (const char *p = s; *p; p++) {
    unsigned char c = (unsigned char)*p;
    if (strchr(" \t\n!\"#$&'()*,;<=>?[\\]^`{|}~", c) && c) {
      if (c == '~' && p != s) {
        sh_buf_addc(&b, (char)c);
        continue;
      }
      if ((c == '=' || c == ',') ) {
        sh_buf_addc(&b, (char)c);
        continue;
      }
      sh_buf_addc(&b, '\\');
    }
    sh_buf_addc(&b, (char)c);
  }
  return sh_buf_steal(&b);
}

/* Adds text that the later promptvars expansion must keep literally. */
static void prompt_add_quoted(sh_buf *b, const char *s, bool quote) {
  for (; *s; s++) {
    if (quote && (*s == '$' || *s == '`' || *s == '\\' || *s == '"')) sh_buf_addc(b, '\\');
    sh_buf_addc(b, *s);
  }
}

static void prompt_time(sh_buf *b, const char *fmt) {
  time_t now = time(NULL);
  struct tm tm;
  localtime_r(&now, &tm);
  char out[256];
  size_t n = strftime(out, sizeof out, fmt, &tm);
  sh_buf_add(b, out, n);
}

int sh_history_number(sh_shell *sh);
int sh_jobs_running(sh_shell *sh);

/* bash's decode_prompt_string, then (with promptvars) expansion as in double
 * quotes. Text from \w, \u and the like is quoted so that expansion keeps it;
 * \$ gives "\$" (the sandbox user has no root privileges: mode bits are
 * enforced, so the prompt shows the unprivileged '$'). */
char *sh_expand_prompt(sh_shell *sh, const char *s) {
  sh_buf b = {0};
  bool pv = sh->opt[SH_SHOPT_PROMPTVARS];
  for (const char *p = s; *p; p++) {
    if (*p != '\\' || !p[1]) {
      sh_buf_addc(&b, *p);
      continue;
    }
    p++;
    switch (*p) {
    case 'u': {
      const char *u = sh_var_get(sh, "USER");
      prompt_add_quoted(&b, u && *u ? u : "root", pv);
      break;
    }
    case 'h': case 'H': {
      const char *h = sh_var_get(sh, "HOSTNAME");
      if (!h || !*h) h = "sandbox";
      size_t n = *p == 'h' ? strcspn(h, ".") : strlen(h);
      char *t = sh_xstrndup(h, n);
      prompt_add_quoted(&b, t, pv);
      free(t);
      break;
    }
    case 'w': case 'W': {
      const char *pwd = sh_var_get(sh, "PWD");
      const char *cwd = pwd && *pwd == '/' ? pwd : sh->cwd ? sh->cwd : "/";
      const char *home = sh_var_get(sh, "HOME");
      size_t hl = home ? strlen(home) : 0;
      char *t;
      if (*p == 'W') {
        const char *sl = strrchr(cwd, '/');
        if (home && hl > 1 && !strcmp(cwd, home)) t = sh_xstrdup("~");
        else t = sh_xstrdup(sl && sl[1] ? sl + 1 : cwd);
      } else if (home && hl > 1 && !strncmp(cwd, home, hl) && (cwd[hl] == '/' || !cwd[hl])) {
        t = sh_xasprintf("~%s", cwd + hl);
      } else {
        t = sh_xstrdup(cwd);
      }
      prompt_add_quoted(&b, t, pv);
      free(t);
      break;
    }
    case '$':
      if (pv) sh_buf_addc(&b, '\\');
      sh_buf_addc(&b, '$');
      break;
    case 's': {
      const char *n = sh->arg0 ? sh->arg0 : "bash";
      const char *sl = strrchr(n, '/');
      prompt_add_quoted(&b, sl ? sl + 1 : n, pv);
      break;
    }
    case 'v': sh_buf_adds(&b, "5.2"); break;
    case 'V': sh_buf_adds(&b, "5.2.15"); break;
    case 'n': sh_buf_addc(&b, '\n'); break;
    case 'r': sh_buf_addc(&b, '\r'); break;
    case 'a': sh_buf_addc(&b, '\a'); break;
    case 'e': sh_buf_addc(&b, 27); break;
    case '\\': sh_buf_addc(&b, '\\'); break;
    case 't': prompt_time(&b, "%H:%M:%S"); break;
    case 'T': prompt_time(&b, "%I:%M:%S"); break;
    case '@': prompt_time(&b, "%I:%M %p"); break;
    case 'A': prompt_time(&b, "%H:%M"); break;
    case 'd': prompt_time(&b, "%a %b %d"); break;
    case 'D': {
      const char *close = p[1] == '{' ? strchr(p + 2, '}') : NULL;
      if (!close) {
        sh_buf_addc(&b, '\\');
        sh_buf_addc(&b, 'D');
        break;
      }
      char *fmt = sh_xstrndup(p + 2, (size_t)(close - p - 2));
      prompt_time(&b, *fmt ? fmt : "%X");
      free(fmt);
      p = close;
      break;
    }
    case 'j': sh_buf_addf(&b, "%d", sh_jobs_running(sh)); break;
    case 'l': sh_buf_adds(&b, "tty"); break;
    case '!': sh_buf_addf(&b, "%d", sh_history_number(sh)); break;
    case '#': sh_buf_addf(&b, "%d", sh->cmdnum); break;
    case '[': case ']': break;
    case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': {
      int v = 0, k = 0;
      while (k < 3 && p[k] >= '0' && p[k] <= '7') v = v * 8 + (p[k++] - '0');
      p += k - 1;
      char c = (char)(v & 0xff);
      if (c) {
        if (pv && (c == '$' || c == '`' || c == '\\' || c == '"')) sh_buf_addc(&b, '\\');
        sh_buf_addc(&b, c);
      }
      break;
    }
    default:
      sh_buf_addc(&b, '\\');
      sh_buf_addc(&b, *p);
    }
  }
  /* then parameter expansion of the result, as bash does with promptvars */
  char *t = sh_buf_steal(&b);
  if (!pv || (!strchr(t, '$') && !strchr(t, '`') && !strchr(t, '\\'))) return t;
  sh_arena *a = sh_arena_new();
  char *err = NULL;
  sh_word *w = sh_parse_dq_string(a, t, strlen(t), sh->lineno, &err);
  char *r = NULL;
  if (w) {
    bool e = false;
    r = expand_to_string(sh, w, SH_XF_HEREDOC, &e);
  }
  free(err);
  sh_arena_unref(a);
  if (!r) return t;
  free(t);
  return r;
}

char *sh_expand_subscript(sh_shell *sh, const char *text) {
  return expand_text(sh, text, false, SH_XF_NOTILDE);
}

int sh_assign_ref_elem(sh_shell *sh, const char *ref, const char *value, bool append) {
  const char *br = strchr(ref, '[');
  size_t rl = strlen(ref);
  if (!br || ref[rl - 1] != ']') return 1;
  char *name = sh_xstrndup(ref, (size_t)(br - ref));
  char *sub = sh_xstrndup(br + 1, rl - (size_t)(br - ref) - 2);
  int rc = 1, err;
  sh_var *v = sh_var_get_for_write(sh, name, 0, &err);
  if (v) {
    if (v->flags & SH_V_ASSOC) {
      char *k = sh_expand_subscript(sh, sub);
      if (k) rc = sh_var_set_key(sh, v, k, value, append);
      free(k);
    } else {
      char *t = sh_expand_arith_text(sh, sub);
      int64_t idx;
      if (t && !sh_arith_eval(sh, t, &idx)) rc = sh_var_set_index(sh, v, idx, value, append);
      free(t);
    }
  }
  free(name);
  free(sub);
  return rc;
}
