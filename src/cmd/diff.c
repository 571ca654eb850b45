/*
 * diff - compare files line by line (GNU diffutils 3.8).
 *
 *   diff [-u | -U N | -c | -C N | -q | --normal] [-i] [-w] [-b] [-B] [-a] [-N] [-r]
 *        [--label L]... [--strip-trailing-cr] [-p | -F RE]... FILE1 FILE2
 *   diff -y [-W N] [-t] [--suppress-common-lines] [--left-column] FILE1 FILE2
 *   diff [--line-format=LFMT | --LTYPE-line-format=LFMT | --GTYPE-group-format=GFMT
 *        | -D NAME]... FILE1 FILE2
 *
 * The differences come from Myers' O(ND) algorithm in linear space: strip the
 * common prefix and suffix, find the middle snake of the shortest edit script
 * with a forward and a backward search, recurse on both halves. Lines are
 * first mapped to equivalence-class numbers (after -i / -w / -b folding) so the
 * search compares integers. Afterwards each run of changes is slid to the
 * position GNU prefers (as far down as it goes, then back up to line up with
 * a change in the other file), so hunks match GNU's on ordinary input. Output
 * formats: normal, unified, context (with -F/-p: the last matching line before
 * each hunk in its header), brief, GNU's line and group formats (%l %L %dn
 * %c'C' %< %> %= %df... %(A=B?T:E), -D as formats); directories (with -r recursively,
 * -N for absent files), binary files ("Binary files a and b differ"), the
 * "\ No newline at end of file" marker. Exit 0 same, 1 different, 2 trouble.
 *
 * Bounds: each file is read whole, up to the sandbox's string limit; the
 * search polls for cancel/timeout; directory recursion is depth-limited.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cmd/cmd.h"
#include "cmd/lib/fs.h"
#include "cmd/lib/datetime.h"
#include "re/re.h"

CMD_DEFINE("diff", cmd_diff_main);

#define DIFF_MAX_DEPTH 128

enum diff_format { F_NORMAL, F_UNIFIED, F_CONTEXT, F_BRIEF, F_FORMAT, F_SIDE };

#define DIFF_MAX_FUNC_RE 16
/* --old/new/unchanged-line-format and --old/new/changed/unchanged-group-format */
enum { L_OLD, L_NEW, L_UNCHANGED };
enum { G_OLD, G_NEW, G_CHANGED, G_UNCHANGED };

typedef struct diff_opts {
  enum diff_format format;
  int context;              /* lines of context for -u / -c */
  bool icase, ign_all_space, ign_space_change, ign_trailing, ign_blank, initial_tab, text, new_file, recursive;
  bool strip_cr;
  const char *label[2];
  int nlabels;
  const char *optstr;       /* the options as given, for "diff -r a/x b/x" lines */
  re *func_re[DIFF_MAX_FUNC_RE]; /* -F / -p: a hunk header shows the line before */
  int nfunc;
  re *ign_re[DIFF_MAX_FUNC_RE];  /* -I: changes of matching lines only do not count */
  int nign;
  long func_search, func_match;  /* GNU's find_function cache (per file pair) */
  const char *lfmt[3];      /* line formats (NULL: "%l\n") */
  const char *gfmt[4];      /* group formats (NULL: the default of each) */
  long width;               /* -W (side by side), 130 */
  bool expand_tabs;         /* -t */
  bool suppress_common;     /* --suppress-common-lines */
  bool left_column;         /* --left-column */
  int status;               /* 0, 1, or 2 */
} diff_opts;

/* One side of the comparison. */
typedef struct diff_file {
  const char *name;     /* as shown in messages and headers */
  char *data;           /* the whole file */
  size_t len;
  const char **line;    /* start of each line */
  size_t *linelen;      /* length without the '\n' */
  size_t nlines;
  bool missing_newline; /* the last line has no '\n' */
  bool initial_tab;     /* -T: a TAB ends each line's prefix */
  int *eq;              /* equivalence class per line */
  bool *changed;        /* per line, after the search (changed[-1] and
                           changed[nlines] exist and stay false) */
  bool *changed_mem;    /* the allocation behind changed */
  store_stat st;        /* for the header's time */
  bool absent;          /* -N: a missing file read as empty */
} diff_file;

/* ---- reading and classifying lines ---------------------------------------------- */

static int read_file(cmd_ctx *ctx, diff_file *f, const char *path) {
  if (f->absent) {
    f->data = calloc(1, 1);
    return f->data ? 0 : -ENOMEM;
  }
  cmd_in *in;
  int rc = cmd_in_open(ctx, path, &in);
  if (rc < 0) return rc;
  rc = cmd_in_slurp(in, &f->data, &f->len);
  cmd_in_close(in);
  return rc;
}

static int split_lines(diff_file *f, bool strip_cr) {
  size_t n = 0;
  for (size_t i = 0; i < f->len; i++)
    if (f->data[i] == '\n') n++;
  if (f->len && f->data[f->len - 1] != '\n') n++, f->missing_newline = true;
  f->line = malloc((n + 1) * sizeof *f->line);
  f->linelen = malloc((n + 1) * sizeof *f->linelen);
  f->eq = malloc((n + 1) * sizeof *f->eq);
  f->changed_mem = calloc(n + 2, sizeof *f->changed_mem);
  if (!f->line || !f->linelen || !f->eq || !f->changed_mem) return -ENOMEM;
  f->changed = f->changed_mem + 1;
  const char *p = f->data, *end = f->data + f->len;
  for (size_t i = 0; i < n; i++) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
    f->line[i] = p;
    if (strip_cr && len && p[len - 1] == '\r') len--;
    f->linelen[i] = len;
    p += len + 1;
    if (nl) p = nl + 1;
  }
  f->nlines = n;
  return 0;
}

/* The line as compared: folded for -i, -w, -b into buf (malloc'd if needed). */
static size_t fold_line(const diff_opts *o, const char *s, size_t n, char *out) {
  size_t k = 0;
  bool in_space = false;
  for (size_t i = 0; i < n; i++) {
    char c = s[i];
    bool space = c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
    if (o->ign_all_space && space) continue;
    if (o->ign_space_change && space) {
      in_space = true;
      continue;
    }
    if (in_space) {
      out[k++] = ' ';
      in_space = false;
    }
    if (o->icase && c >= 'A' && c <= 'Z') c = (char)(c + 32);
    out[k++] = c;
  }
  /* -Z: white space at the end of the line is ignored */
  while (o->ign_trailing && k && (out[k - 1] == ' ' || out[k - 1] == '\t' || out[k - 1] == '\r' ||
                                  out[k - 1] == '\f' || out[k - 1] == '\v'))
    k--;
  /* -b: trailing white space is ignored entirely */
  return k;
}

typedef struct eq_entry {
  char *text;          /* folded line */
  size_t len;
  uint64_t hash;
  int id;
  struct eq_entry *next;
} eq_entry;

typedef struct eq_table {
  eq_entry **bucket;
  size_t nbuckets;
  int next_id;
} eq_table;

static uint64_t hash_bytes(const char *s, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
  return h;
}

static int classify(const diff_opts *o, eq_table *t, diff_file *f, char *scratch) {
  bool fold = o->icase || o->ign_all_space || o->ign_space_change || o->ign_trailing;
  for (size_t i = 0; i < f->nlines; i++) {
    const char *s = f->line[i];
    size_t n = f->linelen[i];
    if (fold) {
      n = fold_line(o, s, n, scratch);
      s = scratch;
    }
    uint64_t h = hash_bytes(s, n);
    eq_entry **slot = &t->bucket[h % t->nbuckets], *e;
    for (e = *slot; e; e = e->next)
      if (e->hash == h && e->len == n && memcmp(e->text, s, n) == 0) break;
    if (!e) {
      e = malloc(sizeof *e);
      if (!e) return -ENOMEM;
      e->text = malloc(n + 1);
      if (!e->text) {
        free(e);
        return -ENOMEM;
      }
      memcpy(e->text, s, n);
      e->len = n;
      e->hash = h;
      e->id = t->next_id++;
      e->next = *slot;
      *slot = e;
    }
    f->eq[i] = e->id;
  }
  /* A last line without '\n' differs from the same text with one, unless
   * white space is ignored (the newline counts as white space then, as GNU). */
  if (f->missing_newline && f->nlines && !o->ign_all_space && !o->ign_space_change &&
      !o->ign_trailing)
    f->eq[f->nlines - 1] = -1 - f->eq[f->nlines - 1];
  return 0;
}

/* ---- Myers' search ------------------------------------------------------------------ */

typedef struct search {
  const int *a, *b;     /* equivalence classes */
  bool *ca, *cb;        /* changed flags */
  long *fd, *bd;        /* furthest reaching points per diagonal (offset) */
  long off;             /* diagonal offset into fd/bd */
  cmd_ctx *ctx;
  int depth;
  bool canceled;
} search;

/* Finds the middle snake of a[xoff..xlim) vs b[yoff..ylim) (both non-empty,
 * no common prefix or suffix). *xmid,*ymid: a point on an optimal path. */
static void middle_snake(search *s, long xoff, long xlim, long yoff, long ylim, long *xmid,
                         long *ymid) {
  long *fd = s->fd, *bd = s->bd;
  long dmin = xoff - ylim, dmax = xlim - yoff;
  long fmid = xoff - yoff, bmid = xlim - ylim;
  long fmin = fmid, fmax = fmid, bmin = bmid, bmax = bmid;
  bool odd = (fmid - bmid) & 1;
  fd[s->off + fmid] = xoff;
  bd[s->off + bmid] = xlim;
  for (long c = 1;; c++) {
    if ((c & 1023) == 0 && cmd_poll(s->ctx)) {
      s->canceled = true;
      *xmid = xoff, *ymid = yoff;
      return;
    }
    /* Extend the forward search by one edit. */
    if (fmin > dmin) fd[s->off + --fmin - 1] = -1;
    else ++fmin;
    if (fmax < dmax) fd[s->off + ++fmax + 1] = -1;
    else --fmax;
    for (long d = fmax; d >= fmin; d -= 2) {
      long tlo = fd[s->off + d - 1], thi = fd[s->off + d + 1];
      long x = tlo >= thi ? tlo + 1 : thi;
      long y = x - d;
      while (x < xlim && y < ylim && s->a[x] == s->b[y]) x++, y++;
      fd[s->off + d] = x;
      if (odd && bmin <= d && d <= bmax && bd[s->off + d] <= x) {
        *xmid = x, *ymid = y;
        return;
      }
    }
    /* Extend the backward search by one edit. */
    if (bmin > dmin) bd[s->off + --bmin - 1] = LONG_MAX;
    else ++bmin;
    if (bmax < dmax) bd[s->off + ++bmax + 1] = LONG_MAX;
    else --bmax;
    for (long d = bmax; d >= bmin; d -= 2) {
      long tlo = bd[s->off + d - 1], thi = bd[s->off + d + 1];
      long x = tlo < thi ? tlo : thi - 1;
      long y = x - d;
      while (x > xoff && y > yoff && s->a[x - 1] == s->b[y - 1]) x--, y--;
      bd[s->off + d] = x;
      if (!odd && fmin <= d && d <= fmax && x <= fd[s->off + d]) {
        *xmid = x, *ymid = y;
        return;
      }
    }
  }
}

static void compare(search *s, long xoff, long xlim, long yoff, long ylim) {
  while (xoff < xlim && yoff < ylim && s->a[xoff] == s->b[yoff]) xoff++, yoff++;
  while (xlim > xoff && ylim > yoff && s->a[xlim - 1] == s->b[ylim - 1]) xlim--, ylim--;
  if (s->canceled) return;
  if (xoff == xlim) {
    while (yoff < ylim) s->cb[yoff++] = true;
  } else if (yoff == ylim) {
    while (xoff < xlim) s->ca[xoff++] = true;
  } else {
    long xmid, ymid;
    middle_snake(s, xoff, xlim, yoff, ylim, &xmid, &ymid);
    if (s->canceled) return;
    s->depth++;
    compare(s, xoff, xmid, yoff, ymid);
    compare(s, xmid, xlim, ymid, ylim);
    s->depth--;
  }
}

/*
 * Which lines of one side to leave out of the search, as GNU does: a line
 * whose text never occurs on the other side cannot be matched (1, certain);
 * one that occurs very often there (more than `many`, which grows with the
 * file) is left out only in the middle of a run of certain ones (2,
 * provisional): GNU's rules, restated:
 *  - provisional lines at either end of a run are kept;
 *  - if more than a quarter of the run is provisional, all of them are kept;
 *  - otherwise a provisional line is kept unless it sits inside a stretch of
 *    consecutive provisionals no longer than about log4(run/4)+1... GNU keeps
 *    the ones beyond that length; and near each end of the run (until three
 *    certain lines in a row, or a certain line at least 8 lines in) all
 *    provisionals are kept.
 * `disc` gets 0 (kept) or 1 (left out) for each of the n lines.
 */
static void choose_discards(const int *count_other, const int *cls, long n, char *disc) {
  long many = 5;
  for (long tem = n / 64; (tem >>= 2) > 0;) many *= 2;
  for (long k = 0; k < n; k++) {
    int c = count_other[cls[k]];
    disc[k] = c == 0 ? 1 : c > many ? 2 : 0;
  }
  for (long i = 0; i < n; i++) {
    if (disc[i] == 2) {
      disc[i] = 0; /* a provisional before any certain discard */
      continue;
    }
    if (disc[i] == 0) continue;
    long j = i, prov = 0;
    for (; j < n && disc[j]; j++) prov += disc[j] == 2;
    while (j > i && disc[j - 1] == 2) disc[--j] = 0, prov--;
    long len = j - i;
    if (prov * 4 > len) {
      for (long k = i; k < j; k++)
        if (disc[k] == 2) disc[k] = 0;
    } else {
      long minimum = 1;
      for (long tem = len >> 2; (tem >>= 2) > 0;) minimum <<= 1;
      minimum++;
      for (long k = 0, consec = 0; k < len; k++) {
        if (disc[i + k] != 2) consec = 0;
        else if (++consec == minimum) k -= consec; /* rescan this stretch... */
        else if (consec > minimum) disc[i + k] = 0; /* ...keeping its tail */
      }
      for (long k = 0, consec = 0; k < len; k++) {
        if (k >= 8 && disc[i + k] == 1) break;
        if (disc[i + k] == 2) consec = 0, disc[i + k] = 0;
        else if (disc[i + k] == 0) consec = 0;
        else if (++consec == 3) break;
      }
      long last = i + len - 1;
      for (long k = 0, consec = 0; k < len; k++) {
        if (k >= 8 && disc[last - k] == 1) break;
        if (disc[last - k] == 2) consec = 0, disc[last - k] = 0;
        else if (disc[last - k] == 0) consec = 0;
        else if (++consec == 3) break;
      }
      j = last + 1;
    }
    i = j - 1;
  }
  for (long k = 0; k < n; k++) disc[k] = disc[k] != 0;
}

/* Runs the search over [alo,ahi) x [blo,bhi) of the two files, leaving out
 * the discarded lines and marking them changed. Returns false when canceled
 * or out of memory. */
static bool search_region(cmd_ctx *ctx, diff_file *a, diff_file *b, long alo, long ahi,
                          long blo, long bhi, int nclasses) {
  long na = ahi - alo, nb = bhi - blo;
  int *cnt_a = calloc((size_t)nclasses, sizeof *cnt_a), *cnt_b = calloc((size_t)nclasses, sizeof *cnt_b);
  int *cls_a = calloc((size_t)na + 1, sizeof *cls_a), *cls_b = calloc((size_t)nb + 1, sizeof *cls_b);
  char *da = malloc((size_t)na + 1), *db = malloc((size_t)nb + 1);
  int *ra = malloc((size_t)(na + 1) * sizeof *ra), *rb = malloc((size_t)(nb + 1) * sizeof *rb);
  long *ma = malloc((size_t)(na + 1) * sizeof *ma), *mb = malloc((size_t)(nb + 1) * sizeof *mb);
  bool *rca = calloc((size_t)na + 2, 1), *rcb = calloc((size_t)nb + 2, 1);
  long total = na + nb + 3;
  long *fd = malloc((size_t)(2 * total + 2) * sizeof *fd), *bd = malloc((size_t)(2 * total + 2) * sizeof *bd);
  bool ok = cnt_a && cnt_b && cls_a && cls_b && da && db && ra && rb && ma && mb && rca && rcb && fd && bd;
  if (ok) {
    /* Class numbers as array indexes (a missing final newline makes ids < 0). */
    for (long k = 0; k < na; k++) {
      int e = a->eq[alo + k];
      cls_a[k] = e >= 0 ? 2 * e : 2 * (-1 - e) + 1;
      cnt_a[cls_a[k]]++;
    }
    for (long k = 0; k < nb; k++) {
      int e = b->eq[blo + k];
      cls_b[k] = e >= 0 ? 2 * e : 2 * (-1 - e) + 1;
      cnt_b[cls_b[k]]++;
    }
    choose_discards(cnt_b, cls_a, na, da);
    choose_discards(cnt_a, cls_b, nb, db);
    long ka = 0, kb = 0;
    for (long k = 0; k < na; k++) {
      if (da[k]) a->changed[alo + k] = true;
      else ra[ka] = a->eq[alo + k], ma[ka++] = alo + k;
    }
    for (long k = 0; k < nb; k++) {
      if (db[k]) b->changed[blo + k] = true;
      else rb[kb] = b->eq[blo + k], mb[kb++] = blo + k;
    }
    search s = {.a = ra, .b = rb, .ca = rca + 1, .cb = rcb + 1, .ctx = ctx,
                .fd = fd, .bd = bd, .off = kb + 1};
    compare(&s, 0, ka, 0, kb);
    ok = !s.canceled;
    for (long k = 0; k < ka; k++) a->changed[ma[k]] = rca[k + 1];
    for (long k = 0; k < kb; k++) b->changed[mb[k]] = rcb[k + 1];
  }
  free(cnt_a); free(cnt_b); free(cls_a); free(cls_b); free(da); free(db);
  free(ra); free(rb); free(ma); free(mb); free(rca); free(rcb); free(fd); free(bd);
  return ok;
}

/*
 * Slides each run of changed lines in `f` (within [lo, hi), the region left
 * after the identical prefix and suffix are set aside, as GNU does) to where
 * GNU shows it: a run moves up while the line above equals its last line,
 * merging with runs above; then down as far as it goes, merging with runs
 * below; then back up to the last place where it lined up with a change in
 * the other file, if it passed one. `j` follows the position in the other
 * file that corresponds to `i`. Both changed arrays have false sentinels at
 * index -1 and n, and the region is bounded by unchanged lines.
 */
static void shift_boundaries(diff_file *f, diff_file *other, long lo, long hi, long olo) {
  bool *ch = f->changed, *och = other->changed;
  const int *eq = f->eq;
  long i = lo, j = olo;
  for (;;) {
    while (i < hi && !ch[i]) {
      while (och[j]) j++;
      j++;
      i++;
    }
    if (i == hi) break;
    long start = i;
    while (ch[i]) i++;
    while (och[j]) j++;
    long run, lined_up;
    do {
      run = i - start;
      while (start > lo && eq[start - 1] == eq[i - 1]) {
        ch[--start] = true;
        ch[--i] = false;
        while (start > lo && ch[start - 1]) start--;
        do j--; while (och[j]);
      }
      lined_up = och[j - 1] ? i : hi;
      while (i < hi && eq[start] == eq[i]) {
        ch[start++] = false;
        ch[i++] = true;
        while (i < hi && ch[i]) i++;
        for (j++; och[j]; j++) lined_up = i;
      }
    } while (run != i - start);
    while (lined_up < i) {
      ch[--start] = true;
      ch[--i] = false;
      do j--; while (och[j]);
    }
  }
}

/* ---- building hunks ------------------------------------------------------------------ */

typedef struct change {
  long a0, na;  /* first changed line of a (0-based) and count */
  long b0, nb;
} change;

static change *collect(diff_file *a, diff_file *b, size_t *count) {
  size_t cap = 16, n = 0;
  change *v = malloc(cap * sizeof *v);
  long i = 0, j = 0, na = (long)a->nlines, nb = (long)b->nlines;
  while (v && (i < na || j < nb)) {
    if ((i < na && a->changed[i]) || (j < nb && b->changed[j])) {
      change c = {i, 0, j, 0};
      while (i < na && a->changed[i]) i++, c.na++;
      while (j < nb && b->changed[j]) j++, c.nb++;
      if (n == cap) {
        change *nv = realloc(v, (cap *= 2) * sizeof *v);
        if (!nv) {
          free(v);
          return NULL;
        }
        v = nv;
      }
      v[n++] = c;
    } else {
      i++, j++;
    }
  }
  *count = n;
  return v;
}

static bool blank_line(diff_file *f, long i) {
  for (size_t k = 0; k < f->linelen[i]; k++) {
    char c = f->line[i][k];
    if (c != ' ' && c != '\t' && c != '\r' && c != '\f' && c != '\v') return false;
  }
  return true;
}

/* -B: a change whose lines are all blank does not count. */
/* -B / -I: a line that does not count (blank, or matching an -I expression). */
static bool ignorable_line(const diff_opts *o, diff_file *f, long i) {
  if (o->ign_blank && blank_line(f, i)) return true;
  for (int k = 0; k < o->nign; k++)
    if (re_exec(o->ign_re[k], f->line[i], f->linelen[i], 0, 0, NULL, 0, NULL) == RE_MATCH)
      return true;
  return false;
}

/* -B / -I: a change whose lines all do not count is no change (GNU). */
static bool ignorable(const diff_opts *o, diff_file *a, diff_file *b, const change *c) {
  if (!o->ign_blank && !o->nign) return false;
  for (long k = 0; k < c->na; k++)
    if (!ignorable_line(o, a, c->a0 + k)) return false;
  for (long k = 0; k < c->nb; k++)
    if (!ignorable_line(o, b, c->b0 + k)) return false;
  return true;
}

/* ---- output ---------------------------------------------------------------------------- */

static void print_line(cmd_ctx *ctx, const char *prefix, diff_file *f, long i) {
  if (f->initial_tab) { /* -T: "< a" is "<\ta", "+a" is "+\ta", " a" is "\ta" */
    size_t pl = strlen(prefix);
    cmd_out(ctx, prefix, pl && prefix[pl - 1] == ' ' ? pl - 1 : pl);
    cmd_outc(ctx, '\t');
  } else {
    cmd_outs(ctx, prefix);
  }
  cmd_out(ctx, f->line[i], f->linelen[i]);
  if (f->linelen[i] < (size_t)((i + 1 < (long)f->nlines ? f->line[i + 1] : f->data + f->len) -
                               f->line[i]) &&
      f->line[i][f->linelen[i]] == '\r')
    cmd_outc(ctx, '\r'); /* --strip-trailing-cr only affects comparison */
  cmd_outc(ctx, '\n');
  if (i == (long)f->nlines - 1 && f->missing_newline)
    cmd_outs(ctx, "\\ No newline at end of file\n");
}

static void range(cmd_ctx *ctx, long first, long count, char sep) {
  /* first: 1-based; count 0 means the empty range after line first-1 */
  if (count <= 1)
    cmd_outf(ctx, "%ld", count == 0 ? first - 1 : first);
  else
    cmd_outf(ctx, "%ld%c%ld", first, sep, first + count - 1);
}

/* Unified ranges are "start,count" ("start" alone when count is 1; an empty
 * range names the line before it). */
static void uni_range(cmd_ctx *ctx, long first, long count) {
  if (count == 1) cmd_outf(ctx, "%ld", first);
  else if (count == 0) cmd_outf(ctx, "%ld,0", first - 1);
  else cmd_outf(ctx, "%ld,%ld", first, count);
}

/* -F / -p: the last line before a's line `first` (0-based) that matches one
 * of the expressions, searching back no further than the previous search
 * started (then the previous match stands), as GNU's find_function. */
static int diff_poll(void *ud) { return cmd_poll(ud); }

static long find_function(cmd_ctx *ctx, diff_opts *o, diff_file *a, long first) {
  long last = o->func_search;
  o->func_search = first;
  re_ctl ctl = {0, diff_poll, ctx};
  for (long i = first - 1; i >= last && i >= 0; i--) {
    for (int k = 0; k < o->nfunc; k++) {
      if (re_exec(o->func_re[k], a->line[i], a->linelen[i], 0, 0, NULL, 0, &ctl) == RE_MATCH) {
        o->func_match = i;
        return i;
      }
    }
    if ((i & 1023) == 0 && cmd_poll(ctx)) break;
  }
  return o->func_match;
}

/* GNU's print_context_function: a space, then up to 40 bytes of the line
 * from its first non-blank, trailing blanks dropped. */
static void print_function(cmd_ctx *ctx, diff_opts *o, diff_file *a, long first) {
  if (!o->nfunc) return;
  long f = find_function(ctx, o, a, first);
  if (f < 0) return;
  const char *s = a->line[f];
  size_t n = a->linelen[f], i = 0, j;
  while (i < n && (s[i] == ' ' || (s[i] >= '\t' && s[i] <= '\r'))) i++;
  for (j = i; j < i + 40 && j < n; j++) continue;
  while (j > i && (s[j - 1] == ' ' || (s[j - 1] >= '\t' && s[j - 1] <= '\r'))) j--;
  cmd_outc(ctx, ' ');
  cmd_out(ctx, s + i, j - i);
}

/* ---- --line-format and --GTYPE-group-format (GNU's ifdef output) ---------------------- */

/* The extent of a group: lines [lo, hi) of each file (0-based). */
typedef struct fmt_group {
  diff_file *f[2];
  long lo[2], hi[2];
} fmt_group;

/* Parses a printf spec after '%' ("-05.3d" ...) up to its conversion; returns
 * the position of the conversion letter (d o x X) or NULL when it is not one.
 * spec gets a printf format for a long. */
static const char *parse_spec(const char *p, char *spec, size_t sz) {
  const char *q = p;
  while (*q == '-' || *q == '\'' || *q == '0' || *q == ' ' || *q == '+' || *q == '#') q++;
  while (*q >= '0' && *q <= '9') q++;
  if (*q == '.') {
    q++;
    while (*q >= '0' && *q <= '9') q++;
  }
  if (*q != 'd' && *q != 'o' && *q != 'x' && *q != 'X') return NULL;
  size_t n = (size_t)(q - p);
  if (n + 4 > sz) return NULL;
  spec[0] = '%';
  memcpy(spec + 1, p, n);
  spec[n + 1] = 'l';
  spec[n + 2] = *q;
  spec[n + 3] = '\0';
  return q;
}

/* %c'C' or %c'\OOO': returns the position after it and the byte in *out. */
static const char *parse_char(const char *p, char *out) {
  if (p[0] != 'c' || p[1] != '\'') return NULL;
  p += 2;
  if (*p == '\\') {
    int v = 0, k = 0;
    p++;
    while (k < 3 && *p >= '0' && *p <= '7') v = v * 8 + (*p++ - '0'), k++;
    if (!k) return NULL;
    *out = (char)v;
  } else if (*p && *p != '\'') {
    *out = *p++;
  } else {
    return NULL;
  }
  return *p == '\'' ? p + 1 : NULL;
}

/* The value of a line-number letter of a group: e f l m n for file 1, E F L
 * M N for file 2 (first-1, first, last, last+1, count; 1-based). */
static bool group_value(const fmt_group *g, char c, long *v) {
  int k = c >= 'A' && c <= 'Z';
  long first = g->lo[k] + 1, last = g->hi[k];
  switch (c | 0x20) {
    case 'e': *v = first - 1; return true;
    case 'f': *v = first; return true;
    case 'l': *v = last; return true;
    case 'm': *v = last + 1; return true;
    case 'n': *v = last - first + 1; return true;
    default: return false;
  }
}

static void format_lines(cmd_ctx *ctx, const diff_opts *o, int type, diff_file *f, long lo,
                         long hi);

/* One operand of %(A=B?T:E): a decimal number or a letter. */
static const char *cond_operand(const char *p, const fmt_group *g, long line, long *v) {
  if (*p >= '0' && *p <= '9') {
    *v = 0;
    while (*p >= '0' && *p <= '9') *v = *v * 10 + (*p++ - '0');
    return p;
  }
  if (g ? group_value(g, *p, v) : *p == 'n' ? (*v = line + 1, true) : false) return p + 1;
  return NULL;
}

/* Finds the end of a conditional branch (up to `stop` at nesting level 0). */
static const char *branch_end(const char *p, char stop) {
  int depth = 0;
  for (; *p; p++) {
    if (*p == '%' && p[1] == '(') depth++, p++;
    else if (*p == '%' && p[1]) p++;
    else if (*p == ')' && depth) depth--;
    else if (*p == stop && !depth) return p;
    else if (*p == ')' && !depth && stop == ':') return p;
  }
  return p;
}

/* Prints fmt[0..end) for a group (g) or a line (f, line; g NULL). */
static void format_run(cmd_ctx *ctx, const diff_opts *o, const char *fmt, const char *end,
                       const fmt_group *g, diff_file *f, long line, int depth) {
  char spec[64];
  for (const char *p = fmt; p < end;) {
    if (*p != '%') {
      const char *q = memchr(p, '%', (size_t)(end - p));
      if (!q) q = end;
      cmd_out(ctx, p, (size_t)(q - p));
      p = q;
      continue;
    }
    const char *d = p + 1, *q;
    char ch;
    long v;
    if (d >= end) {
      cmd_outc(ctx, '%');
      break;
    }
    if (*d == '%') {
      cmd_outc(ctx, '%');
      p = d + 1;
    } else if (g && (*d == '<' || *d == '>' || *d == '=')) {
      int k = *d == '>';
      format_lines(ctx, o, *d == '<' ? L_OLD : *d == '>' ? L_NEW : L_UNCHANGED, g->f[k],
                   g->lo[k], g->hi[k]);
      p = d + 1;
    } else if (!g && (*d == 'l' || *d == 'L')) {
      size_t n = f->linelen[line];
      bool nl = !(line == (long)f->nlines - 1 && f->missing_newline);
      cmd_out(ctx, f->line[line], n);
      if (*d == 'L' && nl) cmd_outc(ctx, '\n');
      p = d + 1;
    } else if ((q = parse_char(d, &ch))) {
      cmd_outc(ctx, ch);
      p = q;
    } else if ((q = parse_spec(d, spec, sizeof spec)) && q + 1 < end + 1 &&
               (g ? group_value(g, q[1], &v) : q[1] == 'n' ? (v = line + 1, true) : false)) {
      cmd_outf(ctx, spec, v);
      p = q + 2;
    } else if (*d == '(' && depth < 32) {
      /* %(A=B?T:E) */
      long x, y;
      const char *a = cond_operand(d + 1, g, line, &x), *b;
      if (!a || *a != '=' || !(b = cond_operand(a + 1, g, line, &y)) || *b != '?') {
        cmd_outc(ctx, '%');
        p = d;
        continue;
      }
      const char *t = b + 1, *te = branch_end(t, ':');
      const char *e = *te == ':' ? te + 1 : te, *ee = *te == ':' ? branch_end(e, ')') : te;
      if (x == y) format_run(ctx, o, t, te < end ? te : end, g, f, line, depth + 1);
      else if (e < ee) format_run(ctx, o, e, ee < end ? ee : end, g, f, line, depth + 1);
      p = *ee == ')' ? ee + 1 : ee;
    } else {
      cmd_outc(ctx, '%');
      p = d;
    }
  }
}

static void format_lines(cmd_ctx *ctx, const diff_opts *o, int type, diff_file *f, long lo,
                         long hi) {
  const char *fmt = o->lfmt[type] ? o->lfmt[type] : "%l\n";
  for (long i = lo; i < hi && !cmd_poll(ctx); i++)
    format_run(ctx, o, fmt, fmt + strlen(fmt), NULL, f, i, 0);
}

static void format_group(cmd_ctx *ctx, const diff_opts *o, int type, const fmt_group *g) {
  static const char *const defaults[4] = {"%<", "%>", "%<%>", "%="};
  const char *fmt = o->gfmt[type] ? o->gfmt[type] : defaults[type];
  format_run(ctx, o, fmt, fmt + strlen(fmt), g, NULL, 0, 0);
}

/* ---- -y: side by side (GNU's side.c) ---------------------------------------------------- */

typedef struct side {
  cmd_ctx *ctx;
  long half, col2; /* half width, offset of the second column */
  bool expand;
} side;

/* Tabs (unless -t) then spaces from column `from` to `to`. */
static long side_tab_to(side *sd, long from, long to) {
  if (!sd->expand)
    for (long tab = from + 8 - from % 8; tab <= to; tab += 8) {
      cmd_outc(sd->ctx, '\t');
      from = tab;
    }
  while (from++ < to) cmd_outc(sd->ctx, ' ');
  return to;
}

/* One side's line cut to `bound` columns; returns the column reached. */
static long side_half(side *sd, const diff_file *f, long i, long indent, long bound) {
  const unsigned char *p = (const unsigned char *)f->line[i];
  const unsigned char *end = p + f->linelen[i];
  long in = 0, out = 0;
  while (p < end) {
    unsigned char c = *p++;
    if (c == '\t') {
      long spaces = 8 - in % 8;
      if (in == out) {
        long stop = out + spaces;
        if (sd->expand) {
          if (bound < stop) stop = bound;
          for (; out < stop; out++) cmd_outc(sd->ctx, ' ');
        } else if (stop < bound) {
          out = stop;
          cmd_outc(sd->ctx, '\t');
        }
      }
      in += spaces;
    } else if (c == '\r') {
      cmd_outc(sd->ctx, '\r');
      side_tab_to(sd, 0, indent);
      in = out = 0;
    } else if (c == '\b') {
      if (in != 0 && --in < bound) {
        if (out <= in) {
          for (; out < in; out++) cmd_outc(sd->ctx, ' ');
        } else {
          out = in;
          cmd_outc(sd->ctx, '\b');
        }
      }
    } else if (c == '\f' || c == '\v') {
      if (in < bound) cmd_outc(sd->ctx, (char)c);
    } else {
      /* one character (a UTF-8 sequence counts one column) */
      const unsigned char *start = p - 1;
      if (c >= 0xc0)
        while (p < end && (*p & 0xc0) == 0x80) p++;
      if (in < bound) {
        out = in + 1;
        cmd_out(sd->ctx, start, (size_t)(p - start));
      }
      in++;
    }
  }
  return out;
}

static bool side_nl(const diff_file *f, long i) {
  return !(i == (long)f->nlines - 1 && f->missing_newline);
}

/* GNU's print_1sdiff_line: a (or -1), the separator, b (or -1). */
static void side_line(side *sd, diff_file *a, long i, char sep, diff_file *b, long j) {
  long col = 0;
  bool nl = false;
  if (i >= 0) {
    nl |= side_nl(a, i);
    col = side_half(sd, a, i, 0, sd->half);
  }
  if (sep != ' ') {
    col = side_tab_to(sd, col, (sd->half + sd->col2 - 1) / 2) + 1;
    if (sep == '|' && nl != side_nl(b, j)) sep = nl ? '/' : '\\';
    cmd_outc(sd->ctx, sep);
  }
  if (j >= 0) {
    nl |= side_nl(b, j);
    if (b->linelen[j] > 0) {
      col = side_tab_to(sd, col, sd->col2);
      side_half(sd, b, j, col, sd->half);
    }
  }
  if (nl) cmd_outc(sd->ctx, '\n');
}

static void print_side(cmd_ctx *ctx, diff_file *a, diff_file *b, change *v, size_t n,
                       const diff_opts *o) {
  side sd = {ctx, 0, 0, o->expand_tabs};
  long t = o->expand_tabs ? 1 : 8;
  long off = (o->width + t + 3) / (2 * t) * t;
  sd.half = off - 3 < o->width - off ? off - 3 : o->width - off;
  if (sd.half < 0) sd.half = 0;
  sd.col2 = sd.half ? off : o->width;
  long i = 0, j = 0;
  for (size_t k = 0; k <= n; k++) {
    long a0 = k < n ? v[k].a0 : (long)a->nlines;
    for (; i < a0; i++, j++) {
      if (cmd_poll(ctx)) return;
      if (o->suppress_common) continue;
      if (o->left_column) side_line(&sd, a, i, '(', b, -1);
      else side_line(&sd, a, i, ' ', b, j);
    }
    if (k == n) break;
    long na = v[k].na, nb = v[k].nb, m = na < nb ? na : nb;
    for (long x = 0; x < m; x++) side_line(&sd, a, i++, '|', b, j++);
    for (long x = m; x < na; x++) side_line(&sd, a, i++, '<', b, -1);
    for (long x = m; x < nb; x++) side_line(&sd, a, -1, '>', b, j++);
  }
}

/* Every group in order: the unchanged runs between changes and each change,
 * as GNU's print_ifdef_script (a -B-ignorable change stays in the run of
 * unchanged lines, shown from file 1). */
static void print_formats(cmd_ctx *ctx, diff_file *a, diff_file *b, change *v, size_t n,
                          const diff_opts *o) {
  long na = 0, nb = 0;
  for (size_t k = 0; k <= n; k++) {
    if (k < n && ignorable(o, a, b, &v[k])) continue;
    long a0 = k < n ? v[k].a0 : (long)a->nlines, b0 = k < n ? v[k].b0 : (long)b->nlines;
    if (na < a0) {
      fmt_group u = {{a, b}, {na, nb}, {a0, b0}};
      format_group(ctx, o, G_UNCHANGED, &u);
    }
    if (k == n) break;
    fmt_group c = {{a, b}, {v[k].a0, v[k].b0}, {v[k].a0 + v[k].na, v[k].b0 + v[k].nb}};
    format_group(ctx, o, v[k].na && v[k].nb ? G_CHANGED : v[k].na ? G_OLD : G_NEW, &c);
    na = c.hi[0], nb = c.hi[1];
    if (cmd_poll(ctx)) break;
  }
}

static void print_normal(cmd_ctx *ctx, diff_file *a, diff_file *b, change *v, size_t n,
                         const diff_opts *o) {
  for (size_t k = 0; k < n; k++) {
    change *c = &v[k];
    if (ignorable(o, a, b, c)) continue;
    char op = c->na && c->nb ? 'c' : c->na ? 'd' : 'a';
    range(ctx, c->a0 + 1, c->na, ',');
    cmd_outc(ctx, op);
    range(ctx, c->b0 + 1, c->nb, ',');
    cmd_outc(ctx, '\n');
    for (long i = 0; i < c->na; i++) print_line(ctx, "< ", a, c->a0 + i);
    if (c->na && c->nb) cmd_outs(ctx, "---\n");
    for (long i = 0; i < c->nb; i++) print_line(ctx, "> ", b, c->b0 + i);
  }
}

static void header_time(cmd_ctx *ctx, diff_file *f, char *buf, size_t sz) {
  cmd_tz tz;
  cmd_tz_from_env(ctx, &tz);
  struct tm tm;
  int64_t t = f->absent ? 0 : f->st.mtime;
  long nsec = f->absent ? 0 : (long)f->st.mtime_nsec;
  cmd_time_local(&tz, t, &tm);
  char date[64], zone[48];
  strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S", &tm);
  long off = tm.tm_gmtoff;
  snprintf(zone, sizeof zone, "%c%02ld%02ld", off < 0 ? '-' : '+', labs(off) / 3600,
           labs(off) % 3600 / 60);
  snprintf(buf, sz, "%s.%09ld %s", date, nsec, zone);
}

static void print_headers(cmd_ctx *ctx, diff_file *a, diff_file *b, const diff_opts *o) {
  const char *m1 = o->format == F_UNIFIED ? "---" : "***";
  const char *m2 = o->format == F_UNIFIED ? "+++" : "---";
  char t[160];
  if (o->nlabels >= 1) cmd_outf(ctx, "%s %s\n", m1, o->label[0]);
  else {
    header_time(ctx, a, t, sizeof t);
    cmd_outf(ctx, "%s %s\t%s\n", m1, a->name, t);
  }
  if (o->nlabels >= 2) cmd_outf(ctx, "%s %s\n", m2, o->label[1]);
  else {
    header_time(ctx, b, t, sizeof t);
    cmd_outf(ctx, "%s %s\t%s\n", m2, b->name, t);
  }
}

/* Groups changes into hunks as GNU's find_hunk: the next change joins the
 * hunk when fewer than 2*C+1 lines separate them, or fewer than C when it is
 * one -B/-I ignore. A hunk of ignorable changes only is not printed
 * (hunk_real); one with a real change prints its ignorable ones too. */
static size_t hunk_end(change *v, size_t n, size_t k, int ctxlines, const diff_opts *o,
                       diff_file *a, diff_file *b) {
  size_t last = k;
  for (size_t m = k + 1; m < n; m++) {
    long gap = v[m].a0 - (v[last].a0 + v[last].na);
    long thresh = ignorable(o, a, b, &v[m]) ? ctxlines : 2L * ctxlines + 1;
    if (gap >= thresh) break;
    last = m;
  }
  return last;
}

static bool hunk_real(change *v, size_t k, size_t last, const diff_opts *o, diff_file *a,
                      diff_file *b) {
  for (size_t m = k; m <= last; m++)
    if (!ignorable(o, a, b, &v[m])) return true;
  return false;
}

/* The lines a hunk of changes k..last shows, context included: [a_lo, a_hi)
 * of a and [b_lo, b_hi) of b. */
static void hunk_bounds(const change *v, size_t k, size_t last, long ctxlines,
                        const diff_file *a, const diff_file *b, long *a_lo, long *a_hi,
                        long *b_lo, long *b_hi) {
  *a_lo = v[k].a0 - ctxlines < 0 ? 0 : v[k].a0 - ctxlines;
  *b_lo = v[k].b0 - (v[k].a0 - *a_lo);
  *a_hi = v[last].a0 + v[last].na + ctxlines;
  if (*a_hi > (long)a->nlines) *a_hi = (long)a->nlines;
  *b_hi = v[last].b0 + v[last].nb + (*a_hi - (v[last].a0 + v[last].na));
  if (*b_hi > (long)b->nlines) *b_hi = (long)b->nlines;
}

/* One hunk of the unified and context formats: changes k..last and the
 * lines it shows (hunk_bounds). */
typedef struct hunk {
  size_t k, last;   /* its first and last change */
  long a_lo, a_hi;  /* [a_lo, a_hi): the lines of a it shows */
  long b_lo, b_hi;  /* [b_lo, b_hi): the lines of b it shows */
} hunk;

/* The next hunk with a change to print, from change *next on (hunks whose
 * changes -I or -B ignore are passed over): fills h and moves *next past it;
 * false when no hunk is left. Both hunk printers loop on it. */
static bool hunk_next(change *v, size_t n, size_t *next, const diff_opts *o, diff_file *a,
                      diff_file *b, hunk *h) {
  while (*next < n) {
    size_t k = *next, last = hunk_end(v, n, k, o->context, o, a, b);
    *next = last + 1;
    if (!hunk_real(v, k, last, o, a, b)) continue;
    h->k = k;
    h->last = last;
    hunk_bounds(v, k, last, o->context, a, b, &h->a_lo, &h->a_hi, &h->b_lo, &h->b_hi);
    return true;
  }
  return false;
}

static void print_unified(cmd_ctx *ctx, diff_file *a, diff_file *b, change *v, size_t n,
                          diff_opts *o) {
  size_t next = 0;
  for (hunk h; hunk_next(v, n, &next, o, a, b, &h);) {
    cmd_outs(ctx, "@@ -");
    uni_range(ctx, h.a_lo + 1, h.a_hi - h.a_lo);
    cmd_outs(ctx, " +");
    uni_range(ctx, h.b_lo + 1, h.b_hi - h.b_lo);
    cmd_outs(ctx, " @@");
    print_function(ctx, o, a, h.a_lo);
    cmd_outc(ctx, '\n');
    long i = h.a_lo, j = h.b_lo;
    for (size_t m = h.k; m <= h.last; m++) {
      for (; i < v[m].a0; i++, j++) print_line(ctx, " ", a, i);
      for (long x = 0; x < v[m].na; x++) print_line(ctx, "-", a, i++);
      for (long x = 0; x < v[m].nb; x++) print_line(ctx, "+", b, j++);
    }
    for (; i < h.a_hi; i++, j++) print_line(ctx, " ", a, i);
  }
}

/* One side of a context hunk: lines lo..hi of f (the new file when
 * `new_side`) for changes k..last, changed lines marked "! " (changed on
 * both sides), "- " (deleted) or "+ " (added). */
static void print_context_side(cmd_ctx *ctx, diff_file *f, const change *v, size_t k,
                               size_t last, long lo, long hi, bool new_side) {
  long i = lo;
  for (size_t m = k; m <= last; m++) {
    long first = new_side ? v[m].b0 : v[m].a0, count = new_side ? v[m].nb : v[m].na;
    long other = new_side ? v[m].na : v[m].nb;
    for (; i < first; i++) print_line(ctx, "  ", f, i);
    for (long x = 0; x < count; x++) print_line(ctx, other ? "! " : new_side ? "+ " : "- ", f, i++);
  }
  for (; i < hi; i++) print_line(ctx, "  ", f, i);
}

static void print_context(cmd_ctx *ctx, diff_file *a, diff_file *b, change *v, size_t n,
                          diff_opts *o) {
  size_t next = 0;
  for (hunk h; hunk_next(v, n, &next, o, a, b, &h);) {
    bool any_a = false, any_b = false;
    for (size_t m = h.k; m <= h.last; m++) any_a |= v[m].na > 0, any_b |= v[m].nb > 0;
    cmd_outs(ctx, "***************");
    print_function(ctx, o, a, h.a_lo);
    cmd_outs(ctx, "\n*** ");
    range(ctx, h.a_lo + 1, h.a_hi - h.a_lo, ',');
    cmd_outs(ctx, " ****\n");
    if (any_a) print_context_side(ctx, a, v, h.k, h.last, h.a_lo, h.a_hi, false);
    cmd_outs(ctx, "--- ");
    range(ctx, h.b_lo + 1, h.b_hi - h.b_lo, ',');
    cmd_outs(ctx, " ----\n");
    if (any_b) print_context_side(ctx, b, v, h.k, h.last, h.b_lo, h.b_hi, true);
  }
}

static void file_free(diff_file *f) {
  free(f->data);
  free(f->line);
  free(f->linelen);
  free(f->eq);
  free(f->changed_mem);
}

/* Lines equal byte for byte, newline included: GNU finds the identical
 * prefix and suffix on the raw bytes, before -i / -w / -b apply. */
static bool same_raw(diff_file *a, long i, diff_file *b, long j) {
  bool nl_a = !(a->missing_newline && i == (long)a->nlines - 1);
  bool nl_b = !(b->missing_newline && j == (long)b->nlines - 1);
  return nl_a == nl_b && a->linelen[i] == b->linelen[j] &&
         memcmp(a->line[i], b->line[j], a->linelen[i]) == 0;
}

/* Compares two regular files. Returns 0 same, 1 different, 2 trouble. */
static int diff_files(cmd_ctx *ctx, diff_opts *o, const char *p1, const char *p2,
                      const char *n1, const char *n2, bool show_cmd, bool absent1, bool absent2) {
  diff_file f[2] = {{0}};
  const char *paths[2] = {p1, p2};
  f[0].name = n1, f[1].name = n2;
  f[0].absent = absent1, f[1].absent = absent2;
  int status = 0;
  for (int k = 0; k < 2; k++) {
    if (!f[k].absent && strcmp(paths[k], "-") != 0 && strcmp(paths[k], "/dev/null") != 0)
      cmd_fs_stat(ctx, paths[k], &f[k].st);
    int rc = read_file(ctx, &f[k], paths[k]);
    f[k].initial_tab = o->initial_tab;
    if (rc < 0) {
      cmd_record_error(ctx, rc, paths[k]);
      cmd_errorf(ctx, "%s: %s", f[k].name, cmd_strerror(rc));
      status = 2;
      goto out;
    }
  }
  bool same_bytes = f[0].len == f[1].len && memcmp(f[0].data, f[1].data, f[0].len) == 0;
  /* formats and -y print the common lines too */
  if (same_bytes && o->format != F_FORMAT && o->format != F_SIDE) goto out;
  bool binary = !o->text && (memchr(f[0].data, 0, f[0].len < 32768 ? f[0].len : 32768) ||
                             memchr(f[1].data, 0, f[1].len < 32768 ? f[1].len : 32768));
  if (binary || o->format == F_BRIEF) {
    /* -q with -i/-w could still find the files equal; GNU compares then too. */
    if (binary ||
        !(o->icase || o->ign_all_space || o->ign_space_change || o->ign_trailing || o->ign_blank ||
          o->nign)) {
      if (show_cmd && !binary && o->format != F_BRIEF) cmd_outf(ctx, "diff%s %s %s\n", o->optstr, n1, n2);
      cmd_outf(ctx, binary ? "Binary files %s and %s differ\n" : "Files %s and %s differ\n", n1, n2);
      status = 1;
      goto out;
    }
  }
  if (split_lines(&f[0], o->strip_cr) < 0 || split_lines(&f[1], o->strip_cr) < 0) {
    cmd_errorf(ctx, "memory exhausted");
    status = 2;
    goto out;
  }
  eq_table t = {0};
  t.nbuckets = (f[0].nlines + f[1].nlines) * 2 + 64;
  t.bucket = calloc(t.nbuckets, sizeof *t.bucket);
  size_t maxlen = 1;
  for (int k = 0; k < 2; k++)
    for (size_t i = 0; i < f[k].nlines; i++)
      if (f[k].linelen[i] + 1 > maxlen) maxlen = f[k].linelen[i] + 1;
  char *scratch = malloc(maxlen * 2);
  int rc = t.bucket && scratch ? 0 : -ENOMEM;
  if (rc == 0) rc = classify(o, &t, &f[0], scratch);
  if (rc == 0) rc = classify(o, &t, &f[1], scratch);
  free(scratch);
  for (size_t i = 0; t.bucket && i < t.nbuckets; i++) {
    for (eq_entry *e = t.bucket[i], *nx; e; e = nx) {
      nx = e->next;
      free(e->text);
      free(e);
    }
  }
  free(t.bucket);
  /* The identical prefix and suffix are set aside first, as GNU does, keeping
   * "horizon" lines of them (the context size) in the region; the search and
   * the sliding of runs only see the lines in between. */
  long lo = 0, ahi = (long)f[0].nlines, bhi = (long)f[1].nlines;
  while (lo < ahi && lo < bhi && same_raw(&f[0], lo, &f[1], lo)) lo++;
  while (ahi > lo && bhi > lo && same_raw(&f[0], ahi - 1, &f[1], bhi - 1)) ahi--, bhi--;
  long horizon = o->format == F_UNIFIED || o->format == F_CONTEXT ? o->context : 0;
  long back = lo < horizon ? lo : horizon;
  long fwd = (long)f[0].nlines - ahi < horizon ? (long)f[0].nlines - ahi : horizon;
  lo -= back, ahi += fwd, bhi += fwd;
  if (rc < 0 || !search_region(ctx, &f[0], &f[1], lo, ahi, lo, bhi, 2 * t.next_id + 2)) {
    if (rc < 0) cmd_errorf(ctx, "memory exhausted");
    status = 2;
    goto out;
  }
  shift_boundaries(&f[0], &f[1], lo, ahi, lo);
  shift_boundaries(&f[1], &f[0], lo, bhi, lo);
  size_t n;
  change *v = collect(&f[0], &f[1], &n);
  size_t real = 0;
  for (size_t k = 0; v && k < n; k++)
    if (!ignorable(o, &f[0], &f[1], &v[k])) real++;
  if (v && (o->format == F_FORMAT || o->format == F_SIDE)) {
    if (show_cmd && real) cmd_outf(ctx, "diff%s %s %s\n", o->optstr, n1, n2);
    if (o->format == F_SIDE) print_side(ctx, &f[0], &f[1], v, n, o);
    else print_formats(ctx, &f[0], &f[1], v, n, o);
    status = real ? 1 : 0;
  } else if (real) {
    status = 1;
    if (o->format == F_BRIEF) {
      cmd_outf(ctx, "Files %s and %s differ\n", n1, n2);
    } else {
      if (show_cmd) /* GNU shows the labels, when given, in place of the names */
        cmd_outf(ctx, "diff%s %s %s\n", o->optstr, o->nlabels > 0 ? o->label[0] : n1,
                 o->nlabels > 1 ? o->label[1] : n2);
      o->func_search = 0, o->func_match = -1;
      if (o->format == F_NORMAL) print_normal(ctx, &f[0], &f[1], v, n, o);
      else {
        print_headers(ctx, &f[0], &f[1], o);
        if (o->format == F_UNIFIED) print_unified(ctx, &f[0], &f[1], v, n, o);
        else print_context(ctx, &f[0], &f[1], v, n, o);
      }
    }
  }
  free(v);
out:
  file_free(&f[0]);
  file_free(&f[1]);
  return status;
}

/* ---- directories ------------------------------------------------------------------------ */

static int diff_paths(cmd_ctx *ctx, diff_opts *o, const char *p1, const char *p2, int depth,
                      bool top);

static int diff_dirs(cmd_ctx *ctx, diff_opts *o, const char *d1, const char *d2, int depth) {
  if (depth > DIFF_MAX_DEPTH) {
    cmd_errorf(ctx, "%s: directory nesting too deep", d1);
    return 2;
  }
  char **v1 = NULL, **v2 = NULL;
  int n1 = cmd_fs_listdir(ctx, d1, &v1), n2 = cmd_fs_listdir(ctx, d2, &v2);
  int status = 0;
  if (n1 < 0 || n2 < 0) {
    cmd_errorf(ctx, "%s: %s", n1 < 0 ? d1 : d2, cmd_strerror(n1 < 0 ? n1 : n2));
    status = 2;
  }
  int i = 0, j = 0;
  while (status != 2 && (i < n1 || j < n2) && !cmd_poll(ctx)) {
    int c = i >= n1 ? 1 : j >= n2 ? -1 : strcmp(v1[i], v2[j]);
    const char *name = c <= 0 ? v1[i] : v2[j];
    char *a = cmd_join_path(ctx, d1, name), *b = cmd_join_path(ctx, d2, name);
    int st = 0;
    if (c != 0 && !o->new_file) {
      cmd_outf(ctx, "Only in %s: %s\n", c < 0 ? d1 : d2, name);
      st = 1;
    } else if (c != 0) {
      store_stat s;
      store_path_stat(ctx->store, ctx->cwd, c < 0 ? a : b, &s);
      if (S_ISDIR(s.mode)) {
        cmd_outf(ctx, "Only in %s: %s\n", c < 0 ? d1 : d2, name);
        st = 1;
      } else {
        st = diff_files(ctx, o, a, b, a, b, true, c > 0, c < 0);
      }
    } else {
      store_stat s1, s2;
      store_path_stat(ctx->store, ctx->cwd, a, &s1);
      store_path_stat(ctx->store, ctx->cwd, b, &s2);
      if (S_ISDIR(s1.mode) && S_ISDIR(s2.mode)) {
        if (o->recursive) st = diff_dirs(ctx, o, a, b, depth + 1);
        else cmd_outf(ctx, "Common subdirectories: %s and %s\n", a, b);
      } else if (S_ISDIR(s1.mode) != S_ISDIR(s2.mode)) {
        cmd_outf(ctx, "File %s is a %s while file %s is a %s\n", a,
                 S_ISDIR(s1.mode) ? "directory" : "regular file", b,
                 S_ISDIR(s2.mode) ? "directory" : "regular file");
        st = 1;
      } else {
        st = diff_files(ctx, o, a, b, a, b, true, false, false);
      }
    }
    if (st > status) status = st;
    if (c <= 0) i++;
    if (c >= 0) j++;
  }
  return status;
}

static int diff_paths(cmd_ctx *ctx, diff_opts *o, const char *p1, const char *p2, int depth,
                      bool top) {
  store_stat s1, s2;
  bool std1 = strcmp(p1, "-") == 0, std2 = strcmp(p2, "-") == 0;
  /* "-" and /dev/null are read through the command's I/O, not the store:
   * regular files as far as diff is concerned (/dev/null an empty one). */
  std1 = std1 || strcmp(p1, "/dev/null") == 0;
  std2 = std2 || strcmp(p2, "/dev/null") == 0;
  int rc1 = std1 ? 0 : cmd_fs_stat(ctx, p1, &s1);
  int rc2 = std2 ? 0 : cmd_fs_stat(ctx, p2, &s2);
  if (std1) memset(&s1, 0, sizeof s1), s1.mode = S_IFREG;
  if (std2) memset(&s2, 0, sizeof s2), s2.mode = S_IFREG;
  if ((rc1 < 0 && !(o->new_file && rc1 == -ENOENT && rc2 == 0)) ||
      (rc2 < 0 && !(o->new_file && rc2 == -ENOENT && rc1 == 0))) {
    const char *bad = rc1 < 0 ? p1 : p2;
    int err = rc1 < 0 ? rc1 : rc2;
    cmd_record_error(ctx, err, bad);
    cmd_errorf(ctx, "%s: %s", bad, cmd_strerror(err));
    return 2;
  }
  if (rc1 == 0 && rc2 == 0 && S_ISDIR(s1.mode) && S_ISDIR(s2.mode))
    return diff_dirs(ctx, o, p1, p2, depth);
  if (rc1 == 0 && rc2 == 0 && S_ISDIR(s1.mode) != S_ISDIR(s2.mode)) {
    /* diff FILE DIR compares FILE with DIR/basename(FILE) */
    const char *file = S_ISDIR(s1.mode) ? p2 : p1, *dir = S_ISDIR(s1.mode) ? p1 : p2;
    if (strcmp(file, "-") == 0) {
      cmd_errorf(ctx, "cannot compare '-' to a directory");
      return 2;
    }
    const char *base = strrchr(file, '/');
    char *inside = cmd_join_path(ctx, dir, base ? base + 1 : file);
    return S_ISDIR(s1.mode) ? diff_paths(ctx, o, inside, p2, depth, false)
                            : diff_paths(ctx, o, p1, inside, depth, false);
  }
  return diff_files(ctx, o, p1, p2, p1, p2, false, rc1 < 0, rc2 < 0);
}

static const char diff_usage[] =
    "Usage: diff [OPTION]... FILES\n"
    "Compare FILES line by line.\n\n"
    "      --normal                  output a normal diff (the default)\n"
    "  -q, --brief                   report only when files differ\n"
    "  -s, --report-identical-files  report when two files are the same\n"
    "  -c, -C NUM, --context[=NUM]   output NUM (default 3) lines of copied context\n"
    "  -u, -U NUM, --unified[=NUM]   output NUM (default 3) lines of unified context\n"
    "  -r, --recursive               recursively compare any subdirectories found\n"
    "  -N, --new-file                treat absent files as empty\n"
    "  -i, --ignore-case             ignore case differences in file contents\n"
    "  -b, --ignore-space-change     ignore changes in the amount of white space\n"
    "  -w, --ignore-all-space        ignore all white space\n"
    "  -B, --ignore-blank-lines      ignore changes where lines are all blank\n"
    "  -I, --ignore-matching-lines=RE  ignore changes where all lines match RE\n"
    "      --strip-trailing-cr       strip trailing carriage return on input\n"
    "  -a, --text                    treat all files as text\n"
    "  -L, --label LABEL             use LABEL instead of file name and timestamp\n"
    "  -y, --side-by-side            output in two columns\n"
    "  -W, --width=NUM               output at most NUM (default 130) print columns\n"
    "      --left-column             output only the left column of common lines\n"
    "      --suppress-common-lines   do not output common lines\n"
    "  -t, --expand-tabs             expand tabs to spaces in output\n"
    "  -p, --show-c-function         show which C function each change is in\n"
    "  -F, --show-function-line=RE   show the most recent line matching RE\n"
    "  -D, --ifdef=NAME              output merged file with '#ifdef NAME' diffs\n"
    "      --GTYPE-group-format=GFMT  format GTYPE input groups with GFMT\n"
    "      --line-format=LFMT        format all input lines with LFMT\n"
    "      --LTYPE-line-format=LFMT  format LTYPE input lines with LFMT\n\n"
    "Exit status is 0 if inputs are the same, 1 if different, 2 if trouble.\n";

int cmd_diff_main(cmd_ctx *ctx, int argc, char **argv) {
  enum { O_NORMAL = CMD_OPT_LONG, O_STRIP_TRAILING_CR, O_COLOR, O_LINE, O_LOLD, O_LNEW,
         O_LUNCH, O_GOLD, O_GNEW, O_GCHG, O_GUNCH, O_SUPPRESS_COMMON, O_LEFT_COLUMN };
  static const char spec[] =
      "(normal)(strip-trailing-cr)(help)(version)(color)::(line-format):"
      "(old-line-format):(new-line-format):(unchanged-line-format):(old-group-format):"
      "(new-group-format):(changed-group-format):(unchanged-group-format):"
      "(suppress-common-lines)(left-column)uU:cC:q(brief)i(ignore-case)"
      "w(ignore-all-space)Z(ignore-trailing-space)T(initial-tab)b(ignore-space-change)"
      "B(ignore-blank-lines)a(text)N(new-file)r(recursive)L:(label)"
      "s(report-identical-files)d(minimal)p(show-c-function)F:(show-function-line)"
      "D:(ifdef)y(side-by-side)W:(width)t(expand-tabs)I:(ignore-matching-lines)"
      "0123456789";
  /* --unified and --context take an optional argument where -u and -c take none. */
  static const cmd_longopt longs[] = {
      {"unified", 2, 'u'}, {"context", 2, 'c'}, {0, 0, 0}};
  diff_opts o = {.format = F_NORMAL, .context = 3, .width = 130};
  bool format_set = false, func_c = false;
  int status = 2;
  /* The options as given, for "diff -r a/x b/x" lines in directory mode. */
  size_t olen = 1;
  for (int i = 1; i < argc; i++) olen += strlen(argv[i]) + 1;
  char *optstr = cmd_alloc(ctx, olen + 1);
  o.optstr = optstr;
  cmd_getopt_state st = CMD_GETOPT_INIT;
  int c;
  /* The formats, -F/-I/-L (which add up) and the widths, in the order given. */
  while ((c = cmd_getopt(ctx, &st, argc, argv, spec, longs)) != -1) {
    switch (c) {
      case 'u': case 'U': case 'c': case 'C': {
        o.format = (c == 'u' || c == 'U') ? F_UNIFIED : F_CONTEXT;
        format_set = true;
        if (st.arg) {
          char *end;
          long n = strtol(st.arg, &end, 10);
          if (*end || n < 0 || n > 1000000) {
            cmd_errorf(ctx, "invalid context length '%s'", st.arg);
            cmd_errorf(ctx, "Try 'diff --help' for more information.");
            goto done;
          }
          o.context = (int)n;
        }
        break;
      }
      case 'q': o.format = F_BRIEF; format_set = true; break;
      case 'p': case 'F': {
        /* -p is -F with GNU's C function pattern, and asks for -c output */
        const char *pat = c == 'p' ? "^[[:alpha:]$_]" : st.arg;
        if (c == 'p') func_c = true;
        if (o.nfunc == DIFF_MAX_FUNC_RE) {
          cmd_errorf(ctx, "too many -F expressions (limit %d)", DIFF_MAX_FUNC_RE);
          goto done;
        }
        re_err err = {0};
        if (re_compile(&o.func_re[o.nfunc], pat, strlen(pat), RE_NOSUB, &err) != 0) {
          cmd_errorf(ctx, "%s: %s", pat, err.msg);
          goto done;
        }
        o.nfunc++;
        break;
      }
      case 'I': {
        if (o.nign == DIFF_MAX_FUNC_RE) {
          cmd_errorf(ctx, "too many -I expressions (limit %d)", DIFF_MAX_FUNC_RE);
          goto done;
        }
        re_err err = {0};
        if (re_compile(&o.ign_re[o.nign], st.arg, strlen(st.arg), RE_NOSUB, &err) != 0) {
          cmd_errorf(ctx, "%s: %s", st.arg, err.msg);
          goto done;
        }
        o.nign++;
        break;
      }
      case 'D': {
        /* -D NAME: C preprocessor output, through the group formats */
        size_t n = strlen(st.arg) * 4 + 128;
        char *g0 = cmd_alloc(ctx, n), *g1 = cmd_alloc(ctx, n), *g2 = cmd_alloc(ctx, n);
        snprintf(g0, n, "#ifndef %s\n%%<#endif /* ! %s */\n", st.arg, st.arg);
        snprintf(g1, n, "#ifdef %s\n%%>#endif /* %s */\n", st.arg, st.arg);
        snprintf(g2, n, "#ifndef %s\n%%<#else /* %s */\n%%>#endif /* %s */\n", st.arg,
                 st.arg, st.arg);
        o.gfmt[G_OLD] = g0, o.gfmt[G_NEW] = g1, o.gfmt[G_CHANGED] = g2;
        o.format = F_FORMAT;
        format_set = true;
        break;
      }
      case O_LINE: o.lfmt[L_OLD] = o.lfmt[L_NEW] = o.lfmt[L_UNCHANGED] = st.arg; goto fmt;
      case O_LOLD: o.lfmt[L_OLD] = st.arg; goto fmt;
      case O_LNEW: o.lfmt[L_NEW] = st.arg; goto fmt;
      case O_LUNCH: o.lfmt[L_UNCHANGED] = st.arg; goto fmt;
      case O_GOLD: o.gfmt[G_OLD] = st.arg; goto fmt;
      case O_GNEW: o.gfmt[G_NEW] = st.arg; goto fmt;
      case O_GCHG: o.gfmt[G_CHANGED] = st.arg; goto fmt;
      case O_GUNCH: o.gfmt[G_UNCHANGED] = st.arg;
      fmt:
        o.format = F_FORMAT;
        format_set = true;
        break;
      case 'y': o.format = F_SIDE; format_set = true; break;
      case 'W': {
        char *end;
        long w = strtol(st.arg, &end, 10);
        if (*end || w <= 0 || w > 100000) {
          cmd_errorf(ctx, "invalid width '%s'", st.arg);
          cmd_errorf(ctx, "Try 'diff --help' for more information.");
          goto done;
        }
        o.width = w;
        break;
      }
      case 'L':
        if (o.nlabels < 2) o.label[o.nlabels++] = st.arg;
        break;
      case O_NORMAL: o.format = F_NORMAL; break;
      case CMD_OPT_HELP:
        status = cmd_print_help(ctx, diff_usage);
        goto done;
      case CMD_OPT_VERSION: status = cmd_print_version(ctx); goto done;
      case '?': goto done;
      default:
        if (c >= '0' && c <= '9') {
          /* -NUM digits accumulate; saturate like -U's bound (no int overflow) */
          o.context = o.context >= 100000 ? 1000000 : o.context * 10 + (c - '0');
        }
        break;
    }
  }
  o.icase = cmd_opt_on(&st, 'i');
  o.ign_all_space = cmd_opt_on(&st, 'w');
  o.ign_space_change = cmd_opt_on(&st, 'b');
  o.ign_trailing = cmd_opt_on(&st, 'Z');
  o.initial_tab = cmd_opt_on(&st, 'T');
  o.ign_blank = cmd_opt_on(&st, 'B');
  o.text = cmd_opt_on(&st, 'a');
  o.new_file = cmd_opt_on(&st, 'N');
  o.recursive = cmd_opt_on(&st, 'r');
  o.expand_tabs = cmd_opt_on(&st, 't');
  o.strip_cr = cmd_opt_on(&st, O_STRIP_TRAILING_CR);
  o.suppress_common = cmd_opt_on(&st, O_SUPPRESS_COMMON);
  o.left_column = cmd_opt_on(&st, O_LEFT_COLUMN);
  bool report_same = cmd_opt_on(&st, 's');
  if (func_c && !format_set) o.format = F_CONTEXT;
  /* Rebuild the option words (before the operands) for directory headers. */
  size_t k = 0;
  for (int i = 1; i < st.ind; i++) k += (size_t)sprintf(optstr + k, " %s", argv[i]);
  optstr[k] = '\0';
  if (argc - st.ind != 2) {
    if (argc - st.ind < 2)
      cmd_errorf(ctx, "missing operand after '%s'", argv[argc - 1]);
    else
      cmd_errorf(ctx, "extra operand '%s'", argv[st.ind + 2]);
    cmd_errorf(ctx, "Try 'diff --help' for more information."); /* GNU diff prefixes it */
    goto done;
  }
  status = diff_paths(ctx, &o, argv[st.ind], argv[st.ind + 1], 0, true);
  if (status == 0 && report_same)
    cmd_outf(ctx, "Files %s and %s are identical\n", argv[st.ind], argv[st.ind + 1]);
done:
  for (int i = 0; i < o.nfunc; i++) re_free(o.func_re[i]);
  for (int i = 0; i < o.nign; i++) re_free(o.ign_re[i]);
  return status;
}
