/*
 * test_grep_sed.c - grep and sed over a real (in-memory) store through
 * cmd_run_standalone: what the .t files cannot show before the shell exists
 * or at all: sed -i replaces the file atomically (no temporary left, mode
 * kept, backup made), w files, grep -r over a tree and its symlinks, and the
 * bounds (an endless sed loop and a pathological grep pattern end quickly
 * with a clear message).
 */
#include <time.h>

#include "cmd/cmd.h"
#include "cmd_testutil.h"
#include "harness.h"
#include "store/store.h"

static store *st;

static void put(const char *path, const char *data) {
  int rc = store_path_write_file(st, "/", path, data, strlen(data), 0644, STORE_WRITE_MKDIRS);
  if (rc < 0) fprintf(stderr, "write %s: %d\n", path, rc);
}

static char *get(const char *path) {
  void *d = NULL;
  size_t n;
  if (store_path_read_file(st, "/", path, &d, &n) < 0) return NULL;
  return d;
}

/* Runs argv (NULL-terminated) in /w with stdin `in`; returns the result. */
static cmd_standalone_result run(const char *in, char **argv) {
  return cmd_test_run(st, "/w", in, argv);
}

TEST(sed_in_place_replaces_atomically_and_keeps_mode) {
  put("/w/f", "a\nb\na\n");
  store_path_chmod(st, "/", "/w/f", 0600);
  cmd_standalone_result r = run(NULL, (char *[]){"sed", "-i.orig", "s/a/X/", "f", NULL});
  CHECK_EQ(r.status, 0);
  char *f = get("/w/f"), *b = get("/w/f.orig");
  CHECK_STR(f, "X\nb\nX\n");
  CHECK_STR(b, "a\nb\na\n");
  free(f);
  free(b);
  store_stat s;
  CHECK_EQ(store_path_stat(st, "/", "/w/f", &s), 0);
  CHECK_EQ(s.mode & 0777, 0600);
  cmd_test_done(&r);
  /* No temporary file is left in the directory. */
  r = run(NULL, (char *[]){"ls", "-a", NULL});
  CHECK(r.out && !strstr(r.out, "sed"));
  cmd_test_done(&r);
}

TEST(sed_in_place_error_leaves_file_alone) {
  put("/w/g", "keep\n");
  cmd_standalone_result r = run(NULL, (char *[]){"sed", "-i", "s/k/\\(/", "g", NULL});
  CHECK_EQ(r.status, 0);
  cmd_test_done(&r);
  r = run(NULL, (char *[]){"sed", "-i", "s/\\(/x/", "g", NULL});
  CHECK_EQ(r.status, 1);
  CHECK(r.err && strstr(r.err, "Unmatched ( or \\("));
  cmd_test_done(&r);
  char *g = get("/w/g");
  CHECK_STR(g, "(eep\n");
  free(g);
}

TEST(sed_w_files_are_written) {
  cmd_standalone_result r = run("a1\nb\na2\n", (char *[]){"sed", "-n", "/a/w out.txt", NULL});
  CHECK_EQ(r.status, 0);
  CHECK_EQ(r.outlen, 0);
  cmd_test_done(&r);
  char *o = get("/w/out.txt");
  CHECK_STR(o, "a1\na2\n");
  free(o);
}

TEST(sed_endless_loop_stops_with_a_message) {
  double t0 = harness_now_s();
  cmd_standalone_result r = run("x\n", (char *[]){"sed", ":a;ba", NULL});
  CHECK(harness_now_s() - t0 < 20);
  CHECK_EQ(r.status, 4);
  CHECK(r.err && strstr(r.err, "too many branches"));
  cmd_test_done(&r);
}

TEST(sed_growing_hold_space_hits_the_limit) {
  cmd_standalone_result r = run("xxxxxxxxxxxxxxxx\n", (char *[]){"sed", ":a;H;x;G;ba", NULL});
  CHECK_EQ(r.status, 4);
  CHECK(r.err && (strstr(r.err, "size limit") || strstr(r.err, "too many branches")));
  cmd_test_done(&r);
}

TEST(grep_pathological_backreference_is_bounded) {
  char line[4100];
  memset(line, 'a', 4000);
  strcpy(line + 4000, "cb\n");
  put("/w/p", line);
  double t0 = harness_now_s();
  cmd_standalone_result r = run(NULL, (char *[]){"grep", "-c", "^\\(a*\\)*\\1c\\1$", "p", NULL});
  CHECK(harness_now_s() - t0 < 30);
  CHECK_EQ(r.status, 2);
  CHECK(r.err && strstr(r.err, "grep: p: regular expression too complex"));
  cmd_test_done(&r);
}

TEST(grep_recursive_tree) {
  put("/w/t/a.txt", "hit\n");
  put("/w/t/sub/b.txt", "miss\nhit two\n");
  put("/w/t/sub/c.log", "hit\n");
  store_path_symlink(st, "/", "/w/t/sub", "/w/t/link");
  cmd_standalone_result r = run(NULL, (char *[]){"grep", "-rn", "--include=*.txt", "hit", "t", NULL});
  CHECK_EQ(r.status, 0);
  CHECK_STR(r.out, "t/a.txt:1:hit\nt/sub/b.txt:2:hit two\n");
  cmd_test_done(&r);
  /* -R follows the symlink to the directory. */
  r = run(NULL, (char *[]){"grep", "-Rl", "hit", "t", NULL});
  CHECK_STR(r.out, "t/a.txt\nt/link/b.txt\nt/link/c.log\nt/sub/b.txt\nt/sub/c.log\n");
  cmd_test_done(&r);
}

TEST(grep_many_lines_and_context_across_chunks) {
  /* 30000 lines: the reader's chunks split lines; context must survive. */
  size_t cap = 30000 * 12;
  char *big = malloc(cap);
  REQUIRE(big);
  size_t n = 0;
  for (int i = 1; i <= 30000; i++) n += (size_t)snprintf(big + n, cap - n, "line%d\n", i);
  put("/w/big", big);
  free(big);
  cmd_standalone_result r =
      run(NULL, (char *[]){"grep", "-n", "-B1", "-A1", "^line2[05]000$", "big", NULL});
  CHECK_STR(r.out, "19999-line19999\n20000:line20000\n20001-line20001\n--\n"
                   "24999-line24999\n25000:line25000\n25001-line25001\n");
  cmd_test_done(&r);
  r = run(NULL, (char *[]){"grep", "-vc", "7", "big", NULL});
  CHECK_STR(r.out, "19683\n");
  cmd_test_done(&r);
}

int main(int argc, char **argv) {
  harness_init(argc, argv);
  if (!(st = cmd_test_store())) return 1;
  store_path_mkdir_p(st, "/", "/w", 0755);
  RUN(sed_in_place_replaces_atomically_and_keeps_mode);
  RUN(sed_in_place_error_leaves_file_alone);
  RUN(sed_w_files_are_written);
  RUN(sed_endless_loop_stops_with_a_message);
  RUN(sed_growing_hold_space_hits_the_limit);
  RUN(grep_pathological_backreference_is_bounded);
  RUN(grep_recursive_tree);
  RUN(grep_many_lines_and_context_across_chunks);
  store_close(st);
  return harness_done();
}
