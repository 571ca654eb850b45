/*
 * od - dump files in octal and other formats.
 *
 *   Usage: od [OPTION]... [FILE]...
 *   -A, --address-radix=RADIX  d, o, x or n      -j, --skip-bytes=BYTES
 *   -N, --read-bytes=BYTES     -t, --format=TYPE  -v, --output-duplicates
 *   -w[BYTES], --width[=BYTES] (32 without BYTES) --endian={big|little}
 *   -S BYTES, --strings[=BYTES] (NUL-terminated printable runs, GNU's dump_strings)
 *   TYPE: a, c, d[SIZE], f[SIZE], o[SIZE], u[SIZE], x[SIZE], each with an
 *   optional z (printable trailer); SIZE is 1 2 4 8 or C S I L (integers),
 *   4 8 16 or F D L (floats). Shorthands: -a -b -c -d -D -e -f -F -h -H -i
 *   -I -l -L -o -O -s -x -X.
 *
 * Design: GNU's layout exactly: every TYPE gets a field width (3 for o1, 6
 * for d2, 15/24/29 for floats...), the line width is the widest TYPE's
 * (width + 1) x fields, and the difference is spread over the fields like
 * GNU's pad_width, so several -t types line up column by column. Equal
 * consecutive blocks print as one "*" unless -v. Floats print the shortest
 * %g that reads back to the same value (gnulib ftoastr's rule). Files are
 * one combined stream; -j skips into it (seeking store files), -N limits it.
 */
#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/lib/gnu.h"

CMD_DEFINE("od", cmd_od_main);

static const char od_usage[] =
    "Usage: od [OPTION]... [FILE]...\n"
    "Write an unambiguous representation, octal bytes by default,\n"
    "of FILE to standard output.  With more than one FILE argument,\n"
    "concatenate them in the listed order to form the input.\n"
    "\n"
    "With no FILE, or when FILE is -, read standard input.\n"
    "\n"
    "  -A, --address-radix=RADIX   output format for file offsets; RADIX is one\n"
    "                                of [doxn], for Decimal, Octal, Hex or None\n"
    "      --endian={big|little}   swap input bytes according the specified order\n"
    "  -j, --skip-bytes=BYTES      skip BYTES input bytes first\n"
    "  -N, --read-bytes=BYTES      limit dump to BYTES input bytes\n"
    "  -S BYTES, --strings[=BYTES]  show only NUL terminated strings\n"
    "                                of at least BYTES (3) printable characters\n"
    "  -t, --format=TYPE           select output format or formats\n"
    "  -v, --output-duplicates     do not use * to mark line suppression\n"
    "  -w[BYTES], --width[=BYTES]  output BYTES bytes per output line;\n"
    "                                32 is implied when BYTES is not specified\n"
    CMD_HELP_VERSION_LINES;

enum od_kind { K_SIGNED, K_UNSIGNED, K_OCTAL, K_HEX, K_FLOAT, K_NAMED, K_CHAR };

typedef struct od_spec {
  enum od_kind kind;  /* how to print */
  int size;           /* bytes per element */
  int width;          /* field width */
  int pad;            /* padding spread over a full line */
  bool trailer;       /* z: ">...<" */
} od_spec;

#define OD_MAX_SPECS 64

typedef struct od_state {
  cmd_ctx *ctx;
  od_spec spec[OD_MAX_SPECS]; /* the output types */
  int nspec;
  int radix;              /* 'o' 'd' 'x' 'n' */
  int addr_pad;           /* width of the address column */
  size_t per_block;       /* bytes per line */
  bool big_endian;        /* --endian=big */
  bool dedup;             /* not -v */
  /* Input: the files as one stream. */
  char **files;
  int nfiles, fi;         /* list and current index */
  int fd;                 /* current descriptor, -1 none */
  int status;             /* 1 after a file error */
  bool opened;            /* some operand could be opened (a directory counts) */
} od_state;

static const char *const od_names[] = {
    "nul", "soh", "stx", "etx", "eot", "enq", "ack", "bel", "bs", "ht", "nl",
    "vt",  "ff",  "cr",  "so",  "si",  "dle", "dc1", "dc2", "dc3", "dc4", "nak",
    "syn", "etb", "can", "em",  "sub", "esc", "fs",  "gs",  "rs",  "us",  "sp"};

static int od_int_width(enum od_kind k, int size) {
  static const int d[] = {0, 4, 6, 0, 11, 0, 0, 0, 20};
  static const int u[] = {0, 3, 5, 0, 10, 0, 0, 0, 20};
  static const int o[] = {0, 3, 6, 0, 11, 0, 0, 0, 22};
  static const int x[] = {0, 2, 4, 0, 8, 0, 0, 0, 16};
  switch (k) {
  case K_SIGNED: return d[size];
  case K_UNSIGNED: return u[size];
  case K_OCTAL: return o[size];
  case K_HEX: return x[size];
  default: return 3;
  }
}

/* The size after an integer or float type in the -t string `all`: one of
 * `letters` (sizes[i] bytes for letters[i]), a decimal number among those
 * sizes, or `dflt` when neither follows; *s moves past what was read. -1
 * after GNU's message for a number of bytes no type of that `what` has. */
static int od_type_size(cmd_ctx *ctx, const char **s, const char *all, const char *letters,
                        const int *sizes, int dflt, const char *what) {
  const char *l = **s ? strchr(letters, **s) : NULL;
  if (l) {
    (*s)++;
    return sizes[l - letters];
  }
  if (**s < '0' || **s > '9') return dflt;
  char *end;
  unsigned long v = strtoul(*s, &end, 10);
  for (size_t i = 0; letters[i]; i++)
    if (v == (unsigned long)sizes[i]) {
      *s = end;
      return (int)v;
    }
  cmd_errorf(ctx, "invalid type string %s;\nthis system doesn't provide a %lu-byte %s type",
             cmd_gnu_quote(ctx, all), v, what);
  return -1;
}

/* Parses one -t TYPE string (may hold several types). */
static int od_add_types(od_state *st, const char *s) {
  cmd_ctx *ctx = st->ctx;
  const char *all = s;
  while (*s) {
    if (st->nspec >= OD_MAX_SPECS) {
      cmd_errorf(ctx, "too many output types");
      return -1;
    }
    od_spec *sp = &st->spec[st->nspec];
    memset(sp, 0, sizeof *sp);
    char c = *s++;
    switch (c) {
    case 'a': sp->kind = K_NAMED; sp->size = 1; sp->width = 3; break;
    case 'c': sp->kind = K_CHAR; sp->size = 1; sp->width = 3; break;
    case 'd': case 'o': case 'u': case 'x': {
      sp->kind = c == 'd' ? K_SIGNED : c == 'o' ? K_OCTAL : c == 'u' ? K_UNSIGNED : K_HEX;
      static const int int_sizes[] = {1, 2, 4, 8};
      int size = od_type_size(ctx, &s, all, "CSIL", int_sizes, 4, "integral");
      if (size < 0) return -1;
      sp->size = size;
      sp->width = od_int_width(sp->kind, size);
      break;
    }
    case 'f': {
      static const int float_sizes[] = {4, 8, 16};
      int size = od_type_size(ctx, &s, all, "FDL", float_sizes, 8, "floating point");
      if (size < 0) return -1;
      sp->kind = K_FLOAT;
      sp->size = size;
      sp->width = size == 4 ? 15 : size == 8 ? 24 : 29;
      break;
    }
    default:
      cmd_errorf(ctx, "invalid character '%c' in type string %s", c, cmd_gnu_quote(ctx, all));
      return -1;
    }
    if (*s == 'z') {
      sp->trailer = true;
      s++;
    }
    st->nspec++;
  }
  return 0;
}

/* ---- input ------------------------------------------------------------------ */

/* Opens the next file; false when none is left. */
static bool od_next_file(od_state *st) {
  while (st->fi < st->nfiles) {
    const char *name = st->files[st->fi++];
    int fd = cmd_open_input(st->ctx, name);
    if (fd < 0) {
      /* GNU fopen()s a directory and reports the failed read the same way */
      if (fd == -EISDIR) st->opened = true;
      cmd_gnu_perror(st->ctx, name, fd);
      st->status = 1;
      continue;
    }
    st->opened = true;
    st->fd = fd;
    return true;
  }
  return false;
}

/* Reads up to n bytes from the combined stream; returns the count. */
static size_t od_read(od_state *st, unsigned char *buf, size_t n) {
  size_t got = 0;
  while (got < n) {
    if (st->fd < 0 && !od_next_file(st)) break;
    ssize_t r = st->ctx->io->read(st->ctx->io_ud, st->fd, buf + got, n - got);
    if (r == -EINTR) continue;
    if (r <= 0) {
      if (r < 0) {
        cmd_errorf(st->ctx, "%s: read error: %s",
                   cmd_gnu_quotef(st->ctx, st->files[st->fi - 1]), cmd_strerror((int)r));
        st->status = 1;
      }
      cmd_close_input(st->ctx, st->fd);
      st->fd = -1;
      continue;
    }
    got += (size_t)r;
  }
  return got;
}

/* Skips n bytes of the combined stream; false if it ends first. */
static bool od_skip(od_state *st, uintmax_t n, unsigned char *buf, size_t bufsz) {
  while (n > 0) {
    if (st->fd < 0 && !od_next_file(st)) return false;
    /* A seekable file: jump, but not past its end. */
    int64_t cur = st->ctx->io->lseek(st->ctx->io_ud, st->fd, 0, SEEK_CUR);
    int64_t end = cur >= 0 ? st->ctx->io->lseek(st->ctx->io_ud, st->fd, 0, SEEK_END) : -1;
    if (cur >= 0 && end >= 0) {
      uintmax_t left = end > cur ? (uintmax_t)(end - cur) : 0;
      if (left > n) {
        st->ctx->io->lseek(st->ctx->io_ud, st->fd, cur + (int64_t)n, SEEK_SET);
        return true;
      }
      n -= left;
      cmd_close_input(st->ctx, st->fd);
      st->fd = -1;
      continue;
    }
    size_t want = n < bufsz ? (size_t)n : bufsz;
    ssize_t r = st->ctx->io->read(st->ctx->io_ud, st->fd, buf, want);
    if (r <= 0) {
      cmd_close_input(st->ctx, st->fd);
      st->fd = -1;
      continue;
    }
    n -= (uintmax_t)r;
  }
  return true;
}

/* ---- -S: strings ---------------------------------------------------------------- */

/* GNU's dump_strings: every run of at least `min` printable ASCII bytes that
 * ends with a NUL byte, after its offset (none with -A n) and a space. A run
 * is held until its NUL shows up; runs longer than the string limit fail
 * with "memory exhausted" rather than growing without bound. Returns 0, or 1
 * after an error message. */
static void od_address(od_state *st, uintmax_t off, char term);
static int od_strings(od_state *st, uintmax_t off, uintmax_t left, uintmax_t min) {
  cmd_ctx *ctx = st->ctx;
  size_t cap_limit = ctx->max_string ? (size_t)ctx->max_string : (size_t)1 << 26;
  char *run = NULL;
  size_t len = 0, cap = 0;
  unsigned char chunk[4096];
  int rc = 0;
  while (left > 0 && !ctx->out_err) {
    size_t want = left < sizeof chunk ? (size_t)left : sizeof chunk;
    size_t n = od_read(st, chunk, want);
    if (n == 0) break;
    for (size_t i = 0; i < n; i++) {
      unsigned char c = chunk[i];
      if (c >= 0x20 && c < 0x7f) {
        if (len == cap) {
          size_t nc = cap ? cap * 2 : 256;
          if (nc > cap_limit) nc = cap_limit;
          char *nr = nc > cap ? realloc(run, nc) : NULL;
          if (!nr) {
            cmd_errorf(ctx, "memory exhausted");
            rc = 1;
            goto out;
          }
          run = nr;
          cap = nc;
        }
        run[len++] = (char)c;
        continue;
      }
      if (c == 0 && len >= min) {
        if (st->radix != 'n') od_address(st, off + i - len, ' ');
        cmd_out(ctx, run, len);
        cmd_outc(ctx, '\n');
      }
      len = 0;
    }
    off += n;
    left -= n;
    if (cmd_poll(ctx)) break;
    if (n < want) break;
  }
out:
  free(run);
  return rc;
}

/* ---- output -------------------------------------------------------------------- */

static void od_address(od_state *st, uintmax_t off, char term) {
  switch (st->radix) {
  case 'o': cmd_outf(st->ctx, "%07jo", off); break;
  case 'd': cmd_outf(st->ctx, "%07ju", off); break;
  case 'x': cmd_outf(st->ctx, "%06jx", off); break;
  default: break;
  }
  if (term) cmd_outc(st->ctx, term);
}

static uint64_t od_load(const od_state *st, const unsigned char *p, int size) {
  uint64_t v = 0;
  if (st->big_endian)
    for (int i = 0; i < size; i++) v = (v << 8) | p[i];
  else
    for (int i = size - 1; i >= 0; i--) v = (v << 8) | p[i];
  return v;
}

/* Shortest %g representation that reads back to the same value. */
static void od_float(char *buf, size_t bufsz, long double x, int size) {
  int dig = size == 4 ? FLT_DIG : size == 8 ? DBL_DIG : LDBL_DIG;
  int max = size == 4 ? 9 : size == 8 ? 17 : 21;
  long double ax = x < 0 ? -x : x;
  long double minn = size == 4 ? FLT_MIN : size == 8 ? DBL_MIN : LDBL_MIN;
  for (int prec = ax < minn ? 1 : dig;; prec++) {
    snprintf(buf, bufsz, "%.*Lg", prec, x);
    if (prec >= max) return;
    if (size == 4) {
      if (strtof(buf, NULL) == (float)x) return;
    } else if (size == 8) {
      if (strtod(buf, NULL) == (double)x) return;
    } else if (strtold(buf, NULL) == x) {
      return;
    }
    if (x != x) return; /* nan */
  }
}

static void od_field(od_state *st, const od_spec *sp, const unsigned char *p, int w) {
  cmd_ctx *ctx = st->ctx;
  char buf[64];
  switch (sp->kind) {
  case K_NAMED: {
    unsigned c = *p & 0x7f;
    const char *s = c < 33 ? od_names[c] : c == 127 ? "del" : NULL;
    if (s) cmd_outf(ctx, "%*s", w, s);
    else cmd_outf(ctx, "%*c", w, (char)c);
    return;
  }
  case K_CHAR: {
    unsigned c = *p;
    const char *s = c == 0 ? "\\0" : cmd_c_escape(c);
    if (s) cmd_outf(ctx, "%*s", w, s);
    else if (c >= 0x20 && c < 0x7f) cmd_outf(ctx, "%*c", w, (char)c);
    else cmd_outf(ctx, "%*.3o", w, c);
    return;
  }
  case K_FLOAT: {
    long double x;
    if (sp->size == 4) {
      uint32_t v = (uint32_t)od_load(st, p, 4);
      float f;
      memcpy(&f, &v, 4);
      x = f;
    } else if (sp->size == 8) {
      uint64_t v = od_load(st, p, 8);
      double d;
      memcpy(&d, &v, 8);
      x = d;
    } else {
      unsigned char b[16];
      for (int i = 0; i < 16; i++) b[i] = st->big_endian ? p[15 - i] : p[i];
      memset(&x, 0, sizeof x);
      memcpy(&x, b, sizeof x < 16 ? sizeof x : 16);
    }
    od_float(buf, sizeof buf, x, sp->size);
    cmd_outf(ctx, "%*s", w, buf);
    return;
  }
  default: {
    uint64_t v = od_load(st, p, sp->size);
    switch (sp->kind) {
    case K_SIGNED: {
      int64_t s;
      if (sp->size == 1) s = (int8_t)v;
      else if (sp->size == 2) s = (int16_t)v;
      else if (sp->size == 4) s = (int32_t)v;
      else s = (int64_t)v;
      cmd_outf(ctx, "%*jd", w, (intmax_t)s);
      break;
    }
    case K_UNSIGNED: cmd_outf(ctx, "%*ju", w, (uintmax_t)v); break;
    case K_OCTAL: cmd_outf(ctx, "%*.*jo", w, sp->width, (uintmax_t)v); break;
    default: cmd_outf(ctx, "%*.*jx", w, sp->width, (uintmax_t)v); break;
    }
  }
  }
}

static void od_line(od_state *st, uintmax_t off, const unsigned char *block, size_t n) {
  cmd_ctx *ctx = st->ctx;
  for (int i = 0; i < st->nspec; i++) {
    const od_spec *sp = &st->spec[i];
    size_t fields = st->per_block / (size_t)sp->size;
    size_t blank = (st->per_block - n) / (size_t)sp->size;
    if (i == 0) od_address(st, off, 0);
    else cmd_outf(ctx, "%*s", st->addr_pad, "");
    int pad_remaining = sp->pad;
    const unsigned char *p = block;
    for (size_t k = fields; blank < k; k--) {
      int next_pad = (int)((size_t)sp->pad * (k - 1) / fields);
      od_field(st, sp, p, pad_remaining - next_pad + sp->width);
      pad_remaining = next_pad;
      p += sp->size;
    }
    if (sp->trailer) {
      int pw = (int)((size_t)sp->pad * blank / fields);
      cmd_outf(ctx, "%*s", (int)blank * sp->width + pw, "");
      cmd_outs(ctx, "  >");
      for (size_t k = 0; k < n; k++)
        cmd_outc(ctx, block[k] >= 0x20 && block[k] < 0x7f ? block[k] : '.');
      cmd_outc(ctx, '<');
    }
    cmd_outc(ctx, '\n');
  }
}

static int od_size_arg(cmd_ctx *ctx, const char *arg, uintmax_t *v) {
  /* GNU od: decimal, 0x hex or 0 octal, with multiplier suffixes. */
  const char *s = arg;
  int base = 10;
  if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) base = 16, s += 2;
  else if (s[0] == '0' && s[1]) base = 8;
  if (base == 10) return cmd_parse_umax(arg, "bEGKkMmPTYZ0", v) == CMD_NUM_OK ? 0 : -1;
  char *end;
  errno = 0;
  uintmax_t x = strtoumax(s, &end, base);
  if (end == s || errno) return -1;
  uintmax_t mult = 1;
  if (*end == 'b') mult = 512, end++;
  else if (*end == 'k' || *end == 'K') mult = 1024, end++;
  else if (*end == 'm' || *end == 'M') mult = 1024 * 1024, end++;
  if (*end || (mult > 1 && x > UINTMAX_MAX / mult)) return -1;
  *v = x * mult;
  (void)ctx;
  return 0;
}

enum { O_ENDIAN = CMD_OPT_LONG, O_TRADITIONAL };
static const char od_options[] =
    "(endian):(traditional)(help)(version)A:(address-radix)aBbcDdeFfHhIij:(skip-bytes)L"
    "lN:(read-bytes)OoS:st:(format)v(output-duplicates)w::(width)Xx";

int cmd_od_main(cmd_ctx *ctx, int argc, char **argv) {
  /* --strings[=BYTES] takes an optional argument, -S BYTES a required one. */
  static const cmd_longopt strings_opt[] = {{"strings", 2, 'S'}, {0, 0, 0}};
  od_state *st = cmd_alloc(ctx, sizeof *st);
  if (!st) return 1;
  st->ctx = ctx;
  st->radix = 'o';
  st->fd = -1;
  uintmax_t skip = 0, limit = UINTMAX_MAX;
  bool strings = false;      /* -S: GNU's dump_strings instead of a dump */
  uintmax_t string_min = 3;  /* -S N */
  bool has_limit = false;
  size_t width = 0;
  bool width_given = false;
  cmd_getopt_state g = CMD_GETOPT_INIT;
  /* A loop: the formats add up in order, arguments are checked where they
   * stand; -v is read after it. */
  for (int c; (c = cmd_getopt(ctx, &g, argc, argv, od_options, strings_opt)) != -1;) {
    const char *t = NULL;
    switch (c) {
    case 'A':
      if (!strchr("doxn", g.arg[0]) || !g.arg[0] || g.arg[1]) {
        cmd_errorf(ctx, "invalid output address radix '%c'; it must be one character from "
                        "[doxn]", g.arg[0]);
        return 1;
      }
      st->radix = g.arg[0];
      break;
    case 'j':
      if (od_size_arg(ctx, g.arg, &skip) < 0) {
        cmd_errorf(ctx, "invalid argument %s", cmd_gnu_quote(ctx, g.arg));
        return 1;
      }
      break;
    case 'N':
      if (od_size_arg(ctx, g.arg, &limit) < 0) {
        cmd_errorf(ctx, "invalid argument %s", cmd_gnu_quote(ctx, g.arg));
        return 1;
      }
      has_limit = true;
      break;
    case 't': t = g.arg; break;
    case 'w':
      width_given = true;
      if (!g.arg) {
        width = 32;
      } else {
        uintmax_t v;
        if (cmd_parse_umax(g.arg, "", &v) != CMD_NUM_OK || v == 0 || v > 65536) {
          cmd_errorf(ctx, "invalid -w argument %s", cmd_gnu_quote(ctx, g.arg));
          return 1;
        }
        width = (size_t)v;
      }
      break;
    case O_ENDIAN:
      if (strcmp(g.arg, "big") == 0) st->big_endian = true;
      else if (strcmp(g.arg, "little") == 0) st->big_endian = false;
      else {
        cmd_errorf(ctx, "invalid argument %s for " CMD_LQ "--endian" CMD_RQ,
                   cmd_gnu_quote(ctx, g.arg));
        cmd_err_raw(ctx, "Valid arguments are:\n  - " CMD_LQ "little" CMD_RQ "\n  - " CMD_LQ
                         "big" CMD_RQ "\n");
        return cmd_usage_hint(ctx, 1);
      }
      break;
    case 'S':
      strings = true;
      string_min = 3; /* --strings without a number */
      if (g.arg) {
        int r = cmd_parse_umax(g.arg, "bEGKkMmPTYZ0", &string_min);
        if (r & CMD_NUM_OVERFLOW) {
          cmd_errorf(ctx, "-S argument '%s' too large", g.arg);
          return 1;
        }
        if (r != CMD_NUM_OK) {
          cmd_errorf(ctx, "invalid -S argument '%s'", g.arg);
          return 1;
        }
      }
      break;
    case 'a': t = "a"; break;
    case 'b': t = "o1"; break;
    case 'c': t = "c"; break;
    case 'D': t = "u4"; break;
    case 'd': t = "u2"; break;
    case 'e': case 'F': t = "fD"; break;
    case 'f': t = "fF"; break;
    case 'H': case 'X': t = "x4"; break;
    case 'h': case 'x': t = "x2"; break;
    case 'i': t = "dI"; break;
    case 'I': case 'L': case 'l': t = "dL"; break;
    case 'O': t = "o4"; break;
    case 'o': t = "o2"; break;
    case 's': t = "d2"; break;
    case 'B': t = "o2"; break;
    CMD_CASES_HELP_VERSION(ctx, od_usage);
    case '?': return 1; /* cmd_getopt printed the message */
    }
    if (t && od_add_types(st, t) < 0) return 1;
  }
  st->dedup = !cmd_opt_on(&g, 'v');
  if (strings && st->nspec > 0) {
    cmd_errorf(ctx, "no type may be specified when dumping strings");
    return 1;
  }
  if (st->nspec == 0) od_add_types(st, "o2");
  st->addr_pad = st->radix == 'x' ? 6 : st->radix == 'n' ? 0 : 7;

  /* Line width: a multiple of every element size. */
  size_t lcm = 1;
  for (int i = 0; i < st->nspec; i++) {
    size_t a = lcm, b = (size_t)st->spec[i].size;
    while (b) {
      size_t t = a % b;
      a = b;
      b = t;
    }
    lcm = lcm / a * (size_t)st->spec[i].size;
  }
  if (width_given) {
    if (width % lcm == 0) {
      st->per_block = width;
    } else {
      cmd_errorf(ctx, "warning: invalid width %zu; using %zu instead", width, lcm);
      st->per_block = lcm;
    }
  } else {
    st->per_block = lcm < 16 ? lcm * (16 / lcm) : lcm;
  }
  int line_width = 0;
  for (int i = 0; i < st->nspec; i++) {
    int fields = (int)(st->per_block / (size_t)st->spec[i].size);
    int w = (st->spec[i].width + 1) * fields;
    if (w > line_width) line_width = w;
  }
  for (int i = 0; i < st->nspec; i++) {
    int fields = (int)(st->per_block / (size_t)st->spec[i].size);
    st->spec[i].pad = line_width - st->spec[i].width * fields;
  }

  st->files = cmd_file_operands(argc, argv, g.ind, &st->nfiles);
  unsigned char *cur = cmd_alloc(ctx, st->per_block * 2 + 16);
  unsigned char *prev = cmd_alloc(ctx, st->per_block + 16);
  if (!cur || !prev) return 1;
  /* GNU od opens the first operand it can before anything else and prints
   * nothing at all when none can be opened. */
  if (!od_next_file(st) && !st->opened) return st->status;
  if (skip && !od_skip(st, skip, cur, st->per_block * 2)) {
    cmd_errorf(ctx, "cannot skip past end of combined input");
    return 1;
  }
  if (strings) {
    int r = od_strings(st, skip, has_limit ? limit : UINTMAX_MAX, string_min);
    if (st->fd >= 0) cmd_close_input(ctx, st->fd);
    if (ctx->out_err) return cmd_write_error(ctx, ctx->out_err);
    return r ? r : st->status;
  }
  uintmax_t off = skip, left = has_limit ? limit : UINTMAX_MAX;
  bool have_prev = false, in_dup = false;
  while (left > 0) {
    size_t want = left < st->per_block ? (size_t)left : st->per_block;
    size_t n = od_read(st, cur, want);
    if (n == 0) break;
    memset(cur + n, 0, st->per_block + 16 - n);
    if (st->dedup && have_prev && n == st->per_block && memcmp(prev, cur, n) == 0) {
      if (!in_dup) cmd_outs(ctx, "*\n");
      in_dup = true;
    } else {
      in_dup = false;
      od_line(st, off, cur, n);
    }
    memcpy(prev, cur, n);
    have_prev = n == st->per_block;
    off += n;
    left -= n;
    if (ctx->out_err) break;
    if (cmd_poll(ctx)) return 1;
    if (n < want) break;
  }
  if (st->fd >= 0) cmd_close_input(ctx, st->fd);
  if (st->radix != 'n') od_address(st, off, '\n');
  if (ctx->out_err) return cmd_write_error(ctx, ctx->out_err);
  return st->status;
}
