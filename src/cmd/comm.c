/*
 * comm - compare two sorted files line by line.
 *
 *   Usage: comm [OPTION]... FILE1 FILE2
 *   -1 -2 -3  suppress column 1 (only in FILE1), 2 (only in FILE2), 3 (both)
 *   --check-order  --nocheck-order  --output-delimiter=STR  --total
 *   -z, --zero-terminated
 *
 * Design: a streaming merge of two cmd_in readers with the previous line of
 * each kept for GNU's order check: by default a disorder is only checked
 * once an unpairable line was seen, reported once per file ("comm: file N is
 * not in sorted order") and turned into status 1 with "input is not in
 * sorted order" at the end; --check-order makes the first one fatal.
 * Collation under C.UTF-8 is byte order. An empty --output-delimiter is a
 * NUL byte, as in GNU.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/lib/buf.h"
#include "cmd/lib/gnu.h"

CMD_DEFINE("comm", cmd_comm_main);

typedef struct comm_line {
  char *buf;     /* bytes without the delimiter (malloc'd) */
  size_t len;    /* length */
  size_t cap;    /* allocated */
  bool valid;    /* holds a line */
} comm_line;

static int comm_cmp(const comm_line *a, const comm_line *b) {
  size_t n = a->len < b->len ? a->len : b->len;
  int d = n ? memcmp(a->buf, b->buf, n) : 0;
  if (d) return d;
  return a->len < b->len ? -1 : a->len > b->len;
}

static int comm_read(cmd_in *in, comm_line *l, char eol) {
  char *p;
  ssize_t n = cmd_in_getdelim(in, &p, eol);
  if (n <= 0) {
    l->valid = false;
    return (int)n;
  }
  size_t len = (size_t)n;
  if (p[len - 1] == eol) len--;
  if (cmd_grow(&l->buf, &l->cap, len + 1, 1)) return -ENOMEM;
  memcpy(l->buf, p, len);
  l->len = len;
  l->valid = true;
  return 1;
}

static const char comm_usage[] =
    "Usage: comm [OPTION]... FILE1 FILE2\n"
    "Compare sorted files FILE1 and FILE2 line by line.\n\n"
    "  -1              suppress column 1 (lines unique to FILE1)\n"
    "  -2              suppress column 2 (lines unique to FILE2)\n"
    "  -3              suppress column 3 (lines that appear in both files)\n\n"
    "  --check-order     check that the input is correctly sorted\n"
    "  --nocheck-order   do not check that the input is correctly sorted\n"
    "  --output-delimiter=STR  separate columns with STR\n"
    "  --total           output a summary\n"
    "  -z, --zero-terminated    line delimiter is NUL, not newline\n"
    CMD_HELP_VERSION_LINES;

int cmd_comm_main(cmd_ctx *ctx, int argc, char **argv) {
  enum { O_CHECK = CMD_OPT_LONG, O_NOCHECK, O_OUTPUT_DELIMITER, O_TOTAL };
  static const char spec[] =
      "(check-order)(nocheck-order)(output-delimiter):(total)(help)(version)123"
      "z(zero-terminated)";
  int check = 0; /* 0 default, 1 enabled, -1 disabled: the last of the two counts */
  cmd_getopt_state g = CMD_GETOPT_INIT;
  for (int c; (c = cmd_getopt(ctx, &g, argc, argv, spec, NULL)) != -1;) {
    switch (c) {
    case O_CHECK: check = 1; break;
    case O_NOCHECK: check = -1; break;
    CMD_CASES_HELP_VERSION(ctx, comm_usage);
    case '?': return 1; /* cmd_getopt printed the message */
    }
  }
  bool show[3] = {!cmd_opt_on(&g, '1'), !cmd_opt_on(&g, '2'), !cmd_opt_on(&g, '3')};
  bool total = cmd_opt_on(&g, O_TOTAL);
  const char *sep = cmd_opt_arg(&g, O_OUTPUT_DELIMITER);
  if (!sep) sep = "\t";
  size_t seplen = *sep ? strlen(sep) : 1; /* an empty delimiter is a NUL byte */
  char eol = cmd_opt_on(&g, 'z') ? '\0' : '\n';
  if (cmd_check_operands(ctx, argc, argv, g.ind, 2, 2)) return 1;
  const char *names[2] = {argv[g.ind], argv[g.ind + 1]};
  cmd_in *in[2] = {NULL, NULL};
  for (int f = 0; f < 2; f++) {
    int r = cmd_in_open(ctx, names[f], &in[f]);
    if (r < 0) {
      cmd_gnu_perror(ctx, names[f], r);
      if (f) cmd_in_close(in[0]);
      return 1;
    }
  }
  comm_line cur[2] = {{0}}, prev[2] = {{0}};
  bool warned[2] = {false, false}, seen_unpairable = false;
  uintmax_t counts[3] = {0, 0, 0};
  int status = 0;
  for (int f = 0; f < 2; f++) {
    int r = comm_read(in[f], &cur[f], eol);
    if (r < 0) {
      status = cmd_gnu_perror(ctx, names[f], r);
      goto out;
    }
  }
  for (uintmax_t iter = 0; cur[0].valid || cur[1].valid; iter++) {
    int order;
    if (!cur[0].valid) order = 1;
    else if (!cur[1].valid) order = -1;
    else order = comm_cmp(&cur[0], &cur[1]);
    int col = order < 0 ? 0 : order > 0 ? 1 : 2;
    counts[col]++;
    if (col < 2) seen_unpairable = true;
    if (show[col]) {
      for (int k = 0; k < col; k++)
        if (show[k]) cmd_out(ctx, sep, seplen);
      const comm_line *l = col == 1 ? &cur[1] : &cur[0];
      cmd_out(ctx, l->buf, l->len);
      cmd_out(ctx, &eol, 1);
    }
    /* Advance the file(s) that supplied the line, checking the order. */
    for (int f = 0; f < 2; f++) {
      if (!(col == 2 || col == f)) continue;
      comm_line t = prev[f];
      prev[f] = cur[f];
      cur[f] = t;
      int r = comm_read(in[f], &cur[f], eol);
      if (r < 0) {
        status = cmd_gnu_perror(ctx, names[f], r);
        goto out;
      }
      if (cur[f].valid && check >= 0 && (check == 1 || seen_unpairable) && !warned[f] &&
          comm_cmp(&prev[f], &cur[f]) > 0) {
        cmd_errorf(ctx, "file %d is not in sorted order", f + 1);
        if (check == 1) {
          status = 1;
          goto out;
        }
        warned[f] = true;
      }
    }
    if (ctx->out_err || ((iter & 1023) == 0 && cmd_poll(ctx))) break;
  }
  if (total)
    cmd_outf(ctx, "%ju%.*s%ju%.*s%ju%.*stotal%c", counts[0], (int)seplen, sep, counts[1],
             (int)seplen, sep, counts[2], (int)seplen, sep, eol);
  if (warned[0] || warned[1]) {
    cmd_errorf(ctx, "input is not in sorted order");
    status = 1;
  }
out:
  for (int f = 0; f < 2; f++) {
    free(cur[f].buf);
    free(prev[f].buf);
    cmd_in_close(in[f]);
  }
  if (ctx->out_err) return cmd_write_error(ctx, ctx->out_err);
  return status;
}
