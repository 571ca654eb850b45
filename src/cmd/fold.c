/*
 * fold - wrap each input line to fit in specified width.
 *
 *   Usage: fold [OPTION]... [FILE]...
 *   -b, --bytes   count bytes rather than columns
 *   -s, --spaces  break at spaces
 *   -w, --width=WIDTH  use WIDTH columns instead of 80 (also obsolete -WIDTH)
 *
 * Design: GNU fold 9.1's algorithm byte for byte: columns advance by one per
 * byte (GNU fold is not multibyte-aware), TAB to the next multiple of 8,
 * backspace back one, carriage return to 0; with -s the line breaks after
 * the last blank and the remainder is rescanned. The pending line buffer is
 * bounded by the width (plus one tab), so long lines stream.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/lib/gnu.h"

CMD_DEFINE("fold", cmd_fold_main);

static size_t fold_adjust(size_t column, char c, bool bytes) {
  if (bytes) return column + 1;
  if (c == '\b') return column > 0 ? column - 1 : 0;
  if (c == '\r') return 0;
  if (c == '\t') return column + 8 - column % 8;
  return column + 1;
}

static const char fold_usage[] =
    "Usage: fold [OPTION]... [FILE]...\n"
    "Wrap input lines in each FILE, writing to standard output.\n\n"
    "  -b, --bytes         count bytes rather than columns\n"
    "  -s, --spaces        break at spaces\n"
    "  -w, --width=WIDTH   use WIDTH columns instead of 80\n"
    CMD_HELP_VERSION_LINES;

int cmd_fold_main(cmd_ctx *ctx, int argc, char **argv) {
  bool bytes = false, spaces = false;
  size_t width = 80;
  int ac;
  char **av = cmd_gnu_num_option(ctx, argc, argv, "-w", &ac);
  if (!av) return 1;
  cmd_getopt_state g = CMD_GETOPT_INIT;
  /* A loop: each width is checked as it comes. */
  static const char spec[] = "(help)(version)b(bytes)s(spaces)w:(width)";
  for (int c; (c = cmd_getopt(ctx, &g, ac, av, spec, NULL)) != -1;) {
    switch (c) {
    case 'b': bytes = true; break;
    case 's': spaces = true; break;
    case 'w': {
      uintmax_t v;
      if (cmd_parse_umax_or_die(ctx, g.arg, "", 1, SIZE_MAX - 16, "invalid number of columns",
                                &v) < 0)
        return 1;
      width = (size_t)v;
      break;
    }
    CMD_CASES_HELP_VERSION(ctx, fold_usage);
    default: return 1; /* cmd_getopt printed the message */
    }
  }
  if (width > ctx->max_string) {
    cmd_errorf(ctx, "width too large for this sandbox");
    return 1;
  }
  int nfiles;
  char *const *files = cmd_file_operands(ac, av, g.ind, &nfiles);
  size_t cap = 256, off = 0;
  char *line = malloc(cap);
  unsigned char *buf = cmd_alloc(ctx, 65536);
  if (!line || !buf) {
    free(line);
    return 1;
  }
  int status = 0;
  for (int i = 0; i < nfiles && !ctx->out_err; i++) {
    cmd_in *in = cmd_gnu_open(ctx, files[i], &status);
    if (!in) continue;
    size_t column = 0;
    off = 0;
    for (;;) {
      ssize_t n = cmd_in_read(in, buf, 65536);
      if (n < 0) {
        status = cmd_gnu_perror(ctx, files[i], (int)n);
        break;
      }
      if (n == 0) break;
      for (ssize_t k = 0; k < n; k++) {
        char ch = (char)buf[k];
        if (off + 2 >= cap) {
          char *nl = realloc(line, cap * 2);
          if (!nl) {
            free(line);
            cmd_in_close(in);
            return 1;
          }
          line = nl;
          cap *= 2;
        }
        if (ch == '\n') {
          line[off++] = ch;
          cmd_out(ctx, line, off);
          column = off = 0;
          continue;
        }
      rescan:
        column = fold_adjust(column, ch, bytes);
        if (column > width) {
          if (spaces) {
            size_t end = off;
            bool found = false;
            while (end) {
              --end;
              if (line[end] == ' ' || line[end] == '\t') {
                found = true;
                break;
              }
            }
            if (found) {
              end++;
              cmd_out(ctx, line, end);
              cmd_outc(ctx, '\n');
              memmove(line, line + end, off - end);
              off -= end;
              column = 0;
              for (size_t t = 0; t < off; t++) column = fold_adjust(column, line[t], bytes);
              goto rescan;
            }
          }
          if (off == 0) {
            line[off++] = ch;
            continue;
          }
          line[off++] = '\n';
          cmd_out(ctx, line, off);
          column = off = 0;
          goto rescan;
        }
        line[off++] = ch;
      }
      if (ctx->out_err || cmd_poll(ctx)) break;
    }
    if (off) cmd_out(ctx, line, off);
    cmd_in_close(in);
  }
  free(line);
  if (ctx->out_err) return cmd_write_error(ctx, ctx->out_err);
  return status;
}
