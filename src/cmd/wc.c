/*
 * wc - print newline, word, and byte counts for each file.
 *
 *   Usage: wc [OPTION]... [FILE]...
 *     or:  wc [OPTION]... --files0-from=F
 *   -c, --bytes  -m, --chars  -l, --lines  -w, --words
 *   -L, --max-line-length  print the maximum display width
 *   --files0-from=F  read NUL-terminated file names from F (- for stdin)
 *
 * Design: three counting paths, from cheapest to most general. Bytes alone
 * on a seekable file come from its size; lines (and bytes) are a vector count
 * (cmd_count_byte) over 256 KiB blocks; anything else runs one pass that
 * handles ASCII through a byte-class table and decodes other bytes as UTF-8
 * like glibc's mbrtowc, classifying them with iswprint/iswspace/wcwidth
 * under a C.UTF-8 locale object (uselocale, per thread), as GNU wc does
 * under LC_ALL=C.UTF-8.
 *
 * Column width follows GNU exactly: 1 when a single count of a single input
 * is printed; otherwise the digits of the sum of the regular files' sizes,
 * at least 7 when any input is not a regular file (a pipe, a directory,
 * /dev/...). Names for --files0-from are read up front when the list is a
 * regular file (so the width sees them all) and streamed otherwise (width 1).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>
#include <wctype.h>

#include "cmd/cmd.h"
#include "cmd/lib/gnu.h"
#include "cmd/lib/bytescan.h"

CMD_DEFINE("wc", cmd_wc_main);

#define WC_BLOCK (256 * 1024)

static const char wc_usage[] =
    "Usage: wc [OPTION]... [FILE]...\n"
    "  or:  wc [OPTION]... --files0-from=F\n"
    "Print newline, word, and byte counts for each FILE, and a total line if\n"
    "more than one FILE is specified.  A word is a non-zero-length sequence of\n"
    "printable characters delimited by white space.\n"
    "\n"
    "With no FILE, or when FILE is -, read standard input.\n"
    "\n"
    "The options below may be used to select which counts are printed, always in\n"
    "the following order: newline, word, character, byte, maximum line length.\n"
    "  -c, --bytes            print the byte counts\n"
    "  -m, --chars            print the character counts\n"
    "  -l, --lines            print the newline counts\n"
    "      --files0-from=F    read input from the files specified by\n"
    "                           NUL-terminated names in file F;\n"
    "                           If F is - then read names from standard input\n"
    "  -L, --max-line-length  print the maximum display width\n"
    "  -w, --words            print the word counts\n"
    CMD_HELP_VERSION_LINES;

typedef struct wc_counts {
  uintmax_t lines, words, chars, bytes, maxlen; /* maxlen: display columns */
} wc_counts;

typedef struct wc_opts {
  bool lines, words, chars, bytes, maxlen; /* which counts to print */
  int width;                               /* column width */
} wc_opts;

/* Byte classes for the ASCII part of the general pass. */
enum {
  WC_CTRL,    /* non-printable, not a separator: no effect */
  WC_PRINT,   /* printable non-space: part of a word, width 1 */
  WC_SPACE,   /* ' ': separator, width 1 */
  WC_VTAB,    /* '\v': separator, width 0 */
  WC_NL,      /* '\n': line, separator, column reset */
  WC_RESET,   /* '\r' '\f': separator, column reset */
  WC_TAB,     /* '\t': separator, next tab stop */
  WC_HIGH,    /* >= 0x80: decode UTF-8 */
};

static unsigned char wc_class[256]; /* shared by every call: filled once */
static pthread_once_t wc_class_once = PTHREAD_ONCE_INIT;

static void wc_fill_classes(void) {
  for (int c = 0; c < 256; c++) {
    unsigned char k;
    if (c >= 0x80) k = WC_HIGH;
    else if (c > 0x20 && c < 0x7f) k = WC_PRINT;
    else if (c == ' ') k = WC_SPACE;
    else if (c == '\v') k = WC_VTAB;
    else if (c == '\n') k = WC_NL;
    else if (c == '\r' || c == '\f') k = WC_RESET;
    else if (c == '\t') k = WC_TAB;
    else k = WC_CTRL;
    wc_class[c] = k;
  }
}

/* State of the general pass across blocks. */
typedef struct wc_scan {
  wc_counts *n;       /* counts being accumulated */
  bool in_word;       /* inside a word */
  uintmax_t linepos;  /* display column in the current line */
} wc_scan;

static inline void wc_end_line(wc_scan *s) {
  if (s->linepos > s->n->maxlen) s->n->maxlen = s->linepos;
  s->linepos = 0;
}

static inline void wc_separator(wc_scan *s) {
  s->n->words += s->in_word;
  s->in_word = false;
}

/* The non-ASCII character wc (already counted as a char). */
static void wc_wide(wc_scan *s, uint32_t wc) {
  if (!iswprint((wint_t)wc)) return;
  int w = wcwidth((wchar_t)wc);
  if (w > 0) s->linepos += (uintmax_t)w;
  /* GNU also treats the no-break spaces as word separators. */
  if (iswspace((wint_t)wc) || wc == 0xa0 || wc == 0x2007 || wc == 0x202f || wc == 0x2060)
    wc_separator(s);
  else
    s->in_word = true;
}

/* Scans [p, p+len); returns how many bytes at the end form an incomplete
 * UTF-8 sequence to carry into the next block (0 at EOF). */
static size_t wc_scan_block(wc_scan *s, const unsigned char *p, size_t len, bool eof) {
  size_t i = 0;
  wc_counts *n = s->n;
  while (i < len) {
    unsigned c = p[i];
    switch (wc_class[c]) {
    case WC_PRINT:
      n->chars++;
      s->linepos++;
      s->in_word = true;
      i++;
      break;
    case WC_SPACE:
      n->chars++;
      s->linepos++;
      wc_separator(s);
      i++;
      break;
    case WC_NL:
      n->chars++;
      n->lines++;
      wc_end_line(s);
      wc_separator(s);
      i++;
      break;
    case WC_RESET:
      n->chars++;
      wc_end_line(s);
      wc_separator(s);
      i++;
      break;
    case WC_TAB:
      n->chars++;
      s->linepos += 8 - (s->linepos % 8);
      wc_separator(s);
      i++;
      break;
    case WC_VTAB:
      n->chars++;
      wc_separator(s);
      i++;
      break;
    case WC_CTRL:
      n->chars++;
      i++;
      break;
    default: {
      uint32_t wc;
      int l = cmd_utf8_decode(p + i, len - i, &wc);
      if (l == 0) {
        if (!eof) return len - i;
        l = -1;
      }
      if (l < 0) { /* an invalid byte: not a character, no effect */
        i++;
        break;
      }
      n->chars++;
      wc_wide(s, wc);
      i += (size_t)l;
    }
    }
  }
  return 0;
}

/* Counts one open input. Returns 0 or a negative errno (read error, with the
 * counts so far kept), or 1 when cancelled. */
static int wc_count_fd(cmd_ctx *ctx, const wc_opts *o, int fd, wc_counts *n,
                       unsigned char *buf) {
  memset(n, 0, sizeof *n);
  bool general = o->words || o->chars || o->maxlen;
  if (!general && !o->lines) {
    int64_t cur = ctx->io->lseek(ctx->io_ud, fd, 0, SEEK_CUR);
    int64_t end = cur >= 0 ? ctx->io->lseek(ctx->io_ud, fd, 0, SEEK_END) : -1;
    if (cur >= 0 && end >= 0) {
      n->bytes = end > cur ? (uintmax_t)(end - cur) : 0;
      return 0;
    }
  }
  wc_scan s = {n, false, 0};
  size_t carry = 0;
  for (;;) {
    if (cmd_poll(ctx)) return 1;
    ssize_t r = ctx->io->read(ctx->io_ud, fd, buf + carry, WC_BLOCK);
    if (r == -EINTR) continue;
    if (r < 0) return (int)r;
    n->bytes += (uintmax_t)r;
    if (!general) {
      if (o->lines) n->lines += cmd_count_byte(buf, (size_t)r, '\n');
      if (r == 0) break;
      continue;
    }
    size_t len = carry + (size_t)r;
    size_t left = wc_scan_block(&s, buf, len, r == 0);
    if (r == 0) break;
    memmove(buf, buf + len - left, left);
    carry = left;
  }
  if (general) {
    wc_end_line(&s);
    n->words += s.in_word;
  }
  return 0;
}

static void wc_print(cmd_ctx *ctx, const wc_opts *o, const wc_counts *n,
                     const char *name) {
  const char *sep = "";
  uintmax_t v[5] = {n->lines, n->words, n->chars, n->bytes, n->maxlen};
  bool on[5] = {o->lines, o->words, o->chars, o->bytes, o->maxlen};
  for (int i = 0; i < 5; i++) {
    if (!on[i]) continue;
    cmd_outf(ctx, "%s%*ju", sep, o->width, v[i]);
    sep = " ";
  }
  if (name)
    cmd_outf(ctx, " %s", strchr(name, '\n') ? cmd_gnu_quotef(ctx, name) : name);
  cmd_outc(ctx, '\n');
}

/* Size of a regular file for the width rule: 1 = regular (size set),
 * 0 = something else, -1 = cannot be opened. A store file is seekable; pipes,
 * devices and directories are not. */
static int wc_stat(cmd_ctx *ctx, const char *name, uintmax_t *size) {
  bool is_stdin = !name || strcmp(name, "-") == 0;
  int fd = cmd_open_input(ctx, is_stdin ? "-" : name);
  if (fd == -EISDIR) return 0;
  if (fd < 0) return -1;
  int64_t cur = ctx->io->lseek(ctx->io_ud, fd, 0, SEEK_CUR);
  int64_t end = cur >= 0 ? ctx->io->lseek(ctx->io_ud, fd, 0, SEEK_END) : -1;
  if (cur >= 0) ctx->io->lseek(ctx->io_ud, fd, cur, SEEK_SET);
  cmd_close_input(ctx, fd);
  if (end < 0) return 0;
  *size = (uintmax_t)end;
  return 1;
}

static int wc_compute_width(cmd_ctx *ctx, char **names, size_t nnames) {
  int width = 1, minimum = 1;
  uintmax_t total = 0;
  for (size_t i = 0; i < nnames; i++) {
    uintmax_t sz = 0;
    int k = wc_stat(ctx, names[i], &sz);
    if (k == 1) cmd_add_sat(&total, sz);
    else if (k == 0) minimum = 7;
  }
  for (; total >= 10; total /= 10) width++;
  return width < minimum ? minimum : width;
}

/* Counts and prints one operand (name NULL: stdin without a name). Returns
 * 0, 1 on a file error, or -1 to stop (cancelled or write error). */
static int wc_file(cmd_ctx *ctx, const wc_opts *o, const char *name, wc_counts *total,
                   unsigned char *buf) {
  const char *path = name ? name : "-";
  int fd = cmd_open_input(ctx, path);
  wc_counts n = {0};
  int status = 0;
  if (fd < 0 && fd != -EISDIR) return cmd_gnu_perror(ctx, path, fd);
  int r = fd < 0 ? fd : wc_count_fd(ctx, o, fd, &n, buf);
  if (fd >= 0) cmd_close_input(ctx, fd);
  if (r == 1) return -1;
  if (r < 0) status = cmd_gnu_perror(ctx, path, r);
  wc_print(ctx, o, &n, name);
  total->lines += n.lines;
  total->words += n.words;
  total->chars += n.chars;
  total->bytes += n.bytes;
  if (n.maxlen > total->maxlen) total->maxlen = n.maxlen;
  if (ctx->out_err) return -1;
  return status;
}

/* Reads the whole NUL-separated name list of `in` into an arena vector. */
static int wc_read_names(cmd_ctx *ctx, cmd_in *in, char ***names, size_t *count) {
  char *data;
  size_t len;
  int r = cmd_in_slurp(in, &data, &len);
  if (r < 0) return r;
  size_t n = 0;
  for (size_t i = 0; i < len; i++) n += data[i] == '\0';
  if (len > 0 && data[len - 1] != '\0') n++;
  char **v = cmd_alloc(ctx, (n + 1) * sizeof *v);
  char *copy = cmd_alloc(ctx, len + 1);
  if (!v || !copy) {
    free(data);
    return -ENOMEM;
  }
  memcpy(copy, data, len);
  copy[len] = 0;
  free(data);
  size_t k = 0;
  for (size_t i = 0; i < len;) {
    v[k++] = copy + i;
    i += strlen(copy + i) + 1;
  }
  *names = v;
  *count = k;
  return 0;
}

int cmd_wc_main(cmd_ctx *ctx, int argc, char **argv) {
  enum { O_FILES0_FROM = CMD_OPT_LONG };
  cmd_getopt_state g = CMD_GETOPT_INIT;
  int rc = cmd_getopt_all(ctx, &g, argc, argv,
                          "(files0-from):(help)(version)c(bytes)m(chars)l(lines)w(words)"
                          "L(max-line-length)",
                          wc_usage);
  if (rc >= 0) return rc;
  wc_opts o = {0};
  o.bytes = cmd_opt_on(&g, 'c');
  o.chars = cmd_opt_on(&g, 'm');
  o.lines = cmd_opt_on(&g, 'l');
  o.words = cmd_opt_on(&g, 'w');
  o.maxlen = cmd_opt_on(&g, 'L');
  const char *files_from = cmd_opt_arg(&g, O_FILES0_FROM);
  if (!(o.bytes || o.chars || o.lines || o.words || o.maxlen))
    o.lines = o.words = o.bytes = true;
  int ncounts = o.bytes + o.chars + o.lines + o.words + o.maxlen;
  if (files_from && g.ind < argc) {
    cmd_errorf(ctx, "extra operand %s", cmd_gnu_quoteaf(ctx, argv[g.ind]));
    cmd_err_raw(ctx, "file operands cannot be combined with --files0-from\n");
    return cmd_usage_hint(ctx, 1);
  }
  pthread_once(&wc_class_once, wc_fill_classes);
  unsigned char *buf = cmd_alloc(ctx, WC_BLOCK + 8);
  if (!buf) return 1;
  locale_t loc = cmd_utf8_locale(), old = (locale_t)0;
  if (loc) old = uselocale(loc);

  int status = 0;
  wc_counts total = {0};
  size_t done = 0; /* operands processed (for the total line) */
  if (!files_from) {
    char **names = g.ind < argc ? argv + g.ind : NULL;
    size_t nnames = g.ind < argc ? (size_t)(argc - g.ind) : 1;
    static char *no_name[] = {NULL};
    if (!names) names = no_name;
    o.width = (nnames == 1 && ncounts == 1) ? 1 : wc_compute_width(ctx, names, nnames);
    for (size_t i = 0; i < nnames; i++) {
      int r = wc_file(ctx, &o, names[i], &total, buf);
      done++;
      if (r < 0) {
        status = 1;
        goto out;
      }
      status |= r;
    }
  } else {
    bool from_stdin = strcmp(files_from, "-") == 0;
    cmd_in *in;
    int r = cmd_in_open(ctx, files_from, &in);
    if (r < 0) {
      cmd_errorf(ctx, "cannot open %s for reading: %s", cmd_gnu_quoteaf(ctx, files_from),
                 cmd_strerror(r));
      cmd_record_error(ctx, r, files_from);
      status = 1;
      goto out;
    }
    /* A regular list file is read whole first (the width needs its names). */
    uintmax_t sz;
    bool up_front = wc_stat(ctx, files_from, &sz) == 1;
    char **names = NULL;
    size_t nnames = 0;
    if (up_front) {
      r = wc_read_names(ctx, in, &names, &nnames);
      if (r < 0) {
        cmd_in_close(in);
        cmd_errorf(ctx, "cannot read file names from %s", cmd_gnu_quoteaf(ctx, files_from));
        status = 1;
        goto out;
      }
      o.width = (nnames == 1 && ncounts == 1) ? 1 : wc_compute_width(ctx, names, nnames);
    } else {
      o.width = 1;
    }
    for (;;) {
      char *name;
      if (up_front) {
        if (done >= nnames) break;
        name = names[done];
      } else {
        char *line;
        ssize_t l = cmd_in_getdelim(in, &line, '\0');
        if (l < 0) {
          cmd_errorf(ctx, "%s: read error: %s", cmd_gnu_quotef(ctx, files_from),
                     cmd_strerror((int)l));
          status = 1;
          break;
        }
        if (l == 0) break;
        name = cmd_strdup(ctx, line);
        if (!name) break;
      }
      done++;
      if (from_stdin && strcmp(name, "-") == 0) {
        cmd_errorf(ctx, "when reading file names from stdin, no file name of %s allowed",
                   cmd_gnu_quoteaf(ctx, name));
        status = 1;
        continue;
      }
      if (!*name) {
        cmd_errorf(ctx, "%s:%zu: invalid zero-length file name",
                   cmd_gnu_quotef(ctx, files_from), done);
        status = 1;
        continue;
      }
      r = wc_file(ctx, &o, name, &total, buf);
      if (r < 0) {
        status = 1;
        cmd_in_close(in);
        goto out;
      }
      status |= r;
    }
    cmd_in_close(in);
  }
  if (done > 1) wc_print(ctx, &o, &total, "total");
out:
  if (loc) uselocale(old);
  if (ctx->out_err) return cmd_write_error(ctx, ctx->out_err);
  return status;
}
