/*
 * fuzz_sh_arith.c - libFuzzer target for shell arithmetic, differential: the
 * input becomes an arithmetic expression (each byte picks a character of
 * arithmetic's alphabet: digits, names, operators, brackets, blanks), which
 * a script evaluates three times in $((...)) and in ((...)) over variables
 * of every kind. The script runs twice in fresh sandboxes, once with the
 * cache of recorded programs (arith.c) and once with the text evaluator
 * alone; stdout, stderr and the status must be the same, and neither run
 * may crash, leak or hang.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sbx.h"
#include "sh/arith.h"

/* What a byte becomes. Names are the script's variables; no $ or quotes, so
 * the text stays literal (the texts the cache keeps). */
static const char *const atoms[] = {
    "0", "1", "2", "7", "10", "64", "0x1f", "017", "2#101", "36#z", "9223372036854775807",
    "x", "y", "z", "n", "u", "s", "a", "a[1]", "a[-1]", "a[n]", "m[k]", "r", "ro",
    "+", "-", "*", "/", "%", "**", "<<", ">>", "<", ">", "<=", ">=", "==", "!=",
    "&", "|", "^", "&&", "||", "!", "~", "?", ":", ",", "=", "+=", "-=", "*=", "/=",
    "%=", "<<=", ">>=", "&=", "|=", "^=", "++", "--", "(", ")", "[", "]", " ", "@", "#",
};

static int run(const char *script, bool cache_off, sbx_bash_result *r) {
  sbx *h;
  if (sbx_open(NULL, SBX_OPEN_MEMORY, &h) != SBX_OK) abort();
  sbx_limits lim;
  sbx_limits_preset(SBX_PRESET_STRICT, &lim);
  lim.output_bytes = 1 << 16;
  sbx_set_limits(h, &lim);
  sh_arith_cache_off = cache_off;
  int rc = sbx_bash(h, script, strlen(script), r);
  sh_arith_cache_off = false;
  sbx_close(h);
  return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 64) return 0;
  char expr[64 * 24] = "";
  size_t n = 0;
  for (size_t i = 0; i < size; i++) {
    const char *a = atoms[data[i] % (sizeof atoms / sizeof atoms[0])];
    size_t l = strlen(a);
    memcpy(expr + n, a, l);
    n += l;
  }
  expr[n] = 0;
  if (strstr(expr, "))")) return 0; /* would close the $(( early: not arithmetic */
  char script[4096];
  snprintf(script, sizeof script,
           "x=3 y=-2 z='x+1' n=1 s=abc k=q; a=(4 5 6); declare -A m=([q]=8); declare -n r=x; "
           "readonly ro=5\n"
           "f() { echo \"$(( %s ))\"; (( %s )); echo \"$? $x $y $n ${a[*]} ${m[q]} ${u-unset}\"; }\n"
           "f; f; f\n",
           expr, expr);
  sbx_bash_result text, cached;
  int rt = run(script, true, &text), rc = run(script, false, &cached);
  if (rt != rc || text.exit_code != cached.exit_code || strcmp(text.out, cached.out) != 0 ||
      strcmp(text.err, cached.err) != 0) {
    fprintf(stderr, "fuzz_sh_arith: the cache differs for: %s\n--- text [%d]\n%s%s--- cached [%d]\n%s%s", expr,
            text.exit_code, text.out, text.err, cached.exit_code, cached.out, cached.err);
    abort();
  }
  sbx_bash_result_free(&text);
  sbx_bash_result_free(&cached);
  return 0;
}
