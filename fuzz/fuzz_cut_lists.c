/*
 * fuzz_cut_lists.c - libFuzzer target for cut's LIST parser
 * (src/cmd/cut/cut_list.c) and the cut command.
 *
 * Input: a LIST (up to the first NUL), then lines of data. The parsed ranges
 * must be sorted and non-overlapping (checked: abort otherwise), with and
 * without --complement; then `cut -f LIST -d :` and `cut -b LIST` run over
 * the data through cmd_run_standalone.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "cmd/cut/cut_list.h"

static store *fuzz_store;

static void check(const cmd_ranges *r) {
  for (size_t i = 0; i < r->n; i++) {
    if (r->v[i].lo == 0 || r->v[i].lo > r->v[i].hi) abort();
    if (i && r->v[i].lo <= r->v[i - 1].hi) abort();
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 4096) return 0;
  const uint8_t *nul = memchr(data, 0, size);
  if (!nul) return 0;
  size_t ll = (size_t)(nul - data);
  char *list = fuzz_strdup(data, ll);
  if (!list) return 0;
  size_t errlen = ll * 4 + 128;
  char *errbuf = malloc(errlen);
  if (!errbuf) {
    free(list);
    return 0;
  }
  for (unsigned flags = 0; flags < 4; flags++) {
    cmd_ranges r;
    const char *msg;
    if (cmd_ranges_parse(list, flags, &r, &msg, errbuf, errlen) == 0) {
      check(&r);
      cmd_ranges_free(&r);
    } else if (!msg) {
      abort();
    }
  }
  free(errbuf);
  char *argv1[] = {"cut", "-d", ":", "-f", list, NULL};
  char *argv2[] = {"cut", "-b", list, "--output-delimiter=|", NULL};
  store *s = fuzz_memory_store(&fuzz_store);
  fuzz_run_standalone(s, "/", 5, argv1, nul + 1, size - ll - 1);
  fuzz_run_standalone(s, "/", 4, argv2, nul + 1, size - ll - 1);
  free(list);
  return 0;
}
