/*
 * store_kv.c - the key-value store (kv_store) and the call history
 * (tool_calls), in the AgentFS 0.4 layout.
 *
 * kv_store values are JSON text, validated with SQLite's json_valid() before
 * they are stored (-EINVAL otherwise). Times are unix seconds (INTEGER);
 * created_at is kept on update, updated_at refreshed. Prefix listing uses a
 * key range [prefix, successor(prefix)) so '%' and '_' are ordinary bytes
 * and the primary-key index does the work.
 *
 * tool_calls: start inserts status 'pending' with started_at in unix seconds
 * (INTEGER, as the SDK writes it); finish sets completed_at (seconds),
 * duration_ms (from a nanosecond start time kept in memory for calls started
 * by this store, else from started_at), result or error, and status
 * 'success' or 'error', with one UPDATE guarded by status = 'pending' (the
 * row is read only when the update finds nothing, to tell ENOENT from
 * EALREADY). record writes a finished call as one INSERT: the common case
 * (a shell or tool call recorded once it is over) costs one statement
 * instead of three. Reads accept REAL and NULL in every time column.
 *
 * Buffered calls (store_call_log): what every front records after a call
 * (bash, python through the CLI, the file helpers) is one row that nobody
 * reads until a history listing, so it waits in memory, one malloc'd block
 * per row, and rides along with the next commit of the store (the outermost
 * COMMIT inserts the waiting rows first, inside a savepoint so a failed
 * insert leaves the caller's own writes alone) or gets a transaction of its
 * own once STORE_HISTORY_BUFFER_ROWS rows wait or the oldest has waited
 * STORE_HISTORY_FLUSH_MS. A warm `echo hi` then costs a memcpy, not a WAL
 * commit (16.7x the shell alone before, bench/scale). Rows get their ids
 * when inserted: a call written at once (start, record) first flushes the
 * waiting ones, so ids stay in call order. What a crash can lose: the
 * waiting rows, at most STORE_HISTORY_BUFFER_ROWS (docs/limits.md).
 *
 * Retention: every STORE_HISTORY_PRUNE_EVERY-th insert of a call also
 * deletes, in its transaction, the ids beyond the newest max_rows (one range
 * DELETE on the primary key) and the calls started before the age limit
 * (one DELETE on idx_tool_calls_started_at), so the table stays bounded
 * (100,000 rows by default) at a cost spread over 64 inserts.
 *
 * Iterating calls (store_kv_keys, store_call_list) copy each row out before
 * the callback runs on a private statement when the cached one is busy, so
 * a callback may call back into the store.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store/store_internal.h"

/* The cached statement, or a fresh one when it is in use further up the
 * stack (a callback re-entered the store). *own tells the caller to
 * finalize it. */
static sqlite3_stmt *iter_stmt(store *s, int id, int *own) {
  sqlite3_stmt *q = store_stmt(s, id);
  *own = 0;
  if (q && sqlite3_stmt_busy(q)) {
    sqlite3_stmt *f = NULL;
    if (sqlite3_prepare_v2(s->db, sqlite3_sql(q), -1, &f, NULL) != SQLITE_OK) {
      sqlite3_finalize(f);
      return NULL;
    }
    *own = 1;
    return f;
  }
  return q;
}

static void iter_done(sqlite3_stmt *q, int own) {
  if (own) {
    sqlite3_finalize(q);
  } else {
    sqlite3_reset(q);
    sqlite3_clear_bindings(q);
  }
}

/* ---- kv ---------------------------------------------------------------------- */

int store_kv_get(store *s, const char *key, char **json) {
  *json = NULL;
  if (!key) return -EINVAL;
  sqlite3_stmt *q = store_stmt(s, ST_KV_GET);
  if (!q) return -EIO;
  sqlite3_bind_text(q, 1, key, -1, SQLITE_STATIC);
  int rc = sqlite3_step(q), err = 0;
  if (rc == SQLITE_ROW) {
    const void *v = sqlite3_column_blob(q, 0);
    size_t n = (size_t)sqlite3_column_bytes(q, 0);
    char *out = malloc(n + 1);
    if (!out) {
      err = -ENOMEM;
    } else {
      if (n) memcpy(out, v, n);
      out[n] = 0;
      *json = out;
    }
  } else {
    err = rc == SQLITE_DONE ? -ENOENT : store_sqlerr(s, rc);
  }
  sqlite3_reset(q);
  sqlite3_clear_bindings(q);
  return err;
}

static int json_ok(store *s, const char *json) {
  sqlite3_stmt *q = store_stmt(s, ST_JSON_VALID);
  if (!q) return -EIO;
  sqlite3_bind_text(q, 1, json, -1, SQLITE_STATIC);
  int rc = sqlite3_step(q);
  int r =
      rc == SQLITE_ROW ? (sqlite3_column_int(q, 0) ? 0 : -EINVAL) : store_sqlerr(s, rc);
  sqlite3_reset(q);
  sqlite3_clear_bindings(q);
  return r;
}

int store_kv_set(store *s, const char *key, const char *json) {
  if (!key || !json) return -EINVAL;
  int err = store_tx_begin_meta(s);
  if (err) return err;
  err = json_ok(s, json);
  if (!err) {
    sqlite3_stmt *q = store_stmt(s, ST_KV_SET);
    if (!q) {
      err = -EIO;
    } else {
      int64_t sec;
      uint32_t ns;
      store_now(&sec, &ns);
      sqlite3_bind_text(q, 1, key, -1, SQLITE_STATIC);
      sqlite3_bind_text(q, 2, json, -1, SQLITE_STATIC);
      sqlite3_bind_int64(q, 3, sec);
      err = store_step_done(s, q);
    }
  }
  return store_tx_end(s, err);
}

int store_kv_delete(store *s, const char *key) {
  if (!key) return -EINVAL;
  int err = store_tx_begin_meta(s);
  if (err) return err;
  sqlite3_stmt *q = store_stmt(s, ST_KV_DELETE);
  if (!q) {
    err = -EIO;
  } else {
    sqlite3_bind_text(q, 1, key, -1, SQLITE_STATIC);
    err = store_step_done(s, q);
    if (!err && sqlite3_changes(s->db) == 0) err = -ENOENT;
  }
  return store_tx_end(s, err);
}

int store_kv_keys(store *s, const char *prefix, int (*cb)(void *ud, const char *key),
                  void *ud) {
  if (!prefix) prefix = "";
  size_t plen = strlen(prefix);
  /* The smallest string above every string with this prefix: drop trailing
   * 0xff bytes and increment the last byte; none when all are 0xff. */
  char *hi = malloc(plen + 1);
  if (!hi) return -ENOMEM;
  memcpy(hi, prefix, plen + 1);
  size_t hlen = plen;
  while (hlen > 0 && (unsigned char)hi[hlen - 1] == 0xff) hlen--;
  if (hlen > 0) hi[hlen - 1] = (char)((unsigned char)hi[hlen - 1] + 1);
  int own;
  sqlite3_stmt *q = iter_stmt(s, hlen ? ST_KV_KEYS_RANGE : ST_KV_KEYS_FROM, &own);
  if (!q) {
    free(hi);
    return -EIO;
  }
  sqlite3_bind_text(q, 1, prefix, (int)plen, SQLITE_STATIC);
  if (hlen) sqlite3_bind_text(q, 2, hi, (int)hlen, SQLITE_STATIC);
  int rc, ret = 0;
  while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
    const char *k = (const char *)sqlite3_column_text(q, 0);
    if (!k) continue;
    if ((ret = cb(ud, k))) break;
  }
  if (!ret && rc != SQLITE_DONE) ret = store_sqlerr(s, rc);
  iter_done(q, own);
  free(hi);
  return ret;
}

/* ---- history ------------------------------------------------------------------- */

/* Binds a call's name (?1) and parameters (?2, NULL allowed). */
static void bind_call(sqlite3_stmt *q, const char *name, const char *parameters) {
  sqlite3_bind_text(q, 1, name, -1, SQLITE_STATIC);
  if (parameters)
    sqlite3_bind_text(q, 2, parameters, -1, SQLITE_STATIC);
  else
    sqlite3_bind_null(q, 2);
}

/* Inserts between two prunes: fewer for a small bound, so it stays exact. */
static unsigned prune_every(const store *s) {
  return s->hist_max_rows > 0 && s->hist_max_rows < 128 ? 1 : STORE_HISTORY_PRUNE_EVERY;
}

/* Deletes the history beyond the retention (see store_history_retention),
 * given the newest id, inside the caller's transaction. */
static int prune_calls(store *s, int64_t newest) {
  int err = 0;
  s->hist_unpruned = 0;
  if (s->hist_max_rows > 0) {
    /* room for the inserts until the next prune */
    int64_t keep = s->hist_max_rows - (int64_t)prune_every(s) + 1;
    sqlite3_stmt *q = store_stmt(s, ST_CALL_PRUNE_ID);
    if (!q) return -EIO;
    sqlite3_bind_int64(q, 1, newest - keep);
    err = store_step_done(s, q);
  }
  if (!err && s->hist_max_age > 0) {
    int64_t sec;
    uint32_t ns;
    store_now(&sec, &ns);
    sqlite3_stmt *q = store_stmt(s, ST_CALL_PRUNE_AGE);
    if (!q) return -EIO;
    sqlite3_bind_int64(q, 1, sec - s->hist_max_age);
    err = store_step_done(s, q);
  }
  return err;
}

/* Runs the bound INSERT `q` of a call and prunes when due, in the caller's
 * transaction; *rowid gets the new row's id. */
static int insert_row(store *s, sqlite3_stmt *q, int64_t *rowid) {
  int err = store_step_done(s, q);
  *rowid = sqlite3_last_insert_rowid(s->db);
  if (!err && ++s->hist_unpruned >= prune_every(s)) err = prune_calls(s, *rowid);
  return err;
}

/* insert_row, then ends the call's transaction. */
static int insert_call(store *s, sqlite3_stmt *q, int64_t *rowid) {
  return store_tx_end(s, insert_row(s, q, rowid));
}

/* The newest id in tool_calls (0 when empty). */
static int64_t query_max_id(store *s, int *err) {
  sqlite3_stmt *q = NULL;
  int64_t v = 0;
  int rc = sqlite3_prepare_v2(s->db, "SELECT max(id) FROM tool_calls", -1, &q, NULL);
  if (rc == SQLITE_OK) rc = sqlite3_step(q);
  if (rc == SQLITE_ROW) {
    v = sqlite3_column_int64(q, 0);
    rc = SQLITE_OK;
  }
  *err = rc == SQLITE_OK ? 0 : store_sqlerr(s, rc);
  sqlite3_finalize(q);
  return v;
}

int store_history_retention(store *s, int64_t max_rows, int64_t max_age_s) {
  if (max_rows < 0 || max_age_s < 0) return -EINVAL;
  s->hist_max_rows = max_rows;
  s->hist_max_age = max_age_s;
  if (s->readonly) return 0;
  int err = store_calls_flush(s);
  if (err) return err;
  err = store_tx_begin_meta(s);
  if (err) return err;
  int64_t newest = query_max_id(s, &err);
  if (!err) err = prune_calls(s, newest);
  return store_tx_end(s, err);
}

int store_call_start(store *s, const char *name, const char *parameters, int64_t *id) {
  if (!name) return -EINVAL;
  int err = store_calls_flush(s); /* the waiting calls came first */
  if (err) return err;
  err = store_tx_begin_meta(s);
  if (err) return err;
  int64_t sec;
  uint32_t ns;
  store_now(&sec, &ns);
  sqlite3_stmt *q = store_stmt(s, ST_CALL_START);
  if (!q) return store_tx_end(s, -EIO);
  bind_call(q, name, parameters);
  sqlite3_bind_int64(q, 3, sec);
  int64_t rowid;
  err = insert_call(s, q, &rowid);
  if (err) return err;
  if (id) *id = rowid;
  unsigned slot = s->calls_next++ % STORE_CALL_MEMO;
  s->calls[slot].id = rowid;
  s->calls[slot].start_ns = sec * 1000000000LL + ns;
  return 0;
}

/* Binds result (?r), error (?r+1) and status (?r+2) of a finished call:
 * error NULL is a success with its result, else an error without one. */
static void bind_outcome(sqlite3_stmt *q, int r, const char *result, const char *error) {
  if (result && !error)
    sqlite3_bind_text(q, r, result, -1, SQLITE_STATIC);
  else
    sqlite3_bind_null(q, r);
  if (error)
    sqlite3_bind_text(q, r + 1, error, -1, SQLITE_STATIC);
  else
    sqlite3_bind_null(q, r + 1);
  sqlite3_bind_text(q, r + 2, error ? "error" : "success", -1, SQLITE_STATIC);
}

int store_call_finish(store *s, int64_t id, const char *result, const char *error) {
  int err = store_tx_begin_meta(s);
  if (err) return err;
  int64_t sec;
  uint32_t ns;
  store_now(&sec, &ns);
  int64_t now_ns = sec * 1000000000LL + ns;
  /* A call started by this store has its start time (ns) in memory: then
   * one UPDATE does it; otherwise the row tells the start (in seconds). */
  double dur = -1;
  for (unsigned k = 1; k <= STORE_CALL_MEMO; k++) { /* newest first */
    unsigned i = (s->calls_next - k) % STORE_CALL_MEMO;
    if (s->calls[i].id == id) {
      dur = (double)(now_ns - s->calls[i].start_ns) / 1e6;
      break;
    }
  }
  if (dur < 0) {
    sqlite3_stmt *q = store_stmt(s, ST_CALL_GET);
    if (!q) return store_tx_end(s, -EIO);
    sqlite3_bind_int64(q, 1, id);
    int rc = sqlite3_step(q);
    double started = 0;
    if (rc == SQLITE_ROW) {
      const char *st = (const char *)sqlite3_column_text(q, 0);
      started = sqlite3_column_double(q, 1);
      if (!st || strcmp(st, "pending") != 0) err = -EALREADY;
    } else {
      err = rc == SQLITE_DONE ? -ENOENT : store_sqlerr(s, rc);
    }
    sqlite3_reset(q);
    if (err) return store_tx_end(s, err);
    dur = ((double)sec - started) * 1000.0 + ns / 1e6;
    if (dur < 0) dur = 0;
  }
  sqlite3_stmt *q = store_stmt(s, ST_CALL_FINISH);
  if (!q) return store_tx_end(s, -EIO);
  sqlite3_bind_int64(q, 1, id);
  bind_outcome(q, 2, result, error);
  sqlite3_bind_int64(q, 5, sec);
  sqlite3_bind_int64(q, 6, (int64_t)(dur + 0.5));
  err = store_step_done(s, q);
  if (!err && sqlite3_changes(s->db) == 0) {
    /* not pending (any more), or gone: which one */
    q = store_stmt(s, ST_CALL_GET);
    if (!q) return store_tx_end(s, -EIO);
    sqlite3_bind_int64(q, 1, id);
    int rc = sqlite3_step(q);
    err = rc == SQLITE_ROW    ? -EALREADY
          : rc == SQLITE_DONE ? -ENOENT
                              : store_sqlerr(s, rc);
    sqlite3_reset(q);
  }
  return store_tx_end(s, err);
}

/* The three times of a finished call as the row stores them: started_at
 * (<= 0 or absurd: now minus the duration) and completed_at in unix
 * seconds, as the SDK writes them, and the duration in ms (>= 0). */
typedef struct call_times {
  int64_t started, completed, duration_ms;
} call_times;

static call_times times_of(double started_at, double duration_ms) {
  if (!(duration_ms >= 0)) duration_ms = 0; /* negative or NaN */
  if (duration_ms > 1e15) duration_ms = 1e15;
  int64_t sec;
  uint32_t ns;
  store_now(&sec, &ns);
  double now = (double)sec + ns / 1e9;
  if (!(started_at > 0) || started_at > 1e15) started_at = now - duration_ms / 1000;
  return (call_times){(int64_t)started_at, (int64_t)(started_at + duration_ms / 1000),
                      (int64_t)(duration_ms + 0.5)};
}

/* The cached INSERT of a finished call, bound (strings borrowed until it
 * runs), or NULL. */
static sqlite3_stmt *bind_record(store *s, const char *name, const char *parameters,
                                 const char *result, const char *error, call_times t) {
  sqlite3_stmt *q = store_stmt(s, ST_CALL_RECORD);
  if (!q) return NULL;
  bind_call(q, name, parameters);
  bind_outcome(q, 3, result, error);
  sqlite3_bind_int64(q, 6, t.started);
  sqlite3_bind_int64(q, 7, t.completed);
  sqlite3_bind_int64(q, 8, t.duration_ms);
  return q;
}

int store_call_record(store *s, const char *name, const char *parameters,
                      const char *result, const char *error, double started_at,
                      double duration_ms, int64_t *id) {
  if (!name) return -EINVAL;
  call_times t = times_of(started_at, duration_ms);
  int err = store_calls_flush(s); /* the waiting calls came first */
  if (err) return err;
  err = store_tx_begin_meta(s);
  if (err) return err;
  sqlite3_stmt *q = bind_record(s, name, parameters, result, error, t);
  if (!q) return store_tx_end(s, -EIO);
  int64_t rowid;
  err = insert_call(s, q, &rowid);
  if (!err && id) *id = rowid;
  return err;
}

/* ---- buffered calls ---------------------------------------------------------------- */

/* One waiting call: the struct, then its strings in the same block. */
typedef struct store_logged {
  struct store_logged *next;                      /* the next newer call, or NULL */
  const char *name, *parameters, *result, *error; /* into the block (NULLs kept) */
  call_times t;                                   /* as the row stores them */
} store_logged;

static int64_t mono_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Copies `str` (NULL stays NULL) to *at, advancing it. */
static const char *put_str(char **at, const char *str, size_t n) {
  if (!str) return NULL;
  char *d = *at;
  memcpy(d, str, n + 1);
  *at += n + 1;
  return d;
}

void store_i_calls_drop(store *s) {
  for (store_logged *l = s->log_head, *next; l; l = next) {
    next = l->next;
    free(l);
  }
  s->log_head = s->log_tail = NULL;
  s->log_rows = 0;
}

/* Binds call l as the 8 columns of ST_CALL_RECORD from ?(base+1) on. */
static void bind_logged(sqlite3_stmt *q, int base, const store_logged *l) {
  const char *text[4] = {l->name, l->parameters, l->result, l->error};
  for (int i = 0; i < 4; i++)
    if (text[i])
      sqlite3_bind_text(q, base + 1 + i, text[i], -1, SQLITE_STATIC);
    else
      sqlite3_bind_null(q, base + 1 + i);
  sqlite3_bind_text(q, base + 5, l->error ? "error" : "success", -1, SQLITE_STATIC);
  sqlite3_bind_int64(q, base + 6, l->t.started);
  sqlite3_bind_int64(q, base + 7, l->t.completed);
  sqlite3_bind_int64(q, base + 8, l->t.duration_ms);
}

/* The INSERT of STORE_LOG_MULTI calls (prepared once), or NULL. One
 * statement for 16 rows costs ~40% less per row than 16 statements (the
 * statement's own work, AUTOINCREMENT's sqlite_sequence update). */
static sqlite3_stmt *multi_stmt(store *s) {
  if (s->log_multi) {
    sqlite3_reset(s->log_multi);
    return s->log_multi;
  }
  char sql[128 + STORE_LOG_MULTI * 32];
  int n = snprintf(sql, sizeof sql,
                   "INSERT INTO tool_calls (name, parameters, result, error, status, "
                   "started_at, completed_at, duration_ms) VALUES ");
  for (int i = 0; i < STORE_LOG_MULTI; i++)
    n += snprintf(sql + n, sizeof sql - (size_t)n, "%s(?,?,?,?,?,?,?,?)", i ? "," : "");
  if (sqlite3_prepare_v3(s->db, sql, n, SQLITE_PREPARE_PERSISTENT, &s->log_multi, NULL) !=
      SQLITE_OK) {
    sqlite3_finalize(s->log_multi);
    s->log_multi = NULL;
  }
  return s->log_multi;
}

int store_i_calls_insert(store *s) {
  sqlite3_stmt *sp = store_stmt(s, ST_SAVEPOINT);
  int err = sp ? store_step_done(s, sp) : -EIO;
  if (err) return err;
  store_logged *l = s->log_head;
  unsigned left = s->log_rows;
  while (l && !err) {
    int64_t rowid;
    sqlite3_stmt *q;
    if (left >= STORE_LOG_MULTI &&
        s->hist_unpruned + STORE_LOG_MULTI < prune_every(s) && (q = multi_stmt(s))) {
      /* 16 at once, when no prune falls inside them */
      for (int i = 0; i < STORE_LOG_MULTI; i++, l = l->next) bind_logged(q, 8 * i, l);
      err = store_step_done(s, q);
      s->hist_unpruned += STORE_LOG_MULTI;
      left -= STORE_LOG_MULTI;
      continue;
    }
    q = store_stmt(s, ST_CALL_RECORD);
    if (!q) {
      err = -EIO;
      break;
    }
    bind_logged(q, 0, l);
    err = insert_row(s, q, &rowid);
    l = l->next;
    left--;
  }
  if (err) { /* none of them, and the caller's writes stay */
    sqlite3_stmt *q = store_stmt(s, ST_ROLLBACK_TO);
    if (q) store_step_done(s, q);
  }
  sqlite3_stmt *q = store_stmt(s, ST_RELEASE);
  int e = q ? store_step_done(s, q) : -EIO;
  return err ? err : e;
}

int store_calls_flush(store *s) {
  if (!s->log_rows || s->readonly) return 0;
  if (s->depth > 0) { /* into the open transaction: its commit writes them */
    int err = store_i_calls_insert(s);
    if (!err) store_i_calls_drop(s);
    return err;
  }
  /* an empty transaction: its commit inserts the rows (store.c, pop_frame) */
  int err = store_tx_begin_meta(s);
  if (!err) err = store_tx_end(s, 0);
  return err ? err : s->log_rows ? -EIO : 0;
}

int store_call_log(store *s, const char *name, const char *parameters, const char *result,
                   const char *error, double started_at, double duration_ms) {
  if (!name) return -EINVAL;
  if (s->readonly) return -EROFS;
  if (error) result = NULL; /* an error stores no result */
  size_t nn = strlen(name), np = parameters ? strlen(parameters) : 0;
  size_t nr = result ? strlen(result) : 0, ne = error ? strlen(error) : 0;
  store_logged *l = malloc(sizeof *l + nn + np + nr + ne + 4);
  if (!l) return -ENOMEM;
  char *at = (char *)(l + 1);
  l->next = NULL;
  l->name = put_str(&at, name, nn);
  l->parameters = put_str(&at, parameters, np);
  l->result = put_str(&at, result, nr);
  l->error = put_str(&at, error, ne);
  l->t = times_of(started_at, duration_ms);
  int64_t now = mono_ns();
  if (s->log_tail)
    s->log_tail->next = l;
  else {
    s->log_head = l;
    s->log_oldest_ns = now;
  }
  s->log_tail = l;
  s->log_rows++;
  /* Due: enough rows, or the oldest waited long enough. Inside a
   * transaction its commit writes them; past 16 batches they go into it. */
  int due = s->log_rows >= STORE_HISTORY_BUFFER_ROWS ||
            now - s->log_oldest_ns >= (int64_t)STORE_HISTORY_FLUSH_MS * 1000000;
  if (due && (s->depth == 0 || s->log_rows >= 16 * STORE_HISTORY_BUFFER_ROWS))
    return store_calls_flush(s);
  return 0;
}

static double col_time(sqlite3_stmt *q, int col) {
  return sqlite3_column_type(q, col) == SQLITE_NULL ? -1 : sqlite3_column_double(q, col);
}

int store_call_list(store *s, int limit, int (*cb)(void *ud, const store_call *c),
                    void *ud) {
  int err = store_calls_flush(s);
  if (err) return err;
  int own;
  sqlite3_stmt *q = iter_stmt(s, ST_CALL_LIST, &own);
  if (!q) return -EIO;
  sqlite3_bind_int(q, 1, limit > 0 ? limit : -1);
  int rc, ret = 0;
  while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
    store_call c;
    c.id = sqlite3_column_int64(q, 0);
    c.name = (const char *)sqlite3_column_text(q, 1);
    c.parameters = (const char *)sqlite3_column_text(q, 2);
    c.result = (const char *)sqlite3_column_text(q, 3);
    c.error = (const char *)sqlite3_column_text(q, 4);
    c.status = (const char *)sqlite3_column_text(q, 5);
    c.started_at = col_time(q, 6);
    c.completed_at = col_time(q, 7);
    c.duration_ms = col_time(q, 8);
    if (!c.name) c.name = "";
    if (!c.status) c.status = "";
    if ((ret = cb(ud, &c))) break;
  }
  if (!ret && rc != SQLITE_DONE) ret = store_sqlerr(s, rc);
  iter_done(q, own);
  return ret;
}
