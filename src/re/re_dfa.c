/*
 * re_dfa.c - a lazily built DFA over the byte program: the fast path.
 *
 * A DFA state is a "kernel": the set of program counters reached right after
 * consuming a byte (before following epsilons), plus the context of that byte
 * (start of subject, newline, word byte, other, non-ASCII) and two flags. The
 * epsilon closure is taken at transition time, when the next byte is known,
 * so every assertion (^ $ \b \< \> \` \') is decided exactly from (previous
 * context, next byte) -- except word assertions next to non-ASCII bytes in
 * UTF-8 mode, where the DFA gives up (RE_DFA_BAIL) and the caller uses the
 * Pike VM. The flag MATCHED on a state means "a match ended just before the
 * byte that led here" (the usual one-byte delay). Unanchored scans add pc 0
 * to every kernel.
 *
 * Transitions are cached in one 256-entry row per state. A transition is
 * computed once per byte class (bytes no instruction distinguishes) and
 * stored for every byte of the class. An entry holds the target's row
 * offset, negated when a match ended before the byte, so the inner loop is
 * one load and one sign test per byte. The cache is bounded (RE_DFA_MEM): when
 * full it is flushed and rebuilt from the current state; if that happens too
 * often the scan bails out to the Pike VM.
 *
 * In "superset" mode (programs with back-references) a back-reference is
 * treated as "any string", which gives a DFA for a superset of the language:
 * a quick proof that a subject cannot match. Likewise with amb_true, a word
 * assertion next to a non-ASCII byte counts as satisfied: grep uses that DFA
 * to find candidate lines in UTF-8 text and decides each one exactly.
 */
#include <stdlib.h>
#include <string.h>

#include "re/re_int.h"

#define RE_DFA_MEM (8u << 20)   /* cache bytes before a flush */
#define RE_DFA_MAX_FLUSH 16     /* flushes per scan before bailing out */

enum { C_BOT, C_BOT_NOBOL, C_NL, C_WORD, C_OTHER, C_HIGH, C_COUNT };

typedef struct dstate {
  uint32_t koff;   /* kernel offset in the pool */
  uint32_t klen;   /* kernel size */
  uint32_t hash;   /* of (kernel, ctx, flags) */
  uint8_t ctx;     /* context of the previous byte (C_*) */
  uint8_t flags;   /* F_* */
  int8_t eot[2];   /* match at end of subject, [0] EOL allowed, [1] RE_NOTEOL; -1 unknown */
} dstate;

#define F_MATCHED 1
#define F_UNANCH 2
#define F_DEAD 4

/* The closure of pc 0 (the unanchored scan restarts it at every byte) for a
 * (previous context, byte class): computed once, since a large alternation
 * (grep -f with thousands of words) makes it thousands of steps. */
typedef struct start_ent {
  int32_t *v;      /* next pcs after consuming a byte of the class */
  uint32_t n;      /* count */
  int8_t state;    /* 0 unknown, 1 ready, 2 bail, 3 too big to keep */
  bool matched;    /* MATCH reached (an empty match here) */
} start_ent;

struct re_dfa {
  const re_prog *prog; /* program (borrowed from the re) */
  unsigned cflags;     /* compile flags */
  bool superset;       /* back-references as "any string" */
  bool amb_true;       /* undecidable word assertions count as true (superset) */
  bool use_ctx;        /* the program has assertions: contexts matter */
  bool need_bot;       /* ^ or \` present: the start of the subject is a context */
  uint8_t cls[256];    /* byte class */
  int ncls;            /* classes */
  uint8_t clsctx[256]; /* byte -> context class C_* */
  dstate *st;          /* states */
  size_t nst;          /* used */
  size_t capst;        /* allocated */
  int32_t *trans;      /* nst rows of 256 table values (see TV_UNKNOWN) */
  size_t captrans;     /* allocated rows */
  int32_t *pool;       /* kernels */
  size_t npool;        /* used */
  size_t cappool;      /* allocated */
  int32_t *htab;       /* open-addressing hash of state indices (-1 empty) */
  size_t hcap;         /* its size (power of two) */
  uint32_t *mark;      /* closure visited stamps, per pc */
  uint32_t stamp;      /* current stamp */
  int32_t *stack;      /* closure stack */
  int32_t *kbuf;       /* next kernel being built */
  size_t mem;          /* bytes used by the cache */
  start_ent *start_cache; /* C_COUNT x 256 closures of pc 0 (see closure) */
  size_t start_bytes;  /* bytes held by its lists */
};

static void dfa_reset(re_dfa *d) {
  d->nst = 0;
  d->npool = 0;
  d->mem = 0;
  if (d->htab)
    for (size_t i = 0; i < d->hcap; i++) d->htab[i] = -1;
}

re_dfa *re_dfa_new(const re_prog *prog, unsigned cflags, bool superset, bool amb_true) {
  re_dfa *d = calloc(1, sizeof *d);
  if (!d) return NULL;
  d->prog = prog;
  d->cflags = cflags;
  d->superset = superset;
  d->amb_true = amb_true;
  d->use_ctx = prog->has_assert;
  /* Byte classes from every distinction the program makes. */
  uint8_t cut[257] = {0};
  for (size_t pc = 0; pc < prog->n; pc++) {
    const re_inst *in = &prog->ins[pc];
    if (in->op == I_BYTE) {
      cut[in->arg] = 1;
      cut[in->arg + 1] = 1;
    } else if (in->op == I_SET) {
      for (int b = 1; b < 256; b++)
        if (re_bit_has(prog->sets[in->x], (unsigned)b) != re_bit_has(prog->sets[in->x], (unsigned)b - 1))
          cut[b] = 1;
    } else if (in->op == I_DISPATCH) {
      for (int32_t k = 0; k < in->y; k++) {
        cut[prog->dents[in->x + k].lo] = 1;
        cut[prog->dents[in->x + k].hi + 1] = 1;
      }
    }
  }
  /* Which contexts the assertions distinguish: fewer contexts, fewer states
   * (and longer self-loops in the scan). */
  bool need_bol = false, need_word = false;
  for (size_t pc = 0; pc < prog->n; pc++)
    if (prog->ins[pc].op == I_ASSERT) {
      if (prog->ins[pc].arg == RA_BOL || prog->ins[pc].arg == RA_BOT) need_bol = true;
      else if (prog->ins[pc].arg >= RA_WORDB) need_word = true;
    }
  bool ml = (cflags & (RE_NEWLINE | RE_MULTILINE)) != 0;
  d->need_bot = need_bol;
  uint8_t full[256];
  for (int b = 0; b < 256; b++) {
    uint8_t c = C_OTHER;
    if (b == '\n') c = C_NL;
    else if (b == '_' || (b >= '0' && b <= '9') || (b >= 'A' && b <= 'Z') || (b >= 'a' && b <= 'z'))
      c = C_WORD;
    else if (b >= 0x80 && (cflags & RE_UTF8)) c = C_HIGH;
    full[b] = c;
    uint8_t r = C_OTHER;
    if (c == C_NL && need_bol && ml) r = C_NL;
    if ((c == C_WORD || c == C_HIGH) && need_word) r = c;
    d->clsctx[b] = d->use_ctx ? r : C_OTHER;
  }
  if (d->use_ctx)
    for (int b = 1; b < 256; b++)
      if (full[b] != full[b - 1]) cut[b] = 1;
  int k = 0;
  for (int b = 0; b < 256; b++) {
    if (b > 0 && cut[b]) k++;
    d->cls[b] = (uint8_t)k;
  }
  d->ncls = k + 1;
  size_t m = prog->n ? prog->n : 1;
  d->mark = calloc(m, sizeof *d->mark);
  d->stack = malloc((2 * m + 8) * sizeof *d->stack);
  d->kbuf = malloc((m + 1) * sizeof *d->kbuf);
  d->hcap = 1024;
  d->htab = malloc(d->hcap * sizeof *d->htab);
  if (prog->n > 64) d->start_cache = calloc((size_t)C_COUNT * 256, sizeof *d->start_cache);
  if (!d->mark || !d->stack || !d->kbuf || !d->htab) {
    re_dfa_free(d);
    return NULL;
  }
  dfa_reset(d);
  return d;
}

void re_dfa_free(re_dfa *d) {
  if (!d) return;
  if (d->start_cache) {
    for (size_t i = 0; i < (size_t)C_COUNT * 256; i++) free(d->start_cache[i].v);
    free(d->start_cache);
  }
  free(d->st);
  free(d->trans);
  free(d->pool);
  free(d->htab);
  free(d->mark);
  free(d->stack);
  free(d->kbuf);
  free(d);
}

static uint32_t khash(const int32_t *k, uint32_t n, uint8_t ctx, uint8_t flags) {
  uint32_t h = 2166136261u ^ ctx ^ ((uint32_t)flags << 8);
  for (uint32_t i = 0; i < n; i++) {
    h ^= (uint32_t)k[i];
    h *= 16777619u;
  }
  return h ? h : 1;
}

static int i32cmp(const void *a, const void *b) {
  int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
  return x < y ? -1 : x > y;
}

/* Finds or adds the state (kernel k[0..n), ctx, flags). Returns its index,
 * -1 on ENOMEM, -2 when the cache is full (caller flushes). */
static int32_t state_get(re_dfa *d, int32_t *k, uint32_t n, uint8_t ctx, uint8_t flags) {
  qsort(k, n, sizeof *k, i32cmp);
  if (n == 0 && !(flags & F_UNANCH)) flags |= F_DEAD;
  uint32_t h = khash(k, n, ctx, flags);
  size_t mask = d->hcap - 1;
  for (size_t i = h & mask;; i = (i + 1) & mask) {
    int32_t si = d->htab[i];
    if (si < 0) break;
    dstate *s = &d->st[si];
    if (s->hash == h && s->klen == n && s->ctx == ctx && s->flags == flags &&
        memcmp(d->pool + s->koff, k, n * sizeof *k) == 0)
      return si;
  }
  size_t add = sizeof(dstate) + n * sizeof(int32_t) + 256 * sizeof(int32_t) + 8;
  if (d->mem + add > RE_DFA_MEM && d->nst > 0) return -2;
  if ((d->nst + 1) * 256 + 2 >= INT32_MAX) return -2;
  /* the transition table grows by whole rows of 256 */
  if (re_grow(&d->st, &d->capst, d->nst + 1, sizeof *d->st, 64, SIZE_MAX) < 0 ||
      re_grow(&d->trans, &d->captrans, d->nst + 1, 256 * sizeof *d->trans, 64, SIZE_MAX) < 0 ||
      re_grow(&d->pool, &d->cappool, d->npool + n, sizeof *d->pool, 256, SIZE_MAX) < 0)
    return -1;
  /* Grow the hash table at 50% load. */
  if ((d->nst + 1) * 2 > d->hcap) {
    size_t nc = d->hcap * 2;
    int32_t *nh = malloc(nc * sizeof *nh);
    if (!nh) return -1;
    for (size_t i = 0; i < nc; i++) nh[i] = -1;
    for (size_t si = 0; si < d->nst; si++) {
      size_t j = d->st[si].hash & (nc - 1);
      while (nh[j] >= 0) j = (j + 1) & (nc - 1);
      nh[j] = (int32_t)si;
    }
    free(d->htab);
    d->htab = nh;
    d->hcap = nc;
    mask = nc - 1;
  }
  int32_t si = (int32_t)d->nst++;
  dstate *s = &d->st[si];
  s->koff = (uint32_t)d->npool;
  s->klen = n;
  s->hash = h;
  s->ctx = ctx;
  s->flags = flags;
  s->eot[0] = s->eot[1] = -1;
  memcpy(d->pool + d->npool, k, n * sizeof *k);
  d->npool += n;
  int32_t *row = d->trans + (size_t)si * 256;
  for (int c = 0; c < 256; c++) row[c] = -1;
  size_t j = h & mask;
  while (d->htab[j] >= 0) j = (j + 1) & mask;
  d->htab[j] = si;
  d->mem += add;
  return si;
}

/* Next contexts for the closure: a byte, or end of subject. */
#define NEXT_EOT 256
#define NEXT_EOT_NOEOL 257

/* Closure of state s given the next input; if next is a byte, builds the next
 * kernel in d->kbuf (*kn entries). *matched: MATCH reached. Returns 0, or
 * RE_DFA_BAIL when an assertion cannot be decided. */
static int closure_raw(re_dfa *d, uint8_t pctx, const int32_t *k, uint32_t klen, bool skip0,
                       int next, uint32_t *kn, bool *matched) {
  const re_prog *prog = d->prog;
  bool ml = (d->cflags & (RE_NEWLINE | RE_MULTILINE)) != 0;
  int nctx = next >= NEXT_EOT ? -1 : d->use_ctx ? d->clsctx[next] : C_OTHER;
  if (next < NEXT_EOT && d->use_ctx && next >= 0x80 && (d->cflags & RE_UTF8)) nctx = C_HIGH;
  if (++d->stamp == 0) {
    memset(d->mark, 0, prog->n * sizeof *d->mark);
    d->stamp = 1;
  }
  uint32_t stamp = d->stamp;
  *matched = false;
  *kn = 0;
  size_t sp = 0;
  if (skip0) d->mark[0] = stamp; /* pc 0's closure comes from the start cache */
  for (uint32_t i = klen; i > 0; i--) d->stack[sp++] = k[i - 1];
  /* Kernel entries are followed in order; order does not matter for a DFA. */
  while (sp) {
    int32_t pc = d->stack[--sp];
    if (d->mark[pc] == stamp) continue;
    d->mark[pc] = stamp;
    const re_inst *in = &prog->ins[pc];
    switch (in->op) {
    case I_JMP: d->stack[sp++] = in->x; break;
    case I_SPLIT:
      d->stack[sp++] = in->y;
      d->stack[sp++] = in->x;
      break;
    case I_SAVE:
    case I_MARK:
    case I_CHECK: d->stack[sp++] = pc + 1; break;
    case I_MATCH: *matched = true; break;
    case I_BACKREF:
      d->stack[sp++] = pc + 1;
      if (next < NEXT_EOT) d->kbuf[(*kn)++] = pc; /* superset: eat anything */
      break;
    case I_ASSERT: {
      bool ok = false;
      bool wb = pctx == C_WORD, wa = nctx == C_WORD;
      bool amb = pctx == C_HIGH || nctx == C_HIGH;
      switch (in->arg) {
      case RA_BOL: ok = pctx == C_BOT || (ml && pctx == C_NL); break;
      case RA_EOL: ok = next == NEXT_EOT || (ml && next == '\n'); break;
      case RA_BOT: ok = pctx == C_BOT || pctx == C_BOT_NOBOL; break;
      case RA_EOT: ok = next >= NEXT_EOT; break;
      default:
        if (amb) {
          if (!d->amb_true) return RE_DFA_BAIL;
          d->stack[sp++] = pc + 1;
          continue;
        }
        if (in->arg == RA_WORDB) ok = wb != wa;
        else if (in->arg == RA_NWORDB) ok = wb == wa;
        else if (in->arg == RA_WBEG) ok = !wb && wa;
        else if (in->arg == RA_WEND) ok = wb && !wa;
        else if (in->arg == RA_NOWORD_BEFORE) ok = !wb;
        else ok = !wa;
      }
      if (ok) d->stack[sp++] = pc + 1;
      break;
    }
    default:
      if (next < NEXT_EOT) {
        int32_t nx = -1;
        if (in->op == I_BYTE) nx = in->arg == next ? pc + 1 : -1;
        else if (in->op == I_SET) nx = re_bit_has(prog->sets[in->x], (unsigned)next) ? pc + 1 : -1;
        else {
          const re_dent *de = prog->dents + in->x;
          for (int32_t j = 0; j < in->y; j++)
            if (next >= de[j].lo && next <= de[j].hi) {
              nx = de[j].to;
              break;
            }
        }
        if (nx >= 0) d->kbuf[(*kn)++] = nx;
      }
      break;
    }
  }
  /* Dedupe the next kernel. */
  if (*kn > 1) {
    uint32_t w = 0;
    if (++d->stamp == 0) {
      memset(d->mark, 0, prog->n * sizeof *d->mark);
      d->stamp = 1;
    }
    for (uint32_t i = 0; i < *kn; i++)
      if (d->mark[d->kbuf[i]] != d->stamp) {
        d->mark[d->kbuf[i]] = d->stamp;
        d->kbuf[w++] = d->kbuf[i];
      }
    *kn = w;
  }
  return 0;
}

#define START_CACHE_MAX (8u << 20) /* bytes of cached pc lists */

static int closure(re_dfa *d, const dstate *s, int next, uint32_t *kn, bool *matched) {
  const int32_t *k = d->pool + s->koff;
  bool use = (s->flags & F_UNANCH) && next < NEXT_EOT && d->start_cache && d->prog->n > 64;
  start_ent *e = NULL;
  if (use) {
    e = &d->start_cache[(size_t)s->ctx * 256 + d->cls[next]];
    if (e->state == 0) {
      int32_t zero = 0;
      uint32_t n;
      bool m;
      int rc = closure_raw(d, s->ctx, &zero, 1, false, next, &n, &m);
      if (rc == RE_DFA_BAIL) {
        e->state = 2;
      } else if (d->start_bytes + n * sizeof(int32_t) > START_CACHE_MAX) {
        e->state = 3;
      } else {
        e->v = malloc((n ? n : 1) * sizeof *e->v);
        if (e->v) {
          memcpy(e->v, d->kbuf, n * sizeof *e->v);
          e->n = n;
          e->matched = m;
          e->state = 1;
          d->start_bytes += n * sizeof(int32_t);
        } else {
          e->state = 3;
        }
      }
    }
    if (e->state == 2) return RE_DFA_BAIL;
    if (e->state != 1) use = false;
  }
  int rc = closure_raw(d, s->ctx, k, s->klen, use, next, kn, matched);
  if (rc || !use) return rc;
  /* Add the cached part of pc 0 (duplicates removed). */
  if (++d->stamp == 0) {
    memset(d->mark, 0, d->prog->n * sizeof *d->mark);
    d->stamp = 1;
  }
  for (uint32_t i = 0; i < *kn; i++) d->mark[d->kbuf[i]] = d->stamp;
  for (uint32_t i = 0; i < e->n; i++)
    if (d->mark[e->v[i]] != d->stamp) {
      d->mark[e->v[i]] = d->stamp;
      d->kbuf[(*kn)++] = e->v[i];
    }
  *matched |= e->matched;
  return 0;
}

/* Table values: TV_UNKNOWN (not computed yet); v >= 0: to the state whose
 * row starts at v; v <= -2: to the state whose row starts at -v - 2, and a
 * match ended before this byte. So the inner loop tests one sign. */
#define TV_UNKNOWN (-1)
static inline bool tv_matched(int32_t v) { return v < TV_UNKNOWN; }
static inline size_t tv_row(int32_t v) { return (size_t)(v >= 0 ? v : -v - 2); }

#define T_OK 0
#define T_BAIL 1
#define T_FULL 2

/* Computes the transition of state si on byte b and stores it for every
 * byte of b's class. Returns T_OK (*out = table value), T_BAIL, T_FULL or
 * RE_ENOMEM. */
static int transition(re_dfa *d, int32_t si, unsigned b, int32_t *out) {
  uint32_t kn;
  bool matched;
  if (closure(d, &d->st[si], (int)b, &kn, &matched) == RE_DFA_BAIL) return T_BAIL;
  uint8_t fl = d->st[si].flags & F_UNANCH;
  if (fl & F_UNANCH) {
    /* The scan may start a new match at the next position. */
    bool has0 = false;
    for (uint32_t i = 0; i < kn; i++) has0 |= d->kbuf[i] == 0;
    if (!has0) d->kbuf[kn++] = 0;
  }
  if (matched) fl |= F_MATCHED;
  uint8_t ctx = d->use_ctx ? d->clsctx[b] : C_OTHER;
  int32_t t = state_get(d, d->kbuf, kn, ctx, fl);
  if (t == -1) return RE_ENOMEM;
  if (t == -2) return T_FULL;
  int32_t row = t * 256;
  int32_t v = matched ? -row - 2 : row;
  int32_t *r = d->trans + (size_t)si * 256;
  uint8_t c = d->cls[b];
  for (unsigned x = b; x < 256 && d->cls[x] == c; x++) r[x] = v;
  for (unsigned x = b; x-- > 0 && d->cls[x] == c;) r[x] = v;
  *out = v;
  return T_OK;
}

/* Does the state match at the end of the subject? 1/0 or T_BAIL. */
static int eot_match(re_dfa *d, int32_t si, bool noteol) {
  dstate *s = &d->st[si];
  if (s->eot[noteol] >= 0) return s->eot[noteol];
  uint32_t kn;
  bool matched;
  if (closure(d, s, noteol ? NEXT_EOT_NOEOL : NEXT_EOT, &kn, &matched) == RE_DFA_BAIL) return -1;
  d->st[si].eot[noteol] = matched;
  return matched;
}

static uint8_t start_ctx(re_dfa *d, const re_run *run, size_t from) {
  if (!d->use_ctx) return C_OTHER;
  if (from == 0) return !d->need_bot ? C_OTHER : (run->eflags & RE_NOTBOL) ? C_BOT_NOBOL : C_BOT;
  return d->clsctx[run->s[from - 1]];
}

static int32_t start_state(re_dfa *d, uint8_t ctx, bool unanchored) {
  int32_t k0 = 0;
  int32_t si = state_get(d, &k0, 1, ctx, unanchored ? F_UNANCH : 0);
  if (si == -2) {
    dfa_reset(d);
    k0 = 0;
    si = state_get(d, &k0, 1, ctx, unanchored ? F_UNANCH : 0);
  }
  return si;
}

/* Copies state si's identity, flushes the cache and re-creates it: returns
 * the new index, or -1 (ENOMEM) / -2 (give up). */
static int32_t flush_keep(re_dfa *d, int32_t si, unsigned *flushes) {
  if (++*flushes > RE_DFA_MAX_FLUSH) return -2;
  dstate s = d->st[si];
  int32_t *k = malloc((s.klen + 1) * sizeof *k);
  if (!k) return -1;
  memcpy(k, d->pool + s.koff, s.klen * sizeof *k);
  dfa_reset(d);
  int32_t t = state_get(d, k, s.klen, s.ctx, s.flags & ~F_DEAD);
  free(k);
  return t < 0 ? (t == -1 ? -1 : -2) : t;
}

/* Steps from state *si over byte b on a cache miss. Returns 0 with *v set,
 * or RE_DFA_BAIL / RE_ENOMEM. *si changes when the cache was flushed. */
static int step_slow(re_dfa *d, int32_t *si, unsigned b, unsigned *flushes, int32_t *v) {
  int rc = transition(d, *si, b, v);
  if (rc == T_FULL) {
    int32_t ns = flush_keep(d, *si, flushes);
    if (ns == -1) return RE_ENOMEM;
    if (ns < 0) return RE_DFA_BAIL;
    *si = ns;
    rc = transition(d, *si, b, v);
  }
  if (rc == T_OK) return 0;
  if (rc == RE_ENOMEM) return RE_ENOMEM;
  return RE_DFA_BAIL;
}

int re_dfa_first_end(re_dfa *d, re_run *run, size_t from, size_t to, size_t *end) {
  unsigned flushes = 0;
  int32_t si = start_state(d, start_ctx(d, run, from), true);
  if (si < 0) return si == -1 ? RE_ENOMEM : RE_DFA_BAIL;
  const unsigned char *s = run->s;
  size_t p = from;
  size_t row = (size_t)si * 256;
  while (p < to) {
    size_t chunk = to - p > RE_POLL_INTERVAL ? RE_POLL_INTERVAL : to - p;
    size_t stop = p + chunk;
    const int32_t *trans = d->trans;
    while (p < stop) {
      int32_t v = trans[row + s[p]];
      if (v == (int32_t)row) {
        /* A self-loop (typically the start state): the loads no longer
         * depend on each other, so this runs several times faster. */
        const int32_t *tr = trans + row;
        p++;
        while (p + 4 <= stop && tr[s[p]] == v && tr[s[p + 1]] == v && tr[s[p + 2]] == v &&
               tr[s[p + 3]] == v)
          p += 4;
        while (p < stop && tr[s[p]] == v) p++;
        continue;
      }
      if (v < 0) {
        if (v == TV_UNKNOWN) {
          si = (int32_t)(row / 256);
          int rc = step_slow(d, &si, s[p], &flushes, &v);
          if (rc) return rc;
          trans = d->trans;
        }
        if (tv_matched(v)) {
          *end = p;
          return RE_MATCH;
        }
      }
      row = (size_t)v;
      p++;
    }
    int t = re_run_tick(run, chunk);
    if (t) return t;
  }
  si = (int32_t)(row / 256);
  /* A match ending at `to`? */
  if (to < run->len) {
    int32_t v = d->trans[row + s[to]];
    if (v == TV_UNKNOWN) {
      int rc = step_slow(d, &si, s[to], &flushes, &v);
      if (rc) return rc;
    }
    if (tv_matched(v)) {
      *end = to;
      return RE_MATCH;
    }
    return RE_NOMATCH;
  }
  int m = eot_match(d, si, (run->eflags & RE_NOTEOL) != 0);
  if (m < 0) return RE_DFA_BAIL;
  if (m) {
    *end = to;
    return RE_MATCH;
  }
  return RE_NOMATCH;
}

int re_dfa_longest(re_dfa *d, re_run *run, size_t from, size_t to, size_t *end, size_t *scanned) {
  unsigned flushes = 0;
  int32_t si = start_state(d, start_ctx(d, run, from), false);
  if (si < 0) return si == -1 ? RE_ENOMEM : RE_DFA_BAIL;
  const unsigned char *s = run->s;
  bool found = false;
  size_t last = 0;
  size_t p = from;
  uint64_t n = 0;
  for (; p < to; p++) {
    int32_t v = d->trans[(size_t)si * 256 + s[p]];
    if (v == TV_UNKNOWN) {
      int rc = step_slow(d, &si, s[p], &flushes, &v);
      if (rc) return rc;
    }
    si = (int32_t)(tv_row(v) / 256);
    if (tv_matched(v)) {
      found = true;
      last = p;
    }
    if (d->st[si].flags & F_DEAD) break;
    if (++n == RE_POLL_INTERVAL) {
      int t = re_run_tick(run, n);
      if (t) return t;
      n = 0;
    }
  }
  if (scanned) *scanned += p - from + 1;
  if (p == to && !(d->st[si].flags & F_DEAD)) {
    if (to < run->len) {
      int32_t v = d->trans[(size_t)si * 256 + s[to]];
      if (v == TV_UNKNOWN) {
        int rc = step_slow(d, &si, s[to], &flushes, &v);
        if (rc) return rc;
      }
      if (tv_matched(v)) found = true, last = to;
    } else {
      int m = eot_match(d, si, (run->eflags & RE_NOTEOL) != 0);
      if (m < 0) return RE_DFA_BAIL;
      if (m) found = true, last = to;
    }
  }
  if (!found) return RE_NOMATCH;
  *end = last;
  return RE_MATCH;
}
