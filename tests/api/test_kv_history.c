/*
 * test_kv_history.c - the key-value store and the history (tool_calls) of the
 * C API: JSON validation (invalid JSON is SBX_MISUSE, nothing stored), sorted
 * literal-prefix key listing, missing keys, and the life of a call (pending,
 * success, error), newest-first listing with limits, unknown ids, and the
 * retention bounds (rows, age, the default) keeping the newest calls.
 */
#include <time.h>

#include "api_util.h"

TEST(kv_set_get_overwrite_delete) {
  sbx *h = open_mem();
  REQUIRE(h);
  CHECK_EQ(sbx_kv_set(h, "user:name", "\"alice\""), SBX_OK);
  char *v;
  REQUIRE(sbx_kv_get(h, "user:name", &v) == SBX_OK);
  CHECK_STR(v, "\"alice\"");
  sbx_free(v);
  CHECK_EQ(sbx_kv_set(h, "user:name", "{\"first\": \"bob\", \"n\": [1, 2.5, null]}"), SBX_OK);
  REQUIRE(sbx_kv_get(h, "user:name", &v) == SBX_OK);
  CHECK_STR(v, "{\"first\": \"bob\", \"n\": [1, 2.5, null]}"); /* stored as given */
  sbx_free(v);
  CHECK_EQ(sbx_kv_delete(h, "user:name"), SBX_OK);
  v = (char *)1;
  CHECK_EQ(sbx_kv_get(h, "user:name", &v), SBX_NOTFOUND);
  CHECK(v == NULL);
  CHECK_STR(sbx_errmsg(h), "kv get user:name: no such key");
  CHECK_EQ(sbx_kv_delete(h, "user:name"), SBX_OK); /* missing: fine */
  sbx_close(h);
}

TEST(kv_accepts_every_json_value) {
  sbx *h = open_mem();
  REQUIRE(h);
  const char *values[] = {"42", "-1.5e300", "true", "false", "null", "\"\"", "[]", "{}",
                          "\"caf\\u00e9 \\u0000 nul\"", "123456789012345678901234567890",
                          " [ 1 , 2 ] "};
  for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
    CHECK_EQ(sbx_kv_set(h, "k", values[i]), SBX_OK);
    char *v;
    REQUIRE(sbx_kv_get(h, "k", &v) == SBX_OK);
    CHECK_STR(v, values[i]);
    sbx_free(v);
  }
  sbx_close(h);
}

TEST(kv_invalid_json_is_misuse_and_stores_nothing) {
  sbx *h = open_mem();
  REQUIRE(h);
  REQUIRE(sbx_kv_set(h, "k", "1") == SBX_OK);
  const char *bad[] = {"", "{", "alice", "[1,]", "{'a':1}", "1 2", "NaN", "\"unterminated",
                       "{\"a\":1}}"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    CHECK_EQ(sbx_kv_set(h, "k", bad[i]), SBX_MISUSE);
    CHECK(strstr(sbx_errmsg(h), "kv set k: invalid JSON") != NULL);
    CHECK_EQ(sbx_kv_set(h, "new", bad[i]), SBX_MISUSE);
  }
  char *v;
  REQUIRE(sbx_kv_get(h, "k", &v) == SBX_OK);
  CHECK_STR(v, "1");
  sbx_free(v);
  CHECK_EQ(sbx_kv_get(h, "new", &v), SBX_NOTFOUND);
  /* deep nesting is rejected, not a crash */
  char deep[20001];
  memset(deep, '[', 10000);
  memset(deep + 10000, ']', 10000);
  deep[20000] = '\0';
  CHECK_EQ(sbx_kv_set(h, "deep", deep), SBX_MISUSE);
  sbx_close(h);
}

TEST(kv_keys_are_sorted_and_prefixes_literal) {
  sbx *h = open_mem();
  REQUIRE(h);
  const char *keys[] = {"b", "a", "a:2", "a:1", "a%", "a_x", "ab", "B"};
  for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
    REQUIRE(sbx_kv_set(h, keys[i], "0") == SBX_OK);
  char **k;
  size_t n;
  REQUIRE(sbx_kv_keys(h, NULL, &k, &n) == SBX_OK);
  REQUIRE(n == 8);
  const char *want[] = {"B", "a", "a%", "a:1", "a:2", "a_x", "ab", "b"};
  for (size_t i = 0; i < 8; i++) CHECK_STR(k[i], want[i]);
  CHECK(k[8] == NULL);
  sbx_free(k);
  REQUIRE(sbx_kv_keys(h, "a:", &k, &n) == SBX_OK);
  CHECK_EQ(n, 2);
  if (n == 2) {
    CHECK_STR(k[0], "a:1");
    CHECK_STR(k[1], "a:2");
  }
  sbx_free(k);
  REQUIRE(sbx_kv_keys(h, "a%", &k, &n) == SBX_OK); /* % is not a wildcard */
  CHECK_EQ(n, 1);
  sbx_free(k);
  REQUIRE(sbx_kv_keys(h, "a_", &k, &n) == SBX_OK); /* _ is not a wildcard */
  CHECK_EQ(n, 1);
  if (n == 1) CHECK_STR(k[0], "a_x");
  sbx_free(k);
  REQUIRE(sbx_kv_keys(h, "zzz", &k, &n) == SBX_OK);
  CHECK_EQ(n, 0);
  CHECK(k != NULL && k[0] == NULL);
  sbx_free(k);
  sbx_close(h);
}

TEST(history_records_pending_success_and_error) {
  sbx *h = open_mem();
  REQUIRE(h);
  int64_t a, b, c;
  CHECK_EQ(sbx_history_start(h, "web_search", "{\"query\":\"AI\"}", &a), SBX_OK);
  CHECK_EQ(sbx_history_start(h, "api_call", NULL, &b), SBX_OK);
  CHECK_EQ(sbx_history_start(h, "execute_code", "{\"code\":\"print(1)\"}", &c), SBX_OK);
  CHECK(a < b && b < c);
  CHECK_EQ(sbx_history_finish(h, a, "{\"results\":[\"a\"]}", NULL), SBX_OK);
  CHECK_EQ(sbx_history_finish(h, b, NULL, "timeout"), SBX_OK);
  CHECK_EQ(sbx_history_finish(h, b, "1", NULL), SBX_MISUSE); /* already finished */
  CHECK(strstr(sbx_errmsg(h), "already finished") != NULL);
  sbx_history_entry *e = history_exactly(h, 0, 3);
  REQUIRE(e);
  size_t n;
  /* newest first */
  CHECK_EQ(e[0].id, c);
  CHECK_STR(e[0].name, "execute_code");
  CHECK_STR(e[0].status, "pending");
  CHECK_STR(e[0].parameters, "{\"code\":\"print(1)\"}");
  CHECK(e[0].result == NULL && e[0].error == NULL);
  CHECK(e[0].completed_at == -1 && e[0].duration_ms == -1);
  CHECK(e[0].started_at > 1600000000);
  CHECK_EQ(e[1].id, b);
  CHECK_STR(e[1].status, "error");
  CHECK_STR(e[1].error, "timeout");
  CHECK(e[1].parameters == NULL);
  CHECK(e[1].completed_at >= e[1].started_at);
  CHECK(e[1].duration_ms >= 0);
  CHECK_EQ(e[2].id, a);
  CHECK_STR(e[2].status, "success");
  CHECK_STR(e[2].result, "{\"results\":[\"a\"]}");
  CHECK(e[2].error == NULL);
  sbx_free(e);
  REQUIRE(sbx_history_list(h, 2, &e, &n) == SBX_OK);
  CHECK_EQ(n, 2);
  CHECK_EQ(e[0].id, c);
  sbx_free(e);
  sbx_close(h);
}

TEST(history_bad_input_is_rejected) {
  sbx *h = open_mem();
  REQUIRE(h);
  int64_t id = -5;
  CHECK_EQ(sbx_history_start(h, "t", "{not json", &id), SBX_MISUSE);
  CHECK(strstr(sbx_errmsg(h), "invalid JSON") != NULL);
  CHECK_EQ(sbx_history_start(h, NULL, NULL, &id), SBX_MISUSE);
  CHECK_EQ(sbx_history_start(h, "", NULL, &id), SBX_MISUSE);
  CHECK_EQ(sbx_history_start(h, "t", NULL, NULL), SBX_MISUSE);
  CHECK_EQ(sbx_history_finish(h, 12345, "1", NULL), SBX_NOTFOUND);
  CHECK_STR(sbx_errmsg(h), "history finish 12345: no such call");
  REQUIRE(sbx_history_start(h, "t", NULL, &id) == SBX_OK);
  CHECK_EQ(sbx_history_finish(h, id, "{bad", NULL), SBX_MISUSE);
  sbx_history_entry *e;
  size_t n;
  REQUIRE(sbx_history_list(h, 0, &e, &n) == SBX_OK);
  CHECK_EQ(n, 1); /* only the valid start */
  if (n == 1) CHECK_STR(e[0].status, "pending");
  sbx_free(e);
  CHECK_EQ(sbx_history_list(h, 0, NULL, &n), SBX_MISUSE);
  sbx_close(h);
}

TEST(history_record_writes_a_finished_call) {
  sbx *h = open_mem();
  REQUIRE(h);
  int64_t a = 0, b = 0;
  CHECK_EQ(sbx_history_record(h, "bash", "{\"script\":\"echo hi\"}", "{\"exitCode\":0}",
                              NULL, 1700000000, 250, &a),
           SBX_OK);
  CHECK_EQ(sbx_history_record(h, "tool", NULL, "[1]", "boom", 0, 3, &b), SBX_OK);
  CHECK(a > 0 && b > a);
  CHECK_EQ(sbx_history_record(h, "t", "{bad", NULL, NULL, 0, 0, NULL), SBX_MISUSE);
  CHECK(strstr(sbx_errmsg(h), "history record t: invalid JSON") != NULL);
  CHECK_EQ(sbx_history_record(h, "t", NULL, "{bad", NULL, 0, 0, NULL), SBX_MISUSE);
  /* an error's result is not stored, so it is not checked either */
  CHECK_EQ(sbx_history_record(h, "t", NULL, "{bad", "err", 0, 0, NULL), SBX_OK);
  CHECK_EQ(sbx_history_record(h, "", NULL, NULL, NULL, 0, 0, NULL), SBX_MISUSE);
  CHECK_EQ(sbx_history_record(h, NULL, NULL, NULL, NULL, 0, 0, NULL), SBX_MISUSE);
  CHECK_EQ(sbx_history_finish(h, a, "1", NULL), SBX_MISUSE); /* already finished */
  sbx_history_entry *e = history_exactly(h, 0, 3);
  REQUIRE(e);
  CHECK_STR(e[2].name, "bash");
  CHECK_STR(e[2].status, "success");
  CHECK_STR(e[2].result, "{\"exitCode\":0}");
  CHECK(e[2].started_at == 1700000000 && e[2].completed_at == 1700000000);
  CHECK(e[2].duration_ms == 250);
  CHECK_STR(e[1].status, "error");
  CHECK(e[1].result == NULL);
  CHECK_STR(e[1].error, "boom");
  CHECK(e[1].duration_ms == 3 && e[1].started_at > 1600000000);
  CHECK_STR(e[0].error, "err");
  sbx_free(e);
  sbx_close(h);
}

TEST(history_of_an_empty_sandbox_is_empty) {
  sbx *h = open_mem();
  REQUIRE(h);
  sbx_history_entry *e;
  size_t n = 9;
  REQUIRE(sbx_history_list(h, 10, &e, &n) == SBX_OK);
  CHECK_EQ(n, 0);
  CHECK(e != NULL);
  sbx_free(e);
  sbx_close(h);
}

/* Records calls named c<first>..c<last> (finished, now). */
static void record_calls(sbx *h, int first, int last) {
  char name[32];
  for (int i = first; i <= last; i++) {
    snprintf(name, sizeof name, "c%d", i);
    REQUIRE(sbx_history_record(h, name, NULL, "1", NULL, 0, 1, NULL) == SBX_OK);
  }
}

/* The history's size; *newest_ok when its names run c<newest>, c<newest-1>,
 * ... without a gap. */
static size_t history_check(sbx *h, int newest, int *newest_ok) {
  sbx_history_entry *e;
  size_t n = 0;
  if (sbx_history_list(h, 0, &e, &n) != SBX_OK) return (size_t)-1;
  *newest_ok = 1;
  char want[32];
  for (size_t i = 0; i < n; i++) {
    snprintf(want, sizeof want, "c%d", newest - (int)i);
    if (strcmp(e[i].name, want) != 0) *newest_ok = 0;
  }
  sbx_free(e);
  return n;
}

TEST(history_row_bound_holds_and_keeps_the_newest) {
  sbx *h = open_mem();
  REQUIRE(h);
  CHECK_EQ(sbx_history_retention(h, 500, 0), SBX_OK);
  int ok = 0;
  for (int i = 0; i < 2000; i += 50) {
    record_calls(h, i, i + 49);
    size_t n = history_check(h, i + 49, &ok);
    CHECK(n <= 500);
    CHECK(n >= (size_t)(i + 50 < 437 ? i + 50 : 437)); /* 500 - 64 + 1 after a prune */
    CHECK(ok);
  }
  sbx_close(h);
}

TEST(history_small_bound_is_exact) {
  sbx *h = open_mem();
  REQUIRE(h);
  CHECK_EQ(sbx_history_retention(h, 5, 0), SBX_OK);
  record_calls(h, 0, 19);
  int ok = 0;
  CHECK_EQ(history_check(h, 19, &ok), 5);
  CHECK(ok);
  /* 0 lifts the bound */
  CHECK_EQ(sbx_history_retention(h, 0, 0), SBX_OK);
  record_calls(h, 20, 219);
  CHECK_EQ(history_check(h, 219, &ok), 205);
  CHECK(ok);
  sbx_close(h);
}

TEST(history_retention_prunes_at_once_in_a_file) {
  const char *p = scratch("retention.db");
  sbx *h;
  REQUIRE(sbx_open(p, 0, &h) == SBX_OK);
  CHECK_EQ(sbx_history_retention(h, 0, 0), SBX_OK);
  REQUIRE(sbx_begin(h) == SBX_OK);
  record_calls(h, 0, 299);
  REQUIRE(sbx_commit(h) == SBX_OK);
  int ok = 0;
  CHECK_EQ(history_check(h, 299, &ok), 300);
  CHECK_EQ(sbx_history_retention(h, 100, 0), SBX_OK);
  CHECK_EQ(history_check(h, 299, &ok), 100);
  CHECK(ok);
  sbx_close(h);
  /* a new handle has the default bound, and the pruned rows stay gone */
  REQUIRE(sbx_open(p, SBX_OPEN_NOCREATE, &h) == SBX_OK);
  CHECK_EQ(history_check(h, 299, &ok), 100);
  CHECK(ok);
  sbx_close(h);
}

TEST(history_age_bound_drops_old_calls_only) {
  sbx *h = open_mem();
  REQUIRE(h);
  double now = (double)time(NULL);
  REQUIRE(sbx_history_record(h, "old1", NULL, NULL, "x", now - 5000, 3, NULL) == SBX_OK);
  REQUIRE(sbx_history_record(h, "old2", NULL, NULL, "x", now - 2000, 3, NULL) == SBX_OK);
  REQUIRE(sbx_history_record(h, "new1", NULL, NULL, "x", now - 10, 3, NULL) == SBX_OK);
  REQUIRE(sbx_history_record(h, "new2", NULL, NULL, "x", 0, 3, NULL) == SBX_OK);
  CHECK_EQ(sbx_history_retention(h, 0, 1000), SBX_OK);
  sbx_history_entry *e;
  size_t n = 0;
  REQUIRE(sbx_history_list(h, 0, &e, &n) == SBX_OK);
  CHECK_EQ(n, 2);
  if (n == 2) {
    CHECK_STR(e[0].name, "new2");
    CHECK_STR(e[1].name, "new1");
  }
  sbx_free(e);
  CHECK_EQ(sbx_history_retention(h, -1, 0), SBX_MISUSE);
  CHECK_EQ(sbx_history_retention(h, 0, -1), SBX_MISUSE);
  sbx_close(h);
}

TEST(history_default_bound_is_100000_calls) {
  sbx *h = open_mem();
  REQUIRE(h);
  REQUIRE(sbx_begin(h) == SBX_OK);
  record_calls(h, 0, SBX_HISTORY_DEFAULT_ROWS + 99);
  REQUIRE(sbx_commit(h) == SBX_OK);
  int ok = 0;
  size_t n = history_check(h, SBX_HISTORY_DEFAULT_ROWS + 99, &ok);
  CHECK(n <= SBX_HISTORY_DEFAULT_ROWS);
  CHECK(n > SBX_HISTORY_DEFAULT_ROWS - 64);
  CHECK(ok);
  sbx_close(h);
}

/* sbx_bash_opts.record: the "bash" row every front writes; without it, none. */
TEST(history_bash_record_option) {
  sbx *h = open_mem();
  REQUIRE(h);
  sbx_bash_result r;
  sbx_bash_opts o = {.stdin_fd = -1, .record = 1};
  REQUIRE(sbx_bash(h, "echo plain", 10, &r) == SBX_OK); /* not recorded */
  sbx_bash_result_free(&r);
  REQUIRE(sbx_bash_ex(h, "cd /tmp", 7, &o, &r) == SBX_OK);
  sbx_bash_result_free(&r);
  static const char script[] = "echo \"q\\\tx\xff\xc3\"; exit 7";
  REQUIRE(sbx_bash_ex(h, script, sizeof script - 1, &o, &r) == SBX_OK);
  CHECK_EQ(r.exit_code, 7);
  sbx_bash_result_free(&r);
  sbx_limits lim = {.loop_iterations = 2};
  REQUIRE(sbx_set_limits(h, &lim) == SBX_OK);
  CHECK_EQ(sbx_bash_ex(h, "for i in 1 2 3; do :; done", 26, &o, &r), SBX_LIMIT);
  sbx_bash_result_free(&r);
  sbx_history_entry *e = history_exactly(h, 10, 3);
  REQUIRE(e);
  CHECK_STR(e[2].name, "bash");
  CHECK_STR(e[2].parameters, "{\"command\":\"cd /tmp\",\"cwd\":\"/data\"}");
  CHECK_STR(e[2].result, "{\"exitCode\":0}");
  /* quotes, backslashes and control bytes escaped, invalid UTF-8 as U+FFFD;
   * the cwd is the one the call started in */
  CHECK_STR(e[1].parameters,
            "{\"command\":\"echo \\\"q\\\\\\u0009x\\ufffd\\ufffd\\\"; exit 7\","
            "\"cwd\":\"/tmp\"}");
  CHECK_STR(e[1].result, "{\"exitCode\":7}");
  CHECK_STR(e[0].result, "{\"exitCode\":126}"); /* a limit is recorded too */
  sbx_free(e);
  sbx_close(h);
}

int main(int argc, char **argv) {
  harness_init(argc, argv);
  RUN(kv_set_get_overwrite_delete);
  RUN(kv_accepts_every_json_value);
  RUN(kv_invalid_json_is_misuse_and_stores_nothing);
  RUN(kv_keys_are_sorted_and_prefixes_literal);
  RUN(history_records_pending_success_and_error);
  RUN(history_bad_input_is_rejected);
  RUN(history_record_writes_a_finished_call);
  RUN(history_of_an_empty_sandbox_is_empty);
  RUN(history_row_bound_holds_and_keeps_the_newest);
  RUN(history_small_bound_is_exact);
  RUN(history_retention_prunes_at_once_in_a_file);
  RUN(history_age_bound_drops_old_calls_only);
  RUN(history_default_bound_is_100000_calls);
  RUN(history_bash_record_option);
  return harness_done();
}
