/*
 * tar - create, list and extract archives (libarchive).
 *
 *   tar -c|-x|-t [-f ARCHIVE] [-zjJa] [-C DIR] [-v] [-O] [-k] [-m] [-h]
 *       [--strip-components=N] [--exclude=PATTERN] [-X FILE] [--exclude-vcs]
 *       [-T FILE] [--null] [--no-recursion] [--format=FMT] [FILE]...
 *   reproducible archives: --mtime=DATE|FILE [--clamp-mtime] --owner=NAME[:UID]
 *       --group=NAME[:GID] --numeric-owner --mode=CHANGES --sort=none|name|inode
 *   (old style too: `tar czf out.tgz dir`)
 *
 * Behaves like GNU tar 1.34 for what agents do with it: the GNU format on
 * create (gzip / bzip2 / xz with -z / -j / -J, or by suffix with -a), any
 * format libarchive reads on extract/list, `tar -tv` in GNU's layout, GNU's
 * messages and exit status 2 after errors.
 *
 * Safety (extraction never leaves the target directory):
 *  - members with a ".." component are refused ("Member name contains '..'"),
 *    leading "/" is removed, as GNU tar does;
 *  - the directories above a member are created without following symlinks: a
 *    member whose path goes through a symlink (one the archive itself planted,
 *    say) is refused; hard-link targets get the same checks;
 *  - everything is written through the store, so a decompression bomb stops at
 *    the sandbox's quota, and device nodes are not created.
 * Member order on create is the store's (sorted by name), not readdir order.
 */
#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cmd/cmd.h"
#include "cmd/lib/archive_io.h"
#include "cmd/lib/buf.h"
#include "cmd/lib/fs.h"
#include "cmd/lib/gnu.h"
#include "cmd/lib/datetime.h"
#include "re/re.h"

CMD_DEFINE("tar", cmd_tar_main);

#define TAR_BUF 65536
#define TAR_MAX_DEPTH 512
#define TAR_MAX_EXCLUDES 64
#define TAR_MAX_XFORMS 64
#define TAR_TRY "Try 'tar --help' or 'tar --usage' for more information.\n"

/* One --transform expression: s/REGEX/REPLACEMENT/FLAGS as GNU tar's. */
typedef struct tar_xform {
  re *rx;
  const char *repl;
  bool global;
  long nth;       /* replace the Nth match only (0: the first, or all with g) */
  unsigned apply; /* TX_REG | TX_SYM | TX_HARD: the names it rewrites */
} tar_xform;
#define TX_REG 1u
#define TX_SYM 2u
#define TX_HARD 4u

typedef struct tar_opts {
  char mode;                 /* 'c', 'x' or 't' */
  const char *file;          /* -f, or NULL for stdin/stdout */
  char filter;               /* 'z', 'j', 'J', 'a' or 0 */
  const char *dir;           /* -C for extraction (current -C for create) */
  int verbose;               /* -v count */
  bool to_stdout;            /* -O */
  bool keep_old;             /* -k */
  bool no_mtime;             /* -m */
  bool deref;                /* -h */
  long strip;                /* --strip-components */
  const char *excludes[TAR_MAX_EXCLUDES];
  int nexcludes;
  const char *files_from;    /* -T */
  int status;                /* 0 or 2 */
  bool warned_slash;         /* "Removing leading `/'" printed */
  int ugswidth;              /* GNU's sticky width of "user/group size" */
  cmd_tz tz;                 /* TZ for listings and --mtime */
  bool recurse;              /* not --no-recursion */
  bool exclude_vcs;          /* --exclude-vcs */
  bool null_names;           /* --null: -T names end with NUL */
  bool numeric;              /* --numeric-owner */
  bool has_mtime, clamp;     /* --mtime, --clamp-mtime */
  int64_t mtime;
  int64_t owner, group;      /* --owner/--group ids, -1 = the file's */
  const char *owner_name, *group_name; /* their names, NULL = looked up */
  cmd_mode_change *mode_changes; /* --mode */
  char format;               /* create: 'g'nu, 'u'star, 'p'osix, '7' (v7) */
  cmd_fs_ids *ids;
  bool remove_files;         /* --remove-files */
  const char *xform_args[TAR_MAX_XFORMS]; /* --transform, as given */
  int nxform_args;
  tar_xform xforms[TAR_MAX_XFORMS];
  int nxforms;
} tar_opts;

/* ---- --transform ------------------------------------------------------------------ */

/* Parses the expressions of one --transform (separated by ';'); 0 or prints
 * GNU's message and returns 2. */
static int xform_parse(cmd_ctx *ctx, tar_opts *o, const char *arg) {
  const char *p = arg;
  while (*p) {
    if (*p == ';') {
      p++;
      continue;
    }
    if (*p != 's' || !p[1]) {
      cmd_err_raw(ctx, "tar: Invalid transform expression\n" TAR_TRY);
      return 2;
    }
    char delim = p[1];
    const char *parts[2];
    size_t lens[2];
    const char *q = p + 2;
    for (int k = 0; k < 2; k++) {
      parts[k] = q;
      while (*q && *q != delim) {
        if (*q == '\\' && q[1]) q++;
        q++;
      }
      if (!*q) {
        cmd_err_raw(ctx, "tar: Invalid transform expression\n");
        return 2;
      }
      lens[k] = (size_t)(q - parts[k]);
      q++;
    }
    if (o->nxforms >= TAR_MAX_XFORMS) {
      cmd_err_raw(ctx, "tar: Too many transform expressions\n");
      return 2;
    }
    tar_xform *x = &o->xforms[o->nxforms];
    *x = (tar_xform){.apply = TX_REG | TX_SYM | TX_HARD};
    unsigned flags = 0;
    for (; *q && *q != ';'; q++) {
      switch (*q) {
        case 'g': x->global = true; break;
        case 'i': flags |= RE_NOCASE; break;
        case 'x': flags |= RE_EXTENDED; break;
        case 'r': x->apply |= TX_REG; break;
        case 'R': x->apply &= ~TX_REG; break;
        case 's': x->apply |= TX_SYM; break;
        case 'S': x->apply &= ~TX_SYM; break;
        case 'h': x->apply |= TX_HARD; break;
        case 'H': x->apply &= ~TX_HARD; break;
        default:
          if (*q >= '0' && *q <= '9') {
            x->nth = 0;
            while (*q >= '0' && *q <= '9' && x->nth < 100000) x->nth = x->nth * 10 + (*q++ - '0');
            q--;
            break;
          }
          cmd_err_raw(ctx, "tar: Unknown flag in transform expression: %c\n" TAR_TRY, *q);
          return 2;
      }
    }
    /* the regex and replacement with the delimiter unescaped */
    char *rx = cmd_alloc(ctx, lens[0] + 1), *rep = cmd_alloc(ctx, lens[1] + 1);
    if (!rx || !rep) return 2;
    char *out[2] = {rx, rep};
    for (int k = 0; k < 2; k++) {
      size_t n = 0;
      for (size_t i = 0; i < lens[k]; i++) {
        if (parts[k][i] == '\\' && i + 1 < lens[k] && parts[k][i + 1] == delim) i++;
        out[k][n++] = parts[k][i];
      }
      out[k][n] = 0;
    }
    re_err err = {0};
    if (re_compile(&x->rx, rx, strlen(rx), flags, &err) != 0) {
      cmd_err_raw(ctx, "tar: Invalid transform expression: %s\n", err.msg);
      return 2;
    }
    x->repl = rep;
    o->nxforms++;
    p = q;
  }
  return 0;
}

static void xform_free(tar_opts *o) {
  for (int i = 0; i < o->nxforms; i++) re_free(o->xforms[i].rx);
  o->nxforms = 0;
}

static int xform_poll(void *ud) { return cmd_poll(ud); }

/* Appends s[0..n) to b with the case conversion in force (\U \L, \u \l once). */
static void xf_put(cmd_ctx *ctx, char **b, size_t *bl, size_t *bc, const char *s, size_t n,
                   char *mode, char *once) {
  for (size_t i = 0; i < n; i++) {
    if (cmd_grow_arena(ctx, b, bc, *bl + 2, 1)) return;
    char c = s[i];
    char m = *once ? *once : *mode;
    if (m == 'U' || m == 'u') c = (char)(c >= 'a' && c <= 'z' ? c - 32 : c);
    if (m == 'L' || m == 'l') c = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
    *once = 0;
    (*b)[(*bl)++] = c;
  }
}

/* The name after every --transform that applies to names of `kind`. */
static const char *xform_apply(cmd_ctx *ctx, tar_opts *o, const char *name, unsigned kind) {
  re_ctl ctl = {0, xform_poll, ctx};
  for (int k = 0; k < o->nxforms; k++) {
    tar_xform *x = &o->xforms[k];
    if (!(x->apply & kind)) continue;
    size_t len = strlen(name), at = 0, done = 0, bl = 0, bc = 0;
    char *b = NULL;
    long count = 0;
    bool changed = false;
    re_span m[10];
    while (at <= len && re_exec(x->rx, name, len, at, 0, m, 10, &ctl) == RE_MATCH) {
      count++;
      bool hit = x->nth ? count == x->nth : true;
      if (hit) {
        char mode = 0, once = 0;
        xf_put(ctx, &b, &bl, &bc, name + done, (size_t)m[0].so - done, &mode, &once);
        for (const char *r = x->repl; *r; r++) {
          if (*r == '&') {
            xf_put(ctx, &b, &bl, &bc, name + m[0].so, (size_t)(m[0].eo - m[0].so), &mode, &once);
          } else if (*r == '\\' && r[1]) {
            r++;
            if (*r >= '0' && *r <= '9') {
              int g = *r - '0';
              if (m[g].so >= 0)
                xf_put(ctx, &b, &bl, &bc, name + m[g].so, (size_t)(m[g].eo - m[g].so), &mode,
                       &once);
            } else if (*r == 'U' || *r == 'L') {
              mode = *r;
            } else if (*r == 'E') {
              mode = once = 0;
            } else if (*r == 'u' || *r == 'l') {
              once = *r;
            } else if (*r == 'n') {
              xf_put(ctx, &b, &bl, &bc, "\n", 1, &mode, &once);
            } else {
              xf_put(ctx, &b, &bl, &bc, r, 1, &mode, &once);
            }
          } else {
            xf_put(ctx, &b, &bl, &bc, r, 1, &mode, &once);
          }
        }
        done = (size_t)m[0].eo;
        changed = true;
        if (!x->global) break;
      }
      at = (size_t)m[0].eo > at ? (size_t)m[0].eo : at + 1;
      if (x->nth && count >= x->nth && !x->global) break;
    }
    if (!changed) continue;
    char mode = 0, once = 0;
    xf_put(ctx, &b, &bl, &bc, name + done, len - done, &mode, &once);
    if (!b) continue;
    b[bl] = 0;
    name = b;
  }
  return name;
}

static void tar_err(cmd_ctx *ctx, tar_opts *o, const char *fmt, const char *a, const char *b) {
  cmd_err_raw(ctx, "tar: ");
  cmd_err_raw(ctx, fmt, a, b);
  cmd_err_raw(ctx, "\n");
  o->status = 2;
}

/* The names --exclude-vcs leaves out (GNU tar 1.34's list). */
static const char *const vcs_names[] = {
    "CVS", ".cvsignore", "RCS", "SCCS", ".git", ".gitignore", ".gitattributes",
    ".gitmodules", ".arch-ids", "{arch}", "=RELEASE-ID", "=meta-update", "=update",
    ".bzr", ".bzrignore", ".bzrtags", ".hg", ".hgignore", ".hgtags", "_darcs", NULL};

static bool excluded(tar_opts *o, const char *name) {
  if (o->exclude_vcs) {
    const char *base = strrchr(name, '/');
    base = base && base[1] ? base + 1 : name;
    size_t n = strcspn(base, "/");
    for (int i = 0; vcs_names[i]; i++)
      if (strlen(vcs_names[i]) == n && strncmp(vcs_names[i], base, n) == 0) return true;
  }
  for (int i = 0; i < o->nexcludes; i++) {
    /* GNU matches the pattern against the name and each of its suffixes after '/'. */
    for (const char *p = name; p; p = strchr(p, '/') ? strchr(p, '/') + 1 : NULL) {
      if (fnmatch(o->excludes[i], p, 0) == 0) return true;
      if (!*p) break;
    }
  }
  return false;
}

/* ---- listing ------------------------------------------------------------------ */

static void mode_string(uint32_t mode, char out[11]) {
  const char *rwx = "rwxrwxrwx";
  out[0] = S_ISDIR(mode) ? 'd' : S_ISLNK(mode) ? 'l' : S_ISCHR(mode) ? 'c'
           : S_ISBLK(mode) ? 'b' : S_ISFIFO(mode) ? 'p' : '-';
  for (int i = 0; i < 9; i++) out[1 + i] = (mode & (0400 >> i)) ? rwx[i] : '-';
  if (mode & S_ISUID) out[3] = (mode & 0100) ? 's' : 'S';
  if (mode & S_ISGID) out[6] = (mode & 0010) ? 's' : 'S';
  if (mode & S_ISVTX) out[9] = (mode & 0001) ? 't' : 'T';
  out[10] = '\0';
}

/* One verbose line in GNU tar's layout (to stdout). */
static void list_long(cmd_ctx *ctx, tar_opts *o, struct archive_entry *e, const char *name) {
  char mode[11], ug[128], size[32], date[32];
  mode_string(archive_entry_mode(e), mode);
  const char *u = archive_entry_uname(e), *g = archive_entry_gname(e);
  if (o->numeric) u = g = NULL;
  char ubuf[24], gbuf[24];
  if (!u || !*u) snprintf(ubuf, sizeof ubuf, "%lld", (long long)archive_entry_uid(e)), u = ubuf;
  if (!g || !*g) snprintf(gbuf, sizeof gbuf, "%lld", (long long)archive_entry_gid(e)), g = gbuf;
  snprintf(ug, sizeof ug, "%s/%s", u, g);
  snprintf(size, sizeof size, "%lld", (long long)archive_entry_size(e));
  int pad = (int)(strlen(ug) + 1 + strlen(size));
  if (pad > o->ugswidth) o->ugswidth = pad;
  struct tm tm;
  if (cmd_time_local(&o->tz, (int64_t)archive_entry_mtime(e), &tm))
    strftime(date, sizeof date, "%Y-%m-%d %H:%M", &tm);
  else
    snprintf(date, sizeof date, "%lld", (long long)archive_entry_mtime(e));
  cmd_outf(ctx, "%s %s %*s %s %s", mode, ug, (int)(o->ugswidth - strlen(ug) - 1), size, date,
           name);
  if (archive_entry_hardlink(e))
    cmd_outf(ctx, " link to %s", archive_entry_hardlink(e));
  else if (archive_entry_symlink(e))
    cmd_outf(ctx, " -> %s", archive_entry_symlink(e));
  cmd_outc(ctx, '\n');
}

/* ---- extraction ----------------------------------------------------------------- */

/* Normalizes a member name: strips components, refuses "..", removes leading
 * slashes. Returns a pointer into `name` or NULL (skip). */
static const char *member_name(cmd_ctx *ctx, tar_opts *o, const char *name, bool report) {
  if (arc_has_dotdot(name)) {
    if (report) {
      /* GNU first says what it would strip (up to the last ".."), then refuses. */
      const char *last = name;
      for (const char *p = name; (p = strstr(p, "..")); p += 2)
        if ((p == name || p[-1] == '/') && (p[2] == '/' || p[2] == '\0')) last = p + 2;
      size_t pre = (size_t)(last - name) + (*last == '/');
      cmd_err_raw(ctx, "tar: Removing leading `%.*s' from member names\n", (int)pre, name);
      tar_err(ctx, o, "%s: Member name contains '..'", name, NULL);
    }
    return NULL;
  }
  const char *p = name;
  if (*p == '/') {
    while (*p == '/') p++;
    if (report && !o->warned_slash) {
      cmd_err_raw(ctx, "tar: Removing leading `/' from member names\n");
      o->warned_slash = true;
    }
  }
  for (long k = 0; k < o->strip; k++) {
    const char *slash = strchr(p, '/');
    if (!slash) return NULL;
    p = slash + 1;
    while (*p == '/') p++;
  }
  while (p[0] == '.' && p[1] == '/') p += 2;
  if (!*p) return NULL;
  return p;
}

static int extract_data(struct archive *a, cmd_ctx *ctx, int fd) {
  const void *buf;
  size_t size;
  la_int64_t off;
  int64_t pos = 0;
  for (;;) {
    int r = archive_read_data_block(a, &buf, &size, &off);
    if (r == ARCHIVE_EOF) return 0;
    if (r < ARCHIVE_WARN) return -EIO;
    if (fd != 1 && off != pos) {
      if (ctx->io->lseek(ctx->io_ud, fd, off, SEEK_SET) < 0) return -EIO;
    }
    int rc = fd == 1 ? cmd_out(ctx, buf, size) : cmd_write_fd(ctx, fd, buf, size);
    if (rc < 0) return rc;
    pos = off + (int64_t)size;
  }
}

static void extract_entry(struct archive *a, struct archive_entry *e, cmd_ctx *ctx,
                          tar_opts *o, const char *base, const char *name) {
  char *full = arc_join(base, name);
  if (!full) return;
  size_t base_len = strlen(base);
  uint32_t mode = archive_entry_mode(e);
  const char *hard = archive_entry_hardlink(e);
  int rc = arc_make_parents(ctx, full, base_len);
  if (rc < 0) {
    tar_err(ctx, o, "%s: Cannot open: %s", name,
            rc == -ELOOP ? "Path goes through a symbolic link" : cmd_strerror(rc));
    free(full);
    return;
  }
  store_stat st;
  bool exists = store_path_lstat(ctx->store, ctx->cwd, full, &st) == 0;
  if (exists && S_ISDIR(st.mode) && S_ISDIR(mode)) {
    /* an existing directory is fine */
  } else if (exists && o->keep_old) {
    tar_err(ctx, o, "%s: Cannot open: File exists", name, NULL);
    free(full);
    return;
  } else if (exists) {
    rc = S_ISDIR(st.mode) ? store_path_rmdir(ctx->store, ctx->cwd, full)
                          : store_path_unlink(ctx->store, ctx->cwd, full);
    if (rc < 0) {
      tar_err(ctx, o, "%s: Cannot unlink: %s", name, cmd_strerror(rc));
      free(full);
      return;
    }
  }

  if (hard) {
    const char *tname = member_name(ctx, o, hard, false);
    char *tfull = tname ? arc_join(base, tname) : NULL;
    rc = tfull ? store_path_link(ctx->store, ctx->cwd, tfull, full) : -EINVAL;
    if (rc < 0) tar_err(ctx, o, "%s: Cannot hard link to '%s'", name, hard);
    free(tfull);
  } else if (S_ISDIR(mode)) {
    if (!(exists && S_ISDIR(st.mode))) {
      rc = store_path_mkdir(ctx->store, ctx->cwd, full, 0700);
      if (rc < 0) tar_err(ctx, o, "%s: Cannot mkdir: %s", name, cmd_strerror(rc));
    }
  } else if (S_ISLNK(mode)) {
    rc = store_path_symlink(ctx->store, ctx->cwd, archive_entry_symlink(e), full);
    if (rc < 0) tar_err(ctx, o, "%s: Cannot create symlink: %s", name, cmd_strerror(rc));
  } else if (S_ISREG(mode)) {
    int fd = ctx->io->open(ctx->io_ud, full, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0) {
      cmd_record_error(ctx, fd, full);
      tar_err(ctx, o, "%s: Cannot open: %s", name, cmd_strerror(fd));
      free(full);
      return;
    }
    rc = extract_data(a, ctx, fd);
    ctx->io->close(ctx->io_ud, fd);
    if (rc < 0) {
      cmd_record_error(ctx, rc, full);
      tar_err(ctx, o, "%s: Cannot write: %s", name,
              rc == -EIO ? archive_error_string(a) : cmd_strerror(rc));
      store_path_unlink(ctx->store, ctx->cwd, full); /* no half-written file */
      free(full);
      return;
    }
  } else {
    tar_err(ctx, o, "%s: Cannot mknod: %s", name, cmd_strerror(EPERM));
    free(full);
    return;
  }
  if (rc == 0 && !S_ISLNK(mode) && !hard) {
    store_path_chmod(ctx->store, ctx->cwd, full, mode & 07777 & ~(S_ISUID | S_ISGID));
    if (!o->no_mtime) {
      struct timespec ts[2] = {{archive_entry_mtime(e), 0}, {archive_entry_mtime(e), 0}};
      store_path_utimes(ctx->store, ctx->cwd, full, ts, 0);
    }
  }
  free(full);
}

static int do_read(cmd_ctx *ctx, tar_opts *o, char **names, int nnames) {
  int fd = 0;
  if (o->file && strcmp(o->file, "-") != 0) {
    fd = ctx->io->open(ctx->io_ud, o->file, O_RDONLY, 0);
    if (fd < 0) {
      cmd_record_error(ctx, fd, o->file);
      cmd_err_raw(ctx, "tar: %s: Cannot open: %s\n", o->file, cmd_strerror(fd));
      cmd_err_raw(ctx, "tar: Error is not recoverable: exiting now\n");
      return 2;
    }
  }
  const char *base = o->dir ? o->dir : ".";
  if (o->mode == 'x' && o->dir) {
    store_stat st;
    int rc = store_path_stat(ctx->store, ctx->cwd, base, &st);
    if (rc < 0 || !S_ISDIR(st.mode)) {
      cmd_err_raw(ctx, "tar: %s: Cannot open: %s\n", base,
                  cmd_strerror(rc < 0 ? rc : -ENOTDIR));
      cmd_err_raw(ctx, "tar: Error is not recoverable: exiting now\n");
      if (fd != 0) ctx->io->close(ctx->io_ud, fd);
      return 2;
    }
  }
  struct archive *a = archive_read_new();
  arc_io *io = malloc(sizeof *io);
  if (!a || !io) {
    archive_read_free(a);
    free(io);
    return 2;
  }
  io->ctx = ctx;
  io->fd = fd;
  archive_read_support_filter_all(a);
  archive_read_support_format_all(a);
  int status = 0;
  bool *seen = nnames ? calloc((size_t)nnames, 1) : NULL;
  if (archive_read_open(a, io, NULL, arc_read_cb, NULL) != ARCHIVE_OK) {
    const char *msg = archive_error_string(a);
    cmd_err_raw(ctx, "tar: %s\n", msg && strstr(msg, "Unrecognized")
                                      ? "This does not look like a tar archive"
                                      : msg ? msg : "Cannot read archive");
    cmd_err_raw(ctx, "tar: Exiting with failure status due to previous errors\n");
    status = 2;
    goto out;
  }
  struct archive_entry *e;
  int r;
  while ((r = archive_read_next_header(a, &e)) == ARCHIVE_OK || r == ARCHIVE_WARN) {
    if (cmd_poll(ctx)) {
      o->status = 2;
      break;
    }
    const char *raw = archive_entry_pathname(e);
    if (!raw) continue;
    if (nnames) {
      bool want = false;
      for (int i = 0; i < nnames; i++) {
        size_t n = strlen(names[i]);
        while (n > 1 && names[i][n - 1] == '/') n--;
        if (strncmp(raw, names[i], n) == 0 && (raw[n] == '\0' || raw[n] == '/')) {
          want = true;
          seen[i] = true;
        }
      }
      if (!want) continue;
    }
    if (excluded(o, raw)) continue;
    if (o->mode == 't') {
      if (o->verbose)
        list_long(ctx, o, e, raw);
      else
        cmd_outf(ctx, "%s\n", raw);
      continue;
    }
    const char *name = member_name(ctx, o, raw, true);
    if (!name) continue;
    if (o->nxforms) {
      name = xform_apply(ctx, o, name, TX_REG);
      if (!*name) continue;
      const char *t = archive_entry_symlink(e);
      if (t) archive_entry_set_symlink(e, xform_apply(ctx, o, t, TX_SYM));
      t = archive_entry_hardlink(e);
      if (t) archive_entry_set_hardlink(e, xform_apply(ctx, o, t, TX_HARD));
    }
    if (o->verbose) {
      if (o->verbose > 1)
        list_long(ctx, o, e, raw);
      else
        cmd_outf(ctx, "%s\n", raw);
    }
    if (o->to_stdout) {
      if (S_ISREG(archive_entry_mode(e)) && extract_data(a, ctx, 1) < 0) o->status = 2;
      continue;
    }
    extract_entry(a, e, ctx, o, base, name);
  }
  if (r == ARCHIVE_FATAL) {
    const char *msg = archive_error_string(a);
    cmd_err_raw(ctx, "tar: %s\n", msg ? msg : "Unexpected EOF in archive");
    o->status = 2;
  }
  for (int i = 0; i < nnames; i++) {
    if (!seen[i]) {
      cmd_err_raw(ctx, "tar: %s: Not found in archive\n", names[i]);
      o->status = 2;
    }
  }
  if (o->status) {
    cmd_err_raw(ctx, "tar: Exiting with failure status due to previous errors\n");
    status = 2;
  }
out:
  free(seen);
  archive_read_free(a);
  free(io);
  if (fd != 0) ctx->io->close(ctx->io_ud, fd);
  return status;
}

/* ---- creation -------------------------------------------------------------------- */

typedef struct hardlink {
  store_ino ino;
  char *name;
} hardlink;

typedef struct tar_create {
  struct archive *a;
  struct archive_entry *e;
  hardlink *links;   /* files with nlink > 1 already archived */
  size_t nlinks, caplinks;
  char *buf;
  struct tar_added { /* --remove-files: what was archived, in order (arena paths) */
    const char *path, *given; /* absolute; as named (for messages) */
    bool dir;
  } *added;
  size_t nadded, capadded;
} tar_create;

static void add_path(cmd_ctx *ctx, tar_opts *o, tar_create *c, const char *path,
                     int depth) {
  if (cmd_poll(ctx) || depth > TAR_MAX_DEPTH) {
    if (depth > TAR_MAX_DEPTH) tar_err(ctx, o, "%s: Directory nesting too deep", path, NULL);
    return;
  }
  store_stat st;
  int rc = o->deref ? store_path_stat(ctx->store, ctx->cwd, path, &st)
                                        : store_path_lstat(ctx->store, ctx->cwd, path, &st);
  if (rc < 0) {
    cmd_record_error(ctx, rc, path);
    tar_err(ctx, o, "%s: Cannot stat: %s", path, cmd_strerror(rc));
    return;
  }
  const char *name = path;
  if (*name == '/') {
    while (*name == '/') name++;
    if (!o->warned_slash) {
      cmd_err_raw(ctx, "tar: Removing leading `/' from member names\n");
      o->warned_slash = true;
    }
    if (!*name) name = "./";
  }
  if (excluded(o, name)) return;
  const char *given = name; /* -v lists the names as given */
  if (o->nxforms) {
    name = xform_apply(ctx, o, name, TX_REG);
    if (!*name) return; /* GNU drops a member whose name becomes empty */
  }
  char *ename = NULL;
  if (S_ISDIR(st.mode) && name[strlen(name) - 1] != '/') {
    ename = arc_join(name, "");
  }
  struct archive_entry *e = archive_entry_clear(c->e);
  archive_entry_set_pathname(e, ename ? ename : name);
  uint32_t mode = st.mode;
  if (o->mode_changes)
    mode = (mode & ~07777u) |
           cmd_mode_adjust(mode & 07777, S_ISDIR(mode), 0, o->mode_changes, NULL);
  archive_entry_set_mode(e, mode);
  uint32_t uid = o->owner >= 0 ? (uint32_t)o->owner : st.uid;
  uint32_t gid = o->group >= 0 ? (uint32_t)o->group : st.gid;
  archive_entry_set_uid(e, uid);
  archive_entry_set_gid(e, gid);
  if (!o->numeric) {
    /* GNU: the name given with --owner/--group, else the id's name */
    const char *un = o->owner_name ? o->owner_name : cmd_fs_username(o->ids, uid);
    const char *gn = o->group_name ? o->group_name : cmd_fs_groupname(o->ids, gid);
    if (un) archive_entry_set_uname(e, un);
    if (gn) archive_entry_set_gname(e, gn);
  }
  int64_t mtime = st.mtime;
  if (o->has_mtime && (!o->clamp || mtime > o->mtime)) mtime = o->mtime;
  archive_entry_set_mtime(e, (time_t)mtime, 0);
  bool is_hardlink = false;
  if (S_ISREG(st.mode) && st.nlink > 1) {
    for (size_t i = 0; i < c->nlinks; i++) {
      if (c->links[i].ino == st.ino) {
        archive_entry_set_hardlink(e, c->links[i].name);
        archive_entry_set_size(e, 0);
        is_hardlink = true;
        break;
      }
    }
    if (!is_hardlink && c->nlinks < 100000) {
      if (cmd_grow(&c->links, &c->caplinks, c->nlinks + 1, sizeof *c->links) == 0)
        c->links[c->nlinks++] = (hardlink){st.ino, strdup(name)};
    }
  }
  if (S_ISLNK(st.mode)) {
    char *target = NULL;
    if (store_path_readlink(ctx->store, ctx->cwd, path, &target) == 0) {
      archive_entry_set_symlink(e, o->nxforms ? xform_apply(ctx, o, target, TX_SYM) : target);
      free(target);
    }
    archive_entry_set_size(e, 0);
  } else if (S_ISREG(st.mode) && !is_hardlink) {
    archive_entry_set_size(e, (la_int64_t)st.size);
  } else {
    archive_entry_set_size(e, 0);
  }
  if (o->verbose) {
    const char *shown = ename ? ename : name;
    if (given != name) {
      size_t gl = strlen(given);
      bool slash = S_ISDIR(st.mode) && gl && given[gl - 1] != '/';
      char *g = cmd_alloc(ctx, gl + 2);
      if (g) {
        memcpy(g, given, gl);
        if (slash) g[gl++] = '/';
        g[gl] = 0;
        shown = g;
      }
    }
    if (o->verbose > 1)
      list_long(ctx, o, e, shown);
    else
      cmd_outf(ctx, "%s\n", shown);
  }
  if (archive_write_header(c->a, e) < ARCHIVE_WARN) {
    tar_err(ctx, o, "%s: %s", name, archive_error_string(c->a));
    free(ename);
    return;
  }
  if (S_ISREG(st.mode) && !is_hardlink && st.size > 0) {
    int fd = ctx->io->open(ctx->io_ud, path, O_RDONLY, 0);
    if (fd < 0) {
      tar_err(ctx, o, "%s: Cannot open: %s", path, cmd_strerror(fd));
    } else {
      uint64_t left = st.size;
      while (left > 0) {
        ssize_t r = ctx->io->read(ctx->io_ud, fd, c->buf, TAR_BUF);
        if (r <= 0) break;
        if ((uint64_t)r > left) r = (ssize_t)left;
        if (archive_write_data(c->a, c->buf, (size_t)r) < 0) {
          tar_err(ctx, o, "%s: %s", path, archive_error_string(c->a));
          break;
        }
        left -= (uint64_t)r;
      }
      ctx->io->close(ctx->io_ud, fd);
    }
  }
  free(ename);
  if (o->remove_files) {
    const char *abs = cmd_abspath(ctx, path);
    if (cmd_grow(&c->added, &c->capadded, c->nadded + 1, sizeof *c->added) == 0 && abs)
      c->added[c->nadded++] = (struct tar_added){abs, cmd_strdup(ctx, path), S_ISDIR(st.mode)};
  }
  if (S_ISDIR(st.mode) && o->recurse) {
    char **names;
    int n = cmd_fs_listdir(ctx, path, &names);
    if (n < 0) tar_err(ctx, o, "%s: Cannot open: %s", path, cmd_strerror(n));
    for (int i = 0; i < n; i++) add_path(ctx, o, c, cmd_join_path(ctx, path, names[i]), depth + 1);
  }
}

static int do_create(cmd_ctx *ctx, tar_opts *o, char **names, int nnames) {
  if (nnames == 0 && !o->files_from) {
    cmd_err_raw(ctx, "tar: Cowardly refusing to create an empty archive\n" TAR_TRY);
    return 2;
  }
  char filter = o->filter;
  if (filter == 'a') {
    filter = 0;
    const char *f = o->file ? o->file : "";
    size_t n = strlen(f);
#define ENDS(s) (n >= strlen(s) && strcmp(f + n - strlen(s), s) == 0)
    if (ENDS(".gz") || ENDS(".tgz")) filter = 'z';
    if (ENDS(".bz2") || ENDS(".tbz") || ENDS(".tbz2")) filter = 'j';
    if (ENDS(".xz") || ENDS(".txz")) filter = 'J';
    if (ENDS(".zst") || ENDS(".tzst")) filter = 'Z';
#undef ENDS
  }
  int fd = 1;
  if (o->file && strcmp(o->file, "-") != 0) {
    fd = ctx->io->open(ctx->io_ud, o->file, O_WRONLY | O_CREAT | O_TRUNC, 0666 & ~ctx->umask);
    if (fd < 0) {
      cmd_record_error(ctx, fd, o->file);
      cmd_err_raw(ctx, "tar: %s: Cannot open: %s\n", o->file, cmd_strerror(fd));
      cmd_err_raw(ctx, "tar: Error is not recoverable: exiting now\n");
      return 2;
    }
  }
  tar_create c = {0};
  arc_io *io = malloc(sizeof *io);
  c.a = archive_write_new();
  c.e = archive_entry_new();
  c.buf = malloc(TAR_BUF);
  int status = 0;
  if (!io || !c.a || !c.e || !c.buf) {
    status = 2;
    goto out;
  }
  io->ctx = ctx;
  io->fd = fd;
  switch (o->format) {
    case 'u': archive_write_set_format_ustar(c.a); break;
    case 'p': archive_write_set_format_pax_restricted(c.a); break;
    case '7': archive_write_set_format_v7tar(c.a); break;
    default: archive_write_set_format_gnutar(c.a); break;
  }
  if (filter == 'z') archive_write_add_filter_gzip(c.a);
  if (filter == 'j') archive_write_add_filter_bzip2(c.a);
  if (filter == 'J') archive_write_add_filter_xz(c.a);
  if (filter == 'Z') archive_write_add_filter_zstd(c.a);
  archive_write_set_bytes_in_last_block(c.a, 1);
  if (archive_write_open(c.a, io, NULL, arc_write_cb, NULL) != ARCHIVE_OK) {
    cmd_err_raw(ctx, "tar: %s\n", archive_error_string(c.a));
    status = 2;
    goto out;
  }
  const char *saved_cwd = ctx->cwd;
  for (int i = 0; i < nnames; i++) {
    if (strcmp(names[i], "-C") == 0 && i + 1 < nnames) {
      ctx->cwd = cmd_abspath(ctx, names[++i]);
      continue;
    }
    add_path(ctx, o, &c, names[i], 0);
  }
  if (o->files_from) {
    cmd_in *in;
    int rc = cmd_in_open(ctx, o->files_from, &in);
    if (rc < 0) {
      tar_err(ctx, o, "%s: Cannot open: %s", o->files_from, cmd_strerror(rc));
    } else {
      char *line;
      ssize_t n;
      char delim = o->null_names ? '\0' : '\n';
      while ((n = cmd_in_getdelim(in, &line, delim)) > 0) {
        if (cmd_poll(ctx)) break;
        if (line[n - 1] == delim) line[--n] = '\0';
        if (n > 0) {
          char *copy = strdup(line);
          if (copy) add_path(ctx, o, &c, copy, 0);
          free(copy);
        }
      }
      cmd_in_close(in);
    }
  }
  ctx->cwd = saved_cwd;
  if (archive_write_close(c.a) != ARCHIVE_OK) {
    cmd_err_raw(ctx, "tar: %s\n", archive_error_string(c.a));
    o->status = 2;
  }
  /* --remove-files: what went into the archive goes away, contents before
   * their directory (a directory still holding something is reported) */
  bool archived = o->status == 0;
  for (size_t i = c.nadded; archived && i-- > 0;) {
    int rc = c.added[i].dir ? store_path_rmdir(ctx->store, ctx->cwd, c.added[i].path)
                            : store_path_unlink(ctx->store, ctx->cwd, c.added[i].path);
    if (rc < 0 && rc != -ENOENT)
      tar_err(ctx, o, c.added[i].dir ? "%s: Cannot rmdir: %s" : "%s: Cannot unlink: %s",
              c.added[i].given, cmd_strerror(rc));
  }
  if (o->status) {
    cmd_err_raw(ctx, "tar: Exiting with failure status due to previous errors\n");
    status = 2;
  }
out:
  free(c.added);
  for (size_t i = 0; i < c.nlinks; i++) free(c.links[i].name);
  free(c.links);
  if (c.a) archive_write_free(c.a);
  if (c.e) archive_entry_free(c.e);
  free(c.buf);
  free(io);
  if (fd != 1) ctx->io->close(ctx->io_ud, fd);
  return status;
}

/* ---- options --------------------------------------------------------------------- */

/* Rewrites old-style "tar czf FILE ..." into "-c -z -f FILE ...". Arena. */
static char **old_style(cmd_ctx *ctx, int *argc, char **argv) {
  if (*argc < 2 || argv[1][0] == '-') return argv;
  const char *letters = argv[1];
  int extra = (int)strlen(letters);
  char **nv = cmd_alloc(ctx, (size_t)(*argc + extra + 1) * sizeof *nv);
  if (!nv) return argv;
  int k = 0, next = 2;
  nv[k++] = argv[0];
  for (const char *p = letters; *p; p++) {
    char *opt = cmd_alloc(ctx, 3);
    opt[0] = '-';
    opt[1] = *p;
    nv[k++] = opt;
    if (strchr("fCT", *p) && next < *argc) nv[k++] = argv[next++];
  }
  for (int i = next; i < *argc; i++) nv[k++] = argv[i];
  nv[k] = NULL;
  *argc = k;
  return nv;
}

/* --owner / --group: NAME, ID or NAME:ID as GNU tar's parse_owner_group.
 * Returns 0, or 2 after an error message. */
static int parse_owner(cmd_ctx *ctx, tar_opts *o, char *arg, bool group) {
  int64_t id = -1;
  const char *name = NULL, *bad = NULL;
  char *colon = strchr(arg, ':');
  if (colon) {
    *colon = '\0';
    if (*arg) name = arg;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(colon + 1, &end, 10);
    if (!colon[1] || *end || errno || v > UINT32_MAX - 1 || colon[1] == '-') bad = colon + 1;
    else id = (int64_t)v;
  } else if (*arg >= '0' && *arg <= '9') {
    char *end;
    errno = 0;
    unsigned long long v = strtoull(arg, &end, 10);
    if (*end) name = arg;
    else if (errno || v > UINT32_MAX - 1) bad = arg;
    else id = (int64_t)v;
  } else {
    name = arg;
  }
  if (bad) {
    cmd_err_raw(ctx, "tar: %s: Invalid owner or group ID\n"
                     "tar: Error is not recoverable: exiting now\n", bad);
    return 2;
  }
  if (id < 0 && name) {
    uint32_t v;
    if ((group ? cmd_fs_groupid(o->ids, name, &v) : cmd_fs_userid(o->ids, name, &v)) == 0)
      id = v;
  }
  if (group) o->group = id, o->group_name = name;
  else o->owner = id, o->owner_name = name;
  return 0;
}

/* --mtime: a date, or the time of a file when it starts with '/' or '.'. */
static int parse_mtime(cmd_ctx *ctx, tar_opts *o, const char *arg) {
  o->has_mtime = true;
  if (arg[0] == '/' || arg[0] == '.') {
    store_stat st;
    int rc = store_path_stat(ctx->store, ctx->cwd, arg, &st);
    if (rc < 0) {
      cmd_record_error(ctx, rc, arg);
      cmd_err_raw(ctx, "tar: %s: Cannot stat: %s\ntar: Date sample file not found\n" TAR_TRY,
                  arg, cmd_strerror(rc));
      return 2;
    }
    o->mtime = st.mtime;
    return 0;
  }
  long ns;
  if (cmd_parse_date(arg, ctx->now, 0, &o->tz, &o->mtime, &ns) < 0) {
    /* GNU warns and goes on with the smallest time it can hold */
    cmd_err_raw(ctx, "tar: Substituting -9223372036854775807 for unknown date format %s\n",
                cmd_gnu_quote(ctx, arg));
    o->mtime = -INT64_MAX;
  }
  return 0;
}

/* -X FILE: one exclude pattern per line. */
static int read_excludes(cmd_ctx *ctx, tar_opts *o, const char *file) {
  cmd_in *in;
  int rc = cmd_in_open(ctx, file, &in);
  if (rc < 0) {
    cmd_record_error(ctx, rc, file);
    cmd_err_raw(ctx, "tar: %s: Cannot open: %s\ntar: Error is not recoverable: exiting now\n",
                file, cmd_strerror(rc));
    return 2;
  }
  char *line;
  ssize_t n;
  while ((n = cmd_in_getdelim(in, &line, '\n')) > 0) {
    if (line[n - 1] == '\n') line[--n] = '\0';
    if (n == 0) continue;
    if (o->nexcludes == TAR_MAX_EXCLUDES) {
      cmd_err_raw(ctx, "tar: %s: too many exclude patterns (limit %d)\n", file,
                  TAR_MAX_EXCLUDES);
      cmd_in_close(in);
      return 2;
    }
    o->excludes[o->nexcludes++] = cmd_strdup(ctx, line);
  }
  cmd_in_close(in);
  return 0;
}

int cmd_tar_main(cmd_ctx *ctx, int argc, char **argv) {
  /* The long-only options, in the order of the string below; --no-same-owner,
   * --same-owner, --no-same-permissions, --atime-preserve, --wildcards and
   * --overwrite are accepted and ignored. (GNU tar has many more options: the
   * possibilities of an ambiguous prefix are ours, long-only ones first.) */
  enum {
    OPT_ZSTD = CMD_OPT_LONG, OPT_STRIP, OPT_EXCLUDE, OPT_VCS, OPT_OVERWRITE, OPT_NO_SAME_OWNER,
    OPT_SAME_OWNER, OPT_NO_SAME_PERMS, OPT_ATIME, OPT_OWNER, OPT_GROUP, OPT_NUMERIC, OPT_MTIME,
    OPT_CLAMP, OPT_MODE, OPT_SORT, OPT_NULL, OPT_NO_NULL, OPT_WILDCARDS, OPT_NORECURSE,
    OPT_RECURSE, OPT_TRANSFORM, OPT_XFORM, OPT_REMOVE
  };
  static const char spec[] =
      "(zstd)(strip-components):(exclude):(exclude-vcs)(overwrite)(no-same-owner)(same-owner)"
      "(no-same-permissions)(atime-preserve)::(owner):(group):(numeric-owner)(mtime):"
      "(clamp-mtime)(mode):(sort):(null)(no-null)(wildcards)(no-recursion)(recursion)"
      "(transform):(xform):(remove-files)(help)c(create)x(extract)(get)t(list)f:(file)"
      "z(gzip)(gunzip)j(bzip2)J(xz)a(auto-compress)C:(directory)v(verbose)O(to-stdout)"
      "k(keep-old-files)m(touch)h(dereference)T:(files-from)X:(exclude-from)"
      "p(preserve-permissions)(same-permissions)H:(format)P(absolute-names)";
  argv = old_style(ctx, &argc, argv);
  tar_opts o = {.ugswidth = 19, .recurse = true, .owner = -1, .group = -1, .format = 'g'};
  cmd_tz_from_env(ctx, &o.tz);
  o.ids = cmd_fs_ids_load(ctx);
  if (!o.ids) return 2;
  cmd_getopt_state st = CMD_GETOPT_INIT;
  int c;
  while ((c = cmd_getopt(ctx, &st, argc, argv, spec, NULL)) != -1) {
    switch (c) {
      case 'c': case 'x': case 't':
        if (o.mode && o.mode != c) {
          cmd_err_raw(ctx, "tar: You may not specify more than one '-Acdtrux', "
                           "'--delete' or  '--test-label' option\n");
          return cmd_usage_hint(ctx, 2);
        }
        o.mode = (char)c;
        break;
      case 'f': o.file = st.arg; break;
      case OPT_REMOVE: o.remove_files = true; break;
      case OPT_TRANSFORM:
      case OPT_XFORM:
        if (o.nxform_args < TAR_MAX_XFORMS) o.xform_args[o.nxform_args++] = st.arg;
        break;
      case 'z': case 'j': case 'J': case 'a': o.filter = (char)c; break;
      case 'C': o.dir = st.arg; break;
      case 'v': o.verbose++; break;
      case 'O': o.to_stdout = true; break;
      case 'k': o.keep_old = true; break;
      case 'm': o.no_mtime = true; break;
      case 'h': o.deref = true; break;
      case 'T': o.files_from = st.arg; break;
      case 'p': case 'P': case OPT_NO_SAME_OWNER: case OPT_SAME_OWNER: case OPT_NO_SAME_PERMS:
      case OPT_ATIME: case OPT_WILDCARDS: case OPT_OVERWRITE: break;
      case OPT_STRIP: {
        char *end;
        o.strip = strtol(st.arg, &end, 10);
        if (*end || o.strip < 0) {
          cmd_err_raw(ctx, "tar: %s: Invalid number of elements\n" TAR_TRY, st.arg);
          return 2;
        }
        break;
      }
      case OPT_ZSTD: o.filter = 'Z'; break;
      case 'X':
        if (read_excludes(ctx, &o, st.arg)) return 2;
        break;
      case OPT_VCS: o.exclude_vcs = true; break;
      case OPT_NULL: o.null_names = true; break;
      case OPT_NO_NULL: o.null_names = false; break;
      case OPT_NORECURSE: o.recurse = false; break;
      case OPT_RECURSE: o.recurse = true; break;
      case OPT_NUMERIC: o.numeric = true; break;
      case OPT_CLAMP: o.clamp = true; break;
      case OPT_MTIME:
        if (parse_mtime(ctx, &o, st.arg)) return 2;
        break;
      case OPT_OWNER: case OPT_GROUP:
        if (parse_owner(ctx, &o, cmd_strdup(ctx, st.arg), c == OPT_GROUP)) return 2;
        break;
      case OPT_MODE:
        o.mode_changes = cmd_mode_compile(ctx, st.arg);
        if (!o.mode_changes) {
          cmd_err_raw(ctx, "tar: Invalid mode given on option\n"
                           "tar: Error is not recoverable: exiting now\n");
          return 2;
        }
        break;
      case OPT_SORT:
        /* the store lists every directory sorted by name bytewise, which is
         * --sort=name; none and inode are orders GNU leaves to the system */
        if (strcmp(st.arg, "none") && strcmp(st.arg, "name") && strcmp(st.arg, "inode")) {
          cmd_err_raw(ctx, "tar: invalid argument %s for %s\nValid arguments are:\n"
                           "  - %s\n  - %s\n  - %s\n",
                      cmd_gnu_quote_n(ctx, st.arg, -1), cmd_gnu_quote_n(ctx, "--sort", -1),
                      cmd_gnu_quote_n(ctx, "none", -1), cmd_gnu_quote_n(ctx, "name", -1),
                      cmd_gnu_quote_n(ctx, "inode", -1));
          return 2;
        }
        break;
      case 'H':
        if (!strcmp(st.arg, "gnu") || !strcmp(st.arg, "oldgnu")) o.format = 'g';
        else if (!strcmp(st.arg, "ustar")) o.format = 'u';
        else if (!strcmp(st.arg, "posix") || !strcmp(st.arg, "pax")) o.format = 'p';
        else if (!strcmp(st.arg, "v7")) o.format = '7';
        else {
          cmd_err_raw(ctx, "tar: %s: Invalid archive format\n" TAR_TRY, st.arg);
          return 2;
        }
        break;
      case OPT_EXCLUDE:
        if (o.nexcludes < TAR_MAX_EXCLUDES) o.excludes[o.nexcludes++] = st.arg;
        break;
      case CMD_OPT_HELP:
        cmd_outs(ctx,
                 "Usage: tar [OPTION...] [FILE]...\n"
                 "  -c, --create       create a new archive\n"
                 "  -x, --extract      extract files from an archive\n"
                 "  -t, --list         list the contents of an archive\n"
                 "  -f, --file=ARCHIVE use archive file ARCHIVE (- for stdin/stdout)\n"
                 "  -z, -j, -J         filter through gzip, bzip2, xz\n"
                 "  -a, --auto-compress  choose the compression from the suffix\n"
                 "  -C, --directory=DIR  change to DIR\n"
                 "  -v, --verbose      list files processed\n"
                 "  -O, --to-stdout    extract files to standard output\n"
                 "  -k, --keep-old-files  don't replace existing files\n"
                 "  -m, --touch        don't extract file modified time\n"
                 "  -h, --dereference  archive the files symlinks point to\n"
                 "  -T, --files-from=FILE  get names to archive from FILE\n"
                 "      --strip-components=N  strip N leading components on extraction\n"
                 "      --exclude=PATTERN     exclude files matching PATTERN\n"
                 "  -X, --exclude-from=FILE   exclude patterns listed in FILE\n"
                 "      --exclude-vcs         exclude version control directories\n"
                 "      --no-recursion        do not descend into directories\n"
                 "      --null                -T reads null-terminated names\n"
                 "      --mtime=DATE-OR-FILE  set mtime for added files\n"
                 "      --clamp-mtime         only set time when the file is newer\n"
                 "      --owner=NAME[:UID], --group=NAME[:GID]  force owner/group\n"
                 "      --numeric-owner       always use numbers for user/group names\n"
                 "      --mode=CHANGES        force (symbolic) mode CHANGES\n"
                 "      --sort=ORDER          none, name or inode (name is always used)\n"
                 "  -H, --format=FORMAT       gnu, oldgnu, ustar, posix, pax, v7\n"
                 "      --zstd                filter through zstd\n");
        return 0;
      default: return 2;
    }
  }
  if (!o.mode) {
    cmd_err_raw(ctx, "tar: You must specify one of the '-Acdtrux', '--delete' or "
                     "'--test-label' options\n"
                     "Try 'tar --help' or 'tar --usage' for more information.\n");
    return 2;
  }
  for (int i = 0; i < o.nxform_args; i++)
    if (xform_parse(ctx, &o, o.xform_args[i])) {
      xform_free(&o);
      return 2;
    }
  int status;
  if (o.mode == 'c') {
    if (o.dir) ctx->cwd = cmd_abspath(ctx, o.dir);
    status = do_create(ctx, &o, argv + st.ind, argc - st.ind);
  } else {
    status = do_read(ctx, &o, argv + st.ind, argc - st.ind);
  }
  xform_free(&o);
  return status;
}
