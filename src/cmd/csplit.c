/*
 * csplit - split a file into sections determined by context lines.
 *
 *   Usage: csplit [OPTION]... FILE PATTERN...
 *   PATTERN: INTEGER, /REGEXP/[OFFSET], %REGEXP%[OFFSET], {INTEGER}, {*}
 *   -b, --suffix-format=FORMAT  -f, --prefix=PREFIX  -k, --keep-files
 *   -n, --digits=DIGITS  -s, -q, --quiet, --silent  -z, --elide-empty-files
 *   --suppress-matched
 *
 * Design: the input is read whole (bounded like sort) and indexed by line;
 * the controls then run GNU's state machine over line numbers: a line count
 * writes up to the line before it (failing with "line number out of range"
 * when the input ends first), a regexp search starts just after the line that
 * began the current section (so a match never matches itself twice), writes
 * the lines it passes, and {*} ends quietly at the last match. Sizes are
 * printed as files are closed; on error the open file is closed (its size
 * printed) and every created file is removed unless -k, as GNU does. Regular
 * expressions use glibc's GNU regex API with POSIX basic syntax.
 */
#include <errno.h>
#include <fcntl.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/lib/buf.h"
#include "cmd/lib/gnu.h"

CMD_DEFINE("csplit", cmd_csplit_main);

typedef struct cs_control {
  const char *arg;          /* the pattern as given (for messages) */
  bool regexp;              /* /RE/ or %RE% */
  bool ignore;              /* %RE%: discard the section */
  intmax_t offset;          /* +N / -N after a regexp */
  uintmax_t lines;          /* line number for a count control */
  uintmax_t repeat;         /* {N} */
  bool forever;             /* {*} */
  struct re_pattern_buffer re; /* compiled regexp */
  bool compiled;
} cs_control;

typedef struct cs_state {
  cmd_ctx *ctx;
  char *data;               /* whole input (malloc'd) */
  size_t *start;            /* line i (1-based) starts at start[i-1] */
  size_t nlines;            /* number of lines */
  size_t len;               /* input length */
  uintmax_t first;          /* first line not yet consumed (1-based) */
  uintmax_t current;        /* GNU's current_line for searches */
  const char *prefix;       /* -f */
  const char *format;       /* suffix format (with one int conversion) */
  bool keep, quiet, elide, suppress;
  uintmax_t files;          /* files created so far */
  char **names;             /* their names (malloc'd) */
  size_t names_cap;
  int fd;                   /* current output, -1 none */
  uintmax_t written;        /* bytes in the current output */
  bool failed;
} cs_state;

static size_t cs_line_len(cs_state *st, uintmax_t i) {
  size_t end = i < st->nlines ? st->start[i] : st->len;
  return end - st->start[i - 1];
}

static int cs_create(cs_state *st) {
  char suffix[128];
  snprintf(suffix, sizeof suffix, st->format, (unsigned)st->files);
  size_t n = strlen(st->prefix) + strlen(suffix) + 1;
  char *name = malloc(n);
  if (!name) return -1;
  snprintf(name, n, "%s%s", st->prefix, suffix);
  if (cmd_grow(&st->names, &st->names_cap, (size_t)st->files + 1, sizeof *st->names)) {
    free(name);
    return -1;
  }
  int fd = st->ctx->io->open(st->ctx->io_ud, name, O_WRONLY | O_CREAT | O_TRUNC, 0666);
  if (fd < 0) {
    cmd_gnu_perror(st->ctx, name, fd);
    free(name);
    return -1;
  }
  st->names[st->files++] = name;
  st->fd = fd;
  st->written = 0;
  return 0;
}

static void cs_close(cs_state *st) {
  if (st->fd < 0) return;
  st->ctx->io->close(st->ctx->io_ud, st->fd);
  st->fd = -1;
  if (st->elide && st->written == 0) {
    /* Remove the empty file and reuse its number. */
    st->files--;
    if (st->ctx->store) store_path_unlink(st->ctx->store, st->ctx->cwd, st->names[st->files]);
    free(st->names[st->files]);
    return;
  }
  if (!st->quiet) cmd_outf(st->ctx, "%ju\n", st->written);
}

static int cs_save(cs_state *st, uintmax_t line) {
  const char *p = st->data + st->start[line - 1];
  size_t n = cs_line_len(st, line);
  st->written += n;
  while (n > 0) {
    ssize_t w = st->ctx->io->write(st->ctx->io_ud, st->fd, p, n);
    if (w < 0) {
      cmd_gnu_perror(st->ctx, st->names[st->files - 1], (int)w);
      return -1;
    }
    p += w;
    n -= (size_t)w;
  }
  return 0;
}

/* GNU's cleanup_fatal: close (printing the size) and remove the files. */
static int cs_fatal(cs_state *st) {
  cs_close(st);
  if (!st->keep && st->ctx->store)
    for (uintmax_t i = 0; i < st->files; i++)
      store_path_unlink(st->ctx->store, st->ctx->cwd, st->names[i]);
  st->failed = true;
  return -1;
}

static int cs_line_error(cs_state *st, const cs_control *p, uintmax_t rep) {
  char num[32];
  snprintf(num, sizeof num, "%ju", p->lines);
  cmd_flush(st->ctx);
  if (rep)
    cmd_errorf(st->ctx, "%s: line number out of range on repetition %ju",
               cmd_gnu_quote(st->ctx, num), rep);
  else
    cmd_errorf(st->ctx, "%s: line number out of range", cmd_gnu_quote(st->ctx, num));
  return cs_fatal(st);
}

static int cs_line_count(cs_state *st, const cs_control *p, uintmax_t rep) {
  uintmax_t target; /* past every line when it wraps */
  if (__builtin_mul_overflow(p->lines, rep + 1, &target)) target = UINTMAX_MAX;
  if (cs_create(st) < 0) return cs_fatal(st);
  if (st->suppress && st->first > st->nlines) return cs_line_error(st, p, rep);
  while (st->first < target) {
    if (st->first > st->nlines) return cs_line_error(st, p, rep);
    if (cs_save(st, st->first) < 0) return cs_fatal(st);
    st->first++;
  }
  cs_close(st);
  if (st->suppress && st->first <= st->nlines) st->first++;
  st->current = st->first - 1;
  if (st->first > st->nlines && !st->suppress) return cs_line_error(st, p, rep);
  return 0;
}

/* Returns 0, -1 on error, 1 when {*} ended the whole run. */
static int cs_regexp(cs_state *st, cs_control *p, uintmax_t rep) {
  if (!p->ignore && cs_create(st) < 0) return cs_fatal(st);
  uintmax_t match = 0;
  for (uintmax_t k = st->current + 1;; k++) {
    if (k > st->nlines) {
      if (p->forever) {
        if (!p->ignore) {
          for (; st->first <= st->nlines; st->first++)
            if (cs_save(st, st->first) < 0) return cs_fatal(st);
          cs_close(st);
        }
        return 1;
      }
      cmd_flush(st->ctx);
      if (rep)
        cmd_errorf(st->ctx, "%s: match not found on repetition %ju", cmd_gnu_quote(st->ctx, p->arg),
                   rep);
      else
        cmd_errorf(st->ctx, "%s: match not found", cmd_gnu_quote(st->ctx, p->arg));
      return cs_fatal(st);
    }
    size_t len = cs_line_len(st, k);
    const char *s = st->data + st->start[k - 1];
    if (len && s[len - 1] == '\n') len--;
    regoff_t r = re_search(&p->re, s, (regoff_t)len, 0, (regoff_t)len, NULL);
    if (r >= 0) {
      match = k;
      break;
    }
    /* With offset >= 0 GNU saves passed lines right away. */
    if (p->offset >= 0) {
      for (; st->first <= k; st->first++)
        if (!p->ignore && cs_save(st, st->first) < 0) return cs_fatal(st);
    }
    if ((k & 1023) == 0 && cmd_poll(st->ctx)) return cs_fatal(st);
  }
  /* GNU's sum wraps (an offset near INTMAX_MAX lands before the first line:
   * out of range, the lines after the match not saved): wrap the same way,
   * without signed overflow. */
  intmax_t brk = (intmax_t)((uintmax_t)match + (uintmax_t)p->offset);
  if (brk < (intmax_t)st->first || brk > (intmax_t)st->nlines + 1) {
    /* Lines up to the end belong to the file before the error. */
    if (brk > (intmax_t)st->nlines + 1 && !p->ignore)
      for (; st->first <= st->nlines; st->first++)
        if (cs_save(st, st->first) < 0) return cs_fatal(st);
    cmd_flush(st->ctx);
    if (rep)
      cmd_errorf(st->ctx, "%s: line number out of range on repetition %ju",
                 cmd_gnu_quote(st->ctx, p->arg), rep);
    else
      cmd_errorf(st->ctx, "%s: line number out of range", cmd_gnu_quote(st->ctx, p->arg));
    return cs_fatal(st);
  }
  for (; st->first < (uintmax_t)brk; st->first++)
    if (!p->ignore && cs_save(st, st->first) < 0) return cs_fatal(st);
  if (!p->ignore) cs_close(st);
  if (st->suppress && st->first <= st->nlines) st->first++;
  st->current = (uintmax_t)brk;
  return 0;
}

/* Parses "{N}" / "{*}" into the previous control. */
static int cs_parse_repeat(cmd_ctx *ctx, const char *arg, cs_control *prev) {
  size_t n = strlen(arg);
  if (!prev) {
    cmd_errorf(ctx, "%s: invalid pattern", cmd_gnu_quote(ctx, arg));
    return -1;
  }
  if (arg[n - 1] != '}') {
    cmd_errorf(ctx, "%s: '}' is required in repeat count", cmd_gnu_quote(ctx, arg));
    return -1;
  }
  if (n == 3 && arg[1] == '*') {
    prev->forever = true;
    return 0;
  }
  char *inner = cmd_alloc(ctx, n);
  if (!inner) return -1;
  memcpy(inner, arg + 1, n - 2);
  uintmax_t v;
  if (cmd_parse_umax(inner, NULL, &v) != CMD_NUM_OK) {
    char *shown = cmd_alloc(ctx, n);
    if (!shown) return -1;
    memcpy(shown, arg, n - 1);
    cmd_errorf(ctx, "%s}: integer required between '{' and '}'", cmd_gnu_quote(ctx, shown));
    return -1;
  }
  prev->repeat = v;
  return 0;
}

/* Validates -b FORMAT: one %[flags][width][.prec]{d,i,u,o,x,X}. */
static int cs_check_format(cmd_ctx *ctx, const char *f) {
  int convs = 0;
  for (const char *p = f; *p; p++) {
    if (*p != '%') continue;
    if (p[1] == '%') {
      p++;
      continue;
    }
    p++;
    p += strspn(p, "#-+ 0'");
    p += strspn(p, "0123456789");
    if (*p == '.') {
      p++;
      p += strspn(p, "0123456789");
    }
    if (!*p || !strchr("diuoxX", *p)) {
      if (*p) cmd_errorf(ctx, "invalid conversion specifier in suffix: %c", *p);
      else cmd_errorf(ctx, "invalid conversion specifier in suffix: \\0");
      return -1;
    }
    if (++convs > 1) {
      cmd_errorf(ctx, "too many %% conversion specifications in suffix");
      return -1;
    }
  }
  if (convs == 0) {
    cmd_errorf(ctx, "missing %% conversion specification in suffix");
    return -1;
  }
  return 0;
}

static const char csplit_usage[] =
    "Usage: csplit [OPTION]... FILE PATTERN...\n"
    "Output pieces of FILE separated by PATTERN(s) to files 'xx00', 'xx01', ...,\n"
    "and output byte counts of each piece to standard output.\n\n"
    "Read standard input if FILE is -\n\n"
    "  -b, --suffix-format=FORMAT  use sprintf FORMAT instead of %02d\n"
    "  -f, --prefix=PREFIX        use PREFIX instead of 'xx'\n"
    "  -k, --keep-files           do not remove output files on errors\n"
    "      --suppress-matched     suppress the lines matching PATTERN\n"
    "  -n, --digits=DIGITS        use specified number of digits instead of 2\n"
    "  -s, --quiet, --silent      do not print counts of output file sizes\n"
    "  -z, --elide-empty-files    remove empty output files\n"
    "      --help        display this help and exit\n"
    "      --version     output version information and exit\n\n"
    "Each PATTERN may be:\n"
    "  INTEGER            copy up to but not including specified line number\n"
    "  /REGEXP/[OFFSET]   copy up to but not including a matching line\n"
    "  %REGEXP%[OFFSET]   skip to, but not including a matching line\n"
    "  {INTEGER}          repeat the previous pattern specified number of times\n"
    "  {*}                repeat the previous pattern as many times as possible\n";

int cmd_csplit_main(cmd_ctx *ctx, int argc, char **argv) {
  /* '+': patterns such as "-3" offsets are operands. */
  static const char spec[] =
      "+(suppress-matched)(help)(version)b:(suffix-format)f:(prefix)k(keep-files)"
      "n:(digits)s(quiet)(silent)qz(elide-empty-files)";
  enum { O_SUPPRESS_MATCHED = CMD_OPT_LONG };
  cs_state *st = cmd_alloc(ctx, sizeof *st);
  if (!st) return 1;
  st->ctx = ctx;
  st->fd = -1;
  uintmax_t digits = 2;
  cmd_getopt_state g = CMD_GETOPT_INIT;
  for (int c; (c = cmd_getopt(ctx, &g, argc, argv, spec, NULL)) != -1;) {
    switch (c) {
    case 'n': /* checked at once, in the order given */
      if (cmd_parse_umax(g.arg, NULL, &digits) != CMD_NUM_OK || digits > 64) {
        cmd_errorf(ctx, "invalid number: %s", cmd_gnu_quote(ctx, g.arg));
        return 1;
      }
      break;
    CMD_CASES_HELP_VERSION(ctx, csplit_usage);
    case '?': return 1; /* cmd_getopt printed the message */
    }
  }
  const char *suffix_format = cmd_opt_arg(&g, 'b');
  st->prefix = cmd_opt_on(&g, 'f') ? cmd_opt_arg(&g, 'f') : "xx";
  st->keep = cmd_opt_on(&g, 'k');
  st->quiet = cmd_opt_on(&g, 's') || cmd_opt_on(&g, 'q');
  st->elide = cmd_opt_on(&g, 'z');
  st->suppress = cmd_opt_on(&g, O_SUPPRESS_MATCHED);
  if (cmd_check_operands(ctx, argc, argv, g.ind, 2, -1)) return 1;
  int nops = argc - g.ind;
  char fmtbuf[32];
  if (suffix_format) {
    if (cs_check_format(ctx, suffix_format) < 0) return 1;
    st->format = suffix_format;
  } else {
    snprintf(fmtbuf, sizeof fmtbuf, "%%0%jud", digits);
    st->format = fmtbuf;
  }
  /* Parse the patterns. */
  int ncontrols = 0;
  cs_control *ctl = cmd_alloc(ctx, sizeof *ctl * (size_t)nops);
  if (!ctl) return 1;
  uintmax_t last_line = 0;
  int status = 0;
  for (int i = g.ind + 1; i < argc; i++) {
    const char *a = argv[i];
    if (a[0] == '{') {
      if (cs_parse_repeat(ctx, a, ncontrols ? &ctl[ncontrols - 1] : NULL) < 0) {
        status = 1;
        goto out;
      }
      continue;
    }
    cs_control *p = &ctl[ncontrols];
    memset(p, 0, sizeof *p);
    p->arg = a;
    if (a[0] == '/' || a[0] == '%') {
      const char *close = strrchr(a + 1, a[0]);
      if (!close) {
        cmd_errorf(ctx, "%s: closing delimiter '%c' missing", a, a[0]);
        status = 1;
        goto out;
      }
      p->regexp = true;
      p->ignore = a[0] == '%';
      if (close[1]) {
        char *end;
        errno = 0;
        long long off = strtoll(close + 1, &end, 10);
        if (*end || errno || end == close + 1) {
          cmd_errorf(ctx, "%s: integer expected after delimiter", cmd_gnu_quote(ctx, a));
          status = 1;
          goto out;
        }
        p->offset = off;
      }
      re_set_syntax(RE_SYNTAX_POSIX_BASIC & ~RE_CONTEXT_INVALID_DUP & ~RE_NO_EMPTY_RANGES);
      memset(&p->re, 0, sizeof p->re);
      const char *err = re_compile_pattern(a + 1, (size_t)(close - a - 1), &p->re);
      if (err) {
        regfree(&p->re);
        cmd_errorf(ctx, "%s: invalid regular expression: %s", cmd_gnu_quote(ctx, a), err);
        status = 1;
        goto out;
      }
      p->compiled = true;
    } else {
      uintmax_t v;
      if (cmd_parse_umax(a, NULL, &v) != CMD_NUM_OK) {
        cmd_errorf(ctx, "%s: invalid pattern", cmd_gnu_quote(ctx, a));
        status = 1;
        goto out;
      }
      if (v == 0) {
        cmd_errorf(ctx, "%s: line number must be greater than zero", a);
        status = 1;
        goto out;
      }
      if (v < last_line) {
        cmd_errorf(ctx, "line number %s is smaller than preceding line number, %ju",
                   cmd_gnu_quote(ctx, a), last_line);
        status = 1;
        goto out;
      }
      last_line = v;
      p->lines = v;
    }
    ncontrols++;
  }
  /* Read the input. */
  {
    const char *name = argv[g.ind];
    size_t limit = ctx->max_string ? (size_t)ctx->max_string * 8 : (size_t)1 << 30;
    int r = cmd_read_all(ctx, name, limit, &st->data, &st->len);
    if (r < 0) {
      if (r == -EFBIG) cmd_errorf(ctx, "%s: file too large for this sandbox", name);
      else cmd_errorf(ctx, "cannot open %s for reading: %s", cmd_gnu_quoteaf(ctx, name),
                      cmd_strerror(r));
      status = 1;
      goto out;
    }
    size_t n = 0;
    for (size_t k = 0; k < st->len; k++) n += st->data[k] == '\n';
    if (st->len && st->data[st->len - 1] != '\n') n++;
    st->start = malloc((n ? n : 1) * sizeof *st->start);
    if (!st->start) {
      status = 1;
      goto out;
    }
    size_t li = 0;
    for (size_t k = 0; k < st->len;) {
      st->start[li++] = k;
      const char *nl = memchr(st->data + k, '\n', st->len - k);
      k = nl ? (size_t)(nl - st->data) + 1 : st->len;
    }
    st->nlines = n;
  }
  st->first = 1;
  st->current = 0;
  for (int i = 0; i < ncontrols; i++) {
    cs_control *p = &ctl[i];
    for (uintmax_t rep = 0; p->forever || rep <= p->repeat; rep++) {
      int r = p->regexp ? cs_regexp(st, p, rep) : cs_line_count(st, p, rep);
      if (r < 0) {
        status = 1;
        goto out;
      }
      if (r > 0) goto out; /* {*} ended */
      if (cmd_poll(ctx)) {
        cs_fatal(st);
        status = 1;
        goto out;
      }
    }
  }
  /* The rest of the input. */
  if (cs_create(st) < 0) {
    cs_fatal(st);
    status = 1;
    goto out;
  }
  for (; st->first <= st->nlines; st->first++)
    if (cs_save(st, st->first) < 0) {
      cs_fatal(st);
      status = 1;
      goto out;
    }
  cs_close(st);
out:
  if (st->fd >= 0) ctx->io->close(ctx->io_ud, st->fd);
  for (int i = 0; i < ncontrols; i++)
    if (ctl[i].compiled) regfree(&ctl[i].re);
  for (uintmax_t i = 0; i < st->files; i++) free(st->names[i]);
  free(st->names);
  free(st->start);
  free(st->data);
  if (ctx->out_err) return cmd_write_error(ctx, ctx->out_err);
  return status;
}
