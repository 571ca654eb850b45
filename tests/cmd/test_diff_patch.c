/*
 * test_diff_patch.c - diff and patch agree with each other: for random pairs
 * of files, `diff` in each format followed by `patch` turns the first file
 * into the second, also when lines were added in front (offsets) and in
 * reverse (-R). Runs the real commands over an in-memory store.
 */
#include <errno.h>

#include "cmd/cmd.h"
#include "cmd_testutil.h"
#include "harness.h"

static store *st;
static unsigned rng_state = 12345;

static unsigned rnd(void) {
  rng_state = rng_state * 1103515245u + 12345u;
  return (rng_state >> 16) & 0x7fff;
}

static char *random_text(size_t *len, const char *base, size_t baselen) {
  static const char *const words[] = {"alpha", "beta", "gamma", "", "}", "{", "x = 1;", "beta"};
  char *out = malloc(8192);
  size_t n = 0;
  if (base) {
    /* an edited copy of base: drop, insert and replace lines */
    const char *p = base, *end = base + baselen;
    while (p < end && n < 7000) {
      const char *nl = memchr(p, '\n', (size_t)(end - p));
      size_t l = nl ? (size_t)(nl - p) + 1 : (size_t)(end - p);
      unsigned r = rnd() % 10;
      if (r == 0) { p += l; continue; }
      if (r == 1) n += (size_t)sprintf(out + n, "%s\n", words[rnd() % 8]);
      if (r == 2) { n += (size_t)sprintf(out + n, "%s\n", words[rnd() % 8]); p += l; continue; }
      memcpy(out + n, p, l);
      n += l;
      p += l;
    }
  } else {
    int lines = (int)(rnd() % 40);
    for (int i = 0; i < lines; i++) n += (size_t)sprintf(out + n, "%s\n", words[rnd() % 8]);
  }
  *len = n;
  return out;
}

static int run(char **argv, const char *in, size_t inlen, char **out, size_t *outlen) {
  int argc = 0;
  while (argv[argc]) argc++;
  cmd_standalone_result r;
  cmd_run_standalone(st, "/w", argc, argv, in, inlen, &r);
  if (out) *out = r.out, *outlen = r.outlen;
  else free(r.out);
  free(r.err);
  return r.status;
}

static bool file_is(const char *path, const char *data, size_t len) {
  char *got;
  size_t n;
  if (store_path_read_file(st, "/w", path, (void **)&got, &n) < 0) return false;
  bool ok = n == len && memcmp(got, data, len) == 0;
  free(got);
  return ok;
}

TEST(diff_then_patch_reproduces_the_new_file) {
  const char *formats[][2] = {{"-u", NULL}, {"-c", NULL}, {"-U1", NULL}, {NULL, NULL}};
  int failures = 0;
  for (int round = 0; round < 150; round++) {
    size_t la, lb;
    char *a = random_text(&la, NULL, 0);
    char *b = random_text(&lb, a, la);
    for (int f = 0; f < 4; f++) {
      store_path_remove_tree(st, "/", "/w");
      store_path_mkdir_p(st, "/", "/w", 0755);
      store_path_write_file(st, "/w", "a", a, la, 0644, 0);
      store_path_write_file(st, "/w", "b", b, lb, 0644, 0);
      char *diff;
      size_t dl;
      char *dargv[] = {"diff", (char *)formats[f][0], "a", "b", NULL};
      if (!formats[f][0]) dargv[1] = "a", dargv[2] = "b", dargv[3] = NULL;
      int ds = run(dargv, NULL, 0, &diff, &dl);
      if (ds == 0) { free(diff); continue; }
      char *pargv[] = {"patch", "-s", "a", NULL};
      int ps = run(pargv, diff, dl, NULL, NULL);
      if (ps != 0 || !file_is("a", b, lb)) {
        if (failures++ < 3) fprintf(stderr, "  round %d format %s: patch status %d\n", round,
                                    formats[f][0] ? formats[f][0] : "normal", ps);
      }
      /* and back again with -R */
      char *rargv[] = {"patch", "-s", "-R", "a", NULL};
      ps = run(rargv, diff, dl, NULL, NULL);
      if (ps != 0 || !file_is("a", a, la)) {
        if (failures++ < 3) fprintf(stderr, "  round %d format %s: patch -R status %d\n", round,
                                    formats[f][0] ? formats[f][0] : "normal", ps);
      }
      free(diff);
    }
    free(a);
    free(b);
  }
  CHECK_EQ(failures, 0);
}

TEST(patch_applies_with_an_offset) {
  store_path_remove_tree(st, "/", "/w");
  store_path_mkdir_p(st, "/", "/w", 0755);
  const char *a = "1\n2\n3\n4\n5\n6\n7\n8\n9\n", *b = "1\n2\n3\n4\nfive\n6\n7\n8\n9\n";
  store_path_write_file(st, "/w", "a", a, strlen(a), 0644, 0);
  store_path_write_file(st, "/w", "b", b, strlen(b), 0644, 0);
  char *diff;
  size_t dl;
  REQUIRE(run((char *[]){"diff", "-u", "a", "b", NULL}, NULL, 0, &diff, &dl) == 1);
  const char *shifted = "x\ny\nz\n1\n2\n3\n4\n5\n6\n7\n8\n9\n";
  store_path_write_file(st, "/w", "a", shifted, strlen(shifted), 0644, 0);
  char *out;
  size_t ol;
  CHECK_EQ(run((char *[]){"patch", "a", NULL}, diff, dl, &out, &ol), 0);
  CHECK_STR(out, "patching file a\nHunk #1 succeeded at 5 (offset 3 lines).\n");
  CHECK(file_is("a", "x\ny\nz\n1\n2\n3\n4\nfive\n6\n7\n8\n9\n", 27));
  CHECK(file_is("a.orig", shifted, strlen(shifted)));
  free(out);
  free(diff);
}

TEST(patch_failure_leaves_the_file_and_writes_rejects) {
  store_path_remove_tree(st, "/", "/w");
  store_path_mkdir_p(st, "/", "/w", 0755);
  const char *p = "--- a\n+++ b\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n";
  store_path_write_file(st, "/w", "a", "uno\ndos\ntres\n", 13, 0644, 0);
  char *out;
  size_t ol;
  CHECK_EQ(run((char *[]){"patch", NULL}, p, strlen(p), &out, &ol), 1);
  CHECK_STR(out, "patching file a\nHunk #1 FAILED at 1.\n1 out of 1 hunk FAILED -- saving rejects to file a.rej\n");
  CHECK(file_is("a", "uno\ndos\ntres\n", 13));
  CHECK(file_is("a.rej", p, strlen(p)));
  free(out);
}

/* Hunk numbers at the edge of a long: GNU patch's messages, no signed
 * overflow (under UBSan the old code aborted on each of these). */
TEST(patch_line_numbers_near_the_largest_long) {
  static const struct {
    const char *hunk;  /* the @@ line */
    int status;        /* patch's exit status */
    const char *file;  /* f afterwards */
  } cases[] = {
      {"@@ -9223372036854775807,1 +9223372036854775807,1 @@", 2, "a\nb\n"},
      {"@@ -99999999999999999999,1 +1,1 @@", 2, "a\nb\n"},
      {"@@ -1,9223372036854775807 +1,1 @@", 2, "a\nb\n"},
      {"@@ -9223372036854775800,1 +1,1 @@", 0, "c\nb\n"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    store_path_remove_tree(st, "/", "/w");
    store_path_mkdir_p(st, "/", "/w", 0755);
    store_path_write_file(st, "/w", "f", "a\nb\n", 4, 0644, 0);
    char p[256];
    int n = snprintf(p, sizeof p, "--- f\n+++ f\n%s\n-a\n+c\n", cases[i].hunk);
    CHECK_EQ(run((char *[]){"patch", "-p0", NULL}, p, (size_t)n, NULL, NULL), cases[i].status);
    CHECK(file_is("f", cases[i].file, strlen(cases[i].file)));
  }
}

int main(int argc, char **argv) {
  harness_init(argc, argv);
  if (!(st = cmd_test_store())) return 1;
  RUN(diff_then_patch_reproduces_the_new_file);
  RUN(patch_applies_with_an_offset);
  RUN(patch_failure_leaves_the_file_and_writes_rejects);
  RUN(patch_line_numbers_near_the_largest_long);
  store_close(st);
  return harness_done();
}
