/*
 * ln - make links between files (GNU coreutils compatible).
 *
 *   ln [OPTION]... [-T] TARGET LINK_NAME
 *   ln [OPTION]... TARGET
 *   ln [OPTION]... TARGET... DIRECTORY
 *   ln [OPTION]... -t DIRECTORY TARGET...
 *   --backup[=CONTROL], -b, -d/-F (refused for directories), -f, -i, -L, -n,
 *   -P, -r, -s, -S SUFFIX, -t DIR, -T, -v
 *
 * Design decisions: hard links of directories are refused like GNU ("hard
 * link not allowed for directory"); -r computes the relative target from the
 * canonical paths of the link's directory and of the target (store_realpath,
 * with a missing last component allowed), like GNU's relpath.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/cmd.h"
#include "cmd/lib/fs.h"
#include "cmd/lib/gnu.h"

CMD_DEFINE("ln", cmd_ln_main);

static const char ln_usage[] =
    "Usage: ln [OPTION]... [-T] TARGET LINK_NAME\n"
    "  or:  ln [OPTION]... TARGET\n"
    "  or:  ln [OPTION]... TARGET... DIRECTORY\n"
    "  or:  ln [OPTION]... -t DIRECTORY TARGET...\n"
    "Create hard links by default, symbolic links with --symbolic.\n"
    "\n"
    "      --backup[=CONTROL]      make a backup of each existing destination file\n"
    "  -b                          like --backup but does not accept an argument\n"
    "  -f, --force                 remove existing destination files\n"
    "  -i, --interactive           prompt whether to remove destinations\n"
    "  -L, --logical               dereference TARGETs that are symbolic links\n"
    "  -n, --no-dereference        treat LINK_NAME as a normal file if\n"
    "                                it is a symbolic link to a directory\n"
    "  -P, --physical              make hard links directly to symbolic links\n"
    "  -r, --relative              with -s, create links relative to link location\n"
    "  -s, --symbolic              make symbolic links instead of hard links\n"
    "  -S, --suffix=SUFFIX         override the usual backup suffix\n"
    "  -t, --target-directory=DIRECTORY  specify the DIRECTORY in which to create\n"
    "                                the links\n"
    "  -T, --no-target-directory   treat LINK_NAME as a normal file always\n"
    "  -v, --verbose               print name of each linked file\n"
    CMD_HELP_VERSION_LINES;

/* Options of one ln call. */
typedef struct ln_opts {
  cmd_ctx *ctx;                 /* the command */
  bool symbolic, force, interactive, logical, relative, verbose; /* flags */
  bool backup;                  /* -b */
  const char *suffix;           /* backup suffix */
  cmd_in *in;                   /* answers for -i */
  int status;                   /* exit status */
} ln_opts;

/* Canonical absolute path of `path` whose last component may not exist. */
static char *canon_lenient(cmd_ctx *ctx, const char *path) {
  char *r = NULL;
  if (store_realpath(ctx->store, ctx->cwd, path, &r) == 0) {
    char *a = cmd_strdup(ctx, r);
    free(r);
    return a;
  }
  char *dir = cmd_fs_dirname(ctx, path), *base = cmd_fs_basename(ctx, path);
  if (store_realpath(ctx->store, ctx->cwd, dir, &r) != 0) return NULL;
  char *a = cmd_join_path(ctx, r, base);
  free(r);
  return a;
}

static void ln_one(ln_opts *o, const char *target, const char *link) {
  cmd_ctx *ctx = o->ctx;
  store_stat tst, lst;
  int rc;
  if (!o->symbolic) {
    rc = o->logical ? cmd_fs_stat(ctx, target, &tst) : cmd_fs_lstat(ctx, target, &tst);
    if (rc < 0) {
      cmd_errorf(ctx, "failed to access %s: %s", cmd_gnu_quoteaf(ctx, target), cmd_strerror(rc));
      cmd_record_error(ctx, rc, target);
      o->status = 1;
      return;
    }
    if (S_ISDIR(tst.mode)) {
      cmd_errorf(ctx, "%s: hard link not allowed for directory", target);
      o->status = 1;
      return;
    }
  }
  bool exists = cmd_fs_lstat(ctx, link, &lst) == 0;
  if (exists) {
    if (!o->symbolic && lst.ino == tst.ino && !o->backup) {
      if (o->force) {
        cmd_errorf(ctx, "%s and %s are the same file", cmd_gnu_quoteaf(ctx, target),
                   cmd_gnu_quoteaf(ctx, link));
        o->status = 1;
        return;
      }
    }
    if (o->interactive) {
      cmd_err_raw(ctx, "ln: replace %s? ", cmd_gnu_quoteaf(ctx, link));
      if (!cmd_fs_answer_yes(ctx, &o->in)) return;
    }
    if (o->backup) {
      size_t l = strlen(link) + strlen(o->suffix) + 1;
      char *b = cmd_alloc(ctx, l);
      snprintf(b, l, "%s%s", link, o->suffix);
      store_path_rename(ctx->store, ctx->cwd, link, b);
    } else if (o->force || o->interactive) {
      if (S_ISDIR(lst.mode)) {
        cmd_errorf(ctx, "%s: cannot overwrite directory", cmd_gnu_quoteaf(ctx, link));
        o->status = 1;
        return;
      }
      store_path_unlink(ctx->store, ctx->cwd, link);
    }
  }
  const char *stored = target;
  if (o->symbolic && o->relative) {
    char *t = canon_lenient(ctx, target);
    char *ld = canon_lenient(ctx, cmd_fs_dirname(ctx, link));
    if (t && ld) stored = cmd_fs_relpath(ctx, t, ld);
  }
  if (o->symbolic) rc = store_path_symlink(ctx->store, ctx->cwd, stored, link);
  else if (o->logical) {
    char *real = NULL;
    rc = store_realpath(ctx->store, ctx->cwd, target, &real);
    if (rc == 0) rc = store_path_link(ctx->store, ctx->cwd, real, link);
    free(real);
  } else rc = store_path_link(ctx->store, ctx->cwd, target, link);
  if (rc < 0) {
    if (o->symbolic)
      cmd_errorf(ctx, "failed to create symbolic link %s: %s", cmd_gnu_quoteaf(ctx, link),
                 cmd_strerror(rc));
    else if (rc == -EEXIST || rc == -ENOENT || rc == -ENOTDIR || rc == -EACCES)
      cmd_errorf(ctx, "failed to create hard link %s: %s", cmd_gnu_quoteaf(ctx, link),
                 cmd_strerror(rc));
    else
      cmd_errorf(ctx, "failed to create hard link %s => %s: %s", cmd_gnu_quoteaf(ctx, link),
                 cmd_gnu_quoteaf(ctx, target), cmd_strerror(rc));
    cmd_record_error(ctx, rc, link);
    o->status = 1;
    return;
  }
  if (o->verbose)
    cmd_outf(ctx, "%s %s %s\n", cmd_gnu_quoteaf(ctx, link), o->symbolic ? "->" : "=>",
             cmd_gnu_quoteaf(ctx, stored));
}

int cmd_ln_main(cmd_ctx *ctx, int argc, char **argv) {
  enum { OPT_BACKUP = CMD_OPT_LONG };
  static const char spec[] =
      "(backup)::(help)(version)d(directory)f(force)i(interactive)L(logical)"
      "n(no-dereference)P(physical)r(relative)s(symbolic)S:(suffix)t:(target-directory)"
      "T(no-target-directory)v(verbose)bF";
  ln_opts o = {.ctx = ctx};
  cmd_getopt_state st = CMD_GETOPT_INIT;
  /* A loop for the last of -f and -i and of -L and -P; the other options are
   * read from st after it. */
  for (int c; (c = cmd_getopt(ctx, &st, argc, argv, spec, NULL)) != -1;) {
    switch (c) {
    case 'f': o.force = true; o.interactive = false; break;
    case 'i': o.interactive = true; o.force = false; break;
    case 'L': o.logical = true; break;
    case 'P': o.logical = false; break;
    CMD_CASES_HELP_VERSION(ctx, ln_usage);
    case '?': return 1;
    }
  }
  o.backup = cmd_gnu_backup_opts(&st, OPT_BACKUP, &o.suffix);
  o.relative = cmd_opt_on(&st, 'r');
  o.symbolic = cmd_opt_on(&st, 's');
  o.verbose = cmd_opt_on(&st, 'v');
  const char *target_dir = cmd_opt_arg(&st, 't');
  bool no_target = cmd_opt_on(&st, 'T'), no_deref = cmd_opt_on(&st, 'n');
  if (o.relative && !o.symbolic) {
    cmd_errorf(ctx, "cannot do --relative without --symbolic");
    return 1;
  }
  int n = argc - st.ind;
  char **ops = argv + st.ind;
  if (target_dir && no_target) {
    cmd_errorf(ctx, "cannot combine --target-directory and --no-target-directory");
    return cmd_usage_hint(ctx, 1);
  }
  if (n < 1) {
    cmd_errorf(ctx, "missing file operand");
    return cmd_usage_hint(ctx, 1);
  }
  if (no_target && n > 2) {
    cmd_errorf(ctx, "extra operand %s", cmd_gnu_quoteaf(ctx, ops[2]));
    return cmd_usage_hint(ctx, 1);
  }
  if (no_target && n < 2) {
    cmd_errorf(ctx, "missing destination file operand after %s", cmd_gnu_quoteaf(ctx, ops[0]));
    return cmd_usage_hint(ctx, 1);
  }
  int ntargets = n;
  if (!target_dir && !no_target) {
    if (n == 1) {
      target_dir = ".";
    } else {
      const char *last = ops[n - 1];
      store_stat ts;
      int rc = no_deref ? cmd_fs_lstat(ctx, last, &ts) : cmd_fs_stat(ctx, last, &ts);
      if (n > 2 && cmd_fs_need_dir(ctx, "target", last, rc, &ts)) return 1;
      if (rc == 0 && S_ISDIR(ts.mode)) target_dir = last;
      ntargets = n - 1;
    }
  } else if (no_target) {
    ntargets = 1;
  } else {
    store_stat ts;
    int rc = cmd_fs_stat(ctx, target_dir, &ts);
    if (rc < 0 || !S_ISDIR(ts.mode)) {
      if (rc < 0)
        cmd_errorf(ctx, "target directory %s: %s", cmd_gnu_quoteaf(ctx, target_dir), cmd_strerror(rc));
      else
        cmd_errorf(ctx, "target %s is not a directory", cmd_gnu_quoteaf(ctx, target_dir));
      return 1;
    }
  }
  for (int i = 0; i < ntargets; i++) {
    const char *link;
    if (target_dir) {
      const char *b = cmd_fs_basename(ctx, ops[i]);
      link = strcmp(target_dir, ".") == 0 && n == 1 ? cmd_join_path(ctx, ".", b)
                                                     : cmd_join_path(ctx, target_dir, b);
    } else {
      link = ops[1];
    }
    ln_one(&o, ops[i], link);
  }
  if (o.in) cmd_in_close(o.in);
  return o.status;
}
