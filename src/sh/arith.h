/*
 * arith.h - shell arithmetic: $(( )), (( )), let, array subscripts, integer
 * variables. 64-bit signed, wrapping like bash (done in unsigned to avoid C's
 * undefined overflow), with bash's operators, bases (0x, 0, N#digits) and
 * recursive evaluation of variables holding expressions.
 */
#ifndef SBX_SH_ARITH_H
#define SBX_SH_ARITH_H

#include "sh/sh.h"

/* Evaluates an expression (already expanded text). Returns 0 and *out, or 1
 * after printing bash's message ("1/0: division by 0 (error token is "0")"). */
int sh_arith_eval(sh_shell *sh, const char *expr, int64_t *out);

/* Parses an integer constant the way arithmetic does (bases); false if not one. */
bool sh_arith_parse_int(const char *s, int64_t *out);

#endif
