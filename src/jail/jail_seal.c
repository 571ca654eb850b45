/*
 * jail_seal.c - seals the process-isolated shell's helper (src/iso) after it
 * has opened the store: rlimits, an unprivileged id of its own when started
 * as root, not dumpable, no_new_privs, Landlock with no path allowed, and a
 * seccomp ALLOW list.
 *
 * Unlike the Python jail (jail_filters.c: namespaces and mounts make the
 * filesystem, seccomp only denies the dangerous calls), this helper has no
 * namespaces of its own: it runs in the host's mount and network namespaces,
 * so the filter must allow only what a shell over already-open SQLite files
 * needs. Everything else answers EPERM (clean failures, no surprise kills):
 *  - no path-taking call at all (open, openat, stat, access, unlink, mkdir,
 *    readlink, chdir, execve, ...): the store's files are open before the
 *    seal and nothing else of the host can be named. That includes stat by
 *    name: newfstatat is denied, and the helper makes its fstat calls with
 *    the plain fstat(2) syscall (it points SQLite's there; glibc's fstat()
 *    would use newfstatat). Where the architecture has no fstat(2)
 *    (aarch64), newfstatat is allowed with AT_EMPTY_PATH, which leaves a
 *    compromised helper able to stat a host path: metadata, never contents.
 *  - no sockets (socket, socketpair, connect, bind, accept): the only
 *    socket is the channel to the host, used with read/write/sendmsg/recvmsg.
 *  - no new processes: clone only with CLONE_THREAD and no namespace flag
 *    (the shell's pipeline stages are threads); clone3 answers ENOSYS so
 *    glibc falls back to clone, whose flags the filter can read. No fork,
 *    vfork, exec, ptrace, unshare, setns, kill of other processes (tgkill
 *    only toward our own thread group).
 *  - prlimit64 may read any limit but set only our own RLIMIT_CPU soft
 *    limit (the helper re-arms it per call; the hard limit bounds it).
 * Other architectures' entry points (int 0x80, x32) kill the process.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <seccomp.h>
#include <stdint.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "jail/jail_int.h"

/* Calls allowed without condition. Names libseccomp does not know on this
 * architecture are skipped. */
/* clang-format off */
static const char *const allow_names[] = {
    "read", "write", "readv", "writev", "pread64", "pwrite64", "preadv", "pwritev", "lseek",
    "close", "fstat", "fcntl", "ftruncate", "fsync", "fdatasync", "fallocate",
    "mmap", "munmap", "mremap", "mprotect", "brk", "madvise",
    "futex", "set_robust_list", "get_robust_list", "rseq", "set_tid_address",
    "clock_gettime", "clock_getres", "gettimeofday", "time", "clock_nanosleep", "nanosleep",
    "sched_yield", "sched_getaffinity", "getpid", "gettid", "getppid", "getuid", "geteuid",
    "getgid", "getegid", "getresuid", "getresgid", "getgroups", "getpgrp", "getrandom",
    "rt_sigaction", "rt_sigprocmask", "rt_sigreturn", "sigaltstack", "exit", "exit_group",
    "recvmsg", "sendmsg", "recvfrom", "sendto", "poll", "ppoll", "uname", "getrusage",
    "restart_syscall", "membarrier", "setitimer", "rt_sigtimedwait",
};
/* clang-format on */

int jail_seal_landlock(int *abi_out, jail_err *e) {
  /* Every file right handled (jail_landlock_ruleset), none granted: no path
   * of the host opens, and no TCP or abstract socket either. */
  uint64_t fs;
  int rs = jail_landlock_ruleset(abi_out, &fs, e);
  if (rs == -2) return 0; /* not in this kernel: seccomp alone keeps paths out */
  if (rs < 0) return -1;
  int r = (int)syscall(SYS_landlock_restrict_self, rs, 0);
  close(rs);
  return r ? jail_fail(e, "landlock_restrict_self") : 0;
}

static int seal_seccomp(jail_err *e) {
  jail_filter f;
  if (jail_filter_begin(&f, SCMP_ACT_ERRNO(EPERM), e)) return -1;
  scmp_filter_ctx ctx = f.ctx;
#define TRY(expr, w) JAIL_FILTER_TRY(&f, expr, w)
  jail_filter_allow(&f, allow_names, sizeof allow_names / sizeof allow_names[0]);
#ifndef SYS_fstat
  /* glibc's fstat(fd) is newfstatat(fd, "", st, AT_EMPTY_PATH). */
  TRY(seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(newfstatat), 1,
                       SCMP_A3(SCMP_CMP_MASKED_EQ, AT_EMPTY_PATH, AT_EMPTY_PATH)),
      "newfstatat");
#endif
  /* Threads only: CLONE_THREAD set, no namespace flag. */
  const uint64_t ns = JAIL_CLONE_NS_FLAGS;
  TRY(seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(clone), 1,
                       SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD | ns, CLONE_THREAD)),
      "clone");
  TRY(seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0), "clone3");
  /* Signals to our own threads only (pthread_kill, raise, abort). */
  TRY(seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(tgkill), 1,
                       SCMP_A0(SCMP_CMP_EQ, (uint64_t)getpid())),
      "tgkill");
  /* getrlimit everywhere; setting only our own RLIMIT_CPU. */
  TRY(seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(prlimit64), 1,
                       SCMP_A2(SCMP_CMP_EQ, 0)),
      "prlimit64 get");
  TRY(seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(prlimit64), 2,
                       SCMP_A0(SCMP_CMP_EQ, 0), SCMP_A1(SCMP_CMP_EQ, RLIMIT_CPU)),
      "prlimit64 cpu");
#undef TRY
  return jail_filter_load(&f, e);
}

int jail_seal_process(const jail_limits *l, int *landlock_abi, char *err, size_t errlen) {
  jail_err e = {err, errlen};
  err[0] = 0;
  *landlock_abi = 0;
  if (jail_apply_rlimits(l, &e)) return -1;
  /* As root: a fresh unprivileged id of its own (I1's ids), so that no
   * capability is left and no other process's files or signals are ours.
   * The open files keep working: access is checked at open. */
  if (jail_drop_root(jail_pick_host_id(), &e)) return -1;
  /* Not dumpable: no core file, and no other process of our uid may ptrace
   * us or read our memory through /proc. */
  if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)) return jail_fail(&e, "prctl(PR_SET_DUMPABLE)");
  /* No setuid binary could ever raise privileges again (and seccomp needs it). */
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
    return jail_fail(&e, "prctl(PR_SET_NO_NEW_PRIVS)");
  if (jail_seal_landlock(landlock_abi, &e)) return -1;
  return seal_seccomp(&e);
}
