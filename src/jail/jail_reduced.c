/*
 * jail_reduced.c - the reduced jail tier, for hosts where the full jail
 * (jail.h) cannot be built: Docker's default seccomp profile denies unshare,
 * setns and clone with namespace flags, and a non-root user may not open
 * /dev/fuse. It is made only of what an unprivileged process in a default
 * container can still use:
 *
 *   host ──posix_spawn──> P1 "sbx-pyworker jail tier=reduced dir=D ..."
 *                          │  own session; subreaper; cgroup (if given);
 *                          │  rlimits; as root: drops to uid= (never 0);
 *                          │  not dumpable; then supervises and reaps
 *                          └─fork──> W  own process group G (P1's session);
 *                                       death signal; no_new_privs; Landlock;
 *                                       seccomp allow list; exec python3.11
 *
 * Guarantees and how each is kept (docs/security.md lists what is lost):
 *  R1. Files: Landlock lets W read and execute the runtime (/usr, /bin,
 *      /lib*, two files of /etc, four devices) and do anything but make
 *      device nodes under D; every other host path is EACCES. Without
 *      Landlock in the kernel the tier is refused (no file confinement).
 *  R2. No network and no host sockets: socket(2) fails (EAFNOSUPPORT for
 *      every family but AF_UNIX, EACCES for AF_UNIX), socketpair only makes
 *      AF_UNIX stream pairs, connect/bind/listen/accept are denied, and
 *      sendto may not name an address; Landlock (ABI 4) also denies TCP and
 *      (ABI 6) abstract unix sockets and signals outside W's domain.
 *  R3. A timeout kills everything: W is the leader of process group G,
 *      setsid/setpgid are denied to it and all it starts, so every process
 *      of the jail stays in G; P1 is the child subreaper, so orphans come
 *      back to it, and on the host's lifeline closing P1 kills G and reaps
 *      all before it exits. The host knows G (the "ready" message carries
 *      it) and kills it itself if P1 does not end in time (jail_stop), while
 *      P1 is unreaped, so G's number cannot have been reused.
 *  R4. No kernel attack surface beyond an allow list: ptrace, process_vm_*,
 *      namespaces, mounts, keyctl, bpf, io_uring, perf_event_open,
 *      userfaultfd and everything not listed answer EPERM; clone3 answers
 *      ENOSYS (glibc falls back to clone, whose flags the filter reads).
 *  R5. As root, W runs as a fresh unprivileged id of its own (no capability,
 *      no other process's files or signals); P1 is not dumpable, so W cannot
 *      read its memory through /proc either (Landlock closes /proc anyway).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/landlock.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <seccomp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "jail/jail.h"
#include "jail/jail_int.h"

int jail_tier_forced(void) {
  const char *t = getenv("SBX_JAIL_TIER");
  if (!t) return -1;
  if (strcmp(t, "full") == 0) return JAIL_TIER_FULL;
  if (strcmp(t, "reduced") == 0) return JAIL_TIER_REDUCED;
  return -1;
}

/* ---- Landlock ------------------------------------------------------------------------ */

#define LL_FILE_RIGHTS                                                                  \
  (LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_READ_FILE | \
   JAIL_LL_FS_TRUNCATE | JAIL_LL_FS_IOCTL_DEV)

/* Grants `rights` (masked by what the ruleset handles; file rights only for
 * a non-directory) beneath `path`. A path missing on this host is skipped. */
static int ll_allow(int rs, const char *path, uint64_t rights, uint64_t handled, jail_err *e) {
  int fd = open(path, O_PATH | O_CLOEXEC);
  if (fd < 0) return errno == ENOENT ? 0 : jail_fail(e, "landlock: open %s", path);
  struct stat st;
  if (fstat(fd, &st) == 0 && !S_ISDIR(st.st_mode)) rights &= LL_FILE_RIGHTS;
  struct landlock_path_beneath_attr pb = {.allowed_access = rights & handled, .parent_fd = fd};
  int r = pb.allowed_access == 0 ||
                  syscall(SYS_landlock_add_rule, rs, LANDLOCK_RULE_PATH_BENEATH, &pb, 0) == 0
              ? 0
              : jail_fail(e, "landlock_add_rule %s", path);
  close(fd);
  return r;
}

/* R1 and the Landlock half of R2. */
static int reduced_landlock(const char *dir, jail_err *e) {
  int abi;
  uint64_t fs;
  int rs = jail_landlock_ruleset(&abi, &fs, e);
  if (rs == -2)
    return jail_failx(e, "landlock: not in this kernel (the reduced jail tier needs it to "
                         "confine files)");
  if (rs < 0) return -1;
  /* jail_landlock_ruleset handles up to TRUNCATE; device ioctls (ABI 5) are
   * handled here too, so none is granted anywhere. */
  if (abi >= 5) {
    close(rs);
    struct jail_ll_ruleset_attr ra = {.handled_access_fs = fs | JAIL_LL_FS_IOCTL_DEV};
    size_t size = sizeof(uint64_t);
    ra.handled_access_net = JAIL_LL_NET_BIND_TCP | JAIL_LL_NET_CONNECT_TCP;
    size = 2 * sizeof(uint64_t);
    if (abi >= 6) {
      ra.scoped = JAIL_LL_SCOPE_ABSTRACT_UNIX | JAIL_LL_SCOPE_SIGNAL;
      size = sizeof ra;
    }
    fs |= JAIL_LL_FS_IOCTL_DEV;
    rs = (int)syscall(SYS_landlock_create_ruleset, &ra, size, 0);
    if (rs < 0) return jail_fail(e, "landlock_create_ruleset (ABI %d)", abi);
  }
  const uint64_t ro = LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_READ_FILE |
                      LANDLOCK_ACCESS_FS_READ_DIR;
  static const char *const runtime[] = {"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64",
                                        "/libx32",
                                        /* the dynamic loader's cache and the zone */
                                        "/etc/ld.so.cache", "/etc/localtime",
                                        /* fontconfig (matplotlib), as the full jail */
                                        "/etc/fonts"};
  static const char *const devices[] = {"/dev/null", "/dev/zero", "/dev/full", "/dev/urandom",
                                        "/dev/random"};
  int r = 0;
  for (size_t i = 0; r == 0 && i < sizeof runtime / sizeof runtime[0]; i++)
    r = ll_allow(rs, runtime[i], ro, fs, e);
  for (size_t i = 0; r == 0 && i < sizeof devices / sizeof devices[0]; i++)
    r = ll_allow(rs, devices[i], LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_WRITE_FILE,
                 fs, e);
  /* The private directory: everything but device nodes and device ioctls. */
  if (r == 0)
    r = ll_allow(rs, dir,
                 fs & ~(uint64_t)(LANDLOCK_ACCESS_FS_MAKE_CHAR | LANDLOCK_ACCESS_FS_MAKE_BLOCK |
                                  JAIL_LL_FS_IOCTL_DEV),
                 fs, e);
  if (r == 0 && syscall(SYS_landlock_restrict_self, rs, 0))
    r = jail_fail(e, "landlock_restrict_self");
  close(rs);
  return r;
}

/* ---- seccomp --------------------------------------------------------------------------- */

/* Calls allowed without condition (R4); names this libseccomp or this
 * architecture does not know are skipped. What a file call may touch is
 * Landlock's business (R1). */
/* clang-format off */
static const char *const allow_names[] = {
    /* files */
    "read", "write", "readv", "writev", "pread64", "pwrite64", "preadv", "pwritev", "preadv2",
    "pwritev2", "lseek", "open", "openat", "openat2", "creat", "close", "close_range", "dup",
    "dup2", "dup3", "stat", "fstat", "lstat", "newfstatat", "statx", "statfs", "fstatfs",
    "access", "faccessat", "faccessat2", "readlink", "readlinkat", "getdents", "getdents64",
    "getcwd", "chdir", "fchdir", "mkdir", "mkdirat", "rmdir", "unlink", "unlinkat", "rename",
    "renameat", "renameat2", "link", "linkat", "symlink", "symlinkat", "chmod", "fchmod",
    "fchmodat", "chown", "fchown", "lchown", "fchownat", "umask", "truncate", "ftruncate",
    "fallocate", "fsync", "fdatasync", "sync_file_range", "fadvise64", "flock", "fcntl",
    "utime", "utimes", "utimensat", "futimesat", "mknod", "mknodat", "copy_file_range",
    "sendfile", "splice", "tee", "pipe", "pipe2", "inotify_init", "inotify_init1",
    "inotify_add_watch", "inotify_rm_watch", "getxattr", "lgetxattr", "fgetxattr",
    "listxattr", "llistxattr", "flistxattr",
    /* memory */
    "mmap", "munmap", "mremap", "mprotect", "brk", "madvise", "msync", "mincore", "mlock",
    "munlock", "memfd_create", "membarrier",
    /* threads, processes, signals (to whom: Landlock's signal scope) */
    "fork", "vfork", "execve", "execveat", "exit", "exit_group", "wait4", "waitid", "kill",
    "tgkill", "tkill", "futex", "set_robust_list", "get_robust_list", "rseq",
    "set_tid_address", "arch_prctl", "rt_sigaction", "rt_sigprocmask", "rt_sigreturn",
    "rt_sigpending", "rt_sigsuspend", "rt_sigtimedwait", "rt_sigqueueinfo", "sigaltstack",
    "pause", "pidfd_open", "pidfd_send_signal", "getpid", "gettid", "getppid", "getpgrp",
    "getpgid", "getsid", "getuid", "geteuid", "getgid", "getegid", "getresuid", "getresgid",
    "getgroups", "capget", "getpriority", "setpriority", "sched_yield", "sched_getaffinity",
    "sched_setaffinity", "sched_getparam", "sched_getscheduler", "sched_get_priority_max",
    "sched_get_priority_min", "sched_getattr", "getcpu", "getrlimit", "getrusage", "times",
    "sysinfo", "uname", "prctl", "seccomp", /* more filters only restrict */
    /* time */
    "clock_gettime", "clock_getres", "gettimeofday", "time", "nanosleep", "clock_nanosleep",
    "getitimer", "setitimer", "alarm", "timer_create", "timer_settime", "timer_gettime",
    "timer_getoverrun", "timer_delete", "timerfd_create", "timerfd_settime", "timerfd_gettime",
    /* waiting, events, the inherited sockets */
    "poll", "ppoll", "select", "pselect6", "epoll_create", "epoll_create1", "epoll_ctl",
    "epoll_wait", "epoll_pwait", "epoll_pwait2", "eventfd", "eventfd2", "signalfd",
    "signalfd4", "recvfrom", "recvmsg", "recvmmsg", "sendmsg", "sendmmsg", "shutdown",
    "getsockname", "getpeername", "getsockopt", "setsockopt", "getrandom", "restart_syscall",
};
/* clang-format on */

/* R2 and R4: an allow list; the default answers EPERM. */
static int reduced_seccomp(jail_err *e) {
  jail_filter f;
  if (jail_filter_begin(&f, SCMP_ACT_ERRNO(EPERM), e)) return -1;
  scmp_filter_ctx ctx = f.ctx;
#define TRY(expr, w) JAIL_FILTER_TRY(&f, expr, w)
  jail_filter_allow(&f, allow_names, sizeof allow_names / sizeof allow_names[0]);
  /* clone: threads and plain forks, never a namespace flag. */
  const uint64_t ns = JAIL_CLONE_NS_FLAGS;
  TRY(seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(clone), 1,
                       SCMP_A0(SCMP_CMP_MASKED_EQ, ns, 0)),
      "clone");
  TRY(seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0), "clone3");
  /* No new socket at all: other families as the full jail answers them,
   * AF_UNIX too (a path socket such as docker.sock is reachable by name). */
  TRY(seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EAFNOSUPPORT), SCMP_SYS(socket), 1,
                       SCMP_A0(SCMP_CMP_NE, AF_UNIX)),
      "socket");
  TRY(seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(socket), 1,
                       SCMP_A0(SCMP_CMP_EQ, AF_UNIX)),
      "socket unix");
  /* socketpair: connected AF_UNIX stream pairs only (a datagram socket
   * could name a path socket in sendmsg, which the filter cannot read). */
  TRY(seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(socketpair), 2,
                       SCMP_A0(SCMP_CMP_EQ, AF_UNIX),
                       SCMP_A1(SCMP_CMP_MASKED_EQ, 0xf, SOCK_STREAM)),
      "socketpair");
  TRY(seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EAFNOSUPPORT), SCMP_SYS(socketpair), 1,
                       SCMP_A0(SCMP_CMP_NE, AF_UNIX)),
      "socketpair family");
  /* sendto without an address (send(2)). */
  TRY(seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(sendto), 1, SCMP_A4(SCMP_CMP_EQ, 0)),
      "sendto");
  /* ioctl: allowed here; TIOCSTI and TIOCLINUX are denied by a second
   * filter (an allow list cannot say "all but"; stacked filters answer the
   * strictest action). W has no terminal anyway (own session, /dev/tty
   * closed by Landlock). */
  TRY(seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(ioctl), 0), "ioctl");
  /* personality(2) may only be queried. */
  TRY(seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(personality), 1,
                       SCMP_A0(SCMP_CMP_EQ, 0xffffffffu)),
      "personality");
  /* prlimit64 on ourselves only (resource.setrlimit; raising is bounded by
   * the hard limits P1 set). */
  TRY(seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(prlimit64), 1, SCMP_A0(SCMP_CMP_EQ, 0)),
      "prlimit64");
  TRY(seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(setrlimit), 0), "setrlimit");
#undef TRY
  if (jail_filter_load(&f, e)) return -1;
  if (jail_filter_begin(&f, SCMP_ACT_ALLOW, e)) return -1;
  JAIL_FILTER_TRY(&f, seccomp_rule_add(f.ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(ioctl), 1,
                                       SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffu, TIOCSTI)),
                  "ioctl TIOCSTI");
  JAIL_FILTER_TRY(&f, seccomp_rule_add(f.ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(ioctl), 1,
                                       SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffu, TIOCLINUX)),
                  "ioctl TIOCLINUX");
  return jail_filter_load(&f, e);
}

/* ---- P1 and W -------------------------------------------------------------------------- */

static void __attribute__((noreturn)) reduced_die(const char *msg) {
  jail_send_msg(JAIL_FD_SETUP, JAIL_MSG_ERROR, msg, -1);
  _exit(1);
}

/* W: fds, session, environment, then every restriction; runs the worker. */
static void __attribute__((noreturn)) reduced_worker(const jail_reduced_args *a,
                                                     jail_worker_fn worker) {
  char buf[JAIL_ERRMSG_MAX];
  jail_err e = {buf, sizeof buf};
  /* Die with P1: P1's death closes the jail (R3). */
  prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
  int devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
  if (devnull < 0 || dup2(devnull, 0) < 0 || dup2(JAIL_FD_INTR, JAIL_WFD_INTR) < 0 ||
      dup2(JAIL_FD_OUT, 1) < 0 || dup2(JAIL_FD_ERR, 2) < 0)
    _exit(126);
  syscall(SYS_close_range, JAIL_WFD_INTR + 1, ~0U, 0);
  /* Group G (R3), made here and by P1 (whichever runs first; P1's session
   * has no terminal). */
  if (setpgid(0, 0) < 0) {
    dprintf(2, "jail: setpgid: %s\n", strerror(errno));
    _exit(126);
  }
  if (chdir(a->cwd) != 0 && chdir(a->dir) != 0) _exit(126);
  char tmp[PATH_MAX];
  snprintf(tmp, sizeof tmp, "%s/tmp", a->dir);
  clearenv();
  setenv("HOME", tmp, 1);
  setenv("TMPDIR", tmp, 1);
  /* Where the sandbox's / is: code that needs an absolute path builds it
   * from this (docs/python.md: nothing is rewritten behind its back). */
  setenv("SBX_ROOT", a->dir, 1);
  setenv("SBX_JAIL_TIER", "reduced", 1);
  jail_env_common(tmp); /* matplotlib's rc too: /etc/matplotlibrc is outside Landlock's rules */
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) {
    jail_fail(&e, "no_new_privs");
    goto fail;
  }
  if (reduced_landlock(a->dir, &e) || reduced_seccomp(&e)) goto fail;
  if (a->exec_argv) {
    close(JAIL_WFD_CTL);
    close(JAIL_WFD_INTR);
    if (jail_worker_memory_filter(&a->limits, buf, sizeof buf)) goto fail;
    extern char **environ;
    execve(a->exec_argv[0], a->exec_argv, environ);
    dprintf(2, "jail: exec %s: %s\n", a->exec_argv[0], strerror(errno));
    _exit(127);
  }
  _exit(worker(&a->limits));
fail:
  dprintf(2, "jail: %s\n", buf);
  _exit(126);
}

/* P1: kills group G and reaps every child (the subreaper gets the orphans). */
static void __attribute__((noreturn)) reduced_end(pid_t w, int status) {
  kill(-w, SIGKILL);
  for (;;) {
    pid_t r = waitpid(-1, NULL, 0);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) break;
  }
  _exit(WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
}

void jail_reduced_helper(const jail_reduced_args *a, jail_worker_fn worker) {
  char buf[JAIL_ERRMSG_MAX];
  jail_err e = {buf, sizeof buf};
  /* Out of the host's session and process group: a signal to the host's
   * group (a terminal's ^C) does not reach the jail, and G's kill not us. */
  setsid();
  if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)) {
    jail_fail(&e, "jail: PR_SET_CHILD_SUBREAPER");
    reduced_die(buf);
  }
  if (a->cgroup[0] && jail_cgroup_join(a->cgroup)) {
    jail_fail(&e, "jail: join cgroup %s", a->cgroup);
    reduced_die(buf);
  }
  if (a->cgpids[0] && jail_cgroup_join(a->cgpids)) {
    jail_fail(&e, "jail: join cgroup %s", a->cgpids);
    reduced_die(buf);
  }
  int root = geteuid() == 0;
  jail_limits l = a->limits;
  /* RLIMIT_NPROC counts every process of the uid: with the host's own uid
   * (not root) the host's processes would use it up, so only a dropped id
   * gets it (a cgroup's pids.max bounds the jail otherwise). */
  if (!root) l.nproc = 0;
  if (jail_apply_rlimits(&l, &e)) reduced_die(buf);
  if (root) {
    if (a->uid == 0) reduced_die("jail: the reduced tier as root needs uid=");
    if (jail_drop_root(a->uid, &e)) reduced_die(buf);
  }
  /* W (same uid) must not read or write P1's memory through /proc. */
  prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
  pid_t w = fork();
  if (w < 0) {
    jail_fail(&e, "jail: fork worker");
    reduced_die(buf);
  }
  if (w == 0) {
    close(JAIL_FD_SETUP);
    reduced_worker(a, worker);
  }
  /* W is the leader of G before the host hears of G (a race with W's own
   * setsid otherwise). */
  setpgid(w, w);
  char text[32];
  snprintf(text, sizeof text, "%d", (int)w);
  jail_send_msg(JAIL_FD_SETUP, JAIL_MSG_READY, text, -1);
  close(JAIL_FD_CTL);
  close(JAIL_FD_OUT);
  close(JAIL_FD_ERR);
  close(JAIL_FD_INTR);
  int pfd = (int)syscall(SYS_pidfd_open, w, 0);
  for (;;) {
    struct pollfd p[2] = {{JAIL_FD_SETUP, POLLIN, 0}, {pfd, POLLIN, 0}};
    int r = poll(p, pfd >= 0 ? 2 : 1, pfd >= 0 ? 1000 : 50);
    if (r < 0 && errno != EINTR) reduced_end(w, 0);
    if (p[0].revents & POLLIN) {
      /* Memory budgets (JAIL_MSG_LIMIT) are for J1's watch, which this tier
       * does not have: read and dropped so the host never blocks. */
      char kind, t[64];
      int fd;
      if (jail_recv_msg(JAIL_FD_SETUP, &kind, t, sizeof t, &fd) < 0) reduced_end(w, 128 + SIGKILL);
      if (fd >= 0) close(fd);
    } else if (p[0].revents & (POLLHUP | POLLERR | POLLNVAL)) {
      reduced_end(w, 128 + SIGKILL); /* the lifeline: the host stops the jail */
    }
    /* Reap orphans; W's end ends the jail. */
    for (;;) {
      int st;
      pid_t c = waitpid(-1, &st, WNOHANG);
      if (c <= 0) break;
      if (c == w) reduced_end(w, st);
    }
  }
}

/* ---- what the tier keeps -------------------------------------------------------------------- */

int jail_reduced_guarantees(char *buf, size_t n, int host_root, int cgroup) {
  long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
  if (abi < 0) abi = 0;
  return snprintf(
      buf, n,
      "{\"kept\": [\"seccomp allow list (no ptrace, namespaces, mounts, keyctl, bpf, io_uring, "
      "perf_event_open, userfaultfd)\", \"no network: no socket but the inherited AF_UNIX "
      "channels\", \"no_new_privs\", \"rlimits per process\", \"a timeout kills every process "
      "(own process group, subreaper)\"%s%s%s%s],"
      " \"lost\": [\"the sandbox's files are a private host directory synchronised with the "
      "store at each call (and around host tool calls), not the store live: absolute /data "
      "paths do not exist, use relative paths or $SBX_ROOT\", \"the host's runtime (/usr, "
      "/lib) is visible read-only, not a minimal root\", \"no pid, ipc, uts namespaces: "
      "the host's processes and hostname are visible (not readable: /proc is closed)\"%s%s%s]}",
      abi >= 1 ? ", \"Landlock: only the runtime (read-only) and the private directory\"" : "",
      abi >= 4 ? ", \"Landlock: no TCP\"" : "",
      abi >= 6 ? ", \"Landlock: signals and abstract unix sockets scoped to the jail\"" : "",
      host_root ? ", \"a dropped uid of its own (the host runs as root)\"" : "",
      abi < 6 ? ", \"signals to the host's processes of the same uid (Landlock ABI < 6)\"" : "",
      host_root ? "" : ", \"the worker runs as the host's uid (the host is not root)\"",
      cgroup ? "" : ", \"memory of all the jail's processes together (no cgroup): each process "
                    "is bounded by RLIMIT_AS only\"");
}
