/*
 * bytescan.h - bulk byte scanning for the text commands' hot paths
 * (wc -l, grep -c, sort's indexing): counting a byte, or the lines that
 * contain a literal, over a whole buffer without one memchr call per line.
 */
#ifndef SBX_CMD_UTIL_SCAN_H
#define SBX_CMD_UTIL_SCAN_H

#include <stddef.h>

/* How many bytes of p[0..n) equal `c`. p may be NULL when n is 0. */
size_t cmd_count_byte(const void *p, size_t n, unsigned char c);

/* How many lines of p[0..n) contain the literal lit[0..m) (m >= 1, no `eol`
 * byte in it). Lines end in `eol`; a last line without one counts too. One
 * pass for any number of matches (grep -c with a fixed string). */
size_t cmd_count_lines_with(const void *p, size_t n, const void *lit, size_t m,
                            unsigned char eol);

#endif
