/*
 * fuzz_jq.c - libFuzzer target for jq (sbx's own jq 1.8 engine in
 * src/cmd/jq/): option letters, program parse/compile and a bounded run over
 * a small input.
 *
 * The input is "FLAGS PROGRAM NUL INPUT": the first byte selects options
 * (bit 0 -c, 1 -r, 2 -s, 3 -n, 4 -S, 5 -a, 6 -R, 7 --seq), then the program
 * up to the first NUL, then standard input. It runs through cmd_run_limited:
 * cmd_poll() fires after 200 ms (the engine polls it every few thousand
 * steps), stdout is capped at 1 MiB (a closed pipe), and the string limit is
 * 1 MiB so the memory budget is 32 MiB. A file "f.json" is in the working
 * directory for --slurpfile/input tests in seeds. No leak suppressions: the
 * engine is ours, so LeakSanitizer checks all of it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"

static store *fz_store;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1 || size > 4096) return 0;
  if (!fz_store) {
    fuzz_memory_store(&fz_store);
    store_path_write_file(fz_store, "/", "/w/f.json", "{\"a\":[1,2,{\"b\":null}]}\n", 23, 0644,
                          STORE_WRITE_MKDIRS);
  }
  uint8_t flags = data[0];
  const uint8_t *prog = data + 1, *nul = memchr(prog, 0, size - 1);
  size_t plen = nul ? (size_t)(nul - prog) : size - 1;
  /* a leading blank keeps a program like "-1" from reading as an option */
  char *program = malloc(plen + 2);
  if (!program) return 0;
  program[0] = ' ';
  memcpy(program + 1, prog, plen);
  program[plen + 1] = '\0';
  const char *in = nul ? (const char *)nul + 1 : "";
  size_t inlen = nul ? size - 1 - plen - 1 : 0;

  char *argv[16];
  int argc = 0;
  argv[argc++] = "jq";
  static const char *const opt[] = {"-c", "-r", "-s", "-n", "-S", "-a", "-R", "--seq"};
  for (int i = 0; i < 8; i++)
    if (flags & (1u << i)) argv[argc++] = (char *)opt[i];
  argv[argc++] = program;
  argv[argc] = NULL;

  cmd_limits lim = {200, 1u << 20, 1u << 20, NULL};
  /* statuses jq can give: 0..5, halt_error's code, 130 stop, 141 pipe */
  fuzz_run_limited(fz_store, "/w", argc, argv, in, inlen, &lim);
  free(program);
  return 0;
}
