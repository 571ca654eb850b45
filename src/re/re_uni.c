/*
 * re_uni.c - character sets, UTF-8 coding and the C.UTF-8 character tables.
 *
 * The engine never depends on the process locale: classes ([[:alpha:]]) and
 * case folding for characters >= 0x80 come from glibc's C.UTF-8 tables through
 * a private locale_t (newlocale), so results are the same whatever the host
 * program called setlocale with. Each class is scanned once over all
 * codepoints (about 1.1 million iswctype_l calls, a few milliseconds) into a
 * sorted interval list, cached for the life of the process under a mutex.
 * When C.UTF-8 is missing, characters >= 0x80 have no class and no case.
 */
#include <ctype.h>
#include <locale.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <wctype.h>

#include "re/re_int.h"

/* ---- character sets ---------------------------------------------------------- */

int re_cset_add(re_cset *s, uint32_t lo, uint32_t hi) {
  if (lo > hi) return 0;
  if (re_grow(&s->r, &s->cap, s->n + 1, sizeof *s->r, 8, SIZE_MAX) < 0) return -1;
  s->r[s->n].lo = lo;
  s->r[s->n].hi = hi;
  s->n++;
  return 0;
}

void re_cset_free(re_cset *s) {
  free(s->r);
  s->r = NULL;
  s->n = s->cap = 0;
}

static int range_cmp(const void *a, const void *b) {
  const re_range *x = a, *y = b;
  return x->lo < y->lo ? -1 : x->lo > y->lo;
}

int re_cset_normalize(re_cset *s) {
  if (s->n < 2) return 0;
  qsort(s->r, s->n, sizeof *s->r, range_cmp);
  size_t w = 0;
  for (size_t i = 1; i < s->n; i++) {
    if (s->r[i].lo <= s->r[w].hi + 1) {
      if (s->r[i].hi > s->r[w].hi) s->r[w].hi = s->r[i].hi;
    } else {
      s->r[++w] = s->r[i];
    }
  }
  s->n = w + 1;
  return 0;
}

/* ---- UTF-8 ------------------------------------------------------------------- */

int re_utf8_decode(const unsigned char *s, size_t n, uint32_t *cp) {
  if (n == 0) return 0;
  unsigned c = s[0];
  if (c < 0x80) {
    *cp = c;
    return 1;
  }
  if (c < 0xC2) return 0;
  if (c < 0xE0) {
    if (n < 2 || (s[1] & 0xC0) != 0x80) return 0;
    *cp = ((c & 0x1F) << 6) | (s[1] & 0x3F);
    return 2;
  }
  if (c < 0xF0) {
    if (n < 3 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80) return 0;
    if (c == 0xE0 && s[1] < 0xA0) return 0;  /* overlong */
    if (c == 0xED && s[1] >= 0xA0) return 0; /* surrogate */
    *cp = ((c & 0x0F) << 12) | ((s[1] & 0x3F) << 6) | (s[2] & 0x3F);
    return 3;
  }
  if (c < 0xF5) {
    if (n < 4 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80 || (s[3] & 0xC0) != 0x80)
      return 0;
    if (c == 0xF0 && s[1] < 0x90) return 0;  /* overlong */
    if (c == 0xF4 && s[1] >= 0x90) return 0; /* > U+10FFFF */
    *cp = ((c & 0x07) << 18) | ((s[1] & 0x3F) << 12) | ((s[2] & 0x3F) << 6) | (s[3] & 0x3F);
    return 4;
  }
  return 0;
}

int re_utf8_encode(uint32_t cp, unsigned char *o) {
  if (cp < 0x80) {
    o[0] = (unsigned char)cp;
    return 1;
  }
  if (cp < 0x800) {
    o[0] = (unsigned char)(0xC0 | (cp >> 6));
    o[1] = (unsigned char)(0x80 | (cp & 0x3F));
    return 2;
  }
  if (cp < 0x10000) {
    o[0] = (unsigned char)(0xE0 | (cp >> 12));
    o[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
    o[2] = (unsigned char)(0x80 | (cp & 0x3F));
    return 3;
  }
  o[0] = (unsigned char)(0xF0 | (cp >> 18));
  o[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
  o[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
  o[3] = (unsigned char)(0x80 | (cp & 0x3F));
  return 4;
}

size_t re_utf8_check(const char *s, size_t n) {
  const unsigned char *u = (const unsigned char *)s;
  size_t i = 0;
  while (i < n) {
    /* Skip ASCII eight bytes at a time. */
    while (i + 8 <= n) {
      uint64_t w;
      memcpy(&w, u + i, 8);
      if (w & 0x8080808080808080ull) break;
      i += 8;
    }
    if (i >= n) break;
    if (u[i] < 0x80) {
      i++;
      continue;
    }
    uint32_t cp;
    int l = re_utf8_decode(u + i, n - i, &cp);
    if (l <= 0) return i;
    i += (size_t)l;
  }
  return n;
}

/* ---- the C.UTF-8 locale --------------------------------------------------------- */

static pthread_once_t uni_once = PTHREAD_ONCE_INIT;
static locale_t uni_loc; /* C.UTF-8 LC_CTYPE, or 0 when unavailable */

static void uni_init(void) {
  uni_loc = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
  if (!uni_loc) uni_loc = newlocale(LC_CTYPE_MASK, "C.utf8", (locale_t)0);
}

locale_t re_utf8_locale(void) {
  pthread_once(&uni_once, uni_init);
  return uni_loc;
}

int re_case_variants(uint32_t cp, bool utf8, uint32_t out[4]) {
  int n = 0;
  out[n++] = cp;
  if (cp < 0x80) {
    if (cp >= 'a' && cp <= 'z') out[n++] = cp - 32;
    else if (cp >= 'A' && cp <= 'Z') out[n++] = cp + 32;
    return n;
  }
  if (!utf8) return n;
  locale_t loc = re_utf8_locale();
  if (!loc) return n;
  uint32_t cand[3];
  cand[0] = (uint32_t)towlower_l((wint_t)cp, loc);
  cand[1] = (uint32_t)towupper_l((wint_t)cp, loc);
  cand[2] = (uint32_t)towlower_l((wint_t)cand[1], loc);
  for (int i = 0; i < 3; i++) {
    bool dup = false;
    for (int j = 0; j < n; j++) dup |= out[j] == cand[i];
    if (!dup && n < 4) out[n++] = cand[i];
  }
  return n;
}

/* ---- classes -------------------------------------------------------------------- */

enum { CL_ALPHA, CL_UPPER, CL_LOWER, CL_DIGIT, CL_XDIGIT, CL_SPACE, CL_PRINT, CL_PUNCT,
       CL_GRAPH, CL_CNTRL, CL_BLANK, CL_ALNUM, CL_COUNT };
static const char *const class_names[CL_COUNT] = {"alpha", "upper", "lower", "digit",
                                                  "xdigit", "space", "print", "punct",
                                                  "graph", "cntrl", "blank", "alnum"};

static pthread_mutex_t class_mu = PTHREAD_MUTEX_INITIALIZER;
static re_range *class_tab[CL_COUNT]; /* intervals >= 0x80 per class */
static size_t class_n[CL_COUNT];      /* their count */
static bool class_done[CL_COUNT];     /* computed */

static int ascii_class(int cl, int c) {
  switch (cl) {
  case CL_ALPHA: return isalpha(c);
  case CL_UPPER: return isupper(c);
  case CL_LOWER: return islower(c);
  case CL_DIGIT: return isdigit(c);
  case CL_XDIGIT: return isxdigit(c);
  case CL_SPACE: return isspace(c);
  case CL_PRINT: return isprint(c);
  case CL_PUNCT: return ispunct(c);
  case CL_GRAPH: return isgraph(c);
  case CL_CNTRL: return iscntrl(c);
  case CL_BLANK: return c == ' ' || c == '\t';
  case CL_ALNUM: return isalnum(c);
  }
  return 0;
}

/* The class's intervals >= 0x80 (computed on first use). 0 or -1 on ENOMEM. */
static int class_ranges(int cl, const re_range **r, size_t *n) {
  pthread_mutex_lock(&class_mu);
  if (!class_done[cl]) {
    re_cset tmp = {0};
    locale_t loc = re_utf8_locale();
    if (loc) {
      wctype_t t = wctype_l(class_names[cl], loc);
      uint32_t start = 0;
      bool in = false;
      for (uint32_t cp = 0x80; cp <= 0x110000; cp++) {
        bool m = cp < 0x110000 && !(cp >= 0xD800 && cp <= 0xDFFF) &&
                 iswctype_l((wint_t)cp, t, loc);
        if (m && !in) {
          start = cp;
          in = true;
        } else if (!m && in) {
          if (re_cset_add(&tmp, start, cp - 1) < 0) {
            re_cset_free(&tmp);
            pthread_mutex_unlock(&class_mu);
            return -1;
          }
          in = false;
        }
      }
    }
    class_tab[cl] = tmp.r;
    class_n[cl] = tmp.n;
    class_done[cl] = true;
  }
  *r = class_tab[cl];
  *n = class_n[cl];
  pthread_mutex_unlock(&class_mu);
  return 0;
}

int re_cset_add_class(re_cset *s, const char *name, size_t namelen, bool utf8) {
  int cl = -1;
  for (int i = 0; i < CL_COUNT; i++)
    if (strlen(class_names[i]) == namelen && memcmp(class_names[i], name, namelen) == 0) cl = i;
  if (cl < 0) return -1;
  int top = utf8 ? 128 : 256;
  for (int c = 0; c < top; c++)
    if (c < 128 && ascii_class(cl, c)) re_bit_set(s->bits, (unsigned)c);
  if (!utf8) return 0;
  const re_range *r;
  size_t n;
  if (class_ranges(cl, &r, &n) < 0) return -2;
  for (size_t i = 0; i < n; i++)
    if (re_cset_add(s, r[i].lo, r[i].hi) < 0) return -2;
  return 0;
}

bool re_is_word_cp(uint32_t cp) {
  if (cp < 0x80) return cp == '_' || isalnum((int)cp);
  locale_t loc = re_utf8_locale();
  return loc && iswalnum_l((wint_t)cp, loc);
}
