/*
 * printf - format and print data (bash 5.2's builtin, also the command).
 *
 *   Usage: printf [-v var] format [arguments]
 *   Conversions: %d %i %o %u %x %X %f %F %e %E %g %G %a %A %c %s %b %q %Q %n
 *   %(strftime)T %%, flags "#'-+ 0", width and precision as digits or '*',
 *   length modifiers hjlLtz accepted and ignored. Escapes in the format:
 *   \a \b \e \E \f \n \r \t \v \\ \" \' \? \NNN \xHH \uHHHH \UHHHHHHHH.
 *
 * Design: one file serves as the shell's builtin and as the `printf`
 * command, and follows bash where bash and coreutils differ, because bash's
 * is what scripts see: the format is reused while arguments remain (and at
 * least one was consumed), missing arguments are "" or 0, numeric arguments
 * take C constants (0x, 0), 'c / "c (the character's code point), print the
 * partial value with "invalid number" and status 1, and clamp out-of-range
 * values with a warning (status unchanged). %q/%Q quote like bash (backslashes,
 * or $'...' when a byte is not printable). %b expands escapes with \0NNN and
 * stops everything at \c. The scanner mirrors bash's printf.def loop, so odd
 * formats ("%5%", "%(x)X", "%z") fail the same way.
 *
 * Numbers are formatted by snprintf in a C.UTF-8 locale object (uselocale),
 * so the host process's locale never changes a decimal point or grouping;
 * floats use long double like bash. Widths and precisions are bounded by
 * ctx->max_string: a conversion that would exceed it fails with a message
 * instead of allocating. Output goes to stdout or, with -v, to a variable
 * through ctx->io->setvar.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wctype.h>

#include "cmd/cmd.h"
#include "cmd/lib/buf.h"
#include "cmd/lib/gnu.h"

CMD_DEFINE("printf", cmd_printf_main);

#define PF_SKIP1 "#'-+ 0"
#define PF_LENMODS "hjlLtz"

typedef struct pf_state {
  cmd_ctx *ctx;
  char **args;            /* the arguments after the format */
  int nargs;              /* their count */
  int ai;                 /* next argument */
  bool conversion_error;  /* an "invalid number" happened */
  bool to_var;            /* -v: collect output in vbuf */
  char *vbuf;             /* collected output (malloc'd) */
  size_t vlen, vcap;      /* its length and capacity */
  uintmax_t tw;           /* bytes written in this pass (for %n) */
  int out_err;            /* first output error */
} pf_state;

static void pf_put(pf_state *st, const void *p, size_t n) {
  if (st->out_err || n == 0) return;
  st->tw += n;
  if (!st->to_var) {
    int r = cmd_out(st->ctx, p, n);
    if (r < 0) st->out_err = r;
    return;
  }
  if (st->vlen + n > st->ctx->max_string) {
    st->out_err = -EFBIG;
    return;
  }
  if (cmd_grow(&st->vbuf, &st->vcap, st->vlen + n + 1, 1)) {
    st->out_err = -ENOMEM;
    return;
  }
  memcpy(st->vbuf + st->vlen, p, n);
  st->vlen += n;
}

static void pf_putc(pf_state *st, char c) { pf_put(st, &c, 1); }

static void pf_pad(pf_state *st, size_t n) {
  char sp[64];
  memset(sp, ' ', sizeof sp);
  while (n > 0) {
    size_t k = n < sizeof sp ? n : sizeof sp;
    pf_put(st, sp, k);
    n -= k;
  }
}

/* ---- escapes --------------------------------------------------------------------- */

/* Encodes c as UTF-8 with bash's encoder (up to 6 bytes for 31 bits). */
static int pf_u32(uint32_t c, char *out) {
  if (c < 0x80) { out[0] = (char)c; return 1; }
  if (c < 0x800) {
    out[0] = (char)(0xc0 | (c >> 6)); out[1] = (char)(0x80 | (c & 0x3f));
    return 2;
  }
  if (c < 0x10000) {
    out[0] = (char)(0xe0 | (c >> 12)); out[1] = (char)(0x80 | ((c >> 6) & 0x3f));
    out[2] = (char)(0x80 | (c & 0x3f));
    return 3;
  }
  if (c < 0x200000) {
    out[0] = (char)(0xf0 | (c >> 18)); out[1] = (char)(0x80 | ((c >> 12) & 0x3f));
    out[2] = (char)(0x80 | ((c >> 6) & 0x3f)); out[3] = (char)(0x80 | (c & 0x3f));
    return 4;
  }
  if (c < 0x4000000) {
    out[0] = (char)(0xf8 | (c >> 24)); out[1] = (char)(0x80 | ((c >> 18) & 0x3f));
    out[2] = (char)(0x80 | ((c >> 12) & 0x3f)); out[3] = (char)(0x80 | ((c >> 6) & 0x3f));
    out[4] = (char)(0x80 | (c & 0x3f));
    return 5;
  }
  out[0] = (char)(0xfc | ((c >> 30) & 0x1)); out[1] = (char)(0x80 | ((c >> 24) & 0x3f));
  out[2] = (char)(0x80 | ((c >> 18) & 0x3f)); out[3] = (char)(0x80 | ((c >> 12) & 0x3f));
  out[4] = (char)(0x80 | ((c >> 6) & 0x3f)); out[5] = (char)(0x80 | (c & 0x3f));
  return 6;
}

static int hexval(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/*
 * bash's tescape: decodes the escape after a backslash at p. Writes 1..6
 * bytes to out (*outlen). Returns how many bytes of p were used; 0 means "not
 * an escape: print the backslash" (out holds '\\'). in_b: inside %b, where
 * \0NNN takes three more digits, \c sets *stop, and \' \? keep the backslash.
 */
static int pf_escape(pf_state *st, const char *p, char *out, int *outlen, bool in_b,
                     bool *stop) {
  const char *s = p;
  int c = (unsigned char)*s++;
  *outlen = 1;
  switch (c) {
  case 'e': case 'E': out[0] = '\033'; break;
  case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': {
    int v = c - '0';
    int more = 2 + (v == 0 && in_b);
    while (more-- > 0 && *s >= '0' && *s <= '7') v = v * 8 + (*s++ - '0');
    out[0] = (char)(v & 0xff);
    break;
  }
  case 'x': {
    int v = 0, n = 0;
    while (n < 2 && hexval((unsigned char)*s) >= 0) {
      v = v * 16 + hexval((unsigned char)*s++);
      n++;
    }
    if (n == 0) {
      cmd_errorf(st->ctx, "missing hex digit for \\x");
      out[0] = '\\';
      return 0;
    }
    out[0] = (char)v;
    break;
  }
  case 'u': case 'U': {
    int max = c == 'u' ? 4 : 8, n = 0;
    uint32_t v = 0;
    while (n < max && hexval((unsigned char)*s) >= 0) {
      v = v * 16 + (uint32_t)hexval((unsigned char)*s++);
      n++;
    }
    if (n == 0) {
      cmd_errorf(st->ctx, "missing unicode digit for \\%c", c);
      out[0] = '\\';
      return 0;
    }
    *outlen = pf_u32(v & 0x7fffffff, out);
    break;
  }
  case '\\': out[0] = '\\'; break;
  case '"': case '\'': case '?':
    if (in_b) {
      out[0] = '\\';
      return 0;
    }
    out[0] = (char)c;
    break;
  case 'c':
    if (in_b) {
      *stop = true;
      break;
    }
    out[0] = '\\';
    return 0;
  default: {
    int byte = cmd_c_unescape(c); /* \a \b \f \n \r \t \v */
    if (byte < 0) {
      out[0] = '\\';
      return 0;
    }
    out[0] = (char)byte;
    break;
  }
  }
  return (int)(s - p);
}

/* %b: expands the escapes of arg into a malloc'd buffer; *stop on \c. */
static char *pf_bexpand(pf_state *st, const char *arg, size_t *len, bool *stop) {
  size_t n = strlen(arg);
  char *r = malloc(n * 6 + 1), *o = r;
  if (!r) return NULL;
  for (const char *s = arg; *s;) {
    char c = *s++;
    if (c != '\\' || *s == '\0') {
      *o++ = c;
      continue;
    }
    char buf[8];
    int blen;
    bool sawc = false;
    int used = pf_escape(st, s, buf, &blen, true, &sawc);
    s += used;
    if (sawc) {
      *stop = true;
      break;
    }
    memcpy(o, buf, (size_t)blen);
    o += blen;
  }
  *len = (size_t)(o - r);
  return r;
}

/* ---- quoting (%q) ------------------------------------------------------------------ */

/* Length of a printable multibyte character at s, or 0. */
static int pf_mb_printable(const unsigned char *s, size_t avail) {
  uint32_t wc;
  int l = cmd_utf8_decode(s, avail, &wc);
  if (l <= 1) return 0;
  locale_t loc = cmd_utf8_locale();
  return loc && iswprint_l((wint_t)wc, loc) ? l : 0;
}

static bool pf_should_ansi_quote(const char *str) {
  const unsigned char *s = (const unsigned char *)str;
  size_t n = strlen(str);
  for (size_t i = 0; i < n;) {
    if (s[i] < 0x80) {
      if (s[i] < 0x20 || s[i] == 0x7f) return true;
      i++;
      continue;
    }
    int l = pf_mb_printable(s + i, n - i);
    if (!l) return true;
    i += (size_t)l;
  }
  return false;
}

static char *pf_ansic_quote(const char *str) {
  const unsigned char *s = (const unsigned char *)str;
  size_t n = strlen(str);
  char *r = malloc(n * 4 + 4), *o = r;
  if (!r) return NULL;
  *o++ = '$';
  *o++ = '\'';
  for (size_t i = 0; i < n;) {
    unsigned c = s[i];
    const char *control = cmd_c_escape(c); /* \a \b \f \n \r \t \v */
    char e = control ? control[1] : 0;
    if (c == 033) e = 'E';
    else if (c == '\\' || c == '\'') e = (char)c;
    if (e) {
      *o++ = '\\';
      *o++ = e;
      i++;
      continue;
    }
    if (c >= 0x80) {
      int l = pf_mb_printable(s + i, n - i);
      if (l) {
        memcpy(o, s + i, (size_t)l);
        o += l;
        i += (size_t)l;
        continue;
      }
    } else if (c >= 0x20 && c != 0x7f) {
      *o++ = (char)c;
      i++;
      continue;
    }
    o += sprintf(o, "\\%03o", c);
    i++;
  }
  *o++ = '\'';
  *o = 0;
  return r;
}

static char *pf_backslash_quote(const char *str) {
  size_t n = strlen(str);
  char *r = malloc(n * 2 + 1), *o = r;
  if (!r) return NULL;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)str[i];
    bool bs = c < 0x80 && strchr("\t\n !\"$&'()*,;<>?[\\]^`{|}", c) && c;
    if (!bs && c == '#' && i == 0) bs = true;
    if (!bs && c == '~' && (i == 0 || str[i - 1] == ':' || str[i - 1] == '=')) bs = true;
    if (bs) *o++ = '\\';
    *o++ = (char)c;
  }
  *o = 0;
  return r;
}

static char *pf_quote(const char *arg) {
  if (!*arg) return strdup("''");
  if (pf_should_ansi_quote(arg)) return pf_ansic_quote(arg);
  return pf_backslash_quote(arg);
}

/* ---- arguments ------------------------------------------------------------------------ */

static const char *pf_getstr(pf_state *st) {
  return st->ai < st->nargs ? st->args[st->ai++] : "";
}

/* The code point of the character after a leading quote (bash asciicode). */
static intmax_t pf_asciicode(const char *w) {
  uint32_t wc;
  size_t n = strlen(w + 1);
  if (n == 0) return 0;
  int l = cmd_utf8_decode((const unsigned char *)w + 1, n, &wc);
  if (l > 0) return (intmax_t)wc;
  return (unsigned char)w[1];
}

static void pf_invalid(pf_state *st, const char *w) {
  cmd_errorf(st->ctx, "%s: invalid number", w);
  st->conversion_error = true;
}

/* An integer argument with junk: bash names the base its prefix chose
 * ("08: invalid octal number", "0xg: invalid hex number"). */
static void pf_int_invalid(pf_state *st, const char *w) {
  const char *p = w;
  while (*p == ' ' || *p == '\t' || *p == '\n') p++;
  if (*p == '-' || *p == '+') p++;
  const char *kind = p[0] != '0' ? "" : (p[1] == 'x' || p[1] == 'X') ? "hex " : "octal ";
  cmd_errorf(st->ctx, "%s: invalid %snumber", w, kind);
  st->conversion_error = true;
}

static void pf_erange(pf_state *st, const char *w) {
  cmd_errorf(st->ctx, "warning: %s: %s", w, cmd_strerror(ERANGE));
}

static intmax_t pf_getintmax(pf_state *st) {
  if (st->ai >= st->nargs) return 0;
  const char *w = st->args[st->ai++];
  if (w[0] == '\'' || w[0] == '"') return pf_asciicode(w);
  char *ep;
  errno = 0;
  intmax_t v = strtoimax(w, &ep, 0);
  if (*ep) pf_int_invalid(st, w);
  else if (errno == ERANGE) pf_erange(st, w);
  return v;
}

static uintmax_t pf_getuintmax(pf_state *st) {
  if (st->ai >= st->nargs) return 0;
  const char *w = st->args[st->ai++];
  if (w[0] == '\'' || w[0] == '"') return (uintmax_t)pf_asciicode(w);
  char *ep;
  errno = 0;
  uintmax_t v = strtoumax(w, &ep, 0);
  if (*ep) pf_int_invalid(st, w);
  else if (errno == ERANGE) pf_erange(st, w);
  return v;
}

static long double pf_getfloat(pf_state *st) {
  if (st->ai >= st->nargs) return 0;
  const char *w = st->args[st->ai++];
  if (w[0] == '\'' || w[0] == '"') return (long double)pf_asciicode(w);
  char *ep;
  errno = 0;
  locale_t loc = cmd_utf8_locale();
  long double v = loc ? strtold_l(w, &ep, loc) : strtold(w, &ep);
  if (*ep) pf_invalid(st, w);
  else if (errno == ERANGE) pf_erange(st, w);
  return v;
}

/* A '*' width or precision: the next argument as an int (clamped). */
static int pf_getint(pf_state *st) {
  const char *w = st->ai < st->nargs ? st->args[st->ai] : NULL;
  intmax_t v = pf_getintmax(st);
  if (!w) return (int)v;
  if (v > INT_MAX) {
    pf_erange(st, w);
    v = INT_MAX;
  } else if (v < INT_MIN) {
    pf_erange(st, w);
    v = INT_MIN;
  }
  return (int)v;
}

/* ---- conversions ------------------------------------------------------------------------ */

/* One parsed conversion specification. */
typedef struct pf_spec {
  char flags[8];       /* the flags as written (deduplicated) */
  bool ljust;          /* '-' flag or a negative '*' width */
  bool has_width;      /* a width was given (digits or '*') */
  int width;           /* its value, >= 0 */
  bool has_prec;       /* a precision was given */
  int prec;            /* its value (< 0: treated as absent) */
} pf_spec;

static int pf_too_large(pf_state *st) {
  cmd_errorf(st->ctx, "output too large for this sandbox");
  st->out_err = -EFBIG;
  return -1;
}

/* printstr: a byte string with width (spaces) and precision (bytes). */
static int pf_printstr(pf_state *st, const pf_spec *sp, const char *s, size_t len) {
  size_t nc = len;
  if (sp->has_prec && sp->prec >= 0 && (size_t)sp->prec < len) nc = (size_t)sp->prec;
  size_t width = sp->has_width ? (size_t)sp->width : 0;
  if (width > st->ctx->max_string) return pf_too_large(st);
  size_t pad = width > nc ? width - nc : 0;
  if (!sp->ljust) pf_pad(st, pad);
  pf_put(st, s, nc);
  if (sp->ljust) pf_pad(st, pad);
  return 0;
}

/* Formats one number through snprintf in the C.UTF-8 locale. `len` is the
 * length modifier ("j" or "L") and conv the conversion letter. */
static int pf_number(pf_state *st, const pf_spec *sp, const char *len, char conv, ...) {
  char fmt[48];
  int k = snprintf(fmt, sizeof fmt, "%%%s%s", sp->flags, sp->ljust ? "-" : "");
  if (sp->has_width) k += snprintf(fmt + k, sizeof fmt - (size_t)k, "%d", sp->width);
  if (sp->has_prec && sp->prec >= 0)
    k += snprintf(fmt + k, sizeof fmt - (size_t)k, ".%d", sp->prec);
  snprintf(fmt + k, sizeof fmt - (size_t)k, "%s%c", len, conv);
  if ((uint64_t)(sp->has_width ? sp->width : 0) > st->ctx->max_string ||
      (uint64_t)(sp->has_prec && sp->prec > 0 ? sp->prec : 0) > st->ctx->max_string)
    return pf_too_large(st);
  locale_t loc = cmd_utf8_locale(), old = (locale_t)0;
  if (loc) old = uselocale(loc);
  va_list ap, ap2;
  va_start(ap, conv);
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  int rc = 0;
  if (n < 0 || (uint64_t)n > st->ctx->max_string) {
    rc = pf_too_large(st);
  } else {
    char small[256];
    char *buf = (size_t)n < sizeof small ? small : malloc((size_t)n + 1);
    if (!buf) {
      rc = pf_too_large(st);
    } else {
      vsnprintf(buf, (size_t)n + 1, fmt, ap2);
      pf_put(st, buf, (size_t)n);
      if (buf != small) free(buf);
    }
  }
  va_end(ap2);
  va_end(ap);
  if (loc) uselocale(old);
  return rc;
}

static int pf_time(pf_state *st, const pf_spec *sp, const char *tfmt) {
  intmax_t arg = st->ai < st->nargs ? pf_getintmax(st) : -1;
  int64_t secs = (arg == -1 || arg == -2) ? st->ctx->now : (int64_t)arg;
  struct tm tm;
  if (cmd_localtime(st->ctx, secs, &tm) < 0) cmd_localtime(st->ctx, 0, &tm);
  char buf[128];
  size_t n = 0;
  locale_t loc = cmd_utf8_locale();
  const char *f = *tfmt ? tfmt : "%X";
  if (loc) n = strftime_l(buf, sizeof buf, f, &tm, loc);
  else n = strftime(buf, sizeof buf, f, &tm);
  if (n == 0) buf[0] = 0;
  return pf_printstr(st, sp, buf, strlen(buf));
}

static bool pf_valid_name(const char *s) {
  if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_')) return false;
  for (s++; *s; s++)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_' ||
          (*s >= '0' && *s <= '9')))
      return false;
  return true;
}

static int pf_setvar(pf_state *st, const char *name, const char *value) {
  if (!st->ctx->io->setvar || st->ctx->io->setvar(st->ctx->io_ud, name, value) < 0) {
    cmd_errorf(st->ctx, "`%s': not a valid identifier", name);
    return 1;
  }
  return 0;
}

/* One pass over the format. Returns 0 to go on, 1 to stop with failure,
 * 2 to stop with the current status (after \c in %b). */
static int pf_pass(pf_state *st, const char *format) {
  st->tw = 0;
  for (const char *fmt = format; *fmt; fmt++) {
    if (*fmt == '\\') {
      char buf[8];
      int blen;
      bool stop = false;
      fmt++;
      int used = pf_escape(st, fmt, buf, &blen, false, &stop);
      pf_put(st, buf, (size_t)blen);
      fmt += used;
      fmt--; /* the loop increments; after "\q" (used 0) q prints next */
      continue;
    }
    if (*fmt != '%') {
      pf_putc(st, *fmt);
      continue;
    }
    const char *start = fmt++;
    if (*fmt == '%') {
      pf_putc(st, '%');
      continue;
    }
    pf_spec sp = {0};
    size_t nf = 0;
    for (; *fmt && strchr(PF_SKIP1, *fmt); fmt++) {
      if (*fmt == '-') sp.ljust = true;
      else if (!strchr(sp.flags, *fmt) && nf < sizeof sp.flags - 1) sp.flags[nf++] = *fmt;
    }
    if (*fmt == '*') {
      fmt++;
      sp.has_width = true;
      int w = pf_getint(st);
      if (w < 0) {
        sp.ljust = true;
        w = w == INT_MIN ? INT_MAX : -w;
      }
      sp.width = w;
    } else if (*fmt >= '0' && *fmt <= '9') {
      sp.has_width = true;
      long w = 0;
      while (*fmt >= '0' && *fmt <= '9') {
        w = w * 10 + (*fmt++ - '0');
        if (w > INT_MAX) w = INT_MAX;
      }
      sp.width = (int)w;
    }
    if (*fmt == '.') {
      fmt++;
      sp.has_prec = true;
      if (*fmt == '*') {
        fmt++;
        sp.prec = pf_getint(st);
      } else {
        bool neg = false;
        if (*fmt == '-') {
          neg = true;
          fmt++;
        }
        long p = 0;
        while (*fmt >= '0' && *fmt <= '9') {
          p = p * 10 + (*fmt++ - '0');
          if (p > INT_MAX) p = INT_MAX;
        }
        sp.prec = neg ? -1 : (int)p;
      }
    }
    while (*fmt && strchr(PF_LENMODS, *fmt)) fmt++;
    if (*fmt == 0) {
      cmd_errorf(st->ctx, "`%s': missing format character", start);
      return 1;
    }
    char conv = *fmt;
    int r = 0;
    switch (conv) {
    case 'c': {
      /* The first byte (a NUL without argument); no precision. */
      const char *a = st->ai < st->nargs ? st->args[st->ai++] : "";
      pf_spec cs = sp;
      cs.has_prec = false;
      r = pf_printstr(st, &cs, a, 1);
      break;
    }
    case 's': {
      const char *a = pf_getstr(st);
      r = pf_printstr(st, &sp, a, strlen(a));
      break;
    }
    case '(': {
      /* %(fmt)T: the format runs to the matching ')'. */
      const char *p = fmt + 1;
      int depth = 1;
      const char *q = p;
      for (; *q; q++) {
        if (*q == '(') depth++;
        else if (*q == ')' && --depth == 0) break;
      }
      if (*q != ')' || q[1] != 'T') {
        char bad = *q ? q[1] : 0;
        cmd_errorf(st->ctx, "warning: `%c': invalid time format specification", bad);
        fmt = start;
        pf_putc(st, '%');
        continue;
      }
      size_t tl = (size_t)(q - p);
      char *tf = malloc(tl + 1);
      if (!tf) return 1;
      memcpy(tf, p, tl);
      tf[tl] = 0;
      r = pf_time(st, &sp, tf);
      free(tf);
      fmt = q + 1;
      break;
    }
    case 'n': {
      const char *var = pf_getstr(st);
      if (*var) {
        if (!pf_valid_name(var)) {
          cmd_errorf(st->ctx, "`%s': not a valid identifier", var);
          return 1;
        }
        char num[32];
        snprintf(num, sizeof num, "%ju", st->tw);
        if (pf_setvar(st, var, num)) return 1;
      }
      break;
    }
    case 'b': {
      bool stop = false;
      size_t len;
      char *x = pf_bexpand(st, pf_getstr(st), &len, &stop);
      if (!x) return 1;
      r = pf_printstr(st, &sp, x, len);
      free(x);
      if (stop) return 2;
      break;
    }
    case 'q': case 'Q': {
      const char *a = pf_getstr(st);
      char *tmp = NULL;
      pf_spec qs = sp;
      if (conv == 'Q' && sp.has_prec && sp.prec >= 0 && (size_t)sp.prec < strlen(a)) {
        tmp = strndup(a, (size_t)sp.prec);
        if (!tmp) return 1;
        a = tmp;
        qs.has_prec = false;
      }
      char *x = pf_quote(a);
      free(tmp);
      if (!x) return 1;
      r = pf_printstr(st, &qs, x, strlen(x));
      free(x);
      break;
    }
    case 'd': case 'i': {
      intmax_t v = pf_getintmax(st);
      r = pf_number(st, &sp, "j", conv, v);
      break;
    }
    case 'o': case 'u': case 'x': case 'X': {
      uintmax_t v = pf_getuintmax(st);
      r = pf_number(st, &sp, "j", conv, v);
      break;
    }
    case 'e': case 'E': case 'f': case 'F': case 'g': case 'G': case 'a': case 'A': {
      long double v = pf_getfloat(st);
      r = pf_number(st, &sp, "L", conv, v);
      break;
    }
    default:
      cmd_errorf(st->ctx, "`%c': invalid format character", conv);
      return 1;
    }
    if (r < 0 || st->out_err) return 1;
  }
  return 0;
}

static int pf_usage(cmd_ctx *ctx) {
  cmd_err_raw(ctx, "printf: usage: printf [-v var] format [arguments]\n");
  return 2;
}

int cmd_printf_main(cmd_ctx *ctx, int argc, char **argv) {
  const char *var = NULL;
  int i = 1;
  /* bash's option parsing: only -v, "--" ends options, "-" is a format. */
  for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
    if (strcmp(argv[i], "--") == 0) {
      i++;
      break;
    }
    if (strcmp(argv[i], "--help") == 0) {
      cmd_outs(ctx, "printf: printf [-v var] format [arguments]\n"
                    "    Formats and prints ARGUMENTS under control of the FORMAT.\n");
      return 0;
    }
    if (strcmp(argv[i], "--version") == 0) return cmd_print_version(ctx);
    if (argv[i][1] == 'v') {
      if (argv[i][2]) {
        var = argv[i] + 2;
      } else if (i + 1 < argc) {
        var = argv[++i];
      } else {
        cmd_errorf(ctx, "-v: option requires an argument");
        return pf_usage(ctx);
      }
      continue;
    }
    cmd_errorf(ctx, "%.2s: invalid option", argv[i]);
    return pf_usage(ctx);
  }
  if (var && !pf_valid_name(var) && !strchr(var, '[')) {
    cmd_errorf(ctx, "`%s': not a valid identifier", var);
    return 2;
  }
  if (i >= argc) return pf_usage(ctx);
  pf_state st = {0};
  st.ctx = ctx;
  st.to_var = var != NULL;
  const char *format = argv[i];
  st.args = argv + i + 1;
  st.nargs = argc - i - 1;
  int status = 0;
  if (*format) {
    for (;;) {
      int first = st.ai;
      int r = pf_pass(&st, format);
      if (r == 1) status = 1;
      if (r != 0) break;
      if (cmd_poll(ctx)) {
        status = 1;
        break;
      }
      if (st.ai >= st.nargs || st.ai == first) break;
    }
  }
  if (st.conversion_error) status = 1;
  if (var) {
    if (!st.vbuf) st.vbuf = strdup("");
    else st.vbuf[st.vlen] = 0;
    if (!st.vbuf || pf_setvar(&st, var, st.vbuf)) status = status ? status : 1;
    free(st.vbuf);
  }
  if (st.out_err == -EFBIG) return 1;
  if (st.out_err || ctx->out_err) return cmd_write_error(ctx, st.out_err ? st.out_err : ctx->out_err);
  return status;
}
