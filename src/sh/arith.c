/*
 * arith.c - shell arithmetic evaluation (arith.h).
 *
 * A recursive-descent evaluator straight over the text (bash re-evaluates the
 * expanded text every time too). Precedence, lowest first:
 *   ,  = op=  ?:  ||  &&  |  ^  &  == !=  < > <= >=  << >>  + -  * / %  **
 *   unary ! ~ + - ++ --   postfix ++ --   ( ) numbers names name[sub]
 * `noeval` skips side effects and division errors in the arm not taken by
 * && || ?:, as bash does. Arithmetic wraps at 64 bits (computed unsigned).
 * A variable's value is itself evaluated as an expression, to a bounded depth.
 */
#include "sh/arith.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sh/expand.h"
#include "sh/vars.h"

#define ARITH_DEPTH_MAX 64

typedef enum { A_END, A_NUM, A_NAME, A_OP, A_LP, A_RP } atok;

typedef struct ax {
  sh_shell *sh;
  const char *expr;   /* the whole expression (messages) */
  const char *s;      /* cursor */
  int depth;          /* recursion (nested parentheses and variable values) */
  int noeval;         /* > 0: do not evaluate side effects */
  bool err;
  /* current token */
  atok tok;
  const char *tstart; /* token text */
  size_t tlen;
  int64_t num;
  char op[4];
  /* for A_NAME: subscript text (inside [ ]) */
  const char *sub;
  size_t sublen;
} ax;

static void aerr(ax *a, const char *msg, const char *tok) {
  if (a->err) return;
  a->err = true;
  const char *t = tok ? tok : a->tstart;
  if (!t) t = "";
  /* bash strips leading blanks from the error token */
  while (*t == ' ' || *t == '\t' || *t == '\n') t++;
  const char *e = a->expr; /* and from the expression */
  while (*e == ' ' || *e == '\t' || *e == '\n') e++;
  const char *ctx = a->sh->arith_context;
  sh_error(a->sh, "%s%s%s: %s (error token is \"%s\")", ctx ? ctx : "", ctx ? ": " : "", e, msg, t);
}

bool sh_arith_parse_int(const char *s, int64_t *out) {
  while (*s == ' ' || *s == '\t' || *s == '\n') s++;
  bool neg = false;
  if (*s == '-' || *s == '+') {
    neg = *s == '-';
    s++;
  }
  if (!isdigit((unsigned char)*s)) return false;
  uint64_t v = 0;
  int base = 10;
  const char *p = s;
  if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
    base = 16;
    p += 2;
    if (!isxdigit((unsigned char)*p)) return false;
  } else if (p[0] == '0') {
    base = 8;
  } else {
    const char *h = p;
    while (isdigit((unsigned char)*h)) h++;
    if (*h == '#') {
      long b = strtol(p, NULL, 10);
      if (b < 2 || b > 64) return false;
      base = (int)b;
      p = h + 1;
      if (!*p) return false;
    }
  }
  for (; *p; p++) {
    int c = (unsigned char)*p, d;
    if (c >= '0' && c <= '9') d = c - '0';
    else if (c >= 'a' && c <= 'z') d = c - 'a' + 10;
    else if (c >= 'A' && c <= 'Z') d = base <= 36 ? c - 'A' + 10 : c - 'A' + 36;
    else if (c == '@') d = 62;
    else if (c == '_') d = 63;
    else break;
    if (d >= base) return false;
    v = v * (uint64_t)base + (uint64_t)d;
  }
  while (*p == ' ' || *p == '\t' || *p == '\n') p++;
  if (*p) return false;
  *out = neg ? (int64_t)(0 - v) : (int64_t)v;
  return true;
}


static void next(ax *a) {
  while (*a->s == ' ' || *a->s == '\t' || *a->s == '\n' || *a->s == '\r') a->s++;
  a->tstart = a->s;
  a->sub = NULL;
  char c = *a->s;
  if (!c) {
    a->tok = A_END;
    a->tlen = 0;
    return;
  }
  if (isdigit((unsigned char)c)) {
    /* a number: digits, letters, # @ _ for bases */
    const char *p = a->s;
    while (isalnum((unsigned char)*p) || *p == '#' || *p == '@' || *p == '_') p++;
    size_t n = (size_t)(p - a->s);
    char buf[128];
    if (n >= sizeof buf) {
      aerr(a, "value too great for base", a->s);
      a->tok = A_END;
      return;
    }
    memcpy(buf, a->s, n);
    buf[n] = 0;
    a->tlen = n;
    a->s = p;
    a->tok = A_NUM;
    if (!sh_arith_parse_int(buf, &a->num)) {
      const char *h = strchr(buf, '#');
      if (h) {
        long b = strtol(buf, NULL, 10);
        if (b < 2 || b > 64) aerr(a, "invalid arithmetic base", a->tstart);
        else aerr(a, "value too great for base", a->tstart);
      } else if (buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X') && !buf[2]) {
        aerr(a, "invalid number", a->tstart);
      } else if (buf[0] == '0' && !(buf[1] == 'x' || buf[1] == 'X')) {
        bool alldig = true;
        for (char *q = buf; *q; q++) alldig &= isdigit((unsigned char)*q) != 0;
        aerr(a, alldig ? "value too great for base" : "invalid number", a->tstart);
      } else {
        aerr(a, "invalid number", a->tstart);
      }
    }
    return;
  }
  if (sh_is_name_start((unsigned char)c)) {
    const char *p = a->s;
    while (sh_is_name_char((unsigned char)*p)) p++;
    a->tlen = (size_t)(p - a->s);
    a->s = p;
    a->tok = A_NAME;
    if (*a->s == '[') {
      int depth = 0;
      const char *q = a->s;
      for (; *q; q++) {
        if (*q == '[') depth++;
        else if (*q == ']' && --depth == 0) break;
      }
      if (*q == ']') {
        a->sub = a->s + 1;
        a->sublen = (size_t)(q - a->s - 1);
        a->s = q + 1;
      } else {
        aerr(a, "bad array subscript", a->s);
      }
    }
    return;
  }
  if (c == '(') {
    a->s++;
    a->tok = A_LP;
    a->tlen = 1;
    return;
  }
  if (c == ')') {
    a->s++;
    a->tok = A_RP;
    a->tlen = 1;
    return;
  }
  {
    /* operators: the longest match, by the first character */
    char c1 = a->s[1], c2 = c1 ? a->s[2] : 0;
    size_t n = 0;
    switch (c) {
    case '<': case '>':
      if (c1 == c) n = c2 == '=' ? 3 : 2;
      else n = c1 == '=' ? 2 : 1;
      break;
    case '*':
      n = c1 == '*' ? 2 : c1 == '=' ? 2 : 1;
      break;
    case '+': case '-':
      n = (c1 == c || c1 == '=') ? 2 : 1;
      break;
    case '&': case '|':
      n = (c1 == c || c1 == '=') ? 2 : 1;
      break;
    case '=': case '!':
      n = c1 == '=' ? 2 : 1;
      break;
    case '/': case '%': case '^':
      n = c1 == '=' ? 2 : 1;
      break;
    case '~': case '?': case ':': case ',':
      n = 1;
      break;
    default:
      break;
    }
    if (n) {
      memcpy(a->op, a->s, n);
      a->op[n] = 0;
      a->s += n;
      a->tok = A_OP;
      a->tlen = n;
      return;
    }
  }
  a->tok = A_END;
  aerr(a, "syntax error: invalid arithmetic operator", a->s);
}

static inline bool is_op(ax *a, const char *op) {
  if (a->tok != A_OP || a->op[0] != op[0]) return false;
  if (a->op[1] != op[1]) return false;
  return !op[1] || a->op[2] == op[2];
}

/* ---- variables ------------------------------------------------------------------------ */

typedef struct lval {
  char name[256];
  bool has_sub;
  char *sub;       /* subscript text (malloc'd) */
} lval;

static int64_t eval_text(ax *a, const char *text);

/* Evaluates a subscript for an indexed array. */
static int64_t sub_index(ax *a, const char *sub) {
  char *exp = sh_expand_arith_text(a->sh, sub);
  if (!exp) {
    a->err = true;
    return 0;
  }
  int64_t v = eval_text(a, exp);
  free(exp);
  return v;
}

static int64_t var_value(ax *a, lval *lv) {
  sh_shell *sh = a->sh;
  const char *val = NULL;
  sh_var *v = sh_var_find(sh, lv->name);
  if (lv->has_sub) {
    if (v && (v->flags & SH_V_ASSOC)) {
      char *key = sh_expand_subscript(sh, lv->sub); /* A['k'] too: quotes go */
      if (!key) {
        a->err = true;
        return 0;
      }
      val = sh_assoc_get(v->assoc, key);
      free(key);
    } else {
      int64_t idx = sub_index(a, lv->sub);
      if (a->err) return 0;
      if (v && (v->flags & SH_V_ARRAY)) {
        if (idx < 0) {
          int64_t max = sh_array_max(v->arr);
          if (max + 1 + idx < 0) {
            /* bash reports it and the value is 0 */
            if (!a->noeval) sh_error(sh, "%s: bad array subscript", lv->name);
            return 0;
          }
          idx += max + 1;
        }
        val = sh_array_get(v->arr, idx);
      } else if (v && (idx == 0 || idx == -1) && !(v->flags & SH_V_UNSET)) {
        val = v->str;
      }
    }
  } else if (v && !(v->flags & SH_V_UNSET)) {
    if (v->flags & SH_V_ARRAY) val = sh_array_get(v->arr, 0);
    else if (v->flags & SH_V_ASSOC) val = sh_assoc_get(v->assoc, "0");
    else val = v->str;
  }
  if (!val) {
    if (sh->opt[SH_OPT_NOUNSET] && !a->noeval) {
      sh_error(sh, "%s: unbound variable", lv->name);
      a->err = true;
      sh_fatal_exit(sh, sh_expansion_error_status(sh));
    }
    return 0;
  }
  int64_t n;
  if (sh_arith_parse_int(val, &n)) return n;
  if (!*val) return 0;
  return eval_text(a, val);
}

static void var_store(ax *a, lval *lv, int64_t value) {
  if (a->noeval || a->err) return;
  sh_shell *sh = a->sh;
  char buf[32];
  snprintf(buf, sizeof buf, "%" PRId64, value);
  if (!lv->has_sub) {
    if (sh_var_set(sh, lv->name, buf, 0)) a->err = true;
    return;
  }
  int err;
  sh_var *v = sh_var_find(sh, lv->name);
  if (v && (v->flags & SH_V_ASSOC)) {
    char *key = sh_expand_subscript(sh, lv->sub); /* A['k'] too: quotes go */
    if (!key) {
      a->err = true;
      return;
    }
    if (sh_var_set_key(sh, v, key, buf, false)) a->err = true;
    free(key);
    return;
  }
  int64_t idx = sub_index(a, lv->sub);
  if (a->err) return;
  v = sh_var_get_for_write(sh, lv->name, 0, &err);
  if (!v) {
    a->err = true;
    return;
  }
  if (sh_var_set_index(sh, v, idx, buf, false)) a->err = true;
}

/* ---- the grammar ------------------------------------------------------------------------ */

static int64_t p_comma(ax *a);
static int64_t p_assign(ax *a);
static int64_t p_unary(ax *a);

static int64_t p_primary(ax *a) {
  if (a->err) return 0;
  if (a->tok == A_NUM) {
    int64_t v = a->num;
    next(a);
    return v;
  }
  if (a->tok == A_LP) {
    if (++a->depth > ARITH_DEPTH_MAX * 16) {
      aerr(a, "expression recursion level exceeded", a->tstart);
      return 0;
    }
    next(a);
    int64_t v = p_comma(a);
    a->depth--;
    if (a->tok != A_RP) {
      aerr(a, "missing `)'", a->tstart);
      return 0;
    }
    next(a);
    return v;
  }
  if (a->tok == A_NAME) {
    lval lv = {0};
    size_t n = a->tlen < sizeof lv.name - 1 ? a->tlen : sizeof lv.name - 1;
    memcpy(lv.name, a->tstart, n);
    lv.name[n] = 0;
    if (a->sub) {
      lv.has_sub = true;
      lv.sub = sh_xstrndup(a->sub, a->sublen);
    }
    next(a);
    int64_t v;
    if (is_op(a, "++") || is_op(a, "--")) {
      bool inc = a->op[0] == '+';
      v = var_value(a, &lv);
      var_store(a, &lv, (int64_t)((uint64_t)v + (inc ? 1 : (uint64_t)-1)));
      next(a);
    } else {
      v = a->noeval ? 0 : var_value(a, &lv);
    }
    free(lv.sub);
    return v;
  }
  if (a->tok == A_END) {
    aerr(a, "syntax error: operand expected", a->tstart);
    return 0;
  }
  aerr(a, "syntax error: operand expected", a->tstart);
  return 0;
}

static int64_t p_unary(ax *a) {
  if (a->err) return 0;
  if (++a->depth > ARITH_DEPTH_MAX * 16) {
    aerr(a, "expression recursion level exceeded", a->tstart);
    return 0;
  }
  int64_t v;
  if (is_op(a, "++") || is_op(a, "--")) {
    bool inc = a->op[0] == '+';
    next(a);
    if (a->tok != A_NAME) {
      /* ++5 is +(+5) in bash */
      v = p_unary(a);
      a->depth--;
      return v;
    }
    lval lv = {0};
    size_t n = a->tlen < sizeof lv.name - 1 ? a->tlen : sizeof lv.name - 1;
    memcpy(lv.name, a->tstart, n);
    if (a->sub) {
      lv.has_sub = true;
      lv.sub = sh_xstrndup(a->sub, a->sublen);
    }
    next(a);
    v = (int64_t)((uint64_t)var_value(a, &lv) + (inc ? 1 : (uint64_t)-1));
    var_store(a, &lv, v);
    free(lv.sub);
  } else if (is_op(a, "!")) {
    next(a);
    v = !p_unary(a);
  } else if (is_op(a, "~")) {
    next(a);
    v = ~p_unary(a);
  } else if (is_op(a, "-")) {
    next(a);
    v = (int64_t)(0 - (uint64_t)p_unary(a));
  } else if (is_op(a, "+")) {
    next(a);
    v = p_unary(a);
  } else {
    v = p_primary(a);
  }
  a->depth--;
  return v;
}

static int64_t ipow(ax *a, int64_t b, int64_t e) {
  if (e < 0) {
    aerr(a, "exponent less than 0", a->tstart);
    return 0;
  }
  uint64_t r = 1, x = (uint64_t)b;
  while (e) {
    if (e & 1) r *= x;
    x *= x;
    e >>= 1;
  }
  return (int64_t)r;
}

static int64_t p_pow(ax *a) {
  int64_t b = p_unary(a);
  if (is_op(a, "**")) {
    next(a);
    int64_t e = p_pow(a); /* right associative */
    return a->noeval ? 0 : ipow(a, b, e);
  }
  return b;
}

static int64_t divide(ax *a, int64_t l, int64_t r, char op, const char *tok) {
  if (a->noeval) return 0;
  if (r == 0) {
    aerr(a, "division by 0", tok);
    return 0;
  }
  if (l == INT64_MIN && r == -1) return op == '/' ? INT64_MIN : 0;
  return op == '/' ? l / r : l % r;
}

static int64_t p_mul(ax *a) {
  int64_t l = p_pow(a);
  while (!a->err && a->tok == A_OP && (is_op(a, "*") || is_op(a, "/") || is_op(a, "%"))) {
    char op = a->op[0];
    next(a);
    const char *tok = a->tstart;
    int64_t r = p_pow(a);
    if (op == '*') l = (int64_t)((uint64_t)l * (uint64_t)r);
    else l = divide(a, l, r, op, tok);
  }
  return l;
}

static int64_t p_add(ax *a) {
  int64_t l = p_mul(a);
  while (!a->err && (is_op(a, "+") || is_op(a, "-"))) {
    char op = a->op[0];
    next(a);
    int64_t r = p_mul(a);
    l = op == '+' ? (int64_t)((uint64_t)l + (uint64_t)r) : (int64_t)((uint64_t)l - (uint64_t)r);
  }
  return l;
}

static int64_t p_shift(ax *a) {
  int64_t l = p_add(a);
  while (!a->err && (is_op(a, "<<") || is_op(a, ">>"))) {
    bool left = a->op[0] == '<';
    next(a);
    int64_t r = p_add(a);
    if (left) l = (int64_t)((uint64_t)l << (r & 63));
    else l = l >> (r & 63);
  }
  return l;
}

static int64_t p_rel(ax *a) {
  int64_t l = p_shift(a);
  while (!a->err && (is_op(a, "<") || is_op(a, ">") || is_op(a, "<=") || is_op(a, ">="))) {
    char op[4];
    memcpy(op, a->op, 4);
    next(a);
    int64_t r = p_shift(a);
    if (!strcmp(op, "<")) l = l < r;
    else if (!strcmp(op, ">")) l = l > r;
    else if (!strcmp(op, "<=")) l = l <= r;
    else l = l >= r;
  }
  return l;
}

static int64_t p_eq(ax *a) {
  int64_t l = p_rel(a);
  while (!a->err && (is_op(a, "==") || is_op(a, "!="))) {
    bool eq = a->op[0] == '=';
    next(a);
    int64_t r = p_rel(a);
    l = eq ? l == r : l != r;
  }
  return l;
}

static int64_t p_band(ax *a) {
  int64_t l = p_eq(a);
  while (!a->err && is_op(a, "&")) {
    next(a);
    l &= p_eq(a);
  }
  return l;
}

static int64_t p_bxor(ax *a) {
  int64_t l = p_band(a);
  while (!a->err && is_op(a, "^")) {
    next(a);
    l ^= p_band(a);
  }
  return l;
}

static int64_t p_bor(ax *a) {
  int64_t l = p_bxor(a);
  while (!a->err && is_op(a, "|")) {
    next(a);
    l |= p_bxor(a);
  }
  return l;
}

static int64_t p_land(ax *a) {
  int64_t l = p_bor(a);
  while (!a->err && is_op(a, "&&")) {
    next(a);
    if (!l) a->noeval++;
    int64_t r = p_bor(a);
    if (!l) a->noeval--;
    l = l && r;
  }
  return l;
}

static int64_t p_lor(ax *a) {
  int64_t l = p_land(a);
  while (!a->err && is_op(a, "||")) {
    next(a);
    if (l) a->noeval++;
    int64_t r = p_land(a);
    if (l) a->noeval--;
    l = l || r;
  }
  return l;
}

static int64_t p_cond(ax *a) {
  int64_t c = p_lor(a);
  if (!a->err && is_op(a, "?")) {
    next(a);
    if (!c) a->noeval++;
    int64_t t = p_assign(a);
    if (!c) a->noeval--;
    if (!is_op(a, ":")) {
      aerr(a, "syntax error: `:' expected for conditional expression", a->tstart);
      return 0;
    }
    next(a);
    if (c) a->noeval++;
    int64_t f = p_cond(a);
    if (c) a->noeval--;
    return c ? t : f;
  }
  return c;
}

static bool is_assign_op(ax *a) {
  if (a->tok != A_OP) return false;
  static const char *const aops[] = {"=", "*=", "/=", "%=", "+=", "-=", "<<=", ">>=", "&=", "^=", "|=", NULL};
  for (int i = 0; aops[i]; i++)
    if (strcmp(a->op, aops[i]) == 0) return true;
  return false;
}

static int64_t p_assign(ax *a) {
  if (a->err) return 0;
  if (a->tok == A_NAME) {
    ax save = *a;
    lval lv = {0};
    size_t n = a->tlen < sizeof lv.name - 1 ? a->tlen : sizeof lv.name - 1;
    memcpy(lv.name, a->tstart, n);
    const char *sub = a->sub;
    size_t sublen = a->sublen;
    next(a);
    if (is_assign_op(a)) {
      char op[4];
      memcpy(op, a->op, 4);
      if (sub) {
        lv.has_sub = true;
        lv.sub = sh_xstrndup(sub, sublen);
      }
      next(a);
      const char *rtok = a->tstart;
      int64_t r = p_assign(a);
      int64_t v = r;
      if (strcmp(op, "=") != 0 && !a->err) {
        int64_t l = var_value(a, &lv);
        switch (op[0]) {
        case '*': v = (int64_t)((uint64_t)l * (uint64_t)r); break;
        case '/': v = divide(a, l, r, '/', rtok); break;
        case '%': v = divide(a, l, r, '%', rtok); break;
        case '+': v = (int64_t)((uint64_t)l + (uint64_t)r); break;
        case '-': v = (int64_t)((uint64_t)l - (uint64_t)r); break;
        case '<': v = (int64_t)((uint64_t)l << (r & 63)); break;
        case '>': v = l >> (r & 63); break;
        case '&': v = l & r; break;
        case '^': v = l ^ r; break;
        case '|': v = l | r; break;
        }
      }
      if (!a->err) var_store(a, &lv, v);
      free(lv.sub);
      return v;
    }
    *a = save;
  }
  return p_cond(a);
}

static int64_t p_comma(ax *a) {
  int64_t v = p_assign(a);
  while (!a->err && is_op(a, ",")) {
    next(a);
    v = p_assign(a);
  }
  return v;
}

/* Evaluates a nested text (a variable's value) with the same state. */
static int64_t eval_text(ax *a, const char *text) {
  if (a->depth >= ARITH_DEPTH_MAX) {
    aerr(a, "expression recursion level exceeded", text);
    return 0;
  }
  ax sub = *a;
  sub.expr = text;
  sub.s = text;
  sub.depth = a->depth + 1;
  sub.err = false;
  next(&sub);
  int64_t v = sub.tok == A_END ? 0 : p_comma(&sub);
  if (!sub.err && sub.tok != A_END) aerr(&sub, "syntax error in expression", sub.tstart);
  if (sub.err) a->err = true;
  return v;
}

int sh_arith_eval(sh_shell *sh, const char *expr, int64_t *out) {
  ax a = {0};
  a.sh = sh;
  a.expr = expr;
  a.s = expr;
  *out = 0;
  next(&a);
  if (a.tok == A_END && !a.err) return 0; /* empty: 0 */
  int64_t v = p_comma(&a);
  if (!a.err && a.tok != A_END) {
    if (a.tok == A_RP)
      aerr(&a, "syntax error: invalid arithmetic operator", a.tstart);
    else
      aerr(&a, "syntax error in expression", a.tstart);
  }
  if (a.err) return 1;
  *out = v;
  return 0;
}
