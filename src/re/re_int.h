/*
 * re_int.h - internals shared by the files of src/re/ (not for commands).
 *
 * Pipeline: re_parse.c turns a BRE/ERE/fixed string into an AST (re_node),
 * re_compile.c turns the AST into a program of byte-consuming instructions
 * (re_inst; UTF-8 characters become byte-level dispatch tries), and the
 * matchers run that program: re_dfa.c (lazy DFA: match / no match and match
 * ends, linear time), re_pike.c (Pike VM: leftmost-longest span and
 * submatches, linear time; and the budgeted backtracker for back-references).
 * re_pcre.c wraps PCRE2 for RE_PERL. re.c is the public API and chooses.
 */
#ifndef SBX_RE_INT_H
#define SBX_RE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "re/re.h"

#define RE_MAX_DEPTH 2000     /* parser nesting limit (ESIZE beyond) */
#define RE_MAX_GROUPS 65535   /* capture groups */

/* Makes room for `need` items of `elem` bytes in the malloc'd array that
 * items_ptr points to (a `T **`; the pointer NULL before the first call),
 * whose capacity is *cap items: the capacity becomes `first`, or doubles,
 * until it holds `need`. Returns 0; -1 when realloc fails; -2 when that
 * capacity would pass `max` items. Nothing changes on failure. Every
 * growing array of the engine (program, sets, tries, DFA states) uses it. */
int re_grow(void *items_ptr, size_t *cap, size_t need, size_t elem, size_t first, size_t max);

/* ---- character sets ---------------------------------------------------------- */

typedef struct re_range {
  uint32_t lo, hi; /* inclusive codepoint interval */
} re_range;

/* A set of characters. In byte mode `bits` covers all 256 bytes and `r` is
 * unused. In UTF-8 mode bits 0..127 are ASCII characters, bits 128..255 are
 * raw (invalid) bytes written in the pattern, and `r` holds the codepoints
 * >= 0x80 as sorted, disjoint, non-adjacent intervals. */
typedef struct re_cset {
  uint32_t bits[8]; /* membership bitmap (see above) */
  re_range *r;      /* codepoint intervals (malloc'd, UTF-8 mode) */
  size_t n;         /* intervals used */
  size_t cap;       /* intervals allocated */
} re_cset;

static inline void re_bit_set(uint32_t *bits, unsigned b) { bits[b >> 5] |= 1u << (b & 31); }
static inline int re_bit_has(const uint32_t *bits, unsigned b) { return (bits[b >> 5] >> (b & 31)) & 1; }

int re_cset_add(re_cset *s, uint32_t lo, uint32_t hi); /* 0 or -1 (ENOMEM) */
void re_cset_free(re_cset *s);
int re_cset_normalize(re_cset *s);                      /* sort + merge */

/* ---- AST -------------------------------------------------------------------- */

enum re_node_type {
  RN_EMPTY,   /* matches the empty string */
  RN_CHAR,    /* one character: ch (codepoint, or byte when raw/byte mode) */
  RN_SET,     /* a bracket expression / class: set */
  RN_ANY,     /* '.' */
  RN_CAT,     /* children in sequence */
  RN_ALT,     /* children as alternatives, in priority order */
  RN_REPEAT,  /* kid repeated min..max times (max < 0: unbounded) */
  RN_GROUP,   /* capture group `group` around kid */
  RN_BACKREF, /* back-reference to group `group` */
  RN_ASSERT,  /* zero-width assertion `assert_kind` */
};

enum re_assert_kind {
  RA_BOL,    /* ^ */
  RA_EOL,    /* $ */
  RA_BOT,    /* \` start of subject */
  RA_EOT,    /* \' end of subject */
  RA_WORDB,  /* \b */
  RA_NWORDB, /* \B */
  RA_WBEG,   /* \< */
  RA_WEND,   /* \> */
  RA_NOWORD_BEFORE, /* no word character just before (grep -w) */
  RA_NOWORD_AFTER,  /* no word character just after (grep -w) */
};

typedef struct re_node {
  uint8_t type;        /* enum re_node_type */
  uint8_t assert_kind; /* RN_ASSERT: enum re_assert_kind */
  uint8_t raw;         /* RN_CHAR: ch is a raw byte (invalid UTF-8 in the pattern) */
  int32_t min, max;    /* RN_REPEAT bounds */
  int32_t group;       /* RN_GROUP / RN_BACKREF: group number (1-based) */
  uint32_t ch;         /* RN_CHAR */
  int32_t set;         /* RN_SET: index into re_ast.sets */
  int32_t kid;         /* first child (-1 none) */
  int32_t next;        /* next sibling (-1 none) */
} re_node;

typedef struct re_ast {
  re_node *nodes;   /* node storage */
  size_t nnodes;    /* used */
  size_t capnodes;  /* allocated */
  re_cset *sets;    /* sets referenced by RN_SET */
  size_t nsets;     /* used */
  size_t capsets;   /* allocated */
  int32_t root;     /* root node */
  int ngroups;      /* capture groups */
  bool backrefs;    /* any RN_BACKREF */
} re_ast;

int re_parse(re_ast *ast, const unsigned char *pat, size_t len, unsigned flags, re_err *err);
void re_ast_free(re_ast *ast);
void re_set_error(re_err *err, int code, size_t offset);

/* ---- Unicode helpers (C.UTF-8 tables through glibc) ---------------------------- */

/* Decodes one UTF-8 character at s[0..n): returns its length (1..4) and *cp,
 * or 0 when the bytes there are not a valid character. */
int re_utf8_decode(const unsigned char *s, size_t n, uint32_t *cp);
int re_utf8_encode(uint32_t cp, unsigned char *out);
/* Case variants of cp (including cp), returns count (<= 4). */
int re_case_variants(uint32_t cp, bool utf8, uint32_t out[4]);
/* Adds the named class (alpha, digit...) to s; -1 unknown name, -2 ENOMEM. */
int re_cset_add_class(re_cset *s, const char *name, size_t namelen, bool utf8);
/* Is the character a word constituent ([_[:alnum:]])? */
bool re_is_word_cp(uint32_t cp);

/* ---- program ------------------------------------------------------------------ */

enum re_op {
  I_BYTE,     /* consume byte == arg */
  I_SET,      /* consume a byte in sets[x] */
  I_DISPATCH, /* consume byte b; continue at the target of the entry holding b */
  I_SPLIT,    /* continue at x (preferred) and y */
  I_JMP,      /* continue at x */
  I_SAVE,     /* slot x := position */
  I_ASSERT,   /* zero-width test arg (enum re_assert_kind) */
  I_BACKREF,  /* consume a copy of group x */
  I_MATCH,    /* accept */
  I_MARK,     /* loop slot x := position (backtracker only; else a no-op) */
  I_CHECK,    /* position == loop slot x: continue at y (loop exit), else pc + 1
                 (backtracker only; elsewhere a no-op) */
};

typedef struct re_inst {
  uint8_t op;  /* enum re_op */
  uint8_t arg; /* I_BYTE: the byte; I_ASSERT: the kind */
  int32_t x;   /* see enum re_op; I_DISPATCH: first entry */
  int32_t y;   /* I_SPLIT: second branch; I_DISPATCH: entry count */
} re_inst;

typedef struct re_dent {
  uint8_t lo, hi; /* byte range */
  int32_t to;     /* next pc */
} re_dent;

typedef struct re_prog {
  re_inst *ins;      /* instructions; the match starts at pc 0 */
  size_t n;          /* instruction count */
  size_t cap;        /* allocated */
  uint32_t (*sets)[8]; /* byte bitmaps for I_SET */
  size_t nsets;      /* used */
  size_t capsets;    /* allocated */
  re_dent *dents;    /* dispatch entries */
  size_t ndents;     /* used */
  size_t capdents;   /* allocated */
  int nslots;        /* 2 * (ngroups + 1) */
  int nloops;        /* loop slots used by I_MARK / I_CHECK */
  bool has_assert;   /* any I_ASSERT */
  bool word_assert;  /* \b \B \< \> present */
  bool has_backref;  /* any I_BACKREF */
  bool first_any;    /* the first byte of a match cannot be predicted */
  uint32_t first[8]; /* bytes that can start a non-empty match */
  bool can_empty_start; /* the program may match without consuming a byte */
} re_prog;

int re_compile_ast(re_prog *prog, const re_ast *ast, unsigned flags, re_err *err);
void re_prog_free(re_prog *prog);

/* ---- matching context --------------------------------------------------------- */

typedef struct re_run {
  const unsigned char *s; /* subject */
  size_t len;             /* subject length */
  unsigned eflags;        /* RE_NOTBOL / RE_NOTEOL */
  unsigned cflags;        /* compile flags */
  uint64_t steps;         /* steps taken */
  uint64_t max_steps;     /* budget */
  uint64_t next_poll;     /* steps value at which to poll next */
  const re_ctl *ctl;      /* caller control (may be NULL) */
} re_run;

/* Adds n steps; returns 0 or RE_ELIMIT / RE_ECANCEL. */
int re_run_tick(re_run *run, uint64_t n);
/* Does the assertion hold at position p? */
bool re_assert_at(const re_run *run, int kind, size_t p);

/* Lazy DFA (re_dfa.c). */
typedef struct re_dfa re_dfa;
re_dfa *re_dfa_new(const re_prog *prog, unsigned cflags, bool superset, bool amb_true);
void re_dfa_free(re_dfa *d);
/* Unanchored scan of [from, to): earliest match end in *end. Returns
 * RE_MATCH, RE_NOMATCH, a negative error, or RE_DFA_BAIL when the DFA cannot
 * decide (word assertions next to non-ASCII bytes, cache thrashing). */
#define RE_DFA_BAIL 2
int re_dfa_first_end(re_dfa *d, re_run *run, size_t from, size_t to, size_t *end);
/* Anchored at `from`: the longest match end in *end. Adds the bytes it
 * looked at to *scanned (may be NULL). */
int re_dfa_longest(re_dfa *d, re_run *run, size_t from, size_t to, size_t *end, size_t *scanned);

/* Scratch memory of the Pike VM, kept in the re between calls (sed calls it
 * once per match: allocating per call would dominate). */
typedef struct re_pike_mem {
  uint32_t *mark;    /* per-pc stamps */
  uint32_t stamp;    /* current stamp (marks older than it are stale) */
  int64_t *stack;    /* closure stack */
  ptrdiff_t *tmp;    /* captures while following epsilons */
  ptrdiff_t *best;   /* best match's captures */
  int32_t *pc[2];    /* thread lists */
  ptrdiff_t *cap[2]; /* their captures */
  size_t m;          /* instructions the arrays hold */
  int nslots;        /* captures per thread the arrays hold */
} re_pike_mem;
void re_pike_mem_free(re_pike_mem *mem);

/* Pike VM (re_pike.c): leftmost-longest from [from, len), submatches into
 * caps[0..nslots) (-1 unset). anchored: only start at from. mem may be
 * NULL (temporary scratch). */
int re_pike_exec(const re_prog *prog, re_run *run, size_t from, bool anchored,
                 ptrdiff_t *caps, int nslots, re_pike_mem *mem);
/* Backtracker for back-references: same contract, budgeted. */
int re_back_exec(const re_prog *prog, re_run *run, size_t from, bool anchored,
                 ptrdiff_t *caps, int nslots);

/* PCRE2 (re_pcre.c). */
typedef struct re_pcre re_pcre;
int re_pcre_compile(re_pcre **out, const char *pat, size_t len, unsigned flags, re_err *err,
                    size_t *nsub);
void re_pcre_free(re_pcre *p);
int re_pcre_exec(re_pcre *p, re_run *run, size_t start, bool anchored, re_span *m, size_t nm);

#endif
