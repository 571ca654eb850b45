/*
 * cat - concatenate files and print on the standard output.
 *
 *   Usage: cat [OPTION]... [FILE]...
 *   -A  equivalent to -vET          -b  number nonempty output lines
 *   -e  equivalent to -vE           -E  display $ at end of each line
 *   -n  number all output lines     -s  suppress repeated empty output lines
 *   -t  equivalent to -vT           -T  display TAB characters as ^I
 *   -u  (ignored)                   -v  use ^ and M- notation, except LFD/TAB
 *
 * Design: without formatting options cat is a block copy (64 KiB reads
 * straight into cmd_out). With options, a small state machine reproduces GNU
 * cat exactly, including state carried across files: `newlines` counts the
 * newlines just seen (-1 inside a line), so a file without a final newline
 * continues the line in the next file, and -s squeezes across file borders.
 * Line segments are located with memchr and transformed in bulk.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/lib/gnu.h"

CMD_DEFINE("cat", cmd_cat_main);

#define CAT_BLOCK 65536

typedef struct cat_state {
  bool number;           /* -n: number lines */
  bool number_nonblank;  /* -b: number nonempty lines only */
  bool squeeze;          /* -s: squeeze repeated empty lines */
  bool show_ends;        /* -E: '$' before newlines */
  bool show_tabs;        /* -T: TAB as ^I */
  bool show_nonprinting; /* -v: ^X and M-X notation */
  int newlines;          /* consecutive newlines seen; -1 inside a line */
  uintmax_t line_num;    /* last line number printed */
  char *obuf;            /* output staging buffer (CAT_BLOCK*4 + slack) */
  size_t olen;           /* bytes used in obuf */
} cat_state;

static const char cat_usage[] =
    "Usage: cat [OPTION]... [FILE]...\n"
    "Concatenate FILE(s) to standard output.\n"
    "\n"
    "With no FILE, or when FILE is -, read standard input.\n"
    "\n"
    "  -A, --show-all           equivalent to -vET\n"
    "  -b, --number-nonblank    number nonempty output lines, overrides -n\n"
    "  -e                       equivalent to -vE\n"
    "  -E, --show-ends          display $ at end of each line\n"
    "  -n, --number             number all output lines\n"
    "  -s, --squeeze-blank      suppress repeated empty output lines\n"
    "  -t                       equivalent to -vT\n"
    "  -T, --show-tabs          display TAB characters as ^I\n"
    "  -u                       (ignored)\n"
    "  -v, --show-nonprinting   use ^ and M- notation, except for LFD and TAB\n"
    CMD_HELP_VERSION_LINES;

/* Flushes the staging buffer to stdout. */
static int cat_flush(cmd_ctx *ctx, cat_state *st) {
  int r = st->olen ? cmd_out(ctx, st->obuf, st->olen) : 0;
  st->olen = 0;
  return r;
}

static void cat_put_number(cat_state *st) {
  st->line_num++;
  char tmp[32];
  int n = snprintf(tmp, sizeof tmp, "%6ju\t", st->line_num);
  memcpy(st->obuf + st->olen, tmp, (size_t)n);
  st->olen += (size_t)n;
}

/* Copies the line segment [p, e) (no newline inside) with -v/-T applied. */
static void cat_put_segment(cat_state *st, const unsigned char *p,
                            const unsigned char *e) {
  char *o = st->obuf + st->olen;
  if (!st->show_nonprinting && !st->show_tabs) {
    memcpy(o, p, (size_t)(e - p));
    st->olen += (size_t)(e - p);
    return;
  }
  for (; p < e; p++) {
    unsigned c = *p;
    if (st->show_nonprinting) {
      bool high = c >= 128;
      if (high) {
        *o++ = 'M';
        *o++ = '-';
        c -= 128;
      }
      if (c < 32) {
        if (c == '\t' && !high && !st->show_tabs) { *o++ = '\t'; continue; }
        *o++ = '^';
        *o++ = (char)(c + 64);
      } else if (c == 127) {
        *o++ = '^';
        *o++ = '?';
      } else {
        *o++ = (char)c;
      }
    } else if (c == '\t') {
      *o++ = '^';
      *o++ = 'I';
    } else {
      *o++ = (char)c;
    }
  }
  st->olen = (size_t)(o - st->obuf);
}

/* Formats one input block. The staging buffer is flushed when it could not
 * take another worst-case piece (4 bytes per input byte plus a number). */
static int cat_format_block(cmd_ctx *ctx, cat_state *st, const unsigned char *p,
                            const unsigned char *end) {
  const size_t piece = 4096;
  while (p < end) {
    if (st->olen > CAT_BLOCK * 2) {
      int r = cat_flush(ctx, st);
      if (r < 0) return r;
    }
    if (*p == '\n') {
      p++;
      if (++st->newlines > 0) {
        if (st->newlines >= 2) {
          st->newlines = 2;
          if (st->squeeze) continue;
        }
        if (st->number && !st->number_nonblank) cat_put_number(st);
      }
      if (st->show_ends) st->obuf[st->olen++] = '$';
      st->obuf[st->olen++] = '\n';
      continue;
    }
    if (st->newlines >= 0 && st->number) cat_put_number(st);
    const unsigned char *lim = end - p > (ptrdiff_t)piece ? p + piece : end;
    const unsigned char *nl = memchr(p, '\n', (size_t)(lim - p));
    const unsigned char *q = nl ? nl : lim;
    cat_put_segment(st, p, q);
    st->newlines = -1;
    p = q;
  }
  return 0;
}

/* Copies one open input to stdout. Returns 0, a read error (> 0 errno), or a
 * write error (< 0). */
static int cat_stream(cmd_ctx *ctx, cat_state *st, cmd_in *in, bool plain,
                      unsigned char *buf) {
  for (;;) {
    if (cmd_poll(ctx)) return -EINTR;
    ssize_t n = cmd_in_read(in, buf, CAT_BLOCK);
    if (n < 0) return (int)-n;
    if (n == 0) return 0;
    int r = plain ? cmd_out(ctx, buf, (size_t)n)
                  : cat_format_block(ctx, st, buf, buf + n);
    if (r < 0) return r;
  }
}

int cmd_cat_main(cmd_ctx *ctx, int argc, char **argv) {
  cmd_getopt_state g = CMD_GETOPT_INIT;
  static const char spec[] = "(help)(version)A(show-all)b(number-nonblank)eE(show-ends)"
                             "n(number)s(squeeze-blank)tT(show-tabs)uv(show-nonprinting)";
  int rc = cmd_getopt_all(ctx, &g, argc, argv, spec, cat_usage);
  if (rc >= 0) return rc;
  bool all = cmd_opt_on(&g, 'A');
  cat_state st = {
      .number_nonblank = cmd_opt_on(&g, 'b'),
      .number = cmd_opt_on(&g, 'b') || cmd_opt_on(&g, 'n'),
      .squeeze = cmd_opt_on(&g, 's'),
      .show_ends = all || cmd_opt_on(&g, 'e') || cmd_opt_on(&g, 'E'),
      .show_tabs = all || cmd_opt_on(&g, 't') || cmd_opt_on(&g, 'T'),
      .show_nonprinting = all || cmd_opt_on(&g, 'e') || cmd_opt_on(&g, 't') ||
                          cmd_opt_on(&g, 'v'),
  };
  bool plain = !(st.number || st.squeeze || st.show_ends || st.show_tabs ||
                 st.show_nonprinting);
  unsigned char *buf = cmd_alloc(ctx, CAT_BLOCK);
  if (!plain) st.obuf = cmd_alloc(ctx, CAT_BLOCK * 4 + 64);
  if (!buf || (!plain && !st.obuf)) {
    cmd_errorf(ctx, "memory exhausted");
    return 1;
  }
  int nfiles;
  char *const *files = cmd_file_operands(argc, argv, g.ind, &nfiles);
  int status = 0;
  for (int i = 0; i < nfiles; i++) {
    cmd_in *in = cmd_gnu_open(ctx, files[i], &status);
    if (!in) continue;
    int r = cat_stream(ctx, &st, in, plain, buf);
    cmd_in_close(in);
    if (r == -EINTR) return 1;
    if (r >= 0 && !plain) {
      /* Flush per file so stdout and stderr keep their order. */
      int w = cat_flush(ctx, &st);
      if (w < 0) r = w;
    }
    if (r < 0) return cmd_write_error(ctx, r);
    if (r > 0) status = cmd_gnu_perror(ctx, files[i], r);
  }
  return status;
}
