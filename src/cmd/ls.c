/*
 * ls - list directory contents (GNU coreutils 9.1 compatible).
 *
 *   ls [OPTION]... [FILE]...
 *   -a -A -b -B -c -C -d -f -F -g -G -h -H -i -I PAT -k -l -L -m -n -N -o -p
 *   -q -Q -r -R -s -S -t -T -u -U -v -w COLS -x -X -1, --all --almost-all
 *   --escape --block-size=SIZE --ignore-backups --color[=WHEN] --classify[=WHEN]
 *   --file-type --format=WORD --full-time --group-directories-first --no-group
 *   --human-readable --si --dereference-command-line --hide=PAT
 *   --indicator-style=WORD --inode --ignore=PAT --kibibytes --dereference
 *   --numeric-uid-gid --literal --hide-control-chars --show-control-chars
 *   --quote-name --quoting-style=WORD --reverse --recursive --size --sort=WORD
 *   --time=WORD --time-style=STYLE --tabsize=COLS --width=COLS --zero
 *
 * Design decisions:
 *  - Standard output is never a terminal here, so the defaults are GNU's
 *    non-tty ones: one name per line, literal names, no colour. -C, -x and -m
 *    lay out columns for COLUMNS (or 80) like GNU, tabs included (tab size 8).
 *  - A directory is read once (names + inodes, sorted bytewise by the store =
 *    C.UTF-8 collation) and entries are stat'ed by inode only when the output
 *    needs it (long format, -F, sorting by time/size, -i, -s...), so plain `ls`
 *    of a huge directory costs one query.
 *  - -R is iterative: subdirectories to list go on a stack of malloc'd paths
 *    with their inodes, so a directory is read by inode (depth costs nothing)
 *    and its entries live in an arena of their own, freed once it is listed.
 *    Like GNU, a directory that is one of the directories being listed (an
 *    ancestor reached through a symlink with -L) is refused ("not listing
 *    already-listed directory"), which ends symlink loops; entries are
 *    stat'ed only when the format needs it (GNU's gobble_file rule: -R alone
 *    recurses by the type readdir gives), and a path of PATH_MAX bytes or
 *    more fails as GNU's opendir/lstat do.
 *  - Names are quoted per style as gnulib's quotearg does in C.UTF-8:
 *    printable characters (valid UTF-8 included) kept, controls and invalid
 *    bytes escaped or '?' (-q); widths as mbsnwidth counts them.
 *  - Sizes, blocks and owners come from lib/fs (the sandbox's ext4-like block
 *    model, /etc/passwd of the sandbox); dates from lib/datetime (TZ of the
 *    environment, "recent" meaning within six months before ctx->now).
 *  - Colours (--color=always; auto is never as stdout is no terminal) follow
 *    GNU ls 9.1: LS_COLORS parsed as GNU does (two-letter keys, *.ext
 *    suffixes matched case-insensitively, the last defined first, \ and ^
 *    escapes, "unparsable value" disables colour), or GNU's built-in table
 *    when LS_COLORS is empty and TERM is a colour terminal (the dircolors
 *    TERM list) or COLORTERM is set. A name is wrapped in lc SEQ rc ... then
 *    ec (or lc rs rc); the first escape of the run is preceded by one reset,
 *    and \e[K follows a name that may wrap. Symlink targets are coloured
 *    only when GNU stats them (-F / --file-type, or an or/mi/target setting).
 *    Colour turns tabs off, as in GNU. --hyperlink is accepted, not emitted.
 */
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/lib/buf.h"
#include "cmd/lib/fs.h"
#include "cmd/lib/gnu.h"
#include "cmd/lib/datetime.h"

CMD_DEFINE("ls", cmd_ls_main);
CMD_DEFINE("dir", cmd_ls_main);
CMD_DEFINE("vdir", cmd_ls_main);

enum { FMT_ONE, FMT_LONG, FMT_COLS, FMT_ACROSS, FMT_COMMAS };
enum { SORT_NAME, SORT_NONE, SORT_TIME, SORT_SIZE, SORT_EXT, SORT_VERSION, SORT_WIDTH };
enum { TIME_MTIME, TIME_ATIME, TIME_CTIME };
enum { IND_NONE, IND_SLASH, IND_FILETYPE, IND_CLASSIFY };
enum { Q_LITERAL, Q_SHELL, Q_SHELL_ALWAYS, Q_SHELL_ESCAPE, Q_SHELL_ESCAPE_ALWAYS,
       Q_C, Q_ESCAPE, Q_LOCALE };
enum { DEREF_NEVER, DEREF_CMDLINE_DIR, DEREF_CMDLINE, DEREF_ALL, DEREF_UNSET };

/* GNU's indicator table, in the order of its two-letter LS_COLORS keys. */
enum { C_LEFT, C_RIGHT, C_END, C_RESET, C_NORM, C_FILE, C_DIR, C_LINK, C_FIFO, C_SOCK,
       C_BLK, C_CHR, C_MISSING, C_ORPHAN, C_EXEC, C_DOOR, C_SETUID, C_SETGID, C_STICKY,
       C_OTHER_WRITABLE, C_STICKY_OTHER_WRITABLE, C_CAP, C_MULTIHARDLINK, C_CLR_TO_EOL,
       C_NIND };

/* A byte string of LS_COLORS (not NUL-terminated; s == NULL: unset). */
typedef struct ls_seq {
  const char *s; /* bytes (arena or static) */
  size_t len;    /* length */
} ls_seq;

/* A *.ext entry of LS_COLORS; the list's head is the last one defined. */
typedef struct ls_ext {
  ls_seq ext;          /* the suffix, matched in any case (coreutils 9.1) */
  ls_seq seq;          /* its colour */
  struct ls_ext *next; /* earlier definitions */
} ls_ext;

/* The colour state of one ls call. */
typedef struct ls_colors {
  ls_seq ind[C_NIND]; /* indicators */
  ls_ext *ext;        /* suffixes */
  bool link_target;   /* ln=target: links coloured as what they point to */
  bool check_links;   /* GNU's check_symlink_mode: targets are stat'ed */
  bool used;          /* an escape was written (the initial reset is out) */
} ls_colors;

/* One file to show. */
typedef struct ls_ent {
  const char *name;      /* as displayed (operand text or entry name) */
  const char *path;      /* path to stat, relative to cwd */
  store_stat st;         /* presented stat (valid when stat_ok) */
  bool stat_ok;          /* st is valid */
  bool have_stat;        /* a stat was attempted */
  uint32_t dmode;        /* type bits known from readdir */
  store_ino ino;         /* inode from readdir */
  const char *target;    /* symlink target (long format), or NULL */
  bool target_ok;        /* the target could be stat'ed */
  uint32_t target_mode;  /* its mode */
  bool is_dir_arg;       /* an operand to list as a directory */
} ls_ent;

/* Options and state of one ls call. */
typedef struct ls_opts {
  cmd_ctx *ctx;            /* the command */
  int format;              /* FMT_* */
  int sort;                /* SORT_* */
  int time;                /* TIME_* */
  int indicator;           /* IND_* */
  int quoting;             /* Q_* */
  int deref;               /* DEREF_* */
  bool all, almost_all;    /* -a, -A */
  bool ignore_backups;     /* -B */
  bool dirs_only;          /* -d */
  bool reverse;            /* -r */
  bool recursive;          /* -R */
  bool inode;              /* -i */
  bool size;               /* -s */
  bool numeric;            /* -n */
  bool no_owner, no_group; /* -g, -o/-G */
  bool hide_ctrl;          /* -q */
  bool group_dirs_first;   /* --group-directories-first */
  bool zero;               /* --zero: NUL after each entry */
  int human;               /* CMD_HUMAN_* flags or -1 */
  uint64_t block_size;     /* for sizes in -l */
  uint64_t blocks_block;   /* for -s and totals */
  const char *size_suffix; /* "K" etc. when --block-size had no number */
  const char *fmt_old, *fmt_recent; /* strftime formats for -l */
  const char **ignore;     /* -I patterns */
  int nignore;
  const char **hide;       /* --hide patterns */
  int nhide;
  size_t width;            /* line width for -C -x -m */
  size_t tabsize;          /* tab stops (0: spaces only) */
  cmd_tz tz;               /* TZ of the environment */
  cmd_fs_ids *ids;         /* user/group names */
  int status;              /* exit status so far */
  bool first_output;       /* nothing printed yet (for blank lines) */
  bool print_headers;      /* "dir:" lines */
  cmd_fs_inoset active;    /* -R: directories being listed (the ancestors
                              of the current one), for GNU's loop check */
  int time_width;          /* width of a time that cannot be shown (-1: unknown) */
  bool some_quoted;        /* a name of the group being printed is quoted
                              (the others get a space: GNU's alignment) */
  bool color;              /* --color in effect */
  ls_colors col;           /* its table */
  bool author;             /* --author: an author column (the owner) */
  bool kibibytes;          /* -k: blocks in KiB, no unit suffix */
  int blocks_human;        /* human flags for -s and totals, or -1 */
  const char *blocks_suffix; /* unit suffix for -s and totals, or NULL */
  bool block_size_set;     /* --block-size, -h or --si given (then -k does nothing) */
  ls_ent **width_extra;    /* more entries the column widths count (GNU counts */
  size_t nwidth_extra;     /* the directory operands with the file operands) */
} ls_opts;

/* ---- names --------------------------------------------------------------------------- */

static size_t u8_width(const char *s, size_t n) { return cmd_fs_width(s, n); }

static bool shell_special(unsigned char c) {
  return strchr(" \t\n!\"#$&'()*;<=>?[\\]^`{|}~", c) != NULL;
}

/* Bytes of the printable character at s (n bytes left): 1 for printable
 * ASCII, the length of a valid UTF-8 sequence of a printable code point
 * (U+00A0 and up), 0 for a byte that is not printable: a control, DEL, or a
 * byte of invalid UTF-8. *clen gets the bytes of a non-printable character
 * (a valid C1 control is one character of 2 bytes; an invalid byte is 1).
 * This is how gnulib's quotearg decides with mbrtowc and iswprint. */
static size_t ls_printable(const unsigned char *s, size_t n, size_t *clen) {
  *clen = 1;
  if (s[0] < 0x80) return s[0] >= 0x20 && s[0] != 0x7f ? 1 : 0;
  uint32_t wc;
  int l = cmd_utf8_decode(s, n, &wc);
  if (l <= 0) return 0;
  if (wc < 0xa0 || (wc >= 0xd800 && wc <= 0xdfff)) {
    *clen = (size_t)l;
    return 0;
  }
  return (size_t)l;
}

/* C escape of a non-printable byte ("\n", "\377"...) into t (8 bytes). */
static const char *ls_cescape(unsigned char c, char t[8]) {
  const char *e = cmd_c_escape(c);
  if (e) return e;
  snprintf(t, 8, "\\%03o", c);
  return t;
}

/* Quotes `name` per the quoting style into b; returns the display width.
 * Names are walked by character: printable characters (multibyte UTF-8
 * included) are kept, everything else (controls, invalid UTF-8 bytes) is
 * escaped byte by byte, or shown as '?' with -q, as GNU's ls does. */
static size_t ls_quote(ls_opts *o, cmd_buf *b, const char *name) {
  size_t start = b->len;
  size_t n = strlen(name);
  const unsigned char *s = (const unsigned char *)name;
  char t[8];
  switch (o->quoting) {
  case Q_LITERAL:
    if (o->hide_ctrl) {
      for (size_t i = 0; i < n;) {
        size_t cl, pl = ls_printable(s + i, n - i, &cl);
        if (pl) cmd_buf_put(b, name + i, pl);
        else cmd_buf_putc(b, '?');
        i += pl ? pl : cl;
      }
    } else {
      cmd_buf_put(b, name, n);
    }
    break;
  case Q_C:
  case Q_ESCAPE:
  case Q_LOCALE:
    if (o->quoting == Q_C) cmd_buf_putc(b, '"');
    if (o->quoting == Q_LOCALE) cmd_buf_puts(b, "\xe2\x80\x98");
    for (size_t i = 0; i < n;) {
      size_t cl, pl = ls_printable(s + i, n - i, &cl);
      if (pl > 1) {
        cmd_buf_put(b, name + i, pl);
        i += pl;
        continue;
      }
      unsigned char c = s[i++];
      if (!pl) cmd_buf_puts(b, ls_cescape(c, t));
      else if (c == '\\') cmd_buf_puts(b, "\\\\");
      else if (c == '"' && o->quoting == Q_C) cmd_buf_puts(b, "\\\"");
      else if (c == ' ' && o->quoting == Q_ESCAPE) cmd_buf_puts(b, "\\ ");
      else cmd_buf_putc(b, (char)c);
    }
    if (o->quoting == Q_C) cmd_buf_putc(b, '"');
    if (o->quoting == Q_LOCALE) cmd_buf_puts(b, "\xe2\x80\x99");
    break;
  default: { /* shell styles */
    bool always = o->quoting == Q_SHELL_ALWAYS || o->quoting == Q_SHELL_ESCAPE_ALWAYS;
    bool escape = o->quoting == Q_SHELL_ESCAPE || o->quoting == Q_SHELL_ESCAPE_ALWAYS;
    bool need = always || n == 0;
    bool has_ctrl = false, has_squote = false;
    for (size_t i = 0; i < n;) {
      size_t cl, pl = ls_printable(s + i, n - i, &cl);
      /* gnulib: with escapes every non-printable forces quotes ($'..');
       * without, only the C-named controls do, others stay as they are */
      if (!pl) has_ctrl = true;
      if (!pl && (escape || strchr("\a\b\f\n\r\t\v", s[i]))) need = true;
      else if (pl == 1 && (shell_special(s[i]) || (i == 0 && s[i] == '~'))) need = true;
      if (s[i] == '\'') has_squote = true;
      i += pl ? pl : cl;
    }
    if (!need) {
      if (!o->hide_ctrl) {
        cmd_buf_put(b, name, n);
        break;
      }
      for (size_t i = 0; i < n;) { /* -q: '?' for what is not printable */
        size_t cl, pl = ls_printable(s + i, n - i, &cl);
        if (pl) cmd_buf_put(b, name + i, pl);
        else cmd_buf_putc(b, '?');
        i += pl ? pl : cl;
      }
      break;
    }
    if (has_squote && !has_ctrl) {
      bool other = false;
      for (size_t i = 0; i < n; i++)
        if (strchr("\"$`\\", s[i])) other = true;
      if (!other) {
        cmd_buf_putc(b, '"');
        cmd_buf_put(b, name, n);
        cmd_buf_putc(b, '"');
        break;
      }
    }
    bool inq = false;
    for (size_t i = 0; i < n;) {
      size_t cl, pl = ls_printable(s + i, n - i, &cl);
      if (!pl && escape) {
        if (inq) cmd_buf_putc(b, '\''), inq = false;
        cmd_buf_puts(b, "$'");
        for (size_t k = 0; k < cl; k++) cmd_buf_puts(b, ls_cescape(s[i + k], t));
        cmd_buf_putc(b, '\'');
        i += cl;
        continue;
      }
      if (!inq) cmd_buf_putc(b, '\''), inq = true;
      if (!pl) {
        /* without escapes: the bytes as they are, or '?' for -q */
        if (o->hide_ctrl) cmd_buf_putc(b, '?');
        else cmd_buf_put(b, name + i, cl);
        i += cl;
      } else if (s[i] == '\'') {
        cmd_buf_puts(b, "'\\''");
        i++;
      } else {
        cmd_buf_put(b, name + i, pl);
        i += pl;
      }
    }
    if (inq) cmd_buf_putc(b, '\'');
    break;
  }
  }
  return u8_width(b->p ? b->p + start : "", b->len - start);
}

/* ---- stat ------------------------------------------------------------------------------ */

/* GNU's format_needs_stat: every entry of a listing is stat'ed. */
static bool ls_format_needs_stat(const ls_opts *o) {
  return o->format == FMT_LONG || o->sort == SORT_TIME || o->sort == SORT_SIZE ||
         o->inode || o->size;
}

/* GNU's rule (gobble_file) for one directory entry: without a format that
 * needs every stat, the type from readdir is enough, except for symlinks
 * that must be followed (-L, or --group-directories-first, which groups
 * symlinks to directories) and regular files under -F (executable?). So
 * `ls -R` of a directory without x lists names and recurses by type only,
 * with GNU's messages. */
static bool ls_entry_needs_stat(const ls_opts *o, const ls_ent *e) {
  if (ls_format_needs_stat(o) || o->color) return true; /* colours need the modes */
  bool needs_type = o->recursive || o->group_dirs_first || o->indicator != IND_NONE;
  if (!needs_type) return false;
  uint32_t t = e->dmode & S_IFMT;
  if ((t == S_IFLNK || t == 0) && (o->deref == DEREF_ALL || o->group_dirs_first)) return true;
  return t == 0 || (t == S_IFREG && o->indicator == IND_CLASSIFY);
}

/* The entry's type: from its stat, else from readdir. */
static uint32_t ent_type(const ls_ent *e) {
  return (e->stat_ok ? e->st.mode : e->dmode) & S_IFMT;
}

/* Stats an entry (of a directory listing when `dir_ino` is set). */
static void ls_stat(ls_opts *o, ls_ent *e, bool cmdline) {
  cmd_ctx *ctx = o->ctx;
  e->have_stat = true;
  bool follow = o->deref == DEREF_ALL || (cmdline && o->deref == DEREF_CMDLINE);
  int rc;
  store_stat st;
  if (strlen(e->path) >= CMD_PATH_MAX) {
    rc = -ENAMETOOLONG; /* GNU's lstat of the path */
  } else if (!cmdline && e->ino && !(follow && S_ISLNK(e->dmode))) {
    rc = store_getattr(ctx->store, e->ino, &st);
    if (rc == 0) cmd_fs_present(&st);
  } else {
    rc = follow ? cmd_fs_stat(ctx, e->path, &st) : cmd_fs_lstat(ctx, e->path, &st);
    if (rc == 0 && cmdline && o->deref == DEREF_CMDLINE_DIR && S_ISLNK(st.mode)) {
      store_stat t;
      if (cmd_fs_stat(ctx, e->path, &t) == 0 && S_ISDIR(t.mode)) st = t;
    }
  }
  if (rc < 0) {
    e->stat_ok = false;
    if (!cmdline) {
      cmd_errorf(ctx, "cannot access %s: %s", cmd_gnu_quoteaf(ctx, e->path),
                 cmd_strerror(rc));
      cmd_record_error(ctx, rc, e->path);
      if (o->status < 1) o->status = 1;
    }
    return;
  }
  if (o->format == FMT_LONG || o->color) st.nlink = cmd_fs_nlink(ctx, &st);
  e->st = st;
  e->stat_ok = true;
  e->dmode = st.mode;
  if (S_ISLNK(st.mode) && (o->format == FMT_LONG || o->indicator != IND_NONE ||
                           o->group_dirs_first || o->color)) {
    if (o->format == FMT_LONG) {
      char *t = NULL;
      if (store_path_readlink(ctx->store, ctx->cwd, e->path, &t) == 0) {
        e->target = cmd_strdup(ctx, t);
        free(t);
      }
    }
    store_stat ts;
    if (cmd_fs_stat(ctx, e->path, &ts) == 0) {
      e->target_ok = true;
      e->target_mode = ts.mode;
    }
  }
}

/* ---- sorting --------------------------------------------------------------------------- */

static int64_t ent_time(const ls_opts *o, const ls_ent *e, uint32_t *ns) {
  switch (o->time) {
  case TIME_ATIME: *ns = e->st.atime_nsec; return e->st.atime;
  case TIME_CTIME: *ns = e->st.ctime_nsec; return e->st.ctime;
  default: *ns = e->st.mtime_nsec; return e->st.mtime;
  }
}

/* qsort has no context argument: the options of the sorting call are kept in a
 * thread-local, so concurrent ls calls on other threads do not interfere. */
static _Thread_local const ls_opts *tl_sort_opts;

static bool ent_is_dir(const ls_ent *e) {
  if (S_ISDIR(e->dmode)) return true;
  return S_ISLNK(e->dmode) && e->target_ok && S_ISDIR(e->target_mode);
}

static int ent_cmp_inner(const ls_opts *o, const ls_ent *a, const ls_ent *b) {
  switch (o->sort) {
  case SORT_TIME: {
    uint32_t an, bn;
    int64_t at = ent_time(o, a, &an), bt = ent_time(o, b, &bn);
    if (at != bt) return at < bt ? 1 : -1;
    if (an != bn) return an < bn ? 1 : -1;
    break;
  }
  case SORT_SIZE:
    if (a->st.size != b->st.size) return a->st.size < b->st.size ? 1 : -1;
    break;
  case SORT_EXT: {
    const char *ae = strrchr(a->name, '.'), *be = strrchr(b->name, '.');
    int c = strcmp(ae ? ae : "", be ? be : "");
    if (c) return c;
    break;
  }
  case SORT_VERSION:
    return cmd_filevercmp(a->name, b->name);
  case SORT_WIDTH: {
    size_t aw = u8_width(a->name, strlen(a->name)), bw = u8_width(b->name, strlen(b->name));
    if (aw != bw) return aw < bw ? -1 : 1;
    break;
  }
  }
  return strcmp(a->name, b->name);
}

static int ent_cmp(const void *pa, const void *pb) {
  const ls_opts *o = tl_sort_opts;
  const ls_ent *a = *(ls_ent *const *)pa, *b = *(ls_ent *const *)pb;
  if (o->group_dirs_first) {
    bool ad = ent_is_dir(a), bd = ent_is_dir(b);
    if (ad != bd) return ad ? -1 : 1;
  }
  int c = ent_cmp_inner(o, a, b);
  return o->reverse ? -c : c;
}

static void ls_sort(ls_opts *o, ls_ent **v, size_t n) {
  if (o->sort == SORT_NONE || n < 2) return;
  tl_sort_opts = o;
  qsort(v, n, sizeof *v, ent_cmp);
}

/* ---- printing ---------------------------------------------------------------------------- */

static char ind_char(const ls_opts *o, uint32_t mode, bool stat_ok) {
  if (o->indicator == IND_NONE || !stat_ok) return 0;
  if (S_ISDIR(mode)) return '/';
  if (o->indicator == IND_SLASH) return 0;
  if (S_ISLNK(mode)) return '@';
  if (S_ISFIFO(mode)) return '|';
  if (S_ISSOCK(mode)) return '=';
  if (S_ISREG(mode) && o->indicator == IND_CLASSIFY && (mode & 0111)) return '*';
  return 0;
}

/* Column widths of a long listing / -s / -i. */
typedef struct ls_widths {
  int inode, blocks, nlink, owner, group, author, size;
} ls_widths;

/* A count of 512-byte blocks as -s and "total" show it (GNU's human_output_opts
 * and output_block_size: --block-size=K adds the unit, -k sets KiB plain). */
static void ls_blocks_str(const ls_opts *o, uint64_t b, char *buf, size_t n) {
  if (o->blocks_human >= 0) {
    cmd_human(b, 512, o->blocks_human, buf, n);
  } else {
    cmd_blocks_str(b, 512, o->blocks_block, buf, n);
    if (o->blocks_suffix) strncat(buf, o->blocks_suffix, n - strlen(buf) - 1);
  }
}

static void fmt_blocks(const ls_opts *o, const ls_ent *e, char *buf, size_t n) {
  if (!e->stat_ok) {
    snprintf(buf, n, "?");
    return;
  }
  ls_blocks_str(o, cmd_fs_blocks(&e->st), buf, n);
}

static void fmt_size(const ls_opts *o, const ls_ent *e, char *buf, size_t n) {
  if (!e->stat_ok) {
    snprintf(buf, n, "?");
    return;
  }
  if (o->human >= 0)
    cmd_human(e->st.size, 1, o->human, buf, n);
  else {
    cmd_blocks_str(e->st.size, 1, o->block_size, buf, n);
    if (o->size_suffix) strncat(buf, o->size_suffix, n - strlen(buf) - 1);
  }
}

static const char *owner_str(ls_opts *o, uint32_t id, bool group, char *buf, size_t n,
                             bool *named) {
  const char *name = NULL;
  if (!o->numeric)
    name = group ? cmd_fs_groupname(o->ids, id) : cmd_fs_username(o->ids, id);
  *named = name != NULL;
  if (name) return name;
  snprintf(buf, n, "%" PRIu32, id);
  return buf;
}

static void compute_widths(ls_opts *o, ls_ent **v, size_t n, ls_widths *w) {
  memset(w, 0, sizeof *w);
  char buf[64];
  for (size_t i = 0; i < n + o->nwidth_extra; i++) {
    ls_ent *e = i < n ? v[i] : o->width_extra[i - n];
    int l;
    if (o->inode) {
      l = e->stat_ok ? snprintf(buf, sizeof buf, "%" PRId64, e->st.ino) : 1;
      if (l > w->inode) w->inode = l;
    }
    if (o->size) {
      fmt_blocks(o, e, buf, sizeof buf);
      l = (int)strlen(buf);
      if (l > w->blocks) w->blocks = l;
    }
    if (o->format == FMT_LONG) {
      l = e->stat_ok ? snprintf(buf, sizeof buf, "%" PRIu32, e->st.nlink) : 1;
      if (l > w->nlink) w->nlink = l;
      bool named;
      if (!o->no_owner) {
        const char *s = e->stat_ok ? owner_str(o, e->st.uid, false, buf, sizeof buf, &named) : "?";
        l = (int)u8_width(s, strlen(s));
        if (l > w->owner) w->owner = l;
      }
      if (!o->no_group) {
        const char *s = e->stat_ok ? owner_str(o, e->st.gid, true, buf, sizeof buf, &named) : "?";
        l = (int)u8_width(s, strlen(s));
        if (l > w->group) w->group = l;
      }
      if (o->author) { /* the author is the owner on Linux */
        const char *s = e->stat_ok ? owner_str(o, e->st.uid, false, buf, sizeof buf, &named) : "?";
        l = (int)u8_width(s, strlen(s));
        if (l > w->author) w->author = l;
      }
      fmt_size(o, e, buf, sizeof buf);
      l = (int)strlen(buf);
      if (l > w->size) w->size = l;
    }
  }
}

/* The name with quoting and indicator, into b; returns its width. */
/* Quotes a name like ls_quote, with GNU's align_variable_outer_quotes: in
 * long and column formats with a shell quoting style, when some name of the
 * group is quoted, the others get a leading space so the names line up. */
static size_t ls_quote_aligned(ls_opts *o, cmd_buf *b, const char *name) {
  size_t start = b->len;
  size_t w = ls_quote(o, b, name);
  if (o->some_quoted && b->len > start && b->p[start] != '\'' && b->p[start] != '"') {
    cmd_buf_putc(b, ' ');
    memmove(b->p + start + 1, b->p + start, b->len - start - 1);
    b->p[start] = ' ';
    w++;
  }
  return w;
}

/* Inserts n bytes at offset `at` of b. */
static void sb_insert(cmd_buf *b, size_t at, const char *s, size_t n) {
  size_t old = b->len;
  cmd_buf_put(b, s, n); /* grows; the bytes are moved into place below */
  if (b->len != old + n) return; /* out of memory: nothing inserted */
  memmove(b->p + at + n, b->p + at, old - at);
  memcpy(b->p + at, s, n);
}

/* ---- colours ------------------------------------------------------------------------- */

static const char ls_color_keys[C_NIND][3] = {
    "lc", "rc", "ec", "rs", "no", "fi", "di", "ln", "pi", "so", "bd", "cd",
    "mi", "or", "ex", "do", "su", "sg", "st", "ow", "tw", "ca", "mh", "cl"};

/* GNU ls's built-in colours (used when LS_COLORS does not say otherwise). */
static void col_defaults(ls_colors *c) {
  static const char *const def[C_NIND] = {
      [C_LEFT] = "\033[", [C_RIGHT] = "m", [C_RESET] = "0", [C_DIR] = "01;34",
      [C_LINK] = "01;36", [C_FIFO] = "33", [C_SOCK] = "01;35", [C_BLK] = "01;33",
      [C_CHR] = "01;33", [C_EXEC] = "01;32", [C_DOOR] = "01;35", [C_SETUID] = "37;41",
      [C_SETGID] = "30;43", [C_STICKY] = "37;44", [C_OTHER_WRITABLE] = "34;42",
      [C_STICKY_OTHER_WRITABLE] = "30;42", [C_CLR_TO_EOL] = "\033[K"};
  memset(c, 0, sizeof *c);
  for (int i = 0; i < C_NIND; i++)
    if (def[i]) c->ind[i] = (ls_seq){def[i], strlen(def[i])};
}

/* GNU's is_colored: set, and not "0" or "00". */
static bool col_is_colored(const ls_colors *c, int i) {
  const ls_seq *q = &c->ind[i];
  return q->s && q->len &&
         !(q->len == 1 && q->s[0] == '0') && !(q->len == 2 && q->s[0] == '0' && q->s[1] == '0');
}

/* GNU's get_funky_string: decodes one value of LS_COLORS at *src (ending at
 * ':' or NUL, or '=' when equals_end) into dst, with \-escapes (C letters,
 * \e, \_ for space, \? for DEL, octal, \x hex) and ^X caret notation.
 * Returns false on a malformed escape. */
static bool col_funky(const char **src, bool equals_end, char *dst, size_t *len) {
  const char *p = *src;
  size_t n = 0;
  unsigned char num = 0;
  enum { GND, BACKSLASH, OCTAL, HEX, CARET, END, ERR } state = GND;
  while (state < END) {
    switch (state) {
    case GND:
      if (*p == ':' || *p == 0) state = END;
      else if (*p == '\\') state = BACKSLASH, p++;
      else if (*p == '^') state = CARET, p++;
      else if (*p == '=' && equals_end) state = END;
      else dst[n++] = *p++;
      break;
    case BACKSLASH:
      if (*p >= '0' && *p <= '7') state = OCTAL, num = (unsigned char)(*p - '0');
      else if (*p == 'x' || *p == 'X') state = HEX, num = 0;
      else if (*p == 0) state = ERR;
      else {
        switch (*p) {
        case 'a': num = '\a'; break;
        case 'b': num = '\b'; break;
        case 'e': num = 27; break;
        case 'f': num = '\f'; break;
        case 'n': num = '\n'; break;
        case 'r': num = '\r'; break;
        case 't': num = '\t'; break;
        case 'v': num = '\v'; break;
        case '?': num = 127; break;
        case '_': num = ' '; break;
        default: num = (unsigned char)*p; break;
        }
        dst[n++] = (char)num;
        state = GND;
      }
      if (state != ERR) p++;
      break;
    case OCTAL:
      if (*p < '0' || *p > '7') dst[n++] = (char)num, state = GND;
      else num = (unsigned char)((num << 3) + (*p++ - '0'));
      break;
    case HEX:
      if (*p >= '0' && *p <= '9') num = (unsigned char)((num << 4) + (*p++ - '0'));
      else if (*p >= 'a' && *p <= 'f') num = (unsigned char)((num << 4) + (*p++ - 'a' + 10));
      else if (*p >= 'A' && *p <= 'F') num = (unsigned char)((num << 4) + (*p++ - 'A' + 10));
      else dst[n++] = (char)num, state = GND;
      break;
    case CARET:
      state = GND;
      if (*p >= '@' && *p <= '~') dst[n++] = (char)(*p++ & 037);
      else if (*p == '?') dst[n++] = 127, p++;
      else state = ERR;
      break;
    default: break;
    }
  }
  *src = p;
  *len = n;
  return state != ERR;
}

/* TERM values of the dircolors database that mean a colour terminal. */
static bool col_known_term(const char *term) {
  static const char *const terms[] = {
      "Eterm", "ansi", "*color*", "con[0-9]*x[0-9]*", "cons25", "console", "cygwin",
      "*direct*", "dtterm", "gnome", "hurd", "jfbterm", "konsole", "kterm", "linux",
      "linux-c", "mlterm", "putty", "rxvt*", "screen*", "st", "terminator", "tmux*",
      "vt100", "xterm*", NULL};
  if (!term || !*term) return false;
  for (int i = 0; terms[i]; i++)
    if (fnmatch(terms[i], term, 0) == 0) return true;
  return false;
}

/* GNU's parse_ls_color. Returns false when colour must be off (no colour
 * terminal, or an unparsable LS_COLORS, reported as GNU does). */
static bool col_setup(ls_opts *o) {
  cmd_ctx *ctx = o->ctx;
  ls_colors *c = &o->col;
  col_defaults(c);
  const char *p = cmd_getenv(ctx, "LS_COLORS");
  if (!p || !*p) {
    const char *ct = cmd_getenv(ctx, "COLORTERM");
    return (ct && *ct) || col_known_term(cmd_getenv(ctx, "TERM"));
  }
  char *buf = cmd_alloc(ctx, strlen(p) + 1); /* decoded values never grow */
  if (!buf) return false;
  bool ok = true;
  while (ok && *p) {
    if (*p == ':') {
      p++;
      continue;
    }
    if (*p == '*') {
      ls_ext *e = cmd_alloc(ctx, sizeof *e);
      if (!e) return false;
      p++;
      e->ext.s = buf;
      ok = col_funky(&p, true, buf, &e->ext.len);
      buf += e->ext.len;
      if (ok && *p++ == '=') {
        e->seq.s = buf;
        ok = col_funky(&p, false, buf, &e->seq.len);
        buf += e->seq.len;
      } else {
        ok = false;
      }
      e->next = c->ext;
      c->ext = e;
      continue;
    }
    char label[3] = {p[0], p[1], 0};
    if (!p[1]) {
      ok = false;
      break;
    }
    p += 2;
    if (*p++ != '=') {
      ok = false;
      break;
    }
    int k = 0;
    while (k < C_NIND && strcmp(label, ls_color_keys[k]) != 0) k++;
    if (k == C_NIND) {
      cmd_errorf(ctx, "unrecognized prefix: %s", cmd_gnu_quote(ctx, label));
      ok = false;
      break;
    }
    c->ind[k].s = buf;
    ok = col_funky(&p, false, buf, &c->ind[k].len);
    buf += c->ind[k].len;
  }
  if (!ok) {
    cmd_errorf(ctx, "unparsable value for LS_COLORS environment variable");
    return false;
  }
  const ls_seq *ln = &c->ind[C_LINK];
  c->link_target = ln->len == 6 && memcmp(ln->s, "target", 6) == 0;
  return true;
}

/* GNU's get_color_indicator: the colour of an entry (or of its symlink
 * target), or NULL for none. `linkok` is whether GNU would have found the
 * target (it looks only under -F/--file-type or check_symlink_mode). */
static const ls_seq *col_of(const ls_opts *o, const ls_ent *e, bool target) {
  const ls_colors *c = &o->col;
  bool linkok = e->target_ok &&
                (c->check_links || (o->format == FMT_LONG && o->indicator >= IND_FILETYPE));
  const char *name;
  uint32_t mode;
  int type;
  if (target) {
    name = e->target;
    mode = linkok ? e->target_mode : 0;
  } else {
    name = e->name;
    mode = (c->link_target && linkok) ? e->target_mode : e->st.mode;
  }
  if (target && !linkok && col_is_colored(c, C_MISSING)) {
    type = C_MISSING;
  } else if (!e->stat_ok) {
    switch (e->dmode & S_IFMT) {
    case S_IFREG: type = C_FILE; break;
    case S_IFDIR: type = C_DIR; break;
    case S_IFLNK: type = C_LINK; break;
    case S_IFIFO: type = C_FIFO; break;
    case S_IFSOCK: type = C_SOCK; break;
    case S_IFBLK: type = C_BLK; break;
    case S_IFCHR: type = C_CHR; break;
    default: type = C_ORPHAN; break;
    }
  } else if (S_ISREG(mode)) {
    type = C_FILE;
    if ((mode & S_ISUID) && col_is_colored(c, C_SETUID)) type = C_SETUID;
    else if ((mode & S_ISGID) && col_is_colored(c, C_SETGID)) type = C_SETGID;
    else if ((mode & 0111) && col_is_colored(c, C_EXEC)) type = C_EXEC;
    else if (e->st.nlink > 1 && col_is_colored(c, C_MULTIHARDLINK)) type = C_MULTIHARDLINK;
  } else if (S_ISDIR(mode)) {
    type = C_DIR;
    if ((mode & S_ISVTX) && (mode & S_IWOTH) && col_is_colored(c, C_STICKY_OTHER_WRITABLE))
      type = C_STICKY_OTHER_WRITABLE;
    else if ((mode & S_IWOTH) && col_is_colored(c, C_OTHER_WRITABLE)) type = C_OTHER_WRITABLE;
    else if ((mode & S_ISVTX) && col_is_colored(c, C_STICKY)) type = C_STICKY;
  } else if (S_ISLNK(mode)) type = C_LINK;
  else if (S_ISFIFO(mode)) type = C_FIFO;
  else if (S_ISSOCK(mode)) type = C_SOCK;
  else if (S_ISBLK(mode)) type = C_BLK;
  else if (S_ISCHR(mode)) type = C_CHR;
  else type = C_ORPHAN;
  const ls_ext *ext = NULL;
  if (type == C_FILE && name) {
    size_t len = strlen(name);
    for (ext = c->ext; ext; ext = ext->next) {
      if (ext->ext.len > len) continue;
      const char *tail = name + len - ext->ext.len;
      if (strncasecmp(tail, ext->ext.s, ext->ext.len) == 0) break; /* 9.1: any case */
    }
  }
  if (type == C_LINK && !linkok && (c->link_target || col_is_colored(c, C_ORPHAN)))
    type = C_ORPHAN;
  const ls_seq *q = ext ? &ext->seq : &c->ind[type];
  return q->s ? q : NULL;
}

static void col_put(cmd_buf *b, const ls_seq *q) {
  if (q->s) cmd_buf_put(b, q->s, q->len);
}

/* Appends a name (quoted, aligned) in its colour and returns its width.
 * *color_at gets the offset in b of the first escape written (SIZE_MAX if
 * none): col_first_use() puts GNU's one-time reset there. start_col is the
 * display column where the entry starts (for the \e[K of a name that may
 * wrap at the line width). */
static size_t put_name(ls_opts *o, cmd_buf *b, const char *name, const ls_seq *seq,
                       size_t start_col, size_t *color_at) {
  size_t start = b->len;
  size_t w = ls_quote_aligned(o, b, name);
  *color_at = SIZE_MAX;
  if (!o->color) return w;
  const ls_colors *c = &o->col;
  bool norm = col_is_colored(c, C_NORM);
  if (!seq && !norm) return w;
  if (seq) {
    size_t at = start + (o->some_quoted && b->len > start && b->p[start] == ' ' ? 1 : 0);
    cmd_buf pre = {0};
    if (norm) {
      col_put(&pre, &c->ind[C_LEFT]);
      col_put(&pre, &c->ind[C_RIGHT]);
    }
    col_put(&pre, &c->ind[C_LEFT]);
    col_put(&pre, seq);
    col_put(&pre, &c->ind[C_RIGHT]);
    if (pre.p) sb_insert(b, at, pre.p, pre.len);
    free(pre.p);
    *color_at = at;
  } else {
    *color_at = b->len;
  }
  if (c->ind[C_END].s) {
    col_put(b, &c->ind[C_END]);
  } else {
    col_put(b, &c->ind[C_LEFT]);
    col_put(b, &c->ind[C_RESET]);
    col_put(b, &c->ind[C_RIGHT]);
  }
  size_t L = o->width;
  if (L && w && start_col / L != (start_col + w - 1) / L) col_put(b, &c->ind[C_CLR_TO_EOL]);
  return w;
}

/* GNU's set_normal_color at the start of each entry: lc no rc when "no" is
 * set. Returns the offset of the escape (SIZE_MAX if none). */
static size_t col_normal(ls_opts *o, cmd_buf *b) {
  if (!o->color || !col_is_colored(&o->col, C_NORM)) return SIZE_MAX;
  size_t at = b->len;
  col_put(b, &o->col.ind[C_LEFT]);
  col_put(b, &o->col.ind[C_NORM]);
  col_put(b, &o->col.ind[C_RIGHT]);
  return at;
}

/* GNU's put_indicator: the first escape of the run is preceded by a reset
 * (ec, or lc rs rc). Inserts it at `at` of b once. */
static void col_first_use(ls_opts *o, cmd_buf *b, size_t at) {
  if (at == SIZE_MAX || o->col.used) return;
  o->col.used = true;
  cmd_buf pre = {0};
  const ls_colors *c = &o->col;
  if (c->ind[C_END].s) {
    col_put(&pre, &c->ind[C_END]);
  } else {
    col_put(&pre, &c->ind[C_LEFT]);
    col_put(&pre, &c->ind[C_RESET]);
    col_put(&pre, &c->ind[C_RIGHT]);
  }
  if (pre.p) sb_insert(b, at, pre.p, pre.len);
  free(pre.p);
}

static size_t name_and_ind(ls_opts *o, cmd_buf *b, const ls_ent *e, size_t *color_at) {
  size_t w = put_name(o, b, e->name, o->color ? col_of(o, e, false) : NULL, 0, color_at);
  char c = ind_char(o, e->stat_ok ? e->st.mode : e->dmode & S_IFMT, e->stat_ok || e->dmode);
  if (c) {
    cmd_buf_putc(b, c);
    w++;
  }
  return w;
}

/* Prefix of inode and blocks for the short formats; returns its width. */
static size_t short_prefix(ls_opts *o, cmd_buf *b, const ls_ent *e, const ls_widths *w) {
  char buf[64];
  size_t start = b->len;
  bool commas = o->format == FMT_COMMAS;
  if (o->inode) {
    if (e->stat_ok) snprintf(buf, sizeof buf, "%" PRId64, e->st.ino);
    else snprintf(buf, sizeof buf, "?");
    cmd_buf_printf(b, "%*s ", commas ? 0 : w->inode, buf);
  }
  if (o->size) {
    fmt_blocks(o, e, buf, sizeof buf);
    cmd_buf_printf(b, "%*s ", commas ? 0 : w->blocks, buf);
  }
  return b->len - start;
}

static void fmt_time(ls_opts *o, const ls_ent *e, cmd_buf *b) {
  uint32_t ns;
  int64_t t = ent_time(o, e, &ns);
  struct tm tm;
  if (!e->stat_ok || !cmd_time_local(&o->tz, t, &tm)) {
    /* GNU: "?" or the seconds, right-aligned to the width of the epoch in
     * the old-files format (long_time_expected_width) */
    char buf[32];
    snprintf(buf, sizeof buf, "%" PRId64, t);
    if (o->time_width < 0) {
      struct tm tm0;
      char *s0 = NULL;
      long n0 = cmd_time_local(&o->tz, 0, &tm0)
                    ? cmd_strftime(&s0, 4096, o->fmt_old, &tm0, 0, 0)
                    : -1;
      o->time_width = n0 > 0 ? (int)u8_width(s0, (size_t)n0) : 0;
      free(s0);
    }
    const char *v = e->stat_ok ? buf : "?";
    for (int i = (int)strlen(v); i < o->time_width; i++) cmd_buf_putc(b, ' ');
    cmd_buf_puts(b, v);
    return;
  }
  int64_t now = o->ctx->now;
  int64_t six_months_ago = now - 31556952 / 2;
  bool recent = six_months_ago < t && t <= now;
  char *out = NULL;
  long n = cmd_strftime(&out, 4096, recent ? o->fmt_recent : o->fmt_old, &tm, t, ns);
  if (n >= 0) cmd_buf_put(b, out, (size_t)n);
  free(out);
}

static void print_long(ls_opts *o, ls_ent *e, const ls_widths *w, cmd_buf *b) {
  cmd_ctx *ctx = o->ctx;
  char buf[128];
  col_first_use(o, b, col_normal(o, b));
  size_t esc = b->len; /* bytes of escapes before the columns (not displayed) */
  if (o->inode) {
    if (e->stat_ok) snprintf(buf, sizeof buf, "%" PRId64, e->st.ino);
    else snprintf(buf, sizeof buf, "?");
    cmd_buf_printf(b, "%*s ", w->inode, buf);
  }
  if (o->size) {
    fmt_blocks(o, e, buf, sizeof buf);
    cmd_buf_printf(b, "%*s ", w->blocks, buf);
  }
  char mode[11];
  if (e->stat_ok) cmd_fs_modestr(e->st.mode, mode);
  else {
    cmd_fs_modestr(e->dmode, mode);
    memset(mode + 1, '?', 9);
  }
  cmd_buf_puts(b, mode);
  if (e->stat_ok) snprintf(buf, sizeof buf, "%" PRIu32, e->st.nlink);
  else snprintf(buf, sizeof buf, "?");
  cmd_buf_printf(b, " %*s ", w->nlink, buf);
  for (int g = 0; g < 3; g++) { /* owner, group, --author */
    if ((g == 0 && o->no_owner) || (g == 1 && o->no_group) || (g == 2 && !o->author)) continue;
    bool named = true;
    const char *s = e->stat_ok ? owner_str(o, g == 1 ? e->st.gid : e->st.uid, g == 1, buf,
                                           sizeof buf, &named)
                               : "?";
    int sw = (int)u8_width(s, strlen(s));
    int width = g == 1 ? w->group : g == 2 ? w->author : w->owner;
    if (named) {
      cmd_buf_puts(b, s);
      for (int i = sw; i < width; i++) cmd_buf_putc(b, ' ');
    } else {
      for (int i = sw; i < width; i++) cmd_buf_putc(b, ' ');
      cmd_buf_puts(b, s);
    }
    cmd_buf_putc(b, ' ');
  }
  fmt_size(o, e, buf, sizeof buf);
  cmd_buf_printf(b, "%*s ", w->size, buf);
  fmt_time(o, e, b);
  cmd_buf_putc(b, ' ');
  size_t col0 = u8_width(b->p + esc, b->len - esc), at;
  size_t nw = put_name(o, b, e->name, o->color ? col_of(o, e, false) : NULL, col0, &at);
  col_first_use(o, b, at);
  if (e->stat_ok && S_ISLNK(e->st.mode) && e->target) {
    cmd_buf_puts(b, " -> ");
    if (o->color) {
      bool sq = o->some_quoted;
      o->some_quoted = false; /* GNU pads only the entry's own name */
      put_name(o, b, e->target, col_of(o, e, true), col0 + nw + 4, &at);
      o->some_quoted = sq;
      col_first_use(o, b, at);
    } else {
      ls_quote(o, b, e->target);
    }
    if (o->indicator != IND_NONE && e->target_ok) {
      char c = ind_char(o, e->target_mode, true);
      if (c) cmd_buf_putc(b, c);
    }
  } else {
    char c = ind_char(o, e->stat_ok ? e->st.mode : e->dmode & S_IFMT, e->stat_ok);
    if (c) cmd_buf_putc(b, c);
  }
  (void)ctx;
}

static void indent(cmd_buf *b, size_t from, size_t to, size_t tabsize) {
  while (from < to) {
    if (tabsize != 0 && to / tabsize > (from + 1) / tabsize) {
      cmd_buf_putc(b, '\t');
      from += tabsize - from % tabsize;
    } else {
      cmd_buf_putc(b, ' ');
      from++;
    }
  }
}

/* Appends an entry's prepared text; `at` is where its colour starts in it. */
static void put_txt(ls_opts *o, cmd_buf *b, const char *txt, size_t at) {
  size_t base = b->len;
  cmd_buf_puts(b, txt);
  if (at != SIZE_MAX) col_first_use(o, b, base + at);
}

/* Prints a group of entries in the chosen format. */
static int print_entries(ls_opts *o, ls_ent **v, size_t n) {
  cmd_ctx *ctx = o->ctx;
  ls_widths w;
  compute_widths(o, v, n, &w);
  o->some_quoted = false;
  if ((o->format == FMT_LONG || o->format == FMT_COLS || o->format == FMT_ACROSS) &&
      (o->quoting == Q_SHELL || o->quoting == Q_SHELL_ESCAPE)) {
    cmd_buf q = {0};
    for (size_t i = 0; i < n && !o->some_quoted; i++) {
      q.len = 0;
      ls_quote(o, &q, v[i]->name);
      o->some_quoted = q.len && (q.p[0] == '\'' || q.p[0] == '"');
    }
    free(q.p);
  }
  char eol = o->zero ? '\0' : '\n';
  cmd_buf b = {0};
  int rc = 0;
  if (o->format == FMT_LONG || o->format == FMT_ONE) {
    for (size_t i = 0; i < n && rc == 0; i++) {
      b.len = 0;
      if (o->format == FMT_LONG) print_long(o, v[i], &w, &b);
      else {
        col_first_use(o, &b, col_normal(o, &b));
        short_prefix(o, &b, v[i], &w);
        size_t at;
        name_and_ind(o, &b, v[i], &at);
        col_first_use(o, &b, at);
      }
      cmd_buf_putc(&b, eol);
      if (b.p) rc = cmd_out(ctx, b.p, b.len);
      if ((i & 255) == 255 && cmd_poll(ctx)) break;
    }
    free(b.p);
    return rc;
  }
  /* Build each entry's text once. */
  char **txt = malloc((n ? n : 1) * sizeof *txt);
  size_t *len = malloc((n ? n : 1) * sizeof *len);
  size_t *cat = malloc((n ? n : 1) * sizeof *cat); /* where each colour starts */
  if (!txt || !len || !cat) {
    free(txt);
    free(len);
    free(cat);
    return -ENOMEM;
  }
  for (size_t i = 0; i < n; i++) {
    b.len = 0;
    size_t nat = col_normal(o, &b);
    size_t pw = short_prefix(o, &b, v[i], &w);
    size_t nw = name_and_ind(o, &b, v[i], &cat[i]);
    if (nat != SIZE_MAX) cat[i] = nat;
    txt[i] = cmd_strdup(ctx, b.p ? b.p : "");
    len[i] = pw + nw;
  }
  b.len = 0;
  if (o->format == FMT_COMMAS) {
    size_t pos = 0;
    for (size_t i = 0; i < n; i++) {
      if (i) {
        char sep;
        if (pos + len[i] + 2 < o->width || o->width == 0) {
          pos += 2;
          sep = ' ';
        } else {
          pos = 0;
          sep = eol;
        }
        cmd_buf_putc(&b, ',');
        cmd_buf_putc(&b, sep);
      }
      put_txt(o, &b, txt[i], cat[i]);
      pos += len[i];
    }
    if (n) cmd_buf_putc(&b, eol);
  } else if (n > 0) {
    bool by_cols = o->format == FMT_COLS;
    size_t line_length = o->width;
    size_t max_idx = line_length / 3 ? line_length / 3 : 1;
    size_t max_cols = max_idx > n ? n : max_idx;
    if (o->width == 0) max_cols = n;
    /* column_info[i] for i+1 columns */
    size_t *line_len = calloc(max_cols, sizeof *line_len);
    bool *valid = calloc(max_cols, sizeof *valid);
    size_t **col_arr = calloc(max_cols, sizeof *col_arr);
    bool ok = line_len && valid && col_arr;
    for (size_t i = 0; ok && i < max_cols; i++) {
      col_arr[i] = malloc((i + 1) * sizeof **col_arr);
      if (!col_arr[i]) {
        ok = false;
        break;
      }
      valid[i] = true;
      line_len[i] = (i + 1) * 3;
      for (size_t j = 0; j <= i; j++) col_arr[i][j] = 3;
    }
    if (ok) {
      for (size_t f = 0; f < n; f++) {
        for (size_t i = 0; i < max_cols; i++) {
          if (!valid[i]) continue;
          size_t idx = by_cols ? f / ((n + i) / (i + 1)) : f % (i + 1);
          size_t real = len[f] + (idx == i ? 0 : 2);
          if (col_arr[i][idx] < real) {
            line_len[i] += real - col_arr[i][idx];
            col_arr[i][idx] = real;
            valid[i] = o->width == 0 || line_len[i] < line_length;
          }
        }
        if ((f & 1023) == 1023 && cmd_poll(ctx)) break;
      }
      size_t cols;
      for (cols = max_cols; 1 < cols; --cols)
        if (valid[cols - 1]) break;
      size_t *ca = col_arr[cols - 1];
      if (by_cols) {
        size_t rows = n / cols + (n % cols != 0);
        for (size_t row = 0; row < rows; row++) {
          size_t col = 0, f = row, pos = 0;
          for (;;) {
            put_txt(o, &b, txt[f], cat[f]);
            size_t nl = len[f];
            size_t maxl = ca[col++];
            f += rows;
            if (f >= n) break;
            indent(&b, pos + nl, pos + maxl, o->tabsize);
            pos += maxl;
          }
          cmd_buf_putc(&b, eol);
          if (b.len > 65536) {
            rc = cmd_out(ctx, b.p, b.len);
            b.len = 0;
            if (rc) break;
          }
        }
      } else {
        size_t pos = 0;
        put_txt(o, &b, txt[0], cat[0]);
        size_t nl = len[0], maxl = ca[0];
        for (size_t f = 1; f < n; f++) {
          size_t col = f % cols;
          if (col == 0) {
            cmd_buf_putc(&b, eol);
            pos = 0;
          } else {
            indent(&b, pos + nl, pos + maxl, o->tabsize);
            pos += maxl;
          }
          put_txt(o, &b, txt[f], cat[f]);
          nl = len[f];
          maxl = ca[col];
        }
        cmd_buf_putc(&b, eol);
      }
    }
    for (size_t i = 0; col_arr && i < max_cols; i++) free(col_arr[i]);
    free(col_arr);
    free(line_len);
    free(valid);
    if (!ok) rc = -ENOMEM;
  }
  if (rc == 0 && b.len) rc = cmd_out(ctx, b.p, b.len);
  free(b.p);
  free(txt);
  free(len);
  free(cat);
  return rc;
}

/* ---- directories ------------------------------------------------------------------------- */

/* Collects readdir results. */
typedef struct ls_dir {
  ls_opts *o;       /* options */
  const char *dir;  /* the directory's path */
  ls_ent **v;       /* malloc'd array of arena entries */
  size_t n, cap;    /* used / allocated */
  int err;          /* -ENOMEM */
} ls_dir;

static bool ls_ignored(const ls_opts *o, const char *name) {
  if (o->all) return false;
  if (name[0] == '.' && !o->almost_all) return true;
  for (int i = 0; i < o->nignore; i++)
    if (fnmatch(o->ignore[i], name, FNM_PERIOD) == 0) return true;
  if (!o->almost_all) {
    for (int i = 0; i < o->nhide; i++)
      if (fnmatch(o->hide[i], name, FNM_PERIOD) == 0) return true;
  }
  if (o->ignore_backups) {
    size_t l = strlen(name);
    if (l && name[l - 1] == '~') return true;
  }
  return false;
}

static int ls_add(ls_dir *d, const char *name, store_ino ino, uint32_t mode) {
  ls_opts *o = d->o;
  if (cmd_grow(&d->v, &d->cap, d->n + 1, sizeof *d->v)) return d->err = -ENOMEM;
  ls_ent *e = cmd_alloc(o->ctx, sizeof *e);
  if (!e) return d->err = -ENOMEM;
  e->name = cmd_strdup(o->ctx, name);
  /* GNU's attach(): names in "." are stat'ed (and named in messages)
   * without a "./" prefix */
  e->path = strcmp(d->dir, ".") == 0 ? e->name : cmd_join_path(o->ctx, d->dir, name);
  if (!e->name || !e->path) return d->err = -ENOMEM;
  e->ino = ino;
  e->dmode = mode;
  d->v[d->n++] = e;
  return 0;
}

static int ls_readdir_cb(void *ud, const store_dirent *de) {
  ls_dir *d = ud;
  if (ls_ignored(d->o, de->name)) return 0;
  return ls_add(d, de->name, de->ino, de->mode) ? 1 : 0;
}


/* A stack of directories still to list (-R). */
typedef struct ls_pending {
  char **v;        /* malloc'd paths (malloc'd strings); NULL marks the end
                      of a directory's subdirectories: it leaves the set of
                      active directories (GNU's marker entries) */
  store_ino *ino;  /* each one's directory inode (stat'ed when listed) */
  bool *cmdline;   /* listed from the command line */
  size_t n, cap;   /* used / allocated */
} ls_pending;

static int pending_push(ls_pending *p, const char *path, store_ino ino, bool cmdline) {
  /* three arrays of one capacity: each grows to the same size */
  size_t cap_v = p->cap, cap_ino = p->cap, cap_cmdline = p->cap;
  if (cmd_grow(&p->v, &cap_v, p->n + 1, sizeof *p->v) ||
      cmd_grow(&p->ino, &cap_ino, p->n + 1, sizeof *p->ino) ||
      cmd_grow(&p->cmdline, &cap_cmdline, p->n + 1, sizeof *p->cmdline))
    return -ENOMEM;
  p->cap = cap_v;
  char *s = NULL;
  if (path && !(s = strdup(path))) return -ENOMEM;
  p->v[p->n] = s;
  p->ino[p->n] = ino;
  p->cmdline[p->n] = cmdline;
  p->n++;
  return 0;
}

/* Lists one directory, `path`, whose inode is `ino` (or a negative errno
 * saying why it cannot be opened): the directory is reached by inode, so the
 * cost does not grow with its depth. Pushes its subdirectories for -R. */
static int list_dir(ls_opts *o, const char *path, store_ino ino, bool cmdline,
                    ls_pending *pend) {
  cmd_ctx *ctx = o->ctx;
  store_stat dst;
  int rc = ino < 0                          ? (int)ino
           : strlen(path) >= CMD_PATH_MAX ? -ENAMETOOLONG /* GNU's opendir */
                                          : store_getattr(ctx->store, ino, &dst);
  if (rc == 0) cmd_fs_present(&dst);
  if (rc == 0 && !S_ISDIR(dst.mode)) rc = -ENOTDIR;
  ls_dir d = {.o = o, .dir = path};
  if (rc == 0) rc = store_readdir(ctx->store, dst.ino, 0, ls_readdir_cb, &d);
  if (d.err) rc = d.err;
  if (rc == 0 && o->recursive) {
    /* GNU's loop check (after opendir): a directory that is its own
     * ancestor, reached through a followed symlink, is not listed again */
    int in = cmd_fs_inoset_add(&o->active, dst.ino);
    if (in == 0 && pending_push(pend, NULL, dst.ino, false)) in = -ENOMEM;
    if (in < 0) rc = -ENOMEM;
    if (in == 1) {
      cmd_errorf(ctx, "%s: not listing already-listed directory", cmd_gnu_quotef(ctx, path));
      o->status = 2;
      free(d.v);
      return 0;
    }
  }
  if (rc < 0 && rc != -ENOMEM) {
    if (o->print_headers) {
      /* GNU prints the header before the error only for recursion entries */
    }
    cmd_errorf(ctx, "cannot open directory %s: %s", cmd_gnu_quoteaf(ctx, path),
               cmd_strerror(rc));
    cmd_record_error(ctx, rc, path);
    o->status = cmdline ? 2 : (o->status < 1 ? 1 : o->status);
    free(d.v);
    return 0;
  }
  if (rc == -ENOMEM) {
    free(d.v);
    return rc;
  }
  if (o->all) {
    ls_add(&d, ".", 0, S_IFDIR);
    ls_add(&d, "..", 0, S_IFDIR);
  }
  bool can_search = store_access(ctx->store, dst.ino, X_OK) == 0;
  for (size_t i = 0; i < d.n; i++) {
    ls_ent *e = d.v[i];
    if (!ls_entry_needs_stat(o, e)) continue;
    if (!can_search) {
      cmd_errorf(ctx, "cannot access %s: %s", cmd_gnu_quoteaf(ctx, e->path),
                 cmd_strerror(-EACCES));
      if (o->status < 1) o->status = 1;
      e->have_stat = true;
      continue;
    }
    if (!e->ino) {
      /* "." and "..": the directory itself and its parent, by inode */
      e->have_stat = true;
      store_stat st = dst;
      int src = 0;
      if (e->name[1] == '.') {
        src = store_lookup(ctx->store, dst.ino, "..", &st);
        if (src == 0) cmd_fs_present(&st);
      }
      if (src == 0) {
        if (o->format == FMT_LONG || o->color) st.nlink = cmd_fs_nlink(ctx, &st);
        e->st = st;
        e->stat_ok = true;
        e->dmode = st.mode;
      }
      continue;
    }
    ls_stat(o, e, false);
    if ((i & 255) == 255 && cmd_poll(ctx)) {
      free(d.v);
      return -EINTR;
    }
  }
  if (o->sort != SORT_NONE) ls_sort(o, d.v, d.n);
  if (o->print_headers) {
    if (!o->first_output) cmd_outc(ctx, '\n');
    cmd_buf b = {0};
    ls_quote(o, &b, path);
    cmd_buf_puts(&b, ":\n");
    cmd_out(ctx, b.p, b.len);
    free(b.p);
  }
  o->first_output = false;
  if (o->format == FMT_LONG || o->size) {
    uint64_t total = 0;
    for (size_t i = 0; i < d.n; i++)
      if (d.v[i]->stat_ok) total += cmd_fs_blocks(&d.v[i]->st);
    char buf[64];
    ls_blocks_str(o, total, buf, sizeof buf);
    cmd_outf(ctx, "total %s%c", buf, o->zero ? '\0' : '\n');
  }
  rc = print_entries(o, d.v, d.n);
  if (rc == 0 && o->recursive) {
    /* push subdirectories in reverse so they pop in order */
    for (size_t i = d.n; i-- > 0;) {
      ls_ent *e = d.v[i];
      /* by type: a directory that could not be stat'ed is still entered
       * (and fails there with GNU's "cannot open directory") */
      if (ent_type(e) != S_IFDIR) continue;
      if (strcmp(e->name, ".") == 0 || strcmp(e->name, "..") == 0) continue;
      /* entering it by inode skips the lookup in this directory: without x
       * here it fails as opendir() of its path would */
      store_ino sub_ino = !can_search ? -EACCES : e->stat_ok ? e->st.ino : e->ino;
      /* the header of a subdirectory is file_name_concat(dir, name): "./s" */
      const char *sub = e->path == e->name ? cmd_join_path(ctx, path, e->name) : e->path;
      if (!sub || pending_push(pend, sub, sub_ino, false)) {
        rc = -ENOMEM;
        break;
      }
    }
  }
  free(d.v);
  return rc;
}

/* ---- options ----------------------------------------------------------------------------- */

/* The long-only options, in the order of the option string. */
enum {
  OPT_AUTHOR = CMD_OPT_LONG, OPT_BLOCK_SIZE, OPT_COLOR, OPT_CLASSIFY, OPT_FILE_TYPE,
  OPT_FORMAT, OPT_FULL_TIME, OPT_GROUP_DIRS, OPT_SI, OPT_DEREF_DIR, OPT_HIDE,
  OPT_HYPERLINK, OPT_INDICATOR, OPT_SHOW_CTRL, OPT_QUOTING, OPT_SORT, OPT_TIME,
  OPT_TIME_STYLE, OPT_ZERO
};

static const char ls_spec[] =
    "(author)(block-size):(color)::(classify)::(file-type)(format):(full-time)"
    "(group-directories-first)(si)(dereference-command-line-symlink-to-dir)(hide):"
    "(hyperlink)::(indicator-style):(show-control-chars)(quoting-style):(sort):(time):"
    "(time-style):(zero)(help)(version)a(all)A(almost-all)b(escape)B(ignore-backups)"
    "d(directory)D(dired)G(no-group)h(human-readable)H(dereference-command-line)"
    "i(inode)I:(ignore)k(kibibytes)L(dereference)n(numeric-uid-gid)N(literal)"
    "q(hide-control-chars)Q(quote-name)r(reverse)R(recursive)s(size)T:(tabsize)w:(width)"
    "Z(context)"
    "cfglmoptuvxCFSUX1";
/* A long-only option's second name: an alias, so "--col" is not ambiguous. */
static const cmd_longopt ls_colour[] = {{"colour", 2, OPT_COLOR}, {0, 0, 0}};

static const char ls_usage[] =
    "Usage: ls [OPTION]... [FILE]...\n"
    "List information about the FILEs (the current directory by default).\n"
    "Sort entries alphabetically if none of -cftuvSUX nor --sort is specified.\n"
    "\n"
    "  -a, --all                  do not ignore entries starting with .\n"
    "  -A, --almost-all           do not list implied . and ..\n"
    "  -b, --escape               print C-style escapes for nongraphic characters\n"
    "      --block-size=SIZE      with -l, scale sizes by SIZE when printing them\n"
    "  -B, --ignore-backups       do not list implied entries ending with ~\n"
    "  -c                         sort by / show ctime\n"
    "  -C                         list entries by columns\n"
    "  -d, --directory            list directories themselves, not their contents\n"
    "  -f                         list all entries in directory order\n"
    "  -F, --classify             append indicator (one of */=>@|) to entries\n"
    "      --full-time            like -l --time-style=full-iso\n"
    "  -g                         like -l, but do not list owner\n"
    "      --group-directories-first  group directories before files\n"
    "  -h, --human-readable       with -l and -s, print sizes like 1K 234M 2G etc.\n"
    "  -i, --inode                print the index number of each file\n"
    "  -I, --ignore=PATTERN       do not list implied entries matching shell PATTERN\n"
    "  -l                         use a long listing format\n"
    "  -L, --dereference          show information for the file a link references\n"
    "  -m                         fill width with a comma separated list of entries\n"
    "  -n, --numeric-uid-gid      like -l, but list numeric user and group IDs\n"
    "  -p                         append / indicator to directories\n"
    "  -Q, --quote-name           enclose entry names in double quotes\n"
    "  -r, --reverse              reverse order while sorting\n"
    "  -R, --recursive            list subdirectories recursively\n"
    "  -s, --size                 print the allocated size of each file, in blocks\n"
    "  -S                         sort by file size, largest first\n"
    "  -t                         sort by time, newest first\n"
    "  -u                         sort by / show access time\n"
    "  -U                         do not sort; list entries in directory order\n"
    "  -v                         natural sort of (version) numbers within text\n"
    "  -x                         list entries by lines instead of by columns\n"
    "  -X                         sort alphabetically by entry extension\n"
    "  -1                         list one file per line\n"
    "      --help     display this help and exit\n"
    "      --version  output version information and exit\n";

/* GNU argmatch's failure: "invalid argument ‘x’ for ‘--opt’" and the valid
 * words (given in `valid` with '...' quotes, shown with ‘...’), status 1. */
static int bad_arg(cmd_ctx *ctx, const char *opt, const char *arg, const char *valid) {
  char o[64];
  snprintf(o, sizeof o, "%.*s", (int)(strlen(opt) - 2), opt + 1);
  cmd_errorf(ctx, "invalid argument %s for %s", cmd_gnu_quote(ctx, arg), cmd_gnu_quote(ctx, o));
  cmd_err_raw(ctx, "Valid arguments are:\n");
  for (const char *p = valid; *p; p++) {
    if (*p == '\'') {
      bool open = p == valid || p[-1] == ' ';
      cmd_err_raw(ctx, "%s", open ? "\xe2\x80\x98" : "\xe2\x80\x99");
    } else {
      cmd_err_raw(ctx, "%c", *p);
    }
  }
  return cmd_usage_hint(ctx, 1);
}

/* Matches a unique prefix of one of `words` (NULL-terminated); -1 if none, -2
 * if ambiguous. */
static int match_word(const char *arg, const char *const *words) {
  int found = -1;
  size_t l = strlen(arg);
  for (int i = 0; words[i]; i++) {
    if (strcmp(words[i], arg) == 0) return i;
    if (l && strncmp(words[i], arg, l) == 0) found = found == -1 ? i : -2;
  }
  return found;
}

/* The WHEN of --classify and --color (`opt`): *on without one (NULL) and for
 * always, yes, force; off for never, no, none and for auto, tty, if-tty
 * (standard output is never a terminal here). Returns 0, or bad_arg's status
 * after its message. */
static int ls_when(cmd_ctx *ctx, const char *opt, const char *arg, bool *on) {
  *on = true;
  if (!arg) return 0;
  static const char *const w[] = {"always", "yes", "force", "never", "no", "none",
                                  "auto", "tty", "if-tty", NULL};
  int k = match_word(arg, w);
  if (k < 0)
    return bad_arg(ctx, opt, arg,
                   "  - 'always', 'yes', 'force'\n  - 'never', 'no', 'none'\n"
                   "  - 'auto', 'tty', 'if-tty'\n");
  *on = k < 3;
  return 0;
}

static int set_time_style(ls_opts *o, const char *style) {
  if (strncmp(style, "posix-", 6) == 0) style += 6;
  if (style[0] == '+') {
    char *s = cmd_strdup(o->ctx, style + 1);
    char *nl = strchr(s, '\n');
    if (nl) {
      *nl = 0;
      o->fmt_old = s;
      o->fmt_recent = nl + 1;
    } else {
      o->fmt_old = o->fmt_recent = s;
    }
    return 0;
  }
  if (strcmp(style, "full-iso") == 0) {
    o->fmt_old = o->fmt_recent = "%Y-%m-%d %H:%M:%S.%N %z";
  } else if (strcmp(style, "long-iso") == 0) {
    o->fmt_old = o->fmt_recent = "%Y-%m-%d %H:%M";
  } else if (strcmp(style, "iso") == 0) {
    o->fmt_old = "%Y-%m-%d ";
    o->fmt_recent = "%m-%d %H:%M";
  } else if (strcmp(style, "locale") == 0) {
    o->fmt_old = "%b %e  %Y";
    o->fmt_recent = "%b %e %H:%M";
  } else {
    return -1;
  }
  return 0;
}

int cmd_ls_main(cmd_ctx *ctx, int argc, char **argv) {
  ls_opts o;
  memset(&o, 0, sizeof o);
  o.ctx = ctx;
  o.human = -1;
  o.block_size = 1;
  o.blocks_block = 1024;
  o.tabsize = 8;
  o.deref = DEREF_UNSET;
  o.time_width = -1;
  o.first_output = true;
  o.fmt_old = "%b %e  %Y";
  o.fmt_recent = "%b %e %H:%M";
  const char *base = strrchr(ctx->name, '/');
  base = base ? base + 1 : ctx->name;
  o.format = FMT_ONE;
  if (strcmp(base, "dir") == 0) {
    o.format = FMT_COLS;
    o.quoting = Q_ESCAPE;
  } else if (strcmp(base, "vdir") == 0) {
    o.format = FMT_LONG;
    o.quoting = Q_ESCAPE;
  }
  const char *qs = cmd_getenv(ctx, "QUOTING_STYLE");
  static const char *const qwords[] = {"literal", "shell", "shell-always", "shell-escape",
                                       "shell-escape-always", "c", "escape", "locale",
                                       "clocale", NULL};
  if (qs) {
    int q = match_word(qs, qwords);
    if (q >= 0) o.quoting = q == 8 ? Q_LOCALE : q;
  }
  uint64_t env_block;
  int env_human;
  if (cmd_gnu_env_blocksize(ctx, "LS_BLOCK_SIZE", &env_block, &env_human)) {
    o.human = env_human;
    o.block_size = o.blocks_block = env_block;
  }
  const char *ts_env = cmd_getenv(ctx, "TIME_STYLE");
  const char *time_style = ts_env;
  bool sort_set = false, time_set = false;
  int sort_by_time_opt = 0; /* -u/-c given */
  const char *cols = cmd_getenv(ctx, "COLUMNS");
  o.width = 80;
  if (cols && *cols) {
    char *ep;
    unsigned long w = strtoul(cols, &ep, 10);
    if (!*ep && w > 0 && w < 100000) o.width = w;
  }
  int nign = 0, nhide = 0;
  o.ignore = cmd_alloc(ctx, (size_t)argc * sizeof *o.ignore);
  o.hide = cmd_alloc(ctx, (size_t)argc * sizeof *o.hide);
  if (!o.ignore || !o.hide) return 2;

  cmd_getopt_state st = CMD_GETOPT_INIT;
  int c;
  while ((c = cmd_getopt(ctx, &st, argc, argv, ls_spec, ls_colour)) != -1) {
    switch (c) {
    case 'a': o.all = true; o.almost_all = false; break;
    case 'A': o.almost_all = true; o.all = false; break;
    case 'b': o.quoting = Q_ESCAPE; break;
    case 'c': o.time = TIME_CTIME; sort_by_time_opt = 1; time_set = true; break;
    case 'u': o.time = TIME_ATIME; sort_by_time_opt = 1; time_set = true; break;
    case 'd': o.dirs_only = true; break;
    case 'f':
      o.all = true; o.sort = SORT_NONE; sort_set = true;
      if (o.format == FMT_LONG) o.format = FMT_ONE;
      o.size = false;
      break;
    case 'g': o.format = FMT_LONG; o.no_owner = true; break;
    case 'o': o.format = FMT_LONG; o.no_group = true; break;
    case 'G': o.no_group = true; break;
    case 'h': o.human = CMD_HUMAN_CEIL; o.block_size_set = true; break;
    case OPT_SI: o.human = CMD_HUMAN_CEIL | CMD_HUMAN_SI; o.block_size_set = true; break;
    case 'i': o.inode = true; break;
    case 'k': o.kibibytes = true; break;
    case 'l': o.format = FMT_LONG; break;
    case 'm': o.format = FMT_COMMAS; break;
    case 'n': o.format = FMT_LONG; o.numeric = true; break;
    case 'p': o.indicator = IND_SLASH; break;
    case 'q': o.hide_ctrl = true; break;
    case OPT_SHOW_CTRL: o.hide_ctrl = false; break;
    case 'r': o.reverse = true; break;
    case 'R': o.recursive = true; break;
    case 's': o.size = true; break;
    case 'S': o.sort = SORT_SIZE; sort_set = true; break;
    case 't': o.sort = SORT_TIME; sort_set = true; break;
    case 'U': o.sort = SORT_NONE; sort_set = true; break;
    case 'v': o.sort = SORT_VERSION; sort_set = true; break;
    case 'X': o.sort = SORT_EXT; sort_set = true; break;
    case 'x': o.format = FMT_ACROSS; break;
    case 'C': o.format = FMT_COLS; break;
    case '1': if (o.format != FMT_LONG) o.format = FMT_ONE; else o.format = FMT_ONE; break;
    case 'B': o.ignore_backups = true; break;
    case 'D': break; /* --dired: only meaningful with -l; ignored */
    case 'F':
      o.indicator = IND_CLASSIFY;
      break;
    case OPT_CLASSIFY:
    case OPT_COLOR: {
      bool on;
      int rc = ls_when(ctx, c == OPT_COLOR ? "'--color'" : "'--classify'", st.arg, &on);
      if (rc) return rc;
      if (c == OPT_COLOR) o.color = on;
      else o.indicator = on ? IND_CLASSIFY : IND_NONE;
      break;
    }
    case OPT_FILE_TYPE: o.indicator = IND_FILETYPE; break;
    case OPT_INDICATOR: {
      static const char *const w[] = {"none", "slash", "file-type", "classify", NULL};
      int k = match_word(st.arg, w);
      if (k < 0)
        return bad_arg(ctx, "'--indicator-style'", st.arg,
                       "  - 'none'\n  - 'slash'\n  - 'file-type'\n  - 'classify'\n");
      o.indicator = k;
      break;
    }
    case 'H': o.deref = DEREF_CMDLINE; break;
    case OPT_DEREF_DIR: o.deref = DEREF_CMDLINE_DIR; break;
    case 'L': o.deref = DEREF_ALL; break;
    case 'I': o.ignore[nign++] = st.arg; break;
    case OPT_HIDE: o.hide[nhide++] = st.arg; break;
    case 'N': o.quoting = Q_LITERAL; break;
    case 'Q': o.quoting = Q_C; break;
    case OPT_QUOTING: {
      int k = match_word(st.arg, qwords);
      if (k < 0)
        return bad_arg(ctx, "'--quoting-style'", st.arg,
                       "  - 'literal'\n  - 'shell'\n  - 'shell-always'\n"
                       "  - 'shell-escape'\n  - 'shell-escape-always'\n  - 'c'\n"
                       "  - 'escape'\n  - 'locale'\n  - 'clocale'\n");
      o.quoting = k == 8 ? Q_LOCALE : k;
      break;
    }
    case OPT_SORT: {
      static const char *const w[] = {"none", "time", "size", "extension", "version",
                                      "width", NULL};
      int k = match_word(st.arg, w);
      if (k < 0)
        return bad_arg(ctx, "'--sort'", st.arg,
                       "  - 'none'\n  - 'time'\n  - 'size'\n  - 'extension'\n"
                       "  - 'version'\n  - 'width'\n");
      static const int map[] = {SORT_NONE, SORT_TIME, SORT_SIZE, SORT_EXT, SORT_VERSION,
                                SORT_WIDTH};
      o.sort = map[k];
      sort_set = true;
      break;
    }
    case OPT_TIME: {
      static const char *const w[] = {"atime", "access", "use", "ctime", "status",
                                      "mtime", "modification", "birth", "creation",
                                      NULL};
      int k = match_word(st.arg, w);
      if (k < 0)
        return bad_arg(ctx, "'--time'", st.arg,
                       "  - 'atime', 'access', 'use'\n  - 'ctime', 'status'\n"
                       "  - 'birth', 'creation'\n");
      o.time = k < 3 ? TIME_ATIME : k < 5 ? TIME_CTIME : k < 7 ? TIME_MTIME : TIME_CTIME;
      time_set = true;
      sort_by_time_opt = 1;
      break;
    }
    case OPT_TIME_STYLE: time_style = st.arg; break;
    case OPT_FULL_TIME:
      o.format = FMT_LONG;
      time_style = "full-iso";
      break;
    case OPT_FORMAT: {
      static const char *const w[] = {"verbose", "long", "commas", "horizontal",
                                      "across", "vertical", "single-column", NULL};
      int k = match_word(st.arg, w);
      if (k < 0)
        return bad_arg(ctx, "'--format'", st.arg,
                       "  - 'verbose', 'long'\n  - 'commas'\n  - 'horizontal', 'across'\n"
                       "  - 'vertical'\n  - 'single-column'\n");
      static const int map[] = {FMT_LONG, FMT_LONG, FMT_COMMAS, FMT_ACROSS, FMT_ACROSS,
                                FMT_COLS, FMT_ONE};
      o.format = map[k];
      break;
    }
    case OPT_BLOCK_SIZE: {
      uint64_t blk;
      int h;
      int r = cmd_parse_blocksize(st.arg, &blk, &h);
      if (r) {
        cmd_errorf(ctx, "invalid --block-size argument %s", cmd_gnu_quoteaf(ctx, st.arg));
        return 2;
      }
      o.human = h;
      o.block_size = o.blocks_block = blk;
      o.size_suffix = NULL;
      o.block_size_set = true;
      if (h < 0 && !(st.arg[0] >= '0' && st.arg[0] <= '9') && st.arg[0] != '\'') {
        /* "--block-size=K": sizes get the unit as a suffix */
        char *suf = cmd_strdup(ctx, st.arg);
        if (suf[0] == 'k') suf[0] = 'K';
        if (strchr(suf, 'B') && !strstr(suf, "iB") && suf[0] == 'K') suf[0] = 'k';
        o.size_suffix = suf;
      }
      break;
    }
    case OPT_HYPERLINK: break;
    case OPT_AUTHOR: o.author = true; break;
    case 'Z': break;
    case OPT_ZERO: o.zero = true; o.color = false; break; /* GNU: --zero turns colour off */
    case OPT_GROUP_DIRS: o.group_dirs_first = true; break;
    case 'T': {
      char *ep;
      unsigned long v = strtoul(st.arg, &ep, 10);
      if (*ep || v > 10000) {
        cmd_errorf(ctx, "invalid tab size: %s", cmd_gnu_quote(ctx, st.arg));
        return 2;
      }
      o.tabsize = v;
      break;
    }
    case 'w': {
      char *ep;
      unsigned long v = strtoul(st.arg, &ep, 10);
      if (*ep || !*st.arg || v > 1000000) {
        cmd_errorf(ctx, "invalid line width: %s", cmd_gnu_quote(ctx, st.arg));
        return 2;
      }
      o.width = v;
      break;
    }
    CMD_CASES_HELP_VERSION(ctx, ls_usage);
    default:
      return 2;
    }
  }
  o.nignore = nign;
  o.nhide = nhide;
  /* GNU: -k sets the blocks' unit after all options; sizes keep theirs */
  o.blocks_human = o.human;
  o.blocks_suffix = o.size_suffix;
  if (o.kibibytes && !o.block_size_set) {
    o.blocks_human = -1;
    o.blocks_block = 1024;
    o.blocks_suffix = NULL;
  }
  if (o.color) {
    o.tabsize = 0; /* GNU: no tabs with colours, even if they end up off */
    o.color = col_setup(&o);
    o.col.check_links = o.color && (col_is_colored(&o.col, C_ORPHAN) ||
                                    (col_is_colored(&o.col, C_EXEC) && o.col.link_target) ||
                                    (col_is_colored(&o.col, C_MISSING) && o.format == FMT_LONG));
  }
  if (o.zero) {
    if (o.format != FMT_LONG) o.format = FMT_ONE;
    o.quoting = Q_LITERAL;
    o.hide_ctrl = false;
  }
  if (time_style) {
    if (strncmp(time_style, "posix-", 6) == 0 && o.format == FMT_LONG) {
      /* posix-STYLE: STYLE only outside the POSIX locale; C.UTF-8 is not POSIX */
    }
    if (set_time_style(&o, time_style) < 0) {
      cmd_errorf(ctx, "invalid argument %s for %s", cmd_gnu_quoteaf(ctx, time_style),
                 "'time style'");
      cmd_err_raw(ctx, "Valid arguments are:\n  - [posix-]full-iso\n  - [posix-]long-iso\n"
                       "  - [posix-]iso\n  - [posix-]locale\n  - +FORMAT (e.g., +%%H:%%M) for a 'date'-style format\n");
      return cmd_usage_hint(ctx, 2);
    }
  }
  /* -u/-c sort by that time unless -l (then they only choose what is shown). */
  if (sort_by_time_opt && !sort_set && o.format != FMT_LONG) o.sort = SORT_TIME;
  (void)time_set;
  if (o.deref == DEREF_UNSET)
    o.deref = (o.dirs_only || o.indicator == IND_CLASSIFY || o.format == FMT_LONG)
                  ? DEREF_NEVER
                  : DEREF_CMDLINE_DIR;
  cmd_tz_from_env(ctx, &o.tz);
  if (o.format == FMT_LONG) o.ids = cmd_fs_ids_load(ctx);

  int nops = argc - st.ind;
  char *dot[] = {(char *)".", NULL};
  char **ops = nops > 0 ? argv + st.ind : dot;
  if (nops <= 0) nops = 1;

  ls_ent **files = calloc((size_t)nops, sizeof *files);
  ls_ent **dirs = calloc((size_t)nops, sizeof *dirs);
  if (!files || !dirs) {
    free(files);
    free(dirs);
    return 2;
  }
  size_t nfiles = 0, ndirs = 0;
  for (int i = 0; i < nops; i++) {
    ls_ent *e = cmd_alloc(ctx, sizeof *e);
    if (!e) break;
    e->name = ops[i];
    e->path = ops[i];
    ls_stat(&o, e, true);
    if (!e->stat_ok) {
      store_stat tmp;
      int rc = o.deref == DEREF_ALL || o.deref == DEREF_CMDLINE
                   ? cmd_fs_stat(ctx, e->path, &tmp)
                   : cmd_fs_lstat(ctx, e->path, &tmp);
      if (rc == 0) rc = -EIO;
      cmd_errorf(ctx, "cannot access %s: %s", cmd_gnu_quoteaf(ctx, e->path), cmd_strerror(rc));
      cmd_record_error(ctx, rc, e->path);
      o.status = 2;
      continue;
    }
    if (S_ISDIR(e->st.mode) && !o.dirs_only) {
      e->is_dir_arg = true;
      dirs[ndirs++] = e;
    } else {
      files[nfiles++] = e;
    }
  }
  int rc = 0;
  if (o.sort != SORT_NONE) {
    ls_sort(&o, files, nfiles);
    ls_sort(&o, dirs, ndirs);
  }
  if (nfiles) {
    o.width_extra = dirs;
    o.nwidth_extra = ndirs;
    rc = print_entries(&o, files, nfiles);
    o.width_extra = NULL;
    o.nwidth_extra = 0;
    o.first_output = false;
  }
  o.print_headers = o.recursive || nops > 1;
  ls_pending pend = {0};
  for (size_t i = ndirs; rc == 0 && i-- > 0;)
    if (pending_push(&pend, dirs[i]->path, dirs[i]->st.ino, true)) rc = -ENOMEM;
  while (rc == 0 && pend.n > 0) {
    if (cmd_poll(ctx)) break;
    pend.n--;
    char *p = pend.v[pend.n];
    bool cl = pend.cmdline[pend.n];
    if (!p) {
      cmd_fs_inoset_remove(&o.active, pend.ino[pend.n]);
      continue;
    }
    /* a directory's entries live in an arena of their own, freed once it is
     * listed: memory stays bounded by the largest directory, not the tree */
    cmd_arena *main_arena = ctx->arena, *dir_arena = cmd_arena_new();
    if (dir_arena) ctx->arena = dir_arena;
    rc = list_dir(&o, p, pend.ino[pend.n], cl, &pend);
    ctx->arena = main_arena;
    cmd_arena_free(dir_arena);
    free(p);
  }
  for (size_t i = 0; i < pend.n; i++) free(pend.v[i]);
  free(pend.v);
  free(pend.ino);
  free(pend.cmdline);
  free(files);
  free(dirs);
  cmd_fs_inoset_free(&o.active);
  if (rc == -ENOMEM) {
    cmd_errorf(ctx, "memory exhausted");
    return 2;
  }
  if (rc == -EPIPE) return 141;
  return o.status;
}
