/*
 * stdbuf - run a command with modified buffering (GNU coreutils 9.1).
 *
 *   stdbuf OPTION... COMMAND [ARG]...
 *   -i, --input=MODE  -o, --output=MODE  -e, --error=MODE   (MODE: L, 0, SIZE)
 *
 * Commands in the sandbox write through per-call buffers that are flushed
 * when each command returns and whenever a pipe's reader waits, so there is
 * no stdio buffering to change: the modes are checked as GNU checks them
 * (a mode is required, "L" is refused for stdin, sizes take K M G...
 * suffixes) and COMMAND runs as it would without stdbuf. Exit status 125
 * for stdbuf's own errors, 127 when COMMAND is not found.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/lib/fs.h"
#include "cmd/lib/gnu.h"

CMD_DEFINE("stdbuf", cmd_stdbuf_main);

static bool mode_ok(const char *m) {
  if (strcmp(m, "L") == 0 || strcmp(m, "0") == 0) return true;
  uint64_t v;
  return cmd_parse_size(m, "KMGTPEZYkbB", &v) == 0 && v > 0;
}

static const char stdbuf_usage[] =
    "Usage: stdbuf OPTION... COMMAND\n"
    "Run COMMAND, with modified buffering operations for its standard streams.\n\n"
    "  -i, --input=MODE   adjust standard input stream buffering\n"
    "  -o, --output=MODE  adjust standard output stream buffering\n"
    "  -e, --error=MODE   adjust standard error stream buffering\n";

static const char stdbuf_options[] = "+(help)(version)i:(input)o:(output)e:(error)";

int cmd_stdbuf_main(cmd_ctx *ctx, int argc, char **argv) {
  bool any = false;
  cmd_getopt_state g = CMD_GETOPT_INIT;
  /* A loop: each mode is checked where it stands, and a bad option is 125. */
  for (int c; (c = cmd_getopt(ctx, &g, argc, argv, stdbuf_options, NULL)) != -1;) {
    switch (c) {
      case 'i':
      case 'o':
      case 'e':
        if (c == 'i' && strcmp(g.arg, "L") == 0) {
          cmd_errorf(ctx, "line buffering stdin is meaningless");
          return cmd_usage_hint(ctx, 125);
        }
        if (!mode_ok(g.arg)) {
          cmd_errorf(ctx, "invalid mode %s", cmd_gnu_quote(ctx, g.arg));
          return 125;
        }
        any = true;
        break;
      CMD_CASES_HELP_VERSION(ctx, stdbuf_usage);
      default:
        return 125; /* cmd_getopt printed the message */
    }
  }
  if (g.ind >= argc) {
    cmd_errorf(ctx, "missing operand");
    return cmd_usage_hint(ctx, 125);
  }
  if (!any) {
    cmd_errorf(ctx, "you must specify a buffering mode option");
    return cmd_usage_hint(ctx, 125);
  }
  char **cargv = argv + g.ind;
  if (!ctx->io->run || !cmd_fs_runnable(ctx, cargv[0], cmd_getenv(ctx, "PATH"))) {
    cmd_errorf(ctx, "failed to run command %s: %s", cmd_gnu_quote(ctx, cargv[0]),
               cmd_strerror(-ENOENT));
    return 127;
  }
  cmd_flush(ctx);
  return ctx->io->run(ctx->io_ud, argc - g.ind, cargv, 0, 1);
}
