/*
 * sort_keys.c - key fields and comparisons of GNU sort (see sort_keys.h).
 *
 * Re-implemented from the documented behaviour of coreutils 9.1 and checked
 * against it: fields and character positions (begfield/limfield rules with
 * and without -t), the numeric comparison that never converts (so numbers of
 * any length compare exactly), -h unit orders, -M month prefixes, -V version
 * order (Debian's algorithm with file-suffix handling), -g via strtold in a
 * C.UTF-8 locale object, and -R as a salted hash. Under LC_ALL=C.UTF-8 GNU
 * collates by code point, which for UTF-8 is byte order, so every text
 * comparison here is memcmp-like on bytes.
 *
 * All comparisons take explicit lengths: keys are never NUL-terminated in
 * place (the input buffer is shared), and a NUL byte inside a line is data.
 */
#include "cmd/sort/sort_keys.h"

#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/lib/buf.h"
#include "cmd/lib/gnu.h"

/* blanks: isblank() or '\n' (GNU's field_sep). */
static inline bool is_blank(unsigned char c) { return c == ' ' || c == '\t' || c == '\n'; }
static inline bool is_digit(unsigned char c) { return c >= '0' && c <= '9'; }
static inline bool is_alpha(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

#define R16(v) v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v
/* !isprint: controls, DEL and every byte >= 0x80. */
const bool sort_nonprinting[256] = {
    R16(1), R16(1), R16(0), R16(0), R16(0), R16(0), R16(0),
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
    R16(1), R16(1), R16(1), R16(1), R16(1), R16(1), R16(1), R16(1)};
/* !isalnum && !blank. Filled at first use (static tables stay readable). */
const bool sort_nondictionary[256] = {
    /* 0x00-0x1f: all but \t \n */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 1, 1, 1, 1, 1, R16(1),
    /* 0x20-0x2f: space is blank */
    0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    /* 0x30-0x3f: digits */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1,
    /* 0x40-0x5f: @ A-Z [ \ ] ^ _ */
    1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1,
    /* 0x60-0x7f: ` a-z { | } ~ DEL */
    1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1,
    R16(1), R16(1), R16(1), R16(1), R16(1), R16(1), R16(1), R16(1)};

static inline unsigned char fold_upper(unsigned char c) {
  return (c >= 'a' && c <= 'z') ? (unsigned char)(c - 32) : c;
}

/* ---- key definitions ------------------------------------------------------------ */

bool sort_key_set_option(sort_key *key, char c, bool end) {
  switch (c) {
  case 'b':
    if (end) key->skipeblanks = true;
    else key->skipsblanks = true;
    break;
  case 'd': key->ignore = sort_nondictionary; break;
  case 'f': key->translate = true; break;
  case 'g': key->general_numeric = true; break;
  case 'h': key->human_numeric = true; break;
  case 'i':
    /* -d wins over -i regardless of order, as in GNU. */
    if (!key->ignore) key->ignore = sort_nonprinting;
    break;
  case 'M': key->month = true; break;
  case 'n': key->numeric = true; break;
  case 'R': key->random = true; break;
  case 'r': key->reverse = true; break;
  case 'V': key->version = true; break;
  default: return false;
  }
  return true;
}

bool sort_key_is_default(const sort_key *k) {
  return !(k->ignore || k->translate || k->skipsblanks || k->skipeblanks ||
           k->numeric || k->general_numeric || k->human_numeric || k->month ||
           k->version || k->random);
}

void sort_key_opts(const sort_key *k, char buf[16], bool blank_reverse) {
  char *o = buf;
  if (blank_reverse && (k->skipsblanks || k->skipeblanks)) *o++ = 'b';
  if (k->ignore == sort_nondictionary) *o++ = 'd';
  if (k->translate) *o++ = 'f';
  if (k->general_numeric) *o++ = 'g';
  if (k->human_numeric) *o++ = 'h';
  if (k->ignore == sort_nonprinting) *o++ = 'i';
  if (k->month) *o++ = 'M';
  if (k->numeric) *o++ = 'n';
  if (k->random) *o++ = 'R';
  if (blank_reverse && k->reverse) *o++ = 'r';
  if (k->version) *o++ = 'V';
  *o = 0;
}

bool sort_key_incompatible(const sort_key *k, char buf[16]) {
  int n = k->numeric + k->general_numeric + k->human_numeric + k->month +
          (k->version || k->random || k->ignore != NULL);
  if (n <= 1) return false;
  sort_key_opts(k, buf, false); /* GNU leaves b and r out here */
  return true;
}

/* xstrtoumax(s, &end, 10, &n, "") as sort's parse_field_count uses it:
 * returns the end, or NULL if there is no number (a leading '-' included).
 * Overflow saturates to SIZE_MAX. */
static const char *parse_count(const char *s, size_t *val) {
  const char *p = s;
  while (*p == ' ' || (*p >= '\t' && *p <= '\r')) p++;
  if (*p == '-') return NULL;
  if (*p == '+') p++;
  if (!is_digit((unsigned char)*p)) return NULL;
  size_t v = 0;
  bool over = false;
  for (; is_digit((unsigned char)*p); p++) {
    size_t d = (size_t)(*p - '0');
    if (v > (SIZE_MAX - d) / 10) over = true;
    else v = v * 10 + d;
  }
  *val = over ? SIZE_MAX : v;
  return p;
}

/* One number of a -k spec, at s, for sort_parse_keydef: the end past it, or
 * NULL with the error set as sort_parse_keydef reports it (bad says which
 * number; *at points at it). */
static const char *parse_keydef_count(const char *s, size_t *val, const char *bad,
                                      const char **msg, bool *count_err, const char **at) {
  const char *end = parse_count(s, val);
  if (!end) {
    *at = s;
    *msg = bad;
    *count_err = true;
  }
  return end;
}

/* One position of a -k spec, "F[.C]" at s, for sort_parse_keydef: the start
 * (is_start) or the end. F must not be 0 and is made 0-based; so is C of a
 * start, which must not be 0 either, while an end's C of 0 means the end of
 * its field. Returns the end past it, or NULL with the error set (bad_field
 * words a missing F). */
static const char *parse_keydef_position(const char *s, bool is_start, const char *bad_field,
                                         size_t *field, size_t *chr, const char **msg,
                                         bool *count_err, const char **at) {
  s = parse_keydef_count(s, field, bad_field, msg, count_err, at);
  if (!s) return NULL;
  if ((*field)-- == 0) {
    *msg = "field number is zero";
    return NULL;
  }
  if (*s == '.') {
    s = parse_keydef_count(s + 1, chr, "invalid number after '.'", msg, count_err, at);
    if (!s) return NULL;
    if (is_start && (*chr)-- == 0) {
      *msg = "character offset is zero";
      return NULL;
    }
  }
  return s;
}

int sort_parse_keydef(const char *spec, sort_key *key, const char **msg,
                      bool *count_err, const char **at) {
  *count_err = false;
  *at = spec;
  const char *s = parse_keydef_position(spec, true, "invalid number at field start", &key->sword,
                                        &key->schar, msg, count_err, at);
  if (!s) return -1;
  for (; *s && *s != ','; s++) {
    if (!sort_key_set_option(key, *s, false)) break;
  }
  if (*s == ',') {
    s = parse_keydef_position(s + 1, false, "invalid number after ','", &key->eword, &key->echar,
                              msg, count_err, at);
    if (!s) return -1;
    for (; *s; s++) {
      if (!sort_key_set_option(key, *s, true)) break;
    }
  } else {
    key->eword = SORT_NO_END;
    key->echar = 0;
  }
  if (*s) {
    *msg = "stray character in field spec";
    return -1;
  }
  return 0;
}

/* ---- fields ------------------------------------------------------------------------ */

static size_t begfield(const sort_keys *k, const sort_key *key, const char *t, size_t len) {
  size_t p = 0, sword = key->sword;
  if (k->tab != SORT_TAB_DEFAULT) {
    while (p < len && sword--) {
      while (p < len && (unsigned char)t[p] != k->tab) p++;
      if (p < len) p++;
    }
  } else {
    while (p < len && sword--) {
      while (p < len && is_blank((unsigned char)t[p])) p++;
      while (p < len && !is_blank((unsigned char)t[p])) p++;
    }
  }
  if (key->skipsblanks)
    while (p < len && is_blank((unsigned char)t[p])) p++;
  return key->schar < len - p ? p + key->schar : len;
}

static size_t limfield(const sort_keys *k, const sort_key *key, const char *t, size_t len) {
  size_t p = 0, eword = key->eword, echar = key->echar;
  if (echar == 0) eword++; /* the whole end field */
  if (k->tab != SORT_TAB_DEFAULT) {
    while (p < len && eword--) {
      while (p < len && (unsigned char)t[p] != k->tab) p++;
      if (p < len && (eword || echar)) p++;
    }
  } else {
    while (p < len && eword--) {
      while (p < len && is_blank((unsigned char)t[p])) p++;
      while (p < len && !is_blank((unsigned char)t[p])) p++;
    }
  }
  if (echar != 0) {
    if (key->skipeblanks)
      while (p < len && is_blank((unsigned char)t[p])) p++;
    p = echar < len - p ? p + echar : len;
  }
  return p;
}

void sort_key_bounds(const sort_keys *k, const sort_key *key, const char *line,
                     size_t len, size_t *beg, size_t *lim) {
  size_t l = key->eword == SORT_NO_END ? len : limfield(k, key, line, len);
  size_t b = begfield(k, key, line, len);
  *beg = b;
  *lim = l < b ? b : l; /* a key ending before it starts is empty */
}

/* ---- numbers ------------------------------------------------------------------------ */

/* Byte at p, or 0 past the end: the comparisons below mirror GNU's, which
 * run on NUL-terminated keys. */
#define AT(p, e) ((p) < (e) ? (unsigned char)*(p) : 0)

static int fraccompare(const char *a, const char *ae, const char *b, const char *be) {
  if (AT(a, ae) == '.' && AT(b, be) == '.') {
    for (;;) {
      a++;
      b++;
      unsigned ca = AT(a, ae), cb = AT(b, be);
      if (ca != cb) break;
      if (!is_digit(ca)) return 0;
    }
    unsigned ca = AT(a, ae), cb = AT(b, be);
    if (is_digit(ca) && is_digit(cb)) return (int)ca - (int)cb;
    if (is_digit(ca)) goto a_trailing_nonzero;
    if (is_digit(cb)) goto b_trailing_nonzero;
    return 0;
  } else if (AT(a, ae) == '.') {
    a++;
  a_trailing_nonzero:
    while (AT(a, ae) == '0') a++;
    return is_digit(AT(a, ae));
  } else if (AT(b, be) == '.') {
    b++;
  b_trailing_nonzero:
    while (AT(b, be) == '0') b++;
    return -(int)is_digit(AT(b, be));
  }
  return 0;
}

/* Compares the unsigned parts at a and b (after a sign): integer part by
 * length then digits, then the fraction. */
static int compare_magnitudes(const char *a, const char *ae, const char *b, const char *be) {
  while (AT(a, ae) == '0') a++;
  while (AT(b, be) == '0') b++;
  while (AT(a, ae) == AT(b, be) && is_digit(AT(a, ae))) {
    a++;
    b++;
  }
  unsigned ca = AT(a, ae), cb = AT(b, be);
  if ((ca == '.' && !is_digit(cb)) || (cb == '.' && !is_digit(ca)))
    return fraccompare(a, ae, b, be);
  int tmp = (int)ca - (int)cb;
  size_t loga = 0, logb = 0;
  while (is_digit(AT(a, ae))) a++, loga++;
  while (is_digit(AT(b, be))) b++, logb++;
  if (loga != logb) return loga < logb ? -1 : 1;
  if (!loga) return 0;
  return tmp;
}

/* True if the number at p (after any '-') is zero: zeros, optional point,
 * zeros, and no other digit. */
static bool is_zero_number(const char *p, const char *e) {
  while (AT(p, e) == '0') p++;
  if (AT(p, e) == '.') {
    p++;
    while (AT(p, e) == '0') p++;
  }
  return !is_digit(AT(p, e));
}

static int strnumcmp(const char *a, const char *ae, const char *b, const char *be) {
  bool nega = AT(a, ae) == '-', negb = AT(b, be) == '-';
  if (nega && negb) return compare_magnitudes(b + 1, be, a + 1, ae);
  if (nega) return is_zero_number(a + 1, ae) ? -(int)!is_zero_number(b, be) : -1;
  if (negb) return is_zero_number(b + 1, be) ? (int)!is_zero_number(a, ae) : 1;
  return compare_magnitudes(a, ae, b, be);
}

int sort_numcompare(const char *a, size_t alen, const char *b, size_t blen) {
  const char *ae = a + alen, *be = b + blen;
  while (a < ae && is_blank((unsigned char)*a)) a++;
  while (b < be && is_blank((unsigned char)*b)) b++;
  return strnumcmp(a, ae, b, be);
}

/* The unit order of a -h number: K/k 1, M 2, G 3, T 4, P 5, E 6, Z 7, Y 8,
 * negated for negative numbers, 0 for zero or no unit. */
static int find_unit_order(const char *p, const char *e) {
  bool minus = AT(p, e) == '-';
  if (minus) p++;
  unsigned max_digit = 0;
  while (is_digit(AT(p, e))) {
    if (AT(p, e) > max_digit) max_digit = AT(p, e);
    p++;
  }
  if (AT(p, e) == '.') {
    p++;
    while (is_digit(AT(p, e))) {
      if (AT(p, e) > max_digit) max_digit = AT(p, e);
      p++;
    }
  }
  if (max_digit <= '0') return 0;
  int order;
  switch (AT(p, e)) {
  case 'K': case 'k': order = 1; break;
  case 'M': order = 2; break;
  case 'G': order = 3; break;
  case 'T': order = 4; break;
  case 'P': order = 5; break;
  case 'E': order = 6; break;
  case 'Z': order = 7; break;
  case 'Y': order = 8; break;
  default: order = 0;
  }
  return minus ? -order : order;
}

int sort_human_numcompare(const char *a, size_t alen, const char *b, size_t blen) {
  const char *ae = a + alen, *be = b + blen;
  while (a < ae && is_blank((unsigned char)*a)) a++;
  while (b < be && is_blank((unsigned char)*b)) b++;
  int d = find_unit_order(a, ae) - find_unit_order(b, be);
  return d ? d : strnumcmp(a, ae, b, be);
}

int sort_getmonth(const char *s, size_t len) {
  static const char *const names[12] = {"JAN", "FEB", "MAR", "APR", "MAY", "JUN",
                                        "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"};
  size_t i = 0;
  while (i < len && is_blank((unsigned char)s[i])) i++;
  if (len - i < 3) return 0;
  char up[3] = {(char)fold_upper((unsigned char)s[i]), (char)fold_upper((unsigned char)s[i + 1]),
                (char)fold_upper((unsigned char)s[i + 2])};
  for (int m = 0; m < 12; m++)
    if (memcmp(up, names[m], 3) == 0) return m + 1;
  return 0;
}

/* ---- version order -------------------------------------------------------------------- */

/* Length of s without its file suffix: the longest tail matching
 * (\.[A-Za-z~][A-Za-z0-9~]*)*$ that does not start at the first byte. */
static size_t file_prefixlen(const char *s, size_t n) {
  size_t prefixlen = 0, i = 0;
  while (i < n) {
    i++;
    prefixlen = i;
    while (i + 1 < n && s[i] == '.' &&
           (is_alpha((unsigned char)s[i + 1]) || s[i + 1] == '~')) {
      for (i += 2; i < n && (is_alpha((unsigned char)s[i]) ||
                             is_digit((unsigned char)s[i]) || s[i] == '~');
           i++) {
      }
    }
  }
  return prefixlen;
}

/* Weight of byte pos for the non-digit parts: end of string sorts before
 * everything but '~', letters before other bytes. */
static int ver_order(const char *s, size_t pos, size_t len) {
  if (pos == len) return -1;
  unsigned char c = (unsigned char)s[pos];
  if (is_digit(c)) return 0;
  if (is_alpha(c)) return c;
  if (c == '~') return -2;
  return c + 256;
}

static int verrevcmp(const char *a, size_t alen, const char *b, size_t blen) {
  size_t i = 0, j = 0;
  while (i < alen || j < blen) {
    int first_diff = 0;
    while ((i < alen && !is_digit((unsigned char)a[i])) ||
           (j < blen && !is_digit((unsigned char)b[j]))) {
      int ca = ver_order(a, i, alen), cb = ver_order(b, j, blen);
      if (ca != cb) return ca - cb;
      i++;
      j++;
    }
    while (i < alen && a[i] == '0') i++;
    while (j < blen && b[j] == '0') j++;
    while (i < alen && j < blen && is_digit((unsigned char)a[i]) &&
           is_digit((unsigned char)b[j])) {
      if (!first_diff) first_diff = (unsigned char)a[i] - (unsigned char)b[j];
      i++;
      j++;
    }
    if (i < alen && is_digit((unsigned char)a[i])) return 1;
    if (j < blen && is_digit((unsigned char)b[j])) return -1;
    if (first_diff) return first_diff;
  }
  return 0;
}

int sort_filevercmp(const char *a, size_t alen, const char *b, size_t blen) {
  if (alen == 0) return blen == 0 ? 0 : -1;
  if (blen == 0) return 1;
  /* "." first, then "..", then other dot names, then the rest. */
  if (a[0] == '.') {
    if (b[0] != '.') return -1;
    bool adot = alen == 1, bdot = blen == 1;
    if (adot) return bdot ? 0 : -1;
    if (bdot) return 1;
    bool add = a[1] == '.' && alen == 2, bdd = b[1] == '.' && blen == 2;
    if (add) return bdd ? 0 : -1;
    if (bdd) return 1;
  } else if (b[0] == '.') {
    return 1;
  }
  size_t ap = file_prefixlen(a, alen), bp = file_prefixlen(b, blen);
  bool one_pass = ap == alen && bp == blen;
  int r = verrevcmp(a, ap, b, bp);
  return r || one_pass ? r : verrevcmp(a, alen, b, blen);
}

/* ---- general numeric -------------------------------------------------------------------- */

static char *scratch(sort_keys *k, int which, size_t need) {
  /* the comparison's hot path: no call while the scratch is big enough */
  if (k->scratch_cap[which] < need && cmd_grow(&k->scratch[which], &k->scratch_cap[which], need, 1))
    return NULL;
  return k->scratch[which];
}

static int nan_compare(long double a, long double b) {
  /* GNU compares NaNs by their bytes; the sign byte is the last one. */
  union { long double v; unsigned char b[sizeof(long double)]; } ua, ub;
  memset(&ua, 0, sizeof ua);
  memset(&ub, 0, sizeof ub);
  ua.v = a;
  ub.v = b;
  return memcmp(ua.b, ub.b, 10 < sizeof ua.b ? 10 : sizeof ua.b);
}

static int general_numcompare(sort_keys *k, const char *a, size_t alen, const char *b,
                              size_t blen) {
  char *sa = scratch(k, 0, alen + 1), *sb = scratch(k, 1, blen + 1);
  if (!sa || !sb) return 0;
  if (sa == a || sb == b) return 0;
  memmove(sa, a, alen);
  sa[alen] = 0;
  memmove(sb, b, blen);
  sb[blen] = 0;
  locale_t loc = cmd_utf8_locale();
  char *ea, *eb;
  long double x = loc ? strtold_l(sa, &ea, loc) : strtold(sa, &ea);
  long double y = loc ? strtold_l(sb, &eb, loc) : strtold(sb, &eb);
  if (sa == ea) return sb == eb ? 0 : -1;
  if (sb == eb) return 1;
  return x < y ? -1 : x > y ? 1 : x == y ? 0 : y == y ? -1 : x == x ? 1 : nan_compare(x, y);
}

/* ---- random -------------------------------------------------------------------------------- */

static uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static uint64_t salted_hash(const sort_keys *k, const char *s, size_t n) {
  uint64_t h = k->salt[0] ^ 0xcbf29ce484222325ULL;
  for (size_t i = 0; i < n; i++) {
    h ^= (unsigned char)s[i];
    h *= 0x100000001b3ULL;
  }
  return mix64(h ^ k->salt[1] ^ n);
}

/* ---- comparison ------------------------------------------------------------------------------ */

static int bytes_compare(const char *a, size_t alen, const char *b, size_t blen) {
  size_t n = alen < blen ? alen : blen;
  int d = n ? memcmp(a, b, n) : 0;
  if (d) return d;
  return alen < blen ? -1 : alen != blen;
}

/* Copies the key with ignored bytes dropped and -f applied. */
static size_t transform(const sort_key *key, const char *s, size_t n, char *out) {
  size_t o = 0;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (key->ignore && key->ignore[c]) continue;
    out[o++] = (char)(key->translate ? fold_upper(c) : c);
  }
  return o;
}

static int compare_key(sort_keys *k, const sort_key *key, const char *ta, size_t la,
                       const char *tb, size_t lb) {
  if (key->ignore || key->translate) {
    char *sa = scratch(k, 0, la + 1);
    char *sb = sa ? scratch(k, 1, lb + 1) : NULL;
    if (!sa || !sb) return 0;
    la = transform(key, ta, la, sa);
    lb = transform(key, tb, lb, sb);
    ta = sa;
    tb = sb;
  }
  if (key->numeric) return sort_numcompare(ta, la, tb, lb);
  if (key->general_numeric) {
    /* general_numcompare needs the scratch buffers itself. */
    if (ta == k->scratch[0] || tb == k->scratch[1]) {
      char *ca = malloc(la + 1), *cb = malloc(lb + 1);
      int d = 0;
      if (ca && cb) {
        memcpy(ca, ta, la);
        memcpy(cb, tb, lb);
        d = general_numcompare(k, ca, la, cb, lb);
      }
      free(ca);
      free(cb);
      return d;
    }
    return general_numcompare(k, ta, la, tb, lb);
  }
  if (key->human_numeric) return sort_human_numcompare(ta, la, tb, lb);
  if (key->month) return sort_getmonth(ta, la) - sort_getmonth(tb, lb);
  if (key->random) {
    uint64_t ha = salted_hash(k, ta, la), hb = salted_hash(k, tb, lb);
    if (ha != hb) return ha < hb ? -1 : 1;
    return bytes_compare(ta, la, tb, lb);
  }
  if (key->version) return sort_filevercmp(ta, la, tb, lb);
  return bytes_compare(ta, la, tb, lb);
}

int sort_keycompare(sort_keys *k, const char *a, size_t alen, const char *b, size_t blen) {
  for (int i = 0; i < k->nkeys; i++) {
    const sort_key *key = &k->keys[i];
    size_t ab, al, bb, bl;
    sort_key_bounds(k, key, a, alen, &ab, &al);
    sort_key_bounds(k, key, b, blen, &bb, &bl);
    int d = compare_key(k, key, a + ab, al - ab, b + bb, bl - bb);
    if (d) return key->reverse ? (d < 0 ? 1 : -1) : d;
  }
  return 0;
}

int sort_compare(sort_keys *k, const char *a, size_t alen, const char *b, size_t blen) {
  if (k->nkeys) {
    int d = sort_keycompare(k, a, alen, b, blen);
    if (d || k->unique || k->stable) return d;
  }
  int d = bytes_compare(a, alen, b, blen);
  return k->reverse ? -d : d;
}

void sort_keys_free(sort_keys *k) {
  for (int i = 0; i < 2; i++) {
    free(k->scratch[i]);
    k->scratch[i] = NULL;
    k->scratch_cap[i] = 0;
  }
}
