/*
 * uniq - report or omit repeated lines.
 *
 *   Usage: uniq [OPTION]... [INPUT [OUTPUT]]
 *   -c count  -d repeated  -D all repeated  --all-repeated[=none|prepend|separate]
 *   -f N skip fields  -s N skip chars  -w N check chars  -i ignore case
 *   -u unique only  -z NUL delimiter  --group[=separate|prepend|append|both]
 *   Obsolete: -N (skip N fields).
 *
 * Design: one streaming pass with cmd_in_getdelim; the reference line of the
 * current group is kept in a growable copy, so memory is two lines whatever
 * the input size. The group/output rules are GNU's: the plain mode prints the
 * first line of each group; -c/-d/-u/-D go through the counted path where
 * -D moves the reference to each later duplicate. Every output line ends
 * with the delimiter, even when the input's last line lacked it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/lib/buf.h"
#include "cmd/lib/gnu.h"

CMD_DEFINE("uniq", cmd_uniq_main);

static const char uniq_usage[] =
    "Usage: uniq [OPTION]... [INPUT [OUTPUT]]\n"
    "Filter adjacent matching lines from INPUT (or standard input),\n"
    "writing to OUTPUT (or standard output).\n"
    "\n"
    "With no options, matching lines are merged to the first occurrence.\n"
    "\n"
    "Mandatory arguments to long options are mandatory for short options too.\n"
    "  -c, --count           prefix lines by the number of occurrences\n"
    "  -d, --repeated        only print duplicate lines, one for each group\n"
    "  -D                    print all duplicate lines\n"
    "      --all-repeated[=METHOD]  like -D, but allow separating groups\n"
    "                                 with an empty line;\n"
    "                                 METHOD={none(default),prepend,separate}\n"
    "  -f, --skip-fields=N   avoid comparing the first N fields\n"
    "      --group[=METHOD]  show all items, separating groups with an empty line;\n"
    "                          METHOD={separate(default),prepend,append,both}\n"
    "  -i, --ignore-case     ignore differences in case when comparing\n"
    "  -s, --skip-chars=N    avoid comparing the first N characters\n"
    "  -u, --unique          only print unique lines\n"
    "  -z, --zero-terminated     line delimiter is NUL, not newline\n"
    "  -w, --check-chars=N   compare no more than N characters in lines\n"
    CMD_HELP_VERSION_LINES
    "\n"
    "A field is a run of blanks (usually spaces and/or TABs), then non-blank\n"
    "characters.  Fields are skipped before chars.\n"
    "\n"
    "Note: 'uniq' does not detect repeated lines unless they are adjacent.\n"
    "You may want to sort the input first, or use 'sort -u' without 'uniq'.\n";

enum { DM_NONE, DM_PREPEND, DM_SEPARATE };
enum { GM_NONE, GM_PREPEND, GM_APPEND, GM_SEPARATE, GM_BOTH };

typedef struct uniq_opts {
  size_t skip_fields;   /* -f */
  size_t skip_chars;    /* -s */
  size_t check_chars;   /* -w (SIZE_MAX: all) */
  bool ignore_case;     /* -i */
  bool count;           /* -c */
  bool out_unique;      /* print lines that have no duplicate */
  bool out_first;       /* print the first line of a duplicate group */
  bool out_later;       /* print the later lines of a group (-D) */
  int delimit;          /* DM_* for --all-repeated */
  int grouping;         /* GM_* for --group */
  char delim;           /* '\n' or '\0' */
} uniq_opts;

/* A line with its delimiter (always present: added if missing). */
typedef struct uniq_line {
  char *buf;     /* malloc'd bytes */
  size_t len;    /* length including the delimiter */
  size_t cap;    /* allocated size */
  size_t field;  /* offset of the compared part */
  size_t flen;   /* length of the compared part (without delimiter) */
} uniq_line;

static inline bool field_sep(unsigned char c) { return c == ' ' || c == '\t' || c == '\n'; }

static void find_field(const uniq_opts *o, uniq_line *l) {
  size_t size = l->len - 1, i = 0;
  for (size_t count = 0; count < o->skip_fields && i < size; count++) {
    while (i < size && field_sep((unsigned char)l->buf[i])) i++;
    while (i < size && !field_sep((unsigned char)l->buf[i])) i++;
  }
  i += o->skip_chars < size - i ? o->skip_chars : size - i;
  l->field = i;
  l->flen = size - i;
}

static bool different(const uniq_opts *o, const uniq_line *a, const uniq_line *b) {
  size_t la = a->flen < o->check_chars ? a->flen : o->check_chars;
  size_t lb = b->flen < o->check_chars ? b->flen : o->check_chars;
  if (la != lb) return true;
  const char *x = a->buf + a->field, *y = b->buf + b->field;
  if (!o->ignore_case) return memcmp(x, y, la) != 0;
  for (size_t i = 0; i < la; i++) {
    unsigned char c = (unsigned char)x[i], d = (unsigned char)y[i];
    if (c >= 'a' && c <= 'z') c -= 32;
    if (d >= 'a' && d <= 'z') d -= 32;
    if (c != d) return true;
  }
  return false;
}

/* Reads the next line into l. Returns 1, 0 at EOF, or a negative errno. */
static int read_line(const uniq_opts *o, cmd_in *in, uniq_line *l) {
  char *p;
  ssize_t n = cmd_in_getdelim(in, &p, o->delim);
  if (n <= 0) return (int)n;
  size_t len = (size_t)n;
  bool has = p[len - 1] == o->delim;
  size_t need = len + (has ? 0 : 1);
  if (cmd_grow(&l->buf, &l->cap, need, 1)) return -ENOMEM;
  memcpy(l->buf, p, len);
  if (!has) l->buf[len++] = o->delim;
  l->len = len;
  find_field(o, l);
  return 1;
}

static void swap_lines(uniq_line *a, uniq_line *b) {
  uniq_line t = *a;
  *a = *b;
  *b = t;
}

/* GNU's writeline: a line without duplicates goes out with -u's choice, the
 * line that ends a group with -d's, a line that a later one repeats with -D's
 * (so -u -D prints each group but its last line). */
static void write_line(const uniq_opts *o, cmd_outfile *out, const uniq_line *l, bool match,
                       uintmax_t count) {
  if (!(count == 0 ? o->out_unique : !match ? o->out_first : o->out_later)) return;
  if (o->count) {
    char num[32];
    int k = snprintf(num, sizeof num, "%7ju ", count + 1);
    cmd_outfile_write(out, num, (size_t)k);
  }
  cmd_outfile_write(out, l->buf, l->len);
}

/* Returns 0 or a negative errno from reading. */
static int uniq_run(cmd_ctx *ctx, const uniq_opts *o, cmd_in *in, cmd_outfile *out) {
  uniq_line lines[2] = {{0}};
  uniq_line *prev = &lines[0], *cur = &lines[1];
  int r = 0;
  uintmax_t n = 0;
  if (o->out_unique && o->out_first && !o->count) {
    bool have_prev = false, first_group_printed = false;
    for (;; n++) {
      if ((n & 1023) == 0 && cmd_poll(ctx)) break;
      r = read_line(o, in, cur);
      if (r <= 0) break;
      bool new_group = !have_prev || different(o, cur, prev);
      if (new_group && o->grouping != GM_NONE &&
          (o->grouping == GM_PREPEND || o->grouping == GM_BOTH ||
           (first_group_printed && (o->grouping == GM_APPEND || o->grouping == GM_SEPARATE))))
        cmd_outfile_write(out, &o->delim, 1);
      if (new_group || o->grouping != GM_NONE) {
        cmd_outfile_write(out, cur->buf, cur->len);
        swap_lines(prev, cur);
        have_prev = true;
        first_group_printed = true;
      }
      if (out->err) break;
    }
    if (r >= 0 && (o->grouping == GM_BOTH || o->grouping == GM_APPEND) && first_group_printed)
      cmd_outfile_write(out, &o->delim, 1);
  } else {
    r = read_line(o, in, prev);
    if (r > 0) {
      uintmax_t match_count = 0;
      bool first_delimiter = true;
      for (;; n++) {
        if ((n & 1023) == 0 && cmd_poll(ctx)) break;
        r = read_line(o, in, cur);
        if (r <= 0) break;
        bool match = !different(o, cur, prev);
        if (match && match_count < UINTMAX_MAX - 1) match_count++;
        if (o->delimit != DM_NONE) {
          if (!match) {
            if (match_count) first_delimiter = false;
          } else if (match_count == 1) {
            if (o->delimit == DM_PREPEND || (o->delimit == DM_SEPARATE && !first_delimiter))
              cmd_outfile_write(out, &o->delim, 1);
          }
        }
        if (!match || o->out_later) {
          write_line(o, out, prev, match, match_count);
          swap_lines(prev, cur);
          if (!match) match_count = 0;
        }
        if (out->err) break;
      }
      if (r >= 0) write_line(o, out, prev, false, match_count);
    }
  }
  free(lines[0].buf);
  free(lines[1].buf);
  return r < 0 ? r : 0;
}

static int parse_size_opt(cmd_ctx *ctx, const char *arg, const char *msg, size_t *out) {
  uintmax_t v;
  int e = cmd_parse_umax(arg, "", &v);
  if (e == CMD_NUM_OK || e == CMD_NUM_OVERFLOW) {
    *out = (e == CMD_NUM_OVERFLOW || v > SIZE_MAX) ? SIZE_MAX : (size_t)v;
    return 0;
  }
  cmd_errorf(ctx, "%s: %s", arg, msg);
  return 1;
}

static int bad_method(cmd_ctx *ctx, const char *opt, const char *arg,
                      const char *const *names, int n, bool ambiguous) {
  cmd_errorf(ctx, "%s argument %s for " CMD_LQ "%s" CMD_RQ, ambiguous ? "ambiguous" : "invalid",
             cmd_gnu_quote(ctx, arg), opt);
  cmd_err_raw(ctx, "Valid arguments are:\n");
  for (int i = 0; i < n; i++) cmd_err_raw(ctx, "  - " CMD_LQ "%s" CMD_RQ "\n", names[i]);
  return cmd_usage_hint(ctx, 1);
}

/* argmatch: exact or unambiguous prefix. Returns the index, -1 invalid, -2
 * ambiguous. */
static int match_method(const char *arg, const char *const *names, int n) {
  int found = -1;
  size_t l = strlen(arg);
  for (int i = 0; i < n; i++) {
    if (strcmp(arg, names[i]) == 0) return i;
    if (l && strncmp(arg, names[i], l) == 0) found = found == -1 ? i : -2;
  }
  return found;
}

int cmd_uniq_main(cmd_ctx *ctx, int argc, char **argv) {
  enum { O_ALL_REPEATED = CMD_OPT_LONG, O_GROUP };
  static const char spec[] = "(all-repeated)::(group)::(help)(version)0123456789c(count)"
                             "d(repeated)Di(ignore-case)u(unique)f:(skip-fields)s:(skip-chars)"
                             "w:(check-chars)z(zero-terminated)";
  uniq_opts o = {0};
  o.check_chars = SIZE_MAX;
  o.out_unique = o.out_first = true;
  o.delim = '\n';
  bool fields_from_f = true; /* skip_fields was last set by -f (or not at all) */
  cmd_getopt_state g = CMD_GETOPT_INIT;
  for (int c; (c = cmd_getopt(ctx, &g, argc, argv, spec, NULL)) != -1;) {
    if (c >= '0' && c <= '9') {
      /* Obsolete -N: digits accumulate, restarting after a -f. */
      if (fields_from_f) o.skip_fields = 0;
      fields_from_f = false;
      size_t d = (size_t)(c - '0');
      o.skip_fields = o.skip_fields > (SIZE_MAX - d) / 10 ? SIZE_MAX : o.skip_fields * 10 + d;
      continue;
    }
    switch (c) {
    case 'c': o.count = true; break;
    case 'd': o.out_unique = false; break;
    case 'D':
      o.out_unique = false;
      o.out_later = true;
      break;
    case O_ALL_REPEATED: {
      static const char *const names[] = {"none", "prepend", "separate"};
      o.out_unique = false;
      o.out_later = true;
      if (g.arg) {
        int m = match_method(g.arg, names, 3);
        if (m < 0) return bad_method(ctx, "--all-repeated", g.arg, names, 3, m == -2);
        o.delimit = m == 0 ? DM_NONE : m == 1 ? DM_PREPEND : DM_SEPARATE;
      }
      break;
    }
    case O_GROUP: {
      static const char *const names[] = {"prepend", "append", "separate", "both"};
      o.grouping = GM_SEPARATE;
      if (g.arg) {
        int m = match_method(g.arg, names, 4);
        if (m < 0) return bad_method(ctx, "--group", g.arg, names, 4, m == -2);
        static const int gm[] = {GM_PREPEND, GM_APPEND, GM_SEPARATE, GM_BOTH};
        o.grouping = gm[m];
      }
      break;
    }
    case 'f':
      if (parse_size_opt(ctx, g.arg, "invalid number of fields to skip", &o.skip_fields))
        return 1;
      fields_from_f = true;
      break;
    case 'i': o.ignore_case = true; break;
    case 's':
      if (parse_size_opt(ctx, g.arg, "invalid number of bytes to skip", &o.skip_chars))
        return 1;
      break;
    case 'u': o.out_first = false; break;
    case 'w':
      if (parse_size_opt(ctx, g.arg, "invalid number of bytes to compare", &o.check_chars))
        return 1;
      break;
    case 'z': o.delim = '\0'; break;
    CMD_CASES_HELP_VERSION(ctx, uniq_usage);
    default: return 1; /* cmd_getopt printed the message */
    }
  }
  int nops = argc - g.ind;
  if (nops > 2) {
    cmd_errorf(ctx, "extra operand %s", cmd_gnu_quote(ctx, argv[g.ind + 2]));
    return cmd_usage_hint(ctx, 1);
  }
  if (o.grouping != GM_NONE && (o.count || !o.out_unique || o.out_later || !o.out_first)) {
    cmd_errorf(ctx, "--group is mutually exclusive with -c/-d/-D/-u");
    return cmd_usage_hint(ctx, 1);
  }
  if (o.count && o.out_later) {
    cmd_errorf(ctx, "printing all duplicated lines and repeat counts is meaningless");
    return cmd_usage_hint(ctx, 1);
  }
  const char *inpath = nops >= 1 ? argv[g.ind] : "-";
  const char *outpath = nops >= 2 ? argv[g.ind + 1] : "-";
  cmd_in *in;
  int r = cmd_in_open(ctx, inpath, &in);
  if (r < 0) return cmd_gnu_perror(ctx, inpath, r);
  cmd_outfile out;
  r = cmd_outfile_open(ctx, &out, outpath, O_WRONLY | O_CREAT | O_TRUNC);
  if (r < 0) {
    cmd_in_close(in);
    return cmd_gnu_perror(ctx, outpath, r);
  }
  int status = 0;
  r = uniq_run(ctx, &o, in, &out);
  cmd_in_close(in);
  bool to_stdout = out.fd == 1;
  int w = cmd_outfile_close(&out);
  if (r < 0) status = cmd_gnu_perror(ctx, inpath, r);
  if (w < 0) {
    if (to_stdout) return cmd_write_error(ctx, w);
    return cmd_gnu_perror(ctx, outpath, w);
  }
  return status;
}
