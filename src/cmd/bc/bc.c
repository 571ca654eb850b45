/*
 * bc - an arbitrary precision calculator language (GNU bc 1.07.1).
 *
 *   Usage: bc [options] [file ...]
 *   -h, --help  -i, --interactive  -l, --mathlib  -q, --quiet
 *   -s, --standard  -w, --warn  -v, --version
 *
 * Design: GNU bc compiles each line (or each function) to a string of
 * bytecodes and reports runtime errors with the offset of the failing
 * instruction ("Runtime error (func=(main), adr=3): Divide by zero"). To
 * print the same offsets this file compiles to the same bytecode layout:
 * '0'/'1' for those constants, "K<digits>:" for others, one byte for a
 * variable, array or function number below 128 (two above), two bytes per
 * jump label, "C<f><param kinds>:" for calls, strings inline up to '"'.
 * The parser is recursive descent with yacc's precedences of GNU's bc.y
 * (assignment binds tighter than comparisons; '!' is below comparisons;
 * unary minus is above '^'), and keeps one token of lookahead so that line
 * numbers in "(standard_in) N: syntax error" match bison's.
 *
 * Execution follows GNU: a top-level line runs once it is parsed whole (a
 * syntax error anywhere drops the line), `quit` exits while parsing,
 * `halt` when executed; variables are dynamically scoped (a call pushes its
 * parameters and autos onto each name's value stack); arrays are sparse
 * pages, passed by value or, with `*a[]`, by reference; constants in a
 * function use the ibase of the moment it was called. Numbers are
 * bc/bc_num.c's, output wraps lines at BC_LINE_LENGTH (default 70) with
 * "\" like GNU's out_char. The -l library (s c a l e j) is written in C
 * here, operation by operation and scale by scale like GNU's libmath.b, so
 * that every printed digit matches.
 *
 * Limits: numbers longer than ctx->max_string digits are a runtime error
 * ("number too long"), long computations and loops poll cmd_poll (the
 * command stops and returns 130), calls nest at most 10000 deep, the
 * expression stack holds at most 1,000,000 values, parse nesting is bounded.
 * Input is read line by line, so `yes | bc` runs in constant memory.
 *
 * -w warns about GNU extensions as GNU does ("(Warning) print statement"),
 * -s makes them errors that drop the line. Not implemented: BC_ENV_ARGS; read() reads only from standard input when the program comes
 * from files (GNU shares the program's stream).
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/lib/getopt_msg.h"
#include "cmd/bc/bc_num.h"
#include "cmd/lib/buf.h"

CMD_DEFINE("bc", cmd_bc_main);

typedef unsigned char uchar;
typedef cmd_bcnum num;

#define BCX_DIM_MAX 16777215L
#define BC_MAX_CALLS 10000
#define BC_MAX_STACK 1000000
#define BC_MAX_NEST 1000
#define BC_MAX_NAMES 32767
#define BC_PAGE 256

/* Special variables (GNU's numbering). */
enum { V_IBASE, V_OBASE, V_SCALE, V_LAST, V_FIRST_USER };

/* ---- tokens ------------------------------------------------------------------------ */

enum tok {
  T_EOF, T_NL, T_SEMI, T_COMMA, T_LPAREN, T_RPAREN, T_LBRACK, T_RBRACK, T_LBRACE, T_RBRACE,
  T_NUMBER, T_STRING, T_NAME, T_ASSIGN, T_REL, T_PLUS, T_MINUS, T_MUL, T_DIV, T_MOD, T_POW,
  T_NOT, T_AND, T_OR, T_INCR, T_DECR,
  /* keywords */
  T_AUTO, T_BREAK, T_CONTINUE, T_DEFINE, T_ELSE, T_FOR, T_HALT, T_IBASE, T_IF, T_LAST,
  T_LENGTH, T_LIMITS, T_OBASE, T_PRINT, T_QUIT, T_READ, T_RETURN, T_SCALE, T_SQRT,
  T_WARRANTY, T_WHILE, T_VOID,
};

static const struct {
  const char *word; /* the keyword */
  enum tok tok;     /* its token */
} bc_keywords[] = {
    {"auto", T_AUTO},     {"break", T_BREAK},     {"continue", T_CONTINUE}, {"define", T_DEFINE},
    {"else", T_ELSE},     {"for", T_FOR},         {"halt", T_HALT},         {"ibase", T_IBASE},
    {"if", T_IF},         {"last", T_LAST},       {"length", T_LENGTH},     {"limits", T_LIMITS},
    {"obase", T_OBASE},   {"print", T_PRINT},     {"quit", T_QUIT},         {"read", T_READ},
    {"return", T_RETURN}, {"scale", T_SCALE},     {"sqrt", T_SQRT},         {"warranty", T_WARRANTY},
    {"while", T_WHILE},   {"void", T_VOID},
};

/* ---- runtime structures ----------------------------------------------------------------- */

typedef struct bc_code {
  uchar *b;        /* the bytecode */
  size_t len, cap; /* used / allocated */
} bc_code;

/* A sparse array: pages of BC_PAGE numbers, allocated when written. */
typedef struct bc_array {
  num **pages;   /* page p holds indexes [p*BC_PAGE, (p+1)*BC_PAGE), or NULL */
  size_t npages; /* length of pages */
  int refs;      /* frames pointing here (by-reference parameters) */
} bc_array;

typedef struct bc_vframe {
  num v;                  /* the value */
  struct bc_vframe *next; /* the value this one hides (caller's) */
} bc_vframe;

typedef struct bc_aframe {
  bc_array *a;            /* the array (shared when by reference) */
  struct bc_aframe *next; /* the array this one hides */
} bc_aframe;

enum { P_VALUE, P_ARRAY, P_REF };

typedef struct bc_param {
  int kind;  /* P_VALUE, P_ARRAY (copied) or P_REF (*a[], shared) */
  int index; /* variable or array number */
} bc_param;

struct bc_state;
typedef int (*bc_native)(struct bc_state *b, num *args, num *out);

typedef struct bc_func {
  char *name;        /* for messages */
  bool defined;      /* has a body */
  bool is_void;      /* define void */
  bc_code code;      /* the body */
  size_t *labels;    /* label number -> address */
  size_t nlabels;
  bc_param *params;  /* in order */
  int nparams;
  bc_param *autos;
  int nautos;
  bc_native native;  /* the -l functions */
} bc_func;

/* A name table (variables, arrays, functions each have their own). */
typedef struct bc_names {
  char **names;      /* index -> name */
  size_t n, cap;
  int *hash;         /* open addressing: index + 1, 0 = empty */
  size_t hcap;
} bc_names;

/* A call in progress. */
typedef struct bc_frame {
  int func;          /* the function */
  size_t pc;         /* where to continue */
  long ibase;        /* the ibase its constants use */
} bc_frame;

/* The lexer's view of the current input. */
typedef struct bc_lex {
  cmd_in *in;        /* the source (NULL: a string) */
  const char *fname; /* "(standard_in)" or the file name, for messages */
  char *buf;         /* text read and not consumed yet */
  size_t pos, len, cap;
  bool eof;          /* the source is exhausted */
  bool echo;         /* -i on standard input: lines are echoed as read */
  long line;         /* bison's line_no: lines started so far */
} bc_lex;

typedef struct bc_token {
  enum tok t;
  char *text;        /* NUMBER, STRING, NAME: malloc'd */
  size_t len;
  int op;            /* ASSIGN: '=' or the operator; REL: '=', '#', '<', '{', '>', '}' */
} bc_token;

typedef struct bc_state {
  cmd_ctx *ctx;
  cmd_bcenv env;
  cmd_bcmem mem;       /* the memory account of this run's numbers */
  bool mathlib, standard, warn_posix;
  /* names and storage */
  bc_names var_names, array_names, func_names;
  bc_vframe **vars;    /* per variable number: its value stack (NULL = 0) */
  size_t nvars;
  bc_aframe **arrays;  /* per array number */
  size_t narrays;
  bc_func *funcs;      /* per function number; 0 is main */
  size_t nfuncs;
  long ibase, obase, scale;
  num last;
  /* execution */
  num *stack;
  size_t sp, scap;
  bc_frame *frames;
  size_t nframes, fcap;
  bool rt_error;       /* the current unit failed */
  bool halted;         /* halt or quit */
  bool stopped;        /* cmd_poll or a write error */
  uint64_t steps;      /* instructions since the last poll */
  /* output */
  long out_col, line_size;
  /* parsing */
  bc_lex lex;
  bc_token tok;        /* the lookahead */
  bool have_tok;
  bc_code main_code;   /* the current top-level unit (function 0's code) */
  bc_code *code;       /* where code goes: main_code or a function body
                          being parsed (never into funcs[], which moves) */
  int cur_func;        /* the function being defined, -1 for main */
  size_t *labels;      /* labels of the code being generated */
  size_t nlabels, lcap;
  int break_label, continue_label;
  bool had_error;      /* a syntax error in the current unit */
  bool unit_used;      /* the current unit has a statement */
  bool drop_unit;      /* an illegal character: do not run the unit */
  int braces;          /* open braces in the current unit (for recovery) */
  int depth;           /* parse nesting */
  cmd_in *stdin_in;    /* read() */
} bc_state;

/* ---- small helpers ------------------------------------------------------------------------ */

static void *xrealloc(void *p, size_t n) {
  void *q = realloc(p, n ? n : 1);
  return q;
}

static int code_add(bc_code *c, const void *p, size_t n) {
  if (cmd_grow(&c->b, &c->cap, c->len + n, 1)) return -ENOMEM;
  memcpy(c->b + c->len, p, n);
  c->len += n;
  return 0;
}

static uint32_t name_hash(const char *s, size_t n) {
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < n; i++) h = (h ^ (uchar)s[i]) * 16777619u;
  return h;
}

/* The number of `name` in t, adding it when new (first = first number
 * given out). -1 on OOM, -2 when the table is full. */
static int names_lookup(bc_names *t, const char *s, size_t n, int first) {
  if (t->hcap == 0 || (t->n + 1) * 2 > t->hcap) {
    size_t ncap = t->hcap ? t->hcap * 2 : 64;
    int *nh = calloc(ncap, sizeof *nh);
    if (!nh) return -1;
    for (size_t i = 0; i < t->n; i++) {
      size_t j = name_hash(t->names[i], strlen(t->names[i])) & (ncap - 1);
      while (nh[j]) j = (j + 1) & (ncap - 1);
      nh[j] = (int)i + 1;
    }
    free(t->hash);
    t->hash = nh;
    t->hcap = ncap;
  }
  size_t j = name_hash(s, n) & (t->hcap - 1);
  while (t->hash[j]) {
    const char *c = t->names[t->hash[j] - 1];
    if (strlen(c) == n && memcmp(c, s, n) == 0) return t->hash[j] - 1 + first;
    j = (j + 1) & (t->hcap - 1);
  }
  if (t->n >= BC_MAX_NAMES) return -2;
  if (cmd_grow(&t->names, &t->cap, t->n + 1, sizeof *t->names)) return -1;
  char *copy = malloc(n + 1);
  if (!copy) return -1;
  memcpy(copy, s, n);
  copy[n] = '\0';
  t->names[t->n] = copy;
  t->hash[j] = (int)t->n + 1;
  return (int)t->n++ + first;
}

static void names_free(bc_names *t) {
  for (size_t i = 0; i < t->n; i++) free(t->names[i]);
  free(t->names);
  free(t->hash);
}

/* ---- output (GNU's out_char) --------------------------------------------------------------- */

static void out_char(void *ud, int ch) {
  bc_state *b = ud;
  if (b->stopped) return;
  if (ch == '\n') {
    b->out_col = 0;
  } else {
    b->out_col++;
    if (b->line_size > 0 && b->out_col == b->line_size - 1) {
      if (cmd_outs(b->ctx, "\\\n") < 0) b->stopped = true;
      b->out_col = 1;
    }
  }
  if (cmd_outc(b->ctx, ch) < 0) b->stopped = true;
}

/* ---- messages ------------------------------------------------------------------------------------- */

static const char *func_name(bc_state *b, int f) {
  return f == 0 ? "(main)" : b->funcs[f].name;
}

/* "Runtime error (func=F, adr=N): ..." and the unit stops. */
static void rt_error(bc_state *b, int func, size_t adr, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void rt_error(bc_state *b, int func, size_t adr, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  cmd_err_raw(b->ctx, "Runtime error (func=%s, adr=%zu): %s\n", func_name(b, func), adr, msg);
  b->rt_error = true;
}

static void rt_warn(bc_state *b, int func, size_t adr, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void rt_warn(bc_state *b, int func, size_t adr, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  cmd_err_raw(b->ctx, "Runtime warning (func=%s, adr=%zu): %s\n", func_name(b, func), adr, msg);
}

/* A bcnum error as GNU words it (or the sandbox's limits). */
static void num_error(bc_state *b, int func, size_t adr, int rc, const char *what) {
  switch (rc) {
    case -EDOM: rt_error(b, func, adr, "%s", what); break;
    case -E2BIG:
      rt_error(b, func, adr, "number too long (more than %zu digits, the sandbox's string limit)",
               b->env.max_digits);
      break;
    case -ECANCELED: b->stopped = true; b->rt_error = true; break;
    case -ERANGE: rt_error(b, func, adr, "exponent too large in raise"); break;
    case -ENOSPC:
      rt_error(b, func, adr, "out of memory (numbers in use exceed %llu MiB, the sandbox's limit)",
               (unsigned long long)(b->mem.max >> 20));
      break;
    default: rt_error(b, func, adr, "out of memory"); break;
  }
}

/* "(standard_in) N: msg" (or the file name). */
static void yyerror(bc_state *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void yyerror(bc_state *b, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  cmd_err_raw(b->ctx, "%s %ld: %s\n", b->lex.fname, b->lex.line, msg);
  b->had_error = true;
}

/* A construct POSIX bc lacks: a warning with -w, an error with -s (the
 * line does not run), nothing otherwise (GNU's ct_warn). */
static void ct_warn(bc_state *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void ct_warn(bc_state *b, const char *fmt, ...) {
  if (!b->standard && !b->warn_posix) return;
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  cmd_err_raw(b->ctx, "%s %ld: %s%s\n", b->lex.fname, b->lex.line,
              b->standard ? "Error: " : "(Warning) ", msg);
  if (b->standard) b->drop_unit = true;
}

/* ---- the lexer ----------------------------------------------------------------------------------- */

/* Makes at least `need` unconsumed bytes available if the source has them.
 * Returns the number available. */
static size_t lex_avail(bc_state *b, size_t need) {
  bc_lex *l = &b->lex;
  while (l->len - l->pos < need && !l->eof && l->in) {
    char *line = NULL;
    ssize_t n = cmd_in_getdelim(l->in, &line, '\n');
    if (n <= 0) {
      l->eof = true;
      break;
    }
    if (l->pos > 0 && l->pos == l->len) l->pos = l->len = 0;
    if (l->len + (size_t)n + 1 > l->cap) {
      if (l->pos > 0) {
        memmove(l->buf, l->buf + l->pos, l->len - l->pos);
        l->len -= l->pos;
        l->pos = 0;
      }
      if (cmd_grow(&l->buf, &l->cap, l->len + (size_t)n + 1, 1)) {
        l->eof = true;
        break;
      }
    }
    memcpy(l->buf + l->len, line, (size_t)n);
    l->len += (size_t)n;
    if (l->echo) {
      /* readline, not on a terminal, echoes what it reads */
      cmd_out(b->ctx, line, (size_t)n);
      if (line[n - 1] != '\n') cmd_outc(b->ctx, '\n');
    }
  }
  return l->len - l->pos;
}

static int lex_peekc(bc_state *b, size_t off) {
  if (lex_avail(b, off + 1) <= off) return -1;
  return (uchar)b->lex.buf[b->lex.pos + off];
}

static bool is_digit36(int c) { return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z'); }
static bool is_name_start(int c) { return c >= 'a' && c <= 'z'; }
static bool is_name_char(int c) { return is_name_start(c) || (c >= '0' && c <= '9') || c == '_'; }

static void tok_free(bc_token *t) {
  free(t->text);
  t->text = NULL;
}

/* Scans the next token into b->tok. */
static void lex_next(bc_state *b) {
  bc_lex *l = &b->lex;
  bc_token *t = &b->tok;
  tok_free(t);
  t->op = 0;
  t->len = 0;
  for (;;) {
    int c = lex_peekc(b, 0);
    if (c < 0) {
      t->t = T_EOF;
      return;
    }
    if (c == ' ' || c == '\t') {
      l->pos++;
      continue;
    }
    if (c == '\\' && lex_peekc(b, 1) == '\n') {
      l->pos += 2;
      l->line++;
      continue;
    }
    if (c == '#') {
      while ((c = lex_peekc(b, 0)) >= 0 && c != '\n') l->pos++;
      continue;
    }
    if (c == '/' && lex_peekc(b, 1) == '*') {
      l->pos += 2;
      for (;;) {
        c = lex_peekc(b, 0);
        if (c < 0) {
          cmd_err_raw(b->ctx, "EOF encountered in a comment.\n");
          b->halted = true;
          t->t = T_EOF;
          return;
        }
        l->pos++;
        if (c == '\n') l->line++;
        if (c == '*' && lex_peekc(b, 0) == '/') {
          l->pos++;
          break;
        }
      }
      continue;
    }
    break;
  }
  int c = lex_peekc(b, 0);
  /* numbers */
  if (is_digit36(c) || (c == '.' && is_digit36(lex_peekc(b, 1)))) {
    size_t cap = 32, n = 0;
    char *s = malloc(cap);
    bool dot = false;
    for (;;) {
      c = lex_peekc(b, 0);
      if (c == '\\' && lex_peekc(b, 1) == '\n') {
        l->pos += 2;
        l->line++;
        continue;
      }
      if (c == '.' && !dot) {
        dot = true;
      } else if (!is_digit36(c)) {
        break;
      }
      if (cmd_grow(&s, &cap, n + 2, 1)) break;
      if (s) s[n++] = (char)c;
      l->pos++;
    }
    /* GNU: drop a trailing '.', then leading zeros (keeping one digit) */
    if (n && s[n - 1] == '.') n--;
    size_t z = 0;
    while (z < n && s[z] == '0') z++;
    if (z == n && n > 0) z = n - 1;
    memmove(s, s + z, n - z);
    n -= z;
    s[n] = '\0';
    t->t = T_NUMBER;
    t->text = s;
    t->len = n;
    return;
  }
  if (is_name_start(c)) {
    size_t n = 0;
    while (is_name_char(lex_peekc(b, n))) n++;
    const char *w = l->buf + l->pos;
    for (size_t k = 0; k < sizeof bc_keywords / sizeof bc_keywords[0]; k++) {
      if (strlen(bc_keywords[k].word) == n && memcmp(bc_keywords[k].word, w, n) == 0) {
        t->t = bc_keywords[k].tok;
        l->pos += n;
        return;
      }
    }
    t->text = malloc(n + 1);
    if (t->text) {
      memcpy(t->text, w, n);
      t->text[n] = '\0';
    }
    t->len = n;
    t->t = T_NAME;
    l->pos += n;
    if (n > 1 && t->text) ct_warn(b, "multiple letter name - %s", t->text);
    return;
  }
  if (c == '"') {
    /* a string needs its closing quote; else the quote is illegal */
    size_t n = 1;
    int d;
    while ((d = lex_peekc(b, n)) >= 0 && d != '"') n++;
    if (d == '"') {
      t->t = T_STRING;
      t->len = n - 1;
      t->text = malloc(n);
      if (t->text) {
        memcpy(t->text, l->buf + l->pos + 1, n - 1);
        t->text[n - 1] = '\0';
      }
      for (size_t i = 1; i < n; i++)
        if (l->buf[l->pos + i] == '\n') l->line++;
      l->pos += n + 1;
      return;
    }
  }
  l->pos++;
  /* the second character of two-character tokens (never past a newline, so
   * that a line runs before the next one is read) */
  int c2 = strchr("+-*/%^=<>!&|", c) ? lex_peekc(b, 0) : -1;
  switch (c) {
    case '\n': l->line++; t->t = T_NL; return;
    case ';': t->t = T_SEMI; return;
    case ',': t->t = T_COMMA; return;
    case '(': t->t = T_LPAREN; return;
    case ')': t->t = T_RPAREN; return;
    case '[': t->t = T_LBRACK; return;
    case ']': t->t = T_RBRACK; return;
    case '{': t->t = T_LBRACE; return;
    case '}': t->t = T_RBRACE; return;
    case '.': t->t = T_LAST; return;
    case '+': case '-': case '*': case '/': case '%': case '^':
      if (c2 == '=') {
        l->pos++;
        t->t = T_ASSIGN;
        t->op = c;
        return;
      }
      if ((c == '+' || c == '-') && c2 == c) {
        l->pos++;
        t->t = c == '+' ? T_INCR : T_DECR;
        return;
      }
      t->t = c == '+' ? T_PLUS : c == '-' ? T_MINUS : c == '*' ? T_MUL : c == '/' ? T_DIV
           : c == '%' ? T_MOD : T_POW;
      return;
    case '=':
      if (c2 == '=') {
        l->pos++;
        t->t = T_REL;
        t->op = '=';
        return;
      }
      t->t = T_ASSIGN;
      t->op = '=';
      return;
    case '<': case '>':
      t->t = T_REL;
      if (c2 == '=') {
        l->pos++;
        t->op = c == '<' ? '{' : '}';
      } else {
        t->op = c;
      }
      return;
    case '!':
      if (c2 == '=') {
        l->pos++;
        t->t = T_REL;
        t->op = '#';
        return;
      }
      t->t = T_NOT;
      return;
    case '&':
      if (c2 == '&') {
        l->pos++;
        t->t = T_AND;
        return;
      }
      break;
    case '|':
      if (c2 == '|') {
        l->pos++;
        t->t = T_OR;
        return;
      }
      break;
    default: break;
  }
  yyerror(b, "illegal character: %c", c);
  b->had_error = false; /* not a parse error: the parse goes on ... */
  b->drop_unit = true;  /* ... but the line will not run */
  lex_next(b);
}

static enum tok peek(bc_state *b) {
  if (!b->have_tok) {
    lex_next(b);
    b->have_tok = true;
  }
  return b->tok.t;
}

static void consume(bc_state *b) {
  peek(b);
  b->have_tok = false;
}

/* ---- code generation ----------------------------------------------------------------------------- */

static void gen(bc_state *b, const char *s) { code_add(b->code, s, strlen(s)); }
static void gen_c(bc_state *b, int c) {
  uchar ch = (uchar)c;
  code_add(b->code, &ch, 1);
}

/* A variable/array/function number: one byte below 128, else two. */
static void gen_num(bc_state *b, int n) {
  if (n < 128) {
    gen_c(b, n);
  } else {
    gen_c(b, 0x80 | (n >> 8));
    gen_c(b, n & 0xff);
  }
}

static int new_label(bc_state *b) {
  if (cmd_grow(&b->labels, &b->lcap, b->nlabels + 1, sizeof *b->labels)) return 0;
  b->labels[b->nlabels] = (size_t)-1;
  return (int)b->nlabels++;
}

static void gen_jump(bc_state *b, int op, int label) {
  gen_c(b, op);
  gen_c(b, (label >> 8) & 0xff);
  gen_c(b, label & 0xff);
}

static void set_label(bc_state *b, int label) {
  if (label >= 0 && (size_t)label < b->nlabels) b->labels[label] = b->code->len;
}

/* ---- the parser ------------------------------------------------------------------------------------ */

/* Expression flags (GNU's EX_*). */
enum { EX_ASSGN = 1, EX_REG = 2, EX_COMP = 4, EX_PAREN = 8, EX_VOID = 16, EX_EMPTY = 32 };

typedef struct named {
  int kind;  /* 0 simple variable (index), 1 array element (index code generated) */
  int index; /* variable or array number */
} named;

static int parse_expr(bc_state *b, int min_prec);
static bool parse_statement(bc_state *b);

static void syntax_error(bc_state *b) {
  if (!b->had_error) yyerror(b, "syntax error");
  b->had_error = true;
}

static bool expect(bc_state *b, enum tok t) {
  if (peek(b) != t) {
    syntax_error(b);
    return false;
  }
  consume(b);
  return true;
}

static int var_number(bc_state *b, const char *s, size_t n) {
  int v = names_lookup(&b->var_names, s, n, V_FIRST_USER);
  if (v < 0) {
    yyerror(b, "too many variables");
    return V_FIRST_USER;
  }
  return v;
}

static int array_number(bc_state *b, const char *s, size_t n) {
  int v = names_lookup(&b->array_names, s, n, 1);
  if (v < 0) {
    yyerror(b, "too many arrays");
    return 1;
  }
  return v;
}

static int func_number(bc_state *b, const char *s, size_t n) {
  int v = names_lookup(&b->func_names, s, n, 1);
  if (v < 0) {
    yyerror(b, "too many functions");
    return 1;
  }
  if ((size_t)v >= b->nfuncs) {
    size_t nn = (size_t)v + 1;
    bc_func *nf = xrealloc(b->funcs, nn * sizeof *nf);
    if (!nf) return 1;
    memset(nf + b->nfuncs, 0, (nn - b->nfuncs) * sizeof *nf);
    b->funcs = nf;
    b->nfuncs = nn;
    b->funcs[v].name = strdup(b->func_names.names[v - 1]);
  }
  return v;
}

/* The named expression after its first token (already peeked): a variable,
 * an array element (its subscript code generated) or a special variable.
 * Returns false when this is not a named expression. */
static bool parse_named(bc_state *b, named *nm) {
  switch (peek(b)) {
    case T_IBASE: consume(b); *nm = (named){0, V_IBASE}; return true;
    case T_OBASE: consume(b); *nm = (named){0, V_OBASE}; return true;
    case T_LAST:
      consume(b);
      ct_warn(b, "Last variable");
      *nm = (named){0, V_LAST};
      return true;
    case T_SCALE: consume(b); *nm = (named){0, V_SCALE}; return true;
    case T_NAME: {
      char *name = b->tok.text;
      size_t n = b->tok.len;
      b->tok.text = NULL;
      consume(b);
      if (peek(b) == T_LBRACK) {
        consume(b);
        int f = parse_expr(b, 0);
        if (f & EX_VOID) yyerror(b, "void expression as subscript");
        if (f & EX_COMP) ct_warn(b, "comparison in subscript");
        expect(b, T_RBRACK);
        *nm = (named){1, array_number(b, name, n)};
      } else {
        *nm = (named){0, var_number(b, name, n)};
      }
      free(name);
      return true;
    }
    default: return false;
  }
}

static void gen_load(bc_state *b, const named *nm) {
  gen_c(b, nm->kind ? 'L' : 'l');
  gen_num(b, nm->index);
}

/* Function call arguments and the call: NAME already consumed. */
static int parse_call(bc_state *b, int f) {
  char kinds[256];
  size_t nk = 0;
  consume(b); /* ( */
  if (peek(b) != T_RPAREN) {
    for (;;) {
      /* an array argument: NAME '[' ']' */
      bool arr = false;
      if (peek(b) == T_NAME) {
        /* look ahead two characters for "[]" without a subscript */
        size_t p = 0;
        int c;
        while ((c = lex_peekc(b, p)) == ' ' || c == '\t') p++;
        if (c == '[') {
          size_t q = p + 1;
          while ((c = lex_peekc(b, q)) == ' ' || c == '\t') q++;
          if (c == ']') {
            arr = true;
            char buf[32];
            int a = array_number(b, b->tok.text, b->tok.len);
            consume(b);
            b->lex.pos += q + 1;
            snprintf(buf, sizeof buf, "K%d:", a);
            gen(b, buf);
          }
        }
      }
      if (!arr) {
        int fl = parse_expr(b, 0);
        if (fl & EX_VOID) yyerror(b, "void argument");
        if (fl & EX_COMP) ct_warn(b, "comparison in argument");
      }
      if (nk < sizeof kinds) kinds[nk++] = arr ? '1' : '0';
      if (peek(b) != T_COMMA) break;
      consume(b);
    }
  }
  expect(b, T_RPAREN);
  gen_c(b, 'C');
  gen_num(b, f);
  for (size_t i = nk; i-- > 0;) gen_c(b, kinds[i]); /* last argument first, as GNU */
  gen_c(b, ':');
  return (f < (int)b->nfuncs && b->funcs[f].defined && b->funcs[f].is_void) ? EX_VOID : EX_REG;
}

/* Primary and prefix expressions (yacc's non-binary productions). */
static int parse_unary(bc_state *b) {
  if (++b->depth > BC_MAX_NEST) {
    if (!b->had_error) yyerror(b, "expression nested too deeply");
    b->had_error = true;
    b->depth--;
    return EX_REG;
  }
  int flags = EX_REG;
  named nm;
  switch (peek(b)) {
    case T_NUMBER: {
      if (b->tok.len == 1 && b->tok.text[0] == '0') {
        gen_c(b, '0');
      } else if (b->tok.len == 1 && b->tok.text[0] == '1') {
        gen_c(b, '1');
      } else {
        gen_c(b, 'K');
        code_add(b->code, b->tok.text, b->tok.len);
        gen_c(b, ':');
      }
      consume(b);
      break;
    }
    case T_LPAREN: {
      consume(b);
      int f = parse_expr(b, 0);
      expect(b, T_RPAREN);
      flags = f | EX_REG | EX_PAREN;
      break;
    }
    case T_MINUS: {
      consume(b);
      int f = parse_unary(b);
      if (f & EX_VOID) yyerror(b, "void expression with unary minus");
      gen_c(b, 'n');
      flags = f & ~EX_PAREN;
      break;
    }
    case T_NOT: {
      consume(b);
      int f = parse_expr(b, 4); /* '!' is below comparisons */
      if (f & EX_VOID) yyerror(b, "void expression with !");
      ct_warn(b, "! operator");
      gen_c(b, '!');
      flags = f & ~EX_PAREN;
      break;
    }
    case T_INCR:
    case T_DECR: {
      int op = peek(b) == T_INCR ? '+' : '-';
      consume(b);
      if (!parse_named(b, &nm)) {
        syntax_error(b);
        break;
      }
      if (nm.kind) {
        gen_c(b, 'D');
        gen_c(b, op == '+' ? 'A' : 'M');
        gen_num(b, nm.index);
        gen_c(b, 'L');
        gen_num(b, nm.index);
      } else {
        gen_c(b, op == '+' ? 'i' : 'd');
        gen_num(b, nm.index);
        gen_c(b, 'l');
        gen_num(b, nm.index);
      }
      break;
    }
    case T_LENGTH:
    case T_SQRT:
    case T_READ: {
      enum tok which = peek(b);
      consume(b);
      if (!expect(b, T_LPAREN)) break;
      if (which == T_READ) {
        gen(b, "cI");
      } else {
        int f = parse_expr(b, 0);
        if (f & EX_VOID) yyerror(b, "void expression in %s()", which == T_LENGTH ? "length" : "sqrt");
        gen(b, which == T_LENGTH ? "cL" : "cR");
      }
      expect(b, T_RPAREN);
      break;
    }
    case T_SCALE:
    case T_IBASE:
    case T_OBASE:
    case T_LAST:
    case T_NAME: {
      if (peek(b) == T_SCALE) {
        /* scale(x) or the variable */
        size_t p = 0;
        int c;
        while ((c = lex_peekc(b, p)) == ' ' || c == '\t') p++;
        if (c == '(') {
          consume(b);
          consume(b);
          int f = parse_expr(b, 0);
          if (f & EX_VOID) yyerror(b, "void expression in scale()");
          gen(b, "cS");
          expect(b, T_RPAREN);
          break;
        }
      }
      if (peek(b) == T_NAME) {
        size_t p = 0;
        int c;
        while ((c = lex_peekc(b, p)) == ' ' || c == '\t') p++;
        if (c == '(') {
          int f = func_number(b, b->tok.text, b->tok.len);
          consume(b);
          flags = parse_call(b, f);
          break;
        }
      }
      parse_named(b, &nm);
      enum tok t = peek(b);
      if (t == T_ASSIGN) {
        int op = b->tok.op;
        consume(b);
        if (op != '=') {
          if (nm.kind) gen_c(b, 'D');
          gen_load(b, &nm);
        }
        int f = parse_expr(b, 5); /* the right side: higher than comparisons */
        if (f & EX_VOID) yyerror(b, "Assignment of a void expression");
        if (op != '=') gen_c(b, op);
        gen_c(b, nm.kind ? 'S' : 's');
        gen_num(b, nm.index);
        flags = EX_ASSGN;
      } else if (t == T_INCR || t == T_DECR) {
        consume(b);
        if (nm.kind) {
          gen_c(b, 'D');
          gen_load(b, &nm);
          gen_c(b, 'x');
          gen_c(b, t == T_INCR ? 'A' : 'M');
          gen_num(b, nm.index);
        } else {
          gen_load(b, &nm);
          gen_c(b, t == T_INCR ? 'i' : 'd');
          gen_num(b, nm.index);
        }
      } else {
        gen_load(b, &nm);
      }
      break;
    }
    default:
      syntax_error(b);
      break;
  }
  b->depth--;
  return flags;
}

/* Binary operators: precedence (yacc's order, higher binds tighter) and
 * associativity. */
static int binop_prec(enum tok t, bool *right) {
  *right = false;
  switch (t) {
    case T_OR: return 1;
    case T_AND: return 2;
    case T_REL: return 4;
    case T_PLUS: case T_MINUS: return 6;
    case T_MUL: case T_DIV: case T_MOD: return 7;
    case T_POW: *right = true; return 8;
    default: return 0;
  }
}

static int parse_expr(bc_state *b, int min_prec) {
  int flags = parse_unary(b);
  for (;;) {
    if (b->had_error) return flags;
    bool right;
    enum tok t = peek(b);
    int prec = binop_prec(t, &right);
    if (prec == 0 || prec < min_prec) return flags;
    int relop = b->tok.op;
    consume(b);
    if (t == T_AND || t == T_OR) {
      ct_warn(b, t == T_AND ? "&& operator" : "|| operator");
      int label = new_label(b);
      if (t == T_AND) {
        gen(b, "D");
        gen_jump(b, 'Z', label);
        gen(b, "p");
      } else {
        gen_jump(b, 'B', label);
      }
      int f = parse_expr(b, prec + 1);
      if ((flags & EX_VOID) || (f & EX_VOID))
        yyerror(b, "void expression with %s", t == T_AND ? "&&" : "||");
      if (t == T_AND) {
        gen(b, "D");
        gen_jump(b, 'Z', label);
        gen(b, "p1");
        set_label(b, label);
      } else {
        int end = new_label(b);
        gen_jump(b, 'B', label);
        gen(b, "0");
        gen_jump(b, 'J', end);
        set_label(b, label);
        gen(b, "1");
        set_label(b, end);
      }
      flags = (flags | f) & ~EX_PAREN;
      continue;
    }
    int f = parse_expr(b, right ? prec : prec + 1);
    if (t == T_REL) {
      if ((flags & EX_VOID) || (f & EX_VOID)) yyerror(b, "void expression with comparison");
      gen_c(b, relop);
      flags = EX_REG | EX_COMP;
    } else {
      static const char ops[] = {[T_PLUS] = '+', [T_MINUS] = '-', [T_MUL] = '*',
                                 [T_DIV] = '/', [T_MOD] = '%', [T_POW] = '^'};
      if ((flags & EX_VOID) || (f & EX_VOID)) yyerror(b, "void expression with %c", ops[t]);
      gen_c(b, ops[t]);
      flags = (flags | f) & ~EX_PAREN;
    }
  }
}

/* An optional expression (for's parts): EX_EMPTY when absent. */
static int parse_opt_expr(bc_state *b, enum tok end) {
  if (peek(b) == end) {
    ct_warn(b, "Missing expression in for statement");
    return EX_EMPTY;
  }
  return parse_expr(b, 0);
}

static void skip_newlines(bc_state *b) {
  while (peek(b) == T_NL) consume(b);
}

/* statement_list inside braces: statements separated by newlines and ';'. */
static void parse_statement_list(bc_state *b, enum tok end) {
  for (;;) {
    enum tok t = peek(b);
    if (t == end || t == T_EOF || b->had_error || b->halted) return;
    if (t == T_NL || t == T_SEMI) {
      consume(b);
      continue;
    }
    if (!parse_statement(b)) return;
    t = peek(b);
    if (t != T_NL && t != T_SEMI && t != end) {
      syntax_error(b);
      return;
    }
  }
}

static void print_limits(bc_state *b) {
  cmd_outs(b->ctx,
           "BC_BASE_MAX     = 2147483647\n"
           "BC_DIM_MAX      = 16777215\n"
           "BC_SCALE_MAX    = 2147483647\n"
           "BC_STRING_MAX   = 2147483647\n"
           "MAX Exponent    = 9223372036854775807\n"
           "Number of vars  = 32767\n");
}

static const char bc_banner[] =
    "bc 1.07.1\n"
    "Copyright 1991-1994, 1997, 1998, 2000, 2004, 2006, 2008, 2012-2017 Free Software "
    "Foundation, Inc.\n";

static void print_warranty(bc_state *b) {
  cmd_outs(b->ctx, "\n");
  cmd_outs(b->ctx, bc_banner);
  cmd_outs(b->ctx,
           "\n"
           "    This program is free software; you can redistribute it and/or modify\n"
           "    it under the terms of the GNU General Public License as published by\n"
           "    the Free Software Foundation; either version 3 of the License , or\n"
           "    (at your option) any later version.\n"
           "\n"
           "    This program is distributed in the hope that it will be useful,\n"
           "    but WITHOUT ANY WARRANTY; without even the implied warranty of\n"
           "    MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the\n"
           "    GNU General Public License for more details.\n"
           "\n"
           "    You should have received a copy of the GNU General Public License\n"
           "    along with this program. If not, write to\n"
           "\n"
           "       The Free Software Foundation, Inc.\n"
           "       51 Franklin Street, Fifth Floor\n"
           "       Boston, MA 02110-1335  USA\n"
           "\n");
}

/* One statement. Returns false after a syntax error. */
static bool parse_statement(bc_state *b) {
  if (++b->depth > BC_MAX_NEST) {
    if (!b->had_error) yyerror(b, "statements nested too deeply");
    b->had_error = true;
    b->depth--;
    return false;
  }
  bool ok = true;
  switch (peek(b)) {
    case T_WARRANTY: consume(b); print_warranty(b); break;
    case T_LIMITS: consume(b); print_limits(b); break;
    case T_STRING:
      gen_c(b, 'w');
      code_add(b->code, b->tok.text, b->tok.len);
      gen_c(b, '"');
      consume(b);
      break;
    case T_BREAK:
      consume(b);
      if (b->break_label < 0) {
        yyerror(b, "Break outside a for/while");
        ok = false;
      } else {
        gen_jump(b, 'J', b->break_label);
      }
      break;
    case T_CONTINUE:
      consume(b);
      ct_warn(b, "Continue statement");
      if (b->continue_label < 0) {
        yyerror(b, "Continue outside a for");
        ok = false;
      } else {
        gen_jump(b, 'J', b->continue_label);
      }
      break;
    case T_QUIT:
      consume(b);
      b->halted = true;
      ok = false;
      break;
    case T_HALT: consume(b); gen_c(b, 'h'); break;
    case T_RETURN: {
      consume(b);
      enum tok t = peek(b);
      if (t == T_NL || t == T_SEMI || t == T_RBRACE || t == T_EOF) {
        gen_c(b, '0');
        if (b->cur_func < 0) {
          yyerror(b, "Return outside of a function.");
          ok = false;
        }
      } else {
        int f = parse_expr(b, 0);
        if (b->had_error) {
          ok = false;
          break;
        }
        if (f & EX_COMP) ct_warn(b, "comparison in return expression");
        if (!(f & EX_PAREN)) ct_warn(b, "return expression requires parenthesis");
        if (f & EX_VOID) yyerror(b, "return requires non-void expression");
        if (b->cur_func < 0) {
          yyerror(b, "Return outside of a function.");
          ok = false;
        } else if (b->funcs[b->cur_func].is_void) {
          yyerror(b, "Return expression in a void function.");
          ok = false;
        }
      }
      gen_c(b, 'R');
      break;
    }
    case T_FOR: {
      consume(b);
      int saved_break = b->break_label, saved_cont = b->continue_label;
      b->break_label = new_label(b);
      if (!expect(b, T_LPAREN)) {
        ok = false;
        break;
      }
      int f = parse_opt_expr(b, T_SEMI);
      if (f & EX_VOID) yyerror(b, "first expression is void");
      if (!(f & EX_EMPTY)) gen_c(b, 'p');
      int cond = new_label(b);
      set_label(b, cond);
      if (!expect(b, T_SEMI)) {
        ok = false;
        break;
      }
      f = parse_opt_expr(b, T_SEMI);
      if (f & EX_VOID) yyerror(b, "second expression is void");
      if (f & EX_EMPTY) gen_c(b, '1');
      int body = new_label(b);
      gen_jump(b, 'B', body);
      gen_jump(b, 'J', b->break_label);
      b->continue_label = new_label(b);
      set_label(b, b->continue_label);
      if (!expect(b, T_SEMI)) {
        ok = false;
        break;
      }
      f = parse_opt_expr(b, T_RPAREN);
      if (f & EX_VOID) yyerror(b, "third expression is void");
      if (!(f & EX_EMPTY)) gen_c(b, 'p');
      gen_jump(b, 'J', cond);
      set_label(b, body);
      if (!expect(b, T_RPAREN)) {
        ok = false;
        break;
      }
      skip_newlines(b);
      ok = parse_statement(b);
      gen_jump(b, 'J', b->continue_label);
      set_label(b, b->break_label);
      b->break_label = saved_break;
      b->continue_label = saved_cont;
      break;
    }
    case T_IF: {
      consume(b);
      if (!expect(b, T_LPAREN)) {
        ok = false;
        break;
      }
      int f = parse_expr(b, 0);
      if (f & EX_VOID) yyerror(b, "void expression");
      if (!expect(b, T_RPAREN)) {
        ok = false;
        break;
      }
      int lelse = new_label(b);
      gen_jump(b, 'Z', lelse);
      skip_newlines(b);
      ok = parse_statement(b);
      if (ok && peek(b) == T_ELSE) {
        consume(b);
        ct_warn(b, "else clause in if statement");
        int lend = new_label(b);
        gen_jump(b, 'J', lend);
        set_label(b, lelse);
        skip_newlines(b);
        ok = parse_statement(b);
        set_label(b, lend);
      } else {
        set_label(b, lelse);
      }
      break;
    }
    case T_WHILE: {
      consume(b);
      int saved_break = b->break_label, saved_cont = b->continue_label;
      b->continue_label = new_label(b);
      set_label(b, b->continue_label);
      if (!expect(b, T_LPAREN)) {
        ok = false;
        break;
      }
      int f = parse_expr(b, 0);
      if (f & EX_VOID) yyerror(b, "void expression");
      b->break_label = new_label(b);
      gen_jump(b, 'Z', b->break_label);
      if (!expect(b, T_RPAREN)) {
        ok = false;
        break;
      }
      skip_newlines(b);
      ok = parse_statement(b);
      gen_jump(b, 'J', b->continue_label);
      set_label(b, b->break_label);
      b->break_label = saved_break;
      b->continue_label = saved_cont;
      break;
    }
    case T_LBRACE:
      consume(b);
      b->braces++;
      parse_statement_list(b, T_RBRACE);
      if (b->had_error || b->halted) {
        ok = false;
        break;
      }
      ok = expect(b, T_RBRACE);
      if (ok) b->braces--;
      break;
    case T_PRINT:
      consume(b);
      ct_warn(b, "print statement");
      for (;;) {
        if (peek(b) == T_STRING) {
          gen_c(b, 'O');
          code_add(b->code, b->tok.text, b->tok.len);
          gen_c(b, '"');
          consume(b);
        } else {
          int f = parse_expr(b, 0);
          if (f & EX_VOID) yyerror(b, "void expression in print");
          gen_c(b, 'P');
        }
        if (b->had_error || peek(b) != T_COMMA) break;
        consume(b);
      }
      break;
    case T_NL:
    case T_SEMI:
      break;
    default: {
      int f = parse_expr(b, 0);
      if (b->had_error) {
        ok = false;
        break;
      }
      if (f & EX_COMP) ct_warn(b, "comparison in expression");
      gen_c(b, (f & EX_REG) ? 'W' : 'p');
      break;
    }
  }
  b->depth--;
  return ok && !b->had_error;
}

/* ---- variables and arrays ------------------------------------------------------------------ */

static int ensure_var(bc_state *b, int v) {
  if ((size_t)v < b->nvars) return 0;
  size_t nn = (size_t)v + 1 > b->nvars * 2 ? (size_t)v + 1 : b->nvars * 2;
  bc_vframe **nv = xrealloc(b->vars, nn * sizeof *nv);
  if (!nv) return -ENOMEM;
  memset(nv + b->nvars, 0, (nn - b->nvars) * sizeof *nv);
  b->vars = nv;
  b->nvars = nn;
  return 0;
}

static bc_array *array_new(void) { return calloc(1, sizeof(bc_array)); }

#define PAGE_BYTES (BC_PAGE * sizeof(num))

static num *page_new(void) {
  if (cmd_bcnum_charge(PAGE_BYTES)) return NULL;
  num *p = calloc(BC_PAGE, sizeof(num));
  if (!p) cmd_bcnum_refund(PAGE_BYTES);
  return p;
}

static void array_unref(bc_array *a) {
  if (!a || --a->refs > 0) return;
  for (size_t p = 0; p < a->npages; p++) {
    if (!a->pages[p]) continue;
    for (int i = 0; i < BC_PAGE; i++) cmd_bcnum_free(&a->pages[p][i]);
    free(a->pages[p]);
    cmd_bcnum_refund(PAGE_BYTES);
  }
  free(a->pages);
  free(a);
}

static bc_array *array_copy(const bc_array *src) {
  bc_array *a = array_new();
  if (!a) return NULL;
  a->refs = 1;
  if (!src || !src->npages) return a;
  a->pages = calloc(src->npages, sizeof *a->pages);
  if (!a->pages) {
    free(a);
    return NULL;
  }
  a->npages = src->npages;
  for (size_t p = 0; p < src->npages; p++) {
    if (!src->pages[p]) continue;
    a->pages[p] = page_new();
    if (!a->pages[p]) {
      array_unref(a);
      return NULL;
    }
    for (int i = 0; i < BC_PAGE; i++)
      if (src->pages[p][i].d && cmd_bcnum_copy(&a->pages[p][i], &src->pages[p][i])) {
        array_unref(a);
        return NULL;
      }
  }
  return a;
}

/* The array currently visible under number `an` (created when missing). */
static bc_array *array_get(bc_state *b, int an) {
  if ((size_t)an >= b->narrays) {
    size_t nn = (size_t)an + 1 > b->narrays * 2 ? (size_t)an + 1 : b->narrays * 2;
    bc_aframe **na = xrealloc(b->arrays, nn * sizeof *na);
    if (!na) return NULL;
    memset(na + b->narrays, 0, (nn - b->narrays) * sizeof *na);
    b->arrays = na;
    b->narrays = nn;
  }
  if (!b->arrays[an]) {
    bc_aframe *f = calloc(1, sizeof *f);
    if (!f) return NULL;
    f->a = array_new();
    if (!f->a) {
      free(f);
      return NULL;
    }
    f->a->refs = 1;
    b->arrays[an] = f;
  }
  return b->arrays[an]->a;
}

/* The slot of element idx (created when `create`), or NULL. */
static num *array_slot(bc_array *a, long idx, bool create) {
  size_t p = (size_t)idx / BC_PAGE;
  if (p >= a->npages) {
    if (!create) return NULL;
    size_t nn = p + 1 > a->npages * 2 ? p + 1 : a->npages * 2;
    num **np = xrealloc(a->pages, nn * sizeof *np);
    if (!np) return NULL;
    memset(np + a->npages, 0, (nn - a->npages) * sizeof *np);
    a->pages = np;
    a->npages = nn;
  }
  if (!a->pages[p]) {
    if (!create) return NULL;
    a->pages[p] = page_new();
    if (!a->pages[p]) return NULL;
  }
  return &a->pages[p][(size_t)idx % BC_PAGE];
}

/* ---- the stack ------------------------------------------------------------------------------ */

static int push(bc_state *b, num *v) {
  if (b->sp == b->scap) {
    if (b->scap >= BC_MAX_STACK) {
      cmd_bcnum_free(v);
      return -E2BIG;
    }
    if (cmd_grow(&b->stack, &b->scap, b->sp + 1, sizeof *b->stack)) {
      cmd_bcnum_free(v);
      return -ENOMEM;
    }
  }
  b->stack[b->sp++] = *v;
  cmd_bcnum_init(v);
  return 0;
}

static int push_long(bc_state *b, long v) {
  num n;
  cmd_bcnum_init(&n);
  int rc = cmd_bcnum_set_long(&n, v);
  if (rc) return rc;
  return push(b, &n);
}

static int push_copy(bc_state *b, const num *v) {
  num n;
  cmd_bcnum_init(&n);
  int rc;
  if (!v || !v->d)
    rc = cmd_bcnum_set_long(&n, 0);
  else
    rc = cmd_bcnum_copy(&n, v);
  if (rc) return rc;
  return push(b, &n);
}

static void pop(bc_state *b) {
  if (b->sp) cmd_bcnum_free(&b->stack[--b->sp]);
}

/* ---- the -l library ------------------------------------------------------------------------- */

/* In the library the arithmetic of GNU's libmath.b: each helper computes
 * at the current scale, like the bc statement it stands for. Constants are
 * decimal (GNU's library is immune to ibase). */

static int K(bc_state *b, num *r, const char *s) {
  return cmd_bcnum_parse(&b->env, s, strlen(s), 10, r);
}
static int L(num *r, long v) { return cmd_bcnum_set_long(r, v); }
#define OP(call)       \
  do {                 \
    rc = (call);       \
    if (rc) goto out;  \
  } while (0)

static void set_scale(bc_state *b, const num *v) {
  long s = cmd_bcnum_to_long(v);
  if (cmd_bcnum_long_overflow(v) || s > INT_MAX) s = INT_MAX;
  if (s < 0) s = 0;
  b->scale = s;
}

static int lib_a(bc_state *b, num *args, num *out);

/* e(x) */
static int lib_e(bc_state *b, num *args, num *out) {
  cmd_bcenv *e = &b->env;
  num x, a, d, t, f, i, n, v, c, one, two;
  num *all[] = {&x, &a, &d, &t, &f, &i, &n, &v, &c, &one, &two};
  for (size_t k = 0; k < sizeof all / sizeof *all; k++) cmd_bcnum_init(all[k]);
  int rc = 0;
  bool m = false;
  long z;
  OP(cmd_bcnum_copy(&x, &args[0]));
  OP(L(&one, 1));
  OP(L(&two, 2));
  OP(L(&f, 0));
  if (x.neg && !cmd_bcnum_is_zero(&x)) {
    m = true;
    x.neg = false;
  }
  z = b->scale;
  /* n = 6 + z + .44*x */
  OP(L(&c, 6));
  OP(L(&t, z));
  OP(cmd_bcnum_add(e, &c, &t, 0, &n));
  OP(K(b, &c, ".44"));
  OP(cmd_bcnum_mul(e, &c, &x, (int)b->scale, &t));
  OP(cmd_bcnum_add(e, &n, &t, 0, &n));
  b->scale = (long)x.scale + 1;
  while (cmd_bcnum_cmp(&x, &one) > 0) {
    OP(cmd_bcnum_add(e, &f, &one, 0, &f));
    OP(cmd_bcnum_div(e, &x, &two, (int)b->scale, &x));
    b->scale += 1;
  }
  set_scale(b, &n);
  OP(cmd_bcnum_add(e, &one, &x, 0, &v));
  OP(cmd_bcnum_copy(&a, &x));
  OP(L(&d, 1));
  for (long k = 2;; k++) {
    OP(L(&i, k));
    OP(cmd_bcnum_mul(e, &a, &x, (int)b->scale, &a));
    OP(cmd_bcnum_mul(e, &d, &i, (int)b->scale, &d));
    OP(cmd_bcnum_div(e, &a, &d, (int)b->scale, &t));
    if (cmd_bcnum_is_zero(&t)) {
      long fl = cmd_bcnum_to_long(&f);
      while (fl-- > 0) OP(cmd_bcnum_mul(e, &v, &v, (int)b->scale, &v));
      b->scale = z;
      if (m)
        OP(cmd_bcnum_div(e, &one, &v, (int)b->scale, out));
      else
        OP(cmd_bcnum_div(e, &v, &one, (int)b->scale, out));
      break;
    }
    OP(cmd_bcnum_add(e, &v, &t, 0, &v));
  }
out:
  for (size_t k = 0; k < sizeof all / sizeof *all; k++) cmd_bcnum_free(all[k]);
  return rc;
}

/* l(x) */
static int lib_l(bc_state *b, num *args, num *out) {
  cmd_bcenv *e = &b->env;
  num x, f, n, v, m, t, c, one, two, ten;
  num *all[] = {&x, &f, &n, &v, &m, &t, &c, &one, &two, &ten};
  for (size_t k = 0; k < sizeof all / sizeof *all; k++) cmd_bcnum_init(all[k]);
  int rc = 0;
  OP(cmd_bcnum_copy(&x, &args[0]));
  OP(L(&one, 1));
  OP(L(&two, 2));
  OP(L(&c, 0));
  if (cmd_bcnum_cmp(&x, &c) <= 0) {
    /* (1 - 10^scale) / 1 */
    bool w;
    OP(K(b, &ten, "10"));
    OP(L(&t, b->scale));
    OP(cmd_bcnum_raise(e, &ten, &t, (int)b->scale, &t, &w));
    OP(cmd_bcnum_sub(e, &one, &t, 0, &t));
    OP(cmd_bcnum_div(e, &t, &one, (int)b->scale, out));
    goto out;
  }
  long z = b->scale;
  b->scale = 6 + z;
  OP(L(&f, 2));
  OP(K(b, &c, ".5"));
  while (cmd_bcnum_cmp(&x, &two) >= 0) {
    OP(cmd_bcnum_mul(e, &f, &two, (int)b->scale, &f));
    OP(cmd_bcnum_sqrt(e, &x, (int)b->scale, &x));
  }
  while (cmd_bcnum_cmp(&x, &c) <= 0) {
    OP(cmd_bcnum_mul(e, &f, &two, (int)b->scale, &f));
    OP(cmd_bcnum_sqrt(e, &x, (int)b->scale, &x));
  }
  OP(cmd_bcnum_sub(e, &x, &one, 0, &t));
  OP(cmd_bcnum_add(e, &x, &one, 0, &c));
  OP(cmd_bcnum_div(e, &t, &c, (int)b->scale, &n));
  OP(cmd_bcnum_copy(&v, &n));
  OP(cmd_bcnum_mul(e, &n, &n, (int)b->scale, &m));
  for (long k = 3;; k += 2) {
    OP(cmd_bcnum_mul(e, &n, &m, (int)b->scale, &n));
    OP(L(&c, k));
    OP(cmd_bcnum_div(e, &n, &c, (int)b->scale, &t));
    if (cmd_bcnum_is_zero(&t)) {
      OP(cmd_bcnum_mul(e, &f, &v, (int)b->scale, &v));
      b->scale = z;
      OP(cmd_bcnum_div(e, &v, &one, (int)b->scale, out));
      break;
    }
    OP(cmd_bcnum_add(e, &v, &t, 0, &v));
  }
out:
  for (size_t k = 0; k < sizeof all / sizeof *all; k++) cmd_bcnum_free(all[k]);
  return rc;
}

/* s(x) */
static int lib_s(bc_state *b, num *args, num *out) {
  cmd_bcenv *e = &b->env;
  num x, v, n, t, s, ev, c, one, four, two;
  num *all[] = {&x, &v, &n, &t, &s, &ev, &c, &one, &four, &two};
  for (size_t k = 0; k < sizeof all / sizeof *all; k++) cmd_bcnum_init(all[k]);
  int rc = 0;
  bool m = false;
  OP(cmd_bcnum_copy(&x, &args[0]));
  OP(L(&one, 1));
  OP(L(&two, 2));
  OP(L(&four, 4));
  long z = b->scale;
  /* scale = 1.1*z + 2 */
  OP(K(b, &c, "1.1"));
  OP(L(&t, z));
  OP(cmd_bcnum_mul(e, &c, &t, (int)b->scale, &t));
  OP(cmd_bcnum_add(e, &t, &two, 0, &t));
  set_scale(b, &t);
  OP(lib_a(b, &one, &v));
  if (x.neg && !cmd_bcnum_is_zero(&x)) {
    m = true;
    x.neg = false;
  }
  b->scale = 0;
  /* n = (x / v + 2) / 4 */
  OP(cmd_bcnum_div(e, &x, &v, 0, &t));
  OP(cmd_bcnum_add(e, &t, &two, 0, &t));
  OP(cmd_bcnum_div(e, &t, &four, 0, &n));
  /* x = x - 4*n*v */
  OP(cmd_bcnum_mul(e, &four, &n, 0, &t));
  OP(cmd_bcnum_mul(e, &t, &v, 0, &t));
  OP(cmd_bcnum_sub(e, &x, &t, 0, &x));
  OP(cmd_bcnum_mod(e, &n, &two, 0, &t));
  if (!cmd_bcnum_is_zero(&t) && !cmd_bcnum_is_zero(&x)) x.neg = !x.neg;
  b->scale = z + 2;
  OP(cmd_bcnum_copy(&v, &x));
  OP(cmd_bcnum_copy(&ev, &x));
  OP(cmd_bcnum_mul(e, &x, &x, (int)b->scale, &s));
  if (!cmd_bcnum_is_zero(&s)) s.neg = !s.neg;
  for (long k = 3;; k += 2) {
    /* e *= s/(i*(i-1)) */
    OP(L(&c, k * (k - 1)));
    OP(cmd_bcnum_div(e, &s, &c, (int)b->scale, &t));
    OP(cmd_bcnum_mul(e, &ev, &t, (int)b->scale, &ev));
    if (cmd_bcnum_is_zero(&ev)) {
      b->scale = z;
      if (m && !cmd_bcnum_is_zero(&v)) v.neg = !v.neg;
      OP(cmd_bcnum_div(e, &v, &one, (int)b->scale, out));
      break;
    }
    OP(cmd_bcnum_add(e, &v, &ev, 0, &v));
  }
out:
  for (size_t k = 0; k < sizeof all / sizeof *all; k++) cmd_bcnum_free(all[k]);
  return rc;
}

/* c(x) */
static int lib_c(bc_state *b, num *args, num *out) {
  cmd_bcenv *e = &b->env;
  num v, t, c, one, two;
  num *all[] = {&v, &t, &c, &one, &two};
  for (size_t k = 0; k < sizeof all / sizeof *all; k++) cmd_bcnum_init(all[k]);
  int rc = 0;
  long z = b->scale;
  OP(L(&one, 1));
  OP(L(&two, 2));
  /* scale = scale*1.2 */
  OP(L(&t, b->scale));
  OP(K(b, &c, "1.2"));
  OP(cmd_bcnum_mul(e, &t, &c, (int)b->scale, &t));
  set_scale(b, &t);
  /* v = s(x + a(1)*2) */
  OP(lib_a(b, &one, &t));
  OP(cmd_bcnum_mul(e, &t, &two, (int)b->scale, &t));
  OP(cmd_bcnum_add(e, &args[0], &t, 0, &t));
  OP(lib_s(b, &t, &v));
  b->scale = z;
  OP(cmd_bcnum_div(e, &v, &one, (int)b->scale, out));
out:
  for (size_t k = 0; k < sizeof all / sizeof *all; k++) cmd_bcnum_free(all[k]);
  return rc;
}

/* a(x) */
static int lib_a(bc_state *b, num *args, num *out) {
  cmd_bcenv *e = &b->env;
  num x, a, f, n, s, v, t, c, one, m, p2;
  num *all[] = {&x, &a, &f, &n, &s, &v, &t, &c, &one, &m, &p2};
  for (size_t k = 0; k < sizeof all / sizeof *all; k++) cmd_bcnum_init(all[k]);
  int rc = 0;
  OP(cmd_bcnum_copy(&x, &args[0]));
  OP(L(&one, 1));
  OP(L(&m, 1));
  OP(L(&a, 0));
  OP(L(&f, 0));
  OP(K(b, &p2, ".2"));
  if (x.neg && !cmd_bcnum_is_zero(&x)) {
    OP(L(&m, -1));
    x.neg = false;
  }
  static const char *const pi4[] = {".7853981633974483096156608",
                                    ".7853981633974483096156608458198757210492",
                                    ".785398163397448309615660845819875721049292349843776455243736"};
  static const char *const at2[] = {".1973955598498807583700497",
                                    ".1973955598498807583700497651947902934475",
                                    ".197395559849880758370049765194790293447585103787852101517688"};
  const char *const *fast = cmd_bcnum_cmp(&x, &one) == 0 ? pi4 : cmd_bcnum_cmp(&x, &p2) == 0 ? at2 : NULL;
  if (fast) {
    int which = b->scale <= 25 ? 0 : b->scale <= 40 ? 1 : b->scale <= 60 ? 2 : -1;
    if (which >= 0) {
      OP(K(b, &c, fast[which]));
      OP(cmd_bcnum_div(e, &c, &m, (int)b->scale, out));
      goto out;
    }
  }
  long z = b->scale;
  if (cmd_bcnum_cmp(&x, &p2) > 0) {
    b->scale = z + 5;
    OP(lib_a(b, &p2, &a));
  }
  b->scale = z + 3;
  while (cmd_bcnum_cmp(&x, &p2) > 0) {
    OP(cmd_bcnum_add(e, &f, &one, 0, &f));
    /* x = (x-.2) / (1+x*.2) */
    OP(cmd_bcnum_sub(e, &x, &p2, 0, &t));
    OP(cmd_bcnum_mul(e, &x, &p2, (int)b->scale, &c));
    OP(cmd_bcnum_add(e, &one, &c, 0, &c));
    OP(cmd_bcnum_div(e, &t, &c, (int)b->scale, &x));
  }
  OP(cmd_bcnum_copy(&v, &x));
  OP(cmd_bcnum_copy(&n, &x));
  OP(cmd_bcnum_mul(e, &x, &x, (int)b->scale, &s));
  if (!cmd_bcnum_is_zero(&s)) s.neg = !s.neg;
  for (long k = 3;; k += 2) {
    OP(cmd_bcnum_mul(e, &n, &s, (int)b->scale, &n));
    OP(L(&c, k));
    OP(cmd_bcnum_div(e, &n, &c, (int)b->scale, &t));
    if (cmd_bcnum_is_zero(&t)) {
      b->scale = z;
      /* (f*a+v)/m */
      OP(cmd_bcnum_mul(e, &f, &a, (int)b->scale, &c));
      OP(cmd_bcnum_add(e, &c, &v, 0, &c));
      OP(cmd_bcnum_div(e, &c, &m, (int)b->scale, out));
      break;
    }
    OP(cmd_bcnum_add(e, &v, &t, 0, &v));
  }
out:
  for (size_t k = 0; k < sizeof all / sizeof *all; k++) cmd_bcnum_free(all[k]);
  return rc;
}

/* j(n, x) */
static int lib_j(bc_state *b, num *args, num *out) {
  cmd_bcenv *e = &b->env;
  num n, x, f, i, s, v, ev, t, c, one, two, four;
  num *all[] = {&n, &x, &f, &i, &s, &v, &ev, &t, &c, &one, &two, &four};
  for (size_t k = 0; k < sizeof all / sizeof *all; k++) cmd_bcnum_init(all[k]);
  int rc = 0;
  bool m = false;
  OP(L(&one, 1));
  OP(L(&two, 2));
  OP(L(&four, 4));
  OP(cmd_bcnum_copy(&x, &args[1]));
  long z = b->scale;
  b->scale = 0;
  OP(cmd_bcnum_div(e, &args[0], &one, 0, &n));
  if (n.neg && !cmd_bcnum_is_zero(&n)) {
    n.neg = false;
    OP(cmd_bcnum_mod(e, &n, &two, 0, &t));
    m = cmd_bcnum_cmp(&t, &one) == 0;
  }
  /* f = n! */
  OP(L(&f, 1));
  for (long k = 2;; k++) {
    OP(L(&i, k));
    if (cmd_bcnum_cmp(&i, &n) > 0) break;
    OP(cmd_bcnum_mul(e, &f, &i, (int)b->scale, &f));
  }
  /* scale = 1.5*z; f = x^n / 2^n / f */
  OP(K(b, &c, "1.5"));
  OP(L(&t, z));
  OP(cmd_bcnum_mul(e, &c, &t, (int)b->scale, &t));
  set_scale(b, &t);
  bool w;
  OP(cmd_bcnum_raise(e, &x, &n, (int)b->scale, &t, &w));
  OP(cmd_bcnum_raise(e, &two, &n, (int)b->scale, &c, &w));
  OP(cmd_bcnum_div(e, &t, &c, (int)b->scale, &t));
  OP(cmd_bcnum_div(e, &t, &f, (int)b->scale, &f));
  OP(L(&v, 1));
  OP(L(&ev, 1));
  /* s = -x*x/4 */
  OP(cmd_bcnum_mul(e, &x, &x, (int)b->scale, &s));
  if (!cmd_bcnum_is_zero(&s)) s.neg = !s.neg;
  OP(cmd_bcnum_div(e, &s, &four, (int)b->scale, &s));
  /* scale = 1.5*z + length(f) - scale(f) */
  {
    long lenf = (f.len == 1 && f.scale != 0 && f.d[0] == 0) ? f.scale : f.len + f.scale;
    OP(K(b, &c, "1.5"));
    OP(L(&t, z));
    OP(cmd_bcnum_mul(e, &c, &t, (int)b->scale, &t));
    OP(L(&c, lenf));
    OP(cmd_bcnum_add(e, &t, &c, 0, &t));
    OP(L(&c, f.scale));
    OP(cmd_bcnum_sub(e, &t, &c, 0, &t));
    set_scale(b, &t);
  }
  for (long k = 1;; k++) {
    /* e = e * s / i / (n+i) */
    OP(L(&i, k));
    OP(cmd_bcnum_mul(e, &ev, &s, (int)b->scale, &ev));
    OP(cmd_bcnum_div(e, &ev, &i, (int)b->scale, &ev));
    OP(cmd_bcnum_add(e, &n, &i, 0, &c));
    OP(cmd_bcnum_div(e, &ev, &c, (int)b->scale, &ev));
    if (cmd_bcnum_is_zero(&ev)) {
      b->scale = z;
      OP(cmd_bcnum_mul(e, &f, &v, (int)b->scale, &t));
      if (m && !cmd_bcnum_is_zero(&t)) t.neg = !t.neg;
      OP(cmd_bcnum_div(e, &t, &one, (int)b->scale, out));
      break;
    }
    OP(cmd_bcnum_add(e, &v, &ev, 0, &v));
  }
out:
  for (size_t k = 0; k < sizeof all / sizeof *all; k++) cmd_bcnum_free(all[k]);
  return rc;
}

static void define_native(bc_state *b, const char *name, int nparams, bc_native fn) {
  int f = func_number(b, name, strlen(name));
  bc_func *fu = &b->funcs[f];
  fu->defined = true;
  fu->native = fn;
  fu->params = calloc((size_t)nparams, sizeof *fu->params);
  fu->nparams = fu->params ? nparams : 0;
}

/* ---- execution ----------------------------------------------------------------------------------- */

static uchar fetch(bc_state *b, const bc_code *c, size_t *pc) {
  return *pc < c->len ? c->b[(*pc)++] : 0;
}

static int fetch_num(bc_state *b, const bc_code *c, size_t *pc) {
  int n = fetch(b, c, pc);
  if (n & 0x80) n = ((n & 0x7f) << 8) | fetch(b, c, pc);
  return n;
}

static int fetch_label(bc_state *b, const bc_code *c, size_t *pc) {
  int hi = fetch(b, c, pc);
  return (hi << 8) | fetch(b, c, pc);
}

/* The value of a simple variable. */
static const num *var_value(bc_state *b, int v) {
  return (size_t)v < b->nvars && b->vars[v] ? &b->vars[v]->v : NULL;
}

static int load_var(bc_state *b, int v) {
  switch (v) {
    case V_IBASE: return push_long(b, b->ibase);
    case V_OBASE: return push_long(b, b->obase);
    case V_SCALE: return push_long(b, b->scale);
    case V_LAST: return push_copy(b, &b->last);
    default: return push_copy(b, var_value(b, v));
  }
}

/* Stores `val` into a simple variable (special ones with GNU's checks). */
static int store_var(bc_state *b, int v, const num *val, int func, size_t adr) {
  if (v <= V_SCALE) {
    long x = cmd_bcnum_to_long(val);
    bool big = cmd_bcnum_long_overflow(val);
    if (v == V_IBASE) {
      if (!big && x < 2) {
        rt_warn(b, func, adr, "ibase too small, set to 2");
        x = 2;
      } else if (big || x > 36) {
        rt_warn(b, func, adr, "ibase too large, set to 36");
        x = 36;
      }
      b->ibase = x;
    } else if (v == V_OBASE) {
      if (!big && x < 2) {
        rt_warn(b, func, adr, "obase too small, set to 2");
        x = 2;
      } else if (big || x > INT_MAX) {
        rt_warn(b, func, adr, "obase too large, set to %d", INT_MAX);
        x = INT_MAX;
      }
      b->obase = x;
    } else {
      if (!big && x < 0) {
        rt_warn(b, func, adr, "negative scale, set to 0");
        x = 0;
      } else if (big || x > INT_MAX) {
        rt_warn(b, func, adr, "scale too large, set to %d", INT_MAX);
        x = INT_MAX;
      }
      b->scale = x;
    }
    return 0;
  }
  if (v == V_LAST) return cmd_bcnum_copy(&b->last, val);
  int rc = ensure_var(b, v);
  if (rc) return rc;
  if (!b->vars[v]) {
    b->vars[v] = calloc(1, sizeof(bc_vframe));
    if (!b->vars[v]) return -ENOMEM;
  }
  return cmd_bcnum_copy(&b->vars[v]->v, val);
}

static void push_frames_var(bc_state *b, int v, num *val) {
  if (ensure_var(b, v)) {
    cmd_bcnum_free(val);
    return;
  }
  bc_vframe *f = calloc(1, sizeof *f);
  if (!f) {
    cmd_bcnum_free(val);
    return;
  }
  f->v = *val;
  cmd_bcnum_init(val);
  f->next = b->vars[v];
  b->vars[v] = f;
}

static void pop_var(bc_state *b, int v) {
  if ((size_t)v >= b->nvars || !b->vars[v]) return;
  bc_vframe *f = b->vars[v];
  b->vars[v] = f->next;
  cmd_bcnum_free(&f->v);
  free(f);
}

static void push_array_frame(bc_state *b, int an, bc_array *a) {
  array_get(b, an);
  bc_aframe *f = calloc(1, sizeof *f);
  if (!f) {
    array_unref(a);
    return;
  }
  f->a = a;
  f->next = b->arrays[an];
  b->arrays[an] = f;
}

static void pop_array(bc_state *b, int an) {
  if ((size_t)an >= b->narrays || !b->arrays[an]) return;
  bc_aframe *f = b->arrays[an];
  b->arrays[an] = f->next;
  array_unref(f->a);
  free(f);
}

/* Leaves the current function (its parameters and autos go). */
static void leave_function(bc_state *b, int func) {
  bc_func *f = &b->funcs[func];
  for (int i = f->nautos; i-- > 0;) {
    if (f->autos[i].kind == P_VALUE)
      pop_var(b, f->autos[i].index);
    else
      pop_array(b, f->autos[i].index);
  }
  for (int i = f->nparams; i-- > 0;) {
    if (f->params[i].kind == P_VALUE)
      pop_var(b, f->params[i].index);
    else
      pop_array(b, f->params[i].index);
  }
}

/* Reads a number for read() from standard input. */
static int do_read(bc_state *b, num *out) {
  if (!b->stdin_in) b->stdin_in = cmd_in_fd(b->ctx, 0);
  char *line = NULL;
  ssize_t n = b->stdin_in ? cmd_in_getdelim(b->stdin_in, &line, '\n') : 0;
  if (n <= 0) return cmd_bcnum_set_long(out, 0);
  size_t i = 0, len = (size_t)n;
  while (i < len && (line[i] == ' ' || line[i] == '\t')) i++;
  bool neg = false;
  if (i < len && (line[i] == '-' || line[i] == '+')) neg = line[i++] == '-';
  size_t s = i;
  while (i < len && (is_digit36((uchar)line[i]) || line[i] == '.')) i++;
  int rc = i > s ? cmd_bcnum_parse(&b->env, line + s, i - s, (int)b->ibase, out)
                 : cmd_bcnum_set_long(out, 0);
  if (!rc && neg && !cmd_bcnum_is_zero(out)) out->neg = true;
  return rc;
}

/* Checks a call's parameter kinds against the function (GNU's
 * process_params): the k-th kind in the code belongs to the k-th argument
 * from the last, like the stack GNU pops. Errors are GNU's, reported at
 * the offset where GNU notices them. Returns false after an error. */
static bool call_params(bc_state *b, int cur, const bc_code *c, size_t *pc, int callee) {
  bc_func *f = &b->funcs[callee];
  int k = 0;
  bool mismatch = false;
  for (;;) {
    uchar ch = fetch(b, c, pc);
    if (ch == ':' || ch == 0) break;
    if (k >= f->nparams) {
      rt_error(b, cur, *pc, "Parameter number mismatch");
      return false;
    }
    const bc_param *p = &f->params[f->nparams - 1 - k];
    bool arr = ch == '1';
    if (arr != (p->kind != P_VALUE)) {
      if (p->kind != P_VALUE)
        rt_error(b, cur, *pc, "Parameter type mismatch parameter %s.",
                 b->array_names.names[p->index - 1]);
      else
        rt_error(b, cur, *pc, "Parameter type mismatch, parameter %s.",
                 b->var_names.names[p->index - V_FIRST_USER]);
      mismatch = true;
    }
    k++;
  }
  if (mismatch || k != f->nparams) {
    rt_error(b, cur, *pc, "Parameter number mismatch");
    return false;
  }
  return true;
}

/* Runs code of function `func` from pc 0 (the main unit) until it ends,
 * handling nested calls iteratively. */
static void execute(bc_state *b) {
  int func = 0;
  size_t pc = 0;
  long const_base = b->ibase;
  b->rt_error = false;
  size_t base_frames = b->nframes;
  while (!b->rt_error && !b->halted && !b->stopped) {
    bc_code *c = func == 0 ? &b->main_code : &b->funcs[func].code;
    if (pc >= c->len) break;
    if ((++b->steps & 4095) == 0 && cmd_poll(b->ctx)) {
      b->stopped = true;
      break;
    }
    uchar op = c->b[pc++];
    int rc = 0;
    switch (op) {
      case '0': rc = push_long(b, 0); break;
      case '1': rc = push_long(b, 1); break;
      case 'K': {
        size_t s = pc;
        while (pc < c->len && c->b[pc] != ':') pc++;
        num n;
        cmd_bcnum_init(&n);
        long base = func == 0 ? b->ibase : const_base;
        rc = cmd_bcnum_parse(&b->env, (const char *)c->b + s, pc - s, (int)base, &n);
        pc++;
        if (!rc) rc = push(b, &n);
        if (rc) {
          num_error(b, func, pc, rc, "");
          rc = 0;
        }
        break;
      }
      case 'l': rc = load_var(b, fetch_num(b, c, &pc)); break;
      case 's': {
        int v = fetch_num(b, c, &pc);
        if (b->sp) rc = store_var(b, v, &b->stack[b->sp - 1], func, pc);
        break;
      }
      case 'i':
      case 'd': {
        int v = fetch_num(b, c, &pc);
        num one, cur;
        cmd_bcnum_init(&one);
        cmd_bcnum_init(&cur);
        rc = cmd_bcnum_set_long(&one, 1);
        if (!rc) rc = load_var(b, v);
        if (!rc) {
          cur = b->stack[--b->sp];
          rc = op == 'i' ? cmd_bcnum_add(&b->env, &cur, &one, 0, &cur)
                         : cmd_bcnum_sub(&b->env, &cur, &one, 0, &cur);
          if (!rc) rc = store_var(b, v, &cur, func, pc);
        }
        cmd_bcnum_free(&one);
        cmd_bcnum_free(&cur);
        break;
      }
      case 'L':
      case 'S':
      case 'A':
      case 'M': {
        int an = fetch_num(b, c, &pc);
        size_t need = op == 'S' ? 2 : 1;
        if (b->sp < need) break;
        num *ix = &b->stack[b->sp - need];
        long idx = cmd_bcnum_to_long(ix);
        if (idx < 0 || idx > BCX_DIM_MAX) {
          rt_error(b, func, pc, "Array %s subscript out of bounds.", b->array_names.names[an - 1]);
          break;
        }
        bc_array *a = array_get(b, an);
        if (!a) {
          rc = -ENOMEM;
          break;
        }
        if (op == 'L') {
          num *slot = array_slot(a, idx, false);
          pop(b);
          rc = push_copy(b, slot && slot->d ? slot : NULL);
        } else if (op == 'S') {
          num *slot = array_slot(a, idx, true);
          if (!slot) {
            rc = -ENOSPC;
            break;
          }
          rc = cmd_bcnum_copy(slot, &b->stack[b->sp - 1]);
          /* drop the index, keep the value */
          cmd_bcnum_free(ix);
          b->stack[b->sp - 2] = b->stack[b->sp - 1];
          cmd_bcnum_init(&b->stack[--b->sp]);
        } else {
          num *slot = array_slot(a, idx, true);
          if (!slot) {
            rc = -ENOSPC;
            break;
          }
          num one;
          cmd_bcnum_init(&one);
          if (!slot->d) rc = cmd_bcnum_set_long(slot, 0);
          if (!rc) rc = cmd_bcnum_set_long(&one, 1);
          if (!rc)
            rc = op == 'A' ? cmd_bcnum_add(&b->env, slot, &one, 0, slot)
                           : cmd_bcnum_sub(&b->env, slot, &one, 0, slot);
          cmd_bcnum_free(&one);
          pop(b);
        }
        break;
      }
      case 'D':
        if (b->sp) rc = push_copy(b, &b->stack[b->sp - 1]);
        break;
      case 'x':
        if (b->sp >= 2) {
          num t = b->stack[b->sp - 1];
          b->stack[b->sp - 1] = b->stack[b->sp - 2];
          b->stack[b->sp - 2] = t;
        }
        break;
      case 'p': pop(b); break;
      case 'n':
        if (b->sp && !cmd_bcnum_is_zero(&b->stack[b->sp - 1]))
          b->stack[b->sp - 1].neg = !b->stack[b->sp - 1].neg;
        break;
      case '!':
        if (b->sp) {
          bool z = cmd_bcnum_is_zero(&b->stack[b->sp - 1]);
          pop(b);
          rc = push_long(b, z ? 1 : 0);
        }
        break;
      case '+': case '-': case '*': case '/': case '%': case '^':
      case '=': case '#': case '<': case '{': case '>': case '}': {
        if (b->sp < 2) break;
        num *x = &b->stack[b->sp - 2], *y = &b->stack[b->sp - 1];
        num r;
        cmd_bcnum_init(&r);
        bool warn = false;
        int cmp;
        switch (op) {
          case '+': rc = cmd_bcnum_add(&b->env, x, y, 0, &r); break;
          case '-': rc = cmd_bcnum_sub(&b->env, x, y, 0, &r); break;
          case '*': rc = cmd_bcnum_mul(&b->env, x, y, (int)b->scale, &r); break;
          case '/':
            rc = cmd_bcnum_div(&b->env, x, y, (int)b->scale, &r);
            if (rc == -EDOM) {
              rt_error(b, func, pc, "Divide by zero");
              rc = 0;
            }
            break;
          case '%':
            rc = cmd_bcnum_mod(&b->env, x, y, (int)b->scale, &r);
            if (rc == -EDOM) {
              rt_error(b, func, pc, "Modulo by zero");
              rc = 0;
            }
            break;
          case '^':
            rc = cmd_bcnum_raise(&b->env, x, y, (int)b->scale, &r, &warn);
            if (warn) rt_warn(b, func, pc, "non-zero scale in exponent");
            if (rc == -EDOM) {
              rt_error(b, func, pc, "divide by zero");
              rc = 0;
            }
            break;
          default:
            cmp = cmd_bcnum_cmp(x, y);
            rc = cmd_bcnum_set_long(&r, op == '=' ? cmp == 0 : op == '#' ? cmp != 0
                                           : op == '<' ? cmp < 0 : op == '{' ? cmp <= 0
                                           : op == '>' ? cmp > 0 : cmp >= 0);
            break;
        }
        if (rc) {
          num_error(b, func, pc, rc, "");
          rc = 0;
          cmd_bcnum_free(&r);
          break;
        }
        if (b->rt_error) {
          cmd_bcnum_free(&r);
          break;
        }
        pop(b);
        pop(b);
        rc = push(b, &r);
        break;
      }
      case 'W':
      case 'P':
        if (b->sp) {
          num *v = &b->stack[b->sp - 1];
          rc = cmd_bcnum_print(&b->env, v, b->obase, out_char, b);
          if (!rc && op == 'W') out_char(b, '\n');
          if (!rc) rc = cmd_bcnum_copy(&b->last, v);
          pop(b);
        }
        break;
      case 'w':
        while (pc < c->len && c->b[pc] != '"') out_char(b, c->b[pc++]);
        pc++;
        break;
      case 'O':
        while (pc < c->len && c->b[pc] != '"') {
          uchar ch = c->b[pc++];
          if (ch != '\\') {
            out_char(b, ch);
            continue;
          }
          ch = pc < c->len ? c->b[pc++] : '"';
          if (ch == '"') {
            pc--;
            break;
          }
          switch (ch) {
            case 'a': out_char(b, 7); break;
            case 'b': out_char(b, '\b'); break;
            case 'f': out_char(b, '\f'); break;
            case 'n': out_char(b, '\n'); break;
            case 'q': out_char(b, '"'); break;
            case 'r': out_char(b, '\r'); break;
            case 't': out_char(b, '\t'); break;
            case '\\': out_char(b, '\\'); break;
            default: break;
          }
        }
        pc++;
        break;
      case 'Z':
      case 'B':
      case 'J': {
        int label = fetch_label(b, c, &pc);
        bool jump = true;
        if (op != 'J') {
          if (!b->sp) break;
          bool z = cmd_bcnum_is_zero(&b->stack[b->sp - 1]);
          pop(b);
          jump = op == 'Z' ? z : !z;
        }
        if (jump) {
          bc_func *fu = &b->funcs[func];
          size_t *labels = func == 0 ? b->labels : fu->labels;
          size_t nl = func == 0 ? b->nlabels : fu->nlabels;
          if ((size_t)label < nl && labels[label] != (size_t)-1) pc = labels[label];
          else pc = c->len;
        }
        break;
      }
      case 'C': {
        int callee = fetch_num(b, c, &pc);
        if ((size_t)callee >= b->nfuncs || !b->funcs[callee].defined) {
          rt_error(b, func, pc, "Function %s not defined.",
                   (size_t)callee < b->nfuncs && b->funcs[callee].name ? b->funcs[callee].name : "?");
          break;
        }
        bc_func *f = &b->funcs[callee];
        size_t np = (size_t)f->nparams;
        if (!call_params(b, func, c, &pc, callee)) break;
        if (b->sp < np) break;
        if (f->native) {
          num r;
          cmd_bcnum_init(&r);
          long saved_scale = b->scale;
          rc = f->native(b, &b->stack[b->sp - np], &r);
          if (rc) {
            b->scale = saved_scale;
            num_error(b, callee, 0, rc, "");
            rc = 0;
            cmd_bcnum_free(&r);
            break;
          }
          for (size_t k = 0; k < np; k++) pop(b);
          rc = push(b, &r);
          break;
        }
        if (b->nframes - base_frames >= BC_MAX_CALLS) {
          rt_error(b, func, pc, "function calls nested too deeply (more than %d)", BC_MAX_CALLS);
          break;
        }
        /* bind parameters (arguments in order below the stack top) */
        size_t first = b->sp - np;
        for (size_t k = 0; k < np; k++) {
          const bc_param *p = &f->params[k];
          num *arg = &b->stack[first + k];
          if (p->kind == P_VALUE) {
            push_frames_var(b, p->index, arg);
          } else {
            /* the argument is the source array's number (a constant read in
             * the caller's ibase, as GNU) */
            int src = (int)cmd_bcnum_to_long(arg);
            bc_array *sa = src > 0 && (size_t)src < b->narrays + 1 ? array_get(b, src) : NULL;
            if (!sa) sa = array_get(b, src > 0 ? src : 1);
            bc_array *na = NULL;
            if (p->kind == P_REF) {
              na = sa;
              if (na) na->refs++;
            } else {
              na = array_copy(sa);
            }
            if (na) push_array_frame(b, p->index, na);
          }
        }
        for (size_t k = 0; k < np; k++) cmd_bcnum_free(&b->stack[first + k]);
        b->sp = first;
        for (int k = 0; k < f->nautos; k++) {
          const bc_param *p = &f->autos[k];
          if (p->kind == P_VALUE) {
            num z;
            cmd_bcnum_init(&z);
            cmd_bcnum_set_long(&z, 0);
            push_frames_var(b, p->index, &z);
          } else {
            bc_array *na = array_new();
            if (na) {
              na->refs = 1;
              push_array_frame(b, p->index, na);
            }
          }
        }
        if (cmd_grow(&b->frames, &b->fcap, b->nframes + 1, sizeof *b->frames)) {
          rc = -ENOMEM;
          break;
        }
        b->frames[b->nframes++] = (bc_frame){func, pc, const_base};
        const_base = b->ibase; /* the callee's constants: ibase at the call */
        func = callee;
        pc = 0;
        break;
      }
      case 'R': {
        if (func == 0) {
          rt_error(b, func, pc, "Return from main program.");
          break;
        }
        leave_function(b, func);
        bc_frame fr = b->frames[--b->nframes];
        func = fr.func;
        pc = fr.pc;
        const_base = fr.ibase;
        break;
      }
      case 'h': b->halted = true; break;
      case 'c': {
        uchar sub = fetch(b, c, &pc);
        if (sub == 'I') {
          num n;
          cmd_bcnum_init(&n);
          rc = do_read(b, &n);
          if (!rc) rc = push(b, &n);
          break;
        }
        if (!b->sp) break;
        num *v = &b->stack[b->sp - 1];
        num r;
        cmd_bcnum_init(&r);
        if (sub == 'L') {
          long len = (v->len == 1 && v->scale != 0 && v->d[0] == 0) ? v->scale : v->len + v->scale;
          rc = cmd_bcnum_set_long(&r, len);
        } else if (sub == 'S') {
          rc = cmd_bcnum_set_long(&r, v->scale);
        } else {
          rc = cmd_bcnum_sqrt(&b->env, v, (int)b->scale, &r);
          if (rc == -EDOM) {
            rt_error(b, func, pc, "Square root of a negative number");
            rc = 0;
            cmd_bcnum_free(&r);
            break;
          }
        }
        if (rc) {
          num_error(b, func, pc, rc, "");
          rc = 0;
          cmd_bcnum_free(&r);
          break;
        }
        pop(b);
        rc = push(b, &r);
        break;
      }
      default: break;
    }
    if (rc) num_error(b, func, pc, rc, "");
  }
  /* unwind calls left by an error or halt */
  while (b->nframes > base_frames) {
    leave_function(b, func);
    func = b->frames[--b->nframes].func;
  }
  while (b->sp) pop(b);
  if (cmd_poll(b->ctx)) b->stopped = true;
}

/* ---- top level ------------------------------------------------------------------------------------- */

static void reset_unit(bc_state *b) {
  b->main_code.len = 0;
  b->nlabels = 0;
  b->had_error = false;
  b->unit_used = false;
  b->drop_unit = false;
  b->braces = 0;
  b->break_label = b->continue_label = -1;
}

/* Skips the rest of a failed unit: tokens up to a newline outside braces. */
static void recover(bc_state *b, int depth) {
  for (;;) {
    enum tok t = peek(b);
    if (t == T_EOF) return;
    consume(b);
    if (t == T_LBRACE) depth++;
    if (t == T_RBRACE && depth > 0) depth--;
    if (t == T_NL && depth <= 0) return;
  }
}

/* A definition list (parameters or autos). */
static bool parse_define_list(bc_state *b, bc_param **out, int *n, bool params, enum tok end) {
  *out = NULL;
  *n = 0;
  size_t cap = 0;
  if (peek(b) == end) return true;
  for (;;) {
    bool ref = false;
    if (params && peek(b) == T_MUL) {
      consume(b);
      ref = true;
    }
    if (peek(b) != T_NAME) {
      syntax_error(b);
      return false;
    }
    char *name = b->tok.text;
    size_t len = b->tok.len;
    b->tok.text = NULL;
    consume(b);
    bc_param p;
    if (peek(b) == T_LBRACK) {
      consume(b);
      if (!expect(b, T_RBRACK)) {
        free(name);
        return false;
      }
      p.kind = ref ? P_REF : P_ARRAY;
      p.index = array_number(b, name, len);
    } else {
      if (ref) {
        free(name);
        syntax_error(b);
        return false;
      }
      p.kind = P_VALUE;
      p.index = var_number(b, name, len);
    }
    free(name);
    if (cmd_grow(out, &cap, (size_t)*n + 1, sizeof **out)) return false;
    (*out)[(*n)++] = p;
    if (peek(b) != T_COMMA) return true;
    consume(b);
  }
}

static bool same_param(const bc_param *a, const bc_param *c) {
  return (a->kind == P_VALUE) == (c->kind == P_VALUE) && a->index == c->index;
}

/* define [void] NAME ( params ) { [auto ...] statements } */
static void parse_function(bc_state *b) {
  consume(b); /* define */
  bool is_void = false;
  if (peek(b) == T_VOID) {
    consume(b);
    ct_warn(b, "void functions");
    is_void = true;
  }
  if (peek(b) != T_NAME) {
    syntax_error(b);
    return;
  }
  int fn = func_number(b, b->tok.text, b->tok.len);
  consume(b);
  bc_param *params = NULL, *autos = NULL;
  int np = 0, na = 0;
  bc_code body = {0};
  size_t *saved_labels = b->labels, saved_nl = b->nlabels, saved_lcap = b->lcap;
  bc_code *saved_code = b->code;
  b->labels = NULL;
  b->nlabels = b->lcap = 0;
  if (!expect(b, T_LPAREN) || !parse_define_list(b, &params, &np, true, T_RPAREN) ||
      !expect(b, T_RPAREN))
    goto fail;
  for (int i = 0; i < np; i++)
    for (int j = 0; j < i; j++)
      if (same_param(&params[i], &params[j])) {
        yyerror(b, "duplicate parameter names");
        goto fail;
      }
  skip_newlines(b);
  if (!expect(b, T_LBRACE)) goto fail;
  b->braces++;
  if (peek(b) != T_NL) ct_warn(b, "End of line required");
  skip_newlines(b);
  if (peek(b) == T_AUTO) {
    consume(b);
    if (!parse_define_list(b, &autos, &na, false, T_SEMI)) goto fail;
    for (int i = 0; i < na; i++) {
      if (autos[i].kind == P_REF) autos[i].kind = P_ARRAY;
      for (int j = 0; j < np; j++)
        if (same_param(&autos[i], &params[j])) {
          yyerror(b, "variable in both parameter and auto lists");
          goto fail;
        }
    }
    if (peek(b) != T_NL && peek(b) != T_SEMI) {
      syntax_error(b);
      goto fail;
    }
    consume(b);
  }
  b->code = &body;
  b->cur_func = fn;
  b->funcs[fn].is_void = is_void; /* for "Return expression in a void function." */
  int saved_break = b->break_label, saved_cont = b->continue_label;
  b->break_label = b->continue_label = -1;
  parse_statement_list(b, T_RBRACE);
  b->break_label = saved_break;
  b->continue_label = saved_cont;
  b->cur_func = -1;
  b->code = saved_code;
  if (b->had_error || b->halted || !expect(b, T_RBRACE)) goto fail;
  b->braces--;
  code_add(&body, "0R", 2);
  bc_func *f = &b->funcs[fn];
  free(f->code.b);
  free(f->labels);
  free(f->params);
  free(f->autos);
  f->code = body;
  f->labels = b->labels;
  f->nlabels = b->nlabels;
  f->params = params;
  f->nparams = np;
  f->autos = autos;
  f->nautos = na;
  f->defined = true;
  f->native = NULL;
  f->is_void = is_void;
  b->labels = saved_labels;
  b->nlabels = saved_nl;
  b->lcap = saved_lcap;
  return;
fail:
  b->cur_func = -1;
  b->code = saved_code;
  free(body.b);
  free(params);
  free(autos);
  free(b->labels);
  b->labels = saved_labels;
  b->nlabels = saved_nl;
  b->lcap = saved_lcap;
  b->had_error = true;
}

/* Parses and runs one source to its end. */
static void run_source(bc_state *b) {
  while (!b->halted && !b->stopped) {
    reset_unit(b);
    enum tok t = peek(b);
    if (t == T_EOF) return;
    if (t == T_DEFINE) {
      parse_function(b);
      if (b->had_error && !b->halted) recover(b, b->braces);
      continue;
    }
    /* semicolon_list ENDOFLINE */
    b->code = &b->main_code;
    for (;;) {
      t = peek(b);
      if (t == T_NL || t == T_EOF || b->halted) break;
      if (t == T_SEMI) {
        consume(b);
        continue;
      }
      b->unit_used = true;
      if (!parse_statement(b)) break;
      t = peek(b);
      if (t != T_SEMI && t != T_NL) {
        syntax_error(b);
        break;
      }
    }
    if (b->halted) return;
    if (b->had_error) {
      recover(b, b->braces);
      continue;
    }
    if (peek(b) == T_EOF) {
      /* the last line needs its newline, as in GNU's grammar */
      if (b->unit_used) syntax_error(b);
      return;
    }
    consume(b); /* the newline: run now, before reading further */
    if (!b->drop_unit) execute(b);
  }
}

static const char bc_usage[] =
    "usage: %s [options] [file ...]\n"
    "  -h  --help         print this usage and exit\n"
    "  -i  --interactive  force interactive mode\n"
    "  -l  --mathlib      use the predefined math routines\n"
    "  -q  --quiet        don't print initial banner\n"
    "  -s  --standard     non-standard bc constructs are errors\n"
    "  -w  --warn         warn about non-standard bc constructs\n"
    "  -v  --version      print version information and exit\n";

static void bc_free(bc_state *b) {
  for (size_t i = 0; i < b->nvars; i++)
    while (b->vars[i]) pop_var(b, (int)i);
  free(b->vars);
  for (size_t i = 0; i < b->narrays; i++)
    while (b->arrays[i]) pop_array(b, (int)i);
  free(b->arrays);
  for (size_t i = 0; i < b->nfuncs; i++) {
    free(b->funcs[i].name);
    free(b->funcs[i].code.b);
    free(b->funcs[i].labels);
    free(b->funcs[i].params);
    free(b->funcs[i].autos);
  }
  free(b->funcs);
  free(b->main_code.b);
  while (b->sp) pop(b);
  free(b->stack);
  free(b->frames);
  free(b->labels);
  names_free(&b->var_names);
  names_free(&b->array_names);
  names_free(&b->func_names);
  cmd_bcnum_free(&b->last);
  tok_free(&b->tok);
  free(b->lex.buf);
  if (b->stdin_in) cmd_in_close(b->stdin_in);
}

static int bc_poll(void *ud) { return cmd_poll((cmd_ctx *)ud); }

int cmd_bc_main(cmd_ctx *ctx, int argc, char **argv) {
  /* Quiet (':'): a bad option prints glibc's message, then the usage on stdout. */
  static const char spec[] = ":h(help)i(interactive)l(mathlib)q(quiet)s(standard)w(warn)"
                             "v(version)";
  cmd_getopt_state st = CMD_GETOPT_INIT;
  for (int c; (c = cmd_getopt(ctx, &st, argc, argv, spec, NULL)) != -1;) {
    switch (c) {
      case 'h': cmd_outf(ctx, bc_usage, ctx->name); return 0;
      case 'v': return cmd_print_version(ctx);
      case '?':
      case ':':
        cmd_getopt_report(ctx, &st, argc, argv, c, NULL);
        cmd_outf(ctx, bc_usage, ctx->name);
        return 1;
    }
  }
  bool interactive = cmd_opt_on(&st, 'i'), quiet = cmd_opt_on(&st, 'q');
  bc_state *b = calloc(1, sizeof *b);
  if (!b) {
    cmd_errorf(ctx, "out of memory");
    return 1;
  }
  b->mathlib = cmd_opt_on(&st, 'l');
  b->standard = cmd_opt_on(&st, 's');
  b->warn_posix = cmd_opt_on(&st, 'w');
  int status = 0;
  b->ctx = ctx;
  b->env.max_digits = ctx->max_string ? (size_t)ctx->max_string : (64u << 20);
  if (b->env.max_digits > INT_MAX / 2) b->env.max_digits = INT_MAX / 2;
  b->env.poll = bc_poll;
  b->env.poll_ud = ctx;
  /* all live numbers and array pages: 4 x max_string, within [64 MiB, 1 GiB] */
  uint64_t ms = ctx->max_string ? ctx->max_string : (64u << 20);
  b->mem.max = ms > (UINT64_MAX / 4) ? UINT64_MAX : ms * 4;
  if (b->mem.max < (64u << 20)) b->mem.max = 64u << 20;
  if (b->mem.max > (1u << 30)) b->mem.max = 1u << 30;
  cmd_bcnum_account(&b->mem);
  b->ibase = b->obase = 10;
  b->line_size = 70;
  const char *ll = cmd_getenv(ctx, "BC_LINE_LENGTH");
  if (ll) {
    b->line_size = atol(ll);
    if (b->line_size < 3 && b->line_size != 0) b->line_size = 70;
  }
  cmd_bcnum_set_long(&b->last, 0);
  b->funcs = calloc(1, sizeof *b->funcs);
  b->nfuncs = 1;
  b->funcs[0].defined = true;
  b->code = &b->main_code;
  b->cur_func = -1;
  b->break_label = b->continue_label = -1;
  if (b->mathlib) {
    b->scale = 20;
    define_native(b, "e", 1, lib_e);
    define_native(b, "l", 1, lib_l);
    define_native(b, "s", 1, lib_s);
    define_native(b, "a", 1, lib_a);
    define_native(b, "c", 1, lib_c);
    define_native(b, "j", 2, lib_j);
  }
  if (interactive && !quiet) {
    cmd_outs(ctx, bc_banner);
    cmd_outs(ctx, "This is free software with ABSOLUTELY NO WARRANTY.\n"
                  "For details type `warranty'. \n");
  }
  /* the files, then standard input */
  for (int i = st.ind; i <= argc && !b->halted && !b->stopped; i++) {
    bool is_stdin = i == argc;
    cmd_in *in = NULL;
    /* "-" is a file name for bc, not standard input */
    int rc = is_stdin ? 0 : cmd_in_open(ctx, strcmp(argv[i], "-") == 0 ? "./-" : argv[i], &in);
    if (rc < 0) {
      cmd_record_error(ctx, rc, argv[i]);
      cmd_err_raw(ctx, "File %s is unavailable.\n", argv[i]);
      status = 1;
      break;
    }
    if (is_stdin) in = cmd_in_fd(ctx, 0);
    memset(&b->lex, 0, sizeof b->lex);
    b->lex.in = in;
    b->lex.fname = is_stdin ? "(standard_in)" : argv[i];
    b->lex.echo = is_stdin && interactive;
    b->lex.line = 1;
    b->have_tok = false;
    run_source(b);
    tok_free(&b->tok);
    b->have_tok = false;
    free(b->lex.buf);
    b->lex.buf = NULL;
    if (in) cmd_in_close(in);
  }
  if (b->stopped && !ctx->out_err) status = 130;
  if (ctx->out_err == -EPIPE) status = 141;
  bc_free(b);
#ifdef BC_DEBUG_ACCOUNT
  cmd_err_raw(ctx, "live=%llu\n", (unsigned long long)b->mem.live);
#endif
  cmd_bcnum_account(NULL);
  free(b);
  return status;
}
