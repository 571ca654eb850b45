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
 * (-W/-T/-E) are not implemented. -O orders the output columns (listed
 * ones first); -l N makes the Nth cell take the rest of the line; -e is
 * a no-op (the header repeats per terminal page); -r/-i/-p print the rows
 * as a tree (col_tree: sorted id index, iterative depth-first walk).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "cmd/cmd.h"
#include "cmd/lib/gnu.h"

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

/* The column a -r/-i/-p argument names (a -N name, else a 1-based number);
 * -1 when there is none. */
static long col_find(const char *spec, char **names, size_t nnames, size_t ncols) {
  for (size_t i = 0; i < nnames; i++)
    if (strcmp(names[i], spec) == 0) return (long)i;
  char *end;
  unsigned long v = strtoul(spec, &end, 10);
  if (*spec && !*end && v >= 1 && v <= ncols) return (long)v - 1;
  return -1;
}

/* Cell i of row r, or an empty cell. */
static col_cell col_get(const col_row *row, size_t i) {
  col_cell e = {"", 0, 0};
  return i < row->n ? row->cells[i] : e;
}

/* One id of the sorted id index (-i values). */
typedef struct col_key {
  const char *s; /* the id text */
  size_t len;    /* its length */
  size_t row;    /* its row */
} col_key;

static int col_key_cmp(const void *a, const void *b) {
  const col_key *x = a, *y = b;
  size_t n = x->len < y->len ? x->len : y->len;
  int c = memcmp(x->s, y->s, n);
  if (c) return c;
  if (x->len != y->len) return x->len < y->len ? -1 : 1;
  return x->row < y->row ? -1 : x->row > y->row;
}

/*
 * -r/-i/-p: orders rows as libsmartcols' tree (each row under the first row
 * whose id equals its parent, children in input order, depth first) and
 * gives each row its depth and the "last child" flags of its ancestors.
 * (the last row with that id, as util-linux). A row whose parent is
 * missing or itself is a root; in a cycle each row that reaches itself
 * going up becomes a root (util-linux breaks cycles elsewhere).
 * Fills ord[nrows] (row indices in output order) and pre[r] (malloc'd tree
 * prefix, "│ └─"); returns false when out of memory or interrupted.
 */
static bool col_tree(cmd_ctx *ctx, col_row *rows, size_t nrows, size_t idc, size_t parc,
                     size_t *ord, char **pre) {
  bool ok = false;
  size_t *par = malloc((nrows ? nrows : 1) * sizeof *par);
  size_t *next = malloc((nrows ? nrows : 1) * sizeof *next);  /* next sibling */
  size_t *first = malloc((nrows ? nrows : 1) * sizeof *first); /* first child */
  size_t *lastc = malloc((nrows ? nrows : 1) * sizeof *lastc); /* last child */
  size_t *stack = malloc((nrows ? nrows : 1) * sizeof *stack);
  col_key *keys = malloc((nrows ? nrows : 1) * sizeof *keys);
  const size_t NONE = (size_t)-1;
  if (!par || !next || !first || !lastc || !stack || !keys) goto out;
  size_t nk = 0;
  for (size_t r = 0; r < nrows; r++) {
    if (!rows[r].n) continue;
    col_cell id = col_get(&rows[r], idc);
    keys[nk++] = (col_key){id.s, id.len, r};
  }
  qsort(keys, nk, sizeof *keys, col_key_cmp);
  for (size_t r = 0; r < nrows; r++) {
    par[r] = NONE;
    next[r] = first[r] = lastc[r] = NONE;
    if (!rows[r].n) continue;
    col_cell pv = col_get(&rows[r], parc);
    /* like util-linux: the last row with that id, not r itself */
    size_t lo = 0, hi = nk;
    while (lo < hi) {
      size_t mid = lo + (hi - lo) / 2;
      size_t n = keys[mid].len < pv.len ? keys[mid].len : pv.len;
      int c = memcmp(keys[mid].s, pv.s, n);
      if (!c) c = keys[mid].len < pv.len ? -1 : keys[mid].len > pv.len;
      if (c < 0) lo = mid + 1;
      else hi = mid;
    }
    for (; lo < nk && keys[lo].len == pv.len && memcmp(keys[lo].s, pv.s, pv.len) == 0; lo++)
      if (keys[lo].row != r) par[r] = keys[lo].row;
    if ((r & 255) == 0 && cmd_poll(ctx)) goto out;
  }
  /* cycles: a row that reaches itself going up becomes a root */
  for (size_t r = 0; r < nrows; r++) {
    size_t q = par[r], steps = 0;
    while (q != NONE && q != r && steps++ < nrows) q = par[q];
    if (q == r) par[r] = NONE;
    if ((r & 255) == 0 && cmd_poll(ctx)) goto out;
  }
  for (size_t r = 0; r < nrows; r++) {
    size_t p = par[r];
    if (p == NONE) continue;
    if (lastc[p] == NONE) first[p] = r;
    else next[lastc[p]] = r;
    lastc[p] = r;
  }
  /* depth-first, iterative; the prefix of a row: for each ancestor below
   * the root "│ " when it has a later sibling, else "  "; then "├─"/"└─" */
  size_t k = 0;
  for (size_t root = 0; root < nrows; root++) {
    if (par[root] != NONE) continue;
    size_t sp = 0;
    stack[sp++] = root;
    while (sp) {
      size_t r = stack[--sp];
      ord[k++] = r;
      size_t depth = 0;
      for (size_t q = par[r]; q != NONE; q = par[q]) depth++;
      pre[r] = malloc(depth * 4 + 3);
      if (!pre[r]) goto out;
      char *o = pre[r] + depth * 4 + 2;
      *o = 0;
      /* built right to left */
      size_t q = r;
      for (size_t d = 0; d < depth; d++, q = par[q]) {
        const char *piece;
        size_t pl;
        if (d == 0) {
          piece = next[q] != NONE ? "\xe2\x94\x9c\xe2\x94\x80" : "\xe2\x94\x94\xe2\x94\x80";
          pl = 6;
        } else {
          piece = next[q] != NONE ? "\xe2\x94\x82 " : "  ";
          pl = next[q] != NONE ? 4 : 2;
        }
        o -= pl;
        memcpy(o, piece, pl);
      }
      if (o != pre[r]) memmove(pre[r], o, strlen(o) + 1);
      /* children pushed in reverse so the first pops first */
      size_t nch = 0;
      for (size_t ch = first[r]; ch != NONE; ch = next[ch]) nch++;
      size_t top = sp + nch;
      for (size_t ch = first[r]; ch != NONE; ch = next[ch]) stack[--top] = ch, sp++;
      if ((k & 4095) == 0 && cmd_poll(ctx)) goto out;
    }
  }
  ok = k == nrows;
out:
  free(par);
  free(next);
  free(first);
  free(lastc);
  free(stack);
  free(keys);
  return ok;
}

static const char column_usage[] =
    "\nUsage:\n column [options] [<file>...]\n\nColumnate lists.\n\nOptions:\n"
    " -t, --table                      create a table\n"
    " -n, --table-name <name>          table name for JSON output\n"
    " -O, --table-order <columns>      specify order of output columns\n"
    " -N, --table-columns <names>      comma separated columns names\n"
    " -l, --table-columns-limit <num>  maximal number of input columns\n"
    " -d, --table-noheadings           don't print header\n"
    " -e, --table-header-repeat        repeat header for each page\n"
    " -H, --table-hide <columns>       don't print the columns\n"
    " -R, --table-right <columns>      right align text in these columns\n"
    " -L, --keep-empty-lines           don't ignore empty lines\n"
    " -J, --json                       use JSON output format for table\n"
    "\n"
    " -r, --tree <column>              column to use tree-like output for the table\n"
    " -i, --tree-id <column>           line ID to specify child-parent relation\n"
    " -p, --tree-parent <column>       parent to specify child-parent relation\n"
    "\n"
    " -c, --output-width <width>       width of output in number of characters\n"
    " -o, --output-separator <string>  columns separator for table output"
    " (default is two spaces)\n"
    " -s, --separator <string>         possible table delimiters\n"
    " -x, --fillrows                   fill rows before columns\n";

int cmd_column_main(cmd_ctx *ctx, int argc, char **argv) {
  static const char spec[] =
      "t(table)s:(separator)o:(output-separator)N:(table-columns)R:(table-right)"
      "H:(table-hide)L(table-empty-lines)(keep-empty-lines)d(table-noheadings)"
      "c:(output-width)x(fillrows)J(json)n:(table-name)O:(table-order)"
      "l:(table-columns-limit)e(table-header-repeat)r:(tree)i:(tree-id)p:(tree-parent)"
      "h(help)V(version)";
  size_t limit_cols = 0; /* -l: the last column takes the rest of the line */
  size_t termwidth = 0;
  cmd_getopt_state g = CMD_GETOPT_INIT;
  /* -l and -c are checked at once, in the order given; -e: the header repeats per
   * terminal page, so never off a terminal. */
  for (int c; (c = cmd_getopt(ctx, &g, argc, argv, spec, NULL)) != -1;) {
    switch (c) {
    case 'l': {
      uintmax_t v;
      if (cmd_parse_umax(g.arg, NULL, &v) != CMD_NUM_OK) {
        cmd_errorf(ctx, "invalid columns limit argument: '%s'", g.arg);
        return 1;
      }
      if (v == 0) {
        cmd_errorf(ctx, "columns limit must be greater than zero");
        return 1;
      }
      limit_cols = v > 1000000 ? 1000000 : (size_t)v;
      break;
    }
    case 'c': {
      uintmax_t v;
      if (cmd_parse_umax(g.arg, NULL, &v) != CMD_NUM_OK) {
        cmd_errorf(ctx, "invalid columns argument: '%s'", g.arg);
        return 1;
      }
      termwidth = v > 100000 ? 100000 : (size_t)v;
      break;
    }
    case 'h': return cmd_print_help(ctx, column_usage);
    case 'V': cmd_outs(ctx, "column from util-linux 2.38.1 (sbx)\n"); return 0;
    case '?': return 1; /* cmd_getopt printed the message */
    }
  }
  bool json = cmd_opt_on(&g, 'J'), table = json || cmd_opt_on(&g, 't');
  bool fillrows = cmd_opt_on(&g, 'x'), keep_empty = cmd_opt_on(&g, 'L');
  bool noheadings = cmd_opt_on(&g, 'd');
  const char *table_name = cmd_opt_on(&g, 'n') ? cmd_opt_arg(&g, 'n') : "table";
  const char *sep = cmd_opt_arg(&g, 's'), *names_arg = cmd_opt_arg(&g, 'N');
  const char *osep = cmd_opt_on(&g, 'o') ? cmd_opt_arg(&g, 'o') : "  ";
  const char *right = cmd_opt_arg(&g, 'R'), *hide = cmd_opt_arg(&g, 'H');
  const char *order = cmd_opt_arg(&g, 'O'), *tree = cmd_opt_arg(&g, 'r');
  const char *tree_id = cmd_opt_arg(&g, 'i'), *tree_parent = cmd_opt_arg(&g, 'p');
  if (fillrows && table) { /* util-linux's exclusive option groups */
    cmd_errorf(ctx, "mutually exclusive arguments: %s --fillrows", json ? "--json" : "--table");
    return 1;
  }
  if (tree && (!tree_id || !tree_parent)) {
    cmd_errorf(ctx, "options --tree-id and --tree-parent are required for tree formatting");
    return 1;
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
  int nfiles;
  char **files = cmd_file_operands(argc, argv, g.ind, &nfiles);
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
      /* util-linux skips a line of white space (unless -L in a table), but
       * keeps the leading blanks of the others */
      bool white = true;
      for (size_t k = 0; k < l && white; k++)
        white = line[k] == ' ' || (line[k] >= '\t' && line[k] <= '\r');
      if (!table) {
        if (white) continue;
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
      if (white || (blank_line && !sep)) {
        if (!keep_empty) continue;
        nrows++;
        continue;
      }
      if (!sep)
        while (i < l && (line[i] == ' ' || line[i] == '\t')) i++;
      for (;;) {
        size_t st = i;
        if (limit_cols && row->n + 1 == limit_cols) {
          i = l; /* -l: the last column keeps the rest of the line */
        } else if (sep) {
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
    /* util-linux's fillrows keeps 0 columns when the widest entry rounded up
     * to a tab stop passes the width: it never breaks the line then */
    if (!numcols && !fillrows) numcols = 1;
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
    /* -O: the listed columns first (in the list's order), then the rest */
    size_t *cord = cmd_alloc(ctx, (ncols ? ncols : 1) * sizeof *cord);
    bool *placed = cmd_alloc(ctx, ncols ? ncols : 1);
    size_t *ord = cmd_alloc(ctx, (nrows ? nrows : 1) * sizeof *ord);
    char **pre = cmd_alloc(ctx, (nrows ? nrows : 1) * sizeof *pre);
    long treec = -1;
    size_t trows = nrows; /* rows of the text table */
    if (!cord || !placed || !ord || !pre) goto table_done;
    memset(placed, 0, ncols ? ncols : 1);
    memset(pre, 0, (nrows ? nrows : 1) * sizeof *pre);
    size_t nc = 0;
    for (const char *p = order; p && *p;) {
      size_t l = strcspn(p, ",");
      for (size_t i = 0; i < ncols; i++) {
        char buf[24];
        snprintf(buf, sizeof buf, "%zu", i + 1);
        bool m = (i < nnames && strlen(names[i]) == l && strncmp(names[i], p, l) == 0) ||
                 (strlen(buf) == l && strncmp(buf, p, l) == 0);
        if (m && !placed[i]) {
          placed[i] = true;
          cord[nc++] = i;
          break;
        }
      }
      p += l;
      if (*p == ',') p++;
    }
    for (size_t i = 0; i < ncols; i++)
      if (!placed[i]) cord[nc++] = i;
    for (size_t r = 0; r < nrows; r++) ord[r] = r;
    if (tree) {
      const char *specs[3] = {tree, tree_id, tree_parent};
      long cols3[3];
      for (int k = 0; k < 3; k++) {
        cols3[k] = col_find(specs[k], names, nnames, ncols);
        if (cols3[k] < 0) {
          cmd_errorf(ctx, "undefined column name '%s'", specs[k]);
          status = 1;
          goto table_done;
        }
      }
      if (!col_tree(ctx, rows, nrows, (size_t)cols3[1], (size_t)cols3[2], ord, pre)) {
        status = 1;
        goto table_done;
      }
      treec = cols3[0];
      for (size_t r = 0; r < nrows; r++)
        if (pre[r] && (size_t)treec < rows[r].n) {
          size_t pw = col_width(pre[r], strlen(pre[r]));
          rows[r].cells[treec].width += pw;
        }
    }
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
    bool header = nnames && !noheadings && nrows; /* no lines: no header either */
    if (header)
      for (size_t i = 0; i < nnames; i++) {
        size_t w = col_width(names[i], strlen(names[i]));
        if (w > width[i]) width[i] = w;
      }
    for (size_t r = 0; r < nrows; r++)
      for (size_t i = 0; i < rows[r].n; i++)
        if (rows[r].cells[i].width > width[i]) width[i] = rows[r].cells[i].width;
    size_t last = ncols; /* in output order */
    while (last > 0 && hidden[cord[last - 1]]) last--;
    size_t osl = strlen(osep);
    for (size_t rr = header ? (size_t)-1 : 0; rr == (size_t)-1 || rr < trows; rr++) {
      size_t r = rr == (size_t)-1 ? rr : ord[rr];
      bool first = true;
      for (size_t k = 0; k < last; k++) {
        size_t i = cord[k];
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
        /* libsmartcols prints nothing for a missing cell that ends the line */
        bool missing = r != (size_t)-1 && i >= rows[r].n && k + 1 == last;
        if (rightc[i] && !missing) cmd_outf(ctx, "%*s", (int)pad, "");
        if (r != (size_t)-1 && (long)i == treec && pre[r]) cmd_outs(ctx, pre[r]);
        cmd_out(ctx, s, len);
        if (!rightc[i] && k + 1 < last) cmd_outf(ctx, "%*s", (int)pad, "");
      }
      cmd_outc(ctx, '\n');
      if (rr == (size_t)-1) continue;
      if (ctx->out_err) break;
      if ((rr & 1023) == 0 && cmd_poll(ctx)) break;
    }
  table_done:
    if (pre)
      for (size_t r = 0; r < nrows; r++) free(pre[r]);
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
