/*
 * test_store_kv_history.c - the key-value store (JSON values, literal prefix
 * listing, timestamps) and the call history (tool_calls: start, finish,
 * listing newest first, REAL and NULL times).
 */
#include "store_testutil.h"

/* Joins keys as "k1,k2," */
static int join_cb(void *ud, const char *key) {
  strcat((char *)ud, key);
  strcat((char *)ud, ",");
  return 0;
}

TEST(kv_set_get_replace_delete) {
  store *s = tu_mem();
  char *v = NULL;
  CHECK_EQ(store_kv_get(s, "k", &v), -ENOENT);
  CHECK(v == NULL);
  CHECK_EQ(store_kv_set(s, "k", "{\"a\":1}"), 0);
  CHECK_EQ(store_kv_get(s, "k", &v), 0);
  CHECK_STR(v, "{\"a\":1}");
  free(v);
  CHECK_EQ(store_kv_set(s, "k", "[1,2]"), 0);
  CHECK_EQ(store_kv_get(s, "k", &v), 0);
  CHECK_STR(v, "[1,2]");
  free(v);
  CHECK_EQ(tu_int(s, "SELECT count(*) FROM kv_store"), 1);
  CHECK_EQ(store_kv_delete(s, "k"), 0);
  CHECK_EQ(store_kv_delete(s, "k"), -ENOENT);
  CHECK_EQ(store_kv_get(s, "k", &v), -ENOENT);
  store_close(s);
}

TEST(kv_values_must_be_json) {
  store *s = tu_mem();
  CHECK_EQ(store_kv_set(s, "k", "not json"), -EINVAL);
  CHECK_EQ(store_kv_set(s, "k", "{\"a\":"), -EINVAL);
  CHECK_EQ(tu_int(s, "SELECT count(*) FROM kv_store"), 0);
  CHECK_EQ(store_kv_set(s, "k", "\"str\""), 0);
  CHECK_EQ(store_kv_set(s, "n", "42"), 0);
  CHECK_EQ(store_kv_set(s, "z", "null"), 0);
  store_close(s);
}

TEST(kv_timestamps_created_kept_updated_refreshed) {
  store *s = tu_mem();
  CHECK_EQ(store_kv_set(s, "k", "1"), 0);
  CHECK(tu_int(s, "SELECT created_at FROM kv_store") > 1600000000);
  CHECK_EQ(tu_int(s, "SELECT typeof(created_at) = 'integer' FROM kv_store"), 1);
  tu_exec(s, "UPDATE kv_store SET created_at = 5, updated_at = 5");
  CHECK_EQ(store_kv_set(s, "k", "2"), 0);
  CHECK_EQ(tu_int(s, "SELECT created_at FROM kv_store"), 5);
  CHECK(tu_int(s, "SELECT updated_at FROM kv_store") > 1600000000);
  store_close(s);
}

TEST(kv_keys_prefix_is_literal_and_sorted) {
  store *s = tu_mem();
  const char *keys[] = {"user:b", "user:a", "user_x", "userZ",     "use", "a%b",
                        "a%c",    "abc",    "u\xff",  "u\xff\xff", "v"};
  for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
    CHECK_EQ(store_kv_set(s, keys[i], "1"), 0);
  char out[256];
  out[0] = 0;
  CHECK_EQ(store_kv_keys(s, "user:", join_cb, out), 0);
  CHECK_STR(out, "user:a,user:b,");
  out[0] = 0;
  CHECK_EQ(store_kv_keys(s, "user_", join_cb, out), 0); /* '_' is not a wildcard */
  CHECK_STR(out, "user_x,");
  out[0] = 0;
  CHECK_EQ(store_kv_keys(s, "a%", join_cb, out), 0); /* '%' is not a wildcard */
  CHECK_STR(out, "a%b,a%c,");
  out[0] = 0;
  CHECK_EQ(store_kv_keys(s, "u\xff", join_cb, out), 0); /* no upper bound */
  CHECK_STR(out, "u\xff,u\xff\xff,");
  out[0] = 0;
  CHECK_EQ(store_kv_keys(s, "", join_cb, out), 0);
  CHECK_STR(out, "a%b,a%c,abc,use,user:a,user:b,userZ,user_x,u\xff,u\xff\xff,v,");
  out[0] = 0;
  CHECK_EQ(store_kv_keys(s, "nothing", join_cb, out), 0);
  CHECK_STR(out, "");
  store_close(s);
}

static int stop_cb(void *ud, const char *key) {
  (void)key;
  return ++*(int *)ud == 2 ? 7 : 0;
}

/* A callback that lists keys again from inside the listing. */
static int nested_cb(void *ud, const char *key) {
  store *s = ud;
  char inner[256];
  inner[0] = 0;
  if (store_kv_keys(s, key, join_cb, inner) != 0) return -1;
  return strncmp(inner, key, strlen(key)) == 0 ? 0 : -2;
}

TEST(kv_keys_callback_stops_and_may_reenter) {
  store *s = tu_mem();
  store_kv_set(s, "a", "1");
  store_kv_set(s, "b", "1");
  store_kv_set(s, "c", "1");
  int n = 0;
  CHECK_EQ(store_kv_keys(s, "", stop_cb, &n), 7);
  CHECK_EQ(n, 2);
  CHECK_EQ(store_kv_keys(s, "", nested_cb, s), 0);
  store_close(s);
}

/* Copies listed calls as text lines "id name status started completed duration". */
typedef struct calls_out {
  char text[2048]; /* one line per call */
  int n;           /* calls seen */
} calls_out;

static int calls_cb(void *ud, const store_call *c) {
  calls_out *o = ud;
  char line[256];
  snprintf(line, sizeof line, "%lld %s %s %s %s %s;", (long long)c->id, c->name,
           c->status, c->result ? c->result : "-", c->error ? c->error : "-",
           c->completed_at < 0 ? "pending" : "done");
  strcat(o->text, line);
  o->n++;
  return 0;
}

TEST(history_start_finish_and_list_newest_first) {
  store *s = tu_mem();
  int64_t a, b, c;
  CHECK_EQ(store_call_start(s, "search", "{\"q\":1}", &a), 0);
  CHECK_EQ(store_call_start(s, "fetch", NULL, &b), 0);
  CHECK_EQ(store_call_start(s, "exec", "{}", &c), 0);
  CHECK(a < b && b < c);
  char sql[200], buf[64];
  snprintf(sql, sizeof sql, "SELECT status FROM tool_calls WHERE id=%lld", (long long)a);
  CHECK_STR(tu_text(s, sql, buf, sizeof buf), "pending");
  snprintf(sql, sizeof sql, "SELECT typeof(started_at) FROM tool_calls WHERE id=%lld",
           (long long)a);
  CHECK_STR(tu_text(s, sql, buf, sizeof buf), "integer");
  CHECK_EQ(store_call_finish(s, a, "{\"r\":2}", NULL), 0);
  CHECK_EQ(store_call_finish(s, b, NULL, "timeout"), 0);
  CHECK_EQ(store_call_finish(s, b, NULL, "again"), -EALREADY);
  CHECK_EQ(store_call_finish(s, 999, NULL, NULL), -ENOENT);
  calls_out o = {0};
  CHECK_EQ(store_call_list(s, 0, calls_cb, &o), 0);
  char want[512];
  snprintf(want, sizeof want,
           "%lld exec pending - - pending;%lld fetch error - timeout done;%lld search "
           "success {\"r\":2} - done;",
           (long long)c, (long long)b, (long long)a);
  CHECK_STR(o.text, want);
  calls_out two = {0};
  CHECK_EQ(store_call_list(s, 2, calls_cb, &two), 0);
  CHECK_EQ(two.n, 2);
  snprintf(sql, sizeof sql,
           "SELECT completed_at IS NOT NULL AND duration_ms >= 0 FROM tool_calls WHERE "
           "id=%lld",
           (long long)a);
  CHECK_EQ(tu_int(s, sql), 1);
  store_close(s);
}

TEST(history_record_is_start_and_finish_in_one_row) {
  store *s = tu_mem();
  int64_t a, b, c;
  CHECK_EQ(store_call_record(s, "bash", "{\"script\":\"ls\"}", "{\"exitCode\":0}", NULL,
                             1700000000.25, 1500.4, &a),
           0);
  CHECK_EQ(store_call_record(s, "tool", NULL, "{\"ignored\":1}", "boom", 0, 20, &b), 0);
  CHECK_EQ(store_call_record(s, "x", NULL, NULL, NULL, -1, -5, NULL),
           0); /* id optional */
  CHECK_EQ(store_call_start(s, "after", NULL, &c), 0);
  CHECK(a < b && b < c);
  CHECK_EQ(store_call_record(s, NULL, NULL, NULL, NULL, 0, 0, NULL), -EINVAL);
  char sql[300], buf[300];
  snprintf(sql, sizeof sql,
           "SELECT name || ' ' || parameters || ' ' || result || ' ' || status || ' ' || "
           "started_at || ' ' || completed_at || ' ' || duration_ms || ' ' || "
           "typeof(started_at) FROM tool_calls WHERE id=%lld",
           (long long)a);
  CHECK_STR(
      tu_text(s, sql, buf, sizeof buf),
      "bash {\"script\":\"ls\"} {\"exitCode\":0} success 1700000000 1700000001 1500 "
      "integer");
  /* an error keeps no result; start 0 means "now minus the duration" */
  snprintf(sql, sizeof sql,
           "SELECT coalesce(result, '-') || ' ' || error || ' ' || status || ' ' || "
           "duration_ms || ' ' || (completed_at - started_at <= 1) || ' ' || "
           "(abs(started_at - unixepoch()) <= 2) FROM tool_calls WHERE id=%lld",
           (long long)b);
  CHECK_STR(tu_text(s, sql, buf, sizeof buf), "- boom error 20 1 1");
  CHECK_EQ(tu_int(s, "SELECT duration_ms FROM tool_calls WHERE name='x'"), 0);
  /* a recorded call is finished: finishing it again is EALREADY */
  CHECK_EQ(store_call_finish(s, a, "1", NULL), -EALREADY);
  /* inside a group, rolled back with it */
  CHECK_EQ(store_begin(s), 0);
  CHECK_EQ(store_call_record(s, "gone", NULL, NULL, NULL, 0, 1, NULL), 0);
  CHECK_EQ(store_rollback(s), 0);
  CHECK_EQ(tu_int(s, "SELECT count(*) FROM tool_calls WHERE name='gone'"), 0);
  store_close(s);
}

TEST(history_finish_of_a_row_started_elsewhere) {
  store *s = tu_mem();
  char sql[200];
  /* a row the store did not start: its start comes from the row */
  CHECK_EQ(tu_exec(s, "INSERT INTO tool_calls (name, started_at) VALUES ('ext', 1)"),
           SQLITE_OK);
  int64_t ext = tu_int(s, "SELECT id FROM tool_calls WHERE name='ext'");
  CHECK_EQ(store_call_finish(s, ext, NULL, "late"), 0);
  snprintf(sql, sizeof sql,
           "SELECT duration_ms > 1000000 AND status = 'error' FROM tool_calls WHERE "
           "id=%lld",
           (long long)ext);
  CHECK_EQ(tu_int(s, sql), 1);
  CHECK_EQ(store_call_finish(s, ext, NULL, "again"), -EALREADY);
  store_close(s);
}

/* Checks the times of the first listed call. */
static int times_cb(void *ud, const store_call *c) {
  double *t = ud;
  t[0] = c->started_at;
  t[1] = c->completed_at;
  t[2] = c->duration_ms;
  return 1;
}

TEST(history_reads_real_and_null_times) {
  store *s = tu_mem();
  CHECK_EQ(tu_exec(s,
                   "INSERT INTO tool_calls (name, status, started_at, completed_at, "
                   "duration_ms) VALUES ('x', 'success', 1700000000, 1700000001.5, "
                   "299.999952316284)"),
           SQLITE_OK);
  double t[3];
  CHECK_EQ(store_call_list(s, 1, times_cb, t), 1);
  CHECK(t[0] == 1700000000.0);
  CHECK(t[1] == 1700000001.5);
  CHECK(t[2] > 299.99 && t[2] < 300.0);
  CHECK_EQ(tu_exec(s, "INSERT INTO tool_calls (name, started_at) VALUES ('y', 1)"),
           SQLITE_OK);
  CHECK_EQ(store_call_list(s, 1, times_cb, t), 1);
  CHECK(t[0] == 1.0);
  CHECK(t[1] == -1);
  CHECK(t[2] == -1);
  store_close(s);
}

/* kv and history writes change no file: the generation (what the FUSE view
 * of a running worker checks before each call) stays; a file write bumps it. */
TEST(generation_moves_with_files_only) {
  store *s = tu_mem();
  uint64_t g = store_generation(s);
  CHECK_EQ(store_kv_set(s, "k", "1"), 0);
  CHECK_EQ(store_kv_delete(s, "k"), 0);
  int64_t id;
  CHECK_EQ(store_call_start(s, "python", "{}", &id), 0);
  CHECK_EQ(store_call_finish(s, id, "{}", NULL), 0);
  CHECK_EQ(store_call_record(s, "bash", "{}", "{}", NULL, 0, 1, NULL), 0);
  CHECK_EQ(store_history_retention(s, 10, 0), 0);
  CHECK(store_generation(s) == g);
  CHECK_EQ(store_path_write_file(s, NULL, "/f", "x", 1, 0644, 0), 0);
  CHECK(store_generation(s) != g);
  store_close(s);
}

int main(int argc, char **argv) {
  harness_init(argc, argv);
  RUN(kv_set_get_replace_delete);
  RUN(kv_values_must_be_json);
  RUN(kv_timestamps_created_kept_updated_refreshed);
  RUN(kv_keys_prefix_is_literal_and_sorted);
  RUN(kv_keys_callback_stops_and_may_reenter);
  RUN(history_start_finish_and_list_newest_first);
  RUN(history_reads_real_and_null_times);
  RUN(history_record_is_start_and_finish_in_one_row);
  RUN(history_finish_of_a_row_started_elsewhere);
  RUN(generation_moves_with_files_only);
  return harness_done();
}
