/*
 * cmd.c - the runtime every command uses: the table lookup, GNU-style option
 * parsing, buffered output, error messages, buffered input and the per-call arena.
 *
 * Design decisions:
 *  - No globals: all state lives in the cmd_ctx, so many commands (pipeline
 *    stages, nested shells) run in one process at once.
 *  - stdout is buffered in the ctx (CMD_OUTBUF bytes) like stdio on a pipe,
 *    stderr is unbuffered; every stderr write flushes stdout first, so that with
 *    `2>&1` the order of the two streams follows the order of the calls.
 *  - The input reader hands out lines that point into its own buffer; to
 *    NUL-terminate a line without copying, it saves the byte after the line and
 *    puts it back on the next call.
 */
#include "cmd/cmd.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the command table ------------------------------------------------------------ */

static int entry_cmp(const void *key, const void *elem) {
  return strcmp((const char *)key, ((const cmd_entry *)elem)->name);
}

const cmd_entry *cmd_find(const char *name) {
  if (!name) return NULL;
  return bsearch(name, cmd_table, cmd_table_len, sizeof cmd_table[0], entry_cmp);
}

int cmd_invoke(cmd_ctx *ctx, int argc, char **argv) {
  const char *name = argc > 0 ? argv[0] : "";
  const char *base = strrchr(name, '/');
  const cmd_entry *e = cmd_find(base ? base + 1 : name);
  ctx->name = name;
  if (!e) {
    cmd_err_raw(ctx, "%s: command not found\n", name);
    return 127;
  }
  return cmd_invoke_main(ctx, e->main, argc, argv);
}

int cmd_invoke_main(cmd_ctx *ctx, cmd_main_fn main_fn, int argc, char **argv) {
  const char *name = argc > 0 ? argv[0] : "";
  ctx->name = name;
  char *saved_buf = ctx->outbuf;
  size_t saved_len = ctx->outlen;
  char *buf = malloc(CMD_OUTBUF);
  if (!buf) {
    cmd_err_raw(ctx, "%s: out of memory\n", name);
    return 1;
  }
  ctx->outbuf = buf;
  ctx->outlen = 0;
  ctx->out_err = 0;
  int status = main_fn(ctx, argc, argv);
  cmd_flush(ctx);
  free(buf);
  ctx->outbuf = saved_buf;
  ctx->outlen = saved_len;
  return status & 0xff;
}

/* ---- option parsing ------------------------------------------------------------------ */

static void reverse_args(char **argv, int lo, int hi) {
  for (hi--; lo < hi; lo++, hi--) {
    char *t = argv[lo];
    argv[lo] = argv[hi];
    argv[hi] = t;
  }
}

/* Moves the block of operands [first_nonopt, last_nonopt) after the options
 * scanned since, [last_nonopt, ind), keeping both blocks' orders (as glibc). */
static void permute(cmd_getopt_state *st, char **argv) {
  int bottom = st->first_nonopt, middle = st->last_nonopt, top = st->ind;
  /* Rotate argv[bottom..top) left by (middle - bottom): three reversals. */
  if (middle > bottom && top > middle) {
    reverse_args(argv, bottom, middle);
    reverse_args(argv, middle, top);
    reverse_args(argv, bottom, top);
  }
  st->first_nonopt += top - middle;
  st->last_nonopt = top;
}

static int is_option(const char *a) { return a[0] == '-' && a[1] != '\0'; }

static void getopt_msg(cmd_ctx *ctx, bool quiet, const char *fmt, const char *a,
                       int c) {
  if (quiet) return;
  cmd_flush(ctx);
  char msg[512];
  if (a)
    snprintf(msg, sizeof msg, fmt, ctx->name, a);
  else
    snprintf(msg, sizeof msg, fmt, ctx->name, c);
  cmd_write_fd(ctx, 2, msg, strlen(msg));
  cmd_usage_hint(ctx, 0);
}

int cmd_longopt_find(const cmd_longopt *longopts, const char *name, size_t len) {
  int found = -1, nfound = 0;
  for (int i = 0; longopts && longopts[i].name; i++) {
    if (strncmp(longopts[i].name, name, len) != 0) continue;
    if (strlen(longopts[i].name) == len) return i;
    /* Prefixes naming the same option (aliases) are not ambiguous. */
    if (found >= 0 && longopts[found].has_arg == longopts[i].has_arg &&
        longopts[found].val == longopts[i].val)
      continue;
    if (found < 0) found = i;
    nfound++;
  }
  return nfound > 1 ? -2 : found;
}

void cmd_longopt_ambiguous(cmd_ctx *ctx, const cmd_longopt *longopts, const char *full,
                           size_t len) {
  cmd_flush(ctx);
  cmd_err_raw(ctx, "%s: option '%.*s' is ambiguous; possibilities:", ctx->name,
              (int)(len + 2), full);
  for (int i = 0; longopts[i].name; i++)
    if (strncmp(longopts[i].name, full + 2, len) == 0)
      cmd_err_raw(ctx, " '--%s'", longopts[i].name);
  cmd_err_raw(ctx, "\n");
}

static int getopt_long_opt(cmd_ctx *ctx, cmd_getopt_state *st, int argc, char **argv,
                           const cmd_longopt *longopts, bool quiet, bool colon) {
  const char *arg = argv[st->ind] + 2;
  const char *eq = strchr(arg, '=');
  size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
  int found = cmd_longopt_find(longopts, arg, len);
  const char *full = argv[st->ind];
  st->ind++;
  if (found == -2) {
    if (!quiet) {
      cmd_longopt_ambiguous(ctx, longopts, full, len);
      cmd_usage_hint(ctx, 0);
    }
    st->opt = 0;
    return '?';
  }
  if (found < 0) {
    getopt_msg(ctx, quiet, "%s: unrecognized option '%s'\n", full, 0);
    st->opt = 0;
    return '?';
  }
  const cmd_longopt *o = &longopts[found];
  st->longindex = found;
  st->arg = NULL;
  if (eq) {
    if (o->has_arg == 0) {
      char name[300];
      snprintf(name, sizeof name, "--%s", o->name);
      getopt_msg(ctx, quiet, "%s: option '%s' doesn't allow an argument\n", name, 0);
      st->opt = o->val;
      return '?';
    }
    st->arg = eq + 1;
  } else if (o->has_arg == 1) {
    if (st->ind >= argc) {
      char name[300];
      snprintf(name, sizeof name, "--%s", o->name);
      getopt_msg(ctx, quiet, "%s: option '%s' requires an argument\n", name, 0);
      st->opt = o->val;
      return colon ? ':' : '?';
    }
    st->arg = argv[st->ind++];
  }
  return o->val;
}

/* Reads the long names out of an option string (see cmd.h) once per state:
 * st->shorts gets the string without them, st->longs them and then the
 * `longopts` table. A string without '(' is used as it is. */
static void getopt_compile(cmd_ctx *ctx, cmd_getopt_state *st, const char *spec,
                           const cmd_longopt *longopts) {
  st->spec = spec;
  st->shorts = spec;
  st->longs = longopts;
  if (!strchr(spec, '(')) return;
  size_t nnames = 0, ntable = 0;
  for (const char *p = spec; *p; p++) nnames += *p == '(';
  while (longopts && longopts[ntable].name) ntable++;
  size_t len = strlen(spec);
  char *shorts = cmd_alloc(ctx, len + 1), *names = cmd_alloc(ctx, len + 1);
  cmd_longopt *longs = cmd_alloc(ctx, (nnames + ntable + 1) * sizeof *longs);
  if (!shorts || !names || !longs) return; /* out of memory: short options only */
  size_t ns = 0, nl = 0, k = 0;
  const char *p = spec;
  while (*p == '+' || *p == '-' || *p == ':') shorts[ns++] = *p++;
  int cur = -1, cur_arg = 0, next_long = CMD_OPT_LONG;
  while (*p) {
    if (*p != '(') {
      cur = (unsigned char)*p;
      shorts[ns++] = *p++;
      for (cur_arg = 0; *p == ':' && cur_arg < 2; cur_arg++) shorts[ns++] = *p++;
      continue;
    }
    const char *end = strchr(p, ')');
    if (!end) break; /* a malformed string: the rest is ignored */
    char *name = names + k;
    memcpy(name, p + 1, (size_t)(end - p - 1));
    k += (size_t)(end - p);
    names[k - 1] = '\0';
    p = end + 1;
    cmd_longopt *o = &longs[nl++];
    o->name = name;
    if (cur >= 0) { /* a long name of the short option before it */
      o->has_arg = cur_arg;
      o->val = cur;
      continue;
    }
    for (o->has_arg = 0; *p == ':' && o->has_arg < 2; p++) o->has_arg++;
    o->val = strcmp(name, "help") == 0      ? CMD_OPT_HELP
             : strcmp(name, "version") == 0 ? CMD_OPT_VERSION
                                            : next_long++;
  }
  shorts[ns] = '\0';
  /* --help and --version go after the other names, where GNU's tables have
   * them, so that an ambiguous prefix lists them last ("--ver": '--verbose'
   * '--version'), as glibc does for those tables. */
  for (size_t i = 0, j = 0; i < nl; i++) {
    if (longs[i].val != CMD_OPT_HELP && longs[i].val != CMD_OPT_VERSION) {
      cmd_longopt t = longs[i];
      memmove(&longs[j + 1], &longs[j], (i - j) * sizeof *longs);
      longs[j++] = t;
    }
  }
  for (size_t i = 0; i < ntable; i++) longs[nl++] = longopts[i];
  st->shorts = shorts;
  st->longs = longs;
}

static int getopt_next(cmd_ctx *ctx, cmd_getopt_state *st, int argc, char **argv,
                       const char *shortopts, const cmd_longopt *longopts);

int cmd_getopt(cmd_ctx *ctx, cmd_getopt_state *st, int argc, char **argv,
               const char *shortopts, const cmd_longopt *longopts) {
  if (st->spec != shortopts) getopt_compile(ctx, st, shortopts, longopts);
  int c = getopt_next(ctx, st, argc, argv, st->shorts, st->longs);
  int slot = c == '?' || c == ':' ? -1 : cmd_opt_slot(c);
  if (slot >= 0) {
    st->seen[slot >> 6] |= (uint64_t)1 << (slot & 63);
    st->args[slot] = st->arg;
  }
  return c;
}

int cmd_getopt_all(cmd_ctx *ctx, cmd_getopt_state *st, int argc, char **argv,
                   const char *spec, const char *usage) {
  for (int c; (c = cmd_getopt(ctx, st, argc, argv, spec, NULL)) != -1;) {
    if (c == CMD_OPT_HELP) return cmd_print_help(ctx, usage);
    if (c == CMD_OPT_VERSION) return cmd_print_version(ctx);
    if (c == '?' || c == ':') return 1;
  }
  return -1;
}

static int getopt_next(cmd_ctx *ctx, cmd_getopt_state *st, int argc, char **argv,
                       const char *shortopts, const cmd_longopt *longopts) {
  bool posix = false, quiet = false;
  if (*shortopts == '+') posix = true, shortopts++;
  if (*shortopts == '-') shortopts++; /* "return operands as 1": not supported */
  if (*shortopts == ':') quiet = true, shortopts++;
  bool colon = quiet;
  st->arg = NULL;

  if (st->pos == 0) {
    /* Between arguments: skip (and remember) operands unless POSIX mode. */
    if (st->last_nonopt > st->ind) st->last_nonopt = st->ind;
    if (st->first_nonopt > st->ind) st->first_nonopt = st->ind;
    if (!posix) {
      if (st->first_nonopt != st->last_nonopt && st->last_nonopt != st->ind)
        permute(st, argv);
      else if (st->last_nonopt != st->ind)
        st->first_nonopt = st->ind;
      while (st->ind < argc && !is_option(argv[st->ind])) st->ind++;
      st->last_nonopt = st->ind;
    }
    if (st->ind < argc && strcmp(argv[st->ind], "--") == 0) {
      st->ind++;
      if (st->first_nonopt != st->last_nonopt && st->last_nonopt != st->ind)
        permute(st, argv);
      else if (st->first_nonopt == st->last_nonopt)
        st->first_nonopt = st->ind;
      st->last_nonopt = argc;
      st->ind = argc;
    }
    if (st->ind >= argc) {
      if (st->first_nonopt != st->last_nonopt) st->ind = st->first_nonopt;
      return -1;
    }
    if (!is_option(argv[st->ind])) return -1; /* POSIX mode stops here */
    if (argv[st->ind][1] == '-') {
      if (!longopts) {
        getopt_msg(ctx, quiet, "%s: unrecognized option '%s'\n", argv[st->ind], 0);
        st->ind++;
        st->opt = 0;
        return '?';
      }
      return getopt_long_opt(ctx, st, argc, argv, longopts, quiet, colon);
    }
    st->pos = 1;
  }

  const char *a = argv[st->ind];
  int c = (unsigned char)a[st->pos++];
  const char *spec = c == ':' || c == ';' ? NULL : strchr(shortopts, c);
  bool last = a[st->pos] == '\0';
  if (!spec) {
    if (last) st->ind++, st->pos = 0;
    st->opt = c;
    getopt_msg(ctx, quiet, "%s: invalid option -- '%c'\n", NULL, c);
    return '?';
  }
  if (spec[1] == ':') {
    if (!last) {
      st->arg = a + st->pos;
      st->ind++, st->pos = 0;
    } else if (spec[2] == ':') {
      st->ind++, st->pos = 0; /* optional argument must be attached */
    } else if (st->ind + 1 < argc) {
      st->arg = argv[st->ind + 1];
      st->ind += 2, st->pos = 0;
    } else {
      st->ind++, st->pos = 0;
      st->opt = c;
      getopt_msg(ctx, quiet, "%s: option requires an argument -- '%c'\n", NULL, c);
      return colon ? ':' : '?';
    }
  } else if (last) {
    st->ind++, st->pos = 0;
  }
  return c;
}

/* ---- output ---------------------------------------------------------------------------- */

static int raw_write(cmd_ctx *ctx, int fd, const void *buf, size_t n) {
  const char *p = buf;
  while (n > 0) {
    ssize_t w = ctx->io->write(ctx->io_ud, fd, p, n);
    if (w < 0) return (int)w;
    if (w == 0) return -EIO;
    p += w;
    n -= (size_t)w;
  }
  return 0;
}

int cmd_flush(cmd_ctx *ctx) {
  if (ctx->out_err) return ctx->out_err;
  if (!ctx->outbuf || ctx->outlen == 0) return 0;
  int rc = raw_write(ctx, 1, ctx->outbuf, ctx->outlen);
  ctx->outlen = 0;
  if (rc < 0) ctx->out_err = rc;
  return rc;
}

int cmd_out(cmd_ctx *ctx, const void *buf, size_t n) {
  if (ctx->out_err) return ctx->out_err;
  if (n == 0) return 0; /* buf may be NULL (an empty member, an empty blob) */
  if (!ctx->outbuf) {
    int rc = raw_write(ctx, 1, buf, n);
    if (rc < 0) ctx->out_err = rc;
    return rc;
  }
  if (ctx->outlen + n <= CMD_OUTBUF) {
    memcpy(ctx->outbuf + ctx->outlen, buf, n);
    ctx->outlen += n;
    if (ctx->outlen == CMD_OUTBUF) return cmd_flush(ctx);
    return 0;
  }
  int rc = cmd_flush(ctx);
  if (rc < 0) return rc;
  if (n >= CMD_OUTBUF) {
    rc = raw_write(ctx, 1, buf, n);
    if (rc < 0) ctx->out_err = rc;
    return rc;
  }
  memcpy(ctx->outbuf, buf, n);
  ctx->outlen = n;
  return 0;
}

int cmd_outs(cmd_ctx *ctx, const char *s) { return cmd_out(ctx, s, strlen(s)); }

int cmd_outc(cmd_ctx *ctx, int c) {
  if (ctx->outbuf && ctx->outlen < CMD_OUTBUF && !ctx->out_err) {
    ctx->outbuf[ctx->outlen++] = (char)c;
    if (ctx->outlen == CMD_OUTBUF) return cmd_flush(ctx);
    return 0;
  }
  char ch = (char)c;
  return cmd_out(ctx, &ch, 1);
}

/* Formats into a stack buffer, or a heap one when the text is long. */
/* Formats and writes to fd: stdout through the buffer, another fd after
 * flushing it, or (raw) straight to fd with the buffer left as it is. */
static int vformat_to(cmd_ctx *ctx, int fd, bool raw, const char *fmt, va_list ap);

static int vformat_and(cmd_ctx *ctx, int fd, const char *fmt, va_list ap) {
  return vformat_to(ctx, fd, false, fmt, ap);
}

static int vformat_to(cmd_ctx *ctx, int fd, bool raw, const char *fmt, va_list ap) {
  char small[1024];
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(small, sizeof small, fmt, ap);
  int rc;
  if (n < 0) {
    va_end(ap2);
    return -EINVAL;
  }
  if ((size_t)n < sizeof small) {
    rc = raw ? raw_write(ctx, fd, small, (size_t)n)
             : fd == 1 ? cmd_out(ctx, small, (size_t)n) : cmd_write_fd(ctx, fd, small, (size_t)n);
  } else {
    char *big = malloc((size_t)n + 1);
    if (!big) {
      va_end(ap2);
      return -ENOMEM;
    }
    vsnprintf(big, (size_t)n + 1, fmt, ap2);
    rc = raw ? raw_write(ctx, fd, big, (size_t)n)
             : fd == 1 ? cmd_out(ctx, big, (size_t)n) : cmd_write_fd(ctx, fd, big, (size_t)n);
    free(big);
  }
  va_end(ap2);
  return rc;
}

int cmd_outf(cmd_ctx *ctx, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int rc = vformat_and(ctx, 1, fmt, ap);
  va_end(ap);
  return rc;
}

/* Writes the buffered output up to its last newline; the rest stays. */
static void flush_lines(cmd_ctx *ctx) {
  if (ctx->out_err || !ctx->outbuf || !ctx->outlen) return;
  char *nl = memrchr(ctx->outbuf, '\n', ctx->outlen);
  if (!nl) return;
  size_t n = (size_t)(nl + 1 - ctx->outbuf);
  int rc = raw_write(ctx, 1, ctx->outbuf, n);
  if (rc < 0) {
    ctx->out_err = rc;
    ctx->outlen = 0;
    return;
  }
  memmove(ctx->outbuf, ctx->outbuf + n, ctx->outlen - n);
  ctx->outlen -= n;
}

int cmd_write_fd(cmd_ctx *ctx, int fd, const void *buf, size_t n) {
  if (fd == 1 && ctx->outbuf) {
    int rc = cmd_flush(ctx);
    if (rc < 0) return rc;
  } else if (fd == 2) {
    cmd_flush(ctx);
  }
  return raw_write(ctx, fd, buf, n);
}

void cmd_errorf(cmd_ctx *ctx, const char *fmt, ...) {
  /* a command's output so far goes first; a shell builtin's (err_prefix set)
   * only up to its last newline, as bash's line-buffered stdout does (the
   * error of printf '%s-%d|' a x comes before "a-0|") */
  if (!ctx->err_prefix) cmd_flush(ctx);
  else flush_lines(ctx);
  if (ctx->err_prefix) raw_write(ctx, 2, ctx->err_prefix, strlen(ctx->err_prefix));
  char head[300];
  snprintf(head, sizeof head, "%s: ", ctx->name ? ctx->name : "sbx");
  raw_write(ctx, 2, head, strlen(head));
  va_list ap;
  va_start(ap, fmt);
  vformat_to(ctx, 2, true, fmt, ap);
  va_end(ap);
  raw_write(ctx, 2, "\n", 1);
}

void cmd_err_raw(cmd_ctx *ctx, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vformat_and(ctx, 2, fmt, ap);
  va_end(ap);
}

const char *cmd_strerror(int err) {
  if (err < 0) err = -err;
  const char *s = strerrordesc_np(err);
  return s ? s : "Unknown error";
}

void cmd_record_error(cmd_ctx *ctx, int err, const char *path) {
  ctx->err_errno = err < 0 ? -err : err;
  snprintf(ctx->err_path, sizeof ctx->err_path, "%s", path ? path : "");
}

int cmd_perror(cmd_ctx *ctx, const char *path, int err) {
  cmd_record_error(ctx, err, path);
  cmd_errorf(ctx, "%s: %s", path, cmd_strerror(err));
  return 1;
}

int cmd_print_version(cmd_ctx *ctx) {
  const char *b = strrchr(ctx->name, '/');
  cmd_outf(ctx, "%s (sbx) 1.0\n", b ? b + 1 : ctx->name);
  return 0;
}

char **cmd_file_operands(int argc, char **argv, int ind, int *nfiles) {
  static char stdin_name[] = "-";
  static char *dash[] = {stdin_name, NULL};
  if (ind >= argc) {
    *nfiles = 1;
    return dash;
  }
  *nfiles = argc - ind;
  return argv + ind;
}

int cmd_print_help(cmd_ctx *ctx, const char *usage) {
  cmd_outs(ctx, usage);
  return 0;
}

int cmd_usage_hint(cmd_ctx *ctx, int status) {
  cmd_err_raw(ctx, "Try '%s --help' for more information.\n", ctx->name);
  return status;
}

/* Printable for quoting: not a control byte. Bytes >= 0x80 pass as they are
 * (GNU checks UTF-8 validity; names with invalid UTF-8 are rare in messages). */
static bool quote_printable(unsigned char c) { return c >= 0x20 && c != 0x7f; }

const char *cmd_quote(cmd_ctx *ctx, const char *s) {
  size_t n = strlen(s);
  char *out = cmd_alloc(ctx, n * 8 + 8);
  if (!out) return s;
  char *o = out;
  bool in_quote = false;
  *o++ = '\'';
  in_quote = true;
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (quote_printable(*p)) {
      if (!in_quote) *o++ = '\'', in_quote = true;
      if (*p == '\'') {
        memcpy(o, "'\\''", 4);
        o += 4;
      } else {
        *o++ = (char)*p;
      }
      continue;
    }
    if (in_quote) *o++ = '\'', in_quote = false;
    *o++ = '$';
    *o++ = '\'';
    const char *esc = cmd_c_escape(*p);
    if (esc) {
      memcpy(o, esc, 2);
      o += 2;
    } else {
      o += sprintf(o, "\\%03o", *p);
    }
    *o++ = '\'';
  }
  if (in_quote) *o++ = '\'';
  *o = '\0';
  return out;
}

/* ---- input ------------------------------------------------------------------------------ */

#define CMD_IN_CHUNK 65536

struct cmd_in {
  cmd_ctx *ctx;   /* owner */
  int fd;         /* the caller's fd */
  bool own_fd;    /* close fd in cmd_in_close */
  char *buf;      /* buffered bytes [start, end); cap+1 allocated */
  size_t cap, start, end;
  bool eof;       /* the fd reported EOF */
  int err;        /* a read error (negative errno), reported once the buffer drains */
  size_t saved_pos; /* where a NUL was written to terminate the last line */
  char saved;     /* the byte it replaced */
  bool has_saved; /* saved/saved_pos are live */
};

static cmd_in *in_new(cmd_ctx *ctx, int fd, bool own) {
  cmd_in *in = calloc(1, sizeof *in);
  if (!in) return NULL;
  in->buf = malloc(CMD_IN_CHUNK + 1);
  if (!in->buf) {
    free(in);
    return NULL;
  }
  in->ctx = ctx;
  in->fd = fd;
  in->own_fd = own;
  in->cap = CMD_IN_CHUNK;
  return in;
}

int cmd_in_open(cmd_ctx *ctx, const char *path, cmd_in **out) {
  *out = NULL;
  if (strcmp(path, "-") == 0) {
    *out = in_new(ctx, 0, false);
    return *out ? 0 : -ENOMEM;
  }
  int fd = ctx->io->open(ctx->io_ud, path, 0 /* O_RDONLY */, 0);
  if (fd < 0) return fd;
  *out = in_new(ctx, fd, true);
  if (!*out) {
    ctx->io->close(ctx->io_ud, fd);
    return -ENOMEM;
  }
  return 0;
}

cmd_in *cmd_in_fd(cmd_ctx *ctx, int fd) { return in_new(ctx, fd, false); }

static void in_restore(cmd_in *in) {
  if (in->has_saved) {
    in->buf[in->saved_pos] = in->saved;
    in->has_saved = false;
  }
}

/* Reads more bytes after `end`, growing the buffer (bounded) when it is full.
 * Returns bytes read, 0 at EOF, or a negative errno. */
static ssize_t in_fill(cmd_in *in) {
  if (in->eof) return 0;
  if (in->start > 0 && in->start == in->end) in->start = in->end = 0;
  if (in->end == in->cap) {
    if (in->start > 0) {
      memmove(in->buf, in->buf + in->start, in->end - in->start);
      in->end -= in->start;
      in->start = 0;
    } else {
      uint64_t limit = in->ctx->max_string ? in->ctx->max_string : (1ull << 30);
      if (in->cap >= limit) return -EFBIG;
      size_t ncap = in->cap * 2;
      if (ncap > limit) ncap = (size_t)limit;
      char *nb = realloc(in->buf, ncap + 1);
      if (!nb) return -ENOMEM;
      in->buf = nb;
      in->cap = ncap;
    }
  }
  ssize_t r = in->ctx->io->read(in->ctx->io_ud, in->fd, in->buf + in->end, in->cap - in->end);
  if (r == 0) in->eof = true;
  if (r > 0) in->end += (size_t)r;
  return r;
}

ssize_t cmd_in_getdelim(cmd_in *in, char **line, int delim) {
  in_restore(in);
  size_t scanned = in->start;
  for (;;) {
    char *hit = in->end > scanned
                    ? memchr(in->buf + scanned, delim, in->end - scanned)
                    : NULL;
    if (hit) {
      size_t stop = (size_t)(hit - in->buf) + 1;
      size_t len = stop - in->start;
      *line = in->buf + in->start;
      in->saved_pos = stop;
      in->saved = in->buf[stop];
      in->has_saved = true;
      in->buf[stop] = '\0';
      in->start = stop;
      return (ssize_t)len;
    }
    size_t before_start = in->start;
    scanned = in->end;
    ssize_t r = in_fill(in);
    scanned -= before_start - in->start; /* the buffer may have moved */
    if (r < 0) {
      if (r == -EFBIG || in->end == in->start) return r;
      in->err = (int)r;
      r = 0;
    }
    if (r == 0) {
      if (in->end == in->start) return in->err ? in->err : 0;
      /* Last line without a delimiter. */
      size_t len = in->end - in->start;
      *line = in->buf + in->start;
      in->buf[in->end] = '\0'; /* cap+1 bytes allocated */
      in->start = in->end;
      return (ssize_t)len;
    }
  }
}

ssize_t cmd_in_read(cmd_in *in, void *buf, size_t n) {
  in_restore(in);
  if (in->end > in->start) {
    size_t k = in->end - in->start;
    if (k > n) k = n;
    memcpy(buf, in->buf + in->start, k);
    in->start += k;
    return (ssize_t)k;
  }
  if (in->eof) return 0;
  ssize_t r = in->ctx->io->read(in->ctx->io_ud, in->fd, buf, n);
  if (r == 0) in->eof = true;
  return r;
}

int cmd_in_slurp(cmd_in *in, char **data, size_t *len) {
  in_restore(in);
  uint64_t limit = in->ctx->max_string ? in->ctx->max_string : (1ull << 30);
  size_t cap = 65536, n = 0;
  char *d = malloc(cap + 1);
  if (!d) return -ENOMEM;
  for (;;) {
    if (n == cap) {
      if (cap >= limit) {
        free(d);
        return -EFBIG;
      }
      size_t ncap = cap * 2 > limit ? (size_t)limit : cap * 2;
      char *nd = realloc(d, ncap + 1);
      if (!nd) {
        free(d);
        return -ENOMEM;
      }
      d = nd;
      cap = ncap;
    }
    ssize_t r = cmd_in_read(in, d + n, cap - n);
    if (r < 0) {
      free(d);
      return (int)r;
    }
    if (r == 0) break;
    n += (size_t)r;
    if (cmd_poll(in->ctx)) {
      free(d);
      return -ECANCELED;
    }
  }
  d[n] = '\0';
  *data = d;
  *len = n;
  return 0;
}

void cmd_in_close(cmd_in *in) {
  if (!in) return;
  if (in->own_fd) in->ctx->io->close(in->ctx->io_ud, in->fd);
  free(in->buf);
  free(in);
}

/* ---- arena ----------------------------------------------------------------------------- */

typedef struct arena_block {
  struct arena_block *next; /* older block */
  size_t used, cap;         /* bytes used / available in data */
  max_align_t data[];       /* the allocations */
} arena_block;

struct cmd_arena {
  arena_block *head; /* newest block, or NULL */
};

cmd_arena *cmd_arena_new(void) { return calloc(1, sizeof(cmd_arena)); }

void cmd_arena_free(cmd_arena *a) {
  if (!a) return;
  for (arena_block *b = a->head, *next; b; b = next) {
    next = b->next;
    free(b);
  }
  free(a);
}

void *cmd_alloc(cmd_ctx *ctx, size_t n) {
  cmd_arena *a = ctx->arena;
  if (!a) return NULL;
  size_t align = _Alignof(max_align_t);
  n = (n + align - 1) / align * align;
  if (n == 0) n = align;
  arena_block *b = a->head;
  if (!b || b->cap - b->used < n) {
    size_t cap = n > 32768 ? n : 32768;
    b = malloc(sizeof *b + cap);
    if (!b) return NULL;
    b->cap = cap;
    b->used = 0;
    if (a->head && n > 32768) {
      /* A big one-off block goes behind the current one, which stays usable. */
      b->next = a->head->next;
      a->head->next = b;
    } else {
      b->next = a->head;
      a->head = b;
    }
  }
  void *p = (char *)b->data + b->used;
  b->used += n;
  memset(p, 0, n);
  return p;
}

char *cmd_strdup(cmd_ctx *ctx, const char *s) {
  size_t n = strlen(s) + 1;
  char *d = cmd_alloc(ctx, n);
  if (d) memcpy(d, s, n);
  return d;
}

/* ---- misc ------------------------------------------------------------------------------ */

const char *cmd_getenv(cmd_ctx *ctx, const char *name) {
  size_t n = strlen(name);
  for (char *const *e = ctx->env; e && *e; e++)
    if (strncmp(*e, name, n) == 0 && (*e)[n] == '=') return *e + n + 1;
  return NULL;
}

char *cmd_join_path(cmd_ctx *ctx, const char *dir, const char *name) {
  size_t dl = strlen(dir), nl = strlen(name);
  char *r = cmd_alloc(ctx, dl + nl + 2);
  if (!r) return NULL;
  memcpy(r, dir, dl);
  if (dl == 0 || dir[dl - 1] != '/') r[dl++] = '/';
  memcpy(r + dl, name, nl + 1);
  return r;
}

const char *cmd_abspath(cmd_ctx *ctx, const char *path) {
  if (path[0] == '/') return path;
  char *out = cmd_join_path(ctx, ctx->cwd ? ctx->cwd : "/", path);
  return out ? out : path;
}
