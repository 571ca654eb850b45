/*
 * print.c - turns a syntax tree back into shell text, in bash's layout, for
 * `type f`, `declare -f` and `declare -F`, and the one-line text of the
 * command running for BASH_COMMAND. Words print as they were written (the
 * lexer keeps each word's source text), commands are re-laid out with
 * four-space indentation and `;` between list items the way bash does.
 *
 * Here-document bodies cannot go where their `<<` is: like bash, the printer
 * keeps them pending and writes them after the end of that line (after the
 * `|` or `&&` that continues a pipeline or list, or instead of the `;` that
 * would end it), so the text reads back as the same commands.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sh/sh.h"

/* The text being built and the here-documents still to be written. */
typedef struct printer {
  sh_buf out;         /* the text */
  sh_redir **pending; /* here-documents whose bodies are not written yet (array malloc'd) */
  size_t npending;    /* entries used */
  size_t cap;         /* entries allocated */
  bool bodies;        /* write here-document bodies at all (not for BASH_COMMAND) */
  bool was_heredoc;   /* bodies just ended a line: the `;` that would follow is left out */
  bool oneline;       /* a command on one line (a job's text): { a; b; } */
} printer;

static void pnode(printer *b, sh_node *n, int ind);

/* A here-document body and its delimiter line (without the newline). */
static void pbody(printer *b, const sh_redir *r) {
  for (const sh_part *p = r->heredoc->parts; p; p = p->next)
    if (p->kind == SH_PART_QLIT || p->kind == SH_PART_LIT) sh_buf_add(&b->out, p->u.lit.s, p->u.lit.n);
  /* delimiter without quotes */
  const char *raw = r->target->raw ? r->target->raw : "EOF";
  for (const char *c = raw; *c; c++)
    if (*c != '\'' && *c != '"' && *c != '\\') sh_buf_addc(&b->out, *c);
}

/* Ends a line with `connector` (" |", " && ", " &"; ";" and "" print
 * nothing) and writes the pending here-document bodies after it. Returns
 * whether there were any. */
static bool flush_heredocs(printer *b, const char *connector) {
  bool shown = connector[0] && strcmp(connector, ";") != 0;
  if (shown) sh_buf_adds(&b->out, connector);
  if (!b->npending) return false;
  sh_buf_addc(&b->out, '\n');
  for (size_t i = 0; i < b->npending; i++) {
    pbody(b, b->pending[i]);
    sh_buf_addc(&b->out, '\n');
  }
  b->npending = 0;
  if (shown) sh_buf_addc(&b->out, ' ');
  b->was_heredoc = true;
  return true;
}

/* Does the text end with a newline or `&` (where a `;` would be wrong)? */
static bool line_ended(const printer *b) {
  return b->out.len && (b->out.data[b->out.len - 1] == '\n' || b->out.data[b->out.len - 1] == '&');
}

/* The `;` that ends a clause (a condition before `then`/`do`, a body before
 * `fi`/`done`): here-document bodies end the line instead. */
static void clause_end(printer *b) {
  if (!flush_heredocs(b, "") && !line_ended(b)) sh_buf_addc(&b->out, ';');
}

/* The `;` between list items: as clause_end, and also left out (bash's
 * layout) at the first separator after bodies were written. */
static void semicolon(printer *b) {
  if (flush_heredocs(b, "")) return;
  if (b->was_heredoc) b->was_heredoc = false;
  else if (!line_ended(b)) sh_buf_addc(&b->out, ';');
}

static void indent(printer *b, int ind) {
  for (int i = 0; i < ind; i++) sh_buf_adds(&b->out, "    ");
}

/* `end` (";\n" or "\n": the end of the line before), then `text` on a new
 * line indented at `ind`. */
static void pline(printer *b, const char *end, int ind, const char *text) {
  if (*end == ';') {
    clause_end(b);
    end++;
  } else {
    flush_heredocs(b, "");
  }
  sh_buf_adds(&b->out, end);
  indent(b, ind);
  sh_buf_adds(&b->out, text);
}

static void plist_lines(printer *b, sh_node *n, int ind);

/* "do", the loop body one level in, "done": the tail of while, until, for,
 * select and for ((...)); the caller has printed up to where "do" goes. */
static void pdo_done(printer *b, sh_node *body, int ind) {
  sh_buf_adds(&b->out, "do\n");
  plist_lines(b, body, ind + 1);
  pline(b, ";\n", ind, "done");
}

static void pword(printer *b, const sh_word *w) {
  if (!w) return;
  if (w->raw) {
    sh_buf_adds(&b->out, w->raw);
    return;
  }
  for (const sh_part *p = w->parts; p; p = p->next) {
    switch (p->kind) {
    case SH_PART_LIT: sh_buf_add(&b->out, p->u.lit.s, p->u.lit.n); break;
    case SH_PART_QLIT: {
      sh_buf_addc(&b->out, '\'');
      sh_buf_add(&b->out, p->u.lit.s, p->u.lit.n);
      sh_buf_addc(&b->out, '\'');
      break;
    }
    case SH_PART_PARAM:
      if (p->u.param->name) {
        sh_buf_adds(&b->out, "${");
        sh_buf_adds(&b->out, p->u.param->name);
        sh_buf_adds(&b->out, "}");
      }
      break;
    default: sh_buf_adds(&b->out, "..."); break;
    }
  }
}

/* Redirections as bash prints them: the fd only where it is not the
 * operator's default, except that fd-to-fd duplications (2>&1, 0<&3) and
 * closes (always printed as N>&-) name both sides. */
static void predirs(printer *b, sh_redir *r) {
  static const char *const ops[] = {"<", ">", ">|", ">>", "<>", "<&", ">&", "<<", "<<<", "&>", "&>>"};
  if (r) b->was_heredoc = false; /* bash forgets it at any redirection */
  for (; r; r = r->next) {
    sh_buf_addc(&b->out, ' ');
    const char *op = ops[r->op];
    const char *t = r->target && r->target->raw ? r->target->raw : NULL;
    bool dup = r->op == SH_R_DUPIN || r->op == SH_R_DUPOUT;
    bool input = r->op == SH_R_IN || r->op == SH_R_RDWR || r->op == SH_R_DUPIN || r->op == SH_R_HEREDOC ||
                 r->op == SH_R_HERESTR;
    int fd = r->fd >= 0 ? r->fd : input ? 0 : 1;
    bool close = dup && t && !strcmp(t, "-");
    bool fd_to_fd = dup && t && *t && strspn(t, "0123456789") == strlen(t);
    if (close) op = ">&";
    if (r->fdvar) sh_buf_addf(&b->out, "{%s}", r->fdvar);
    else if (close || fd_to_fd || (r->fd >= 0 && fd != (input ? 0 : 1))) sh_buf_addf(&b->out, "%d", fd);
    if (r->op == SH_R_HEREDOC && r->heredoc_strip) op = "<<-";
    sh_buf_adds(&b->out, op);
    if (!dup && r->op != SH_R_HEREDOC) sh_buf_addc(&b->out, ' ');
    if (r->op != SH_R_HEREDOC || !r->heredoc) {
      pword(b, r->target);
      continue;
    }
    /* a quoted delimiter prints in single quotes, as bash does */
    if (r->heredoc_quoted) sh_buf_addc(&b->out, '\'');
    const char *raw = r->target->raw ? r->target->raw : "EOF";
    for (const char *c = raw; *c; c++)
      if (!r->heredoc_quoted || (*c != '\'' && *c != '"' && *c != '\\')) sh_buf_addc(&b->out, *c);
    if (r->heredoc_quoted) sh_buf_addc(&b->out, '\'');
    if (!b->bodies) continue;
    if (b->npending == b->cap) {
      b->cap = b->cap ? b->cap * 2 : 4;
      b->pending = sh_xrealloc(b->pending, b->cap * sizeof *b->pending);
    }
    b->pending[b->npending++] = r;
  }
}

/* A simple command's assignments, words and redirections on one line. */
static void psimple(printer *b, sh_node *n) {
  sh_simple *s = (sh_simple *)n;
  bool first = true;
  for (sh_assign *a = s->assigns; a; a = a->next) {
    if (!first) sh_buf_addc(&b->out, ' ');
    first = false;
    sh_buf_adds(&b->out, a->name);
    if (a->index) {
      sh_buf_addc(&b->out, '[');
      pword(b, a->index);
      sh_buf_addc(&b->out, ']');
    }
    sh_buf_adds(&b->out, a->append ? "+=" : "=");
    if (a->value && a->value->parts && a->value->parts->kind == SH_PART_ARRAY) {
      sh_part *arr = a->value->parts;
      sh_buf_addc(&b->out, '(');
      for (size_t i = 0; i < arr->u.array.n; i++) {
        if (i) sh_buf_addc(&b->out, ' ');
        if (arr->u.array.elems[i].key) {
          sh_buf_addc(&b->out, '[');
          pword(b, arr->u.array.elems[i].key);
          sh_buf_adds(&b->out, "]=");
        }
        pword(b, arr->u.array.elems[i].value);
      }
      sh_buf_addc(&b->out, ')');
    } else if (a->value) {
      const sh_word *v = a->value;
      if (v->raw) sh_buf_adds(&b->out, v->raw);
      else pword(b, v);
    }
  }
  for (size_t i = 0; i < s->nwords; i++) {
    if (!first) sh_buf_addc(&b->out, ' ');
    first = false;
    pword(b, s->words[i]);
  }
  predirs(b, n->redirs);
}

static void plist_inline(printer *b, sh_node *n, int ind) {
  if (n && n->kind == SH_N_LIST) {
    sh_list *l = (sh_list *)n;
    for (size_t i = 0; i < l->n; i++) {
      if (i && !l->items[i - 1].background && !flush_heredocs(b, ";")) sh_buf_adds(&b->out, "; ");
      else if (i && l->items[i - 1].background) sh_buf_addc(&b->out, ' ');
      pnode(b, l->items[i].cmd, ind);
      if (l->items[i].background) flush_heredocs(b, " &");
    }
    return;
  }
  pnode(b, n, ind);
}

/* A list as lines at `ind`, items separated by ";\n". */
static void plist_lines(printer *b, sh_node *n, int ind) {
  if (!n) return;
  if (n->kind != SH_N_LIST) {
    indent(b, ind);
    pnode(b, n, ind);
    return;
  }
  sh_list *l = (sh_list *)n;
  for (size_t i = 0; i < l->n; i++) {
    /* an item after `&` stays on its line: `sleep 1 & wait;` */
    if (i == 0 || !l->items[i - 1].background) indent(b, ind);
    pnode(b, l->items[i].cmd, ind);
    if (i + 1 == l->n) {
      if (l->items[i].background) flush_heredocs(b, " &");
    } else if (l->items[i].background) {
      flush_heredocs(b, " &");
      sh_buf_addc(&b->out, ' ');
    } else {
      semicolon(b);
      sh_buf_addc(&b->out, '\n');
    }
  }
}

static void pcond(printer *b, sh_cond_expr *e) {
  switch (e->kind) {
  case SH_C_AND: pcond(b, e->left); sh_buf_adds(&b->out, " && "); pcond(b, e->right); break;
  case SH_C_OR: pcond(b, e->left); sh_buf_adds(&b->out, " || "); pcond(b, e->right); break;
  case SH_C_NOT: sh_buf_adds(&b->out, "! "); pcond(b, e->left); break;
  case SH_C_WORD: pword(b, e->w1); break;
  case SH_C_UNARY: sh_buf_addf(&b->out, "%s ", e->op); pword(b, e->w1); break;
  case SH_C_BINARY: pword(b, e->w1); sh_buf_addf(&b->out, " %s ", e->op); pword(b, e->w2); break;
  }
}

static void pnode(printer *b, sh_node *n, int ind) {
  if (!n) return;
  switch (n->kind) {
  case SH_N_SIMPLE:
    psimple(b, n);
    return;
  case SH_N_PIPELINE: {
    sh_pipeline *p = (sh_pipeline *)n;
    if (p->bang) sh_buf_adds(&b->out, "! ");
    for (size_t i = 0; i < p->n; i++) {
      if (i) {
        flush_heredocs(b, p->pipe_err[i - 1] ? " |&" : " |");
        sh_buf_addc(&b->out, ' ');
      }
      pnode(b, p->cmds[i], ind);
    }
    return;
  }
  case SH_N_ANDOR: {
    sh_andor *a = (sh_andor *)n;
    pnode(b, a->left, ind);
    flush_heredocs(b, a->is_or ? " || " : " && ");
    pnode(b, a->right, ind);
    return;
  }
  case SH_N_LIST:
    plist_inline(b, n, ind);
    return;
  case SH_N_SUBSHELL:
    sh_buf_adds(&b->out, "( ");
    plist_inline(b, ((sh_block *)n)->body, ind);
    flush_heredocs(b, "");
    sh_buf_adds(&b->out, " )");
    break;
  case SH_N_GROUP:
    if (b->oneline) {
      sh_buf_adds(&b->out, "{ ");
      plist_inline(b, ((sh_block *)n)->body, ind);
      sh_buf_adds(&b->out, "; }");
      break;
    }
    sh_buf_adds(&b->out, "{ \n");
    plist_lines(b, ((sh_block *)n)->body, ind + 1);
    pline(b, "\n", ind, "}");
    break;
  case SH_N_IF: {
    sh_if *f = (sh_if *)n;
    sh_buf_adds(&b->out, "if ");
    plist_inline(b, f->cond, ind);
    clause_end(b);
    sh_buf_adds(&b->out, " then\n");
    plist_lines(b, f->then_part, ind + 1);
    clause_end(b);
    while (f->else_part) {
      pline(b, "\n", ind, "else\n");
      plist_lines(b, f->else_part, ind + 1);
      clause_end(b);
      break;
    }
    pline(b, "\n", ind, "fi");
    break;
  }
  case SH_N_LOOP: {
    sh_loop *l = (sh_loop *)n;
    sh_buf_adds(&b->out, l->until ? "until " : "while ");
    plist_inline(b, l->cond, ind);
    clause_end(b);
    sh_buf_addc(&b->out, ' ');
    pdo_done(b, l->body, ind);
    break;
  }
  case SH_N_FOR: {
    sh_for *f = (sh_for *)n;
    sh_buf_addf(&b->out, "%s %s", f->select ? "select" : "for", f->name);
    if (f->has_in) {
      sh_buf_adds(&b->out, " in");
      for (size_t i = 0; i < f->nwords; i++) {
        sh_buf_addc(&b->out, ' ');
        pword(b, f->words[i]);
      }
    }
    pline(b, ";\n", ind, "");
    pdo_done(b, f->body, ind);
    break;
  }
  case SH_N_CFOR: {
    sh_cfor *f = (sh_cfor *)n;
    sh_buf_adds(&b->out, "for ((");
    if (f->init) pword(b, f->init);
    sh_buf_adds(&b->out, "; ");
    if (f->cond) pword(b, f->cond);
    sh_buf_adds(&b->out, "; ");
    if (f->step) pword(b, f->step);
    pline(b, "))\n", ind, "");
    pdo_done(b, f->body, ind);
    break;
  }
  case SH_N_CASE: {
    sh_case *c = (sh_case *)n;
    sh_buf_adds(&b->out, "case ");
    pword(b, c->word);
    sh_buf_adds(&b->out, " in \n");
    for (size_t i = 0; i < c->n; i++) {
      sh_case_item *it = &c->items[i];
      indent(b, ind + 1);
      for (size_t k = 0; k < it->npatterns; k++) {
        if (k) sh_buf_adds(&b->out, " | ");
        pword(b, it->patterns[k]);
      }
      sh_buf_adds(&b->out, ")\n");
      if (it->body) {
        plist_lines(b, it->body, ind + 2);
        flush_heredocs(b, "");
        sh_buf_addc(&b->out, '\n');
      }
      indent(b, ind + 1);
      sh_buf_adds(&b->out, it->term == SH_CASE_BREAK ? ";;" : it->term == SH_CASE_FALL ? ";&" : ";;&");
      sh_buf_addc(&b->out, '\n');
    }
    pline(b, "", ind, "esac");
    break;
  }
  case SH_N_FUNCDEF: {
    sh_funcdef *f = (sh_funcdef *)n;
    sh_buf_addf(&b->out, "function %s () \n", f->name);
    indent(b, ind);
    pnode(b, f->body, ind);
    return;
  }
  case SH_N_ARITH:
    sh_buf_adds(&b->out, "(( ");
    pword(b, ((sh_arith_cmd *)n)->expr);
    sh_buf_adds(&b->out, " ))");
    break;
  case SH_N_COND:
    sh_buf_adds(&b->out, "[[ ");
    pcond(b, ((sh_cond *)n)->expr);
    sh_buf_adds(&b->out, " ]]");
    break;
  case SH_N_TIME:
    sh_buf_adds(&b->out, "time ");
    pnode(b, ((sh_time *)n)->pipeline, ind);
    return;
  }
  predirs(b, n->redirs);
}

void sh_note_command(sh_shell *sh, sh_node *n) {
  if (!sh->sess->note_commands || !n || sh->in_trap) return; /* traps keep the text */
  if (n->kind != SH_N_SIMPLE && n->kind != SH_N_ARITH && n->kind != SH_N_COND) return;
  printer b = {.out = sh->command_text}; /* no bodies: nothing is left pending */
  sh_buf_clear(&b.out);
  pnode(&b, n, 0);
  sh->command_text = b.out;
}

char *sh_node_text(sh_node *n) {
  printer b = {.oneline = true};
  pnode(&b, n, 0);
  /* other compound commands: their lines joined */
  sh_buf out = {0};
  for (size_t i = 0; i < b.out.len; i++) {
    if (b.out.data[i] != '\n') {
      sh_buf_addc(&out, b.out.data[i]);
      continue;
    }
    while (i + 1 < b.out.len && b.out.data[i + 1] == ' ') i++;
    if (out.len && out.data[out.len - 1] != ' ') sh_buf_addc(&out, ' ');
  }
  sh_buf_free(&b.out);
  free(b.pending);
  return sh_buf_steal(&out);
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

char *sh_func_text(sh_shell *sh, sh_func *f) {
  (void)sh;
  printer b = {.bodies = true};
  if (f) {
    sh_buf_addf(&b.out, "%s () \n", f->name);
    sh_node *body = f->def->body;
    if (body->kind == SH_N_GROUP) {
      sh_buf_adds(&b.out, "{ \n");
      plist_lines(&b, ((sh_block *)body)->body, 1);
      flush_heredocs(&b, "");
      sh_buf_adds(&b.out, "\n}");
      predirs(&b, body->redirs);
    } else {
      pnode(&b, body, 0);
    }
    flush_heredocs(&b, "");
  }
  free(b.pending);
  return sh_buf_steal(&b.out);
}
