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
#include "cmd/util_gnu.h"
#include "cmd/util_tabs.h"

CMD_DEFINE("unexpand", cmd_unexpand_main);

typedef struct unx_pending {
  char *buf;     /* pending blanks (malloc'd) */
  size_t n, cap; /* count and capacity */
} unx_pending;

static int unx_push(unx_pending *p, char c) {
  if (p->n == p->cap) {
    size_t nc = p->cap ? p->cap * 2 : 64;
    char *nb = realloc(p->buf, nc);
    if (!nb) return -1;
    p->buf = nb;
    p->cap = nc;
  }
  p->buf[p->n++] = c;
  return 0;
}

int cmd_unexpand_main(cmd_ctx *ctx, int argc, char **argv) {
  static const cmd_longopt longopts[] = {
      {"all", 0, 'a'},     {"first-only", 0, 258}, {"tabs", 1, 't'},
      {"help", 0, 256},    {"version", 0, 257},    {0, 0, 0}};
  cmd_tabs tabs = {0};
  bool all = false, first_only = false;
  cmd_getopt_state g = CMD_GETOPT_INIT;
  int c;
  for (;;) {
    if (g.pos == 0 && g.ind < argc && argv[g.ind][0] == '-' && argv[g.ind][1] >= '0' &&
        argv[g.ind][1] <= '9') {
      /* Unlike -t, the obsolete form does not imply -a (as in GNU). */
      if (cmd_tabs_parse(ctx, &tabs, argv[g.ind] + 1) < 0) return 1;
      g.ind++;
      continue;
    }
    if ((c = cmd_getopt(ctx, &g, argc, argv, "at:", longopts)) == -1) break;
    switch (c) {
    case 'a': all = true; break;
    case 258: first_only = true; break;
    case 't':
      all = true;
      if (cmd_tabs_parse(ctx, &tabs, g.arg) < 0) return 1;
      break;
    case 256:
      cmd_outs(ctx, "Usage: unexpand [OPTION]... [FILE]...\n"
                    "Convert blanks in each FILE to tabs, writing to standard output.\n\n"
                    "  -a, --all        convert all blanks, instead of just initial blanks\n"
                    "      --first-only  convert only leading sequences of blanks (overrides -a)\n"
                    "  -t, --tabs=N     have tabs N characters apart instead of 8 (enables -a)\n"
                    "  -t, --tabs=LIST  use comma separated list of tab positions.\n"
                    "      --help        display this help and exit\n"
                    "      --version     output version information and exit\n");
      return 0;
    case 257: return cmd_print_version(ctx);
    default: return 1; /* cmd_getopt printed the message */
    }
  }
  if (first_only) all = false;
  if (cmd_tabs_finalize(ctx, &tabs) < 0) return 1;
  static char *const dash[] = {"-", NULL};
  char *const *files = g.ind < argc ? argv + g.ind : dash;
  int nfiles = g.ind < argc ? argc - g.ind : 1;
  int status = 0;
  unx_pending pend = {0};
  for (int fi = 0; fi < nfiles && !ctx->out_err; fi++) {
    cmd_in *in;
    int r = cmd_in_open(ctx, files[fi], &in);
    if (r < 0) {
      status = cmd_gnu_perror(ctx, files[fi], r);
      continue;
    }
    for (uintmax_t n = 0;; n++) {
      char *line;
      ssize_t len = cmd_in_getdelim(in, &line, '\n');
      if (len < 0) {
        status = cmd_gnu_perror(ctx, files[fi], (int)len);
        break;
      }
      if (len == 0) break;
      bool convert = true, one_blank_before_stop = false, prev_blank = true;
      uintmax_t column = 0, next_tab = 0;
      size_t index = 0;
      pend.n = 0;
      for (size_t k = 0; k < (size_t)len; k++) {
        char ch = line[k];
        if (convert) {
          bool blank = ch == ' ' || ch == '\t';
          if (blank) {
            bool last;
            next_tab = cmd_tabs_next(&tabs, column, &index, &last);
            if (last) convert = false;
            if (convert) {
              if (next_tab < column) {
                cmd_errorf(ctx, "input line is too long");
                free(pend.buf);
                cmd_in_close(in);
                return 1;
              }
              if (ch == '\t') {
                column = next_tab;
                if (pend.n) pend.buf[0] = '\t';
              } else {
                column++;
                if (!(prev_blank && column == next_tab)) {
                  if (column == next_tab) one_blank_before_stop = true;
                  if (unx_push(&pend, ch) < 0) goto oom;
                  prev_blank = true;
                  continue;
                }
                /* Replace the pending blanks by a tab. */
                if (pend.n) pend.buf[0] = '\t';
                ch = '\t';
              }
              pend.n = one_blank_before_stop;
            }
          } else if (ch == '\b') {
            column -= column ? 1 : 0;
            next_tab = column;
            index -= index ? 1 : 0;
          } else {
            column++;
          }
          if (pend.n) {
            if (pend.n > 1 && one_blank_before_stop) pend.buf[0] = '\t';
            cmd_out(ctx, pend.buf, pend.n);
            pend.n = 0;
            one_blank_before_stop = false;
          }
          prev_blank = blank;
          convert &= all || blank;
        }
        cmd_out(ctx, &ch, 1);
      }
      /* A line ending in blanks without newline: flush them. */
      if (pend.n) {
        cmd_out(ctx, pend.buf, pend.n);
        pend.n = 0;
      }
      if (ctx->out_err || ((n & 1023) == 0 && cmd_poll(ctx))) break;
    }
    cmd_in_close(in);
  }
  free(pend.buf);
  if (ctx->out_err) return cmd_write_error(ctx, ctx->out_err);
  return status;
oom:
  free(pend.buf);
  cmd_errorf(ctx, "memory exhausted");
  return 1;
}
