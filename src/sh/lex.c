/*
 * lex.c - the shell's character reader, tokenizer and word scanner.
 *
 * The reader is a stack of frames: frame 0 is the script, the frames above are
 * alias values being read (an alias is expanded by pushing its value, so no
 * text is ever copied or re-spliced). Backslash-newline is removed by the reader
 * itself except in raw reads (single quotes, here-document bodies).
 *
 * Words are scanned straight into parts (ast.h): quotes are resolved here, once,
 * so expansion never re-scans text. $(...) and <(...) are parsed recursively by
 * the grammar (sh_parse_cmdsub), which is how `$(case x in x) ;; esac)` works;
 * backquoted text is unescaped first and handed to a sub-parser.
 *
 * Every recursive construct goes through sh_pdepth_enter, which bounds nesting
 * (100,000 nested `$(` ends with an error, not a stack overflow).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sh/parse_int.h"

/* ---- errors and depth ------------------------------------------------------------ */

void sh_perr(sh_parser *p, int line, const char *fmt, ...) {
  if (!p->errmsg) {
    sh_buf b = {0};
    va_list ap;
    va_start(ap, fmt);
    sh_buf_vaddf(&b, fmt, ap);
    va_end(ap);
    p->errmsg = sh_buf_steal(&b);
    p->errline = line;
    p->err_in_array = p->array_depth > 0;
  }
  p->failed = true;
  longjmp(p->jb, 1);
}

void sh_pdepth_enter(sh_parser *p) {
  if (++p->depth > p->opts.max_depth)
    sh_perr(p, p->line, "maximum nesting depth exceeded (limit %d)", p->opts.max_depth);
}

/* ---- the character reader ---------------------------------------------------------- */

/* Pops alias frames that have been read completely. */
static void pop_done_frames(sh_parser *p) {
  while (p->nframes > 1) {
    sh_frame *f = &p->frames[p->nframes - 1];
    if (f->pos < f->len) break;
    if (f->blank_end) p->alias_blank_popped = true;
    free(f->owned);
    f->owned = NULL;
    p->nframes--;
  }
}

/* The raw character k positions ahead, without continuation removal. */
static int raw_peekn(sh_parser *p, int k) {
  int fi = p->nframes - 1;
  size_t pos = p->frames[fi].pos;
  for (;;) {
    sh_frame *f = &p->frames[fi];
    if (pos + (size_t)k < f->len) return (unsigned char)f->s[pos + (size_t)k];
    k -= (int)(f->len - pos);
    if (--fi < 0) return -1;
    pos = p->frames[fi].pos;
  }
}

static int raw_getc(sh_parser *p) {
  pop_done_frames(p);
  sh_frame *f = &p->frames[p->nframes - 1];
  if (f->pos >= f->len) return -1;
  int c = (unsigned char)f->s[f->pos++];
  if (p->nframes == 1) {
    if (c == '\n') {
      p->line++;
      p->col = 1;
    } else {
      p->col++;
    }
  }
  return c;
}

int sh_lex_peekn(sh_parser *p, int k) {
  int i = 0;
  for (;;) {
    int c = raw_peekn(p, i);
    if (c == '\\' && raw_peekn(p, i + 1) == '\n') {
      i += 2;
      continue;
    }
    if (k == 0) return c;
    k--;
    i++;
    if (c < 0) return -1;
  }
}

int sh_lex_peekc(sh_parser *p) { return sh_lex_peekn(p, 0); }

/* A lookahead cursor: logical offset i (line continuations removed) at raw
 * offset r. sh_lex_peekn(p, k) walks from 0 each call, so scanning a long word
 * with it was quadratic (a 2 MB word parsed for hours); lookahead loops step a
 * cursor instead. */
typedef struct {
  int i; /* logical offset, as sh_lex_peekn counts */
  int r; /* the raw offset of that character */
} la_cur;

/* The character at the cursor (moving it past continuations), -1 at the end. */
static int la_peek(sh_parser *p, la_cur *c) {
  for (;;) {
    int ch = raw_peekn(p, c->r);
    if (ch == '\\' && raw_peekn(p, c->r + 1) == '\n') {
      c->r += 2;
      continue;
    }
    return ch;
  }
}

static void la_next(sh_parser *p, la_cur *c) {
  la_peek(p, c);
  c->i++;
  c->r++;
}

/* A cursor at logical offset k. */
static la_cur la_at(sh_parser *p, int k) {
  la_cur c = {0, 0};
  while (c.i < k) la_next(p, &c);
  return c;
}

int sh_lex_getc(sh_parser *p) {
  for (;;) {
    int c = raw_getc(p);
    if (c == '\\' && raw_peekn(p, 0) == '\n') {
      raw_getc(p);
      continue;
    }
    return c;
  }
}

void sh_lex_skip_blanks(sh_parser *p) {
  for (;;) {
    int c = sh_lex_peekc(p);
    if (c == ' ' || c == '\t') {
      sh_lex_getc(p);
    } else if (c == '#') {
      while ((c = sh_lex_peekc(p)) >= 0 && c != '\n') raw_getc(p);
    } else {
      return;
    }
  }
}

void sh_lex_push_alias(sh_parser *p, const char *name, const char *value) {
  if (p->nframes >= SH_ALIAS_DEPTH_MAX)
    sh_perr(p, p->line, "alias expansion too deep (limit %d)", SH_ALIAS_DEPTH_MAX);
  pop_done_frames(p);
  sh_frame *f = &p->frames[p->nframes++];
  size_t n = strlen(value);
  size_t nl = strlen(name);
  /* the value outlives this command's arena (an alias may span commands) */
  f->owned = sh_xmalloc(n + nl + 2);
  memcpy(f->owned, value, n + 1);
  memcpy(f->owned + n + 1, name, nl + 1);
  f->s = f->owned;
  f->len = n;
  f->pos = 0;
  f->alias = f->owned + n + 1;
  f->blank_end = n > 0 && (value[n - 1] == ' ' || value[n - 1] == '\t');
}

bool sh_lex_alias_active(sh_parser *p, const char *name) {
  for (int i = 1; i < p->nframes; i++)
    if (p->frames[i].alias && strcmp(p->frames[i].alias, name) == 0 &&
        p->frames[i].pos < p->frames[i].len)
      return true;
  /* The value just finished: still active for the word that ends it. */
  for (int i = 1; i < p->nframes; i++)
    if (p->frames[i].alias && strcmp(p->frames[i].alias, name) == 0) return true;
  return false;
}

/* ---- word builder ------------------------------------------------------------------- */

typedef struct wbuild {
  sh_part *head, *tail;   /* finished parts */
  sh_part_kind pkind;     /* kind of the pending literal */
  char *pend;             /* pending literal text (arena) */
  size_t plen, pcap;
  bool has_pend;          /* a pending literal exists (may be empty QLIT) */
} wbuild;

static void wb_append(wbuild *b, sh_part *part) {
  if (b->tail)
    b->tail->next = part;
  else
    b->head = part;
  b->tail = part;
}

static void wb_flush(sh_parser *p, wbuild *b) {
  if (!b->has_pend) return;
  sh_part *part = sh_arena_alloc(p->arena, sizeof *part);
  part->kind = b->pkind;
  part->u.lit.s = b->pend ? b->pend : "";
  part->u.lit.n = b->plen;
  wb_append(b, part);
  b->pend = NULL;
  b->plen = b->pcap = 0;
  b->has_pend = false;
}

static void wb_lit(sh_parser *p, wbuild *b, sh_part_kind kind, const char *s, size_t n) {
  if (b->has_pend && b->pkind != kind) wb_flush(p, b);
  b->has_pend = true;
  b->pkind = kind;
  if (b->plen + n > b->pcap) {
    size_t cap = b->pcap ? b->pcap * 2 : 32;
    while (cap < b->plen + n) cap *= 2;
    char *np = sh_arena_alloc(p->arena, cap);
    if (b->plen) memcpy(np, b->pend, b->plen);
    b->pend = np;
    b->pcap = cap;
  }
  if (n) memcpy(b->pend + b->plen, s, n);
  b->plen += n;
}

static void wb_litc(sh_parser *p, wbuild *b, sh_part_kind kind, int c) {
  char ch = (char)c;
  wb_lit(p, b, kind, &ch, 1);
}

static void wb_part(sh_parser *p, wbuild *b, sh_part *part) {
  wb_flush(p, b);
  wb_append(b, part);
}

static sh_part *new_part(sh_parser *p, sh_part_kind kind) {
  sh_part *part = sh_arena_alloc(p->arena, sizeof *part);
  part->kind = kind;
  return part;
}

static sh_word *new_word(sh_parser *p, int line, int col) {
  sh_word *w = sh_arena_alloc(p->arena, sizeof *w);
  w->line = line;
  w->col = col;
  return w;
}

/* Sets w->lit when the word is one unquoted literal. */
static void word_finish(sh_parser *p, sh_word *w, wbuild *b) {
  wb_flush(p, b);
  w->parts = b->head;
  if (w->parts && !w->parts->next && w->parts->kind == SH_PART_LIT)
    w->lit = sh_arena_strndup(p->arena, w->parts->u.lit.s, w->parts->u.lit.n);
}

/* ---- pieces of words ------------------------------------------------------------------ */

static void lex_dollar(sh_parser *p, wbuild *b, int ctx);
static void lex_backquote(sh_parser *p, wbuild *b, bool in_dq);
static sh_word *lex_subscript(sh_parser *p, int line);

/* Contexts for the scanners below. */
enum {
  CTX_UNQ,      /* unquoted word */
  CTX_DQ,       /* inside "..." */
  CTX_HEREDOC,  /* here-document body: like "..." but " is literal */
};

static void lex_squote(sh_parser *p, wbuild *b) {
  int line = p->line;
  sh_lex_getc(p); /* the opening quote */
  wb_lit(p, b, SH_PART_QLIT, "", 0);
  for (;;) {
    int c = raw_getc(p);
    if (c < 0) sh_perr(p, line, "unexpected EOF while looking for matching `''");
    if (c == '\'') break;
    wb_litc(p, b, SH_PART_QLIT, c);
  }
}

/* $'...' with ANSI-C escapes; the reader is at the quote. The text up to the
 * closing quote is read as written, then decoded (sh_ansi_c_decode). */
static void lex_ansi_c(sh_parser *p, wbuild *b) {
  int line = p->line;
  raw_getc(p);
  sh_buf text = {0};
  for (;;) {
    int c = raw_getc(p);
    if (c == '\'') break;
    if (c == '\\') {
      /* an escape is kept whole, so \' does not end the text */
      sh_buf_addc(&text, '\\');
      c = raw_getc(p);
    }
    if (c < 0) {
      sh_buf_free(&text);
      sh_perr(p, line, "unexpected EOF while looking for matching `''");
    }
    sh_buf_addc(&text, (char)c);
  }
  sh_buf dec = {0};
  sh_ansi_c_decode(text.data ? text.data : "", text.len, &dec);
  sh_buf_free(&text);
  wb_lit(p, b, SH_PART_QLIT, "", 0);
  if (dec.len) wb_lit(p, b, SH_PART_QLIT, dec.data, dec.len);
  sh_buf_free(&dec);
}

/* The inside of "...": text and expansions, up to the closing quote (consumed).
 * In CTX_HEREDOC mode there is no closing quote: it reads to the end.
 * `bs_any`: a backslash quotes any character and goes (bash, for "..." inside
 * the word of a double-quoted "${x-"\p"}", which gives p). */
static sh_part *lex_dq_body(sh_parser *p, int ctx, int line, bool bs_any) {
  wbuild b = {0};
  sh_pdepth_enter(p);
  wb_lit(p, &b, SH_PART_QLIT, "", 0);
  for (;;) {
    int c = sh_lex_peekc(p);
    if (c < 0) {
      if (ctx == CTX_HEREDOC) break;
      sh_perr(p, line, "unexpected EOF while looking for matching `\"'");
    }
    if (c == '"' && ctx == CTX_DQ) {
      sh_lex_getc(p);
      break;
    }
    if (c == '\\') {
      sh_lex_getc(p);
      int d = raw_getc(p);
      if (d < 0) {
        wb_litc(p, &b, SH_PART_QLIT, '\\');
        continue;
      }
      if (bs_any || d == '$' || d == '`' || d == '\\' || (d == '"' && ctx == CTX_DQ)) {
        wb_litc(p, &b, SH_PART_QLIT, d);
      } else {
        wb_litc(p, &b, SH_PART_QLIT, '\\');
        wb_litc(p, &b, SH_PART_QLIT, d);
      }
      continue;
    }
    if (c == '$') {
      lex_dollar(p, &b, ctx);
      continue;
    }
    if (c == '`') {
      lex_backquote(p, &b, true);
      continue;
    }
    sh_lex_getc(p);
    wb_litc(p, &b, SH_PART_QLIT, c);
  }
  wb_flush(p, &b);
  sh_pdepth_leave(p);
  return b.head;
}

static void lex_dquote_bs(sh_parser *p, wbuild *b, bool bs_any) {
  int line = p->line;
  sh_lex_getc(p);
  sh_part *part = new_part(p, SH_PART_DQUOTE);
  part->u.children = lex_dq_body(p, CTX_DQ, line, bs_any);
  wb_part(p, b, part);
}

static void lex_dquote(sh_parser *p, wbuild *b) {
  lex_dquote_bs(p, b, false);
}

static void lex_backquote(sh_parser *p, wbuild *b, bool in_dq) {
  int line = p->line;
  sh_lex_getc(p);
  sh_buf text = {0};
  for (;;) {
    int c = raw_getc(p);
    if (c < 0) {
      sh_buf_free(&text);
      sh_perr(p, line, "unexpected EOF while looking for matching ``'");
    }
    if (c == '`') break;
    if (c == '\\') {
      int d = raw_getc(p);
      if (d == '$' || d == '`' || d == '\\' || (in_dq && d == '"')) {
        sh_buf_addc(&text, (char)d);
      } else if (d == '\n') {
        /* line continuation */
      } else if (d < 0) {
        sh_buf_addc(&text, '\\');
      } else {
        sh_buf_addc(&text, '\\');
        sh_buf_addc(&text, (char)d);
      }
      continue;
    }
    sh_buf_addc(&text, (char)c);
  }
  /* Copy into the arena so an error inside the sub-parse leaks nothing. */
  char *s = sh_arena_strndup(p->arena, sh_buf_str(&text), text.len);
  size_t n = text.len;
  sh_buf_free(&text);
  sh_part *part = new_part(p, SH_PART_CMDSUB);
  part->u.cmd.backquote = true;
  part->u.cmd.body = sh_parse_substring(p, s, n, line);
  wb_part(p, b, part);
}

/* Does the text after "$((" (or "((") close with "))" before a lone ")"?
 * Decides between arithmetic and a nested subshell, like bash. */
static bool arith_ahead(sh_parser *p, int k) {
  int depth = 0;
  for (la_cur u = la_at(p, k); u.i < (1 << 20); la_next(p, &u)) {
    int c = la_peek(p, &u);
    if (c < 0) return true; /* let the arithmetic scanner report EOF */
    if (c == '\'' || c == '"') {
      int q = c;
      for (la_next(p, &u); (c = la_peek(p, &u)) >= 0 && c != q; la_next(p, &u))
        if (c == '\\' && q == '"') la_next(p, &u);
      if (c < 0) return true;
      continue;
    }
    if (c == '\\') {
      la_next(p, &u);
      continue;
    }
    if (c == '(') depth++;
    if (c == ')') {
      if (depth == 0) {
        la_next(p, &u);
        return la_peek(p, &u) == ')';
      }
      depth--;
    }
  }
  return true;
}

/* One char `c` (peeked, not yet read) of arithmetic or subscript text, which
 * reads like double-quoted text: \x is a quoted x, "...", $... and `...`
 * nest, '...' too when `squotes` (subscripts; in arithmetic a ' is a plain
 * char), anything else is a quoted literal. */
static void lex_quoted_text_char(sh_parser *p, wbuild *b, int c, bool squotes) {
  if (c == '$') {
    /* where '...' quotes (a subscript), $'...' is ANSI-C quoting too */
    lex_dollar(p, b, squotes && sh_lex_peekn(p, 1) == '\'' ? CTX_UNQ : CTX_DQ);
  } else if (c == '`') {
    lex_backquote(p, b, true);
  } else if (c == '"') {
    lex_dquote(p, b);
  } else if (c == '\'' && squotes) {
    lex_squote(p, b);
  } else if (c == '\\') {
    sh_lex_getc(p);
    int d = raw_getc(p);
    if (d >= 0) wb_litc(p, b, SH_PART_QLIT, d);
  } else {
    sh_lex_getc(p);
    wb_litc(p, b, SH_PART_QLIT, c);
  }
}

/* Arithmetic text up to "))" (or `close` ']' for $[...]), or a ';' at depth 0
 * when `semi` is set (for ((;;))). The terminator is consumed; *stop gets the
 * char that ended it (')' or ';' or ']'). */
static const char *raw_since(sh_parser *p, int fi, const char *s, size_t pos, size_t trim);

static sh_word *lex_arith_text(sh_parser *p, int close, bool semi, int *stop) {
  int line = p->line;
  sh_word *w = new_word(p, p->line, p->col);
  wbuild b = {0};
  int depth = 0;
  int fi = p->nframes - 1;
  const char *fs = p->frames[fi].s;
  size_t fpos = p->frames[fi].pos;
  int bdepth = 0;
  sh_pdepth_enter(p);
  wb_lit(p, &b, SH_PART_QLIT, "", 0);
  for (;;) {
    int c = sh_lex_peekc(p);
    if (c < 0) /* bash names the closing character it wanted */
      sh_perr(p, line, close == ']' ? "unexpected EOF while looking for matching `]'"
                                    : "unexpected EOF while looking for matching `)'");
    if (close == ')' && c == ')' && depth == 0) {
      sh_lex_getc(p);
      if (sh_lex_peekc(p) != ')')
        sh_perr(p, p->line, "syntax error: unexpected token `)' in arithmetic");
      sh_lex_getc(p);
      *stop = ')';
      break;
    }
    if (close == ']' && c == ']' && depth == 0 && bdepth == 0) {
      sh_lex_getc(p);
      *stop = ']';
      break;
    }
    /* $[ a[0] ]: brackets inside nest */
    if (close == ']' && c == '[') bdepth++;
    if (close == ']' && c == ']') bdepth--;
    if (semi && c == ';' && depth == 0) {
      sh_lex_getc(p);
      *stop = ';';
      break;
    }
    if (c == '(') depth++;
    if (c == ')') depth--;
    lex_quoted_text_char(p, &b, c, false);
  }
  sh_pdepth_leave(p);
  word_finish(p, w, &b);
  w->raw = raw_since(p, fi, fs, fpos, *stop == ')' ? 2 : 1);
  return w;
}

sh_word *sh_lex_arith(sh_parser *p, bool semi, int *stop);
sh_word *sh_lex_arith(sh_parser *p, bool semi, int *stop) {
  return lex_arith_text(p, ')', semi, stop);
}

bool sh_lex_arith_ahead(sh_parser *p, int k);
bool sh_lex_arith_ahead(sh_parser *p, int k) { return arith_ahead(p, k); }

/* <(...) or >(...) at the reader (at '<' or '>'): a process substitution
 * part, also in the middle of a word (a<(true)c) and in the word of an
 * unquoted ${x:-<(cmd)} (bash). */
static bool procsub_ahead(sh_parser *p) {
  int c = sh_lex_peekc(p);
  return (c == '<' || c == '>') && sh_lex_peekn(p, 1) == '(';
}

static void lex_procsub(sh_parser *p, wbuild *b) {
  int c = sh_lex_getc(p);
  sh_lex_getc(p);
  sh_part *part = new_part(p, SH_PART_PROCSUB);
  part->u.cmd.dir = (char)c;
  part->u.cmd.body = sh_parse_cmdsub(p);
  wb_part(p, b, part);
}

static bool posix_on(sh_parser *p) { return p->opts.posix && p->opts.posix(p->opts.ud); }

/* Scans an argument of ${...} up to (not including) an unnested char of
 * `stops` (an unquoted '}' always ends it). `pattern`: unquoted text stays glob
 * active even inside double quotes. */
static sh_word *lex_param_word(sh_parser *p, int ctx, const char *stops, bool pattern) {
  int line = p->line;
  sh_word *w = new_word(p, p->line, p->col);
  wbuild b = {0};
  /* a pattern, and (bash 5.2) a ${x/p/r} replacement even in "...", is lexed
   * as unquoted text: its & and backslashes keep their meaning */
  bool unquoted = ctx == CTX_UNQ || pattern || p->param_quotes;
  sh_part_kind litkind = unquoted ? SH_PART_LIT : SH_PART_QLIT;
  bool dq_squote = false; /* inside a literal '...' of a "${x-...}" */
  int tern = 0;           /* slice offsets: ?s waiting for their : */
  bool ternary = p->slice_ternary;
  p->slice_ternary = false;
  sh_pdepth_enter(p);
  for (;;) {
    int c = sh_lex_peekc(p);
    if (c < 0 && !stops) break;
    if (c < 0) sh_perr(p, line, "unexpected EOF while looking for matching `}'");
    if (ternary && c == '?') tern++;
    if (ternary && c == ':' && tern > 0) {
      tern--;
      sh_lex_getc(p);
      wb_litc(p, &b, litkind, c);
      continue;
    }
    /* a bare { does not nest: ${x:-{} is "{" and ${x:-{a}b} is "{ab}" (bash) */
    if (stops && strchr(stops, c) && !dq_squote) break;
    if (c == '}' && stops && !dq_squote) break;
    if (c == '\\') {
      sh_lex_getc(p);
      int d = raw_getc(p);
      if (d < 0) {
        wb_litc(p, &b, litkind, '\\');
      } else if (!unquoted && !strchr("$`\"\\}", d)) {
        wb_litc(p, &b, SH_PART_QLIT, '\\');
        wb_litc(p, &b, SH_PART_QLIT, d);
      } else {
        wb_litc(p, &b, SH_PART_QLIT, d);
      }
      continue;
    }
    if (c == '\'' && (ctx == CTX_UNQ || pattern || p->param_quotes)) {
      lex_squote(p, &b);
      continue;
    }
    if (c == '\'' && stops && !posix_on(p)) {
      /* in double quotes a '...' is literal, but a } inside it does not end
       * the expansion (bash: "${x-'}'}" gives '}'); $ still expands. Under
       * set -o posix a ' there is an ordinary character. */
      sh_lex_getc(p);
      wb_litc(p, &b, litkind, c);
      dq_squote = !dq_squote;
      continue;
    }
    if (ctx == CTX_UNQ && !pattern && procsub_ahead(p)) {
      lex_procsub(p, &b);
      continue;
    }
    if (c == '$' && sh_lex_peekn(p, 1) == '\'' && ctx != CTX_UNQ && (pattern || ctx == CTX_DQ)) {
      /* $'...' is recognized in a pattern even in double quotes, and in the
       * word of "${x-$'...'}" (bash's extquote, on by default) */
      lex_dollar(p, &b, CTX_UNQ);
      continue;
    }
    if (c == '"') {
      lex_dquote_bs(p, &b, !unquoted && ctx == CTX_DQ);
      continue;
    }
    if (c == '$') {
      lex_dollar(p, &b, ctx == CTX_UNQ ? CTX_UNQ : CTX_DQ);
      continue;
    }
    if (c == '`') {
      lex_backquote(p, &b, ctx != CTX_UNQ);
      continue;
    }
    sh_lex_getc(p);
    wb_litc(p, &b, litkind, c);
  }
  sh_pdepth_leave(p);
  word_finish(p, w, &b);
  if (!w->parts) {
    /* an empty argument is still present (${x:-} differs from ${x}) but
     * adds no field */
    w->parts = new_part(p, SH_PART_LIT);
    w->parts->u.lit.s = "";
  }
  return w;
}

static bool is_special_param(int c) {
  return c == '@' || c == '*' || c == '#' || c == '?' || c == '-' || c == '$' ||
         c == '!' || (c >= '0' && c <= '9');
}

/* ${...}; the reader is at '{'. */
static void lex_param_brace(sh_parser *p, wbuild *b, int ctx) {
  int line = p->line;
  sh_lex_getc(p);
  /* where the text inside the braces starts (a bad substitution shows it all) */
  int start_fi = p->nframes - 1;
  const char *start_s = p->frames[start_fi].s;
  size_t start_pos = p->frames[start_fi].pos;
  sh_param *pa = sh_arena_alloc(p->arena, sizeof *pa);
  pa->brace = true;
  pa->line = line;
  sh_buf name = {0};
  int c = sh_lex_peekc(p);
  /* ${#...}: length, unless it is ${#} or ${#op...} */
  if (c == '#') {
    int d = sh_lex_peekn(p, 1);
    /* ${###} and ${#-x} are $# with an operator (bash); ${##} is the length of $# */
    bool op_follows = (d == '#' || d == '-') && sh_lex_peekn(p, 2) != '}';
    if (d != '}' && d >= 0 && !(d == ':' ) && !op_follows &&
        (sh_is_name_start(d) || is_special_param(d))) {
      sh_lex_getc(p);
      pa->length = true;
      c = sh_lex_peekc(p);
    }
  } else if (c == '!') {
    int d = sh_lex_peekn(p, 1);
    if (d != '}' && d >= 0 && (sh_is_name_start(d) || is_special_param(d))) {
      sh_lex_getc(p);
      pa->indirect = true;
      c = sh_lex_peekc(p);
    }
  }
  /* the name */
  if (c >= 0 && sh_is_name_start(c)) {
    while ((c = sh_lex_peekc(p)) >= 0 && sh_is_name_char(c)) sh_buf_addc(&name, (char)sh_lex_getc(p));
  } else if (c >= '0' && c <= '9') {
    while ((c = sh_lex_peekc(p)) >= '0' && c <= '9') sh_buf_addc(&name, (char)sh_lex_getc(p));
  } else if (c >= 0 && is_special_param(c)) {
    sh_buf_addc(&name, (char)sh_lex_getc(p));
  }
  pa->name = sh_arena_strndup(p->arena, sh_buf_str(&name), name.len);
  sh_buf_free(&name);
  c = sh_lex_peekc(p);
  /* subscript */
  if (c == '[' && pa->name[0] && sh_is_name_start((unsigned char)pa->name[0])) {
    sh_lex_getc(p);
    int d = sh_lex_peekc(p);
    if ((d == '@' || d == '*') && sh_lex_peekn(p, 1) == ']') {
      pa->index_all = (char)d;
      sh_lex_getc(p);
      sh_lex_getc(p);
    } else {
      pa->index = lex_subscript(p, line);
    }
    c = sh_lex_peekc(p);
  }
  /* ${!prefix*} and ${!prefix@} */
  if (pa->indirect && (c == '*' || c == '@') && sh_lex_peekn(p, 1) == '}' && !pa->index &&
      !pa->index_all && sh_is_name(pa->name)) {
    pa->op = SH_POP_NAMES;
    pa->names_all = (char)c;
    pa->indirect = false;
    sh_lex_getc(p);
    sh_lex_getc(p);
    goto done;
  }
  if (pa->indirect && pa->index_all && c == '}') {
    pa->op = SH_POP_KEYS;
    pa->indirect = false;
    sh_lex_getc(p);
    goto done;
  }
  if (!pa->name[0]) goto bad;
  if (pa->length && c != '}') goto bad;
  switch (c) {
  case '}':
    sh_lex_getc(p);
    goto done;
  case ':': {
    int d = sh_lex_peekn(p, 1);
    if (d == '-' || d == '=' || d == '?' || d == '+') {
      sh_lex_getc(p);
      pa->colon = true;
      c = d;
      break;
    }
    sh_lex_getc(p);
    pa->op = SH_POP_SLICE;
    p->slice_ternary = true; /* ${s: a ? b : c : len} */
    pa->arg = lex_param_word(p, CTX_DQ, ":}", false);
    p->slice_ternary = false;
    if (sh_lex_peekc(p) == ':') {
      sh_lex_getc(p);
      pa->arg2 = lex_param_word(p, CTX_DQ, "}", false);
    }
    sh_lex_getc(p);
    goto done;
  }
  default:
    break;
  }
  switch (c) {
  case '-': case '=': case '?': case '+':
    sh_lex_getc(p);
    pa->op = c == '-' ? SH_POP_DEFAULT : c == '=' ? SH_POP_ASSIGN : c == '?' ? SH_POP_ERROR : SH_POP_ALT;
    pa->arg = lex_param_word(p, ctx, "}", false);
    sh_lex_getc(p);
    goto done;
  case '#': case '%': {
    sh_lex_getc(p);
    bool twice = sh_lex_peekc(p) == c;
    if (twice) sh_lex_getc(p);
    pa->op = c == '#' ? (twice ? SH_POP_RM_PREFIX_L : SH_POP_RM_PREFIX)
                      : (twice ? SH_POP_RM_SUFFIX_L : SH_POP_RM_SUFFIX);
    pa->arg = lex_param_word(p, ctx, "}", true);
    sh_lex_getc(p);
    goto done;
  }
  case '/': {
    sh_lex_getc(p);
    int d = sh_lex_peekc(p);
    pa->op = SH_POP_REPL;
    if (d == '/') {
      pa->op = SH_POP_REPL_ALL;
      sh_lex_getc(p);
    } else if (d == '#') {
      pa->op = SH_POP_REPL_PREFIX;
      sh_lex_getc(p);
    } else if (d == '%') {
      pa->op = SH_POP_REPL_SUFFIX;
      sh_lex_getc(p);
    }
    /* the pattern's first character is never the separator (bash):
     * ${x////c} replaces "/" with "c" */
    bool lead_slash = sh_lex_peekc(p) == '/' && (pa->op == SH_POP_REPL || pa->op == SH_POP_REPL_ALL);
    if (lead_slash) sh_lex_getc(p);
    pa->arg = lex_param_word(p, ctx, "/}", true);
    if (lead_slash) {
      sh_part *sl = new_part(p, SH_PART_LIT);
      sl->u.lit.s = "/";
      sl->u.lit.n = 1;
      sl->next = pa->arg->parts;
      pa->arg->parts = sl;
      pa->arg->lit = NULL;
    }
    if (sh_lex_peekc(p) == '/') {
      sh_lex_getc(p);
      /* bash 5.2 removes quotes in the replacement, also in "..." */
      p->param_quotes = true;
      pa->arg2 = lex_param_word(p, ctx, "}", false);
      p->param_quotes = false;
    }
    sh_lex_getc(p);
    goto done;
  }
  case '^': case ',': case '~': {
    sh_lex_getc(p);
    bool twice = sh_lex_peekc(p) == c;
    if (twice) sh_lex_getc(p);
    if (c == '^') pa->op = twice ? SH_POP_UPPER : SH_POP_UPPER1;
    else if (c == ',') pa->op = twice ? SH_POP_LOWER : SH_POP_LOWER1;
    else pa->op = twice ? SH_POP_TOGGLE : SH_POP_TOGGLE1;
    if (sh_lex_peekc(p) != '}') pa->arg = lex_param_word(p, ctx, "}", true);
    sh_lex_getc(p);
    goto done;
  }
  case '@': {
    sh_lex_getc(p);
    int d = sh_lex_peekc(p);
    if (d >= 0 && strchr("QEPAKakuUL", d) && sh_lex_peekn(p, 1) == '}') {
      pa->op = SH_POP_TRANSFORM;
      pa->transform = (char)d;
      sh_lex_getc(p);
      sh_lex_getc(p);
      goto done;
    }
    goto bad;
  }
  default:
    goto bad;
  }
bad:
  /* bash reports "bad substitution" when the expansion runs: keep the text. */
  {
    sh_buf t = {0};
    int depth = 0;
    for (;;) {
      int d = sh_lex_getc(p);
      if (d < 0) {
        sh_buf_free(&t);
        sh_perr(p, line, "unexpected EOF while looking for matching `}'");
      }
      if (d == '{') depth++;
      if (d == '}') {
        if (depth == 0) break;
        depth--;
      }
      sh_buf_addc(&t, (char)d);
    }
    pa->op = SH_POP_NONE;
    pa->name = NULL; /* marks a bad substitution */
    const char *whole = raw_since(p, start_fi, start_s, start_pos, 1);
    pa->text = whole ? whole : sh_arena_strndup(p->arena, sh_buf_str(&t), t.len);
    sh_buf_free(&t);
  }
done:;
  sh_part *part = new_part(p, SH_PART_PARAM);
  part->u.param = pa;
  wb_part(p, b, part);
}

/* An arithmetic expansion, $((...)) (close ')') or $[...] (close ']'), as
 * one SH_PART_ARITH part of the word; the reader is past its opening. */
static void lex_arith_part(sh_parser *p, wbuild *b, int close) {
  int stop;
  sh_part *part = new_part(p, SH_PART_ARITH);
  part->u.arith = lex_arith_text(p, close, false, &stop);
  wb_part(p, b, part);
}

/* $...; the reader is at '$'. */
static void lex_dollar(sh_parser *p, wbuild *b, int ctx) {
  int line = p->line;
  sh_part_kind litkind = ctx == CTX_UNQ ? SH_PART_LIT : SH_PART_QLIT;
  int c = sh_lex_peekn(p, 1);
  if (c == '{') {
    sh_lex_getc(p);
    sh_pdepth_enter(p);
    lex_param_brace(p, b, ctx);
    sh_pdepth_leave(p);
    return;
  }
  if (c == '(') {
    sh_lex_getc(p);
    if (sh_lex_peekn(p, 1) == '(' && arith_ahead(p, 2)) {
      sh_lex_getc(p);
      sh_lex_getc(p);
      lex_arith_part(p, b, ')');
      return;
    }
    sh_lex_getc(p);
    sh_part *part = new_part(p, SH_PART_CMDSUB);
    part->u.cmd.body = sh_parse_cmdsub(p);
    wb_part(p, b, part);
    return;
  }
  if (c == '[') {
    sh_lex_getc(p);
    sh_lex_getc(p);
    lex_arith_part(p, b, ']');
    return;
  }
  if (c == '\'' && ctx == CTX_UNQ) {
    sh_lex_getc(p);
    lex_ansi_c(p, b);
    return;
  }
  if (c == '"' && ctx == CTX_UNQ) {
    sh_lex_getc(p);
    lex_dquote(p, b);
    return;
  }
  if (c >= 0 && (sh_is_name_start(c) || is_special_param(c))) {
    sh_lex_getc(p);
    sh_param *pa = sh_arena_alloc(p->arena, sizeof *pa);
    pa->line = line;
    if (sh_is_name_start(c)) {
      sh_buf name = {0};
      while ((c = sh_lex_peekc(p)) >= 0 && sh_is_name_char(c)) sh_buf_addc(&name, (char)sh_lex_getc(p));
      pa->name = sh_arena_strndup(p->arena, sh_buf_str(&name), name.len);
      sh_buf_free(&name);
    } else {
      char ch = (char)sh_lex_getc(p);
      pa->name = sh_arena_strndup(p->arena, &ch, 1);
    }
    sh_part *part = new_part(p, SH_PART_PARAM);
    part->u.param = pa;
    wb_part(p, b, part);
    return;
  }
  sh_lex_getc(p);
  wb_litc(p, b, litkind, '$');
}

/* ---- words -------------------------------------------------------------------------- */

static bool is_meta(int c) {
  return c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '&' || c == '|' ||
         c == '<' || c == '>' || c == '(' || c == ')';
}

static bool extglob_on(sh_parser *p) { return p->opts.extglob && p->opts.extglob(p->opts.ud); }

/* The subscript of name[...]= and ${name[...]}, after the '[': scans to the
 * matching ']' (consumed); an unclosed one is an error at `line`. */
static sh_word *lex_subscript(sh_parser *p, int line) {
  sh_word *w = new_word(p, p->line, p->col);
  wbuild b = {0};
  int depth = 0;
  for (;;) {
    int c = sh_lex_peekc(p);
    if (c < 0) sh_perr(p, line, "unexpected EOF while looking for matching `]'");
    if (c == ']' && depth == 0) {
      sh_lex_getc(p);
      break;
    }
    if (c == '[') depth++;
    if (c == ']') depth--;
    lex_quoted_text_char(p, &b, c, true);
  }
  word_finish(p, w, &b);
  if (!w->parts) {
    w->parts = new_part(p, SH_PART_QLIT);
    w->parts->u.lit.s = "";
  }
  return w;
}

/* Looks ahead from offset k (at '[') for the matching ']' followed by '=' or
 * '+='. Returns the offset just after the ']' or -1. */
static int subscript_assign_ahead(sh_parser *p, int k) {
  int depth = 0;
  for (la_cur u = la_at(p, k + 1); u.i < 65536; la_next(p, &u)) {
    int c = la_peek(p, &u);
    if (c < 0 || c == '\n') return -1;
    /* after the command word, a blank ends the word as anywhere (bash:
     * `echo a[1 + 2]=x` has three arguments) */
    if (p->lex_arg && (c == ' ' || c == '\t')) return -1;
    if (c == '\\') {
      la_next(p, &u);
      continue;
    }
    if (c == '\'' || c == '"') {
      int q = c;
      for (la_next(p, &u); (c = la_peek(p, &u)) >= 0 && c != q; la_next(p, &u))
        if (c == '\\' && q == '"') la_next(p, &u);
      if (c < 0) return -1;
      continue;
    }
    if (c == '[') depth++;
    if (c == ']') {
      if (depth == 0) {
        int i = u.i;
        la_next(p, &u);
        int d = la_peek(p, &u);
        if (d == '=' || (d == '+' && sh_lex_peekn(p, i + 2) == '=')) return i + 1;
        return -1;
      }
      depth--;
    }
  }
  return -1;
}

static sh_part *lex_array_literal(sh_parser *p);

/* Scans the value part of a word into b until a metacharacter. */
static void lex_word_rest(sh_parser *p, wbuild *b, int flags) {
  int rdepth = 0; /* paren depth inside a =~ regex */
  int xdepth = 0; /* paren depth inside an extglob group */
  for (;;) {
    int c = sh_lex_peekc(p);
    if (c < 0) break;
    if (xdepth > 0) {
      if (c == ')') {
        xdepth--;
        sh_lex_getc(p);
        wb_litc(p, b, SH_PART_LIT, c);
        continue;
      }
      if (c == '(') {
        xdepth++;
        sh_lex_getc(p);
        wb_litc(p, b, SH_PART_LIT, c);
        continue;
      }
      if (c == '|' || c == ' ' || c == '\t' || c == '<' || c == '>' || c == ';' || c == '&') {
        sh_lex_getc(p);
        wb_litc(p, b, SH_PART_LIT, c);
        continue;
      }
      if (c == '\n') sh_perr(p, p->line, "syntax error: unexpected newline in pattern");
    } else if (flags & SH_LW_REGEX) {
      if (c == '(') {
        rdepth++;
        sh_lex_getc(p);
        wb_litc(p, b, SH_PART_LIT, c);
        continue;
      }
      if (c == ')' && rdepth > 0) {
        rdepth--;
        sh_lex_getc(p);
        wb_litc(p, b, SH_PART_LIT, c);
        continue;
      }
      if (c == '|' || ((c == ' ' || c == '\t' || c == '<' || c == '>' || c == ';' || c == '&') && rdepth > 0)) {
        sh_lex_getc(p);
        wb_litc(p, b, SH_PART_LIT, c);
        continue;
      }
      if (is_meta(c)) break;
    } else if (c == '(' && b->has_pend && b->pkind == SH_PART_LIT && b->plen > 0 &&
               strchr("?*+@!", b->pend[b->plen - 1]) &&
               (extglob_on(p) || (flags & SH_LW_PAT))) {
      xdepth = 1;
      sh_lex_getc(p);
      wb_litc(p, b, SH_PART_LIT, c);
      continue;
    } else if (procsub_ahead(p) && !(flags & SH_LW_COND)) {
      lex_procsub(p, b);
      continue;
    } else if (is_meta(c)) {
      break;
    }
    switch (c) {
    case '\\': {
      sh_lex_getc(p);
      int d = raw_getc(p);
      if (d < 0)
        wb_litc(p, b, SH_PART_LIT, '\\');
      else
        wb_litc(p, b, SH_PART_QLIT, d);
      break;
    }
    case '\'':
      lex_squote(p, b);
      break;
    case '"':
      lex_dquote(p, b);
      break;
    case '$':
      lex_dollar(p, b, CTX_UNQ);
      break;
    case '`':
      lex_backquote(p, b, false);
      break;
    default:
      sh_lex_getc(p);
      wb_litc(p, b, SH_PART_LIT, c);
    }
  }
}

static sh_word *lex_word_inner(sh_parser *p, int flags);


/* The source text read since (frame fi, s, pos), or NULL when the reader
 * changed frames (alias text) in between. */
static const char *raw_since(sh_parser *p, int fi, const char *s, size_t pos, size_t trim) {
  if (p->nframes - 1 != fi || p->frames[fi].s != s || p->frames[fi].pos < pos + trim) return NULL;
  return sh_arena_strndup(p->arena, s + pos, p->frames[fi].pos - pos - trim);
}

sh_word *sh_lex_word(sh_parser *p, int flags) {
  int fi = p->nframes - 1;
  const sh_frame *f = &p->frames[fi];
  const char *start_s = f->s;
  size_t start = f->pos;
  sh_word *w = lex_word_inner(p, flags);
  if (p->nframes - 1 == fi && p->frames[fi].s == start_s && p->frames[fi].pos >= start)
    w->raw = sh_arena_strndup(p->arena, start_s + start, p->frames[fi].pos - start);
  return w;
}

static sh_word *lex_word_inner(sh_parser *p, int flags) {
  sh_word *w = new_word(p, p->line, p->col);
  wbuild b = {0};
  int c = sh_lex_peekc(p);
  sh_pdepth_enter(p);
  /* process substitution at the start of a word */
  if (procsub_ahead(p) && !(flags & SH_LW_REGEX)) {
    lex_procsub(p, &b);
    lex_word_rest(p, &b, flags);
    word_finish(p, w, &b);
    sh_pdepth_leave(p);
    return w;
  }
  /* assignment words: name=, name+=, name[sub]=, and [key]= inside (...) */
  if (!(flags & (SH_LW_COND | SH_LW_REGEX))) {
    int i = 0, after = -1;
    bool elem = (flags & 0x100) != 0; /* array element: [key]=value */
    if (elem && c == '[') {
      after = subscript_assign_ahead(p, 0);
    } else if (!elem && c >= 0 && sh_is_name_start(c)) {
      la_cur u = {0, 0};
      while (sh_is_name_char(la_peek(p, &u))) la_next(p, &u);
      i = u.i;
      int d = la_peek(p, &u);
      if (d == '=' || (d == '+' && sh_lex_peekn(p, i + 1) == '='))
        after = i;
      else if (d == '[')
        after = subscript_assign_ahead(p, i);
    }
    if (after >= 0) {
      sh_assign *as = sh_arena_alloc(p->arena, sizeof *as);
      as->line = p->line;
      sh_buf name = {0};
      if (!elem) {
        for (int j = 0; j < i; j++) sh_buf_addc(&name, (char)sh_lex_getc(p));
        as->name = sh_arena_strndup(p->arena, sh_buf_str(&name), name.len);
        wb_lit(p, &b, SH_PART_LIT, name.data, name.len);
        sh_buf_free(&name);
      } else {
        as->name = "";
      }
      if (sh_lex_peekc(p) == '[') {
        sh_lex_getc(p);
        int fi = p->nframes - 1;
        const char *fs = p->frames[fi].s;
        size_t fpos = p->frames[fi].pos;
        as->index = lex_subscript(p, p->line);
        as->index->raw = raw_since(p, fi, fs, fpos, 1);
        wb_lit(p, &b, SH_PART_LIT, "[", 1);
        wb_flush(p, &b);
        for (sh_part *ip = as->index->parts; ip; ip = ip->next) {
          sh_part *cp = new_part(p, ip->kind);
          *cp = *ip;
          cp->next = NULL;
          if (cp->kind == SH_PART_LIT) cp->kind = SH_PART_QLIT;
          wb_append(&b, cp);
        }
        wb_lit(p, &b, SH_PART_LIT, "]", 1);
      }
      if (sh_lex_peekc(p) == '+') {
        sh_lex_getc(p);
        as->append = true;
        wb_lit(p, &b, SH_PART_LIT, "+", 1);
      }
      sh_lex_getc(p); /* '=' */
      wb_lit(p, &b, SH_PART_LIT, "=", 1);
      wb_flush(p, &b);
      sh_part *value_start = b.tail;
      if (sh_lex_peekc(p) == '(' && !elem) {
        int fi = p->nframes - 1;
        const char *fs = p->frames[fi].s;
        size_t fpos = p->frames[fi].pos;
        sh_part *arr = lex_array_literal(p);
        wb_part(p, &b, arr);
        as->value = new_word(p, p->line, p->col);
        as->value->parts = arr;
        as->value->raw = raw_since(p, fi, fs, fpos, 0);
      } else {
        int fi = p->nframes - 1;
        const char *fs = p->frames[fi].s;
        size_t fpos = p->frames[fi].pos;
        lex_word_rest(p, &b, flags);
        wb_flush(p, &b);
        sh_word *v = new_word(p, w->line, w->col);
        v->parts = value_start ? value_start->next : b.head;
        v->raw = raw_since(p, fi, fs, fpos, 0); /* as written, for printing */
        as->value = v;
      }
      word_finish(p, w, &b);
      w->lit = NULL;
      w->assign = as;
      sh_pdepth_leave(p);
      return w;
    }
  }
  lex_word_rest(p, &b, flags);
  word_finish(p, w, &b);
  sh_pdepth_leave(p);
  return w;
}

/* (...) of an array assignment; the reader is at '('. */
static sh_part *lex_array_literal(sh_parser *p) {
  int line = p->line;
  sh_lex_getc(p);
  p->array_depth++;
  sh_part *part = new_part(p, SH_PART_ARRAY);
  size_t cap = 0;
  for (;;) {
    int c = sh_lex_peekc(p);
    if (c == ' ' || c == '\t' || c == '\n') {
      sh_lex_getc(p);
      if (c == '\n') sh_lex_read_heredocs(p);
      continue;
    }
    if (c == '#') {
      while ((c = sh_lex_peekc(p)) >= 0 && c != '\n') raw_getc(p);
      continue;
    }
    if (c < 0) sh_perr(p, line, "unexpected EOF while looking for matching `)'");
    if (c == ')') {
      sh_lex_getc(p);
      break;
    }
    if (is_meta(c) && !((c == '<' || c == '>') && sh_lex_peekn(p, 1) == '('))
      sh_perr(p, p->line, "syntax error near unexpected token `%c'", c);
    sh_word *ew = sh_lex_word(p, 0x100);
    part->u.array.elems = sh_arena_grow(p->arena, part->u.array.elems, part->u.array.n, &cap, 8,
                                        sizeof *part->u.array.elems);
    sh_array_elem *e = &part->u.array.elems[part->u.array.n++];
    sh_assign *as = ew->assign;
    if (as) {
      e->key = as->index;
      e->append = as->append;
      e->value = as->value;
      e->whole = ew;
    } else {
      e->value = ew;
    }
  }
  p->array_depth--;
  return part;
}

/* ---- here-documents -------------------------------------------------------------------- */

/* The delimiter text of a here-document word and whether any of it was quoted. */
static const char *heredoc_delim(sh_parser *p, sh_word *w, bool *quoted) {
  sh_buf b = {0};
  *quoted = false;
  for (sh_part *pt = w->parts; pt; pt = pt->next) {
    switch (pt->kind) {
    case SH_PART_LIT:
      sh_buf_add(&b, pt->u.lit.s, pt->u.lit.n);
      break;
    case SH_PART_QLIT:
      *quoted = true;
      sh_buf_add(&b, pt->u.lit.s, pt->u.lit.n);
      break;
    case SH_PART_DQUOTE:
      *quoted = true;
      for (sh_part *c = pt->u.children; c; c = c->next) {
        if (c->kind == SH_PART_QLIT) sh_buf_add(&b, c->u.lit.s, c->u.lit.n);
        else if (c->kind == SH_PART_PARAM && c->u.param->name) {
          sh_buf_addc(&b, '$');
          sh_buf_adds(&b, c->u.param->name);
        }
      }
      break;
    case SH_PART_PARAM:
      if (pt->u.param->name) {
        sh_buf_addc(&b, '$');
        if (pt->u.param->brace) sh_buf_addc(&b, '{');
        sh_buf_adds(&b, pt->u.param->name);
        if (pt->u.param->brace) sh_buf_addc(&b, '}');
      }
      break;
    default:
      /* $(...) and the like: the delimiter is the text as written */
      if (w->raw) {
        sh_buf_free(&b);
        return w->raw;
      }
      break;
    }
  }
  const char *r = sh_arena_strndup(p->arena, sh_buf_str(&b), b.len);
  sh_buf_free(&b);
  return r;
}

void sh_lex_register_heredoc(sh_parser *p, sh_redir *r);
void sh_lex_register_heredoc(sh_parser *p, sh_redir *r) {
  if (p->npending >= SH_HEREDOC_MAX)
    sh_perr(p, r->line, "too many here-documents on one line (limit %d)", SH_HEREDOC_MAX);
  p->pending[p->npending++] = r;
}

void sh_lex_read_heredocs(sh_parser *p) {
  for (int i = 0; i < p->npending; i++) {
    sh_redir *r = p->pending[i];
    bool quoted;
    const char *delim = heredoc_delim(p, r->target, &quoted);
    r->heredoc_quoted = quoted;
    size_t dlen = strlen(delim);
    sh_buf body = {0};
    sh_buf line = {0};
    int start_line = p->line;
    bool found = false;
    for (;;) {
      sh_buf_clear(&line);
      int c;
      bool any = false;
      while ((c = raw_getc(p)) >= 0 && c != '\n') {
        any = true;
        sh_buf_addc(&line, (char)c);
      }
      const char *l = sh_buf_str(&line);
      size_t ln = line.len;
      if (r->heredoc_strip)
        while (ln > 0 && *l == '\t') {
          l++;
          ln--;
        }
      if (ln == dlen && memcmp(l, delim, dlen) == 0) {
        found = true;
        break;
      }
      if (c < 0 && !any) break;
      sh_buf_add(&body, l, ln);
      if (c < 0) break;
      sh_buf_addc(&body, '\n');
    }
    if (!found && p->opts.warn) {
      char *m = sh_xasprintf("warning: here-document at line %d delimited by end-of-file (wanted `%s')",
                             r->line, delim);
      /* bash names the last line read, not the one after its newline */
      const sh_frame *f0 = &p->frames[0];
      int at = p->line - (p->nframes == 1 && f0->len > 0 && f0->s[f0->len - 1] == '\n' && p->line > 1);
      p->opts.warn(p->opts.ud, at, m);
      free(m);
    }
    char *text = sh_arena_strndup(p->arena, sh_buf_str(&body), body.len);
    size_t tlen = body.len;
    sh_buf_free(&body);
    sh_buf_free(&line);
    sh_word *w = new_word(p, start_line, 1);
    w->raw = text; /* the body as written (after <<- tab stripping), for printing */
    if (quoted) {
      w->parts = new_part(p, SH_PART_QLIT);
      w->parts->u.lit.s = text;
      w->parts->u.lit.n = tlen;
    } else {
      /* parse the body like a double-quoted string with a sub-parser */
      extern sh_part *sh_parse_heredoc_body(sh_parser *p, const char *s, size_t n, int line);
      w->parts = sh_parse_heredoc_body(p, text, tlen, start_line);
      if (!w->parts) {
        w->parts = new_part(p, SH_PART_QLIT);
        w->parts->u.lit.s = "";
      }
    }
    r->heredoc = w;
  }
  p->npending = 0;
}

/* Called by parse.c on a sub-parser over a here-document body. */
sh_part *sh_lex_dq_all(sh_parser *p, bool heredoc);
sh_part *sh_lex_dq_all(sh_parser *p, bool heredoc) {
  return lex_dq_body(p, heredoc ? CTX_HEREDOC : CTX_HEREDOC, p->line, false);
}

/* ---- tokens ------------------------------------------------------------------------------ */

/* Consumes the operator `text` at the reader and makes t that token. */
static void take_op(sh_parser *p, sh_tok *t, sh_tok_kind kind, const char *text) {
  for (const char *s = text; *s; s++) sh_lex_getc(p);
  t->kind = kind;
  t->text = text;
}

static void take_redir(sh_parser *p, sh_tok *t, sh_redir_op op, const char *text) {
  take_op(p, t, T_REDIR, text);
  t->rop = op;
}

/* Reads a redirection operator at the reader into t. */
static bool lex_redir_op(sh_parser *p, sh_tok *t) {
  int c = sh_lex_peekc(p), d = sh_lex_peekn(p, 1), e = sh_lex_peekn(p, 2);
  if (c == '<') {
    if (d == '<' && e == '<') {
      take_redir(p, t, SH_R_HERESTR, "<<<");
    } else if (d == '<' && e == '-') {
      take_redir(p, t, SH_R_HEREDOC, "<<-");
      t->strip = true;
    } else if (d == '<') {
      take_redir(p, t, SH_R_HEREDOC, "<<");
    } else if (d == '&') {
      take_redir(p, t, SH_R_DUPIN, "<&");
    } else if (d == '>') {
      take_redir(p, t, SH_R_RDWR, "<>");
    } else {
      take_redir(p, t, SH_R_IN, "<");
    }
    return true;
  }
  if (c == '>') {
    if (d == '>') take_redir(p, t, SH_R_APPEND, ">>");
    else if (d == '&') take_redir(p, t, SH_R_DUPOUT, ">&");
    else if (d == '|') take_redir(p, t, SH_R_CLOBBER, ">|");
    else take_redir(p, t, SH_R_OUT, ">");
    return true;
  }
  return false;
}

static void lex_token(sh_parser *p, sh_tok *t) {
  memset(t, 0, sizeof *t);
  t->rfd = -1;
  sh_lex_skip_blanks(p);
  t->line = p->line;
  t->col = p->col;
  int c = sh_lex_peekc(p);
  int d = sh_lex_peekn(p, 1);
  switch (c) {
  case -1:
    t->kind = T_EOF;
    t->text = "end of file";
    if (p->npending) sh_lex_read_heredocs(p);
    return;
  case '\n':
    sh_lex_getc(p);
    t->kind = T_NEWLINE;
    t->text = "newline";
    sh_lex_read_heredocs(p);
    return;
  case '&':
    if (d == '&') take_op(p, t, T_AND_IF, "&&");
    else if (d == '>' && sh_lex_peekn(p, 2) == '>') take_redir(p, t, SH_R_APPENDERR, "&>>");
    else if (d == '>') take_redir(p, t, SH_R_OUTERR, "&>");
    else take_op(p, t, T_AMP, "&");
    return;
  case '|':
    if (d == '|') take_op(p, t, T_OR_IF, "||");
    else if (d == '&') take_op(p, t, T_PIPE_AND, "|&");
    else take_op(p, t, T_PIPE, "|");
    return;
  case ';':
    if (d == ';' && sh_lex_peekn(p, 2) == '&') take_op(p, t, T_DSEMI_AND, ";;&");
    else if (d == ';') take_op(p, t, T_DSEMI, ";;");
    else if (d == '&') take_op(p, t, T_SEMI_AND, ";&");
    else take_op(p, t, T_SEMI, ";");
    return;
  case '(': take_op(p, t, T_LPAREN, "("); return;
  case ')': take_op(p, t, T_RPAREN, ")"); return;
  case '<':
  case '>':
    if (d == '(') break; /* process substitution: a word */
    lex_redir_op(p, t);
    return;
  default:
    break;
  }
  /* N> and {name}> */
  if (c >= '0' && c <= '9') {
    la_cur u = {0, 0};
    while (la_peek(p, &u) >= '0' && la_peek(p, &u) <= '9' && u.i < 10) la_next(p, &u);
    int i = u.i, e = la_peek(p, &u);
    if ((e == '<' || e == '>') && sh_lex_peekn(p, i + 1) != '(' && i < 10) {
      int fd = 0;
      for (int j = 0; j < i; j++) fd = fd * 10 + (sh_lex_getc(p) - '0');
      lex_redir_op(p, t);
      t->rfd = fd;
      return;
    }
  } else if (c == '{' && sh_is_name_start(d)) {
    la_cur u = la_at(p, 1);
    while (sh_is_name_char(la_peek(p, &u))) la_next(p, &u);
    int i = u.i;
    if (la_peek(p, &u) == '}') {
      int e = sh_lex_peekn(p, i + 1);
      if ((e == '<' || e == '>') && sh_lex_peekn(p, i + 2) != '(') {
        sh_buf name = {0};
        sh_lex_getc(p);
        for (int j = 1; j < i; j++) sh_buf_addc(&name, (char)sh_lex_getc(p));
        sh_lex_getc(p);
        const char *nm = sh_arena_strndup(p->arena, name.data, name.len);
        sh_buf_free(&name);
        lex_redir_op(p, t);
        t->rfdvar = nm;
        return;
      }
    }
  }
  t->kind = T_WORD;
  t->word = sh_lex_word(p, 0);
  t->text = t->word->lit ? t->word->lit : "word";
}

sh_tok *sh_lex_peek(sh_parser *p) {
  if (!p->have_tok) {
    sh_tok t;
    for (int guard = 0;; guard++) {
      p->alias_blank_popped = false;
      lex_token(p, &t);
      t.after_alias_blank = p->alias_blank_popped;
      p->alias_blank_popped = false;
      /* a word after an alias whose value ends in a blank is checked for
       * an alias too, wherever it is (bash does this in its lexer) */
      if (t.kind != T_WORD || !t.after_alias_blank || !t.word->lit || !p->opts.alias ||
          guard >= SH_ALIAS_DEPTH_MAX)
        break;
      const char *val = p->opts.alias(p->opts.ud, t.word->lit);
      if (!val || sh_lex_alias_active(p, t.word->lit)) break;
      sh_lex_push_alias(p, t.word->lit, val);
    }
    p->tok = t;
    p->have_tok = true;
  }
  return &p->tok;
}

void sh_lex_consume(sh_parser *p) { p->have_tok = false; }

/* The whole input as one word with unquoted-word quoting rules but blanks
 * kept literal (subscripts given as text: unset 'a["k"]', namerefs). */
sh_word *sh_lex_word_all(sh_parser *p);
sh_word *sh_lex_word_all(sh_parser *p) { return lex_param_word(p, CTX_UNQ, NULL, false); }
