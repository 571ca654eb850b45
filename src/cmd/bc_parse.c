/*
 * bc_parse.c - lexer, parser and loader of the bc command.
 *
 * The parser is recursive descent with the operator precedences of GNU bc's
 * yacc grammar (|| && ! relations = + - * / % ^ unary-minus ++ --; an
 * assignment binds as soon as a name is followed by an assignment operator).
 * It produces GNU bc's intermediate code text ("K12:", "l5:", "J3:", ...)
 * statement by statement and the loader turns that text into byte code the
 * way GNU bc's load.c does (constants and strings inline, one or two bytes
 * per variable number, two per label). Identical byte code means identical
 * run-time messages: "Runtime error (func=(main), adr=3): Divide by zero".
 *
 * Like GNU bc, each input item (a line of statements, or a function
 * definition) is executed as soon as it has been read; `quit` ends the
 * program when it is read; a syntax error discards the rest of the line.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/bc.h"

/* ---- tokens ---------------------------------------------------------------------------- */

enum {
  K_EOF = 0, K_EOL, K_STRING, K_NAME, K_NUMBER, K_ASSIGN, K_REL, K_INCR, K_AND, K_OR, K_NOT,
  K_DEFINE, K_BREAK, K_QUIT, K_LENGTH, K_RETURN, K_FOR, K_IF, K_WHILE, K_SQRT, K_ELSE, K_SCALE,
  K_IBASE, K_OBASE, K_AUTO, K_READ, K_RANDOM, K_HALT, K_LAST, K_VOID, K_HISTORY, K_WARRANTY,
  K_CONTINUE, K_PRINT, K_LIMITS, K_CHAR /* single character token in tok.c */
};

typedef struct token {
  int kind;       /* K_* */
  char c;         /* K_CHAR, K_ASSIGN ('=', '+', ...), K_INCR ('+' or '-') */
  char rel[3];    /* K_REL text */
  char *text;     /* K_STRING (with quotes), K_NAME, K_NUMBER (malloc'd) */
} token;

typedef struct parser {
  bc_state *bc;       /* the machine */
  const char *src;    /* program text */
  size_t len, pos;    /* length and position */
  token tok;          /* lookahead */
  bool have_tok;      /* tok is valid */
  int depth;          /* nesting (bounded) */
  bool load_str, load_const; /* loader state across generate calls */
  int save_func;      /* function being defined: saved main load state */
  size_t save_addr;
} parser;

static const struct {
  const char *w;
  int k;
} kw[] = {
    {"define", K_DEFINE}, {"break", K_BREAK},   {"quit", K_QUIT},       {"length", K_LENGTH},
    {"return", K_RETURN}, {"for", K_FOR},       {"if", K_IF},           {"while", K_WHILE},
    {"sqrt", K_SQRT},     {"scale", K_SCALE},   {"ibase", K_IBASE},     {"obase", K_OBASE},
    {"auto", K_AUTO},     {"else", K_ELSE},     {"read", K_READ},       {"random", K_RANDOM},
    {"halt", K_HALT},     {"last", K_LAST},     {"void", K_VOID},       {"history", K_HISTORY},
    {"warranty", K_WARRANTY}, {"continue", K_CONTINUE}, {"print", K_PRINT}, {"limits", K_LIMITS},
};

#define MAX_PARSE_DEPTH 500

/* ---- messages -------------------------------------------------------------------------- */

static void yyerror(parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void yyerror(parser *p, const char *fmt, ...) {
  bc_state *bc = p->bc;
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  cmd_flush(bc->ctx);
  cmd_err_raw(bc->ctx, "%s %d: %s\n", bc->file_name ? bc->file_name : "(standard_in)", bc->line_no,
              msg);
  bc->had_error = true;
}

/* Non-standard feature warning (-w) or error (-s). */
static void ct_warn(parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void ct_warn(parser *p, const char *fmt, ...) {
  bc_state *bc = p->bc;
  if (!bc->std_only && !bc->warn_not_std) return;
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  const char *name = bc->file_name ? bc->file_name : "(standard_in)";
  cmd_flush(bc->ctx);
  if (bc->std_only) {
    cmd_err_raw(bc->ctx, "%s %d: Error: %s\n", name, bc->line_no, msg);
    bc->had_error = true;
  } else {
    cmd_err_raw(bc->ctx, "%s %d: (Warning) %s\n", name, bc->line_no, msg);
  }
}

/* ---- the loader (GNU bc's load.c layout) ------------------------------------------------- */

static void addbyte(bc_state *bc, int byte) {
  if (bc->had_error) return;
  bc_function *f = &bc->funcs[bc->load_func];
  if (f->size == f->cap) {
    size_t nc = f->cap ? f->cap * 2 : 256;
    if (nc > bc->max_digits + 1024) bc_limit(bc, "program too big");
    unsigned char *nb = realloc(f->code, nc);
    if (!nb) bc_limit(bc, "out of memory");
    f->code = nb;
    f->cap = nc;
  }
  f->code[f->size++] = (unsigned char)byte;
  bc->load_addr = f->size;
}

static void def_label(bc_state *bc, long lab) {
  bc_function *f = &bc->funcs[bc->load_func];
  if ((size_t)lab >= f->nlabels) {
    size_t nn = f->nlabels ? f->nlabels * 2 : 64;
    while (nn <= (size_t)lab) nn *= 2;
    size_t *nl = realloc(f->labels, nn * sizeof *nl);
    if (!nl) bc_limit(bc, "out of memory");
    for (size_t i = f->nlabels; i < nn; i++) nl[i] = 0;
    f->labels = nl;
    f->nlabels = nn;
  }
  f->labels[lab] = f->size;
}

static long long_val(const char **s) {
  long v = 0;
  bool neg = false;
  if (**s == '-') {
    neg = true;
    (*s)++;
  }
  while (isdigit((unsigned char)**s)) v = v * 10 + (*(*s)++ - '0');
  return neg ? -v : v;
}

static void add_name_bytes(bc_state *bc, long v) {
  if (v < 128) {
    addbyte(bc, (int)v);
  } else {
    addbyte(bc, (int)(((v >> 8) & 0xff) | 0x80));
    addbyte(bc, (int)(v & 0xff));
  }
}

static void load_code(parser *p, const char *code) {
  bc_state *bc = p->bc;
  const char *s = code;
  while (*s) {
    if (bc->had_error) return;
    if (p->load_str) {
      if (*s == '"') p->load_str = false;
      addbyte(bc, *s++);
      continue;
    }
    if (p->load_const) {
      if (*s == '\n') {
        s++;
      } else if (*s == ':') {
        p->load_const = false;
        addbyte(bc, *s++);
      } else if (*s == '.') {
        addbyte(bc, *s++);
      } else if (*s >= 'A') {
        addbyte(bc, *s++ + 10 - 'A');
      } else {
        addbyte(bc, *s++ - '0');
      }
      continue;
    }
    switch (*s) {
    case '"':
      p->load_str = true;
      break;
    case 'N': {
      s++;
      long lab = long_val(&s);
      def_label(bc, lab);
      break; /* the ':' is skipped below */
    }
    case 'B':
    case 'J':
    case 'Z': {
      addbyte(bc, *s++);
      long lab = long_val(&s);
      if (lab > 65535) bc_limit(bc, "program too big");
      addbyte(bc, (int)(lab & 0xff));
      addbyte(bc, (int)(lab >> 8));
      break;
    }
    case 'F': {
      s++;
      long func = long_val(&s);
      bc_clear_func(bc, (int)func);
      bc_function *f = &bc->funcs[func];
      /* parameters up to '.', autos up to '[' */
      if (*s == ',') s++;
      while (*s && *s != '.') {
        bool isvar = false;
        if (*s == '*') {
          isvar = true;
          s++;
        }
        long v = long_val(&s);
        bc_arg *np = realloc(f->params, (size_t)(f->nparams + 1) * sizeof *np);
        if (!np) bc_limit(bc, "out of memory");
        f->params = np;
        f->params[f->nparams].name = (int)v;
        f->params[f->nparams].is_var = isvar;
        f->nparams++;
        if (*s == ',') s++;
      }
      if (*s == '.') s++;
      while (*s && *s != '[') {
        if (*s == ',') {
          s++;
          continue;
        }
        long v = long_val(&s);
        bc_arg *na = realloc(f->autos, (size_t)(f->nautos + 1) * sizeof *na);
        if (!na) bc_limit(bc, "out of memory");
        f->autos = na;
        f->autos[f->nautos].name = (int)v;
        f->autos[f->nautos].is_var = false;
        f->nautos++;
      }
      p->save_func = bc->load_func;
      p->save_addr = bc->load_addr;
      bc->load_func = (int)func;
      bc->load_addr = 0;
      break;
    }
    case ']':
      bc->funcs[bc->load_func].defined = true;
      bc->load_func = p->save_func;
      bc->load_addr = p->save_addr;
      break;
    case 'C': {
      addbyte(bc, *s++);
      long func = long_val(&s);
      add_name_bytes(bc, func);
      if (*s == ',') s++;
      while (*s && *s != ':') addbyte(bc, *s++);
      addbyte(bc, ':');
      break;
    }
    case 'c':
      addbyte(bc, *s++);
      addbyte(bc, *s);
      break;
    case 'K':
      addbyte(bc, *s);
      p->load_const = true;
      break;
    case 'd': case 'i': case 'l': case 's': case 'A': case 'M': case 'L': case 'S': {
      addbyte(bc, *s++);
      long v = long_val(&s);
      add_name_bytes(bc, v);
      break;
    }
    case '\n':
      break;
    default:
      addbyte(bc, *s);
    }
    s++;
  }
}

static void generate(parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void generate(parser *p, const char *fmt, ...) {
  char small[256];
  char *buf = small;
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  if ((size_t)n >= sizeof small) {
    buf = bc_tmp_alloc(p->bc, (size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(buf, (size_t)n + 1, fmt, ap);
    va_end(ap);
  }
  p->bc->did_gen = true;
  load_code(p, buf);
  if (buf != small) bc_tmp_free(buf);
}

static void generate_raw(parser *p, const char *text) {
  p->bc->did_gen = true;
  load_code(p, text);
}

static void init_gen(parser *p) {
  bc_state *bc = p->bc;
  bc->break_label = 0;
  bc->continue_label = 0;
  bc->next_label = 1;
  bc_clear_func(bc, 0);
  bc->load_func = 0;
  bc->load_addr = 0;
  p->load_str = p->load_const = false;
  bc->had_error = false;
  bc->did_gen = false;
}

static void run_code(parser *p) {
  bc_state *bc = p->bc;
  if (!bc->had_error && bc->did_gen) bc_execute(bc);
  if (bc->did_gen) init_gen(p);
  else bc->had_error = false;
}

/* ---- lexer --------------------------------------------------------------------------------- */

static int peekc(parser *p, size_t k) { return p->pos + k < p->len ? (unsigned char)p->src[p->pos + k] : -1; }

/* Token texts and other parser temporaries live on the machine's live list
 * (bc_tmp_alloc): a syntax error may longjmp while one is held. */
static void xfree(void *ptr) { bc_tmp_free(ptr); }

static void free_tok(token *t) {
  xfree(t->text);
  t->text = NULL;
}

static char *dupn(parser *p, const char *s, size_t n) {
  char *d = bc_tmp_alloc(p->bc, n + 1);
  memcpy(d, s, n);
  d[n] = 0;
  return d;
}

static bool is_digit_ch(int c) { return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z'); }

static void lex(parser *p, token *t) {
  bc_state *bc = p->bc;
again:
  memset(t, 0, sizeof *t);
  for (;;) {
    int c = peekc(p, 0);
    if (c < 0) {
      t->kind = K_EOF;
      return;
    }
    if (c == ' ' || c == '\t') {
      p->pos++;
      continue;
    }
    if (c == '\\' && peekc(p, 1) == '\n') {
      p->pos += 2;
      bc->line_no++;
      continue;
    }
    if (c == '#') {
      if (bc->std_only) {
        p->pos++;
        yyerror(p, "illegal character: #");
        continue;
      }
      while (peekc(p, 0) >= 0 && peekc(p, 0) != '\n') p->pos++;
      continue;
    }
    if (c == '/' && peekc(p, 1) == '*') {
      p->pos += 2;
      for (;;) {
        int d = peekc(p, 0);
        if (d < 0) {
          cmd_flush(bc->ctx);
          cmd_err_raw(bc->ctx, "EOF encountered in a comment.\n");
          break;
        }
        p->pos++;
        if (d == '\n') bc->line_no++;
        if (d == '*' && peekc(p, 0) == '/') {
          p->pos++;
          break;
        }
      }
      continue;
    }
    break;
  }
  int c = peekc(p, 0), d = peekc(p, 1);
  size_t start = p->pos;
  if (c == '\n') {
    p->pos++;
    bc->line_no++;
    t->kind = K_EOL;
    return;
  }
  if (c >= 'a' && c <= 'z') {
    while (p->pos < p->len && ((p->src[p->pos] >= 'a' && p->src[p->pos] <= 'z') ||
                               isdigit((unsigned char)p->src[p->pos]) || p->src[p->pos] == '_'))
      p->pos++;
    size_t n = p->pos - start;
    for (size_t i = 0; i < sizeof kw / sizeof kw[0]; i++)
      if (strlen(kw[i].w) == n && !memcmp(kw[i].w, p->src + start, n)) {
        t->kind = kw[i].k;
        return;
      }
    t->kind = K_NAME;
    t->text = dupn(p, p->src + start, n);
    return;
  }
  if (is_digit_ch(c) || (c == '.' && (is_digit_ch(d) || (d == '\\' && peekc(p, 2) == '\n')))) {
    /* digits, backslash-newlines, one '.', digits */
    bool seen_dot = false;
    while (p->pos < p->len) {
      char ch = p->src[p->pos];
      if (is_digit_ch(ch)) {
        p->pos++;
      } else if (ch == '\\' && p->pos + 1 < p->len && p->src[p->pos + 1] == '\n') {
        p->pos += 2;
        bc->line_no++;
      } else if (ch == '.' && !seen_dot) {
        seen_dot = true;
        p->pos++;
      } else {
        break;
      }
    }
    /* clean: no trailing '.', no leading zeros, no backslash-newlines */
    size_t n = p->pos - start;
    char *raw = dupn(p, p->src + start, n);
    char *o = raw;
    for (size_t i = 0; i < n; i++) {
      if (raw[i] == '\\') {
        i++;
        continue;
      }
      *o++ = raw[i];
    }
    *o = 0;
    size_t l = strlen(raw);
    if (l && raw[l - 1] == '.') raw[--l] = 0;
    char *q = raw;
    while (*q == '0') q++;
    if (*q == 0 && q > raw) q--;
    memmove(raw, q, strlen(q) + 1);
    if (!*raw) strcpy(raw, "0");
    t->kind = K_NUMBER;
    t->text = raw;
    return;
  }
  if (c == '.') {
    p->pos++;
    t->kind = K_LAST;
    return;
  }
  if (c == '"') {
    size_t e = p->pos + 1;
    while (e < p->len && p->src[e] != '"') e++;
    if (e >= p->len) {
      /* no closing quote: GNU's scanner sees an illegal character */
      p->pos++;
      yyerror(p, "illegal character: \"");
      goto again;
    }
    for (size_t i = p->pos; i < e; i++)
      if (p->src[i] == '\n') bc->line_no++;
    t->kind = K_STRING;
    t->text = dupn(p, p->src + p->pos, e + 1 - p->pos);
    if (memchr(t->text, 0, e + 1 - p->pos)) yyerror(p, "NUL character in string.");
    p->pos = e + 1;
    return;
  }
  p->pos++;
  switch (c) {
  case '+':
  case '-':
    if (d == c) {
      p->pos++;
      t->kind = K_INCR;
      t->c = (char)c;
      return;
    }
    if (d == '=') {
      p->pos++;
      t->kind = K_ASSIGN;
      t->c = (char)c;
      return;
    }
    t->kind = K_CHAR;
    t->c = (char)c;
    return;
  case '*': case '/': case '%': case '^':
    if (d == '=') {
      p->pos++;
      t->kind = K_ASSIGN;
      t->c = (char)c;
      return;
    }
    t->kind = K_CHAR;
    t->c = (char)c;
    return;
  case '=':
    if (d == '=') {
      p->pos++;
      t->kind = K_REL;
      strcpy(t->rel, "==");
      return;
    }
    t->kind = K_ASSIGN;
    t->c = '=';
    return;
  case '<':
  case '>':
    t->kind = K_REL;
    t->rel[0] = (char)c;
    if (d == '=') {
      p->pos++;
      t->rel[1] = '=';
    }
    return;
  case '!':
    if (d == '=') {
      p->pos++;
      t->kind = K_REL;
      strcpy(t->rel, "!=");
      return;
    }
    t->kind = K_NOT;
    return;
  case '&':
    if (d == '&') {
      p->pos++;
      t->kind = K_AND;
      return;
    }
    t->kind = K_CHAR;
    t->c = '&';
    return;
  case '|':
    if (d == '|') {
      p->pos++;
      t->kind = K_OR;
      return;
    }
    break;
  case ';': case '(': case ')': case '{': case '}': case '[': case ']': case ',':
    t->kind = K_CHAR;
    t->c = (char)c;
    return;
  default:
    break;
  }
  if (c < ' ') yyerror(p, "illegal character: ^%c", c + '@');
  else if (c > '~') yyerror(p, "illegal character: \\%03o", c);
  else yyerror(p, "illegal character: %c", c);
  goto again;
}

static token *peek(parser *p) {
  if (!p->have_tok) {
    lex(p, &p->tok);
    p->have_tok = true;
  }
  return &p->tok;
}

static void advance(parser *p) {
  if (!p->have_tok) peek(p);
  free_tok(&p->tok);
  p->have_tok = false;
}

static bool is_char(parser *p, char c) {
  token *t = peek(p);
  return t->kind == K_CHAR && t->c == c;
}

/* ---- syntax errors ----------------------------------------------------------------------- */

typedef struct syntax_error {
  int dummy;
} syntax_error;

static jmp_buf *err_target(parser *p);

static void __attribute__((noreturn)) syntax(parser *p) {
  yyerror(p, "syntax error");
  longjmp(*err_target(p), 1);
}

static void expect_char(parser *p, char c) {
  if (!is_char(p, c)) syntax(p);
  advance(p);
}

/* ---- expressions ---------------------------------------------------------------------------- */

#define EX_ASSGN 0
#define EX_REG 1
#define EX_COMP 2
#define EX_PAREN 4
#define EX_VOID 8
#define EX_EMPTY 16

static int parse_expr(parser *p, int min);

static void enter(parser *p) {
  if (++p->depth > MAX_PARSE_DEPTH) {
    yyerror(p, "expression nested too deeply");
    longjmp(*err_target(p), 1);
  }
}

static void leave(parser *p) { p->depth--; }

static bool starts_named(parser *p) {
  token *t = peek(p);
  return t->kind == K_NAME || t->kind == K_IBASE || t->kind == K_OBASE || t->kind == K_SCALE ||
         t->kind == K_HISTORY || t->kind == K_LAST;
}

/* A named expression: returns its number (array: negative, its subscript
 * code already generated). */
static int lookup(parser *p, const char *name, int kind) {
  if (strlen(name) != 1) ct_warn(p, "multiple letter name - %s", name);
  return bc_lookup(p->bc, name, kind);
}

static int parse_named(parser *p) {
  token *t = peek(p);
  switch (t->kind) {
  case K_IBASE: advance(p); return 0;
  case K_OBASE: advance(p); return 1;
  case K_SCALE: advance(p); return 2;
  case K_HISTORY:
    advance(p);
    ct_warn(p, "History variable");
    return 3;
  case K_LAST:
    advance(p);
    ct_warn(p, "Last variable");
    return 4;
  case K_NAME: {
    char *name = t->text;
    t->text = NULL;
    advance(p);
    if (is_char(p, '[')) {
      advance(p);
      int f = parse_expr(p, 0);
      if (f & EX_VOID) yyerror(p, "void expression as subscript");
      if (f & EX_COMP) ct_warn(p, "comparison in subscript");
      if (!is_char(p, ']')) {
        xfree(name);
        syntax(p);
      }
      advance(p);
      int r = lookup(p, name, BC_ARRAY);
      xfree(name);
      return r;
    }
    int r = lookup(p, name, BC_SIMPLE);
    xfree(name);
    return r;
  }
  default:
    syntax(p);
  }
}

/* Arguments of a call: returns the type string ('0' value, '1' array). */
static char *parse_args(parser *p) {
  size_t cap = 16, n = 0;
  char *types = bc_tmp_alloc(p->bc, cap);
  types[0] = 0;
  if (is_char(p, ')')) return types;
  for (;;) {
    token *t = peek(p);
    bool array_arg = false;
    if (t->kind == K_NAME) {
      /* NAME '[' ']' is an array argument: needs two more tokens of lookahead */
      size_t save_pos = p->pos;
      int save_line = p->bc->line_no;
      token t1, t2;
      lex(p, &t1);
      if (t1.kind == K_CHAR && t1.c == '[') {
        lex(p, &t2);
        if (t2.kind == K_CHAR && t2.c == ']') array_arg = true;
        free_tok(&t2);
      }
      free_tok(&t1);
      if (array_arg) {
        char *name = t->text;
        t->text = NULL;
        advance(p);
        int a = lookup(p, name, BC_ARRAY);
        xfree(name);
        generate(p, "K%d:", -a);
      } else {
        p->pos = save_pos;
        p->bc->line_no = save_line;
      }
    }
    if (!array_arg) {
      int f = parse_expr(p, 0);
      if (f & EX_COMP) ct_warn(p, "comparison in argument");
      if (f & EX_VOID) yyerror(p, "void argument");
    }
    if (n + 2 > cap) {
      char *nt = bc_tmp_alloc(p->bc, cap * 2);
      memcpy(nt, types, n + 1);
      xfree(types);
      types = nt;
      cap *= 2;
    }
    types[n++] = array_arg ? '1' : '0';
    types[n] = 0;
    if (!is_char(p, ',')) break;
    advance(p);
  }
  return types;
}

static int parse_primary(parser *p) {
  token *t = peek(p);
  switch (t->kind) {
  case K_NUMBER: {
    const char *s = t->text;
    if (!strcmp(s, "0")) generate_raw(p, "0");
    else if (!strcmp(s, "1")) generate_raw(p, "1");
    else {
      generate_raw(p, "K");
      generate_raw(p, s);
      generate_raw(p, ":");
    }
    advance(p);
    return EX_REG;
  }
  case K_CHAR:
    if (t->c == '(') {
      advance(p);
      int f = parse_expr(p, 0);
      expect_char(p, ')');
      if (f & EX_VOID) yyerror(p, "void expression in parenthesis");
      return f | EX_REG | EX_PAREN;
    }
    syntax(p);
  case K_LENGTH:
  case K_SQRT: {
    int k = t->kind;
    advance(p);
    expect_char(p, '(');
    int f = parse_expr(p, 0);
    expect_char(p, ')');
    if (f & EX_VOID) yyerror(p, k == K_LENGTH ? "void expression in length()" : "void expression in sqrt()");
    generate_raw(p, k == K_LENGTH ? "cL" : "cR");
    return EX_REG;
  }
  case K_READ:
  case K_RANDOM: {
    int k = t->kind;
    advance(p);
    expect_char(p, '(');
    expect_char(p, ')');
    ct_warn(p, k == K_READ ? "read function" : "random function");
    generate_raw(p, k == K_READ ? "cI" : "cX");
    return EX_REG;
  }
  case K_NAME: {
    /* a function call? */
    size_t save_pos = p->pos;
    int save_line = p->bc->line_no;
    token nx;
    lex(p, &nx);
    bool call = nx.kind == K_CHAR && nx.c == '(';
    free_tok(&nx);
    p->pos = save_pos;
    p->bc->line_no = save_line;
    if (call) {
      char *name = t->text;
      t->text = NULL;
      advance(p); /* name */
      advance(p); /* ( */
      int fn = lookup(p, name, BC_FUNCT);
      xfree(name);
      char *types = parse_args(p);
      if (!is_char(p, ')')) {
        xfree(types);
        syntax(p);
      }
      advance(p);
      if (types[0]) generate(p, "C%d,%s:", fn, types);
      else generate(p, "C%d:", fn);
      xfree(types);
      return p->bc->funcs[fn].is_void ? EX_VOID : EX_REG;
    }
    p->pos = save_pos;
    p->bc->line_no = save_line;
  }
  /* fall through */
  case K_IBASE:
  case K_OBASE:
  case K_HISTORY:
  case K_LAST:
  case K_SCALE: {
    if (t->kind == K_SCALE) {
      /* scale(expr) is the function */
      size_t save_pos = p->pos;
      int save_line = p->bc->line_no;
      token nx;
      lex(p, &nx);
      bool fn = nx.kind == K_CHAR && nx.c == '(';
      free_tok(&nx);
      p->pos = save_pos;
      p->bc->line_no = save_line;
      if (fn) {
        advance(p);
        expect_char(p, '(');
        int f = parse_expr(p, 0);
        expect_char(p, ')');
        if (f & EX_VOID) yyerror(p, "void expression in scale()");
        generate_raw(p, "cS");
        return EX_REG;
      }
    }
    int v = parse_named(p);
    token *n = peek(p);
    if (n->kind == K_ASSIGN) {
      char op = n->c;
      advance(p);
      if (op != '=') {
        if (v < 0) generate(p, "DL%d:", -v);
        else generate(p, "l%d:", v);
      }
      int f = parse_expr(p, 5);
      if (f & EX_VOID) yyerror(p, "Assignment of a void expression");
      if (op != '=') generate(p, "%c", op);
      if (v < 0) generate(p, "S%d:", -v);
      else generate(p, "s%d:", v);
      return EX_ASSGN;
    }
    if (n->kind == K_INCR) {
      char op = n->c;
      advance(p);
      if (v < 0) {
        generate(p, "DL%d:x", -v);
        generate(p, op == '+' ? "A%d:" : "M%d:", -v);
      } else {
        generate(p, "l%d:", v);
        generate(p, op == '+' ? "i%d:" : "d%d:", v);
      }
      return EX_REG;
    }
    if (v < 0) generate(p, "L%d:", -v);
    else generate(p, "l%d:", v);
    return EX_REG;
  }
  default:
    syntax(p);
  }
}

static int parse_unary(parser *p) {
  token *t = peek(p);
  if (t->kind == K_CHAR && t->c == '-') {
    advance(p);
    enter(p);
    int f = parse_expr(p, 9);
    leave(p);
    if (f & EX_VOID) yyerror(p, "void expression with unary -");
    generate_raw(p, "n");
    return f & ~EX_PAREN;
  }
  if (t->kind == K_NOT) {
    advance(p);
    enter(p);
    int f = parse_expr(p, 4);
    leave(p);
    if (f & EX_VOID) yyerror(p, "void expression with !");
    ct_warn(p, "! operator");
    generate_raw(p, "!");
    return f & ~EX_PAREN;
  }
  if (t->kind == K_INCR) {
    char op = t->c;
    advance(p);
    if (!starts_named(p)) syntax(p);
    int v = parse_named(p);
    if (v < 0) {
      if (op == '+') generate(p, "DA%d:L%d:", -v, -v);
      else generate(p, "DM%d:L%d:", -v, -v);
    } else {
      if (op == '+') generate(p, "i%d:l%d:", v, v);
      else generate(p, "d%d:l%d:", v, v);
    }
    return EX_REG;
  }
  return parse_primary(p);
}

static int binop_prec(parser *p, char *op) {
  token *t = peek(p);
  switch (t->kind) {
  case K_OR: return 1;
  case K_AND: return 2;
  case K_REL: return 4;
  case K_CHAR:
    *op = t->c;
    switch (t->c) {
    case '+': case '-': return 6;
    case '*': case '/': case '%': return 7;
    case '^': return 8;
    default: return -1;
    }
  default:
    return -1;
  }
}

static int parse_expr(parser *p, int min) {
  enter(p);
  int f = parse_unary(p);
  for (;;) {
    char op = 0;
    int prec = binop_prec(p, &op);
    if (prec < 0 || prec < min) break;
    token *t = peek(p);
    if (t->kind == K_OR) {
      ct_warn(p, "|| operator");
      advance(p);
      int lab = p->bc->next_label++;
      generate(p, "B%d:", lab);
      int r = parse_expr(p, 2);
      if ((f & EX_VOID) || (r & EX_VOID)) yyerror(p, "void expression with ||");
      int tmplab = p->bc->next_label++;
      generate(p, "B%d:0J%d:N%d:1N%d:", lab, tmplab, lab, tmplab);
      f = (f | r) & ~EX_PAREN;
    } else if (t->kind == K_AND) {
      ct_warn(p, "&& operator");
      advance(p);
      int lab = p->bc->next_label++;
      generate(p, "DZ%d:p", lab);
      int r = parse_expr(p, 3);
      if ((f & EX_VOID) || (r & EX_VOID)) yyerror(p, "void expression with &&");
      generate(p, "DZ%d:p1N%d:", lab, lab);
      f = (f | r) & ~EX_PAREN;
    } else if (t->kind == K_REL) {
      char rel[3];
      memcpy(rel, t->rel, 3);
      advance(p);
      int r = parse_expr(p, 5);
      if ((f & EX_VOID) || (r & EX_VOID)) yyerror(p, "void expression with comparison");
      const char *code = "=";
      if (rel[0] == '=') code = "=";
      else if (rel[0] == '!') code = "#";
      else if (rel[0] == '<') code = rel[1] == '=' ? "{" : "<";
      else code = rel[1] == '=' ? "}" : ">";
      generate_raw(p, code);
      f = EX_REG | EX_COMP;
    } else {
      advance(p);
      int r = parse_expr(p, op == '^' ? 8 : prec + 1);
      if ((f & EX_VOID) || (r & EX_VOID)) yyerror(p, "void expression with %c", op);
      generate(p, "%c", op);
      f = (f | r) & ~EX_PAREN;
    }
  }
  leave(p);
  return f;
}

/* ---- statements ------------------------------------------------------------------------------ */

static void parse_statement(parser *p);

static bool starts_expression(parser *p) {
  token *t = peek(p);
  switch (t->kind) {
  case K_NUMBER: case K_NAME: case K_IBASE: case K_OBASE: case K_SCALE: case K_HISTORY:
  case K_LAST: case K_LENGTH: case K_SQRT: case K_READ: case K_RANDOM: case K_INCR: case K_NOT:
    return true;
  case K_CHAR:
    return t->c == '(' || t->c == '-';
  default:
    return false;
  }
}

static void opt_newline(parser *p) {
  if (peek(p)->kind == K_EOL) {
    advance(p);
    ct_warn(p, "newline not allowed");
  }
}

static int opt_expression(parser *p) {
  if (!starts_expression(p)) {
    ct_warn(p, "Missing expression in for statement");
    return EX_EMPTY;
  }
  return parse_expr(p, 0);
}

/* statement_list inside braces: statements separated by newlines or ';' */
static void parse_statement_list(parser *p, char closer) {
  for (;;) {
    token *t = peek(p);
    if (t->kind == K_EOL || (t->kind == K_CHAR && t->c == ';')) {
      advance(p);
      continue;
    }
    if (t->kind == K_CHAR && t->c == closer) return;
    if (t->kind == K_EOF) syntax(p);
    parse_statement(p);
    t = peek(p);
    if (!(t->kind == K_EOL || (t->kind == K_CHAR && (t->c == ';' || t->c == closer)))) syntax(p);
  }
}

static void print_limits(bc_state *bc) {
  cmd_outf(bc->ctx,
           "BC_BASE_MAX     = %d\nBC_DIM_MAX      = %ld\nBC_SCALE_MAX    = %d\n"
           "BC_STRING_MAX   = %d\nMAX Exponent    = %ld\nNumber of vars  = %ld\n",
           BCN_BASE_MAX, (long)BCN_DIM_MAX, BCN_SCALE_MAX, 2147483647, 9223372036854775807L,
           32767L);
}

static void parse_statement(parser *p) {
  bc_state *bc = p->bc;
  token *t = peek(p);
  enter(p);
  switch (t->kind) {
  case K_WARRANTY:
    advance(p);
    cmd_outs(bc->ctx,
             "bc (sbx) 1.0\n\nThis program is distributed in the hope that it will be useful,\n"
             "but WITHOUT ANY WARRANTY; without even the implied warranty of\n"
             "MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.\n");
    break;
  case K_LIMITS:
    advance(p);
    print_limits(bc);
    break;
  case K_STRING: {
    char *s = t->text;
    t->text = NULL;
    advance(p);
    generate_raw(p, "w");
    generate_raw(p, s);
    xfree(s);
    break;
  }
  case K_BREAK:
    advance(p);
    if (bc->break_label == 0) yyerror(p, "Break outside a for/while");
    else generate(p, "J%1d:", bc->break_label);
    break;
  case K_CONTINUE:
    advance(p);
    ct_warn(p, "Continue statement");
    if (bc->continue_label == 0) yyerror(p, "Continue outside a for");
    else generate(p, "J%1d:", bc->continue_label);
    break;
  case K_QUIT:
    /* GNU bc stops when quit is read, before running the line */
    advance(p);
    bc->quit = true;
    longjmp(*err_target(p), 2);
  case K_HALT:
    advance(p);
    generate_raw(p, "h");
    break;
  case K_RETURN: {
    advance(p);
    if (!starts_expression(p)) {
      generate_raw(p, "0");
      if (bc->cur_func == -1) yyerror(p, "Return outside of a function.");
    } else {
      int f = parse_expr(p, 0);
      if (f & EX_COMP) ct_warn(p, "comparison in return expresion");
      if (!(f & EX_PAREN)) ct_warn(p, "return expression requires parenthesis");
      if (f & EX_VOID) yyerror(p, "return requires non-void expression");
      if (bc->cur_func == -1) yyerror(p, "Return outside of a function.");
      else if (bc->funcs[bc->cur_func].is_void) yyerror(p, "Return expression in a void function.");
    }
    generate_raw(p, "R");
    break;
  }
  case K_FOR: {
    advance(p);
    int saved_break = bc->break_label;
    bc->break_label = bc->next_label++;
    expect_char(p, '(');
    int e1 = opt_expression(p);
    expect_char(p, ';');
    if (e1 & EX_COMP) ct_warn(p, "Comparison in first for expression");
    if (e1 & EX_VOID) yyerror(p, "first expression is void");
    if (!(e1 & EX_EMPTY)) generate_raw(p, "p");
    int l1 = bc->next_label++;
    generate(p, "N%1d:", l1);
    int e2 = opt_expression(p);
    expect_char(p, ';');
    if (e2 & EX_VOID) yyerror(p, "second expression is void");
    if (e2 & EX_EMPTY) generate_raw(p, "1");
    int l2 = bc->next_label++;
    generate(p, "B%1d:J%1d:", l2, bc->break_label);
    int saved_continue = bc->continue_label;
    bc->continue_label = bc->next_label++;
    generate(p, "N%1d:", bc->continue_label);
    int e3 = opt_expression(p);
    expect_char(p, ')');
    if (e3 & EX_COMP) ct_warn(p, "Comparison in third for expression");
    if (e3 & EX_VOID) yyerror(p, "third expression is void");
    if (e3 & EX_EMPTY) generate(p, "J%1d:N%1d:", l1, l2);
    else generate(p, "pJ%1d:N%1d:", l1, l2);
    opt_newline(p);
    parse_statement(p);
    generate(p, "J%1d:N%1d:", bc->continue_label, bc->break_label);
    bc->break_label = saved_break;
    bc->continue_label = saved_continue;
    break;
  }
  case K_IF: {
    advance(p);
    expect_char(p, '(');
    int f = parse_expr(p, 0);
    expect_char(p, ')');
    if (f & EX_VOID) yyerror(p, "void expression");
    int saved_if = bc->if_label;
    bc->if_label = bc->next_label++;
    generate(p, "Z%1d:", bc->if_label);
    opt_newline(p);
    parse_statement(p);
    if (peek(p)->kind == K_ELSE) {
      advance(p);
      ct_warn(p, "else clause in if statement");
      int lab = bc->next_label++;
      generate(p, "J%d:N%1d:", lab, bc->if_label);
      bc->if_label = lab;
      opt_newline(p);
      parse_statement(p);
    }
    generate(p, "N%1d:", bc->if_label);
    bc->if_label = saved_if;
    break;
  }
  case K_WHILE: {
    advance(p);
    int saved_continue = bc->continue_label;
    bc->continue_label = bc->next_label++;
    generate(p, "N%1d:", bc->continue_label);
    expect_char(p, '(');
    int f = parse_expr(p, 0);
    if (f & EX_VOID) yyerror(p, "void expression");
    int saved_break = bc->break_label;
    bc->break_label = bc->next_label++;
    generate(p, "Z%1d:", bc->break_label);
    expect_char(p, ')');
    opt_newline(p);
    parse_statement(p);
    generate(p, "J%1d:N%1d:", bc->continue_label, bc->break_label);
    bc->break_label = saved_break;
    bc->continue_label = saved_continue;
    break;
  }
  case K_CHAR:
    if (t->c == '{') {
      advance(p);
      parse_statement_list(p, '}');
      advance(p);
      break;
    }
    goto expression;
  case K_PRINT:
    advance(p);
    ct_warn(p, "print statement");
    for (;;) {
      token *e = peek(p);
      if (e->kind == K_STRING) {
        char *s = e->text;
        e->text = NULL;
        advance(p);
        generate_raw(p, "O");
        generate_raw(p, s);
        xfree(s);
      } else {
        int f = parse_expr(p, 0);
        if (f & EX_VOID) yyerror(p, "void expression in print");
        generate_raw(p, "P");
      }
      if (!is_char(p, ',')) break;
      advance(p);
    }
    break;
  default:
  expression: {
    if (!starts_expression(p)) syntax(p);
    int f = parse_expr(p, 0);
    if (f & EX_COMP) ct_warn(p, "comparison in expression");
    generate_raw(p, (f & EX_REG) ? "W" : "p");
    break;
  }
  }
  leave(p);
}

/* define [void] NAME ( params ) [newline] { newline autos statements } */
static void parse_function(parser *p) {
  bc_state *bc = p->bc;
  advance(p); /* define */
  bool is_void = false;
  if (peek(p)->kind == K_VOID) {
    advance(p);
    is_void = true;
    ct_warn(p, "void functions");
  }
  token *t = peek(p);
  if (t->kind != K_NAME) syntax(p);
  char *fname = t->text;
  t->text = NULL;
  advance(p);
  if (!is_char(p, '(')) {
    xfree(fname);
    syntax(p);
  }
  advance(p);
  /* parameters: NAME | NAME[] | *NAME[] | &NAME[] */
  char params[4096] = "", autos[4096] = "";
  size_t pl = 0, al = 0;
  int names_p[256], names_a[256];
  int np = 0, na = 0;
  while (!is_char(p, ')')) {
    bool byref = false;
    if (is_char(p, '*') || is_char(p, '&')) {
      advance(p);
      byref = true;
    }
    t = peek(p);
    if (t->kind != K_NAME) {
      xfree(fname);
      syntax(p);
    }
    char *n = t->text;
    t->text = NULL;
    advance(p);
    int v;
    if (is_char(p, '[')) {
      advance(p);
      if (!is_char(p, ']')) {
        xfree(n);
        xfree(fname);
        syntax(p);
      }
      advance(p);
      v = lookup(p, n, BC_ARRAY);
      if (byref) ct_warn(p, "Call by variable arrays");
    } else {
      if (byref) {
        xfree(n);
        xfree(fname);
        syntax(p);
      }
      v = lookup(p, n, BC_SIMPLE);
    }
    xfree(n);
    if (np < 256) names_p[np++] = v;
    pl += (size_t)snprintf(params + pl, sizeof params - pl > 0 ? sizeof params - pl : 0, "%s%s%d",
                           pl ? "," : "", byref ? "*" : "", v);
    if (pl >= sizeof params - 16) {
      xfree(fname);
      yyerror(p, "too many parameters");
      longjmp(*err_target(p), 1);
    }
    if (is_char(p, ',')) {
      advance(p);
      continue;
    }
    if (!is_char(p, ')')) {
      xfree(fname);
      syntax(p);
    }
  }
  advance(p); /* ) */
  opt_newline(p);
  if (!is_char(p, '{')) {
    xfree(fname);
    syntax(p);
  }
  advance(p);
  /* required end of line(s) */
  if (peek(p)->kind != K_EOL) ct_warn(p, "End of line required");
  int eols = 0;
  while (peek(p)->kind == K_EOL) {
    advance(p);
    if (++eols > 1) ct_warn(p, "Too many end of lines");
  }
  if (peek(p)->kind == K_AUTO) {
    advance(p);
    for (;;) {
      t = peek(p);
      if (t->kind != K_NAME) {
        xfree(fname);
        syntax(p);
      }
      char *n = t->text;
      t->text = NULL;
      advance(p);
      int v;
      if (is_char(p, '[')) {
        advance(p);
        if (!is_char(p, ']')) {
          xfree(n);
          xfree(fname);
          syntax(p);
        }
        advance(p);
        v = lookup(p, n, BC_ARRAY);
      } else {
        v = lookup(p, n, BC_SIMPLE);
      }
      xfree(n);
      if (na < 256) names_a[na++] = v;
      al += (size_t)snprintf(autos + al, sizeof autos - al > 0 ? sizeof autos - al : 0, "%s%d",
                             al ? "," : "", v);
      if (al >= sizeof autos - 16) {
        xfree(fname);
        yyerror(p, "too many auto variables");
        longjmp(*err_target(p), 1);
      }
      if (is_char(p, ',')) {
        advance(p);
        continue;
      }
      break;
    }
    if (peek(p)->kind == K_EOL || is_char(p, ';')) advance(p);
    else {
      xfree(fname);
      syntax(p);
    }
  }
  /* duplicate checks (GNU's check_params) */
  for (int i = 0; i < np; i++)
    for (int j = i + 1; j < np; j++)
      if (names_p[i] == names_p[j]) yyerror(p, "duplicate parameter names");
  for (int i = 0; i < na; i++)
    for (int j = i + 1; j < na; j++)
      if (names_a[i] == names_a[j]) yyerror(p, "duplicate auto variable names");
  for (int i = 0; i < np; i++)
    for (int j = 0; j < na; j++)
      if (names_p[i] == names_a[j]) yyerror(p, "variable in both parameter and auto lists");
  int fn = lookup(p, fname, BC_FUNCTDEF);
  xfree(fname);
  bc->cur_func = fn;
  generate(p, "F%d,%s.%s[", fn, params, autos);
  bc->funcs[fn].is_void = is_void;
  int saved_label = bc->next_label;
  bc->next_label = 1;
  parse_statement_list(p, '}');
  advance(p); /* } */
  generate_raw(p, "0R]");
  bc->next_label = saved_label;
  bc->cur_func = -1;
}

/* ---- input items ------------------------------------------------------------------------------- */



struct parser_ctx {
  parser p;
  jmp_buf jb;
};

static jmp_buf *err_target(parser *p) { return &((struct parser_ctx *)(void *)p)->jb; }

bool bc_run_text(bc_state *bc, const char *text, size_t len, const char *file_name) {
  /* on the live list: an interrupt (longjmp to bc->fatal) frees it in bulk */
  struct parser_ctx *pc = bc_tmp_alloc(bc, sizeof *pc);
  memset(pc, 0, sizeof *pc);
  parser *p = &pc->p;
  p->bc = bc;
  p->src = text;
  p->len = len;
  bc->file_name = file_name;
  bc->line_no = 1;
  bc->cur_func = -1;
  init_gen(p);
  bool go_on = true;
  for (;;) {
    if (bc->halted) {
      go_on = false;
      break;
    }
    int rc = setjmp(pc->jb);
    if (rc == 2) { /* quit */
      go_on = false;
      break;
    }
    if (rc == 1) {
      /* syntax error: discard up to and including the end of the line */
      bc->cur_func = -1;
      p->depth = 0;
      for (;;) {
        token *t = peek(p);
        if (t->kind == K_EOF) break;
        bool eol = t->kind == K_EOL;
        advance(p);
        if (eol) break;
      }
      init_gen(p);
      continue;
    }
    token *t = peek(p);
    if (t->kind == K_EOF) break;
    if (t->kind == K_DEFINE) {
      parse_function(p);
      run_code(p);
      continue;
    }
    /* semicolon_list ENDOFLINE */
    for (;;) {
      t = peek(p);
      if (t->kind == K_EOL) {
        advance(p);
        break;
      }
      if (t->kind == K_CHAR && t->c == ';') {
        advance(p);
        continue;
      }
      if (t->kind == K_EOF) syntax(p);
      parse_statement(p);
      t = peek(p);
      if (!(t->kind == K_EOL || (t->kind == K_CHAR && t->c == ';'))) syntax(p);
    }
    run_code(p);
    bc_poll(bc);
  }
  if (p->have_tok) free_tok(&p->tok);
  bc_tmp_free(pc);
  return go_on;
}
