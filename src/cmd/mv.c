/*
 * mv - move (rename) files (GNU coreutils compatible).
 *
 *   mv [OPTION]... [-T] SOURCE DEST
 *   mv [OPTION]... SOURCE... DIRECTORY
 *   mv [OPTION]... -t DIRECTORY SOURCE...
 *   --backup[=CONTROL], -b, -f, -i, -n, --strip-trailing-slashes, -S SUFFIX,
 *   -t DIR, -T, -u, -v, -Z
 *
 * Design decisions: the sandbox is one file system, so every move is one
 * store_path_rename (atomic, also for directories); the checks before it
 * give GNU's messages for the cases rename(2) would report with a bare errno
 * (directory onto file, file onto directory, moving into a subdirectory of
 * itself, the same file). -i reads its answers from stdin.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/cmd.h"
#include "cmd/lib/fs.h"
#include "cmd/lib/gnu.h"

CMD_DEFINE("mv", cmd_mv_main);

static const char mv_usage[] =
    "Usage: mv [OPTION]... [-T] SOURCE DEST\n"
    "  or:  mv [OPTION]... SOURCE... DIRECTORY\n"
    "  or:  mv [OPTION]... -t DIRECTORY SOURCE...\n"
    "Rename SOURCE to DEST, or move SOURCE(s) to DIRECTORY.\n"
    "\n"
    "      --backup[=CONTROL]       make a backup of each existing destination file\n"
    "  -b                           like --backup but does not accept an argument\n"
    "  -f, --force                  do not prompt before overwriting\n"
    "  -i, --interactive            prompt before overwrite\n"
    "  -n, --no-clobber             do not overwrite an existing file\n"
    "      --strip-trailing-slashes  remove any trailing slashes from each SOURCE\n"
    "  -S, --suffix=SUFFIX          override the usual backup suffix\n"
    "  -t, --target-directory=DIRECTORY  move all SOURCE arguments into DIRECTORY\n"
    "  -T, --no-target-directory    treat DEST as a normal file\n"
    "  -u, --update                 move only when the SOURCE file is newer\n"
    "                                 than the destination file or when the\n"
    "                                 destination file is missing\n"
    "  -v, --verbose                explain what is being done\n"
    CMD_HELP_VERSION_LINES;


/* Options of one mv call. */
typedef struct mv_opts {
  cmd_ctx *ctx;      /* the command */
  bool force, interactive, noclobber, update, verbose; /* flags */
  int backup;        /* CMD_BACKUP_* */
  const char *suffix;/* backup suffix */
  cmd_in *in;        /* answers for -i */
  int status;        /* exit status */
  const char *target_dir; /* the directory the sources go into, or NULL */
  const char *dest;  /* without target_dir: the one source's new name */
} mv_opts;

static void mv_one(mv_opts *o, const char *src, const char *dst) {
  cmd_ctx *ctx = o->ctx;
  store_stat sst, dstat;
  int rc = cmd_fs_lstat(ctx, src, &sst);
  if (rc < 0) {
    cmd_errorf(ctx, "cannot stat %s: %s", cmd_gnu_quoteaf(ctx, src), cmd_strerror(rc));
    cmd_record_error(ctx, rc, src);
    o->status = 1;
    return;
  }
  bool exists = cmd_fs_lstat(ctx, dst, &dstat) == 0;
  if (exists) {
    if (dstat.ino == sst.ino) {
      cmd_errorf(ctx, "%s and %s are the same file", cmd_gnu_quoteaf(ctx, src), cmd_gnu_quoteaf(ctx, dst));
      o->status = 1;
      return;
    }
    if (S_ISDIR(dstat.mode) && !S_ISDIR(sst.mode)) {
      cmd_errorf(ctx, "cannot overwrite directory %s with non-directory", cmd_gnu_quoteaf(ctx, dst));
      o->status = 1;
      return;
    }
    if (!S_ISDIR(dstat.mode) && S_ISDIR(sst.mode)) {
      cmd_errorf(ctx, "cannot overwrite non-directory %s with directory %s",
                 cmd_gnu_quoteaf(ctx, dst), cmd_gnu_quoteaf(ctx, src));
      o->status = 1;
      return;
    }
    if (o->noclobber) return;
    if (o->update && (dstat.mtime > sst.mtime ||
                      (dstat.mtime == sst.mtime && dstat.mtime_nsec >= sst.mtime_nsec)))
      return;
    if (o->interactive) {
      cmd_err_raw(ctx, "mv: overwrite %s? ", cmd_gnu_quoteaf(ctx, dst));
      if (!cmd_fs_answer_yes(ctx, &o->in)) return;
    }
  }
  /* a directory into its own subtree */
  if (S_ISDIR(sst.mode)) {
    char *rs = NULL, *rd = NULL;
    const char *dparent = cmd_fs_dirname(ctx, dst);
    if (store_realpath(ctx->store, ctx->cwd, src, &rs) == 0 &&
        store_realpath(ctx->store, ctx->cwd, dparent, &rd) == 0) {
      size_t l = strlen(rs);
      bool inside = strcmp(rs, "/") == 0 ||
                    (strncmp(rd, rs, l) == 0 && (rd[l] == '/' || rd[l] == 0));
      free(rs);
      free(rd);
      if (inside) {
        cmd_errorf(ctx, "cannot move %s to a subdirectory of itself, %s", cmd_gnu_quoteaf(ctx, src),
                   cmd_gnu_quoteaf(ctx, dst));
        o->status = 1;
        return;
      }
    } else {
      free(rs);
      free(rd);
    }
  }
  const char *bk = NULL;
  if (exists && o->backup) {
    char *b = cmd_fs_backup_name(ctx, dst, o->backup, o->suffix);
    if (!b) return;
    rc = store_path_rename(ctx->store, ctx->cwd, dst, b);
    if (rc < 0) {
      cmd_errorf(ctx, "cannot backup %s: %s", cmd_gnu_quoteaf(ctx, dst), cmd_strerror(rc));
      o->status = 1;
      return;
    }
    bk = b;
  }
  rc = store_path_rename(ctx->store, ctx->cwd, src, dst);
  if (rc < 0) {
    if (rc == -EINVAL)
      cmd_errorf(ctx, "cannot move %s to a subdirectory of itself, %s", cmd_gnu_quoteaf(ctx, src),
                 cmd_gnu_quoteaf(ctx, dst));
    else
      cmd_errorf(ctx, "cannot move %s to %s: %s", cmd_gnu_quoteaf(ctx, src), cmd_gnu_quoteaf(ctx, dst),
                 cmd_strerror(rc));
    cmd_record_error(ctx, rc, src);
    o->status = 1;
    return;
  }
  if (o->verbose) {
    cmd_outf(ctx, "renamed %s -> %s", cmd_gnu_quoteaf(ctx, src), cmd_gnu_quoteaf(ctx, dst));
    if (bk) cmd_outf(ctx, " (backup: %s)", cmd_gnu_quoteaf(ctx, bk));
    cmd_outc(ctx, '\n');
  }
}

/* One source operand (cmd_fs_each_operand): into o->target_dir or to
 * o->dest; false when out of memory. */
static bool mv_operand(void *ud, const char *src) {
  mv_opts *o = ud;
  const char *dst = o->target_dir
                        ? cmd_join_path(o->ctx, o->target_dir, cmd_fs_basename(o->ctx, src))
                        : o->dest;
  if (!dst) return false;
  mv_one(o, src, dst);
  return true;
}

enum { O_BACKUP = CMD_OPT_LONG, O_STRIP, O_DEBUG, O_NOCOPY };
static const char mv_options[] =
    "(backup)::(strip-trailing-slashes)(debug)(no-copy)(help)(version)bf(force)"
    "i(interactive)n(no-clobber)S:(suffix)t:(target-directory)T(no-target-directory)"
    "v(verbose)Z(context)u";

int cmd_mv_main(cmd_ctx *ctx, int argc, char **argv) {
  /* --update[=WHEN] takes an argument -u does not. */
  static const cmd_longopt update[] = {{"update", 2, 'u'}, {0, 0, 0}};
  mv_opts o = {.ctx = ctx, .suffix = "~"};
  const char *backup_arg = NULL;
  bool backup_set = false;
  cmd_getopt_state st = CMD_GETOPT_INIT;
  /* A loop: the last of -f/-i/-n and of -b/--backup/-S/-u count. */
  for (int c; (c = cmd_getopt(ctx, &st, argc, argv, mv_options, update)) != -1;) {
    switch (c) {
    case 'b': backup_set = true; break;
    case O_BACKUP: backup_set = true; backup_arg = st.arg; break;
    case 'f': o.force = true; o.interactive = o.noclobber = false; break;
    case 'i': o.interactive = true; o.force = o.noclobber = false; break;
    case 'n': o.noclobber = true; o.force = o.interactive = false; break;
    case 'S': backup_set = true; o.suffix = st.arg; break;
    case 'u': o.update = !(st.arg && !strcmp(st.arg, "all")); break;
    CMD_CASES_HELP_VERSION(ctx, mv_usage);
    case '?': return 1;
    }
  }
  const char *target_dir = cmd_opt_arg(&st, 't');
  bool no_target = cmd_opt_on(&st, 'T'), strip = cmd_opt_on(&st, O_STRIP);
  o.verbose = cmd_opt_on(&st, 'v');
  if (backup_set) {
    o.backup = cmd_fs_backup_kind(ctx, backup_arg);
    if (o.backup < 0) return cmd_usage_hint(ctx, 1);
  }
  int n = argc - st.ind;
  char **ops = argv + st.ind;
  int nsrc = cmd_fs_split_operands(ctx, n, ops, &target_dir, no_target, strip, false);
  if (nsrc < 0) return 1;
  o.target_dir = target_dir;
  o.dest = target_dir ? NULL : ops[1];
  if (cmd_fs_each_operand(ctx, nsrc, ops, mv_operand, &o)) o.status = 1;
  if (o.in) cmd_in_close(o.in);
  return o.status;
}
