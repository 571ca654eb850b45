/*
 * store_orphan.c - open files that outlive their last name: POSIX's
 * unlinked-but-open files (a temporary file unlinked at once, as Python's
 * tempfile.TemporaryFile does; a file replaced by rename while a reader has
 * it open), and their reclamation.
 *
 * Whoever serves open files (the FUSE server) holds every inode it has
 * open with store_hold / store_unhold. When the last link of a held regular
 * file goes (unlink, rename over it), drop_link (store_inode.c) calls
 * store_i_orphan instead of deleting: the inode keeps its data with nlink
 * 0, and a row in sbx_orphan records it with its owner (this boot, process
 * id and process start time). The last store_unhold deletes it with its
 * data, as the unlink would have. Quotas count an orphan until then, as
 * Linux counts an open unlinked file's blocks.
 *
 * Invariants:
 *  1. An inode with nlink 0 that is not a directory exists only while it has
 *     a row in sbx_orphan (both change in one transaction).
 *  2. A row of sbx_orphan whose owner is alive and holds the inode is never
 *     deleted by another process: a store opening the file deletes only the
 *     orphans of owners that are gone (a crash, kill -9: same boot id and a
 *     process id that is dead or started at another time, or another boot).
 *     A copy (store_open_image, a trusted open of snapshot bytes) deletes
 *     them all: no handle of the copy can be open.
 *  3. The table is created on the first orphan only: a store that never had
 *     one keeps the AgentFS schema exactly. It is kept once made (dropping it
 *     would change the schema under every prepared statement each time).
 *
 * Hold counts live in memory behind their own mutex, apart from the store's
 * one-thread-at-a-time rule, so that a server stopping with files still
 * open (its jail is gone, the kernel will send no release) can drop its
 * holds from any thread without the store (store_unhold_later): the inodes
 * whose count reached 0 are freed at the store's next mutating call, or
 * when it closes, or at the next open after a crash.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store/store_internal.h"

#define HOLD_BUCKETS 256 /* chains of the hold table (a power of two) */

/* One held inode. */
typedef struct store_held {
  struct store_held *next; /* bucket chain */
  store_ino ino;           /* the inode */
  uint32_t count;          /* open handles (0: waiting to be freed) */
  int orphaned;            /* lost its last link while held (may be stale) */
} store_held;

/* The hold table of a store. */
struct store_holds {
  pthread_mutex_t lock;             /* guards everything below */
  store_held *bucket[HOLD_BUCKETS]; /* chains by inode */
  size_t waiting;                   /* entries with count 0 (to free) */
};

static size_t hold_hash(store_ino ino) {
  return (size_t)(((uint64_t)ino * 0x9e3779b97f4a7c15ULL) >> 40) & (HOLD_BUCKETS - 1);
}

int store_i_holds_init(store *s) {
  s->holds = calloc(1, sizeof *s->holds);
  if (!s->holds) return -ENOMEM;
  pthread_mutex_init(&s->holds->lock, NULL);
  return 0;
}

void store_i_holds_free(store *s) {
  if (!s->holds) return;
  for (size_t i = 0; i < HOLD_BUCKETS; i++)
    for (store_held *h = s->holds->bucket[i], *n; h; h = n) n = h->next, free(h);
  pthread_mutex_destroy(&s->holds->lock);
  free(s->holds);
  s->holds = NULL;
}

/* The entry of `ino` (lock held), or NULL; *pp gets the link to it. */
static store_held *find_held(struct store_holds *t, store_ino ino, store_held ***pp) {
  store_held **p = &t->bucket[hold_hash(ino)];
  while (*p && (*p)->ino != ino) p = &(*p)->next;
  if (pp) *pp = p;
  return *p;
}

int store_hold(store *s, store_ino ino) {
  struct store_holds *t = s->holds;
  int err = 0;
  pthread_mutex_lock(&t->lock);
  store_held *h = find_held(t, ino, NULL);
  if (h) {
    if (h->count == 0) t->waiting--;
    if (h->count == UINT32_MAX)
      err = -EMFILE;
    else
      h->count++;
  } else if (!(h = calloc(1, sizeof *h))) {
    err = -ENOMEM;
  } else {
    size_t b = hold_hash(ino);
    h->ino = ino;
    h->count = 1;
    h->next = t->bucket[b];
    t->bucket[b] = h;
  }
  pthread_mutex_unlock(&t->lock);
  return err;
}

/* Drops one hold: 1 when the inode must now be freed (it was orphaned),
 * else 0. A count that reaches 0 on an orphan leaves the entry waiting. */
static int drop_hold(struct store_holds *t, store_ino ino) {
  int free_it = 0;
  pthread_mutex_lock(&t->lock);
  store_held **pp;
  store_held *h = find_held(t, ino, &pp);
  if (h && h->count > 0 && --h->count == 0) {
    if (h->orphaned) {
      free_it = 1;
      t->waiting++;
    } else {
      *pp = h->next;
      free(h);
    }
  }
  pthread_mutex_unlock(&t->lock);
  return free_it;
}

int store_i_held(store *s, store_ino ino) {
  pthread_mutex_lock(&s->holds->lock);
  store_held *h = find_held(s->holds, ino, NULL);
  int held = h && h->count > 0;
  pthread_mutex_unlock(&s->holds->lock);
  return held;
}

/* Creates sbx_orphan if missing (invariant 3). */
static int ensure_table(store *s) {
  int rc = sqlite3_exec(s->db,
                        "CREATE TABLE IF NOT EXISTS sbx_orphan (ino INTEGER PRIMARY KEY, "
                        "owner TEXT NOT NULL)",
                        NULL, NULL, NULL);
  return rc == SQLITE_OK ? 0 : store_sqlerr(s, rc);
}

static int have_table(store *s) {
  return sqlite3_table_column_metadata(s->db, "main", "sbx_orphan", "ino", NULL, NULL,
                                       NULL, NULL, NULL) == SQLITE_OK;
}

/* "BOOTID PID STARTTIME" of this process into buf; "" when /proc cannot
 * tell (such an owner is never judged gone: the orphan waits for its own
 * process). */
static void read_first_line(const char *path, char *buf, size_t n) {
  buf[0] = 0;
  FILE *f = fopen(path, "re");
  if (!f) return;
  if (!fgets(buf, (int)n, f)) buf[0] = 0;
  fclose(f);
  buf[strcspn(buf, "\n")] = 0;
}

/* Field 22 of /proc/PID/stat (start time in clock ticks), or 0. */
static unsigned long long start_time(long pid) {
  char path[64], line[1024];
  snprintf(path, sizeof path, "/proc/%ld/stat", pid);
  read_first_line(path, line, sizeof line);
  char *p = strrchr(line, ')'); /* the command name may hold spaces */
  if (!p) return 0;
  unsigned long long v = 0;
  for (int field = 2; field < 22 && p; field++) p = strchr(p + 1, ' ');
  if (p) v = strtoull(p + 1, NULL, 10);
  return v;
}

static void owner_of_self(char *buf, size_t n) {
  char boot[64];
  read_first_line("/proc/sys/kernel/random/boot_id", boot, sizeof boot);
  unsigned long long st = start_time((long)getpid());
  if (!boot[0] || !st) {
    buf[0] = 0;
    return;
  }
  snprintf(buf, n, "%s %ld %llu", boot, (long)getpid(), st);
}

/* Is the owner recorded as `owner` gone (invariant 2)? */
static int owner_gone(const char *owner) {
  char boot[64], oboot[64];
  long pid;
  unsigned long long st;
  if (sscanf(owner, "%63s %ld %llu", oboot, &pid, &st) != 3 || pid <= 0) return 0;
  read_first_line("/proc/sys/kernel/random/boot_id", boot, sizeof boot);
  if (!boot[0]) return 0;                 /* cannot tell */
  if (strcmp(boot, oboot) != 0) return 1; /* another boot: every process is gone */
  return start_time(pid) != st;           /* dead (0) or a new process on the id */
}

int store_i_orphan(store *s, const store_stat *victim, int64_t sec, uint32_t ns) {
  int err = ensure_table(s);
  if (err) return err;
  char owner[160];
  owner_of_self(owner, sizeof owner);
  sqlite3_stmt *q = NULL;
  int rc = sqlite3_prepare_v2(
      s->db, "INSERT OR REPLACE INTO sbx_orphan (ino, owner) VALUES (?1, ?2)", -1, &q,
      NULL);
  if (rc == SQLITE_OK) {
    sqlite3_bind_int64(q, 1, victim->ino);
    sqlite3_bind_text(q, 2, owner, -1, SQLITE_STATIC);
    rc = sqlite3_step(q);
  }
  sqlite3_finalize(q);
  if (rc != SQLITE_DONE) return store_sqlerr(s, rc);
  q = store_stmt(s, ST_NLINK_ADD);
  if (!q) return -EIO;
  sqlite3_bind_int64(q, 1, victim->ino);
  sqlite3_bind_int(q, 2, -(int)victim->nlink);
  sqlite3_bind_int64(q, 3, sec);
  sqlite3_bind_int64(q, 4, ns);
  if ((err = store_step_done(s, q))) return err;
  pthread_mutex_lock(&s->holds->lock);
  store_held *h = find_held(s->holds, victim->ino, NULL);
  if (h) h->orphaned = 1; /* stale if this transaction rolls back: see free_orphan */
  pthread_mutex_unlock(&s->holds->lock);
  return 0;
}

/* Deletes orphan `ino` with its data, if it is still one (nlink 0: a
 * rolled-back orphaning leaves a live file alone), and its row. */
static int free_orphan(store *s, store_ino ino) {
  store_stat st;
  int err = store_i_getattr(s, ino, &st);
  if (err == 0 && st.nlink == 0 && !S_ISDIR(st.mode)) {
    if (S_ISREG(st.mode) && (err = store_quota_bytes(s, -(int64_t)st.size))) return err;
    if ((err = store_quota_inodes(s, -1))) return err;
    sqlite3_stmt *q = store_stmt(s, ST_INODE_DELETE);
    if (!q) return -EIO;
    sqlite3_bind_int64(q, 1, ino);
    if ((err = store_step_done(s, q))) return err;
    if (!(q = store_stmt(s, ST_DATA_DELETE_ALL))) return -EIO;
    sqlite3_bind_int64(q, 1, ino);
    if ((err = store_step_done(s, q))) return err;
  } else if (err && err != -ENOENT) {
    return err;
  }
  if (!have_table(s)) return 0;
  sqlite3_stmt *q = NULL;
  int rc =
      sqlite3_prepare_v2(s->db, "DELETE FROM sbx_orphan WHERE ino = ?1", -1, &q, NULL);
  if (rc == SQLITE_OK) {
    sqlite3_bind_int64(q, 1, ino);
    rc = sqlite3_step(q);
  }
  sqlite3_finalize(q);
  return rc == SQLITE_DONE ? 0 : store_sqlerr(s, rc);
}

/* Removes the entry of `ino` if it is still waiting (count 0). */
static void forget_waiting(struct store_holds *t, store_ino ino) {
  pthread_mutex_lock(&t->lock);
  store_held **pp;
  store_held *h = find_held(t, ino, &pp);
  if (h && h->count == 0) {
    *pp = h->next;
    free(h);
    t->waiting--;
  }
  pthread_mutex_unlock(&t->lock);
}

int store_unhold(store *s, store_ino ino) {
  if (!drop_hold(s->holds, ino)) return 0;
  int err = store_tx_begin(s);
  if (err == 0) err = store_tx_end(s, free_orphan(s, ino));
  /* Freed, or it failed (the row stays for the next open to reclaim). */
  forget_waiting(s->holds, ino);
  return err;
}

void store_unhold_later(store *s, store_ino ino) {
  drop_hold(s->holds, ino); /* a waiting entry is freed by store_i_free_waiting */
}

int store_i_waiting(store *s) {
  pthread_mutex_lock(&s->holds->lock);
  int w = s->holds->waiting > 0;
  pthread_mutex_unlock(&s->holds->lock);
  return w;
}

int store_i_free_waiting(store *s) {
  struct store_holds *t = s->holds;
  int err = 0;
  for (;;) {
    store_ino ino = 0;
    pthread_mutex_lock(&t->lock);
    for (size_t i = 0; i < HOLD_BUCKETS && !ino; i++)
      for (store_held *h = t->bucket[i]; h && !ino; h = h->next)
        if (h->count == 0) ino = h->ino;
    pthread_mutex_unlock(&t->lock);
    if (!ino) break;
    int e = free_orphan(s, ino);
    if (e && !err) err = e;
    forget_waiting(t, ino);
  }
  return err;
}

int store_i_reclaim_orphans(store *s, int all) {
  if (s->readonly || !have_table(s)) return 0;
  sqlite3_stmt *q = NULL;
  int rc = sqlite3_prepare_v2(s->db, "SELECT ino, owner FROM sbx_orphan", -1, &q, NULL);
  if (rc != SQLITE_OK) return store_sqlerr(s, rc);
  store_ino *gone = NULL;
  size_t n = 0, cap = 0;
  int err = 0;
  while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
    const char *owner = (const char *)sqlite3_column_text(q, 1);
    if (!all && !owner_gone(owner ? owner : "")) continue;
    if (n == cap) {
      size_t nc = cap ? cap * 2 : 16;
      store_ino *g = realloc(gone, nc * sizeof *g);
      if (!g) {
        err = -ENOMEM;
        break;
      }
      gone = g, cap = nc;
    }
    gone[n++] = sqlite3_column_int64(q, 0);
  }
  if (!err && rc != SQLITE_DONE) err = store_sqlerr(s, rc);
  sqlite3_finalize(q);
  if (!err && n && (err = store_tx_begin(s)) == 0) {
    int e = 0;
    for (size_t i = 0; !e && i < n; i++) e = free_orphan(s, gone[i]);
    err = store_tx_end(s, e);
  }
  free(gone);
  return err;
}

int store_i_reclaim_in_copy(store *s, const char *path) {
  if (!have_table(s) || store_orphan_count(s) <= 0) return 0;
  sqlite3 *db = NULL;
  int rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL);
  if (rc == SQLITE_OK)
    rc = sqlite3_exec(
        db,
        "BEGIN;"
        "DELETE FROM fs_data WHERE ino IN (SELECT o.ino FROM sbx_orphan o "
        "  JOIN fs_inode i ON i.ino = o.ino WHERE i.nlink = 0);"
        "DELETE FROM fs_inode WHERE nlink = 0 AND ino IN (SELECT ino FROM sbx_orphan);"
        "DELETE FROM sbx_orphan;"
        "COMMIT;",
        NULL, NULL, NULL);
  int err = rc == SQLITE_OK ? 0 : -EIO;
  sqlite3_close(db);
  return err;
}

int store_orphan_count(store *s) {
  if (!have_table(s)) return 0;
  sqlite3_stmt *q = NULL;
  int rc = sqlite3_prepare_v2(s->db, "SELECT count(*) FROM sbx_orphan", -1, &q, NULL);
  int r = 0;
  if (rc == SQLITE_OK && (rc = sqlite3_step(q)) == SQLITE_ROW)
    r = sqlite3_column_int(q, 0);
  else
    r = store_sqlerr(s, rc);
  sqlite3_finalize(q);
  return r;
}

int store_tmpfile(store *s, store_ino dir, uint32_t mode, store_stat *st) {
  int err = store_tx_begin(s);
  if (err) return err;
  store_stat d;
  int held = 0;
  err = store_i_getattr(s, dir, &d);
  if (!err && !S_ISDIR(d.mode)) err = -ENOTDIR;
  if (!err) err = store_i_perm(s, &d, W_OK | X_OK);
  if (!err) err = store_quota_inodes(s, 1);
  int64_t sec;
  uint32_t ns;
  store_now(&sec, &ns);
  sqlite3_stmt *q = err ? NULL : store_stmt(s, ST_INODE_INSERT);
  if (!err && !q) err = -EIO;
  if (!err) {
    sqlite3_bind_int64(q, 1, S_IFREG | (mode & 07777));
    sqlite3_bind_int64(q, 2, s->uid);
    sqlite3_bind_int64(q, 3, s->gid);
    sqlite3_bind_int64(q, 4, 0);
    sqlite3_bind_int64(q, 5, sec);
    sqlite3_bind_int64(q, 6, ns);
    err = store_step_done(s, q);
  }
  if (!err) {
    memset(st, 0, sizeof *st);
    st->ino = sqlite3_last_insert_rowid(s->db);
    st->mode = S_IFREG | (mode & 07777);
    st->nlink = 1; /* as inserted; store_i_orphan takes it to 0 */
    st->uid = s->uid;
    st->gid = s->gid;
    st->atime = st->mtime = st->ctime = sec;
    st->atime_nsec = st->mtime_nsec = st->ctime_nsec = ns;
    err = store_hold(s, st->ino);
    held = err == 0;
  }
  if (!err) err = store_i_orphan(s, st, sec, ns);
  if (!err) st->nlink = 0;
  err = store_tx_end(s, err);
  if (err && held) {
    /* rolled back: the inode never existed; drop the hold without a write */
    pthread_mutex_lock(&s->holds->lock);
    store_held **pp;
    store_held *h = find_held(s->holds, st->ino, &pp);
    if (h && --h->count == 0) {
      *pp = h->next;
      free(h);
    }
    pthread_mutex_unlock(&s->holds->lock);
  }
  return err;
}
