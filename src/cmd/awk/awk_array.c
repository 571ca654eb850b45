/*
 * awk_array.c - associative arrays for the awk command, laid out like gawk's
 * so that `for (k in a)` visits subscripts in the same order as gawk 5.
 *
 * Scripts print arrays with for-in and their output is compared byte for
 * byte with gawk's, so the iteration order is part of the behaviour. gawk
 * keeps three array flavours and picks one by the first subscript stored:
 *   - "cint": non-negative 32-bit integers, listed in ascending order; an
 *     integer that would make the storage too sparse (the HAT capacity
 *     estimate exceeds the element count by more than 2^(NHAT+1)) goes to
 *     an extra array instead;
 *   - "int": other 32-bit integers in a chained hash of 2-slot buckets
 *     (prime table sizes, grown past 2 elements per bucket);
 *   - "str": everything else in a chained hash (sdbm-like hash truncated to
 *     32 bits, new entries at the chain head, grown past 2 per bucket).
 * A cint or int array keeps the subscripts it does not take in an extra
 * array ("xarray") that is listed first; deleting the last own element
 * promotes the extra array; an emptied array forgets its flavour. This file
 * reproduces those rules (the layout, not gawk's code): cint elements live in
 * an open-addressing map and are sorted when listed, with the leaf capacity
 * bookkeeping that decides what is "too sparse" kept exactly.
 *
 * Subscripts are always strings; a subscript is an integer when it is the
 * canonical decimal form of a 32-bit integer ("0", "-12", not "012" or "+1").
 */
#include <stdlib.h>
#include <string.h>

#include "cmd/awk/awk.h"

enum { AK_NULL = 0, AK_CINT, AK_INT, AK_STR };

#define NHAT 10
#define THRESHOLD 2048 /* 2^(NHAT+1) */
#define STR_CHAIN_MAX 2
#define INT_CHAIN_MAX 2

typedef struct awk_elem {
  awk_str *key;           /* subscript (owned) */
  awk_cell cell;          /* the value */
  struct awk_elem *next;  /* str chain */
  unsigned long code;     /* str hash code */
  int32_t ikey;           /* integer subscript (cint/int parts) */
} awk_elem;

typedef struct int_node {
  int32_t num[2];          /* keys in the slots */
  awk_elem *e[2];          /* elements */
  int count;               /* used slots */
  struct int_node *next;   /* chain */
} int_node;

typedef struct cint_slot {
  int64_t k;               /* key (cint element) or leaf base */
  void *e;                 /* element, or NULL for empty slot */
  size_t count;            /* leaf map: elements in the leaf */
  size_t size;             /* leaf map: leaf size */
} cint_slot;

typedef struct cmap {
  cint_slot *slots;        /* open addressing, power of two */
  size_t cap;              /* slots */
  size_t n;                /* live entries */
  size_t dead;             /* tombstones (slots whose e is CMAP_DEAD) */
  bool seq;                /* keys are often consecutive (elements): keep them adjacent */
} cmap;

struct awk_arr {
  int kind;                /* AK_* */
  size_t table_size;       /* elements, including the extra array's */
  struct awk_arr *x;       /* extra array (owned) or NULL */
  awk_elem **sb;           /* str buckets */
  size_t ssize;            /* str bucket count */
  int_node **ib;           /* int buckets */
  size_t isize;            /* int bucket count */
  bool maxed;              /* table at its largest size */
  cmap elems;              /* cint elements by key */
  cmap leaves;             /* cint leaves by base (e = non-NULL marker) */
  size_t capacity;         /* cint: sum of allocated leaf sizes */
  struct awk_arr *lprev, *lnext; /* interpreter's array list (top level only) */
  bool listed;             /* in the interpreter's list */
};

static const unsigned long prime_sizes[] = {
    13, 127, 1021, 8191, 16381, 32749, 65497, 131101, 262147, 524309, 1048583,
    2097169, 4194319, 8388617, 16777259, 33554467, 67108879, 134217757,
    268435459, 536870923, 1073741827};

static void *xcalloc(awk_interp *in, size_t n, size_t sz) {
  void *p = calloc(n ? n : 1, sz);
  if (!p) awk_fatal(in, "out of memory");
  return p;
}

/* ---- integer test and hashes ---------------------------------------------------- */

static bool key_int(const awk_str *s, int32_t *out) {
  const char *p = s->p;
  size_t len = s->len;
  if (len == 0) return false;
  if (len == 1) {
    if (p[0] >= '0' && p[0] <= '9') {
      *out = p[0] - '0';
      return true;
    }
    return false;
  }
  size_t i = 0;
  bool neg = false;
  if (p[0] == '-') {
    neg = true;
    i = 1;
  }
  if (p[i] < '1' || p[i] > '9') return false;
  if (len - i > 10) return false;
  int64_t v = 0;
  for (; i < len; i++) {
    if (p[i] < '0' || p[i] > '9') return false;
    v = v * 10 + (p[i] - '0');
  }
  if (neg) v = -v;
  if (v > INT32_MAX || v < INT32_MIN) return false;
  *out = (int32_t)v;
  return true;
}

static unsigned long str_hash(const char *s, size_t len) {
  unsigned long h = 0, htmp;
  for (size_t i = 0; i < len; i++) {
    long c = (signed char)s[i];
    htmp = h << 6;
    h = (unsigned long)c + htmp + (htmp << 10) - h;
    h &= 0xFFFFFFFFul;
  }
  return h;
}

static uint32_t int_hash(uint32_t k, uint32_t hsize) {
  k ^= k << 3;
  k += k >> 5;
  k ^= k << 4;
  k += k >> 17;
  k ^= k << 25;
  k += k >> 6;
  if (k >= hsize) k %= hsize;
  return k;
}

/* ---- open-addressing map for cint ----------------------------------------------- */

/* cap is a power of two, at least 16. Element keys (seq) fold their high
 * bits onto the low ones, so that a[1..n] lands in consecutive slots (cache
 * friendly, no collisions); leaf bases are multiples of powers of two and
 * take Fibonacci hashing (the top bits of the product). */
static size_t cmap_hash(bool seq, int64_t k, size_t cap) {
  int sh = __builtin_ctzll((unsigned long long)cap);
  uint64_t x = (uint64_t)k;
  if (seq) return (size_t)((x ^ (x >> sh) ^ (x >> (2 * sh))) & (cap - 1));
  return (size_t)((x * 0x9E3779B97F4A7C15ull) >> (64 - sh));
}

/* A removed entry leaves a tombstone: backward-shift deletion would walk the
 * whole cluster, and a[0..n-1] is one cluster of n slots under the seq hash,
 * so deleting it in order would be quadratic. Tombstones are dropped when the
 * table is rebuilt (at half load, counting them). */
static char cmap_dead_marker;
#define CMAP_DEAD ((void *)&cmap_dead_marker)

static bool slot_live(const cint_slot *s) { return s->e && s->e != CMAP_DEAD; }

static cint_slot *cmap_find(cmap *m, int64_t k) {
  if (!m->cap) return NULL;
  size_t i = cmap_hash(m->seq, k, m->cap);
  for (;;) {
    cint_slot *s = &m->slots[i];
    if (!s->e) return NULL;
    if (s->e != CMAP_DEAD && s->k == k) return s;
    i = (i + 1) & (m->cap - 1);
  }
}

/* Inserts a key known to be absent. */
static cint_slot *cmap_insert(awk_interp *in, cmap *m, int64_t k, void *e) {
  if ((m->n + m->dead + 1) * 2 > m->cap) {
    size_t ncap = m->cap ? m->cap : 16;
    while ((m->n + 1) * 2 > ncap) ncap *= 2;
    cint_slot *old = m->slots;
    size_t ocap = m->cap;
    m->slots = xcalloc(in, ncap, sizeof(cint_slot));
    m->cap = ncap;
    m->dead = 0;
    for (size_t j = 0; j < ocap; j++) {
      if (!slot_live(&old[j])) continue;
      size_t i = cmap_hash(m->seq, old[j].k, ncap);
      while (m->slots[i].e) i = (i + 1) & (ncap - 1);
      m->slots[i] = old[j];
    }
    free(old);
  }
  size_t i = cmap_hash(m->seq, k, m->cap);
  while (slot_live(&m->slots[i])) i = (i + 1) & (m->cap - 1);
  if (m->slots[i].e == CMAP_DEAD) m->dead--;
  m->slots[i].k = k;
  m->slots[i].e = e;
  m->slots[i].count = 0;
  m->slots[i].size = 0;
  m->n++;
  return &m->slots[i];
}

static void cmap_remove(cmap *m, cint_slot *s) {
  s->e = CMAP_DEAD;
  m->n--;
  m->dead++;
}

static void cmap_free(cmap *m) {
  free(m->slots);
  m->slots = NULL;
  m->cap = m->n = m->dead = 0;
}

/* ---- cint leaf geometry (gawk's hashed array trees) ---------------------------------- */

static int cint_hash(int64_t k) {
  uint32_t num = (uint32_t)k;
  if (k == 0) return NHAT;
  int r = 31 - __builtin_clz(num);
  if (r < NHAT) return NHAT;
  return 1 + r;
}

static void leaf_of(int64_t k, int64_t *base_out, int64_t *size_out) {
  int h1 = cint_hash(k);
  int m = h1 - 1;
  int64_t base;
  if (m < NHAT) {
    m = NHAT;
    base = 0;
  } else {
    base = (int64_t)1 << m;
  }
  for (;;) {
    int n = (m + 1) / 2;
    int64_t size = (int64_t)1 << n;
    int64_t i = (k - base) / size;
    base += size * i;
    if (n > NHAT) {
      m = n;
      continue;
    }
    *base_out = base;
    *size_out = size;
    return;
  }
}

static int64_t capacity_estimate(int64_t k) {
  int m = cint_hash(k) - 1;
  int li = m > NHAT ? m : NHAT;
  while (li >= NHAT) li = (li + 1) / 2;
  return (int64_t)1 << li;
}

/* ---- elements ------------------------------------------------------------------- */

/* Elements come from chunks of ELEM_CHUNK with a free list: no malloc per
 * element, and the end of a run frees chunks, not millions of elements. */
#define ELEM_CHUNK 512
typedef struct elem_chunk {
  struct elem_chunk *next;
  awk_elem e[ELEM_CHUNK];
} elem_chunk;

/* key: kept for str elements; integer elements (cint, int) need none */
static awk_elem *elem_new(awk_interp *in, awk_str *key) {
  /* the element and about two table slots */
  awk_mem_charge(in, sizeof(awk_elem) + 2 * sizeof(void *));
  if (!in->elem_free_list) {
    elem_chunk *c = xcalloc(in, 1, sizeof *c);
    c->next = in->elem_chunks;
    in->elem_chunks = c;
    for (int i = ELEM_CHUNK - 1; i >= 0; i--) {
      c->e[i].next = in->elem_free_list;
      in->elem_free_list = &c->e[i];
    }
  }
  awk_elem *e = in->elem_free_list;
  in->elem_free_list = e->next;
  memset(e, 0, sizeof *e);
  e->key = key ? awk_str_ref(key) : NULL;
  return e;
}

void awk_elems_free_all(awk_interp *in) {
  while (in->elem_chunks) {
    elem_chunk *c = in->elem_chunks;
    in->elem_chunks = c->next;
    free(c);
  }
  in->elem_free_list = NULL;
}

static void cell_clear(awk_interp *in, awk_cell *c) {
  if (c->kind == AWK_CELL_VAL) awk_val_free(in, &c->v);
  if (c->kind == AWK_CELL_ARR && c->arr) awk_arr_free(in, c->arr);
  c->kind = AWK_CELL_NONE;
}

static void elem_free(awk_interp *in, awk_elem *e) {
  if (in->teardown) { /* strings die with the live list, elements with their chunks */
    if (e->cell.kind == AWK_CELL_ARR && e->cell.arr) awk_arr_free(in, e->cell.arr);
    return;
  }
  cell_clear(in, &e->cell);
  awk_str_unref(in, e->key);
  awk_mem_release(in, sizeof(awk_elem) + 2 * sizeof(void *));
  e->next = in->elem_free_list;
  in->elem_free_list = e;
}

/* ---- the array object ------------------------------------------------------------ */

static awk_arr *arr_alloc(awk_interp *in) { return xcalloc(in, 1, sizeof(awk_arr)); }

awk_arr *awk_arr_new(awk_interp *in) {
  awk_arr *a = arr_alloc(in);
  a->listed = true;
  a->lnext = (awk_arr *)in->arrays;
  if (a->lnext) a->lnext->lprev = a;
  in->arrays = (void *)a;
  return a;
}

/* Frees the contents, leaving a NULL-kind array (x freed too). */
static void arr_reset(awk_interp *in, awk_arr *a) {
  if (a->x) {
    arr_reset(in, a->x);
    free(a->x);
    a->x = NULL;
  }
  if (a->sb) {
    for (size_t i = 0; i < a->ssize; i++) {
      awk_elem *e = a->sb[i];
      while (e) {
        awk_elem *n = e->next;
        elem_free(in, e);
        e = n;
      }
    }
    free(a->sb);
  }
  if (a->ib) {
    for (size_t i = 0; i < a->isize; i++) {
      int_node *b = a->ib[i];
      while (b) {
        int_node *n = b->next;
        for (int j = 0; j < b->count; j++) elem_free(in, b->e[j]);
        free(b);
        b = n;
      }
    }
    free(a->ib);
  }
  for (size_t i = 0; i < a->elems.cap; i++)
    if (slot_live(&a->elems.slots[i])) elem_free(in, a->elems.slots[i].e);
  cmap_free(&a->elems);
  cmap_free(&a->leaves);
  a->sb = NULL;
  a->ib = NULL;
  a->ssize = a->isize = 0;
  a->capacity = 0;
  a->table_size = 0;
  a->maxed = false;
  a->kind = AK_NULL;
}

void awk_arr_clear(awk_interp *in, awk_arr *a) { arr_reset(in, a); }

void awk_arr_free(awk_interp *in, awk_arr *a) {
  if (!a) return;
  arr_reset(in, a);
  if (a->listed) {
    if (a->lprev) a->lprev->lnext = a->lnext;
    else in->arrays = (void *)a->lnext;
    if (a->lnext) a->lnext->lprev = a->lprev;
  }
  free(a);
}

size_t awk_arr_len(const awk_arr *a) { return a->table_size; }

/* Moves x's contents into a (gawk's "promote xn to symbol"). */
static void promote(awk_arr *a) {
  awk_arr *x = a->x;
  awk_arr keep = *a;
  *a = *x;
  a->lprev = keep.lprev;
  a->lnext = keep.lnext;
  a->listed = keep.listed;
  /* the old own structures are empty by now */
  free(keep.sb);
  free(keep.ib);
  cmap_free(&keep.elems);
  cmap_free(&keep.leaves);
  free(x);
}

/* ---- str part ---------------------------------------------------------------------- */

/* The table size after `size` (the next of prime_sizes), or `size` itself,
 * with a->maxed set, when it is the largest: the table then stops growing. */
static size_t next_prime_size(awk_arr *a, size_t size) {
  for (size_t i = 0; i < sizeof prime_sizes / sizeof prime_sizes[0]; i++)
    if (size < prime_sizes[i]) return prime_sizes[i];
  a->maxed = true;
  return size;
}

static void str_grow(awk_interp *in, awk_arr *a) {
  size_t oldsize = a->ssize, newsize = next_prime_size(a, oldsize);
  if (newsize == oldsize) return;
  awk_elem **nb = xcalloc(in, newsize, sizeof *nb);
  awk_elem **old = a->sb;
  a->sb = nb;
  a->ssize = newsize;
  if (!old) {
    a->table_size = 0;
    return;
  }
  for (size_t k = 0; k < oldsize; k++) {
    awk_elem *e = old[k], *next;
    for (; e; e = next) {
      next = e->next;
      size_t h = e->code % newsize;
      e->next = nb[h];
      nb[h] = e;
    }
  }
  free(old);
}

static awk_elem *str_find(awk_arr *a, awk_str *key, unsigned long code) {
  if (!a->sb) return NULL;
  for (awk_elem *e = a->sb[code % a->ssize]; e; e = e->next)
    if (e->code == code && e->key->len == key->len &&
        (key->len == 0 || memcmp(e->key->p, key->p, key->len) == 0))
      return e;
  return NULL;
}

static awk_elem *str_insert(awk_interp *in, awk_arr *a, awk_str *key, unsigned long code) {
  if (!a->sb) str_grow(in, a);
  a->table_size++;
  if (!a->maxed && a->table_size / a->ssize > STR_CHAIN_MAX) str_grow(in, a);
  awk_elem *e = elem_new(in, key);
  e->code = code;
  size_t h = code % a->ssize;
  e->next = a->sb[h];
  a->sb[h] = e;
  return e;
}

static bool str_remove(awk_interp *in, awk_arr *a, awk_str *key, unsigned long code) {
  if (!a->table_size || !a->sb) return false;
  size_t h = code % a->ssize;
  for (awk_elem *e = a->sb[h], *prev = NULL; e; prev = e, e = e->next) {
    if (e->key->len == key->len && (key->len == 0 || memcmp(e->key->p, key->p, key->len) == 0)) {
      if (prev) prev->next = e->next;
      else a->sb[h] = e->next;
      elem_free(in, e);
      if (--a->table_size == 0) arr_reset(in, a);
      return true;
    }
  }
  return false;
}

/* ---- int part ----------------------------------------------------------------------- */

static void int_insert_raw(awk_interp *in, awk_arr *a, int32_t k, awk_elem *e) {
  uint32_t h = int_hash((uint32_t)k, (uint32_t)a->isize);
  int_node *b = a->ib[h];
  int i;
  if (!b || (i = b->count) == 2) {
    b = xcalloc(in, 1, sizeof *b);
    b->next = a->ib[h];
    a->ib[h] = b;
    i = 0;
  }
  b->num[i] = k;
  b->e[i] = e;
  b->count++;
}

static void int_grow(awk_interp *in, awk_arr *a) {
  size_t oldsize = a->isize, newsize = next_prime_size(a, oldsize);
  if (newsize == oldsize) return;
  int_node **old = a->ib;
  a->ib = xcalloc(in, newsize, sizeof *a->ib);
  a->isize = newsize;
  if (!old) return;
  for (size_t k = 0; k < oldsize; k++) {
    int_node *b = old[k], *next;
    for (; b; b = next) {
      for (int i = 0; i < b->count; i++) int_insert_raw(in, a, b->num[i], b->e[i]);
      next = b->next;
      free(b);
    }
  }
  free(old);
}

static awk_elem *int_find(awk_arr *a, int32_t k) {
  if (!a->ib) return NULL;
  uint32_t h = int_hash((uint32_t)k, (uint32_t)a->isize);
  for (int_node *b = a->ib[h]; b; b = b->next)
    for (int i = 0; i < b->count; i++)
      if (b->num[i] == k) return b->e[i];
  return NULL;
}

static bool int_remove_own(awk_interp *in, awk_arr *a, int32_t k) {
  if (!a->ib) return false;
  uint32_t h = int_hash((uint32_t)k, (uint32_t)a->isize);
  int_node *b, *prev = NULL;
  awk_elem *victim = NULL;
  for (b = a->ib[h]; b; prev = b, b = b->next) {
    for (int i = 0; i < b->count; i++) {
      if (b->num[i] != k) continue;
      victim = b->e[i];
      if (i == 0 && b->count == 2) {
        b->num[0] = b->num[1];
        b->e[0] = b->e[1];
      }
      goto removed;
    }
  }
  return false;
removed:
  b->count--;
  if (b->count == 0) {
    if (prev) prev->next = b->next;
    else a->ib[h] = b->next;
    free(b);
  } else if (b != a->ib[h]) {
    int_node *head = a->ib[h];
    int i = --head->count;
    b->num[1] = head->num[i];
    b->e[1] = head->e[i];
    b->count++;
    if (i == 0) {
      a->ib[h] = head->next;
      free(head);
    }
  }
  elem_free(in, victim);
  return true;
}

/* ---- generic lookup/insert/remove --------------------------------------------------- */

static awk_elem *arr_find(awk_arr *a, awk_str *key, bool isint, int32_t k, unsigned long code) {
  awk_elem *e = NULL;
  switch (a->kind) {
  case AK_NULL:
    return NULL;
  case AK_CINT:
    if (isint && k >= 0) {
      cint_slot *s = cmap_find(&a->elems, k);
      if (s) return s->e;
    }
    break;
  case AK_INT:
    if (isint) {
      e = int_find(a, k);
      if (e) return e;
      return NULL; /* integers never go to the extra array of an int array */
    }
    break;
  case AK_STR:
    return str_find(a, key, code);
  }
  return a->x ? arr_find(a->x, key, isint, k, code) : NULL;
}

static awk_elem *arr_insert(awk_interp *in, awk_arr *a, awk_str *key, bool isint, int32_t k,
                            unsigned long code);

static awk_elem *x_insert(awk_interp *in, awk_arr *a, awk_str *key, bool isint, int32_t k,
                          unsigned long code, int kind) {
  a->table_size++;
  if (!a->x) {
    a->x = arr_alloc(in);
    a->x->kind = kind;
  }
  return arr_insert(in, a->x, key, isint, k, code);
}

static awk_elem *arr_insert(awk_interp *in, awk_arr *a, awk_str *key, bool isint, int32_t k,
                            unsigned long code) {
  if (a->kind == AK_NULL) a->kind = isint ? (k >= 0 ? AK_CINT : AK_INT) : AK_STR;
  switch (a->kind) {
  case AK_CINT: {
    if (!isint || k < 0) return x_insert(in, a, key, isint, k, code, isint ? AK_INT : AK_STR);
    size_t cint_size = a->table_size - (a->x ? a->x->table_size : 0);
    int64_t capacity = (int64_t)a->capacity + capacity_estimate(k);
    if (capacity - (int64_t)cint_size > THRESHOLD)
      return x_insert(in, a, key, isint, k, code, AK_INT);
    a->table_size++;
    int64_t base, size;
    leaf_of(k, &base, &size);
    cint_slot *leaf = cmap_find(&a->leaves, base);
    if (!leaf) {
      leaf = cmap_insert(in, &a->leaves, base, (void *)1);
      leaf->size = (size_t)size;
      a->capacity += (size_t)size;
    }
    leaf->count++;
    awk_elem *e = elem_new(in, NULL);
    e->ikey = k;
    a->elems.seq = true;
    cmap_insert(in, &a->elems, k, e);
    return e;
  }
  case AK_INT: {
    if (!isint) {
      if (a->x) {
        /* not present (arr_find checked) */
      }
      return x_insert(in, a, key, isint, k, code, AK_STR);
    }
    if (!a->ib) int_grow(in, a);
    a->table_size++;
    size_t size = a->table_size - (a->x ? a->x->table_size : 0);
    if (!a->maxed && size / a->isize > INT_CHAIN_MAX) int_grow(in, a);
    awk_elem *e = elem_new(in, NULL);
    e->ikey = k;
    int_insert_raw(in, a, k, e);
    return e;
  }
  default:
    return str_insert(in, a, key, code);
  }
}

static bool arr_remove(awk_interp *in, awk_arr *a, awk_str *key, bool isint, int32_t k,
                       unsigned long code) {
  switch (a->kind) {
  case AK_NULL:
    return false;
  case AK_STR:
    return str_remove(in, a, key, code);
  case AK_CINT:
    if (isint && k >= 0) {
      cint_slot *s = cmap_find(&a->elems, k);
      if (s) {
        awk_elem *e = s->e;
        cmap_remove(&a->elems, s);
        elem_free(in, e);
        int64_t base, size;
        leaf_of(k, &base, &size);
        cint_slot *leaf = cmap_find(&a->leaves, base);
        if (leaf && --leaf->count == 0) {
          a->capacity -= leaf->size;
          cmap_remove(&a->leaves, leaf);
        }
        a->table_size--;
        if (!a->x && a->table_size == 0) arr_reset(in, a);
        else if (a->x && a->table_size == a->x->table_size) promote(a);
        return true;
      }
    }
    break;
  case AK_INT:
    if (isint) {
      if (!a->table_size || !int_remove_own(in, a, k)) return false;
      a->table_size--;
      if (!a->x && a->table_size == 0) arr_reset(in, a);
      else if (a->x && a->table_size == a->x->table_size) promote(a);
      return true;
    }
    break;
  }
  /* the extra array */
  if (!a->x || !arr_remove(in, a->x, key, isint, k, code)) return false;
  if (a->x->table_size == 0) {
    arr_reset(in, a->x);
    free(a->x);
    a->x = NULL;
  }
  a->table_size--;
  return true;
}

awk_cell *awk_arr_get(awk_interp *in, awk_arr *a, awk_str *key, bool create) {
  int32_t k = 0;
  bool isint = key_int(key, &k);
  /* a str array (or a str extra array) holds integers by their string hash too */
  unsigned long code = str_hash(key->p, key->len);
  awk_elem *e = arr_find(a, key, isint, k, code);
  if (e) return &e->cell;
  if (!create) return NULL;
  e = arr_insert(in, a, key, isint, k, code);
  return &e->cell;
}

bool awk_arr_delete(awk_interp *in, awk_arr *a, awk_str *key) {
  int32_t k = 0;
  bool isint = key_int(key, &k);
  unsigned long code = str_hash(key->p, key->len);
  bool r = arr_remove(in, a, key, isint, k, code);
  if (a->table_size == 0 && a->kind != AK_NULL) arr_reset(in, a);
  return r;
}

void awk_arr_set(awk_interp *in, awk_arr *a, const char *key, size_t klen, awk_val v) {
  awk_str *k = awk_str_new(in, key, klen);
  awk_cell *c = awk_arr_get(in, a, k, true);
  awk_str_unref(in, k);
  if (c->kind == AWK_CELL_VAL) awk_val_free(in, &c->v);
  c->kind = AWK_CELL_VAL;
  c->v = v;
}

/* ---- listing ---------------------------------------------------------------------- */

typedef struct lister {
  awk_val *out;  /* destination */
  size_t n;      /* filled */
} lister;

static int cmp_elem_ikey(const void *x, const void *y) {
  const awk_elem *a = *(awk_elem *const *)x, *b = *(awk_elem *const *)y;
  return a->ikey < b->ikey ? -1 : a->ikey > b->ikey;
}

static void list_arr(awk_interp *in, awk_arr *a, lister *l) {
  switch (a->kind) {
  case AK_NULL:
    return;
  case AK_STR:
    for (size_t i = 0; i < a->ssize; i++)
      for (awk_elem *e = a->sb[i]; e; e = e->next) l->out[l->n++] = awk_strv(awk_str_ref(e->key));
    return;
  case AK_INT:
    if (a->x) list_arr(in, a->x, l);
    for (size_t i = 0; i < a->isize; i++)
      for (int_node *b = a->ib[i]; b; b = b->next)
        for (int j = 0; j < b->count; j++) l->out[l->n++] = awk_num(b->num[j]);
    return;
  case AK_CINT: {
    if (a->x) list_arr(in, a->x, l);
    size_t n = a->elems.n, m = 0;
    if (!n) return;
    awk_elem **v = malloc(n * sizeof *v);
    if (!v) awk_fatal(in, "out of memory");
    for (size_t i = 0; i < a->elems.cap; i++)
      if (slot_live(&a->elems.slots[i])) v[m++] = a->elems.slots[i].e;
    qsort(v, m, sizeof *v, cmp_elem_ikey);
    for (size_t i = 0; i < m; i++) l->out[l->n++] = awk_num(v[i]->ikey);
    free(v);
    return;
  }
  }
}

awk_str *awk_arr_keys(awk_interp *in, awk_arr *a, size_t *n) {
  size_t cnt = a->table_size;
  _Static_assert(offsetof(awk_str, p) % 8 == 0, "blob alignment");
  if (cnt > in->ctx->max_string / sizeof(awk_val)) awk_fatal(in, "array too large to list");
  awk_str *blob = awk_str_alloc(in, (cnt ? cnt : 1) * sizeof(awk_val));
  lister l = {(awk_val *)(void *)blob->p, 0};
  list_arr(in, a, &l);
  *n = l.n;
  return blob;
}

void awk_keys_free(awk_interp *in, awk_str *blob, size_t n) {
  awk_val *v = (awk_val *)(void *)blob->p;
  for (size_t i = 0; i < n; i++) awk_val_free(in, &v[i]);
  awk_str_unref(in, blob);
}
