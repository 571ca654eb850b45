/*
 * arith.c - shell arithmetic evaluation (arith.h).
 *
 * An evaluator straight over the text (bash re-evaluates the expanded text
 * every time too). Precedence, lowest first:
 *   ,  = op=  ?:  ||  &&  |  ^  &  == !=  < > <= >=  << >>  + -  * / %  **
 *   unary ! ~ + - ++ --   postfix ++ --   ( ) numbers names name[sub]
 * Comma, assignment, ?: and ** are recursive-descent functions; the ten
 * left-associative binary levels from || to * / % are one precedence-climbing
 * loop over a table (p_binary), so a bare number or name does not descend
 * through a function per level. The lexer turns each operator into a code
 * once (lex_op), so the grammar compares integers, never strings.
 * `noeval` skips side effects and division errors in the arm not taken by
 * && || ?:, as bash does. Arithmetic wraps at 64 bits (computed unsigned).
 * A variable's value is itself evaluated as an expression, to a bounded depth;
 * `depth` counts unary operators, parentheses and those nested values, and
 * both its limits give bash's "expression recursion level exceeded".
 *
 * A text that recurs (a loop's `i<1000`) need not be lexed and parsed each
 * time: sh_arith_eval_cached has the text evaluator record the tree it walks
 * and keeps it in a small per-shell cache keyed by the text; the next
 * evaluations run the tree (run) with the same helpers, in the same order,
 * with the same noeval and depth, so results, messages and side effects are
 * the text evaluator's. Only texts that evaluated without an error are kept;
 * anything else, and every text that is not a script's literal arithmetic (a
 * variable's value, an expanded subscript), takes the text evaluator.
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
/* Longest number token (digits, letters, base prefix); longer ones are
 * "value too great for base", as every such token overflows anyway. */
#define ARITH_NUM_MAX 128

typedef enum { A_END, A_NUM, A_NAME, A_OP, A_LP, A_RP } atok;

/* Operator codes. The binary ones from O_LOR to O_MOD have a precedence in
 * binary_prec; each compound assignment maps to its binary operator in
 * assign_base. */
typedef enum {
  O_NONE,
  O_LOR, O_LAND, O_BOR, O_BXOR, O_BAND, O_EQ, O_NE, O_LT, O_GT, O_LE, O_GE,
  O_SHL, O_SHR, O_ADD, O_SUB, O_MUL, O_DIV, O_MOD,
  O_POW, O_NOT, O_TILDE, O_INC, O_DEC, O_QUEST, O_COLON, O_COMMA,
  O_ASSIGN, O_MULEQ, O_DIVEQ, O_MODEQ, O_ADDEQ, O_SUBEQ, O_SHLEQ, O_SHREQ,
  O_ANDEQ, O_XOREQ, O_OREQ,
  O_COUNT
} aop;

/* Binding strength of the left-associative binary operators (0: not one). */
static const unsigned char binary_prec[O_COUNT] = {
    [O_LOR] = 1, [O_LAND] = 2, [O_BOR] = 3, [O_BXOR] = 4, [O_BAND] = 5,
    [O_EQ] = 6,  [O_NE] = 6,   [O_LT] = 7,  [O_GT] = 7,   [O_LE] = 7,  [O_GE] = 7,
    [O_SHL] = 8, [O_SHR] = 8,  [O_ADD] = 9, [O_SUB] = 9,  [O_MUL] = 10, [O_DIV] = 10,
    [O_MOD] = 10};

/* For an assignment operator: the binary operator it applies (O_NONE for =). */
static const unsigned char assign_base[O_COUNT] = {
    [O_MULEQ] = O_MUL, [O_DIVEQ] = O_DIV, [O_MODEQ] = O_MOD, [O_ADDEQ] = O_ADD,
    [O_SUBEQ] = O_SUB, [O_SHLEQ] = O_SHL, [O_SHREQ] = O_SHR, [O_ANDEQ] = O_BAND,
    [O_XOREQ] = O_BXOR, [O_OREQ] = O_BOR};

static bool is_assign_code(aop op) { return op >= O_ASSIGN && op <= O_OREQ; }

typedef struct ax {
  sh_shell *sh;
  const char *expr;   /* the whole expression (messages) */
  const char *s;      /* cursor */
  int depth;          /* recursion (nested parentheses and variable values) */
  int noeval;         /* > 0: do not evaluate side effects */
  bool err;           /* an error was reported: unwind */
  /* current token */
  atok tok;           /* its kind */
  const char *tstart; /* token text */
  const char *ptstart; /* the previous token's text (bash names it at the end) */
  size_t tlen;        /* its length */
  int64_t num;        /* A_NUM: the value */
  aop op;             /* A_OP: the operator */
  /* for A_NAME: subscript text (inside [ ]) */
  const char *sub;    /* NULL when the name has none */
  size_t sublen;      /* its length */
  struct arec *rec;   /* recording the parse (see "recording"), or NULL */
  const char *trunc_at; /* a bad number's end: its message shows the text up to there */
  int last;           /* recording: the node of the last subexpression parsed */
} ax;

/* Where the last token of `expr` starts (with what follows it): bash's error
 * token for an error found at the end of the text ("2 + " gives "+ "). */
static const char *last_token(const char *expr) {
  const char *end = expr + strlen(expr);
  while (end > expr && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\n')) end--;
  if (end == expr) return end;
  const char *p = end;
  bool word = isalnum((unsigned char)p[-1]) || p[-1] == '_' || p[-1] == '#' || p[-1] == '@';
  while (p > expr) {
    unsigned char c = (unsigned char)p[-1];
    bool w = isalnum(c) || c == '_' || c == '#' || c == '@';
    if (word ? !w : (w || !strchr("+-*/%<>=!&|^~?:,", c))) break;
    p--;
  }
  return p;
}

static void aerr(ax *a, const char *msg, const char *tok) {
  if (a->err) return;
  a->err = true;
  const char *t = tok ? tok : a->tstart;
  if (!t) t = "";
  /* bash strips leading blanks from the error token */
  while (*t == ' ' || *t == '\t' || *t == '\n') t++;
  if (!*t) /* at the end: bash shows the last token read */
    t = a->ptstart && a->ptstart >= a->expr && *a->ptstart ? a->ptstart : last_token(a->expr);
  const char *e = a->expr; /* and from the expression */
  while (*e == ' ' || *e == '\t' || *e == '\n') e++;
  const char *ctx = a->sh->arith_context;
  int elen = a->trunc_at && a->trunc_at >= e ? (int)(a->trunc_at - e) : (int)strlen(e);
  int tlen = a->trunc_at && a->trunc_at >= t ? (int)(a->trunc_at - t) : (int)strlen(t);
  sh_error(a->sh, "%s%s%.*s: %s (error token is \"%.*s\")", ctx ? ctx : "", ctx ? ": " : "", elen, e, msg,
           tlen, t);
}

bool sh_arith_parse_int(const char *s, int64_t *out) {
  if (*s >= '1' && *s <= '9') {
    /* the common case: plain decimal digits (they wrap like the loop below) */
    uint64_t v = 0;
    const char *p = s;
    while (*p >= '0' && *p <= '9') v = v * 10 + (uint64_t)(*p++ - '0');
    if (!*p) {
      *out = (int64_t)v;
      return true;
    }
  }
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

/* The operator at s (the longest match, by its first character): its code
 * and *len, or O_NONE. */
static aop lex_op(const char *s, size_t *len) {
  char c = s[0], c1 = c ? s[1] : 0, c2 = c1 ? s[2] : 0;
  *len = 1;
  switch (c) {
  case '<': case '>':
    if (c1 == c) {
      *len = c2 == '=' ? 3 : 2;
      return c2 == '=' ? (c == '<' ? O_SHLEQ : O_SHREQ) : (c == '<' ? O_SHL : O_SHR);
    }
    if (c1 == '=') {
      *len = 2;
      return c == '<' ? O_LE : O_GE;
    }
    return c == '<' ? O_LT : O_GT;
  case '*':
    if (c1 == '*' || c1 == '=') *len = 2;
    return c1 == '*' ? O_POW : c1 == '=' ? O_MULEQ : O_MUL;
  case '+': case '-':
    if (c1 == c || c1 == '=') *len = 2;
    if (c == '+') return c1 == c ? O_INC : c1 == '=' ? O_ADDEQ : O_ADD;
    return c1 == c ? O_DEC : c1 == '=' ? O_SUBEQ : O_SUB;
  case '&': case '|':
    if (c1 == c || c1 == '=') *len = 2;
    if (c == '&') return c1 == c ? O_LAND : c1 == '=' ? O_ANDEQ : O_BAND;
    return c1 == c ? O_LOR : c1 == '=' ? O_OREQ : O_BOR;
  case '=': case '!':
    if (c1 == '=') *len = 2;
    if (c == '=') return c1 == '=' ? O_EQ : O_ASSIGN;
    return c1 == '=' ? O_NE : O_NOT;
  case '/': case '%': case '^':
    if (c1 == '=') *len = 2;
    if (c == '/') return c1 == '=' ? O_DIVEQ : O_DIV;
    if (c == '%') return c1 == '=' ? O_MODEQ : O_MOD;
    return c1 == '=' ? O_XOREQ : O_BXOR;
  case '~': return O_TILDE;
  case '?': return O_QUEST;
  case ':': return O_COLON;
  case ',': return O_COMMA;
  default:
    *len = 0;
    return O_NONE;
  }
}

static bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

static bool is_number_char(char c) {
  return isalnum((unsigned char)c) || c == '#' || c == '@' || c == '_';
}

/* A number token at a->s: digits, letters, # @ _ for bases. */
static void lex_number(ax *a) {
  const char *p = a->s;
  while (is_number_char(*p)) p++;
  size_t n = (size_t)(p - a->s);
  a->tlen = n;
  a->tok = A_NUM;
  if (n < ARITH_NUM_MAX && (a->s[0] != '0' || n == 1)) {
    /* plain decimal: the value directly (wrapping like sh_arith_parse_int) */
    uint64_t v = 0;
    const char *q = a->s;
    while (q < p && *q >= '0' && *q <= '9') v = v * 10 + (uint64_t)(*q++ - '0');
    if (q == p) {
      a->num = (int64_t)v;
      a->s = p;
      return;
    }
  }
  char buf[ARITH_NUM_MAX];
  if (n >= sizeof buf) {
    aerr(a, "value too great for base", a->s);
    a->tok = A_END;
    return;
  }
  memcpy(buf, a->s, n);
  buf[n] = 0;
  a->s = p;
  if (!sh_arith_parse_int(buf, &a->num)) {
    if (buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X') && !buf[2]) {
      a->num = 0; /* bash: 0x alone is 0 */
      return;
    }
    /* bash reads the number as a string of its own: the message shows the
     * text up to the number's end, and the number as the error token */
    a->trunc_at = p;
    const char *h = strchr(buf, '#');
    long b = h ? strtol(buf, NULL, 10) : 10;
    aerr(a, h && (b < 2 || b > 64) ? "invalid arithmetic base" : "value too great for base", a->tstart);
  }
}

/* A name at a->s, with its [subscript] when one follows. */
static void lex_name(ax *a) {
  const char *p = a->s;
  while (sh_is_name_char((unsigned char)*p)) p++;
  a->tlen = (size_t)(p - a->s);
  a->s = p;
  a->tok = A_NAME;
  if (*a->s != '[') return;
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

static void next(ax *a) {
  while (is_blank(*a->s)) a->s++;
  a->ptstart = a->tstart;
  a->tstart = a->s;
  a->sub = NULL;
  char c = *a->s;
  if (!c) {
    a->tok = A_END;
    a->tlen = 0;
    return;
  }
  if (c >= '0' && c <= '9') {
    lex_number(a);
    return;
  }
  if (sh_is_name_start((unsigned char)c)) {
    lex_name(a);
    return;
  }
  if (c == '(' || c == ')') {
    a->s++;
    a->tok = c == '(' ? A_LP : A_RP;
    a->tlen = 1;
    return;
  }
  size_t n;
  aop op = lex_op(a->s, &n);
  if ((op == O_INC || op == O_DEC) && a->tok != A_NAME) {
    /* bash: ++ and -- after no name increment only a name that follows;
     * otherwise they are two signs (x++ ++ fails on the second +) */
    const char *q = a->s + 2;
    while (is_blank(*q)) q++;
    if (!sh_is_name_start((unsigned char)*q)) {
      op = op == O_INC ? O_ADD : O_SUB;
      n = 1;
    }
  }
  if (op != O_NONE) {
    a->op = op;
    a->s += n;
    a->tok = A_OP;
    a->tlen = n;
    return;
  }
  a->tok = A_END;
  aerr(a, "syntax error: invalid arithmetic operator", a->s);
}

static inline bool is_op(const ax *a, aop op) { return a->tok == A_OP && a->op == op; }

/* ---- variables ------------------------------------------------------------------------ */

/* A variable operand: name or name[sub]. */
typedef struct lval {
  const char *name; /* NUL-terminated, at most 255 bytes */
  const char *sub;  /* subscript text, NULL without one */
  char *owned;      /* the text evaluator's copy of sub (malloc'd), else NULL */
} lval;

#define LVAL_NAME_MAX 256

/* The variable the current A_NAME token names, its name copied into
 * namebuf (LVAL_NAME_MAX bytes, cut like bash's 255); lval_free after. */
static void lval_from_token(const ax *a, lval *lv, char *namebuf) {
  size_t n = a->tlen < LVAL_NAME_MAX - 1 ? a->tlen : LVAL_NAME_MAX - 1;
  memcpy(namebuf, a->tstart, n);
  namebuf[n] = 0;
  lv->name = namebuf;
  lv->owned = a->sub ? sh_xstrndup(a->sub, a->sublen) : NULL;
  lv->sub = lv->owned;
}

static void lval_free(lval *lv) { free(lv->owned); }

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

static int64_t var_value(ax *a, const lval *lv) {
  sh_shell *sh = a->sh;
  const char *val = NULL;
  sh_var *v = sh_var_find(sh, lv->name);
  if (lv->sub) {
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
          int64_t from_end = sh_array_from_end(v->arr, idx);
          if (from_end < 0) {
            /* bash reports it and the value is 0 */
            if (!a->noeval) sh_error(sh, "%s: bad array subscript", lv->name);
            return 0;
          }
          idx = from_end;
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

static void var_store(ax *a, const lval *lv, int64_t value) {
  if (a->noeval || a->err) return;
  sh_shell *sh = a->sh;
  char buf[SH_I64_LEN];
  sh_fmt_i64(buf, value);
  if (!lv->sub) {
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

/* ++ or -- on a variable (either side): stores and returns the new value;
 * *old gets the value before. */
static int64_t step_var(ax *a, const lval *lv, bool inc, int64_t *old) {
  *old = var_value(a, lv);
  int64_t v = (int64_t)((uint64_t)*old + (inc ? 1 : (uint64_t)-1));
  var_store(a, lv, v);
  return v;
}

/* ---- operators --------------------------------------------------------------------------- */

/* Both evaluators share these: the text evaluator below and the program
 * runner further down. `tok` is where the message's error token starts. */

static int64_t ipow(ax *a, int64_t b, int64_t e, const char *tok) {
  if (e < 0) {
    aerr(a, "exponent less than 0", tok);
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

static int64_t divide(ax *a, int64_t l, int64_t r, char op, const char *tok) {
  if (a->noeval) return 0;
  if (r == 0) {
    aerr(a, "division by 0", tok);
    return 0;
  }
  if (l == INT64_MIN && r == -1) return op == '/' ? INT64_MIN : 0;
  return op == '/' ? l / r : l % r;
}

/* l op r for a binary operator other than && and || (which short-circuit);
 * rtok is where r's text starts (the division error token). */
static int64_t binop(ax *a, aop op, int64_t l, int64_t r, const char *rtok) {
  switch (op) {
  case O_MUL: return (int64_t)((uint64_t)l * (uint64_t)r);
  case O_DIV: return divide(a, l, r, '/', rtok);
  case O_MOD: return divide(a, l, r, '%', rtok);
  case O_ADD: return (int64_t)((uint64_t)l + (uint64_t)r);
  case O_SUB: return (int64_t)((uint64_t)l - (uint64_t)r);
  case O_SHL: return (int64_t)((uint64_t)l << (r & 63));
  case O_SHR: return l >> (r & 63);
  case O_LT: return l < r;
  case O_GT: return l > r;
  case O_LE: return l <= r;
  case O_GE: return l >= r;
  case O_EQ: return l == r;
  case O_NE: return l != r;
  case O_BAND: return l & r;
  case O_BXOR: return l ^ r;
  case O_BOR: return l | r;
  default: return r; /* not a binary operator: cannot happen */
  }
}

/* One more level of unary operators or parentheses: false (after bash's
 * message) past the limit. */
static bool enter_level(ax *a, const char *tok) {
  if (++a->depth <= ARITH_DEPTH_MAX * 16) return true;
  aerr(a, "expression recursion level exceeded", tok);
  return false;
}

/* ---- recording a program ------------------------------------------------------------------- */

/*
 * While the text evaluator parses an expression that will recur, it also
 * records the tree it walked, so the next evaluation of the same text runs the
 * tree (run below) instead of lexing and parsing again. The tree is purely
 * syntactic: every node is recorded whether its part was evaluated or skipped
 * (noeval), and a text is kept only when its evaluation succeeded, i.e. it
 * parsed to the end without an error. Its shape mirrors the text evaluator's
 * calls one for one, because the depth that bounds recursion counts them:
 * every operand (the kinds up to N_PAREN) is one p_unary level, and N_PAREN
 * a second one (p_primary's parenthesis).
 */
typedef enum {
  N_NUM,    /* a number */
  N_VAR,    /* name or name[sub]: its value */
  N_POST,   /* name++ name-- (op) */
  N_PRE,    /* ++name --name (op) */
  N_NOT,    /* !a */
  N_BNOT,   /* ~a */
  N_NEG,    /* -a */
  N_IDENT,  /* +a, and ++a --a when a is not a name (bash: +(+a)) */
  N_PAREN,  /* (a) */
  N_POW,    /* a ** b */
  N_BIN,    /* a op b, op one of the left-associative binary operators */
  N_LAND,   /* a && b */
  N_LOR,    /* a || b */
  N_COND,   /* a ? b : c */
  N_ASSIGN, /* name op= c (op O_ASSIGN or a compound one) */
  N_COMMA,  /* a , b */
} akind;

typedef struct anode {
  uint8_t kind;  /* akind */
  uint8_t op;    /* aop: N_BIN, N_ASSIGN; O_INC or O_DEC for N_PRE and N_POST */
  uint16_t tok;  /* offset in the text of the node's first token */
  uint16_t tok2; /* N_BIN, N_ASSIGN: the right operand's; N_POW: the token after it */
  int16_t a, b;  /* operands (node indices); for names: name and subscript offsets in the pool (b -1: none) */
  int16_t c;     /* N_COND: the false arm; N_ASSIGN: the value */
  int64_t num;   /* N_NUM: the value */
} anode;

/* Texts longer than this are not kept: offsets fit the node fields, and a
 * tree (a node per token at most, 24 bytes a node) stays under 4 KiB, so a
 * shell's cache under 256 KiB however hostile the script. */
#define ARITH_PROG_TEXT_MAX 128
#define ARITH_PROG_NODES (ARITH_PROG_TEXT_MAX + 1)
#define ARITH_PROG_POOL (2 * ARITH_PROG_TEXT_MAX + 2 * ARITH_PROG_NODES)

/* A recording in progress. */
typedef struct arec {
  anode nodes[ARITH_PROG_NODES]; /* in the order they complete: the root is last */
  int n;                         /* nodes used */
  char pool[ARITH_PROG_POOL];    /* names and subscripts, NUL-terminated */
  int npool;                     /* bytes used */
  int root;                      /* the whole expression's node */
  bool full;                     /* out of room: the recording is dropped */
} arec;

/* Appends a node whose first token is at tok; a->last is its index. */
static void rec_node(ax *a, akind kind, aop op, const char *tok, int l, int r, int c) {
  arec *rc = a->rec;
  if (rc->n >= ARITH_PROG_NODES) {
    rc->full = true;
    return;
  }
  anode *n = &rc->nodes[rc->n];
  memset(n, 0, sizeof *n);
  n->kind = (uint8_t)kind;
  n->op = (uint8_t)op;
  n->tok = (uint16_t)(tok - a->expr);
  n->a = (int16_t)l;
  n->b = (int16_t)r;
  n->c = (int16_t)c;
  a->last = rc->n++;
}

/* A string into the pool: its offset, or -1 when out of room. */
static int rec_string(arec *rc, const char *s) {
  size_t n = strlen(s) + 1;
  if (n > (size_t)(ARITH_PROG_POOL - rc->npool)) {
    rc->full = true;
    return -1;
  }
  memcpy(rc->pool + rc->npool, s, n);
  rc->npool += (int)n;
  return rc->npool - (int)n;
}

/* A node on a variable (N_VAR N_POST N_PRE N_ASSIGN); value: N_ASSIGN's
 * value node. */
static void rec_var(ax *a, akind kind, aop op, const char *tok, const lval *lv, int value) {
  int name = rec_string(a->rec, lv->name);
  int sub = lv->sub ? rec_string(a->rec, lv->sub) : -1;
  rec_node(a, kind, op, tok, name, sub, value);
}

/* ---- the grammar: the text evaluator ------------------------------------------------------- */

static int64_t p_comma(ax *a);
static int64_t p_assign(ax *a);
static int64_t p_unary(ax *a);

static int64_t p_primary(ax *a) {
  if (a->err) return 0;
  const char *tok = a->tstart;
  if (a->tok == A_NUM) {
    int64_t v = a->num;
    if (a->rec) {
      rec_node(a, N_NUM, O_NONE, tok, -1, -1, -1);
      if (!a->rec->full) a->rec->nodes[a->last].num = v;
    }
    next(a);
    return v;
  }
  if (a->tok == A_LP) {
    if (!enter_level(a, tok)) return 0;
    next(a);
    int64_t v = p_comma(a);
    a->depth--;
    if (a->tok != A_RP) {
      aerr(a, "missing `)'", a->tstart);
      return 0;
    }
    if (a->rec) rec_node(a, N_PAREN, O_NONE, tok, a->last, -1, -1);
    next(a);
    return v;
  }
  if (a->tok == A_NAME) {
    char name[LVAL_NAME_MAX];
    lval lv;
    lval_from_token(a, &lv, name);
    next(a);
    int64_t v;
    if (is_op(a, O_INC) || is_op(a, O_DEC)) {
      if (a->rec) rec_var(a, N_POST, a->op, tok, &lv, -1);
      step_var(a, &lv, a->op == O_INC, &v); /* postfix: the old value */
      next(a);
    } else {
      if (a->rec) rec_var(a, N_VAR, O_NONE, tok, &lv, -1);
      v = a->noeval ? 0 : var_value(a, &lv);
    }
    lval_free(&lv);
    return v;
  }
  aerr(a, "syntax error: operand expected", a->tstart);
  return 0;
}

static int64_t p_unary(ax *a) {
  if (a->err) return 0;
  const char *tok = a->tstart;
  if (!enter_level(a, tok)) return 0;
  int64_t v;
  aop op = a->tok == A_OP ? a->op : O_NONE;
  akind kind = N_IDENT;
  switch (op) {
  case O_INC: case O_DEC:
    next(a);
    if (a->tok != A_NAME) {
      /* ++5 is +(+5) in bash */
      v = p_unary(a);
      break;
    }
    char name[LVAL_NAME_MAX];
    lval lv;
    int64_t old;
    lval_from_token(a, &lv, name);
    next(a);
    if (a->rec) rec_var(a, N_PRE, op, tok, &lv, -1);
    v = step_var(a, &lv, op == O_INC, &old);
    lval_free(&lv);
    a->depth--;
    return v;
  case O_NOT:
    next(a);
    v = !p_unary(a);
    kind = N_NOT;
    break;
  case O_TILDE:
    next(a);
    v = ~p_unary(a);
    kind = N_BNOT;
    break;
  case O_SUB:
    next(a);
    v = (int64_t)(0 - (uint64_t)p_unary(a));
    kind = N_NEG;
    break;
  case O_ADD:
    next(a);
    v = p_unary(a);
    break;
  default:
    v = p_primary(a); /* records its own node */
    a->depth--;
    return v;
  }
  if (a->rec) rec_node(a, kind, O_NONE, tok, a->last, -1, -1);
  a->depth--;
  return v;
}

static int64_t p_pow(ax *a) {
  const char *tok = a->tstart;
  int64_t b = p_unary(a);
  if (is_op(a, O_POW)) {
    int bn = a->last;
    next(a);
    int64_t e = p_pow(a); /* right associative */
    /* the error token: the one after the exponent, or at the end the last one */
    const char *etok = *a->tstart || !a->ptstart ? a->tstart : a->ptstart;
    if (a->rec) {
      rec_node(a, N_POW, O_NONE, tok, bn, a->last, -1);
      if (!a->rec->full) a->rec->nodes[a->last].tok2 = (uint16_t)(etok - a->expr);
    }
    return a->noeval ? 0 : ipow(a, b, e, etok);
  }
  return b;
}

/* The left-associative binary operators binding at least as tightly as
 * `minprec` (1 = ||, the loosest), by precedence climbing: the right operand
 * of an operator of precedence p is everything binding tighter than p. The
 * evaluation order is the recursive-descent one: left operand first. */
static int64_t p_binary(ax *a, int minprec) {
  const char *tok = a->tstart;
  int64_t l = p_pow(a);
  while (!a->err && a->tok == A_OP && binary_prec[a->op] >= minprec && binary_prec[a->op]) {
    aop op = a->op;
    int prec = binary_prec[op], ln = a->last;
    next(a);
    const char *rtok = a->tstart;
    akind kind = N_BIN;
    if (op == O_LAND || op == O_LOR) {
      /* the right arm runs without side effects when the left decides */
      bool skip = op == O_LAND ? !l : l != 0;
      if (skip) a->noeval++;
      int64_t r = p_binary(a, prec + 1);
      if (skip) a->noeval--;
      l = op == O_LAND ? (l && r) : (l || r);
      kind = op == O_LAND ? N_LAND : N_LOR;
    } else {
      int64_t r = p_binary(a, prec + 1);
      l = binop(a, op, l, r, rtok);
    }
    if (a->rec) {
      rec_node(a, kind, op, tok, ln, a->last, -1);
      if (!a->rec->full) a->rec->nodes[a->last].tok2 = (uint16_t)(rtok - a->expr);
    }
  }
  return l;
}

static int64_t p_cond(ax *a) {
  const char *tok = a->tstart;
  int64_t c = p_binary(a, 1);
  if (!a->err && is_op(a, O_QUEST)) {
    int cn = a->last;
    next(a);
    if (!c) a->noeval++;
    int64_t t = p_assign(a);
    int tn = a->last;
    if (!c) a->noeval--;
    if (!is_op(a, O_COLON)) {
      aerr(a, "syntax error: `:' expected for conditional expression", a->tstart);
      return 0;
    }
    next(a);
    if (c) a->noeval++;
    int64_t f = p_cond(a);
    if (c) a->noeval--;
    if (a->rec) rec_node(a, N_COND, O_NONE, tok, cn, tn, a->last);
    return c ? t : f;
  }
  return c;
}

/* The assignment operator after the current name token, looked at without
 * moving: O_NONE when what follows is not one. */
static aop assign_op_ahead(const ax *a) {
  const char *s = a->s;
  while (is_blank(*s)) s++;
  size_t n;
  aop op = lex_op(s, &n);
  return is_assign_code(op) ? op : O_NONE;
}

/* name op= value, after the value: the value stored (with the old one for a
 * compound op). */
static int64_t assign(ax *a, aop op, const lval *lv, int64_t v, const char *rtok) {
  if (op != O_ASSIGN && !a->err) {
    int64_t l = var_value(a, lv);
    v = binop(a, assign_base[op], l, v, rtok);
  }
  if (!a->err) var_store(a, lv, v);
  return v;
}

static int64_t p_assign(ax *a) {
  if (a->err) return 0;
  aop op = a->tok == A_NAME ? assign_op_ahead(a) : O_NONE;
  if (op == O_NONE) {
    int64_t v = p_cond(a);
    /* an assignment operator after anything but a variable (bash: 7=4) */
    if (!a->err && a->tok == A_OP && is_assign_code(a->op))
      aerr(a, "attempted assignment to non-variable", a->tstart);
    return v;
  }
  const char *tok = a->tstart;
  char name[LVAL_NAME_MAX];
  lval lv;
  lval_from_token(a, &lv, name);
  next(a); /* the operator */
  next(a);
  const char *rtok = a->tstart;
  int64_t v = p_assign(a);
  if (a->rec) {
    rec_var(a, N_ASSIGN, op, tok, &lv, a->last);
    if (!a->rec->full) a->rec->nodes[a->last].tok2 = (uint16_t)(rtok - a->expr);
  }
  v = assign(a, op, &lv, v, rtok);
  lval_free(&lv);
  return v;
}

static int64_t p_comma(ax *a) {
  const char *tok = a->tstart;
  int64_t v = p_assign(a);
  while (!a->err && is_op(a, O_COMMA)) {
    int ln = a->last;
    next(a);
    v = p_assign(a);
    if (a->rec) rec_node(a, N_COMMA, O_NONE, tok, ln, a->last, -1);
  }
  return v;
}

/* Evaluates a nested text (a variable's value) with the same state. */
static int64_t eval_text(ax *a, const char *text) {
  if (a->depth >= ARITH_DEPTH_MAX * 16) { /* bash allows 1024 nested values */
    aerr(a, "expression recursion level exceeded", text);
    return 0;
  }
  ax sub = *a;
  sub.expr = text;
  sub.s = text;
  sub.depth = a->depth + 1;
  sub.err = false;
  sub.rec = NULL; /* a value is not part of the recorded text */
  next(&sub);
  int64_t v = sub.tok == A_END ? 0 : p_comma(&sub);
  if (!sub.err && sub.tok != A_END) aerr(&sub, "syntax error in expression", sub.tstart);
  if (sub.err) a->err = true;
  return v;
}

/* The text evaluator's entry: sh_arith_eval, recording into rec if set. */
static int eval_top(sh_shell *sh, const char *expr, int64_t *out, arec *rec) {
  ax a = {0};
  a.sh = sh;
  a.expr = expr;
  a.s = expr;
  a.rec = rec;
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
  if (rec) rec->root = a.last;
  *out = v;
  return 0;
}

int sh_arith_eval(sh_shell *sh, const char *expr, int64_t *out) { return eval_top(sh, expr, out, NULL); }

/* ---- running a recorded program ------------------------------------------------------------- */

/* A recorded expression: its text and tree. */
typedef struct aprog {
  char *text;   /* the expression (owned) */
  uint32_t hash; /* text_hash of text */
  anode *nodes; /* the tree (owned) */
  int n;        /* node count */
  int root;     /* the whole expression's node */
  char *pool;   /* names and subscripts (owned) */
} aprog;

static lval prog_lval(const aprog *p, const anode *n) {
  lval lv = {p->pool + n->a, n->b >= 0 ? p->pool + n->b : NULL, NULL};
  return lv;
}

/* Evaluates node i as the text evaluator evaluates its text: the same
 * calls in the same order with the same noeval and depth, the same error
 * tokens, nothing after an error. */
static int64_t run(ax *a, const aprog *p, int i) {
  if (a->err) return 0;
  const anode *n = &p->nodes[i];
  const char *tok = a->expr + n->tok;
  if (n->kind <= N_PAREN && !enter_level(a, tok)) return 0; /* p_unary */
  int64_t v = 0, l, r;
  lval lv;
  switch ((akind)n->kind) {
  case N_NUM:
    v = n->num;
    break;
  case N_VAR:
    lv = prog_lval(p, n);
    v = a->noeval ? 0 : var_value(a, &lv);
    break;
  case N_POST:
    lv = prog_lval(p, n);
    step_var(a, &lv, n->op == O_INC, &v);
    break;
  case N_PRE:
    lv = prog_lval(p, n);
    v = step_var(a, &lv, n->op == O_INC, &l);
    break;
  case N_NOT:
    v = !run(a, p, n->a);
    break;
  case N_BNOT:
    v = ~run(a, p, n->a);
    break;
  case N_NEG:
    v = (int64_t)(0 - (uint64_t)run(a, p, n->a));
    break;
  case N_IDENT:
    v = run(a, p, n->a);
    break;
  case N_PAREN:
    if (!enter_level(a, tok)) return 0; /* p_primary's parenthesis */
    v = run(a, p, n->a);
    a->depth--;
    break;
  case N_POW:
    l = run(a, p, n->a);
    r = run(a, p, n->b);
    v = a->noeval ? 0 : ipow(a, l, r, a->expr + n->tok2);
    break;
  case N_BIN:
    l = run(a, p, n->a);
    r = run(a, p, n->b);
    v = binop(a, (aop)n->op, l, r, a->expr + n->tok2);
    break;
  case N_LAND: case N_LOR: {
    l = run(a, p, n->a);
    bool skip = n->kind == N_LAND ? !l : l != 0;
    if (skip) a->noeval++;
    r = run(a, p, n->b);
    if (skip) a->noeval--;
    v = n->kind == N_LAND ? (l && r) : (l || r);
    break;
  }
  case N_COND: {
    int64_t c = run(a, p, n->a);
    if (a->err) return 0;
    if (!c) a->noeval++;
    l = run(a, p, n->b);
    if (!c) a->noeval--;
    if (c) a->noeval++;
    r = run(a, p, n->c);
    if (c) a->noeval--;
    v = c ? l : r;
    break;
  }
  case N_ASSIGN:
    lv = prog_lval(p, n);
    v = assign(a, (aop)n->op, &lv, run(a, p, n->c), a->expr + n->tok2);
    break;
  case N_COMMA:
    v = run(a, p, n->a);
    v = run(a, p, n->b);
    break;
  }
  if (n->kind <= N_PAREN) a->depth--;
  return v;
}

static int run_prog(sh_shell *sh, const aprog *p, int64_t *out) {
  ax a = {0};
  a.sh = sh;
  a.expr = p->text;
  *out = 0;
  int64_t v = run(&a, p, p->root);
  if (a.err) return 1;
  *out = v;
  return 0;
}

static void prog_free(aprog *p) {
  if (!p) return;
  free(p->text);
  free(p->nodes);
  free(p->pool);
  free(p);
}

/* ---- the cache ------------------------------------------------------------------------------ */

/*
 * Recorded programs by text, per shell: ARITH_CACHE_SETS sets of
 * ARITH_CACHE_WAYS programs, each set kept most recently used first. A text's
 * hash picks its set; a new program goes first and the set's last one goes,
 * so the cache never holds more than SETS * WAYS programs of at most
 * ARITH_PROG_TEXT_MAX bytes each, and a loop's few texts never push each
 * other out. A program being run is out of its set until it ends: what it
 * evaluates inside (a subscript's $((...))) may fill the set meanwhile.
 */
#define ARITH_CACHE_SETS 16 /* text_hash's top 4 bits */
#define ARITH_CACHE_WAYS 4

struct sh_arith_cache {
  aprog *set[ARITH_CACHE_SETS][ARITH_CACHE_WAYS]; /* most recently used first; NULL: empty */
};

void sh_arith_cache_free(sh_arith_cache *c) {
  if (!c) return;
  for (int i = 0; i < ARITH_CACHE_SETS; i++)
    for (int w = 0; w < ARITH_CACHE_WAYS; w++) prog_free(c->set[i][w]);
  free(c);
}

/* FNV-1a of a text, with *ok false when the text is not kept: empty, too
 * long, or not ASCII (whose lexing could depend on the locale's character
 * classes). */
static uint32_t text_hash(const char *text, bool *ok) {
  uint32_t h = 2166136261u;
  size_t n = 0;
  *ok = false;
  for (const unsigned char *s = (const unsigned char *)text; *s; s++, n++) {
    if (*s >= 0x80 || n >= ARITH_PROG_TEXT_MAX) return 0;
    h = (h ^ *s) * 16777619u;
  }
  *ok = n > 0;
  return h;
}

/* The set of a hash: its top bits (FNV's low bits mix poorly). */
static int set_of(uint32_t h) { return (int)(h >> 28); }

int sh_arith_cache_slot(const char *text) {
  bool ok;
  uint32_t h = text_hash(text, &ok);
  return ok ? set_of(h) : -1;
}

static aprog *prog_from(const arec *rc, const char *text, uint32_t hash) {
  aprog *p = sh_xmalloc(sizeof *p);
  p->text = sh_xstrdup(text);
  p->hash = hash;
  p->n = rc->n;
  p->root = rc->root;
  p->nodes = sh_xmalloc((size_t)rc->n * sizeof *p->nodes);
  memcpy(p->nodes, rc->nodes, (size_t)rc->n * sizeof *p->nodes);
  p->pool = sh_xmalloc((size_t)rc->npool + 1);
  memcpy(p->pool, rc->pool, (size_t)rc->npool);
  return p;
}

/* Puts p first in its set; the last program of a full set is freed. */
static void set_put(aprog **set, aprog *p) {
  prog_free(set[ARITH_CACHE_WAYS - 1]);
  memmove(set + 1, set, (ARITH_CACHE_WAYS - 1) * sizeof *set);
  set[0] = p;
}

bool sh_arith_cache_off;

int sh_arith_eval_cached(sh_shell *sh, const char *expr, int64_t *out) {
  bool ok;
  uint32_t h = text_hash(expr, &ok);
  if (!ok || sh_arith_cache_off) return sh_arith_eval(sh, expr, out);
  if (!sh->arith_cache) sh->arith_cache = sh_xcalloc(1, sizeof *sh->arith_cache);
  aprog **set = sh->arith_cache->set[set_of(h)];
  for (int w = 0; w < ARITH_CACHE_WAYS; w++) {
    aprog *p = set[w];
    if (!p || p->hash != h || strcmp(p->text, expr) != 0) continue;
    /* out of the set while it runs, then first again */
    memmove(set + w, set + w + 1, (size_t)(ARITH_CACHE_WAYS - 1 - w) * sizeof *set);
    set[ARITH_CACHE_WAYS - 1] = NULL;
    int rc = run_prog(sh, p, out);
    set_put(set, p);
    return rc;
  }
  arec *rec = sh_xmalloc(sizeof *rec);
  rec->n = rec->npool = 0;
  rec->full = false;
  int rc = eval_top(sh, expr, out, rec);
  if (rc == 0 && !rec->full && rec->n > 0) set_put(set, prog_from(rec, expr, h));
  free(rec);
  return rc;
}
