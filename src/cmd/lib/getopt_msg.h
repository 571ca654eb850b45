/*
 * getopt_msg.h - option-error messages for commands whose usage hint differs
 * from the runtime's ("Try 'NAME --help'..."): grep prints a "Usage:" line
 * before the hint, sed its whole usage text. Such commands call cmd_getopt
 * in quiet mode (shortopts starting with ':') and, on '?' or ':', call
 * cmd_getopt_report to print getopt_long's message exactly as glibc words it,
 * then print their own usage.
 */
#ifndef SBX_CMD_UTIL_OPT_H
#define SBX_CMD_UTIL_OPT_H

#include "cmd/cmd.h"

/* Prints "NAME: invalid option -- 'k'", "NAME: unrecognized option '--x'",
 * "NAME: option requires an argument -- 'A'", "NAME: option '--x' requires
 * an argument", "NAME: option '--x' doesn't allow an argument" or the
 * ambiguity message, for the '?' or ':' that cmd_getopt just returned. */
void cmd_getopt_report(cmd_ctx *ctx, const cmd_getopt_state *st, int argc, char **argv,
                       int ret, const cmd_longopt *longopts);

#endif
