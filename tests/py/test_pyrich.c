/*
 * test_pyrich.c - what sbx_python_exec returns beyond text, and workers that
 * outlive what user code does: figures as PNG images, output streamed to
 * on_output and trimmed to its head and tail (keep_output), sbx_python_cancel
 * from another thread, a forked child that returns from its cell, and host
 * directories bound read-only for imports (sbx_python_set_paths).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "api/api_util.h"
#include "harness.h"
#include "py_util.h"
#include "sbx.h"

TEST(figures_come_back_as_png_images) {
  sbx *h = open_mem();
  REQUIRE(h);
  /* The first import of matplotlib in a sandbox builds its font cache:
   * seconds, more on a loaded machine. */
  sbx_py_options slow = {.timeout = 600};
  sbx_py_result *r = py_run_opt(h,
                                "import matplotlib.pyplot as plt\n"
                                "plt.plot([1, 2]); plt.show()\n"
                                "plt.figure(); plt.plot([3, 1])\n"
                                "'done'",
                                &slow);
  REQUIRE(r);
  CHECK_EQ(r->error, SBX_PY_OK);
  CHECK_EQ(r->nimages, 2);
  for (size_t i = 0; i < r->nimages && i < 2; i++) {
    CHECK_STR(r->images[i].mime, "image/png");
    CHECK(r->images[i].len > 1000 &&
          memcmp(r->images[i].data, "\x89PNG\r\n\x1a\n", 8) == 0);
  }
  sbx_free(r);
  r = py_run(h, "len(plt.get_fignums())");
  REQUIRE(r);
  CHECK_STR(r->repr, "0"); /* closed once returned */
  CHECK_EQ(r->nimages, 0);
  CHECK(r->images == NULL);
  sbx_free(r);
  sbx_close(h);
}

typedef struct seen {
  size_t out, err; /* bytes seen per stream */
  int calls;       /* callback calls */
  int stop_after;  /* return non-zero from this call on (0: never) */
} seen;

static int on_output(void *ud, int fd, const char *data, size_t len) {
  seen *s = ud;
  (void)data;
  if (fd == 1)
    s->out += len;
  else
    s->err += len;
  s->calls++;
  return s->stop_after && s->calls >= s->stop_after;
}

TEST(keep_output_keeps_head_and_tail) {
  sbx *h = open_mem();
  REQUIRE(h);
  seen s = {0};
  sbx_py_options o = {.keep_output = 20, .on_output = on_output, .on_output_ud = &s};
  sbx_py_result *r =
      py_run_opt(h,
                 "import sys\n"
                 "sys.stdout.write('0123456789' + 'x' * 100000 + 'abcdefghij')\n"
                 "sys.stderr.write('short')",
                 &o);
  REQUIRE(r);
  CHECK_EQ(r->error, SBX_PY_OK);
  CHECK_STR(r->out, "0123456789\n[... 100000 bytes of output left out ...]\nabcdefghij");
  CHECK_EQ(r->out_len, strlen(r->out));
  CHECK_STR(r->err, "short");
  CHECK_EQ(s.out, 100020); /* the callback saw every byte */
  CHECK_EQ(s.err, 5);
  sbx_free(r);
  /* Exactly at the cap: nothing is left out. */
  sbx_py_options o2 = {.keep_output = 20};
  r = py_run_opt(h, "import sys; sys.stdout.write('a' * 20)", &o2);
  REQUIRE(r);
  CHECK_EQ(r->out_len, 20);
  CHECK(strstr(r->out, "left out") == NULL);
  sbx_free(r);
  sbx_close(h);
}

TEST(on_output_can_stop_the_code) {
  sbx *h = open_mem();
  REQUIRE(h);
  CHECK_STR(py_eval(h, "n = 0"), "");
  seen s = {.stop_after = 1};
  sbx_py_options o = {.timeout = 60, .on_output = on_output, .on_output_ud = &s};
  double t0 = harness_now_s();
  sbx_py_result *r = py_run_opt(h,
                                "import time\nn += 1\nprint('go', flush=True)\n"
                                "while True:\n    n += 1\n    time.sleep(0.01)",
                                &o);
  REQUIRE(r);
  CHECK(harness_now_s() - t0 < 10);
  CHECK_EQ(r->error, SBX_PY_CANCELED);
  CHECK_EQ(r->killed, 0);
  sbx_free(r);
  CHECK(strcmp(py_eval(h, "n > 0"), "True") == 0); /* the context is kept */
  sbx_close(h);
}

/* sbx_python_cancel(h) from another thread, 300 ms after it starts. */
static void *python_cancel_later(void *arg) {
  usleep(300 * 1000);
  sbx_python_cancel(arg);
  return NULL;
}

TEST(cancel_from_another_thread) {
  sbx *h = open_mem();
  REQUIRE(h);
  CHECK_STR(py_eval(h, "kept = 'yes'"), "");
  sbx_python_cancel(h); /* no call running: forgotten */
  CHECK_STR(py_eval(h, "kept"), "'yes'");
  pthread_t t;
  REQUIRE(pthread_create(&t, NULL, python_cancel_later, h) == 0);
  sbx_py_options o = {.timeout = 60};
  double t0 = harness_now_s();
  sbx_py_result *r = py_run_opt(h, "import time\nwhile True: time.sleep(0.01)", &o);
  pthread_join(t, NULL);
  REQUIRE(r);
  CHECK(harness_now_s() - t0 < 5);
  CHECK_EQ(r->error, SBX_PY_CANCELED);
  CHECK_STR(r->error_type, "CancelledError");
  sbx_free(r);
  CHECK_STR(py_eval(h, "kept"), "'yes'");
  /* sbx_cancel stops Python too. */
  REQUIRE(pthread_create(&t, NULL, python_cancel_later, h) == 0);
  r = py_run_opt(h, "import time\nwhile True: time.sleep(0.01)", &o);
  pthread_join(t, NULL);
  REQUIRE(r);
  CHECK_EQ(r->error, SBX_PY_CANCELED);
  sbx_free(r);
  sbx_close(h);
}

TEST(a_forked_child_that_returns_leaves_the_worker_alone) {
  sbx *h = open_mem();
  REQUIRE(h);
  CHECK_STR(py_eval(h, "kept = 1"), "");
  CHECK_STR(py_eval(h, "import os\nos.fork()\n'forked'"), "'forked'");
  CHECK_STR(py_eval(h, "kept + 1"), "2");
  CHECK_STR(py_eval(h,
                    "import os\npid = os.fork()\n"
                    "if pid == 0:\n    raise SystemExit(9)\n"
                    "os.waitpid(pid, 0)[1] >> 8"),
            "9");
  sbx_close(h);
}

TEST(python_paths_are_bound_read_only) {
  char dir[] = "/tmp/sbx-pypath-XXXXXX";
  REQUIRE(mkdtemp(dir));
  chmod(dir, 0755);
  char pkg[64], file[96];
  snprintf(pkg, sizeof pkg, "%s/hostmod", dir);
  snprintf(file, sizeof file, "%s/__init__.py", pkg);
  REQUIRE(mkdir(pkg, 0755) == 0);
  FILE *f = fopen(file, "w");
  REQUIRE(f);
  fputs("ANSWER = 42\n", f);
  fclose(f);
  chmod(file, 0666);
  sbx *h = open_mem();
  REQUIRE(h);
  const char *bad[] = {"relative", NULL};
  CHECK_EQ(sbx_python_set_paths(h, bad), SBX_MISUSE);
  const char *colon[] = {"/tmp:x", NULL};
  CHECK_EQ(sbx_python_set_paths(h, colon), SBX_MISUSE);
  const char *missing[] = {"/nonexistent/dir", NULL};
  CHECK_EQ(sbx_python_set_paths(h, missing), SBX_MISUSE);
  CHECK(strstr(py_eval(h, "import hostmod"), "No module named") != NULL);
  const char *dirs[] = {dir, NULL};
  CHECK_EQ(sbx_python_set_paths(h, dirs), SBX_OK);
  CHECK_STR(py_eval(h, "import hostmod; (hostmod.ANSWER, hostmod.__file__)"),
            "(42, '/run/sbx/pypath/0/hostmod/__init__.py')");
  CHECK(strstr(py_eval(h, "open(hostmod.__file__, 'w')"), "Read-only file system") !=
        NULL);
  CHECK_EQ(sbx_python_set_paths(h, NULL), SBX_OK);
  CHECK(strstr(py_eval(h, "import hostmod"), "No module named") != NULL);
  sbx_close(h);
  unlink(file);
  rmdir(pkg);
  rmdir(dir);
}

int main(int argc, char **argv) {
  harness_init(argc, argv);
  become_subreaper();
  RUN(figures_come_back_as_png_images);
  RUN(keep_output_keeps_head_and_tail);
  RUN(on_output_can_stop_the_code);
  RUN(cancel_from_another_thread);
  RUN(a_forked_child_that_returns_leaves_the_worker_alone);
  RUN(python_paths_are_bound_read_only);
  return harness_done();
}
