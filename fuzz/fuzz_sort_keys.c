/*
 * fuzz_sort_keys.c - libFuzzer target for sort's KEYDEF parser and
 * comparisons (src/cmd/sort/sort_keys.c).
 *
 * Input: a first line of sort options to apply ("-k2,3n", "-t:", "-r",
 * ordering letters), then lines to compare. Each KEYDEF is parsed; then every
 * pair of lines is compared both ways and the results must be antisymmetric
 * (sign(cmp(a,b)) == -sign(cmp(b,a))) and reflexive (cmp(a,a) == 0 without
 * -R salts mattering): a violation aborts, since a merge sort over an
 * inconsistent order would misbehave. Finally the whole input runs through
 * the sort command itself over an in-memory store.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "cmd/sort/sort_keys.h"

static store *fuzz_store;

static int sign(int x) { return (x > 0) - (x < 0); }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 2048) return 0;
  const char *nl = memchr(data, '\n', size);
  if (!nl) return 0;
  size_t optlen = (size_t)(nl - (const char *)data);
  char *opts = strndup((const char *)data, optlen);
  if (!opts) return 0;

  sort_keys k;
  memset(&k, 0, sizeof k);
  k.tab = SORT_TAB_DEFAULT;
  char *argv[20];
  int argc = 0;
  argv[argc++] = "sort";
  for (char *tok = strtok(opts, " "); tok && argc < 19; tok = strtok(NULL, " ")) {
    argv[argc++] = tok;
    if (tok[0] == '-' && tok[1] == 'k' && k.nkeys < SORT_MAX_KEYS) {
      sort_key key;
      memset(&key, 0, sizeof key);
      const char *msg, *at;
      bool count_err;
      if (sort_parse_keydef(tok + 2, &key, &msg, &count_err, &at) == 0)
        k.keys[k.nkeys++] = key;
    } else if (tok[0] == '-' && tok[1] == 't' && tok[2] && !tok[3]) {
      k.tab = (unsigned char)tok[2];
    }
  }
  argv[argc] = NULL;
  /* -R would make the order depend on a salt; keep it out of the property. */
  for (int i = 0; i < k.nkeys; i++) {
    k.keys[i].random = false;
    char letters[16];
    if (sort_key_incompatible(&k.keys[i], letters)) k.keys[i].general_numeric = false;
  }

  const char *lines[32];
  size_t lens[32];
  int n = 0;
  const char *p = nl + 1, *end = (const char *)data + size;
  while (p < end && n < 32) {
    const char *e = memchr(p, '\n', (size_t)(end - p));
    if (!e) e = end;
    lines[n] = p;
    lens[n] = (size_t)(e - p);
    n++;
    p = e + 1;
  }
  for (int i = 0; i < n; i++) {
    if (sort_compare(&k, lines[i], lens[i], lines[i], lens[i]) != 0) abort();
    for (int j = i + 1; j < n; j++) {
      int a = sign(sort_compare(&k, lines[i], lens[i], lines[j], lens[j]));
      int b = sign(sort_compare(&k, lines[j], lens[j], lines[i], lens[i]));
      if (a != -b) abort();
    }
  }
  sort_keys_free(&k);

  fuzz_run_standalone(fuzz_memory_store(&fuzz_store), "/", argc, argv, nl + 1,
                      (size_t)(end - (nl + 1)));
  free(opts);
  return 0;
}
