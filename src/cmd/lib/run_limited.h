/*
 * run_limited.h - runs one table command with a deadline and an output cap:
 * the bounded twin of cmd_run_standalone for tests and fuzz targets that
 * feed hostile programs (jq, bc, awk...) and must see them stop.
 *
 * cmd_poll() turns non-zero once `max_ms` of wall time have passed (the way
 * the shell's timeout does), and writes to stdout beyond `max_out` bytes
 * fail with -EPIPE (a reader that went away). stdin comes from a buffer;
 * files open read-only from the store (paths relative to cwd); the
 * environment is `env` (NULL: PATH, HOME=/root, TZ=UTC).
 */
#ifndef SBX_CMD_UTIL_LIMITED_H
#define SBX_CMD_UTIL_LIMITED_H

#include "cmd/cmd.h"

typedef struct cmd_limits {
  long max_ms;          /* cmd_poll() fires after this many ms (0: never) */
  size_t max_out;       /* stdout bytes accepted before -EPIPE (0: no cap) */
  uint64_t max_string;  /* ctx->max_string (0: 64 MiB) */
  char *const *env;     /* the command's environment, or NULL */
} cmd_limits;

/* Like cmd_run_standalone, plus res->... fields as there; *elapsed_ms gets
 * the call's wall time when not NULL. Returns 0 or -ENOMEM. */
int cmd_run_limited(store *s, const char *cwd, int argc, char **argv, const void *in,
                    size_t inlen, const cmd_limits *lim, cmd_standalone_result *res,
                    long *elapsed_ms);

#endif
