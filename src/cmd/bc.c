/*
 * bc - an arbitrary precision calculator language (GNU bc 1.07 compatible).
 *
 * Usage: bc [options] [file ...]
 *   -h  --help         print this usage and exit
 *   -i  --interactive  force interactive mode
 *   -l  --mathlib      use the predefined math routines
 *   -q  --quiet        don't print initial banner
 *   -s  --standard     non-standard bc constructs are errors
 *   -w  --warn         warn about non-standard bc constructs
 *   -v  --version      print version information and exit
 *
 * Design: files are read through the store and parsed/run item by item
 * (bc_parse.c, bc_exec.c), then standard input, like GNU bc. Numbers are
 * bc_num.c's. The -l library (s c a l e j) is implemented in C with guard
 * digits and truncated to `scale`, which gives GNU's digits (its libmath.b
 * results are the truncated true values too). BC_LINE_LENGTH is honoured.
 * Limits: number sizes are bounded by ctx->max_string digits, loops poll
 * cmd_poll, calls nest at most 10000 deep; hitting one prints "bc: ..." and
 * ends the command (status 1, or 126 for a timeout/cancel).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/bc.h"

CMD_DEFINE("bc", cmd_bc_main);

static const char usage_text[] =
    "usage: %s [options] [file ...]\n"
    "  -h  --help         print this usage and exit\n"
    "  -i  --interactive  force interactive mode\n"
    "  -l  --mathlib      use the predefined math routines\n"
    "  -q  --quiet        don't print initial banner\n"
    "  -s  --standard     non-standard bc constructs are errors\n"
    "  -w  --warn         warn about non-standard bc constructs\n"
    "  -v  --version      print version information and exit\n";

/* ---- the math library ------------------------------------------------------------------------ */

enum { M_E = 1, M_L, M_S, M_A, M_C, M_J };

static bc_num from_long(bc_state *bc, long v) { return bc_from_long(bc, v); }

/* Replaces *dst with v (takes v). */
static void set(bc_state *bc, bc_num *dst, bc_num v) {
  bc_free(bc, dst);
  *dst = v;
}

/* Rough size of |x| in decimal orders (integer digits, or minus leading
 * fraction zeros). */
static long magnitude(bc_num x) {
  if (x->len > 1 || x->v[0] != 0) return x->len;
  long z = 0;
  for (int i = 0; i < x->scale && x->v[1 + i] == 0; i++) z++;
  return -z;
}

static bc_num babs(bc_state *bc, bc_num x) {
  bc_num r = bc_add(bc, x, bc->zero, 0);
  r->neg = false;
  return r;
}

/* arctan series for small |x| (<= 0.2) at working scale ws */
static bc_num atan_series(bc_state *bc, bc_num x, int ws) {
  bc_num x2 = bc_mul(bc, x, x, ws);
  bc_num sum = bc_add(bc, x, bc->zero, 0);
  bc_num pw = bc_copy(x);
  for (long k = 3;; k += 2) {
    bc_poll(bc);
    set(bc, &pw, bc_mul(bc, pw, x2, ws));
    bc_num kk = from_long(bc, k);
    bc_num term = bc_div(bc, pw, kk, ws);
    bc_free(bc, &kk);
    if (bc_is_zero(term)) {
      bc_free(bc, &term);
      break;
    }
    set(bc, &sum, ((k / 2) & 1) ? bc_sub(bc, sum, term, 0) : bc_add(bc, sum, term, 0));
    bc_free(bc, &term);
  }
  bc_free(bc, &x2);
  bc_free(bc, &pw);
  return sum;
}

/* pi at working scale ws (Machin's formula) */
static bc_num pi_at(bc_state *bc, int ws) {
  int w = ws + 5;
  bc_num five = from_long(bc, 5), n239 = from_long(bc, 239);
  bc_num i5 = bc_div(bc, bc->one, five, w), i239 = bc_div(bc, bc->one, n239, w);
  bc_num a5 = atan_series(bc, i5, w), a239 = atan_series(bc, i239, w);
  bc_num sixteen = from_long(bc, 16), four = from_long(bc, 4);
  bc_num t1 = bc_mul(bc, a5, sixteen, w), t2 = bc_mul(bc, a239, four, w);
  bc_num pi = bc_sub(bc, t1, t2, 0);
  bc_free(bc, &five);
  bc_free(bc, &n239);
  bc_free(bc, &i5);
  bc_free(bc, &i239);
  bc_free(bc, &a5);
  bc_free(bc, &a239);
  bc_free(bc, &sixteen);
  bc_free(bc, &four);
  bc_free(bc, &t1);
  bc_free(bc, &t2);
  return pi;
}

static bc_num m_exp(bc_state *bc, bc_num x, int scale) {
  bool neg = x->neg;
  bc_num ax = babs(bc, x);
  long mag = magnitude(ax);
  if (mag > 9) {
    bc_free(bc, &ax);
    if (neg) return bc_zero(bc);
    bc_limit(bc, "number too long");
  }
  double approx = 0;
  for (int i = 0; i < ax->len; i++) approx = approx * 10 + ax->v[i];
  /* halve until <= 1 */
  int f = 0;
  bc_num r = bc_copy(ax);
  long intdigits = (long)(approx * 0.4343) + 2;
  int ws = scale + 12 + (int)intdigits + 2 * 32;
  while (bc_compare(r, bc->one) > 0) {
    set(bc, &r, bc_div(bc, r, bc->two, ws));
    f++;
  }
  ws = scale + 12 + (int)intdigits + f;
  /* Taylor series */
  bc_num sum = bc_one(bc), term = bc_one(bc);
  for (long k = 1;; k++) {
    bc_poll(bc);
    set(bc, &term, bc_mul(bc, term, r, ws));
    bc_num kk = from_long(bc, k);
    set(bc, &term, bc_div(bc, term, kk, ws));
    bc_free(bc, &kk);
    if (bc_is_zero(term)) break;
    set(bc, &sum, bc_add(bc, sum, term, 0));
  }
  while (f-- > 0) set(bc, &sum, bc_mul(bc, sum, sum, ws));
  bc_num res;
  if (neg) res = bc_div(bc, bc->one, sum, scale);
  else res = bc_trunc(bc, sum, scale);
  bc_free(bc, &sum);
  bc_free(bc, &term);
  bc_free(bc, &r);
  bc_free(bc, &ax);
  return res;
}

static bc_num m_ln(bc_state *bc, bc_num x, int scale) {
  if (bc_compare(x, bc->zero) <= 0) {
    /* GNU: (1 - 10^scale) / 1 */
    bc_num ten = from_long(bc, 10), s = from_long(bc, scale);
    bc_num p = bc_raise(bc, ten, s, scale);
    bc_num d = bc_sub(bc, bc->one, p, 0);
    bc_num r = bc_div(bc, d, bc->one, scale);
    bc_free(bc, &ten);
    bc_free(bc, &s);
    bc_free(bc, &p);
    bc_free(bc, &d);
    return r;
  }
  long mag = magnitude(x);
  long am = mag < 0 ? -mag : mag;
  int k_est = 2;
  while ((1L << k_est) < am * 4 + 4) k_est++;
  int ws = scale + 15 + k_est + (int)((x->scale > scale ? x->scale - scale : 0));
  bc_num y = bc_add(bc, x, bc->zero, 0);
  bc_num two = from_long(bc, 2), half = bc_div(bc, bc->one, two, 1);
  int k = 0;
  while (bc_compare(y, two) >= 0 || bc_compare(y, half) <= 0) {
    bc_poll(bc);
    bc_num s = bc_sqrt(bc, y, ws);
    set(bc, &y, s);
    k++;
  }
  /* ln y = 2 atanh((y-1)/(y+1)) */
  bc_num num = bc_sub(bc, y, bc->one, 0), den = bc_add(bc, y, bc->one, 0);
  bc_num z = bc_div(bc, num, den, ws);
  bc_num z2 = bc_mul(bc, z, z, ws);
  bc_num sum = bc_copy(z), pw = bc_copy(z);
  for (long n = 3;; n += 2) {
    bc_poll(bc);
    set(bc, &pw, bc_mul(bc, pw, z2, ws));
    bc_num nn = from_long(bc, n);
    bc_num term = bc_div(bc, pw, nn, ws);
    bc_free(bc, &nn);
    if (bc_is_zero(term)) {
      bc_free(bc, &term);
      break;
    }
    set(bc, &sum, bc_add(bc, sum, term, 0));
    bc_free(bc, &term);
  }
  bc_num factor = from_long(bc, 1L << (k + 1 > 62 ? 62 : k + 1));
  bc_num lnv = bc_mul(bc, sum, factor, ws);
  bc_num res = bc_trunc(bc, lnv, scale);
  bc_free(bc, &y);
  bc_free(bc, &two);
  bc_free(bc, &half);
  bc_free(bc, &num);
  bc_free(bc, &den);
  bc_free(bc, &z);
  bc_free(bc, &z2);
  bc_free(bc, &sum);
  bc_free(bc, &pw);
  bc_free(bc, &factor);
  bc_free(bc, &lnv);
  return res;
}

/* sin at working scale (x any size) */
static bc_num sin_ws(bc_state *bc, bc_num x, int ws) {
  bc_num pi = pi_at(bc, ws);
  bc_num twopi = bc_add(bc, pi, pi, 0);
  /* r = x - 2pi * trunc(x / 2pi), then into [-pi, pi] */
  bc_num q = bc_div(bc, x, twopi, 0);
  bc_num m = bc_mul(bc, q, twopi, ws);
  bc_num r = bc_sub(bc, x, m, 0);
  if (bc_compare(r, pi) > 0) set(bc, &r, bc_sub(bc, r, twopi, 0));
  bc_num npi = bc_sub(bc, bc->zero, pi, 0);
  if (bc_compare(r, npi) < 0) set(bc, &r, bc_add(bc, r, twopi, 0));
  bc_num r2 = bc_mul(bc, r, r, ws);
  bc_num sum = bc_add(bc, r, bc->zero, 0), term = bc_add(bc, r, bc->zero, 0);
  for (long k = 1;; k++) {
    bc_poll(bc);
    set(bc, &term, bc_mul(bc, term, r2, ws));
    bc_num d = from_long(bc, (2 * k) * (2 * k + 1));
    set(bc, &term, bc_div(bc, term, d, ws));
    bc_free(bc, &d);
    if (bc_is_zero(term)) break;
    set(bc, &sum, (k & 1) ? bc_sub(bc, sum, term, 0) : bc_add(bc, sum, term, 0));
  }
  bc_free(bc, &pi);
  bc_free(bc, &twopi);
  bc_free(bc, &q);
  bc_free(bc, &m);
  bc_free(bc, &r);
  bc_free(bc, &npi);
  bc_free(bc, &r2);
  bc_free(bc, &term);
  return sum;
}

static bc_num m_sin(bc_state *bc, bc_num x, int scale, bool cosine) {
  long mag = magnitude(x);
  int ws = scale + 15 + (mag > 0 ? (int)mag : 0);
  bc_num arg = bc_add(bc, x, bc->zero, 0);
  if (cosine) {
    bc_num pi = pi_at(bc, ws + 2);
    bc_num half = bc_div(bc, pi, bc->two, ws + 2);
    set(bc, &arg, bc_add(bc, arg, half, 0));
    bc_free(bc, &pi);
    bc_free(bc, &half);
  }
  bc_num s = sin_ws(bc, arg, ws);
  bc_num res = bc_trunc(bc, s, scale);
  bc_free(bc, &s);
  bc_free(bc, &arg);
  return res;
}

static bc_num m_atan(bc_state *bc, bc_num x, int scale) {
  if (bc_is_zero(x)) return bc_zero(bc);
  bool neg = x->neg;
  bc_num ax = babs(bc, x);
  long mag = magnitude(ax);
  int ws = scale + 15 + (mag < 0 ? (int)-mag : 0);
  bool invert = bc_compare(ax, bc->one) > 0;
  bc_num v;
  if (invert) {
    bc_num inv = bc_div(bc, bc->one, ax, ws + (mag > 0 ? (int)mag : 0));
    set(bc, &ax, inv);
  }
  /* reduce below 0.2: a(x) = 2 a(x / (1 + sqrt(1 + x^2))) */
  bc_num lim = bc_from_str(bc, ".2");
  int k = 0;
  while (bc_compare(ax, lim) > 0) {
    bc_num x2 = bc_mul(bc, ax, ax, ws);
    bc_num s1 = bc_add(bc, x2, bc->one, 0);
    bc_num sq = bc_sqrt(bc, s1, ws);
    bc_num d = bc_add(bc, sq, bc->one, 0);
    set(bc, &ax, bc_div(bc, ax, d, ws));
    bc_free(bc, &x2);
    bc_free(bc, &s1);
    bc_free(bc, &sq);
    bc_free(bc, &d);
    k++;
  }
  v = atan_series(bc, ax, ws + k);
  if (k) {
    bc_num f = from_long(bc, 1L << k);
    set(bc, &v, bc_mul(bc, v, f, ws));
    bc_free(bc, &f);
  }
  if (invert) {
    bc_num pi = pi_at(bc, ws);
    bc_num half = bc_div(bc, pi, bc->two, ws);
    set(bc, &v, bc_sub(bc, half, v, 0));
    bc_free(bc, &pi);
    bc_free(bc, &half);
  }
  if (neg) v->neg = !bc_is_zero(v);
  bc_num res = bc_trunc(bc, v, scale);
  bc_free(bc, &v);
  bc_free(bc, &ax);
  bc_free(bc, &lim);
  return res;
}

static bc_num m_bessel(bc_state *bc, bc_num nn, bc_num x, int scale) {
  long n = bc_to_long(nn);
  bool negate = false;
  if (n < 0) {
    n = -n;
    negate = n & 1;
  }
  if (n > 100000) bc_limit(bc, "bessel order too large");
  long mag = magnitude(x);
  double ax = 0;
  for (int i = 0; i < x->len; i++) ax = ax * 10 + x->v[i];
  if (mag > 8) bc_limit(bc, "number too long");
  int ws = scale + 15 + (int)(ax * 0.87) + (mag > 0 ? (int)mag : 0);
  bc_num half = bc_div(bc, x, bc->two, ws);
  bc_num h2 = bc_mul(bc, half, half, ws);
  /* term0 = (x/2)^n / n! */
  bc_num term = bc_one(bc);
  for (long i = 1; i <= n; i++) {
    set(bc, &term, bc_mul(bc, term, half, ws));
    bc_num ii = from_long(bc, i);
    set(bc, &term, bc_div(bc, term, ii, ws));
    bc_free(bc, &ii);
    if ((i & 255) == 0) bc_poll(bc);
  }
  bc_num sum = bc_copy(term);
  for (long k = 1;; k++) {
    bc_poll(bc);
    set(bc, &term, bc_mul(bc, term, h2, ws));
    bc_num d = from_long(bc, k * (n + k));
    set(bc, &term, bc_div(bc, term, d, ws));
    bc_free(bc, &d);
    if (bc_is_zero(term)) break;
    set(bc, &sum, (k & 1) ? bc_sub(bc, sum, term, 0) : bc_add(bc, sum, term, 0));
  }
  if (negate) sum->neg = !sum->neg && !bc_is_zero(sum);
  bc_num res = bc_trunc(bc, sum, scale);
  bc_free(bc, &half);
  bc_free(bc, &h2);
  bc_free(bc, &term);
  bc_free(bc, &sum);
  return res;
}

bc_num bc_mathlib_call(bc_state *bc, int which, bc_num *args, int nargs) {
  (void)nargs;
  int scale = bc->scale;
  bc_num r;
  switch (which) {
  case M_E: r = m_exp(bc, args[0], scale); break;
  case M_L: r = m_ln(bc, args[0], scale); break;
  case M_S: r = m_sin(bc, args[0], scale, false); break;
  case M_C: r = m_sin(bc, args[0], scale, true); break;
  case M_A: r = m_atan(bc, args[0], scale); break;
  default: r = m_bessel(bc, args[0], args[1], scale); break;
  }
  if (bc_is_zero(r)) {
    /* GNU prints a zero result as 0 */
    bc_num z = bc_new(bc, 1, r->scale);
    bc_free(bc, &r);
    r = z;
  }
  return r;
}

/* ---- read() and random() --------------------------------------------------------------------- */

bc_num bc_read_number(bc_state *bc) {
  /* reads one line of the read() input and converts it in ibase */
  const char *p = bc->stdin_data ? bc->stdin_data + bc->stdin_pos : "";
  size_t avail = bc->stdin_data ? bc->stdin_len - bc->stdin_pos : 0;
  const char *nl = memchr(p, '\n', avail);
  size_t n = nl ? (size_t)(nl - p) + 1 : avail;
  bc->stdin_pos += n;
  bool neg = false;
  size_t i = 0;
  while (i < n && (p[i] == ' ' || p[i] == '\t')) i++;
  if (i < n && (p[i] == '-' || p[i] == '+')) neg = p[i++] == '-';
  bc_num base = bc_from_long(bc, bc->ibase), acc = bc_zero(bc);
  for (; i < n; i++) {
    int c = (unsigned char)p[i], d;
    if (c >= '0' && c <= '9') d = c - '0';
    else if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
    else break;
    if (d >= bc->ibase) d = bc->ibase - 1;
    bc_num t = bc_mul(bc, acc, base, 0), dd = bc_from_long(bc, d);
    set(bc, &acc, bc_add(bc, t, dd, 0));
    bc_free(bc, &t);
    bc_free(bc, &dd);
  }
  if (neg) acc->neg = !bc_is_zero(acc);
  bc_free(bc, &base);
  return acc;
}

long bc_random(bc_state *bc) {
  /* glibc's random() as a fresh process starts it (seed 1, TYPE_3) */
  if (!bc->rnd_init) {
    memset(&bc->rnd, 0, sizeof bc->rnd);
    initstate_r(1, bc->rnd_state, sizeof bc->rnd_state, &bc->rnd);
    bc->rnd_init = true;
  }
  int32_t r;
  random_r(&bc->rnd, &r);
  return r;
}

/* ---- main ---------------------------------------------------------------------------------------- */

static int read_all(cmd_ctx *ctx, const char *path, char **data, size_t *len) {
  cmd_in *f;
  int rc = cmd_in_open(ctx, path, &f);
  if (rc < 0) return rc;
  rc = cmd_in_slurp(f, data, len);
  cmd_in_close(f);
  return rc;
}

static void define_builtin(bc_state *bc, const char *name, int nparams) {
  int f = bc_lookup(bc, name, BC_FUNCTDEF);
  bc->funcs[f].defined = true;
  bc->funcs[f].builtin = true;
  bc->funcs[f].nparams = nparams;
}

static int run_bc(cmd_ctx *ctx, bool mathlib, bool std_only, bool warn, char **files, int nfiles) {
  bc_state *bc = calloc(1, sizeof *bc);
  if (!bc) return 1;
  bc->ctx = ctx;
  bc->mathlib = mathlib;
  bc->std_only = std_only;
  bc->warn_not_std = warn;
  bc->max_digits = ctx->max_string ? ctx->max_string : (64u << 20);
  bc->max_depth = 10000;
  bc->line_size = 70;
  const char *ll = cmd_getenv(ctx, "BC_LINE_LENGTH");
  if (ll) {
    bc->line_size = atoi(ll);
    if (bc->line_size < 3 && bc->line_size != 0) bc->line_size = 70;
  }
  char *volatile text = NULL;
  if (setjmp(bc->fatal) == 0) {
    bc_num_init(bc);
    bc_exec_init(bc);
    if (mathlib) {
      define_builtin(bc, "e", 1);
      define_builtin(bc, "l", 1);
      define_builtin(bc, "s", 1);
      define_builtin(bc, "a", 1);
      define_builtin(bc, "c", 1);
      define_builtin(bc, "j", 2);
      bc->scale = 20;
    }
    bool go_on = true;
    for (int i = 0; i < nfiles && go_on && !bc->halted; i++) {
      char *data = NULL;
      size_t len = 0;
      int rc = read_all(ctx, files[i], &data, &len);
      if (rc < 0) {
        cmd_record_error(ctx, rc, files[i]);
        cmd_flush(ctx);
        cmd_err_raw(ctx, "File %s is unavailable.\n", files[i]);
        free(data);
        bc->status = 1;
        go_on = false;
        break;
      }
      text = data;
      go_on = bc_run_text(bc, data ? data : "", len, files[i]);
      free(text);
      text = NULL;
    }
    if (go_on && !bc->halted && bc->status == 0) {
      char *data = NULL;
      size_t len = 0;
      cmd_in *in = cmd_in_fd(ctx, 0);
      int rc = in ? cmd_in_slurp(in, &data, &len) : -EIO;
      if (in) cmd_in_close(in);
      if (rc < 0) {
        free(data);
        if (rc == -EFBIG) bc_limit(bc, "standard input too long");
      } else {
        text = data;
        bc_run_text(bc, data ? data : "", len, NULL);
        free(text);
        text = NULL;
      }
    }
  } else {
    free(text);
  }
  int status = bc->status;
  bc_exec_free(bc);
  bc_num_free_all(bc);
  free(bc);
  return status;
}

int cmd_bc_main(cmd_ctx *ctx, int argc, char **argv) {
  static const cmd_longopt longopts[] = {
      {"help", 0, 'h'},  {"interactive", 0, 'i'}, {"mathlib", 0, 'l'}, {"quiet", 0, 'q'},
      {"standard", 0, 's'}, {"warn", 0, 'w'},     {"version", 0, 'v'}, {0, 0, 0}};
  bool mathlib = false, std_only = false, warn = false;
  cmd_getopt_state st = CMD_GETOPT_INIT;
  int opt;
  while ((opt = cmd_getopt(ctx, &st, argc, argv, ":hilqswv", longopts)) != -1) {
    switch (opt) {
    case 'h':
      cmd_outf(ctx, usage_text, "bc");
      return 0;
    case 'l': mathlib = true; break;
    case 's': std_only = true; break;
    case 'w': warn = true; break;
    case 'i':
    case 'q':
      break;
    case 'v':
      cmd_outs(ctx, "bc (sbx) 1.0\n");
      return 0;
    default:
      if (opt == ':' || opt == '?') {
        if (st.opt && opt == '?') cmd_err_raw(ctx, "bc: invalid option -- '%c'\n", st.opt);
        else if (opt == '?') cmd_err_raw(ctx, "bc: unrecognized option '%s'\n", argv[st.ind - 1]);
        cmd_outf(ctx, usage_text, "bc");
        return 1;
      }
    }
  }
  return run_bc(ctx, mathlib, std_only, warn, argv + st.ind, argc - st.ind);
}
