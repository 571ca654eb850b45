/*
 * fuzz_sh_parse.c - libFuzzer target for the shell parser: any bytes are
 * parsed command by command (with an alias table and extglob on, so those
 * paths are reached too) until the end or the first syntax error. The parser
 * must never crash, leak, loop or overflow its stack, whatever the input.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "sh/parse.h"

static const char *fz_alias(void *ud, const char *name) {
  (void)ud;
  if (!strcmp(name, "ll")) return "ls -l ";
  if (!strcmp(name, "e")) return "echo x\necho y";
  if (!strcmp(name, "fr")) return "for ";
  if (!strcmp(name, "c")) return "cat <<E\n$(ll)\nE\n";
  return NULL;
}

static bool fz_extglob(void *ud) {
  (void)ud;
  return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 1 << 16) return 0;
  char *s = fuzz_strdup(data, size);
  if (!s) return 0;
  size_t n = strlen(s); /* scripts are NUL-free text */
  sh_parse_opts o = {0};
  o.alias = fz_alias;
  o.extglob = fz_extglob;
  o.max_depth = 200;
  sh_parser *p = sh_parser_new(s, n, &o);
  for (int i = 0; i < 10000; i++) {
    sh_node *node;
    sh_arena *arena;
    int r = sh_parse_next(p, &node, &arena);
    if (r <= 0) break;
    sh_arena_unref(arena);
  }
  sh_parser_free(p);
  free(s);
  return 0;
}
