/*
 * jail_filters.c - the two kernel filters of the jail: Landlock and seccomp.
 *
 * Landlock (best effort by ABI; Debian 12's headers stop at ABI 2, so the
 * newer rights come from jail_int.h). The store is the jail's root and must
 * stay writable, so the file rules grant "/" every right except creating
 * device nodes; the read-only runtime is enforced by the mounts. What Landlock
 * adds is what mounts cannot say: no TCP bind/connect at all (ABI 4), no
 * abstract unix sockets or signals outside the jail's domain (ABI 6).
 *
 * seccomp (libseccomp, default allow, deny list). Each denied call answers
 * EPERM rather than killing, so the escape tests see a clean error:
 *  - debugging other processes: ptrace, process_vm_readv/writev, pidfd_getfd
 *  - mounts, old and new API (mount, umount2, pivot_root, chroot, fsopen,
 *    fsconfig, fsmount, fspick, open_tree, open_tree_attr, move_mount,
 *    mount_setattr) and namespaces (unshare, setns, clone with CLONE_NEW*)
 *  - clone3 answers ENOSYS: its flags live in memory the filter cannot read,
 *    and glibc then falls back to clone, whose flags it can
 *  - sockets of any family but AF_UNIX (EAFNOSUPPORT)
 *  - kernel attack surface: bpf, io_uring_*, keyctl/add_key/request_key,
 *    perf_event_open, userfaultfd, modify_ldt, module and kexec calls, ...
 *  - TIOCSTI/TIOCLINUX ioctls (typing into a terminal), compared on the low
 *    32 bits because the kernel ignores the upper ones
 * Other architectures' entry points (int 0x80, x32) kill the process.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/landlock.h>
#include <sched.h>
#include <seccomp.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "jail/jail.h"
#include "jail/jail_int.h"

int jail_landlock_ruleset(int *abi_out, uint64_t *fs_out, jail_err *e) {
  long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
  *abi_out = abi > 0 ? (int)abi : 0;
  if (abi < 1) return -2; /* not in this kernel (or disabled) */
  uint64_t fs = (1ULL << 13) - 1; /* ABI 1: EXECUTE .. MAKE_SYM */
  if (abi >= 2) fs |= LANDLOCK_ACCESS_FS_REFER;
  if (abi >= 3) fs |= JAIL_LL_FS_TRUNCATE;
  *fs_out = fs;
  struct jail_ll_ruleset_attr ra = {.handled_access_fs = fs};
  size_t size = sizeof(uint64_t);
  if (abi >= 4) {
    ra.handled_access_net = JAIL_LL_NET_BIND_TCP | JAIL_LL_NET_CONNECT_TCP;
    size = 2 * sizeof(uint64_t);
  }
  if (abi >= 6) {
    ra.scoped = JAIL_LL_SCOPE_ABSTRACT_UNIX | JAIL_LL_SCOPE_SIGNAL;
    size = sizeof ra;
  }
  int rs = (int)syscall(SYS_landlock_create_ruleset, &ra, size, 0);
  if (rs < 0) return jail_fail(e, "landlock_create_ruleset (ABI %ld)", abi);
  return rs;
}

int jail_apply_landlock(int *abi_out, jail_err *e) {
  uint64_t fs;
  int rs = jail_landlock_ruleset(abi_out, &fs, e);
  if (rs == -2) return 0; /* no Landlock: seccomp and mounts remain */
  if (rs < 0) return -1;
  struct landlock_path_beneath_attr pb = {
      .allowed_access = fs & ~(uint64_t)(LANDLOCK_ACCESS_FS_MAKE_CHAR | LANDLOCK_ACCESS_FS_MAKE_BLOCK),
      .parent_fd = open("/", O_PATH | O_CLOEXEC)};
  int r = -1;
  if (pb.parent_fd < 0) {
    jail_fail(e, "landlock: open /");
  } else if (syscall(SYS_landlock_add_rule, rs, LANDLOCK_RULE_PATH_BENEATH, &pb, 0)) {
    jail_fail(e, "landlock_add_rule /");
  } else if (syscall(SYS_landlock_restrict_self, rs, 0)) {
    jail_fail(e, "landlock_restrict_self");
  } else {
    r = 0;
  }
  if (pb.parent_fd >= 0) close(pb.parent_fd);
  close(rs);
  return r;
}

/* Calls denied with EPERM. Names libseccomp 2.5 does not know are skipped by
 * name and covered by number below. */
static const char *const deny_names[] = {
    "ptrace", "process_vm_readv", "process_vm_writev", "pidfd_getfd",
    "mount", "umount2", "pivot_root", "chroot", "fsopen", "fsconfig", "fsmount", "fspick",
    "open_tree", "move_mount", "mount_setattr", "unshare", "setns",
    "bpf", "io_uring_setup", "io_uring_enter", "io_uring_register",
    "keyctl", "add_key", "request_key", "perf_event_open", "userfaultfd",
    "kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module",
    "reboot", "swapon", "swapoff", "acct", "syslog", "quotactl", "quotactl_fd", "vhangup",
    "open_by_handle_at", "name_to_handle_at", "lookup_dcookie", "uselib", "ustat", "sysfs",
    "_sysctl", "nfsservctl", "modify_ldt", "iopl", "ioperm", "settimeofday", "clock_settime",
    "clock_adjtime", "adjtimex", "fanotify_init", "mbind", "migrate_pages", "move_pages",
    "kcmp",
};

/* x86-64 numbers of calls newer than libseccomp 2.5.4's tables. */
static const int deny_numbers[] = {
    467, /* open_tree_attr (6.15): the new mount API */
    460, /* lsm_set_self_attr (6.8) */
};

void jail_filter_allow(jail_filter *f, const char *const *names, size_t n) {
  for (size_t i = 0; i < n; i++) {
    int nr = seccomp_syscall_resolve_name(names[i]);
    if (nr == __NR_SCMP_ERROR || nr < 0) continue;
    JAIL_FILTER_TRY(f, seccomp_rule_add(f->ctx, SCMP_ACT_ALLOW, nr, 0), names[i]);
  }
}

int jail_filter_begin(jail_filter *f, uint32_t def_action, jail_err *e) {
  f->ctx = seccomp_init(def_action);
  f->rc = 0;
  f->what = "";
  if (!f->ctx) return jail_failx(e, "seccomp_init failed");
  JAIL_FILTER_TRY(f, seccomp_attr_set(f->ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS),
                  "badarch");
  JAIL_FILTER_TRY(f, seccomp_attr_set(f->ctx, SCMP_FLTATR_CTL_NNP, 0), "nnp attr");
  return 0;
}

int jail_filter_load(jail_filter *f, jail_err *e) {
  JAIL_FILTER_TRY(f, seccomp_load(f->ctx), "seccomp_load");
  seccomp_release(f->ctx);
  f->ctx = NULL;
  if (f->rc != 0) {
    errno = -f->rc;
    return jail_fail(e, "seccomp (%s)", f->what);
  }
  return 0;
}

int jail_apply_seccomp(jail_err *e) {
  jail_filter f;
  if (jail_filter_begin(&f, SCMP_ACT_ALLOW, e)) return -1;
  scmp_filter_ctx ctx = f.ctx;
#define TRY(expr, w) JAIL_FILTER_TRY(&f, expr, w)
  for (size_t i = 0; i < sizeof deny_names / sizeof deny_names[0]; i++) {
    int nr = seccomp_syscall_resolve_name(deny_names[i]);
    if (nr == __NR_SCMP_ERROR || nr < 0) continue; /* unknown here, or not on x86-64 */
    TRY(seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), nr, 0), deny_names[i]);
  }
  for (size_t i = 0; i < sizeof deny_numbers / sizeof deny_numbers[0]; i++)
    TRY(seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), deny_numbers[i], 0), "new syscall");
  TRY(seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0), "clone3");
  static const uint64_t ns_flags[] = {CLONE_NEWUSER, CLONE_NEWNS,  CLONE_NEWPID,
                                      CLONE_NEWNET,  CLONE_NEWIPC, CLONE_NEWUTS,
                                      CLONE_NEWCGROUP, 0x80 /* CLONE_NEWTIME */};
  for (size_t i = 0; i < sizeof ns_flags / sizeof ns_flags[0]; i++)
    TRY(seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(clone), 1,
                         SCMP_A0(SCMP_CMP_MASKED_EQ, ns_flags[i], ns_flags[i])),
        "clone flags");
  TRY(seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EAFNOSUPPORT), SCMP_SYS(socket), 1,
                       SCMP_A0(SCMP_CMP_NE, AF_UNIX)),
      "socket");
  TRY(seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EAFNOSUPPORT), SCMP_SYS(socketpair), 1,
                       SCMP_A0(SCMP_CMP_NE, AF_UNIX)),
      "socketpair");
  TRY(seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(ioctl), 1,
                       SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffu, TIOCSTI)),
      "ioctl TIOCSTI");
  TRY(seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(ioctl), 1,
                       SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffu, TIOCLINUX)),
      "ioctl TIOCLINUX");
  /* personality(2) may only be queried: no READ_IMPLIES_EXEC, no
   * ADDR_NO_RANDOMIZE. */
  TRY(seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(personality), 1,
                       SCMP_A0(SCMP_CMP_NE, 0xffffffffu)),
      "personality");
#undef TRY
  return jail_filter_load(&f, e);
}

/* Calls whose memory no rlimit bounds, denied in a jail without a memory
 * cgroup: a memfd's pages count against RLIMIT_AS only while mapped, a SysV
 * segment's not at all, and both outlive the mapping. POSIX shared memory
 * lives in /dev/shm, a tmpfs of a fixed size. */
int jail_apply_memory_filter(jail_err *e) {
  static const char *const names[] = {"memfd_create", "memfd_secret", "shmget", "msgget"};
  scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
  if (!ctx) return jail_failx(e, "seccomp_init failed");
  int rc = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_NNP, 0);
  for (size_t i = 0; rc == 0 && i < sizeof names / sizeof names[0]; i++) {
    int nr = seccomp_syscall_resolve_name(names[i]);
    if (nr == __NR_SCMP_ERROR || nr < 0) continue;
    rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), nr, 0);
  }
  if (rc == 0) rc = seccomp_load(ctx);
  seccomp_release(ctx);
  if (rc != 0) {
    errno = -rc;
    return jail_fail(e, "seccomp (memory filter)");
  }
  return 0;
}

int jail_worker_memory_filter(const jail_limits *limits, char *err, size_t errlen) {
  jail_err e = {err, errlen};
  return limits->memory_cgroup ? 0 : jail_apply_memory_filter(&e);
}
