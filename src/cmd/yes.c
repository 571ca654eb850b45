/*
 * yes - output a string repeatedly until killed.
 *
 *   Usage: yes [STRING]...   (default "y"; the STRINGs joined by spaces)
 *
 * Design: the line is replicated into an 8 KiB block once and the block is
 * written until the pipe closes (-EPIPE: status 141, like GNU dying of
 * SIGPIPE) or the call is cancelled (cmd_poll), so `yes | head -n 3` ends at
 * once and an unbounded `yes` never outlives its sandbox limits.
 */
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/lib/gnu.h"

CMD_DEFINE("yes", cmd_yes_main);

#define YES_BLOCK 8192

int cmd_yes_main(cmd_ctx *ctx, int argc, char **argv) {
  /* Like GNU, only --help/--version are options, and only before operands. */
  cmd_getopt_state g = CMD_GETOPT_INIT;
  int rc = cmd_getopt_all(ctx, &g, argc, argv, "+(help)(version)",
                          "Usage: yes [STRING]...\n  or:  yes OPTION\n"
                          "Repeatedly output a line with all specified STRING(s), or 'y'.\n\n"
                          CMD_HELP_VERSION_LINES);
  if (rc >= 0) return rc;
  size_t len = 0;
  for (int i = g.ind; i < argc; i++) len += strlen(argv[i]) + 1;
  if (g.ind >= argc) len = 2;
  size_t cap = len > YES_BLOCK ? len : YES_BLOCK;
  char *buf = cmd_alloc(ctx, cap + len);
  if (!buf) return 1;
  size_t n = 0;
  if (g.ind >= argc) {
    memcpy(buf, "y\n", 2);
    n = 2;
  } else {
    for (int i = g.ind; i < argc; i++) {
      size_t l = strlen(argv[i]);
      memcpy(buf + n, argv[i], l);
      n += l;
      buf[n++] = i + 1 < argc ? ' ' : '\n';
    }
  }
  /* Fill the block with whole copies of the line. */
  size_t total = n;
  while (total + n <= cap) {
    memcpy(buf + total, buf, n);
    total += n;
  }
  for (;;) {
    int r = cmd_out(ctx, buf, total);
    if (r < 0) return cmd_write_error(ctx, r);
    if (cmd_poll(ctx)) return 1;
  }
}
