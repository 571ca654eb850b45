/*
 * unexpand - convert spaces to tabs.
 *
 *   Usage: unexpand [OPTION]... [FILE]...
 *   -a, --all        convert all blanks, instead of just initial blanks
 *       --first-only convert only leading sequences of blanks (overrides -a)
 *   -t, --tabs=N/LIST  as expand; implies -a
 *
 * Design: a port of GNU unexpand's loop: blanks are held as pending until
 * a tab stop is reached (then one TAB replaces them, except that a single
 * blank just before a stop stays a blank), a non-blank flushes them as they
 * were. Columns are bytes, backspace steps back, as in GNU.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/lib/buf.h"
#include "cmd/lib/gnu.h"
#include "cmd/lib/tabstops.h"

CMD_DEFINE("unexpand", cmd_unexpand_main);

typedef struct unx_pending {
  char *buf;     /* pending blanks (malloc'd) */
  size_t n, cap; /* count and capacity */
} unx_pending;

static int unx_push(unx_pending *p, char c) {
  if (cmd_grow(&p->buf, &p->cap, p->n + 1, 1)) return -1;
  p->buf[p->n++] = c;
  return 0;
}

typedef struct unx_state {
  cmd_ctx *ctx;
  const cmd_tabs *tabs;  /* the stops */
  bool all;              /* -a */
  unx_pending pend;      /* pending blanks */
  bool failed;           /* an error was reported */
} unx_state;

/* Flushes pending blanks the way GNU does before a non-blank (or the end of
 * the line): a run ending at a stop after a lone blank starts with a TAB. */
static void unx_flush(unx_state *us, bool *one_blank_before_stop) {
  if (!us->pend.n) return;
  if (us->pend.n > 1 && *one_blank_before_stop) us->pend.buf[0] = '\t';
  cmd_out(us->ctx, us->pend.buf, us->pend.n);
  us->pend.n = 0;
  *one_blank_before_stop = false;
}

static int unx_line(void *ud, const char *line, size_t len, bool has_delim) {
  unx_state *us = ud;
  cmd_ctx *ctx = us->ctx;
  bool convert = true, one_blank_before_stop = false, prev_blank = true;
  uintmax_t column = 0, next_tab = 0;
  size_t index = 0;
  us->pend.n = 0;
  for (size_t k = 0; k < len; k++) {
    char ch = line[k];
    if (convert) {
      bool blank = ch == ' ' || ch == '\t';
      if (blank) {
        bool last;
        next_tab = cmd_tabs_next(us->tabs, column, &index, &last);
        if (last) convert = false;
        if (convert) {
          if (next_tab < column) {
            cmd_errorf(ctx, "input line is too long");
            us->failed = true;
            return 1;
          }
          if (ch == '\t') {
            column = next_tab;
            if (us->pend.n) us->pend.buf[0] = '\t';
          } else {
            column++;
            if (!(prev_blank && column == next_tab)) {
              if (column == next_tab) one_blank_before_stop = true;
              if (unx_push(&us->pend, ch) < 0) {
                cmd_errorf(ctx, "memory exhausted");
                us->failed = true;
                return 1;
              }
              prev_blank = true;
              continue;
            }
            /* Replace the pending blanks by a tab. */
            if (us->pend.n) us->pend.buf[0] = '\t';
            ch = '\t';
          }
          us->pend.n = one_blank_before_stop;
        }
      } else if (ch == '\b') {
        column -= column ? 1 : 0;
        next_tab = column;
        index -= index ? 1 : 0;
      } else {
        column++;
      }
      unx_flush(us, &one_blank_before_stop);
      prev_blank = blank;
      convert &= us->all || blank;
    }
    cmd_out(ctx, &ch, 1);
  }
  unx_flush(us, &one_blank_before_stop);
  if (has_delim) cmd_outc(ctx, '\n');
  return 0;
}

static const char unexpand_usage[] =
    "Usage: unexpand [OPTION]... [FILE]...\n"
    "Convert blanks in each FILE to tabs, writing to standard output.\n\n"
    "  -a, --all        convert all blanks, instead of just initial blanks\n"
    "      --first-only  convert only leading sequences of blanks (overrides -a)\n"
    "  -t, --tabs=N     have tabs N characters apart instead of 8 (enables -a)\n"
    "  -t, --tabs=LIST  use comma separated list of tab positions.\n"
    CMD_HELP_VERSION_LINES;

int cmd_unexpand_main(cmd_ctx *ctx, int argc, char **argv) {
  enum { OPT_FIRST_ONLY = CMD_OPT_LONG };
  cmd_tabs tabs = {0};
  cmd_getopt_state g = CMD_GETOPT_INIT;
  int rc = cmd_tabs_getopt_all(ctx, &tabs, &g, argc, argv,
                               "(first-only)(help)(version)a(all)t:(tabs)",
                               unexpand_usage);
  if (rc >= 0) return rc;
  /* -t implies -a, the obsolete "-N" does not (as in GNU); --first-only wins. */
  bool all = (cmd_opt_on(&g, 'a') || cmd_opt_on(&g, 't')) &&
             !cmd_opt_on(&g, OPT_FIRST_ONLY);
  if (cmd_tabs_finalize(ctx, &tabs) < 0) return 1;
  unx_state us = {ctx, &tabs, all, {0}, false};
  int status = cmd_each_line(ctx, argv + g.ind, argc - g.ind, '\n', unx_line, &us);
  free(us.pend.buf);
  if (us.failed) return 1;
  if (ctx->out_err) return cmd_write_error(ctx, ctx->out_err);
  return status;
}
