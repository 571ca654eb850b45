/*
 * util_scan.h - bulk byte scanning for the text commands' hot paths
 * (wc -l, grep -c, uniq, sort's indexing): counting a byte over a whole
 * buffer without one memchr call per line.
 */
#ifndef SBX_CMD_UTIL_SCAN_H
#define SBX_CMD_UTIL_SCAN_H

#include <stddef.h>

/* How many bytes of p[0..n) equal `c`. p may be NULL when n is 0. */
size_t cmd_count_byte(const void *p, size_t n, unsigned char c);

#endif
