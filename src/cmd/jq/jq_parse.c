/*
 * jq_parse.c - the jq 1.8 language front end of sbx's jq engine: a lexer
 * driven by a recursive-descent parser (precedence climbing for the binary
 * operators, jq's grammar for the rest), then a resolver that binds every
 * function call, variable and label to the frame it will find at run time.
 *
 * Resolution: every binder (def, parameter, `as` variable, label) is one
 * runtime frame, so a reference is "n frames up" (R_LOCAL). Definitions at
 * the top level (the prelude's and the program's own, outside any binder)
 * and the global variables ($ENV, $ARGS, --arg names) live in a table of
 * global frames built once per run (R_GLOBAL), so calling a builtin never
 * walks the prelude. Names found nowhere else are C builtins (R_BUILTIN).
 * Nesting is bounded by JQ_PARSE_DEPTH.
 */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/jq/jq_int.h"

#define JQ_PARSE_DEPTH 2000

typedef enum {
  T_EOF, T_IDENT, T_FIELD, T_VAR, T_FORMAT, T_NUM, T_STR, T_KEYWORD, T_OP, T_INVALID,
} tok_type;

typedef struct {
  tok_type type;
  const char *s; /* text start */
  size_t len;    /* text length */
  double num;    /* T_NUM */
  int line;
  size_t off, end; /* byte span of the whole lexeme (the `.` of a field, the `$` of a variable) */
} token;

typedef struct {
  const char *src;
  size_t n, pos;
  int line;
  token tok;         /* current token */
  bool have;         /* tok is valid */
  char *err;         /* first error (malloc'd) */
  size_t err_off, err_end; /* its location */
  size_t last_off, last_end; /* the last lexeme (blanks and comments too): jq's location at the end */
  size_t prev_end;   /* end of the last consumed token */
  int depth;
  int top_depth; /* the depth of parse_pipe calls that are the program's own chain of top-level defs */
  jq_program *prog;
  int line_base;     /* added to line numbers */
  bool stop_as;      /* the next postfix term ends before `as` (reduce/foreach) */
} parser;

static const char *const keywords[] = {"def", "if", "then", "elif", "else", "end", "as", "reduce", "foreach",
                                       "try", "catch", "label", "import", "include", "and", "or", "__loc__", NULL};

static void set_err(parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void set_err(parser *p, const char *fmt, ...) {
  if (p->err) return;
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  p->err = strdup(buf);
  if (p->have) {
    p->err_off = p->tok.off;
    p->err_end = p->tok.end;
  } else {
    p->err_off = p->pos;
    p->err_end = p->pos + 1;
  }
}

static jq_node *new_node(parser *p, jq_node_type t) {
  jq_node *n = calloc(1, sizeof *n);
  if (!n) {
    set_err(p, "out of memory");
    return NULL;
  }
  n->type = t;
  n->line = p->tok.line ? p->tok.line : p->line;
  n->start = p->have ? p->tok.off : p->pos;
  n->end = p->have ? p->tok.end : p->pos + 1;
  n->val = jqv_invalid();
  n->global = -1;
  n->next_alloc = p->prog->nodes;
  p->prog->nodes = n;
  return n;
}

static bool add_arg(parser *p, jq_node *n, jq_node *a) {
  jq_node **na = realloc(n->args, sizeof *na * (size_t)(n->nargs + 1));
  if (!na) {
    set_err(p, "out of memory");
    return false;
  }
  n->args = na;
  n->args[n->nargs++] = a;
  return true;
}

static bool is_ident_start(char c) { return isalpha((unsigned char)c) || c == '_'; }
static bool is_ident_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* Makes t (lexed up to p->pos) the current token and the last lexeme. */
static void set_tok(parser *p, token *t) {
  t->end = p->pos;
  p->last_off = t->off;
  p->last_end = t->end;
  p->tok = *t;
}

/* Lexes the next token at p->pos. */
static void lex(parser *p) {
  const char *s = p->src;
  for (;;) {
    size_t ws = p->pos;
    while (p->pos < p->n && isspace((unsigned char)s[p->pos])) {
      if (s[p->pos] == '\n') p->line++;
      p->pos++;
    }
    if (p->pos > ws) p->last_off = ws, p->last_end = p->pos;
    if (p->pos < p->n && s[p->pos] == '#') {
      p->last_off = p->pos;
      /* comment to end of line; a backslash before the newline continues it (1.8) */
      while (p->pos < p->n && s[p->pos] != '\n') {
        if (s[p->pos] == '\\' && p->pos + 1 < p->n && (s[p->pos + 1] == '\n' || s[p->pos + 1] == '\\')) {
          if (s[p->pos + 1] == '\n') p->line++;
          p->pos++;
        }
        p->pos++;
      }
      p->last_end = p->pos;
      continue;
    }
    break;
  }
  token t = {T_EOF, s + p->pos, 0, 0, p->line, p->pos, p->pos};
  if (p->pos >= p->n) {
    /* jq's location at the end is its last lexeme's */
    t.off = p->last_off;
    t.end = p->last_end > p->last_off ? p->last_end : p->last_off + 1;
    p->tok = t;
    p->have = true;
    return;
  }
  char c = s[p->pos];
  size_t st = p->pos;
  if (c == '"') {
    t.type = T_STR;
    t.len = 1;
  } else if (c == '.' && p->pos + 1 < p->n && is_ident_start(s[p->pos + 1])) {
    p->pos++;
    while (p->pos < p->n && is_ident_char(s[p->pos])) p->pos++;
    t.type = T_FIELD;
    t.s = s + st + 1;
    t.len = p->pos - st - 1;
    set_tok(p, &t);
    p->have = true;
    return;
  } else if (isdigit((unsigned char)c) || (c == '.' && p->pos + 1 < p->n && isdigit((unsigned char)s[p->pos + 1]))) {
    size_t e = p->pos;
    while (e < p->n && isdigit((unsigned char)s[e])) e++;
    if (e < p->n && s[e] == '.') {
      e++;
      while (e < p->n && isdigit((unsigned char)s[e])) e++;
    }
    if (e < p->n && (s[e] == 'e' || s[e] == 'E')) {
      size_t f = e + 1;
      if (f < p->n && (s[f] == '+' || s[f] == '-')) f++;
      if (f < p->n && isdigit((unsigned char)s[f])) {
        while (f < p->n && isdigit((unsigned char)s[f])) f++;
        e = f;
      }
    }
    char buf[512];
    size_t l = e - p->pos < sizeof buf - 1 ? e - p->pos : sizeof buf - 1;
    memcpy(buf, s + p->pos, l);
    buf[l] = '\0';
    t.type = T_NUM;
    t.num = strtod(buf, NULL);
    t.len = e - p->pos;
    p->pos = e;
    set_tok(p, &t);
    p->have = true;
    return;
  } else if (is_ident_start(c)) {
    size_t e = p->pos;
    while (e < p->n) {
      if (is_ident_char(s[e])) e++;
      else if (s[e] == ':' && e + 2 < p->n && s[e + 1] == ':' && is_ident_start(s[e + 2])) e += 2;
      else break;
    }
    t.type = T_IDENT;
    t.len = e - p->pos;
    for (int i = 0; keywords[i]; i++)
      if (strlen(keywords[i]) == t.len && memcmp(keywords[i], t.s, t.len) == 0) t.type = T_KEYWORD;
    p->pos = e;
    set_tok(p, &t);
    p->have = true;
    return;
  } else if ((c == '$' || c == '@') && p->pos + 1 < p->n && is_ident_start(s[p->pos + 1])) {
    size_t e = p->pos + 1;
    while (e < p->n) {
      if (is_ident_char(s[e])) e++;
      else if (c == '$' && s[e] == ':' && e + 2 < p->n && s[e + 1] == ':' && is_ident_start(s[e + 2])) e += 2;
      else break;
    }
    t.type = c == '$' ? T_VAR : T_FORMAT;
    t.s = s + p->pos + 1;
    t.len = e - p->pos - 1;
    p->pos = e;
    set_tok(p, &t);
    p->have = true;
    return;
  } else {
    static const char *const ops[] = {"?//=", "?//", "//=", "|=", "+=", "-=", "*=", "/=", "%=", "==", "!=", "<=", ">=",
                                      "//", "..", "|", ",", "=", "<", ">", "+", "-", "*", "/", "%", ".", "[",
                                      "]", "{", "}", "(", ")", ":", ";", "?", NULL};
    for (int i = 0; ops[i]; i++) {
      size_t l = strlen(ops[i]);
      if (p->pos + l <= p->n && memcmp(s + p->pos, ops[i], l) == 0) {
        if (l == 4) continue; /* "?//=" is not an operator */
        t.type = T_OP;
        t.len = l;
        p->pos += l;
        set_tok(p, &t);
        p->have = true;
        return;
      }
    }
    t.type = T_INVALID;
    t.len = 1;
  }
  p->pos += t.len;
  set_tok(p, &t);
  p->have = true;
}

static token *peek(parser *p) {
  if (!p->have) lex(p);
  return &p->tok;
}
static void advance(parser *p) {
  if (p->have) p->prev_end = p->tok.end;
  p->have = false;
}
static bool is_op(parser *p, const char *op) {
  token *t = peek(p);
  return t->type == T_OP && t->len == strlen(op) && memcmp(t->s, op, t->len) == 0;
}
static bool is_kw(parser *p, const char *kw) {
  token *t = peek(p);
  return t->type == T_KEYWORD && t->len == strlen(kw) && memcmp(t->s, kw, t->len) == 0;
}

/* Whether only blanks and comments precede text position q. */
static bool first_token(const parser *p, const char *q) {
  const char *s = p->src;
  while (s < q) {
    if (*s == '#') {
      while (s < q && *s != '\n') s++;
    } else if (isspace((unsigned char)*s)) {
      s++;
    } else {
      return false;
    }
  }
  return true;
}

/* Whether the closing bracket at q has no matching opener before it: jq's
 * lexer tracks brackets and turns such a closer into INVALID_CHARACTER.
 * Strings and comments are skipped; past 256 levels the closer is taken as
 * matched. */
static bool unmatched_closer(const parser *p, const char *q) {
  char stack[256];
  size_t n = 0;
  bool deep = false;
  for (const char *s = p->src; s < q; s++) {
    if (*s == '#') {
      while (s < q && *s != '\n') s++;
    } else if (*s == '"') {
      for (s++; s < q && *s != '"'; s++)
        if (*s == '\\' && s + 1 < q) s++;
    } else if (*s == '(' || *s == '[' || *s == '{') {
      if (n < sizeof stack) stack[n++] = *s;
      else deep = true;
    } else if (*s == ')' || *s == ']' || *s == '}') {
      if (n) n--;
    }
  }
  if (deep) return false;
  char want = *q == ')' ? '(' : *q == ']' ? '[' : '{';
  return n == 0 || stack[n - 1] != want;
}

/* bison's message: single-character tokens quoted ('}'), named tokens by
 * name (IDENT, LITERAL), others by their text (as, ==); a token where only
 * the end may follow adds "expecting end of file"; an unmatched closing
 * bracket is the lexer's INVALID_CHARACTER. */
static void unexpected_at_end(parser *p, bool at_end) {
  token *t = peek(p);
  const char *tail = t->type != T_EOF && (at_end || first_token(p, t->s)) ? ", expecting end of file" : "";
  if (t->type == T_EOF) set_err(p, "syntax error, unexpected end of file");
  else if (t->type == T_INVALID || (t->type == T_OP && t->len == 1 && strchr(")]}", t->s[0]) && unmatched_closer(p, t->s)))
    set_err(p, "syntax error, unexpected INVALID_CHARACTER%s", tail);
  else if (t->type == T_OP && t->len == 1) set_err(p, "syntax error, unexpected '%c'%s", t->s[0], tail);
  else if (t->type == T_IDENT) set_err(p, "syntax error, unexpected IDENT%s", tail);
  else if (t->type == T_FIELD) set_err(p, "syntax error, unexpected FIELD%s", tail);
  else if (t->type == T_NUM) set_err(p, "syntax error, unexpected LITERAL%s", tail);
  else if (t->type == T_FORMAT) set_err(p, "syntax error, unexpected FORMAT%s", tail);
  else if (t->type == T_STR) set_err(p, "syntax error, unexpected QQSTRING_START%s", tail);
  else set_err(p, "syntax error, unexpected %.*s%s", (int)(t->len > 40 ? 40 : t->len), t->s, tail);
}
static void unexpected(parser *p) { unexpected_at_end(p, false); }

/* Steps over the token that must come next, which is (is_op or is_kw)
 * tells apart by its text; false, after the "unexpected" error, when
 * another token comes or an error came before. For expect_op, expect_kw. */
static bool expect_token(parser *p, bool (*is)(parser *, const char *), const char *text) {
  if (p->err) return false;
  if (!is(p, text)) {
    unexpected(p);
    return false;
  }
  advance(p);
  return true;
}
static bool expect_op(parser *p, const char *op) { return expect_token(p, is_op, op); }
static bool expect_kw(parser *p, const char *kw) { return expect_token(p, is_kw, kw); }

static char *tok_str(parser *p, token *t) {
  char *s = malloc(t->len + 1);
  if (!s) {
    set_err(p, "out of memory");
    return NULL;
  }
  memcpy(s, t->s, t->len);
  s[t->len] = '\0';
  return s;
}

static jq_node *parse_pipe(parser *p, bool no_comma);
static jq_node *parse_postfix(parser *p);
static jq_node *parse_binary(parser *p, int min_prec, bool no_comma);

/* A string literal at p->pos (the token is '"'): parts are literal strings
 * and interpolated expressions. fmt: the @format applied to the parts. */
static jq_node *parse_string(parser *p, const char *fmt) {
  jq_node *n = new_node(p, N_STRING);
  if (!n) return NULL;
  if (fmt) n->name = strdup(fmt);
  const char *s = p->src;
  p->pos = (size_t)(p->tok.s - s) + 1;
  p->have = false;
  jqv_buf b = {0};
  size_t run_start = 0, esc_end = (size_t)-1; /* the current run of escapes */
  for (;;) {
    if (p->pos >= p->n) {
      set_err(p, "syntax error, unexpected end of file, unterminated string");
      break;
    }
    char c = s[p->pos];
    if (c == '"') {
      p->pos++;
      break;
    }
    if (c == '\n') p->line++;
    if (c != '\\') {
      jqv_buf_addc(&b, c);
      p->pos++;
      continue;
    }
    if (p->pos + 1 >= p->n) {
      set_err(p, "syntax error, unexpected end of file, unterminated string");
      break;
    }
    if (esc_end != p->pos) run_start = p->pos;
    char e = s[p->pos + 1];
    p->pos += 2;
    int simple = jqv_json_escape(e);
    if (simple >= 0) {
      jqv_buf_addc(&b, (char)simple);
      esc_end = p->pos;
      continue;
    }
    switch (e) {
    case 'u': {
      unsigned cp = 0;
      bool ok = p->pos + 4 <= p->n;
      for (int i = 0; ok && i < 4; i++) {
        char h = s[p->pos + (size_t)i];
        if (!isxdigit((unsigned char)h)) ok = false;
        else cp = cp * 16 + (unsigned)(isdigit((unsigned char)h) ? h - '0' : (tolower((unsigned char)h) - 'a' + 10));
      }
      if (!ok) {
        set_err(p, "Invalid escape at line %d, column %zu", p->line, p->pos);
        break;
      }
      p->pos += 4;
      if (cp >= 0xd800 && cp < 0xdc00 && p->pos + 6 <= p->n && s[p->pos] == '\\' && s[p->pos + 1] == 'u') {
        unsigned lo = (unsigned)strtoul((char[]){s[p->pos + 2], s[p->pos + 3], s[p->pos + 4], s[p->pos + 5], 0}, NULL, 16);
        if (lo >= 0xdc00 && lo < 0xe000) {
          cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
          p->pos += 6;
        }
      }
      jqv ch = jqv_string_from_codepoint((int)cp);
      jqv_buf_add(&b, jqv_string_value(ch), jqv_string_len(ch));
      jqv_free(ch);
      break;
    }
    case '(': {
      jq_node *lit = new_node(p, N_LITERAL);
      if (!lit) break;
      lit->val = jqv_string_sized(b.data ? b.data : "", b.len);
      b.len = 0;
      add_arg(p, n, lit);
      p->have = false;
      jq_node *e2 = parse_pipe(p, false);
      if (!e2) break;
      add_arg(p, n, e2);
      if (!is_op(p, ")")) {
        unexpected(p);
        break;
      }
      /* continue scanning the string right after ')' */
      p->pos = (size_t)(p->tok.s - s) + 1;
      p->have = false;
      break;
    }
    default: {
      /* jq lexes a run of escapes as one piece and parses it as the JSON
       * string '"RUN"': the column is that text's end, the location the run */
      size_t r0 = run_start, r1 = r0;
      while (r1 + 1 < p->n && s[r1] == '\\') {
        if (s[r1 + 1] == '(') break;
        if (s[r1 + 1] != 'u') {
          r1 += 2;
          continue;
        }
        r1 += 2;
        for (int i = 0; i < 4 && r1 < p->n && isalnum((unsigned char)s[r1]); i++) r1++;
      }
      set_err(p, "Invalid escape at line 1, column %zu (while parsing '\"%.*s\"')", r1 - r0 + 2, (int)(r1 - r0),
              s + r0);
      p->err_off = r0;
      p->err_end = r1;
    }
    }
    if (e != '(') esc_end = p->pos;
    if (p->err) break;
  }
  if (!p->err) {
    jq_node *lit = new_node(p, N_LITERAL);
    if (lit) {
      lit->val = jqv_string_sized(b.data ? b.data : "", b.len);
      add_arg(p, n, lit);
    }
  }
  jqv_buf_free(&b);
  p->have = false;
  if (p->err) return NULL;
  p->last_off = p->pos - 1; /* the closing quote */
  p->last_end = p->prev_end = p->pos;
  /* a plain string with no interpolation is a literal */
  if (n->nargs == 1 && !fmt) {
    jq_node *lit = n->args[0];
    return lit;
  }
  return n;
}

static jq_node *parse_pattern(parser *p);

/* After an item of a list (arguments, patterns): sep, and another item
 * follows (1); the closing token, consumed (0); else an error (-1). */
static int list_more(parser *p, const char *sep, const char *close) {
  if (is_op(p, sep)) {
    advance(p);
    return 1;
  }
  return expect_op(p, close) ? 0 : -1;
}

static jq_node *parse_object_pattern(parser *p) {
  jq_node *n = new_node(p, N_PAT_OBJECT);
  advance(p); /* { */
  for (;;) {
    if (!n || p->err) return NULL;
    jq_node *e = new_node(p, N_OBJENTRY);
    if (!e) return NULL;
    token *t = peek(p);
    if (t->type == T_VAR) {
      e->name = tok_str(p, t);
      advance(p);
      jq_node *k = new_node(p, N_LITERAL);
      if (!k) return NULL;
      k->val = jqv_string(e->name);
      e->a = k;
      if (is_op(p, ":")) {
        advance(p);
        e->b = parse_pattern(p);
      }
    } else {
      if (t->type == T_IDENT || t->type == T_KEYWORD) {
        e->a = new_node(p, N_LITERAL);
        if (!e->a) return NULL;
        e->a->val = jqv_string_sized(t->s, t->len);
        advance(p);
      } else if (t->type == T_STR) {
        e->a = parse_string(p, NULL);
      } else if (is_op(p, "(")) {
        advance(p);
        e->a = parse_pipe(p, false);
        expect_op(p, ")");
      } else {
        unexpected(p);
        return NULL;
      }
      if (!expect_op(p, ":")) return NULL;
      e->b = parse_pattern(p);
    }
    add_arg(p, n, e);
    int more = list_more(p, ",", "}");
    if (more > 0) continue;
    return more < 0 ? NULL : n;
  }
}

static jq_node *parse_pattern(parser *p) {
  if (p->err) return NULL;
  token *t = peek(p);
  if (t->type == T_VAR) {
    jq_node *n = new_node(p, N_PAT_VAR);
    if (n) n->name = tok_str(p, t);
    advance(p);
    return n;
  }
  if (is_op(p, "[")) {
    jq_node *n = new_node(p, N_PAT_ARRAY);
    advance(p);
    if (is_op(p, "]")) {
      set_err(p, "syntax error, unexpected ']', expecting BINDING or '[' or '{'");
      return NULL;
    }
    for (;;) {
      jq_node *e = parse_pattern(p);
      if (!e || !n) return NULL;
      add_arg(p, n, e);
      int more = list_more(p, ",", "]");
      if (more > 0) continue;
      return more < 0 ? NULL : n;
    }
  }
  if (is_op(p, "{")) {
    if (p->pos < p->n) {
      /* "{}" is a syntax error */
      token save = p->tok;
      size_t pos = p->pos;
      int line = p->line;
      advance(p);
      if (is_op(p, "}")) {
        unexpected(p);
        return NULL;
      }
      p->tok = save;
      p->have = true;
      p->pos = pos;
      p->line = line;
    }
    return parse_object_pattern(p);
  }
  unexpected(p);
  return NULL;
}

/* `Term as $x | body` etc. after a term: patterns and the body. */
static jq_node *parse_as(parser *p, jq_node *src) {
  jq_node *n = new_node(p, N_AS);
  if (!n) return NULL;
  advance(p); /* as */
  n->a = src;
  for (;;) {
    jq_node *pat = parse_pattern(p);
    if (!pat) return NULL;
    add_arg(p, n, pat);
    if (is_op(p, "?//")) {
      advance(p);
      continue;
    }
    break;
  }
  if (!expect_op(p, "|")) return NULL;
  n->b = parse_pipe(p, false);
  return n->b ? n : NULL;
}

static jq_node *parse_funcdef(parser *p) {
  advance(p); /* def */
  token *t = peek(p);
  if (t->type != T_IDENT && t->type != T_KEYWORD) {
    unexpected(p);
    return NULL;
  }
  jq_node *n = new_node(p, N_FUNCDEF);
  if (!n) return NULL;
  n->name = tok_str(p, t);
  advance(p);
  if (is_op(p, "(")) {
    advance(p);
    for (;;) {
      t = peek(p);
      char *pn = NULL;
      if (t->type == T_VAR) {
        pn = malloc(t->len + 2);
        if (pn) {
          pn[0] = '$';
          memcpy(pn + 1, t->s, t->len);
          pn[t->len + 1] = '\0';
        }
      } else if (t->type == T_IDENT || t->type == T_KEYWORD) {
        pn = tok_str(p, t);
      } else {
        unexpected(p);
        return NULL;
      }
      advance(p);
      char **np = realloc(n->params, sizeof *np * (size_t)(n->nparams + 1));
      if (!np || !pn) {
        free(pn);
        set_err(p, "out of memory");
        return NULL;
      }
      n->params = np;
      n->params[n->nparams++] = pn;
      n->nframes += pn[0] == '$' ? 2 : 1;
      int more = list_more(p, ";", ")");
      if (more > 0) continue;
      if (more < 0) return NULL;
      break;
    }
  }
  if (!expect_op(p, ":")) return NULL;
  n->a = parse_pipe(p, false);
  if (!n->a || !expect_op(p, ";")) return NULL;
  return n;
}

static jq_node *parse_call_args(parser *p, jq_node *call) {
  advance(p); /* ( */
  for (;;) {
    jq_node *a = parse_pipe(p, false);
    if (!a) return NULL;
    add_arg(p, call, a);
    int more = list_more(p, ";", ")");
    if (more > 0) continue;
    return more < 0 ? NULL : call;
  }
}

static jq_node *parse_object(parser *p) {
  jq_node *n = new_node(p, N_OBJECT);
  advance(p); /* { */
  if (is_op(p, "}")) {
    advance(p);
    return n;
  }
  for (;;) {
    if (!n || p->err) return NULL;
    jq_node *e = new_node(p, N_OBJENTRY);
    if (!e) return NULL;
    token *t = peek(p);
    if (t->type == T_VAR) {
      jq_node *v;
      if (t->len == 7 && memcmp(t->s, "__loc__", 7) == 0) {
        v = new_node(p, N_LOC);
        e->a = new_node(p, N_LITERAL);
        if (!e->a || !v) return NULL;
        e->a->val = jqv_string("__loc__");
      } else {
        v = new_node(p, N_VAR);
        e->a = new_node(p, N_LITERAL);
        if (!e->a || !v) return NULL;
        v->name = tok_str(p, t);
        e->a->val = jqv_string_sized(t->s, t->len);
      }
      advance(p);
      e->b = v;
      if (is_op(p, ":")) {
        /* {$x: v}: the variable's value is the key */
        advance(p);
        e->a = v;
        e->b = parse_pipe(p, true);
        if (!e->b) return NULL;
      }
    } else if (t->type == T_IDENT || t->type == T_KEYWORD) {
      e->a = new_node(p, N_LITERAL);
      if (!e->a) return NULL;
      e->a->val = jqv_string_sized(t->s, t->len);
      advance(p);
    } else if (t->type == T_STR) {
      e->a = parse_string(p, NULL);
    } else if (t->type == T_FORMAT && (p->pos < p->n)) {
      char *fmt = tok_str(p, t);
      advance(p);
      if (peek(p)->type == T_STR) {
        e->a = parse_string(p, fmt);
      } else {
        e->a = new_node(p, N_FORMAT);
        if (e->a) e->a->name = fmt, fmt = NULL;
      }
      free(fmt);
    } else if (t->type == T_NUM) {
      set_err(p, "May need parentheses around object key expression");
      return NULL;
    } else if (is_op(p, "(")) {
      advance(p);
      e->a = parse_pipe(p, false);
      if (!expect_op(p, ")")) return NULL;
    } else {
      unexpected(p);
      return NULL;
    }
    if (!e->a) return NULL;
    if (!e->b && is_op(p, ":")) {
      advance(p);
      e->b = parse_pipe(p, true);
      if (!e->b) return NULL;
    } else if (!e->b && e->a->type != N_LITERAL && e->a->type != N_STRING) {
      set_err(p, "May need parentheses around object key expression");
      return NULL;
    }
    add_arg(p, n, e);
    if (is_op(p, ",")) {
      advance(p);
      if (is_op(p, "}")) { /* jq accepts a trailing comma: {a, b,} */
        advance(p);
        return n;
      }
      continue;
    }
    if (!is_op(p, "}")) {
      if (!p->err) set_err(p, "May need parentheses around object key expression");
      return NULL;
    }
    advance(p);
    return n;
  }
}

/* A node of the given type named by the token t (a $name or a function's
 * name), then steps over t; NULL when out of memory. For $name, label,
 * break and calls. */
static jq_node *named_node(parser *p, jq_node_type type, token *t) {
  jq_node *n = new_node(p, type);
  if (n) n->name = tok_str(p, t);
  advance(p);
  return n;
}

/* A keyword that takes a $name (label, break): steps over both and
 * returns a node of the given type named by the $name; NULL, after the
 * "unexpected" error, when no $name follows. */
static jq_node *parse_keyword_name(parser *p, jq_node_type type) {
  advance(p);
  token *t = peek(p);
  if (t->type != T_VAR) {
    unexpected(p);
    return NULL;
  }
  return named_node(p, type, t);
}

/* A primary term. */
static jq_node *parse_term_inner(parser *p) {
  if (p->err) return NULL;
  token *t = peek(p);
  jq_node *n = NULL;
  switch (t->type) {
  case T_NUM:
    n = new_node(p, N_LITERAL);
    if (n) n->val = jqv_number_literal(t->s, t->len, t->num);
    advance(p);
    return n;
  case T_STR: return parse_string(p, NULL);
  case T_FORMAT: {
    char *fmt = tok_str(p, t);
    advance(p);
    if (peek(p)->type == T_STR) {
      n = parse_string(p, fmt);
      free(fmt);
      return n;
    }
    n = new_node(p, N_FORMAT);
    if (n) n->name = fmt;
    else free(fmt);
    return n;
  }
  case T_FIELD:
    n = new_node(p, N_FIELD);
    if (!n) return NULL;
    n->a = NULL;
    n->val = jqv_string_sized(t->s, t->len);
    advance(p);
    return n;
  case T_VAR:
    if (t->len == 7 && memcmp(t->s, "__loc__", 7) == 0) {
      n = new_node(p, N_LOC);
      advance(p);
      return n;
    }
    return named_node(p, N_VAR, t);
  case T_KEYWORD:
    if (is_kw(p, "if")) {
      n = new_node(p, N_IF);
      advance(p);
      jq_node *cur = n;
      for (;;) {
        if (!cur) return NULL;
        cur->a = parse_pipe(p, false);
        if (!expect_kw(p, "then")) return NULL;
        cur->b = parse_pipe(p, false);
        if (p->err) return NULL;
        if (is_kw(p, "elif")) {
          advance(p);
          cur->c = new_node(p, N_IF);
          cur = cur->c;
          continue;
        }
        if (is_kw(p, "else")) {
          advance(p);
          cur->c = parse_pipe(p, false);
        }
        if (!expect_kw(p, "end")) return NULL;
        return n;
      }
    }
    if (is_kw(p, "try")) {
      n = new_node(p, N_TRY);
      advance(p);
      if (!n) return NULL;
      n->a = parse_postfix(p);
      if (is_kw(p, "catch")) {
        advance(p);
        n->b = parse_postfix(p);
        if (!n->b) return NULL;
      }
      return n->a ? n : NULL;
    }
    if (is_kw(p, "reduce") || is_kw(p, "foreach")) {
      bool red = is_kw(p, "reduce");
      n = new_node(p, red ? N_REDUCE : N_FOREACH);
      advance(p);
      if (!n) return NULL;
      n->a = parse_binary(p, 2, true); /* jq 1.8: any expression before `as` */
      if (!expect_kw(p, "as")) return NULL;
      jq_node *pat = parse_pattern(p);
      if (!pat) return NULL;
      add_arg(p, n, pat);
      while (is_op(p, "?//")) {
        advance(p);
        pat = parse_pattern(p);
        if (!pat) return NULL;
        add_arg(p, n, pat);
      }
      if (!expect_op(p, "(")) return NULL;
      n->b = parse_pipe(p, false);
      if (!expect_op(p, ";")) return NULL;
      n->c = parse_pipe(p, false);
      if (!red && is_op(p, ";")) {
        advance(p);
        n->d = parse_pipe(p, false);
      }
      if (!expect_op(p, ")")) return NULL;
      return n;
    }
    if (is_kw(p, "label")) {
      n = parse_keyword_name(p, N_LABEL);
      if (!n) return NULL;
      if (!expect_op(p, "|")) return NULL;
      n->a = parse_pipe(p, false);
      return n->a ? n : NULL;
    }
    if (is_kw(p, "def")) {
      jq_node *d = parse_funcdef(p);
      if (!d) return NULL;
      d->b = parse_pipe(p, false);
      return d->b ? d : NULL;
    }
    if (is_kw(p, "import") || is_kw(p, "include")) {
      set_err(p, "modules are not available in the sandbox");
      return NULL;
    }
    if (is_kw(p, "__loc__") || is_kw(p, "and") || is_kw(p, "or")) {
      unexpected(p);
      return NULL;
    }
    /* other keywords used as function names are errors */
    unexpected(p);
    return NULL;
  case T_IDENT: {
    if (t->len == 5 && memcmp(t->s, "break", 5) == 0) return parse_keyword_name(p, N_BREAK);
    if ((t->len == 4 && (memcmp(t->s, "null", 4) == 0 || memcmp(t->s, "true", 4) == 0)) ||
        (t->len == 5 && memcmp(t->s, "false", 5) == 0)) {
      n = new_node(p, N_LITERAL);
      if (!n) return NULL;
      n->val = t->s[0] == 'n' ? jqv_null() : jqv_bool(t->s[0] == 't');
      advance(p);
      return n;
    }
    n = named_node(p, N_CALL, t);
    if (!n) return NULL;
    if (is_op(p, "(")) return parse_call_args(p, n);
    return n;
  }
  case T_OP:
    if (is_op(p, ".")) {
      advance(p);
      if (peek(p)->type == T_STR) {
        n = new_node(p, N_FIELD);
        if (!n) return NULL;
        jq_node *s = parse_string(p, NULL);
        if (!s) return NULL;
        if (s->type == N_LITERAL) {
          n->val = jqv_copy(s->val);
        } else {
          n->type = N_INDEX;
          n->b = s;
        }
        return n;
      }
      return new_node(p, N_IDENTITY);
    }
    if (is_op(p, "..")) {
      advance(p);
      return new_node(p, N_RECURSE);
    }
    if (is_op(p, "(")) {
      advance(p);
      n = parse_pipe(p, false);
      if (!expect_op(p, ")")) return NULL;
      return n;
    }
    if (is_op(p, "[")) {
      advance(p);
      n = new_node(p, N_ARRAY);
      if (is_op(p, "]")) {
        advance(p);
        return n;
      }
      if (n) n->a = parse_pipe(p, false);
      if (!expect_op(p, "]")) return NULL;
      return n;
    }
    if (is_op(p, "{")) return parse_object(p);
    if (is_op(p, "-")) {
      advance(p);
      n = new_node(p, N_NEG);
      if (n) n->a = parse_postfix(p);
      return n && n->a ? n : NULL;
    }
    unexpected(p);
    return NULL;
  default: unexpected(p); return NULL;
  }
}

/* A primary term, located at its text (jq's @$): a parenthesised
 * expression keeps the inner one's location. */
static jq_node *parse_term(parser *p) {
  if (p->err) return NULL;
  size_t st = peek(p)->off;
  bool paren = is_op(p, "(");
  jq_node *n = parse_term_inner(p);
  /* a call with arguments is located at its name (jq's @1) */
  if (n && !paren && n->type != N_FUNCDEF && !(n->type == N_CALL && n->nargs > 0)) {
    n->start = st;
    n->end = p->prev_end > st ? p->prev_end : st + 1;
  }
  return n;
}

/* Suffixes: .name, ."str", [e], [], [e:e], ?, and `as`. */
static jq_node *parse_postfix(parser *p) {
  if (++p->depth > JQ_PARSE_DEPTH) {
    set_err(p, "program too deeply nested");
    return NULL;
  }
  jq_node *n = parse_term(p);
  while (n && !p->err) {
    token *t = peek(p);
    if (t->type == T_FIELD) {
      jq_node *f = new_node(p, N_FIELD);
      if (!f) return NULL;
      f->a = n;
      f->val = jqv_string_sized(t->s, t->len);
      advance(p);
      n = f;
      continue;
    }
    if (is_op(p, ".")) {
      /* ."str" or .[ after a term */
      size_t save = p->pos;
      token st = p->tok;
      int line = p->line;
      advance(p);
      if (peek(p)->type == T_STR) {
        jq_node *s = parse_string(p, NULL);
        if (!s) return NULL;
        jq_node *f = new_node(p, s->type == N_LITERAL ? N_FIELD : N_INDEX);
        if (!f) return NULL;
        f->a = n;
        if (s->type == N_LITERAL) f->val = jqv_copy(s->val);
        else f->b = s;
        n = f;
        continue;
      }
      if (is_op(p, "[")) continue; /* .[ handled by the next round */
      p->pos = save;
      p->tok = st;
      p->line = line;
      p->have = true;
      break;
    }
    if (is_op(p, "[")) {
      advance(p);
      if (is_op(p, "]")) {
        advance(p);
        jq_node *it = new_node(p, N_ITER);
        if (!it) return NULL;
        it->a = n;
        n = it;
        continue;
      }
      jq_node *ix = new_node(p, N_INDEX);
      if (!ix) return NULL;
      ix->a = n;
      if (is_op(p, ":")) {
        advance(p);
        ix->type = N_SLICE;
        ix->c = parse_pipe(p, false);
      } else {
        ix->b = parse_pipe(p, false);
        if (is_op(p, ":")) {
          advance(p);
          ix->type = N_SLICE;
          if (!is_op(p, "]")) ix->c = parse_pipe(p, false);
        }
      }
      if (!expect_op(p, "]")) return NULL;
      n = ix;
      continue;
    }
    if (is_op(p, "?")) {
      advance(p);
      jq_node *tr = new_node(p, N_TRY);
      if (!tr) return NULL;
      if ((n->type == N_FIELD || n->type == N_ITER) && n->a && n->a->type != N_IDENTITY) {
        /* jq's `Term FIELD '?'` and `Term '[' ']' '?'` make only the last
         * step optional (INDEX_OPT, EACH_OPT): `.a.b?` is `.a | try .b`,
         * so an error in `.a` still stops the program */
        jq_node *pipe = new_node(p, N_PIPE);
        if (!pipe) return NULL;
        pipe->a = n->a;
        n->a = NULL;
        tr->a = n;
        pipe->b = tr;
        n = pipe;
        continue;
      }
      tr->a = n;
      n = tr;
      continue;
    }
    break;
  }
  p->depth--;
  return n;
}

/* Binary operators by precedence (higher binds tighter). */
static int binop_prec(parser *p, int *op, int *assoc) {
  token *t = peek(p);
  if (t->type == T_KEYWORD) {
    if (is_kw(p, "or")) return *op = 'o', *assoc = 0, 5;
    if (is_kw(p, "and")) return *op = 'a', *assoc = 0, 6;
    return -1;
  }
  if (t->type != T_OP) return -1;
  static const struct {
    const char *s;
    int op, prec, assoc; /* assoc: 0 left, 1 right, 2 none */
  } tab[] = {
      {",", ',', 2, 0},   {"//", '/' + 256, 3, 1}, {"=", '=', 4, 2},  {"|=", '|', 4, 2},  {"+=", '+', 4, 2},
      {"-=", '-', 4, 2},  {"*=", '*', 4, 2},       {"/=", '/', 4, 2}, {"%=", '%', 4, 2},  {"//=", 'A', 4, 2},
      {"==", 'E', 7, 2},  {"!=", 'N', 7, 2},       {"<", '<', 7, 2},  {"<=", 'L', 7, 2},  {">", '>', 7, 2},
      {">=", 'G', 7, 2},  {"+", '+', 8, 0},        {"-", '-', 8, 0},  {"*", '*', 9, 0},   {"/", '/', 9, 0},
      {"%", '%', 9, 0},
  };
  for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++) {
    if (t->len == strlen(tab[i].s) && memcmp(t->s, tab[i].s, t->len) == 0) {
      *op = tab[i].op;
      *assoc = tab[i].assoc;
      if (tab[i].prec == 4) *op |= 512; /* assignment */
      return tab[i].prec;
    }
  }
  return -1;
}

static jq_node *parse_binary(parser *p, int min_prec, bool no_comma) {
  jq_node *lhs = parse_postfix(p);
  while (lhs && !p->err) {
    int op, assoc;
    int prec = binop_prec(p, &op, &assoc);
    if (prec < 0 || prec < min_prec || (no_comma && op == ',')) break;
    advance(p);
    jq_node *rhs = parse_binary(p, assoc == 1 ? prec : prec + 1, no_comma);
    if (!rhs) return NULL;
    jq_node *n;
    if (op & 512) {
      n = new_node(p, N_ASSIGN);
      if (n) n->op = op & 511;
    } else if (op == ',') n = new_node(p, N_COMMA);
    else if (op == 'o') n = new_node(p, N_OR);
    else if (op == 'a') n = new_node(p, N_AND);
    else if (op == '/' + 256) n = new_node(p, N_ALT);
    else {
      n = new_node(p, N_BINOP);
      if (n) n->op = op;
    }
    if (!n) return NULL;
    n->a = lhs;
    n->b = rhs;
    lhs = n;
    if (assoc == 2) {
      int op2, as2;
      int p2 = binop_prec(p, &op2, &as2);
      if (p2 == prec) {
        unexpected(p);
        return NULL;
      }
    }
  }
  return lhs;
}

static jq_node *parse_pipe(parser *p, bool no_comma) {
  if (p->err) return NULL;
  if (++p->depth > JQ_PARSE_DEPTH) {
    set_err(p, "program too deeply nested");
    return NULL;
  }
  jq_node *n;
  if (is_kw(p, "def")) {
    bool top = p->depth == p->top_depth;
    n = parse_funcdef(p);
    if (n && top && peek(p)->type == T_EOF) {
      n->b = new_node(p, N_IDENTITY); /* jq: a program of definitions alone is `.` */
    } else if (n) {
      if (top) p->top_depth++;
      n->b = parse_pipe(p, no_comma);
      if (top) p->top_depth--;
    }
    if (n && !n->b) n = NULL;
  } else {
    n = parse_binary(p, 2, no_comma);
    if (n && is_kw(p, "as")) {
      /* jq 1.8: `Exp as $x | body` binds the whole expression */
      n = parse_as(p, n);
    } else if (n && is_op(p, "|")) {
      advance(p);
      jq_node *pn = new_node(p, N_PIPE);
      if (!pn) return NULL;
      pn->a = n;
      pn->b = parse_pipe(p, no_comma);
      n = pn->b ? pn : NULL;
    }
  }
  p->depth--;
  return n;
}

/* ---- resolution ---------------------------------------------------------------- */

typedef struct scope {
  struct scope *up;
  int kind;          /* F_* */
  const char *name;  /* name ("$x" without $ for vars; label names with '*') */
  int arity;         /* F_DEF */
  int global;        /* >= 0: global frame index */
} scope;

/* Compile errors as jq 1.8 prints them (its locfile_locate): the message,
 * "at <top-level>, line L, column C:", the source line and a caret under
 * the location's part of that line. */
typedef struct {
  const char *who; /* "jq" */
  const char *src; /* the user's program */
  size_t n;
  jqv_buf out;     /* the report so far */
  int count;
} errlist;

static void err_report(errlist *e, const char *msg, size_t start, size_t end) {
  char head[700];
  e->count++;
  if (e->n == 0) {
    snprintf(head, sizeof head, "%s: error: %s\n", e->who, msg);
    jqv_buf_adds(&e->out, head);
    return;
  }
  if (start >= e->n) start = e->n - 1;
  size_t off = start, line = 1;
  while (off > 0 && e->src[off - 1] != '\n') off--;
  for (size_t i = 0; i < off; i++) line += e->src[i] == '\n';
  const char *nl = memchr(e->src + off, '\n', e->n - off);
  size_t line_end = nl ? (size_t)(nl - e->src) : e->n;
  if (end > line_end) end = line_end;
  if (end <= start) end = start + 1; /* jq asserts here; one caret */
  snprintf(head, sizeof head, "%s: error: %s at <top-level>, line %zu, column %zu:\n    ", e->who, msg, line,
           start - off + 1);
  jqv_buf_adds(&e->out, head);
  jqv_buf_add(&e->out, e->src + off, line_end - off);
  jqv_buf_adds(&e->out, "\n    ");
  for (size_t i = off; i < start; i++) jqv_buf_addc(&e->out, ' ');
  for (size_t i = start; i < end; i++) jqv_buf_addc(&e->out, '^');
  jqv_buf_addc(&e->out, '\n');
}

/* The whole report with jq's closing count line (malloc'd). */
static char *err_finish(errlist *e) {
  char tail[64];
  snprintf(tail, sizeof tail, "%s: %d compile error%s\n", e->who, e->count, e->count == 1 ? "" : "s");
  jqv_buf_adds(&e->out, tail);
  char *r = e->out.over || !e->out.data ? NULL : strdup(e->out.data);
  jqv_buf_free(&e->out);
  return r ? r : strdup("jq: error: out of memory\n");
}

#define JQ_MAX_COMPILE_ERRORS 100

typedef struct {
  jq_program *prog;
  errlist *errs;
  bool fatal; /* stop resolving (jq goes on after undefined names) */
  int depth;
} resolver;

static int add_global(resolver *r, jq_node *def, const char *name) {
  jq_program *pg = r->prog;
  jq_node **nd = realloc(pg->global_defs, sizeof *nd * (size_t)(pg->nglobals + 1));
  if (!nd) return -1;
  pg->global_defs = nd;
  char **nn = realloc(pg->global_names, sizeof *nn * (size_t)(pg->nglobals + 1));
  if (!nn) return -1;
  pg->global_names = nn;
  nd[pg->nglobals] = def;
  nn[pg->nglobals] = name ? strdup(name) : NULL;
  return pg->nglobals++;
}

static bool all_global(const scope *s) {
  for (; s; s = s->up)
    if (s->global < 0) return false;
  return true;
}

static void res_err(resolver *r, const jq_node *at, bool fatal, const char *fmt, const char *name, int arity) {
  if (r->fatal) return;
  char buf[512];
  if (arity >= 0) snprintf(buf, sizeof buf, fmt, name, arity);
  else snprintf(buf, sizeof buf, fmt, name);
  err_report(r->errs, buf, at ? at->start : 0, at ? at->end : 1);
  if (fatal || r->errs->count >= JQ_MAX_COMPILE_ERRORS) r->fatal = true;
}

/* Finds name among scope entries of `kind` (and arity for defs). */
static const scope *lookup(const scope *s, int kind, const char *name, int arity, int *hops) {
  int h = 0;
  for (; s; s = s->up) {
    bool match = false;
    if (strcmp(s->name, name) == 0) {
      if (kind == F_DEF) match = (s->kind == F_DEF && s->arity == arity) || (s->kind == F_CLOSURE && arity == 0);
      else match = s->kind == kind;
    }
    if (match) {
      *hops = h;
      return s;
    }
    if (s->global < 0) h++;
  }
  return NULL;
}

static void resolve(resolver *r, jq_node *n, scope *sc);

/* Collects pattern variables into names (unique, in order). */
static void pattern_vars(jq_node *pat, const char **names, int *n, int max) {
  if (!pat) return;
  if (pat->type == N_PAT_VAR || (pat->type == N_OBJENTRY && pat->name)) {
    for (int i = 0; i < *n; i++)
      if (strcmp(names[i], pat->name) == 0) goto kids;
    if (*n < max) names[(*n)++] = pat->name;
  }
kids:
  if (pat->type == N_PAT_ARRAY || pat->type == N_PAT_OBJECT)
    for (int i = 0; i < pat->nargs; i++) pattern_vars(pat->args[i], names, n, max);
  if (pat->type == N_OBJENTRY) pattern_vars(pat->b, names, n, max);
}

#define JQ_MAX_PATVARS 64

/* Binds the variables of patterns: pushes one scope entry per variable
 * (returned in *top) and numbers each pattern variable by its position. */
static void resolve_patterns(resolver *r, jq_node **pats, int npats, scope *sc, scope *entries, scope **top,
                             int *nvars) {
  const char *names[JQ_MAX_PATVARS];
  int n = 0;
  for (int i = 0; i < npats; i++) pattern_vars(pats[i], names, &n, JQ_MAX_PATVARS);
  if (n >= JQ_MAX_PATVARS) res_err(r, pats[0], true, "too many variables in a pattern%s", "", -1);
  scope *s = sc;
  for (int i = 0; i < n; i++) {
    entries[i] = (scope){s, F_VAR, names[i], 0, -1};
    s = &entries[i];
  }
  *top = s;
  *nvars = n;
  /* number the variables: hops of a var from the top of the group */
  for (int i = 0; i < npats; i++) {
    jq_node *stack[256];
    int sp = 0;
    stack[sp++] = pats[i];
    while (sp) {
      jq_node *x = stack[--sp];
      if (!x) continue;
      if (x->type == N_PAT_VAR || (x->type == N_OBJENTRY && x->name)) {
        for (int j = 0; j < n; j++)
          if (strcmp(names[j], x->name) == 0) x->hops = n - 1 - j;
      }
      if (x->type == N_OBJENTRY) {
        resolve(r, x->a, s); /* key expressions see the pattern's variables */
        if (sp < 255) stack[sp++] = x->b;
      }
      if (x->type == N_PAT_ARRAY || x->type == N_PAT_OBJECT)
        for (int j = 0; j < x->nargs && sp < 255; j++) stack[sp++] = x->args[j];
    }
  }
}

static void resolve(resolver *r, jq_node *n, scope *sc) {
  if (!n || r->fatal) return;
  if (++r->depth > JQ_PARSE_DEPTH * 4) {
    res_err(r, n, true, "program too deeply nested%s", "", -1);
    return;
  }
  switch (n->type) {
  case N_FUNCDEF: {
    scope self = {sc, F_DEF, n->name, n->nparams, -1};
    if (all_global(sc)) {
      n->global = add_global(r, n, NULL);
      self.global = n->global;
    }
    scope params[64];
    if (n->nparams > 30) {
      res_err(r, n, true, "too many parameters in %s", n->name, -1);
      break;
    }
    scope *s = &self;
    int k = 0;
    for (int i = 0; i < n->nparams; i++) {
      const char *pn = n->params[i];
      if (pn[0] == '$') {
        params[k] = (scope){s, F_CLOSURE, pn + 1, 0, -1};
        s = &params[k++];
        params[k] = (scope){s, F_VAR, pn + 1, 0, -1};
        s = &params[k++];
      } else {
        params[k] = (scope){s, F_CLOSURE, pn, 0, -1};
        s = &params[k++];
      }
    }
    resolve(r, n->a, s);
    resolve(r, n->b, &self);
    break;
  }
  case N_CALL: {
    int hops;
    const scope *f = lookup(sc, F_DEF, n->name, n->nargs, &hops);
    if (f) {
      if (f->global >= 0) n->res = R_GLOBAL, n->gidx = f->global;
      else n->res = R_LOCAL, n->hops = hops;
    } else {
      int b = jq_builtin_find(n->name, n->nargs);
      if (b < 0) {
        res_err(r, n, false, "%s/%d is not defined", n->name, n->nargs);
        break;
      }
      n->res = R_BUILTIN;
      n->builtin = b;
    }
    for (int i = 0; i < n->nargs; i++) resolve(r, n->args[i], sc);
    break;
  }
  case N_VAR: {
    int hops;
    const scope *f = lookup(sc, F_VAR, n->name, 0, &hops);
    if (!f) {
      res_err(r, n, false, "$%s is not defined", n->name, -1);
      break;
    }
    if (f->global >= 0) n->res = R_GLOBAL, n->gidx = f->global;
    else n->res = R_LOCAL, n->hops = hops;
    break;
  }
  case N_AS: {
    resolve(r, n->a, sc);
    scope entries[JQ_MAX_PATVARS], *top;
    int nv;
    resolve_patterns(r, n->args, n->nargs, sc, entries, &top, &nv);
    n->nframes = nv;
    resolve(r, n->b, top);
    break;
  }
  case N_REDUCE:
  case N_FOREACH: {
    resolve(r, n->a, sc);
    resolve(r, n->b, sc);
    scope entries[JQ_MAX_PATVARS], *top;
    int nv;
    resolve_patterns(r, n->args, n->nargs, sc, entries, &top, &nv);
    n->nframes = nv;
    resolve(r, n->c, top);
    resolve(r, n->d, top);
    break;
  }
  case N_LABEL: {
    char name[300];
    snprintf(name, sizeof name, "*label-%s", n->name);
    scope l = {sc, F_LABEL, name, 0, -1};
    resolve(r, n->a, &l);
    break;
  }
  case N_BREAK: {
    char name[300];
    snprintf(name, sizeof name, "*label-%s", n->name);
    int hops;
    const scope *f = lookup(sc, F_LABEL, name, 0, &hops);
    if (!f) {
      res_err(r, n, false, "$%s is not defined", name, -1);
      break;
    }
    n->res = R_LOCAL;
    n->hops = hops;
    break;
  }
  default:
    resolve(r, n->a, sc);
    resolve(r, n->b, sc);
    resolve(r, n->c, sc);
    resolve(r, n->d, sc);
    for (int i = 0; i < n->nargs; i++) resolve(r, n->args[i], sc);
    break;
  }
  r->depth--;
}

/* Checks constant object keys (jq rejects non-string constants at compile time). */
static void check_consts(errlist *e, jq_node *n, int depth) {
  if (!n || depth > JQ_PARSE_DEPTH * 4 || e->count >= JQ_MAX_COMPILE_ERRORS) return;
  if (n->type == N_OBJENTRY && n->a && n->a->type == N_LITERAL && n->a->val.kind != JQV_KIND_STRING) {
    char buf[128], brief[64];
    snprintf(buf, sizeof buf, "Cannot use %s as object key", jq_value_brief(&n->a->val, brief, sizeof brief));
    err_report(e, buf, n->a->start, n->a->end);
  }
  jq_node *kids[4] = {n->a, n->b, n->c, n->d};
  for (int i = 0; i < 4; i++) check_consts(e, kids[i], depth + 1);
  for (int i = 0; i < n->nargs; i++) check_consts(e, n->args[i], depth + 1);
}

static jq_node *parse_text(parser *p, const char *text, size_t len) {
  p->src = text;
  p->n = len;
  p->pos = 0;
  p->line = 1;
  p->have = false;
  p->top_depth = 1;
  /* jq: an empty program (or one of comments alone) is `.` */
  jq_node *n = peek(p)->type == T_EOF ? new_node(p, N_IDENTITY) : parse_pipe(p, false);
  if (n && !p->err && peek(p)->type != T_EOF) unexpected_at_end(p, true);
  return p->err ? NULL : n;
}

jq_program *jq_compile(const char *text, size_t len, char **named, int nnamed, const char *who, char **err) {
  *err = NULL;
  errlist errs = {who, text, len, {0}, 0};
  jq_program *prog = calloc(1, sizeof *prog);
  if (!prog) {
    err_report(&errs, "out of memory", 0, 0);
    *err = err_finish(&errs);
    return NULL;
  }
  parser p = {0};
  p.prog = prog;
  jq_node *pre = parse_text(&p, jq_prelude, strlen(jq_prelude));
  if (!pre) {
    err_report(&errs, p.err ? p.err : "prelude failed", 0, 0);
    free(p.err);
    *err = err_finish(&errs);
    jq_program_free(prog);
    return NULL;
  }
  parser q = {0};
  q.prog = prog;
  jq_node *user = parse_text(&q, text, len);
  if (!user) {
    err_report(&errs, q.err ? q.err : "syntax error", q.err_off, q.err_end);
    free(q.err);
    *err = err_finish(&errs);
    jq_program_free(prog);
    return NULL;
  }
  /* constant object keys are the parser's errors in jq: checked before names */
  check_consts(&errs, user, 0);
  if (errs.count) {
    *err = err_finish(&errs);
    jq_program_free(prog);
    return NULL;
  }
  /* splice: the prelude's last def body continues with the user program */
  jq_node *last = pre;
  while (last->type == N_FUNCDEF && last->b && last->b->type == N_FUNCDEF) last = last->b;
  last->b = user;
  prog->root = pre;
  prog->user = user;
  resolver r = {prog, &errs, false, 0};
  /* global variables: $ENV, $__prog_name..., named arguments, $ARGS */
  scope gs[260];
  scope *sc = NULL;
  int ng = 0;
  const char *gnames[3] = {"ENV", "ARGS", "__loc_unused"};
  for (int i = 0; i < 2; i++) {
    gs[ng] = (scope){sc, F_VAR, gnames[i], 0, add_global(&r, NULL, gnames[i])};
    sc = &gs[ng++];
  }
  for (int i = 0; i < nnamed && ng < 256; i++) {
    gs[ng] = (scope){sc, F_VAR, named[i], 0, add_global(&r, NULL, named[i])};
    sc = &gs[ng++];
  }
  resolve(&r, prog->root, sc);
  if (errs.count) {
    *err = err_finish(&errs);
    jq_program_free(prog);
    return NULL;
  }
  return prog;
}

/* Whether the tree calls a function that reads inputs. */
static bool reads_input(const jq_node *n, int depth) {
  if (!n || depth > JQ_PARSE_DEPTH * 4) return n != NULL;
  if (n->type == N_CALL && n->name &&
      (strcmp(n->name, "input") == 0 || strcmp(n->name, "inputs") == 0 ||
       strcmp(n->name, "input_line_number") == 0))
    return true;
  const jq_node *kids[4] = {n->a, n->b, n->c, n->d};
  for (int i = 0; i < 4; i++)
    if (reads_input(kids[i], depth + 1)) return true;
  for (int i = 0; i < n->nargs; i++)
    if (reads_input(n->args[i], depth + 1)) return true;
  return false;
}

bool jq_program_each_input(const jq_program *p) {
  const jq_node *n = p->user;
  while (n && n->type == N_FUNCDEF) n = n->b;
  while (n && n->type == N_PIPE) n = n->a;
  if (!n || n->type != N_ITER || (n->a && n->a->type != N_IDENTITY)) return false;
  return !reads_input(p->user, 0);
}

void jq_program_free(jq_program *p) {
  if (!p) return;
  for (jq_node *n = p->nodes, *next; n; n = next) {
    next = n->next_alloc;
    jqv_free(n->val);
    free(n->name);
    free(n->args);
    for (int i = 0; i < n->nparams; i++) free(n->params[i]);
    free(n->params);
    free(n);
  }
  for (int i = 0; i < p->nglobals; i++) free(p->global_names[i]);
  free(p->global_names);
  free(p->global_defs);
  free(p);
}
