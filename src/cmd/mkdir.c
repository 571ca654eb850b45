/*
 * mkdir - make directories (GNU coreutils compatible).
 *
 *   mkdir [OPTION]... DIRECTORY...
 *   -m, --mode=MODE   set file mode (as in chmod), not a=rwx - umask
 *   -p, --parents     no error if existing, make parent directories as needed
 *   -v, --verbose     print a message for each created directory
 *   -Z, --context     accepted and ignored (no SELinux in the sandbox)
 *
 * Design decisions:
 *  - -p walks the path component by component (like GNU's mkancesdir) so the
 *    error names the component that failed and -v reports every directory
 *    created, parents included; parents get u+wx on top of the umask mode.
 *    The walk is relative to the inode of the last directory (store_lookup,
 *    store_mkdir), so depth costs are linear and paths longer than PATH_MAX
 *    work as with GNU.
 *  - Directories are made with the inode API, which takes the mode as given:
 *    the mode is exactly GNU's (a=rwx minus the shell's umask, or -m's),
 *    without the store's own umask; -m needs no chmod afterwards.
 *  - Linux's precedence: an existing name is "File exists" even in a
 *    directory without w. The whole call is one store transaction.
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/cmd.h"
#include "cmd/lib/fs.h"
#include "cmd/lib/gnu.h"

CMD_DEFINE("mkdir", cmd_mkdir_main);

static const char mkdir_usage[] =
    "Usage: mkdir [OPTION]... DIRECTORY...\n"
    "Create the DIRECTORY(ies), if they do not already exist.\n"
    "\n"
    "  -m, --mode=MODE   set file mode (as in chmod), not a=rwx - umask\n"
    "  -p, --parents     no error if existing, make parent directories as needed\n"
    "  -v, --verbose     print a message for each created directory\n"
    CMD_HELP_VERSION_LINES;

/* Creates `name` in directory `dir` with exactly `mode` (the inode API takes
 * the mode as given: the umask was applied by the caller), with Linux's
 * precedence: an existing name is EEXIST even where w is missing. */
static int mk_at(cmd_ctx *ctx, store_ino dir, const char *name, uint32_t mode,
                 store_stat *st) {
  store_stat old;
  int rc = store_lookup(ctx->store, dir, name, &old);
  if (rc == 0) return -EEXIST;
  if (rc != -ENOENT) return rc;
  return store_mkdir(ctx->store, dir, name, mode, st);
}

/* Creates one directory (no -p): its parent is resolved once, then the
 * directory is made there. Returns 0 or a negative errno. */
static int mk_one(cmd_ctx *ctx, const char *path, uint32_t mode) {
  store_ino dir;
  char name[STORE_NAME_MAX + 1];
  int rc = store_resolve_parent(ctx->store, ctx->cwd, path, &dir, name);
  if (rc < 0) return rc;
  if (!name[0] || !strcmp(name, ".") || !strcmp(name, "..")) return -EEXIST;
  store_stat st;
  return mk_at(ctx, dir, name, mode, &st);
}

static void mk_fail(cmd_ctx *ctx, const char *what, int rc) {
  cmd_errorf(ctx, "cannot create directory %s: %s", cmd_gnu_quote(ctx, what),
             cmd_strerror(rc));
  cmd_record_error(ctx, rc, what);
}

/*
 * mkdir -p of one operand. The components are walked relative to the inode
 * of the directory found or made last (store_lookup / store_mkdir take a
 * directory inode), so a path N directories deep costs O(N) store calls, not
 * the O(N^2) of resolving every prefix from the root, and paths longer than
 * PATH_MAX work as they do with GNU (which chdir()s down). "." stays, ".."
 * asks the store for the parent; an existing symlink is followed by
 * resolving its prefix as a path (rare, so the quadratic cost does not
 * matter). Error messages name the prefix that failed, as GNU's do.
 * Returns 0 or a negative errno after printing the message.
 */
static int mk_parents(cmd_ctx *ctx, const char *path, uint32_t mode, uint32_t parent_mode,
                      bool verbose) {
  size_t len = strlen(path);
  if (len == 0) {
    mk_fail(ctx, path, -ENOENT);
    return -ENOENT;
  }
  store_stat st;
  int rc = store_resolve(ctx->store, NULL, path[0] == '/' ? "/" : ctx->cwd, 0, &st);
  if (rc < 0) {
    mk_fail(ctx, path, rc);
    return rc;
  }
  store_ino dir = st.ino;
  char *buf = cmd_strdup(ctx, path); /* the prefix walked so far, for messages */
  if (!buf) return -ENOMEM;
  size_t pos = 0, ncomp = 0;
  while (pos < len && buf[pos] == '/') pos++;
  while (pos < len) {
    if ((++ncomp & 255) == 0 && cmd_poll(ctx)) return -EINTR;
    size_t end = pos;
    while (end < len && buf[end] != '/') end++;
    size_t next = end;
    while (next < len && buf[next] == '/') next++;
    bool last = next >= len;
    char save = buf[end];
    buf[end] = 0;
    const char *name = buf + pos;
    if (end - pos > STORE_NAME_MAX) {
      rc = -ENAMETOOLONG;
    } else if (!strcmp(name, ".") || !strcmp(name, "..")) {
      rc = store_lookup(ctx->store, dir, name, &st);
      if (rc == 0) dir = st.ino;
    } else {
      rc = mk_at(ctx, dir, name, last ? mode : parent_mode, &st);
      if (rc == 0) {
        if (verbose)
          cmd_outf(ctx, "mkdir: created directory %s\n", cmd_gnu_quoteaf(ctx, buf));
        dir = st.ino;
      } else if (rc == -EEXIST) {
        rc = store_lookup(ctx->store, dir, name, &st);
        if (rc == 0 && S_ISLNK(st.mode)) {
          /* follow it the way path resolution does; a dangling link stays
           * "File exists" like GNU's mkdir() result */
          rc = store_resolve(ctx->store, ctx->cwd, buf, 0, &st);
          if (rc == -ENOENT) rc = -EEXIST;
        }
        if (rc == 0 && !S_ISDIR(st.mode)) rc = last ? -EEXIST : -ENOTDIR;
        if (rc == 0) dir = st.ino;
      }
    }
    if (rc < 0) {
      mk_fail(ctx, buf, rc);
      return rc;
    }
    buf[end] = save;
    pos = next;
  }
  return 0;
}

/* Options of one mkdir call. */
typedef struct mkdir_opts {
  cmd_ctx *ctx;          /* the command */
  uint32_t mode;         /* of each DIRECTORY */
  uint32_t parent_mode;  /* of the parents -p makes */
  bool parents, verbose; /* -p, -v */
  int status;            /* exit status */
} mkdir_opts;

/* One DIRECTORY operand (cmd_fs_each_operand). */
static bool mkdir_operand(void *ud, const char *path) {
  mkdir_opts *o = ud;
  cmd_ctx *ctx = o->ctx;
  if (o->parents) {
    if (mk_parents(ctx, path, o->mode, o->parent_mode, o->verbose) < 0) o->status = 1;
    return true;
  }
  int rc = mk_one(ctx, path, o->mode);
  if (rc < 0) {
    mk_fail(ctx, path, rc);
    o->status = 1;
  } else if (o->verbose) {
    cmd_outf(ctx, "mkdir: created directory %s\n", cmd_gnu_quoteaf(ctx, path));
  }
  return true;
}

int cmd_mkdir_main(cmd_ctx *ctx, int argc, char **argv) {
  /* --context[=CTX] takes an argument -Z does not: a long-only option, ignored
   * as -Z is. */
  cmd_getopt_state st = CMD_GETOPT_INIT;
  int rc = cmd_getopt_all(ctx, &st, argc, argv,
                          "(context)::(help)(version)m:(mode)p(parents)v(verbose)Z", mkdir_usage);
  if (rc >= 0) return rc;
  const char *mode_str = cmd_opt_arg(&st, 'm');
  bool parents = cmd_opt_on(&st, 'p'), verbose = cmd_opt_on(&st, 'v');
  if (st.ind >= argc) {
    cmd_errorf(ctx, "missing operand");
    return cmd_usage_hint(ctx, 1);
  }
  uint32_t umask = ctx->umask & 0777;
  uint32_t mode = 0777 & ~umask;
  if (mode_str) {
    cmd_mode_change *ch = cmd_mode_compile(ctx, mode_str);
    if (!ch) {
      cmd_errorf(ctx, "invalid mode %s", cmd_gnu_quote(ctx, mode_str));
      return 1;
    }
    mode = cmd_mode_adjust(0777, true, umask, ch, NULL);
  }
  /* parents get the umask mode plus u+wx, whatever -m says */
  mkdir_opts o = {.ctx = ctx,
                  .mode = mode,
                  .parent_mode = (0777 & ~umask) | S_IWUSR | S_IXUSR,
                  .parents = parents,
                  .verbose = verbose};
  if (cmd_fs_each_operand(ctx, argc - st.ind, argv + st.ind, mkdir_operand, &o))
    o.status = 1;
  return o.status;
}
