/*
 * util.c - the shell's byte buffers, string vectors, AST arenas and checked
 * allocation (see util.h). The arena hands out 16-byte aligned zeroed blocks
 * from 8 KiB chunks (larger requests get a chunk of their own), so freeing a
 * whole parse is one walk over its chunks.
 */
#include "sh/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static void sh_oom(size_t n) {
  /* The shell bounds sizes by its limits before allocating; getting here means
   * the host itself is out of memory, where continuing would corrupt state. */
  fprintf(stderr, "sbx: out of memory (allocating %zu bytes)\n", n);
  abort();
}

void *sh_xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) sh_oom(n);
  return p;
}

void *sh_xcalloc(size_t n, size_t m) {
  void *p = calloc(n ? n : 1, m ? m : 1);
  if (!p) sh_oom(n * m);
  return p;
}

void *sh_xrealloc(void *p, size_t n) {
  void *q = realloc(p, n ? n : 1);
  if (!q) sh_oom(n);
  return q;
}

char *sh_xstrdup(const char *s) { return sh_xstrndup(s, strlen(s)); }

char *sh_xstrndup(const char *s, size_t n) {
  char *p = sh_xmalloc(n + 1);
  memcpy(p, s, n);
  p[n] = 0;
  return p;
}

char *sh_xasprintf(const char *fmt, ...) {
  sh_buf b = {0};
  va_list ap;
  va_start(ap, fmt);
  sh_buf_vaddf(&b, fmt, ap);
  va_end(ap);
  return sh_buf_steal(&b);
}

bool sh_parse_number(const char *s, int64_t *v) {
  char *end;
  errno = 0;
  long long x = strtoll(s, &end, 10);
  if (end == s || errno) return false;
  while (*end == ' ' || *end == '\t') end++;
  if (*end) return false;
  *v = x;
  return true;
}

size_t sh_fmt_i64(char *buf, int64_t v) {
  char tmp[SH_I64_LEN];
  size_t n = 0;
  uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v; /* INT64_MIN too */
  do {
    tmp[n++] = (char)('0' + u % 10);
    u /= 10;
  } while (u);
  size_t len = 0;
  if (v < 0) buf[len++] = '-';
  while (n) buf[len++] = tmp[--n];
  buf[len] = 0;
  return len;
}

/* ---- sh_buf ------------------------------------------------------------------ */

void sh_buf_reserve(sh_buf *b, size_t extra) {
  if (b->len + extra + 1 <= b->cap) return;
  size_t cap = b->cap ? b->cap : 32;
  while (cap < b->len + extra + 1) cap *= 2;
  b->data = sh_xrealloc(b->data, cap);
  b->cap = cap;
}

void sh_buf_add(sh_buf *b, const void *p, size_t n) {
  sh_buf_reserve(b, n);
  if (n) memcpy(b->data + b->len, p, n);
  b->len += n;
  b->data[b->len] = 0;
}

void sh_buf_adds(sh_buf *b, const char *s) { sh_buf_add(b, s, strlen(s)); }

void sh_buf_addc(sh_buf *b, char c) {
  if (b->len + 2 > b->cap) sh_buf_reserve(b, 1);
  b->data[b->len++] = c;
  b->data[b->len] = 0;
}

void sh_buf_vaddf(sh_buf *b, const char *fmt, va_list ap) {
  va_list ap2;
  va_copy(ap2, ap);
  char small[256];
  int n = vsnprintf(small, sizeof small, fmt, ap2);
  va_end(ap2);
  if (n < 0) return;
  if ((size_t)n < sizeof small) {
    sh_buf_add(b, small, (size_t)n);
    return;
  }
  sh_buf_reserve(b, (size_t)n);
  vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
  b->len += (size_t)n;
}

void sh_buf_addf(sh_buf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  sh_buf_vaddf(b, fmt, ap);
  va_end(ap);
}

char *sh_buf_steal(sh_buf *b) {
  char *p = b->data;
  if (!p) p = sh_xstrdup("");
  b->data = NULL;
  b->len = b->cap = 0;
  return p;
}

const char *sh_buf_str(sh_buf *b) { return b->data ? b->data : ""; }

void sh_buf_free(sh_buf *b) {
  free(b->data);
  b->data = NULL;
  b->len = b->cap = 0;
}

/* ---- sh_strv ----------------------------------------------------------------- */

void sh_strv_push(sh_strv *sv, char *s) {
  if (sv->n + 2 > sv->cap) {
    sv->cap = sv->cap ? sv->cap * 2 : 8;
    sv->v = sh_xrealloc(sv->v, sv->cap * sizeof *sv->v);
  }
  sv->v[sv->n++] = s;
  sv->v[sv->n] = NULL;
}

void sh_strv_pushdup(sh_strv *sv, const char *s) { sh_strv_push(sv, sh_xstrdup(s)); }

void sh_strv_free(sh_strv *sv) {
  for (size_t i = 0; i < sv->n; i++) free(sv->v[i]);
  free(sv->v);
  sv->v = NULL;
  sv->n = sv->cap = 0;
}

char **sh_strv_terminated(sh_strv *sv) {
  if (!sv->v) {
    sv->cap = 4;
    sv->v = sh_xcalloc(sv->cap, sizeof *sv->v);
  }
  return sv->v;
}

/* ---- sh_arena ----------------------------------------------------------------- */

typedef struct arena_chunk {
  struct arena_chunk *next; /* older chunk */
  size_t used, size;        /* bytes used / usable in data */
  _Alignas(16) char data[];
} arena_chunk;

struct sh_arena {
  arena_chunk *head; /* newest chunk, allocation happens here */
  int refs;          /* owners: the parse, plus each function defined in it */
  size_t bytes;      /* total handed out */
};

sh_arena *sh_arena_new(void) {
  sh_arena *a = sh_xcalloc(1, sizeof *a);
  a->refs = 1;
  return a;
}

void *sh_arena_alloc(sh_arena *a, size_t n) {
  n = (n + 15) & ~(size_t)15;
  if (!a->head || a->head->size - a->head->used < n) {
    size_t size = n > 8192 - sizeof(arena_chunk) ? n : 8192 - sizeof(arena_chunk);
    arena_chunk *c = sh_xmalloc(sizeof *c + size);
    c->used = 0;
    c->size = size;
    if (a->head && n > 2048) {
      /* a big block: keep allocating from the current chunk afterwards */
      c->next = a->head->next;
      a->head->next = c;
    } else {
      c->next = a->head;
      a->head = c;
    }
    c->used = n;
    a->bytes += n;
    memset(c->data, 0, n);
    return c->data;
  }
  void *p = a->head->data + a->head->used;
  a->head->used += n;
  a->bytes += n;
  memset(p, 0, n);
  return p;
}

char *sh_arena_strndup(sh_arena *a, const char *s, size_t n) {
  char *p = sh_arena_alloc(a, n + 1);
  memcpy(p, s, n);
  p[n] = 0;
  return p;
}

char *sh_arena_strdup(sh_arena *a, const char *s) {
  return sh_arena_strndup(a, s, strlen(s));
}

sh_arena *sh_arena_ref(sh_arena *a) {
  a->refs++;
  return a;
}

void sh_arena_unref(sh_arena *a) {
  if (!a || --a->refs > 0) return;
  arena_chunk *c = a->head;
  while (c) {
    arena_chunk *n = c->next;
    free(c);
    c = n;
  }
  free(a);
}

size_t sh_arena_bytes(const sh_arena *a) { return a->bytes; }

/* ---- misc ------------------------------------------------------------------------ */

bool sh_is_name_n(const char *s, size_t n) {
  if (n == 0 || !sh_is_name_start((unsigned char)s[0])) return false;
  for (size_t i = 1; i < n; i++)
    if (!sh_is_name_char((unsigned char)s[i])) return false;
  return true;
}

_Thread_local bool sh_locale_bytes;

bool sh_is_name(const char *s) { return sh_is_name_n(s, strlen(s)); }

int64_t sh_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

size_t sh_utf8_encode(uint32_t cp, char out[SH_UTF8_MAX]) {
  if (cp < 0x80) {
    out[0] = (char)cp;
    return 1;
  }
  if (cp > 0x7FFFFFFF) return 0; /* bash writes nothing for these */
  /* the original (RFC 2279) scheme: 2 to 6 bytes, lead byte 110x.. to 1111110x */
  size_t n = cp < 0x800 ? 2 : cp < 0x10000 ? 3 : cp < 0x200000 ? 4 : cp < 0x4000000 ? 5 : 6;
  for (size_t i = n - 1; i > 0; i--) {
    out[i] = (char)(0x80 | (cp & 0x3F));
    cp >>= 6;
  }
  out[0] = (char)((0xFF00u >> n) | cp);
  return n;
}

int sh_hex_digit(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

void sh_buf_add_single_quoted(sh_buf *b, const char *s, size_t n) {
  sh_buf_addc(b, '\'');
  for (size_t i = 0; i < n; i++) {
    if (s[i] == '\'') sh_buf_adds(b, "'\\''");
    else sh_buf_addc(b, s[i]);
  }
  sh_buf_addc(b, '\'');
}

void sh_ansi_c_decode(const char *s, size_t n, sh_buf *out) {
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c != '\\' || i + 1 >= n) {
      sh_buf_addc(out, (char)c);
      continue;
    }
    c = (unsigned char)s[++i];
    int v = -1; /* the byte to add, or -1 when done otherwise */
    switch (c) {
    case 'a': v = '\a'; break;
    case 'b': v = '\b'; break;
    case 'e': case 'E': v = 27; break;
    case 'f': v = '\f'; break;
    case 'n': v = '\n'; break;
    case 'r': v = '\r'; break;
    case 't': v = '\t'; break;
    case 'v': v = '\v'; break;
    case '\\': case '\'': case '"': case '?': v = c; break;
    case 'c': {
      if (i + 1 >= n) {
        sh_buf_add(out, "\\c", 2);
        break;
      }
      int d = (unsigned char)s[++i];
      if (d == '\\' && i + 1 < n && s[i + 1] == '\\') i++;
      if (d >= 'a' && d <= 'z') d = d - 'a' + 'A';
      v = d & 0x1f;
      if (v == 0) return; /* \c@ is NUL, which ends the text (bash) */
      break;
    }
    case 'x': {
      int x = 0, k = 0, h;
      while (k < 2 && i + 1 < n && (h = sh_hex_digit((unsigned char)s[i + 1])) >= 0) {
        x = x * 16 + h;
        i++;
        k++;
      }
      if (k == 0) sh_buf_add(out, "\\x", 2);
      else if (x == 0) return;
      else v = x;
      break;
    }
    case 'u': case 'U': {
      int max = c == 'u' ? 4 : 8, k = 0, h;
      uint32_t cp = 0;
      while (k < max && i + 1 < n && (h = sh_hex_digit((unsigned char)s[i + 1])) >= 0) {
        cp = cp * 16 + (uint32_t)h;
        i++;
        k++;
      }
      if (k == 0) {
        sh_buf_addc(out, '\\');
        sh_buf_addc(out, (char)c);
      } else {
        char u[SH_UTF8_MAX];
        sh_buf_add(out, u, sh_utf8_encode(cp, u));
      }
      break;
    }
    default:
      if (c >= '0' && c <= '7') {
        int o = c - '0', k = 1;
        while (k < 3 && i + 1 < n && s[i + 1] >= '0' && s[i + 1] <= '7') {
          o = o * 8 + (s[++i] - '0');
          k++;
        }
        o &= 0xff;
        if (o == 0) return;
        v = o;
      } else {
        sh_buf_addc(out, '\\');
        v = c;
      }
    }
    if (v >= 0) sh_buf_addc(out, (char)v);
  }
}

void *sh_arena_grow(sh_arena *a, void *items, size_t n, size_t *cap, size_t first,
                    size_t size) {
  if (n < *cap) return items;
  *cap = *cap ? *cap * 2 : first;
  void *grown = sh_arena_alloc(a, *cap * size);
  if (n) memcpy(grown, items, n * size);
  return grown;
}
