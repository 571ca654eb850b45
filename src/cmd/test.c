/*
 * test, [ - check file types and compare values
 *
 *   Usage: test EXPRESSION
 *          [ EXPRESSION ]
 *     file tests -e -f -d -h -L -r -w -x -s -p -S -b -c -g -u -k -O -G -N,
 *     -nt -ot -ef; strings -z -n = != < >; integers -eq -ne -lt -le -gt -ge;
 *     ! ( ) -a -o, with POSIX's rules for one to four arguments
 *
 * One code path with the shell's test and [ builtins (src/sh/test.c,
 * sh_test_run): this file only supplies the context of a command started
 * without a shell (cmd_run_standalone, xargs or find run by such a command):
 * the store and cwd of the ctx, -v through the caller's variables when the
 * ctx has them, and GNU's message prefix "test: " / "[: ".
 */
#include <string.h>

#include "cmd/cmd.h"
#include "sh/shared.h"

CMD_DEFINE("test", cmd_test_main);
CMD_DEFINE("[", cmd_test_main);

static int var_test(void *ud, const char *name) {
  cmd_ctx *ctx = ud;
  return ctx->io && ctx->io->getvar && ctx->io->getvar(ctx->io_ud, name) != NULL;
}

static void test_error(const sh_test_ctx *c, const char *msg) {
  cmd_errorf((cmd_ctx *)c->ud, "%s", msg);
}

int cmd_test_main(cmd_ctx *ctx, int argc, char **argv) {
  /* like GNU: only `[` takes --help / --version, and only alone */
  if (!strcmp(ctx->name, "[") && argc == 2) {
    if (!strcmp(argv[1], "--help")) {
      cmd_outs(ctx, "Usage: test EXPRESSION\n  or:  test\n  or:  [ EXPRESSION ]\n  or:  [ ]\n"
                    "  or:  [ OPTION\nExit with the status determined by EXPRESSION.\n");
      return 0;
    }
    if (!strcmp(argv[1], "--version")) return cmd_print_version(ctx);
  }
  sh_test_ctx c = {.st = ctx->store, .cwd = ctx->cwd, .ud = ctx, .var_test = var_test,
                   .error = test_error};
  char *saved = argv[0];
  argv[0] = (char *)ctx->name; /* "[" needs its closing "]" */
  int st = sh_test_run(&c, argc, argv);
  argv[0] = saved;
  return st;
}
