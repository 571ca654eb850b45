/*
 * main.c - sbx-pyworker's entry point. One binary, two roles, chosen by argv[1]:
 *   jail KEY=VALUE... [-- PROGRAM ARGS...]  P1 of a jail (see src/jail/jail.h);
 *                                           its W runs the embedded Python worker
 *                                           (worker/pyworker.c) or PROGRAM
 *   probe                                   the doctor's checks, one line each
 * It is never meant to be started by hand: the library passes it its fds.
 */
#include <stdio.h>
#include <string.h>

#include "jail/jail.h"
#include "pyworker.h"

int main(int argc, char **argv) {
  if (argc >= 2 && strcmp(argv[1], "jail") == 0) return jail_helper_main(argc, argv, pyw_main);
  if (argc >= 2 && strcmp(argv[1], "probe") == 0) return jail_probe_main(argc, argv);
  fprintf(stderr, "usage: sbx-pyworker jail KEY=VALUE... | probe\n"
                  "(started by libsbx; see src/jail/jail.h)\n");
  return 2;
}
