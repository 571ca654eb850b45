/*
 * tty - print the file name of the terminal connected to standard input
 *
 *   Usage: tty [OPTION]...
 *     -s, --silent, --quiet   print nothing, only return an exit status
 *
 * A sandboxed command never has a terminal: tty prints "not a tty" and exits
 * 1, as GNU tty does when stdin is a pipe or a file.
 */
#include "cmd/cmd.h"
#include "cmd/lib/gnu.h"

CMD_DEFINE("tty", cmd_tty_main);

int cmd_tty_main(cmd_ctx *ctx, int argc, char **argv) {
  static const char usage[] =
      "Usage: tty [OPTION]...\n"
      "Print the file name of the terminal connected to standard input.\n\n"
      "  -s, --silent, --quiet   print nothing, only return an exit status\n"
      CMD_HELP_VERSION_LINES;
  cmd_getopt_state g = CMD_GETOPT_INIT;
  int rc = cmd_getopt_all(ctx, &g, argc, argv, "(help)(version)s(silent)(quiet)", usage);
  if (rc >= 0) return rc ? 2 : 0; /* GNU tty's status for a bad option is 2 */
  bool silent = cmd_opt_on(&g, 's');
  if (g.ind < argc) {
    cmd_errorf(ctx, "extra operand %s", cmd_gnu_quote(ctx, argv[g.ind]));
    return cmd_usage_hint(ctx, 2);
  }
  if (!silent) cmd_outs(ctx, "not a tty\n");
  return 1;
}
