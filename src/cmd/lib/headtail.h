/*
 * headtail.h - what head and tail share: one input being copied in 64 KiB
 * blocks with its first read error and its first fatal error (a write error,
 * cancellation or memory) kept apart, the window of "all but the last N" /
 * "the last N" bounded by ctx->max_string, and the per-operand steps around
 * it: open with GNU's "cannot open" message and the "==> NAME <==" header,
 * then close and report.
 *
 * Both commands read the descriptor directly rather than through cmd_in's
 * buffer: head must not consume past what it prints, tail seeks from the end.
 */
#ifndef SBX_CMD_LIB_HEADTAIL_H
#define SBX_CMD_LIB_HEADTAIL_H

#include <stdbool.h>
#include <sys/types.h>

#include "cmd/cmd.h"
#include "cmd/lib/gnu.h"

/* The size of one read and of the scratch buffer. */
#define CMD_HEADTAIL_BLOCK 65536

typedef struct cmd_headtail {
  cmd_ctx *ctx;  /* the call */
  int fd;        /* input descriptor (or -EISDIR for a directory operand) */
  char delim;    /* '\n' or '\0' (-z) */
  char *buf;     /* CMD_HEADTAIL_BLOCK scratch bytes, owned by the caller */
  int read_err;  /* first read error (negative errno), 0 if none */
  int fatal;     /* write error, cancellation or memory (negative errno), 0 if none */
} cmd_headtail;

/* One read(2) of at most n bytes into buf: the byte count, 0 at EOF, or -1
 * after recording the error (cancellation as fatal, the rest as read_err). */
ssize_t cmd_headtail_read(cmd_headtail *j, void *buf, size_t n);

/* Writes n bytes (none: nothing); 0, or the negative errno, also kept as fatal. */
int cmd_headtail_out(cmd_headtail *j, const void *p, size_t n);

/* Makes room for one more block in w, within ctx->max_string plus eight
 * blocks; 0, or -1 after printing "memory exhausted" (fatal = -ENOMEM). */
int cmd_headtail_window_reserve(cmd_headtail *j, cmd_window *w);

/* When the "==> NAME <==" headers are printed (-q, -v, neither). */
enum {
  CMD_HEADTAIL_HEADERS_AUTO,   /* only with more than one file */
  CMD_HEADTAIL_HEADERS_NEVER,  /* -q */
  CMD_HEADTAIL_HEADERS_ALWAYS, /* -v */
};

/* What head or tail does with one opened input: reads j->fd, writes with
 * cmd_headtail_out, and leaves its errors in j. `opts` is the caller's. */
typedef void (*cmd_headtail_fn)(cmd_headtail *j, const void *opts);

/* The operand loop of head and tail: for every file operand of av[ind..ac)
 * ("-" when none) opens it (GNU's "cannot open ... for reading" and status 1
 * when it cannot), prints its header as `headers` says (a blank line before
 * all but the first), runs fn on it (a directory is not read: its error is
 * EISDIR), closes it and reports a read error ("error reading ..."). A write
 * error, cancellation or "memory exhausted" stops the loop. Returns the exit
 * status; *opened gets how many operands were opened (directories count). */
int cmd_headtail_each(cmd_ctx *ctx, int ac, char **av, int ind, int headers, char delim,
                      cmd_headtail_fn fn, const void *opts, int *opened);

/* argv without argv[1] (the obsolete -NUM first argument both accept), in
 * the call's arena, with *ac set to its argc; NULL when out of memory. */
char **cmd_headtail_drop_first(cmd_ctx *ctx, int argc, char **argv, int *ac);

#endif
