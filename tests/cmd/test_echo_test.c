/*
 * test_echo_test.c - echo, test and [ as table commands (src/cmd/echo.c,
 * src/cmd/test.c), run without a shell through cmd_run_standalone: the same
 * code as the shell's builtins (sh_echo_format, sh_test_run), GNU's message
 * prefixes, and file tests against the store.
 */
#include <string.h>

#include "cmd/cmd.h"
#include "cmd_testutil.h"
#include "harness.h"

static store *st;

/* Runs argv (NULL-terminated) in /w; returns the status, keeps out/err. */
static int run(const char *const *argv, cmd_standalone_result *r) {
  *r = cmd_test_run(st, "/w", NULL, (char **)argv);
  return r->status;
}

static bool out_is(const cmd_standalone_result *r, const char *want) {
  return r->outlen == strlen(want) && !memcmp(r->out, want, r->outlen);
}

static bool err_is(const cmd_standalone_result *r, const char *want) {
  return r->errlen == strlen(want) && !memcmp(r->err, want, r->errlen);
}

TEST(echo_options_and_escapes) {
  cmd_standalone_result r;
  CHECK_EQ(run((const char *[]){"echo", "-n", "a", "b", NULL}, &r), 0);
  CHECK(out_is(&r, "a b"));
  cmd_test_done(&r);
  CHECK_EQ(run((const char *[]){"echo", "-e", "x\\ty\\0101\\c", "z", NULL}, &r), 0);
  CHECK(out_is(&r, "x\tyA"));
  cmd_test_done(&r);
  CHECK_EQ(run((const char *[]){"echo", "-E", "a\\nb", NULL}, &r), 0);
  CHECK(out_is(&r, "a\\nb\n"));
  cmd_test_done(&r);
  CHECK_EQ(run((const char *[]){"echo", "-x", NULL}, &r), 0); /* not an option: printed */
  CHECK(out_is(&r, "-x\n"));
  cmd_test_done(&r);
}

TEST(test_strings_and_integers) {
  cmd_standalone_result r;
  CHECK_EQ(run((const char *[]){"test", "abc", "=", "abc", NULL}, &r), 0);
  cmd_test_done(&r);
  CHECK_EQ(run((const char *[]){"test", "-z", "", "-a", "1", "-lt", "2", NULL}, &r), 0);
  cmd_test_done(&r);
  CHECK_EQ(run((const char *[]){"test", "!", "x", NULL}, &r), 1);
  cmd_test_done(&r);
  CHECK_EQ(run((const char *[]){"test", "1", "-eq", "x", NULL}, &r), 2);
  CHECK(err_is(&r, "test: x: integer expression expected\n"));
  cmd_test_done(&r);
  CHECK_EQ(run((const char *[]){"test", NULL}, &r), 1);
  cmd_test_done(&r);
}

TEST(bracket_needs_its_close) {
  cmd_standalone_result r;
  CHECK_EQ(run((const char *[]){"[", "a", "!=", "b", "]", NULL}, &r), 0);
  cmd_test_done(&r);
  CHECK_EQ(run((const char *[]){"[", "a", NULL}, &r), 2);
  CHECK(err_is(&r, "[: missing `]'\n"));
  cmd_test_done(&r);
}

TEST(test_files_in_the_store) {
  REQUIRE(store_path_write_file(st, "/", "/w/f", "data", 4, 0644, STORE_WRITE_MKDIRS) == 0);
  REQUIRE(store_path_mkdir_p(st, "/", "/w/d", 0755) == 0);
  cmd_standalone_result r;
  CHECK_EQ(run((const char *[]){"test", "-f", "f", NULL}, &r), 0);
  cmd_test_done(&r);
  CHECK_EQ(run((const char *[]){"test", "-s", "f", "-a", "-d", "d", NULL}, &r), 0);
  cmd_test_done(&r);
  CHECK_EQ(run((const char *[]){"test", "-e", "missing", NULL}, &r), 1);
  cmd_test_done(&r);
  CHECK_EQ(run((const char *[]){"[", "-d", "f", "]", NULL}, &r), 1);
  cmd_test_done(&r);
}

int main(int argc, char **argv) {
  harness_init(argc, argv);
  if (!(st = cmd_test_store())) return 1;
  store_path_mkdir_p(st, "/", "/w", 0755);
  RUN(echo_options_and_escapes);
  RUN(test_strings_and_integers);
  RUN(bracket_needs_its_close);
  RUN(test_files_in_the_store);
  store_close(st);
  return harness_done();
}
