/*
 * sandbox.c - the sbx_* handle over the store: opening (file, temporary file,
 * memory, snapshot bytes), errors, the file helpers, kv, history, snapshots,
 * forks and quotas. Everything here is a thin, checked layer over
 * src/store/store.h; the store does the real work and the atomicity.
 *
 * Key decisions:
 *  - Errors. Each public call clears the handle's error, validates its
 *    arguments (NULL handle or argument: SBX_MISUSE, nothing touched) and maps
 *    a negative store result to one sbx code in sandbox_fail_store(): -errno
 *    becomes SBX_FS | errno << 8 with the message "OP PATH: strerror", and the
 *    store's special codes become SBX_CORRUPT / SBX_SCHEMA / SBX_READONLY /
 *    SBX_NOMEM. Messages name the operation as the API calls it ("read",
 *    "write", "mkdir"...), so the CLI can swap in its own verb.
 *  - Returned arrays are one malloc'd block (records first, then their
 *    strings), built with the small `block` builder below, so every result is
 *    released with one sbx_free() as sbx.h promises.
 *  - A temporary sandbox is a named file made with mkostemps() in $TMPDIR (or
 *    /tmp), so the store works on it like on any file (WAL included), and is
 *    unlinked with its -wal/-shm/-journal side files on close.
 *  - Snapshot bytes are validated by opening them in memory before anything is
 *    written to disk, so invalid bytes never leave a file behind.
 */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "api/sandbox_int.h"
#include "iso/iso.h"

/* ---- errors ------------------------------------------------------------------ */

void sandbox_clear_error(sbx *h) {
  h->err_rc = SBX_OK;
  h->err_errno = 0;
  h->err_path[0] = '\0';
  h->err_msg[0] = '\0';
}

int sandbox_fail(sbx *h, int rc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(h->err_msg, sizeof h->err_msg, fmt, ap);
  va_end(ap);
  h->err_rc = rc;
  h->err_errno = sbx_rc_errno(rc);
  return rc;
}

/* Copies `path` (possibly over-long or NULL) into the bounded err_path. */
static void set_err_path(sbx *h, const char *path) {
  snprintf(h->err_path, sizeof h->err_path, "%s", path ? path : "");
}

/* "OP PATH" or "OP PATH -> PATH2" or "OP" into buf. Over-long paths are cut
 * (the message is bounded; the full path is what the caller passed). */
static void format_subject(char *buf, size_t n, const char *op, const char *path,
                           const char *path2) {
  if (path && path2)
    snprintf(buf, n, "%s %.*s -> %.*s", op, STORE_PATH_MAX, path, STORE_PATH_MAX, path2);
  else if (path)
    snprintf(buf, n, "%s %.*s", op, STORE_PATH_MAX, path);
  else
    snprintf(buf, n, "%s", op);
}

static int fail_errno2(sbx *h, const char *op, const char *path, const char *path2,
                       int err) {
  char subject[SANDBOX_ERRMSG_MAX - 128], ebuf[128];
  format_subject(subject, sizeof subject, op, path, path2);
  const char *reason = strerror_r(err, ebuf, sizeof ebuf);
  int rc = SBX_FS | (err << 8);
  sandbox_fail(h, rc, "%s: %s", subject, reason);
  set_err_path(h, path);
  return rc;
}

int sandbox_fail_errno(sbx *h, const char *op, const char *path, int err) {
  return fail_errno2(h, op, path, NULL, err);
}

static int fail_store2(sbx *h, int src, const char *op, const char *path,
                       const char *path2) {
  char subject[SANDBOX_ERRMSG_MAX - 256];
  format_subject(subject, sizeof subject, op, path, path2);
  const char *detail = h->st ? store_errmsg(h->st) : "";
  if (!detail) detail = "";
  switch (src) {
    case -ENOMEM:
      return sandbox_fail(h, SBX_NOMEM, "%s: out of memory", subject);
    case STORE_EROFS:
      return sandbox_fail(h, SBX_READONLY, "%s: the sandbox is read-only", subject);
    case STORE_ECORRUPT:
      return sandbox_fail(h, SBX_CORRUPT, "%s: not an SQLite database, or a damaged one",
                          subject);
    case STORE_ESCHEMA:
      return sandbox_fail(h, SBX_SCHEMA, "%s: not an AgentFS 0.4 sandbox database",
                          subject);
    case -EIO:
      if (*detail) {
        int rc = SBX_FS | (EIO << 8);
        sandbox_fail(h, rc, "%s: Input/output error (%.200s)", subject, detail);
        set_err_path(h, path);
        return rc;
      }
      break;
    default:
      break;
  }
  if (src >= 0 || -src >= 0xffff) /* not an errno: should not happen */
    return sandbox_fail(h, SBX_ERROR, "%s: unexpected store result %d", subject, src);
  return fail_errno2(h, op, path, path2, -src);
}

int sandbox_fail_store(sbx *h, int store_rc, const char *op, const char *path) {
  return fail_store2(h, store_rc, op, path, NULL);
}

/* Adds the store's open message (if any) to the recorded one. */
static void append_detail(sbx *h, const char *detail) {
  if (!detail || !*detail) return;
  size_t len = strlen(h->err_msg);
  snprintf(h->err_msg + len, sizeof h->err_msg - len, " (%.300s)", detail);
}

const char *sbx_errmsg(const sbx *h) {
  return h ? h->err_msg : "no sandbox handle (NULL)";
}

int sbx_errno(const sbx *h) { return h ? h->err_errno : 0; }

const char *sbx_errpath(const sbx *h) { return h ? h->err_path : ""; }

void sbx_free(void *p) { free(p); }

const char *sbx_path(const sbx *h) {
  return h && h->path && !h->memory_as_file ? h->path : "";
}

/* ---- entering and leaving a call ------------------------------------------------ */

/* Validates the handle, clears its error and takes its lock. Returns 0 or an
 * error code (then the lock is not held). */
static int sandbox_enter(sbx *h) {
  if (!h) return SBX_MISUSE;
  sandbox_clear_error(h);
  if (!h->st) return sandbox_fail(h, SBX_MISUSE, "the sandbox is not open");
  sandbox_lock(h);
  return 0;
}

static void sandbox_leave(sbx *h) { sandbox_unlock(h); }

void sandbox_lock(sbx *h) {
  const sandbox_section *s = h->py_section;
  if (s && s->lock_enter(h)) return;
  /* counted while waiting: the driver of background jobs lets a waiting
   * call in before its next slice (src/api/sandbox_bash.c, hold_lock) */
  atomic_fetch_add(&h->lock_waiters, 1);
  pthread_mutex_lock(&h->lock);
  atomic_fetch_sub(&h->lock_waiters, 1);
}

void sandbox_unlock(sbx *h) {
  const sandbox_section *s = h->py_section;
  if (!s || !s->lock_leave(h)) pthread_mutex_unlock(&h->lock);
}

#define MISUSE_IF(cond, ...) \
  do {                                     \
    if (cond) {                            \
      sandbox_leave(h);                    \
      return sandbox_fail(h, SBX_MISUSE, __VA_ARGS__); \
    }                                      \
  } while (0)

/* ---- one-block results ------------------------------------------------------------ */

/*
 * Builds an array of fixed-size records plus their strings, then packs both
 * into one malloc'd block. While building, string fields hold offsets + 1
 * (0 = NULL) cast to char *; block_fix() turns them into real pointers. The
 * strings grow in an iso_buf, the library's byte buffer that records an
 * allocation failure rather than aborting (sh_buf aborts).
 */
typedef struct block {
  char *items;      /* the records (item_size bytes each) */
  size_t item_size; /* size of one record (a multiple of the pointer size) */
  size_t n, cap;    /* records used / allocated */
  iso_buf strs;     /* string bytes, each NUL-terminated */
  int oom;          /* an allocation failed: the result is SBX_NOMEM */
} block;

/* Room for one more record, zeroed; NULL on OOM. */
static void *block_add(block *b) {
  if (b->n == b->cap) {
    size_t cap = b->cap ? b->cap * 2 : 16;
    char *p = realloc(b->items, cap * b->item_size);
    if (!p) {
      b->oom = 1;
      return NULL;
    }
    b->items = p;
    b->cap = cap;
  }
  void *it = b->items + b->n++ * b->item_size;
  memset(it, 0, b->item_size);
  return it;
}

/* Copies s into the string area; returns the offset + 1 as a pointer value
 * (NULL for a NULL s or on OOM). */
static char *block_str(block *b, const char *s) {
  if (!s) return NULL;
  size_t off = b->strs.len;
  iso_buf_add(&b->strs, s, strlen(s) + 1);
  if (b->strs.oom) {
    b->oom = 1;
    return NULL;
  }
  return (char *)(uintptr_t)(off + 1);
}

/* Packs records (plus `extra` zeroed records at the end) and strings into one
 * block; *strbase gets where the strings start. NULL on OOM. */
static void *block_pack(block *b, size_t extra, char **strbase) {
  size_t items = (b->n + extra) * b->item_size;
  char *p = malloc(items + b->strs.len + 1);
  if (!p) return NULL;
  if (b->n) memcpy(p, b->items, b->n * b->item_size);
  memset(p + b->n * b->item_size, 0, extra * b->item_size);
  if (b->strs.len) memcpy(p + items, b->strs.data, b->strs.len);
  *strbase = p + items;
  return p;
}

static void block_fix(char **field, char *strbase) {
  if (*field) *field = strbase + ((uintptr_t)*field - 1);
}

static void block_free(block *b) {
  free(b->items);
  iso_buf_free(&b->strs);
}

/* ---- opening and closing ---------------------------------------------------------- */

static sbx *handle_new(void) {
  sbx *h = calloc(1, sizeof *h);
  if (!h) return NULL;
  if (pthread_mutex_init(&h->lock, NULL) != 0) {
    free(h);
    return NULL;
  }
  return h;
}

/* Makes a new empty temporary file; *path gets its malloc'd name and *fd the
 * open descriptor (or -1 when fd is NULL: closed). Returns 0 or an errno. */
/* Where temporary sandboxes go: $TMPDIR, else /tmp. */
static const char *temp_dir(void) {
  const char *dir = getenv("TMPDIR");
  return dir && *dir ? dir : "/tmp";
}

static int make_temp_file(char **path, int *fd) {
  const char *dir = temp_dir();
  size_t n = strlen(dir) + sizeof "/sbx-XXXXXX.db";
  char *tmpl = malloc(n);
  if (!tmpl) return ENOMEM;
  snprintf(tmpl, n, "%s/sbx-XXXXXX.db", dir);
  int f = mkostemps(tmpl, 3, O_CLOEXEC);
  if (f < 0) {
    int e = errno;
    free(tmpl);
    return e;
  }
  if (fd)
    *fd = f;
  else
    close(f);
  *path = tmpl;
  return 0;
}

/* Unlinks a temporary database and the side files SQLite may leave. */
static void remove_temp_files(const char *path) {
  static const char *const suffixes[] = {"", "-wal", "-shm", "-journal"};
  size_t n = strlen(path) + 16;
  char *buf = malloc(n);
  if (!buf) {
    unlink(path);
    return;
  }
  for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++) {
    snprintf(buf, n, "%s%s", path, suffixes[i]);
    unlink(buf);
  }
  free(buf);
}

/* Records a failed store_open / store_open_image and frees its message. */
static int fail_open(sbx *h, int src, const char *what, char *detail) {
  int rc = sandbox_fail_store(h, src, "open", what);
  append_detail(h, detail);
  free(detail);
  return rc;
}

/* A temporary sandbox dies with its handle, so it needs no durability: no
 * fsync on commit (STORE_OPEN_NOSYNC) and no checkpoint on close (the file
 * is unlinked anyway). A crash leaves only a stray file in $TMPDIR. */
static void make_disposable(sbx *h) {
  struct sqlite3 *db = store_db(h->st);
  sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)NULL);
}

/*
 * The image of an empty sandbox, made once per process (in memory, by the
 * store) and copied into each new temporary file: creating the schema in a
 * file costs several fsyncs, copying 70 KB costs none. Its header is marked
 * WAL (bytes 18-19 = 2) so the store finds the file already in WAL mode and
 * does not switch (another round of fsyncs). Together with make_disposable
 * this takes open+close of a temporary sandbox from ~2.5 ms to ~0.3 ms.
 * Never freed (reachable through the static pointer).
 */
static void *empty_image;     /* NULL if it could not be made: fall back */
static size_t empty_image_len; /* its length */
static pthread_once_t empty_image_once = PTHREAD_ONCE_INIT;

static void empty_image_build(void) {
  store *m = NULL;
  char *msg = NULL;
  int rc = store_open(NULL, STORE_OPEN_MEMORY, &m, &msg);
  free(msg);
  if (rc < 0) return;
  void *bytes;
  size_t len;
  if (store_image(m, &bytes, &len) == 0 && len >= 100) {
    ((unsigned char *)bytes)[18] = ((unsigned char *)bytes)[19] = 2;
    empty_image = bytes;
    empty_image_len = len;
  }
  store_close(m);
}

/* Opens a new temporary sandbox file (h->path) holding `bytes` (an SQLite
 * image validated by the caller) or, with NULL bytes, an empty sandbox.
 * On failure records the error and removes the file. */
static int open_temp(sbx *h, const void *bytes, size_t len) {
  int fd = -1;
  int e = make_temp_file(&h->path, &fd);
  if (e) return sandbox_fail_errno(h, "open temporary file in", temp_dir(), e);
  h->remove_on_close = 1;
  int fresh = !bytes;
  if (fresh) {
    pthread_once(&empty_image_once, empty_image_build);
    bytes = empty_image;
    len = empty_image_len;
  }
  if (bytes && len >= 100) {
    /* header first, marked WAL (fresh file, no -wal): no mode switch */
    unsigned char head[100];
    memcpy(head, bytes, sizeof head);
    head[18] = head[19] = 2;
    e = store_write_all(fd, head, sizeof head);
    if (!e) e = store_write_all(fd, (const char *)bytes + 100, len - 100);
  }
  close(fd);
  if (e) {
    remove_temp_files(h->path);
    h->remove_on_close = 0;
    return sandbox_fail_errno(h, "write", h->path, e);
  }
  char *detail = NULL;
  /* the bytes are the empty-store image or snapshot bytes that
   * store_open_image has just accepted, written with a WAL header: trusted */
  int src = store_open(h->path,
                       bytes ? STORE_OPEN_NOCREATE | STORE_OPEN_NOSYNC | STORE_OPEN_TRUSTED
                             : STORE_OPEN_NOSYNC,
                       &h->st, &detail);
  if (src < 0) {
    h->st = NULL;
    remove_temp_files(h->path);
    h->remove_on_close = 0;
    return fail_open(h, src, h->path, detail);
  }
  free(detail);
  make_disposable(h);
  if (fresh && bytes) {
    /* the template's root was made earlier: it is created now */
    store_setattr now = {0};
    store_setattr_ino(h->st, STORE_ROOT_INO, &now, STORE_SET_ATIME_NOW | STORE_SET_MTIME_NOW,
                      NULL);
  }
  return SBX_OK;
}

/* Process isolation for a handle that opened: the helper's state (no helper
 * runs before the first sbx_bash). On failure the handle keeps only the
 * error, as a failed open does. */
/* Every sandbox starts bounded (docs/limits.md): the default quotas. A
 * read-only one cannot grow, and summing its totals would only cost time. */
static void apply_default_quota(sbx *h) {
  if (h->flags & SBX_OPEN_READONLY) return;
  h->quota = (sbx_quota){SBX_QUOTA_DEFAULT_BYTES, SBX_QUOTA_DEFAULT_INODES, 0};
  store_quota sq = {h->quota.max_bytes, h->quota.max_inodes, h->quota.max_file_size};
  store_set_quota(h->st, &sq);
}

static int open_isolation(sbx *h, int rc) {
  if (rc == SBX_OK) apply_default_quota(h);
  if (rc != SBX_OK || !(h->flags & SBX_OPEN_PROCESS)) return rc;
  rc = sandbox_iso_open(h);
  if (rc != SBX_OK) {
    store_close(h->st);
    h->st = NULL;
    if (h->remove_on_close) remove_temp_files(h->path);
    h->remove_on_close = 0;
  }
  return rc;
}

static int open_handle(const char *path, int flags, sbx **out);

int sbx_open(const char *path, int flags, sbx **out) {
  int rc = open_handle(path, flags, out);
  return out && *out ? open_isolation(*out, rc) : rc;
}

static int open_handle(const char *path, int flags, sbx **out) {
  if (!out) return SBX_MISUSE;
  *out = NULL;
  sbx *h = handle_new();
  if (!h) return SBX_NOMEM;
  *out = h;
  h->flags = flags;

  const int known = SBX_OPEN_TEMP | SBX_OPEN_MEMORY | SBX_OPEN_READONLY | SBX_OPEN_NOCREATE |
                    SBX_OPEN_PROCESS;
  int kind = flags & (SBX_OPEN_TEMP | SBX_OPEN_MEMORY);
  if (flags & ~known)
    return sandbox_fail(h, SBX_MISUSE, "open: unknown flags 0x%x", (unsigned)(flags & ~known));
  if (kind == (SBX_OPEN_TEMP | SBX_OPEN_MEMORY))
    return sandbox_fail(h, SBX_MISUSE,
                        "open: SBX_OPEN_TEMP and SBX_OPEN_MEMORY exclude each other");
  if (kind && path)
    return sandbox_fail(h, SBX_MISUSE,
                        "open: the path must be NULL with SBX_OPEN_TEMP or SBX_OPEN_MEMORY");
  if (kind && (flags & (SBX_OPEN_READONLY | SBX_OPEN_NOCREATE)))
    return sandbox_fail(h, SBX_MISUSE,
                        "open: SBX_OPEN_READONLY and SBX_OPEN_NOCREATE need a database file");
  if (!kind && !path)
    return sandbox_fail(h, SBX_MISUSE,
                        "open: the path is NULL (use SBX_OPEN_TEMP or SBX_OPEN_MEMORY)");
  if (!kind && !*path) return sandbox_fail(h, SBX_MISUSE, "open: the path is empty");

  int sflags = 0;
  if (kind == SBX_OPEN_MEMORY && (flags & SBX_OPEN_PROCESS)) {
    /* Two processes cannot share SQLite memory: a private file both open. */
    h->memory_as_file = 1;
    return open_temp(h, NULL, 0);
  } else if (kind == SBX_OPEN_MEMORY) {
    h->path = strdup("");
    if (!h->path) return sandbox_fail(h, SBX_NOMEM, "open: out of memory");
    sflags = STORE_OPEN_MEMORY;
  } else if (kind == SBX_OPEN_TEMP) {
    return open_temp(h, NULL, 0);
  } else {
    /* Checked here for clear messages; SQLite would say "unable to open". */
    struct stat sb;
    if (stat(path, &sb) == 0) {
      if (S_ISDIR(sb.st_mode)) return sandbox_fail_errno(h, "open", path, EISDIR);
    } else if (errno != ENOENT || (flags & (SBX_OPEN_NOCREATE | SBX_OPEN_READONLY))) {
      return sandbox_fail_errno(h, "open", path, errno);
    }
    h->path = strdup(path);
    if (!h->path) return sandbox_fail(h, SBX_NOMEM, "open: out of memory");
    if (flags & SBX_OPEN_READONLY) sflags |= STORE_OPEN_READONLY;
    if (flags & SBX_OPEN_NOCREATE) sflags |= STORE_OPEN_NOCREATE;
  }

  char *detail = NULL;
  int src = store_open(h->path, sflags, &h->st, &detail);
  if (src < 0) {
    h->st = NULL;
    return fail_open(h, src, kind == SBX_OPEN_MEMORY ? ":memory:" : h->path, detail);
  }
  free(detail);
  return SBX_OK;
}

static int open_snapshot(const void *bytes, size_t len, int flags, sbx **out);

int sbx_open_snapshot(const void *bytes, size_t len, int flags, sbx **out) {
  int rc = open_snapshot(bytes, len, flags, out);
  return out && *out ? open_isolation(*out, rc) : rc;
}

static int open_snapshot(const void *bytes, size_t len, int flags, sbx **out) {
  if (!out) return SBX_MISUSE;
  *out = NULL;
  sbx *h = handle_new();
  if (!h) return SBX_NOMEM;
  *out = h;
  if ((flags & ~SBX_OPEN_PROCESS) == 0) flags |= SBX_OPEN_MEMORY;
  h->flags = flags;
  int kind = flags & ~SBX_OPEN_PROCESS;
  if (kind != SBX_OPEN_MEMORY && kind != SBX_OPEN_TEMP)
    return sandbox_fail(h, SBX_MISUSE,
                        "open snapshot: flags must be SBX_OPEN_MEMORY or SBX_OPEN_TEMP "
                        "(with SBX_OPEN_PROCESS or not)");
  if (!bytes) return sandbox_fail(h, SBX_MISUSE, "open snapshot: the bytes are NULL");
  if (len == 0)
    return sandbox_fail(h, SBX_CORRUPT,
                        "open snapshot: not an SQLite database, or a damaged one (0 bytes)");

  /* Validate (and for SBX_OPEN_MEMORY: keep) the image in memory. */
  char *detail = NULL;
  store *mem = NULL;
  int src = store_open_image(bytes, len, &mem, &detail);
  if (src < 0) return fail_open(h, src, "snapshot", detail);
  free(detail);
  if (kind == SBX_OPEN_MEMORY && !(flags & SBX_OPEN_PROCESS)) {
    h->st = mem;
    h->path = strdup("");
    if (!h->path) {
      store_close(mem);
      h->st = NULL;
      return sandbox_fail(h, SBX_NOMEM, "open snapshot: out of memory");
    }
    return SBX_OK;
  }
  store_close(mem);

  /* SBX_OPEN_TEMP (or memory for an isolated shell, see sbx_open): the same
   * bytes into a new temporary file, then open it. */
  h->memory_as_file = kind == SBX_OPEN_MEMORY;
  return open_temp(h, bytes, len);
}

void sandbox_close_extensions(sbx *h) {
  /* Other sections (shell session, python worker) release their state here. */
  sandbox_bash_stop_jobs(h); /* src/api/sandbox_bash.c: background jobs use all of them */
  const sandbox_section *py = h->py_section;
  if (py) py->close(h); /* src/py: the worker first (its FUSE uses the store) */
  sandbox_iso_close(h);  /* src/api/sandbox_iso.c: the helper before the store closes */
  sandbox_bash_close(h); /* src/api/sandbox_bash.c */
}

int sbx_close(sbx *h) {
  if (!h) return SBX_OK;
  sandbox_close_extensions(h);
  if (h->st) store_close(h->st);
  if (h->remove_on_close && h->path) remove_temp_files(h->path);
  pthread_mutex_destroy(&h->lock);
  free(h->path);
  free(h);
  return SBX_OK;
}

int sbx_set_quota(sbx *h, const sbx_quota *q) {
  int rc = sandbox_enter(h);
  if (rc) return rc;
  MISUSE_IF(!q, "set quota: the quota is NULL");
  MISUSE_IF(h->txn_depth > 0, "set quota: not inside a transaction (sbx_begin)");
  h->quota = *q;
  /* Summed afresh: another process (an isolated shell) may have written. */
  store_usage_forget(h->st);
  store_quota sq = {q->max_bytes, q->max_inodes, q->max_file_size};
  store_set_quota(h->st, &sq);
  sandbox_leave(h);
  return SBX_OK;
}

int sbx_get_quota(sbx *h, sbx_quota *q) {
  int rc = sandbox_enter(h);
  if (rc) return rc;
  MISUSE_IF(!q, "get quota: the quota is NULL");
  *q = h->quota;
  sandbox_leave(h);
  return SBX_OK;
}

/* ---- transactions ---------------------------------------------------------------- */

/* One transaction-control call (store_begin/commit/rollback) as a public
 * call named `op`. */
static int transaction_call(sbx *h, int (*fn)(store *), const char *op) {
  int rc = sandbox_enter(h);
  if (rc) return rc;
  int src = fn(h->st);
  if (src < 0) rc = sandbox_fail_store(h, src, op, NULL);
  sandbox_leave(h);
  return rc;
}

int sbx_begin(sbx *h) {
  int rc = transaction_call(h, store_begin, "begin");
  if (rc == SBX_OK) h->txn_depth++;
  return rc;
}

int sbx_commit(sbx *h) {
  if (h && h->st && h->txn_depth == 0)
    return sandbox_fail(h, SBX_MISUSE, "commit: no transaction (sbx_begin) is open");
  int rc = transaction_call(h, store_commit, "commit");
  /* a failed outermost commit was rolled back by the store: closed too */
  if (h && h->st && (rc == SBX_OK || h->txn_depth == 1)) h->txn_depth--;
  return rc;
}

int sbx_rollback(sbx *h) {
  if (h && h->st && h->txn_depth == 0)
    return sandbox_fail(h, SBX_MISUSE, "rollback: no transaction (sbx_begin) is open");
  int rc = transaction_call(h, store_rollback, "rollback");
  if (h && h->st) h->txn_depth--;
  return rc;
}

/* ---- file helpers ------------------------------------------------------------------ */

static int type_of_mode(uint32_t mode) {
  if (S_ISREG(mode)) return SBX_TYPE_FILE;
  if (S_ISDIR(mode)) return SBX_TYPE_DIR;
  if (S_ISLNK(mode)) return SBX_TYPE_SYMLINK;
  return SBX_TYPE_OTHER;
}

int sbx_read_file(sbx *h, const char *path, void **data, size_t *len) {
  int rc = sandbox_enter(h);
  if (rc) return rc;
  MISUSE_IF(!path, "read: the path is NULL");
  MISUSE_IF(!data || !len, "read %.*s: NULL output pointer", STORE_PATH_MAX, path);
  *data = NULL;
  *len = 0;
  sandbox_call c;
  sandbox_call_begin(h, &c, 0);
  sandbox_json_key_str(&c.params, "path", path);
  int src = store_path_read_file(h->st, NULL, path, data, len);
  if (src < 0) {
    *data = NULL;
    *len = 0;
    rc = sandbox_fail_store(h, src, "read", path);
  }
  rc = sandbox_call_end(h, &c, "read_file", rc, "bytes", (long long)*len);
  sandbox_leave(h);
  return rc;
}

/* The write flags in a history row: "mkdirs":1, "append":1 when set. */
static void add_write_flags(sh_buf *params, int flags) {
  if (flags & SBX_WRITE_MKDIRS) sandbox_json_key_int(params, "mkdirs", 1);
  if (flags & SBX_WRITE_APPEND) sandbox_json_key_int(params, "append", 1);
}

static int store_write_flags(int flags) {
  return ((flags & SBX_WRITE_MKDIRS) ? STORE_WRITE_MKDIRS : 0) |
         ((flags & SBX_WRITE_APPEND) ? STORE_WRITE_APPEND : 0);
}

int sbx_write_file(sbx *h, const char *path, const void *data, size_t len, int flags) {
  int rc = sandbox_enter(h);
  if (rc) return rc;
  MISUSE_IF(!path, "write: the path is NULL");
  MISUSE_IF(!data && len, "write %.*s: the data is NULL", STORE_PATH_MAX, path);
  MISUSE_IF(flags & ~(SBX_WRITE_MKDIRS | SBX_WRITE_APPEND), "write %.*s: unknown flags 0x%x",
            STORE_PATH_MAX, path, (unsigned)flags);
  sandbox_call c;
  sandbox_call_begin(h, &c, 1);
  sandbox_json_key_str(&c.params, "path", path);
  sandbox_json_key_int(&c.params, "size", (long long)len);
  sandbox_json_key_int(&c.params, "mode", 0644);
  add_write_flags(&c.params, flags);
  int src = store_path_write_file(h->st, NULL, path, data ? data : "", len, 0644,
                                  store_write_flags(flags));
  if (src < 0) rc = sandbox_fail_store(h, src, "write", path);
  rc = sandbox_call_end(h, &c, "write_file", rc, "bytes", (long long)len);
  sandbox_leave(h);
  return rc;
}

int sbx_write_files(sbx *h, const sbx_file *files, size_t n, int flags) {
  int rc = sandbox_enter(h);
  if (rc) return rc;
  MISUSE_IF(!files && n, "write files: the array is NULL");
  MISUSE_IF(flags & ~(SBX_WRITE_MKDIRS | SBX_WRITE_APPEND), "write files: unknown flags 0x%x",
            (unsigned)flags);
  for (size_t i = 0; i < n; i++) {
    MISUSE_IF(!files[i].path, "write files: the path of entry %zu is NULL", i);
    MISUSE_IF(!files[i].data && files[i].len, "write %.*s: the data is NULL", STORE_PATH_MAX,
              files[i].path);
  }
  /* sbx_file and store_file are the same three fields */
  store_file *sf = n ? malloc(n * sizeof *sf) : NULL;
  if (n && !sf) {
    sandbox_leave(h);
    return sandbox_fail(h, SBX_NOMEM, "write files: out of memory");
  }
  sandbox_call c;
  sandbox_call_begin(h, &c, 1);
  long long total = 0;
  sh_buf_adds(&c.params, "{\"paths\":[");
  for (size_t i = 0; i < n; i++) {
    sf[i] = (store_file){files[i].path, files[i].data, files[i].len};
    total += (long long)files[i].len;
    if (i < 100) { /* the row stays small: the first 100 paths, and the count */
      if (i) sh_buf_addc(&c.params, ',');
      sandbox_json_quote(&c.params, files[i].path, strlen(files[i].path));
    }
  }
  sh_buf_addc(&c.params, ']');
  sandbox_json_key_int(&c.params, "files", (long long)n);
  sandbox_json_key_int(&c.params, "size", total);
  sandbox_json_key_int(&c.params, "mode", 0644);
  add_write_flags(&c.params, flags);
  size_t failed = n;
  int src = store_path_write_files(h->st, NULL, sf, n, 0644, store_write_flags(flags), &failed);
  free(sf);
  if (src < 0 && failed < n)
    rc = sandbox_fail_store(h, src, "write", files[failed].path);
  else if (src < 0)
    rc = sandbox_fail_store(h, src, "write files", NULL);
  rc = sandbox_call_end(h, &c, "write_files", rc, "bytes", total);
  sandbox_leave(h);
  return rc;
}

int sbx_mkdir(sbx *h, const char *path, int parents) {
  int rc = sandbox_enter(h);
  if (rc) return rc;
  MISUSE_IF(!path, "mkdir: the path is NULL");
  sandbox_call c;
  sandbox_call_begin(h, &c, 1);
  sandbox_json_key_str(&c.params, "path", path);
  sandbox_json_key_int(&c.params, "mode", 0755);
  if (parents) sandbox_json_key_int(&c.params, "parents", 1);
  int src = parents ? store_path_mkdir_p(h->st, NULL, path, 0755)
                    : store_path_mkdir(h->st, NULL, path, 0755);
  if (src < 0) rc = sandbox_fail_store(h, src, "mkdir", path);
  rc = sandbox_call_end(h, &c, "mkdir", rc, NULL, 0);
  sandbox_leave(h);
  return rc;
}

int sbx_remove(sbx *h, const char *path, int recursive) {
  int rc = sandbox_enter(h);
  if (rc) return rc;
  MISUSE_IF(!path, "remove: the path is NULL");
  sandbox_call c;
  sandbox_call_begin(h, &c, 1);
  sandbox_json_key_str(&c.params, "path", path);
  if (recursive) sandbox_json_key_int(&c.params, "recursive", 1);
  store_stat st;
  int src = store_path_lstat(h->st, NULL, path, &st);
  if (src >= 0 && st.ino == STORE_ROOT_INO)
    src = -EBUSY; /* like rmdir("/"): the root cannot go */
  else if (src >= 0 && recursive)
    src = store_path_remove_tree(h->st, NULL, path);
  else if (src >= 0 && S_ISDIR(st.mode))
    src = store_path_rmdir(h->st, NULL, path);
  else if (src >= 0)
    src = store_path_unlink(h->st, NULL, path);
  if (src < 0) rc = sandbox_fail_store(h, src, "remove", path);
  rc = sandbox_call_end(h, &c, "remove", rc, NULL, 0);
  sandbox_leave(h);
  return rc;
}

static void stat_from_store(sbx_stat *o, const store_stat *s) {
  memset(o, 0, sizeof *o);
  o->ino = s->ino;
  o->mode = s->mode;
  o->type = type_of_mode(s->mode);
  o->nlink = s->nlink;
  o->uid = s->uid;
  o->gid = s->gid;
  o->size = s->size;
  o->atime = s->atime;
  o->mtime = s->mtime;
  o->ctime = s->ctime;
  o->atime_nsec = s->atime_nsec;
  o->mtime_nsec = s->mtime_nsec;
  o->ctime_nsec = s->ctime_nsec;
}

int sbx_stat_path(sbx *h, const char *path, int nofollow, sbx_stat *st) {
  int rc = sandbox_enter(h);
  if (rc) return rc;
  MISUSE_IF(!path, "stat: the path is NULL");
  MISUSE_IF(!st, "stat %.*s: NULL output pointer", STORE_PATH_MAX, path);
  store_stat s;
  int src = nofollow ? store_path_lstat(h->st, NULL, path, &s)
                     : store_path_stat(h->st, NULL, path, &s);
  if (src < 0)
    rc = sandbox_fail_store(h, src, "stat", path);
  else
    stat_from_store(st, &s);
  sandbox_leave(h);
  return rc;
}

static int listdir_cb(void *ud, const store_dirent *e) {
  block *b = ud;
  sbx_dirent *d = block_add(b);
  if (!d) return -ENOMEM;
  d->name = block_str(b, e->name);
  d->ino = e->ino;
  d->type = type_of_mode(e->mode);
  return b->oom ? -ENOMEM : 0;
}

int sbx_listdir(sbx *h, const char *path, sbx_dirent **entries, size_t *n) {
  int rc = sandbox_enter(h);
  if (rc) return rc;
  MISUSE_IF(!path, "list: the path is NULL");
  MISUSE_IF(!entries || !n, "list %.*s: NULL output pointer", STORE_PATH_MAX, path);
  *entries = NULL;
  *n = 0;
  sandbox_call c;
  sandbox_call_begin(h, &c, 0);
  sandbox_json_key_str(&c.params, "path", path);
  store_stat st;
  block b = {.item_size = sizeof(sbx_dirent)};
  int src = store_path_stat(h->st, NULL, path, &st);
  if (src >= 0 && !S_ISDIR(st.mode)) src = -ENOTDIR;
  if (src >= 0) src = store_readdir(h->st, st.ino, 0, listdir_cb, &b);
  if (src >= 0) {
    char *strs;
    sbx_dirent *arr = block_pack(&b, 0, &strs);
    if (!arr) {
      src = -ENOMEM;
    } else {
      for (size_t i = 0; i < b.n; i++) block_fix(&arr[i].name, strs);
      *entries = arr;
      *n = b.n;
    }
  }
  if (src < 0) rc = sandbox_fail_store(h, src, "list", path);
  block_free(&b);
  rc = sandbox_call_end(h, &c, "list_dir", rc, "entries", (long long)*n);
  sandbox_leave(h);
  return rc;
}

int sbx_rename(sbx *h, const char *from, const char *to) {
  int rc = sandbox_enter(h);
  if (rc) return rc;
  MISUSE_IF(!from || !to, "rename: a path is NULL");
  sandbox_call c;
  sandbox_call_begin(h, &c, 1);
  sandbox_json_key_str(&c.params, "from", from);
  sandbox_json_key_str(&c.params, "to", to);
  int src = store_path_rename(h->st, NULL, from, to);
  if (src < 0) rc = fail_store2(h, src, "rename", from, to);
  rc = sandbox_call_end(h, &c, "rename", rc, NULL, 0);
  sandbox_leave(h);
  return rc;
}

int sbx_symlink(sbx *h, const char *target, const char *linkpath) {
  int rc = sandbox_enter(h);
  if (rc) return rc;
  MISUSE_IF(!target || !linkpath, "symlink: a path is NULL");
  sandbox_call c;
  sandbox_call_begin(h, &c, 1);
  sandbox_json_key_str(&c.params, "target", target);
  sandbox_json_key_str(&c.params, "path", linkpath);
  int src = store_path_symlink(h->st, NULL, target, linkpath);
  if (src < 0) rc = sandbox_fail_store(h, src, "symlink", linkpath);
  rc = sandbox_call_end(h, &c, "symlink", rc, NULL, 0);
  sandbox_leave(h);
  return rc;
}

int sbx_readlink(sbx *h, const char *path, char **target) {
  int rc = sandbox_enter(h);
  if (rc) return rc;
  MISUSE_IF(!path, "readlink: the path is NULL");
  MISUSE_IF(!target, "readlink %.*s: NULL output pointer", STORE_PATH_MAX, path);
  *target = NULL;
  int src = store_path_readlink(h->st, NULL, path, target);
  if (src < 0) {
    *target = NULL;
    rc = sandbox_fail_store(h, src, "readlink", path);
  }
  sandbox_leave(h);
  return rc;
}

/* ---- key-value store ------------------------------------------------------------------ */

/* 0 if `json` is one valid JSON value (any type, big numbers allowed), else
 * records SBX_MISUSE with jansson's reason under "OP KEY". */
static int check_json(sbx *h, const char *json, const char *op, const char *key) {
  json_error_t err;
  json_t *v = json_loads(json, JSON_DECODE_ANY | JSON_DECODE_INT_AS_REAL | JSON_ALLOW_NUL,
                         &err);
  if (v) {
    json_decref(v);
    return 0;
  }
  return sandbox_fail(h, SBX_MISUSE, "%s %.*s: invalid JSON: %s (line %d, column %d)", op,
                      STORE_PATH_MAX, key, err.text, err.line, err.column);
}

int sbx_kv_get(sbx *h, const char *key, char **json) {
  int rc = sandbox_enter(h);
  if (rc) return rc;
  MISUSE_IF(!key, "kv get: the key is NULL");
  MISUSE_IF(!json, "kv get %.*s: NULL output pointer", STORE_PATH_MAX, key);
  *json = NULL;
  int src = store_kv_get(h->st, key, json);
  if (src == -ENOENT)
    rc = sandbox_fail(h, SBX_NOTFOUND, "kv get %.*s: no such key", STORE_PATH_MAX, key);
  else if (src < 0)
    rc = sandbox_fail_store(h, src, "kv get", key);
  if (rc) *json = NULL;
  sandbox_leave(h);
  return rc;
}

int sbx_kv_set(sbx *h, const char *key, const char *json) {
  int rc = sandbox_enter(h);
  if (rc) return rc;
  MISUSE_IF(!key, "kv set: the key is NULL");
  MISUSE_IF(!json, "kv set %.*s: the value is NULL", STORE_PATH_MAX, key);
  rc = check_json(h, json, "kv set", key);
  if (rc == SBX_OK) {
    int src = store_kv_set(h->st, key, json);
    if (src < 0) rc = sandbox_fail_store(h, src, "kv set", key);
  }
  sandbox_leave(h);
  return rc;
}

int sbx_kv_delete(sbx *h, const char *key) {
  int rc = sandbox_enter(h);
  if (rc) return rc;
  MISUSE_IF(!key, "kv delete: the key is NULL");
  int src = store_kv_delete(h->st, key);
  if (src < 0 && src != -ENOENT) rc = sandbox_fail_store(h, src, "kv delete", key);
  sandbox_leave(h);
  return rc;
}

static int kv_keys_cb(void *ud, const char *key) {
  block *b = ud;
  char **slot = block_add(b);
  if (!slot) return -ENOMEM;
  *slot = block_str(b, key);
  return b->oom ? -ENOMEM : 0;
}

int sbx_kv_keys(sbx *h, const char *prefix, char ***keys, size_t *n) {
  int rc = sandbox_enter(h);
  if (rc) return rc;
  MISUSE_IF(!keys || !n, "kv keys: NULL output pointer");
  *keys = NULL;
  *n = 0;
  block b = {.item_size = sizeof(char *)};
  int src = store_kv_keys(h->st, prefix ? prefix : "", kv_keys_cb, &b);
  if (src >= 0) {
    char *strs;
    char **arr = block_pack(&b, 1, &strs); /* NULL-terminated */
    if (!arr) {
      src = -ENOMEM;
    } else {
      for (size_t i = 0; i < b.n; i++) block_fix(&arr[i], strs);
      *keys = arr;
      *n = b.n;
    }
  }
  if (src < 0) rc = sandbox_fail_store(h, src, "kv keys", prefix);
  block_free(&b);
  sandbox_leave(h);
  return rc;
}

/* ---- history ------------------------------------------------------------------------- */

int sbx_history_start(sbx *h, const char *name, const char *parameters, int64_t *id) {
  int rc = sandbox_enter(h);
  if (rc) return rc;
  MISUSE_IF(!name, "history start: the name is NULL");
  MISUSE_IF(!*name, "history start: the name is empty");
  MISUSE_IF(!id, "history start %.*s: NULL output pointer", STORE_PATH_MAX, name);
  if (parameters) rc = check_json(h, parameters, "history start", name);
  if (rc == SBX_OK) {
    int src = store_call_start(h->st, name, parameters, id);
    if (src < 0) rc = sandbox_fail_store(h, src, "history start", name);
  }
  sandbox_leave(h);
  return rc;
}

int sbx_history_finish(sbx *h, int64_t id, const char *result, const char *error) {
  int rc = sandbox_enter(h);
  if (rc) return rc;
  char what[32];
  snprintf(what, sizeof what, "%lld", (long long)id);
  if (result && !error) rc = check_json(h, result, "history finish", what);
  if (rc == SBX_OK) {
    int src = store_call_finish(h->st, id, error ? NULL : result, error);
    if (src == -ENOENT)
      rc = sandbox_fail(h, SBX_NOTFOUND, "history finish %s: no such call", what);
    else if (src == -EALREADY)
      rc = sandbox_fail(h, SBX_MISUSE, "history finish %s: the call is already finished",
                        what);
    else if (src < 0)
      rc = sandbox_fail_store(h, src, "history finish", what);
  }
  sandbox_leave(h);
  return rc;
}

int sbx_history_record(sbx *h, const char *name, const char *parameters,
                       const char *result, const char *error, double started_at,
                       double duration_ms, int64_t *id) {
  int rc = sandbox_enter(h);
  if (rc) return rc;
  MISUSE_IF(!name, "history record: the name is NULL");
  MISUSE_IF(!*name, "history record: the name is empty");
  if (parameters) rc = check_json(h, parameters, "history record", name);
  if (rc == SBX_OK && result && !error) rc = check_json(h, result, "history record", name);
  if (rc == SBX_OK) {
    int src = store_call_record(h->st, name, parameters, error ? NULL : result, error,
                                started_at, duration_ms, id);
    if (src < 0) rc = sandbox_fail_store(h, src, "history record", name);
  }
  sandbox_leave(h);
  return rc;
}

static int history_cb(void *ud, const store_call *c) {
  block *b = ud;
  sbx_history_entry *e = block_add(b);
  if (!e) return -ENOMEM;
  e->id = c->id;
  e->name = block_str(b, c->name ? c->name : "");
  e->parameters = block_str(b, c->parameters);
  e->result = block_str(b, c->result);
  e->error = block_str(b, c->error);
  e->status = block_str(b, c->status ? c->status : "pending");
  e->started_at = c->started_at;
  e->completed_at = c->completed_at;
  e->duration_ms = c->duration_ms;
  return b->oom ? -ENOMEM : 0;
}

_Static_assert(SBX_HISTORY_DEFAULT_ROWS == STORE_HISTORY_DEFAULT_ROWS, "one default");

int sbx_history_retention(sbx *h, int64_t max_rows, int64_t max_age_s) {
  int rc = sandbox_enter(h);
  if (rc) return rc;
  MISUSE_IF(max_rows < 0 || max_age_s < 0,
            "history retention: negative bound (0 means no bound)");
  int src = store_history_retention(h->st, max_rows, max_age_s);
  if (src < 0) rc = sandbox_fail_store(h, src, "history retention", NULL);
  sandbox_leave(h);
  return rc;
}

int sbx_history_list(sbx *h, int limit, sbx_history_entry **entries, size_t *n) {
  int rc = sandbox_enter(h);
  if (rc) return rc;
  MISUSE_IF(!entries || !n, "history: NULL output pointer");
  *entries = NULL;
  *n = 0;
  block b = {.item_size = sizeof(sbx_history_entry)};
  int src = store_call_list(h->st, limit, history_cb, &b);
  if (src >= 0) {
    char *strs;
    sbx_history_entry *arr = block_pack(&b, 0, &strs);
    if (!arr) {
      src = -ENOMEM;
    } else {
      for (size_t i = 0; i < b.n; i++) {
        block_fix(&arr[i].name, strs);
        block_fix(&arr[i].parameters, strs);
        block_fix(&arr[i].result, strs);
        block_fix(&arr[i].error, strs);
        block_fix(&arr[i].status, strs);
      }
      *entries = arr;
      *n = b.n;
    }
  }
  if (src < 0) rc = sandbox_fail_store(h, src, "history", NULL);
  block_free(&b);
  sandbox_leave(h);
  return rc;
}

/* ---- snapshots and forks ---------------------------------------------------------------- */

int sbx_snapshot(sbx *h, void **bytes, size_t *len) {
  int rc = sandbox_enter(h);
  if (rc) return rc;
  MISUSE_IF(!bytes || !len, "snapshot: NULL output pointer");
  *bytes = NULL;
  *len = 0;
  int src = store_image(h->st, bytes, len);
  if (src < 0) {
    *bytes = NULL;
    *len = 0;
    rc = sandbox_fail_store(h, src, "snapshot", NULL);
  }
  sandbox_leave(h);
  return rc;
}

/* 0 if a new file can be made at host path `path`: it does not exist and its
 * directory does; else -errno (EEXIST, ENOENT, ENOTDIR...), so a fork
 * reports the real reason rather than SQLite's "unable to open". */
static int check_new_file(const char *path) {
  struct stat sb;
  if (lstat(path, &sb) == 0) return -EEXIST;
  if (errno != ENOENT) return -errno;
  const char *slash = strrchr(path, '/');
  if (!slash) return 0; /* in the current directory */
  size_t n = slash == path ? 1 : (size_t)(slash - path);
  char *dir = strndup(path, n);
  if (!dir) return -ENOMEM;
  int rc = 0;
  if (stat(dir, &sb) != 0)
    rc = -errno;
  else if (!S_ISDIR(sb.st_mode))
    rc = -ENOTDIR;
  free(dir);
  return rc;
}

int sbx_fork(sbx *h, const char *path, sbx **out) {
  if (out) *out = NULL;
  int rc = sandbox_enter(h);
  if (rc) return rc;
  MISUSE_IF(!path, "fork: the path is NULL");
  MISUSE_IF(!*path, "fork: the path is empty");
  MISUSE_IF(h->txn_depth > 0, "fork %.*s: not inside a transaction (sbx_begin)",
            STORE_PATH_MAX, path);
  int src = check_new_file(path);
  if (src == 0) src = store_copy_to(h->st, path);
  sandbox_leave(h);
  if (src < 0) return sandbox_fail_store(h, src, "fork", path);
  if (!out) return SBX_OK;
  sbx *copy = NULL;
  rc = sbx_open(path, SBX_OPEN_NOCREATE | (h->flags & SBX_OPEN_PROCESS), &copy);
  if (rc != SBX_OK) {
    int e = copy ? copy->err_errno : 0;
    sandbox_fail(h, rc, "fork %.*s: %s", STORE_PATH_MAX, path,
                 copy ? copy->err_msg : "out of memory");
    h->err_errno = e;
    set_err_path(h, path);
    sbx_close(copy);
    return rc;
  }
  *out = copy;
  return SBX_OK;
}
