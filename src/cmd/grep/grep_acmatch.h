/*
 * grep_acmatch.h - many fixed strings at once (Aho-Corasick), for grep -F.
 *
 * The set is compiled into a DFA over byte classes; a scan costs one table
 * step per byte whatever the number of strings, where a regex alternation
 * of 10,000 strings thrashes its lazy DFA. Matching is on bytes, with ASCII
 * case folding for CMD_AC_ICASE; the caller sends lines whose characters need
 * more (multibyte case folding, multibyte word characters) to its regex.
 */
#ifndef SBX_CMD_UTIL_ACMATCH_H
#define SBX_CMD_UTIL_ACMATCH_H

#include <stdbool.h>
#include <stddef.h>

typedef struct cmd_ac cmd_ac;

#define CMD_AC_ICASE 0x1 /* ASCII letters match either case */
#define CMD_AC_WORDS 0x2 /* a match must not touch a word byte (alnum, '_') on either side */
#define CMD_AC_LINE 0x4  /* a match must be the whole line */

/*
 * Compiles the strings of `pats` (len bytes, separated by '\n'). Returns 0,
 * -EINVAL when a string is empty (the caller's regex handles that), -E2BIG when
 * the DFA would take more than `max_bytes`, or -ENOMEM.
 */
int cmd_ac_build(const char *pats, size_t len, unsigned flags, size_t max_bytes, cmd_ac **out);
void cmd_ac_free(cmd_ac *ac);

/* The end (exclusive) of the match that ends first in line[0..n) (a line:
 * no '\n' inside), or -1 when there is none. */
long cmd_ac_first_end(const cmd_ac *ac, const char *line, size_t n);

/* The leftmost match starting at or after `pos`, the longest of those: true
 * and [*so, *eo) when there is one. */
bool cmd_ac_leftmost(const cmd_ac *ac, const char *line, size_t n, size_t pos, size_t *so,
                     size_t *eo);

#endif
