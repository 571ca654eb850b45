/*
 * parse.c - the shell grammar: a recursive-descent parser over the tokens of
 * lex.c, producing the tree of ast.h.
 *
 *   program      := linebreak (complete_cmd newline_list)* complete_cmd?
 *   complete_cmd := and_or ((';' | '&') and_or)* [';' | '&']
 *   and_or       := pipeline (('&&' | '||') linebreak pipeline)*
 *   pipeline     := ['time' ['-p']] ['!'] command (('|' | '|&') linebreak command)*
 *   command      := simple | compound redirect* | funcdef
 *   compound     := { list } | ( list ) | if | while | until | for | select
 *                 | case | (( arith )) | [[ cond ]]
 *
 * Reserved words are recognized only where a command may start; aliases are
 * expanded there too, before the reserved-word check, as bash does. The first
 * syntax error is kept with its line ("syntax error near unexpected token
 * `fi'") and the parse stops.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sh/parse_int.h"

sh_word *sh_lex_arith(sh_parser *p, bool semi, int *stop);
bool sh_lex_arith_ahead(sh_parser *p, int k);
void sh_lex_register_heredoc(sh_parser *p, sh_redir *r);
sh_part *sh_lex_dq_all(sh_parser *p, bool heredoc);

static sh_node *parse_list(sh_parser *p);
static sh_node *parse_command(sh_parser *p);
static sh_node *parse_and_or(sh_parser *p);

/* ---- helpers ---------------------------------------------------------------------- */

static void *node_new(sh_parser *p, size_t size, sh_node_kind kind, int line, int col) {
  sh_node *n = sh_arena_alloc(p->arena, size);
  n->kind = kind;
  n->line = line;
  n->col = col;
  return n;
}

static _Noreturn void unexpected(sh_parser *p, sh_tok *t) {
  if (t->kind == T_EOF) {
    /* bash counts the end of text without a final newline as the next line */
    const sh_frame *f = &p->frames[0];
    int line = t->line + (p->nframes == 1 && f->len > 0 && f->s[f->len - 1] != '\n');
    sh_perr(p, line, "syntax error: unexpected end of file");
  }
  sh_perr(p, t->line, "syntax error near unexpected token `%s'", t->text ? t->text : "?");
}

static bool tok_is(sh_parser *p, const char *word) {
  sh_tok *t = sh_lex_peek(p);
  return t->kind == T_WORD && t->word->lit && strcmp(t->word->lit, word) == 0;
}

static void expect_word(sh_parser *p, const char *word) {
  if (!tok_is(p, word)) unexpected(p, sh_lex_peek(p));
  sh_lex_consume(p);
}

static void skip_newlines(sh_parser *p) {
  while (sh_lex_peek(p)->kind == T_NEWLINE) sh_lex_consume(p);
}

/* A growable array of pointers in the arena. */
typedef struct pvec {
  void **v;
  size_t n, cap;
} pvec;

static void pvec_push(sh_parser *p, pvec *pv, void *x) {
  if (pv->n == pv->cap) {
    size_t cap = pv->cap ? pv->cap * 2 : 4;
    void **nv = sh_arena_alloc(p->arena, cap * sizeof *nv);
    if (pv->n) memcpy(nv, pv->v, pv->n * sizeof *nv);
    pv->v = nv;
    pv->cap = cap;
  }
  pv->v[pv->n++] = x;
}

static const char *const reserved_words[] = {
    "if", "then", "else", "elif", "fi", "do", "done", "case", "esac", "while", "until",
    "for", "in", "select", "function", "time", "{", "}", "!", "[[", "]]", NULL};

static bool is_reserved(const char *s) {
  for (int i = 0; reserved_words[i]; i++)
    if (strcmp(s, reserved_words[i]) == 0) return true;
  return false;
}

/* Words that end a compound list. */
static bool at_list_end(sh_parser *p) {
  sh_tok *t = sh_lex_peek(p);
  switch (t->kind) {
  case T_EOF: case T_RPAREN: case T_DSEMI: case T_SEMI_AND: case T_DSEMI_AND:
    return true;
  case T_WORD:
    if (!t->word->lit) return false;
    {
      static const char *const ends[] = {"then", "else", "elif", "fi", "do", "done", "esac", "}", NULL};
      for (int i = 0; ends[i]; i++)
        if (strcmp(t->word->lit, ends[i]) == 0) return true;
    }
    return false;
  default:
    return false;
  }
}

/* Expands aliases on the command word in the lookahead token. */
static void expand_alias(sh_parser *p) {
  for (int guard = 0; guard < SH_ALIAS_DEPTH_MAX; guard++) {
    sh_tok *t = sh_lex_peek(p);
    if (t->kind != T_WORD || !t->word->lit || !p->opts.alias) return;
    const char *name = t->word->lit;
    if (sh_lex_alias_active(p, name)) return;
    const char *val = p->opts.alias(p->opts.ud, name);
    if (!val) return;
    sh_lex_consume(p);
    sh_lex_push_alias(p, name, val);
    size_t n = strlen(val);
    p->alias_next = n > 0 && (val[n - 1] == ' ' || val[n - 1] == '\t');
  }
}

/* ---- redirections ------------------------------------------------------------------- */

static sh_redir *parse_redir(sh_parser *p) {
  sh_tok *t = sh_lex_peek(p);
  sh_redir *r = sh_arena_alloc(p->arena, sizeof *r);
  r->op = t->rop;
  r->fd = t->rfd;
  r->fdvar = t->rfdvar;
  r->line = t->line;
  r->heredoc_strip = t->strip;
  sh_lex_consume(p);
  t = sh_lex_peek(p);
  if (t->kind != T_WORD) unexpected(p, t);
  r->target = t->word;
  if (r->op == SH_R_HEREDOC) sh_lex_register_heredoc(p, r);
  sh_lex_consume(p);
  return r;
}

static sh_redir *parse_redirs_after(sh_parser *p) {
  sh_redir *head = NULL, **tail = &head;
  while (sh_lex_peek(p)->kind == T_REDIR) {
    *tail = parse_redir(p);
    tail = &(*tail)->next;
  }
  return head;
}

/* ---- [[ ]] ----------------------------------------------------------------------------- */

/* The tokens inside [[ ]] are read straight from characters. */
typedef enum { CT_WORD, CT_AND, CT_OR, CT_NOT, CT_LP, CT_RP, CT_END, CT_LT, CT_GT } cond_tok;

typedef struct cond_state {
  cond_tok kind;
  sh_word *word;
  int line;
  bool have;
} cond_state;

static void cond_skip(sh_parser *p) {
  for (;;) {
    sh_lex_skip_blanks(p);
    if (sh_lex_peekc(p) == '\n') {
      sh_lex_getc(p);
      sh_lex_read_heredocs(p);
      continue;
    }
    return;
  }
}

static cond_tok cond_peek(sh_parser *p, cond_state *cs, int wflags) {
  if (cs->have) return cs->kind;
  cond_skip(p);
  cs->have = true;
  cs->line = p->line;
  cs->word = NULL;
  int c = sh_lex_peekc(p), d = sh_lex_peekn(p, 1);
  if (c < 0) sh_perr(p, p->line, "syntax error: unexpected end of file in [[");
  if (c == '&' && d == '&') {
    sh_lex_getc(p);
    sh_lex_getc(p);
    return cs->kind = CT_AND;
  }
  if (c == '|' && d == '|' && !(wflags & SH_LW_REGEX)) {
    sh_lex_getc(p);
    sh_lex_getc(p);
    return cs->kind = CT_OR;
  }
  if (c == '(' && !(wflags & SH_LW_REGEX)) {
    sh_lex_getc(p);
    return cs->kind = CT_LP;
  }
  if (c == ')' && !(wflags & SH_LW_REGEX)) {
    sh_lex_getc(p);
    return cs->kind = CT_RP;
  }
  if (c == '<' && d != '(' && !(wflags & SH_LW_REGEX)) {
    sh_lex_getc(p);
    return cs->kind = CT_LT;
  }
  if (c == '>' && d != '(' && !(wflags & SH_LW_REGEX)) {
    sh_lex_getc(p);
    return cs->kind = CT_GT;
  }
  if (c == ';' || c == '&' || (c == '|' && !(wflags & SH_LW_REGEX)) || (c == ')' && (wflags & SH_LW_REGEX)))
    sh_perr(p, p->line, "syntax error in conditional expression: unexpected token `%c'", c);
  cs->word = sh_lex_word(p, SH_LW_COND | wflags);
  if (cs->word->lit && strcmp(cs->word->lit, "]]") == 0) return cs->kind = CT_END;
  if (cs->word->lit && strcmp(cs->word->lit, "!") == 0) return cs->kind = CT_NOT;
  return cs->kind = CT_WORD;
}

static void cond_next(cond_state *cs) { cs->have = false; }

static sh_cond_expr *cond_or(sh_parser *p, cond_state *cs);

static bool cond_unary_op(const char *s) {
  return s && s[0] == '-' && s[1] && !s[2] && strchr("abcdefghkprstuwxGLNOSznovR", s[1]);
}

static const char *cond_binary_op(sh_word *w, cond_tok k) {
  if (k == CT_LT) return "<";
  if (k == CT_GT) return ">";
  if (k != CT_WORD || !w->lit) return NULL;
  static const char *const ops[] = {"==", "=", "!=", "=~", "-eq", "-ne", "-lt", "-le", "-gt",
                                    "-ge", "-nt", "-ot", "-ef", NULL};
  for (int i = 0; ops[i]; i++)
    if (strcmp(w->lit, ops[i]) == 0) return ops[i];
  return NULL;
}

static sh_cond_expr *cond_new(sh_parser *p, sh_cond_kind k) {
  sh_cond_expr *e = sh_arena_alloc(p->arena, sizeof *e);
  e->kind = k;
  return e;
}

static sh_cond_expr *cond_primary(sh_parser *p, cond_state *cs) {
  sh_pdepth_enter(p);
  cond_tok k = cond_peek(p, cs, 0);
  sh_cond_expr *e;
  if (k == CT_NOT) {
    cond_next(cs);
    e = cond_new(p, SH_C_NOT);
    e->left = cond_primary(p, cs);
  } else if (k == CT_LP) {
    cond_next(cs);
    e = cond_or(p, cs);
    if (cond_peek(p, cs, 0) != CT_RP)
      sh_perr(p, cs->line, "syntax error in conditional expression: expected `)'");
    cond_next(cs);
  } else if (k == CT_WORD) {
    sh_word *w = cs->word;
    cond_next(cs);
    if (cond_unary_op(w->lit)) {
      /* bash: a unary operator takes the next word whatever it is (`-n ==`
       * tests the string "=="); any other token is an error */
      cond_tok k2 = cond_peek(p, cs, 0);
      if (k2 != CT_WORD && k2 != CT_NOT) {
        static const char *const names[] = {[CT_END] = "]]", [CT_LP] = "(", [CT_RP] = ")",
                                            [CT_LT] = "<", [CT_GT] = ">", [CT_AND] = "&&",
                                            [CT_OR] = "||"};
        const char *t = (size_t)k2 < sizeof names / sizeof *names && names[k2] ? names[k2] : "newline";
        sh_perr(p, cs->line, "unexpected argument `%s' to conditional unary operator", t);
      }
      e = cond_new(p, SH_C_UNARY);
      e->op = w->lit;
      e->w1 = cs->word;
      cond_next(cs);
      sh_pdepth_leave(p);
      return e;
    }
    cond_tok k2 = cond_peek(p, cs, 0);
    const char *bop = cond_binary_op(cs->word, k2);
    if (bop) {
      cond_next(cs);
      e = cond_new(p, SH_C_BINARY);
      e->op = bop;
      e->w1 = w;
      bool regex = strcmp(bop, "=~") == 0;
      /* bash parses the pattern of == = != with extglob on; other words of
       * [[ ]] follow the option (`!(x)` is then `!` and a group) */
      bool pat = !strcmp(bop, "==") || !strcmp(bop, "=") || !strcmp(bop, "!=");
      cond_tok k3 = cond_peek(p, cs, regex ? SH_LW_REGEX : pat ? SH_LW_PAT : 0);
      if (k3 == CT_END && !regex)
        sh_perr(p, cs->line, "unexpected argument `]]' to conditional binary operator");
      if (k3 != CT_WORD && k3 != CT_NOT && !(regex && k3 == CT_END))
        sh_perr(p, cs->line, "syntax error in conditional expression: unexpected argument");
      e->w2 = cs->word;
      cond_next(cs);
    } else {
      e = cond_new(p, SH_C_WORD);
      e->w1 = w;
    }
  } else {
    if (k == CT_END) sh_perr(p, cs->line, "syntax error in conditional expression: unexpected token `]]'");
    sh_perr(p, cs->line, "syntax error in conditional expression");
  }
  sh_pdepth_leave(p);
  return e;
}

/* One precedence level of [[ ]]'s binary operators: OPERAND (TOKEN OPERAND)...
 * joined left to right into nodes of KIND. cond_and chains primaries with &&,
 * cond_or chains cond_and's results with || (&& binds tighter). */
static sh_cond_expr *cond_chain(sh_parser *p, cond_state *cs, cond_tok token, sh_cond_kind kind,
                                sh_cond_expr *(*operand)(sh_parser *, cond_state *)) {
  sh_cond_expr *e = operand(p, cs);
  while (cond_peek(p, cs, 0) == token) {
    cond_next(cs);
    sh_cond_expr *joined = cond_new(p, kind);
    joined->left = e;
    joined->right = operand(p, cs);
    e = joined;
  }
  return e;
}

static sh_cond_expr *cond_and(sh_parser *p, cond_state *cs) {
  return cond_chain(p, cs, CT_AND, SH_C_AND, cond_primary);
}

static sh_cond_expr *cond_or(sh_parser *p, cond_state *cs) {
  sh_pdepth_enter(p);
  sh_cond_expr *e = cond_chain(p, cs, CT_OR, SH_C_OR, cond_and);
  sh_pdepth_leave(p);
  return e;
}

static sh_node *parse_cond(sh_parser *p, int line, int col) {
  /* the [[ token was consumed; nothing is buffered */
  sh_cond *n = node_new(p, sizeof *n, SH_N_COND, line, col);
  cond_state cs = {0};
  if (cond_peek(p, &cs, 0) == CT_END) sh_perr(p, cs.line, "syntax error near `]]'");
  n->expr = cond_or(p, &cs);
  cond_tok k = cond_peek(p, &cs, 0);
  if (k != CT_END) {
    /* bash: [[ a b ]] wants an operator; other leftovers are a plain error */
    if (k == CT_WORD && n->expr->kind == SH_C_WORD)
      sh_perr(p, cs.line, "conditional binary operator expected");
    sh_perr(p, cs.line, "syntax error in conditional expression");
  }
  return &n->base;
}

/* ---- compound commands ------------------------------------------------------------------ */

static sh_node *parse_group(sh_parser *p, int line, int col) {
  sh_block *n = node_new(p, sizeof *n, SH_N_GROUP, line, col);
  n->body = parse_list(p);
  expect_word(p, "}");
  return &n->base;
}

static sh_node *parse_subshell(sh_parser *p, int line, int col) {
  sh_block *n = node_new(p, sizeof *n, SH_N_SUBSHELL, line, col);
  n->body = parse_list(p);
  sh_tok *t = sh_lex_peek(p);
  if (t->kind != T_RPAREN) unexpected(p, t);
  sh_lex_consume(p);
  return &n->base;
}

static sh_node *parse_if(sh_parser *p, int line, int col) {
  sh_if *n = node_new(p, sizeof *n, SH_N_IF, line, col);
  n->cond = parse_list(p);
  expect_word(p, "then");
  n->then_part = parse_list(p);
  if (tok_is(p, "elif")) {
    sh_tok *t = sh_lex_peek(p);
    int l = t->line, c = t->col;
    sh_lex_consume(p);
    n->else_part = parse_if(p, l, c);
    return &n->base; /* the nested if consumed the fi */
  }
  if (tok_is(p, "else")) {
    sh_lex_consume(p);
    n->else_part = parse_list(p);
  }
  expect_word(p, "fi");
  return &n->base;
}

static sh_node *parse_do_group(sh_parser *p) {
  skip_newlines(p);
  if (tok_is(p, "{")) {
    sh_tok *t = sh_lex_peek(p);
    int l = t->line, c = t->col;
    sh_lex_consume(p);
    return parse_group(p, l, c);
  }
  expect_word(p, "do");
  sh_node *body = parse_list(p);
  expect_word(p, "done");
  return body;
}

static sh_node *parse_loop(sh_parser *p, bool until, int line, int col) {
  sh_loop *n = node_new(p, sizeof *n, SH_N_LOOP, line, col);
  n->until = until;
  n->cond = parse_list(p);
  expect_word(p, "do");
  n->body = parse_list(p);
  expect_word(p, "done");
  return &n->base;
}

/* A word written name=(...) is an array literal, which only an assignment
 * or a declaration builtin's argument may hold; elsewhere (a for list, the
 * word of case) bash reports the `(` as a syntax error. */
static bool word_is_array_literal(const sh_word *w) {
  return w->assign && w->assign->value && w->assign->value->parts &&
         w->assign->value->parts->kind == SH_PART_ARRAY;
}

static sh_node *parse_for(sh_parser *p, bool select, int line, int col) {
  /* for (( init; cond; step )) */
  if (!select) {
    sh_lex_skip_blanks(p);
    if (!p->have_tok && sh_lex_peekc(p) == '(' && sh_lex_peekn(p, 1) == '(') {
      sh_lex_getc(p);
      sh_lex_getc(p);
      sh_cfor *n = node_new(p, sizeof *n, SH_N_CFOR, line, col);
      int stop;
      sh_word *parts[3] = {0};
      for (int i = 0; i < 3; i++) {
        parts[i] = sh_lex_arith(p, i < 2, &stop);
        if (stop == ')' && i < 2) sh_perr(p, p->line, "syntax error: arithmetic expression required");
      }
      n->init = parts[0];
      n->cond = parts[1];
      n->step = parts[2];
      sh_tok *t = sh_lex_peek(p);
      if (t->kind == T_SEMI) sh_lex_consume(p);
      n->body = parse_do_group(p);
      return &n->base;
    }
  }
  sh_for *n = node_new(p, sizeof *n, SH_N_FOR, line, col);
  n->select = select;
  sh_tok *t = sh_lex_peek(p);
  if (t->kind != T_WORD) unexpected(p, t);
  /* an invalid name is a runtime error in bash (the loop does not run) */
  n->name = t->word->lit ? t->word->lit : t->word->raw ? t->word->raw : "?";
  sh_lex_consume(p);
  skip_newlines(p);
  if (tok_is(p, "in")) {
    sh_lex_consume(p);
    n->has_in = true;
    pvec words = {0};
    for (;;) {
      t = sh_lex_peek(p);
      if (t->kind != T_WORD) break;
      if (word_is_array_literal(t->word)) sh_perr(p, t->line, "syntax error near unexpected token `('");
      pvec_push(p, &words, t->word);
      sh_lex_consume(p);
    }
    if (t->kind != T_SEMI && t->kind != T_NEWLINE) unexpected(p, t);
    sh_lex_consume(p);
    n->words = (sh_word **)words.v;
    n->nwords = words.n;
  } else {
    t = sh_lex_peek(p);
    if (t->kind == T_SEMI) sh_lex_consume(p);
  }
  n->body = parse_do_group(p);
  return &n->base;
}

static sh_node *parse_case(sh_parser *p, int line, int col) {
  sh_case *n = node_new(p, sizeof *n, SH_N_CASE, line, col);
  sh_tok *t = sh_lex_peek(p);
  if (t->kind != T_WORD) unexpected(p, t);
  if (word_is_array_literal(t->word)) sh_perr(p, t->line, "syntax error near unexpected token `('");
  n->word = t->word;
  sh_lex_consume(p);
  skip_newlines(p);
  expect_word(p, "in");
  size_t cap = 0;
  for (;;) {
    skip_newlines(p);
    if (tok_is(p, "esac")) {
      sh_lex_consume(p);
      break;
    }
    t = sh_lex_peek(p);
    if (t->kind == T_LPAREN) {
      sh_lex_consume(p);
      t = sh_lex_peek(p);
    }
    pvec pats = {0};
    for (;;) {
      t = sh_lex_peek(p);
      if (t->kind != T_WORD) unexpected(p, t);
      pvec_push(p, &pats, t->word);
      sh_lex_consume(p);
      t = sh_lex_peek(p);
      if (t->kind == T_PIPE) {
        sh_lex_consume(p);
        continue;
      }
      if (t->kind == T_RPAREN) {
        sh_lex_consume(p);
        break;
      }
      unexpected(p, t);
    }
    n->items = sh_arena_grow(p->arena, n->items, n->n, &cap, 4, sizeof *n->items);
    sh_case_item *it = &n->items[n->n++];
    it->patterns = (sh_word **)pats.v;
    it->npatterns = pats.n;
    skip_newlines(p);
    if (!at_list_end(p)) it->body = parse_list(p);
    t = sh_lex_peek(p);
    if (t->kind == T_DSEMI) {
      it->term = SH_CASE_BREAK;
      sh_lex_consume(p);
    } else if (t->kind == T_SEMI_AND) {
      it->term = SH_CASE_FALL;
      sh_lex_consume(p);
    } else if (t->kind == T_DSEMI_AND) {
      it->term = SH_CASE_TEST;
      sh_lex_consume(p);
    } else if (tok_is(p, "esac")) {
      sh_lex_consume(p);
      break;
    } else {
      unexpected(p, t);
    }
  }
  return &n->base;
}

static sh_node *parse_funcdef_body(sh_parser *p, const char *name, int line, int col) {
  skip_newlines(p);
  sh_funcdef *f = node_new(p, sizeof *f, SH_N_FUNCDEF, line, col);
  f->name = name;
  /* a copy: the function outlives the source/eval call whose name it keeps */
  f->source = p->opts.name ? sh_arena_strdup(p->arena, p->opts.name) : NULL;
  f->source_is_file = p->opts.name_is_file;
  sh_node *body = parse_command(p);
  if (!body) unexpected(p, sh_lex_peek(p));
  switch (body->kind) {
  case SH_N_GROUP: case SH_N_SUBSHELL: case SH_N_IF: case SH_N_LOOP: case SH_N_FOR:
  case SH_N_CFOR: case SH_N_CASE: case SH_N_ARITH: case SH_N_COND:
    break;
  default:
    sh_perr(p, line, "syntax error: function body must be a compound command");
  }
  f->body = body;
  return &f->base;
}

/* ---- simple commands and commands ------------------------------------------------------------ */

/* The command word of a declaration builtin, which takes a=(...) arguments
 * (bash also lets eval and let take them, as text: `let x=( 1 + 2 )`). */
static bool is_decl_word(const void *word) {
  const sh_word *w = word;
  static const char *const names[] = {"alias", "declare", "eval", "export", "let", "local", "readonly", "typeset"};
  if (!w->lit) return false;
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (!strcmp(w->lit, names[i])) return true;
  return false;
}

static sh_node *parse_simple(sh_parser *p) {
  sh_tok *t = sh_lex_peek(p);
  sh_simple *n = node_new(p, sizeof *n, SH_N_SIMPLE, t->line, t->col);
  pvec words = {0};
  sh_assign *ahead = NULL, **atail = &ahead;
  sh_redir *rhead = NULL, **rtail = &rhead;
  for (;;) {
    p->lex_arg = words.n > 0;
    t = sh_lex_peek(p);
    if (t->kind == T_REDIR) {
      *rtail = parse_redir(p);
      rtail = &(*rtail)->next;
      continue;
    }
    if (t->kind != T_WORD) break;
    if (words.n == 0 && t->word->assign) {
      *atail = t->word->assign;
      atail = &(*atail)->next;
      sh_lex_consume(p);
      continue;
    }
    if (words.n == 0 && ahead == NULL && rhead == NULL) {
      /* command position: aliases were expanded by the caller */
    } else if (words.n == 0) {
      /* after assignments or redirections the command word may be an alias */
      expand_alias(p);
      t = sh_lex_peek(p);
      if (t->kind != T_WORD) continue;
      if (t->word->assign) continue;
    }
    if (words.n > 0 && word_is_array_literal(t->word) && !is_decl_word(words.v[0]))
      /* a=(...) is an argument only of a declaration builtin named as the
       * command (echo a=(1), builtin declare a=(1): bash's syntax error) */
      sh_perr(p, t->line, "syntax error near unexpected token `('");
    pvec_push(p, &words, t->word);
    sh_lex_consume(p);
    p->lex_arg = true;
    if (words.n == 1 && sh_lex_peek(p)->kind == T_LPAREN && !ahead && !rhead) {
      /* name () compound-command */
      sh_word *w = (sh_word *)words.v[0];
      sh_lex_consume(p);
      t = sh_lex_peek(p);
      if (t->kind != T_RPAREN) unexpected(p, t);
      sh_lex_consume(p);
      /* a name with expansions or quotes is a runtime error in bash */
      const char *name = w->lit ? w->lit : w->raw ? w->raw : "?";
      p->lex_arg = false;
      return parse_funcdef_body(p, name, n->base.line, n->base.col);
    }
  }
  p->lex_arg = false;
  if (words.n == 0 && !ahead && !rhead) unexpected(p, t);
  n->words = (sh_word **)words.v;
  n->nwords = words.n;
  n->assigns = ahead;
  n->base.redirs = rhead;
  return &n->base;
}

/* Parses a command at command position; NULL if the token cannot start one. */
static sh_node *parse_command(sh_parser *p) {
  sh_pdepth_enter(p);
  expand_alias(p);
  sh_tok *t = sh_lex_peek(p);
  int line = t->line, col = t->col;
  sh_node *n = NULL;
  if (t->kind == T_LPAREN) {
    sh_lex_consume(p);
    /* (( arith )) or ( ( subshell ) ) */
    if (sh_lex_peekc(p) == '(' && !p->have_tok && sh_lex_arith_ahead(p, 1)) {
      sh_lex_getc(p);
      int stop;
      sh_arith_cmd *a = node_new(p, sizeof *a, SH_N_ARITH, line, col);
      a->expr = sh_lex_arith(p, false, &stop);
      n = &a->base;
    } else {
      n = parse_subshell(p, line, col);
    }
  } else if (t->kind == T_WORD && t->word->lit && is_reserved(t->word->lit)) {
    const char *w = t->word->lit;
    if (strcmp(w, "{") == 0) {
      sh_lex_consume(p);
      n = parse_group(p, line, col);
    } else if (strcmp(w, "if") == 0) {
      sh_lex_consume(p);
      n = parse_if(p, line, col);
    } else if (strcmp(w, "while") == 0 || strcmp(w, "until") == 0) {
      sh_lex_consume(p);
      n = parse_loop(p, w[0] == 'u', line, col);
    } else if (strcmp(w, "for") == 0 || strcmp(w, "select") == 0) {
      sh_lex_consume(p);
      n = parse_for(p, w[0] == 's', line, col);
    } else if (strcmp(w, "case") == 0) {
      sh_lex_consume(p);
      n = parse_case(p, line, col);
    } else if (strcmp(w, "[[") == 0) {
      sh_lex_consume(p);
      n = parse_cond(p, line, col);
    } else if (strcmp(w, "function") == 0) {
      sh_lex_consume(p);
      t = sh_lex_peek(p);
      if (t->kind != T_WORD || !t->word->lit) unexpected(p, t);
      const char *name = t->word->lit;
      sh_lex_consume(p);
      if (sh_lex_peek(p)->kind == T_LPAREN) {
        sh_lex_consume(p);
        if (sh_lex_peek(p)->kind != T_RPAREN) unexpected(p, sh_lex_peek(p));
        sh_lex_consume(p);
      }
      n = parse_funcdef_body(p, name, line, col);
      sh_pdepth_leave(p);
      return n;
    } else {
      /* then, fi, done, ... where a command should be; `}` `]]` `in` as words */
      if (strcmp(w, "in") == 0 || strcmp(w, "]]") == 0) {
        n = parse_simple(p);
        sh_pdepth_leave(p);
        return n;
      }
      unexpected(p, t);
    }
  } else if (t->kind == T_WORD || t->kind == T_REDIR) {
    n = parse_simple(p);
    sh_pdepth_leave(p);
    return n;
  } else {
    sh_pdepth_leave(p);
    return NULL;
  }
  /* redirections after a compound command */
  sh_redir *r = parse_redirs_after(p);
  if (r) {
    sh_redir **tail = &n->redirs;
    while (*tail) tail = &(*tail)->next;
    *tail = r;
  }
  sh_pdepth_leave(p);
  return n;
}

static sh_node *parse_pipeline(sh_parser *p) {
  sh_tok *t = sh_lex_peek(p);
  int line = t->line, col = t->col;
  bool bang = false;
  sh_time *tm = NULL;
  if (tok_is(p, "time")) {
    sh_lex_consume(p);
    tm = node_new(p, sizeof *tm, SH_N_TIME, line, col);
    if (tok_is(p, "-p")) {
      sh_lex_consume(p);
      tm->posix = true;
    }
    t = sh_lex_peek(p);
    if (t->kind == T_NEWLINE || t->kind == T_SEMI || t->kind == T_EOF || t->kind == T_AMP) return &tm->base;
  }
  while (tok_is(p, "!")) {
    sh_lex_consume(p);
    bang = !bang;
  }
  pvec cmds = {0};
  pvec errs = {0};
  for (;;) {
    sh_node *c = parse_command(p);
    if (!c) unexpected(p, sh_lex_peek(p));
    pvec_push(p, &cmds, c);
    t = sh_lex_peek(p);
    if (t->kind == T_PIPE || t->kind == T_PIPE_AND) {
      pvec_push(p, &errs, t->kind == T_PIPE_AND ? (void *)1 : NULL);
      sh_lex_consume(p);
      skip_newlines(p);
      continue;
    }
    break;
  }
  sh_node *result;
  if (cmds.n == 1 && !bang) {
    result = (sh_node *)cmds.v[0];
  } else {
    sh_pipeline *pl = node_new(p, sizeof *pl, SH_N_PIPELINE, line, col);
    pl->bang = bang;
    pl->n = cmds.n;
    pl->cmds = (sh_node **)cmds.v;
    pl->pipe_err = sh_arena_alloc(p->arena, cmds.n * sizeof(bool));
    for (size_t i = 0; i < errs.n; i++) pl->pipe_err[i] = errs.v[i] != NULL;
    result = &pl->base;
  }
  if (tm) {
    tm->pipeline = result;
    return &tm->base;
  }
  return result;
}

static sh_node *parse_and_or(sh_parser *p) {
  sh_node *left = parse_pipeline(p);
  for (;;) {
    sh_tok *t = sh_lex_peek(p);
    if (t->kind != T_AND_IF && t->kind != T_OR_IF) return left;
    bool is_or = t->kind == T_OR_IF;
    sh_lex_consume(p);
    skip_newlines(p);
    sh_andor *a = node_new(p, sizeof *a, SH_N_ANDOR, left->line, left->col);
    a->is_or = is_or;
    a->left = left;
    a->right = parse_pipeline(p);
    left = &a->base;
  }
}

/* A compound list: and-ors separated by ; & and newlines, up to a list end. */
static sh_node *parse_list(sh_parser *p) {
  sh_pdepth_enter(p);
  skip_newlines(p);
  sh_tok *t = sh_lex_peek(p);
  sh_list *l = node_new(p, sizeof *l, SH_N_LIST, t->line, t->col);
  size_t cap = 0;
  while (!at_list_end(p)) {
    sh_node *c = parse_and_or(p);
    l->items = sh_arena_grow(p->arena, l->items, l->n, &cap, 4, sizeof *l->items);
    sh_list_item *it = &l->items[l->n++];
    it->cmd = c;
    t = sh_lex_peek(p);
    if (t->kind == T_AMP) {
      it->background = true;
      sh_lex_consume(p);
    } else if (t->kind == T_SEMI) {
      sh_lex_consume(p);
    } else if (t->kind == T_NEWLINE) {
      /* fine */
    } else if (!at_list_end(p)) {
      unexpected(p, t);
    }
    skip_newlines(p);
  }
  if (l->n == 0) unexpected(p, sh_lex_peek(p));
  sh_pdepth_leave(p);
  return &l->base;
}

/* ---- entry points ------------------------------------------------------------------------------ */

sh_node *sh_parse_cmdsub(sh_parser *p) {
  /* The caller is inside lex_token: save and restore the lookahead state. */
  bool had = p->have_tok;
  sh_tok saved = p->tok;
  bool alias_next = p->alias_next;
  bool lex_arg = p->lex_arg;
  p->have_tok = false;
  p->lex_arg = false;
  sh_pdepth_enter(p);
  skip_newlines(p);
  sh_node *body = NULL;
  if (sh_lex_peek(p)->kind != T_RPAREN) body = parse_list(p);
  sh_tok *t = sh_lex_peek(p);
  if (t->kind != T_RPAREN) {
    if (t->kind == T_EOF) sh_perr(p, t->line, "unexpected EOF while looking for matching `)'");
    unexpected(p, t);
  }
  sh_lex_consume(p);
  sh_pdepth_leave(p);
  p->have_tok = had;
  p->tok = saved;
  p->alias_next = alias_next;
  p->lex_arg = lex_arg;
  return body;
}

static void parser_init(sh_parser *p, const char *src, size_t len, const sh_parse_opts *opts) {
  memset(p, 0, sizeof *p);
  if (opts) p->opts = *opts;
  if (p->opts.max_depth <= 0) p->opts.max_depth = 1000;
  p->frames[0].s = src;
  p->frames[0].len = len;
  p->nframes = 1;
  p->line = p->opts.first_line > 0 ? p->opts.first_line : 1;
  p->col = 1;
}

/* A parser for text nested in p's (a $(...) body, a here-document body):
 * s[0..n) with line numbers from `line`, p's options and arena, and what is
 * left of p's depth budget (at least 1). Free it with sub_parser_free, or
 * after its error with sub_parser_raise. */
static sh_parser *sub_parser_new(sh_parser *p, const char *s, size_t n, int line) {
  sh_parser *sub = sh_xmalloc(sizeof *sub);
  sh_parse_opts o = p->opts;
  o.first_line = line;
  o.max_depth = p->opts.max_depth - p->depth;
  if (o.max_depth < 1) o.max_depth = 1;
  parser_init(sub, s, n, &o);
  sub->arena = p->arena;
  sub->parent = p;
  return sub;
}

/* Frees sub (not the arena, which is p's); aliases expanded inside it own
 * their text. */
static void sub_parser_free(sh_parser *sub) {
  for (int i = 1; i < SH_ALIAS_DEPTH_MAX; i++) free(sub->frames[i].owned);
  free(sub->errmsg);
  free(sub);
}

/* After sub's syntax error: frees sub and raises the error in p (copying the
 * message into p's arena). Does not return. */
static _Noreturn void sub_parser_raise(sh_parser *p, sh_parser *sub) {
  int el = sub->errline;
  const char *msg = sh_arena_strdup(p->arena, sub->errmsg ? sub->errmsg : "syntax error");
  sub_parser_free(sub);
  sh_perr(p, el, "%s", msg);
}

sh_node *sh_parse_substring(sh_parser *p, const char *s, size_t n, int line) {
  sh_parser *sub = sub_parser_new(p, s, n, line);
  sh_node *body = NULL;
  if (setjmp(sub->jb)) sub_parser_raise(p, sub);
  skip_newlines(sub);
  if (sh_lex_peek(sub)->kind != T_EOF) body = parse_list(sub);
  sh_tok *t = sh_lex_peek(sub);
  if (t->kind != T_EOF) unexpected(sub, t);
  sub_parser_free(sub);
  return body;
}

sh_part *sh_parse_heredoc_body(sh_parser *p, const char *s, size_t n, int line);
sh_part *sh_parse_heredoc_body(sh_parser *p, const char *s, size_t n, int line) {
  sh_parser *sub = sub_parser_new(p, s, n, line);
  if (setjmp(sub->jb)) sub_parser_raise(p, sub);
  sh_part *parts = sh_lex_dq_all(sub, true);
  sub_parser_free(sub);
  return parts;
}

sh_parser *sh_parser_new(const char *src, size_t len, const sh_parse_opts *opts) {
  sh_parser *p = sh_xmalloc(sizeof *p);
  parser_init(p, src, len, opts);
  return p;
}

void sh_parser_free(sh_parser *p) {
  if (!p) return;
  for (int i = 1; i < SH_ALIAS_DEPTH_MAX; i++) free(p->frames[i].owned);
  if (p->arena) sh_arena_unref(p->arena);
  free(p->errmsg);
  free(p);
}

int sh_parse_next(sh_parser *p, sh_node **node, sh_arena **arena) {
  *node = NULL;
  *arena = NULL;
  if (p->failed) return -1;
  if (p->arena) sh_arena_unref(p->arena);
  p->arena = sh_arena_new();
  p->depth = 0;
  p->npending = 0;
  p->lex_arg = false; /* a syntax error may have left it set */
  if (setjmp(p->jb)) {
    sh_arena_unref(p->arena);
    p->arena = NULL;
    p->have_tok = false;
    return -1;
  }
  skip_newlines(p);
  sh_tok *t = sh_lex_peek(p);
  if (t->kind == T_EOF) {
    sh_arena_unref(p->arena);
    p->arena = NULL;
    return 0;
  }
  sh_list *l = node_new(p, sizeof *l, SH_N_LIST, t->line, t->col);
  size_t cap = 0;
  for (;;) {
    sh_node *c = parse_and_or(p);
    l->items = sh_arena_grow(p->arena, l->items, l->n, &cap, 4, sizeof *l->items);
    sh_list_item *it = &l->items[l->n++];
    it->cmd = c;
    t = sh_lex_peek(p);
    if (t->kind == T_AMP || t->kind == T_SEMI) {
      it->background = t->kind == T_AMP;
      sh_lex_consume(p);
      t = sh_lex_peek(p);
      if (t->kind == T_NEWLINE || t->kind == T_EOF) break;
      continue;
    }
    if (t->kind == T_NEWLINE || t->kind == T_EOF) break;
    unexpected(p, t);
  }
  if (t->kind == T_NEWLINE) sh_lex_consume(p);
  *node = &l->base;
  *arena = p->arena;
  p->arena = NULL;
  return 1;
}

size_t sh_parser_offset(const sh_parser *p) { return p->frames[0].pos; }

int sh_parse_all(sh_parser *p, sh_node **node, sh_arena **arena) {
  *node = NULL;
  *arena = NULL;
  if (p->failed) return -1;
  p->arena = sh_arena_new();
  p->depth = 0;
  if (setjmp(p->jb)) {
    sh_arena_unref(p->arena);
    p->arena = NULL;
    return -1;
  }
  skip_newlines(p);
  sh_node *body = NULL;
  if (sh_lex_peek(p)->kind != T_EOF) body = parse_list(p);
  sh_tok *t = sh_lex_peek(p);
  if (t->kind != T_EOF) unexpected(p, t);
  *node = body;
  *arena = p->arena;
  p->arena = NULL;
  return 0;
}

const char *sh_parser_error(const sh_parser *p) { return p->errmsg ? p->errmsg : ""; }
int sh_parser_error_line(const sh_parser *p) { return p->errline; }
bool sh_parser_error_in_array(const sh_parser *p) { return p->err_in_array; }
int sh_parser_line(const sh_parser *p) { return p->line; }

sh_word *sh_parse_dq_string(sh_arena *a, const char *s, size_t n, int line, char **err) {
  sh_parser *p = sh_parser_new(s, n, NULL);
  p->opts.first_line = line;
  p->line = line;
  p->arena = a;
  sh_word *w = NULL;
  if (setjmp(p->jb)) {
    if (err) *err = p->errmsg ? p->errmsg : sh_xstrdup("syntax error");
    else free(p->errmsg);
    free(p);
    return NULL;
  }
  w = sh_arena_alloc(a, sizeof *w);
  w->line = line;
  w->parts = sh_lex_dq_all(p, true);
  free(p->errmsg);
  free(p);
  return w;
}

int sh_parse_check(const char *s, size_t n) {
  sh_parser *p = sh_parser_new(s, n, NULL);
  int result = 1;
  for (;;) {
    sh_node *node;
    sh_arena *arena;
    int r = sh_parse_next(p, &node, &arena);
    if (r == 0) break;
    if (r < 0) {
      const char *m = sh_parser_error(p);
      result = (strstr(m, "unexpected end of file") || strstr(m, "unexpected EOF")) ? 0 : -1;
      break;
    }
    sh_arena_unref(arena);
  }
  /* an unterminated here-document also wants more input */
  sh_parser_free(p);
  return result;
}

sh_word *sh_lex_word_all(sh_parser *p);

sh_word *sh_parse_word_string(sh_arena *a, const char *s, size_t n, int line, char **err) {
  sh_parser *p = sh_parser_new(s, n, NULL);
  p->line = line;
  p->arena = a;
  if (setjmp(p->jb)) {
    if (err) *err = p->errmsg ? p->errmsg : sh_xstrdup("syntax error");
    else free(p->errmsg);
    free(p);
    return NULL;
  }
  sh_word *w = sh_lex_word_all(p);
  free(p->errmsg);
  free(p);
  return w;
}

sh_node *sh_node_only_command(sh_node *c) {
  if (c && c->kind == SH_N_LIST) {
    sh_list *l = (sh_list *)c;
    c = l->n == 1 && !l->items[0].background ? l->items[0].cmd : NULL;
  }
  if (c && c->kind == SH_N_PIPELINE) {
    sh_pipeline *p = (sh_pipeline *)c;
    c = p->n == 1 && !p->bang ? p->cmds[0] : NULL;
  }
  return c;
}
