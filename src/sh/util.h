/*
 * util.h - small helpers shared by every file of the shell: a growable byte
 * buffer (sh_buf), a vector of strings (sh_strv), a bump arena for AST nodes
 * (sh_arena, reference counted because function definitions outlive the parse
 * that created them), and checked allocation.
 *
 * Ownership: sh_buf and sh_strv own their memory; sh_buf_steal hands the bytes
 * to the caller (malloc'd, NUL-terminated). Allocation failure is fatal only in
 * sh_xmalloc and friends, which abort with a message: the shell bounds every
 * size by its limits before allocating, so an allocation failure means the host
 * is out of memory, not that a script asked for too much.
 */
#ifndef SBX_SH_UTIL_H
#define SBX_SH_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

void *sh_xmalloc(size_t n);
void *sh_xcalloc(size_t n, size_t m);
void *sh_xrealloc(void *p, size_t n);
char *sh_xstrdup(const char *s);
char *sh_xstrndup(const char *s, size_t n);
char *sh_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Room for any int64_t in decimal with its sign and NUL ("-9223372036854775808"). */
#define SH_I64_LEN 21
/* Writes v in decimal (as printf's "%" PRId64) and a NUL into buf, which has
 * SH_I64_LEN bytes; returns the length. The shell's hot paths format every
 * arithmetic result, and snprintf costs several times more. */
size_t sh_fmt_i64(char *buf, int64_t v);
/* A decimal integer argument as bash's legal_number reads one (exit, return,
 * shift, test -eq): an optional sign and digits, white space of any kind
 * before, blanks after. False when there are no digits, anything else
 * follows, or it overflows. */
bool sh_parse_number(const char *s, int64_t *v);

/* A growable byte buffer, always NUL-terminated when data != NULL. */
typedef struct sh_buf {
  char *data; /* the bytes (malloc'd) or NULL when empty and never grown */
  size_t len; /* bytes used, not counting the terminating NUL */
  size_t cap; /* bytes allocated */
} sh_buf;

void sh_buf_reserve(sh_buf *b, size_t extra);
void sh_buf_add(sh_buf *b, const void *p, size_t n);
void sh_buf_adds(sh_buf *b, const char *s);
void sh_buf_addc(sh_buf *b, char c);
void sh_buf_addf(sh_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sh_buf_vaddf(sh_buf *b, const char *fmt, va_list ap);
/* Returns the bytes (never NULL: "" when empty) and resets the buffer. */
char *sh_buf_steal(sh_buf *b);
const char *sh_buf_str(sh_buf *b); /* "" when empty; owned by the buffer */
void sh_buf_free(sh_buf *b);
static inline void sh_buf_clear(sh_buf *b) {
  b->len = 0;
  if (b->data) b->data[0] = 0;
}

/* A vector of malloc'd strings (owned). */
typedef struct sh_strv {
  char **v;   /* the strings, v[n] == NULL when n > 0 */
  size_t n;   /* count */
  size_t cap; /* allocated slots */
} sh_strv;

void sh_strv_push(sh_strv *sv, char *s); /* takes ownership of s */
void sh_strv_pushdup(sh_strv *sv, const char *s);
void sh_strv_free(sh_strv *sv);
char **sh_strv_terminated(sh_strv *sv); /* ensures v[n] == NULL; returns v */

/* A bump allocator with a reference count. All AST nodes of one parse live in
 * one arena; a function definition keeps its arena alive with sh_arena_ref. */
typedef struct sh_arena sh_arena;
sh_arena *sh_arena_new(void);
void *sh_arena_alloc(sh_arena *a, size_t n); /* zeroed, 16-aligned */
char *sh_arena_strndup(sh_arena *a, const char *s, size_t n);
char *sh_arena_strdup(sh_arena *a, const char *s);
sh_arena *sh_arena_ref(sh_arena *a);
void sh_arena_unref(sh_arena *a);
size_t sh_arena_bytes(const sh_arena *a); /* bytes handed out so far */
/* Room for item n of an arena array `items` of *cap slots of `size` bytes:
 * `items` itself while n < *cap, else a copy with twice the slots (`first`
 * for an empty one; *cap updated). The old array stays until the arena goes. */
void *sh_arena_grow(sh_arena *a, void *items, size_t n, size_t *cap, size_t first,
                    size_t size);

/* The UTF-8 bytes of code point `cp` into out, as bash 5.2 writes \u and \U
 * escapes: 1 to 4 bytes up to U+10FFFF (surrogates too), the original 5- and
 * 6-byte forms up to 0x7FFFFFFF (\U00110000 is F4 90 80 80), and nothing (0
 * returned) above that. Returns the byte count. */
#define SH_UTF8_MAX 6
size_t sh_utf8_encode(uint32_t cp, char out[SH_UTF8_MAX]);

/* The value of hex digit c (0-9, a-f, A-F), or -1. */
int sh_hex_digit(int c);
/* Appends the text of $'...' (s: the n bytes between the quotes) to out with
 * bash's ANSI-C escapes decoded (\n \t \e \cX \xHH \uHHHH \ooo ...); an
 * unknown escape stays as written, and a NUL (\0, \x00, \c@) ends the text. */
void sh_ansi_c_decode(const char *s, size_t n, sh_buf *out);
/* Appends s (n bytes) in single quotes, a quote in it as '\''. */
void sh_buf_add_single_quoted(sh_buf *b, const char *s, size_t n);

/* True if s is a valid shell name: [A-Za-z_][A-Za-z0-9_]*. */
bool sh_is_name(const char *s);
bool sh_is_name_n(const char *s, size_t n);
static inline bool sh_is_name_start(int c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
static inline bool sh_is_name_char(int c) {
  return sh_is_name_start(c) || (c >= '0' && c <= '9');
}

/* The running shell's locale is C/POSIX (LC_ALL, LC_CTYPE, LANG): strings
 * are bytes, not UTF-8 characters, for ${#x}, slices, patterns. Set per
 * thread by the executor from sh_shell.bytes_locale. */
extern _Thread_local bool sh_locale_bytes;

/* The byte length of the UTF-8 sequence at s, n bytes left: 1 for ASCII and
 * for an invalid or truncated sequence (which counts as one char per byte). */
static inline size_t sh_utf8_seq_len(const char *s, size_t n) {
  unsigned char c = (unsigned char)s[0];
  size_t l = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 1;
  if (l > n) return 1;
  for (size_t k = 1; k < l; k++)
    if (((unsigned char)s[k] & 0xC0) != 0x80) return 1;
  return l;
}
/* The byte length of the character at s in the running locale: one byte in
 * C/POSIX, else a UTF-8 sequence. For the expander's slices and the glob
 * matcher, which must step through a string the same way. */
static inline size_t sh_char_len(const char *s, size_t n) {
  return sh_locale_bytes ? 1 : sh_utf8_seq_len(s, n);
}

/* Monotonic time in nanoseconds. */
int64_t sh_now_ns(void);

#endif
