/*
 * expand - convert tabs to spaces.
 *
 *   Usage: expand [OPTION]... [FILE]...
 *   -i, --initial   do not convert tabs after non blanks
 *   -t, --tabs=N    tabs N characters apart, not 8
 *   -t, --tabs=LIST use comma separated list of tab positions; a last "/N"
 *                   repeats every N, a last "+N" every N after the last stop
 *
 * Design: GNU's byte-oriented column model (lib/tabstops.c for the stops):
 * one byte is one column, backspace goes back one and recomputes the stop;
 * past the last explicit stop a tab is a single space. Obsolete "-N[,M]"
 * arguments are tab lists too.
 */
#include <errno.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/lib/gnu.h"
#include "cmd/lib/tabstops.h"

CMD_DEFINE("expand", cmd_expand_main);

typedef struct expand_state {
  cmd_ctx *ctx;
  const cmd_tabs *tabs;  /* the stops */
  bool initial;          /* -i */
  bool too_long;         /* a stop overflowed (reported) */
} expand_state;

static int expand_line(void *ud, const char *line, size_t len, bool has_delim) {
  expand_state *es = ud;
  cmd_ctx *ctx = es->ctx;
  /* 64 spaces, no terminating NUL (the last of 63 spaces and a NUL was written out) */
  static const char spaces[64] = "                                                                ";
  uintmax_t column = 0;
  size_t index = 0, from = 0;
  bool convert = true;
  for (size_t k = 0; k < len && convert; k++) {
    char ch = line[k];
    if (ch == '\t') {
      bool last;
      uintmax_t next = cmd_tabs_next(es->tabs, column, &index, &last);
      if (last) next = column + 1;
      if (next < column || next - column > ctx->max_string) {
        cmd_errorf(ctx, "input line is too long");
        es->too_long = true;
        return 1;
      }
      cmd_out(ctx, line + from, k - from);
      from = k + 1;
      for (uintmax_t w = next - column; w > 0;) {
        size_t chunk = w < sizeof spaces ? (size_t)w : sizeof spaces;
        cmd_out(ctx, spaces, chunk);
        w -= chunk;
      }
      column = next;
    } else if (ch == '\b') {
      column -= column ? 1 : 0;
      index -= index ? 1 : 0;
    } else {
      column++;
    }
    convert = !es->initial || ch == ' ' || ch == '\t';
  }
  cmd_out(ctx, line + from, len - from);
  if (has_delim) cmd_outc(ctx, '\n');
  return 0;
}

static const char expand_usage[] =
    "Usage: expand [OPTION]... [FILE]...\n"
    "Convert tabs in each FILE to spaces, writing to standard output.\n\n"
    "  -i, --initial    do not convert tabs after non blanks\n"
    "  -t, --tabs=N     have tabs N characters apart, not 8\n"
    "  -t, --tabs=LIST  use comma separated list of tab positions.\n"
    CMD_HELP_VERSION_LINES;

int cmd_expand_main(cmd_ctx *ctx, int argc, char **argv) {
  cmd_tabs tabs = {0};
  cmd_getopt_state g = CMD_GETOPT_INIT;
  /* "-8" / "-4,8" are tab lists too (the obsolete form). */
  int rc = cmd_tabs_getopt_all(ctx, &tabs, &g, argc, argv,
                               "(help)(version)i(initial)t:(tabs)", expand_usage);
  if (rc >= 0) return rc;
  bool initial = cmd_opt_on(&g, 'i');
  if (cmd_tabs_finalize(ctx, &tabs) < 0) return 1;
  expand_state es = {ctx, &tabs, initial, false};
  int status = cmd_each_line(ctx, argv + g.ind, argc - g.ind, '\n', expand_line, &es);
  if (es.too_long) return 1;
  if (ctx->out_err) return cmd_write_error(ctx, ctx->out_err);
  return status;
}
