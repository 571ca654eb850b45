/*
 * test_nested.c - host tool callbacks that call back into the same sandbox
 * while a shell script of that sandbox waits for them: the script runs
 * `python3` (or `tool`), whose tool call reaches a C callback, and the
 * callback runs sbx_bash, reads files or runs Python in the same sandbox.
 * The shell holds the sandbox for its whole script, so these calls must run
 * on the script's loan (src/py/py_loan.c) instead of waiting for the lock,
 * which would only end with the tool's timeout.
 *
 * Every tool here has a 60 s timeout and every check that a call came back
 * "promptly" allows 30 s (a loaded machine under ASan is slow), so a deadlock
 * fails the test instead of passing late.
 */
#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "py_util.h"

static sbx *H;
static int recurse_depth, recurse_refused; /* the recurse tool's nesting */
static int st_dummy;                       /* an exit status nobody checks */

/* Tools: sh runs {"script"} with sbx_bash and returns {"out", "status"};
 * read returns the text of {"path"} through sbx_read_file; py runs {"code"}
 * with sbx_python_exec and returns {"repr"}; late sleeps past its timeout and
 * then writes /data/late.txt through the C API. */
static int tool_cb(void *ud, sbx *h, const char *name, const char *args, char **result,
                   char **error) {
  (void)ud;
  json_t *a = json_loads(args, 0, NULL), *res = json_object();
  if (strcmp(name, "sh") == 0) {
    const char *script = json_string_value(json_object_get(a, "script"));
    sbx_bash_result r;
    int rc = sbx_bash(h, script, strlen(script), &r);
    json_object_set_new(res, "rc", json_integer(rc));
    json_object_set_new(res, "out", json_stringn(r.out ? r.out : "", r.out_len));
    json_object_set_new(res, "err", json_stringn(r.err ? r.err : "", r.err_len));
    json_object_set_new(res, "status", json_integer(r.exit_code));
    sbx_bash_result_free(&r);
  } else if (strcmp(name, "read") == 0) {
    void *data = NULL;
    size_t len = 0;
    int rc = sbx_read_file(h, json_string_value(json_object_get(a, "path")), &data, &len);
    json_object_set_new(res, "rc", json_integer(rc));
    json_object_set_new(res, "text", json_stringn(rc == SBX_OK ? data : "", rc == SBX_OK ? len : 0));
    sbx_free(data);
  } else if (strcmp(name, "py") == 0) {
    sbx_py_result *r = NULL;
    int rc = sbx_python_exec(h, json_string_value(json_object_get(a, "code")), NULL, &r);
    json_object_set_new(res, "rc", json_integer(rc));
    json_object_set_new(res, "repr", json_string(rc == SBX_OK && r->repr ? r->repr : ""));
    json_object_set_new(res, "error", json_integer(rc == SBX_OK ? r->error : -1));
    sbx_free(r);
  } else if (strcmp(name, "recurse") == 0) {
    /* Calls itself through a nested script until the nesting limit says no. */
    sbx_bash_result r;
    recurse_depth++;
    int rc = sbx_bash(h, "tool recurse", 12, &r);
    if (rc == SBX_MISUSE && strstr(sbx_errmsg(h), "nested more than")) recurse_refused = recurse_depth;
    recurse_depth--;
    json_object_set_new(res, "rc", json_integer(rc));
    sbx_bash_result_free(&r);
  } else if (strcmp(name, "late") == 0) {
    usleep(1200 * 1000); /* abandoned after 0.3 s */
    int rc = sbx_write_file(h, "/data/late.txt", "late\n", 5, 0);
    json_object_set_new(res, "rc", json_integer(rc));
  } else {
    *error = strdup("unknown tool");
    json_decref(a);
    json_decref(res);
    return 1;
  }
  *result = json_dumps(res, JSON_COMPACT);
  json_decref(a);
  json_decref(res);
  return 0;
}

static const sbx_tool_def TOOLS[] = {
    {"sh", "Run a shell script in the same sandbox.", NULL, NULL, 60},
    {"read", "Read a file of the same sandbox.", NULL, NULL, 60},
    {"py", "Run Python in the same sandbox.", NULL, NULL, 60},
    {"late", "Answer after the timeout, then write a file.", NULL, NULL, 0.3},
    {"recurse", "Run a script that calls this tool again.", NULL, NULL, 60},
};

/* Runs a script; returns its stdout (static buffer) and sets *status. */
static const char *bash(const char *script, int *status, double *secs) {
  static char out[8192];
  sbx_bash_result r;
  double t0 = harness_now_s();
  int rc = sbx_bash(H, script, strlen(script), &r);
  if (secs) *secs = harness_now_s() - t0;
  snprintf(out, sizeof out, "%.*s", (int)r.out_len, r.out ? r.out : "");
  if (rc != SBX_OK || (r.err_len && getenv("PY_TEST_VERBOSE")))
    fprintf(stderr, "  rc %d stderr: %.*s\n", rc, (int)r.err_len, r.err ? r.err : "");
  if (status) *status = rc != SBX_OK ? -1 : r.exit_code;
  sbx_bash_result_free(&r);
  return out;
}

TEST(python3_callback_runs_sbx_bash) {
  int st;
  double secs;
  const char *out = bash("echo hello > /data/f\n"
                         "python3 -c 'from host_tools import call\n"
                         "r = call(\"sh\", {\"script\": \"cat /data/f; echo $((6*7))\"})\n"
                         "print(r[\"rc\"], r[\"status\"], r[\"out\"], end=\"\")'\n"
                         "echo after $?\n",
                         &st, &secs);
  CHECK_STR(out, "0 0 hello\n42\nafter 0\n");
  CHECK_EQ(st, 0);
  CHECK(secs < 30);
}

TEST(tool_command_callback_reads_a_file) {
  int st;
  double secs;
  CHECK_STR(bash("echo data > /data/g; tool read '{\"path\": \"/data/g\"}'", &st, &secs),
            "{\"rc\":0,\"text\":\"data\\n\"}\n");
  CHECK_EQ(st, 0);
  CHECK(secs < 30);
  /* The tool command's callback may run a script too. */
  CHECK_STR(bash("tool sh '{\"script\": \"echo via tool\"}'", &st, &secs),
            "{\"rc\":0,\"out\":\"via tool\\n\",\"err\":\"\",\"status\":0}\n");
  CHECK(secs < 30);
}

TEST(nested_script_runs_in_a_separate_shell) {
  /* The running script's cwd and variables are neither seen nor changed by
   * the callback's script, which starts like a fresh session. */
  int st;
  const char *out = bash("cd /tmp; X=outer\n"
                         "python3 -c 'from host_tools import call\n"
                         "r = call(\"sh\", {\"script\": \"echo [${X-unset}] $PWD; cd /; X=inner; echo $X $PWD\"})\n"
                         "print(r[\"out\"], end=\"\")'\n"
                         "echo $X $PWD\n",
                         &st, NULL);
  CHECK_STR(out, "[unset] /data\ninner /\nouter /tmp\n");
  /* The persistent session is itself again afterwards. */
  CHECK_STR(bash("echo $X $PWD; cd /data", &st, NULL), "outer /tmp\n");
}

TEST(callback_script_runs_python3_in_a_pipeline) {
  /* The inner python3 runs on a pipeline stage's thread of the nested shell
   * while the outer python3 waits in its tool call. */
  int st;
  double secs;
  const char *out = bash("python3 -c 'from host_tools import call\n"
                         "r = call(\"sh\", {\"script\": \"echo abc | python3 -c \\\"import sys; "
                         "print(sys.stdin.read().upper().strip())\\\" | tr A Z; echo inner $?\"})\n"
                         "print(r[\"out\"], end=\"\")' | tr a-z A-Z\n",
                         &st, &secs);
  CHECK_STR(out, "ZBC\nINNER 0\n");
  CHECK_EQ(st, 0);
  CHECK(secs < 30);
}

TEST(callback_runs_python_while_the_script_waits) {
  int st;
  const char *out = bash("python3 -c 'from host_tools import call\n"
                         "open(\"/tmp/shared\", \"w\").write(\"from outer\")\n"
                         "r = call(\"py\", {\"code\": \"open(\\\"/tmp/shared\\\").read()\"})\n"
                         "print(r[\"rc\"], r[\"error\"], r[\"repr\"])'\n",
                         &st, NULL);
  CHECK_STR(out, "0 0 'from outer'\n");
}

TEST(pipeline_from_sbx_python_exec_callback) {
  /* No shell is running at first: sbx_python_exec -> callback -> sbx_bash in
   * the persistent session -> python3 on a pipeline stage's thread. */
  CHECK_STR(py_eval(H, "from host_tools import call\n"
                       "r = call('sh', {'script': 'echo xyz | python3 -c \"import sys; print(sys.stdin.read()[::-1].strip())\" | cat'})\n"
                       "(r['rc'], r['out'])"),
            "(0, 'zyx\\n')");
}

TEST(both_sides_write_files_in_one_pipeline) {
  /* python3 writes files through FUSE while the next stage writes into the
   * store: the two never use the store at the same time. */
  int st;
  const char *out = bash("python3 -c 'import os\n"
                         "for i in range(40):\n"
                         "    open(\"/tmp/p%d\" % i, \"w\").write(\"x\" * i)\n"
                         "    print(i)' | tee /tmp/tee.log | tail -n 1\n"
                         "wc -l < /tmp/tee.log; cat /tmp/p39 | wc -c\n",
                         &st, NULL);
  CHECK_STR(out, "39\n40\n39\n");
}

TEST(abandoned_callback_waits_for_the_script) {
  /* The callback outlives its timeout; its later write waits for the running
   * script to end instead of racing it, then lands. */
  int st;
  double secs;
  sbx_remove(H, "/data/late.txt", 0);
  const char *out = bash("tool late '{}'; echo status $?; sleep 1.5\n"
                         "test -e /data/late.txt && echo early; true", &st, &secs);
  CHECK_STR(out, "status 1\n");
  CHECK(secs < 30);
  usleep(300 * 1000);
  CHECK_STR(bash("cat /data/late.txt", &st, NULL), "late\n");
}

TEST(nesting_is_bounded) {
  int st;
  double secs;
  recurse_refused = 0;
  const char *out = bash("tool recurse; echo status $?", &st, &secs);
  CHECK_STR(out, "{\"rc\":0}\nstatus 0\n");
  /* The top script runs in the persistent session, callbacks 1..4 in nested
   * sessions (SANDBOX_SHELL_NEST), and the 5th nested call is refused. */
  CHECK_EQ(recurse_refused, 5);
  CHECK(secs < 30);
}

TEST(cancel_reaches_the_nested_script) {
  check_bash_cancel(H,
                    "python3 -c 'from host_tools import call\n"
                    "print(call(\"sh\", {\"script\": \"sleep 50; echo not cancelled\"}))'\n"
                    "echo after\n",
                    400);
  /* The next script runs normally. */
  CHECK_STR(bash("tool sh '{\"script\": \"echo ok\"}'", &st_dummy, NULL),
            "{\"rc\":0,\"out\":\"ok\\n\",\"err\":\"\",\"status\":0}\n");
}

TEST(no_processes_left_after_close) {
  CHECK_EQ(close_and_count_jail_processes(&H), 0);
}

int main(int argc, char **argv) {
  if (py_test_begin(argc, argv, &H)) return 1;
  if (sbx_tools_register(H, TOOLS, sizeof TOOLS / sizeof TOOLS[0], tool_cb, NULL) != SBX_OK) return 1;
  RUN(python3_callback_runs_sbx_bash);
  RUN(tool_command_callback_reads_a_file);
  RUN(nested_script_runs_in_a_separate_shell);
  RUN(callback_script_runs_python3_in_a_pipeline);
  RUN(callback_runs_python_while_the_script_waits);
  RUN(pipeline_from_sbx_python_exec_callback);
  RUN(both_sides_write_files_in_one_pipeline);
  RUN(abandoned_callback_waits_for_the_script);
  RUN(nesting_is_bounded);
  RUN(cancel_reaches_the_nested_script);
  RUN(no_processes_left_after_close);
  if (H) sbx_close(H);
  return harness_done();
}
