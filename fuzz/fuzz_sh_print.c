/*
 * fuzz_sh_print.c - libFuzzer target for the shell's printer (print.c): any
 * bytes are parsed command by command, and each command is printed the two
 * ways the shell prints code - as a background job's text for `jobs` (capped
 * at SH_JOB_TEXT_MAX) and as the body of a function for `declare -f`. The
 * printer must never crash, leak, overflow its stack or exceed the cap.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_sh_common.h"
#include "sh/builtins.h"
#include "sh/parse.h"

static void print_node(sh_node *node) {
  int n = 0;
  char **texts = sh_job_texts(NULL, node, SH_JOB_TEXT_MAX, &n);
  size_t total = 0;
  for (int i = 0; i < n; i++) {
    total += strlen(texts[i]);
    free(texts[i]);
  }
  free(texts);
  if (total > SH_JOB_TEXT_MAX) abort(); /* the cap holds */
  sh_funcdef def;
  memset(&def, 0, sizeof def);
  def.name = "f";
  def.body = node;
  sh_func f = {.name = "f", .def = &def};
  free(sh_func_text(NULL, &f));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_sh_parse_each(data, size, NULL, print_node);
  return 0;
}
