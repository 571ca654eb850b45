/*
 * sandbox_tree.c - host directory trees in and out of a sandbox:
 * sbx_import_dir (a host tree into the sandbox, in one transaction) and
 * sbx_export_dir (a sandbox tree into a new host directory). The CLI's
 * `sbx DB import HOSTDIR PATH` / `sbx DB export-dir PATH HOSTDIR` and the
 * Python package's `files={"/data/repo": Path("repo")}` use them.
 *
 * What is copied: regular files, directories and symlinks, with their
 * permission bits (and the sticky bit) and modification and access times;
 * the set-user-id and set-group-id bits are dropped in both directions, so
 * a sandbox can never hand a set-id program to the host. Other file types
 * (fifos, sockets, devices) are refused.
 *
 * Symlinks must stay inside the copied tree, so that the copy cannot reach
 * anything beside it (on the host after an export, in the sandbox after an
 * import). The rule is syntactic and sound: the target is relative, it is
 * some "../" (no more than the link's depth in the tree) followed by names
 * only, with no ".." after a name. Going up lands in a real ancestor
 * directory inside the tree; every name below it is a real entry of the tree
 * or a link that obeys the same rule, so no resolution leaves the tree. (A
 * looser, lexical rule would let "d/up/.." out when d/up is "..".)
 *
 * Host side: every host file is opened relative to its directory's fd with
 * O_NOFOLLOW, and export creates entries with O_EXCL/mkdirat in a directory
 * it has just created, so a concurrent change of the host tree cannot
 * redirect a read or a write elsewhere. Depth is bounded (TREE_MAX_DEPTH).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "api/sandbox_int.h"

#define TREE_MAX_DEPTH 256   /* directory levels below the copied root */
#define TREE_PERM_BITS 01777 /* permissions and sticky; set-id bits dropped */

typedef struct tree_ctx {
  sbx *h;                      /* the sandbox (locked for the whole copy) */
  const char *op;              /* "import" or "export", for messages */
  char host[8192];             /* the host path of the current entry */
  size_t hlen;                 /* bytes of host */
  char sb[STORE_PATH_MAX + 1]; /* the sandbox path of the current entry */
  size_t slen;                 /* bytes of sb */
  sandbox_call call;           /* the call's history row, begun by tree_start */
} tree_ctx;

/* Appends "/name" to both paths; -1 when one would be too long. */
static int push_name(tree_ctx *t, const char *name, size_t *hsave, size_t *ssave) {
  size_t n = strlen(name);
  *hsave = t->hlen;
  *ssave = t->slen;
  int sslash = t->slen > 0 && t->sb[t->slen - 1] != '/';
  int hslash = t->hlen > 0 && t->host[t->hlen - 1] != '/';
  if (t->hlen + hslash + n >= sizeof t->host || t->slen + sslash + n > STORE_PATH_MAX)
    return -1;
  if (hslash) t->host[t->hlen++] = '/';
  memcpy(t->host + t->hlen, name, n + 1);
  t->hlen += n;
  if (sslash) t->sb[t->slen++] = '/';
  memcpy(t->sb + t->slen, name, n + 1);
  t->slen += n;
  return 0;
}

static void pop_name(tree_ctx *t, size_t hsave, size_t ssave) {
  t->hlen = hsave;
  t->host[hsave] = '\0';
  t->slen = ssave;
  t->sb[ssave] = '\0';
}

/* Whether a symlink `target` in a directory `depth` levels below the root
 * stays inside the tree (the rule of the header comment). */
static int link_stays_inside(const char *target, int depth) {
  if (target[0] == '/' || target[0] == '\0') return 0;
  int seen_name = 0;
  for (const char *p = target; *p;) {
    const char *q = strchr(p, '/');
    size_t n = q ? (size_t)(q - p) : strlen(p);
    if (n == 2 && p[0] == '.' && p[1] == '.') {
      if (seen_name || --depth < 0) return 0;
    } else if (n > 0 && !(n == 1 && p[0] == '.')) {
      seen_name = 1;
    }
    p += n;
    if (*p == '/') p++;
  }
  return 1;
}

/* A host failure: "OP HOSTPATH: strerror". */
static int host_fail(tree_ctx *t, int err) {
  return sandbox_fail(t->h, SBX_FS | (err << 8), "%s %s: %s", t->op, t->host,
                      strerror(err));
}

static int link_fail(tree_ctx *t, const char *target) {
  return sandbox_fail(
      t->h, SBX_ERROR,
      "%s %s: the symlink's target '%s' leaves the copied tree (only relative "
      "targets that stay inside it are copied)",
      t->op, t->host, target);
}

static int type_fail(tree_ctx *t) {
  return sandbox_fail(t->h, SBX_ERROR,
                      "%s %s: not a regular file, directory or symlink (not copied)",
                      t->op, t->host);
}

static int store_fail(tree_ctx *t, int src) {
  return sandbox_fail_store(t->h, src, t->op, t->sb);
}

/* ---- import --------------------------------------------------------------------------
 */

/* Declared in sandbox_int.h; the CLI reads its stdin and host files with it too. */
int sandbox_read_fd(int fd, size_t hint, char **data, size_t *len) {
  size_t cap = hint + 1, n = 0;
  char *buf = malloc(cap + 1);
  if (!buf) return ENOMEM;
  for (;;) {
    if (n == cap) {
      if (cap > ((size_t)-1) / 4) {
        free(buf);
        return EFBIG;
      }
      char *p = realloc(buf, cap * 2 + 1);
      if (!p) {
        free(buf);
        return ENOMEM;
      }
      buf = p;
      cap *= 2;
    }
    ssize_t r = read(fd, buf + n, cap - n);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) {
      int e = errno;
      free(buf);
      return e;
    }
    if (r == 0) break;
    n += (size_t)r;
  }
  buf[n] = '\0';
  *data = buf;
  *len = n;
  return 0;
}

/* Gives the sandbox entry at t->sb the host entry's permissions and times. */
static int import_attrs(tree_ctx *t, const struct stat *st, int is_link) {
  int src;
  if (!is_link &&
      (src = store_path_chmod(t->h->st, NULL, t->sb, st->st_mode & TREE_PERM_BITS)) < 0)
    return store_fail(t, src);
  struct timespec ts[2] = {st->st_atim, st->st_mtim};
  if ((src = store_path_utimes(t->h->st, NULL, t->sb, ts, is_link ? STORE_NOFOLLOW : 0)) <
      0)
    return store_fail(t, src);
  return SBX_OK;
}

static int import_dir_fd(tree_ctx *t, int dfd, int depth);

/* One entry `name` of the host directory dfd (t's paths already name it). */
static int import_entry(tree_ctx *t, int dfd, const char *name, int depth) {
  store *s = t->h->st;
  struct stat st;
  if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) return host_fail(t, errno);
  store_stat old;
  int exists = store_path_lstat(s, NULL, t->sb, &old) == 0;
  int src;
  if (S_ISDIR(st.st_mode)) {
    if (depth >= TREE_MAX_DEPTH) return host_fail(t, ELOOP);
    if (exists && !S_ISDIR(old.mode) && (src = store_path_unlink(s, NULL, t->sb)) < 0)
      return store_fail(t, src);
    if ((!exists || !S_ISDIR(old.mode)) &&
        (src = store_path_mkdir(s, NULL, t->sb, 0700)) < 0)
      return store_fail(t, src);
    int fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return host_fail(t, errno);
    int rc = import_dir_fd(t, fd, depth + 1); /* closes fd */
    return rc ? rc : import_attrs(t, &st, 0);
  }
  if (exists && S_ISDIR(old.mode) && !S_ISDIR(st.st_mode) &&
      (src = store_path_remove_tree(s, NULL, t->sb)) < 0)
    return store_fail(t, src);
  if (S_ISREG(st.st_mode)) {
    int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return host_fail(t, errno);
    char *data = NULL;
    size_t len = 0;
    int e = sandbox_read_fd(fd, (size_t)st.st_size, &data, &len);
    close(fd);
    if (e) return host_fail(t, e);
    if (exists && S_ISLNK(old.mode) && (src = store_path_unlink(s, NULL, t->sb)) < 0) {
      free(data);
      return store_fail(t, src);
    }
    src =
        store_path_write_file(s, NULL, t->sb, data, len, st.st_mode & TREE_PERM_BITS, 0);
    free(data);
    if (src < 0) return store_fail(t, src);
    return import_attrs(t, &st, 0);
  }
  if (S_ISLNK(st.st_mode)) {
    char target[STORE_PATH_MAX + 1];
    ssize_t n = readlinkat(dfd, name, target, sizeof target);
    if (n < 0) return host_fail(t, errno);
    if ((size_t)n >= sizeof target) return host_fail(t, ENAMETOOLONG);
    target[n] = '\0';
    if (!link_stays_inside(target, depth)) return link_fail(t, target);
    if (exists && (src = store_path_unlink(s, NULL, t->sb)) < 0)
      return store_fail(t, src);
    if ((src = store_path_symlink(s, NULL, target, t->sb)) < 0) return store_fail(t, src);
    return import_attrs(t, &st, 1);
  }
  return type_fail(t);
}

/* The entries of host directory fd (consumed) into t->sb. */
static int import_dir_fd(tree_ctx *t, int fd, int depth) {
  DIR *d = fdopendir(fd);
  if (!d) {
    int e = errno;
    close(fd);
    return host_fail(t, e);
  }
  int rc = SBX_OK;
  struct dirent *e;
  errno = 0;
  while (rc == SBX_OK && (e = readdir(d))) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    size_t hs, ss;
    if (push_name(t, e->d_name, &hs, &ss) != 0) {
      rc = host_fail(t, ENAMETOOLONG);
      break;
    }
    rc = import_entry(t, dirfd(d), e->d_name, depth);
    pop_name(t, hs, ss);
    errno = 0;
  }
  if (rc == SBX_OK && errno) rc = host_fail(t, errno);
  closedir(d);
  return rc;
}

/* Checks the arguments of a public call, takes the sandbox and begins the
 * call's history row (import writes; its parameters name the source first:
 * hostdir then path for an import, path then hostdir for an export); returns
 * the context, to end with tree_end, or NULL with *rc set. */
static tree_ctx *tree_start(sbx *h, const char *op, const char *hostdir, const char *path,
                            int *rc) {
  *rc = SBX_MISUSE;
  if (!h) return NULL;
  sandbox_clear_error(h);
  if (!h->st) {
    *rc = sandbox_fail(h, SBX_MISUSE, "the sandbox is not open");
    return NULL;
  }
  if (!hostdir || !path) {
    *rc = sandbox_fail(h, SBX_MISUSE, "%s: a path is NULL", op);
    return NULL;
  }
  if (strlen(path) > STORE_PATH_MAX || strlen(hostdir) >= sizeof((tree_ctx *)0)->host) {
    *rc = sandbox_fail_errno(h, op, path, ENAMETOOLONG);
    return NULL;
  }
  tree_ctx *t = calloc(1, sizeof *t);
  if (!t) {
    *rc = sandbox_fail(h, SBX_NOMEM, "out of memory");
    return NULL;
  }
  t->h = h;
  t->op = op;
  t->hlen = strlen(hostdir);
  memcpy(t->host, hostdir, t->hlen + 1);
  t->slen = strlen(path);
  memcpy(t->sb, path, t->slen + 1);
  sandbox_lock(h);
  int import = strcmp(op, "import") == 0;
  sandbox_call_begin(h, &t->call, import);
  if (import) {
    sandbox_json_key_str(&t->call.params, "hostdir", hostdir);
    sandbox_json_key_str(&t->call.params, "path", path);
  } else {
    sandbox_json_key_str(&t->call.params, "path", path);
    sandbox_json_key_str(&t->call.params, "hostdir", hostdir);
  }
  *rc = SBX_OK;
  return t;
}

/* Ends a call begun by tree_start: records its row under `name`, releases the
 * sandbox and frees t; returns rc, or the commit's failure. */
static int tree_end(tree_ctx *t, const char *name, int rc) {
  sbx *h = t->h;
  rc = sandbox_call_end(h, &t->call, name, rc, NULL, 0);
  sandbox_unlock(h);
  free(t);
  return rc;
}

int sbx_import_dir(sbx *h, const char *hostdir, const char *path) {
  int rc;
  tree_ctx *t = tree_start(h, "import", hostdir, path, &rc);
  if (!t) return rc;
  int fd = open(hostdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0) {
    rc = host_fail(t, errno);
    if (fd >= 0) close(fd);
  } else {
    int src = store_begin(h->st);
    if (src < 0) {
      rc = store_fail(t, src);
      close(fd);
    } else {
      src = store_path_mkdir_p(h->st, NULL, t->sb, 0755);
      if (src < 0) {
        rc = store_fail(t, src);
        close(fd);
      } else {
        rc = import_dir_fd(t, fd, 0);
      }
      if (rc == SBX_OK) rc = import_attrs(t, &st, 0);
      if (rc == SBX_OK && (src = store_commit(h->st)) < 0) rc = store_fail(t, src);
      if (rc != SBX_OK) store_rollback(h->st);
    }
  }
  return tree_end(t, "import_dir", rc);
}

/* ---- export --------------------------------------------------------------------------
 */

static void to_timespecs(const store_stat *st, struct timespec ts[2]) {
  ts[0].tv_sec = st->atime;
  ts[0].tv_nsec = st->atime_nsec;
  ts[1].tv_sec = st->mtime;
  ts[1].tv_nsec = st->mtime_nsec;
}

static int export_dir_fd(tree_ctx *t, int dfd, const store_stat *dir, int depth);

static int export_entry(tree_ctx *t, int dfd, const char *name, int depth) {
  store *s = t->h->st;
  store_stat st;
  int src = store_path_lstat(s, NULL, t->sb, &st);
  if (src < 0) return store_fail(t, src);
  struct timespec ts[2];
  to_timespecs(&st, ts);
  if (S_ISDIR(st.mode)) {
    if (depth >= TREE_MAX_DEPTH) return sandbox_fail_errno(t->h, t->op, t->sb, ELOOP);
    if (mkdirat(dfd, name, 0700) != 0) return host_fail(t, errno);
    int fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return host_fail(t, errno);
    int rc = export_dir_fd(t, fd, &st, depth + 1);
    if (rc == SBX_OK &&
        (fchmod(fd, st.mode & TREE_PERM_BITS) != 0 || futimens(fd, ts) != 0))
      rc = host_fail(t, errno);
    close(fd);
    return rc;
  }
  if (S_ISREG(st.mode)) {
    void *data;
    size_t len;
    if ((src = store_path_read_file(s, NULL, t->sb, &data, &len)) < 0)
      return store_fail(t, src);
    int fd =
        openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    int e = fd < 0 ? errno : 0;
    for (size_t off = 0; !e && off < len;) {
      ssize_t w = write(fd, (char *)data + off, len - off);
      if (w < 0 && errno == EINTR) continue;
      if (w < 0)
        e = errno;
      else
        off += (size_t)w;
    }
    free(data);
    if (!e && (fchmod(fd, st.mode & TREE_PERM_BITS) != 0 || futimens(fd, ts) != 0))
      e = errno;
    if (fd >= 0 && close(fd) != 0 && !e) e = errno;
    return e ? host_fail(t, e) : SBX_OK;
  }
  if (S_ISLNK(st.mode)) {
    char *target = NULL;
    if ((src = store_path_readlink(s, NULL, t->sb, &target)) < 0)
      return store_fail(t, src);
    int rc = SBX_OK;
    if (!link_stays_inside(target, depth))
      rc = link_fail(t, target);
    else if (symlinkat(target, dfd, name) != 0 ||
             utimensat(dfd, name, ts, AT_SYMLINK_NOFOLLOW) != 0)
      rc = host_fail(t, errno);
    free(target);
    return rc;
  }
  return type_fail(t);
}

/* The entries of sandbox directory t->sb into host directory dfd (borrowed). */
static int export_dir_fd(tree_ctx *t, int dfd, const store_stat *dir, int depth) {
  /* the names first, then each entry (store calls, recursion) */
  store_name_list l = {0};
  int src = store_readdir_names(t->h->st, dir->ino, &l);
  if (l.nomem) {
    store_name_list_free(&l);
    return sandbox_fail(t->h, SBX_NOMEM, "out of memory");
  }
  if (src < 0) {
    store_name_list_free(&l);
    return store_fail(t, src);
  }
  int rc = SBX_OK;
  for (size_t i = 0; i < l.n && rc == SBX_OK; i++) {
    size_t hs, ss;
    if (push_name(t, l.names[i], &hs, &ss) != 0) {
      rc = host_fail(t, ENAMETOOLONG);
      break;
    }
    rc = export_entry(t, dfd, l.names[i], depth);
    pop_name(t, hs, ss);
  }
  store_name_list_free(&l);
  return rc;
}

int sbx_export_dir(sbx *h, const char *path, const char *hostdir) {
  int rc;
  tree_ctx *t = tree_start(h, "export", hostdir, path, &rc);
  if (!t) return rc;
  store_stat st;
  int src = store_path_stat(h->st, NULL, path, &st);
  if (src < 0) {
    rc = store_fail(t, src);
  } else if (!S_ISDIR(st.mode)) {
    rc = sandbox_fail_errno(h, "export", path, ENOTDIR);
  } else if (mkdir(hostdir, 0700) != 0) {
    rc = host_fail(t, errno);
  } else {
    int fd = open(hostdir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
      rc = host_fail(t, errno);
    } else {
      struct timespec ts[2];
      to_timespecs(&st, ts);
      rc = export_dir_fd(t, fd, &st, 0);
      if (rc == SBX_OK &&
          (fchmod(fd, st.mode & TREE_PERM_BITS) != 0 || futimens(fd, ts) != 0))
        rc = host_fail(t, errno);
      close(fd);
    }
  }
  return tree_end(t, "export_dir", rc);
}
