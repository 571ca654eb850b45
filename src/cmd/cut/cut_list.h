/*
 * cut_list.h - the field/byte LIST syntax of cut (gnulib's set_fields):
 * "N", "N-", "N-M", "-M" separated by commas or blanks, sorted and merged
 * (overlapping ranges only), optionally complemented.
 */
#ifndef SBX_CMD_UTIL_RANGES_H
#define SBX_CMD_UTIL_RANGES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct cmd_range {
  uintmax_t lo, hi; /* 1-based, inclusive; hi UINTMAX_MAX = to the end */
} cmd_range;

typedef struct cmd_ranges {
  cmd_range *v;  /* sorted, non-overlapping (malloc'd) */
  size_t n;      /* number of ranges */
} cmd_ranges;

#define CMD_RANGES_POS 0x01        /* messages say "byte/character" */
#define CMD_RANGES_COMPLEMENT 0x02 /* select what the list does not */

/*
 * Parses `list`. On error returns -1 with *msg set to GNU's message (static
 * text, or `errbuf` filled for the messages that quote part of the list;
 * errbuf must hold at least strlen(list) * 4 + 64 bytes). 0 on success; free
 * with cmd_ranges_free.
 */
int cmd_ranges_parse(const char *list, unsigned flags, cmd_ranges *out,
                     const char **msg, char *errbuf, size_t errbuf_len);
void cmd_ranges_free(cmd_ranges *r);

#endif
