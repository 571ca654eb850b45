/*
 * fs.c - filesystem helpers for the file commands: presented stat,
 * mode strings, owner names, path joining, GNU size formatting/parsing and an
 * iterative tree walker.
 *
 * Design decisions:
 *  - One disk-usage model for every command (see lib/fs.h): blocks are
 *    whole 4 KiB units, directories look like ext4's (size 4096), symlinks use
 *    none. ls -s, stat %b, du and find -size all go through cmd_fs_blocks, so
 *    they agree with each other and with GNU tools on an ext4 host.
 *  - The walker is an explicit stack (no recursion, so depth costs heap not C
 *    stack) of directory levels. Each level reads its directory's entries once
 *    (store_readdir, sorted by name) into a malloc'd array freed when the level
 *    is popped, so memory is bounded by the entries of the directories on the
 *    current path, not by the tree. Children are stat'ed by inode
 *    (store_getattr) after one X_OK check on their directory, which costs one
 *    query per entry instead of one path resolution; symlinks are followed by
 *    path (only then is a path needed). Nothing is resolved from the root
 *    per entry, so the cost of a walk is linear in entries whatever the
 *    depth. Loops can only come from followed symlinks (-L): a directory
 *    whose inode is on the current stack (a set, O(1) per directory) is
 *    CMD_WALK_DC. Deeper than CMD_WALK_MAX_DEPTH is a clear error.
 */
#include "cmd/lib/fs.h"
#include "py/py_spawn.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <wchar.h>
#include <wctype.h>

#include "cmd/lib/buf.h"
#include "cmd/lib/gnu.h"

/* ---- stat and presentation -------------------------------------------------- */

void cmd_fs_present(store_stat *st) {
  if (S_ISDIR(st->mode) && st->size == 0) st->size = CMD_FS_BLKSIZE;
}

uint64_t cmd_fs_blocks(const store_stat *st) {
  if (S_ISLNK(st->mode)) return 0;
  uint64_t size = st->size;
  if (S_ISDIR(st->mode) && size == 0) size = CMD_FS_BLKSIZE;
  uint64_t blocks4k = size / CMD_FS_BLKSIZE + (size % CMD_FS_BLKSIZE != 0);
  return blocks4k * (CMD_FS_BLKSIZE / 512);
}

/* The descriptor a /dev/stdin, /dev/fd/N or /proc/self/fd/N path names, -2
 * for /dev/null, /dev/zero and the random devices, or -1 for any other path
 * (those are the store's). Relative paths count when the directory is /dev
 * or /proc (as the shell's open does). */
static int fs_special_fd(cmd_ctx *ctx, const char *path) {
  if (path[0] != '/') {
    if (strncmp(ctx->cwd, "/dev", 4) != 0 && strncmp(ctx->cwd, "/proc", 5) != 0) return -1;
    path = cmd_abspath(ctx, path);
    if (!path) return -1;
  }
  if (!strcmp(path, "/dev/null") || !strcmp(path, "/dev/zero") ||
      !strcmp(path, "/dev/random") || !strcmp(path, "/dev/urandom"))
    return -2;
  if (!strcmp(path, "/dev/stdin")) return 0;
  if (!strcmp(path, "/dev/stdout")) return 1;
  if (!strcmp(path, "/dev/stderr")) return 2;
  const char *n = !strncmp(path, "/dev/fd/", 8)         ? path + 8
                  : !strncmp(path, "/proc/self/fd/", 14) ? path + 14
                                                          : NULL;
  if (!n || !*n) return -1;
  int fd = 0;
  for (; *n; n++) {
    if (*n < '0' || *n > '9' || fd > 1000000) return -1;
    fd = fd * 10 + (*n - '0');
  }
  return fd;
}

/* stat of a special path (fs_special_fd is not -1): what the descriptor is, as
 * fstat says; a descriptor that is not open is ENOENT, as on Linux. */
static int fs_special_stat(cmd_ctx *ctx, int fd, store_stat *st) {
  memset(st, 0, sizeof *st);
  st->nlink = 1;
  if (fd == -2) {
    st->mode = S_IFCHR | 0666;
    return 0;
  }
  int rc;
  if (ctx->io && ctx->io->fstat) {
    rc = ctx->io->fstat(ctx->io_ud, fd, st);
  } else { /* no fstat: a seekable descriptor is a file, any other a pipe */
    int64_t off = ctx->io && ctx->io->lseek ? ctx->io->lseek(ctx->io_ud, fd, 0, SEEK_CUR) : -EBADF;
    rc = off == -ESPIPE || off >= 0 ? 0 : (int)off;
    st->mode = off >= 0 ? S_IFREG | 0600 : S_IFIFO | 0600;
  }
  return rc == -EBADF ? -ENOENT : rc;
}

int cmd_fs_stat(cmd_ctx *ctx, const char *path, store_stat *st) {
  int fd = fs_special_fd(ctx, path);
  if (fd != -1) return fs_special_stat(ctx, fd, st);
  int rc = store_path_stat(ctx->store, ctx->cwd, path, st);
  if (rc == 0) cmd_fs_present(st);
  return rc;
}

/* On Linux the descriptor paths are symlinks (into /proc/self/fd): lstat
 * says so when the descriptor is open, as find and du without -L see them. */
int cmd_fs_lstat(cmd_ctx *ctx, const char *path, store_stat *st) {
  int fd = fs_special_fd(ctx, path);
  if (fd != -1) {
    int rc = fs_special_stat(ctx, fd, st);
    if (rc == 0 && fd >= 0) {
      memset(st, 0, sizeof *st);
      st->mode = S_IFLNK | 0777;
      st->nlink = 1;
    }
    return rc;
  }
  int rc = store_path_lstat(ctx->store, ctx->cwd, path, st);
  if (rc == 0) cmd_fs_present(st);
  return rc;
}

int cmd_fs_stat_operand(cmd_ctx *ctx, const char *path, bool follow, bool silent,
                        store_stat *st) {
  int rc = follow ? cmd_fs_stat(ctx, path, st) : cmd_fs_lstat(ctx, path, st);
  if (rc < 0) {
    if (!silent)
      cmd_errorf(ctx, "cannot access %s: %s", cmd_gnu_quoteaf(ctx, path), cmd_strerror(rc));
    cmd_record_error(ctx, rc, path);
  }
  return rc;
}

int cmd_fs_stat_reference(cmd_ctx *ctx, const char *ref, bool follow, store_stat *st) {
  int rc = follow ? cmd_fs_stat(ctx, ref, st) : cmd_fs_lstat(ctx, ref, st);
  if (rc < 0)
    cmd_errorf(ctx, "failed to get attributes of %s: %s", cmd_gnu_quoteaf(ctx, ref),
               cmd_strerror(rc));
  return rc;
}

static int fs_count_dirs_cb(void *ud, const store_dirent *e) {
  if (S_ISDIR(e->mode)) (*(uint32_t *)ud)++;
  return 0;
}

uint32_t cmd_fs_nlink(cmd_ctx *ctx, const store_stat *st) {
  if (!S_ISDIR(st->mode) || st->nlink >= 2) return st->nlink;
  uint32_t n = 2;
  /* unreadable: at least "." and its entry in the parent, like ext4 */
  if (store_readdir(ctx->store, st->ino, 0, fs_count_dirs_cb, &n) < 0) return 2;
  return n;
}

void cmd_fs_modestr(uint32_t mode, char out[11]) {
  char t = '?';
  switch (mode & S_IFMT) {
  case S_IFREG: t = '-'; break;
  case S_IFDIR: t = 'd'; break;
  case S_IFLNK: t = 'l'; break;
  case S_IFCHR: t = 'c'; break;
  case S_IFBLK: t = 'b'; break;
  case S_IFIFO: t = 'p'; break;
  case S_IFSOCK: t = 's'; break;
  }
  out[0] = t;
  const char *rwx = "rwxrwxrwx";
  for (int i = 0; i < 9; i++) out[1 + i] = (mode & (0400u >> i)) ? rwx[i] : '-';
  if (mode & S_ISUID) out[3] = (mode & S_IXUSR) ? 's' : 'S';
  if (mode & S_ISGID) out[6] = (mode & S_IXGRP) ? 's' : 'S';
  if (mode & S_ISVTX) out[9] = (mode & S_IXOTH) ? 't' : 'T';
  out[10] = 0;
}

const char *cmd_fs_typename(const store_stat *st) {
  switch (st->mode & S_IFMT) {
  case S_IFREG: return st->size == 0 ? "regular empty file" : "regular file";
  case S_IFDIR: return "directory";
  case S_IFLNK: return "symbolic link";
  case S_IFCHR: return "character special file";
  case S_IFBLK: return "block special file";
  case S_IFIFO: return "fifo";
  case S_IFSOCK: return "socket";
  }
  return "weird file";
}

/* ---- users and groups ----------------------------------------------------------- */

/* One line of /etc/passwd or /etc/group reduced to what we use. */
typedef struct fs_id_entry {
  const char *name;    /* login or group name (arena) */
  uint32_t id;         /* uid or gid */
  uint32_t gid;        /* passwd: primary group; group: unused */
  const char *members; /* group: comma-separated member list (arena) */
} fs_id_entry;

struct cmd_fs_ids {
  fs_id_entry *users;  /* from /etc/passwd (arena), or NULL */
  size_t nusers;       /* count of users */
  fs_id_entry *groups; /* from /etc/group (arena), or NULL */
  size_t ngroups;      /* count of groups */
  cmd_ctx *ctx;        /* for arena allocations */
};

/* Parses a colon-separated database: name:x:id:gid-or-members... */
static void fs_ids_parse(cmd_ctx *ctx, const char *path, bool is_group,
                         fs_id_entry **out, size_t *n) {
  void *data = NULL;
  size_t len = 0;
  *out = NULL;
  *n = 0;
  if (store_path_read_file(ctx->store, "/", path, &data, &len) != 0) return;
  size_t lines = 1;
  for (size_t i = 0; i < len; i++) lines += ((char *)data)[i] == '\n';
  if (lines > 100000) lines = 100000;
  fs_id_entry *e = cmd_alloc(ctx, lines * sizeof *e);
  char *p = data, *end = p + len;
  while (e && p < end && *n < lines) {
    char *nl = memchr(p, '\n', (size_t)(end - p));
    char *le = nl ? nl : end;
    char *f[7] = {0};
    int nf = 0;
    char *q = p;
    while (nf < 7) {
      f[nf++] = q;
      char *c = memchr(q, ':', (size_t)(le - q));
      if (!c) break;
      *c = 0;
      q = c + 1;
    }
    *le = 0;
    if (nf >= 3 && f[0][0] && f[2][0]) {
      char *ep;
      unsigned long id = strtoul(f[2], &ep, 10);
      if (!*ep && id <= UINT32_MAX) {
        fs_id_entry *x = &e[(*n)++];
        x->name = cmd_strdup(ctx, f[0]);
        x->id = (uint32_t)id;
        if (!is_group && nf >= 4) x->gid = (uint32_t)strtoul(f[3], NULL, 10);
        if (is_group && nf >= 4) x->members = cmd_strdup(ctx, f[3]);
      }
    }
    p = le + 1;
  }
  *out = e;
  free(data);
}

cmd_fs_ids *cmd_fs_ids_load(cmd_ctx *ctx) {
  cmd_fs_ids *ids = cmd_alloc(ctx, sizeof *ids);
  if (!ids) return NULL;
  ids->ctx = ctx;
  fs_ids_parse(ctx, "/etc/passwd", false, &ids->users, &ids->nusers);
  fs_ids_parse(ctx, "/etc/group", true, &ids->groups, &ids->ngroups);
  return ids;
}

static const char *fs_ids_name(const fs_id_entry *e, size_t n, uint32_t id) {
  for (size_t i = 0; i < n; i++)
    if (e[i].id == id) return e[i].name;
  return id == 0 ? "root" : NULL;
}

const char *cmd_fs_username(cmd_fs_ids *ids, uint32_t uid) {
  if (!ids) return uid == 0 ? "root" : NULL;
  return fs_ids_name(ids->users, ids->nusers, uid);
}

const char *cmd_fs_groupname(cmd_fs_ids *ids, uint32_t gid) {
  if (!ids) return gid == 0 ? "root" : NULL;
  return fs_ids_name(ids->groups, ids->ngroups, gid);
}

static int fs_ids_lookup(const fs_id_entry *e, size_t n, const char *name,
                         uint32_t *id) {
  for (size_t i = 0; i < n; i++)
    if (strcmp(e[i].name, name) == 0) {
      *id = e[i].id;
      return 0;
    }
  if (strcmp(name, "root") == 0) {
    *id = 0;
    return 0;
  }
  char *ep;
  if (*name >= '0' && *name <= '9') {
    unsigned long v = strtoul(name, &ep, 10);
    if (!*ep && v <= UINT32_MAX) {
      *id = (uint32_t)v;
      return 0;
    }
  }
  return -ENOENT;
}

int cmd_fs_userid(cmd_fs_ids *ids, const char *name, uint32_t *id) {
  return fs_ids_lookup(ids ? ids->users : NULL, ids ? ids->nusers : 0, name, id);
}

int cmd_fs_groupid(cmd_fs_ids *ids, const char *name, uint32_t *id) {
  return fs_ids_lookup(ids ? ids->groups : NULL, ids ? ids->ngroups : 0, name,
                       id);
}

int cmd_fs_user_groups(cmd_fs_ids *ids, const char *user, uint32_t gid,
                       uint32_t *out, int max) {
  int n = 0;
  if (max > 0) out[n++] = gid;
  if (!ids || !user) return n;
  size_t ul = strlen(user);
  for (size_t i = 0; i < ids->ngroups && n < max; i++) {
    const char *m = ids->groups[i].members;
    if (!m || ids->groups[i].id == gid) continue;
    while (*m) {
      const char *c = strchr(m, ',');
      size_t l = c ? (size_t)(c - m) : strlen(m);
      if (l == ul && memcmp(m, user, l) == 0) {
        out[n++] = ids->groups[i].id;
        break;
      }
      if (!c) break;
      m = c + 1;
    }
  }
  return n;
}

/* ---- paths ------------------------------------------------------------------- */

char *cmd_fs_basename(cmd_ctx *ctx, const char *path) {
  size_t len = strlen(path);
  while (len > 1 && path[len - 1] == '/') len--;
  if (len == 1 && path[0] == '/') return cmd_strdup(ctx, "/");
  size_t start = len;
  while (start > 0 && path[start - 1] != '/') start--;
  char *r = cmd_alloc(ctx, len - start + 1);
  if (!r) return NULL;
  memcpy(r, path + start, len - start);
  return r;
}

char *cmd_fs_dirname(cmd_ctx *ctx, const char *path) {
  size_t len = strlen(path);
  while (len > 1 && path[len - 1] == '/') len--;
  while (len > 0 && path[len - 1] != '/') len--;
  if (len == 0) return cmd_strdup(ctx, ".");
  while (len > 1 && path[len - 1] == '/') len--;
  /* POSIX keeps "//" as a distinct root; GNU dirname prints "/" for "/" and
   * "//" for "//a" (since double slash is implementation-defined). */
  char *r = cmd_alloc(ctx, len + 1);
  if (!r) return NULL;
  memcpy(r, path, len);
  return r;
}

/* Removes the last component of an absolute path (stays at "/"). */
static void cb_up(cmd_buf *b) {
  while (b->len > 1 && b->p[b->len - 1] != '/') b->len--;
  if (b->len > 1) b->len--;
  b->p[b->len] = 0;
}

/* The physical current directory (getcwd's answer) into b. */
static int cb_cwd(cmd_ctx *ctx, cmd_buf *b) {
  char *real = NULL;
  const char *cwd = ctx->cwd ? ctx->cwd : "/";
  int rc;
  if (store_realpath(ctx->store, "/", cwd, &real) == 0) {
    rc = cmd_buf_put(b, real, strlen(real));
    free(real);
  } else {
    rc = cmd_buf_put(b, cwd, strlen(cwd));
  }
  return rc;
}

/* Lexical normalization: absolute, no ".", "..", or repeated slashes. */
static int canon_lexical(cmd_ctx *ctx, const char *path, cmd_buf *out) {
  out->len = 0;
  int rc = 0;
  if (path[0] != '/') rc = cb_cwd(ctx, out);
  else rc = cmd_buf_put(out, "/", 1);
  if (rc) return rc;
  const char *p = path;
  while (*p) {
    while (*p == '/') p++;
    if (!*p) break;
    const char *e = strchr(p, '/');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    if (n == 1 && p[0] == '.') {
    } else if (n == 2 && p[0] == '.' && p[1] == '.') {
      cb_up(out);
    } else {
      if (out->len != 1 && (rc = cmd_buf_put(out, "/", 1))) return rc;
      if ((rc = cmd_buf_put(out, p, n))) return rc;
    }
    p += n;
  }
  return 0;
}

int cmd_fs_canonicalize(cmd_ctx *ctx, const char *path, int mode, char **out) {
  int how = mode & 0x0f;
  if (!*path) return -ENOENT;
  cmd_buf rname = {0}, pending = {0}, lex = {0};
  int rc = 0;
  if (mode & (CMD_CANON_NOLINKS | CMD_CANON_LOGICAL)) {
    if ((rc = canon_lexical(ctx, path, &lex))) goto done;
    if (mode & CMD_CANON_NOLINKS) {
      if (how != CMD_CANON_MISSING) {
        store_stat st;
        int r = store_path_lstat(ctx->store, "/", lex.p, &st);
        if (r < 0 && !(how == CMD_CANON_ALL_BUT_LAST && r == -ENOENT)) {
          rc = r;
          goto done;
        }
        if (r == -ENOENT && how == CMD_CANON_ALL_BUT_LAST) {
          char *d = cmd_fs_dirname(ctx, lex.p);
          r = store_path_stat(ctx->store, "/", d, &st);
          if (r < 0) { rc = r; goto done; }
          if (!S_ISDIR(st.mode)) { rc = -ENOTDIR; goto done; }
        }
      }
      *out = cmd_strdup(ctx, lex.p);
      rc = *out ? 0 : -ENOMEM;
      goto done;
    }
    path = lex.p;
  }
  /* pending holds what is left to resolve */
  if ((rc = cmd_buf_put(&pending, path, strlen(path)))) goto done;
  if (path[0] == '/') rc = cmd_buf_put(&rname, "/", 1);
  else rc = cb_cwd(ctx, &rname);
  if (rc) goto done;
  int links = 0;
  size_t pos = 0;
  bool missing = false;
  bool trailing_slash = pending.len > 0 && pending.p[pending.len - 1] == '/';
  while (pos < pending.len) {
    while (pos < pending.len && pending.p[pos] == '/') pos++;
    if (pos >= pending.len) break;
    size_t end = pos;
    while (end < pending.len && pending.p[end] != '/') end++;
    size_t n = end - pos;
    const char *comp = pending.p + pos;
    size_t next = end;
    while (next < pending.len && pending.p[next] == '/') next++;
    bool last = next >= pending.len;
    if (n == 1 && comp[0] == '.') {
      pos = end;
      continue;
    }
    if (n == 2 && comp[0] == '.' && comp[1] == '.') {
      cb_up(&rname);
      pos = end;
      continue;
    }
    size_t before = rname.len;
    if (rname.len != 1 && (rc = cmd_buf_put(&rname, "/", 1))) goto done;
    if ((rc = cmd_buf_put(&rname, comp, n))) goto done;
    if (missing) {
      pos = end;
      continue;
    }
    store_stat st;
    int r = store_path_lstat(ctx->store, "/", rname.p, &st);
    if (r < 0) {
      if (how == CMD_CANON_MISSING || (how == CMD_CANON_ALL_BUT_LAST && last && r == -ENOENT)) {
        missing = true;
        pos = end;
        continue;
      }
      rc = r;
      goto done;
    }
    if (S_ISLNK(st.mode)) {
      if (++links > STORE_SYMLINK_MAX) {
        rc = -ELOOP;
        goto done;
      }
      char *target = NULL;
      r = store_path_readlink(ctx->store, "/", rname.p, &target);
      if (r < 0) {
        rc = r;
        goto done;
      }
      /* new pending = target + rest */
      cmd_buf np = {0};
      if ((rc = cmd_buf_put(&np, target, strlen(target))) ||
          (rc = cmd_buf_put(&np, "/", 1)) ||
          (rc = cmd_buf_put(&np, pending.p + end, pending.len - end))) {
        free(target);
        free(np.p);
        goto done;
      }
      if (!(pending.len - end) && !trailing_slash) {
        np.len--;
        np.p[np.len] = 0;
      }
      free(pending.p);
      pending = np;
      pos = 0;
      /* drop the link name; restart from its directory or the root */
      rname.len = before;
      rname.p[rname.len] = 0;
      if (target[0] == '/') {
        rname.len = 1;
        rname.p[0] = '/';
        rname.p[1] = 0;
      }
      free(target);
      continue;
    }
    if (!S_ISDIR(st.mode) && (!last || trailing_slash) && how != CMD_CANON_MISSING) {
      rc = -ENOTDIR;
      goto done;
    }
    pos = end;
  }
  *out = cmd_strdup(ctx, rname.p);
  rc = *out ? 0 : -ENOMEM;
done:
  free(rname.p);
  free(pending.p);
  free(lex.p);
  return rc;
}

char *cmd_fs_relpath(cmd_ctx *ctx, const char *to, const char *from) {
  size_t common = 0, i = 0;
  while (to[i] && from[i] && to[i] == from[i]) {
    i++;
    if (to[i - 1] == '/') common = i;
  }
  if ((!to[i] || to[i] == '/') && (!from[i] || from[i] == '/')) common = i;
  size_t ups = 0;
  const char *f = from + common;
  while (*f == '/') f++;
  if (*f) {
    ups = 1;
    for (const char *p = f; *p; p++)
      if (*p == '/') ups++;
  }
  const char *t = to + common;
  while (*t == '/') t++;
  size_t len = ups * 3 + strlen(t) + 2;
  char *out = cmd_alloc(ctx, len);
  if (!out) return NULL;
  char *o = out;
  for (size_t k = 0; k < ups; k++) {
    memcpy(o, "../", 3);
    o += 3;
  }
  strcpy(o, t);
  size_t ol = strlen(out);
  if (ol > 0 && out[ol - 1] == '/') out[ol - 1] = 0;
  if (!*out) strcpy(out, ".");
  return out;
}

/* Utilities that real systems ship as programs but the sandbox's shell
 * provides as builtins; env, xargs, find -exec and which treat them as
 * installed in /usr/bin (the shell runs them). */
static bool shell_utility(const char *name) {
  static const char *const names[] = {"[", "bash", "echo", "false", "kill", "printf",
                                      "pwd", "sh", "test", "true", NULL};
  for (int i = 0; names[i]; i++)
    if (!strcmp(names[i], name)) return true;
  return false;
}

const char *cmd_fs_which(cmd_ctx *ctx, const char *name, const char *path_env, bool all,
                         void (*cb)(void *ud, const char *path), void *ud) {
  if (!*name) return NULL;
  if (strchr(name, '/')) {
    store_stat st;
    if (cmd_fs_stat(ctx, name, &st) == 0 && S_ISREG(st.mode) &&
        store_access(ctx->store, st.ino, X_OK) == 0) {
      if (all && cb) cb(ud, name);
      return all ? NULL : name;
    }
    return NULL;
  }
  bool in_table = cmd_find(name) != NULL || shell_utility(name);
  const char *p = path_env ? path_env : "/usr/bin:/bin";
  for (;;) {
    const char *c = strchr(p, ':');
    size_t l = c ? (size_t)(c - p) : strlen(p);
    char *dir = cmd_alloc(ctx, l + 2);
    if (!dir) return NULL;
    memcpy(dir, l ? p : ".", l ? l : 1);
    char *full = cmd_join_path(ctx, dir, name);
    store_stat st;
    bool hit = false;
    if (full && cmd_fs_stat(ctx, full, &st) == 0 && S_ISREG(st.mode) &&
        store_access(ctx->store, st.ino, X_OK) == 0)
      hit = true;
    else if (in_table && (!strcmp(dir, "/usr/bin") || !strcmp(dir, "/bin")))
      hit = true;
    else if (!in_table && full && full[0] == '/' && py_program_visible(ctx->sandbox, full))
      hit = true; /* a program of the host's runtime, run in the jail */
    if (hit) {
      if (!all) return full;
      if (cb) cb(ud, full);
    }
    if (!c) break;
    p = c + 1;
  }
  return NULL;
}

/* /bin/NAME, /usr/bin/NAME...: the shell runs the table command (or its
 * utility) NAME for these whether or not the store has the file. */
static bool std_bin_command(const char *name) {
  static const char *const dirs[] = {"/bin/", "/usr/bin/", "/usr/local/bin/", "/sbin/",
                                     "/usr/sbin/", NULL};
  for (int i = 0; dirs[i]; i++) {
    size_t n = strlen(dirs[i]);
    if (!strncmp(name, dirs[i], n) && name[n] && !strchr(name + n, '/'))
      return cmd_find(name + n) != NULL || shell_utility(name + n);
  }
  return false;
}

bool cmd_fs_runnable(cmd_ctx *ctx, const char *name, const char *path_env) {
  if (strchr(name, '/')) {
    store_stat st;
    return cmd_fs_stat(ctx, name, &st) == 0 || std_bin_command(name) ||
           py_program_visible(ctx->sandbox, cmd_abspath(ctx, name));
  }
  if (cmd_find(name) || shell_utility(name)) return true;
  return cmd_fs_which(ctx, name, path_env, false, NULL, NULL) != NULL;
}

/* Collects names for cmd_fs_listdir. */
const char *cmd_fs_octal_escape(cmd_ctx *ctx, const char *name) {
  const unsigned char *s = (const unsigned char *)name;
  size_t n = strlen(name);
  char *out = NULL, *o = NULL;
  for (size_t i = 0; i < n;) {
    uint32_t wc = s[i];
    int l = s[i] < 0x80 ? 1 : cmd_utf8_decode(s + i, n - i, &wc);
    bool invalid = l <= 0;
    if (invalid) l = 1;
    bool esc = invalid || wc < 0x20 || (wc >= 0x7f && wc < 0xa0);
    if (esc && !out) { /* first escape: copy what came before */
      out = cmd_alloc(ctx, n * 4 + 1);
      if (!out) return name;
      memcpy(out, name, i);
      o = out + i;
    }
    if (esc) {
      o += sprintf(o, "\\%03o", (unsigned)(invalid ? s[i] : wc));
    } else if (out) {
      memcpy(o, name + i, (size_t)l);
      o += l;
    }
    i += (size_t)l;
  }
  if (!out) return name;
  *o = 0;
  return out;
}

size_t cmd_fs_width(const char *str, size_t n) {
  const unsigned char *s = (const unsigned char *)str;
  size_t w = 0;
  locale_t loc = (locale_t)0, old = (locale_t)0;
  for (size_t i = 0; i < n;) {
    if (s[i] < 0x80) {
      w += s[i] >= 0x20 && s[i] != 0x7f;
      i++;
      continue;
    }
    uint32_t wc;
    int l = cmd_utf8_decode(s + i, n - i, &wc);
    if (l <= 0) {
      w++;
      i++;
      continue;
    }
    i += (size_t)l;
    if (!loc && (loc = cmd_utf8_locale())) old = uselocale(loc);
    int cw = loc ? wcwidth((wchar_t)wc) : 1;
    if (cw >= 0) w += (size_t)cw;
    else w += loc && iswcntrl((wint_t)wc) ? 0 : 1;
  }
  if (loc) uselocale(old);
  return w;
}

typedef struct fs_names {
  cmd_ctx *ctx;  /* arena owner */
  char **v;      /* malloc'd growing array (copied to the arena at the end) */
  size_t n, cap; /* used and allocated slots */
  int err;       /* -ENOMEM on failure */
} fs_names;

static int fs_names_cb(void *ud, const store_dirent *e) {
  fs_names *nm = ud;
  if (cmd_grow(&nm->v, &nm->cap, nm->n + 1, sizeof *nm->v)) {
    nm->err = -ENOMEM;
    return 1;
  }
  char *s = cmd_strdup(nm->ctx, e->name);
  if (!s) {
    nm->err = -ENOMEM;
    return 1;
  }
  nm->v[nm->n++] = s;
  return 0;
}

int cmd_fs_listdir(cmd_ctx *ctx, const char *path, char ***names) {
  store_stat st;
  int rc = store_path_stat(ctx->store, ctx->cwd, path, &st);
  if (rc) return rc;
  if (!S_ISDIR(st.mode)) return -ENOTDIR;
  fs_names nm = {.ctx = ctx};
  rc = store_readdir(ctx->store, st.ino, 0, fs_names_cb, &nm);
  if (nm.err) rc = nm.err;
  if (rc < 0) {
    free(nm.v);
    return rc;
  }
  char **v = cmd_alloc(ctx, (nm.n + 1) * sizeof *v);
  if (!v) {
    free(nm.v);
    return -ENOMEM;
  }
  if (nm.n) memcpy(v, nm.v, nm.n * sizeof *v);
  free(nm.v);
  *names = v;
  return (int)nm.n;
}

static size_t inoset_hash(store_ino ino, size_t mask) {
  return (size_t)((uint64_t)ino * 0x9E3779B97F4A7C15ull >> 17) & mask;
}

int cmd_fs_inoset_add(cmd_fs_inoset *set, store_ino ino) {
  if ((set->n + 1) * 2 > set->cap) {
    size_t nc = set->cap ? set->cap * 2 : 256;
    store_ino *ns = calloc(nc, sizeof *ns);
    if (!ns) return -ENOMEM;
    for (size_t i = 0; i < set->cap; i++) {
      if (!set->slots[i]) continue;
      size_t h = inoset_hash(set->slots[i], nc - 1);
      while (ns[h]) h = (h + 1) & (nc - 1);
      ns[h] = set->slots[i];
    }
    free(set->slots);
    set->slots = ns;
    set->cap = nc;
  }
  size_t mask = set->cap - 1;
  size_t h = inoset_hash(ino, mask);
  while (set->slots[h]) {
    if (set->slots[h] == ino) return 1;
    h = (h + 1) & mask;
  }
  set->slots[h] = ino;
  set->n++;
  return 0;
}

bool cmd_fs_inoset_remove(cmd_fs_inoset *set, store_ino ino) {
  if (!set->cap) return false;
  size_t mask = set->cap - 1;
  size_t h = inoset_hash(ino, mask);
  while (set->slots[h] != ino) {
    if (!set->slots[h]) return false;
    h = (h + 1) & mask;
  }
  /* backward-shift deletion: move later members of the probe run into the
   * hole when their home slot does not lie between the hole and them */
  size_t hole = h;
  for (size_t j = (h + 1) & mask; set->slots[j]; j = (j + 1) & mask) {
    size_t home = inoset_hash(set->slots[j], mask);
    bool movable = hole <= j ? (home <= hole || home > j) : (home <= hole && home > j);
    if (movable) {
      set->slots[hole] = set->slots[j];
      hole = j;
    }
  }
  set->slots[hole] = 0;
  set->n--;
  return true;
}

void cmd_fs_inoset_free(cmd_fs_inoset *set) {
  free(set->slots);
  set->slots = NULL;
  set->n = set->cap = 0;
}

int cmd_fs_copy_data(cmd_ctx *ctx, store_ino src, store_ino dst, uint64_t size) {
  enum { CHUNK = 65536 };
  char *buf = malloc(CHUNK);
  if (!buf) return -ENOMEM;
  uint64_t off = 0;
  int rc = 0;
  while (off < size) {
    if (cmd_poll(ctx)) {
      rc = -EINTR;
      break;
    }
    size_t want = size - off < CHUNK ? (size_t)(size - off) : CHUNK;
    ssize_t n = store_read(ctx->store, src, buf, want, off);
    if (n < 0) {
      rc = (int)n;
      break;
    }
    if (n == 0) break;
    ssize_t w = store_write(ctx->store, dst, buf, (size_t)n, off);
    if (w < 0) {
      rc = (int)w;
      break;
    }
    off += (uint64_t)n;
  }
  free(buf);
  return rc;
}

/* GNU filevercmp: natural ordering of version numbers in names. */
static size_t ver_suffix(const char *s, size_t len) {
  /* length without a trailing file suffix ((\.[A-Za-z~][A-Za-z0-9~]*)*$) */
  size_t matched = len;
  bool read_alpha = false;
  size_t i = 0;
  for (; i < len; i++) {
    char c = s[i];
    if (read_alpha) {
      read_alpha = false;
      if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '~'))
        matched = len;
    } else if (c == '.') {
      read_alpha = true;
      if (matched == len) matched = i;
    } else if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
                 (c >= '0' && c <= '9') || c == '~')) {
      matched = len;
    }
  }
  if (read_alpha) matched = len;
  return matched;
}

static int ver_order(unsigned char c) {
  if (c >= '0' && c <= '9') return 0;
  if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')) return c;
  if (c == '~') return -1;
  return (int)c + 256;
}

static int ver_cmp(const char *a, size_t al, const char *b, size_t bl) {
  size_t ai = 0, bi = 0;
  while (ai < al || bi < bl) {
    int first_diff = 0;
    while ((ai < al && !(a[ai] >= '0' && a[ai] <= '9')) ||
           (bi < bl && !(b[bi] >= '0' && b[bi] <= '9'))) {
      int ac = ai < al ? ver_order((unsigned char)a[ai]) : 0;
      int bc = bi < bl ? ver_order((unsigned char)b[bi]) : 0;
      if (ac != bc) return ac - bc;
      ai++;
      bi++;
    }
    while (ai < al && a[ai] == '0') ai++;
    while (bi < bl && b[bi] == '0') bi++;
    while (ai < al && bi < bl && a[ai] >= '0' && a[ai] <= '9' && b[bi] >= '0' &&
           b[bi] <= '9') {
      if (!first_diff) first_diff = a[ai] - b[bi];
      ai++;
      bi++;
    }
    if (ai < al && a[ai] >= '0' && a[ai] <= '9') return 1;
    if (bi < bl && b[bi] >= '0' && b[bi] <= '9') return -1;
    if (first_diff) return first_diff;
  }
  return 0;
}

int cmd_filevercmp(const char *a, const char *b) {
  int r = strcmp(a, b);
  if (r == 0) return 0;
  if (!*a) return -1;
  if (!*b) return 1;
  if (strcmp(a, ".") == 0) return -1;
  if (strcmp(b, ".") == 0) return 1;
  if (strcmp(a, "..") == 0) return -1;
  if (strcmp(b, "..") == 0) return 1;
  if (*a == '.' && *b != '.') return -1;
  if (*a != '.' && *b == '.') return 1;
  if (*a == '.' && *b == '.') a++, b++;
  size_t al = strlen(a), bl = strlen(b);
  size_t ap = ver_suffix(a, al), bp = ver_suffix(b, bl);
  int c = ver_cmp(a, ap, b, bp);
  if (c == 0 && (ap != al || bp != bl)) c = ver_cmp(a, al, b, bl);
  return c ? c : r;
}


/* ---- sizes --------------------------------------------------------------------- */

char *cmd_human(uint64_t n, uint64_t unit, int flags, char *buf, size_t bufsz) {
  static const char prefixes[] = "KMGTPEZYRQ";
  unsigned base = (flags & CMD_HUMAN_SI) ? 1000 : 1024;
  bool ceil_ = (flags & CMD_HUMAN_CEIL) != 0;
  /* amt = n * unit with tenths/rounding kept like gnulib's human.c. */
  uint64_t amt;
  unsigned tenths = 0, rounding = 0;
  if (unit == 0) unit = 1;
  if (n != 0 && unit > UINT64_MAX / n) {
    /* Too big for exact integers: use long double. */
    long double d = (long double)n * (long double)unit;
    int e = 0;
    while (d >= base && e < 10) {
      d /= base;
      e++;
    }
    if (ceil_) {
      long double t = d * 10;
      unsigned long long ti = (unsigned long long)t;
      if ((long double)ti < t) ti++;
      d = ti / 10.0L;
    }
    if (d < 10)
      snprintf(buf, bufsz, "%.1Lf%c", d, e ? prefixes[e - 1] : 0);
    else
      snprintf(buf, bufsz, "%.0Lf%c", d, e ? prefixes[e - 1] : 0);
    return buf;
  }
  amt = n * unit;
  int exponent = 0;
  char tail[8] = "";
  if (amt >= base) {
    do {
      unsigned r10 = (unsigned)(amt % base) * 10 + tenths;
      unsigned r2 = (r10 % base) * 2 + (rounding >> 1);
      amt /= base;
      tenths = r10 / base;
      rounding = r2 < base ? (r2 + rounding) != 0 : 2 + (base < r2 + rounding);
      exponent++;
    } while (amt >= base && exponent < 10);
    if (amt < 10) {
      if (ceil_ ? rounding > 0 : 2 < rounding + (tenths & 1)) {
        tenths++;
        rounding = 0;
        if (tenths == 10) {
          amt++;
          tenths = 0;
        }
      }
      if (amt < 10) {
        snprintf(tail, sizeof tail, ".%u", tenths);
        tenths = rounding = 0;
      }
    }
  }
  if (ceil_ ? 0 < tenths + rounding : 5 < tenths + (0 < rounding + (amt & 1))) {
    amt++;
    if (amt == base && exponent < 10) {
      exponent++;
      snprintf(tail, sizeof tail, ".0");
      amt = 1;
    }
  }
  char pre[4] = "";
  if (exponent) {
    char p = prefixes[exponent - 1];
    if ((flags & CMD_HUMAN_SI) && p == 'K') p = 'k';
    pre[0] = p;
    if (flags & CMD_HUMAN_SUFFIX_B) pre[1] = 'B';
  }
  snprintf(buf, bufsz, "%" PRIu64 "%s%s", amt, tail, pre);
  return buf;
}

char *cmd_blocks_str(uint64_t n, uint64_t unit, uint64_t block, char *buf,
                     size_t bufsz) {
  if (block == 0) block = 1;
  if (unit == 0) unit = 1;
  unsigned __int128 total = (unsigned __int128)n * unit;
  unsigned __int128 q = total / block + (total % block != 0);
  if (q > UINT64_MAX) q = UINT64_MAX;
  snprintf(buf, bufsz, "%" PRIu64, (uint64_t)q);
  return buf;
}

/* The multiplier of a unit letter with the given base, or 0 when unknown. */
static uint64_t fs_unit(char c, unsigned base) {
  int e;
  switch (c) {
  case 'k': case 'K': e = 1; break;
  case 'M': e = 2; break;
  case 'G': e = 3; break;
  case 'T': e = 4; break;
  case 'P': e = 5; break;
  case 'E': e = 6; break;
  case 'Z': e = 7; break;
  case 'Y': e = 8; break;
  case 'R': e = 9; break;
  case 'Q': e = 10; break;
  default: return 0;
  }
  uint64_t m = 1;
  for (int i = 0; i < e; i++) {
    if (m > UINT64_MAX / base) return UINT64_MAX; /* overflow marker */
    m *= base;
  }
  return m;
}

int cmd_parse_size(const char *s, const char *suffixes, uint64_t *out) {
  const char *p = s;
  while (*p == ' ' || *p == '\t' || *p == '\n') p++;
  if (*p == '-') return -EINVAL;
  uint64_t v = 0;
  bool digits = false;
  int overflow = 0;
  while (*p >= '0' && *p <= '9') {
    digits = true;
    unsigned d = (unsigned)(*p - '0');
    if (v > (UINT64_MAX - d) / 10) overflow = 1;
    else v = v * 10 + d;
    p++;
  }
  if (!digits) {
    /* A bare unit ("K") means 1K for GNU's xstrtoumax callers. */
    if (*p && suffixes && strchr(suffixes, *p)) v = 1;
    else return -EINVAL;
  }
  if (*p) {
    if (!suffixes || !strchr(suffixes, *p)) return -EINVAL;
    unsigned base = 1024;
    int letters = 1;
    /* Optional "iB" (binary) or "B"/"D" (decimal) after a power letter. */
    if (strchr(suffixes, '0') && fs_unit(*p, 1024)) {
      if (p[1] == 'i' && p[2] == 'B') letters = 3;
      else if (p[1] == 'B' || p[1] == 'D') { base = 1000; letters = 2; }
    }
    uint64_t mult;
    switch (*p) {
    case 'b': mult = 512; break;
    case 'c': mult = 1; break;
    case 'w': mult = 2; break;
    case 'B': mult = 1024; break;
    default: mult = fs_unit(*p, base);
    }
    if (mult == 0 || p[letters]) return -EINVAL;
    if (mult == UINT64_MAX || (v && mult > UINT64_MAX / v)) overflow = 1;
    else v *= mult;
  }
  if (overflow) {
    *out = UINT64_MAX;
    return -ERANGE;
  }
  *out = v;
  return 0;
}

int cmd_parse_blocksize(const char *s, uint64_t *block, int *human) {
  *human = -1;
  if (strcmp(s, "human-readable") == 0) {
    *human = CMD_HUMAN_CEIL;
    *block = 1;
    return 0;
  }
  if (strcmp(s, "si") == 0) {
    *human = CMD_HUMAN_CEIL | CMD_HUMAN_SI;
    *block = 1;
    return 0;
  }
  if (*s == '\'') s++; /* thousands grouping: accepted, not shown */
  uint64_t v;
  int rc = cmd_parse_size(s, "0bcEGkKMPTwYZRQ", &v);
  if (rc) return rc;
  if (v == 0) return -EINVAL;
  *block = v;
  return 0;
}

/* ---- the tree walker ------------------------------------------------------------- */

/* One child read from a directory. */
typedef struct walk_child {
  size_t name_off; /* offset of its name in the level's name block */
  store_ino ino;   /* its inode */
  uint32_t mode;   /* type and permission bits from readdir */
} walk_child;

/* A directory on the current path. */
typedef struct walk_level {
  store_ino ino;     /* the directory's inode */
  size_t pathlen;    /* length of its path in the walker's buffer */
  size_t name_off;   /* offset of its own last component in that path */
  store_stat st;     /* its presented stat (for CMD_WALK_DP) */
  bool followed;     /* st came through a symlink */
  bool read;         /* entries have been read */
  bool can_search;   /* X_OK on it: children may be stat'ed */
  walk_child *kids;  /* malloc'd entries */
  size_t nkids, next;/* count and next to visit */
  size_t kids_cap;   /* allocated entries */
  char *names;       /* malloc'd block of NUL-terminated names */
  size_t names_len, names_cap; /* used/allocated bytes of names */
} walk_level;

struct cmd_walk {
  cmd_ctx *ctx;       /* the command (store, cwd, poll) */
  int flags;          /* CMD_WALK_* */
  const char *root;   /* the root as given (borrowed) */
  char *path;         /* malloc'd path buffer */
  size_t cap;         /* its size */
  walk_level *lv;     /* malloc'd stack of levels */
  int nlv;            /* depth of the stack */
  size_t lvcap;       /* its capacity */
  cmd_walk_ent ent;   /* the entry handed out */
  bool started;       /* the root was returned */
  bool skip_pending;  /* cmd_walk_skip was called for the top level */
  bool stopped;       /* cmd_poll asked to stop */
  bool oom;           /* allocation failed: stop */
  cmd_fs_inoset onstack; /* -L: inodes of the levels, for the loop check */
};

cmd_walk *cmd_walk_open(cmd_ctx *ctx, const char *root, int flags) {
  cmd_walk *w = calloc(1, sizeof *w);
  if (!w) return NULL;
  w->ctx = ctx;
  w->flags = flags;
  w->root = root;
  size_t rl = strlen(root);
  w->cap = rl + 256;
  w->path = malloc(w->cap);
  if (!w->path) {
    free(w);
    return NULL;
  }
  memcpy(w->path, root, rl + 1);
  return w;
}

static void walk_level_free(walk_level *l) {
  free(l->kids);
  free(l->names);
  l->kids = NULL;
  l->names = NULL;
  l->kids_cap = l->names_cap = 0;
}

/* Pops the top level. */
static void walk_pop(cmd_walk *w) {
  walk_level *l = &w->lv[w->nlv - 1];
  if (w->flags & CMD_WALK_LOGICAL) cmd_fs_inoset_remove(&w->onstack, l->ino);
  walk_level_free(l);
  w->nlv--;
}

void cmd_walk_close(cmd_walk *w) {
  if (!w) return;
  cmd_fs_inoset_free(&w->onstack);
  for (int i = 0; i < w->nlv; i++) walk_level_free(&w->lv[i]);
  free(w->lv);
  free(w->path);
  free(w);
}

bool cmd_walk_stopped(const cmd_walk *w) { return w->stopped || w->oom; }

void cmd_walk_skip(cmd_walk *w) {
  if (w->nlv > 0 && w->ent.info == CMD_WALK_D) w->skip_pending = true;
}

static bool walk_path_reserve(cmd_walk *w, size_t need) {
  if (cmd_grow(&w->path, &w->cap, need, 1)) w->oom = true;
  return !w->oom;
}

static int walk_readdir_cb(void *ud, const store_dirent *e) {
  walk_level *l = ud;
  size_t nl = strlen(e->name) + 1;
  if (cmd_grow(&l->kids, &l->kids_cap, l->nkids + 1, sizeof *l->kids) ||
      cmd_grow(&l->names, &l->names_cap, l->names_len + nl, 1))
    return -ENOMEM;
  memcpy(l->names + l->names_len, e->name, nl);
  l->kids[l->nkids++] = (walk_child){l->names_len, e->ino, e->mode};
  l->names_len += nl;
  return 0;
}

/* Fills w->ent for the path currently in w->path. */
static void walk_set_ent(cmd_walk *w, size_t pathlen, size_t name_off,
                         int depth, int info) {
  w->ent.path = w->path;
  w->ent.pathlen = pathlen;
  w->ent.name = w->path + name_off;
  w->ent.depth = depth;
  w->ent.info = info;
}

/* Pushes a directory level for the entry just stat'ed; detects cycles. */
static int walk_push(cmd_walk *w, size_t pathlen, size_t name_off) {
  /* A directory has one dentry, so without followed symlinks (which only
   * -L follows below the root) no directory can be its own ancestor; with
   * -L the inodes on the stack are kept in a set, so the check is O(1). */
  bool maybe_loop = false;
  if (w->flags & CMD_WALK_LOGICAL) {
    int in = cmd_fs_inoset_add(&w->onstack, w->ent.st.ino);
    if (in < 0) {
      w->oom = true;
      return -1;
    }
    maybe_loop = in == 1;
  }
  for (int i = 0; maybe_loop && i < w->nlv; i++) {
    if (w->lv[i].ino == w->ent.st.ino) {
      w->ent.info = CMD_WALK_DC;
      w->ent.cycle_depth = i;
      w->ent.cycle_pathlen = w->lv[i].pathlen;
      return CMD_WALK_DC;
    }
  }
  if (w->nlv >= CMD_WALK_MAX_DEPTH) {
    if (w->flags & CMD_WALK_LOGICAL) cmd_fs_inoset_remove(&w->onstack, w->ent.st.ino);
    w->ent.info = CMD_WALK_DNR;
    w->ent.err = -ENAMETOOLONG;
    return CMD_WALK_DNR;
  }
  if (cmd_grow(&w->lv, &w->lvcap, (size_t)w->nlv + 1, sizeof *w->lv)) {
    w->oom = true;
    return -1;
  }
  walk_level *l = &w->lv[w->nlv++];
  memset(l, 0, sizeof *l);
  l->ino = w->ent.st.ino;
  l->pathlen = pathlen;
  l->name_off = name_off;
  l->st = w->ent.st;
  l->followed = w->ent.followed;
  return CMD_WALK_D;
}

/* Stats the entry at w->path (the root or a child) and classifies it. `follow`
 * says whether a symlink is followed. */
static int walk_stat(cmd_walk *w, const walk_child *kid, bool can_search,
                     bool follow) {
  cmd_ctx *ctx = w->ctx;
  store_stat st;
  memset(&st, 0, sizeof st);
  w->ent.err = 0;
  w->ent.followed = false;
  w->ent.cycle_pathlen = 0;
  w->ent.cycle_depth = 0;
  int rc;
  if (!kid) {
    rc = follow ? cmd_fs_stat(ctx, w->path, &st) : cmd_fs_lstat(ctx, w->path, &st);
    if (rc == -ENOENT && follow) {
      store_stat lst;
      if (store_path_lstat(ctx->store, ctx->cwd, w->path, &lst) == 0 &&
          S_ISLNK(lst.mode)) {
        cmd_fs_present(&lst);
        w->ent.st = lst;
        w->ent.err = rc;
        return CMD_WALK_SLNONE;
      }
    }
    if (rc < 0) {
      w->ent.st = st;
      w->ent.err = rc;
      return CMD_WALK_NS;
    }
    if (follow) {
      store_stat lst;
      if (store_path_lstat(ctx->store, ctx->cwd, w->path, &lst) == 0 &&
          S_ISLNK(lst.mode))
        w->ent.followed = true;
    }
  } else {
    st.ino = kid->ino;
    st.mode = kid->mode;
    if (!can_search) {
      w->ent.st = st;
      w->ent.err = -EACCES;
      return CMD_WALK_NS;
    }
    if (S_ISLNK(kid->mode) && follow) {
      rc = store_path_stat(ctx->store, ctx->cwd, w->path, &st);
      if (rc < 0 && rc != -ENOENT) {
        /* like fts: only a missing target is SLNONE; a loop (ELOOP) or a
         * target under a file (ENOTDIR) is a failed stat */
        memset(&w->ent.st, 0, sizeof w->ent.st);
        w->ent.err = rc;
        return CMD_WALK_NS;
      }
      if (rc < 0) {
        store_stat lst;
        if (store_getattr(ctx->store, kid->ino, &lst) == 0) {
          cmd_fs_present(&lst);
          w->ent.st = lst;
        } else {
          w->ent.st = st;
        }
        w->ent.err = rc;
        return CMD_WALK_SLNONE;
      }
      w->ent.followed = true;
    } else if ((w->flags & CMD_WALK_NOSTAT) && !S_ISDIR(kid->mode)) {
      /* type and permissions from readdir only */
    } else {
      rc = store_getattr(ctx->store, kid->ino, &st);
      if (rc < 0) {
        st.ino = kid->ino;
        st.mode = kid->mode;
        w->ent.st = st;
        w->ent.err = rc;
        return CMD_WALK_NS;
      }
    }
  }
  cmd_fs_present(&st);
  w->ent.st = st;
  return S_ISDIR(st.mode) ? CMD_WALK_D : CMD_WALK_F;
}

void cmd_walk_report(cmd_ctx *ctx, const cmd_walk_ent *e, bool silent) {
  if (!silent)
    cmd_errorf(ctx, "%s %s: %s",
               e->info == CMD_WALK_DNR ? "cannot read directory" : "cannot access",
               cmd_gnu_quoteaf(ctx, e->path), cmd_strerror(e->err));
  cmd_record_error(ctx, e->err, e->path);
}

int cmd_walk_each(cmd_ctx *ctx, const char *path, int flags, bool silent,
                  void (*fn)(void *ud, const cmd_walk_ent *e), void *ud) {
  cmd_walk *w = cmd_walk_open(ctx, path, flags);
  if (!w) return 1;
  int status = 0;
  cmd_walk_ent *e;
  while ((e = cmd_walk_next(w))) {
    if (e->info == CMD_WALK_DNR || e->info == CMD_WALK_NS) {
      cmd_walk_report(ctx, e, silent);
      status = 1;
    } else {
      fn(ud, e);
    }
  }
  if (cmd_walk_stopped(w)) status = 1;
  cmd_walk_close(w);
  return status;
}

void cmd_fs_refuse_root(cmd_ctx *ctx, const char *path) {
  if (strcmp(path, "/") == 0)
    cmd_errorf(ctx, "it is dangerous to operate recursively on '/'");
  else
    cmd_errorf(ctx, "it is dangerous to operate recursively on %s (same as '/')",
               cmd_gnu_quoteaf(ctx, path));
  cmd_errorf(ctx, "use --no-preserve-root to override this failsafe");
}

cmd_walk_ent *cmd_walk_next(cmd_walk *w) {
  if (w->stopped || w->oom) return NULL;
  if (cmd_poll(w->ctx)) {
    w->stopped = true;
    return NULL;
  }
  if (!w->started) {
    w->started = true;
    size_t rl = strlen(w->path);
    size_t name_off = 0;
    bool follow = (w->flags & (CMD_WALK_LOGICAL | CMD_WALK_COMFOLLOW)) != 0;
    int info = walk_stat(w, NULL, true, follow);
    w->ent.parent_ino = 0;
    walk_set_ent(w, rl, name_off, 0, info);
    if (info == CMD_WALK_D) {
      int r = walk_push(w, rl, name_off);
      if (r < 0) return NULL;
      w->ent.info = r;
    }
    return &w->ent;
  }
  for (;;) {
    if (w->nlv == 0) return NULL;
    walk_level *l = &w->lv[w->nlv - 1];
    if (w->skip_pending) {
      w->skip_pending = false;
      walk_pop(w);
      continue;
    }
    if (!l->read) {
      l->read = true;
      w->path[l->pathlen] = 0;
      int rc = store_readdir(w->ctx->store, l->ino, 0, walk_readdir_cb, l);
      l->can_search = store_access(w->ctx->store, l->ino, X_OK) == 0;
      if (rc < 0) {
        walk_level_free(l);
        l->nkids = 0;
        if (rc == -ENOMEM) {
          w->oom = true;
          return NULL;
        }
        w->ent.st = l->st;
        w->ent.err = rc;
        w->ent.followed = l->followed;
        walk_set_ent(w, l->pathlen, l->name_off, w->nlv - 1, CMD_WALK_DNR);
        return &w->ent;
      }
    }
    if (l->next < l->nkids) {
      if ((l->next & 63) == 0 && cmd_poll(w->ctx)) {
        w->stopped = true;
        return NULL;
      }
      walk_child *kid = &l->kids[l->next++];
      const char *name = l->names + kid->name_off;
      size_t nl = strlen(name);
      /* fts's NAPPEND: drop one trailing slash of the parent's path. */
      size_t base = l->pathlen;
      if (base > 0 && w->path[base - 1] == '/') base--;
      if (!walk_path_reserve(w, base + nl + 2)) return NULL;
      w->path[base] = '/';
      memcpy(w->path + base + 1, name, nl + 1);
      size_t pathlen = base + 1 + nl;
      bool follow = (w->flags & CMD_WALK_LOGICAL) != 0;
      int info = walk_stat(w, kid, l->can_search, follow);
      w->ent.parent_ino = l->ino;
      int depth = w->nlv;
      walk_set_ent(w, pathlen, base + 1, depth, info);
      if (info == CMD_WALK_D) {
        int r = walk_push(w, pathlen, base + 1);
        if (r < 0) return NULL;
        w->ent.info = r;
      }
      return &w->ent;
    }
    /* All children done. */
    store_stat st = l->st;
    bool followed = l->followed;
    size_t pathlen = l->pathlen, name_off = l->name_off;
    int depth = w->nlv - 1;
    walk_pop(w);
    if (w->flags & CMD_WALK_POST) {
      w->path[pathlen] = 0;
      w->ent.st = st;
      w->ent.err = 0;
      w->ent.followed = followed;
      w->ent.parent_ino = w->nlv > 0 ? w->lv[w->nlv - 1].ino : 0;
      walk_set_ent(w, pathlen, name_off, depth, CMD_WALK_DP);
      return &w->ent;
    }
  }
}

/* ---- modes ---------------------------------------------------------------------- */

#define MODE_ALL 07777u

cmd_mode_change *cmd_mode_compile(cmd_ctx *ctx, const char *s) {
  size_t len = strlen(s);
  if (*s >= '0' && *s < '8') {
    uint32_t m = 0;
    const char *p = s;
    for (; *p >= '0' && *p < '8'; p++) {
      m = m * 8 + (uint32_t)(*p - '0');
      if (m > MODE_ALL) return NULL;
    }
    if (*p) return NULL;
    cmd_mode_change *c = cmd_alloc(ctx, 2 * sizeof *c);
    if (!c) return NULL;
    c[0].op = '=';
    c[0].affected = MODE_ALL;
    c[0].value = m;
    c[0].mentioned = (p - s < 5) ? (m & (S_ISUID | S_ISGID)) | S_ISVTX | 0777 : MODE_ALL;
    return c;
  }
  /* at most one change per operator character */
  size_t max = 1;
  for (const char *p = s; *p; p++)
    if (*p == '=' || *p == '+' || *p == '-') max++;
  cmd_mode_change *ch = cmd_alloc(ctx, (max + 1) * sizeof *ch);
  if (!ch || len == 0) return NULL;
  size_t n = 0;
  const char *p = s;
  for (;;) {
    uint32_t affected = 0;
    for (;; p++) {
      if (*p == 'u') affected |= S_ISUID | S_IRWXU;
      else if (*p == 'g') affected |= S_ISGID | S_IRWXG;
      else if (*p == 'o') affected |= S_ISVTX | S_IRWXO;
      else if (*p == 'a') affected |= MODE_ALL;
      else break;
    }
    do {
      char op = *p++;
      if (op != '=' && op != '+' && op != '-') return NULL;
      uint32_t value = 0, mentioned;
      char flag = 0;
      if (*p >= '0' && *p < '8') {
        uint32_t m = 0;
        for (; *p >= '0' && *p < '8'; p++) {
          m = m * 8 + (uint32_t)(*p - '0');
          if (m > MODE_ALL) return NULL;
        }
        if (affected) return NULL; /* "u=755" is invalid */
        affected = mentioned = MODE_ALL;
        value = m;
        ch[n++] = (cmd_mode_change){op, 0, affected, value, mentioned};
        continue;
      }
      if (*p == 'u' || *p == 'g' || *p == 'o') {
        value = *p == 'u' ? S_IRWXU : *p == 'g' ? S_IRWXG : S_IRWXO;
        flag = 'c';
        p++;
      } else {
        for (;; p++) {
          if (*p == 'r') value |= S_IRUSR | S_IRGRP | S_IROTH;
          else if (*p == 'w') value |= S_IWUSR | S_IWGRP | S_IWOTH;
          else if (*p == 'x') value |= S_IXUSR | S_IXGRP | S_IXOTH;
          else if (*p == 'X') flag = 'X';
          else if (*p == 's') value |= S_ISUID | S_ISGID;
          else if (*p == 't') value |= S_ISVTX;
          else break;
        }
      }
      mentioned = affected ? affected & value : value;
      if (n >= max) return NULL;
      ch[n++] = (cmd_mode_change){op, flag, affected, value, mentioned};
    } while (*p == '=' || *p == '+' || *p == '-');
    if (*p != ',') break;
    p++;
  }
  if (*p) return NULL;
  ch[n].op = 0;
  return ch;
}

uint32_t cmd_mode_adjust(uint32_t oldmode, bool dir, uint32_t umask,
                         const cmd_mode_change *c, uint32_t *mode_bits) {
  uint32_t newmode = oldmode & MODE_ALL, bits = 0;
  for (; c && c->op; c++) {
    uint32_t affected = c->affected;
    uint32_t omit = (dir ? S_ISUID | S_ISGID : 0) & ~c->mentioned;
    uint32_t value = c->value;
    if (c->flag == 'c') {
      value &= newmode;
      value |= ((value & (S_IRUSR | S_IRGRP | S_IROTH)) ? S_IRUSR | S_IRGRP | S_IROTH : 0) |
               ((value & (S_IWUSR | S_IWGRP | S_IWOTH)) ? S_IWUSR | S_IWGRP | S_IWOTH : 0) |
               ((value & (S_IXUSR | S_IXGRP | S_IXOTH)) ? S_IXUSR | S_IXGRP | S_IXOTH : 0);
    } else if (c->flag == 'X') {
      if ((newmode & (S_IXUSR | S_IXGRP | S_IXOTH)) || dir)
        value |= S_IXUSR | S_IXGRP | S_IXOTH;
    }
    value &= (affected ? affected : ~umask) & ~omit;
    switch (c->op) {
    case '=': {
      uint32_t preserved = (affected ? ~affected : 0) | omit;
      bits |= MODE_ALL & ~preserved;
      newmode = (newmode & preserved) | value;
      break;
    }
    case '+':
      bits |= value;
      newmode |= value;
      break;
    case '-':
      bits |= value;
      newmode &= ~value;
      break;
    }
  }
  if (mode_bits) *mode_bits = bits;
  return newmode;
}

bool cmd_mode_uses_umask(const cmd_mode_change *c) {
  for (; c && c->op; c++)
    if (!c->affected) return true;
  return false;
}

/* ---- cp, mv, ln, install: operands and backups -------------------------------------- */

int cmd_fs_each_operand(cmd_ctx *ctx, int n, char *const *ops,
                        bool (*fn)(void *ud, const char *operand), void *ud) {
  int stopped = 0;
  store_begin(ctx->store);
  for (int i = 0; i < n; i++) {
    if (cmd_poll(ctx)) {
      stopped = 1;
      break;
    }
    if (!fn(ud, ops[i])) break;
  }
  store_commit(ctx->store);
  return stopped;
}

/* The operand checks of cmd_fs_split_operands (GNU order and messages): -t
 * with -T, no operand, no destination, an extra operand with -T. `ops` are
 * the n operands. Returns 0, or 1 after the message and usage hint. */
static int check_operands(cmd_ctx *ctx, int n, char *const *ops, const char *target_dir,
                          bool no_target) {
  if (target_dir && no_target) {
    cmd_errorf(ctx, "cannot combine --target-directory (-t) and --no-target-directory (-T)");
    return cmd_usage_hint(ctx, 1);
  }
  if (n < 1) {
    cmd_errorf(ctx, "missing file operand");
    return cmd_usage_hint(ctx, 1);
  }
  if (n == 1 && !target_dir) {
    cmd_errorf(ctx, "missing destination file operand after %s", cmd_gnu_quoteaf(ctx, ops[0]));
    return cmd_usage_hint(ctx, 1);
  }
  if (no_target && n > 2) {
    cmd_errorf(ctx, "extra operand %s", cmd_gnu_quoteaf(ctx, ops[2]));
    return cmd_usage_hint(ctx, 1);
  }
  return 0;
}

/* --strip-trailing-slashes: removes trailing slashes of each operand in place
 * (a lone "/" stays). */
static void strip_slashes(int n, char **ops) {
  for (int i = 0; i < n; i++) {
    size_t l = strlen(ops[i]);
    while (l > 1 && ops[i][l - 1] == '/') ops[i][--l] = 0;
  }
}

int cmd_fs_need_dir(cmd_ctx *ctx, const char *what, const char *path, int rc,
                    const store_stat *st) {
  if (rc == 0 && S_ISDIR(st->mode)) return 0;
  cmd_errorf(ctx, "%s %s: %s", what, cmd_gnu_quoteaf(ctx, path),
             cmd_strerror(rc < 0 ? rc : -ENOTDIR));
  return 1;
}

int cmd_fs_split_operands(cmd_ctx *ctx, int n, char **ops, const char **target_dir,
                          bool no_target, bool strip, bool parents) {
  if (check_operands(ctx, n, ops, *target_dir, no_target)) return -1;
  if (strip) strip_slashes(n, ops);
  store_stat ts;
  if (*target_dir) {
    int rc = cmd_fs_stat(ctx, *target_dir, &ts);
    return cmd_fs_need_dir(ctx, "target directory", *target_dir, rc, &ts) ? -1 : n;
  }
  if (no_target) return 1;
  const char *last = ops[n - 1];
  int rc = cmd_fs_stat(ctx, last, &ts);
  bool is_dir = rc == 0 && S_ISDIR(ts.mode);
  if (!is_dir && (n > 2 || parents)) {
    if (parents && n <= 2 && rc == 0) {
      cmd_errorf(ctx, "with --parents, the destination must be a directory");
      cmd_usage_hint(ctx, 1);
      return -1;
    }
    cmd_fs_need_dir(ctx, "target", last, rc, &ts);
    return -1;
  }
  /* stat follows links: "mv dir1 dir2" where dir2 is a symlink to a
   * directory moves into it */
  if (is_dir) *target_dir = last;
  return n - 1;
}

bool cmd_fs_answer_yes(cmd_ctx *ctx, cmd_in **in) {
  if (!*in) *in = cmd_in_fd(ctx, 0);
  if (!*in) return false;
  char *line;
  ssize_t n = cmd_in_getdelim(*in, &line, '\n');
  return n > 0 && (line[0] == 'y' || line[0] == 'Y');
}

int cmd_fs_backup_kind(cmd_ctx *ctx, const char *control) {
  static const struct {
    const char *name; /* a CONTROL word */
    int kind;         /* CMD_BACKUP_* */
  } words[] = {{"none", CMD_BACKUP_NONE},         {"off", CMD_BACKUP_NONE},
               {"simple", CMD_BACKUP_SIMPLE},     {"never", CMD_BACKUP_SIMPLE},
               {"existing", CMD_BACKUP_EXISTING}, {"nil", CMD_BACKUP_EXISTING},
               {"numbered", CMD_BACKUP_NUMBERED}, {"t", CMD_BACKUP_NUMBERED}};
  if (!control) control = cmd_getenv(ctx, "VERSION_CONTROL");
  if (!control || !*control) return CMD_BACKUP_EXISTING;
  for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
    if (!strcmp(control, words[i].name)) return words[i].kind;
  cmd_errorf(ctx, "invalid argument %s for 'backup type'", cmd_gnu_quote(ctx, control));
  cmd_err_raw(ctx, "Valid arguments are:\n  - 'none', 'off'\n  - 'simple', 'never'\n"
                   "  - 'existing', 'nil'\n  - 'numbered', 't'\n");
  return -1;
}

/* The highest N of the existing backups "DST.~N~", 0 when there is none. */
static int backup_highest(cmd_ctx *ctx, const char *dst) {
  char *dir = cmd_fs_dirname(ctx, dst), *base = cmd_fs_basename(ctx, dst);
  char **names;
  int n = cmd_fs_listdir(ctx, dir, &names), best = 0;
  size_t bl = strlen(base);
  for (int i = 0; i < n; i++) {
    if (strncmp(names[i], base, bl) || strncmp(names[i] + bl, ".~", 2)) continue;
    char *ep;
    long v = strtol(names[i] + bl + 2, &ep, 10);
    if (v > best && ep[0] == '~' && !ep[1] && v < 1000000000) best = (int)v;
  }
  return best;
}

char *cmd_fs_backup_name(cmd_ctx *ctx, const char *dst, int kind, const char *suffix) {
  int highest = kind == CMD_BACKUP_SIMPLE ? 0 : backup_highest(ctx, dst);
  if (kind == CMD_BACKUP_EXISTING) kind = highest > 0 ? CMD_BACKUP_NUMBERED : CMD_BACKUP_SIMPLE;
  size_t l = strlen(dst) + strlen(suffix) + 32;
  char *b = cmd_alloc(ctx, l);
  if (!b) return NULL;
  if (kind == CMD_BACKUP_NUMBERED) snprintf(b, l, "%s.~%d~", dst, highest + 1);
  else snprintf(b, l, "%s%s", dst, suffix);
  return b;
}
