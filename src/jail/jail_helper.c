/*
 * jail_helper.c - the helper side of the jail, run by sbx-pyworker: P1 (host
 * namespaces, supervisor), J1 (pid 1 of the jail: builds it, then reaps) and
 * the start of W (the worker). See the diagram and invariants in jail.h.
 *
 * Order of the steps in J1 (each one needs the previous):
 *   1. wait until P1 has written the id maps            (we now hold caps in the ns)
 *   2. root filesystem, pivot_root, hostname            (needs CAP_SYS_ADMIN);
 *      fds 0-2 reopened on the jail's /dev/null
 *   3. rlimits                                          (before caps go: raising
 *                                                         a hard limit needs them)
 *   4. setresuid/setresgid to the sandbox user, drop every capability,
 *      not dumpable (W, same uid, must not write /proc/1/mem)
 *   5. no_new_privs, Landlock, seccomp                  (seccomp last: it denies
 *                                                         the mount calls above)
 *   6. PR_SET_PDEATHSIG(SIGKILL), then check P1 still lives (I3; cred changes in
 *      step 4 reset the death signal, so it is set here, after them)
 *   7. "ready" to the host, fork W and Z (the fork server), reap until W exits
 *
 * Errors: J1 and P1 send the first failure as one setup message ("E" + text)
 * and exit 1; the host turns it into the Python call's error and the doctor's.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "jail/jail.h"
#include "jail/jail_int.h"

#define JAIL_NS_FLAGS                                                            \
  (CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC |   \
   CLONE_NEWUTS | CLONE_NEWCGROUP)

/* The parsed command line of "sbx-pyworker jail ...". */
typedef struct helper_args {
  jail_root root;        /* root=tmpfs|fuse */
  jail_fuse_mode fuse;   /* fuse=none|userns|hostmount */
  jail_limits limits;    /* mem= cpu= fsize= nproc= nofile= shm= */
  char cwd[PATH_MAX];    /* cwd= */
  char **exec_argv;      /* after "--", or NULL */
  char cgroup[JAIL_CGROUP_PATH];  /* cgroup=: the jail's (memory) cgroup, or "" */
  char cgpids[JAIL_CGROUP_PATH];  /* cgpids=: its v1 pids cgroup, or "" */
  const char *ro_dirs[JAIL_MAX_RO_DIRS]; /* ro=: host directories (into argv) */
  int nro_dirs;                          /* their count */
  jail_tier tier;        /* tier=full|reduced */
  char dir[PATH_MAX];    /* dir=: the reduced tier's private directory */
  uint32_t uid;          /* uid=: the reduced tier's id when root */
} helper_args;

static int parse_u64(const char *s, uint64_t max, uint64_t *out) {
  if (!*s || *s == '-' || *s == '+') return -1;
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno || *end || v > max) return -1;
  *out = v;
  return 0;
}

static int parse_args(int argc, char **argv, helper_args *a, jail_err *e) {
  memset(a, 0, sizeof *a);
  strcpy(a->cwd, "/");
  for (int i = 2; i < argc; i++) {
    const char *s = argv[i];
    if (strcmp(s, "--") == 0) {
      if (i + 1 >= argc || argv[i + 1][0] != '/') return jail_failx(e, "jail: -- needs an absolute program path");
      a->exec_argv = argv + i + 1;
      break;
    }
    const char *eq = strchr(s, '=');
    if (!eq) return jail_failx(e, "jail: bad argument '%s'", s);
    size_t kl = (size_t)(eq - s);
    const char *v = eq + 1;
    uint64_t n;
#define KEY(k) (kl == sizeof(k) - 1 && memcmp(s, k, kl) == 0)
    if (KEY("root")) {
      if (strcmp(v, "tmpfs") == 0) a->root = JAIL_ROOT_TMPFS;
      else if (strcmp(v, "fuse") == 0) a->root = JAIL_ROOT_FUSE;
      else return jail_failx(e, "jail: bad root '%s'", v);
    } else if (KEY("fuse")) {
      if (strcmp(v, "none") == 0) a->fuse = JAIL_FUSE_NONE;
      else if (strcmp(v, "userns") == 0) a->fuse = JAIL_FUSE_USERNS;
      else if (strcmp(v, "hostmount") == 0) a->fuse = JAIL_FUSE_HOSTMOUNT;
      else return jail_failx(e, "jail: bad fuse mode '%s'", v);
    } else if (KEY("cgroup") || KEY("cgpids")) {
      /* Only a directory of the cgroup file systems, never a path the
       * caller could point elsewhere. */
      if (strncmp(v, "/sys/fs/cgroup/", 15) != 0 || strstr(v, "/..") ||
          strlen(v) >= sizeof a->cgroup)
        return jail_failx(e, "jail: bad cgroup '%s'", v);
      strcpy(KEY("cgroup") ? a->cgroup : a->cgpids, v);
    } else if (KEY("ro")) {
      /* A directory the host's API was given (sbx_python_set_paths). */
      if (v[0] != '/' || strlen(v) >= PATH_MAX || a->nro_dirs == JAIL_MAX_RO_DIRS)
        return jail_failx(e, "jail: bad read-only directory '%s'", v);
      a->ro_dirs[a->nro_dirs++] = v;
    } else if (KEY("tier")) {
      if (strcmp(v, "full") == 0) a->tier = JAIL_TIER_FULL;
      else if (strcmp(v, "reduced") == 0) a->tier = JAIL_TIER_REDUCED;
      else return jail_failx(e, "jail: bad tier '%s'", v);
    } else if (KEY("dir")) {
      if (v[0] != '/' || strlen(v) >= sizeof a->dir || strcmp(v, "/") == 0)
        return jail_failx(e, "jail: bad dir");
      strcpy(a->dir, v);
    } else if (KEY("uid")) {
      if (parse_u64(v, UINT32_MAX, &n) || n == 0) return jail_failx(e, "jail: bad uid '%s'", v);
      a->uid = (uint32_t)n;
    } else if (KEY("cwd")) {
      if (v[0] != '/' || strlen(v) >= sizeof a->cwd) return jail_failx(e, "jail: bad cwd");
      strcpy(a->cwd, v);
    } else if (KEY("mem") || KEY("cpu") || KEY("fsize")) {
      if (parse_u64(v, UINT64_MAX / 2, &n)) return jail_failx(e, "jail: bad number in '%s'", s);
      if (KEY("mem")) a->limits.mem_bytes = n;
      else if (KEY("cpu")) a->limits.cpu_seconds = n;
      else a->limits.fsize_bytes = n;
    } else if (KEY("nproc") || KEY("nofile") || KEY("shm")) {
      if (parse_u64(v, UINT32_MAX, &n)) return jail_failx(e, "jail: bad number in '%s'", s);
      if (KEY("nproc")) a->limits.nproc = (uint32_t)n;
      else if (KEY("nofile")) a->limits.nofile = (uint32_t)n;
      else a->limits.shm_bytes = (uint32_t)n;
    } else {
      return jail_failx(e, "jail: unknown argument '%s'", s);
    }
#undef KEY
  }
  if (a->tier == JAIL_TIER_REDUCED && !a->dir[0])
    return jail_failx(e, "jail: the reduced tier needs dir=");
  if (a->tier == JAIL_TIER_FULL && a->root == JAIL_ROOT_FUSE && a->fuse == JAIL_FUSE_NONE)
    return jail_failx(e, "jail: a FUSE root needs fuse=userns or fuse=hostmount");
  a->limits.memory_cgroup = a->cgroup[0] != 0;
  return 0;
}

/* Fails the setup: one "E" message to the host, then exit. */
static void __attribute__((noreturn)) setup_die(const char *msg) {
  jail_send_msg(JAIL_FD_SETUP, JAIL_MSG_ERROR, msg, -1);
  _exit(1);
}

/* The environment of W and Z (a call sets its own on top). */
void jail_env_common(const char *tmp) {
  setenv("PATH", "/usr/local/bin:/usr/bin:/bin", 1);
  setenv("LANG", "C.UTF-8", 1);
  setenv("USER", "sandbox", 1);
  setenv("LOGNAME", "sandbox", 1);
  setenv("TERM", "dumb", 1);
  setenv("PYTHONDONTWRITEBYTECODE", "1", 1);
  /* Charts without a display, and a writable place for matplotlib's cache;
   * Debian's copy of the defaults is /etc/matplotlibrc, outside the jail's /etc. */
  setenv("MPLBACKEND", "Agg", 1);
  setenv("MATPLOTLIBRC", "/usr/share/matplotlib/mpl-data", 1);
  char mpl[PATH_MAX + 32];
  snprintf(mpl, sizeof mpl, "%s/.config/matplotlib", tmp);
  setenv("MPLCONFIGDIR", mpl, 1);
  /* One BLAS/OpenMP thread: threads count against RLIMIT_NPROC and each one
   * reserves tens of MB of address space (RLIMIT_AS). */
  setenv("OPENBLAS_NUM_THREADS", "1", 1);
  setenv("OMP_NUM_THREADS", "1", 1);
  setenv("MKL_NUM_THREADS", "1", 1);
}

static void worker_env(const helper_args *a) {
  clearenv();
  jail_env_common("/tmp");
  setenv("HOME", "/tmp", 1);
  setenv("TMPDIR", "/tmp", 1);
  setenv("HOSTNAME", "sandbox", 1);
  /* Packages: `pip install` goes to the user site under /data (with
   * /etc/pip.conf, jail_fs.c), which every interpreter of the jail puts on
   * sys.path (the shell's HOME is /data: the same place). */
  setenv("PYTHONUSERBASE", "/data/.local", 1);
  if (a->nro_dirs) { /* the read-only directories, for every interpreter */
    char path[JAIL_MAX_RO_DIRS * (sizeof JAIL_RO_DIR_PREFIX + 4)] = "";
    for (int i = 0; i < a->nro_dirs; i++)
      snprintf(path + strlen(path), sizeof path - strlen(path), "%s%s%d", i ? ":" : "",
               JAIL_RO_DIR_PREFIX, i);
    setenv("PYTHONPATH", path, 1);
  }
}

/* W: put the fds in place and run the worker (or exec the test program). */
static void __attribute__((noreturn)) worker_start(const helper_args *a, jail_worker_fn worker) {
  /* Layout: 0 /dev/null, 1 stdout pipe, 2 stderr pipe, 3 ctl, 4 interrupt. */
  int devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
  if (devnull < 0 || dup2(devnull, 0) < 0 || dup2(JAIL_FD_INTR, JAIL_WFD_INTR) < 0 ||
      dup2(JAIL_FD_OUT, 1) < 0 || dup2(JAIL_FD_ERR, 2) < 0)
    _exit(126);
  /* JAIL_WFD_CTL == JAIL_FD_CTL: it stays. Everything above 4 goes. */
  syscall(SYS_close_range, JAIL_WFD_INTR + 1, ~0U, 0);
  setsid();
  if (chdir(a->cwd) != 0 && chdir("/") != 0) _exit(126);
  worker_env(a);
  if (a->exec_argv) {
    close(JAIL_WFD_CTL);
    close(JAIL_WFD_INTR);
    char buf[JAIL_ERRMSG_MAX];
    if (jail_worker_memory_filter(&a->limits, buf, sizeof buf)) {
      dprintf(2, "jail: %s\n", buf);
      _exit(126);
    }
    extern char **environ;
    execve(a->exec_argv[0], a->exec_argv, environ);
    dprintf(2, "jail: exec %s: %s\n", a->exec_argv[0], strerror(errno));
    _exit(127);
  }
  _exit(worker(&a->limits));
}

/* Z: the fork server. Its only fd besides 0-2 (/dev/null) is the spawn
 * socket; the processes it starts get their stdio from the host with each
 * request (src/py/py_spawn.c). */
static void __attribute__((noreturn)) spawner_start(const helper_args *a, jail_worker_fn spawner) {
  int devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
  if (devnull < 0 || dup2(devnull, 0) < 0 || dup2(devnull, 1) < 0 || dup2(devnull, 2) < 0 ||
      dup2(JAIL_FD_SPAWN, JAIL_ZFD_SPAWN) < 0)
    _exit(126);
  syscall(SYS_close_range, JAIL_ZFD_SPAWN + 1, ~0U, 0);
  setsid();
  if (chdir(a->cwd) != 0 && chdir("/") != 0) _exit(126);
  worker_env(a);
  /* Z's children decide for themselves (the call's environment). */
  unsetenv("PYTHONDONTWRITEBYTECODE");
  _exit(spawner(&a->limits));
}

/* ---- the memory watch (a jail without a memory cgroup) ---------------------------
 *
 * RLIMIT_AS bounds each process; the sum over processes is bounded here: J1
 * adds up the anonymous and shared-anonymous resident memory (RssAnon +
 * RssShmem) of every process of the jail each tick and, past the budget, kills them all and tells the host.
 * The budget is the call's limit, sent by the host before each call
 * (jail_set_memory), else the jail's RLIMIT_AS.
 * Pages shared after fork count once per process (the sum is high, never
 * low). What these do not see is closed elsewhere: memfds and SysV
 * shared memory by jail_apply_memory_filter, POSIX shared memory by the
 * size of /dev/shm. A process can pass the budget by what it touches in one
 * tick before it is killed. The tick is short (JAIL_MEMORY_TICK_MS) near the
 * budget and longer with room to spare (JAIL_MEMORY_IDLE_TICK_MS while more
 * than JAIL_MEMORY_ROOM is left: no process touches that much in one tick),
 * so an idle jail costs J1 little. */
#define JAIL_MEMORY_TICK_MS 10
#define JAIL_MEMORY_IDLE_TICK_MS 50
#define JAIL_MEMORY_ROOM (512LL << 20)

/* The first number after `key` in a /proc file, or -1. */
static long long proc_number(const char *path, const char *key) {
  char buf[4096];
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n <= 0) return -1;
  buf[n] = 0;
  char *p = strstr(buf, key);
  if (!p) return -1;
  p += strlen(key);
  while (*p == ' ' || *p == '\t') p++;
  if (strncmp(p, "unlimited", 9) == 0) return 0;
  return strtoll(p, NULL, 10);
}

/* One tick of the watch; returns the milliseconds to the next. */
static int memory_watch(uint64_t *host_budget, uint64_t jail_max) {
  /* The host's budget for this call, when it sent one: W's soft RLIMIT_AS
   * would do too, but W's code may raise that up to the hard limit. */
  char kind, text[64];
  int fd;
  while (recv(JAIL_FD_SETUP, text, 0, MSG_PEEK | MSG_DONTWAIT) >= 0 &&
         jail_recv_msg(JAIL_FD_SETUP, &kind, text, sizeof text, &fd) >= 0) {
    if (fd >= 0) close(fd);
    if (kind == JAIL_MSG_LIMIT) *host_budget = strtoull(text, NULL, 10);
  }
  long long budget = (long long)(*host_budget ? *host_budget : jail_max);
  if (budget <= 0) return JAIL_MEMORY_IDLE_TICK_MS;
  char path[64];
  DIR *d = opendir("/proc");
  if (!d) return JAIL_MEMORY_TICK_MS;
  long long total = 0;
  int nproc = 0;
  struct dirent *de;
  while ((de = readdir(d))) {
    if (de->d_name[0] < '1' || de->d_name[0] > '9') continue;
    snprintf(path, sizeof path, "/proc/%.20s/status", de->d_name);
    /* RssShmem: MAP_SHARED|MAP_ANONYMOUS pages are shmem, not anon. */
    long long anon = proc_number(path, "RssAnon:"), shmem = proc_number(path, "RssShmem:");
    if (anon > 0) total += anon * 1024;
    if (shmem > 0) total += shmem * 1024;
    nproc++;
  }
  closedir(d);
  if (total <= budget)
    return budget - total > JAIL_MEMORY_ROOM ? JAIL_MEMORY_IDLE_TICK_MS : JAIL_MEMORY_TICK_MS;
  char msg[160];
  snprintf(msg, sizeof msg, "%lld MiB in %d processes, limit %lld MiB", total >> 20, nproc,
           budget >> 20);
  jail_send_msg(JAIL_FD_SETUP, JAIL_MSG_MEMORY, msg, -1);
  /* From pid 1, -1 is every other process of the namespace. */
  kill(-1, SIGKILL);
  int st;
  pid_t r;
  while ((r = waitpid(-1, &st, 0)) > 0 || (r < 0 && errno == EINTR)) {
  }
  _exit(128 + SIGKILL);
}

/* J1: pid 1 of the jail. Never returns. */
static void __attribute__((noreturn)) init_main(const helper_args *a, int sync_rd, int mntfd,
                                                jail_worker_fn spawner, jail_worker_fn worker) {
  char buf[JAIL_ERRMSG_MAX];
  jail_err e = {buf, sizeof buf};
  char c;
  /* 1. P1 writes our id maps, then one byte. EOF means P1 died. */
  if (read(sync_rd, &c, 1) != 1) _exit(1);

  /* 2. The root filesystem. */
  jail_fs_plan plan = {.root = a->root,
                       .fuse = a->fuse,
                       .fuse_mount_fd = mntfd,
                       .setup_fd = JAIL_FD_SETUP,
                       .shm_bytes = a->limits.shm_bytes,
                       .stage = "/tmp",
                       .ro_dirs = a->ro_dirs,
                       .nro_dirs = a->nro_dirs};
  if (jail_setup_fs(&plan, &e)) setup_die(buf);
  /* 0-2 become the jail's own /dev/null: nothing J1 holds names a host file
   * (P1 got /dev/null from the host; reopened here, no fd of J1 even refers
   * to a file opened outside the jail). */
  if (jail_null_stdio(&e)) setup_die(buf);
  /* 3. Limits. */
  if (jail_apply_rlimits(&a->limits, &e)) setup_die(buf);
  /* 4. Identity and capabilities (the ids are already JAIL_UID/GID through the
   * map; setres* makes all three of each so). */
  if (setresgid(JAIL_GID, JAIL_GID, JAIL_GID) || setresuid(JAIL_UID, JAIL_UID, JAIL_UID)) {
    jail_fail(&e, "setresuid %d", JAIL_UID);
    setup_die(buf);
  }
  if (jail_drop_caps(&e)) setup_die(buf);
  /* J1 runs with the same uid as user code, so its /proc/1/mem, /proc/1/fd/N
   * and friends would be open to W: non-dumpable makes the kernel refuse
   * them (ptrace access mode checks) to anyone without CAP_SYS_PTRACE over
   * J1's mm, which no jailed process has. The uid change above did not
   * clear the flag (the map already made us JAIL_UID), so it is set here. */
  if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)) {
    jail_fail(&e, "PR_SET_DUMPABLE");
    setup_die(buf);
  }
  /* 5. Filters. */
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) {
    jail_fail(&e, "no_new_privs");
    setup_die(buf);
  }
  int abi;
  if (jail_apply_landlock(&abi, &e)) setup_die(buf);
  if (jail_apply_seccomp(&e)) setup_die(buf);
  /* 6. Die with P1 (I3). The death signal is armed first, then P1's liveness
   * is checked: if P1 died in between, its end of the sync pipe is closed. */
  prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
  struct pollfd p = {sync_rd, 0, 0};
  if (poll(&p, 1, 0) > 0 && (p.revents & (POLLHUP | POLLERR))) _exit(1);

  /* 7. Start W. */
  pid_t w = fork();
  if (w < 0) {
    jail_fail(&e, "fork worker");
    setup_die(buf);
  }
  if (w == 0) {
    close(sync_rd);
    close(JAIL_FD_SETUP);
    worker_start(a, worker);
  }
  /* Z, when the host gave a spawn socket and W is the Python worker. J1
   * keeps the socket (to the host, I5) to start a new Z when user code
   * killed it (os.kill(-1, 9) in the worker reaches Z). */
  int has_spawn = fcntl(JAIL_FD_SPAWN, F_GETFD) >= 0 && spawner && !a->exec_argv;
  pid_t z = -1;
  if (has_spawn) {
    z = fork();
    if (z == 0) {
      close(sync_rd);
      close(JAIL_FD_SETUP);
      spawner_start(a, spawner);
    }
    /* No Z (fork failed): the host's requests wait in the socket until
     * a call's time limit. */
  } else if (fcntl(JAIL_FD_SPAWN, F_GETFD) >= 0) {
    close(JAIL_FD_SPAWN);
  }
  /* Ready only after W exists, so "ready" means nothing else can fail. W does
   * not run untrusted code before the host sends it a request (I2). */
  jail_send_msg(JAIL_FD_SETUP, JAIL_MSG_READY, "", -1);
  /* The setup socket stays only when J1 watches the memory (it reports a
   * kill there); it is a socket to the host, never a host file. */
  if (a->limits.memory_cgroup) close(JAIL_FD_SETUP);
  close(JAIL_FD_CTL);
  close(JAIL_FD_OUT);
  close(JAIL_FD_ERR);
  close(JAIL_FD_INTR);
  uint64_t budget = 0; /* the host's, per call (JAIL_MSG_LIMIT) */
  for (;;) {
    int st;
    pid_t r = waitpid(-1, &st, a->limits.memory_cgroup ? 0 : WNOHANG);
    if (r < 0) {
      if (errno == EINTR) continue;
      _exit(0);
    }
    if (r == w) _exit(WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
    if (r > 0 && r == z && WIFSIGNALED(st)) {
      /* Z was killed (it exits by itself only when the host hangs up). */
      struct timespec pause = {0, 20 * 1000000L}; /* a kill loop stays slow */
      nanosleep(&pause, NULL);
      z = fork();
      if (z == 0) {
        close(sync_rd);
        close(JAIL_FD_SETUP);
        spawner_start(a, spawner);
      }
      continue;
    }
    /* Any other child is an orphan reparented to us: reaped, nothing more. */
    if (r > 0) continue;
    int ms = memory_watch(&budget, a->limits.mem_bytes);
    struct timespec tick = {0, ms * 1000000L};
    nanosleep(&tick, NULL);
  }
}

int jail_helper_main(int argc, char **argv, jail_worker_fn worker, jail_worker_fn spawner) {
  char buf[JAIL_ERRMSG_MAX];
  jail_err e = {buf, sizeof buf};
  helper_args a;
  for (int fd = JAIL_FD_CTL; fd <= JAIL_FD_INTR; fd++)
    if (fcntl(fd, F_GETFD) < 0) {
      fprintf(stderr, "sbx-pyworker jail: fd %d is not open (started by hand?)\n", fd);
      return 2;
    }
  if (parse_args(argc, argv, &a, &e)) setup_die(buf);
  if (a.tier == JAIL_TIER_REDUCED) {
    jail_reduced_args ra = {.limits = a.limits, .dir = a.dir, .cwd = a.cwd, .uid = a.uid,
                            .exec_argv = a.exec_argv, .cgroup = a.cgroup, .cgpids = a.cgpids};
    jail_reduced_helper(&ra, worker);
  }

  /* Hostmount mode: the only privileged step, done before the drop (I1). */
  int mntfd = -1;
  uint32_t host_id = jail_pick_host_id();
  if (a.root == JAIL_ROOT_FUSE && a.fuse == JAIL_FUSE_HOSTMOUNT) {
    if (geteuid() != 0) setup_die("jail: fuse=hostmount needs root");
    int devfd;
    if (jail_fuse_hostmount(host_id, host_id, &devfd, &mntfd, &e)) setup_die(buf);
    char txt[64];
    snprintf(txt, sizeof txt, "%d %u %u", (int)JAIL_FUSE_HOSTMOUNT, host_id, host_id);
    if (jail_send_msg(JAIL_FD_SETUP, JAIL_MSG_FUSE, txt, devfd)) _exit(1);
    close(devfd);
  }
  /* Into the jail's cgroup before anything of the jail exists, so all its
   * processes are charged there; as root, before the drop (the directory is
   * root's). */
  if (a.cgroup[0] && jail_cgroup_join(a.cgroup)) {
    jail_fail(&e, "jail: join cgroup %s", a.cgroup);
    setup_die(buf);
  }
  if (a.cgpids[0] && jail_cgroup_join(a.cgpids)) {
    jail_fail(&e, "jail: join cgroup %s", a.cgpids);
    setup_die(buf);
  }
  if (jail_drop_root(host_id, &e)) setup_die(buf);

  int sync[2];
  if (pipe2(sync, O_CLOEXEC)) {
    jail_fail(&e, "jail: pipe");
    setup_die(buf);
  }
  /* clone() without a new stack: fork semantics, the child continues here. */
  pid_t pid = (pid_t)syscall(SYS_clone, JAIL_NS_FLAGS | SIGCHLD, NULL, NULL, NULL, NULL);
  if (pid == 0) {
    close(sync[1]);
    init_main(&a, sync[0], mntfd, spawner, worker);
  }
  if (pid < 0) {
    jail_fail(&e, "clone(CLONE_NEWUSER|CLONE_NEWNS|CLONE_NEWPID|CLONE_NEWNET|...)");
    setup_die(buf);
  }
  close(sync[0]);
  if (mntfd >= 0) close(mntfd);
  /* Only J1 and W use these; P1 keeps the setup socket (its lifeline). */
  close(JAIL_FD_CTL);
  close(JAIL_FD_OUT);
  close(JAIL_FD_ERR);
  close(JAIL_FD_INTR);
  close(JAIL_FD_SPAWN);
  if (jail_write_idmaps(pid, &e)) {
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    setup_die(buf);
  }
  if (write(sync[1], "x", 1) != 1) {
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    setup_die("jail: sync pipe");
  }
  /* P1 is not reachable from the jail (another pid namespace), but it holds
   * the lifeline: its /proc files stay closed to other processes of its uid
   * too. Only now: J1 was forked with P1's mm flags, and a non-dumpable J1
   * would have had a uid_map P1 could not open. */
  prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
  /* Supervise: the host closing the setup socket (its lifeline) or J1 ending.
   * sync[1] stays open: J1 watches it to know P1 is alive. */
  int pfd = (int)syscall(SYS_pidfd_open, pid, 0);
  for (;;) {
    struct pollfd p[2] = {{JAIL_FD_SETUP, 0, 0}, {pfd, POLLIN, 0}};
    int r = poll(p, pfd >= 0 ? 2 : 1, pfd >= 0 ? -1 : 50);
    if (r < 0 && errno != EINTR) break;
    if (p[0].revents & (POLLHUP | POLLERR | POLLNVAL)) break;
    int st;
    pid_t w = waitpid(pid, &st, WNOHANG);
    if (w == pid) _exit(WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
  }
  /* Lifeline gone: kill J1, which takes the whole pid namespace with it, and
   * wait until the kernel has emptied it (I3). */
  kill(pid, SIGKILL);
  int st = 0;
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
  }
  _exit(WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
}
