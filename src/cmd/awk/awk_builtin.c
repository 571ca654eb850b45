/*
 * awk_builtin.c - the built-in functions and the printf engine of the awk
 * command.
 *
 * printf follows gawk's format_tree: %c takes a number (a code point,
 * written in UTF-8) or a string (its first character); %d/%i print integral
 * values exactly however large (digits from "%.0f"); %o %x %X %u convert
 * negative values as 64-bit two's complement and fall back to %g beyond that
 * range, as gawk does; infinities and NaN print as "+inf" "-nan"... without
 * padding; widths and precisions count characters and are bounded by
 * ctx->max_string. Floating conversions go through snprintf with a format we
 * build ourselves from validated pieces, never with user text.
 *
 * String functions count UTF-8 characters (C.UTF-8 like the tests); sub,
 * gsub and gensub follow gawk's replacement rules exactly ("\\&" is a
 * literal &, "\\\\&" a backslash then the match, gensub's "\\N").
 * Time functions work in UTC (the sandbox's TZ); rand is a deterministic
 * generator seeded by srand (gawk's own sequence is not reproduced).
 */
#include <ctype.h>
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wctype.h>

#include "cmd/awk/awk.h"
#include "cmd/lib/gnu.h"

/* ---- helpers ------------------------------------------------------------------------- */

static awk_str *arg_str(awk_interp *in, awk_node *a) {
  awk_val v = awk_eval(in, a);
  awk_str *s = awk_to_str(in, &v);
  awk_val_free(in, &v);
  return s;
}

static double arg_num(awk_interp *in, awk_node *a) {
  awk_val v = awk_eval(in, a);
  double d = awk_to_num(in, &v);
  awk_val_free(in, &v);
  return d;
}

static size_t str_chars(awk_str *s) {
  if (awk_str_is_ascii(s)) return s->len;
  return awk_utf8_len(s->p, s->len);
}

static size_t char_off(awk_str *s, size_t nchars) {
  if (awk_str_is_ascii(s)) return nchars < s->len ? nchars : s->len;
  return awk_utf8_off(s->p, s->len, nchars);
}

static double trunc_d(double d) { return d < 0 ? ceil(d) : floor(d); }

static void set_special_num(awk_interp *in, int idx, double d) {
  awk_special_set(in, idx, awk_num(d));
}

/* ---- printf ---------------------------------------------------------------------------- */

typedef struct fmtout {
  awk_interp *in;  /* for allocation and limits */
  awk_str *s;      /* output being built */
} fmtout;

static void fo_add(fmtout *o, const char *p, size_t n) { awk_str_append(o->in, &o->s, p, n); }

static void fo_pad(fmtout *o, char c, size_t n) {
  if (n > o->in->ctx->max_string) awk_fatal(o->in, "printf: width too large");
  char buf[256];
  memset(buf, c, sizeof buf);
  while (n) {
    size_t k = n < sizeof buf ? n : sizeof buf;
    fo_add(o, buf, k);
    n -= k;
  }
}

/* Adds text of `chars` characters padded to width. */
static void fo_field(fmtout *o, const char *p, size_t n, size_t chars, size_t width, bool left) {
  if (!left && width > chars) fo_pad(o, ' ', width - chars);
  fo_add(o, p, n);
  if (left && width > chars) fo_pad(o, ' ', width - chars);
}

typedef struct spec {
  bool minus, plus, space, hash, zero; /* flags */
  bool has_width, has_prec;           /* given */
  size_t width, prec;                  /* values */
} spec;

static void fmt_special(fmtout *o, double d) {
  const char *t = isnan(d) ? (signbit(d) ? "-nan" : "+nan") : (d < 0 ? "-inf" : "+inf");
  fo_add(o, t, 4);
}

static void fmt_integer_digits(fmtout *o, const spec *sp, bool neg, const char *digits,
                               size_t nd, const char *prefix) {
  /* digits: without sign. precision = minimum digits. */
  const char *sign = neg ? "-" : sp->plus ? "+" : sp->space ? " " : "";
  size_t zeros = 0;
  if (sp->has_prec) {
    if (sp->prec == 0 && nd == 1 && digits[0] == '0') nd = 0;
    if (sp->prec > nd) zeros = sp->prec - nd;
  }
  size_t plen = strlen(prefix), slen = strlen(sign);
  size_t total = slen + plen + zeros + nd;
  size_t padw = sp->width > total ? sp->width - total : 0;
  if (sp->minus) {
    fo_add(o, sign, slen);
    fo_add(o, prefix, plen);
    fo_pad(o, '0', zeros);
    fo_add(o, digits, nd);
    fo_pad(o, ' ', padw);
  } else if (sp->zero && !sp->has_prec) {
    fo_add(o, sign, slen);
    fo_add(o, prefix, plen);
    fo_pad(o, '0', padw + zeros);
    fo_add(o, digits, nd);
  } else {
    fo_pad(o, ' ', padw);
    fo_add(o, sign, slen);
    fo_add(o, prefix, plen);
    fo_pad(o, '0', zeros);
    fo_add(o, digits, nd);
  }
}

static void fmt_float(fmtout *o, const spec *sp, char conv, double d) {
  if (isnan(d) || isinf(d)) {
    fmt_special(o, d);
    return;
  }
  char f[64];
  size_t k = 0;
  f[k++] = '%';
  if (sp->minus) f[k++] = '-';
  if (sp->plus) f[k++] = '+';
  if (sp->space) f[k++] = ' ';
  if (sp->hash) f[k++] = '#';
  if (sp->zero) f[k++] = '0';
  f[k++] = '*';
  f[k++] = '.';
  f[k++] = '*';
  f[k++] = conv;
  f[k] = 0;
  size_t prec = sp->has_prec ? sp->prec : 6;
  size_t need = sp->width + prec + 400;
  if (conv == 'f' || conv == 'F') {
    double a = fabs(d);
    if (a >= 1) need += (size_t)log10(a) + 2;
  }
  if (need > o->in->ctx->max_string) awk_fatal(o->in, "printf: width or precision too large");
  char small[512];
  char *buf = need <= sizeof small ? small : malloc(need);
  if (!buf) awk_fatal(o->in, "out of memory");
  int n = snprintf(buf, need, f, (int)sp->width, (int)prec, d);
  if (n < 0) n = 0;
  if ((size_t)n >= need) n = (int)need - 1;
  fo_add(o, buf, (size_t)n);
  if (buf != small) free(buf);
}

static void fmt_number_conv(fmtout *o, spec sp, char conv, double d) {
  if (conv == 'd' || conv == 'i') {
    if (isnan(d) || isinf(d)) {
      fmt_special(o, d);
      return;
    }
    double t = trunc_d(d);
    bool neg = t < 0;
    char buf[400];
    size_t nd;
    if (fabs(t) < 9.2e18) {
      unsigned long long u = (unsigned long long)(neg ? -t : t);
      char tmp[24];
      size_t k = 0;
      do {
        tmp[k++] = (char)('0' + u % 10);
        u /= 10;
      } while (u);
      for (nd = 0; nd < k; nd++) buf[nd] = tmp[k - 1 - nd];
    } else {
      int n = snprintf(buf, sizeof buf, "%.0f", fabs(t));
      nd = n > 0 ? (size_t)n : 0;
    }
    fmt_integer_digits(o, &sp, neg, buf, nd, "");
    return;
  }
  /* o x X u */
  if (isnan(d) || isinf(d)) {
    fmt_special(o, d);
    return;
  }
  double t = trunc_d(d);
  unsigned long long u;
  bool ok;
  if (t < 0) {
    ok = t >= -9.2233720368547758e18;
    u = ok ? (unsigned long long)(long long)t : 0;
  } else {
    ok = t < 1.8446744073709552e19;
    u = ok ? (unsigned long long)t : 0;
  }
  if (!ok) {
    fmt_float(o, &sp, 'g', d);
    return;
  }
  char buf[80];
  const char *fmt = conv == 'o' ? "%llo" : conv == 'x' ? "%llx" : conv == 'X' ? "%llX" : "%llu";
  int n = snprintf(buf, sizeof buf, fmt, u);
  const char *prefix = "";
  if (sp.hash && u != 0) {
    if (conv == 'x') prefix = "0x";
    else if (conv == 'X') prefix = "0X";
  }
  if (sp.hash && conv == 'o') {
    /* the precision grows so the first digit is 0 */
    if (!(sp.has_prec && sp.prec > (size_t)n) && buf[0] != '0') prefix = "0";
    if (u == 0 && sp.has_prec && sp.prec == 0) {
      sp.has_prec = false;
    }
  }
  fmt_integer_digits(o, &sp, false, buf, (size_t)n, prefix);
}

static void not_enough_args(awk_interp *in, const char *fmt, size_t fmtlen, size_t at) {
  char pre[64];
  snprintf(pre, sizeof pre, "%s", "");
  cmd_flush(in->ctx);
  /* gawk: fatal message, the format, a caret under the failing conversion */
  char *pad = malloc(at + 2);
  if (pad) {
    memset(pad, ' ', at + 1);
    pad[at + 1] = 0;
  }
  char *f = malloc(fmtlen + 1);
  if (f) {
    memcpy(f, fmt, fmtlen);
    f[fmtlen] = 0;
  }
  in->status = 2;
  char line[600];
  if (in->srcline > 0)
    snprintf(line, sizeof line, "%s: %s:%d: ", in->progname, in->srcname, in->srcline);
  else
    snprintf(line, sizeof line, "%s: ", in->progname);
  cmd_err_raw(in->ctx, "%sfatal: not enough arguments to satisfy format string\n\t`%s'\n\t%s^ ran out for this one\n",
              line, f ? f : "", pad ? pad : "");
  free(pad);
  free(f);
  longjmp(in->fatal_jmp, 1);
}

size_t awk_format_vals(awk_interp *in, const char *fmt, size_t fmtlen, awk_val *args, int nargs,
                       awk_str **out) {
  fmtout o = {in, awk_str_alloc(in, fmtlen + 16)};
  int argi = 0;
  size_t i = 0;
  while (i < fmtlen) {
    const char *pct = memchr(fmt + i, '%', fmtlen - i);
    if (!pct) {
      fo_add(&o, fmt + i, fmtlen - i);
      break;
    }
    size_t p = (size_t)(pct - fmt);
    fo_add(&o, fmt + i, p - i);
    size_t start = p;
    p++;
    if (p >= fmtlen) {
      fo_add(&o, "%", 1);
      break;
    }
    spec sp = {0};
    /* positional argument: %N$ */
    int posarg = -1;
    {
      size_t q = p;
      size_t v = 0;
      while (q < fmtlen && fmt[q] >= '0' && fmt[q] <= '9' && v < 100000) v = v * 10 + (size_t)(fmt[q++] - '0');
      if (q < fmtlen && q > p && fmt[q] == '$') {
        posarg = (int)v;
        p = q + 1;
      }
    }
    for (; p < fmtlen; p++) {
      char c = fmt[p];
      if (c == '-') sp.minus = true;
      else if (c == '+') sp.plus = true;
      else if (c == ' ') sp.space = true;
      else if (c == '#') sp.hash = true;
      else if (c == '0') sp.zero = true;
      else if (c == '\'') continue;
      else break;
    }
    /* width */
    if (p < fmtlen && fmt[p] == '*') {
      p++;
      if (argi >= nargs) not_enough_args(in, fmt, fmtlen, start);
      double w = awk_to_num(in, &args[argi++]);
      if (w < 0) {
        sp.minus = true;
        w = -w;
      }
      if (w > (double)in->ctx->max_string) awk_fatal(in, "printf: width too large");
      sp.width = (size_t)w;
      sp.has_width = true;
    } else {
      while (p < fmtlen && fmt[p] >= '0' && fmt[p] <= '9') {
        sp.width = sp.width * 10 + (size_t)(fmt[p++] - '0');
        if (sp.width > in->ctx->max_string) awk_fatal(in, "printf: width too large");
        sp.has_width = true;
      }
    }
    if (p < fmtlen && fmt[p] == '.') {
      p++;
      sp.has_prec = true;
      if (p < fmtlen && fmt[p] == '*') {
        p++;
        if (argi >= nargs) not_enough_args(in, fmt, fmtlen, start);
        double w = awk_to_num(in, &args[argi++]);
        if (w < 0) sp.has_prec = false;
        else {
          if (w > (double)in->ctx->max_string) awk_fatal(in, "printf: precision too large");
          sp.prec = (size_t)w;
        }
      } else {
        while (p < fmtlen && fmt[p] >= '0' && fmt[p] <= '9') {
          sp.prec = sp.prec * 10 + (size_t)(fmt[p++] - '0');
          if (sp.prec > in->ctx->max_string) awk_fatal(in, "printf: precision too large");
        }
      }
    }
    /* length modifiers are accepted and ignored */
    while (p < fmtlen && strchr("hlLqjzt", fmt[p])) p++;
    if (p >= fmtlen) {
      fo_add(&o, fmt + start, fmtlen - start);
      break;
    }
    char conv = fmt[p++];
    i = p;
    if (conv == '%') {
      fo_add(&o, "%", 1);
      continue;
    }
    if (!strchr("cdiouxXeEfFgGaAs", conv)) {
      /* unknown: copy the text as is */
      fo_add(&o, fmt + start, p - start);
      continue;
    }
    awk_val *arg;
    if (posarg > 0) {
      if (posarg > nargs) not_enough_args(in, fmt, fmtlen, start);
      arg = &args[posarg - 1];
    } else {
      if (argi >= nargs) not_enough_args(in, fmt, fmtlen, start);
      arg = &args[argi++];
    }
    switch (conv) {
    case 'c': {
      char buf[8];
      size_t n;
      double looks;
      /* input that looks numeric is a number to %c, as in gawk ("65" -> A) */
      if (arg->type == AWK_NUM ||
          (arg->type == AWK_STRNUM && arg->s && awk_looks_numeric(arg->s->p, arg->s->len, &looks))) {
        double d = awk_to_num(in, arg);
        uint32_t cp = d < 0 ? 0 : d > 0x10ffff ? 0xfffd : (uint32_t)d;
        n = cp < 128 ? (buf[0] = (char)cp, 1) : awk_utf8_encode(cp, buf);
        if (d < 0 && d > -9e18) { /* gawk: no character; the value's low byte */
          buf[0] = (char)(uint8_t)(int64_t)d;
          n = 1;
        }
        fo_field(&o, buf, n, 1, sp.width, sp.minus);
      } else {
        awk_str *s = awk_to_str(in, arg);
        n = awk_utf8_char(s->p, s->len);
        if (s->len == 0) {
          /* gawk prints a NUL for an empty string */
          fo_field(&o, "", 1, 1, sp.width, sp.minus);
        } else {
          fo_field(&o, s->p, n, 1, sp.width, sp.minus);
        }
        awk_str_unref(in, s);
      }
      break;
    }
    case 's': {
      awk_str *s = arg->type == AWK_NUM ? awk_num_to_str(in, arg->num, in->convfmt->p)
                                        : awk_to_str(in, arg);
      size_t n = s->len, chars;
      bool ascii = awk_str_is_ascii(s);
      if (sp.has_prec) {
        n = ascii ? (sp.prec < s->len ? sp.prec : s->len) : awk_utf8_off(s->p, s->len, sp.prec);
      }
      chars = ascii ? n : awk_utf8_len(s->p, n);
      fo_field(&o, s->p, n, chars, sp.width, sp.minus);
      awk_str_unref(in, s);
      break;
    }
    case 'd':
    case 'i':
    case 'o':
    case 'x':
    case 'X':
    case 'u':
      fmt_number_conv(&o, sp, conv, awk_to_num(in, arg));
      break;
    default:
      fmt_float(&o, &sp, conv, awk_to_num(in, arg));
      break;
    }
  }
  *out = o.s;
  return o.s->len;
}

/* ---- substitution ---------------------------------------------------------------------- */

/* Appends the replacement for one match (sub/gsub rules, or gensub's). */
static void add_replacement(awk_interp *in, awk_str **out, awk_str *repl, const char *subject,
                            size_t ms, size_t me, bool gensub, const int64_t *spans, size_t nsub) {
  const char *r = repl->p;
  size_t n = repl->len;
  for (size_t i = 0; i < n; i++) {
    char c = r[i];
    if (c == '&') {
      awk_str_append(in, out, subject + ms, me - ms);
      continue;
    }
    if (c != '\\' || i + 1 >= n) {
      awk_str_appendc(in, out, c);
      continue;
    }
    if (gensub) {
      char d = r[i + 1];
      if (d >= '0' && d <= '9') {
        size_t g = (size_t)(d - '0');
        if (g == 0) awk_str_append(in, out, subject + ms, me - ms);
        else if (g <= nsub && spans[2 * g] >= 0)
          awk_str_append(in, out, subject + spans[2 * g], (size_t)(spans[2 * g + 1] - spans[2 * g]));
        i++;
        continue;
      }
      awk_str_appendc(in, out, d);
      i++;
      continue;
    }
    if (i + 3 < n + 0 && r[i + 1] == '\\' && r[i + 2] == '\\' && r[i + 3] == '&') {
      awk_str_append(in, out, "\\&", 2);
      i += 3;
    } else if (i + 2 < n && r[i + 1] == '\\' && r[i + 2] == '&') {
      awk_str_appendc(in, out, '\\');
      awk_str_append(in, out, subject + ms, me - ms);
      i += 2;
    } else if (r[i + 1] == '&') {
      awk_str_appendc(in, out, '&');
      i++;
    } else {
      awk_str_appendc(in, out, '\\');
    }
  }
}

/* The substitution loop shared by sub, gsub and gensub. which: 0 = all,
 * n = only the nth match. Returns the count and the new string. */
static size_t substitute(awk_interp *in, awk_regex *re, awk_str *repl, awk_str *target,
                         size_t which, bool global, bool gensub, awk_str **result) {
  const char *s = target->p;
  size_t len = target->len;
  awk_str *out = NULL;
  size_t count = 0, matchno = 0, pos = 0;
  bool last_nonempty_end_valid = false;
  size_t last_end = 0;
  size_t nsub = gensub ? awk_re_nsub(re) : 0;
  int64_t spans_small[2 * 10];
  int64_t *spans = spans_small;
  awk_str *span_blob = NULL;
  if (nsub >= 10) {
    span_blob = awk_str_alloc(in, 2 * (nsub + 1) * sizeof(int64_t));
    spans = (int64_t *)(void *)span_blob->p;
  }
  size_t iter = 0;
  while (pos <= len) {
    if ((++iter & 4095) == 0) awk_poll(in);
    size_t ms, me;
    int found;
    if (gensub && nsub) {
      found = awk_re_exec(re, s, len, pos, false, nsub, spans);
      if (found) {
        ms = (size_t)spans[0];
        me = (size_t)spans[1];
      }
    } else {
      found = awk_re_search(re, s, len, pos, false, &ms, &me);
    }
    if (!found) break;
    if (ms == me && last_nonempty_end_valid && ms == last_end) {
      /* an empty match right after the previous match: skip one character */
      if (ms >= len) break;
      size_t cl = awk_utf8_char(s + ms, len - ms);
      if (!out) out = awk_str_alloc(in, len + 16);
      awk_str_append(in, &out, s + pos, ms + cl - pos);
      pos = ms + cl;
      last_nonempty_end_valid = false;
      continue;
    }
    matchno++;
    if (!out) out = awk_str_alloc(in, len + 16);
    awk_str_append(in, &out, s + pos, ms - pos);
    if (which == 0 || matchno == which) {
      add_replacement(in, &out, repl, s, ms, me, gensub, spans, nsub);
      count++;
    } else {
      awk_str_append(in, &out, s + ms, me - ms);
    }
    if (ms == me) {
      if (ms >= len) {
        pos = len + 1;
        break;
      }
      size_t cl = awk_utf8_char(s + ms, len - ms);
      awk_str_append(in, &out, s + ms, cl);
      pos = ms + cl;
      last_nonempty_end_valid = false;
    } else {
      pos = me;
      last_nonempty_end_valid = true;
      last_end = me;
    }
    if (!global && count && which == 0) break;
    if (!global && which && matchno >= which) break;
  }
  if (span_blob) awk_str_unref(in, span_blob);
  if (!count) {
    if (out) awk_str_unref(in, out);
    *result = NULL;
    return 0;
  }
  if (pos < len) awk_str_append(in, &out, s + pos, len - pos);
  *result = out;
  return count;
}

static awk_val do_sub(awk_interp *in, awk_node *n, bool global) {
  awk_node *a_re = n->a, *a_repl = n->a->next, *a_target = a_repl->next;
  awk_regex *re = awk_node_re(in, a_re);
  awk_str *repl = arg_str(in, a_repl);
  /* keep the regex alive: a dynamic regex may be evicted while evaluating
   * the target; re-fetch after */
  awk_str *target;
  if (a_target) {
    awk_val v = awk_eval(in, a_target);
    target = awk_to_str(in, &v);
    awk_val_free(in, &v);
  } else {
    target = awk_str_ref(awk_get_rec(in));
  }
  if (a_re->type != AN_REGEX) re = awk_node_re(in, a_re);
  awk_str *result;
  size_t count = substitute(in, re, repl, target, 0, global, false, &result);
  awk_str_unref(in, repl);
  awk_str_unref(in, target);
  if (count) {
    if (!a_target) {
      awk_set_rec_str(in, result);
    } else if (a_target->type == AN_VAR || a_target->type == AN_LOCAL ||
               a_target->type == AN_FIELD || a_target->type == AN_INDEX) {
      awk_assign(in, a_target, awk_strv(result));
    } else {
      awk_str_unref(in, result);
    }
  }
  return awk_num((double)count);
}

static awk_val do_gensub(awk_interp *in, awk_node *n) {
  awk_node *a_re = n->a, *a_repl = a_re->next, *a_how = a_repl->next, *a_target = a_how->next;
  awk_str *repl = arg_str(in, a_repl);
  awk_val how = awk_eval(in, a_how);
  bool global = false;
  size_t which = 1;
  if (how.type != AWK_NUM && how.s && how.s->len > 0 && (how.s->p[0] == 'g' || how.s->p[0] == 'G')) {
    global = true;
    which = 0;
  } else {
    double d = awk_to_num(in, &how);
    if (d < 1) {
      awk_str *hs = awk_to_str(in, &how);
      awk_warning(in, "gensub: third argument `%s' treated as 1", hs->p);
      awk_str_unref(in, hs);
      d = 1;
    }
    which = (size_t)d;
  }
  awk_val_free(in, &how);
  awk_str *target = a_target ? arg_str(in, a_target) : awk_str_ref(awk_get_rec(in));
  awk_regex *re = awk_node_re(in, a_re);
  awk_str *result;
  size_t count = substitute(in, re, repl, target, which, global, true, &result);
  awk_str_unref(in, repl);
  if (!count) return awk_strv(target);
  awk_str_unref(in, target);
  return awk_strv(result);
}

/* ---- split ------------------------------------------------------------------------------ */

static void arr_set_idx(awk_interp *in, awk_arr *a, size_t i, awk_val v) {
  char buf[32];
  int n = snprintf(buf, sizeof buf, "%zu", i);
  awk_arr_set(in, a, buf, (size_t)n, v);
}

static awk_val do_split(awk_interp *in, awk_node *n) {
  awk_node *a_s = n->a, *a_arr = a_s->next, *a_fs = a_arr->next;
  awk_node *a_seps = a_fs ? a_fs->next : NULL;
  awk_str *s = arg_str(in, a_s);
  /* the separator: default FS, " " blanks, one char literal, else regex */
  int mode;
  char ch = 0;
  awk_regex *re = NULL;
  awk_str *fs = NULL;
  if (!a_fs) {
    fs = awk_str_ref(in->fs);
  } else if (a_fs->type == AN_REGEX) {
    mode = 2;
    fs = awk_str_ref(a_fs->str);
  } else {
    fs = arg_str(in, a_fs);
  }
  if (a_fs && a_fs->type == AN_REGEX) {
    mode = 2;
    if (fs->len == 1 && fs->p[0] == ' ') mode = 2;
  } else if (fs->len == 1 && fs->p[0] == ' ') {
    mode = 0;
  } else if (fs->len == 0) {
    mode = 3;
  } else if (fs->len == 1 && fs->p[0] != '\\') {
    mode = 1;
    ch = fs->p[0];
  } else {
    mode = 2;
  }
  awk_arr *arr = awk_get_array(in, a_arr);
  awk_arr *seps = a_seps ? awk_get_array(in, a_seps) : NULL;
  if (seps == arr) awk_fatal(in, "split: cannot use the same array for second and fourth args");
  awk_arr_clear(in, arr);
  if (seps) awk_arr_clear(in, seps);
  if (mode == 2) {
    if (a_fs && a_fs->type == AN_REGEX) re = awk_node_re(in, a_fs);
    else re = awk_str_re(in, fs);
  }
  const char *p = s->p;
  size_t len = s->len, nf = 0;
  switch (mode) {
  case 0: {
    size_t i = 0;
    size_t st = 0;
    while (i < len && (p[i] == ' ' || p[i] == '\t' || p[i] == '\n')) i++;
    if (seps && i > 0) awk_arr_set(in, seps, "0", 1, awk_strnumv(awk_str_new(in, p, i)));
    while (i < len) {
      st = i;
      while (i < len && p[i] != ' ' && p[i] != '\t' && p[i] != '\n') i++;
      arr_set_idx(in, arr, ++nf, awk_strnumv(awk_str_new(in, p + st, i - st)));
      size_t ss = i;
      while (i < len && (p[i] == ' ' || p[i] == '\t' || p[i] == '\n')) i++;
      if (seps && i > ss) arr_set_idx(in, seps, nf, awk_strnumv(awk_str_new(in, p + ss, i - ss)));
    }
    break;
  }
  case 1: {
    if (len == 0) break;
    size_t st = 0;
    for (;;) {
      const char *q = memchr(p + st, ch, len - st);
      size_t e = q ? (size_t)(q - p) : len;
      arr_set_idx(in, arr, ++nf, awk_strnumv(awk_str_new(in, p + st, e - st)));
      if (!q) break;
      if (seps) arr_set_idx(in, seps, nf, awk_strnumv(awk_str_new(in, q, 1)));
      st = e + 1;
    }
    break;
  }
  case 3: {
    size_t i = 0;
    while (i < len) {
      size_t k = awk_utf8_char(p + i, len - i);
      arr_set_idx(in, arr, ++nf, awk_strnumv(awk_str_new(in, p + i, k)));
      i += k;
    }
    break;
  }
  default: {
    if (len == 0) break;
    size_t st = 0, from = 0;
    for (;;) {
      size_t ms, me;
      int found = awk_re_search(re, p, len, from, false, &ms, &me);
      while (found && me == ms) {
        if (ms >= len) {
          found = 0;
          break;
        }
        from = ms + 1;
        found = awk_re_search(re, p, len, from, false, &ms, &me);
      }
      if (!found) {
        arr_set_idx(in, arr, ++nf, awk_strnumv(awk_str_new(in, p + st, len - st)));
        break;
      }
      arr_set_idx(in, arr, ++nf, awk_strnumv(awk_str_new(in, p + st, ms - st)));
      if (seps) arr_set_idx(in, seps, nf, awk_strnumv(awk_str_new(in, p + ms, me - ms)));
      st = from = me;
    }
    break;
  }
  }
  awk_str_unref(in, s);
  awk_str_unref(in, fs);
  return awk_num((double)nf);
}

static awk_val do_patsplit(awk_interp *in, awk_node *n) {
  awk_node *a_s = n->a, *a_arr = a_s->next, *a_fp = a_arr->next;
  awk_node *a_seps = a_fp ? a_fp->next : NULL;
  awk_str *s = arg_str(in, a_s);
  awk_regex *re;
  if (a_fp) re = awk_node_re(in, a_fp);
  else {
    awk_val v = awk_special_get(in, AWK_V_FPAT);
    re = awk_dynamic_re(in, &v);
    awk_val_free(in, &v);
  }
  awk_arr *arr = awk_get_array(in, a_arr);
  awk_arr *seps = a_seps ? awk_get_array(in, a_seps) : NULL;
  awk_arr_clear(in, arr);
  if (seps) awk_arr_clear(in, seps);
  size_t pos = 0, nf = 0, prev_end = 0;
  while (pos <= s->len) {
    size_t ms, me;
    if (!awk_re_search(re, s->p, s->len, pos, false, &ms, &me)) break;
    if (me == ms) {
      pos = ms + 1;
      continue;
    }
    if (seps) arr_set_idx(in, seps, nf, awk_strnumv(awk_str_new(in, s->p + prev_end, ms - prev_end)));
    arr_set_idx(in, arr, ++nf, awk_strnumv(awk_str_new(in, s->p + ms, me - ms)));
    prev_end = pos = me;
  }
  if (seps && prev_end < s->len)
    arr_set_idx(in, seps, nf, awk_strnumv(awk_str_new(in, s->p + prev_end, s->len - prev_end)));
  awk_str_unref(in, s);
  return awk_num((double)nf);
}

/* ---- sorting (asort, asorti) --------------------------------------------------------- */

typedef struct sort_item {
  awk_val key;   /* what is compared */
  awk_val val;   /* what is stored */
} sort_item;

typedef struct sort_ctx {
  awk_interp *in; /* for conversions */
  int desc;       /* descending */
  int mode;       /* 0 default (numbers first), 1 string, 2 number */
} sort_ctx;

/* The two keys' order as numbers. */
static int cmp_keys_as_numbers(awk_interp *in, awk_val *a, awk_val *b) {
  double da = awk_to_num(in, a), db = awk_to_num(in, b);
  return da < db ? -1 : da > db;
}

/* The two keys' order as strings, byte by byte, a prefix first. */
static int cmp_keys_as_strings(awk_interp *in, awk_val *a, awk_val *b) {
  awk_str *sa = awk_to_str(in, a), *sb = awk_to_str(in, b);
  size_t m = sa->len < sb->len ? sa->len : sb->len;
  int r = memcmp(sa->p, sb->p, m);
  if (!r) r = sa->len < sb->len ? -1 : sa->len > sb->len;
  awk_str_unref(in, sa);
  awk_str_unref(in, sb);
  return r;
}

static int cmp_items(const void *x, const void *y, void *ud) {
  const sort_item *a = x, *b = y;
  sort_ctx *sc = ud;
  awk_interp *sort_in = sc->in;
  int sort_mode = sc->mode, sort_desc = sc->desc;
  awk_val va = a->key, vb = b->key;
  int r;
  if (sort_mode == 2) {
    r = cmp_keys_as_numbers(sort_in, &va, &vb);
  } else if (sort_mode == 1) {
    r = cmp_keys_as_strings(sort_in, &va, &vb);
  } else {
    bool na = va.type == AWK_NUM || (va.type == AWK_STRNUM && (va.flags & AWK_VF_LOOKSNUM));
    bool nb = vb.type == AWK_NUM || (vb.type == AWK_STRNUM && (vb.flags & AWK_VF_LOOKSNUM));
    if (na && nb) r = cmp_keys_as_numbers(sort_in, &va, &vb);
    else if (na != nb) r = na ? -1 : 1;
    else r = cmp_keys_as_strings(sort_in, &va, &vb);
  }
  return sort_desc ? -r : r;
}

static awk_val do_asort(awk_interp *in, awk_node *n, bool by_index) {
  awk_node *a_src = n->a, *a_dst = a_src->next, *a_how = a_dst ? a_dst->next : NULL;
  awk_arr *src = awk_get_array(in, a_src);
  awk_arr *dst = a_dst ? awk_get_array(in, a_dst) : src;
  int mode = by_index ? 1 : 0;
  int desc = 0;
  if (a_how) {
    awk_str *h = arg_str(in, a_how);
    if (strstr(h->p, "desc")) desc = 1;
    if (strstr(h->p, "_num")) mode = 2;
    else if (strstr(h->p, "_str")) mode = 1;
    awk_str_unref(in, h);
  }
  size_t cnt;
  awk_str *kblob = awk_arr_keys(in, src, &cnt);
  awk_val *keys = (awk_val *)(void *)kblob->p;
  awk_str *iblob = awk_str_alloc(in, (cnt ? cnt : 1) * sizeof(sort_item));
  sort_item *items = (sort_item *)(void *)iblob->p;
  for (size_t i = 0; i < cnt; i++) {
    awk_str *k = awk_to_str(in, &keys[i]);
    awk_cell *c = awk_arr_get(in, src, k, false);
    awk_val v = c && c->kind == AWK_CELL_VAL ? awk_val_copy(&c->v) : awk_uninit();
    if (by_index) {
      items[i].key = awk_strv(awk_str_ref(k));
      items[i].val = awk_strv(k);
      awk_val_free(in, &v);
    } else {
      if (v.type == AWK_STRNUM) awk_strnum_looks_numeric(&v);
      items[i].key = awk_val_copy(&v);
      items[i].val = v;
      awk_str_unref(in, k);
    }
  }
  awk_keys_free(in, kblob, cnt);
  sort_ctx sc = {in, desc, mode};
  qsort_r(items, cnt, sizeof *items, cmp_items, &sc);
  awk_arr_clear(in, dst);
  for (size_t i = 0; i < cnt; i++) {
    awk_val_free(in, &items[i].key);
    arr_set_idx(in, dst, i + 1, items[i].val);
  }
  awk_str_unref(in, iblob);
  return awk_num((double)cnt);
}

/* ---- time --------------------------------------------------------------------------------- */

static awk_val do_strftime(awk_interp *in, awk_node *n) {
  awk_str *fmt;
  time_t t = (time_t)in->ctx->now;
  if (n->a) {
    fmt = arg_str(in, n->a);
    if (n->a->next) {
      double d = arg_num(in, n->a->next);
      if (d < 0 || d > 1e15) {
        awk_str_unref(in, fmt);
        awk_fatal(in, "strftime: second argument out of range for time_t");
      }
      t = (time_t)d;
      if (n->a->next->next) {
        awk_val v = awk_eval(in, n->a->next->next);
        awk_val_free(in, &v);
      }
    }
  } else {
    fmt = awk_str_cstr(in, "%a %b %e %H:%M:%S %Z %Y");
  }
  struct tm tm;
  gmtime_r(&t, &tm);
  tm.tm_zone = "UTC";
  if (fmt->len == 0) {
    awk_str_unref(in, fmt);
    return awk_strv(awk_str_new(in, "", 0));
  }
  size_t cap = fmt->len * 8 + 256;
  for (;;) {
    if (cap > in->ctx->max_string) awk_fatal(in, "strftime: result too long");
    awk_str *out = awk_str_alloc(in, cap);
    /* a leading space guarantees a non-zero result for valid formats */
    char *f = malloc(fmt->len + 2);
    if (!f) awk_fatal(in, "out of memory");
    f[0] = ' ';
    memcpy(f + 1, fmt->p, fmt->len + 1);
    size_t r = strftime(out->p, cap, f, &tm);
    free(f);
    if (r > 0) {
      memmove(out->p, out->p + 1, r);
      out->len = r - 1;
      out->p[out->len] = 0;
      awk_str_unref(in, fmt);
      return awk_strv(out);
    }
    awk_str_unref(in, out);
    cap *= 4;
  }
}

static awk_val do_mktime(awk_interp *in, awk_node *n) {
  awk_str *s = arg_str(in, n->a);
  if (n->a->next) {
    awk_val v = awk_eval(in, n->a->next);
    awk_val_free(in, &v);
  }
  long long f[7] = {0, 0, 0, 0, 0, 0, -1};
  int cnt = 0;
  const char *p = s->p;
  while (*p && cnt < 7) {
    while (*p == ' ' || *p == '\t' || *p == '\n') p++;
    if (!*p) break;
    char *e;
    long long v = strtoll(p, &e, 10);
    if (e == p) break;
    f[cnt++] = v;
    p = e;
  }
  awk_str_unref(in, s);
  if (cnt < 6) return awk_num(-1);
  struct tm tm = {0};
  tm.tm_year = (int)(f[0] - 1900);
  tm.tm_mon = (int)(f[1] - 1);
  tm.tm_mday = (int)f[2];
  tm.tm_hour = (int)f[3];
  tm.tm_min = (int)f[4];
  tm.tm_sec = (int)f[5];
  time_t t = timegm(&tm);
  return awk_num((double)t);
}

/* ---- case mapping --------------------------------------------------------------------------- */

static awk_str *map_case(awk_interp *in, awk_str *s, bool upper) {
  awk_str *out = awk_str_alloc(in, s->len);
  if (awk_str_is_ascii(s)) {
    for (size_t i = 0; i < s->len; i++) {
      char c = s->p[i];
      out->p[i] = (char)(upper ? toupper((unsigned char)c) : tolower((unsigned char)c));
    }
    out->len = s->len;
    out->p[out->len] = 0;
    return out;
  }
  locale_t loc = cmd_utf8_locale(); /* (locale_t)0 without C.UTF-8: such a letter is kept */
  size_t i = 0;
  while (i < s->len) {
    size_t n = awk_utf8_char(s->p + i, s->len - i);
    unsigned char c = (unsigned char)s->p[i];
    if (c < 0x80) {
      char m = (char)(upper ? toupper(c) : tolower(c));
      awk_str_appendc(in, &out, m);
    } else if (n == 1) {
      awk_str_appendc(in, &out, (char)c);
    } else {
      uint32_t cp;
      if (n == 2) cp = ((c & 0x1f) << 6) | (s->p[i + 1] & 0x3f);
      else if (n == 3) cp = ((c & 0x0f) << 12) | ((s->p[i + 1] & 0x3f) << 6) | (s->p[i + 2] & 0x3f);
      else cp = ((uint32_t)(c & 0x07) << 18) | ((uint32_t)(s->p[i + 1] & 0x3f) << 12) |
                ((s->p[i + 2] & 0x3f) << 6) | (s->p[i + 3] & 0x3f);
      uint32_t m = cp;
      if (loc) m = (uint32_t)(upper ? towupper_l((wint_t)cp, loc) : towlower_l((wint_t)cp, loc));
      char buf[4];
      size_t k = awk_utf8_encode(m, buf);
      awk_str_append(in, &out, buf, k);
    }
    i += n;
  }
  return out;
}

/* ---- random numbers ---------------------------------------------------------------------- */

static uint64_t rng_next(awk_interp *in) {
  uint64_t z = (in->rng += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static void rng_seed(awk_interp *in, double seed) {
  uint64_t s;
  memcpy(&s, &seed, sizeof s);
  in->rng = s ^ 0x5DEECE66Dull;
  rng_next(in);
}

/* ---- the dispatcher ----------------------------------------------------------------------- */

static uint64_t to_uint(awk_interp *in, double d, const char *fn) {
  if (d < 0) awk_fatal(in, "%s: negative values are not allowed", fn);
  if (d >= 1.8446744073709552e19) return UINT64_MAX;
  return (uint64_t)trunc_d(d);
}

awk_val awk_call_builtin(awk_interp *in, awk_node *n) {
  awk_node *a = n->a;
  switch (n->idx) {
  case AB_LENGTH: {
    if (!a) return awk_num((double)str_chars(awk_get_rec(in)));
    if (a->type == AN_VAR || a->type == AN_LOCAL) {
      awk_cell *c = a->type == AN_VAR ? &in->globals[a->idx]
                                      : &in->frames[in->depth - 1].locals[a->idx];
      if (c->kind == AWK_CELL_REF) c = c->ref;
      if (c->kind == AWK_CELL_ARR) return awk_num((double)awk_arr_len(c->arr));
      if (c->kind == AWK_CELL_NONE && a->idx >= (a->type == AN_VAR ? AWK_NSPECIAL : 0))
        return awk_num(0);
    }
    awk_str *s = arg_str(in, a);
    double r = (double)str_chars(s);
    awk_str_unref(in, s);
    return awk_num(r);
  }
  case AB_SUBSTR: {
    awk_str *s = arg_str(in, a);
    double di = arg_num(in, a->next);
    double dl = 0;
    bool has_len = a->next->next != NULL;
    if (has_len) {
      dl = arg_num(in, a->next->next);
      if (!(dl >= 1)) {
        awk_str_unref(in, s);
        return awk_strv(awk_str_new(in, "", 0));
      }
      dl = trunc_d(dl);
    }
    if (!(di >= 1)) di = 1;
    di = trunc_d(di);
    size_t chars = str_chars(s);
    if (di > (double)chars) {
      awk_str_unref(in, s);
      return awk_strv(awk_str_new(in, "", 0));
    }
    size_t start = (size_t)di - 1;
    size_t count = chars - start;
    if (has_len && dl < (double)count) count = (size_t)dl;
    size_t b0 = char_off(s, start);
    size_t b1 = b0 + (awk_str_is_ascii(s) ? count : awk_utf8_off(s->p + b0, s->len - b0, count));
    awk_str *r = awk_str_new(in, s->p + b0, b1 - b0);
    awk_str_unref(in, s);
    return awk_strv(r);
  }
  case AB_INDEX: {
    awk_str *s = arg_str(in, a), *t = arg_str(in, a->next);
    double r = 0;
    if (t->len == 0) r = 1; /* gawk: the empty string is found at 1 */
    else {
      const char *q = memmem(s->p, s->len, t->p, t->len);
      if (q) r = (double)(awk_str_is_ascii(s) ? (size_t)(q - s->p) : awk_utf8_len(s->p, (size_t)(q - s->p))) + 1;
    }
    awk_str_unref(in, s);
    awk_str_unref(in, t);
    return awk_num(r);
  }
  case AB_SPLIT:
    return do_split(in, n);
  case AB_PATSPLIT:
    return do_patsplit(in, n);
  case AB_SUB:
    return do_sub(in, n, false);
  case AB_GSUB:
    return do_sub(in, n, true);
  case AB_GENSUB:
    return do_gensub(in, n);
  case AB_MATCH: {
    awk_str *s = arg_str(in, a);
    awk_regex *re = awk_node_re(in, a->next);
    awk_arr *arr = a->next->next ? awk_get_array(in, a->next->next) : NULL;
    size_t nsub = awk_re_nsub(re);
    awk_str *blob = awk_str_alloc(in, 2 * (nsub + 1) * sizeof(int64_t));
    int64_t *sp = (int64_t *)(void *)blob->p;
    int found = awk_re_exec(re, s->p, s->len, 0, false, nsub, sp);
    if (arr) awk_arr_clear(in, arr);
    double rstart = 0, rlength = -1;
    if (found) {
      bool ascii = awk_str_is_ascii(s);
      rstart = (double)(ascii ? (size_t)sp[0] : awk_utf8_len(s->p, (size_t)sp[0])) + 1;
      rlength = (double)(ascii ? (size_t)(sp[1] - sp[0]) : awk_utf8_len(s->p + sp[0], (size_t)(sp[1] - sp[0])));
      if (arr) {
        for (size_t g = 0; g <= nsub; g++) {
          if (sp[2 * g] < 0) continue;
          char key[64];
          int kl = snprintf(key, sizeof key, "%zu", g);
          awk_arr_set(in, arr, key, (size_t)kl,
                      awk_strnumv(awk_str_new(in, s->p + sp[2 * g], (size_t)(sp[2 * g + 1] - sp[2 * g]))));
          double gs = (double)(ascii ? (size_t)sp[2 * g] : awk_utf8_len(s->p, (size_t)sp[2 * g])) + 1;
          double gl = (double)(ascii ? (size_t)(sp[2 * g + 1] - sp[2 * g])
                                     : awk_utf8_len(s->p + sp[2 * g], (size_t)(sp[2 * g + 1] - sp[2 * g])));
          kl = snprintf(key, sizeof key, "%zu%sstart", g, in->subsep->p);
          awk_arr_set(in, arr, key, (size_t)kl, awk_num(gs));
          kl = snprintf(key, sizeof key, "%zu%slength", g, in->subsep->p);
          awk_arr_set(in, arr, key, (size_t)kl, awk_num(gl));
        }
      }
    }
    awk_str_unref(in, blob);
    awk_str_unref(in, s);
    set_special_num(in, AWK_V_RSTART, rstart);
    set_special_num(in, AWK_V_RLENGTH, rlength);
    return awk_num(rstart);
  }
  case AB_SPRINTF: {
    int nargs;
    awk_str *blob = awk_eval_args(in, a, &nargs);
    awk_val *vals = (awk_val *)(void *)blob->p;
    awk_str *fmt = awk_to_str(in, &vals[0]);
    awk_str *out = NULL;
    awk_format_vals(in, fmt->p, fmt->len, vals + 1, nargs - 1, &out);
    awk_str_unref(in, fmt);
    awk_keys_free(in, blob, (size_t)nargs);
    return awk_strv(out);
  }
  case AB_SIN: return awk_num(sin(arg_num(in, a)));
  case AB_COS: return awk_num(cos(arg_num(in, a)));
  case AB_ATAN2: {
    double y = arg_num(in, a), x = arg_num(in, a->next);
    return awk_num(atan2(y, x));
  }
  case AB_EXP: {
    double x = arg_num(in, a);
    double r = exp(x);
    if (isinf(r) && !isinf(x)) {
      awk_warning(in, "exp: argument %g is out of range", x);
    }
    return awk_num(r);
  }
  case AB_LOG: {
    double x = arg_num(in, a);
    if (x < 0) awk_warning(in, "log: received negative argument %g", x);
    return awk_num(log(x));
  }
  case AB_SQRT: {
    double x = arg_num(in, a);
    if (x < 0) awk_warning(in, "sqrt: called with negative argument %g", x);
    return awk_num(sqrt(x));
  }
  case AB_INT:
    return awk_num(trunc_d(arg_num(in, a)));
  case AB_RAND: {
    if (!in->rng) rng_seed(in, in->seed);
    return awk_num((double)(rng_next(in) >> 11) * (1.0 / 9007199254740992.0));
  }
  case AB_SRAND: {
    double prev = in->seed;
    in->seed = a ? trunc_d(arg_num(in, a)) : (double)in->ctx->now;
    rng_seed(in, in->seed);
    return awk_num(prev);
  }
  case AB_TOLOWER:
  case AB_TOUPPER: {
    awk_str *s = arg_str(in, a);
    awk_str *r = map_case(in, s, n->idx == AB_TOUPPER);
    awk_str_unref(in, s);
    return awk_strv(r);
  }
  case AB_SYSTEM: {
    awk_str *cmd = arg_str(in, a);
    awk_flush_all(in);
    cmd_flush(in->ctx);
    if (!in->ctx->io->run) {
      awk_str_unref(in, cmd);
      return awk_num(-1);
    }
    char *argv[4] = {"sh", "-c", cmd->p, NULL};
    int st = in->ctx->io->run(in->ctx->io_ud, 3, argv, 0, 1);
    awk_str_unref(in, cmd);
    return awk_num(st);
  }
  case AB_CLOSE: {
    awk_str *name = arg_str(in, a);
    if (a->next) {
      awk_val v = awk_eval(in, a->next);
      awk_val_free(in, &v);
    }
    bool found;
    int r = awk_stream_close(in, name, &found);
    awk_str_unref(in, name);
    return awk_num(r);
  }
  case AB_FFLUSH: {
    if (!a) return awk_num(awk_flush_all(in));
    awk_str *name = arg_str(in, a);
    int r = awk_fflush_name(in, name);
    awk_str_unref(in, name);
    return awk_num(r);
  }
  case AB_STRFTIME:
    return do_strftime(in, n);
  case AB_SYSTIME:
    return awk_num((double)in->ctx->now);
  case AB_MKTIME:
    return do_mktime(in, n);
  case AB_AND:
  case AB_OR:
  case AB_XOR: {
    const char *fn = n->idx == AB_AND ? "and" : n->idx == AB_OR ? "or" : "xor";
    uint64_t r = to_uint(in, arg_num(in, a), fn);
    for (awk_node *b = a->next; b; b = b->next) {
      uint64_t v = to_uint(in, arg_num(in, b), fn);
      if (n->idx == AB_AND) r &= v;
      else if (n->idx == AB_OR) r |= v;
      else r ^= v;
    }
    return awk_num((double)r);
  }
  case AB_LSHIFT:
  case AB_RSHIFT: {
    const char *fn = n->idx == AB_LSHIFT ? "lshift" : "rshift";
    uint64_t v = to_uint(in, arg_num(in, a), fn);
    uint64_t s = to_uint(in, arg_num(in, a->next), fn);
    if (s >= 64) return awk_num(0);
    return awk_num((double)(n->idx == AB_LSHIFT ? v << s : v >> s));
  }
  case AB_COMPL: {
    uint64_t v = to_uint(in, arg_num(in, a), "compl");
    /* gawk works on 53-bit integers */
    return awk_num((double)(~v & ((1ull << 53) - 1)));
  }
  case AB_STRTONUM: {
    awk_val v = awk_eval(in, a);
    if (v.type == AWK_NUM) return v;
    awk_str *s = awk_to_str(in, &v);
    awk_val_free(in, &v);
    const char *p = s->p;
    while (*p == ' ' || *p == '\t' || *p == '\n') p++;
    double r;
    bool neg = false;
    const char *q = p;
    if (*q == '-' || *q == '+') neg = *q++ == '-';
    if (q[0] == '0' && (q[1] == 'x' || q[1] == 'X')) {
      r = (double)strtoull(q + 2, NULL, 16);
      if (neg) r = -r;
    } else if (q[0] == '0' && q[1] >= '0' && q[1] <= '7') {
      r = (double)strtoull(q, NULL, 8);
      if (neg) r = -r;
    } else {
      r = awk_strtod(s->p, s->len);
    }
    awk_str_unref(in, s);
    return awk_num(r);
  }
  case AB_ASORT:
    return do_asort(in, n, false);
  case AB_ASORTI:
    return do_asort(in, n, true);
  case AB_ISARRAY: {
    if (a->type == AN_VAR || a->type == AN_LOCAL) {
      awk_cell *c = a->type == AN_VAR ? &in->globals[a->idx]
                                      : &in->frames[in->depth - 1].locals[a->idx];
      if (c->kind == AWK_CELL_REF) c = c->ref;
      return awk_num(c->kind == AWK_CELL_ARR);
    }
    awk_val v = awk_eval(in, a);
    awk_val_free(in, &v);
    return awk_num(0);
  }
  case AB_TYPEOF: {
    const char *t;
    if (a->type == AN_VAR || a->type == AN_LOCAL) {
      awk_cell *c = a->type == AN_VAR ? &in->globals[a->idx]
                                      : &in->frames[in->depth - 1].locals[a->idx];
      if (c->kind == AWK_CELL_REF) c = c->ref;
      if (c->kind == AWK_CELL_ARR) return awk_strv(awk_str_cstr(in, "array"));
      if (c->kind == AWK_CELL_NONE && !(a->type == AN_VAR && a->idx < AWK_NSPECIAL))
        return awk_strv(awk_str_cstr(in, "untyped"));
    }
    if (a->type == AN_REGEX) return awk_strv(awk_str_cstr(in, "regexp"));
    if (a->type == AN_FIELD) {
      awk_val iv = awk_eval(in, a->a);
      double d = awk_to_num(in, &iv);
      awk_val_free(in, &iv);
      if (d >= 1) {
        awk_split_record(in);
        if (d > (double)in->nf) return awk_strv(awk_str_cstr(in, "unassigned"));
      }
    }
    awk_val v = awk_eval(in, a);
    switch (v.type) {
    case AWK_NUM: t = "number"; break;
    case AWK_STR: t = "string"; break;
    case AWK_UNINIT: t = "unassigned"; break;
    default: {
      double d;
      t = awk_looks_numeric(v.s->p, v.s->len, &d) ? "strnum" : "string";
    }
    }
    awk_val_free(in, &v);
    return awk_strv(awk_str_cstr(in, t));
  }
  default:
    awk_fatal(in, "internal error: unknown builtin %d", n->idx);
  }
}
