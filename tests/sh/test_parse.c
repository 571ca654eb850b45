/*
 * test_parse.c - the shell parser: tree shapes, source positions, the first
 * syntax error with its line, and the nesting limits that keep hostile input
 * from overflowing the stack.
 */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "sh/parse.h"

/* Parses everything; returns the list node (or NULL) and the arena. */
static sh_node *parse_all(const char *src, sh_arena **arena, char **err, int *errline) {
  sh_parser *p = sh_parser_new(src, strlen(src), NULL);
  sh_node *n = NULL;
  int r = sh_parse_all(p, &n, arena);
  if (r < 0) {
    if (err) *err = strdup(sh_parser_error(p));
    if (errline) *errline = sh_parser_error_line(p);
  }
  sh_parser_free(p);
  return r < 0 ? NULL : n;
}

/* Parses src, which must parse: its list, the arena in *arena; NULL after
 * saying why when it does not parse. */
static sh_list *parse_ok(const char *src, sh_arena **arena) {
  char *err = NULL;
  sh_node *n = parse_all(src, arena, &err, NULL);
  if (!n || n->kind != SH_N_LIST) {
    fprintf(stderr, "  %s: %s\n", src, err ? err : "not a list");
    free(err);
    return NULL;
  }
  return sh_node_list(n);
}

TEST(simple_command_words_and_positions) {
  sh_arena *a = NULL;
  sh_list *l = parse_ok("echo hi there", &a);
  REQUIRE(l);
  CHECK_EQ(l->n, 1);
  sh_simple *s = sh_node_simple(l->items[0].cmd);
  CHECK_EQ(s->nwords, 3);
  CHECK_STR(s->words[0]->lit, "echo");
  CHECK_STR(s->words[2]->lit, "there");
  CHECK_EQ(s->words[1]->line, 1);
  CHECK_EQ(s->words[1]->col, 6);
  sh_arena_unref(a);
}

TEST(lines_and_columns_across_lines) {
  sh_arena *a = NULL;
  sh_list *l = parse_ok("true\n\n  if x; then\n    y\n  fi\n", &a);
  REQUIRE(l && l->n == 2);
  sh_node *ifn = l->items[1].cmd;
  CHECK_EQ(ifn->kind, SH_N_IF);
  CHECK_EQ(ifn->line, 3);
  CHECK_EQ(ifn->col, 3);
  sh_list *then = sh_node_list(sh_node_if(ifn)->then_part);
  CHECK_EQ(then->items[0].cmd->line, 4);
  CHECK_EQ(then->items[0].cmd->col, 5);
  sh_arena_unref(a);
}

TEST(pipeline_andor_and_background) {
  sh_arena *a = NULL;
  sh_list *l = parse_ok("a | b |& c && d || e & f", &a);
  REQUIRE(l && l->n == 2);
  CHECK(l->items[0].background);
  CHECK(!l->items[1].background);
  sh_andor *o = sh_node_andor(l->items[0].cmd);
  CHECK(o->is_or);
  sh_andor *andn = sh_node_andor(o->left);
  CHECK(!andn->is_or);
  sh_pipeline *p = sh_node_pipeline(andn->left);
  CHECK_EQ(p->n, 3);
  CHECK(!p->pipe_err[0]);
  CHECK(p->pipe_err[1]);
  sh_arena_unref(a);
}

TEST(word_parts_quotes_and_expansions) {
  sh_arena *a = NULL;
  sh_list *l = parse_ok("echo 'a b'\"$x ${y:-z}\"$(c)`d`$((1+2))", &a);
  REQUIRE(l);
  sh_simple *s = sh_node_simple(l->items[0].cmd);
  sh_part *p = s->words[1]->parts;
  REQUIRE(p);
  CHECK_EQ(p->kind, SH_PART_QLIT);
  CHECK(p->u.lit.n == 3 && memcmp(p->u.lit.s, "a b", 3) == 0);
  p = p->next;
  REQUIRE(p && p->kind == SH_PART_DQUOTE);
  sh_part *c = p->u.children;
  while (c && c->kind != SH_PART_PARAM) c = c->next;
  REQUIRE(c);
  CHECK_STR(c->u.param->name, "x");
  c = c->next;
  while (c && c->kind != SH_PART_PARAM) c = c->next;
  REQUIRE(c);
  CHECK_STR(c->u.param->name, "y");
  CHECK_EQ(c->u.param->op, SH_POP_DEFAULT);
  CHECK(c->u.param->colon);
  p = p->next;
  REQUIRE(p && p->kind == SH_PART_CMDSUB);
  CHECK(!p->u.cmd.backquote);
  p = p->next;
  REQUIRE(p && p->kind == SH_PART_CMDSUB);
  CHECK(p->u.cmd.backquote);
  p = p->next;
  REQUIRE(p && p->kind == SH_PART_ARITH);
  sh_arena_unref(a);
}

TEST(assignments_arrays_and_redirections) {
  sh_arena *a = NULL;
  sh_list *l = parse_ok("x=1 a[2]+=v b=(p [k]=q) cmd 2>&1 >out <<<s {fd}>f", &a);
  REQUIRE(l);
  sh_simple *s = sh_node_simple(l->items[0].cmd);
  REQUIRE(s->assigns);
  CHECK_STR(s->assigns->name, "x");
  sh_assign *a2 = s->assigns->next;
  REQUIRE(a2);
  CHECK_STR(a2->name, "a");
  CHECK(a2->index != NULL);
  CHECK(a2->append);
  sh_assign *a3 = a2->next;
  REQUIRE(a3 && a3->value && a3->value->parts);
  CHECK_EQ(a3->value->parts->kind, SH_PART_ARRAY);
  CHECK_EQ(a3->value->parts->u.array.n, 2);
  CHECK(a3->value->parts->u.array.elems[1].key != NULL);
  CHECK_EQ(s->nwords, 1);
  sh_redir *r = s->base.redirs;
  REQUIRE(r);
  CHECK_EQ(r->op, SH_R_DUPOUT);
  CHECK_EQ(r->fd, 2);
  r = r->next;
  REQUIRE(r);
  CHECK_EQ(r->op, SH_R_OUT);
  r = r->next;
  REQUIRE(r);
  CHECK_EQ(r->op, SH_R_HERESTR);
  r = r->next;
  REQUIRE(r);
  CHECK_STR(r->fdvar, "fd");
  sh_arena_unref(a);
}

TEST(heredoc_bodies_quoted_and_stripped) {
  sh_arena *a = NULL;
  sh_list *l = parse_ok("cat <<EOF; cat <<-'X'\nhello $y\nEOF\n\tliteral $z\n\tX\n", &a);
  REQUIRE(l && l->n == 2);
  sh_redir *r1 = sh_node_simple(l->items[0].cmd)->base.redirs;
  sh_redir *r2 = sh_node_simple(l->items[1].cmd)->base.redirs;
  REQUIRE(r1 && r2 && r1->heredoc && r2->heredoc);
  CHECK(!r1->heredoc_quoted);
  CHECK(r2->heredoc_quoted);
  CHECK(r2->heredoc_strip);
  sh_part *p = r2->heredoc->parts;
  REQUIRE(p && p->kind == SH_PART_QLIT);
  CHECK(p->u.lit.n == strlen("literal $z\n") && memcmp(p->u.lit.s, "literal $z\n", p->u.lit.n) == 0);
  sh_arena_unref(a);
}

TEST(compound_commands) {
  sh_arena *a = NULL;
  sh_list *l = parse_ok(
      "for i in 1 2; do :; done; for ((i=0;i<3;i++)); do :; done\n"
      "while false; do :; done; until true; do :; done\n"
      "case x in a|b) ;; *) echo;& esac; f() { :; }; (( x++ )); [[ -n $x && a == b* ]]\n"
      "select s in a; do break; done; function g { :; }; time ( : )",
      &a);
  REQUIRE(l && l->n == 11);
  CHECK_EQ(l->items[0].cmd->kind, SH_N_FOR);
  CHECK_EQ(l->items[1].cmd->kind, SH_N_CFOR);
  CHECK_EQ(l->items[2].cmd->kind, SH_N_LOOP);
  CHECK(sh_node_loop(l->items[3].cmd)->until);
  sh_case *c = sh_node_case(l->items[4].cmd);
  CHECK_EQ(c->n, 2);
  CHECK_EQ(c->items[0].npatterns, 2);
  CHECK_EQ(c->items[1].term, SH_CASE_FALL);
  CHECK_EQ(l->items[5].cmd->kind, SH_N_FUNCDEF);
  CHECK_EQ(l->items[6].cmd->kind, SH_N_ARITH);
  sh_cond *cond = sh_node_cond(l->items[7].cmd);
  CHECK_EQ(cond->expr->kind, SH_C_AND);
  CHECK_STR(cond->expr->right->op, "==");
  CHECK(sh_node_for(l->items[8].cmd)->select);
  CHECK_STR(sh_node_funcdef(l->items[9].cmd)->name, "g");
  CHECK_EQ(l->items[10].cmd->kind, SH_N_TIME);
  sh_arena_unref(a);
}

/* Checks that src does not parse and that the first error says msg (exactly,
 * or as a part of it when part is set) on line (0: not checked); a failure
 * names the source (its first 60 bytes). */
static void check_syntax_error(const char *src, const char *msg, int part, int line) {
  char *err = NULL;
  int errline = 0;
  sh_arena *a = NULL;
  sh_node *n = parse_all(src, &a, &err, &errline);
  int ok = !n && err && (part ? strstr(err, msg) != NULL : strcmp(err, msg) == 0) &&
           (!line || errline == line);
  if (!ok)
    fprintf(stderr, "  source \"%.60s\": got \"%s\" on line %d, want \"%s\" on line %d\n",
            src, err ? err : "(parsed)", errline, msg, line);
  CHECK(ok);
  if (n) sh_arena_unref(a);
  free(err);
}

TEST(syntax_error_messages_have_the_line) {
  static const struct {
    const char *src; /* the source */
    const char *msg; /* the first error */
    int part;        /* msg is a part of the error, not all of it */
    int line;        /* the error's line, 0: not checked */
  } cases[] = {
      {"echo ok\nif true; then\n  echo x\nfi fi\n",
       "syntax error near unexpected token `fi'", 0, 4},
      {"echo 'unterminated\n", "unexpected EOF while looking for matching `''", 1, 1},
      {"while true; do\n echo\n", "syntax error: unexpected end of file", 0, 0},
      {"echo )", "syntax error near unexpected token `)'", 0, 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    check_syntax_error(cases[i].src, cases[i].msg, cases[i].part, cases[i].line);
}

TEST(incremental_parse_runs_line_by_line) {
  const char *src = "echo one\necho two; echo three\nfi\necho four\n";
  sh_parser *p = sh_parser_new(src, strlen(src), NULL);
  sh_node *n;
  sh_arena *a;
  CHECK_EQ(sh_parse_next(p, &n, &a), 1);
  CHECK_EQ(sh_node_list(n)->n, 1);
  sh_arena_unref(a);
  CHECK_EQ(sh_parse_next(p, &n, &a), 1);
  CHECK_EQ(sh_node_list(n)->n, 2);
  sh_arena_unref(a);
  CHECK_EQ(sh_parse_next(p, &n, &a), -1); /* the error comes only now */
  CHECK_EQ(sh_parser_error_line(p), 3);
  sh_parser_free(p);
}

TEST(deep_nesting_is_an_error_not_a_crash) {
  /* 100,000 nested subshells: "( ( ( ... echo ) ) )" */
  char *src = harness_nested("", "( ", "echo", " )", "", 100000);
  REQUIRE(src);
  check_syntax_error(src, "nesting depth", 1, 0);
  free(src);
  /* 100,000 nested command substitutions */
  src = harness_nested("", "$(", "", ")", "", 100000);
  REQUIRE(src);
  check_syntax_error(src, "nesting depth", 1, 0);
  free(src);
}

TEST(parse_check_for_the_prompt) {
  CHECK_EQ(sh_parse_check("echo hi\n", 8), 1);
  CHECK_EQ(sh_parse_check("if true; then\n", 14), 0);
  CHECK_EQ(sh_parse_check("echo 'a\n", 8), 0);
  CHECK_EQ(sh_parse_check("echo )\n", 7), -1);
}

int main(int argc, char **argv) {
  harness_init(argc, argv);
  RUN(simple_command_words_and_positions);
  RUN(lines_and_columns_across_lines);
  RUN(pipeline_andor_and_background);
  RUN(word_parts_quotes_and_expansions);
  RUN(assignments_arrays_and_redirections);
  RUN(heredoc_bodies_quoted_and_stripped);
  RUN(compound_commands);
  RUN(syntax_error_messages_have_the_line);
  RUN(incremental_parse_runs_line_by_line);
  RUN(deep_nesting_is_an_error_not_a_crash);
  RUN(parse_check_for_the_prompt);
  return harness_done();
}
