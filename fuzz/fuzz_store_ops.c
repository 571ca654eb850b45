/*
 * fuzz_store_ops.c - libFuzzer target: random sequences of store operations
 * checked against a small in-memory model of the tree.
 *
 * The input is decoded into operations on paths of up to three components
 * from {a, b, c} (and the root): mkdir, write_file (replace and append),
 * pwrite at an offset through the inode API, truncate, read, stat, unlink,
 * rmdir, rename, link, remove_tree, write_files (several writes, all or
 * nothing, with the failing index), and store_begin ... commit/rollback
 * groups. An optional byte quota comes from the first byte. The model is
 * the reference: inodes (type, bytes, nlink) and dentries, with the errno
 * each operation must give in the order the store checks (which is Linux's
 * order for these cases). After every operation the store's result must
 * equal the model's (success or the same negative errno); read and stat
 * compare contents and sizes; at the end the whole tree (listing, types,
 * sizes, bytes) and the quota usage must match, and the AgentFS tables must
 * agree with each other. A mismatch aborts (a libFuzzer finding).
 */
#include <errno.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "store/store.h"

#define M_INODES 256 /* at most one inode per operation */
#define M_DENTRIES 512
#define M_OPS 160
#define M_ROOT 1

enum { T_FREE, T_FILE, T_DIR };

/* One model inode. */
typedef struct m_inode {
  int type;            /* T_FREE, T_FILE or T_DIR */
  int nlink;           /* dentries pointing here (files) */
  unsigned char *data; /* file bytes (malloc'd) */
  size_t len;          /* file size */
} m_inode;

/* One model directory entry. */
typedef struct m_dentry {
  int used;   /* slot in use */
  int parent; /* directory inode */
  char name;  /* 'a', 'b' or 'c' */
  int ino;    /* target inode */
} m_dentry;

/* The whole model. */
typedef struct model {
  m_inode ino[M_INODES];
  m_dentry de[M_DENTRIES];
  uint64_t bytes;     /* sum of file sizes */
  uint64_t max_bytes; /* byte quota (0 = none) */
} model;

/* A decoded path: depth 0 (the root) to 3 components. */
typedef struct m_path {
  int n;        /* components */
  char c[3];    /* their names */
  char text[8]; /* "/a/b/c" */
} m_path;

/* ---- input decoding ---- */

/* The bytes of one input, consumed from the front. */
typedef struct input {
  const uint8_t *p; /* next byte */
  size_t left;      /* bytes left */
} input;

static unsigned next(input *in) {
  if (!in->left) return 0;
  in->left--;
  return *in->p++;
}

static m_path decode_path(input *in) {
  m_path p;
  unsigned b = next(in);
  p.n = (int)(b % 8 == 0 ? 0 : 1 + (b % 3)); /* the root now and then */
  char *t = p.text;
  for (int i = 0; i < p.n; i++) {
    p.c[i] = (char)('a' + next(in) % 3);
    *t++ = '/';
    *t++ = p.c[i];
  }
  if (p.n == 0) *t++ = '/';
  *t = 0;
  return p;
}

/* ---- the model ---- */

static void fail(const char *what, const char *a, const char *b, long got, long want) {
  fprintf(stderr, "fuzz_store_ops: %s %s %s: store %ld, model %ld\n", what, a, b ? b : "",
          got, want);
  abort();
}

static int m_lookup(const model *m, int dir, char name) {
  for (int i = 0; i < M_DENTRIES; i++)
    if (m->de[i].used && m->de[i].parent == dir && m->de[i].name == name)
      return m->de[i].ino;
  return -1;
}

static int m_parent_of_dir(const model *m, int ino) {
  for (int i = 0; i < M_DENTRIES; i++)
    if (m->de[i].used && m->de[i].ino == ino) return m->de[i].parent;
  return -1;
}

static int m_empty(const model *m, int dir) {
  for (int i = 0; i < M_DENTRIES; i++)
    if (m->de[i].used && m->de[i].parent == dir) return 0;
  return 1;
}

/* Walks all but the last component: 0 or -errno; *dir the parent. */
static int m_walk_parent(const model *m, const m_path *p, int *dir) {
  int cur = M_ROOT;
  for (int i = 0; i + 1 < p->n; i++) {
    int c = m_lookup(m, cur, p->c[i]);
    if (c < 0) return -ENOENT;
    if (m->ino[c].type != T_DIR) return -ENOTDIR;
    cur = c;
  }
  *dir = cur;
  return 0;
}

/* Resolves the whole path: 0 or -errno; *ino the target. */
static int m_resolve(const model *m, const m_path *p, int *ino) {
  if (p->n == 0) {
    *ino = M_ROOT;
    return 0;
  }
  int dir, rc = m_walk_parent(m, p, &dir);
  if (rc) return rc;
  int t = m_lookup(m, dir, p->c[p->n - 1]);
  if (t < 0) return -ENOENT;
  *ino = t;
  return 0;
}

static int m_new_inode(model *m, int type) {
  for (int i = 2; i < M_INODES; i++)
    if (m->ino[i].type == T_FREE) {
      m->ino[i].type = type;
      m->ino[i].nlink = 1;
      m->ino[i].data = NULL;
      m->ino[i].len = 0;
      return i;
    }
  abort(); /* cannot happen: one inode per operation at most */
}

static void m_add_dentry(model *m, int dir, char name, int ino) {
  for (int i = 0; i < M_DENTRIES; i++)
    if (!m->de[i].used) {
      m->de[i] = (m_dentry){1, dir, name, ino};
      return;
    }
  abort();
}

static void m_del_dentry(model *m, int dir, char name) {
  for (int i = 0; i < M_DENTRIES; i++)
    if (m->de[i].used && m->de[i].parent == dir && m->de[i].name == name) {
      m->de[i].used = 0;
      return;
    }
}

/* Drops one link; the inode goes with its last link (directories: always). */
static void m_drop(model *m, int ino) {
  m_inode *n = &m->ino[ino];
  if (n->type == T_FILE && --n->nlink > 0) return;
  if (n->type == T_FILE) m->bytes -= n->len;
  free(n->data);
  n->data = NULL;
  n->len = 0;
  n->type = T_FREE;
}

/* Sets a file's size (zero-filling growth). */
static void m_resize(model *m, int ino, size_t len) {
  m_inode *n = &m->ino[ino];
  if (len > n->len) {
    n->data = realloc(n->data, len);
    memset(n->data + n->len, 0, len - n->len);
  }
  m->bytes = m->bytes - n->len + len;
  n->len = len;
}

static int m_quota_ok(const model *m, uint64_t old, uint64_t len) {
  return !m->max_bytes || len <= old || m->bytes - old + len <= m->max_bytes;
}

static void m_copy(model *dst, const model *src) {
  *dst = *src;
  for (int i = 0; i < M_INODES; i++)
    if (src->ino[i].data) {
      dst->ino[i].data = malloc(src->ino[i].len ? src->ino[i].len : 1);
      memcpy(dst->ino[i].data, src->ino[i].data, src->ino[i].len);
    }
}

static void m_free(model *m) {
  for (int i = 0; i < M_INODES; i++) free(m->ino[i].data);
}

/* ---- comparison helpers ---- */

static void expect(const char *op, const m_path *a, const m_path *b, long got,
                   long want) {
  if (got != want) fail(op, a->text, b ? b->text : NULL, got, want);
}

/* Compares the store's file at `path` with model inode `ino`. */
static void compare_file(store *s, const model *m, const char *path, int ino) {
  void *d = NULL;
  size_t n = 0;
  int rc = store_path_read_file(s, NULL, path, &d, &n);
  if (rc) fail("read_file", path, NULL, rc, 0);
  if (n != m->ino[ino].len || (n && memcmp(d, m->ino[ino].data, n) != 0))
    fail("content", path, NULL, (long)n, (long)m->ino[ino].len);
  free(d);
}

/* Collects a directory listing as a string of names. */
static int list_cb(void *ud, const store_dirent *e) {
  char *out = ud;
  size_t l = strlen(out);
  if (l < 60) {
    out[l] = e->name[0];
    out[l + 1] = 0;
  }
  return 0;
}

/* Compares the whole tree under model dir `dir` at `path`. */
static void compare_tree(store *s, const model *m, int dir, const char *path, int depth) {
  store_stat st;
  if (store_path_stat(s, NULL, path, &st) != 0 || !S_ISDIR(st.mode))
    fail("stat dir", path, NULL, 0, 1);
  char got[64] = "", want[64] = "";
  if (store_readdir(s, st.ino, 0, list_cb, got) != 0) fail("readdir", path, NULL, 1, 0);
  for (char c = 'a'; c <= 'c'; c++) {
    int ino = m_lookup(m, dir, c);
    if (ino < 0) continue;
    size_t l = strlen(want);
    want[l] = c;
    want[l + 1] = 0;
    char child[16];
    snprintf(child, sizeof child, "%s%s%c", path, depth ? "/" : "", c);
    if (m->ino[ino].type == T_DIR) {
      compare_tree(s, m, ino, child, depth + 1);
    } else {
      compare_file(s, m, child, ino);
      if (store_path_stat(s, NULL, child, &st) != 0 || (int)st.nlink != m->ino[ino].nlink)
        fail("nlink", child, NULL, (long)st.nlink, m->ino[ino].nlink);
    }
  }
  if (strcmp(got, want) != 0) fail("listing", path, got, 0, 1);
}

static long long sql_int(store *s, const char *sql) {
  sqlite3_stmt *q = NULL;
  long long v = -1;
  if (sqlite3_prepare_v2(store_db(s), sql, -1, &q, NULL) == SQLITE_OK &&
      sqlite3_step(q) == SQLITE_ROW)
    v = sqlite3_column_int64(q, 0);
  sqlite3_finalize(q);
  return v;
}

/* The model of store_path_write_file (replace, or append): the errno the
 * store must give, the model changed only on success. */
static int m_write(model *m, const m_path *a, const unsigned char *buf, size_t len,
                   int append) {
  int dir, want = m_walk_parent(m, a, &dir);
  if (!want && a->n == 0) want = -EISDIR;
  if (want) return want;
  int t = m_lookup(m, dir, a->c[a->n - 1]);
  if (t >= 0 && m->ino[t].type == T_DIR) return -EISDIR;
  uint64_t old = t >= 0 ? m->ino[t].len : 0;
  uint64_t nl = append ? old + len : len;
  if (!m_quota_ok(m, old, nl)) return -ENOSPC;
  if (t < 0) {
    t = m_new_inode(m, T_FILE);
    m_add_dentry(m, dir, a->c[a->n - 1], t);
  }
  size_t at = append ? m->ino[t].len : 0;
  m_resize(m, t, at + len);
  if (len) memcpy(m->ino[t].data + at, buf, len);
  return 0;
}

/* The model of store_path_unlink (rmdir 0) and store_path_rmdir (rmdir 1):
 * the errno the store must give, the entry removed from the model only on
 * success. */
static int m_remove(model *m, const m_path *a, int rmdir) {
  int dir, ino = -1, want = m_walk_parent(m, a, &dir);
  if (!want && a->n == 0) want = rmdir ? -EBUSY : -EISDIR;
  if (!want) {
    ino = m_lookup(m, dir, a->c[a->n - 1]);
    if (ino < 0)
      want = -ENOENT;
    else if (!rmdir)
      want = m->ino[ino].type == T_DIR ? -EISDIR : 0;
    else
      want = m->ino[ino].type != T_DIR ? -ENOTDIR : !m_empty(m, ino) ? -ENOTEMPTY : 0;
  }
  if (!want) {
    m_del_dentry(m, dir, a->c[a->n - 1]);
    m_drop(m, ino);
  }
  return want;
}

/* ---- one operation on both ---- */

static void run_op(store *s, model *m, input *in, unsigned op) {
  m_path a = decode_path(in);
  int dir, ino, rc, want;
  switch (op) {
    case 0: /* mkdir */
      rc = store_path_mkdir(s, NULL, a.text, 0755);
      want = m_walk_parent(m, &a, &dir);
      if (!want && a.n == 0) want = -EEXIST;
      if (!want && m_lookup(m, dir, a.c[a.n - 1]) >= 0) want = -EEXIST;
      if (!want) m_add_dentry(m, dir, a.c[a.n - 1], m_new_inode(m, T_DIR));
      expect("mkdir", &a, NULL, rc, want);
      break;
    case 1:   /* write_file, replacing */
    case 2: { /* write_file, appending */
      size_t len = next(in) * 37u % 9000;
      unsigned char fillb = (unsigned char)next(in);
      unsigned char *buf = malloc(len + 1);
      for (size_t i = 0; i < len; i++) buf[i] = (unsigned char)(fillb + i);
      int append = op == 2;
      rc = store_path_write_file(s, NULL, a.text, buf, len, 0644,
                                 append ? STORE_WRITE_APPEND : 0);
      want = m_write(m, &a, buf, len, append);
      free(buf);
      expect(append ? "append" : "write_file", &a, NULL, rc, want);
      break;
    }
    case 11: { /* write_files: several writes, all or nothing */
      static m_path paths[5];
      static unsigned char *bufs[5];
      store_file files[5];
      int k = 1 + (int)(next(in) % 5), append = next(in) % 4 == 0;
      paths[0] = a;
      for (int i = 0; i < k; i++) {
        if (i) paths[i] = decode_path(in);
        size_t len = next(in) * 37u % 5000;
        unsigned char fillb = (unsigned char)next(in);
        bufs[i] = malloc(len + 1);
        for (size_t j = 0; j < len; j++) bufs[i][j] = (unsigned char)(fillb + j);
        files[i] = (store_file){paths[i].text, bufs[i], len};
      }
      size_t failed = 99;
      rc = store_path_write_files(s, NULL, files, (size_t)k, 0644,
                                  append ? STORE_WRITE_APPEND : 0, &failed);
      static model before;
      m_copy(&before, m);
      want = 0;
      int bad = k;
      for (int i = 0; i < k && !want; i++) {
        want = m_write(m, &paths[i], bufs[i], files[i].len, append);
        if (want) bad = i;
      }
      if (want) {
        m_free(m);
        *m = before; /* takes the copy's buffers */
      } else {
        m_free(&before);
      }
      memset(&before, 0, sizeof before);
      for (int i = 0; i < k; i++) free(bufs[i]);
      expect("write_files", &paths[bad < k ? bad : 0], NULL, rc, want);
      expect("write_files index", &paths[bad < k ? bad : 0], NULL, (long)failed, bad);
      break;
    }
    case 3: { /* pwrite through open(O_CREAT) + store_write */
      uint64_t off = next(in) * 41u % 10000;
      size_t len = next(in) * 3u % 700;
      unsigned char fillb = (unsigned char)next(in);
      unsigned char buf[700];
      for (size_t i = 0; i < len; i++) buf[i] = (unsigned char)(fillb ^ i);
      store_stat st;
      rc = store_path_open(s, NULL, a.text, O_WRONLY | O_CREAT, 0644, &st);
      want = m_walk_parent(m, &a, &dir);
      if (!want && a.n == 0) want = -EISDIR;
      int t = -1;
      if (!want) {
        t = m_lookup(m, dir, a.c[a.n - 1]);
        if (t >= 0 && m->ino[t].type == T_DIR) want = -EISDIR;
        if (!want && t < 0) {
          t = m_new_inode(m, T_FILE);
          m_add_dentry(m, dir, a.c[a.n - 1], t);
        }
      }
      expect("open O_CREAT", &a, NULL, rc, want);
      if (rc) break;
      ssize_t w = store_write(s, st.ino, buf, len, off);
      long wantw = (long)len;
      uint64_t end = off + len > m->ino[t].len ? off + len : m->ino[t].len;
      if (len && !m_quota_ok(m, m->ino[t].len, end)) {
        wantw = -ENOSPC;
      } else if (len) {
        m_resize(m, t, end);
        memcpy(m->ino[t].data + off, buf, len);
      }
      expect("pwrite", &a, NULL, (long)w, wantw);
      break;
    }
    case 4: { /* truncate */
      size_t len = next(in) * 53u % 12000;
      store_stat st;
      rc = store_path_open(s, NULL, a.text, O_WRONLY, 0, &st);
      want = m_resolve(m, &a, &ino);
      if (!want && m->ino[ino].type == T_DIR) want = -EISDIR;
      expect("open O_WRONLY", &a, NULL, rc, want);
      if (rc) break;
      rc = store_truncate(s, st.ino, len);
      want = m_quota_ok(m, m->ino[ino].len, len) ? 0 : -ENOSPC;
      if (!want) m_resize(m, ino, len);
      expect("truncate", &a, NULL, rc, want);
      break;
    }
    case 5: { /* read and stat */
      store_stat st;
      rc = store_path_stat(s, NULL, a.text, &st);
      want = m_resolve(m, &a, &ino);
      expect("stat", &a, NULL, rc, want);
      if (rc) break;
      if ((m->ino[ino].type == T_DIR) != S_ISDIR(st.mode))
        fail("type", a.text, NULL, (long)st.mode, 0);
      if (m->ino[ino].type == T_FILE) {
        if (st.size != m->ino[ino].len)
          fail("size", a.text, NULL, (long)st.size, (long)m->ino[ino].len);
        compare_file(s, m, a.text, ino);
      } else {
        void *d = NULL;
        size_t n;
        expect("read dir", &a, NULL, store_path_read_file(s, NULL, a.text, &d, &n),
               -EISDIR);
      }
      break;
    }
    case 6: /* unlink */
      rc = store_path_unlink(s, NULL, a.text);
      expect("unlink", &a, NULL, rc, m_remove(m, &a, 0));
      break;
    case 7: /* rmdir */
      rc = store_path_rmdir(s, NULL, a.text);
      expect("rmdir", &a, NULL, rc, m_remove(m, &a, 1));
      break;
    case 8: { /* rename */
      m_path b = decode_path(in);
      rc = store_path_rename(s, NULL, a.text, b.text);
      int odir = 0, ndir = 0;
      want = m_walk_parent(m, &a, &odir);
      if (!want) want = m_walk_parent(m, &b, &ndir);
      if (!want && (a.n == 0 || b.n == 0)) want = -EBUSY;
      int o = -1, n = -1;
      if (!want) {
        o = m_lookup(m, odir, a.c[a.n - 1]);
        n = m_lookup(m, ndir, b.c[b.n - 1]);
        if (o < 0) want = -ENOENT;
      }
      if (!want && n >= 0 && n == o) {
        expect("rename same", &a, &b, rc, 0);
        break;
      }
      if (!want && n >= 0) {
        if (m->ino[o].type == T_DIR && m->ino[n].type != T_DIR) want = -ENOTDIR;
        if (m->ino[o].type != T_DIR && m->ino[n].type == T_DIR) want = -EISDIR;
      }
      if (!want && m->ino[o].type == T_DIR && odir != ndir) {
        for (int d = ndir; d > 0 && !want; d = d == M_ROOT ? -1 : m_parent_of_dir(m, d))
          if (d == o) want = -EINVAL;
      }
      if (!want && n >= 0 && m->ino[n].type == T_DIR && !m_empty(m, n)) want = -ENOTEMPTY;
      if (!want) {
        if (n >= 0) {
          m_del_dentry(m, ndir, b.c[b.n - 1]);
          m_drop(m, n);
        }
        m_del_dentry(m, odir, a.c[a.n - 1]);
        m_add_dentry(m, ndir, b.c[b.n - 1], o);
      }
      expect("rename", &a, &b, rc, want);
      break;
    }
    case 9: { /* link */
      m_path b = decode_path(in);
      rc = store_path_link(s, NULL, a.text, b.text);
      want = m_resolve(m, &a, &ino);
      if (!want) want = m_walk_parent(m, &b, &dir);
      if (!want && b.n == 0) want = -EEXIST;
      if (!want && m->ino[ino].type == T_DIR) want = -EPERM;
      if (!want && m_lookup(m, dir, b.c[b.n - 1]) >= 0) want = -EEXIST;
      if (!want) {
        m_add_dentry(m, dir, b.c[b.n - 1], ino);
        m->ino[ino].nlink++;
      }
      expect("link", &a, &b, rc, want);
      break;
    }
    case 10: /* remove_tree */
      rc = store_path_remove_tree(s, NULL, a.text);
      want = m_walk_parent(m, &a, &dir);
      if (!want && a.n == 0) want = -EBUSY;
      if (!want) {
        ino = m_lookup(m, dir, a.c[a.n - 1]);
        if (ino < 0) want = -ENOENT;
      }
      if (!want) {
        m_del_dentry(m, dir, a.c[a.n - 1]);
        /* drop everything reachable only through it: repeat until stable */
        int stack[M_INODES], sp = 0;
        stack[sp++] = ino;
        while (sp) {
          int x = stack[--sp];
          if (m->ino[x].type == T_DIR)
            for (int i = 0; i < M_DENTRIES; i++)
              if (m->de[i].used && m->de[i].parent == x) {
                m->de[i].used = 0;
                stack[sp++] = m->de[i].ino;
              }
          m_drop(m, x);
        }
      }
      expect("remove_tree", &a, NULL, rc, want);
      break;
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  input in = {data, size};
  store *s = NULL;
  if (store_open(NULL, STORE_OPEN_MEMORY, &s, NULL) != 0) abort();
  static model m, saved;
  memset(&m, 0, sizeof m);
  m.ino[M_ROOT].type = T_DIR;
  unsigned q = next(&in);
  if (q % 4 == 0) {
    m.max_bytes = (uint64_t)(q + 1) * 150;
    store_quota quota = {.max_bytes = m.max_bytes};
    store_set_quota(s, &quota);
  }
  int group_left = -1; /* ops left in an open store_begin group */
  for (int n = 0; n < M_OPS && in.left; n++) {
    unsigned op = next(&in) % 14;
    if (op >= 12) { /* begin a group, unless one is open */
      if (group_left < 0) {
        if (store_begin(s) != 0) abort();
        memset(&saved, 0, sizeof saved);
        m_copy(&saved, &m);
        group_left = (int)(next(&in) % 6);
      }
      continue;
    }
    run_op(s, &m, &in, op);
    if (group_left >= 0 && group_left-- == 0) {
      if (next(&in) % 2) {
        if (store_rollback(s) != 0) abort();
        m_free(&m);
        m = saved; /* takes the saved copy's buffers */
      } else {
        if (store_commit(s) != 0) abort();
        m_free(&saved);
      }
      memset(&saved, 0, sizeof saved);
      group_left = -1;
    }
  }
  if (group_left >= 0) {
    if (store_commit(s) != 0) abort();
    m_free(&saved);
    memset(&saved, 0, sizeof saved);
  }
  compare_tree(s, &m, M_ROOT, "/", 0);
  uint64_t bytes = 0, inodes = 0;
  if (store_get_usage(s, &bytes, &inodes) != 0 || bytes != m.bytes)
    fail("usage bytes", "/", NULL, (long)bytes, (long)m.bytes);
  long long live = 0;
  for (int i = 1; i < M_INODES; i++) live += m.ino[i].type != T_FREE;
  if ((long long)inodes != live)
    fail("usage inodes", "/", NULL, (long)inodes, (long)live);
  if (sql_int(
          s,
          "SELECT count(*) FROM fs_data WHERE ino NOT IN (SELECT ino FROM fs_inode)") !=
          0 ||
      sql_int(
          s,
          "SELECT count(*) FROM fs_dentry WHERE ino NOT IN (SELECT ino FROM fs_inode)") !=
          0 ||
      sql_int(s,
              "SELECT count(*) FROM fs_inode WHERE ino != 1 AND ino NOT IN (SELECT ino "
              "FROM fs_dentry)") != 0)
    fail("tables disagree", "/", NULL, 1, 0);
  m_free(&m);
  store_close(s);
  return 0;
}
