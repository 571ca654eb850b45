/*
 * fuzz_yq.c - libFuzzer target for yq's YAML-to-JSON path: libyaml's events
 * through yq's loader (scalar resolution, tags, anchors and aliases, merge
 * keys, several documents) into jq values, then back out through yq's
 * PyYAML-style emitter or jq's JSON text.
 *
 * The input is "FLAGS YAML": bit 0 of the first byte selects JSON output
 * (-c) instead of YAML, bit 1 -s (slurp the documents), bit 2
 * --indentless-lists, bit 3 -w 20 (folding), bit 4 YAML 1.2 output grammar;
 * the filter is always "." so the whole loaded value is emitted. It runs
 * through cmd_run_limited: cmd_poll() fires after 200 ms (alias bombs stop
 * there), stdout is capped at 1 MiB and the string limit is 1 MiB.
 *
 * The jq engine is sbx's own (src/cmd/jq/), so LeakSanitizer checks the
 * whole path with no suppressions.
 */
#include <stdint.h>

#include "fuzz_common.h"

static store *fz_store;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1 || size > 8192) return 0;
  if (!fz_store) store_path_mkdir(fuzz_memory_store(&fz_store), "/", "/w", 0755);
  uint8_t flags = data[0];
  char *argv[16];
  int argc = 0;
  argv[argc++] = "yq";
  if (flags & 1) argv[argc++] = "-c";
  if (flags & 2) argv[argc++] = "-s";
  if (flags & 4) argv[argc++] = "--indentless-lists";
  if (flags & 8) argv[argc++] = "-w", argv[argc++] = "20";
  if (flags & 16) argv[argc++] = "--yaml-output-grammar-version", argv[argc++] = "1.2";
  argv[argc++] = ".";
  argv[argc] = NULL;

  cmd_limits lim = {200, 1u << 20, 1u << 20, NULL};
  fuzz_run_limited(fz_store, "/w", argc, argv, data + 1, size - 1, &lim);
  return 0;
}
