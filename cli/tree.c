/*
 * tree.c - `sbx DB import HOSTDIR PATH` and `sbx DB export-dir PATH HOSTDIR`:
 * whole directory trees between the host and the sandbox, with modes, times
 * and the symlinks that stay inside the tree (sbx_import_dir and
 * sbx_export_dir hold the rules). An import is all or nothing; an export
 * creates HOSTDIR, which must not exist.
 */
#include "cli.h"

int cli_import_dir_main(cli_ctx *c, int argc, char **argv) {
  int first = (argc > 1 && argv[1][0] == '-' && argv[1][1] == '-' && !argv[1][2]) ? 2 : 1;
  if (argc - first != 2) return cli_usage("import");
  if (sbx_import_dir(c->h, argv[first], argv[first + 1]) != SBX_OK)
    return cli_error("%s", sbx_errmsg(c->h));
  return 0;
}

int cli_export_dir_main(cli_ctx *c, int argc, char **argv) {
  int first = (argc > 1 && argv[1][0] == '-' && argv[1][1] == '-' && !argv[1][2]) ? 2 : 1;
  if (argc - first != 2) return cli_usage("export-dir");
  if (sbx_export_dir(c->h, argv[first], argv[first + 1]) != SBX_OK)
    return cli_error("%s", sbx_errmsg(c->h));
  return 0;
}
