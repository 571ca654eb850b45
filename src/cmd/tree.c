/*
 * tree - list contents of directories in a tree-like format (tree 2.1).
 *
 *   tree [-acdfghilpqrstuvDFJNQSU] [-L level] [-P pattern] [-I pattern]
 *        [--ignore-case] [--matchdirs] [--prune] [--noreport] [--filelimit N]
 *        [--dirsfirst] [--filesfirst] [--sort=name|version|size|mtime|ctime]
 *        [--du] [--si] [--inodes] [--timefmt FMT] [--charset X] [-o FILE]
 *        [directory ...]
 *
 * Design decisions:
 *  - Iterative: a stack of directory levels (each a sorted, filtered array of
 *    entries) replaces tree's recursion, so depth costs heap memory only and
 *    a huge tree cannot overflow a command's stack. --du needs the size of a
 *    directory before its line is printed, so it pre-computes sizes with a
 *    walk of the subtree (lib/fs walker).
 *  - Line graphics follow the locale like tree: UTF-8 box drawing when
 *    LC_ALL/LC_CTYPE/LANG name UTF-8 (the test setup's C.UTF-8), ASCII
 *    otherwise. Colours (-C) are not produced; -n is the default.
 *  - The closing report copies tree 2.1's arithmetic: a top directory is
 *    counted only when it lists something, and --du's "bytes used" adds each
 *    entry once per directory level above it (as tree 2.1 does).
 *  - --fromfile: the operands ("." = stdin) list paths; they are sorted
 *    component-wise and linked into a trie (one pass, only the last child
 *    compared), printed as text (depth-limited recursion, FF_MAX_DEPTH).
 *  - Output formats: text, -J (JSON) and -X (XML), same shapes as tree's
 *    (XML: one element per entry, attributes for -p/-u/-g/-s/-D/--inodes,
 *    a <report>). -H is not supported (reported as an invalid option).
 */
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <wctype.h>
#include <locale.h>
#include <fcntl.h>

#include "cmd/cmd.h"
#include "cmd/lib/buf.h"
#include "cmd/lib/fs.h"
#include "cmd/lib/gnu.h"
#include "cmd/lib/datetime.h"

CMD_DEFINE("tree", cmd_tree_main);

static const char tree_usage[] =
    "usage: tree [-acdfghilnpqrstuvxACDFJQNSU] [-L level [-R]] [-H  baseHREF]\n"
    "\t[-T title] [-o filename] [-P pattern] [-I pattern] [--gitignore]\n"
    "\t[--matchdirs] [--metafirst] [--ignore-case] [--nolinks] [--inodes]\n"
    "\t[--sort[=]<name>] [--dirsfirst] [--filesfirst] [--filelimit #] [--si]\n"
    "\t[--du] [--prune] [--charset[=]X] [--timefmt[=]format] [--noreport]\n"
    "\t[--version] [--help] [--] [directory ...]\n";

enum { SORT_NAME, SORT_VERSION, SORT_SIZE, SORT_MTIME, SORT_CTIME, SORT_NONE };

/* One listed entry. */
typedef struct tree_ent {
  char *name;        /* entry name (malloc'd) */
  char *path;        /* full path (malloc'd) */
  store_stat st;     /* lstat (or stat when following with -l) */
  bool stat_ok;      /* st valid */
  bool is_dir;       /* shown as a directory (followed links included) */
  bool is_link;      /* a symlink */
  char *target;      /* link target (malloc'd) or NULL */
  uint64_t du;       /* --du size */
} tree_ent;

/* One directory being listed. */
typedef struct tree_level {
  tree_ent *v;       /* malloc'd entries */
  size_t n, next;    /* count, next to print */
  store_ino ino;     /* directory inode (loop detection with -l) */
  bool json_open;    /* JSON: a contents array was opened */
  const char *xml_tag; /* -X: the element to close after this level */
} tree_level;

/* Options and state. */
typedef struct tree_opts {
  cmd_ctx *ctx;                      /* the command */
  bool all, dirs_only, follow, full_path, no_indent, noreport, prune; /* flags */
  bool ignore_case, matchdirs, quote, hide_ctrl, perms, user, group, size; /* flags */
  bool raw_names;                    /* -N: names printed as they are */
  bool human, si, du, date, classify, inodes, reverse, dirsfirst, filesfirst; /* flags */
  bool json;                         /* -J */
  bool xml;                          /* -X */
  bool unicode;                      /* box drawing characters */
  int max_level;                     /* -L (0 = none) */
  long filelimit;                    /* --filelimit (0 = none) */
  int sort;                          /* SORT_* */
  bool ctime_sort;                   /* -c */
  const char *timefmt;               /* --timefmt */
  const char **pats;                 /* -P patterns */
  int npats;                         /* count */
  const char **ignores;              /* -I patterns */
  int nignores;                      /* count */
  bool gitignore;                    /* --gitignore */
  const char *git_root;              /* the root being listed (where .gitignore files start) */
  int out_fd;                        /* -o: fd, else -1 */
  uint64_t ndirs, nfiles;            /* report */
  uint64_t du_total;                 /* --du: total shown in the report */
  bool failed;                       /* a root could not be listed (status 2) */
  cmd_fs_ids *ids;                   /* names */
  cmd_tz tz;                         /* dates */
} tree_opts;

static void tout(tree_opts *o, const char *s, size_t n) {
  if (o->out_fd >= 0) cmd_write_fd(o->ctx, o->out_fd, s, n);
  else cmd_out(o->ctx, s, n);
}
static void touts(tree_opts *o, const char *s) { tout(o, s, strlen(s)); }

/* Matches a tree pattern: alternatives separated by '|'. */
static bool pat_match(tree_opts *o, const char *pat, const char *name) {
  const char *p = pat;
  char buf[1024];
  for (;;) {
    const char *bar = strchr(p, '|');
    size_t l = bar ? (size_t)(bar - p) : strlen(p);
    if (l < sizeof buf) {
      memcpy(buf, p, l);
      buf[l] = 0;
      if (fnmatch(buf, name, o->ignore_case ? FNM_CASEFOLD : 0) == 0) return true;
    }
    if (!bar) return false;
    p = bar + 1;
  }
}

static void free_level(tree_level *l) {
  for (size_t i = 0; i < l->n; i++) {
    free(l->v[i].name);
    free(l->v[i].path);
    free(l->v[i].target);
  }
  free(l->v);
  l->v = NULL;
  l->n = 0;
}

/* Readdir collection. */
typedef struct tree_read {
  tree_opts *o;        /* options */
  const char *dir;     /* path of the directory */
  tree_ent *v;         /* growing array */
  size_t n, cap;       /* used / allocated */
  int err;             /* -ENOMEM */
} tree_read;

static int tree_read_cb(void *ud, const store_dirent *d) {
  tree_read *r = ud;
  tree_opts *o = r->o;
  if (!o->all && d->name[0] == '.') return 0;
  /* tree leaves out what it cannot lstat: a path of PATH_MAX bytes or more */
  if (strlen(r->dir) + 1 + strlen(d->name) >= CMD_PATH_MAX) return 0;
  if (cmd_grow(&r->v, &r->cap, r->n + 1, sizeof *r->v)) return r->err = -ENOMEM;
  tree_ent *e = &r->v[r->n];
  memset(e, 0, sizeof *e);
  e->name = strdup(d->name);
  size_t dl = strlen(r->dir), nl = strlen(d->name);
  e->path = malloc(dl + nl + 2);
  if (!e->name || !e->path) {
    free(e->name);
    free(e->path);
    return r->err = -ENOMEM;
  }
  memcpy(e->path, r->dir, dl);
  size_t k = dl;
  if (k == 0 || e->path[k - 1] != '/') e->path[k++] = '/';
  memcpy(e->path + k, d->name, nl + 1);
  e->st.ino = d->ino;
  e->st.mode = d->mode;
  r->n++;
  return 0;
}

static uint64_t du_size(tree_opts *o, const char *path);
static bool has_visible(tree_opts *o, const char *path);

static int64_t ent_time(const tree_opts *o, const tree_ent *e) {
  return o->ctime_sort || o->sort == SORT_CTIME ? e->st.ctime : e->st.mtime;
}

static _Thread_local const tree_opts *tl_tree_sort;

static int ent_cmp(const void *pa, const void *pb) {
  const tree_opts *o = tl_tree_sort;
  const tree_ent *a = pa, *b = pb;
  if (o->dirsfirst && a->is_dir != b->is_dir) return a->is_dir ? -1 : 1;
  if (o->filesfirst && a->is_dir != b->is_dir) return a->is_dir ? 1 : -1;
  int c = 0;
  switch (o->sort) {
  case SORT_VERSION: c = cmd_filevercmp(a->name, b->name); break;
  case SORT_SIZE: {
    uint64_t as = o->du ? a->du : a->st.size, bs = o->du ? b->du : b->st.size;
    c = as == bs ? 0 : as < bs ? 1 : -1;
    break;
  }
  case SORT_MTIME:
  case SORT_CTIME: {
    int64_t at = ent_time(o, a), bt = ent_time(o, b);
    c = at == bt ? 0 : at < bt ? -1 : 1;
    break;
  }
  default: break;
  }
  if (c == 0) c = strcmp(a->name, b->name);
  return o->reverse ? -c : c;
}

/* ---- --gitignore ---------------------------------------------------------------- */

typedef struct git_rule {
  char *pat;       /* without !, the leading / and the trailing / */
  size_t dirlen;   /* length of the directory of its .gitignore (a prefix of paths) */
  bool neg, dir_only, anchored;
} git_rule;

typedef struct git_rules {
  git_rule *v;
  size_t n, cap;
  char *texts[256]; /* the .gitignore files read (owned) */
  int ntexts;
} git_rules;

#define TREE_GIT_MAX_RULES 100000

static void git_load(tree_opts *o, git_rules *g, const char *dir) {
  if (g->ntexts >= 256) return;
  char *file = cmd_join_path(o->ctx, dir, ".gitignore");
  char *buf = NULL;
  size_t len = 0;
  if (!file || cmd_read_all(o->ctx, file, 1u << 20, &buf, &len) < 0 || !buf) return;
  g->texts[g->ntexts++] = buf;
  for (char *line = buf, *next; line < buf + len && g->n < TREE_GIT_MAX_RULES; line = next) {
    char *nl = memchr(line, '\n', (size_t)(buf + len - line));
    next = nl ? nl + 1 : buf + len;
    char *end = nl ? nl : buf + len;
    *end = 0;
    if (end > line && end[-1] == '\r') *--end = 0;
    while (end > line && end[-1] == ' ' && !(end - 1 > line && end[-2] == '\\')) *--end = 0;
    if (!*line || *line == '#') continue;
    git_rule r = {0};
    char *p = line;
    if (*p == '!') r.neg = true, p++;
    else if (*p == '\\' && (p[1] == '!' || p[1] == '#')) p++;
    size_t pl = strlen(p);
    if (pl && p[pl - 1] == '/') r.dir_only = true, p[--pl] = 0;
    if (!pl) continue;
    if (strchr(p, '/')) r.anchored = true;
    if (*p == '/') p++;
    r.pat = p;
    r.dirlen = strlen(dir);
    if (cmd_grow(&g->v, &g->cap, g->n + 1, sizeof *g->v)) return;
    g->v[g->n++] = r;
  }
}

/* The rules of the .gitignore files from the root being listed down to dir. */
static void git_rules_for(tree_opts *o, git_rules *g, const char *dir) {
  const char *root = o->git_root ? o->git_root : ".";
  size_t rl = strlen(root);
  git_load(o, g, root);
  if (strncmp(dir, root, rl) != 0) return;
  char *d = strdup(dir);
  if (!d) return;
  for (size_t i = rl + (root[rl - 1] == '/' ? 0 : 1); i <= strlen(dir); i++) {
    if (dir[i] != '/' && dir[i] != 0) continue;
    if (i <= rl) continue;
    char c = d[i];
    d[i] = 0;
    git_load(o, g, d);
    d[i] = c;
  }
  free(d);
}

static void git_rules_free(git_rules *g) {
  for (int i = 0; i < g->ntexts; i++) free(g->texts[i]);
  free(g->v);
}

/* Does the last rule that matches the entry at path (named name) ignore it? */
static bool git_ignored(const git_rules *g, const char *path, const char *name, bool is_dir) {
  bool ignored = false;
  for (size_t i = 0; i < g->n; i++) {
    const git_rule *r = &g->v[i];
    if (r->dir_only && !is_dir) continue;
    bool m;
    if (r->anchored) {
      const char *rel = path + r->dirlen;
      while (*rel == '/') rel++;
      m = fnmatch(r->pat, rel, FNM_PATHNAME) == 0;
    } else {
      m = fnmatch(r->pat, name, 0) == 0;
    }
    if (m) ignored = !r->neg;
  }
  return ignored;
}

/* Reads, stats, filters and sorts a directory. Returns 0 or -errno. */
static int read_level(tree_opts *o, const char *path, store_ino ino, tree_level *l) {
  cmd_ctx *ctx = o->ctx;
  tree_read r = {.o = o, .dir = path};
  int rc = store_readdir(ctx->store, ino, 0, tree_read_cb, &r);
  if (r.err) rc = r.err;
  if (rc < 0) {
    l->v = r.v;
    l->n = r.n;
    free_level(l);
    return rc;
  }
  if (o->filelimit > 0 && (long)r.n > o->filelimit) {
    l->v = r.v;
    l->n = r.n;
    long n = (long)r.n;
    free_level(l);
    return (int)-n - 100000; /* encoded count for the caller's message */
  }
  /* without x on the directory its entries cannot be stat'ed, and tree
   * leaves out what it cannot lstat */
  bool can_search = store_access(ctx->store, ino, X_OK) == 0;
  git_rules git = {0};
  if (o->gitignore) git_rules_for(o, &git, path);
  size_t kept = 0;
  for (size_t i = 0; i < r.n; i++) {
    tree_ent *e = &r.v[i];
    if (!can_search) {
      free(e->name);
      free(e->path);
      free(e->target);
      continue;
    }
    store_stat st;
    bool ok = store_getattr(ctx->store, e->st.ino, &st) == 0;
    if (ok) cmd_fs_present(&st);
    else st = e->st;
    e->stat_ok = ok;
    e->is_link = S_ISLNK(st.mode);
    if (e->is_link) {
      char *t = NULL;
      if (store_path_readlink(ctx->store, ctx->cwd, e->path, &t) == 0) e->target = t;
      store_stat ts;
      if (cmd_fs_stat(ctx, e->path, &ts) == 0 && S_ISDIR(ts.mode)) {
        e->is_dir = o->follow;
        if (o->follow) st = ts;
      }
    } else {
      e->is_dir = S_ISDIR(st.mode);
    }
    e->st = st;
    bool keep = true;
    if (o->dirs_only && !e->is_dir) keep = false;
    for (int k = 0; keep && k < o->nignores; k++)
      if (pat_match(o, o->ignores[k], e->name)) keep = false;
    if (keep && git.n && git_ignored(&git, e->path, e->name, e->is_dir)) keep = false;
    if (keep && o->npats && (!e->is_dir || o->matchdirs)) {
      bool any = false;
      for (int k = 0; k < o->npats; k++)
        if (pat_match(o, o->pats[k], e->name)) any = true;
      if (!any && !(e->is_dir && !o->matchdirs)) keep = false;
      if (!any && e->is_dir && o->matchdirs) keep = false;
    }
    if (keep && o->prune && e->is_dir && !has_visible(o, e->path)) keep = false;
    if (keep && o->du) e->du = e->is_dir ? du_size(o, e->path) : e->st.size;
    if (!keep) {
      free(e->name);
      free(e->path);
      free(e->target);
      continue;
    }
    r.v[kept++] = *e;
  }
  r.n = kept;
  git_rules_free(&git);
  if (o->sort != SORT_NONE && r.n > 1) {
    tl_tree_sort = o;
    qsort(r.v, r.n, sizeof *r.v, ent_cmp);
  }
  l->v = r.v;
  l->n = r.n;
  l->next = 0;
  l->ino = ino;
  return 0;
}

/* --prune: does the subtree hold anything that would be listed? */
static bool has_visible(tree_opts *o, const char *path) {
  cmd_walk *w = cmd_walk_open(o->ctx, path, o->follow ? CMD_WALK_LOGICAL : 0);
  if (!w) return true;
  bool found = false;
  cmd_walk_ent *e;
  while (!found && (e = cmd_walk_next(w))) {
    if (e->depth == 0) continue;
    if (!o->all && e->name[0] == '.') {
      if (e->info == CMD_WALK_D) cmd_walk_skip(w);
      continue;
    }
    bool ignored = false;
    for (int k = 0; k < o->nignores; k++)
      if (pat_match(o, o->ignores[k], e->name)) ignored = true;
    if (ignored) {
      if (e->info == CMD_WALK_D) cmd_walk_skip(w);
      continue;
    }
    if (e->info == CMD_WALK_D || e->info == CMD_WALK_DP || e->info == CMD_WALK_DNR) {
      if (o->dirs_only) found = true;
      continue;
    }
    if (o->dirs_only) continue;
    if (!o->npats) {
      found = true;
      continue;
    }
    for (int k = 0; k < o->npats; k++)
      if (pat_match(o, o->pats[k], e->name)) found = true;
  }
  cmd_walk_close(w);
  return found;
}

static uint64_t du_size(tree_opts *o, const char *path) {
  cmd_walk *w = cmd_walk_open(o->ctx, path, o->follow ? CMD_WALK_COMFOLLOW : 0);
  if (!w) return 0;
  uint64_t total = 0;
  cmd_walk_ent *e;
  while ((e = cmd_walk_next(w))) {
    if (e->info == CMD_WALK_NS || e->info == CMD_WALK_DNR) continue;
    if (!o->all && e->depth > 0 && e->name[0] == '.') {
      if (e->info == CMD_WALK_D) cmd_walk_skip(w);
      continue;
    }
    total += e->st.size;
  }
  cmd_walk_close(w);
  return total;
}

/* Writes a name as tree 2.1's printit() does in a UTF-8 locale. A name that
 * decodes as UTF-8 is written character by character: printable ones as
 * they are, others as \ooo of the code point ('?' with -q). A name with
 * invalid UTF-8 (mbstowcs fails) goes byte by byte: \a..\r as C escapes,
 * '\\' doubled, '"' escaped under -Q, a space escaped without -Q, ASCII
 * printables as they are, other bytes as \ooo (-q: '?' for controls, bytes
 * >= 0x80 as they are). -N writes the bytes untouched. */
static void put_name(tree_opts *o, const char *name) {
  if (o->quote) touts(o, "\"");
  const unsigned char *s = (const unsigned char *)name;
  size_t n = strlen(name);
  if (o->raw_names) {
    touts(o, name);
    n = 0;
  }
  bool valid = true;
  for (size_t i = 0; i < n && valid;) {
    uint32_t wc;
    int l = s[i] < 0x80 ? 1 : cmd_utf8_decode(s + i, n - i, &wc);
    if (l <= 0) valid = false;
    else i += (size_t)l;
  }
  locale_t loc = cmd_utf8_locale(), old = loc ? uselocale(loc) : (locale_t)0;
  char buf[16];
  for (size_t i = 0; i < n;) {
    if (valid) {
      uint32_t wc = s[i];
      int l = s[i] < 0x80 ? 1 : cmd_utf8_decode(s + i, n - i, &wc);
      if (loc ? iswprint((wint_t)wc) : (wc >= 0x20 && wc != 0x7f))
        tout(o, name + i, (size_t)l);
      else if (o->hide_ctrl)
        touts(o, "?");
      else {
        snprintf(buf, sizeof buf, "\\%03o", (unsigned)wc);
        touts(o, buf);
      }
      i += (size_t)l;
      continue;
    }
    unsigned char c = s[i++];
    if ((c >= 7 && c <= 13) || c == '\\' || (c == '"' && o->quote) || (c == ' ' && !o->quote)) {
      buf[0] = '\\';
      buf[1] = c > 13 ? (char)c : "abtnvfr"[c - 7];
      tout(o, buf, 2);
    } else if (c >= 0x20 && c < 0x7f) {
      tout(o, (const char *)&c, 1);
    } else if (o->hide_ctrl) {
      if (c > 127) tout(o, (const char *)&c, 1);
      else touts(o, "?");
    } else {
      snprintf(buf, sizeof buf, "\\%03o", c);
      touts(o, buf);
    }
  }
  if (loc) uselocale(old);
  if (o->quote) touts(o, "\"");
}

static void put_json_str(tree_opts *o, const char *s) {
  touts(o, "\"");
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    char buf[8];
    if (*p == '"' || *p == '\\') {
      buf[0] = '\\';
      buf[1] = (char)*p;
      tout(o, buf, 2);
    } else if (*p < 0x20) {
      /* tree 2.1's JSON: the short escapes, else \u00XX */
      const char *e = *p == '\n' ? "\\n" : *p == '\t' ? "\\t" : *p == '\r' ? "\\r"
                    : *p == '\b' ? "\\b" : *p == '\f' ? "\\f" : NULL;
      if (!e) snprintf(buf, sizeof buf, "\\u%04x", *p);
      touts(o, e ? e : buf);
    } else {
      tout(o, (const char *)p, 1);
    }
  }
  touts(o, "\"");
}

static void fmt_date(tree_opts *o, const store_stat *st, char *buf, size_t n) {
  int64_t t = o->ctime_sort ? st->ctime : st->mtime;
  struct tm tm;
  buf[0] = 0;
  if (!cmd_time_local(&o->tz, t, &tm)) return;
  const char *fmt = o->timefmt;
  if (!fmt) {
    int64_t now = o->ctx->now;
    fmt = (t > now - 31556952 / 2 && t <= now) ? "%b %e %H:%M" : "%b %e  %Y";
  }
  char *out = NULL;
  if (cmd_strftime(&out, n - 1, fmt, &tm, t, 0) >= 0) snprintf(buf, n, "%s", out);
  free(out);
}

/* The name of st's user (or group), else its number written in buf. */
static const char *owner_name(const tree_opts *o, const store_stat *st, bool group, char *buf,
                              size_t size) {
  const char *name =
      group ? cmd_fs_groupname(o->ids, st->gid) : cmd_fs_username(o->ids, st->uid);
  if (name) return name;
  snprintf(buf, size, "%" PRIu32, group ? st->gid : st->uid);
  return buf;
}

/* "[meta]  " before the name; returns whether anything was printed. */
static void put_meta(tree_opts *o, const tree_ent *e) {
  char f[8][128];
  int nf = 0;
  const store_stat *st = &e->st;
  if (o->inodes) snprintf(f[nf++], 128, "%" PRId64, st->ino);
  if (o->perms) cmd_fs_modestr(st->mode, f[nf++]);
  char id[16];
  if (o->user) snprintf(f[nf++], 128, "%-8s", owner_name(o, st, false, id, sizeof id));
  if (o->group) snprintf(f[nf++], 128, "%-8s", owner_name(o, st, true, id, sizeof id));
  if (o->size || o->du) {
    uint64_t sz = o->du && e->is_dir ? e->du : st->size;
    if (o->human || o->si) {
      char hb[32];
      cmd_human(sz, 1, (o->si ? CMD_HUMAN_SI : 0), hb, sizeof hb);
      if (o->si) {
        /* tree prints "k" for SI kilo as well */
      }
      snprintf(f[nf++], 128, "%4s", hb);
    } else {
      snprintf(f[nf++], 128, "%11" PRIu64, sz);
    }
  }
  if (o->date) fmt_date(o, st, f[nf++], 128);
  if (!nf) return;
  touts(o, "[");
  for (int i = 0; i < nf; i++) {
    if (i) touts(o, " ");
    touts(o, f[i]);
  }
  touts(o, "]  ");
}

static char indicator(const tree_opts *o, const tree_ent *e) {
  if (!o->classify) return 0;
  if (e->is_link) return 0; /* the target is shown instead */
  uint32_t m = e->st.mode;
  if (S_ISDIR(m)) return '/';
  if (S_ISFIFO(m)) return '|';
  if (S_ISSOCK(m)) return '=';
  if (S_ISREG(m) && (m & 0111)) return '*';
  return 0;
}

/* One entry's line (text mode) after the prefix. */
static void put_entry(tree_opts *o, const tree_ent *e) {
  put_meta(o, e);
  put_name(o, o->full_path ? e->path : e->name);
  if (e->is_link && e->target) {
    touts(o, " -> ");
    put_name(o, e->target);
  }
  char c = indicator(o, e);
  if (c) tout(o, &c, 1);
}

static void put_json_entry(tree_opts *o, const tree_ent *e, bool open_contents) {
  const char *type = e->is_link ? "link" : e->is_dir ? "directory" : "file";
  touts(o, "{\"type\":\"");
  touts(o, type);
  touts(o, "\",\"name\":");
  put_json_str(o, o->full_path ? e->path : e->name);
  if (e->is_link && e->target) {
    touts(o, ",\"target\":");
    put_json_str(o, e->target);
  }
  char buf[128];
  if (o->inodes) {
    snprintf(buf, sizeof buf, ",\"inode\":%" PRId64, e->st.ino);
    touts(o, buf);
  }
  if (o->perms) {
    snprintf(buf, sizeof buf, ",\"mode\":\"%04o\",\"prot\":\"", e->st.mode & 07777);
    touts(o, buf);
    char m[11];
    cmd_fs_modestr(e->st.mode, m);
    touts(o, m);
    touts(o, "\"");
  }
  if (o->user) {
    const char *u = cmd_fs_username(o->ids, e->st.uid);
    snprintf(buf, sizeof buf, ",\"user\":\"%s\"", u ? u : "");
    touts(o, buf);
  }
  if (o->group) {
    const char *g = cmd_fs_groupname(o->ids, e->st.gid);
    snprintf(buf, sizeof buf, ",\"group\":\"%s\"", g ? g : "");
    touts(o, buf);
  }
  if (o->size || o->du) {
    snprintf(buf, sizeof buf, ",\"size\":%" PRIu64, o->du && e->is_dir ? e->du : e->st.size);
    touts(o, buf);
  }
  if (o->date) {
    char d[128];
    fmt_date(o, &e->st, d, sizeof d);
    touts(o, ",\"time\":");
    put_json_str(o, d);
  }
  if (open_contents) touts(o, ",\"contents\":[\n");
}

/* -X: s with & < > " as entities (tree 2.1's XML). */
static void put_xml_str(tree_opts *o, const char *s) {
  const char *p = s;
  while (*p) {
    size_t l = strcspn(p, "&<>\"");
    tout(o, p, l);
    p += l;
    if (!*p) break;
    touts(o, *p == '&' ? "&amp;" : *p == '<' ? "&lt;" : *p == '>' ? "&gt;" : "&quot;");
    p++;
  }
}

/* -X: ` attr="value"` with the value escaped. */
static void put_xml_attr(tree_opts *o, const char *attr, const char *val) {
  touts(o, " ");
  touts(o, attr);
  touts(o, "=\"");
  put_xml_str(o, val);
  touts(o, "\"");
}

/* -X: "<TYPE name=... attrs>"; the caller closes the element. */
static const char *put_xml_entry(tree_opts *o, const tree_ent *e) {
  const char *type = e->is_link ? "link" : e->is_dir ? "directory" : "file";
  touts(o, "<");
  touts(o, type);
  put_xml_attr(o, "name", o->full_path ? e->path : e->name);
  if (e->is_link && e->target) put_xml_attr(o, "target", e->target);
  char buf[128];
  if (o->inodes) {
    snprintf(buf, sizeof buf, " inode=\"%" PRId64 "\"", e->st.ino);
    touts(o, buf);
  }
  if (o->perms) {
    char m[11];
    cmd_fs_modestr(e->st.mode, m);
    snprintf(buf, sizeof buf, " mode=\"%04o\" prot=\"%s\"", e->st.mode & 07777, m);
    touts(o, buf);
  }
  if (o->user) put_xml_attr(o, "user", owner_name(o, &e->st, false, buf, sizeof buf));
  if (o->group) put_xml_attr(o, "group", owner_name(o, &e->st, true, buf, sizeof buf));
  if (o->size || o->du) {
    snprintf(buf, sizeof buf, " size=\"%" PRIu64 "\"", o->du && e->is_dir ? e->du : e->st.size);
    touts(o, buf);
  }
  if (o->date) {
    char d[128];
    fmt_date(o, &e->st, d, sizeof d);
    put_xml_attr(o, "time", d);
  }
  touts(o, ">");
  return type;
}

/* The indent of a -J or -X line at depth. */
static void indent_nested(tree_opts *o, int depth) {
  for (int i = 0; i < depth * 2 + 2; i++) touts(o, " ");
}

/* Lists one root. */
static void tree_root(tree_opts *o, const char *root, bool first_root) {
  cmd_ctx *ctx = o->ctx;
  o->git_root = root;
  tree_ent top = {0};
  top.name = (char *)root;
  top.path = (char *)root;
  store_stat st;
  int rc = cmd_fs_stat(ctx, root, &st);
  bool is_dir = rc == 0 && S_ISDIR(st.mode);
  if (rc == 0) {
    top.st = st;
    top.stat_ok = true;
    top.is_dir = is_dir;
  }
  if (o->xml) {
    if (rc < 0 || !is_dir) {
      /* tree 2.1's exact (odd) output for a root it cannot list */
      if (rc < 0) {
        touts(o, " name=\"");
        put_xml_str(o, root);
        touts(o, "\"><error>error opening dir</error>\n  </unknown>\n");
        o->failed = true;
      } else {
        touts(o, "  <file name=\"");
        put_xml_str(o, root);
        touts(o, "\"><error>error opening dir</error>\n  </file>\n");
        o->nfiles++;
      }
      return;
    }
  } else if (o->json) {
    if (!first_root) touts(o, ",\n");
    if (rc < 0 || !is_dir) {
      touts(o, "  {\"type\":\"");
      touts(o, rc < 0 ? "" : "file");
      touts(o, "\",\"name\":");
      put_json_str(o, root);
      touts(o, ",\"contents\":[{\"error\": \"");
      touts(o, rc < 0 ? "error opening dir" : "error opening dir");
      touts(o, "\"}\n\n  ]}");
      if (rc == 0) o->nfiles++;
      touts(o, "\n");
      if (rc < 0) o->failed = true;
      return;
    }
  } else {
    if (rc < 0 || !is_dir) {
      put_name(o, root);
      touts(o, "  [error opening dir]\n");
      if (rc == 0) o->nfiles++;
      if (rc < 0) o->failed = true;
      return;
    }
  }
  if (o->du) top.du = du_size(o, root);
  /* the stack of levels */
  int cap = 16, n = 0;
  tree_level *lv = calloc((size_t)cap, sizeof *lv);
  if (!lv) return;
  char *prefix = malloc(4096);
  size_t prefix_cap = 4096;
  if (!prefix) {
    free(lv);
    return;
  }
  int rr = read_level(o, root, st.ino, &lv[0]);
  bool open_error = rr < 0 && rr > -100000;
  bool empty = rr == 0 && lv[0].n == 0;
  if (o->xml) {
    touts(o, "  ");
    put_xml_entry(o, &top);
    if (open_error) touts(o, "<error>error opening dir</error>");
    touts(o, "\n");
    if (open_error || empty || rr < 0) touts(o, "  </directory>\n");
  } else if (o->json) {
    touts(o, "  ");
    put_json_entry(o, &top, !open_error && !empty);
    /* tree 2.1: an unreadable top directory counts as a file */
    if (open_error) touts(o, ",\"contents\":[{\"error\": \"error opening dir\"}\n\n  ]}\n");
    if (empty) touts(o, "}\n");
  } else {
    put_meta(o, &top);
    put_name(o, root);
    if (o->classify) touts(o, "/");
    if (open_error) touts(o, "  [error opening dir]");
    touts(o, "\n");
  }
  if (open_error) o->nfiles++;
  if (rr < 0) {
    if (rr <= -100000) {
      char m[96];
      snprintf(m, sizeof m, "  [%d entries exceeds filelimit, not opening dir]\n", -rr - 100000);
      (void)m;
    }
    free(lv);
    free(prefix);
    if (o->json && !open_error) touts(o, "  ]}\n");
    return;
  }
  if (empty && (o->json || o->xml)) {
    free_level(&lv[0]);
    free(lv);
    free(prefix);
    return;
  }
  n = 1;
  /* tree 2.1 counts a top directory only when it lists something */
  if (lv[0].n > 0) o->ndirs++;
  /* prefix strings per level: each level adds 4 columns */
  /* tree 2.1 pads the vertical bar with two no-break spaces in UTF-8 */
  const char *vert = o->unicode ? "\xe2\x94\x82\xc2\xa0\xc2\xa0 " : "|   ";
  const char *tee = o->unicode ? "\xe2\x94\x9c\xe2\x94\x80\xe2\x94\x80 " : "|-- ";
  const char *elbow = o->unicode ? "\xe2\x94\x94\xe2\x94\x80\xe2\x94\x80 " : "`-- ";
  size_t *plen = calloc((size_t)cap, sizeof *plen);
  if (!plen) {
    free_level(&lv[0]);
    free(lv);
    free(prefix);
    return;
  }
  plen[0] = 0;
  prefix[0] = 0;
  lv[0].xml_tag = "directory";
  while (n > 0) {
    if (cmd_poll(ctx)) break;
    tree_level *l = &lv[n - 1];
    if (l->next >= l->n) {
      const char *tag = l->xml_tag;
      free_level(l);
      n--;
      if (o->xml) {
        indent_nested(o, n);
        touts(o, "</");
        touts(o, tag ? tag : "directory");
        touts(o, ">\n");
      }
      if (o->json) {
        if (n > 0) {
          touts(o, "\n");
          indent_nested(o, n);
          touts(o, "]}");
        } else {
          touts(o, "\n  ]}\n");
        }
      }
      continue;
    }
    tree_ent *e = &l->v[l->next++];
    bool last = l->next == l->n;
    /* tree 2.1's report adds each entry once per level above it */
    if (o->du) o->du_total += e->st.size * (uint64_t)n;
    if (e->is_dir) o->ndirs++;
    else o->nfiles++;
    /* can we descend? */
    bool descend = e->is_dir && (o->max_level == 0 || n < o->max_level);
    bool loop = false;
    if (descend && e->is_link) {
      for (int k = 0; k < n; k++)
        if (lv[k].ino == e->st.ino) loop = true;
      if (e->st.ino == st.ino) loop = true;
    }
    tree_level child = {0};
    int crc = 0;
    if (descend && !loop) {
      if (n >= CMD_WALK_MAX_DEPTH) crc = -ENAMETOOLONG;
      else crc = read_level(o, e->path, e->st.ino, &child);
    }
    if (o->prune && e->is_dir && descend && !loop && crc == 0 && child.n == 0) {
      free_level(&child);
      o->ndirs--;
      continue;
    }
    const char *xtag = NULL;
    if (o->xml) {
      bool has_children = descend && !loop && crc == 0 && child.n > 0;
      indent_nested(o, n);
      xtag = put_xml_entry(o, e);
      if (descend && !loop && crc < 0 && crc > -100000)
        touts(o, "<error>error opening dir</error>");
      if (has_children) {
        touts(o, "\n");
      } else {
        touts(o, "</");
        touts(o, xtag);
        touts(o, ">\n");
      }
    } else if (o->json) {
      if (l->next > 1) touts(o, ",\n");
      indent_nested(o, n);
      put_json_entry(o, e, descend && !loop && crc == 0 && child.n > 0);
      if (descend && !loop && crc < 0 && crc > -100000) {
        touts(o, ",\"contents\":[{\"error\": \"error opening dir\"}\n");
        indent_nested(o, n - 1);
        touts(o, "]}");
      } else if (!(descend && !loop && crc == 0 && child.n > 0)) {
        touts(o, "}");
      }
    } else {
      if (!o->no_indent) {
        tout(o, prefix, plen[n - 1]);
        touts(o, last ? elbow : tee);
      }
      put_entry(o, e);
      if (loop) touts(o, "  [recursive, not followed]");
      else if (crc <= -100000) {
        char m[96];
        snprintf(m, sizeof m, "  [%d entries exceeds filelimit, not opening dir]", -crc - 100000);
        touts(o, m);
      } else if (crc < 0) {
        touts(o, "  [error opening dir]");
      }
      touts(o, "\n");
    }
    if (descend && !loop && crc < 0 && crc > -100000) o->failed = true; /* tree 2.1 exits 2 */
    if (descend && !loop && crc == 0) {
      if (child.n == 0) {
        free_level(&child);
        continue;
      }
      if (n == cap) {
        int nc = cap * 2;
        tree_level *nl = realloc(lv, (size_t)nc * sizeof *nl);
        size_t *np = realloc(plen, (size_t)nc * sizeof *np);
        if (!nl || !np) {
          if (nl) lv = nl;
          if (np) plen = np;
          free_level(&child);
          break;
        }
        lv = nl;
        plen = np;
        cap = nc;
      }
      /* extend the prefix for the child level */
      const char *add = last ? "    " : vert;
      size_t al = strlen(add);
      if (cmd_grow(&prefix, &prefix_cap, plen[n - 1] + al + 1, 1)) {
        free_level(&child);
        break;
      }
      memcpy(prefix + plen[n - 1], add, al);
      plen[n] = plen[n - 1] + al;
      child.xml_tag = xtag;
      lv[n++] = child;
    }
  }
  while (n > 0) free_level(&lv[--n]);
  free(lv);
  free(plen);
  free(prefix);
}

/* ---- --fromfile: a tree of the listed paths (no store access) ---- */

/* One node of the listed paths. */
typedef struct ff_node {
  const char *name;      /* component (points into the read buffer) */
  size_t len;            /* its length */
  struct ff_node *kids;  /* first child */
  struct ff_node *last;  /* last child (appends keep sorted order) */
  struct ff_node *next;  /* next sibling */
  bool dir;              /* has children or was listed with a trailing '/' */
} ff_node;

#define FF_MAX_DEPTH 1000 /* recursion bound of ff_print */

/* Compares paths component by component ('/' sorts before every byte). */
static int ff_cmp(const void *a, const void *b) {
  const unsigned char *x = *(const unsigned char *const *)a, *y = *(const unsigned char *const *)b;
  for (;; x++, y++) {
    int cx = *x == '/' ? 1 : *x == 0 ? 0 : *x + 1, cy = *y == '/' ? 1 : *y == 0 ? 0 : *y + 1;
    if (cx != cy || !cx) return cx - cy;
  }
}

/* Prints the children of `n` with `prefix` (text mode); depth-limited. */
static void ff_print(tree_opts *o, const ff_node *n, char *prefix, size_t plen, size_t pcap,
                     int depth) {
  const char *vert = o->unicode ? "\xe2\x94\x82\xc2\xa0\xc2\xa0 " : "|   ";
  const char *tee = o->unicode ? "\xe2\x94\x9c\xe2\x94\x80\xe2\x94\x80 " : "|-- ";
  const char *elbow = o->unicode ? "\xe2\x94\x94\xe2\x94\x80\xe2\x94\x80 " : "`-- ";
  for (const ff_node *k = n->kids; k; k = k->next) {
    if (cmd_poll(o->ctx)) return;
    bool last = !k->next;
    if (k->dir) o->ndirs++;
    else o->nfiles++;
    if (!o->no_indent) {
      tout(o, prefix, plen);
      touts(o, last ? elbow : tee);
    }
    char *nm = strndup(k->name, k->len);
    if (!nm) return;
    put_name(o, nm);
    free(nm);
    touts(o, "\n");
    if (!k->kids) continue;
    if (depth + 1 >= FF_MAX_DEPTH || (o->max_level && depth + 1 >= o->max_level)) continue;
    const char *add = last ? "    " : vert;
    size_t al = strlen(add);
    if (plen + al > pcap) continue; /* bounded by FF_MAX_DEPTH * 7 */
    memcpy(prefix + plen, add, al);
    ff_print(o, k, prefix, plen + al, pcap, depth + 1);
  }
}

/* --fromfile: each operand ("." = stdin) lists paths, one a line. */
static void tree_fromfile(tree_opts *o, const char *file) {
  cmd_ctx *ctx = o->ctx;
  char *data = NULL;
  size_t len = 0;
  size_t limit = ctx->max_string ? (size_t)ctx->max_string : (size_t)1 << 26;
  int rc = cmd_read_all(ctx, strcmp(file, ".") == 0 ? "-" : file, limit, &data, &len);
  if (rc < 0) {
    put_name(o, file);
    touts(o, "  [error opening dir]\n");
    o->failed = true;
    return;
  }
  size_t nl = 0;
  for (size_t i = 0; i < len; i++) nl += data[i] == '\n';
  char **lines = malloc((nl + 1) * sizeof *lines);
  ff_node *nodes = NULL;
  size_t nnodes = 0, ncap = 0, nlines = 0;
  ff_node root = {0};
  char *prefix = malloc(FF_MAX_DEPTH * 8);
  if (!lines || !prefix) goto out;
  for (size_t i = 0; i < len;) {
    char *e = memchr(data + i, '\n', len - i);
    size_t l = e ? (size_t)(e - data) - i : len - i;
    data[i + l] = 0; /* the buffer has room for the terminator */
    char *ln = data + i;
    while (*ln == '/') ln++; /* "/abs" is listed as "abs" */
    if (*ln) lines[nlines++] = ln;
    i += l + 1;
  }
  qsort(lines, nlines, sizeof *lines, ff_cmp);
  /* the lines sorted component-wise, so a path shares its parents with the
   * previous line's last nodes; nodes live in one array sized by a count */
  size_t total = 0;
  for (size_t i = 0; i < nlines; i++)
    for (const char *p = lines[i]; *p;) {
      while (*p == '/') p++;
      if (!*p) break;
      total++;
      while (*p && *p != '/') p++;
    }
  ncap = total ? total : 1;
  nodes = calloc(ncap, sizeof *nodes);
  if (!nodes) goto out;
  for (size_t i = 0; i < nlines; i++) {
    ff_node *cur = &root;
    const char *p = lines[i];
    int depth = 0;
    while (*p) {
      while (*p == '/') p++;
      if (!*p) {
        cur->dir = true; /* trailing slash */
        break;
      }
      const char *st = p;
      while (*p && *p != '/') p++;
      size_t cl = (size_t)(p - st);
      if (cur->last && cur->last->len == cl && memcmp(cur->last->name, st, cl) == 0) {
        cur = cur->last;
      } else {
        if (nnodes >= ncap) goto out;
        ff_node *nn = &nodes[nnodes++];
        nn->name = st;
        nn->len = cl;
        if (cur->last) cur->last->next = nn;
        else cur->kids = nn;
        cur->last = nn;
        cur->dir = true;
        cur = nn;
      }
      if (++depth > FF_MAX_DEPTH) break;
    }
    if ((i & 1023) == 0 && cmd_poll(ctx)) goto out;
  }
  put_name(o, file);
  touts(o, "\n");
  o->ndirs++;
  ff_print(o, &root, prefix, 0, FF_MAX_DEPTH * 8, 0);
out:
  free(prefix);
  free(nodes);
  free(lines);
  free(data);
}

static bool locale_utf8(cmd_ctx *ctx) {
  const char *v = cmd_getenv(ctx, "LC_ALL");
  if (!v || !*v) v = cmd_getenv(ctx, "LC_CTYPE");
  if (!v || !*v) v = cmd_getenv(ctx, "LANG");
  if (!v) return false;
  return strcasestr(v, "utf-8") || strcasestr(v, "utf8");
}

int cmd_tree_main(cmd_ctx *ctx, int argc, char **argv) {
  enum { OPT_IGNCASE = CMD_OPT_LONG, OPT_MATCHDIRS, OPT_PRUNE, OPT_NOREPORT, OPT_FILELIMIT,
         OPT_DIRSFIRST, OPT_FILESFIRST, OPT_SORT, OPT_DU, OPT_SI, OPT_INODES, OPT_TIMEFMT,
         OPT_CHARSET, OPT_DEVICE, OPT_METAFIRST, OPT_NOLINKS, OPT_FROMFILE, OPT_GITIGNORE };
  static const char spec[] =
      "(ignore-case)(matchdirs)(prune)(noreport)(filelimit):(dirsfirst)(filesfirst)(sort):(du)"
      "(si)(inodes)(timefmt):(charset):(device)(metafirst)(nolinks)(fromfile)(gitignore)(help)"
      "(version)acdfghilnpqrstuvxACDFJXL:NQSUP:I:o:R";
  tree_opts o = {.ctx = ctx, .out_fd = -1, .hide_ctrl = false};
  o.pats = cmd_alloc(ctx, (size_t)(argc + 1) * sizeof *o.pats);
  o.ignores = cmd_alloc(ctx, (size_t)(argc + 1) * sizeof *o.ignores);
  if (!o.pats || !o.ignores) return 1;
  o.unicode = locale_utf8(ctx);
  const char *outfile = NULL;
  bool fromfile = false;
  cmd_getopt_state st = CMD_GETOPT_INIT;
  int c;
  while ((c = cmd_getopt(ctx, &st, argc, argv, spec, NULL)) != -1) {
    switch (c) {
    case 'a': o.all = true; break;
    case 'c': o.ctime_sort = true; if (o.sort == SORT_MTIME) o.sort = SORT_CTIME; break;
    case 'd': o.dirs_only = true; break;
    case 'f': o.full_path = true; break;
    case 'g': o.group = true; break;
    case 'h': o.human = true; o.size = true; break;
    case 'i': o.no_indent = true; break;
    case 'l': o.follow = true; break;
    case 'n': case 'C': case 'A': case 'x': case 'R': case OPT_DEVICE: case OPT_METAFIRST:
    case OPT_NOLINKS:
      break;
    case 'S': o.unicode = false; break;
    case 'p': o.perms = true; break;
    case 'q': o.hide_ctrl = true; o.raw_names = false; break;
    case 'N': o.hide_ctrl = false; o.raw_names = true; break;
    case 'Q': o.quote = true; break;
    case 'r': o.reverse = true; break;
    case 's': o.size = true; break;
    case 't': o.sort = o.ctime_sort ? SORT_CTIME : SORT_MTIME; break;
    case 'u': o.user = true; break;
    case 'v': o.sort = SORT_VERSION; break;
    case 'U': o.sort = SORT_NONE; break;
    case 'D': o.date = true; break;
    case 'F': o.classify = true; break;
    case 'J': o.json = true; o.xml = false; break;
    case 'X': o.xml = true; o.json = false; break;
    case 'L': {
      char *ep;
      long v = strtol(st.arg, &ep, 10);
      if (*ep || v < 1) {
        cmd_err_raw(ctx, "tree: Invalid level, must be greater than 0.\n");
        return 1;
      }
      o.max_level = v > 100000 ? 100000 : (int)v;
      break;
    }
    case 'P': o.pats[o.npats++] = st.arg; break;
    case 'I': o.ignores[o.nignores++] = st.arg; break;
    case 'o': outfile = st.arg; break;
    case OPT_IGNCASE: o.ignore_case = true; break;
    case OPT_MATCHDIRS: o.matchdirs = true; break;
    case OPT_PRUNE: o.prune = true; break;
    case OPT_GITIGNORE: o.gitignore = true; break;
    case OPT_NOREPORT: o.noreport = true; break;
    case OPT_FILELIMIT: o.filelimit = strtol(st.arg, NULL, 10); break;
    case OPT_DIRSFIRST: o.dirsfirst = true; break;
    case OPT_FILESFIRST: o.filesfirst = true; break;
    case OPT_SORT:
      if (!strcmp(st.arg, "name")) o.sort = SORT_NAME;
      else if (!strcmp(st.arg, "version")) o.sort = SORT_VERSION;
      else if (!strcmp(st.arg, "size")) o.sort = SORT_SIZE;
      else if (!strcmp(st.arg, "mtime")) o.sort = SORT_MTIME;
      else if (!strcmp(st.arg, "ctime")) o.sort = SORT_CTIME;
      else if (!strcmp(st.arg, "none")) o.sort = SORT_NONE;
      else {
        cmd_err_raw(ctx, "tree: Sort type '%s' not valid, should be one of: name, version, size, mtime, ctime, none\n", st.arg);
        return 1;
      }
      break;
    case OPT_FROMFILE: fromfile = true; break;
    case OPT_DU: o.du = true; o.size = true; break;
    case OPT_SI: o.si = true; o.size = true; break;
    case OPT_INODES: o.inodes = true; break;
    case OPT_TIMEFMT: o.timefmt = st.arg; o.date = true; break;
    case OPT_CHARSET:
      o.unicode = strcasestr(st.arg, "utf") != NULL;
      break;
    case CMD_OPT_HELP: return cmd_print_help(ctx, tree_usage);
    case CMD_OPT_VERSION:
      cmd_outs(ctx, "tree v2.1.0 (sbx) 1.0\n");
      return 0;
    default: return 1;
    }
  }
  if (o.user || o.group) o.ids = cmd_fs_ids_load(ctx);
  cmd_tz_from_env(ctx, &o.tz);
  if (outfile) {
    int fd = ctx->io && ctx->io->open
                 ? ctx->io->open(ctx->io_ud, outfile, O_WRONLY | O_CREAT | O_TRUNC, 0666)
                 : -ENOSYS;
    if (fd < 0) {
      cmd_err_raw(ctx, "tree: invalid filename '%s'\n", outfile);
      return 1;
    }
    o.out_fd = fd;
  }
  if (o.json) touts(&o, "[\n");
  if (o.xml) touts(&o, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<tree>\n");
  int nroots = argc - st.ind;
  if (fromfile) {
    /* text output only: -J/-X do not apply to listed paths here */
    o.json = o.xml = false;
    if (nroots <= 0) tree_fromfile(&o, ".");
    for (int i = 0; i < nroots; i++) {
      tree_fromfile(&o, argv[st.ind + i]);
      if (cmd_poll(ctx)) break;
    }
  } else {
    if (nroots <= 0) tree_root(&o, ".", true);
    for (int i = 0; i < nroots; i++) {
      tree_root(&o, argv[st.ind + i], i == 0);
      if (cmd_poll(ctx)) break;
    }
  }
  char buf[256];
  if (o.xml) {
    if (!o.noreport) {
      touts(&o, "  <report>\n");
      if (o.du) {
        snprintf(buf, sizeof buf, "    <size>%" PRIu64 "</size>\n", o.du_total);
        touts(&o, buf);
      }
      snprintf(buf, sizeof buf, "    <directories>%" PRIu64 "</directories>\n", o.ndirs);
      touts(&o, buf);
      if (!o.dirs_only) {
        snprintf(buf, sizeof buf, "    <files>%" PRIu64 "</files>\n", o.nfiles);
        touts(&o, buf);
      }
      touts(&o, "  </report>\n");
    }
    touts(&o, "</tree>\n");
  } else if (o.json) {
    if (!o.noreport) {
      touts(&o, ",\n  {\"type\":\"report\"");
      if (o.du) {
        snprintf(buf, sizeof buf, ",\"size\":%" PRIu64, o.du_total);
        touts(&o, buf);
      }
      snprintf(buf, sizeof buf, ",\"directories\":%" PRIu64, o.ndirs);
      touts(&o, buf);
      if (!o.dirs_only) {
        snprintf(buf, sizeof buf, ",\"files\":%" PRIu64, o.nfiles);
        touts(&o, buf);
      }
      touts(&o, "}\n");
    }
    touts(&o, "]\n");
  } else if (!o.noreport) {
    touts(&o, "\n");
    if (o.du) {
      char hb[32];
      if (o.human || o.si) cmd_human(o.du_total, 1, o.si ? CMD_HUMAN_SI : 0, hb, sizeof hb);
      else snprintf(hb, sizeof hb, "%" PRIu64, o.du_total);
      if (o.human || o.si) snprintf(buf, sizeof buf, "%5s used in ", hb);
      else snprintf(buf, sizeof buf, "%12s bytes used in ", hb);
      touts(&o, buf);
    }
    snprintf(buf, sizeof buf, "%" PRIu64 " director%s", o.ndirs, o.ndirs == 1 ? "y" : "ies");
    touts(&o, buf);
    if (!o.dirs_only) {
      snprintf(buf, sizeof buf, ", %" PRIu64 " file%s", o.nfiles, o.nfiles == 1 ? "" : "s");
      touts(&o, buf);
    }
    touts(&o, "\n");
  }
  if (o.out_fd >= 0 && ctx->io->close) ctx->io->close(ctx->io_ud, o.out_fd);
  return o.failed ? 2 : 0;
}
