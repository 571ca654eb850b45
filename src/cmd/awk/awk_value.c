/*
 * awk_value.c - strings, values and conversions for the awk command.
 *
 * Strings are reference counted and linked into the interpreter's live list,
 * so that after a fatal error (a longjmp out of any depth) the driver frees
 * every string still alive: no leak whatever the program does. The list
 * costs two pointer writes per allocation.
 *
 * Conversions follow gawk 5: integral numbers print as integers whatever
 * their size ("%d", or "%.0f" beyond the long range), others with
 * CONVFMT/OFMT; infinities and NaN print as "+inf" "-inf" "+nan" "-nan".
 * Strings convert with a leading-number scan (no hex, no "inf" without a
 * sign), and input strings are numeric ("strnum") only when the whole string,
 * blanks aside, is a number. Character functions count UTF-8 characters (the
 * tests run under C.UTF-8 like gawk); invalid bytes count as one character.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/awk/awk.h"
#include "sh/util.h" /* sh_fmt_i64 */

/* ---- strings ------------------------------------------------------------------ */

static void str_link(awk_interp *in, awk_str *s) {
  s->next = in->live.next;
  s->prev = &in->live;
  in->live.next->prev = s;
  in->live.next = s;
  in->live_count++;
}

awk_str *awk_str_alloc(awk_interp *in, size_t cap) {
  if (cap > in->ctx->max_string)
    awk_fatal(in, "string too long (limit %llu bytes)",
              (unsigned long long)in->ctx->max_string);
  awk_mem_charge(in, sizeof(awk_str) + cap + 1);
  awk_str *s = malloc(sizeof(awk_str) + cap + 1);
  if (!s) awk_fatal(in, "out of memory");
  s->ref = 1;
  s->ascii = 0;
  s->len = 0;
  s->cap = cap;
  s->p[0] = 0;
  str_link(in, s);
  return s;
}

awk_str *awk_str_new(awk_interp *in, const char *p, size_t len) {
  awk_str *s = awk_str_alloc(in, len);
  if (len) memcpy(s->p, p, len);
  s->p[len] = 0;
  s->len = len;
  return s;
}

awk_str *awk_str_cstr(awk_interp *in, const char *p) { return awk_str_new(in, p, strlen(p)); }

void awk_str_unref(awk_interp *in, awk_str *s) {
  if (!s) return;
  if (--s->ref) return;
  s->prev->next = s->next;
  s->next->prev = s->prev;
  in->live_count--;
  awk_mem_release(in, sizeof(awk_str) + s->cap + 1);
  free(s);
}

void awk_str_reserve(awk_interp *in, awk_str **sp, size_t need) {
  awk_str *s = *sp;
  if (s && s->ref == 1 && s->cap >= need) return;
  size_t cap = s ? s->cap : 0;
  if (cap < need) {
    cap = cap ? cap * 2 : 32;
    if (cap < need) cap = need;
    if (cap > in->ctx->max_string) cap = need;
  }
  awk_str *n = awk_str_alloc(in, cap);
  if (s) {
    memcpy(n->p, s->p, s->len + 1);
    n->len = s->len;
    awk_str_unref(in, s);
  }
  *sp = n;
}

void awk_str_append(awk_interp *in, awk_str **sp, const char *p, size_t n) {
  size_t len = *sp ? (*sp)->len : 0;
  if (n > in->ctx->max_string || len + n > in->ctx->max_string)
    awk_fatal(in, "string too long (limit %llu bytes)",
              (unsigned long long)in->ctx->max_string);
  awk_str_reserve(in, sp, len + n);
  memcpy((*sp)->p + len, p, n);
  (*sp)->len = len + n;
  (*sp)->p[len + n] = 0;
  (*sp)->ascii = 0;
}

void awk_str_appendc(awk_interp *in, awk_str **sp, char c) { awk_str_append(in, sp, &c, 1); }

bool awk_str_is_ascii(awk_str *s) {
  if (!s->ascii) {
    const unsigned char *p = (const unsigned char *)s->p;
    size_t i = 0, n = s->len;
    unsigned char acc = 0;
    for (; i + 8 <= n; i += 8) {
      uint64_t w;
      memcpy(&w, p + i, 8);
      if (w & 0x8080808080808080ull) {
        acc = 0x80;
        break;
      }
    }
    for (; i < n && !acc; i++) acc |= p[i] & 0x80;
    s->ascii = acc ? 2 : 1;
  }
  return s->ascii == 1;
}

/* ---- UTF-8 --------------------------------------------------------------------- */

size_t awk_utf8_char(const char *s, size_t len) {
  const unsigned char *p = (const unsigned char *)s;
  if (!len) return 0;
  unsigned c = p[0];
  size_t n;
  if (c < 0x80) return 1;
  if (c >= 0xc2 && c <= 0xdf) n = 2;
  else if (c >= 0xe0 && c <= 0xef) n = 3;
  else if (c >= 0xf0 && c <= 0xf4) n = 4;
  else return 1;
  if (n > len) return 1;
  for (size_t i = 1; i < n; i++)
    if ((p[i] & 0xc0) != 0x80) return 1;
  if (n == 3) {
    if (c == 0xe0 && p[1] < 0xa0) return 1;
    if (c == 0xed && p[1] >= 0xa0) return 1;
  } else if (n == 4) {
    if (c == 0xf0 && p[1] < 0x90) return 1;
    if (c == 0xf4 && p[1] >= 0x90) return 1;
  }
  return n;
}

size_t awk_utf8_len(const char *s, size_t len) {
  size_t n = 0, i = 0;
  while (i < len) {
    if ((unsigned char)s[i] < 0x80) {
      i++;
    } else {
      i += awk_utf8_char(s + i, len - i);
    }
    n++;
  }
  return n;
}

size_t awk_utf8_off(const char *s, size_t len, size_t nchars) {
  size_t i = 0;
  while (nchars && i < len) {
    i += (unsigned char)s[i] < 0x80 ? 1 : awk_utf8_char(s + i, len - i);
    nchars--;
  }
  return i;
}

size_t awk_utf8_encode(uint32_t cp, char *out) {
  if (cp < 0x80) {
    out[0] = (char)cp;
    return 1;
  }
  if (cp < 0x800) {
    out[0] = (char)(0xc0 | (cp >> 6));
    out[1] = (char)(0x80 | (cp & 0x3f));
    return 2;
  }
  if (cp < 0x10000) {
    out[0] = (char)(0xe0 | (cp >> 12));
    out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
    out[2] = (char)(0x80 | (cp & 0x3f));
    return 3;
  }
  if (cp > 0x10ffff) cp = 0xfffd;
  out[0] = (char)(0xf0 | (cp >> 18));
  out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
  out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
  out[3] = (char)(0x80 | (cp & 0x3f));
  return 4;
}

/* ---- numbers -------------------------------------------------------------------- */

static bool is_blank_byte(unsigned char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/* Length of the decimal number syntax at s (no leading blanks), 0 if none. */
static size_t number_span(const char *s, size_t len, bool *special) {
  size_t i = 0;
  *special = false;
  if (i < len && (s[i] == '+' || s[i] == '-')) {
    if (len - i >= 4 && (!strncasecmp(s + 1, "inf", 3) || !strncasecmp(s + 1, "nan", 3))) {
      *special = true;
      return 4;
    }
    i++;
  }
  size_t digits = 0;
  while (i < len && s[i] >= '0' && s[i] <= '9') i++, digits++;
  if (i < len && s[i] == '.') {
    i++;
    while (i < len && s[i] >= '0' && s[i] <= '9') i++, digits++;
  }
  if (!digits) return 0;
  if (i < len && (s[i] == 'e' || s[i] == 'E')) {
    size_t j = i + 1;
    if (j < len && (s[j] == '+' || s[j] == '-')) j++;
    if (j < len && s[j] >= '0' && s[j] <= '9') {
      while (j < len && s[j] >= '0' && s[j] <= '9') j++;
      i = j;
    }
  }
  return i;
}

static double span_to_double(const char *s, size_t n, bool special) {
  if (special) {
    bool neg = s[0] == '-';
    if (!strncasecmp(s + 1, "inf", 3)) return neg ? -INFINITY : INFINITY;
    return neg ? -NAN : NAN;
  }
  char small[128];
  char *buf = small;
  if (n >= sizeof small) {
    buf = malloc(n + 1);
    if (!buf) return 0;
  }
  memcpy(buf, s, n);
  buf[n] = 0;
  double d = strtod(buf, NULL);
  if (buf != small) free(buf);
  return d;
}

double awk_strtod(const char *s, size_t len) {
  size_t i = 0;
  while (i < len && is_blank_byte((unsigned char)s[i])) i++;
  /* fast path: small integers */
  size_t j = i;
  bool neg = false;
  if (j < len && (s[j] == '-' || s[j] == '+')) neg = s[j++] == '-';
  uint64_t v = 0;
  size_t k = j;
  while (k < len && k - j < 15 && s[k] >= '0' && s[k] <= '9') v = v * 10 + (uint64_t)(s[k++] - '0');
  if (k > j && (k == len || (s[k] != '.' && s[k] != 'e' && s[k] != 'E' &&
                             !(s[k] >= '0' && s[k] <= '9'))))
    return neg ? -(double)v : (double)v;
  bool special;
  size_t n = number_span(s + i, len - i, &special);
  if (!n) return 0;
  return span_to_double(s + i, n, special);
}

bool awk_looks_numeric(const char *s, size_t len, double *d) {
  size_t i = 0, e = len;
  while (i < e && is_blank_byte((unsigned char)s[i])) i++;
  while (e > i && is_blank_byte((unsigned char)s[e - 1])) e--;
  if (i == e) return false;
  bool special;
  size_t n = number_span(s + i, e - i, &special);
  if (n != e - i) return false;
  *d = span_to_double(s + i, n, special);
  return true;
}

double awk_to_num(awk_interp *in, awk_val *v) {
  (void)in;
  switch (v->type) {
  case AWK_NUM:
    return v->num;
  case AWK_UNINIT:
    return 0;
  default:
    if (!(v->flags & AWK_VF_NUMOK)) {
      v->num = awk_strtod(v->s->p, v->s->len);
      v->flags |= AWK_VF_NUMOK;
    }
    return v->num;
  }
}

/* Whether fmt is "text %[flags][width][.prec]conv text" with one float-ish
 * conversion that snprintf can take with a double. */
static bool simple_float_format(const char *fmt) {
  int convs = 0;
  for (const char *p = fmt; *p; p++) {
    if (*p != '%') continue;
    if (p[1] == '%') {
      p++;
      continue;
    }
    p++;
    while (*p && strchr("-+ #0'", *p)) p++;
    int w = 0;
    while (*p >= '0' && *p <= '9') {
      w = w * 10 + (*p++ - '0');
      if (w > 500) return false;
    }
    if (*p == '.') {
      p++;
      int pr = 0;
      while (*p >= '0' && *p <= '9') {
        pr = pr * 10 + (*p++ - '0');
        if (pr > 500) return false;
      }
    }
    if (!*p || !strchr("eEfFgGaA", *p)) return false;
    convs++;
  }
  return convs == 1;
}

awk_str *awk_num_to_str(awk_interp *in, double d, const char *fmt) {
  char buf[600];
  if (isnan(d)) return awk_str_cstr(in, signbit(d) ? "-nan" : "+nan");
  if (isinf(d)) return awk_str_cstr(in, d < 0 ? "-inf" : "+inf");
  if (d > -9.2e18 && d < 9.2e18 && d == (double)(long long)d) {
    size_t n = sh_fmt_i64(buf, (int64_t)d);
    awk_str *s = awk_str_new(in, buf, n);
    s->ascii = 1;
    return s;
  }
  if (d == trunc(d)) {
    /* integral beyond the long range: exact decimal expansion */
    char *big = NULL;
    int n = asprintf(&big, "%.0f", d);
    if (n < 0) awk_fatal(in, "out of memory");
    awk_str *s = awk_str_new(in, big, (size_t)n);
    free(big);
    return s;
  }
  if (simple_float_format(fmt)) {
    int n = snprintf(buf, sizeof buf, fmt, d);
    if (n < 0) n = 0;
    if ((size_t)n >= sizeof buf) n = sizeof buf - 1;
    return awk_str_new(in, buf, (size_t)n);
  }
  /* a general format: use the printf engine with one numeric argument */
  awk_val arg = awk_num(d);
  awk_str *out = NULL;
  extern size_t awk_format_vals(awk_interp * in, const char *fmt, size_t fmtlen, awk_val *args,
                                int nargs, awk_str **out);
  awk_format_vals(in, fmt, strlen(fmt), &arg, 1, &out);
  return out;
}

awk_str *awk_to_str(awk_interp *in, awk_val *v) {
  switch (v->type) {
  case AWK_UNINIT:
    return awk_str_new(in, "", 0);
  case AWK_NUM:
    return awk_num_to_str(in, v->num, in->convfmt->p);
  default:
    return awk_str_ref(v->s);
  }
}

awk_str *awk_to_str_out(awk_interp *in, awk_val *v) {
  if (v->type == AWK_NUM) return awk_num_to_str(in, v->num, in->ofmt->p);
  return awk_to_str(in, v);
}

/* Whether a STRNUM's text looks numeric. The test runs once: its answer, and
 * the number when it is one, stay in the value's flags. For awk_is_true, the
 * comparisons and asort, which all decide by it. */
bool awk_strnum_looks_numeric(awk_val *v) {
  if (!(v->flags & AWK_VF_CHECKED)) {
    double d;
    v->flags |= AWK_VF_CHECKED;
    if (awk_looks_numeric(v->s->p, v->s->len, &d)) {
      v->flags |= AWK_VF_LOOKSNUM | AWK_VF_NUMOK;
      v->num = d;
    }
  }
  return (v->flags & AWK_VF_LOOKSNUM) != 0;
}

bool awk_is_true(awk_interp *in, awk_val *v) {
  switch (v->type) {
  case AWK_UNINIT:
    return false;
  case AWK_NUM:
    return v->num != 0;
  case AWK_STR:
    return v->s->len != 0;
  default: /* STRNUM: numeric value if it looks numeric, else non-empty */
    if (awk_strnum_looks_numeric(v)) return v->num != 0;
    (void)in;
    return v->s->len != 0;
  }
}

static bool val_is_numeric(awk_val *v) {
  switch (v->type) {
  case AWK_UNINIT:
  case AWK_NUM:
    return true;
  case AWK_STR:
    return false;
  default:
    return awk_strnum_looks_numeric(v);
  }
}

/* -1, 0, 1, or 2 when unordered (a NaN: only != holds) */
static int cmp_doubles(double a, double b) {
  if (isnan(a) || isnan(b)) return 2;
  return a < b ? -1 : a > b ? 1 : 0;
}

int awk_compare(awk_interp *in, awk_val *a, awk_val *b) {
  if (val_is_numeric(a) && val_is_numeric(b)) {
    if (a->type == AWK_UNINIT && b->type == AWK_UNINIT) return 0;
    return cmp_doubles(awk_to_num(in, a), awk_to_num(in, b));
  }
  awk_str *sa = awk_to_str(in, a), *sb = awk_to_str(in, b);
  size_t n = sa->len < sb->len ? sa->len : sb->len;
  int c;
  if (in->icase) {
    c = 0;
    for (size_t i = 0; i < n && !c; i++) {
      int x = tolower((unsigned char)sa->p[i]), y = tolower((unsigned char)sb->p[i]);
      c = x - y;
    }
  } else {
    c = n ? memcmp(sa->p, sb->p, n) : 0;
  }
  if (!c) c = sa->len < sb->len ? -1 : sa->len > sb->len ? 1 : 0;
  awk_str_unref(in, sa);
  awk_str_unref(in, sb);
  return c < 0 ? -1 : c > 0 ? 1 : 0;
}
