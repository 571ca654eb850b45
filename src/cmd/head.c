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

CMD_DEFINE("head", cmd_head_main);

#define HEAD_BLOCK 65536

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

typedef struct head_job {
  cmd_ctx *ctx;
  int fd;               /* input descriptor */
  const char *name;     /* operand as given (for messages) */
  char delim;           /* '\n' or '\0' (-z) */
  int read_err;         /* first read error (negative errno), 0 if none */
  int write_err;        /* first write error (negative errno), 0 if none */
} head_job;

/* One read(2): returns bytes, 0 at EOF, -1 on error (recorded). */
static ssize_t head_read(head_job *j, void *buf, size_t n) {
  ssize_t r = cmd_read_once(j->ctx, j->fd, buf, n);
  if (r >= 0) return r;
  if (r == -EINTR) j->write_err = -EINTR; /* cancelled */
  else j->read_err = (int)r;
  return -1;
}

static int head_out(head_job *j, const void *p, size_t n) {
  if (n == 0) return 0;
  int r = cmd_out(j->ctx, p, n);
  if (r < 0) j->write_err = r;
  return r;
}

/* The first n bytes. */
static void head_bytes(head_job *j, uintmax_t n, char *buf) {
  while (n > 0) {
    size_t want = n < HEAD_BLOCK ? (size_t)n : HEAD_BLOCK;
    ssize_t r = head_read(j, buf, want);
    if (r <= 0) return;
    if (head_out(j, buf, (size_t)r) < 0) return;
    n -= (uintmax_t)r;
  }
}

/* The first n lines; a seekable input is left just after them. */
static void head_lines(head_job *j, uintmax_t n, char *buf) {
  while (n > 0) {
    ssize_t r = head_read(j, buf, HEAD_BLOCK);
    if (r <= 0) return;
    char *p = buf, *end = buf + r;
    while (n > 0) {
      char *q = memchr(p, j->delim, (size_t)(end - p));
      if (!q) break;
      p = q + 1;
      n--;
    }
    if (n == 0) {
      if (head_out(j, buf, (size_t)(p - buf)) < 0) return;
      if (p < end) /* give back what we read past the last line */
        j->ctx->io->lseek(j->ctx->io_ud, j->fd, -(int64_t)(end - p), SEEK_CUR);
      return;
    }
    if (head_out(j, buf, (size_t)r) < 0) return;
  }
}

/* Makes room for HEAD_BLOCK more bytes; 0, or -1 after printing the error. */
static int head_window_reserve(head_job *j, cmd_window *w) {
  if (cmd_window_reserve(w, HEAD_BLOCK, j->ctx->max_string + HEAD_BLOCK * 8) == 0) return 0;
  cmd_errorf(j->ctx, "memory exhausted");
  j->write_err = -ENOMEM;
  return -1;
}

/* All but the last n bytes. */
static void head_elide_bytes(head_job *j, uintmax_t n, char *buf) {
  cmd_ctx *ctx = j->ctx;
  int64_t cur = ctx->io->lseek(ctx->io_ud, j->fd, 0, SEEK_CUR);
  int64_t end = cur >= 0 ? ctx->io->lseek(ctx->io_ud, j->fd, 0, SEEK_END) : -1;
  if (cur >= 0 && end >= 0 && ctx->io->lseek(ctx->io_ud, j->fd, cur, SEEK_SET) >= 0) {
    uintmax_t avail = end > cur ? (uintmax_t)(end - cur) : 0;
    if (avail > n) head_bytes(j, avail - n, buf);
    return;
  }
  cmd_window w = {0};
  for (;;) {
    if (head_window_reserve(j, &w) < 0) break;
    ssize_t r = head_read(j, w.data + w.len, HEAD_BLOCK);
    if (r <= 0) break;
    w.len += (size_t)r;
    size_t have = w.len - w.start;
    if (have > n) {
      size_t k = have - (size_t)n;
      if (head_out(j, w.data + w.start, k) < 0) break;
      w.start += k;
    }
  }
  free(w.data);
}

/* All but the last n lines (an unterminated last line counts as one). */
static void head_elide_lines(head_job *j, uintmax_t n) {
  cmd_window w = {0};
  uintmax_t nlines = 0; /* delimiters in [start, len) */
  bool eof = false;
  for (;;) {
    if (head_window_reserve(j, &w) < 0) break;
    ssize_t r = head_read(j, w.data + w.len, HEAD_BLOCK);
    if (r < 0) break;
    if (r == 0) eof = true;
    nlines += cmd_count_delim(w.data + w.len, (size_t)r, j->delim);
    w.len += (size_t)r;
    uintmax_t total = nlines;
    if (eof && w.len > w.start && w.data[w.len - 1] != j->delim) total++;
    if (total > n) {
      uintmax_t k = total - n;
      size_t cut = cmd_after_nth_delim(w.data + w.start, w.len - w.start, k, j->delim);
      if (head_out(j, w.data + w.start, cut) < 0) break;
      w.start += cut;
      nlines -= k;
    }
    if (eof) break;
  }
  free(w.data);
}

int cmd_head_main(cmd_ctx *ctx, int argc, char **argv) {
  static const char spec[] = "(presume-input-pipe)(help)(version)c:(bytes)n:(lines)"
                             "q(quiet)(silent)v(verbose)z(zero-terminated)0123456789";
  bool count_lines = true, elide = false;
  uintmax_t n = 10;
  int header_mode = 0; /* 0 multiple files, 1 never, 2 always */
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
      case 'q': header_mode = 1; break;
      case 'v': header_mode = 2; break;
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
    av = cmd_alloc(ctx, sizeof(char *) * (size_t)(argc + 1));
    if (!av) return 1;
    av[0] = argv[0];
    for (int i = 2; i < argc; i++) av[i - 1] = argv[i];
    ac = argc - 1;
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
    case 'q': header_mode = 1; break;
    case 'v': header_mode = 2; break;
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

  int nfiles;
  char *const *files = cmd_file_operands(ac, av, g.ind, &nfiles);
  bool headers = header_mode == 2 || (header_mode == 0 && nfiles > 1);
  char *buf = cmd_alloc(ctx, HEAD_BLOCK);
  if (!buf) return 1;
  int status = 0;
  bool first = true;
  for (int i = 0; i < nfiles; i++) {
    const char *name = files[i];
    int fd = cmd_open_input(ctx, name);
    if (fd < 0 && fd != -EISDIR) {
      cmd_errorf(ctx, "cannot open %s for reading: %s", cmd_gnu_quoteaf(ctx, name),
                 cmd_strerror(fd));
      cmd_record_error(ctx, fd, name);
      status = 1;
      continue;
    }
    if (headers) {
      cmd_outf(ctx, "%s==> %s <==\n", first ? "" : "\n",
               strcmp(name, "-") == 0 ? "standard input" : name);
    }
    first = false;
    head_job j = {ctx, fd, name, delim, 0, 0};
    if (fd == -EISDIR) {
      j.read_err = -EISDIR;
    } else if (!elide) {
      if (count_lines) head_lines(&j, n, buf);
      else head_bytes(&j, n, buf);
    } else if (n == 0) {
      head_bytes(&j, UINTMAX_MAX, buf);
    } else if (count_lines) {
      head_elide_lines(&j, n);
    } else {
      head_elide_bytes(&j, n, buf);
    }
    cmd_close_input(ctx, fd);
    if (j.write_err == -EINTR || j.write_err == -ENOMEM) return 1;
    if (j.write_err) return cmd_write_error(ctx, j.write_err);
    if (j.read_err) {
      cmd_errorf(ctx, "error reading %s: %s", cmd_gnu_quoteaf(ctx, name),
                 cmd_strerror(j.read_err));
      cmd_record_error(ctx, j.read_err, name);
      status = 1;
    }
  }
  return status;
}
