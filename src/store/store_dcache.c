/*
 * store_dcache.c - the directory cache: directories found by (parent, name),
 * remembered so that path walks pass them without a query. Writing 1,000
 * files into /data/out looks "data" and "out" up once instead of 1,000 times,
 * and the root's attributes are not read for every path.
 *
 * What is kept is only what a walk needs to pass a directory: its inode, its
 * type and permission bits, its owner and group. Permission checks still
 * run on every walk (against the cached bits), and the last component of a
 * path is always looked up for real, so every stat a caller sees is fresh.
 *
 * Invariants (each one keeps an entry from ever being wrong):
 *  1. Only directories are stored; a name whose entry changes kind (a
 *     directory removed or renamed, a symlink or file in its place) goes
 *     through store_i_unlink or store_i_rename, which empty the cache when
 *     they touch a directory.
 *  2. A directory's mode, owner or group changes only in store_i_setattr,
 *     which empties the cache when it changes them on a directory.
 *  3. Every rollback (a failed call's savepoint or a whole transaction)
 *     empties the cache: it may undo changes the cache has seen.
 *  4. Other connections: SQLite's data version of the database (a counter
 *     that moves when another connection commits, read with
 *     SQLITE_FCNTL_DATA_VERSION) is checked when a transaction starts
 *     (store_dcache_sync) and, for reads outside a transaction, after the
 *     call has run its queries (store_dcache_stale): a change empties the
 *     cache and the read runs again. Our own commits move the counter too;
 *     the commit re-reads it (our changes already went through 1-3).
 *  5. Emptying is O(1): entries carry the epoch they were stored in, and
 *     emptying moves to a new epoch.
 *
 * The table is direct-mapped (a colliding entry replaces the old one) and
 * keeps names up to STORE_DCACHE_NAME bytes; longer names are looked up
 * every time.
 */
#include <string.h>

#include "store/store_internal.h"

static unsigned slot_of(store_ino parent, const char *name, size_t nlen) {
  uint64_t h = 1469598103934665603ULL ^ (uint64_t)parent; /* FNV-1a */
  for (size_t i = 0; i < nlen; i++) h = (h ^ (unsigned char)name[i]) * 1099511628211ULL;
  return (unsigned)(h ^ (h >> 29)) & (STORE_DCACHE_SLOTS - 1);
}

int store_dcache_get(store *s, store_ino parent, const char *name, size_t nlen,
                     store_stat *st) {
  if (nlen > STORE_DCACHE_NAME) return 0;
  const store_dcache_ent *e = &s->dcache[slot_of(parent, name, nlen)];
  if (e->epoch != s->dcache_epoch || e->parent != parent || e->len != nlen ||
      memcmp(e->name, name, nlen) != 0)
    return 0;
  memset(st, 0, sizeof *st);
  st->ino = e->ino;
  st->mode = e->mode;
  st->uid = e->uid;
  st->gid = e->gid;
  s->dcache_used = 1;
  return 1;
}

void store_dcache_put(store *s, store_ino parent, const char *name, size_t nlen,
                      const store_stat *st) {
  if (nlen > STORE_DCACHE_NAME || !S_ISDIR(st->mode)) return;
  store_dcache_ent *e = &s->dcache[slot_of(parent, name, nlen)];
  e->epoch = s->dcache_epoch;
  e->parent = parent;
  e->ino = st->ino;
  e->mode = st->mode;
  e->uid = st->uid;
  e->gid = st->gid;
  e->len = (uint8_t)nlen;
  if (nlen) memcpy(e->name, name, nlen);
}

void store_dcache_clear(store *s) {
  s->dcache_epoch++;
}

static unsigned data_version(store *s) {
  unsigned v = 0;
  sqlite3_file_control(s->db, "main", SQLITE_FCNTL_DATA_VERSION, &v);
  return v;
}

void store_dcache_sync(store *s) {
  unsigned v = data_version(s);
  if (v != s->dcache_dv) {
    store_dcache_clear(s);
    s->dcache_dv = v;
  }
}

void store_dcache_committed(store *s) {
  s->dcache_dv = data_version(s);
}

int store_dcache_stale(store *s) {
  if (s->depth > 0) return 0; /* checked when the transaction began */
  unsigned v = data_version(s);
  int used = s->dcache_used;
  s->dcache_used = 0;
  if (v == s->dcache_dv) return 0;
  store_dcache_clear(s);
  s->dcache_dv = v;
  return used;
}
