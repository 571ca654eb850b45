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

#include "fuzz_common.h"

static store *fuzz_store;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 4096) return 0;
  char *copy = fuzz_strdup(data, size);
  if (!copy) return 0;
  char *argv[18];
  int argc = 0;
  argv[argc++] = "printf";
  argc += fuzz_split_fields(copy, size, argv + 1, 16, NULL);
  argv[argc] = NULL;
  fuzz_run_standalone(fuzz_memory_store(&fuzz_store), "/", argc, argv, "", 0);
  free(copy);
  return 0;
}
