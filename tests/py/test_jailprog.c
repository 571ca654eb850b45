/*
 * test_jailprog.c - programs the shell runs in the sandbox's jail
 * (src/py/py_spawn.c, worker/forkserver.py): `python3` as a fresh
 * interpreter per invocation, and host programs of the jail's runtime (perl,
 * git, gcc...) wired into the pipeline like any command: streaming, exit
 * status and signals, environment and cwd, redirections, `timeout`, the
 * call's time limit and cancel killing the process tree, which/type/command
 * -v, #! scripts, the programs allow-list, and a jail that cannot start.
 *
 * Every "ends at once" check allows 30 s (a loaded machine under ASan is
 * slow), so a hang fails the test instead of passing late.
 */
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "py/py_int.h"
#include "py_util.h"

static sbx *H;

/* The last call's stderr, status and duration. */
static char ERR[8192];
static int ST;
static double SECS;

/* Runs a script on h; returns its stdout (static buffer). */
static const char *run_on(sbx *h, const char *script) {
  static char out[65536];
  sbx_bash_result r;
  double t0 = harness_now_s();
  int rc = sbx_bash(h, script, strlen(script), &r);
  SECS = harness_now_s() - t0;
  snprintf(out, sizeof out, "%.*s", (int)r.out_len, r.out ? r.out : "");
  snprintf(ERR, sizeof ERR, "%.*s", (int)r.err_len, r.err ? r.err : "");
  ST = rc != SBX_OK ? -1 : r.exit_code;
  if (getenv("PY_TEST_VERBOSE")) fprintf(stderr, "  rc %d stderr: %s\n", rc, ERR);
  sbx_bash_result_free(&r);
  return out;
}

static const char *run(const char *script) { return run_on(H, script); }

/* Processes in the jail, counted by a python3 that is one of them (J1, the
 * worker, the fork server and itself when nothing else runs). Killed
 * processes leave /proc once J1 has reaped them: up to 10 s for the count
 * to come down to 4. */
static int jail_processes(void) {
  int n = 0;
  for (int i = 0; i < 100; i++) {
    n = atoi(run("python3 -c 'import os; print(sum(p.isdigit() for p in os.listdir(\"/proc\")))'"));
    if (n <= 4) break;
    usleep(100 * 1000);
  }
  return n;
}

TEST(python3_is_a_new_process_with_fresh_modules) {
  CHECK_STR(run("cd /data; echo 'X = 1' > mod.py\n"
                "a=$(python3 -c 'import os, mod; print(os.getpid())')\n"
                "b=$(python3 -c 'import os, sys; print(os.getpid(), \"mod\" in sys.modules)')\n"
                "[ \"$a\" != \"${b% *}\" ] && echo new pid; echo ${b#* }"),
            "new pid\nFalse\n");
  /* The agent's loop: a fix made with sed is what the next python3 runs. */
  CHECK_STR(run("cd /data; python3 -c 'import mod; print(mod.X)'\n"
                "sed -i 's/1/2/' mod.py\n"
                "python3 -c 'import mod; print(mod.X)'\n"
                "printf 'import mod\\nprint(\"main\", mod.X)\\n' > m.py; python3 -m m\n"
                "sed -i 's/2/3/' mod.py; python3 -m m\n"
                "test -e __pycache__ || echo no pycache"),
            "1\n2\nmain 2\nmain 3\nno pycache\n");
}

TEST(python3_exits_like_python3) {
  CHECK_STR(run("python3 -c 'import atexit\n"
                "atexit.register(lambda: print(\"atexit\"))\n"
                "try:\n"
                "    raise SystemExit(4)\n"
                "finally:\n"
                "    print(\"finally\")'; echo status $?"),
            "finally\natexit\nstatus 4\n");
  CHECK_STR(run("python3 -c '1/0' 2>/tmp/err; echo $?; head -n 1 /tmp/err; tail -n 1 /tmp/err"),
            "1\nTraceback (most recent call last):\nZeroDivisionError: division by zero\n");
  /* Our runner's frames are not in the traceback. */
  CHECK_STR(run("python3 -c '1/0' 2>&1 | grep -c File"), "1\n");
  CHECK_STR(run("python3 -c 'import os, signal; os.kill(os.getpid(), signal.SIGTERM)'; echo $?"),
            "143\n");
  /* A script that closes its stdout (json.tool does) exits 0. */
  CHECK_STR(run("python3 -c 'import sys; print(1); sys.stdout.close()'; echo $?"), "1\n0\n");
  CHECK_STR(run("python3 -c 'import sys; sys.exit(\"bye\")'; echo $?"), "1\n");
  CHECK_STR(ERR, "bye\n");
  /* Non-daemon threads are joined at exit, as in python3. */
  CHECK_STR(run("python3 -c 'import threading, time\n"
                "threading.Thread(target=lambda: (time.sleep(0.2), print(\"thread\"))).start()'"),
            "thread\n");
}

TEST(python3_options_arguments_and_stdin) {
  CHECK_STR(run("cd /data; printf 'import sys\\nprint(sys.argv, __name__, __file__)\\n' > s.py\n"
                "python3 s.py a 'b c'"),
            "['s.py', 'a', 'b c'] __main__ /data/s.py\n");
  CHECK_STR(run("echo 'print(\"from stdin\")' | python3; echo 'import sys; print(sys.argv)' | python3 - x"),
            "from stdin\n['-', 'x']\n");
  CHECK_STR(run("python3 -c 'import sys; print(sys.argv)' 1 -c"), "['-c', '1', '-c']\n");
  CHECK_STR(run("python3 -m json.tool <<< '{\"a\":1}'"), "{\n    \"a\": 1\n}\n");
  CHECK_STR(run("python3 -u -c 'import sys; print(type(sys.stdout.buffer).__name__)'"), "FileIO\n");
  CHECK_STR(run("python3 -I -c 'import sys; print(sys.flags.isolated, sys.path[0])'"),
            "1 /usr/lib/python311.zip\n");
  CHECK_STR(run("python3 -X utf8 -c 'import sys; print(sys.flags.utf8_mode)'"), "1\n");
  CHECK_STR(run("python3 -O -c 'assert False; print(\"no asserts\")'"), "no asserts\n");
  CHECK(strncmp(run("python3 -V"), "Python 3.11.", 12) == 0);
  CHECK_STR(run("python -c 'print(\"python is python3\")'"), "python is python3\n");
  CHECK_STR(run("python3 /data/missing.py; echo $?"), "2\n");
  CHECK(strstr(ERR, "can't open file '/data/missing.py': [Errno 2]") != NULL);
}

TEST(python3_environment_and_cwd) {
  CHECK_STR(run("cd /tmp; export EXPORTED=yes; LOCAL=no\n"
                "python3 -c 'import os; print(os.getcwd(), os.environ.get(\"EXPORTED\"), "
                "os.environ.get(\"LOCAL\"))'\n"
                "ONE=shot python3 -c 'import os; print(os.environ[\"ONE\"])'; cd /data"),
            "/tmp yes None\nshot\n");
  /* PYTHONPATH reaches sys.path, as in python3. */
  CHECK_STR(run("mkdir -p /data/lib; echo 'Y = 5' > /data/lib/ymod.py\n"
                "PYTHONPATH=/data/lib python3 -c 'import ymod; print(ymod.Y)'"),
            "5\n");
}

TEST(streams_end_at_once) {
  CHECK_STR(run("yes | python3 -c 'import sys; print(sys.stdin.readline())'"), "y\n\n");
  CHECK(SECS < 30);
  CHECK_STR(run("python3 -c 'while True: print(\"y\")' | head -n 3"), "y\ny\ny\n");
  CHECK(SECS < 30);
  CHECK_STR(run("perl -e 'print \"$_\\n\" for 1..100000000' | head -n 2; echo \"${PIPESTATUS[*]}\""),
            "1\n2\n141 0\n");
  CHECK(SECS < 30);
  CHECK_STR(run("seq 100000 | perl -ne '$s += $_; END { print \"$s\\n\" }'"), "5000050000\n");
  /* Both directions at once, bigger than any pipe buffer. */
  CHECK_STR(run("seq 200000 | python3 -c 'import sys\n"
                "for l in sys.stdin: sys.stdout.write(l)' | wc -l"),
            "200000\n");
  CHECK_STR(run("python3 -c 'print(\"x\" * 100000)' | python3 -c 'import sys; print(len(sys.stdin.read()))'"),
            "100001\n");
}

/* The CLI's case: stdin is a host fd that has nothing yet (a terminal, a
 * pipe the caller keeps open). A program that does not read stdin must not
 * wait for it; the next one still gets what arrives later. */
static double first_out_at;
static double t_start;
static void on_out(void *ud, const void *buf, size_t n) {
  (void)buf, (void)n;
  if (!first_out_at) first_out_at = harness_now_s() - t_start;
  strncat(ud, buf, n < 64 ? n : 64);
}

static void *write_late(void *arg) {
  int fd = *(int *)arg;
  usleep(5000 * 1000);
  if (write(fd, "late\n", 5) != 5) perror("write");
  close(fd);
  return NULL;
}

TEST(a_host_stdin_with_nothing_yet_does_not_hold_a_program) {
  int p[2];
  REQUIRE(pipe(p) == 0);
  char got[256] = "";
  sbx_bash_opts o = {.stdin_fd = p[0], .on_stdout = on_out, .ud = got};
  pthread_t t;
  pthread_create(&t, NULL, write_late, &p[1]);
  sbx_bash_result r;
  const char *script = "perl -e 'print qq(first\n)'; perl -ne 'print uc'";
  first_out_at = 0;
  t_start = harness_now_s();
  int rc = sbx_bash_ex(H, script, strlen(script), &o, &r);
  pthread_join(t, NULL);
  close(p[0]);
  CHECK_EQ(rc, SBX_OK);
  CHECK_STR(got, "first\nLATE\n");
  CHECK(first_out_at > 0 && first_out_at < 4.5);
  sbx_bash_result_free(&r);
}

TEST(host_programs_are_found_and_wired) {
  CHECK_STR(run("which perl; type -P git; command -v perl; type perl"),
            "/usr/bin/perl\n/usr/bin/git\n/usr/bin/perl\nperl is /usr/bin/perl\n");
  CHECK(strncmp(run("git --version"), "git version ", 12) == 0);
  CHECK_STR(run("/usr/bin/perl -e 'print \"by path\\n\"'"), "by path\n");
  CHECK_STR(run("false | perl -e 'exit 3'; echo \"$? ${PIPESTATUS[*]}\""), "3 1 3\n");
  CHECK_STR(run("export GREETING=hi; cd /tmp; perl -e 'use Cwd; print \"$ENV{GREETING} \", getcwd(), \"\\n\"'; cd /data"),
            "hi /tmp\n");
  CHECK_STR(run("printf 'a\\nb\\n' > /data/in.txt; perl -ne 'print uc' < /data/in.txt > /data/out.txt; "
                "cat /data/out.txt; perl -e 'print STDERR \"to err\\n\"' 2>&1 >/dev/null"),
            "A\nB\nto err\n");
  CHECK_STR(run("perl -e 'kill \"TERM\", $$'; echo $?"), "143\n");
  /* Through the commands that run commands, and a substitution. */
  CHECK_STR(run("env A=5 perl -e 'print $ENV{A}'; env -i /usr/bin/perl -e 'print scalar(keys %ENV)'; echo"),
            "50\n");
  CHECK_STR(run("echo 1 2 | xargs perl -e 'print \"@ARGV\\n\"'; "
                "find /data -maxdepth 0 -exec perl -e 'print \"@ARGV\\n\"' {} \\;; x=$(perl -e 'print 42'); echo $x"),
            "1 2\n/data\n42\n");
  /* A request is one datagram: arguments and environment up to 200 KiB. */
  CHECK_STR(run("big=$(printf '%0100000d' 0); perl -e 'print length($ARGV[0])' $big; echo\n"
                "perl -e 1 $big $big $big; echo $?"),
            "100000\n126\n");
  CHECK(strstr(ERR, "Argument list too long") != NULL);
  CHECK_STR(run("nosuchprogram; echo $?"), "127\n");
  CHECK(strstr(ERR, "nosuchprogram: command not found") != NULL);
}

TEST(git_log_into_head_ends_at_once) {
  CHECK_STR(run("cd /data; git init -q repo && cd repo && export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b "
                "GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b\n"
                "for i in 1 2 3 4 5; do echo $i >> f; git add f; git commit -qm c$i; done\n"
                "git log --format=%s | head -n 3; echo \"${PIPESTATUS[1]}\"; git status --short | wc -l; cd /data"),
            "c5\nc4\nc3\n0\n0\n");
  CHECK(SECS < 60);
}

TEST(shebang_scripts) {
  /* #!/bin/sh and #!/bin/bash run in the shell itself ($BASH_VERSION is
   * ours; the jail's /bin/sh is dash), other interpreters in the jail. */
  CHECK_STR(run("cd /data; printf '#!/bin/sh\\necho \"[${BASH_VERSION:+bash}] $1\"\\n' > s.sh; chmod +x s.sh; ./s.sh arg"),
            "[bash] arg\n");
  CHECK_STR(run("cd /data; printf '#!/usr/bin/env python3\\nimport sys\\nprint(\"py\", sys.argv[1:])\\n' > x.py\n"
                "chmod +x x.py; ./x.py 1 2; echo $?"),
            "py ['1', '2']\n0\n");
  CHECK_STR(run("cd /data; printf '#!/usr/bin/perl\\nprint \"perl @ARGV\\\\n\"\\n' > x.pl; chmod +x x.pl; ./x.pl a"),
            "perl a\n");
  /* Found on PATH in the store too. */
  CHECK_STR(run("mkdir -p /data/bin; cp /data/x.py /data/bin/xpy; PATH=/data/bin:$PATH xpy z"), "py ['z']\n");
}

TEST(a_program_built_in_the_sandbox_runs) {
  CHECK_STR(run("cd /data; printf '#include <stdio.h>\\nint main(void) { puts(\"built\"); return 7; }\\n' > h.c\n"
                "gcc -o h h.c && ./h; echo $?"),
            "built\n7\n");
}

TEST(timeout_kills_the_process_tree) {
  CHECK_STR(run("timeout 1 perl -e 'fork; fork; sleep 100'; echo $?"), "124\n");
  CHECK(SECS < 30);
  CHECK_EQ(jail_processes(), 4);
  CHECK_STR(run("timeout 1 python3 -c 'import os, time; os.fork(); time.sleep(100)'; echo $?"), "124\n");
  CHECK(SECS < 30);
  CHECK_EQ(jail_processes(), 4);
}

TEST(the_calls_time_limit_kills_it) {
  sbx_limits saved, lim;
  REQUIRE(sbx_get_limits(H, &saved) == SBX_OK);
  lim = saved;
  lim.timeout_ms = 1000;
  REQUIRE(sbx_set_limits(H, &lim) == SBX_OK);
  run("perl -e 'fork; sleep 100'; echo after");
  CHECK(SECS < 30);
  CHECK(ST == -1 || ST == 126);
  REQUIRE(sbx_set_limits(H, &saved) == SBX_OK);
  CHECK_EQ(jail_processes(), 4);
}

TEST(cancel_kills_it) {
  check_bash_cancel(H, "python3 -c 'import time; time.sleep(100)'; echo after", 500);
  CHECK_EQ(jail_processes(), 4);
}

TEST(allow_list) {
  CHECK_STR(run("perl -e 'print 0'; hash | grep -c perl"), "01\n"); /* hashed now */
  const char *only_git[] = {"git", NULL};
  REQUIRE(sbx_set_programs(H, only_git) == SBX_OK);
  /* The hash table does not keep a program the list no longer allows. */
  CHECK_STR(run("perl -e 'print 1'; echo $?"), "127\n");
  CHECK(strncmp(run("git --version"), "git version", 11) == 0);
  CHECK_STR(run("perl -e 'print 1'; echo $?; which perl; echo $?; command -v perl; echo $?"),
            "127\n1\n1\n");
  CHECK(strstr(ERR, "perl: command not found") != NULL);
  CHECK_STR(run("/usr/bin/perl -e 1; echo $?"), "127\n");
  /* python3 is the sandbox's own, not a host program. */
  CHECK_STR(run("python3 -c 'print(3)'"), "3\n");
  const char *by_path[] = {"/usr/bin/perl", NULL};
  REQUIRE(sbx_set_programs(H, by_path) == SBX_OK);
  CHECK_STR(run("hash -r; perl -e 'print 2'; git --version >/dev/null; echo \" $?\""), "2 127\n");
  const char *none[] = {NULL};
  REQUIRE(sbx_set_programs(H, none) == SBX_OK);
  CHECK_STR(run("hash -r; perl -e 1; echo $?"), "127\n");
  const char *bad[] = {"bin/perl", NULL};
  CHECK_EQ(sbx_set_programs(H, bad), SBX_MISUSE);
  REQUIRE(sbx_set_programs(H, NULL) == SBX_OK);
  CHECK_STR(run("hash -r; perl -e 'print 1'"), "1");
}

TEST(without_a_jail_it_is_not_found_with_the_reason) {
  /* A process-isolated shell's sealed helper can start no jail and sees
   * nothing of the host's runtime. */
  sbx *h2;
  REQUIRE(sbx_open(NULL, SBX_OPEN_MEMORY | SBX_OPEN_PROCESS, &h2) == SBX_OK);
  CHECK_STR(run_on(h2, "perl -e 1; echo $?; python3 -c 1; echo $?"), "127\n127\n");
  CHECK(strstr(ERR, "perl: command not found") != NULL);
  CHECK(strstr(ERR, "python3: command not found (it would run in the sandbox's jail: programs of "
                    "the jail cannot run in a process-isolated shell)") != NULL);
  sbx_close(h2);
}

TEST(a_killed_fork_server_is_started_again) {
  /* User code in the worker can signal every process of the jail. */
  CHECK_STR(py_eval(H, "import os, signal\nos.kill(-1, signal.SIGKILL)\n'sent'"), "'sent'");
  CHECK_STR(run("python3 -c 'print(\"again\")'; perl -e 'print \"too\\n\"'"), "again\ntoo\n");
}

static int sh_tool(void *ud, sbx *h, const char *name, const char *args, char **result, char **error) {
  (void)ud, (void)name, (void)args, (void)error;
  sbx_bash_result r;
  int rc = sbx_bash(h, "cat /data/shared.txt; echo $((6*7))", 35, &r);
  char buf[256];
  snprintf(buf, sizeof buf, "{\"rc\": %d, \"out\": \"%.*s\"}", rc, (int)strcspn(r.out ? r.out : "", "\n"),
           r.out ? r.out : "");
  sbx_bash_result_free(&r);
  *result = strdup(buf);
  return 0;
}

TEST(host_tools_from_the_shells_python3) {
  sbx_tool_def def = {"sh", "Run a script in the same sandbox.", NULL, NULL, 60};
  REQUIRE(sbx_tools_register(H, &def, 1, sh_tool, NULL) == SBX_OK);
  /* The callback runs a script in the sandbox whose shell waits for it. */
  CHECK_STR(run("echo shared > /data/shared.txt\n"
                "python3 -c 'from host_tools import call; print(call(\"sh\", {}))' | cat"),
            "{'rc': 0, 'out': 'shared'}\n");
  CHECK(SECS < 30);
  /* Programs exec'd in the jail do not get the channel. */
  CHECK_STR(run("python3 -X utf8 -c 'import host_tools' 2>&1 | tail -n 1"),
            "ModuleNotFoundError: No module named 'host_tools'\n");
}

TEST(a_jail_killed_from_outside_is_started_again) {
  /* The jail's helper P1 dies (the host's OOM killer, an operator): its
   * spawn socket is dead; the next program starts a new jail. */
  CHECK_STR(run("python3 -c 'print(1)'"), "1\n");
  REQUIRE(H->py && H->py->j.helper_pid > 0);
  kill(H->py->j.helper_pid, SIGKILL);
  usleep(200 * 1000);
  CHECK_STR(run("python3 -c 'print(2)'; perl -e 'print 3'"), "2\n3");
  /* The old jail's init came back to us (this test is a subreaper) once its
   * parent was killed: reaped here, as init would for a library user. */
  usleep(200 * 1000);
  while (waitpid(-1, NULL, WNOHANG) > 0) {
  }
}

TEST(execute_python_keeps_its_contexts) {
  CHECK_STR(py_eval(H, "kept = 41"), "");
  run("python3 -c 'kept = 0'");
  CHECK_STR(py_eval(H, "kept + 1"), "42");
}

TEST(no_processes_left_after_close) {
  CHECK_EQ(close_and_count_jail_processes(&H), 0);
}

int main(int argc, char **argv) {
  if (py_test_begin(argc, argv, &H)) return 1;
  RUN(python3_is_a_new_process_with_fresh_modules);
  RUN(python3_exits_like_python3);
  RUN(python3_options_arguments_and_stdin);
  RUN(python3_environment_and_cwd);
  RUN(streams_end_at_once);
  RUN(host_programs_are_found_and_wired);
  RUN(a_host_stdin_with_nothing_yet_does_not_hold_a_program);
  RUN(git_log_into_head_ends_at_once);
  RUN(shebang_scripts);
  RUN(a_program_built_in_the_sandbox_runs);
  RUN(timeout_kills_the_process_tree);
  RUN(the_calls_time_limit_kills_it);
  RUN(cancel_kills_it);
  RUN(allow_list);
  RUN(without_a_jail_it_is_not_found_with_the_reason);
  RUN(a_killed_fork_server_is_started_again);
  RUN(host_tools_from_the_shells_python3);
  RUN(a_jail_killed_from_outside_is_started_again);
  RUN(execute_python_keeps_its_contexts);
  RUN(no_processes_left_after_close);
  if (H) sbx_close(H);
  return harness_done();
}
