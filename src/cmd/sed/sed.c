/*
 * sed - stream editor (GNU sed 4.9).
 *
 *   Usage: sed [OPTION]... {script-only-if-no-other-script} [input-file]...
 *   -n  -e SCRIPT  -f FILE  -i[SUFFIX]  -E/-r  -s  -z  -u  -l N
 *   --posix  --sandbox  --follow-symlinks  --debug (accepted, no annotations)
 *
 * Design. sed_parse.c compiles the script (every command, address form and
 * GNU extension; GNU's error texts and positions); this file runs it. Input
 * is read line by line (cmd_in_getdelim: NUL bytes and long lines are fine)
 * with one line of lookahead so `$` is known; files are one stream unless
 * -s or -i. Output follows GNU's rule for a last line without newline: the
 * pattern space is written without it, and a later write to the same output
 * first adds the missing newline.
 *
 * s/// runs the src/re engine from successive start offsets (so ^ only
 * matches at the start, \b sees the previous character); an empty match
 * right after the previous match is skipped, as GNU does. Case conversion
 * (\U \L \u \l \E) handles UTF-8 through glibc's C.UTF-8 tables.
 *
 * -i writes a temporary file next to the target (in the store, through the
 * command's I/O table) and renames it over the target: readers never see a
 * half-written file; with a SUFFIX the original is renamed to the backup
 * first ('*' in SUFFIX stands for the file name).
 *
 * Bounds: pattern and hold space are limited to ctx->max_string; branches
 * poll cmd_poll (cancellation, time limits) every 4096 commands and a cycle
 * that takes more than SED_MAX_JUMPS jumps stops with an error, so
 * `:a;ba` cannot hang the host; regexes run under the engine's step budget.
 */
#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <wctype.h>

#include "cmd/sed/sed_int.h"
#include "cmd/lib/buf.h"
#include "cmd/lib/gnu.h"
#include "cmd/lib/getopt_msg.h"

CMD_DEFINE("sed", cmd_sed_main);

#define SED_MAX_JUMPS 10000000ull /* branches taken in one cycle */
#define SED_OUTBUF 65536

static const char sed_usage_text[] =
    "Usage: sed [OPTION]... {script-only-if-no-other-script} [input-file]...\n"
    "\n"
    "  -n, --quiet, --silent\n"
    "                 suppress automatic printing of pattern space\n"
    "      --debug\n"
    "                 annotate program execution\n"
    "  -e script, --expression=script\n"
    "                 add the script to the commands to be executed\n"
    "  -f script-file, --file=script-file\n"
    "                 add the contents of script-file to the commands to be executed\n"
    "  --follow-symlinks\n"
    "                 follow symlinks when processing in place\n"
    "  -i[SUFFIX], --in-place[=SUFFIX]\n"
    "                 edit files in place (makes backup if SUFFIX supplied)\n"
    "  -l N, --line-length=N\n"
    "                 specify the desired line-wrap length for the `l' command\n"
    "  --posix\n"
    "                 disable all GNU extensions.\n"
    "  -E, -r, --regexp-extended\n"
    "                 use extended regular expressions in the script\n"
    "                 (for portability use POSIX -E).\n"
    "  -s, --separate\n"
    "                 consider files as separate rather than as a single,\n"
    "                 continuous long stream.\n"
    "      --sandbox\n"
    "                 operate in sandbox mode (disable e/r/w commands).\n"
    "  -u, --unbuffered\n"
    "                 load minimal amounts of data from the input files and flush\n"
    "                 the output buffers more often\n"
    "  -z, --null-data\n"
    "                 separate lines by NUL characters\n"
    "      --help     display this help and exit\n"
    "      --version  output version information and exit\n"
    "\n"
    "If no -e, --expression, -f, or --file option is given, then the first\n"
    "non-option argument is taken as the sed script to interpret.  All\n"
    "remaining arguments are names of input files; if no input files are\n"
    "specified, then the standard input is read.\n"
    "\n"
    "GNU sed home page: <https://www.gnu.org/software/sed/>.\n"
    "General help using GNU software: <https://www.gnu.org/gethelp/>.\n";

/* A growable byte string. */
typedef struct sstr {
  char *s;    /* malloc'd */
  size_t n;   /* used */
  size_t cap; /* allocated */
} sstr;

/* An output stream: stdout (through cmd_out) or a file fd. */
typedef struct sed_out {
  int fd;          /* -1: stdout through cmd_out */
  bool missing_nl; /* the last write lacked its newline */
  char *buf;       /* pending bytes for fd outputs */
  size_t len;      /* used */
  int err;         /* first write error */
} sed_out;

/* Something to output at the end of the cycle. */
typedef struct sed_app {
  int kind;         /* 0 text, 1 file (r), 2 owned text (R) */
  const char *text; /* text or file name */
  size_t len;       /* text length */
  char *owned;      /* kind 2: malloc'd copy */
} sed_app;

typedef struct sed_run {
  cmd_ctx *ctx;            /* the call */
  sed_prog prog;           /* compiled script */
  sed_opts o;              /* compile options */
  bool quiet;              /* -n */
  bool separate;           /* -s or -i */
  bool inplace;            /* -i */
  const char *suffix;      /* -i backup suffix (NULL: none) */
  bool follow;             /* --follow-symlinks */
  int line_len;            /* -l (default 70) */
  char eol;                /* '\n' or '\0' (-z) */
  uint64_t max;            /* largest pattern/hold space */
  /* input */
  char **files;            /* operands */
  int nfiles;              /* count */
  int fi;                  /* next operand to open */
  cmd_in *in;              /* current reader (NULL: none open) */
  const char *in_name;     /* its name ("-" for stdin) */
  const char *cur_name;    /* file of the current line (F) */
  bool stdin_done;         /* "-" was read once already */
  sstr next;               /* lookahead line (without delimiter) */
  bool has_next;           /* next is valid */
  bool next_chomped;       /* next had its delimiter */
  const char *next_name;   /* file of the lookahead line */
  bool file_ended;         /* separate mode: current file has no more lines */
  /* state */
  sstr ps, hs;             /* pattern and hold space */
  bool chomped;            /* ps's line had its delimiter */
  bool hs_chomped;         /* the same of hs (GNU: h, H, g, G and x carry it along; an
                            * empty hold space has one), so `$!d;x` or G on a last line
                            * without one prints the newline */
  uint64_t lineno;         /* current line number */
  bool replaced;           /* t flag */
  bool quit;               /* stop after this cycle */
  int exit_code;           /* q/Q code */
  bool quit_silent;        /* Q: no autoprint */
  sed_regex *last_rx;      /* the last regex used (for //) */
  sed_app *app;            /* append queue */
  size_t napp, capapp;     /* its size */
  sstr tmp;                /* scratch for s/// */
  re_span m[10];           /* submatches */
  re_ctl ctl;              /* regex budget and poll */
  sed_out out_stdout;      /* stdout */
  sed_out out_file;        /* -i temporary file */
  sed_out *out;            /* current output */
  int status;              /* exit status so far (2 after a missing file) */
  bool fatal;              /* stop everything (error already printed) */
} sed_run;

/* ---- strings ------------------------------------------------------------------------ */

static int str_reserve(sed_run *r, sstr *s, size_t need) {
  if (need + 1 <= s->cap) return 0;
  if (need > r->max) {
    if (!r->fatal) cmd_errorf(r->ctx, "pattern space exceeds the size limit (%ju bytes)", (uintmax_t)r->max);
    r->fatal = true;
    r->status = 4;
    return -1;
  }
  if (cmd_grow(&s->s, &s->cap, need + 1, 1)) {
    if (!r->fatal) cmd_errorf(r->ctx, "couldn't re-allocate memory");
    r->fatal = true;
    r->status = 4;
    return -1;
  }
  return 0;
}

static int str_set(sed_run *r, sstr *s, const char *d, size_t n) {
  if (str_reserve(r, s, n) < 0) return -1;
  if (n) memmove(s->s, d, n);
  s->n = n;
  s->s[n] = 0;
  return 0;
}

static int str_add(sed_run *r, sstr *s, const char *d, size_t n) {
  if (str_reserve(r, s, s->n + n) < 0) return -1;
  if (n) memcpy(s->s + s->n, d, n);
  s->n += n;
  s->s[s->n] = 0;
  return 0;
}

/* g G h H: the hold space into the pattern space (`to_ps`) or the other way,
 * replacing it or (`append`) after a newline; whether the line had its
 * delimiter goes along. -1 when a limit stops it. */
static int space_copy(sed_run *r, bool to_ps, bool append) {
  sstr *dst = to_ps ? &r->ps : &r->hs, *src = to_ps ? &r->hs : &r->ps;
  const char *text = src->s ? src->s : "";
  if (append ? str_add(r, dst, &r->eol, 1) < 0 || str_add(r, dst, text, src->n) < 0
             : str_set(r, dst, text, src->n) < 0)
    return -1;
  if (to_ps) r->chomped = r->hs_chomped;
  else r->hs_chomped = r->chomped;
  return 0;
}

/* ---- output ----------------------------------------------------------------------------- */

static void out_flush(sed_run *r, sed_out *o) {
  if (o->fd < 0 || o->len == 0) return;
  size_t off = 0;
  while (off < o->len) {
    ssize_t w = r->ctx->io->write(r->ctx->io_ud, o->fd, o->buf + off, o->len - off);
    if (w < 0) {
      if (w == -EINTR) continue;
      if (!o->err) o->err = (int)w;
      break;
    }
    off += (size_t)w;
  }
  o->len = 0;
}

static void out_raw(sed_run *r, sed_out *o, const char *d, size_t n) {
  if (o->fd < 0) {
    int rc = cmd_out(r->ctx, d, n);
    if (rc < 0 && !o->err) o->err = rc;
    return;
  }
  if (!o->buf) {
    o->buf = malloc(SED_OUTBUF);
    if (!o->buf) {
      o->err = -ENOMEM;
      return;
    }
  }
  if (o->len + n > SED_OUTBUF) out_flush(r, o);
  if (n >= SED_OUTBUF) {
    o->len = 0;
    size_t off = 0;
    while (off < n) {
      ssize_t w = r->ctx->io->write(r->ctx->io_ud, o->fd, d + off, n - off);
      if (w < 0) {
        if (w == -EINTR) continue;
        if (!o->err) o->err = (int)w;
        return;
      }
      off += (size_t)w;
    }
    return;
  }
  memcpy(o->buf + o->len, d, n);
  o->len += n;
}

/* GNU output_missing_newline + write. */
static void out_text(sed_run *r, sed_out *o, const char *d, size_t n) {
  if (o->missing_nl) {
    out_raw(r, o, &r->eol, 1);
    o->missing_nl = false;
  }
  out_raw(r, o, d, n);
}

/* Writes a line; the delimiter only when `nl` (else it is "missing"). */
static void out_line(sed_run *r, sed_out *o, const char *d, size_t n, bool nl) {
  out_text(r, o, d, n);
  if (nl) out_raw(r, o, &r->eol, 1);
  else o->missing_nl = true;
}

/* The output of a w file. */
static sed_out *wfile_out(sed_run *r, sed_wfile *w, sed_out *tmp) {
  if (w->is_stdout) return &r->out_stdout;
  tmp->fd = w->is_stderr ? 2 : w->fd;
  tmp->missing_nl = w->missing_nl;
  tmp->buf = NULL;
  tmp->len = 0;
  tmp->err = 0;
  return tmp;
}

static void wfile_line(sed_run *r, sed_wfile *w, const char *d, size_t n, bool nl) {
  sed_out tmp;
  sed_out *o = wfile_out(r, w, &tmp);
  if (o == &r->out_stdout) {
    out_line(r, o, d, n, nl);
    return;
  }
  /* Unbuffered: w files are few and interleave with stdout/stderr. */
  cmd_flush(r->ctx);
  if (tmp.missing_nl) r->ctx->io->write(r->ctx->io_ud, tmp.fd, &r->eol, 1);
  size_t off = 0;
  while (off < n) {
    ssize_t k = r->ctx->io->write(r->ctx->io_ud, tmp.fd, d + off, n - off);
    if (k <= 0) break;
    off += (size_t)k;
  }
  if (nl) r->ctx->io->write(r->ctx->io_ud, tmp.fd, &r->eol, 1);
  w->missing_nl = !nl;
}

/* ---- case conversion ----------------------------------------------------------------- */

static pthread_once_t case_once = PTHREAD_ONCE_INIT;
static locale_t case_loc; /* C.UTF-8 for towupper_l / towlower_l */

static void case_init(void) {
  case_loc = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
  if (!case_loc) case_loc = newlocale(LC_CTYPE_MASK, "C.utf8", (locale_t)0);
}

/* Appends s[0..n) converted: `one` ('u'/'l'/0) applies to the first
 * character, `mode` ('U'/'L'/0) to the others. Clears *one when used. */
static int add_cased(sed_run *r, sstr *out, const char *s, size_t n, char mode, char *one) {
  if (!mode && !*one) return str_add(r, out, s, n);
  size_t i = 0;
  while (i < n) {
    char how = *one ? *one : mode;
    if (*one) *one = 0;
    unsigned char c = (unsigned char)s[i];
    size_t l = 1;
    uint32_t cp = c;
    if (c >= 0x80 && r->o.utf8) {
      /* decode */
      size_t want = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
      if (want <= n - i && re_utf8_check(s + i, want) == want) {
        l = want;
        cp = want == 2 ? (c & 0x1Fu) : want == 3 ? (c & 0x0Fu) : (c & 0x07u);
        for (size_t k = 1; k < want; k++) cp = (cp << 6) | ((unsigned char)s[i + k] & 0x3Fu);
      }
    }
    if (how && (cp < 0x80 || l > 1)) {
      uint32_t nc = cp;
      if (cp < 0x80) {
        if (how == 'U' || how == 'u') nc = cp >= 'a' && cp <= 'z' ? cp - 32 : cp;
        else nc = cp >= 'A' && cp <= 'Z' ? cp + 32 : cp;
      } else {
        pthread_once(&case_once, case_init);
        if (case_loc)
          nc = (uint32_t)((how == 'U' || how == 'u') ? towupper_l((wint_t)cp, case_loc)
                                                      : towlower_l((wint_t)cp, case_loc));
      }
      char enc[4];
      size_t el;
      if (nc < 0x80) enc[0] = (char)nc, el = 1;
      else if (nc < 0x800) enc[0] = (char)(0xC0 | (nc >> 6)), enc[1] = (char)(0x80 | (nc & 0x3F)), el = 2;
      else if (nc < 0x10000)
        enc[0] = (char)(0xE0 | (nc >> 12)), enc[1] = (char)(0x80 | ((nc >> 6) & 0x3F)),
        enc[2] = (char)(0x80 | (nc & 0x3F)), el = 3;
      else
        enc[0] = (char)(0xF0 | (nc >> 18)), enc[1] = (char)(0x80 | ((nc >> 12) & 0x3F)),
        enc[2] = (char)(0x80 | ((nc >> 6) & 0x3F)), enc[3] = (char)(0x80 | (nc & 0x3F)), el = 4;
      if (str_add(r, out, enc, el) < 0) return -1;
    } else if (str_add(r, out, s + i, l) < 0) {
      return -1;
    }
    i += l;
  }
  return 0;
}

/* ---- input -------------------------------------------------------------------------------- */

/* Opens the next operand. Returns false when there are none left. */
static bool open_next(sed_run *r) {
  while (r->fi < r->nfiles) {
    const char *name = r->files[r->fi++];
    if (strcmp(name, "-") == 0) {
      r->in = cmd_in_fd(r->ctx, 0);
      r->in_name = "-";
      if (!r->in) return false;
      return true;
    }
    cmd_in *in;
    int rc = cmd_in_open(r->ctx, name, &in);
    if (rc < 0) {
      cmd_errorf(r->ctx, "can't read %s: %s", name, cmd_strerror(rc));
      cmd_record_error(r->ctx, rc, name);
      r->status = 2;
      continue;
    }
    r->in = in;
    r->in_name = name;
    return true;
  }
  return false;
}

/* Reads one line from the open reader into `dst`. 1 line, 0 EOF, -1 error. */
static int read_one(sed_run *r, sstr *dst, bool *chomped) {
  char *line;
  ssize_t n = cmd_in_getdelim(r->in, &line, r->eol);
  if (n < 0) {
    if (n == -EISDIR) cmd_errorf(r->ctx, "read error on %s: %s", r->in_name, cmd_strerror((int)n));
    else if (n == -EFBIG) cmd_errorf(r->ctx, "%s: line too long", r->in_name);
    else cmd_errorf(r->ctx, "read error on %s: %s", r->in_name, cmd_strerror((int)n));
    r->fatal = true;
    r->status = 4;
    return -1;
  }
  if (n == 0) return 0;
  size_t len = (size_t)n;
  *chomped = len > 0 && line[len - 1] == r->eol;
  if (*chomped) len--;
  if (str_set(r, dst, line, len) < 0) return -1;
  return 1;
}

/* Fills the lookahead. In separate mode it stays within the current file. */
static void fill_next(sed_run *r) {
  r->has_next = false;
  for (;;) {
    if (!r->in) {
      if (r->separate) return;
      if (!open_next(r)) return;
    }
    int rc = read_one(r, &r->next, &r->next_chomped);
    if (rc < 0) return;
    if (rc == 1) {
      r->has_next = true;
      r->next_name = r->in_name;
      return;
    }
    cmd_in_close(r->in);
    r->in = NULL;
    if (r->separate) return;
  }
}

/* Moves the lookahead into the pattern space (append: after a newline). */
static bool take_next(sed_run *r, bool append) {
  if (!r->has_next) return false;
  if (append) {
    if (str_add(r, &r->ps, &r->eol, 1) < 0 || str_add(r, &r->ps, r->next.s, r->next.n) < 0) return false;
  } else {
    /* Swap buffers instead of copying the line. */
    sstr t = r->ps;
    r->ps = r->next;
    r->next = t;
  }
  r->chomped = r->next_chomped;
  r->cur_name = r->next_name;
  r->lineno++;
  fill_next(r);
  return true;
}

static bool is_last_line(sed_run *r) { return !r->has_next; }

/* ---- the append queue ----------------------------------------------------------------- */

static void app_push(sed_run *r, int kind, const char *text, size_t len, char *owned) {
  if (cmd_grow(&r->app, &r->capapp, r->napp + 1, sizeof *r->app)) {
    free(owned);
    return;
  }
  r->app[r->napp++] = (sed_app){kind, text, len, owned};
}

static void dump_append(sed_run *r) {
  for (size_t i = 0; i < r->napp; i++) {
    sed_app *a = &r->app[i];
    if (a->kind == 0 || a->kind == 2) {
      out_text(r, r->out, a->text, a->len);
    } else {
      /* r FILE: the whole file, silently nothing if unreadable. */
      cmd_in *in;
      if (strcmp(a->text, "/dev/stdin") == 0) {
        in = cmd_in_fd(r->ctx, 0);
      } else if (cmd_in_open(r->ctx, a->text, &in) < 0) {
        continue;
      }
      if (!in) continue;
      char buf[8192];
      ssize_t k;
      bool first = true;
      while ((k = cmd_in_read(in, buf, sizeof buf)) > 0) {
        if (first) out_text(r, r->out, buf, (size_t)k);
        else out_raw(r, r->out, buf, (size_t)k);
        first = false;
      }
      cmd_in_close(in);
    }
    free(a->owned);
  }
  r->napp = 0;
}

/* ---- regex matching --------------------------------------------------------------------- */

static sed_regex *resolve_rx(sed_run *r, sed_regex *rx) {
  if (rx->rx) {
    r->last_rx = rx;
    return rx;
  }
  if (!r->last_rx) {
    cmd_errorf(r->ctx, "-e expression #1, char 0: no previous regular expression");
    r->fatal = true;
    r->status = 1;
    return NULL;
  }
  return r->last_rx;
}

static void regex_failed(sed_run *r, int rc) {
  if (r->fatal) return;
  if (rc == RE_ECANCEL) {
    r->fatal = true;
    r->status = 4;
    return;
  }
  cmd_errorf(r->ctx, "%s", rc == RE_ELIMIT ? "regular expression too complex for the input (step limit reached)"
                                           : "memory exhausted");
  r->fatal = true;
  r->status = 4;
}

/* Does the pattern space match? */
static bool match_rx(sed_run *r, sed_regex *rx) {
  sed_regex *x = resolve_rx(r, rx);
  if (!x) return false;
  int rc = re_exec(x->rx, r->ps.s ? r->ps.s : "", r->ps.n, 0, 0, NULL, 0, &r->ctl);
  if (rc < 0) {
    regex_failed(r, rc);
    return false;
  }
  return rc == RE_MATCH;
}

/* ---- addresses ------------------------------------------------------------------------- */

static bool match_one(sed_run *r, const sed_addr *a) {
  switch (a->kind) {
  case SA_LINE: return r->lineno == a->n;
  case SA_STEP: return r->lineno >= a->n && (r->lineno - a->n) % a->step == 0;
  case SA_LAST: return is_last_line(r);
  case SA_REGEX: return match_rx(r, a->rx);
  default: return false;
  }
}

static bool match_address(sed_run *r, sed_cmd *c) {
  if (c->a1.kind == SA_NONE) return true;
  if (c->a2.kind == SA_NONE) return match_one(r, &c->a1);
  if (!c->range_active) {
    /* GNU: a range from line N starts at the first line >= N the command
     * sees (1d;1,3p prints 2 and 3), once */
    if (c->a1.kind == SA_LINE) {
      if (c->range_closed || r->lineno < c->a1.n) return false;
      c->range_closed = true;
      if (r->lineno > c->a1.n && c->a2.kind == SA_LINE && c->a2.n < r->lineno) return false;
    } else if (!match_one(r, &c->a1)) {
      return false;
    }
    switch (c->a2.kind) {
    case SA_LINE:
      if (c->a2.n <= r->lineno) return true;
      c->range_end = c->a2.n;
      break;
    case SA_PLUS:
      if (c->a2.n == 0) return true;
      c->range_end = r->lineno + c->a2.n;
      break;
    case SA_LAST:
      if (is_last_line(r)) return true; /* a range that starts on the last line ends there */
      break;
    case SA_MULT:
      if (c->a2.n == 0) return true; /* GNU 4.9: a multiple of N runs to the next one */
      c->range_end = (r->lineno / c->a2.n + 1) * c->a2.n;
      break;
    default: break;
    }
    c->range_active = true;
    return true;
  }
  switch (c->a2.kind) {
  case SA_LINE:
    if (r->lineno >= c->range_end) c->range_active = false;
    return r->lineno <= c->range_end;
  case SA_PLUS:
  case SA_MULT:
    /* GNU: a relative end (+N, ~N) that N or n skipped past still takes
     * the line the range next sees (2N;1,+1p prints "2\n3") */
    if (r->lineno >= c->range_end) c->range_active = false;
    return true;
  default:
    if (match_one(r, &c->a2)) c->range_active = false;
    return true;
  }
}

/* ---- commands -------------------------------------------------------------------------- */

static void do_list(sed_run *r, int width) {
  sed_out *o = r->out;
  out_text(r, o, "", 0);
  size_t col = 0;
  size_t limit = width > 1 ? (size_t)width - 1 : width == 1 ? 0 : SIZE_MAX;
  bool wrap = width > 0;
  for (size_t i = 0; i < r->ps.n; i++) {
    unsigned char c = (unsigned char)r->ps.s[i];
    char piece[8];
    size_t pl;
    const char *e = c == '\\' ? "\\\\" : cmd_c_escape(c);
    if (e) memcpy(piece, e, 2), pl = 2;
    else if (c >= 0x20 && c < 0x7F) piece[0] = (char)c, pl = 1;
    else pl = (size_t)snprintf(piece, sizeof piece, "\\%03o", c);
    if (wrap && col + pl > limit) {
      out_raw(r, o, "\\\n", 2);
      col = 0;
    }
    out_raw(r, o, piece, pl);
    col += pl;
  }
  out_raw(r, o, "$", 1);
  out_raw(r, o, &r->eol, 1); /* -z ends the listing with a NUL, as GNU */
}

static size_t char_at(sed_run *r, const char *s, size_t n, size_t i) {
  if (i >= n) return 1;
  unsigned char c = (unsigned char)s[i];
  if (c < 0x80 || !r->o.utf8) return 1;
  size_t want = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
  if (want <= n - i && re_utf8_check(s + i, want) == want) return want;
  return 1;
}

static void append_replacement(sed_run *r, sed_cmd *c, sstr *out, const char *ps) {
  char mode = 0, one = 0;
  for (size_t k = 0; k < c->nrepl; k++) {
    const sed_rpart *p = &c->repl[k];
    if (p->kind == SR_CASE) {
      if (p->op == 'E') mode = one = 0;
      else if (p->op == 'U' || p->op == 'L') mode = p->op, one = 0;
      else one = p->op;
      continue;
    }
    if (p->kind == SR_TEXT) {
      add_cased(r, out, p->text, p->len, mode, &one);
      continue;
    }
    if (p->group < 10 && r->m[p->group].so >= 0)
      add_cased(r, out, ps + r->m[p->group].so, (size_t)(r->m[p->group].eo - r->m[p->group].so), mode, &one);
  }
}

static void do_subst(sed_run *r, sed_cmd *c) {
  sed_regex *x = resolve_rx(r, c->rx);
  if (!x) return;
  const char *ps = r->ps.s ? r->ps.s : "";
  size_t len = r->ps.n;
  size_t nm = x->nsub + 1 > 10 ? 10 : x->nsub + 1;
  if ((size_t)c->maxref >= nm && c->maxref > 0 && (size_t)c->maxref > x->nsub) {
    cmd_errorf(r->ctx, "-e expression #1, char 0: invalid reference \\%d on `s' command's RHS", c->maxref);
    r->fatal = true;
    r->status = 1;
    return;
  }
  sstr *out = &r->tmp;
  out->n = 0;
  uint64_t count = 0;
  size_t start = 0, copied = 0;
  ptrdiff_t prev_end = -1;
  bool did = false;
  uint64_t nth = c->nth ? c->nth : 1;
  while (start <= len) {
    int rc = re_exec(x->rx, ps, len, start, 0, r->m, nm, &r->ctl);
    if (rc < 0) {
      regex_failed(r, rc);
      return;
    }
    if (rc != RE_MATCH) break;
    size_t so = (size_t)r->m[0].so, eo = (size_t)r->m[0].eo;
    if (so == eo && (ptrdiff_t)so == prev_end) {
      /* No empty match right after the previous match. */
      if (so >= len) break;
      start = so + char_at(r, ps, len, so);
      continue;
    }
    count++;
    prev_end = (ptrdiff_t)eo;
    if (count < nth) {
      start = eo > so ? eo : so + char_at(r, ps, len, so);
      continue;
    }
    if (str_add(r, out, ps + copied, so - copied) < 0) return;
    append_replacement(r, c, out, ps);
    if (r->fatal) return;
    copied = eo;
    did = true;
    if (!c->global) break;
    if (eo == so) {
      if (so >= len) break;
      start = so + char_at(r, ps, len, so);
    } else {
      start = eo;
    }
  }
  if (!did) return;
  if (str_add(r, out, ps + copied, len - copied) < 0) return;
  /* Swap the result into the pattern space. */
  sstr t = r->ps;
  r->ps = *out;
  *out = t;
  r->replaced = true;
  /* like p and w, a last line without its newline is printed without one (GNU) */
  if (c->print) out_line(r, r->out, r->ps.s, r->ps.n, r->chomped);
  if (c->wf) wfile_line(r, c->wf, r->ps.s, r->ps.n, r->chomped);
}

static void do_translate(sed_run *r, sed_cmd *c) {
  if (!c->ypairs) {
    for (size_t i = 0; i < r->ps.n; i++) r->ps.s[i] = (char)c->ymap[(unsigned char)r->ps.s[i]];
    return;
  }
  sstr *out = &r->tmp;
  out->n = 0;
  size_t i = 0;
  while (i < r->ps.n) {
    size_t l = char_at(r, r->ps.s, r->ps.n, i);
    const char *rep = NULL;
    for (size_t k = 0; c->ypairs[k]; k += 2)
      if (strlen(c->ypairs[k]) == l && memcmp(c->ypairs[k], r->ps.s + i, l) == 0) {
        rep = c->ypairs[k + 1];
        break;
      }
    if (rep) {
      if (str_add(r, out, rep, strlen(rep)) < 0) return;
    } else if (str_add(r, out, r->ps.s + i, l) < 0) {
      return;
    }
    i += l;
  }
  sstr t = r->ps;
  r->ps = *out;
  *out = t;
}

/* Reads a line for R from its file. */
static void do_R(sed_run *r, sed_cmd *c) {
  sed_rfile *f = c->rf;
  if (f->failed) return;
  if (!f->in) {
    if (strcmp(f->name, "/dev/stdin") == 0) f->in = cmd_in_fd(r->ctx, 0);
    else if (cmd_in_open(r->ctx, f->name, &f->in) < 0) f->in = NULL;
    if (!f->in) {
      f->failed = true;
      return;
    }
  }
  char *line;
  ssize_t n = cmd_in_getdelim(f->in, &line, r->eol);
  if (n <= 0) {
    f->failed = true;
    return;
  }
  size_t len = (size_t)n;
  bool nl = line[len - 1] == r->eol;
  char *copy = malloc(len + 2);
  if (!copy) return;
  memcpy(copy, line, len);
  if (!nl) copy[len++] = r->eol;
  app_push(r, 2, copy, len, copy);
}

enum { CYCLE_END, CYCLE_DELETE, CYCLE_RESTART, CYCLE_QUIT };

/* Length of the pattern space's first line (P, W). */
static size_t first_line_len(sed_run *r) {
  char *nl = r->ps.n ? memchr(r->ps.s, r->eol, r->ps.n) : NULL;
  return nl ? (size_t)(nl - r->ps.s) : r->ps.n;
}

/* Runs the script over the pattern space. */
static int execute(sed_run *r) {
  sed_prog *pg = &r->prog;
  size_t pc = 0;
  uint64_t jumps = 0, steps = 0;
  while (pc < pg->n) {
    if (r->fatal) return CYCLE_QUIT;
    if ((++steps & 4095) == 0 && cmd_poll(r->ctx)) {
      r->fatal = true;
      r->status = 4;
      return CYCLE_QUIT;
    }
    sed_cmd *c = &pg->cmds[pc];
    bool m = match_address(r, c) != c->neg;
    if (r->fatal) return CYCLE_QUIT;
    if (!m) {
      pc = c->cmd == '{' ? (size_t)c->jump + 1 : pc + 1;
      continue;
    }
    pc++;
    switch (c->cmd) {
    case '{':
    case '}':
    case ':': break;
    case '=': {
      char num[32];
      int k = snprintf(num, sizeof num, "%ju\n", (uintmax_t)r->lineno);
      out_text(r, r->out, num, (size_t)k);
      break;
    }
    case 'a': app_push(r, 0, c->text, c->textlen, NULL); break;
    case 'i': out_text(r, r->out, c->text, c->textlen); break;
    case 'c':
      if (c->a2.kind == SA_NONE || !c->range_active) out_text(r, r->out, c->text, c->textlen);
      return CYCLE_DELETE;
    case 'b':
    case 't':
    case 'T': {
      bool take = c->cmd == 'b' || (c->cmd == 't') == r->replaced;
      if (c->cmd != 'b' && take) r->replaced = false;
      if (c->cmd == 'T' && !take) r->replaced = false;
      if (!take) break;
      if (++jumps > SED_MAX_JUMPS) {
        cmd_errorf(r->ctx, "too many branches on input line %ju (more than %llu): infinite loop?",
                   (uintmax_t)r->lineno, SED_MAX_JUMPS);
        r->fatal = true;
        r->status = 4;
        return CYCLE_QUIT;
      }
      pc = (size_t)c->jump;
      break;
    }
    case 'd': return CYCLE_DELETE;
    case 'D': {
      char *nl = r->ps.n ? memchr(r->ps.s, r->eol, r->ps.n) : NULL;
      if (!nl) return CYCLE_DELETE;
      size_t cut = (size_t)(nl - r->ps.s) + 1;
      memmove(r->ps.s, r->ps.s + cut, r->ps.n - cut);
      r->ps.n -= cut;
      r->ps.s[r->ps.n] = 0;
      return CYCLE_RESTART;
    }
    case 'F': {
      const char *nm = r->cur_name ? r->cur_name : "-";
      out_text(r, r->out, nm, strlen(nm));
      out_raw(r, r->out, "\n", 1);
      break;
    }
    case 'g':
    case 'G':
    case 'h':
    case 'H':
      if (space_copy(r, c->cmd == 'g' || c->cmd == 'G', c->cmd == 'G' || c->cmd == 'H') < 0)
        return CYCLE_QUIT;
      break;
    case 'x': {
      sstr t = r->ps;
      r->ps = r->hs;
      r->hs = t;
      bool ch = r->chomped;
      r->chomped = r->hs_chomped;
      r->hs_chomped = ch;
      break;
    }
    case 'l': do_list(r, c->int_arg >= 0 ? c->int_arg : r->line_len); break;
    case 'n':
      if (!r->has_next || r->quit) return CYCLE_QUIT;
      if (!r->quiet) out_line(r, r->out, r->ps.s ? r->ps.s : "", r->ps.n, r->chomped);
      dump_append(r);
      if (!take_next(r, false)) return CYCLE_QUIT;
      break;
    case 'N':
      if (!r->has_next) return CYCLE_QUIT;
      dump_append(r);
      if (!take_next(r, true)) return CYCLE_QUIT;
      break;
    /* a last line without its newline is printed without one (GNU) */
    case 'p': out_line(r, r->out, r->ps.s ? r->ps.s : "", r->ps.n, r->chomped); break;
    case 'P': {
      size_t fl = first_line_len(r);
      out_line(r, r->out, r->ps.s ? r->ps.s : "", fl, fl < r->ps.n || r->chomped);
      break;
    }
    case 'q':
      r->exit_code = c->int_arg >= 0 ? c->int_arg : 0;
      return CYCLE_QUIT;
    case 'Q':
      r->exit_code = c->int_arg >= 0 ? c->int_arg : 0;
      r->quit_silent = true;
      return CYCLE_QUIT;
    case 'r': app_push(r, 1, c->fname, 0, NULL); break;
    case 'R': do_R(r, c); break;
    case 's': do_subst(r, c); break;
    case 'w': wfile_line(r, c->wf, r->ps.s ? r->ps.s : "", r->ps.n, r->chomped); break;
    case 'W': wfile_line(r, c->wf, r->ps.s ? r->ps.s : "", first_line_len(r), true); break;
    case 'y': do_translate(r, c); break;
    case 'z': r->ps.n = 0; if (r->ps.s) r->ps.s[0] = 0; break;
    default: break;
    }
  }
  return CYCLE_END;
}

/* Runs cycles until the input (or this file, in separate mode) ends. */
static void process_stream(sed_run *r) {
  while (!r->fatal && !r->quit) {
    if (r->out_stdout.err || r->ctx->out_err) {
      /* stdout is gone (EPIPE: `sed p | head -1`): stop reading. */
      r->fatal = true;
      break;
    }
    if (!take_next(r, false)) break;
    int how;
    for (;;) {
      r->replaced = false;
      how = execute(r);
      if (how != CYCLE_RESTART) break;
      /* D: restart without reading (nor printing or appending). */
      if (r->fatal) break;
    }
    if (r->fatal) break;
    if ((how == CYCLE_END || (how == CYCLE_QUIT && !r->quit_silent)) && !r->quiet)
      out_line(r, r->out, r->ps.s ? r->ps.s : "", r->ps.n, r->chomped);
    if (how == CYCLE_QUIT && !r->quit_silent) dump_append(r);
    else if (how != CYCLE_QUIT) dump_append(r);
    if (how == CYCLE_QUIT) r->quit = true;
  }
}

/* Separate mode (-s, -i): the open file alone, line numbers from 1. */
static void process_file(sed_run *r) {
  r->lineno = 0;
  fill_next(r);
  process_stream(r);
  if (r->in) {
    cmd_in_close(r->in);
    r->in = NULL;
  }
}

/* ---- in-place editing ------------------------------------------------------------------ */

static char *backup_name(sed_run *r, const char *target) {
  const char *base = strrchr(target, '/') ? strrchr(target, '/') + 1 : target;
  size_t dirlen = (size_t)(base - target);
  const char *suf = r->suffix;
  if (!strchr(suf, '*')) {
    char *b = malloc(strlen(target) + strlen(suf) + 1);
    if (b) strcat(strcpy(b, target), suf);
    return b;
  }
  sstr s = {0};
  for (const char *p = suf; *p; p++) {
    if (*p == '*') str_add(r, &s, base, strlen(base));
    else str_add(r, &s, p, 1);
  }
  if (!s.s) return NULL;
  if (strchr(s.s, '/')) return s.s;
  char *b = malloc(dirlen + s.n + 1);
  if (b) {
    memcpy(b, target, dirlen);
    memcpy(b + dirlen, s.s, s.n + 1);
  }
  free(s.s);
  return b;
}

static void edit_in_place(sed_run *r, const char *name) {
  cmd_ctx *ctx = r->ctx;
  if (strcmp(name, "-") == 0) {
    cmd_errorf(ctx, "couldn't edit %s: not a regular file", name);
    r->status = 4;
    r->fatal = true;
    return;
  }
  store_stat st;
  int rc = store_path_stat(ctx->store, ctx->cwd, name, &st);
  if (rc < 0) {
    cmd_errorf(ctx, "can't read %s: %s", name, cmd_strerror(rc));
    cmd_record_error(ctx, rc, name);
    r->status = 2;
    return;
  }
  if (!S_ISREG(st.mode)) {
    cmd_errorf(ctx, "couldn't edit %s: not a regular file", name);
    r->status = 4;
    r->fatal = true;
    return;
  }
  char *target = NULL;
  if (r->follow) {
    if (store_realpath(ctx->store, ctx->cwd, name, &target) < 0) target = NULL;
  }
  if (!target) target = strdup(name);
  if (!target) return;
  cmd_in *in;
  rc = cmd_in_open(ctx, name, &in);
  if (rc < 0) {
    cmd_errorf(ctx, "can't read %s: %s", name, cmd_strerror(rc));
    r->status = 2;
    free(target);
    return;
  }
  /* A temporary file in the target's directory. */
  const char *base = strrchr(target, '/') ? strrchr(target, '/') + 1 : target;
  size_t dirlen = (size_t)(base - target);
  char *tmp = malloc(dirlen + 32);
  int fd = -1;
  for (int attempt = 0; tmp && attempt < 100 && fd < 0; attempt++) {
    memcpy(tmp, target, dirlen);
    snprintf(tmp + dirlen, 32, "sed%06x", (unsigned)((uintptr_t)tmp * 2654435761u + (unsigned)attempt * 7919u + (unsigned)ctx->now) & 0xFFFFFFu);
    fd = ctx->io->open(ctx->io_ud, tmp, O_WRONLY | O_CREAT | O_EXCL, st.mode & 0777);
    if (fd != -EEXIST && fd < 0) break;
  }
  if (fd < 0) {
    cmd_errorf(ctx, "couldn't open temporary file %s: %s", tmp ? tmp : target, cmd_strerror(fd < 0 ? fd : -ENOMEM));
    cmd_in_close(in);
    free(tmp);
    free(target);
    r->status = 4;
    r->fatal = true;
    return;
  }
  store_path_chmod(ctx->store, ctx->cwd, tmp, st.mode & 07777);
  r->in = in;
  r->in_name = name;
  r->out_file = (sed_out){fd, false, NULL, 0, 0};
  r->out = &r->out_file;
  process_file(r);
  out_flush(r, &r->out_file);
  ctx->io->close(ctx->io_ud, fd);
  int werr = r->out_file.err;
  free(r->out_file.buf);
  r->out_file.buf = NULL;
  r->out = &r->out_stdout;
  if (werr || (r->fatal && !r->quit)) {
    if (werr) {
      cmd_errorf(ctx, "couldn't write to %s: %s", tmp, cmd_strerror(werr));
      r->status = 4;
      r->fatal = true;
    }
    store_path_unlink(ctx->store, ctx->cwd, tmp);
  } else {
    if (r->suffix && *r->suffix) {
      char *bak = backup_name(r, target);
      if (bak) {
        rc = store_path_rename(ctx->store, ctx->cwd, target, bak);
        if (rc < 0) cmd_errorf(ctx, "cannot rename %s: %s", target, cmd_strerror(rc));
        free(bak);
      }
    }
    rc = store_path_rename(ctx->store, ctx->cwd, tmp, target);
    if (rc < 0) {
      cmd_errorf(ctx, "cannot rename %s: %s", tmp, cmd_strerror(rc));
      store_path_unlink(ctx->store, ctx->cwd, tmp);
      r->status = 4;
      r->fatal = true;
    }
  }
  free(tmp);
  free(target);
}

/* ---- main ------------------------------------------------------------------------------- */

/* Quiet (':'): a bad option prints getopt's message and then the usage. */
enum { O_DEBUG = CMD_OPT_LONG, O_FOLLOW, O_POSIX, O_SANDBOX };
static const char sed_options[] =
    ":(debug)(follow-symlinks)(posix)(sandbox)(help)(version)n(quiet)(silent)e:(expression)"
    "f:(file)i::(in-place)l:(line-length)z(null-data)(zero-terminated)E(regexp-extended)"
    "s(separate)u(unbuffered)b(binary)r";

static bool locale_is_utf8(cmd_ctx *ctx) {
  const char *names[] = {"LC_ALL", "LC_CTYPE", "LANG"};
  for (int i = 0; i < 3; i++) {
    const char *v = cmd_getenv(ctx, names[i]);
    if (v && *v) return strcasestr(v, "utf-8") || strcasestr(v, "utf8");
  }
  return true;
}

static int poll_cb(void *ud) { return cmd_poll((cmd_ctx *)ud); }

static int usage_error(cmd_ctx *ctx) {
  cmd_flush(ctx);
  cmd_err_raw(ctx, "%s", sed_usage_text);
  return 1;
}

int cmd_sed_main(cmd_ctx *ctx, int argc, char **argv) {
  sed_run *r = calloc(1, sizeof *r);
  if (r) r->hs_chomped = true;
  if (!r) {
    cmd_errorf(ctx, "memory exhausted");
    return 4;
  }
  r->ctx = ctx;
  r->line_len = 70;
  r->eol = '\n';
  r->max = ctx->max_string ? ctx->max_string : (256u << 20);
  r->out_stdout.fd = -1;
  r->out = &r->out_stdout;
  r->o.utf8 = locale_is_utf8(ctx);
  r->ctl.poll = poll_cb;
  r->ctl.ud = ctx;
  int status = 0;
  sed_source *src = NULL;
  size_t nsrc = 0;
  char **filebufs = NULL;
  size_t nfilebufs = 0;
  int nexpr = 0;
  bool have_script = false;

  cmd_getopt_state st = CMD_GETOPT_INIT;
  /* A loop: -e and -f add up in order, -f and -l are checked where they
   * stand; the plain flags are read after it. */
  for (int c; (c = cmd_getopt(ctx, &st, argc, argv, sed_options, NULL)) != -1;) {
    switch (c) {
    case 'e':
    case 'f': {
      sed_source *ns = realloc(src, (nsrc + 1) * sizeof *ns);
      if (!ns) goto nomem;
      src = ns;
      sed_source *s = &src[nsrc];
      memset(s, 0, sizeof *s);
      if (c == 'e') {
        s->text = st.arg;
        s->len = strlen(st.arg);
        s->expr_no = ++nexpr;
      } else {
        char *data = NULL;
        size_t len = 0;
        cmd_in *in;
        int rc = strcmp(st.arg, "-") == 0 ? (in = cmd_in_fd(ctx, 0)) ? 0 : -ENOMEM
                                           : cmd_in_open(ctx, st.arg, &in);
        if (rc == 0) {
          rc = cmd_in_slurp(in, &data, &len);
          cmd_in_close(in);
        }
        if (rc < 0) {
          cmd_errorf(ctx, "couldn't open file %s: %s", st.arg, cmd_strerror(rc));
          free(data);
          status = 1;
          goto out;
        }
        char **nf = realloc(filebufs, (nfilebufs + 1) * sizeof *nf);
        if (!nf) {
          free(data);
          goto nomem;
        }
        filebufs = nf;
        filebufs[nfilebufs++] = data;
        /* A final newline ends the last command; drop it so positions match. */
        if (len > 0 && data[len - 1] == '\n') len--;
        s->text = data ? data : "";
        s->len = len;
        s->file = st.arg;
      }
      nsrc++;
      have_script = true;
      break;
    }
    case 'l': {
      char *end;
      long v = strtol(st.arg, &end, 10);
      if (end == st.arg || *end || v < 0) {
        cmd_errorf(ctx, "invalid line length: %s", st.arg);
        status = 1;
        goto out;
      }
      r->line_len = v > 0x7fffffff ? 0x7fffffff : (int)v;
      break;
    }
    case CMD_OPT_HELP:
      cmd_outs(ctx, sed_usage_text);
      cmd_outs(ctx, "E-mail bug reports to: <bug-sed@gnu.org>.\n");
      status = 0;
      goto out;
    case CMD_OPT_VERSION: status = cmd_print_version(ctx); goto out;
    case '?':
    case ':':
      cmd_getopt_report(ctx, &st, argc, argv, c, NULL);
      status = usage_error(ctx);
      goto out;
    }
  }
  r->quiet = cmd_opt_on(&st, 'n');
  r->inplace = cmd_opt_on(&st, 'i');
  r->suffix = cmd_opt_arg(&st, 'i');
  r->separate = r->inplace || cmd_opt_on(&st, 's');
  r->o.extended = cmd_opt_on(&st, 'E') || cmd_opt_on(&st, 'r');
  if (cmd_opt_on(&st, 'z')) r->o.nulldata = true, r->eol = '\0';
  r->follow = cmd_opt_on(&st, O_FOLLOW);
  r->o.posix = cmd_opt_on(&st, O_POSIX);
  r->o.sandbox = cmd_opt_on(&st, O_SANDBOX);
  int ai = st.ind;
  if (!have_script) {
    if (ai >= argc) {
      status = usage_error(ctx);
      goto out;
    }
    src = calloc(1, sizeof *src);
    if (!src) goto nomem;
    src[0].text = argv[ai];
    src[0].len = strlen(argv[ai]);
    src[0].expr_no = 1;
    nsrc = 1;
    ai++;
  }
  status = sed_compile(ctx, src, nsrc, &r->o, &r->prog);
  if (status) goto out;
  if (r->prog.quiet_hash_n) r->quiet = true;
  /* 0,/re/ ranges are active before the first line. */
  for (size_t i = 0; i < r->prog.n; i++)
    if (r->prog.cmds[i].a1.kind == SA_ZERO) r->prog.cmds[i].range_active = true;

  r->files = cmd_file_operands(argc, argv, ai, &r->nfiles);
  if (r->inplace) {
    for (int i = 0; i < r->nfiles && !r->fatal && !r->quit; i++) edit_in_place(r, r->files[i]);
  } else if (r->separate) {
    r->fi = 0;
    while (!r->fatal && !r->quit && open_next(r)) process_file(r);
  } else {
    r->fi = 0;
    fill_next(r);
    process_stream(r);
  }
  if (r->in) cmd_in_close(r->in);
  r->in = NULL;
  /* Flush w files. */
  for (sed_wfile *w = r->prog.wfiles; w; w = w->next) (void)w;
  int fr = cmd_flush(ctx);
  if (r->out_stdout.err || fr < 0) {
    status = cmd_write_error(ctx, r->out_stdout.err ? r->out_stdout.err : fr);
    goto out;
  }
  if (r->fatal) status = r->status ? r->status : 4;
  else if (r->quit) status = r->exit_code ? r->exit_code : r->status;
  else status = r->status;
  goto out;

nomem:
  cmd_errorf(ctx, "memory exhausted");
  status = 4;
out:
  sed_prog_free(ctx, &r->prog);
  for (size_t i = 0; i < r->napp; i++) free(r->app[i].owned);
  free(r->app);
  free(r->ps.s);
  free(r->hs.s);
  free(r->next.s);
  free(r->tmp.s);
  free(r->out_file.buf);
  free(src);
  for (size_t i = 0; i < nfilebufs; i++) free(filebufs[i]);
  free(filebufs);
  free(r);
  return status;
}
