/*
 * fuse_server.c - the store as the jail's root file system (libfuse3 low-level
 * API). See fuse_server.h for the contract.
 *
 * Design decisions:
 *  - Inode numbers are the store's; the root is STORE_ROOT_INO == FUSE_ROOT_ID.
 *    The runtime entries at the root (usr, etc, proc, dev, lib -> usr/lib...)
 *    get numbers above FS_SYNTH_BASE and shadow store entries of the same name:
 *    the jail mounts the host's runtime on them, so they must stay stable and
 *    are never invalidated (invalidating a mount point would detach the mount).
 *  - Every handler runs its store calls under the sandbox's store lock and ends
 *    in one reply; errors are negative errnos from the store, replied as is.
 *  - Requests come from the jail and are hostile: names are checked by the
 *    kernel (<= 255 bytes, no '/'), and again by the store; sizes are bounded
 *    here (reads and directory buffers at FS_MAX_IO).
 *  - Cache invalidation (fuse_server_sync): the server remembers every entry
 *    (parent, name) and inode it has handed to the kernel. `known_gen` is the
 *    store generation the kernel's view matches: each request that starts with
 *    the store at known_gen moves it to the generation after the request (the
 *    kernel saw that change itself); any other writer leaves it behind, and the
 *    next sync invalidates everything remembered (entries, attributes and the
 *    inodes' cached pages). An open keeps the file's cached pages
 *    (keep_cache: a second read of an unchanged file is served by the jail
 *    kernel's page cache) only when that holds for it: the view was current
 *    at the open and the inode is remembered. The loop polls an eventfd
 *    besides /dev/fuse, so fuse_server_stop() never blocks on a live mount.
 *  - Open files: every open or create holds its inode in the store
 *    (store_hold) until the kernel's release, so a file unlinked or renamed
 *    over while open keeps working by inode (read, write, ftruncate, fstat,
 *    mmap), as POSIX wants and tools rely on (Python's TemporaryFile, git's
 *    lock files, editors' rename-over saves); the last release frees it. A
 *    server that stops with handles open (the jail is gone: the kernel will
 *    send no release) drops them with store_unhold_later.
 *  - Locks (flock, fcntl) are left to the kernel (FUSE_CAP_*_LOCKS off): one
 *    mount is served to one jail, so the kernel's local locks are the whole
 *    story.
 *  - O_TMPFILE: libfuse 3.14 has no tmpfile operation (it would answer
 *    ENOSYS, which the kernel turns into EOPNOTSUPP), so the loop answers
 *    FUSE_TMPFILE itself (serve_tmpfile): a nameless orphan (store_tmpfile)
 *    and a handle, replied as for create; linkat() can name it later.
 */
#define FUSE_USE_VERSION 34
#include "fuse/fuse_server.h"

#include <errno.h>
#include <fcntl.h>
#include <fuse_lowlevel.h>
#include <linux/fuse.h>
#include <poll.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#define FS_SYNTH_BASE (1ULL << 62)   /* inode numbers of the runtime entries */
#define FS_DIR_OFF 16                /* readdir offsets >= this are store cookies */
#define FS_MAX_IO (1u << 20)         /* largest read or readdir buffer */
#define FS_MAX_TRACKED 65536         /* remembered entries and inodes, each */
#define FS_HASH 4096                 /* buckets of each table */

/* An entry (parent, name) the kernel may have cached. */
typedef struct fs_entry {
  struct fs_entry *next; /* bucket chain */
  uint64_t parent;       /* directory inode */
  char name[];           /* NUL-terminated */
} fs_entry;

/* An open file: fi->fh points to it. */
typedef struct fs_handle {
  struct fs_handle *prev, *next; /* the server's list of open handles */
  uint64_t ino;                  /* the inode it holds in the store */
} fs_handle;

/* An inode the kernel knows, with its lookup count. */
typedef struct fs_inode {
  struct fs_inode *next; /* bucket chain */
  uint64_t ino;          /* inode number */
  uint64_t nlookup;      /* lookups not yet forgotten */
} fs_inode;

struct fuse_server {
  fuse_server_config cfg;        /* as given (dev_fd now owned by the session) */
  struct fuse_session *se;       /* libfuse session */
  pthread_t thread;              /* the serving thread */
  int thread_started;            /* 1 once thread is joinable */
  int stop_fd;                   /* eventfd that ends the loop */
  jail_runtime_entry rt[JAIL_MAX_RUNTIME]; /* synthetic root entries */
  int nrt;                       /* their count */
  uint64_t known_gen;            /* store generation the kernel view matches (store lock) */
  int init_done;                 /* the kernel's INIT was answered (notify allowed) */
  pthread_mutex_t tab_lock;      /* guards the two tables below */
  fs_entry *entries[FS_HASH];    /* remembered entries */
  fs_inode *inodes[FS_HASH];     /* remembered inodes */
  fs_handle *handles;            /* open files, each holding its inode (tab_lock) */
  size_t nentries, ninodes;      /* their counts */
  _Atomic uint64_t requests;     /* requests served */
  char *rbuf;                    /* the read buffer (FS_MAX_IO; server thread) */
  int borrowed;                  /* the current request uses a lent store */
};

/* ---- tables -------------------------------------------------------------------- */

static size_t hash_entry(uint64_t parent, const char *name) {
  uint64_t h = parent * 0x9e3779b97f4a7c15ULL;
  for (const unsigned char *p = (const unsigned char *)name; *p; p++) h = (h ^ *p) * 0x100000001b3ULL;
  return (size_t)(h >> 20) % FS_HASH;
}

/* Remembers an entry; returns 0 when it could not (the reply then gets no
 * entry caching, so nothing stale can survive a sync). */
static int remember_entry(fuse_server *fs, uint64_t parent, const char *name) {
  size_t h = hash_entry(parent, name);
  int ok = 1;
  pthread_mutex_lock(&fs->tab_lock);
  fs_entry *e = fs->entries[h];
  while (e && !(e->parent == parent && strcmp(e->name, name) == 0)) e = e->next;
  if (!e) {
    size_t nl = strlen(name);
    if (fs->nentries >= FS_MAX_TRACKED || !(e = malloc(sizeof *e + nl + 1))) {
      ok = 0;
    } else {
      e->parent = parent;
      memcpy(e->name, name, nl + 1);
      e->next = fs->entries[h];
      fs->entries[h] = e;
      fs->nentries++;
    }
  }
  pthread_mutex_unlock(&fs->tab_lock);
  return ok;
}

static int remember_inode(fuse_server *fs, uint64_t ino) {
  size_t h = (size_t)(ino * 0x9e3779b97f4a7c15ULL >> 40) % FS_HASH;
  int ok = 1;
  pthread_mutex_lock(&fs->tab_lock);
  fs_inode *n = fs->inodes[h];
  while (n && n->ino != ino) n = n->next;
  if (n) {
    n->nlookup++;
  } else if (fs->ninodes >= FS_MAX_TRACKED || !(n = malloc(sizeof *n))) {
    ok = 0;
  } else {
    n->ino = ino;
    n->nlookup = 1;
    n->next = fs->inodes[h];
    fs->inodes[h] = n;
    fs->ninodes++;
  }
  pthread_mutex_unlock(&fs->tab_lock);
  return ok;
}

static void forget_inode(fuse_server *fs, uint64_t ino, uint64_t n) {
  size_t h = (size_t)(ino * 0x9e3779b97f4a7c15ULL >> 40) % FS_HASH;
  pthread_mutex_lock(&fs->tab_lock);
  fs_inode **pp = &fs->inodes[h];
  while (*pp && (*pp)->ino != ino) pp = &(*pp)->next;
  if (*pp) {
    fs_inode *x = *pp;
    x->nlookup = x->nlookup > n ? x->nlookup - n : 0;
    if (x->nlookup == 0) {
      *pp = x->next;
      free(x);
      fs->ninodes--;
    }
  }
  pthread_mutex_unlock(&fs->tab_lock);
}

static void free_tables(fuse_server *fs) {
  for (size_t i = 0; i < FS_HASH; i++) {
    for (fs_entry *e = fs->entries[i], *n; e; e = n) n = e->next, free(e);
    for (fs_inode *x = fs->inodes[i], *n; x; x = n) n = x->next, free(x);
    fs->entries[i] = NULL;
    fs->inodes[i] = NULL;
  }
  fs->nentries = fs->ninodes = 0;
}

/* ---- store access ----------------------------------------------------------------- */

/* Takes the store: its lock, or a loan from its owner (see the config). A
 * blocking lock would never notice a loan made while waiting, so the wait is
 * in slices of a millisecond. */
static void take_store(fuse_server *fs) {
  for (;;) {
    if (pthread_mutex_trylock(fs->cfg.lock) == 0) {
      fs->borrowed = 0;
      return;
    }
    if (fs->cfg.lent && atomic_load(fs->cfg.lent)) {
      atomic_fetch_add(fs->cfg.borrowers, 1);
      if (atomic_load(fs->cfg.lent)) {
        fs->borrowed = 1;
        return;
      }
      atomic_fetch_sub(fs->cfg.borrowers, 1);
    }
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_nsec += 1000000;
    if (ts.tv_nsec >= 1000000000L) ts.tv_sec++, ts.tv_nsec -= 1000000000L;
    if (pthread_mutex_timedlock(fs->cfg.lock, &ts) == 0) {
      fs->borrowed = 0;
      return;
    }
  }
}

static void give_store(fuse_server *fs) {
  if (fs->borrowed) atomic_fetch_sub(fs->cfg.borrowers, 1);
  else pthread_mutex_unlock(fs->cfg.lock);
  fs->borrowed = 0;
}

static void lock_store(fuse_server *fs, uint64_t *gen0) {
  take_store(fs);
  *gen0 = store_generation(fs->cfg.st);
}

static void unlock_store(fuse_server *fs, uint64_t gen0) {
  /* Our own change: the kernel's view follows it. Someone else's (gen0 was
   * already behind): leave known_gen behind too, for the next sync. */
  if (gen0 == fs->known_gen) fs->known_gen = store_generation(fs->cfg.st);
  give_store(fs);
}

static fuse_server *server(fuse_req_t req) { return fuse_req_userdata(req); }

static uint32_t report_uid(fuse_server *fs, uint32_t uid) {
  return uid == fs->cfg.store_uid ? fs->cfg.uid : fs->cfg.other_id;
}

static uint32_t report_gid(fuse_server *fs, uint32_t gid) {
  return gid == fs->cfg.store_gid ? fs->cfg.gid : fs->cfg.other_id;
}

static void to_stat(fuse_server *fs, const store_stat *s, struct stat *st) {
  memset(st, 0, sizeof *st);
  st->st_ino = (ino_t)s->ino;
  st->st_mode = s->mode;
  /* 0 is an open file's after its last unlink; a directory's 0 (written by
   * other tools) reads as 1 */
  st->st_nlink = (s->nlink || !S_ISDIR(s->mode)) ? s->nlink : 1;
  st->st_uid = report_uid(fs, s->uid);
  st->st_gid = report_gid(fs, s->gid);
  st->st_size = (off_t)s->size;
  st->st_blksize = 4096;
  st->st_blocks = (blkcnt_t)((s->size + 511) / 512);
  st->st_atim.tv_sec = s->atime;
  st->st_atim.tv_nsec = s->atime_nsec;
  st->st_mtim.tv_sec = s->mtime;
  st->st_mtim.tv_nsec = s->mtime_nsec;
  st->st_ctim.tv_sec = s->ctime;
  st->st_ctim.tv_nsec = s->ctime_nsec;
}

/* ---- the synthetic root entries ------------------------------------------------------ */

static int synth_index(fuse_server *fs, uint64_t ino) {
  if (ino < FS_SYNTH_BASE || ino >= FS_SYNTH_BASE + (uint64_t)fs->nrt) return -1;
  return (int)(ino - FS_SYNTH_BASE);
}

static int synth_by_name(fuse_server *fs, uint64_t parent, const char *name) {
  if (parent != FUSE_ROOT_ID) return -1;
  for (int i = 0; i < fs->nrt; i++)
    if (strcmp(fs->rt[i].name, name) == 0) return i;
  return -1;
}

static void synth_stat(fuse_server *fs, int i, struct stat *st) {
  memset(st, 0, sizeof *st);
  st->st_ino = (ino_t)(FS_SYNTH_BASE + (uint64_t)i);
  st->st_uid = fs->cfg.other_id;
  st->st_gid = fs->cfg.other_id;
  st->st_nlink = fs->rt[i].is_symlink ? 1 : 2;
  st->st_mode = fs->rt[i].is_symlink ? (S_IFLNK | 0777) : (S_IFDIR | 0755);
  st->st_size = fs->rt[i].is_symlink ? (off_t)strlen(fs->rt[i].target) : 0;
}

/* ---- handlers --------------------------------------------------------------------------- */

static void reply_entry(fuse_req_t req, fuse_server *fs, uint64_t parent, const char *name,
                        const store_stat *s) {
  struct fuse_entry_param e;
  memset(&e, 0, sizeof e);
  e.ino = (fuse_ino_t)s->ino;
  to_stat(fs, s, &e.attr);
  int cache_entry = remember_entry(fs, parent, name);
  int cache_inode = remember_inode(fs, (uint64_t)s->ino);
  e.entry_timeout = cache_entry ? fs->cfg.cache_seconds : 0;
  e.attr_timeout = cache_inode ? fs->cfg.cache_seconds : 0;
  if (fuse_reply_entry(req, &e) != 0) forget_inode(fs, (uint64_t)s->ino, 1);
}

static void op_init(void *ud, struct fuse_conn_info *conn) {
  fuse_server *fs = ud;
  conn->want &= ~(unsigned)(FUSE_CAP_READDIRPLUS | FUSE_CAP_READDIRPLUS_AUTO |
                            FUSE_CAP_WRITEBACK_CACHE | FUSE_CAP_POSIX_LOCKS |
                            FUSE_CAP_FLOCK_LOCKS | FUSE_CAP_SPLICE_READ |
                            FUSE_CAP_SPLICE_WRITE | FUSE_CAP_SPLICE_MOVE);
  fs->init_done = 1;
}

static void op_lookup(fuse_req_t req, fuse_ino_t parent, const char *name) {
  fuse_server *fs = server(req);
  int si = synth_by_name(fs, parent, name);
  if (si >= 0) {
    struct fuse_entry_param e;
    memset(&e, 0, sizeof e);
    e.ino = (fuse_ino_t)(FS_SYNTH_BASE + (uint64_t)si);
    synth_stat(fs, si, &e.attr);
    e.entry_timeout = e.attr_timeout = 3600; /* never changes */
    fuse_reply_entry(req, &e);
    return;
  }
  if (synth_index(fs, parent) >= 0) {
    fuse_reply_err(req, ENOENT); /* a mount point's own directory is empty */
    return;
  }
  store_stat s;
  uint64_t g;
  lock_store(fs, &g);
  int r = store_lookup(fs->cfg.st, (store_ino)parent, name, &s);
  unlock_store(fs, g);
  if (r < 0) {
    fuse_reply_err(req, -r);
    return;
  }
  reply_entry(req, fs, parent, name, &s);
}

static void op_forget(fuse_req_t req, fuse_ino_t ino, uint64_t n) {
  forget_inode(server(req), ino, n);
  fuse_reply_none(req);
}

static void op_forget_multi(fuse_req_t req, size_t count, struct fuse_forget_data *f) {
  for (size_t i = 0; i < count; i++) forget_inode(server(req), f[i].ino, f[i].nlookup);
  fuse_reply_none(req);
}

static void op_getattr(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi) {
  fuse_server *fs = server(req);
  struct stat st;
  int si = synth_index(fs, ino);
  if (si >= 0) {
    synth_stat(fs, si, &st);
    fuse_reply_attr(req, &st, 3600);
    return;
  }
  store_stat s;
  uint64_t g;
  lock_store(fs, &g);
  int r = store_getattr(fs->cfg.st, (store_ino)ino, &s);
  unlock_store(fs, g);
  if (r < 0) {
    fuse_reply_err(req, -r);
    return;
  }
  to_stat(fs, &s, &st);
  fuse_reply_attr(req, &st, fs->cfg.cache_seconds);
}

static void op_setattr(fuse_req_t req, fuse_ino_t ino, struct stat *attr, int to_set,
                       struct fuse_file_info *fi) {
  fuse_server *fs = server(req);
  if (synth_index(fs, ino) >= 0) {
    fuse_reply_err(req, EROFS);
    return;
  }
  store_setattr a;
  memset(&a, 0, sizeof a);
  int which = 0;
  if (to_set & FUSE_SET_ATTR_MODE) which |= STORE_SET_MODE, a.mode = attr->st_mode & 07777;
  if (to_set & FUSE_SET_ATTR_UID) {
    /* The jail has one user: it may only "chown" to itself. */
    if (attr->st_uid != fs->cfg.uid) {
      fuse_reply_err(req, EPERM);
      return;
    }
    which |= STORE_SET_UID, a.uid = fs->cfg.store_uid;
  }
  if (to_set & FUSE_SET_ATTR_GID) {
    if (attr->st_gid != fs->cfg.gid) {
      fuse_reply_err(req, EPERM);
      return;
    }
    which |= STORE_SET_GID, a.gid = fs->cfg.store_gid;
  }
  if (to_set & FUSE_SET_ATTR_SIZE) {
    if (attr->st_size < 0) {
      fuse_reply_err(req, EINVAL);
      return;
    }
    which |= STORE_SET_SIZE, a.size = (uint64_t)attr->st_size;
  }
  if (to_set & FUSE_SET_ATTR_ATIME_NOW) which |= STORE_SET_ATIME_NOW;
  else if (to_set & FUSE_SET_ATTR_ATIME)
    which |= STORE_SET_ATIME, a.atime = attr->st_atim.tv_sec, a.atime_nsec = (uint32_t)attr->st_atim.tv_nsec;
  if (to_set & FUSE_SET_ATTR_MTIME_NOW) which |= STORE_SET_MTIME_NOW;
  else if (to_set & FUSE_SET_ATTR_MTIME)
    which |= STORE_SET_MTIME, a.mtime = attr->st_mtim.tv_sec, a.mtime_nsec = (uint32_t)attr->st_mtim.tv_nsec;
  store_stat s;
  uint64_t g;
  lock_store(fs, &g);
  int r;
  if (fi && which == STORE_SET_SIZE) {
    /* ftruncate: the open checked the access (the kernel refuses a
     * descriptor not open for writing), not the mode bits of now (a file
     * made with mode 0444 and O_RDWR can still be truncated through it). */
    r = store_truncate(fs->cfg.st, (store_ino)ino, a.size);
    if (r == 0) r = store_getattr(fs->cfg.st, (store_ino)ino, &s);
  } else {
    r = store_setattr_ino(fs->cfg.st, (store_ino)ino, &a, which, &s);
    if (r == 0 && !which) r = store_getattr(fs->cfg.st, (store_ino)ino, &s);
  }
  unlock_store(fs, g);
  if (r < 0) {
    fuse_reply_err(req, -r);
    return;
  }
  struct stat st;
  to_stat(fs, &s, &st);
  fuse_reply_attr(req, &st, fs->cfg.cache_seconds);
}

static void op_readlink(fuse_req_t req, fuse_ino_t ino) {
  fuse_server *fs = server(req);
  int si = synth_index(fs, ino);
  if (si >= 0) {
    if (!fs->rt[si].is_symlink) fuse_reply_err(req, EINVAL);
    else fuse_reply_readlink(req, fs->rt[si].target);
    return;
  }
  char buf[STORE_PATH_MAX + 1];
  uint64_t g;
  lock_store(fs, &g);
  ssize_t r = store_readlink(fs->cfg.st, (store_ino)ino, buf, sizeof buf);
  unlock_store(fs, g);
  if (r < 0) {
    fuse_reply_err(req, (int)-r);
    return;
  }
  fuse_reply_readlink(req, buf);
}

/* Refuses to create or remove a name that the runtime entries shadow. */
static int shadowed(fuse_server *fs, uint64_t parent, const char *name) {
  return synth_by_name(fs, parent, name) >= 0 || synth_index(fs, parent) >= 0;
}

static void make_node(fuse_req_t req, fuse_ino_t parent, const char *name, mode_t mode, int dir,
                      const char *link_target) {
  fuse_server *fs = server(req);
  if (shadowed(fs, parent, name)) {
    fuse_reply_err(req, EEXIST);
    return;
  }
  store_stat s;
  uint64_t g;
  lock_store(fs, &g);
  int r = link_target ? store_symlink(fs->cfg.st, (store_ino)parent, name, link_target, &s)
          : dir       ? store_mkdir(fs->cfg.st, (store_ino)parent, name, mode & 07777, &s)
                      : store_create(fs->cfg.st, (store_ino)parent, name, S_IFREG | (mode & 07777), &s);
  unlock_store(fs, g);
  if (r < 0) {
    fuse_reply_err(req, -r);
    return;
  }
  reply_entry(req, fs, parent, name, &s);
}

static void op_mknod(fuse_req_t req, fuse_ino_t parent, const char *name, mode_t mode, dev_t rdev) {
  /* Regular files only: no devices, fifos or sockets in the store. */
  if (!S_ISREG(mode)) {
    fuse_reply_err(req, EPERM);
    return;
  }
  make_node(req, parent, name, mode, 0, NULL);
}

static void op_mkdir(fuse_req_t req, fuse_ino_t parent, const char *name, mode_t mode) {
  make_node(req, parent, name, mode, 1, NULL);
}

static void op_symlink(fuse_req_t req, const char *link, fuse_ino_t parent, const char *name) {
  make_node(req, parent, name, 0777, 0, link);
}

static void op_unlink_common(fuse_req_t req, fuse_ino_t parent, const char *name, int dir) {
  fuse_server *fs = server(req);
  if (shadowed(fs, parent, name)) {
    fuse_reply_err(req, EBUSY);
    return;
  }
  uint64_t g;
  lock_store(fs, &g);
  int r = dir ? store_rmdir(fs->cfg.st, (store_ino)parent, name)
              : store_unlink(fs->cfg.st, (store_ino)parent, name);
  unlock_store(fs, g);
  fuse_reply_err(req, r < 0 ? -r : 0);
}

static void op_unlink(fuse_req_t req, fuse_ino_t parent, const char *name) {
  op_unlink_common(req, parent, name, 0);
}

static void op_rmdir(fuse_req_t req, fuse_ino_t parent, const char *name) {
  op_unlink_common(req, parent, name, 1);
}

static void op_rename(fuse_req_t req, fuse_ino_t parent, const char *name, fuse_ino_t newparent,
                      const char *newname, unsigned int flags) {
  fuse_server *fs = server(req);
  if (shadowed(fs, parent, name) || shadowed(fs, newparent, newname)) {
    fuse_reply_err(req, EBUSY);
    return;
  }
  if (flags & ~(unsigned)RENAME_NOREPLACE) {
    fuse_reply_err(req, EINVAL); /* RENAME_EXCHANGE, RENAME_WHITEOUT */
    return;
  }
  uint64_t g;
  lock_store(fs, &g);
  int r = store_rename(fs->cfg.st, (store_ino)parent, name, (store_ino)newparent, newname,
                       (flags & RENAME_NOREPLACE) ? STORE_RENAME_NOREPLACE : 0);
  unlock_store(fs, g);
  fuse_reply_err(req, r < 0 ? -r : 0);
}

static void op_link(fuse_req_t req, fuse_ino_t ino, fuse_ino_t newparent, const char *newname) {
  fuse_server *fs = server(req);
  if (synth_index(fs, ino) >= 0 || shadowed(fs, newparent, newname)) {
    fuse_reply_err(req, EPERM);
    return;
  }
  store_stat s;
  uint64_t g;
  lock_store(fs, &g);
  int r = store_link(fs->cfg.st, (store_ino)ino, (store_ino)newparent, newname, &s);
  unlock_store(fs, g);
  if (r < 0) {
    fuse_reply_err(req, -r);
    return;
  }
  reply_entry(req, fs, newparent, newname, &s);
}

/* A new handle for `ino`, not yet listed (NULL: out of memory). */
static fs_handle *handle_new(uint64_t ino) {
  fs_handle *h = calloc(1, sizeof *h);
  if (h) h->ino = ino;
  return h;
}

/* Lists a handle whose inode the store now holds, and gives it to fi. */
static void handle_add(fuse_server *fs, fs_handle *h, struct fuse_file_info *fi) {
  pthread_mutex_lock(&fs->tab_lock);
  h->next = fs->handles;
  if (h->next) h->next->prev = h;
  fs->handles = h;
  pthread_mutex_unlock(&fs->tab_lock);
  fi->fh = (uint64_t)(uintptr_t)h;
}

static void handle_remove(fuse_server *fs, fs_handle *h) {
  pthread_mutex_lock(&fs->tab_lock);
  if (h->prev) h->prev->next = h->next;
  else fs->handles = h->next;
  if (h->next) h->next->prev = h->prev;
  pthread_mutex_unlock(&fs->tab_lock);
  free(h);
}

static int access_mask(int flags) {
  switch (flags & O_ACCMODE) {
    case O_WRONLY: return W_OK;
    case O_RDWR: return R_OK | W_OK;
    default: return R_OK;
  }
}

/* Whether the server remembers `ino` (a sync will invalidate it). */
static int inode_known(fuse_server *fs, uint64_t ino) {
  size_t h = (size_t)(ino * 0x9e3779b97f4a7c15ULL >> 40) % FS_HASH;
  pthread_mutex_lock(&fs->tab_lock);
  fs_inode *n = fs->inodes[h];
  while (n && n->ino != ino) n = n->next;
  pthread_mutex_unlock(&fs->tab_lock);
  return n != NULL;
}

/* The store's checks for open and opendir: the type, the access mask and, for
 * a file opened for writing with O_TRUNC, the truncation; then, for a file,
 * the hold. 0 or -errno. *current (may be NULL) tells whether the kernel's
 * view matched the store when the request began (no other writer since the
 * last sync). */
static int open_checks(fuse_server *fs, fuse_ino_t ino, int dir, int mask, int trunc,
                       int *current) {
  store_stat s;
  uint64_t g;
  lock_store(fs, &g);
  if (current) *current = g == fs->known_gen;
  int r = store_getattr(fs->cfg.st, (store_ino)ino, &s);
  if (r == 0 && !S_ISDIR(s.mode) != !dir) r = dir ? -ENOTDIR : -EISDIR;
  if (r == 0) r = store_access(fs->cfg.st, (store_ino)ino, mask);
  if (r == 0 && trunc) r = store_truncate(fs->cfg.st, (store_ino)ino, 0);
  if (r == 0 && !dir) r = store_hold(fs->cfg.st, (store_ino)ino);
  unlock_store(fs, g);
  return r;
}

/* Ends a handle: the store lets go of its inode (an orphan is freed). */
static void release_handle(fuse_server *fs, fs_handle *h) {
  uint64_t g;
  lock_store(fs, &g);
  store_unhold(fs->cfg.st, (store_ino)h->ino);
  unlock_store(fs, g);
  handle_remove(fs, h);
}

static void op_release(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi) {
  fs_handle *h = (fs_handle *)(uintptr_t)fi->fh;
  if (h) release_handle(server(req), h);
  fuse_reply_err(req, 0);
}

static void op_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi) {
  fuse_server *fs = server(req);
  if (synth_index(fs, ino) >= 0) {
    fuse_reply_err(req, EISDIR);
    return;
  }
  fs_handle *h = handle_new(ino);
  if (!h) {
    fuse_reply_err(req, ENOMEM);
    return;
  }
  int current = 0;
  int r = open_checks(fs, ino, 0, access_mask(fi->flags),
                      (fi->flags & O_TRUNC) && (fi->flags & O_ACCMODE) != O_RDONLY, &current);
  if (r < 0) {
    free(h);
    fuse_reply_err(req, -r);
    return;
  }
  handle_add(fs, h, fi);
  /* The kernel keeps the file's cached pages (a second read of an unchanged
   * file costs no request) only when they cannot be stale: every change
   * since the last sync came through this mount (which updates the pages
   * itself), and the inode is remembered, so the next sync after any other
   * writer invalidates its pages. Otherwise this open drops them. */
  fi->keep_cache = current && inode_known(fs, (uint64_t)ino);
  if (fuse_reply_open(req, fi) != 0) release_handle(fs, h); /* the opener is gone */
}

static void op_create(fuse_req_t req, fuse_ino_t parent, const char *name, mode_t mode,
                      struct fuse_file_info *fi) {
  fuse_server *fs = server(req);
  if (shadowed(fs, parent, name)) {
    fuse_reply_err(req, EEXIST);
    return;
  }
  fs_handle *h = handle_new(0);
  if (!h) {
    fuse_reply_err(req, ENOMEM);
    return;
  }
  store_stat s;
  uint64_t g;
  lock_store(fs, &g);
  int r = store_create(fs->cfg.st, (store_ino)parent, name, S_IFREG | (mode & 07777), &s);
  if (r == 0) r = store_hold(fs->cfg.st, s.ino);
  unlock_store(fs, g);
  if (r < 0) {
    free(h);
    fuse_reply_err(req, -r);
    return;
  }
  h->ino = (uint64_t)s.ino;
  handle_add(fs, h, fi);
  struct fuse_entry_param e;
  memset(&e, 0, sizeof e);
  e.ino = (fuse_ino_t)s.ino;
  to_stat(fs, &s, &e.attr);
  int ce = remember_entry(fs, parent, name), ci = remember_inode(fs, (uint64_t)s.ino);
  e.entry_timeout = ce ? fs->cfg.cache_seconds : 0;
  e.attr_timeout = ci ? fs->cfg.cache_seconds : 0;
  fi->keep_cache = 0;
  if (fuse_reply_create(req, &e, fi) != 0) {
    forget_inode(fs, (uint64_t)s.ino, 1);
    release_handle(fs, h);
  }
}

static void op_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
                    struct fuse_file_info *fi) {
  fuse_server *fs = server(req);
  if (off < 0) {
    fuse_reply_err(req, EINVAL);
    return;
  }
  if (size > FS_MAX_IO) size = FS_MAX_IO;
  /* One buffer for every read, kept: a fresh malloc of 128 KiB or more is
   * an mmap, page faults on each of its pages and an munmap per request. */
  if (!fs->rbuf && !(fs->rbuf = malloc(FS_MAX_IO))) {
    fuse_reply_err(req, ENOMEM);
    return;
  }
  uint64_t g;
  lock_store(fs, &g);
  ssize_t r = store_read(fs->cfg.st, (store_ino)ino, fs->rbuf, size, (uint64_t)off);
  unlock_store(fs, g);
  if (r < 0) fuse_reply_err(req, (int)-r);
  else fuse_reply_buf(req, fs->rbuf, (size_t)r);
}

static void op_write(fuse_req_t req, fuse_ino_t ino, const char *buf, size_t size, off_t off,
                     struct fuse_file_info *fi) {
  fuse_server *fs = server(req);
  if (off < 0) {
    fuse_reply_err(req, EINVAL);
    return;
  }
  uint64_t g;
  lock_store(fs, &g);
  ssize_t r = store_write(fs->cfg.st, (store_ino)ino, buf, size, (uint64_t)off);
  unlock_store(fs, g);
  if (r < 0) fuse_reply_err(req, (int)-r);
  else fuse_reply_write(req, (size_t)r);
}

static void op_ok(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi) {
  fuse_reply_err(req, 0);
}

static void op_fsync(fuse_req_t req, fuse_ino_t ino, int datasync, struct fuse_file_info *fi) {
  fuse_reply_err(req, 0); /* every store call is already atomic and committed */
}

static void op_opendir(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi) {
  fuse_server *fs = server(req);
  int r = synth_index(fs, ino) >= 0 ? 0 : open_checks(fs, ino, 1, R_OK, 0, NULL);
  if (r < 0) fuse_reply_err(req, -r);
  else fuse_reply_open(req, fi);
}

/* The readdir buffer being filled. */
typedef struct dir_fill {
  fuse_req_t req;     /* for fuse_add_direntry */
  fuse_server *fs;    /* the server */
  uint64_t dir;       /* directory inode */
  char *buf;          /* output */
  size_t size, used;  /* capacity, bytes used */
  int full;           /* the last entry did not fit */
} dir_fill;

static int add_dirent(dir_fill *d, const char *name, uint64_t ino, uint32_t mode, off_t next) {
  struct stat st;
  memset(&st, 0, sizeof st);
  st.st_ino = (ino_t)ino;
  st.st_mode = mode;
  size_t need = fuse_add_direntry(d->req, NULL, 0, name, NULL, 0);
  if (d->used + need > d->size) {
    d->full = 1;
    return 1;
  }
  fuse_add_direntry(d->req, d->buf + d->used, d->size - d->used, name, &st, next);
  d->used += need;
  return 0;
}

static int readdir_cb(void *ud, const store_dirent *e) {
  dir_fill *d = ud;
  if (synth_by_name(d->fs, d->dir, e->name) >= 0) return 0; /* shadowed at the root */
  return add_dirent(d, e->name, (uint64_t)e->ino, e->mode, (off_t)(e->cookie + FS_DIR_OFF));
}

static void op_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
                       struct fuse_file_info *fi) {
  fuse_server *fs = server(req);
  if (size > FS_MAX_IO) size = FS_MAX_IO;
  dir_fill d = {req, fs, ino, malloc(size ? size : 1), size, 0, 0};
  if (!d.buf || off < 0) {
    free(d.buf);
    fuse_reply_err(req, d.buf ? EINVAL : ENOMEM);
    return;
  }
  /* Offsets: 1 ".", 2 "..", 3.. the runtime entries (root only), then store
   * cookies + FS_DIR_OFF. */
  if (off < 1 && add_dirent(&d, ".", ino, S_IFDIR, 1)) goto out;
  if (off < 2 && add_dirent(&d, "..", ino, S_IFDIR, 2)) goto out;
  int si = synth_index(fs, ino);
  if (ino == FUSE_ROOT_ID) {
    for (int i = 0; i < fs->nrt; i++) {
      if (off >= 3 + i) continue;
      uint32_t mode = fs->rt[i].is_symlink ? S_IFLNK : S_IFDIR;
      if (add_dirent(&d, fs->rt[i].name, FS_SYNTH_BASE + (uint64_t)i, mode, 3 + i)) goto out;
    }
  }
  if (si < 0) {
    int64_t after = off >= FS_DIR_OFF ? (int64_t)off - FS_DIR_OFF : 0;
    uint64_t g;
    lock_store(fs, &g);
    int r = store_readdir(fs->cfg.st, (store_ino)ino, after, readdir_cb, &d);
    unlock_store(fs, g);
    if (r < 0 && d.used == 0) {
      free(d.buf);
      fuse_reply_err(req, -r);
      return;
    }
  }
out:
  fuse_reply_buf(req, d.buf, d.used);
  free(d.buf);
}

static void op_statfs(fuse_req_t req, fuse_ino_t ino) {
  struct statvfs sv;
  memset(&sv, 0, sizeof sv);
  sv.f_bsize = sv.f_frsize = 4096;
  sv.f_blocks = sv.f_bfree = sv.f_bavail = 1ULL << 28; /* quotas answer ENOSPC themselves */
  sv.f_files = sv.f_ffree = sv.f_favail = 1ULL << 24;
  sv.f_namemax = STORE_NAME_MAX;
  fuse_reply_statfs(req, &sv);
}

static void op_access(fuse_req_t req, fuse_ino_t ino, int mask) {
  fuse_server *fs = server(req);
  if (synth_index(fs, ino) >= 0) {
    fuse_reply_err(req, (mask & W_OK) ? EROFS : 0);
    return;
  }
  uint64_t g;
  lock_store(fs, &g);
  int r = store_access(fs->cfg.st, (store_ino)ino, mask);
  unlock_store(fs, g);
  fuse_reply_err(req, r < 0 ? -r : 0);
}

static const struct fuse_lowlevel_ops ops = {
    .init = op_init,
    .lookup = op_lookup,
    .forget = op_forget,
    .forget_multi = op_forget_multi,
    .getattr = op_getattr,
    .setattr = op_setattr,
    .readlink = op_readlink,
    .mknod = op_mknod,
    .mkdir = op_mkdir,
    .unlink = op_unlink,
    .rmdir = op_rmdir,
    .symlink = op_symlink,
    .rename = op_rename,
    .link = op_link,
    .open = op_open,
    .read = op_read,
    .write = op_write,
    .flush = op_ok,
    .release = op_release,
    .fsync = op_fsync,
    .opendir = op_opendir,
    .readdir = op_readdir,
    .releasedir = op_ok,
    .fsyncdir = op_fsync,
    .statfs = op_statfs,
    .access = op_access,
    .create = op_create,
};

/* ---- O_TMPFILE, below libfuse ------------------------------------------------------------- */

/* Writes one reply: the header, then `n` parts. 0 or -1. */
static int raw_reply(fuse_server *fs, uint64_t unique, int error, struct iovec *part, int n) {
  struct fuse_out_header oh = {.unique = unique, .error = error ? -error : 0};
  struct iovec iov[4];
  iov[0].iov_base = &oh;
  iov[0].iov_len = sizeof oh;
  size_t len = sizeof oh;
  for (int i = 0; i < n && i < 3; i++) {
    iov[i + 1] = part[i];
    len += part[i].iov_len;
  }
  oh.len = (uint32_t)len;
  ssize_t w = writev(fuse_session_fd(fs->se), iov, error ? 1 : n + 1);
  return w == (ssize_t)(error ? sizeof oh : len) ? 0 : -1;
}

/* FUSE_TMPFILE: (fuse_create_in, name) in, (fuse_entry_out, fuse_open_out)
 * out, as FUSE_CREATE; the name ("/") is not used. The request's length was
 * checked by the kernel, and again here. */
static void serve_tmpfile(fuse_server *fs, const struct fuse_in_header *ih, size_t len) {
  if (len < sizeof *ih + sizeof(struct fuse_create_in)) {
    raw_reply(fs, ih->unique, EINVAL, NULL, 0);
    return;
  }
  const struct fuse_create_in *in = (const void *)(ih + 1);
  if (synth_index(fs, ih->nodeid) >= 0) {
    raw_reply(fs, ih->unique, EROFS, NULL, 0);
    return;
  }
  fs_handle *h = handle_new(0);
  if (!h) {
    raw_reply(fs, ih->unique, ENOMEM, NULL, 0);
    return;
  }
  store_stat s;
  uint64_t g;
  lock_store(fs, &g);
  int r = store_tmpfile(fs->cfg.st, (store_ino)ih->nodeid, in->mode & ~in->umask & 07777, &s);
  unlock_store(fs, g);
  if (r < 0) {
    free(h);
    raw_reply(fs, ih->unique, -r, NULL, 0);
    return;
  }
  h->ino = (uint64_t)s.ino;
  struct fuse_file_info fi;
  memset(&fi, 0, sizeof fi);
  handle_add(fs, h, &fi);
  struct stat st;
  to_stat(fs, &s, &st);
  struct fuse_entry_out eo;
  memset(&eo, 0, sizeof eo);
  eo.nodeid = (uint64_t)s.ino;
  eo.attr_valid = 0; /* no caching: its nlink changes when it is linked */
  eo.attr.ino = (uint64_t)s.ino;
  eo.attr.mode = st.st_mode;
  eo.attr.nlink = 0;
  eo.attr.uid = st.st_uid;
  eo.attr.gid = st.st_gid;
  eo.attr.blksize = 4096;
  eo.attr.atime = (uint64_t)st.st_atim.tv_sec;
  eo.attr.mtime = (uint64_t)st.st_mtim.tv_sec;
  eo.attr.ctime = (uint64_t)st.st_ctim.tv_sec;
  eo.attr.atimensec = (uint32_t)st.st_atim.tv_nsec;
  eo.attr.mtimensec = (uint32_t)st.st_mtim.tv_nsec;
  eo.attr.ctimensec = (uint32_t)st.st_ctim.tv_nsec;
  struct fuse_open_out oo;
  memset(&oo, 0, sizeof oo);
  oo.fh = fi.fh;
  remember_inode(fs, (uint64_t)s.ino); /* the kernel counts it as a lookup */
  struct iovec part[2] = {{&eo, sizeof eo}, {&oo, sizeof oo}};
  if (raw_reply(fs, ih->unique, 0, part, 2) != 0) {
    forget_inode(fs, (uint64_t)s.ino, 1);
    release_handle(fs, h);
  }
}

/* ---- the loop ---------------------------------------------------------------------------- */

static void *serve(void *arg) {
  fuse_server *fs = arg;
  struct fuse_buf buf;
  memset(&buf, 0, sizeof buf);
  int fd = fuse_session_fd(fs->se);
  while (!fuse_session_exited(fs->se)) {
    struct pollfd p[2] = {{fd, POLLIN, 0}, {fs->stop_fd, POLLIN, 0}};
    int r = poll(p, 2, -1);
    if (r < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (p[1].revents) break;
    if (p[0].revents & (POLLERR | POLLHUP | POLLNVAL)) break;
    int n = fuse_session_receive_buf(fs->se, &buf);
    if (n == -EINTR || n == -EAGAIN) continue;
    if (n <= 0) break; /* ENODEV: the jail's mount is gone */
    atomic_fetch_add(&fs->requests, 1);
    const struct fuse_in_header *ih = buf.mem;
    if (!(buf.flags & FUSE_BUF_IS_FD) && (size_t)n >= sizeof *ih && ih->opcode == FUSE_TMPFILE) {
      serve_tmpfile(fs, ih, (size_t)n);
      continue;
    }
    fuse_session_process_buf(fs->se, &buf);
  }
  free(buf.mem);
  return NULL;
}

int fuse_server_start(const fuse_server_config *cfg, fuse_server **out, char *err, size_t errlen) {
  *out = NULL;
  fuse_server *fs = calloc(1, sizeof *fs);
  if (!fs) {
    snprintf(err, errlen, "fuse: out of memory");
    close(cfg->dev_fd);
    return -1;
  }
  fs->cfg = *cfg;
  fs->nrt = jail_runtime_entries(fs->rt, JAIL_MAX_RUNTIME);
  pthread_mutex_init(&fs->tab_lock, NULL);
  fs->stop_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  take_store(fs);
  fs->known_gen = store_generation(cfg->st);
  give_store(fs);
  char *argv[] = {(char *)"sbx-fuse", NULL};
  struct fuse_args args = FUSE_ARGS_INIT(1, argv);
  fs->se = fs->stop_fd >= 0 ? fuse_session_new(&args, &ops, sizeof ops, fs) : NULL;
  fuse_opt_free_args(&args);
  char mp[32];
  snprintf(mp, sizeof mp, "/dev/fd/%d", cfg->dev_fd);
  if (!fs->se || fuse_session_mount(fs->se, mp) != 0) {
    snprintf(err, errlen, "fuse: cannot start a session on the jail's /dev/fuse");
    close(cfg->dev_fd);
    fs->cfg.dev_fd = -1;
    fuse_server_stop(fs);
    return -1;
  }
  if (pthread_create(&fs->thread, NULL, serve, fs) != 0) {
    snprintf(err, errlen, "fuse: cannot start the server thread");
    fuse_server_stop(fs);
    return -1;
  }
  fs->thread_started = 1;
  *out = fs;
  return 0;
}

int fuse_server_stale(fuse_server *fs) {
  if (!fs || !fs->init_done) return 0;
  uint64_t gen = store_generation(fs->cfg.st);
  int stale = gen != fs->known_gen;
  fs->known_gen = gen;
  return stale;
}

void fuse_server_sync(fuse_server *fs) {
  if (!fs || !fs->init_done) return;
  pthread_mutex_lock(fs->cfg.lock);
  int stale = fuse_server_stale(fs);
  pthread_mutex_unlock(fs->cfg.lock);
  if (stale) fuse_server_invalidate(fs);
}

void fuse_server_invalidate(fuse_server *fs) {
  if (!fs || !fs->init_done) return;
  /* Take the tables, then notify without any lock held: the kernel may need
   * the server thread (and it the store) to finish what it is doing. */
  pthread_mutex_lock(&fs->tab_lock);
  fs_entry *entries[FS_HASH];
  memcpy(entries, fs->entries, sizeof entries);
  memset(fs->entries, 0, sizeof fs->entries);
  fs->nentries = 0;
  size_t ni = 0;
  uint64_t *inos = malloc(fs->ninodes * sizeof *inos + 1);
  for (size_t i = 0; inos && i < FS_HASH; i++)
    for (fs_inode *x = fs->inodes[i]; x; x = x->next) inos[ni++] = x->ino;
  pthread_mutex_unlock(&fs->tab_lock);
  for (size_t i = 0; i < FS_HASH; i++) {
    for (fs_entry *e = entries[i], *n; e; e = n) {
      n = e->next;
      fuse_lowlevel_notify_inval_entry(fs->se, (fuse_ino_t)e->parent, e->name, strlen(e->name));
      free(e);
    }
  }
  for (size_t i = 0; i < ni; i++) fuse_lowlevel_notify_inval_inode(fs->se, (fuse_ino_t)inos[i], 0, 0);
  free(inos);
}

void fuse_server_stop(fuse_server *fs) {
  if (!fs) return;
  if (fs->thread_started) {
    uint64_t one = 1;
    if (write(fs->stop_fd, &one, sizeof one) < 0) {
      /* cannot fail for an eventfd below its maximum; the thread also ends
       * when the mount goes away */
    }
    pthread_join(fs->thread, NULL);
  }
  if (fs->se) fuse_session_destroy(fs->se); /* closes the /dev/fuse fd */
  /* Handles the kernel will never release now: the store frees their
   * orphans at its next write (the caller may own the store right now). */
  for (fs_handle *h = fs->handles, *n; h; h = n) {
    n = h->next;
    store_unhold_later(fs->cfg.st, (store_ino)h->ino);
    free(h);
  }
  fs->handles = NULL;
  if (fs->stop_fd >= 0) close(fs->stop_fd);
  free(fs->rbuf);
  free_tables(fs);
  pthread_mutex_destroy(&fs->tab_lock);
  free(fs);
}

uint64_t fuse_server_requests(const fuse_server *fs) { return fs ? atomic_load(&fs->requests) : 0; }
