/*
 * expand - convert tabs to spaces.
 *
 *   Usage: expand [OPTION]... [FILE]...
 *   -i, --initial   do not convert tabs after non blanks
 *   -t, --tabs=N    tabs N characters apart, not 8
 *   -t, --tabs=LIST use comma separated list of tab positions; a last "/N"
 *                   repeats every N, a last "+N" every N after the last stop
 *
 * Design: GNU's byte-oriented column model (util_tabs.c for the stops):
 * one byte is one column, backspace goes back one and recomputes the stop;
 * past the last explicit stop a tab is a single space. Obsolete "-N[,M]"
 * arguments are tab lists too.
 */
#include <errno.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/util_gnu.h"
#include "cmd/util_tabs.h"

CMD_DEFINE("expand", cmd_expand_main);

int cmd_expand_main(cmd_ctx *ctx, int argc, char **argv) {
  static const cmd_longopt longopts[] = {
      {"initial", 0, 'i'}, {"tabs", 1, 't'},    {"help", 0, 256},
      {"version", 0, 257}, {0, 0, 0}};
  cmd_tabs tabs = {0};
  bool initial = false;
  cmd_getopt_state g = CMD_GETOPT_INIT;
  int c;
  for (;;) {
    /* Obsolete "-8" / "-4,8": a tab list. */
    if (g.pos == 0 && g.ind < argc && argv[g.ind][0] == '-' && argv[g.ind][1] >= '0' &&
        argv[g.ind][1] <= '9') {
      if (cmd_tabs_parse(ctx, &tabs, argv[g.ind] + 1) < 0) return 1;
      g.ind++;
      continue;
    }
    if ((c = cmd_getopt(ctx, &g, argc, argv, "it:", longopts)) == -1) break;
    switch (c) {
    case 'i': initial = true; break;
    case 't':
      if (cmd_tabs_parse(ctx, &tabs, g.arg) < 0) return 1;
      break;
    case 256:
      cmd_outs(ctx, "Usage: expand [OPTION]... [FILE]...\n"
                    "Convert tabs in each FILE to spaces, writing to standard output.\n\n"
                    "  -i, --initial    do not convert tabs after non blanks\n"
                    "  -t, --tabs=N     have tabs N characters apart, not 8\n"
                    "  -t, --tabs=LIST  use comma separated list of tab positions.\n"
                    "      --help        display this help and exit\n"
                    "      --version     output version information and exit\n");
      return 0;
    case 257: return cmd_print_version(ctx);
    default: return 1; /* cmd_getopt printed the message */
    }
  }
  if (cmd_tabs_finalize(ctx, &tabs) < 0) return 1;
  static char *const dash[] = {"-", NULL};
  char *const *files = g.ind < argc ? argv + g.ind : dash;
  int nfiles = g.ind < argc ? argc - g.ind : 1;
  int status = 0;
  static const char spaces[64] = "                                                               ";
  for (int i = 0; i < nfiles && !ctx->out_err; i++) {
    cmd_in *in;
    int r = cmd_in_open(ctx, files[i], &in);
    if (r < 0) {
      status = cmd_gnu_perror(ctx, files[i], r);
      continue;
    }
    for (uintmax_t n = 0;; n++) {
      char *line;
      ssize_t len = cmd_in_getdelim(in, &line, '\n');
      if (len < 0) {
        status = cmd_gnu_perror(ctx, files[i], (int)len);
        break;
      }
      if (len == 0) break;
      uintmax_t column = 0;
      size_t index = 0, from = 0;
      bool convert = true;
      for (size_t k = 0; k < (size_t)len; k++) {
        char ch = line[k];
        if (!convert) break;
        if (ch == '\t') {
          bool last;
          uintmax_t next = cmd_tabs_next(&tabs, column, &index, &last);
          if (last) next = column + 1;
          if (next < column || next - column > ctx->max_string) {
            cmd_errorf(ctx, "input line is too long");
            cmd_in_close(in);
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
        convert = !initial || ch == ' ' || ch == '\t';
      }
      cmd_out(ctx, line + from, (size_t)len - from);
      if (ctx->out_err || ((n & 1023) == 0 && cmd_poll(ctx))) break;
    }
    cmd_in_close(in);
  }
  if (ctx->out_err) return cmd_write_error(ctx, ctx->out_err);
  return status;
}
