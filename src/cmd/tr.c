/*
 * tr - translate, squeeze, and/or delete characters.
 *
 *   Usage: tr [OPTION]... STRING1 [STRING2]
 *   -c, -C, --complement   use the complement of STRING1
 *   -d, --delete           delete characters in STRING1
 *   -s, --squeeze-repeats  replace each run of a repeated character of the
 *                          last given set with one occurrence
 *   -t, --truncate-set1    first truncate STRING1 to the length of STRING2
 *   Sets: CHAR, \NNN, \\ \a \b \f \n \r \t \v, CHAR1-CHAR2, [CHAR*], [CHAR*REPEAT],
 *   [:alnum:] [:alpha:] [:blank:] [:cntrl:] [:digit:] [:graph:] [:lower:]
 *   [:print:] [:punct:] [:space:] [:upper:] [:xdigit:], [=CHAR=].
 *
 * Design: like GNU tr (which is byte-oriented even in UTF-8 locales), each
 * STRING is unescaped into bytes with an "escaped" flag per byte, parsed into
 * a list of elements (char, range, class, equivalence, repeat), validated with
 * GNU's rules and messages, and compiled into 256-entry tables (translate,
 * delete, squeeze). Filtering is then one table lookup per byte over 64 KiB
 * blocks. Classes are those of the C.UTF-8 locale for single bytes (ASCII).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/lib/gnu.h"

CMD_DEFINE("tr", cmd_tr_main);

#define TR_BLOCK 65536

static const char tr_usage[] =
    "Usage: tr [OPTION]... STRING1 [STRING2]\n"
    "Translate, squeeze, and/or delete characters from standard input,\n"
    "writing to standard output.  STRING1 and STRING2 specify arrays of\n"
    "characters ARRAY1 and ARRAY2 that control the action.\n"
    "\n"
    "  -c, -C, --complement    use the complement of ARRAY1\n"
    "  -d, --delete            delete characters in ARRAY1, do not translate\n"
    "  -s, --squeeze-repeats   replace each sequence of a repeated character\n"
    "                            that is listed in the last specified ARRAY,\n"
    "                            with a single occurrence of that character\n"
    "  -t, --truncate-set1     first truncate ARRAY1 to length of ARRAY2\n"
    CMD_HELP_VERSION_LINES
    "\n"
    "ARRAYs are specified as strings of characters.  Most represent themselves.\n"
    "Interpreted sequences are:\n"
    "\n"
    "  \\NNN            character with octal value NNN (1 to 3 octal digits)\n"
    "  \\\\              backslash\n"
    "  \\a              audible BEL\n"
    "  \\b              backspace\n"
    "  \\f              form feed\n"
    "  \\n              new line\n"
    "  \\r              return\n"
    "  \\t              horizontal tab\n"
    "  \\v              vertical tab\n"
    "  CHAR1-CHAR2     all characters from CHAR1 to CHAR2 in ascending order\n"
    "  [CHAR*]         in ARRAY2, copies of CHAR until length of ARRAY1\n"
    "  [CHAR*REPEAT]   REPEAT copies of CHAR, REPEAT octal if starting with 0\n"
    "  [:alnum:]       all letters and digits\n"
    "  [:alpha:]       all letters\n"
    "  [:blank:]       all horizontal whitespace\n"
    "  [:cntrl:]       all control characters\n"
    "  [:digit:]       all digits\n"
    "  [:graph:]       all printable characters, not including space\n"
    "  [:lower:]       all lower case letters\n"
    "  [:print:]       all printable characters, including space\n"
    "  [:punct:]       all punctuation characters\n"
    "  [:space:]       all horizontal or vertical whitespace\n"
    "  [:upper:]       all upper case letters\n"
    "  [:xdigit:]      all hexadecimal digits\n"
    "  [=CHAR=]        all characters which are equivalent to CHAR\n"
    "\n"
    "Translation occurs if -d is not given and both ARRAY1 and ARRAY2 appear.\n"
    "-t may be used only when translating.  ARRAY2 is extended to length of\n"
    "ARRAY1 by repeating its last character as necessary.  Excess characters\n"
    "of ARRAY2 are ignored.  Character classes expand in unspecified order;\n"
    "while translating, [:lower:] and [:upper:] may be used in pairs to\n"
    "specify case conversion.  Squeezing occurs after translation or deletion.\n";

enum tr_class {
  CC_ALNUM, CC_ALPHA, CC_BLANK, CC_CNTRL, CC_DIGIT, CC_GRAPH, CC_LOWER,
  CC_PRINT, CC_PUNCT, CC_SPACE, CC_UPPER, CC_XDIGIT
};
static const char *const tr_class_names[] = {"alnum", "alpha", "blank", "cntrl",
                                             "digit", "graph", "lower", "print",
                                             "punct", "space", "upper", "xdigit"};

static bool tr_in_class(enum tr_class k, unsigned c) {
  bool up = c >= 'A' && c <= 'Z', lo = c >= 'a' && c <= 'z', dg = c >= '0' && c <= '9';
  bool print = c >= 0x20 && c < 0x7f;
  switch (k) {
  case CC_ALNUM: return up || lo || dg;
  case CC_ALPHA: return up || lo;
  case CC_BLANK: return c == ' ' || c == '\t';
  case CC_CNTRL: return c < 0x20 || c == 0x7f;
  case CC_DIGIT: return dg;
  case CC_GRAPH: return print && c != ' ';
  case CC_LOWER: return lo;
  case CC_PRINT: return print;
  case CC_PUNCT: return print && c != ' ' && !up && !lo && !dg;
  case CC_SPACE: return c == ' ' || (c >= '\t' && c <= '\r');
  case CC_UPPER: return up;
  case CC_XDIGIT: return dg || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
  }
  return false;
}

enum tr_etype { E_CHAR, E_RANGE, E_CLASS, E_EQUIV, E_REPEAT };

typedef struct tr_elem {
  enum tr_etype type;
  unsigned char a, b;    /* char / range ends / repeated char */
  enum tr_class cls;     /* E_CLASS */
  uintmax_t count;       /* E_REPEAT: copies; 0 = fill ([c*]) */
} tr_elem;

typedef struct tr_set {
  tr_elem *e;            /* elements (arena) */
  size_t n;              /* element count */
  uintmax_t length;      /* bytes the set expands to */
  size_t n_fill;         /* [c*] elements */
  bool has_class;        /* any character class */
  bool has_equiv;        /* any [=c=] */
  bool has_restricted;   /* a class other than upper/lower */
  /* Iteration state for tr_next. */
  size_t cur;            /* element index */
  uintmax_t pos;         /* position inside the element */
  cmd_ctx *ctx;          /* polled while iterating ([a*9223372036854775807]) */
  uint32_t steps;        /* bytes handed out since the last poll */
  bool stopped;          /* the call was stopped: the set reads as ended */
} tr_set;

/* Unescapes s into bytes + escaped flags. Prints GNU's warnings. */
static size_t tr_unescape(cmd_ctx *ctx, const char *s, unsigned char *out, bool *esc) {
  size_t j = 0;
  for (size_t i = 0; s[i]; i++) {
    if (s[i] != '\\') {
      out[j] = (unsigned char)s[i];
      esc[j++] = false;
      continue;
    }
    unsigned c;
    switch (s[i + 1]) {
    case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7':
      c = (unsigned)(s[i + 1] - '0');
      if (s[i + 2] >= '0' && s[i + 2] <= '7') {
        c = c * 8 + (unsigned)(s[i + 2] - '0');
        i++;
        if (s[i + 2] >= '0' && s[i + 2] <= '7') {
          if (c * 8 + (unsigned)(s[i + 2] - '0') < 256) {
            c = c * 8 + (unsigned)(s[i + 2] - '0');
            i++;
          } else {
            cmd_errorf(ctx, "warning: the ambiguous octal escape \\%c%c%c is being\n"
                            "\tinterpreted as the 2-byte sequence \\0%c%c, %c",
                       s[i], s[i + 1], s[i + 2], s[i], s[i + 1], s[i + 2]);
          }
        }
      }
      break;
    case '\0':
      cmd_errorf(ctx, "warning: an unescaped backslash at end of string is not portable");
      out[j] = '\\';
      esc[j++] = false;
      continue;
    default: { /* \a \b \f \n \r \t \v, else the letter itself (\\ too) */
      int byte = cmd_c_unescape((unsigned char)s[i + 1]);
      c = byte >= 0 ? (unsigned)byte : (unsigned char)s[i + 1];
      break;
    }
    }
    i++;
    out[j] = (unsigned char)c;
    esc[j++] = true;
  }
  return j;
}

/* GNU's make_printable_str (escapes for messages). */
static const char *tr_printable(cmd_ctx *ctx, const unsigned char *s, size_t n) {
  char *o = cmd_alloc(ctx, n * 4 + 1), *p = o;
  if (!o) return "";
  for (size_t i = 0; i < n; i++) {
    unsigned c = s[i];
    const char *e = c == '\\' ? "\\\\" : cmd_c_escape(c);
    if (e) {
      memcpy(p, e, 2);
      p += 2;
    } else if (c >= 0x20 && c < 0x7f) {
      *p++ = (char)c;
    } else {
      p += sprintf(p, "\\%03o", c);
    }
  }
  *p = 0;
  return o;
}

static const char *tr_printable_char(cmd_ctx *ctx, unsigned c) {
  char *o = cmd_alloc(ctx, 5);
  if (!o) return "";
  if (c >= 0x20 && c < 0x7f) o[0] = (char)c;
  else sprintf(o, "\\%03o", c);
  return o;
}

static bool es_match(const unsigned char *s, const bool *esc, size_t len, size_t i, int c) {
  return i < len && s[i] == c && !esc[i];
}

/* [c*n] at s[start..]: 0 found, -1 not this construct, -2 error printed. */
static int tr_find_repeat(cmd_ctx *ctx, const unsigned char *s, const bool *esc, size_t len,
                          size_t start, unsigned char *ch, uintmax_t *count, size_t *close) {
  if (start + 1 >= len || !es_match(s, esc, len, start + 1, '*')) return -1;
  for (size_t i = start + 2; i < len && !esc[i]; i++) {
    if (s[i] != ']') continue;
    size_t ndig = i - start - 2;
    *ch = s[start];
    if (ndig == 0) {
      *count = 0;
    } else {
      const unsigned char *d = s + start + 2;
      int base = d[0] == '0' ? 8 : 10;
      uintmax_t v = 0;
      bool ok = true;
      for (size_t k = 0; k < ndig; k++) {
        unsigned dv = d[k] >= '0' && d[k] <= '9' ? (unsigned)(d[k] - '0') : 99;
        if (dv >= (unsigned)base || v > (UINTMAX_MAX - dv) / (uintmax_t)base) {
          ok = false;
          break;
        }
        v = v * (uintmax_t)base + dv;
      }
      if (!ok || v > SIZE_MAX) {
        cmd_errorf(ctx, "invalid repeat count %s in [c*n] construct",
                   cmd_gnu_quote(ctx, tr_printable(ctx, d, ndig)));
        return -2;
      }
      *count = v;
    }
    *close = i;
    return 0;
  }
  return -1;
}

/* Parses one STRING into set. Returns 0, or 1 after printing an error. */
static int tr_parse(cmd_ctx *ctx, const char *arg, tr_set *set) {
  size_t alen = strlen(arg);
  unsigned char *s = cmd_alloc(ctx, alen + 1);
  bool *esc = cmd_alloc(ctx, alen + 1);
  set->e = cmd_alloc(ctx, (alen + 1) * sizeof *set->e);
  if (!s || !esc || !set->e) return 1;
  size_t len = tr_unescape(ctx, arg, s, esc);
  set->n = 0;
  for (size_t i = 0; i < len;) {
    tr_elem *el = &set->e[set->n];
    memset(el, 0, sizeof *el);
    if (s[i] == '[' && !esc[i] && i + 1 < len) {
      unsigned char k = s[i + 1];
      if ((k == ':' || k == '=') && !esc[i + 1]) {
        size_t close = 0;
        bool found = false;
        for (size_t j = i + 2; j + 1 < len; j++) {
          if (s[j] == k && s[j + 1] == ']' && !esc[j] && !esc[j + 1]) {
            close = j;
            found = true;
            break;
          }
        }
        if (found) {
          const unsigned char *name = s + i + 2;
          size_t nlen = close - (i + 2);
          if (k == ':') {
            if (nlen == 0) {
              cmd_errorf(ctx, "missing character class name '[::]'");
              return 1;
            }
            int ci = -1;
            for (int c = 0; c < 12; c++)
              if (strlen(tr_class_names[c]) == nlen && memcmp(tr_class_names[c], name, nlen) == 0)
                ci = c;
            if (ci < 0) {
              cmd_errorf(ctx, "invalid character class %s",
                         cmd_gnu_quote_n(ctx, (const char *)name, (long)nlen));
              return 1;
            }
            el->type = E_CLASS;
            el->cls = (enum tr_class)ci;
          } else {
            if (nlen == 0) {
              cmd_errorf(ctx, "missing equivalence class character '[==]'");
              return 1;
            }
            if (nlen != 1) {
              cmd_errorf(ctx, "%s: equivalence class operand must be a single character",
                         tr_printable(ctx, name, nlen));
              return 1;
            }
            el->type = E_EQUIV;
            el->a = name[0];
          }
          set->n++;
          i = close + 2;
          continue;
        }
      }
      unsigned char ch;
      uintmax_t count;
      size_t close;
      int r = tr_find_repeat(ctx, s, esc, len, i + 1, &ch, &count, &close);
      if (r == -2) return 1;
      if (r == 0) {
        el->type = E_REPEAT;
        el->a = ch;
        el->count = count;
        set->n++;
        i = close + 1;
        continue;
      }
    }
    if (i + 2 < len && s[i + 1] == '-' && !esc[i + 1]) {
      if (s[i + 2] < s[i]) {
        cmd_errorf(ctx, "range-endpoints of '%s-%s' are in reverse collating sequence order",
                   tr_printable_char(ctx, s[i]), tr_printable_char(ctx, s[i + 2]));
        return 1;
      }
      el->type = E_RANGE;
      el->a = s[i];
      el->b = s[i + 2];
      set->n++;
      i += 3;
      continue;
    }
    el->type = E_CHAR;
    el->a = s[i];
    set->n++;
    i++;
  }
  return 0;
}

static uintmax_t tr_class_size(enum tr_class k) {
  uintmax_t n = 0;
  for (unsigned c = 0; c < 256; c++) n += tr_in_class(k, c);
  return n;
}

/* Lengths and flags (GNU's get_spec_stats); fill repeats count 0 here. */
static void tr_stats(tr_set *set) {
  set->length = 0;
  set->n_fill = 0;
  set->has_class = set->has_equiv = set->has_restricted = false;
  for (size_t i = 0; i < set->n; i++) {
    tr_elem *e = &set->e[i];
    uintmax_t add = 0;
    switch (e->type) {
    case E_CHAR: case E_EQUIV: add = 1; set->has_equiv |= e->type == E_EQUIV; break;
    case E_RANGE: add = (uintmax_t)(e->b - e->a) + 1; break;
    case E_CLASS:
      add = tr_class_size(e->cls);
      set->has_class = true;
      if (e->cls != CC_UPPER && e->cls != CC_LOWER) set->has_restricted = true;
      break;
    case E_REPEAT:
      if (e->count == 0) set->n_fill++;
      else add = e->count;
      break;
    }
    set->length = set->length + add < set->length ? UINTMAX_MAX : set->length + add;
  }
}

/* Upper/lower class of the element being iterated (for case conversion). */
enum { UL_NONE, UL_LOWER, UL_UPPER };

static void tr_rewind(tr_set *set) {
  set->cur = 0;
  set->pos = 0;
}

/* The next byte of the set, or -1 at the end; *ul tells the class kind and
 * *fresh whether this byte starts a new element. */
static int tr_next(tr_set *set, int *ul, bool *fresh) {
  if (ul) *ul = UL_NONE;
  /* A repeat count can make a set as long as 2^64 bytes: every loop over a
   * set comes through here, so here is where the deadline is seen. */
  if (++set->steps == 65536) {
    set->steps = 0;
    if (set->ctx && cmd_poll(set->ctx)) set->stopped = true;
  }
  if (set->stopped) return -1;
  while (set->cur < set->n) {
    tr_elem *e = &set->e[set->cur];
    if (fresh) *fresh = set->pos == 0;
    switch (e->type) {
    case E_CHAR: case E_EQUIV:
      set->cur++;
      set->pos = 0;
      return e->a;
    case E_RANGE: {
      unsigned c = e->a + (unsigned)set->pos;
      if (c == e->b) {
        set->cur++;
        set->pos = 0;
      } else {
        set->pos++;
      }
      return (int)c;
    }
    case E_CLASS: {
      if (ul) *ul = e->cls == CC_LOWER ? UL_LOWER : e->cls == CC_UPPER ? UL_UPPER : UL_NONE;
      unsigned c = (unsigned)set->pos;
      while (c < 256 && !tr_in_class(e->cls, c)) c++;
      if (c >= 256) {
        set->cur++;
        set->pos = 0;
        continue;
      }
      set->pos = c + 1;
      return (int)c;
    }
    case E_REPEAT:
      if (set->pos >= e->count) {
        set->cur++;
        set->pos = 0;
        continue;
      }
      set->pos++;
      return e->a;
    }
  }
  return -1;
}

/* Skips the rest of the current element (after its first byte). */
static void tr_skip_element(tr_set *set) {
  if (set->cur < set->n && set->pos > 0) {
    set->cur++;
    set->pos = 0;
  }
}

/* After a byte of a repeat: the rest of it is the same byte, so a caller
 * that wants each byte once skips it ([a*9999999999999] is one step). */
static void tr_skip_rest_of_repeat(tr_set *set) {
  if (set->cur < set->n && set->e[set->cur].type == E_REPEAT) tr_skip_element(set);
}

/* Two sets walked in step: while both are inside a repeat every pair ahead is
 * the same, so all but the last of them are skipped. */
static void tr_skip_repeat_pairs(tr_set *a, tr_set *b) {
  if (a->cur >= a->n || b->cur >= b->n) return;
  tr_elem *ea = &a->e[a->cur], *eb = &b->e[b->cur];
  if (ea->type != E_REPEAT || eb->type != E_REPEAT || a->pos >= ea->count || b->pos >= eb->count)
    return;
  uintmax_t ra = ea->count - a->pos, rb = eb->count - b->pos;
  uintmax_t k = ra < rb ? ra : rb;
  if (k > 1) {
    a->pos += k - 1;
    b->pos += k - 1;
  }
}

static void tr_members(tr_set *set, bool *in) {
  memset(in, 0, 256 * sizeof *in);
  tr_rewind(set);
  for (int c; (c = tr_next(set, NULL, NULL)) != -1; tr_skip_rest_of_repeat(set)) in[c] = true;
}

static int tr_die(cmd_ctx *ctx, const char *msg) {
  cmd_errorf(ctx, "%s", msg);
  return 1;
}

/* GNU's validate(): returns 0 or 1 after printing the error. */
static int tr_validate(cmd_ctx *ctx, tr_set *s1, tr_set *s2, bool translating,
                       bool complement, bool truncate) {
  tr_stats(s1);
  if (s1->n_fill > 0) return tr_die(ctx, "the [c*] repeat construct may not appear in string1");
  if (complement) {
    bool in[256];
    tr_members(s1, in);
    uintmax_t n = 0;
    for (int c = 0; c < 256; c++) n += !in[c];
    s1->length = n;
  }
  if (!s2) return 0;
  tr_stats(s2);
  if (s2->n_fill > 1) return tr_die(ctx, "only one [c*] repeat construct may appear in string2");
  if (!translating) {
    if (s2->n_fill > 0)
      return tr_die(ctx, "the [c*] construct may appear in string2 only when translating");
    return 0;
  }
  if (s2->has_equiv)
    return tr_die(ctx, "[=c=] expressions may not appear in string2 when translating");
  if (s2->has_restricted)
    return tr_die(ctx, "when translating, the only character classes that may appear in\n"
                       "string2 are 'upper' and 'lower'");
  /* A fill repeat takes what string1 has beyond string2's other bytes. */
  if (s2->n_fill) {
    uintmax_t fill = s1->length > s2->length ? s1->length - s2->length : 0;
    for (size_t i = 0; i < s2->n; i++)
      if (s2->e[i].type == E_REPEAT && s2->e[i].count == 0) {
        s2->e[i].count = fill;
        s2->e[i].type = fill ? E_REPEAT : E_REPEAT;
      }
    s2->length += fill;
  }
  /* Case classes in string2 must start where string1's do. */
  if (!complement && s2->has_class) {
    tr_rewind(s1);
    tr_rewind(s2);
    for (;;) {
      int u1, u2;
      bool f1 = false, f2 = false;
      tr_skip_repeat_pairs(s1, s2);
      int c1 = tr_next(s1, &u1, &f1), c2 = tr_next(s2, &u2, &f2);
      if (c1 == -1 || c2 == -1) break;
      if (f2 && u2 != UL_NONE && !(f1 && u1 != UL_NONE))
        return tr_die(ctx, "misaligned [:upper:] and/or [:lower:] construct");
      if (u2 != UL_NONE) {
        tr_skip_element(s1);
        tr_skip_element(s2);
      }
    }
  }
  if (s1->length > s2->length && !truncate) {
    if (s2->length == 0)
      return tr_die(ctx, "when not truncating set1, string2 must be non-empty");
    /* Extend string2 with its last byte. */
    tr_elem *tail = NULL;
    for (size_t i = s2->n; i-- > 0;)
      if (!(s2->e[i].type == E_REPEAT && s2->e[i].count == 0)) {
        tail = &s2->e[i];
        break;
      }
    unsigned char last;
    switch (tail->type) {
    case E_CHAR: last = tail->a; break;
    case E_RANGE: last = tail->b; break;
    case E_REPEAT: last = tail->a; break;
    default:
      return tr_die(ctx, "when translating with string1 longer than string2,\n"
                         "the latter string must not end with a character class");
    }
    tr_elem *ne = &s2->e[s2->n++];
    memset(ne, 0, sizeof *ne);
    ne->type = E_REPEAT;
    ne->a = last;
    ne->count = s1->length - s2->length;
    s2->length = s1->length;
  }
  if (complement && s1->has_class) {
    bool homogeneous = true;
    int first = -2;
    tr_rewind(s2);
    for (int c; (c = tr_next(s2, NULL, NULL)) != -1; tr_skip_rest_of_repeat(s2)) {
      if (first == -2) first = c;
      else if (c != first) {
        homogeneous = false;
        break;
      }
    }
    if (!(s2->length == s1->length && homogeneous))
      return tr_die(ctx, "when translating with complemented character classes,\n"
                         "string2 must map all characters in the domain to one");
  }
  return 0;
}

int cmd_tr_main(cmd_ctx *ctx, int argc, char **argv) {
  cmd_getopt_state g = CMD_GETOPT_INIT;
  int rc = cmd_getopt_all(
      ctx, &g, argc, argv,
      "+(help)(version)c(complement)Cd(delete)s(squeeze-repeats)t(truncate-set1)", tr_usage);
  if (rc >= 0) return rc;
  bool complement = cmd_opt_on(&g, 'c') || cmd_opt_on(&g, 'C'), del = cmd_opt_on(&g, 'd');
  bool squeeze = cmd_opt_on(&g, 's'), truncate = cmd_opt_on(&g, 't');
  int nargs = argc - g.ind;
  bool translating = nargs == 2 && !del;
  int min_ops = 1 + (del == squeeze), max_ops = 1 + (del <= squeeze);
  if (nargs < min_ops) {
    if (nargs == 0) {
      cmd_errorf(ctx, "missing operand");
    } else {
      cmd_errorf(ctx, "missing operand after %s", cmd_gnu_quote(ctx, argv[argc - 1]));
      cmd_err_raw(ctx, "%s\n", squeeze ? "Two strings must be given when both deleting and "
                                         "squeezing repeats."
                                       : "Two strings must be given when translating.");
    }
    return cmd_usage_hint(ctx, 1);
  }
  if (nargs > max_ops) {
    cmd_errorf(ctx, "extra operand %s", cmd_gnu_quote(ctx, argv[g.ind + max_ops]));
    if (nargs == 2)
      cmd_err_raw(ctx, "Only one string may be given when deleting without squeezing "
                       "repeats.\n");
    return cmd_usage_hint(ctx, 1);
  }
  tr_set s1 = {.ctx = ctx}, s2 = {.ctx = ctx};
  if (tr_parse(ctx, argv[g.ind], &s1)) return 1;
  if (nargs == 2 && tr_parse(ctx, argv[g.ind + 1], &s2)) return 1;
  if (tr_validate(ctx, &s1, nargs == 2 ? &s2 : NULL, translating, complement, truncate))
    return 1;

  /* Compile the tables. */
  unsigned char xlate[256];
  bool delete_set[256] = {0}, squeeze_set[256] = {0};
  for (int i = 0; i < 256; i++) xlate[i] = (unsigned char)i;
  bool in1[256];
  tr_members(&s1, in1);
  if (complement)
    for (int i = 0; i < 256; i++) in1[i] = !in1[i];
  if (del) memcpy(delete_set, in1, sizeof delete_set);
  if (squeeze) {
    if (nargs == 2) tr_members(&s2, squeeze_set);
    else memcpy(squeeze_set, in1, sizeof squeeze_set);
  }
  if (translating) {
    if (complement) {
      tr_rewind(&s2);
      for (int i = 0; i < 256; i++) {
        if (!in1[i]) continue;
        int ch = tr_next(&s2, NULL, NULL);
        if (ch == -1) break;
        xlate[i] = (unsigned char)ch;
      }
    } else {
      tr_rewind(&s1);
      tr_rewind(&s2);
      for (;;) {
        int u1, u2;
        tr_skip_repeat_pairs(&s1, &s2);
        int c1 = tr_next(&s1, &u1, NULL), c2 = tr_next(&s2, &u2, NULL);
        if (u1 == UL_LOWER && u2 == UL_UPPER) {
          for (int i = 'a'; i <= 'z'; i++) xlate[i] = (unsigned char)(i - 32);
        } else if (u1 == UL_UPPER && u2 == UL_LOWER) {
          for (int i = 'A'; i <= 'Z'; i++) xlate[i] = (unsigned char)(i + 32);
        } else {
          if (c1 == -1 || c2 == -1) break;
          xlate[c1] = (unsigned char)c2;
        }
        if (u2 != UL_NONE) {
          tr_skip_element(&s1);
          tr_skip_element(&s2);
        }
      }
    }
  }

  if (s1.stopped || s2.stopped) return 1; /* the call's deadline or cancel */

  /* Filter stdin. */
  unsigned char *buf = cmd_alloc(ctx, TR_BLOCK), *out = cmd_alloc(ctx, TR_BLOCK);
  if (!buf || !out) return 1;
  int last = -1; /* last byte written, for squeezing */
  for (;;) {
    if (cmd_poll(ctx)) return 1;
    ssize_t n = ctx->io->read(ctx->io_ud, 0, buf, TR_BLOCK);
    if (n == -EINTR) continue;
    if (n < 0) {
      cmd_errorf(ctx, "read error: %s", cmd_strerror((int)n));
      return 1;
    }
    if (n == 0) break;
    size_t k = 0;
    if (!del && !squeeze) {
      for (ssize_t i = 0; i < n; i++) out[i] = xlate[buf[i]];
      k = (size_t)n;
    } else {
      for (ssize_t i = 0; i < n; i++) {
        unsigned ch = buf[i];
        if (del && delete_set[ch]) continue;
        ch = xlate[ch];
        if (squeeze && squeeze_set[ch] && (int)ch == last) continue;
        out[k++] = (unsigned char)ch;
        last = (int)ch;
      }
    }
    if (k && cmd_out(ctx, out, k) < 0) return cmd_write_error(ctx, ctx->out_err);
  }
  return 0;
}
