/*
 * sort - sort lines of text files.
 *
 *   Usage: sort [OPTION]... [FILE]...   or: sort [OPTION]... --files0-from=F
 *   Ordering: -b -d -f -g -h -i -M -n -R --random-source=FILE -r -V
 *             --sort=WORD (general-numeric human-numeric month numeric random
 *             version)
 *   Other: -c/--check[=diagnose-first|quiet|silent], -C, -k KEYDEF, -m, -o FILE,
 *          -s, -t SEP, -u, -z, --files0-from=F; -S SIZE, -T DIR, --parallel=N,
 *          --batch-size=N and --compress-program=PROG are validated and ignored.
 *   KEYDEF is F[.C][OPTS][,F[.C][OPTS]]; also the obsolete +POS1 [-POS2].
 *
 * Design: all input is read into one buffer (files joined, a missing final
 * delimiter added), indexed by 16-byte records (offset, length and the first
 * 8 bytes of the first key as a big-endian integer). Sorts with keys use a
 * stable merge sort, where the 8-byte prefix settles most comparisons of
 * byte-order keys without touching the text. The whole-line default sort
 * (no keys) is a most-significant-digit radix sort over 8-byte digits (see
 * radix_plain): no line is compared whole, which makes it several times
 * faster than the merge sort on text with long common prefixes. The sorting
 * loops call cmd_poll every 65,536 lines, so a deadline or a cancel stops
 * a sort of millions of lines. Keys and orderings live in sort_keys.c
 * (shared with the fuzz target).
 *
 * Memory: input plus index is held in memory up to a budget of 8 x
 * ctx->max_string (at least 256 MiB, at most 3 GiB); beyond it sort fails
 * with "sort: memory exhausted (...)" and status 2 instead of spilling to
 * temporary files: the sandbox's own limits bound what a call may hold.
 *
 * Exactness notes: the last-resort comparison (whole line, bytewise, reversed
 * by a global -r) runs unless -s or -u, keys without options inherit the
 * global ones, -u keeps the first line of each equal run, -m merges without
 * sorting (earlier files win ties), and -o may name an input file because
 * everything is read before the output is opened. -R uses a salted 64-bit
 * hash (random order, identical keys grouped), not GNU's MD5 byte stream, so
 * --random-source gives a reproducible order that differs from GNU's.
 *
 * --debug follows GNU 9.1: the notes of key_warnings on stderr (locale,
 * obsolescent keys, zero-width keys, significant blanks, numeric keys that
 * span fields, separators that look like number parts, ignored global
 * options), then each output line with tabs shown as '>' and one underline
 * per key (and one for the last-resort whole line unless -s or -u), where
 * numeric and month keys are narrowed to the number or month name. Widths
 * count characters as gnulib's mbsnwidth plus one per tab.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/sort/sort_keys.h"
#include "cmd/lib/buf.h"
#include "cmd/lib/fs.h"
#include "cmd/lib/gnu.h"
#include "cmd/lib/bytescan.h"

CMD_DEFINE("sort", cmd_sort_main);

#define SORT_FAILURE 2
#define SORT_POLL_EVERY 65536 /* lines between cmd_poll calls (a power of two) */

static const char sort_usage[] =
    "Usage: sort [OPTION]... [FILE]...\n"
    "  or:  sort [OPTION]... --files0-from=F\n"
    "Write sorted concatenation of all FILE(s) to standard output.\n"
    "\n"
    "With no FILE, or when FILE is -, read standard input.\n"
    "\n"
    "Mandatory arguments to long options are mandatory for short options too.\n"
    "Ordering options:\n"
    "\n"
    "  -b, --ignore-leading-blanks  ignore leading blanks\n"
    "  -d, --dictionary-order      consider only blanks and alphanumeric characters\n"
    "  -f, --ignore-case           fold lower case to upper case characters\n"
    "  -g, --general-numeric-sort  compare according to general numerical value\n"
    "  -i, --ignore-nonprinting    consider only printable characters\n"
    "  -M, --month-sort            compare (unknown) < 'JAN' < ... < 'DEC'\n"
    "  -h, --human-numeric-sort    compare human readable numbers (e.g., 2K 1G)\n"
    "  -n, --numeric-sort          compare according to string numerical value\n"
    "  -R, --random-sort           shuffle, but group identical keys.  See shuf(1)\n"
    "      --random-source=FILE    get random bytes from FILE\n"
    "  -r, --reverse               reverse the result of comparisons\n"
    "      --sort=WORD             sort according to WORD:\n"
    "                                general-numeric -g, human-numeric -h, month -M,\n"
    "                                numeric -n, random -R, version -V\n"
    "  -V, --version-sort          natural sort of (version) numbers within text\n"
    "\n"
    "Other options:\n"
    "\n"
    "      --batch-size=NMERGE   accepted, ignored (everything is in memory)\n"
    "  -c, --check, --check=diagnose-first  check for sorted input; do not sort\n"
    "  -C, --check=quiet, --check=silent  like -c, but do not report first bad line\n"
    "      --compress-program=PROG  accepted, ignored\n"
    "      --files0-from=F       read input from the files specified by\n"
    "                            NUL-terminated names in file F;\n"
    "                            If F is - then read names from standard input\n"
    "  -k, --key=KEYDEF          sort via a key; KEYDEF gives location and type\n"
    "  -m, --merge               merge already sorted files; do not sort\n"
    "  -o, --output=FILE         write result to FILE instead of standard output\n"
    "  -s, --stable              stabilize sort by disabling last-resort comparison\n"
    "  -S, --buffer-size=SIZE    accepted, ignored\n"
    "  -t, --field-separator=SEP  use SEP instead of non-blank to blank transition\n"
    "  -T, --temporary-directory=DIR  accepted, ignored\n"
    "      --parallel=N          accepted, ignored\n"
    "  -u, --unique              with -c, check for strict ordering;\n"
    "                              without -c, output only the first of an equal run\n"
    "  -z, --zero-terminated     line delimiter is NUL, not newline\n"
    CMD_HELP_VERSION_LINES
    "\n"
    "KEYDEF is F[.C][OPTS][,F[.C][OPTS]] for start and stop position, where F is a\n"
    "field number and C a character position in the field; both are origin 1, and\n"
    "the stop position defaults to the line's end.  If neither -t nor -b is in\n"
    "effect, characters in a field are counted from the beginning of the preceding\n"
    "whitespace.  OPTS is one or more single-letter ordering options [bdfgiMhnRrV],\n"
    "which override global ordering options for that key.  If no key is given, use\n"
    "the entire line as the key.\n";

/* One input line in the index. */
typedef struct sort_line {
  uint64_t prefix; /* first 8 bytes of the first key, big-endian, 0-padded */
  uint32_t off;    /* offset of the line in the data buffer */
  uint32_t len;    /* length without the delimiter */
} sort_line;

typedef struct sort_state {
  cmd_ctx *ctx;
  sort_keys keys;     /* keys, separator, global flags */
  char delim;         /* '\n' or '\0' */
  bool prefix_ok;     /* the first key is plain bytes: prefixes decide order */
  bool plain;         /* no keys: whole lines bytewise */
  char *data;         /* all input (malloc'd) */
  size_t len, cap;    /* bytes used / allocated */
  size_t budget;      /* most bytes of data + index we may hold */
  const char *out_path; /* -o FILE or NULL */
  size_t depth;       /* radix_plain: bytes known equal in the run being sorted */
  bool debug;         /* --debug: annotate the output lines */
} sort_state;

/* ---- reading ------------------------------------------------------------------------ */

static size_t sort_budget(cmd_ctx *ctx) {
  uint64_t b = ctx->max_string ? ctx->max_string * 8 : (1ull << 30);
  if (b < (256ull << 20)) b = 256ull << 20;
  if (b > (3ull << 30)) b = 3ull << 30;
  return (size_t)b;
}

static int sort_memory_error(sort_state *S) {
  cmd_errorf(S->ctx, "memory exhausted (input larger than the %zu MiB in-memory limit)",
             S->budget >> 20);
  return SORT_FAILURE;
}

static int sort_reserve(sort_state *S, size_t more) {
  if (S->cap - S->len >= more) return 0;
  size_t need = S->len + more;
  if (need > S->budget) return -1;
  size_t ncap = S->cap ? S->cap : 1 << 20;
  while (ncap < need) ncap *= 2;
  if (ncap > S->budget) ncap = S->budget;
  char *nd = realloc(S->data, ncap);
  if (!nd) return -1;
  S->data = nd;
  S->cap = ncap;
  return 0;
}

/* Appends one input to S->data, adding a final delimiter if missing.
 * Returns 0, or the exit status after printing the error. */
static int sort_read_file(sort_state *S, const char *name) {
  cmd_ctx *ctx = S->ctx;
  int fd = cmd_open_input(ctx, name);
  if (fd < 0) {
    cmd_record_error(ctx, fd, name);
    if (fd == -EISDIR)
      cmd_errorf(ctx, "read failed: %s: %s", cmd_gnu_quotef(ctx, name), cmd_strerror(fd));
    else
      cmd_errorf(ctx, "cannot read: %s: %s", cmd_gnu_quotef(ctx, name), cmd_strerror(fd));
    return SORT_FAILURE;
  }
  size_t start = S->len;
  /* A seekable input tells its size: reserve it at once. */
  int64_t cur = ctx->io->lseek(ctx->io_ud, fd, 0, SEEK_CUR);
  int64_t end = cur >= 0 ? ctx->io->lseek(ctx->io_ud, fd, 0, SEEK_END) : -1;
  if (cur >= 0 && end >= 0) {
    ctx->io->lseek(ctx->io_ud, fd, cur, SEEK_SET);
    if (end > cur && sort_reserve(S, (size_t)(end - cur) + 1) < 0) {
      cmd_close_input(ctx, fd);
      return sort_memory_error(S);
    }
  }
  int status = 0;
  for (;;) {
    if (cmd_poll(ctx)) {
      status = SORT_FAILURE;
      break;
    }
    if (sort_reserve(S, 65536) < 0) {
      status = sort_memory_error(S);
      break;
    }
    ssize_t r = ctx->io->read(ctx->io_ud, fd, S->data + S->len, S->cap - S->len);
    if (r == -EINTR) continue;
    if (r < 0) {
      cmd_record_error(ctx, (int)r, name);
      cmd_errorf(ctx, "read failed: %s: %s", cmd_gnu_quotef(ctx, name), cmd_strerror((int)r));
      status = SORT_FAILURE;
      break;
    }
    if (r == 0) break;
    S->len += (size_t)r;
  }
  cmd_close_input(ctx, fd);
  if (status == 0 && S->len > start && S->data[S->len - 1] != S->delim) {
    if (sort_reserve(S, 1) < 0) return sort_memory_error(S);
    S->data[S->len++] = S->delim;
  }
  return status;
}

/* ---- indexing ------------------------------------------------------------------------ */

static uint64_t prefix_of(const char *p, size_t n) {
  uint64_t v = 0;
  for (size_t i = 0; i < 8; i++) v = (v << 8) | (i < n ? (unsigned char)p[i] : 0);
  return v;
}

/* Builds the index of lines in data[from, to). Returns the count, -1 when
 * out of memory or -2 when cmd_poll fired (every SORT_POLL_EVERY lines). */
static ssize_t sort_index(sort_state *S, size_t from, size_t to, sort_line **out) {
  size_t n = cmd_count_byte(S->data + from, to - from, (unsigned char)S->delim);
  if (S->len + n * 2 * sizeof(sort_line) > S->budget) return -1;
  sort_line *v = malloc((n ? n : 1) * sizeof *v);
  if (!v) return -1;
  size_t i = 0, pos = from;
  const sort_key *k0 = S->keys.nkeys ? &S->keys.keys[0] : NULL;
  while (pos < to) {
    const char *line = S->data + pos;
    const char *nl = memchr(line, S->delim, to - pos);
    size_t len = (size_t)(nl - line);
    v[i].off = (uint32_t)pos;
    v[i].len = (uint32_t)len;
    if (!S->prefix_ok) {
      v[i].prefix = 0;
    } else if (!k0) {
      v[i].prefix = prefix_of(line, len);
    } else {
      size_t b, l;
      sort_key_bounds(&S->keys, k0, line, len, &b, &l);
      v[i].prefix = prefix_of(line + b, l - b);
    }
    i++;
    pos += len + 1;
    if ((i & (SORT_POLL_EVERY - 1)) == 0 && cmd_poll(S->ctx)) {
      free(v);
      return -2;
    }
  }
  *out = v;
  return (ssize_t)n;
}

/* ---- comparing and sorting ----------------------------------------------------------- */

static inline int cmp_plain(const sort_state *S, const sort_line *a, const sort_line *b) {
  int d;
  if (a->prefix != b->prefix) {
    d = a->prefix < b->prefix ? -1 : 1;
  } else {
    size_t n = a->len < b->len ? a->len : b->len;
    d = memcmp(S->data + a->off, S->data + b->off, n);
    if (!d) d = a->len < b->len ? -1 : a->len != b->len;
  }
  return S->keys.reverse ? -d : d;
}

static int cmp_general(sort_state *S, const sort_line *a, const sort_line *b) {
  if (S->prefix_ok && a->prefix != b->prefix) {
    /* The first key is plain bytes and differs within 8 bytes. */
    int d = a->prefix < b->prefix ? -1 : 1;
    return S->keys.keys[0].reverse ? -d : d;
  }
  return sort_compare(&S->keys, S->data + a->off, a->len, S->data + b->off, b->len);
}

/* A stable bottom-up merge sort with insertion-sorted runs of 16, written
 * once as a macro so the plain comparison is inlined in its instance.
 * cmd_poll is asked every SORT_POLL_EVERY lines placed (a pass over millions
 * of lines takes long enough to outlive a deadline); false when it fired. */
#define SORT_DEFINE_MERGESORT(NAME, CMP)                                          \
  static bool NAME(sort_state *S, sort_line *v, sort_line *tmp, size_t n) {       \
    const size_t RUN = 16;                                                        \
    size_t work = 0;                                                              \
    for (size_t lo = 0; lo < n; lo += RUN) {                                      \
      size_t hi = lo + RUN < n ? lo + RUN : n;                                    \
      for (size_t i = lo + 1; i < hi; i++) {                                      \
        sort_line x = v[i];                                                       \
        size_t j = i;                                                             \
        while (j > lo && CMP(S, &v[j - 1], &x) > 0) {                             \
          v[j] = v[j - 1];                                                        \
          j--;                                                                    \
        }                                                                         \
        v[j] = x;                                                                 \
      }                                                                           \
      if ((work += RUN) >= SORT_POLL_EVERY) {                                     \
        work = 0;                                                                 \
        if (cmd_poll(S->ctx)) return false;                                       \
      }                                                                           \
    }                                                                             \
    sort_line *src = v, *dst = tmp;                                               \
    for (size_t width = RUN; width < n; width *= 2) {                             \
      for (size_t lo = 0; lo < n; lo += 2 * width) {                              \
        size_t mid = lo + width < n ? lo + width : n;                             \
        size_t hi = lo + 2 * width < n ? lo + 2 * width : n;                      \
        size_t i = lo, j = mid, k = lo;                                           \
        if ((work += hi - lo) >= SORT_POLL_EVERY) {                               \
          work = 0;                                                               \
          if (cmd_poll(S->ctx)) return false;                                     \
        }                                                                         \
        if (mid < hi && CMP(S, &src[mid - 1], &src[mid]) <= 0) {                  \
          memcpy(dst + lo, src + lo, (hi - lo) * sizeof *src);                    \
          continue;                                                               \
        }                                                                         \
        while (i < mid && j < hi)                                                 \
          dst[k++] = CMP(S, &src[j], &src[i]) < 0 ? src[j++] : src[i++];          \
        while (i < mid) dst[k++] = src[i++];                                      \
        while (j < hi) dst[k++] = src[j++];                                       \
      }                                                                           \
      sort_line *t = src;                                                         \
      src = dst;                                                                  \
      dst = t;                                                                    \
    }                                                                             \
    if (src != v) memcpy(v, src, n * sizeof *v);                                  \
    return true;                                                                  \
  }

/* Whole lines bytewise, ascending, ignoring -r (the radix sort's fallback;
 * `prefix` holds 8 bytes from the same depth in both lines). */
static inline int cmp_bytes(const sort_state *S, const sort_line *a, const sort_line *b) {
  if (a->prefix != b->prefix) return a->prefix < b->prefix ? -1 : 1;
  size_t n = a->len < b->len ? a->len : b->len;
  int d = memcmp(S->data + a->off, S->data + b->off, n);
  return d ? d : a->len < b->len ? -1 : a->len != b->len;
}

/* By prefix alone (the radix sort's order for runs too short for passes). */
static inline int cmp_prefix(const sort_state *S, const sort_line *a, const sort_line *b) {
  (void)S;
  return a->prefix < b->prefix ? -1 : a->prefix != b->prefix;
}

/* Whole lines bytewise from S->depth (both longer than that and equal
 * before it; `prefix` holds their 8 bytes at depth). */
static inline int cmp_tail(const sort_state *S, const sort_line *a, const sort_line *b) {
  if (a->prefix != b->prefix) return a->prefix < b->prefix ? -1 : 1;
  size_t n = (a->len < b->len ? a->len : b->len) - S->depth;
  int d = memcmp(S->data + a->off + S->depth, S->data + b->off + S->depth, n);
  return d ? d : a->len < b->len ? -1 : a->len != b->len;
}

SORT_DEFINE_MERGESORT(sort_lines_general, cmp_general)
SORT_DEFINE_MERGESORT(sort_lines_bytes, cmp_bytes)
SORT_DEFINE_MERGESORT(sort_lines_prefix, cmp_prefix)
SORT_DEFINE_MERGESORT(sort_lines_tail, cmp_tail)

/* ---- the plain sort: radix over 8-byte keys ---------------------------------------------
 *
 * Without keys the order is bytewise over whole lines (C.UTF-8 collates by
 * code point, which is byte order), so lines that compare equal are equal
 * bytes: any correct sort is stable enough, and -r is the ascending order
 * reversed. The sort is most-significant-first by 8-byte digits: lines are
 * ordered by the big-endian key of their bytes [depth, depth+8) (zero-padded)
 * with an LSD byte radix sort (passes whose byte is the same in every key
 * are skipped; short runs merge-sort the keys instead); then each run of equal keys is split by length: lines that
 * end inside the key window sort first, by length (each is a prefix of the
 * longer ones), and the longer ones recurse at depth+8. Below level 0 a
 * tied run of at most SORT_RADIX_CMP_MAX lines is merge-sorted by comparing
 * the lines from `depth` instead: its lines lie scattered over the input,
 * and each further level would read every one of them from memory again,
 * while comparisons hit the cache lines the key load just brought in. Past
 * SORT_RADIX_LEVELS levels (lines equal over 128 bytes) the run falls back
 * to the merge sort, which bounds the recursion.
 */
#define SORT_RADIX_LEVELS 16
#define SORT_RADIX_SMALL 24 /* runs this short are insertion-sorted */
#define SORT_RADIX_PASSES_MIN 1024 /* shorter runs sort their keys by merging */
#define SORT_RADIX_CMP_MAX 2048    /* below level 0, shorter runs compare lines */

static inline uint64_t key_at(const char *line, size_t len, size_t depth) {
  if (len >= depth + 8) {
    uint64_t v;
    memcpy(&v, line + depth, 8);
    return __builtin_bswap64(v);
  }
  return len > depth ? prefix_of(line + depth, len - depth) : 0;
}

/* Sorts v[0..n) by prefix (stable LSD radix, 8 bits a pass). */
static void radix_by_prefix(sort_line *v, sort_line *tmp, size_t n) {
  static const size_t B = 256;
  size_t count[8][256];
  memset(count, 0, sizeof count);
  for (size_t i = 0; i < n; i++) {
    uint64_t k = v[i].prefix;
    for (int b = 0; b < 8; b++) count[b][(k >> (8 * b)) & 0xff]++;
  }
  sort_line *src = v, *dst = tmp;
  for (int b = 0; b < 8; b++) {
    size_t *c = count[b];
    if (c[(src[0].prefix >> (8 * b)) & 0xff] == n) continue; /* one bucket: no-op */
    size_t sum = 0;
    for (size_t d = 0; d < B; d++) {
      size_t t = c[d];
      c[d] = sum;
      sum += t;
    }
    for (size_t i = 0; i < n; i++) dst[c[(src[i].prefix >> (8 * b)) & 0xff]++] = src[i];
    sort_line *t = src;
    src = dst;
    dst = t;
  }
  if (src != v) memcpy(v, src, n * sizeof *v);
}

/* Bytewise comparison of two lines known equal before `depth`. */
static inline int cmp_from(const sort_state *S, const sort_line *a, const sort_line *b,
                           size_t depth) {
  size_t n = (a->len < b->len ? a->len : b->len) - depth;
  int d = memcmp(S->data + a->off + depth, S->data + b->off + depth, n);
  return d ? d : a->len < b->len ? -1 : a->len != b->len;
}

/* Sorts v[0..n), lines equal in their first `depth` bytes and all longer
 * than that (but at level 0). False when cancelled. */
static bool radix_plain(sort_state *S, sort_line *v, sort_line *tmp, size_t n, size_t depth,
                        int level) {
  if (n < 2) return true;
  if (n <= SORT_RADIX_SMALL) {
    for (size_t i = 1; i < n; i++) {
      sort_line x = v[i];
      size_t j = i;
      while (j > 0 && cmp_from(S, &v[j - 1], &x, depth) > 0) {
        v[j] = v[j - 1];
        j--;
      }
      v[j] = x;
    }
    return true;
  }
  if (n >= SORT_POLL_EVERY && cmd_poll(S->ctx)) return false;
  for (size_t i = 0; i < n; i++) {
    if (i + 8 < n) __builtin_prefetch(S->data + v[i + 8].off + depth);
    v[i].prefix = key_at(S->data + v[i].off, v[i].len, depth);
  }
  if (level >= SORT_RADIX_LEVELS) return sort_lines_bytes(S, v, tmp, n);
  if (level > 0 && n <= SORT_RADIX_CMP_MAX) {
    /* The lines of a tied run lie scattered over the input: one more level
     * reads each from memory again, while comparisons read lines that this
     * key load just brought into the cache. */
    S->depth = depth;
    return sort_lines_tail(S, v, tmp, n);
  }
  if (n < SORT_RADIX_PASSES_MIN) {
    if (!sort_lines_prefix(S, v, tmp, n)) return false;
  } else {
    radix_by_prefix(v, tmp, n);
    if (n >= SORT_POLL_EVERY && cmd_poll(S->ctx)) return false;
  }
  for (size_t i = 0; i < n;) {
    size_t j = i + 1;
    while (j < n && v[j].prefix == v[i].prefix) j++;
    if (j - i > 1) {
      /* Counting sort of the run by class: length - depth for the lines
       * that end in this window (0..8), 9 for the longer ones. */
      size_t c[11] = {0};
      for (size_t k = i; k < j; k++) {
        size_t cls = v[k].len - depth > 8 ? 9 : v[k].len - depth;
        c[cls + 1]++;
      }
      size_t longs = c[10]; /* they end up last */
      if (longs != j - i) {
        for (int k = 1; k < 11; k++) c[k] += c[k - 1];
        for (size_t k = i; k < j; k++) {
          size_t cls = v[k].len - depth > 8 ? 9 : v[k].len - depth;
          tmp[c[cls]++] = v[k];
        }
        memcpy(v + i, tmp, (j - i) * sizeof *v);
      }
      if (longs > 1 && !radix_plain(S, v + (j - longs), tmp, longs, depth + 8, level + 1))
        return false;
    }
    i = j;
  }
  return true;
}

static int line_cmp(sort_state *S, const sort_line *a, const sort_line *b) {
  return S->plain ? cmp_plain(S, a, b) : cmp_general(S, a, b);
}

/* ---- output -------------------------------------------------------------------------- */

/* Writes n copies of byte c. */
static void out_fill(cmd_outfile *o, char c, size_t n) {
  char buf[256];
  memset(buf, c, sizeof buf);
  while (n) {
    size_t k = n < sizeof buf ? n : sizeof buf;
    cmd_outfile_write(o, buf, k);
    n -= k;
  }
}

/* Display width as GNU's debug_width: mbsnwidth, plus one for each tab
 * (shown as '>'). */
static size_t debug_width(const char *s, size_t n) {
  size_t w = cmd_fs_width(s, n);
  for (const char *p = s, *e = s + n; (p = memchr(p, '\t', (size_t)(e - p))); p++) w++;
  return w;
}

static bool key_numeric(const sort_key *k) {
  return k->numeric || k->general_numeric || k->human_numeric;
}

/* The end of the number at [p, lim) as GNU's traverse_raw_number finds it
 * (digits, then '.' and digits); *max_digit gets the largest digit. */
static size_t raw_number_end(const char *t, size_t p, size_t lim, unsigned char *max_digit) {
  *max_digit = 0;
  while (p < lim && t[p] >= '0' && t[p] <= '9') {
    if ((unsigned char)t[p] > *max_digit) *max_digit = (unsigned char)t[p];
    p++;
  }
  if (p < lim && t[p] == '.') {
    p++;
    while (p < lim && t[p] >= '0' && t[p] <= '9') {
      if ((unsigned char)t[p] > *max_digit) *max_digit = (unsigned char)t[p];
      p++;
    }
  }
  return p;
}

/* One underline (GNU's debug_key + mark_key): key NULL is the whole line. */
static void debug_key(sort_state *S, cmd_outfile *o, const char *t, size_t len,
                      const sort_key *key) {
  size_t beg = 0, lim = len;
  if (key) {
    sort_key_bounds(&S->keys, key, t, len, &beg, &lim);
    if (key->month || key_numeric(key)) {
      while (beg < lim && (t[beg] == ' ' || t[beg] == '\t' || t[beg] == '\n')) beg++;
      size_t tight = beg;
      if (key->month) {
        if (sort_getmonth(t + beg, lim - beg)) tight = beg + 3;
      } else if (key->general_numeric) {
        char *copy = malloc(lim - beg + 1);
        if (copy) {
          memcpy(copy, t + beg, lim - beg);
          copy[lim - beg] = 0;
          char *end;
          locale_t loc = cmd_utf8_locale();
          if (loc) (void)strtold_l(copy, &end, loc);
          else (void)strtold(copy, &end);
          tight = beg + (size_t)(end - copy);
          free(copy);
        }
      } else {
        size_t p = beg + (beg < lim && t[beg] == '-');
        unsigned char maxd;
        p = raw_number_end(t, p, lim, &maxd);
        if (maxd >= '0') {
          tight = p;
          if (key->human_numeric && p < lim && strchr("KkMGTPEZY", t[p]) && t[p]) tight++;
        }
      }
      lim = tight;
    }
  }
  out_fill(o, ' ', debug_width(t, beg));
  size_t w = lim > beg ? debug_width(t + beg, lim - beg) : 0;
  if (!w) {
    cmd_outfile_write(o, "^ no match for key\n", 19);
  } else {
    out_fill(o, '_', w);
    cmd_outfile_write(o, "\n", 1);
  }
}

/* --debug: the line with tabs as '>' and a newline, then its underlines. */
static void debug_line(sort_state *S, cmd_outfile *o, const char *t, size_t len) {
  const char *p = t, *e = t + len, *tab;
  while ((tab = memchr(p, '\t', (size_t)(e - p)))) {
    cmd_outfile_write(o, p, (size_t)(tab - p));
    cmd_outfile_write(o, ">", 1);
    p = tab + 1;
  }
  cmd_outfile_write(o, p, (size_t)(e - p));
  cmd_outfile_write(o, "\n", 1);
  for (int i = 0; i < S->keys.nkeys; i++) debug_key(S, o, t, len, &S->keys.keys[i]);
  if (S->keys.nkeys == 0 || !(S->keys.unique || S->keys.stable)) debug_key(S, o, t, len, NULL);
}

static void out_line(sort_state *S, cmd_outfile *o, const char *text, size_t len) {
  if (S->debug) {
    debug_line(S, o, text, len);
    return;
  }
  /* Every indexed line is followed by its delimiter in the data buffer. */
  cmd_outfile_write(o, text, len + 1);
}

static int open_output(sort_state *S, cmd_outfile *o) {
  int r = cmd_outfile_open(S->ctx, o, S->out_path, O_WRONLY | O_CREAT | O_TRUNC);
  if (r < 0) {
    cmd_record_error(S->ctx, r, S->out_path);
    cmd_errorf(S->ctx, "open failed: %s: %s", cmd_gnu_quotef(S->ctx, S->out_path),
               cmd_strerror(r));
    return SORT_FAILURE;
  }
  return 0;
}

static int close_output(sort_state *S, cmd_outfile *o) {
  bool is_stdout = o->fd == 1;
  int err = cmd_outfile_close(o);
  if (err) {
    if (err == -EPIPE) return 141;
    cmd_errorf(S->ctx, "write failed: %s: %s",
               is_stdout ? "'standard output'" : cmd_gnu_quotef(S->ctx, S->out_path),
               cmd_strerror(err));
    return SORT_FAILURE;
  }
  return 0;
}

/* ---- modes ---------------------------------------------------------------------------- */

static int sort_and_output(sort_state *S) {
  sort_line *v;
  ssize_t n = sort_index(S, 0, S->len, &v);
  if (n == -2) return SORT_FAILURE; /* cancelled: the caller reports it */
  if (n < 0) return sort_memory_error(S);
  sort_line *tmp = malloc(((size_t)n ? (size_t)n : 1) * sizeof *tmp);
  if (!tmp) {
    free(v);
    return sort_memory_error(S);
  }
  bool done;
  if (S->plain) {
    done = radix_plain(S, v, tmp, (size_t)n, 0, 0);
    if (done && S->keys.reverse)
      for (size_t i = 0, j = (size_t)n; i + 1 < j; i++, j--) {
        sort_line t = v[i];
        v[i] = v[j - 1];
        v[j - 1] = t;
      }
    /* line_cmp (for -u) expects the first 8 bytes in every prefix */
    if (done && S->keys.unique)
      for (size_t i = 0; i < (size_t)n; i++) v[i].prefix = prefix_of(S->data + v[i].off, v[i].len);
  } else {
    done = sort_lines_general(S, v, tmp, (size_t)n);
  }
  free(tmp);
  if (!done) {
    free(v);
    return SORT_FAILURE; /* cancelled, timed out or a limit: the caller reports it */
  }
  cmd_outfile o;
  int st = open_output(S, &o);
  if (st) {
    free(v);
    return st;
  }
  for (size_t i = 0; i < (size_t)n; i++) {
    if (S->keys.unique && i > 0 && line_cmp(S, &v[i - 1], &v[i]) == 0) {
      v[i] = v[i - 1]; /* the run's first line stays the reference */
      continue;
    }
    out_line(S, &o, S->data + v[i].off, v[i].len);
    if ((i & 4095) == 0 && cmd_poll(S->ctx)) break;
  }
  free(v);
  return close_output(S, &o);
}

/* -m: merges the inputs (each already sorted) without sorting them. */
static int merge_and_output(sort_state *S, char **files, size_t nfiles) {
  size_t *bounds = calloc(nfiles + 1, sizeof *bounds);
  if (!bounds) return sort_memory_error(S);
  for (size_t i = 0; i < nfiles; i++) {
    int st = sort_read_file(S, files[i]);
    if (st) {
      free(bounds);
      return st;
    }
    bounds[i + 1] = S->len;
  }
  sort_line **lines = calloc(nfiles, sizeof *lines);
  size_t *count = calloc(nfiles, sizeof *count), *pos = calloc(nfiles, sizeof *pos);
  int status = 0;
  if (!lines || !count || !pos) {
    status = sort_memory_error(S);
    goto out;
  }
  for (size_t i = 0; i < nfiles; i++) {
    ssize_t n = sort_index(S, bounds[i], bounds[i + 1], &lines[i]);
    if (n < 0) {
      status = n == -2 ? SORT_FAILURE : sort_memory_error(S);
      goto out;
    }
    count[i] = (size_t)n;
  }
  cmd_outfile o;
  status = open_output(S, &o);
  if (status) goto out;
  sort_line last = {0};
  bool have_last = false;
  for (size_t iter = 0;; iter++) {
    /* The smallest head; ties go to the earlier file. */
    size_t best = nfiles;
    for (size_t i = 0; i < nfiles; i++) {
      if (pos[i] >= count[i]) continue;
      if (best == nfiles || line_cmp(S, &lines[i][pos[i]], &lines[best][pos[best]]) < 0)
        best = i;
    }
    if (best == nfiles) break;
    sort_line *l = &lines[best][pos[best]++];
    if (S->keys.unique && have_last && line_cmp(S, &last, l) == 0) continue;
    last = *l;
    have_last = true;
    out_line(S, &o, S->data + l->off, l->len);
    if ((iter & 4095) == 0 && cmd_poll(S->ctx)) break;
  }
  status = close_output(S, &o);
out:
  if (lines)
    for (size_t i = 0; i < nfiles; i++) free(lines[i]);
  free(lines);
  free(count);
  free(pos);
  free(bounds);
  return status;
}

/* Opens `name` for reading; on failure records the error, prints "sort:
 * WHATNAME: strerror" and returns it (negative). */
static int sort_open(cmd_ctx *ctx, const char *name, const char *what, cmd_in **in) {
  int r = cmd_in_open(ctx, name, in);
  if (r < 0) {
    cmd_record_error(ctx, r, name);
    cmd_errorf(ctx, "%s%s: %s", what, cmd_gnu_quotef(ctx, name), cmd_strerror(r));
  }
  return r;
}

/* -c / -C: reports the first line out of order. */
static int check_sorted(sort_state *S, const char *name, bool quiet) {
  cmd_ctx *ctx = S->ctx;
  cmd_in *in;
  if (sort_open(ctx, name, "cannot read: ", &in) < 0) return SORT_FAILURE;
  char *prev = NULL;
  size_t prevlen = 0, prevcap = 0;
  uintmax_t lineno = 0;
  int status = 0;
  for (;;) {
    char *line;
    ssize_t n = cmd_in_getdelim(in, &line, S->delim);
    if (n < 0) {
      cmd_errorf(ctx, "read failed: %s: %s", cmd_gnu_quotef(ctx, name), cmd_strerror((int)n));
      status = SORT_FAILURE;
      break;
    }
    if (n == 0) break;
    size_t len = (size_t)n;
    if (line[len - 1] == S->delim) len--;
    lineno++;
    if (lineno > 1) {
      int d = sort_compare(&S->keys, prev, prevlen, line, len);
      if (d > 0 || (S->keys.unique && d == 0)) {
        if (!quiet) {
          cmd_flush(ctx);
          cmd_err_raw(ctx, "%s: %s:%ju: disorder: ", ctx->name, name, lineno);
          cmd_write_fd(ctx, 2, line, len);
          cmd_write_fd(ctx, 2, &S->delim, 1);
        }
        status = 1;
        break;
      }
    }
    if (cmd_grow(&prev, &prevcap, len + 1, 1)) {
      status = sort_memory_error(S);
      break;
    }
    memcpy(prev, line, len);
    prevlen = len;
    if ((lineno & 4095) == 0 && cmd_poll(ctx)) break;
  }
  free(prev);
  cmd_in_close(in);
  return status;
}

/* ---- --debug notes --------------------------------------------------------------------- */

/* The notes GNU's sort --debug prints on stderr before sorting (main's
 * locale line and key_warnings). obsolete[i] marks keys given as +POS -POS. */
static void debug_notes(sort_state *S, const sort_key *gkey, bool gkey_only,
                        const bool *obsolete) {
  cmd_ctx *ctx = S->ctx;
  const char *loc = cmd_getenv(ctx, "LC_ALL");
  if (!loc || !*loc) loc = cmd_getenv(ctx, "LC_COLLATE");
  if (!loc || !*loc) loc = cmd_getenv(ctx, "LANG");
  bool utf8 = loc && strncmp(loc, "C.", 2) == 0 &&
              (strcmp(loc + 2, "UTF-8") == 0 || strcmp(loc + 2, "utf8") == 0 ||
               strcmp(loc + 2, "utf-8") == 0 || strcmp(loc + 2, "UTF8") == 0);
  const char *lq = utf8 ? CMD_LQ : "'", *rq = utf8 ? CMD_RQ : "'";
  if (utf8)
    cmd_errorf(ctx, "text ordering performed using %s%s%s sorting rules", lq, loc, rq);
  else
    cmd_errorf(ctx, "text ordering performed using simple byte comparison");

  sort_key ug = *gkey;
  int tab = S->keys.tab;
  bool basic = false, general = false, basic_span = false, general_span = false;
  for (int i = 0; i < S->keys.nkeys; i++) {
    const sort_key *k = &S->keys.keys[i];
    unsigned long keynum = (unsigned long)i + 1;
    if (key_numeric(k)) {
      if (k->general_numeric) general = true;
      else basic = true;
    }
    if (obsolete[i]) {
      char ob[64], nb[64];
      int n1 = snprintf(ob, sizeof ob, "+%zu", k->sword);
      int n2 = snprintf(nb, sizeof nb, "-k %zu", k->sword + 1);
      if (k->eword != SORT_NO_END) {
        snprintf(ob + n1, sizeof ob - (size_t)n1, " -%zu", k->eword + 1);
        snprintf(nb + n2, sizeof nb - (size_t)n2, ",%zu", k->eword + 1);
      }
      cmd_errorf(ctx, "obsolescent key %s%s%s used; consider %s%s%s instead", lq, ob, rq, lq,
                 nb, rq);
    }
    bool zero_width = k->eword != SORT_NO_END && k->eword < k->sword;
    if (zero_width) cmd_errorf(ctx, "key %lu has zero width and will be ignored", keynum);
    bool implicit_skip = key_numeric(k) || k->month;
    bool line_offset = k->eword == 0 && k->echar != 0;
    if (!zero_width && !gkey_only && tab == SORT_TAB_DEFAULT && !line_offset &&
        ((!k->skipsblanks && !implicit_skip) || (!k->skipsblanks && k->schar) ||
         (!k->skipeblanks && k->echar)))
      cmd_errorf(ctx, "leading blanks are significant in key %lu; consider also specifying 'b'",
                 keynum);
    if (!gkey_only && key_numeric(k)) {
      if (k->eword == SORT_NO_END || k->sword < k->eword) {
        cmd_errorf(ctx, "key %lu is numeric and spans multiple fields", keynum);
        if (k->general_numeric) general_span = true;
        else basic_span = true;
      }
    }
    if (ug.ignore && ug.ignore == k->ignore) ug.ignore = NULL;
    if (ug.translate && k->translate) ug.translate = false;
    ug.skipsblanks &= !k->skipsblanks;
    ug.skipeblanks &= !k->skipeblanks;
    ug.month &= !k->month;
    ug.numeric &= !k->numeric;
    ug.general_numeric &= !k->general_numeric;
    ug.human_numeric &= !k->human_numeric;
    ug.random &= !k->random;
    ug.version &= !k->version;
    ug.reverse &= !k->reverse;
  }
  /* C.UTF-8 has no thousands separator and '.' as the decimal point. */
  bool warned = false;
  if (basic_span || general_span) {
    if (tab == '.') {
      cmd_errorf(ctx, "field separator %s.%s is treated as a decimal point in numbers", lq, rq);
      warned = true;
    } else if (tab == '-') {
      cmd_errorf(ctx, "field separator %s-%s is treated as a minus sign in numbers", lq, rq);
    } else if (general_span && tab == '+') {
      cmd_errorf(ctx, "field separator %s+%s is treated as a plus sign in numbers", lq, rq);
    }
  }
  if ((basic || general) && !warned)
    cmd_errorf(ctx, "%snumbers use %s.%s as a decimal point in this locale",
               tab == '.' ? "" : "note ", lq, rq);
  bool stable_or_unique = S->keys.stable || S->keys.unique;
  if (!sort_key_is_default(&ug) || (ug.reverse && stable_or_unique && S->keys.nkeys)) {
    bool rev = ug.reverse;
    if (!stable_or_unique) ug.reverse = false;
    char opts[16];
    sort_key_opts(&ug, opts, true);
    cmd_errorf(ctx, strlen(opts) == 1 ? "option '-%s' is ignored" : "options '-%s' are ignored",
               opts);
    ug.reverse = rev;
  }
  if (ug.reverse && !stable_or_unique && S->keys.nkeys)
    cmd_errorf(ctx, "option '-r' only applies to last-resort comparison");
}

/* ---- options ----------------------------------------------------------------------------- */

static int bad_fieldspec(cmd_ctx *ctx, const char *spec, const char *msg, bool count_err,
                         const char *at) {
  if (count_err)
    cmd_errorf(ctx, "%s: invalid count at start of %s", msg, cmd_gnu_quote(ctx, at));
  else
    cmd_errorf(ctx, "%s: invalid field specification %s", msg, cmd_gnu_quote(ctx, spec));
  return SORT_FAILURE;
}

/* Parses an obsolete "+POS1" (start) or "-POS2" (end) into key. */
static bool parse_obsolete_pos(const char *s, sort_key *key, bool end) {
  size_t f, c = 0;
  const char *p = s;
  if (*p < '0' || *p > '9') return false;
  f = 0;
  while (*p >= '0' && *p <= '9') {
    if (f > SIZE_MAX / 10 - 1) return false;
    f = f * 10 + (size_t)(*p++ - '0');
  }
  if (*p == '.') {
    p++;
    if (*p < '0' || *p > '9') return false;
    while (*p >= '0' && *p <= '9') {
      if (c > SIZE_MAX / 10 - 1) return false;
      c = c * 10 + (size_t)(*p++ - '0');
    }
  }
  if (!end) {
    key->sword = f;
    key->schar = c;
  } else {
    /* -POS2: field f (0-based) ends after c chars; "-2" is the end of field 2 */
    key->eword = c ? f : f - (f > 0);
    key->echar = c;
    if (!c && f == 0) return false;
  }
  for (; *p; p++)
    if (!sort_key_set_option(key, *p, end)) return false;
  return true;
}

static int parse_size_arg(cmd_ctx *ctx, const char *opt, const char *arg) {
  uintmax_t v;
  int e = cmd_parse_umax(arg, "%bEgGkKmMPtTYZ", &v);
  if (e == CMD_NUM_OK || e == CMD_NUM_OVERFLOW) return 0;
  cmd_errorf(ctx, "invalid %s argument '%s'", opt, arg);
  return SORT_FAILURE;
}

int cmd_sort_main(cmd_ctx *ctx, int argc, char **argv) {
  enum {
    OPT_CHECK = CMD_OPT_LONG, OPT_COMPRESS, OPT_DEBUG, OPT_FILES0, OPT_SORT, OPT_BATCH,
    OPT_PARALLEL, OPT_RANDOM_SOURCE
  };
  /* The long names in GNU's order ("--m": '--merge' '--month-sort'). Those
   * of the table come after the string's: GNU lists --random-source between
   * --random-sort and --reverse ("--r"), --help and --version last. */
  static const char spec[] = "(check)::(compress-program):(debug)(files0-from):(sort):"
                             "(batch-size):(parallel):b(ignore-leading-blanks)"
                             "d(dictionary-order)f(ignore-case)g(general-numeric-sort)"
                             "i(ignore-nonprinting)k:(key)m(merge)M(month-sort)n(numeric-sort)"
                             "h(human-numeric-sort)V(version-sort)R(random-sort)o:(output)"
                             "s(stable)S:(buffer-size)t:(field-separator)"
                             "T:(temporary-directory)u(unique)z(zero-terminated)rcCy:";
  static const cmd_longopt last_names[] = {
      {"random-source", 1, OPT_RANDOM_SOURCE}, {"reverse", 0, 'r'}, CMD_LONGOPTS_STD, {0, 0, 0}};

  sort_state *S = cmd_alloc(ctx, sizeof *S);
  if (!S) return SORT_FAILURE;
  S->ctx = ctx;
  S->delim = '\n';
  S->keys.tab = SORT_TAB_DEFAULT;
  S->budget = sort_budget(ctx);
  sort_key gkey = {0};
  gkey.eword = SORT_NO_END;
  int check = 0; /* 0 no, 'c' diagnose, 'C' quiet */
  bool merge = false;
  const char *random_source = NULL, *files0 = NULL;
  int status = 0;
  bool debug = false;
  bool obsolete[SORT_MAX_KEYS] = {false}; /* keys given as +POS1 -POS2 */

  /* Obsolete "+POS1 [-POS2]" keys (only when a "-POS2" follows, like GNU). */
  char **av = cmd_alloc(ctx, sizeof(char *) * (size_t)(argc * 2 + 1));
  if (!av) return SORT_FAILURE;
  int ac = 0;
  av[ac++] = argv[0];
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--") == 0) {
      while (i < argc) av[ac++] = argv[i++];
      break;
    }
    sort_key tmp = {0};
    if (argv[i][0] == '+' && i + 1 < argc && argv[i + 1][0] == '-' &&
        argv[i + 1][1] >= '0' && argv[i + 1][1] <= '9' &&
        parse_obsolete_pos(argv[i] + 1, &tmp, false) &&
        parse_obsolete_pos(argv[i + 1] + 1, &tmp, true)) {
      if (S->keys.nkeys >= SORT_MAX_KEYS) {
        cmd_errorf(ctx, "too many keys (at most %d)", SORT_MAX_KEYS);
        return SORT_FAILURE;
      }
      obsolete[S->keys.nkeys] = true;
      S->keys.keys[S->keys.nkeys++] = tmp;
      i++;
      continue;
    }
    av[ac++] = argv[i];
  }
  av[ac] = NULL;

  cmd_getopt_state g = CMD_GETOPT_INIT;
  for (int c; (c = cmd_getopt(ctx, &g, ac, av, spec, last_names)) != -1;) {
    switch (c) {
    case 'b': case 'd': case 'f': case 'g': case 'h': case 'i': case 'M':
    case 'n': case 'r': case 'R': case 'V':
      sort_key_set_option(&gkey, (char)c, false);
      if (c == 'b') gkey.skipeblanks = true;
      break;
    case OPT_SORT: {
      static const char *const words[] = {"general-numeric", "human-numeric", "month",
                                          "numeric", "random", "version"};
      static const char letters[] = "ghMnRV";
      int found = -1, nmatch = 0;
      for (int i = 0; i < 6; i++) {
        if (strcmp(g.arg, words[i]) == 0) { found = i; nmatch = 1; break; }
        if (strncmp(g.arg, words[i], strlen(g.arg)) == 0 && *g.arg) { found = i; nmatch++; }
      }
      if (nmatch != 1) {
        cmd_errorf(ctx, "%s argument %s for " CMD_LQ "--sort" CMD_RQ,
                   nmatch > 1 ? "ambiguous" : "invalid", cmd_gnu_quote(ctx, g.arg));
        cmd_err_raw(ctx, "Valid arguments are:\n");
        for (int i = 0; i < 6; i++) cmd_err_raw(ctx, "  - " CMD_LQ "%s" CMD_RQ "\n", words[i]);
        return cmd_usage_hint(ctx, 1);
      }
      sort_key_set_option(&gkey, letters[found], false);
      break;
    }
    case 'c': check = 'c'; break;
    case 'C': check = 'C'; break;
    case OPT_CHECK:
      if (!g.arg || strcmp(g.arg, "diagnose-first") == 0) check = 'c';
      else if (strcmp(g.arg, "quiet") == 0 || strcmp(g.arg, "silent") == 0) check = 'C';
      else {
        cmd_errorf(ctx, "invalid argument %s for " CMD_LQ "--check" CMD_RQ,
                   cmd_gnu_quote(ctx, g.arg));
        cmd_err_raw(ctx, "Valid arguments are:\n  - " CMD_LQ "quiet" CMD_RQ ", " CMD_LQ
                         "silent" CMD_RQ "\n  - " CMD_LQ "diagnose-first" CMD_RQ "\n");
        return cmd_usage_hint(ctx, 1);
      }
      break;
    case 'k': {
      if (S->keys.nkeys >= SORT_MAX_KEYS) {
        cmd_errorf(ctx, "too many keys (at most %d)", SORT_MAX_KEYS);
        return SORT_FAILURE;
      }
      sort_key *key = &S->keys.keys[S->keys.nkeys];
      memset(key, 0, sizeof *key);
      const char *msg, *at;
      bool count_err;
      if (sort_parse_keydef(g.arg, key, &msg, &count_err, &at) < 0)
        return bad_fieldspec(ctx, g.arg, msg, count_err, at);
      S->keys.nkeys++;
      break;
    }
    case 'm': merge = true; break;
    case 'o':
      if (S->out_path && strcmp(S->out_path, g.arg) != 0) {
        cmd_errorf(ctx, "multiple output files specified");
        return SORT_FAILURE;
      }
      S->out_path = g.arg;
      break;
    case OPT_RANDOM_SOURCE: random_source = g.arg; break;
    case 's': S->keys.stable = true; break;
    case 'S':
      if (parse_size_arg(ctx, "-S", g.arg)) return SORT_FAILURE;
      break;
    case 't': {
      int newtab;
      if (!g.arg[0]) {
        cmd_errorf(ctx, "empty tab");
        return SORT_FAILURE;
      }
      newtab = (unsigned char)g.arg[0];
      if (g.arg[1]) {
        if (strcmp(g.arg, "\\0") == 0) {
          newtab = 0;
        } else {
          cmd_errorf(ctx, "multi-character tab %s", cmd_gnu_quote(ctx, g.arg));
          return SORT_FAILURE;
        }
      }
      if (S->keys.tab != SORT_TAB_DEFAULT && S->keys.tab != newtab) {
        cmd_errorf(ctx, "incompatible tabs");
        return SORT_FAILURE;
      }
      S->keys.tab = newtab;
      break;
    }
    case 'T': case OPT_COMPRESS: case 'y': break;
    case OPT_BATCH: {
      uintmax_t v;
      if (cmd_parse_umax(g.arg, NULL, &v) != CMD_NUM_OK) {
        cmd_errorf(ctx, "invalid --batch-size argument %s", cmd_gnu_quote(ctx, g.arg));
        return SORT_FAILURE;
      }
      break;
    }
    case OPT_PARALLEL: {
      uintmax_t v;
      int e = cmd_parse_umax(g.arg, "", &v);
      if (e != CMD_NUM_OK && e != CMD_NUM_OVERFLOW) {
        cmd_errorf(ctx, "invalid --parallel argument '%s'", g.arg);
        return SORT_FAILURE;
      }
      if (e == CMD_NUM_OK && v == 0) {
        cmd_errorf(ctx, "number in parallel must be nonzero");
        return SORT_FAILURE;
      }
      break;
    }
    case OPT_DEBUG: debug = true; break;
    case OPT_FILES0: files0 = g.arg; break;
    case 'u': S->keys.unique = true; break;
    case 'z': S->delim = '\0'; break;
    CMD_CASES_HELP_VERSION(ctx, sort_usage);
    default: return SORT_FAILURE; /* cmd_getopt printed the message */
    }
  }

  /* Keys without options of their own inherit the global ones. */
  for (int i = 0; i < S->keys.nkeys; i++) {
    sort_key *key = &S->keys.keys[i];
    if (sort_key_is_default(key) && !key->reverse) {
      size_t sw = key->sword, sc = key->schar, ew = key->eword, ec = key->echar;
      *key = gkey;
      key->sword = sw;
      key->schar = sc;
      key->eword = ew;
      key->echar = ec;
    }
  }
  bool gkey_only = false;
  if (S->keys.nkeys == 0 && !sort_key_is_default(&gkey)) {
    S->keys.keys[0] = gkey;
    S->keys.nkeys = 1;
    gkey_only = true;
  }
  S->keys.reverse = gkey.reverse;
  for (int i = 0; i < S->keys.nkeys; i++) {
    char letters[16];
    if (sort_key_incompatible(&S->keys.keys[i], letters)) {
      cmd_errorf(ctx, "options '-%s' are incompatible", letters);
      return SORT_FAILURE;
    }
  }
  S->plain = S->keys.nkeys == 0;
  if (S->plain) {
    S->prefix_ok = true;
  } else {
    const sort_key *k0 = &S->keys.keys[0];
    S->prefix_ok = !(k0->ignore || k0->translate || k0->numeric || k0->general_numeric ||
                     k0->human_numeric || k0->month || k0->random || k0->version);
  }

  /* Random salt: from --random-source bytes, else the clock and addresses. */
  bool need_random = false;
  for (int i = 0; i < S->keys.nkeys; i++) need_random |= S->keys.keys[i].random;
  if (need_random) {
    if (random_source) {
      cmd_in *rin;
      if (sort_open(ctx, random_source, "", &rin) < 0) return SORT_FAILURE;
      unsigned char seed[16] = {0};
      ssize_t got = cmd_in_read(rin, seed, sizeof seed);
      cmd_in_close(rin);
      if (got < (ssize_t)sizeof seed) {
        cmd_errorf(ctx, "%s: end of file", cmd_gnu_quotef(ctx, random_source));
        return SORT_FAILURE;
      }
      memcpy(S->keys.salt, seed, sizeof seed);
    } else {
      struct timespec ts;
      clock_gettime(CLOCK_REALTIME, &ts);
      S->keys.salt[0] = (uint64_t)ts.tv_nsec * 0x9e3779b97f4a7c15ULL ^ (uint64_t)ts.tv_sec;
      S->keys.salt[1] = (uint64_t)(uintptr_t)S ^ ((uint64_t)(uintptr_t)&ts << 17);
    }
  }

  /* Operands. */
  char **files = av + g.ind;
  size_t nfiles = (size_t)(ac - g.ind);
  static char *dash[] = {"-", NULL};
  if (files0) {
    if (nfiles) {
      cmd_errorf(ctx, "extra operand %s", cmd_gnu_quoteaf(ctx, files[0]));
      cmd_err_raw(ctx, "file operands cannot be combined with --files0-from\n");
      return cmd_usage_hint(ctx, SORT_FAILURE);
    }
    cmd_in *lin;
    int r = cmd_in_open(ctx, files0, &lin);
    if (r < 0) {
      cmd_errorf(ctx, "open failed: %s: %s", cmd_gnu_quotef(ctx, files0), cmd_strerror(r));
      return SORT_FAILURE;
    }
    char *list;
    size_t listlen;
    r = cmd_in_slurp(lin, &list, &listlen);
    cmd_in_close(lin);
    if (r < 0) {
      cmd_errorf(ctx, "cannot read file names from %s", cmd_gnu_quoteaf(ctx, files0));
      return SORT_FAILURE;
    }
    size_t n = 0;
    for (size_t i = 0; i < listlen; i++) n += list[i] == 0;
    if (listlen && list[listlen - 1]) n++;
    char *copy = cmd_alloc(ctx, listlen + 1);
    files = cmd_alloc(ctx, (n + 1) * sizeof *files);
    if (!copy || !files) {
      free(list);
      return sort_memory_error(S);
    }
    memcpy(copy, list, listlen);
    free(list);
    nfiles = 0;
    for (size_t i = 0; i < listlen; i += strlen(copy + i) + 1) {
      char *name = copy + i;
      if (!*name) {
        cmd_errorf(ctx, "%s:%zu: invalid zero-length file name", cmd_gnu_quotef(ctx, files0),
                   nfiles + 1);
        return SORT_FAILURE;
      }
      if (strcmp(files0, "-") == 0 && strcmp(name, "-") == 0) {
        cmd_errorf(ctx, "when reading file names from stdin, no file name of %s allowed",
                   cmd_gnu_quoteaf(ctx, name));
        return SORT_FAILURE;
      }
      files[nfiles++] = name;
    }
    if (nfiles == 0) {
      cmd_errorf(ctx, "no input from %s", cmd_gnu_quoteaf(ctx, files0));
      return SORT_FAILURE;
    }
  } else if (nfiles == 0) {
    files = dash;
    nfiles = 1;
  }

  if (debug) {
    if (check || S->out_path) {
      cmd_errorf(ctx, "options '-%c --debug' are incompatible", check ? check : 'o');
      return SORT_FAILURE;
    }
    debug_notes(S, &gkey, gkey_only, obsolete);
    S->debug = true;
  }

  if (check) {
    if (nfiles > 1) {
      cmd_errorf(ctx, "extra operand %s not allowed with -%c", cmd_gnu_quoteaf(ctx, files[1]),
                 check);
      return SORT_FAILURE;
    }
    if (S->out_path) {
      cmd_errorf(ctx, "options '-%co' are incompatible", check);
      return SORT_FAILURE;
    }
    status = check_sorted(S, files[0], check == 'C');
  } else if (merge) {
    status = merge_and_output(S, files, nfiles);
  } else {
    for (size_t i = 0; i < nfiles && !status; i++) status = sort_read_file(S, files[i]);
    if (!status) status = sort_and_output(S);
  }
  free(S->data);
  sort_keys_free(&S->keys);
  if (status == 141) return status;
  if (ctx->out_err) return cmd_write_error(ctx, ctx->out_err);
  return status;
}
