/*
 * nohup - run a command immune to hangups.
 *
 *   Usage: nohup COMMAND [ARG]...
 *
 * Design: there is no terminal and no SIGHUP in the sandbox, so nohup runs
 * COMMAND with its own streams, as GNU nohup does when none of them is a
 * terminal (no nohup.out, no message). GNU's statuses: 125 for nohup's own
 * errors, 127 when COMMAND is not found, else COMMAND's status.
 */
#include <errno.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/lib/fs.h"
#include "cmd/lib/gnu.h"

CMD_DEFINE("nohup", cmd_nohup_main);

int cmd_nohup_main(cmd_ctx *ctx, int argc, char **argv) {
  cmd_getopt_state g = CMD_GETOPT_INIT;
  int rc = cmd_getopt_all(ctx, &g, argc, argv, "+(help)(version)",
                          "Usage: nohup COMMAND [ARG]...\n  or:  nohup OPTION\n"
                          "Run COMMAND, ignoring hangup signals.\n");
  if (rc >= 0) return rc ? 125 : 0; /* a bad option is nohup's own error */
  if (g.ind >= argc) {
    cmd_errorf(ctx, "missing operand");
    return cmd_usage_hint(ctx, 125);
  }
  char **cargv = argv + g.ind;
  if (!cmd_fs_runnable(ctx, cargv[0], cmd_getenv(ctx, "PATH")) || !ctx->io->run) {
    cmd_errorf(ctx, "failed to run command %s: %s", cmd_gnu_quoteaf(ctx, cargv[0]),
               cmd_strerror(-ENOENT));
    return 127;
  }
  cmd_flush(ctx);
  return ctx->io->run(ctx->io_ud, argc - g.ind, cargv, 0, 1);
}
