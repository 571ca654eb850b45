/*
 * test_curl.c - curl and wget answer that the sandbox has no network (exit 7)
 * and serve file:// URLs from the store.
 */
#include "cmd/cmd.h"
#include "cmd_testutil.h"
#include "harness.h"

static store *st;

static cmd_standalone_result run(char **argv, int argc) {
  cmd_standalone_result r;
  cmd_run_standalone(st, "/", argc, argv, NULL, 0, &r);
  return r;
}

static void done(cmd_standalone_result *r) { free(r->out); free(r->err); }

TEST(curl_network_url_fails_with_7_and_says_why) {
  char *argv[] = {"curl", "-fsSL", "-H", "X: y", "https://example.com:8443/x", NULL};
  cmd_standalone_result r = run(argv, 5);
  CHECK_EQ(r.status, 7);
  CHECK_STR(r.out, "");
  CHECK_STR(r.err, "curl: (7) Failed to connect to example.com port 8443: Network is "
                   "unreachable (this sandbox has no network)\n");
  done(&r);
}

TEST(curl_silent_hides_the_message) {
  char *argv[] = {"curl", "-s", "http://10.0.0.1/", NULL};
  cmd_standalone_result r = run(argv, 3);
  CHECK_EQ(r.status, 7);
  CHECK_STR(r.err, "");
  done(&r);
}

TEST(wget_fails_with_7) {
  char *argv[] = {"wget", "-O", "out.html", "http://example.org/", NULL};
  cmd_standalone_result r = run(argv, 4);
  CHECK_EQ(r.status, 7);
  CHECK(strstr(r.err, "example.org:80") != NULL);
  CHECK(strstr(r.err, "no network") != NULL);
  done(&r);
}

TEST(curl_without_url_is_usage_error) {
  char *argv[] = {"curl", NULL};
  cmd_standalone_result r = run(argv, 1);
  CHECK_EQ(r.status, 2);
  CHECK_STR(r.err, "curl: no URL specified!\n");
  done(&r);
}

TEST(curl_file_url_reads_the_store) {
  REQUIRE(store_path_write_file(st, "/", "/data/hello.txt", "hi there\n", 9, 0644,
                                STORE_WRITE_MKDIRS) == 0);
  char *argv[] = {"curl", "file:///data/hello.txt", NULL};
  cmd_standalone_result r = run(argv, 2);
  CHECK_EQ(r.status, 0);
  CHECK_STR(r.out, "hi there\n");
  done(&r);
  char *argv2[] = {"curl", "file:///data/missing", NULL};
  r = run(argv2, 2);
  CHECK_EQ(r.status, 37);
  done(&r);
}

int main(int argc, char **argv) {
  harness_init(argc, argv);
  if (!(st = cmd_test_store())) return 1;
  RUN(curl_network_url_fails_with_7_and_says_why);
  RUN(curl_silent_hides_the_message);
  RUN(wget_fails_with_7);
  RUN(curl_without_url_is_usage_error);
  RUN(curl_file_url_reads_the_store);
  store_close(st);
  return harness_done();
}
