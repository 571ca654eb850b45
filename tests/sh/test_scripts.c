/*
 * test_scripts.c - runs the plain-text shell cases of tests/sh/cases (*.t).
 *
 * Format (one file holds many cases):
 *
 *     ### name of the case
 *     script lines...
 *     --- stdout
 *     expected stdout lines...
 *     --- stderr            (optional; when absent stderr is not checked)
 *     expected stderr lines...
 *     --- status N          (optional; default 0)
 *
 * Each case runs in a fresh in-memory sandbox through sbx_bash_ex (with the
 * EXIT trap, as a shell that exits), so the cases run under ASan like every
 * other C test, and once more with the shell in its own process
 * (SBX_OPEN_PROCESS): both isolation modes must give the same results. An
 * argument filters cases by name.
 */
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "sbx.h"

typedef struct tcase {
  char name[256];
  char *script, *out, *err;
  size_t slen, olen, elen;
  int status;
  bool check_err;
} tcase;

static void append(char **buf, size_t *len, const char *line) {
  size_t n = strlen(line);
  *buf = realloc(*buf, *len + n + 1);
  memcpy(*buf + *len, line, n + 1);
  *len += n;
}

static int run_case_mode(tcase *c, int mode) {
  sbx *h = NULL;
  if (sbx_open(NULL, SBX_OPEN_MEMORY | mode, &h) != SBX_OK) return 1;
  sbx_bash_opts o = {0};
  o.stdin_fd = -1;
  o.run_exit_trap = 1;
  sbx_bash_result r;
  sbx_bash_ex(h, c->script ? c->script : "", c->slen, &o, &r);
  int bad = 0;
  const char *want_out = c->out ? c->out : "";
  if (r.out_len != strlen(want_out) || memcmp(r.out, want_out, r.out_len) != 0) {
    fprintf(stderr, "  [%s] stdout:\n    got  \"%s\"\n    want \"%s\"\n", c->name, r.out, want_out);
    bad = 1;
  }
  if (c->check_err) {
    const char *want_err = c->err ? c->err : "";
    if (strcmp(r.err, want_err) != 0) {
      fprintf(stderr, "  [%s] stderr:\n    got  \"%s\"\n    want \"%s\"\n", c->name, r.err, want_err);
      bad = 1;
    }
  }
  if (r.exit_code != c->status) {
    fprintf(stderr, "  [%s] status: got %d, want %d (stderr: %s)\n", c->name, r.exit_code, c->status, r.err);
    bad = 1;
  }
  if (bad && mode) fprintf(stderr, "  [%s] (in process isolation)\n", c->name);
  sbx_bash_result_free(&r);
  sbx_close(h);
  return bad;
}

static int run_case(tcase *c) {
  return run_case_mode(c, 0) | run_case_mode(c, SBX_OPEN_PROCESS);
}

static void strip_blank(char *buf, size_t *len) {
  if (buf && *len >= 2 && buf[*len - 1] == '\n' && buf[*len - 2] == '\n') buf[--*len] = 0;
  else if (buf && *len == 1 && buf[0] == '\n') buf[--*len] = 0;
}

static void finish(tcase *c, const char *filter) {
  if (!c->name[0]) return;
  /* the blank line that separates cases belongs to no section */
  if (c->err) strip_blank(c->err, &c->elen);
  else if (c->out) strip_blank(c->out, &c->olen);
  else strip_blank(c->script, &c->slen);
  if (!filter || strstr(c->name, filter)) {
    harness_cur_failed = 0;
    if (run_case(c)) harness_cur_failed = 1;
    if (harness_cur_failed) {
      harness_failed++;
      fprintf(stderr, "FAIL %s\n", c->name);
    } else {
      harness_passed++;
    }
  }
  free(c->script);
  free(c->out);
  free(c->err);
  memset(c, 0, sizeof *c);
}

static void run_file(const char *path, const char *filter) {
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "cannot open %s\n", path);
    harness_failed++;
    return;
  }
  tcase c;
  memset(&c, 0, sizeof c);
  int section = 0; /* 0 script, 1 stdout, 2 stderr */
  char line[65536];
  while (fgets(line, sizeof line, f)) {
    if (!strncmp(line, "### ", 4)) {
      finish(&c, filter);
      snprintf(c.name, sizeof c.name, "%.*s", (int)strcspn(line + 4, "\n"), line + 4);
      section = 0;
      continue;
    }
    if (!c.name[0]) continue; /* preamble comments */
    if (!strncmp(line, "--- stdout", 10)) {
      section = 1;
      continue;
    }
    if (!strncmp(line, "--- stderr", 10)) {
      section = 2;
      c.check_err = true;
      continue;
    }
    if (!strncmp(line, "--- status ", 11)) {
      c.status = atoi(line + 11);
      section = 3;
      continue;
    }
    if (section == 0) append(&c.script, &c.slen, line);
    else if (section == 1) append(&c.out, &c.olen, line);
    else if (section == 2) append(&c.err, &c.elen, line);
  }
  finish(&c, filter);
  fclose(f);
}

static int cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int main(int argc, char **argv) {
  harness_init(argc, argv);
  const char *dir = "tests/sh/cases";
  DIR *d = opendir(dir);
  if (!d) {
    fprintf(stderr, "no %s (run from the repository root)\n", dir);
    printf("0 passed, 1 failed\n");
    return 1;
  }
  char *names[256];
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)) && n < 256) {
    size_t l = strlen(e->d_name);
    if (l > 2 && !strcmp(e->d_name + l - 2, ".t")) names[n++] = strdup(e->d_name);
  }
  closedir(d);
  qsort(names, (size_t)n, sizeof *names, cmp);
  for (int i = 0; i < n; i++) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    run_file(path, harness_filter);
    free(names[i]);
  }
  return harness_done();
}
