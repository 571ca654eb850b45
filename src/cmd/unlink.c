/*
 * unlink, link - call unlink(2) / link(2) on exactly the operands given.
 *
 *   Usage: unlink FILE
 *          link FILE1 FILE2
 *
 * Design: the store's path calls, no option but --help and --version, GNU's
 * operand-count messages. unlink refuses a directory (EISDIR, as Linux).
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/cmd.h"
#include "cmd/lib/fs.h"
#include "cmd/lib/gnu.h"

CMD_DEFINE("unlink", cmd_unlink_main);
CMD_DEFINE("link", cmd_link_main);

/* --help / --version / "--", then the operands; returns the first operand's
 * index, or -1 after answering (status in *st). */
static int simple_args(cmd_ctx *ctx, int argc, char **argv, const char *usage, int want,
                       int *st) {
  cmd_getopt_state g = CMD_GETOPT_INIT;
  *st = cmd_getopt_all(ctx, &g, argc, argv, "(help)(version)", usage);
  if (*st >= 0) return -1;
  int n = argc - g.ind;
  if (n < want) {
    if (n == 0) cmd_errorf(ctx, "missing operand");
    else cmd_errorf(ctx, "missing operand after %s", cmd_gnu_quote(ctx, argv[argc - 1]));
    *st = cmd_usage_hint(ctx, 1);
    return -1;
  }
  if (n > want) {
    cmd_errorf(ctx, "extra operand %s", cmd_gnu_quote(ctx, argv[g.ind + want]));
    *st = cmd_usage_hint(ctx, 1);
    return -1;
  }
  return g.ind;
}

int cmd_unlink_main(cmd_ctx *ctx, int argc, char **argv) {
  int st = 0;
  int i = simple_args(ctx, argc, argv,
                      "Usage: unlink FILE\n  or:  unlink OPTION\n"
                      "Call the unlink function to remove the specified FILE.\n",
                      1, &st);
  if (i < 0) return st;
  store_stat s;
  int rc = cmd_fs_lstat(ctx, argv[i], &s);
  if (rc == 0 && S_ISDIR(s.mode)) rc = -EISDIR;
  if (rc == 0) rc = store_path_unlink(ctx->store, ctx->cwd, argv[i]);
  if (rc < 0) {
    cmd_record_error(ctx, rc, argv[i]);
    cmd_errorf(ctx, "cannot unlink %s: %s", cmd_gnu_quoteaf(ctx, argv[i]), cmd_strerror(rc));
    return 1;
  }
  return 0;
}

int cmd_link_main(cmd_ctx *ctx, int argc, char **argv) {
  int st = 0;
  int i = simple_args(ctx, argc, argv,
                      "Usage: link FILE1 FILE2\n  or:  link OPTION\n"
                      "Call the link function to create a link named FILE2 to an existing FILE1.\n",
                      2, &st);
  if (i < 0) return st;
  int rc = store_path_link(ctx->store, ctx->cwd, argv[i], argv[i + 1]);
  if (rc < 0) {
    cmd_record_error(ctx, rc, argv[i + 1]);
    cmd_errorf(ctx, "cannot create link %s to %s: %s", cmd_gnu_quoteaf(ctx, argv[i + 1]),
               cmd_gnu_quoteaf(ctx, argv[i]), cmd_strerror(rc));
    return 1;
  }
  return 0;
}
