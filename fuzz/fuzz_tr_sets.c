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

#include "cmd/cmd.h"

static store *fuzz_store;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 4096) return 0;
  if (!fuzz_store) {
    char *err = NULL;
    if (store_open(NULL, STORE_OPEN_MEMORY, &fuzz_store, &err) < 0) abort();
  }
  char *copy = malloc(size + 1);
  if (!copy) return 0;
  memcpy(copy, data, size);
  copy[size] = 0;
  char *parts[3] = {copy, "", ""};
  size_t used = 0;
  for (int k = 0; k < 3 && used <= size; k++) {
    parts[k] = copy + used;
    used += strlen(copy + used) + 1;
  }
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
  cmd_standalone_result res;
  cmd_run_standalone(fuzz_store, "/", argc, argv, in, inlen, &res);
  free(res.out);
  free(res.err);
  free(copy);
  return 0;
}
