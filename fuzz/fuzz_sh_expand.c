/*
 * fuzz_sh_expand.c - libFuzzer target for word expansion and execution: the
 * input becomes the words of an `echo` (and of an assignment and a case
 * pattern) run by a real shell session over an in-memory sandbox with strict
 * limits and a short timeout. Whatever the bytes, the shell must end with a
 * status (possibly a limit), never crash, leak or hang.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sbx.h"

static sbx *h;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 4096) return 0;
  if (!h) {
    if (sbx_open(NULL, SBX_OPEN_MEMORY, &h) != SBX_OK) abort();
    sbx_limits lim;
    sbx_limits_preset(SBX_PRESET_STRICT, &lim);
    lim.timeout_ms = 300;
    lim.output_bytes = 1 << 16;
    lim.string_size = 1 << 16;
    lim.array_size = 1000;
    sbx_set_limits(h, &lim);
  }
  /* the bytes (NULs and newlines removed) as words in three contexts */
  char *w = malloc(size + 1);
  size_t n = 0;
  for (size_t i = 0; i < size; i++)
    if (data[i] && data[i] != '\n') w[n++] = (char)data[i];
  w[n] = 0;
  size_t cap = 3 * n + 128;
  char *script = malloc(cap);
  int len = snprintf(script, cap, "x=a; y=(1 2 3); echo %s\nv=%s\ncase $x in %s) :;; esac\n", w, w, w);
  sbx_bash_result r;
  sbx_bash(h, script, (size_t)len, &r);
  sbx_bash_result_free(&r);
  sbx_shell_reset(h);
  free(script);
  free(w);
  return 0;
}
