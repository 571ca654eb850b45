/*
 * re.h - the one regular-expression engine of sbx (prefix re_).
 *
 * Every command that takes a pattern (grep, sed, expr, find -regex, awk, the
 * shell's [[ =~ ]], csplit, ...) compiles it here. Syntaxes: POSIX BRE and ERE
 * with the GNU extensions that GNU grep and sed accept (\w \W \s \S \b \B \< \>
 * \` \' ; \+ \? \| in BRE; back-references in BRE and ERE; intervals; [[:class:]],
 * [[.c.]], [[=c=]]), fixed strings (grep -F) and Perl syntax through PCRE2
 * (grep -P).
 *
 * Semantics are POSIX: the leftmost match, and among those the longest.
 * Submatches follow the order a backtracking search would try (the same
 * choices as glibc in practice: `(a|ab)(c|bcd)(d*)` on "abcd" gives a/bcd/"").
 *
 * Subjects are byte buffers with an explicit length: NUL bytes are ordinary
 * characters. With RE_UTF8, '.' and bracket expressions match one whole UTF-8
 * character and never an invalid byte (GNU grep under C.UTF-8); literal bytes
 * of the pattern still match themselves.
 *
 * Bounds (the engine never runs away):
 *  - compile: patterns whose program would exceed RE_MAX_PROGRAM instructions
 *    (e.g. `(a{1000}){1000}`) fail with RE_ESIZE "Regular expression too big";
 *    nesting depth is limited (RE_ESIZE too).
 *  - execution without back-references is linear in the subject (lazy DFA with
 *    a bounded cache, Pike VM otherwise); with back-references a backtracking
 *    matcher runs under a step budget. Every matcher counts its steps: past
 *    ctl->max_steps it returns RE_ELIMIT ("regular expression too complex"),
 *    (the exponential backtracker at most RE_BACKTRACK_STEPS of them),
 *    and every RE_POLL_INTERVAL steps it calls ctl->poll, returning
 *    RE_ECANCEL when that says stop (commands pass cmd_poll).
 *
 * Thread safety: a compiled `re` keeps a lazily built DFA cache, so one `re`
 * must be used by one thread at a time. Compiling is reentrant.
 *
 * Ownership: re_compile returns a heap object owned by the caller (re_free).
 * The pattern and subject are borrowed for the duration of the call only.
 */
#ifndef SBX_RE_H
#define SBX_RE_H

#include <locale.h>
#include <stddef.h>
#include <stdint.h>

typedef struct re re;

/* ---- compile flags ------------------------------------------------------------- */
#define RE_EXTENDED  0x0001u /* POSIX ERE (default: BRE) */
#define RE_NOCASE     0x0002u /* case-insensitive (ASCII and, with RE_UTF8, Unicode) */
#define RE_NEWLINE   0x0004u /* REG_NEWLINE: '.' and [^...] never match '\n';
                                ^ and $ also match after/before a '\n' */
#define RE_MULTILINE 0x0008u /* only the anchors part of RE_NEWLINE (sed's M flag) */
#define RE_LITERAL   0x0010u /* the pattern is a fixed string (grep -F) */
#define RE_PERL      0x0020u /* Perl syntax via PCRE2 (grep -P) */
#define RE_UTF8      0x0040u /* multibyte: pattern and subject are UTF-8 */
#define RE_POSIX     0x0080u /* strict POSIX: no GNU escapes (sed --posix) */
#define RE_NOSUB     0x0100u /* the caller never asks for submatches (faster) */
#define RE_NLALT     0x0200u /* '\n' in the pattern separates alternatives, each
                                with its own group numbering (grep -e p1 -e p2) */
#define RE_WARN      0x0400u /* GNU grep's dialect: report its warnings ("* at
                                start of expression") through re_err.warn, reject
                                "[:space:]", take an unmatched ERE ')' literally */
#define RE_NOTNL     0x0800u /* nothing in the pattern matches '\n' (grep: the
                                subject is a buffer of lines; with RE_NEWLINE) */
#define RE_WHOLE_LINE 0x1000u /* the match must be a whole line (grep -x) */
#define RE_WHOLE_WORD 0x2000u /* the match must not touch a word character on
                                 either side (grep -w) */

/* ---- exec flags ---------------------------------------------------------------- */
#define RE_NOTBOL    0x0001u /* subj[0] is not at the beginning of a line */
#define RE_NOTEOL    0x0002u /* subj[len] is not at the end of a line */
#define RE_ANCHORED  0x0004u /* the match must start at `start` (expr's `:`) */

/* ---- results and errors ------------------------------------------------------------ */
#define RE_MATCH    0   /* re_exec found a match */
#define RE_NOMATCH  1   /* no match */
/* Execution errors (negative). */
#define RE_ELIMIT  (-1) /* step budget exhausted: "regular expression too complex" */
#define RE_ECANCEL (-2) /* ctl->poll asked to stop */
#define RE_ENOMEM  (-3) /* out of memory */
/* Compile errors (re_err.code); re_err.msg has GNU's wording. */
#define RE_EBRACK   2  /* "Unmatched [, [^, [:, [., or [=" */
#define RE_EPAREN   3  /* "Unmatched ( or \\(" */
#define RE_ERPAREN  4  /* "Unmatched ) or \\)" */
#define RE_EBRACE   5  /* "Unmatched \\{" */
#define RE_BADBR    6  /* "Invalid content of \\{\\}" */
#define RE_ERANGE   7  /* "Invalid range end" */
#define RE_ECTYPE   8  /* "Invalid character class name" */
#define RE_EESCAPE  9  /* "Trailing backslash" */
#define RE_ESUBREG  10 /* "Invalid back reference" */
#define RE_BADRPT   11 /* "Invalid preceding regular expression" */
#define RE_ESIZE    12 /* "Regular expression too big" */
#define RE_ECOLLATE 13 /* "Invalid collation character" */
#define RE_BADPAT   14 /* "Invalid regular expression" */
#define RE_ECLASS   15 /* "character class syntax is [[:space:]], not [:space:]" */
#define RE_EPERL    16 /* a PCRE2 compile error; msg has PCRE2's text */
#define RE_ECOMPNOMEM 17 /* "Memory exhausted" */

#define RE_MAX_PROGRAM  1000000  /* instructions in a compiled program */
#define RE_MAX_DUP      32767    /* largest {n,m} count (GNU: larger is ESIZE) */
#define RE_POLL_INTERVAL 65536   /* steps between ctl->poll calls */
#define RE_DEFAULT_STEPS 1000000000ull /* budget when ctl is NULL or max_steps 0 */
#define RE_BACKTRACK_STEPS 100000000ull /* the backtracker's (back-references) share */

typedef struct re_err {
  int code;                 /* RE_E* (0 = none) */
  size_t offset;            /* byte offset in the pattern where it was found */
  char msg[256];            /* GNU's message, NUL-terminated */
  /* Optional, set by the caller with RE_WARN: called once per warning with the
   * text after "warning: " (e.g. "* at start of expression"). */
  void (*warn)(void *ud, const char *msg);
  void *warn_ud;            /* passed to warn */
} re_err;

/* A submatch: byte offsets into the subject; so = eo = -1 when the group did
 * not take part in the match. */
typedef struct re_span {
  ptrdiff_t so; /* start offset */
  ptrdiff_t eo; /* end offset (exclusive) */
} re_span;

/* Execution control; may be NULL (default budget, no poll). */
typedef struct re_ctl {
  uint64_t max_steps;        /* 0 = RE_DEFAULT_STEPS */
  int (*poll)(void *ud);     /* non-zero = stop (RE_ECANCEL); may be NULL */
  void *ud;                  /* passed to poll */
} re_ctl;

/*
 * Compiles pat[0..len) with RE_* compile flags. Returns 0 and *out, or a
 * compile error code with err filled (err may be NULL). *out is owned by the
 * caller.
 */
int re_compile(re **out, const char *pat, size_t len, unsigned flags, re_err *err);
void re_free(re *r);

/* Number of capture groups (\( \) or ( )). */
size_t re_nsub(const re *r);
/* 1 when the pattern uses back-references (the slow, budgeted matcher). */
int re_has_backrefs(const re *r);
/* The message for an execution error code (RE_ELIMIT...) or compile code. */
const char *re_strerror(int code);

/*
 * Searches subj[start..len) for the leftmost-longest match. Context before
 * `start` is visible to assertions (\b, \<, ^ after '\n' with RE_NEWLINE) but
 * ^ matches at `start` only when start == 0 and RE_NOTBOL is not set, or after
 * a '\n' in multiline modes (so global substitution passes the previous match
 * end as start). $ matches at len unless RE_NOTEOL. With RE_ANCHORED the match
 * must begin at `start`.
 *
 * Fills m[0] with the whole match and m[1..nm) with groups (nm may be 0;
 * groups beyond re_nsub are set to -1). Returns RE_MATCH, RE_NOMATCH or a
 * negative RE_E* execution error.
 */
int re_exec(re *r, const char *subj, size_t len, size_t start, unsigned eflags,
            re_span *m, size_t nm, const re_ctl *ctl);

/*
 * Fast test for line-oriented callers (grep): finds the end offset of a match
 * in subj[start..len) (the smallest one, except with RE_PERL) and stores it in
 * *end; the match itself may start anywhere before. Cheaper than re_exec: no
 * start or submatches are computed. Same returns as re_exec.
 */
int re_first_end(re *r, const char *subj, size_t len, size_t start, unsigned eflags,
                 size_t *end, const re_ctl *ctl);

/* Offset of the first byte of s[0..n) that is not part of a valid UTF-8
 * character, or n when all of it is valid (grep's encoding-error test). */
size_t re_utf8_check(const char *s, size_t n);

/* The C.UTF-8 LC_CTYPE locale object (loaded once, shared by the whole process;
 * 0 when the host has none): character classes and case mappings that do not
 * depend on the host program's setlocale. The first call reads the locale's
 * files, so a process that seals itself calls it before (src/iso). */
locale_t re_utf8_locale(void);

#endif
