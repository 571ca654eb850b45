/*
 * bc_num.h - the arbitrary-precision decimal numbers of `bc`.
 *
 * A number is a sign, `len` integer digits (at least one) and `scale`
 * fraction digits, one decimal digit per byte, most significant first: the
 * representation POSIX bc's semantics are written in (scale is a property
 * of the value: 1.50 has scale 2). Every operation takes the scale rules of
 * GNU bc 1.07 as parameters (see each function) and truncates, never
 * rounds, so results are the digits GNU bc prints.
 *
 * Hostile sizes: every result is checked against env->max_digits before it
 * is allocated (-E2BIG), and the long loops (multiplication rows, division
 * digits, square-root steps) call env->poll, which stops them (-ECANCELED).
 */
#ifndef SBX_CMD_UTIL_BCNUM_H
#define SBX_CMD_UTIL_BCNUM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct cmd_bcnum {
  bool neg;         /* negative (never for zero) */
  int len;          /* integer digits, >= 1 */
  int scale;        /* fraction digits, >= 0 */
  unsigned char *d; /* len + scale digits 0..9, malloc'd; NULL only for an empty slot */
  int alloc;        /* digits allocated (>= len + scale; for the memory account) */
} cmd_bcnum;

/* Memory accounting: while a thread has an account (cmd_bcnum_account),
 * every number's digits are charged to it (plus a per-number overhead) and
 * allocations beyond `max` fail with -ENOSPC. bc keeps one per run. */
typedef struct cmd_bcmem {
  uint64_t live; /* bytes charged now */
  uint64_t max;  /* the most that may be charged */
} cmd_bcmem;
void cmd_bcnum_account(cmd_bcmem *m); /* this thread's account, or NULL */
/* Charges / refunds other memory (bc's array pages) to the account:
 * 0 or -ENOSPC. */
int cmd_bcnum_charge(uint64_t bytes);
void cmd_bcnum_refund(uint64_t bytes);

typedef struct cmd_bcenv {
  size_t max_digits;        /* largest len + scale a result may have */
  int (*poll)(void *ud);    /* non-zero: stop (may be NULL) */
  void *poll_ud;
  uint64_t work;            /* digit operations since the last poll */
} cmd_bcenv;

/* Errors: 0, or -EDOM (divide by zero / negative square root), -E2BIG (more
 * than max_digits), -ECANCELED (poll), -ENOSPC (the memory account is
 * full), -ENOMEM. Results are written to *r
 * (whose old value is freed) only on success; r may alias a or b. */

void cmd_bcnum_init(cmd_bcnum *n);                 /* an empty slot (d == NULL) */
void cmd_bcnum_free(cmd_bcnum *n);                 /* back to an empty slot */
int cmd_bcnum_set_long(cmd_bcnum *r, long v);      /* 0 or -ENOMEM */
int cmd_bcnum_copy(cmd_bcnum *r, const cmd_bcnum *a);
bool cmd_bcnum_is_zero(const cmd_bcnum *a);
/* -1, 0, 1 (exact, signed). */
int cmd_bcnum_cmp(const cmd_bcnum *a, const cmd_bcnum *b);
/* GNU bc_num2long: the integer part, 0 when it has more than 10 digits or
 * is above 2147483649 (GNU checks against a 32-bit LONG_MAX / 10). */
long cmd_bcnum_to_long(const cmd_bcnum *a);
/* Whether the integer part is too big for a long (bc_num2long gave 0 for a
 * non-zero integer part). */
bool cmd_bcnum_long_overflow(const cmd_bcnum *a);
/* Drops fraction digits beyond `scale` (no-op when already shorter). */
void cmd_bcnum_truncate(cmd_bcnum *a, int scale);

/* a + b, a - b with scale max(a.scale, b.scale, scale_min). */
int cmd_bcnum_add(cmd_bcenv *e, const cmd_bcnum *a, const cmd_bcnum *b, int scale_min, cmd_bcnum *r);
int cmd_bcnum_sub(cmd_bcenv *e, const cmd_bcnum *a, const cmd_bcnum *b, int scale_min, cmd_bcnum *r);
/* a * b truncated to min(a.scale + b.scale, max(scale, a.scale, b.scale)). */
int cmd_bcnum_mul(cmd_bcenv *e, const cmd_bcnum *a, const cmd_bcnum *b, int scale, cmd_bcnum *r);
/* a / b truncated to `scale` digits. */
int cmd_bcnum_div(cmd_bcenv *e, const cmd_bcnum *a, const cmd_bcnum *b, int scale, cmd_bcnum *r);
/* a % b: a - (a / b at `scale`) * b, with scale max(a.scale, b.scale + scale). */
int cmd_bcnum_mod(cmd_bcenv *e, const cmd_bcnum *a, const cmd_bcnum *b, int scale, cmd_bcnum *r);
/* a ^ b (GNU bc_raise: b's integer part; *warn set when b has a fraction;
 * -ERANGE when b does not fit a long). */
int cmd_bcnum_raise(cmd_bcenv *e, const cmd_bcnum *a, const cmd_bcnum *b, int scale, cmd_bcnum *r,
                    bool *warn);
/* sqrt(a) at max(scale, a.scale) by GNU's Newton iteration (-EDOM if a < 0). */
int cmd_bcnum_sqrt(cmd_bcenv *e, const cmd_bcnum *a, int scale, cmd_bcnum *r);

/* A constant as bc's lexer keeps it (digits 0-9 A-Z, at most one '.', no
 * sign) converted in base `ibase` like GNU's push_constant: digits >= ibase
 * count as ibase-1 except a lone digit; the fraction keeps as many digits
 * as were written. */
int cmd_bcnum_parse(cmd_bcenv *e, const char *s, size_t n, int ibase, cmd_bcnum *r);

/* Writes a in base obase (2..) as GNU's bc_out_num: base 10 digits as
 * they are; bases <= 16 as 0-9A-F; bigger bases as space-separated decimal
 * groups, zero-padded to the width of obase-1. out(ud, c) gets each
 * character; returns 0 or an error from the conversion. */
int cmd_bcnum_print(cmd_bcenv *e, const cmd_bcnum *a, long obase, void (*out)(void *ud, int c),
                    void *ud);

#endif
