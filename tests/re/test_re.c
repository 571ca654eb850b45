/*
 * test_re.c - the regex engine (src/re): a table of (pattern, flags, subject)
 * with the expected leftmost-longest span and submatches, compile errors with
 * GNU's messages, the bounds (pathological patterns end fast or with
 * RE_ELIMIT), cancellation, NUL bytes, UTF-8, start offsets and PCRE2.
 * Expectations were checked against glibc's regexec and GNU grep/sed.
 */
#include <stdbool.h>
#include <time.h>

#include "harness.h"
#include "re/re.h"

#define E RE_EXTENDED
#define I RE_NOCASE
#define U RE_UTF8
#define NL RE_NEWLINE

typedef struct mcase {
  const char *pat;   /* pattern (NUL-terminated) */
  unsigned flags;    /* compile flags */
  const char *subj;  /* subject */
  size_t slen;       /* subject length, 0 = strlen */
  size_t start;      /* start offset */
  unsigned eflags;   /* exec flags */
  const char *want;  /* "(so,eo)..." for group 0..nsub, or "-" for no match */
} mcase;

static const mcase cases[] = {
    /* literals and basics */
    {"abc", 0, "xxabcxx", 0, 0, 0, "(2,5)"},
    {"abc", 0, "ab", 0, 0, 0, "-"},
    {"", 0, "abc", 0, 0, 0, "(0,0)"},
    {"", 0, "", 0, 0, 0, "(0,0)"},
    {"a.c", 0, "abc", 0, 0, 0, "(0,3)"},
    {"a\\.c", 0, "abc a.c", 0, 0, 0, "(4,7)"},
    {"a*", 0, "baaa", 0, 0, 0, "(0,0)"},
    {"a*b", 0, "xaaab", 0, 0, 0, "(1,5)"},
    {"a\\+", 0, "baaa", 0, 0, 0, "(1,4)"},
    {"a\\?b", 0, "cab", 0, 0, 0, "(1,3)"},
    {"a+", E, "baaa", 0, 0, 0, "(1,4)"},
    {"a+", 0, "a+", 0, 0, 0, "(0,2)"},
    {"ab?c", E, "ac abc", 0, 0, 0, "(0,2)"},
    {"a|b|c", E, "xxc", 0, 0, 0, "(2,3)"},
    {"a\\|b", 0, "xb", 0, 0, 0, "(1,2)"},
    {"a|b", 0, "a|b", 0, 0, 0, "(0,3)"},
    /* leftmost-longest */
    {"a|ab|abc", E, "abcd", 0, 0, 0, "(0,3)"},
    {"(a|ab)(c|bcd)(d*)", E, "abcd", 0, 0, 0, "(0,4)(0,1)(1,4)(4,4)"},
    {"(wee|week)(knights|night)", E, "weeknights", 0, 0, 0, "(0,10)(0,3)(3,10)"},
    {"(a|ab)(bc|c)", E, "abc", 0, 0, 0, "(0,3)(0,1)(1,3)"},
    {"x*", E, "xxxa", 0, 0, 0, "(0,3)"},
    {"b*|a", E, "abbb", 0, 0, 0, "(0,1)"},
    {"(.*)c(.*)", E, "abcdcef", 0, 0, 0, "(0,7)(0,4)(5,7)"},
    {"abcd|c", E, "abcd", 0, 0, 0, "(0,4)"},
    {"bc|abcd", E, "xabcd", 0, 0, 0, "(1,5)"},
    /* groups and repetition */
    {"\\(a*\\)*", 0, "aaa", 0, 0, 0, "(0,3)(0,3)"},
    {"\\(a*\\)*", 0, "b", 0, 0, 0, "(0,0)(0,0)"},
    {"(a|b)*", E, "abab", 0, 0, 0, "(0,4)(3,4)"},
    {"(a|b)*", E, "", 0, 0, 0, "(0,0)(-1,-1)"},
    {"((a)|b)*", E, "ab", 0, 0, 0, "(0,2)(1,2)(0,1)"},
    {"((a)|(b))*", E, "ab", 0, 0, 0, "(0,2)(1,2)(0,1)(1,2)"},
    {"(a*)*(b)", E, "aab", 0, 0, 0, "(0,3)(0,2)(2,3)"},
    {"(a*)+", E, "b", 0, 0, 0, "(0,0)(0,0)"},
    {"(.?)*", E, "ab", 0, 0, 0, "(0,2)(1,2)"},
    {"(a?)((ab)?)(b?)", E, "ab", 0, 0, 0, "(0,2)(0,1)(1,1)(-1,-1)(1,2)"},
    {"x(a|b)*y", E, "xababy", 0, 0, 0, "(0,6)(4,5)"},
    {"(a|aa)*c", E, "aaaaac", 0, 0, 0, "(0,6)(4,5)"},
    {"a{2}", E, "aaa", 0, 0, 0, "(0,2)"},
    {"a{2,}", E, "aaaa", 0, 0, 0, "(0,4)"},
    {"a{,2}", E, "aaaa", 0, 0, 0, "(0,2)"},
    {"a{1,3}b", E, "aaaab", 0, 0, 0, "(1,5)"},
    {"a\\{2\\}", 0, "aaa", 0, 0, 0, "(0,2)"},
    {"a\\{1,2\\}\\{2\\}", 0, "aaaaa", 0, 0, 0, "(0,4)"},
    {"(ab){2}", E, "ababab", 0, 0, 0, "(0,4)(2,4)"},
    {"a{1", E, "a{1", 0, 0, 0, "(0,3)"},
    {"a{x}", E, "a{x}", 0, 0, 0, "(0,4)"},
    {"a**", E, "aa", 0, 0, 0, "(0,2)"},
    {"()", E, "x", 0, 0, 0, "(0,0)(0,0)"},
    {"a||b", E, "b", 0, 0, 0, "(0,1)"},
    {"*a", E, "*a", 0, 0, 0, "(1,2)"},
    {"*a", 0, "*a", 0, 0, 0, "(0,2)"},
    {"\\(*a\\)", 0, "*a", 0, 0, 0, "(0,2)(0,2)"},
    {"^*a", 0, "*a", 0, 0, 0, "(0,2)"},
    {"a)", E | RE_WARN, "a)", 0, 0, 0, "(0,2)"},
    /* anchors */
    {"^a", 0, "ba", 0, 0, 0, "-"},
    {"^a", 0, "ab", 0, 0, 0, "(0,1)"},
    {"a$", 0, "aba", 0, 0, 0, "(2,3)"},
    {"^$", E, "", 0, 0, 0, "(0,0)"},
    {"a^b", 0, "a^b", 0, 0, 0, "(0,3)"},
    {"a$b", 0, "a$b", 0, 0, 0, "(0,3)"},
    {"a^b", E, "a^b", 0, 0, 0, "-"},
    {"x\\(^a\\)", 0, "x^a", 0, 0, 0, "-"},
    {"\\(^a\\)", 0, "a", 0, 0, 0, "(0,1)(0,1)"},
    {"a\\|^b", 0, "b", 0, 0, 0, "(0,1)"},
    {"^^", 0, "^", 0, 0, 0, "(0,1)"},
    {"$$", 0, "$", 0, 0, 0, "(0,1)"},
    {"(^|x)a", E, "xa", 0, 0, 0, "(0,2)(0,1)"},
    {"^b", 0, "a\nb", 0, 0, 0, "-"},
    {"^b", NL, "a\nb", 0, 0, 0, "(2,3)"},
    {"a$", NL, "a\nb", 0, 0, 0, "(0,1)"},
    {"a.b", NL, "a\nb", 0, 0, 0, "-"},
    {"a.b", 0, "a\nb", 0, 0, 0, "(0,3)"},
    {"a[^x]b", NL, "a\nb", 0, 0, 0, "-"},
    {"a[^x]b", 0, "a\nb", 0, 0, 0, "(0,3)"},
    {"^b", RE_MULTILINE, "a\nb", 0, 0, 0, "(2,3)"},
    {"a.b", RE_MULTILINE, "a\nb", 0, 0, 0, "(0,3)"},
    {"\\`a", 0, "a\na", 0, 1, 0, "-"},
    {"a\\'", 0, "a\na", 0, 0, 0, "(2,3)"},
    {"a$", 0, "a", 0, 0, RE_NOTEOL, "-"},
    {"^a", 0, "a", 0, 0, RE_NOTBOL, "-"},
    /* start offsets: ^ only at 0, context visible to \b and \< */
    {"^a", 0, "aaa", 0, 1, 0, "-"},
    {"a", 0, "aaa", 0, 1, 0, "(1,2)"},
    {"\\<a", 0, "aa a", 0, 1, 0, "(3,4)"},
    {"\\ba", 0, "xa", 0, 1, 0, "-"},
    {"x*", 0, "abc", 0, 3, 0, "(3,3)"},
    {"^b", NL, "a\nb", 0, 2, 0, "(2,3)"},
    /* word assertions and GNU classes */
    {"\\bfoo\\b", E, "a foo b", 0, 0, 0, "(2,5)"},
    {"\\bfoo\\b", E, "afoo", 0, 0, 0, "-"},
    {"\\<foo", 0, "xfoo foo", 0, 0, 0, "(5,8)"},
    {"foo\\>", 0, "foox foo", 0, 0, 0, "(5,8)"},
    {"\\Boo", 0, "oo foo", 0, 0, 0, "(4,6)"},
    {"\\w+", E, "  ab_1-", 0, 0, 0, "(2,6)"},
    {"\\W+", E, "ab  -cd", 0, 0, 0, "(2,5)"},
    {"\\s+", E, "ab \t c", 0, 0, 0, "(2,5)"},
    {"\\S+", E, "  xy ", 0, 0, 0, "(2,4)"},
    {"\\w", RE_EXTENDED | RE_POSIX, "w", 0, 0, 0, "(0,1)"},
    /* bracket expressions */
    {"[abc]+", E, "xxbcaz", 0, 0, 0, "(2,5)"},
    {"[^abc]+", E, "abxyc", 0, 0, 0, "(2,4)"},
    {"[]a]+", E, "x]a]", 0, 0, 0, "(1,4)"},
    {"[^]a]", E, "]ab", 0, 0, 0, "(2,3)"},
    {"[a-]+", E, "x-a-", 0, 0, 0, "(1,4)"},
    {"[%--]", 0, ",", 0, 0, 0, "(0,1)"},
    {"[--/]", 0, ".", 0, 0, 0, "(0,1)"},
    {"[[:digit:]]+", E, "ab123c", 0, 0, 0, "(2,5)"},
    {"[[:alpha:][:digit:]]+", E, "-a1b2-", 0, 0, 0, "(1,5)"},
    {"[[:upper:]]", I, "a", 0, 0, 0, "(0,1)"},
    {"[^a]", I, "A", 0, 0, 0, "-"},
    {"[[.-.]]", 0, "-", 0, 0, 0, "(0,1)"},
    {"[[=a=]]", 0, "ba", 0, 0, 0, "(1,2)"},
    {"[\\n]", 0, "\\", 0, 0, 0, "(0,1)"},
    {"[a-c]", I, "B", 0, 0, 0, "(0,1)"},
    {"[[:space:]]", 0, "a\tb", 0, 0, 0, "(1,2)"},
    {"[[:punct:]]", 0, "ab,c", 0, 0, 0, "(2,3)"},
    {"[[:xdigit:]]+", E, "xx0fAgh", 0, 0, 0, "(2,5)"},
    /* case folding */
    {"abc", I, "xABC", 0, 0, 0, "(1,4)"},
    {"ÉCOLE", I | U, "une école", 0, 0, 0, "(4,10)"},
    {"é", I | U, "É", 0, 0, 0, "(0,2)"},
    /* back-references */
    {"\\(a\\)\\1", 0, "aa", 0, 0, 0, "(0,2)(0,1)"},
    {"\\(.*\\)\\1", 0, "abab", 0, 0, 0, "(0,4)(0,2)"},
    {"\\(.*\\)\\1", 0, "abcabc", 0, 0, 0, "(0,6)(0,3)"},
    {"\\(.\\)\\1", 0, "abccd", 0, 0, 0, "(2,4)(2,3)"},
    {"(a)\\1", E, "xaa", 0, 0, 0, "(1,3)(1,2)"},
    {"\\(a\\)\\1", I, "aA", 0, 0, 0, "(0,2)(0,1)"},
    {"\\(a*\\)b\\1", 0, "aabaa", 0, 0, 0, "(0,5)(0,2)"},
    {"\\(a*\\)b\\1$", 0, "aaba", 0, 0, 0, "(1,4)(1,2)"},
    {"^\\(.*\\)\\1$", 0, "abcabd", 0, 0, 0, "-"},
    {"\\(x\\)*\\1", 0, "b", 0, 0, 0, "-"},
    /* multiple patterns (grep -e a -e b) */
    {"abc\nxyz", RE_NLALT, "--xyz--abc", 0, 0, 0, "(2,5)"},
    {"\\(a\\)\\1\n\\(b\\)\\1", RE_NLALT, "xbb", 0, 0, 0, "(1,3)(-1,-1)(1,2)"},
    {"a.c\nq", RE_NLALT | RE_LITERAL, "abc q", 0, 0, 0, "(4,5)"},
    {"a.c", RE_LITERAL, "abc a.c", 0, 0, 0, "(4,7)"},
    {"A.C", RE_LITERAL | I, "abc a.c", 0, 0, 0, "(4,7)"},
    /* NUL bytes */
    {"b", 0, "a\0b", 3, 0, 0, "(2,3)"},
    {"a.b", 0, "a\0b", 3, 0, 0, "(0,3)"},
    {"a[^x]b", E, "a\0b", 3, 0, 0, "(0,3)"},
    {"\\w+$", E, "x\0yz", 4, 0, 0, "(2,4)"},
    /* UTF-8 */
    {"^.$", U, "é", 0, 0, 0, "(0,2)"},
    {"^.$", 0, "é", 0, 0, 0, "-"},
    {"^..$", 0, "é", 0, 0, 0, "(0,2)"},
    {".", U, "\xff", 0, 0, 0, "-"},
    {".", U, "\xff" "a", 0, 0, 0, "(1,2)"},
    {"[^a]", U, "\xff", 0, 0, 0, "-"},
    {"[[:alpha:]]+", E | U, "12abé3", 0, 0, 0, "(2,6)"},
    {"[à-ï]+", E | U, "aéîz", 0, 0, 0, "(1,5)"},
    {"\\w+", E | U, " über ", 0, 0, 0, "(1,6)"},
    {"\\bber", E | U, "über", 0, 0, 0, "-"},
    {"\\<ü", E | U, "xü üx", 0, 0, 0, "(4,6)"},
    {"€", U, "a€b", 0, 0, 0, "(1,4)"},
    {"[€$]", U, "a€b", 0, 0, 0, "(1,4)"},
    {"😀+", E | U, "x😀😀y", 0, 0, 0, "(1,9)"},
    {"a.b", U, "a😀b", 0, 0, 0, "(0,6)"},
    {"\xff", U, "a\xff", 0, 0, 0, "(1,2)"},
};

static void format_spans(char *out, size_t cap, const re_span *m, size_t n) {
  size_t o = 0;
  out[0] = 0;
  for (size_t i = 0; i < n && o < cap; i++)
    o += (size_t)snprintf(out + o, cap - o, "(%td,%td)", m[i].so, m[i].eo);
}

TEST(match_table) {
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    const mcase *c = &cases[i];
    re *r;
    re_err e = {0};
    int rc = re_compile(&r, c->pat, strlen(c->pat), c->flags, &e);
    if (rc) {
      fprintf(stderr, "  case %zu /%s/: compile error %s\n", i, c->pat, e.msg);
      CHECK(rc == 0);
      continue;
    }
    size_t slen = c->slen ? c->slen : strlen(c->subj);
    re_span m[10];
    size_t nm = re_nsub(r) + 1;
    if (nm > 10) nm = 10;
    int x = re_exec(r, c->subj, slen, c->start, c->eflags, m, nm, NULL);
    char got[200];
    if (x == RE_MATCH) format_spans(got, sizeof got, m, nm);
    else snprintf(got, sizeof got, x == RE_NOMATCH ? "-" : "error %d", x);
    if (strcmp(got, c->want) != 0) {
      fprintf(stderr, "  case %zu /%s/ flags %#x on \"%s\": got %s want %s\n", i, c->pat, c->flags,
              c->subj, got, c->want);
      CHECK(false);
    }
    /* re_exec with nm == 0 and re_first_end agree on whether it matches. */
    int y = re_exec(r, c->subj, slen, c->start, c->eflags, NULL, 0, NULL);
    CHECK_EQ(y, x == RE_MATCH ? RE_MATCH : RE_NOMATCH);
    size_t end = 0;
    int z = re_first_end(r, c->subj, slen, c->start, c->eflags, &end, NULL);
    CHECK_EQ(z, x == RE_MATCH ? RE_MATCH : RE_NOMATCH);
    if (z == RE_MATCH && x == RE_MATCH) {
      CHECK((ptrdiff_t)end <= m[0].eo);
      CHECK(end >= c->start);
    }
    re_free(r);
  }
}

typedef struct ecase {
  const char *pat;  /* pattern */
  unsigned flags;   /* compile flags */
  int code;         /* expected error code */
  const char *msg;  /* expected message */
} ecase;

static const ecase errors[] = {
    {"a\\{1,2", 0, RE_EBRACE, "Unmatched \\{"},
    {"\\(", 0, RE_EPAREN, "Unmatched ( or \\("},
    {"\\)", 0, RE_ERPAREN, "Unmatched ) or \\)"},
    {"(", E, RE_EPAREN, "Unmatched ( or \\("},
    {"a)", E, RE_ERPAREN, "Unmatched ) or \\)"},
    {"[", 0, RE_BADPAT, "Invalid regular expression"},
    {"[a", 0, RE_EBRACK, "Unmatched [, [^, [:, [., or [="},
    {"[[:alpha:", 0, RE_EBRACK, "Unmatched [, [^, [:, [., or [="},
    {"[]", E, RE_EBRACK, "Unmatched [, [^, [:, [., or [="},
    {"a\\", 0, RE_EESCAPE, "Trailing backslash"},
    {"\\", E, RE_EESCAPE, "Trailing backslash"},
    {"\\1", 0, RE_ESUBREG, "Invalid back reference"},
    {"\\(a\\)\\2", 0, RE_ESUBREG, "Invalid back reference"},
    {"\\(a\\1\\)", 0, RE_ESUBREG, "Invalid back reference"},
    {"\\1(a)", E, RE_ESUBREG, "Invalid back reference"},
    {"[z-a]", 0, RE_ERANGE, "Invalid range end"},
    {"[[:alpha:]-z]", 0, RE_ERANGE, "Invalid range end"},
    {"[a-[:alpha:]]", 0, RE_ERANGE, "Invalid range end"},
    {"[[:foo:]]", 0, RE_ECTYPE, "Invalid character class name"},
    {"[[.ab.]]", 0, RE_ECOLLATE, "Invalid collation character"},
    {"[[.space.]]", 0, RE_ECOLLATE, "Invalid collation character"},
    {"a\\{2,1\\}", 0, RE_BADBR, "Invalid content of \\{\\}"},
    {"a\\{1a\\}", 0, RE_BADBR, "Invalid content of \\{\\}"},
    {"a{2,1}", E, RE_BADBR, "Invalid content of \\{\\}"},
    {"a{}", E, RE_BADBR, "Invalid content of \\{\\}"},
    {"a\\{99999\\}", 0, RE_ESIZE, "Regular expression too big"},
    {"a{32768}", E, RE_ESIZE, "Regular expression too big"},
    {"(a{1000}){1000}", E, RE_ESIZE, "Regular expression too big"},
    {"[:alpha:]", RE_WARN, RE_ECLASS, "character class syntax is [[:space:]], not [:space:]"},
    {"(", RE_PERL, RE_EPERL, "missing closing parenthesis"},
    {"a{2,1}", RE_PERL, RE_EPERL, "numbers out of order in {} quantifier"},
};

TEST(compile_errors) {
  for (size_t i = 0; i < sizeof errors / sizeof *errors; i++) {
    const ecase *c = &errors[i];
    re *r = NULL;
    re_err e = {0};
    int rc = re_compile(&r, c->pat, strlen(c->pat), c->flags, &e);
    if (rc != c->code || strcmp(e.msg, c->msg) != 0) {
      fprintf(stderr, "  error case /%s/: got %d '%s' want %d '%s'\n", c->pat, rc, e.msg, c->code,
              c->msg);
      CHECK(false);
    }
    CHECK(r == NULL);
    re_free(r);
  }
  /* [:alpha:] is an ordinary bracket without RE_WARN (sed). */
  re *r;
  CHECK_EQ(re_compile(&r, "[:alpha:]", 9, 0, NULL), 0);
  re_free(r);
}

static int nwarn;
static char lastwarn[100];
static void on_warn(void *ud, const char *msg) {
  (void)ud;
  nwarn++;
  snprintf(lastwarn, sizeof lastwarn, "%s", msg);
}

TEST(grep_warnings) {
  re *r;
  re_err e = {0};
  e.warn = on_warn;
  nwarn = 0;
  CHECK_EQ(re_compile(&r, "*a|+b", 5, E | RE_WARN, &e), 0);
  CHECK_EQ(nwarn, 2);
  CHECK_STR(lastwarn, "+ at start of expression");
  re_free(r);
  nwarn = 0;
  CHECK_EQ(re_compile(&r, "*a", 2, E, &e), 0); /* no RE_WARN: silent */
  CHECK_EQ(nwarn, 0);
  re_free(r);
}

/* Runs pattern over a subject; must finish within `secs` with a match, no
 * match or RE_ELIMIT (never hang). */
static int run_bounded(const char *pat, unsigned flags, const char *s, size_t n, double secs,
                       uint64_t budget) {
  re *r;
  if (re_compile(&r, pat, strlen(pat), flags, NULL) != 0) return -100;
  re_ctl ctl = {budget, NULL, NULL};
  re_span m[4];
  double t0 = harness_now_s();
  int rc = re_exec(r, s, n, 0, 0, m, 4, &ctl);
  double dt = harness_now_s() - t0;
  if (dt > secs) {
    fprintf(stderr, "  /%s/ took %.2fs\n", pat, dt);
    rc = -200;
  }
  re_free(r);
  return rc;
}

TEST(pathological_patterns_are_bounded) {
  size_t n = 100000;
  int rc0;
  char *a = malloc(n + 2);
  REQUIRE(a);
  memset(a, 'a', n);
  a[n] = 0;
  /* Linear without back-references. */
  CHECK_EQ(run_bounded("(a*)*b", E, a, n, 3.0, 0), RE_NOMATCH);
  CHECK_EQ(run_bounded("(a|aa)*c", E, a, n, 3.0, 0), RE_NOMATCH);
  CHECK_EQ(run_bounded("((a+)+)+b", E, a, n, 3.0, 0), RE_NOMATCH);
  CHECK_EQ(run_bounded("(a?){30}a{30}", E, a, n, 3.0, 0), RE_MATCH);
  CHECK_EQ(run_bounded("(x+x+)+y", E, a, n, 3.0, 0), RE_NOMATCH);
  /* The same without a required literal (no memchr shortcut). */
  CHECK_EQ(run_bounded("(a*)*[bc]", E, a, n, 3.0, 0), RE_NOMATCH);
  CHECK_EQ(run_bounded("(a|aa)*[cd]", E, a, n, 3.0, 0), RE_NOMATCH);
  CHECK_EQ(run_bounded("((a+)+)+[bc]$", E, a, n, 3.0, 0), RE_NOMATCH);
  CHECK_EQ(run_bounded("(a|aa)*(b|)$", E, a, n, 3.0, 0), RE_MATCH);
  CHECK_EQ(run_bounded("(a*)*(b|c|)$", E, a, n, 3.0, 0), RE_MATCH);
  rc0 = run_bounded("\\(a*\\)*\\1[bc]", 0, a, n, 5.0, 20000000);
  CHECK(rc0 == RE_ELIMIT || rc0 == RE_NOMATCH);
  a[n - 2] = 'c';
  a[n - 1] = 'b';
  /* The superset DFA cannot refute this one: exponential search, cut off. */
  CHECK_EQ(run_bounded("^\\(a*\\)*\\1c\\1$", 0, a, n, 5.0, 20000000), RE_ELIMIT);
  memset(a, 'a', n);
  rc0 = run_bounded("\\(a*\\)*\\1$", 0, a, 20000, 5.0, 20000000);
  CHECK(rc0 == RE_ELIMIT || rc0 == RE_MATCH);
  CHECK_EQ(run_bounded("(a*)*$", E, a, n, 3.0, 0), RE_MATCH);
  /* Back-references: an answer or RE_ELIMIT, quickly. */
  int rc = run_bounded("\\(a*\\)*\\1b", 0, a, n, 5.0, 20000000);
  CHECK(rc == RE_ELIMIT || rc == RE_NOMATCH);
  rc = run_bounded("\\(a*\\)\\(a*\\)\\(a*\\)\\3\\2\\1c", 0, a, 3000, 5.0, 20000000);
  CHECK(rc == RE_ELIMIT || rc == RE_NOMATCH);
  CHECK_EQ(run_bounded("\\(a*\\)\\1", 0, a, n, 3.0, 0), RE_MATCH);
  free(a);
}

static int polls;
static int stop_after_three(void *ud) {
  (void)ud;
  return ++polls >= 3;
}

TEST(poll_cancels) {
  size_t n = 4000000;
  char *s = malloc(n);
  REQUIRE(s);
  memset(s, 'a', n);
  re *r;
  REQUIRE(re_compile(&r, "(a|aa)*[cd]", 11, E, NULL) == 0);
  re_ctl ctl = {0, stop_after_three, NULL};
  polls = 0;
  re_span m[2];
  CHECK_EQ(re_exec(r, s, n, 0, 0, m, 2, &ctl), RE_ECANCEL);
  CHECK_EQ(polls, 3);
  /* A small budget ends with RE_ELIMIT. */
  re_ctl small = {1000, NULL, NULL};
  CHECK_EQ(re_exec(r, s, n, 0, 0, m, 2, &small), RE_ELIMIT);
  re_free(r);
  free(s);
}

TEST(global_iteration_with_start_offsets) {
  /* s/x*\/-/g semantics are the caller's; the engine must give each match. */
  re *r;
  REQUIRE(re_compile(&r, "[0-9]+", 6, E, NULL) == 0);
  const char *s = "a1b22c333";
  size_t pos = 0, len = strlen(s);
  char out[64] = "";
  re_span m[1];
  while (re_exec(r, s, len, pos, 0, m, 1, NULL) == RE_MATCH) {
    char buf[16];
    snprintf(buf, sizeof buf, "[%td,%td]", m[0].so, m[0].eo);
    strcat(out, buf);
    pos = (size_t)m[0].eo;
  }
  CHECK_STR(out, "[1,2][3,5][6,9]");
  re_free(r);
}

TEST(anchored_for_expr) {
  re *r;
  REQUIRE(re_compile(&r, "\\([a-z]*\\)[0-9]", 15, 0, NULL) == 0);
  re_span m[2];
  CHECK_EQ(re_exec(r, "abc1x", 5, 0, RE_ANCHORED, m, 2, NULL), RE_MATCH);
  CHECK_EQ(m[0].eo, 4);
  CHECK_EQ(m[1].so, 0);
  CHECK_EQ(m[1].eo, 3);
  CHECK_EQ(re_exec(r, "-abc1", 5, 0, RE_ANCHORED, m, 2, NULL), RE_NOMATCH);
  CHECK_EQ(re_nsub(r), 1);
  re_free(r);
  REQUIRE(re_compile(&r, "a*", 2, 0, NULL) == 0);
  CHECK_EQ(re_exec(r, "aab", 3, 0, RE_ANCHORED, m, 1, NULL), RE_MATCH);
  CHECK_EQ(m[0].eo, 2);
  CHECK_EQ(re_exec(r, "baa", 3, 0, RE_ANCHORED, m, 1, NULL), RE_MATCH);
  CHECK_EQ(m[0].eo, 0);
  re_free(r);
}

TEST(perl_syntax) {
  re *r;
  REQUIRE(re_compile(&r, "(\\d+)-(?=x)", 11, RE_PERL, NULL) == 0);
  re_span m[3];
  CHECK_EQ(re_exec(r, "a12-x", 5, 0, 0, m, 3, NULL), RE_MATCH);
  CHECK_EQ(m[0].so, 1);
  CHECK_EQ(m[0].eo, 4);
  CHECK_EQ(m[1].eo, 3);
  CHECK_EQ(re_nsub(r), 1);
  re_free(r);
  /* leftmost-first, not longest */
  REQUIRE(re_compile(&r, "a|ab", 4, RE_PERL, NULL) == 0);
  CHECK_EQ(re_exec(r, "ab", 2, 0, 0, m, 1, NULL), RE_MATCH);
  CHECK_EQ(m[0].eo, 1);
  re_free(r);
  /* catastrophic backtracking hits the limit */
  REQUIRE(re_compile(&r, "(a+)+$", 6, RE_PERL, NULL) == 0);
  char s[40];
  memset(s, 'a', 39);
  s[39] = 'b';
  re_ctl ctl = {100000, NULL, NULL};
  int rc = re_exec(r, s, 40, 0, 0, m, 1, &ctl);
  CHECK(rc == RE_ELIMIT || rc == RE_NOMATCH);
  re_free(r);
  /* invalid UTF-8 subject under UTF-8 mode does not fail */
  REQUIRE(re_compile(&r, "b", 1, RE_PERL | U, NULL) == 0);
  CHECK_EQ(re_exec(r, "\xff" "b", 2, 0, 0, m, 1, NULL), RE_MATCH);
  CHECK_EQ(m[0].so, 1);
  re_free(r);
}

TEST(first_end_skips_lines) {
  /* grep's use: a buffer of lines, RE_NEWLINE, required literal. */
  re *r;
  REQUIRE(re_compile(&r, "x[0-9]+y", 8, E | NL, NULL) == 0);
  const char *s = "x1\nax\nzx12y\nx3y\n";
  size_t end;
  CHECK_EQ(re_first_end(r, s, strlen(s), 0, 0, &end, NULL), RE_MATCH);
  CHECK_EQ(end, 11);
  CHECK_EQ(re_first_end(r, s, strlen(s), 12, 0, &end, NULL), RE_MATCH);
  CHECK_EQ(end, 15);
  CHECK_EQ(re_first_end(r, s, 12, 12, 0, &end, NULL), RE_NOMATCH);
  re_free(r);
}

TEST(big_classes_and_dfa_cache) {
  /* Many states: (a|b)*a(a|b){12} forces a large DFA; must still be right. */
  re *r;
  REQUIRE(re_compile(&r, "(a|b)*a(a|b){12}$", 17, E, NULL) == 0);
  char s[4001];
  for (int i = 0; i < 4000; i++) s[i] = (char)((i * 7919 % 13) < 6 ? 'a' : 'b');
  s[4000] = 0;
  re_span m[1];
  int rc = re_exec(r, s, 4000, 0, 0, m, 1, NULL);
  bool want = s[4000 - 13] == 'a';
  CHECK_EQ(rc, want ? RE_MATCH : RE_NOMATCH);
  re_free(r);
  /* [[:alpha:]] in UTF-8 compiles to a byte trie of reasonable size. */
  REQUIRE(re_compile(&r, "[[:alpha:]]{3}", 14, E | U, NULL) == 0);
  CHECK_EQ(re_exec(r, "1ßΩж2", strlen("1ßΩж2"), 0, 0, m, 1, NULL), RE_MATCH);
  CHECK_EQ(m[0].so, 1);
  re_free(r);
}

TEST(large_alternation_of_words) {
  /* grep -F -f with thousands of words: compiles, and searching stays fast. */
  size_t cap = 5000 * 12;
  char *pat = malloc(cap), *subj = malloc(200001);
  REQUIRE(pat && subj);
  size_t n = 0;
  unsigned x = 12345;
  for (int i = 0; i < 5000; i++) {
    if (i) pat[n++] = '\n';
    for (int k = 0; k < 6; k++) {
      x = x * 1103515245u + 12345u;
      pat[n++] = (char)('a' + (x >> 16) % 26);
    }
  }
  memcpy(pat + n, "\nneedle", 7);
  n += 7;
  for (int i = 0; i < 200000; i++) subj[i] = (char)(i % 97 == 0 ? '\n' : ' ' + i % 13);
  memcpy(subj + 150000, "needle", 6);
  re *r;
  double t0 = harness_now_s();
  REQUIRE(re_compile(&r, pat, n, RE_LITERAL | RE_NLALT | RE_NEWLINE | RE_NOTNL, NULL) == 0);
  size_t end;
  CHECK_EQ(re_first_end(r, subj, 200000, 0, 0, &end, NULL), RE_MATCH);
  CHECK_EQ(end, 150006);
  re_span m[1];
  CHECK_EQ(re_exec(r, subj, 200000, 0, 0, m, 1, NULL), RE_MATCH);
  CHECK_EQ(m[0].so, 150000);
  CHECK(harness_now_s() - t0 < 5.0);
  re_free(r);
  free(pat);
  free(subj);
}

int main(int argc, char **argv) {
  harness_init(argc, argv);
  RUN(match_table);
  RUN(compile_errors);
  RUN(grep_warnings);
  RUN(pathological_patterns_are_bounded);
  RUN(poll_cancels);
  RUN(global_iteration_with_start_offsets);
  RUN(anchored_for_expr);
  RUN(perl_syntax);
  RUN(first_end_skips_lines);
  RUN(big_classes_and_dfa_cache);
  RUN(large_alternation_of_words);
  return harness_done();
}
