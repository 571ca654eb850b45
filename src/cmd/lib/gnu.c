/*
 * gnu.c - GNU coreutils conventions shared by the text commands.
 *
 * Messages of coreutils quote user-supplied values with gnulib's quote(),
 * which in a UTF-8 locale gives ‘value’ with C-style escapes; numbers with
 * multiplier suffixes go through xstrtoumax. Both are re-implemented here from
 * their documented behaviour (no gnulib source), byte-exact with Debian 12's
 * coreutils 9.1 under LC_ALL=C.UTF-8.
 */
#include "cmd/lib/gnu.h"
#include "cmd/lib/datetime.h"
#include "cmd/lib/fs.h"
#include "re/re.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

/* Length of a valid, printable UTF-8 sequence at s (1..4), or 0 if the bytes
 * there are invalid, truncated, or a non-printable code point (C1 controls). */
static int utf8_printable_len(const unsigned char *s, size_t avail) {
  unsigned c = s[0];
  int n;
  uint32_t cp;
  if (c < 0x80) return 0;
  if (c >= 0xc2 && c <= 0xdf) { n = 2; cp = c & 0x1f; }
  else if (c >= 0xe0 && c <= 0xef) { n = 3; cp = c & 0x0f; }
  else if (c >= 0xf0 && c <= 0xf4) { n = 4; cp = c & 0x07; }
  else return 0;
  if ((size_t)n > avail) return 0;
  for (int i = 1; i < n; i++) {
    if ((s[i] & 0xc0) != 0x80) return 0;
    cp = (cp << 6) | (s[i] & 0x3f);
  }
  if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)))
    return 0;
  if (cp >= 0xd800 && cp <= 0xdfff) return 0;
  if (cp < 0xa0) return 0; /* C1 controls are not printable */
  return n;
}

const char *cmd_gnu_quote_n(cmd_ctx *ctx, const char *s, long len) {
  size_t n = len < 0 ? strlen(s) : (size_t)len;
  /* Worst case: every byte becomes a 4-byte octal escape, plus quotes. */
  char *out = cmd_alloc(ctx, n * 4 + 8);
  if (!out) return "\xe2\x80\x98?\xe2\x80\x99";
  const unsigned char *p = (const unsigned char *)s;
  char *o = out;
  memcpy(o, "\xe2\x80\x98", 3);
  o += 3;
  for (size_t i = 0; i < n;) {
    unsigned c = p[i];
    if (c >= 0x80) {
      /* The right quote ’ (e2 80 99) is escaped with a backslash. */
      if (i + 2 < n + 0 && c == 0xe2 && p[i + 1] == 0x80 && p[i + 2] == 0x99) {
        memcpy(o, "\\\xe2\x80\x99", 4);
        o += 4;
        i += 3;
        continue;
      }
      int l = utf8_printable_len(p + i, n - i);
      if (l > 0) {
        memcpy(o, p + i, (size_t)l);
        o += l;
        i += (size_t)l;
        continue;
      }
      o += sprintf(o, "\\%03o", c);
      i++;
      continue;
    }
    switch (c) {
    case '\\': *o++ = '\\'; *o++ = '\\'; break;
    case '\a': *o++ = '\\'; *o++ = 'a'; break;
    case '\b': *o++ = '\\'; *o++ = 'b'; break;
    case '\f': *o++ = '\\'; *o++ = 'f'; break;
    case '\n': *o++ = '\\'; *o++ = 'n'; break;
    case '\r': *o++ = '\\'; *o++ = 'r'; break;
    case '\t': *o++ = '\\'; *o++ = 't'; break;
    case '\v': *o++ = '\\'; *o++ = 'v'; break;
    case 0:
      *o++ = '\\';
      if (i + 1 < n && p[i + 1] >= '0' && p[i + 1] <= '9') { *o++ = '0'; *o++ = '0'; }
      *o++ = '0';
      break;
    default:
      if (c < 0x20 || c == 0x7f) o += sprintf(o, "\\%03o", c);
      else *o++ = (char)c;
    }
    i++;
  }
  memcpy(o, "\xe2\x80\x99", 3);
  o += 3;
  *o = 0;
  return out;
}

/* Multiplies *x by `scale`, saturating; returns CMD_NUM_OVERFLOW on overflow. */
static int scale_by(uintmax_t *x, uintmax_t scale) {
  if (*x != 0 && *x > UINTMAX_MAX / scale) {
    *x = UINTMAX_MAX;
    return CMD_NUM_OVERFLOW;
  }
  *x *= scale;
  return CMD_NUM_OK;
}

static int scale_pow(uintmax_t *x, uintmax_t base, int power) {
  int err = 0;
  for (int i = 0; i < power; i++) err |= scale_by(x, base);
  return err;
}

int cmd_parse_umax(const char *s, const char *suffixes, uintmax_t *val) {
  const char *q = s;
  while (isspace((unsigned char)*q)) q++;
  if (*q == '-') return CMD_NUM_INVALID;
  char *end;
  errno = 0;
  uintmax_t tmp = strtoumax(s, &end, 10);
  int err = CMD_NUM_OK;
  if (end == s) {
    /* A bare suffix ("k") means one unit of it. */
    if (suffixes && *end && strchr(suffixes, *end)) tmp = 1;
    else return CMD_NUM_INVALID;
  } else if (errno != 0) {
    if (errno != ERANGE) return CMD_NUM_INVALID;
    err = CMD_NUM_OVERFLOW;
  }
  if (!suffixes) {
    *val = tmp;
    return *end ? (err | CMD_NUM_INVALID_SUFFIX) : err;
  }
  if (*end) {
    uintmax_t base = 1024;
    int skip = 1;
    if (!strchr(suffixes, *end)) {
      *val = tmp;
      return err | CMD_NUM_INVALID_SUFFIX;
    }
    if (strchr("EGgkKMmPTtYZ", *end) && strchr(suffixes, '0')) {
      if (end[1] == 'i') {
        if (end[2] == 'B') skip += 2;
      } else if (end[1] == 'B' || end[1] == 'D') {
        base = 1000;
        skip++;
      }
    }
    int ov;
    switch (*end) {
    case 'b': ov = scale_by(&tmp, 512); break;
    case 'B': ov = scale_by(&tmp, 1024); break;
    case 'c': ov = CMD_NUM_OK; break;
    case 'E': ov = scale_pow(&tmp, base, 6); break;
    case 'G': case 'g': ov = scale_pow(&tmp, base, 3); break;
    case 'k': case 'K': ov = scale_pow(&tmp, base, 1); break;
    case 'M': case 'm': ov = scale_pow(&tmp, base, 2); break;
    case 'P': ov = scale_pow(&tmp, base, 5); break;
    case 'T': case 't': ov = scale_pow(&tmp, base, 4); break;
    case 'w': ov = scale_by(&tmp, 2); break;
    case 'Y': ov = scale_pow(&tmp, base, 8); break;
    case 'Z': ov = scale_pow(&tmp, base, 7); break;
    default:
      *val = tmp;
      return err | CMD_NUM_INVALID_SUFFIX;
    }
    err |= ov;
    end += skip;
    if (*end) err |= CMD_NUM_INVALID_SUFFIX;
  }
  *val = tmp;
  return err;
}

int cmd_gnu_bad_number(cmd_ctx *ctx, const char *what, const char *s, int errnum) {
  if (errnum)
    cmd_errorf(ctx, "%s: %s: %s", what, cmd_gnu_quote(ctx, s), cmd_strerror(errnum));
  else
    cmd_errorf(ctx, "%s: %s", what, cmd_gnu_quote(ctx, s));
  return -1;
}

int cmd_parse_count_or_max(cmd_ctx *ctx, const char *s, const char *what, uintmax_t *val) {
  uintmax_t v;
  int err = cmd_parse_umax(s, "", &v);
  if (err != CMD_NUM_OK && err != CMD_NUM_OVERFLOW) return cmd_gnu_bad_number(ctx, what, s, 0);
  *val = err == CMD_NUM_OVERFLOW ? UINTMAX_MAX : v;
  return 0;
}

int cmd_parse_umax_or_die(cmd_ctx *ctx, const char *s, const char *suffixes,
                          uintmax_t min, uintmax_t max, const char *what,
                          uintmax_t *val) {
  uintmax_t v = 0;
  int err = cmd_parse_umax(s, suffixes, &v);
  int show_errno = 0;
  if (err == CMD_NUM_OK) {
    if (v < min || v > max) {
      err = CMD_NUM_OVERFLOW;
      show_errno = v > INT32_MAX / 2 ? EOVERFLOW : ERANGE;
    }
  } else if (err == CMD_NUM_OVERFLOW) {
    show_errno = EOVERFLOW;
  }
  if (err != CMD_NUM_OK) return cmd_gnu_bad_number(ctx, what, s, show_errno);
  *val = v;
  return 0;
}

int cmd_write_error(cmd_ctx *ctx, int err) {
  if (err < 0) err = -err;
  if (err == EPIPE) return 141;
  cmd_errorf(ctx, "write error: %s", cmd_strerror(err));
  return 1;
}


int cmd_open_input(cmd_ctx *ctx, const char *path) {
  if (strcmp(path, "-") == 0) return 0;
  int fd = ctx->io->open(ctx->io_ud, path, O_RDONLY, 0);
  if (fd < 0) return fd;
  /* open(2) succeeds on a directory and read(2) then fails: report EISDIR
   * here so callers say it at the right step. */
  store_stat st;
  bool dir = ctx->io->fstat ? ctx->io->fstat(ctx->io_ud, fd, &st) == 0 && S_ISDIR(st.mode)
                            : ctx->store && store_path_stat(ctx->store, ctx->cwd, path, &st) == 0 &&
                                  S_ISDIR(st.mode);
  if (dir) {
    ctx->io->close(ctx->io_ud, fd);
    return -EISDIR;
  }
  return fd;
}

void cmd_close_input(cmd_ctx *ctx, int fd) {
  if (fd > 0) ctx->io->close(ctx->io_ud, fd);
}

ssize_t cmd_read_full(cmd_ctx *ctx, int fd, void *buf, size_t n) {
  size_t got = 0;
  while (got < n) {
    ssize_t r = ctx->io->read(ctx->io_ud, fd, (char *)buf + got, n - got);
    if (r < 0) {
      if (r == -EINTR) continue;
      return r;
    }
    if (r == 0) break;
    got += (size_t)r;
  }
  return (ssize_t)got;
}

ssize_t cmd_read_once(cmd_ctx *ctx, int fd, void *buf, size_t n) {
  for (;;) {
    if (cmd_poll(ctx)) return -EINTR;
    ssize_t r = ctx->io->read(ctx->io_ud, fd, buf, n);
    if (r != -EINTR) return r;
  }
}

/* How one character of a name behaves under gnulib's shell quoting. */
enum {
  QF_PLAIN = 0,     /* needs no quotes */
  QF_COMPAT = 1,    /* fine inside "..." (flag) */
  QF_NEEDS = 2,     /* forces quoting (flag) */
  QF_NONPRINT = 4,  /* must be written as $'\ooo' (flag) */
};

static int qf_class(const unsigned char *s, size_t i, size_t n, int *len, bool colon) {
  unsigned c = s[i];
  *len = 1;
  if (c >= 0x80) {
    int l = utf8_printable_len(s + i, n - i);
    if (l > 0) {
      *len = l;
      return QF_COMPAT;
    }
    return QF_NEEDS | QF_NONPRINT;
  }
  if (c < 0x20 || c == 0x7f) return QF_NEEDS | QF_NONPRINT;
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
    return QF_COMPAT;
  switch (c) {
  case '%': case '+': case ',': case '-': case '.': case '/': case ']': case '_':
  case '@':
    return QF_COMPAT;
  case ':':
    return QF_COMPAT | (colon ? QF_NEEDS : 0);
  case ' ': case '\'':
    return QF_COMPAT | QF_NEEDS;
  case '{': case '}':
    return n == 1 ? (QF_COMPAT | QF_NEEDS) : QF_PLAIN;
  case '#': case '~':
    return i == 0 ? (QF_COMPAT | QF_NEEDS) : QF_PLAIN;
  default: /* ! " $ & ( ) * ; < = > ? [ \ ^ ` | */
    return QF_NEEDS;
  }
}

static const char *quote_shell(cmd_ctx *ctx, const char *str, bool always) {
  const unsigned char *s = (const unsigned char *)str;
  size_t n = strlen(str);
  bool needs = always || n == 0, all_compat = true, has_quote = false;
  for (size_t i = 0; i < n;) {
    int len;
    int k = qf_class(s, i, n, &len, true);
    if (k & QF_NEEDS) needs = true;
    if (!(k & QF_COMPAT)) all_compat = false;
    if (s[i] == '\'') has_quote = true;
    i += (size_t)len;
  }
  if (!needs) return str;
  char *out = cmd_alloc(ctx, n * 8 + 8);
  if (!out) return str;
  char *o = out;
  if (has_quote && all_compat) {
    *o++ = '"';
    memcpy(o, str, n);
    o += n;
    *o++ = '"';
    *o = 0;
    return out;
  }
  *o++ = '\'';
  bool in_escape = false; /* inside a $'...' group */
  for (size_t i = 0; i < n;) {
    int len;
    int k = qf_class(s, i, n, &len, true);
    if (k & QF_NONPRINT) {
      if (!in_escape) {
        memcpy(o, "'$'", 3);
        o += 3;
        in_escape = true;
      }
      const char *esc = cmd_c_escape((unsigned char)s[i]);
      if (esc) {
        memcpy(o, esc, 2);
        o += 2;
      } else {
        o += sprintf(o, "\\%03o", s[i]);
      }
      i++;
      continue;
    }
    if (in_escape) {
      memcpy(o, "''", 2);
      o += 2;
      in_escape = false;
    }
    if (s[i] == '\'') {
      memcpy(o, "'\\''", 4);
      o += 4;
    } else {
      memcpy(o, s + i, (size_t)len);
      o += len;
    }
    i += (size_t)len;
  }
  *o++ = '\'';
  *o = 0;
  return out;
}

const char *cmd_gnu_quotef(cmd_ctx *ctx, const char *s) { return quote_shell(ctx, s, false); }
const char *cmd_gnu_quoteaf(cmd_ctx *ctx, const char *s) { return quote_shell(ctx, s, true); }

int cmd_gnu_perror(cmd_ctx *ctx, const char *path, int err) {
  cmd_record_error(ctx, err, path);
  cmd_errorf(ctx, "%s: %s", cmd_gnu_quotef(ctx, path), cmd_strerror(err));
  return 1;
}

int cmd_gnu_getline(cmd_ctx *ctx, cmd_in *in, const char *path, char delim, char **line,
                    size_t *len, bool *has_delim, int *status) {
  ssize_t n = cmd_in_getdelim(in, line, delim);
  if (n < 0) {
    *status = cmd_gnu_perror(ctx, path, (int)n);
    return -1;
  }
  if (n == 0) return 0;
  *len = (size_t)n;
  *has_delim = (*line)[*len - 1] == delim;
  if (*has_delim) --*len;
  return 1;
}

cmd_in *cmd_gnu_open(cmd_ctx *ctx, const char *path, int *status) {
  cmd_in *in;
  int r = cmd_in_open(ctx, path, &in);
  if (r >= 0) return in;
  *status = cmd_gnu_perror(ctx, path, r);
  return NULL;
}

locale_t cmd_utf8_locale(void) {
  return re_utf8_locale(); /* the one the regex engine loads */
}

int cmd_utf8_decode(const unsigned char *s, size_t avail, uint32_t *wc) {
  unsigned c = s[0];
  if (c < 0x80) {
    *wc = c;
    return 1;
  }
  /* glibc accepts the original 1..6-byte forms (up to 0x7fffffff) but no
   * overlong forms and no surrogates. */
  static const uint32_t min_for_len[7] = {0, 0, 0x80, 0x800, 0x10000, 0x200000, 0x4000000};
  int n;
  uint32_t cp;
  if (c >= 0xc2 && c <= 0xdf) { n = 2; cp = c & 0x1f; }
  else if (c >= 0xe0 && c <= 0xef) { n = 3; cp = c & 0x0f; }
  else if (c >= 0xf0 && c <= 0xf7) { n = 4; cp = c & 0x07; }
  else if (c >= 0xf8 && c <= 0xfb) { n = 5; cp = c & 0x03; }
  else if (c >= 0xfc && c <= 0xfd) { n = 6; cp = c & 0x01; }
  else return -1;
  for (int i = 1; i < n; i++) {
    if ((size_t)i >= avail) return 0;
    if ((s[i] & 0xc0) != 0x80) return -1;
    cp = (cp << 6) | (s[i] & 0x3f);
  }
  if (cp < min_for_len[n] || (cp >= 0xd800 && cp <= 0xdfff)) return -1;
  *wc = cp;
  return n;
}

#define OUTFILE_BUF 65536

int cmd_outfile_open(cmd_ctx *ctx, cmd_outfile *o, const char *path, int oflags) {
  memset(o, 0, sizeof *o);
  o->ctx = ctx;
  o->fd = 1;
  if (!path || strcmp(path, "-") == 0) return 0;
  int fd = ctx->io->open(ctx->io_ud, path, oflags, 0666);
  if (fd < 0) return fd;
  o->buf = malloc(OUTFILE_BUF);
  if (!o->buf) {
    ctx->io->close(ctx->io_ud, fd);
    return -ENOMEM;
  }
  o->fd = fd;
  return 0;
}

int cmd_outfile_flush(cmd_outfile *o) {
  if (o->fd == 1 || o->err) return o->err;
  size_t done = 0;
  while (done < o->len) {
    ssize_t w = o->ctx->io->write(o->ctx->io_ud, o->fd, o->buf + done, o->len - done);
    if (w == -EINTR) continue;
    if (w < 0) {
      o->err = (int)w;
      break;
    }
    done += (size_t)w;
  }
  o->len = 0;
  return o->err;
}

void cmd_outfile_write(cmd_outfile *o, const void *p, size_t n) {
  if (o->err) return;
  if (o->fd == 1) {
    int r = cmd_out(o->ctx, p, n);
    if (r < 0) o->err = r;
    return;
  }
  const char *s = p;
  while (n > 0) {
    if (o->len == OUTFILE_BUF && cmd_outfile_flush(o) < 0) return;
    size_t k = OUTFILE_BUF - o->len < n ? OUTFILE_BUF - o->len : n;
    memcpy(o->buf + o->len, s, k);
    o->len += k;
    s += k;
    n -= k;
  }
}

int cmd_outfile_close(cmd_outfile *o) {
  cmd_outfile_flush(o);
  if (o->fd != 1) {
    o->ctx->io->close(o->ctx->io_ud, o->fd);
    free(o->buf);
    o->buf = NULL;
    o->fd = 1;
  }
  return o->err;
}


int cmd_read_all(cmd_ctx *ctx, const char *path, size_t limit, char **data, size_t *len) {
  int fd = cmd_open_input(ctx, path);
  if (fd < 0) return fd;
  size_t cap = 65536, n = 0;
  int64_t cur = ctx->io->lseek(ctx->io_ud, fd, 0, SEEK_CUR);
  int64_t end = cur >= 0 ? ctx->io->lseek(ctx->io_ud, fd, 0, SEEK_END) : -1;
  if (cur >= 0 && end >= 0) {
    ctx->io->lseek(ctx->io_ud, fd, cur, SEEK_SET);
    if (end > cur) cap = (size_t)(end - cur) + 1;
  }
  if (cap > limit + 1) cap = limit + 1;
  char *buf = malloc(cap + 1);
  int rc = 0;
  if (!buf) rc = -ENOMEM;
  while (rc == 0) {
    if (n == cap) {
      if (cap > limit) {
        rc = -EFBIG;
        break;
      }
      size_t nc = cap * 2 > limit + 1 ? limit + 1 : cap * 2;
      char *nb = realloc(buf, nc + 1);
      if (!nb) {
        rc = -ENOMEM;
        break;
      }
      buf = nb;
      cap = nc;
    }
    if (cmd_poll(ctx)) {
      rc = -EINTR;
      break;
    }
    ssize_t r = ctx->io->read(ctx->io_ud, fd, buf + n, cap - n);
    if (r == -EINTR) continue;
    if (r < 0) rc = (int)r;
    else if (r == 0) break;
    else n += (size_t)r;
  }
  cmd_close_input(ctx, fd);
  if (rc == 0 && n > limit) rc = -EFBIG;
  if (rc < 0) {
    free(buf);
    return rc;
  }
  buf[n] = 0;
  *data = buf;
  *len = n;
  return 0;
}

int cmd_parse_imax_or_die(cmd_ctx *ctx, const char *s, intmax_t min, intmax_t max,
                          const char *what, intmax_t *val) {
  char *end;
  errno = 0;
  intmax_t v = strtoimax(s, &end, 10);
  int shown = 0;
  bool bad = end == s || *end;
  if (!bad && errno == ERANGE) {
    shown = EOVERFLOW;
  } else if (!bad && (v < min || v > max)) {
    shown = (v > INT32_MAX / 2 || v < INT32_MIN / 2) ? EOVERFLOW : ERANGE;
  }
  if (bad || shown) return cmd_gnu_bad_number(ctx, what, s, shown);
  *val = v;
  return 0;
}

int cmd_check_operands(cmd_ctx *ctx, int argc, char **argv, int ind, int min, int max) {
  int n = argc - ind;
  if (n < min) {
    if (n == 0) cmd_errorf(ctx, "missing operand");
    else cmd_errorf(ctx, "missing operand after %s", cmd_gnu_quote(ctx, argv[argc - 1]));
    cmd_usage_hint(ctx, 1);
    return 1;
  }
  if (max >= 0 && n > max) {
    cmd_errorf(ctx, "extra operand %s", cmd_gnu_quote(ctx, argv[ind + max]));
    cmd_usage_hint(ctx, 1);
    return 1;
  }
  return 0;
}

int cmd_each_line(cmd_ctx *ctx, char *const *files, int nfiles, char delim, cmd_line_fn fn,
                  void *ud) {
  static char *const dash[] = {"-", NULL};
  if (nfiles <= 0) {
    files = dash;
    nfiles = 1;
  }
  int status = 0;
  for (int i = 0; i < nfiles; i++) {
    cmd_in *in = cmd_gnu_open(ctx, files[i], &status);
    if (!in) continue;
    bool stop = false;
    for (uintmax_t n = 0;; n++) {
      if ((n & 1023) == 0 && cmd_poll(ctx)) {
        status = 1;
        stop = true;
        break;
      }
      char *line;
      size_t l;
      bool has;
      if (cmd_gnu_getline(ctx, in, files[i], delim, &line, &l, &has, &status) <= 0) break;
      if (fn(ud, line, l, has) != 0 || ctx->out_err) {
        stop = true;
        if (!ctx->out_err) status = 1;
        break;
      }
    }
    cmd_in_close(in);
    if (stop) break;
  }
  return status;
}

uintmax_t cmd_count_delim(const char *p, size_t len, char delim) {
  uintmax_t c = 0;
  const char *e = p + len;
  while ((p = memchr(p, delim, (size_t)(e - p))) != NULL) {
    c++;
    p++;
  }
  return c;
}

size_t cmd_after_nth_delim(const char *p, size_t len, uintmax_t k, char delim) {
  const char *s = p, *e = p + len;
  for (; k > 0; k--) s = (const char *)memchr(s, delim, (size_t)(e - s)) + 1;
  return (size_t)(s - p);
}

int cmd_window_reserve(cmd_window *w, size_t more, size_t limit) {
  if (w->start > 0 && w->start >= w->len / 2) {
    memmove(w->data, w->data + w->start, w->len - w->start);
    w->len -= w->start;
    w->start = 0;
  }
  if (w->cap - w->len >= more) return 0;
  size_t ncap = w->cap ? w->cap * 2 : more * 4;
  while (ncap - w->len < more) ncap *= 2;
  if (ncap > limit) return -ENOMEM;
  char *nd = realloc(w->data, ncap);
  if (!nd) return -ENOMEM;
  w->data = nd;
  w->cap = ncap;
  return 0;
}

char **cmd_gnu_num_option(cmd_ctx *ctx, int argc, char **argv, const char *opt, int *ac) {
  char **av = cmd_alloc(ctx, sizeof(char *) * ((size_t)argc * 2 + 1));
  if (!av) return NULL;
  int n = 0;
  for (int i = 0; i < argc; i++) {
    if (i > 0 && argv[i][0] == '-' && argv[i][1] >= '0' && argv[i][1] <= '9') {
      av[n++] = (char *)opt;
      av[n++] = argv[i] + 1;
    } else {
      av[n++] = argv[i];
    }
    if (i > 0 && strcmp(argv[i], "--") == 0) {
      for (i++; i < argc; i++) av[n++] = argv[i];
      break;
    }
  }
  av[n] = NULL;
  *ac = n;
  return av;
}

bool cmd_gnu_env_blocksize(cmd_ctx *ctx, const char *var, uint64_t *block, int *human) {
  const char *bs = cmd_getenv(ctx, var);
  if (!bs) bs = cmd_getenv(ctx, "BLOCK_SIZE");
  return bs && cmd_parse_blocksize(bs, block, human) == 0;
}

bool cmd_gnu_backup_opts(const cmd_getopt_state *st, int backup_opt,
                         const char **suffix) {
  *suffix = cmd_opt_arg(st, 'S') ? cmd_opt_arg(st, 'S') : "~";
  return cmd_opt_on(st, 'b') || cmd_opt_on(st, backup_opt) || cmd_opt_on(st, 'S');
}

