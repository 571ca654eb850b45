/*
 * test_curl.c - curl and wget answer that the sandbox has no network (exit 7)
 * and serve file:// URLs from the store.
 */
#include "cmd/cmd.h"
#include "cmd_testutil.h"
#include "harness.h"

static store *st;

static cmd_standalone_result run(char **argv) {
  return cmd_test_run(st, "/", NULL, argv);
}

TEST(curl_network_url_fails_with_7_and_says_why) {
  char *argv[] = {"curl", "-fsSL", "-H", "X: y", "https://example.com:8443/x", NULL};
  cmd_standalone_result r = run(argv);
  CHECK_EQ(r.status, 7);
  CHECK_STR(r.out, "");
  CHECK_STR(r.err, "curl: (7) Failed to connect to example.com port 8443: Network is "
                   "unreachable (this sandbox has no network)\n");
  cmd_test_done(&r);
}

TEST(curl_silent_hides_the_message) {
  char *argv[] = {"curl", "-s", "http://10.0.0.1/", NULL};
  cmd_standalone_result r = run(argv);
  CHECK_EQ(r.status, 7);
  CHECK_STR(r.err, "");
  cmd_test_done(&r);
}

TEST(wget_fails_with_7) {
  char *argv[] = {"wget", "-O", "out.html", "http://example.org/", NULL};
  cmd_standalone_result r = run(argv);
  CHECK_EQ(r.status, 7);
  CHECK(strstr(r.err, "example.org:80") != NULL);
  CHECK(strstr(r.err, "no network") != NULL);
  cmd_test_done(&r);
}

TEST(curl_without_url_is_usage_error) {
  char *argv[] = {"curl", NULL};
  cmd_standalone_result r = run(argv);
  CHECK_EQ(r.status, 2);
  CHECK_STR(r.err, "curl: no URL specified!\n");
  cmd_test_done(&r);
}

TEST(curl_file_url_reads_the_store) {
  REQUIRE(store_path_write_file(st, "/", "/data/hello.txt", "hi there\n", 9, 0644,
                                STORE_WRITE_MKDIRS) == 0);
  char *argv[] = {"curl", "file:///data/hello.txt", NULL};
  cmd_standalone_result r = run(argv);
  CHECK_EQ(r.status, 0);
  CHECK_STR(r.out, "hi there\n");
  cmd_test_done(&r);
  char *argv2[] = {"curl", "file:///data/missing", NULL};
  r = run(argv2);
  CHECK_EQ(r.status, 37);
  cmd_test_done(&r);
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
