/*
 * re_parse.c - POSIX BRE / ERE (with GNU extensions) and fixed strings to an AST.
 *
 * One recursive-descent parser for both syntaxes; the differences are the
 * spelling of the operators (\( \{ \| \+ \? in BRE) and their context rules,
 * which follow GNU grep and sed (glibc regcomp + gnulib dfa.c):
 *  - BRE: `*` is literal at the start of a branch (start, after \( or \| or a
 *    leading ^); ^ is an anchor only at the start of a branch, $ only at its
 *    end (before \), \| or the end); \{ \+ \? at the start are literal.
 *  - ERE: ^ and $ are always anchors; a repetition operator with nothing
 *    before it is ignored (grep warns "* at start of expression" under
 *    RE_WARN); `{` that does not begin a valid interval is literal; with
 *    RE_WARN (grep's dialect) an unmatched `)` is literal.
 *  - Errors carry glibc's messages (the ones GNU grep and sed print).
 * Recursion is bounded by RE_MAX_DEPTH; interval counts by RE_MAX_DUP.
 * With RE_NLALT the pattern is split at newlines into alternatives, each
 * numbering its groups from 1 (the AST renumbers them globally).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "re/re_int.h"

typedef struct parser {
  const unsigned char *pat; /* the whole pattern */
  size_t len;               /* its length (the current segment's end) */
  size_t pos;               /* read position */
  unsigned flags;           /* RE_* compile flags */
  bool ere;                 /* ERE syntax */
  bool utf8;                /* RE_UTF8 */
  bool icase;               /* RE_NOCASE */
  bool gnu;                 /* GNU escapes allowed (not RE_POSIX) */
  re_ast *ast;              /* output */
  re_err *err;              /* error report (may be NULL) */
  int depth;                /* current nesting */
  int group_base;           /* RE_NLALT: groups of earlier segments */
  uint8_t *closed;          /* closed[g]: group g (global number) is complete */
  size_t closed_cap;        /* allocated entries of closed */
  int code;                 /* first error code (0 none) */
  bool after_bol;           /* BRE: the previous atom was a leading ^ */
} parser;

static const char *const error_text[] = {
    [0] = "Success",
    [RE_NOMATCH] = "No match",
    [RE_EBRACK] = "Unmatched [, [^, [:, [., or [=",
    [RE_EPAREN] = "Unmatched ( or \\(",
    [RE_ERPAREN] = "Unmatched ) or \\)",
    [RE_EBRACE] = "Unmatched \\{",
    [RE_BADBR] = "Invalid content of \\{\\}",
    [RE_ERANGE] = "Invalid range end",
    [RE_ECTYPE] = "Invalid character class name",
    [RE_EESCAPE] = "Trailing backslash",
    [RE_ESUBREG] = "Invalid back reference",
    [RE_BADRPT] = "Invalid preceding regular expression",
    [RE_ESIZE] = "Regular expression too big",
    [RE_ECOLLATE] = "Invalid collation character",
    [RE_BADPAT] = "Invalid regular expression",
    [RE_ECLASS] = "character class syntax is [[:space:]], not [:space:]",
    [RE_EPERL] = "Invalid regular expression",
    [RE_ECOMPNOMEM] = "Memory exhausted",
};

const char *re_strerror(int code) {
  switch (code) {
  case RE_ELIMIT: return "regular expression too complex";
  case RE_ECANCEL: return "interrupted";
  case RE_ENOMEM: return "memory exhausted";
  }
  if (code >= 0 && (size_t)code < sizeof error_text / sizeof *error_text && error_text[code])
    return error_text[code];
  return "Invalid regular expression";
}

void re_set_error(re_err *err, int code, size_t offset) {
  if (!err) return;
  err->code = code;
  err->offset = offset;
  snprintf(err->msg, sizeof err->msg, "%s", re_strerror(code));
}

static int fail(parser *p, int code) {
  if (!p->code) {
    p->code = code;
    re_set_error(p->err, code, p->pos);
  }
  return -1;
}

static void warn(parser *p, const char *msg) {
  if ((p->flags & RE_WARN) && p->err && p->err->warn) p->err->warn(p->err->warn_ud, msg);
}

/* ---- node construction ---------------------------------------------------------- */

static int32_t node_new(parser *p, int type) {
  re_ast *a = p->ast;
  int g = re_grow(&a->nodes, &a->capnodes, a->nnodes + 1, sizeof *a->nodes, 64,
                  (size_t)RE_MAX_PROGRAM * 4);
  if (g < 0) return fail(p, g == -2 ? RE_ESIZE : RE_ECOMPNOMEM);
  re_node *n = &a->nodes[a->nnodes];
  memset(n, 0, sizeof *n);
  n->type = (uint8_t)type;
  n->kid = n->next = -1;
  n->set = -1;
  return (int32_t)a->nnodes++;
}

static re_node *N(parser *p, int32_t i) { return &p->ast->nodes[i]; }

static int32_t set_new(parser *p) {
  re_ast *a = p->ast;
  if (re_grow(&a->sets, &a->capsets, a->nsets + 1, sizeof *a->sets, 8, SIZE_MAX) < 0)
    return fail(p, RE_ECOMPNOMEM);
  memset(&a->sets[a->nsets], 0, sizeof a->sets[0]);
  return (int32_t)a->nsets++;
}

/* Appends kid to the list of parent's children. */
static void add_kid(parser *p, int32_t parent, int32_t *last, int32_t kid) {
  if (*last < 0) N(p, parent)->kid = kid;
  else N(p, *last)->next = kid;
  *last = kid;
}

/* ---- characters -------------------------------------------------------------------- */

/* Reads one character at pos: a UTF-8 character or a raw byte. */
static uint32_t read_char(parser *p, bool *raw) {
  *raw = false;
  const unsigned char *s = p->pat + p->pos;
  if (p->utf8 && s[0] >= 0x80) {
    uint32_t cp;
    int l = re_utf8_decode(s, p->len - p->pos, &cp);
    if (l > 0) {
      p->pos += (size_t)l;
      return cp;
    }
    *raw = true;
  }
  p->pos++;
  return s[0];
}

/* Adds character c (with its case variants under RE_NOCASE) to a set. */
static int cset_add_char(parser *p, re_cset *s, uint32_t c, bool raw) {
  if (raw || !p->utf8) {
    re_bit_set(s->bits, c & 0xFF);
    if (p->icase && c < 0x80 && !raw) {
      uint32_t v[4];
      int n = re_case_variants(c, false, v);
      for (int i = 0; i < n; i++) re_bit_set(s->bits, v[i]);
    }
    return 0;
  }
  uint32_t v[4];
  int n = p->icase ? re_case_variants(c, true, v) : (v[0] = c, 1);
  for (int i = 0; i < n; i++) {
    if (v[i] < 0x80) re_bit_set(s->bits, v[i]);
    else if (re_cset_add(s, v[i], v[i]) < 0) return fail(p, RE_ECOMPNOMEM);
  }
  return 0;
}

/* A node for one literal character. */
static int32_t char_node(parser *p, uint32_t c, bool raw) {
  if (c == '\n' && (p->flags & RE_NOTNL)) {
    /* Cannot match: an empty set. */
    int32_t si = set_new(p);
    if (si < 0) return -1;
    int32_t ni = node_new(p, RN_SET);
    if (ni < 0) return -1;
    N(p, ni)->set = si;
    return ni;
  }
  if (p->icase && !raw) {
    uint32_t v[4];
    int n = re_case_variants(c, p->utf8, v);
    if (n > 1) {
      int32_t si = set_new(p);
      if (si < 0) return -1;
      if (cset_add_char(p, &p->ast->sets[si], c, false) < 0) return -1;
      if (re_cset_normalize(&p->ast->sets[si]) < 0) return fail(p, RE_ECOMPNOMEM);
      int32_t ni = node_new(p, RN_SET);
      if (ni < 0) return -1;
      N(p, ni)->set = si;
      return ni;
    }
  }
  int32_t ni = node_new(p, RN_CHAR);
  if (ni < 0) return -1;
  N(p, ni)->ch = c;
  N(p, ni)->raw = raw || (!p->utf8 && c >= 0x80);
  return ni;
}

/* Completes a set: case folding, negation, RE_NEWLINE; makes the node. */
static int32_t finish_set(parser *p, int32_t si, bool neg) {
  re_cset *s = &p->ast->sets[si];
  if (p->icase) {
    for (unsigned c = 'A'; c <= 'z'; c++)
      if (re_bit_has(s->bits, c)) {
        uint32_t v[4];
        int n = re_case_variants(c, p->utf8, v);
        for (int i = 0; i < n; i++)
          if (v[i] < 0x80) re_bit_set(s->bits, v[i]);
          else if (re_cset_add(s, v[i], v[i]) < 0) return fail(p, RE_ECOMPNOMEM);
      }
    if (p->utf8) {
      size_t n0 = s->n, total = 0;
      for (size_t i = 0; i < n0; i++) total += s->r[i].hi - s->r[i].lo + 1;
      if (total <= 0x30000) {
        for (size_t i = 0; i < n0; i++)
          for (uint32_t c = s->r[i].lo; c <= s->r[i].hi; c++) {
            uint32_t v[4];
            int n = re_case_variants(c, true, v);
            for (int k = 1; k < n; k++)
              if (v[k] < 0x80) re_bit_set(s->bits, v[k]);
              else if (re_cset_add(s, v[k], v[k]) < 0) return fail(p, RE_ECOMPNOMEM);
          }
      }
    }
  }
  if (re_cset_normalize(s) < 0) return fail(p, RE_ECOMPNOMEM);
  if (neg) {
    if (p->utf8) {
      for (int w = 0; w < 4; w++) s->bits[w] = ~s->bits[w];
      for (int w = 4; w < 8; w++) s->bits[w] = 0;
      re_cset c = {0};
      uint32_t next = 0x80;
      for (size_t i = 0; i < s->n; i++) {
        if (s->r[i].lo > next && re_cset_add(&c, next, s->r[i].lo - 1) < 0) goto nomem;
        next = s->r[i].hi + 1;
      }
      if (next <= 0x10FFFF && re_cset_add(&c, next, 0x10FFFF) < 0) goto nomem;
      /* Surrogates are not characters. */
      re_cset d = {0};
      for (size_t i = 0; i < c.n; i++) {
        uint32_t lo = c.r[i].lo, hi = c.r[i].hi;
        if (hi < 0xD800 || lo > 0xDFFF) {
          if (re_cset_add(&d, lo, hi) < 0) goto nomem2;
          continue;
        }
        if (lo < 0xD800 && re_cset_add(&d, lo, 0xD7FF) < 0) goto nomem2;
        if (hi > 0xDFFF && re_cset_add(&d, 0xE000, hi) < 0) goto nomem2;
      }
      re_cset_free(&c);
      re_cset_free(s);
      s->r = d.r;
      s->n = d.n;
      s->cap = d.cap;
      goto negated;
    nomem2:
      re_cset_free(&d);
    nomem:
      re_cset_free(&c);
      return fail(p, RE_ECOMPNOMEM);
    } else {
      for (int w = 0; w < 8; w++) s->bits[w] = ~s->bits[w];
    }
  negated:
    if (p->flags & RE_NEWLINE) s->bits['\n' >> 5] &= ~(1u << ('\n' & 31));
  }
  if (p->flags & RE_NOTNL) s->bits['\n' >> 5] &= ~(1u << ('\n' & 31));
  int32_t ni = node_new(p, RN_SET);
  if (ni < 0) return -1;
  N(p, ni)->set = si;
  return ni;
}

static int32_t class_set_node(parser *p, const char *name, bool neg, bool underscore) {
  int32_t si = set_new(p);
  if (si < 0) return -1;
  re_cset *s = &p->ast->sets[si];
  if (re_cset_add_class(s, name, strlen(name), p->utf8) < 0) return fail(p, RE_ECOMPNOMEM);
  if (underscore) re_bit_set(s->bits, '_');
  return finish_set(p, si, neg);
}

/* ---- bracket expressions ---------------------------------------------------------- */

/* Parses [x.] or [=x=] content: exactly one character between the markers.
 * pos is after the opening "[." ; on success pos is after ".]". */
static int bracket_symbol(parser *p, unsigned char mark, uint32_t *c, bool *raw) {
  size_t start = p->pos;
  size_t e = start;
  while (e + 1 < p->len && !(p->pat[e] == mark && p->pat[e + 1] == ']')) e++;
  if (e + 1 >= p->len) return fail(p, RE_EBRACK);
  if (e == start) return fail(p, RE_ECOLLATE);
  *c = read_char(p, raw);
  if (p->pos != e) return fail(p, RE_ECOLLATE);
  p->pos = e + 2;
  return 0;
}

static int32_t parse_bracket(parser *p) {
  size_t open = p->pos - 1; /* the '[' */
  if (p->pos >= p->len) return fail(p, RE_BADPAT);
  bool neg = false;
  if (p->pat[p->pos] == '^') {
    neg = true;
    p->pos++;
  }
  int32_t si = set_new(p);
  if (si < 0) return -1;
  size_t first = p->pos;
  bool special = false;      /* a class, symbol or range was seen (GNU's colon check) */
  bool noncolon = false;     /* a character other than ':' was seen */
  unsigned char lastc = 0;   /* the last byte before ']' */
  for (;;) {
    if (p->pos >= p->len) return fail(p, RE_EBRACK);
    unsigned char c0 = p->pat[p->pos];
    if (c0 == ']' && p->pos != first) {
      p->pos++;
      break;
    }
    uint32_t lo;
    bool lraw = false;
    bool is_class = false;
    if (c0 == '[' && p->pos + 1 < p->len &&
        (p->pat[p->pos + 1] == ':' || p->pat[p->pos + 1] == '.' || p->pat[p->pos + 1] == '=')) {
      unsigned char mark = p->pat[p->pos + 1];
      p->pos += 2;
      special = true;
      if (mark == ':') {
        size_t e = p->pos;
        while (e + 1 < p->len && !(p->pat[e] == ':' && p->pat[e + 1] == ']')) e++;
        if (e + 1 >= p->len) return fail(p, RE_EBRACK);
        int r = re_cset_add_class(&p->ast->sets[si], (const char *)p->pat + p->pos, e - p->pos,
                                  p->utf8);
        if (r == -1) return fail(p, RE_ECTYPE);
        if (r < 0) return fail(p, RE_ECOMPNOMEM);
        if (p->icase && ((e - p->pos == 5 && memcmp(p->pat + p->pos, "upper", 5) == 0) ||
                         (e - p->pos == 5 && memcmp(p->pat + p->pos, "lower", 5) == 0))) {
          re_cset_add_class(&p->ast->sets[si], "alpha", 5, p->utf8);
        }
        p->pos = e + 2;
        is_class = true;
        lastc = ']';
      } else {
        if (bracket_symbol(p, mark, &lo, &lraw) < 0) return -1;
        lastc = ']';
        if (mark == '=') {
          if (cset_add_char(p, &p->ast->sets[si], lo, lraw) < 0) return -1;
          continue;
        }
      }
    } else {
      lo = read_char(p, &lraw);
      if (c0 != ':') noncolon = true;
      lastc = c0;
    }
    /* A range? */
    if (p->pos + 1 < p->len && p->pat[p->pos] == '-' && p->pat[p->pos + 1] != ']') {
      if (is_class) return fail(p, RE_ERANGE);
      p->pos++;
      special = true;
      uint32_t hi;
      bool hraw = false;
      if (p->pat[p->pos] == '[' && p->pos + 1 < p->len &&
          (p->pat[p->pos + 1] == ':' || p->pat[p->pos + 1] == '=')) {
        return fail(p, RE_ERANGE);
      } else if (p->pat[p->pos] == '[' && p->pos + 1 < p->len && p->pat[p->pos + 1] == '.') {
        p->pos += 2;
        if (bracket_symbol(p, '.', &hi, &hraw) < 0) return -1;
      } else {
        hi = read_char(p, &hraw);
      }
      lastc = 0;
      if (lo > hi) return fail(p, RE_ERANGE);
      re_cset *s = &p->ast->sets[si];
      if (!p->utf8 || (lraw && hraw)) {
        for (uint32_t c = lo; c <= hi && c < 256; c++) re_bit_set(s->bits, c);
      } else {
        for (uint32_t c = lo; c <= hi && c < 0x80; c++) re_bit_set(s->bits, c);
        if (hi >= 0x80 && re_cset_add(s, lo < 0x80 ? 0x80 : lo, hi) < 0)
          return fail(p, RE_ECOMPNOMEM);
      }
      continue;
    }
    if (is_class) continue;
    if (cset_add_char(p, &p->ast->sets[si], lo, lraw) < 0) return -1;
  }
  (void)open;
  /* GNU grep: "[:space:]" is a mistake for "[[:space:]]". */
  if ((p->flags & RE_WARN) && !special && noncolon && p->pat[first] == ':' && lastc == ':' &&
      p->pos - first >= 3)
    return fail(p, RE_ECLASS);
  return finish_set(p, si, neg);
}

/* ---- intervals ------------------------------------------------------------------- */

/* pos is after "{" or "\{". Returns 1 with min/max parsed (pos after the
 * closing brace), 0 when this is not an interval (ERE: literal '{'), -1 on
 * error. */
static int parse_interval(parser *p, int *min, int *max) {
  size_t save = p->pos;
  long lo = -1, hi = -1;
  bool comma = false;
  while (p->pos < p->len && p->pat[p->pos] >= '0' && p->pat[p->pos] <= '9') {
    lo = (lo < 0 ? 0 : lo) * 10 + (p->pat[p->pos] - '0');
    if (lo > RE_MAX_DUP + 1) lo = RE_MAX_DUP + 1;
    p->pos++;
  }
  if (p->pos < p->len && p->pat[p->pos] == ',') {
    comma = true;
    p->pos++;
    while (p->pos < p->len && p->pat[p->pos] >= '0' && p->pat[p->pos] <= '9') {
      hi = (hi < 0 ? 0 : hi) * 10 + (p->pat[p->pos] - '0');
      if (hi > RE_MAX_DUP + 1) hi = RE_MAX_DUP + 1;
      p->pos++;
    }
  }
  bool closed = false;
  if (p->ere) {
    if (p->pos < p->len && p->pat[p->pos] == '}') {
      p->pos++;
      closed = true;
    }
  } else if (p->pos + 1 < p->len && p->pat[p->pos] == '\\' && p->pat[p->pos + 1] == '}') {
    p->pos += 2;
    closed = true;
  }
  if (!closed) {
    if (p->ere) {
      p->pos = save;
      return 0;
    }
    if (p->pos >= p->len || (p->pat[p->pos] == '\\' && p->pos + 1 >= p->len))
      return fail(p, RE_EBRACE);
    return fail(p, RE_BADBR);
  }
  if (lo < 0 && !comma) return fail(p, RE_BADBR);
  if (lo < 0) lo = 0;
  if (!comma) hi = lo;
  if (hi >= 0 && hi < lo) return fail(p, RE_BADBR);
  if (lo > RE_MAX_DUP || hi > RE_MAX_DUP) return fail(p, RE_ESIZE);
  *min = (int)lo;
  *max = (int)hi;
  return 1;
}

/* ---- grammar ------------------------------------------------------------------------- */

static int32_t parse_alt(parser *p);

static bool at_bre_branch_end(parser *p) {
  if (p->pos >= p->len) return true;
  if (p->pat[p->pos] == '\\' && p->pos + 1 < p->len &&
      (p->pat[p->pos + 1] == ')' || (p->gnu && p->pat[p->pos + 1] == '|')))
    return true;
  return false;
}

static int32_t assert_node(parser *p, int kind) {
  int32_t n = node_new(p, RN_ASSERT);
  if (n >= 0) N(p, n)->assert_kind = (uint8_t)kind;
  return n;
}

/* A group's body after its opening "(" or "\(", through the closing one. */
static int32_t parse_group(parser *p) {
  if (++p->depth > RE_MAX_DEPTH) return fail(p, RE_ESIZE);
  int g = ++p->ast->ngroups;
  if (g > RE_MAX_GROUPS) return fail(p, RE_ESIZE);
  int32_t inner = parse_alt(p);
  if (inner < 0) return -1;
  if (p->ere) {
    if (p->pos >= p->len || p->pat[p->pos] != ')') return fail(p, RE_EPAREN);
    p->pos++;
  } else {
    if (p->pos + 1 >= p->len || p->pat[p->pos] != '\\' || p->pat[p->pos + 1] != ')')
      return fail(p, RE_EPAREN);
    p->pos += 2;
  }
  p->depth--;
  if ((size_t)g < p->closed_cap) p->closed[g] = 1;
  int32_t n = node_new(p, RN_GROUP);
  if (n < 0) return -1;
  N(p, n)->group = g;
  N(p, n)->kid = inner;
  return n;
}

/* Parses one atom. *start tells whether we are at the start of a branch (in:
 * for the context rules; out: whether the next piece still is). Returns the
 * node, or -2 when there is no atom here (end of branch). */
static int32_t parse_atom(parser *p, bool *start) {
  unsigned char c = p->pat[p->pos];
  bool was_start = *start;
  bool was_bol = p->after_bol;
  *start = false;
  p->after_bol = false;
  if (p->ere) {
    switch (c) {
    case '|': return -2;
    case ')':
      if (p->depth > 0) return -2;
      if (!(p->flags & RE_WARN)) return fail(p, RE_ERPAREN);
      p->pos++;
      return char_node(p, ')', false);
    case '(':
      p->pos++;
      return parse_group(p);
    case '^':
      p->pos++;
      *start = true;
      return assert_node(p, RA_BOL);
    case '$':
      p->pos++;
      return assert_node(p, RA_EOL);
    case '*':
    case '+':
    case '?':
      /* Nothing to repeat: GNU ignores the operator. */
      if (c == '*') warn(p, "* at start of expression");
      else if (c == '+') warn(p, "+ at start of expression");
      else warn(p, "? at start of expression");
      p->pos++;
      *start = was_start;
      return node_new(p, RN_EMPTY);
    case '{': {
      p->pos++;
      int mn, mx;
      int r = parse_interval(p, &mn, &mx);
      if (r < 0) return -1;
      if (r == 1) {
        warn(p, "{...} at start of expression");
        *start = was_start;
        return node_new(p, RN_EMPTY);
      }
      return char_node(p, '{', false);
    }
    }
  } else {
    if (c == '*' && was_start) {
      p->pos++;
      return char_node(p, '*', false);
    }
    if (c == '^' && was_start && !was_bol) {
      p->pos++;
      *start = true;
      p->after_bol = true; /* a second ^ is literal; a * after it too */
      return assert_node(p, RA_BOL);
    }
    if (c == '$') {
      p->pos++;
      if (at_bre_branch_end(p)) return assert_node(p, RA_EOL);
      return char_node(p, '$', false);
    }
  }
  if (c == '[') {
    p->pos++;
    return parse_bracket(p);
  }
  if (c == '.') {
    p->pos++;
    return node_new(p, RN_ANY);
  }
  if (c == '\\') {
    if (p->pos + 1 >= p->len) {
      p->pos++;
      return fail(p, RE_EESCAPE);
    }
    unsigned char e = p->pat[p->pos + 1];
    if (!p->ere) {
      switch (e) {
      case '(':
        p->pos += 2;
        return parse_group(p);
      case ')':
        if (p->depth > 0) return -2;
        p->pos += 2;
        return fail(p, RE_ERPAREN);
      case '|':
        if (p->gnu) return -2;
        break;
      case '{':
        if (was_start) {
          p->pos += 2;
          return char_node(p, '{', false);
        }
        break;
      case '+':
      case '?':
        if (was_start && p->gnu) {
          p->pos += 2;
          return char_node(p, e, false);
        }
        break;
      }
    }
    if (e >= '1' && e <= '9') {
      int g = e - '0' + p->group_base;
      p->pos += 2;
      if (e - '0' > p->ast->ngroups - p->group_base || (size_t)g >= p->closed_cap ||
          !p->closed[g])
        return fail(p, RE_ESUBREG);
      int32_t n = node_new(p, RN_BACKREF);
      if (n < 0) return -1;
      N(p, n)->group = g;
      p->ast->backrefs = true;
      return n;
    }
    if (p->gnu) {
      switch (e) {
      case 'w': p->pos += 2; return class_set_node(p, "alnum", false, true);
      case 'W': p->pos += 2; return class_set_node(p, "alnum", true, true);
      case 's': p->pos += 2; return class_set_node(p, "space", false, false);
      case 'S': p->pos += 2; return class_set_node(p, "space", true, false);
      case 'b': p->pos += 2; return assert_node(p, RA_WORDB);
      case 'B': p->pos += 2; return assert_node(p, RA_NWORDB);
      case '<': p->pos += 2; return assert_node(p, RA_WBEG);
      case '>': p->pos += 2; return assert_node(p, RA_WEND);
      case '`': p->pos += 2; return assert_node(p, RA_BOT);
      case '\'': p->pos += 2; return assert_node(p, RA_EOT);
      }
    }
    p->pos++;
    bool raw;
    uint32_t ch = read_char(p, &raw);
    return char_node(p, ch, raw);
  }
  bool raw;
  uint32_t ch = read_char(p, &raw);
  return char_node(p, ch, raw);
}

/* Repetition operators after an atom. Returns the (possibly wrapped) node. */
static int32_t parse_repeats(parser *p, int32_t atom) {
  for (;;) {
    if (p->pos >= p->len) return atom;
    unsigned char c = p->pat[p->pos];
    int mn, mx;
    if (c == '*') {
      p->pos++;
      mn = 0, mx = -1;
    } else if (p->ere && c == '+') {
      p->pos++;
      mn = 1, mx = -1;
    } else if (p->ere && c == '?') {
      p->pos++;
      mn = 0, mx = 1;
    } else if (p->ere && c == '{') {
      p->pos++;
      int r = parse_interval(p, &mn, &mx);
      if (r < 0) return -1;
      if (r == 0) {
        p->pos--;
        return atom;
      }
    } else if (!p->ere && c == '\\' && p->pos + 1 < p->len) {
      unsigned char e = p->pat[p->pos + 1];
      if (e == '{') {
        p->pos += 2;
        if (parse_interval(p, &mn, &mx) < 0) return -1;
      } else if (p->gnu && e == '+') {
        p->pos += 2;
        mn = 1, mx = -1;
      } else if (p->gnu && e == '?') {
        p->pos += 2;
        mn = 0, mx = 1;
      } else {
        return atom;
      }
    } else {
      return atom;
    }
    int32_t r = node_new(p, RN_REPEAT);
    if (r < 0) return -1;
    N(p, r)->min = mn;
    N(p, r)->max = mx;
    N(p, r)->kid = atom;
    atom = r;
  }
}

static int32_t parse_branch(parser *p) {
  int32_t cat = node_new(p, RN_CAT);
  if (cat < 0) return -1;
  int32_t last = -1;
  bool start = true;
  while (p->pos < p->len) {
    int32_t a = parse_atom(p, &start);
    if (a == -2) break;
    if (a < 0) return -1;
    re_node *an = N(p, a);
    /* An anchor or an ignored operator does not take a repetition in BRE. */
    bool repeatable = !(an->type == RN_ASSERT && an->assert_kind == RA_BOL) &&
                      !(an->type == RN_EMPTY && p->ere);
    if (repeatable) {
      a = parse_repeats(p, a);
      if (a < 0) return -1;
    }
    add_kid(p, cat, &last, a);
  }
  return cat;
}

/* The length of the alternation bar at pos: 1 for ERE's `|`, 2 for GNU
 * BRE's `\|`, 0 when there is none. */
static size_t alt_bar_len(const parser *p) {
  if (p->pos >= p->len) return 0;
  if (p->ere) return p->pat[p->pos] == '|';
  return p->gnu && p->pat[p->pos] == '\\' && p->pos + 1 < p->len && p->pat[p->pos + 1] == '|'
             ? 2
             : 0;
}

static int32_t parse_alt(parser *p) {
  int32_t first = parse_branch(p);
  if (first < 0) return -1;
  if (alt_bar_len(p) == 0) return first;
  int32_t alt = node_new(p, RN_ALT);
  if (alt < 0) return -1;
  int32_t last = -1;
  add_kid(p, alt, &last, first);
  for (size_t bar; (bar = alt_bar_len(p)) > 0;) {
    p->pos += bar;
    int32_t b = parse_branch(p);
    if (b < 0) return -1;
    add_kid(p, alt, &last, b);
  }
  return alt;
}

/* Parses one segment [pos, len) as a full regex. */
static int32_t parse_top(parser *p) {
  int32_t r = parse_alt(p);
  if (r < 0) return -1;
  if (p->pos < p->len) {
    /* Only a stray close paren can stop parse_alt at depth 0. */
    if (p->ere) return fail(p, RE_ERPAREN);
    return fail(p, RE_ERPAREN);
  }
  return r;
}

static int32_t literal_segment(parser *p) {
  int32_t cat = node_new(p, RN_CAT);
  if (cat < 0) return -1;
  int32_t last = -1;
  while (p->pos < p->len) {
    bool raw;
    uint32_t ch = read_char(p, &raw);
    int32_t a = char_node(p, ch, raw);
    if (a < 0) return -1;
    add_kid(p, cat, &last, a);
  }
  return cat;
}

/* grep -x / -w: CAT(assert, GROUPLESS(r), assert) without a new group. */
static int32_t wrap_whole(parser *p, int32_t r) {
  bool line = (p->flags & RE_WHOLE_LINE) != 0;
  int32_t cat = node_new(p, RN_CAT);
  if (cat < 0) return -1;
  int32_t a = assert_node(p, line ? RA_BOL : RA_NOWORD_BEFORE);
  if (a < 0) return -1;
  int32_t b = assert_node(p, line ? RA_EOL : RA_NOWORD_AFTER);
  if (b < 0) return -1;
  int32_t last = -1;
  add_kid(p, cat, &last, a);
  add_kid(p, cat, &last, r);
  add_kid(p, cat, &last, b);
  return cat;
}

int re_parse(re_ast *ast, const unsigned char *pat, size_t len, unsigned flags, re_err *err) {
  memset(ast, 0, sizeof *ast);
  ast->root = -1;
  parser p = {0};
  p.pat = pat;
  p.flags = flags;
  p.ere = (flags & RE_EXTENDED) != 0;
  p.utf8 = (flags & RE_UTF8) != 0;
  p.icase = (flags & RE_NOCASE) != 0;
  p.gnu = !(flags & RE_POSIX);
  p.ast = ast;
  p.err = err;
  /* Upper bound on the number of groups: one per '(' in the pattern. */
  p.closed_cap = 2;
  for (size_t i = 0; i < len; i++) p.closed_cap += pat[i] == '(';
  p.closed = calloc(p.closed_cap, 1);
  if (!p.closed) {
    re_set_error(err, RE_ECOMPNOMEM, 0);
    return RE_ECOMPNOMEM;
  }
  int32_t root = -1, last = -1;
  size_t seg = 0;
  int nseg = 0;
  for (;;) {
    size_t end = len;
    if (flags & RE_NLALT) {
      const unsigned char *nl = memchr(pat + seg, '\n', len - seg);
      if (nl) end = (size_t)(nl - pat);
    }
    p.pos = seg;
    p.len = end;
    p.group_base = ast->ngroups;
    int32_t r = (flags & RE_LITERAL) ? literal_segment(&p) : parse_top(&p);
    if (r < 0) break;
    if (flags & (RE_WHOLE_LINE | RE_WHOLE_WORD)) r = wrap_whole(&p, r);
    if (r < 0) break;
    nseg++;
    if (end == len && nseg == 1) {
      root = r;
      break;
    }
    if (root < 0) {
      root = node_new(&p, RN_ALT);
      if (root < 0) break;
    }
    add_kid(&p, root, &last, r);
    if (end == len) break;
    seg = end + 1;
  }
  free(p.closed);
  if (p.code) {
    re_ast_free(ast);
    return p.code;
  }
  ast->root = root;
  return 0;
}

void re_ast_free(re_ast *ast) {
  for (size_t i = 0; i < ast->nsets; i++) re_cset_free(&ast->sets[i]);
  free(ast->sets);
  free(ast->nodes);
  memset(ast, 0, sizeof *ast);
  ast->root = -1;
}
