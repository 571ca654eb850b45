/*
 * bc_num.c - arbitrary precision decimal numbers for the bc command.
 *
 * A number is a sign, `len` integer digits and `scale` fraction digits, one
 * decimal digit per byte, like GNU bc's, so every scale rule is the same:
 * addition and subtraction are exact (scale = the larger one), a product is
 * truncated to min(s1+s2, max(scale, s1, s2)) digits, a quotient to `scale`
 * digits, a remainder is a - (a/b)*b at max(s1, s2+scale), powers and square
 * roots follow GNU's algorithms step by step so the last digit agrees.
 * Nothing ever rounds.
 *
 * Speed: addition works on digits; multiplication and division convert to
 * base 10^9 limbs (schoolbook product, Knuth's division), which is 80 times
 * fewer steps than digit by digit. Bounds: every result larger than
 * bc->max_digits digits is refused (bc_limit), and long loops call bc_poll,
 * so 2^99999999 or a 10^6-digit division end with a clear message. All
 * memory, temporaries included, is on the live list: a limit error may
 * longjmp out from anywhere.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/bc.h"

#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define MIN(a, b) ((a) < (b) ? (a) : (b))

/* ---- allocation --------------------------------------------------------------------- */

static void link_rec(bc_state *bc, bc_num n) {
  n->next = bc->live.next;
  n->prev = &bc->live;
  bc->live.next->prev = n;
  bc->live.next = n;
}

static void unlink_rec(bc_num n) {
  n->prev->next = n->next;
  n->next->prev = n->prev;
}

bc_num bc_new(bc_state *bc, int len, int scale) {
  if (len < 1) len = 1;
  if (scale < 0) scale = 0;
  size_t digits = (size_t)len + (size_t)scale;
  if (digits > bc->max_digits) bc_limit(bc, "number too long");
  bc_num n = malloc(sizeof(*n) + digits);
  if (!n) bc_limit(bc, "out of memory");
  n->refs = 1;
  n->neg = false;
  n->len = len;
  n->scale = scale;
  n->v = (unsigned char *)(n + 1);
  memset(n->v, 0, digits);
  link_rec(bc, n);
  return n;
}

bc_num bc_copy(bc_num n) {
  n->refs++;
  return n;
}

void bc_free(bc_state *bc, bc_num *np) {
  (void)bc;
  bc_num n = *np;
  *np = NULL;
  if (!n) return;
  if (--n->refs) return;
  unlink_rec(n);
  free(n);
}

/* Temporary buffers on the same live list (a number record used as a
 * header); freed by bc_tmp_free or by the bulk free after a limit error. */
void *bc_tmp_alloc(bc_state *bc, size_t bytes) {
  if (bytes > bc->max_digits * 4 + 1024) bc_limit(bc, "number too long");
  bc_num n = malloc(sizeof(*n) + bytes + 16);
  if (!n) bc_limit(bc, "out of memory");
  n->refs = 1;
  n->v = (unsigned char *)(n + 1);
  link_rec(bc, n);
  return n + 1;
}

void bc_tmp_free(void *p) {
  if (!p) return;
  bc_num n = (bc_num)p - 1;
  unlink_rec(n);
  free(n);
}

void bc_num_init(bc_state *bc) {
  bc->live.next = bc->live.prev = &bc->live;
  bc->zero = bc_new(bc, 1, 0);
  bc->one = bc_new(bc, 1, 0);
  bc->one->v[0] = 1;
  bc->two = bc_new(bc, 1, 0);
  bc->two->v[0] = 2;
}

void bc_num_free_all(bc_state *bc) {
  bc_num n = bc->live.next;
  while (n != &bc->live) {
    bc_num next = n->next;
    free(n);
    n = next;
  }
  bc->live.next = bc->live.prev = &bc->live;
}

bc_num bc_zero(bc_state *bc) { return bc_copy(bc->zero); }
bc_num bc_one(bc_state *bc) { return bc_copy(bc->one); }

static void rm_leading_zeros(bc_num n) {
  int k = 0;
  while (k < n->len - 1 && n->v[k] == 0) k++;
  if (k) {
    memmove(n->v, n->v + k, (size_t)(n->len - k + n->scale));
    n->len -= k;
  }
}

bool bc_is_zero(bc_num n) {
  int c = n->len + n->scale;
  for (int i = 0; i < c; i++)
    if (n->v[i]) return false;
  return true;
}

bool bc_is_neg(bc_num n) { return n->neg; }

bool bc_is_near_zero(bc_num n, int scale) {
  if (scale > n->scale) scale = n->scale;
  int count = n->len + scale;
  const unsigned char *p = n->v;
  while (count > 0 && *p++ == 0) count--;
  return count == 0 || (count == 1 && p[-1] == 1);
}

bc_num bc_from_long(bc_state *bc, long val) {
  char buf[32];
  bool neg = val < 0;
  unsigned long u = neg ? 0ul - (unsigned long)val : (unsigned long)val;
  int k = 0;
  do {
    buf[k++] = (char)(u % 10);
    u /= 10;
  } while (u);
  bc_num n = bc_new(bc, k, 0);
  for (int i = 0; i < k; i++) n->v[i] = (unsigned char)buf[k - 1 - i];
  n->neg = neg && !bc_is_zero(n);
  return n;
}

long bc_to_long(bc_num n) {
  long val = 0;
  int i = 0;
  for (; i < n->len && val <= LONG_MAX / 10; i++) val = val * 10 + n->v[i];
  if (i < n->len || val < 0) val = 0;
  return n->neg ? -val : val;
}

/* ---- comparison ---------------------------------------------------------------------- */

static int cmp_mag(bc_num a, bc_num b) {
  if (a->len != b->len) return a->len > b->len ? 1 : -1;
  int count = a->len + MIN(a->scale, b->scale);
  for (int i = 0; i < count; i++)
    if (a->v[i] != b->v[i]) return a->v[i] > b->v[i] ? 1 : -1;
  if (a->scale > b->scale) {
    for (int i = count; i < a->len + a->scale; i++)
      if (a->v[i]) return 1;
  } else if (b->scale > a->scale) {
    for (int i = count; i < b->len + b->scale; i++)
      if (b->v[i]) return -1;
  }
  return 0;
}

int bc_compare(bc_num a, bc_num b) {
  if (a->neg != b->neg) return a->neg ? -1 : 1;
  int c = cmp_mag(a, b);
  return a->neg ? -c : c;
}

/* ---- addition and subtraction --------------------------------------------------------- */

static inline int dig_int(bc_num n, int i) { return i < n->len ? n->v[n->len - 1 - i] : 0; }
static inline int dig_frac(bc_num n, int f) { return f < n->scale ? n->v[n->len + f] : 0; }

static bc_num do_add(bc_state *bc, bc_num a, bc_num b, int scale_min) {
  int sscale = MAX(a->scale, b->scale);
  int slen = MAX(a->len, b->len) + 1;
  bc_num r = bc_new(bc, slen, MAX(sscale, scale_min));
  int carry = 0;
  for (int f = sscale - 1; f >= 0; f--) {
    int d = dig_frac(a, f) + dig_frac(b, f) + carry;
    carry = d >= 10;
    r->v[slen + f] = (unsigned char)(carry ? d - 10 : d);
  }
  for (int i = 0; i < slen; i++) {
    int d = dig_int(a, i) + dig_int(b, i) + carry;
    carry = d >= 10;
    r->v[slen - 1 - i] = (unsigned char)(carry ? d - 10 : d);
  }
  rm_leading_zeros(r);
  return r;
}

/* |a| >= |b| */
static bc_num do_sub(bc_state *bc, bc_num a, bc_num b, int scale_min) {
  int dscale = MAX(a->scale, b->scale);
  int dlen = MAX(a->len, b->len);
  bc_num r = bc_new(bc, dlen, MAX(dscale, scale_min));
  int borrow = 0;
  for (int f = dscale - 1; f >= 0; f--) {
    int d = dig_frac(a, f) - dig_frac(b, f) - borrow;
    borrow = d < 0;
    r->v[dlen + f] = (unsigned char)(borrow ? d + 10 : d);
  }
  for (int i = 0; i < dlen; i++) {
    int d = dig_int(a, i) - dig_int(b, i) - borrow;
    borrow = d < 0;
    r->v[dlen - 1 - i] = (unsigned char)(borrow ? d + 10 : d);
  }
  rm_leading_zeros(r);
  return r;
}

bc_num bc_add(bc_state *bc, bc_num a, bc_num b, int scale_min) {
  bc_num r;
  if (a->neg == b->neg) {
    r = do_add(bc, a, b, scale_min);
    r->neg = a->neg;
  } else {
    int c = cmp_mag(a, b);
    if (c < 0) {
      r = do_sub(bc, b, a, scale_min);
      r->neg = b->neg;
    } else if (c == 0) {
      r = bc_new(bc, 1, MAX(scale_min, MAX(a->scale, b->scale)));
    } else {
      r = do_sub(bc, a, b, scale_min);
      r->neg = a->neg;
    }
  }
  return r;
}

bc_num bc_sub(bc_state *bc, bc_num a, bc_num b, int scale_min) {
  bc_num r;
  if (a->neg != b->neg) {
    r = do_add(bc, a, b, scale_min);
    r->neg = a->neg;
  } else {
    int c = cmp_mag(a, b);
    if (c < 0) {
      r = do_sub(bc, b, a, scale_min);
      r->neg = !b->neg;
    } else if (c == 0) {
      r = bc_new(bc, 1, MAX(scale_min, MAX(a->scale, b->scale)));
    } else {
      r = do_sub(bc, a, b, scale_min);
      r->neg = a->neg;
    }
  }
  return r;
}

/* ---- big integers in base 10^9 (for products and quotients) ------------------------------ */

#define LIMB_BASE 1000000000u

typedef struct bigint {
  uint32_t *d; /* little-endian limbs (tracked temporary) */
  size_t n;    /* limbs used (0 = zero) */
} bigint;

/* The integer whose decimal digits are dig[0..cnt) followed by zeros zeros. */
static bigint bi_from_digits(bc_state *bc, const unsigned char *dig, size_t cnt, size_t zeros) {
  size_t total = cnt + zeros;
  size_t limbs = total / 9 + 2;
  bigint r = {bc_tmp_alloc(bc, limbs * sizeof(uint32_t)), 0};
  /* walk from the least significant digit */
  size_t k = 0;
  uint32_t cur = 0, mul = 1;
  for (size_t i = 0; i < total; i++) {
    size_t pos = total - 1 - i;
    unsigned d = pos < cnt ? dig[pos] : 0;
    cur += d * mul;
    mul *= 10;
    if (mul == LIMB_BASE) {
      r.d[k++] = cur;
      cur = 0;
      mul = 1;
    }
  }
  if (mul != 1) r.d[k++] = cur;
  while (k > 0 && r.d[k - 1] == 0) k--;
  r.n = k;
  return r;
}

/* Decimal digits of a, exactly `width` of them (zero-padded at the front,
 * truncated at the front if longer: callers size it). */
static void bi_to_digits(const bigint *a, unsigned char *out, size_t width) {
  memset(out, 0, width);
  size_t pos = width;
  for (size_t i = 0; i < a->n && pos > 0; i++) {
    uint32_t v = a->d[i];
    for (int k = 0; k < 9 && pos > 0; k++) {
      out[--pos] = (unsigned char)(v % 10);
      v /= 10;
    }
  }
}

static size_t bi_digits(const bigint *a) {
  if (a->n == 0) return 1;
  size_t d = (a->n - 1) * 9;
  uint32_t top = a->d[a->n - 1];
  while (top) {
    d++;
    top /= 10;
  }
  return d;
}

static bigint bi_mul(bc_state *bc, const bigint *a, const bigint *b) {
  bigint r = {bc_tmp_alloc(bc, (a->n + b->n + 1) * sizeof(uint32_t)), 0};
  if (!a->n || !b->n) return r;
  size_t rn = a->n + b->n;
  uint64_t *acc = bc_tmp_alloc(bc, (rn + 1) * sizeof(uint64_t));
  memset(acc, 0, (rn + 1) * sizeof(uint64_t));
  for (size_t i = 0; i < a->n; i++) {
    uint64_t ai = a->d[i];
    if (!ai) continue;
    uint64_t carry = 0;
    for (size_t j = 0; j < b->n; j++) {
      uint64_t t = acc[i + j] + ai * b->d[j] + carry;
      acc[i + j] = t % LIMB_BASE;
      carry = t / LIMB_BASE;
    }
    size_t k = i + b->n;
    while (carry) {
      uint64_t t = acc[k] + carry;
      acc[k] = t % LIMB_BASE;
      carry = t / LIMB_BASE;
      k++;
    }
    if ((i & 255) == 255) bc_poll(bc);
  }
  for (size_t i = 0; i < rn; i++) r.d[i] = (uint32_t)acc[i];
  bc_tmp_free(acc);
  r.n = rn;
  while (r.n > 0 && r.d[r.n - 1] == 0) r.n--;
  return r;
}

/* q = a / b (b != 0), Knuth's algorithm D in base 10^9. */
static bigint bi_div(bc_state *bc, const bigint *a, const bigint *b) {
  bigint q = {bc_tmp_alloc(bc, (a->n + 1) * sizeof(uint32_t)), 0};
  if (a->n < b->n) return q;
  if (b->n == 1) {
    uint64_t rem = 0, dv = b->d[0];
    for (size_t i = a->n; i-- > 0;) {
      uint64_t cur = rem * LIMB_BASE + a->d[i];
      q.d[i] = (uint32_t)(cur / dv);
      rem = cur % dv;
    }
    q.n = a->n;
    while (q.n > 0 && q.d[q.n - 1] == 0) q.n--;
    return q;
  }
  /* normalize so the top limb of b is >= BASE/2 */
  uint64_t norm = LIMB_BASE / ((uint64_t)b->d[b->n - 1] + 1);
  size_t n = b->n, m = a->n - b->n;
  uint32_t *u = bc_tmp_alloc(bc, (a->n + 1) * sizeof(uint32_t));
  uint32_t *v = bc_tmp_alloc(bc, n * sizeof(uint32_t));
  uint64_t carry = 0;
  for (size_t i = 0; i < a->n; i++) {
    uint64_t t = (uint64_t)a->d[i] * norm + carry;
    u[i] = (uint32_t)(t % LIMB_BASE);
    carry = t / LIMB_BASE;
  }
  u[a->n] = (uint32_t)carry;
  carry = 0;
  for (size_t i = 0; i < n; i++) {
    uint64_t t = (uint64_t)b->d[i] * norm + carry;
    v[i] = (uint32_t)(t % LIMB_BASE);
    carry = t / LIMB_BASE;
  }
  for (size_t j = m + 1; j-- > 0;) {
    uint64_t num = (uint64_t)u[j + n] * LIMB_BASE + u[j + n - 1];
    uint64_t qhat = num / v[n - 1];
    uint64_t rhat = num % v[n - 1];
    while (qhat >= LIMB_BASE || qhat * v[n - 2] > rhat * LIMB_BASE + u[j + n - 2]) {
      qhat--;
      rhat += v[n - 1];
      if (rhat >= LIMB_BASE) break;
    }
    /* multiply and subtract */
    int64_t borrow = 0;
    uint64_t mc = 0;
    for (size_t i = 0; i < n; i++) {
      uint64_t p = qhat * v[i] + mc;
      mc = p / LIMB_BASE;
      int64_t t = (int64_t)u[i + j] - (int64_t)(p % LIMB_BASE) - borrow;
      borrow = t < 0;
      u[i + j] = (uint32_t)(t < 0 ? t + LIMB_BASE : t);
    }
    int64_t t = (int64_t)u[j + n] - (int64_t)mc - borrow;
    borrow = t < 0;
    u[j + n] = (uint32_t)(t < 0 ? t + LIMB_BASE : t);
    if (borrow) {
      qhat--;
      uint64_t c = 0;
      for (size_t i = 0; i < n; i++) {
        uint64_t s = (uint64_t)u[i + j] + v[i] + c;
        u[i + j] = (uint32_t)(s % LIMB_BASE);
        c = s / LIMB_BASE;
      }
      u[j + n] = (uint32_t)(((uint64_t)u[j + n] + c) % LIMB_BASE);
    }
    q.d[j] = (uint32_t)qhat;
    if ((j & 127) == 0) bc_poll(bc);
  }
  bc_tmp_free(u);
  bc_tmp_free(v);
  q.n = m + 1;
  while (q.n > 0 && q.d[q.n - 1] == 0) q.n--;
  return q;
}

/* ---- multiplication and division ---------------------------------------------------------- */

bc_num bc_mul(bc_state *bc, bc_num a, bc_num b, int scale) {
  int full_scale = a->scale + b->scale;
  int prod_scale = MIN(full_scale, MAX(scale, MAX(a->scale, b->scale)));
  size_t la = (size_t)a->len + (size_t)a->scale, lb = (size_t)b->len + (size_t)b->scale;
  if (la + lb > bc->max_digits + (size_t)full_scale) bc_limit(bc, "number too long");
  bigint x = bi_from_digits(bc, a->v, la, 0);
  bigint y = bi_from_digits(bc, b->v, lb, 0);
  bigint p = bi_mul(bc, &x, &y);
  bc_tmp_free(x.d);
  bc_tmp_free(y.d);
  /* p has full_scale fraction digits; a->len + b->len integer digits */
  int len = a->len + b->len;
  size_t total = (size_t)len + (size_t)full_scale;
  unsigned char *dig = bc_tmp_alloc(bc, total + 1);
  bi_to_digits(&p, dig, total);
  bc_tmp_free(p.d);
  bc_num r = bc_new(bc, len, prod_scale);
  memcpy(r->v, dig, (size_t)len + (size_t)prod_scale);
  bc_tmp_free(dig);
  rm_leading_zeros(r);
  r->neg = (a->neg != b->neg) && !bc_is_zero(r);
  return r;
}

bc_num bc_div(bc_state *bc, bc_num a, bc_num b, int scale) {
  if (bc_is_zero(b)) return NULL;
  /* a/b * 10^scale = A/B with A = Ia * 10^e or B = Ib * 10^-e,
   * e = b->scale + scale - a->scale */
  long e = (long)b->scale + scale - a->scale;
  size_t la = (size_t)a->len + (size_t)a->scale, lb = (size_t)b->len + (size_t)b->scale;
  if ((size_t)a->len + (size_t)scale + (size_t)b->scale > bc->max_digits + (size_t)b->scale)
    bc_limit(bc, "number too long");
  bigint x = bi_from_digits(bc, a->v, la, e > 0 ? (size_t)e : 0);
  bigint y = bi_from_digits(bc, b->v, lb, e < 0 ? (size_t)-e : 0);
  bigint q = bi_div(bc, &x, &y);
  bc_tmp_free(x.d);
  bc_tmp_free(y.d);
  size_t qd = bi_digits(&q);
  int len = qd > (size_t)scale ? (int)(qd - (size_t)scale) : 1;
  size_t total = (size_t)len + (size_t)scale;
  bc_num r = bc_new(bc, len, scale);
  bi_to_digits(&q, r->v, total);
  bc_tmp_free(q.d);
  rm_leading_zeros(r);
  r->neg = (a->neg != b->neg) && !bc_is_zero(r);
  return r;
}

bc_num bc_trunc(bc_state *bc, bc_num a, int scale) {
  bc_num r = bc_new(bc, a->len, scale);
  memcpy(r->v, a->v, (size_t)a->len + (size_t)MIN(a->scale, scale));
  r->neg = a->neg && !bc_is_zero(r);
  return r;
}

bc_num bc_mod(bc_state *bc, bc_num a, bc_num b, int scale) {
  if (bc_is_zero(b)) return NULL;
  int rscale = MAX(a->scale, b->scale + scale);
  bc_num q = bc_div(bc, a, b, scale);
  bc_num t = bc_mul(bc, q, b, rscale);
  bc_free(bc, &q);
  bc_num r = bc_sub(bc, a, t, rscale);
  bc_free(bc, &t);
  return r;
}

/* ---- powers and roots --------------------------------------------------------------------- */

bc_num bc_raise(bc_state *bc, bc_num a, bc_num b, int scale) {
  if (b->scale != 0) bc_rt_warn(bc, "non-zero scale in exponent");
  long exponent = bc_to_long(b);
  if (exponent == 0 && (b->len > 1 || b->v[0] != 0)) {
    bc_rt_error(bc, "exponent too large in raise");
    return bc_one(bc);
  }
  if (exponent == 0) return bc_one(bc);
  bool neg = exponent < 0;
  int rscale;
  if (neg) {
    exponent = -exponent;
    rscale = scale;
  } else {
    long s = (long)a->scale * exponent;
    if (a->scale && s / a->scale != exponent) s = LONG_MAX;
    rscale = (int)MIN(s, (long)MAX(scale, a->scale));
  }
  /* the result has about len*exponent digits: refuse what cannot fit */
  {
    double digits = (double)(a->len) * (double)exponent;
    if (!bc_is_zero(a) && !(a->len == 1 && a->v[0] <= 1 && a->scale == 0) &&
        digits > (double)bc->max_digits * 1.01 + 10)
      bc_limit(bc, "number too long");
  }
  bc_num power = bc_copy(a);
  long pwrscale = a->scale;
  while ((exponent & 1) == 0) {
    pwrscale = 2 * pwrscale;
    bc_num t = bc_mul(bc, power, power, (int)MIN(pwrscale, INT_MAX));
    bc_free(bc, &power);
    power = t;
    exponent >>= 1;
  }
  bc_num temp = bc_copy(power);
  long calcscale = pwrscale;
  exponent >>= 1;
  while (exponent > 0) {
    bc_poll(bc);
    pwrscale = 2 * pwrscale;
    bc_num t = bc_mul(bc, power, power, (int)MIN(pwrscale, INT_MAX));
    bc_free(bc, &power);
    power = t;
    if (exponent & 1) {
      calcscale = pwrscale + calcscale;
      bc_num u = bc_mul(bc, temp, power, (int)MIN(calcscale, INT_MAX));
      bc_free(bc, &temp);
      temp = u;
    }
    exponent >>= 1;
  }
  bc_num result;
  if (neg) {
    result = bc_div(bc, bc->one, temp, rscale);
    bc_free(bc, &temp);
    if (!result) result = bc_zero(bc); /* 0^-n: the caller reports it */
  } else {
    result = temp;
    if (result->scale > rscale) {
      bc_num t = bc_trunc(bc, result, rscale);
      bc_free(bc, &result);
      result = t;
    }
  }
  bc_free(bc, &power);
  return result;
}

bc_num bc_sqrt(bc_state *bc, bc_num num, int scale) {
  int c = bc_compare(num, bc->zero);
  if (c < 0) return NULL;
  if (c == 0) return bc_zero(bc);
  c = bc_compare(num, bc->one);
  if (c == 0) return bc_one(bc);
  int rscale = MAX(scale, num->scale), cscale;
  bc_num guess, guess1 = NULL, diff = NULL;
  bc_num point5 = bc_new(bc, 1, 1);
  point5->v[1] = 5;
  if (c < 0) {
    guess = bc_one(bc);
    cscale = num->scale;
  } else {
    /* 10^(len/2) */
    bc_num ten = bc_from_long(bc, 10);
    bc_num l = bc_from_long(bc, num->len);
    bc_num half = bc_mul(bc, l, point5, 0);
    half->scale = 0;
    guess = bc_raise(bc, ten, half, 0);
    bc_free(bc, &ten);
    bc_free(bc, &l);
    bc_free(bc, &half);
    cscale = 3;
  }
  bool done = false;
  while (!done) {
    bc_poll(bc);
    bc_free(bc, &guess1);
    guess1 = bc_copy(guess);
    bc_num q = bc_div(bc, num, guess, cscale);
    bc_free(bc, &guess);
    bc_num s = bc_add(bc, q, guess1, 0);
    bc_free(bc, &q);
    guess = bc_mul(bc, s, point5, cscale);
    bc_free(bc, &s);
    bc_free(bc, &diff);
    diff = bc_sub(bc, guess, guess1, cscale + 1);
    if (bc_is_near_zero(diff, cscale)) {
      if (cscale < rscale + 1) cscale = MIN(cscale * 3, rscale + 1);
      else done = true;
    }
  }
  bc_num r = bc_div(bc, guess, bc->one, rscale);
  bc_free(bc, &guess);
  bc_free(bc, &guess1);
  bc_free(bc, &point5);
  bc_free(bc, &diff);
  return r;
}

/* ---- conversion ------------------------------------------------------------------------- */

bc_num bc_from_str(bc_state *bc, const char *s) {
  const char *p = s;
  while (*p == '0') p++;
  const char *dot = strchr(p, '.');
  size_t ilen = dot ? (size_t)(dot - p) : strlen(p);
  size_t flen = dot ? strlen(dot + 1) : 0;
  bc_num r = bc_new(bc, ilen ? (int)ilen : 1, (int)flen);
  size_t o = ilen ? 0 : 1;
  for (size_t i = 0; i < ilen; i++) r->v[o++] = (unsigned char)(p[i] - '0');
  for (size_t i = 0; i < flen; i++) r->v[o++] = (unsigned char)(dot[1 + i] - '0');
  return r;
}

static void out_long(bc_state *bc, long val, int size, bool space, void (*out)(bc_state *, int)) {
  char digits[40];
  if (space) out(bc, ' ');
  int len = snprintf(digits, sizeof digits, "%ld", val);
  while (size > len) {
    out(bc, '0');
    size--;
  }
  for (int i = 0; i < len; i++) out(bc, digits[i]);
}

void bc_out_num(bc_state *bc, bc_num num, int obase, void (*out)(bc_state *, int)) {
  static const char ref[] = "0123456789ABCDEF";
  if (num->neg) out(bc, '-');
  if (bc_is_zero(num)) {
    out(bc, '0');
    return;
  }
  if (obase == 10) {
    const unsigned char *p = num->v;
    if (num->len > 1 || *p != 0) {
      for (int i = 0; i < num->len; i++) out(bc, '0' + *p++);
    } else {
      p++;
    }
    if (num->scale > 0) {
      out(bc, '.');
      for (int i = 0; i < num->scale; i++) out(bc, '0' + *p++);
    }
    return;
  }
  /* other bases: integer digits by repeated division, fraction digits by
   * repeated multiplication, as GNU bc does */
  bc_num int_part = bc_div(bc, num, bc->one, 0);
  bc_num frac_part = bc_sub(bc, num, int_part, 0);
  int_part->neg = false;
  frac_part->neg = false;
  bc_num base = bc_from_long(bc, obase);
  bc_num maxd = bc_from_long(bc, obase - 1);
  int width = maxd->len;
  size_t ndig = 0, capdig = 16;
  long *digits = bc_tmp_alloc(bc, capdig * sizeof(long));
  while (!bc_is_zero(int_part)) {
    bc_num cur = bc_mod(bc, int_part, base, 0);
    if (ndig == capdig) {
      long *nd = bc_tmp_alloc(bc, capdig * 2 * sizeof(long));
      memcpy(nd, digits, capdig * sizeof(long));
      bc_tmp_free(digits);
      digits = nd;
      capdig *= 2;
    }
    digits[ndig++] = bc_to_long(cur);
    bc_free(bc, &cur);
    bc_num q = bc_div(bc, int_part, base, 0);
    bc_free(bc, &int_part);
    int_part = q;
    if ((ndig & 1023) == 0) bc_poll(bc);
  }
  for (size_t i = ndig; i-- > 0;) {
    if (obase <= 16) out(bc, ref[digits[i]]);
    else out_long(bc, digits[i], width, true, out);
  }
  bc_tmp_free(digits);
  if (num->scale > 0) {
    out(bc, '.');
    bool pre_space = false;
    bc_num t = bc_one(bc);
    while (t->len <= num->scale) {
      bc_num m = bc_mul(bc, frac_part, base, num->scale);
      bc_free(bc, &frac_part);
      frac_part = m;
      long fdigit = bc_to_long(frac_part);
      bc_num ip = bc_from_long(bc, fdigit);
      bc_num f2 = bc_sub(bc, frac_part, ip, 0);
      bc_free(bc, &ip);
      bc_free(bc, &frac_part);
      frac_part = f2;
      if (obase <= 16) out(bc, ref[fdigit]);
      else {
        out_long(bc, fdigit, width, pre_space, out);
        pre_space = true;
      }
      bc_num t2 = bc_mul(bc, t, base, 0);
      bc_free(bc, &t);
      t = t2;
    }
    bc_free(bc, &t);
  }
  bc_free(bc, &int_part);
  bc_free(bc, &frac_part);
  bc_free(bc, &base);
  bc_free(bc, &maxd);
}
