/*
 * main.c - sbx-pyworker's entry point. One binary, two roles, chosen by argv[1]:
 *   jail KEY=VALUE... [-- PROGRAM ARGS...]  P1 of a jail (see src/jail/jail.h);
 *                                           its W runs the Python worker
 *                                           (below) or PROGRAM, its Z the
 *                                           fork server (forkserver.py)
 *   probe                                   the doctor's checks, one line each
 *   shell DB FLAGS KEY=VALUE...             the sealed helper of a process-isolated
 *                                           shell (SBX_OPEN_PROCESS, src/iso/iso.h)
 * It is never meant to be started by hand: the library passes it its fds.
 *
 * The Python worker is Debian's /usr/bin/python3.11 itself, not libpython
 * linked in here: the interpreter binary has LTO, the static library Debian
 * ships for embedding does not, and user code would run up to 1.4x slower
 * (docs/python.md). W's C half is the extension module `_sbxw`
 * (worker/ext/sbxw.c), built as a shared object and carried inside this
 * binary (.incbin), so an installed sbx has one helper file and nothing of
 * the build tree needs to be visible in the jail. W copies it into a sealed
 * memfd on fd 5 and execs the interpreter with a command that loads it
 * (worker/ext/sbxw.h). Everything J1 set up (namespaces, seccomp, Landlock,
 * no_new_privs, no capabilities, rlimits) holds across that exec.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ext/sbxw.h"
#include "iso/iso.h"
#include "jail/jail.h"

#ifndef SBXW_EXT_SO
#error "build with -DSBXW_EXT_SO=\"path of _sbxw.so\" (see the Makefile)"
#endif

/* _sbxw.so, embedded at build time. */
__asm__(".section .rodata\n"
        ".global sbxw_so_start\n"
        ".type sbxw_so_start, @object\n"
        ".balign 64\n"
        "sbxw_so_start:\n"
        ".incbin \"" SBXW_EXT_SO "\"\n"
        ".global sbxw_so_end\n"
        "sbxw_so_end:\n"
        ".previous\n");
extern const char sbxw_so_start[], sbxw_so_end[];

/* forkserver.py (Z), embedded at build time (NUL-terminated). */
__asm__(".section .rodata\n"
        ".global sbx_forkserver_src\n"
        ".type sbx_forkserver_src, @object\n"
        "sbx_forkserver_src:\n"
        ".incbin \"worker/forkserver.py\"\n"
        ".byte 0\n"
        ".previous\n");
extern const char sbx_forkserver_src[];

/* W: exec the interpreter with the extension on SBXW_EXT_FD. Returns only on
 * failure (the exit status). */
static int python_worker(const jail_limits *limits) {
  /* J1 applied the limits; they hold across exec. */
  int fd = memfd_create("sbx-worker", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (fd < 0) {
    dprintf(2, "sbx-pyworker: memfd_create: %s\n", strerror(errno));
    return 126;
  }
  for (const char *p = sbxw_so_start; p < sbxw_so_end;) {
    ssize_t n = write(fd, p, (size_t)(sbxw_so_end - p));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      dprintf(2, "sbx-pyworker: write memfd: %s\n", strerror(errno));
      return 126;
    }
    p += n;
  }
  /* Sealed: nothing can change the code once it is mapped. */
  if (fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL) != 0 ||
      (fd != SBXW_EXT_FD && dup2(fd, SBXW_EXT_FD) < 0)) {
    dprintf(2, "sbx-pyworker: memfd: %s\n", strerror(errno));
    return 126;
  }
  if (fd != SBXW_EXT_FD) close(fd);
  /* These three must survive exec. */
  if (fcntl(SBXW_EXT_FD, F_SETFD, 0) != 0 || fcntl(JAIL_WFD_CTL, F_SETFD, 0) != 0 ||
      fcntl(JAIL_WFD_INTR, F_SETFD, 0) != 0)
    return 126;
  /* The extension's memfd exists: from here on a jail without a memory
   * cgroup makes no more of them. */
  char err[256];
  if (jail_worker_memory_filter(limits, err, sizeof err)) {
    dprintf(2, "sbx-pyworker: %s\n", err);
    return 126;
  }
  char *argv[] = {"python3.11", "-I", "-S", "-B", "-c", SBXW_LOADER, NULL};
  extern char **environ;
  execve(SBXW_PYTHON, argv, environ);
  dprintf(2, "sbx-pyworker: exec %s: %s\n", SBXW_PYTHON, strerror(errno));
  return 127;
}

/* Z: exec the interpreter on forkserver.py, the spawn socket on fd 3. Default
 * interpreter options (site, user site, bytecode): what it forks must look
 * like a plain `python3`. Returns only on failure. */
static int fork_server(const jail_limits *limits) {
  char err[256];
  if (jail_worker_memory_filter(limits, err, sizeof err)) {
    dprintf(2, "sbx-pyworker: %s\n", err);
    return 126;
  }
  if (fcntl(JAIL_ZFD_SPAWN, F_SETFD, 0) != 0) return 126;
  char *argv[] = {"python3.11", "-c",
                  "import sys; exec(compile(sys.argv[1], '<sbx-forkserver>', 'exec'))",
                  (char *)sbx_forkserver_src, NULL};
  extern char **environ;
  execve(SBXW_PYTHON, argv, environ);
  return 127;
}

int main(int argc, char **argv) {
  if (argc >= 2 && strcmp(argv[1], "jail") == 0)
    return jail_helper_main(argc, argv, python_worker, fork_server);
  if (argc >= 2 && strcmp(argv[1], "probe") == 0) return jail_probe_main(argc, argv);
  if (argc >= 2 && strcmp(argv[1], "shell") == 0) return iso_helper_main(argc, argv);
  fprintf(stderr, "usage: sbx-pyworker jail KEY=VALUE... | probe | shell DB FLAGS ...\n"
                  "(started by libsbx; see src/jail/jail.h)\n");
  return 2;
}
