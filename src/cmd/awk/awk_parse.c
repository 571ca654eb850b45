/*
 * awk_parse.c - lexer and recursive-descent parser for the awk command.
 *
 * The lexer is driven by the parser: whether `/` starts a regular expression
 * or is a division is decided by the grammar (a regex can only appear where
 * an operand is expected), so the parser asks the lexer to re-read the token
 * as a regex there. Newlines are tokens; the parser skips them where the awk
 * grammar allows (after `{ && || , do else` and the `)` of if/for/while).
 *
 * The tree (awk_node, see awk.h) is allocated from chunks owned by the
 * program. Names are resolved while parsing: function parameters become
 * local slots, everything else a global slot; calls to functions not yet
 * defined are checked when the whole program has been read. Regex constants
 * are compiled here, once. Errors are reported like gawk ("awk: cmd.
 * line:1: <source line>" then a caret line and the message) and abort the
 * parse through a jmp_buf; the caller frees the partial program.
 *
 * Bounds: nesting depth of expressions and statements is limited
 * (AWK_MAX_PARSE_DEPTH) so hostile programs cannot exhaust the C stack.
 */
#include <ctype.h>
#include <math.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/awk/awk.h"
#include "cmd/lib/buf.h"

/* ---- tokens ------------------------------------------------------------------- */

enum {
  T_EOF, T_NEWLINE, T_LBRACE, T_RBRACE, T_LPAREN, T_RPAREN, T_LBRACKET, T_RBRACKET,
  T_SEMI, T_COMMA, T_PLUS, T_MINUS, T_STAR, T_SLASH, T_PERCENT, T_CARET, T_NOT, T_GT,
  T_LT, T_PIPE, T_PIPEAMP, T_QUESTION, T_COLON, T_TILDE, T_NOMATCH, T_DOLLAR, T_ASSIGN,
  T_ADD_ASSIGN, T_SUB_ASSIGN, T_MUL_ASSIGN, T_DIV_ASSIGN, T_MOD_ASSIGN, T_POW_ASSIGN,
  T_EQ, T_NE, T_LE, T_GE, T_AND, T_OR, T_INCR, T_DECR, T_APPEND, T_NUMBER, T_STRING,
  T_ERE, T_NAME, T_FUNC_NAME, T_BUILTIN,
  /* keywords */
  T_BEGIN, T_END, T_BEGINFILE, T_ENDFILE, T_FUNCTION, T_IF, T_ELSE, T_WHILE, T_FOR, T_DO,
  T_BREAK, T_CONTINUE, T_NEXT, T_NEXTFILE, T_EXIT, T_RETURN, T_DELETE, T_IN, T_GETLINE,
  T_PRINT, T_PRINTF,
};

static const struct {
  const char *name;
  int tok;
} keywords[] = {
    {"BEGIN", T_BEGIN},       {"BEGINFILE", T_BEGINFILE}, {"END", T_END},
    {"ENDFILE", T_ENDFILE},   {"break", T_BREAK},         {"continue", T_CONTINUE},
    {"delete", T_DELETE},     {"do", T_DO},               {"else", T_ELSE},
    {"exit", T_EXIT},         {"for", T_FOR},             {"func", T_FUNCTION},
    {"function", T_FUNCTION}, {"getline", T_GETLINE},     {"if", T_IF},
    {"in", T_IN},             {"next", T_NEXT},           {"nextfile", T_NEXTFILE},
    {"print", T_PRINT},       {"printf", T_PRINTF},       {"return", T_RETURN},
    {"while", T_WHILE},
};

static const struct {
  const char *name;
  int id;
  int minargs, maxargs;
} builtins[] = {
    {"and", AB_AND, 2, 99},        {"asort", AB_ASORT, 1, 3},     {"asorti", AB_ASORTI, 1, 3},
    {"atan2", AB_ATAN2, 2, 2},     {"close", AB_CLOSE, 1, 2},     {"compl", AB_COMPL, 1, 1},
    {"cos", AB_COS, 1, 1},         {"exp", AB_EXP, 1, 1},         {"fflush", AB_FFLUSH, 0, 1},
    {"gensub", AB_GENSUB, 3, 4},   {"gsub", AB_GSUB, 2, 3},       {"index", AB_INDEX, 2, 2},
    {"int", AB_INT, 1, 1},         {"isarray", AB_ISARRAY, 1, 1}, {"length", AB_LENGTH, 0, 1},
    {"log", AB_LOG, 1, 1},         {"lshift", AB_LSHIFT, 2, 2},   {"match", AB_MATCH, 2, 3},
    {"mktime", AB_MKTIME, 1, 2},   {"or", AB_OR, 2, 99},          {"patsplit", AB_PATSPLIT, 2, 4},
    {"rand", AB_RAND, 0, 0},       {"rshift", AB_RSHIFT, 2, 2},   {"sin", AB_SIN, 1, 1},
    {"split", AB_SPLIT, 2, 4},     {"sprintf", AB_SPRINTF, 1, 9999},
    {"sqrt", AB_SQRT, 1, 1},       {"srand", AB_SRAND, 0, 1},     {"strftime", AB_STRFTIME, 0, 3},
    {"strtonum", AB_STRTONUM, 1, 1}, {"sub", AB_SUB, 2, 3},       {"substr", AB_SUBSTR, 2, 3},
    {"system", AB_SYSTEM, 1, 1},   {"systime", AB_SYSTIME, 0, 0}, {"tolower", AB_TOLOWER, 1, 1},
    {"toupper", AB_TOUPPER, 1, 1}, {"typeof", AB_TYPEOF, 1, 2},   {"xor", AB_XOR, 2, 99},
};

const char *awk_builtin_name(int id) {
  for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++)
    if (builtins[i].id == id) return builtins[i].name;
  return "?";
}

/* ---- parser state ---------------------------------------------------------------- */

typedef struct lexstate {
  size_t pos;        /* next byte to read */
  int line;          /* line of pos */
  int tok;           /* current token */
  size_t tok_start;  /* its first byte */
  int tok_line;      /* its line */
  double num;        /* T_NUMBER value */
  awk_str *text;     /* T_STRING/T_ERE/T_NAME text (owned by the parser) */
  int builtin;       /* T_BUILTIN id */
} lexstate;

typedef struct parser {
  awk_interp *in;        /* interpreter (strings, messages) */
  awk_program *prog;     /* program being built */
  const char *src;       /* source text */
  size_t len;            /* its length */
  const char *srcname;   /* "cmd. line" or a file name */
  lexstate L;            /* lexer state with the current token */
  jmp_buf err;           /* syntax errors jump here */
  int depth;             /* nesting depth */
  awk_func *func;        /* function being parsed, or NULL */
  int loop_depth;        /* inside loops (break/continue) */
  int rule_kind;         /* 0 main/function, 1 BEGIN, 2 END (for `next' checks) */
} parser;

/* Flags for the expression parser. */
#define PF_NO_GT 0x01   /* '>' is a redirection (print) */
#define PF_NO_IN 0x02   /* 'in' stops (for (x in a) lookahead) */
#define PF_PRINT 0x04   /* inside a print list: '|' is a redirection */

static void lex_next(parser *p);
static awk_node *parse_expr(parser *p, int flags);
static awk_node *parse_ternary(parser *p, int flags);
static awk_node *parse_stmt(parser *p);
static awk_node *parse_unary(parser *p, int flags);
static awk_node *parse_concat(parser *p, int flags);
static awk_node *parse_primary(parser *p, int flags);
static awk_node *parse_postfix(parser *p, int flags);

/* ---- errors ---------------------------------------------------------------------- */

static void show_source_line(parser *p, size_t at, int line) {
  size_t s = at > p->len ? p->len : at;
  while (s > 0 && p->src[s - 1] != '\n') s--;
  size_t e = s;
  while (e < p->len && p->src[e] != '\n') e++;
  cmd_err_raw(p->in->ctx, "%s: %s:%d: %.*s\n", p->in->progname, p->srcname, line, (int)(e - s),
              p->src + s);
  /* the caret line */
  size_t col = (at > p->len ? p->len : at) - s;
  char *pad = malloc(col + 1);
  if (pad) {
    for (size_t i = 0; i < col; i++) pad[i] = p->src[s + i] == '\t' ? '\t' : ' ';
    pad[col] = 0;
  }
  cmd_err_raw(p->in->ctx, "%s: %s:%d: %s^ ", p->in->progname, p->srcname, line, pad ? pad : "");
  free(pad);
}

static void __attribute__((noreturn)) syntax_error_at(parser *p, size_t at, int line,
                                                      const char *msg) {
  show_source_line(p, at, line);
  cmd_err_raw(p->in->ctx, "%s\n", msg);
  longjmp(p->err, 1);
}

static void __attribute__((noreturn)) syntax_error(parser *p) {
  if (p->L.tok == T_NEWLINE || p->L.tok == T_EOF) {
    int line = p->L.tok == T_NEWLINE ? p->L.tok_line + 1 : p->L.tok_line;
    if (p->L.tok == T_NEWLINE) {
      /* gawk shows the line holding the newline with the next line's number */
      show_source_line(p, p->L.tok_start, line);
      cmd_err_raw(p->in->ctx, "unexpected newline or end of string\n");
      longjmp(p->err, 1);
    }
    syntax_error_at(p, p->L.tok_start, line, "unexpected newline or end of string");
  }
  syntax_error_at(p, p->L.tok_start, p->L.tok_line, "syntax error");
}

static void __attribute__((noreturn)) parse_fail(parser *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void parse_fail(parser *p, const char *fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  syntax_error_at(p, p->L.tok_start, p->L.tok_line, buf);
}

/* gawk's "error:" messages that show no source line (exit status 1). */
static void __attribute__((noreturn)) plain_error(parser *p, const char *msg) {
  cmd_err_raw(p->in->ctx, "%s: %s:%d: error: %s\n", p->in->progname, p->srcname, p->L.tok_line,
              msg);
  longjmp(p->err, 1);
}

static void warn_at(parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void warn_at(parser *p, const char *fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  cmd_err_raw(p->in->ctx, "%s: %s:%d: warning: %s\n", p->in->progname, p->srcname, p->L.line,
              buf);
}

/* ---- nodes --------------------------------------------------------------------------- */

struct awk_chunk {
  struct awk_chunk *next; /* older chunks */
  size_t used;            /* bytes used in data */
  _Alignas(16) char data[16384 - 32];
};

static void *palloc(parser *p, size_t n) {
  n = (n + 15) & ~(size_t)15;
  struct awk_chunk *c = p->prog->chunks;
  if (!c || c->used + n > sizeof c->data) {
    c = calloc(1, sizeof *c);
    if (!c) awk_fatal(p->in, "out of memory");
    c->next = p->prog->chunks;
    p->prog->chunks = c;
  }
  void *r = c->data + c->used;
  c->used += n;
  memset(r, 0, n);
  return r;
}

static awk_node *node(parser *p, int type) {
  awk_node *n = palloc(p, sizeof *n);
  n->type = (uint16_t)type;
  n->line = p->L.tok_line;
  return n;
}

static awk_node *node2(parser *p, int type, int op, awk_node *a, awk_node *b) {
  awk_node *n = node(p, type);
  n->op = (uint16_t)op;
  n->a = a;
  n->b = b;
  return n;
}

/* Program-owned strings are kept alive by one reference recorded in a list
 * of constants so awk_program_free can release them. */
static awk_str *keep_str(parser *p, awk_str *s) {
  (void)p;
  return s; /* freed with the live list at the end of the run */
}

/* ---- globals and functions ------------------------------------------------------- */

int awk_find_global(awk_program *prog, const char *name) {
  for (int i = 0; i < prog->nglobals; i++)
    if (!strcmp(prog->globals[i], name)) return i;
  return -1;
}

int awk_add_global(awk_program *prog, const char *name) {
  int i = awk_find_global(prog, name);
  if (i >= 0) return i;
  if (cmd_grow(&prog->globals, &prog->capglobals, (size_t)prog->nglobals + 1, sizeof *prog->globals))
    return -1;
  char *d = strdup(name);
  if (!d) return -1;
  prog->globals[prog->nglobals] = d;
  return prog->nglobals++;
}

static int find_func(awk_program *prog, const char *name) {
  for (int i = 0; i < prog->nfuncs; i++)
    if (!strcmp(prog->funcs[i].name, name)) return i;
  return -1;
}

static int add_func(parser *p, const char *name) {
  awk_program *prog = p->prog;
  int i = find_func(prog, name);
  if (i >= 0) return i;
  if (cmd_grow(&prog->funcs, &prog->capfuncs, (size_t)prog->nfuncs + 1, sizeof *prog->funcs))
    awk_fatal(p->in, "out of memory");
  awk_func *f = &prog->funcs[prog->nfuncs];
  memset(f, 0, sizeof *f);
  f->name = strdup(name);
  if (!f->name) awk_fatal(p->in, "out of memory");
  f->line = p->L.tok_line;
  return prog->nfuncs++;
}

static int global_slot(parser *p, const char *name) {
  int i = awk_add_global(p->prog, name);
  if (i < 0) awk_fatal(p->in, "out of memory");
  return i;
}

/* A variable reference node for `name` (local if a parameter). */
static awk_node *var_node(parser *p, const char *name) {
  if (p->func) {
    for (int i = 0; i < p->func->nparams; i++)
      if (!strcmp(p->func->params[i], name)) {
        awk_node *n = node(p, AN_LOCAL);
        n->idx = i;
        return n;
      }
  }
  if (find_func(p->prog, name) >= 0 && p->prog->funcs[find_func(p->prog, name)].defined)
    parse_fail(p, "function name `%s' previously defined", name);
  awk_node *n = node(p, AN_VAR);
  n->idx = global_slot(p, name);
  return n;
}

/* ---- lexer -------------------------------------------------------------------------- */

static int peekc(parser *p, size_t off) {
  size_t i = p->L.pos + off;
  return i < p->len ? (unsigned char)p->src[i] : -1;
}

static void tok_text_reset(parser *p) {
  if (p->L.text) awk_str_unref(p->in, p->L.text);
  p->L.text = awk_str_alloc(p->in, 16);
}

static void tok_text_add(parser *p, char c) { awk_str_appendc(p->in, &p->L.text, c); }

/* Processes one escape after a backslash in a string or regex. Returns the
 * bytes to add in out (1..4) or 0 to keep "\\c" as is (regex). */
static int lex_escape(parser *p, bool regex, char *out) {
  int c = peekc(p, 0);
  if (c < 0) return 0;
  p->L.pos++;
  switch (c) {
  case 'n': out[0] = '\n'; return 1;
  case 't': out[0] = '\t'; return 1;
  case 'r': out[0] = '\r'; return 1;
  case 'a': out[0] = '\a'; return 1;
  case 'b': out[0] = '\b'; return 1;
  case 'f': out[0] = '\f'; return 1;
  case 'v': out[0] = '\v'; return 1;
  case '\\':
    if (regex) {
      out[0] = '\\';
      out[1] = '\\';
      return 2;
    }
    out[0] = '\\';
    return 1;
  case '"': out[0] = '"'; return 1;
  case '/': out[0] = '/'; return 1;
  case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': {
    int v = c - '0';
    for (int i = 0; i < 2; i++) {
      int d = peekc(p, 0);
      if (d < '0' || d > '7') break;
      v = v * 8 + (d - '0');
      p->L.pos++;
    }
    out[0] = (char)v;
    if (regex && strchr("\\^$.[]|()*+?{}/", out[0])) {
      out[1] = out[0];
      out[0] = '\\';
      return 2;
    }
    return 1;
  }
  case 'x': {
    int v = 0, n = 0;
    while (n < 2 && isxdigit(peekc(p, 0))) {
      int d = peekc(p, 0);
      v = v * 16 + (isdigit(d) ? d - '0' : (tolower(d) - 'a' + 10));
      p->L.pos++;
      n++;
    }
    if (!n) {
      out[0] = 'x';
      return 1;
    }
    out[0] = (char)v;
    if (regex && strchr("\\^$.[]|()*+?{}/", out[0])) {
      out[1] = out[0];
      out[0] = '\\';
      return 2;
    }
    return 1;
  }
  case '\n':
    p->L.line++;
    return -1; /* continuation: nothing */
  default:
    if (regex) {
      out[0] = '\\';
      out[1] = (char)c;
      return 2;
    }
    warn_at(p, "escape sequence `\\%c' treated as plain `%c'", c, c);
    out[0] = (char)c;
    return 1;
  }
}

static void lex_string(parser *p) {
  tok_text_reset(p);
  for (;;) {
    int c = peekc(p, 0);
    if (c < 0 || c == '\n') {
      syntax_error_at(p, p->L.tok_start, p->L.tok_line, "unterminated string");
    }
    p->L.pos++;
    if (c == '"') break;
    if (c == '\\') {
      char out[4];
      int n = lex_escape(p, false, out);
      if (n == 0) tok_text_add(p, '\\');
      for (int i = 0; i < n; i++) tok_text_add(p, out[i]);
      continue;
    }
    tok_text_add(p, (char)c);
  }
  p->L.tok = T_STRING;
}

/* Re-reads the current '/' or '/=' token as a regex constant. */
static void lex_regex(parser *p) {
  p->L.pos = p->L.tok_start + 1;
  p->L.line = p->L.tok_line;
  tok_text_reset(p);
  bool in_bracket = false;
  size_t bracket_start = 0;
  for (;;) {
    int c = peekc(p, 0);
    if (c < 0 || c == '\n')
      syntax_error_at(p, p->L.tok_start + 1, p->L.tok_line, "unterminated regexp");
    p->L.pos++;
    if (c == '/' && !in_bracket) break;
    if (c == '[' && !in_bracket) {
      in_bracket = true;
      bracket_start = p->L.text->len;
      tok_text_add(p, '[');
      if (peekc(p, 0) == '^') {
        tok_text_add(p, '^');
        p->L.pos++;
      }
      if (peekc(p, 0) == ']') {
        tok_text_add(p, ']');
        p->L.pos++;
      }
      continue;
    }
    if (in_bracket && c == '[' && (peekc(p, 0) == ':' || peekc(p, 0) == '.' || peekc(p, 0) == '=')) {
      int close = peekc(p, 0);
      tok_text_add(p, '[');
      /* copy through the matching close+']' */
      while (peekc(p, 0) >= 0 && peekc(p, 0) != '\n') {
        int d = peekc(p, 0);
        p->L.pos++;
        tok_text_add(p, (char)d);
        if (d == close && peekc(p, 0) == ']' && p->L.text->len > 2) {
          tok_text_add(p, ']');
          p->L.pos++;
          break;
        }
      }
      continue;
    }
    if (in_bracket && c == ']') {
      in_bracket = false;
      (void)bracket_start;
      tok_text_add(p, ']');
      continue;
    }
    if (c == '\\') {
      int d = peekc(p, 0);
      if (d == '/') {
        p->L.pos++;
        tok_text_add(p, '/');
        continue;
      }
      if (d == '\n') {
        p->L.pos++;
        p->L.line++;
        continue;
      }
      if (d < 0) continue;
      /* keep the escape for the regex compiler (it knows awk escapes) */
      p->L.pos++;
      tok_text_add(p, '\\');
      tok_text_add(p, (char)d);
      continue;
    }
    tok_text_add(p, (char)c);
  }
  p->L.tok = T_ERE;
}

static void lex_number(parser *p) {
  size_t s = p->L.pos;
  const char *src = p->src;
  /* gawk: 0x hex and leading-0 octal in program text */
  if (src[s] == '0' && s + 1 < p->len && (src[s + 1] == 'x' || src[s + 1] == 'X') &&
      s + 2 < p->len && isxdigit((unsigned char)src[s + 2])) {
    size_t i = s + 2;
    double v = 0;
    while (i < p->len && isxdigit((unsigned char)src[i])) {
      int d = src[i];
      v = v * 16 + (isdigit(d) ? d - '0' : (tolower(d) - 'a' + 10));
      i++;
    }
    p->L.pos = i;
    p->L.num = v;
    p->L.tok = T_NUMBER;
    return;
  }
  size_t i = s;
  while (i < p->len && isdigit((unsigned char)src[i])) i++;
  bool isfloat = false;
  if (i < p->len && src[i] == '.') {
    isfloat = true;
    i++;
    while (i < p->len && isdigit((unsigned char)src[i])) i++;
  }
  if (i < p->len && (src[i] == 'e' || src[i] == 'E')) {
    size_t j = i + 1;
    if (j < p->len && (src[j] == '+' || src[j] == '-')) j++;
    if (j < p->len && isdigit((unsigned char)src[j])) {
      while (j < p->len && isdigit((unsigned char)src[j])) j++;
      i = j;
      isfloat = true;
    }
  }
  char buf[512];
  size_t n = i - s;
  double v;
  if (n < sizeof buf) {
    memcpy(buf, src + s, n);
    buf[n] = 0;
    bool octal = !isfloat && n > 1 && buf[0] == '0';
    for (size_t k = 0; octal && k < n; k++)
      if (buf[k] > '7') octal = false;
    v = octal ? (double)strtoull(buf, NULL, 8) : strtod(buf, NULL);
  } else {
    v = awk_strtod(src + s, n);
  }
  p->L.pos = i;
  p->L.num = v;
  p->L.tok = T_NUMBER;
}

static void lex_next(parser *p) {
  lexstate *L = &p->L;
  for (;;) {
    int c = peekc(p, 0);
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      L->pos++;
      continue;
    }
    if (c == '\\' && peekc(p, 1) == '\n') {
      L->pos += 2;
      L->line++;
      continue;
    }
    if (c == '\\' && peekc(p, 1) == '\r' && peekc(p, 2) == '\n') {
      L->pos += 3;
      L->line++;
      continue;
    }
    if (c == '#') {
      while (peekc(p, 0) >= 0 && peekc(p, 0) != '\n') L->pos++;
      continue;
    }
    break;
  }
  L->tok_start = L->pos;
  L->tok_line = L->line;
  int c = peekc(p, 0);
  if (c < 0) {
    L->tok = T_EOF;
    return;
  }
  L->pos++;
  int d = peekc(p, 0);
#define TWO(ch, t2, t1) \
  if (d == (ch)) {      \
    L->pos++;           \
    L->tok = (t2);      \
  } else                \
    L->tok = (t1);      \
  return
  switch (c) {
  case '\n':
    L->line++;
    L->tok = T_NEWLINE;
    return;
  case '{': L->tok = T_LBRACE; return;
  case '}': L->tok = T_RBRACE; return;
  case '(': L->tok = T_LPAREN; return;
  case ')': L->tok = T_RPAREN; return;
  case '[': L->tok = T_LBRACKET; return;
  case ']': L->tok = T_RBRACKET; return;
  case ';': L->tok = T_SEMI; return;
  case ',': L->tok = T_COMMA; return;
  case '?': L->tok = T_QUESTION; return;
  case ':': L->tok = T_COLON; return;
  case '~': L->tok = T_TILDE; return;
  case '$': L->tok = T_DOLLAR; return;
  case '+':
    if (d == '+') {
      L->pos++;
      L->tok = T_INCR;
      return;
    }
    TWO('=', T_ADD_ASSIGN, T_PLUS);
  case '-':
    if (d == '-') {
      L->pos++;
      L->tok = T_DECR;
      return;
    }
    TWO('=', T_SUB_ASSIGN, T_MINUS);
  case '*':
    if (d == '*') {
      L->pos++;
      if (peekc(p, 0) == '=') {
        L->pos++;
        L->tok = T_POW_ASSIGN;
      } else {
        L->tok = T_CARET;
      }
      return;
    }
    TWO('=', T_MUL_ASSIGN, T_STAR);
  case '/': TWO('=', T_DIV_ASSIGN, T_SLASH);
  case '%': TWO('=', T_MOD_ASSIGN, T_PERCENT);
  case '^': TWO('=', T_POW_ASSIGN, T_CARET);
  case '=': TWO('=', T_EQ, T_ASSIGN);
  case '!':
    if (d == '~') {
      L->pos++;
      L->tok = T_NOMATCH;
      return;
    }
    TWO('=', T_NE, T_NOT);
  case '<': TWO('=', T_LE, T_LT);
  case '>':
    if (d == '>') {
      L->pos++;
      L->tok = T_APPEND;
      return;
    }
    TWO('=', T_GE, T_GT);
  case '&':
    if (d == '&') {
      L->pos++;
      L->tok = T_AND;
      return;
    }
    syntax_error_at(p, L->tok_start, L->tok_line, "syntax error");
  case '|':
    if (d == '|') {
      L->pos++;
      L->tok = T_OR;
      return;
    }
    TWO('&', T_PIPEAMP, T_PIPE);
  case '"':
    lex_string(p);
    return;
  default:
    break;
  }
#undef TWO
  if (isdigit(c) || (c == '.' && isdigit(d))) {
    L->pos--;
    lex_number(p);
    return;
  }
  if (isalpha(c) || c == '_') {
    size_t s = L->pos - 1;
    while (L->pos < p->len && (isalnum((unsigned char)p->src[L->pos]) || p->src[L->pos] == '_'))
      L->pos++;
    size_t n = L->pos - s;
    tok_text_reset(p);
    awk_str_append(p->in, &L->text, p->src + s, n);
    for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; i++)
      if (!strcmp(keywords[i].name, L->text->p)) {
        L->tok = keywords[i].tok;
        return;
      }
    for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++)
      if (!strcmp(builtins[i].name, L->text->p)) {
        L->tok = T_BUILTIN;
        L->builtin = (int)i;
        return;
      }
    L->tok = peekc(p, 0) == '(' ? T_FUNC_NAME : T_NAME;
    return;
  }
  syntax_error_at(p, L->tok_start, L->tok_line, "syntax error");
}

/* Saving/restoring the lexer for lookahead. The token text is copied. */
static lexstate lex_save(parser *p) {
  lexstate s = p->L;
  if (s.text) s.text = awk_str_ref(s.text);
  return s;
}

static void lex_restore(parser *p, lexstate *s) {
  if (p->L.text) awk_str_unref(p->in, p->L.text);
  p->L = *s;
}

static void lex_drop(parser *p, lexstate *s) {
  if (s->text) awk_str_unref(p->in, s->text);
}

static void expect(parser *p, int tok) {
  if (p->L.tok != tok) syntax_error(p);
  lex_next(p);
}

static void opt_newlines(parser *p) {
  while (p->L.tok == T_NEWLINE) lex_next(p);
}

static void enter(parser *p) {
  if (++p->depth > AWK_MAX_PARSE_DEPTH ||
      (char *)__builtin_frame_address(0) < p->in->stack_limit)
    parse_fail(p, "program nested too deeply");
}

static void leave(parser *p) { p->depth--; }

/* ---- expressions ------------------------------------------------------------------ */

static bool is_lvalue(awk_node *n) {
  return n->type == AN_VAR || n->type == AN_LOCAL || n->type == AN_FIELD || n->type == AN_INDEX;
}

static awk_node *new_regex(parser *p, awk_str *src) {
  awk_node *n = node(p, AN_REGEX);
  n->str = keep_str(p, awk_str_ref(src));
  char *err = NULL;
  n->re = awk_re_compile(src->p, src->len, false, &err);
  if (!n->re) {
    /* gawk: fatal at parse time */
    char msg[600];
    snprintf(msg, sizeof msg, "%s", err ? err : "invalid regex");
    free(err);
    cmd_err_raw(p->in->ctx, "%s: %s:%d: fatal: %s: /%s/\n", p->in->progname, p->srcname,
                p->L.tok_line, msg, src->p);
    longjmp(p->err, 2);
  }
  /* remember it for freeing */
  awk_program *prog = p->prog;
  if (cmd_grow(&prog->regexes, &prog->capregexes, (size_t)prog->nregexes + 1, sizeof *prog->regexes)) {
    awk_re_free(n->re);
    awk_fatal(p->in, "out of memory");
  }
  prog->regexes[prog->nregexes++] = n->re;
  return n;
}

/* The name after `in`, `delete`, split's target...: an array reference. */
static awk_node *array_name(parser *p) {
  if (p->L.tok != T_NAME) syntax_error(p);
  awk_node *n = var_node(p, p->L.text->p);
  lex_next(p);
  return n;
}

static awk_node *parse_expr_list(parser *p, int flags, int *count, int endtok) {
  awk_node *head = NULL, **tail = &head;
  int n = 0;
  if (p->L.tok == endtok) {
    *count = 0;
    return NULL;
  }
  for (;;) {
    awk_node *e = parse_expr(p, flags);
    *tail = e;
    tail = &e->next;
    n++;
    if (p->L.tok != T_COMMA) break;
    lex_next(p);
    opt_newlines(p);
  }
  *count = n;
  return head;
}

static awk_node *parse_builtin(parser *p) {
  int bi = p->L.builtin;
  int id = builtins[bi].id;
  awk_node *n = node(p, AN_BUILTIN);
  n->idx = id;
  lex_next(p);
  if (p->L.tok != T_LPAREN) {
    if (id == AB_LENGTH) {
      n->nargs = 0;
      return n;
    }
    syntax_error(p);
  }
  lex_next(p);
  opt_newlines(p);
  int count = 0;
  awk_node *head = NULL, **tail = &head;
  if (p->L.tok != T_RPAREN) {
    for (;;) {
      awk_node *e = parse_expr(p, 0);
      *tail = e;
      tail = &e->next;
      count++;
      opt_newlines(p);
      if (p->L.tok != T_COMMA) break;
      lex_next(p);
      opt_newlines(p);
    }
  }
  size_t rparen = p->L.tok_start;
  int rparen_line = p->L.tok_line;
  expect(p, T_RPAREN);
  if (count < builtins[bi].minargs || count > builtins[bi].maxargs) {
    char msg[128];
    snprintf(msg, sizeof msg, "%d is invalid as number of arguments for %s", count,
             builtins[bi].name);
    syntax_error_at(p, rparen, rparen_line, msg);
  }
  n->a = head;
  n->nargs = count;
  /* arguments that must be arrays or lvalues */
  awk_node *args[4] = {0};
  int k = 0;
  for (awk_node *a = head; a && k < 4; a = a->next) args[k++] = a;
  switch (id) {
  case AB_SPLIT:
  case AB_PATSPLIT:
    if (args[1]->type != AN_VAR && args[1]->type != AN_LOCAL)
      parse_fail(p, "%s: second argument is not an array", builtins[bi].name);
    if (count == 4 && args[3]->type != AN_VAR && args[3]->type != AN_LOCAL)
      parse_fail(p, "%s: fourth argument is not an array", builtins[bi].name);
    break;
  case AB_ASORT:
  case AB_ASORTI:
    if (args[0]->type != AN_VAR && args[0]->type != AN_LOCAL)
      parse_fail(p, "%s: first argument is not an array", builtins[bi].name);
    if (count >= 2 && args[1]->type != AN_VAR && args[1]->type != AN_LOCAL)
      parse_fail(p, "%s: second argument is not an array", builtins[bi].name);
    break;
  case AB_MATCH:
    if (count == 3 && args[2]->type != AN_VAR && args[2]->type != AN_LOCAL)
      parse_fail(p, "match: third argument is not an array");
    break;
  case AB_SUB:
  case AB_GSUB:
    if (count == 3 && !is_lvalue(args[2])) {
      /* gawk accepts a non-lvalue with a warning and discards the result */
      warn_at(p, "%s: third argument is not a changeable object", builtins[bi].name);
    }
    break;
  default:
    break;
  }
  return n;
}

/* getline [lvalue] [< file] (simple forms); `cmd | getline` is built by
 * the relational level. */
static awk_node *parse_getline_tail(parser *p, awk_node *n, int flags) {
  (void)flags;
  if (p->L.tok == T_NAME || p->L.tok == T_DOLLAR) {
    awk_node *lv = parse_primary(p, PF_NO_GT);
    if (!is_lvalue(lv)) syntax_error(p);
    n->a = lv;
  }
  return n;
}

static awk_node *parse_getline(parser *p, int flags) {
  awk_node *n = node(p, AN_GETLINE);
  n->op = AOP_RED_NONE;
  lex_next(p);
  parse_getline_tail(p, n, flags);
  if (p->L.tok == T_LT) {
    lex_next(p);
    n->op = AOP_RED_IN;
    /* the file operand: a primary-level expression (no concatenation) */
    n->b = parse_postfix(p, flags | PF_NO_GT);
  } else {
    p->prog->uses_getline = true;
  }
  return n;
}

static awk_node *parse_field_operand(parser *p, int flags) {
  enter(p);
  awk_node *r;
  if (p->L.tok == T_INCR || p->L.tok == T_DECR) {
    int op = p->L.tok == T_INCR ? AOP_PREINC : AOP_PREDEC;
    lex_next(p);
    awk_node *lv = parse_field_operand(p, flags);
    if (!is_lvalue(lv)) syntax_error(p);
    r = node2(p, AN_INCDEC, op, lv, NULL);
  } else if (p->L.tok == T_MINUS || p->L.tok == T_PLUS || p->L.tok == T_NOT) {
    int t = p->L.tok;
    lex_next(p);
    awk_node *e = parse_field_operand(p, flags);
    r = t == T_NOT ? node2(p, AN_NOT, 0, e, NULL)
                   : node2(p, AN_UNARY, t == T_MINUS ? AOP_NEG : AOP_PLUS, e, NULL);
  } else {
    r = parse_primary(p, flags);
  }
  leave(p);
  return r;
}

static awk_node *parse_primary(parser *p, int flags) {
  awk_node *n;
  enter(p);
  switch (p->L.tok) {
  case T_NUMBER:
    n = node(p, AN_NUM);
    n->num = p->L.num;
    lex_next(p);
    break;
  case T_STRING:
    n = node(p, AN_STR);
    n->str = keep_str(p, awk_str_ref(p->L.text));
    lex_next(p);
    break;
  case T_SLASH:
  case T_DIV_ASSIGN:
    lex_regex(p);
    n = new_regex(p, p->L.text);
    lex_next(p);
    break;
  case T_DOLLAR: {
    lex_next(p);
    awk_node *e = parse_field_operand(p, flags);
    n = node2(p, AN_FIELD, 0, e, NULL);
    break;
  }
  case T_LPAREN: {
    lex_next(p);
    opt_newlines(p);
    int count;
    awk_node *list = parse_expr_list(p, flags & ~(PF_NO_GT | PF_PRINT | PF_NO_IN), &count,
                                     T_RPAREN);
    opt_newlines(p);
    expect(p, T_RPAREN);
    if (count == 0) syntax_error(p);
    if (count > 1) {
      if (p->L.tok == T_IN) {
        lex_next(p);
        awk_node *arr = array_name(p);
        n = node2(p, AN_IN, 0, list, arr);
        n->nargs = count;
        break;
      }
      if (!(flags & PF_PRINT)) syntax_error(p);
    }
    n = node2(p, AN_GROUP, 0, list, NULL);
    n->nargs = count;
    break;
  }
  case T_NOT:
  case T_MINUS:
  case T_PLUS: {
    n = parse_unary(p, flags);
    break;
  }
  case T_INCR:
  case T_DECR: {
    int op = p->L.tok == T_INCR ? AOP_PREINC : AOP_PREDEC;
    lex_next(p);
    awk_node *lv = parse_primary(p, flags);
    if (!is_lvalue(lv)) syntax_error(p);
    n = node2(p, AN_INCDEC, op, lv, NULL);
    break;
  }
  case T_NAME: {
    char name[256];
    snprintf(name, sizeof name, "%s", p->L.text->p);
    if (p->L.text->len >= sizeof name) parse_fail(p, "name too long");
    lex_next(p);
    awk_node *v = var_node(p, name);
    if (p->L.tok == T_LBRACKET) {
      lex_next(p);
      opt_newlines(p);
      int count;
      awk_node *subs = parse_expr_list(p, 0, &count, T_RBRACKET);
      if (count == 0) syntax_error(p);
      opt_newlines(p);
      expect(p, T_RBRACKET);
      if (p->L.tok == T_LBRACKET) parse_fail(p, "arrays of arrays are not supported");
      n = node2(p, AN_INDEX, 0, v, subs);
      n->nargs = count;
    } else {
      n = v;
    }
    break;
  }
  case T_FUNC_NAME: {
    char name[256];
    if (p->L.text->len >= sizeof name) parse_fail(p, "name too long");
    snprintf(name, sizeof name, "%s", p->L.text->p);
    n = node(p, AN_CALL);
    n->idx = add_func(p, name);
    lex_next(p);
    expect(p, T_LPAREN);
    opt_newlines(p);
    int count;
    n->a = parse_expr_list(p, 0, &count, T_RPAREN);
    opt_newlines(p);
    expect(p, T_RPAREN);
    n->nargs = count;
    n->d = p->prog->calls;
    p->prog->calls = n;
    break;
  }
  case T_BUILTIN:
    n = parse_builtin(p);
    break;
  case T_GETLINE:
    n = parse_getline(p, flags);
    break;
  default:
    syntax_error(p);
  }
  leave(p);
  return n;
}

static awk_node *parse_postfix(parser *p, int flags) {
  awk_node *n = parse_primary(p, flags);
  if ((p->L.tok == T_INCR || p->L.tok == T_DECR) && is_lvalue(n)) {
    int op = p->L.tok == T_INCR ? AOP_POSTINC : AOP_POSTDEC;
    lex_next(p);
    n = node2(p, AN_INCDEC, op, n, NULL);
  }
  return n;
}

static awk_node *parse_pow(parser *p, int flags) {
  awk_node *base = parse_postfix(p, flags);
  if (p->L.tok == T_CARET) {
    lex_next(p);
    enter(p);
    /* right associative; the exponent may carry a unary sign */
    awk_node *e;
    if (p->L.tok == T_MINUS || p->L.tok == T_PLUS || p->L.tok == T_NOT) {
      e = parse_unary(p, flags);
    } else {
      e = parse_pow(p, flags);
    }
    leave(p);
    return node2(p, AN_BINARY, AOP_POW, base, e);
  }
  return base;
}

static awk_node *parse_unary(parser *p, int flags) {
  enter(p);
  awk_node *r;
  if (p->L.tok == T_NOT) {
    lex_next(p);
    r = node2(p, AN_NOT, 0, parse_unary(p, flags), NULL);
  } else if (p->L.tok == T_MINUS) {
    lex_next(p);
    r = node2(p, AN_UNARY, AOP_NEG, parse_unary(p, flags), NULL);
  } else if (p->L.tok == T_PLUS) {
    lex_next(p);
    r = node2(p, AN_UNARY, AOP_PLUS, parse_unary(p, flags), NULL);
  } else {
    r = parse_pow(p, flags);
  }
  leave(p);
  return r;
}

static awk_node *parse_mul(parser *p, int flags) {
  awk_node *l = parse_unary(p, flags);
  for (;;) {
    int op;
    switch (p->L.tok) {
    case T_STAR: op = AOP_MUL; break;
    case T_SLASH: op = AOP_DIV; break;
    case T_PERCENT: op = AOP_MOD; break;
    default: return l;
    }
    lex_next(p);
    awk_node *r = parse_unary(p, flags);
    if ((op == AOP_DIV || op == AOP_MOD) && r->type == AN_NUM && r->num == 0) {
      if (op == AOP_MOD) plain_error(p, "division by zero attempted in `%'");
      plain_error(p, "division by zero attempted");
    }
    l = node2(p, AN_BINARY, op, l, r);
  }
}

static awk_node *parse_add(parser *p, int flags) {
  awk_node *l = parse_mul(p, flags);
  for (;;) {
    int op;
    if (p->L.tok == T_PLUS) op = AOP_ADD;
    else if (p->L.tok == T_MINUS) op = AOP_SUB;
    else return l;
    lex_next(p);
    awk_node *r = parse_mul(p, flags);
    l = node2(p, AN_BINARY, op, l, r);
  }
}

/* Can the current token start a concatenated operand? */
static bool starts_concat_operand(parser *p, int flags) {
  switch (p->L.tok) {
  case T_NUMBER:
  case T_STRING:
  case T_NAME:
  case T_FUNC_NAME:
  case T_BUILTIN:
  case T_DOLLAR:
  case T_LPAREN:
  case T_NOT:
  case T_INCR:
  case T_DECR:
  case T_MINUS:
  case T_PLUS:
    return true;
  case T_IN:
    return false;
  case T_GETLINE:
    return !(flags & PF_PRINT) || true;
  default:
    return false;
  }
}

static awk_node *parse_concat(parser *p, int flags) {
  awk_node *l = parse_add(p, flags);
  int depth = 0;
  while (starts_concat_operand(p, flags) && p->L.tok != T_MINUS && p->L.tok != T_PLUS) {
    if (p->L.tok == T_NOT) break; /* `a !b` is not a concatenation in gawk */
    if (++depth > AWK_MAX_PARSE_DEPTH * 50) parse_fail(p, "expression too long");
    awk_node *r = parse_add(p, flags);
    l = node2(p, AN_CONCAT, 0, l, r);
  }
  return l;
}

static bool next_is_getline(parser *p) {
  lexstate s = lex_save(p);
  lex_next(p);
  bool r = p->L.tok == T_GETLINE;
  lex_restore(p, &s);
  return r;
}

static awk_node *parse_rel(parser *p, int flags) {
  awk_node *l = parse_concat(p, flags);
  for (;;) {
    int op;
    switch (p->L.tok) {
    case T_LT: op = AOP_LT; break;
    case T_LE: op = AOP_LE; break;
    case T_EQ: op = AOP_EQ; break;
    case T_NE: op = AOP_NE; break;
    case T_GE: op = AOP_GE; break;
    case T_GT:
      if (flags & PF_NO_GT) return l;
      op = AOP_GT;
      break;
    case T_PIPE:
      if (next_is_getline(p)) {
        lex_next(p); /* | */
        awk_node *g = node(p, AN_GETLINE);
        g->op = AOP_RED_CMD;
        lex_next(p); /* getline */
        parse_getline_tail(p, g, flags);
        g->b = l;
        l = g;
        continue;
      }
      return l;
    default:
      return l;
    }
    lex_next(p);
    awk_node *r = parse_concat(p, flags);
    l = node2(p, AN_CMP, op, l, r);
  }
}

static awk_node *parse_match(parser *p, int flags) {
  awk_node *l = parse_rel(p, flags);
  while (p->L.tok == T_TILDE || p->L.tok == T_NOMATCH) {
    int op = p->L.tok == T_TILDE ? AOP_MATCH : AOP_NOMATCH;
    lex_next(p);
    awk_node *r = parse_rel(p, flags);
    l = node2(p, AN_MATCH, op, l, r);
  }
  return l;
}

static awk_node *parse_in(parser *p, int flags) {
  awk_node *l = parse_match(p, flags);
  while (p->L.tok == T_IN && !(flags & PF_NO_IN)) {
    lex_next(p);
    awk_node *arr = array_name(p);
    if (l->type == AN_GROUP) {
      awk_node *n = node2(p, AN_IN, 0, l->a, arr);
      n->nargs = l->nargs;
      l = n;
    } else {
      l = node2(p, AN_IN, 0, l, arr);
      l->nargs = 1;
    }
  }
  return l;
}

static awk_node *parse_and(parser *p, int flags) {
  awk_node *l = parse_in(p, flags);
  while (p->L.tok == T_AND) {
    lex_next(p);
    opt_newlines(p);
    awk_node *r = parse_in(p, flags);
    l = node2(p, AN_AND, 0, l, r);
  }
  return l;
}

static awk_node *parse_or(parser *p, int flags) {
  awk_node *l = parse_and(p, flags);
  while (p->L.tok == T_OR) {
    lex_next(p);
    opt_newlines(p);
    awk_node *r = parse_and(p, flags);
    l = node2(p, AN_OR, 0, l, r);
  }
  return l;
}

static awk_node *parse_ternary(parser *p, int flags) {
  awk_node *c = parse_or(p, flags);
  if (p->L.tok != T_QUESTION) return c;
  lex_next(p);
  opt_newlines(p);
  enter(p);
  awk_node *a = parse_expr(p, flags);
  opt_newlines(p);
  expect(p, T_COLON);
  opt_newlines(p);
  awk_node *b = parse_expr(p, flags);
  leave(p);
  awk_node *n = node2(p, AN_COND, 0, c, a);
  n->c = b;
  return n;
}

static awk_node *parse_expr(parser *p, int flags) {
  enter(p);
  awk_node *l = parse_ternary(p, flags);
  int op = -1;
  switch (p->L.tok) {
  case T_ASSIGN: op = AOP_NONE; break;
  case T_ADD_ASSIGN: op = AOP_ADD; break;
  case T_SUB_ASSIGN: op = AOP_SUB; break;
  case T_MUL_ASSIGN: op = AOP_MUL; break;
  case T_DIV_ASSIGN: op = AOP_DIV; break;
  case T_MOD_ASSIGN: op = AOP_MOD; break;
  case T_POW_ASSIGN: op = AOP_POW; break;
  default: break;
  }
  if (op >= 0 && is_lvalue(l)) {
    lex_next(p);
    opt_newlines(p);
    awk_node *r = parse_expr(p, flags);
    l = node2(p, AN_ASSIGN, op, l, r);
  }
  leave(p);
  return l;
}

/* ---- statements ---------------------------------------------------------------------- */

static void end_simple(parser *p) {
  switch (p->L.tok) {
  case T_SEMI:
  case T_NEWLINE:
    lex_next(p);
    return;
  case T_RBRACE:
  case T_EOF:
    return;
  default:
    syntax_error(p);
  }
}

static awk_node *parse_block(parser *p) {
  awk_node *b = node(p, AS_BLOCK);
  expect(p, T_LBRACE);
  awk_node **tail = &b->a;
  for (;;) {
    while (p->L.tok == T_NEWLINE || p->L.tok == T_SEMI) lex_next(p);
    if (p->L.tok == T_RBRACE) break;
    if (p->L.tok == T_EOF) syntax_error(p);
    awk_node *s = parse_stmt(p);
    if (s) {
      *tail = s;
      tail = &s->next;
    }
  }
  lex_next(p);
  return b;
}

static awk_node *parse_simple_print(parser *p) {
  int type = p->L.tok == T_PRINT ? AS_PRINT : AS_PRINTF;
  awk_node *n = node(p, type);
  lex_next(p);
  int count = 0;
  awk_node *list = NULL;
  if (p->L.tok != T_SEMI && p->L.tok != T_NEWLINE && p->L.tok != T_RBRACE &&
      p->L.tok != T_GT && p->L.tok != T_APPEND && p->L.tok != T_PIPE && p->L.tok != T_EOF) {
    list = parse_expr_list(p, PF_NO_GT | PF_PRINT, &count, -1);
    if (count == 1 && list->type == AN_GROUP && list->nargs > 1) {
      count = list->nargs;
      list = list->a;
    }
  }
  if (type == AS_PRINTF && count == 0) syntax_error(p);
  n->a = list;
  n->nargs = count;
  n->op = AOP_RED_NONE;
  if (p->L.tok == T_GT || p->L.tok == T_APPEND || p->L.tok == T_PIPE) {
    n->op = p->L.tok == T_GT ? AOP_RED_FILE : p->L.tok == T_APPEND ? AOP_RED_APPEND : AOP_RED_PIPE;
    lex_next(p);
    n->b = parse_concat(p, PF_NO_GT | PF_PRINT);
  }
  return n;
}

static awk_node *parse_simple(parser *p) {
  awk_node *n;
  switch (p->L.tok) {
  case T_PRINT:
  case T_PRINTF:
    return parse_simple_print(p);
  case T_NEXT:
    if (p->rule_kind && !p->func)
      plain_error(p, p->rule_kind == 1 ? "`next' used in BEGIN action" : "`next' used in END action");
    n = node(p, AS_NEXT);
    lex_next(p);
    return n;
  case T_NEXTFILE:
    n = node(p, AS_NEXTFILE);
    lex_next(p);
    return n;
  case T_EXIT:
    n = node(p, AS_EXIT);
    lex_next(p);
    if (p->L.tok != T_SEMI && p->L.tok != T_NEWLINE && p->L.tok != T_RBRACE && p->L.tok != T_EOF)
      n->a = parse_expr(p, 0);
    return n;
  case T_RETURN:
    if (!p->func) parse_fail(p, "`return' used outside function context");
    n = node(p, AS_RETURN);
    lex_next(p);
    if (p->L.tok != T_SEMI && p->L.tok != T_NEWLINE && p->L.tok != T_RBRACE && p->L.tok != T_EOF)
      n->a = parse_expr(p, 0);
    return n;
  case T_BREAK:
    if (!p->loop_depth) parse_fail(p, "`break' is not allowed outside a loop");
    n = node(p, AS_BREAK);
    lex_next(p);
    return n;
  case T_CONTINUE:
    if (!p->loop_depth) parse_fail(p, "`continue' is not allowed outside a loop");
    n = node(p, AS_CONTINUE);
    lex_next(p);
    return n;
  case T_DELETE: {
    n = node(p, AS_DELETE);
    lex_next(p);
    bool paren = false;
    if (p->L.tok == T_LPAREN) {
      paren = true;
      lex_next(p);
    }
    n->a = array_name(p);
    if (p->L.tok == T_LBRACKET) {
      lex_next(p);
      int count;
      n->b = parse_expr_list(p, 0, &count, T_RBRACKET);
      if (!count) syntax_error(p);
      expect(p, T_RBRACKET);
      n->nargs = count;
    }
    if (paren) expect(p, T_RPAREN);
    return n;
  }
  default:
    n = node(p, AS_EXPR);
    n->a = parse_expr(p, 0);
    return n;
  }
}

static awk_node *parse_simple_or_empty(parser *p) {
  if (p->L.tok == T_SEMI || p->L.tok == T_RPAREN) return NULL;
  return parse_simple(p);
}

static awk_node *parse_body(parser *p) {
  opt_newlines(p);
  if (p->L.tok == T_SEMI) {
    lex_next(p);
    return node(p, AS_BLOCK);
  }
  return parse_stmt(p);
}

static awk_node *parse_stmt(parser *p) {
  enter(p);
  awk_node *n;
  switch (p->L.tok) {
  case T_LBRACE:
    n = parse_block(p);
    break;
  case T_IF: {
    n = node(p, AS_IF);
    lex_next(p);
    expect(p, T_LPAREN);
    opt_newlines(p);
    n->a = parse_expr(p, 0);
    opt_newlines(p);
    expect(p, T_RPAREN);
    n->b = parse_body(p);
    /* look for else, past newlines and one semicolon */
    lexstate s = lex_save(p);
    while (p->L.tok == T_NEWLINE || p->L.tok == T_SEMI) lex_next(p);
    if (p->L.tok == T_ELSE) {
      lex_drop(p, &s);
      lex_next(p);
      n->c = parse_body(p);
    } else {
      lex_restore(p, &s);
    }
    break;
  }
  case T_WHILE: {
    n = node(p, AS_WHILE);
    lex_next(p);
    expect(p, T_LPAREN);
    opt_newlines(p);
    n->a = parse_expr(p, 0);
    opt_newlines(p);
    expect(p, T_RPAREN);
    if (p->L.tok == T_SEMI) {
      lex_next(p);
      n->b = node(p, AS_BLOCK);
      break;
    }
    p->loop_depth++;
    n->b = parse_body(p);
    p->loop_depth--;
    break;
  }
  case T_DO: {
    n = node(p, AS_DO);
    lex_next(p);
    p->loop_depth++;
    n->b = parse_body(p);
    p->loop_depth--;
    while (p->L.tok == T_NEWLINE || p->L.tok == T_SEMI) lex_next(p);
    expect(p, T_WHILE);
    expect(p, T_LPAREN);
    opt_newlines(p);
    n->a = parse_expr(p, 0);
    opt_newlines(p);
    expect(p, T_RPAREN);
    end_simple(p);
    break;
  }
  case T_FOR: {
    lex_next(p);
    expect(p, T_LPAREN);
    /* for (name in array) ? */
    if (p->L.tok == T_NAME) {
      lexstate s = lex_save(p);
      char name[256];
      snprintf(name, sizeof name, "%s", p->L.text->p);
      lex_next(p);
      if (p->L.tok == T_IN) {
        lex_next(p);
        if (p->L.tok == T_NAME) {
          char aname[256];
          snprintf(aname, sizeof aname, "%s", p->L.text->p);
          lex_next(p);
          if (p->L.tok == T_RPAREN) {
            lex_drop(p, &s);
            lex_next(p);
            n = node(p, AS_FORIN);
            n->a = var_node(p, name);
            n->b = var_node(p, aname);
            p->loop_depth++;
            n->d = parse_body(p);
            p->loop_depth--;
            break;
          }
        }
      }
      lex_restore(p, &s);
    }
    n = node(p, AS_FOR);
    n->a = parse_simple_or_empty(p);
    opt_newlines(p);
    expect(p, T_SEMI);
    opt_newlines(p);
    if (p->L.tok != T_SEMI) n->b = parse_expr(p, 0);
    opt_newlines(p);
    expect(p, T_SEMI);
    opt_newlines(p);
    n->c = parse_simple_or_empty(p);
    opt_newlines(p);
    expect(p, T_RPAREN);
    if (p->L.tok == T_SEMI) {
      lex_next(p);
      n->d = node(p, AS_BLOCK);
      break;
    }
    p->loop_depth++;
    n->d = parse_body(p);
    p->loop_depth--;
    break;
  }
  case T_SEMI:
    lex_next(p);
    n = NULL;
    break;
  default:
    n = parse_simple(p);
    end_simple(p);
    break;
  }
  leave(p);
  return n;
}

/* ---- program ------------------------------------------------------------------------ */

static void add_rule(awk_rule **list, awk_rule *r) {
  while (*list) list = &(*list)->next;
  *list = r;
}

static void parse_function(parser *p) {
  lex_next(p);
  if (p->L.tok != T_NAME && p->L.tok != T_FUNC_NAME) {
    if (p->L.tok == T_BUILTIN) parse_fail(p, "function name `%s' is a builtin", p->L.text->p);
    syntax_error(p);
  }
  char name[256];
  if (p->L.text->len >= sizeof name) parse_fail(p, "name too long");
  snprintf(name, sizeof name, "%s", p->L.text->p);
  if (awk_find_global(p->prog, name) >= AWK_NSPECIAL || awk_find_global(p->prog, name) >= 0) {
    int g = awk_find_global(p->prog, name);
    if (g >= 0 && g < AWK_NSPECIAL)
      parse_fail(p, "function name `%s' is a special variable", name);
  }
  int fi = add_func(p, name);
  awk_func *f = &p->prog->funcs[fi];
  if (f->defined) parse_fail(p, "function `%s' previously defined", name);
  lex_next(p);
  expect(p, T_LPAREN);
  opt_newlines(p);
  char **params = NULL;
  int np = 0;
  while (p->L.tok == T_NAME) {
    for (int i = 0; i < np; i++)
      if (!strcmp(params[i], p->L.text->p))
        parse_fail(p, "function `%s': parameter #%d, `%s', duplicates parameter #%d", name,
                   np + 1, p->L.text->p, i + 1);
    char **nps = realloc(params, (size_t)(np + 1) * sizeof *nps);
    if (!nps) awk_fatal(p->in, "out of memory");
    params = nps;
    /* owned by the function entry at once, so an error frees them */
    p->prog->funcs[fi].params = params;
    params[np] = strdup(p->L.text->p);
    if (!params[np]) awk_fatal(p->in, "out of memory");
    p->prog->funcs[fi].nparams = ++np;
    lex_next(p);
    opt_newlines(p);
    if (p->L.tok != T_COMMA) break;
    lex_next(p);
    opt_newlines(p);
  }
  f = &p->prog->funcs[fi];
  f->params = params;
  f->nparams = np;
  if (p->L.tok != T_RPAREN) syntax_error(p);
  lex_next(p);
  opt_newlines(p);
  f->defined = true;
  p->func = f;
  awk_node *body = parse_block(p);
  p->func = NULL;
  p->prog->funcs[fi].body = body;
}

static void parse_item(parser *p) {
  awk_program *prog = p->prog;
  switch (p->L.tok) {
  case T_BEGIN:
  case T_END:
  case T_BEGINFILE:
  case T_ENDFILE: {
    int t = p->L.tok;
    lex_next(p);
    if (p->L.tok != T_LBRACE) {
      const char *what = t == T_BEGIN ? "BEGIN" : t == T_END ? "END" : t == T_BEGINFILE ? "BEGINFILE" : "ENDFILE";
      parse_fail(p, "%s blocks must have an action part", what);
    }
    awk_rule *r = palloc(p, sizeof *r);
    p->rule_kind = t == T_BEGIN ? 1 : t == T_END ? 2 : 0;
    r->action = parse_block(p);
    p->rule_kind = 0;
    add_rule(t == T_BEGIN ? &prog->begin : t == T_END ? &prog->end
             : t == T_BEGINFILE ? &prog->beginfile : &prog->endfile, r);
    return;
  }
  case T_FUNCTION:
    parse_function(p);
    return;
  case T_LBRACE: {
    awk_rule *r = palloc(p, sizeof *r);
    r->action = parse_block(p);
    add_rule(&prog->main, r);
    return;
  }
  default: {
    awk_rule *r = palloc(p, sizeof *r);
    r->pattern = parse_expr(p, 0);
    if (p->L.tok == T_COMMA) {
      lex_next(p);
      opt_newlines(p);
      r->pattern2 = parse_expr(p, 0);
    }
    if (p->L.tok == T_LBRACE) r->action = parse_block(p);
    add_rule(&prog->main, r);
    return;
  }
  }
}

static int parse_source(parser *p) {
  lex_next(p);
  for (;;) {
    while (p->L.tok == T_NEWLINE || p->L.tok == T_SEMI) lex_next(p);
    if (p->L.tok == T_EOF) break;
    parse_item(p);
    if (p->L.tok != T_NEWLINE && p->L.tok != T_SEMI && p->L.tok != T_EOF) {
      /* rules on one line need no separator after a block */
      if (p->L.tok == T_RBRACE) syntax_error(p);
      continue;
    }
  }
  return 0;
}

int awk_parse(awk_interp *in, const awk_source *srcs, int nsrcs, awk_program *prog) {
  static const char *specials[AWK_NSPECIAL] = {
      "NF", "NR", "FNR", "FS", "OFS", "ORS", "RS", "FILENAME", "SUBSEP", "RSTART", "RLENGTH",
      "CONVFMT", "OFMT", "ENVIRON", "ARGC", "ARGV", "RT", "IGNORECASE", "PROCINFO", "ERRNO",
      "FIELDWIDTHS", "FPAT"};
  if (prog->nglobals == 0)
    for (int i = 0; i < AWK_NSPECIAL; i++)
      if (awk_add_global(prog, specials[i]) != i) return 2;
  for (int i = 0; i < nsrcs; i++) {
    parser *p = calloc(1, sizeof *p);
    if (!p) return 2;
    p->in = in;
    p->prog = prog;
    p->src = srcs[i].text;
    p->len = srcs[i].len;
    p->srcname = srcs[i].name;
    p->L.line = 1;
    int rc = setjmp(p->err);
    if (rc == 0) parse_source(p);
    if (p->L.text) awk_str_unref(in, p->L.text);
    free(p);
    if (rc) return rc == 2 ? 2 : 1;
  }
  /* every called function must exist */
  for (int i = 0; i < prog->nfuncs; i++) {
    if (!prog->funcs[i].defined) {
      cmd_err_raw(in->ctx, "%s: %s:%d: fatal: function `%s' not defined\n", in->progname,
                  srcs[nsrcs - 1].name, prog->funcs[i].line, prog->funcs[i].name);
      return 2;
    }
  }
  for (awk_node *c = prog->calls; c; c = c->d) {
    awk_func *f = &prog->funcs[c->idx];
    if (c->nargs > f->nparams)
      cmd_err_raw(in->ctx, "%s: %s:%d: warning: function `%s' called with more arguments than declared\n",
                  in->progname, srcs[nsrcs - 1].name, c->line, f->name);
  }
  return 0;
}

void awk_program_free(awk_interp *in, awk_program *prog) {
  (void)in;
  struct awk_chunk *c = prog->chunks;
  while (c) {
    /* free the compiled regexes in this chunk's nodes */
    struct awk_chunk *n = c->next;
    free(c);
    c = n;
  }
  prog->chunks = NULL;
  for (int i = 0; i < prog->nregexes; i++) awk_re_free(prog->regexes[i]);
  free(prog->regexes);
  for (int i = 0; i < prog->nfuncs; i++) {
    free(prog->funcs[i].name);
    for (int j = 0; j < prog->funcs[i].nparams; j++) free(prog->funcs[i].params[j]);
    free(prog->funcs[i].params);
  }
  free(prog->funcs);
  for (int i = 0; i < prog->nglobals; i++) free(prog->globals[i]);
  free(prog->globals);
  memset(prog, 0, sizeof *prog);
}
