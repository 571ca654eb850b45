/*
 * awk_re.c - regular expressions for the awk command.
 *
 * awk regexes are POSIX EREs with awk's escapes (\/ \" \n \t \ddd...) and
 * gawk's operators (\y \B \< \> \s \S \w \W \` \'), matched leftmost-longest.
 * This file translates the awk syntax into a canonical POSIX ERE (bracket
 * expressions rewritten so backslash escapes inside them work, invalid
 * intervals and leading quantifiers made literal, \y spelled \b, \ddd
 * octal escapes made literal characters) and matches with the shared engine
 * (src/re/re.h) in UTF-8 mode, so `.` matches a UTF-8 character like gawk in
 * C.UTF-8. Subjects are (pointer, length): NUL bytes are ordinary, and a
 * search from an offset keeps the context for ^ and \<.
 *
 * Each regex is compiled twice: without submatches (the engine's DFA, used
 * for tests and searches) and with them (match() arrays, gensub). A pattern
 * that is a plain string (the most common case, `/error/`) is matched with
 * memchr/memmem, optionally anchored, never reaching the engine. Long
 * matches poll the command (cmd_poll) and respect the engine's step budget;
 * a cancelled or runaway match reaches the interpreter's failure handler.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/awk/awk.h"
#include "cmd/lib/buf.h"
#include "re/re.h"

struct awk_regex {
  re *rx;            /* the engine's regex, with submatches */
  re *rx_nosub;      /* the same without submatches (faster searches) */
  bool literal;      /* plain string: use memmem */
  bool anchor_bol;   /* literal must start at 0 */
  bool anchor_eol;   /* literal must end at len */
  char *lit;         /* the literal bytes (malloc'd) */
  size_t litlen;     /* its length */
  size_t nsub;       /* parenthesized subexpressions */
};

/* ---- translation ----------------------------------------------------------------- */

/* Translated pattern text goes into cmd_bufs without a bound. */
static const char *ERE_SPECIAL = "\\^$.[]|()*+?{}";

/* Adds a literal byte outside a bracket. */
static void add_literal(cmd_buf *b, char c) {
  if (strchr(ERE_SPECIAL, c) && c) cmd_buf_putc(b, '\\');
  cmd_buf_putc(b, c);
}

/* A byte that matches itself, for translate: escaped into the ERE b, and kept
 * in lit, the plain string a pattern without operators is searched by. */
static void put_literal(cmd_buf *b, cmd_buf *lit, char c) {
  add_literal(b, c);
  cmd_buf_putc(lit, c);
}

/* An operator byte, for translate: into the ERE b as it is, and the pattern is
 * no longer a plain string. */
static void put_operator(cmd_buf *b, char c, bool *is_literal) {
  cmd_buf_putc(b, c);
  *is_literal = false;
}

/* Decodes an awk escape at pat[*i] (after the backslash). Returns the byte
 * value, or -1 if it is not a value escape. */
static int escape_value(const char *pat, size_t len, size_t *i) {
  char c = pat[*i];
  switch (c) {
  case 'n': (*i)++; return '\n';
  case 't': (*i)++; return '\t';
  case 'r': (*i)++; return '\r';
  case 'f': (*i)++; return '\f';
  case 'v': (*i)++; return '\v';
  case 'a': (*i)++; return '\a';
  case 'b': (*i)++; return '\b';
  case '/': (*i)++; return '/';
  case '"': (*i)++; return '"';
  case 'x': {
    size_t j = *i + 1;
    int v = 0, n = 0;
    while (j < len && n < 2 && strchr("0123456789abcdefABCDEF", pat[j]) && pat[j]) {
      char d = pat[j];
      v = v * 16 + (d <= '9' ? d - '0' : (d | 32) - 'a' + 10);
      j++;
      n++;
    }
    if (!n) return -1;
    *i = j;
    return v;
  }
  default:
    if (c >= '0' && c <= '7') {
      size_t j = *i;
      int v = 0, n = 0;
      while (j < len && n < 3 && pat[j] >= '0' && pat[j] <= '7') {
        v = v * 8 + (pat[j] - '0');
        j++;
        n++;
      }
      *i = j;
      return v & 0xff;
    }
    return -1;
  }
}

/* Translates a bracket expression starting at pat[*i] == '['. */
static bool translate_bracket(cmd_buf *b, const char *pat, size_t len, size_t *i) {
  size_t j = *i + 1;
  bool negate = false;
  if (j < len && pat[j] == '^') {
    negate = true;
    j++;
  }
  cmd_buf items = {0};
  bool has_rbracket = false, has_dash = false, has_caret = false;
  bool first = true;
  for (;;) {
    if (j >= len) {
      free(items.p);
      return false;
    }
    char c = pat[j];
    if (c == ']' && !first) {
      j++;
      break;
    }
    first = false;
    if (c == '[' && j + 1 < len && (pat[j + 1] == ':' || pat[j + 1] == '.' || pat[j + 1] == '=')) {
      char kind = pat[j + 1];
      size_t k = j + 2;
      while (k + 1 < len && !(pat[k] == kind && pat[k + 1] == ']')) k++;
      if (k + 1 >= len) {
        free(items.p);
        return false;
      }
      cmd_buf_put(&items, pat + j, k + 2 - j);
      j = k + 2;
      continue;
    }
    int lo;
    if (c == '\\' && j + 1 < len) {
      size_t k = j + 1;
      int v = escape_value(pat, len, &k);
      if (v < 0) {
        /* \] \\ \- \^ and others: the character itself */
        v = (unsigned char)pat[j + 1];
        k = j + 2;
      }
      lo = v;
      j = k;
    } else {
      lo = (unsigned char)c;
      j++;
    }
    /* a range? */
    if (j + 1 < len && pat[j] == '-' && pat[j + 1] != ']') {
      size_t k = j + 1;
      int hi;
      if (pat[k] == '\\' && k + 1 < len) {
        size_t m = k + 1;
        int v = escape_value(pat, len, &m);
        if (v < 0) {
          v = (unsigned char)pat[k + 1];
          m = k + 2;
        }
        hi = v;
        k = m;
      } else if (pat[k] == '[' && k + 1 < len && pat[k + 1] == '.') {
        /* collating element as range end: copy verbatim */
        size_t m = k + 2;
        while (m + 1 < len && !(pat[m] == '.' && pat[m + 1] == ']')) m++;
        cmd_buf_putc(&items, (char)lo);
        cmd_buf_putc(&items, '-');
        cmd_buf_put(&items, pat + k, m + 2 - k);
        j = m + 2;
        continue;
      } else {
        /* a UTF-8 character as range end */
        size_t n = awk_utf8_char(pat + k, len - k);
        if (n > 1) {
          if (lo == ']') has_rbracket = true;
          cmd_buf_putc(&items, (char)lo);
          cmd_buf_putc(&items, '-');
          cmd_buf_put(&items, pat + k, n);
          j = k + n;
          continue;
        }
        hi = (unsigned char)pat[k];
        k++;
      }
      j = k;
      if (lo == ']' ) {
        /* "]-x": keep ']' first as the range start */
        has_rbracket = true;
        char r[3] = {'-', (char)hi, 0};
        /* emitted later right after ']' */
        cmd_buf_put(&items, "\x01", 1);
        cmd_buf_put(&items, r, 2);
        continue;
      }
      cmd_buf_putc(&items, (char)lo);
      cmd_buf_putc(&items, '-');
      if (hi == ']') {
        cmd_buf_put(&items, "[.].]", 5);
      } else {
        cmd_buf_putc(&items, (char)hi);
      }
      continue;
    }
    if (lo == ']') has_rbracket = true;
    else if (lo == '-') has_dash = true;
    else if (lo == '^') has_caret = true;
    else cmd_buf_putc(&items, (char)lo);
  }
  if (items.err) {
    free(items.p);
    return false;
  }
  /* assemble: [ ^? ]? items ^? -? ] */
  if (!negate && !has_rbracket && !has_dash && has_caret && items.len == 0) {
    cmd_buf_put(b, "\\^", 2);
    free(items.p);
    *i = j;
    return true;
  }
  cmd_buf_putc(b, '[');
  if (negate) cmd_buf_putc(b, '^');
  if (has_rbracket) cmd_buf_putc(b, ']');
  for (size_t k = 0; k < items.len; k++) {
    if (items.p[k] == '\x01') continue; /* "]-x" marker: ']' already first */
    cmd_buf_putc(b, items.p[k]);
  }
  if (has_caret) cmd_buf_putc(b, '^');
  if (has_dash) cmd_buf_putc(b, '-');
  cmd_buf_putc(b, ']');
  free(items.p);
  *i = j;
  return true;
}

static bool valid_interval(const char *pat, size_t len, size_t i) {
  /* pat[i] == '{' */
  size_t j = i + 1;
  size_t d1 = 0;
  while (j < len && pat[j] >= '0' && pat[j] <= '9') j++, d1++;
  if (j < len && pat[j] == '}') return d1 > 0;
  if (j < len && pat[j] == ',') {
    j++;
    while (j < len && pat[j] >= '0' && pat[j] <= '9') j++;
    return j < len && pat[j] == '}' && d1 > 0;
  }
  return false;
}

/* Translates `pat` into b; *is_literal set when no operator appears (then
 * lit holds the literal bytes). */
static bool translate(const char *pat, size_t len, cmd_buf *b, cmd_buf *lit, bool *is_literal,
                      bool *bol, bool *eol, size_t *nsub, char **err) {
  *is_literal = true;
  *bol = *eol = false;
  *nsub = 0;
  bool at_start = true; /* a quantifier here is literal */
  int depth = 0;
  for (size_t i = 0; i < len;) {
    char c = pat[i];
    if (c == 0) {
      *err = strdup("NUL bytes in regular expressions are not supported");
      return false;
    }
    if (c == '\\') {
      if (i + 1 >= len) {
        /* trailing backslash: literal */
        put_literal(b, lit, '\\');
        i++;
        at_start = false;
        continue;
      }
      size_t k = i + 1;
      int v = escape_value(pat, len, &k);
      if (v >= 0) {
        if (v == 0) {
          *err = strdup("NUL bytes in regular expressions are not supported");
          return false;
        }
        put_literal(b, lit, (char)v);
        i = k;
        at_start = false;
        continue;
      }
      char e = pat[i + 1];
      i += 2;
      switch (e) {
      case 'y': cmd_buf_put(b, "\\b", 2); *is_literal = false; break;
      case 'B': cmd_buf_put(b, "\\B", 2); *is_literal = false; break;
      case '<': cmd_buf_put(b, "\\<", 2); *is_literal = false; break;
      case '>': cmd_buf_put(b, "\\>", 2); *is_literal = false; break;
      case 's': cmd_buf_put(b, "[[:space:]]", 11); *is_literal = false; break;
      case 'S': cmd_buf_put(b, "[^[:space:]]", 12); *is_literal = false; break;
      case 'w': cmd_buf_put(b, "[[:alnum:]_]", 12); *is_literal = false; break;
      case 'W': cmd_buf_put(b, "[^[:alnum:]_]", 13); *is_literal = false; break;
      case '`': cmd_buf_put(b, "\\`", 2); *is_literal = false; break;
      case '\'': cmd_buf_put(b, "\\'", 2); *is_literal = false; break;
      default:
        put_literal(b, lit, e);
        break;
      }
      at_start = false;
      continue;
    }
    switch (c) {
    case '[': {
      size_t j = i;
      if (!translate_bracket(b, pat, len, &j)) {
        *err = strdup("Unmatched [, [^, [:, [., or [=");
        return false;
      }
      i = j;
      *is_literal = false;
      at_start = false;
      continue;
    }
    case '{':
      if (!at_start && valid_interval(pat, len, i)) {
        size_t j = i;
        while (pat[j] != '}') cmd_buf_putc(b, pat[j++]);
        cmd_buf_putc(b, '}');
        i = j + 1;
        *is_literal = false;
        continue;
      }
      put_literal(b, lit, '{');
      i++;
      at_start = false;
      continue;
    case '}':
      put_literal(b, lit, '}');
      i++;
      at_start = false;
      continue;
    case '*':
    case '+':
    case '?':
      if (at_start) {
        put_literal(b, lit, c);
        i++;
        at_start = false;
        continue;
      }
      put_operator(b, c, is_literal);
      i++;
      continue;
    case '(':
      depth++;
      (*nsub)++;
      put_operator(b, c, is_literal);
      i++;
      at_start = true;
      if (i < len && pat[i] == ')') {
        /* "()" matches the empty string */
        cmd_buf_put(b, "\\`{0}", 0);
      }
      continue;
    case ')':
      if (depth == 0) {
        /* unmatched ')': literal, as POSIX allows */
        put_literal(b, lit, ')');
        i++;
        at_start = false;
        continue;
      }
      depth--;
      put_operator(b, c, is_literal);
      i++;
      at_start = false;
      continue;
    case '|':
      put_operator(b, c, is_literal);
      i++;
      at_start = true;
      continue;
    case '^':
      if (i == 0) *bol = true;
      else *is_literal = false;
      cmd_buf_putc(b, c);
      i++;
      at_start = true;
      continue;
    case '$':
      if (i == len - 1) *eol = true;
      else *is_literal = false;
      cmd_buf_putc(b, c);
      i++;
      at_start = false;
      continue;
    case '.':
      put_operator(b, c, is_literal);
      i++;
      at_start = false;
      continue;
    default:
      cmd_buf_putc(b, c);
      cmd_buf_putc(lit, c);
      i++;
      at_start = false;
      continue;
    }
  }
  if (depth > 0) {
    *err = strdup("Unmatched ( or \\(");
    return false;
  }
  if (b->err || lit->err) {
    *err = strdup("out of memory");
    return false;
  }
  return true;
}

/* ---- compile and match ---------------------------------------------------------- */

/* The running command (for cmd_poll) and where to report a regex that ran
 * out of budget or was cancelled: set per thread by the interpreter. */
static __thread cmd_ctx *re_ctx;
static __thread void (*re_fail)(void *ud, int kind);
static __thread void *re_fail_ud;

void awk_re_set_env(cmd_ctx *ctx, void (*fail)(void *ud, int kind), void *ud) {
  re_ctx = ctx;
  re_fail = fail;
  re_fail_ud = ud;
}

static int re_poll(void *ud) { return cmd_poll((cmd_ctx *)ud); }

static void report(int rc) {
  if (!re_fail) return;
  re_fail(re_fail_ud, rc == RE_ECANCEL ? AWK_RE_CANCELLED
                      : rc == RE_ENOMEM ? AWK_RE_NOMEM : AWK_RE_TOO_COMPLEX);
}

static int run(awk_regex *ar, bool nosub, const char *s, size_t len, size_t from, bool notbol,
               re_span *m, size_t nm) {
  re_ctl ctl = {0, re_ctx ? re_poll : NULL, re_ctx};
  int rc = re_exec(nosub ? ar->rx_nosub : ar->rx, s, len, from, notbol ? RE_NOTBOL : 0, m, nm,
                   &ctl);
  if (rc < 0) {
    report(rc);
    return 0;
  }
  return rc == RE_MATCH;
}

awk_regex *awk_re_compile(const char *pat, size_t len, bool icase, char **err) {
  *err = NULL;
  cmd_buf b = {0}, lit = {0};
  cmd_buf_put(&b, "", 0);
  cmd_buf_put(&lit, "", 0);
  bool is_lit, bol, eol;
  size_t nsub;
  if (!translate(pat, len, &b, &lit, &is_lit, &bol, &eol, &nsub, err)) {
    free(b.p);
    free(lit.p);
    return NULL;
  }
  awk_regex *ar = calloc(1, sizeof *ar);
  if (!ar) {
    free(b.p);
    free(lit.p);
    *err = strdup("out of memory");
    return NULL;
  }
  ar->nsub = nsub;
  if (is_lit && !icase) {
    ar->literal = true;
    ar->anchor_bol = bol;
    ar->anchor_eol = eol;
    ar->lit = lit.p;
    ar->litlen = lit.len;
    lit.p = NULL;
  }
  unsigned flags = RE_EXTENDED | RE_UTF8 | (icase ? RE_NOCASE : 0);
  re_err e;
  memset(&e, 0, sizeof e);
  int rc = re_compile(&ar->rx, b.p ? b.p : "", b.len, flags, &e);
  if (rc == 0) rc = re_compile(&ar->rx_nosub, b.p ? b.p : "", b.len, flags | RE_NOSUB, &e);
  if (rc != 0) {
    *err = strdup(e.msg[0] ? e.msg : "Invalid regular expression");
    if (ar->rx) re_free(ar->rx);
    free(b.p);
    free(lit.p);
    free(ar->lit);
    free(ar);
    return NULL;
  }
  ar->nsub = re_nsub(ar->rx);
  free(b.p);
  free(lit.p);
  return ar;
}

void awk_re_free(awk_regex *ar) {
  if (!ar) return;
  if (ar->rx) re_free(ar->rx);
  if (ar->rx_nosub) re_free(ar->rx_nosub);
  free(ar->lit);
  free(ar);
}

size_t awk_re_nsub(const awk_regex *ar) { return ar->nsub; }

bool awk_re_is_literal(const awk_regex *ar, const char **lit, size_t *litlen) {
  if (!ar->literal || ar->anchor_bol || ar->anchor_eol) return false;
  *lit = ar->lit;
  *litlen = ar->litlen;
  return true;
}

static int literal_search(awk_regex *ar, const char *s, size_t len, size_t from, bool notbol,
                          size_t *ms, size_t *me) {
  size_t n = ar->litlen;
  if (ar->anchor_bol) {
    if (from > 0 || notbol) return 0;
    if (ar->anchor_eol) {
      if (len != n || (n && memcmp(s, ar->lit, n))) return 0;
    } else if (len < n || (n && memcmp(s, ar->lit, n))) {
      return 0;
    }
    *ms = 0;
    *me = n;
    return 1;
  }
  if (ar->anchor_eol) {
    if (len < n || len - n < from || (n && memcmp(s + len - n, ar->lit, n))) return 0;
    *ms = len - n;
    *me = len;
    return 1;
  }
  if (n == 0) {
    *ms = *me = from;
    return from <= len;
  }
  if (from > len) return 0;
  const char *p = n == 1 ? memchr(s + from, ar->lit[0], len - from)
                         : memmem(s + from, len - from, ar->lit, n);
  if (!p) return 0;
  *ms = (size_t)(p - s);
  *me = *ms + n;
  return 1;
}

int awk_re_search(awk_regex *ar, const char *s, size_t len, size_t from, bool notbol,
                  size_t *ms, size_t *me) {
  if (!s) s = "";
  if (ar->literal) return literal_search(ar, s, len, from, notbol, ms, me);
  if (from > len) return 0;
  re_span m[1];
  if (!run(ar, true, s, len, from, notbol, m, 1)) return 0;
  *ms = (size_t)m[0].so;
  *me = (size_t)m[0].eo;
  return 1;
}

int awk_re_test(awk_regex *ar, const char *s, size_t len) {
  if (!s) s = "";
  size_t ms, me;
  if (ar->literal) return literal_search(ar, s, len, 0, false, &ms, &me);
  re_ctl ctl = {0, re_ctx ? re_poll : NULL, re_ctx};
  size_t end;
  int rc = re_first_end(ar->rx_nosub, s, len, 0, 0, &end, &ctl);
  if (rc < 0) {
    report(rc);
    return 0;
  }
  return rc == RE_MATCH;
}

int awk_re_exec(awk_regex *ar, const char *s, size_t len, size_t from, bool notbol, size_t nsub,
                int64_t *spans) {
  if (!s) s = "";
  if (from > len) return 0;
  size_t n = nsub + 1;
  re_span small[16];
  re_span *m = n <= 16 ? small : malloc(n * sizeof *m);
  if (!m) return 0;
  int found = run(ar, false, s, len, from, notbol, m, n);
  if (found) {
    for (size_t i = 0; i < n; i++) {
      spans[2 * i] = m[i].so;
      spans[2 * i + 1] = m[i].eo;
    }
  }
  if (m != small) free(m);
  return found;
}
