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
 * Design decision: the last component "." and ".." fail like Linux's rmdir(2)
 * (EINVAL and ENOTEMPTY) before reaching the store, so the messages match.
 */
#include <errno.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/util_fs.h"
#include "cmd/util_gnu.h"

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
    "      --help        display this help and exit\n"
    "      --version     output version information and exit\n";

static int rmdir_one(cmd_ctx *ctx, const char *path) {
  const char *b = cmd_fs_basename(ctx, path);
  if (b && strcmp(b, ".") == 0) return -EINVAL;
  if (b && strcmp(b, "..") == 0) return -ENOTEMPTY;
  return store_path_rmdir(ctx->store, ctx->cwd, path);
}

static bool nonempty_err(int rc) { return rc == -ENOTEMPTY || rc == -EEXIST; }

int cmd_rmdir_main(cmd_ctx *ctx, int argc, char **argv) {
  enum { OPT_IGNORE = 256 };
  static const cmd_longopt lo[] = {{"ignore-fail-on-non-empty", 0, OPT_IGNORE},
                                   {"parents", 0, 'p'}, {"verbose", 0, 'v'},
                                   CMD_LONGOPTS_STD, {0, 0, 0}};
  cmd_getopt_state st = CMD_GETOPT_INIT;
  bool ignore = false, parents = false, verbose = false;
  int c;
  while ((c = cmd_getopt(ctx, &st, argc, argv, "pv", lo)) != -1) {
    switch (c) {
    case OPT_IGNORE: ignore = true; break;
    case 'p': parents = true; break;
    case 'v': verbose = true; break;
    case CMD_OPT_HELP: return cmd_print_help(ctx, rmdir_usage);
    case CMD_OPT_VERSION: return cmd_print_version(ctx);
    default: return 1;
    }
  }
  if (st.ind >= argc) {
    cmd_errorf(ctx, "missing operand");
    return cmd_usage_hint(ctx, 1);
  }
  int status = 0;
  for (int i = st.ind; i < argc; i++) {
    const char *path = argv[i];
    if (verbose) cmd_outf(ctx, "rmdir: removing directory, %s\n", cmd_gnu_quoteaf(ctx, path));
    int rc = rmdir_one(ctx, path);
    if (rc < 0) {
      if (!(ignore && nonempty_err(rc))) {
        cmd_errorf(ctx, "failed to remove %s: %s", cmd_gnu_quoteaf(ctx, path), cmd_strerror(rc));
        cmd_record_error(ctx, rc, path);
        status = 1;
      }
      continue;
    }
    if (!parents) continue;
    /* strip the last component, repeatedly */
    char *p = cmd_strdup(ctx, path);
    if (!p) return 1;
    for (;;) {
      size_t len = strlen(p);
      while (len > 0 && p[len - 1] == '/') len--;
      while (len > 0 && p[len - 1] != '/') len--;
      while (len > 0 && p[len - 1] == '/') len--;
      if (len == 0) break;
      p[len] = 0;
      if (verbose) cmd_outf(ctx, "rmdir: removing directory, %s\n", cmd_gnu_quoteaf(ctx, p));
      rc = rmdir_one(ctx, p);
      if (rc < 0) {
        if (!(ignore && nonempty_err(rc))) {
          cmd_errorf(ctx, "failed to remove directory %s: %s", cmd_gnu_quoteaf(ctx, p),
                     cmd_strerror(rc));
          cmd_record_error(ctx, rc, p);
          status = 1;
        }
        break;
      }
    }
  }
  return status;
}
