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
 *  - With -m the final mode is set with chmod after creation, because the
 *    store applies its own umask when creating.
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/cmd.h"
#include "cmd/util_fs.h"
#include "cmd/util_gnu.h"

CMD_DEFINE("mkdir", cmd_mkdir_main);

static const char mkdir_usage[] =
    "Usage: mkdir [OPTION]... DIRECTORY...\n"
    "Create the DIRECTORY(ies), if they do not already exist.\n"
    "\n"
    "  -m, --mode=MODE   set file mode (as in chmod), not a=rwx - umask\n"
    "  -p, --parents     no error if existing, make parent directories as needed\n"
    "  -v, --verbose     print a message for each created directory\n"
    "      --help        display this help and exit\n"
    "      --version     output version information and exit\n";

/* Creates one directory; returns 0, or a negative errno (EEXIST kept). */
static int mk_one(cmd_ctx *ctx, const char *path, uint32_t mode, bool verbose) {
  int rc = store_path_mkdir(ctx->store, ctx->cwd, path, mode);
  if (rc == 0 && verbose) cmd_outf(ctx, "mkdir: created directory %s\n", cmd_gnu_quoteaf(ctx, path));
  return rc;
}

int cmd_mkdir_main(cmd_ctx *ctx, int argc, char **argv) {
  static const cmd_longopt lo[] = {{"mode", 1, 'm'}, {"parents", 0, 'p'},
                                   {"verbose", 0, 'v'}, {"context", 2, 'Z'},
                                   CMD_LONGOPTS_STD, {0, 0, 0}};
  cmd_getopt_state st = CMD_GETOPT_INIT;
  const char *mode_str = NULL;
  bool parents = false, verbose = false;
  int c;
  while ((c = cmd_getopt(ctx, &st, argc, argv, "m:pvZ", lo)) != -1) {
    switch (c) {
    case 'm': mode_str = st.arg; break;
    case 'p': parents = true; break;
    case 'v': verbose = true; break;
    case 'Z': break;
    case CMD_OPT_HELP: return cmd_print_help(ctx, mkdir_usage);
    case CMD_OPT_VERSION: return cmd_print_version(ctx);
    default: return 1;
    }
  }
  if (st.ind >= argc) {
    cmd_errorf(ctx, "missing operand");
    return cmd_usage_hint(ctx, 1);
  }
  uint32_t umask = ctx->umask & 0777;
  uint32_t mode = 0777 & ~umask;
  bool set_mode = false;
  if (mode_str) {
    cmd_mode_change *ch = cmd_mode_compile(ctx, mode_str);
    if (!ch) {
      cmd_errorf(ctx, "invalid mode %s", cmd_gnu_quote(ctx, mode_str));
      return 1;
    }
    mode = cmd_mode_adjust(0777, true, umask, ch, NULL);
    set_mode = true;
  }
  int status = 0;
  for (int i = st.ind; i < argc; i++) {
    const char *path = argv[i];
    if (cmd_poll(ctx)) return 1;
    if (parents) {
      /* each ancestor, left to right */
      size_t len = strlen(path);
      char *buf = cmd_strdup(ctx, path);
      if (!buf) return 1;
      int rc = 0;
      size_t pos = 0;
      while (pos < len && buf[pos] == '/') pos++;
      for (;;) {
        size_t end = pos;
        while (end < len && buf[end] != '/') end++;
        size_t next = end;
        while (next < len && buf[next] == '/') next++;
        if (next >= len) break; /* last component: handled below */
        char save = buf[end];
        buf[end] = 0;
        bool dotdot = strcmp(buf + pos, ".") == 0 || strcmp(buf + pos, "..") == 0;
        if (!dotdot) {
          /* parents get the umask mode plus u+wx, whatever -m says */
          rc = mk_one(ctx, buf, (0777 & ~umask) | S_IWUSR | S_IXUSR, verbose);
          if (rc == -EEXIST) {
            store_stat sst;
            rc = cmd_fs_stat(ctx, buf, &sst);
            if (rc == 0 && !S_ISDIR(sst.mode)) rc = -ENOTDIR;
          }
        }
        if (rc < 0) {
          cmd_errorf(ctx, "cannot create directory %s: %s", cmd_gnu_quote(ctx, buf),
                     cmd_strerror(rc));
          cmd_record_error(ctx, rc, buf);
          buf[end] = save;
          break;
        }
        buf[end] = save;
        pos = next;
      }
      if (rc < 0) {
        status = 1;
        continue;
      }
      rc = mk_one(ctx, path, mode, verbose);
      if (rc == -EEXIST) {
        store_stat sst;
        if (cmd_fs_stat(ctx, path, &sst) == 0 && S_ISDIR(sst.mode)) continue;
      }
      if (rc < 0) {
        cmd_errorf(ctx, "cannot create directory %s: %s", cmd_gnu_quote(ctx, path),
                   cmd_strerror(rc));
        cmd_record_error(ctx, rc, path);
        status = 1;
        continue;
      }
    } else {
      int rc = mk_one(ctx, path, mode, verbose);
      if (rc < 0) {
        cmd_errorf(ctx, "cannot create directory %s: %s", cmd_gnu_quote(ctx, path),
                   cmd_strerror(rc));
        cmd_record_error(ctx, rc, path);
        status = 1;
        continue;
      }
    }
    if (set_mode) {
      int rc = store_path_chmod(ctx->store, ctx->cwd, path, mode);
      if (rc < 0) {
        cmd_errorf(ctx, "cannot set permissions of %s: %s", cmd_gnu_quote(ctx, path),
                   cmd_strerror(rc));
        status = 1;
      }
    }
  }
  return status;
}
