/*
 * glob.c - pattern matching and pathname expansion (glob.h).
 *
 * The matcher is a backtracking recursive match. Two things keep hostile
 * patterns from running for hours:
 *   - the call's deadline: sh_fnmatch_sh polls sh_poll every MATCH_POLL_STEPS
 *     steps, so a timeout or sbx_cancel ends a match within milliseconds (the
 *     match then fails and sh->flow is SH_FLOW_ABORT); sh_fnmatch, for callers
 *     without a call (completion, help), keeps a step budget instead;
 *   - a memo of the extglob sub-matches: a group's alternatives, its
 *     repetitions and the rest of the pattern after it are pure functions of
 *     (pattern slice, subject slice), so each result is kept in a hash table
 *     (bounded: MEMO_MAX entries) and *(a)*(a)*(a)b or +(+(a))b against a
 *     long string is polynomial, not exponential.
 * Pathname expansion walks the store one component at a time; components
 * without special characters are taken literally (no directory read), `**`
 * with globstar recurses.
 */
#include "sh/glob.h"
#include "sh/vars.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MATCH_BUDGET 20000000L
#define MATCH_POLL_STEPS 4096
#define MEMO_MAX (1u << 20)

/* One remembered sub-match: the slices as offsets into the whole pattern and
 * subject, and what was asked (MEMO_ALTS, MEMO_REP0/1, MEMO_REST). */
typedef struct memo_entry {
  uint32_t p0, p1, s0, s1; /* pattern [p0,p1) and subject [s0,s1) */
  uint8_t kind;            /* 0 = empty slot */
  uint8_t result;          /* the answer */
} memo_entry;

enum { MEMO_ALTS = 1, MEMO_REP0, MEMO_REP1, MEMO_REST };

typedef struct mstate {
  int flags;            /* SH_FNM_* */
  long budget;          /* steps left (sh_fnmatch), or LONG_MAX with a shell */
  sh_shell *sh;         /* polled every MATCH_POLL_STEPS steps; NULL = budget only */
  unsigned poll_steps;  /* steps since the last poll */
  bool stop;            /* out of budget or the call must end: every match fails */
  const char *pat0;     /* the whole pattern and subject, for memo offsets */
  const char *s0;
  memo_entry *memo;     /* open-addressing table (owned), NULL until an extglob needs it */
  size_t memo_cap;      /* slots (a power of two) */
  size_t memo_n;        /* used slots */
} mstate;

/* Counts one step; false when the match must stop (budget, timeout, cancel). */
static bool step(mstate *m) {
  if (m->stop) return false;
  if (--m->budget < 0) {
    m->stop = true;
    return false;
  }
  if (m->sh && ++m->poll_steps >= MATCH_POLL_STEPS) {
    m->poll_steps = 0;
    if (sh_poll(m->sh)) m->stop = true;
  }
  return !m->stop;
}

static size_t memo_slot(const mstate *m, int kind, uint32_t p0, uint32_t p1, uint32_t s0,
                        uint32_t s1) {
  uint64_t h = (uint64_t)kind * 0x9E3779B97F4A7C15ull;
  h = (h ^ p0) * 0xff51afd7ed558ccdull;
  h = (h ^ p1) * 0xc4ceb9fe1a85ec53ull;
  h = (h ^ s0) * 0xff51afd7ed558ccdull;
  h = (h ^ s1) * 0xc4ceb9fe1a85ec53ull;
  h ^= h >> 29;
  size_t i = (size_t)h & (m->memo_cap - 1);
  while (m->memo[i].kind &&
         !(m->memo[i].kind == kind && m->memo[i].p0 == p0 && m->memo[i].p1 == p1 &&
           m->memo[i].s0 == s0 && m->memo[i].s1 == s1))
    i = (i + 1) & (m->memo_cap - 1);
  return i;
}

/* Offsets past 4 GiB do not fit a key: such slices are not remembered. */
static bool memo_fits(const mstate *m, const char *p, size_t pn, const char *s, size_t sn) {
  return (size_t)(p + pn - m->pat0) <= UINT32_MAX && (size_t)(s + sn - m->s0) <= UINT32_MAX;
}

/* The remembered answer to (kind, p[0,pn), s[0,sn)): 0 or 1, -1 if unknown. */
static int memo_get(const mstate *m, int kind, const char *p, size_t pn, const char *s, size_t sn) {
  if (!m->memo || !memo_fits(m, p, pn, s, sn)) return -1;
  size_t i = memo_slot(m, kind, (uint32_t)(p - m->pat0), (uint32_t)(p + pn - m->pat0),
                       (uint32_t)(s - m->s0), (uint32_t)(s + sn - m->s0));
  return m->memo[i].kind ? m->memo[i].result : -1;
}

/* Remembers an answer (not one cut short by stop); returns it. */
static bool memo_put(mstate *m, int kind, const char *p, size_t pn, const char *s, size_t sn, bool r) {
  if (m->stop || !memo_fits(m, p, pn, s, sn)) return r;
  if (m->memo_n + 1 > m->memo_cap / 2) {
    if (m->memo_cap >= MEMO_MAX) return r; /* full: answers are computed again */
    size_t ncap = m->memo_cap ? m->memo_cap * 2 : 1024;
    memo_entry *old = m->memo;
    size_t ocap = m->memo_cap;
    m->memo = sh_xcalloc(ncap, sizeof *m->memo);
    m->memo_cap = ncap;
    for (size_t i = 0; i < ocap; i++)
      if (old[i].kind)
        m->memo[memo_slot(m, old[i].kind, old[i].p0, old[i].p1, old[i].s0, old[i].s1)] = old[i];
    free(old);
  }
  uint32_t p0 = (uint32_t)(p - m->pat0), p1 = (uint32_t)(p + pn - m->pat0);
  uint32_t s0 = (uint32_t)(s - m->s0), s1 = (uint32_t)(s + sn - m->s0);
  size_t i = memo_slot(m, kind, p0, p1, s0, s1);
  if (!m->memo[i].kind) m->memo_n++;
  m->memo[i] = (memo_entry){p0, p1, s0, s1, (uint8_t)kind, r};
  return r;
}

static uint32_t u8dec(const char *s, size_t l) {
  const unsigned char *u = (const unsigned char *)s;
  switch (l) {
  case 2: return ((uint32_t)(u[0] & 0x1F) << 6) | (u[1] & 0x3F);
  case 3: return ((uint32_t)(u[0] & 0x0F) << 12) | ((uint32_t)(u[1] & 0x3F) << 6) | (u[2] & 0x3F);
  case 4:
    return ((uint32_t)(u[0] & 0x07) << 18) | ((uint32_t)(u[1] & 0x3F) << 12) |
           ((uint32_t)(u[2] & 0x3F) << 6) | (u[3] & 0x3F);
  default: return u[0];
  }
}

static uint32_t fold(uint32_t c, int flags) {
  if ((flags & SH_FNM_CASEFOLD) && c >= 'A' && c <= 'Z') return c + 32;
  return c;
}

static bool class_match(const char *name, size_t n, uint32_t c) {
#define CL(s) (n == sizeof(s) - 1 && memcmp(name, s, n) == 0)
  bool ascii = c < 128;
  if (CL("alpha")) return ascii && ((c | 32) >= 'a' && (c | 32) <= 'z');
  if (CL("digit")) return c >= '0' && c <= '9';
  if (CL("alnum")) return ascii && (((c | 32) >= 'a' && (c | 32) <= 'z') || (c >= '0' && c <= '9'));
  if (CL("upper")) return c >= 'A' && c <= 'Z';
  if (CL("lower")) return c >= 'a' && c <= 'z';
  if (CL("space")) return c == ' ' || (c >= 9 && c <= 13);
  if (CL("blank")) return c == ' ' || c == '\t';
  if (CL("punct")) return ascii && c > 32 && c < 127 && !(((c | 32) >= 'a' && (c | 32) <= 'z') || (c >= '0' && c <= '9'));
  if (CL("print")) return (c >= 32 && c < 127) || c >= 160;
  if (CL("graph")) return (c > 32 && c < 127) || c >= 160;
  if (CL("cntrl")) return c < 32 || c == 127;
  if (CL("xdigit")) return (c >= '0' && c <= '9') || ((c | 32) >= 'a' && (c | 32) <= 'f');
  if (CL("word")) return ascii && (((c | 32) >= 'a' && (c | 32) <= 'z') || (c >= '0' && c <= '9') || c == '_');
  return false;
#undef CL
}

/* Matches a bracket expression at pat[0] == '['. Returns the length of the
 * bracket expression (0 if it is not a valid one: '[' is then literal) and
 * sets *ok. */
static size_t bracket(const char *pat, size_t plen, uint32_t c, int flags, bool *ok) {
  size_t i = 1;
  bool neg = false;
  if (i < plen && (pat[i] == '!' || pat[i] == '^')) {
    neg = true;
    i++;
  }
  bool matched = false;
  bool first = true;
  uint32_t fc = fold(c, flags);
  while (i < plen) {
    if (pat[i] == ']' && !first) {
      *ok = matched != neg;
      return i + 1;
    }
    first = false;
    uint32_t lo;
    if (pat[i] == '[' && i + 1 < plen && pat[i + 1] == ':') {
      size_t j = i + 2;
      while (j + 1 < plen && !(pat[j] == ':' && pat[j + 1] == ']')) j++;
      if (j + 1 < plen) {
        if (class_match(pat + i + 2, j - i - 2, c)) matched = true;
        else if ((flags & SH_FNM_CASEFOLD) && class_match(pat + i + 2, j - i - 2, fc)) matched = true;
        i = j + 2;
        continue;
      }
    }
    if (pat[i] == '\\' && i + 1 < plen) i++;
    size_t l = sh_char_len(pat + i, plen - i);
    lo = u8dec(pat + i, l);
    i += l;
    if (i + 1 < plen && pat[i] == '-' && pat[i + 1] != ']') {
      i++;
      if (pat[i] == '\\' && i + 1 < plen) i++;
      size_t l2 = sh_char_len(pat + i, plen - i);
      uint32_t hi = u8dec(pat + i, l2);
      i += l2;
      if (fold(lo, flags) <= fc && fc <= fold(hi, flags)) matched = true;
      else if (lo <= c && c <= hi) matched = true;
    } else if (fold(lo, flags) == fc) {
      matched = true;
    }
  }
  return 0;
}

/* Length of an extglob group starting at pat[0] (the operator char), through
 * the closing ')'; 0 if unbalanced. */
static size_t ext_len(const char *pat, size_t plen) {
  int depth = 0;
  for (size_t i = 1; i < plen; i++) {
    if (pat[i] == '\\') {
      i++;
      continue;
    }
    if (pat[i] == '(') depth++;
    else if (pat[i] == ')' && --depth == 0) return i + 1;
  }
  return 0;
}

/* The next |-separated alternative of a group body p (pn bytes) from *at:
 * its start and length, *at moved past it; false after the last one. */
static bool next_alt(const char *p, size_t pn, size_t *at, size_t *start, size_t *len) {
  int depth = 0;
  for (size_t i = *at; i <= pn; i++) {
    if (i < pn && p[i] == '\\') {
      i++;
      continue;
    }
    if (i < pn && p[i] == '(') depth++;
    if (i < pn && p[i] == ')') depth--;
    if (i == pn || (p[i] == '|' && depth == 0)) {
      *start = *at;
      *len = i - *at;
      *at = i + 1;
      return true;
    }
  }
  return false;
}

typedef enum { ELEM_BYTE, ELEM_CHAR, ELEM_STAR, ELEM_GROUP } elem_kind;

/* The element of a pattern at p[0] (pn > 0), read as match() reads it: its
 * length in the pattern, its kind and, for ELEM_BYTE, the byte. */
static size_t pattern_elem(const char *p, size_t pn, int flags, elem_kind *kind, unsigned char *byte) {
  bool unbalanced = false;
  if ((flags & SH_FNM_EXTGLOB) && pn > 1 && p[1] == '(' && strchr("?*+@!", p[0])) {
    size_t gl = ext_len(p, pn);
    if (gl) {
      *kind = ELEM_GROUP;
      return gl;
    }
    unbalanced = true;
  }
  if (unbalanced) {
    /* the operator of a group without its ')' is a plain character */
  } else if (p[0] == '*') {
    *kind = ELEM_STAR;
    return 1;
  } else if (p[0] == '?') {
    *kind = ELEM_CHAR;
    return 1;
  } else if (p[0] == '[') {
    bool ok;
    size_t bl = bracket(p, pn, 0, flags, &ok);
    if (bl) {
      *kind = ELEM_CHAR;
      return bl;
    }
  }
  *kind = ELEM_BYTE;
  if (p[0] == '\\' && pn > 1) {
    *byte = (unsigned char)p[1];
    return 2;
  }
  *byte = (unsigned char)p[0];
  return 1;
}

/* The shortest and longest match (in bytes) of a group's alternatives
 * (SIZE_MAX: no bound), so the matcher only tries segments that fit. */
static void alts_bounds(const char *p, size_t pn, int flags, size_t *lo, size_t *hi);

static size_t add_sat(size_t a, size_t b) { return a > SIZE_MAX - b ? SIZE_MAX : a + b; }

/* The same for one sequence of elements. */
static void seq_bounds(const char *p, size_t pn, int flags, size_t *lo, size_t *hi) {
  *lo = 0;
  *hi = 0;
  for (size_t i = 0; i < pn;) {
    elem_kind k;
    unsigned char b;
    size_t l = pattern_elem(p + i, pn - i, flags, &k, &b);
    size_t elo = 1, ehi = 1;
    if (k == ELEM_CHAR) ehi = sh_locale_bytes ? 1 : 4;
    else if (k == ELEM_STAR) elo = 0, ehi = SIZE_MAX;
    else if (k == ELEM_GROUP) {
      alts_bounds(p + i + 2, l - 3, flags, &elo, &ehi);
      switch (p[i]) {
      case '@': break;
      case '?': elo = 0; break;
      case '+': if (ehi) ehi = SIZE_MAX; break;
      case '*': elo = 0; if (ehi) ehi = SIZE_MAX; break;
      default: elo = 0, ehi = SIZE_MAX; break; /* !( */
      }
    }
    *lo = add_sat(*lo, elo);
    *hi = add_sat(*hi, ehi);
    i += l;
  }
}

static void alts_bounds(const char *p, size_t pn, int flags, size_t *lo, size_t *hi) {
  *lo = SIZE_MAX;
  *hi = 0;
  for (size_t at = 0, a, an; next_alt(p, pn, &at, &a, &an);) {
    size_t alo, ahi;
    seq_bounds(p + a, an, flags, &alo, &ahi);
    if (alo < *lo) *lo = alo;
    if (ahi > *hi) *hi = ahi;
  }
}

static bool match(mstate *m, const char *p, size_t pn, const char *s, size_t sn, bool start);

/* Does s match any of the |-separated alternatives of group body p? */
static bool match_alts(mstate *m, const char *p, size_t pn, const char *s, size_t sn) {
  int known = memo_get(m, MEMO_ALTS, p, pn, s, sn);
  if (known >= 0) return known;
  for (size_t at = 0, a, an; next_alt(p, pn, &at, &a, &an);)
    if (match(m, p + a, an, s, sn, false)) return memo_put(m, MEMO_ALTS, p, pn, s, sn, true);
  return memo_put(m, MEMO_ALTS, p, pn, s, sn, false);
}

/* Zero or more repetitions of the group matching s entirely (for * and +). */
static bool match_rep(mstate *m, const char *body, size_t bn, size_t lo, size_t hi, const char *s,
                      size_t sn, int min) {
  if (sn == 0) return min == 0;
  int kind = min ? MEMO_REP1 : MEMO_REP0;
  int known = memo_get(m, kind, body, bn, s, sn);
  if (known >= 0) return known;
  size_t first = hi < sn ? hi : sn, last = lo > 1 ? lo : 1;
  for (size_t k = first; k >= last; k--) {
    if (!step(m)) return false;
    if (match_alts(m, body, bn, s, k) && match_rep(m, body, bn, lo, hi, s + k, sn - k, 0))
      return memo_put(m, kind, body, bn, s, sn, true);
  }
  return memo_put(m, kind, body, bn, s, sn, false);
}

/* The rest of a pattern after an extglob group against the rest of the subject. */
static bool match_rest(mstate *m, const char *p, size_t pn, const char *s, size_t sn) {
  int known = memo_get(m, MEMO_REST, p, pn, s, sn);
  if (known >= 0) return known;
  return memo_put(m, MEMO_REST, p, pn, s, sn, match(m, p, pn, s, sn, false));
}

static bool match(mstate *m, const char *p, size_t pn, const char *s, size_t sn, bool start) {
  size_t pi = 0, si = 0;
  /* single-star backtracking point for the common case */
  size_t star_p = (size_t)-1, star_s = 0;
  for (;;) {
    if (!step(m)) return false;
    if (pi < pn) {
      char c = p[pi];
      bool unbalanced = false;
      if ((m->flags & SH_FNM_EXTGLOB) && pi + 1 < pn && p[pi + 1] == '(' && strchr("?*+@!", c)) {
        size_t gl = ext_len(p + pi, pn - pi);
        if (gl) {
          const char *body = p + pi + 2;
          size_t bn = gl - 3;
          const char *rest = p + pi + gl;
          size_t rn = pn - pi - gl;
          if (start && si == 0 && (m->flags & SH_FNM_PERIOD) && sn > 0 && s[0] == '.' && c != '@') {
            /* a leading dot is not matched by ?( *( +( !( */
            goto fail;
          }
          size_t lo = 0, hi = SIZE_MAX;
          if (c != '!') alts_bounds(body, bn, m->flags, &lo, &hi);
          m->poll_steps += bn / 8; /* the walk over the body counts as steps */
          for (size_t k = si; k <= sn; k++) {
            if (!step(m)) return false;
            bool ok;
            const char *seg = s + si;
            size_t segn = k - si;
            /* a segment no alternative can span fails at once */
            bool fits = segn >= lo && segn <= hi;
            switch (c) {
            case '@': ok = fits && match_alts(m, body, bn, seg, segn); break;
            case '?': ok = segn == 0 || (fits && match_alts(m, body, bn, seg, segn)); break;
            case '*': ok = match_rep(m, body, bn, lo, hi, seg, segn, 0); break;
            case '+': ok = match_rep(m, body, bn, lo, hi, seg, segn, 1); break;
            default: ok = !match_alts(m, body, bn, seg, segn); break;
            }
            if (ok && match_rest(m, rest, rn, s + k, sn - k)) return true;
          }
          goto fail;
        }
        /* a group without its ')': the operator is a plain character (bash) */
        unbalanced = true;
      }
      if (c == '*' && !unbalanced) {
        /* a run of stars is one (up to a *( ) */
        do pi++;
        while (pi < pn && p[pi] == '*' && !((m->flags & SH_FNM_EXTGLOB) && pi + 1 < pn && p[pi + 1] == '('));
        if (si == 0 && start && (m->flags & SH_FNM_PERIOD) && sn > 0 && s[0] == '.') goto fail;
        if (pi == pn) return true;
        star_p = pi;
        star_s = si;
        continue;
      }
      if (si < sn) {
        if (c == '?' && !unbalanced) {
          if (si == 0 && start && (m->flags & SH_FNM_PERIOD) && s[0] == '.') goto fail;
          si += sh_char_len(s + si, sn - si);
          pi++;
          continue;
        }
        if (c == '[') {
          size_t l = sh_char_len(s + si, sn - si);
          uint32_t sc = u8dec(s + si, l);
          bool ok = false;
          size_t bl = bracket(p + pi, pn - pi, sc, m->flags, &ok);
          if (bl) {
            if (si == 0 && start && (m->flags & SH_FNM_PERIOD) && s[0] == '.') goto fail;
            if (!ok) goto fail;
            pi += bl;
            si += l;
            continue;
          }
          /* not a bracket expression: literal '[' */
        }
        if (c == '\\' && pi + 1 < pn) {
          pi++;
          c = p[pi];
        }
        uint32_t a = (unsigned char)c, b = (unsigned char)s[si];
        if (fold(a, m->flags) == fold(b, m->flags)) {
          pi++;
          si++;
          continue;
        }
      }
    } else if (si == sn) {
      return true;
    }
  fail:
    if (star_p != (size_t)-1 && star_s < sn) {
      star_s += sh_char_len(s + star_s, sn - star_s);
      si = star_s;
      pi = star_p;
      continue;
    }
    return false;
  }
}

bool sh_fnmatch(const char *pat, size_t plen, const char *s, size_t slen, int flags) {
  mstate m = {.flags = flags, .budget = MATCH_BUDGET, .pat0 = pat, .s0 = s};
  bool r = match(&m, pat, plen, s, slen, true) && !m.stop;
  free(m.memo);
  return r;
}

bool sh_fnmatch_sh(sh_shell *sh, const char *pat, size_t plen, const char *s, size_t slen, int flags) {
  sh_matcher *mt = sh_matcher_new(sh, pat, plen, s, flags);
  bool r = sh_matcher_test(mt, 0, slen);
  sh_matcher_free(mt);
  return r;
}

/* A pattern against slices of one subject: the memo outlives each test. */
struct sh_matcher {
  mstate m;       /* the matcher's state, memo included */
  size_t plen;    /* of m.pat0 */
};

sh_matcher *sh_matcher_new(sh_shell *sh, const char *pat, size_t plen, const char *subject, int flags) {
  sh_matcher *mt = sh_xcalloc(1, sizeof *mt);
  mt->m = (mstate){.flags = flags, .budget = LONG_MAX, .sh = sh, .pat0 = pat, .s0 = subject};
  mt->plen = plen;
  return mt;
}

bool sh_matcher_test(sh_matcher *mt, size_t i, size_t j) {
  mstate *m = &mt->m;
  if (m->stop || (m->sh && sh_stopping(m->sh))) return false;
  return match(m, m->pat0, mt->plen, m->s0 + i, j - i, true) && !m->stop;
}

void sh_matcher_free(sh_matcher *mt) {
  if (!mt) return;
  free(mt->m.memo);
  free(mt);
}

/* ---- pattern shapes (the expansions' fast paths) ------------------------------------------ */

void sh_pattern_shape_of(const char *pat, size_t pn, int flags, sh_pattern_shape *shape) {
  *shape = (sh_pattern_shape){.fixed = true, .literal = true, .any_only = pn > 0, .first = -1, .last = -1};
  sh_buf lit = {0};
  bool fold = flags & SH_FNM_CASEFOLD;
  for (size_t i = 0; i < pn;) {
    elem_kind k;
    unsigned char b = 0;
    size_t l = pattern_elem(pat + i, pn - i, flags, &k, &b);
    int as_byte = k == ELEM_BYTE && !fold ? b : -1;
    if (i == 0) shape->first = as_byte;
    shape->last = as_byte;
    if (k == ELEM_STAR || k == ELEM_GROUP) shape->fixed = false;
    if (k != ELEM_BYTE || fold) shape->literal = false;
    if (!(k == ELEM_CHAR && pat[i] == '?')) shape->any_only = false;
    if (k == ELEM_BYTE) sh_buf_addc(&lit, (char)b);
    shape->nelems++;
    i += l;
  }
  shape->literal = shape->literal && shape->fixed;
  shape->any_only = shape->any_only && shape->fixed && !(flags & SH_FNM_PERIOD);
  if (shape->literal) {
    shape->lit_n = lit.len;
    shape->lit = lit.data ? sh_buf_steal(&lit) : sh_xstrdup("");
  } else {
    sh_buf_free(&lit);
  }
}

size_t sh_pattern_fixed_end(const char *pat, size_t pn, const char *s, size_t sn, int flags) {
  size_t j = 0;
  for (size_t i = 0; i < pn;) {
    elem_kind k;
    unsigned char b;
    i += pattern_elem(pat + i, pn - i, flags, &k, &b);
    if (j >= sn) return SIZE_MAX;
    j += k == ELEM_CHAR ? sh_char_len(s + j, sn - j) : 1;
  }
  return j;
}

bool sh_has_glob(const char *pat, int flags) {
  for (const char *p = pat; *p; p++) {
    if (*p == '\\') {
      if (p[1]) p++;
      continue;
    }
    if (*p == '*' || *p == '?') return true;
    if (*p == '[') {
      /* only a complete bracket expression counts */
      const char *q = p + 1;
      if (*q == '!' || *q == '^') q++;
      if (*q == ']') q++;
      while (*q && *q != ']') {
        if (*q == '[' && q[1] == ':') {
          const char *e = strstr(q + 2, ":]");
          if (e) q = e + 1;
        }
        q++;
      }
      if (*q == ']') return true;
    }
    if ((flags & SH_FNM_EXTGLOB) && p[1] == '(' && strchr("+@!", *p)) return true;
  }
  return false;
}

char *sh_pattern_unescape(const char *pat) {
  size_t n = strlen(pat);
  char *r = sh_xmalloc(n + 1), *o = r;
  for (const char *p = pat; *p; p++) {
    if (*p == '\\' && p[1]) p++;
    *o++ = *p;
  }
  *o = 0;
  return r;
}

int sh_fnm_flags(sh_shell *sh, bool for_case) {
  int f = 0;
  if (sh->opt[SH_SHOPT_EXTGLOB]) f |= SH_FNM_EXTGLOB;
  if (for_case ? sh->opt[SH_SHOPT_NOCASEMATCH] : sh->opt[SH_SHOPT_NOCASEGLOB]) f |= SH_FNM_CASEFOLD;
  return f;
}

/* ---- pathname expansion ------------------------------------------------------------------- */

typedef struct glob_ctx {
  sh_shell *sh;
  sh_strv *out;
  int flags;
  bool dotglob;
  bool globstar;
  bool skipdots; /* globskipdots: . and .. never match */
  size_t count;
  size_t limit;
  size_t polls;  /* names and directories visited, for polling the call */
} glob_ctx;

/* Polls the call every 256 names or directories: true when globbing must stop. */
static bool glob_stop(glob_ctx *g) {
  if ((++g->polls & 255) == 0 && sh_poll(g->sh)) return true;
  return sh_stopping(g->sh);
}

typedef struct dir_list {
  sh_strv names;
  sh_strv dirs; /* parallel: "d" for directories (or symlinks to dirs), "" else */
} dir_list;

static int collect_cb(void *ud, const store_dirent *e) {
  dir_list *dl = ud;
  sh_strv_pushdup(&dl->names, e->name);
  sh_strv_pushdup(&dl->dirs, S_ISDIR(e->mode) ? "d" : S_ISLNK(e->mode) ? "l" : "");
  return dl->names.n > 1000000 ? 1 : 0;
}

/* Reads a directory (path relative to the shell's cwd, "" = cwd). */
static int read_dir(glob_ctx *g, const char *dir, dir_list *dl) {
  store_stat st;
  const char *p = *dir ? dir : ".";
  int r = store_resolve(g->sh->sess->st, g->sh->cwd, p, 0, &st);
  if (r < 0 || !S_ISDIR(st.mode)) return -1;
  if (!g->skipdots) {
    /* shopt -u globskipdots: . and .. are candidates too (sorted first) */
    sh_strv_pushdup(&dl->names, ".");
    sh_strv_pushdup(&dl->dirs, "d");
    sh_strv_pushdup(&dl->names, "..");
    sh_strv_pushdup(&dl->dirs, "d");
  }
  r = store_readdir(g->sh->sess->st, st.ino, 0, collect_cb, dl);
  return r < 0 ? -1 : 0;
}

static bool path_exists(glob_ctx *g, const char *path, bool nofollow) {
  store_stat st;
  return store_resolve(g->sh->sess->st, g->sh->cwd, path, nofollow ? STORE_NOFOLLOW : 0, &st) == 0;
}

static bool is_dir(glob_ctx *g, const char *path) {
  store_stat st;
  return store_resolve(g->sh->sess->st, g->sh->cwd, path, 0, &st) == 0 && S_ISDIR(st.mode);
}

static void glob_rec(glob_ctx *g, const char *base, const char *pat);

static char *join(const char *base, const char *name) {
  if (!*base) return sh_xstrdup(name);
  size_t bl = strlen(base);
  if (base[bl - 1] == '/') return sh_xasprintf("%s%s", base, name);
  return sh_xasprintf("%s/%s", base, name);
}

static bool name_matches(glob_ctx *g, const char *pat, size_t pn, const char *name) {
  if ((!strcmp(name, ".") || !strcmp(name, "..")) && (g->skipdots || pat[0] != '.')) return false;
  int fl = g->flags;
  if (!g->dotglob || name[0] != '.') fl |= SH_FNM_PERIOD;
  else fl &= ~SH_FNM_PERIOD;
  /* a pattern starting with '.' matches dot files explicitly */
  return sh_fnmatch_sh(g->sh, pat, pn, name, strlen(name), fl);
}

/* globstar: every directory below base (including base itself), depth-first. */
static void globstar_dirs(glob_ctx *g, const char *base, sh_strv *dirs, int depth) {
  if (depth > 64 || dirs->n > 100000 || glob_stop(g)) return;
  dir_list dl = {0};
  if (read_dir(g, base, &dl) == 0) {
    for (size_t i = 0; i < dl.names.n; i++) {
      const char *nm = dl.names.v[i];
      if (nm[0] == '.' && !g->dotglob) continue;
      if (dl.dirs.v[i][0] != 'd') continue; /* ** does not follow symlinks */
      char *p = join(base, nm);
      sh_strv_pushdup(dirs, p);
      globstar_dirs(g, p, dirs, depth + 1);
      free(p);
    }
  }
  sh_strv_free(&dl.names);
  sh_strv_free(&dl.dirs);
}

static void glob_rec(glob_ctx *g, const char *base, const char *pat) {
  if (g->count > g->limit) return;
  /* the next component */
  const char *slash = pat;
  while (*slash && *slash != '/') {
    if (*slash == '\\' && slash[1]) slash++;
    slash++;
  }
  size_t cn = (size_t)(slash - pat);
  const char *rest = *slash ? slash + 1 : NULL;
  while (rest && *rest == '/') rest++;
  char *comp = sh_xstrndup(pat, cn);
  bool has = sh_has_glob(comp, g->flags);
  if (g->globstar && strcmp(comp, "**") == 0 && rest && !strncmp(rest, "**", 2) &&
      (rest[2] == 0 || rest[2] == '/')) {
    /* ** followed by **: one ** (bash lists each path once, a/ not as well as a) */
    free(comp);
    glob_rec(g, base, rest);
    return;
  }
  if (g->globstar && strcmp(comp, "**") == 0) {
    /* zero or more directories */
    sh_strv dirs = {0};
    if (rest) {
      sh_strv_pushdup(&dirs, base);
      globstar_dirs(g, base, &dirs, 0);
      for (size_t i = 0; i < dirs.n; i++) {
        if (*rest)
          glob_rec(g, dirs.v[i], rest);
      }
      if (!*rest) {
        for (size_t i = 0; i < dirs.n; i++) {
          if (!*dirs.v[i]) continue;
          char *p = sh_xasprintf("%s/", dirs.v[i]);
          sh_strv_push(g->out, p);
          g->count++;
        }
      }
    } else {
      /* ** at the end: all files and directories below, and the directory
       * itself as "base/" when the pattern named one (a/ for the pattern a/ then **) */
      sh_strv all = {0};
      if (*base) {
        size_t bl = strlen(base);
        sh_strv_push(&all, base[bl - 1] == '/' ? sh_xstrdup(base) : sh_xasprintf("%s/", base));
      }
      globstar_dirs(g, base, &dirs, 0);
      sh_strv_pushdup(&dirs, base);
      for (size_t i = 0; i < dirs.n; i++) {
        dir_list dl = {0};
        if (read_dir(g, dirs.v[i], &dl) == 0) {
          for (size_t k = 0; k < dl.names.n; k++) {
            if (dl.names.v[k][0] == '.' && !g->dotglob) continue;
            sh_strv_push(&all, join(dirs.v[i], dl.names.v[k]));
          }
        }
        sh_strv_free(&dl.names);
        sh_strv_free(&dl.dirs);
      }
      for (size_t i = 0; i < all.n; i++) {
        sh_strv_push(g->out, all.v[i]);
        all.v[i] = NULL;
        g->count++;
      }
      sh_strv_free(&all);
    }
    sh_strv_free(&dirs);
    free(comp);
    return;
  }
  if (!has) {
    char *lit = sh_pattern_unescape(comp);
    char *p = join(base, lit);
    if (!*pat && !rest) {
      /* trailing slash */
    }
    if (rest) {
      if (!*rest) {
        /* pattern ended with '/': keep the slash, require a directory */
        if (is_dir(g, p)) {
          sh_strv_push(g->out, sh_xasprintf("%s/", p));
          g->count++;
        }
      } else if (is_dir(g, p)) {
        glob_rec(g, p, rest);
      }
    } else if (path_exists(g, p, true)) {
      sh_strv_pushdup(g->out, p);
      g->count++;
    }
    free(p);
    free(lit);
    free(comp);
    return;
  }
  dir_list dl = {0};
  if (read_dir(g, base, &dl) == 0) {
    for (size_t i = 0; i < dl.names.n && g->count <= g->limit; i++) {
      if (glob_stop(g)) break;
      const char *nm = dl.names.v[i];
      if (!name_matches(g, comp, cn, nm)) continue;
      char *p = join(base, nm);
      if (rest) {
        bool d = dl.dirs.v[i][0] == 'd' || (dl.dirs.v[i][0] == 'l' && is_dir(g, p));
        if (d) {
          if (!*rest) {
            sh_strv_push(g->out, sh_xasprintf("%s/", p));
            g->count++;
          } else {
            glob_rec(g, p, rest);
          }
        }
      } else {
        sh_strv_pushdup(g->out, p);
        g->count++;
      }
      free(p);
    }
  }
  sh_strv_free(&dl.names);
  sh_strv_free(&dl.dirs);
  free(comp);
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Does path match a GLOBIGNORE pattern? Wildcards do not match '/': the
 * pattern and the path must have the same components (FNM_PATHNAME). */
static bool ignore_match(sh_shell *sh, const char *pat, size_t pn, const char *path, int flags) {
  const char *p = pat, *pe = pat + pn, *s = path;
  for (;;) {
    const char *ps = memchr(p, '/', (size_t)(pe - p));
    const char *ss = strchr(s, '/');
    size_t plen = ps ? (size_t)(ps - p) : (size_t)(pe - p);
    size_t slen = ss ? (size_t)(ss - s) : strlen(s);
    if (!sh_fnmatch_sh(sh, p, plen, s, slen, flags)) return false;
    if (!ps && !ss) return true;
    if (!ps || !ss) return false;
    p = ps + 1;
    s = ss + 1;
  }
}

/* GLOBIGNORE: drops the results matching one of its colon-separated
 * patterns, and . and .. always. */
static void apply_globignore(sh_shell *sh, const char *ign, sh_strv *res, int flags) {
  size_t k = 0;
  for (size_t i = 0; i < res->n; i++) {
    const char *path = res->v[i];
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    bool drop = !strcmp(base, ".") || !strcmp(base, "..");
    for (const char *p = ign; !drop && *p;) {
      /* the separating ':' is not one inside a bracket expression ([[:alpha:]]) */
      const char *colon = NULL;
      int br = 0;
      for (const char *c = p; *c; c++) {
        if (*c == '\\' && c[1]) {
          c++;
          continue;
        }
        if (*c == '[') br++;
        else if (*c == ']' && br > 0) br--;
        else if (*c == ':' && br == 0) {
          colon = c;
          break;
        }
      }
      size_t n = colon ? (size_t)(colon - p) : strlen(p);
      if (n && ignore_match(sh, p, n, path, flags & ~SH_FNM_PERIOD)) drop = true;
      if (!colon) break;
      p = colon + 1;
    }
    if (drop) free(res->v[i]);
    else res->v[k++] = res->v[i];
  }
  res->n = k;
  if (res->v) res->v[k] = NULL;
}

/* The names in a directory (without . and ..), for completion. */
void sh_glob_list_dir(sh_shell *sh, const char *dir, sh_strv *out) {
  glob_ctx g = {0};
  g.sh = sh;
  g.skipdots = true;
  dir_list dl = {0};
  if (read_dir(&g, dir, &dl) == 0) {
    for (size_t i = 0; i < dl.names.n; i++) {
      sh_strv_push(out, dl.names.v[i]);
      dl.names.v[i] = NULL;
    }
  }
  sh_strv_free(&dl.names);
  sh_strv_free(&dl.dirs);
}

size_t sh_glob(sh_shell *sh, const char *pat, sh_strv *out) {
  glob_ctx g = {0};
  g.sh = sh;
  g.flags = sh_fnm_flags(sh, false);
  const char *ign = sh_var_get(sh, "GLOBIGNORE");
  if (ign && !*ign) ign = NULL;
  g.dotglob = sh->opt[SH_SHOPT_DOTGLOB] || ign; /* a set GLOBIGNORE implies dotglob */
  g.globstar = sh->opt[SH_SHOPT_GLOBSTAR];
  g.skipdots = sh->opt[SH_SHOPT_GLOBSKIPDOTS];
  g.limit = sh->sess->limits.array_size;
  sh_strv res = {0};
  g.out = &res;
  if (pat[0] == '/') {
    const char *p = pat;
    while (*p == '/') p++;
    if (!*p) {
      sh_strv_free(&res);
      return 0;
    }
    glob_rec(&g, "/", p);
  } else {
    glob_rec(&g, "", pat);
  }
  if (ign) apply_globignore(sh, ign, &res, g.flags);
  if (res.n > 1) qsort(res.v, res.n, sizeof *res.v, cmp_str);
  size_t n = 0;
  for (size_t i = 0; i < res.n; i++) {
    /* `**` /`**` reaches a path more than once: bash lists it once */
    if (g.globstar && n && !strcmp(res.v[i], out->v[out->n - 1])) {
      free(res.v[i]);
      continue;
    }
    sh_strv_push(out, res.v[i]);
    n++;
  }
  free(res.v);
  return n;
}
