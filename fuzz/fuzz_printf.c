/*
 * fuzz_printf.c - libFuzzer target for the printf builtin/command.
 *
 * Input: the format, then arguments, separated by NUL bytes (at most 16
 * arguments). Runs `printf FORMAT ARGS...` through cmd_run_standalone over a
 * small in-memory store created once. Any crash, sanitizer report or hang is
 * a bug; outputs are discarded. The max_string bound keeps "%999999999d"
 * from allocating.
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
  char *argv[18];
  int argc = 0;
  argv[argc++] = "printf";
  for (size_t i = 0; i <= size && argc < 17;) {
    argv[argc++] = copy + i;
    i += strlen(copy + i) + 1;
  }
  argv[argc] = NULL;
  cmd_standalone_result res;
  cmd_run_standalone(fuzz_store, "/", argc, argv, "", 0, &res);
  free(res.out);
  free(res.err);
  free(copy);
  return 0;
}
