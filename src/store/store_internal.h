/*
 * store_internal.h - what the files of src/store/ share and nobody else sees:
 * the store struct, the prepared-statement cache, transactions (savepoints),
 * quota bookkeeping and the small helpers every operation needs.
 *
 * Design decisions, in one place:
 *  - Statements are prepared lazily, once per store, on first use (an array of
 *    sqlite3_stmt* indexed by enum store_stmt_id) and kept until close: opening
 *    a store prepares nothing beyond what schema checking needs, and no call
 *    ever parses SQL twice.
 *  - A mutating call runs between store_tx_begin() and store_tx_end(): the
 *    outermost level is BEGIN IMMEDIATE / COMMIT, nested levels are SAVEPOINTs
 *    (store_begin uses the same stack). The quota running totals are saved in
 *    each frame and restored when that frame rolls back.
 *  - Internal functions named do_* / store_i_* never open a transaction; the
 *    public functions wrap them. Internal functions take a name and its length
 *    so path components are never copied.
 *  - Directories found by name are remembered (the directory cache, see
 *    store_dcache.c) so a path walk does not look the same directories up
 *    for every file; the cache is emptied by every change that could make
 *    an entry wrong and checked against SQLite's data version for changes
 *    made by other connections.
 */
#ifndef SBX_STORE_INTERNAL_H
#define SBX_STORE_INTERNAL_H

#include <errno.h>
#include <limits.h>
#include <sqlite3.h>
#include <stdio.h>
#include <sys/stat.h>

#include "store/store.h"

#define STORE_DCACHE_SLOTS 128 /* directory cache size (a power of two) */
#define STORE_BATCH_MAX 32     /* files per store_i_create_files call */
#define STORE_MULTI_SIZES 6    /* multi-row statements of 1, 2, 4 ... 32 rows */
#define STORE_MULTI_TABLES 3   /* fs_inode, fs_dentry, fs_data */
#define STORE_DCACHE_NAME 47   /* longest name the directory cache keeps */

/* Every statement the store runs, prepared on first use. */
enum store_stmt_id {
  ST_BEGIN,
  ST_COMMIT,
  ST_ROLLBACK,
  ST_SAVEPOINT,
  ST_RELEASE,
  ST_ROLLBACK_TO,
  ST_GETATTR,
  ST_LOOKUP,
  ST_LOOKUP_DATA,
  ST_READDIR,
  ST_DENTRY_NAME,
  ST_DENTRY_PARENT,
  ST_INODE_INSERT,
  ST_DENTRY_INSERT,
  ST_DENTRY_DELETE,
  ST_DENTRY_MOVE,
  ST_NLINK_ADD,
  ST_INODE_DELETE,
  ST_DATA_DELETE_ALL,
  ST_SYMLINK_DELETE,
  ST_SYMLINK_INSERT,
  ST_SYMLINK_GET,
  ST_DIR_HAS_CHILD,
  ST_SET_SIZE,
  ST_TOUCH,
  ST_SETATTR,
  ST_DATA_READ,
  ST_DATA_GET_CHUNK,
  ST_DATA_PUT,
  ST_DATA_TRUNC_AFTER,
  ST_DATA_TRIM,
  ST_SUBTREE_HAS,
  ST_TOTALS,
  ST_KV_GET,
  ST_KV_SET,
  ST_KV_DELETE,
  ST_KV_KEYS_RANGE,
  ST_KV_KEYS_FROM,
  ST_JSON_VALID,
  ST_CALL_START,
  ST_CALL_GET,
  ST_CALL_FINISH,
  ST_CALL_LIST,
  ST_CALL_RECORD,
  ST_CALL_PRUNE_ID,
  ST_CALL_PRUNE_AGE,
  ST_COUNT
};

/* One level of the transaction stack (store_begin or a mutating call). */
typedef struct store_tx_frame {
  uint64_t bytes;  /* s->bytes when the frame began */
  uint64_t inodes; /* s->inodes when the frame began */
} store_tx_frame;

/* A recently delivered readdir entry, to resume after it once it is deleted. */
typedef struct store_cookie_memo {
  int64_t cookie;                /* dentry id handed out as the cookie */
  store_ino dir;                 /* directory it belongs to */
  uint16_t len;                  /* name length */
  char name[STORE_NAME_MAX + 1]; /* the name (bytes) */
} store_cookie_memo;

/* A directory remembered by (parent, name): what a walk needs to pass it. */
typedef struct store_dcache_ent {
  uint64_t epoch;               /* s->dcache_epoch when stored (older = empty slot) */
  store_ino parent;             /* directory holding the entry (0: the root's entry) */
  store_ino ino;                /* the directory itself */
  uint32_t mode;                /* its type and permission bits */
  uint32_t uid, gid;            /* its owner, for permission checks */
  uint8_t len;                  /* name length */
  char name[STORE_DCACHE_NAME]; /* name bytes (not NUL-terminated) */
} store_dcache_ent;

#define STORE_COOKIE_MEMO 64 /* ring size: covers one FUSE readdir buffer */
#define STORE_CALL_MEMO 16   /* started calls whose start time we keep (ns) */
#define STORE_LOG_MULTI 16   /* buffered calls one INSERT writes (store_kv.c) */

struct store {
  sqlite3 *db;                  /* the connection (owned) */
  sqlite3_stmt *stmt[ST_COUNT]; /* prepared on first use, owned */
  int readonly;                 /* opened read-only: mutations give -EROFS */
  uint32_t chunk_size;          /* fs_config chunk_size, bytes per fs_data row */
  unsigned char *chunk_buf;     /* scratch of chunk_size bytes (lazy) */
  uint32_t uid, gid, umask;     /* caller credentials and umask */
  store_quota quota;            /* limits (0 = none) */
  int have_totals;              /* bytes/inodes are known and maintained */
  uint64_t bytes;               /* sum of regular files' sizes */
  uint64_t inodes;              /* rows of fs_inode */
  store_tx_frame *frames;       /* transaction stack, `depth` used */
  int depth, frames_cap;        /* used / allocated frames */
  int tx_aborted;               /* SQLite dropped the transaction mid-stack */
  int host_full;                /* a write met a full host filesystem (ENOSPC from
                                   SQLite): the WAL is folded back at the rollback */
  uint64_t generation;          /* bumped by every call that may change files */
  char errmsg[256];             /* last SQLite error message */
  store_cookie_memo memo[STORE_COOKIE_MEMO]; /* ring of readdir cookies */
  unsigned memo_next;                        /* next ring slot */
  struct {
    int64_t id;             /* tool_calls id (0 = free slot) */
    int64_t start_ns;       /* CLOCK_REALTIME at start, ns */
  } calls[STORE_CALL_MEMO]; /* for sub-second duration_ms */
  unsigned calls_next;      /* next slot in calls */
  int64_t hist_max_rows;    /* history retention: rows (0 = unbounded) */
  int64_t hist_max_age;     /* and seconds (0 = unbounded) */
  unsigned hist_unpruned;   /* inserts since the last prune */
  struct store_logged *log_head; /* buffered calls (store_call_log), oldest first */
  struct store_logged *log_tail; /* the newest of them */
  unsigned log_rows;             /* how many */
  int64_t log_oldest_ns;         /* when the oldest was buffered (CLOCK_MONOTONIC) */
  sqlite3_stmt *log_multi;       /* INSERT of STORE_LOG_MULTI calls at once (lazy) */
  uint64_t dcache_epoch;    /* entries of other epochs are empty */
  unsigned dcache_dv;       /* SQLite data version the cache was checked at */
  int dcache_used;          /* a walk used an entry since the last check */
  store_dcache_ent dcache[STORE_DCACHE_SLOTS]; /* the directory cache */
  struct store_holds *holds; /* inodes held open (store_orphan.c), owned */
  /* multi-row INSERTs of store_i_create_files by table and log2(rows) */
  sqlite3_stmt *multi[STORE_MULTI_TABLES][STORE_MULTI_SIZES];
};

/* ---- statements and errors (store.c) ---- */

/* The cached statement `id`, reset and with bindings cleared; NULL (message
 * kept in s->errmsg) if it cannot be prepared. Borrowed: never finalize it. */
sqlite3_stmt *store_stmt(store *s, int id);
/* Maps an SQLite result code to a negative errno, keeping the message. */
int store_sqlerr(store *s, int rc);
/* Steps a statement that returns no rows (or ignores them); 0 or -errno. The
 * statement is reset afterwards. */
int store_step_done(store *s, sqlite3_stmt *q);

/* Reads an INTEGER column that may hold a REAL (or NULL = 0). */
int64_t store_col_i64(sqlite3_stmt *q, int col);
/* Fills a store_stat from columns ino,mode,nlink,uid,gid,size,rdev,atime,
 * mtime,ctime,atime_nsec,mtime_nsec,ctime_nsec starting at `col`. */
void store_col_stat(sqlite3_stmt *q, int col, store_stat *st);

/* ---- transactions (store.c) ---- */

/* Inserts the buffered calls into the open write transaction (store_kv.c),
 * inside a savepoint of their own: 0, or -errno with nothing inserted and
 * the rows still buffered. Called by the outermost commit. */
int store_i_calls_insert(store *s);
/* Frees the buffered calls (at close, or once inserted and committed). */
void store_i_calls_drop(store *s);

/* Starts a mutating call: -EROFS on a read-only store. */
int store_tx_begin(store *s);
/* The same for a call that changes no file (kv, history): the generation
 * stays, so the FUSE view of a running Python worker is not dropped by the
 * history row each call writes (issue 19: that invalidation was half of a
 * warm execute_python's host instructions). */
int store_tx_begin_meta(store *s);
/* Ends it: releases when rc >= 0, rolls back otherwise. Returns rc, or the
 * commit's error. */
int store_tx_end(store *s, int rc);

/* ---- quotas (store.c) ---- */

/* Accounts `delta` bytes of regular-file size; -ENOSPC over the quota. */
int store_quota_bytes(store *s, int64_t delta);
/* Accounts `delta` inodes; -ENOSPC over the quota. */
int store_quota_inodes(store *s, int64_t delta);

/* ---- the directory cache (store_dcache.c) ---- */

/* The directory `name` in `parent` if remembered: fills ino, mode, uid and
 * gid of *st (the other fields zero) and returns 1; else 0. parent 0 with
 * an empty name is the root. */
int store_dcache_get(store *s, store_ino parent, const char *name, size_t nlen,
                     store_stat *st);
/* Remembers `st` (ignored unless a directory) as `name` in `parent`. */
void store_dcache_put(store *s, store_ino parent, const char *name, size_t nlen,
                      const store_stat *st);
/* Forgets everything (O(1)). */
void store_dcache_clear(store *s);
/* Empties the cache if another connection changed the database since the
 * last check; call once a transaction holds a snapshot. */
void store_dcache_sync(store *s);
/* After our own outermost commit: its changes went through the cache's
 * invalidation already, only the data version moves on. */
void store_dcache_committed(store *s);
/* For read-only calls outside a transaction, after they ran: 1 when the
 * call must run again because it used entries that another connection has
 * since made stale (the cache is emptied first); else 0. */
int store_dcache_stale(store *s);

/* ---- time ---- */
void store_now(int64_t *sec, uint32_t *nsec);

/* ---- inode internals (store_inode.c), no transaction of their own ---- */

/* Permission check of the caller against an inode's mode/uid/gid. */
int store_i_perm(const store *s, const store_stat *st, int mask);
int store_i_getattr(store *s, store_ino ino, store_stat *st);
int store_i_lookup(store *s, store_ino dir, const char *name, size_t nlen,
                   store_stat *st);
/* Validates a name: 1..255 bytes, no '/'. */
int store_i_check_name(const char *name, size_t nlen);
int store_i_mknod(store *s, const store_stat *dir, const char *name, size_t nlen,
                  uint32_t mode, const char *target, store_stat *st);
/* Creates a regular file holding data[0..len) in `dir` (w+x checked here),
 * where the caller has just found `name` absent in the same transaction:
 * the inode starts at its final size, so the whole file is three INSERTs
 * per chunk-free file plus one per chunk. Quotas as for a write. */
int store_i_create_file(store *s, const store_stat *dir, const char *name, size_t nlen,
                        uint32_t mode, const void *data, size_t len, store_stat *st);
/* One new file of store_i_create_files (all borrowed). */
typedef struct store_newfile {
  const char *name; /* its name in the directory */
  size_t nlen;      /* name length */
  const void *data; /* content */
  size_t len;       /* content bytes */
} store_newfile;
/* Creates k (1..STORE_BATCH_MAX) regular files in `dir`, as k calls of
 * store_i_create_file would, in a few multi-row INSERTs. All checks come
 * before the first change. A name that exists (or repeats in f) makes the
 * dentry INSERT fail: -EEXIST, and the caller must roll back the
 * savepoint it opened around this call (inodes were inserted). */
int store_i_create_files(store *s, const store_stat *dir, const store_newfile *f, int k,
                         uint32_t mode);
/* Replaces the whole content of regular file `st` by data[0..len) (what
 * O_TRUNC and a write from 0 do, in fewer statements). */
int store_i_replace(store *s, const store_stat *st, const void *data, size_t len);
int store_i_unlink(store *s, const store_stat *dir, const char *name, size_t nlen,
                   int want_dir);
int store_i_rename(store *s, const store_stat *odir, const char *oname, size_t olen,
                   const store_stat *ndir, const char *nname, size_t nlen, int flags);
int store_i_link(store *s, const store_stat *target, const store_stat *ndir,
                 const char *name, size_t nlen, store_stat *st);
int store_i_truncate(store *s, const store_stat *st, uint64_t size);
ssize_t store_i_write(store *s, const store_stat *st, const void *buf, size_t n,
                      uint64_t off);
ssize_t store_i_read(store *s, const store_stat *st, void *buf, size_t n, uint64_t off);
/* Target of a symlink into buf (bufsz >= STORE_PATH_MAX); returns length. */
ssize_t store_i_readlink(store *s, store_ino ino, char *buf, size_t bufsz);
int store_i_setattr(store *s, const store_stat *cur, const store_setattr *a, int which,
                    store_stat *st_out);

/* ---- open files and orphans (store_orphan.c) ---- */

/* The hold table of a new store / freeing it at close. */
int store_i_holds_init(store *s);
void store_i_holds_free(store *s);
/* 1 when `ino` is held open. */
int store_i_held(store *s, store_ino ino);
/* Keeps held regular file `victim`, whose last link is going, as an orphan
 * (nlink 0, a row in sbx_orphan); its dentry is already gone. */
int store_i_orphan(store *s, const store_stat *victim, int64_t sec, uint32_t ns);
/* 1 when holds dropped by store_unhold_later left orphans to free. */
int store_i_waiting(store *s);
/* Frees them, in the caller's transaction. */
int store_i_free_waiting(store *s);
/* Frees the orphans of owners that are gone (all of them when `all`: the
 * store is a copy), in its own transaction. At open. */
int store_i_reclaim_orphans(store *s, int all);
/* Deletes from the database file `path`, a copy of s just made, the orphans
 * it copied (no handle of the copy can be open). */
int store_i_reclaim_in_copy(store *s, const char *path);

#endif
