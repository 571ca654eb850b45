/*
 * expr - evaluate expressions (GNU coreutils compatible).
 *
 *   expr EXPRESSION
 *   ARG1 | ARG2, ARG1 & ARG2, < <= = == != >= >, + -, * / %,
 *   STRING : REGEXP, match STRING REGEXP, substr STRING POS LENGTH,
 *   index STRING CHARS, length STRING, + TOKEN, ( EXPRESSION )
 *
 * Exit status: 0 if the result is neither null nor 0, 1 if it is, 2 for an
 * invalid expression, 3 for other errors.
 *
 * Design decisions:
 *  - A recursive-descent parser over argv (precedence as GNU's), nesting
 *    bounded by EXPR_MAX_DEPTH.
 *  - Integers are 128-bit (GNU uses unbounded GMP integers): a result outside
 *    that range is reported as "integer result too large".
 *  - ':' uses the project's regex engine (re.h): a GNU BRE anchored at the
 *    start of the string (RE_ANCHORED), UTF-8 aware, with a step budget and
 *    cmd_poll for pathological patterns.
 *  - length/substr/index count characters of UTF-8 (as GNU does in a UTF-8
 *    locale); invalid bytes count as one character each.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/lib/fs.h"
#include "cmd/lib/gnu.h"
#include "re/re.h"

CMD_DEFINE("expr", cmd_expr_main);

#define EXPR_MAX_DEPTH 1000

typedef __int128 expr_int;

/* A value: a string, an integer, or both (numeric strings). */
typedef struct expr_val {
  bool is_int;       /* integer result of arithmetic */
  expr_int i;        /* the integer */
  const char *s;     /* the string (arena), or NULL for integers */
} expr_val;

/* Parser state. */
typedef struct expr_st {
  cmd_ctx *ctx;      /* the command */
  char **args;       /* tokens */
  int n, pos;        /* count and position */
  int depth;         /* nesting */
  int err;           /* 0, 2 (syntax) or 3 (other) */
} expr_st;

static bool parse_int(const char *s, expr_int *out) {
  const char *p = s;
  while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\v' || *p == '\f' || *p == '\r') p++;
  bool neg = false;
  if (*p == '-') {
    neg = true;
    p++;
  } else if (*p == '+') {
    return false;
  }
  if (*p < '0' || *p > '9') return false;
  expr_int v = 0;
  const expr_int max = (((expr_int)1) << 126) / 5;
  for (; *p >= '0' && *p <= '9'; p++) {
    if (v > max) return false;
    v = v * 10 + (*p - '0');
  }
  if (*p) return false;
  *out = neg ? -v : v;
  return true;
}

static const char *int_str(expr_st *e, expr_int v) {
  char buf[64];
  char *p = buf + sizeof buf;
  *--p = 0;
  bool neg = v < 0;
  unsigned __int128 u = neg ? (unsigned __int128)0 - (unsigned __int128)v : (unsigned __int128)v;
  do {
    *--p = (char)('0' + (int)(u % 10));
    u /= 10;
  } while (u);
  if (neg) *--p = '-';
  return cmd_strdup(e->ctx, p);
}

static const char *val_str(expr_st *e, expr_val v) { return v.is_int ? int_str(e, v.i) : v.s; }

static bool val_int(expr_val v, expr_int *out) {
  if (v.is_int) {
    *out = v.i;
    return true;
  }
  return parse_int(v.s, out);
}

static bool val_null(expr_st *e, expr_val v) {
  if (v.is_int) return v.i == 0;
  expr_int i;
  if (!*v.s) return true;
  /* "0", "-0", "00" are zero; GNU treats numeric zero strings as null */
  if (parse_int(v.s, &i) && i == 0) return true;
  (void)e;
  return false;
}

static expr_val mk_int(expr_int i) {
  expr_val v = {true, i, NULL};
  return v;
}

static expr_val mk_str(const char *s) {
  expr_val v = {false, 0, s};
  return v;
}

static int syntax_error(expr_st *e, const char *fmt, const char *arg) {
  if (e->err) return e->err;
  if (arg) cmd_errorf(e->ctx, fmt, cmd_gnu_quote(e->ctx, arg));
  else cmd_errorf(e->ctx, "%s", fmt);
  e->err = 2;
  return 2;
}

static int fail(expr_st *e, int status, const char *msg) {
  if (e->err) return e->err;
  cmd_errorf(e->ctx, "%s", msg);
  e->err = status;
  return status;
}

static bool at(expr_st *e, const char *tok) { return e->pos < e->n && !strcmp(e->args[e->pos], tok); }

/* UTF-8 characters of s (invalid bytes count one each). */
static size_t u8_len(const char *s) {
  size_t n = 0;
  for (const unsigned char *p = (const unsigned char *)s; *p;) {
    int l = *p < 0x80 ? 1 : (*p & 0xe0) == 0xc0 ? 2 : (*p & 0xf0) == 0xe0 ? 3 : (*p & 0xf8) == 0xf0 ? 4 : 1;
    int ok = 1;
    for (int k = 1; k < l; k++)
      if ((p[k] & 0xc0) != 0x80) ok = 0;
    p += ok ? l : 1;
    n++;
  }
  return n;
}

/* Byte offset of character index ci (0-based) in s. */
static size_t u8_off(const char *s, size_t ci) {
  const unsigned char *p = (const unsigned char *)s;
  while (*p && ci > 0) {
    int l = *p < 0x80 ? 1 : (*p & 0xe0) == 0xc0 ? 2 : (*p & 0xf0) == 0xe0 ? 3 : (*p & 0xf8) == 0xf0 ? 4 : 1;
    int ok = 1;
    for (int k = 1; k < l; k++)
      if ((p[k] & 0xc0) != 0x80) ok = 0;
    p += ok ? l : 1;
    ci--;
  }
  return (size_t)(p - (const unsigned char *)s);
}

static int expr_poll(void *ud) { return cmd_poll(ud); }

/* STRING : REGEXP — a BRE anchored at the start (the shared engine, re.h). */
static expr_val expr_match(expr_st *e, const char *str, const char *pat) {
  re *rx = NULL;
  re_err err;
  memset(&err, 0, sizeof err);
  if (re_compile(&rx, pat, strlen(pat), RE_UTF8, &err) != 0) {
    if (!e->err) {
      cmd_errorf(e->ctx, "%s", err.msg);
      e->err = 2;
    }
    return mk_str("");
  }
  re_span m[2];
  bool groups = re_nsub(rx) > 0;
  re_ctl ctl = {0, expr_poll, e->ctx};
  int rc = re_exec(rx, str, strlen(str), 0, RE_ANCHORED, m, 2, &ctl);
  expr_val out = groups ? mk_str("") : mk_int(0);
  if (rc == RE_MATCH) {
    if (groups) {
      if (m[1].so >= 0) {
        size_t l = (size_t)(m[1].eo - m[1].so);
        char *r = cmd_alloc(e->ctx, l + 1);
        if (r) memcpy(r, str + m[1].so, l);
        out = mk_str(r ? r : "");
      }
    } else {
      char *tmp = cmd_alloc(e->ctx, (size_t)m[0].eo + 1);
      if (tmp) memcpy(tmp, str, (size_t)m[0].eo);
      out = mk_int((expr_int)u8_len(tmp ? tmp : ""));
    }
  } else if (rc < 0 && !e->err) {
    cmd_errorf(e->ctx, "%s", re_strerror(rc));
    e->err = 3;
  }
  re_free(rx);
  return out;
}

static expr_val parse_or(expr_st *e);

static expr_val parse_primary(expr_st *e) {
  if (e->err) return mk_str("");
  if (++e->depth > EXPR_MAX_DEPTH) {
    fail(e, 2, "expression nested too deeply");
    return mk_str("");
  }
  expr_val v = mk_str("");
  if (e->pos >= e->n) {
    if (e->pos > 0)
      syntax_error(e, "syntax error: missing argument after %s", e->args[e->pos - 1]);
    else
      syntax_error(e, "syntax error: missing argument", NULL);
    goto out;
  }
  const char *t = e->args[e->pos];
  if (!strcmp(t, "(")) {
    e->pos++;
    v = parse_or(e);
    if (e->err) goto out;
    if (!at(e, ")")) {
      if (e->pos >= e->n)
        syntax_error(e, "syntax error: expecting ')' after %s", e->args[e->pos - 1]);
      else
        syntax_error(e, "syntax error: expecting ')' instead of %s", e->args[e->pos]);
      goto out;
    }
    e->pos++;
    goto out;
  }
  if (!strcmp(t, ")")) {
    syntax_error(e, "syntax error: unexpected ')'", NULL);
    goto out;
  }
  if (!strcmp(t, "+")) {
    e->pos++;
    if (e->pos >= e->n) {
      syntax_error(e, "syntax error: missing argument after %s", "+");
      goto out;
    }
    v = mk_str(e->args[e->pos++]);
    goto out;
  }
  if (!strcmp(t, "length")) {
    e->pos++;
    expr_val a = parse_primary(e);
    if (!e->err) v = mk_int((expr_int)u8_len(val_str(e, a)));
    goto out;
  }
  if (!strcmp(t, "match")) {
    e->pos++;
    expr_val a = parse_primary(e);
    expr_val b = parse_primary(e);
    if (!e->err) v = expr_match(e, val_str(e, a), val_str(e, b));
    goto out;
  }
  if (!strcmp(t, "index")) {
    e->pos++;
    expr_val a = parse_primary(e);
    expr_val b = parse_primary(e);
    if (e->err) goto out;
    const char *s = val_str(e, a), *chars = val_str(e, b);
    size_t pos = 0, ci = 0;
    for (size_t off = 0; s[off]; ci++) {
      size_t next = u8_off(s + off, 1);
      /* is this character among chars? */
      for (size_t k = 0; chars[k];) {
        size_t kl = u8_off(chars + k, 1);
        if (kl == next && !memcmp(s + off, chars + k, kl)) {
          pos = ci + 1;
          break;
        }
        k += kl;
      }
      if (pos) break;
      off += next;
    }
    v = mk_int((expr_int)pos);
    goto out;
  }
  if (!strcmp(t, "substr")) {
    e->pos++;
    expr_val a = parse_primary(e);
    expr_val b = parse_primary(e);
    expr_val c = parse_primary(e);
    if (e->err) goto out;
    const char *s = val_str(e, a);
    expr_int p, l;
    if (!val_int(b, &p) || !val_int(c, &l)) {
      v = mk_str("");
      goto out;
    }
    size_t len = u8_len(s);
    if (p < 1 || l < 1 || (size_t)p > len) {
      v = mk_str("");
      goto out;
    }
    size_t start = u8_off(s, (size_t)p - 1);
    size_t want = (expr_int)(len - (size_t)p + 1) < l ? len - (size_t)p + 1 : (size_t)l;
    size_t end = start + u8_off(s + start, want);
    char *r = cmd_alloc(e->ctx, end - start + 1);
    if (r) memcpy(r, s + start, end - start);
    v = mk_str(r ? r : "");
    goto out;
  }
  v = mk_str(e->args[e->pos++]);
out:
  e->depth--;
  return v;
}

static expr_val parse_colon(expr_st *e) {
  expr_val l = parse_primary(e);
  while (!e->err && at(e, ":")) {
    e->pos++;
    expr_val r = parse_primary(e);
    if (e->err) break;
    l = expr_match(e, val_str(e, l), val_str(e, r));
  }
  return l;
}

static expr_val parse_mul(expr_st *e) {
  expr_val l = parse_colon(e);
  while (!e->err && (at(e, "*") || at(e, "/") || at(e, "%"))) {
    char op = e->args[e->pos++][0];
    expr_val r = parse_colon(e);
    if (e->err) break;
    expr_int a, b;
    if (!val_int(l, &a) || !val_int(r, &b)) {
      fail(e, 2, "non-integer argument");
      break;
    }
    if (op != '*' && b == 0) {
      fail(e, 2, "division by zero");
      break;
    }
    expr_int res;
    if (op == '*') {
      if (__builtin_mul_overflow(a, b, &res)) {
        fail(e, 3, "integer result too large");
        break;
      }
    } else if (op == '/') {
      res = a / b;
    } else {
      res = a % b;
    }
    l = mk_int(res);
  }
  return l;
}

static expr_val parse_add(expr_st *e) {
  expr_val l = parse_mul(e);
  while (!e->err && (at(e, "+") || at(e, "-"))) {
    char op = e->args[e->pos++][0];
    expr_val r = parse_mul(e);
    if (e->err) break;
    expr_int a, b, res;
    if (!val_int(l, &a) || !val_int(r, &b)) {
      fail(e, 2, "non-integer argument");
      break;
    }
    bool ovf = op == '+' ? __builtin_add_overflow(a, b, &res) : __builtin_sub_overflow(a, b, &res);
    if (ovf) {
      fail(e, 3, "integer result too large");
      break;
    }
    l = mk_int(res);
  }
  return l;
}

static expr_val parse_cmp(expr_st *e) {
  expr_val l = parse_add(e);
  static const char *const ops[] = {"<", "<=", "=", "==", "!=", ">=", ">", NULL};
  for (;;) {
    if (e->err || e->pos >= e->n) break;
    int k = -1;
    for (int i = 0; ops[i]; i++)
      if (!strcmp(e->args[e->pos], ops[i])) k = i;
    if (k < 0) break;
    e->pos++;
    expr_val r = parse_add(e);
    if (e->err) break;
    int c;
    expr_int a, b;
    if (val_int(l, &a) && val_int(r, &b)) {
      c = a < b ? -1 : a > b;
    } else {
      c = strcmp(val_str(e, l), val_str(e, r)); /* C.UTF-8 collation is byte order */
      c = c < 0 ? -1 : c > 0;
    }
    bool res;
    switch (k) {
    case 0: res = c < 0; break;
    case 1: res = c <= 0; break;
    case 2: case 3: res = c == 0; break;
    case 4: res = c != 0; break;
    case 5: res = c >= 0; break;
    default: res = c > 0;
    }
    l = mk_int(res);
  }
  return l;
}

static expr_val parse_and(expr_st *e) {
  expr_val l = parse_cmp(e);
  while (!e->err && at(e, "&")) {
    e->pos++;
    expr_val r = parse_cmp(e);
    if (e->err) break;
    if (val_null(e, l) || val_null(e, r)) l = mk_int(0);
  }
  return l;
}

static expr_val parse_or(expr_st *e) {
  expr_val l = parse_and(e);
  while (!e->err && at(e, "|")) {
    e->pos++;
    expr_val r = parse_and(e);
    if (e->err) break;
    if (val_null(e, l)) l = val_null(e, r) ? mk_int(0) : r;
  }
  return l;
}

int cmd_expr_main(cmd_ctx *ctx, int argc, char **argv) {
  /* only --help and --version are options; "--" ends them; anything else
   * (including "-1") is an operand */
  int i = 1;
  if (argc > 1) {
    if (!strcmp(argv[1], "--help")) {
      cmd_outs(ctx, "Usage: expr EXPRESSION\n  or:  expr OPTION\n"
                    "Print the value of EXPRESSION to standard output.\n");
      return 0;
    }
    if (!strcmp(argv[1], "--version")) return cmd_print_version(ctx);
    if (!strcmp(argv[1], "--")) i = 2;
  }
  expr_st e = {.ctx = ctx, .args = argv + i, .n = argc - i};
  if (e.n <= 0) {
    cmd_errorf(ctx, "missing operand");
    return cmd_usage_hint(ctx, 2);
  }
  expr_val v = parse_or(&e);
  if (!e.err && e.pos < e.n)
    syntax_error(&e, "syntax error: unexpected argument %s", e.args[e.pos]);
  if (e.err) return e.err;
  cmd_outs(ctx, val_str(&e, v));
  cmd_outc(ctx, '\n');
  return val_null(&e, v) ? 1 : 0;
}
