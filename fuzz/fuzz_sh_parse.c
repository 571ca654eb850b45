/*
 * fuzz_sh_parse.c - libFuzzer target for the shell parser: any bytes are
 * parsed command by command (with an alias table and extglob on, so those
 * paths are reached too) until the end or the first syntax error. The parser
 * must never crash, leak, loop or overflow its stack, whatever the input.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_sh_common.h"

static const char *fz_alias(void *ud, const char *name) {
  (void)ud;
  if (!strcmp(name, "ll")) return "ls -l ";
  if (!strcmp(name, "e")) return "echo x\necho y";
  if (!strcmp(name, "fr")) return "for ";
  if (!strcmp(name, "c")) return "cat <<E\n$(ll)\nE\n";
  return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_sh_parse_each(data, size, fz_alias, NULL);
  return 0;
}
