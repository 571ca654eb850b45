/*
 * store.h - the sandbox's storage: the AgentFS 0.4 SQLite schema, an inode API,
 * a path API, the key-value store, the history table and snapshots.
 *
 * Everything above this layer (the C API, the shell's commands, the FUSE server)
 * reaches the sandbox's files only through these functions. The store knows
 * nothing of shells or Python.
 *
 * Conventions:
 *  - Functions return 0 (or a non-negative count) on success and a negative errno
 *    on failure (-ENOENT, -EACCES, -ELOOP, -ENOSPC, -EFBIG, -EIO for SQLite
 *    failures...). store_errmsg() keeps the last SQLite message for -EIO.
 *  - Every mutating call is atomic: it runs in its own SAVEPOINT, so it either
 *    happens whole or not at all (quota errors included). store_begin/commit
 *    group many calls into one transaction (nestable; the outermost commit makes
 *    them durable), which is how bulk writes stay fast.
 *  - Permissions: the caller has the credentials set with store_set_cred()
 *    (default uid 0, gid 0) and is checked by mode bits like a non-root user:
 *    owner bits when uid matches, group bits when gid matches, else other bits;
 *    search (x) on every directory walked. Nothing bypasses the checks except
 *    the *_raw helpers used by snapshot import and tests.
 *  - A store is used by one thread at a time; the caller serializes (the FUSE
 *    server and the shell share one store under the sandbox's lock).
 *  - Names are byte strings of 1..255 bytes without '/' or NUL, never "." or
 *    "..". Paths are at most STORE_PATH_MAX-1 bytes. Non-UTF-8 bytes are kept
 *    exactly (stored as TEXT bytes, like Linux names).
 *  - Read-only: a store opened with STORE_OPEN_READONLY, or on a file SQLite
 *    can only open read-only, opens fine and answers every mutating call with
 *    -EROFS, changing nothing (store_readonly() tells in advance).
 *  - Format conventions on write: directories get nlink 1 (the TypeScript
 *    SDK's convention) and keep it; on read both 1 and 2+subdirs (Rust SDK)
 *    are accepted and never used for decisions. A file whose nlink reaches 0
 *    is deleted with its data at once (as AgentFS does). Files are written
 *    dense: extending one (write past EOF, truncate up) writes zero chunks,
 *    since the TypeScript SDK concatenates chunks to read a file (only an
 *    extension of more than 64 MiB leaves a gap, so it cannot run forever);
 *    gaps left by the Rust tools (missing or short chunks) read as zeros.
 */
#ifndef SBX_STORE_H
#define SBX_STORE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#define STORE_ROOT_INO 1
#define STORE_NAME_MAX 255
#define STORE_PATH_MAX 4096
#define STORE_SYMLINK_MAX 40 /* symlinks followed in one resolution (Linux) */

typedef struct store store;
typedef int64_t store_ino;

typedef struct store_stat {
  store_ino ino;
  uint32_t mode; /* S_IFREG/S_IFDIR/S_IFLNK | permission bits */
  uint32_t nlink;
  uint32_t uid, gid;
  uint64_t size;
  uint64_t rdev;
  int64_t atime, mtime, ctime;                 /* seconds */
  uint32_t atime_nsec, mtime_nsec, ctime_nsec; /* nanoseconds */
} store_stat;

typedef struct store_quota {
  uint64_t max_bytes;     /* total file bytes (0 = unlimited) */
  uint64_t max_inodes;    /* inode count (0 = unlimited) */
  uint64_t max_file_size; /* one file's size (0 = unlimited) */
} store_quota;

/* ---- open / close ---------------------------------------------------------- */

/* Writes all of buf to a host fd (retrying EINTR and short writes): 0 or an
 * errno (EIO when write returns 0). The store writes its images with it; the
 * API and the CLI their files and streams. */
int store_write_all(int fd, const void *buf, size_t len);

#define STORE_OPEN_READONLY 0x01 /* SQLITE_OPEN_READONLY */
#define STORE_OPEN_NOCREATE 0x02 /* do not create a missing file */
#define STORE_OPEN_MEMORY 0x04   /* path ignored: a private in-memory database */
/* No fsync (synchronous=OFF): for temporary files that need no durability. */
#define STORE_OPEN_NOSYNC 0x08
/* The file was just written by this process from bytes already known to be
 * an AgentFS store in WAL mode (a store_image, or snapshot bytes that
 * store_open_image accepted): the schema check and the WAL switch are
 * skipped, only chunk_size is read. Never for a file from elsewhere. */
#define STORE_OPEN_TRUSTED 0x10

/*
 * Opens (creating the AgentFS schema in an empty database) the store at `path`.
 * On failure returns -errno or one of the STORE_E* codes below and, if `errmsg`
 * is non-NULL, a malloc'd message for the caller to free.
 */
int store_open(const char *path, int flags, store **out, char **errmsg);
/* Opens an in-memory store from snapshot bytes (copied; the caller keeps
 * its buffer). Bad bytes give STORE_ECORRUPT (header, quick_check), an
 * SQLite image that is not AgentFS 0.4 gives STORE_ESCHEMA. */
int store_open_image(const void *bytes, size_t len, store **out, char **errmsg);
/* Closes (NULL is a no-op); an open store_begin group is rolled back. */
void store_close(store *s);

/* Non-errno failures of store_open / store_open_image. */
#define STORE_ECORRUPT (-10001) /* not SQLite, or damaged */
#define STORE_ESCHEMA (-10002)  /* SQLite but not an AgentFS 0.4 schema */
#define STORE_EROFS (-EROFS)    /* read-only file where writing is needed */

const char *store_errmsg(const store *s);  /* last SQLite message, or "" */
int store_readonly(const store *s);        /* 1 when mutations give -EROFS */
uint32_t store_chunk_size(const store *s); /* fs_config chunk_size */
/* Current usage as the quotas count it: regular files' bytes (logical
 * sizes) and inodes (rows of fs_inode, the root included). */
int store_get_usage(store *s, uint64_t *bytes, uint64_t *inodes);

void store_set_cred(store *s, uint32_t uid, uint32_t gid);
/* Sets limits (NULL = none). Totals are summed once, when a first non-zero
 * limit is set, then kept up to date by every call: set quotas outside of a
 * store_begin group. Exceeding gives -ENOSPC (bytes, inodes) or -EFBIG (one
 * file's size) and changes nothing. */
void store_set_quota(store *s, const store_quota *q);
/* The limits in force (all 0 when none): df(1). */
void store_get_quota(const store *s, store_quota *q);
/* Forgets the running totals: the next quota check sums them again (another
 * process wrote to the same database: process isolation). */
void store_usage_forget(store *s);
void store_set_umask(store *s, uint32_t umask); /* default 022 */

/* Groups calls into one transaction (nestable). rollback undoes to the
 * matching begin. -EROFS on a read-only store; commit/rollback without a
 * begin: -EINVAL. */
int store_begin(store *s);
int store_commit(store *s);
int store_rollback(store *s);

/* The whole database as one self-contained image (malloc'd, caller frees):
 * sqlite3_serialize after a passive checkpoint; works for file and memory
 * stores, and includes the changes of an open store_begin group. */
int store_image(store *s, void **bytes, size_t *len);
/* Writes a copy of the database to a new file `path` (EEXIST if it exists)
 * with VACUUM INTO; -EBUSY inside a store_begin group. */
int store_copy_to(store *s, const char *path);

/* The SQLite handle, for the sqlite3 command's VFS and tests. Borrowed.
 * The store caches directories it has walked (see store_dcache.c) and
 * notices changes made through this handle when they commit; do not change
 * fs_inode or fs_dentry through it inside a store_begin group. */
struct sqlite3 *store_db(store *s);

/* Incremented by every call that may change files (not by kv or history
 * writes): lets caches (FUSE) notice host writes. */
uint64_t store_generation(const store *s);

/* ---- inode API --------------------------------------------------------------- */

int store_getattr(store *s, store_ino ino, store_stat *st);
/* Looks `name` up in directory `dir` (needs x on dir). */
int store_lookup(store *s, store_ino dir, const char *name, store_stat *st);

/* Which fields of store_setattr to apply. */
#define STORE_SET_MODE 0x01 /* permission bits only; type is kept */
#define STORE_SET_UID 0x02
#define STORE_SET_GID 0x04
#define STORE_SET_SIZE 0x08
#define STORE_SET_ATIME 0x10
#define STORE_SET_MTIME 0x20
#define STORE_SET_ATIME_NOW 0x40
#define STORE_SET_MTIME_NOW 0x80

typedef struct store_setattr {
  uint32_t mode;
  uint32_t uid, gid;
  uint64_t size;
  int64_t atime, mtime;
  uint32_t atime_nsec, mtime_nsec;
} store_setattr;

/* Permissions: mode, uid, gid and explicit times need the caller to own the
 * inode (EPERM; there is no root, so an owner may give a file away); *_NOW
 * times need ownership or w; SIZE needs w (EISDIR for a directory). */
int store_setattr_ino(store *s, store_ino ino, const store_setattr *a, int which,
                      store_stat *st_out /* may be NULL */);

/* One directory entry for store_readdir's callback. */
typedef struct store_dirent {
  const char *name; /* borrowed for the callback's duration */
  store_ino ino;
  uint32_t mode;  /* type bits (S_IFDIR...) and permissions */
  int64_t cookie; /* resume after this entry by passing it as `after`:
                     positive (the dentry id); stays valid when the entry
                     is deleted between calls (recent cookies are
                     remembered), else the call gives -ESTALE */
} store_dirent;

/* Returns non-zero to stop the walk (that value is then returned). */
typedef int (*store_readdir_cb)(void *ud, const store_dirent *e);

/* Entries of `dir` (needs r on dir), sorted by name bytewise, without "." and
 * "..", starting after cookie `after` (0 = from the start). */
int store_readdir(store *s, store_ino dir, int64_t after, store_readdir_cb cb, void *ud);

/* Names gathered whole before a walk acts on them: a walk that calls into
 * the store (and recurses) for every entry, as sbx_export_dir and the Python
 * mirror do, reads a directory's names first and visits them afterwards, so
 * no store call runs inside a store_readdir callback. The mirror fills one
 * from a host directory too (store_name_list_add). */
typedef struct store_name_list {
  char **names; /* malloc'd copies, in the order added */
  size_t n;     /* used */
  size_t cap;   /* allocated */
  int nomem;    /* an add ran out of memory: the list is short */
} store_name_list;

/* Appends a copy of `name`: 0, or -ENOMEM with l->nomem set (l stays valid). */
int store_name_list_add(store_name_list *l, const char *name);
/* Appends the names of `dir` in store_readdir's order: 0 or a negative errno
 * (-ENOMEM with l->nomem set when a copy failed). On an error l keeps the
 * names read so far; the caller frees l either way. */
int store_readdir_names(store *s, store_ino dir, store_name_list *l);
/* Frees the names and the array (not l itself). */
void store_name_list_free(store_name_list *l);

/* create/mkdir/symlink: need w+x on dir; `mode` is used as given (no umask:
 * FUSE applies its own); owner is the caller's uid/gid. ENOSPC over the
 * inode quota. */
int store_create(store *s, store_ino dir, const char *name, uint32_t mode,
                 store_stat *st); /* EEXIST if present */
int store_mkdir(store *s, store_ino dir, const char *name, uint32_t mode, store_stat *st);
int store_unlink(store *s, store_ino dir, const char *name); /* not dirs */
int store_rmdir(store *s, store_ino dir, const char *name);  /* empty dirs */
/* rename(2) semantics: replaces a target of a compatible type, EINVAL when a
 * directory would move into its own subtree, ENOTEMPTY for a non-empty target
 * directory. flags: 0 or STORE_RENAME_NOREPLACE. */
#define STORE_RENAME_NOREPLACE 0x01
int store_rename(store *s, store_ino olddir, const char *oldname, store_ino newdir,
                 const char *newname, int flags);
/* Hard link: EPERM for a directory, EMLINK past 65000 links. */
int store_link(store *s, store_ino ino, store_ino newdir, const char *newname,
               store_stat *st);
int store_symlink(store *s, store_ino dir, const char *name, const char *target,
                  store_stat *st);
/* Copies the target (NUL-terminated, truncated to bufsz-1) and returns its full
 * length. */
ssize_t store_readlink(store *s, store_ino ino, char *buf, size_t bufsz);

/* Data. Reads past EOF return 0; gaps in sparse files read as zeros. Writes
 * extend the file, zero-filling any skipped range (quota checked first:
 * ENOSPC / EFBIG, nothing written). EISDIR for a directory, EINVAL for a
 * symlink. store_read/store_write/store_truncate check no permissions (the
 * open did, as for ftruncate on an open fd): use store_access at open time;
 * store_setattr_ino with STORE_SET_SIZE checks w like truncate(2). */
ssize_t store_read(store *s, store_ino ino, void *buf, size_t n, uint64_t off);
ssize_t store_write(store *s, store_ino ino, const void *buf, size_t n, uint64_t off);
int store_truncate(store *s, store_ino ino, uint64_t size);

/* Open files (see store_orphan.c). The server of open files (FUSE) holds
 * every inode it has open: a held regular file that loses its last link
 * (unlink, rename over it) stays readable, writable and truncatable by
 * inode with nlink 0 until its last hold goes, then it is deleted with its
 * data. An unhold may write (that deletion): call it with the store owned.
 * store_unhold_later may be called from any thread without the store: the
 * deletion then waits for the next mutating call or close. Orphans of a
 * process that died are deleted when the file is next opened. */
int store_hold(store *s, store_ino ino); /* 0, -ENOMEM */
int store_unhold(store *s, store_ino ino);
void store_unhold_later(store *s, store_ino ino);
/* O_TMPFILE: a new regular file in `dir` (w+x checked) with no name,
 * already held once (as by store_hold) and an orphan (nlink 0): freed at its
 * last unhold unless store_link gives it a name first. */
int store_tmpfile(store *s, store_ino dir, uint32_t mode, store_stat *st);
/* Orphans recorded in the store (tests), or -errno. */
int store_orphan_count(store *s);

/* Permission check for the caller: mask of R_OK, W_OK, X_OK (0 = exists). */
int store_access(store *s, store_ino ino, int mask);

/* store_access and store_read for a caller that holds `st` fresh from
 * store_getattr (or a walk built on it) under the same lock: they skip the
 * inode lookup, which is most of the cost of reading a small file (grep -r). */
int store_access_stat(store *s, const store_stat *st, int mask);
ssize_t store_read_stat(store *s, const store_stat *st, void *buf, size_t n, uint64_t off);

/* ---- path API ----------------------------------------------------------------- */
/*
 * Paths resolve from `cwd` (an absolute path; NULL means "/") like Linux:
 * "." and ".." by name, ".." at the root stays at the root, symlinks in the
 * middle always followed, the last component followed unless STORE_NOFOLLOW,
 * more than STORE_SYMLINK_MAX links give ELOOP, a trailing slash requires a
 * directory (ENOTDIR). Empty path: ENOENT. Too long: ENAMETOOLONG.
 */
#define STORE_NOFOLLOW 0x01

int store_resolve(store *s, const char *cwd, const char *path, int flags, store_stat *st);
/* Resolves all but the last component: *dir gets the parent directory's inode
 * and `name` (STORE_NAME_MAX+1 bytes) the last component. A path ending in
 * "/" or naming "." / ".." gives its name as is (without the slash; look at
 * the path's last byte to tell); callers decide (mkdir "a/" is fine, create
 * "a/" is EISDIR). The root itself gives name "". The parent needs x. */
int store_resolve_parent(store *s, const char *cwd, const char *path, store_ino *dir,
                         char *name);
/* The canonical absolute path of `path` (all symlinks resolved), malloc'd. */
int store_realpath(store *s, const char *cwd, const char *path, char **out);

int store_path_stat(store *s, const char *cwd, const char *path, store_stat *st);
int store_path_lstat(store *s, const char *cwd, const char *path, store_stat *st);
int store_path_mkdir(store *s, const char *cwd, const char *path, uint32_t mode);
/* mkdir -p: existing directories are fine, an existing non-directory is
 * EEXIST/ENOTDIR. */
int store_path_mkdir_p(store *s, const char *cwd, const char *path, uint32_t mode);
int store_path_unlink(store *s, const char *cwd, const char *path);
int store_path_rmdir(store *s, const char *cwd, const char *path);
int store_path_rename(store *s, const char *cwd, const char *from, const char *to);
int store_path_link(store *s, const char *cwd, const char *target, const char *newpath);
int store_path_symlink(store *s, const char *cwd, const char *target,
                       const char *linkpath);
/* malloc'd NUL-terminated target. */
int store_path_readlink(store *s, const char *cwd, const char *path, char **out);
int store_path_chmod(store *s, const char *cwd, const char *path, uint32_t mode);
/* times: NULL = now for both; nsec field UTIME_NOW / UTIME_OMIT honored. */
int store_path_utimes(store *s, const char *cwd, const char *path,
                      const struct timespec times[2], int flags);

/* Opens (like open(2) flags O_CREAT, O_EXCL, O_TRUNC, O_DIRECTORY, O_NOFOLLOW,
 * with O_RDONLY/O_WRONLY/O_RDWR checked against the mode bits): returns the
 * inode in *st. Does not keep any state: the caller keeps ino and offset. */
int store_path_open(store *s, const char *cwd, const char *path, int oflags,
                    uint32_t mode, store_stat *st);

/* Whole-file helpers (atomic). read: malloc'd buffer, NUL-terminated beyond
 * *len. write: create or replace (mode for a new file), flags as below. */
#define STORE_WRITE_MKDIRS 0x01
#define STORE_WRITE_APPEND 0x02
int store_path_read_file(store *s, const char *cwd, const char *path, void **data,
                         size_t *len);
int store_path_write_file(store *s, const char *cwd, const char *path, const void *data,
                          size_t len, uint32_t mode, int flags);
/* One file for store_path_write_files (all borrowed). */
typedef struct store_file {
  const char *path; /* the file's path */
  const void *data; /* its content (may be NULL when len is 0) */
  size_t len;       /* content bytes */
} store_file;
/* store_path_write_file for each of files[0..n), in order, in one
 * transaction: all or (on the first failure, whose index goes to *failed
 * when failed is non-NULL; n when no file failed) none. New files that share a directory
 * are created a group at a time with multi-row INSERTs, which is what makes this the fast
 * way to write many files. */
int store_path_write_files(store *s, const char *cwd, const store_file *files, size_t n,
                           uint32_t mode, int flags, size_t *failed);
/* rm -r of a path (a file, a symlink itself, or a tree), atomically: all or
 * nothing. Needs r+w+x on every directory emptied. The root: EBUSY. */
int store_path_remove_tree(store *s, const char *cwd, const char *path);

/* ---- key-value store ------------------------------------------------------------ */

int store_kv_get(store *s, const char *key, char **json);      /* -ENOENT if none */
int store_kv_set(store *s, const char *key, const char *json); /* -EINVAL: bad JSON */
int store_kv_delete(store *s, const char *key);                /* -ENOENT if none */
/* Calls cb for each key starting with prefix (literal), sorted bytewise. */
int store_kv_keys(store *s, const char *prefix, int (*cb)(void *ud, const char *key),
                  void *ud);

/* ---- history (tool_calls) -------------------------------------------------------- */

typedef struct store_call {
  int64_t id;
  const char *name, *parameters, *result, *error, *status; /* borrowed */
  double started_at, completed_at, duration_ms;            /* -1 when NULL */
} store_call;

int store_call_start(store *s, const char *name, const char *parameters, int64_t *id);
/* error NULL: status 'success' with result; else status 'error' with error
 * (result not stored). -ENOENT for an unknown id, -EALREADY if finished. */
int store_call_finish(store *s, int64_t id, const char *result, const char *error);
/* A call that has finished, in one INSERT: as store_call_start followed by
 * store_call_finish, but with the call's own start time (unix seconds;
 * <= 0: now minus the duration) and duration (ms, >= 0). *id (may be NULL)
 * gets its row id. */
int store_call_record(store *s, const char *name, const char *parameters,
                      const char *result, const char *error, double started_at,
                      double duration_ms, int64_t *id);
/* A finished call, buffered: as store_call_record without an id, but the
 * row is kept in memory and written later (STORE_HISTORY_BUFFER_ROWS rows
 * at most): with the next outermost commit of this store (a file write, a
 * kv set, any history call), or in a transaction of its own once
 * STORE_HISTORY_BUFFER_ROWS rows are waiting or the oldest waited
 * STORE_HISTORY_FLUSH_MS, and at store_calls_flush, store_call_list,
 * snapshots, copies and store_close. A crash loses only the waiting rows.
 * Inside an open transaction the rows wait for its commit (a rollback keeps
 * them waiting). -EROFS on a read-only store; -ENOMEM. */
#define STORE_HISTORY_BUFFER_ROWS 128
#define STORE_HISTORY_FLUSH_MS 1000
int store_call_log(store *s, const char *name, const char *parameters, const char *result,
                   const char *error, double started_at, double duration_ms);
/* Writes the waiting rows now (in the open transaction, if any): 0 or
 * -errno (the rows then keep waiting). */
int store_calls_flush(store *s);
/* Retention of the history: at most max_rows rows (the newest ids) and
 * none started more than max_age_s seconds ago; 0 = no limit on that one.
 * Applied in the transaction of every STORE_HISTORY_PRUNE_EVERY-th insert
 * (every insert when max_rows < 128), with one DELETE on the id (primary
 * key) and one on started_at (its index), deleting down to max_rows minus
 * the inserts until the next prune: the table never holds more than
 * max_rows rows once a prune ran. Ids are counted, not rows: rows deleted by
 * hand leave fewer. An unfinished call can be pruned (its finish then gives
 * -ENOENT). Setting it prunes at once (a write; skipped when read-only).
 * Default: STORE_HISTORY_DEFAULT_ROWS rows, no age limit. Per store, not
 * kept in the file. */
#define STORE_HISTORY_DEFAULT_ROWS 100000
#define STORE_HISTORY_PRUNE_EVERY 64
int store_history_retention(store *s, int64_t max_rows, int64_t max_age_s);

/* Newest first, at most `limit` rows (limit <= 0: all). */
int store_call_list(store *s, int limit, int (*cb)(void *ud, const store_call *c),
                    void *ud);

#endif
