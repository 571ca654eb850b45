/*
 * print.c - turns a syntax tree back into shell text, in bash's layout, for
 * `type f`, `declare -f` and `declare -F`. Words print as they were written
 * (the lexer keeps each word's source text), commands are re-laid out with
 * four-space indentation and `;` between list items the way bash does.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sh/sh.h"

static void pnode(sh_buf *b, sh_node *n, int ind);

static void indent(sh_buf *b, int ind) {
  for (int i = 0; i < ind; i++) sh_buf_adds(b, "    ");
}

/* `end` (";\n" or "\n": the end of the line before), then `text` on a new
 * line indented at `ind`. */
static void pline(sh_buf *b, const char *end, int ind, const char *text) {
  sh_buf_adds(b, end);
  indent(b, ind);
  sh_buf_adds(b, text);
}

static void plist_lines(sh_buf *b, sh_node *n, int ind);

/* "do", the loop body one level in, "done": the tail of while, until, for,
 * select and for ((...)); the caller has printed up to where "do" goes. */
static void pdo_done(sh_buf *b, sh_node *body, int ind) {
  sh_buf_adds(b, "do\n");
  plist_lines(b, body, ind + 1);
  pline(b, ";\n", ind, "done");
}

static void pword(sh_buf *b, const sh_word *w) {
  if (!w) return;
  if (w->raw) {
    sh_buf_adds(b, w->raw);
    return;
  }
  for (const sh_part *p = w->parts; p; p = p->next) {
    switch (p->kind) {
    case SH_PART_LIT: sh_buf_add(b, p->u.lit.s, p->u.lit.n); break;
    case SH_PART_QLIT: {
      sh_buf_addc(b, '\'');
      sh_buf_add(b, p->u.lit.s, p->u.lit.n);
      sh_buf_addc(b, '\'');
      break;
    }
    case SH_PART_PARAM:
      if (p->u.param->name) {
        sh_buf_adds(b, "${");
        sh_buf_adds(b, p->u.param->name);
        sh_buf_adds(b, "}");
      }
      break;
    default: sh_buf_adds(b, "..."); break;
    }
  }
}

static void predirs(sh_buf *b, sh_redir *r) {
  for (; r; r = r->next) {
    sh_buf_addc(b, ' ');
    if (r->fdvar) sh_buf_addf(b, "{%s}", r->fdvar);
    else if (r->fd >= 0) sh_buf_addf(b, "%d", r->fd);
    static const char *const ops[] = {"<", ">", ">|", ">>", "<>", "<&", ">&", "<<", "<<<", "&>", "&>>"};
    const char *op = ops[r->op];
    if (r->op == SH_R_HEREDOC && r->heredoc_strip) op = "<<-";
    sh_buf_adds(b, op);
    if (r->op != SH_R_DUPIN && r->op != SH_R_DUPOUT && r->op != SH_R_HEREDOC && r->op != SH_R_HERESTR)
      sh_buf_addc(b, ' ');
    pword(b, r->target);
  }
}

static void heredoc_bodies(sh_buf *b, sh_redir *r) {
  for (; r; r = r->next) {
    if (r->op != SH_R_HEREDOC || !r->heredoc) continue;
    sh_buf_addc(b, '\n');
    for (const sh_part *p = r->heredoc->parts; p; p = p->next)
      if (p->kind == SH_PART_QLIT || p->kind == SH_PART_LIT) sh_buf_add(b, p->u.lit.s, p->u.lit.n);
    /* delimiter without quotes */
    const char *raw = r->target->raw ? r->target->raw : "EOF";
    for (const char *c = raw; *c; c++)
      if (*c != '\'' && *c != '"' && *c != '\\') sh_buf_addc(b, *c);
  }
}

static void plist_inline(sh_buf *b, sh_node *n, int ind) {
  if (n && n->kind == SH_N_LIST) {
    sh_list *l = (sh_list *)n;
    for (size_t i = 0; i < l->n; i++) {
      if (i) sh_buf_adds(b, "; ");
      pnode(b, l->items[i].cmd, ind);
      if (l->items[i].background) sh_buf_adds(b, " &");
    }
    return;
  }
  pnode(b, n, ind);
}

/* A list as lines at `ind`, items separated by ";\n". */
static void plist_lines(sh_buf *b, sh_node *n, int ind) {
  if (!n) return;
  if (n->kind != SH_N_LIST) {
    indent(b, ind);
    pnode(b, n, ind);
    return;
  }
  sh_list *l = (sh_list *)n;
  for (size_t i = 0; i < l->n; i++) {
    indent(b, ind);
    pnode(b, l->items[i].cmd, ind);
    if (l->items[i].background) sh_buf_adds(b, " &");
    if (i + 1 < l->n) sh_buf_adds(b, l->items[i].background ? "\n" : ";\n");
  }
}

static void pcond(sh_buf *b, sh_cond_expr *e) {
  switch (e->kind) {
  case SH_C_AND: pcond(b, e->left); sh_buf_adds(b, " && "); pcond(b, e->right); break;
  case SH_C_OR: pcond(b, e->left); sh_buf_adds(b, " || "); pcond(b, e->right); break;
  case SH_C_NOT: sh_buf_adds(b, "! "); pcond(b, e->left); break;
  case SH_C_WORD: pword(b, e->w1); break;
  case SH_C_UNARY: sh_buf_addf(b, "%s ", e->op); pword(b, e->w1); break;
  case SH_C_BINARY: pword(b, e->w1); sh_buf_addf(b, " %s ", e->op); pword(b, e->w2); break;
  }
}

static void pnode(sh_buf *b, sh_node *n, int ind) {
  if (!n) return;
  switch (n->kind) {
  case SH_N_SIMPLE: {
    sh_simple *s = (sh_simple *)n;
    bool first = true;
    for (sh_assign *a = s->assigns; a; a = a->next) {
      if (!first) sh_buf_addc(b, ' ');
      first = false;
      sh_buf_adds(b, a->name);
      if (a->index) {
        sh_buf_addc(b, '[');
        pword(b, a->index);
        sh_buf_addc(b, ']');
      }
      sh_buf_adds(b, a->append ? "+=" : "=");
      if (a->value && a->value->parts && a->value->parts->kind == SH_PART_ARRAY) {
        sh_part *arr = a->value->parts;
        sh_buf_addc(b, '(');
        for (size_t i = 0; i < arr->u.array.n; i++) {
          if (i) sh_buf_addc(b, ' ');
          if (arr->u.array.elems[i].key) {
            sh_buf_addc(b, '[');
            pword(b, arr->u.array.elems[i].key);
            sh_buf_adds(b, "]=");
          }
          pword(b, arr->u.array.elems[i].value);
        }
        sh_buf_addc(b, ')');
      } else if (a->value) {
        const sh_word *v = a->value;
        if (v->raw) sh_buf_adds(b, v->raw);
        else pword(b, v);
      }
    }
    for (size_t i = 0; i < s->nwords; i++) {
      if (!first) sh_buf_addc(b, ' ');
      first = false;
      pword(b, s->words[i]);
    }
    predirs(b, n->redirs);
    heredoc_bodies(b, n->redirs);
    return;
  }
  case SH_N_PIPELINE: {
    sh_pipeline *p = (sh_pipeline *)n;
    if (p->bang) sh_buf_adds(b, "! ");
    for (size_t i = 0; i < p->n; i++) {
      if (i) sh_buf_adds(b, p->pipe_err[i - 1] ? " |& " : " | ");
      pnode(b, p->cmds[i], ind);
    }
    return;
  }
  case SH_N_ANDOR: {
    sh_andor *a = (sh_andor *)n;
    pnode(b, a->left, ind);
    sh_buf_adds(b, a->is_or ? " || " : " && ");
    pnode(b, a->right, ind);
    return;
  }
  case SH_N_LIST:
    plist_inline(b, n, ind);
    return;
  case SH_N_SUBSHELL:
    sh_buf_adds(b, "( ");
    plist_inline(b, ((sh_block *)n)->body, ind);
    sh_buf_adds(b, " )");
    break;
  case SH_N_GROUP:
    sh_buf_adds(b, "{ \n");
    plist_lines(b, ((sh_block *)n)->body, ind + 1);
    pline(b, "\n", ind, "}");
    break;
  case SH_N_IF: {
    sh_if *f = (sh_if *)n;
    sh_buf_adds(b, "if ");
    plist_inline(b, f->cond, ind);
    sh_buf_adds(b, "; then\n");
    plist_lines(b, f->then_part, ind + 1);
    sh_buf_addc(b, ';');
    while (f->else_part) {
      pline(b, "\n", ind, "else\n");
      plist_lines(b, f->else_part, ind + 1);
      sh_buf_addc(b, ';');
      break;
    }
    pline(b, "\n", ind, "fi");
    break;
  }
  case SH_N_LOOP: {
    sh_loop *l = (sh_loop *)n;
    sh_buf_adds(b, l->until ? "until " : "while ");
    plist_inline(b, l->cond, ind);
    sh_buf_adds(b, "; ");
    pdo_done(b, l->body, ind);
    break;
  }
  case SH_N_FOR: {
    sh_for *f = (sh_for *)n;
    sh_buf_addf(b, "%s %s", f->select ? "select" : "for", f->name);
    if (f->has_in) {
      sh_buf_adds(b, " in");
      for (size_t i = 0; i < f->nwords; i++) {
        sh_buf_addc(b, ' ');
        pword(b, f->words[i]);
      }
    }
    pline(b, ";\n", ind, "");
    pdo_done(b, f->body, ind);
    break;
  }
  case SH_N_CFOR: {
    sh_cfor *f = (sh_cfor *)n;
    sh_buf_adds(b, "for ((");
    if (f->init) pword(b, f->init);
    sh_buf_adds(b, "; ");
    if (f->cond) pword(b, f->cond);
    sh_buf_adds(b, "; ");
    if (f->step) pword(b, f->step);
    pline(b, "))\n", ind, "");
    pdo_done(b, f->body, ind);
    break;
  }
  case SH_N_CASE: {
    sh_case *c = (sh_case *)n;
    sh_buf_adds(b, "case ");
    pword(b, c->word);
    sh_buf_adds(b, " in \n");
    for (size_t i = 0; i < c->n; i++) {
      sh_case_item *it = &c->items[i];
      indent(b, ind + 1);
      for (size_t k = 0; k < it->npatterns; k++) {
        if (k) sh_buf_adds(b, " | ");
        pword(b, it->patterns[k]);
      }
      sh_buf_adds(b, ")\n");
      if (it->body) {
        plist_lines(b, it->body, ind + 2);
        sh_buf_addc(b, '\n');
      }
      indent(b, ind + 1);
      sh_buf_adds(b, it->term == SH_CASE_BREAK ? ";;" : it->term == SH_CASE_FALL ? ";&" : ";;&");
      sh_buf_addc(b, '\n');
    }
    pline(b, "", ind, "esac");
    break;
  }
  case SH_N_FUNCDEF: {
    sh_funcdef *f = (sh_funcdef *)n;
    sh_buf_addf(b, "function %s () \n", f->name);
    indent(b, ind);
    pnode(b, f->body, ind);
    return;
  }
  case SH_N_ARITH:
    sh_buf_adds(b, "(( ");
    pword(b, ((sh_arith_cmd *)n)->expr);
    sh_buf_adds(b, " ))");
    break;
  case SH_N_COND:
    sh_buf_adds(b, "[[ ");
    pcond(b, ((sh_cond *)n)->expr);
    sh_buf_adds(b, " ]]");
    break;
  case SH_N_TIME:
    sh_buf_adds(b, "time ");
    pnode(b, ((sh_time *)n)->pipeline, ind);
    return;
  }
  predirs(b, n->redirs);
}

char *sh_func_text(sh_shell *sh, sh_func *f) {
  (void)sh;
  sh_buf b = {0};
  if (!f) return sh_buf_steal(&b);
  sh_buf_addf(&b, "%s () \n", f->name);
  sh_node *body = f->def->body;
  if (body->kind == SH_N_GROUP) {
    sh_buf_adds(&b, "{ \n");
    plist_lines(&b, ((sh_block *)body)->body, 1);
    sh_buf_adds(&b, "\n}");
    predirs(&b, body->redirs);
  } else {
    pnode(&b, body, 0);
  }
  return sh_buf_steal(&b);
}
