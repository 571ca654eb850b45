/*
 * pr - paginate or columnate files for printing (GNU coreutils 9.1).
 *
 *   pr [+FIRST[:LAST]] [-COLUMN] [-a] [-d] [-D FMT] [-F] [-h HEADER] [-J] [-l N]
 *      [-m] [-n[SEP[DIGITS]]] [-N N] [-o N] [-s[CHAR]] [-S[STRING]] [-t] [-T]
 *      [-w N] [-W N] [FILE]...
 *
 * Pages of -l lines (66): a 5-line header (two blank lines, "DATE  NAME
 * Page N" spread over the page width, two blank lines), the body, blank
 * lines to fill it and a 5-line trailer; -t / -T (or a length of 10 lines or
 * less) leave the headers out and stop padding. DATE is the file's mtime
 * (now for stdin) in TZ, as "%Y-%m-%d %H:%M" or -D's format. -COLUMN lays
 * each page out down the columns (balanced on the last page: the first
 * columns take one more line), -a across; -m puts the files side by side.
 * Columns are (width - separators) / COLUMN wide; text is cut to the column
 * unless -J or -s without -w; runs of padding become tabs as GNU prints
 * them. -n numbers lines ("%5d" and a TAB by default), -d double-spaces,
 * -o indents, -N sets the first number, +FIRST:LAST selects pages.
 *
 * -e[CHAR[WIDTH]] expands input tabs, -i[CHAR[WIDTH]] turns output spaces into
 * tabs, -v shows nonprinting bytes as \NNN, -c as ^X (and \NNN above 127).
 *
 * Known differences: -d with -COLUMN under -t; -n with -COLUMN and a -s/-S
 * separator holding spaces (where GNU puts tabs in the number's field).
 *
 * Bounds: one page of lines is held at a time (lines up to the sandbox's
 * string limit); loops poll for cancel/timeout.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd/cmd.h"
#include "cmd/lib/fs.h"
#include "cmd/lib/gnu.h"
#include "cmd/lib/datetime.h"

CMD_DEFINE("pr", cmd_pr_main);

#define PR_MAX_COLUMNS 256
#define PR_MAX_FILES 64
#define PR_MAX_LENGTH 100000 /* lines per page */

typedef struct pr_opts {
  cmd_ctx *ctx;
  long columns;
  bool across, dbl, formfeed, merge, join, number, no_header, truncate, pad;
  const char *header, *date_fmt;
  long length, width, offset, first_page, last_page, first_num;
  char num_sep;
  int num_digits;
  const char *col_sep; /* between columns */
  bool sep_given;
  cmd_tz tz;
  bool expand, tabify;     /* -e, -i */
  char in_tab, out_tab;    /* their CHARs */
  int in_tab_w, out_tab_w; /* their WIDTHs */
  char show;               /* 'v' octal, 'c' hat notation, or 0 */
} pr_opts;

/* The output with GNU's whitespace: pending spaces become tabs where a
 * run of more than one reaches a tab stop. */
typedef struct pr_out {
  cmd_ctx *ctx;
  long pos;     /* output column */
  long pending; /* spaces not printed yet */
  const pr_opts *o;
} pr_out;

static void out_white(pr_out *w) {
  long goal = w->pos + w->pending, h = w->pos;
  long tw = w->o && w->o->tabify ? w->o->out_tab_w : 8;
  char tc = w->o && w->o->tabify ? w->o->out_tab : '\t';
  while (goal - h > 1) {
    long next = (h / tw + 1) * tw;
    if (next > goal) break;
    cmd_outc(w->ctx, tc);
    h = next;
  }
  while (++h <= goal) cmd_outc(w->ctx, ' ');
  w->pos = goal;
  w->pending = 0;
}

static void out_text(pr_out *w, const char *s, size_t n) {
  if (!n) return;
  if (w->o && w->o->tabify) { /* -i: the text's spaces join the white space */
    for (size_t i = 0; i < n; i++) {
      if (s[i] == ' ') {
        w->pending++;
        continue;
      }
      if (w->pending) out_white(w);
      cmd_outc(w->ctx, s[i]);
      unsigned char c = (unsigned char)s[i];
      if (c == '\b') w->pos--;
      else if (c >= 0x20 && c < 0x7f) w->pos++;
    }
    return;
  }
  if (w->pending) out_white(w);
  cmd_out(w->ctx, s, n);
  for (size_t i = 0; i < n; i++)
    w->pos = s[i] == '\t' ? (w->pos / 8 + 1) * 8 : w->pos + 1;
}

static void out_nl(pr_out *w) {
  cmd_outc(w->ctx, '\n');
  w->pos = w->pending = 0;
}

/* A file being read line by line. */
typedef struct pr_in {
  const char *name;
  cmd_in *in;
  bool eof;
  int64_t mtime;
  const pr_opts *o;
} pr_in;

/* -e, -v, -c: the line as GNU's char_to_clump turns it into printed
 * characters (malloc'd; frees line). */
static char *clump_line(const pr_opts *o, char *line) {
  size_t n = strlen(line), cap = n * 4 + 1;
  if (o->expand) cap = n * (size_t)(o->in_tab_w > 4 ? o->in_tab_w : 4) + 1;
  char *out = malloc(cap);
  if (!out) return line;
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)line[i];
    if ((char)c == (o->expand ? o->in_tab : '\t')) {
      if (o->expand) {
        size_t w = (size_t)o->in_tab_w - k % (size_t)o->in_tab_w;
        while (w--) out[k++] = ' ';
      } else {
        out[k++] = (char)c;
      }
    } else if ((c < 0x20 || c >= 0x7f) && o->show == 'v') {
      k += (size_t)sprintf(out + k, "\\%03o", c);
    } else if ((c < 0x20 || c >= 0x7f) && o->show == 'c') {
      if (c < 0200) {
        out[k++] = '^';
        out[k++] = (char)(c ^ 0100);
      } else {
        k += (size_t)sprintf(out + k, "\\%03o", c);
      }
    } else {
      out[k++] = (char)c;
    }
  }
  out[k] = 0;
  free(line);
  return out;
}

/* The next line (without '\n') as a malloc'd string, or NULL at EOF. */
static char *next_line(pr_in *f) {
  if (f->eof || !f->in) return NULL;
  char *line;
  ssize_t n = cmd_in_getdelim(f->in, &line, '\n');
  if (n <= 0) {
    f->eof = true;
    return NULL;
  }
  if (line[n - 1] == '\n') n--;
  char *copy = malloc((size_t)n + 1);
  if (!copy) {
    f->eof = true;
    return NULL;
  }
  memcpy(copy, line, (size_t)n);
  copy[n] = '\0';
  if (f->o && (f->o->expand || f->o->show)) copy = clump_line(f->o, copy);
  return copy;
}

static void print_header(pr_opts *o, const char *name, int64_t when, long page) {
  cmd_ctx *ctx = o->ctx;
  char date[128] = "";
  struct tm tm;
  if (cmd_time_local(&o->tz, when, &tm)) {
    char *d = NULL;
    if (cmd_strftime(&d, sizeof date, o->date_fmt, &tm, when, 0) >= 0 && d) {
      snprintf(date, sizeof date, "%s", d);
      free(d);
    }
  }
  char page_text[64];
  snprintf(page_text, sizeof page_text, "Page %ld", page);
  const char *file_text = o->header ? o->header : name;
  long avail = o->width - (long)cmd_fs_width(date, strlen(date)) -
               (long)cmd_fs_width(file_text, strlen(file_text)) - (long)strlen(page_text);
  if (avail < 0) avail = 0;
  long lhs = avail / 2, rhs = avail - lhs;
  cmd_outf(ctx, "\n\n%*s%s%*s%s%*s%s\n\n\n", (int)o->offset, "", date,
           (int)(lhs ? lhs : 1), " ", file_text, (int)(rhs ? rhs : 1), " ", page_text);
}

/* One cell: an optional number, then the text cut to the column width. */
static void print_cell(pr_opts *o, pr_out *w, const char *text, long num, long colw,
                       bool last) {
  long start = w->pos + w->pending;
  if (o->number && num > 0) {
    char nb[48];
    int k = snprintf(nb, sizeof nb, "%*ld", o->num_digits, num % 100000000000L);
    /* GNU keeps the last DIGITS digits */
    const char *s = nb + (k > o->num_digits ? k - o->num_digits : 0);
    size_t lead = strspn(s, " ");
    w->pending += (long)lead;
    out_text(w, s + lead, strlen(s + lead));
    if (o->num_sep == '\t' && (o->columns > 1 || o->merge)) {
      /* GNU: in columns the TAB is as many spaces as reach the next tab
       * stop from the number's own start (the field is constant) */
      w->pending += 8 - o->num_digits % 8;
    } else if (o->num_sep == '\t') {
      cmd_outc(w->ctx, '\t');
      w->pos = (w->pos / 8 + 1) * 8;
    } else {
      out_text(w, &o->num_sep, 1);
    }
  }
  if (text && (o->columns > 1 || o->merge) && !o->join) {
    /* in columns, input tabs become spaces from the text's start, each run
     * printed on its own; the width counts them */
    long tstart = w->pos + w->pending, col = 0;
    long room = o->truncate && colw > 0 ? colw - (tstart - start) : -1;
    for (const char *p = text; *p; p++) {
      long adv = *p == '\t' ? 8 - col % 8 : 1;
      if (room >= 0 && col + adv > room) {
        if (*p == '\t') w->pending += room - col;
        break;
      }
      if (*p == '\t') {
        if (w->pending) out_white(w);
        w->pending = adv;
      } else {
        out_text(w, p, 1);
      }
      col += adv;
    }
  } else if (text) {
    out_text(w, text, strlen(text));
  }
  if (!last && o->pad) {
    long end = start + colw;
    if (w->pos + w->pending < end) w->pending = end - w->pos;
  }
}

/* The separator between two columns. */
/* GNU's print_sep_string: the separator's spaces join the white space
 * before them, which is printed at its end. */
static void print_sep(pr_opts *o, pr_out *w) {
  if (o->sep_given) {
    for (const char *p = o->col_sep; *p; p++) {
      if (*p == ' ') w->pending++;
      else out_text(w, p, 1);
    }
  } else {
    w->pending += 1;
  }
  if (w->pending) out_white(w);
}

static int pr_file_pages(pr_opts *o, pr_in *files, int nfiles, const char *title,
                         int64_t when) {
  cmd_ctx *ctx = o->ctx;
  bool headers = !o->no_header && o->length > 10;
  long body = headers ? o->length - 10 : o->length;
  if (body <= 0) body = o->length > 0 ? o->length : 1;
  long rows_per_page = o->dbl ? (body + 1) / 2 : body;
  long cols = o->merge ? nfiles : o->columns;
  long sep_w = o->sep_given ? (long)strlen(o->col_sep) : 1;
  /* -m -n: the number (DIGITS and its separator) comes out of the width */
  long numw =
      o->merge && o->number
          ? o->num_digits + 1 + (o->num_sep == '\t' ? 8 - (o->num_digits + 1) % 8 : 0) % 8
          : 0;
  long colw = cols > 1 ? (o->width - numw - (cols - 1) * sep_w) / cols : o->width;
  if (colw < 1) colw = 1;
  long num = o->first_num;
  long page = 1;
  size_t cap = (size_t)(rows_per_page * (o->merge ? 1 : cols));
  char **cell = calloc(cap * (size_t)(o->merge ? nfiles : 1) + 1, sizeof *cell);
  long *nums = calloc(cap * (size_t)(o->merge ? nfiles : 1) + 1, sizeof *nums);
  if (!cell || !nums) {
    free(cell);
    free(nums);
    return 1;
  }
  pr_out w = {ctx, 0, 0, o};
  int status = 0;
  for (;; page++) {
    if (cmd_poll(ctx)) {
      status = 1;
      break;
    }
    /* fill one page */
    long nrows = 0, count = 0;
    long per_col[PR_MAX_COLUMNS] = {0};
    if (o->merge) {
      for (long r = 0; r < rows_per_page; r++) {
        bool any = false;
        for (int f = 0; f < nfiles; f++) {
          char *l = next_line(&files[f]);
          cell[r * nfiles + f] = l;
          any |= l != NULL;
        }
        if (!any) break;
        nums[r] = num++;
        nrows++;
      }
      count = nrows;
    } else {
      for (count = 0; count < (long)cap; count++) {
        char *l = next_line(&files[0]);
        if (!l) break;
        cell[count] = l;
        nums[count] = num++;
      }
      if (cols == 1) {
        nrows = count;
      } else if (o->across) {
        nrows = (count + cols - 1) / cols;
      } else if (count == (long)cap) {
        nrows = rows_per_page;
        for (long c = 0; c < cols; c++) per_col[c] = rows_per_page;
      } else {
        long base = count / cols, extra = count % cols;
        for (long c = 0; c < cols; c++) per_col[c] = base + (c < extra);
        nrows = per_col[0];
      }
    }
    if (count == 0 && page > 1) break;
    bool show = page >= o->first_page && (o->last_page == 0 || page <= o->last_page);
    if (show && count > 0) {
      if (headers) print_header(o, title, when, page);
      for (long r = 0; r < nrows; r++) {
        if (cols > 1 || o->merge) {
          w.pending = o->offset; /* a whitespace run of its own (tabs where they fit) */
          out_white(&w);
        } else {
          for (long k = 0; k < o->offset; k++)
            cmd_outc(ctx, ' '); /* one column: spaces */
          w.pos = o->offset;
        }
        if (o->merge) {
          if (o->number) print_cell(o, &w, NULL, nums[r], 0, true);
          for (int f = 0; f < nfiles; f++) {
            bool last = f == nfiles - 1;
            print_cell(o, &w, cell[r * nfiles + f], 0, colw, last);
            if (!last) print_sep(o, &w);
          }
        } else if (cols == 1) {
          print_cell(o, &w, cell[r], nums[r], colw, true);
        } else {
          /* the last column with a line in this row */
          long lastc = -1;
          for (long c = 0; c < cols; c++) {
            long idx = o->across ? r * cols + c : -1;
            if (!o->across) {
              if (r >= per_col[c]) continue;
              idx = 0;
              for (long k = 0; k < c; k++) idx += per_col[k];
              idx += r;
            }
            if (idx < count) lastc = c;
          }
          for (long c = 0; c <= lastc; c++) {
            long idx;
            if (o->across) {
              idx = r * cols + c;
            } else {
              idx = 0;
              for (long k = 0; k < c; k++) idx += per_col[k];
              idx = r < per_col[c] ? idx + r : -1;
            }
            bool last = c == lastc;
            print_cell(o, &w, idx >= 0 && idx < count ? cell[idx] : NULL,
                       idx >= 0 && idx < count ? nums[idx] : 0, colw, last);
            if (!last) print_sep(o, &w);
          }
        }
        out_nl(&w);
        if (o->dbl) out_nl(&w);
      }
      if (headers) {
        long used = o->dbl ? nrows * 2 : nrows;
        if (o->formfeed) {
          cmd_outc(ctx, '\f');
        } else {
          for (long k = used; k < body; k++) cmd_outc(ctx, '\n');
          cmd_outs(ctx, "\n\n\n\n\n");
        }
      } else if (o->formfeed && !o->no_header) {
        cmd_outc(ctx, '\f');
      }
    }
    long total = o->merge ? nrows * nfiles : count;
    for (long k = 0; k < total; k++) free(cell[k]), cell[k] = NULL;
    bool more = false;
    for (int f = 0; f < nfiles; f++) more |= !files[f].eof;
    if (!more || count < (long)(o->merge ? rows_per_page : (long)cap)) break;
  }
  free(cell);
  free(nums);
  return status;
}

static bool pr_num(const char *s, long min, long max, long *out) {
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (!*s || *end || errno || v < min || v > max) return false;
  *out = v;
  return true;
}

enum { O_PAGES = CMD_OPT_LONG, O_COLUMNS };
static const char pr_options[] =
    "(pages):(columns):(help)(version)a(across)d(double-space)D:(date-format)"
    "F(form-feed)h:(header)J(join-lines)l:(length)m(merge)e::(expand-tabs)"
    "i::(output-tabs)v(show-nonprinting)c(show-control-chars)n::(number-lines)"
    "N:(first-line-number)o:(indent)r(no-file-warnings)s::(separator)S::(sep-string)"
    "t(omit-header)T(omit-pagination)w:(width)W:(page-width)f";

int cmd_pr_main(cmd_ctx *ctx, int argc, char **argv) {
  pr_opts o = {.ctx = ctx,
               .columns = 1,
               .length = 66,
               .width = 72,
               .first_page = 1,
               .first_num = 1,
               .num_sep = '\t',
               .num_digits = 5,
               .date_fmt = "%Y-%m-%d %H:%M",
               .col_sep = " ",
               .truncate = true,
               .pad = true,
               .in_tab = '\t',
               .out_tab = '\t',
               .in_tab_w = 8,
               .out_tab_w = 8};
  cmd_tz_from_env(ctx, &o.tz);
  bool width_given = false, s_flag = false;
  /* +FIRST[:LAST] and -COLUMN are taken out before the options */
  char **nv = cmd_alloc(ctx, ((size_t)argc + 1) * sizeof *nv);
  if (!nv) return 1;
  int nc = 0;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (i > 0 && strcmp(a, "--") == 0) {
      while (i < argc) nv[nc++] = argv[i++];
      break;
    }
    if (i > 0 && a[0] == '+' && a[1] >= '0' && a[1] <= '9') {
      char *end;
      o.first_page = strtol(a + 1, &end, 10);
      if (*end == ':') o.last_page = strtol(end + 1, &end, 10);
      if (*end || o.first_page < 1 || (o.last_page && o.last_page < o.first_page)) {
        cmd_errorf(ctx, "invalid page range %s", cmd_gnu_quote(ctx, a + 1));
        return 1;
      }
      continue;
    }
    if (i > 0 && a[0] == '-' && a[1] >= '1' && a[1] <= '9' &&
        strspn(a + 1, "0123456789") == strlen(a + 1)) {
      if (!pr_num(a + 1, 1, PR_MAX_COLUMNS, &o.columns)) {
        cmd_errorf(ctx, "invalid number of columns: %s", cmd_gnu_quote(ctx, a + 1));
        return 1;
      }
      continue;
    }
    nv[nc++] = argv[i];
  }
  nv[nc] = NULL;
  argc = nc, argv = nv;
  cmd_getopt_state g = CMD_GETOPT_INIT;
  /* A loop: arguments are checked where they stand, -J and -W and the last of
   * -s and -S count in order; the plain flags are read after it. */
  for (int c; (c = cmd_getopt(ctx, &g, argc, argv, pr_options, NULL)) != -1;) {
    switch (c) {
      case 'J':
        o.join = true;
        break;
      case 'l':
        if (!pr_num(g.arg, 1, PR_MAX_LENGTH, &o.length)) {
          cmd_errorf(ctx, "'-l PAGE_LENGTH' invalid number of lines: %s%s",
                     cmd_gnu_quote(ctx, g.arg),
                     strspn(g.arg, "0123456789") == strlen(g.arg)
                         ? ": Numerical result out of range"
                         : "");
          return 1;
        }
        break;
      case 'e':
      case 'i': {
        char *tc = c == 'e' ? &o.in_tab : &o.out_tab;
        int *tw = c == 'e' ? &o.in_tab_w : &o.out_tab_w;
        if (c == 'e') o.expand = true;
        else o.tabify = true;
        if (g.arg) {
          const char *p = g.arg;
          if (*p && !(*p >= '0' && *p <= '9')) *tc = *p++;
          if (*p) {
            long d;
            if (!pr_num(p, 1, 1000, &d)) {
              cmd_errorf(ctx, "'-%c' extra characters or invalid number in the argument: %s",
                         c, cmd_gnu_quote(ctx, p));
              return cmd_usage_hint(ctx, 1);
            }
            *tw = (int)d;
          }
        }
        break;
      }
      case 'n':
        o.number = true;
        if (g.arg) {
          const char *p = g.arg;
          if (*p && !(*p >= '0' && *p <= '9')) o.num_sep = *p++;
          if (*p) {
            long d;
            if (!pr_num(p, 1, 20, &d)) {
              cmd_errorf(ctx,
                         "'-n' extra characters or invalid number in the argument: %s",
                         cmd_gnu_quote(ctx, p));
              return 1;
            }
            o.num_digits = (int)d;
          }
        }
        break;
      case 'N':
        if (!pr_num(g.arg, -1000000000L, 1000000000L, &o.first_num)) {
          cmd_errorf(ctx, "'-N NUMBER' invalid starting line number: %s",
                     cmd_gnu_quote(ctx, g.arg));
          return 1;
        }
        break;
      case 'o':
        if (!pr_num(g.arg, 0, 10000, &o.offset)) {
          cmd_errorf(ctx, "'-o MARGIN' invalid line offset: %s",
                     cmd_gnu_quote(ctx, g.arg));
          return 1;
        }
        break;
      case 's':
      case 'S':
        o.sep_given = true;
        if (c == 's') s_flag = true;
        o.col_sep = g.arg ? cmd_strdup(ctx, g.arg) : c == 's' ? "\t" : "";
        break;
      case 'w':
      case 'W':
        if (!pr_num(g.arg, 1, 100000, &o.width)) {
          cmd_errorf(ctx, "'-%c PAGE_WIDTH' invalid number of characters: %s%s", c,
                     cmd_gnu_quote(ctx, g.arg),
                     strspn(g.arg, "0123456789") == strlen(g.arg)
                         ? ": Numerical result out of range"
                         : "");
          return 1;
        }
        width_given = c == 'w';
        if (c == 'W') o.join = false;
        break;
      CMD_CASES_HELP_VERSION(ctx, "Usage: pr [OPTION]... [FILE]...\n"
                                  "Paginate or columnate FILE(s) for printing.\n");
      case O_PAGES: {
        char *end;
        o.first_page = strtol(g.arg, &end, 10);
        if (*end == ':') o.last_page = strtol(end + 1, &end, 10);
        if (*end || o.first_page < 1) {
          cmd_errorf(ctx, "invalid page range %s", cmd_gnu_quote(ctx, g.arg));
          return 1;
        }
        break;
      }
      case O_COLUMNS:
        if (!pr_num(g.arg, 1, PR_MAX_COLUMNS, &o.columns)) {
          cmd_errorf(ctx, "invalid number of columns: %s", cmd_gnu_quote(ctx, g.arg));
          return 1;
        }
        break;
      case '?':
        return 1; /* cmd_getopt printed the message */
    }
  }
  o.across = cmd_opt_on(&g, 'a');
  o.dbl = cmd_opt_on(&g, 'd');
  if (cmd_opt_on(&g, 'D')) o.date_fmt = cmd_opt_arg(&g, 'D');
  o.formfeed = cmd_opt_on(&g, 'F') || cmd_opt_on(&g, 'f');
  o.header = cmd_opt_arg(&g, 'h');
  o.merge = cmd_opt_on(&g, 'm');
  o.show = cmd_opt_on(&g, 'v') ? 'v' : cmd_opt_on(&g, 'c') ? 'c' : 0;
  o.no_header = cmd_opt_on(&g, 't') || cmd_opt_on(&g, 'T');
  if (o.across && o.columns == 1) o.across = false;
  if (o.merge && o.columns > 1) {
    cmd_errorf(ctx, "cannot specify number of columns when printing in parallel");
    return 1;
  }
  if (o.merge && o.across) {
    cmd_errorf(ctx, "cannot specify both printing across and printing in parallel");
    return 1;
  }
  /* -s without -w: no width, so no cutting and no padding (GNU) */
  if (s_flag && !width_given) o.truncate = false, o.pad = false;
  if (o.join) {
    /* -J: whole lines, no alignment, a TAB between columns unless -s/-S */
    o.truncate = false, o.pad = false;
    if (!o.sep_given) o.sep_given = true, o.col_sep = "\t";
  }
  if (o.columns == 1 && !o.merge) o.truncate = false, o.pad = false;
  int nfiles = argc - g.ind;
  const char *names[PR_MAX_FILES];
  if (nfiles == 0)
    names[0] = "-", nfiles = 1;
  else if (nfiles > PR_MAX_FILES) {
    cmd_errorf(ctx, "too many files (limit %d)", PR_MAX_FILES);
    return 1;
  } else {
    for (int i = 0; i < nfiles; i++) names[i] = argv[g.ind + i];
  }
  pr_in files[PR_MAX_FILES];
  int status = 0, nopen = 0;
  for (int i = 0; i < nfiles; i++) {
    pr_in *f = &files[nopen];
    *f = (pr_in){names[i], NULL, false, ctx->now, &o};
    int rc = cmd_in_open(ctx, names[i], &f->in);
    if (rc < 0) {
      cmd_record_error(ctx, rc, names[i]);
      cmd_errorf(ctx, "%s: %s", names[i], cmd_strerror(rc));
      status = 1;
      continue;
    }
    store_stat st;
    if (strcmp(names[i], "-") != 0 && cmd_fs_stat(ctx, names[i], &st) == 0)
      f->mtime = st.mtime;
    nopen++;
  }
  if (o.merge) {
    if (nopen && pr_file_pages(&o, files, nopen, "", ctx->now)) status = 1;
  } else {
    for (int i = 0; i < nopen && !cmd_poll(ctx); i++) {
      const char *title = strcmp(files[i].name, "-") == 0 ? "" : files[i].name;
      if (pr_file_pages(&o, &files[i], 1, title, files[i].mtime)) status = 1;
    }
  }
  for (int i = 0; i < nopen; i++) cmd_in_close(files[i].in);
  return status;
}
