/*
 * jail_probe.c - the checks behind `sbx doctor` and sbx_probe(): which steps of
 * the jail work on this host, and for each missing one why and what to change.
 *
 * Two halves:
 *  - jail_probe_main() runs inside "sbx-pyworker probe" (a fresh process, so
 *    it may fork freely and even fail badly). Each step runs in its own child
 *    that tries exactly what the jail does (dropping root first, like P1) and
 *    reports "name<TAB>ok|fail|partial<TAB>detail" on stdout.
 *  - jail_probe() on the host starts that helper, parses its lines, adds the
 *    host-side facts (sysctls, the Python runtime) and turns each failure into
 *    a fix, then starts one real jail to prove the whole chain.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/landlock.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "jail/jail.h"
#include "jail/jail_int.h"

/* ---- helper side ---------------------------------------------------------------- */

/* Runs fn in a child; the child writes its detail to a pipe. Returns the
 * child's exit code (0 ok, 1 fail, 2 partial) and the detail. */
static int in_child(int (*fn)(char *detail, size_t n), char *detail, size_t n) {
  int p[2];
  detail[0] = 0;
  if (pipe2(p, O_CLOEXEC)) {
    snprintf(detail, n, "pipe: %s", strerror(errno));
    return 1;
  }
  pid_t pid = fork();
  if (pid == 0) {
    close(p[0]);
    char d[256] = "";
    int rc = fn(d, sizeof d);
    if (write(p[1], d, strlen(d)) < 0) _exit(1);
    _exit(rc);
  }
  close(p[1]);
  if (pid < 0) {
    close(p[0]);
    snprintf(detail, n, "fork: %s", strerror(errno));
    return 1;
  }
  size_t got = 0;
  ssize_t r;
  while (got + 1 < n && (r = read(p[0], detail + got, n - 1 - got)) > 0) got += (size_t)r;
  detail[got] = 0;
  close(p[0]);
  int st;
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
  }
  if (WIFSIGNALED(st)) {
    snprintf(detail, n, "the check was killed by signal %d", WTERMSIG(st));
    return 1;
  }
  return WEXITSTATUS(st);
}

static int drop_and_userns(char *d, size_t n, int extra) {
  char buf[256];
  jail_err e = {buf, sizeof buf};
  if (jail_drop_root(jail_pick_host_id(), &e)) {
    snprintf(d, n, "%s", buf);
    return -1;
  }
  uid_t uid = getuid();
  gid_t gid = getgid();
  if (unshare(CLONE_NEWUSER | extra)) {
    snprintf(d, n, "unshare(CLONE_NEWUSER%s): %s", extra ? "|..." : "", strerror(errno));
    return -1;
  }
  char map[64];
  snprintf(map, sizeof map, "%d %u 1", JAIL_UID, (unsigned)uid);
  if (jail_write_file("/proc/self/setgroups", "deny", 0) ||
      jail_write_file("/proc/self/uid_map", map, 0)) {
    snprintf(d, n, "write uid_map: %s", strerror(errno));
    return -1;
  }
  snprintf(map, sizeof map, "%d %u 1", JAIL_GID, (unsigned)gid);
  if (jail_write_file("/proc/self/gid_map", map, 0)) {
    snprintf(d, n, "write gid_map: %s", strerror(errno));
    return -1;
  }
  return 0;
}

static int check_userns(char *d, size_t n) {
  if (drop_and_userns(d, n, 0)) return 1;
  snprintf(d, n, "an unprivileged user can create a user namespace");
  return 0;
}

static int check_namespaces(char *d, size_t n) {
  if (drop_and_userns(d, n, 0)) return 1;
  static const struct {
    int flag;
    const char *name;
  } ns[] = {{CLONE_NEWNS, "mount"}, {CLONE_NEWPID, "pid"}, {CLONE_NEWNET, "net"},
            {CLONE_NEWIPC, "ipc"},  {CLONE_NEWUTS, "uts"}, {CLONE_NEWCGROUP, "cgroup"}};
  char failed[200] = "";
  for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
    if (unshare(ns[i].flag) != 0) {
      size_t l = strlen(failed);
      snprintf(failed + l, sizeof failed - l, "%s%s (%s)", l ? ", " : "", ns[i].name,
               strerror(errno));
    }
  }
  if (failed[0]) {
    snprintf(d, n, "cannot create: %s", failed);
    return 1;
  }
  snprintf(d, n, "mount, pid, net, ipc, uts and cgroup namespaces");
  return 0;
}

static int check_fuse_mount(char *d, size_t n) {
  char why[256];
  jail_fuse_mode m = jail_choose_fuse_mode(why, sizeof why);
  if (m == JAIL_FUSE_NONE) {
    snprintf(d, n, "%s", why);
    return 1;
  }
  char buf[256];
  jail_err e = {buf, sizeof buf};
  if (m == JAIL_FUSE_HOSTMOUNT) {
    int dev, mnt;
    uint32_t id = jail_pick_host_id();
    if (jail_fuse_hostmount(id, id, &dev, &mnt, &e)) {
      snprintf(d, n, "%s", buf);
      return 1;
    }
    close(mnt);
    close(dev);
    snprintf(d, n, "root mounts FUSE (fsmount) and hands the mount to the jail: /dev/fuse is "
                   "not world read-write");
    return 2;
  }
  if (drop_and_userns(d, n, CLONE_NEWNS)) return 1;
  if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
      mount("tmpfs", "/tmp", "tmpfs", 0, "size=64k")) {
    snprintf(d, n, "tmpfs in the jail's mount namespace: %s", strerror(errno));
    return 1;
  }
  int fd = open("/dev/fuse", O_RDWR | O_CLOEXEC);
  if (fd < 0) {
    snprintf(d, n, "open /dev/fuse in the user namespace: %s", strerror(errno));
    return 1;
  }
  char opts[128];
  jail_fuse_opts(opts, sizeof opts, fd, JAIL_UID, JAIL_GID);
  if (mount("sbx", "/tmp", "fuse.sbx", MS_NOSUID | MS_NODEV, opts)) {
    snprintf(d, n, "mount fuse in the user namespace: %s", strerror(errno));
    return 1;
  }
  snprintf(d, n, "/dev/fuse opened and mounted inside the jail's user namespace");
  return 0;
}

static int check_proc(char *d, size_t n) {
  if (drop_and_userns(d, n, CLONE_NEWNS | CLONE_NEWPID)) return 1;
  pid_t pid = fork(); /* the first child is pid 1 of the new pid namespace */
  if (pid == 0) {
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
        mount("tmpfs", "/tmp", "tmpfs", 0, "size=64k") || mkdir("/tmp/p", 0755))
      _exit(3);
    if (mount("proc", "/tmp/p", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, "subset=pid") == 0) _exit(0);
    int e = errno;
    if (mount("proc", "/tmp/p", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) == 0) _exit(2);
    _exit(e == EPERM ? 4 : 5);
  }
  int st;
  if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st)) {
    snprintf(d, n, "fork in the pid namespace failed");
    return 1;
  }
  switch (WEXITSTATUS(st)) {
    case 0: snprintf(d, n, "a private /proc (subset=pid) in the jail's pid namespace"); return 0;
    case 2: snprintf(d, n, "a private /proc, without subset=pid (kernel before 5.8)"); return 2;
    case 4:
      snprintf(d, n, "mount proc: Operation not permitted (the host's /proc has masked paths)");
      return 1;
    default: snprintf(d, n, "mount proc failed"); return 1;
  }
}

static int check_readonly_bind(char *d, size_t n) {
  if (drop_and_userns(d, n, CLONE_NEWNS)) return 1;
  if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
      mount("tmpfs", "/tmp", "tmpfs", 0, "size=64k") || mkdir("/tmp/u", 0755) ||
      mount("/usr", "/tmp/u", NULL, MS_BIND | MS_REC, NULL)) {
    snprintf(d, n, "bind /usr: %s", strerror(errno));
    return 1;
  }
  struct mount_attr a = {.attr_set = MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV};
  if (mount_setattr(AT_FDCWD, "/tmp/u", AT_RECURSIVE, &a, sizeof a)) {
    snprintf(d, n, "mount_setattr: %s (falls back to a read-only remount)", strerror(errno));
    return 2;
  }
  snprintf(d, n, "/usr bound read-only, nosuid, nodev (mount_setattr)");
  return 0;
}

static int check_landlock(char *d, size_t n) {
  long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
  if (abi < 1) {
    snprintf(d, n, "not available: %s", strerror(errno));
    return 1;
  }
  if (abi < 4) {
    snprintf(d, n, "ABI %ld: file rules only; TCP rules need ABI 4, scopes ABI 6", abi);
    return 2;
  }
  if (abi < 6) {
    snprintf(d, n, "ABI %ld: file and TCP rules; signal and abstract-socket scopes need ABI 6", abi);
    return 2;
  }
  snprintf(d, n, "ABI %ld: file rules, TCP bind/connect denied, signal and socket scopes", abi);
  return 0;
}

static int check_seccomp(char *d, size_t n) {
  char buf[256];
  jail_err e = {buf, sizeof buf};
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) {
    snprintf(d, n, "no_new_privs: %s", strerror(errno));
    return 1;
  }
  if (jail_apply_seccomp(&e)) {
    snprintf(d, n, "%s", buf);
    return 1;
  }
  if (unshare(CLONE_NEWUSER) == 0 || errno != EPERM) {
    snprintf(d, n, "the filter loaded but unshare was not denied");
    return 1;
  }
  snprintf(d, n, "deny list loaded (unshare answered EPERM); no_new_privs set");
  return 0;
}

int jail_probe_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  static const struct {
    const char *name;
    int (*fn)(char *, size_t);
  } checks[] = {
      {"user namespaces", check_userns},
      {"namespaces", check_namespaces},
      {"FUSE in the jail", check_fuse_mount},
      {"private /proc", check_proc},
      {"read-only runtime", check_readonly_bind},
      {"landlock", check_landlock},
      {"seccomp", check_seccomp},
  };
  for (size_t i = 0; i < sizeof checks / sizeof checks[0]; i++) {
    char detail[256];
    int rc = in_child(checks[i].fn, detail, sizeof detail);
    for (char *p = detail; *p; p++)
      if (*p == '\t' || *p == '\n') *p = ' ';
    printf("%s\t%s\t%s\n", checks[i].name, rc == 0 ? "ok" : rc == 2 ? "partial" : "fail", detail);
    fflush(stdout);
  }
  return 0;
}

/* ---- host side ---------------------------------------------------------------------------- */

static int read_sysctl(const char *path, long *v) {
  FILE *f = fopen(path, "re");
  if (!f) return -1;
  int ok = fscanf(f, "%ld", v) == 1;
  fclose(f);
  return ok ? 0 : -1;
}

static jail_probe_item *add_item(jail_probe_item *items, int max, int *n, const char *name, int ok,
                                 const char *detail, const char *fix) {
  if (*n >= max) return NULL;
  jail_probe_item *it = &items[(*n)++];
  memset(it, 0, sizeof *it);
  snprintf(it->name, sizeof it->name, "%s", name);
  it->ok = ok;
  snprintf(it->detail, sizeof it->detail, "%s", detail ? detail : "");
  snprintf(it->fix, sizeof it->fix, "%s", fix ? fix : "");
  return it;
}

/* Why user namespaces fail, from the sysctls that usually cause it. */
static void userns_fix(char *fix, size_t n) {
  long v;
  if (read_sysctl("/proc/sys/kernel/unprivileged_userns_clone", &v) == 0 && v == 0) {
    snprintf(fix, n, "kernel.unprivileged_userns_clone is 0: sysctl -w "
                     "kernel.unprivileged_userns_clone=1");
  } else if (read_sysctl("/proc/sys/user/max_user_namespaces", &v) == 0 && v == 0) {
    snprintf(fix, n, "user.max_user_namespaces is 0: sysctl -w user.max_user_namespaces=15000");
  } else if (read_sysctl("/proc/sys/kernel/apparmor_restrict_unprivileged_userns", &v) == 0 &&
             v == 1) {
    snprintf(fix, n, "AppArmor restricts unprivileged user namespaces (Ubuntu 23.10+/24.04): "
                     "sysctl -w kernel.apparmor_restrict_unprivileged_userns=0, or load an "
                     "AppArmor profile with 'userns,' for sbx-pyworker");
  } else {
    snprintf(fix, n, "likely a container's seccomp profile (Docker's default denies "
                     "unshare/clone with CLONE_NEWUSER): run the container with "
                     "--security-opt seccomp=unconfined or a profile that allows them");
  }
}

int jail_probe(jail_probe_item *items, int max, int *jail_ok) {
  int n = 0;
  *jail_ok = 0;
  char helper[PATH_MAX], buf[1024];
  int have_helper = jail_find_helper(helper, sizeof helper) == 0;
  if (!have_helper) {
    add_item(items, max, &n, "worker binary", 0, "sbx-pyworker not found",
             "set SBX_PYWORKER to its absolute path, or install it as "
             "/usr/local/libexec/sbx/sbx-pyworker");
  } else {
    add_item(items, max, &n, "worker binary", 1, helper, "");
  }
  /* The interpreter the worker execs (worker/main.c) and its library. */
  int py = access("/usr/lib/python3.11/os.py", R_OK) == 0 && access("/usr/bin/python3.11", X_OK) == 0;
  add_item(items, max, &n, "python runtime", py,
           py ? "Debian's CPython 3.11: /usr/bin/python3.11, /usr/lib/python3.11"
              : "/usr/bin/python3.11 or /usr/lib/python3.11 is missing",
           py ? "" : "apt-get install python3.11");
  int np = access("/usr/lib/python3/dist-packages/numpy", R_OK) == 0;
  int pd = access("/usr/lib/python3/dist-packages/pandas", R_OK) == 0;
  snprintf(buf, sizeof buf, "numpy %s, pandas %s", np ? "installed" : "missing",
           pd ? "installed" : "missing");
  add_item(items, max, &n, "numpy and pandas", np && pd ? 1 : -1, buf,
           np && pd ? "" : "optional: apt-get install python3-numpy python3-pandas");
  /* How the memory of all the jail's processes together is bounded. */
  {
    jail_cgroup cg;
    char why[JAIL_ERRMSG_MAX];
    if (jail_cgroup_create(&cg, 64u << 20, 16, why, sizeof why) == 0) {
      snprintf(buf, sizeof buf, "cgroup v%d: the call's memory limit covers every process, memfd and "
               "shared memory of a jail (made and removed under %.600s)", cg.version,
               cg.dir);
      char *slash = strrchr(buf, '/');
      if (slash && slash > buf + 20) strcpy(slash, ")");
      jail_cgroup_remove(&cg);
      add_item(items, max, &n, "jail memory limit", 1, buf, "");
    } else {
      snprintf(buf, sizeof buf, "no memory cgroup (%.700s): memfd_create and SysV shared memory "
               "are denied, /dev/shm is a small tmpfs and the jail's init kills all its "
               "processes when their memory passes the call's limit", why);
      add_item(items, max, &n, "jail memory limit", -1, buf,
               "optional: give sbx a delegated cgroup v2 subtree with the memory controller "
               "(systemd-run --user -p Delegate=yes, or a container with its own cgroup "
               "namespace) and run it in a leaf of it");
    }
  }
  if (!have_helper) return n;

  int p[2];
  if (pipe2(p, O_CLOEXEC)) return n;
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, p[1], 1);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addclosefrom_np(&fa, 3);
  char *argv[] = {(char *)"sbx-pyworker", (char *)"probe", NULL};
  char *envp[] = {NULL};
  pid_t pid;
  int rc = posix_spawn(&pid, helper, &fa, NULL, argv, envp);
  posix_spawn_file_actions_destroy(&fa);
  close(p[1]);
  if (rc != 0) {
    close(p[0]);
    snprintf(buf, sizeof buf, "cannot run %.900s: %s", helper, strerror(rc));
    add_item(items, max, &n, "worker binary", 0, buf, "check that the file is executable");
    return n;
  }
  FILE *f = fdopen(p[0], "re");
  int all_ok = 1;
  char line[1024];
  while (f && fgets(line, sizeof line, f)) {
    line[strcspn(line, "\n")] = 0;
    char *name = line, *st = strchr(line, '\t'), *detail = NULL;
    if (!st) continue;
    *st++ = 0;
    detail = strchr(st, '\t');
    if (!detail) continue;
    *detail++ = 0;
    int ok = strcmp(st, "ok") == 0 ? 1 : strcmp(st, "partial") == 0 ? -1 : 0;
    char fix[320] = "";
    if (ok == 0) {
      if (strcmp(name, "user namespaces") == 0 || strcmp(name, "namespaces") == 0) {
        userns_fix(fix, sizeof fix);
      } else if (strcmp(name, "FUSE in the jail") == 0) {
        if (strstr(detail, "missing"))
          snprintf(fix, sizeof fix, "load the fuse module (modprobe fuse) or pass /dev/fuse "
                                    "into the container (--device /dev/fuse)");
        else if (strstr(detail, "cannot open") || strstr(detail, "Permission denied"))
          snprintf(fix, sizeof fix, "chmod 0666 /dev/fuse (Debian's default), or run as root");
        else
          snprintf(fix, sizeof fix, "FUSE mounts in user namespaces need Linux 4.18+; a "
                                    "container may also need --device /dev/fuse");
      } else if (strcmp(name, "private /proc") == 0) {
        snprintf(fix, sizeof fix, "the container masks parts of /proc (Docker's default): run "
                                  "with --security-opt systempaths=unconfined");
      } else if (strcmp(name, "landlock") == 0) {
        snprintf(fix, sizeof fix, "optional: Linux 5.13+ with lsm=...,landlock on the kernel "
                                  "command line; the jail works without it");
        ok = -1; /* Landlock is defence in depth, not required */
      } else if (strcmp(name, "seccomp") == 0) {
        snprintf(fix, sizeof fix, "a kernel with CONFIG_SECCOMP_FILTER is required");
      } else {
        snprintf(fix, sizeof fix, "see the detail");
      }
      if (ok == 0) all_ok = 0;
    }
    add_item(items, max, &n, name, ok, detail, fix);
  }
  if (f) fclose(f);
  else close(p[0]);
  int st;
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
  }
  if (!all_ok) return n;

  /* The whole chain: a jail with the Python worker, which must say HELLO. */
  jail_config cfg = {.root = JAIL_ROOT_TMPFS, .cwd = "/"};
  cfg.limits.nproc = 64;
  cfg.limits.nofile = 256;
  cfg.limits.mem_bytes = 1ull << 30;
  jail j;
  char err[JAIL_ERRMSG_MAX];
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  if (jail_start(&cfg, &j, err, sizeof err) || jail_wait_ready(&j, 10000, err, sizeof err)) {
    add_item(items, max, &n, "full jail", 0, err, "see the failing step above");
    return n;
  }
  struct pollfd pf = {j.ctl_fd, POLLIN, 0};
  uint8_t hello[64];
  ssize_t got = 0;
  if (poll(&pf, 1, 10000) == 1) got = read(j.ctl_fd, hello, sizeof hello);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
  char errtext[200] = "";
  if (got <= 0) {
    fcntl(j.err_fd, F_SETFL, O_NONBLOCK);
    ssize_t el = read(j.err_fd, errtext, sizeof errtext - 1);
    errtext[el > 0 ? el : 0] = 0;
  }
  jail_stop(&j, 2000);
  if (got > 9 && hello[4] == 64 /* PY_MSG_HELLO */) {
    snprintf(buf, sizeof buf, "jail + CPython worker started in %.1f ms", ms);
    add_item(items, max, &n, "full jail", 1, buf, "");
    *jail_ok = 1;
  } else {
    snprintf(buf, sizeof buf, "the worker did not start in the jail%s%s", errtext[0] ? ": " : "",
             errtext);
    add_item(items, max, &n, "full jail", 0, buf, "run the worker's checks above");
  }
  return n;
}
