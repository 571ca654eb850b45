/*
 * sort_keys.h - GNU sort's key definitions and comparisons, shared by sort.c
 * and the fuzz target fuzz/fuzz_sort_keys.c.
 *
 * A sort_keys value holds the parsed keys (-k KEYDEF, or the global options as
 * one whole-line key), the field separator and the global flags; it compares
 * two lines given as (text, length) without their delimiter, exactly as GNU
 * sort 9.1 does under LC_ALL=C.UTF-8, where collation is byte order.
 */
#ifndef SBX_CMD_SORT_KEYS_H
#define SBX_CMD_SORT_KEYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SORT_NO_END SIZE_MAX /* key runs to the end of the line */
#define SORT_TAB_DEFAULT 256 /* no -t: fields begin at blank runs */

typedef struct sort_key {
  size_t sword;        /* start field, 0-based */
  size_t schar;        /* start char in the field, 0-based */
  size_t eword;        /* end field, 0-based, or SORT_NO_END */
  size_t echar;        /* end char, 1-based; 0 = end of the field */
  const bool *ignore;  /* table of bytes to skip (-d / -i), or NULL */
  bool translate;      /* -f: fold lower case to upper case */
  bool skipsblanks;    /* b on the start position */
  bool skipeblanks;    /* b on the end position */
  bool numeric;        /* -n */
  bool general_numeric;/* -g */
  bool human_numeric;  /* -h */
  bool month;          /* -M */
  bool random;         /* -R */
  bool version;        /* -V */
  bool reverse;        /* -r */
} sort_key;

#define SORT_MAX_KEYS 64

typedef struct sort_keys {
  sort_key keys[SORT_MAX_KEYS]; /* in order of significance */
  int nkeys;                    /* 0: compare whole lines only */
  int tab;                      /* separator byte, or SORT_TAB_DEFAULT */
  bool reverse;                 /* global -r (applies to the last resort) */
  bool unique;                  /* -u: no last-resort comparison */
  bool stable;                  /* -s: no last-resort comparison */
  uint64_t salt[2];             /* -R hash salt */
  /* Scratch buffers for translated keys and for strtold (owned; free with
   * sort_keys_free). */
  char *scratch[2];
  size_t scratch_cap[2];
} sort_keys;

/* Byte classes in the C.UTF-8 locale (single bytes >= 0x80 are not
 * characters, so they are neither printable nor alphanumeric). */
extern const bool sort_nonprinting[256];
extern const bool sort_nondictionary[256];

/*
 * Parses a KEYDEF (F[.C][OPTS][,F[.C][OPTS]]) into *key, starting from
 * `defaults` (all false). On error returns -1 and sets *msg to GNU's text,
 * e.g. "field number is zero: invalid field specification" (the caller adds
 * the quoted spec) or, when *count_err is set, the "invalid count at start of"
 * form, quoting *at (the text where the count was expected). Returns 0 on
 * success.
 */
int sort_parse_keydef(const char *spec, sort_key *key, const char **msg,
                      bool *count_err, const char **at);

/* Applies one ordering letter [bdfgiMhnRrV] to a key; `end` says whether it
 * came after the end position (b then means skipeblanks). false if unknown. */
bool sort_key_set_option(sort_key *key, char c, bool end);

/* True when the key has no ordering options of its own (GNU's
 * default_key_compare), so it inherits the global ones. */
bool sort_key_is_default(const sort_key *key);

/* GNU's key_to_opts: the letters of the key's ordering options, in GNU's
 * order, into buf; 'b' and 'r' only when blank_reverse. */
void sort_key_opts(const sort_key *key, char buf[16], bool blank_reverse);

/* If a key mixes incompatible orderings, writes GNU's option letters for the
 * "options '-%s' are incompatible" message into buf and returns true. */
bool sort_key_incompatible(const sort_key *key, char buf[16]);

/* Compares two lines: keys first, then (unless unique or stable) the whole
 * lines bytewise, reversed by the global -r. */
int sort_compare(sort_keys *k, const char *a, size_t alen, const char *b, size_t blen);

/* Only the keys (no last resort); 0 when there are no keys. */
int sort_keycompare(sort_keys *k, const char *a, size_t alen, const char *b, size_t blen);

/* The [begin, limit) of key `key` in a line. */
void sort_key_bounds(const sort_keys *k, const sort_key *key, const char *line,
                     size_t len, size_t *beg, size_t *lim);

void sort_keys_free(sort_keys *k);

/* Comparison helpers, exported for tests and fuzzing. */
int sort_numcompare(const char *a, size_t alen, const char *b, size_t blen);
int sort_human_numcompare(const char *a, size_t alen, const char *b, size_t blen);
int sort_getmonth(const char *s, size_t len);
int sort_filevercmp(const char *a, size_t alen, const char *b, size_t blen);

#endif
