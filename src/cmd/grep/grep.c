/*
 * grep, egrep, fgrep - print lines that match patterns.
 *
 *   Usage: grep [OPTION]... PATTERNS [FILE]...
 *   -E -F -G -P  pattern syntax      -e PATTERNS / -f FILE   patterns
 *   -i -y --no-ignore-case           -w -x  whole words / lines
 *   -v -c -l -L -q -s -o -n -b -H -h --label=L -T -Z -z -m NUM
 *   -A -B -C NUM, -NUM, --group-separator=SEP, --no-group-separator
 *   -a -I --binary-files=TYPE  -r -R -d ACTION -D ACTION
 *   --include --exclude --exclude-from --exclude-dir  --color[=WHEN]
 *   --line-buffered -U (accepted, no effect)
 *   egrep = grep -E, fgrep = grep -F (Debian's scripts: no warning).
 *
 * Design. Patterns (all -e/-f, joined by newlines) compile once into one
 * src/re program (RE_NLALT: each keeps its own group numbers). Without -P
 * and -z the pattern is compiled with RE_NEWLINE|RE_NOTNL, so no match can
 * cross a line: the file is read in large chunks and re_first_end scans the
 * whole chunk (lazy DFA, memchr/memmem on a required literal) to the next
 * match; only then is the line around it located. Non-matching lines cost
 * nothing per line, which keeps grep within a small factor of GNU grep on big
 * inputs. -c with one plain string (the commonest count) counts the lines
 * holding it in one vector pass (cmd_count_lines_with), without the regex.
 * -P and -z match record by record instead (PCRE2 semantics across
 * newlines, NUL-terminated records).
 *
 * GNU grep 3.8's behaviour is reproduced closely: binary files (a NUL in the
 * data read so far) print "grep: F: binary file matches" on stderr instead of
 * lines and treat NULs as line ends; lines with invalid UTF-8 are withheld
 * from output with the same message at the end; -T pads numbers to the
 * digits of the file size; --color=always emits GNU's SGR sequences with
 * GREP_COLORS; context groups are separated by "--" across files; the
 * include/exclude rules follow gnulib's exclude module (basename during the
 * walk, any '/'-suffix for operands).
 *
 * Bounds: a line longer than ctx->max_string is an error ("memory
 * exhausted"); the matcher runs under cmd_poll (cancellation) and a step
 * budget; a pattern that exceeds it stops grep with "regular expression too
 * complex" (PCRE's wording for -P), exit 2, as GNU dies on PCRE limits.
 */
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/lib/buf.h"
#include "cmd/lib/fs.h"
#include "cmd/grep/grep_acmatch.h"
#include "cmd/lib/gnu.h"
#include "cmd/lib/getopt_msg.h"
#include "cmd/lib/bytescan.h"
#include "re/re.h"

CMD_DEFINE("grep", cmd_grep_main);
CMD_DEFINE("egrep", cmd_grep_main);
CMD_DEFINE("fgrep", cmd_grep_main);

#define GREP_CHUNK 98304 /* bytes per read */
#define GREP_AC_MAX_BYTES (64u << 20) /* -F's Aho-Corasick table; larger sets use the regex */

static const char grep_usage_line[] = "Usage: grep [OPTION]... PATTERNS [FILE]...\n";

static const char grep_help[] =
    "Usage: grep [OPTION]... PATTERNS [FILE]...\n"
    "Search for PATTERNS in each FILE.\n"
    "Example: grep -i 'hello world' menu.h main.c\n"
    "PATTERNS can contain multiple patterns separated by newlines.\n"
    "\n"
    "Pattern selection and interpretation:\n"
    "  -E, --extended-regexp     PATTERNS are extended regular expressions\n"
    "  -F, --fixed-strings       PATTERNS are strings\n"
    "  -G, --basic-regexp        PATTERNS are basic regular expressions\n"
    "  -P, --perl-regexp         PATTERNS are Perl regular expressions\n"
    "  -e, --regexp=PATTERNS     use PATTERNS for matching\n"
    "  -f, --file=FILE           take PATTERNS from FILE\n"
    "  -i, --ignore-case         ignore case distinctions in patterns and data\n"
    "      --no-ignore-case      do not ignore case distinctions (default)\n"
    "  -w, --word-regexp         match only whole words\n"
    "  -x, --line-regexp         match only whole lines\n"
    "  -z, --null-data           a data line ends in 0 byte, not newline\n"
    "\n"
    "Miscellaneous:\n"
    "  -s, --no-messages         suppress error messages\n"
    "  -v, --invert-match        select non-matching lines\n"
    "  -V, --version             display version information and exit\n"
    "      --help                display this help text and exit\n"
    "\n"
    "Output control:\n"
    "  -m, --max-count=NUM       stop after NUM selected lines\n"
    "  -b, --byte-offset         print the byte offset with output lines\n"
    "  -n, --line-number         print line number with output lines\n"
    "      --line-buffered       flush output on every line\n"
    "  -H, --with-filename       print file name with output lines\n"
    "  -h, --no-filename         suppress the file name prefix on output\n"
    "      --label=LABEL         use LABEL as the standard input file name prefix\n"
    "  -o, --only-matching       show only nonempty parts of lines that match\n"
    "  -q, --quiet, --silent     suppress all normal output\n"
    "      --binary-files=TYPE   assume that binary files are TYPE;\n"
    "                            TYPE is 'binary', 'text', or 'without-match'\n"
    "  -a, --text                equivalent to --binary-files=text\n"
    "  -I                        equivalent to --binary-files=without-match\n"
    "  -d, --directories=ACTION  how to handle directories;\n"
    "                            ACTION is 'read', 'recurse', or 'skip'\n"
    "  -D, --devices=ACTION      how to handle devices, FIFOs and sockets;\n"
    "                            ACTION is 'read' or 'skip'\n"
    "  -r, --recursive           like --directories=recurse\n"
    "  -R, --dereference-recursive  likewise, but follow all symlinks\n"
    "      --include=GLOB        search only files that match GLOB (a file pattern)\n"
    "      --exclude=GLOB        skip files that match GLOB\n"
    "      --exclude-from=FILE   skip files that match any file pattern from FILE\n"
    "      --exclude-dir=GLOB    skip directories that match GLOB\n"
    "  -L, --files-without-match  print only names of FILEs with no selected lines\n"
    "  -l, --files-with-matches  print only names of FILEs with selected lines\n"
    "  -c, --count               print only a count of selected lines per FILE\n"
    "  -T, --initial-tab         make tabs line up (if needed)\n"
    "  -Z, --null                print 0 byte after FILE name\n"
    "\n"
    "Context control:\n"
    "  -B, --before-context=NUM  print NUM lines of leading context\n"
    "  -A, --after-context=NUM   print NUM lines of trailing context\n"
    "  -C, --context=NUM         print NUM lines of output context\n"
    "  -NUM                      same as --context=NUM\n"
    "      --group-separator=SEP  print SEP on line between matches with context\n"
    "      --no-group-separator  do not print separator for matches with context\n"
    "      --color[=WHEN],\n"
    "      --colour[=WHEN]       use markers to highlight the matching strings;\n"
    "                            WHEN is 'always', 'never', or 'auto'\n"
    "  -U, --binary              do not strip CR characters at EOL (MSDOS/Windows)\n"
    "\n"
    "When FILE is '-', read standard input.  With no FILE, read '.' if\n"
    "recursive, '-' otherwise.  With fewer than two FILEs, assume -h.\n"
    "Exit status is 0 if any line is selected, 1 otherwise;\n"
    "if any error occurs and -q is not given, the exit status is 2.\n"
    "\n"
    "Report bugs to: bug-grep@gnu.org\n"
    "GNU grep home page: <https://www.gnu.org/software/grep/>\n"
    "General help using GNU software: <https://www.gnu.org/gethelp/>\n";

enum { BIN_BINARY, BIN_TEXT, BIN_WITHOUT_MATCH };
enum { DIRS_READ, DIRS_SKIP, DIRS_RECURSE };
enum { LIST_NONE, LIST_MATCHING, LIST_NONMATCHING };

/* One --include / --exclude / --exclude-dir pattern. */
typedef struct grep_glob {
  const char *pat; /* fnmatch pattern (arena) */
  bool include;    /* --include (else --exclude) */
} grep_glob;

typedef struct grep_globs {
  grep_glob *v; /* patterns in command-line order (arena) */
  size_t n;     /* count */
  size_t cap;   /* allocated */
} grep_globs;

/* Everything of one grep call. */
typedef struct grep {
  cmd_ctx *ctx;              /* the call */
  /* options */
  int matcher;               /* 'G' 'E' 'F' 'P' (0: not given) */
  bool icase;                /* -i */
  bool words;                /* -w */
  bool lines;                /* -x */
  bool nulldata;             /* -z: records end in NUL */
  bool invert;               /* -v */
  bool count;                /* -c */
  int list;                  /* -l / -L */
  bool quiet;                /* -q */
  bool no_messages;          /* -s */
  bool only_matching;        /* -o */
  bool line_number;          /* -n */
  bool byte_offset;          /* -b */
  bool initial_tab;          /* -T */
  bool null_after_name;      /* -Z */
  int with_filename;         /* -1 default, 0 -h, 1 -H */
  const char *label;         /* --label for stdin */
  intmax_t max_count;        /* -m (negative: unlimited) */
  intmax_t before, after;    /* -B / -A (-1: not given) */
  intmax_t context;          /* -C / -NUM (-1: not given) */
  bool context_given;        /* any context option (even 0): "--" separators */
  const char *group_sep;     /* "--", or NULL with --no-group-separator */
  int binary_files;          /* BIN_* */
  int directories;           /* DIRS_* */
  bool devices_skip;         /* -D skip */
  bool deref;                /* -R */
  bool color;                /* --color=always */
  bool utf8;                 /* the locale is UTF-8 */
  grep_globs file_globs;     /* --include / --exclude */
  grep_globs dir_globs;      /* --exclude-dir */
  /* colors (SGR parameters; empty: none) */
  const char *c_ms, *c_mc, *c_fn, *c_ln, *c_bn, *c_se;
  bool c_ne;                 /* GREP_COLORS ne: no \33[K */
  /* compiled pattern */
  re *rx;                    /* NULL when there are no patterns */
  bool line_mode;            /* match record by record (-P, -z) */
  const char *lit;           /* the one pattern when it is a plain ASCII
                                string (no -i -w -x -P -z), else NULL */
  size_t litlen;             /* its length (> 0) */
  cmd_ac *ac;                /* -F with several strings: Aho-Corasick, or NULL */
  bool ac_defer;             /* lines with non-ASCII bytes go to rx (-i, -w in UTF-8) */
  re_ctl ctl;                /* budget and poll */
  unsigned char eol;         /* '\n' or '\0' */
  /* results */
  bool any_selected;         /* some line was selected */
  bool errseen;              /* some error happened */
  bool stop_all;             /* -q matched, a fatal error or cancellation */
  bool printed_group;        /* some line was output (for "--" between groups) */
  /* buffer (reused across files) */
  unsigned char *buf;        /* data */
  size_t cap;                /* allocated */
} grep;

/* State of the file being read. */
typedef struct gfile {
  const char *name;          /* display name */
  unsigned char *buf;        /* g->buf */
  size_t len;                /* bytes in buf */
  uint64_t base;             /* file offset of buf[0] */
  bool binary;               /* NUL seen (not -a, not -z) */
  bool out_quiet;            /* print no lines (binary file) */
  bool done_on_match;        /* stop at the first selected line */
  bool encoding_error;       /* a line was withheld for invalid UTF-8 */
  uintmax_t nsel;            /* selected lines */
  uintmax_t nsel_at_binary;  /* nsel when the file turned binary */
  bool done_selecting;       /* -m reached (still print trailing context) */
  bool stop;                 /* stop reading */
  uintmax_t lineno;          /* lines before lineno_pos */
  size_t lineno_pos;         /* buffer offset counted up to */
  size_t last_out;           /* buffer offset after the last output line (SIZE_MAX: none) */
  intmax_t after_left;       /* trailing context lines still to print */
  int width;                 /* -T: padding of numbers */
} gfile;

/* ---- output helpers ------------------------------------------------------------ */

static void sgr_start(grep *g, const char *c) {
  if (!g->color || !c || !*c) return;
  cmd_outs(g->ctx, "\33[");
  cmd_outs(g->ctx, c);
  cmd_outs(g->ctx, g->c_ne ? "m" : "m\33[K");
}

static void sgr_end(grep *g, const char *c) {
  if (!g->color || !c || !*c) return;
  cmd_outs(g->ctx, g->c_ne ? "\33[m" : "\33[m\33[K");
}

static void put_colored(grep *g, const char *c, const void *s, size_t n) {
  sgr_start(g, c);
  cmd_out(g->ctx, s, n);
  sgr_end(g, c);
}

static void put_sep(grep *g, char sep) { put_colored(g, g->c_se, &sep, 1); }

static void put_number(grep *g, gfile *f, uintmax_t v, const char *color) {
  char num[32];
  int w = g->initial_tab ? f->width : 0;
  int n = snprintf(num, sizeof num, "%*ju", w, v);
  put_colored(g, color, num, (size_t)n);
}

static uintmax_t line_number_at(gfile *f, size_t off) {
  if (off > f->lineno_pos) {
    f->lineno += cmd_count_byte(f->buf + f->lineno_pos, off - f->lineno_pos, '\n');
    f->lineno_pos = off;
  }
  return f->lineno + 1;
}

/* Same, for -z (records end in NUL). */
static uintmax_t record_number_at(grep *g, gfile *f, size_t off) {
  if (g->eol == '\n') return line_number_at(f, off);
  if (off > f->lineno_pos) {
    f->lineno += cmd_count_byte(f->buf + f->lineno_pos, off - f->lineno_pos, 0);
    f->lineno_pos = off;
  }
  return f->lineno + 1;
}

/* The "FILE:NUM:OFF:" prefix. `content_len` decides -T's tab. */
static void put_head(grep *g, gfile *f, size_t line_off, uint64_t byte_off, char sep,
                     size_t content_len) {
  bool any = false;
  if (g->with_filename == 1) {
    put_colored(g, g->c_fn, f->name, strlen(f->name));
    if (g->null_after_name) cmd_outc(g->ctx, 0);
    else put_sep(g, sep);
    any = true;
  }
  if (g->line_number) {
    put_number(g, f, record_number_at(g, f, line_off), g->c_ln);
    put_sep(g, sep);
    any = true;
  }
  if (g->byte_offset) {
    put_number(g, f, byte_off, g->c_bn);
    put_sep(g, sep);
    any = true;
  }
  if (g->initial_tab && any && content_len != 0) cmd_outc(g->ctx, '\t');
}

static bool has_encoding_error(grep *g, const unsigned char *s, size_t n) {
  if (!g->utf8 || g->binary_files == BIN_TEXT) return false;
  return re_utf8_check((const char *)s, n) != n;
}

static int report_limit(grep *g, gfile *f, int rc);

static bool has_high_byte(const unsigned char *s, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (s[i] >= 0x80) return true;
  return false;
}

/* Is the line s[0..n) one for the Aho-Corasick matcher (else the regex)? */
static bool use_ac(const grep *g, const unsigned char *s, size_t n) {
  return g->ac && !(g->ac_defer && has_high_byte(s, n));
}

/* The leftmost(-longest) match in the line s[0..n) at or after pos: RE_MATCH
 * with [*so, *eo), RE_NOMATCH, or a negative re error. */
static int match_span(grep *g, const unsigned char *s, size_t n, size_t pos, size_t *so,
                      size_t *eo) {
  if (use_ac(g, s, n))
    return cmd_ac_leftmost(g->ac, (const char *)s, n, pos, so, eo) ? RE_MATCH : RE_NOMATCH;
  re_span m[1];
  int rc = re_exec(g->rx, (const char *)s, n, pos, 0, m, 1, &g->ctl);
  if (rc == RE_MATCH) *so = (size_t)m[0].so, *eo = (size_t)m[0].eo;
  return rc;
}

/* The end of the first match in s[pos..len) (lines separated by '\n'), as
 * re_first_end. */
static int match_first_end(grep *g, const char *s, size_t len, size_t pos, size_t *end) {
  if (!g->ac) return re_first_end(g->rx, s, len, pos, 0, end, &g->ctl);
  while (pos <= len) {
    const char *nl = memchr(s + pos, '\n', len - pos);
    size_t le = nl ? (size_t)(nl - s) : len;
    if (use_ac(g, (const unsigned char *)s + pos, le - pos)) {
      long e = cmd_ac_first_end(g->ac, s + pos, le - pos);
      if (e >= 0) {
        *end = pos + (size_t)e;
        return RE_MATCH;
      }
    } else {
      int rc = re_first_end(g->rx, s, le, pos, 0, end, &g->ctl);
      if (rc != RE_NOMATCH) return rc;
    }
    if (!nl) break;
    pos = le + 1;
  }
  return RE_NOMATCH;
}

/* Prints one output line: [ls, le) is the text, le the eol position (or
 * end of data). `selected`: a selected line (':'), else context ('-'). */
static void print_line(grep *g, gfile *f, size_t ls, size_t le, bool selected) {
  const unsigned char *s = f->buf + ls;
  size_t n = le - ls;
  bool matching = selected != g->invert;
  char sep = selected ? ':' : '-';
  if (g->only_matching) {
    if (!matching || !g->rx) return;
    size_t pos = 0;
    while (pos <= n) {
      size_t so, eo;
      int rc = match_span(g, s, n, pos, &so, &eo);
      if (rc != RE_MATCH) {
        if (rc < 0) report_limit(g, f, rc);
        break;
      }
      if (eo == so) {
        pos = so + 1;
        continue;
      }
      if (has_encoding_error(g, s + so, eo - so)) {
        f->encoding_error = true;
      } else {
        put_head(g, f, ls, f->base + ls + so, sep, eo - so);
        put_colored(g, selected ? g->c_ms : g->c_mc, s + so, eo - so);
        cmd_outc(g->ctx, g->eol);
      }
      pos = eo;
    }
    return;
  }
  if (has_encoding_error(g, s, n)) {
    f->encoding_error = true;
    return;
  }
  put_head(g, f, ls, f->base + ls, sep, n);
  const char *mcolor = selected ? g->c_ms : g->c_mc;
  if (g->color && matching && g->rx && mcolor && *mcolor) {
    size_t pos = 0, printed = 0;
    while (pos <= n) {
      size_t so, eo;
      int rc = match_span(g, s, n, pos, &so, &eo);
      if (rc != RE_MATCH) break;
      if (eo == so) {
        pos = so + 1;
        continue;
      }
      cmd_out(g->ctx, s + printed, so - printed);
      put_colored(g, mcolor, s + so, eo - so);
      printed = pos = eo;
    }
    cmd_out(g->ctx, s + printed, n - printed);
  } else {
    cmd_out(g->ctx, s, n);
  }
  cmd_outc(g->ctx, g->eol);
}

/* End of the line starting at ls (position of its eol, or f->len). */
static size_t line_end(grep *g, gfile *f, size_t ls, size_t lim) {
  const unsigned char *q = memchr(f->buf + ls, g->eol, lim - ls);
  return q ? (size_t)(q - f->buf) : lim;
}

/* Prints pending trailing context up to (not including) position `upto`. */
static void flush_after(grep *g, gfile *f, size_t upto) {
  while (f->after_left > 0 && f->last_out != SIZE_MAX && f->last_out < upto) {
    size_t ls = f->last_out;
    size_t le = line_end(g, f, ls, upto);
    print_line(g, f, ls, le, false);
    f->last_out = le < f->len ? le + 1 : le;
    f->after_left--;
    if (le >= upto) break;
  }
}

/* Start of the line before the one starting at `ls` (ls > floor). */
static size_t prev_line_start(grep *g, gfile *f, size_t ls, size_t floor) {
  size_t e = ls - 1; /* the eol of the previous line */
  if (e <= floor) return floor;
  const unsigned char *q = memrchr(f->buf + floor, g->eol, e - floor);
  return q ? (size_t)(q - f->buf) + 1 : floor;
}

static void print_before_and_sep(grep *g, gfile *f, size_t ls) {
  size_t floor = f->last_out != SIZE_MAX ? f->last_out : 0;
  size_t start = ls;
  for (intmax_t k = 0; k < g->before && start > floor; k++) start = prev_line_start(g, f, start, floor);
  if (g->context_given && g->group_sep && g->printed_group && (f->last_out == SIZE_MAX || start != f->last_out)) {
    put_colored(g, g->c_se, g->group_sep, strlen(g->group_sep));
    cmd_outc(g->ctx, '\n');
  }
  while (start < ls) {
    size_t le = line_end(g, f, start, ls);
    print_line(g, f, start, le, false);
    start = le + 1;
  }
}

/* A selected line [ls, le). */
static void select_line(grep *g, gfile *f, size_t ls, size_t le) {
  if (f->done_selecting || f->stop) return;
  f->nsel++;
  g->any_selected = true;
  bool last = g->max_count >= 0 && f->nsel >= (uintmax_t)g->max_count;
  if (g->quiet) {
    g->stop_all = true;
    f->stop = true;
    return;
  }
  if (g->list != LIST_NONE) {
    f->stop = true;
    return;
  }
  if (g->count || f->out_quiet) {
    if (f->done_on_match) f->stop = true;
    if (last) f->done_selecting = true;
    return;
  }
  flush_after(g, f, ls);
  print_before_and_sep(g, f, ls);
  print_line(g, f, ls, le, true);
  g->printed_group = true;
  f->last_out = le < f->len ? le + 1 : le;
  f->after_left = g->after;
  if (last) f->done_selecting = true;
}

/* Selects every line of [from, to) (invert: the lines between matches). */
static void select_range(grep *g, gfile *f, size_t from, size_t to) {
  size_t p = from;
  if ((g->count || f->out_quiet) && !f->done_on_match && g->max_count < 0 && !g->quiet &&
      g->list == LIST_NONE) {
    /* Just count: every eol ends a line, and so does the end of a last
     * line without one. */
    uintmax_t n = p < to ? cmd_count_byte(f->buf + p, to - p, g->eol) + (f->buf[to - 1] != g->eol)
                         : 0;
    if (n) {
      f->nsel += n;
      g->any_selected = true;
    }
    return;
  }
  while (p < to && !f->done_selecting && !f->stop) {
    size_t le = line_end(g, f, p, to);
    select_line(g, f, p, le);
    p = le + 1;
  }
}

static int report_limit(grep *g, gfile *f, int rc) {
  if (g->stop_all) return rc;
  if (rc == RE_ELIMIT) {
    if (g->matcher == 'P') cmd_errorf(g->ctx, "%s: exceeded PCRE's backtracking limit", f->name);
    else cmd_errorf(g->ctx, "%s: regular expression too complex", f->name);
  } else if (rc == RE_ENOMEM) {
    cmd_errorf(g->ctx, "%s: memory exhausted", f->name);
  }
  g->errseen = true;
  g->stop_all = true;
  f->stop = true;
  return rc;
}

/* Does the record s[0..n) match? 1, 0, or a negative re error. */
static int record_matches(grep *g, const unsigned char *s, size_t n) {
  if (!g->rx) return 0;
  int rc = re_exec(g->rx, (const char *)s, n, 0, 0, NULL, 0, &g->ctl);
  if (rc == RE_MATCH) return 1;
  if (rc == RE_NOMATCH) return 0;
  return rc;
}

/* Processes the complete lines in [from, lim). `lim` is after an eol, or the
 * end of data at EOF (last line without eol). */
static void process_region(grep *g, gfile *f, size_t from, size_t lim) {
  if (f->done_selecting) {
    flush_after(g, f, lim);
    if (f->after_left <= 0) f->stop = true;
    return;
  }
  if (g->lit && g->count && g->max_count < 0 && !f->out_quiet && lim > from) {
    /* -c with a fixed string: count the lines in one pass. */
    uintmax_t hits = cmd_count_lines_with(f->buf + from, lim - from, g->lit, g->litlen, '\n');
    if (g->invert)
      hits = cmd_count_byte(f->buf + from, lim - from, '\n') + (f->buf[lim - 1] != '\n') - hits;
    if (hits) {
      f->nsel += hits;
      g->any_selected = true;
    }
    return;
  }
  size_t slen = lim;
  if (lim > from && f->buf[lim - 1] == g->eol) slen = lim - 1;
  if (g->line_mode || !g->rx) {
    size_t p = from;
    while (p < lim && !f->stop && !f->done_selecting) {
      size_t le = line_end(g, f, p, slen);
      int m = record_matches(g, f->buf + p, le - p);
      if (m < 0) {
        report_limit(g, f, m);
        return;
      }
      if ((m == 1) != g->invert) select_line(g, f, p, le);
      p = le + 1;
    }
  } else {
    const char *s = (const char *)f->buf;
    size_t pos = from;
    bool counting = g->count || g->quiet || g->list != LIST_NONE || f->out_quiet;
    while (pos <= slen && !f->stop && !f->done_selecting) {
      size_t end;
      /* The subject is the region; positions are absolute in the buffer. */
      int rc = match_first_end(g, s, slen, pos, &end);
      if (rc < 0) {
        report_limit(g, f, rc);
        return;
      }
      if (rc == RE_NOMATCH) {
        if (g->invert && pos < lim) select_range(g, f, pos, lim);
        break;
      }
      size_t le = line_end(g, f, end, slen);
      if (counting && !g->invert) {
        /* -c, -q, -l, -L: where the line starts does not matter. */
        select_line(g, f, pos, le);
        pos = le + 1;
        continue;
      }
      const unsigned char *nl = end > pos ? memrchr(f->buf + pos, '\n', end - pos) : NULL;
      size_t ls = nl ? (size_t)(nl - f->buf) + 1 : pos;
      if (g->invert) {
        if (ls > pos) select_range(g, f, pos, ls);
      } else {
        select_line(g, f, ls, le);
      }
      pos = le + 1;
    }
  }
  if (!f->stop) flush_after(g, f, lim);
}

/* ---- reading a file ------------------------------------------------------------- */

static int grow_buffer(grep *g, size_t need) {
  if (need <= g->cap) return 0;
  uint64_t limit = g->ctx->max_string ? g->ctx->max_string : (64u << 20);
  if (limit < GREP_CHUNK * 2) limit = GREP_CHUNK * 2;
  if (need > limit + GREP_CHUNK + 1) return -ENOMEM;
  size_t nc = g->cap ? g->cap : GREP_CHUNK * 2;
  while (nc < need) nc *= 2;
  unsigned char *nb = realloc(g->buf, nc + 1);
  if (!nb) return -ENOMEM;
  g->buf = nb;
  g->cap = nc;
  return 0;
}

static int poll_cb(void *ud) { return cmd_poll((cmd_ctx *)ud); }

/* Where a file's bytes come from: an open fd, or (a regular file met by -r)
 * the store inode itself, which costs one query instead of a path lookup, an
 * open, two reads and a close per file. */
typedef struct gsrc {
  int fd;                /* the caller's fd, when st is NULL */
  const store_stat *st;  /* the file as the walk stat'ed it (the store does not
                            change under a command), or NULL */
  uint64_t off;          /* next offset (st) */
} gsrc;

static ssize_t src_read(grep *g, gsrc *src, void *buf, size_t n) {
  if (!src->st) return g->ctx->io->read(g->ctx->io_ud, src->fd, buf, n);
  ssize_t r = store_read_stat(g->ctx->store, src->st, buf, n, src->off);
  if (r > 0) src->off += (uint64_t)r;
  return r;
}

/* Greps a file; returns the number of selected lines, or -1 when the file
 * could not be read (message printed). */
static intmax_t grep_src(grep *g, gsrc *src, const char *name, const store_stat *st) {
  gfile f = {0};
  f.name = name;
  f.last_out = SIZE_MAX;
  f.after_left = 0;
  if (g->initial_tab) {
    uintmax_t num = st && S_ISREG(st->mode) ? (uintmax_t)st->size : (uintmax_t)INTMAX_MAX;
    if (g->line_number && num < (uintmax_t)INTMAX_MAX) num++;
    f.width = 1;
    while (num >= 10) num /= 10, f.width++;
  }
  bool eof = g->max_count == 0; /* -L -m 0: nothing to read */
  size_t pos = 0;
  while (!f.stop && !g->stop_all) {
    if (cmd_poll(g->ctx) || g->ctx->out_err) {
      /* Cancelled, or stdout is gone (EPIPE: `grep x | head -1`). */
      g->stop_all = true;
      break;
    }
    if (!eof) {
      if (grow_buffer(g, f.len + GREP_CHUNK) < 0) {
        cmd_errorf(g->ctx, "%s: memory exhausted", name);
        g->errseen = true;
        g->stop_all = true;
        return -1;
      }
      f.buf = g->buf;
      ssize_t r = src_read(g, src, f.buf + f.len, g->cap - f.len);
      if (r == -EINTR) continue;
      if (r < 0) {
        if (!g->no_messages) cmd_perror(g->ctx, name, (int)-r);
        g->errseen = true;
        return -1;
      }
      if (r == 0) {
        eof = true;
      } else {
        unsigned char *nd = f.buf + f.len;
        size_t nn = (size_t)r;
        if (!f.binary && g->binary_files != BIN_TEXT && g->eol == '\n' && memchr(nd, 0, nn)) {
          if (g->binary_files == BIN_WITHOUT_MATCH) {
            f.nsel = 0;
            break;
          }
          f.binary = true;
          f.nsel_at_binary = f.nsel;
          if (!g->count) f.done_on_match = f.out_quiet = true;
        }
        if (f.binary) {
          /* GNU treats NULs as line ends in binary files. */
          for (unsigned char *q = memchr(nd, 0, nn); q; q = memchr(q + 1, 0, (size_t)(nd + nn - q - 1)))
            *q = '\n';
        }
        f.len += nn;
      }
    }
    size_t lim;
    if (eof) {
      lim = f.len;
    } else {
      const unsigned char *q = f.len > pos ? memrchr(f.buf + pos, g->eol, f.len - pos) : NULL;
      if (!q) continue; /* need more data for this line */
      lim = (size_t)(q - f.buf) + 1;
    }
    if (lim > pos) process_region(g, &f, pos, lim);
    pos = lim;
    if (eof) break;
    /* Compact: keep unprocessed data and what before-context may need. */
    size_t keep = pos;
    if (g->before > 0 && !f.done_selecting) {
      size_t floor = f.last_out != SIZE_MAX ? f.last_out : 0;
      for (intmax_t k = 0; k < g->before && keep > floor; k++) keep = prev_line_start(g, &f, keep, floor);
    }
    if (f.last_out != SIZE_MAX && f.last_out < keep && f.after_left > 0) keep = f.last_out;
    if (keep > 0) {
      if (g->line_number) record_number_at(g, &f, keep);
      memmove(f.buf, f.buf + keep, f.len - keep);
      f.len -= keep;
      pos -= keep;
      f.base += keep;
      f.lineno_pos = f.lineno_pos > keep ? f.lineno_pos - keep : 0;
      if (f.last_out != SIZE_MAX) f.last_out = f.last_out > keep ? f.last_out - keep : 0;
    }
  }
  /* Results for this file. */
  if (g->count && !g->stop_all) {
    if (g->with_filename == 1) {
      put_colored(g, g->c_fn, name, strlen(name));
      if (g->null_after_name) cmd_outc(g->ctx, 0);
      else put_sep(g, ':');
    }
    cmd_outf(g->ctx, "%ju\n", f.nsel);
  }
  if (g->list == LIST_MATCHING && f.nsel > 0 && !g->quiet) {
    put_colored(g, g->c_fn, name, strlen(name));
    cmd_outc(g->ctx, g->null_after_name ? 0 : '\n');
  } else if (g->list == LIST_NONMATCHING && f.nsel == 0 && !g->stop_all && !g->quiet) {
    put_colored(g, g->c_fn, name, strlen(name));
    cmd_outc(g->ctx, g->null_after_name ? 0 : '\n');
  }
  if (g->binary_files == BIN_BINARY && !g->count && !g->quiet && g->list == LIST_NONE &&
      (f.encoding_error || (f.binary && f.nsel > f.nsel_at_binary))) {
    cmd_flush(g->ctx);
    cmd_errorf(g->ctx, "%s: binary file matches", name);
  }
  return (intmax_t)f.nsel;
}

/* ---- files and directories --------------------------------------------------------- */

static bool glob_excluded(const grep_globs *gl, const char *name, bool anchored) {
  if (gl->n == 0) return false;
  /* gnulib exclude: the last matching pattern (in command-line order)
   * decides; with no match, the default is the opposite of the first
   * pattern's kind. */
  for (size_t i = gl->n; i-- > 0;) {
    const grep_glob *p = &gl->v[i];
    bool m = fnmatch(p->pat, name, 0) == 0;
    if (!anchored)
      for (const char *s = name; *s && !m; s++)
        if (*s == '/' && s[1] != '/') m = fnmatch(p->pat, s + 1, 0) == 0;
    if (m) return !p->include;
  }
  return gl->v[0].include;
}

static intmax_t grep_fd(grep *g, int fd, const char *name, const store_stat *st) {
  gsrc src = {.fd = fd};
  return grep_src(g, &src, name, st);
}

static void grep_path(grep *g, const char *path, const char *display, const store_stat *st) {
  int fd = cmd_open_input(g->ctx, path);
  if (fd < 0) {
    if (!g->no_messages) cmd_perror(g->ctx, display, fd);
    else cmd_record_error(g->ctx, fd, display);
    g->errseen = true;
    return;
  }
  grep_fd(g, fd, display, st);
  cmd_close_input(g->ctx, fd);
}

/* A regular file of the walk, read by inode (st from the walk). */
static void grep_inode(grep *g, const char *display, const store_stat *st) {
  int rc = store_access_stat(g->ctx->store, st, R_OK);
  if (rc < 0) {
    if (!g->no_messages) cmd_perror(g->ctx, display, rc);
    else cmd_record_error(g->ctx, rc, display);
    g->errseen = true;
    return;
  }
  gsrc src = {.fd = -1, .st = st};
  grep_src(g, &src, display, st);
}

static void grep_tree(grep *g, const char *root, bool omit_dot_slash) {
  cmd_walk *w = cmd_walk_open(g->ctx, root, g->deref ? CMD_WALK_LOGICAL : CMD_WALK_COMFOLLOW);
  if (!w) {
    cmd_errorf(g->ctx, "memory exhausted");
    g->errseen = true;
    return;
  }
  cmd_walk_ent *e;
  while (!g->stop_all && (e = cmd_walk_next(w)) != NULL) {
    const char *disp = e->path;
    if (omit_dot_slash && disp[0] == '.' && disp[1] == '/') disp += 2;
    switch (e->info) {
    case CMD_WALK_D:
      if (e->depth > 0 && glob_excluded(&g->dir_globs, e->name, true)) cmd_walk_skip(w);
      break;
    case CMD_WALK_DNR:
    case CMD_WALK_NS:
      if (!g->no_messages) cmd_perror(g->ctx, disp, e->err);
      g->errseen = true;
      break;
    case CMD_WALK_DC:
      if (!g->no_messages) cmd_errorf(g->ctx, "warning: %s: recursive directory loop", disp);
      break;
    case CMD_WALK_SLNONE:
      if (!g->no_messages) cmd_perror(g->ctx, disp, -ENOENT);
      g->errseen = true;
      break;
    case CMD_WALK_F:
      if (S_ISLNK(e->st.mode)) break; /* -r: symlinks met while walking are skipped */
      if (!S_ISREG(e->st.mode) && (e->depth > 0 || g->devices_skip)) break;
      if (e->depth > 0 && glob_excluded(&g->file_globs, e->name, true)) break;
      if (S_ISREG(e->st.mode) && e->st.ino) grep_inode(g, disp, &e->st);
      else grep_path(g, e->path, disp, &e->st);
      break;
    default: break;
    }
  }
  cmd_walk_close(w);
}

static void grep_operand(grep *g, const char *arg) {
  if (strcmp(arg, "-") == 0) {
    const char *name = g->label ? g->label : "(standard input)";
    grep_fd(g, 0, name, NULL);
    return;
  }
  store_stat st;
  int rc = cmd_fs_stat(g->ctx, arg, &st);
  if (rc < 0) {
    if (!g->no_messages) cmd_perror(g->ctx, arg, rc);
    else cmd_record_error(g->ctx, rc, arg);
    g->errseen = true;
    return;
  }
  if (S_ISDIR(st.mode)) {
    if (g->directories == DIRS_SKIP) return;
    if (g->directories == DIRS_RECURSE) {
      if (glob_excluded(&g->dir_globs, arg, false)) return;
      grep_tree(g, arg, false);
      return;
    }
    if (!g->no_messages) cmd_perror(g->ctx, arg, -EISDIR);
    g->errseen = true;
    return;
  }
  if (glob_excluded(&g->file_globs, arg, false)) return;
  if (g->devices_skip && !S_ISREG(st.mode)) return;
  grep_path(g, arg, arg, &st);
}

/* ---- options ---------------------------------------------------------------------- */

/* The long-only options, in the order of the option string. */
enum {
  OPT_NO_IGNORE_CASE = CMD_OPT_LONG, OPT_LINE_BUFFERED, OPT_LABEL, OPT_BINARY_FILES,
  OPT_INCLUDE, OPT_EXCLUDE, OPT_EXCLUDE_FROM, OPT_EXCLUDE_DIR, OPT_GROUP_SEP,
  OPT_NO_GROUP_SEP, OPT_COLOR
};

/* Quiet (':'): grep reports a bad option itself, then its own usage. */
static const char grep_spec[] =
    ":(no-ignore-case)(help)(line-buffered)(label):(binary-files):(include):(exclude):"
    "(exclude-from):(exclude-dir):(group-separator):(no-group-separator)(color)::"
    "E(extended-regexp)F(fixed-strings)G(basic-regexp)P(perl-regexp)e:(regexp)f:(file)"
    "i(ignore-case)w(word-regexp)x(line-regexp)z(null-data)s(no-messages)v(invert-match)"
    "V(version)m:(max-count)b(byte-offset)n(line-number)H(with-filename)h(no-filename)"
    "o(only-matching)q(quiet)(silent)a(text)d:(directories)D:(devices)r(recursive)"
    "R(dereference-recursive)L(files-without-match)l(files-with-matches)c(count)"
    "T(initial-tab)Z(null)B:(before-context)A:(after-context)C:(context)U(binary)"
    "u(unix-byte-offsets)0123456789Iy";
/* A long-only option's second name: an alias, so "--col" is not ambiguous. */
static const cmd_longopt grep_colour[] = {{"colour", 2, OPT_COLOR}, {0, 0, 0}};

/* Growing pattern text: patterns joined by '\n'. */
typedef struct patbuf {
  char *s;      /* malloc'd */
  size_t len;   /* bytes */
  size_t cap;   /* allocated */
  size_t count; /* patterns */
} patbuf;

static int pat_add(patbuf *p, const char *s, size_t n) {
  if (cmd_grow(&p->s, &p->cap, p->len + n + 2, 1)) return -1;
  if (p->count) p->s[p->len++] = '\n';
  memcpy(p->s + p->len, s, n);
  p->len += n;
  p->s[p->len] = 0;
  p->count++;
  return 0;
}

/* Reads a whole file (store or stdin) into a malloc'd buffer; on failure
 * prints "grep: PATH: reason" and returns the negative errno. */
static int slurp(cmd_ctx *ctx, const char *path, char **data, size_t *len) {
  cmd_in *in;
  int rc = cmd_in_open(ctx, path, &in);
  if (rc == 0) {
    rc = cmd_in_slurp(in, data, len);
    cmd_in_close(in);
  }
  if (rc < 0) cmd_perror(ctx, path, rc);
  return rc;
}

static bool parse_context(grep *g, const char *s, intmax_t *out) {
  const char *p = s;
  if (!*p) goto bad;
  uintmax_t v = 0;
  for (; *p; p++) {
    if (*p < '0' || *p > '9') goto bad;
    v = v > (UINTMAX_MAX - 9) / 10 ? UINTMAX_MAX : v * 10 + (uintmax_t)(*p - '0');
  }
  *out = v > (uintmax_t)INTMAX_MAX ? INTMAX_MAX : (intmax_t)v;
  return true;
bad:
  cmd_errorf(g->ctx, "%s: invalid context length argument", s);
  return false;
}

static int add_glob(grep *g, grep_globs *gl, const char *pat, bool include) {
  if (cmd_grow_arena(g->ctx, &gl->v, &gl->cap, gl->n + 1, sizeof *gl->v)) return -1;
  gl->v[gl->n].pat = pat;
  gl->v[gl->n].include = include;
  gl->n++;
  return 0;
}

/* GREP_COLORS: "ms=01;31:mc=01;31:sl=:cx=:fn=35:ln=32:bn=32:se=36". */
static void parse_colors(grep *g, const char *spec) {
  if (!spec) return;
  char *s = cmd_strdup(g->ctx, spec);
  if (!s) return;
  char *save;
  for (char *tok = strtok_r(s, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
    char *eq = strchr(tok, '=');
    if (!eq) {
      if (strcmp(tok, "ne") == 0) g->c_ne = true;
      continue;
    }
    *eq = 0;
    const char *v = eq + 1;
    if (strcmp(tok, "mt") == 0) g->c_ms = g->c_mc = v;
    else if (strcmp(tok, "ms") == 0) g->c_ms = v;
    else if (strcmp(tok, "mc") == 0) g->c_mc = v;
    else if (strcmp(tok, "fn") == 0) g->c_fn = v;
    else if (strcmp(tok, "ln") == 0) g->c_ln = v;
    else if (strcmp(tok, "bn") == 0) g->c_bn = v;
    else if (strcmp(tok, "se") == 0) g->c_se = v;
  }
}

static bool locale_is_utf8(cmd_ctx *ctx) {
  const char *names[] = {"LC_ALL", "LC_CTYPE", "LANG"};
  for (int i = 0; i < 3; i++) {
    const char *v = cmd_getenv(ctx, names[i]);
    if (v && *v) return strcasestr(v, "utf-8") || strcasestr(v, "utf8");
  }
  return true; /* the sandbox's default locale is C.UTF-8 */
}

/* Does pattern s[0..n) match exactly the bytes it is made of, so that a
 * byte search finds what the regex would? Printable ASCII only (a UTF-8
 * multibyte character never contains such a byte), none of the BRE/ERE
 * special characters unless -F, and no -i -w -x (-P and -z are excluded by
 * the caller through line_mode). */
static bool is_plain_string(const grep *g, const char *s, size_t n) {
  if (n == 0 || g->icase || g->words || g->lines) return false;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c < 0x20 || c > 0x7e) return false;
    if (g->matcher != 'F' && strchr("\\.[]*^$+?(){}|", c)) return false;
  }
  return true;
}

static int usage_error(cmd_ctx *ctx) {
  cmd_err_raw(ctx, "%s", grep_usage_line);
  return cmd_usage_hint(ctx, 2);
}

static void on_warning(void *ud, const char *msg) { cmd_errorf((cmd_ctx *)ud, "warning: %s", msg); }

int cmd_grep_main(cmd_ctx *ctx, int argc, char **argv) {
  grep g0 = {0}, *g = &g0;
  g->ctx = ctx;
  const char *base = strrchr(ctx->name, '/') ? strrchr(ctx->name, '/') + 1 : ctx->name;
  if (strcmp(base, "egrep") == 0) g->matcher = 'E';
  else if (strcmp(base, "fgrep") == 0) g->matcher = 'F';
  ctx->name = "grep";
  g->with_filename = -1;
  g->max_count = -1;
  g->before = g->after = g->context = -1;
  g->group_sep = "--";
  g->eol = '\n';
  g->c_ms = g->c_mc = "01;31";
  g->c_fn = "35";
  g->c_ln = g->c_bn = "32";
  g->c_se = "36";
  patbuf pats = {0};
  bool have_pattern_opt = false;
  bool show_help = false;
  int color_opt = 0; /* 0 never, 1 always, 2 auto */
  int status = 2;
  int last_digit_ind = -1;
  char digits[32];
  size_t ndigits = 0;

  cmd_getopt_state st = CMD_GETOPT_INIT;
  int c;
  while ((c = cmd_getopt(ctx, &st, argc, argv, grep_spec, grep_colour)) != -1) {
    switch (c) {
    case '0': case '1': case '2': case '3': case '4':
    case '5': case '6': case '7': case '8': case '9':
      if (last_digit_ind != st.ind || st.pos == 1) ndigits = 0;
      if (ndigits + 1 < sizeof digits) digits[ndigits++] = (char)c;
      digits[ndigits] = 0;
      last_digit_ind = st.ind;
      if (!parse_context(g, digits, &g->context)) goto out;
      break;
    case 'A': if (!parse_context(g, st.arg, &g->after)) goto out; break;
    case 'B': if (!parse_context(g, st.arg, &g->before)) goto out; break;
    case 'C': if (!parse_context(g, st.arg, &g->context)) goto out; break;
    case 'D':
      if (strcmp(st.arg, "skip") == 0) g->devices_skip = true;
      else if (strcmp(st.arg, "read") == 0) g->devices_skip = false;
      else {
        cmd_errorf(ctx, "unknown devices method");
        goto out;
      }
      break;
    case 'E': case 'F': case 'G': case 'P':
      if (g->matcher && g->matcher != c) {
        cmd_errorf(ctx, "conflicting matchers specified");
        goto out;
      }
      g->matcher = c;
      break;
    case 'H': g->with_filename = 1; break;
    case 'h': g->with_filename = 0; break;
    case 'I': g->binary_files = BIN_WITHOUT_MATCH; break;
    case 'a': g->binary_files = BIN_TEXT; break;
    case 'T': g->initial_tab = true; break;
    case 'U': break;
    case 'u': cmd_errorf(ctx, "warning: --unix-byte-offsets (-u) is obsolete"); break;
    case 'V': status = cmd_print_version(ctx); goto out;
    case 'Z': g->null_after_name = true; break;
    case 'b': g->byte_offset = true; break;
    case 'c': g->count = true; break;
    case 'd':
      if (strcmp(st.arg, "read") == 0) g->directories = DIRS_READ;
      else if (strcmp(st.arg, "skip") == 0) g->directories = DIRS_SKIP;
      else if (strcmp(st.arg, "recurse") == 0) g->directories = DIRS_RECURSE;
      else {
        cmd_errorf(ctx, "invalid argument %s for %s", cmd_gnu_quote(ctx, st.arg),
                   cmd_gnu_quote(ctx, "--directories"));
        cmd_err_raw(ctx, "Valid arguments are:\n  - %s\n  - %s\n  - %s\n",
                    cmd_gnu_quote(ctx, "read"), cmd_gnu_quote(ctx, "recurse"),
                    cmd_gnu_quote(ctx, "skip"));
        usage_error(ctx);
        status = 1;
        goto out_status;
      }
      break;
    case 'e':
      if (pat_add(&pats, st.arg, strlen(st.arg)) < 0) goto nomem;
      have_pattern_opt = true;
      break;
    case 'f': {
      char *data = NULL;
      size_t len = 0;
      int rc = slurp(ctx, st.arg, &data, &len);
      if (rc < 0) goto out;
      if (len > 0 && data[len - 1] == '\n') len--;
      if (len > 0 || (data && rc >= 0 && len == 0 && data[0] == '\n')) {
        if (pat_add(&pats, data, len) < 0) {
          free(data);
          goto nomem;
        }
      }
      free(data);
      have_pattern_opt = true;
      break;
    }
    case 'i': case 'y': g->icase = true; break;
    case OPT_NO_IGNORE_CASE: g->icase = false; break;
    case 'L': g->list = LIST_NONMATCHING; break;
    case 'l': g->list = LIST_MATCHING; break;
    case 'm': {
      char *end;
      errno = 0;
      intmax_t v = strtoimax(st.arg, &end, 10);
      if (end == st.arg || *end) {
        cmd_errorf(ctx, "invalid max count");
        goto out;
      }
      if (errno == ERANGE) v = v < 0 ? -1 : INTMAX_MAX;
      g->max_count = v < 0 ? -1 : v;
      break;
    }
    case 'n': g->line_number = true; break;
    case 'o': g->only_matching = true; break;
    case 'q': g->quiet = true; break;
    case 'R': g->deref = true; /* fall through */
    case 'r': g->directories = DIRS_RECURSE; break;
    case 's': g->no_messages = true; break;
    case 'v': g->invert = true; break;
    case 'w': g->words = true; break;
    case 'x': g->lines = true; break;
    case 'z': g->nulldata = true; break;
    case OPT_BINARY_FILES:
      if (strcmp(st.arg, "binary") == 0) g->binary_files = BIN_BINARY;
      else if (strcmp(st.arg, "text") == 0) g->binary_files = BIN_TEXT;
      else if (strcmp(st.arg, "without-match") == 0) g->binary_files = BIN_WITHOUT_MATCH;
      else {
        cmd_errorf(ctx, "unknown binary-files type");
        goto out;
      }
      break;
    case OPT_COLOR:
      if (!st.arg || !strcasecmp(st.arg, "auto") || !strcasecmp(st.arg, "tty") ||
          !strcasecmp(st.arg, "if-tty"))
        color_opt = 2;
      else if (!strcasecmp(st.arg, "always") || !strcasecmp(st.arg, "yes") ||
               !strcasecmp(st.arg, "force"))
        color_opt = 1;
      else if (!strcasecmp(st.arg, "never") || !strcasecmp(st.arg, "no") ||
               !strcasecmp(st.arg, "none"))
        color_opt = 0;
      else show_help = true;
      break;
    case OPT_INCLUDE: if (add_glob(g, &g->file_globs, st.arg, true) < 0) goto nomem; break;
    case OPT_EXCLUDE: if (add_glob(g, &g->file_globs, st.arg, false) < 0) goto nomem; break;
    case OPT_EXCLUDE_DIR: if (add_glob(g, &g->dir_globs, st.arg, false) < 0) goto nomem; break;
    case OPT_EXCLUDE_FROM: {
      char *data = NULL;
      size_t len = 0;
      if (slurp(ctx, st.arg, &data, &len) < 0) goto out;
      size_t p = 0;
      while (p < len) {
        char *nl = memchr(data + p, '\n', len - p);
        size_t e = nl ? (size_t)(nl - data) : len;
        char *one = cmd_alloc(ctx, e - p + 1);
        if (!one) {
          free(data);
          goto nomem;
        }
        memcpy(one, data + p, e - p);
        if (e > p && add_glob(g, &g->file_globs, one, false) < 0) {
          free(data);
          goto nomem;
        }
        p = e + 1;
      }
      free(data);
      break;
    }
    case OPT_GROUP_SEP: g->group_sep = st.arg; break;
    case OPT_NO_GROUP_SEP: g->group_sep = NULL; break;
    case OPT_LABEL: g->label = st.arg; break;
    case OPT_LINE_BUFFERED: break;
    case CMD_OPT_HELP: show_help = true; break;
    default:
      cmd_getopt_report(ctx, &st, argc, argv, c, NULL);
      status = usage_error(ctx);
      goto out_status;
    }
  }
  if (show_help) {
    cmd_outs(ctx, grep_help);
    status = 0;
    goto out_status;
  }
  int ai = st.ind;
  if (!have_pattern_opt) {
    if (ai >= argc) {
      status = usage_error(ctx);
      goto out_status;
    }
    if (pat_add(&pats, argv[ai], strlen(argv[ai])) < 0) goto nomem;
    ai++;
  }
  if (!g->matcher) g->matcher = 'G';
  if (g->context >= 0) {
    if (g->before < 0) g->before = g->context;
    if (g->after < 0) g->after = g->context;
  }
  g->context_given = g->before >= 0 || g->after >= 0;
  if (g->before < 0) g->before = 0;
  if (g->after < 0) g->after = 0;
  if (g->nulldata) g->eol = 0;
  g->utf8 = locale_is_utf8(ctx);
  g->color = color_opt == 1;
  if (g->color) {
    const char *gc = cmd_getenv(ctx, "GREP_COLOR");
    if (gc && *gc) {
      cmd_errorf(ctx, "warning: GREP_COLOR='%s' is deprecated; use GREP_COLORS='mt=%s'", gc, gc);
      g->c_ms = g->c_mc = gc;
    }
    parse_colors(g, cmd_getenv(ctx, "GREP_COLORS"));
  }
  /* GNU: when nothing can be selected (-m 0, or no patterns without -v),
   * grep reads nothing and prints nothing (not even -c's counts), except
   * that -L still lists every file */
  if ((g->max_count == 0 || (pats.count == 0 && !g->invert)) && g->list != LIST_NONMATCHING) {
    status = 1;
    goto out_status;
  }

  /* Compile. */
  g->ctl.poll = poll_cb;
  g->ctl.ud = ctx;
  g->ctl.max_steps = 0;
  if (pats.count > 0) {
    unsigned flags = RE_NLALT | RE_WARN;
    if (g->utf8) flags |= RE_UTF8;
    if (g->icase) flags |= RE_NOCASE;
    if (g->lines) flags |= RE_WHOLE_LINE;
    else if (g->words) flags |= RE_WHOLE_WORD;
    const char *ptext = pats.s;
    size_t plen = pats.len;
    char *wrapped = NULL;
    if (g->matcher == 'P') {
      if (pats.count > 1 || memchr(pats.s, '\n', pats.len)) {
        cmd_errorf(ctx, "the -P option only supports a single pattern");
        goto out;
      }
      flags = RE_PERL | (g->utf8 ? RE_UTF8 : 0) | (g->icase ? RE_NOCASE : 0);
      if (g->lines || g->words) {
        const char *pre = g->lines ? "^(?:" : "(?<!\\w)(?:";
        const char *post = g->lines ? ")$" : ")(?!\\w)";
        wrapped = malloc(strlen(pre) + plen + strlen(post) + 1);
        if (!wrapped) goto nomem;
        strcpy(wrapped, pre);
        memcpy(wrapped + strlen(pre), pats.s, plen);
        strcpy(wrapped + strlen(pre) + plen, post);
        ptext = wrapped;
        plen = strlen(wrapped);
      }
      g->line_mode = true;
    } else {
      if (g->matcher == 'E') flags |= RE_EXTENDED;
      if (g->matcher == 'F') flags |= RE_LITERAL;
      if (g->nulldata) g->line_mode = true;
      else flags |= RE_NEWLINE | RE_NOTNL;
    }
    re_err err = {0};
    err.warn = on_warning;
    err.warn_ud = ctx;
    int rc = re_compile(&g->rx, ptext, plen, flags, &err);
    free(wrapped);
    if (rc) {
      cmd_errorf(ctx, "%s", err.msg);
      goto out;
    }
    /* -F with several strings: Aho-Corasick, unless case folding would
     * need more than ASCII's or a string is empty or not UTF-8 */
    if (g->matcher == 'F' && !g->line_mode && memchr(pats.s, '\n', pats.len) &&
        !(g->utf8 && g->icase && has_high_byte((const unsigned char *)pats.s, pats.len)) &&
        !(g->utf8 && re_utf8_check(pats.s, pats.len) != pats.len)) {
      unsigned acf = (g->icase ? CMD_AC_ICASE : 0) |
                     (g->lines ? CMD_AC_LINE : g->words ? CMD_AC_WORDS : 0);
      if (cmd_ac_build(pats.s, pats.len, acf, GREP_AC_MAX_BYTES, &g->ac) == 0)
        g->ac_defer = g->utf8 && (g->icase || g->words);
    }
    if (!g->line_mode && pats.count == 1 && is_plain_string(g, pats.s, pats.len)) {
      char *lit = cmd_alloc(ctx, pats.len + 1);
      if (lit) {
        memcpy(lit, pats.s, pats.len);
        g->lit = lit;
        g->litlen = pats.len;
      }
    }
  }

  /* Operands. */
  int nfiles = argc - ai;
  const char *dflt = g->directories == DIRS_RECURSE ? "." : "-";
  if (g->list != LIST_NONE || g->quiet) g->count = false;
  if (g->with_filename < 0) g->with_filename = nfiles > 1 || g->directories == DIRS_RECURSE;
  if (g->with_filename && g->directories == DIRS_RECURSE && nfiles == 1) {
    /* grep -r PAT FILE: names shown only when FILE is a directory. */
    store_stat st1;
    if (strcmp(argv[ai], "-") == 0 || cmd_fs_stat(ctx, argv[ai], &st1) < 0 || !S_ISDIR(st1.mode))
      g->with_filename = 0;
  }
  if (nfiles == 0) {
    if (g->directories == DIRS_RECURSE) grep_tree(g, dflt, true);
    else grep_operand(g, "-");
  } else {
    for (int i = ai; i < argc && !g->stop_all; i++) grep_operand(g, argv[i]);
  }
  int fr = cmd_flush(ctx);
  if (fr < 0) {
    status = cmd_write_error(ctx, fr);
    goto out_status;
  }
  if (g->quiet && g->any_selected) status = 0;
  else if (g->errseen) status = 2;
  else status = g->any_selected ? 0 : 1;
  goto out_status;

nomem:
  cmd_errorf(ctx, "memory exhausted");
out:
  status = 2;
out_status:
  re_free(g->rx);
  cmd_ac_free(g->ac);
  free(g->buf);
  free(pats.s);
  return status;
}
