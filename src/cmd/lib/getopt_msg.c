/*
 * getopt_msg.c - getopt_long's error messages for commands that print their own
 * usage after them (see lib/getopt_msg.h). The message is reconstructed from the
 * parser state after the fact: the argument that failed is argv[ind] while
 * inside a cluster of short options (pos > 0), else argv[ind - 1].
 */
#include <string.h>

#include "cmd/lib/getopt_msg.h"

void cmd_getopt_report(cmd_ctx *ctx, const cmd_getopt_state *st, int argc, char **argv,
                       int ret, const cmd_longopt *longopts) {
  if (st->longs) longopts = st->longs; /* the option string's long names too */
  int i = st->pos > 0 ? st->ind : st->ind - 1;
  const char *cur = i >= 0 && i < argc ? argv[i] : "";
  cmd_flush(ctx);
  if (strncmp(cur, "--", 2) != 0 || !longopts) {
    if (ret == ':') cmd_errorf(ctx, "option requires an argument -- '%c'", st->opt);
    else cmd_errorf(ctx, "invalid option -- '%c'", st->opt);
    return;
  }
  const char *name = cur + 2;
  const char *eq = strchr(name, '=');
  size_t len = eq ? (size_t)(eq - name) : strlen(name);
  int found = cmd_longopt_find(longopts, name, len);
  if (found == -1) {
    cmd_errorf(ctx, "unrecognized option '%s'", cur);
  } else if (found == -2) {
    cmd_longopt_ambiguous(ctx, longopts, cur, len);
  } else if (ret == ':') {
    cmd_errorf(ctx, "option '--%s' requires an argument", longopts[found].name);
  } else {
    cmd_errorf(ctx, "option '--%s' doesn't allow an argument", longopts[found].name);
  }
}
