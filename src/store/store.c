/*
 * store.c - opening and closing a store: the AgentFS 0.4 schema, schema
 * validation, the prepared-statement cache, transactions (savepoints), quota
 * bookkeeping and snapshots (image, open from image, copy to a file).
 *
 * Opening. An empty database gets the AgentFS schema, created statement by
 * statement in the same order and with the same text as the AgentFS tools
 * (see shared/fixtures/agentfs-0.4-sample.db: `.schema` output is identical),
 * then the root inode (ino 1, mode 040755, nlink 1, no dentry). A non-empty
 * database is validated with one query that names every column we use:
 * missing tables or columns, an unknown schema_version or a bad chunk_size
 * give STORE_ESCHEMA; bytes that are not SQLite give STORE_ECORRUPT. Nothing
 * is written to a database that fails validation (WAL mode is switched on
 * only after it passes).
 *
 * A temporary sandbox's file is written by this process from known bytes
 * (STORE_OPEN_TRUSTED): it skips the validation query and the WAL switch,
 * which are most of an open after SQLite's own schema parse.
 *
 * Read-only. A store opened with STORE_OPEN_READONLY, or whose file SQLite
 * could only open read-only (file permissions), is a read-only store: every
 * mutating call returns -EROFS before touching anything. store_open does not
 * fail on a read-only file; callers that need to write find out at the first
 * write (or with store_readonly()).
 *
 * Transactions. The outermost level is BEGIN IMMEDIATE (the write lock is
 * taken up front, so two writers never deadlock on a lock upgrade) and
 * COMMIT; nested levels are SAVEPOINT sbx / RELEASE sbx / ROLLBACK TO sbx.
 * Each level saves the quota totals; rolling back restores them, so a failed
 * call changes neither the database nor the counters. Reads run outside any
 * explicit transaction (autocommit) unless the caller has one open.
 *
 * Quotas. The running totals (regular files' bytes, inode count) are
 * computed once, when a non-zero quota is first set, and then maintained by
 * every call (store_quota_bytes / store_quota_inodes), never re-summed.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "store/store_internal.h"

/* The schema exactly as the AgentFS 0.4 tools write it (order included:
 * sqlite_sequence appears when tool_calls, the first AUTOINCREMENT table, is
 * created). The config rows and the root inode follow. */
static const char schema_sql[] =
    "CREATE TABLE kv_store (key TEXT PRIMARY KEY, value TEXT NOT NULL, created_at "
    "INTEGER DEFAULT (unixepoch ()), updated_at INTEGER DEFAULT (unixepoch ()));"
    "CREATE TABLE fs_config (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
    /* SQLite creates sqlite_sequence after the first AUTOINCREMENT table; the
     * AgentFS tools have it before tool_calls: a throw-away AUTOINCREMENT
     * table creates it in that place. */
    "CREATE TABLE sbx_sequence_init (id INTEGER PRIMARY KEY AUTOINCREMENT);"
    "DROP TABLE sbx_sequence_init;"
    "CREATE TABLE tool_calls (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT "
    "NULL, parameters TEXT, result TEXT, error TEXT, status TEXT NOT NULL DEFAULT "
    "'pending', started_at INTEGER NOT NULL, completed_at INTEGER, duration_ms "
    "INTEGER);"
    "CREATE INDEX IF NOT EXISTS idx_kv_store_created_at ON kv_store (created_at);"
    "CREATE TABLE fs_inode (ino INTEGER PRIMARY KEY AUTOINCREMENT, mode INTEGER NOT "
    "NULL, nlink INTEGER NOT NULL DEFAULT 0, uid INTEGER NOT NULL DEFAULT 0, gid "
    "INTEGER NOT NULL DEFAULT 0, size INTEGER NOT NULL DEFAULT 0, atime INTEGER NOT "
    "NULL, mtime INTEGER NOT NULL, ctime INTEGER NOT NULL, rdev INTEGER NOT NULL "
    "DEFAULT 0, atime_nsec INTEGER NOT NULL DEFAULT 0, mtime_nsec INTEGER NOT NULL "
    "DEFAULT 0, ctime_nsec INTEGER NOT NULL DEFAULT 0);"
    "CREATE INDEX IF NOT EXISTS idx_tool_calls_name ON tool_calls (name);"
    "CREATE TABLE fs_dentry (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT "
    "NULL, parent_ino INTEGER NOT NULL, ino INTEGER NOT NULL, UNIQUE (parent_ino, "
    "name));"
    "CREATE INDEX IF NOT EXISTS idx_tool_calls_started_at ON tool_calls "
    "(started_at);"
    "CREATE INDEX IF NOT EXISTS idx_fs_dentry_parent ON fs_dentry (parent_ino, "
    "name);"
    "CREATE TABLE fs_data (ino INTEGER NOT NULL, chunk_index INTEGER NOT NULL, data "
    "BLOB NOT NULL, PRIMARY KEY (ino, chunk_index));"
    "CREATE TABLE fs_symlink (ino INTEGER PRIMARY KEY, target TEXT NOT NULL);"
    "INSERT INTO fs_config (key, value) VALUES ('chunk_size', '4096');"
    "INSERT INTO fs_config (key, value) VALUES ('schema_version', '0.4');"
    /* SQLite stores CREATE INDEX without its IF NOT EXISTS; the AgentFS tools
     * keep the statement text verbatim. Restore it so the schema text is the
     * tools' byte for byte (the parsed schema is the same either way). */
    "PRAGMA writable_schema = ON;"
    "UPDATE sqlite_master SET sql = 'CREATE INDEX IF NOT EXISTS ' || substr(sql, 14) "
    "WHERE type = 'index' AND sql LIKE 'CREATE INDEX idx_%';"
    "PRAGMA writable_schema = OFF;";

/* One query naming every table and column the store uses: it fails to
 * prepare on anything that is not an AgentFS 0.4 database. */
static const char validate_sql[] =
    "SELECT (SELECT value FROM fs_config WHERE key = 'schema_version'),"
    " (SELECT value FROM fs_config WHERE key = 'chunk_size'),"
    " (SELECT mode FROM fs_inode WHERE ino = 1),"
    " (SELECT count(*) FROM (SELECT ino, mode, nlink, uid, gid, size, rdev, atime,"
    "   mtime, ctime, atime_nsec, mtime_nsec, ctime_nsec FROM fs_inode LIMIT 0)),"
    " (SELECT count(*) FROM (SELECT id, name, parent_ino, ino FROM fs_dentry LIMIT 0)),"
    " (SELECT count(*) FROM (SELECT ino, chunk_index, data FROM fs_data LIMIT 0)),"
    " (SELECT count(*) FROM (SELECT ino, target FROM fs_symlink LIMIT 0)),"
    " (SELECT count(*) FROM (SELECT key, value, created_at, updated_at FROM kv_store"
    "   LIMIT 0)),"
    " (SELECT count(*) FROM (SELECT id, name, parameters, result, error, status,"
    "   started_at, completed_at, duration_ms FROM tool_calls LIMIT 0))";

#define STAT_COLS                                                             \
  "ino, mode, nlink, uid, gid, size, rdev, atime, mtime, ctime, atime_nsec, " \
  "mtime_nsec, ctime_nsec"
#define STAT_COLS_I                                                          \
  "i.ino, i.mode, i.nlink, i.uid, i.gid, i.size, i.rdev, i.atime, i.mtime, " \
  "i.ctime, i.atime_nsec, i.mtime_nsec, i.ctime_nsec"

/* SQL of every cached statement, indexed by enum store_stmt_id. */
static const char *const stmt_sql[ST_COUNT] = {
    [ST_BEGIN] = "BEGIN IMMEDIATE",
    [ST_COMMIT] = "COMMIT",
    [ST_ROLLBACK] = "ROLLBACK",
    [ST_SAVEPOINT] = "SAVEPOINT sbx",
    [ST_RELEASE] = "RELEASE sbx",
    [ST_ROLLBACK_TO] = "ROLLBACK TO sbx",
    [ST_GETATTR] = "SELECT " STAT_COLS " FROM fs_inode WHERE ino = ?1",
    [ST_LOOKUP] = "SELECT " STAT_COLS_I
                  " FROM fs_dentry d JOIN fs_inode i ON "
                  "i.ino = d.ino WHERE d.parent_ino = ?1 AND d.name = ?2",
    /* The lookup of a file's last component for a whole-file read: a small
     * regular file comes with its one chunk. */
    [ST_LOOKUP_DATA] =
        "SELECT i.ino, i.mode, i.uid, i.gid, i.size, f.data "
        "FROM fs_dentry d JOIN fs_inode i ON i.ino = d.ino "
        "LEFT JOIN fs_data f ON f.ino = i.ino AND f.chunk_index = 0 AND "
        "i.size <= ?3 AND (i.mode & 61440) = 32768 "
        "WHERE d.parent_ino = ?1 AND d.name = ?2",
    [ST_READDIR] =
        "SELECT d.id, d.name, d.ino, i.mode FROM fs_dentry d JOIN "
        "fs_inode i ON i.ino = d.ino WHERE d.parent_ino = ?1 AND "
        "d.name > ?2 ORDER BY d.name LIMIT ?3",
    [ST_DENTRY_PARENT] = "SELECT parent_ino FROM fs_dentry WHERE ino = ?1 LIMIT 1",
    [ST_DENTRY_NAME] = "SELECT name FROM fs_dentry WHERE id = ?1 AND parent_ino = ?2",
    [ST_INODE_INSERT] =
        "INSERT INTO fs_inode (mode, nlink, uid, gid, size, atime, mtime, ctime, "
        "rdev, atime_nsec, mtime_nsec, ctime_nsec) VALUES (?1, 1, ?2, ?3, ?4, ?5, "
        "?5, ?5, 0, ?6, ?6, ?6)",
    [ST_DENTRY_INSERT] =
        "INSERT INTO fs_dentry (name, parent_ino, ino) VALUES (?1, ?2, ?3)",
    [ST_DENTRY_DELETE] = "DELETE FROM fs_dentry WHERE parent_ino = ?1 AND name = ?2",
    [ST_DENTRY_MOVE] =
        "UPDATE fs_dentry SET parent_ino = ?3, name = ?4 WHERE "
        "parent_ino = ?1 AND name = ?2",
    [ST_NLINK_ADD] =
        "UPDATE fs_inode SET nlink = nlink + ?2, ctime = ?3, "
        "ctime_nsec = ?4 WHERE ino = ?1",
    [ST_INODE_DELETE] = "DELETE FROM fs_inode WHERE ino = ?1",
    [ST_DATA_DELETE_ALL] = "DELETE FROM fs_data WHERE ino = ?1",
    [ST_SYMLINK_DELETE] = "DELETE FROM fs_symlink WHERE ino = ?1",
    [ST_SYMLINK_INSERT] = "INSERT INTO fs_symlink (ino, target) VALUES (?1, ?2)",
    [ST_SYMLINK_GET] = "SELECT target FROM fs_symlink WHERE ino = ?1",
    [ST_DIR_HAS_CHILD] = "SELECT 1 FROM fs_dentry WHERE parent_ino = ?1 LIMIT 1",
    [ST_SET_SIZE] =
        "UPDATE fs_inode SET size = ?2, mtime = ?3, mtime_nsec = ?4, "
        "ctime = ?3, ctime_nsec = ?4 WHERE ino = ?1",
    [ST_TOUCH] =
        "UPDATE fs_inode SET mtime = ?2, mtime_nsec = ?3, ctime = ?2, "
        "ctime_nsec = ?3 WHERE ino = ?1",
    [ST_SETATTR] =
        "UPDATE fs_inode SET mode = ?2, uid = ?3, gid = ?4, atime = ?5, "
        "atime_nsec = ?6, mtime = ?7, mtime_nsec = ?8, ctime = ?9, "
        "ctime_nsec = ?10 WHERE ino = ?1",
    [ST_DATA_READ] =
        "SELECT chunk_index, data FROM fs_data WHERE ino = ?1 AND "
        "chunk_index BETWEEN ?2 AND ?3 ORDER BY chunk_index",
    [ST_DATA_GET_CHUNK] = "SELECT data FROM fs_data WHERE ino = ?1 AND chunk_index = ?2",
    [ST_DATA_PUT] =
        "INSERT OR REPLACE INTO fs_data (ino, chunk_index, data) "
        "VALUES (?1, ?2, ?3)",
    [ST_DATA_TRUNC_AFTER] = "DELETE FROM fs_data WHERE ino = ?1 AND chunk_index > ?2",
    [ST_DATA_TRIM] =
        "UPDATE fs_data SET data = substr(data, 1, ?3) WHERE ino = ?1 "
        "AND chunk_index = ?2 AND length(data) > ?3",
    /* Is ?2 a directory inside the tree of directory ?1 (or ?1 itself)?
     * UNION (not UNION ALL) makes it terminate even on a damaged cyclic tree. */
    [ST_SUBTREE_HAS] =
        "WITH RECURSIVE sub(ino) AS (SELECT ?1 UNION SELECT d.ino FROM fs_dentry d "
        "JOIN sub ON d.parent_ino = sub.ino JOIN fs_inode i ON i.ino = d.ino AND "
        "(i.mode & 61440) = 16384) SELECT 1 FROM sub WHERE ino = ?2 LIMIT 1",
    [ST_TOTALS] =
        "SELECT count(*), total(CASE WHEN (mode & 61440) = 32768 THEN "
        "size ELSE 0 END) FROM fs_inode",
    [ST_KV_GET] = "SELECT value FROM kv_store WHERE key = ?1",
    [ST_KV_SET] =
        "INSERT INTO kv_store (key, value, created_at, updated_at) "
        "VALUES (?1, ?2, ?3, ?3) ON CONFLICT (key) DO UPDATE SET "
        "value = excluded.value, updated_at = excluded.updated_at",
    [ST_KV_DELETE] = "DELETE FROM kv_store WHERE key = ?1",
    [ST_KV_KEYS_RANGE] =
        "SELECT key FROM kv_store WHERE key >= ?1 AND key < ?2 ORDER BY key",
    [ST_KV_KEYS_FROM] = "SELECT key FROM kv_store WHERE key >= ?1 ORDER BY key",
    [ST_JSON_VALID] = "SELECT json_valid(?1)",
    [ST_CALL_START] =
        "INSERT INTO tool_calls (name, parameters, status, "
        "started_at) VALUES (?1, ?2, 'pending', ?3)",
    [ST_CALL_GET] = "SELECT status, started_at FROM tool_calls WHERE id = ?1",
    [ST_CALL_FINISH] =
        "UPDATE tool_calls SET result = ?2, error = ?3, status = ?4, "
        "completed_at = ?5, duration_ms = ?6 WHERE id = ?1 AND status = 'pending'",
    [ST_CALL_LIST] =
        "SELECT id, name, parameters, result, error, status, "
        "started_at, completed_at, duration_ms FROM tool_calls ORDER "
        "BY id DESC LIMIT ?1",
    [ST_CALL_RECORD] =
        "INSERT INTO tool_calls (name, parameters, result, error, status, "
        "started_at, completed_at, duration_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6, "
        "?7, ?8)",
    [ST_CALL_PRUNE_ID] = "DELETE FROM tool_calls WHERE id <= ?1",
    [ST_CALL_PRUNE_AGE] = "DELETE FROM tool_calls WHERE started_at < ?1",
};

/* ---- small helpers --------------------------------------------------------- */

void store_now(int64_t *sec, uint32_t *nsec) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  *sec = (int64_t)ts.tv_sec;
  *nsec = (uint32_t)ts.tv_nsec;
}

static void keep_msg(store *s, const char *msg) {
  snprintf(s->errmsg, sizeof s->errmsg, "%s", msg ? msg : "");
}

int store_sqlerr(store *s, int rc) {
  keep_msg(s, sqlite3_errmsg(s->db));
  switch (rc & 0xff) {
    case SQLITE_OK:
    case SQLITE_ROW:
    case SQLITE_DONE:
      return 0;
    case SQLITE_NOMEM:
      return -ENOMEM;
    case SQLITE_FULL:
      s->host_full = 1;
      return -ENOSPC;
    case SQLITE_READONLY:
      return -EROFS;
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return -EBUSY;
    case SQLITE_TOOBIG:
      return -EFBIG;
    case SQLITE_PERM:
    case SQLITE_AUTH:
      return -EACCES;
    case SQLITE_IOERR: {
      /* The host filesystem (or the user's disk quota) is full: say so,
       * not "Input/output error". */
      int e = sqlite3_system_errno(s->db);
      if (e == ENOSPC || e == EDQUOT) {
        s->host_full = 1;
        return -ENOSPC;
      }
      return -EIO;
    }
    default:
      return -EIO;
  }
}

/* After a write failed on a full host filesystem: the outermost transaction
 * is rolled back; fold the WAL into the database and truncate it, so that the
 * space the failed write took in the WAL is given back and the next writes
 * (deleting files to make room, above all) find it. Best effort: the
 * checkpoint may find no room either, and then the next write fails cleanly. */
static void reclaim_after_full(store *s) {
  if (!s->host_full || s->depth > 0) return;
  s->host_full = 0;
  sqlite3_exec(s->db, "PRAGMA wal_checkpoint(TRUNCATE)", NULL, NULL, NULL);
}

sqlite3_stmt *store_stmt(store *s, int id) {
  sqlite3_stmt *q = s->stmt[id];
  if (!q) {
    int rc =
        sqlite3_prepare_v3(s->db, stmt_sql[id], -1, SQLITE_PREPARE_PERSISTENT, &q, NULL);
    if (rc != SQLITE_OK) {
      keep_msg(s, sqlite3_errmsg(s->db));
      sqlite3_finalize(q);
      return NULL;
    }
    s->stmt[id] = q;
  }
  return q;
}

int store_step_done(store *s, sqlite3_stmt *q) {
  int rc = sqlite3_step(q);
  int err = (rc == SQLITE_DONE || rc == SQLITE_ROW) ? 0 : store_sqlerr(s, rc);
  sqlite3_reset(q);
  sqlite3_clear_bindings(q);
  return err;
}

int64_t store_col_i64(sqlite3_stmt *q, int col) {
  if (sqlite3_column_type(q, col) == SQLITE_FLOAT) {
    double d = sqlite3_column_double(q, col);
    if (!(d == d)) return 0; /* NaN */
    if (d >= 9.2e18) return INT64_MAX;
    if (d <= -9.2e18) return INT64_MIN;
    return (int64_t)d;
  }
  return sqlite3_column_int64(q, col);
}

static uint32_t clamp_u32(int64_t v) {
  return v < 0 ? 0 : v > (int64_t)UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

void store_col_stat(sqlite3_stmt *q, int c, store_stat *st) {
  /* One sqlite3_column_type per column: INTEGER is the rule (then one
   * sqlite3_column_int64), REAL and NULL the exception. */
  int64_t v[13];
  int real[13];
  for (int k = 0; k < 13; k++) {
    int t = sqlite3_column_type(q, c + k);
    real[k] = t == SQLITE_FLOAT;
    v[k] = t == SQLITE_INTEGER ? sqlite3_column_int64(q, c + k)
           : real[k]           ? store_col_i64(q, c + k)
           : t == SQLITE_NULL  ? 0
                               : sqlite3_column_int64(q, c + k);
  }
  st->ino = v[0];
  st->mode = clamp_u32(v[1]);
  st->nlink = clamp_u32(v[2]);
  st->uid = clamp_u32(v[3]);
  st->gid = clamp_u32(v[4]);
  st->size = v[5] < 0 ? 0 : (uint64_t)v[5];
  st->rdev = v[6] < 0 ? 0 : (uint64_t)v[6];
  /* Times may be REAL (seconds with a fraction): the fraction becomes the
   * nanoseconds when the _nsec column is 0. */
  for (int k = 0; k < 3; k++) {
    int64_t sec = v[7 + k];
    uint32_t ns = clamp_u32(v[10 + k]);
    if (ns == 0 && real[7 + k]) {
      double d = sqlite3_column_double(q, c + 7 + k);
      double frac = d - (double)sec;
      if (frac > 0 && frac < 1) ns = (uint32_t)(frac * 1e9);
    }
    if (ns > 999999999u) ns = 999999999u;
    int64_t *secp = k == 0 ? &st->atime : k == 1 ? &st->mtime : &st->ctime;
    uint32_t *nsp = k == 0 ? &st->atime_nsec : k == 1 ? &st->mtime_nsec : &st->ctime_nsec;
    *secp = sec;
    *nsp = ns;
  }
}

/* ---- open / close ----------------------------------------------------------- */

static int set_errmsg(char **errmsg, const char *fmt, const char *detail) {
  if (errmsg) {
    size_t n = strlen(fmt) + (detail ? strlen(detail) : 0) + 1;
    char *m = malloc(n);
    if (m) snprintf(m, n, fmt, detail ? detail : "");
    free(*errmsg);
    *errmsg = m;
  }
  return 0;
}

/* Maps a failure of the first real read of a database to STORE_E* codes. */
/* EMFILE or ENFILE when the last SQLite failure on `db` came from an
 * open(2) that ran out of file descriptors (SQLite reports it as a plain
 * I/O or cannot-open error), else 0. */
static int fd_shortage(sqlite3 *db) {
  int prim = db ? sqlite3_errcode(db) & 0xff : 0;
  if (prim != SQLITE_IOERR && prim != SQLITE_CANTOPEN) return 0;
  int e = sqlite3_system_errno(db);
  return e == EMFILE || e == ENFILE ? e : 0;
}

static int open_err(sqlite3 *db, int rc, char **errmsg) {
  int prim = rc & 0xff;
  set_errmsg(errmsg, "%s", sqlite3_errmsg(db));
  int fde = fd_shortage(db);
  if (fde) return -fde;
  if (prim == SQLITE_NOTADB || prim == SQLITE_CORRUPT) return STORE_ECORRUPT;
  if (prim == SQLITE_CANTOPEN) return -EACCES;
  if (prim == SQLITE_BUSY || prim == SQLITE_LOCKED) return -EBUSY;
  if (prim == SQLITE_NOMEM) return -ENOMEM;
  if (prim == SQLITE_READONLY) return STORE_EROFS;
  return -EIO;
}

/* Runs `sql` returning one integer (or -1 on error, rc in *rcp). */
static int64_t query_int(sqlite3 *db, const char *sql, int *rcp) {
  sqlite3_stmt *q = NULL;
  int64_t v = -1;
  int rc = sqlite3_prepare_v2(db, sql, -1, &q, NULL);
  if (rc == SQLITE_OK) {
    rc = sqlite3_step(q);
    if (rc == SQLITE_ROW) {
      v = sqlite3_column_int64(q, 0);
      rc = SQLITE_OK;
    } else if (rc == SQLITE_DONE) {
      rc = SQLITE_OK;
    }
  }
  sqlite3_finalize(q);
  *rcp = rc;
  return v;
}

/* Validates an AgentFS database and reads chunk_size. */
static int validate(store *s, char **errmsg) {
  sqlite3_stmt *q = NULL;
  int rc = sqlite3_prepare_v2(s->db, validate_sql, -1, &q, NULL);
  if (rc != SQLITE_OK) {
    int prim = rc & 0xff;
    if (prim == SQLITE_ERROR) {
      set_errmsg(errmsg, "not an AgentFS 0.4 database: %s", sqlite3_errmsg(s->db));
      return STORE_ESCHEMA;
    }
    return open_err(s->db, rc, errmsg);
  }
  rc = sqlite3_step(q);
  if (rc != SQLITE_ROW) {
    int err = open_err(s->db, rc, errmsg);
    sqlite3_finalize(q);
    return err;
  }
  int err = 0;
  const char *ver = (const char *)sqlite3_column_text(q, 0);
  int64_t chunk = sqlite3_column_type(q, 1) == SQLITE_NULL ? 0 : store_col_i64(q, 1);
  int64_t root_mode = sqlite3_column_type(q, 2) == SQLITE_NULL ? 0 : store_col_i64(q, 2);
  if (!ver || strcmp(ver, "0.4") != 0) {
    set_errmsg(errmsg, "unsupported AgentFS schema_version '%s' (want 0.4)",
               ver ? ver : "(none)");
    err = STORE_ESCHEMA;
  } else if (chunk < 1 || chunk > (16 << 20)) {
    set_errmsg(errmsg, "bad fs_config chunk_size%s", "");
    err = STORE_ESCHEMA;
  } else if (!S_ISDIR((uint32_t)root_mode)) {
    set_errmsg(errmsg, "root inode 1 missing or not a directory%s", "");
    err = STORE_ESCHEMA;
  } else {
    s->chunk_size = (uint32_t)chunk;
  }
  sqlite3_finalize(q);
  if (!err) {
    /* A trigger would run inside our own statements, beyond any deadline
     * (one with an endless recursive CTE hangs every write), and the AgentFS
     * schema has none: a database that brings one is refused. */
    int64_t triggers =
        query_int(s->db, "SELECT count(*) FROM sqlite_master WHERE type = 'trigger'", &rc);
    if (rc != SQLITE_OK) return open_err(s->db, rc, errmsg);
    if (triggers > 0) {
      set_errmsg(errmsg, "not an AgentFS 0.4 database: it has triggers%s", "");
      err = STORE_ESCHEMA;
    }
  }
  return err;
}

/* ---- the schema template ----------------------------------------------------
 * Creating the schema statement by statement costs about a millisecond of
 * parsing. It is done once per process into an in-memory database whose
 * serialized bytes are the template; a new store copies the template
 * (sqlite3_deserialize for a memory store, the backup API for a file) and
 * then sets the root's times. The template is built under pthread_once and
 * kept for the life of the process. */

static pthread_once_t template_once = PTHREAD_ONCE_INIT;
static unsigned char *template_bytes; /* serialized empty store (sqlite3_malloc) */
static sqlite3_int64 template_len;    /* its length */

/* Runs the schema script (and the root inode with times 0) in `db`. */
static int exec_schema(sqlite3 *db, char **msg) {
  static const char root[] =
      "INSERT INTO fs_inode (ino, mode, nlink, uid, gid, size, atime, mtime, ctime, "
      "rdev, atime_nsec, mtime_nsec, ctime_nsec) VALUES (1, 16877, 1, 0, 0, 0, 0, 0, "
      "0, 0, 0, 0, 0);";
  int rc = sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, msg);
  if (rc == SQLITE_OK) rc = sqlite3_exec(db, schema_sql, NULL, NULL, msg);
  if (rc == SQLITE_OK) rc = sqlite3_exec(db, root, NULL, NULL, msg);
  if (rc == SQLITE_OK) rc = sqlite3_exec(db, "COMMIT", NULL, NULL, msg);
  if (rc != SQLITE_OK && !sqlite3_get_autocommit(db))
    sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
  return rc;
}

static void template_build(void) {
  sqlite3 *db = NULL;
  if (sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
                      NULL) == SQLITE_OK &&
      exec_schema(db, NULL) == SQLITE_OK)
    template_bytes = sqlite3_serialize(db, "main", &template_len, 0);
  sqlite3_close(db);
}

/* A sandbox opened from an image (sqlite3_deserialize, a memdb) may grow
 * past SQLite's default cap of SQLITE_MEMDB_DEFAULT_MAXSIZE (1 GiB), up to
 * SQLite's largest allocation (the buffer is one block): about 1 GiB of file
 * data more than before, bounded further by the quotas. */
static void memory_size_unbounded(sqlite3 *db) {
  sqlite3_int64 limit = 0x7fffff00; /* SQLITE_MAX_ALLOCATION_SIZE */
  sqlite3_file_control(db, "main", SQLITE_FCNTL_SIZE_LIMIT, &limit);
}

/* The statement that sets the root's times to now, in root[200]. */
static void template_root_sql(char root[200]) {
  int64_t now;
  uint32_t ns;
  store_now(&now, &ns);
  snprintf(root, 200,
           "UPDATE fs_inode SET atime = %lld, mtime = %lld, ctime = %lld, atime_nsec "
           "= %u, mtime_nsec = %u, ctime_nsec = %u WHERE ino = 1",
           (long long)now, (long long)now, (long long)now, ns, ns, ns);
}

/* Loads a copy of the template (built on first use) into the main database
 * of `db`, as it is. */
static int template_deserialize(sqlite3 *db) {
  pthread_once(&template_once, template_build);
  if (!template_bytes) return SQLITE_NOMEM;
  unsigned char *copy = sqlite3_malloc64((sqlite3_uint64)template_len);
  if (!copy) return SQLITE_NOMEM;
  memcpy(copy, template_bytes, (size_t)template_len);
  return sqlite3_deserialize(db, "main", copy, template_len, template_len,
                             SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_RESIZEABLE);
}

/* Loads a copy of the template into the main database of `db` and sets the
 * root's times to now. */
static int template_load(sqlite3 *db) {
  char root[200];
  template_root_sql(root);
  int rc = template_deserialize(db);
  if (rc == SQLITE_OK) rc = sqlite3_exec(db, root, NULL, NULL, NULL);
  return rc;
}

/* ---- creating a database file ----------------------------------------------
 * A missing file is made outside SQLite, in four steps that cost two
 * fdatasync(2) in all:
 *   1. the template (root times now), its header marked WAL (bytes 18-19 =
 *      2), is written to a new file beside `path` (PATH.sbx-new-PID-N,
 *      O_EXCL, mode 0644 less the umask, as SQLite would create it);
 *   2. fdatasync of that file;
 *   3. link(2) to `path`: atomic and never replaces a file (EEXIST: another
 *      process created it first; theirs is opened and ours dropped);
 *   4. fdatasync of the directory, so the new name survives a crash.
 * When store_open returns, the whole empty sandbox is on disk: stronger than
 * the SQLite route (journal switch to WAL, then the schema in the WAL, then
 * a checkpoint at close: seven syncs, and the schema durable only at the
 * checkpoint). A crash can leave a stray PATH.sbx-new-* file, never a
 * half-written PATH. Commits after that keep SQLite's WAL guarantees
 * (synchronous=NORMAL: atomic, durable at the next checkpoint). */

int store_write_all(int fd, const void *buf, size_t len) {
  const char *p = buf;
  while (len > 0) {
    ssize_t w = write(fd, p, len);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return w < 0 ? errno : EIO;
    p += w;
    len -= (size_t)w;
  }
  return 0;
}

/* Syncs the directory holding `path` (best effort: some file systems
 * refuse to sync a directory, which then has nothing to lose). */
static void sync_parent(const char *path) {
  const char *slash = strrchr(path, '/');
  char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : NULL;
  int fd = open(dir ? dir : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  free(dir);
  if (fd >= 0) {
    fdatasync(fd);
    close(fd);
  }
}

/* Makes the missing file `path` as above. 0: `path` exists now (ours or
 * another's); 1: this file system cannot (no hard links, name too long):
 * let SQLite create it; -errno: failed (message in *errmsg). */
static int create_file(const char *path, char **errmsg) {
  static _Atomic unsigned counter;
  sqlite3 *db = NULL;
  sqlite3_int64 len = 0;
  unsigned char *img = NULL;
  int rc = sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
  if (rc == SQLITE_OK) rc = template_load(db);
  if (rc == SQLITE_OK) img = sqlite3_serialize(db, "main", &len, 0);
  sqlite3_close(db);
  if (!img || len < 100) {
    sqlite3_free(img);
    set_errmsg(errmsg, "creating the AgentFS schema: out of memory%s", "");
    return -ENOMEM;
  }
  img[18] = img[19] = 2; /* WAL: opened as is, no journal-mode switch */
  size_t n = strlen(path) + 48;
  char *tmp = malloc(n);
  int fd = -1, e = ENOMEM;
  for (int i = 0; tmp && i < 16; i++) {
    snprintf(tmp, n, "%s.sbx-new-%ld-%u", path, (long)getpid(), counter++);
    fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
    e = fd < 0 ? errno : 0;
    if (e != EEXIST) break;
  }
  if (!e) {
    e = store_write_all(fd, img, (size_t)len);
    if (!e && fdatasync(fd) != 0) e = errno;
    if (close(fd) != 0 && !e) e = errno;
    if (!e && link(tmp, path) != 0 && errno != EEXIST) e = errno;
    unlink(tmp);
    if (!e) sync_parent(path);
  }
  free(tmp);
  sqlite3_free(img);
  if (!e) return 0;
  if (e == ENAMETOOLONG || e == EPERM || e == EOPNOTSUPP || e == ENOSYS || e == EMLINK)
    return 1;
  set_errmsg(errmsg, "creating the database file: %s", strerror(e));
  return -e;
}

/* Copies the template into the empty main database of s->db and sets the
 * root's times, by the backup API from a private deserialized copy (whose
 * root is updated first), so a file gets everything in one write
 * transaction. A memory store is filled the same way and stays a plain
 * ":memory:" database: a deserialized one (memdb) is one buffer that grows
 * by doubling and cannot pass SQLite's largest allocation (2 GiB), so it
 * failed at 906 MiB of file data (the 1 GiB default cap) or ~1 GiB (the
 * doubling); the pages of a plain one have no cap but the quotas. */
static int copy_template(store *s, int is_file) {
  char root[200];
  template_root_sql(root);
  sqlite3 *src = NULL;
  int rc = sqlite3_open_v2(":memory:", &src, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
  if (rc == SQLITE_OK) rc = template_deserialize(src);
  /* A file gets the root's times before the copy (one write transaction);
   * a memory store after it, so that only s->db parses the schema (the
   * parse is most of an open's cost). */
  if (rc == SQLITE_OK && is_file) rc = sqlite3_exec(src, root, NULL, NULL, NULL);
  if (rc == SQLITE_OK) {
    sqlite3_backup *b = sqlite3_backup_init(s->db, "main", src, "main");
    if (!b) {
      rc = sqlite3_errcode(s->db);
    } else {
      rc = sqlite3_backup_step(b, -1);
      int rc2 = sqlite3_backup_finish(b);
      rc = rc == SQLITE_DONE ? rc2 : rc;
    }
  }
  sqlite3_close(src);
  if (rc == SQLITE_OK && !is_file) rc = sqlite3_exec(s->db, root, NULL, NULL, NULL);
  return rc;
}

/* Creates the schema in an empty database from the template. */
static int create_schema(store *s, int is_file, char **errmsg) {
  int rc = copy_template(s, is_file);
  if (rc != SQLITE_OK) {
    set_errmsg(errmsg, "creating the AgentFS schema: %s", sqlite3_errmsg(s->db));
    int fde = fd_shortage(s->db);
    if (fde) return -fde;
    return (rc & 0xff) == SQLITE_READONLY ? STORE_EROFS
           : (rc & 0xff) == SQLITE_NOMEM  ? -ENOMEM
                                          : -EIO;
  }
  return 0;
}

/* Common part of store_open and store_open_image once s->db is open. */
static int setup(store *s, int may_create, int is_file, int flags, char **errmsg) {
  int rc;
  sqlite3_extended_result_codes(s->db, 1);
  sqlite3_busy_timeout(s->db, 5000);
  s->readonly = sqlite3_db_readonly(s->db, "main") == 1;
  /* WAL with synchronous=NORMAL: a commit is durable at the next checkpoint
   * and never torn (SQLite's WAL guarantees); OFF for temporary files. */
  if (is_file)
    sqlite3_exec(s->db,
                 (flags & STORE_OPEN_NOSYNC) ? "PRAGMA synchronous=OFF"
                                             : "PRAGMA synchronous=NORMAL",
                 NULL, NULL, NULL);
  /* Pages of the database file are read through a memory map, not one
   * pread(2) each: reading a 10 MB file back costs ~2,900 system calls
   * without it (the page cache holds 2 MB). Writes still go through the WAL
   * with write(2); only the address space is reserved (up to 1 GiB). */
  if (is_file) sqlite3_exec(s->db, "PRAGMA mmap_size=1073741824", NULL, NULL, NULL);
  /* Savepoints' sub-journals in memory: past 64 KiB SQLite spills them to a
   * temporary file in /var/tmp (open, write, unlink), which every nested
   * write (a file helper inside its call's transaction, the history rows
   * riding with a commit) would pay. They hold only pages the savepoint
   * changed, so their size follows the transaction's. */
  sqlite3_exec(s->db, "PRAGMA temp_store=MEMORY", NULL, NULL, NULL);
  if (flags & STORE_OPEN_TRUSTED) {
    /* bytes this process made or checked a moment ago: chunk_size only */
    int64_t cs =
        query_int(s->db, "SELECT value FROM fs_config WHERE key = 'chunk_size'", &rc);
    if (rc != SQLITE_OK) return open_err(s->db, rc, errmsg);
    if (cs < 1 || cs > (16 << 20)) {
      set_errmsg(errmsg, "bad fs_config chunk_size%s", "");
      return STORE_ESCHEMA;
    }
    s->chunk_size = (uint32_t)cs;
    return 0;
  }
  /* The first read: it tells SQLite from other bytes and empty from not. */
  int64_t n = query_int(s->db, "SELECT count(*) FROM sqlite_master", &rc);
  if (rc != SQLITE_OK) return open_err(s->db, rc, errmsg);
  if (n == 0) {
    if (!may_create) {
      set_errmsg(errmsg, "empty database: not an AgentFS 0.4 database%s", "");
      return STORE_ESCHEMA;
    }
    if (s->readonly) {
      set_errmsg(errmsg, "empty read-only database: cannot create the schema%s", "");
      return STORE_EROFS;
    }
    /* WAL first: the creating transaction then needs no fsync (the first
     * checkpoint makes it durable), instead of three rollback-journal ones. */
    if (is_file) sqlite3_exec(s->db, "PRAGMA journal_mode=WAL", NULL, NULL, NULL);
    int err = create_schema(s, is_file, errmsg);
    if (err) return err;
  }
  int err = validate(s, errmsg);
  if (err) return err;
  if (is_file && !s->readonly) {
    /* Only now, once the database is known to be ours. Switching needs an
     * exclusive moment; a database another process holds stays in its mode,
     * which is fine for correctness. */
    sqlite3_exec(s->db, "PRAGMA journal_mode=WAL", NULL, NULL, NULL);
  }
  s->umask = 022;
  return 0;
}

static store *store_alloc(void) {
  store *s = calloc(1, sizeof *s);
  if (s) {
    s->umask = 022;
    s->dcache_epoch = 1; /* calloc'd entries (epoch 0) are empty */
    s->hist_max_rows = STORE_HISTORY_DEFAULT_ROWS;
    s->hist_unpruned = STORE_HISTORY_PRUNE_EVERY; /* the first insert prunes */
    if (store_i_holds_init(s)) {
      free(s);
      s = NULL;
    }
  }
  return s;
}

/* Opens `path` read-only with the URI parameter immutable=1. */
static int open_immutable(const char *path, store **out, char **errmsg) {
  size_t n = strlen(path);
  char *uri = malloc(3 * n + 32);
  if (!uri) return -ENOMEM;
  char *u = uri + sprintf(uri, "file:");
  for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
    if (*p == '?' || *p == '#' || *p == '%')
      u += sprintf(u, "%%%02X", *p);
    else
      *u++ = (char)*p;
  }
  strcpy(u, "?immutable=1");
  store *s = store_alloc();
  if (!s) {
    free(uri);
    return -ENOMEM;
  }
  int rc = sqlite3_open_v2(uri, &s->db,
                           SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX |
                               SQLITE_OPEN_PRIVATECACHE,
                           NULL);
  free(uri);
  int err = rc == SQLITE_OK ? setup(s, 0, 1, 0, errmsg) : -EACCES;
  if (err) {
    if (rc != SQLITE_OK) set_errmsg(errmsg, "%s", sqlite3_errmsg(s->db));
    store_close(s);
    return err;
  }
  s->readonly = 1;
  *out = s;
  return 0;
}

/* Once per process, before this library's first SQLite call: no memory
 * statistics. With them on (SQLite's default) every sqlite3_malloc and
 * sqlite3_free takes one process-wide mutex, which serializes the stores of
 * all threads (issue 19: N threads on N sandboxes). When the process has
 * initialized SQLite already (another user of it), the call is refused and
 * nothing changes. */
static pthread_once_t sqlite_config_once = PTHREAD_ONCE_INIT;
static void sqlite_config(void) {
  sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

int store_open(const char *path, int flags, store **out, char **errmsg) {
  pthread_once(&sqlite_config_once, sqlite_config);
  *out = NULL;
  if (errmsg) *errmsg = NULL;
  int memory = (flags & STORE_OPEN_MEMORY) != 0;
  if (!memory && (!path || !*path)) {
    set_errmsg(errmsg, "no database path%s", "");
    return -EINVAL;
  }
  int of = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_PRIVATECACHE;
  if (memory) {
    path = ":memory:";
    of |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
  } else if (flags & STORE_OPEN_READONLY) {
    of |= SQLITE_OPEN_READONLY;
  } else {
    of |=
        SQLITE_OPEN_READWRITE | ((flags & STORE_OPEN_NOCREATE) ? 0 : SQLITE_OPEN_CREATE);
  }
  if (!memory) {
    struct stat sb;
    if (stat(path, &sb) == 0) {
      if (S_ISDIR(sb.st_mode)) {
        set_errmsg(errmsg, "%s: is a directory", path);
        return -EISDIR;
      }
    } else if (errno == ENOENT && (flags & (STORE_OPEN_READONLY | STORE_OPEN_NOCREATE))) {
      set_errmsg(errmsg, "%s: no such file", path);
      return -ENOENT;
    } else if (errno == ENOENT) {
      int err = create_file(path, errmsg);
      if (err < 0) return err;
    }
  }
  store *s = store_alloc();
  if (!s) return -ENOMEM;
  int rc = sqlite3_open_v2(path, &s->db, of, NULL);
  int err;
  if (rc != SQLITE_OK) {
    set_errmsg(errmsg, "%s", s->db ? sqlite3_errmsg(s->db) : "cannot open");
    int fde = fd_shortage(s->db);
    err = fde                         ? -fde
          : (rc & 0xff) == SQLITE_NOMEM ? -ENOMEM
          : access(path, F_OK) != 0   ? -ENOENT
                                      : -EACCES;
  } else {
    err = setup(s, !(flags & STORE_OPEN_READONLY), !memory,
                flags & (STORE_OPEN_NOSYNC | STORE_OPEN_TRUSTED), errmsg);
  }
  if ((err == -EACCES || err == STORE_EROFS) && !memory &&
      ((flags & STORE_OPEN_READONLY) ||
       (s->db && sqlite3_db_readonly(s->db, "main") == 1))) {
    /* A read-only WAL database in a directory we cannot write (no -shm can
     * be made): read it as an immutable file, which needs no locks and no
     * -shm. If that fails too, the first error stands. */
    store_close(s);
    if (open_immutable(path, out, NULL) == 0) {
      if (errmsg) {
        free(*errmsg);
        *errmsg = NULL;
      }
      return 0;
    }
    return err;
  }
  if (err) {
    store_close(s);
    return err;
  }
  /* Orphans of a crashed process; a trusted open is a fresh copy: all. */
  store_i_reclaim_orphans(s, memory || (flags & STORE_OPEN_TRUSTED));
  *out = s;
  return 0;
}

/* SQLite's header: 16 magic bytes, then the page size (big-endian u16, 1 =
 * 65536) and the write/read format versions (1 legacy, 2 WAL). */
static int image_header_ok(const unsigned char *p, size_t len) {
  static const char magic[16] = "SQLite format 3";
  if (len < 512 || memcmp(p, magic, 16) != 0) return 0;
  uint32_t ps = ((uint32_t)p[16] << 8) | p[17];
  if (ps == 1) ps = 65536;
  if (ps < 512 || ps > 65536 || (ps & (ps - 1)) != 0) return 0;
  if (len % ps != 0) return 0;
  if (p[18] < 1 || p[18] > 2 || p[19] < 1 || p[19] > 2) return 0;
  return 1;
}

int store_open_image(const void *bytes, size_t len, store **out, char **errmsg) {
  pthread_once(&sqlite_config_once, sqlite_config);
  *out = NULL;
  if (errmsg) *errmsg = NULL;
  if (!bytes || !image_header_ok(bytes, len)) {
    set_errmsg(errmsg, "not an SQLite database image%s", "");
    return STORE_ECORRUPT;
  }
  store *s = store_alloc();
  if (!s) return -ENOMEM;
  int err = 0;
  int rc = sqlite3_open_v2(":memory:", &s->db,
                           SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
                               SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_PRIVATECACHE,
                           NULL);
  unsigned char *copy = NULL;
  if (rc == SQLITE_OK) {
    copy = sqlite3_malloc64(len);
    if (!copy) rc = SQLITE_NOMEM;
  }
  if (rc == SQLITE_OK) {
    memcpy(copy, bytes, len);
    /* A WAL-mode image would need a -wal file: an in-memory database uses
     * the legacy format (the bytes are a private copy; the caller's are
     * untouched). */
    copy[18] = copy[19] = 1;
    rc = sqlite3_deserialize(
        s->db, "main", copy, (sqlite3_int64)len, (sqlite3_int64)len,
        SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_RESIZEABLE);
    copy = NULL; /* owned by SQLite now (freed on close or on failure) */
    if (rc == SQLITE_OK) memory_size_unbounded(s->db);
  }
  if (rc != SQLITE_OK) {
    set_errmsg(errmsg, "%s", sqlite3_errmsg(s->db));
    err = (rc & 0xff) == SQLITE_NOMEM ? -ENOMEM : STORE_ECORRUPT;
  } else {
    /* Damaged pages are found now, not in the middle of a later call. */
    sqlite3_stmt *q = NULL;
    rc = sqlite3_prepare_v2(s->db, "PRAGMA quick_check", -1, &q, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_step(q);
    if (rc == SQLITE_ROW) {
      const char *r = (const char *)sqlite3_column_text(q, 0);
      if (!r || strcmp(r, "ok") != 0) {
        set_errmsg(errmsg, "damaged database image: %s", r ? r : "");
        err = STORE_ECORRUPT;
      }
    } else {
      err = open_err(s->db, rc, errmsg);
      if (err == STORE_EROFS || err == -EIO) err = STORE_ECORRUPT;
    }
    sqlite3_finalize(q);
    if (!err) err = setup(s, 0, 0, 0, errmsg);
  }
  if (err) {
    store_close(s);
    return err;
  }
  store_i_reclaim_orphans(s, 1); /* a copy: no handle of it can be open */
  *out = s;
  return 0;
}

static int push_frame(store *s);
static int pop_frame(store *s, int ok);

void store_close(store *s) {
  if (!s) return;
  if (s->depth == 0) store_calls_flush(s); /* what a clean close keeps */
  store_i_calls_drop(s);
  if (s->holds && s->depth == 0 && !s->readonly && store_i_waiting(s) && push_frame(s) == 0)
    pop_frame(s, store_i_free_waiting(s) == 0);
  store_i_holds_free(s);
  for (int i = 0; i < ST_COUNT; i++) sqlite3_finalize(s->stmt[i]);
  sqlite3_finalize(s->log_multi);
  for (int t = 0; t < STORE_MULTI_TABLES; t++)
    for (int k = 0; k < STORE_MULTI_SIZES; k++) sqlite3_finalize(s->multi[t][k]);
  if (s->db && !sqlite3_get_autocommit(s->db))
    sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
  sqlite3_close(s->db);
  free(s->chunk_buf);
  free(s->frames);
  free(s);
}

const char *store_errmsg(const store *s) {
  return s ? s->errmsg : "";
}
void store_set_cred(store *s, uint32_t uid, uint32_t gid) {
  s->uid = uid;
  s->gid = gid;
}
void store_set_umask(store *s, uint32_t umask) {
  s->umask = umask & 0777;
}
struct sqlite3 *store_db(store *s) {
  return s->db;
}
uint64_t store_generation(const store *s) {
  return s->generation;
}
int store_readonly(const store *s) {
  return s->readonly;
}
uint32_t store_chunk_size(const store *s) {
  return s->chunk_size;
}

/* ---- quotas ----------------------------------------------------------------- */

static int compute_totals(store *s) {
  sqlite3_stmt *q = store_stmt(s, ST_TOTALS);
  if (!q) return -EIO;
  int rc = sqlite3_step(q);
  int err = 0;
  if (rc == SQLITE_ROW) {
    s->inodes = (uint64_t)sqlite3_column_int64(q, 0);
    double b = sqlite3_column_double(q, 1);
    s->bytes = b > 0 ? (uint64_t)b : 0;
    s->have_totals = 1;
    /* Frames opened before the totals existed get them now. */
    for (int i = 0; i < s->depth; i++) {
      s->frames[i].bytes = s->bytes;
      s->frames[i].inodes = s->inodes;
    }
  } else {
    err = store_sqlerr(s, rc);
  }
  sqlite3_reset(q);
  return err;
}

void store_set_quota(store *s, const store_quota *q) {
  static const store_quota none;
  s->quota = q ? *q : none;
  if (!s->have_totals && (s->quota.max_bytes || s->quota.max_inodes))
    compute_totals(s); /* on failure: computed at the next quota check */
}

void store_get_quota(const store *s, store_quota *q) { *q = s->quota; }

void store_usage_forget(store *s) { s->have_totals = 0; }

int store_get_usage(store *s, uint64_t *bytes, uint64_t *inodes) {
  if (!s->have_totals) {
    int err = compute_totals(s);
    if (err) return err;
  }
  if (bytes) *bytes = s->bytes;
  if (inodes) *inodes = s->inodes;
  return 0;
}

/* Adds delta to *total (s->bytes or s->inodes) under the limit max (0: none):
 * -ENOSPC when it would pass it; a negative delta stops at 0. The totals are
 * counted on first use, and only once a limit asks for them. */
static int quota_charge(store *s, uint64_t max, uint64_t *total, int64_t delta) {
  if (!s->have_totals) {
    if (!max) return 0;
    int err = compute_totals(s);
    if (err) return err;
  }
  if (delta > 0) {
    if (max && *total + (uint64_t)delta > max) return -ENOSPC;
    *total += (uint64_t)delta;
  } else {
    uint64_t d = (uint64_t)(-(delta + 1)) + 1; /* -delta, INT64_MIN too */
    *total = *total > d ? *total - d : 0;
  }
  return 0;
}

int store_quota_bytes(store *s, int64_t delta) {
  return quota_charge(s, s->quota.max_bytes, &s->bytes, delta);
}

int store_quota_inodes(store *s, int64_t delta) {
  return quota_charge(s, s->quota.max_inodes, &s->inodes, delta);
}

/* ---- transactions ------------------------------------------------------------- */

static int run(store *s, int id) {
  sqlite3_stmt *q = store_stmt(s, id);
  if (!q) return -EIO;
  return store_step_done(s, q);
}

static int push_frame(store *s) {
  if (s->depth == s->frames_cap) {
    int cap = s->frames_cap ? s->frames_cap * 2 : 8;
    store_tx_frame *f = realloc(s->frames, (size_t)cap * sizeof *f);
    if (!f) return -ENOMEM;
    s->frames = f;
    s->frames_cap = cap;
  }
  if (s->tx_aborted) return s->host_full ? -ENOSPC : -EIO; /* the cause, when known */
  int err = run(s, s->depth == 0 ? ST_BEGIN : ST_SAVEPOINT);
  if (err) return err;
  if (s->depth == 0) store_dcache_sync(s); /* the snapshot is ours now */
  s->frames[s->depth].bytes = s->bytes;
  s->frames[s->depth].inodes = s->inodes;
  s->depth++;
  return 0;
}

/* Pops a frame, committing (ok) or rolling it back. */
static int pop_frame(store *s, int ok) {
  if (s->depth == 0) return -EINVAL;
  int top = --s->depth;
  int err = 0;
  if (!ok || s->tx_aborted) store_dcache_clear(s); /* invariant 3 of the cache */
  if (s->tx_aborted) {
    /* SQLite already rolled the whole transaction back (e.g. on an I/O
     * error): unwind our stack without SQL and report the loss. */
    if (top == 0) s->tx_aborted = 0;
    s->bytes = s->frames[top].bytes;
    s->inodes = s->frames[top].inodes;
    int cause = s->host_full ? -ENOSPC : -EIO;
    reclaim_after_full(s);
    return ok ? cause : 0;
  }
  if (ok) {
    /* the calls waiting in memory ride along with this commit (store_kv.c);
     * a failed insert leaves them waiting and this commit alone */
    int logged = top == 0 && s->log_rows && store_i_calls_insert(s) == 0;
    err = run(s, top == 0 ? ST_COMMIT : ST_RELEASE);
    if (!err) {
      if (top == 0) store_dcache_committed(s);
      if (logged) store_i_calls_drop(s);
      return 0;
    }
    store_dcache_clear(s);
    if (top == 0 && !sqlite3_get_autocommit(s->db)) {
      /* COMMIT failed (e.g. busy): roll back so no half-state remains. */
      run(s, ST_ROLLBACK);
    }
  } else {
    if (top == 0) {
      if (!sqlite3_get_autocommit(s->db)) run(s, ST_ROLLBACK);
    } else {
      int e = run(s, ST_ROLLBACK_TO);
      if (!e) e = run(s, ST_RELEASE);
      if (e && sqlite3_get_autocommit(s->db)) s->tx_aborted = 1;
    }
  }
  s->bytes = s->frames[top].bytes;
  s->inodes = s->frames[top].inodes;
  if (top > 0 && sqlite3_get_autocommit(s->db)) s->tx_aborted = 1;
  reclaim_after_full(s);
  return err;
}

int store_tx_begin(store *s) {
  if (s->readonly) return -EROFS;
  /* Orphans whose holds were dropped from another thread: freed first, in a
   * transaction of their own (a failing call must not bring them back). */
  if (s->depth == 0 && store_i_waiting(s) && push_frame(s) == 0)
    pop_frame(s, store_i_free_waiting(s) == 0);
  int err = push_frame(s);
  if (!err) s->generation++;
  return err;
}

int store_tx_begin_meta(store *s) {
  if (s->readonly) return -EROFS;
  return push_frame(s);
}

int store_tx_end(store *s, int rc) {
  if (rc < 0) {
    pop_frame(s, 0);
    return rc;
  }
  int err = pop_frame(s, 1);
  return err ? err : rc;
}

int store_begin(store *s) {
  if (s->readonly) return -EROFS;
  return push_frame(s);
}

int store_commit(store *s) {
  if (s->depth == 0) return -EINVAL;
  return pop_frame(s, 1);
}

int store_rollback(store *s) {
  if (s->depth == 0) return -EINVAL;
  return pop_frame(s, 0);
}

/* ---- snapshots ------------------------------------------------------------------ */

/* Runs fn(ud, fd, n) on the database file of a file store (fd open for
 * reading, n its bytes) when that file alone is the store's current state:
 * after a checkpoint that emptied the WAL, inside a read transaction (a
 * snapshot at WAL frame 0: no checkpoint may write the file under it), with
 * the -wal file still empty. Returns fn's result (0 or -errno), or 1 when
 * the state is elsewhere too (another reader pinned the WAL, a transaction
 * is open, a memory store): the caller takes SQLite's way. */
static int with_file_snapshot(store *s, int (*fn)(void *ud, int fd, size_t n), void *ud) {
  const char *path = sqlite3_db_filename(s->db, "main");
  if (s->depth > 0 || s->readonly || !path || !*path) return 1;
  int nlog = -1, nckpt = -1;
  if (sqlite3_wal_checkpoint_v2(s->db, "main", SQLITE_CHECKPOINT_TRUNCATE, &nlog, &nckpt) !=
          SQLITE_OK ||
      nlog != 0)
    return 1;
  if (sqlite3_exec(s->db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK) return 1;
  int rc = 1;
  int64_t pages = query_int(s->db, "PRAGMA page_count", &rc);
  int64_t psize = rc == SQLITE_OK ? query_int(s->db, "PRAGMA page_size", &rc) : 0;
  char *wal = rc == SQLITE_OK ? sqlite3_mprintf("%s-wal", path) : NULL;
  struct stat ws;
  int err = 1;
  if (wal && (stat(wal, &ws) != 0 ? errno == ENOENT : ws.st_size == 0) && pages > 0 &&
      psize > 0 && (uint64_t)pages <= SIZE_MAX / (uint64_t)psize) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
      err = fn(ud, fd, (size_t)pages * (size_t)psize);
      close(fd);
    }
  }
  sqlite3_free(wal);
  sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL);
  return err;
}

/* with_file_snapshot: the file into a malloc'd image, one pread per MiB
 * (a page-by-page serialize and a copy of it were 6.8x a cp, issue 19). */
typedef struct image_out {
  void **bytes;
  size_t *len;
} image_out;

static int read_image(void *ud, int fd, size_t n) {
  image_out *o = ud;
  char *buf = malloc(n);
  if (!buf) return -ENOMEM;
  size_t off = 0;
  while (off < n) {
    ssize_t r = pread(fd, buf + off, n - off > (1u << 20) ? 1u << 20 : n - off, (off_t)off);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    off += (size_t)r;
  }
  if (off != n) {
    free(buf);
    return 1; /* shorter than SQLite says: let SQLite read it */
  }
  *o->bytes = buf;
  *o->len = n;
  return 0;
}

static int image_from_file(store *s, void **bytes, size_t *len) {
  image_out o = {bytes, len};
  return with_file_snapshot(s, read_image, &o);
}

int store_image(store *s, void **bytes, size_t *len) {
  *bytes = NULL;
  *len = 0;
  if (s->depth == 0) store_calls_flush(s); /* the image holds every call */
  int done = image_from_file(s, bytes, len);
  if (done <= 0) return done;
  /* Folding the WAL back is not needed for correctness (serialize reads
   * through the pager) but keeps the main file itself a complete copy. */
  if (s->depth == 0 && !s->readonly)
    sqlite3_wal_checkpoint_v2(s->db, "main", SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
  sqlite3_int64 n = 0;
  unsigned char *p = sqlite3_serialize(s->db, "main", &n, 0);
  if (!p) {
    keep_msg(s, sqlite3_errmsg(s->db));
    return -ENOMEM;
  }
  void *copy = malloc((size_t)n ? (size_t)n : 1);
  if (!copy) {
    sqlite3_free(p);
    return -ENOMEM;
  }
  memcpy(copy, p, (size_t)n);
  sqlite3_free(p);
  *bytes = copy;
  *len = (size_t)n;
  return 0;
}

/* The whole database into the new file `tmp` by the backup API: the pages as
 * they are (no rebuild of every b-tree as VACUUM INTO does: 2.8x a cp of
 * the file before, issue 19), without a journal (the file is not visible
 * until linked), then synced. 0 or -errno. */
static int backup_to(store *s, const char *tmp) {
  sqlite3 *dst = NULL;
  int rc = sqlite3_open_v2(tmp, &dst, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL);
  if (rc == SQLITE_OK)
    rc = sqlite3_exec(dst, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF", NULL, NULL, NULL);
  if (rc == SQLITE_OK) {
    sqlite3_backup *b = sqlite3_backup_init(dst, "main", s->db, "main");
    if (!b) {
      rc = sqlite3_errcode(dst);
    } else {
      rc = sqlite3_backup_step(b, -1);
      int rc2 = sqlite3_backup_finish(b);
      rc = rc == SQLITE_DONE ? rc2 : rc;
    }
  }
  if (rc != SQLITE_OK) keep_msg(s, dst ? sqlite3_errmsg(dst) : "out of memory");
  int err = rc == SQLITE_OK ? 0 : (rc & 0xff) == SQLITE_NOMEM ? -ENOMEM
                                  : (rc & 0xff) == SQLITE_FULL  ? -ENOSPC
                                                                : -EIO;
  if (sqlite3_close(dst) != SQLITE_OK && !err) err = -EIO;
  int fd = err ? -1 : open(tmp, O_RDONLY | O_CLOEXEC);
  if (!err && (fd < 0 || fdatasync(fd) != 0)) err = -errno;
  if (fd >= 0) close(fd);
  return err;
}

/* with_file_snapshot: the file's bytes into the fd *ud (copy_file_range:
 * in the kernel, as cp does), then synced. */
static int copy_file(void *ud, int fd, size_t n) {
  int out = *(int *)ud;
  loff_t in_off = 0, out_off = 0;
  while ((size_t)in_off < n) {
    ssize_t r = copy_file_range(fd, &in_off, out, &out_off, n - (size_t)in_off, 0);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0 && (errno == EXDEV || errno == ENOSYS || errno == EOPNOTSUPP || errno == EINVAL))
      return 1; /* not here: the backup API */
    if (r < 0) return -errno;
    if (r == 0) return 1;
  }
  return fdatasync(out) == 0 ? 0 : -errno;
}

/* A copy that may not be linked (a file system without hard links): VACUUM
 * INTO the path itself. */
static int vacuum_into(store *s, const char *path) {
  sqlite3_stmt *q = NULL;
  int rc = sqlite3_prepare_v2(s->db, "VACUUM INTO ?1", -1, &q, NULL);
  if (rc == SQLITE_OK) {
    sqlite3_bind_text(q, 1, path, -1, SQLITE_STATIC);
    rc = sqlite3_step(q);
  }
  int err = (rc == SQLITE_DONE || rc == SQLITE_OK) ? 0 : store_sqlerr(s, rc);
  sqlite3_finalize(q);
  if (!err) err = store_i_reclaim_in_copy(s, path); /* open files stay behind */
  /* The path did not exist before: whatever a failed VACUUM left is ours. */
  if (err) unlink(path);
  return err;
}

/* Copies into `tmp` beside the path and links it there, as create_file
 * does: the path appears complete or not at all, and an existing one is
 * never replaced (link fails with EEXIST). */
int store_copy_to(store *s, const char *path) {
  static _Atomic unsigned counter;
  if (!path || !*path) return -ENOENT;
  if (s->depth > 0) return -EBUSY; /* a copy needs no write transaction open */
  store_calls_flush(s);              /* the copy holds every call */
  struct stat sb;
  if (lstat(path, &sb) == 0) return -EEXIST;
  if (errno != ENOENT) return -errno;
  size_t n = strlen(path) + 48;
  char *tmp = malloc(n);
  if (!tmp) return -ENOMEM;
  int fd = -1, e = 0;
  for (int i = 0; i < 16; i++) {
    snprintf(tmp, n, "%s.sbx-fork-%ld-%u", path, (long)getpid(), counter++);
    fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
    e = fd < 0 ? errno : 0;
    if (e != EEXIST) break;
  }
  if (e) {
    free(tmp);
    return e == ENAMETOOLONG ? vacuum_into(s, path) : -e;
  }
  int err = with_file_snapshot(s, copy_file, &fd);
  close(fd);
  if (err == 1) {
    if (truncate(tmp, 0) != 0) err = -errno;
    else err = backup_to(s, tmp);
  }
  if (!err) err = store_i_reclaim_in_copy(s, tmp); /* open files stay behind */
  if (!err && link(tmp, path) != 0) err = -errno;
  unlink(tmp);
  free(tmp);
  if (err == -EPERM || err == -EOPNOTSUPP || err == -ENOSYS || err == -EMLINK)
    return vacuum_into(s, path);
  if (!err) sync_parent(path);
  return err;
}
