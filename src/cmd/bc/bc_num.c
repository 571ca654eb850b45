/*
 * bc_num.c - bc's decimal numbers (see bc/bc_num.h).
 *
 * Digits are bytes (0..9), most significant first; a value is the digit
 * string read as an integer times 10^-scale. The basic operations are exact
 * integer arithmetic on those strings followed by truncation, so their
 * digits do not depend on the algorithm: multiplication works in base 10^4
 * limbs (schoolbook, 64-bit accumulators), division is schoolbook long
 * division with quotient digits estimated from the leading 18 digits and
 * corrected, small divisors take a 64-bit fast path. What does depend on the
 * algorithm - the intermediate scales of raise and sqrt, the conversion of
 * constants in other bases, the output in other bases - follows GNU bc
 * 1.07's number.c step by step, because bc users see those digits.
 *
 * Bounds: a result's digit count is checked against env->max_digits before
 * anything is allocated; every loop that costs more than a few thousand
 * digit operations charges env->work and polls env->poll every 2^20 units.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/bc/bc_num.h"
#include "cmd/lib/buf.h"

typedef unsigned char uchar;

#define POLL_EVERY (1u << 20)

/* Charges `units` of work; polls when enough accumulated. */
static int charge(cmd_bcenv *e, uint64_t units) {
  e->work += units;
  if (e->work >= POLL_EVERY) {
    e->work = 0;
    if (e->poll && e->poll(e->poll_ud)) return -ECANCELED;
  }
  return 0;
}

#define NUM_OVERHEAD 48 /* malloc's and the slot's share of a number */

static _Thread_local cmd_bcmem *mem_account;

void cmd_bcnum_account(cmd_bcmem *m) { mem_account = m; }

int cmd_bcnum_charge(uint64_t bytes) {
  cmd_bcmem *m = mem_account;
  if (!m) return 0;
  if (m->live + bytes > m->max) return -ENOSPC;
  m->live += bytes;
  return 0;
}

void cmd_bcnum_refund(uint64_t bytes) {
  cmd_bcmem *m = mem_account;
  if (m) m->live = m->live > bytes ? m->live - bytes : 0;
}

void cmd_bcnum_init(cmd_bcnum *n) { memset(n, 0, sizeof *n); }

void cmd_bcnum_free(cmd_bcnum *n) {
  if (n->d) cmd_bcnum_refund((uint64_t)n->alloc + NUM_OVERHEAD);
  free(n->d);
  cmd_bcnum_init(n);
}

/* A new zero-filled number with room for len + scale digits. */
static int num_alloc(cmd_bcenv *e, cmd_bcnum *n, size_t len, size_t scale) {
  if (len < 1) len = 1;
  if (e && len + scale > e->max_digits) return -E2BIG;
  if (len + scale > INT_MAX) return -E2BIG;
  if (cmd_bcnum_charge(len + scale + NUM_OVERHEAD)) return -ENOSPC;
  n->d = calloc(len + scale, 1);
  if (!n->d) {
    cmd_bcnum_refund(len + scale + NUM_OVERHEAD);
    return -ENOMEM;
  }
  n->alloc = (int)(len + scale);
  n->neg = false;
  n->len = (int)len;
  n->scale = (int)scale;
  return 0;
}

/* Strips leading integer zeros (keeping one digit) and the sign of zero. */
static void normalize(cmd_bcnum *n) {
  int z = 0;
  while (z < n->len - 1 && n->d[z] == 0) z++;
  if (z) {
    memmove(n->d, n->d + z, (size_t)(n->len - z + n->scale));
    n->len -= z;
  }
  if (cmd_bcnum_is_zero(n)) n->neg = false;
}

/* Moves t into *r (freeing r's old digits). */
static void take(cmd_bcnum *r, cmd_bcnum *t) {
  cmd_bcnum_free(r);
  *r = *t;
  cmd_bcnum_init(t);
}

int cmd_bcnum_set_long(cmd_bcnum *r, long v) {
  cmd_bcnum t;
  unsigned long u = v < 0 ? 0ul - (unsigned long)v : (unsigned long)v;
  uchar buf[24];
  int n = 0;
  do {
    buf[n++] = (uchar)(u % 10);
    u /= 10;
  } while (u);
  int rc = num_alloc(NULL, &t, (size_t)n, 0);
  if (rc) return rc;
  for (int i = 0; i < n; i++) t.d[i] = buf[n - 1 - i];
  t.neg = v < 0;
  take(r, &t);
  return 0;
}

int cmd_bcnum_copy(cmd_bcnum *r, const cmd_bcnum *a) {
  if (r == a) return 0;
  cmd_bcnum t;
  int rc = num_alloc(NULL, &t, (size_t)a->len, (size_t)a->scale);
  if (rc) return rc;
  memcpy(t.d, a->d, (size_t)(a->len + a->scale));
  t.neg = a->neg;
  take(r, &t);
  return 0;
}

bool cmd_bcnum_is_zero(const cmd_bcnum *a) {
  size_t n = (size_t)(a->len + a->scale);
  for (size_t i = 0; i < n; i++)
    if (a->d[i]) return false;
  return true;
}

void cmd_bcnum_truncate(cmd_bcnum *a, int scale) {
  if (scale < a->scale) {
    a->scale = scale < 0 ? 0 : scale;
    if (cmd_bcnum_is_zero(a)) a->neg = false;
  }
}

/* The digit of 10^pos (pos < 0: fraction). */
static inline int digit_at(const cmd_bcnum *a, long pos) {
  long idx = a->len - 1 - pos;
  if (idx < 0 || idx >= a->len + a->scale) return 0;
  return a->d[idx];
}

/* Compares magnitudes. */
static int cmp_mag(const cmd_bcnum *a, const cmd_bcnum *b) {
  /* effective integer lengths without leading zeros */
  int la = a->len, lb = b->len, ia = 0, ib = 0;
  while (la > 1 && a->d[ia] == 0) la--, ia++;
  while (lb > 1 && b->d[ib] == 0) lb--, ib++;
  if (la != lb) {
    /* a lone zero digit is smaller than any other integer part */
    return la > lb ? 1 : -1;
  }
  long top = la - 1, bottom = -(long)(a->scale > b->scale ? a->scale : b->scale);
  for (long p = top; p >= bottom; p--) {
    int x = digit_at(a, p), y = digit_at(b, p);
    if (x != y) return x > y ? 1 : -1;
  }
  return 0;
}

int cmd_bcnum_cmp(const cmd_bcnum *a, const cmd_bcnum *b) {
  bool za = cmd_bcnum_is_zero(a), zb = cmd_bcnum_is_zero(b);
  bool na = a->neg && !za, nb = b->neg && !zb;
  if (na != nb) return na ? -1 : 1;
  int c = cmp_mag(a, b);
  return na ? -c : c;
}

long cmd_bcnum_to_long(const cmd_bcnum *a) {
  /* GNU's loop runs while val <= LONG_MAX / 10 with bc's own 32-bit
   * LONG_MAX, so integers up to 2147483649 convert and longer ones are an
   * overflow (0): "2^2147483650" is "exponent too large in raise". */
  long v = 0;
  int i = 0;
  for (; i < a->len && v <= 214748364L; i++) v = v * 10 + a->d[i];
  if (i < a->len || v < 0) v = 0;
  return a->neg ? -v : v;
}

bool cmd_bcnum_long_overflow(const cmd_bcnum *a) {
  if (cmd_bcnum_to_long(a) != 0) return false;
  for (int i = 0; i < a->len; i++)
    if (a->d[i]) return true;
  return false;
}

/* num_alloc, and the digits counted as work (charge) since the caller will
 * write every one of them: for add_mag and sub_mag. t is left empty when the
 * work is cancelled. */
static int num_alloc_charged(cmd_bcenv *e, cmd_bcnum *t, int len, int s) {
  int rc = num_alloc(e, t, (size_t)len, (size_t)s);
  if (rc) return rc;
  if ((rc = charge(e, (uint64_t)(len + s)))) cmd_bcnum_free(t);
  return rc;
}

/* |a| + |b| into t with scale s (>= both scales). */
static int add_mag(cmd_bcenv *e, const cmd_bcnum *a, const cmd_bcnum *b, int s, cmd_bcnum *t) {
  int len = (a->len > b->len ? a->len : b->len) + 1;
  int rc = num_alloc_charged(e, t, len, s);
  if (rc) return rc;
  int carry = 0;
  for (long p = -(long)s, i = len + s - 1; i >= 0; p++, i--) {
    int v = digit_at(a, p) + digit_at(b, p) + carry;
    carry = v >= 10;
    t->d[i] = (uchar)(carry ? v - 10 : v);
  }
  return 0;
}

/* |a| - |b| (|a| >= |b|) into t with scale s. */
static int sub_mag(cmd_bcenv *e, const cmd_bcnum *a, const cmd_bcnum *b, int s, cmd_bcnum *t) {
  int len = a->len > b->len ? a->len : b->len;
  int rc = num_alloc_charged(e, t, len, s);
  if (rc) return rc;
  int borrow = 0;
  for (long p = -(long)s, i = len + s - 1; i >= 0; p++, i--) {
    int v = digit_at(a, p) - digit_at(b, p) - borrow;
    borrow = v < 0;
    t->d[i] = (uchar)(borrow ? v + 10 : v);
  }
  return 0;
}

/* a + (bneg ? -b : b). */
static int add_signed(cmd_bcenv *e, const cmd_bcnum *a, const cmd_bcnum *b, bool bneg, int scale_min,
                      cmd_bcnum *r) {
  int s = a->scale > b->scale ? a->scale : b->scale;
  if (scale_min > s) s = scale_min;
  cmd_bcnum t;
  cmd_bcnum_init(&t);
  int rc;
  bool an = a->neg && !cmd_bcnum_is_zero(a);
  bool bn = bneg != (b->neg && !cmd_bcnum_is_zero(b));
  if (an == bn) {
    rc = add_mag(e, a, b, s, &t);
    t.neg = an;
  } else if (cmp_mag(a, b) >= 0) {
    rc = sub_mag(e, a, b, s, &t);
    t.neg = an;
  } else {
    rc = sub_mag(e, b, a, s, &t);
    t.neg = bn;
  }
  if (rc) return rc;
  normalize(&t);
  take(r, &t);
  return 0;
}

int cmd_bcnum_add(cmd_bcenv *e, const cmd_bcnum *a, const cmd_bcnum *b, int scale_min, cmd_bcnum *r) {
  return add_signed(e, a, b, false, scale_min, r);
}

int cmd_bcnum_sub(cmd_bcenv *e, const cmd_bcnum *a, const cmd_bcnum *b, int scale_min, cmd_bcnum *r) {
  return add_signed(e, a, b, true, scale_min, r);
}

/* ---- multiplication -------------------------------------------------------------------- */

#define LIMB 10000u

/* Digit string (MSD first) to base-10^4 limbs (least significant first). */
static uint32_t *to_limbs(const uchar *d, size_t n, size_t *nl) {
  size_t k = (n + 3) / 4;
  uint32_t *l = calloc(k ? k : 1, sizeof *l);
  if (!l) return NULL;
  for (size_t i = 0; i < k; i++) {
    uint32_t v = 0;
    /* limb i covers digits [n - 4(i+1), n - 4i) */
    long lo = (long)n - 4 * (long)(i + 1), hi = (long)n - 4 * (long)i;
    for (long j = lo < 0 ? 0 : lo; j < hi; j++) v = v * 10 + d[j];
    l[i] = v;
  }
  *nl = k;
  return l;
}

/* a * b truncated to min(a.scale + b.scale, max(scale, a.scale, b.scale)). */
int cmd_bcnum_mul(cmd_bcenv *e, const cmd_bcnum *a, const cmd_bcnum *b, int scale, cmd_bcnum *r) {
  int full = a->scale + b->scale;
  int ps = scale;
  if (a->scale > ps) ps = a->scale;
  if (b->scale > ps) ps = b->scale;
  if (full < ps) ps = full;
  /* leading zeros do not count against the limit */
  int la = a->len, lb = b->len;
  const uchar *da = a->d, *db = b->d;
  while (la > 1 && *da == 0) da++, la--;
  while (lb > 1 && *db == 0) db++, lb--;
  size_t na = (size_t)(la + a->scale), nb = (size_t)(lb + b->scale);
  cmd_bcnum t;
  cmd_bcnum_init(&t);
  int rc = num_alloc(e, &t, (size_t)(la + lb), (size_t)ps);
  if (rc) return rc;
  size_t ka, kb;
  uint32_t *xa = to_limbs(da, na, &ka), *xb = to_limbs(db, nb, &kb);
  uint64_t *acc = calloc(ka + kb + 1, sizeof *acc);
  if (!xa || !xb || !acc) {
    free(xa);
    free(xb);
    free(acc);
    cmd_bcnum_free(&t);
    return -ENOMEM;
  }
  for (size_t i = 0; i < ka; i++) {
    uint64_t x = xa[i];
    if (x == 0) continue;
    uint64_t *row = acc + i;
    for (size_t j = 0; j < kb; j++) row[j] += x * xb[j];
    /* keep accumulators far from overflow: each step adds < 10^8 */
    if ((i & 1023) == 1023) {
      uint64_t carry = 0;
      for (size_t j = 0; j < ka + kb; j++) {
        uint64_t v = acc[j] + carry;
        acc[j] = v % LIMB;
        carry = v / LIMB;
      }
    }
    if ((rc = charge(e, kb))) break;
  }
  if (!rc) {
    uint64_t carry = 0;
    for (size_t j = 0; j < ka + kb; j++) {
      uint64_t v = acc[j] + carry;
      acc[j] = v % LIMB;
      carry = v / LIMB;
    }
    /* the full product has na + nb digits with scale `full`; keep the
     * digits down to scale ps: drop (full - ps) low digits */
    size_t total = na + nb, keep = total - (size_t)(full - ps);
    size_t tlen = (size_t)(t.len + t.scale);
    /* digit k of the product (from the least significant) */
    for (size_t i = 0; i < tlen && i < keep; i++) {
      size_t k = (size_t)(full - ps) + i; /* product digit index from the right */
      uint32_t limb = (uint32_t)acc[k / 4];
      for (size_t z = k % 4; z; z--) limb /= 10;
      t.d[tlen - 1 - i] = (uchar)(limb % 10);
    }
    t.neg = a->neg != b->neg;
    normalize(&t);
    take(r, &t);
  } else {
    cmd_bcnum_free(&t);
  }
  free(xa);
  free(xb);
  free(acc);
  return rc;
}

/* ---- division ---------------------------------------------------------------------------- */

/* q (nn digits, MSD first) = floor(N / D); D has no leading zero. */
static int long_div(cmd_bcenv *e, const uchar *N, size_t nn, const uchar *D, size_t nd, uchar *q) {
  if (nd <= 18) {
    uint64_t dv = 0, rem = 0;
    for (size_t i = 0; i < nd; i++) dv = dv * 10 + D[i];
    for (size_t i = 0; i < nn; i++) {
      rem = rem * 10 + N[i];
      q[i] = (uchar)(rem / dv);
      rem %= dv;
      if ((i & 0xffff) == 0xffff) {
        int rc = charge(e, 0x10000);
        if (rc) return rc;
      }
    }
    return 0;
  }
  /* r: a window of nd + 1 digits holding the running remainder */
  uchar *r = calloc(nd + 1, 1);
  if (!r) return -ENOMEM;
  double dtop = 0;
  size_t kd = nd < 17 ? nd : 17;
  for (size_t i = 0; i < kd; i++) dtop = dtop * 10 + D[i];
  for (size_t i = 0; i < nn; i++) {
    memmove(r, r + 1, nd);
    r[nd] = N[i];
    double rtop = 0;
    for (size_t j = 0; j < kd + 1; j++) rtop = rtop * 10 + r[j];
    int qd = (int)(rtop / dtop);
    if (qd > 9) qd = 9;
    if (qd < 0) qd = 0;
    /* r -= qd * D (D aligned to the low nd digits of r) */
    if (qd) {
      int carry = 0;
      for (size_t j = nd; j-- > 0;) {
        int v = r[j + 1] - qd * D[j] - carry;
        carry = 0;
        if (v < 0) {
          carry = (-v + 9) / 10;
          v += carry * 10;
        }
        r[j + 1] = (uchar)v;
      }
      int top = r[0] - carry;
      /* negative: add D back until it is not */
      while (top < 0) {
        int c = 0;
        for (size_t j = nd; j-- > 0;) {
          int v = r[j + 1] + D[j] + c;
          c = v >= 10;
          r[j + 1] = (uchar)(c ? v - 10 : v);
        }
        top += c;
        qd--;
      }
      r[0] = (uchar)top;
    }
    /* too small an estimate: subtract while r >= D */
    for (;;) {
      int c = 0;
      if (r[0] == 0) {
        c = memcmp(r + 1, D, nd);
        if (c < 0) break;
      }
      int borrow = 0;
      for (size_t j = nd; j-- > 0;) {
        int v = r[j + 1] - D[j] - borrow;
        borrow = v < 0;
        r[j + 1] = (uchar)(borrow ? v + 10 : v);
      }
      r[0] = (uchar)(r[0] - borrow);
      qd++;
    }
    q[i] = (uchar)qd;
    int rc = charge(e, nd);
    if (rc) {
      free(r);
      return rc;
    }
  }
  free(r);
  return 0;
}

int cmd_bcnum_div(cmd_bcenv *e, const cmd_bcnum *a, const cmd_bcnum *b, int scale, cmd_bcnum *r) {
  if (cmd_bcnum_is_zero(b)) return -EDOM;
  /* magnitudes as integers: A = |a| 10^sa, B = |b| 10^sb;
   * q = floor(A 10^(scale + sb - sa) / B) */
  const uchar *da = a->d, *db = b->d;
  size_t na = (size_t)(a->len + a->scale), nb = (size_t)(b->len + b->scale);
  while (na > 1 && *da == 0) da++, na--;
  while (nb > 1 && *db == 0) db++, nb--;
  long shift = (long)scale + b->scale - a->scale;
  size_t nn = na + (shift > 0 ? (size_t)shift : 0);
  size_t nd = nb + (shift < 0 ? (size_t)(-shift) : 0);
  size_t qlen = nn >= nd ? nn - nd + 1 : 1;
  if (e && (qlen > e->max_digits || (size_t)scale > e->max_digits)) return -E2BIG;
  cmd_bcnum t;
  cmd_bcnum_init(&t);
  int rc;
  if (nn < nd || (na == 1 && *da == 0)) {
    rc = num_alloc(e, &t, 1, (size_t)scale);
    if (rc) return rc;
  } else {
    uchar *N = calloc(nn, 1), *D = calloc(nd, 1), *q = calloc(nn, 1);
    if (!N || !D || !q) {
      free(N), free(D), free(q);
      return -ENOMEM;
    }
    memcpy(N, da, na);
    memcpy(D, db, nb);
    rc = long_div(e, N, nn, D, nd, q);
    free(N);
    free(D);
    if (rc) {
      free(q);
      return rc;
    }
    /* q has nn digits, the last `scale` of them are the fraction */
    size_t ilen = nn > (size_t)scale ? nn - (size_t)scale : 0;
    rc = num_alloc(e, &t, ilen ? ilen : 1, (size_t)scale);
    if (rc) {
      free(q);
      return rc;
    }
    size_t tl = (size_t)(t.len + t.scale);
    for (size_t i = 0; i < tl && i < nn; i++) t.d[tl - 1 - i] = q[nn - 1 - i];
    free(q);
  }
  t.neg = a->neg != b->neg;
  normalize(&t);
  take(r, &t);
  return 0;
}

int cmd_bcnum_mod(cmd_bcenv *e, const cmd_bcnum *a, const cmd_bcnum *b, int scale, cmd_bcnum *r) {
  if (cmd_bcnum_is_zero(b)) return -EDOM;
  int rscale = a->scale > b->scale + scale ? a->scale : b->scale + scale;
  cmd_bcnum q;
  cmd_bcnum_init(&q);
  int rc = cmd_bcnum_div(e, a, b, scale, &q);
  if (!rc) rc = cmd_bcnum_mul(e, &q, b, rscale, &q);
  if (!rc) rc = cmd_bcnum_sub(e, a, &q, rscale, r);
  cmd_bcnum_free(&q);
  return rc;
}

/* ---- raise and sqrt (GNU's steps) --------------------------------------------------------- */

int cmd_bcnum_raise(cmd_bcenv *e, const cmd_bcnum *a, const cmd_bcnum *b, int scale, cmd_bcnum *r,
                    bool *warn) {
  *warn = b->scale != 0;
  long exponent = cmd_bcnum_to_long(b);
  if (exponent == 0 && cmd_bcnum_long_overflow(b)) return -ERANGE;
  if (exponent == 0) return cmd_bcnum_set_long(r, 1);
  bool neg = exponent < 0;
  unsigned long ex = neg ? 0ul - (unsigned long)exponent : (unsigned long)exponent;
  long rscale;
  if (neg) {
    rscale = scale;
  } else {
    long m = scale > a->scale ? scale : a->scale;
    rscale = (long)a->scale * (long)ex;
    if (a->scale && rscale / a->scale != (long)ex) rscale = LONG_MAX;
    if (rscale > m) rscale = m;
  }
  /* |a| >= 1: the result has about ex * log10|a| integer digits; refuse
   * early what cannot fit rather than multiply towards it. */
  int lz = 0;
  while (lz < a->len - 1 && a->d[lz] == 0) lz++;
  if (a->len - lz > 1 || a->d[lz] != 0) {
    double lead = 0;
    int k = 0;
    for (int i = lz; i < a->len + a->scale && k < 17; i++, k++) lead = lead * 10 + a->d[i];
    double lg = log10(lead) - (k - 1) + (a->len - lz - 1);
    if (e && lg * (double)ex > (double)e->max_digits + 1) return -E2BIG;
  }
  cmd_bcnum power, temp;
  cmd_bcnum_init(&power);
  cmd_bcnum_init(&temp);
  int rc = cmd_bcnum_copy(&power, a);
  long pwrscale = a->scale, calcscale;
  while (!rc && (ex & 1) == 0) {
    pwrscale = 2 * pwrscale;
    if (pwrscale > INT_MAX) pwrscale = INT_MAX;
    rc = cmd_bcnum_mul(e, &power, &power, (int)pwrscale, &power);
    ex >>= 1;
  }
  if (!rc) rc = cmd_bcnum_copy(&temp, &power);
  calcscale = pwrscale;
  ex >>= 1;
  while (!rc && ex > 0) {
    pwrscale = 2 * pwrscale;
    if (pwrscale > INT_MAX) pwrscale = INT_MAX;
    rc = cmd_bcnum_mul(e, &power, &power, (int)pwrscale, &power);
    if (!rc && (ex & 1)) {
      calcscale = pwrscale + calcscale;
      if (calcscale > INT_MAX) calcscale = INT_MAX;
      rc = cmd_bcnum_mul(e, &temp, &power, (int)calcscale, &temp);
    }
    ex >>= 1;
  }
  if (!rc) {
    if (neg) {
      cmd_bcnum one;
      cmd_bcnum_init(&one);
      rc = cmd_bcnum_set_long(&one, 1);
      if (!rc) rc = cmd_bcnum_div(e, &one, &temp, (int)rscale, r);
      cmd_bcnum_free(&one);
    } else {
      cmd_bcnum_truncate(&temp, (int)rscale);
      take(r, &temp);
    }
  }
  cmd_bcnum_free(&power);
  cmd_bcnum_free(&temp);
  return rc;
}

/* GNU's bc_is_near_zero: zero, or one in the last of `scale` digits. */
static bool near_zero(const cmd_bcnum *n, int scale) {
  if (scale > n->scale) scale = n->scale;
  int count = n->len + scale;
  const uchar *p = n->d;
  while (count > 0 && *p++ == 0) count--;
  return !(count != 0 && (count != 1 || *--p != 1));
}

int cmd_bcnum_sqrt(cmd_bcenv *e, const cmd_bcnum *a, int scale, cmd_bcnum *r) {
  cmd_bcnum zero, one;
  cmd_bcnum_init(&zero);
  cmd_bcnum_init(&one);
  int rc = cmd_bcnum_set_long(&zero, 0);
  if (!rc) rc = cmd_bcnum_set_long(&one, 1);
  if (rc) goto out0;
  int c = cmd_bcnum_cmp(a, &zero);
  if (c < 0) {
    rc = -EDOM;
    goto out0;
  }
  if (c == 0) {
    rc = cmd_bcnum_set_long(r, 0);
    goto out0;
  }
  c = cmd_bcnum_cmp(a, &one);
  if (c == 0) {
    rc = cmd_bcnum_set_long(r, 1);
    goto out0;
  }
  int rscale = scale > a->scale ? scale : a->scale;
  cmd_bcnum guess, guess1, point5, diff, num;
  cmd_bcnum_init(&guess);
  cmd_bcnum_init(&guess1);
  cmd_bcnum_init(&point5);
  cmd_bcnum_init(&diff);
  cmd_bcnum_init(&num);
  int cscale;
  rc = cmd_bcnum_copy(&num, a);
  if (!rc) rc = num_alloc(NULL, &point5, 1, 1);
  if (rc) goto out;
  point5.d[1] = 5;
  if (c < 0) {
    rc = cmd_bcnum_set_long(&guess, 1);
    cscale = a->scale;
  } else {
    /* 10 ^ (len / 2), the exponent truncated */
    cmd_bcnum ten, half;
    cmd_bcnum_init(&ten);
    cmd_bcnum_init(&half);
    rc = cmd_bcnum_set_long(&ten, 10);
    if (!rc) rc = cmd_bcnum_set_long(&half, a->len);
    if (!rc) rc = cmd_bcnum_mul(e, &half, &point5, 0, &half);
    if (!rc) {
      half.scale = 0;
      bool w;
      rc = cmd_bcnum_raise(e, &ten, &half, 0, &guess, &w);
    }
    cmd_bcnum_free(&ten);
    cmd_bcnum_free(&half);
    cscale = 3;
  }
  bool done = false;
  while (!rc && !done) {
    rc = cmd_bcnum_copy(&guess1, &guess);
    if (!rc) rc = cmd_bcnum_div(e, &num, &guess, cscale, &guess);
    if (!rc) rc = cmd_bcnum_add(e, &guess, &guess1, 0, &guess);
    if (!rc) rc = cmd_bcnum_mul(e, &guess, &point5, cscale, &guess);
    if (!rc) rc = cmd_bcnum_sub(e, &guess, &guess1, cscale + 1, &diff);
    if (!rc && near_zero(&diff, cscale)) {
      if (cscale < rscale + 1)
        cscale = cscale * 3 < rscale + 1 ? cscale * 3 : rscale + 1;
      else
        done = true;
    }
    if (!rc) rc = charge(e, (uint64_t)(guess.len + guess.scale));
  }
  if (!rc) rc = cmd_bcnum_div(e, &guess, &one, rscale, r);
out:
  cmd_bcnum_free(&guess);
  cmd_bcnum_free(&guess1);
  cmd_bcnum_free(&point5);
  cmd_bcnum_free(&diff);
  cmd_bcnum_free(&num);
out0:
  cmd_bcnum_free(&zero);
  cmd_bcnum_free(&one);
  return rc;
}

/* ---- constants ------------------------------------------------------------------------------ */

static int digit_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'Z') return c - 'A' + 10;
  return -1;
}

int cmd_bcnum_parse(cmd_bcenv *e, const char *s, size_t n, int ibase, cmd_bcnum *r) {
  const char *dot = memchr(s, '.', n);
  size_t ni = dot ? (size_t)(dot - s) : n, nf = dot ? n - ni - 1 : 0;
  if (ibase == 10 && !(n == 1 && s[0] != '.')) {
    /* base 10 (GNU converts these digit by digit): letters count as 9;
     * only a number of one digit keeps a letter's value (below) */
    cmd_bcnum t;
    int rc = num_alloc(e, &t, ni ? ni : 1, nf);
    if (rc) return rc;
    size_t off = ni ? 0 : 1;
    for (size_t i = 0; i < ni; i++) {
      int d = digit_value(s[i]);
      t.d[i] = (uchar)(d > 9 ? 9 : d);
    }
    for (size_t i = 0; i < nf; i++) {
      int d = digit_value(dot[1 + i]);
      t.d[ni + off + i] = (uchar)(d > 9 ? 9 : d);
    }
    normalize(&t);
    take(r, &t);
    return 0;
  }
  /* GNU's push_constant */
  cmd_bcnum build, mult, temp, result, divisor;
  cmd_bcnum_init(&build);
  cmd_bcnum_init(&mult);
  cmd_bcnum_init(&temp);
  cmd_bcnum_init(&result);
  cmd_bcnum_init(&divisor);
  int rc = cmd_bcnum_set_long(&build, 0);
  if (!rc) rc = cmd_bcnum_set_long(&mult, ibase);
  size_t i = 0;
  if (!rc && i < ni) {
    /* a lone integer digit keeps its value (even before a fraction);
     * otherwise digits >= ibase count as ibase-1 */
    int first = digit_value(s[i++]);
    if (i < ni && first >= ibase) first = ibase - 1;
    rc = cmd_bcnum_set_long(&build, first);
  }
  for (; !rc && i < ni; i++) {
    int d = digit_value(s[i]);
    if (d >= ibase) d = ibase - 1;
    rc = cmd_bcnum_mul(e, &build, &mult, 0, &build);
    if (!rc) rc = cmd_bcnum_set_long(&temp, d);
    if (!rc) rc = cmd_bcnum_add(e, &build, &temp, 0, &build);
  }
  if (!rc && dot) {
    rc = cmd_bcnum_set_long(&divisor, 1);
    if (!rc) rc = cmd_bcnum_set_long(&result, 0);
    int digits = 0;
    for (size_t j = 0; !rc && j < nf; j++) {
      int d = digit_value(dot[1 + j]);
      if (d >= ibase) d = ibase - 1;
      rc = cmd_bcnum_mul(e, &result, &mult, 0, &result);
      if (!rc) rc = cmd_bcnum_set_long(&temp, d);
      if (!rc) rc = cmd_bcnum_add(e, &result, &temp, 0, &result);
      if (!rc) rc = cmd_bcnum_mul(e, &divisor, &mult, 0, &divisor);
      digits++;
    }
    if (!rc) rc = cmd_bcnum_div(e, &result, &divisor, digits, &result);
    if (!rc) rc = cmd_bcnum_add(e, &build, &result, 0, &build);
  }
  if (!rc) take(r, &build);
  cmd_bcnum_free(&build);
  cmd_bcnum_free(&mult);
  cmd_bcnum_free(&temp);
  cmd_bcnum_free(&result);
  cmd_bcnum_free(&divisor);
  return rc;
}

/* ---- output ------------------------------------------------------------------------------------ */

/* bc_out_long: an optional space, then val zero-padded to width. */
static void out_group(unsigned long val, int width, bool space, void (*out)(void *, int), void *ud) {
  char buf[32];
  int n = 0;
  do {
    buf[n++] = (char)('0' + val % 10);
    val /= 10;
  } while (val);
  if (space) out(ud, ' ');
  for (int i = n; i < width; i++) out(ud, '0');
  while (n) out(ud, buf[--n]);
}

int cmd_bcnum_print(cmd_bcenv *e, const cmd_bcnum *a, long obase, void (*out)(void *ud, int c),
                    void *ud) {
  static const char ref[] = "0123456789ABCDEF";
  if (a->neg && !cmd_bcnum_is_zero(a)) out(ud, '-');
  if (cmd_bcnum_is_zero(a)) {
    out(ud, '0');
    return 0;
  }
  if (obase == 10) {
    const uchar *p = a->d;
    if (a->len > 1 || *p != 0)
      for (int i = 0; i < a->len; i++) out(ud, '0' + *p++);
    else
      p++;
    if (a->scale > 0) {
      out(ud, '.');
      for (int i = 0; i < a->scale; i++) out(ud, '0' + *p++);
    }
    return 0;
  }
  int width = 0;
  for (unsigned long m = (unsigned long)obase - 1; m; m /= 10) width++;
  if (width == 0) width = 1;
  /* integer part: repeated division by obase, digits stacked */
  size_t ni = (size_t)a->len;
  uchar *ip = malloc(ni);
  unsigned long *digits = NULL;
  size_t nd = 0, cap = 0;
  if (!ip) return -ENOMEM;
  memcpy(ip, a->d, ni);
  size_t start = 0;
  while (start < ni && ip[start] == 0) start++;
  while (start < ni) {
    unsigned long rem = 0;
    for (size_t i = start; i < ni; i++) {
      unsigned long v = rem * 10 + ip[i];
      ip[i] = (uchar)(v / (unsigned long)obase);
      rem = v % (unsigned long)obase;
    }
    if (cmd_grow(&digits, &cap, nd + 1, sizeof *digits)) {
      free(ip);
      free(digits);
      return -ENOMEM;
    }
    digits[nd++] = rem;
    while (start < ni && ip[start] == 0) start++;
    int rc = charge(e, ni - start + 1);
    if (rc) {
      free(ip);
      free(digits);
      return rc;
    }
  }
  free(ip);
  while (nd) {
    unsigned long d = digits[--nd];
    if (obase <= 16)
      out(ud, ref[d]);
    else
      out_group(d, width, true, out, ud);
  }
  free(digits);
  /* fraction: multiply by obase, take the integer part, while obase^k has
   * at most `scale` integer digits */
  if (a->scale > 0) {
    out(ud, '.');
    size_t ns = (size_t)a->scale;
    uchar *fp = malloc(ns);
    /* t = obase^k as a decimal digit string, least significant first */
    size_t tcap = 64, tlen = 1;
    uchar *t = calloc(tcap, 1);
    if (!fp || !t) {
      free(fp);
      free(t);
      return -ENOMEM;
    }
    memcpy(fp, a->d + a->len, ns);
    t[0] = 1;
    bool pre_space = false;
    while (tlen <= ns) {
      unsigned long carry = 0;
      for (size_t i = ns; i-- > 0;) {
        unsigned long v = (unsigned long)fp[i] * (unsigned long)obase + carry;
        fp[i] = (uchar)(v % 10);
        carry = v / 10;
      }
      if (obase <= 16) {
        out(ud, ref[carry]);
      } else {
        out_group(carry, width, pre_space, out, ud);
        pre_space = true;
      }
      /* t *= obase */
      unsigned long c = 0;
      for (size_t i = 0; i < tlen; i++) {
        unsigned long v = (unsigned long)t[i] * (unsigned long)obase + c;
        t[i] = (uchar)(v % 10);
        c = v / 10;
      }
      while (c) {
        if (tlen == tcap) {
          uchar *nt = realloc(t, tcap * 2);
          if (!nt) {
            free(fp);
            free(t);
            return -ENOMEM;
          }
          memset(nt + tcap, 0, tcap);
          t = nt;
          tcap *= 2;
        }
        t[tlen++] = (uchar)(c % 10);
        c /= 10;
      }
      int rc = charge(e, ns + tlen);
      if (rc) {
        free(fp);
        free(t);
        return rc;
      }
    }
    free(fp);
    free(t);
  }
  return 0;
}
