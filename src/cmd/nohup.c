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
  static const cmd_longopt longopts[] = {{"help", 0, 256}, {"version", 0, 257}, {0, 0, 0}};
  cmd_getopt_state g = CMD_GETOPT_INIT;
  for (int c; (c = cmd_getopt(ctx, &g, argc, argv, "+", longopts)) != -1;) {
    if (c == 256) {
      cmd_outs(ctx, "Usage: nohup COMMAND [ARG]...\n  or:  nohup OPTION\n"
                    "Run COMMAND, ignoring hangup signals.\n");
      return 0;
    }
    if (c == 257) return cmd_print_version(ctx);
    return cmd_usage_hint(ctx, 125);
  }
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
