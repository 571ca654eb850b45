/*
 * escape_util.h - what the two escape suites share (test_escape.c on the full
 * jail, test_escape_reduced.c on the reduced tier): the Python prelude the
 * cases use, running a case and checking what it observed, and the attacks
 * both tiers must stop the same way (a fork bomb, a memory bomb, the
 * mount/namespace and kernel-surface system calls). Header-only.
 */
#ifndef SBX_TESTS_PY_ESCAPE_UTIL_H
#define SBX_TESTS_PY_ESCAPE_UTIL_H

#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "py_util.h"

/* Prelude for the cases: ctypes access to raw syscalls; sc() and err() give
 * the errno name the kernel (or seccomp, or the mounts) answered. */
static const char *const ESCAPE_PRELUDE =
    "import ctypes, errno, os, socket\n"
    "libc = ctypes.CDLL(None, use_errno=True)\n"
    "def sc(nr, *args):\n"
    "    r = libc.syscall(nr, *args)\n"
    "    return errno.errorcode.get(ctypes.get_errno(), 'OK') if r == -1 else 'OK'\n"
    "def err(f):\n"
    "    try:\n"
    "        f()\n"
    "        return 'OK'\n"
    "    except OSError as e:\n"
    "        return errno.errorcode.get(e.errno, str(e.errno))\n";

/* Runs ESCAPE_PRELUDE + code in h; checks the repr of its last expression is
 * `want`, then that the sandbox still answers. */
static UNUSED void escape_expect(sbx *h, const char *code, const char *want) {
  static char buf[8192];
  snprintf(buf, sizeof buf, "%s%s", ESCAPE_PRELUDE, code);
  const char *got = py_eval(h, buf);
  if (strcmp(got, want) != 0) fprintf(stderr, "  code: %s\n", code);
  CHECK_STR(got, want);
  CHECK_STR(py_eval(h, "1 + 1"), "2");
}

/* Runs code (no prelude) that breaks the worker's protocol: the host kills
 * the worker (SBX_PY_KILLED, the message containing `says` when not NULL)
 * and the next call runs in a new one. */
static UNUSED void escape_expect_killed(sbx *h, const char *code, const char *says) {
  sbx_py_result *r = py_run(h, code);
  REQUIRE(r);
  CHECK_EQ(r->error, SBX_PY_KILLED);
  if (says) CHECK(r->error_message && strstr(r->error_message, says));
  sbx_free(r);
  CHECK_STR(py_eval(h, "1 + 1"), "2");
}

/* Forks until refused (RLIMIT_NPROC): EAGAIN well before 64 processes. */
static UNUSED void escape_fork_bomb(sbx *h) {
  escape_expect(h,
                "import time\n"
                "n = 0\n"
                "try:\n"
                "    while n < 10000:\n"
                "        if os.fork() == 0:\n"
                "            time.sleep(0.5)\n"
                "            os._exit(0)\n"
                "        n += 1\n"
                "    r = 'unbounded'\n"
                "except OSError as e:\n"
                "    r = errno.errorcode[e.errno]\n"
                "while True:\n"
                "    try:\n"
                "        os.wait()\n"
                "    except ChildProcessError:\n"
                "        break\n"
                "(r, n < 64)",
                "('EAGAIN', True)");
}

/* Allocates without end: the call ends SBX_PY_MEMORY and the next one runs. */
static UNUSED void escape_memory_bomb(sbx *h) {
  sbx_py_result *r = py_run(h, "hog = []\nwhile True:\n    hog.append(bytearray(64 * 1024 * 1024))");
  REQUIRE(r);
  CHECK_EQ(r->error, SBX_PY_MEMORY);
  sbx_free(r);
  CHECK_STR(py_eval(h, "del hog\n1 + 1"), "2");
}

/* Mounting, changing namespaces or root: refused on every tier. */
static UNUSED void escape_mount_and_namespaces(sbx *h) {
  static const char *const calls[][2] = {
      {"sc(165, b'none', b'/tmp', b'tmpfs', 0, 0)", "'EPERM'"}, /* mount */
      {"sc(166, b'/usr', 2)", "'EPERM'"},                       /* umount2 */
      {"sc(272, 0x10000000)", "'EPERM'"},                       /* unshare(NEWUSER) */
      {"sc(272, 0x00020000)", "'EPERM'"},                       /* unshare(NEWNS) */
      {"sc(308, 0, 0)", "'EPERM'"},                             /* setns */
      {"sc(161, b'/tmp')", "'EPERM'"},                          /* chroot */
      {"sc(155, b'/', b'/tmp')", "'EPERM'"},                    /* pivot_root */
      {"sc(430, b'tmpfs', 0)", "'EPERM'"},                      /* fsopen */
      {"sc(428, -100, b'/', 0)", "'EPERM'"},                    /* open_tree */
      {"sc(56, 0x10000000 | 17, 0, 0, 0, 0)", "'EPERM'"},       /* clone(NEWUSER) */
      {"sc(435, 0, 0)", "'ENOSYS'"},                            /* clone3 */
  };
  for (size_t i = 0; i < sizeof calls / sizeof *calls; i++)
    escape_expect(h, calls[i][0], calls[i][1]);
}

/* Modules, bpf, io_uring, keys, perf, userfaultfd, reboot, TIOCSTI and an
 * executable heap: refused on every tier (setuid(0) differs: the caller). */
static UNUSED void escape_kernel_surface(sbx *h) {
  static const char *const calls[] = {
      "sc(313, 0, b'', 0)",                          /* finit_module */
      "sc(175, 0, 0, b'')",                          /* init_module */
      "sc(321, 0, 0, 0)",                            /* bpf */
      "sc(425, 8, ctypes.create_string_buffer(120))", /* io_uring_setup */
      "sc(250, 0, -3, 0)",                           /* keyctl */
      "sc(298, 0, 0, -1, -1, 0)",                    /* perf_event_open */
      "sc(323, 0)",                                  /* userfaultfd */
      "sc(169, 0xfee1dead, 672274793, 0x1234567)",   /* reboot */
      "sc(16, 0, 0x5412, ctypes.c_char_p(b'x'))",    /* ioctl TIOCSTI */
      "sc(16, 0, 0x100005412, ctypes.c_char_p(b'x'))", /* the same, high bits set */
      "sc(135, 0x0400000)",                          /* personality(READ_IMPLIES_EXEC) */
  };
  for (size_t i = 0; i < sizeof calls / sizeof *calls; i++)
    escape_expect(h, calls[i], "'EPERM'");
}

#endif
