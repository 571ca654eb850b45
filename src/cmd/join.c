/*
 * join - join lines of two files on a common field.
 *
 *   Usage: join [OPTION]... FILE1 FILE2
 *   -a FILENUM  also print unpairable lines     -v FILENUM  only those
 *   -e STRING   replace missing fields           -i, --ignore-case
 *   -j FIELD    -1 FIELD  -2 FIELD              -o FORMAT | -o auto
 *   -t CHAR     field separator ('' = whole line, '\0' = NUL)
 *   --check-order  --nocheck-order  --header  -z, --zero-terminated
 *
 * Design: a port of GNU join's merge: each file is read line by line into
 * a "sequence" that holds the run of lines sharing the current key (so memory
 * is bounded by the largest equal-key group), groups with equal keys are
 * joined as a cross product, and the tails are read to finish the order
 * check. Fields split like GNU (blank runs with leading blanks ignored, or
 * exactly at -t, where an empty trailing field exists). Order warnings are
 * GNU's ("join: FILE:N: is not sorted: LINE", then "input is not in sorted
 * order" and status 1) and are issued only after an unpairable line unless
 * --check-order. Comparison under C.UTF-8 is byte order.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/lib/buf.h"
#include "cmd/lib/gnu.h"

CMD_DEFINE("join", cmd_join_main);

typedef struct join_field {
  size_t beg, len;  /* offset and length in the line */
} join_field;

typedef struct join_line {
  char *buf;                /* bytes without the delimiter (malloc'd) */
  size_t len, cap;          /* length and capacity */
  join_field *fields;       /* fields (malloc'd) */
  size_t nfields, fcap;     /* count and capacity */
} join_line;

typedef struct join_seq {
  join_line **lines;        /* the current run of lines (owned) */
  size_t count, alloc;      /* used and allocated */
} join_seq;

typedef struct join_out {
  int file;                 /* 0 = join field, 1 or 2 */
  size_t field;             /* 0-based */
} join_out;

typedef struct join_state {
  cmd_ctx *ctx;
  int tab;                  /* separator byte, -1 blanks, '\n' whole line */
  char eol;                 /* line delimiter */
  bool ignore_case;         /* -i */
  size_t jf[2];             /* join fields, 0-based */
  bool print_unpair[2];     /* -a / -v */
  bool print_pairs;         /* not -v */
  const char *empty;        /* -e */
  join_out *outlist;        /* -o */
  size_t nout;
  bool autoformat;          /* -o auto */
  size_t autocount[2];      /* fields per line for auto */
  int check;                /* 1 --check-order, -1 --nocheck-order, 0 default */
  bool warned[2];           /* disorder reported */
  bool seen_unpairable;     /* an unpairable line was seen */
  bool fatal;               /* stop (--check-order or error) */
  cmd_in *in[2];            /* readers */
  const char *name[2];      /* file names */
  uintmax_t line_no[2];     /* lines read */
  join_line *prev[2];       /* previous line of each file (for order) */
  join_line *spare[2];      /* recycled line */
  join_line blank;          /* the empty "unpaired" line */
  int status;               /* exit status */
} join_state;

static bool join_blank(unsigned char c) { return c == ' ' || c == '\t' || c == '\n'; }

static int join_add_field(join_line *l, size_t beg, size_t len) {
  if (cmd_grow(&l->fields, &l->fcap, l->nfields + 1, sizeof *l->fields)) return -1;
  l->fields[l->nfields].beg = beg;
  l->fields[l->nfields].len = len;
  l->nfields++;
  return 0;
}

static int join_split(const join_state *st, join_line *l) {
  l->nfields = 0;
  size_t p = 0, lim = l->len;
  const char *s = l->buf;
  if (lim == 0) return 0;
  if (st->tab >= 0 && st->tab != '\n') {
    const char *sep;
    while ((sep = memchr(s + p, st->tab, lim - p)) != NULL) {
      if (join_add_field(l, p, (size_t)(sep - s) - p) < 0) return -1;
      p = (size_t)(sep - s) + 1;
    }
  } else if (st->tab < 0) {
    while (join_blank((unsigned char)s[p]))
      if (++p == lim) return 0;
    do {
      size_t sep = p + 1;
      while (sep != lim && !join_blank((unsigned char)s[sep])) sep++;
      if (join_add_field(l, p, sep - p) < 0) return -1;
      if (sep == lim) return 0;
      for (p = sep + 1; p != lim && join_blank((unsigned char)s[p]); p++) {
      }
    } while (p != lim);
  }
  return join_add_field(l, p, lim - p);
}

static int join_keycmp(const join_state *st, const join_line *a, const join_line *b,
                       size_t ja, size_t jb) {
  const char *pa = NULL, *pb = NULL;
  size_t la = 0, lb = 0;
  if (ja < a->nfields) {
    pa = a->buf + a->fields[ja].beg;
    la = a->fields[ja].len;
  }
  if (jb < b->nfields) {
    pb = b->buf + b->fields[jb].beg;
    lb = b->fields[jb].len;
  }
  if (la == 0) return lb == 0 ? 0 : -1;
  if (lb == 0) return 1;
  size_t n = la < lb ? la : lb;
  int d = 0;
  if (st->ignore_case) {
    for (size_t i = 0; i < n && !d; i++) {
      int x = (unsigned char)pa[i], y = (unsigned char)pb[i];
      if (x >= 'a' && x <= 'z') x -= 32;
      if (y >= 'a' && y <= 'z') y -= 32;
      d = x - y;
    }
  } else {
    d = memcmp(pa, pb, n);
  }
  if (d) return d;
  return (la > lb) - (la < lb);
}

static void join_free_line(join_line *l) {
  if (!l) return;
  free(l->buf);
  free(l->fields);
  free(l);
}

/* Reads the next line of file w into *lp (recycling). Returns 1, 0 at EOF,
 * -1 on a fatal error (reported). */
static int join_get_line(join_state *st, join_line **lp, int w) {
  join_line *l = *lp;
  if (!l || l == st->prev[w]) {
    if (l == st->prev[w] && l) {
      join_line *t = st->spare[w];
      st->spare[w] = l;
      l = t;
    }
    if (!l) l = calloc(1, sizeof *l);
    if (!l) return -1;
    *lp = l;
  }
  char *p;
  ssize_t n = cmd_in_getdelim(st->in[w], &p, st->eol);
  if (n < 0) {
    cmd_gnu_perror(st->ctx, st->name[w], (int)n);
    st->status = 1;
    st->fatal = true;
    return -1;
  }
  if (n == 0) return 0;
  size_t len = (size_t)n;
  if (p[len - 1] == st->eol) len--;
  if (cmd_grow(&l->buf, &l->cap, len + 1, 1)) return -1;
  memcpy(l->buf, p, len);
  l->len = len;
  if (join_split(st, l) < 0) return -1;
  st->line_no[w]++;
  join_line *prev = st->prev[w];
  if (prev && st->check >= 0 && (st->check == 1 || st->seen_unpairable) && !st->warned[w] &&
      join_keycmp(st, prev, l, st->jf[w], st->jf[w]) > 0) {
    cmd_flush(st->ctx);
    cmd_err_raw(st->ctx, "%s: %s:%ju: is not sorted: ", st->ctx->name, st->name[w],
                st->line_no[w]);
    cmd_write_fd(st->ctx, 2, l->buf, l->len);
    cmd_write_fd(st->ctx, 2, "\n", 1);
    if (st->check == 1) {
      st->status = 1;
      st->fatal = true;
      return -1;
    }
    st->warned[w] = true;
  }
  st->prev[w] = l;
  return 1;
}

/* Appends the next line of file w to seq (first: restart the sequence). */
static int join_advance(join_state *st, join_seq *seq, bool first, int w) {
  if (first) seq->count = 0;
  if (seq->count == seq->alloc) {
    size_t nc = seq->alloc ? seq->alloc * 2 : 4;
    if (nc * sizeof(join_line *) > st->ctx->max_string) {
      cmd_errorf(st->ctx, "too many lines with the same join field for this sandbox");
      st->fatal = true;
      st->status = 1;
      return -1;
    }
    join_line **nl = realloc(seq->lines, nc * sizeof *nl);
    if (!nl) return -1;
    for (size_t i = seq->alloc; i < nc; i++) nl[i] = NULL;
    seq->lines = nl;
    seq->alloc = nc;
  }
  int r = join_get_line(st, &seq->lines[seq->count], w);
  if (r > 0) seq->count++;
  return r;
}

static void join_prfield(join_state *st, size_t n, const join_line *l) {
  if (n < l->nfields && l->fields[n].len) {
    cmd_out(st->ctx, l->buf + l->fields[n].beg, l->fields[n].len);
  } else if (st->empty) {
    cmd_outs(st->ctx, st->empty);
  }
}

static void join_prfields(join_state *st, const join_line *l, size_t jf, size_t autocount) {
  size_t nfields = st->autoformat ? autocount : l->nfields;
  char sep = st->tab < 0 ? ' ' : (char)st->tab;
  for (size_t i = 0; i < jf && i < nfields; i++) {
    cmd_outc(st->ctx, sep);
    join_prfield(st, i, l);
  }
  for (size_t i = jf + 1; i < nfields; i++) {
    cmd_outc(st->ctx, sep);
    join_prfield(st, i, l);
  }
}

static void join_print(join_state *st, const join_line *l1, const join_line *l2) {
  char sep = st->tab < 0 ? ' ' : (char)st->tab;
  if (st->nout) {
    for (size_t k = 0; k < st->nout; k++) {
      const join_line *l;
      size_t f;
      if (st->outlist[k].file == 0) {
        if (l1 == &st->blank) l = l2, f = st->jf[1];
        else l = l1, f = st->jf[0];
      } else {
        l = st->outlist[k].file == 1 ? l1 : l2;
        f = st->outlist[k].field;
      }
      join_prfield(st, f, l);
      if (k + 1 < st->nout) cmd_outc(st->ctx, sep);
    }
  } else {
    if (l1 == &st->blank) join_prfield(st, st->jf[1], l2);
    else join_prfield(st, st->jf[0], l1);
    join_prfields(st, l1, st->jf[0], st->autocount[0]);
    join_prfields(st, l2, st->jf[1], st->autocount[1]);
  }
  cmd_outc(st->ctx, st->eol);
}

static void join_run(join_state *st, bool header) {
  join_seq seq[2] = {{0}};
  join_line *line = NULL;
  for (int w = 0; w < 2; w++)
    if (join_advance(st, &seq[w], true, w) < 0) goto out;
  if (st->autoformat) {
    st->autocount[0] = seq[0].count ? seq[0].lines[0]->nfields : 0;
    st->autocount[1] = seq[1].count ? seq[1].lines[0]->nfields : 0;
  }
  if (header && (seq[0].count || seq[1].count)) {
    join_print(st, seq[0].count ? seq[0].lines[0] : &st->blank,
               seq[1].count ? seq[1].lines[0] : &st->blank);
    st->prev[0] = st->prev[1] = NULL;
    for (int w = 0; w < 2; w++)
      if (seq[w].count && join_advance(st, &seq[w], true, w) < 0) goto out;
  }
  while (seq[0].count && seq[1].count) {
    if (cmd_poll(st->ctx) || st->ctx->out_err) goto out;
    int diff = join_keycmp(st, seq[0].lines[0], seq[1].lines[0], st->jf[0], st->jf[1]);
    if (diff < 0) {
      if (st->print_unpair[0]) join_print(st, seq[0].lines[0], &st->blank);
      if (join_advance(st, &seq[0], true, 0) < 0) goto out;
      st->seen_unpairable = true;
      continue;
    }
    if (diff > 0) {
      if (st->print_unpair[1]) join_print(st, &st->blank, seq[1].lines[0]);
      if (join_advance(st, &seq[1], true, 1) < 0) goto out;
      st->seen_unpairable = true;
      continue;
    }
    bool eof[2] = {false, false};
    for (int w = 0; w < 2; w++) {
      /* File w's lines with this key; the last one read has the next key. */
      for (;;) {
        int r = join_advance(st, &seq[w], false, w);
        if (r < 0) goto out;
        if (r == 0) {
          eof[w] = true;
          seq[w].count++;
          break;
        }
        join_line *last = seq[w].lines[seq[w].count - 1];
        if (join_keycmp(st, w ? seq[0].lines[0] : last, w ? last : seq[1].lines[0],
                        st->jf[0], st->jf[1]))
          break;
      }
    }
    if (st->print_pairs)
      for (size_t i = 0; i + 1 < seq[0].count; i++)
        for (size_t j = 0; j + 1 < seq[1].count; j++) join_print(st, seq[0].lines[i], seq[1].lines[j]);
    for (int w = 0; w < 2; w++) {
      if (!eof[w]) {
        join_line *t = seq[w].lines[0];
        seq[w].lines[0] = seq[w].lines[seq[w].count - 1];
        seq[w].lines[seq[w].count - 1] = t;
        seq[w].count = 1;
      } else {
        seq[w].count = 0;
      }
    }
  }
  bool checktail = st->check >= 0 && !(st->warned[0] && st->warned[1]);
  for (int w = 0; w < 2; w++) {
    if (!((st->print_unpair[w] || checktail) && seq[w].count)) continue;
    if (st->print_unpair[w]) {
      if (w == 0) join_print(st, seq[0].lines[0], &st->blank);
      else join_print(st, &st->blank, seq[1].lines[0]);
    }
    if (seq[1 - w].count) st->seen_unpairable = true;
    for (;;) {
      int r = join_get_line(st, &line, w);
      if (r < 0) goto out;
      if (r == 0) break;
      if (st->print_unpair[w]) {
        if (w == 0) join_print(st, line, &st->blank);
        else join_print(st, &st->blank, line);
      }
      if (st->warned[w] && !st->print_unpair[w]) break;
      if (cmd_poll(st->ctx) || st->ctx->out_err) goto out;
    }
  }
out:
  for (int w = 0; w < 2; w++) {
    for (size_t i = 0; i < seq[w].alloc; i++)
      if (seq[w].lines[i] != line && seq[w].lines[i] != st->spare[w]) join_free_line(seq[w].lines[i]);
    free(seq[w].lines);
  }
  for (int w = 0; w < 2; w++)
    if (st->spare[w] != line) join_free_line(st->spare[w]);
  join_free_line(line);
}

/* "FILENUM.FIELD" or "0" items of -o. Returns 0 or -1 (printed). */
static int join_add_outlist(join_state *st, const char *s) {
  cmd_ctx *ctx = st->ctx;
  char *copy = cmd_strdup(ctx, s);
  if (!copy) return -1;
  for (char *tok = copy; *tok;) {
    size_t n = strcspn(tok, ", \t");
    char save = tok[n];
    tok[n] = 0;
    if (n) {
      join_out o;
      if (strcmp(tok, "0") == 0) {
        o.file = 0;
        o.field = 0;
      } else {
        if (!((tok[0] == '1' || tok[0] == '2') && tok[1] == '.')) {
          cmd_errorf(ctx, "invalid file number in field spec: %s", cmd_gnu_quote(ctx, tok));
          return -1;
        }
        uintmax_t f;
        if (cmd_parse_umax(tok + 2, NULL, &f) != CMD_NUM_OK || f == 0) {
          cmd_errorf(ctx, "invalid field number: %s", cmd_gnu_quote(ctx, tok + 2));
          return -1;
        }
        o.file = tok[0] - '0';
        o.field = f > SIZE_MAX ? SIZE_MAX - 1 : (size_t)f - 1;
      }
      join_out *nl = cmd_alloc(ctx, (st->nout + 1) * sizeof *nl);
      if (!nl) return -1;
      if (st->nout) memcpy(nl, st->outlist, st->nout * sizeof *nl);
      nl[st->nout++] = o;
      st->outlist = nl;
    }
    if (!save) break;
    tok += n + 1;
  }
  return 0;
}

static int join_field_arg(cmd_ctx *ctx, const char *s, size_t *out) {
  uintmax_t v;
  if (cmd_parse_umax(s, NULL, &v) != CMD_NUM_OK || v == 0) {
    cmd_errorf(ctx, "invalid field number: %s", cmd_gnu_quote(ctx, s));
    return -1;
  }
  *out = v > SIZE_MAX ? SIZE_MAX - 1 : (size_t)v - 1;
  return 0;
}

static const char join_usage[] =
    "Usage: join [OPTION]... FILE1 FILE2\n"
    "For each pair of input lines with identical join fields, write a line to\n"
    "standard output.  The default join field is the first, delimited by blanks.\n\n"
    "When FILE1 or FILE2 (not both) is -, read standard input.\n\n"
    "  -a FILENUM             also print unpairable lines from file FILENUM\n"
    "  -e STRING              replace missing (empty) input fields with STRING\n"
    "  -i, --ignore-case      ignore differences in case when comparing fields\n"
    "  -j FIELD               equivalent to '-1 FIELD -2 FIELD'\n"
    "  -o FORMAT              obey FORMAT while constructing output line\n"
    "  -t CHAR                use CHAR as input and output field separator\n"
    "  -v FILENUM             like -a FILENUM, but suppress joined output lines\n"
    "  -1 FIELD               join on this FIELD of file 1\n"
    "  -2 FIELD               join on this FIELD of file 2\n"
    "      --check-order      check that the input is correctly sorted\n"
    "      --nocheck-order    do not check that the input is correctly sorted\n"
    "      --header           treat the first line in each file as field headers\n"
    "  -z, --zero-terminated  line delimiter is NUL, not newline\n"
    CMD_HELP_VERSION_LINES;

int cmd_join_main(cmd_ctx *ctx, int argc, char **argv) {
  enum { OPT_CHECK = CMD_OPT_LONG, OPT_NOCHECK, OPT_HEADER };
  static const char spec[] = "(check-order)(nocheck-order)(header)(help)(version)"
                             "i(ignore-case)z(zero-terminated)a:e:j:1:2:o:t:v:";
  join_state *st = cmd_alloc(ctx, sizeof *st);
  if (!st) return 1;
  st->ctx = ctx;
  st->tab = -1;
  st->eol = '\n';
  st->print_pairs = true;
  bool have_jf[2] = {false, false};
  cmd_getopt_state g = CMD_GETOPT_INIT;
  /* A loop: fields, formats and tabs are checked and gathered as they come;
   * -e, -i, -z and --header are read from g after it. */
  for (int c; (c = cmd_getopt(ctx, &g, argc, argv, spec, NULL)) != -1;) {
    switch (c) {
    case 'a': case 'v': {
      uintmax_t v;
      if (cmd_parse_umax(g.arg, NULL, &v) != CMD_NUM_OK || (v != 1 && v != 2)) {
        cmd_errorf(ctx, "invalid field number: %s", cmd_gnu_quote(ctx, g.arg));
        return 1;
      }
      st->print_unpair[v - 1] = true;
      if (c == 'v') st->print_pairs = false;
      break;
    }
    case 'j': case '1': case '2': {
      size_t f;
      if (join_field_arg(ctx, g.arg, &f) < 0) return 1;
      for (int w = 0; w < 2; w++) {
        if (c != 'j' && c != '1' + w) continue;
        if (have_jf[w] && st->jf[w] != f) {
          cmd_errorf(ctx, "incompatible join fields %zu, %zu", st->jf[w] + 1, f + 1);
          return 1;
        }
        st->jf[w] = f;
        have_jf[w] = true;
      }
      break;
    }
    case 'o':
      if (strcmp(g.arg, "auto") == 0) {
        st->autoformat = true;
      } else if (join_add_outlist(st, g.arg) < 0) {
        return 1;
      }
      break;
    case 't': {
      int newtab;
      if (!g.arg[0]) newtab = '\n';
      else if (g.arg[1]) {
        if (strcmp(g.arg, "\\0") == 0) newtab = 0;
        else {
          cmd_errorf(ctx, "multi-character tab %s", cmd_gnu_quote(ctx, g.arg));
          return 1;
        }
      } else {
        newtab = (unsigned char)g.arg[0];
      }
      if (st->tab >= 0 && st->tab != newtab) {
        cmd_errorf(ctx, "incompatible tabs");
        return 1;
      }
      st->tab = newtab;
      break;
    }
    case OPT_CHECK: st->check = 1; break;
    case OPT_NOCHECK: st->check = -1; break;
    CMD_CASES_HELP_VERSION(ctx, join_usage);
    case '?': return 1;
    }
  }
  st->empty = cmd_opt_arg(&g, 'e');
  st->ignore_case = cmd_opt_on(&g, 'i');
  if (cmd_opt_on(&g, 'z')) st->eol = '\0';
  bool header = cmd_opt_on(&g, OPT_HEADER);
  if (cmd_check_operands(ctx, argc, argv, g.ind, 2, 2)) return 1;
  st->name[0] = argv[g.ind];
  st->name[1] = argv[g.ind + 1];
  if (strcmp(st->name[0], "-") == 0 && strcmp(st->name[1], "-") == 0) {
    cmd_errorf(ctx, "both files cannot be standard input: %s", cmd_strerror(ENOENT));
    return 1;
  }
  for (int w = 0; w < 2; w++) {
    int r = cmd_in_open(ctx, st->name[w], &st->in[w]);
    if (r < 0) {
      cmd_gnu_perror(ctx, st->name[w], r);
      if (w) cmd_in_close(st->in[0]);
      return 1;
    }
  }
  join_run(st, header);
  cmd_in_close(st->in[0]);
  cmd_in_close(st->in[1]);
  if (!st->fatal && (st->warned[0] || st->warned[1])) {
    cmd_errorf(ctx, "input is not in sorted order");
    st->status = 1;
  }
  if (ctx->out_err) return cmd_write_error(ctx, ctx->out_err);
  return st->status;
}
