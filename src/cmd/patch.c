/*
 * patch - apply a diff to files (GNU patch 2.7).
 *
 *   patch [-p N] [-R] [-N] [-i PATCHFILE] [-o OUTFILE] [-d DIR] [-F N] [-s] [-f] [-t]
 *         [-b] [-E] [--dry-run] [--no-backup-if-mismatch] [ORIGFILE [PATCHFILE]]
 *
 * Reads unified, context and normal diffs (several files per patch; leading
 * garbage such as "diff --git" or "Index:" lines is skipped). Every hunk is
 * turned into two line lists, the old side (context and removed lines) and
 * the new side (context and added lines), and placed by searching for the
 * old side near where the hunk says, then further away, then with fuzz (up
 * to -F, default 2, context lines dropped from the ends). Messages are GNU's
 * ("Hunk #2 succeeded at 14 (offset 3 lines).", "Hunk #1 FAILED at 2.",
 * "1 out of 1 hunk FAILED -- saving rejects to file a.rej"); a file whose
 * first hunk only applies in reverse is reported as "Reversed (or previously
 * applied) patch detected!" and skipped (there is no terminal to ask), or
 * reversed with -R. A mismatching file keeps FILE.orig, as GNU's default
 * --backup-if-mismatch does. Each file is written whole (atomically, through
 * the store) only after all its hunks are placed. Exit 0, 1 (hunks failed)
 * or 2 (trouble).
 */
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/cmd.h"
#include "cmd/lib/buf.h"
#include "cmd/lib/gnu.h"

CMD_DEFINE("patch", cmd_patch_main);

static const char patch_usage[] =
    "Usage: patch [OPTION]... [ORIGFILE [PATCHFILE]]\n\n"
    "  -p NUM  --strip=NUM  Strip NUM leading components from file names.\n"
    "  -F LINES  --fuzz LINES  Set the fuzz factor to LINES for inexact matching.\n"
    "  -N  --forward  Ignore patches that appear to be reversed or already applied.\n"
    "  -R  --reverse  Assume patches were created with old and new files swapped.\n"
    "  -i PATCHFILE  --input=PATCHFILE  Read patch from PATCHFILE instead of stdin.\n"
    "  -o FILE  --output=FILE  Output patched files to FILE.\n"
    "  -d DIR  --directory=DIR  Change the working directory to DIR first.\n"
    "  -b  --backup  Back up the original contents of each file.\n"
    "  -E  --remove-empty-files  Remove output files that are empty after patching.\n"
    "  -s  --quiet  --silent  Work silently unless an error occurs.\n"
    "  --dry-run  Do not actually change any files; just print what would happen.\n"
    "  --no-backup-if-mismatch  Back up mismatches only if otherwise requested.\n";

/* A line of a file or a hunk (points into a buffer; no trailing '\n'). */
typedef struct pline {
  const char *s;
  size_t n;
  bool nonl; /* "\ No newline at end of file" followed it */
} pline;

typedef struct lines {
  pline *v;
  size_t n, cap;
} lines;

static int push(lines *l, const char *s, size_t n) {
  if (cmd_grow(&l->v, &l->cap, l->n + 1, sizeof *l->v)) return -ENOMEM;
  l->v[l->n++] = (pline){s, n, false};
  return 0;
}

typedef struct hunk {
  long old_start;   /* 1-based line of the old side (0 for an empty old side) */
  long new_start;
  lines old, new;   /* both sides */
  long pre, post;   /* leading / trailing context lines (for fuzz) */
  const char *text; /* the hunk's text in the patch, for .rej */
  size_t textlen;
} hunk;

typedef struct filepatch {
  char *old_name, *new_name; /* as in the headers (NULL for normal diffs) */
  const char *header;        /* the "---"/"+++" (or "***") lines, for .rej */
  size_t headerlen;
  hunk *h;
  size_t nh, caph;
  long header_line;          /* line of the patch where it starts */
} filepatch;

typedef struct patch_opts {
  long strip;        /* -p, or -1 when not given */
  bool reverse, forward, dry_run, silent, force, batch, remove_empty, backup;
  bool backup_mismatch;
  int fuzz;
  const char *outfile;
  const char *dir;
  const char *reject_file; /* -r: every reject goes there ("-": nowhere), or NULL */
  bool reject_written;     /* -r's file was started by this run (later rejects append) */
  int status;
} patch_opts;

/* ---- parsing ------------------------------------------------------------------------ */

static bool starts(const char *s, size_t n, const char *p) {
  size_t k = strlen(p);
  return n >= k && memcmp(s, p, k) == 0;
}

/* The file name of a "--- NAME\tDATE" header line (malloc'd). */
static char *header_name(const char *s, size_t n) {
  size_t i = 4;
  while (i < n && (s[i] == ' ')) i++;
  size_t j = i;
  if (j < n && s[j] == '"') { /* quoted names */
    j++;
    i = j;
    while (j < n && s[j] != '"') j++;
  } else {
    while (j < n && s[j] != '\t') j++;
    /* a date after spaces: "--- a 2020-01-01 ..." is rare; keep everything up to a tab */
    while (j > i && s[j - 1] == ' ') j--;
  }
  return strndup(s + i, j - i);
}

typedef struct reader {
  const char *data;
  size_t len, pos;
  long lineno;
  const char *line;      /* the line being parsed (for messages) */
  size_t linelen;
  const char *too_large; /* a line number that does not fit a long, or NULL */
  size_t too_large_len;
} reader;

/* A decimal line number. One too large for a long is recorded in r (GNU
 * patch: "line number N is too large") and read as LONG_MAX. */
static long parse_num(reader *r, const char **p, const char *end) {
  long v = 0;
  const char *digits = *p;
  bool over = false;
  for (; *p < end && **p >= '0' && **p <= '9'; (*p)++)
    over = over || __builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, **p - '0', &v);
  if (over && !r->too_large) r->too_large = digits, r->too_large_len = (size_t)(*p - digits);
  return over ? LONG_MAX : v;
}

/* A hunk whose numbers overflow once added up (GNU patch's bounds on a
 * start line and a line count): "malformed patch at line N". */
static bool bad_range(long start, long count) {
  return start < 0 || count < 0 || count >= LONG_MAX - 6 || start >= LONG_MAX - count;
}

/* a + b clamped to the range of long (positions far outside the file). */
static long add_clamped(long a, long b) {
  long sum;
  if (!__builtin_add_overflow(a, b, &sum)) return sum;
  return b > 0 ? LONG_MAX : LONG_MIN;
}

static bool next_line(reader *r, const char **s, size_t *n) {
  if (r->pos >= r->len) return false;
  const char *p = r->data + r->pos;
  const char *nl = memchr(p, '\n', r->len - r->pos);
  *s = p;
  *n = nl ? (size_t)(nl - p) : r->len - r->pos;
  r->pos += *n + (nl ? 1 : 0);
  r->lineno++;
  r->line = *s, r->linelen = *n;
  return true;
}

static bool peek_line(reader *r, const char **s, size_t *n) {
  reader copy = *r;
  return next_line(&copy, s, n);
}

static hunk *new_hunk(filepatch *fp) {
  if (cmd_grow(&fp->h, &fp->caph, fp->nh + 1, sizeof *fp->h)) return NULL;
  hunk *h = &fp->h[fp->nh++];
  memset(h, 0, sizeof *h);
  return h;
}

static void mark_nonl(lines *l) {
  if (l->n) l->v[l->n - 1].nonl = true;
}

/* Unified hunk starting at "@@ -a,b +c,d @@". */
static int parse_unified(reader *r, const char *s, size_t n, filepatch *fp) {
  const char *p = s + 4, *end = s + n;
  hunk *h = new_hunk(fp);
  if (!h) return -ENOMEM;
  h->text = s;
  long oc = 1, nc = 1;
  h->old_start = parse_num(r, &p, end);
  if (p < end && *p == ',') p++, oc = parse_num(r, &p, end);
  while (p < end && *p == ' ') p++;
  if (p < end && *p == '+') p++;
  h->new_start = parse_num(r, &p, end);
  if (p < end && *p == ',') p++, nc = parse_num(r, &p, end);
  if (r->too_large || bad_range(h->old_start, oc) || bad_range(h->new_start, nc)) return -EINVAL;
  bool seen_change = false;
  long trailing = 0;
  char last = 0;
  while ((oc > 0 || nc > 0) && next_line(r, &s, &n)) {
    char c = n ? s[0] : ' '; /* an empty line is an empty context line */
    const char *t = n ? s + 1 : s;
    size_t tn = n ? n - 1 : 0;
    if (c == '\\') {
      if (last == '-' || last == ' ') mark_nonl(&h->old);
      if (last == '+' || last == ' ') mark_nonl(&h->new);
      continue;
    }
    if (c == ' ') {
      push(&h->old, t, tn);
      push(&h->new, t, tn);
      oc--, nc--;
      if (!seen_change) h->pre++;
      else trailing++;
    } else if (c == '-') {
      push(&h->old, t, tn);
      oc--;
      seen_change = true;
      trailing = 0;
    } else if (c == '+') {
      push(&h->new, t, tn);
      nc--;
      seen_change = true;
      trailing = 0;
    } else {
      return -EINVAL;
    }
    last = c;
  }
  /* a "\ No newline" right after the last line */
  const char *q;
  size_t qn;
  if (peek_line(r, &q, &qn) && qn && q[0] == '\\') {
    next_line(r, &q, &qn);
    if (last == '-' || last == ' ') mark_nonl(&h->old);
    if (last == '+' || last == ' ') mark_nonl(&h->new);
  }
  h->post = trailing;
  h->textlen = (size_t)(r->data + r->pos - h->text);
  return oc > 0 || nc > 0 ? -EINVAL : 0;
}

/* One line of a context hunk's old or new section: its text into `sec`, its
 * mark (' ' '-' '+' '!') appended to the *nk marks of *kind; "\ No newline"
 * marks the line before it. -1 when out of memory. */
static int context_line(lines *sec, char **kind, size_t *nk, const char *s, size_t n) {
  if (n && s[0] == '\\') {
    mark_nonl(sec);
    return 0;
  }
  if (n < 2) n = 2, s = "  ";
  char *grown = realloc(*kind, *nk + 1);
  if (!grown) return -1;
  *kind = grown;
  (*kind)[(*nk)++] = s[0];
  return push(sec, s + 2, n - 2);
}

/* Context hunk after "***************". */
static int parse_context(reader *r, filepatch *fp) {
  const char *s;
  size_t n;
  hunk *h = new_hunk(fp);
  if (!h) return -ENOMEM;
  h->text = r->data + r->pos;
  if (!next_line(r, &s, &n) || !starts(s, n, "*** ")) return -EINVAL;
  const char *p = s + 4, *end = s + n;
  long o1 = parse_num(r, &p, end), o2 = o1;
  if (p < end && *p == ',') p++, o2 = parse_num(r, &p, end);
  if (r->too_large || bad_range(o1, 0) || bad_range(o2, 0)) return -EINVAL;
  h->old_start = o1;
  lines oldsec = {0}, newsec = {0};
  char *oldkind = NULL, *newkind = NULL;
  size_t ok = 0, nk = 0;
  long oldcount = o1 == 0 && o2 == 0 ? 0 : o2 - o1 + 1;
  /* old section (may be absent when it has only context) */
  while (peek_line(r, &s, &n) && !starts(s, n, "--- ")) {
    next_line(r, &s, &n);
    if (context_line(&oldsec, &oldkind, &ok, s, n) < 0) goto bad;
  }
  if (!next_line(r, &s, &n)) goto bad;
  p = s + 4, end = s + n;
  long n1 = parse_num(r, &p, end), n2 = n1;
  if (p < end && *p == ',') p++, n2 = parse_num(r, &p, end);
  if (r->too_large || bad_range(n1, 0) || bad_range(n2, 0)) goto bad;
  h->new_start = n1;
  long newcount = n1 == 0 && n2 == 0 ? 0 : n2 - n1 + 1;
  while ((long)newsec.n < newcount && peek_line(r, &s, &n) && !starts(s, n, "***************") &&
         !starts(s, n, "--- ") && !starts(s, n, "*** ")) {
    next_line(r, &s, &n);
    if (context_line(&newsec, &newkind, &nk, s, n) < 0) goto bad;
  }
  if (peek_line(r, &s, &n) && n && s[0] == '\\') {
    next_line(r, &s, &n);
    mark_nonl(&newsec);
  }
  /* A side that was left out is the other side's context. */
  if (oldsec.n == 0 && oldcount > 0) {
    for (size_t i = 0; i < newsec.n; i++)
      if (newkind[i] == ' ') push(&h->old, newsec.v[i].s, newsec.v[i].n);
  } else {
    h->old = oldsec, oldsec = (lines){0};
  }
  if (newsec.n == 0 && newcount > 0) {
    for (size_t i = 0; i < h->old.n; i++)
      if (oldkind && oldkind[i] == ' ') push(&h->new, h->old.v[i].s, h->old.v[i].n);
  } else {
    h->new = newsec, newsec = (lines){0};
  }
  /* context counts for fuzz: leading/trailing ' ' lines of the old side */
  const char *kinds = oldkind ? oldkind : newkind;
  size_t kn = oldkind ? ok : nk;
  for (size_t i = 0; i < kn && kinds[i] == ' '; i++) h->pre++;
  for (size_t i = kn; i > 0 && kinds[i - 1] == ' '; i--) h->post++;
  if ((long)kn == 0) h->pre = h->post = 0;
  free(oldsec.v);
  free(newsec.v);
  free(oldkind);
  free(newkind);
  h->textlen = (size_t)(r->data + r->pos - h->text);
  return 0;
bad:
  free(oldsec.v);
  free(newsec.v);
  free(oldkind);
  free(newkind);
  return -EINVAL;
}

/* Normal hunk "2c2", "4d3", "5a5". */
static int parse_normal(reader *r, const char *s, size_t n, filepatch *fp) {
  const char *p = s, *end = s + n;
  hunk *h = new_hunk(fp);
  if (!h) return -ENOMEM;
  h->text = s;
  long a1 = parse_num(r, &p, end), a2 = a1;
  if (p < end && *p == ',') p++, a2 = parse_num(r, &p, end);
  char op = p < end ? *p++ : 0;
  long b1 = parse_num(r, &p, end);
  if (r->too_large || bad_range(a1, 0) || bad_range(a2, 0) || bad_range(b1, 0)) return -EINVAL;
  (void)b1;
  long na = op == 'a' ? 0 : a2 - a1 + 1;
  h->old_start = a1; /* for "a": the line after which to insert */
  h->new_start = b1;
  for (long i = 0; i < na; i++) {
    if (!next_line(r, &s, &n) || !starts(s, n, "< ")) return -EINVAL;
    push(&h->old, s + 2, n - 2);
  }
  if (peek_line(r, &s, &n) && n && s[0] == '\\') next_line(r, &s, &n), mark_nonl(&h->old);
  if (op == 'c' && (!next_line(r, &s, &n) || !starts(s, n, "---"))) return -EINVAL;
  while (op != 'd' && peek_line(r, &s, &n) && starts(s, n, "> ")) {
    next_line(r, &s, &n);
    push(&h->new, s + 2, n - 2);
  }
  if (peek_line(r, &s, &n) && n && s[0] == '\\') next_line(r, &s, &n), mark_nonl(&h->new);
  h->textlen = (size_t)(r->data + r->pos - h->text);
  return 0;
}

static bool is_normal_cmd(const char *s, size_t n) {
  size_t i = 0;
  if (i >= n || s[i] < '0' || s[i] > '9') return false;
  while (i < n && ((s[i] >= '0' && s[i] <= '9') || s[i] == ',')) i++;
  if (i >= n || (s[i] != 'a' && s[i] != 'c' && s[i] != 'd')) return false;
  i++;
  if (i >= n || s[i] < '0' || s[i] > '9') return false;
  while (i < n && ((s[i] >= '0' && s[i] <= '9') || s[i] == ',')) i++;
  return i == n;
}

/* Splits the patch text into file patches. Returns their count or -errno;
 * *where is the reader at the end (the line a malformed patch failed at). */
static int parse_patch(const char *data, size_t len, filepatch **out, size_t *nout,
                       reader *where) {
  reader r = {.data = data, .len = len};
  filepatch *v = NULL;
  size_t nv = 0;
  const char *s;
  size_t n;
  filepatch *cur = NULL;
  int rc = 0;
  while (rc == 0 && next_line(&r, &s, &n)) {
    const char *s2;
    size_t n2;
    bool unified_hdr = starts(s, n, "--- ") && peek_line(&r, &s2, &n2) && starts(s2, n2, "+++ ");
    bool context_hdr = starts(s, n, "*** ") && peek_line(&r, &s2, &n2) && starts(s2, n2, "--- ");
    if (unified_hdr || context_hdr) {
      filepatch *nvv = realloc(v, (nv + 1) * sizeof *v);
      if (!nvv) return -ENOMEM;
      v = nvv;
      cur = &v[nv++];
      memset(cur, 0, sizeof *cur);
      cur->header = s;
      cur->header_line = r.lineno;
      cur->old_name = header_name(s, n);
      next_line(&r, &s2, &n2);
      cur->new_name = header_name(s2, n2);
      cur->headerlen = (size_t)(r.data + r.pos - s);
      continue;
    }
    if (cur && starts(s, n, "@@ -")) {
      rc = parse_unified(&r, s, n, cur);
      continue;
    }
    if (cur && starts(s, n, "***************")) {
      rc = parse_context(&r, cur);
      continue;
    }
    if (is_normal_cmd(s, n)) {
      if (!cur || cur->old_name) {
        filepatch *nvv = realloc(v, (nv + 1) * sizeof *v);
        if (!nvv) return -ENOMEM;
        v = nvv;
        cur = &v[nv++];
        memset(cur, 0, sizeof *cur);
        cur->header_line = r.lineno;
      }
      rc = parse_normal(&r, s, n, cur);
      continue;
    }
    /* anything else between files is garbage (diff --git, Index:, text) */
  }
  *out = v;
  *nout = nv;
  *where = r;
  return rc;
}

static void free_patches(filepatch *v, size_t n) {
  for (size_t i = 0; i < n; i++) {
    for (size_t k = 0; k < v[i].nh; k++) {
      free(v[i].h[k].old.v);
      free(v[i].h[k].new.v);
    }
    free(v[i].h);
    free(v[i].old_name);
    free(v[i].new_name);
  }
  free(v);
}

/* ---- applying ------------------------------------------------------------------------ */

static bool line_eq(const pline *a, const pline *b) {
  return a->n == b->n && memcmp(a->s, b->s, a->n) == 0;
}

/* Does `want[lo..hi)` match the file at position `at`? */
static bool matches(const lines *file, long at, const lines *want, long lo, long hi) {
  if (at < 0 || at + (hi - lo) > (long)file->n) return false;
  for (long k = lo; k < hi; k++)
    if (!line_eq(&file->v[at + k - lo], &want->v[k])) return false;
  return true;
}

/* Finds where the old side fits: nearest to `guess`, not before `min`.
 * Returns the position of want[lo] or -1. */
static long locate(const lines *file, long guess, long min, const lines *want, long lo, long hi) {
  long n = (long)file->n;
  long maxd = n + 1;
  /* Past either end the nearest places are the ends themselves (GNU patch
   * searches the whole file: a hunk at line 2147483648 applies at its text). */
  if (guess > n) guess = n;
  if (guess < min) guess = min;
  for (long d = 0; d <= maxd; d++) {
    long before = guess - d, after = guess + d;
    if (before >= min && before <= n && matches(file, before, want, lo, hi)) return before;
    if (d && after >= min && after <= n && matches(file, after, want, lo, hi)) return after;
    if (before < min && after > n) break;
  }
  return -1;
}

static char *strip_name(const char *name, long strip) {
  if (!name) return NULL;
  const char *p = name;
  if (strip < 0) return strdup(name);
  for (long k = 0; k < strip && *p; k++) {
    const char *slash = strchr(p, '/');
    if (!slash) return NULL;
    p = slash + 1;
    while (*p == '/') p++;
  }
  return strdup(p);
}

static bool exists(cmd_ctx *ctx, const char *path) {
  store_stat st;
  return path && store_path_stat(ctx->store, ctx->cwd, path, &st) == 0;
}

static int write_rej(cmd_ctx *ctx, patch_opts *po, const char *name, filepatch *fp,
                     bool *failed) {
  if (po->reject_file && !strcmp(po->reject_file, "-")) return 0;
  bool context = fp->header && fp->header[0] == '*';
  char *prev = NULL;
  size_t prevlen = 0;
  if (po->reject_file && po->reject_written &&
      cmd_read_all(ctx, po->reject_file, (size_t)1 << 30, &prev, &prevlen) < 0)
    prev = NULL, prevlen = 0;
  size_t cap = prevlen + fp->headerlen + 1;
  for (size_t k = 0; k < fp->nh; k++)
    if (failed[k]) cap += fp->h[k].textlen + 17;
  char *buf = malloc(cap), *o = buf;
  if (!buf) {
    free(prev);
    return -ENOMEM;
  }
  if (prevlen) memcpy(o, prev, prevlen), o += prevlen;
  free(prev);
  if (fp->header) memcpy(o, fp->header, fp->headerlen), o += fp->headerlen;
  for (size_t k = 0; k < fp->nh; k++) {
    if (!failed[k]) continue;
    if (context) o += sprintf(o, "***************\n"); /* the hunk text starts after it */
    memcpy(o, fp->h[k].text, fp->h[k].textlen);
    o += fp->h[k].textlen;
  }
  char *rej = malloc(strlen(name) + 5);
  if (!rej) {
    free(buf);
    return -ENOMEM;
  }
  sprintf(rej, "%s.rej", name);
  int rc = store_path_write_file(ctx->store, ctx->cwd, po->reject_file ? po->reject_file : rej,
                                 buf, (size_t)(o - buf), 0644 & ~ctx->umask, 0);
  if (rc >= 0 && po->reject_file) po->reject_written = true;
  free(rej);
  free(buf);
  return rc;
}

/* Patches one file. announce_only: a malformed hunk follows in this file's
 * patch; say which file (as GNU patch does before its error) and stop. */
static void apply_file(cmd_ctx *ctx, patch_opts *o, filepatch *fp, const char *forced,
                       bool announce_only) {
  bool creating = fp->old_name && strcmp(fp->old_name, "/dev/null") == 0;
  bool deleting = fp->new_name && strcmp(fp->new_name, "/dev/null") == 0;
  char *oldn = strip_name(fp->old_name, o->strip), *newn = strip_name(fp->new_name, o->strip);
  char *name = NULL;
  if (forced) name = strdup(forced);
  else if (creating) name = newn ? strdup(newn) : NULL;
  else if (deleting) name = oldn ? strdup(oldn) : NULL;
  else if (exists(ctx, oldn)) name = strdup(oldn);
  else if (exists(ctx, newn)) name = strdup(newn);
  else if (o->reverse && exists(ctx, newn)) name = strdup(newn);
  if (o->reverse) {
    bool t = creating;
    creating = deleting;
    deleting = t;
  }
  if (!name || (!creating && !exists(ctx, name))) {
    cmd_err_raw(ctx, "can't find file to patch at input line %ld\n", fp->header_line + 1);
    cmd_err_raw(ctx, "Perhaps you %s the -p or --strip option?\n",
                o->strip < 0 ? "should have used" : "used the wrong");
    cmd_outf(ctx, "No file to patch.  Skipping patch.\n%zu out of %zu hunk%s ignored\n", fp->nh,
             fp->nh, fp->nh == 1 ? "" : "s");
    o->status = o->status > 1 ? o->status : 1;
    free(oldn);
    free(newn);
    free(name);
    return;
  }
  if (!o->silent) {
    if (o->outfile)
      cmd_outf(ctx, "%s file %s (read from %s)\n", o->dry_run ? "checking" : "patching",
               o->outfile, name);
    else
      cmd_outf(ctx, "%s file %s\n", o->dry_run ? "checking" : "patching", name);
  }
  if (announce_only) {
    free(oldn);
    free(newn);
    free(name);
    return;
  }
  char *data = NULL;
  size_t len = 0;
  if (exists(ctx, name)) {
    int rc = store_path_read_file(ctx->store, ctx->cwd, name, (void **)&data, &len);
    if (rc < 0) {
      cmd_err_raw(ctx, "patch: **** Can't open file %s : %s\n", name, cmd_strerror(rc));
      o->status = 2;
      free(oldn);
      free(newn);
      free(name);
      return;
    }
  }
  lines file = {0};
  for (size_t i = 0; i < len;) {
    const char *nl = memchr(data + i, '\n', len - i);
    size_t n = nl ? (size_t)(nl - data - i) : len - i;
    push(&file, data + i, n);
    if (!nl) file.v[file.n - 1].nonl = true;
    i += n + 1;
  }
  bool *failed = calloc(fp->nh + 1, 1);
  long *place = calloc(fp->nh + 1, sizeof *place);
  long min = 0, offset = 0;
  size_t nfailed = 0;
  bool mismatch = false, reversed_skip = false;
  for (size_t k = 0; k < fp->nh && failed && place; k++) {
    hunk *h = &fp->h[k];
    lines *old = o->reverse ? &h->new : &h->old;
    long start = o->reverse ? h->new_start : h->old_start;
    long guess = add_clamped(old->n ? start - 1 : start, offset);
    long at = -1;
    int used_fuzz = 0;
    for (int fz = 0; fz <= o->fuzz && at < 0; fz++) {
      long lo = fz < h->pre ? fz : h->pre, hi = (long)old->n - (fz < h->post ? fz : h->post);
      if (hi < lo) break;
      long pos = locate(&file, add_clamped(guess, lo), min, old, lo, hi);
      if (pos >= 0) at = pos - lo, used_fuzz = fz;
      if (fz == 0 && at < 0 && k == 0 && !o->reverse) {
        /* Does it apply the other way round? */
        lines *other = &h->new;
        if (locate(&file, guess, 0, other, 0, (long)other->n) >= 0 && other->n) {
          if (o->forward) {
            cmd_outs(ctx, "Reversed (or previously applied) patch detected!  Skipping patch.\n");
          } else {
            cmd_outs(ctx, "Reversed (or previously applied) patch detected!  Assume -R? [n] \n"
                          "Apply anyway? [n] \nSkipping patch.\n");
          }
          reversed_skip = true;
          break;
        }
      }
    }
    if (reversed_skip) {
      for (size_t m = 0; m < fp->nh; m++) failed[m] = true;
      nfailed = fp->nh;
      break;
    }
    if (at < 0) {
      failed[k] = true;
      nfailed++;
      mismatch = true;
      if (!o->silent) cmd_outf(ctx, "Hunk #%zu FAILED at %ld.\n", k + 1, add_clamped(start, offset));
      continue;
    }
    place[k] = at;
    long delta = at - (old->n ? start - 1 : start);
    if (delta != offset || used_fuzz) mismatch = true;
    if (!o->silent && (delta != 0 || used_fuzz)) {
      long off = delta;
      cmd_outf(ctx, "Hunk #%zu succeeded at %ld", k + 1, at + 1);
      if (used_fuzz) cmd_outf(ctx, " with fuzz %d", used_fuzz);
      if (off) cmd_outf(ctx, " (offset %ld line%s)", off, off == 1 || off == -1 ? "" : "s");
      cmd_outs(ctx, ".\n");
    }
    offset = delta;
    min = at + (long)old->n;
  }
  /* Build the new file: copy, replacing each placed hunk's old side. */
  int rc = 0;
  if (failed && nfailed == fp->nh && fp->nh && !reversed_skip && !o->dry_run &&
      o->backup_mismatch && !o->outfile && data) {
    /* nothing applied: GNU still keeps the mismatching file's FILE.orig */
    char *orig = malloc(strlen(name) + 6);
    if (orig) {
      sprintf(orig, "%s.orig", name);
      store_path_write_file(ctx->store, ctx->cwd, orig, data, len, 0644 & ~ctx->umask, 0);
      free(orig);
    }
  }
  if (failed && place && nfailed < fp->nh && !o->dry_run) {
    size_t cap = len + 64;
    for (size_t k = 0; k < fp->nh; k++)
      for (size_t i = 0; i < fp->h[k].new.n; i++) cap += fp->h[k].new.v[i].n + 1;
    for (size_t k = 0; k < fp->nh; k++)
      for (size_t i = 0; i < fp->h[k].old.n; i++) cap += fp->h[k].old.v[i].n + 1;
    char *out = malloc(cap), *w = out;
    long pos = 0;
    bool last_nonl = false;
    for (size_t k = 0; out && k <= fp->nh; k++) {
      long until = k < fp->nh ? place[k] : (long)file.n;
      if (k < fp->nh && failed[k]) continue;
      for (; pos < until; pos++) {
        memcpy(w, file.v[pos].s, file.v[pos].n);
        w += file.v[pos].n;
        *w++ = '\n';
        last_nonl = file.v[pos].nonl;
      }
      if (k == fp->nh) break;
      hunk *h = &fp->h[k];
      lines *old = o->reverse ? &h->new : &h->old, *new = o->reverse ? &h->old : &h->new;
      for (size_t i = 0; i < new->n; i++) {
        memcpy(w, new->v[i].s, new->v[i].n);
        w += new->v[i].n;
        *w++ = '\n';
        last_nonl = new->v[i].nonl;
      }
      pos += (long)old->n;
      if (new->n == 0 && pos >= (long)file.n) last_nonl = false;
    }
    if (out && last_nonl && w > out) w--; /* the file ends without a newline */
    if (!out) rc = -ENOMEM;
    const char *target = o->outfile ? o->outfile : name;
    if (rc == 0 && (mismatch || o->backup) && o->backup_mismatch && !o->outfile && data) {
      char *orig = malloc(strlen(name) + 6);
      sprintf(orig, "%s.orig", name);
      store_path_write_file(ctx->store, ctx->cwd, orig, data, len, 0644 & ~ctx->umask, 0);
      free(orig);
    }
    if (rc == 0 && deleting && w == out && !o->outfile) {
      rc = store_path_unlink(ctx->store, ctx->cwd, name);
    } else if (rc == 0) {
      store_stat st;
      uint32_t mode = store_path_stat(ctx->store, ctx->cwd, name, &st) == 0 ? st.mode & 07777
                                                                          : 0644 & ~ctx->umask;
      rc = store_path_write_file(ctx->store, ctx->cwd, target, out, (size_t)(w - out), mode,
                                 STORE_WRITE_MKDIRS);
      if (rc == 0 && o->remove_empty && w == out && !o->outfile)
        store_path_unlink(ctx->store, ctx->cwd, name);
    }
    free(out);
    if (rc < 0) {
      cmd_record_error(ctx, rc, target);
      cmd_err_raw(ctx, "patch: **** Can't write %s : %s\n", target, cmd_strerror(rc));
      o->status = 2;
    }
  }
  if (nfailed) {
    /* GNU prints this summary even with -s. */
    if (o->dry_run)
      cmd_outf(ctx, "%zu out of %zu hunk%s %s\n", nfailed, fp->nh, fp->nh == 1 ? "" : "s",
               reversed_skip ? "ignored" : "FAILED");
    else if (o->reject_file && !strcmp(o->reject_file, "-"))
      cmd_outf(ctx, "%zu out of %zu hunk%s %s\n", nfailed, fp->nh, fp->nh == 1 ? "" : "s",
               reversed_skip ? "ignored" : "FAILED");
    else if (o->reject_file)
      cmd_outf(ctx, "%zu out of %zu hunk%s %s -- saving rejects to file %s\n", nfailed,
               fp->nh, fp->nh == 1 ? "" : "s", reversed_skip ? "ignored" : "FAILED",
               o->reject_file);
    else
      cmd_outf(ctx, "%zu out of %zu hunk%s %s -- saving rejects to file %s.rej\n", nfailed,
               fp->nh, fp->nh == 1 ? "" : "s", reversed_skip ? "ignored" : "FAILED", name);
    if (!o->dry_run) write_rej(ctx, o, name, fp, failed);
    if (o->status < 1) o->status = 1;
  }
  free(failed);
  free(place);
  free(file.v);
  free(data);
  free(oldn);
  free(newn);
  free(name);
}

enum { O_DRY = CMD_OPT_LONG, O_NOBACKUP, O_BACKUP_IF_MISMATCH, O_POSIX };
static const char patch_options[] =
    "(dry-run)(no-backup-if-mismatch)(backup-if-mismatch)(posix)(help)(version)"
    "p:(strip)R(reverse)N(forward)i:(input)o:(output)d:(directory)F:(fuzz)"
    "s(silent)(quiet)f(force)t(batch)b(backup)E(remove-empty-files)r:(reject-file)"
    "u(unified)c(context)n(normal)lz:B:V:";

int cmd_patch_main(cmd_ctx *ctx, int argc, char **argv) {
  patch_opts o = {.strip = -1, .fuzz = 2};
  cmd_getopt_state st = CMD_GETOPT_INIT;
  /* A loop for -p, checked where it stands, and patch's status 2 for a bad
   * option; every other option is read after it. -u -c -n -l -z -B -V,
   * --backup-if-mismatch (the default) and --posix are accepted and ignored. */
  for (int c; (c = cmd_getopt(ctx, &st, argc, argv, patch_options, NULL)) != -1;) {
    switch (c) {
    case 'p': {
      char *end;
      o.strip = strtol(st.arg, &end, 10);
      if (*end || o.strip < 0) {
        cmd_err_raw(ctx, "patch: **** strip count %s is not a number\n", st.arg);
        return 2;
      }
      break;
    }
    CMD_CASES_HELP_VERSION(ctx, patch_usage);
    case '?': return 2;
    }
  }
  o.reverse = cmd_opt_on(&st, 'R');
  o.force = cmd_opt_on(&st, 'f');
  o.batch = cmd_opt_on(&st, 't');
  o.forward = cmd_opt_on(&st, 'N') || o.force || o.batch;
  o.silent = cmd_opt_on(&st, 's');
  o.backup = cmd_opt_on(&st, 'b');
  o.remove_empty = cmd_opt_on(&st, 'E');
  o.dry_run = cmd_opt_on(&st, O_DRY);
  o.backup_mismatch = !cmd_opt_on(&st, O_NOBACKUP);
  o.outfile = cmd_opt_arg(&st, 'o');
  o.reject_file = cmd_opt_arg(&st, 'r');
  o.dir = cmd_opt_arg(&st, 'd');
  if (cmd_opt_on(&st, 'F')) o.fuzz = atoi(cmd_opt_arg(&st, 'F'));
  const char *patchfile = cmd_opt_arg(&st, 'i');
  const char *forced = st.ind < argc ? argv[st.ind] : NULL;
  if (st.ind + 1 < argc) patchfile = argv[st.ind + 1];
  if (o.dir) ctx->cwd = cmd_abspath(ctx, o.dir);
  cmd_in *in;
  int rc = cmd_in_open(ctx, patchfile ? patchfile : "-", &in);
  if (rc < 0) {
    cmd_record_error(ctx, rc, patchfile);
    cmd_err_raw(ctx, "patch: **** Can't open patch file %s : %s\n", patchfile, cmd_strerror(rc));
    return 2;
  }
  char *data;
  size_t len;
  rc = cmd_in_slurp(in, &data, &len);
  cmd_in_close(in);
  if (rc < 0) {
    cmd_err_raw(ctx, "patch: **** read error : %s\n", cmd_strerror(rc));
    return 2;
  }
  filepatch *v = NULL;
  size_t nv = 0;
  reader where = {0};
  rc = parse_patch(data, len, &v, &nv, &where);
  if (rc < 0) {
    /* GNU patch applies the files before the malformed hunk, names the
     * file it is in, and stops there. */
    for (size_t i = 0; i < nv && !cmd_poll(ctx); i++)
      if (v[i].old_name || forced) apply_file(ctx, &o, &v[i], forced, i + 1 == nv);
    cmd_flush(ctx);
    if (where.too_large)
      cmd_err_raw(ctx, "patch: **** line number %.*s is too large at line %ld: %.*s\n\n",
                  (int)where.too_large_len, where.too_large, where.lineno,
                  (int)where.linelen, where.line);
    else
      cmd_err_raw(ctx, "patch: **** malformed patch at line %ld: %.*s\n\n", where.lineno,
                  (int)where.linelen, where.line ? where.line : "");
    free_patches(v, nv);
    free(data);
    return 2;
  }
  size_t nhunks = 0;
  for (size_t i = 0; i < nv; i++) nhunks += v[i].nh;
  if (nv == 0 || nhunks == 0) {
    cmd_err_raw(ctx, "patch: **** Only garbage was found in the patch input.\n");
    free_patches(v, nv);
    free(data);
    return 2;
  }
  for (size_t i = 0; i < nv && !cmd_poll(ctx); i++) {
    if (!v[i].old_name && !forced) {
      cmd_err_raw(ctx, "patch: **** can't find file to patch: a normal diff needs ORIGFILE\n");
      o.status = 2;
      continue;
    }
    apply_file(ctx, &o, &v[i], forced, false);
  }
  free_patches(v, nv);
  free(data);
  return o.status;
}
