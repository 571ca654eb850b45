/*
 * fuzz_find_expr.c - libFuzzer target for find's expression parser and
 * evaluator.
 *
 * Input: arguments separated by NUL bytes (at most 32). Each input is first
 * parsed with find's parse-only mode (find_state_new/find_parse_expr: no
 * files opened, nothing printed), then, unless it contains an action that
 * runs commands, deletes or writes files, evaluated by running
 * `find /f ARGS...` through cmd_run_standalone over a small in-memory tree
 * (files, a directory, a symlink loop) created once. Crashes, sanitizer
 * reports, leaks and hangs are bugs; outputs are discarded.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "cmd/find.h"

static store *fuzz_store;

static void setup(void) {
  fuzz_memory_store(&fuzz_store);
  store_path_write_file(fuzz_store, "/", "/f/a.txt", "hello\n", 6, 0644, STORE_WRITE_MKDIRS);
  store_path_write_file(fuzz_store, "/", "/f/d/b.c", "int x;\n", 7, 0755, STORE_WRITE_MKDIRS);
  store_path_write_file(fuzz_store, "/", "/f/d/e/empty", "", 0, 0600, STORE_WRITE_MKDIRS);
  store_path_symlink(fuzz_store, "/", "..", "/f/d/up");
  store_path_symlink(fuzz_store, "/", "nowhere", "/f/dangling");
}

static bool dangerous(const char *a) {
  static const char *const bad[] = {"-exec", "-execdir", "-ok", "-okdir", "-delete",
                                    "-fprint", "-fprint0", "-fprintf", "-fls", NULL};
  for (int i = 0; bad[i]; i++)
    if (!strcmp(a, bad[i])) return true;
  return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 2048) return 0;
  if (!fuzz_store) setup();
  char *copy = fuzz_strdup(data, size);
  if (!copy) return 0;
  char *argv[40];
  int argc = 0;
  argv[argc++] = "find";
  argv[argc++] = "/f";
  bool skip_run = false;
  for (size_t i = 0; i < size && argc < 34;) {
    argv[argc] = copy + i;
    if (dangerous(argv[argc])) skip_run = true;
    argc++;
    i += strlen(copy + i) + 1;
  }
  argv[argc] = NULL;

  /* parse only */
  cmd_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  ctx.store = fuzz_store;
  ctx.cwd = "/";
  ctx.name = "find";
  ctx.arena = cmd_arena_new();
  ctx.max_string = 1 << 20;
  find_state *f = find_state_new(&ctx, argc - 2, argv + 2, true);
  if (f) {
    find_parse_expr(f);
    find_state_free(f);
  }
  cmd_arena_free(ctx.arena);

  if (!skip_run) {
    fuzz_run_standalone(fuzz_store, "/", argc, argv, "", 0);
  }
  free(copy);
  return 0;
}
