/*
 * print.c - turns a syntax tree back into shell text in bash's layout: a
 * function for `type f`, `declare -f` and `declare -F` (sh_func_text), the
 * command text of a background job for `jobs` (sh_job_texts), of a command
 * for BASH_COMMAND (sh_note_command), and exported functions for the
 * environment (sh_funcs_environ).
 *
 * One printer serves both, following bash's rules with its state in a context
 * (no globals: tasks print on their own threads):
 *  - `fn` says whether the text is inside a function definition. There a list
 *    puts one command per line ("a;\n    b") and a group spans lines; outside
 *    (a job's text) a list stays on one line ("a; b") and groups and subshells
 *    are inline ("{ a; b; }"), while loops, if, for and case keep their
 *    multi-line layout with the body on its own indented line.
 *  - Indentation is absolute (`ind` spaces, four per level). `skip` counts the
 *    commands that continue the current line and so get no indentation (the
 *    condition after "if ", the right side of "&&", the next item after "; ").
 *  - A ";" before a line end is added only when the text does not already end
 *    in "&" or a newline (bash's semicolon()).
 *  - The here-document bodies of a command inside a list, and-or or pipeline
 *    wait until the operator after the command is printed (`defer`).
 *  - Words print as written (the lexer keeps each word's source text), so
 *    `$(a  b)` keeps its two spaces where bash re-prints it from its parse.
 *    Redirections are re-spelled the way bash spells them ("> f", "1>&2",
 *    "0<> f", "<<'EOF'" for a quoted delimiter).
 * Bounds: the text stops growing at `cap` bytes (cut at a character boundary;
 * a job's text is capped by its caller). And-or chains, the one unbounded
 * left-deep shape the parser builds, are walked with a loop; other nesting is
 * bounded by the parser's depth limit and, again, by `depth` here.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sh/builtins.h"
#include "sh/sh.h"

#define PRINT_DEPTH_MAX 1000 /* nested compound commands printed; deeper is "..." */

typedef struct pctx {
  sh_buf *b;                 /* the text (owned by the caller) */
  size_t cap;                /* at most this many bytes; then printing stops */
  bool full;                 /* cap reached: everything else is dropped */
  int ind;                   /* indentation of new lines, in spaces */
  int skip;                  /* commands still to print without indentation */
  bool fn;                   /* inside a function definition: multi-line lists */
  bool posix;                /* posix mode: nested functions print as "f () " */
  int conn;                  /* > 0 inside a list, and-or or pipeline */
  bool was_heredoc;          /* the text just printed ended a here-document */
  sh_redir **defer;          /* here-documents whose bodies wait for an operator */
  size_t ndefer, capdefer;
  const sh_node *err_to_out; /* the pipeline stage joined by |&: gets "2>&1" */
  int depth;                 /* nested cmd() calls */
} pctx;

static void cmd(pctx *c, sh_node *n);

/* ---- output ------------------------------------------------------------------------ */

static void put(pctx *c, const char *s, size_t n) {
  if (c->full) return;
  if (n > c->cap - c->b->len) {
    n = c->cap - c->b->len;
    /* do not cut a UTF-8 sequence in two */
    while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80) n--;
    c->full = true;
  }
  sh_buf_add(c->b, s, n);
}

static void puts_(pctx *c, const char *s) { put(c, s, strlen(s)); }

static char last_char(const pctx *c) { return c->b->len ? c->b->data[c->b->len - 1] : 0; }

static void indent(pctx *c, int n) {
  static const char spaces[] = "                                ";
  while (n > 0 && !c->full) {
    int k = n < 32 ? n : 32;
    put(c, spaces, (size_t)k);
    n -= k;
  }
}

/* A newline, the indentation, then `s`. */
static void newline(pctx *c, const char *s) {
  puts_(c, "\n");
  indent(c, c->ind);
  puts_(c, s);
}

static void semicolon(pctx *c) {
  char l = last_char(c);
  if (c->b->len && (l == '&' || l == '\n')) return;
  puts_(c, ";");
}

/* ---- words and redirections --------------------------------------------------------------- */

/* A word as written, except that $'...' prints as bash keeps it after
 * parsing: the decoded text in single quotes ('\'' for a quote). */
static void praw(pctx *c, const char *r) {
  if (!strstr(r, "$'")) {
    puts_(c, r);
    return;
  }
  bool dq = false;
  size_t i = 0;
  while (r[i]) {
    if (r[i] == '\\' && r[i + 1]) {
      put(c, r + i, 2);
      i += 2;
    } else if (r[i] == '\'' && !dq) {
      const char *e = strchr(r + i + 1, '\'');
      size_t len = e ? (size_t)(e - (r + i)) + 1 : strlen(r + i);
      put(c, r + i, len);
      i += len;
    } else if (r[i] == '$' && r[i + 1] == '\'' && !dq) {
      size_t j = i + 2;
      while (r[j] && r[j] != '\'') j += r[j] == '\\' && r[j + 1] ? 2 : 1;
      sh_buf dec = {0};
      sh_ansi_c_decode(r + i + 2, j - (i + 2), &dec);
      sh_buf q = {0};
      sh_buf_add_single_quoted(&q, dec.data ? dec.data : "", dec.len);
      put(c, q.data, q.len);
      sh_buf_free(&q);
      sh_buf_free(&dec);
      i = r[j] ? j + 1 : j;
    } else {
      if (r[i] == '"') dq = !dq;
      put(c, r + i, 1);
      i++;
    }
  }
}

static void pword(pctx *c, const sh_word *w) {
  if (!w) return;
  if (w->raw) {
    praw(c, w->raw);
    return;
  }
  for (const sh_part *p = w->parts; p; p = p->next) {
    switch (p->kind) {
    case SH_PART_LIT: put(c, p->u.lit.s, p->u.lit.n); break;
    case SH_PART_QLIT:
      puts_(c, "'");
      put(c, p->u.lit.s, p->u.lit.n);
      puts_(c, "'");
      break;
    case SH_PART_PARAM:
      if (p->u.param->name) {
        puts_(c, "${");
        puts_(c, p->u.param->name);
        puts_(c, "}");
      }
      break;
    default: puts_(c, "..."); break;
    }
  }
}

static const char *wtext(const sh_word *w) {
  if (!w) return "";
  return w->raw ? w->raw : w->lit ? w->lit : "";
}

static bool all_digits(const char *s, size_t n) {
  if (!n) return false;
  for (size_t i = 0; i < n; i++)
    if (s[i] < '0' || s[i] > '9') return false;
  return true;
}

/* The delimiter of a here-document as bash keeps it: the word without quotes. */
static void heredoc_delim(const sh_redir *r, sh_buf *out) {
  for (const char *s = r->target && r->target->raw ? r->target->raw : "EOF"; *s; s++)
    if (*s != '\'' && *s != '"' && *s != '\\') sh_buf_addc(out, *s);
}

/* The fd before a redirection operator: {var}, or the number when `show`. */
static void pfd(pctx *c, const sh_redir *r, int fd, bool show) {
  if (r->fdvar) {
    puts_(c, "{");
    puts_(c, r->fdvar);
    puts_(c, "}");
  } else if (show) {
    char num[16];
    snprintf(num, sizeof num, "%d", fd);
    puts_(c, num);
  }
}

/* <&N / >&N / <&- / >&N- and their word forms. */
static void pdup(pctx *c, const sh_redir *r, int fd, bool in) {
  const char *t = wtext(r->target);
  size_t n = strlen(t);
  if (!strcmp(t, "-")) { /* bash spells every close >&- */
    pfd(c, r, fd, true);
    puts_(c, ">&-");
  } else if (all_digits(t, n) || (n > 1 && t[n - 1] == '-' && all_digits(t, n - 1))) {
    pfd(c, r, fd, true);
    puts_(c, in ? "<&" : ">&");
    puts_(c, t);
  } else {
    pfd(c, r, fd, fd != (in ? 0 : 1));
    puts_(c, in ? "<&" : ">&");
    pword(c, r->target);
  }
}

static void predir(pctx *c, const sh_redir *r) {
  bool in = r->op == SH_R_IN || r->op == SH_R_RDWR || r->op == SH_R_HEREDOC ||
            r->op == SH_R_HERESTR || r->op == SH_R_DUPIN;
  int fd = r->fd >= 0 ? r->fd : in ? 0 : 1;
  const char *op = NULL;
  bool show = fd != 1;
  switch (r->op) {
  case SH_R_IN: op = "< "; show = fd != 0; break;
  case SH_R_OUT: op = "> "; break;
  case SH_R_CLOBBER: op = ">| "; break;
  case SH_R_APPEND: op = ">> "; break;
  case SH_R_RDWR: op = "<> "; break; /* bash shows the fd unless it is 1 */
  case SH_R_HERESTR: op = "<<< "; show = fd != 0; break;
  case SH_R_OUTERR: op = "&> "; show = false; break;
  case SH_R_APPENDERR: op = "&>> "; show = false; break;
  case SH_R_DUPIN: pdup(c, r, fd, true); return;
  case SH_R_DUPOUT: pdup(c, r, fd, false); return;
  case SH_R_HEREDOC: {
    pfd(c, r, fd, fd != 0);
    puts_(c, r->heredoc_strip ? "<<-" : "<<");
    sh_buf d = {0};
    heredoc_delim(r, &d);
    if (r->heredoc_quoted) {
      puts_(c, "'");
      for (const char *s = sh_buf_str(&d); *s; s++) puts_(c, *s == '\'' ? "'\\''" : (char[]){*s, 0});
      puts_(c, "'");
    } else {
      puts_(c, sh_buf_str(&d));
    }
    sh_buf_free(&d);
    return;
  }
  }
  pfd(c, r, fd, show);
  puts_(c, op);
  pword(c, r->target);
}

/* The bodies of the waiting here-documents, each followed by its delimiter. */
static void heredoc_bodies(pctx *c) {
  puts_(c, "\n");
  for (size_t i = 0; i < c->ndefer; i++) {
    const sh_redir *r = c->defer[i];
    const sh_word *w = r->heredoc;
    if (w && w->raw) {
      puts_(c, w->raw);
    } else if (w) {
      for (const sh_part *p = w->parts; p; p = p->next)
        if (p->kind == SH_PART_QLIT || p->kind == SH_PART_LIT) put(c, p->u.lit.s, p->u.lit.n);
    }
    sh_buf d = {0};
    heredoc_delim(r, &d);
    puts_(c, sh_buf_str(&d));
    sh_buf_free(&d);
    puts_(c, "\n");
  }
  c->ndefer = 0;
  c->was_heredoc = true;
}

/* An operator (" &", " |", " && "...) and then the bodies of the here-documents
 * of the command before it (bash's print_deferred_heredocs). */
static void deferred(pctx *c, const char *op) {
  bool shown = *op && strcmp(op, ";") != 0;
  if (shown) puts_(c, op);
  if (c->ndefer) {
    heredoc_bodies(c);
    if (shown) puts_(c, " ");
  }
}

/* A redirection list; here-document bodies follow at once, or after the next
 * operator inside a list. `err_to_out`: the "2>&1" that |& stands for. */
static void predir_list(pctx *c, sh_redir *r, bool err_to_out) {
  c->was_heredoc = false;
  size_t first_heredoc = c->ndefer;
  bool first = true;
  for (; r; r = r->next) {
    if (!first) puts_(c, " ");
    first = false;
    predir(c, r);
    if (r->op == SH_R_HEREDOC) {
      if (c->ndefer == c->capdefer) {
        c->capdefer = c->capdefer ? 2 * c->capdefer : 4;
        c->defer = sh_xrealloc(c->defer, c->capdefer * sizeof *c->defer);
      }
      c->defer[c->ndefer++] = r;
    }
  }
  if (err_to_out) {
    if (!first) puts_(c, " ");
    puts_(c, "2>&1");
  }
  if (c->ndefer > first_heredoc && !c->conn) heredoc_bodies(c);
}

/* ---- commands ---------------------------------------------------------------------------- */

static void pcond(pctx *c, sh_cond_expr *e) {
  switch (e->kind) {
  case SH_C_AND: pcond(c, e->left); puts_(c, " && "); pcond(c, e->right); break;
  case SH_C_OR: pcond(c, e->left); puts_(c, " || "); pcond(c, e->right); break;
  case SH_C_NOT: puts_(c, "! "); pcond(c, e->left); break;
  case SH_C_WORD: pword(c, e->w1); break;
  case SH_C_UNARY: puts_(c, e->op); puts_(c, " "); pword(c, e->w1); break;
  case SH_C_BINARY:
    pword(c, e->w1);
    puts_(c, " ");
    puts_(c, e->op);
    puts_(c, " ");
    pword(c, e->w2);
    break;
  }
}

/* One expression of for ((;;)): leading blanks dropped, an empty one is "1". */
static void arith_part(pctx *c, const sh_word *w) {
  const char *s = w ? wtext(w) : "";
  s += strspn(s, " \t\n");
  puts_(c, *s ? s : "1");
}

/* The separator after list item i: ";" or "&" (bash's connection printing). */
static void list_sep(pctx *c, bool background, bool more) {
  if (background) {
    deferred(c, " &");
    if (more) {
      puts_(c, " ");
      c->skip++;
    }
    return;
  }
  if (!c->ndefer) {
    if (!c->was_heredoc) puts_(c, ";");
    else c->was_heredoc = false;
  } else {
    deferred(c, c->fn ? "" : ";");
  }
  if (c->fn) {
    puts_(c, "\n");
  } else {
    puts_(c, " ");
    if (more) c->skip++;
  }
}

static void plist(pctx *c, sh_list *l) {
  c->conn++;
  c->skip++;
  for (size_t i = 0; i < l->n && !c->full; i++) {
    if (i) list_sep(c, l->items[i - 1].background, true);
    cmd(c, l->items[i].cmd);
    /* bash's list is a left-nested chain of connections: every item after
     * the first is the second half of one, so its bodies come at once (and
     * the next `;` is left out); the first item's wait for the operator, and
     * an item before `&` too */
    if (i && !l->items[i].background) deferred(c, "");
  }
  if (l->items[l->n - 1].background) {
    list_sep(c, true, false);
    deferred(c, "");
  }
  c->conn--;
}

static void ppipeline(pctx *c, sh_pipeline *p) {
  if (p->bang) puts_(c, "! ");
  if (p->n == 1) {
    c->skip++;
    cmd(c, p->cmds[0]);
    return;
  }
  c->conn++;
  c->skip++;
  for (size_t i = 0; i < p->n && !c->full; i++) {
    if (i) {
      deferred(c, " |");
      puts_(c, " ");
      c->skip++;
    }
    const sh_node *saved = c->err_to_out;
    c->err_to_out = i + 1 < p->n && p->pipe_err && p->pipe_err[i] ? p->cmds[i] : NULL;
    cmd(c, p->cmds[i]);
    c->err_to_out = saved;
  }
  deferred(c, "");
  c->conn--;
}

/* a && b || c: the left-deep chain is walked with a loop (it can be long). */
static void pandor(pctx *c, sh_node *n) {
  size_t k = 0;
  sh_node *x = n;
  for (; x->kind == SH_N_ANDOR; x = ((sh_andor *)x)->left) k++;
  sh_andor **v = sh_xcalloc(k, sizeof *v);
  x = n;
  for (size_t i = k; i-- > 0; x = ((sh_andor *)x)->left) v[i] = (sh_andor *)x;
  c->conn++;
  c->skip++;
  cmd(c, x);
  for (size_t i = 0; i < k && !c->full; i++) {
    deferred(c, v[i]->is_or ? " || " : " && ");
    if (v[i]->right) {
      c->skip++;
      cmd(c, v[i]->right);
    }
    deferred(c, "");
  }
  c->conn--;
  free(v);
}

/* A compound command's body one level in, with its pending here-documents. */
static void body_in(pctx *c, sh_node *body) {
  c->ind += 4;
  cmd(c, body);
  deferred(c, "");
  c->ind -= 4;
}

/* "do", the body one level in, "done": the tail of for, select and for ((;;)). */
static void pfor_tail(pctx *c, sh_node *body) {
  newline(c, "do\n");
  body_in(c, body);
  semicolon(c);
  newline(c, "done");
}

static void pfuncdef(pctx *c, sh_funcdef *f) {
  if (!c->posix) puts_(c, "function ");
  puts_(c, f->name);
  puts_(c, " () \n");
  indent(c, c->ind);
  puts_(c, "{ \n");
  bool saved = c->fn;
  c->fn = true;
  c->ind += 4;
  sh_node *body = f->body;
  sh_redir *redirs = NULL;
  if (body && body->kind == SH_N_GROUP) {
    redirs = body->redirs;
    body = ((sh_block *)body)->body;
  }
  cmd(c, body);
  deferred(c, "");
  c->ind -= 4;
  c->fn = saved;
  if (redirs) {
    newline(c, "} ");
    predir_list(c, redirs, false);
  } else {
    newline(c, "}");
  }
}

static void cmd(pctx *c, sh_node *n) {
  if (!n || c->full) return;
  /* a one-command list and a lone command without `!` are just the command */
  if (n->kind == SH_N_LIST) {
    sh_list *l = (sh_list *)n;
    if (!l->n) return;
    if (l->n == 1 && !l->items[0].background) {
      cmd(c, l->items[0].cmd);
      return;
    }
  }
  if (n->kind == SH_N_PIPELINE) {
    sh_pipeline *p = (sh_pipeline *)n;
    if (!p->n) return;
    if (p->n == 1 && !p->bang) {
      cmd(c, p->cmds[0]);
      return;
    }
  }
  if (c->depth >= PRINT_DEPTH_MAX) {
    puts_(c, "...");
    c->full = true;
    return;
  }
  c->depth++;
  if (c->skip) c->skip--;
  else indent(c, c->ind);
  bool err_to_out = c->err_to_out == n;
  switch (n->kind) {
  case SH_N_SIMPLE: {
    sh_simple *s = (sh_simple *)n;
    bool any = false;
    for (sh_assign *a = s->assigns; a; a = a->next) {
      if (any) puts_(c, " ");
      any = true;
      puts_(c, a->name);
      if (a->index) {
        puts_(c, "[");
        pword(c, a->index);
        puts_(c, "]");
      }
      puts_(c, a->append ? "+=" : "=");
      if (a->value && a->value->parts && a->value->parts->kind == SH_PART_ARRAY) {
        sh_part *arr = a->value->parts;
        puts_(c, "(");
        for (size_t i = 0; i < arr->u.array.n; i++) {
          if (i) puts_(c, " ");
          if (arr->u.array.elems[i].key) {
            puts_(c, "[");
            pword(c, arr->u.array.elems[i].key);
            puts_(c, "]=");
          }
          pword(c, arr->u.array.elems[i].value);
        }
        puts_(c, ")");
      } else if (a->value) {
        pword(c, a->value);
      }
    }
    for (size_t i = 0; i < s->nwords; i++) {
      if (any) puts_(c, " ");
      any = true;
      pword(c, s->words[i]);
    }
    if (n->redirs || err_to_out) {
      if (any) puts_(c, " ");
      predir_list(c, n->redirs, err_to_out);
    }
    c->depth--;
    return;
  }
  case SH_N_PIPELINE: ppipeline(c, (sh_pipeline *)n); break;
  case SH_N_ANDOR: pandor(c, n); break;
  case SH_N_LIST: plist(c, (sh_list *)n); break;
  case SH_N_SUBSHELL:
    puts_(c, "( ");
    c->skip++;
    cmd(c, ((sh_block *)n)->body);
    deferred(c, "");
    puts_(c, " )");
    break;
  case SH_N_GROUP:
    if (c->fn) {
      puts_(c, "{ \n");
      c->ind += 4;
      cmd(c, ((sh_block *)n)->body);
      deferred(c, "");
      puts_(c, "\n");
      c->ind -= 4;
      indent(c, c->ind);
    } else {
      puts_(c, "{ ");
      c->skip++;
      cmd(c, ((sh_block *)n)->body);
      deferred(c, "");
      semicolon(c);
      puts_(c, " ");
    }
    puts_(c, "}");
    break;
  case SH_N_IF: {
    sh_if *f = (sh_if *)n;
    puts_(c, "if ");
    c->skip++;
    cmd(c, f->cond);
    semicolon(c);
    puts_(c, " then\n");
    body_in(c, f->then_part);
    if (f->else_part) {
      semicolon(c);
      newline(c, "else\n");
      body_in(c, f->else_part);
    }
    semicolon(c);
    newline(c, "fi");
    break;
  }
  case SH_N_LOOP: {
    sh_loop *l = (sh_loop *)n;
    puts_(c, l->until ? "until " : "while ");
    c->skip++;
    cmd(c, l->cond);
    deferred(c, "");
    semicolon(c);
    puts_(c, " do\n");
    body_in(c, l->body);
    semicolon(c);
    newline(c, "done");
    break;
  }
  case SH_N_FOR: {
    sh_for *f = (sh_for *)n;
    puts_(c, f->select ? "select " : "for ");
    puts_(c, f->name);
    puts_(c, " in ");
    if (f->has_in) {
      for (size_t i = 0; i < f->nwords; i++) {
        if (i) puts_(c, " ");
        pword(c, f->words[i]);
      }
    } else {
      puts_(c, "\"$@\"");
    }
    puts_(c, ";");
    pfor_tail(c, f->body);
    break;
  }
  case SH_N_CFOR: {
    sh_cfor *f = (sh_cfor *)n;
    puts_(c, "for ((");
    arith_part(c, f->init);
    puts_(c, "; ");
    arith_part(c, f->cond);
    puts_(c, "; ");
    arith_part(c, f->step);
    puts_(c, "))");
    pfor_tail(c, f->body);
    break;
  }
  case SH_N_CASE: {
    sh_case *cs = (sh_case *)n;
    puts_(c, "case ");
    pword(c, cs->word);
    puts_(c, " in ");
    c->ind += 4;
    for (size_t i = 0; i < cs->n && !c->full; i++) {
      sh_case_item *it = &cs->items[i];
      newline(c, "");
      for (size_t k = 0; k < it->npatterns; k++) {
        if (k) puts_(c, " | ");
        pword(c, it->patterns[k]);
      }
      puts_(c, ")\n");
      c->ind += 4;
      cmd(c, it->body);
      c->ind -= 4;
      deferred(c, "");
      newline(c, it->term == SH_CASE_BREAK ? ";;" : it->term == SH_CASE_FALL ? ";&" : ";;&");
    }
    c->ind -= 4;
    newline(c, "esac");
    break;
  }
  case SH_N_FUNCDEF: pfuncdef(c, (sh_funcdef *)n); break;
  case SH_N_ARITH:
    puts_(c, "((");
    puts_(c, wtext(((sh_arith_cmd *)n)->expr));
    puts_(c, "))");
    break;
  case SH_N_COND:
    puts_(c, "[[ ");
    pcond(c, ((sh_cond *)n)->expr);
    puts_(c, " ]]");
    break;
  case SH_N_TIME: {
    sh_time *t = (sh_time *)n;
    puts_(c, t->posix ? "time -p " : "time ");
    if (t->pipeline) {
      c->skip++;
      cmd(c, t->pipeline);
    }
    break;
  }
  }
  if (n->redirs || err_to_out) {
    puts_(c, " ");
    predir_list(c, n->redirs, err_to_out);
  }
  c->depth--;
}

/* ---- entry points ---------------------------------------------------------------------- */

static bool reserved_word(const char *s) {
  static const char *const words[] = {"if", "then", "else", "elif", "fi", "case", "esac", "for",
                                      "select", "while", "until", "do", "done", "in", "function",
                                      "time", "{", "}", "!", "[[", "]]", "coproc", NULL};
  for (int i = 0; words[i]; i++)
    if (!strcmp(s, words[i])) return true;
  return false;
}

char *sh_func_text(sh_shell *sh, sh_func *f) {
  sh_buf b = {0};
  if (!f) return sh_buf_steal(&b);
  pctx c = {.b = &b, .cap = SIZE_MAX, .posix = sh && sh->opt[SH_OPT_POSIX]};
  if (reserved_word(f->name)) puts_(&c, "function ");
  puts_(&c, f->name);
  puts_(&c, " () \n{ \n");
  c.fn = true;
  c.ind = 4;
  sh_node *body = f->def->body;
  sh_redir *redirs = NULL;
  if (body && body->kind == SH_N_GROUP) {
    redirs = body->redirs;
    body = ((sh_block *)body)->body;
  }
  cmd(&c, body);
  deferred(&c, "");
  c.ind = 0;
  c.fn = false;
  if (redirs) {
    newline(&c, "} ");
    predir_list(&c, redirs, false);
  } else {
    newline(&c, "}");
  }
  free(c.defer);
  return sh_buf_steal(&b);
}

/* The text of `n` as bash prints a command outside a function, at most `cap`
 * bytes; err_to_out adds the "2>&1" of a stage joined by |&. */
static char *node_text(sh_shell *sh, sh_node *n, bool err_to_out, size_t cap) {
  sh_buf b = {0};
  pctx c = {.b = &b, .cap = cap, .posix = sh && sh->opt[SH_OPT_POSIX]};
  c.err_to_out = err_to_out ? n : NULL;
  cmd(&c, n);
  deferred(&c, "");
  free(c.defer);
  return sh_buf_steal(&b);
}

char **sh_job_texts(sh_shell *sh, sh_node *n, size_t cap, int *count) {
  char **v;
  *count = 1;
  if (n->kind == SH_N_PIPELINE && ((sh_pipeline *)n)->n > 1) {
    /* bash keeps one text per process: the stages, without a `!` */
    sh_pipeline *p = (sh_pipeline *)n;
    v = sh_xcalloc(p->n + 1, sizeof *v);
    size_t total = 0;
    int k = 0;
    for (size_t i = 0; i < p->n && total < cap; i++) {
      v[k] = node_text(sh, p->cmds[i], i + 1 < p->n && p->pipe_err && p->pipe_err[i], cap - total);
      total += strlen(v[k]) + 3;
      k++;
    }
    *count = k;
    return v;
  }
  v = sh_xcalloc(2, sizeof *v);
  if (n->kind == SH_N_PIPELINE && ((sh_pipeline *)n)->n == 1 &&
      ((sh_pipeline *)n)->cmds[0]->kind == SH_N_SIMPLE)
    n = ((sh_pipeline *)n)->cmds[0]; /* `! cmd &` shows as `cmd` */
  v[0] = node_text(sh, n, false, cap);
  return v;
}

char *sh_node_text(sh_shell *sh, sh_node *n) { return node_text(sh, n, false, SH_JOB_TEXT_MAX); }

void sh_note_command(sh_shell *sh, sh_node *n) {
  if (!sh->sess->note_commands || !n || sh->in_trap) return; /* traps keep the text */
  if (n->kind != SH_N_SIMPLE && n->kind != SH_N_ARITH && n->kind != SH_N_COND) return;
  char *t = node_text(sh, n, false, SH_JOB_TEXT_MAX);
  sh_buf_clear(&sh->command_text);
  sh_buf_add(&sh->command_text, t, strcspn(t, "\n")); /* without here-document bodies */
  free(t);
}

static int cmp_cstr(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

void sh_funcs_environ(sh_shell *sh, sh_strv *out) {
  const char **names = NULL;
  size_t n = 0;
  for (size_t i = 0; i < sh->funcs.cap; i++) {
    const sh_func *f = sh->funcs.e[i].key ? sh->funcs.e[i].val : NULL;
    if (!f || !(f->attrs & 1)) continue;
    names = sh_xrealloc(names, (n + 1) * sizeof *names);
    names[n++] = sh->funcs.e[i].key;
  }
  if (n > 1) qsort(names, n, sizeof *names, cmp_cstr);
  for (size_t i = 0; i < n; i++) {
    char *t = sh_func_text(sh, sh_func_get(sh, names[i]));
    /* "NAME () \n{ ...}" -> "() { ...}" */
    const char *body = strstr(t, "() \n");
    if (body) sh_strv_push(out, sh_xasprintf("BASH_FUNC_%s%%%%=() %s", names[i], body + 4));
    free(t);
  }
  free(names);
}
