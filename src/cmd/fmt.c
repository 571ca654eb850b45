/*
 * fmt - simple optimal text formatter (GNU coreutils 9.1).
 *
 *   Usage: fmt [-WIDTH] [OPTION]... [FILE]...
 *   -c, --crown-margin     preserve indentation of first two lines
 *   -p, --prefix=STRING    reformat only lines beginning with STRING
 *   -s, --split-only       split long lines, but do not refill
 *   -t, --tagged-paragraph indentation of first line different from second
 *   -u, --uniform-spacing  one space between words, two after sentences
 *   -w, --width=WIDTH      maximum line width (default of 75 columns)
 *   -g, --goal=WIDTH       goal width (default of 93% of width)
 *
 * Design: GNU fmt's algorithm, re-implemented: a paragraph is read into a
 * word table (text, length, trailing space, sentence/punctuation flags),
 * then lines are chosen by dynamic programming over break points with GNU's
 * cost model (squared shortfall from the goal, raggedness against the next
 * line, bonuses for breaking after sentences and punctuation, penalties for
 * widows and orphans), so the output matches GNU line for line. Paragraphs
 * longer than the word table (1000 words / 5000 bytes) are flushed at a cheap
 * break, as GNU does. Columns count bytes (GNU fmt is not multibyte-aware);
 * tabs are 8 wide and indentation is re-emitted with tabs when the input used
 * them.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/lib/gnu.h"

CMD_DEFINE("fmt", cmd_fmt_main);

#define FMT_MAXWORDS 1000
#define FMT_MAXCHARS 5000
#define FMT_TAB 8
#define FMT_DEF_INDENT 3
#define FMT_LEEWAY 7

typedef long long fmt_cost;
#define FMT_MAXCOST LLONG_MAX
#define EQUIV(n) ((fmt_cost)(n) * (fmt_cost)(n))
#define SHORT_COST(n) EQUIV((n) * 10)
#define RAGGED_COST(n) (SHORT_COST(n) / 2)
#define LINE_COST EQUIV(70)
#define SENTENCE_BONUS EQUIV(50)
#define NOBREAK_COST EQUIV(600)
#define PAREN_BONUS EQUIV(40)
#define PUNCT_BONUS EQUIV(40)
#define LINE_CREDIT EQUIV(3)
#define WIDOW_COST(n) (EQUIV(200) / ((n) + 2))
#define ORPHAN_COST(n) (EQUIV(150) / ((n) + 2))

typedef struct fmt_word {
  const char *text;        /* into parabuf */
  int length;              /* bytes */
  int space;               /* columns of space after it */
  bool paren, period, punct, final; /* punctuation flags */
  int line_length;         /* length of the line starting here */
  fmt_cost best_cost;      /* cost of the best paragraph from here */
  struct fmt_word *next_break; /* where the line starting here ends */
} fmt_word;

typedef struct fmt_state {
  cmd_ctx *ctx;
  cmd_in *in;               /* current input */
  unsigned char *rbuf;      /* read buffer */
  size_t rpos, rlen;
  int read_err;
  /* options */
  bool crown, tagged, split_lines, uniform;
  const char *prefix;       /* -p (trailing blanks removed) */
  int prefix_full_length, prefix_lead_space, prefix_length;
  int max_width, goal_width;
  /* state */
  bool tabs;                /* the input used tabs */
  int prefix_indent, first_indent, other_indent;
  int next_char, next_prefix_indent, last_line_length;
  int in_column, out_column;
  char parabuf[FMT_MAXCHARS];
  char *wptr;
  fmt_word word[FMT_MAXWORDS];
  fmt_word *word_limit;
} fmt_state;

static int fmt_getc(fmt_state *st) {
  if (st->rpos == st->rlen) {
    ssize_t n = cmd_in_read(st->in, st->rbuf, 65536);
    if (n < 0) st->read_err = (int)n;
    if (n <= 0) return EOF;
    st->rlen = (size_t)n;
    st->rpos = 0;
  }
  return st->rbuf[st->rpos++];
}

static void fmt_putc(fmt_state *st, int c) { cmd_outc(st->ctx, c); }

static bool fmt_isspace(int c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

static void fmt_put_space(fmt_state *st, int space) {
  int target = st->out_column + space;
  if (st->tabs) {
    int tab_target = target / FMT_TAB * FMT_TAB;
    if (st->out_column + 1 < tab_target)
      while (st->out_column < tab_target) {
        fmt_putc(st, '\t');
        st->out_column = (st->out_column / FMT_TAB + 1) * FMT_TAB;
      }
  }
  while (st->out_column < target) {
    fmt_putc(st, ' ');
    st->out_column++;
  }
}

static int fmt_get_space(fmt_state *st, int c) {
  for (;;) {
    if (c == ' ') {
      st->in_column++;
    } else if (c == '\t') {
      st->tabs = true;
      st->in_column = (st->in_column / FMT_TAB + 1) * FMT_TAB;
    } else {
      return c;
    }
    c = fmt_getc(st);
  }
}

static int fmt_get_prefix(fmt_state *st) {
  st->in_column = 0;
  int c = fmt_get_space(st, fmt_getc(st));
  if (st->prefix_length == 0) {
    st->next_prefix_indent =
        st->prefix_lead_space < st->in_column ? st->prefix_lead_space : st->in_column;
  } else {
    st->next_prefix_indent = st->in_column;
    for (const char *p = st->prefix; *p; p++) {
      if (c != (unsigned char)*p) return c;
      st->in_column++;
      c = fmt_getc(st);
    }
    c = fmt_get_space(st, c);
  }
  return c;
}

static int fmt_copy_rest(fmt_state *st, int c) {
  st->out_column = 0;
  if (st->in_column > st->next_prefix_indent || (c != '\n' && c != EOF)) {
    fmt_put_space(st, st->next_prefix_indent);
    for (const char *s = st->prefix; st->out_column != st->in_column && *s; st->out_column++)
      fmt_putc(st, (unsigned char)*s++);
    if (c != EOF && c != '\n') fmt_put_space(st, st->in_column - st->out_column);
    if (c == EOF && st->in_column >= st->next_prefix_indent + st->prefix_length)
      fmt_putc(st, '\n');
  }
  while (c != '\n' && c != EOF) {
    fmt_putc(st, c);
    c = fmt_getc(st);
  }
  return c;
}

static bool fmt_same_paragraph(fmt_state *st, int c) {
  return st->next_prefix_indent == st->prefix_indent &&
         st->in_column >= st->next_prefix_indent + st->prefix_full_length && c != '\n' &&
         c != EOF;
}

static void fmt_set_other_indent(fmt_state *st, bool same) {
  if (st->split_lines) {
    st->other_indent = st->first_indent;
  } else if (st->crown) {
    st->other_indent = same ? st->in_column : st->first_indent;
  } else if (st->tagged) {
    if (same && st->in_column != st->first_indent) st->other_indent = st->in_column;
    else if (st->other_indent == st->first_indent)
      st->other_indent = st->first_indent == 0 ? FMT_DEF_INDENT : 0;
  } else {
    st->other_indent = st->first_indent;
  }
}

static void fmt_check_punctuation(fmt_word *w) {
  const char *start = w->text, *finish = start + (w->length - 1);
  unsigned char fin = (unsigned char)*finish;
  w->paren = strchr("(['`\"", *start) != NULL && *start;
  w->punct = (fin >= 0x21 && fin <= 0x2f) || (fin >= 0x3a && fin <= 0x40) ||
             (fin >= 0x5b && fin <= 0x60) || (fin >= 0x7b && fin <= 0x7e);
  while (start < finish && *finish && strchr(")]'\"", *finish)) finish--;
  w->period = *finish && strchr(".?!", *finish) != NULL;
}

static fmt_cost fmt_base_cost(fmt_state *st, fmt_word *this) {
  fmt_cost cost = LINE_COST;
  if (this > st->word) {
    if ((this - 1)->period) {
      if ((this - 1)->final) cost -= SENTENCE_BONUS;
      else cost += NOBREAK_COST;
    } else if ((this - 1)->punct) {
      cost -= PUNCT_BONUS;
    } else if (this > st->word + 1 && (this - 2)->final) {
      cost += WIDOW_COST((this - 1)->length);
    }
  }
  if (this->paren) cost -= PAREN_BONUS;
  else if (this->final) cost += ORPHAN_COST(this->length);
  return cost;
}

static fmt_cost fmt_line_cost(fmt_state *st, fmt_word *next, int len) {
  if (next == st->word_limit) return 0;
  int n = st->goal_width - len;
  fmt_cost cost = SHORT_COST(n);
  if (next->next_break != st->word_limit) {
    n = len - next->line_length;
    cost += RAGGED_COST(n);
  }
  return cost;
}

static void fmt_paragraph(fmt_state *st) {
  st->word_limit->best_cost = 0;
  int saved = st->word_limit->length;
  st->word_limit->length = st->max_width; /* sentinel */
  for (fmt_word *start = st->word_limit - 1; start >= st->word; start--) {
    fmt_cost best = FMT_MAXCOST;
    int len = start == st->word ? st->first_indent : st->other_indent;
    fmt_word *w = start;
    len += w->length;
    do {
      w++;
      fmt_cost wcost = fmt_line_cost(st, w, len) + w->best_cost;
      if (start == st->word && st->last_line_length > 0)
        wcost += RAGGED_COST(len - st->last_line_length);
      if (wcost < best) {
        best = wcost;
        start->next_break = w;
        start->line_length = len;
      }
      if (w == st->word_limit) break;
      len += (w - 1)->space + w->length;
    } while (len < st->max_width);
    start->best_cost = best + fmt_base_cost(st, start);
  }
  st->word_limit->length = saved;
}

static void fmt_put_word(fmt_state *st, fmt_word *w) {
  cmd_out(st->ctx, w->text, (size_t)w->length);
  st->out_column += w->length;
}

static void fmt_put_line(fmt_state *st, fmt_word *w, int indent) {
  st->out_column = 0;
  fmt_put_space(st, st->prefix_indent);
  cmd_outs(st->ctx, st->prefix);
  st->out_column += st->prefix_length;
  fmt_put_space(st, indent - st->out_column);
  fmt_word *endline = w->next_break - 1;
  for (; w != endline; w++) {
    fmt_put_word(st, w);
    fmt_put_space(st, w->space);
  }
  fmt_put_word(st, w);
  st->last_line_length = st->out_column;
  fmt_putc(st, '\n');
}

static void fmt_put_paragraph(fmt_state *st, fmt_word *finish) {
  fmt_put_line(st, st->word, st->first_indent);
  for (fmt_word *w = st->word->next_break; w != finish; w = w->next_break)
    fmt_put_line(st, w, st->other_indent);
}

static void fmt_flush_paragraph(fmt_state *st) {
  if (st->word_limit == st->word) {
    cmd_out(st->ctx, st->parabuf, (size_t)(st->wptr - st->parabuf));
    st->wptr = st->parabuf;
    return;
  }
  fmt_paragraph(st);
  fmt_word *split_point = st->word_limit;
  fmt_cost best_break = FMT_MAXCOST;
  for (fmt_word *w = st->word->next_break; w != st->word_limit; w = w->next_break) {
    if (w->best_cost - w->next_break->best_cost < best_break) {
      split_point = w;
      best_break = w->best_cost - w->next_break->best_cost;
    }
    if (best_break <= FMT_MAXCOST - LINE_CREDIT) best_break += LINE_CREDIT;
  }
  fmt_put_paragraph(st, split_point);
  ptrdiff_t shift = split_point->text - st->parabuf;
  memmove(st->parabuf, split_point->text, (size_t)(st->wptr - split_point->text));
  st->wptr -= shift;
  for (fmt_word *w = split_point; w <= st->word_limit; w++) w->text -= shift;
  memmove(st->word, split_point, (size_t)(st->word_limit - split_point + 1) * sizeof *st->word);
  st->word_limit -= split_point - st->word;
}

static int fmt_get_line(fmt_state *st, int c) {
  char *end_of_parabuf = &st->parabuf[FMT_MAXCHARS];
  fmt_word *end_of_word = &st->word[FMT_MAXWORDS - 2];
  do {
    st->word_limit->text = st->wptr;
    do {
      if (st->wptr == end_of_parabuf) {
        fmt_set_other_indent(st, true);
        fmt_flush_paragraph(st);
      }
      *st->wptr++ = (char)c;
      c = fmt_getc(st);
    } while (c != EOF && !fmt_isspace(c));
    st->in_column += st->word_limit->length = (int)(st->wptr - st->word_limit->text);
    fmt_check_punctuation(st->word_limit);
    int start = st->in_column;
    c = fmt_get_space(st, c);
    st->word_limit->space = st->in_column - start;
    st->word_limit->final =
        c == EOF || (st->word_limit->period && (c == '\n' || st->word_limit->space > 1));
    if (c == '\n' || c == EOF || st->uniform) st->word_limit->space = st->word_limit->final ? 2 : 1;
    if (st->word_limit == end_of_word) {
      fmt_set_other_indent(st, true);
      fmt_flush_paragraph(st);
    }
    st->word_limit++;
  } while (c != '\n' && c != EOF);
  return fmt_get_prefix(st);
}

static bool fmt_get_paragraph(fmt_state *st) {
  st->last_line_length = 0;
  int c = st->next_char;
  while (c == '\n' || c == EOF || st->next_prefix_indent < st->prefix_lead_space ||
         st->in_column < st->next_prefix_indent + st->prefix_full_length) {
    c = fmt_copy_rest(st, c);
    if (c == EOF) {
      st->next_char = EOF;
      return false;
    }
    fmt_putc(st, '\n');
    c = fmt_get_prefix(st);
  }
  st->prefix_indent = st->next_prefix_indent;
  st->first_indent = st->in_column;
  st->wptr = st->parabuf;
  st->word_limit = st->word;
  c = fmt_get_line(st, c);
  fmt_set_other_indent(st, fmt_same_paragraph(st, c));
  if (st->split_lines) {
  } else if (st->crown) {
    if (fmt_same_paragraph(st, c)) {
      do c = fmt_get_line(st, c);
      while (fmt_same_paragraph(st, c) && st->in_column == st->other_indent);
    }
  } else if (st->tagged) {
    if (fmt_same_paragraph(st, c) && st->in_column != st->first_indent) {
      do c = fmt_get_line(st, c);
      while (fmt_same_paragraph(st, c) && st->in_column == st->other_indent);
    }
  } else {
    while (fmt_same_paragraph(st, c) && st->in_column == st->other_indent) c = fmt_get_line(st, c);
  }
  (st->word_limit - 1)->period = (st->word_limit - 1)->final = true;
  st->next_char = c;
  return true;
}

static void fmt_file(fmt_state *st) {
  st->tabs = false;
  st->other_indent = 0;
  st->next_char = fmt_get_prefix(st);
  while (fmt_get_paragraph(st)) {
    fmt_paragraph(st);
    fmt_put_paragraph(st, st->word_limit);
    if (cmd_poll(st->ctx) || st->ctx->out_err) break;
  }
}

static const char fmt_usage[] =
    "Usage: fmt [-WIDTH] [OPTION]... [FILE]...\n"
    "Reformat each paragraph in the FILE(s), writing to standard output.\n"
    "The option -WIDTH is an abbreviated form of --width=DIGITS.\n\n"
    "  -c, --crown-margin        preserve indentation of first two lines\n"
    "  -p, --prefix=STRING       reformat only lines beginning with STRING,\n"
    "                              reattaching the prefix to reformatted lines\n"
    "  -s, --split-only          split long lines, but do not refill\n"
    "  -t, --tagged-paragraph    indentation of first line different from second\n"
    "  -u, --uniform-spacing     one space between words, two after sentences\n"
    "  -w, --width=WIDTH         maximum line width (default of 75 columns)\n"
    "  -g, --goal=WIDTH          goal width (default of 93% of width)\n"
    CMD_HELP_VERSION_LINES;

int cmd_fmt_main(cmd_ctx *ctx, int argc, char **argv) {
  static const char spec[] = "(help)(version)c(crown-margin)p:(prefix)s(split-only)"
                             "t(tagged-paragraph)u(uniform-spacing)w:(width)g:(goal)"
                             "0123456789";
  const char *width_opt = NULL;
  char **av = argv;
  int ac = argc;
  /* Obsolete "fmt -WIDTH" as the first argument. */
  if (argc > 1 && argv[1][0] == '-' && argv[1][1] >= '0' && argv[1][1] <= '9') {
    width_opt = argv[1] + 1;
    av = cmd_alloc(ctx, sizeof(char *) * (size_t)(argc + 1));
    if (!av) return 1;
    av[0] = argv[0];
    for (int i = 2; i < argc; i++) av[i - 1] = argv[i];
    ac = argc - 1;
    av[ac] = NULL;
  }
  cmd_getopt_state g = CMD_GETOPT_INIT;
  /* A loop: a digit option is refused as it comes; the others are read from g. */
  for (int c; (c = cmd_getopt(ctx, &g, ac, av, spec, NULL)) != -1;) {
    if (c >= '0' && c <= '9') {
      cmd_errorf(ctx,
                 "invalid option -- %c; -WIDTH is recognized only when it is the first\n"
                 "option; use -w N instead", c);
      return cmd_usage_hint(ctx, 1);
    }
    switch (c) {
    CMD_CASES_HELP_VERSION(ctx, fmt_usage);
    case '?': return 1;
    }
  }
  if (cmd_opt_arg(&g, 'w')) width_opt = cmd_opt_arg(&g, 'w');
  const char *goal_opt = cmd_opt_arg(&g, 'g');
  fmt_state *st = calloc(1, sizeof *st);
  if (!st) return 1;
  st->ctx = ctx;
  st->prefix = "";
  st->crown = cmd_opt_on(&g, 'c');
  st->split_lines = cmd_opt_on(&g, 's');
  st->tagged = cmd_opt_on(&g, 't');
  st->uniform = cmd_opt_on(&g, 'u');
  if (cmd_opt_arg(&g, 'p')) {
    const char *p = cmd_opt_arg(&g, 'p');
    while (*p == ' ') st->prefix_lead_space++, p++;
    char *copy = cmd_strdup(ctx, p);
    if (!copy) {
      free(st);
      return 1;
    }
    st->prefix_full_length = (int)strlen(copy);
    char *s = copy + st->prefix_full_length;
    while (s > copy && s[-1] == ' ') s--;
    *s = 0;
    st->prefix = copy;
    st->prefix_length = (int)(s - copy);
  }
  int status = 0;
  st->max_width = 75;
  if (width_opt) {
    intmax_t v;
    if (cmd_parse_imax_or_die(ctx, width_opt, 0, 2500, "invalid width", &v) < 0) {
      free(st);
      return 1;
    }
    st->max_width = (int)v;
  }
  if (goal_opt) {
    intmax_t v;
    if (cmd_parse_imax_or_die(ctx, goal_opt, 0, st->max_width, "invalid width", &v) < 0) {
      free(st);
      return 1;
    }
    st->goal_width = (int)v;
    if (!width_opt) st->max_width = st->goal_width + 10;
  } else {
    st->goal_width = st->max_width * (2 * (100 - FMT_LEEWAY) + 1) / 200;
  }
  st->rbuf = malloc(65536);
  if (!st->rbuf) {
    free(st);
    return 1;
  }
  int nfiles;
  char **files = cmd_file_operands(ac, av, g.ind, &nfiles);
  for (int i = 0; i < nfiles; i++) {
    int r = cmd_in_open(ctx, files[i], &st->in);
    if (r < 0) {
      cmd_record_error(ctx, r, files[i]);
      cmd_errorf(ctx, "cannot open %s for reading: %s", cmd_gnu_quoteaf(ctx, files[i]),
                 cmd_strerror(r));
      status = 1;
      continue;
    }
    st->rpos = st->rlen = 0;
    st->read_err = 0;
    fmt_file(st);
    cmd_in_close(st->in);
    if (st->read_err) status = cmd_gnu_perror(ctx, files[i], st->read_err);
    if (ctx->out_err) break;
  }
  free(st->rbuf);
  free(st);
  if (ctx->out_err) return cmd_write_error(ctx, ctx->out_err);
  return status;
}
