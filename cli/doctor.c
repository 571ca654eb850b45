/*
 * doctor.c - `sbx doctor`: which pieces of the Python jail work on this host,
 * and for each missing one why and what to change (sbx_probe()). Exit status 0
 * when Python calls can run here, 1 otherwise.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

int cli_doctor_main(cli_ctx *c, int argc, char **argv) {
  (void)c;
  if (argc > 1) return cli_usage("doctor");
  sbx_probe_item *items;
  size_t n;
  int ok;
  int rc = sbx_probe(&items, &n, &ok);
  if (rc != SBX_OK) return cli_error("doctor: the checks could not run (out of memory)");
  int reduced = 0;
  for (size_t i = 0; i < n; i++) {
    if (strcmp(items[i].name, "jail tier") == 0 && items[i].ok < 0) reduced = 1;
    const char *mark = items[i].ok > 0 ? "ok  " : items[i].ok < 0 ? "part" : "FAIL";
    printf("[%s] %-22s %s\n", mark, items[i].name, items[i].detail);
    if (items[i].fix[0]) printf("       %-22s fix: %s\n", "", items[i].fix);
  }
  printf(ok && reduced ? "\nPython calls run jailed on this host, in the reduced tier (what it "
                        "loses is listed above).\n"
         : ok ? "\nPython calls run jailed on this host (full jail).\n"
            : "\nPython calls cannot run on this host: they fail with the reason above "
              "(never unjailed).\n");
  sbx_free(items);
  return ok ? 0 : 1;
}
