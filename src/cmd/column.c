/*
 * column - columnate lists (util-linux 2.38).
 *
 *   Usage: column [options] [file ...]
 *   -t, --table                create a table
 *   -s, --separator <string>   input cell delimiters (table; default whitespace)
 *   -o, --output-separator <string>  between table columns (default two spaces)
 *   -N, --table-columns <names>      header names, comma separated
 *   -R, --table-right <columns>      right-align these columns (numbers or names)
 *   -H, --table-hide <columns>       do not print these columns
 *   -L, --table-empty-lines          keep empty lines in a table
 *   -d, --table-noheadings           do not print the header
 *   -J, --json                       JSON output (needs -N)
 *   -n, --table-name <name>          the JSON table's name (default "table")
 *   -c, --output-width <width>       width of the output (list mode)
 *   -x, --fillrows                   fill rows before columns (list mode)
 *
 * Design: list mode is util-linux's columnate: entries padded with TABs to
 * a multiple of 8 columns wide enough for the widest one, as many columns as
 * fit the width (-c, else $COLUMNS, else 80), filled down the columns (or
 * across with -x). Table mode splits rows on runs of whitespace (leading
 * blanks ignored) or, with -s, on every separator character (empty cells
 * kept), pads every column but the last to its widest cell (display width,
 * so UTF-8 aligns) and joins with the output separator. -J prints the
 * table as libsmartcols does: keys are the -N names in ASCII lower case,
 * empty or missing cells are null, hidden columns are left out, and a row
 * with more cells than names is an error. Tree options and wrapping
 * (-W/-T/-E) are not implemented.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "cmd/cmd.h"
#include "cmd/util_gnu.h"

CMD_DEFINE("column", cmd_column_main);

/* Display width of a UTF-8 string (invalid bytes count 1). */
static size_t col_width(const char *s, size_t n) {
  size_t w = 0;
  locale_t loc = cmd_utf8_locale(), old = (locale_t)0;
  if (loc) old = uselocale(loc);
  for (size_t i = 0; i < n;) {
    uint32_t wc;
    int l = cmd_utf8_decode((const unsigned char *)s + i, n - i, &wc);
    if (l <= 0) {
      w++;
      i++;
      continue;
    }
    int cw = wcwidth((wchar_t)wc);
    w += cw > 0 ? (size_t)cw : (wc < 0x80 && wc != 0 ? 1 : 0);
    i += (size_t)l;
  }
  if (loc) uselocale(old);
  return w;
}

typedef struct col_cell {
  const char *s;  /* text (into the input buffer) */
  size_t len;     /* bytes */
  size_t width;   /* display width */
} col_cell;

typedef struct col_row {
  col_cell *cells; /* cells (malloc'd) */
  size_t n;        /* count */
} col_row;

/* Writes s as libsmartcols' JSON strings: " \\ \b \f \n \r \t escaped,
 * other control bytes as \u00XX, ASCII letters lower-cased when `lower`. */
static void col_json_str(cmd_ctx *ctx, const char *s, size_t n, bool lower) {
  cmd_outc(ctx, '"');
  for (size_t i = 0; i < n; i++) {
    unsigned char ch = (unsigned char)s[i];
    switch (ch) {
    case '"': cmd_outs(ctx, "\\\""); break;
    case '\\': cmd_outs(ctx, "\\\\"); break;
    case '\b': cmd_outs(ctx, "\\b"); break;
    case '\f': cmd_outs(ctx, "\\f"); break;
    case '\n': cmd_outs(ctx, "\\n"); break;
    case '\r': cmd_outs(ctx, "\\r"); break;
    case '\t': cmd_outs(ctx, "\\t"); break;
    default:
      if (ch < 0x20) cmd_outf(ctx, "\\u%04x", ch);
      else cmd_outc(ctx, (char)(lower && ch >= 'A' && ch <= 'Z' ? ch + 32 : ch));
    }
  }
  cmd_outc(ctx, '"');
}

/* Matches a column list item (number or header name) against column i. */
static bool col_listed(const char *list, size_t i, char **names, size_t nnames) {
  if (!list) return false;
  const char *p = list;
  while (*p) {
    size_t l = strcspn(p, ",");
    char *end;
    unsigned long v = strtoul(p, &end, 10);
    if (end == p + l && l > 0 && v == i + 1) return true;
    if (i < nnames && strlen(names[i]) == l && strncmp(names[i], p, l) == 0) return true;
    p += l;
    if (*p == ',') p++;
  }
  return false;
}

int cmd_column_main(cmd_ctx *ctx, int argc, char **argv) {
  static const cmd_longopt longopts[] = {
      {"table", 0, 't'},            {"separator", 1, 's'},       {"output-separator", 1, 'o'},
      {"table-columns", 1, 'N'},    {"table-right", 1, 'R'},     {"table-hide", 1, 'H'},
      {"table-empty-lines", 0, 'L'}, {"table-noheadings", 0, 'd'}, {"output-width", 1, 'c'},
      {"fillrows", 0, 'x'},         {"json", 0, 'J'},            {"table-name", 1, 'n'},
      {"help", 0, 'h'},             {"version", 0, 'V'},         {0, 0, 0}};
  bool table = false, fillrows = false, keep_empty = false, noheadings = false, json = false;
  const char *table_name = "table";
  const char *sep = NULL, *osep = "  ", *names_arg = NULL, *right = NULL, *hide = NULL;
  size_t termwidth = 0;
  cmd_getopt_state g = CMD_GETOPT_INIT;
  int c;
  while ((c = cmd_getopt(ctx, &g, argc, argv, "tc:dH:LN:n:o:R:s:xJhV", longopts)) != -1) {
    switch (c) {
    case 't': table = true; break;
    case 's': sep = g.arg; break;
    case 'o': osep = g.arg; break;
    case 'N': names_arg = g.arg; break;
    case 'R': right = g.arg; break;
    case 'H': hide = g.arg; break;
    case 'L': keep_empty = true; break;
    case 'd': noheadings = true; break;
    case 'n': table_name = g.arg; break;
    case 'x': fillrows = true; break;
    case 'c': {
      uintmax_t v;
      if (cmd_parse_umax(g.arg, NULL, &v) != CMD_NUM_OK) {
        cmd_errorf(ctx, "invalid columns argument: '%s'", g.arg);
        return 1;
      }
      termwidth = v > 100000 ? 100000 : (size_t)v;
      break;
    }
    case 'J': json = table = true; break;
    case 'h':
      cmd_outs(ctx, "\nUsage:\n column [options] [<file>...]\n\nColumnate lists.\n\nOptions:\n"
                    " -t, --table                      create a table\n"
                    " -N, --table-columns <names>      comma separated columns names\n"
                    " -L, --table-empty-lines          don't ignore empty lines\n"
                    " -R, --table-right <columns>      right align text in these columns\n"
                    " -H, --table-hide <columns>       don't print the columns\n"
                    " -d, --table-noheadings           don't print header\n"
                    " -J, --json                       use JSON output format for table\n"
                    " -n, --table-name <name>          table name for JSON output\n"
                    " -s, --separator <string>         possible table delimiters\n"
                    " -o, --output-separator <string>  columns separator for table output\n"
                    " -c, --output-width <width>       width of output in number of characters\n"
                    " -x, --fillrows                   fill rows before columns\n");
      return 0;
    case 'V': cmd_outs(ctx, "column from util-linux 2.38.1 (sbx)\n"); return 0;
    default: return 1; /* cmd_getopt printed the message */
    }
  }
  if (json && !names_arg) {
    cmd_errorf(ctx, "option --table-columns required for --json");
    return 1;
  }
  if (!termwidth) {
    const char *cols = cmd_getenv(ctx, "COLUMNS");
    termwidth = cols && atoi(cols) > 0 ? (size_t)atoi(cols) : 80;
  }
  /* Read all inputs. */
  static char *dash[] = {"-", NULL};
  char **files = g.ind < argc ? argv + g.ind : dash;
  int nfiles = g.ind < argc ? argc - g.ind : 1;
  char **bufs = calloc((size_t)nfiles, sizeof *bufs);
  size_t *lens = calloc((size_t)nfiles, sizeof *lens);
  col_row *rows = NULL;
  size_t nrows = 0, rcap = 0;
  int status = 0;
  if (!bufs || !lens) goto out;
  size_t limit = ctx->max_string ? (size_t)ctx->max_string : (size_t)1 << 26;
  for (int f = 0; f < nfiles; f++) {
    int r = cmd_read_all(ctx, files[f], limit, &bufs[f], &lens[f]);
    if (r == -EISDIR) { /* util-linux: err(1, "read failed") ends at once */
      cmd_errorf(ctx, "read failed: %s", cmd_strerror(r));
      status = 1;
      goto out;
    }
    if (r < 0) { /* util-linux warn("%s", name): the name unquoted */
      status = cmd_perror(ctx, files[f], r);
      bufs[f] = NULL;
      continue;
    }
    char *d = bufs[f];
    size_t len = lens[f];
    for (size_t p = 0; p < len;) {
      char *nl = memchr(d + p, '\n', len - p);
      size_t l = nl ? (size_t)(nl - d) - p : len - p;
      const char *line = d + p;
      p += l + 1;
      if (nrows == rcap) {
        rcap = rcap ? rcap * 2 : 64;
        col_row *nr = realloc(rows, rcap * sizeof *nr);
        if (!nr) goto out;
        rows = nr;
      }
      col_row *row = &rows[nrows];
      row->cells = NULL;
      row->n = 0;
      size_t ccap = 0;
      /* Cells: with -s every separator splits; else runs of blanks. */
      if (!table) {
        if (l == 0) continue;
        row->cells = malloc(sizeof *row->cells);
        if (!row->cells) goto out;
        row->cells[0].s = line;
        row->cells[0].len = l;
        row->cells[0].width = col_width(line, l);
        row->n = 1;
        nrows++;
        continue;
      }
      size_t i = 0;
      bool blank_line = true;
      for (size_t k = 0; k < l; k++)
        if (!(sep ? strchr(sep, line[k]) != NULL && !(line[k] == 0) : (line[k] == ' ' || line[k] == '\t'))) {
          blank_line = false;
          break;
        }
      if (l == 0 || (blank_line && !sep)) {
        if (!keep_empty) continue;
        nrows++;
        continue;
      }
      if (!sep)
        while (i < l && (line[i] == ' ' || line[i] == '\t')) i++;
      for (;;) {
        size_t st = i;
        if (sep) {
          while (i < l && !strchr(sep, line[i])) i++;
        } else {
          while (i < l && line[i] != ' ' && line[i] != '\t') i++;
        }
        if (row->n == ccap) {
          ccap = ccap ? ccap * 2 : 8;
          col_cell *nc = realloc(row->cells, ccap * sizeof *nc);
          if (!nc) goto out;
          row->cells = nc;
        }
        row->cells[row->n].s = line + st;
        row->cells[row->n].len = i - st;
        row->cells[row->n].width = col_width(line + st, i - st);
        row->n++;
        if (i >= l) break;
        i++; /* the separator */
        if (!sep) {
          while (i < l && (line[i] == ' ' || line[i] == '\t')) i++;
          if (i >= l) break;
        }
      }
      nrows++;
    }
  }
  if (!table) {
    /* List mode. */
    size_t maxlen = 0;
    for (size_t r = 0; r < nrows; r++)
      if (rows[r].cells[0].width > maxlen) maxlen = rows[r].cells[0].width;
    if (nrows == 0) goto out;
    if (maxlen >= termwidth) {
      for (size_t r = 0; r < nrows; r++) {
        cmd_out(ctx, rows[r].cells[0].s, rows[r].cells[0].len);
        cmd_outc(ctx, '\n');
      }
      goto out;
    }
    size_t ml = (maxlen + 8) & ~(size_t)7;
    size_t numcols = termwidth / ml;
    if (!numcols) numcols = 1;
    if (fillrows) {
      size_t chcnt = 0, col = 0, endcol = ml;
      for (size_t r = 0; r < nrows; r++) {
        cmd_out(ctx, rows[r].cells[0].s, rows[r].cells[0].len);
        chcnt += rows[r].cells[0].width;
        if (r + 1 == nrows) break;
        if (++col == numcols) {
          chcnt = col = 0;
          endcol = ml;
          cmd_outc(ctx, '\n');
        } else {
          size_t cnt;
          while ((cnt = (chcnt + 8) & ~(size_t)7) <= endcol) {
            cmd_outc(ctx, '\t');
            chcnt = cnt;
          }
          endcol += ml;
        }
      }
      if (chcnt) cmd_outc(ctx, '\n');
    } else {
      size_t numrows = nrows / numcols + (nrows % numcols ? 1 : 0);
      for (size_t row = 0; row < numrows; row++) {
        size_t endcol = ml, chcnt = 0;
        for (size_t base = row, col = 0; col < numcols; col++) {
          cmd_out(ctx, rows[base].cells[0].s, rows[base].cells[0].len);
          chcnt += rows[base].cells[0].width;
          if ((base += numrows) >= nrows) break;
          size_t cnt;
          while ((cnt = (chcnt + 8) & ~(size_t)7) <= endcol) {
            cmd_outc(ctx, '\t');
            chcnt = cnt;
          }
          endcol += ml;
        }
        cmd_outc(ctx, '\n');
      }
    }
    goto out;
  }
  /* Table mode. util-linux replaces the status of reading with the
   * printing's when there is something to print. */
  if (nrows) status = 0;
  {
    char **names = NULL;
    size_t nnames = 0;
    if (names_arg) {
      char *copy = cmd_strdup(ctx, names_arg);
      if (!copy) goto out;
      size_t cnt = 1;
      for (char *p = copy; *p; p++) cnt += *p == ',';
      names = cmd_alloc(ctx, cnt * sizeof *names);
      if (!names) goto out;
      for (char *p = copy;;) {
        names[nnames++] = p;
        char *comma = strchr(p, ',');
        if (!comma) break;
        *comma = 0;
        p = comma + 1;
      }
    }
    size_t ncols = nnames;
    for (size_t r = 0; r < nrows; r++)
      if (rows[r].n > ncols) ncols = rows[r].n;
    size_t *width = calloc(ncols ? ncols : 1, sizeof *width);
    bool *rightc = calloc(ncols ? ncols : 1, sizeof *rightc);
    bool *hidden = calloc(ncols ? ncols : 1, sizeof *hidden);
    if (!width || !rightc || !hidden) {
      free(width);
      free(rightc);
      free(hidden);
      goto out;
    }
    for (size_t i = 0; i < ncols; i++) {
      rightc[i] = col_listed(right, i, names, nnames);
      hidden[i] = col_listed(hide, i, names, nnames);
    }
    size_t trows = nrows; /* rows of the text table */
    if (json) {
      size_t jrows = nrows;
      trows = 0; /* the text table below prints nothing */
      for (size_t r = 0; r < nrows; r++)
        if (rows[r].n > nnames) {
          cmd_errorf(ctx, "line %zu: for JSON the name of the column %zu is required", r + 2,
                     nnames + 1);
          status = 1;
          jrows = 0;
          break;
        }
      if (jrows) {
        cmd_outs(ctx, "{\n   ");
        col_json_str(ctx, table_name, strlen(table_name), true);
        cmd_outs(ctx, ": [\n");
      }
      for (size_t r = 0; r < jrows; r++) {
        cmd_outs(ctx, r ? "{\n" : "      {\n");
        bool first = true;
        for (size_t i = 0; i < nnames; i++) {
          if (hidden[i]) continue;
          if (!first) cmd_outs(ctx, ",\n");
          first = false;
          cmd_outs(ctx, "         ");
          col_json_str(ctx, names[i], strlen(names[i]), true);
          cmd_outs(ctx, ": ");
          if (i < rows[r].n && rows[r].cells[i].len)
            col_json_str(ctx, rows[r].cells[i].s, rows[r].cells[i].len, false);
          else
            cmd_outs(ctx, "null");
        }
        cmd_outs(ctx, r + 1 < jrows ? "\n      }," : "\n      }\n");
        if ((r & 1023) == 0 && cmd_poll(ctx)) break;
      }
      if (jrows) cmd_outs(ctx, "   ]\n}\n");
      noheadings = true;
    }
    bool header = nnames && !noheadings;
    if (header)
      for (size_t i = 0; i < nnames; i++) {
        size_t w = col_width(names[i], strlen(names[i]));
        if (w > width[i]) width[i] = w;
      }
    for (size_t r = 0; r < nrows; r++)
      for (size_t i = 0; i < rows[r].n; i++)
        if (rows[r].cells[i].width > width[i]) width[i] = rows[r].cells[i].width;
    size_t last = ncols;
    while (last > 0 && hidden[last - 1]) last--;
    size_t osl = strlen(osep);
    for (size_t r = header ? (size_t)-1 : 0; r == (size_t)-1 || r < trows; r++) {
      bool first = true;
      for (size_t i = 0; i < last; i++) {
        if (hidden[i]) continue;
        const char *s = "";
        size_t len = 0, w = 0;
        if (r == (size_t)-1) {
          if (i < nnames) {
            s = names[i];
            len = strlen(s);
            w = col_width(s, len);
          }
        } else if (i < rows[r].n) {
          s = rows[r].cells[i].s;
          len = rows[r].cells[i].len;
          w = rows[r].cells[i].width;
        }
        if (!first) cmd_out(ctx, osep, osl);
        first = false;
        size_t pad = width[i] - w;
        if (rightc[i]) cmd_outf(ctx, "%*s", (int)pad, "");
        cmd_out(ctx, s, len);
        if (!rightc[i] && i + 1 < last) cmd_outf(ctx, "%*s", (int)pad, "");
      }
      cmd_outc(ctx, '\n');
      if (r == (size_t)-1) continue;
      if (ctx->out_err) break;
    }
    free(width);
    free(rightc);
    free(hidden);
  }
out:
  if (rows)
    for (size_t r = 0; r < nrows; r++) free(rows[r].cells);
  free(rows);
  if (bufs)
    for (int f = 0; f < nfiles; f++) free(bufs[f]);
  free(bufs);
  free(lens);
  if (ctx->out_err) return cmd_write_error(ctx, ctx->out_err);
  return status;
}
