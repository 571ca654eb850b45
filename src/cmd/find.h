/*
 * find.h - the parts of find(1) the fuzzer drives: building a find_state
 * from expression arguments and parsing them (src/cmd/find.c).
 */
#ifndef SBX_CMD_FIND_H
#define SBX_CMD_FIND_H

#include <stdbool.h>

#include "cmd/cmd.h"

typedef struct find_state find_state;

/* A state over the expression tokens argv[0..argc-1] (borrowed). With
 * parse_only, nothing is opened or printed. NULL when out of memory. */
find_state *find_state_new(cmd_ctx *ctx, int argc, char **argv, bool parse_only);
/* Parses the expression; 0 or -1 (message in find_state_error). */
int find_parse_expr(find_state *f);
const char *find_state_error(const find_state *f);
void find_state_free(find_state *f);

#endif
