/*
 * py_spawn.h - programs run in the sandbox's jail for the shell (py_spawn.c):
 * the `python3` command (a fresh interpreter per invocation, forked by the
 * jail's fork server) and host programs found in the jail's runtime (git,
 * make, gcc, ...). The shell (src/sh) and the commands (src/cmd) use only
 * this header of src/py.
 */
#ifndef SBX_PY_SPAWN_H
#define SBX_PY_SPAWN_H

#include <stddef.h>
#include <sys/types.h>

struct sbx;

/* Where a program's stdin comes from and its output goes (the shell's ctx). */
typedef struct py_proc_io {
  void *ud;               /* caller's data */
  /* Reads up to n bytes of stdin; 0 at end, -EAGAIN when nothing is there
   * yet (asked again a little later), other <0 errors are taken as the end. */
  ssize_t (*read)(void *ud, void *buf, size_t n);
  /* Writes output of fd 1 or 2; <0 (-EPIPE) closes that stream for the program. */
  int (*write)(void *ud, int fd, const void *buf, size_t n);
  /* Non-zero when the program must be stopped (cancel, limits, timeout); may be NULL. */
  int (*cancelled)(void *ud);
} py_proc_io;

/* What became of a program. */
typedef struct py_proc_result {
  int status;             /* shell status: exit code, or 128 + signal */
  int exec_errno;         /* exec failed with this errno (status 127) */
  int killed;             /* 1: stopped by the cancel hook (status 137) */
  int reduced_tier;       /* 1: not run: the jail runs on the reduced tier,
                             which has no fork server */
  char msg[512];          /* why it could not run at all */
} py_proc_result;

/* Runs PATH (a path in the jail) with argv, env ("K=V", may be NULL) and cwd
 * in the sandbox's jail, the shell's store held by the caller (the call
 * opens the loan). 0 when it ran (res->status, res->exec_errno; exec_errno
 * E2BIG without running when the arguments do not fit a request), -1 when
 * it could not (res->msg: the jail cannot start, ...). */
int py_spawn_run(struct sbx *h, const char *path, char *const *argv, char *const *env,
                 const char *cwd, const py_proc_io *io, py_proc_result *res);

/* 1 when the absolute PATH names an executable file of the host runtime the
 * jail mounts (/usr, /bin, /lib...) that the sandbox's programs allow-list
 * lets the shell run (sbx_set_programs; all of them by default), else 0. */
int py_program_visible(struct sbx *h, const char *path);

#endif
