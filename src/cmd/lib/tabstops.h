/*
 * tabstops.h - the TAB stop lists of expand and unexpand (GNU's
 * expand-common): "N", "N,M,...", a last "/N" (every N after) or "+N"
 * (every N after the last stop), with GNU's messages.
 */
#ifndef SBX_CMD_UTIL_TABS_H
#define SBX_CMD_UTIL_TABS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cmd/cmd.h"

typedef struct cmd_tabs {
  uintmax_t *list;       /* explicit stops, ascending (arena) */
  size_t n, cap;         /* count and capacity */
  uintmax_t tab_size;    /* single size (0 when a list is used) */
  uintmax_t extend;      /* "/N" */
  uintmax_t increment;   /* "+N" */
} cmd_tabs;

/* Adds the stops of one -t argument; prints GNU's message and returns -1 on
 * error. */
int cmd_tabs_parse(cmd_ctx *ctx, cmd_tabs *t, const char *stops);
/* The option loop of expand and unexpand (cmd_getopt_all's): the tab lists
 * of -t (the option string's 't') and of the obsolete "-N[,M]..." operands
 * are added to t as they come; the other options are recorded in g. Returns
 * -1 when the command goes on, else its status: 0 after --help or --version,
 * 1 after a bad option or list (its message printed). */
int cmd_tabs_getopt_all(cmd_ctx *ctx, cmd_tabs *t, cmd_getopt_state *g, int argc,
                        char **argv, const char *spec, const char *usage);
/* Validates and settles the list (default 8). -1 after printing an error. */
int cmd_tabs_finalize(cmd_ctx *ctx, cmd_tabs *t);
/* The next stop after `column`; *last when the list is exhausted. */
uintmax_t cmd_tabs_next(const cmd_tabs *t, uintmax_t column, size_t *index, bool *last);

#endif
