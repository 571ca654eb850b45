/*
 * sbx-nons.c - runs a program the way a default container would: with
 * Docker's default seccomp profile's answer to namespaces and mounts
 * (unshare, setns, clone with a CLONE_NEW* flag, mount and the new mount API
 * answer EPERM; clone3 answers ENOSYS so that glibc falls back to clone) and,
 * with --uid N, as an unprivileged user (no /dev/fuse when the device is
 * 0600 root's, as on this kind of machine). Tests force the reduced jail tier
 * with it (scripts/suites/py-reduced.sh), on a host where the full one works.
 *
 * usage: sbx-nons [--uid N] PROGRAM [ARG...]
 */
#include <errno.h>
#include <grp.h>
#include <sched.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

static int deny(scmp_filter_ctx ctx, const char *name, int err) {
  int nr = seccomp_syscall_resolve_name(name);
  if (nr == __NR_SCMP_ERROR) return 0;
  return seccomp_rule_add(ctx, SCMP_ACT_ERRNO(err), nr, 0);
}

int main(int argc, char **argv) {
  int i = 1;
  long uid = -1;
  if (i + 1 < argc && strcmp(argv[i], "--uid") == 0) {
    char *end;
    uid = strtol(argv[i + 1], &end, 10);
    if (*end || uid <= 0) {
      fprintf(stderr, "sbx-nons: bad uid '%s'\n", argv[i + 1]);
      return 2;
    }
    i += 2;
  }
  if (i >= argc) {
    fprintf(stderr, "usage: sbx-nons [--uid N] PROGRAM [ARG...]\n");
    return 2;
  }
  if (uid > 0 && (setgroups(0, NULL) || setresgid((gid_t)uid, (gid_t)uid, (gid_t)uid) ||
                  setresuid((uid_t)uid, (uid_t)uid, (uid_t)uid))) {
    perror("sbx-nons: drop to uid");
    return 1;
  }
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) {
    perror("sbx-nons: no_new_privs");
    return 1;
  }
  scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
  if (!ctx) return 1;
  static const char *const calls[] = {"unshare", "setns", "mount", "umount2", "pivot_root",
                                      "fsopen", "fsconfig", "fsmount", "fspick", "open_tree",
                                      "move_mount", "mount_setattr"};
  int rc = 0;
  for (size_t k = 0; rc == 0 && k < sizeof calls / sizeof calls[0]; k++)
    rc = deny(ctx, calls[k], EPERM);
  if (rc == 0) rc = deny(ctx, "clone3", ENOSYS);
  const unsigned long ns = CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWNET |
                           CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWCGROUP | 0x80;
  for (int bit = 0; rc == 0 && bit < 64; bit++) {
    unsigned long f = 1ul << bit;
    if (ns & f)
      rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(clone), 1,
                            SCMP_A0(SCMP_CMP_MASKED_EQ, f, f));
  }
  if (rc == 0) rc = seccomp_load(ctx);
  seccomp_release(ctx);
  if (rc) {
    fprintf(stderr, "sbx-nons: seccomp: %s\n", strerror(-rc));
    return 1;
  }
  execvp(argv[i], argv + i);
  fprintf(stderr, "sbx-nons: %s: %s\n", argv[i], strerror(errno));
  return 127;
}
