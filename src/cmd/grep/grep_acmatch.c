/*
 * grep_acmatch.c - Aho-Corasick matching of a set of fixed strings (grep -F).
 *
 * Build: the strings go into a trie whose edges live in one open-addressing
 * hash ((state << 8 | byte) -> child). Bytes that occur in no string share
 * byte class 0; the others get a class each (after ASCII folding with
 * CMD_AC_ICASE, so the fold costs nothing at scan time: the byte -> class
 * table folds). A breadth-first pass then fills the full transition table
 * delta[state][class] (the goto function completed with the failure links)
 * and, per state, `dict`: the nearest state on its failure chain that ends a
 * string. States are numbered in breadth-first order, so a failure link
 * always points to a state whose row is already filled.
 *
 * Scan: one table step per byte. A state "hits" when a string ends there or
 * on its failure chain; the strings ending at a position are that state (when
 * terminal) and its dict chain, longest first. -w and -x are checks on each
 * such occurrence, so a line matches when any occurrence passes them (GNU's
 * rule: a string that fails the word test may still match shorter or later).
 */
#include "cmd/grep/grep_acmatch.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct cmd_ac {
  unsigned flags;        /* CMD_AC_* */
  uint32_t nstates;      /* trie nodes, root = 0 */
  uint32_t nclass;       /* byte classes (class 0: bytes in no string) */
  uint8_t cls[256];      /* byte -> class (folded under CMD_AC_ICASE) */
  uint32_t *delta;       /* nstates * nclass transitions */
  uint32_t *dict;        /* next terminal state on the failure chain, 0 = none */
  uint32_t *len;         /* string length when the state ends a string, else 0 */
  uint8_t *hit;          /* len or dict non-zero */
  size_t maxlen;         /* longest string */
};

/* ---- the trie's edges ------------------------------------------------------------ */

typedef struct edge_map {
  uint64_t *keys; /* (parent << 8 | byte) + 1; 0 = empty slot */
  uint32_t *vals; /* child */
  size_t cap;     /* power of two */
  size_t n;       /* used */
} edge_map;

static size_t edge_slot(const edge_map *m, uint64_t key) {
  uint64_t h = key * 0x9E3779B97F4A7C15ull;
  size_t i = (size_t)(h >> 20) & (m->cap - 1);
  while (m->keys[i] && m->keys[i] != key) i = (i + 1) & (m->cap - 1);
  return i;
}

static int edge_grow(edge_map *m) {
  size_t ncap = m->cap ? m->cap * 2 : 1024;
  edge_map nm = {calloc(ncap, sizeof(uint64_t)), malloc(ncap * sizeof(uint32_t)), ncap, m->n};
  if (!nm.keys || !nm.vals) {
    free(nm.keys);
    free(nm.vals);
    return -ENOMEM;
  }
  for (size_t i = 0; i < m->cap; i++) {
    if (!m->keys[i]) continue;
    size_t j = edge_slot(&nm, m->keys[i]);
    nm.keys[j] = m->keys[i];
    nm.vals[j] = m->vals[i];
  }
  free(m->keys);
  free(m->vals);
  *m = nm;
  return 0;
}

/* The child of `state` by `byte`, or 0 (the root is nobody's child). */
static uint32_t edge_get(const edge_map *m, uint32_t state, unsigned byte) {
  if (!m->cap) return 0;
  size_t i = edge_slot(m, ((uint64_t)state << 8 | byte) + 1);
  return m->keys[i] ? m->vals[i] : 0;
}

static int edge_put(edge_map *m, uint32_t state, unsigned byte, uint32_t child) {
  if ((m->n + 1) * 2 > m->cap && edge_grow(m) < 0) return -ENOMEM;
  size_t i = edge_slot(m, ((uint64_t)state << 8 | byte) + 1);
  m->keys[i] = ((uint64_t)state << 8 | byte) + 1;
  m->vals[i] = child;
  m->n++;
  return 0;
}

/* ---- build ----------------------------------------------------------------------- */

static unsigned fold(unsigned flags, unsigned char c) {
  return (flags & CMD_AC_ICASE) && c >= 'A' && c <= 'Z' ? c + 32u : c;
}

void cmd_ac_free(cmd_ac *ac) {
  if (!ac) return;
  free(ac->delta);
  free(ac->dict);
  free(ac->len);
  free(ac->hit);
  free(ac);
}

int cmd_ac_build(const char *pats, size_t plen, unsigned flags, size_t max_bytes, cmd_ac **out) {
  *out = NULL;
  cmd_ac *ac = calloc(1, sizeof *ac);
  if (!ac) return -ENOMEM;
  ac->flags = flags;
  edge_map em = {0};
  int rc = 0;
  /* Pass 1: classes, state count bound, empty strings. */
  bool used[256] = {false};
  size_t bound = 1;
  for (size_t i = 0; i <= plen;) {
    const char *nl = memchr(pats + i, '\n', plen - i);
    size_t e = nl ? (size_t)(nl - pats) : plen;
    if (e == i) {
      rc = -EINVAL;
      goto fail;
    }
    for (size_t k = i; k < e; k++) used[fold(flags, (unsigned char)pats[k])] = true;
    bound += e - i;
    if (e - i > ac->maxlen) ac->maxlen = e - i;
    i = e + 1;
  }
  ac->nclass = 1;
  for (unsigned b = 0; b < 256; b++)
    if (used[b]) ac->cls[b] = (uint8_t)ac->nclass++;
  if (ac->nclass > 256) { /* all 256 bytes used: class 0 would be a real byte */
    rc = -E2BIG;
    goto fail;
  }
  for (unsigned b = 0; b < 256; b++) ac->cls[b] = ac->cls[fold(flags, (unsigned char)b)];
  if (bound > UINT32_MAX / 2 || (uint64_t)bound * ac->nclass * sizeof(uint32_t) > max_bytes) {
    rc = -E2BIG;
    goto fail;
  }
  /* Pass 2: the trie (states numbered in insertion order for now). */
  uint32_t *tlen = calloc(bound, sizeof *tlen);
  if (!tlen) {
    rc = -ENOMEM;
    goto fail;
  }
  uint32_t n = 1;
  for (size_t i = 0; i <= plen;) {
    const char *nl = memchr(pats + i, '\n', plen - i);
    size_t e = nl ? (size_t)(nl - pats) : plen;
    uint32_t s = 0;
    for (size_t k = i; k < e; k++) {
      unsigned b = fold(flags, (unsigned char)pats[k]);
      uint32_t t = edge_get(&em, s, b);
      if (!t) {
        t = n++;
        if (edge_put(&em, s, b, t) < 0) {
          free(tlen);
          rc = -ENOMEM;
          goto fail;
        }
      }
      s = t;
    }
    tlen[s] = (uint32_t)(e - i);
    i = e + 1;
  }
  /* Pass 3: breadth-first renumbering, delta, dict. */
  ac->nstates = n;
  uint32_t *order = malloc(n * sizeof *order);   /* bfs position -> trie state */
  uint32_t *newid = malloc(n * sizeof *newid);   /* trie state -> bfs position */
  uint32_t *fail = calloc(n, sizeof *fail);      /* by bfs position */
  ac->delta = calloc((size_t)n * ac->nclass, sizeof *ac->delta);
  ac->dict = calloc(n, sizeof *ac->dict);
  ac->len = calloc(n, sizeof *ac->len);
  ac->hit = calloc(n, 1);
  if (!order || !newid || !fail || !ac->delta || !ac->dict || !ac->len || !ac->hit) {
    free(order), free(newid), free(fail), free(tlen);
    rc = -ENOMEM;
    goto fail;
  }
  unsigned char cbyte[256]; /* class -> its (folded) byte */
  for (unsigned b = 0; b < 256; b++)
    if (used[b]) cbyte[ac->cls[b]] = (unsigned char)b;
  order[0] = 0;
  newid[0] = 0;
  uint32_t head = 0, tail = 1;
  while (head < tail) {
    uint32_t p = head++; /* bfs position of the state being filled */
    uint32_t st = order[p];
    uint32_t *row = ac->delta + (size_t)p * ac->nclass;
    const uint32_t *frow = ac->delta + (size_t)fail[p] * ac->nclass;
    ac->len[p] = tlen[st];
    if (p) ac->dict[p] = ac->len[fail[p]] ? fail[p] : ac->dict[fail[p]];
    ac->hit[p] = ac->len[p] || ac->dict[p];
    for (uint32_t c = 1; c < ac->nclass; c++) {
      uint32_t child = edge_get(&em, st, cbyte[c]);
      if (!child) {
        row[c] = p ? frow[c] : 0;
        continue;
      }
      uint32_t q = tail++;
      order[q] = child;
      newid[child] = q;
      fail[q] = p ? frow[c] : 0;
      row[c] = q;
    }
  }
  free(order), free(newid), free(fail), free(tlen);
  free(em.keys);
  free(em.vals);
  *out = ac;
  return 0;
fail:
  free(em.keys);
  free(em.vals);
  cmd_ac_free(ac);
  return rc;
}

/* ---- scan ------------------------------------------------------------------------ */

static bool word_byte(unsigned char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool occurrence_ok(const cmd_ac *ac, const char *line, size_t n, size_t so, size_t eo) {
  if (ac->flags & CMD_AC_LINE) return so == 0 && eo == n;
  if (ac->flags & CMD_AC_WORDS)
    return (so == 0 || !word_byte((unsigned char)line[so - 1])) &&
           (eo == n || !word_byte((unsigned char)line[eo]));
  return true;
}

long cmd_ac_first_end(const cmd_ac *ac, const char *line, size_t n) {
  const uint32_t *delta = ac->delta;
  const uint32_t nc = ac->nclass;
  uint32_t s = 0;
  bool checks = ac->flags & (CMD_AC_WORDS | CMD_AC_LINE);
  for (size_t i = 0; i < n; i++) {
    s = delta[(size_t)s * nc + ac->cls[(unsigned char)line[i]]];
    if (!ac->hit[s]) continue;
    if (!checks) return (long)(i + 1);
    for (uint32_t t = ac->len[s] ? s : ac->dict[s]; t; t = ac->dict[t])
      if (occurrence_ok(ac, line, n, i + 1 - ac->len[t], i + 1)) return (long)(i + 1);
  }
  return -1;
}

bool cmd_ac_leftmost(const cmd_ac *ac, const char *line, size_t n, size_t pos, size_t *so,
                     size_t *eo) {
  const uint32_t *delta = ac->delta;
  const uint32_t nc = ac->nclass;
  uint32_t s = 0;
  size_t best_so = SIZE_MAX, best_eo = 0;
  for (size_t i = pos; i < n; i++) {
    /* a match ending here starts at i + 1 - maxlen or later */
    if (best_so != SIZE_MAX && i + 1 > best_so + ac->maxlen) break;
    s = delta[(size_t)s * nc + ac->cls[(unsigned char)line[i]]];
    if (!ac->hit[s]) continue;
    for (uint32_t t = ac->len[s] ? s : ac->dict[s]; t; t = ac->dict[t]) {
      size_t mso = i + 1 - ac->len[t], meo = i + 1;
      if (!occurrence_ok(ac, line, n, mso, meo)) continue;
      if (mso < best_so || (mso == best_so && meo > best_eo)) best_so = mso, best_eo = meo;
    }
  }
  if (best_so == SIZE_MAX) return false;
  *so = best_so;
  *eo = best_eo;
  return true;
}
