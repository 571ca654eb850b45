/*
 * jail.c - the host side of the jail: finding the helper, choosing how the jail
 * gets /dev/fuse, spawning P1 with its file descriptors, reading the setup
 * messages, interrupting W and tearing everything down.
 *
 * Design decisions:
 *  - The helper is started with posix_spawn (vfork-like, safe in a
 *    multithreaded host) and an explicit fd layout (JAIL_FD_*); every other fd
 *    is closed in the child, the signal mask is emptied and every signal set
 *    back to its default, so nothing of the host leaks into the jail (I4 of
 *    jail.h: the jail never shares the host's memory).
 *  - The setup socket is SOCK_SEQPACKET: one datagram per message, so a message
 *    and the fd attached to it arrive together, and closing it is P1's lifeline.
 *  - jail_stop() never leaves a process behind (I3): it closes the lifeline,
 *    waits for P1 on a pidfd, and only then falls back to SIGKILL.
 */
#include "jail/jail.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "jail/jail_int.h"

/* ---- small helpers shared with the helper side ------------------------------ */

static int jail_vfail(jail_err *e, int with_errno, const char *fmt, va_list ap) {
  int saved = errno;
  if (e && e->buf && e->size) {
    int n = vsnprintf(e->buf, e->size, fmt, ap);
    if (with_errno && n >= 0 && (size_t)n < e->size)
      snprintf(e->buf + n, e->size - (size_t)n, ": %s", strerror(saved));
  }
  errno = saved;
  return -1;
}

int jail_fail(jail_err *e, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = jail_vfail(e, 1, fmt, ap);
  va_end(ap);
  return r;
}

int jail_failx(jail_err *e, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = jail_vfail(e, 0, fmt, ap);
  va_end(ap);
  return r;
}

void jail_cmsg_put_fds(struct msghdr *m, jail_cmsg_buf *cb, const int *fds, int n) {
  memset(cb, 0, sizeof *cb);
  m->msg_control = cb->buf;
  m->msg_controllen = CMSG_SPACE((size_t)n * sizeof(int));
  struct cmsghdr *c = CMSG_FIRSTHDR(m);
  c->cmsg_level = SOL_SOCKET;
  c->cmsg_type = SCM_RIGHTS;
  c->cmsg_len = CMSG_LEN((size_t)n * sizeof(int));
  memcpy(CMSG_DATA(c), fds, (size_t)n * sizeof(int));
}

int jail_send_msg(int sock, char kind, const char *text, int fd) {
  char buf[JAIL_ERRMSG_MAX + 2];
  size_t tl = text ? strnlen(text, JAIL_ERRMSG_MAX) : 0;
  buf[0] = kind;
  if (tl) memcpy(buf + 1, text, tl);
  struct iovec iov = {buf, 1 + tl};
  jail_cmsg_buf cbuf;
  struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1};
  if (fd >= 0) jail_cmsg_put_fds(&m, &cbuf, &fd, 1);
  ssize_t r;
  do r = sendmsg(sock, &m, MSG_NOSIGNAL);
  while (r < 0 && errno == EINTR);
  return r == (ssize_t)(1 + tl) ? 0 : -1;
}

int jail_recv_msg(int sock, char *kind, char *text, size_t textsz, int *fd) {
  char buf[JAIL_ERRMSG_MAX + 2];
  union {
    char b[CMSG_SPACE(sizeof(int) * 4)];
    struct cmsghdr align;
  } cbuf;
  struct iovec iov = {buf, sizeof buf};
  struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf.b,
                     .msg_controllen = sizeof cbuf.b};
  *fd = -1;
  ssize_t r;
  do r = recvmsg(sock, &m, MSG_CMSG_CLOEXEC);
  while (r < 0 && errno == EINTR);
  if (r <= 0) return -1;
  /* Take every fd that came (a hostile or buggy sender could attach several)
   * and keep at most the first. */
  for (struct cmsghdr *cm = CMSG_FIRSTHDR(&m); cm; cm = CMSG_NXTHDR(&m, cm)) {
    if (cm->cmsg_level != SOL_SOCKET || cm->cmsg_type != SCM_RIGHTS) continue;
    size_t nfds = (cm->cmsg_len - CMSG_LEN(0)) / sizeof(int);
    for (size_t i = 0; i < nfds; i++) {
      int f;
      memcpy(&f, CMSG_DATA(cm) + i * sizeof(int), sizeof(int));
      if (*fd < 0) *fd = f;
      else close(f);
    }
  }
  *kind = buf[0];
  size_t tl = (size_t)r - 1;
  if (tl >= textsz) tl = textsz - 1;
  memcpy(text, buf + 1, tl);
  text[tl] = 0;
  return (int)tl;
}

/* ---- runtime layout, helper lookup, fuse mode ------------------------------------ */

int jail_runtime_entries(jail_runtime_entry *out, int max) {
  static const char *const optional[] = {"bin", "sbin", "lib", "lib32", "lib64", "libx32"};
  int n = 0;
#define ADD(nm, sym, bind, tgt)                                            \
  do {                                                                     \
    if (n < max) {                                                         \
      memset(&out[n], 0, sizeof out[n]);                                   \
      snprintf(out[n].name, sizeof out[n].name, "%s", nm);                 \
      out[n].is_symlink = sym;                                             \
      out[n].bind_host = bind;                                             \
      snprintf(out[n].target, sizeof out[n].target, "%s", tgt);            \
      n++;                                                                 \
    }                                                                      \
  } while (0)
  ADD("usr", 0, 1, "");
  for (size_t i = 0; i < sizeof optional / sizeof optional[0]; i++) {
    char path[32], target[64];
    struct stat st;
    snprintf(path, sizeof path, "/%s", optional[i]);
    if (lstat(path, &st) != 0) continue;
    if (S_ISLNK(st.st_mode)) {
      ssize_t l = readlink(path, target, sizeof target - 1);
      /* A target we cannot represent is skipped rather than truncated. */
      if (l <= 0 || l >= (ssize_t)sizeof target - 1) continue;
      target[l] = 0;
      ADD(optional[i], 1, 0, target);
    } else if (S_ISDIR(st.st_mode)) {
      ADD(optional[i], 0, 1, "");
    }
  }
  ADD("etc", 0, 0, "");
  ADD("proc", 0, 0, "");
  ADD("dev", 0, 0, "");
  ADD("run", 0, 0, ""); /* a tmpfs, with the read-only directories of jail_config */
#undef ADD
  return n;
}

static int is_executable_file(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 && S_ISREG(st.st_mode) && access(p, X_OK) == 0;
}

int jail_find_helper(char *out, size_t outsz) {
  const char *env = getenv("SBX_PYWORKER");
  if (env && env[0] == '/' && is_executable_file(env)) {
    if (strlen(env) >= outsz) return -ENAMETOOLONG;
    strcpy(out, env);
    return 0;
  }
  char exe[PATH_MAX];
  ssize_t l = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (l > 0) {
    exe[l] = 0;
    char *slash = strrchr(exe, '/');
    if (slash) *slash = 0;
    static const char *const rel[] = {"", "/..", "/../.."};
    for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
      char cand[PATH_MAX + 32];
      snprintf(cand, sizeof cand, "%s%s/sbx-pyworker", exe, rel[i]);
      if (is_executable_file(cand) && strlen(cand) < outsz) {
        strcpy(out, cand);
        return 0;
      }
    }
  }
  static const char *const fixed[] = {"/usr/local/libexec/sbx/sbx-pyworker",
                                      "/usr/libexec/sbx/sbx-pyworker"};
  for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) {
    if (is_executable_file(fixed[i]) && strlen(fixed[i]) < outsz) {
      strcpy(out, fixed[i]);
      return 0;
    }
  }
  return -ENOENT;
}

jail_fuse_mode jail_choose_fuse_mode(char *why, size_t whysz) {
  struct stat st;
  if (why && whysz) why[0] = 0;
  if (stat("/dev/fuse", &st) != 0) {
    if (why)
      snprintf(why, whysz,
               "/dev/fuse is missing (%s): load the module (modprobe fuse); in a "
               "container pass the device (docker run --device /dev/fuse)",
               strerror(errno));
    return JAIL_FUSE_NONE;
  }
  if (!S_ISCHR(st.st_mode) || major(st.st_rdev) != 10 || minor(st.st_rdev) != 229) {
    if (why) snprintf(why, whysz, "/dev/fuse is not the FUSE character device (10:229)");
    return JAIL_FUSE_NONE;
  }
  /* The jail's user is an unprivileged id (I1): it can open /dev/fuse itself
   * only when the device is world read-write, as Debian's udev rule makes it. */
  if ((st.st_mode & (S_IROTH | S_IWOTH)) == (S_IROTH | S_IWOTH)) return JAIL_FUSE_USERNS;
  if (geteuid() == 0) return JAIL_FUSE_HOSTMOUNT;
  if (access("/dev/fuse", R_OK | W_OK) == 0) return JAIL_FUSE_USERNS;
  if (why)
    snprintf(why, whysz,
             "/dev/fuse is mode %04o owner %u: this user cannot open it; make it "
             "world read-write (chmod 0666 /dev/fuse, Debian's default udev rule) "
             "or run as root",
             (unsigned)(st.st_mode & 07777), (unsigned)st.st_uid);
  return JAIL_FUSE_NONE;
}

/* ---- spawning --------------------------------------------------------------------- */

int jail_spawn(const char *path, char *const argv[], char *const envp[], const int *fds,
               int nfds, int null_stderr, pid_t *pid) {
  posix_spawn_file_actions_t fa;
  posix_spawnattr_t at;
  posix_spawn_file_actions_init(&fa);
  posix_spawnattr_init(&at);
  sigset_t none, all;
  sigemptyset(&none);
  sigfillset(&all);
  posix_spawnattr_setsigmask(&at, &none);
  posix_spawnattr_setsigdefault(&at, &all);
  posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  if (null_stderr) posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  for (int i = 0; i < nfds; i++) posix_spawn_file_actions_adddup2(&fa, fds[i], 3 + i);
  posix_spawn_file_actions_addclosefrom_np(&fa, 3 + nfds);
  int rc = posix_spawn(pid, path, &fa, &at, argv, envp);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&at);
  return rc;
}

void jail_init(jail *j) {
  memset(j, 0, sizeof *j);
  j->helper_pid = -1;
  j->ctl_fd = j->setup_fd = j->out_fd = j->err_fd = j->intr_fd = j->fuse_fd = j->spawn_fd = -1;
  j->wait_status = -1;
  jail_cgroup_init(&j->cg);
}

static void close_pair(int p[2]) {
  for (int i = 0; i < 2; i++)
    if (p[i] >= 0) close(p[i]), p[i] = -1;
}

/* Moves an fd to >= 64 (CLOEXEC) so that dup2 onto 3..7 in the child cannot
 * clobber another source fd. */
static int move_high(int *fd) {
  int n = fcntl(*fd, F_DUPFD_CLOEXEC, 64);
  if (n < 0) return -1;
  close(*fd);
  *fd = n;
  return 0;
}

static long long ms_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Waits up to timeout_ms for one setup message. */
static int recv_setup(jail *j, int timeout_ms, char *kind, char *text, size_t textsz,
                      int *fd) {
  long long deadline = ms_now() + timeout_ms;
  for (;;) {
    long long left = deadline - ms_now();
    if (left < 0) left = 0;
    struct pollfd p = {j->setup_fd, POLLIN, 0};
    int r = poll(&p, 1, (int)left);
    if (r < 0 && errno == EINTR) continue;
    if (r == 0) {
      errno = ETIMEDOUT;
      return -1;
    }
    if (r < 0) return -1;
    if (jail_recv_msg(j->setup_fd, kind, text, textsz, fd) < 0) {
      errno = EPIPE;
      return -1;
    }
    return 0;
  }
}

/* Appends how P1 ended ("exit 1", "signal 9") when the setup failed silently. */
static void describe_exit(jail *j, char *err, size_t errlen) {
  if (j->wait_status < 0 || !err[0]) return;
  size_t l = strlen(err);
  if (WIFSIGNALED(j->wait_status))
    snprintf(err + l, errlen - l, " (helper killed by signal %d)", WTERMSIG(j->wait_status));
}

int jail_start(const jail_config *cfg, jail *j, char *err, size_t errlen) {
  jail_init(j);
  char helper[PATH_MAX];
  err[0] = 0;
  if (cfg->helper_path) {
    snprintf(helper, sizeof helper, "%s", cfg->helper_path);
  } else if (jail_find_helper(helper, sizeof helper) != 0) {
    snprintf(err, errlen,
             "sbx-pyworker not found: set SBX_PYWORKER to its absolute path or "
             "install it in /usr/local/libexec/sbx/");
    return -1;
  }
  jail_fuse_mode fm = JAIL_FUSE_NONE;
  int reduced = cfg->tier == JAIL_TIER_REDUCED;
  if (reduced && (!cfg->dir || cfg->dir[0] != '/' || strlen(cfg->dir) > PATH_MAX - 8)) {
    snprintf(err, errlen, "jail: the reduced tier needs an absolute directory");
    return -1;
  }
  if (!reduced && cfg->root == JAIL_ROOT_FUSE) {
    char why[JAIL_ERRMSG_MAX];
    fm = jail_choose_fuse_mode(why, sizeof why);
    if (fm == JAIL_FUSE_NONE) {
      snprintf(err, errlen, "%s", why);
      return -1;
    }
  }

  /* The memory of all the jail's processes together: a cgroup when the host
   * gives us one, else J1 watches it (jail_helper.c). */
  char cgwhy[JAIL_ERRMSG_MAX];
  if (jail_cgroup_create(&j->cg, cfg->limits.mem_bytes, cfg->limits.nproc, cgwhy, sizeof cgwhy) == 0)
    snprintf(j->memory_note, sizeof j->memory_note, "cgroup v%d", j->cg.version);
  else
    snprintf(j->memory_note, sizeof j->memory_note, "no cgroup (%.140s)", cgwhy);

  /* The spawn socket exists only where J1 starts the fork server Z: a full
   * jail running the Python worker (the reduced tier runs W alone; exec mode
   * runs one program). j->spawn_fd tells the caller (py_spawn.c). */
  int with_spawn = !reduced && !cfg->exec_argv;
  int ctl[2] = {-1, -1}, setup[2] = {-1, -1}, out[2] = {-1, -1}, errp[2] = {-1, -1},
      intr[2] = {-1, -1}, spawn[2] = {-1, -1};
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ctl) ||
      socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, setup) ||
      pipe2(out, O_CLOEXEC) || pipe2(errp, O_CLOEXEC) ||
      /* A socket, not a pipe: writing to a dead worker must not SIGPIPE us. */
      socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, intr) ||
      (with_spawn && (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, spawn) ||
                      move_high(&spawn[1]))) ||
      move_high(&ctl[1]) || move_high(&setup[1]) || move_high(&out[1]) ||
      move_high(&errp[1]) || move_high(&intr[0])) {
    snprintf(err, errlen, "jail: socketpair/pipe: %s", strerror(errno));
    goto fail_fds;
  }

  /* argv: "jail" then KEY=VALUE pairs, then "--" PROGRAM... for exec mode. */
  char kv[8][64];
  const char *rootname = cfg->root == JAIL_ROOT_FUSE ? "fuse" : "tmpfs";
  const char *fusename = fm == JAIL_FUSE_USERNS ? "userns" : fm == JAIL_FUSE_HOSTMOUNT ? "hostmount" : "none";
  snprintf(kv[0], sizeof kv[0], "root=%s", rootname);
  snprintf(kv[1], sizeof kv[1], "fuse=%s", fusename);
  snprintf(kv[2], sizeof kv[2], "mem=%llu", (unsigned long long)cfg->limits.mem_bytes);
  snprintf(kv[3], sizeof kv[3], "cpu=%llu", (unsigned long long)cfg->limits.cpu_seconds);
  snprintf(kv[4], sizeof kv[4], "fsize=%llu", (unsigned long long)cfg->limits.fsize_bytes);
  snprintf(kv[5], sizeof kv[5], "nproc=%u", cfg->limits.nproc);
  snprintf(kv[6], sizeof kv[6], "nofile=%u", cfg->limits.nofile);
  snprintf(kv[7], sizeof kv[7], "shm=%u", cfg->limits.shm_bytes);
  char cwdarg[4096 + 8];
  snprintf(cwdarg, sizeof cwdarg, "cwd=%s", cfg->cwd && cfg->cwd[0] == '/' ? cfg->cwd : "/");
  size_t nexec = 0;
  if (cfg->exec_argv)
    while (cfg->exec_argv[nexec] && nexec < 64) nexec++;
  char cgarg[JAIL_CGROUP_PATH + 16], cgpidsarg[JAIL_CGROUP_PATH + 16];
  snprintf(cgarg, sizeof cgarg, "cgroup=%s", j->cg.dir);
  snprintf(cgpidsarg, sizeof cgpidsarg, "cgpids=%s", j->cg.pids_dir);
  size_t nro = 0;
  char *roargs[JAIL_MAX_RO_DIRS] = {NULL};
  for (; cfg->ro_dirs && cfg->ro_dirs[nro]; nro++) {
    size_t len = strlen(cfg->ro_dirs[nro]);
    if (nro == JAIL_MAX_RO_DIRS || cfg->ro_dirs[nro][0] != '/' || len >= PATH_MAX ||
        !(roargs[nro] = malloc(len + 4))) {
      snprintf(err, errlen, "jail: bad read-only directory (absolute, at most %d)",
               JAIL_MAX_RO_DIRS);
      for (size_t i = 0; i < nro; i++) free(roargs[i]);
      goto fail_fds;
    }
    snprintf(roargs[nro], len + 4, "ro=%s", cfg->ro_dirs[nro]);
  }
  char tierarg[PATH_MAX + 8], dirarg[PATH_MAX + 8], uidarg[32];
  snprintf(tierarg, sizeof tierarg, "tier=reduced");
  snprintf(dirarg, sizeof dirarg, "dir=%s", reduced ? cfg->dir : "");
  snprintf(uidarg, sizeof uidarg, "uid=%u", cfg->run_uid);
  char *argv[20 + JAIL_MAX_RO_DIRS + 64 + 2];
  size_t ac = 0;
  argv[ac++] = (char *)"sbx-pyworker";
  argv[ac++] = (char *)"jail";
  for (int i = 0; i < 8; i++) argv[ac++] = kv[i];
  argv[ac++] = cwdarg;
  if (j->cg.dir[0]) argv[ac++] = cgarg;
  if (j->cg.pids_dir[0]) argv[ac++] = cgpidsarg;
  for (size_t i = 0; i < nro; i++) argv[ac++] = roargs[i];
  if (reduced) {
    argv[ac++] = tierarg;
    argv[ac++] = dirarg;
    if (cfg->run_uid) argv[ac++] = uidarg;
  }
  if (nexec) {
    argv[ac++] = (char *)"--";
    for (size_t i = 0; i < nexec; i++) argv[ac++] = cfg->exec_argv[i];
  }
  argv[ac] = NULL;
  char *envp[] = {NULL};

  /* fds 3..8 in the order of JAIL_FD_CTL .. JAIL_FD_SPAWN (the last one only
   * with a fork server) */
  const int fds[] = {ctl[1], setup[1], out[1], errp[1], intr[0], spawn[1]};
  pid_t pid;
  /* stderr is /dev/null, not the host's: P1 and J1 inherit 0-2, and a hijacked
   * J1 could write to (or truncate) whatever file the host's fd 2 is. */
  int rc = jail_spawn(helper, argv, envp, fds, with_spawn ? 6 : 5, 1, &pid);
  for (size_t i = 0; i < nro; i++) free(roargs[i]);
  if (rc != 0) {
    snprintf(err, errlen, "jail: cannot start %s: %s", helper, strerror(rc));
    goto fail_fds;
  }
  close(ctl[1]);
  close(setup[1]);
  close(out[1]);
  close(errp[1]);
  close(intr[0]);
  if (with_spawn) close(spawn[1]);
  j->helper_pid = pid;
  j->ctl_fd = ctl[0];
  j->setup_fd = setup[0];
  j->out_fd = out[0];
  j->err_fd = errp[0];
  j->intr_fd = intr[1];
  j->spawn_fd = spawn[0];
  j->fuse_mode = fm;
  j->tier = cfg->tier;
  if (reduced || cfg->root != JAIL_ROOT_FUSE) return 0;

  /* A FUSE root: the first message is the /dev/fuse fd (or the error). */
  char kind, text[JAIL_ERRMSG_MAX];
  int fd;
  if (recv_setup(j, 5000, &kind, text, sizeof text, &fd) != 0) {
    int e = errno;
    jail_stop(j, 1000);
    snprintf(err, errlen, "jail: no answer from the helper (%s)", strerror(e));
    describe_exit(j, err, errlen);
    return -1;
  }
  if (kind != JAIL_MSG_FUSE || fd < 0) {
    if (fd >= 0) close(fd);
    jail_stop(j, 1000);
    snprintf(err, errlen, "jail: %s", kind == JAIL_MSG_ERROR ? text : "unexpected setup message");
    return -1;
  }
  struct stat st;
  unsigned mode_in = 0, uid = 0, gid = 0;
  if (fstat(fd, &st) != 0 || !S_ISCHR(st.st_mode) || major(st.st_rdev) != 10 ||
      minor(st.st_rdev) != 229 || sscanf(text, "%u %u %u", &mode_in, &uid, &gid) != 3) {
    close(fd);
    jail_stop(j, 1000);
    snprintf(err, errlen, "jail: the helper sent a bad FUSE descriptor");
    return -1;
  }
  j->fuse_fd = fd;
  j->fuse_uid = uid;
  j->fuse_gid = gid;
  return 0;

fail_fds:
  close_pair(ctl);
  close_pair(setup);
  close_pair(out);
  close_pair(errp);
  close_pair(intr);
  close_pair(spawn);
  jail_cgroup_remove(&j->cg);
  return -1;
}

int jail_wait_ready(jail *j, int timeout_ms, char *err, size_t errlen) {
  char kind, text[JAIL_ERRMSG_MAX];
  int fd;
  for (;;) {
    if (recv_setup(j, timeout_ms, &kind, text, sizeof text, &fd) != 0) {
      int e = errno;
      jail_stop(j, 1000);
      if (e == ETIMEDOUT)
        snprintf(err, errlen, "jail: setup did not finish within %d ms", timeout_ms);
      else
        snprintf(err, errlen, "jail: the helper ended during setup");
      describe_exit(j, err, errlen);
      return -1;
    }
    if (fd >= 0) close(fd);
    if (kind == JAIL_MSG_READY) {
      /* The reduced tier names its process group (jail_reduced.c, R3). */
      if (j->tier == JAIL_TIER_REDUCED) j->group = (pid_t)atoi(text);
      return 0;
    }
    if (kind == JAIL_MSG_ERROR) {
      jail_stop(j, 1000);
      snprintf(err, errlen, "jail: %s", text);
      return -1;
    }
    /* Anything else is ignored: only these two end the setup. */
  }
}

int jail_interrupt(jail *j, uint32_t id) {
  if (j->intr_fd < 0) return -1;
  ssize_t r = send(j->intr_fd, &id, sizeof id, MSG_NOSIGNAL | MSG_DONTWAIT);
  return r == (ssize_t)sizeof id || (r < 0 && errno == EAGAIN) ? 0 : -1;
}

static void close_fd(int *fd) {
  if (*fd >= 0) close(*fd);
  *fd = -1;
}

/* Waits for P1 to exit, at most `ms` (-1: forever). 1 when reaped. */
static int reap_helper(jail *j, int ms) {
  if (j->helper_pid <= 0) return 1;
  int pfd = (int)syscall(SYS_pidfd_open, j->helper_pid, 0);
  if (pfd >= 0 && ms >= 0) {
    struct pollfd p = {pfd, POLLIN, 0};
    long long deadline = ms_now() + ms;
    for (;;) {
      long long left = deadline - ms_now();
      if (left < 0) left = 0;
      int r = poll(&p, 1, (int)left);
      if (r < 0 && errno == EINTR) continue;
      break;
    }
  } else if (ms >= 0) {
    /* No pidfd (old kernel): poll with short sleeps. */
    for (int waited = 0; waited < ms; waited++) {
      int st;
      pid_t r = waitpid(j->helper_pid, &st, WNOHANG);
      if (r == j->helper_pid || (r < 0 && errno == ECHILD)) {
        j->wait_status = r == j->helper_pid ? st : 0;
        j->helper_pid = -1;
        return 1;
      }
      usleep(1000);
    }
  }
  if (pfd >= 0) close(pfd);
  int st;
  pid_t r;
  do r = waitpid(j->helper_pid, &st, ms < 0 ? 0 : WNOHANG);
  while (r < 0 && errno == EINTR);
  if (r == j->helper_pid || (r < 0 && errno == ECHILD)) {
    j->wait_status = r == j->helper_pid ? st : 0;
    j->helper_pid = -1;
    return 1;
  }
  return 0;
}

int jail_wait_exit(jail *j, int timeout_ms) { return reap_helper(j, timeout_ms); }

void jail_stop(jail *j, int grace_ms) {
  close_fd(&j->ctl_fd);
  close_fd(&j->intr_fd);
  close_fd(&j->spawn_fd);
  /* Closing the lifeline makes P1 kill J1, wait for the namespace to empty and
   * exit (I3). */
  close_fd(&j->setup_fd);
  if (j->helper_pid > 0 && !reap_helper(j, grace_ms)) {
    /* P1 is not reaped yet, so the number of its group G is still taken
     * by G's members (jail_reduced.c, R3). */
    if (j->group > 0) kill(-j->group, SIGKILL);
    kill(j->helper_pid, SIGKILL);
    reap_helper(j, -1);
  }
  /* The reduced tier: P1 kills G before it exits; if P1 died first (W may
   * signal it where Landlock has no signal scope), G's members are orphans
   * still in G, and while any of them lives G's number is theirs. */
  if (j->group > 0) kill(-j->group, SIGKILL);
  j->group = 0;
  close_fd(&j->out_fd);
  close_fd(&j->err_fd);
  close_fd(&j->fuse_fd);
  /* P1 is reaped and took J1 and the pid namespace with it: empty. */
  if (j->helper_pid <= 0) jail_cgroup_remove(&j->cg);
  j->mem_set = 0;
}

void jail_set_memory(jail *j, uint64_t bytes) {
  /* The same limit as the last call's: nothing to write (a cgroup write is
   * several system calls per call, a message to J1 a wakeup). */
  if (bytes && bytes == j->mem_set) return;
  /* A failure (v1 refuses a limit below the usage) keeps the previous one. */
  if (j->cg.version) {
    j->mem_set = jail_cgroup_set_memory(&j->cg, bytes) == 0 ? bytes : 0;
  } else if (j->setup_fd >= 0) {
    j->mem_set = bytes;
    /* J1 reads it at its next tick, before the call's code has run long. */
    char text[32];
    snprintf(text, sizeof text, "%llu", (unsigned long long)bytes);
    jail_send_msg(j->setup_fd, JAIL_MSG_LIMIT, text, -1);
  }
}

int jail_memory_killed(jail *j, char *msg, size_t n) {
  if (j->cg.version) {
    long kills = jail_cgroup_oom_kills(&j->cg);
    if (kills <= 0) return 0;
    snprintf(msg, n, "the sandbox's memory limit was reached (the kernel killed %ld process%s "
             "of its cgroup)", kills, kills == 1 ? "" : "es");
    return 1;
  }
  /* Without a cgroup J1 says so on the setup socket before it kills. */
  while (j->setup_fd >= 0) {
    struct pollfd p = {j->setup_fd, POLLIN, 0};
    if (poll(&p, 1, 100) <= 0) return 0;
    char kind, text[JAIL_ERRMSG_MAX];
    int fd;
    if (jail_recv_msg(j->setup_fd, &kind, text, sizeof text, &fd) < 0) return 0;
    if (fd >= 0) close(fd);
    if (kind == JAIL_MSG_MEMORY) {
      snprintf(msg, n, "the sandbox's memory limit was reached (%s)", text);
      return 1;
    }
  }
  return 0;
}
