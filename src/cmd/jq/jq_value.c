/*
 * jq_value.c - JSON values for sbx's jq engine (see jq_value.h): strings,
 * arrays and objects as counted heap blocks, copy-on-write, iterative free,
 * jq's total order, and contains.
 *
 * Objects keep their entries in insertion order in one array; lookups scan
 * it while it is small and use an open-addressing index of entry numbers
 * (built lazily, dropped on delete) once it has JQV_OBJ_INDEX entries.
 */
#include "cmd/jq/jq_value.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Thread_local size_t jqv_mem_used;
_Thread_local bool jqv_too_deep;
_Thread_local size_t jqv_text_limit;

enum { H_STRING, H_ARRAY, H_OBJECT, H_BOX, H_NUMLIT };

typedef struct jqv_heap {
  int refcnt; /* references */
  int type;   /* H_* */
} jqv_heap;

typedef struct {
  jqv_heap h;
  uint32_t hash; /* 0 = not computed */
  size_t len;    /* bytes */
  size_t cap;    /* bytes allocated for data (with the NUL) */
  char data[];   /* NUL-terminated */
} h_string;

typedef struct {
  jqv_heap h;
  size_t len, cap; /* elements used / allocated */
  jqv *items;      /* the elements */
} h_array;

typedef struct {
  jqv key, val; /* key is a string */
} obj_entry;

#define JQV_OBJ_INDEX 8
#define JQV_OBJ_INLINE 4 /* entries a small object keeps in its own block */

typedef struct {
  jqv_heap h;
  size_t len, cap;  /* entries used / allocated */
  obj_entry *items; /* the entries, in insertion order (inl, or a block of their own) */
  uint32_t *index;  /* open addressing, entry number + 1 (0 = empty), or NULL */
  size_t index_cap; /* slots (a power of two) */
  size_t inl_cap;   /* entries of inl (0 or JQV_OBJ_INLINE) */
  obj_entry inl[];  /* a small object's entries: one allocation, not two */
} h_object;

typedef struct {
  jqv_heap h;
  jqv v; /* an invalid's message */
} h_box;

_Thread_local jmp_buf *jqv_oom_jmp;
int jqv_test_fail_after;

/* The test hook's failure. */
static bool test_fail(void) {
  return jqv_test_fail_after > 0 && --jqv_test_fail_after == 0;
}

static void *xmalloc(size_t n) {
  void *p = test_fail() ? NULL : malloc(n);
  if (p) jqv_mem_used += n;
  return p;
}
static void xfree(void *p, size_t n) {
  if (!p) return;
  jqv_mem_used -= n < jqv_mem_used ? n : jqv_mem_used;
  free(p);
}
static void *xrealloc(void *p, size_t old, size_t n) {
  void *q = test_fail() ? NULL : realloc(p, n);
  if (q) {
    jqv_mem_used -= old < jqv_mem_used ? old : jqv_mem_used;
    jqv_mem_used += n;
  }
  return q;
}
static _Noreturn void oom(void) {
  /* Out of memory inside a value operation: nothing sane to return, and the
   * engine must not abort the host; the budget check stops programs long
   * before malloc fails, so this is a last resort (see jqv_oom_jmp). */
  if (jqv_oom_jmp) longjmp(*jqv_oom_jmp, 1);
  fputs("sbx jq: out of memory\n", stderr);
  _Exit(70);
}

jqv jqv_null(void) { return (jqv){JQV_KIND_NULL, 0, 0, NULL}; }
jqv jqv_true(void) { return (jqv){JQV_KIND_TRUE, 0, 0, NULL}; }
jqv jqv_false(void) { return (jqv){JQV_KIND_FALSE, 0, 0, NULL}; }
jqv jqv_bool(bool b) { return b ? jqv_true() : jqv_false(); }
jqv jqv_number(double d) { return (jqv){JQV_KIND_NUMBER, 0, d, NULL}; }
jqv jqv_invalid(void) { return (jqv){JQV_KIND_INVALID, 0, 0, NULL}; }

jqv jqv_invalid_with_msg(jqv msg) {
  h_box *b = xmalloc(sizeof *b);
  if (!b) oom();
  b->h.refcnt = 1;
  b->h.type = H_BOX;
  b->v = msg;
  return (jqv){JQV_KIND_INVALID, 0, 0, &b->h};
}
bool jqv_invalid_has_msg(jqv v) {
  bool r = v.kind == JQV_KIND_INVALID && v.h;
  jqv_free(v);
  return r;
}
jqv jqv_invalid_get_msg(jqv v) {
  jqv r = v.kind == JQV_KIND_INVALID && v.h ? jqv_copy(((h_box *)v.h)->v) : jqv_null();
  jqv_free(v);
  return r;
}
jqv_kind jqv_get_kind(const jqv v) { return (jqv_kind)v.kind; }
const char *jqv_kind_name(jqv_kind k) {
  static const char *const names[] = {"<invalid>", "null",   "boolean", "boolean",
                                      "number",    "string", "array",   "object"};
  return names[k];
}
jqv jqv_copy(jqv v) {
  if (v.h && v.kind != JQV_KIND_NUMBER) v.h->refcnt++;
  return v;
}
int jqv_refcnt(const jqv v) { return v.h && v.kind != JQV_KIND_NUMBER ? v.h->refcnt : 1; }

bool jqv_is_integer(const jqv v) {
  return v.kind == JQV_KIND_NUMBER && isfinite(v.num) && v.num == floor(v.num);
}

/* The blocks jqv_free still has to free: in its frame, on the heap when a
 * value holds more than 64 children whose counts reach zero at once. */
typedef struct {
  jqv_heap **items;
  size_t n, cap;
  jqv_heap *small[64];
} free_stack;

/* Drops one reference to c (a child); a block whose count reaches zero is pushed. */
static void free_push(free_stack *st, jqv_heap *c) {
  if (!c || --c->refcnt > 0) return;
  if (st->n == st->cap) {
    jqv_heap **ns = malloc(st->cap * 2 * sizeof *ns);
    if (!ns) oom();
    memcpy(ns, st->items, st->n * sizeof *ns);
    if (st->items != st->small) free(st->items);
    st->items = ns;
    st->cap *= 2;
  }
  st->items[st->n++] = c;
}

static jqv_heap *child_heap(const jqv *v) { return v->kind == JQV_KIND_NUMBER ? NULL : v->h; }

/* Frees one heap block whose count reached zero; children whose counts
 * reach zero go on an explicit stack, so deep values free in constant C
 * stack. */
void jqv_free(jqv v) {
  if (!v.h || v.kind == JQV_KIND_NUMBER || --v.h->refcnt > 0) return;
  free_stack st;
  st.items = st.small;
  st.n = 0;
  st.cap = sizeof st.small / sizeof st.small[0];
  jqv_heap *cur = v.h;
  for (;;) {
    switch (cur->type) {
    case H_STRING: xfree(cur, sizeof(h_string) + ((h_string *)cur)->cap); break;
    case H_BOX: {
      jqv m = ((h_box *)cur)->v;
      xfree(cur, sizeof(h_box));
      free_push(&st, child_heap(&m));
      break;
    }
    case H_ARRAY: {
      h_array *a = (h_array *)cur;
      for (size_t i = 0; i < a->len; i++) free_push(&st, child_heap(&a->items[i]));
      xfree(a->items, a->cap * sizeof(jqv));
      xfree(a, sizeof *a);
      break;
    }
    case H_OBJECT: {
      h_object *o = (h_object *)cur;
      for (size_t i = 0; i < o->len; i++) {
        free_push(&st, o->items[i].key.h);
        free_push(&st, child_heap(&o->items[i].val));
      }
      if (o->items != o->inl) xfree(o->items, o->cap * sizeof(obj_entry));
      xfree(o->index, o->index_cap * sizeof(uint32_t));
      xfree(o, sizeof *o + o->inl_cap * sizeof(obj_entry));
      break;
    }
    }
    if (st.n == 0) break;
    cur = st.items[--st.n];
  }
  if (st.items != st.small) free(st.items);
}

/* ---- strings ------------------------------------------------------------------ */

static h_string *str_alloc(size_t len) {
  size_t cap = len + 1;
  h_string *s = xmalloc(sizeof *s + cap);
  if (!s) oom();
  s->h.refcnt = 1;
  s->h.type = H_STRING;
  s->hash = 0;
  s->len = len;
  s->cap = cap;
  s->data[len] = '\0';
  return s;
}

jqv jqv_string_raw(const char *p, size_t n) {
  h_string *s = str_alloc(n);
  if (n) memcpy(s->data, p, n);
  return (jqv){JQV_KIND_STRING, 0, 0, &s->h};
}

/* Length of the valid UTF-8 sequence at p (1..4), or 0 when invalid. */
static int utf8_valid_len(const unsigned char *p, size_t n) {
  unsigned c = p[0];
  if (c < 0x80) return 1;
  int len;
  unsigned cp;
  if (c >= 0xc2 && c <= 0xdf) len = 2, cp = c & 0x1f;
  else if (c >= 0xe0 && c <= 0xef) len = 3, cp = c & 0x0f;
  else if (c >= 0xf0 && c <= 0xf4) len = 4, cp = c & 0x07;
  else return 0;
  if ((size_t)len > n) return 0;
  for (int i = 1; i < len; i++) {
    if ((p[i] & 0xc0) != 0x80) return 0;
    cp = (cp << 6) | (p[i] & 0x3f);
  }
  if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
    return 0;
  return len;
}

jqv jqv_string_sized(const char *p, size_t n) {
  const unsigned char *u = (const unsigned char *)p;
  size_t i = 0;
  while (i < n) {
    if (u[i] < 0x80) {
      i++;
      continue;
    }
    int l = utf8_valid_len(u + i, n - i);
    if (!l) break;
    i += (size_t)l;
  }
  if (i == n) return jqv_string_raw(p, n);
  jqv_buf b = {0};
  jqv_buf_add(&b, p, i);
  while (i < n) {
    int l = u[i] < 0x80 ? 1 : utf8_valid_len(u + i, n - i);
    if (!l) {
      /* one U+FFFD for a bad lead byte and the continuation bytes after it */
      jqv_buf_adds(&b, "\xef\xbf\xbd");
      int want = u[i] >= 0xf0 ? 4 : u[i] >= 0xe0 ? 3 : u[i] >= 0xc0 ? 2 : 1;
      i++;
      for (int k = 1; k < want && i < n && (u[i] & 0xc0) == 0x80; k++) i++;
    } else {
      jqv_buf_add(&b, p + i, (size_t)l);
      i += (size_t)l;
    }
  }
  jqv r = jqv_string_raw(b.data ? b.data : "", b.len);
  jqv_buf_free(&b);
  return r;
}

jqv jqv_string(const char *s) { return jqv_string_sized(s, strlen(s)); }

jqv jqv_string_fmt(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char small[256];
  int n = vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  if (n < 0) return jqv_string("");
  if ((size_t)n < sizeof small) return jqv_string_sized(small, (size_t)n);
  char *big = malloc((size_t)n + 1);
  if (!big) oom();
  va_start(ap, fmt);
  vsnprintf(big, (size_t)n + 1, fmt, ap);
  va_end(ap);
  jqv r = jqv_string_sized(big, (size_t)n);
  free(big);
  return r;
}

const char *jqv_string_value(const jqv v) { return ((h_string *)v.h)->data; }
size_t jqv_string_len(const jqv v) { return ((h_string *)v.h)->len; }
size_t jqv_string_length_bytes(jqv v) {
  size_t n = jqv_string_len(v);
  jqv_free(v);
  return n;
}
size_t jqv_string_length_codepoints(jqv v) {
  const unsigned char *s = (const unsigned char *)jqv_string_value(v);
  size_t n = jqv_string_len(v), c = 0;
  for (size_t i = 0; i < n; i++)
    if ((s[i] & 0xc0) != 0x80) c++;
  jqv_free(v);
  return c;
}

jqv jqv_string_append_buf(jqv a, const char *p, size_t n) {
  h_string *s = (h_string *)a.h;
  if (n == 0) return a;
  if (s->h.refcnt == 1 && s->len + n + 1 <= s->cap) {
    memcpy(s->data + s->len, p, n);
    s->len += n;
    s->data[s->len] = '\0';
    s->hash = 0;
    return a;
  }
  if (s->h.refcnt == 1) {
    size_t cap = (s->len + n + 1) * 2;
    h_string *ns = xrealloc(s, sizeof *s + s->cap, sizeof *s + cap);
    if (!ns) oom();
    ns->cap = cap;
    memcpy(ns->data + ns->len, p, n);
    ns->len += n;
    ns->data[ns->len] = '\0';
    ns->hash = 0;
    return (jqv){JQV_KIND_STRING, 0, 0, &ns->h};
  }
  h_string *ns = str_alloc(s->len + n);
  memcpy(ns->data, s->data, s->len);
  memcpy(ns->data + s->len, p, n);
  jqv_free(a);
  return (jqv){JQV_KIND_STRING, 0, 0, &ns->h};
}

jqv jqv_string_concat(jqv a, jqv b) {
  a = jqv_string_append_buf(a, jqv_string_value(b), jqv_string_len(b));
  jqv_free(b);
  return a;
}

uint32_t jqv_string_hash(const jqv v) {
  h_string *s = (h_string *)v.h;
  if (s->hash) return s->hash;
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < s->len; i++) h = (h ^ (unsigned char)s->data[i]) * 16777619u;
  if (!h) h = 1;
  s->hash = h;
  return h;
}

jqv jqv_string_from_codepoint(int c) {
  char b[4];
  int n;
  if (c < 0 || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff)) c = 0xfffd;
  if (c < 0x80) b[0] = (char)c, n = 1;
  else if (c < 0x800) b[0] = (char)(0xc0 | (c >> 6)), b[1] = (char)(0x80 | (c & 0x3f)), n = 2;
  else if (c < 0x10000)
    b[0] = (char)(0xe0 | (c >> 12)), b[1] = (char)(0x80 | ((c >> 6) & 0x3f)), b[2] = (char)(0x80 | (c & 0x3f)), n = 3;
  else
    b[0] = (char)(0xf0 | (c >> 18)), b[1] = (char)(0x80 | ((c >> 12) & 0x3f)),
    b[2] = (char)(0x80 | ((c >> 6) & 0x3f)), b[3] = (char)(0x80 | (c & 0x3f)), n = 4;
  return jqv_string_raw(b, (size_t)n);
}

/* ---- arrays ------------------------------------------------------------------- */

static h_array *arr_alloc(size_t cap) {
  h_array *a = xmalloc(sizeof *a);
  if (!a) oom();
  a->h.refcnt = 1;
  a->h.type = H_ARRAY;
  a->len = 0;
  a->cap = cap;
  a->items = cap ? xmalloc(cap * sizeof(jqv)) : NULL;
  if (cap && !a->items) oom();
  return a;
}
jqv jqv_array(void) { return (jqv){JQV_KIND_ARRAY, 0, 0, &arr_alloc(0)->h}; }
jqv jqv_array_sized(size_t n) { return (jqv){JQV_KIND_ARRAY, 0, 0, &arr_alloc(n)->h}; }
size_t jqv_array_len(const jqv a) { return ((h_array *)a.h)->len; }
size_t jqv_array_length(jqv a) {
  size_t n = jqv_array_len(a);
  jqv_free(a);
  return n;
}
const jqv *jqv_array_at(const jqv a, size_t i) { return &((h_array *)a.h)->items[i]; }
jqv jqv_array_get(jqv a, long i) {
  h_array *h = (h_array *)a.h;
  if (i < 0) i += (long)h->len;
  jqv r = i >= 0 && (size_t)i < h->len ? jqv_copy(h->items[i]) : jqv_invalid();
  jqv_free(a);
  return r;
}

/* An unshared array with room for `need` elements. */
static h_array *arr_own(jqv *a, size_t need) {
  h_array *h = (h_array *)a->h;
  if (h->h.refcnt > 1) {
    h_array *n = arr_alloc(need > h->len ? need : h->len);
    for (size_t i = 0; i < h->len; i++) n->items[i] = jqv_copy(h->items[i]);
    n->len = h->len;
    jqv_free(*a);
    a->h = &n->h;
    h = n;
  }
  if (need > h->cap) {
    size_t cap = h->cap * 2 > need ? h->cap * 2 : need;
    if (cap < 4) cap = 4;
    jqv *ni = xrealloc(h->items, h->cap * sizeof(jqv), cap * sizeof(jqv));
    if (!ni) oom();
    h->items = ni;
    h->cap = cap;
  }
  return h;
}

jqv jqv_array_set(jqv a, long i, jqv v) {
  size_t len = jqv_array_len(a);
  if (i < 0) i += (long)len;
  if (i < 0) {
    jqv_free(a);
    jqv_free(v);
    return jqv_invalid_with_msg(jqv_string("Out of bounds negative array index"));
  }
  h_array *h = arr_own(&a, (size_t)i + 1 > len ? (size_t)i + 1 : len);
  while (h->len <= (size_t)i) h->items[h->len++] = jqv_null();
  jqv_free(h->items[i]);
  h->items[i] = v;
  return a;
}
jqv jqv_array_append(jqv a, jqv v) {
  h_array *h = arr_own(&a, jqv_array_len(a) + 1);
  h->items[h->len++] = v;
  return a;
}
jqv jqv_array_concat(jqv a, jqv b) {
  size_t nb = jqv_array_len(b);
  h_array *h = arr_own(&a, jqv_array_len(a) + nb);
  for (size_t i = 0; i < nb; i++) h->items[h->len++] = jqv_copy(*jqv_array_at(b, i));
  jqv_free(b);
  return a;
}
jqv jqv_array_slice(jqv a, size_t start, size_t end) {
  size_t len = jqv_array_len(a);
  if (end > len) end = len;
  if (start > end) start = end;
  if (start == 0 && end == len) return a;
  h_array *n = arr_alloc(end - start);
  for (size_t i = start; i < end; i++) n->items[n->len++] = jqv_copy(*jqv_array_at(a, i));
  jqv_free(a);
  return (jqv){JQV_KIND_ARRAY, 0, 0, &n->h};
}

/* ---- objects ------------------------------------------------------------------ */

static h_object *obj_alloc(size_t cap) {
  size_t inl = cap <= JQV_OBJ_INLINE ? JQV_OBJ_INLINE : 0;
  h_object *o = xmalloc(sizeof *o + inl * sizeof(obj_entry));
  if (!o) oom();
  o->h.refcnt = 1;
  o->h.type = H_OBJECT;
  o->len = 0;
  o->inl_cap = inl;
  o->cap = inl ? inl : cap;
  o->items = inl ? o->inl : xmalloc(cap * sizeof(obj_entry));
  if (!o->items) oom();
  o->index = NULL;
  o->index_cap = 0;
  return o;
}
jqv jqv_object(void) { return (jqv){JQV_KIND_OBJECT, 0, 0, &obj_alloc(0)->h}; }
size_t jqv_object_len(const jqv o) { return ((h_object *)o.h)->len; }
size_t jqv_object_length(jqv o) {
  size_t n = jqv_object_len(o);
  jqv_free(o);
  return n;
}
const jqv *jqv_object_key_at(const jqv o, size_t i) { return &((h_object *)o.h)->items[i].key; }
const jqv *jqv_object_value_at(const jqv o, size_t i) { return &((h_object *)o.h)->items[i].val; }

static uint32_t hash_bytes(const char *p, size_t n) {
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)p[i]) * 16777619u;
  return h ? h : 1;
}

static void obj_index_build(h_object *o) {
  xfree(o->index, o->index_cap * sizeof(uint32_t));
  size_t cap = 16;
  while (cap < o->len * 2 + 2) cap *= 2;
  o->index = xmalloc(cap * sizeof(uint32_t));
  if (!o->index) oom();
  memset(o->index, 0, cap * sizeof(uint32_t));
  o->index_cap = cap;
  for (size_t i = 0; i < o->len; i++) {
    size_t slot = jqv_string_hash(o->items[i].key) & (cap - 1);
    while (o->index[slot]) slot = (slot + 1) & (cap - 1);
    o->index[slot] = (uint32_t)i + 1;
  }
}

/* Entry number of key (bytes), or -1. */
static long obj_find(h_object *o, const char *k, size_t kl) {
  if (o->len >= JQV_OBJ_INDEX) {
    if (!o->index) obj_index_build(o);
    uint32_t hv = hash_bytes(k, kl);
    size_t slot = hv & (o->index_cap - 1);
    while (o->index[slot]) {
      obj_entry *e = &o->items[o->index[slot] - 1];
      if (jqv_string_len(e->key) == kl && memcmp(jqv_string_value(e->key), k, kl) == 0)
        return (long)o->index[slot] - 1;
      slot = (slot + 1) & (o->index_cap - 1);
    }
    return -1;
  }
  for (size_t i = 0; i < o->len; i++) {
    if (jqv_string_len(o->items[i].key) == kl && memcmp(jqv_string_value(o->items[i].key), k, kl) == 0)
      return (long)i;
  }
  return -1;
}

const jqv *jqv_object_find(const jqv o, const char *key, size_t klen) {
  h_object *h = (h_object *)o.h;
  long i = obj_find(h, key, klen);
  return i < 0 ? NULL : &h->items[i].val;
}

jqv jqv_object_get(jqv o, jqv key) {
  const jqv *v = jqv_object_find(o, jqv_string_value(key), jqv_string_len(key));
  jqv r = v ? jqv_copy(*v) : jqv_invalid();
  jqv_free(o);
  jqv_free(key);
  return r;
}
bool jqv_object_has(jqv o, jqv key) {
  bool r = jqv_object_find(o, jqv_string_value(key), jqv_string_len(key)) != NULL;
  jqv_free(o);
  jqv_free(key);
  return r;
}

static h_object *obj_own(jqv *o) {
  h_object *h = (h_object *)o->h;
  if (h->h.refcnt == 1) return h;
  h_object *n = obj_alloc(h->len);
  for (size_t i = 0; i < h->len; i++) {
    n->items[i].key = jqv_copy(h->items[i].key);
    n->items[i].val = jqv_copy(h->items[i].val);
  }
  n->len = h->len;
  jqv_free(*o);
  o->h = &n->h;
  return n;
}

jqv jqv_object_set(jqv o, jqv key, jqv v) {
  h_object *h = obj_own(&o);
  long i = obj_find(h, jqv_string_value(key), jqv_string_len(key));
  if (i >= 0) {
    jqv_free(h->items[i].val);
    h->items[i].val = v;
    jqv_free(key);
    return o;
  }
  if (h->len == h->cap) {
    size_t cap = h->cap ? h->cap * 2 : 4;
    obj_entry *ni;
    if (h->items == h->inl) {
      ni = xmalloc(cap * sizeof(obj_entry));
      if (ni) memcpy(ni, h->items, h->len * sizeof(obj_entry));
    } else {
      ni = xrealloc(h->items, h->cap * sizeof(obj_entry), cap * sizeof(obj_entry));
    }
    if (!ni) oom();
    h->items = ni;
    h->cap = cap;
  }
  h->items[h->len].key = key;
  h->items[h->len].val = v;
  h->len++;
  if (h->index) {
    if (h->len * 2 + 2 > h->index_cap) obj_index_build(h);
    else {
      size_t slot = jqv_string_hash(key) & (h->index_cap - 1);
      while (h->index[slot]) slot = (slot + 1) & (h->index_cap - 1);
      h->index[slot] = (uint32_t)h->len;
    }
  }
  return o;
}

jqv jqv_object_delete(jqv o, jqv key) {
  long i = obj_find((h_object *)o.h, jqv_string_value(key), jqv_string_len(key));
  jqv_free(key);
  if (i < 0) return o;
  h_object *h = obj_own(&o);
  jqv_free(h->items[i].key);
  jqv_free(h->items[i].val);
  memmove(&h->items[i], &h->items[i + 1], (h->len - (size_t)i - 1) * sizeof(obj_entry));
  h->len--;
  xfree(h->index, h->index_cap * sizeof(uint32_t));
  h->index = NULL;
  h->index_cap = 0;
  return o;
}

jqv jqv_object_merge(jqv a, jqv b) {
  for (size_t i = 0; i < jqv_object_len(b); i++)
    a = jqv_object_set(a, jqv_copy(*jqv_object_key_at(b, i)), jqv_copy(*jqv_object_value_at(b, i)));
  jqv_free(b);
  return a;
}

static jqv merge_depth(jqv a, jqv b, int depth) {
  if (depth > JQV_MAX_DEPTH) {
    jqv_too_deep = true;
    jqv_free(b);
    return a;
  }
  for (size_t i = 0; i < jqv_object_len(b); i++) {
    jqv k = *jqv_object_key_at(b, i), v = *jqv_object_value_at(b, i);
    const jqv *old = jqv_object_find(a, jqv_string_value(k), jqv_string_len(k));
    if (old && old->kind == JQV_KIND_OBJECT && v.kind == JQV_KIND_OBJECT)
      a = jqv_object_set(a, jqv_copy(k), merge_depth(jqv_copy(*old), jqv_copy(v), depth + 1));
    else a = jqv_object_set(a, jqv_copy(k), jqv_copy(v));
  }
  jqv_free(b);
  return a;
}
jqv jqv_object_merge_recursive(jqv a, jqv b) { return merge_depth(a, b, 0); }

static int str_cmp(const jqv *a, const jqv *b) {
  size_t la = jqv_string_len(*a), lb = jqv_string_len(*b);
  int r = memcmp(jqv_string_value(*a), jqv_string_value(*b), la < lb ? la : lb);
  if (r) return r;
  return la < lb ? -1 : la > lb;
}
static int key_cmp(const void *x, const void *y) { return str_cmp(x, y); }

jqv jqv_keys_unsorted(jqv o) {
  size_t n = jqv_object_len(o);
  jqv r = jqv_array_sized(n);
  for (size_t i = 0; i < n; i++) r = jqv_array_append(r, jqv_copy(*jqv_object_key_at(o, i)));
  jqv_free(o);
  return r;
}
jqv jqv_keys(jqv o) {
  jqv r = jqv_keys_unsorted(o);
  h_array *h = (h_array *)r.h;
  if (h->len > 1) qsort(h->items, h->len, sizeof(jqv), key_cmp);
  return r;
}

/* ---- number literals ------------------------------------------------------------ */

/* jq 1.8 (built with decNumber) keeps a number's literal, from the input or
 * the program, until arithmetic replaces it: it prints in decNumber's
 * scientific-string form (`1.0`, `1.00` for `100e-2`, `1E+2` for `1e2`,
 * `1E+1000`) and two literals compare as exact decimals. A number keeps a
 * literal only when that text differs from how its double prints, so common
 * numbers stay plain doubles. Literals are not reference counted: they live
 * in the thread's arena until jqv_literals_release (end of a jq run), and
 * numbers copy and free as plain values. */
typedef struct numlit {
  jqv_heap h; /* type H_NUMLIT; refcnt unused */
  struct numlit *next;
  size_t size;   /* bytes allocated */
  int64_t exp;   /* exponent of the last coefficient digit */
  uint32_t ndig; /* coefficient digits (no leading zeros; "0" for zero) */
  bool neg;
  const char *digits;
  char text[]; /* canonical text, NUL, the coefficient digits */
} numlit;

#define NUMLIT_MAX_DIGITS 1000                   /* longer coefficients become doubles */
#define NUMLIT_MAX_EXP 999999999                 /* decNumber's exponent range in jq */
#define NUMLIT_ARENA_MAX ((size_t)64 << 20)      /* literal bytes kept per thread */
static _Thread_local numlit *lit_head;
static _Thread_local size_t lit_bytes;

void jqv_literals_release(void) {
  while (lit_head) {
    numlit *n = lit_head;
    lit_head = n->next;
    xfree(n, n->size);
  }
  lit_bytes = 0;
}

static jqv make_numlit(bool neg, const char *dig, uint32_t nd, int64_t exp, double d) {
  int64_t adj = exp + (int64_t)nd - 1;
  if (nd == 0 || nd > NUMLIT_MAX_DIGITS || adj > NUMLIT_MAX_EXP || adj < -NUMLIT_MAX_EXP) return jqv_number(d);
  char *t = malloc((size_t)nd + 40);
  if (!t) oom();
  size_t k = 0;
  if (neg) t[k++] = '-';
  if (exp <= 0 && adj >= -6) {
    int64_t point = (int64_t)nd + exp; /* digits before the point */
    if (exp == 0) {
      memcpy(t + k, dig, nd), k += nd;
    } else if (point > 0) {
      memcpy(t + k, dig, (size_t)point), k += (size_t)point;
      t[k++] = '.';
      memcpy(t + k, dig + point, nd - (size_t)point), k += nd - (size_t)point;
    } else {
      t[k++] = '0', t[k++] = '.';
      for (int64_t i = 0; i < -point; i++) t[k++] = '0';
      memcpy(t + k, dig, nd), k += nd;
    }
  } else {
    t[k++] = dig[0];
    if (nd > 1) {
      t[k++] = '.';
      memcpy(t + k, dig + 1, nd - 1), k += nd - 1;
    }
    k += (size_t)snprintf(t + k, 24, "E%c%lld", adj < 0 ? '-' : '+', (long long)(adj < 0 ? -adj : adj));
  }
  t[k] = '\0';
  char plain[JQV_NUMBER_TEXT_SIZE];
  jqv_number_text(d, plain);
  if (strcmp(plain, t) == 0 || lit_bytes > NUMLIT_ARENA_MAX) {
    free(t);
    return (jqv){JQV_KIND_NUMBER, 1, d, NULL};
  }
  size_t size = sizeof(numlit) + k + 1 + nd;
  numlit *n = xmalloc(size);
  if (!n) oom();
  n->h.refcnt = 1;
  n->h.type = H_NUMLIT;
  n->size = size;
  n->exp = exp;
  n->ndig = nd;
  n->neg = neg;
  memcpy(n->text, t, k + 1);
  memcpy(n->text + k + 1, dig, nd);
  n->digits = n->text + k + 1;
  free(t);
  n->next = lit_head;
  lit_head = n;
  lit_bytes += size;
  return (jqv){JQV_KIND_NUMBER, 1, d, &n->h};
}

jqv jqv_number_literal(const char *s, size_t n, double d) {
  if (!isfinite(d) && !isinf(d)) return jqv_number(d);
  size_t i = 0;
  bool neg = i < n && s[i] == '-';
  if (neg) i++;
  size_t ds = i, nd = 0, frac = 0;
  bool dot = false, any = false;
  for (; i < n && ((s[i] >= '0' && s[i] <= '9') || (s[i] == '.' && !dot)); i++) {
    if (s[i] == '.') {
      dot = true;
      continue;
    }
    any = true;
    if (dot) frac++;
  }
  if (!any) return jqv_number(d);
  size_t de = i;
  int64_t e = 0;
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    i++;
    bool eneg = i < n && s[i] == '-';
    if (i < n && (s[i] == '+' || s[i] == '-')) i++;
    if (i >= n) return jqv_number(d);
    for (; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
      e = e * 10 + (s[i] - '0');
      if (e > 4 * (int64_t)NUMLIT_MAX_EXP) return jqv_number(d);
    }
    if (eneg) e = -e;
  }
  if (i != n) return jqv_number(d);
  char dig[NUMLIT_MAX_DIGITS];
  for (size_t j = ds; j < de; j++) {
    if (s[j] == '.') continue;
    if (nd == 0 && s[j] == '0') continue; /* leading zeros */
    if (nd == sizeof dig) return jqv_number(d);
    dig[nd++] = s[j];
  }
  if (nd == 0) dig[nd++] = '0';
  return make_numlit(neg, dig, (uint32_t)nd, e - (int64_t)frac, d);
}

const char *jqv_number_get_literal(const jqv *v) {
  return v->kind == JQV_KIND_NUMBER && v->h ? ((const numlit *)v->h)->text : NULL;
}

jqv jqv_number_negate(jqv v) {
  if (!v.h) return (jqv){JQV_KIND_NUMBER, v.lit, -v.num, NULL};
  const numlit *l = (const numlit *)v.h;
  return make_numlit(!l->neg, l->digits, l->ndig, l->exp, -v.num);
}

jqv jqv_number_abs(jqv v) {
  if (!v.h) return (jqv){JQV_KIND_NUMBER, v.lit, fabs(v.num), NULL};
  return ((const numlit *)v.h)->neg ? jqv_number_negate(v) : v;
}

/* A number as a decimal: its literal, or the shortest text of its double
 * (a number that kept no literal was written as that text, or computed). */
typedef struct {
  bool neg;
  const char *digits;
  uint32_t ndig;
  int64_t exp;
  char buf[JQV_NUMBER_TEXT_SIZE];
} decimal;

static void to_decimal(const jqv *v, decimal *d) {
  if (v->h) {
    const numlit *l = (const numlit *)v->h;
    d->neg = l->neg, d->digits = l->digits, d->ndig = l->ndig, d->exp = l->exp;
    return;
  }
  char t[JQV_NUMBER_TEXT_SIZE];
  jqv_number_text(v->num, t);
  const char *p = t;
  d->neg = *p == '-';
  if (d->neg) p++;
  uint32_t n = 0, frac = 0;
  bool dot = false;
  for (; *p && *p != 'e'; p++) {
    if (*p == '.') {
      dot = true;
      continue;
    }
    if (dot) frac++;
    if (n == 0 && *p == '0') continue;
    d->buf[n++] = *p;
  }
  if (n == 0) d->buf[n++] = '0';
  d->digits = d->buf, d->ndig = n;
  d->exp = (*p == 'e' ? strtol(p + 1, NULL, 10) : 0) - (int64_t)frac;
}

/* Exact decimal order of two finite numbers, one of them a literal. */
static int numlit_cmp(const jqv *a, const jqv *b) {
  decimal x, y;
  to_decimal(a, &x);
  to_decimal(b, &y);
  bool zx = x.digits[0] == '0', zy = y.digits[0] == '0';
  int sx = zx ? 0 : x.neg ? -1 : 1, sy = zy ? 0 : y.neg ? -1 : 1;
  if (sx != sy) return sx < sy ? -1 : 1;
  if (sx == 0) return 0;
  int64_t ax = x.exp + x.ndig - 1, ay = y.exp + y.ndig - 1;
  int mag = 0;
  if (ax != ay) {
    mag = ax < ay ? -1 : 1;
  } else {
    uint32_t n = x.ndig > y.ndig ? x.ndig : y.ndig;
    for (uint32_t i = 0; i < n && !mag; i++) {
      char cx = i < x.ndig ? x.digits[i] : '0', cy = i < y.ndig ? y.digits[i] : '0';
      if (cx != cy) mag = cx < cy ? -1 : 1;
    }
  }
  return sx * mag;
}

/* jq 1.8 compares two literals as decimals, anything else as doubles. */
static bool numlit_comparable(const jqv *a, const jqv *b) {
  return a->lit && b->lit && (a->h || b->h);
}

/* ---- order, equality, contains -------------------------------------------------- */

static int cmp_depth(const jqv *a, const jqv *b, int depth) {
  if (a->kind != b->kind) {
    int ka = a->kind, kb = b->kind;
    return ka < kb ? -1 : 1;
  }
  if (depth > JQV_MAX_DEPTH) {
    jqv_too_deep = true;
    return 0;
  }
  switch (a->kind) {
  case JQV_KIND_NUMBER:
    if (numlit_comparable(a, b)) return numlit_cmp(a, b);
    if (a->num < b->num) return -1;
    if (a->num > b->num) return 1;
    if (a->num == b->num) return 0;
    /* NaN sorts below every number (jq 1.8). */
    if (isnan(a->num)) return isnan(b->num) ? 0 : -1;
    return 1;
  case JQV_KIND_STRING: return a->h == b->h ? 0 : str_cmp(a, b);
  case JQV_KIND_ARRAY: {
    size_t la = jqv_array_len(*a), lb = jqv_array_len(*b);
    for (size_t i = 0; i < la && i < lb; i++) {
      int r = cmp_depth(jqv_array_at(*a, i), jqv_array_at(*b, i), depth + 1);
      if (r) return r;
    }
    return la < lb ? -1 : la > lb;
  }
  case JQV_KIND_OBJECT: {
    jqv ka = jqv_keys(jqv_copy(*a)), kb = jqv_keys(jqv_copy(*b));
    int r = cmp_depth(&ka, &kb, depth + 1);
    for (size_t i = 0; r == 0 && i < jqv_array_len(ka); i++) {
      const jqv *k = jqv_array_at(ka, i);
      r = cmp_depth(jqv_object_find(*a, jqv_string_value(*k), jqv_string_len(*k)),
                    jqv_object_find(*b, jqv_string_value(*k), jqv_string_len(*k)), depth + 1);
    }
    jqv_free(ka);
    jqv_free(kb);
    return r;
  }
  default: return 0;
  }
}
int jqv_cmp(const jqv *a, const jqv *b) { return cmp_depth(a, b, 0); }

static bool eq_depth(const jqv *a, const jqv *b, int depth) {
  if (a->kind != b->kind) return false;
  if (a->kind == JQV_KIND_NUMBER) return numlit_comparable(a, b) ? numlit_cmp(a, b) == 0 : a->num == b->num;
  if (a->h == b->h) return true;
  if (depth > JQV_MAX_DEPTH) {
    jqv_too_deep = true;
    return true;
  }
  switch (a->kind) {
  case JQV_KIND_STRING: return jqv_string_len(*a) == jqv_string_len(*b) && str_cmp(a, b) == 0;
  case JQV_KIND_ARRAY: {
    size_t n = jqv_array_len(*a);
    if (n != jqv_array_len(*b)) return false;
    for (size_t i = 0; i < n; i++)
      if (!eq_depth(jqv_array_at(*a, i), jqv_array_at(*b, i), depth + 1)) return false;
    return true;
  }
  case JQV_KIND_OBJECT: {
    size_t n = jqv_object_len(*a);
    if (n != jqv_object_len(*b)) return false;
    for (size_t i = 0; i < n; i++) {
      const jqv *k = jqv_object_key_at(*a, i);
      const jqv *o = jqv_object_find(*b, jqv_string_value(*k), jqv_string_len(*k));
      if (!o || !eq_depth(jqv_object_value_at(*a, i), o, depth + 1)) return false;
    }
    return true;
  }
  default: return true;
  }
}
bool jqv_equal(jqv a, jqv b) {
  bool r = eq_depth(&a, &b, 0);
  jqv_free(a);
  jqv_free(b);
  return r;
}
bool jqv_identical(jqv a, jqv b) {
  bool r = a.kind == b.kind && (a.kind == JQV_KIND_NUMBER ? memcmp(&a.num, &b.num, sizeof a.num) == 0 : a.h == b.h);
  jqv_free(a);
  jqv_free(b);
  return r;
}

static bool contains_depth(const jqv *a, const jqv *b, int depth) {
  if (depth > JQV_MAX_DEPTH) {
    jqv_too_deep = true;
    return false;
  }
  if (a->kind == JQV_KIND_OBJECT && b->kind == JQV_KIND_OBJECT) {
    for (size_t i = 0; i < jqv_object_len(*b); i++) {
      const jqv *k = jqv_object_key_at(*b, i);
      const jqv *av = jqv_object_find(*a, jqv_string_value(*k), jqv_string_len(*k));
      if (!av || !contains_depth(av, jqv_object_value_at(*b, i), depth + 1)) return false;
    }
    return true;
  }
  if (a->kind == JQV_KIND_ARRAY && b->kind == JQV_KIND_ARRAY) {
    for (size_t i = 0; i < jqv_array_len(*b); i++) {
      bool found = false;
      for (size_t j = 0; j < jqv_array_len(*a) && !found; j++)
        found = contains_depth(jqv_array_at(*a, j), jqv_array_at(*b, i), depth + 1);
      if (!found) return false;
    }
    return true;
  }
  if (a->kind == JQV_KIND_STRING && b->kind == JQV_KIND_STRING) {
    size_t la = jqv_string_len(*a), lb = jqv_string_len(*b);
    if (lb == 0) return true;
    if (lb > la) return false;
    return memmem(jqv_string_value(*a), la, jqv_string_value(*b), lb) != NULL;
  }
  return eq_depth(a, b, depth);
}
bool jqv_contains(const jqv *a, const jqv *b) { return contains_depth(a, b, 0); }

static int val_cmp(const void *x, const void *y) { return jqv_cmp(x, y); }
jqv jqv_sort(jqv a) {
  h_array *h = arr_own(&a, jqv_array_len(a));
  if (h->len > 1) qsort(h->items, h->len, sizeof(jqv), val_cmp);
  return a;
}
