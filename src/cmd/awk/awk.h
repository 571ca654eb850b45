/*
 * awk.h - internal interface between the parts of the awk command
 * (src/cmd/awk/awk.c driver, awk_parse.c lexer+parser, awk_interp.c tree walker,
 * awk_builtin.c functions and printf, awk_io.c records and redirections,
 * awk_array.c associative arrays, awk_re.c regular expressions).
 *
 * Design in one paragraph: the program is parsed once into a tree of
 * awk_node (one generic node shape, children a..d, lists through `next`),
 * variables resolved to slots (globals, function locals), regex constants
 * compiled at parse time. The interpreter walks the tree; values are small
 * structs holding a double and/or a reference-counted string. Every string
 * and array the interpreter allocates is linked into a live list so a fatal
 * error (longjmp to the driver) can free everything: the command never
 * leaks, whatever the program does. Limits: strings are bounded by
 * ctx->max_string, recursion by AWK_MAX_DEPTH, loops by cmd_poll and an
 * iteration budget.
 *
 * Ownership rule (stated once): an awk_val returned by a function is owned by
 * the caller, who must awk_val_free() it; awk_val arguments are borrowed
 * unless the function's name says "take".
 */
#ifndef SBX_CMD_AWK_H
#define SBX_CMD_AWK_H

#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cmd/cmd.h"

typedef struct awk_interp awk_interp;
typedef struct awk_regex awk_regex;
typedef struct awk_arr awk_arr;

/* ---- limits ------------------------------------------------------------------ */

#define AWK_MAX_DEPTH 1000         /* user function call nesting */
#define AWK_MAX_PARSE_DEPTH 400    /* nesting of expressions/statements in source */
#define AWK_MAX_FIELDS 10000000    /* largest NF / $n index */
#define AWK_POLL_EVERY 4096        /* loop iterations between cmd_poll calls */
#define AWK_MAX_STREAMS 256        /* open redirections at once */

/* ---- strings ------------------------------------------------------------------ */

/* A reference-counted byte string, NUL-terminated at len (may contain NULs). */
typedef struct awk_str {
  struct awk_str *prev, *next; /* live list (freed in bulk after a fatal error) */
  uint32_t ref;                /* references held; freed at 0 */
  uint8_t ascii;               /* 0 unknown, 1 all bytes < 0x80, 2 not */
  size_t len;                  /* bytes used */
  size_t cap;                  /* bytes allocated for p (excluding the NUL) */
  char p[];                    /* the bytes */
} awk_str;

awk_str *awk_str_new(awk_interp *in, const char *s, size_t len);
awk_str *awk_str_alloc(awk_interp *in, size_t cap); /* len 0, room for cap */
awk_str *awk_str_cstr(awk_interp *in, const char *s);
void awk_str_unref(awk_interp *in, awk_str *s);
static inline awk_str *awk_str_ref(awk_str *s) {
  s->ref++;
  return s;
}
/* Makes sure `*s` (owned, ref 1 after the call) has room for `need` bytes;
 * may replace it by a new string with the same contents. */
void awk_str_reserve(awk_interp *in, awk_str **s, size_t need);
bool awk_str_is_ascii(awk_str *s);

/* ---- values -------------------------------------------------------------------- */

enum {
  AWK_UNINIT = 0, /* never assigned: "" and 0, compares as strnum */
  AWK_NUM,        /* a number (s may cache nothing) */
  AWK_STR,        /* a string constant or result */
  AWK_STRNUM,     /* a string from input: numeric if it looks numeric */
};

#define AWK_VF_NUMOK 0x01   /* num holds the numeric value of s */
#define AWK_VF_CHECKED 0x02 /* STRNUM: looks-numeric test done */
#define AWK_VF_LOOKSNUM 0x04 /* STRNUM: the string looks numeric */

typedef struct awk_val {
  uint8_t type;  /* AWK_UNINIT/NUM/STR/STRNUM */
  uint8_t flags; /* AWK_VF_* */
  double num;    /* the number (NUM, or cached when NUMOK) */
  awk_str *s;    /* owned string (STR, STRNUM); NULL for NUM/UNINIT */
} awk_val;

static inline awk_val awk_num(double d) {
  awk_val v = {AWK_NUM, 0, d, NULL};
  return v;
}
static inline awk_val awk_uninit(void) {
  awk_val v = {AWK_UNINIT, 0, 0, NULL};
  return v;
}
/* A string value; takes the caller's reference to s. */
static inline awk_val awk_strv(awk_str *s) {
  awk_val v = {AWK_STR, 0, 0, s};
  return v;
}
static inline awk_val awk_strnumv(awk_str *s) {
  awk_val v = {AWK_STRNUM, 0, 0, s};
  return v;
}
static inline void awk_val_free(awk_interp *in, awk_val *v) {
  if (v->s) awk_str_unref(in, v->s);
  v->s = NULL;
}
static inline awk_val awk_val_copy(const awk_val *v) {
  awk_val r = *v;
  if (r.s) r.s->ref++;
  return r;
}

double awk_to_num(awk_interp *in, awk_val *v);
/* The string value (new reference); numbers use CONVFMT. */
awk_str *awk_to_str(awk_interp *in, awk_val *v);
/* Same with OFMT (print). */
awk_str *awk_to_str_out(awk_interp *in, awk_val *v);
/* Numeric string test (POSIX "looks numeric"); sets *d. */
bool awk_looks_numeric(const char *s, size_t len, double *d);
/* Whether a STRNUM value's text looks numeric; tested once, the answer (and the
 * number) kept in its flags. */
bool awk_strnum_looks_numeric(awk_val *v);
/* Leading-number conversion as awk does ("3abc" -> 3). */
double awk_strtod(const char *s, size_t len);
bool awk_is_true(awk_interp *in, awk_val *v);
int awk_compare(awk_interp *in, awk_val *a, awk_val *b);
/* Formats a number as awk does with the given %-format (CONVFMT/OFMT). */
awk_str *awk_num_to_str(awk_interp *in, double d, const char *fmt);

/* ---- cells and arrays ------------------------------------------------------------ */

enum { AWK_CELL_NONE = 0, AWK_CELL_VAL, AWK_CELL_ARR, AWK_CELL_REF };

/* A variable, function local, or array element. */
typedef struct awk_cell {
  uint8_t kind;          /* AWK_CELL_* (NONE: untyped, not yet used) */
  awk_val v;             /* the scalar (kind VAL) */
  awk_arr *arr;          /* the array (kind ARR) */
  struct awk_cell *ref;  /* kind REF: a local bound to the caller's cell */
} awk_cell;

awk_arr *awk_arr_new(awk_interp *in);
void awk_arr_free(awk_interp *in, awk_arr *a);
void awk_arr_clear(awk_interp *in, awk_arr *a);
size_t awk_arr_len(const awk_arr *a);
/* The element cell for `key`, or NULL when absent and !create. The cell
 * pointer stays valid until the element is deleted. */
awk_cell *awk_arr_get(awk_interp *in, awk_arr *a, awk_str *key, bool create);
bool awk_arr_delete(awk_interp *in, awk_arr *a, awk_str *key);
/* The subscripts in gawk's for-in order, as a tracked blob holding *n owned
 * awk_val (numbers for integer subscripts, strings otherwise): use
 * (awk_val *)blob->p, then awk_keys_free(). */
awk_str *awk_arr_keys(awk_interp *in, awk_arr *a, size_t *n);
void awk_keys_free(awk_interp *in, awk_str *blob, size_t n);
/* Convenience: a[k] = v for a C string key (takes v). */
void awk_arr_set(awk_interp *in, awk_arr *a, const char *key, size_t klen, awk_val v);

/* ---- regular expressions ------------------------------------------------------------ */

/* Compiles an awk ERE. On error returns NULL and a malloc'd message. */
awk_regex *awk_re_compile(const char *pat, size_t len, bool icase, char **err);
void awk_re_free(awk_regex *re);
/* Leftmost-longest search in s[0..len) starting at `from`. notbol: position 0
 * is not the start of a line/string for ^. Returns 1 and the match span, 0
 * for no match. */
int awk_re_search(awk_regex *re, const char *s, size_t len, size_t from, bool notbol,
                  size_t *mstart, size_t *mend);
/* Capturing variant for gensub/match: up to nsub spans (start/end -1 if unset). */
int awk_re_exec(awk_regex *re, const char *s, size_t len, size_t from, bool notbol,
                size_t nsub, int64_t *spans);
size_t awk_re_nsub(const awk_regex *re);
/* Whether the regex matches anywhere in s (the fastest test). */
int awk_re_test(awk_regex *re, const char *s, size_t len);
/* Per thread: the command to poll during long matches, and the handler of
 * a match that ran out of budget or was cancelled (it must not return). */
enum { AWK_RE_CANCELLED = 1, AWK_RE_TOO_COMPLEX, AWK_RE_NOMEM };
void awk_re_set_env(cmd_ctx *ctx, void (*fail)(void *ud, int kind), void *ud);
/* True when the pattern can match the empty string at every position. */
bool awk_re_is_literal(const awk_regex *re, const char **lit, size_t *litlen);

/* ---- the tree ------------------------------------------------------------------------ */

enum awk_node_type {
  /* expressions */
  AN_NUM, AN_STR, AN_REGEX, AN_VAR, AN_LOCAL, AN_FIELD, AN_INDEX, AN_ASSIGN,
  AN_COND, AN_AND, AN_OR, AN_NOT, AN_BINARY, AN_CMP, AN_MATCH, AN_CONCAT,
  AN_UNARY, AN_INCDEC, AN_IN, AN_CALL, AN_BUILTIN, AN_GETLINE, AN_GROUP,
  /* statements */
  AS_BLOCK, AS_EXPR, AS_PRINT, AS_PRINTF, AS_IF, AS_WHILE, AS_DO, AS_FOR,
  AS_FORIN, AS_NEXT, AS_NEXTFILE, AS_EXIT, AS_RETURN, AS_BREAK, AS_CONTINUE,
  AS_DELETE, AS_GETLINE_UNUSED,
};

/* Operators in awk_node.op. */
enum {
  AOP_NONE = 0, AOP_ADD, AOP_SUB, AOP_MUL, AOP_DIV, AOP_MOD, AOP_POW,
  AOP_LT, AOP_LE, AOP_EQ, AOP_NE, AOP_GT, AOP_GE,
  AOP_MATCH, AOP_NOMATCH,
  AOP_NEG, AOP_PLUS,
  AOP_PREINC, AOP_PREDEC, AOP_POSTINC, AOP_POSTDEC,
  /* redirections (print/printf/getline) */
  AOP_RED_NONE, AOP_RED_FILE, AOP_RED_APPEND, AOP_RED_PIPE, AOP_RED_IN, AOP_RED_CMD,
};

typedef struct awk_node {
  uint16_t type;         /* awk_node_type */
  uint16_t op;           /* AOP_* */
  int line;              /* source line (for messages) */
  struct awk_node *a, *b, *c, *d; /* children (meaning per type) */
  struct awk_node *next; /* next in a list (statements, arguments) */
  double num;            /* AN_NUM */
  awk_str *str;          /* AN_STR value, AN_REGEX source */
  awk_regex *re;         /* AN_REGEX compiled */
  int idx;               /* variable slot, builtin id, function index */
  int nargs;             /* argument count (calls, subscripts) */
} awk_node;

/* A pattern-action rule. */
typedef struct awk_rule {
  awk_node *pattern;  /* NULL: always */
  awk_node *pattern2; /* range end, or NULL */
  awk_node *action;   /* AS_BLOCK, or NULL: print $0 */
  bool in_range;      /* range state */
  struct awk_rule *next;
} awk_rule;

typedef struct awk_func {
  char *name;       /* function name (malloc'd) */
  int nparams;      /* parameters (all locals) */
  char **params;    /* their names */
  awk_node *body;   /* AS_BLOCK */
  bool defined;     /* false while only called */
  int line;         /* first use, for "not defined" */
} awk_func;

typedef struct awk_program {
  awk_rule *begin, *end, *main, *beginfile, *endfile; /* rule lists */
  awk_func *funcs;  /* function table */
  int nfuncs;
  size_t capfuncs;
  char **globals;   /* global variable names, slot = index */
  int nglobals;
  size_t capglobals;
  bool uses_getline; /* a simple getline appears (BEGIN-only programs read input) */
  awk_regex **regexes; /* compiled regex constants (owned) */
  int nregexes;
  size_t capregexes;
  awk_node *calls;   /* user function calls, chained through awk_node.d */
  /* arena of nodes */
  struct awk_chunk *chunks;
} awk_program;

/* Special variables: fixed global slots. */
enum {
  AWK_V_NF, AWK_V_NR, AWK_V_FNR, AWK_V_FS, AWK_V_OFS, AWK_V_ORS, AWK_V_RS,
  AWK_V_FILENAME, AWK_V_SUBSEP, AWK_V_RSTART, AWK_V_RLENGTH, AWK_V_CONVFMT,
  AWK_V_OFMT, AWK_V_ENVIRON, AWK_V_ARGC, AWK_V_ARGV, AWK_V_RT, AWK_V_IGNORECASE,
  AWK_V_PROCINFO, AWK_V_ERRNO, AWK_V_FIELDWIDTHS, AWK_V_FPAT, AWK_NSPECIAL
};

/* Builtin function ids (AN_BUILTIN.idx). */
enum {
  AB_LENGTH, AB_SUBSTR, AB_INDEX, AB_SPLIT, AB_SUB, AB_GSUB, AB_GENSUB, AB_MATCH,
  AB_SPRINTF, AB_SIN, AB_COS, AB_ATAN2, AB_EXP, AB_LOG, AB_SQRT, AB_INT, AB_RAND,
  AB_SRAND, AB_TOLOWER, AB_TOUPPER, AB_SYSTEM, AB_CLOSE, AB_FFLUSH, AB_STRFTIME,
  AB_SYSTIME, AB_MKTIME, AB_AND, AB_OR, AB_XOR, AB_LSHIFT, AB_RSHIFT, AB_COMPL,
  AB_STRTONUM, AB_ASORT, AB_ASORTI, AB_ISARRAY, AB_TYPEOF, AB_PATSPLIT,
  AB_COUNT
};

/* Parses `src` (the concatenation of -f files / the program text). `names`
 * gives the source name per line range for messages. Returns 0, or 1 after
 * printing gawk-like syntax errors through ctx. */
typedef struct awk_source {
  const char *text;  /* program text (borrowed) */
  size_t len;        /* its length */
  const char *name;  /* "cmd. line" or the -f file name */
} awk_source;

int awk_parse(awk_interp *in, const awk_source *srcs, int nsrcs, awk_program *prog);
void awk_program_free(awk_interp *in, awk_program *prog);
int awk_find_global(awk_program *prog, const char *name); /* -1 if absent */
int awk_add_global(awk_program *prog, const char *name);
const char *awk_builtin_name(int id);

/* ---- I/O ------------------------------------------------------------------------------ */

/* A record reader over one fd. */
typedef struct awk_reader {
  int fd;          /* the caller's fd (-1 when closed) */
  bool own_fd;     /* close fd at the end */
  char *buf;       /* buffered bytes */
  size_t start;    /* first unconsumed byte */
  size_t end;      /* end of data */
  size_t cap;      /* allocated */
  bool eof;        /* read returned 0 */
  int err;         /* read error (negative errno) */
} awk_reader;

typedef struct awk_stream {
  awk_str *name;     /* the redirection string (owned) */
  int kind;          /* AOP_RED_FILE/APPEND/PIPE (output) or IN/CMD (input) */
  int fd;            /* our end */
  int handle;        /* popen handle, or -1 */
  bool is_stdout;    /* /dev/stdout or "-": goes through cmd_out */
  bool is_stderr;    /* /dev/stderr */
  char *obuf;        /* output buffer */
  size_t olen, ocap; /* used / allocated */
  awk_reader rd;     /* input reader */
  struct awk_stream *next;
} awk_stream;

/* Reads one record with the current RS into in->rec... helpers in awk_io.c */
int awk_reader_record(awk_interp *in, awk_reader *rd, const char **rec, size_t *len,
                      const char **sep, size_t *seplen);
void awk_reader_close(awk_interp *in, awk_reader *rd);
awk_stream *awk_stream_get(awk_interp *in, int kind, awk_str *name, bool quiet);
int awk_stream_write(awk_interp *in, awk_stream *st, const char *p, size_t n);
int awk_stream_close(awk_interp *in, awk_str *name, bool *found);
void awk_close_all(awk_interp *in);
int awk_flush_all(awk_interp *in);
int awk_fflush_name(awk_interp *in, awk_str *name);
/* Main input: next record into $0 (updates NR/FNR/FILENAME). 1 ok, 0 EOF,
 * -1 error. */
int awk_next_main_record(awk_interp *in, awk_str **into_var_rec);
void awk_set_RS(awk_interp *in);

/* ---- the interpreter ------------------------------------------------------------------- */

typedef struct awk_frame {
  awk_str *blob;    /* tracked storage of the cells (freed even after a fatal error) */
  awk_cell *locals; /* parameter/local cells, inside blob */
  int nlocals;      /* count */
} awk_frame;

typedef struct awk_recache {
  awk_str *src;      /* pattern string (owned) */
  awk_regex *re;     /* compiled */
  bool icase;        /* compiled with IGNORECASE */
} awk_recache;

#define AWK_RECACHE 64

struct awk_interp {
  cmd_ctx *ctx;            /* the command context (borrowed) */
  awk_program prog;        /* the parsed program */
  awk_cell *globals;       /* global cells, prog.nglobals of them */
  int nglobals_alloc;      /* allocated cells */
  awk_str live;            /* sentinel of the live string list */
  size_t live_count;       /* strings alive (for debugging) */
  void *arrays;             /* all top-level arrays (awk_arr list, for cleanup) */
  jmp_buf fatal_jmp;       /* fatal errors jump here */
  bool fatal_set;          /* fatal_jmp is armed */
  jmp_buf exit_jmp;        /* exit/next from inside functions */
  int exit_code;           /* status for exit */
  int status;              /* final status */
  const char *progname;    /* "awk" */
  /* current source position for messages */
  int srcline;             /* last executed line (0 before any) */
  const char *srcname;     /* "cmd. line" or file */
  /* record and fields */
  awk_str *rec;            /* $0 (owned) */
  bool rec_valid;          /* $0 up to date with fields */
  bool fields_valid;       /* fields split from $0 (all of them) */
  size_t split_nf;         /* while !fields_valid: fields split so far (blank/char FS) */
  size_t split_off;        /* while !fields_valid: where splitting continues */
  awk_val *fields;         /* fields[1..nf] (index 0 unused) */
  size_t nf;               /* NF */
  size_t fields_cap;       /* allocated entries */
  int64_t nr, fnr;         /* NR, FNR */
  /* cached special variable state */
  awk_str *fs;             /* FS (owned) */
  int fs_mode;             /* 0 space, 1 single char, 2 regex, 3 empty (chars), 4 tab-like single */
  char fs_char;            /* for mode 1 */
  awk_regex *fs_re;        /* for mode 2 */
  int split_mode;          /* FS mode captured for the current record */
  char split_char;
  awk_regex *split_re;
  awk_str *split_fs;       /* FS string the current record splits with */
  awk_str *ofs, *ors, *subsep, *convfmt, *ofmt; /* owned copies */
  int rs_mode;             /* 0 newline/single char, 1 paragraph, 2 regex */
  char rs_char;
  awk_regex *rs_re;
  bool icase;              /* IGNORECASE != 0 */
  /* input */
  int argi;                /* next ARGV index to examine */
  bool main_open;          /* a main input is open */
  bool main_done;          /* no more main input */
  bool used_stdin;         /* stdin was read as main input */
  bool had_file_operand;   /* an ARGV element named a file */
  uint64_t iter_limit;     /* loop iteration budget */
  uint64_t mem, mem_limit; /* bytes held by strings, array elements and fields; the budget */
  void *elem_free_list;    /* array elements: free list and chunks (awk_array.c) */
  void *elem_chunks;
  bool teardown;           /* freeing everything: strings go with the live list */
  awk_reader main_rd;      /* the current main input */
  awk_stream *streams;     /* redirections */
  int nstreams;
  /* functions */
  awk_frame *frames;       /* call stack */
  int depth;               /* frames in use */
  size_t frames_cap;       /* frames allocated */
  awk_val retval;          /* value of `return` */
  /* regex cache for dynamic regexes */
  awk_recache recache[AWK_RECACHE];
  int recache_next;
  /* random numbers */
  double seed, prev_seed;
  uint64_t rng;
  /* loop budget */
  uint64_t ticks;          /* counts loop iterations for cmd_poll */
  bool in_end;             /* running END rules */
  bool exiting;            /* exit was called */
  bool stdout_failed;      /* writing stdout failed (EPIPE) */
  int nextfile_req;        /* nextfile requested */
  /* scratch buffers */
  awk_str *pbuf;           /* print line buffer (NULL while in use) */
  char **argv;             /* the operands (ARGV[1..]) */
  int argc;
  char *stack_limit;       /* deepest usable stack address (recursion guard) */
};

/* Fails cleanly before the C stack runs out (deep recursion in the program
 * or in its syntax tree); the limit comes from the thread's real stack. */
void awk_stack_overflow(awk_interp *in) __attribute__((noreturn));
static inline void awk_stack_check(awk_interp *in) {
  if ((char *)__builtin_frame_address(0) < in->stack_limit) awk_stack_overflow(in);
}

void awk_fatal(awk_interp *in, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
void awk_warning(awk_interp *in, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void awk_poll(awk_interp *in);

int awk_run(awk_interp *in);
void awk_interp_init(awk_interp *in, cmd_ctx *ctx);
void awk_interp_free(awk_interp *in);

/* Record and fields */
void awk_set_rec(awk_interp *in, const char *p, size_t len); /* copies */
void awk_set_rec_str(awk_interp *in, awk_str *s);           /* takes s */
awk_str *awk_get_rec(awk_interp *in);                        /* borrowed */
/* Charges n bytes to the memory budget (fatal "memory limit exceeded" past
 * it); awk_mem_release gives them back. */
void awk_mem_over(awk_interp *in);
static inline void awk_mem_charge(awk_interp *in, size_t n) {
  in->mem += n;
  if (in->mem > in->mem_limit && in->mem_limit) awk_mem_over(in);
}
static inline void awk_mem_release(awk_interp *in, size_t n) { in->mem -= n; }
void awk_elems_free_all(awk_interp *in);
void awk_split_record(awk_interp *in);
awk_val *awk_get_field(awk_interp *in, size_t i);           /* borrowed; NULL = "" */
void awk_set_field(awk_interp *in, size_t i, awk_val v);     /* takes v */
void awk_set_nf(awk_interp *in, size_t nf);
void awk_set_FS(awk_interp *in);

/* special variable access */
awk_val awk_special_get(awk_interp *in, int idx);
void awk_special_set(awk_interp *in, int idx, awk_val v); /* takes v */
void awk_assign_global(awk_interp *in, int idx, awk_val v);

/* Builtins (awk_builtin.c) */
awk_val awk_call_builtin(awk_interp *in, awk_node *n);
/* printf formatting of nargs values into a new string *out; returns its length. */
size_t awk_format_vals(awk_interp *in, const char *fmt, size_t fmtlen, awk_val *args, int nargs,
                       awk_str **out);
/* Evaluates an argument list into a tracked blob of values (free with
 * awk_keys_free). */
awk_str *awk_eval_args(awk_interp *in, awk_node *args, int *nargs);
/* Runs BEGINFILE/ENDFILE actions; returns nonzero when `exit` ran. */
int awk_run_file_rules(awk_interp *in, awk_rule *list);
void awk_skip_file(awk_interp *in);
awk_regex *awk_dynamic_re(awk_interp *in, awk_val *v);
/* awk_dynamic_re of a string (FS, RS, split's separator); s stays the caller's. */
awk_regex *awk_str_re(awk_interp *in, awk_str *s);
awk_regex *awk_node_re(awk_interp *in, awk_node *n); /* regex constant or dynamic */
awk_val awk_eval(awk_interp *in, awk_node *n);
awk_cell *awk_lvalue_cell(awk_interp *in, awk_node *n); /* for arrays/vars */
void awk_assign(awk_interp *in, awk_node *lv, awk_val v); /* takes v */
awk_arr *awk_get_array(awk_interp *in, awk_node *n);
awk_str *awk_subscript(awk_interp *in, awk_node *subs); /* joins with SUBSEP */

/* UTF-8 helpers */
size_t awk_utf8_len(const char *s, size_t len);        /* characters */
size_t awk_utf8_off(const char *s, size_t len, size_t nchars); /* byte offset */
size_t awk_utf8_char(const char *s, size_t len);       /* bytes of the first char */
size_t awk_utf8_encode(uint32_t cp, char *out);

/* Growing strings (used as the interpreter's tracked scratch buffers too):
 * appends to *s (owned, ref 1), replacing it when it must grow. */
void awk_str_append(awk_interp *in, awk_str **s, const char *p, size_t n);
void awk_str_appendc(awk_interp *in, awk_str **s, char c);

#endif
