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

CMD_DEFINE("tty", cmd_tty_main);

int cmd_tty_main(cmd_ctx *ctx, int argc, char **argv) {
  static const cmd_longopt longopts[] = {
      {"silent", 0, 's'}, {"quiet", 0, 's'}, {"help", 0, 256}, {"version", 0, 257}, {0, 0, 0}};
  cmd_getopt_state g = CMD_GETOPT_INIT;
  bool silent = false;
  for (int c; (c = cmd_getopt(ctx, &g, argc, argv, "s", longopts)) != -1;) {
    if (c == 's') silent = true;
    else if (c == 256) {
      cmd_outs(ctx, "Usage: tty [OPTION]...\n"
                    "Print the file name of the terminal connected to standard input.\n\n"
                    "  -s, --silent, --quiet   print nothing, only return an exit status\n"
                    CMD_HELP_VERSION_LINES);
      return 0;
    } else if (c == 257) return cmd_print_version(ctx);
    else return 2;
  }
  if (g.ind < argc) {
    cmd_errorf(ctx, "extra operand '%s'", argv[g.ind]);
    return 2;
  }
  if (!silent) cmd_outs(ctx, "not a tty\n");
  return 1;
}
