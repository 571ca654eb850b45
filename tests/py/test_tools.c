/*
 * test_tools.c - host tools: calls from sandboxed code to C callbacks, schema
 * checks on both sides, timeouts, errors as RuntimeError("[kind] ..."), the
 * history, nested calls back into the sandbox, the BM25 search, and the JSON
 * Schema subset itself.
 */
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "api/api_util.h"
#include "harness.h"
#include "py/py_int.h"
#include "py_util.h"

static sbx *H;
static int calls; /* callback invocations */

static int tool_cb(void *ud, sbx *h, const char *name, const char *args, char **result,
                   char **error) {
  (void)ud;
  calls++;
  json_t *a = json_loads(args, 0, NULL);
  int rc = 0;
  if (strcmp(name, "add") == 0) {
    json_int_t s = json_integer_value(json_object_get(a, "a")) + json_integer_value(json_object_get(a, "b"));
    char buf[64];
    snprintf(buf, sizeof buf, "{\"sum\": %lld}", (long long)s);
    *result = strdup(buf);
  } else if (strcmp(name, "slow") == 0) {
    usleep(600 * 1000);
    *result = strdup("{\"late\": true}");
  } else if (strcmp(name, "fails") == 0) {
    *error = strdup("disk on fire");
    rc = 1;
  } else if (strcmp(name, "bad_output") == 0) {
    *result = strdup("{\"sum\": \"not a number\"}");
  } else if (strcmp(name, "not_json") == 0) {
    *result = strdup("{oops");
  } else if (strcmp(name, "write_file") == 0) {
    /* Calls back into the sandbox: the file must be visible to Python at once. */
    const char *text = json_string_value(json_object_get(a, "text"));
    int w = sbx_write_file(h, "/data/tool_out.txt", text, strlen(text), 0);
    *result = strdup(w == SBX_OK ? "true" : "false");
  } else if (strcmp(name, "nested_python") == 0) {
    /* Runs Python in the same sandbox while the outer call waits for us. */
    sbx_py_result *r = NULL;
    int e = sbx_python_exec(h, "inner_value = 6 * 7\ninner_value", NULL, &r);
    char buf[128];
    snprintf(buf, sizeof buf, "{\"rc\": %d, \"repr\": \"%s\"}", e, e == SBX_OK && r->repr ? r->repr : "");
    sbx_free(r);
    *result = strdup(buf);
  } else {
    *result = strdup("null");
  }
  json_decref(a);
  return rc;
}

static const sbx_tool_def TOOLS[] = {
    {"add", "Add two integers and return their sum.",
     "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"integer\"},\"b\":{\"type\":\"integer\"}},"
     "\"required\":[\"a\",\"b\"],\"additionalProperties\":false}",
     "{\"type\":\"object\",\"properties\":{\"sum\":{\"type\":\"integer\"}},\"required\":[\"sum\"]}", 0},
    {"slow", "Takes its time.", NULL, NULL, 0.2},
    {"fails", "Always fails.", NULL, NULL, 0},
    {"bad_output", "Returns something its schema refuses.", NULL,
     "{\"type\":\"object\",\"properties\":{\"sum\":{\"type\":\"integer\"}}}", 0},
    {"not_json", "Returns invalid JSON.", NULL, NULL, 0},
    {"write_file", "Write text into /data/tool_out.txt on the host side.",
     "{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\",\"maxLength\":100}},\"required\":[\"text\"]}",
     NULL, 0},
    {"nested_python", "Run Python again in the same sandbox.", NULL, NULL, 0},
};

TEST(call_returns_the_result) {
  calls = 0;
  CHECK_STR(py_eval(H, "from host_tools import call, search\ncall('add', {'a': 2, 'b': 40})"),
            "{'sum': 42}");
  CHECK_EQ(calls, 1);
}

/* `from host_tools import NAME`: a stub typed from the tool's schemas. */
TEST(typed_stubs_from_the_schemas) {
  calls = 0;
  CHECK_STR(py_eval(H, "import inspect\nfrom host_tools import add\n"
                       "(str(inspect.signature(add)), add.__name__, add.__doc__, add(2, b=40))"),
            "('(a: int, b: int) -> dict[str, typing.Any]', 'add', "
            "'Add two integers and return their sum.\\n\\nArgs:\\n    a\\n    b', {'sum': 42})");
  CHECK_EQ(calls, 1);
  /* a free schema takes keyword arguments; a missing argument fails before the call */
  CHECK_STR(py_eval(H, "import inspect, host_tools\n"
                       "(str(inspect.signature(host_tools.write_file)), str(inspect.signature(host_tools.fails)))"),
            "('(text: str, **extra)', '(**extra)')");
  CHECK_STR(py_eval(H, "from host_tools import add\ntry:\n  add(1)\nexcept TypeError as e:\n  r = str(e)\nr"),
            "\"missing a required argument: 'b'\"");
  CHECK_EQ(calls, 1);
  CHECK_STR(py_eval(H, "try:\n  from host_tools import nope\nexcept ImportError as e:\n  r = 'nope' in str(e)\nr"),
            "True");
}

TEST(errors_reach_the_sandbox_as_runtime_errors) {
  struct {
    const char *code, *kind;
  } cases[] = {
      {"call('nope', {})", "[permission_error]"},
      {"call('add', {'a': 'x', 'b': 1})", "[validation_error]"},
      {"call('add', {'a': 1})", "[validation_error]"},
      {"call('add', {'a': 1, 'b': 2, 'c': 3})", "[validation_error]"},
      {"call('slow', {})", "[timeout]"},
      {"call('fails', {})", "[internal_error]"},
      {"call('bad_output', {})", "[validation_error]"},
      {"call('not_json', {})", "[internal_error]"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char code[256];
    snprintf(code, sizeof code, "from host_tools import call\n%s", cases[i].code);
    sbx_py_result *r = py_run(H, code);
    REQUIRE(r);
    CHECK_EQ(r->error, SBX_PY_EXCEPTION);
    CHECK_STR(r->error_type, "RuntimeError");
    if (!r->error_message || strncmp(r->error_message, cases[i].kind, strlen(cases[i].kind)) != 0)
      fprintf(stderr, "  case %zu: got %s\n", i, r->error_message ? r->error_message : "(null)");
    CHECK(r->error_message && strncmp(r->error_message, cases[i].kind, strlen(cases[i].kind)) == 0);
    sbx_free(r);
  }
  /* The failing callback's message is passed on. */
  sbx_py_result *r = py_run(H, "from host_tools import call\ncall('fails', {})");
  REQUIRE(r);
  CHECK(r->error_message && strstr(r->error_message, "disk on fire"));
  sbx_free(r);
  /* The sandbox can catch them and go on. */
  CHECK_STR(py_eval(H, "try:\n    call('nope', {})\nexcept RuntimeError as e:\n    msg = str(e)\nmsg[:18]"),
            "'[permission_error]'");
}

TEST(a_late_result_after_timeout_is_dropped) {
  /* The abandoned callback finishes meanwhile; the next calls are unaffected. */
  usleep(700 * 1000);
  CHECK_STR(py_eval(H, "call('add', {'a': 1, 'b': 1})"), "{'sum': 2}");
}

TEST(callback_can_write_files_visible_at_once) {
  CHECK_STR(py_eval(H, "call('write_file', {'text': 'from the host tool'})\n"
                       "open('/data/tool_out.txt').read()"),
            "'from the host tool'");
}

TEST(callback_rewrite_of_a_cached_file_is_read_afresh) {
  /* the file is in the jail's page cache (read, held open) when the tool
   * rewrites it at the same size: both a new open and the held handle read
   * the tool's bytes after the call returns */
  CHECK_STR(py_eval(H, "call('write_file', {'text': 'aaaaaaaaaa'})\n"
                       "k = open('/data/tool_out.txt', 'rb', buffering=0)\n"
                       "(open('/data/tool_out.txt').read(), k.read())"),
            "('aaaaaaaaaa', b'aaaaaaaaaa')");
  CHECK_STR(py_eval(H, "k.seek(0)\n"
                       "before = k.read()\n"
                       "call('write_file', {'text': 'bbbbbbbbbb'})\n"
                       "k.seek(0)\n"
                       "(before, k.read(), open('/data/tool_out.txt').read())"),
            "(b'aaaaaaaaaa', b'bbbbbbbbbb', 'bbbbbbbbbb')");
  CHECK_STR(py_eval(H, "k.close()"), "");
}

TEST(callback_can_run_python_in_the_same_sandbox) {
  CHECK_STR(py_eval(H, "r = call('nested_python', {})\n(r['rc'], r['repr'], inner_value)"),
            "(0, '42', 42)");
}

TEST(calls_are_recorded_in_the_history) {
  sbx *h;
  REQUIRE(sbx_open(NULL, SBX_OPEN_MEMORY, &h) == SBX_OK);
  REQUIRE(sbx_tools_register(h, TOOLS, sizeof TOOLS / sizeof TOOLS[0], tool_cb, NULL) == SBX_OK);
  CHECK_EQ(
      py_error(h,
               "from host_tools import call\n"
               "call('add', {'a': 1, 'b': 2})\n"
               "try:\n    call('fails', {})\nexcept RuntimeError:\n    pass\n"
               "try:\n    call('undeclared', {'k': 1})\nexcept RuntimeError:\n    pass",
               NULL),
      SBX_PY_OK);
  sbx_history_entry *e = history_exactly(
      h, 10, 4); /* newest first by start: the python call started first */
  REQUIRE(e);
  check_history_row(&e[3], (history_want){.name = "python", .status = "success"});
  /* refused calls are recorded too */
  check_history_row(&e[0], (history_want){.name = "undeclared", .status = "error",
                                           .error_has = "[permission_error]",
                                           .parameters_has = "\"k\""});
  check_history_row(&e[1], (history_want){.name = "fails", .status = "error",
                                           .error_has = "[internal_error]"});
  check_history_row(&e[2], (history_want){.name = "add", .status = "success",
                                           .result_has = "3", .parameters_has = "\"a\""});
  sbx_free(e);
  sbx_close(h);
}

TEST(tool_call_from_the_host_api) {
  char *res = NULL;
  CHECK_EQ(sbx_tool_call(H, "add", "{\"a\": 5, \"b\": 6}", &res), SBX_OK);
  CHECK_STR(res, "{\"sum\":11}");
  sbx_free(res);
  CHECK_EQ(sbx_tool_call(H, "add", "{\"a\": 5}", &res), SBX_ERROR);
  CHECK(strncmp(sbx_errmsg(H), "[validation_error]", 18) == 0);
  CHECK_EQ(sbx_tool_call(H, "missing", "{}", &res), SBX_ERROR);
  CHECK(strncmp(sbx_errmsg(H), "[permission_error]", 18) == 0);
}

TEST(register_refuses_bad_definitions) {
  sbx_tool_def bad_name = {"no spaces", NULL, NULL, NULL, 0};
  CHECK_EQ(sbx_tools_register(H, &bad_name, 1, tool_cb, NULL), SBX_MISUSE);
  sbx_tool_def bad_schema = {"ok_name", NULL, "{not json", NULL, 0};
  CHECK_EQ(sbx_tools_register(H, &bad_schema, 1, tool_cb, NULL), SBX_MISUSE);
  sbx_tool_def not_object = {"ok_name", NULL, "42", NULL, 0};
  CHECK_EQ(sbx_tools_register(H, &not_object, 1, tool_cb, NULL), SBX_MISUSE);
  char *res = NULL;
  CHECK_EQ(sbx_tool_call(H, "ok_name", "{}", &res), SBX_ERROR); /* nothing was declared */
}

TEST(search_ranks_with_bm25) {
  sbx *h;
  REQUIRE(sbx_open(NULL, SBX_OPEN_MEMORY, &h) == SBX_OK);
  sbx_tool_def defs[] = {
      {"read_file", "Read a file from the workspace and return its text.",
       "{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"}}}", NULL, 0},
      {"web_search", "Search the web for pages about a query.",
       "{\"type\":\"object\",\"properties\":{\"query\":{\"type\":\"string\"}}}", NULL, 0},
      {"send_email", "Send an email message to a recipient.",
       "{\"type\":\"object\",\"properties\":{\"to\":{\"type\":\"string\"},\"body\":{\"type\":\"string\"}}}",
       NULL, 0},
      {"getWeather", "Current weather for a city.", NULL, NULL, 0},
  };
  REQUIRE(sbx_tools_register(h, defs, 4, tool_cb, NULL) == SBX_OK);
  char *json = NULL;
  REQUIRE(sbx_tools_search(h, "read file", "brief", 10, &json) == SBX_OK);
  json_t *a = json_loads(json, 0, NULL);
  REQUIRE(json_is_array(a) && json_array_size(a) >= 1);
  CHECK_STR(json_string_value(json_object_get(json_array_get(a, 0), "name")), "read_file");
  CHECK(json_object_get(json_array_get(a, 0), "input_schema") == NULL);
  json_decref(a);
  sbx_free(json);
  /* A name match outweighs a description match (3.5 vs 1.5); camelCase splits. */
  REQUIRE(sbx_tools_search(h, "weather", "full", 1, &json) == SBX_OK);
  a = json_loads(json, 0, NULL);
  REQUIRE(json_array_size(a) == 1);
  CHECK_STR(json_string_value(json_object_get(json_array_get(a, 0), "name")), "getWeather");
  CHECK(json_object_get(json_array_get(a, 0), "input_schema") != NULL);
  json_decref(a);
  sbx_free(json);
  /* The same from inside the sandbox. */
  CHECK_STR(py_eval(h, "from host_tools import search\n[t['name'] for t in search('email message')]"),
            "['send_email']");
  CHECK_STR(py_eval(h, "len(search('zzz unknown'))"), "0");
  CHECK_STR(py_eval(h, "len(search('', limit=2))"), "2");
  sbx_close(h);
}

TEST(schema_subset) {
  struct {
    const char *schema, *value;
    int ok;
  } cases[] = {
      {"{\"type\":\"integer\"}", "3", 1},
      {"{\"type\":\"integer\"}", "3.0", 1},
      {"{\"type\":\"integer\"}", "3.5", 0},
      {"{\"type\":[\"string\",\"null\"]}", "null", 1},
      {"{\"enum\":[1,\"a\"]}", "\"a\"", 1},
      {"{\"enum\":[1,\"a\"]}", "2", 0},
      {"{\"const\":{\"k\":1}}", "{\"k\":1}", 1},
      {"{\"minimum\":0,\"exclusiveMaximum\":10}", "10", 0},
      {"{\"type\":\"string\",\"minLength\":2,\"maxLength\":3}", "\"\\u00e9\\u00e9\"", 1},
      {"{\"type\":\"string\",\"maxLength\":3}", "\"abcd\"", 0},
      {"{\"type\":\"array\",\"items\":{\"type\":\"number\"},\"maxItems\":2}", "[1,2]", 1},
      {"{\"type\":\"array\",\"items\":{\"type\":\"number\"}}", "[1,\"x\"]", 0},
      {"{\"anyOf\":[{\"type\":\"string\"},{\"type\":\"integer\"}]}", "true", 0},
      {"{\"oneOf\":[{\"type\":\"number\"},{\"type\":\"integer\"}]}", "1", 0},
      {"{\"allOf\":[{\"minimum\":1},{\"maximum\":2}]}", "2", 1},
      {"{\"not\":{\"type\":\"null\"}}", "null", 0},
      {"{\"properties\":{\"a\":{\"properties\":{\"b\":{\"type\":\"string\"}}}}}", "{\"a\":{\"b\":1}}", 0},
      {"false", "1", 0},
      {"true", "1", 1},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    json_t *s = json_loads(cases[i].schema, JSON_DECODE_ANY, NULL);
    json_t *v = json_loads(cases[i].value, JSON_DECODE_ANY, NULL);
    REQUIRE(s && v);
    char err[256];
    int r = py_schema_validate(s, v, err, sizeof err);
    if ((r == 0) != cases[i].ok) fprintf(stderr, "  schema case %zu: %s\n", i, err);
    CHECK_EQ(r == 0, cases[i].ok);
    json_decref(s);
    json_decref(v);
  }
  /* The message names the path. */
  json_t *s = json_loads("{\"properties\":{\"a\":{\"items\":{\"type\":\"string\"}}}}", 0, NULL);
  json_t *v = json_loads("{\"a\":[\"x\",2]}", 0, NULL);
  char err[256];
  CHECK_EQ(py_schema_validate(s, v, err, sizeof err), -1);
  CHECK_STR(err, "$.a[1]: expected string");
  json_decref(s);
  json_decref(v);
  /* Schemas nested deeper than the checker goes are refused up front. */
  char deep[2048] = "";
  for (int i = 0; i < 100; i++) strcat(deep, "{\"not\":");
  strcat(deep, "true");
  for (int i = 0; i < 100; i++) strcat(deep, "}");
  s = json_loads(deep, 0, NULL);
  REQUIRE(s);
  CHECK_EQ(py_schema_check(s), 0);
  json_decref(s);
}

/* Threads of the sandboxed code call tools at the same time: each gets the
 * answer to its own call (a+b with its own a), none hangs, the worker lives. */
static void concurrent_calls(int nthreads, int calls_each) {
  char code[1024];
  snprintf(code, sizeof code,
           "import threading\n"
           "from host_tools import call\n"
           "results, errors = {}, []\n"
           "def worker(i):\n"
           "    try:\n"
           "        for k in range(%d):\n"
           "            r = call('add', {'a': i * 1000, 'b': k})\n"
           "            if r != {'sum': i * 1000 + k}:\n"
           "                errors.append((i, k, r))\n"
           "        results[i] = True\n"
           "    except BaseException as e:\n"
           "        errors.append((i, repr(e)))\n"
           "ts = [threading.Thread(target=worker, args=(i,)) for i in range(%d)]\n"
           "for t in ts: t.start()\n"
           "for t in ts: t.join()\n"
           "(len(results), errors)",
           calls_each, nthreads);
  char want[64];
  snprintf(want, sizeof want, "(%d, [])", nthreads);
  calls = 0;
  sbx_py_options o = {.timeout = 60};
  sbx_py_result *r = py_run_opt(H, code, &o);
  REQUIRE(r);
  CHECK_EQ(r->error, SBX_PY_OK);
  CHECK_STR(r->repr ? r->repr : "", want);
  sbx_free(r);
  CHECK_EQ(calls, nthreads * calls_each);
  CHECK_STR(py_eval(H, "1 + 1"), "2");
}

TEST(concurrent_calls_from_2_threads) { concurrent_calls(2, 20); }
TEST(concurrent_calls_from_4_threads) { concurrent_calls(4, 20); }
TEST(concurrent_calls_from_50_threads) { concurrent_calls(50, 4); }

/* A thread's tool call while the main thread is itself in a call whose
 * callback runs Python in the sandbox (a nested request): both finish. */
TEST(concurrent_call_during_a_nested_call) {
  sbx_py_options o = {.timeout = 60};
  sbx_py_result *r = py_run_opt(H,
                                "import threading\n"
                                "from host_tools import call\n"
                                "out = []\n"
                                "t = threading.Thread(target=lambda: out.append(call('add', {'a': 1, 'b': 2})))\n"
                                "t.start()\n"
                                "n = call('nested_python')\n"
                                "t.join()\n"
                                "(n['repr'], out)",
                                &o);
  REQUIRE(r);
  CHECK_EQ(r->error, SBX_PY_OK);
  CHECK_STR(r->repr ? r->repr : "", "('42', [{'sum': 3}])");
  sbx_free(r);
}

int main(int argc, char **argv) {
  harness_init(argc, argv);
  if (sbx_open(NULL, SBX_OPEN_MEMORY, &H) != SBX_OK) return 1;
  if (sbx_tools_register(H, TOOLS, sizeof TOOLS / sizeof TOOLS[0], tool_cb, NULL) != SBX_OK) return 1;
  RUN(call_returns_the_result);
  RUN(typed_stubs_from_the_schemas);
  RUN(errors_reach_the_sandbox_as_runtime_errors);
  RUN(a_late_result_after_timeout_is_dropped);
  RUN(callback_can_write_files_visible_at_once);
  RUN(callback_rewrite_of_a_cached_file_is_read_afresh);
  RUN(callback_can_run_python_in_the_same_sandbox);
  RUN(calls_are_recorded_in_the_history);
  RUN(tool_call_from_the_host_api);
  RUN(register_refuses_bad_definitions);
  RUN(search_ranks_with_bm25);
  RUN(schema_subset);
  RUN(concurrent_calls_from_2_threads);
  RUN(concurrent_calls_from_4_threads);
  RUN(concurrent_calls_from_50_threads);
  RUN(concurrent_call_during_a_nested_call);
  sbx_close(H);
  return harness_done();
}
