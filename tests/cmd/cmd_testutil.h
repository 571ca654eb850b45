/*
 * cmd_testutil.h - what the tests/cmd/test_*.c programs that run commands
 * through cmd_run_standalone share: the in-memory store they run in.
 */
#ifndef SBX_TESTS_CMD_TESTUTIL_H
#define SBX_TESTS_CMD_TESTUTIL_H

#include <stdio.h>
#include <stdlib.h>

#include "cmd/cmd.h"

/* A fresh in-memory store (the caller closes it), or NULL after printing
 * why it could not be opened. */
static inline store *cmd_test_store(void) {
  store *s = NULL;
  char *err = NULL;
  if (store_open(NULL, STORE_OPEN_MEMORY, &s, &err) < 0) {
    fprintf(stderr, "store_open: %s\n", err ? err : "?");
    free(err);
    return NULL;
  }
  return s;
}

#endif
