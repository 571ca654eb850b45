/*
 * sed_parse.c - the sed script compiler: GNU sed 4.9's grammar, extensions
 * and error messages, into a sed_prog (sed_int.h).
 *
 * The script is read one source at a time (each -e expression and each -f
 * file ends with its own EOF, as in GNU sed), with the same character-level
 * helpers GNU uses (inchar, savchar, in_nonblank, match_slash, read_text...)
 * so that error positions match: "-e expression #N, char M" counts the
 * characters consumed in that expression, "file F line L" the line. Blocks
 * ({ }) and a pending a\/i\/c\ text continue across sources.
 *
 * Escapes: in regexes and replacements \a \f \n \r \t \v \cX \dNNN \oNNN
 * \xHH become the byte they name (in a regex that byte keeps its special
 * meaning, as in GNU: s/\x2e/X/ replaces any character; in a replacement it
 * is literal). Regexes compile through src/re (BRE, or ERE with -E; I and M
 * flags; the empty regex means the last one used, resolved at run time).
 *
 * Bounds: scripts are bounded by the caller (their size), nesting of blocks
 * is limited to SED_MAX_BLOCKS, numbers saturate. The e command and the e
 * flag of s are refused: a sandboxed sed runs no shell commands.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/lib/buf.h"
#include "cmd/sed/sed_int.h"

#define SED_MAX_BLOCKS 10000
#define SED_EOF (-1)

typedef struct sp {
  cmd_ctx *ctx;              /* the call */
  const sed_opts *o;         /* options */
  sed_prog *prog;            /* output */
  const sed_source *src;     /* all sources */
  size_t nsrc;               /* count */
  size_t si;                 /* current source */
  size_t pos;                /* read position in it */
  int32_t *blocks;           /* open '{' command indices */
  size_t nblocks;            /* depth */
  size_t capblocks;          /* allocated */
  int32_t pending;           /* a/i/c command whose text continues in the next source (-1) */
  int status;                /* 0, or the exit status after an error */
} sp;

/* ---- errors --------------------------------------------------------------------- */

static void bad_prog_at(sp *p, size_t si, size_t pos, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void bad_prog_at(sp *p, size_t si, size_t pos, const char *fmt, ...) {
  if (p->status) return;
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  const sed_source *s = &p->src[si < p->nsrc ? si : p->nsrc - 1];
  if (s->file) {
    size_t line = 1;
    for (size_t i = 0; i < pos && i < s->len; i++) line += s->text[i] == '\n';
    cmd_errorf(p->ctx, "file %s line %zu: %s", s->file, line, msg);
  } else {
    cmd_errorf(p->ctx, "-e expression #%d, char %zu: %s", s->expr_no, pos, msg);
  }
  p->status = 1;
}

#define bad_prog(p, ...) bad_prog_at((p), (p)->si, (p)->pos, __VA_ARGS__)

/* ---- reading -------------------------------------------------------------------- */

static int inchar(sp *p) {
  const sed_source *s = &p->src[p->si];
  if (p->pos >= s->len) return SED_EOF;
  return (unsigned char)s->text[p->pos++];
}

static void savchar(sp *p, int ch) {
  if (ch != SED_EOF && p->pos > 0) p->pos--;
}

static bool is_blank(int c) { return c == ' ' || c == '\t'; }
static bool is_space(int c) { return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'; }
static bool is_digit(int c) { return c >= '0' && c <= '9'; }

static int in_nonblank(sp *p) {
  int ch;
  do ch = inchar(p);
  while (is_blank(ch));
  return ch;
}

static uint64_t in_integer(sp *p, int ch) {
  uint64_t n = 0;
  while (is_digit(ch)) {
    n = n > (UINT64_MAX - 9) / 10 ? UINT64_MAX : n * 10 + (uint64_t)(ch - '0');
    ch = inchar(p);
  }
  savchar(p, ch);
  return n;
}

static void read_end_of_cmd(sp *p) {
  int ch = in_nonblank(p);
  if (ch == '}' || ch == '#') savchar(p, ch);
  else if (ch != SED_EOF && ch != '\n' && ch != ';') bad_prog(p, "extra characters after command");
}

static char *read_label(sp *p) {
  cmd_buf b = {0};
  cmd_buf_put(&b, "", 0);
  int ch = in_nonblank(p);
  while (ch != SED_EOF && ch != '\n' && !is_space(ch) && ch != ';' && ch != '}' && ch != '#') {
    cmd_buf_putc(&b, ch);
    ch = inchar(p);
  }
  if (ch == '}' || ch == '#') savchar(p, ch);
  return b.p;
}

static char *read_filename(sp *p) {
  cmd_buf b = {0};
  cmd_buf_put(&b, "", 0);
  int ch = in_nonblank(p);
  while (ch != SED_EOF && ch != '\n') {
    cmd_buf_putc(&b, ch);
    ch = inchar(p);
  }
  return b.p;
}

/* A label or file name its command cannot do without, read by read_word
 * (read_label or read_filename): the word, or NULL when it is empty, after
 * the error missing. For ':', the r/R/w/W commands and s///w. */
static char *read_required(sp *p, char *(*read_word)(sp *), const char *missing) {
  char *word = read_word(p);
  if (!*word) {
    free(word);
    bad_prog(p, missing);
    return NULL;
  }
  return word;
}

/* GNU match_slash: text up to the next unescaped `slash`. In a regex "\n"
 * becomes a newline and "\/" a slash; in a replacement "\/" becomes "/"
 * (but "\&" stays) and other escapes are kept for later. Returns NULL when
 * the delimiter is missing (a newline or the end comes first). */
/* A bracket expression of a regex, after its '[': copied as is up to its
 * ']' (the delimiter is an ordinary character inside, as in GNU sed 4.9:
 * s/[/]/_/), "\n" becoming a newline. Returns the last character read. */
static int copy_bracket(sp *p, cmd_buf *b) {
  int ch = inchar(p);
  if (ch == '^') cmd_buf_putc(b, '^'), ch = inchar(p);
  if (ch == ']') cmd_buf_putc(b, ']'), ch = inchar(p);
  for (; ch != SED_EOF && ch != '\n'; ch = inchar(p)) {
    if (ch == ']') {
      cmd_buf_putc(b, ']');
      return ch;
    }
    if (ch == '[') { /* [:class:] [.coll.] [=equiv=] */
      int k = inchar(p);
      cmd_buf_putc(b, '[');
      if (k != ':' && k != '.' && k != '=') {
        savchar(p, k);
        continue;
      }
      cmd_buf_putc(b, (char)k);
      int prev = 0, c2;
      while ((c2 = inchar(p)) != SED_EOF && c2 != '\n') {
        cmd_buf_putc(b, (char)c2);
        if (c2 == ']' && prev == k) break;
        prev = c2;
      }
      if (c2 != ']') return c2;
      continue;
    }
    if (ch == '\\') {
      int k = inchar(p);
      if (k == 'n') {
        cmd_buf_putc(b, '\n');
        continue;
      }
      savchar(p, k); /* a backslash is itself inside brackets */
    }
    cmd_buf_putc(b, (char)ch);
  }
  return ch;
}

static char *match_slash(sp *p, int slash, bool regex, size_t *len) {
  cmd_buf b = {0};
  cmd_buf_put(&b, "", 0);
  int ch;
  while ((ch = inchar(p)) != SED_EOF && ch != '\n') {
    if (ch == slash) break;
    if (ch == '[' && regex) {
      cmd_buf_putc(&b, '[');
      ch = copy_bracket(p, &b);
      if (ch == ']') continue;
      break;
    }
    if (ch == '\\') {
      ch = inchar(p);
      if (ch == SED_EOF) break;
      if (ch == 'n' && regex) ch = '\n';
      else if (ch != '\n' && (ch != slash || (!regex && ch == '&'))) cmd_buf_putc(&b, '\\');
    }
    cmd_buf_putc(&b, ch);
  }
  if (ch == '\n') savchar(p, ch);
  if (ch != slash) {
    free(b.p);
    return NULL;
  }
  *len = b.len;
  return b.p;
}

/* ---- escapes --------------------------------------------------------------------- */

/* Converts the escape at s[i] (s[i] == '\\') when it names a byte (\a \f
 * \n \r \t \v \cX \dNNN \oNNN \xHH): stores the byte in *out and returns the
 * escape's length; 0 when it is not such an escape; -1 for "\c\". */
static int byte_escape(const char *s, size_t n, size_t i, unsigned char *out) {
  if (i + 1 >= n) return 0;
  char c = s[i + 1];
  switch (c) {
  case 'a': *out = '\a'; return 2;
  case 'f': *out = '\f'; return 2;
  case 'n': *out = '\n'; return 2;
  case 'r': *out = '\r'; return 2;
  case 't': *out = '\t'; return 2;
  case 'v': *out = '\v'; return 2;
  case 'c':
    if (i + 2 >= n) return 0;
    if (s[i + 2] == '\\') return -1;
    *out = (unsigned char)((s[i + 2] >= 'a' && s[i + 2] <= 'z' ? s[i + 2] - 32 : s[i + 2]) ^ 0x40);
    return 3;
  case 'd':
  case 'o':
  case 'x': {
    int base = c == 'd' ? 10 : c == 'o' ? 8 : 16, maxd = c == 'x' ? 2 : 3;
    unsigned v = 0;
    int k = 0;
    for (; k < maxd && i + 2 + (size_t)k < n; k++) {
      char d = s[i + 2 + k];
      int dv = d >= '0' && d <= '9' ? d - '0' : d >= 'a' && d <= 'f' ? d - 'a' + 10
             : d >= 'A' && d <= 'F' ? d - 'A' + 10 : 99;
      if (dv >= base) break;
      v = v * (unsigned)base + (unsigned)dv;
    }
    if (k == 0) return 0;
    *out = (unsigned char)v;
    return 2 + k;
  }
  }
  return 0;
}

/* Regex text: named bytes become raw bytes (keeping their regex meaning),
 * other escapes are left for the regex compiler. */
static char *convert_regex(sp *p, const char *s, size_t n, size_t *outlen) {
  cmd_buf b = {0};
  cmd_buf_put(&b, "", 0);
  for (size_t i = 0; i < n; i++) {
    if (s[i] != '\\') {
      cmd_buf_putc(&b, s[i]);
      continue;
    }
    unsigned char c;
    int k = byte_escape(s, n, i, &c);
    if (k < 0) {
      bad_prog(p, "recursive escaping after \\c not allowed");
      free(b.p);
      return NULL;
    }
    if (k > 0) {
      cmd_buf_putc(&b, c);
      i += (size_t)k - 1;
      continue;
    }
    cmd_buf_putc(&b, '\\');
    if (i + 1 < n) cmd_buf_putc(&b, s[++i]);
  }
  *outlen = b.len;
  return b.p;
}

/* ---- regexes --------------------------------------------------------------------- */

static sed_regex *compile_rx(sp *p, const char *text, size_t len, unsigned extra, int needed) {
  sed_prog *pr = p->prog;
  if (cmd_grow(&pr->rxs, &pr->caprx, pr->nrx + 1, sizeof *pr->rxs)) {
    bad_prog(p, "memory exhausted");
    return NULL;
  }
  sed_regex *r = calloc(1, sizeof *r);
  if (!r) {
    bad_prog(p, "memory exhausted");
    return NULL;
  }
  pr->rxs[pr->nrx++] = r;
  r->flags = extra | (p->o->extended ? RE_EXTENDED : 0) | (p->o->utf8 ? RE_UTF8 : 0) |
             (p->o->posix ? RE_POSIX : 0);
  if (len == 0) return r; /* the empty regex: the last one used */
  size_t clen;
  char *conv = convert_regex(p, text, len, &clen);
  if (!conv) return NULL;
  re_err err = {0};
  int rc = re_compile(&r->rx, conv, clen, r->flags, &err);
  free(conv);
  if (rc) {
    bad_prog(p, "%s", err.msg);
    return NULL;
  }
  r->nsub = re_nsub(r->rx);
  if (needed > 0 && (size_t)needed > r->nsub) {
    bad_prog(p, "invalid reference \\%d on `s' command's RHS", needed);
    return NULL;
  }
  return r;
}

/* ---- addresses ---------------------------------------------------------------------- */

/* Returns 1 with *a filled, 0 when ch does not start an address, -1 on error. */
static int compile_address(sp *p, sed_addr *a, int ch) {
  memset(a, 0, sizeof *a);
  if (ch == '/' || ch == '\\') {
    if (ch == '\\') ch = inchar(p);
    size_t len;
    char *b = match_slash(p, ch, true, &len);
    if (!b) {
      bad_prog(p, "unterminated address regex");
      return -1;
    }
    unsigned flags = 0;
    for (;;) {
      ch = in_nonblank(p);
      if (p->o->posix) {
        savchar(p, ch);
        break;
      }
      if (ch == 'I') flags |= RE_NOCASE;
      else if (ch == 'M') flags |= RE_MULTILINE;
      else {
        savchar(p, ch);
        break;
      }
    }
    a->kind = SA_REGEX;
    a->rx = compile_rx(p, b, len, flags, 0);
    free(b);
    return a->rx ? 1 : -1;
  }
  if (is_digit(ch)) {
    a->n = in_integer(p, ch);
    a->kind = SA_LINE;
    ch = in_nonblank(p);
    if (ch != '~' || p->o->posix) {
      savchar(p, ch);
    } else {
      uint64_t step = in_integer(p, in_nonblank(p));
      if (step > 0) {
        a->kind = SA_STEP;
        a->step = step;
      }
    }
    return 1;
  }
  if ((ch == '+' || ch == '~') && !p->o->posix) {
    a->kind = ch == '+' ? SA_PLUS : SA_MULT;
    a->n = in_integer(p, in_nonblank(p));
    return 1;
  }
  if (ch == '$') {
    a->kind = SA_LAST;
    return 1;
  }
  return 0;
}

/* ---- text of a, i, c ----------------------------------------------------------------- */

/* GNU read_text + normalize_text: the text up to an unescaped newline;
 * "\<newline>" continues it, other escapes are converted. Stored with a
 * trailing newline. */
static void read_text(sp *p, sed_cmd *c, int leadin) {
  cmd_buf raw = {0};
  cmd_buf_put(&raw, "", 0);
  if (leadin != SED_EOF && leadin != '\n') cmd_buf_putc(&raw, leadin);
  int ch = inchar(p);
  while (ch != SED_EOF && ch != '\n') {
    if (ch == '\\') {
      ch = inchar(p);
      if (ch == SED_EOF && p->si + 1 < p->nsrc) {
        /* a backslash ending an -e continues the text in the next -e (GNU) */
        p->si++;
        p->pos = 0;
        ch = '\n';
      }
      if (ch != SED_EOF) cmd_buf_putc(&raw, '\\');
    }
    if (ch == SED_EOF) break;
    cmd_buf_putc(&raw, ch);
    ch = inchar(p);
  }
  /* Convert escapes: "\<newline>" is a newline, named bytes, else drop '\'. */
  cmd_buf t = {0};
  cmd_buf_put(&t, "", 0);
  for (size_t i = 0; i < raw.len; i++) {
    if (raw.p[i] != '\\' || i + 1 >= raw.len) {
      cmd_buf_putc(&t, raw.p[i]);
      continue;
    }
    unsigned char b;
    int k = byte_escape(raw.p, raw.len, i, &b);
    if (k > 0) {
      cmd_buf_putc(&t, b);
      i += (size_t)k - 1;
    } else {
      cmd_buf_putc(&t, raw.p[++i]);
    }
  }
  cmd_buf_putc(&t, '\n');
  free(raw.p);
  free(c->text);
  c->text = t.p;
  c->textlen = t.len;
}

/* ---- files ----------------------------------------------------------------------------- */

static sed_wfile *get_wfile(sp *p, const char *name) {
  for (sed_wfile *w = p->prog->wfiles; w; w = w->next)
    if (strcmp(w->name, name) == 0) return w;
  sed_wfile *w = calloc(1, sizeof *w);
  if (!w) return NULL;
  w->name = strdup(name);
  w->fd = -1;
  if (!w->name) {
    free(w);
    return NULL;
  }
  if (strcmp(name, "/dev/stdout") == 0) {
    w->is_stdout = true;
  } else if (strcmp(name, "/dev/stderr") == 0) {
    w->is_stderr = true;
  } else {
    int fd = p->ctx->io->open(p->ctx->io_ud, name, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (fd < 0) {
      cmd_errorf(p->ctx, "couldn't open file %s: %s", name, cmd_strerror(fd));
      p->status = 4;
      free(w->name);
      free(w);
      return NULL;
    }
    w->fd = fd;
  }
  w->next = p->prog->wfiles;
  p->prog->wfiles = w;
  return w;
}

static sed_rfile *get_rfile(sp *p, const char *name) {
  for (sed_rfile *r = p->prog->rfiles; r; r = r->next)
    if (strcmp(r->name, name) == 0) return r;
  sed_rfile *r = calloc(1, sizeof *r);
  if (!r) return NULL;
  r->name = strdup(name);
  if (!r->name) {
    free(r);
    return NULL;
  }
  r->next = p->prog->rfiles;
  p->prog->rfiles = r;
  return r;
}

/* ---- s ------------------------------------------------------------------------------------ */

static int add_rpart(sed_cmd *c, int kind, const char *text, size_t len, int group, char op) {
  if (kind == SR_TEXT && c->nrepl > 0 && c->repl[c->nrepl - 1].kind == SR_TEXT) {
    sed_rpart *last = &c->repl[c->nrepl - 1];
    char *nt = realloc(last->text, last->len + len + 1);
    if (!nt) return -1;
    memcpy(nt + last->len, text, len);
    last->text = nt;
    last->len += len;
    nt[last->len] = 0;
    return 0;
  }
  sed_rpart *nv = realloc(c->repl, (c->nrepl + 1) * sizeof *nv);
  if (!nv) return -1;
  c->repl = nv;
  sed_rpart *r = &c->repl[c->nrepl++];
  memset(r, 0, sizeof *r);
  r->kind = kind;
  r->group = group;
  r->op = op;
  if (kind == SR_TEXT) {
    r->text = malloc(len + 1);
    if (!r->text) return -1;
    memcpy(r->text, text, len);
    r->text[len] = 0;
    r->len = len;
  }
  return 0;
}

static int setup_replacement(sp *p, sed_cmd *c, const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) {
    char ch = s[i];
    if (ch == '&') {
      if (add_rpart(c, SR_GROUP, NULL, 0, 0, 0) < 0) return -1;
      continue;
    }
    if (ch != '\\' || i + 1 >= n) {
      if (add_rpart(c, SR_TEXT, &ch, 1, 0, 0) < 0) return -1;
      continue;
    }
    char e = s[i + 1];
    if (is_digit(e)) {
      int g = e - '0';
      if (g > c->maxref) c->maxref = g;
      if (add_rpart(c, SR_GROUP, NULL, 0, g, 0) < 0) return -1;
      i++;
      continue;
    }
    if (!p->o->posix && (e == 'L' || e == 'U' || e == 'l' || e == 'u' || e == 'E')) {
      if (add_rpart(c, SR_CASE, NULL, 0, 0, e) < 0) return -1;
      i++;
      continue;
    }
    unsigned char b;
    int k = byte_escape(s, n, i, &b);
    if (k < 0) {
      bad_prog(p, "recursive escaping after \\c not allowed");
      return -1;
    }
    if (k > 0) {
      char bc = (char)b;
      if (add_rpart(c, SR_TEXT, &bc, 1, 0, 0) < 0) return -1;
      i += (size_t)k - 1;
      continue;
    }
    if (add_rpart(c, SR_TEXT, &e, 1, 0, 0) < 0) return -1;
    i++;
  }
  return 0;
}

/* GNU mark_subst_opts: the flags after s/re/repl/. Returns RE_* flags or -1. */
static int subst_flags(sp *p, sed_cmd *c) {
  int flags = 0;
  for (;;) {
    int ch = inchar(p);
    switch (ch) {
    case 'i':
    case 'I':
      if (p->o->posix) goto unknown;
      flags |= RE_NOCASE;
      break;
    case 'm':
    case 'M':
      if (p->o->posix) goto unknown;
      flags |= RE_MULTILINE;
      break;
    case 'e':
      bad_prog(p, "the `e' flag of `s' is not supported in the sandbox (it would run a shell command)");
      return -1;
    case 'p':
      if (c->print) {
        bad_prog(p, "multiple `p' options to `s' command");
        return -1;
      }
      c->print = 1;
      break;
    case 'g':
      if (c->global) {
        bad_prog(p, "multiple `g' options to `s' command");
        return -1;
      }
      c->global = true;
      break;
    case 'w': {
      if (p->o->sandbox) {
        bad_prog(p, "e/r/w commands disabled in sandbox mode");
        return -1;
      }
      char *name = read_required(p, read_filename, "missing filename in r/R/w/W commands");
      if (!name) return -1;
      c->wf = get_wfile(p, name);
      free(name);
      if (!c->wf) return -1;
      return flags;
    }
    case '0': case '1': case '2': case '3': case '4':
    case '5': case '6': case '7': case '8': case '9':
      if (c->nth) {
        bad_prog(p, "multiple number options to `s' command");
        return -1;
      }
      c->nth = in_integer(p, ch);
      if (c->nth == 0) {
        bad_prog(p, "number option to `s' command may not be zero");
        return -1;
      }
      break;
    case ' ':
    case '\t':
      break;
    case '}':
    case '#':
      savchar(p, ch);
      return flags;
    case '\n':
    case ';':
    case SED_EOF:
      return flags;
    case '\r':
      if (inchar(p) == '\n') return flags;
      /* fall through */
    default:
    unknown:
      bad_prog(p, "unknown option to `s'");
      return -1;
    }
  }
}

/* ---- y ------------------------------------------------------------------------------------ */

/* y strings: "\\" is a backslash, "\n" a newline, named bytes converted. */
static char *y_unescape(sp *p, const char *s, size_t n, size_t *outlen) {
  cmd_buf b = {0};
  cmd_buf_put(&b, "", 0);
  for (size_t i = 0; i < n; i++) {
    if (s[i] != '\\' || i + 1 >= n) {
      cmd_buf_putc(&b, s[i]);
      continue;
    }
    if (s[i + 1] == '\\') {
      cmd_buf_putc(&b, '\\');
      i++;
      continue;
    }
    unsigned char c;
    int k = byte_escape(s, n, i, &c);
    if (k > 0) {
      cmd_buf_putc(&b, c);
      i += (size_t)k - 1;
      continue;
    }
    cmd_buf_putc(&b, s[i]);
  }
  (void)p;
  *outlen = b.len;
  return b.p;
}

static size_t char_len(const sp *p, const char *s, size_t n) {
  if (!p->o->utf8) return 1;
  size_t ok = re_utf8_check(s, n < 4 ? n : 4);
  if (ok == 0) return 1;
  /* Length of the first character. */
  unsigned char c = (unsigned char)s[0];
  size_t l = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
  return l <= n && re_utf8_check(s, l) == l ? l : 1;
}

static int compile_y(sp *p, sed_cmd *c) {
  int slash = inchar(p);
  size_t l1, l2;
  char *b1 = match_slash(p, slash, false, &l1);
  if (!b1) {
    bad_prog(p, "unterminated `y' command");
    return -1;
  }
  char *b2 = match_slash(p, slash, false, &l2);
  if (!b2) {
    free(b1);
    bad_prog(p, "unterminated `y' command");
    return -1;
  }
  size_t n1, n2;
  char *s1 = y_unescape(p, b1, l1, &n1), *s2 = y_unescape(p, b2, l2, &n2);
  free(b1);
  free(b2);
  int rc = 0;
  for (int i = 0; i < 256; i++) c->ymap[i] = (unsigned char)i;
  bool multi = false;
  if (p->o->utf8)
    for (size_t i = 0; i < n1; i++) multi |= (unsigned char)s1[i] >= 0x80;
  if (p->o->utf8)
    for (size_t i = 0; i < n2; i++) multi |= (unsigned char)s2[i] >= 0x80;
  if (!multi) {
    if (n1 != n2) {
      bad_prog(p, "strings for `y' command are different lengths");
      rc = -1;
    } else {
      for (size_t i = 0; i < n1; i++) c->ymap[(unsigned char)s1[i]] = (unsigned char)s2[i];
    }
  } else {
    /* Count characters. */
    size_t cnt = 0;
    for (size_t i = 0; i < n1; i += char_len(p, s1 + i, n1 - i)) cnt++;
    c->ypairs = calloc(2 * cnt + 1, sizeof *c->ypairs);
    if (!c->ypairs) {
      rc = -1;
      goto out;
    }
    size_t i = 0, j = 0;
    for (size_t k = 0; k < cnt; k++) {
      size_t a = char_len(p, s1 + i, n1 - i);
      if (j >= n2) {
        bad_prog(p, "strings for `y' command are different lengths");
        rc = -1;
        goto out;
      }
      size_t b = char_len(p, s2 + j, n2 - j);
      c->ypairs[2 * k] = strndup(s1 + i, a);
      c->ypairs[2 * k + 1] = strndup(s2 + j, b);
      i += a;
      j += b;
    }
    if (j != n2) {
      bad_prog(p, "strings for `y' command are different lengths");
      rc = -1;
    }
  }
out:
  free(s1);
  free(s2);
  if (rc == 0) {
    int ch = in_nonblank(p);
    if (ch == '}' || ch == '#') savchar(p, ch);
    else if (ch != SED_EOF && ch != '\n' && ch != ';') {
      bad_prog(p, "extra characters after command");
      rc = -1;
    }
  }
  return rc;
}

/* ---- the program -------------------------------------------------------------------------- */

static sed_cmd *new_cmd(sp *p) {
  sed_prog *pr = p->prog;
  if (cmd_grow(&pr->cmds, &pr->cap, pr->n + 1, sizeof *pr->cmds)) return NULL;
  sed_cmd *c = &pr->cmds[pr->n];
  memset(c, 0, sizeof *c);
  pr->partial = true;
  c->int_arg = -1;
  c->jump = -1;
  return c;
}

/* Compiles the current source. */
static void compile_source(sp *p) {
  /* Text of an a\ i\ c\ left open at the end of the previous source. */
  if (p->pending >= 0) {
    sed_cmd *c = &p->prog->cmds[p->pending];
    p->pending = -1;
    read_text(p, c, '\n');
  }
  for (;;) {
    if (p->status) return;
    int ch = inchar(p);
    while (ch == ';' || is_space(ch)) ch = inchar(p);
    if (ch == SED_EOF) return;
    sed_cmd *c = new_cmd(p);
    if (!c) {
      bad_prog(p, "memory exhausted");
      return;
    }
    int32_t idx = (int32_t)p->prog->n;
    int r = compile_address(p, &c->a1, ch);
    if (r < 0) return;
    if (r > 0) {
      if (c->a1.kind == SA_PLUS || c->a1.kind == SA_MULT) {
        bad_prog(p, "invalid usage of +N or ~N as first address");
        return;
      }
      ch = in_nonblank(p);
      if (ch == ',') {
        r = compile_address(p, &c->a2, in_nonblank(p));
        if (r < 0) return;
        if (r == 0) {
          bad_prog(p, "unexpected `,'");
          return;
        }
        ch = in_nonblank(p);
      }
      if (c->a1.kind == SA_LINE && c->a1.n == 0) {
        if (c->a2.kind != SA_REGEX || p->o->posix) {
          bad_prog(p, "invalid usage of line address 0");
          return;
        }
        c->a1.kind = SA_ZERO;
      }
    }
    if (ch == '!') {
      c->neg = true;
      ch = in_nonblank(p);
      if (ch == '!') {
        bad_prog(p, "multiple `!'s");
        return;
      }
    }
    c->cmd = (char)ch;
    bool has_addr = c->a1.kind != SA_NONE;
    switch (ch) {
    case '#':
      if (has_addr) {
        bad_prog(p, "comments don't accept any addresses");
        return;
      }
      while (ch != SED_EOF && ch != '\n') ch = inchar(p);
      continue; /* not a command */
    case 'v': {
      char *v = read_label(p);
      /* Any 4.x version is fine; a newer major one is refused like GNU. */
      bool newer = v[0] && atoi(v) > 4;
      free(v);
      if (newer) {
        bad_prog(p, "expected newer version of sed");
        return;
      }
      continue;
    }
    case '{':
      if (p->nblocks >= SED_MAX_BLOCKS) {
        bad_prog(p, "too many nested blocks");
        return;
      }
      if (cmd_grow(&p->blocks, &p->capblocks, (size_t)p->nblocks + 1, sizeof *p->blocks)) {
        bad_prog(p, "memory exhausted");
        return;
      }
      p->blocks[p->nblocks++] = idx;
      break;
    case '}':
      if (!p->nblocks) {
        bad_prog(p, "unexpected `}'");
        return;
      }
      if (has_addr) {
        bad_prog(p, "`}' doesn't want any addresses");
        return;
      }
      if (c->neg) {
        bad_prog(p, "unexpected `}'");
        return;
      }
      read_end_of_cmd(p);
      p->prog->cmds[p->blocks[--p->nblocks]].jump = idx;
      break;
    case 'e':
      bad_prog(p, "the `e' command is not supported in the sandbox (it would run a shell command)");
      return;
    case 'a':
    case 'i':
    case 'c':
      ch = in_nonblank(p);
      if (ch == SED_EOF) {
        bad_prog(p, "expected \\ after `a', `c' or `i'");
        return;
      }
      if (ch == '\\') {
        ch = inchar(p);
      } else {
        if (p->o->posix) {
          bad_prog(p, "expected \\ after `a', `c' or `i'");
          return;
        }
        savchar(p, ch);
        ch = '\n';
      }
      if (ch == SED_EOF) {
        /* "a\" at the end of an -e: the text is the next source. */
        c->text = strdup("");
        c->textlen = 0;
        p->prog->n++;
        p->prog->partial = false;
        p->pending = idx;
        if (p->si + 1 >= p->nsrc) p->pending = -1;
        continue;
      }
      read_text(p, c, ch);
      break;
    case ':': {
      if (has_addr) {
        bad_prog(p, ": doesn't want any addresses");
        return;
      }
      char *label = read_required(p, read_label, "\":\" lacks a label");
      if (!label) return;
      c->label = label;
      break;
    }
    case 'T':
    case 'b':
    case 't': {
      char *label = read_label(p);
      if (*label) c->label = label;
      else free(label);
      break;
    }
    case 'Q':
    case 'q':
      if (c->a2.kind != SA_NONE) {
        bad_prog(p, "command only uses one address");
        return;
      }
      /* fall through */
    case 'l':
      ch = in_nonblank(p);
      if (is_digit(ch) && !p->o->posix) {
        uint64_t v = in_integer(p, ch);
        c->int_arg = v > 0x7fffffff ? 0x7fffffff : (int)v;
        ch = in_nonblank(p);
      }
      if (ch == '}' || ch == '#') savchar(p, ch);
      else if (ch != SED_EOF && ch != '\n' && ch != ';') {
        bad_prog(p, "extra characters after command");
        return;
      }
      break;
    case '=': case 'd': case 'D': case 'F': case 'g': case 'G': case 'h': case 'H':
    case 'n': case 'N': case 'p': case 'P': case 'z': case 'x':
      read_end_of_cmd(p);
      break;
    case 'r':
    case 'R':
    case 'W':
    case 'w': {
      if (p->o->sandbox) {
        bad_prog(p, "e/r/w commands disabled in sandbox mode");
        return;
      }
      char *name = read_required(p, read_filename, "missing filename in r/R/w/W commands");
      if (!name) return;
      if (ch == 'r') {
        c->fname = name;
        break;
      }
      if (ch == 'R') c->rf = get_rfile(p, name);
      else c->wf = get_wfile(p, name);
      free(name);
      if (!c->rf && !c->wf) {
        if (!p->status) bad_prog(p, "memory exhausted");
        return;
      }
      break;
    }
    case 's': {
      int slash = inchar(p);
      size_t l1, l2;
      char *b1 = match_slash(p, slash, true, &l1);
      if (!b1) {
        bad_prog(p, "unterminated `s' command");
        return;
      }
      char *b2 = match_slash(p, slash, false, &l2);
      if (!b2) {
        free(b1);
        bad_prog(p, "unterminated `s' command");
        return;
      }
      /* c may move when the command vector grows: it does not here. */
      int rc = setup_replacement(p, c, b2, l2);
      free(b2);
      int flags = rc < 0 ? -1 : subst_flags(p, c);
      if (flags < 0) {
        free(b1);
        if (!p->status) bad_prog(p, "memory exhausted");
        return;
      }
      c->rx = compile_rx(p, b1, l1, (unsigned)flags, c->maxref);
      free(b1);
      if (!c->rx) return;
      break;
    }
    case 'y':
      if (compile_y(p, c) < 0) return;
      break;
    case SED_EOF:
      bad_prog(p, "missing command");
      return;
    default:
      if (ch >= 0x80 && p->o->utf8) {
        /* GNU prints the whole (multibyte) character. */
        const sed_source *s = &p->src[p->si];
        size_t l = char_len(p, s->text + p->pos - 1, s->len - p->pos + 1);
        bad_prog(p, "unknown command: `%.*s'", (int)l, s->text + p->pos - 1);
      } else {
        bad_prog(p, "unknown command: `%c'", ch);
      }
      return;
    }
    p->prog->n++;
    p->prog->partial = false;
  }
}

int sed_compile(cmd_ctx *ctx, const sed_source *src, size_t nsrc, const sed_opts *o,
                sed_prog *prog) {
  memset(prog, 0, sizeof *prog);
  sp p = {0};
  p.ctx = ctx;
  p.o = o;
  p.prog = prog;
  p.src = src;
  p.nsrc = nsrc;
  p.pending = -1;
  if (nsrc > 0 && src[0].len >= 2 && src[0].text[0] == '#' && src[0].text[1] == 'n' &&
      (src[0].len == 2 || src[0].text[2] == '\n'))
    prog->quiet_hash_n = true;
  for (p.si = 0; p.si < nsrc && !p.status; p.si++) {
    p.pos = 0;
    compile_source(&p);
  }
  if (!p.status && p.nblocks) {
    /* GNU reports it at the last expression, char 0. */
    bad_prog_at(&p, nsrc ? nsrc - 1 : 0, 0, "unmatched `{'");
  }
  if (!p.status) {
    /* Resolve labels. */
    for (size_t i = 0; i < prog->n; i++) {
      sed_cmd *c = &prog->cmds[i];
      if (c->cmd != 'b' && c->cmd != 't' && c->cmd != 'T') continue;
      if (!c->label) {
        c->jump = (int32_t)prog->n;
        continue;
      }
      size_t k = 0;
      for (; k < prog->n; k++)
        if (prog->cmds[k].cmd == ':' && strcmp(prog->cmds[k].label, c->label) == 0) break;
      if (k == prog->n) {
        cmd_errorf(ctx, "can't find label for jump to `%s'", c->label);
        p.status = 4;
        break;
      }
      c->jump = (int32_t)k;
    }
  }
  free(p.blocks);
  return p.status;
}

static void free_cmd(sed_cmd *c) {
  free(c->text);
  free(c->label);
  for (size_t k = 0; k < c->nrepl; k++) free(c->repl[k].text);
  free(c->repl);
  if (c->ypairs) {
    for (size_t k = 0; c->ypairs[k]; k++) free(c->ypairs[k]);
    free(c->ypairs);
  }
  free(c->fname);
}

void sed_prog_free(cmd_ctx *ctx, sed_prog *prog) {
  for (size_t i = 0; i < prog->n; i++) free_cmd(&prog->cmds[i]);
  /* A partially built command (error inside it) may hold allocations too. */
  if (prog->cmds && prog->partial && prog->n < prog->cap) free_cmd(&prog->cmds[prog->n]);
  free(prog->cmds);
  for (size_t i = 0; i < prog->nrx; i++) {
    re_free(prog->rxs[i]->rx);
    free(prog->rxs[i]);
  }
  free(prog->rxs);
  for (sed_wfile *w = prog->wfiles, *nx; w; w = nx) {
    nx = w->next;
    if (w->fd >= 0) ctx->io->close(ctx->io_ud, w->fd);
    free(w->buf);
    free(w->name);
    free(w);
  }
  for (sed_rfile *r = prog->rfiles, *nx; r; r = nx) {
    nx = r->next;
    if (r->in) cmd_in_close(r->in);
    free(r->name);
    free(r);
  }
  memset(prog, 0, sizeof *prog);
}
