/*
 * fuzz_od_types.c - libFuzzer target for od's -t TYPE parser and layout.
 *
 * Input: a TYPE string (up to the first NUL), a width byte, then the data to
 * dump. Runs `od -t TYPE -w N` (N from the width byte, sometimes absent)
 * over the data through cmd_run_standalone; crashes, sanitizer reports and
 * leaks are bugs.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"

static store *fuzz_store;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 4096) return 0;
  const uint8_t *nul = memchr(data, 0, size);
  if (!nul || (size_t)(nul - data) > 64) return 0;
  char type[72];
  memcpy(type, data, (size_t)(nul - data));
  type[nul - data] = 0;
  size_t rest = size - (size_t)(nul - data) - 1;
  const uint8_t *p = nul + 1;
  char width[16] = "";
  if (rest > 0) {
    if (p[0] & 0x80) snprintf(width, sizeof width, "-w%d", (p[0] & 0x7f) + 1);
    p++;
    rest--;
  }
  char *argv[8];
  int argc = 0;
  argv[argc++] = "od";
  argv[argc++] = "-t";
  argv[argc++] = type;
  if (*width) argv[argc++] = width;
  argv[argc] = NULL;
  fuzz_run_standalone(fuzz_memory_store(&fuzz_store), "/", argc, argv, p, rest);
  return 0;
}
