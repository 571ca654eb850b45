/*
 * py_mirror.c - the reduced jail tier's private directory, kept consistent
 * with the store around each call (py_mirror.h).
 *
 * Without a mount namespace the jail cannot have the store as its root, so
 * the worker works on a plain host directory D whose tree is the store's
 * tree ("/data/x" in the store is D/data/x). Each synced path has a record
 * of how it looked on both sides after the last sync: the store's (inode,
 * mode, size, mtime, ctime) and the host's (inode, mode, size, mtime, ctime
 * in ns). A sync walks one side, compares each entry with its record and
 * copies only what differs; records the walk did not meet are deletions.
 * Cost: one walk of each side per call (stat only), plus the bytes of what
 * changed (docs/python.md has the figures).
 *
 * Security: D belongs to code that may be hostile, and the host may be
 * root. Every host path is reached from D's fd with openat(O_NOFOLLOW) one
 * component at a time, directories with O_DIRECTORY, files are read only
 * when fstat says regular: a symlink or a swapped directory planted by the
 * worker can never make the host read or write outside D. Files the host
 * makes in D are given to the worker's uid.
 *
 * Limits: paths of STORE_PATH_MAX bytes at most, MIRROR_MAX_DEPTH levels;
 * deeper or longer entries are reported, not followed.
 */
#include "py/py_mirror.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MIRROR_MAX_DEPTH 256
#define MIRROR_CHUNK (1u << 20)

/* One synced path. */
typedef struct mirror_rec {
  char *path;          /* the store path ("/data/x"), malloc'd; NULL: free slot */
  uint32_t type;       /* S_IFMT bits as last synced */
  store_ino s_ino;     /* the store's side */
  uint32_t s_mode;
  uint64_t s_size;
  int64_t s_mtime, s_ctime;
  uint32_t s_mtime_ns, s_ctime_ns;
  uint64_t h_ino;      /* the host's side */
  uint32_t h_mode;
  uint64_t h_size;
  int64_t h_mtime_ns, h_ctime_ns;
  int seen;            /* met by the current walk */
} mirror_rec;

struct py_mirror {
  char root[PATH_MAX];  /* D */
  int root_fd;          /* D, O_DIRECTORY */
  uint32_t uid;         /* owner of what the host makes in D (root host), or 0 */
  mirror_rec *recs;     /* open hash table by path */
  size_t cap, count;    /* slots (a power of two), used */
  char *err;            /* the caller's message buffer during a sync */
  size_t errlen;
  int failed;           /* a failure was recorded in err */
  unsigned char *buf;   /* copy buffer (MIRROR_CHUNK) */
  uint64_t gen;         /* store_generation() when both sides last agreed */
  int synced;           /* gen is valid */
};

static int fail(py_mirror *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(py_mirror *m, const char *fmt, ...) {
  if (!m->failed) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m->err, m->errlen, fmt, ap);
    va_end(ap);
    m->failed = 1;
  }
  return -1;
}

/* ---- records ----------------------------------------------------------------------- */

static size_t hash_path(const char *p) {
  size_t h = 1469598103934665603ull;
  for (; *p; p++) h = (h ^ (unsigned char)*p) * 1099511628211ull;
  return h;
}

static mirror_rec *rec_find(py_mirror *m, const char *path) {
  if (!m->cap) return NULL;
  for (size_t i = hash_path(path) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
    if (!m->recs[i].path) return NULL;
    if (strcmp(m->recs[i].path, path) == 0) return &m->recs[i];
  }
}

/* Rebuilds the table without the records whose path is NULL'ed by the
 * caller ("removed") or into a larger one. */
static int rec_rehash(py_mirror *m, size_t cap) {
  mirror_rec *n = calloc(cap, sizeof *n);
  if (!n) return -1;
  for (size_t i = 0; i < m->cap; i++) {
    if (!m->recs[i].path) continue;
    size_t k = hash_path(m->recs[i].path) & (cap - 1);
    while (n[k].path) k = (k + 1) & (cap - 1);
    n[k] = m->recs[i];
  }
  free(m->recs);
  m->recs = n;
  m->cap = cap;
  return 0;
}

static mirror_rec *rec_get(py_mirror *m, const char *path) {
  mirror_rec *r = rec_find(m, path);
  if (r) return r;
  if ((m->count + 1) * 2 > m->cap && rec_rehash(m, m->cap ? m->cap * 2 : 256)) return NULL;
  char *p = strdup(path);
  if (!p) return NULL;
  size_t k = hash_path(path) & (m->cap - 1);
  while (m->recs[k].path) k = (k + 1) & (m->cap - 1);
  memset(&m->recs[k], 0, sizeof m->recs[k]);
  m->recs[k].path = p;
  m->count++;
  return &m->recs[k];
}

static void rec_set_store(mirror_rec *r, const store_stat *st) {
  r->type = st->mode & S_IFMT;
  r->s_ino = st->ino;
  r->s_mode = st->mode;
  r->s_size = st->size;
  r->s_mtime = st->mtime;
  r->s_mtime_ns = st->mtime_nsec;
  r->s_ctime = st->ctime;
  r->s_ctime_ns = st->ctime_nsec;
}

static int store_same(const mirror_rec *r, const store_stat *st) {
  return r->s_ino == st->ino && r->s_mode == st->mode && r->s_size == st->size &&
         r->s_mtime == st->mtime && r->s_mtime_ns == st->mtime_nsec && r->s_ctime == st->ctime &&
         r->s_ctime_ns == st->ctime_nsec;
}

static void rec_set_host(mirror_rec *r, const struct stat *st) {
  r->h_ino = st->st_ino;
  r->h_mode = st->st_mode;
  r->h_size = (uint64_t)st->st_size;
  r->h_mtime_ns = (int64_t)st->st_mtim.tv_sec * 1000000000 + st->st_mtim.tv_nsec;
  r->h_ctime_ns = (int64_t)st->st_ctim.tv_sec * 1000000000 + st->st_ctim.tv_nsec;
}

static int host_same(const mirror_rec *r, const struct stat *st) {
  return r->h_ino == st->st_ino && r->h_mode == st->st_mode &&
         r->h_size == (uint64_t)st->st_size &&
         r->h_mtime_ns == (int64_t)st->st_mtim.tv_sec * 1000000000 + st->st_mtim.tv_nsec &&
         r->h_ctime_ns == (int64_t)st->st_ctim.tv_sec * 1000000000 + st->st_ctim.tv_nsec;
}

/* Drops the records no walk met (their paths were deleted on the walked
 * side); `gone` is called for each first. */
static void rec_sweep(py_mirror *m, void (*gone)(py_mirror *, store *, mirror_rec *), store *s) {
  if (m->failed) {
    /* A walk that failed part way did not meet everything: what it missed
     * is not a deletion. */
    for (size_t i = 0; i < m->cap; i++) m->recs[i].seen = 0;
    return;
  }
  for (size_t i = 0; i < m->cap; i++)
    if (m->recs[i].path && !m->recs[i].seen) gone(m, s, &m->recs[i]);
  for (size_t i = 0; i < m->cap; i++) {
    if (m->recs[i].path && !m->recs[i].seen) {
      free(m->recs[i].path);
      m->recs[i].path = NULL;
      m->count--;
    }
    if (m->recs[i].path) m->recs[i].seen = 0;
  }
  rec_rehash(m, m->cap); /* closes the holes the removals left in probe chains */
}

/* ---- host paths, never following a link ------------------------------------------------ */

/* The fd of the directory holding `path` (a store path, "/a/b" -> D/a) and
 * its last name; -1 when some component is not a real directory. */
static int host_parent(py_mirror *m, const char *path, const char **name) {
  int fd = dup(m->root_fd);
  const char *p = path;
  while (fd >= 0) {
    while (*p == '/') p++;
    const char *slash = strchr(p, '/');
    if (!slash) break;
    char comp[STORE_NAME_MAX + 1];
    size_t l = (size_t)(slash - p);
    if (l > STORE_NAME_MAX) {
      close(fd);
      return -1;
    }
    memcpy(comp, p, l);
    comp[l] = 0;
    int nfd = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    close(fd);
    fd = nfd;
    p = slash + 1;
  }
  *name = p;
  return fd;
}

/* rm -r of `name` in dirfd, links never followed. */
static void host_remove(int dirfd, const char *name, int depth) {
  if (unlinkat(dirfd, name, 0) == 0 || errno == ENOENT) return;
  if (depth > MIRROR_MAX_DEPTH) return;
  int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return;
  DIR *d = fdopendir(fd);
  if (!d) {
    close(fd);
    return;
  }
  struct dirent *de;
  while ((de = readdir(d)))
    if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) host_remove(fd, de->d_name, depth + 1);
  closedir(d);
  unlinkat(dirfd, name, AT_REMOVEDIR);
}

static void give(py_mirror *m, int fd, const char *name) {
  if (m->uid) fchownat(fd, name ? name : "", m->uid, m->uid, name ? AT_SYMLINK_NOFOLLOW : AT_EMPTY_PATH);
}

/* ---- export: store -> D -------------------------------------------------------------------- */

/* Writes the store's file `st` as `name` in dirfd. */
static int export_file(py_mirror *m, store *s, int dirfd, const char *name, const store_stat *st,
                       const char *path) {
  /* O_NONBLOCK: a FIFO planted here must not block the host (ENXIO without
   * a reader); whatever is not a regular file is removed and made anew. */
  const int flags = O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC;
  int fd = openat(dirfd, name, flags, 0600);
  struct stat hs;
  if (fd >= 0 && (fstat(fd, &hs) || !S_ISREG(hs.st_mode))) {
    close(fd);
    fd = -1;
    errno = EEXIST;
  }
  if (fd < 0 && errno != EACCES && errno != ENOENT) {
    host_remove(dirfd, name, 0);
    fd = openat(dirfd, name, flags | O_EXCL, 0600);
  }
  if (fd < 0) return fail(m, "export %s: %s", path, strerror(errno));
  for (uint64_t off = 0; off < st->size;) {
    ssize_t r = store_read_stat(s, st, m->buf, MIRROR_CHUNK, off);
    if (r < 0) {
      close(fd);
      return fail(m, "export %s: %s", path, strerror((int)-r));
    }
    if (r == 0) break;
    for (ssize_t done = 0; done < r;) {
      ssize_t w = write(fd, m->buf + done, (size_t)(r - done));
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) {
        int e = errno;
        close(fd);
        return fail(m, "export %s: %s", path, strerror(e));
      }
      done += w;
    }
    off += (uint64_t)r;
  }
  fchmod(fd, st->mode & 07777);
  give(m, fd, NULL);
  struct timespec ts[2] = {{st->atime, st->atime_nsec}, {st->mtime, st->mtime_nsec}};
  futimens(fd, ts);
  close(fd);
  return 0;
}

/* Exports entry `name` (store stat st) of the directory at `dirpath` into
 * dirfd; recurses into directories. */
static void export_entry(py_mirror *m, store *s, int dirfd, const char *dirpath, const char *name,
                         const store_stat *st, int depth);

static void export_dir(py_mirror *m, store *s, int fd, const char *path, store_ino ino, int depth) {
  if (depth > MIRROR_MAX_DEPTH) {
    fail(m, "export: deeper than %d levels at %s", MIRROR_MAX_DEPTH, path);
    return;
  }
  store_name_list l = {0};
  int rc = store_readdir_names(s, ino, &l);
  if (rc < 0) fail(m, "export %s: %s", path, strerror(-rc));
  for (size_t i = 0; i < l.n; i++) {
    store_stat st;
    if (store_lookup(s, ino, l.names[i], &st) == 0) export_entry(m, s, fd, path, l.names[i], &st, depth);
  }
  store_name_list_free(&l);
}

static void export_entry(py_mirror *m, store *s, int dirfd, const char *dirpath, const char *name,
                         const store_stat *st, int depth) {
  char path[STORE_PATH_MAX];
  if (snprintf(path, sizeof path, "%s/%s", strcmp(dirpath, "/") ? dirpath : "", name) >=
      (int)sizeof path) {
    fail(m, "export %s/%s: path too long", dirpath, name);
    return;
  }
  mirror_rec *r = rec_get(m, path);
  if (!r) {
    fail(m, "export: out of memory");
    return;
  }
  r->seen = 1;
  struct stat hs;
  int have = fstatat(dirfd, name, &hs, AT_SYMLINK_NOFOLLOW) == 0;
  uint32_t type = st->mode & S_IFMT;
  /* Unchanged on both sides since the last sync: nothing to do (but a
   * directory's children still are walked). */
  int same = r->type == type && store_same(r, st) && have && host_same(r, &hs);
  if (S_ISDIR(st->mode)) {
    if (have && !S_ISDIR(hs.st_mode)) host_remove(dirfd, name, 0);
    if (mkdirat(dirfd, name, 0700) == 0) give(m, dirfd, name);
    int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
      fail(m, "export %s: %s", path, strerror(errno));
      return;
    }
    if (!same) fchmod(fd, st->mode & 07777);
    export_dir(m, s, fd, path, st->ino, depth + 1);
    r = rec_find(m, path); /* the table may have grown meanwhile */
    if (r && fstat(fd, &hs) == 0) rec_set_host(r, &hs);
    if (r) rec_set_store(r, st);
    close(fd);
    return;
  }
  if (same) return;
  if (S_ISREG(st->mode)) {
    if (export_file(m, s, dirfd, name, st, path)) return;
  } else if (S_ISLNK(st->mode)) {
    char target[STORE_PATH_MAX];
    ssize_t tl = store_readlink(s, st->ino, target, sizeof target);
    if (tl < 0 || (size_t)tl >= sizeof target) {
      fail(m, "export %s: readlink failed", path);
      return;
    }
    if (have) host_remove(dirfd, name, 0);
    if (symlinkat(target, dirfd, name)) {
      fail(m, "export %s: %s", path, strerror(errno));
      return;
    }
    give(m, dirfd, name);
  } else {
    return; /* no other type is made by the store's users */
  }
  if (fstatat(dirfd, name, &hs, AT_SYMLINK_NOFOLLOW) == 0) rec_set_host(r, &hs);
  rec_set_store(r, st);
}

static void export_gone(py_mirror *m, store *s, mirror_rec *r) {
  (void)s;
  const char *name;
  int fd = host_parent(m, r->path, &name);
  if (fd < 0) return; /* its parent went first */
  host_remove(fd, name, 0);
  close(fd);
}

int py_mirror_export(py_mirror *m, store *s, char *err, size_t errlen) {
  m->err = err;
  m->errlen = errlen;
  m->failed = 0;
  err[0] = 0;
  /* Nothing written to the store since both sides last agreed: D is
   * already its copy (changes made in D are the import's business). */
  if (m->synced && store_generation(s) == m->gen) return 0;
  store_stat root;
  int rc = store_getattr(s, STORE_ROOT_INO, &root);
  if (rc < 0) return fail(m, "export /: %s", strerror(-rc));
  export_dir(m, s, m->root_fd, "/", STORE_ROOT_INO, 0);
  rec_sweep(m, export_gone, s);
  m->gen = store_generation(s);
  m->synced = !m->failed;
  return m->failed ? -1 : 0;
}

/* ---- import: D -> store ---------------------------------------------------------------------- */

/* Copies the host file open on fd into the store at `path`. */
static int import_file(py_mirror *m, store *s, int fd, const char *path, uint32_t mode) {
  store_stat st;
  int rc = store_path_lstat(s, "/", path, &st);
  if (rc == 0 && !S_ISREG(st.mode)) store_path_remove_tree(s, "/", path);
  rc = store_path_open(s, "/", path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, mode & 07777, &st);
  if (rc < 0) return fail(m, "import %s: %s", path, strerror(-rc));
  uint64_t off = 0;
  for (;;) {
    ssize_t r = read(fd, m->buf, MIRROR_CHUNK);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) return fail(m, "import %s: %s", path, strerror(errno));
    if (r == 0) break;
    ssize_t w = store_write(s, st.ino, m->buf, (size_t)r, off);
    if (w < 0) return fail(m, "import %s: %s", path, strerror((int)-w));
    off += (uint64_t)r;
  }
  store_path_chmod(s, "/", path, mode & 07777);
  return 0;
}

static void import_dir(py_mirror *m, store *s, int fd, const char *path, int depth);

static void import_entry(py_mirror *m, store *s, int dirfd, const char *dirpath, const char *name,
                         int depth) {
  char path[STORE_PATH_MAX];
  if (strlen(name) > STORE_NAME_MAX ||
      snprintf(path, sizeof path, "%s/%s", strcmp(dirpath, "/") ? dirpath : "", name) >=
          (int)sizeof path) {
    fail(m, "import %s/%s: name or path too long for the store", dirpath, name);
    return;
  }
  struct stat hs;
  if (fstatat(dirfd, name, &hs, AT_SYMLINK_NOFOLLOW)) return; /* gone meanwhile */
  if (!S_ISDIR(hs.st_mode) && !S_ISREG(hs.st_mode) && !S_ISLNK(hs.st_mode)) return;
  mirror_rec *r = rec_get(m, path);
  if (!r) {
    fail(m, "import: out of memory");
    return;
  }
  r->seen = 1;
  int same = r->type == (hs.st_mode & S_IFMT) && host_same(r, &hs);
  store_stat st;
  if (S_ISDIR(hs.st_mode)) {
    int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return;
    if (!same) {
      int rc = store_path_lstat(s, "/", path, &st);
      if (rc == 0 && !S_ISDIR(st.mode)) store_path_remove_tree(s, "/", path), rc = -ENOENT;
      if (rc == -ENOENT) rc = store_path_mkdir(s, "/", path, hs.st_mode & 07777);
      else if (rc == 0 && (st.mode & 07777) != (hs.st_mode & 07777))
        rc = store_path_chmod(s, "/", path, hs.st_mode & 07777);
      if (rc < 0) fail(m, "import %s: %s", path, strerror(-rc));
    }
    import_dir(m, s, fd, path, depth + 1);
    close(fd);
    r = rec_find(m, path); /* the table may have grown meanwhile */
    if (!r) return;
  } else if (!same && S_ISREG(hs.st_mode)) {
    int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return;
    if (fstat(fd, &hs) == 0 && S_ISREG(hs.st_mode)) import_file(m, s, fd, path, hs.st_mode);
    close(fd);
  } else if (!same) {
    char target[STORE_PATH_MAX];
    ssize_t tl = readlinkat(dirfd, name, target, sizeof target - 1);
    if (tl < 0) return;
    target[tl] = 0;
    if (store_path_lstat(s, "/", path, &st) == 0) store_path_remove_tree(s, "/", path);
    int rc = store_path_symlink(s, "/", target, path);
    if (rc < 0) fail(m, "import %s: %s", path, strerror(-rc));
  }
  if (same) return;
  /* The record: both sides as they are now. */
  if (store_path_lstat(s, "/", path, &st) == 0) rec_set_store(r, &st);
  rec_set_host(r, &hs);
  r->type = hs.st_mode & S_IFMT;
}

static void import_dir(py_mirror *m, store *s, int fd, const char *path, int depth) {
  if (depth > MIRROR_MAX_DEPTH) {
    fail(m, "import: deeper than %d levels at %s", MIRROR_MAX_DEPTH, path);
    return;
  }
  /* A new open file description: a dup would share (and leave at the end)
   * the directory offset of fd, and the next walk would see nothing. */
  int dfd = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
  if (!d) {
    if (dfd >= 0) close(dfd);
    fail(m, "import %s: %s", path, strerror(errno));
    return;
  }
  store_name_list l = {0};
  struct dirent *de;
  while ((de = readdir(d))) {
    if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..")) continue;
    if (store_name_list_add(&l, de->d_name)) break;
  }
  closedir(d);
  for (size_t i = 0; i < l.n; i++) import_entry(m, s, fd, path, l.names[i], depth);
  store_name_list_free(&l);
}

static void import_gone(py_mirror *m, store *s, mirror_rec *r) {
  store_stat st;
  if (store_path_lstat(s, "/", r->path, &st) == 0 && (st.mode & S_IFMT) == r->type) {
    int rc = store_path_remove_tree(s, "/", r->path);
    if (rc < 0 && rc != -ENOENT) fail(m, "import: remove %s: %s", r->path, strerror(-rc));
  }
}

int py_mirror_import(py_mirror *m, store *s, char *err, size_t errlen) {
  m->err = err;
  m->errlen = errlen;
  m->failed = 0;
  err[0] = 0;
  uint64_t before = store_generation(s);
  int rc = store_begin(s);
  if (rc < 0) return fail(m, "import: %s", strerror(-rc));
  import_dir(m, s, m->root_fd, "/", 0);
  rec_sweep(m, import_gone, s);
  rc = store_commit(s);
  if (rc < 0) fail(m, "import: commit: %s", strerror(-rc));
  /* What the import wrote is in the records already: the next export need
   * not walk for it. */
  if (m->synced && !m->failed && before == m->gen) m->gen = store_generation(s);
  else m->synced = 0;
  return m->failed ? -1 : 0;
}

/* ---- life -------------------------------------------------------------------------------------- */

py_mirror *py_mirror_create(uint32_t uid, char *err, size_t errlen) {
  py_mirror *m = calloc(1, sizeof *m);
  if (m) m->buf = malloc(MIRROR_CHUNK);
  if (!m || !m->buf) {
    if (m) free(m);
    snprintf(err, errlen, "out of memory");
    return NULL;
  }
  const char *tmp = getenv("TMPDIR");
  if (!tmp || tmp[0] != '/' || strlen(tmp) > PATH_MAX - 32) tmp = "/tmp";
  snprintf(m->root, sizeof m->root, "%s/sbx-py-XXXXXX", tmp);
  if (!mkdtemp(m->root)) {
    snprintf(err, errlen, "cannot make a private directory in %s: %s", tmp, strerror(errno));
    free(m->buf);
    free(m);
    return NULL;
  }
  m->root_fd = open(m->root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  m->uid = geteuid() == 0 ? uid : 0;
  if (m->root_fd < 0 || (m->uid && fchown(m->root_fd, m->uid, m->uid))) {
    snprintf(err, errlen, "private directory %s: %s", m->root, strerror(errno));
    py_mirror_free(m);
    return NULL;
  }
  return m;
}

const char *py_mirror_root(const py_mirror *m) { return m->root; }

void py_mirror_known_write(py_mirror *m, uint64_t before, uint64_t after) {
  if (m && m->synced && m->gen == before) m->gen = after;
}

uint32_t py_mirror_uid(const py_mirror *m) { return m->uid; }

void py_mirror_free(py_mirror *m) {
  if (!m) return;
  if (m->root_fd >= 0) {
    /* The directory's contents, then the directory, by fd (no link followed). */
    int fd = open(m->root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd >= 0) {
      DIR *d = fdopendir(fd);
      struct dirent *de;
      while (d && (de = readdir(d)))
        if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) host_remove(fd, de->d_name, 0);
      if (d) closedir(d);
      else close(fd);
    }
    rmdir(m->root);
    close(m->root_fd);
  }
  for (size_t i = 0; i < m->cap; i++) free(m->recs[i].path);
  free(m->recs);
  free(m->buf);
  free(m);
}
