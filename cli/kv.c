/*
 * kv.c - `sbx DB kv get|set|del|keys`: the sandbox's key-value store.
 *
 * Values are JSON text, printed as stored (one value per line). The sandbox
 * is opened here rather than by main() (CLI_NOOPEN) because only `set`
 * should create a missing database; reads of a mistyped path must fail.
 * No getopt: a JSON value such as -1 must not be taken for an option.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static int kv_get(cli_ctx *c, const char *key) {
  char *json;
  if (sbx_kv_get(c->h, key, &json) != SBX_OK) return cli_fail(c, "kv get", key);
  printf("%s\n", json);
  sbx_free(json);
  return 0;
}

static int kv_set(cli_ctx *c, const char *key, const char *value) {
  char *owned = NULL;
  if (strcmp(value, "-") == 0) {
    size_t len;
    int e = cli_read_fd(0, &owned, &len);
    if (e) return cli_error("kv set %s: reading stdin: %s", key, strerror(e));
    if (strlen(owned) != len) {
      free(owned);
      return cli_error("kv set %s: the value contains a NUL byte", key);
    }
    value = owned;
  }
  int rc = sbx_kv_set(c->h, key, value);
  free(owned);
  return rc == SBX_OK ? 0 : cli_fail(c, "kv set", key);
}

static int kv_keys(cli_ctx *c, const char *prefix) {
  char **keys;
  size_t n;
  if (sbx_kv_keys(c->h, prefix, &keys, &n) != SBX_OK) return cli_fail(c, "kv keys", prefix);
  for (size_t i = 0; i < n; i++) printf("%s\n", keys[i]);
  sbx_free(keys);
  return 0;
}

int cli_kv_main(cli_ctx *c, int argc, char **argv) {
  if (argc < 2) return cli_usage("kv");
  const char *op = argv[1];
  int nargs = argc - 2;
  int is_set = strcmp(op, "set") == 0;
  int is_del = strcmp(op, "del") == 0 || strcmp(op, "delete") == 0;
  if (!(is_set && nargs == 2) && !(is_del && nargs == 1) &&
      !(strcmp(op, "get") == 0 && nargs == 1) && !(strcmp(op, "keys") == 0 && nargs <= 1))
    return cli_usage("kv");
  if (cli_open(c, is_set) != 0) return 1;
  if (is_set) return kv_set(c, argv[2], argv[3]);
  if (is_del) return sbx_kv_delete(c->h, argv[2]) == SBX_OK ? 0 : cli_fail(c, "kv del", argv[2]);
  if (strcmp(op, "get") == 0) return kv_get(c, argv[2]);
  return kv_keys(c, nargs == 1 ? argv[2] : "");
}
