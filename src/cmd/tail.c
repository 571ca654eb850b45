/*
 * tail - output the last part of files.
 *
 *   Usage: tail [OPTION]... [FILE]...
 *   -c, --bytes=[+]NUM   last NUM bytes, or from byte NUM with '+'
 *   -n, --lines=[+]NUM   last NUM lines (default 10), or from line NUM
 *   -f, --follow[={name|descriptor}], -F, --retry, -s N, --pid=PID,
 *   --max-unchanged-stats=N   accepted; see below
 *   -q, --quiet, --silent  never print headers; -v, --verbose  always
 *   -z, --zero-terminated  line delimiter is NUL, not newline
 *   Obsolete forms: tail -NUM[bcl][f] / tail +NUM[bcl][f] with at most one file.
 *
 * Design: a seekable input (a store file) is read backwards from its end in
 * 64 KiB blocks (memrchr for the line case), so `tail big` costs the size of
 * the tail, not of the file. Pipes stream through a window that keeps the
 * last NUM bytes or lines, bounded by ctx->max_string ("memory exhausted"
 * beyond).
 *
 * Following (-f/-F) needs another process appending to the file while tail
 * waits; a sandbox call has no such concurrent writer that could outlive it,
 * and waiting forever would only hit the timeout. So -f is accepted and tail
 * prints what the file holds and exits, like GNU does for a pipe. A file that
 * cannot be opened under -f ends with "tail: no files remaining" like GNU.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/lib/gnu.h"
#include "cmd/lib/headtail.h"

CMD_DEFINE("tail", cmd_tail_main);

static const char tail_usage[] =
    "Usage: tail [OPTION]... [FILE]...\n"
    "Print the last 10 lines of each FILE to standard output.\n"
    "With more than one FILE, precede each with a header giving the file name.\n"
    "\n"
    "With no FILE, or when FILE is -, read standard input.\n"
    "\n"
    "Mandatory arguments to long options are mandatory for short options too.\n"
    "  -c, --bytes=[+]NUM       output the last NUM bytes; or use -c +NUM to\n"
    "                             output starting with byte NUM of each file\n"
    "  -f, --follow[={name|descriptor}]\n"
    "                           output appended data as the file grows;\n"
    "                             (in sbx: accepted, prints the current data)\n"
    "  -F                       same as --follow=name --retry\n"
    "  -n, --lines=[+]NUM       output the last NUM lines, instead of the last 10;\n"
    "                             or use -n +NUM to output starting with line NUM\n"
    "      --max-unchanged-stats=N  accepted, ignored\n"
    "      --pid=PID            accepted, ignored\n"
    "  -q, --quiet, --silent    never output headers giving file names\n"
    "      --retry              accepted, ignored\n"
    "  -s, --sleep-interval=N   accepted, ignored\n"
    "  -v, --verbose            always output headers giving file names\n"
    "  -z, --zero-terminated    line delimiter is NUL, not newline\n"
    CMD_HELP_VERSION_LINES
    "\n"
    CMD_GNU_NUM_SUFFIX_HELP;

/* Copies the rest of the input. */
static void tail_copy(cmd_headtail *j) {
  for (;;) {
    ssize_t r = cmd_headtail_read(j, j->buf, CMD_HEADTAIL_BLOCK);
    if (r <= 0) return;
    if (cmd_headtail_out(j, j->buf, (size_t)r) < 0) return;
  }
}

static int64_t tail_seek(cmd_headtail *j, int64_t off, int whence) {
  return j->ctx->io->lseek(j->ctx->io_ud, j->fd, off, whence);
}

/* Last n bytes. */
static void tail_bytes(cmd_headtail *j, uintmax_t n) {
  int64_t cur = tail_seek(j, 0, SEEK_CUR);
  int64_t end = cur >= 0 ? tail_seek(j, 0, SEEK_END) : -1;
  if (cur >= 0 && end >= 0) {
    int64_t from = end - cur > (int64_t)(n > INT64_MAX ? INT64_MAX : n)
                       ? end - (int64_t)n : cur;
    if (tail_seek(j, from, SEEK_SET) >= 0) {
      tail_copy(j);
      return;
    }
  }
  if (n == 0) { /* still read the input, like GNU */
    while (cmd_headtail_read(j, j->buf, CMD_HEADTAIL_BLOCK) > 0) {}
    return;
  }
  cmd_window w = {0};
  for (;;) {
    if (cmd_headtail_window_reserve(j, &w) < 0) goto out;
    ssize_t r = cmd_headtail_read(j, w.data + w.len, CMD_HEADTAIL_BLOCK);
    if (r < 0) goto out;
    if (r == 0) break;
    w.len += (size_t)r;
    if (w.len - w.start > n) w.start = w.len - (size_t)n;
  }
  cmd_headtail_out(j, w.data + w.start, w.len - w.start);
out:
  free(w.data);
}

/* Last n lines of a seekable input; returns false if it is not seekable. */
static bool tail_lines_seekable(cmd_headtail *j, uintmax_t n) {
  int64_t cur = tail_seek(j, 0, SEEK_CUR);
  int64_t end = cur >= 0 ? tail_seek(j, 0, SEEK_END) : -1;
  if (cur < 0 || end < 0) return false;
  if (end <= cur || n == 0) return true;
  int64_t pos = end, from = cur;
  bool last = true;
  uintmax_t want = n; /* delimiters still to pass */
  while (pos > cur) {
    int64_t bstart = pos - cur > CMD_HEADTAIL_BLOCK ? pos - CMD_HEADTAIL_BLOCK : cur;
    size_t blen = (size_t)(pos - bstart);
    if (tail_seek(j, bstart, SEEK_SET) < 0) return false;
    ssize_t r = cmd_read_full(j->ctx, j->fd, j->buf, blen);
    if (r < 0) {
      j->read_err = (int)r;
      return true;
    }
    if ((size_t)r < blen) blen = (size_t)r; /* shrank meanwhile */
    size_t k = blen;
    if (last && k > 0 && j->buf[k - 1] == j->delim) k--; /* final delimiter */
    last = false;
    while (k > 0) {
      char *q = memrchr(j->buf, j->delim, k);
      if (!q) break;
      if (--want == 0) {
        from = bstart + (q - j->buf) + 1;
        goto found;
      }
      k = (size_t)(q - j->buf);
    }
    pos = bstart;
    if (cmd_poll(j->ctx)) {
      j->fatal = -EINTR;
      return true;
    }
  }
found:
  if (tail_seek(j, from, SEEK_SET) >= 0) tail_copy(j);
  return true;
}

/* Last n lines of a stream. */
static void tail_lines_stream(cmd_headtail *j, uintmax_t n) {
  cmd_window w = {0};
  uintmax_t nlines = 0; /* delimiters in [start, len) */
  for (;;) {
    if (cmd_headtail_window_reserve(j, &w) < 0) goto out;
    ssize_t r = cmd_headtail_read(j, w.data + w.len, CMD_HEADTAIL_BLOCK);
    if (r < 0) goto out;
    if (r == 0) break;
    nlines += cmd_count_delim(w.data + w.len, (size_t)r, j->delim);
    w.len += (size_t)r;
    if (nlines > n) {
      uintmax_t k = nlines - n;
      w.start += cmd_after_nth_delim(w.data + w.start, w.len - w.start, k, j->delim);
      nlines = n;
    }
  }
  /* An unterminated last line counts as one of the n. */
  if (w.len > w.start && w.data[w.len - 1] != j->delim) {
    if (n == 0) w.start = w.len;
    else if (nlines == n)
      w.start += cmd_after_nth_delim(w.data + w.start, w.len - w.start, 1, j->delim);
  }
  cmd_headtail_out(j, w.data + w.start, w.len - w.start);
out:
  free(w.data);
}

/* From byte n (1-based) / from line n to the end. */
static void tail_from_start(cmd_headtail *j, uintmax_t n, bool lines) {
  uintmax_t skip = n > 0 ? n - 1 : 0;
  if (!lines) {
    int64_t cur = tail_seek(j, 0, SEEK_CUR);
    if (cur >= 0 && skip < (uintmax_t)INT64_MAX - (uintmax_t)cur &&
        tail_seek(j, cur + (int64_t)skip, SEEK_SET) >= 0) {
      tail_copy(j);
      return;
    }
  }
  while (skip > 0) {
    ssize_t r = cmd_headtail_read(j, j->buf, CMD_HEADTAIL_BLOCK);
    if (r <= 0) return;
    if (!lines) {
      if ((uintmax_t)r > skip) {
        cmd_headtail_out(j, j->buf + skip, (size_t)r - (size_t)skip);
        break;
      }
      skip -= (uintmax_t)r;
      continue;
    }
    char *p = j->buf, *e = j->buf + r;
    while (skip > 0 && (p = memchr(p, j->delim, (size_t)(e - p))) != NULL) {
      p++;
      skip--;
    }
    if (skip == 0) {
      if (cmd_headtail_out(j, p, (size_t)(e - p)) < 0) return;
      break;
    }
  }
  if (j->fatal || j->read_err) return;
  tail_copy(j);
}

/* What tail prints of each input. */
typedef struct tail_opts {
  uintmax_t n;     /* the count */
  bool from_start; /* a leading '+': from byte or line n */
  bool lines;      /* -n (else -c) */
} tail_opts;

static void tail_one(cmd_headtail *j, const void *opts) {
  const tail_opts *o = opts;
  if (o->from_start) tail_from_start(j, o->n, o->lines);
  else if (!o->lines) tail_bytes(j, o->n);
  else if (!tail_lines_seekable(j, o->n)) tail_lines_stream(j, o->n);
}

/* The obsolete "-NUM[bcl][f]" / "+NUM..." first argument. Returns 1 if
 * parsed (and sets the outputs), 0 if not that form, -1 on error. */
static int tail_obsolete(cmd_ctx *ctx, int argc, char **argv, uintmax_t *n,
                         bool *from_start, bool *lines, bool *follow) {
  if (!(argc == 2 || (argc == 3 && !(argv[2][0] == '-' && argv[2][1])) ||
        (argc >= 3 && argc <= 4 && strcmp(argv[2], "--") == 0)))
    return 0;
  const char *p = argv[1];
  bool fs;
  if (*p == '+') fs = true;
  else if (*p == '-') {
    /* "-" is stdin and "-c" needs an argument: not the obsolete form. */
    if (!p[1 + (p[1] == 'c')]) return 0;
    fs = false;
  } else {
    return 0;
  }
  p++;
  const char *digits = p;
  while (*p >= '0' && *p <= '9') p++;
  const char *digits_end = p;
  uintmax_t def = 10;
  bool l = true;
  switch (*p) {
  case 'b': def *= 512; l = false; p++; break;
  case 'c': l = false; p++; break;
  case 'l': p++; break;
  }
  bool f = false;
  if (*p == 'f') {
    f = true;
    p++;
  }
  if (*p) return 0;
  uintmax_t v = def;
  if (digits != digits_end) {
    size_t nd = (size_t)(p - digits);
    char *num = cmd_alloc(ctx, nd + 1);
    if (!num) return -1;
    memcpy(num, digits, nd);
    if ((cmd_parse_umax(num, "b", &v) & ~CMD_NUM_INVALID_SUFFIX) != CMD_NUM_OK) {
      cmd_errorf(ctx, "invalid number: %s: %s", cmd_gnu_quote(ctx, argv[1]),
                 cmd_strerror(ERANGE));
      return -1;
    }
  }
  *n = v;
  *from_start = fs;
  *lines = l;
  *follow = f;
  return 1;
}

int cmd_tail_main(cmd_ctx *ctx, int argc, char **argv) {
  enum { O_FOLLOW = CMD_OPT_LONG, O_MAX_UNCHANGED, O_PID, O_PRESUME_PIPE, O_RETRY };
  /* The long names in GNU's order ("--s": '--silent' '--sleep-interval'),
   * --help and --version after them. */
  static const char spec[] = "(help)(version)(follow)::(max-unchanged-stats):(pid):(presume-input-pipe)(retry)"
                             "c:(bytes)n:(lines)q(quiet)(silent)s:(sleep-interval)v(verbose)"
                             "z(zero-terminated)fF0123456789";
  uintmax_t n = 10;
  bool from_start = false, lines = true, follow = false;
  int headers = CMD_HEADTAIL_HEADERS_AUTO;
  char delim = '\n';
  char **av = argv;
  int ac = argc;

  int ob = tail_obsolete(ctx, argc, argv, &n, &from_start, &lines, &follow);
  if (ob < 0) return 1;
  if (ob > 0) {
    av = cmd_headtail_drop_first(ctx, argc, argv, &ac);
    if (!av) return 1;
  }

  cmd_getopt_state g = CMD_GETOPT_INIT;
  for (int c; (c = cmd_getopt(ctx, &g, ac, av, spec, NULL)) != -1;) {
    switch (c) {
    case 'c':
    case 'n': {
      lines = c == 'n';
      const char *s = g.arg;
      /* Like GNU, a '+' is sticky: "-n +3 -c 2" means -c +2. */
      if (*s == '+') from_start = true;
      if (*s == '+' || *s == '-') s++;
      uintmax_t v;
      int e = cmd_parse_umax(s, "bkKmMGTPEZY0", &v);
      if (e != CMD_NUM_OK) {
        const char *what = lines ? "invalid number of lines" : "invalid number of bytes";
        cmd_gnu_bad_number(ctx, what, g.arg, e == CMD_NUM_OVERFLOW ? EOVERFLOW : 0);
        return 1;
      }
      n = v;
      break;
    }
    case 'f': follow = true; break;
    case 'F': follow = true; break;
    case O_FOLLOW:
      if (g.arg && strcmp(g.arg, "name") != 0 && strcmp(g.arg, "descriptor") != 0) {
        cmd_errorf(ctx, "invalid argument %s for " CMD_LQ "--follow" CMD_RQ,
                   cmd_gnu_quote(ctx, g.arg));
        cmd_err_raw(ctx, "Valid arguments are:\n  - " CMD_LQ "descriptor" CMD_RQ "\n"
                         "  - " CMD_LQ "name" CMD_RQ "\n");
        return cmd_usage_hint(ctx, 1);
      }
      follow = true;
      break;
    case O_RETRY: case O_MAX_UNCHANGED: case O_PRESUME_PIPE: break;
    case 's': {
      char *end;
      double d = strtod(g.arg, &end);
      if (end == g.arg || *end || !(d >= 0)) {
        cmd_errorf(ctx, "invalid number of seconds: %s", cmd_gnu_quote(ctx, g.arg));
        return 1;
      }
      break;
    }
    case O_PID: {
      char *end;
      long v = strtol(g.arg, &end, 10);
      if (end == g.arg || *end || v < 0) {
        cmd_errorf(ctx, "invalid PID: %s", cmd_gnu_quote(ctx, g.arg));
        return 1;
      }
      break;
    }
    case 'q': headers = CMD_HEADTAIL_HEADERS_NEVER; break;
    case 'v': headers = CMD_HEADTAIL_HEADERS_ALWAYS; break;
    case 'z': delim = '\0'; break;
    CMD_CASES_HELP_VERSION(ctx, tail_usage);
    default:
      if (c >= '0' && c <= '9') {
        cmd_errorf(ctx, "option used in invalid context -- %c", c);
        return 1;
      }
      return 1; /* cmd_getopt printed the message */
    }
  }

  /* GNU: nothing to print and nothing to follow: no file is even opened */
  if (n == 0 && !from_start && !follow) return 0;
  tail_opts o = {n, from_start, lines};
  int opened;
  int status =
      cmd_headtail_each(ctx, ac, av, g.ind, headers, delim, tail_one, &o, &opened);
  if (follow && opened == 0) {
    cmd_errorf(ctx, "no files remaining");
    status = 1;
  }
  return status;
}
