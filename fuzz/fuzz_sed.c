/*
 * fuzz_sed.c - libFuzzer target for sed's script compiler and executor.
 *
 * Input: byte 0 picks options (-n, -E, -z, -s, --posix), the rest is the
 * script. It runs as `sed OPTIONS -e SCRIPT in1 in2` over a small in-memory
 * store, so the parser sees every byte sequence and the executor runs what
 * compiles (w files land in the store; loops end at sed's jump bound).
 * Crashes, sanitizer reports and leaks are findings; exit statuses are not.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "store/store.h"

static store *fz_store;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1 || size > 4096) return 0;
  if (!fz_store) {
    fuzz_memory_store(&fz_store);
    store_path_mkdir_p(fz_store, "/", "/w", 0755);
    const char *a = "abc\nhello world\n\nfoo bar baz\n";
    const char *b = "x\0y\nlast line without newline";
    store_path_write_file(fz_store, "/", "/w/in1", a, strlen(a), 0644, 0);
    store_path_write_file(fz_store, "/", "/w/in2", b, 30, 0644, 0);
  }
  /* argv strings end at the first NUL, as from a shell */
  char *script = fuzz_strdup(data + 1, size - 1);
  if (!script) return 0;
  char *argv[12];
  int argc = 0;
  argv[argc++] = "sed";
  if (data[0] & 1) argv[argc++] = "-n";
  if (data[0] & 2) argv[argc++] = "-E";
  if (data[0] & 4) argv[argc++] = "-z";
  if (data[0] & 8) argv[argc++] = "-s";
  if (data[0] & 16) argv[argc++] = "--posix";
  argv[argc++] = "-e";
  argv[argc++] = script;
  argv[argc++] = "in1";
  argv[argc++] = "in2";
  argv[argc] = NULL;
  /* Scripts that loop forever (":a;s/^/ /;ta") are stopped the way the
   * shell stops them: a deadline seen through cmd_poll, and bounded sizes. */
  cmd_limits lim = {.max_ms = 200, .max_out = 1 << 20, .max_string = 1 << 20};
  fuzz_run_limited(fz_store, "/w", argc, argv, "stdin line\n", 11, &lim);
  free(script);
  return 0;
}
