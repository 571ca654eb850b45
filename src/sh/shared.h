/*
 * shared.h - the parts of the shell's builtins that the table commands of
 * src/cmd/ share (one code path): echo's formatting and test's evaluator.
 * The table commands echo, test and [ (src/cmd/echo.c, src/cmd/test.c) run
 * where there is no shell (cmd_run_standalone, a command started by a
 * command outside the shell); inside the shell the builtins run instead.
 *
 * Nothing here needs a running shell: test takes its filesystem and the
 * answers to the shell-only questions (-v, -o, -R, /dev/fd/N) through
 * sh_test_ctx, whose callbacks may be NULL (the answer is then "false").
 */
#ifndef SBX_SH_SHARED_H
#define SBX_SH_SHARED_H

#include <stdbool.h>

#include "sh/util.h"
#include "store/store.h"

/* echo: formats argv (argv[0] is the name) into b, bash's rules: -n -e -E
 * options, escapes with -e or `xpg`. Returns false when \c stopped output. */
bool sh_echo_format(sh_buf *b, int argc, char **argv, bool xpg);

typedef struct sh_test_ctx sh_test_ctx;
struct sh_test_ctx {
  store *st;                /* the filesystem (borrowed) */
  const char *cwd;          /* for relative paths (borrowed) */
  void *ud;                 /* for the callbacks */
  const char *name;         /* message prefix ("test", "["), or NULL */
  bool (*fd_open)(void *ud, int fd);             /* /dev/fd/N is open */
  int (*var_test)(void *ud, const char *arg);    /* -v NAME */
  int (*opt_test)(void *ud, const char *name);   /* -o OPTION */
  int (*ref_test)(void *ud, const char *name);   /* -R NAME */
  void (*error)(const sh_test_ctx *c, const char *msg); /* prints one message */
};

/* test ARGS... or [ ARGS... ] (argv[0] decides): 0 true, 1 false, 2 error. */
int sh_test_run(const sh_test_ctx *c, int argc, char **argv);
bool sh_test_unary_ctx(const sh_test_ctx *c, const char *op, const char *arg, bool *valid);
bool sh_test_binary_ctx(const sh_test_ctx *c, const char *op, const char *a, const char *b,
                        bool *valid, int *err);

#endif
