/*
 * jq_json.c - JSON text for sbx's jq engine: the printer (jq 1.8's layout,
 * number text, colours) and the parser (one text, or a stream of texts fed
 * in chunks, with jq's error messages).
 *
 * The stream parser keeps only the unparsed tail of its input: each call of
 * jqv_parser_next parses one whole value from the buffer by recursive
 * descent (depth-limited); when the value runs past the end of what has been
 * fed, it asks for more and retries from the value's start once the buffer
 * has doubled, so a value costs O(n) amortised and memory stays in
 * proportion to the largest single value, not the input.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/jq/jq_value.h"
#include "cmd/lib/buf.h"

/* ---- buffer ---------------------------------------------------------------------- */

void jqv_buf_add(jqv_buf *b, const void *p, size_t n) {
  if (b->over) return;
  if (b->flush && b->len + n > 65536 && b->len > 0) {
    bool go_on = b->flush(b->flush_ud, b->data, b->len);
    b->len = 0;
    if (!go_on) {
      b->over = true;
      return;
    }
  }
  if (b->limit && b->len + n > b->limit) {
    b->over = true;
    return;
  }
  if (cmd_grow(&b->data, &b->cap, b->len + n + 1, 1)) {
    b->over = true;
    return;
  }
  memcpy(b->data + b->len, p, n);
  b->len += n;
  b->data[b->len] = '\0';
}
void jqv_buf_adds(jqv_buf *b, const char *s) { jqv_buf_add(b, s, strlen(s)); }
void jqv_buf_addc(jqv_buf *b, char c) { jqv_buf_add(b, &c, 1); }
void jqv_buf_free(jqv_buf *b) {
  free(b->data);
  *b = (jqv_buf){0};
}

/* ---- numbers ------------------------------------------------------------------- */

/* jq 1.8's number text: the shortest digits that read back to the same
 * double (17 at most), laid out as an integer/decimal when the decimal
 * exponent is in [-4, digits+15), in exponent form otherwise ("1e+17",
 * "1e-05"); NaN is null; infinities print as the largest finite double. */
void jqv_number_text(double d, char out[JQV_NUMBER_TEXT_SIZE]) {
  if (isnan(d)) {
    strcpy(out, "null");
    return;
  }
  if (isinf(d)) d = d > 0 ? 1.7976931348623157e308 : -1.7976931348623157e308;
  if (d == 0) {
    strcpy(out, signbit(d) ? "-0" : "0");
    return;
  }
  if (fabs(d) < 1e15 && d == floor(d)) {
    /* an integer below 10^15 is exact as a long long: its digits, no printf */
    long long i = (long long)d;
    unsigned long long u = i < 0 ? 0ULL - (unsigned long long)i : (unsigned long long)i;
    char rev[20];
    int k = 0;
    do rev[k++] = (char)('0' + u % 10), u /= 10;
    while (u);
    char *o = out;
    if (i < 0) *o++ = '-';
    while (k) *o++ = rev[--k];
    *o = '\0';
    return;
  }
  /* The shortest digits that read back: 15 significant digits read back
   * whenever any 15 or fewer do (two 15-digit decimals are further apart
   * than a double's rounding interval), and then their trailing zeros are
   * the only excess; otherwise 16, otherwise 17 (each correctly rounded).
   * Subnormals hold fewer digits: they search from 1. */
  char tmp[40];
  int prec;
  for (prec = fabs(d) < DBL_MIN ? 1 : 15; prec < 17; prec++) {
    snprintf(tmp, sizeof tmp, "%.*e", prec - 1, d);
    if (strtod(tmp, NULL) == d) break;
  }
  if (prec == 17) snprintf(tmp, sizeof tmp, "%.*e", prec - 1, d);
  /* tmp: [-]D[.DDD]e[+-]XX */
  char digits[24];
  int nd = 0;
  const char *p = tmp;
  bool neg = *p == '-';
  if (neg) p++;
  for (; *p && *p != 'e'; p++)
    if (*p >= '0' && *p <= '9') digits[nd++] = *p;
  while (nd > 1 && digits[nd - 1] == '0') nd--;
  int exp10 = atoi(p + 1);
  int decpt = exp10 + 1; /* digits d1d2... times 10^(decpt-nd) */
  char *o = out;
  if (neg) *o++ = '-';
  if (decpt <= -4 || decpt > nd + 15) {
    *o++ = digits[0];
    if (nd > 1) {
      *o++ = '.';
      for (int i = 1; i < nd; i++) *o++ = digits[i];
    }
    *o++ = 'e';
    int e = decpt - 1;
    *o++ = e < 0 ? '-' : '+';
    if (e < 0) e = -e;
    char ebuf[16];
    snprintf(ebuf, sizeof ebuf, "%02d", e % 1000);
    strcpy(o, ebuf);
    return;
  }
  if (decpt <= 0) {
    *o++ = '0';
    *o++ = '.';
    for (int i = decpt; i < 0; i++) *o++ = '0';
    for (int i = 0; i < nd; i++) *o++ = digits[i];
  } else {
    for (int i = 0; i < nd || i < decpt; i++) {
      if (i == decpt) *o++ = '.';
      *o++ = i < nd ? digits[i] : '0';
    }
  }
  *o = '\0';
}

/* ---- printer ------------------------------------------------------------------- */

static const char *const default_colors[8] = {
    "0;90", /* null */ "0;39", /* false */ "0;39", /* true */  "0;39", /* numbers */
    "0;32", /* strings */ "1;39", /* arrays */ "1;39", /* objects */ "1;34", /* keys */
};

void jqv_buf_add_json_string(jqv_buf *b, const char *s, size_t n, bool ascii) {
  jqv_buf_addc(b, '"');
  const unsigned char *u = (const unsigned char *)s;
  size_t start = 0;
  for (size_t i = 0; i < n; i++) {
    unsigned c = u[i];
    const char *esc = NULL;
    char tmp[16];
    if (c == '"') esc = "\\\"";
    else if (c == '\\') esc = "\\\\";
    else if (c < 0x20 || c == 0x7f) {
      switch (c) {
      case '\n': esc = "\\n"; break;
      case '\t': esc = "\\t"; break;
      case '\r': esc = "\\r"; break;
      case '\b': esc = "\\b"; break;
      case '\f': esc = "\\f"; break;
      default: snprintf(tmp, sizeof tmp, "\\u%04x", c); esc = tmp;
      }
    } else if (c >= 0x80 && ascii) {
      unsigned cp;
      int len;
      if (c >= 0xf0) cp = c & 7, len = 4;
      else if (c >= 0xe0) cp = c & 15, len = 3;
      else cp = c & 31, len = 2;
      for (int k = 1; k < len && i + (size_t)k < n; k++) cp = (cp << 6) | (u[i + (size_t)k] & 0x3f);
      jqv_buf_add(b, s + start, i - start);
      if (cp >= 0x10000) {
        cp -= 0x10000;
        snprintf(tmp, sizeof tmp, "\\u%04x\\u%04x", 0xd800 + (cp >> 10), 0xdc00 + (cp & 0x3ff));
      } else {
        snprintf(tmp, sizeof tmp, "\\u%04x", cp);
      }
      jqv_buf_adds(b, tmp);
      i += (size_t)len - 1;
      start = i + 1;
      continue;
    }
    if (esc) {
      jqv_buf_add(b, s + start, i - start);
      jqv_buf_adds(b, esc);
      start = i + 1;
    }
  }
  jqv_buf_add(b, s + start, n - start);
  jqv_buf_addc(b, '"');
}

typedef struct {
  jqv_buf *b;
  int flags;
  int indent; /* spaces per level (ignored with TAB) */
  const char *const *colors;
} dumper;

static void put_indent(dumper *d, int level) {
  jqv_buf_addc(d->b, '\n');
  if (d->flags & JQV_PRINT_TAB) {
    for (int i = 0; i < level; i++) jqv_buf_addc(d->b, '\t');
  } else {
    for (int i = 0; i < level * d->indent; i++) jqv_buf_addc(d->b, ' ');
  }
}

static void col_start(dumper *d, int which) {
  if (!d->colors) return;
  jqv_buf_adds(d->b, "\x1b[");
  jqv_buf_adds(d->b, d->colors[which]);
  jqv_buf_addc(d->b, 'm');
}
static void col_end(dumper *d) {
  if (d->colors) jqv_buf_adds(d->b, "\x1b[0m");
}

/* The opening of an array or object for dump_rec: the empty one whole
 * ("[]", "{}"), else its opening bracket; false when it has no members. */
static bool dump_open(dumper *d, size_t members, const char *brackets) {
  if (members == 0) {
    jqv_buf_adds(d->b, brackets);
    return false;
  }
  jqv_buf_addc(d->b, brackets[0]);
  return true;
}

/* The closing bracket of a non-empty array or object for dump_rec: on its
 * own line when pretty, in the container's colour ci again. */
static void dump_close(dumper *d, int level, int ci, char bracket) {
  if (d->flags & JQV_PRINT_PRETTY) put_indent(d, level);
  if (d->colors) col_start(d, ci);
  jqv_buf_addc(d->b, bracket);
}

static int key_index_cmp(const void *x, const void *y) {
  const jqv *a = *(const jqv *const *)x, *b = *(const jqv *const *)y;
  return jqv_cmp(a, b);
}

static bool dump_rec(dumper *d, const jqv *v, int level) {
  if (d->b->over) return false;
  bool pretty = d->flags & JQV_PRINT_PRETTY;
  int ci = v->kind == JQV_KIND_NULL ? 0 : v->kind - 1;
  /* jq 1.8's layout: the value's colour first, containers re-assert
   * theirs after each member and before the closing bracket, the reset
   * last; keys get the key colour, the ':' the object's. */
  if (d->colors) col_start(d, ci);
  if (level > JQV_MAX_PRINT_DEPTH) {
    jqv_buf_adds(d->b, "<skipped: too deep>");
  } else switch (v->kind) {
  case JQV_KIND_INVALID: jqv_buf_adds(d->b, "<invalid>"); break;
  case JQV_KIND_NULL: jqv_buf_adds(d->b, "null"); break;
  case JQV_KIND_FALSE: jqv_buf_adds(d->b, "false"); break;
  case JQV_KIND_TRUE: jqv_buf_adds(d->b, "true"); break;
  case JQV_KIND_NUMBER: {
    char t[JQV_NUMBER_TEXT_SIZE];
    const char *lit = jqv_number_get_literal(v);
    if (!lit) jqv_number_text(v->num, t), lit = t;
    jqv_buf_adds(d->b, lit);
    break;
  }
  case JQV_KIND_STRING:
    jqv_buf_add_json_string(d->b, jqv_string_value(*v), jqv_string_len(*v), d->flags & JQV_PRINT_ASCII);
    break;
  case JQV_KIND_ARRAY: {
    size_t n = jqv_array_len(*v);
    if (!dump_open(d, n, "[]")) break;
    for (size_t i = 0; i < n; i++) {
      if (i) jqv_buf_addc(d->b, ',');
      if (pretty) put_indent(d, level + 1);
      if (!dump_rec(d, jqv_array_at(*v, i), level + 1)) return false;
      if (d->colors) col_start(d, ci);
    }
    dump_close(d, level, ci, ']');
    break;
  }
  case JQV_KIND_OBJECT: {
    size_t n = jqv_object_len(*v);
    if (!dump_open(d, n, "{}")) break;
    const jqv **order = NULL;
    if (d->flags & JQV_PRINT_SORTED) {
      order = malloc(n * sizeof *order);
      if (!order) return false;
      for (size_t i = 0; i < n; i++) order[i] = jqv_object_key_at(*v, i);
      qsort(order, n, sizeof *order, key_index_cmp);
    }
    for (size_t i = 0; i < n; i++) {
      const jqv *k = order ? order[i] : jqv_object_key_at(*v, i);
      const jqv *val = order ? jqv_object_find(*v, jqv_string_value(*k), jqv_string_len(*k)) : jqv_object_value_at(*v, i);
      if (i) jqv_buf_addc(d->b, ',');
      if (pretty) put_indent(d, level + 1);
      if (d->colors) {
        col_end(d);
        col_start(d, 7);
      }
      jqv_buf_add_json_string(d->b, jqv_string_value(*k), jqv_string_len(*k), d->flags & JQV_PRINT_ASCII);
      if (d->colors) {
        col_end(d);
        col_start(d, ci);
      }
      jqv_buf_adds(d->b, pretty ? ": " : ":");
      if (d->colors) col_end(d);
      if (!dump_rec(d, val, level + 1)) {
        free(order);
        return false;
      }
      if (d->colors) col_start(d, ci);
    }
    free(order);
    dump_close(d, level, ci, '}');
    break;
  }
  }
  if (d->colors) col_end(d);
  return true;
}

bool jqv_dump(jqv_buf *b, const jqv *v, int flags, const char *const *colors) {
  dumper d = {b, flags, (flags >> 8) & 0xf, NULL};
  if (flags & JQV_PRINT_COLOR) d.colors = colors ? colors : default_colors;
  return dump_rec(&d, v, 0);
}

jqv jqv_dump_string(jqv v, int flags) {
  jqv_buf b = {0};
  b.limit = jqv_text_limit ? jqv_text_limit : (64u << 20);
  bool ok = jqv_dump(&b, &v, flags & ~JQV_PRINT_COLOR, NULL);
  jqv_free(v);
  if (!ok || b.over) {
    jqv_buf_free(&b);
    return jqv_invalid_with_msg(jqv_string_fmt(
        "Cannot convert to text a value longer than %zu bytes (the sandbox's string limit)",
        jqv_text_limit ? jqv_text_limit : (size_t)(64u << 20)));
  }
  jqv r = jqv_string_raw(b.data ? b.data : "", b.len);
  jqv_buf_free(&b);
  return r;
}

/* ---- parser -------------------------------------------------------------------- */

typedef struct {
  const char *s;    /* text */
  size_t n, pos;    /* length, cursor */
  bool last;        /* no more input after s[n] */
  bool incomplete;  /* ran off the end (more input may complete it) */
  const char *err;  /* static message, or NULL */
  char errbuf[128]; /* formatted message */
  int depth;
  bool past;        /* the error's cursor is already past the character that showed it */
  struct keycache *keys; /* object keys seen lately (a stream parser's), or NULL */
} pstate;

/* Object keys repeat from value to value (the same few keys in every
 * object of an array or a JSON-lines file): a parser keeps the last key of
 * each hash slot and hands out another reference to it, instead of a new
 * string per object. A hit compares the bytes, so it is always exact. */
#define KEYCACHE_SLOTS 256
#define KEYCACHE_MAX_LEN 32
typedef struct keycache {
  jqv keys[KEYCACHE_SLOTS]; /* invalid: empty */
} keycache;

static void keycache_free(keycache *kc) {
  if (!kc) return;
  for (size_t i = 0; i < KEYCACHE_SLOTS; i++) jqv_free(kc->keys[i]);
  free(kc);
}

static inline __attribute__((always_inline)) void skip_ws(pstate *p) {
  while (p->pos < p->n) {
    char c = p->s[p->pos];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\x1e') p->pos++;
    else break;
  }
}

static jqv perr(pstate *p, const char *msg) {
  if (!p->err) p->err = msg;
  return jqv_invalid();
}

int jqv_json_escape(char e) {
  switch (e) {
  case '"': return '"';
  case '\\': return '\\';
  case '/': return '/';
  case 'b': return '\b';
  case 'f': return '\f';
  case 'n': return '\n';
  case 'r': return '\r';
  case 't': return '\t';
  default: return -1;
  }
}

static int hexval(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

static void buf_add_cp(jqv_buf *b, unsigned cp) {
  jqv s = jqv_string_from_codepoint((int)cp);
  jqv_buf_add(b, jqv_string_value(s), jqv_string_len(s));
  jqv_free(s);
}

static jqv parse_string(pstate *p, bool key) {
  p->pos++; /* opening quote */
  size_t start = p->pos;
  /* fast path: no escapes (bytes up to the closing quote; all ASCII
   * needs no UTF-8 check) */
  const unsigned char *u = (const unsigned char *)p->s;
  size_t end = start;
  unsigned high = 0;
  while (end < p->n && u[end] != '"' && u[end] != '\\') high |= u[end++];
  if (end < p->n && u[end] == '"') {
    size_t len = end - start;
    p->pos = end + 1;
    jqv *slot = NULL;
    if (key && p->keys && len <= KEYCACHE_MAX_LEN) {
      uint32_t h = 2166136261u;
      for (size_t j = start; j < end; j++) h = (h ^ u[j]) * 16777619u;
      slot = &p->keys->keys[(h ^ (h >> 8)) & (KEYCACHE_SLOTS - 1)];
      if (slot->kind == JQV_KIND_STRING && jqv_string_len(*slot) == len &&
          memcmp(jqv_string_value(*slot), p->s + start, len) == 0)
        return jqv_copy(*slot);
    }
    jqv r = high < 0x80 ? jqv_string_raw(p->s + start, len) : jqv_string_sized(p->s + start, len);
    if (slot) {
      jqv_free(*slot);
      *slot = jqv_copy(r);
    }
    return r;
  }
  p->pos = end;
  jqv_buf b = {0};
  jqv_buf_add(&b, p->s + start, p->pos - start);
  while (p->pos < p->n) {
    char c = p->s[p->pos];
    if (c == '"') {
      p->pos++;
      jqv r = jqv_string_sized(b.data ? b.data : "", b.len);
      jqv_buf_free(&b);
      return r;
    }
    if (c != '\\') {
      jqv_buf_addc(&b, c);
      p->pos++;
      continue;
    }
    if (p->pos + 1 >= p->n) break;
    char e = p->s[p->pos + 1];
    p->pos += 2;
    int simple = jqv_json_escape(e);
    if (simple >= 0) {
      jqv_buf_addc(&b, (char)simple);
      continue;
    }
    switch (e) {
    case 'u': {
      if (p->pos + 4 > p->n) {
        p->pos = p->n;
        goto incomplete;
      }
      unsigned cp = 0;
      for (int i = 0; i < 4; i++) {
        int h = hexval(p->s[p->pos + (size_t)i]);
        if (h < 0) {
          jqv_buf_free(&b);
          return perr(p, "Invalid escape");
        }
        cp = cp * 16 + (unsigned)h;
      }
      p->pos += 4;
      if (cp >= 0xd800 && cp < 0xdc00) {
        if (p->pos + 6 <= p->n && p->s[p->pos] == '\\' && p->s[p->pos + 1] == 'u') {
          unsigned lo = 0;
          bool ok = true;
          for (int i = 0; i < 4; i++) {
            int h = hexval(p->s[p->pos + 2 + (size_t)i]);
            if (h < 0) ok = false;
            lo = lo * 16 + (unsigned)(h < 0 ? 0 : h);
          }
          if (ok && lo >= 0xdc00 && lo < 0xe000) {
            cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
            p->pos += 6;
          } else cp = 0xfffd;
        } else if (p->pos + 6 > p->n && !p->last) {
          p->pos = p->n;
          goto incomplete;
        } else cp = 0xfffd;
      } else if (cp >= 0xdc00 && cp < 0xe000) cp = 0xfffd;
      buf_add_cp(&b, cp);
      break;
    }
    default: jqv_buf_free(&b); return perr(p, "Invalid escape");
    }
  }
incomplete:
  jqv_buf_free(&b);
  p->incomplete = true;
  return jqv_invalid();
}

static jqv parse_value(pstate *p);

static bool is_delim(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' || c == ']' || c == '}' || c == ':' ||
         c == '[' || c == '{' || c == '"' || c == '\x1e';
}

static jqv parse_atom(pstate *p) {
  size_t start = p->pos;
  {
    /* fast path: a plain number (-?D+ or -?D+.D+, no leading zero, at most
     * 15 significant digits and 22 decimals, no trailing zero, at most three
     * zeros after "0.") ended by a delimiter. Its digits over 10^decimals is
     * an exact quotient of exact doubles, so correctly rounded, and such a
     * double prints back as this very text (15 digits read back; the layout
     * is the same), so it keeps no literal: what the general path below,
     * with strtod and jqv_number_literal, decides for it. */
    static const double pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                   1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    const char *s = p->s;
    size_t i = start;
    bool neg = s[i] == '-';
    if (neg) i++;
    size_t d0 = i;
    uint64_t acc = 0;
    int sig = 0, frac = 0, zeros = 0;
    while (i < p->n && i - d0 < 16 && s[i] >= '0' && s[i] <= '9') acc = acc * 10 + (uint64_t)(s[i++] - '0');
    size_t nint = i - d0;
    bool ok = nint >= 1 && nint <= 15 && (nint == 1 || s[d0] != '0');
    sig = acc ? (int)nint : 0;
    if (ok && i < p->n && s[i] == '.') {
      i++;
      size_t f0 = i;
      while (i < p->n && frac <= 22 && s[i] >= '0' && s[i] <= '9') {
        if (sig == 0 && s[i] == '0') zeros++;
        else sig++;
        acc = acc * 10 + (uint64_t)(s[i++] - '0');
        frac++;
        if (sig > 15) break;
      }
      ok = frac >= 1 && frac <= 22 && sig <= 15 && s[i - 1] != '0' && (nint > 1 || s[d0] != '0' || zeros <= 3) &&
           i > f0;
    }
    if (ok && i < p->n && is_delim(s[i])) {
      p->pos = i;
      double d = frac ? (double)acc / pow10[frac] : (double)acc;
      return (jqv){JQV_KIND_NUMBER, 1, neg ? -d : d, NULL};
    }
  }
  while (p->pos < p->n && !is_delim(p->s[p->pos])) p->pos++;
  if (p->pos == p->n && !p->last) {
    p->incomplete = true;
    return jqv_invalid();
  }
  size_t len = p->pos - start;
  const char *t = p->s + start;
  if (len == 4 && memcmp(t, "null", 4) == 0) return jqv_null();
  if (len == 4 && memcmp(t, "true", 4) == 0) return jqv_true();
  if (len == 5 && memcmp(t, "false", 5) == 0) return jqv_false();
  if ((len == 3 && (memcmp(t, "nan", 3) == 0 || memcmp(t, "NaN", 3) == 0)) ||
      (len == 4 && (memcmp(t, "-nan", 4) == 0 || memcmp(t, "-NaN", 4) == 0)))
    return jqv_number(NAN);
  if (len == 8 && memcmp(t, "Infinity", 8) == 0) return jqv_number(INFINITY);
  if (len == 9 && memcmp(t, "-Infinity", 9) == 0) return jqv_number(-INFINITY);
  bool eof = p->pos == p->n; /* jq checks a literal cut by the end "at EOF" */
  /* jq checks a literal when it reads the character after it: the
   * message's column counts that character */
  if (!eof && (len == 0 || len > 4000 || (t[0] != '-' && (t[0] < '0' || t[0] > '9') && t[0] != '.') ||
               strspn(t, "0123456789+-.eE") < len)) {
    p->pos++;
    p->past = true;
    if (t[0] == '\'') return perr(p, "Invalid string literal; expected \", but got '");
  }
  if (eof && t[0] == '\'') return perr(p, "Invalid string literal; expected \", but got ' at EOF");
  if (len == 0 || len > 4000) return perr(p, eof ? "Invalid literal at EOF" : "Invalid literal");
  char tmp[4001];
  memcpy(tmp, t, len);
  tmp[len] = '\0';
  /* JSON number syntax (jq also accepts a leading '+'? no; it accepts what strtod does for digits) */
  const char *q = tmp;
  if (*q == '-') q++;
  if (!(*q >= '0' && *q <= '9') && *q != '.') {
    if (len <= 6 && strchr("tfn", tmp[0])) return perr(p, eof ? "Invalid literal at EOF" : "Invalid literal");
    return perr(p, eof ? "Invalid numeric literal at EOF" : "Invalid numeric literal");
  }
  char *end;
  double d = strtod(tmp, &end);
  if (*end || strchr(tmp, 'x') || strchr(tmp, 'X') || strchr(tmp, 'n') || strchr(tmp, 'N'))
    return perr(p, eof ? "Invalid numeric literal at EOF" : "Invalid numeric literal");
  return jqv_number_literal(tmp, len, d);
}

/* After a member of an array or object (close: its bracket): a comma (0),
 * the closing bracket (1), or the end of the text or an error (-1; *r is
 * then dropped for an invalid). */
static int member_end(pstate *p, char close, jqv *r) {
  skip_ws(p);
  if (p->pos >= p->n) {
    p->incomplete = true;
    jqv_free(*r);
    *r = jqv_invalid();
    return -1;
  }
  char d = p->s[p->pos++];
  if (d == close) return 1;
  if (d == ',') return 0;
  jqv_free(*r);
  if (d == ']' || d == '}') *r = perr(p, d == ']' ? "Unmatched ']'" : "Unmatched '}'");
  else *r = perr(p, "Expected separator between values");
  return -1;
}

/* Steps over the opening bracket of an array or object and the white
 * space after it; true when its closing bracket (close) follows at once,
 * which is then stepped over too: the container is empty. */
static bool open_empty(pstate *p, char close) {
  p->pos++;
  skip_ws(p);
  if (p->pos < p->n && p->s[p->pos] == close) {
    p->pos++;
    return true;
  }
  return false;
}

static jqv parse_value(pstate *p) {
  skip_ws(p);
  if (p->pos >= p->n) {
    p->incomplete = true;
    return jqv_invalid();
  }
  if (++p->depth > JQV_MAX_DEPTH) return perr(p, "Exceeds depth limit for parsing");
  char c = p->s[p->pos];
  jqv r;
  if (c == '"') {
    r = parse_string(p, false);
  } else if (c == '[') {
    r = jqv_array();
    if (!open_empty(p, ']')) {
      for (;;) {
        skip_ws(p);
        if (jqv_array_len(r) > 0 && p->pos < p->n && p->s[p->pos] == ']') {
          jqv_free(r);
          r = perr(p, "Expected another array element");
          break;
        }
        jqv v = parse_value(p);
        if (!jqv_is_valid(v)) {
          jqv_free(r);
          r = v;
          break;
        }
        r = jqv_array_append(r, v);
        if (member_end(p, ']', &r) != 0) break;
      }
    }
  } else if (c == '{') {
    r = jqv_object();
    if (!open_empty(p, '}')) {
      for (;;) {
        skip_ws(p);
        if (p->pos >= p->n) {
          p->incomplete = true;
          jqv_free(r);
          r = jqv_invalid();
          break;
        }
        if (p->s[p->pos] == '}' && jqv_object_len(r) > 0) {
          jqv_free(r);
          r = perr(p, "Expected another key-value pair");
          break;
        }
        if (p->s[p->pos] != '"') {
          jqv_free(r);
          /* jq reads a bare key as a literal first: its error comes first */
          if (p->s[p->pos] == '\'') {
            jqv a = parse_atom(p);
            if (p->incomplete || p->err) {
              r = a;
              break;
            }
            jqv_free(a);
          }
          r = perr(p, "Object keys must be strings");
          break;
        }
        jqv k = parse_string(p, true);
        if (!jqv_is_valid(k)) {
          jqv_free(r);
          r = k;
          break;
        }
        skip_ws(p);
        if (p->pos >= p->n) {
          p->incomplete = true;
          jqv_free(k);
          jqv_free(r);
          r = jqv_invalid();
          break;
        }
        if (p->s[p->pos] != ':') {
          jqv_free(k);
          jqv_free(r);
          r = perr(p, "Objects must consist of key:value pairs");
          break;
        }
        p->pos++;
        jqv v = parse_value(p);
        if (!jqv_is_valid(v)) {
          jqv_free(k);
          jqv_free(r);
          r = v;
          break;
        }
        r = jqv_object_set(r, k, v);
        if (member_end(p, '}', &r) != 0) break;
      }
    }
  } else if (c == ']' || c == '}') {
    r = perr(p, c == ']' ? "Unmatched ']'" : "Unmatched '}'");
  } else if (c == ',') {
    r = perr(p, "Expected value before ','");
  } else if (c == ':') {
    r = perr(p, "':' not as part of an object");
  } else {
    r = parse_atom(p);
  }
  p->depth--;
  return r;
}

/* Line and column of pos (jq counts lines from 1, columns from 0). */
static void line_col(const char *s, size_t pos, unsigned long base_line, unsigned long *line, unsigned long *col) {
  unsigned long l = base_line, c = 0;
  for (size_t i = 0; i < pos; i++) {
    if (s[i] == '\n') l++, c = 0;
    else c++;
  }
  *line = l;
  *col = c;
}

jqv jqv_parse(const char *s, size_t n) {
  pstate p = {.s = s, .n = n, .last = true};
  skip_ws(&p);
  if (p.pos >= n) return jqv_invalid_with_msg(jqv_string("Expected JSON value"));
  jqv v = parse_value(&p);
  if (jqv_is_valid(v)) {
    skip_ws(&p);
    if (p.pos < n) {
      jqv_free(v);
      v = jqv_invalid();
      p.err = "Unexpected extra JSON values";
    }
  }
  if (!jqv_is_valid(v)) {
    unsigned long line, col;
    line_col(s, p.pos, 1, &line, &col);
    const char *msg = p.err ? p.err : "Unfinished JSON term at EOF";
    if (!p.err) line++, col = 0;
    return jqv_invalid_with_msg(jqv_string_fmt("%s at line %lu, column %lu", msg, line, col));
  }
  return v;
}

struct jqv_parser {
  char *buf;            /* unparsed bytes (in base) */
  char *base;           /* the allocation */
  size_t len, cap;      /* bytes held / allocated */
  size_t retry_at;      /* don't retry an incomplete value until len reaches this */
  bool last;            /* all input has been fed */
  bool seq;             /* RS-separated (--seq) */
  bool wait_rs;         /* --seq: skipping to the next RS after an error */
  bool bom_checked;     /* a leading UTF-8 BOM was looked for */
  unsigned long line;   /* line number of buf[0] */
  unsigned long col;    /* its column (characters after the last newline consumed) */
  unsigned long line_now; /* lines consumed through the last value */
  /* --stream */
  bool stream;
  struct sframe {
    bool obj;           /* object (else array) */
    char want;          /* 'v' value, 'k' key, ':' colon, ',' comma or end */
    size_t index;       /* array: index of the current element */
    jqv key;            /* object: the current key (or invalid) */
  } *st;
  size_t depth, st_cap;
  /* element mode */
  bool each, in_array, each_first, skip;
  jqv err_path;         /* where the parse error was (--stream-errors) */
  keycache *keys;       /* recent object keys (NULL: none, out of memory) */
};

jqv_parser *jqv_parser_new(bool seq) {
  jqv_parser *p = calloc(1, sizeof *p);
  if (p) {
    p->seq = seq;
    p->err_path = jqv_invalid();
    p->line = 1;
    p->line_now = 0;
    p->keys = calloc(1, sizeof *p->keys); /* all invalid (kind 0) */
  }
  return p;
}
void jqv_parser_free(jqv_parser *p) {
  if (!p) return;
  for (size_t i = 0; i < p->depth; i++) jqv_free(p->st[i].key);
  free(p->st);
  jqv_free(p->err_path);
  keycache_free(p->keys);
  free(p->base);
  free(p);
}
void jqv_parser_feed(jqv_parser *p, const char *s, size_t n, bool last) {
  if (n) {
    /* consumed bytes are dropped here, once per chunk, not per value */
    if (p->buf != p->base) {
      if (p->len) memmove(p->base, p->buf, p->len);
      p->buf = p->base;
    }
    /* on failure the caller's budget check reports it */
    if (cmd_grow(&p->base, &p->cap, p->len + n, 1)) return;
    p->buf = p->base;
    memcpy(p->buf + p->len, s, n);
    p->len += n;
  }
  if (last) p->last = true;
}

static jqv value_next(jqv_parser *p);

static void consume(jqv_parser *p, size_t n) {
  if (!p->buf) return;
  const char *s = p->buf, *e = p->buf + n, *nl;
  while ((nl = memchr(s, '\n', (size_t)(e - s))) != NULL) {
    p->line++;
    p->col = 0;
    s = nl + 1;
  }
  p->col += (unsigned long)(e - s);
  p->buf += n;
  p->len -= n;
  p->retry_at = 0;
}

static jqv stream_next(jqv_parser *p);
static jqv each_next(jqv_parser *p);

jqv jqv_parser_next(jqv_parser *p) {
  if (!p->bom_checked && (p->len >= 3 || p->last)) {
    p->bom_checked = true;
    if (p->len >= 3 && memcmp(p->buf, "\xef\xbb\xbf", 3) == 0) {
      memmove(p->buf, p->buf + 3, p->len - 3);
      p->len -= 3;
    }
  }
  if (p->stream) return stream_next(p);
  if (p->each) return each_next(p);
  return value_next(p);
}

static jqv value_next(jqv_parser *p) {
  if (!p->last && p->len < p->retry_at) return jqv_invalid();
  pstate st = {.s = p->buf, .n = p->len, .last = p->last, .keys = p->keys};
  if (p->wait_rs) {
    /* --seq: after a parse error the input is skipped up to the next RS */
    const char *rs = memchr(p->buf, '\x1e', p->len);
    consume(p, rs ? (size_t)(rs - p->buf) : p->len);
    if (!rs) return jqv_invalid();
    p->wait_rs = false;
    st.n = p->len;
  }
  skip_ws(&st);
  if (st.pos >= st.n) {
    consume(p, st.pos);
    p->line_now = p->line;
    return jqv_invalid();
  }
  if (p->seq) {
    /* --seq: a value must end before the next RS; one cut by it is reported
     * and dropped, and so is one with an error (up to the next RS) */
    const char *rs = memchr(p->buf + st.pos, '\x1e', p->len - st.pos);
    if (rs || p->last) {
      size_t r = rs ? (size_t)(rs - p->buf) : p->len;
      pstate sq = {.s = p->buf, .n = r, .pos = st.pos, .last = true, .keys = p->keys};
      jqv v = parse_value(&sq);
      if (!jqv_is_valid(v)) {
        unsigned long line, col;
        const char *msg = sq.err;
        size_t at = sq.past || sq.pos >= r ? sq.pos : sq.pos + 1;
        if (sq.incomplete && !sq.err) {
          msg = rs ? "Truncated value" : p->buf[st.pos] == '"' ? "Unfinished string at EOF" : "Unfinished JSON term at EOF";
          at = rs ? r + 1 : r;
        }
        line_col(p->buf, at, p->line, &line, &col);
        if (line == p->line) col += p->col;
        consume(p, r);
        p->line_now = line;
        return jqv_invalid_with_msg(jqv_string_fmt("%s at line %lu, column %lu", msg ? msg : "Invalid JSON", line, col));
      }
      if (rs && v.kind == JQV_KIND_NUMBER && sq.pos == r) {
        /* a number right before an RS may have been cut short */
        unsigned long line, col;
        line_col(p->buf, r + 1, p->line, &line, &col);
        if (line == p->line) col += p->col;
        jqv_free(v);
        consume(p, r);
        p->line_now = line;
        return jqv_invalid_with_msg(
            jqv_string_fmt("Potentially truncated top-level numeric value at line %lu, column %lu", line, col));
      }
      consume(p, sq.pos);
      p->line_now = p->line;
      return v;
    }
  }
  jqv v = parse_value(&st);
  if (jqv_is_valid(v)) {
    /* count newlines through the value and its trailing spaces on the same line */
    consume(p, st.pos);
    p->line_now = p->line;
    for (size_t i = 0; i < p->len && (p->buf[i] == ' ' || p->buf[i] == '\t' || p->buf[i] == '\r' || p->buf[i] == '\n'); i++)
      if (p->buf[i] == '\n') {
        p->line_now++;
        break;
      }
    return v;
  }
  if (st.incomplete && !st.err) {
    if (!p->last) {
      p->retry_at = p->len * 2;
      return jqv_invalid();
    }
    unsigned long line, col;
    line_col(p->buf, p->len, p->line, &line, &col);
    p->len = 0;
    p->line_now = line;
    return jqv_invalid_with_msg(jqv_string_fmt("Unfinished JSON term at EOF at line %lu, column %lu", line + 1, 0ul));
  }
  unsigned long line, col;
  size_t at = st.pos < p->len && !st.past ? st.pos + 1 : st.pos;
  line_col(p->buf, at, p->line, &line, &col);
  if (line == p->line) col += p->col; /* the error is on buf[0]'s line */
  jqv msg = jqv_string_fmt("%s at line %lu, column %lu", st.err ? st.err : "Invalid JSON", line, col);
  /* jq stops reading the input after a parse error */
  p->len = 0;
  p->last = true;
  p->line_now = line;
  return jqv_invalid_with_msg(msg);
}

unsigned long jqv_parser_line(const jqv_parser *p) { return p->line_now; }

bool jqv_parser_remaining(const jqv_parser *p) {
  for (size_t i = 0; i < p->len; i++)
    if (!strchr(" \t\r\n", p->buf[i])) return true;
  return false;
}

/* ---- --stream events ---------------------------------------------------------- */

void jqv_parser_set_stream(jqv_parser *p) { p->stream = true; }

/* The path to the current position: indexes and keys of the open containers. */
static jqv stream_path(const jqv_parser *p, size_t depth) {
  jqv path = jqv_array();
  for (size_t i = 0; i < depth; i++) {
    const struct sframe *f = &p->st[i];
    if (f->obj) path = jqv_array_append(path, jqv_is_valid(f->key) ? jqv_copy(f->key) : jqv_null());
    else path = jqv_array_append(path, jqv_number((double)f->index));
  }
  return path;
}

jqv jqv_parser_stream_path(const jqv_parser *p) {
  return jqv_is_valid(p->err_path) ? jqv_copy(p->err_path) : stream_path(p, p->depth);
}

/* A parse error at buffer offset `at` (jq's column counts that character). */
static void stream_stop(jqv_parser *p);
static jqv stream_error(jqv_parser *p, const char *msg, size_t at) {
  unsigned long line, col;
  if (at > p->len) at = p->len;
  line_col(p->buf, at, p->line, &line, &col);
  if (line == p->line) col += p->col;
  stream_stop(p);
  p->line_now = line;
  return jqv_invalid_with_msg(jqv_string_fmt("%s at line %lu, column %lu", msg, line, col));
}

/* After a parse error the input ends (jq reads no further); the path of
 * the error is kept for --stream-errors. */
static void stream_stop(jqv_parser *p) {
  if (!jqv_is_valid(p->err_path)) p->err_path = stream_path(p, p->depth);
  for (size_t i = 0; i < p->depth; i++) jqv_free(p->st[i].key);
  p->depth = 0;
  p->in_array = p->skip = false;
  p->len = 0;
  p->last = true;
}

/* Input ended inside a value: jq's message, at the end of the input. */
static jqv eof_error(jqv_parser *p, bool in_string) {
  consume(p, p->len);
  stream_stop(p);
  p->line_now = p->line;
  return jqv_invalid_with_msg(jqv_string_fmt("%s at EOF at line %lu, column %lu",
                                             in_string ? "Unfinished string" : "Unfinished JSON term", p->line, p->col));
}

/* Where jq notices an unexpected token at buffer offset i: a string at its
 * closing quote, a literal at the character after it, others at once. */
static size_t token_seen_at(const jqv_parser *p, size_t i) {
  char c = p->buf[i];
  if (c == '"') {
    for (size_t j = i + 1; j < p->len; j++) {
      if (p->buf[j] == '\\') j++;
      else if (p->buf[j] == '"') return j + 1;
    }
    return p->len;
  }
  if (strchr("[]{},:", c)) return i + 1;
  size_t j = i;
  while (j < p->len && !is_delim(p->buf[j])) j++;
  return j < p->len ? j + 1 : j;
}

static bool stream_push(jqv_parser *p, bool obj) {
  if (p->depth >= JQV_MAX_DEPTH) return false;
  if (cmd_grow(&p->st, &p->st_cap, p->depth + 1, sizeof *p->st)) return false;
  p->st[p->depth++] = (struct sframe){obj, obj ? 'k' : 'v', 0, jqv_invalid()};
  return true;
}

/* After a value at the current level: the container wants a comma or its end. */
static void stream_after_value(jqv_parser *p) {
  if (p->depth) p->st[p->depth - 1].want = ',';
  else p->line_now = p->line;
}

static jqv stream_next(jqv_parser *p) {
  if (!p->last && p->len < p->retry_at) return jqv_invalid();
  for (;;) {
    pstate st = {.s = p->buf, .n = p->len, .last = p->last};
    skip_ws(&st);
    consume(p, st.pos);
    if (p->len == 0) {
      if (!p->last) return jqv_invalid();
      if (p->depth) return eof_error(p, false);
      p->line_now = p->line;
      return jqv_invalid();
    }
    struct sframe *f = p->depth ? &p->st[p->depth - 1] : NULL;
    char c = p->buf[0];
    char want = f ? f->want : 'v';
    if (want == ',') {
      if (c == ',') {
        consume(p, 1);
        if (f->obj) {
          f->want = 'k';
        } else {
          f->index++;
          f->want = 'v';
        }
        continue;
      }
      if (c == (f->obj ? '}' : ']')) {
        /* the container ends: [path of its last child] */
        jqv ev = jqv_array_append(jqv_array(), stream_path(p, p->depth));
        consume(p, 1);
        jqv_free(f->key);
        p->depth--;
        stream_after_value(p);
        return ev;
      }
      if (c == ']' || c == '}') return stream_error(p, c == ']' ? "Unmatched ']' in the middle of an object" : "Unmatched '}' in the middle of an array", 1);
      return stream_error(p, "Expected separator between values", token_seen_at(p, 0));
    }
    if (want == ':') {
      if (c != ':')
        return strchr("[]{},", c) ? stream_error(p, "Objects must consist of key:value pairs", 1)
                                  : stream_error(p, "Expected separator between values", token_seen_at(p, 0));
      consume(p, 1);
      f->want = 'v';
      continue;
    }
    if (want == 'k') {
      if (c == '}' && f->index == 0 && !jqv_is_valid(f->key)) {
        /* {} seen only now: cannot happen (empty objects are leaves) */
        return stream_error(p, "Expected another key-value pair", 1);
      }
      if (c != '"') return stream_error(p, c == '}' ? "Expected another key-value pair" : "Object keys must be strings", token_seen_at(p, 0));
      pstate ks = {.s = p->buf, .n = p->len, .last = p->last, .keys = p->keys};
      jqv k = parse_string(&ks, true);
      if (!jqv_is_valid(k)) {
        if (ks.incomplete && !ks.err) {
          if (p->last) return eof_error(p, true);
          p->retry_at = p->len * 2;
          return jqv_invalid();
        }
        return stream_error(p, ks.err ? ks.err : "Invalid string", ks.pos);
      }
      consume(p, ks.pos);
      jqv_free(f->key);
      f->key = k;
      f->want = ':';
      continue;
    }
    /* a value */
    if (c == ']' || c == '}' || c == ',' || c == ':') {
      if (!f) return stream_error(p, c == ']' ? "Unmatched ']' at the top-level" : c == '}' ? "Unmatched '}' at the top-level" : c == ',' ? "Expected value before ','" : "':' not as part of an object", 1);
      return stream_error(p, c == ']' && !f->obj ? "Expected another array element" : "Expected value", 1);
    }
    if (c == '[' || c == '{') {
      /* an empty container is a leaf */
      size_t i = 1;
      while (i < p->len && strchr(" \t\r\n", p->buf[i])) i++;
      if (i >= p->len && !p->last) {
        p->retry_at = p->len + 1;
        return jqv_invalid();
      }
      if (i < p->len && p->buf[i] == (c == '[' ? ']' : '}')) {
        jqv ev = JQV_ARRAY(stream_path(p, p->depth), c == '[' ? jqv_array() : jqv_object());
        consume(p, i + 1);
        stream_after_value(p);
        return ev;
      }
      if (!stream_push(p, c == '{')) return stream_error(p, "Exceeds depth limit for parsing", 1);
      consume(p, 1);
      continue;
    }
    pstate vs = {.s = p->buf, .n = p->len, .last = p->last};
    jqv v = c == '"' ? parse_string(&vs, false) : parse_atom(&vs);
    if (!jqv_is_valid(v)) {
      if (vs.incomplete && !vs.err) {
        if (p->last) return eof_error(p, c == '"');
        p->retry_at = p->len * 2;
        return jqv_invalid();
      }
      return stream_error(p, vs.err ? vs.err : "Invalid literal", vs.past || vs.pos >= p->len ? vs.pos : vs.pos + 1);
    }
    jqv ev = JQV_ARRAY(stream_path(p, p->depth), v);
    consume(p, vs.pos);
    stream_after_value(p);
    return ev;
  }
}

/* ---- element mode ------------------------------------------------------------ */

void jqv_parser_set_each(jqv_parser *p) { p->each = true; }
bool jqv_parser_in_array(const jqv_parser *p) { return p->in_array; }
void jqv_parser_skip_array(jqv_parser *p) {
  if (p->in_array) p->skip = true;
}

static jqv each_next(jqv_parser *p) {
  for (;;) {
    if (!p->in_array) {
      pstate st = {.s = p->buf, .n = p->len, .last = p->last};
      skip_ws(&st);
      if (st.pos < st.n && p->buf[st.pos] == '[') {
        /* the top-level array is taken apart (unless it is empty) */
        size_t i = st.pos + 1;
        while (i < p->len && strchr(" \t\r\n", p->buf[i])) i++;
        if (i >= p->len && !p->last) {
          p->retry_at = p->len + 1;
          return jqv_invalid();
        }
        if (i < p->len && p->buf[i] == ']') return value_next(p);
        consume(p, st.pos + 1);
        p->in_array = p->each_first = true;
        p->skip = false;
      } else {
        return value_next(p);
      }
    }
    if (!p->last && p->len < p->retry_at) return jqv_invalid();
    pstate st = {.s = p->buf, .n = p->len, .last = p->last, .keys = p->keys};
    skip_ws(&st);
    if (st.pos >= st.n) {
      consume(p, st.pos);
      if (p->last) return eof_error(p, false);
      return jqv_invalid();
    }
    if (!p->each_first) {
      char c = p->buf[st.pos];
      if (c == ']') {
        consume(p, st.pos + 1);
        p->in_array = p->skip = false;
        p->line_now = p->line;
        continue;
      }
      if (c != ',') return stream_error(p, "Expected separator between values", st.pos + 1);
      st.pos++;
      skip_ws(&st);
      if (st.pos >= st.n) {
        if (p->last) return eof_error(p, false);
        return jqv_invalid();
      }
    }
    size_t start = st.pos;
    jqv v = parse_value(&st);
    if (!jqv_is_valid(v)) {
      if (st.incomplete && !st.err) {
        if (p->last) return eof_error(p, false);
        p->retry_at = p->len * 2;
        return jqv_invalid();
      }
      return stream_error(p, st.err ? st.err : "Invalid JSON", st.past || st.pos >= p->len ? st.pos : st.pos + 1);
    }
    (void)start;
    consume(p, st.pos);
    p->each_first = false;
    p->line_now = p->line;
    if (p->skip) {
      jqv_free(v);
      continue;
    }
    return v;
  }
}
