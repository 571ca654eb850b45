/*
 * store_inode.c - the inode API: attributes, directory entries, links,
 * symlinks and file data over the AgentFS tables (fs_inode, fs_dentry,
 * fs_data, fs_symlink).
 *
 * Conventions of the format, as this file writes them:
 *  - A directory is written with nlink 1 (the TypeScript SDK's convention, as
 *    in the sample database) and its nlink is never adjusted; a database from
 *    the Rust SDK (2 + subdirectories) reads fine, and nothing here derives a
 *    decision from a directory's nlink (rmdir checks emptiness with a query).
 *  - A regular file's or symlink's nlink counts its dentries; when it reaches
 *    0 the inode is deleted with its data and symlink rows, as AgentFS does,
 *    unless the file is held open (store_orphan.c): it is then kept with
 *    nlink 0 until its last close.
 *  - File data is cut into fs_data rows of chunk_size bytes (from fs_config):
 *    every chunk but the last is exactly chunk_size. Files are written dense:
 *    a write past EOF or a truncate that extends a file pads the old short
 *    last chunk and writes zero chunks (zeroblob) for the skipped range,
 *    because the TypeScript SDK reads a file by concatenating its chunks.
 *    Gaps left by the Rust tools (missing or short chunks) read as zeros.
 *    One extension of more than STORE_ZERO_FILL_MAX (64 MiB) leaves a gap
 *    instead, so `truncate -s 1T` is instant rather than endless.
 *    Extending is bounded by the byte and file-size quotas.
 *  - Permissions are the mode bits as a non-root user sees them (no override
 *    for uid 0). A dentry change needs w+x on the directory; the sticky bit
 *    restricts removing and renaming to the owner of the entry or directory.
 *
 * Whole files. store_i_create_file makes a new file at its final size
 * (inode, dentry, chunks: no size update afterwards), store_i_replace
 * rewrites an existing file's chunks and size in place of truncate+write,
 * and store_i_create_files makes up to STORE_BATCH_MAX files of one
 * directory with multi-row INSERTs (statements of 1, 2, 4 ... 32 rows,
 * prepared once per store): per-statement overhead and the AUTOINCREMENT
 * bookkeeping are paid once per group instead of once per file. Each does
 * every check (permissions, names, quotas) before its first change.
 *
 * Every public function here runs in its own savepoint (store_tx_begin/end);
 * the store_i_* functions do the work without one so the path API can group
 * a resolution and a change into one atomic call.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store/store_internal.h"

#define STORE_LINK_MAX 65000 /* hard links per inode (EMLINK beyond) */
#define STORE_ZERO_FILL_MAX ((uint64_t)64 << 20) /* densest extension, bytes */

int store_i_perm(const store *s, const store_stat *st, int mask) {
  uint32_t bits;
  if (s->uid == st->uid)
    bits = (st->mode >> 6) & 7;
  else if (s->gid == st->gid)
    bits = (st->mode >> 3) & 7;
  else
    bits = st->mode & 7;
  mask &= 7; /* R_OK 4, W_OK 2, X_OK 1: the same layout as the mode bits */
  return ((int)bits & mask) == mask ? 0 : -EACCES;
}

/* Steps a query returning one stat row: 0, -ENOENT without a row, or the
 * SQLite error. Resets the statement. */
static int step_stat(store *s, sqlite3_stmt *q, store_stat *st) {
  int rc = sqlite3_step(q), err = 0;
  if (rc == SQLITE_ROW)
    store_col_stat(q, 0, st);
  else
    err = rc == SQLITE_DONE ? -ENOENT : store_sqlerr(s, rc);
  sqlite3_reset(q);
  sqlite3_clear_bindings(q);
  return err;
}

int store_i_getattr(store *s, store_ino ino, store_stat *st) {
  sqlite3_stmt *q = store_stmt(s, ST_GETATTR);
  if (!q) return -EIO;
  sqlite3_bind_int64(q, 1, ino);
  return step_stat(s, q, st);
}

int store_i_lookup(store *s, store_ino dir, const char *name, size_t nlen,
                   store_stat *st) {
  sqlite3_stmt *q = store_stmt(s, ST_LOOKUP);
  if (!q) return -EIO;
  sqlite3_bind_int64(q, 1, dir);
  sqlite3_bind_text(q, 2, name, (int)nlen, SQLITE_STATIC);
  return step_stat(s, q, st);
}

int store_i_check_name(const char *name, size_t nlen) {
  if (nlen == 0) return -ENOENT;
  if (nlen > STORE_NAME_MAX) return -ENAMETOOLONG;
  if (memchr(name, '/', nlen)) return -EINVAL;
  return 0;
}

static int is_dot(const char *name, size_t nlen) {
  return (nlen == 1 && name[0] == '.') || (nlen == 2 && name[0] == '.' && name[1] == '.');
}

/* Needs: dir is a directory the caller may change (w+x). */
static int dir_writable(store *s, const store_stat *dir) {
  if (!S_ISDIR(dir->mode)) return -ENOTDIR;
  return store_i_perm(s, dir, W_OK | X_OK);
}

/* Sticky directories: only the entry's or the directory's owner may remove
 * or rename the entry (stops one user deleting another's files in /tmp). */
static int sticky_ok(const store *s, const store_stat *dir, const store_stat *victim) {
  if (!(dir->mode & S_ISVTX)) return 0;
  return (s->uid == dir->uid || s->uid == victim->uid) ? 0 : -EPERM;
}

static int touch(store *s, store_ino ino, int64_t sec, uint32_t ns) {
  sqlite3_stmt *q = store_stmt(s, ST_TOUCH);
  if (!q) return -EIO;
  sqlite3_bind_int64(q, 1, ino);
  sqlite3_bind_int64(q, 2, sec);
  sqlite3_bind_int64(q, 3, ns);
  return store_step_done(s, q);
}

static int exec_ino(store *s, int id, store_ino ino) {
  sqlite3_stmt *q = store_stmt(s, id);
  if (!q) return -EIO;
  sqlite3_bind_int64(q, 1, ino);
  return store_step_done(s, q);
}

static int nlink_add(store *s, store_ino ino, int delta, int64_t sec, uint32_t ns) {
  sqlite3_stmt *q = store_stmt(s, ST_NLINK_ADD);
  if (!q) return -EIO;
  sqlite3_bind_int64(q, 1, ino);
  sqlite3_bind_int(q, 2, delta);
  sqlite3_bind_int64(q, 3, sec);
  sqlite3_bind_int64(q, 4, ns);
  return store_step_done(s, q);
}

static int dentry_op(store *s, int id, store_ino dir, const char *name, size_t nlen,
                     store_ino ino) {
  sqlite3_stmt *q = store_stmt(s, id);
  if (!q) return -EIO;
  if (id == ST_DENTRY_INSERT) {
    sqlite3_bind_text(q, 1, name, (int)nlen, SQLITE_STATIC);
    sqlite3_bind_int64(q, 2, dir);
    sqlite3_bind_int64(q, 3, ino);
  } else {
    sqlite3_bind_int64(q, 1, dir);
    sqlite3_bind_text(q, 2, name, (int)nlen, SQLITE_STATIC);
  }
  return store_step_done(s, q);
}

static int dir_is_empty(store *s, store_ino dir) {
  sqlite3_stmt *q = store_stmt(s, ST_DIR_HAS_CHILD);
  if (!q) return -EIO;
  sqlite3_bind_int64(q, 1, dir);
  int rc = sqlite3_step(q);
  int r = rc == SQLITE_ROW ? 0 : rc == SQLITE_DONE ? 1 : store_sqlerr(s, rc);
  sqlite3_reset(q);
  return r;
}

/* Removes one link to `victim` (its dentry is already gone): directories and
 * last links delete the inode with its data. */
static int drop_link(store *s, const store_stat *victim, int64_t sec, uint32_t ns) {
  int err;
  if (!S_ISDIR(victim->mode) && victim->nlink > 1)
    return nlink_add(s, victim->ino, -1, sec, ns);
  if (S_ISREG(victim->mode) && store_i_held(s, victim->ino))
    return store_i_orphan(s, victim, sec, ns); /* open: freed at its last close */
  if (S_ISREG(victim->mode)) {
    err = store_quota_bytes(s, -(int64_t)victim->size);
    if (err) return err;
  }
  err = store_quota_inodes(s, -1);
  if (!err) err = exec_ino(s, ST_INODE_DELETE, victim->ino);
  if (!err && S_ISREG(victim->mode)) err = exec_ino(s, ST_DATA_DELETE_ALL, victim->ino);
  if (!err && S_ISLNK(victim->mode)) err = exec_ino(s, ST_SYMLINK_DELETE, victim->ino);
  return err;
}

/* The inode and dentry of a new entry `name` (known to be absent) in `dir`,
 * `size` bytes long (a symlink's target length, or the size a new file is
 * about to get), with the directory's times touched. The caller has
 * accounted the inode (store_quota_inodes). */
static int make_node(store *s, const store_stat *dir, const char *name, size_t nlen,
                     uint32_t mode, uint64_t size, store_stat *st) {
  int err;
  int64_t sec;
  uint32_t ns;
  store_now(&sec, &ns);
  sqlite3_stmt *q = store_stmt(s, ST_INODE_INSERT);
  if (!q) return -EIO;
  sqlite3_bind_int64(q, 1, mode);
  sqlite3_bind_int64(q, 2, s->uid);
  sqlite3_bind_int64(q, 3, s->gid);
  sqlite3_bind_int64(q, 4, (int64_t)size);
  sqlite3_bind_int64(q, 5, sec);
  sqlite3_bind_int64(q, 6, ns);
  if ((err = store_step_done(s, q))) return err;
  store_ino ino = sqlite3_last_insert_rowid(s->db);
  if ((err = dentry_op(s, ST_DENTRY_INSERT, dir->ino, name, nlen, ino))) return err;
  if ((err = touch(s, dir->ino, sec, ns))) return err;
  memset(st, 0, sizeof *st);
  st->ino = ino;
  st->mode = mode;
  st->nlink = 1;
  st->uid = s->uid;
  st->gid = s->gid;
  st->size = size;
  st->atime = st->mtime = st->ctime = sec;
  st->atime_nsec = st->mtime_nsec = st->ctime_nsec = ns;
  return 0;
}

int store_i_mknod(store *s, const store_stat *dir, const char *name, size_t nlen,
                  uint32_t mode, const char *target, store_stat *st) {
  int err = store_i_check_name(name, nlen);
  if (err) return err;
  if ((err = dir_writable(s, dir))) return err;
  if (is_dot(name, nlen)) return -EEXIST;
  store_stat old;
  err = store_i_lookup(s, dir->ino, name, nlen, &old);
  if (err == 0) return -EEXIST;
  if (err != -ENOENT) return err;
  size_t tlen = 0;
  if (S_ISLNK(mode)) {
    tlen = strlen(target);
    if (tlen == 0) return -ENOENT;
    if (tlen >= STORE_PATH_MAX) return -ENAMETOOLONG;
  }
  store_stat made;
  if ((err = store_quota_inodes(s, 1))) return err;
  if ((err = make_node(s, dir, name, nlen, mode, tlen, &made))) return err;
  if (S_ISLNK(mode)) {
    sqlite3_stmt *q = store_stmt(s, ST_SYMLINK_INSERT);
    if (!q) return -EIO;
    sqlite3_bind_int64(q, 1, made.ino);
    sqlite3_bind_text(q, 2, target, (int)tlen, SQLITE_STATIC);
    if ((err = store_step_done(s, q))) return err;
  }
  if (st) *st = made;
  return 0;
}

int store_i_unlink(store *s, const store_stat *dir, const char *name, size_t nlen,
                   int want_dir) {
  int err = store_i_check_name(name, nlen);
  if (err) return err;
  if ((err = dir_writable(s, dir))) return err;
  if (is_dot(name, nlen)) return want_dir ? (nlen == 1 ? -EINVAL : -ENOTEMPTY) : -EISDIR;
  store_stat v;
  if ((err = store_i_lookup(s, dir->ino, name, nlen, &v))) return err;
  if (want_dir) {
    if (!S_ISDIR(v.mode)) return -ENOTDIR;
    int empty = dir_is_empty(s, v.ino);
    if (empty < 0) return empty;
    if (!empty) return -ENOTEMPTY;
  } else if (S_ISDIR(v.mode)) {
    return -EISDIR;
  }
  if ((err = sticky_ok(s, dir, &v))) return err;
  if (S_ISDIR(v.mode)) store_dcache_clear(s); /* invariant 1 of the cache */
  int64_t sec;
  uint32_t ns;
  store_now(&sec, &ns);
  if ((err = dentry_op(s, ST_DENTRY_DELETE, dir->ino, name, nlen, 0))) return err;
  if ((err = drop_link(s, &v, sec, ns))) return err;
  return touch(s, dir->ino, sec, ns);
}

/* Is directory `inner` inside the tree of directory `outer` (or equal)? */
static int subtree_has(store *s, store_ino outer, store_ino inner) {
  if (outer == inner) return 1;
  sqlite3_stmt *q = store_stmt(s, ST_SUBTREE_HAS);
  if (!q) return -EIO;
  sqlite3_bind_int64(q, 1, outer);
  sqlite3_bind_int64(q, 2, inner);
  int rc = sqlite3_step(q);
  int r = rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : store_sqlerr(s, rc);
  sqlite3_reset(q);
  return r;
}

int store_i_rename(store *s, const store_stat *odir, const char *oname, size_t olen,
                   const store_stat *ndir, const char *nname, size_t nlen, int flags) {
  int err;
  if ((err = store_i_check_name(oname, olen))) return err;
  if ((err = store_i_check_name(nname, nlen))) return err;
  if (flags & ~STORE_RENAME_NOREPLACE) return -EINVAL;
  if ((err = dir_writable(s, odir))) return err;
  if ((err = dir_writable(s, ndir))) return err;
  if (is_dot(oname, olen) || is_dot(nname, nlen)) return -EBUSY;
  store_stat o, n;
  if ((err = store_i_lookup(s, odir->ino, oname, olen, &o))) return err;
  if ((err = sticky_ok(s, odir, &o))) return err;
  err = store_i_lookup(s, ndir->ino, nname, nlen, &n);
  int have_new = err == 0;
  if (err && err != -ENOENT) return err;
  if (have_new) {
    if (n.ino == o.ino) return 0; /* same file: rename(2) does nothing */
    if (flags & STORE_RENAME_NOREPLACE) return -EEXIST;
    if (S_ISDIR(o.mode)) {
      if (!S_ISDIR(n.mode)) return -ENOTDIR;
    } else if (S_ISDIR(n.mode)) {
      return -EISDIR;
    }
  }
  if (S_ISDIR(o.mode) && odir->ino != ndir->ino) {
    /* A directory cannot move below itself: that would cut it (and the new
     * parent) off from the root and make a cycle. */
    int in = subtree_has(s, o.ino, ndir->ino);
    if (in < 0) return in;
    if (in) return -EINVAL;
    /* Its ".." changes: that is a write to the directory itself. */
    if ((err = store_i_perm(s, &o, W_OK))) return err;
  }
  if (have_new && S_ISDIR(n.mode)) {
    int empty = dir_is_empty(s, n.ino);
    if (empty < 0) return empty;
    if (!empty) return -ENOTEMPTY;
  }
  if (have_new && (err = sticky_ok(s, ndir, &n))) return err;
  if (S_ISDIR(o.mode) || (have_new && S_ISDIR(n.mode)))
    store_dcache_clear(s); /* invariant 1 of the cache */
  int64_t sec;
  uint32_t ns;
  store_now(&sec, &ns);
  if (have_new) {
    if ((err = dentry_op(s, ST_DENTRY_DELETE, ndir->ino, nname, nlen, 0))) return err;
    if ((err = drop_link(s, &n, sec, ns))) return err;
  }
  sqlite3_stmt *q = store_stmt(s, ST_DENTRY_MOVE);
  if (!q) return -EIO;
  sqlite3_bind_int64(q, 1, odir->ino);
  sqlite3_bind_text(q, 2, oname, (int)olen, SQLITE_STATIC);
  sqlite3_bind_int64(q, 3, ndir->ino);
  sqlite3_bind_text(q, 4, nname, (int)nlen, SQLITE_STATIC);
  if ((err = store_step_done(s, q))) return err;
  if ((err = nlink_add(s, o.ino, 0, sec, ns))) return err; /* ctime */
  if ((err = touch(s, odir->ino, sec, ns))) return err;
  if (ndir->ino != odir->ino) err = touch(s, ndir->ino, sec, ns);
  return err;
}

int store_i_link(store *s, const store_stat *target, const store_stat *ndir,
                 const char *name, size_t nlen, store_stat *st) {
  int err = store_i_check_name(name, nlen);
  if (err) return err;
  if (S_ISDIR(target->mode)) return -EPERM;
  if ((err = dir_writable(s, ndir))) return err;
  if (is_dot(name, nlen)) return -EEXIST;
  if (target->nlink >= STORE_LINK_MAX) return -EMLINK;
  store_stat old;
  err = store_i_lookup(s, ndir->ino, name, nlen, &old);
  if (err == 0) return -EEXIST;
  if (err != -ENOENT) return err;
  int64_t sec;
  uint32_t ns;
  store_now(&sec, &ns);
  if ((err = dentry_op(s, ST_DENTRY_INSERT, ndir->ino, name, nlen, target->ino)))
    return err;
  if ((err = nlink_add(s, target->ino, 1, sec, ns))) return err;
  if ((err = touch(s, ndir->ino, sec, ns))) return err;
  if (st) {
    *st = *target;
    st->nlink++;
    st->ctime = sec;
    st->ctime_nsec = ns;
  }
  return 0;
}

ssize_t store_i_readlink(store *s, store_ino ino, char *buf, size_t bufsz) {
  sqlite3_stmt *q = store_stmt(s, ST_SYMLINK_GET);
  if (!q) return -EIO;
  sqlite3_bind_int64(q, 1, ino);
  int rc = sqlite3_step(q);
  ssize_t r;
  if (rc == SQLITE_ROW) {
    const void *t = sqlite3_column_blob(q, 0);
    size_t n = (size_t)sqlite3_column_bytes(q, 0);
    if (bufsz) {
      size_t c = n < bufsz - 1 ? n : bufsz - 1;
      if (c) memcpy(buf, t, c);
      buf[c] = 0;
    }
    r = (ssize_t)n;
  } else {
    r = rc == SQLITE_DONE ? -EIO : store_sqlerr(s, rc); /* symlink without target */
    if (rc == SQLITE_DONE)
      snprintf(s->errmsg, sizeof s->errmsg, "symlink %lld has no target", (long long)ino);
  }
  sqlite3_reset(q);
  return r;
}

/* ---- data --------------------------------------------------------------------- */

static unsigned char *chunk_buf(store *s) {
  if (!s->chunk_buf) s->chunk_buf = malloc(s->chunk_size);
  return s->chunk_buf;
}

/* Loads chunk `idx` into s->chunk_buf[0..len), zero-filling what is missing. */
static int load_chunk(store *s, store_ino ino, int64_t idx, size_t len) {
  unsigned char *b = chunk_buf(s);
  if (!b) return -ENOMEM;
  sqlite3_stmt *q = store_stmt(s, ST_DATA_GET_CHUNK);
  if (!q) return -EIO;
  sqlite3_bind_int64(q, 1, ino);
  sqlite3_bind_int64(q, 2, idx);
  int rc = sqlite3_step(q), err = 0;
  size_t have = 0;
  if (rc == SQLITE_ROW) {
    const void *d = sqlite3_column_blob(q, 0);
    have = (size_t)sqlite3_column_bytes(q, 0);
    if (have > len) have = len;
    if (have) memcpy(b, d, have);
  } else if (rc != SQLITE_DONE) {
    err = store_sqlerr(s, rc);
  }
  sqlite3_reset(q);
  if (!err && have < len) memset(b + have, 0, len - have);
  return err;
}

static int put_chunk(store *s, store_ino ino, int64_t idx, const void *d, size_t len) {
  sqlite3_stmt *q = store_stmt(s, ST_DATA_PUT);
  if (!q) return -EIO;
  sqlite3_bind_int64(q, 1, ino);
  sqlite3_bind_int64(q, 2, idx);
  sqlite3_bind_blob(q, 3, d, (int)len, SQLITE_STATIC);
  return store_step_done(s, q);
}

/* Writes zero chunks idx in [from, to] of a file of `size` bytes (each
 * chunk_size long, the file's last one shorter). A range over
 * STORE_ZERO_FILL_MAX bytes is left as a gap instead: extending a file by a
 * terabyte must not write a terabyte (without a quota it would never end). */
static int zero_chunks(store *s, store_ino ino, uint64_t from, uint64_t to,
                       uint64_t size) {
  uint64_t cs = s->chunk_size;
  if (to >= from && (to - from) >= STORE_ZERO_FILL_MAX / cs) return 0;
  for (uint64_t idx = from; idx <= to && idx * cs < size; idx++) {
    uint64_t len = size - idx * cs < cs ? size - idx * cs : cs;
    sqlite3_stmt *q = store_stmt(s, ST_DATA_PUT);
    if (!q) return -EIO;
    sqlite3_bind_int64(q, 1, ino);
    sqlite3_bind_int64(q, 2, (int64_t)idx);
    sqlite3_bind_zeroblob(q, 3, (int)len);
    int err = store_step_done(s, q);
    if (err) return err;
  }
  return 0;
}

/* Pads the short last chunk of a file of `old` bytes growing to `size`. */
static int pad_last_chunk(store *s, store_ino ino, uint64_t old, uint64_t size) {
  uint64_t cs = s->chunk_size;
  if (old == 0 || old % cs == 0 || size <= old) return 0;
  uint64_t idx = (old - 1) / cs, start = idx * cs;
  uint64_t len = size - start < cs ? size - start : cs;
  int err = load_chunk(s, ino, (int64_t)idx, (size_t)len);
  if (!err) err = put_chunk(s, ino, (int64_t)idx, s->chunk_buf, (size_t)len);
  return err;
}

static int set_size(store *s, store_ino ino, uint64_t size) {
  int64_t sec;
  uint32_t ns;
  store_now(&sec, &ns);
  sqlite3_stmt *q = store_stmt(s, ST_SET_SIZE);
  if (!q) return -EIO;
  sqlite3_bind_int64(q, 1, ino);
  sqlite3_bind_int64(q, 2, (int64_t)size);
  sqlite3_bind_int64(q, 3, sec);
  sqlite3_bind_int64(q, 4, ns);
  return store_step_done(s, q);
}

/* Size checks shared by write and truncate: EFBIG, then ENOSPC. */
static int grow_ok(store *s, uint64_t old, uint64_t size) {
  if (size > (uint64_t)INT64_MAX) return -EFBIG;
  if (s->quota.max_file_size && size > s->quota.max_file_size && size > old)
    return -EFBIG;
  int64_t delta = size >= old ? (int64_t)(size - old) : -(int64_t)(old - size);
  return store_quota_bytes(s, delta);
}

static int data_type_ok(const store_stat *st) {
  if (S_ISDIR(st->mode)) return -EISDIR;
  if (!S_ISREG(st->mode)) return -EINVAL;
  return 0;
}

ssize_t store_i_read(store *s, const store_stat *st, void *buf, size_t n, uint64_t off) {
  int err = data_type_ok(st);
  if (err) return err;
  if (off >= st->size || n == 0) return 0;
  if (n > st->size - off) n = (size_t)(st->size - off);
  if (n > (size_t)SSIZE_MAX) n = (size_t)SSIZE_MAX;
  uint64_t cs = s->chunk_size, end = off + n;
  uint64_t filled = off; /* buf holds the file's bytes [off, filled) */
  unsigned char *out = buf;
  sqlite3_stmt *q = store_stmt(s, ST_DATA_READ);
  if (!q) return -EIO;
  sqlite3_bind_int64(q, 1, st->ino);
  sqlite3_bind_int64(q, 2, (int64_t)(off / cs));
  sqlite3_bind_int64(q, 3, (int64_t)((end - 1) / cs));
  int rc;
  while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
    int64_t idx = sqlite3_column_int64(q, 0);
    const unsigned char *d = sqlite3_column_blob(q, 1);
    uint64_t len = (uint64_t)sqlite3_column_bytes(q, 1);
    if (idx < 0 || !d) continue;
    if (len > cs) len = cs; /* never let a malformed row spill into the next */
    uint64_t cstart = (uint64_t)idx * cs, cend = cstart + len;
    uint64_t a = cstart > off ? cstart : off, b = cend < end ? cend : end;
    if (a < b) {
      /* rows come in chunk order: what lies before `a` is a gap, zeros */
      if (a > filled) memset(out + (filled - off), 0, a - filled);
      memcpy(out + (a - off), d + (a - cstart), b - a);
      if (b > filled) filled = b;
    }
  }
  err = rc == SQLITE_DONE ? 0 : store_sqlerr(s, rc);
  sqlite3_reset(q);
  if (err) return err;
  if (end > filled) memset(out + (filled - off), 0, end - filled); /* short tail */
  return (ssize_t)n;
}

ssize_t store_i_write(store *s, const store_stat *st, const void *buf, size_t n,
                      uint64_t off) {
  int err = data_type_ok(st);
  if (err) return err;
  if (n == 0) return 0;
  if (n > (size_t)SSIZE_MAX || off > (uint64_t)INT64_MAX - n) return -EFBIG;
  uint64_t cs = s->chunk_size, end = off + n;
  uint64_t size = end > st->size ? end : st->size;
  if ((err = grow_ok(s, st->size, size))) return err;
  /* The old last chunk, when this write starts beyond it, becomes a middle
   * chunk: it must be full length; chunks wholly skipped become zeros. */
  if (off / cs > (st->size + cs - 1) / cs ||
      (st->size && off / cs > (st->size - 1) / cs)) {
    if ((err = pad_last_chunk(s, st->ino, st->size, size))) return err;
    if (off / cs > 0 &&
        (err = zero_chunks(s, st->ino, (st->size + cs - 1) / cs, off / cs - 1, size)))
      return err;
  }
  const unsigned char *src = buf;
  for (uint64_t idx = off / cs; idx <= (end - 1) / cs; idx++) {
    uint64_t cstart = idx * cs;
    uint64_t clen = size - cstart < cs ? size - cstart : cs; /* length after */
    uint64_t a = off > cstart ? off - cstart : 0;            /* written span */
    uint64_t b = end - cstart < cs ? end - cstart : cs;
    if (b > clen) b = clen;
    if (a == 0 && b == clen) {
      err = put_chunk(s, st->ino, (int64_t)idx, src + (cstart - off), (size_t)clen);
    } else {
      err = load_chunk(s, st->ino, (int64_t)idx, (size_t)clen);
      if (!err) {
        memcpy(s->chunk_buf + a, src + (cstart + a - off), (size_t)(b - a));
        err = put_chunk(s, st->ino, (int64_t)idx, s->chunk_buf, (size_t)clen);
      }
    }
    if (err) return err;
  }
  if ((err = set_size(s, st->ino, size))) return err;
  return (ssize_t)n;
}

/* Writes data[0..len) as chunks 0.. of `ino` (each replacing what was there). */
static int put_data(store *s, store_ino ino, const void *data, size_t len) {
  const unsigned char *p = data;
  size_t cs = s->chunk_size;
  for (size_t done = 0, idx = 0; done < len; idx++) {
    size_t n = len - done < cs ? len - done : cs;
    int err = put_chunk(s, ino, (int64_t)idx, p + done, n);
    if (err) return err;
    done += n;
  }
  return 0;
}

int store_i_create_file(store *s, const store_stat *dir, const char *name, size_t nlen,
                        uint32_t mode, const void *data, size_t len, store_stat *st) {
  int err = store_i_check_name(name, nlen);
  if (err) return err;
  if ((err = dir_writable(s, dir))) return err;
  if (is_dot(name, nlen)) return -EEXIST;
  if (len > (size_t)SSIZE_MAX) return -EFBIG;
  store_stat made;
  if ((err = store_quota_inodes(s, 1))) return err; /* mknod's check, then write's */
  if ((err = grow_ok(s, 0, len))) return err;
  if ((err = make_node(s, dir, name, nlen, S_IFREG | (mode & 07777), len, &made)))
    return err;
  if ((err = put_data(s, made.ino, data, len))) return err;
  if (st) *st = made;
  return 0;
}

/* ---- many new files at once ------------------------------------------------------ */

enum { MULTI_INODE, MULTI_DENTRY, MULTI_DATA }; /* tables of s->multi */

/* The cached INSERT of 2^lg rows into one table (bound as shown):
 *   fs_inode:  ?1 mode, ?2 uid, ?3 gid, ?4 sec, ?5 nsec; row i: size ?(6+i)
 *   fs_dentry: ?1 parent, ?2 first ino; row i: name ?(3+i), ino ?2 + i
 *   fs_data:   row i: ino ?(3i+1), chunk_index ?(3i+2), data ?(3i+3) */
static sqlite3_stmt *multi_stmt(store *s, int table, int lg) {
  sqlite3_stmt **slot = &s->multi[table][lg];
  if (*slot) return *slot;
  static const char *const head[] = {
      [MULTI_INODE] =
          "INSERT INTO fs_inode (mode, nlink, uid, gid, size, atime, mtime, "
          "ctime, rdev, atime_nsec, mtime_nsec, ctime_nsec) VALUES ",
      [MULTI_DENTRY] = "INSERT INTO fs_dentry (name, parent_ino, ino) VALUES ",
      [MULTI_DATA] = "INSERT OR REPLACE INTO fs_data (ino, chunk_index, data) VALUES ",
  };
  char sql[4096]; /* 32 rows of at most 60 bytes and the head */
  size_t n = (size_t)snprintf(sql, sizeof sql, "%s", head[table]);
  for (int i = 0; i < (1 << lg) && n < sizeof sql; i++) {
    const char *sep = i ? ", " : "";
    if (table == MULTI_INODE)
      n += (size_t)snprintf(sql + n, sizeof sql - n,
                            "%s(?1, 1, ?2, ?3, ?%d, ?4, ?4, ?4, 0, ?5, ?5, ?5)", sep,
                            6 + i);
    else if (table == MULTI_DENTRY)
      n += (size_t)snprintf(sql + n, sizeof sql - n, "%s(?%d, ?1, ?2 + %d)", sep, 3 + i,
                            i);
    else
      n += (size_t)snprintf(sql + n, sizeof sql - n, "%s(?%d, ?%d, ?%d)", sep, 3 * i + 1,
                            3 * i + 2, 3 * i + 3);
  }
  if (n >= sizeof sql) return NULL; /* cannot happen: sizes are fixed */
  if (sqlite3_prepare_v3(s->db, sql, -1, SQLITE_PREPARE_PERSISTENT, slot, NULL) !=
      SQLITE_OK) {
    snprintf(s->errmsg, sizeof s->errmsg, "%s", sqlite3_errmsg(s->db));
    sqlite3_finalize(*slot);
    *slot = NULL;
  }
  return *slot;
}

/* log2 of the largest power of two <= n (n >= 1, n <= STORE_BATCH_MAX). */
static int floor_log2(size_t n) {
  int lg = 0;
  while (lg + 1 < STORE_MULTI_SIZES && ((size_t)1 << (lg + 1)) <= n) lg++;
  return lg;
}

/* Steps a multi-row INSERT: a UNIQUE violation (a name that exists) is
 * -EEXIST; SQLite undid the statement itself. */
static int step_insert(store *s, sqlite3_stmt *q) {
  int rc = sqlite3_step(q);
  int err = rc == SQLITE_DONE                  ? 0
            : (rc & 0xff) == SQLITE_CONSTRAINT ? -EEXIST
                                               : store_sqlerr(s, rc);
  sqlite3_reset(q);
  sqlite3_clear_bindings(q);
  return err;
}

/* One chunk row waiting for a multi-row fs_data INSERT. */
typedef struct chunk_row {
  store_ino ino;          /* file */
  int64_t idx;            /* chunk_index */
  const unsigned char *p; /* bytes (borrowed) */
  size_t len;             /* byte count */
} chunk_row;

/* Inserts the first 2^lg rows of `rows`. */
static int put_chunk_rows(store *s, const chunk_row *rows, int lg) {
  sqlite3_stmt *q = multi_stmt(s, MULTI_DATA, lg);
  if (!q) return -EIO;
  for (int i = 0; i < (1 << lg); i++) {
    sqlite3_bind_int64(q, 3 * i + 1, rows[i].ino);
    sqlite3_bind_int64(q, 3 * i + 2, rows[i].idx);
    sqlite3_bind_blob(q, 3 * i + 3, rows[i].p, (int)rows[i].len, SQLITE_STATIC);
  }
  return step_insert(s, q);
}

int store_i_create_files(store *s, const store_stat *dir, const store_newfile *f, int k,
                         uint32_t mode) {
  if (k < 1 || k > STORE_BATCH_MAX) return -EINVAL;
  int err = dir_writable(s, dir);
  if (err) return err;
  for (int i = 0; i < k; i++) {
    if ((err = store_i_check_name(f[i].name, f[i].nlen))) return err;
    if (is_dot(f[i].name, f[i].nlen)) return -EEXIST;
    if (f[i].len > (size_t)SSIZE_MAX) return -EFBIG;
  }
  if ((err = store_quota_inodes(s, k))) return err;
  for (int i = 0; i < k; i++)
    if ((err = grow_ok(s, 0, f[i].len))) return err;
  int64_t sec;
  uint32_t ns;
  store_now(&sec, &ns);
  store_ino ino[STORE_BATCH_MAX];
  for (int done = 0; done < k;) {
    int lg = floor_log2((size_t)(k - done)), rows = 1 << lg;
    sqlite3_stmt *q = multi_stmt(s, MULTI_INODE, lg);
    if (!q) return -EIO;
    sqlite3_bind_int64(q, 1, S_IFREG | (mode & 07777));
    sqlite3_bind_int64(q, 2, s->uid);
    sqlite3_bind_int64(q, 3, s->gid);
    sqlite3_bind_int64(q, 4, sec);
    sqlite3_bind_int64(q, 5, ns);
    for (int r = 0; r < rows; r++) sqlite3_bind_int64(q, 6 + r, (int64_t)f[done + r].len);
    if ((err = step_insert(s, q))) return err;
    /* AUTOINCREMENT hands one statement's rows consecutive rowids */
    store_ino first = sqlite3_last_insert_rowid(s->db) - rows + 1;
    q = multi_stmt(s, MULTI_DENTRY, lg);
    if (!q) return -EIO;
    sqlite3_bind_int64(q, 1, dir->ino);
    sqlite3_bind_int64(q, 2, first);
    for (int r = 0; r < rows; r++) {
      sqlite3_bind_text(q, 3 + r, f[done + r].name, (int)f[done + r].nlen, SQLITE_STATIC);
      ino[done + r] = first + r;
    }
    if ((err = step_insert(s, q))) return err;
    done += rows;
  }
  chunk_row rows[STORE_BATCH_MAX];
  int pending = 0;
  size_t cs = s->chunk_size;
  for (int i = 0; i < k; i++) {
    const unsigned char *p = f[i].data;
    for (size_t off = 0; off < f[i].len; off += cs) {
      rows[pending++] = (chunk_row){ino[i], (int64_t)(off / cs), p + off,
                                    f[i].len - off < cs ? f[i].len - off : cs};
      if (pending == STORE_BATCH_MAX) {
        if ((err = put_chunk_rows(s, rows, floor_log2(STORE_BATCH_MAX)))) return err;
        pending = 0;
      }
    }
  }
  for (int at = 0; at < pending;) {
    int lg = floor_log2((size_t)(pending - at));
    if ((err = put_chunk_rows(s, rows + at, lg))) return err;
    at += 1 << lg;
  }
  return touch(s, dir->ino, sec, ns);
}

int store_i_replace(store *s, const store_stat *st, const void *data, size_t len) {
  int err = data_type_ok(st);
  if (err) return err;
  if (len > (size_t)SSIZE_MAX) return -EFBIG;
  /* As truncating to 0 and writing: EFBIG for any size over the limit, the
   * byte quota by the net change. */
  if (s->quota.max_file_size && len > s->quota.max_file_size) return -EFBIG;
  if ((err = store_quota_bytes(s, (int64_t)len - (int64_t)st->size))) return err;
  uint64_t cs = s->chunk_size, chunks = (len + cs - 1) / cs;
  if (st->size > chunks * cs) { /* old chunks past the new end go */
    sqlite3_stmt *q = store_stmt(s, ST_DATA_TRUNC_AFTER);
    if (!q) return -EIO;
    sqlite3_bind_int64(q, 1, st->ino);
    sqlite3_bind_int64(q, 2, (int64_t)chunks - 1);
    if ((err = store_step_done(s, q))) return err;
  }
  if ((err = put_data(s, st->ino, data, len))) return err;
  return set_size(s, st->ino, len);
}

int store_i_truncate(store *s, const store_stat *st, uint64_t size) {
  int err = data_type_ok(st);
  if (err) return err;
  if ((err = grow_ok(s, st->size, size))) return err;
  uint64_t cs = s->chunk_size;
  if (size < st->size) {
    int64_t last = size == 0 ? -1 : (int64_t)((size - 1) / cs);
    sqlite3_stmt *q = store_stmt(s, ST_DATA_TRUNC_AFTER);
    if (!q) return -EIO;
    sqlite3_bind_int64(q, 1, st->ino);
    sqlite3_bind_int64(q, 2, last);
    if ((err = store_step_done(s, q))) return err;
    if (last >= 0) {
      q = store_stmt(s, ST_DATA_TRIM);
      if (!q) return -EIO;
      sqlite3_bind_int64(q, 1, st->ino);
      sqlite3_bind_int64(q, 2, last);
      sqlite3_bind_int64(q, 3, (int64_t)(size - (uint64_t)last * cs));
      if ((err = store_step_done(s, q))) return err;
    }
  } else if (size > st->size) {
    if ((err = pad_last_chunk(s, st->ino, st->size, size))) return err;
    if ((err = zero_chunks(s, st->ino, (st->size + cs - 1) / cs, (size - 1) / cs, size)))
      return err;
  }
  return set_size(s, st->ino, size);
}

static void set_time(int64_t *sec, uint32_t *nsec, int64_t to_sec, uint32_t to_nsec) {
  *sec = to_sec;
  *nsec = to_nsec > 999999999u ? 999999999u : to_nsec;
}

int store_i_setattr(store *s, const store_stat *cur, const store_setattr *a, int which,
                    store_stat *st_out) {
  int owner = s->uid == cur->uid, err;
  store_stat nw = *cur;
  int64_t sec;
  uint32_t ns;
  store_now(&sec, &ns);
  /* All checks first, so a refused field changes nothing. */
  if ((which & STORE_SET_MODE) && !owner) return -EPERM;
  if ((which & STORE_SET_UID) && a->uid != cur->uid && !owner) return -EPERM;
  if ((which & STORE_SET_GID) && a->gid != cur->gid && !owner) return -EPERM;
  int explicit_time = which & (STORE_SET_ATIME | STORE_SET_MTIME);
  int now_time = which & (STORE_SET_ATIME_NOW | STORE_SET_MTIME_NOW);
  if (explicit_time && !owner) return -EPERM;
  if (now_time && !owner && store_i_perm(s, cur, W_OK)) return -EACCES;
  if (which & STORE_SET_SIZE) {
    if ((err = data_type_ok(cur))) return err;
    if ((err = store_i_perm(s, cur, W_OK))) return err;
  }
  if (which & STORE_SET_MODE) nw.mode = (cur->mode & S_IFMT) | (a->mode & 07777);
  if (which & STORE_SET_UID) nw.uid = a->uid;
  if (which & STORE_SET_GID) nw.gid = a->gid;
  if (which & STORE_SET_ATIME_NOW)
    set_time(&nw.atime, &nw.atime_nsec, sec, ns);
  else if (which & STORE_SET_ATIME)
    set_time(&nw.atime, &nw.atime_nsec, a->atime, a->atime_nsec);
  if (which & STORE_SET_MTIME_NOW)
    set_time(&nw.mtime, &nw.mtime_nsec, sec, ns);
  else if (which & STORE_SET_MTIME)
    set_time(&nw.mtime, &nw.mtime_nsec, a->mtime, a->mtime_nsec);
  if (which & STORE_SET_SIZE) {
    if ((err = store_i_truncate(s, cur, a->size))) return err;
    nw.size = a->size;
    if (!(which & (STORE_SET_MTIME | STORE_SET_MTIME_NOW)))
      set_time(&nw.mtime, &nw.mtime_nsec, sec, ns);
  }
  if (S_ISDIR(cur->mode) &&
      (nw.mode != cur->mode || nw.uid != cur->uid || nw.gid != cur->gid))
    store_dcache_clear(s); /* invariant 2 of the cache */
  if (which) {
    set_time(&nw.ctime, &nw.ctime_nsec, sec, ns);
    sqlite3_stmt *q = store_stmt(s, ST_SETATTR);
    if (!q) return -EIO;
    sqlite3_bind_int64(q, 1, cur->ino);
    sqlite3_bind_int64(q, 2, nw.mode);
    sqlite3_bind_int64(q, 3, nw.uid);
    sqlite3_bind_int64(q, 4, nw.gid);
    sqlite3_bind_int64(q, 5, nw.atime);
    sqlite3_bind_int64(q, 6, nw.atime_nsec);
    sqlite3_bind_int64(q, 7, nw.mtime);
    sqlite3_bind_int64(q, 8, nw.mtime_nsec);
    sqlite3_bind_int64(q, 9, nw.ctime);
    sqlite3_bind_int64(q, 10, nw.ctime_nsec);
    if ((err = store_step_done(s, q))) return err;
  }
  if (st_out) *st_out = nw;
  return 0;
}

/* ---- public inode API ------------------------------------------------------------ */

int store_getattr(store *s, store_ino ino, store_stat *st) {
  return store_i_getattr(s, ino, st);
}

/* The directory `dir` as a searchable directory. */
static int get_dir(store *s, store_ino dir, store_stat *st) {
  int err = store_i_getattr(s, dir, st);
  if (err) return err;
  return S_ISDIR(st->mode) ? 0 : -ENOTDIR;
}

int store_lookup(store *s, store_ino dir, const char *name, store_stat *st) {
  store_stat d;
  int err = get_dir(s, dir, &d);
  if (err) return err;
  if ((err = store_i_perm(s, &d, X_OK))) return err;
  size_t nlen = strlen(name);
  if ((err = store_i_check_name(name, nlen))) return err;
  if (nlen == 1 && name[0] == '.') {
    *st = d;
    return 0;
  }
  if (nlen == 2 && name[0] == '.' && name[1] == '.') {
    if (dir == STORE_ROOT_INO) {
      *st = d;
      return 0;
    }
    sqlite3_stmt *q = store_stmt(s, ST_DENTRY_PARENT);
    if (!q) return -EIO;
    sqlite3_bind_int64(q, 1, dir);
    int rc = sqlite3_step(q);
    store_ino parent = rc == SQLITE_ROW ? sqlite3_column_int64(q, 0) : 0;
    err = rc == SQLITE_ROW ? 0 : rc == SQLITE_DONE ? -ENOENT : store_sqlerr(s, rc);
    sqlite3_reset(q);
    return err ? err : store_i_getattr(s, parent, st);
  }
  return store_i_lookup(s, dir, name, nlen, st);
}

int store_access(store *s, store_ino ino, int mask) {
  store_stat st;
  int err = store_i_getattr(s, ino, &st);
  if (err || mask == 0) return err;
  return store_i_perm(s, &st, mask);
}

int store_setattr_ino(store *s, store_ino ino, const store_setattr *a, int which,
                      store_stat *st_out) {
  int err = store_tx_begin(s);
  if (err) return err;
  store_stat cur;
  err = store_i_getattr(s, ino, &cur);
  if (!err) err = store_i_setattr(s, &cur, a, which, st_out);
  return store_tx_end(s, err);
}

/* One batch of readdir rows, copied out so callbacks may call the store. */
#define READDIR_BATCH 32
typedef struct readdir_row {
  int64_t id;                    /* dentry id = cookie */
  store_ino ino;                 /* entry's inode */
  uint32_t mode;                 /* entry's mode */
  uint16_t len;                  /* name length */
  char name[STORE_NAME_MAX + 1]; /* name bytes, NUL-terminated */
} readdir_row;

static void memo_put(store *s, store_ino dir, const readdir_row *r) {
  store_cookie_memo *m = &s->memo[s->memo_next++ % STORE_COOKIE_MEMO];
  m->cookie = r->id;
  m->dir = dir;
  m->len = r->len;
  memcpy(m->name, r->name, r->len + 1u);
}

/* The name an `after` cookie stands for: from the dentry while it exists,
 * else from the ring of recently delivered entries (the entry was deleted
 * between two readdir calls, e.g. by rm -r through FUSE). */
static int cookie_name(store *s, store_ino dir, int64_t after, char *name, int *len) {
  sqlite3_stmt *q = store_stmt(s, ST_DENTRY_NAME);
  if (!q) return -EIO;
  sqlite3_bind_int64(q, 1, after);
  sqlite3_bind_int64(q, 2, dir);
  int rc = sqlite3_step(q), err = -ESTALE;
  if (rc == SQLITE_ROW) {
    int n = sqlite3_column_bytes(q, 0);
    const void *t = sqlite3_column_blob(q, 0);
    if (n > STORE_NAME_MAX) n = STORE_NAME_MAX;
    if (n) memcpy(name, t, (size_t)n);
    *len = n;
    err = 0;
  } else if (rc != SQLITE_DONE) {
    err = store_sqlerr(s, rc);
  }
  sqlite3_reset(q);
  if (err != -ESTALE) return err;
  for (unsigned i = 0; i < STORE_COOKIE_MEMO; i++) {
    const store_cookie_memo *m = &s->memo[i];
    if (m->cookie == after && m->dir == dir && m->len) {
      memcpy(name, m->name, m->len);
      *len = m->len;
      return 0;
    }
  }
  return -ESTALE;
}

int store_readdir(store *s, store_ino dir, int64_t after, store_readdir_cb cb, void *ud) {
  store_stat d;
  int err = get_dir(s, dir, &d);
  if (err) return err;
  if ((err = store_i_perm(s, &d, R_OK))) return err;
  char from[STORE_NAME_MAX + 1];
  int flen = 0;
  if (after > 0 && (err = cookie_name(s, dir, after, from, &flen))) return err;
  readdir_row *rows = malloc(READDIR_BATCH * sizeof *rows);
  if (!rows) return -ENOMEM;
  int ret = 0;
  for (;;) {
    sqlite3_stmt *q = store_stmt(s, ST_READDIR);
    if (!q) {
      ret = -EIO;
      break;
    }
    sqlite3_bind_int64(q, 1, dir);
    sqlite3_bind_text(q, 2, from, flen, SQLITE_STATIC);
    sqlite3_bind_int(q, 3, READDIR_BATCH);
    int n = 0, rc;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
      readdir_row *r = &rows[n];
      int len = sqlite3_column_bytes(q, 1);
      const void *t = sqlite3_column_blob(q, 1);
      if (len > STORE_NAME_MAX) len = STORE_NAME_MAX; /* malformed row */
      r->id = sqlite3_column_int64(q, 0);
      r->ino = sqlite3_column_int64(q, 2);
      r->mode = (uint32_t)store_col_i64(q, 3);
      r->len = (uint16_t)len;
      if (len) memcpy(r->name, t, (size_t)len);
      r->name[len] = 0;
      n++;
    }
    ret = rc == SQLITE_DONE ? 0 : store_sqlerr(s, rc);
    sqlite3_reset(q);
    sqlite3_clear_bindings(q);
    if (ret || n == 0) break;
    for (int i = 0; i < n && !ret; i++) {
      memo_put(s, dir, &rows[i]);
      store_dirent e = {rows[i].name, rows[i].ino, rows[i].mode, rows[i].id};
      ret = cb(ud, &e);
    }
    if (ret || n < READDIR_BATCH) break;
    flen = rows[n - 1].len;
    memcpy(from, rows[n - 1].name, (size_t)flen);
  }
  free(rows);
  return ret;
}

int store_name_list_add(store_name_list *l, const char *name) {
  if (l->n == l->cap) {
    size_t cap = l->cap ? l->cap * 2 : 32;
    char **names = realloc(l->names, cap * sizeof *names);
    if (!names) {
      l->nomem = 1;
      return -ENOMEM;
    }
    l->names = names;
    l->cap = cap;
  }
  if (!(l->names[l->n] = strdup(name))) {
    l->nomem = 1;
    return -ENOMEM;
  }
  l->n++;
  return 0;
}

static int name_list_add_entry(void *ud, const store_dirent *e) {
  return store_name_list_add(ud, e->name);
}

int store_readdir_names(store *s, store_ino dir, store_name_list *l) {
  return store_readdir(s, dir, 0, name_list_add_entry, l);
}

void store_name_list_free(store_name_list *l) {
  for (size_t i = 0; i < l->n; i++) free(l->names[i]);
  free(l->names);
}

static int mknod_pub(store *s, store_ino dir, const char *name, uint32_t mode,
                     const char *target, store_stat *st) {
  int err = store_tx_begin(s);
  if (err) return err;
  store_stat d;
  err = store_i_getattr(s, dir, &d);
  if (!err) err = store_i_mknod(s, &d, name, strlen(name), mode, target, st);
  return store_tx_end(s, err);
}

int store_create(store *s, store_ino dir, const char *name, uint32_t mode,
                 store_stat *st) {
  return mknod_pub(s, dir, name, S_IFREG | (mode & 07777), NULL, st);
}

int store_mkdir(store *s, store_ino dir, const char *name, uint32_t mode,
                store_stat *st) {
  return mknod_pub(s, dir, name, S_IFDIR | (mode & 07777), NULL, st);
}

int store_symlink(store *s, store_ino dir, const char *name, const char *target,
                  store_stat *st) {
  if (!target) return -EINVAL;
  return mknod_pub(s, dir, name, S_IFLNK | 0777, target, st);
}

static int unlink_pub(store *s, store_ino dir, const char *name, int want_dir) {
  int err = store_tx_begin(s);
  if (err) return err;
  store_stat d;
  err = store_i_getattr(s, dir, &d);
  if (!err) err = store_i_unlink(s, &d, name, strlen(name), want_dir);
  return store_tx_end(s, err);
}

int store_unlink(store *s, store_ino dir, const char *name) {
  return unlink_pub(s, dir, name, 0);
}

int store_rmdir(store *s, store_ino dir, const char *name) {
  return unlink_pub(s, dir, name, 1);
}

int store_rename(store *s, store_ino olddir, const char *oldname, store_ino newdir,
                 const char *newname, int flags) {
  int err = store_tx_begin(s);
  if (err) return err;
  store_stat od, nd;
  err = store_i_getattr(s, olddir, &od);
  if (!err) err = store_i_getattr(s, newdir, &nd);
  if (!err)
    err = store_i_rename(s, &od, oldname, strlen(oldname), &nd, newname, strlen(newname),
                         flags);
  return store_tx_end(s, err);
}

int store_link(store *s, store_ino ino, store_ino newdir, const char *newname,
               store_stat *st) {
  int err = store_tx_begin(s);
  if (err) return err;
  store_stat t, nd;
  err = store_i_getattr(s, ino, &t);
  if (!err) err = store_i_getattr(s, newdir, &nd);
  if (!err) err = store_i_link(s, &t, &nd, newname, strlen(newname), st);
  return store_tx_end(s, err);
}

ssize_t store_readlink(store *s, store_ino ino, char *buf, size_t bufsz) {
  store_stat st;
  int err = store_i_getattr(s, ino, &st);
  if (err) return err;
  if (!S_ISLNK(st.mode)) return -EINVAL;
  return store_i_readlink(s, ino, buf, bufsz);
}

ssize_t store_read(store *s, store_ino ino, void *buf, size_t n, uint64_t off) {
  store_stat st;
  int err = store_i_getattr(s, ino, &st);
  if (err) return err;
  return store_i_read(s, &st, buf, n, off);
}

int store_access_stat(store *s, const store_stat *st, int mask) {
  return mask == 0 ? 0 : store_i_perm(s, st, mask);
}

ssize_t store_read_stat(store *s, const store_stat *st, void *buf, size_t n, uint64_t off) {
  return store_i_read(s, st, buf, n, off);
}

ssize_t store_write(store *s, store_ino ino, const void *buf, size_t n, uint64_t off) {
  int err = store_tx_begin(s);
  if (err) return err;
  store_stat st;
  ssize_t r = store_i_getattr(s, ino, &st);
  if (!r) r = store_i_write(s, &st, buf, n, off);
  if (r < 0) return store_tx_end(s, (int)r);
  int e = store_tx_end(s, 0);
  return e < 0 ? e : r;
}

int store_truncate(store *s, store_ino ino, uint64_t size) {
  int err = store_tx_begin(s);
  if (err) return err;
  store_stat st;
  err = store_i_getattr(s, ino, &st);
  if (!err) err = store_i_truncate(s, &st, size);
  return store_tx_end(s, err);
}
