/*
 * jq_value.h - the JSON values of sbx's jq engine: refcounted, copy-on-write,
 * objects in insertion order; plus JSON text in (parser) and out (printer).
 *
 * Ownership rule (the same everywhere in src/cmd/jq/): every function that
 * takes a jqv consumes it and every function that returns one hands over a
 * reference, except where a parameter is `const jqv *` or the comment says
 * "borrowed". jqv_copy adds a reference, jqv_free drops one. A container
 * shared by several references is copied before it is changed (COW).
 *
 * Memory: every heap allocation is counted in jqv_mem_used (per thread), so
 * the engine can stop a program that grows past its budget. Nesting is not
 * bounded by values themselves: freeing is iterative; comparing, printing
 * and the other recursive walks stop at JQV_MAX_DEPTH and fail cleanly.
 */
#ifndef SBX_CMD_JQ_VALUE_H
#define SBX_CMD_JQ_VALUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum {
  JQV_KIND_INVALID,
  JQV_KIND_NULL,
  JQV_KIND_FALSE,
  JQV_KIND_TRUE,
  JQV_KIND_NUMBER,
  JQV_KIND_STRING,
  JQV_KIND_ARRAY,
  JQV_KIND_OBJECT,
} jqv_kind;

struct jqv_heap;

/* A value: the kind, a number, or a counted heap block (string, array,
 * object, an invalid's message, a number's literal text). */
typedef struct jqv {
  uint8_t kind;         /* jqv_kind */
  uint8_t lit;          /* JQV_KIND_NUMBER: from a literal, not computed */
  double num;           /* JQV_KIND_NUMBER */
  struct jqv_heap *h;   /* string/array/object body, invalid message; or NULL */
} jqv;

#define JQV_MAX_DEPTH 10000 /* nesting the recursive walks accept */
#define JQV_MAX_PRINT_DEPTH 10000 /* deeper values print as <skipped: too deep> (jq) */

/* Set when a comparison, containment check or merge met nesting deeper than
 * JQV_MAX_DEPTH (its result is then meaningless); callers clear it first and
 * raise jq 1.8's "... too deep" error. */
extern _Thread_local bool jqv_too_deep;
extern _Thread_local size_t jqv_mem_used; /* bytes held by values of this thread */
/* Out of memory inside a value operation has nothing sane to return: the
 * run that set jqv_oom_jmp (cmd_jq_run) is unwound to it, leaking what it
 * held, so the host process and the other sandboxes go on; with no run
 * active the process exits (70). */
#include <setjmp.h>
extern _Thread_local jmp_buf *jqv_oom_jmp;
/* Test hook (tests/cmd/test_jq.c): when > 0, the allocation that brings it
 * to 0 fails. Never set outside the tests. */
extern int jqv_test_fail_after;
extern _Thread_local size_t jqv_text_limit; /* longest text jqv_dump_string builds (0: 64 MiB) */

jqv jqv_null(void);
jqv jqv_true(void);
jqv jqv_false(void);
jqv jqv_bool(bool b);
jqv jqv_number(double d);
/* A number from literal text s (JSON or program), valued d: keeps jq 1.8's
 * canonical literal when it differs from d's text (see jq_value.c). */
jqv jqv_number_literal(const char *s, size_t n, double d);
const char *jqv_number_get_literal(const jqv *v); /* NULL: print the double */
jqv jqv_number_negate(jqv v);
jqv jqv_number_abs(jqv v);
void jqv_literals_release(void); /* frees this thread's literals (end of a run) */
jqv jqv_invalid(void);
jqv jqv_invalid_with_msg(jqv msg);
bool jqv_invalid_has_msg(jqv v);
jqv jqv_invalid_get_msg(jqv v); /* null when none */
jqv_kind jqv_get_kind(const jqv v);
const char *jqv_kind_name(jqv_kind k);
static inline bool jqv_is_valid(const jqv v) { return v.kind != JQV_KIND_INVALID; }
jqv jqv_copy(jqv v);
void jqv_free(jqv v);
int jqv_refcnt(const jqv v);
static inline double jqv_number_value(const jqv v) { return v.num; }
bool jqv_is_integer(const jqv v);

/* Strings (UTF-8, may hold NUL). */
jqv jqv_string(const char *s);
jqv jqv_string_sized(const char *s, size_t n); /* invalid UTF-8 becomes U+FFFD */
jqv jqv_string_raw(const char *s, size_t n);   /* bytes known to be valid */
jqv jqv_string_fmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
const char *jqv_string_value(const jqv v); /* borrowed, NUL-terminated */
size_t jqv_string_length_bytes(jqv v);
size_t jqv_string_len(const jqv v); /* borrowed */
size_t jqv_string_length_codepoints(jqv v);
jqv jqv_string_concat(jqv a, jqv b);
jqv jqv_string_append_buf(jqv a, const char *s, size_t n);
uint32_t jqv_string_hash(const jqv v);
jqv jqv_string_from_codepoint(int c);

/* Arrays. */
jqv jqv_array(void);
jqv jqv_array_sized(size_t n);
size_t jqv_array_length(jqv a);
size_t jqv_array_len(const jqv a); /* borrowed */
jqv jqv_array_get(jqv a, long i);  /* invalid when out of range */
const jqv *jqv_array_at(const jqv a, size_t i); /* borrowed element */
jqv jqv_array_set(jqv a, long i, jqv v); /* grows with nulls; negative counts from end */
jqv jqv_array_append(jqv a, jqv v);
jqv jqv_array_concat(jqv a, jqv b);
jqv jqv_array_slice(jqv a, size_t start, size_t end);
#define JQV_ARRAY(a, b) jqv_array_append(jqv_array_append(jqv_array(), a), b)

/* Objects (insertion order). */
jqv jqv_object(void);
size_t jqv_object_length(jqv o);
size_t jqv_object_len(const jqv o); /* borrowed */
jqv jqv_object_get(jqv o, jqv key); /* invalid when absent */
const jqv *jqv_object_find(const jqv o, const char *key, size_t klen); /* borrowed or NULL */
bool jqv_object_has(jqv o, jqv key);
jqv jqv_object_set(jqv o, jqv key, jqv v);
jqv jqv_object_delete(jqv o, jqv key);
jqv jqv_object_merge(jqv a, jqv b);         /* a + b */
jqv jqv_object_merge_recursive(jqv a, jqv b); /* a * b */
const jqv *jqv_object_key_at(const jqv o, size_t i);   /* borrowed; i < len */
const jqv *jqv_object_value_at(const jqv o, size_t i); /* borrowed */
jqv jqv_keys(jqv o);          /* sorted by codepoint */
jqv jqv_keys_unsorted(jqv o); /* insertion order */

#define jqv_array_foreach(a, i, x)                                                            \
  for (long i = 0, i##_n_ = (long)jqv_array_len(a); i < i##_n_; i++)                          \
    for (jqv x = jqv_copy(*jqv_array_at(a, (size_t)i)), *x##_once_ = &x; x##_once_;            \
         x##_once_ = NULL)
#define jqv_object_foreach(o, k, v)                                                           \
  for (size_t k##_i_ = 0, k##_n_ = jqv_object_len(o); k##_i_ < k##_n_; k##_i_++)              \
    for (jqv k = jqv_copy(*jqv_object_key_at(o, k##_i_)), v = jqv_copy(*jqv_object_value_at(o, k##_i_)), \
             *k##_once_ = &k;                                                                 \
         k##_once_; k##_once_ = NULL)

/* Comparison (jq's order: null < false < true < numbers < strings < arrays <
 * objects). Borrowed. Returns <0, 0, >0. Deeper than JQV_MAX_DEPTH compares
 * as equal at that depth. */
int jqv_cmp(const jqv *a, const jqv *b);
bool jqv_equal(jqv a, jqv b);
bool jqv_identical(jqv a, jqv b);
bool jqv_contains(const jqv *a, const jqv *b); /* jq 1.8's contains (borrowed) */
jqv jqv_sort(jqv a);                            /* array of values, sorted */

/* Printing. */
#define JQV_PRINT_PRETTY 1
#define JQV_PRINT_ASCII 2
#define JQV_PRINT_COLOR 4
#define JQV_PRINT_SORTED 8
#define JQV_PRINT_TAB 16
#define JQV_PRINT_INDENT_FLAGS(n) \
  ((n) < 0 || (n) > 7 ? (JQV_PRINT_TAB | JQV_PRINT_PRETTY) : (n) == 0 ? 0 : (JQV_PRINT_PRETTY | ((n) << 8)))
#define JQV_PRINT_INDENT_MASK (0xf << 8)

/* A growing byte buffer for the printer. */
typedef struct jqv_buf {
  char *data;      /* bytes (malloc'd), NUL-terminated when non-NULL */
  size_t len, cap; /* used / allocated */
  size_t limit;    /* 0 = none; past it `over` is set and bytes are dropped */
  bool over;       /* hit the limit or out of memory */
  /* when set, called with the bytes held once they pass 64 KiB (then the
   * buffer is emptied); returning false stops the writer (`over`) */
  bool (*flush)(void *ud, const char *p, size_t n);
  void *flush_ud;
} jqv_buf;
void jqv_buf_add(jqv_buf *b, const void *p, size_t n);
void jqv_buf_adds(jqv_buf *b, const char *s);
void jqv_buf_addc(jqv_buf *b, char c);
void jqv_buf_free(jqv_buf *b);

/* Appends the JSON text of *v (borrowed) to b. colors: NULL for default
 * colours (JQV_PRINT_COLOR), else an array of 8 escape sequences. Returns
 * false when too deep. */
bool jqv_dump(jqv_buf *b, const jqv *v, int flags, const char *const *colors);
jqv jqv_dump_string(jqv v, int flags); /* invalid with message when too deep */
#define JQV_NUMBER_TEXT_SIZE 40 /* the longest number text (34 bytes: "-" and 32 digits) and its NUL */
void jqv_number_text(double d, char out[JQV_NUMBER_TEXT_SIZE]); /* jq 1.8's number text */
void jqv_buf_add_json_string(jqv_buf *b, const char *s, size_t n, bool ascii);

/* The byte a one-letter JSON escape stands for (\" \\ \/ \b \f \n \r \t: e is
 * the letter), or -1 (\u and invalid escapes); JSON texts and jq string
 * literals share it. */
int jqv_json_escape(char e);

/* Parsing one JSON text (the whole buffer must be one value, whitespace
 * around). Returns the value or an invalid with jq's message. */
jqv jqv_parse(const char *s, size_t n);

/* An incremental JSON text parser over a stream of values (jq's input). */
typedef struct jqv_parser jqv_parser;
jqv_parser *jqv_parser_new(bool seq);
void jqv_parser_free(jqv_parser *p);
/* Gives the parser more bytes (borrowed until the next feed/next call). */
void jqv_parser_feed(jqv_parser *p, const char *s, size_t n, bool last);
/* The next value: a valid value; invalid without message = need more
 * input (or end when `last` was fed); invalid with message = parse error
 * (jq's text, e.g. "Unfinished JSON term at EOF at line 2, column 0"). */
jqv jqv_parser_next(jqv_parser *p);
unsigned long jqv_parser_line(const jqv_parser *p);
bool jqv_parser_remaining(const jqv_parser *p); /* unparsed non-space bytes */
/* --stream: jqv_parser_next returns the events of the input ([path, leaf],
 * [path] after a container's last child) as they are read, holding only the
 * path and the current scalar, so memory stays constant over any input. */
void jqv_parser_set_stream(jqv_parser *p);
/* The path where a --stream parse error happened (--stream-errors). */
jqv jqv_parser_stream_path(const jqv_parser *p);
/* Element mode (`.[] | f` programs): a top-level array is returned one
 * element at a time; other values whole (an empty array too).
 * jqv_parser_in_array says whether the last value was such an element;
 * jqv_parser_skip_array drops the rest of the current array (after an error,
 * jq abandons the input). */
void jqv_parser_set_each(jqv_parser *p);
bool jqv_parser_in_array(const jqv_parser *p);
void jqv_parser_skip_array(jqv_parser *p);

#endif
