/*
 * fuzz_awk.c - libFuzzer target for the awk command: parser plus a bounded run.
 *
 * The input is "program NUL record-data": the program is parsed and run over
 * the data as standard input. The minimal cmd_io of fuzz_common.h serves stdin from memory,
 * discards output, refuses files, pipes and commands, and its poll() answers
 * "stop" after a fixed number of calls, so programs that loop forever end
 * through the same path the shell's timeout uses. No store is needed.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const uint8_t *nul = memchr(data, 0, size);
  size_t plen = nul ? (size_t)(nul - data) : size;
  char *prog = fuzz_strdup(data, plen);
  if (!prog) return 0;
  char *argv[] = {"awk", "--", prog, NULL};
  if (nul)
    fuzz_run_in_memory(3, argv, nul + 1, size - plen - 1, 1u << 20);
  else
    fuzz_run_in_memory(3, argv, NULL, 0, 1u << 20);
  free(prog);
  return 0;
}
