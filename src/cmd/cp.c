/*
 * cp - copy files and directories (GNU coreutils compatible).
 *
 *   cp [OPTION]... [-T] SOURCE DEST
 *   cp [OPTION]... SOURCE... DIRECTORY
 *   cp [OPTION]... -t DIRECTORY SOURCE...
 *   -a (-dR --preserve=all), --attributes-only, -b/--backup[=CONTROL],
 *   -d (-P --preserve=links), -f, -i, -H, -l, -L, -n, -P, -p,
 *   --preserve[=ATTR_LIST], --no-preserve=ATTR_LIST, --parents, -R/-r,
 *   --reflink[=WHEN] and --sparse=WHEN (accepted), --remove-destination,
 *   --strip-trailing-slashes, -s, -S SUFFIX, -t DIR, -T, -u, -v, -x, -Z
 *
 * Design decisions:
 *  - File data moves inode to inode (store_read/store_write in 64 KiB chunks);
 *    a recursive copy walks the source with the lib/fs walker (iterative,
 *    symlink-loop safe with -L) and creates each entry by name in the inode
 *    of the destination directory it made one level up (cp_dst), so no path
 *    is resolved per entry and depth costs are linear; modes are exact (the
 *    inode API applies no umask of its own). Paths of PATH_MAX bytes or more
 *    fail as GNU's path-based cp does. The whole call is one store
 *    transaction, so a large copy commits once.
 *  - "Copy a directory into itself" is detected like GNU: the destination
 *    directory is created first, and when the walk meets that very inode
 *    inside the source, the error is printed and that subtree skipped (GNU
 *    prints the same message at the same point, after the mkdir).
 *  - Standard input is not a terminal: -i prompts on stderr and reads the
 *    answer from stdin; no prompts otherwise.
 *  - Hard links inside the source are kept with -a / --preserve=links using a
 *    small hash table from source inode to the first destination path.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/lib/buf.h"
#include "cmd/lib/fs.h"
#include "cmd/lib/gnu.h"

CMD_DEFINE("cp", cmd_cp_main);

static const char cp_usage[] =
    "Usage: cp [OPTION]... [-T] SOURCE DEST\n"
    "  or:  cp [OPTION]... SOURCE... DIRECTORY\n"
    "  or:  cp [OPTION]... -t DIRECTORY SOURCE...\n"
    "Copy SOURCE to DEST, or multiple SOURCE(s) to DIRECTORY.\n"
    "\n"
    "  -a, --archive                same as -dR --preserve=all\n"
    "      --attributes-only        don't copy the file data, just the attributes\n"
    "      --backup[=CONTROL]       make a backup of each existing destination file\n"
    "  -b                           like --backup but does not accept an argument\n"
    "  -d                           same as --no-dereference --preserve=links\n"
    "  -f, --force                  if an existing destination file cannot be\n"
    "                                 opened, remove it and try again\n"
    "  -i, --interactive            prompt before overwrite\n"
    "  -H                           follow command-line symbolic links in SOURCE\n"
    "  -l, --link                   hard link files instead of copying\n"
    "  -L, --dereference            always follow symbolic links in SOURCE\n"
    "  -n, --no-clobber             do not overwrite an existing file\n"
    "  -P, --no-dereference         never follow symbolic links in SOURCE\n"
    "  -p                           same as --preserve=mode,ownership,timestamps\n"
    "      --preserve[=ATTR_LIST]   preserve the specified attributes\n"
    "      --no-preserve=ATTR_LIST  don't preserve the specified attributes\n"
    "      --parents                use full source file name under DIRECTORY\n"
    "  -R, -r, --recursive          copy directories recursively\n"
    "      --remove-destination     remove each existing destination file before\n"
    "                                 attempting to open it\n"
    "      --strip-trailing-slashes  remove any trailing slashes from each SOURCE\n"
    "  -s, --symbolic-link          make symbolic links instead of copying\n"
    "  -S, --suffix=SUFFIX          override the usual backup suffix\n"
    "  -t, --target-directory=DIRECTORY  copy all SOURCE arguments into DIRECTORY\n"
    "  -T, --no-target-directory    treat DEST as a normal file\n"
    "  -u, --update                 copy only when the SOURCE file is newer\n"
    "                                 than the destination file or when the\n"
    "                                 destination file is missing\n"
    "  -v, --verbose                explain what is being done\n"
    "  -x, --one-file-system        stay on this file system\n"
    CMD_HELP_VERSION_LINES;

enum { DEREF_UNSET, DEREF_NEVER, DEREF_CMDLINE, DEREF_ALL };

/* Source inode -> destination path, for --preserve=links. */
typedef struct cp_link {
  store_ino ino;     /* source inode (0 = empty slot) */
  store_ino dst_ino; /* inode of its first copy */
  const char *dst;   /* arena path of its first copy */
} cp_link;

/* Where a copy goes: its path for messages and, when known, the directory
 * inode and name it is made under. The recursive copy keeps the inode of
 * each destination directory it made, so entries are created relative to it
 * (store_create / store_mkdir / store_lookup by inode): no path is resolved
 * from the root per entry, and depth costs are linear. */
typedef struct cp_dst {
  const char *path; /* as shown in messages; used by path operations */
  store_ino dir;    /* the directory holding it (0: use path operations) */
  const char *name; /* its name in dir (when dir != 0) */
} cp_dst;

/* A destination directory of the recursive copy, by depth. */
typedef struct cp_level {
  store_ino ino; /* the directory (0: none, its source is skipped) */
  bool made;     /* created by this copy (its mode is fixed at the end) */
} cp_level;

/* Options and state of one cp call. */
typedef struct cp_opts {
  cmd_ctx *ctx;          /* the command */
  bool recursive;        /* -r */
  bool force;            /* -f */
  bool interactive;      /* -i */
  bool noclobber;        /* -n */
  bool update;           /* -u */
  bool verbose;          /* -v */
  bool hardlink;         /* -l */
  bool symlink;          /* -s */
  bool parents;          /* --parents */
  bool remove_dest;      /* --remove-destination */
  bool attr_only;        /* --attributes-only */
  int deref;             /* DEREF_* */
  bool p_mode, p_owner, p_time, p_links; /* --preserve */
  int backup;            /* CMD_BACKUP_* */
  const char *suffix;    /* backup suffix */
  cmd_in *in;            /* stdin for -i answers */
  int status;            /* exit status */
  store_ino top_dst_ino; /* the destination directory of the current operand */
  const char *top_src, *top_dst; /* names for "into itself" */
  cp_link *links;        /* malloc'd open-addressing table */
  size_t nlinks, linkcap;/* used / size (power of two) */
  const char *target_dir; /* the directory the sources go into, or NULL */
  const char *dest;      /* without target_dir: the one source's copy */
} cp_opts;

static void cp_err(cp_opts *o, int rc, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void cp_err(cp_opts *o, int rc, const char *path, const char *fmt, ...) {
  char msg[8192];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (rc) cmd_errorf(o->ctx, "%s: %s", msg, cmd_strerror(rc));
  else cmd_errorf(o->ctx, "%s", msg);
  if (rc) cmd_record_error(o->ctx, rc, path);
  o->status = 1;
}

/* ---- hard link table ----------------------------------------------------------- */

static const cp_link *link_find(cp_opts *o, store_ino ino) {
  if (!o->linkcap) return NULL;
  size_t mask = o->linkcap - 1;
  for (size_t i = (size_t)ino * 0x9E3779B97F4A7C15ull & mask;; i = (i + 1) & mask) {
    if (!o->links[i].ino) return NULL;
    if (o->links[i].ino == ino) return &o->links[i];
  }
}

static void link_add(cp_opts *o, store_ino ino, const char *dst, store_ino dst_ino) {
  if ((o->nlinks + 1) * 2 > o->linkcap) {
    size_t nc = o->linkcap ? o->linkcap * 2 : 64;
    cp_link *nl = calloc(nc, sizeof *nl);
    if (!nl) return;
    for (size_t k = 0; k < o->linkcap; k++) {
      if (!o->links[k].ino) continue;
      size_t i = (size_t)o->links[k].ino * 0x9E3779B97F4A7C15ull & (nc - 1);
      while (nl[i].ino) i = (i + 1) & (nc - 1);
      nl[i] = o->links[k];
    }
    free(o->links);
    o->links = nl;
    o->linkcap = nc;
  }
  size_t mask = o->linkcap - 1;
  size_t i = (size_t)ino * 0x9E3779B97F4A7C15ull & mask;
  while (o->links[i].ino) i = (i + 1) & mask;
  o->links[i].ino = ino;
  o->links[i].dst_ino = dst_ino;
  o->links[i].dst = cmd_strdup(o->ctx, dst);
  o->nlinks++;
}

/* ---- backups ------------------------------------------------------------------------ */

/* Renames an existing destination out of the way. Returns 0 or -errno. */
static int make_backup(cp_opts *o, const char *dst, const char **bk_out) {
  cmd_ctx *ctx = o->ctx;
  char *bk = cmd_fs_backup_name(ctx, dst, o->backup, o->suffix);
  if (!bk) return -ENOMEM;
  *bk_out = bk;
  return store_path_rename(ctx->store, ctx->cwd, dst, bk);
}

/* ---- the destination, by inode when known -------------------------------------------- */

/* A destination given as a path (an operand): its parent is resolved once
 * so the work below is by inode; names the inode API cannot take (the root,
 * ".", "..", a trailing slash) keep path operations, which give the errors. */
static cp_dst dst_of_path(cp_opts *o, const char *path) {
  cp_dst d = {.path = path};
  size_t l = strlen(path);
  if (l == 0 || path[l - 1] == '/') return d;
  char name[STORE_NAME_MAX + 1];
  store_ino dir;
  if (store_resolve_parent(o->ctx->store, o->ctx->cwd, path, &dir, name) < 0) return d;
  if (!name[0] || !strcmp(name, ".") || !strcmp(name, "..")) return d;
  d.name = cmd_strdup(o->ctx, name);
  if (d.name) d.dir = dir;
  return d;
}

static int dst_lstat(cp_opts *o, const cp_dst *d, store_stat *st) {
  cmd_ctx *ctx = o->ctx;
  int rc = d->dir ? store_lookup(ctx->store, d->dir, d->name, st)
                  : store_path_lstat(ctx->store, ctx->cwd, d->path, st);
  if (rc == 0) cmd_fs_present(st);
  return rc;
}

static int dst_unlink(cp_opts *o, const cp_dst *d) {
  cmd_ctx *ctx = o->ctx;
  return d->dir ? store_unlink(ctx->store, d->dir, d->name)
                : store_path_unlink(ctx->store, ctx->cwd, d->path);
}

/* Hard link to inode `ino` (path `target` for the path fallback). */
static int dst_link(cp_opts *o, const cp_dst *d, store_ino ino, const char *target) {
  cmd_ctx *ctx = o->ctx;
  return d->dir ? store_link(ctx->store, ino, d->dir, d->name, NULL)
                : store_path_link(ctx->store, ctx->cwd, target, d->path);
}

static int dst_symlink(cp_opts *o, const cp_dst *d, const char *target, store_ino *ino) {
  cmd_ctx *ctx = o->ctx;
  store_stat st;
  int rc = d->dir ? store_symlink(ctx->store, d->dir, d->name, target, &st)
                  : store_path_symlink(ctx->store, ctx->cwd, target, d->path);
  if (rc == 0 && !d->dir) rc = store_path_lstat(ctx->store, ctx->cwd, d->path, &st);
  *ino = rc == 0 ? st.ino : 0;
  return rc;
}

/* open(O_WRONLY | O_CREAT [| O_TRUNC]): a new file gets exactly `mode`; an
 * existing regular file needs w and is truncated; anything else (a symlink
 * to write through...) goes through the path API. `absent`: the caller just
 * found no such name, so the file is created without another lookup. */
static int dst_open(cp_opts *o, const cp_dst *d, int flags, uint32_t mode, bool absent,
                    store_stat *st) {
  cmd_ctx *ctx = o->ctx;
  if (d->dir) {
    store_stat cur;
    int rc = absent ? -ENOENT : store_lookup(ctx->store, d->dir, d->name, &cur);
    if (rc == -ENOENT) return store_create(ctx->store, d->dir, d->name, mode, st);
    if (rc < 0) return rc;
    if (S_ISDIR(cur.mode)) return -EISDIR;
    if (S_ISREG(cur.mode)) {
      if ((rc = store_access(ctx->store, cur.ino, W_OK)) < 0) return rc;
      if ((flags & O_TRUNC) && cur.size && (rc = store_truncate(ctx->store, cur.ino, 0)) < 0)
        return rc;
      *st = cur;
      return 0;
    }
  }
  return store_path_open(ctx->store, ctx->cwd, d->path, flags, mode, st);
}

/* mkdir with exactly `mode`; *ino gets the new directory. */
static int dst_mkdir(cp_opts *o, const cp_dst *d, uint32_t mode, store_ino *ino) {
  cmd_ctx *ctx = o->ctx;
  store_stat st;
  int rc = d->dir ? store_mkdir(ctx->store, d->dir, d->name, mode, &st)
                  : store_path_mkdir(ctx->store, ctx->cwd, d->path, mode);
  if (rc == 0 && !d->dir) rc = store_path_stat(ctx->store, ctx->cwd, d->path, &st);
  *ino = rc == 0 ? st.ino : 0;
  return rc;
}

/* ---- copying one entry ---------------------------------------------------------------- */

/* Applies --preserve to the copy `ino` (a symlink itself when is_link). */
static void preserve_attrs(cp_opts *o, const char *dst, store_ino ino, const store_stat *src,
                           bool is_link) {
  cmd_ctx *ctx = o->ctx;
  if (!ino) return;
  if (o->p_time) {
    store_setattr a = {.atime = src->atime, .atime_nsec = src->atime_nsec,
                       .mtime = src->mtime, .mtime_nsec = src->mtime_nsec};
    int rc = store_setattr_ino(ctx->store, ino, &a, STORE_SET_ATIME | STORE_SET_MTIME, NULL);
    if (rc < 0 && !is_link)
      cp_err(o, rc, dst, "preserving times for %s", cmd_gnu_quoteaf(ctx, dst));
  }
  if (is_link) return;
  if (o->p_owner) {
    store_stat dst_st;
    if (store_getattr(ctx->store, ino, &dst_st) == 0 &&
        (dst_st.uid != src->uid || dst_st.gid != src->gid)) {
      store_setattr a = {.uid = src->uid, .gid = src->gid};
      store_setattr_ino(ctx->store, ino, &a, STORE_SET_UID | STORE_SET_GID, NULL);
    }
  }
  if (o->p_mode) {
    store_setattr a = {.mode = src->mode & 07777};
    int rc = store_setattr_ino(ctx->store, ino, &a, STORE_SET_MODE, NULL);
    if (rc < 0) cp_err(o, rc, dst, "preserving permissions for %s", cmd_gnu_quoteaf(ctx, dst));
  }
}

/* Handles an existing destination before writing a non-directory: returns 1
 * to go on, 0 to skip silently, -1 after an error. *dst_exists tells whether
 * the destination is still there. */
static int check_existing(cp_opts *o, const char *src, const store_stat *sst,
                          const cp_dst *d, bool *dst_exists, store_stat *dstat) {
  cmd_ctx *ctx = o->ctx;
  const char *dst = d->path;
  int rc = dst_lstat(o, d, dstat);
  *dst_exists = rc == 0;
  if (rc < 0) return 1;
  store_stat dfollow = *dstat;
  if (S_ISLNK(dstat->mode) && cmd_fs_stat(ctx, dst, &dfollow) < 0) dfollow = *dstat;
  if (dfollow.ino == sst->ino || dstat->ino == sst->ino) {
    if (o->hardlink && dstat->ino == sst->ino) return 0;
    if (!(o->backup && o->force) && !(S_ISLNK(dstat->mode) && !S_ISLNK(sst->mode) &&
                                      o->deref != DEREF_ALL && dstat->ino != sst->ino)) {
      cp_err(o, 0, dst, "%s and %s are the same file", cmd_gnu_quoteaf(ctx, src),
             cmd_gnu_quoteaf(ctx, dst));
      return -1;
    }
  }
  if (S_ISDIR(dfollow.mode)) {
    cp_err(o, 0, dst, "cannot overwrite directory %s with non-directory",
           cmd_gnu_quoteaf(ctx, dst));
    return -1;
  }
  if (o->noclobber) return 0;
  if (o->update && (dstat->mtime > sst->mtime ||
                    (dstat->mtime == sst->mtime && dstat->mtime_nsec >= sst->mtime_nsec)))
    return 0;
  if (o->interactive) {
    cmd_err_raw(ctx, "cp: overwrite %s? ", cmd_gnu_quoteaf(ctx, dst));
    if (!cmd_fs_answer_yes(o->ctx, &o->in)) return 0;
  }
  if (o->backup) {
    const char *bk;
    rc = make_backup(o, dst, &bk);
    if (rc < 0) {
      cp_err(o, rc, dst, "cannot backup %s", cmd_gnu_quoteaf(ctx, dst));
      return -1;
    }
    *dst_exists = false;
  } else if (o->remove_dest || o->hardlink || o->symlink ||
             (S_ISLNK(sst->mode) && o->deref != DEREF_ALL)) {
    rc = dst_unlink(o, d);
    if (rc < 0 && rc != -ENOENT) {
      cp_err(o, rc, dst, "cannot remove %s", cmd_gnu_quoteaf(ctx, dst));
      return -1;
    }
    *dst_exists = false;
  }
  return 1;
}

static void verbose_copy(cp_opts *o, const char *src, const char *dst, const char *bk) {
  cmd_ctx *ctx = o->ctx;
  if (!o->verbose) return;
  cmd_outf(ctx, "%s -> %s", cmd_gnu_quoteaf(ctx, src), cmd_gnu_quoteaf(ctx, dst));
  if (bk) cmd_outf(ctx, " (backup: %s)", cmd_gnu_quoteaf(ctx, bk));
  cmd_outc(ctx, '\n');
}

/* After making the link dst to target (a copy of src): rc's error "cannot create
 * KIND dst to target", or the verbose line "src -> dst". */
static void link_done(cp_opts *o, int rc, const char *kind, const char *src,
                      const char *dst, const char *target) {
  cmd_ctx *ctx = o->ctx;
  if (rc < 0)
    cp_err(o, rc, dst, "cannot create %s %s to %s", kind, cmd_gnu_quoteaf(ctx, dst),
           cmd_gnu_quoteaf(ctx, target));
  else
    verbose_copy(o, src, dst, NULL);
}

/* Copies a non-directory src (stat'ed as sst, following or not) to dst. */
/* Copies what the descriptor path `src` reads (a pipe) into the store file
 * `ino`. Returns 0 or a negative errno. */
static int copy_stream(cmd_ctx *ctx, const char *src, store_ino ino) {
  int fd = cmd_open_input(ctx, src);
  if (fd < 0) return fd;
  char buf[16384];
  uint64_t off = 0;
  ssize_t n;
  int rc = 0;
  while ((n = ctx->io->read(ctx->io_ud, fd, buf, sizeof buf)) > 0) {
    if (cmd_poll(ctx)) {
      rc = -EINTR;
      break;
    }
    ssize_t w = store_write(ctx->store, ino, buf, (size_t)n, off);
    if (w < 0) {
      rc = (int)w;
      break;
    }
    off += (uint64_t)n;
  }
  if (n < 0 && rc == 0) rc = (int)n;
  cmd_close_input(ctx, fd);
  return rc;
}

static void copy_file(cp_opts *o, const char *src, const store_stat *sst, const cp_dst *d) {
  cmd_ctx *ctx = o->ctx;
  const char *dst = d->path;
  bool exists;
  store_stat dstat;
  int r = check_existing(o, src, sst, d, &exists, &dstat);
  if (r <= 0) return;
  size_t dl = strlen(dst);
  if (dl >= CMD_PATH_MAX) { /* GNU opens the destination by path */
    cp_err(o, -ENAMETOOLONG, dst, "cannot create regular file %s", cmd_gnu_quoteaf(ctx, dst));
    return;
  }
  if (!exists && dl > 0 && dst[dl - 1] == '/') {
    cp_err(o, -ENOTDIR, dst, "cannot create regular file %s", cmd_gnu_quoteaf(ctx, dst));
    return;
  }
  int rc;
  if (o->hardlink) {
    link_done(o, dst_link(o, d, sst->ino, src), "hard link", src, dst, src);
    return;
  }
  if (o->symlink) {
    if (src[0] != '/' && strchr(dst, '/')) {
      /* GNU: relative targets only work from the current directory */
      const char *dd = cmd_fs_dirname(ctx, dst);
      store_stat a, b;
      if (!(cmd_fs_stat(ctx, dd, &a) == 0 && cmd_fs_stat(ctx, ".", &b) == 0 && a.ino == b.ino)) {
        cp_err(o, 0, dst, "%s: can make relative symbolic links only in current directory",
               dst);
        return;
      }
    }
    store_ino ino;
    link_done(o, dst_symlink(o, d, src, &ino), "symbolic link", src, dst, src);
    return;
  }
  if (o->p_links && sst->nlink > 1 && !S_ISDIR(sst->mode)) {
    const cp_link *first = link_find(o, sst->ino);
    if (first) {
      link_done(o, dst_link(o, d, first->dst_ino, first->dst), "hard link", src, dst,
                first->dst);
      return;
    }
  }
  if (S_ISLNK(sst->mode)) {
    /* sst is the link itself: read it by inode */
    char target[STORE_PATH_MAX];
    ssize_t tl = store_readlink(ctx->store, sst->ino, target, sizeof target);
    if (tl < 0) {
      cp_err(o, (int)tl, src, "cannot read symbolic link %s", cmd_gnu_quoteaf(ctx, src));
      return;
    }
    store_ino ino;
    rc = dst_symlink(o, d, target, &ino);
    if (rc < 0) {
      cp_err(o, rc, dst, "cannot create symbolic link %s", cmd_gnu_quoteaf(ctx, dst));
      return;
    }
    preserve_attrs(o, dst, ino, sst, true);
    verbose_copy(o, src, dst, NULL);
    if (o->p_links && sst->nlink > 1) link_add(o, sst->ino, dst, ino);
    return;
  }
  /* a pipe or device outside the store (/dev/fd/N, /dev/null): its bytes */
  bool stream = sst->ino == 0 && (S_ISFIFO(sst->mode) || S_ISCHR(sst->mode));
  if (!S_ISREG(sst->mode) && !stream) {
    cp_err(o, -EOPNOTSUPP, src, "cannot copy %s", cmd_gnu_quoteaf(ctx, src));
    return;
  }
  if (!stream && store_access(ctx->store, sst->ino, R_OK) != 0) {
    cp_err(o, -EACCES, src, "cannot open %s for reading", cmd_gnu_quoteaf(ctx, src));
    return;
  }
  store_stat dst_st;
  uint32_t mode = (sst->mode & 0777) & ~(ctx->umask & 0777);
  int flags = O_WRONLY | O_CREAT | (o->attr_only ? 0 : O_TRUNC);
  rc = dst_open(o, d, flags, mode, !exists, &dst_st);
  if (rc < 0 && exists && o->force && rc != -ENOENT && rc != -ENOTDIR) {
    if (dst_unlink(o, d) == 0) rc = dst_open(o, d, flags, mode, true, &dst_st);
  }
  if (rc < 0) {
    /* GNU says "create" whether or not the file existed */
    cp_err(o, rc, dst, "cannot create regular file %s", cmd_gnu_quoteaf(ctx, dst));
    return;
  }
  if (!o->attr_only) {
    rc = stream ? copy_stream(ctx, src, dst_st.ino)
                : cmd_fs_copy_data(ctx, sst->ino, dst_st.ino, sst->size);
    if (rc < 0) {
      cp_err(o, rc, dst, "error writing %s", cmd_gnu_quoteaf(ctx, dst));
      return;
    }
  }
  preserve_attrs(o, dst, dst_st.ino, sst, false);
  verbose_copy(o, src, dst, NULL);
  if (o->p_links && sst->nlink > 1) link_add(o, sst->ino, dst, dst_st.ino);
}

/* Makes (or reuses) the destination directory for source directory src.
 * Returns 1 when the caller should copy its contents, 0 to skip. */
static int make_dir(cp_opts *o, const char *src, const store_stat *sst, const cp_dst *d,
                    store_ino *dst_ino, bool *made) {
  cmd_ctx *ctx = o->ctx;
  const char *dst = d->path;
  store_stat dstat;
  int rc = dst_lstat(o, d, &dstat);
  if (rc == 0 && S_ISLNK(dstat.mode)) rc = cmd_fs_stat(ctx, dst, &dstat); /* follow it */
  if (rc == 0) {
    if (!S_ISDIR(dstat.mode)) {
      cp_err(o, 0, dst, "cannot overwrite non-directory %s with directory %s",
             cmd_gnu_quoteaf(ctx, dst), cmd_gnu_quoteaf(ctx, src));
      return 0;
    }
    *dst_ino = dstat.ino;
    *made = false;
    return 1;
  }
  uint32_t mode = ((sst->mode & 0777) & ~(ctx->umask & 0777)) | S_IRWXU;
  rc = strlen(dst) >= CMD_PATH_MAX ? -ENAMETOOLONG : dst_mkdir(o, d, mode, dst_ino);
  if (rc < 0) {
    cp_err(o, rc, dst, "cannot create directory %s", cmd_gnu_quoteaf(ctx, dst));
    return 0;
  }
  verbose_copy(o, src, dst, NULL);
  *made = true;
  return 1;
}

/* After a directory's contents: a directory made with u+rwx (so it could be
 * filled) gets the source's mode minus the umask, as GNU does. */
static void cp_dir_done(cp_opts *o, store_ino ino, bool made, const store_stat *sst) {
  cmd_ctx *ctx = o->ctx;
  if (o->p_mode || !ino || !made) return;
  uint32_t m = (sst->mode & 0777) & ~(ctx->umask & 0777);
  store_stat cur;
  if (store_getattr(ctx->store, ino, &cur) == 0 && (cur.mode & 07777) != m &&
      (m & S_IRWXU) != S_IRWXU) {
    store_setattr a = {.mode = m};
    store_setattr_ino(ctx->store, ino, &a, STORE_SET_MODE, NULL);
  }
}

/* Copies src (any type) to dst; `cmdline` for -H. */
static void copy_any(cp_opts *o, const char *src, const char *dst) {
  cmd_ctx *ctx = o->ctx;
  bool follow = o->deref == DEREF_ALL || o->deref == DEREF_CMDLINE;
  store_stat sst;
  int rc = follow ? cmd_fs_stat(ctx, src, &sst) : cmd_fs_lstat(ctx, src, &sst);
  if (rc < 0) {
    cp_err(o, rc, src, "cannot stat %s", cmd_gnu_quoteaf(ctx, src));
    return;
  }
  cp_dst top = dst_of_path(o, dst);
  if (!S_ISDIR(sst.mode)) {
    copy_file(o, src, &sst, &top);
    return;
  }
  if (!o->recursive) {
    cp_err(o, 0, src, "-r not specified; omitting directory %s", cmd_gnu_quoteaf(ctx, src));
    return;
  }
  if (o->hardlink && !o->recursive) return;
  /* same directory? */
  store_stat dstat;
  if (cmd_fs_stat(ctx, dst, &dstat) == 0 && dstat.ino == sst.ino) {
    cp_err(o, 0, dst, "cannot copy a directory, %s, into itself, %s", cmd_gnu_quoteaf(ctx, src),
           cmd_gnu_quoteaf(ctx, dst));
    return;
  }
  store_ino top_ino = 0;
  bool top_made = false;
  if (!make_dir(o, src, &sst, &top, &top_ino, &top_made)) return;
  o->top_dst_ino = top_ino;
  int flags = CMD_WALK_POST;
  if (o->deref == DEREF_ALL) flags |= CMD_WALK_LOGICAL;
  if (follow) flags |= CMD_WALK_COMFOLLOW;
  cmd_walk *w = cmd_walk_open(ctx, src, flags);
  if (!w) {
    cp_err(o, -ENOMEM, src, "memory exhausted");
    return;
  }
  size_t sl = strlen(src);
  size_t prefix = (sl > 0 && src[sl - 1] == '/') ? sl - 1 : sl;
  size_t dl = strlen(dst);
  char *dbuf = NULL;
  size_t dcap = 0;
  /* dino[d]: the destination directory made for the source directory at
   * depth d (0: the top), so entries at depth d+1 are made in it by inode */
  cp_level *dino = NULL;
  size_t dcap_ino = 0;
  cmd_walk_ent *e;
  while ((e = cmd_walk_next(w))) {
    if (cmd_grow(&dino, &dcap_ino, (size_t)e->depth + 1, sizeof *dino)) {
      cp_err(o, -ENOMEM, src, "memory exhausted");
      break;
    }
    if (e->depth == 0) { /* the root: made above */
      dino[0] = (cp_level){top_ino, top_made};
      continue;
    }
    const char *rel = e->path + prefix;
    size_t need = dl + strlen(rel) + 2;
    if (cmd_grow(&dbuf, &dcap, need, 1)) break;
    memcpy(dbuf, dst, dl);
    size_t pos = dl;
    if (pos > 0 && dbuf[pos - 1] == '/' && rel[0] == '/') pos--;
    strcpy(dbuf + pos, rel);
    cp_dst d = {.path = dbuf, .dir = dino[e->depth - 1].ino, .name = e->name};
    if (e->pathlen >= CMD_PATH_MAX && e->info != CMD_WALK_DP) {
      /* GNU stats the source by path */
      cp_err(o, -ENAMETOOLONG, e->path, "cannot stat %s", cmd_gnu_quoteaf(ctx, e->path));
      if (e->info == CMD_WALK_D) {
        dino[e->depth] = (cp_level){0, false};
        cmd_walk_skip(w);
      }
      continue;
    }
    switch (e->info) {
    case CMD_WALK_D: {
      if (e->st.ino == o->top_dst_ino) {
        cp_err(o, 0, dst, "cannot copy a directory, %s, into itself, %s",
               cmd_gnu_quoteaf(ctx, src), cmd_gnu_quoteaf(ctx, dst));
        cmd_walk_skip(w);
        break;
      }
      cp_level *l = &dino[e->depth];
      *l = (cp_level){0, false};
      if (!make_dir(o, e->path, &e->st, &d, &l->ino, &l->made)) cmd_walk_skip(w);
      break;
    }
    case CMD_WALK_DP: {
      cp_dir_done(o, dino[e->depth].ino, dino[e->depth].made, &e->st);
      preserve_attrs(o, dbuf, dino[e->depth].ino, &e->st, false);
      break;
    }
    case CMD_WALK_DNR:
      cp_err(o, e->err, e->path, "cannot access %s", cmd_gnu_quoteaf(ctx, e->path));
      break;
    case CMD_WALK_DC:
      cp_err(o, 0, e->path, "cannot copy cyclic symbolic link %s", cmd_gnu_quoteaf(ctx, e->path));
      break;
    case CMD_WALK_NS:
      cp_err(o, e->err, e->path, "cannot stat %s", cmd_gnu_quoteaf(ctx, e->path));
      break;
    case CMD_WALK_SLNONE:
      if (o->deref == DEREF_ALL) {
        cp_err(o, e->err, e->path, "cannot stat %s", cmd_gnu_quoteaf(ctx, e->path));
        break;
      }
      /* fall through */
    default: {
      store_stat st = e->st;
      if ((o->deref != DEREF_ALL) && S_ISLNK(st.mode) == 0 && e->followed) {
        /* followed only because of -L */
      }
      copy_file(o, e->path, &st, &d);
      break;
    }
    }
  }
  if (cmd_walk_stopped(w)) o->status = 1;
  cmd_walk_close(w);
  free(dbuf);
  free(dino);
  /* the top directory's attributes last */
  cp_dir_done(o, top_ino, top_made, &sst);
  preserve_attrs(o, dst, top_ino, &sst, false);
}

/* ---- main -------------------------------------------------------------------------------- */

static bool parse_preserve(cp_opts *o, const char *list, bool on) {
  char *s = cmd_strdup(o->ctx, list);
  if (!s) return false;
  char *save;
  for (char *tok = strtok_r(s, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    if (!strcmp(tok, "mode")) o->p_mode = on;
    else if (!strcmp(tok, "ownership")) o->p_owner = on;
    else if (!strcmp(tok, "timestamps")) o->p_time = on;
    else if (!strcmp(tok, "links")) o->p_links = on;
    else if (!strcmp(tok, "all")) o->p_mode = o->p_owner = o->p_time = o->p_links = on;
    else if (!strcmp(tok, "context") || !strcmp(tok, "xattr")) continue;
    else return false;
  }
  return true;
}

/* One source operand (cmd_fs_each_operand): to o->dest, into o->target_dir,
 * or with --parents to DIR/SRC with the intermediate directories made; false
 * when out of memory. */
static bool cp_operand(void *ud, const char *src) {
  cp_opts *o = ud;
  cmd_ctx *ctx = o->ctx;
  const char *dst;
  if (!o->target_dir) {
    dst = o->dest;
  } else if (o->parents) {
    /* DIR/SRC with the intermediate directories made */
    const char *rel = src;
    dst = cmd_join_path(ctx, o->target_dir, rel);
    char *tmp = cmd_strdup(ctx, dst);
    char *slash = tmp + strlen(o->target_dir);
    bool ok = true;
    while (ok && (slash = strchr(slash + 1, '/'))) {
      *slash = 0;
      store_stat pst;
      if (cmd_fs_stat(ctx, tmp, &pst) < 0) {
        int rc = store_path_mkdir(ctx->store, ctx->cwd, tmp, 0777 & ~(ctx->umask & 0777));
        if (rc < 0) {
          cp_err(o, rc, tmp, "cannot make directory %s", cmd_gnu_quoteaf(ctx, tmp));
          ok = false;
        } else if (o->verbose) {
          const char *srcdir = tmp + strlen(o->target_dir);
          while (*srcdir == '/') srcdir++;
          cmd_outf(ctx, "%s -> %s\n", srcdir, tmp);
        }
      }
      *slash = '/';
    }
    if (!ok) return true;
    store_stat sst;
    int rc = cmd_fs_stat(ctx, src, &sst);
    if (rc < 0) {
      cp_err(o, rc, src, "cannot stat %s", cmd_gnu_quoteaf(ctx, src));
      return true;
    }
  } else {
    char *b = cmd_fs_basename(ctx, src);
    dst = cmd_join_path(ctx, o->target_dir, b);
  }
  if (!dst) return false;
  copy_any(o, src, dst);
  return true;
}

int cmd_cp_main(cmd_ctx *ctx, int argc, char **argv) {
  enum { O_ATTRIBUTES_ONLY = CMD_OPT_LONG, O_BACKUP, O_COPY_CONTENTS, O_PRESERVE,
         O_NO_PRESERVE, O_PARENTS, O_REFLINK, O_REMOVE_DESTINATION, O_SPARSE,
         O_STRIP_TRAILING_SLASHES, O_DEBUG };
  static const char spec[] =
      "(attributes-only)(backup)::(copy-contents)(preserve)::(no-preserve):(parents)"
      "(reflink)::(remove-destination)(sparse):(strip-trailing-slashes)(debug)(help)"
      "(version)a(archive)bdf(force)Hi(interactive)l(link)L(dereference)n(no-clobber)"
      "P(no-dereference)prR(recursive)s(symbolic-link)S:(suffix)t:(target-directory)"
      "T(no-target-directory)uv(verbose)x(one-file-system)Z";
  /* --update and --context take an optional argument where -u and -Z take none. */
  static const cmd_longopt lo[] = {{"update", 2, 'u'}, {"context", 2, 'Z'}, {0, 0, 0}};
  cp_opts o = {.ctx = ctx, .suffix = "~"};
  cmd_getopt_state st = CMD_GETOPT_INIT;
  /* In the order given: the last of -H/-L/-P/-d/-a, of -i/-n and of -u/--update
   * counts, and the preserve lists apply one after the other. */
  for (int c; (c = cmd_getopt(ctx, &st, argc, argv, spec, lo)) != -1;) {
    switch (c) {
    case 'a':
      o.deref = DEREF_NEVER;
      o.p_mode = o.p_owner = o.p_time = o.p_links = true;
      break;
    case 'd': o.deref = DEREF_NEVER; o.p_links = true; break;
    case 'H': o.deref = DEREF_CMDLINE; break;
    case 'i': o.interactive = true; o.noclobber = false; break;
    case 'L': o.deref = DEREF_ALL; break;
    case 'n': o.noclobber = true; o.interactive = false; break;
    case 'P': o.deref = DEREF_NEVER; break;
    case 'p': o.p_mode = o.p_owner = o.p_time = true; break;
    case O_PRESERVE:
      if (!parse_preserve(&o, st.arg ? st.arg : "mode,ownership,timestamps", true)) {
        cmd_errorf(ctx, "invalid argument %s for '--preserve'", cmd_gnu_quote(ctx, st.arg));
        cmd_err_raw(ctx, "Valid arguments are:\n  - 'mode'\n  - 'timestamps'\n"
                         "  - 'ownership'\n  - 'links'\n  - 'context'\n  - 'xattr'\n"
                         "  - 'all'\n");
        return cmd_usage_hint(ctx, 1);
      }
      break;
    case O_NO_PRESERVE:
      if (!parse_preserve(&o, st.arg, false)) {
        cmd_errorf(ctx, "invalid argument %s for '--no-preserve'", cmd_gnu_quote(ctx, st.arg));
        return cmd_usage_hint(ctx, 1);
      }
      break;
    case 'u': o.update = !(st.arg && !strcmp(st.arg, "all")); break;
    CMD_CASES_HELP_VERSION(ctx, cp_usage);
    case '?': return 1;
    }
  }
  o.recursive = cmd_opt_on(&st, 'a') || cmd_opt_on(&st, 'r') || cmd_opt_on(&st, 'R');
  o.force = cmd_opt_on(&st, 'f');
  o.hardlink = cmd_opt_on(&st, 'l');
  o.symlink = cmd_opt_on(&st, 's');
  o.verbose = cmd_opt_on(&st, 'v');
  o.parents = cmd_opt_on(&st, O_PARENTS);
  o.remove_dest = cmd_opt_on(&st, O_REMOVE_DESTINATION);
  o.attr_only = cmd_opt_on(&st, O_ATTRIBUTES_ONLY);
  if (cmd_opt_on(&st, 'S')) o.suffix = cmd_opt_arg(&st, 'S');
  const char *target_dir = cmd_opt_arg(&st, 't');
  bool no_target = cmd_opt_on(&st, 'T');
  bool strip = cmd_opt_on(&st, O_STRIP_TRAILING_SLASHES);
  bool backup_set =
      cmd_opt_on(&st, 'b') || cmd_opt_on(&st, O_BACKUP) || cmd_opt_on(&st, 'S');
  const char *backup_arg = cmd_opt_arg(&st, O_BACKUP);
  if (backup_set) {
    o.backup = cmd_fs_backup_kind(ctx, backup_arg);
    if (o.backup < 0) return cmd_usage_hint(ctx, 1);
    const char *sfx = cmd_getenv(ctx, "SIMPLE_BACKUP_SUFFIX");
    if (sfx && *sfx && !strchr(sfx, '/') && !strcmp(o.suffix, "~")) o.suffix = sfx;
  }
  if (o.deref == DEREF_UNSET) o.deref = o.recursive ? DEREF_NEVER : DEREF_ALL;
  if (o.hardlink && o.symlink) {
    cmd_errorf(ctx, "cannot make both hard and symbolic links");
    return cmd_usage_hint(ctx, 1);
  }
  int n = argc - st.ind;
  char **ops = argv + st.ind;
  int nsrc = cmd_fs_split_operands(ctx, n, ops, &target_dir, no_target, strip, o.parents);
  if (nsrc < 0) return 1;
  o.target_dir = target_dir;
  o.dest = target_dir ? NULL : ops[1];
  if (cmd_fs_each_operand(ctx, nsrc, ops, cp_operand, &o)) o.status = 1;
  store_commit(ctx->store);
  if (o.in) cmd_in_close(o.in);
  free(o.links);
  return o.status;
}
