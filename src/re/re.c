/*
 * re.c - the public API of the regex engine: compile, then pick a matcher.
 *
 * Strategy per call (see re.h for the contract):
 *  1. A pattern that is one fixed string (no anchors, groups or case
 *     folding) is searched with memmem: its leftmost-longest match is its
 *     first occurrence.
 *  2. Otherwise the longest byte string every match must contain (the
 *     "required literal", found on the AST) is looked up with memmem first;
 *     absent means no match. When matches cannot contain a newline (grep's
 *     RE_NEWLINE patterns), re_first_end jumps from one occurrence to the
 *     next and runs the DFA on that line only.
 *  3. The lazy DFA answers "is there a match, and where does the earliest one
 *     end" in linear time. Only when the caller wants the span or groups does
 *     the Pike VM run (linear, POSIX leftmost-longest).
 *  4. Back-references: the DFA of a superset language rejects subjects that
 *     cannot match, then the budgeted backtracker decides.
 *  5. RE_PERL goes to PCRE2.
 * Each matcher counts steps against ctl->max_steps and polls ctl->poll.
 */
#include <stdlib.h>
#include <string.h>

#include "re/re_int.h"

#define RE_LIT_MAX 256 /* longest required literal kept */

struct re {
  unsigned flags;       /* compile flags */
  size_t nsub;          /* capture groups */
  re_prog prog;         /* byte program (not for RE_PERL) */
  re_dfa *dfa;          /* lazy DFA (created on first use) */
  re_dfa *dfa_w;        /* UTF-8 with word assertions: the DFA where undecidable
                           assertions hold (candidate lines), or NULL */
  bool dfa_failed;      /* could not allocate the DFA: use the Pike VM */
  re_pcre *pcre;        /* RE_PERL */
  bool pure;            /* the pattern is exactly the literal `lit` */
  unsigned char lit[RE_LIT_MAX]; /* required literal */
  size_t litlen;        /* its length (0 = none) */
  bool lit_fold;        /* compare the literal ignoring ASCII case (RE_NOCASE) */
  uint8_t skip[256];    /* Horspool shifts for the folded search */
  bool nl_bounded;      /* no match can contain '\n' */
  re_pike_mem pike;     /* Pike VM scratch, reused between calls */
};

static inline unsigned char fold(unsigned char c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }

/* ---- required literal ----------------------------------------------------------------- */

typedef struct lit {
  bool exact;                     /* the node always matches exactly `e` */
  unsigned char e[RE_LIT_MAX];    /* that string */
  size_t el;                      /* its length */
  unsigned char b[RE_LIT_MAX];    /* best required substring */
  size_t bl;                      /* its length */
} lit;

static void lit_best(lit *l, const unsigned char *s, size_t n) {
  if (n > l->bl) {
    if (n > RE_LIT_MAX) n = RE_LIT_MAX;
    memcpy(l->b, s, n);
    l->bl = n;
  }
}

static void analyze(const re_ast *a, int32_t i, unsigned flags, lit *out, bool *pure_ok) {
  const re_node *n = &a->nodes[i];
  memset(out, 0, offsetof(lit, e));
  out->el = out->bl = 0;
  switch (n->type) {
  case RN_EMPTY: out->exact = true; return;
  case RN_ASSERT:
    out->exact = true;
    *pure_ok = false;
    return;
  case RN_CHAR:
    out->exact = true;
    if (n->raw || !(flags & RE_UTF8) || n->ch < 0x80) {
      out->e[0] = (unsigned char)n->ch;
      out->el = 1;
    } else {
      out->el = (size_t)re_utf8_encode(n->ch, out->e);
    }
    lit_best(out, out->e, out->el);
    return;
  case RN_SET: {
    const re_cset *s = &a->sets[n->set];
    int cnt = 0, only = 0;
    for (int b = 0; b < 256; b++)
      if (re_bit_has(s->bits, (unsigned)b)) cnt++, only = b;
    if ((flags & RE_NOCASE) && s->n == 0 && cnt == 2 && only >= 'a' && only <= 'z' &&
        re_bit_has(s->bits, (unsigned)only - 32)) {
      /* [xX] from case folding: a literal for the folded search. */
      out->exact = true;
      out->e[0] = (unsigned char)only;
      out->el = 1;
      lit_best(out, out->e, 1);
      *pure_ok = false;
      return;
    }
    if (s->n == 0 && cnt == 1) {
      out->exact = true;
      out->e[0] = (unsigned char)only;
      out->el = 1;
      lit_best(out, out->e, 1);
    }
    *pure_ok = false;
    return;
  }
  case RN_GROUP:
    *pure_ok = false;
    analyze(a, n->kid, flags, out, pure_ok);
    return;
  case RN_REPEAT: {
    lit k;
    analyze(a, n->kid, flags, &k, pure_ok);
    *pure_ok = false;
    if (n->min >= 1) lit_best(out, k.b, k.bl);
    if (n->min == 1 && n->max == 1 && k.exact) {
      out->exact = true;
      memcpy(out->e, k.e, k.el);
      out->el = k.el;
    }
    return;
  }
  case RN_CAT: {
    lit k;
    unsigned char run[RE_LIT_MAX] = {0};
    size_t rl = 0;
    bool all = true, overflow = false;
    for (int32_t c = n->kid; c >= 0; c = a->nodes[c].next) {
      analyze(a, c, flags, &k, pure_ok);
      lit_best(out, k.b, k.bl);
      if (k.exact) {
        if (rl + k.el <= RE_LIT_MAX) {
          memcpy(run + rl, k.e, k.el);
          rl += k.el;
        } else {
          overflow = true;
        }
      } else {
        all = false;
        lit_best(out, run, rl);
        rl = 0;
      }
    }
    lit_best(out, run, rl);
    if (all && !overflow) {
      out->exact = true;
      memcpy(out->e, run, rl);
      out->el = rl;
    }
    return;
  }
  default:
    *pure_ok = false;
    return;
  }
}

/* ---- compile ------------------------------------------------------------------------ */

static bool consumes_newline(const re_prog *p) {
  for (size_t pc = 0; pc < p->n; pc++) {
    const re_inst *in = &p->ins[pc];
    if (in->op == I_BYTE && in->arg == '\n') return true;
    if (in->op == I_SET && re_bit_has(p->sets[in->x], '\n')) return true;
    if (in->op == I_DISPATCH)
      for (int32_t k = 0; k < in->y; k++)
        if (p->dents[in->x + k].lo <= '\n' && p->dents[in->x + k].hi >= '\n') return true;
  }
  return false;
}

int re_compile(re **out, const char *pat, size_t len, unsigned flags, re_err *err) {
  *out = NULL;
  if (err) {
    err->code = 0;
    err->offset = 0;
    err->msg[0] = 0;
  }
  re *r = calloc(1, sizeof *r);
  if (!r) {
    re_set_error(err, RE_ECOMPNOMEM, 0);
    return RE_ECOMPNOMEM;
  }
  r->flags = flags;
  if (flags & RE_PERL) {
    int rc = re_pcre_compile(&r->pcre, pat, len, flags, err, &r->nsub);
    if (rc) {
      free(r);
      return rc;
    }
    *out = r;
    return 0;
  }
  re_ast ast;
  int rc = re_parse(&ast, (const unsigned char *)pat, len, flags, err);
  if (rc) {
    free(r);
    return rc;
  }
  rc = re_compile_ast(&r->prog, &ast, flags, err);
  if (rc) {
    re_ast_free(&ast);
    free(r);
    return rc;
  }
  r->nsub = (size_t)ast.ngroups;
  lit l;
  bool pure_ok = true;
  analyze(&ast, ast.root, flags, &l, &pure_ok);
  if (l.exact && pure_ok && !ast.backrefs && ast.ngroups == 0 && l.el <= RE_LIT_MAX) {
    r->pure = true;
    memcpy(r->lit, l.e, l.el);
    r->litlen = l.el;
  } else if (l.bl > 0) {
    memcpy(r->lit, l.b, l.bl);
    r->litlen = l.bl;
  }
  if ((flags & RE_NOCASE) && r->litlen) {
    r->lit_fold = true;
    r->pure = false;
    for (size_t i = 0; i < r->litlen; i++) r->lit[i] = fold(r->lit[i]);
    size_t m = r->litlen;
    for (int c = 0; c < 256; c++) r->skip[c] = (uint8_t)(m > 255 ? 255 : m);
    for (size_t i = 0; i + 1 < m; i++) {
      size_t sh = m - 1 - i;
      r->skip[r->lit[i]] = (uint8_t)(sh > 255 ? 255 : sh);
      if (r->lit[i] >= 'a' && r->lit[i] <= 'z') r->skip[r->lit[i] - 32] = r->skip[r->lit[i]];
    }
  }
  r->nl_bounded = (flags & RE_NEWLINE) && !consumes_newline(&r->prog);
  re_ast_free(&ast);
  *out = r;
  return 0;
}

void re_free(re *r) {
  if (!r) return;
  re_dfa_free(r->dfa);
  re_dfa_free(r->dfa_w);
  re_pike_mem_free(&r->pike);
  re_pcre_free(r->pcre);
  re_prog_free(&r->prog);
  free(r);
}

size_t re_nsub(const re *r) { return r->nsub; }
int re_has_backrefs(const re *r) { return r->prog.has_backref; }

/* ---- execution ---------------------------------------------------------------------- */

static void run_init(re_run *run, const re *r, const char *s, size_t len, unsigned eflags,
                     const re_ctl *ctl) {
  run->s = (const unsigned char *)s;
  run->len = len;
  run->eflags = eflags;
  run->cflags = r->flags;
  run->steps = 0;
  run->max_steps = ctl && ctl->max_steps ? ctl->max_steps : RE_DEFAULT_STEPS;
  run->next_poll = RE_POLL_INTERVAL;
  run->ctl = ctl;
}

static re_dfa *get_dfa(re *r) {
  if (!r->dfa && !r->dfa_failed) {
    r->dfa = re_dfa_new(&r->prog, r->flags, r->prog.has_backref, false);
    if (!r->dfa) r->dfa_failed = true;
    if (r->dfa && r->prog.word_assert && (r->flags & RE_UTF8))
      r->dfa_w = re_dfa_new(&r->prog, r->flags, r->prog.has_backref, true);
  }
  return r->dfa;
}

/* Horspool search for the (lowercase) literal, ignoring ASCII case. */
static const unsigned char *find_lit_fold(const re *r, const unsigned char *s, size_t from,
                                          size_t len) {
  size_t m = r->litlen;
  if (m == 1) {
    unsigned char lo = r->lit[0], up = lo >= 'a' && lo <= 'z' ? lo - 32 : lo;
    for (size_t p = from; p < len;) {
      size_t blk = len - p > 4096 ? 4096 : len - p;
      const unsigned char *a = memchr(s + p, lo, blk), *b = lo != up ? memchr(s + p, up, blk) : NULL;
      if (a || b) return !a ? b : !b ? a : a < b ? a : b;
      p += blk;
    }
    return NULL;
  }
  const unsigned char *needle = r->lit;
  for (size_t i = from + m - 1; i < len; i += r->skip[fold(s[i])]) {
    size_t k = 0;
    const unsigned char *w = s + i + 1 - m;
    while (k < m && fold(w[k]) == needle[k]) k++;
    if (k == m) return w;
  }
  return NULL;
}

static const unsigned char *find_lit(const re *r, const unsigned char *s, size_t from, size_t len) {
  if (r->litlen == 0) return s + from;
  if (len - from < r->litlen) return NULL;
  if (r->lit_fold) return find_lit_fold(r, s, from, len);
  if (r->litlen == 1) return memchr(s + from, r->lit[0], len - from);
  return memmem(s + from, len - from, r->lit, r->litlen);
}

static void fill_spans(re_span *m, size_t nm, const ptrdiff_t *caps, int nslots) {
  for (size_t i = 0; i < nm; i++) {
    if ((int)(2 * i + 1) < nslots && caps[2 * i] >= 0 && caps[2 * i + 1] >= 0) {
      m[i].so = caps[2 * i];
      m[i].eo = caps[2 * i + 1];
    } else {
      m[i].so = m[i].eo = -1;
    }
  }
}

int re_exec(re *r, const char *subj, size_t len, size_t start, unsigned eflags, re_span *m,
            size_t nm, const re_ctl *ctl) {
  if (start > len) return RE_NOMATCH;
  re_run run;
  run_init(&run, r, subj, len, eflags, ctl);
  bool anchored = (eflags & RE_ANCHORED) != 0;
  if (r->pcre) return re_pcre_exec(r->pcre, &run, start, anchored, m, nm);
  const unsigned char *s = run.s;
  if (r->pure) {
    const unsigned char *q;
    if (anchored) q = (len - start >= r->litlen && memcmp(s + start, r->lit, r->litlen) == 0) ? s + start : NULL;
    else q = find_lit(r, s, start, len);
    if (!q) return RE_NOMATCH;
    for (size_t i = 0; i < nm; i++) m[i].so = m[i].eo = -1;
    if (nm) {
      m[0].so = q - s;
      m[0].eo = (q - s) + (ptrdiff_t)r->litlen;
    }
    return RE_MATCH;
  }
  if (r->litlen && !find_lit(r, s, start, len)) return RE_NOMATCH;
  re_dfa *d = get_dfa(r);
  size_t want = nm;
  if (want > r->nsub + 1) want = r->nsub + 1;
  int nslots = (int)(2 * (want ? want : 1));
  if (r->prog.has_backref) {
    if (d) {
      size_t e;
      int q = re_dfa_first_end(d, &run, start, len, &e);
      if (q == RE_NOMATCH || q < 0) return q;
    }
    ptrdiff_t *caps = malloc((size_t)r->prog.nslots * sizeof *caps);
    if (!caps) return RE_ENOMEM;
    int q = re_back_exec(&r->prog, &run, start, anchored, caps, r->prog.nslots);
    if (q == RE_MATCH) fill_spans(m, nm, caps, r->prog.nslots);
    free(caps);
    return q;
  }
  if (d) {
    size_t e;
    int q;
    if (anchored) {
      q = re_dfa_longest(d, &run, start, len, &e, NULL);
      if (q == RE_NOMATCH || q < 0) return q;
      if (q == RE_MATCH && (nm <= 1 || r->nsub == 0)) {
        for (size_t i = 0; i < nm; i++) m[i].so = m[i].eo = -1;
        if (nm) {
          m[0].so = (ptrdiff_t)start;
          m[0].eo = (ptrdiff_t)e;
        }
        return RE_MATCH;
      }
    } else {
      q = re_dfa_first_end(d, &run, start, len, &e);
      if (q == RE_NOMATCH || q < 0) return q;
      if (q == RE_MATCH && nm == 0) return RE_MATCH;
      if (q == RE_MATCH) {
        /* The leftmost match starts at or before e (the earliest end). Try
         * the positions where a match can start, in order, with the
         * anchored DFA: the first that matches is the leftmost match and
         * the DFA gives its longest end. Submatches then need the Pike VM
         * only anchored there. The attempts may look at 16 times the
         * distance to e (plus a little); past that the Pike VM does it all,
         * so the work stays linear either way. */
        const re_prog *pg = &r->prog;
        bool skip = !pg->first_any && !pg->can_empty_start;
        size_t p = start, scanned = 0, budget = 16 * (e - start + 1) + 256;
        for (; p <= e && scanned <= budget; p++) {
          if (skip) {
            while (p < e && !re_bit_has(pg->first, s[p])) p++;
            if (p >= len || !re_bit_has(pg->first, s[p])) break;
          }
          size_t e2;
          int q2 = re_dfa_longest(d, &run, p, len, &e2, &scanned);
          if (q2 < 0) return q2;
          if (q2 == RE_DFA_BAIL) break;
          if (q2 != RE_MATCH) continue;
          if (nm <= 1 || r->nsub == 0) {
            for (size_t i = 0; i < nm; i++) m[i].so = m[i].eo = -1;
            m[0].so = (ptrdiff_t)p;
            m[0].eo = (ptrdiff_t)e2;
            return RE_MATCH;
          }
          start = p;
          anchored = true;
          break;
        }
      }
    }
  }
  ptrdiff_t capsbuf[20];
  ptrdiff_t *caps = nslots <= 20 ? capsbuf : malloc((size_t)nslots * sizeof *caps);
  if (!caps) return RE_ENOMEM;
  int q = re_pike_exec(&r->prog, &run, start, anchored, caps, nslots, &r->pike);
  if (q == RE_MATCH) fill_spans(m, nm, caps, nslots);
  if (caps != capsbuf) free(caps);
  return q;
}

/* One line decided by the slow matchers (the backtracker for
 * back-references, else the Pike VM) on [ls, le) only, so that a line that
 * does not match costs that line's work, not the rest of the buffer's. */
static int slow_line(re *r, re_run *run, size_t ls, size_t le, size_t *end) {
  re_run sub = *run;
  sub.s = run->s + ls;
  sub.len = le - ls;
  sub.eflags = run->eflags & ~(RE_NOTBOL | RE_NOTEOL);
  if (ls > 0 && run->s[ls - 1] != '\n') sub.eflags |= RE_NOTBOL;
  if (le < run->len && run->s[le] != '\n') sub.eflags |= RE_NOTEOL;
  ptrdiff_t *caps = malloc((size_t)r->prog.nslots * sizeof *caps);
  if (!caps) return RE_ENOMEM;
  int q = r->prog.has_backref ? re_back_exec(&r->prog, &sub, 0, false, caps, r->prog.nslots)
                              : re_pike_exec(&r->prog, &sub, 0, false, caps, 2, &r->pike);
  run->steps = sub.steps;
  run->next_poll = sub.next_poll;
  if (q == RE_MATCH) *end = ls + (size_t)caps[1];
  free(caps);
  return q;
}

/* First match end via the slow matchers (DFA unavailable or bailed out). */
static int slow_end(re *r, re_run *run, size_t start, size_t *end) {
  ptrdiff_t *caps = malloc((size_t)r->prog.nslots * sizeof *caps);
  if (!caps) return RE_ENOMEM;
  int q = r->prog.has_backref ? re_back_exec(&r->prog, run, start, false, caps, r->prog.nslots)
                              : re_pike_exec(&r->prog, run, start, false, caps, 2, &r->pike);
  if (q == RE_MATCH) *end = (size_t)caps[1];
  free(caps);
  return q;
}

int re_first_end(re *r, const char *subj, size_t len, size_t start, unsigned eflags, size_t *end,
                 const re_ctl *ctl) {
  if (start > len) return RE_NOMATCH;
  re_run run;
  run_init(&run, r, subj, len, eflags, ctl);
  if (r->pcre) {
    re_span m0;
    int q = re_pcre_exec(r->pcre, &run, start, (eflags & RE_ANCHORED) != 0, &m0, 1);
    if (q == RE_MATCH) *end = (size_t)m0.eo;
    return q;
  }
  const unsigned char *s = run.s;
  if (eflags & RE_ANCHORED) {
    re_span m0;
    int q = re_exec(r, subj, len, start, eflags, &m0, 1, ctl);
    if (q == RE_MATCH) *end = (size_t)m0.eo;
    return q;
  }
  if (r->pure) {
    const unsigned char *q = find_lit(r, s, start, len);
    if (!q) return RE_NOMATCH;
    *end = (size_t)(q - s) + r->litlen;
    return RE_MATCH;
  }
  re_dfa *d = get_dfa(r);
  if (!d) return slow_end(r, &run, start, end);
  if (r->nl_bounded && (r->litlen || r->prog.has_backref || r->dfa_w)) {
    /* Visit only candidate lines -- those holding the required literal, or
     * accepted by a superset DFA (back-references as any string, word
     * assertions next to non-ASCII bytes as true) -- and decide each line on
     * its own. */
    re_dfa *cand = r->dfa_w ? r->dfa_w : d;
    size_t pos = start;
    while (pos <= len) {
      size_t qi;
      if (r->litlen) {
        const unsigned char *q = find_lit(r, s, pos, len);
        if (!q) return RE_NOMATCH;
        qi = (size_t)(q - s);
      } else {
        size_t e;
        int rc = re_dfa_first_end(cand, &run, pos, len, &e);
        if (rc == RE_NOMATCH || rc < 0) return rc;
        if (rc == RE_DFA_BAIL) return slow_end(r, &run, pos, end);
        qi = e;
      }
      const unsigned char *nl = qi > pos ? memrchr(s + pos, '\n', qi - pos) : NULL;
      size_t ls = nl ? (size_t)(nl - s) + 1 : pos;
      const unsigned char *ne = memchr(s + qi, '\n', len - qi);
      size_t le = ne ? (size_t)(ne - s) : len;
      int rc = re_dfa_first_end(d, &run, ls, le, end);
      if ((rc == RE_MATCH && r->prog.has_backref) || rc == RE_DFA_BAIL) rc = slow_line(r, &run, ls, le, end);
      if (rc != RE_NOMATCH) return rc;
      pos = le + 1;
    }
    return RE_NOMATCH;
  }
  if (r->litlen && !find_lit(r, s, start, len)) return RE_NOMATCH;
  int rc = re_dfa_first_end(d, &run, start, len, end);
  if (rc == RE_DFA_BAIL) return slow_end(r, &run, start, end);
  if (rc == RE_MATCH && r->prog.has_backref) return slow_end(r, &run, start, end);
  return rc;
}

/* ---- growing arrays (re_int.h) ---------------------------------------------------- */

int re_grow(void *items_ptr, size_t *cap, size_t need, size_t elem, size_t first, size_t max) {
  if (need <= *cap) return 0;
  if (max > SIZE_MAX / elem / 2) max = SIZE_MAX / elem / 2; /* nc * 2 * elem cannot wrap */
  size_t nc = *cap ? *cap * 2 : first;
  while (nc < need && nc <= max) nc *= 2;
  if (nc > max) return -2;
  void *old;
  memcpy(&old, items_ptr, sizeof old);
  void *p = realloc(old, nc * elem);
  if (!p) return -1;
  memcpy(items_ptr, &p, sizeof p);
  *cap = nc;
  return 0;
}
