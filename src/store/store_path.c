/*
 * store_path.c - the path API: resolution of byte-string paths to inodes the
 * way Linux does it, and the path-level operations built on the inode API.
 *
 * Resolution walks components over a stack of inodes, the physical chain from
 * the root to the current directory (a directory has exactly one dentry, so
 * the stack is the real ancestry): ".." pops (and stays at the root), "."
 * does nothing, a symlink in the middle (or last, unless STORE_NOFOLLOW, or
 * with a trailing slash) is spliced into the remaining path text and the walk
 * continues from the symlink's directory (or the root for an absolute
 * target). Each directory walked needs x for the caller. More than
 * STORE_SYMLINK_MAX symlinks in one resolution give ELOOP, so loops end.
 * The stack also keeps the component names, which is all realpath needs.
 *
 * Limits (every input is bounded): a path or cwd of STORE_PATH_MAX bytes or
 * more, a component over STORE_NAME_MAX, a symlink splice that would exceed
 * 2*STORE_PATH_MAX, or a walk deeper than WALK_MAX_DEPTH give ENAMETOOLONG.
 *
 * Every mutating path call resolves and changes inside one savepoint, so the
 * resolution it acted on cannot change under it and a failure changes
 * nothing.
 *
 * Directories passed on the way come from the directory cache when it has
 * them (store_dcache.c): the walk then knows only what passing needs (inode,
 * mode, owner), marked `top_partial`, and reads the full attributes only if
 * the walk ends on such a directory. The last component is always looked up
 * for real. Read-only calls outside a transaction run again when the cache
 * turns out stale afterwards (store_dcache_stale), so they never answer
 * from another connection's past.
 *
 * Whole files: store_path_read_file finds a small file's attributes and its
 * one chunk in a single query (ST_LOOKUP_DATA); store_path_write_file looks
 * the last name up once and then either creates the file at its final size
 * (inode, dentry, chunks) or replaces an existing file's chunks and size.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "store/store_internal.h"

#define WALK_MAX_DEPTH 2048 /* directories deep; a 4095-byte path holds fewer */
#define WALK_INLINE 32      /* stack entries before the walk allocates */

#define WALK_FOLLOW 0x01 /* follow a symlink in the last component */
#define WALK_PARENT 0x02 /* stop before the last component, return its name */

/* One directory on the walk's stack. */
typedef struct walk_ent {
  store_ino ino;     /* the directory (or final inode) */
  uint32_t name_off; /* its name in walk.names */
  uint32_t name_len; /* name length (0 for the root) */
} walk_ent;

/* The state of one resolution. */
typedef struct walk {
  store *s;                    /* the store walked */
  int nlinks;                  /* symlinks followed so far */
  int depth, cap;              /* stack entries used / allocated */
  walk_ent *ents;              /* the stack: ents[0] is the root */
  char *names;                 /* names of the stack entries, concatenated */
  size_t names_len, names_cap; /* used / allocated bytes of names */
  store_stat root;             /* the root's attributes (read once) */
  store_stat top;              /* attributes of ents[depth-1] */
  int root_partial;            /* root came from the cache (see top_partial) */
  int top_partial;             /* top came from the cache: only ino, mode, uid, gid set */
  walk_ent inl_ents[WALK_INLINE];   /* first entries, no allocation */
  char inl_names[WALK_INLINE * 16]; /* first names, no allocation */
} walk;

static void walk_free(walk *w) {
  if (w->ents != w->inl_ents) free(w->ents);
  if (w->names != w->inl_names) free(w->names);
}

static void walk_to_root(walk *w) {
  w->depth = 1;
  w->names_len = 0;
  w->top = w->root;
  w->top_partial = w->root_partial;
}

static int walk_init(walk *w, store *s) {
  w->s = s;
  w->nlinks = 0;
  w->ents = w->inl_ents;
  w->cap = WALK_INLINE;
  w->names = w->inl_names;
  w->names_cap = sizeof w->inl_names;
  w->ents[0].ino = STORE_ROOT_INO;
  w->ents[0].name_off = w->ents[0].name_len = 0;
  int err = 0;
  w->root_partial = store_dcache_get(s, 0, "", 0, &w->root);
  if (!w->root_partial) {
    err = store_i_getattr(s, STORE_ROOT_INO, &w->root);
    if (!err) store_dcache_put(s, 0, "", 0, &w->root);
  }
  walk_to_root(w);
  return err;
}

static int walk_push(walk *w, const store_stat *st, int partial, const char *name,
                     size_t nlen) {
  if (w->depth >= WALK_MAX_DEPTH) return -ENAMETOOLONG;
  if (w->depth == w->cap) {
    int cap = w->cap * 4;
    walk_ent *e = malloc((size_t)cap * sizeof *e);
    if (!e) return -ENOMEM;
    memcpy(e, w->ents, (size_t)w->depth * sizeof *e);
    if (w->ents != w->inl_ents) free(w->ents);
    w->ents = e;
    w->cap = cap;
  }
  if (w->names_len + nlen > w->names_cap) {
    size_t cap = (w->names_len + nlen) * 2;
    char *n = malloc(cap);
    if (!n) return -ENOMEM;
    memcpy(n, w->names, w->names_len);
    if (w->names != w->inl_names) free(w->names);
    w->names = n;
    w->names_cap = cap;
  }
  walk_ent *e = &w->ents[w->depth++];
  e->ino = st->ino;
  e->name_off = (uint32_t)w->names_len;
  e->name_len = (uint32_t)nlen;
  memcpy(w->names + w->names_len, name, nlen);
  w->names_len += nlen;
  w->top = *st;
  w->top_partial = partial;
  return 0;
}

static int walk_pop(walk *w) {
  if (w->depth <= 1) return 0; /* ".." at the root stays at the root */
  w->depth--;
  w->names_len = w->ents[w->depth].name_off;
  if (w->depth == 1) {
    w->top = w->root;
    w->top_partial = w->root_partial;
    return 0;
  }
  w->top_partial = 0;
  return store_i_getattr(w->s, w->ents[w->depth - 1].ino, &w->top);
}

/* Makes w->top complete when it came from the cache. */
static int walk_full_top(walk *w) {
  if (!w->top_partial) return 0;
  int err = store_i_getattr(w->s, w->top.ino, &w->top);
  if (!err) w->top_partial = 0;
  return err;
}

static int path_check(const char *path) {
  if (!path) return -EINVAL;
  if (!*path) return -ENOENT;
  if (strnlen(path, STORE_PATH_MAX) >= STORE_PATH_MAX) return -ENAMETOOLONG;
  return 0;
}

/* Walks `path` from the current top (or the root when absolute). With
 * WALK_PARENT, stops before the last component and returns it in name/nlen
 * (nlen 0 when the path names the root) with *tslash set when a slash
 * followed it. */
static int walk_path(walk *w, const char *path, int flags, char *name, size_t *nlen,
                     int *tslash) {
  store *s = w->s;
  char buf[2 * STORE_PATH_MAX];
  size_t len = strlen(path), pos = 0;
  int err, final_slash = 0;
  if (len >= sizeof buf) return -ENAMETOOLONG;
  memcpy(buf, path, len + 1);
  if (buf[0] == '/') walk_to_root(w);
  for (;;) {
    while (buf[pos] == '/') pos++;
    if (!buf[pos]) { /* only slashes: the path names the current top */
      if (flags & WALK_PARENT) {
        *nlen = 0;
        name[0] = 0;
        *tslash = 0;
      }
      break;
    }
    size_t start = pos;
    while (buf[pos] && buf[pos] != '/') pos++;
    size_t clen = pos - start, after = pos;
    while (buf[after] == '/') after++;
    int last = buf[after] == 0, slash = last && after > pos;
    const char *c = buf + start;
    if (clen > STORE_NAME_MAX) return -ENAMETOOLONG;
    if (!S_ISDIR(w->top.mode)) return -ENOTDIR;
    if ((err = store_i_perm(s, &w->top, X_OK))) return err;
    if (last && (flags & WALK_PARENT)) {
      memcpy(name, c, clen);
      name[clen] = 0;
      *nlen = clen;
      *tslash = slash;
      return 0;
    }
    if (clen == 1 && c[0] == '.') {
      /* stays */
    } else if (clen == 2 && c[0] == '.' && c[1] == '.') {
      if ((err = walk_pop(w))) return err;
    } else {
      store_stat st;
      int partial = !last && store_dcache_get(s, w->top.ino, c, clen, &st);
      if (!partial) {
        if ((err = store_i_lookup(s, w->top.ino, c, clen, &st))) return err;
        store_dcache_put(s, w->top.ino, c, clen, &st);
      }
      if (S_ISLNK(st.mode) && (!last || (flags & WALK_FOLLOW) || slash)) {
        if (++w->nlinks > STORE_SYMLINK_MAX) return -ELOOP;
        char target[STORE_PATH_MAX];
        ssize_t tl = store_i_readlink(s, st.ino, target, sizeof target);
        if (tl < 0) return (int)tl;
        if (tl >= STORE_PATH_MAX) return -ENAMETOOLONG;
        tl = (ssize_t)strnlen(target, (size_t)tl);
        if (tl == 0) return -ENOENT;
        /* Splice: target + "/" + rest (the slash also keeps a trailing
         * slash's "must be a directory"). */
        size_t rest = len - after, sep = (!last || slash) ? 1 : 0;
        if ((size_t)tl + sep + rest >= sizeof buf) return -ENAMETOOLONG;
        memmove(buf + tl + sep, buf + after, rest + 1);
        if (sep) buf[tl] = '/';
        memcpy(buf, target, (size_t)tl);
        len = (size_t)tl + sep + rest;
        pos = 0;
        if (buf[0] == '/') walk_to_root(w);
        continue;
      }
      if ((err = walk_push(w, &st, partial, c, clen))) return err;
    }
    pos = after;
    if (last) {
      final_slash = slash;
      break;
    }
  }
  if (final_slash && !S_ISDIR(w->top.mode)) return -ENOTDIR;
  return 0;
}

/* Starts a walk at cwd (for a relative path) after checking the path. */
static int walk_start(walk *w, store *s, const char *cwd, const char *path) {
  int err = walk_init(w, s);
  if (err) return err;
  if ((err = path_check(path))) return err;
  if (path[0] != '/' && cwd && *cwd) {
    char dummy[1];
    size_t n;
    int t;
    if ((err = path_check(cwd))) return err;
    if ((err = walk_path(w, cwd, WALK_FOLLOW, dummy, &n, &t))) return err;
    if (!S_ISDIR(w->top.mode)) return -ENOTDIR;
  }
  return 0;
}

/* Resolves a whole path into w (w must be walk_free'd by the caller). */
static int resolve_w(walk *w, store *s, const char *cwd, const char *path, int follow) {
  int err = walk_start(w, s, cwd, path);
  char dummy[1];
  size_t n;
  int t;
  if (!err) err = walk_path(w, path, follow ? WALK_FOLLOW : 0, dummy, &n, &t);
  if (!err) err = walk_full_top(w);
  return err;
}

/* For read-only calls outside a transaction: whether to run once more
 * because the directory cache was stale (at most twice more: after that
 * the answer is as consistent as separate queries can be anyway). */
static int read_again(store *s, int *pass) {
  if (*pass >= 2) return 0;
  ++*pass;
  return store_dcache_stale(s);
}

/* Resolves all but the last component: w->top is the parent directory. */
static int parent_w(walk *w, store *s, const char *cwd, const char *path, char *name,
                    size_t *nlen, int *tslash) {
  int err = walk_start(w, s, cwd, path);
  if (!err) err = walk_path(w, path, WALK_PARENT, name, nlen, tslash);
  return err;
}

/* A path split into its resolved parent directory and its last name. */
typedef struct last_ref {
  walk w;                        /* w.top is the parent directory */
  char name[STORE_NAME_MAX + 1]; /* the last component ("" for the root) */
  size_t nlen;                   /* its length */
  int tslash;                    /* a slash followed it ("x/") */
} last_ref;

/* Resolves `path` into l (l->w must be walk_free'd by the caller). */
static int last_of(last_ref *l, store *s, const char *cwd, const char *path) {
  return parent_w(&l->w, s, cwd, path, l->name, &l->nlen, &l->tslash);
}

static int is_dot(const char *name, size_t nlen) {
  return (nlen == 1 && name[0] == '.') || (nlen == 2 && name[0] == '.' && name[1] == '.');
}

/* ---- read-only path calls -------------------------------------------------------- */

int store_resolve(store *s, const char *cwd, const char *path, int flags,
                  store_stat *st) {
  int err, pass = 0;
  s->dcache_used = 0;
  do {
    walk w;
    err = resolve_w(&w, s, cwd, path, !(flags & STORE_NOFOLLOW));
    if (!err && st) *st = w.top;
    walk_free(&w);
  } while (read_again(s, &pass));
  return err;
}

int store_resolve_parent(store *s, const char *cwd, const char *path, store_ino *dir,
                         char *name) {
  int err, pass = 0;
  s->dcache_used = 0;
  do {
    last_ref l;
    err = last_of(&l, s, cwd, path);
    if (!err) {
      *dir = l.w.top.ino;
      memcpy(name, l.name, l.nlen + 1);
    }
    walk_free(&l.w);
  } while (read_again(s, &pass));
  return err;
}

static int realpath_i(store *s, const char *cwd, const char *path, char **out) {
  *out = NULL;
  walk w;
  int err = resolve_w(&w, s, cwd, path, 1);
  if (!err) {
    size_t len = 0;
    for (int i = 1; i < w.depth; i++) len += 1 + w.ents[i].name_len;
    if (len >= STORE_PATH_MAX) {
      err = -ENAMETOOLONG;
    } else if (!(*out = malloc(len + 2))) {
      err = -ENOMEM;
    } else {
      char *p = *out;
      for (int i = 1; i < w.depth; i++) {
        *p++ = '/';
        memcpy(p, w.names + w.ents[i].name_off, w.ents[i].name_len);
        p += w.ents[i].name_len;
      }
      if (p == *out) *p++ = '/';
      *p = 0;
    }
  }
  walk_free(&w);
  return err;
}

int store_realpath(store *s, const char *cwd, const char *path, char **out) {
  int err, pass = 0;
  s->dcache_used = 0;
  err = realpath_i(s, cwd, path, out);
  while (read_again(s, &pass)) {
    free(*out);
    err = realpath_i(s, cwd, path, out);
  }
  return err;
}

int store_path_stat(store *s, const char *cwd, const char *path, store_stat *st) {
  return store_resolve(s, cwd, path, 0, st);
}

int store_path_lstat(store *s, const char *cwd, const char *path, store_stat *st) {
  return store_resolve(s, cwd, path, STORE_NOFOLLOW, st);
}

int store_path_readlink(store *s, const char *cwd, const char *path, char **out) {
  *out = NULL;
  store_stat st;
  int err = store_resolve(s, cwd, path, STORE_NOFOLLOW, &st);
  if (err) return err;
  if (!S_ISLNK(st.mode)) return -EINVAL;
  char *buf = malloc(STORE_PATH_MAX);
  if (!buf) return -ENOMEM;
  ssize_t n = store_i_readlink(s, st.ino, buf, STORE_PATH_MAX);
  if (n < 0) {
    free(buf);
    return (int)n;
  }
  *out = buf;
  return 0;
}

/* ---- mutating path calls ---------------------------------------------------------- */

static int mkdir_i(store *s, const char *cwd, const char *path, uint32_t mode) {
  last_ref l;
  int err = last_of(&l, s, cwd, path);
  if (!err) {
    if (l.nlen == 0 || is_dot(l.name, l.nlen))
      err = -EEXIST;
    else
      err = store_i_mknod(s, &l.w.top, l.name, l.nlen,
                          S_IFDIR | (mode & 07777 & ~s->umask), NULL, NULL);
  }
  walk_free(&l.w);
  return err;
}

int store_path_mkdir(store *s, const char *cwd, const char *path, uint32_t mode) {
  int err = store_tx_begin(s);
  if (err) return err;
  return store_tx_end(s, mkdir_i(s, cwd, path, mode));
}

/* mkdir -p inside the caller's transaction: each prefix that ends a
 * component is resolved and created when missing. */
static int mkdir_p_i(store *s, const char *cwd, const char *path, uint32_t mode) {
  store_stat st;
  int err = store_resolve(s, cwd, path, 0, &st);
  if (err == 0) return S_ISDIR(st.mode) ? 0 : -EEXIST;
  if (err != -ENOENT) return err;
  size_t len = strlen(path);
  char *buf = malloc(len + 1);
  if (!buf) return -ENOMEM;
  memcpy(buf, path, len + 1);
  err = 0;
  for (size_t i = 1; i <= len && !err; i++) {
    if (i < len && !(buf[i] == '/' && buf[i - 1] != '/')) continue;
    char save = buf[i];
    buf[i] = 0;
    err = store_resolve(s, cwd, buf, 0, &st);
    if (err == 0 && !S_ISDIR(st.mode)) err = i == len ? -EEXIST : -ENOTDIR;
    if (err == -ENOENT) err = mkdir_i(s, cwd, buf, mode);
    buf[i] = save;
  }
  free(buf);
  return err;
}

int store_path_mkdir_p(store *s, const char *cwd, const char *path, uint32_t mode) {
  int err = path_check(path);
  if (err) return err;
  if ((err = store_tx_begin(s))) return err;
  return store_tx_end(s, mkdir_p_i(s, cwd, path, mode));
}

static int unlink_i(store *s, const char *cwd, const char *path, int want_dir) {
  last_ref l;
  int err = last_of(&l, s, cwd, path);
  if (!err) {
    if (l.nlen == 0) {
      err = want_dir ? -EBUSY : -EISDIR;
    } else if (l.tslash && !want_dir) {
      /* "x/": a directory (or a link to one) is EISDIR, anything else
       * ENOTDIR, a missing one ENOENT */
      store_stat st;
      err = store_resolve(s, cwd, path, 0, &st);
      err = err == 0 ? -EISDIR : err;
    } else {
      err = store_i_unlink(s, &l.w.top, l.name, l.nlen, want_dir);
    }
  }
  walk_free(&l.w);
  return err;
}

int store_path_unlink(store *s, const char *cwd, const char *path) {
  int err = store_tx_begin(s);
  if (err) return err;
  return store_tx_end(s, unlink_i(s, cwd, path, 0));
}

int store_path_rmdir(store *s, const char *cwd, const char *path) {
  int err = store_tx_begin(s);
  if (err) return err;
  return store_tx_end(s, unlink_i(s, cwd, path, 1));
}

static int rename_i(store *s, const char *cwd, const char *from, const char *to) {
  last_ref a, b;
  int err = last_of(&a, s, cwd, from);
  if (err) {
    walk_free(&a.w);
    return err;
  }
  err = last_of(&b, s, cwd, to);
  if (!err &&
      (a.nlen == 0 || b.nlen == 0 || is_dot(a.name, a.nlen) || is_dot(b.name, b.nlen)))
    err = -EBUSY;
  if (!err && (a.tslash || b.tslash)) {
    /* A trailing slash on either side requires the source to be a dir. */
    store_stat o;
    err = store_i_lookup(s, a.w.top.ino, a.name, a.nlen, &o);
    if (!err && !S_ISDIR(o.mode)) err = -ENOTDIR;
  }
  if (!err)
    err = store_i_rename(s, &a.w.top, a.name, a.nlen, &b.w.top, b.name, b.nlen, 0);
  walk_free(&a.w);
  walk_free(&b.w);
  return err;
}

int store_path_rename(store *s, const char *cwd, const char *from, const char *to) {
  int err = store_tx_begin(s);
  if (err) return err;
  return store_tx_end(s, rename_i(s, cwd, from, to));
}

/* Checks the new name of link/symlink: not the root, ".", "..", or "x/". */
static int new_name_ok(store *s, const last_ref *l) {
  if (l->nlen == 0 || is_dot(l->name, l->nlen)) return -EEXIST;
  if (l->tslash) {
    store_stat st;
    int err = store_i_lookup(s, l->w.top.ino, l->name, l->nlen, &st);
    return err == 0 ? -EEXIST : err;
  }
  return 0;
}

int store_path_link(store *s, const char *cwd, const char *target, const char *newpath) {
  int err = store_tx_begin(s);
  if (err) return err;
  walk t;
  err = resolve_w(&t, s, cwd, target, 0); /* link(2) does not follow */
  if (!err) {
    last_ref l;
    err = last_of(&l, s, cwd, newpath);
    if (!err) err = new_name_ok(s, &l);
    if (!err) err = store_i_link(s, &t.top, &l.w.top, l.name, l.nlen, NULL);
    walk_free(&l.w);
  }
  walk_free(&t);
  return store_tx_end(s, err);
}

int store_path_symlink(store *s, const char *cwd, const char *target,
                       const char *linkpath) {
  if (!target) return -EINVAL;
  int err = store_tx_begin(s);
  if (err) return err;
  last_ref l;
  err = last_of(&l, s, cwd, linkpath);
  if (!err) err = new_name_ok(s, &l);
  if (!err)
    err = store_i_mknod(s, &l.w.top, l.name, l.nlen, S_IFLNK | 0777, target, NULL);
  walk_free(&l.w);
  return store_tx_end(s, err);
}

static int setattr_path(store *s, const char *cwd, const char *path, int follow,
                        const store_setattr *a, int which) {
  int err = store_tx_begin(s);
  if (err) return err;
  walk w;
  err = resolve_w(&w, s, cwd, path, follow);
  if (!err) err = store_i_setattr(s, &w.top, a, which, NULL);
  walk_free(&w);
  return store_tx_end(s, err);
}

int store_path_chmod(store *s, const char *cwd, const char *path, uint32_t mode) {
  store_setattr a = {0};
  a.mode = mode;
  return setattr_path(s, cwd, path, 1, &a, STORE_SET_MODE);
}

int store_path_utimes(store *s, const char *cwd, const char *path,
                      const struct timespec times[2], int flags) {
  store_setattr a = {0};
  int which = 0;
  if (!times) {
    which = STORE_SET_ATIME_NOW | STORE_SET_MTIME_NOW;
  } else {
    for (int k = 0; k < 2; k++) {
      long ns = times[k].tv_nsec;
      if (ns == UTIME_OMIT) continue;
      if (ns == UTIME_NOW) {
        which |= k == 0 ? STORE_SET_ATIME_NOW : STORE_SET_MTIME_NOW;
        continue;
      }
      if (ns < 0 || ns > 999999999L) return -EINVAL;
      if (k == 0) {
        a.atime = times[k].tv_sec;
        a.atime_nsec = (uint32_t)ns;
        which |= STORE_SET_ATIME;
      } else {
        a.mtime = times[k].tv_sec;
        a.mtime_nsec = (uint32_t)ns;
        which |= STORE_SET_MTIME;
      }
    }
  }
  return setattr_path(s, cwd, path, !(flags & STORE_NOFOLLOW), &a, which);
}

/* open(2) inside the caller's transaction. *created tells whether the file
 * was made by this call (its mode is then not checked, as in Linux). */
static int open_i(store *s, const char *cwd, const char *path, int oflags, uint32_t mode,
                  store_stat *st, int *created) {
  int acc = oflags & O_ACCMODE;
  if (acc != O_RDONLY && acc != O_WRONLY && acc != O_RDWR) return -EINVAL;
  int need = acc == O_RDONLY ? R_OK : acc == O_WRONLY ? W_OK : R_OK | W_OK;
  if (oflags & O_TRUNC) need |= W_OK;
  *created = 0;
  walk w;
  int err, slash = 0;
  if (!(oflags & O_CREAT)) {
    err = resolve_w(&w, s, cwd, path, !(oflags & O_NOFOLLOW));
    if (!err && S_ISLNK(w.top.mode)) err = -ELOOP; /* only with O_NOFOLLOW */
    if (!err) *st = w.top;
  } else {
    char name[STORE_NAME_MAX + 1];
    size_t nlen;
    err = parent_w(&w, s, cwd, path, name, &nlen, &slash);
    for (;;) {
      if (err) break;
      if (nlen == 0 || is_dot(name, nlen)) {
        err = -EISDIR;
        break;
      }
      err = store_i_lookup(s, w.top.ino, name, nlen, st);
      if (err == -ENOENT) {
        if (slash) {
          err = -EISDIR;
          break;
        }
        if (s->readonly) {
          err = -EROFS;
          break;
        }
        err = store_i_mknod(s, &w.top, name, nlen, S_IFREG | (mode & 07777 & ~s->umask),
                            NULL, st);
        if (!err) *created = 1;
        break;
      }
      if (err) break;
      if (oflags & O_EXCL) {
        err = -EEXIST;
        break;
      }
      if (!S_ISLNK(st->mode)) break;
      if (oflags & O_NOFOLLOW) {
        err = -ELOOP;
        break;
      }
      /* Follow the symlink (it may dangle: O_CREAT makes its target). */
      if (++w.nlinks > STORE_SYMLINK_MAX) {
        err = -ELOOP;
        break;
      }
      char target[STORE_PATH_MAX];
      ssize_t tl = store_i_readlink(s, st->ino, target, sizeof target);
      if (tl < 0) {
        err = (int)tl;
        break;
      }
      if (tl >= STORE_PATH_MAX) {
        err = -ENAMETOOLONG;
        break;
      }
      if (strnlen(target, (size_t)tl) == 0) {
        err = -ENOENT;
        break;
      }
      int slash2;
      err = walk_path(&w, target, WALK_PARENT, name, &nlen, &slash2);
      slash |= slash2;
    }
  }
  walk_free(&w);
  if (err) return err;
  if (S_ISDIR(st->mode)) {
    if ((oflags & O_CREAT) || acc != O_RDONLY || (oflags & O_TRUNC)) return -EISDIR;
  } else {
    if (oflags & O_DIRECTORY) return -ENOTDIR;
    if (slash) return -ENOTDIR;
  }
  if (*created) return 0;
  if ((err = store_i_perm(s, st, need))) return err;
  if ((need & W_OK) && s->readonly) return -EROFS;
  if ((oflags & O_TRUNC) && S_ISREG(st->mode) && st->size > 0) {
    if ((err = store_i_truncate(s, st, 0))) return err;
    st->size = 0;
  }
  return 0;
}

int store_path_open(store *s, const char *cwd, const char *path, int oflags,
                    uint32_t mode, store_stat *st) {
  store_stat tmp;
  int created;
  if (!st) st = &tmp;
  if (s->readonly || !(oflags & (O_CREAT | O_TRUNC))) {
    int err, pass = 0;
    s->dcache_used = 0;
    do err = open_i(s, cwd, path, oflags, mode, st, &created);
    while (read_again(s, &pass));
    return err;
  }
  int err = store_tx_begin(s);
  if (err) return err;
  return store_tx_end(s, open_i(s, cwd, path, oflags, mode, st, &created));
}

/* What a whole-file read needs of the file it found: EISDIR, EINVAL, EACCES
 * or EFBIG, else 0. */
static int readable_file(store *s, const store_stat *st) {
  if (S_ISDIR(st->mode)) return -EISDIR;
  if (!S_ISREG(st->mode)) return -EINVAL;
  int err = store_i_perm(s, st, R_OK);
  if (err) return err;
  return st->size >= (uint64_t)SSIZE_MAX ? -EFBIG : 0;
}

/* Reads the whole file `st` into a new buffer (NUL-terminated beyond). */
static int read_whole(store *s, const store_stat *st, void **data, size_t *len) {
  char *buf = malloc((size_t)st->size + 1);
  if (!buf) return -ENOMEM;
  ssize_t n = store_i_read(s, st, buf, (size_t)st->size, 0);
  if (n < 0) {
    free(buf);
    return (int)n;
  }
  buf[n] = 0;
  *data = buf;
  *len = (size_t)n;
  return 0;
}

#define READ_SLOW 1 /* read_file_fast: take the general path */

/* The common case in one query once the parent is known: the last name is
 * a regular file (a file of one chunk comes with its data). Returns
 * READ_SLOW for what it does not handle: symlinks, ".", "..", "x/". */
static int read_file_fast(store *s, const char *cwd, const char *path, void **data,
                          size_t *len) {
  last_ref l;
  int err = last_of(&l, s, cwd, path);
  if (!err && (l.nlen == 0 || l.tslash || is_dot(l.name, l.nlen))) err = READ_SLOW;
  sqlite3_stmt *q = err ? NULL : store_stmt(s, ST_LOOKUP_DATA);
  if (!err && !q) err = -EIO;
  if (err) {
    walk_free(&l.w);
    return err;
  }
  sqlite3_bind_int64(q, 1, l.w.top.ino);
  sqlite3_bind_text(q, 2, l.name, (int)l.nlen, SQLITE_STATIC);
  sqlite3_bind_int64(q, 3, s->chunk_size);
  int rc = sqlite3_step(q), inline_data = 0;
  store_stat st;
  if (rc == SQLITE_ROW) {
    /* what a read needs: type, permissions, size (clamped as
     * store_col_stat does) */
    int64_t v[5];
    for (int k = 0; k < 5; k++) v[k] = store_col_i64(q, k);
    for (int k = 1; k < 4; k++)
      v[k] = v[k] < 0 ? 0 : v[k] > UINT32_MAX ? UINT32_MAX : v[k];
    memset(&st, 0, sizeof st);
    st.ino = v[0];
    st.mode = (uint32_t)v[1];
    st.uid = (uint32_t)v[2];
    st.gid = (uint32_t)v[3];
    st.size = v[4] < 0 ? 0 : (uint64_t)v[4];
    err = S_ISLNK(st.mode) ? READ_SLOW : readable_file(s, &st);
    inline_data = sqlite3_column_type(q, 5) != SQLITE_NULL;
  } else {
    err = rc == SQLITE_DONE ? -ENOENT : store_sqlerr(s, rc);
  }
  if (!err && inline_data) {
    /* size <= chunk_size: chunk 0 is the file (a short or missing one
     * reads as zeros, like a gap) */
    char *buf = malloc((size_t)st.size + 1);
    if (!buf) {
      err = -ENOMEM;
    } else {
      size_t have = (size_t)sqlite3_column_bytes(q, 5);
      const void *d = sqlite3_column_blob(q, 5);
      if (have > st.size || !d) have = d ? (size_t)st.size : 0;
      if (have) memcpy(buf, d, have);
      memset(buf + have, 0, (size_t)st.size - have + 1);
      *data = buf;
      *len = (size_t)st.size;
    }
  }
  sqlite3_reset(q);
  sqlite3_clear_bindings(q);
  walk_free(&l.w);
  if (!err && !inline_data) err = read_whole(s, &st, data, len);
  return err;
}

int store_path_read_file(store *s, const char *cwd, const char *path, void **data,
                         size_t *len) {
  *data = NULL;
  *len = 0;
  int err = path_check(path), pass = 0;
  if (err) return err;
  s->dcache_used = 0;
  for (;;) {
    err = read_file_fast(s, cwd, path, data, len);
    if (err == READ_SLOW) {
      store_stat st;
      err = store_resolve(s, cwd, path, 0, &st);
      if (!err) err = readable_file(s, &st);
      if (!err) err = read_whole(s, &st, data, len);
    }
    if (!read_again(s, &pass)) break;
    free(*data);
    *data = NULL;
    *len = 0;
  }
  return err;
}

/* The directory part of `path` ("a/b/c" -> "a/b", "c" -> "."), malloc'd. */
static char *dir_part(const char *path) {
  size_t len = strlen(path);
  while (len > 1 && path[len - 1] == '/') len--;
  while (len > 0 && path[len - 1] != '/') len--;
  while (len > 1 && path[len - 1] == '/') len--;
  if (len == 0) return strdup(".");
  char *d = malloc(len + 1);
  if (d) {
    memcpy(d, path, len);
    d[len] = 0;
  }
  return d;
}

/* The parents of a file about to be written (STORE_WRITE_MKDIRS). A
 * non-directory in the way is ENOTDIR, as open(2) of the file would say
 * (mkdir -p itself says EEXIST for its last component). */
static int write_mkdirs(store *s, const char *cwd, const char *path) {
  char *d = dir_part(path);
  if (!d) return -ENOMEM;
  int err = mkdir_p_i(s, cwd, d, 0777);
  if (err == -EEXIST) {
    store_stat st;
    int e = store_resolve(s, cwd, d, 0, &st);
    err = e ? e : S_ISDIR(st.mode) ? -EEXIST : -ENOTDIR;
  }
  free(d);
  return err;
}

/* Create-or-replace in the caller's transaction. The common cases (a new
 * file, an existing regular file) look the last name up once; the rest
 * (symlinks, directories, "x/", appends) go through open_i. */
static int write_file_i(store *s, const char *cwd, const char *path, const void *data,
                        size_t len, uint32_t mode, int flags) {
  int err = 0;
  if ((flags & STORE_WRITE_MKDIRS) && (err = write_mkdirs(s, cwd, path))) return err;
  if (!(flags & STORE_WRITE_APPEND)) {
    last_ref l;
    int done = 0;
    err = last_of(&l, s, cwd, path);
    if (!err && l.nlen && !l.tslash && !is_dot(l.name, l.nlen)) {
      store_stat st;
      err = store_i_lookup(s, l.w.top.ino, l.name, l.nlen, &st);
      if (err == -ENOENT) {
        err = store_i_create_file(s, &l.w.top, l.name, l.nlen, mode & 07777 & ~s->umask,
                                  data, len, NULL);
        done = 1;
      } else if (!err && S_ISREG(st.mode)) {
        err = store_i_perm(s, &st, W_OK);
        if (!err) err = store_i_replace(s, &st, data, len);
        done = 1;
      }
    }
    walk_free(&l.w);
    if (err || done) return err;
  }
  store_stat st;
  int created;
  int oflags = O_WRONLY | O_CREAT | ((flags & STORE_WRITE_APPEND) ? 0 : O_TRUNC);
  err = open_i(s, cwd, path, oflags, mode, &st, &created);
  if (!err && len) {
    ssize_t n =
        store_i_write(s, &st, data, len, (flags & STORE_WRITE_APPEND) ? st.size : 0);
    err = n < 0 ? (int)n : 0;
  }
  return err;
}

int store_path_write_file(store *s, const char *cwd, const char *path, const void *data,
                          size_t len, uint32_t mode, int flags) {
  int err = path_check(path);
  if (err) return err;
  if ((err = store_tx_begin(s))) return err;
  return store_tx_end(s, write_file_i(s, cwd, path, data, len, mode, flags));
}

/* ---- many files ------------------------------------------------------------------- */

/* Where the last name of `path` starts, when the path is simple enough to
 * join a group: it ends in a name (no trailing slash) that is not "." or
 * "..". -1 otherwise. *nlen gets the name's length. */
static ssize_t simple_name(const char *path, size_t *nlen) {
  if (path_check(path)) return -1;
  size_t len = strlen(path);
  if (path[len - 1] == '/') return -1;
  const char *slash = memrchr(path, '/', len);
  size_t off = slash ? (size_t)(slash - path) + 1 : 0;
  *nlen = len - off;
  if (*nlen > STORE_NAME_MAX || is_dot(path + off, *nlen)) return -1;
  return (ssize_t)off;
}

/* Creates files f[0..k) (k >= 2, all in the directory named by the first
 * `off` bytes of their paths, which are the same) in a savepoint of their
 * own. Any failure undoes the group and returns it to the caller, who then
 * writes the files one by one (the same result and the exact error): the
 * group is the fast path for new files, not a second set of rules. */
static int write_group(store *s, const char *cwd, const store_file *f, size_t k,
                       size_t off, uint32_t mode) {
  last_ref l;
  int err = last_of(&l, s, cwd, f[0].path);
  if (!err) {
    store_newfile nf[STORE_BATCH_MAX];
    for (size_t r = 0; r < k; r++) {
      nf[r].name = f[r].path + off;
      nf[r].nlen = strlen(nf[r].name);
      nf[r].data = f[r].data ? f[r].data : "";
      nf[r].len = f[r].len;
    }
    if (!(err = store_tx_begin(s)))
      err = store_tx_end(
          s, store_i_create_files(s, &l.w.top, nf, (int)k, mode & 07777 & ~s->umask));
  }
  walk_free(&l.w);
  return err;
}

int store_path_write_files(store *s, const char *cwd, const store_file *files, size_t n,
                           uint32_t mode, int flags, size_t *failed) {
  int err = store_tx_begin(s);
  size_t i = 0;
  if (failed) *failed = n; /* none (or the transaction itself) */
  if (err) return err;
  const char *made = NULL; /* the directory text STORE_WRITE_MKDIRS last made */
  size_t made_len = 0;
  while (!err && i < n) {
    /* the group: files from i on whose paths share the directory text */
    size_t nlen, j = i + 1;
    ssize_t off = (flags & STORE_WRITE_APPEND) ? -1 : simple_name(files[i].path, &nlen);
    for (ssize_t o; off >= 0 && j < n && j - i < STORE_BATCH_MAX; j++) {
      o = simple_name(files[j].path, &nlen);
      if (o != off || memcmp(files[j].path, files[i].path, (size_t)off) != 0) break;
    }
    if (off < 0 || j - i < 2) {
      const store_file *f = &files[i];
      err = path_check(f->path);
      if (!err)
        err = write_file_i(s, cwd, f->path, f->data ? f->data : "", f->len, mode, flags);
      if (!err) i++;
      made = NULL; /* the single path may have changed anything */
      continue;
    }
    if ((flags & STORE_WRITE_MKDIRS) && !(made && made_len == (size_t)off &&
                                          memcmp(made, files[i].path, made_len) == 0)) {
      if ((err = write_mkdirs(s, cwd, files[i].path))) break;
      made = files[i].path;
      made_len = (size_t)off;
    }
    if (write_group(s, cwd, files + i, j - i, (size_t)off, mode) == 0) {
      i = j;
      continue;
    }
    for (; i < j; i++) { /* one by one, for the exact result */
      err = write_file_i(s, cwd, files[i].path, files[i].data ? files[i].data : "",
                         files[i].len, mode, flags);
      if (err) break;
    }
    made = NULL;
  }
  if (err && failed) *failed = i;
  return store_tx_end(s, err);
}

/* ---- remove_tree --------------------------------------------------------------------
 */

/* One directory being emptied by remove_tree. */
typedef struct rm_frame {
  store_stat dir;                /* the directory being emptied */
  store_stat parent;             /* its parent (to remove it when empty) */
  size_t nlen;                   /* its name's length */
  char name[STORE_NAME_MAX + 1]; /* its name in parent */
} rm_frame;

#define RM_MAX_DEPTH 65536 /* deeper means a damaged (cyclic) tree */
#define RM_BATCH 32

static int remove_dir_tree(store *s, const store_stat *parent, const char *name,
                           size_t nlen, const store_stat *dir) {
  int depth = 0, cap = 16, err = 0;
  rm_frame *st = malloc((size_t)cap * sizeof *st);
  char(*names)[STORE_NAME_MAX + 1] = malloc(RM_BATCH * sizeof *names);
  if (!st || !names) {
    free(st);
    free(names);
    return -ENOMEM;
  }
  st[0].dir = *dir;
  st[0].parent = *parent;
  st[0].nlen = nlen;
  memcpy(st[0].name, name, nlen + 1);
  depth = 1;
  while (depth > 0 && !err) {
    rm_frame *f = &st[depth - 1];
    if ((err = store_i_perm(s, &f->dir, R_OK | W_OK | X_OK))) break;
    /* Read a batch of children (copied: unlinking resets statements). */
    sqlite3_stmt *q = store_stmt(s, ST_READDIR);
    if (!q) {
      err = -EIO;
      break;
    }
    sqlite3_bind_int64(q, 1, f->dir.ino);
    sqlite3_bind_text(q, 2, "", 0, SQLITE_STATIC);
    sqlite3_bind_int(q, 3, RM_BATCH);
    int n = 0, rc;
    size_t lens[RM_BATCH];
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
      int l = sqlite3_column_bytes(q, 1);
      if (l > STORE_NAME_MAX) l = STORE_NAME_MAX;
      if (l) memcpy(names[n], sqlite3_column_blob(q, 1), (size_t)l);
      names[n][l] = 0;
      lens[n++] = (size_t)l;
    }
    err = rc == SQLITE_DONE ? 0 : store_sqlerr(s, rc);
    sqlite3_reset(q);
    sqlite3_clear_bindings(q);
    if (err) break;
    if (n == 0) { /* empty now: remove it from its parent */
      err = store_i_unlink(s, &f->parent, f->name, f->nlen, 1);
      depth--;
      continue;
    }
    for (int i = 0; i < n && !err; i++) {
      store_stat c;
      if ((err = store_i_lookup(s, f->dir.ino, names[i], lens[i], &c))) break;
      if (!S_ISDIR(c.mode)) {
        err = store_i_unlink(s, &f->dir, names[i], lens[i], 0);
        continue;
      }
      if (depth >= RM_MAX_DEPTH) {
        err = -ELOOP;
        break;
      }
      if (depth == cap) {
        rm_frame *g = realloc(st, (size_t)cap * 2 * sizeof *st);
        if (!g) {
          err = -ENOMEM;
          break;
        }
        st = g;
        cap *= 2;
        f = &st[depth - 1];
      }
      rm_frame *g = &st[depth++];
      g->dir = c;
      g->parent = f->dir;
      g->nlen = lens[i];
      memcpy(g->name, names[i], lens[i] + 1);
      break; /* descend first; this directory is listed again later */
    }
  }
  free(st);
  free(names);
  return err;
}

int store_path_remove_tree(store *s, const char *cwd, const char *path) {
  int err = store_tx_begin(s);
  if (err) return err;
  last_ref l;
  err = last_of(&l, s, cwd, path);
  if (!err && l.nlen == 0) err = -EBUSY;
  if (!err && is_dot(l.name, l.nlen)) err = -EINVAL;
  store_stat v;
  if (!err) err = store_i_lookup(s, l.w.top.ino, l.name, l.nlen, &v);
  if (!err && l.tslash && !S_ISDIR(v.mode)) err = -ENOTDIR;
  if (!err) {
    if (S_ISDIR(v.mode))
      err = remove_dir_tree(s, &l.w.top, l.name, l.nlen, &v);
    else
      err = store_i_unlink(s, &l.w.top, l.name, l.nlen, 0);
  }
  walk_free(&l.w);
  return store_tx_end(s, err);
}
