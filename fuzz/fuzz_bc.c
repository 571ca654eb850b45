/*
 * fuzz_bc.c - libFuzzer target for the bc command: parser plus a bounded run.
 *
 * The input is a bc program read from standard input; its first byte picks
 * the options (odd: -l, the math library; -q always).
 * The minimal cmd_io of fuzz_common.h serves stdin from memory, discards output, refuses
 * files, and its poll() answers "stop" after a fixed number of calls, so
 * loops and huge computations end through the shell's timeout path;
 * ctx.max_string bounds the digits of any number. No store is needed.
 */
#include <stdint.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0) return 0;
  char *argv[] = {"bc", "-q", (data[0] & 1) ? "-l" : NULL, NULL};
  fuzz_run_in_memory((data[0] & 1) ? 3 : 2, argv, data + 1, size - 1, 1u << 16);
  return 0;
}
