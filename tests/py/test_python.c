/*
 * test_python.c - Python calls through the C API: results, contexts, errors,
 * limits, the shared file view with the host, history, and that nothing is
 * left running.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "api/api_util.h"
#include "harness.h"
#include "py_util.h"
#include "sbx.h"

static sbx *H; /* one sandbox shared by the tests that do not need a fresh one */

TEST(trailing_expression_repr_and_stdout) {
  sbx_py_result *r = py_run(H, "x = 20\nprint('hello')\nimport sys\nprint('warn', file=sys.stderr)\nx * 2 + 2");
  REQUIRE(r);
  CHECK_EQ(r->error, SBX_PY_OK);
  CHECK_STR(r->repr, "42");
  CHECK_STR(r->out, "hello\n");
  CHECK_EQ(r->out_len, 6);
  CHECK_STR(r->err, "warn\n");
  CHECK(r->error_type == NULL && r->traceback == NULL);
  sbx_free(r);
  /* A statement at the end gives no repr, and None gives none either. */
  r = py_run(H, "y = 1");
  REQUIRE(r);
  CHECK(r->repr == NULL);
  sbx_free(r);
  r = py_run(H, "None");
  REQUIRE(r);
  CHECK(r->repr == NULL);
  sbx_free(r);
  sbx_py_options o = {.no_repr = 1};
  r = py_run_opt(H, "1 + 1", &o);
  REQUIRE(r);
  CHECK(r->repr == NULL);
  sbx_free(r);
}

TEST(state_persists_between_calls) {
  CHECK_STR(py_eval(H, "counter = 0"), "");
  for (int i = 0; i < 5; i++) CHECK_STR(py_eval(H, "counter += 1"), "");
  CHECK_STR(py_eval(H, "counter"), "5");
  CHECK_STR(py_eval(H, "def f(n): return n * counter\nf(3)"), "15");
  CHECK_STR(py_eval(H, "f(2)"), "10");
}

TEST(runs_jailed_as_the_sandbox_user) {
  CHECK_STR(py_eval(H, "import os; (os.getuid(), os.getgid(), os.getcwd())"), "(1000, 1000, '/data')");
  CHECK_STR(py_eval(H, "import socket; socket.gethostname()"), "'sandbox'");
  /* The worker is pid 2 of its own pid namespace (the init is pid 1). */
  CHECK_STR(py_eval(H, "os.getpid()"), "2");
  CHECK_STR(py_eval(H, "open('/proc/self/status').read().split('CapEff:')[1].split()[0]"),
            "'0000000000000000'");
  CHECK_STR(py_eval(H, "open('/proc/self/status').read().split('NoNewPrivs:')[1].split()[0]"), "'1'");
  CHECK_STR(py_eval(H, "open('/proc/self/status').read().split('Seccomp:')[1].split()[0]"), "'2'");
}

TEST(named_contexts_are_separate) {
  sbx_py_options a = {.context = "alpha"}, b = {.context = "beta"};
  sbx_py_result *r = py_run_opt(H, "v = 'a'", &a);
  REQUIRE(r);
  sbx_free(r);
  r = py_run_opt(H, "v", &b);
  REQUIRE(r);
  CHECK_EQ(r->error, SBX_PY_EXCEPTION);
  CHECK_STR(r->error_type, "NameError");
  sbx_free(r);
  r = py_run_opt(H, "v", &a);
  REQUIRE(r);
  CHECK_STR(r->repr, "'a'");
  sbx_free(r);
}

TEST(context_create_fork_reset_delete) {
  CHECK_EQ(sbx_python_context_create(H, "c1"), SBX_OK);
  CHECK_EQ(sbx_python_context_create(H, "c1"), SBX_ERROR);
  CHECK(strstr(sbx_errmsg(H), "already exists") != NULL);
  sbx_py_options c1 = {.context = "c1"}, c2 = {.context = "c2"};
  sbx_py_result *r = py_run_opt(H, "data = {'k': [1, 2]}\nimport json", &c1);
  REQUIRE(r);
  sbx_free(r);
  CHECK_EQ(sbx_python_context_fork(H, "c1", "c2"), SBX_OK);
  /* The fork is a copy: changing it leaves the parent alone. */
  r = py_run_opt(H, "data['k'].append(3)\n(data, json.dumps(1))", &c2);
  REQUIRE(r);
  CHECK_STR(r->repr, "({'k': [1, 2, 3]}, '1')");
  sbx_free(r);
  r = py_run_opt(H, "data", &c1);
  REQUIRE(r);
  CHECK_STR(r->repr, "{'k': [1, 2]}");
  sbx_free(r);
  CHECK_EQ(sbx_python_context_fork(H, "nope", "c3"), SBX_NOTFOUND);
  CHECK_EQ(sbx_python_context_fork(H, "c1", "c2"), SBX_ERROR); /* c2 exists */
  CHECK_EQ(sbx_python_context_reset(H, "c1"), SBX_OK);
  r = py_run_opt(H, "'data' in dir()", &c1);
  REQUIRE(r);
  CHECK_STR(r->repr, "False");
  sbx_free(r);
  CHECK_EQ(sbx_python_context_delete(H, "c2"), SBX_OK);
  CHECK_EQ(sbx_python_context_delete(H, "c2"), SBX_NOTFOUND);
  CHECK_EQ(sbx_python_context_create(H, ""), SBX_MISUSE);
  CHECK_EQ(sbx_python_context_create(H, "bad\xff"), SBX_MISUSE);
}

TEST(set_var_from_json) {
  CHECK_EQ(sbx_python_set_var(H, "vars", "cfg", "{\"a\": [1, 2.5, null, true], \"b\": \"x\"}"), SBX_OK);
  sbx_py_options o = {.context = "vars"};
  sbx_py_result *r = py_run_opt(H, "cfg['a'], cfg['b']", &o);
  REQUIRE(r);
  CHECK_STR(r->repr, "([1, 2.5, None, True], 'x')");
  sbx_free(r);
  CHECK_EQ(sbx_python_set_var(H, "vars", "cfg", "{bad json"), SBX_MISUSE);
  CHECK_EQ(sbx_python_set_var(H, "vars", "not a name", "1"), SBX_MISUSE);
  CHECK_EQ(sbx_python_set_var(H, "vars", "class", "1"), SBX_MISUSE);
}

TEST(protected_names_cannot_change) {
  sbx_py_options o = {.context = "prot"};
  CHECK_EQ(sbx_python_set_var(H, "prot", "API", "\"v1\""), SBX_OK);
  CHECK_EQ(sbx_python_protect(H, "prot", "API"), SBX_OK);
  const char *attempts[] = {"API = 'v2'", "del API", "import os as API", "def API(): pass",
                            "for API in range(2): pass", "def f():\n    global API\n    API = 3\nf()"};
  for (size_t i = 0; i < sizeof attempts / sizeof attempts[0]; i++) {
    sbx_py_result *r = py_run_opt(H, attempts[i], &o);
    REQUIRE(r);
    CHECK_EQ(r->error, SBX_PY_PROTECTED);
    sbx_free(r);
  }
  /* Through globals(): undone after the call and reported. */
  CHECK_EQ(py_error(H, "globals()['API'] = 'sneaky'", &o), SBX_PY_PROTECTED);
  sbx_py_result *r = py_run_opt(H, "API", &o);
  REQUIRE(r);
  CHECK_STR(r->repr, "'v1'");
  sbx_free(r);
  CHECK_EQ(sbx_python_set_var(H, "prot", "API", "2"), SBX_ERROR);
  /* Other names are free. */
  r = py_run_opt(H, "other = API + '!'\nother", &o);
  REQUIRE(r);
  CHECK_STR(r->repr, "'v1!'");
  sbx_free(r);
}

TEST(syntax_error_is_structured) {
  sbx_py_result *r = py_run(H, "def broken(:\n  pass");
  REQUIRE(r);
  CHECK_EQ(r->error, SBX_PY_SYNTAX);
  CHECK_STR(r->error_type, "SyntaxError");
  CHECK(r->traceback && strstr(r->traceback, "def broken(:"));
  sbx_free(r);
}

TEST(exception_has_type_message_and_traceback) {
  sbx_py_result *r = py_run(H, "def inner():\n    raise ValueError('bad value 7')\ninner()");
  REQUIRE(r);
  CHECK_EQ(r->error, SBX_PY_EXCEPTION);
  CHECK_STR(r->error_type, "ValueError");
  CHECK_STR(r->error_message, "bad value 7");
  CHECK(r->traceback && strstr(r->traceback, "in inner") && strstr(r->traceback, "raise ValueError"));
  /* Our own frames never show. */
  CHECK(r->traceback && !strstr(r->traceback, "sbx-worker"));
  sbx_free(r);
}

TEST(system_exit_gives_exit_code) {
  sbx_py_result *r = py_run(H, "import sys\nsys.exit(3)");
  REQUIRE(r);
  CHECK_EQ(r->error, SBX_PY_EXIT);
  CHECK_EQ(r->exit_code, 3);
  sbx_free(r);
  CHECK_EQ(py_error(H, "raise SystemExit(0)", NULL), SBX_PY_OK);
}

TEST(timeout_interrupts_and_keeps_the_context) {
  CHECK_STR(py_eval(H, "kept = 'yes'"), "");
  sbx_py_options o = {.timeout = 0.3};
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  sbx_py_result *r = py_run_opt(H, "while True:\n    pass", &o);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  REQUIRE(r);
  CHECK_EQ(r->error, SBX_PY_TIMEOUT);
  CHECK_EQ(r->killed, 0);
  double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
  CHECK(secs >= 0.3 && secs < 30); /* stopped: not a speed check */
  sbx_free(r);
  /* A blocking sleep is interrupted too. */
  check_py_timeout(H, "import time\ntime.sleep(30)", 0.3, 0, 0);
  CHECK_STR(py_eval(H, "kept"), "'yes'");
}

TEST(timeout_kills_code_that_ignores_the_interrupt) {
  sbx *h = open_mem();
  REQUIRE(h);
  CHECK_STR(py_eval(h, "lost = 1"), "");
  check_py_timeout(h,
                   "import time\n"
                   "while True:\n"
                   "    try:\n"
                   "        while True: time.sleep(0.01)\n"
                   "    except BaseException:\n"
                   "        pass",
                   0.2, 0.3, 1);
  /* The next call starts a fresh worker: the context is gone, Python works. */
  CHECK(strstr(py_eval(h, "lost"), "not defined") != NULL);
  CHECK_STR(py_eval(h, "2 ** 10"), "1024");
  sbx_close(h);
}

TEST(memory_limit_gives_memory_error) {
  sbx_py_options o = {.max_memory = 512u << 20};
  sbx_py_result *r = py_run_opt(H, "big = bytearray(1536 * 1024 * 1024)", &o);
  REQUIRE(r);
  CHECK_EQ(r->error, SBX_PY_MEMORY);
  CHECK_STR(r->error_type, "MemoryError");
  sbx_free(r);
  /* The worker survives, and a later call has its memory back. */
  CHECK_STR(py_eval(H, "len(bytearray(64 * 1024 * 1024))"), "67108864");
}

TEST(output_limit_truncates) {
  sbx_py_options o = {.max_output = 1000};
  sbx_py_result *r = py_run_opt(H, "for i in range(100000):\n    print('line', i)", &o);
  REQUIRE(r);
  CHECK_EQ(r->error, SBX_PY_OUTPUT_LIMIT);
  CHECK(r->out_len <= 1000);
  CHECK(r->out_len > 0 && strncmp(r->out, "line 0\n", 7) == 0);
  sbx_free(r);
  CHECK_STR(py_eval(H, "'after'"), "'after'");
}

TEST(large_output_is_complete) {
  sbx_py_result *r = py_run(H, "import sys\nsys.stdout.write('y' * 3000000)\n7");
  REQUIRE(r);
  CHECK_EQ(r->error, SBX_PY_OK);
  CHECK_EQ(r->out_len, 3000000);
  CHECK(r->out[0] == 'y' && r->out[2999999] == 'y');
  CHECK_STR(r->repr, "7");
  sbx_free(r);
}

TEST(cpu_limit) {
  sbx_py_options o = {.max_cpu = 1, .timeout = 20};
  CHECK_EQ(py_error(H, "while True: pass", &o), SBX_PY_CPU);
  CHECK_STR(py_eval(H, "'alive'"), "'alive'");
}

TEST(preload_packages) {
  const char *ok[] = {"json", "numpy", NULL};
  sbx_py_options o = {.preload = ok};
  sbx_py_result *r = py_run_opt(H, "import numpy\nint(numpy.arange(10).sum())", &o);
  REQUIRE(r);
  CHECK_EQ(r->error, SBX_PY_OK);
  CHECK_STR(r->repr, "45");
  sbx_free(r);
  const char *bad[] = {"no_such_module_xyz", NULL};
  o.preload = bad;
  r = py_run_opt(H, "1", &o);
  REQUIRE(r);
  CHECK_EQ(r->error, SBX_PY_PRELOAD);
  CHECK(r->error_message && strstr(r->error_message, "no_such_module_xyz"));
  sbx_free(r);
}

TEST(pandas_works_in_the_jail) {
  sbx_py_result *r = py_run(H, "import pandas as pd\n"
                               "df = pd.DataFrame({'a': [1, 2, 3]})\n"
                               "int(df['a'].sum())");
  REQUIRE(r);
  CHECK_EQ(r->error, SBX_PY_OK);
  CHECK_STR(r->repr, "6");
  sbx_free(r);
}

TEST(cwd_option) {
  sbx_py_options o = {.cwd = "/tmp"};
  sbx_py_result *r = py_run_opt(H, "import os\nos.getcwd()", &o);
  REQUIRE(r);
  CHECK_STR(r->repr, "'/tmp'");
  sbx_free(r);
  o.cwd = "/does/not/exist";
  CHECK_EQ(py_error(H, "1", &o), SBX_PY_CWD);
}

TEST(files_are_shared_with_the_host) {
  CHECK_EQ(sbx_write_file(H, "/data/from_host.txt", "host data", 9, 0), SBX_OK);
  CHECK_STR(py_eval(H, "open('/data/from_host.txt').read()"), "'host data'");
  CHECK_STR(py_eval(H, "open('/data/from_py.txt', 'w').write('py data')"), "7");
  CHECK_FILE(H, "/data/from_py.txt", "py data");
  /* The same mode and mtime on both sides. */
  CHECK_STR(py_eval(H, "os.chmod('/data/from_py.txt', 0o640)\n"
                       "st = os.stat('/data/from_py.txt')\n"
                       "(oct(st.st_mode & 0o777), st.st_size)"),
            "('0o640', 7)");
  sbx_stat st;
  REQUIRE(sbx_stat_path(H, "/data/from_py.txt", 0, &st) == SBX_OK);
  CHECK_EQ(st.mode & 0777, 0640);
  char code[160];
  snprintf(code, sizeof code, "(st.st_mtime_ns == %lld)",
           (long long)st.mtime * 1000000000LL + st.mtime_nsec);
  CHECK_STR(py_eval(H, code), "True");
  /* /tmp is the store's too. */
  CHECK_STR(py_eval(H, "open('/tmp/t.txt', 'w').write('tmp')"), "3");
  void *data;
  size_t len;
  REQUIRE(sbx_read_file(H, "/tmp/t.txt", &data, &len) == SBX_OK);
  CHECK_EQ(len, 3);
  sbx_free(data);
}

TEST(host_changes_are_visible_at_the_next_call) {
  CHECK_EQ(sbx_write_file(H, "/data/c.txt", "one", 3, 0), SBX_OK);
  CHECK_STR(py_eval(H, "import os\n(open('/data/c.txt').read(), os.path.getsize('/data/c.txt'))"),
            "('one', 3)");
  /* Rewritten (other size) and then removed by the host. */
  CHECK_EQ(sbx_write_file(H, "/data/c.txt", "three", 5, 0), SBX_OK);
  CHECK_STR(py_eval(H, "(open('/data/c.txt').read(), os.path.getsize('/data/c.txt'))"),
            "('three', 5)");
  CHECK_EQ(sbx_remove(H, "/data/c.txt", 0), SBX_OK);
  CHECK_STR(py_eval(H, "os.path.exists('/data/c.txt')"), "False");
  CHECK_EQ(sbx_mkdir(H, "/data/newdir", 0), SBX_OK);
  CHECK_EQ(sbx_write_file(H, "/data/newdir/f", "x", 1, 0), SBX_OK);
  CHECK_STR(py_eval(H, "sorted(os.listdir('/data/newdir'))"), "['f']");
  CHECK_EQ(sbx_rename(H, "/data/newdir/f", "/data/newdir/g"), SBX_OK);
  CHECK_STR(py_eval(H, "(sorted(os.listdir('/data/newdir')), os.path.exists('/data/newdir/f'))"),
            "(['g'], False)");
}

TEST(permissions_match_the_store) {
  CHECK_EQ(sbx_write_file(H, "/data/ro.txt", "ro", 2, 0), SBX_OK);
  CHECK_STR(py_eval(H, "os.chmod('/data/ro.txt', 0o444)"), "");
  sbx_py_result *r = py_run(H, "open('/data/ro.txt', 'w')");
  REQUIRE(r);
  CHECK_EQ(r->error, SBX_PY_EXCEPTION);
  CHECK_STR(r->error_type, "PermissionError");
  sbx_free(r);
  /* The runtime is read-only. */
  r = py_run(H, "open('/usr/lib/python3.11/evil.py', 'w')");
  REQUIRE(r);
  CHECK_EQ(r->error, SBX_PY_EXCEPTION);
  CHECK(r->error_message && strstr(r->error_message, "Read-only file system"));
  sbx_free(r);
}

TEST(history_records_python_calls) {
  sbx *h = open_mem();
  REQUIRE(h);
  sbx_py_result *r = py_run(h, "print('hist')\n1/0");
  REQUIRE(r);
  sbx_free(r);
  sbx_history_entry *e = history_exactly(h, 10, 1);
  REQUIRE(e);
  check_history_row(&e[0], (history_want){.name = "python", .status = "error",
                                           .parameters_has = "1/0",
                                           .error_has = "ZeroDivisionError"});
  sbx_free(e);
  sbx_close(h);
}

TEST(stop_and_restart) {
  sbx *h = open_mem();
  REQUIRE(h);
  CHECK_STR(py_eval(h, "s = 5"), "");
  CHECK_EQ(sbx_python_stop(h), SBX_OK);
  CHECK(strstr(py_eval(h, "s"), "not defined") != NULL);
  CHECK_STR(py_eval(h, "3"), "3");
  sbx_close(h);
}

TEST(misuse_is_refused) {
  sbx_py_result *r = (sbx_py_result *)1;
  CHECK_EQ(sbx_python_exec(H, NULL, NULL, &r), SBX_MISUSE);
  CHECK(r == NULL);
  CHECK_EQ(sbx_python_exec(NULL, "1", NULL, &r), SBX_MISUSE);
  sbx_py_options o = {.context = ""};
  CHECK_EQ(sbx_python_exec(H, "1", &o, &r), SBX_MISUSE);
  o.context = NULL;
  o.timeout = -1;
  CHECK_EQ(sbx_python_exec(H, "1", &o, &r), SBX_MISUSE);
}

TEST(no_jail_means_an_error_never_unjailed) {
  /* A "worker" that is not one: the jail never reports ready. */
  setenv("SBX_PYWORKER", "/bin/false", 1);
  sbx *h = open_mem();
  REQUIRE(h);
  sbx_py_result *r = NULL;
  CHECK_EQ(sbx_python_exec(h, "print('must not run')", NULL, &r), SBX_JAIL);
  CHECK(r == NULL);
  CHECK(strstr(sbx_errmsg(h), "jail") != NULL && strstr(sbx_errmsg(h), "sbx doctor") != NULL);
  unsetenv("SBX_PYWORKER");
  /* With the real worker found again, the same sandbox works. */
  CHECK_STR(py_eval(h, "'works'"), "'works'");
  sbx_close(h);
}

TEST(nothing_is_left_running) {
  int before = count_jail_processes();
  sbx *h = open_mem();
  REQUIRE(h);
  CHECK_STR(py_eval(h, "import subprocess\n"
                       "procs = [subprocess.Popen(['/usr/bin/sleep', '60']) for _ in range(3)]\n"
                       "len(procs)"),
            "3");
  CHECK(count_jail_processes() >= before + 6); /* helper, init, worker, 3 sleeps */
  sbx_close(h);
  CHECK_EQ(count_jail_processes(), before);
  /* And after a kill on timeout. */
  h = open_mem();
  REQUIRE(h);
  sbx_py_options o = {.timeout = 0.2, .grace = 0.2};
  sbx_py_result *r = py_run_opt(h, "import subprocess, signal\n"
                                   "signal.signal(signal.SIGINT, signal.SIG_IGN)\n"
                                   "subprocess.Popen(['/usr/bin/sleep', '60'])\n"
                                   "while True: pass", &o);
  REQUIRE(r);
  CHECK_EQ(r->killed, 1);
  sbx_free(r);
  CHECK_EQ(count_jail_processes(), before);
  sbx_close(h);
  CHECK_EQ(count_jail_processes(), before);
}

int main(int argc, char **argv) {
  if (py_test_begin(argc, argv, &H)) return 1;
  RUN(trailing_expression_repr_and_stdout);
  RUN(state_persists_between_calls);
  RUN(runs_jailed_as_the_sandbox_user);
  RUN(named_contexts_are_separate);
  RUN(context_create_fork_reset_delete);
  RUN(set_var_from_json);
  RUN(protected_names_cannot_change);
  RUN(syntax_error_is_structured);
  RUN(exception_has_type_message_and_traceback);
  RUN(system_exit_gives_exit_code);
  RUN(timeout_interrupts_and_keeps_the_context);
  RUN(timeout_kills_code_that_ignores_the_interrupt);
  RUN(memory_limit_gives_memory_error);
  RUN(output_limit_truncates);
  RUN(large_output_is_complete);
  RUN(cpu_limit);
  RUN(preload_packages);
  RUN(pandas_works_in_the_jail);
  RUN(cwd_option);
  RUN(files_are_shared_with_the_host);
  RUN(host_changes_are_visible_at_the_next_call);
  RUN(permissions_match_the_store);
  RUN(history_records_python_calls);
  RUN(stop_and_restart);
  RUN(misuse_is_refused);
  RUN(no_jail_means_an_error_never_unjailed);
  RUN(nothing_is_left_running);
  sbx_close(H);
  return harness_done();
}
