/*
 * echo - display a line of text
 *
 *   Usage: echo [-neE] [STRING]...
 *     -n  no trailing newline    -e  interpret backslash escapes    -E  do not (default)
 *
 * One code path with the shell's echo builtin (sh_echo_format in
 * src/sh/builtins_core.c): the same options and escapes (\a \b \c \e \f \n
 * \r \t \v \\ \0NNN \xHH \uHHHH \UHHHHHHHH). As GNU's /bin/echo, a lone
 * --help or --version is an option.
 */
#include <string.h>

#include "cmd/cmd.h"
#include "sh/shared.h"

CMD_DEFINE("echo", cmd_echo_main);

int cmd_echo_main(cmd_ctx *ctx, int argc, char **argv) {
  if (argc == 2 && !strcmp(argv[1], "--help")) {
    cmd_outs(ctx, "Usage: echo [SHORT-OPTION]... [STRING]...\n  or:  echo LONG-OPTION\n"
                  "Echo the STRING(s) to standard output.\n\n"
                  "  -n             do not output the trailing newline\n"
                  "  -e             enable interpretation of backslash escapes\n"
                  "  -E             disable interpretation of backslash escapes (default)\n");
    return 0;
  }
  if (argc == 2 && !strcmp(argv[1], "--version")) return cmd_print_version(ctx);
  sh_buf b = {0};
  sh_echo_format(&b, argc, argv, false);
  int r = cmd_out(ctx, b.data ? b.data : "", b.len);
  sh_buf_free(&b);
  return r < 0 ? 1 : 0;
}
