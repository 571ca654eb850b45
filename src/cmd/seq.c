/*
 * seq - print a sequence of numbers.
 *
 *   Usage: seq [OPTION]... LAST
 *     or:  seq [OPTION]... FIRST LAST
 *     or:  seq [OPTION]... FIRST INCREMENT LAST
 *   -f, --format=FORMAT     use printf style floating-point FORMAT
 *   -s, --separator=STRING  use STRING to separate numbers (default: \n)
 *   -w, --equal-width       equalize width by padding with leading zeroes
 *
 * Design: GNU's two paths. Non-negative integer operands without -f/-w are
 * counted as decimal strings (exact at any size, and fast: an increment is a
 * carry over a few bytes). Everything else is long double arithmetic,
 * x = FIRST + i*INCREMENT, printed with a format derived from the operands'
 * written precision and width (GNU's scan_arg rules: "1.50" gives two
 * decimals, "-w" pads to the widest operand), including GNU's check that
 * prints a final value that rounds to LAST. Formatting uses a C.UTF-8 locale
 * object so the host's locale cannot change the decimal point.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/lib/gnu.h"

CMD_DEFINE("seq", cmd_seq_main);

static const char seq_usage[] =
    "Usage: seq [OPTION]... LAST\n"
    "  or:  seq [OPTION]... FIRST LAST\n"
    "  or:  seq [OPTION]... FIRST INCREMENT LAST\n"
    "Print numbers from FIRST to LAST, in steps of INCREMENT.\n"
    "\n"
    "Mandatory arguments to long options are mandatory for short options too.\n"
    "  -f, --format=FORMAT      use printf style floating-point FORMAT\n"
    "  -s, --separator=STRING   use STRING to separate numbers (default: \\n)\n"
    "  -w, --equal-width        equalize width by padding with leading zeroes\n"
    CMD_HELP_VERSION_LINES
    "\n"
    "If FIRST or INCREMENT is omitted, it defaults to 1.  That is, an\n"
    "omitted INCREMENT defaults to 1 even when LAST is smaller than FIRST.\n"
    "The sequence of numbers ends when the sum of the current number and\n"
    "INCREMENT would become greater than LAST.\n"
    "FIRST, INCREMENT, and LAST are interpreted as floating point values.\n"
    "INCREMENT is usually positive if FIRST is smaller than LAST, and\n"
    "INCREMENT is usually negative if FIRST is greater than LAST.\n"
    "INCREMENT must not be 0; none of FIRST, INCREMENT and LAST may be NaN.\n"
    "FORMAT must be suitable for printing one argument of type 'double';\n"
    "it defaults to %.PRECf if FIRST, INCREMENT, and LAST are all fixed point\n"
    "decimal numbers with maximum precision PREC, and to %g otherwise.\n";

typedef struct seq_operand {
  long double value;  /* the number */
  size_t width;       /* characters it would print with (for -w) */
  int precision;      /* digits after the point, INT_MAX = unknown */
} seq_operand;

typedef struct seq_out {
  cmd_ctx *ctx;
  locale_t loc;       /* C.UTF-8 for formatting (or 0) */
  const char *fmt;    /* long double format with one directive */
  size_t prefix_len;  /* bytes the format prints before the number */
  size_t suffix_len;  /* and after it */
} seq_out;

static int seq_usage_error(cmd_ctx *ctx) { return cmd_usage_hint(ctx, 1); }

static int seq_scan(cmd_ctx *ctx, const char *arg, seq_operand *op) {
  char *end;
  locale_t loc = cmd_utf8_locale();
  errno = 0;
  long double v = loc ? strtold_l(arg, &end, loc) : strtold(arg, &end);
  if (end == arg || *end) {
    cmd_errorf(ctx, "invalid floating point argument: %s", cmd_gnu_quote(ctx, arg));
    return -1;
  }
  if (isnan(v)) {
    cmd_errorf(ctx, "invalid %s argument: %s", cmd_gnu_quote(ctx, "not-a-number"),
               cmd_gnu_quote(ctx, arg));
    return -1;
  }
  op->value = v;
  while (isspace((unsigned char)*arg) || *arg == '+') arg++;
  op->width = 0;
  op->precision = INT_MAX;
  const char *dp = strchr(arg, '.');
  if (!dp && !strchr(arg, 'p')) op->precision = 0;
  if (!arg[strcspn(arg, "xX")] && isfinite(v)) {
    size_t fraction_len = 0;
    long width = (long)strlen(arg);
    if (dp) {
      fraction_len = strcspn(dp + 1, "eE");
      if (fraction_len <= INT_MAX) op->precision = (int)fraction_len;
      width += fraction_len == 0 ? -1
               : (dp == arg || !isdigit((unsigned char)dp[-1])) ? 1 : 0;
    }
    const char *e = strchr(arg, 'e');
    if (!e) e = strchr(arg, 'E');
    if (e) {
      long exponent = strtol(e + 1, NULL, 10);
      if (exponent < -LONG_MAX) exponent = -LONG_MAX;
      if (exponent < 0) {
        long p = (long)op->precision - exponent;
        op->precision = p > INT_MAX ? INT_MAX : (int)p;
      } else {
        long m = op->precision < exponent ? op->precision : exponent;
        op->precision -= (int)m;
      }
      width -= (long)(strlen(arg) - (size_t)(e - arg));
      if (exponent < 0) {
        if (dp) {
          if (e == dp + 1) width++;
        } else {
          width++;
        }
        exponent = -exponent;
      } else {
        if (dp && op->precision == 0 && width) width--;
        exponent -= (long)fraction_len < exponent ? (long)fraction_len : exponent;
      }
      width += exponent;
    }
    op->width = width > 0 ? (size_t)width : 0;
  }
  return 0;
}

/* Validates a -f format: exactly one %[flags][width][.prec][aAeEfFgG]
 * directive. Builds the long double version into *out. */
static int seq_check_format(cmd_ctx *ctx, const char *fmt, char **out, size_t *prefix,
                            size_t *suffix) {
  size_t n = strlen(fmt);
  char *r = cmd_alloc(ctx, n + 2);
  if (!r) return -1;
  size_t i = 0, pre = 0;
  for (; fmt[i] && !(fmt[i] == '%' && fmt[i + 1] != '%'); i += (fmt[i] == '%') + 1) pre++;
  if (!fmt[i]) {
    cmd_errorf(ctx, "format %s has no %% directive", cmd_gnu_quote(ctx, fmt));
    return -1;
  }
  size_t j = i + 1;
  j += strspn(fmt + j, "-+ #0'");
  size_t wd = strspn(fmt + j, "0123456789"), pd = 0;
  j += wd;
  if (fmt[j] == '.') {
    j++;
    pd = strspn(fmt + j, "0123456789");
    j += pd;
  }
  if (wd > 5 || pd > 5) {
    cmd_errorf(ctx, "format %s: width or precision too large for this sandbox",
               cmd_gnu_quote(ctx, fmt));
    return -1;
  }
  if (!fmt[j] || !strchr("aAeEfFgG", fmt[j])) {
    if (fmt[j])
      cmd_errorf(ctx, "format %s has unknown %%%c directive", cmd_gnu_quote(ctx, fmt), fmt[j]);
    else
      cmd_errorf(ctx, "format %s ends in %%", cmd_gnu_quote(ctx, fmt));
    return -1;
  }
  memcpy(r, fmt, j);
  r[j] = 'L';
  size_t k = j + 1;
  size_t suf = 0;
  for (size_t t = j + 1; fmt[t]; t += (fmt[t] == '%') + 1) {
    if (fmt[t] == '%') {
      if (fmt[t + 1] != '%') {
        cmd_errorf(ctx, "format %s has too many %% directives", cmd_gnu_quote(ctx, fmt));
        return -1;
      }
    }
    suf++;
  }
  memcpy(r + k, fmt + j, n - j + 1);
  *out = r;
  *prefix = pre;
  *suffix = suf;
  return 0;
}

/* snprintf of one value in the C.UTF-8 locale; malloc'd. */
static char *seq_format(seq_out *o, long double x, int *len) {
  locale_t old = (locale_t)0;
  if (o->loc) old = uselocale(o->loc);
  char *s = NULL;
  int n = asprintf(&s, o->fmt, x);
  if (o->loc) uselocale(old);
  if (n < 0) return NULL;
  *len = n;
  return s;
}

static int seq_print(seq_out *o, long double first, long double step, long double last,
                     const char *sep) {
  cmd_ctx *ctx = o->ctx;
  bool out_of_range = step < 0 ? first < last : last < first;
  if (out_of_range) return 0;
  long double x = first;
  size_t seplen = strlen(sep);
  for (long double i = 1;; i++) {
    long double x0 = x;
    int len;
    char *s = seq_format(o, x, &len);
    if (!s) return -ENOMEM;
    int r = cmd_out(ctx, s, (size_t)len);
    free(s);
    if (r < 0) return r;
    x = first + i * step;
    out_of_range = step < 0 ? x < last : last < x;
    if (out_of_range) {
      /* A value just past LAST that prints as LAST (and differently from
       * the previous one) is still printed, as GNU does. */
      bool extra = false;
      char *xs = seq_format(o, x, &len);
      if (!xs) return -ENOMEM;
      xs[len - (int)o->suffix_len] = 0;
      char *end;
      long double xv = o->loc ? strtold_l(xs + o->prefix_len, &end, o->loc)
                              : strtold(xs + o->prefix_len, &end);
      if (end != xs + o->prefix_len && !*end && xv == last) {
        int l0;
        char *x0s = seq_format(o, x0, &l0);
        if (!x0s) {
          free(xs);
          return -ENOMEM;
        }
        x0s[l0 - (int)o->suffix_len] = 0;
        extra = strcmp(x0s, xs) != 0;
        free(x0s);
      }
      free(xs);
      if (!extra) break;
    }
    if ((r = cmd_out(ctx, sep, seplen)) < 0) return r;
    if (((uint64_t)i & 1023) == 0 && cmd_poll(ctx)) return -EINTR;
  }
  return cmd_out(ctx, "\n", 1);
}

static bool all_digits(const char *s) { return *s && s[strspn(s, "0123456789")] == 0; }

/* Decimal string compare of digit strings (leading zeros ignored). */
static int digits_cmp(const char *a, size_t al, const char *b, size_t bl) {
  while (al > 1 && *a == '0') a++, al--;
  while (bl > 1 && *b == '0') b++, bl--;
  if (al != bl) return al < bl ? -1 : 1;
  return memcmp(a, b, al);
}

/* Integers as strings: FIRST..LAST by a small integer STEP. */
static int seq_fast(cmd_ctx *ctx, const char *a, const char *b, unsigned step,
                    const char *sep) {
  size_t bl = strlen(b), al = strlen(a);
  size_t cap = (al > bl ? al : bl) + 2;
  char *buf = malloc(cap + 1);
  if (!buf) return -ENOMEM;
  /* Right-aligned in buf so carries can grow leftwards. */
  char *p = buf + cap - al;
  memcpy(p, a, al);
  buf[cap] = 0;
  while (p < buf + cap - 1 && *p == '0') p++;
  size_t seplen = strlen(sep);
  int r = 0;
  bool first = true;
  for (uintmax_t n = 0; digits_cmp(p, (size_t)(buf + cap - p), b, bl) <= 0; n++) {
    if (!first && (r = cmd_out(ctx, sep, seplen)) < 0) break;
    first = false;
    if ((r = cmd_out(ctx, p, (size_t)(buf + cap - p))) < 0) break;
    /* Add step. */
    unsigned carry = step;
    char *q = buf + cap - 1;
    while (carry) {
      if (q < p) {
        *--p = '0';
      }
      unsigned d = (unsigned)(*q - '0') + carry;
      *q = (char)('0' + d % 10);
      carry = d / 10;
      q--;
      if (q < buf) break;
    }
    if ((n & 1023) == 0 && cmd_poll(ctx)) {
      r = -EINTR;
      break;
    }
  }
  if (r >= 0 && !first) r = cmd_out(ctx, "\n", 1);
  free(buf);
  return r;
}

int cmd_seq_main(cmd_ctx *ctx, int argc, char **argv) {
  const char *format = NULL, *sep = "\n";
  bool equal_width = false;
  cmd_getopt_state g = CMD_GETOPT_INIT;
  for (;;) {
    /* A negative number ends the options. */
    if (g.pos == 0 && g.ind < argc && argv[g.ind][0] == '-' &&
        (argv[g.ind][1] == '.' || isdigit((unsigned char)argv[g.ind][1])))
      break;
    int c = cmd_getopt(ctx, &g, argc, argv, "+(help)(version)f:(format)s:(separator)w(equal-width)",
                       NULL);
    if (c == -1) break;
    switch (c) {
    case 'f': format = g.arg; break;
    case 's': sep = g.arg; break;
    case 'w': equal_width = true; break;
    CMD_CASES_HELP_VERSION(ctx, seq_usage);
    default: return 1; /* cmd_getopt printed the message */
    }
  }
  int nargs = argc - g.ind;
  if (nargs < 1) {
    cmd_errorf(ctx, "missing operand");
    return seq_usage_error(ctx);
  }
  if (nargs > 3) {
    cmd_errorf(ctx, "extra operand %s", cmd_gnu_quote(ctx, argv[g.ind + 3]));
    return seq_usage_error(ctx);
  }
  if (format && equal_width) {
    cmd_errorf(ctx, "format string may not be specified when printing equal width strings");
    return seq_usage_error(ctx);
  }
  char **a = argv + g.ind;
  seq_out o = {ctx, cmd_utf8_locale(), NULL, 0, 0};
  char *lfmt = NULL;
  if (format && seq_check_format(ctx, format, &lfmt, &o.prefix_len, &o.suffix_len) < 0)
    return 1;

  seq_operand first = {1, 1, 0}, step = {1, 1, 0}, last;
  if (nargs >= 2 && seq_scan(ctx, a[0], &first) < 0) return seq_usage_error(ctx);
  if (nargs == 3) {
    if (seq_scan(ctx, a[1], &step) < 0) return seq_usage_error(ctx);
    if (step.value == 0) {
      cmd_errorf(ctx, "invalid Zero increment value: %s", cmd_gnu_quote(ctx, a[1]));
      return seq_usage_error(ctx);
    }
  }
  if (seq_scan(ctx, a[nargs - 1], &last) < 0) return seq_usage_error(ctx);

  int r;
  if (!format && !equal_width && all_digits(a[nargs - 1]) &&
      (nargs < 2 || all_digits(a[0])) &&
      (nargs < 3 || (all_digits(a[1]) && strlen(a[1]) <= 6 && atoi(a[1]) > 0))) {
    r = seq_fast(ctx, nargs >= 2 ? a[0] : "1", a[nargs - 1],
                 nargs == 3 ? (unsigned)atoi(a[1]) : 1, sep);
  } else {
    char dfmt[64];
    if (lfmt) {
      o.fmt = lfmt;
    } else {
      int prec = first.precision > step.precision ? first.precision : step.precision;
      if (prec != INT_MAX && prec > 100000) {
        cmd_errorf(ctx, "precision too large for this sandbox");
        return 1;
      }
      if (prec != INT_MAX && last.precision != INT_MAX) {
        if (equal_width) {
          size_t fw = first.width + (size_t)(prec - first.precision);
          size_t lw = last.width + (size_t)(prec - last.precision);
          if (last.precision && prec == 0) lw--;
          if (last.precision == 0 && prec) lw++;
          if (first.precision == 0 && prec) fw++;
          size_t w = fw > lw ? fw : lw;
          snprintf(dfmt, sizeof dfmt, "%%0%zu.%dLf", w > 4096 ? 4096 : w, prec);
        } else {
          snprintf(dfmt, sizeof dfmt, "%%.%dLf", prec);
        }
        o.fmt = dfmt;
      } else {
        o.fmt = "%Lg";
      }
    }
    r = seq_print(&o, first.value, step.value, last.value, sep);
  }
  if (r == -EINTR) return 1;
  if (r < 0) return cmd_write_error(ctx, r);
  return 0;
}
