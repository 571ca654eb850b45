/*
 * fuzz_sh_common.h - the driver the shell parser's fuzz targets share: any
 * bytes (up to 64 KiB, cut at the first NUL: scripts are NUL-free text) are
 * parsed command by command with extglob on and the nesting bounded as a
 * session bounds it, until the end or the first syntax error, and each
 * parsed command is handed to `each` (may be NULL) before its arena goes.
 */
#ifndef SBX_FUZZ_SH_COMMON_H
#define SBX_FUZZ_SH_COMMON_H

#include <stdbool.h>
#include <stdint.h>

#include "fuzz_common.h"
#include "sh/parse.h"

static bool fuzz_sh_extglob(void *ud) {
  (void)ud;
  return true;
}

/* alias: the parser's alias lookup (NULL: no aliases). */
static inline void fuzz_sh_parse_each(const uint8_t *data, size_t size,
                                      const char *(*alias)(void *ud, const char *name),
                                      void (*each)(sh_node *node)) {
  if (size > 1 << 16) return;
  char *s = fuzz_strdup(data, size);
  if (!s) return;
  sh_parse_opts o = {0};
  o.alias = alias;
  o.extglob = fuzz_sh_extglob;
  o.max_depth = 200;
  sh_parser *p = sh_parser_new(s, strlen(s), &o);
  for (int i = 0; i < 10000; i++) {
    sh_node *node;
    sh_arena *arena;
    if (sh_parse_next(p, &node, &arena) <= 0) break;
    if (each) each(node);
    sh_arena_unref(arena);
  }
  sh_parser_free(p);
  free(s);
}

#endif
