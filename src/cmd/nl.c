/*
 * nl - number lines of files.
 *
 *   Usage: nl [OPTION]... [FILE]...
 *   -b, --body-numbering=STYLE      a all, t nonempty (default), n none, pBRE
 *   -d, --section-delimiter=CC      logical page delimiters (default \:)
 *   -f, --footer-numbering=STYLE    (default n)   -h, --header-numbering=STYLE
 *   -i, --line-increment=NUMBER     -l, --join-blank-lines=NUMBER
 *   -n, --number-format=FORMAT      ln, rn (default), rz
 *   -p, --no-renumber               -s, --number-separator=STRING (TAB)
 *   -v, --starting-line-number=NUMBER  -w, --number-width=NUMBER (6)
 *
 * Design: GNU's state machine: section delimiter lines (\:\:\: header,
 * \:\: body, \: footer) switch the numbering style, print an empty line and
 * restart the count unless -p; unnumbered lines get width + separator
 * spaces. pBRE styles use glibc's GNU regex API with POSIX basic syntax as
 * GNU nl does. Files are one stream; a missing final newline is added.
 */
#include <errno.h>
#include <limits.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/lib/gnu.h"

CMD_DEFINE("nl", cmd_nl_main);

static const char nl_usage[] =
    "Usage: nl [OPTION]... [FILE]...\n"
    "Write each FILE to standard output, with line numbers added.\n\n"
    "  -b, --body-numbering=STYLE      use STYLE for numbering body lines\n"
    "  -d, --section-delimiter=CC      use CC for logical page delimiters\n"
    "  -f, --footer-numbering=STYLE    use STYLE for numbering footer lines\n"
    "  -h, --header-numbering=STYLE    use STYLE for numbering header lines\n"
    "  -i, --line-increment=NUMBER     line number increment at each line\n"
    "  -l, --join-blank-lines=NUMBER   group of NUMBER empty lines counted as one\n"
    "  -n, --number-format=FORMAT      insert line numbers according to FORMAT\n"
    "  -p, --no-renumber               do not reset line numbers for each section\n"
    "  -s, --number-separator=STRING   add STRING after (possible) line number\n"
    "  -v, --starting-line-number=NUMBER  first line number for each section\n"
    "  -w, --number-width=NUMBER       use NUMBER columns for line numbers\n"
    CMD_HELP_VERSION_LINES;

typedef struct nl_style {
  char kind;                     /* 'a' 't' 'n' 'p' */
  struct re_pattern_buffer re;   /* for 'p' */
  bool compiled;                 /* re is live */
} nl_style;

typedef struct nl_state {
  cmd_ctx *ctx;
  nl_style header, body, footer; /* styles */
  nl_style *cur;                 /* the current section's style */
  intmax_t start, incr, line_no; /* -v, -i, the next number */
  intmax_t blank_join, blank_lines; /* -l and the run of blank lines */
  int width;                     /* -w */
  const char *format;            /* "ln" "rn" "rz" */
  const char *sep;               /* -s */
  bool renumber;                 /* not -p */
  char delim_hdr[64], delim_body[64], delim_ftr[64]; /* section lines */
  size_t len_hdr, len_body, len_ftr;
  bool sections;                 /* section delimiters are active */
  bool overflow;                 /* line number overflowed */
} nl_state;

static int nl_style_parse(nl_state *st, nl_style *s, const char *arg, const char *what) {
  cmd_ctx *ctx = st->ctx;
  if (s->compiled) {
    regfree(&s->re);
    s->compiled = false;
  }
  if ((arg[0] == 'a' || arg[0] == 't' || arg[0] == 'n') && !arg[1]) {
    s->kind = arg[0];
    return 0;
  }
  if (arg[0] == 'p') {
    memset(&s->re, 0, sizeof s->re);
    re_set_syntax(RE_SYNTAX_POSIX_BASIC & ~RE_CONTEXT_INVALID_DUP & ~RE_NO_EMPTY_RANGES);
    const char *err = re_compile_pattern(arg + 1, strlen(arg + 1), &s->re);
    if (err) {
      regfree(&s->re);
      cmd_errorf(ctx, "%s", err);
      return -1;
    }
    s->compiled = true;
    s->kind = 'p';
    return 0;
  }
  cmd_errorf(ctx, "invalid %s numbering style: %s", what, cmd_gnu_quote(ctx, arg));
  cmd_usage_hint(ctx, 1);
  return -1;
}

static void nl_number(nl_state *st) {
  if (st->overflow) return;
  if (strcmp(st->format, "ln") == 0)
    cmd_outf(st->ctx, "%-*jd%s", st->width, st->line_no, st->sep);
  else if (strcmp(st->format, "rz") == 0)
    cmd_outf(st->ctx, "%0*jd%s", st->width, st->line_no, st->sep);
  else
    cmd_outf(st->ctx, "%*jd%s", st->width, st->line_no, st->sep);
  if ((st->incr > 0 && st->line_no > INTMAX_MAX - st->incr) ||
      (st->incr < 0 && st->line_no < INTMAX_MIN - st->incr)) {
    st->overflow = true;
  } else {
    st->line_no += st->incr;
  }
}

static void nl_blank(nl_state *st) {
  cmd_outf(st->ctx, "%*s", (int)(st->width + strlen(st->sep)), "");
}

/* One text line (without its newline). */
static int nl_text(nl_state *st, const char *line, size_t len) {
  bool number = false;
  switch (st->cur->kind) {
  case 'a':
    if (st->blank_join > 1) {
      if (len > 0 || ++st->blank_lines == st->blank_join) {
        number = true;
        st->blank_lines = 0;
      }
    } else {
      number = true;
    }
    break;
  case 't': number = len > 0; break;
  case 'n': break;
  case 'p':
    number = re_search(&st->cur->re, line, (regoff_t)len, 0, (regoff_t)len, NULL) >= 0;
    break;
  }
  if (number) {
    if (st->overflow) {
      cmd_errorf(st->ctx, "line number overflow");
      return -1;
    }
    nl_number(st);
  } else {
    nl_blank(st);
  }
  cmd_out(st->ctx, line, len);
  cmd_outc(st->ctx, '\n');
  return 0;
}

static int nl_line(void *ud, const char *line, size_t l, bool has_delim) {
  nl_state *st = ud;
  nl_style *next = NULL;
  if (st->sections && l >= 2) {
    if (l == st->len_hdr && memcmp(line, st->delim_hdr, l) == 0) next = &st->header;
    else if (l == st->len_body && memcmp(line, st->delim_body, l) == 0) next = &st->body;
    else if (l == st->len_ftr && memcmp(line, st->delim_ftr, l) == 0) next = &st->footer;
  }
  if (!next) return nl_text(st, line, l) < 0 ? 1 : 0;
  st->cur = next;
  if (st->renumber) {
    st->line_no = st->start;
    st->overflow = false;
  }
  cmd_outc(st->ctx, '\n');
  return 0;
}

/* One of the options -b -f -h -i -l -n -v -w whose argument is checked where
 * it stands (GNU reports the first bad one): 0, or -1 after the message. */
static int nl_option(nl_state *st, int c, const char *arg) {
  cmd_ctx *ctx = st->ctx;
  switch (c) {
  case 'b': return nl_style_parse(st, &st->body, arg, "body");
  case 'h': return nl_style_parse(st, &st->header, arg, "header");
  case 'f': return nl_style_parse(st, &st->footer, arg, "footer");
  case 'n':
    if (strcmp(arg, "ln") && strcmp(arg, "rn") && strcmp(arg, "rz")) {
      cmd_errorf(ctx, "invalid line numbering format: %s", cmd_gnu_quote(ctx, arg));
      cmd_usage_hint(ctx, 1);
      return -1;
    }
    st->format = arg;
    return 0;
  }
  /* -i -l -v -w: a number in the option's range */
  const char *what = c == 'i'   ? "invalid line number increment"
                     : c == 'l' ? "invalid line number of blank lines"
                     : c == 'v' ? "invalid starting line number"
                                : "invalid line number field width";
  intmax_t v;
  if (cmd_parse_imax_or_die(ctx, arg, c == 'l' || c == 'w' ? 1 : INTMAX_MIN,
                            c == 'w' ? INT_MAX : INTMAX_MAX, what, &v) < 0)
    return -1;
  if (c == 'i') st->incr = v;
  else if (c == 'l') st->blank_join = v;
  else if (c == 'v') st->start = v;
  else if (v > 100000) {
    cmd_errorf(ctx, "line number field width too large for this sandbox");
    return -1;
  } else {
    st->width = (int)v;
  }
  return 0;
}

static const char nl_options[] =
    "(help)(version)b:(body-numbering)d:(section-delimiter)f:(footer-numbering)"
    "h:(header-numbering)i:(line-increment)l:(join-blank-lines)n:(number-format)"
    "p(no-renumber)s:(number-separator)v:(starting-line-number)w:(number-width)";

int cmd_nl_main(cmd_ctx *ctx, int argc, char **argv) {
  nl_state *st = cmd_alloc(ctx, sizeof *st);
  if (!st) return 1;
  st->ctx = ctx;
  st->header.kind = 'n';
  st->body.kind = 't';
  st->footer.kind = 'n';
  st->start = 1;
  st->incr = 1;
  st->blank_join = 1;
  st->width = 6;
  st->format = "rn";
  st->sep = "\t";
  int status = 0;
  cmd_getopt_state g = CMD_GETOPT_INIT;
  /* A loop: the arguments are checked in order; -d -p -s are read after it. */
  for (int c; (c = cmd_getopt(ctx, &g, argc, argv, nl_options, NULL)) != -1;) {
    switch (c) {
    case CMD_OPT_HELP: cmd_print_help(ctx, nl_usage); goto out;
    case CMD_OPT_VERSION: cmd_print_version(ctx); goto out;
    case '?': status = 1; goto out; /* cmd_getopt printed the message */
    case 'd': case 'p': case 's': break;
    default:
      if (nl_option(st, c, g.arg) < 0) {
        status = 1;
        goto out;
      }
    }
  }
  const char *delim = cmd_opt_on(&g, 'd') ? cmd_opt_arg(&g, 'd') : "\\:";
  if (cmd_opt_on(&g, 's')) st->sep = cmd_opt_arg(&g, 's');
  st->renumber = !cmd_opt_on(&g, 'p');
  /* Section delimiters: CC, with ':' added to a single character. */
  {
    char cc[32];
    size_t dl = strlen(delim);
    if (dl == 1) {
      cc[0] = delim[0];
      cc[1] = ':';
      dl = 2;
    } else {
      if (dl > 20) dl = 20;
      memcpy(cc, delim, dl);
    }
    st->sections = dl >= 2;
    for (int k = 0; k < 3; k++) memcpy(st->delim_hdr + k * dl, cc, dl);
    for (int k = 0; k < 2; k++) memcpy(st->delim_body + k * dl, cc, dl);
    memcpy(st->delim_ftr, cc, dl);
    st->len_hdr = 3 * dl;
    st->len_body = 2 * dl;
    st->len_ftr = dl;
  }
  st->cur = &st->body;
  st->line_no = st->start;

  status = cmd_each_line(ctx, argv + g.ind, argc - g.ind, '\n', nl_line, st);
out:
  if (st->header.compiled) regfree(&st->header.re);
  if (st->body.compiled) regfree(&st->body.re);
  if (st->footer.compiled) regfree(&st->footer.re);
  if (ctx->out_err) return cmd_write_error(ctx, ctx->out_err);
  return status;
}
