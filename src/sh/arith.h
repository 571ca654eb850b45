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

/* The same for a text that recurs (the literal text of a script's $((...)),
 * ((...)) and for ((...))): the first evaluation records the parsed tree in
 * the shell's cache of such texts (bounded, see arith.c), the next ones run
 * the tree. The results, messages and side effects are sh_arith_eval's. */
int sh_arith_eval_cached(sh_shell *sh, const char *expr, int64_t *out);

/* Frees a shell's cache of recorded expressions (NULL is fine). */
void sh_arith_cache_free(sh_arith_cache *c);

/* The cache set a text goes to, -1 for a text never kept (tests use it to
 * make texts meet in one set). */
int sh_arith_cache_slot(const char *text);

/* For tests only: while true, sh_arith_eval_cached is sh_arith_eval (the
 * differential tests run every case both ways and compare). */
extern bool sh_arith_cache_off;

/* Parses an integer constant the way arithmetic does (bases); false if not one. */
bool sh_arith_parse_int(const char *s, int64_t *out);

#endif
