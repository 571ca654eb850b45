/*
 * fuse_server.h - serves a sandbox's store to its jail over FUSE (libfuse3
 * low-level API), from one host thread.
 *
 * The jail's / is this file system: every store path, plus the runtime entries
 * of jail_runtime_entries() (usr, etc, proc, dev as directories to mount on,
 * bin/lib* as symlinks) synthesized at the root and never written to the store.
 *
 * Same semantics as the shell: every request runs the store's own permission
 * checks with the store's credentials (the jail has one user, the sandbox's),
 * so bash and Python see the same files, modes and timestamps. The store's
 * owner id is reported as the jail user; other ids as an unmapped one.
 *
 * Caches: the kernel caches entries and attributes for `cache_seconds`. When
 * something else changes the store (the shell, the C API), the host calls
 * fuse_server_sync() before the next Python call; it compares
 * store_generation() with the generation the kernel's view matches and, if
 * they differ, invalidates every entry and inode it has handed out (and the
 * inodes' cached pages). Between syncs an open keeps the file's cached pages
 * when the view is current (keep_cache), so an unchanged file is read again
 * from the jail kernel's page cache.
 */
#ifndef SBX_FUSE_SERVER_H
#define SBX_FUSE_SERVER_H

#include <pthread.h>
#include <stdint.h>

#include "jail/jail.h"
#include "store/store.h"

typedef struct fuse_server fuse_server;

typedef struct fuse_server_config {
  store *st;               /* the store (borrowed; outlives the server) */
  pthread_mutex_t *lock;   /* the sandbox's store lock, taken around every store call */
  int dev_fd;              /* the jail's /dev/fuse; owned by the server from now on */
  uint32_t uid, gid;       /* ids to report for the store's owner (jail.fuse_uid/gid) */
  uint32_t other_id;       /* id to report for any other owner: one the kernel can
                              map in the jail's view (in userns mode only the
                              jail's own id is mapped, so it is that one) */
  uint32_t store_uid, store_gid; /* the store credentials the jail user acts as */
  double cache_seconds;    /* entry/attribute cache lifetime in the kernel */
  /* Lending (may be NULL): while *lent is non-zero, the threads that logically
   * own the store (a shell script waiting for Python holds `lock`, and the
   * calls it waits for, src/py/py_loan.c) promise not to touch it, and the
   * server may use the store without the lock; it counts itself in *borrowers
   * meanwhile, and the owner waits for that count to drop to 0 before taking
   * the store back. */
  _Atomic int *lent;
  _Atomic int *borrowers;
} fuse_server_config;

/* Starts serving on a new thread. 0, or -1 with a message (dev_fd is then
 * closed). */
int fuse_server_start(const fuse_server_config *cfg, fuse_server **out, char *err, size_t errlen);

/* If the store changed behind the kernel's back since the last sync, drops the
 * kernel's cached entries and attributes. Call without holding the store lock
 * (the server thread may need it to finish a request the kernel is waiting on). */
void fuse_server_sync(fuse_server *fs);
/* The two halves of fuse_server_sync for a caller that owns the store in
 * another way (lending): stale() with the store owned, invalidate() without. */
int fuse_server_stale(fuse_server *fs);
void fuse_server_invalidate(fuse_server *fs);

/* Stops the thread and frees the server. The jail must already be stopped
 * (its mount gone), else the thread is told to exit at its next request. */
void fuse_server_stop(fuse_server *fs);

/* Requests served so far (tests). */
uint64_t fuse_server_requests(const fuse_server *fs);

#endif
