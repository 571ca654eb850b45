/*
 * mkfifo - make FIFOs (named pipes) (GNU coreutils 9.1 messages).
 *
 *   mkfifo [-m MODE] NAME...
 *
 * The store holds regular files, directories and symbolic links only: a
 * named pipe cannot exist in it, so each NAME fails with a clear error
 * ("Operation not supported") after the same checks GNU makes first (the
 * mode, an existing NAME, a missing parent directory). Use a pipe (|) or a
 * process substitution <(...) instead. Exit status 1 when any NAME failed.
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/cmd.h"
#include "cmd/lib/fs.h"
#include "cmd/lib/gnu.h"

CMD_DEFINE("mkfifo", cmd_mkfifo_main);

static const char mkfifo_usage[] =
    "Usage: mkfifo [OPTION]... NAME...\n"
    "Create named pipes (FIFOs) with the given NAMEs.\n\n"
    "  -m, --mode=MODE    set file permission bits to MODE, not a=rw - umask\n"
    "(the sandbox's store cannot hold FIFOs: every NAME fails)\n";

int cmd_mkfifo_main(cmd_ctx *ctx, int argc, char **argv) {
  /* --context[=CTX] takes an argument -Z does not: a long-only option, ignored
   * as -Z is. The mode is checked after the options, as GNU checks it. */
  cmd_getopt_state g = CMD_GETOPT_INIT;
  int rc = cmd_getopt_all(ctx, &g, argc, argv, "(context)::(help)(version)m:(mode)Z",
                          mkfifo_usage);
  if (rc >= 0) return rc;
  const char *mode = cmd_opt_arg(&g, 'm');
  if (mode && !cmd_mode_compile(ctx, mode)) {
    cmd_errorf(ctx, "invalid mode");
    return 1;
  }
  if (g.ind >= argc) {
    cmd_errorf(ctx, "missing operand");
    return cmd_usage_hint(ctx, 1);
  }
  for (int i = g.ind; i < argc; i++) {
    store_stat st;
    rc = cmd_fs_lstat(ctx, argv[i], &st);
    if (rc == 0) {
      rc = -EEXIST;
    } else {
      /* the parent must exist, as mkfifo(3) would check */
      char *dir = cmd_fs_dirname(ctx, argv[i]);
      rc = cmd_fs_stat(ctx, dir, &st);
      if (rc == 0 && !S_ISDIR(st.mode)) rc = -ENOTDIR;
      if (rc == 0) rc = -EOPNOTSUPP;
    }
    cmd_record_error(ctx, rc, argv[i]);
    cmd_errorf(ctx, "cannot create fifo %s: %s", cmd_gnu_quoteaf(ctx, argv[i]),
               cmd_strerror(rc));
  }
  return 1;
}
