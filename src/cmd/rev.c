/*
 * rev - reverse lines characterwise (util-linux).
 *
 *   Usage: rev [options] [file ...]
 *
 * Design: lines are read with cmd_in_getdelim and reversed by UTF-8
 * characters (so "héllo" becomes "olléh"), the newline staying at the end; a
 * last line without newline stays without. Like util-linux 2.38 (which reads
 * wide characters), an invalid UTF-8 sequence ends the file with "rev: FILE:
 * N: Invalid or incomplete multibyte or wide character" (N counts the lines
 * before it) and status 1, and a NUL byte ends its line's text.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/lib/gnu.h"

CMD_DEFINE("rev", cmd_rev_main);

int cmd_rev_main(cmd_ctx *ctx, int argc, char **argv) {
  cmd_getopt_state g = CMD_GETOPT_INIT;
  for (int c; (c = cmd_getopt(ctx, &g, argc, argv, "h(help)V(version)", NULL)) != -1;) {
    if (c == 'h') {
      cmd_outs(ctx, "\nUsage:\n rev [options] [file ...]\n\nReverse lines characterwise.\n\n"
                    "Options:\n -h, --help     display this help\n"
                    " -V, --version  display version\n\nFor more details see rev(1).\n");
      return 0;
    }
    if (c == 'V') {
      cmd_outs(ctx, "rev from util-linux 2.38.1 (sbx)\n");
      return 0;
    }
    return 1;
  }
  int nfiles;
  char *const *files = cmd_file_operands(argc, argv, g.ind, &nfiles);
  int status = 0;
  char *out = NULL;
  size_t outcap = 0;
  for (int i = 0; i < nfiles; i++) {
    const char *name = files[i];
    bool is_stdin = strcmp(name, "-") == 0 && g.ind >= argc;
    cmd_in *in;
    int r = cmd_in_open(ctx, name, &in);
    if (r < 0) {
      cmd_record_error(ctx, r, name);
      cmd_errorf(ctx, "cannot open %s: %s", name, cmd_strerror(r));
      status = 1;
      continue;
    }
    for (uintmax_t lineno = 0;; lineno++) {
      char *line;
      ssize_t n = cmd_in_getdelim(in, &line, '\n');
      if (n < 0) {
        cmd_errorf(ctx, "%s: %s", is_stdin ? "stdin" : name, cmd_strerror((int)n));
        status = 1;
        break;
      }
      if (n == 0) break;
      size_t len = (size_t)n;
      bool nl = line[len - 1] == '\n';
      if (nl) len--;
      size_t nul = strnlen(line, len);
      bool bad = false;
      if (len + 1 > outcap) {
        outcap = (len + 1) * 2;
        char *no = realloc(out, outcap);
        if (!no) {
          free(out);
          cmd_in_close(in);
          return 1;
        }
        out = no;
      }
      /* Copy characters from the end of `out` backwards. */
      size_t o = nul;
      for (size_t k = 0; k < nul;) {
        uint32_t wc;
        int l = cmd_utf8_decode((const unsigned char *)line + k, nul - k, &wc);
        if (l <= 0) {
          bad = true;
          break;
        }
        o -= (size_t)l;
        memcpy(out + o, line + k, (size_t)l);
        k += (size_t)l;
      }
      if (bad) {
        cmd_errorf(ctx, "%s: %ju: %s", is_stdin ? "stdin" : name, lineno, cmd_strerror(EILSEQ));
        status = 1;
        break;
      }
      if (nul < len) nl = false; /* the text ended at a NUL byte */
      cmd_out(ctx, out, nul);
      if (nl) cmd_outc(ctx, '\n');
      if (ctx->out_err) break;
    }
    cmd_in_close(in);
    if (ctx->out_err) break;
  }
  free(out);
  if (ctx->out_err) return cmd_write_error(ctx, ctx->out_err);
  return status;
}
