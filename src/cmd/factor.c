/*
 * factor - print the prime factors of each number.
 *
 *   Usage: factor [NUMBER]...   (numbers from standard input when none)
 *
 * Design: unsigned 64-bit numbers as GNU without GMP's bignums: trial
 * division by small primes, then Miller-Rabin (deterministic for 64 bits with
 * the first twelve primes as bases) and Pollard's rho (Brent) on what is left,
 * with __int128 products. Factors are printed in ascending order.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/lib/gnu.h"

CMD_DEFINE("factor", cmd_factor_main);

static uint64_t mulmod(uint64_t a, uint64_t b, uint64_t m) {
  return (uint64_t)((unsigned __int128)a * b % m);
}

static uint64_t powmod(uint64_t b, uint64_t e, uint64_t m) {
  uint64_t r = 1;
  b %= m;
  while (e) {
    if (e & 1) r = mulmod(r, b, m);
    b = mulmod(b, b, m);
    e >>= 1;
  }
  return r;
}

static bool is_prime(uint64_t n) {
  if (n < 2) return false;
  static const uint64_t bases[] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37};
  for (int i = 0; i < 12; i++) {
    if (n == bases[i]) return true;
    if (n % bases[i] == 0) return false;
  }
  uint64_t d = n - 1;
  int s = 0;
  while (!(d & 1)) d >>= 1, s++;
  for (int i = 0; i < 12; i++) {
    uint64_t x = powmod(bases[i], d, n);
    if (x == 1 || x == n - 1) continue;
    bool comp = true;
    for (int r = 1; r < s && comp; r++) {
      x = mulmod(x, x, n);
      if (x == n - 1) comp = false;
    }
    if (comp) return false;
  }
  return true;
}

static uint64_t gcd64(uint64_t a, uint64_t b) {
  while (b) {
    uint64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/* A non-trivial factor of the odd composite n. */
static uint64_t rho(uint64_t n) {
  for (uint64_t c = 1;; c++) {
    uint64_t x = 2, y = 2, d = 1;
    while (d == 1) {
      x = (mulmod(x, x, n) + c) % n;
      y = (mulmod(y, y, n) + c) % n;
      y = (mulmod(y, y, n) + c) % n;
      d = gcd64(x > y ? x - y : y - x, n);
    }
    if (d != n) return d;
  }
}

typedef struct factors {
  uint64_t v[64]; /* at most 64 prime factors in 64 bits */
  int n;          /* count */
} factors;

static void split(factors *f, uint64_t n) {
  if (n == 1) return;
  if (is_prime(n)) {
    f->v[f->n++] = n;
    return;
  }
  uint64_t d = rho(n);
  split(f, d);
  split(f, n / d);
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* Prints "N: p p ..." for the word s; false when it is not a number. */
static bool factor_word(cmd_ctx *ctx, const char *s) {
  const char *p = s;
  if (*p == '+') p++;
  if (!*p) goto bad;
  uint64_t n = 0;
  for (const char *q = p; *q; q++) {
    if (*q < '0' || *q > '9') goto bad;
    if (n > (UINT64_MAX - (uint64_t)(*q - '0')) / 10) { /* GNU goes on with bignums */
      cmd_errorf(ctx, "%s is too large", cmd_gnu_quote(ctx, s));
      return false;
    }
    n = n * 10 + (uint64_t)(*q - '0');
  }
  factors f = {.n = 0};
  uint64_t m = n;
  for (uint64_t d = 2; d < 1000 && m > 1; d++)
    while (m % d == 0) f.v[f.n++] = d, m /= d;
  if (m > 1) split(&f, m);
  qsort(f.v, (size_t)f.n, sizeof f.v[0], cmp_u64);
  cmd_outf(ctx, "%llu:", (unsigned long long)n);
  for (int i = 0; i < f.n; i++) cmd_outf(ctx, " %llu", (unsigned long long)f.v[i]);
  cmd_outc(ctx, '\n');
  return true;
bad:
  cmd_errorf(ctx, "%s is not a valid positive integer", cmd_gnu_quote(ctx, s));
  return false;
}

static const char factor_usage[] =
    "Usage: factor [NUMBER]...\n  or:  factor OPTION\n"
    "Print the prime factors of each specified integer NUMBER.  If none\n"
    "are specified on the command line, read them from standard input.\n";

int cmd_factor_main(cmd_ctx *ctx, int argc, char **argv) {
  cmd_getopt_state g = CMD_GETOPT_INIT;
  int rc = cmd_getopt_all(ctx, &g, argc, argv, "(help)(version)", factor_usage);
  if (rc >= 0) return rc;
  int status = 0;
  if (g.ind < argc) {
    for (int i = g.ind; i < argc && !cmd_poll(ctx); i++)
      if (!factor_word(ctx, argv[i])) status = 1;
    return status;
  }
  cmd_in *in = cmd_in_fd(ctx, 0);
  if (!in) return 1;
  char *line;
  ssize_t n;
  while ((n = cmd_in_getdelim(in, &line, '\n')) > 0 && !cmd_poll(ctx)) {
    char *save = NULL;
    for (char *w = strtok_r(line, " \t\n", &save); w; w = strtok_r(NULL, " \t\n", &save))
      if (!factor_word(ctx, w)) status = 1;
  }
  cmd_in_close(in);
  return status;
}
