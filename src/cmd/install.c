/*
 * install - copy files and set attributes (GNU coreutils compatible, the
 * common subset).
 *
 *   install [OPTION]... [-T] SOURCE DEST
 *   install [OPTION]... SOURCE... DIRECTORY
 *   install [OPTION]... -t DIRECTORY SOURCE...
 *   install [OPTION]... -d DIRECTORY...
 *   -b, -C/--compare, -c (ignored), -d, -D, -g GROUP, -m MODE, -o OWNER,
 *   -p, -s (no strip program: accepted, ignored), -S SUFFIX, -t, -T, -v
 *
 * Design decisions: a copy replaces the destination (unlink, then create) as
 * GNU install does, with mode 0755 unless -m; -d and -D make directories
 * with mkdir -p semantics (0755) and -v reports each one. Ownership can only
 * name the sandbox's users (lib/fs ids).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/cmd.h"
#include "cmd/lib/fs.h"
#include "cmd/lib/gnu.h"

CMD_DEFINE("install", cmd_install_main);

static const char install_usage[] =
    "Usage: install [OPTION]... [-T] SOURCE DEST\n"
    "  or:  install [OPTION]... SOURCE... DIRECTORY\n"
    "  or:  install [OPTION]... -t DIRECTORY SOURCE...\n"
    "  or:  install [OPTION]... -d DIRECTORY...\n"
    "\n"
    "  -b                  make a backup of each existing destination file\n"
    "  -C, --compare       compare content of source and destination files, and\n"
    "                        if no change to the destination, do not modify it\n"
    "  -d, --directory     treat all arguments as directory names; create all\n"
    "                        components of the specified directories\n"
    "  -D                  create all leading components of DEST except the last,\n"
    "                        or all components of --target-directory\n"
    "  -g, --group=GROUP   set group ownership, instead of process' current group\n"
    "  -m, --mode=MODE     set permission mode (as in chmod), instead of rwxr-xr-x\n"
    "  -o, --owner=OWNER   set ownership (super-user only)\n"
    "  -p, --preserve-timestamps  apply access/modification times of SOURCE files\n"
    "  -s, --strip         strip symbol tables (not done in the sandbox)\n"
    "  -S, --suffix=SUFFIX  override the usual backup suffix\n"
    "  -t, --target-directory=DIRECTORY  copy all SOURCE arguments into DIRECTORY\n"
    "  -T, --no-target-directory  treat DEST as a normal file\n"
    "  -v, --verbose       print the name of each directory as it is created\n"
    CMD_HELP_VERSION_LINES;

/* Options of one install call. */
typedef struct inst_opts {
  cmd_ctx *ctx;               /* the command */
  uint32_t mode;              /* file mode */
  bool verbose, compare, preserve, backup; /* flags */
  const char *suffix;         /* backup suffix */
  bool set_uid, set_gid;      /* -o / -g given */
  uint32_t uid, gid;          /* their ids */
  int status;                 /* exit status */
} inst_opts;

/* mkdir -p with "install: creating directory" messages. */
static int make_dirs(inst_opts *o, const char *path, bool last_too) {
  cmd_ctx *ctx = o->ctx;
  char *p = cmd_strdup(ctx, path);
  if (!p) return -ENOMEM;
  size_t len = strlen(p);
  for (size_t i = 1; i <= len; i++) {
    if (i < len && p[i] != '/') continue;
    if (i < len && p[i - 1] == '/') continue;
    if (i == len && !last_too) break;
    char save = p[i];
    p[i] = 0;
    store_stat st;
    if (cmd_fs_stat(ctx, p, &st) < 0) {
      int rc = store_path_mkdir(ctx->store, ctx->cwd, p, 0755);
      if (rc < 0 && rc != -EEXIST) {
        cmd_errorf(ctx, "cannot create directory %s: %s", cmd_gnu_quoteaf(ctx, p),
                   cmd_strerror(rc));
        p[i] = save;
        return rc;
      }
      store_path_chmod(ctx->store, ctx->cwd, p, 0755);
      if (o->verbose) cmd_outf(ctx, "install: creating directory %s\n", cmd_gnu_quoteaf(ctx, p));
    } else if (!S_ISDIR(st.mode)) {
      cmd_errorf(ctx, "cannot create directory %s: %s", cmd_gnu_quoteaf(ctx, p),
                 cmd_strerror(-EEXIST));
      p[i] = save;
      return -EEXIST;
    }
    p[i] = save;
  }
  return 0;
}

static bool same_content(cmd_ctx *ctx, const store_stat *a, const store_stat *b) {
  if (a->size != b->size) return false;
  char x[4096], y[4096];
  for (uint64_t off = 0; off < a->size; off += sizeof x) {
    ssize_t n1 = store_read(ctx->store, a->ino, x, sizeof x, off);
    ssize_t n2 = store_read(ctx->store, b->ino, y, sizeof y, off);
    if (n1 != n2 || n1 < 0 || memcmp(x, y, (size_t)n1)) return false;
    if (n1 == 0) break;
  }
  return true;
}

static void install_file(inst_opts *o, const char *src, const char *dst) {
  cmd_ctx *ctx = o->ctx;
  store_stat sst, dstat;
  int rc = cmd_fs_stat(ctx, src, &sst);
  if (rc < 0) {
    cmd_errorf(ctx, "cannot stat %s: %s", cmd_gnu_quoteaf(ctx, src), cmd_strerror(rc));
    o->status = 1;
    return;
  }
  if (S_ISDIR(sst.mode)) {
    cmd_errorf(ctx, "omitting directory %s", cmd_gnu_quoteaf(ctx, src));
    o->status = 1;
    return;
  }
  bool exists = cmd_fs_stat(ctx, dst, &dstat) == 0;
  if (exists && S_ISDIR(dstat.mode)) {
    cmd_errorf(ctx, "cannot overwrite directory %s with non-directory", cmd_gnu_quoteaf(ctx, dst));
    o->status = 1;
    return;
  }
  if (exists && dstat.ino == sst.ino) {
    cmd_errorf(ctx, "%s and %s are the same file", cmd_gnu_quoteaf(ctx, src),
               cmd_gnu_quoteaf(ctx, dst));
    o->status = 1;
    return;
  }
  if (exists && o->compare && (dstat.mode & 07777) == o->mode && same_content(ctx, &sst, &dstat))
    return;
  if (exists) {
    if (o->backup) {
      size_t l = strlen(dst) + strlen(o->suffix) + 1;
      char *b = cmd_alloc(ctx, l);
      snprintf(b, l, "%s%s", dst, o->suffix);
      store_path_rename(ctx->store, ctx->cwd, dst, b);
    } else {
      rc = store_path_unlink(ctx->store, ctx->cwd, dst);
      if (rc == 0 && o->verbose) cmd_outf(ctx, "removed %s\n", cmd_gnu_quoteaf(ctx, dst));
    }
  }
  store_stat nst;
  rc = store_path_open(ctx->store, ctx->cwd, dst, O_WRONLY | O_CREAT | O_TRUNC, 0600, &nst);
  if (rc < 0) {
    cmd_errorf(ctx, "cannot create regular file %s: %s", cmd_gnu_quoteaf(ctx, dst),
               cmd_strerror(rc));
    o->status = 1;
    return;
  }
  rc = cmd_fs_copy_data(ctx, sst.ino, nst.ino, sst.size);
  if (rc == 0) rc = store_path_chmod(ctx->store, ctx->cwd, dst, o->mode);
  if (rc == 0 && (o->set_uid || o->set_gid)) {
    store_setattr a = {.uid = o->uid, .gid = o->gid};
    rc = store_setattr_ino(ctx->store, nst.ino, &a,
                           (o->set_uid ? STORE_SET_UID : 0) | (o->set_gid ? STORE_SET_GID : 0),
                           NULL);
  }
  if (rc == 0 && o->preserve) {
    struct timespec ts[2] = {{(time_t)sst.atime, sst.atime_nsec}, {(time_t)sst.mtime, sst.mtime_nsec}};
    rc = store_path_utimes(ctx->store, ctx->cwd, dst, ts, 0);
  }
  if (rc < 0) {
    cmd_errorf(ctx, "cannot install %s: %s", cmd_gnu_quoteaf(ctx, dst), cmd_strerror(rc));
    o->status = 1;
    return;
  }
  if (o->verbose)
    cmd_outf(ctx, "%s -> %s\n", cmd_gnu_quoteaf(ctx, src), cmd_gnu_quoteaf(ctx, dst));
}

int cmd_install_main(cmd_ctx *ctx, int argc, char **argv) {
  enum { OPT_BACKUP = CMD_OPT_LONG, OPT_STRIP_PROG, OPT_PRESERVE_CTX, OPT_DEBUG };
  static const char spec[] =
      "(backup)::(strip-program):(preserve-context)(debug)(help)(version)C(compare)"
      "d(directory)g:(group)m:(mode)o:(owner)p(preserve-timestamps)s(strip)S:(suffix)"
      "t:(target-directory)T(no-target-directory)v(verbose)bcDZ";
  /* --context[=CTX] takes an optional argument, its -Z none. */
  static const cmd_longopt context[] = {{"context", 2, 'Z'}, {0, 0, 0}};
  inst_opts o = {.ctx = ctx, .mode = 0755};
  cmd_fs_ids *ids = NULL;
  cmd_getopt_state st = CMD_GETOPT_INIT;
  /* A loop: an owner or group is looked up as it comes; the other options
   * are read from st after it. */
  for (int c; (c = cmd_getopt(ctx, &st, argc, argv, spec, context)) != -1;) {
    switch (c) {
    case 'g':
    case 'o': {
      bool group = c == 'g';
      if (!ids) ids = cmd_fs_ids_load(ctx);
      int rc = group ? cmd_fs_groupid(ids, st.arg, &o.gid)
                     : cmd_fs_userid(ids, st.arg, &o.uid);
      if (rc < 0) {
        cmd_errorf(ctx, "invalid %s %s", group ? "group" : "user",
                   cmd_gnu_quote(ctx, st.arg));
        return 1;
      }
      *(group ? &o.set_gid : &o.set_uid) = true;
      break;
    }
    CMD_CASES_HELP_VERSION(ctx, install_usage);
    case '?': return 1;
    }
  }
  o.backup = cmd_gnu_backup_opts(&st, OPT_BACKUP, &o.suffix);
  o.compare = cmd_opt_on(&st, 'C');
  o.preserve = cmd_opt_on(&st, 'p');
  o.verbose = cmd_opt_on(&st, 'v');
  bool dirs = cmd_opt_on(&st, 'd'), leading = cmd_opt_on(&st, 'D');
  bool no_target = cmd_opt_on(&st, 'T');
  const char *target = cmd_opt_arg(&st, 't'), *mode_arg = cmd_opt_arg(&st, 'm');
  if (mode_arg) {
    cmd_mode_change *ch = cmd_mode_compile(ctx, mode_arg);
    if (!ch) {
      cmd_errorf(ctx, "invalid mode %s", cmd_gnu_quote(ctx, mode_arg));
      return 1;
    }
    o.mode = cmd_mode_adjust(0, false, 0, ch, NULL);
  }
  int n = argc - st.ind;
  char **ops = argv + st.ind;
  if (dirs) {
    if (n < 1) {
      cmd_errorf(ctx, "missing file operand");
      return cmd_usage_hint(ctx, 1);
    }
    for (int i = 0; i < n; i++) {
      if (make_dirs(&o, ops[i], true) < 0) o.status = 1;
      else if (mode_arg) store_path_chmod(ctx->store, ctx->cwd, ops[i], o.mode);
    }
    return o.status;
  }
  if (n < 1) {
    cmd_errorf(ctx, "missing file operand");
    return cmd_usage_hint(ctx, 1);
  }
  if (!target && n == 1) {
    cmd_errorf(ctx, "missing destination file operand after %s", cmd_gnu_quoteaf(ctx, ops[0]));
    return cmd_usage_hint(ctx, 1);
  }
  if (target) {
    if (leading && make_dirs(&o, target, true) < 0) return 1;
  } else if (!no_target) {
    store_stat ts;
    const char *last = ops[n - 1];
    if (cmd_fs_stat(ctx, last, &ts) == 0 && S_ISDIR(ts.mode)) target = last;
    else if (n > 2) {
      cmd_errorf(ctx, "target %s: %s", cmd_gnu_quoteaf(ctx, last), cmd_strerror(-ENOTDIR));
      return 1;
    }
    n--;
  } else {
    if (n > 2) {
      cmd_errorf(ctx, "extra operand %s", cmd_gnu_quoteaf(ctx, ops[2]));
      return cmd_usage_hint(ctx, 1);
    }
    n = 1;
  }
  store_begin(ctx->store);
  if (!target) {
    const char *dst = ops[1];
    if (leading) {
      char *dir = cmd_fs_dirname(ctx, dst);
      if (make_dirs(&o, dir, true) < 0) {
        store_commit(ctx->store);
        return 1;
      }
    }
    install_file(&o, ops[0], dst);
  } else {
    for (int i = 0; i < n; i++)
      install_file(&o, ops[i], cmd_join_path(ctx, target, cmd_fs_basename(ctx, ops[i])));
  }
  store_commit(ctx->store);
  return o.status;
}
