/*
 * tac - concatenate and print files in reverse.
 *
 *   Usage: tac [OPTION]... [FILE]...
 *   -b, --before             attach the separator before instead of after
 *   -r, --regex              interpret the separator as a regular expression
 *   -s, --separator=STRING   use STRING as the separator instead of newline
 *
 * Design: each file is read whole (bounded by 8 x ctx->max_string, like
 * sort) and its records are emitted from the last to the first by scanning
 * backwards: memrchr for the newline, a reverse substring search for other
 * separators, and for -r glibc's GNU regex API (re_search with a negative
 * range, Emacs syntax as in GNU tac), so matches are found right to left
 * exactly as GNU tac finds them ("a1b22c" with -r -s '[0-9]+' gives
 * "c2b2a1"). A final record without separator is printed as it is.
 */
#include <errno.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/lib/gnu.h"

CMD_DEFINE("tac", cmd_tac_main);

typedef struct tac_opts {
  const char *sep;          /* separator string */
  size_t seplen;            /* its length */
  bool before;              /* -b */
  bool regex;               /* -r */
  struct re_pattern_buffer re; /* compiled -r separator */
  struct re_registers regs;    /* match registers */
} tac_opts;

/* Finds the last separator that starts before `end` (and >= 0). Returns its
 * start and length, or -1. */
static ssize_t tac_find(tac_opts *o, const char *buf, size_t len, size_t end, size_t *mlen) {
  if (o->regex) {
    if (end == 0) return -1;
    /* Like GNU tac, a match may not run into the records already printed. */
    regoff_t r = re_search(&o->re, buf, (regoff_t)end, (regoff_t)(end - 1),
                           -(regoff_t)(end - 1), &o->regs);
    if (r < 0) return -1;
    *mlen = (size_t)(o->regs.end[0] - o->regs.start[0]);
    return r;
  }
  *mlen = o->seplen;
  if (o->seplen == 1) {
    const char *p = end ? memrchr(buf, o->sep[0], end) : NULL;
    return p ? p - buf : -1;
  }
  if (end + o->seplen > len + 0 && end >= 1) end = len >= o->seplen ? len - o->seplen + 1 : 0;
  for (size_t i = end; i-- > 0;)
    if (i + o->seplen <= len && memcmp(buf + i, o->sep, o->seplen) == 0) return (ssize_t)i;
  return -1;
}

static void tac_buffer(cmd_ctx *ctx, tac_opts *o, const char *buf, size_t len) {
  /* Records end after each separator (or start with it for -b). */
  size_t rec_end = len;  /* end of the pending record */
  size_t search = len;   /* separators must start before this */
  while (search > 0) {
    size_t mlen;
    ssize_t s = tac_find(o, buf, len, search, &mlen);
    if (s < 0) break;
    size_t start = o->before ? (size_t)s : (size_t)s + mlen;
    if (start < rec_end) cmd_out(ctx, buf + start, rec_end - start);
    else if (start == rec_end && o->before) { /* empty record */ }
    rec_end = start;
    search = (size_t)s;
    if (mlen == 0 && o->regex) {
      if (search == 0) break;
    }
    if (cmd_poll(ctx) || ctx->out_err) return;
  }
  if (rec_end > 0) cmd_out(ctx, buf, rec_end);
}

int cmd_tac_main(cmd_ctx *ctx, int argc, char **argv) {
  cmd_getopt_state g = CMD_GETOPT_INIT;
  int rc = cmd_getopt_all(
      ctx, &g, argc, argv, "(help)(version)b(before)r(regex)s:(separator)",
      "Usage: tac [OPTION]... [FILE]...\n"
      "Write each FILE to standard output, last line first.\n\n"
      "  -b, --before             attach the separator before instead of after\n"
      "  -r, --regex              interpret the separator as a regular expression\n"
      "  -s, --separator=STRING   use STRING as the separator instead of newline\n"
      CMD_HELP_VERSION_LINES);
  if (rc >= 0) return rc;
  tac_opts o = {0};
  o.before = cmd_opt_on(&g, 'b');
  o.regex = cmd_opt_on(&g, 'r');
  o.sep = cmd_opt_arg(&g, 's'); /* "" means a NUL byte, as in GNU */
  if (!o.sep) o.sep = "\n";
  o.seplen = *o.sep ? strlen(o.sep) : 1;
  if (o.regex) {
    const char *err = re_compile_pattern(o.sep, o.seplen, &o.re);
    if (err) {
      cmd_errorf(ctx, "%s", err);
      regfree(&o.re);
      return 1;
    }
  }
  int nfiles;
  char *const *files = cmd_file_operands(argc, argv, g.ind, &nfiles);
  size_t limit = ctx->max_string ? (size_t)ctx->max_string * 8 : (size_t)1 << 30;
  int status = 0;
  for (int i = 0; i < nfiles && !ctx->out_err; i++) {
    char *data;
    size_t len;
    int r = cmd_read_all(ctx, files[i], limit, &data, &len);
    if (r < 0) {
      if (r == -EFBIG) cmd_errorf(ctx, "%s: file too large for this sandbox", files[i]);
      else if (r == -EISDIR)
        cmd_errorf(ctx, "%s: read error: %s", cmd_gnu_quotef(ctx, files[i]), cmd_strerror(r));
      else cmd_errorf(ctx, "failed to open %s for reading: %s", cmd_gnu_quoteaf(ctx, files[i]),
                      cmd_strerror(r));
      cmd_record_error(ctx, r, files[i]);
      status = 1;
      continue;
    }
    tac_buffer(ctx, &o, data, len);
    free(data);
  }
  if (o.regex) {
    regfree(&o.re);
    free(o.regs.start);
    free(o.regs.end);
  }
  if (ctx->out_err) return cmd_write_error(ctx, ctx->out_err);
  return status;
}
