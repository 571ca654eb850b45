/*
 * tree.c - `sbx DB import HOSTDIR PATH` and `sbx DB export-dir PATH HOSTDIR`:
 * whole directory trees between the host and the sandbox, with modes, times
 * and the symlinks that stay inside the tree (sbx_import_dir and
 * sbx_export_dir hold the rules). An import is all or nothing; an export
 * creates HOSTDIR, which must not exist.
 */
#include <string.h>

#include "cli.h"

/* Runs fn(h, A, B) on the two operands of `sbx DB NAME [--] A B`. */
static int two_operands(cli_ctx *c, int argc, char **argv, const char *name,
                        int (*fn)(sbx *h, const char *a, const char *b)) {
  int first = argc > 1 && strcmp(argv[1], "--") == 0 ? 2 : 1;
  if (argc - first != 2) return cli_usage(name);
  if (fn(c->h, argv[first], argv[first + 1]) != SBX_OK)
    return cli_error("%s", sbx_errmsg(c->h));
  return 0;
}

int cli_import_dir_main(cli_ctx *c, int argc, char **argv) {
  return two_operands(c, argc, argv, "import", sbx_import_dir);
}

int cli_export_dir_main(cli_ctx *c, int argc, char **argv) {
  return two_operands(c, argc, argv, "export-dir", sbx_export_dir);
}
