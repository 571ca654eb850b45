/*
 * fuzz_tr_sets.c - libFuzzer target for tr's STRING parser and tables.
 *
 * Input: option letters (any of "cdst", up to the first NUL), STRING1, NUL,
 * STRING2 (optional), NUL, then the bytes to translate. Runs tr through
 * cmd_run_standalone over an in-memory store made once; any crash,
 * sanitizer report, leak or hang is a bug. Output is discarded.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"

static store *fuzz_store;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 4096) return 0;
  char *copy = fuzz_strdup(data, size);
  if (!copy) return 0;
  char *parts[3] = {copy, "", ""};
  size_t used;
  fuzz_split_fields(copy, size, parts, 3, &used);
  char opts[8] = "-";
  size_t o = 1;
  for (const char *p = parts[0]; *p && o < sizeof opts - 1; p++)
    if (strchr("cdst", *p) && !strchr(opts, *p)) opts[o++] = *p;
  opts[o] = 0;
  char *argv[6];
  int argc = 0;
  argv[argc++] = "tr";
  if (o > 1) argv[argc++] = opts;
  argv[argc++] = "--";
  argv[argc++] = parts[1];
  if (*parts[2]) argv[argc++] = parts[2];
  argv[argc] = NULL;
  const char *in = used < size ? copy + used : "";
  size_t inlen = used < size ? size - used : 0;
  fuzz_run_standalone(fuzz_memory_store(&fuzz_store), "/", argc, argv, in, inlen);
  free(copy);
  return 0;
}
