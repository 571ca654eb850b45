/*
 * standalone.h - what the two ways of running one command outside the shell
 * share: cmd_run_standalone (standalone.c) and cmd_run_limited
 * (lib/run_limited.c). Each has its own cmd_io; both capture stdout and stderr
 * in a cmd_capture and hand them over through cmd_standalone_invoke, so the
 * context a command sees and the result a caller gets are the same in both.
 * Internal to src/cmd.
 */
#ifndef SBX_CMD_STANDALONE_H
#define SBX_CMD_STANDALONE_H

#include "cmd/cmd.h"

/* Captured output: a growable buffer, NUL-terminated once it has data. */
typedef struct cmd_capture {
  char *data;      /* the bytes (malloc'd) or NULL before the first write */
  size_t len, cap; /* bytes used / allocated */
} cmd_capture;

/* Appends n bytes. Returns 0 or -ENOMEM (b unchanged). */
int cmd_capture_add(cmd_capture *b, const void *p, size_t n);

/* Reads up to n bytes of the buffer in[0..inlen) from *pos on (advanced);
 * returns the count, 0 at the end. */
size_t cmd_buffer_read(const char *in, size_t inlen, size_t *pos, void *buf, size_t n);

/* Fills ctx for one command: store s (borrowed), cwd and env (borrowed),
 * io with its ud, umask 022, max_string, the current time, and a new arena
 * (NULL when out of memory; the caller frees it with cmd_arena_free). */
void cmd_standalone_ctx(cmd_ctx *ctx, store *s, const char *cwd, char *const *env,
                        const cmd_io *io, void *ud, uint64_t max_string);

/* Runs argv once on a context made by cmd_standalone_ctx, then fills res:
 * status, the failing errno and path, and out / err handed over (their
 * data now belongs to res; "" when nothing was written). Returns 0, or
 * -ENOMEM with nothing run and the captures untouched. */
int cmd_standalone_invoke(store *s, const char *cwd, char *const *env, const cmd_io *io,
                          void *ud, uint64_t max_string, int argc, char **argv,
                          cmd_capture *out, cmd_capture *err, cmd_standalone_result *res);

#endif
