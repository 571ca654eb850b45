/*
 * cmd_testutil.h - what the tests/cmd/test_*.c programs that run commands
 * through cmd_run_standalone or cmd_run_limited share: the in-memory store
 * they run in, one run of a NULL-terminated argv with a string as stdin, and
 * freeing what a run returned.
 */
#ifndef SBX_TESTS_CMD_TESTUTIL_H
#define SBX_TESTS_CMD_TESTUTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/lib/run_limited.h"

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

/* The argc of a NULL-terminated argv. */
static inline int cmd_test_argc(char **argv) {
  int argc = 0;
  while (argv[argc]) argc++;
  return argc;
}

/* Runs argv (NULL-terminated) in store st, in directory cwd, with the string
 * in as stdin (NULL: none); the caller frees the result with cmd_test_done. */
static inline cmd_standalone_result cmd_test_run(store *st, const char *cwd,
                                                 const char *in, char **argv) {
  cmd_standalone_result r;
  cmd_run_standalone(st, cwd, cmd_test_argc(argv), argv, in, in ? strlen(in) : 0, &r);
  return r;
}

/* Frees the output of a run. */
static inline void cmd_test_done(cmd_standalone_result *r) {
  free(r->out);
  free(r->err);
}

/* A run under limits and how long it took. */
typedef struct cmd_test_timed {
  cmd_standalone_result r; /* status, out, err */
  long ms;                 /* wall time */
} cmd_test_timed;

/* cmd_test_run under lim (deadline, output cap, string limit, environment). */
static inline cmd_test_timed cmd_test_run_limited(store *st, const char *cwd,
                                                  const char *in, char **argv,
                                                  const cmd_limits *lim) {
  cmd_test_timed t;
  cmd_run_limited(st, cwd, cmd_test_argc(argv), argv, in, in ? strlen(in) : 0, lim, &t.r,
                  &t.ms);
  return t;
}

#endif
