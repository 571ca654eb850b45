/*
 * re_compile.c - AST to a byte-level program (Thompson construction).
 *
 * Instructions consume bytes, never characters: a UTF-8 character class
 * becomes a small trie of I_DISPATCH instructions (first byte, then each
 * continuation byte), built from the codepoint intervals with the standard
 * splitting of an interval into ranges whose every byte position is a plain
 * byte range, and deduplicated so that equal subtries are emitted once. So
 * the DFA and the Pike VM stay byte machines, '.' never matches an invalid
 * byte, and NUL is an ordinary byte.
 *
 * Repetitions are expanded (x{2,4} = x x (x (x)?)?), each SPLIT preferring to
 * repeat: that preference is what the Pike VM uses to choose submatches
 * among equally long matches. The program size is checked against
 * RE_MAX_PROGRAM before and during emission.
 */
#include <stdlib.h>
#include <string.h>

#include "re/re_int.h"

typedef struct comp {
  re_prog *prog;      /* output */
  const re_ast *ast;  /* input */
  unsigned flags;     /* RE_* */
  bool utf8;          /* RE_UTF8 */
  int code;           /* first error */
} comp;

static int cfail(comp *c, int code) {
  if (!c->code) c->code = code;
  return -1;
}

static int32_t emit(comp *c, int op, int arg, int32_t x, int32_t y) {
  re_prog *p = c->prog;
  if (c->code) return -1;
  if (p->n >= RE_MAX_PROGRAM) return cfail(c, RE_ESIZE);
  if (re_grow(&p->ins, &p->cap, p->n + 1, sizeof *p->ins, 64, SIZE_MAX) < 0)
    return cfail(c, RE_ECOMPNOMEM);
  re_inst *in = &p->ins[p->n];
  in->op = (uint8_t)op;
  in->arg = (uint8_t)arg;
  in->x = x;
  in->y = y;
  return (int32_t)p->n++;
}

static int32_t add_bitmap(comp *c, const uint32_t *bits) {
  re_prog *p = c->prog;
  for (size_t i = 0; i < p->nsets; i++)
    if (memcmp(p->sets[i], bits, 32) == 0) return (int32_t)i;
  if (re_grow(&p->sets, &p->capsets, p->nsets + 1, sizeof *p->sets, 8, SIZE_MAX) < 0)
    return cfail(c, RE_ECOMPNOMEM);
  memcpy(p->sets[p->nsets], bits, 32);
  return (int32_t)p->nsets++;
}

static int32_t add_dents(comp *c, const re_dent *d, size_t n) {
  re_prog *p = c->prog;
  if (p->ndents + n > (size_t)RE_MAX_PROGRAM * 4) return cfail(c, RE_ESIZE);
  if (re_grow(&p->dents, &p->capdents, p->ndents + n, sizeof *p->dents, 64, SIZE_MAX) < 0)
    return cfail(c, RE_ECOMPNOMEM);
  memcpy(p->dents + p->ndents, d, n * sizeof *d);
  int32_t at = (int32_t)p->ndents;
  p->ndents += n;
  return at;
}

/* ---- UTF-8 tries ------------------------------------------------------------------ */

#define LEAF (-1)

typedef struct tnode {
  re_dent *e;  /* entries sorted by lo; e.to = child node index or LEAF */
  size_t n;    /* entries */
  size_t cap;  /* allocated */
  int32_t pc;  /* emitted instruction (-1 not yet) */
} tnode;

typedef struct trie {
  tnode *v;   /* nodes; v[0] is the root */
  size_t n;   /* used */
  size_t cap; /* allocated */
} trie;

static int32_t tnode_new(trie *t) {
  if (re_grow(&t->v, &t->cap, t->n + 1, sizeof *t->v, 16, 1u << 20) < 0) return -1;
  memset(&t->v[t->n], 0, sizeof t->v[0]);
  t->v[t->n].pc = -1;
  return (int32_t)t->n++;
}

static int tnode_insert_at(tnode *nd, size_t at, re_dent d) {
  if (re_grow(&nd->e, &nd->cap, nd->n + 1, sizeof *nd->e, 4, SIZE_MAX) < 0) return -1;
  memmove(nd->e + at + 1, nd->e + at, (nd->n - at) * sizeof *nd->e);
  nd->e[at] = d;
  nd->n++;
  return 0;
}

static int32_t tnode_clone(trie *t, int32_t src) {
  if (src == LEAF) return LEAF;
  int32_t dst = tnode_new(t);
  if (dst < 0) return -1;
  for (size_t i = 0; i < t->v[src].n; i++) {
    re_dent d = t->v[src].e[i];
    int32_t ch = tnode_clone(t, d.to);
    if (ch < -1) return -2;
    if (d.to != LEAF && ch < 0) return -2;
    d.to = ch;
    if (tnode_insert_at(&t->v[dst], t->v[dst].n, d) < 0) return -2;
  }
  return dst;
}

/* Inserts the byte-range sequence r[i..k) under node. 0 or -1. */
static int trie_insert(trie *t, int32_t node, const re_dent *r, int i, int k) {
  uint8_t lo = r[i].lo, hi = r[i].hi;
  bool last = i == k - 1;
  /* Split entries straddling lo or hi+1. */
  for (size_t j = 0; j < t->v[node].n; j++) {
    re_dent e = t->v[node].e[j];
    unsigned cut = 0;
    if (e.lo < lo && e.hi >= lo) cut = lo;
    else if (hi < 255 && e.lo <= hi && e.hi > hi) cut = hi + 1u;
    if (!cut) continue;
    int32_t cl = tnode_clone(t, e.to);
    if (e.to != LEAF && cl < 0) return -1;
    t->v[node].e[j].hi = (uint8_t)(cut - 1);
    re_dent second = {(uint8_t)cut, e.hi, cl};
    if (tnode_insert_at(&t->v[node], j + 1, second) < 0) return -1;
  }
  /* Fill gaps inside [lo, hi] and descend into covered entries. */
  unsigned cur = lo;
  size_t j = 0;
  while (cur <= hi) {
    while (j < t->v[node].n && t->v[node].e[j].hi < cur) j++;
    if (j < t->v[node].n && t->v[node].e[j].lo <= cur) {
      re_dent *e = &t->v[node].e[j];
      if (!last && e->to != LEAF) {
        int32_t to = e->to;
        unsigned ehi = e->hi;
        if (trie_insert(t, to, r, i + 1, k) < 0) return -1;
        cur = ehi + 1;
      } else {
        cur = e->hi + 1u; /* leaf already there (UTF-8 is prefix-free) */
      }
      j++;
      continue;
    }
    unsigned gap_hi = hi;
    if (j < t->v[node].n && t->v[node].e[j].lo <= hi) gap_hi = t->v[node].e[j].lo - 1u;
    int32_t child = LEAF;
    if (!last) {
      child = tnode_new(t);
      if (child < 0) return -1;
    }
    re_dent d = {(uint8_t)cur, (uint8_t)gap_hi, child};
    if (tnode_insert_at(&t->v[node], j, d) < 0) return -1;
    if (!last && trie_insert(t, child, r, i + 1, k) < 0) return -1;
    j++;
    cur = gap_hi + 1;
  }
  return 0;
}

/* Splits [lo, hi] (same encoded length, no surrogates) into sequences of byte
 * ranges and inserts each. */
static int utf8_split(trie *t, uint32_t lo, uint32_t hi) {
  static const uint32_t lens[3][2] = {{0x80, 0x7FF}, {0x800, 0xFFFF}, {0x10000, 0x10FFFF}};
  for (int k = 0; k < 3; k++) {
    if (lo < lens[k][0] && hi >= lens[k][0]) {
      if (utf8_split(t, lo, lens[k][0] - 1) < 0) return -1;
      return utf8_split(t, lens[k][0], hi);
    }
    if (lo <= lens[k][1] && hi > lens[k][1]) {
      if (utf8_split(t, lo, lens[k][1]) < 0) return -1;
      return utf8_split(t, lens[k][1] + 1, hi);
    }
  }
  if (lo <= 0xDFFF && hi >= 0xD800) {
    if (lo < 0xD800 && utf8_split(t, lo, 0xD7FF) < 0) return -1;
    if (hi > 0xDFFF && utf8_split(t, 0xE000, hi) < 0) return -1;
    return 0;
  }
  if (hi < 0x80) return 0;
  unsigned char a[4], b[4];
  int n = re_utf8_encode(lo, a);
  re_utf8_encode(hi, b);
  for (int i = 1; i < n; i++) {
    uint32_t m = (1u << (6 * i)) - 1;
    if ((lo & ~m) != (hi & ~m)) {
      if ((lo & m) != 0) {
        if (utf8_split(t, lo, lo | m) < 0) return -1;
        return utf8_split(t, (lo | m) + 1, hi);
      }
      if ((hi & m) != m) {
        if (utf8_split(t, lo, (hi & ~m) - 1) < 0) return -1;
        return utf8_split(t, hi & ~m, hi);
      }
    }
  }
  re_dent seq[4];
  for (int i = 0; i < n; i++) {
    seq[i].lo = a[i];
    seq[i].hi = b[i];
    seq[i].to = 0;
  }
  return trie_insert(t, 0, seq, 0, n);
}

/* Emits node `ni` (children first); returns its pc. Leaves get `LEAF`
 * targets, patched by the caller. Equal nodes are emitted once. */
static int32_t trie_emit(comp *c, trie *t, int32_t ni, int32_t first_pc) {
  tnode *nd = &t->v[ni];
  if (nd->pc >= 0) return nd->pc;
  re_dent tmp[256];
  size_t n = nd->n > 256 ? 256 : nd->n;
  for (size_t i = 0; i < n; i++) {
    tmp[i] = nd->e[i];
    if (tmp[i].to != LEAF) {
      int32_t pc = trie_emit(c, t, tmp[i].to, first_pc);
      if (pc < 0) return -1;
      tmp[i].to = pc;
    }
  }
  /* Dedup against already emitted dispatch instructions of this class. */
  re_prog *p = c->prog;
  for (int32_t pc = first_pc; pc < (int32_t)p->n; pc++) {
    re_inst *in = &p->ins[pc];
    if (in->op != I_DISPATCH || (size_t)in->y != n) continue;
    if (memcmp(p->dents + in->x, tmp, n * sizeof *tmp) == 0) {
      t->v[ni].pc = pc;
      return pc;
    }
  }
  int32_t at = add_dents(c, tmp, n);
  if (at < 0) return -1;
  int32_t pc = emit(c, I_DISPATCH, 0, at, (int32_t)n);
  t->v[ni].pc = pc;
  return pc;
}

static void trie_free(trie *t) {
  for (size_t i = 0; i < t->n; i++) free(t->v[i].e);
  free(t->v);
}

/* Emits a set as one I_SET / I_BYTE, or as a dispatch trie. */
static int emit_cset(comp *c, const re_cset *s) {
  if (!c->utf8 || s->n == 0) {
    int cnt = 0, only = -1;
    for (int b = 0; b < 256; b++)
      if (re_bit_has(s->bits, (unsigned)b)) cnt++, only = b;
    if (cnt == 1) return emit(c, I_BYTE, only, 0, 0) < 0 ? -1 : 0;
    int32_t si = add_bitmap(c, s->bits);
    if (si < 0) return -1;
    return emit(c, I_SET, 0, si, 0) < 0 ? -1 : 0;
  }
  trie t = {0};
  int rc = -1;
  if (tnode_new(&t) < 0) goto out;
  for (size_t i = 0; i < s->n; i++)
    if (utf8_split(&t, s->r[i].lo, s->r[i].hi) < 0) goto out;
  /* ASCII and raw bytes as leaves (raw bytes only where no sequence starts). */
  for (unsigned b = 0; b < 256; b++) {
    if (!re_bit_has(s->bits, b)) continue;
    unsigned e = b;
    while (e + 1 < 256 && re_bit_has(s->bits, e + 1) && (e + 1 < 128) == (b < 128)) e++;
    for (unsigned x = b; x <= e; x++) {
      bool taken = false;
      tnode *root = &t.v[0];
      size_t j = 0;
      for (; j < root->n && root->e[j].lo <= x; j++)
        if (root->e[j].hi >= x) taken = true;
      if (!taken) {
        re_dent d = {(uint8_t)x, (uint8_t)x, LEAF};
        /* Merge with the previous leaf entry when adjacent. */
        if (j > 0 && root->e[j - 1].to == LEAF && root->e[j - 1].hi + 1u == x) {
          root->e[j - 1].hi = (uint8_t)x;
        } else if (tnode_insert_at(root, j, d) < 0) {
          goto out;
        }
      }
    }
    b = e;
  }
  /* Reserve the root's pc first so the flow enters it. */
  int32_t root_pc = emit(c, I_DISPATCH, 0, 0, 0);
  if (root_pc < 0) goto out;
  re_dent rootd[256];
  size_t rn = t.v[0].n > 256 ? 256 : t.v[0].n;
  for (size_t i = 0; i < rn; i++) {
    rootd[i] = t.v[0].e[i];
    if (rootd[i].to != LEAF) {
      int32_t pc = trie_emit(c, &t, rootd[i].to, root_pc + 1);
      if (pc < 0) goto out;
      rootd[i].to = pc;
    }
  }
  int32_t at = add_dents(c, rootd, rn);
  if (at < 0) goto out;
  c->prog->ins[root_pc].x = at;
  c->prog->ins[root_pc].y = (int32_t)rn;
  /* Leaves continue after the whole class. */
  int32_t cont = (int32_t)c->prog->n;
  for (int32_t pc = root_pc; pc < cont; pc++) {
    re_inst *in = &c->prog->ins[pc];
    for (int32_t k = 0; k < in->y; k++)
      if (c->prog->dents[in->x + k].to == LEAF) c->prog->dents[in->x + k].to = cont;
  }
  rc = 0;
out:
  if (rc < 0 && !c->code) cfail(c, RE_ECOMPNOMEM);
  trie_free(&t);
  return rc;
}

static int emit_any(comp *c) {
  re_cset s = {0};
  int rc;
  if (c->utf8) {
    for (int w = 0; w < 4; w++) s.bits[w] = 0xFFFFFFFFu;
    if (re_cset_add(&s, 0x80, 0xD7FF) < 0 || re_cset_add(&s, 0xE000, 0x10FFFF) < 0) {
      re_cset_free(&s);
      return cfail(c, RE_ECOMPNOMEM);
    }
  } else {
    for (int w = 0; w < 8; w++) s.bits[w] = 0xFFFFFFFFu;
  }
  if (c->flags & (RE_NEWLINE | RE_NOTNL)) s.bits['\n' >> 5] &= ~(1u << ('\n' & 31));
  rc = emit_cset(c, &s);
  re_cset_free(&s);
  return rc;
}

/* ---- AST walk ---------------------------------------------------------------------- */

static bool nullable(const re_ast *a, int32_t i) {
  const re_node *n = &a->nodes[i];
  switch (n->type) {
  case RN_EMPTY:
  case RN_ASSERT:
  case RN_BACKREF: return true;
  case RN_CHAR:
  case RN_SET:
  case RN_ANY: return false;
  case RN_CAT:
    for (int32_t k = n->kid; k >= 0; k = a->nodes[k].next)
      if (!nullable(a, k)) return false;
    return true;
  case RN_ALT:
    for (int32_t k = n->kid; k >= 0; k = a->nodes[k].next)
      if (nullable(a, k)) return true;
    return false;
  case RN_REPEAT: return n->min == 0 || nullable(a, n->kid);
  case RN_GROUP: return nullable(a, n->kid);
  }
  return true;
}

/* Estimated instruction count (saturating), to refuse huge expansions early. */
static uint64_t estimate(const re_ast *a, int32_t i) {
  const re_node *n = &a->nodes[i];
  uint64_t s = 0;
  switch (n->type) {
  case RN_CHAR: return n->raw || n->ch < 0x80 ? 1 : 4;
  case RN_SET: return 1 + a->sets[n->set].n;
  case RN_ANY: return 8;
  case RN_CAT:
  case RN_ALT:
    for (int32_t k = n->kid; k >= 0; k = a->nodes[k].next) {
      s += estimate(a, k) + (n->type == RN_ALT ? 2 : 0);
      if (s > RE_MAX_PROGRAM) return RE_MAX_PROGRAM + 1;
    }
    return s;
  case RN_REPEAT: {
    uint64_t k = estimate(a, n->kid) + 2;
    uint64_t times = n->max < 0 ? (uint64_t)n->min + 1 : (uint64_t)n->max;
    if (times == 0) return 0;
    if (k > (RE_MAX_PROGRAM + 1) / times) return RE_MAX_PROGRAM + 1;
    return k * times;
  }
  case RN_GROUP: return estimate(a, n->kid) + 2;
  default: return 1;
  }
}

static int emit_node(comp *c, int32_t i, int depth) {
  const re_ast *a = c->ast;
  const re_node *n = &a->nodes[i];
  if (c->code) return -1;
  if (depth > RE_MAX_DEPTH * 2) return cfail(c, RE_ESIZE);
  switch (n->type) {
  case RN_EMPTY: return 0;
  case RN_CHAR:
    if (n->raw || !c->utf8 || n->ch < 0x80) return emit(c, I_BYTE, (int)(n->ch & 0xFF), 0, 0) < 0 ? -1 : 0;
    {
      unsigned char b[4];
      int l = re_utf8_encode(n->ch, b);
      for (int k = 0; k < l; k++)
        if (emit(c, I_BYTE, b[k], 0, 0) < 0) return -1;
      return 0;
    }
  case RN_SET: return emit_cset(c, &a->sets[n->set]);
  case RN_ANY: return emit_any(c);
  case RN_CAT:
    for (int32_t k = n->kid; k >= 0; k = a->nodes[k].next)
      if (emit_node(c, k, depth + 1) < 0) return -1;
    return 0;
  case RN_ALT: {
    /* SPLIT L1, next; L1: kid; JMP end; next: SPLIT ... last kid; end: */
    int32_t jumps[64];
    int nj = 0;
    int32_t *jv = jumps;
    int cnt = 0;
    for (int32_t k = n->kid; k >= 0; k = a->nodes[k].next) cnt++;
    if (cnt > 64) {
      jv = malloc((size_t)cnt * sizeof *jv);
      if (!jv) return cfail(c, RE_ECOMPNOMEM);
    }
    int rc = 0;
    for (int32_t k = n->kid; k >= 0; k = a->nodes[k].next) {
      if (a->nodes[k].next >= 0) {
        int32_t sp = emit(c, I_SPLIT, 0, 0, 0);
        if (sp < 0) { rc = -1; break; }
        c->prog->ins[sp].x = sp + 1;
        if (emit_node(c, k, depth + 1) < 0) { rc = -1; break; }
        int32_t j = emit(c, I_JMP, 0, -1, 0);
        if (j < 0) { rc = -1; break; }
        jv[nj++] = j;
        c->prog->ins[sp].y = (int32_t)c->prog->n;
      } else if (emit_node(c, k, depth + 1) < 0) {
        rc = -1;
        break;
      }
    }
    if (rc == 0)
      for (int k = 0; k < nj; k++) c->prog->ins[jv[k]].x = (int32_t)c->prog->n;
    if (jv != jumps) free(jv);
    return rc;
  }
  case RN_REPEAT: {
    int mn = n->min, mx = n->max;
    if (mx == 0) return 0;
    if (mx < 0) {
      /* With back-references the backtracker runs this program: a loop whose
       * body can match empty gets a progress check (MARK/CHECK): an
       * iteration that matched empty ends the loop (as in glibc, so
       * \(a*\)*\1 can use an empty last iteration) instead of repeating. */
      bool guard = c->ast->backrefs && nullable(a, n->kid);
      if (guard) {
        for (int k = 0; k < mn; k++)
          if (emit_node(c, n->kid, depth + 1) < 0) return -1;
        int32_t slot = c->prog->nloops++;
        int32_t L = emit(c, I_SPLIT, 0, 0, 0);
        if (L < 0) return -1;
        c->prog->ins[L].x = L + 1;
        if (emit(c, I_MARK, 0, slot, 0) < 0) return -1;
        if (emit_node(c, n->kid, depth + 1) < 0) return -1;
        int32_t chk = emit(c, I_CHECK, 0, slot, 0);
        if (chk < 0) return -1;
        if (emit(c, I_JMP, 0, L, 0) < 0) return -1;
        c->prog->ins[L].y = (int32_t)c->prog->n;
        c->prog->ins[chk].y = (int32_t)c->prog->n; /* an empty iteration ends the loop */
        return 0;
      }
      if (mn > 0) {
        for (int k = 0; k < mn - 1; k++)
          if (emit_node(c, n->kid, depth + 1) < 0) return -1;
        /* L: kid; SPLIT L, out */
        int32_t L = (int32_t)c->prog->n;
        if (emit_node(c, n->kid, depth + 1) < 0) return -1;
        int32_t sp = emit(c, I_SPLIT, 0, L, 0);
        if (sp < 0) return -1;
        c->prog->ins[sp].y = sp + 1;
        return 0;
      }
      /* x* as (x+)?: SPLIT L, out; L: kid; SPLIT L, out; out:
       * (so an empty iteration still sets the groups inside, as glibc does:
       * \(a*\)* on "b" gives \1 = (0,0)). */
      int32_t sp0 = emit(c, I_SPLIT, 0, 0, 0);
      if (sp0 < 0) return -1;
      int32_t L = sp0 + 1;
      c->prog->ins[sp0].x = L;
      if (emit_node(c, n->kid, depth + 1) < 0) return -1;
      int32_t sp1 = emit(c, I_SPLIT, 0, L, 0);
      if (sp1 < 0) return -1;
      c->prog->ins[sp1].y = sp1 + 1;
      c->prog->ins[sp0].y = sp1 + 1;
      return 0;
    }
    for (int k = 0; k < mn; k++)
      if (emit_node(c, n->kid, depth + 1) < 0) return -1;
    int opt = mx - mn;
    if (opt == 0) return 0;
    int32_t *splits = malloc((size_t)opt * sizeof *splits);
    if (!splits) return cfail(c, RE_ECOMPNOMEM);
    int rc = 0;
    for (int k = 0; k < opt; k++) {
      int32_t sp = emit(c, I_SPLIT, 0, 0, 0);
      if (sp < 0) { rc = -1; break; }
      c->prog->ins[sp].x = sp + 1;
      splits[k] = sp;
      if (emit_node(c, n->kid, depth + 1) < 0) { rc = -1; break; }
    }
    if (rc == 0)
      for (int k = 0; k < opt; k++) c->prog->ins[splits[k]].y = (int32_t)c->prog->n;
    free(splits);
    return rc;
  }
  case RN_GROUP:
    if (emit(c, I_SAVE, 0, 2 * n->group, 0) < 0) return -1;
    if (emit_node(c, n->kid, depth + 1) < 0) return -1;
    return emit(c, I_SAVE, 0, 2 * n->group + 1, 0) < 0 ? -1 : 0;
  case RN_BACKREF:
    c->prog->has_backref = true;
    return emit(c, I_BACKREF, 0, n->group, 0) < 0 ? -1 : 0;
  case RN_ASSERT:
    c->prog->has_assert = true;
    if (n->assert_kind >= RA_WORDB) c->prog->word_assert = true;
    return emit(c, I_ASSERT, n->assert_kind, 0, 0) < 0 ? -1 : 0;
  }
  return 0;
}

/* The bytes that can start a match (closure of pc 0, assertions passable). */
static void first_bytes(re_prog *p) {
  uint8_t *seen = calloc(p->n, 1);
  int32_t *stack = malloc(p->n * sizeof *stack);
  memset(p->first, 0, sizeof p->first);
  p->first_any = false;
  p->can_empty_start = false;
  if (!seen || !stack) {
    p->first_any = true;
    free(seen);
    free(stack);
    return;
  }
  size_t sp = 0;
  stack[sp++] = 0;
  seen[0] = 1;
  while (sp) {
    int32_t pc = stack[--sp];
    re_inst *in = &p->ins[pc];
    int32_t nx[2];
    int nn = 0;
    switch (in->op) {
    case I_BYTE: re_bit_set(p->first, in->arg); break;
    case I_SET:
      for (int w = 0; w < 8; w++) p->first[w] |= p->sets[in->x][w];
      break;
    case I_DISPATCH:
      for (int32_t k = 0; k < in->y; k++)
        for (unsigned b = p->dents[in->x + k].lo; b <= p->dents[in->x + k].hi; b++)
          re_bit_set(p->first, b);
      break;
    case I_BACKREF:
      p->first_any = true;
      nx[nn++] = pc + 1;
      break;
    case I_MATCH: p->can_empty_start = true; break;
    case I_SPLIT: nx[nn++] = in->x; nx[nn++] = in->y; break;
    case I_JMP: nx[nn++] = in->x; break;
    default: nx[nn++] = pc + 1; break;
    }
    for (int k = 0; k < nn; k++)
      if (!seen[nx[k]]) {
        seen[nx[k]] = 1;
        stack[sp++] = nx[k];
      }
  }
  free(seen);
  free(stack);
}

int re_compile_ast(re_prog *prog, const re_ast *ast, unsigned flags, re_err *err) {
  memset(prog, 0, sizeof *prog);
  comp c = {prog, ast, flags, (flags & RE_UTF8) != 0, 0};
  if (estimate(ast, ast->root) > RE_MAX_PROGRAM) {
    re_set_error(err, RE_ESIZE, 0);
    return RE_ESIZE;
  }
  prog->nslots = 2 * (ast->ngroups + 1);
  emit_node(&c, ast->root, 0);
  emit(&c, I_MATCH, 0, 0, 0);
  if (c.code) {
    re_prog_free(prog);
    re_set_error(err, c.code, 0);
    return c.code;
  }
  first_bytes(prog);
  return 0;
}

void re_prog_free(re_prog *p) {
  free(p->ins);
  free(p->sets);
  free(p->dents);
  memset(p, 0, sizeof *p);
}
