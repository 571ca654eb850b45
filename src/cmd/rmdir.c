/*
 * rmdir - remove empty directories (GNU coreutils compatible).
 *
 *   rmdir [OPTION]... DIRECTORY...
 *       --ignore-fail-on-non-empty  ignore each failure that is solely because a
 *                                   directory is non-empty
 *   -p, --parents   remove DIRECTORY and its ancestors ('a/b/c' is like
 *                   'rmdir a/b/c a/b a')
 *   -v, --verbose   output a diagnostic for every directory processed
 *
 * Design decisions: the last component "." and ".." fail like Linux's
 * rmdir(2) (EINVAL and ENOTEMPTY) before reaching the store, so the messages
 * match. -p resolves the operand's directories once, by inode, and removes
 * them bottom up (linear in depth). One call is one store transaction.
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/cmd.h"
#include "cmd/lib/fs.h"
#include "cmd/lib/gnu.h"

CMD_DEFINE("rmdir", cmd_rmdir_main);

static const char rmdir_usage[] =
    "Usage: rmdir [OPTION]... DIRECTORY...\n"
    "Remove the DIRECTORY(ies), if they are empty.\n"
    "\n"
    "      --ignore-fail-on-non-empty\n"
    "                    ignore each failure that is solely because a directory\n"
    "                    is non-empty\n"
    "  -p, --parents     remove DIRECTORY and its ancestors; e.g., 'rmdir -p a/b/c' is\n"
    "                    similar to 'rmdir a/b/c a/b a'\n"
    "  -v, --verbose     output a diagnostic for every directory processed\n"
    CMD_HELP_VERSION_LINES;

static int rmdir_one(cmd_ctx *ctx, const char *path) {
  const char *b = cmd_fs_basename(ctx, path);
  if (b && strcmp(b, ".") == 0) return -EINVAL;
  if (b && strcmp(b, "..") == 0) return -ENOTEMPTY;
  return store_path_rmdir(ctx->store, ctx->cwd, path);
}

static bool nonempty_err(int rc) { return rc == -ENOTEMPTY || rc == -EEXIST; }

/* One component of an operand of rmdir -p: the directory holding it. */
typedef struct rd_comp {
  store_ino dir;    /* inode of the directory that holds it */
  const char *name; /* its name (arena) */
} rd_comp;

/*
 * rmdir -p: the directories named by the operand's prefixes, resolved once
 * component by component (store_lookup by inode), so that removing a chain
 * N deep costs O(N) rather than resolving N prefixes from the root. Returns
 * the count (*out: arena array), or 0 when the path has anything the plain
 * path API must handle (".", "..", a symlink in the middle, a lookup that
 * fails: the path calls then give the right errors).
 */
static int rd_chain(cmd_ctx *ctx, const char *path, rd_comp **out) {
  char *p = cmd_strdup(ctx, path);
  size_t len = p ? strlen(p) : 0, n = 0;
  for (size_t i = 0; i < len; i++)
    if (p[i] != '/' && (i == 0 || p[i - 1] == '/')) n++;
  rd_comp *v = n ? cmd_alloc(ctx, n * sizeof *v) : NULL;
  store_stat st;
  if (!v || store_resolve(ctx->store, NULL, p[0] == '/' ? "/" : ctx->cwd, 0, &st) < 0)
    return 0;
  store_ino dir = st.ino;
  size_t k = 0;
  for (char *s = p; k < n; k++) {
    while (*s == '/') s++;
    char *e = s;
    while (*e && *e != '/') e++;
    bool last = k + 1 == n;
    *e = 0;
    if (!strcmp(s, ".") || !strcmp(s, "..")) return 0;
    v[k] = (rd_comp){dir, s};
    if (!last) {
      if (store_lookup(ctx->store, dir, s, &st) < 0 || !S_ISDIR(st.mode)) return 0;
      dir = st.ino;
    }
    s = e + 1;
  }
  *out = v;
  return (int)n;
}

/* Options of one rmdir call. */
typedef struct rmdir_opts {
  cmd_ctx *ctx;          /* the command */
  bool ignore;           /* --ignore-fail-on-non-empty */
  bool parents, verbose; /* -p, -v */
  int status;            /* exit status */
} rmdir_opts;

/* One DIRECTORY operand (cmd_fs_each_operand): removes it, and with -p its
 * parents from the last component up; false when out of memory. */
static bool rmdir_operand(void *ud, const char *path) {
  rmdir_opts *o = ud;
  cmd_ctx *ctx = o->ctx;
  rd_comp *chain = NULL;
  int nchain = o->parents ? rd_chain(ctx, path, &chain) : 0;
  if (o->verbose) cmd_outf(ctx, "rmdir: removing directory, %s\n", cmd_gnu_quoteaf(ctx, path));
  int rc = nchain ? store_rmdir(ctx->store, chain[nchain - 1].dir, chain[nchain - 1].name)
                 : rmdir_one(ctx, path);
  if (rc < 0) {
    if (!(o->ignore && nonempty_err(rc))) {
      cmd_errorf(ctx, "failed to remove %s: %s", cmd_gnu_quoteaf(ctx, path), cmd_strerror(rc));
      cmd_record_error(ctx, rc, path);
      o->status = 1;
    }
    return true;
  }
  if (!o->parents) return true;
  /* strip the last component, repeatedly */
  char *p = cmd_strdup(ctx, path);
  if (!p) {
    o->status = 1;
    return false;
  }
  for (;;) {
    size_t len = strlen(p);
    while (len > 0 && p[len - 1] == '/') len--;
    while (len > 0 && p[len - 1] != '/') len--;
    while (len > 0 && p[len - 1] == '/') len--;
    if (len == 0) break;
    p[len] = 0;
    if (o->verbose) cmd_outf(ctx, "rmdir: removing directory, %s\n", cmd_gnu_quoteaf(ctx, p));
    nchain--;
    rc = nchain > 0 ? store_rmdir(ctx->store, chain[nchain - 1].dir, chain[nchain - 1].name)
                    : rmdir_one(ctx, p);
    if (rc < 0) {
      if (!(o->ignore && nonempty_err(rc))) {
        /* GNU: a prefix that is not a directory may be a symlink */
        cmd_errorf(ctx, "failed to remove %s%s: %s", rc == -ENOTDIR ? "" : "directory ",
                   cmd_gnu_quoteaf(ctx, p), cmd_strerror(rc));
        cmd_record_error(ctx, rc, p);
        o->status = 1;
      }
      break;
    }
  }
  return true;
}

enum { O_IGNORE = CMD_OPT_LONG };
static const char rmdir_options[] = "(ignore-fail-on-non-empty)(help)(version)p(parents)v(verbose)";

int cmd_rmdir_main(cmd_ctx *ctx, int argc, char **argv) {
  cmd_getopt_state st = CMD_GETOPT_INIT;
  int rc = cmd_getopt_all(ctx, &st, argc, argv, rmdir_options, rmdir_usage);
  if (rc >= 0) return rc;
  bool ignore = cmd_opt_on(&st, O_IGNORE), parents = cmd_opt_on(&st, 'p'),
       verbose = cmd_opt_on(&st, 'v');
  if (st.ind >= argc) {
    cmd_errorf(ctx, "missing operand");
    return cmd_usage_hint(ctx, 1);
  }
  rmdir_opts o = {.ctx = ctx, .ignore = ignore, .parents = parents, .verbose = verbose};
  if (cmd_fs_each_operand(ctx, argc - st.ind, argv + st.ind, rmdir_operand, &o))
    o.status = 1;
  return o.status;
}
