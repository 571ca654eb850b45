/*
 * numfmt - convert numbers to and from human-readable strings (GNU
 * coreutils 9.1).
 *
 *   numfmt [--from=UNIT] [--to=UNIT] [--from-unit=N] [--to-unit=N]
 *          [--round=METHOD] [--suffix=S] [--padding=N] [--format=FMT]
 *          [--field=FIELDS] [-d X] [--header[=N]] [--invalid=MODE]
 *          [--grouping] [-z] [NUMBER]...
 *
 * UNIT: none, auto (input only), si (K = 1000), iec (K = 1024), iec-i (Ki).
 * Numbers come from the operands, else one line of stdin at a time; only the
 * selected fields (default 1, blank-separated, leading blanks kept) are
 * converted. The arithmetic is GNU's, on long doubles: scale down by the
 * base while >= base, one decimal below 10 (or --format's precision), round
 * (from-zero by default), "999.9" that rounds to 1000 moves up a power,
 * suffixes KMGTPEZY. --format's flags: ' (grouping, none in the C.UTF-8
 * locale), - (left), 0 (zeros), width, .precision; text around %f is kept.
 * Errors are GNU's: --invalid=abort (default) stops with status 2 at the
 * first bad number, fail goes on and exits 2, warn prints and exits 0,
 * ignore is silent.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/lib/gnu.h"
#include "cmd/cut/cut_list.h"

CMD_DEFINE("numfmt", cmd_numfmt_main);

enum nf_scale { SC_NONE, SC_AUTO, SC_SI, SC_IEC, SC_IEC_I };
enum nf_round { R_UP, R_DOWN, R_FROM_ZERO, R_TO_ZERO, R_NEAREST };
enum nf_inval { I_ABORT, I_FAIL, I_WARN, I_IGNORE };

#define NF_MAX_UNSCALED 18
#define NF_MAX_DIGITS 27
#define NF_BUF 256

typedef struct numfmt {
  cmd_ctx *ctx;
  enum nf_scale from, to;
  enum nf_round round;
  enum nf_inval inval;
  long double from_unit, to_unit;
  const char *suffix;
  long padding; /* > 0 right-align, < 0 left-align */
  bool auto_padding;
  long zero_width; /* --format's 0 flag */
  bool grouping;
  int user_precision; /* --format's .N, or -1 */
  const char *fmt_prefix, *fmt_suffix;
  cmd_ranges fields; /* n == 0: field 1 */
  char delim;        /* 0: blanks */
  bool failed;       /* a number was invalid (for --invalid=fail) */
  bool abort;        /* --invalid=abort hit: stop now */
} numfmt;

static const char nf_suffixes[] = "KMGTPEZY";

static long double nf_pow(long double base, int n) {
  long double r = 1;
  while (n-- > 0) r *= base;
  return r;
}

static long double nf_round(long double v, enum nf_round how) {
  long double iv;
  switch (how) {
    case R_UP:
      iv = (long double)(intmax_t)v;
      return iv < v ? iv + 1 : iv;
    case R_DOWN:
      iv = (long double)(intmax_t)v;
      return iv > v ? iv - 1 : iv;
    case R_FROM_ZERO:
      if (v < 0) {
        iv = (long double)(intmax_t)v;
        return iv > v ? iv - 1 : iv;
      }
      iv = (long double)(intmax_t)v;
      return iv < v ? iv + 1 : iv;
    case R_TO_ZERO:
      return (long double)(intmax_t)v;
    default:
      return (long double)(intmax_t)(v < 0 ? v - 0.5L : v + 0.5L);
  }
}

static void nf_error(numfmt *n, const char *fmt, const char *a, const char *b) {
  if (n->inval == I_IGNORE) return;
  cmd_err_raw(n->ctx, "numfmt: ");
  cmd_err_raw(n->ctx, fmt, a, b);
  cmd_err_raw(n->ctx, "\n");
}

/* Marks a bad number: message per --invalid; returns false. */
static bool nf_bad(numfmt *n) {
  if (n->inval == I_ABORT) n->abort = true;
  if (n->inval == I_FAIL || n->inval == I_ABORT) n->failed = true;
  return false;
}

/* GNU's simple_strtod_human: *val and *prec (fraction digits, 0 with a
 * suffix). Returns false after the message. */
static bool nf_parse(numfmt *n, const char *str, long double *val, int *prec) {
  const char *p = str;
  bool neg = false;
  if (*p == '-') neg = true, p++;
  long double v = 0;
  int digits = 0;
  bool found = false;
  while (isdigit((unsigned char)*p)) {
    found = true;
    if (v != 0 || *p != '0') digits++;
    if (digits > NF_MAX_DIGITS) {
      nf_error(n, "value too large to be converted: %s", cmd_gnu_quote(n->ctx, str),
               NULL);
      return nf_bad(n);
    }
    v = v * 10 + (*p++ - '0');
  }
  if (!found && *p != '.') {
    nf_error(n, "invalid number: %s", cmd_gnu_quote(n->ctx, str), NULL);
    return nf_bad(n);
  }
  *prec = 0;
  if (*p == '.') {
    p++;
    long double scale = 1;
    while (isdigit((unsigned char)*p)) {
      scale /= 10;
      v += (*p++ - '0') * scale;
      (*prec)++;
    }
    if (!*prec) { /* GNU wants digits after the point */
      nf_error(n, "invalid number: %s", cmd_gnu_quote(n->ctx, str), NULL);
      return nf_bad(n);
    }
  }
  if (neg) v = -v;
  while (*p == ' ' || *p == '\t') p++;
  int power = 0;
  long double base = n->from == SC_IEC || n->from == SC_IEC_I ? 1024 : 1000;
  if (*p) {
    const char *s = strchr(nf_suffixes, *p);
    if (!s) {
      nf_error(n, "invalid suffix in input: %s", cmd_gnu_quote(n->ctx, str), NULL);
      return nf_bad(n);
    }
    if (n->from == SC_NONE) {
      nf_error(n, "rejecting suffix in input: %s (consider using --from)",
               cmd_gnu_quote(n->ctx, str), NULL);
      return nf_bad(n);
    }
    power = (int)(s - nf_suffixes) + 1;
    p++;
    if (n->from == SC_AUTO && *p == 'i') base = 1024, p++;
    *prec = 0;
  }
  if (n->from == SC_IEC_I) {
    if (*p == 'i') {
      p++;
    } else {
      nf_error(n, "missing 'i' suffix in input: %s (e.g Ki/Mi/Gi)",
               cmd_gnu_quote(n->ctx, str), NULL);
      return nf_bad(n);
    }
  }
  if (*p) {
    nf_error(n, "invalid suffix in input %s: %s", cmd_gnu_quote_n(n->ctx, str, -1),
             cmd_gnu_quote_n(n->ctx, p, -1));
    return nf_bad(n);
  }
  *val = v * nf_pow(base, power);
  return true;
}

/* GNU's double_to_human into buf. */
static void nf_human(numfmt *n, long double val, int precision, char *buf, size_t sz) {
  char fmt[64], *f = fmt;
  *f++ = '%';
  if (n->grouping) *f++ = '\'';
  if (n->zero_width) f += snprintf(f, sizeof fmt - 8, "0%ld", n->zero_width);
  if (n->to == SC_NONE) {
    val *= nf_pow(10, precision);
    val = nf_round(val, n->round);
    val /= nf_pow(10, precision);
    strcpy(f, ".*Lf");
    snprintf(buf, sz, fmt, precision, val);
    return;
  }
  long double base = n->to == SC_SI ? 1000 : 1024;
  int power = 0;
  while (fabsl(val) >= base && power < 100) val /= base, power++;
  int adjust = 0;
  if (n->user_precision != -1)
    adjust = power * 3 < n->user_precision ? power * 3 : n->user_precision;
  else if (fabsl(val) < 10)
    adjust = 1;
  val *= nf_pow(10, adjust);
  val = nf_round(val, n->round);
  val /= nf_pow(10, adjust);
  if (fabsl(val) >= base) val /= base, power++;
  int show_point = val != 0 && fabsl(val) < 10 && power > 0;
  int prec = n->user_precision == -1 ? show_point : n->user_precision;
  strcpy(f, ".*Lf%s");
  char sfx[2] = {power > 0 && power <= 8 ? nf_suffixes[power - 1] : '\0', '\0'};
  int len = snprintf(buf, sz - 1, fmt, prec, val, sfx);
  if (n->to == SC_IEC_I && power > 0 && len > 0 && (size_t)len + 1 < sz) strcat(buf, "i");
}

/* Formats one number; false when it is invalid (the caller prints it as is). */
static bool nf_number(numfmt *n, const char *text, long field, char *out, size_t outsz) {
  char tbuf[NF_BUF];
  size_t tl = strlen(text);
  if (tl >= sizeof tbuf) {
    nf_error(n, "value too large to be converted: %s", cmd_gnu_quote(n->ctx, text), NULL);
    return nf_bad(n);
  }
  memcpy(tbuf, text, tl + 1);
  if (n->suffix && tl > strlen(n->suffix) &&
      strcmp(tbuf + tl - strlen(n->suffix), n->suffix) == 0)
    tbuf[tl - strlen(n->suffix)] = '\0';
  char *p = tbuf;
  while (*p == ' ' || *p == '\t') p++;
  long width = n->padding;
  if (n->auto_padding) width = (p > tbuf || field > 1) ? (long)strlen(tbuf) : 0;
  long double val;
  int prec;
  if (!nf_parse(n, p, &val, &prec)) return false;
  val = val * n->from_unit / n->to_unit;
  int used = n->user_precision == -1 ? prec : n->user_precision;
  int x = 0;
  for (long double v = fabsl(val); v >= 10 && x < 10000; v /= 10) x++;
  char num[NF_BUF];
  if (n->to == SC_NONE && x + used > NF_MAX_UNSCALED) {
    snprintf(num, sizeof num, "%Lg", val);
    if (used) {
      char pb[32];
      snprintf(pb, sizeof pb, "%d", used);
      nf_error(n,
               "value/precision too large to be printed: '%s/%s' (consider using --to)",
               num, pb);
    } else {
      nf_error(n, "value too large to be printed: '%s' (consider using --to)", num, NULL);
    }
    return nf_bad(n);
  }
  if (x > NF_MAX_DIGITS - 1) {
    snprintf(num, sizeof num, "%Lg", val);
    nf_error(n, "value too large to be printed: '%s' (cannot handle values > 999Y)", num,
             NULL);
    return nf_bad(n);
  }
  nf_human(n, val, used, num, sizeof num - 64);
  if (n->suffix) strncat(num, n->suffix, sizeof num - strlen(num) - 1);
  size_t len = strlen(num), w = (size_t)(width < 0 ? -width : width);
  if (w > outsz - 1) w = outsz - 1;
  if (width && len < w) {
    if (width > 0)
      snprintf(out, outsz, "%*s", (int)w, num);
    else
      snprintf(out, outsz, "%-*s", (int)w, num);
  } else {
    snprintf(out, outsz, "%s", num);
  }
  return true;
}

static bool nf_selected(numfmt *n, long field) {
  if (n->fields.n == 0) return field == 1;
  for (size_t i = 0; i < n->fields.n; i++)
    if ((uintmax_t)field >= n->fields.v[i].lo && (uintmax_t)field <= n->fields.v[i].hi)
      return true;
  return false;
}

static void nf_field(numfmt *n, const char *text, long field) {
  char out[NF_BUF * 4];
  if (nf_selected(n, field) && nf_number(n, text, field, out, sizeof out)) {
    cmd_outs(n->ctx, n->fmt_prefix);
    cmd_outs(n->ctx, out);
    cmd_outs(n->ctx, n->fmt_suffix);
  } else if (!n->abort) {
    cmd_outs(n->ctx, text);
  }
}

/* One line (without its terminator), split into fields as GNU's next_field. */
static void nf_line(numfmt *n, char *line) {
  long field = 0;
  char *p = line;
  for (;;) {
    field++;
    char *start = p, *end = p;
    if (n->delim) {
      while (*end && *end != n->delim) end++;
    } else {
      while (*end == ' ' || *end == '\t') end++;
      while (*end && *end != ' ' && *end != '\t') end++;
    }
    bool more = *end != '\0';
    if (more) *end = '\0';
    nf_field(n, start, field);
    if (n->abort) return;
    if (!more) break;
    p = end + 1;
    cmd_outc(n->ctx, n->delim ? n->delim : ' ');
    if ((field & 1023) == 0 && cmd_poll(n->ctx)) return;
  }
}

static int nf_scale_arg(cmd_ctx *ctx, const char *arg, const char *opt, bool input,
                        enum nf_scale *out) {
  static const char *const names[] = {"none", "auto", "si", "iec", "iec-i"};
  for (int i = 0; i < 5; i++) {
    if (strcmp(arg, names[i]) == 0 && (input || i != SC_AUTO)) {
      *out = (enum nf_scale)i;
      return 0;
    }
  }
  cmd_errorf(ctx, "invalid argument %s for %s", cmd_gnu_quote_n(ctx, arg, -1),
             cmd_gnu_quote_n(ctx, opt, -1));
  cmd_err_raw(ctx, "Valid arguments are:\n  - %s\n", cmd_gnu_quote_n(ctx, "none", -1));
  if (input) cmd_err_raw(ctx, "  - %s\n", cmd_gnu_quote_n(ctx, "auto", -1));
  cmd_err_raw(ctx, "  - %s\n  - %s\n  - %s\n", cmd_gnu_quote_n(ctx, "si", -1),
              cmd_gnu_quote_n(ctx, "iec", -1), cmd_gnu_quote_n(ctx, "iec-i", -1));
  return cmd_usage_hint(ctx, 1);
}

/* --from-unit / --to-unit: K = 1000, Ki = 1024 (GNU's unit_to_umax). */
static bool nf_unit(const char *s, long double *out) {
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (end == s || errno || *s == '-') return false;
  long double r = (long double)v;
  if (*end) {
    const char *x = strchr(nf_suffixes, *end);
    if (!x || !*end) return false;
    int power = (int)(x - nf_suffixes) + 1;
    end++;
    long double base = 1000;
    if (*end == 'i') base = 1024, end++;
    if (*end) return false;
    r *= nf_pow(base, power);
  }
  if (r == 0) return false;
  *out = r;
  return true;
}

/* --format: "PREFIX%['-0][WIDTH][.PREC]fSUFFIX". */
static bool nf_format(numfmt *n, const char *f) {
  const char *pct = NULL;
  for (const char *p = f; *p; p++) {
    if (*p == '%' && p[1] == '%') {
      p++;
      continue;
    }
    if (*p == '%') {
      pct = p;
      break;
    }
  }
  if (!pct) {
    cmd_errorf(n->ctx, "format %s has no %% directive", cmd_gnu_quote(n->ctx, f));
    return false;
  }
  const char *p = pct + 1;
  bool left = false;
  for (;; p++) {
    if (*p == '\'')
      n->grouping = true;
    else if (*p == '-')
      left = true;
    else if (*p == '0')
      n->zero_width = 1;
    else if (*p != ' ' && *p != '+')
      break;
  }
  long width = 0;
  while (isdigit((unsigned char)*p) && width < 100000) width = width * 10 + (*p++ - '0');
  if (*p == '.') {
    p++;
    int prec = 0;
    while (isdigit((unsigned char)*p) && prec < 1000) prec = prec * 10 + (*p++ - '0');
    n->user_precision = prec;
  }
  if (*p != 'f') {
    cmd_errorf(n->ctx, "invalid format %s, directive must be %%[0]['][-][N][.][N]f",
               cmd_gnu_quote(n->ctx, f));
    return false;
  }
  for (const char *q = p + 1; *q; q++) {
    if (*q == '%' && q[1] != '%') {
      cmd_errorf(n->ctx, "format %s has too many %% directives",
                 cmd_gnu_quote(n->ctx, f));
      return false;
    }
    if (*q == '%') q++;
  }
  /* the text around the directive, with %% as % */
  char *pre = cmd_alloc(n->ctx, (size_t)(pct - f) + 1),
       *post = cmd_alloc(n->ctx, strlen(p) + 1);
  if (!pre || !post) return false;
  size_t k = 0;
  for (const char *q = f; q < pct; q++) {
    pre[k++] = *q;
    if (*q == '%' && q[1] == '%') q++;
  }
  strcpy(post, p + 1); /* GNU prints the text after the directive as is */
  n->fmt_prefix = pre, n->fmt_suffix = post;
  if (width) {
    if (n->zero_width && !left)
      n->zero_width = width;
    else
      n->zero_width = 0, n->padding = left ? -width : width;
  } else {
    n->zero_width = 0;
  }
  return true;
}

/* The index of `arg` in the n `words`; else -1 after GNU's argmatch message
 * ("invalid argument 'x' for '--round'" and the valid words). */
static int nf_choose(cmd_ctx *ctx, const char *arg, const char *option,
                     const char *const *words, int n) {
  for (int i = 0; i < n; i++)
    if (strcmp(arg, words[i]) == 0) return i;
  cmd_errorf(ctx, "invalid argument %s for %s", cmd_gnu_quote_n(ctx, arg, -1),
             cmd_gnu_quote_n(ctx, option, -1));
  cmd_err_raw(ctx, "Valid arguments are:\n");
  for (int i = 0; i < n; i++) cmd_err_raw(ctx, "  - %s\n", cmd_gnu_quote_n(ctx, words[i], -1));
  cmd_usage_hint(ctx, 1);
  return -1;
}

enum {
  O_FROM = CMD_OPT_LONG,
  O_TO,
  O_FROM_UNIT,
  O_TO_UNIT,
  O_ROUND,
  O_SUFFIX,
  O_PADDING,
  O_FORMAT,
  O_FIELD,
  O_HEADER,
  O_INVALID,
  O_GROUPING,
  O_DEBUG
};
static const char numfmt_options[] =
    "(from):(to):(from-unit):(to-unit):(round):(suffix):(padding):(format):(field):"
    "(header)::(invalid):(grouping)(debug)(help)(version)d:(delimiter)"
    "z(zero-terminated)";

int cmd_numfmt_main(cmd_ctx *ctx, int argc, char **argv) {
  numfmt n = {.ctx = ctx,
              .round = R_FROM_ZERO,
              .from_unit = 1,
              .to_unit = 1,
              .user_precision = -1,
              .fmt_prefix = "",
              .fmt_suffix = ""};
  long header = 0;
  bool padding_set = false;
  int status = 0;
  cmd_getopt_state g = CMD_GETOPT_INIT;
  /* A loop: each argument is checked where it stands; --suffix, --grouping,
   * -z are read after it. */
  for (int c; (c = cmd_getopt(ctx, &g, argc, argv, numfmt_options, NULL)) != -1;) {
    switch (c) {
      case O_FROM:
        if ((status = nf_scale_arg(ctx, g.arg, "--from", true, &n.from))) goto out;
        break;
      case O_TO:
        if ((status = nf_scale_arg(ctx, g.arg, "--to", false, &n.to))) goto out;
        break;
      case O_FROM_UNIT:
      case O_TO_UNIT:
        if (!nf_unit(g.arg, c == O_FROM_UNIT ? &n.from_unit : &n.to_unit)) {
          cmd_errorf(ctx, "invalid unit size: %s", cmd_gnu_quote(ctx, g.arg));
          status = 1;
          goto out;
        }
        break;
      case O_ROUND:
      case O_INVALID: {
        static const char *const rounds[] = {"up", "down", "from-zero", "towards-zero",
                                             "nearest"};
        static const char *const invalids[] = {"abort", "fail", "warn", "ignore"};
        int k = c == O_ROUND ? nf_choose(ctx, g.arg, "--round", rounds, 5)
                             : nf_choose(ctx, g.arg, "--invalid", invalids, 4);
        if (k < 0) {
          status = 1;
          goto out;
        }
        if (c == O_ROUND) n.round = (enum nf_round)k;
        else n.inval = (enum nf_inval)k;
        break;
      }
      case O_PADDING: {
        char *end;
        errno = 0;
        long v = strtol(g.arg, &end, 10);
        if (!*g.arg || *end || errno || v == 0 || v > 1000000 || v < -1000000) {
          cmd_errorf(ctx, "invalid padding value %s", cmd_gnu_quote(ctx, g.arg));
          status = 1;
          goto out;
        }
        n.padding = v;
        padding_set = true;
        break;
      }
      case O_FORMAT:
        if (!nf_format(&n, g.arg)) {
          status = 1;
          goto out;
        }
        padding_set = padding_set || n.padding;
        break;
      case O_FIELD: {
        const char *msg;
        size_t bl = strlen(g.arg) * 4 + 64;
        char *eb = cmd_alloc(ctx, bl);
        cmd_ranges_free(&n.fields);
        if (strcmp(g.arg, "-") == 0) { /* numfmt's "all fields" */
          n.fields.v = malloc(sizeof *n.fields.v);
          if (!n.fields.v) goto out;
          n.fields.v[0] = (cmd_range){1, UINTMAX_MAX};
          n.fields.n = 1;
          break;
        }
        if (!eb || cmd_ranges_parse(g.arg, 0, &n.fields, &msg, eb, bl) < 0) {
          cmd_errorf(ctx, "%s", eb ? msg : "memory exhausted");
          status = cmd_usage_hint(ctx, 1);
          goto out;
        }
        break;
      }
      case 'd':
        if (strlen(g.arg) != 1) {
          cmd_errorf(ctx, "the delimiter must be a single character");
          status = 1;
          goto out;
        }
        n.delim = g.arg[0];
        break;
      case O_HEADER: {
        header = 1;
        if (g.arg) {
          char *end;
          header = strtol(g.arg, &end, 10);
          if (*end || header <= 0) {
            cmd_errorf(ctx, "invalid header value %s", cmd_gnu_quote(ctx, g.arg));
            status = 1;
            goto out;
          }
        }
        break;
      }
      case CMD_OPT_HELP:
        cmd_outs(
            ctx,
            "Usage: numfmt [OPTION]... [NUMBER]...\n"
            "Reformat NUMBER(s), or the numbers from standard input if none are "
            "specified.\n\n"
            "      --from=UNIT     auto-scale input numbers to UNITs (none auto si iec "
            "iec-i)\n"
            "      --from-unit=N   specify the input unit size (instead of 1)\n"
            "      --to=UNIT       auto-scale output numbers to UNITs\n"
            "      --to-unit=N     the output unit size (instead of 1)\n"
            "      --round=METHOD  up, down, from-zero (default), towards-zero, nearest\n"
            "      --suffix=SUFFIX add SUFFIX to output numbers\n"
            "      --padding=N     pad the output to N characters\n"
            "      --format=FORMAT use printf style floating-point FORMAT\n"
            "      --field=FIELDS  replace the numbers in these input fields (default "
            "1)\n"
            "  -d, --delimiter=X   use X instead of whitespace for field delimiter\n"
            "      --header[=N]    print (without converting) the first N header lines\n"
            "      --invalid=MODE  abort (default), fail, warn, ignore\n"
            "      --grouping      group digits as the locale does\n"
            "  -z, --zero-terminated    line delimiter is NUL, not newline\n");
        goto out;
      case CMD_OPT_VERSION:
        status = cmd_print_version(ctx);
        goto out;
      case '?':
        status = 1; /* cmd_getopt printed the message */
        goto out;
    }
  }
  n.suffix = cmd_opt_arg(&g, O_SUFFIX);
  n.grouping |= cmd_opt_on(&g, O_GROUPING); /* or --format's ' flag */
  bool zero = cmd_opt_on(&g, 'z');
  if (n.to == SC_AUTO) n.to = SC_NONE;
  if (n.grouping && n.to != SC_NONE) {
    cmd_errorf(ctx, "grouping cannot be combined with --to");
    status = 1;
    goto out;
  }
  n.auto_padding = !padding_set && !n.delim;
  char eol = zero ? '\0' : '\n';
  if (g.ind < argc) {
    for (int i = g.ind; i < argc && !n.abort; i++) {
      char *copy = cmd_strdup(ctx, argv[i]);
      if (!copy) break;
      nf_line(&n, copy);
      if (!n.abort) cmd_outc(ctx, eol);
    }
  } else {
    cmd_in *in = cmd_in_fd(ctx, 0);
    char *line;
    ssize_t len;
    while (in && !n.abort && (len = cmd_in_getdelim(in, &line, eol)) > 0) {
      bool had = line[len - 1] == eol;
      if (had) line[--len] = '\0';
      if (header > 0) {
        header--;
        cmd_out(ctx, line, (size_t)len);
      } else {
        nf_line(&n, line);
      }
      /* a last line without its terminator stays without one (GNU) */
      if (!n.abort && had && cmd_outc(ctx, eol) < 0) break;
      if (cmd_poll(ctx)) break;
    }
    if (in) cmd_in_close(in);
  }
  status = n.failed ? 2 : 0;
out:
  cmd_ranges_free(&n.fields);
  return status;
}
