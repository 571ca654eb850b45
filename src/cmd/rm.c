/*
 * rm - remove files or directories (GNU coreutils compatible).
 *
 *   rm [OPTION]... [FILE]...
 *   -f, --force           ignore nonexistent files and arguments, never prompt
 *   -i                    prompt before every removal
 *   -I                    prompt once before removing more than three files, or
 *                         when removing recursively
 *       --interactive[=WHEN]  never, once (-I), or always (-i)
 *       --one-file-system  (accepted; the sandbox is one file system)
 *       --no-preserve-root  do not treat '/' specially
 *       --preserve-root[=all]  do not remove '/' (default)
 *   -r, -R, --recursive   remove directories and their contents recursively
 *   -d, --dir             remove empty directories
 *   -v, --verbose         explain what is being done
 *
 * Design decisions:
 *  - Standard input is never a terminal, so like GNU there are no prompts
 *    for write-protected files; -i and -I do prompt and read the answers from
 *    standard input (a line starting with y or Y is yes).
 *  - rm -r without -v/-i first tries store_path_remove_tree, one atomic store
 *    call for the whole tree; if that fails (permissions...), the tree is
 *    walked (post-order, lib/fs walker) so every failure gets GNU's message
 *    and everything removable is removed. The whole call is one transaction.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/lib/buf.h"
#include "cmd/lib/fs.h"
#include "cmd/lib/gnu.h"

CMD_DEFINE("rm", cmd_rm_main);

static const char rm_usage[] =
    "Usage: rm [OPTION]... [FILE]...\n"
    "Remove (unlink) the FILE(s).\n"
    "\n"
    "  -f, --force           ignore nonexistent files and arguments, never prompt\n"
    "  -i                    prompt before every removal\n"
    "  -I                    prompt once before removing more than three files, or\n"
    "                          when removing recursively\n"
    "      --interactive[=WHEN]  prompt according to WHEN: never, once (-I), or\n"
    "                          always (-i); without WHEN, prompt always\n"
    "      --one-file-system  when removing a hierarchy recursively, skip any\n"
    "                          directory that is on a different file system\n"
    "      --no-preserve-root  do not treat '/' specially\n"
    "      --preserve-root[=all]  do not remove '/' (default)\n"
    "  -r, -R, --recursive   remove directories and their contents recursively\n"
    "  -d, --dir             remove empty directories\n"
    "  -v, --verbose         explain what is being done\n"
    CMD_HELP_VERSION_LINES;

enum { INTER_NEVER, INTER_ONCE, INTER_ALWAYS };

/* Options and state of one rm call. */
typedef struct rm_opts {
  cmd_ctx *ctx;       /* the command */
  bool force;         /* -f */
  int interactive;    /* INTER_* */
  bool recursive;     /* -r */
  bool dir;           /* -d */
  bool verbose;       /* -v */
  bool preserve_root; /* --preserve-root (default) */
  cmd_in *in;         /* stdin for answers (lazily opened) */
  int status;         /* exit status */
} rm_opts;

static const char *type_desc(cmd_ctx *ctx, const store_stat *st) {
  if (S_ISREG(st->mode)) return st->size ? "regular file" : "regular empty file";
  return cmd_fs_typename(st);
}

/* Prompts "rm: remove TYPE 'path'? "; true to go on. */
static bool rm_ask(rm_opts *o, const char *verb, const char *path, const store_stat *st) {
  cmd_ctx *ctx = o->ctx;
  bool wp = !S_ISLNK(st->mode) && store_access(ctx->store, st->ino, W_OK) != 0;
  cmd_err_raw(ctx, "rm: %s %s%s %s? ", verb, wp ? "write-protected " : "",
              type_desc(ctx, st), cmd_gnu_quoteaf(ctx, path));
  return cmd_fs_answer_yes(ctx, &o->in);
}

static void rm_fail(rm_opts *o, const char *path, int err) {
  cmd_errorf(o->ctx, "cannot remove %s: %s", cmd_gnu_quoteaf(o->ctx, path), cmd_strerror(err));
  cmd_record_error(o->ctx, err, path);
  o->status = 1;
}

static bool is_dot_or_dotdot(cmd_ctx *ctx, const char *path) {
  const char *b = cmd_fs_basename(ctx, path);
  return b && (strcmp(b, ".") == 0 || strcmp(b, "..") == 0);
}

static int first_entry_cb(void *ud, const store_dirent *e) {
  (void)e;
  *(bool *)ud = true;
  return 1;
}

static bool dir_is_empty(cmd_ctx *ctx, store_ino ino) {
  bool any = false;
  if (store_readdir(ctx->store, ino, 0, first_entry_cb, &any) < 0) return false;
  return !any;
}

/* Removes a walker entry: by name in its parent's inode (like GNU's
 * unlinkat on fts's directory fd, so depth costs nothing), by path for a
 * root operand. */
static int rm_entry(cmd_ctx *ctx, const cmd_walk_ent *e, bool dir) {
  if (e->depth == 0)
    return dir ? store_path_rmdir(ctx->store, ctx->cwd, e->path)
               : store_path_unlink(ctx->store, ctx->cwd, e->path);
  return dir ? store_rmdir(ctx->store, e->parent_ino, e->name)
             : store_unlink(ctx->store, e->parent_ino, e->name);
}

/* Removes a directory tree by walking it. */
static void rm_walk(rm_opts *o, const char *root) {
  cmd_ctx *ctx = o->ctx;
  cmd_walk *w = cmd_walk_open(ctx, root, CMD_WALK_POST);
  if (!w) {
    rm_fail(o, root, -ENOMEM);
    return;
  }
  /* per depth: a directory that must not be removed (a child failed or was
   * kept), and the error of a directory that could not be read */
  bool *failed = NULL;
  int *dnr_err = NULL;
  size_t fcap = 0; /* entries of both */
  cmd_walk_ent *e;
  while ((e = cmd_walk_next(w))) {
    if ((size_t)e->depth >= fcap) {
      size_t cap_failed = fcap, cap_dnr = fcap;
      if (cmd_grow(&failed, &cap_failed, (size_t)e->depth + 1, sizeof *failed) ||
          cmd_grow(&dnr_err, &cap_dnr, (size_t)e->depth + 1, sizeof *dnr_err)) {
        rm_fail(o, e->path, -ENOMEM);
        break;
      }
      memset(failed + fcap, 0, (cap_failed - fcap) * sizeof *failed);
      memset(dnr_err + fcap, 0, (cap_dnr - fcap) * sizeof *dnr_err);
      fcap = cap_failed;
    }
    switch (e->info) {
    case CMD_WALK_D:
      failed[e->depth] = false;
      dnr_err[e->depth] = 0;
      if (o->interactive == INTER_ALWAYS) {
        if (dir_is_empty(ctx, e->st.ino)) {
          cmd_walk_skip(w);
          if (rm_ask(o, "remove", e->path, &e->st)) {
            int rc = rm_entry(ctx, e, true);
            if (rc < 0) rm_fail(o, e->path, rc);
            else if (o->verbose)
              cmd_outf(ctx, "removed directory %s\n", cmd_gnu_quoteaf(ctx, e->path));
            if (rc < 0 && e->depth > 0) failed[e->depth - 1] = true;
          } else if (e->depth > 0) {
            failed[e->depth - 1] = true;
          }
          break;
        }
        if (!rm_ask(o, "descend into", e->path, &e->st)) {
          cmd_walk_skip(w);
          if (e->depth > 0) failed[e->depth - 1] = true;
        }
      }
      break;
    case CMD_WALK_DNR:
      if (e->depth >= CMD_WALK_MAX_DEPTH) {
        /* too deep to enter (no D/DP pair comes): it stays, and so do its
         * ancestors */
        rm_fail(o, e->path, e->err);
        failed[e->depth - 1] = true;
        break;
      }
      /* GNU tries to remove it anyway (an empty directory without r goes),
       * and reports the read error if that fails */
      dnr_err[e->depth] = e->err;
      break;
    case CMD_WALK_DP: {
      bool keep = failed[e->depth];
      if (!keep) {
        if (o->interactive == INTER_ALWAYS && !rm_ask(o, "remove", e->path, &e->st)) {
          keep = true;
        } else {
          int rc = rm_entry(ctx, e, true);
          if (rc < 0 && dnr_err[e->depth] &&
              (rc == -ENOTEMPTY || rc == -EISDIR || rc == -ENOTDIR || rc == -EEXIST))
            rc = dnr_err[e->depth];
          if (rc < 0) {
            rm_fail(o, e->path, rc);
            keep = true;
          } else if (o->verbose) {
            cmd_outf(ctx, "removed directory %s\n", cmd_gnu_quoteaf(ctx, e->path));
          }
        }
      }
      if (keep && e->depth > 0) failed[e->depth - 1] = true;
      break;
    }
    case CMD_WALK_NS:
      if (e->err != -ENOENT || !o->force) rm_fail(o, e->path, e->err);
      if (e->depth > 0) failed[e->depth - 1] = true;
      break;
    default: {
      if (o->interactive == INTER_ALWAYS && !rm_ask(o, "remove", e->path, &e->st)) {
        if (e->depth > 0) failed[e->depth - 1] = true;
        break;
      }
      int rc = rm_entry(ctx, e, false);
      if (rc < 0) {
        rm_fail(o, e->path, rc);
        if (e->depth > 0) failed[e->depth - 1] = true;
      } else if (o->verbose) {
        cmd_outf(ctx, "removed %s\n", cmd_gnu_quoteaf(ctx, e->path));
      }
      break;
    }
    }
  }
  if (cmd_walk_stopped(w)) o->status = 1;
  cmd_walk_close(w);
  free(failed);
  free(dnr_err);
}

static void rm_one(rm_opts *o, const char *path) {
  cmd_ctx *ctx = o->ctx;
  store_stat st;
  int rc = cmd_fs_lstat(ctx, path, &st);
  if (rc < 0) {
    if (!(o->force && rc == -ENOENT)) rm_fail(o, path, rc);
    return;
  }
  if (S_ISDIR(st.mode)) {
    if (o->recursive && is_dot_or_dotdot(ctx, path)) {
      cmd_errorf(ctx, "refusing to remove '.' or '..' directory: skipping %s",
                 cmd_gnu_quoteaf(ctx, path));
      o->status = 1;
      return;
    }
    if (o->recursive && o->preserve_root && st.ino == STORE_ROOT_INO) {
      cmd_fs_refuse_root(ctx, path);
      o->status = 1;
      return;
    }
    if (!o->recursive) {
      if (o->dir) {
        if (o->interactive == INTER_ALWAYS && !rm_ask(o, "remove", path, &st)) return;
        rc = store_path_rmdir(ctx->store, ctx->cwd, path);
        if (rc < 0) rm_fail(o, path, rc);
        else if (o->verbose)
          cmd_outf(ctx, "removed directory %s\n", cmd_gnu_quoteaf(ctx, path));
      } else {
        rm_fail(o, path, -EISDIR);
      }
      return;
    }
    if (!o->verbose && o->interactive != INTER_ALWAYS) {
      rc = store_path_remove_tree(ctx->store, ctx->cwd, path);
      if (rc == 0) return;
    }
    rm_walk(o, path);
    return;
  }
  if (o->interactive == INTER_ALWAYS && !rm_ask(o, "remove", path, &st)) return;
  rc = store_path_unlink(ctx->store, ctx->cwd, path);
  if (rc < 0) {
    if (!(o->force && rc == -ENOENT)) rm_fail(o, path, rc);
    return;
  }
  if (o->verbose) cmd_outf(ctx, "removed %s\n", cmd_gnu_quoteaf(ctx, path));
}

/* rm_one as the callback of cmd_fs_each_operand. */
static bool rm_operand(void *ud, const char *path) {
  rm_one(ud, path);
  return true;
}

enum { O_INTER = CMD_OPT_LONG, O_ONEFS, O_NOPRES, O_PRES, O_PRESUME };
static const char rm_options[] =
    "(interactive)::(one-file-system)(no-preserve-root)(preserve-root)::"
    "(-presume-input-tty)(help)(version)f(force)r(recursive)d(dir)v(verbose)iIR";

int cmd_rm_main(cmd_ctx *ctx, int argc, char **argv) {
  rm_opts o = {.ctx = ctx, .preserve_root = true};
  cmd_getopt_state st = CMD_GETOPT_INIT;
  /* A loop: the last of -f/-i/-I/--interactive and of the --preserve-root
   * options count; -d -r -v are read after it. */
  for (int c; (c = cmd_getopt(ctx, &st, argc, argv, rm_options, NULL)) != -1;) {
    switch (c) {
    case 'f': o.force = true; o.interactive = INTER_NEVER; break;
    case 'i': o.interactive = INTER_ALWAYS; o.force = false; break;
    case 'I': o.interactive = INTER_ONCE; o.force = false; break;
    case O_INTER:
      if (!st.arg || !strcmp(st.arg, "always") || !strcmp(st.arg, "yes")) {
        o.interactive = INTER_ALWAYS;
        o.force = false;
      } else if (!strcmp(st.arg, "once")) {
        o.interactive = INTER_ONCE;
        o.force = false;
      } else if (!strcmp(st.arg, "never") || !strcmp(st.arg, "no") || !strcmp(st.arg, "none")) {
        o.interactive = INTER_NEVER;
      } else {
        cmd_errorf(ctx, "invalid argument %s for '--interactive'", cmd_gnu_quote(ctx, st.arg));
        cmd_err_raw(ctx, "Valid arguments are:\n  - 'never', 'no', 'none'\n"
                         "  - 'once'\n  - 'always', 'yes'\n");
        return cmd_usage_hint(ctx, 1);
      }
      break;
    case O_NOPRES: o.preserve_root = false; break;
    case O_PRES:
      if (st.arg && strcmp(st.arg, "all") != 0) {
        cmd_errorf(ctx, "unrecognized --preserve-root argument: %s", cmd_gnu_quote(ctx, st.arg));
        return 1;
      }
      o.preserve_root = true;
      break;
    CMD_CASES_HELP_VERSION(ctx, rm_usage);
    case '?': return 1;
    }
  }
  o.recursive = cmd_opt_on(&st, 'r') || cmd_opt_on(&st, 'R');
  o.dir = cmd_opt_on(&st, 'd');
  o.verbose = cmd_opt_on(&st, 'v');
  int n = argc - st.ind;
  if (n <= 0) {
    if (o.force) return 0;
    cmd_errorf(ctx, "missing operand");
    return cmd_usage_hint(ctx, 1);
  }
  if (o.interactive == INTER_ONCE && (n > 3 || o.recursive)) {
    if (o.recursive)
      cmd_err_raw(ctx, "rm: remove %d argument%s recursively? ", n, n == 1 ? "" : "s");
    else
      cmd_err_raw(ctx, "rm: remove %d arguments? ", n);
    bool yes = cmd_fs_answer_yes(ctx, &o.in);
    if (!yes) {
      if (o.in) cmd_in_close(o.in);
      return 0;
    }
  }
  if (cmd_fs_each_operand(ctx, n, argv + st.ind, rm_operand, &o)) o.status = 1;
  if (o.in) cmd_in_close(o.in);
  return o.status;
}
