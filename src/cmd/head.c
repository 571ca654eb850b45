/*
 * head - output the first part of files.
 *
 *   Usage: head [OPTION]... [FILE]...
 *   -c, --bytes=[-]NUM   first NUM bytes (with '-': all but the last NUM)
 *   -n, --lines=[-]NUM   first NUM lines (default 10; with '-': all but last)
 *   -q, --quiet, --silent  never print headers; -v, --verbose  always print
 *   -z, --zero-terminated  line delimiter is NUL, not newline
 *   NUM may have a multiplier suffix: b 512, kB 1000, K 1024, MB, M, ... KiB.
 *   Obsolete form: head -NUM[bkm][clqvz] as the first argument.
 *
 * Design: head reads the file descriptor directly (not through cmd_in's
 * buffer) so that it consumes no more than it prints: like GNU head, after
 * the last wanted line it seeks a seekable input back to just after it, which
 * keeps `{ head -n1; cat; } < file` working. "All but the last N" streams
 * through a window that keeps N bytes (or N lines) back; the window is
 * bounded by ctx->max_string (a clear "memory exhausted" error beyond), and
 * for seekable inputs -c -N uses the size instead of a window.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/lib/gnu.h"
#include "cmd/lib/headtail.h"

CMD_DEFINE("head", cmd_head_main);

static const char head_usage[] =
    "Usage: head [OPTION]... [FILE]...\n"
    "Print the first 10 lines of each FILE to standard output.\n"
    "With more than one FILE, precede each with a header giving the file name.\n"
    "\n"
    "With no FILE, or when FILE is -, read standard input.\n"
    "\n"
    "Mandatory arguments to long options are mandatory for short options too.\n"
    "  -c, --bytes=[-]NUM       print the first NUM bytes of each file;\n"
    "                             with the leading '-', print all but the last\n"
    "                             NUM bytes of each file\n"
    "  -n, --lines=[-]NUM       print the first NUM lines instead of the first 10;\n"
    "                             with the leading '-', print all but the last\n"
    "                             NUM lines of each file\n"
    "  -q, --quiet, --silent    never print headers giving file names\n"
    "  -v, --verbose            always print headers giving file names\n"
    "  -z, --zero-terminated    line delimiter is NUL, not newline\n"
    CMD_HELP_VERSION_LINES
    "\n"
    CMD_GNU_NUM_SUFFIX_HELP;

/* The first n bytes. */
static void head_bytes(cmd_headtail *j, uintmax_t n) {
  while (n > 0) {
    size_t want = n < CMD_HEADTAIL_BLOCK ? (size_t)n : CMD_HEADTAIL_BLOCK;
    ssize_t r = cmd_headtail_read(j, j->buf, want);
    if (r <= 0) return;
    if (cmd_headtail_out(j, j->buf, (size_t)r) < 0) return;
    n -= (uintmax_t)r;
  }
}

/* The first n lines; a seekable input is left just after them. */
static void head_lines(cmd_headtail *j, uintmax_t n) {
  while (n > 0) {
    ssize_t r = cmd_headtail_read(j, j->buf, CMD_HEADTAIL_BLOCK);
    if (r <= 0) return;
    char *p = j->buf, *end = j->buf + r;
    while (n > 0) {
      char *q = memchr(p, j->delim, (size_t)(end - p));
      if (!q) break;
      p = q + 1;
      n--;
    }
    if (n == 0) {
      if (cmd_headtail_out(j, j->buf, (size_t)(p - j->buf)) < 0) return;
      if (p < end) /* give back what we read past the last line */
        j->ctx->io->lseek(j->ctx->io_ud, j->fd, -(int64_t)(end - p), SEEK_CUR);
      return;
    }
    if (cmd_headtail_out(j, j->buf, (size_t)r) < 0) return;
  }
}

/* All but the last n bytes. */
static void head_elide_bytes(cmd_headtail *j, uintmax_t n) {
  cmd_ctx *ctx = j->ctx;
  int64_t cur = ctx->io->lseek(ctx->io_ud, j->fd, 0, SEEK_CUR);
  int64_t end = cur >= 0 ? ctx->io->lseek(ctx->io_ud, j->fd, 0, SEEK_END) : -1;
  if (cur >= 0 && end >= 0 && ctx->io->lseek(ctx->io_ud, j->fd, cur, SEEK_SET) >= 0) {
    uintmax_t avail = end > cur ? (uintmax_t)(end - cur) : 0;
    if (avail > n) head_bytes(j, avail - n);
    return;
  }
  cmd_window w = {0};
  for (;;) {
    if (cmd_headtail_window_reserve(j, &w) < 0) break;
    ssize_t r = cmd_headtail_read(j, w.data + w.len, CMD_HEADTAIL_BLOCK);
    if (r <= 0) break;
    w.len += (size_t)r;
    size_t have = w.len - w.start;
    if (have > n) {
      size_t k = have - (size_t)n;
      if (cmd_headtail_out(j, w.data + w.start, k) < 0) break;
      w.start += k;
    }
  }
  free(w.data);
}

/* All but the last n lines (an unterminated last line counts as one). */
static void head_elide_lines(cmd_headtail *j, uintmax_t n) {
  cmd_window w = {0};
  uintmax_t nlines = 0; /* delimiters in [start, len) */
  bool eof = false;
  for (;;) {
    if (cmd_headtail_window_reserve(j, &w) < 0) break;
    ssize_t r = cmd_headtail_read(j, w.data + w.len, CMD_HEADTAIL_BLOCK);
    if (r < 0) break;
    if (r == 0) eof = true;
    nlines += cmd_count_delim(w.data + w.len, (size_t)r, j->delim);
    w.len += (size_t)r;
    uintmax_t total = nlines;
    if (eof && w.len > w.start && w.data[w.len - 1] != j->delim) total++;
    if (total > n) {
      uintmax_t k = total - n;
      size_t cut = cmd_after_nth_delim(w.data + w.start, w.len - w.start, k, j->delim);
      if (cmd_headtail_out(j, w.data + w.start, cut) < 0) break;
      w.start += cut;
      nlines -= k;
    }
    if (eof) break;
  }
  free(w.data);
}

/* What head prints of each input. */
typedef struct head_opts {
  bool count_lines; /* -n (else -c) */
  bool elide;       /* a leading '-': all but the last n */
  uintmax_t n;      /* the count */
} head_opts;

static void head_one(cmd_headtail *j, const void *opts) {
  const head_opts *o = opts;
  if (!o->elide) {
    if (o->count_lines) head_lines(j, o->n);
    else head_bytes(j, o->n);
  } else if (o->n == 0) {
    head_bytes(j, UINTMAX_MAX);
  } else if (o->count_lines) {
    head_elide_lines(j, o->n);
  } else {
    head_elide_bytes(j, o->n);
  }
}

int cmd_head_main(cmd_ctx *ctx, int argc, char **argv) {
  static const char spec[] = "(presume-input-pipe)(help)(version)c:(bytes)n:(lines)"
                             "q(quiet)(silent)v(verbose)z(zero-terminated)0123456789";
  bool count_lines = true, elide = false;
  uintmax_t n = 10;
  int headers = CMD_HEADTAIL_HEADERS_AUTO;
  char delim = '\n';

  /* The obsolete "-NUM[bkm][clqvz]" form, only as the first argument. */
  char **av = argv;
  int ac = argc;
  if (argc > 1 && argv[1][0] == '-' && argv[1][1] >= '0' && argv[1][1] <= '9') {
    const char *a = argv[1] + 1;
    const char *digits_end = a;
    while (*digits_end >= '0' && *digits_end <= '9') digits_end++;
    char mult = 0;
    for (const char *p = digits_end; *p; p++) {
      switch (*p) {
      case 'c': count_lines = false; mult = 0; break;
      case 'b': case 'k': case 'm': count_lines = false; mult = *p; break;
      case 'l': count_lines = true; break;
      case 'q': headers = CMD_HEADTAIL_HEADERS_NEVER; break;
      case 'v': headers = CMD_HEADTAIL_HEADERS_ALWAYS; break;
      case 'z': delim = '\0'; break;
      default:
        cmd_errorf(ctx, "invalid trailing option -- %c", *p);
        return cmd_usage_hint(ctx, 1);
      }
    }
    size_t nd = (size_t)(digits_end - a);
    char *num = cmd_alloc(ctx, nd + 2);
    if (!num) return 1;
    memcpy(num, a, nd);
    num[nd] = mult;
    if (cmd_parse_umax_or_die(ctx, num, "bkKmMGTPEZY0", 0, UINTMAX_MAX,
                              count_lines ? "invalid number of lines"
                                          : "invalid number of bytes",
                              &n) < 0)
      return 1;
    /* Hide the consumed argument from the option parser. */
    av = cmd_headtail_drop_first(ctx, argc, argv, &ac);
    if (!av) return 1;
  }

  cmd_getopt_state g = CMD_GETOPT_INIT;
  for (int c; (c = cmd_getopt(ctx, &g, ac, av, spec, NULL)) != -1;) {
    switch (c) {
    case 'c':
    case 'n': {
      count_lines = c == 'n';
      const char *s = g.arg;
      elide = *s == '-';
      if (elide) s++;
      if (cmd_parse_umax_or_die(ctx, s, "bkKmMGTPEZY0", 0, UINTMAX_MAX,
                                count_lines ? "invalid number of lines"
                                            : "invalid number of bytes",
                                &n) < 0)
        return 1;
      break;
    }
    case 'q': headers = CMD_HEADTAIL_HEADERS_NEVER; break;
    case 'v': headers = CMD_HEADTAIL_HEADERS_ALWAYS; break;
    case 'z': delim = '\0'; break;
    case CMD_OPT_LONG: break; /* --presume-input-pipe */
    CMD_CASES_HELP_VERSION(ctx, head_usage);
    default:
      if (c >= '0' && c <= '9') {
        cmd_errorf(ctx, "invalid trailing option -- %c", c);
        return cmd_usage_hint(ctx, 1);
      }
      return 1; /* cmd_getopt printed the message */
    }
  }

  head_opts o = {count_lines, elide, n};
  int opened;
  return cmd_headtail_each(ctx, ac, av, g.ind, headers, delim, head_one, &o, &opened);
}
