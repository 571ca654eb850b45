/*
 * chmod - change file mode bits (GNU coreutils compatible).
 *
 *   chmod [OPTION]... MODE[,MODE]... FILE...
 *   chmod [OPTION]... OCTAL-MODE FILE...
 *   chmod [OPTION]... --reference=RFILE FILE...
 *   -c, --changes  -f, --silent, --quiet  -v, --verbose  -R, --recursive
 *   --no-preserve-root  --preserve-root  --reference=RFILE
 *
 * Design decisions:
 *  - Modes are parsed and applied by lib/fs's port of gnulib's modechange
 *    rules (umask for clauses without who, X, s/t, u/g/o copies, directories
 *    keeping set-id bits under short octal modes).
 *  - An argument like "-w" or "-x,o+r" is the mode, not an option, as GNU
 *    decides; it is found before option parsing.
 *  - -R walks with the lib/fs walker (physical: symlinks met in the walk
 *    are not followed, and -v says so like GNU).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/cmd.h"
#include "cmd/lib/fs.h"
#include "cmd/lib/gnu.h"

CMD_DEFINE("chmod", cmd_chmod_main);

static const char chmod_usage[] =
    "Usage: chmod [OPTION]... MODE[,MODE]... FILE...\n"
    "  or:  chmod [OPTION]... OCTAL-MODE FILE...\n"
    "  or:  chmod [OPTION]... --reference=RFILE FILE...\n"
    "Change the mode of each FILE to MODE.\n"
    "With --reference, change the mode of each FILE to that of RFILE.\n"
    "\n"
    "  -c, --changes          like verbose but report only when a change is made\n"
    "  -f, --silent, --quiet  suppress most error messages\n"
    "  -v, --verbose          output a diagnostic for every file processed\n"
    "      --no-preserve-root  do not treat '/' specially (the default)\n"
    "      --preserve-root    fail to operate recursively on '/'\n"
    "      --reference=RFILE  use RFILE's mode instead of MODE values\n"
    "  -R, --recursive        change files and directories recursively\n"
    CMD_HELP_VERSION_LINES
    "\n"
    "Each MODE is of the form '[ugoa]*([-+=]([rwxXst]*|[ugo]))+|[-+=][0-7]+'.\n";

/* Options of one chmod call. */
typedef struct chmod_opts {
  cmd_ctx *ctx;               /* the command */
  const cmd_mode_change *ch;  /* parsed mode (NULL with --reference) */
  uint32_t ref_mode;          /* --reference mode */
  bool changes, silent, verbose, recursive, preserve_root; /* flags */
  bool umask_used;            /* MODE has a clause without who */
  int status;                 /* exit status */
} chmod_opts;

static void modestr9(uint32_t mode, char out[10]) {
  char m[11];
  cmd_fs_modestr(mode, m);
  memcpy(out, m + 1, 9);
  out[9] = 0;
}

/* Changes one file; `st` is its (followed) stat. */
static void chmod_one(chmod_opts *o, const char *path, const store_stat *st) {
  cmd_ctx *ctx = o->ctx;
  uint32_t old = st->mode & 07777;
  uint32_t umask = ctx->umask & 0777;
  uint32_t nm = o->ch ? cmd_mode_adjust(old, S_ISDIR(st->mode), umask, o->ch, NULL)
                      : o->ref_mode;
  bool ok = true;
  if (nm != old) {
    /* by inode (st is the followed stat): no path resolution per file */
    store_setattr a = {.mode = nm};
    int rc = store_setattr_ino(ctx->store, st->ino, &a, STORE_SET_MODE, NULL);
    if (rc < 0) {
      ok = false;
      if (!o->silent)
        cmd_errorf(ctx, "changing permissions of %s: %s", cmd_gnu_quoteaf(ctx, path),
                   cmd_strerror(rc));
      cmd_record_error(ctx, rc, path);
      o->status = 1;
    }
  }
  if (ok && (o->verbose || (o->changes && nm != old))) {
    char a[10], b[10];
    modestr9(old, a);
    modestr9(nm, b);
    if (nm != old)
      cmd_outf(ctx, "mode of %s changed from %04o (%s) to %04o (%s)\n",
               cmd_gnu_quoteaf(ctx, path), old, a, nm, b);
    else
      cmd_outf(ctx, "mode of %s retained as %04o (%s)\n", cmd_gnu_quoteaf(ctx, path), old, a);
  }
  if (ok && o->ch && o->umask_used) {
    uint32_t naive = cmd_mode_adjust(old, S_ISDIR(st->mode), 0, o->ch, NULL);
    if (nm & ~naive) {
      char a[10], b[10];
      modestr9(nm, a);
      modestr9(naive, b);
      cmd_errorf(ctx, "%s: new permissions are %s, not %s", cmd_gnu_quotef(ctx, path), a, b);
      o->status = 1;
    }
  }
}

/* An entry of a -R walk; a directory comes before its contents and is changed
 * before it is read, so that u+r lets the walk in. */
static void chmod_walked(void *ud, const cmd_walk_ent *e) {
  chmod_opts *o = ud;
  if (S_ISLNK(e->st.mode)) {
    if (o->verbose)
      cmd_outf(o->ctx, "neither symbolic link %s nor referent has been changed\n",
               cmd_gnu_quoteaf(o->ctx, e->path));
    return;
  }
  chmod_one(o, e->path, &e->st);
}

static void chmod_path(chmod_opts *o, const char *path) {
  cmd_ctx *ctx = o->ctx;
  store_stat st;
  if (cmd_fs_stat_operand(ctx, path, true, o->silent, &st) < 0) {
    if (o->silent && o->verbose)
      cmd_outf(ctx, "%s could not be accessed\n", cmd_gnu_quoteaf(ctx, path));
    o->status = 1;
    return;
  }
  if (!o->recursive || !S_ISDIR(st.mode)) {
    chmod_one(o, path, &st);
    return;
  }
  if (o->preserve_root && st.ino == STORE_ROOT_INO) {
    cmd_fs_refuse_root(ctx, path);
    o->status = 1;
    return;
  }
  /* the modes readdir gives are all chmod needs: no stat per file */
  if (cmd_walk_each(ctx, path, CMD_WALK_COMFOLLOW | CMD_WALK_NOSTAT, o->silent,
                    chmod_walked, o))
    o->status = 1;
}

/* chmod_path as the callback of cmd_fs_each_operand. */
static bool chmod_operand(void *ud, const char *path) {
  chmod_path(ud, path);
  return true;
}

/* Is `a` a mode written like an option ("-w", "-rx,o+t")? */
static bool mode_like(const char *a) {
  if (a[0] != '-' || !a[1]) return false;
  for (const char *p = a + 1; *p; p++)
    if (!strchr("rwxXstugoa,+-=01234567", *p)) return false;
  return true;
}

int cmd_chmod_main(cmd_ctx *ctx, int argc, char **argv) {
  enum { O_NO_PRESERVE_ROOT = CMD_OPT_LONG, O_PRESERVE_ROOT, O_REFERENCE };
  static const char spec[] =
      "(no-preserve-root)(preserve-root)(reference):(help)(version)c(changes)"
      "f(silent)(quiet)v(verbose)R(recursive)";
  chmod_opts o = {.ctx = ctx};
  /* pull a mode that looks like an option out of argv */
  char **args = cmd_alloc(ctx, (size_t)(argc + 1) * sizeof *args);
  if (!args) return 1;
  int nargs = 0;
  const char *dash_mode = NULL;
  bool after_dd = false;
  for (int i = 0; i < argc; i++) {
    if (i > 0 && !after_dd && !dash_mode && mode_like(argv[i]) && !strchr("cfvR", argv[i][1])) {
      dash_mode = argv[i];
      continue;
    }
    if (!strcmp(argv[i], "--")) after_dd = true;
    args[nargs++] = argv[i];
  }
  cmd_getopt_state st = CMD_GETOPT_INIT;
  for (int c; (c = cmd_getopt(ctx, &st, nargs, args, spec, NULL)) != -1;) {
    switch (c) {
    case O_NO_PRESERVE_ROOT: o.preserve_root = false; break; /* the last one counts */
    case O_PRESERVE_ROOT: o.preserve_root = true; break;
    CMD_CASES_HELP_VERSION(ctx, chmod_usage);
    case '?': return 1;
    }
  }
  o.changes = cmd_opt_on(&st, 'c');
  o.silent = cmd_opt_on(&st, 'f');
  o.verbose = cmd_opt_on(&st, 'v');
  o.recursive = cmd_opt_on(&st, 'R');
  const char *ref = cmd_opt_arg(&st, O_REFERENCE);
  int i = st.ind;
  const char *mode = dash_mode;
  if (!ref && !mode) {
    if (i >= nargs) {
      cmd_errorf(ctx, "missing operand");
      return cmd_usage_hint(ctx, 1);
    }
    mode = args[i++];
  }
  if (i >= nargs) {
    if (mode) cmd_errorf(ctx, "missing operand after %s", cmd_gnu_quote(ctx, mode));
    else cmd_errorf(ctx, "missing operand");
    return cmd_usage_hint(ctx, 1);
  }
  if (ref) {
    store_stat rs;
    if (cmd_fs_stat_reference(ctx, ref, true, &rs) < 0) return 1;
    o.ref_mode = rs.mode & 07777;
  } else {
    o.ch = cmd_mode_compile(ctx, mode);
    if (!o.ch) {
      cmd_errorf(ctx, "invalid mode: %s", cmd_gnu_quote(ctx, mode));
      return cmd_usage_hint(ctx, 1);
    }
    o.umask_used = cmd_mode_uses_umask(o.ch);
  }
  if (cmd_fs_each_operand(ctx, nargs - i, args + i, chmod_operand, &o)) o.status = 1;
  return o.status;
}
