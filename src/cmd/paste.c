/*
 * paste - merge lines of files.
 *
 *   Usage: paste [OPTION]... [FILE]...
 *   -d, --delimiters=LIST   reuse characters from LIST instead of TABs
 *                           (\n \t \\ and \0 for "no delimiter")
 *   -s, --serial            paste one file at a time instead of in parallel
 *   -z, --zero-terminated   line delimiter is NUL, not newline
 *
 * Design: parallel mode keeps one line reader per operand ("-" may appear
 * several times and then takes successive lines of stdin, as in GNU) and
 * emits line i of every file joined by the cyclic delimiters until all are
 * exhausted; serial mode joins each file's lines. Readers are cmd_in, so
 * lines of any length and NUL bytes pass through.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/lib/gnu.h"

CMD_DEFINE("paste", cmd_paste_main);

static const char paste_usage[] =
    "Usage: paste [OPTION]... [FILE]...\n"
    "Write lines consisting of the sequentially corresponding lines from\n"
    "each FILE, separated by TABs, to standard output.\n\n"
    "  -d, --delimiters=LIST   reuse characters from LIST instead of TABs\n"
    "  -s, --serial            paste one file at a time instead of in parallel\n"
    "  -z, --zero-terminated    line delimiter is NUL, not newline\n"
    CMD_HELP_VERSION_LINES;

/* Decodes the -d list: returns the count; empty entries are "\0". */
static size_t paste_delims(const char *s, char *out, bool *empty) {
  size_t n = 0;
  for (; *s; s++) {
    empty[n] = false;
    if (*s == '\\') {
      s++;
      switch (*s) {
      case 'n': out[n++] = '\n'; continue;
      case 't': out[n++] = '\t'; continue;
      case '0': out[n] = 0; empty[n++] = true; continue;
      case '\\': out[n++] = '\\'; continue;
      default: out[n++] = *s; continue;
      }
    }
    out[n++] = *s;
  }
  return n;
}

static const char paste_options[] = "(help)(version)d:(delimiters)s(serial)z(zero-terminated)";

int cmd_paste_main(cmd_ctx *ctx, int argc, char **argv) {
  cmd_getopt_state g = CMD_GETOPT_INIT;
  int rc = cmd_getopt_all(ctx, &g, argc, argv, paste_options, paste_usage);
  if (rc >= 0) return rc;
  const char *dlist = cmd_opt_on(&g, 'd') ? cmd_opt_arg(&g, 'd') : "\\t";
  bool serial = cmd_opt_on(&g, 's');
  char eol = cmd_opt_on(&g, 'z') ? '\0' : '\n';
  size_t dl = strlen(dlist);
  {
    /* GNU rejects a trailing unescaped backslash. */
    size_t bs = 0;
    for (size_t k = dl; k > 0 && dlist[k - 1] == '\\'; k--) bs++;
    if (bs % 2) {
      cmd_errorf(ctx, "delimiter list ends with an unescaped backslash: %s", dlist);
      return 1;
    }
  }
  char *delims = cmd_alloc(ctx, dl + 2);
  bool *empty = cmd_alloc(ctx, (dl + 2) * sizeof(bool));
  if (!delims || !empty) return 1;
  size_t nd = paste_delims(dlist, delims, empty);
  if (nd == 0) {
    delims[0] = 0;
    empty[0] = true;
    nd = 1;
  }
  int nfiles;
  char *const *files = cmd_file_operands(argc, argv, g.ind, &nfiles);
  int status = 0;

  if (serial) {
    for (int i = 0; i < nfiles; i++) {
      cmd_in *in;
      int r = cmd_in_open(ctx, files[i], &in);
      if (r < 0) {
        status = cmd_gnu_perror(ctx, files[i], r);
        continue;
      }
      size_t di = 0;
      bool any = false;
      for (;;) {
        char *line;
        size_t len;
        bool has_eol;
        if (cmd_gnu_getline(ctx, in, files[i], eol, &line, &len, &has_eol, &status) <= 0)
          break;
        if (any && !empty[di % nd]) cmd_out(ctx, &delims[di % nd], 1);
        if (any) di++;
        cmd_out(ctx, line, len);
        any = true;
        if (ctx->out_err || cmd_poll(ctx)) break;
      }
      cmd_outc(ctx, eol);
      cmd_in_close(in);
      if (ctx->out_err) break;
    }
    if (ctx->out_err) return cmd_write_error(ctx, ctx->out_err);
    return status;
  }

  cmd_in **ins = cmd_alloc(ctx, sizeof(cmd_in *) * (size_t)nfiles);
  bool *done = cmd_alloc(ctx, sizeof(bool) * (size_t)nfiles);
  if (!ins || !done) return 1;
  cmd_in *stdin_in = NULL;
  int open_count = 0;
  for (int i = 0; i < nfiles; i++) {
    if (strcmp(files[i], "-") == 0) {
      if (!stdin_in) stdin_in = cmd_in_fd(ctx, 0);
      ins[i] = stdin_in;
    } else {
      int r = cmd_in_open(ctx, files[i], &ins[i]);
      if (r < 0) {
        cmd_gnu_perror(ctx, files[i], r);
        for (int k = 0; k < i; k++)
          if (ins[k] != stdin_in) cmd_in_close(ins[k]);
        if (stdin_in) cmd_in_close(stdin_in);
        return 1;
      }
    }
    open_count++;
  }
  for (uintmax_t row = 0; open_count > 0; row++) {
    bool any_line = false;
    /* Delimiters are deferred until some file in the row has data, so a row
     * where every file has ended prints nothing. */
    size_t pending = 0;
    for (int i = 0; i < nfiles; i++) {
      int got = 0;
      char *line = NULL;
      size_t len = 0;
      bool has_eol;
      if (!done[i]) {
        got = cmd_gnu_getline(ctx, ins[i], files[i], eol, &line, &len, &has_eol,
                              &status);
        if (got <= 0) {
          done[i] = true;
          open_count--;
        }
      }
      if (got > 0) {
        if (!any_line && pending) {
          /* Flush the delimiters of the files before this one. */
          for (size_t k = 0; k < pending; k++)
            if (!empty[k % nd]) cmd_out(ctx, &delims[k % nd], 1);
          pending = 0;
        }
        any_line = true;
        cmd_out(ctx, line, len);
      }
      if (i + 1 < nfiles) {
        if (any_line) {
          if (!empty[(size_t)i % nd]) cmd_out(ctx, &delims[(size_t)i % nd], 1);
        } else {
          pending++;
        }
      }
    }
    if (any_line) cmd_outc(ctx, eol);
    if (ctx->out_err || ((row & 1023) == 0 && cmd_poll(ctx))) break;
  }
  for (int i = 0; i < nfiles; i++)
    if (ins[i] != stdin_in) cmd_in_close(ins[i]);
  if (stdin_in) cmd_in_close(stdin_in);
  if (ctx->out_err) return cmd_write_error(ctx, ctx->out_err);
  return status;
}
