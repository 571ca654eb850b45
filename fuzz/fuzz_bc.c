/*
 * fuzz_bc.c - libFuzzer target for bc: lexer, parser, code generation and a
 * bounded run of the program.
 *
 * The input is "FLAGS PROGRAM": bit 0 of the first byte selects -l (the
 * math library), the rest is the program on standard input. It runs
 * through cmd_run_limited: cmd_poll() fires after 200 ms (loops and long
 * computations stop there), stdout is capped at 1 MiB, and the string
 * limit of 64 KiB caps numbers at 65536 digits and the memory account at
 * 64 MiB, so every input ends quickly and in bounded memory.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/util_limited.h"

static store *fz_store;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1 || size > 8192) return 0;
  if (!fz_store) {
    char *err = NULL;
    if (store_open(NULL, STORE_OPEN_MEMORY, &fz_store, &err) < 0) abort();
  }
  char *argv[] = {"bc", (data[0] & 1) ? "-l" : NULL, NULL};
  int argc = (data[0] & 1) ? 2 : 1;
  cmd_limits lim = {200, 1u << 20, 1u << 16, NULL};
  cmd_standalone_result r;
  cmd_run_limited(fz_store, "/", argc, argv, data + 1, size - 1, &lim, &r, NULL);
  free(r.out);
  free(r.err);
  return 0;
}
